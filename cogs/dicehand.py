"""Dice & Hands in Discord: how its table and hands read. Moves use the shared move panel."""
from __future__ import annotations

from bot.i18n import tr
from bot.present import Presenter, register
from bot.tables import Table


class DiceHandPresenter(Presenter):
    def public_lines(self, table: Table, lang: str = "en") -> list[str]:
        p = table.engine.public(table.state)
        names = [s.name for s in table.game.in_seat_order()]
        lines = [tr(lang, "Round {round} of {rounds} · cards left in the deck: {left}", round=p["round"],
                    rounds=p["rounds"], left=p["deck_left"])]
        for i, name in enumerate(names):
            line = tr(lang, "{name}: {points} points", name=name, points=p["scores"][i])
            if p["bets"][i] is not None:
                line += tr(lang, ", bet {amount}", amount=p["bets"][i])
            if p["chosen"] and p["chosen"][i]:
                line += " ✔ " + tr(lang, "chosen")
            lines.append(line)
        if p["last_round"]:
            last = p["last_round"]
            cards = ", ".join(f"{names[i]} {c}" for i, c in enumerate(last["picks"]))
            lines.append(tr(lang, "Last round: {cards}; the die showed {die}.", cards=cards, die=last["die"]))
        return lines

    def private_lines(self, table: Table, seat: int, lang: str = "en") -> list[str]:
        v = table.engine.view(table.state, seat)
        hand = ", ".join(str(c) for c in v["hand"]) or tr(lang, "empty")
        lines = [tr(lang, "Your hand: {cards}", cards=hand)]
        if v["my_pick"] is not None:
            lines.append(tr(lang, "Your secret choice this round: {card}", card=v["my_pick"]))
        return lines


async def setup(bot) -> None:
    register("dicehand", DiceHandPresenter())
