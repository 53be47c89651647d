"""Dice & Hands: the small demo game that exercises the table runtime.

Every part of the runtime is used: a shuffled deck (chance), a hand per player (a secret),
public bets taken in turn, a simultaneous secret card choice, a die roll (chance), an
optional choice window, and auto-pass. Rules in docs/rules/dicehand.md.
"""
from __future__ import annotations

from typing import Any

from engines.base import CHANCE, Action, Awaiting, ChanceRequest, Engine, Option, RuleError, State
from engines.text import N_, Msg, msg

DECK_SIZE = 15
HAND = 3
MAX_BET = 2


def _is_int(x: Any) -> bool:
    return type(x) is int  # JSON true is not a number here


class DiceHand(Engine):
    name = "dicehand"
    title = "Dice & Hands"
    title_ja = "ダイス＆ハンズ"
    min_players = 2
    max_players = 5
    options = (
        Option("rounds", N_("How many rounds to play."), 3, (1, 2, 3, 4, 5)),
        Option("window_minutes", N_("Minutes to choose a card before the slowest get their lowest card (0 = no "
                                    "limit)."), 0, (0, 1, 5, 30, 60)),
    )

    actions = {"bet": {"amount": "int"}, "pick": {"card": "int"}}

    def setup(self, options: dict[str, Any], seats: int) -> State:
        opts = self.check_setup(options, seats)
        return {
            "phase": "shuffle", "round": 1, "rounds": opts["rounds"], "window": opts["window_minutes"] * 60,
            "seats": seats, "deck": [], "hands": [[] for _ in range(seats)], "picks": [None] * seats,
            "bets": [None] * seats, "scores": [0] * seats, "leader": 0, "turn": 0, "last": None,
        }

    # --- who acts -------------------------------------------------------
    def awaiting(self, s: State) -> Awaiting:
        phase = s["phase"]
        if phase == "shuffle":
            return Awaiting(chance=ChanceRequest("shuffle", DECK_SIZE, reason=msg("shuffle the deck")))
        if phase == "bet":
            return Awaiting(seats=frozenset({s["turn"]}), prompt=msg("a bet of 0 to {most} points", most=MAX_BET))
        if phase == "pick":
            waiting = frozenset(i for i, p in enumerate(s["picks"]) if p is None)
            return Awaiting(seats=waiting, window=s["window"] or None, prompt=msg("a secret card choice"), secret=True)
        if phase == "roll":
            return Awaiting(chance=ChanceRequest("dice", 1, 6, reason=msg("roll the die")))
        return Awaiting()

    def can_act(self, s: State, seat: int) -> bool:
        # A card choice may be changed until the last player has chosen.
        return 0 <= seat < s["seats"] and (s["phase"] == "pick" or super().can_act(s, seat))

    def legal(self, s: State, seat: int) -> list[Action]:
        if not self.can_act(s, seat):
            return []
        if s["phase"] == "bet":
            return [{"type": "bet", "amount": a} for a in range(MAX_BET + 1)]
        if s["phase"] == "pick":
            return [{"type": "pick", "card": c} for c in sorted(s["hands"][seat])]
        return []

    def label(self, action: Action) -> Msg | str:
        t = action.get("type")
        if t == "bet":
            return msg("Bet {amount}", amount=action["amount"])
        if t == "pick":
            return msg("Play card {card}", card=action["card"])
        if t == "dice":
            return msg("Die shows {value}", value=action["values"][0])
        if t == "shuffle":
            return msg("Deck shuffled")
        if t == "expire":
            return msg("Time is up")
        return super().label(action)

    # --- rules ------------------------------------------------------------
    def _apply(self, s: State, seat: int, a: Action) -> None:
        t = a["type"]
        if seat == CHANCE:
            if t == "shuffle" and s["phase"] == "shuffle":
                self._deal(s, a.get("order"))
            elif t == "dice" and s["phase"] == "roll":
                values = a.get("values")
                if not (isinstance(values, list) and len(values) == 1 and _is_int(values[0])):
                    raise RuleError("A roll is one die showing 1 to 6.")
                self._resolve(s, values[0])
            elif t == "expire" and s["phase"] == "pick":
                for i, p in enumerate(s["picks"]):
                    if p is None:
                        s["picks"][i] = min(s["hands"][i])
                s["phase"] = "roll"
            else:
                raise RuleError("That chance outcome does not fit the game now.")
            return
        if t == "bet" and s["phase"] == "bet":
            amount = a.get("amount")
            if not _is_int(amount) or not 0 <= amount <= MAX_BET:
                raise RuleError("A bet is 0 to {most} points.", most=MAX_BET)
            s["bets"][seat] = amount
            s["turn"] = (seat + 1) % s["seats"]
            if s["turn"] == s["leader"]:
                s["phase"] = "pick"
        elif t == "pick" and s["phase"] == "pick":
            card = a.get("card")
            if not _is_int(card) or card not in s["hands"][seat]:
                raise RuleError("You do not hold that card.")
            s["picks"][seat] = card
            if all(p is not None for p in s["picks"]):
                s["phase"] = "roll"
        else:
            raise RuleError("That move does not fit this part of the round.")

    def _deal(self, s: State, order: Any) -> None:
        if not (isinstance(order, list) and all(_is_int(i) for i in order) and sorted(order) == list(range(DECK_SIZE))):
            raise RuleError("A shuffle must order every card once.")
        deck = [i + 1 for i in order]
        for i in range(s["seats"]):
            s["hands"][i], deck = deck[:HAND], deck[HAND:]
        s["deck"] = deck
        s["phase"] = "bet"

    def _resolve(self, s: State, die: int) -> None:
        if not 1 <= die <= 6:
            raise RuleError("A die shows 1 to 6.")
        best = max(s["picks"])
        for i, card in enumerate(s["picks"]):
            bet = s["bets"][i] or 0
            s["scores"][i] = s["scores"][i] + die + bet if card == best else max(0, s["scores"][i] - bet)
            s["hands"][i].remove(card)
            if s["deck"]:
                s["hands"][i].append(s["deck"].pop(0))
        s["last"] = {"picks": list(s["picks"]), "die": die, "bets": list(s["bets"])}
        s["picks"] = [None] * s["seats"]
        s["bets"] = [None] * s["seats"]
        # Ruling: with 4-5 players the deck runs dry; the game ends early once a hand is empty.
        if s["round"] >= s["rounds"] or not all(s["hands"]):
            s["phase"] = "over"
            return
        s["round"] += 1
        s["leader"] = s["turn"] = (s["leader"] + 1) % s["seats"]
        s["phase"] = "bet"

    # --- timers -------------------------------------------------------------
    def auto_action(self, s: State, seat: int) -> Action | None:
        if s["phase"] == "bet":
            return {"type": "bet", "amount": 0}
        if s["phase"] == "pick" and s["picks"][seat] is None:
            return {"type": "pick", "card": min(s["hands"][seat])}
        return None

    def expire(self, s: State) -> Action | None:
        return {"type": "expire"} if s["phase"] == "pick" else None

    # --- what people see ------------------------------------------------------
    def public(self, s: State) -> dict[str, Any]:
        return {
            "phase": s["phase"], "round": s["round"], "rounds": s["rounds"], "scores": list(s["scores"]),
            "bets": list(s["bets"]), "chosen": [p is not None for p in s["picks"]] if s["phase"] == "pick" else None,
            "hand_sizes": [len(h) for h in s["hands"]], "deck_left": len(s["deck"]), "last_round": s["last"],
            "turn": s["turn"] if s["phase"] == "bet" else None,
        }

    def view(self, s: State, seat: int) -> dict[str, Any]:
        return self.public(s) | {"hand": sorted(s["hands"][seat]), "my_pick": s["picks"][seat]}

    def scores(self, s: State) -> list[int] | None:
        return list(s["scores"]) if s["phase"] == "over" else None
