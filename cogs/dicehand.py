"""Dice & Hands in Discord: how its table and hands read. Moves use the shared move panel."""
from __future__ import annotations

from bot.present import Presenter, register
from bot.tables import Table


class DiceHandPresenter(Presenter):
    def public_lines(self, table: Table, lang: str = "en") -> list[str]:
        p = table.engine.public(table.state)
        names = [s.name for s in table.game.in_seat_order()]
        lines = [f"Round {p['round']} of {p['rounds']} · cards left in the deck: {p['deck_left']}"]
        for i, name in enumerate(names):
            bet = "" if p["bets"][i] is None else f", bet {p['bets'][i]}"
            chosen = " ✔ chosen" if p["chosen"] and p["chosen"][i] else ""
            lines.append(f"{name}: {p['scores'][i]} points{bet}{chosen}")
        if p["last_round"]:
            last = p["last_round"]
            cards = ", ".join(f"{names[i]} {c}" for i, c in enumerate(last["picks"]))
            lines.append(f"Last round: {cards}; the die showed {last['die']}.")
        return lines

    def private_lines(self, table: Table, seat: int, lang: str = "en") -> list[str]:
        v = table.engine.view(table.state, seat)
        lines = [f"Your hand: {', '.join(str(c) for c in v['hand']) or 'empty'}"]
        if v["my_pick"] is not None:
            lines.append(f"Your secret choice this round: {v['my_pick']}")
        return lines


async def setup(bot) -> None:
    register("dicehand", DiceHandPresenter())
