"""Tokai Baron (東海男爵): the engine, first version. Wires the pure modules (network, destinations, movement,
debts) into the ``Engine`` contract of docs/engine.md. Nothing is secret: ``view`` is ``public``.

Flow: ``deal`` (a chance shuffle of the cards priced <= 30,000, 5 dealt to each player) -> ``prebuy`` (each
player in seat order buys one thing at a time from their hand or an express ticket, 20,000-40,000 in all, then
``done``; the bank pays 50,000 less what they spent) -> ``start`` (decide_start with chance dice, seat order)
-> ``play`` (turns) -> ``over``.

A turn: destination (decide_destination, 3 chance dice per roll: coloured, white, white; the player answers a
``region`` or ``choose`` when asked) -> 2 white dice (chance) -> ``move`` (``{"to": point}`` picks the cheapest
path of ``movement.endpoints``; ``{"path": [...]}`` is checked against every legal walk) -> on arrival the payout
chart pays, then one ``buy`` (route card at face value or the express ticket) or ``pass`` -> a bonus part with the
coloured die (1 chance die) after 6-6, or any double with a ticket -> fares for the whole turn
(``movement.fare``), and while short the player must ``sell`` route cards to the bank at half price
(``debts``); with nothing left to sell they are bankrupt (route order payment, out of the game).

Rulings made here (docs/rules/tokai.md, "Rulings: setup and the end"):
- Seat order is the runtime's; the 3-dice roll for seat order is left out.
- Pre-purchase: ``done`` is allowed once 20,000 is spent, or when nothing more fits under 40,000.
  A player holds at most one express ticket (6 tickets for at most 6 players).
- The game ends at once when the last route card is bought: that turn's fares are not charged.
- The game also ends when only one player is left in it.
- An eliminated player (bankrupt, or out of moves under rule 13.1) scores 0: the bank took everything.
- A purchase grandfathers the line for every other player whose pawn stands on one of its points.

Left for later: the seat-order roll, player auctions when selling (bank sales only), auto-pass, labels,
a presenter, registration in engines/__init__.py, data_version care.
"""
from __future__ import annotations

import json
from functools import cache
from typing import Any

from engines.base import CHANCE, Action, Awaiting, ChanceRequest, Engine, RuleError, State
from engines.tokai import debts
from engines.tokai import destinations as ds
from engines.tokai import movement as mv
from engines.tokai import network as nw

TICKET = debts.EXPRESS_TICKET
BANK = mv.BANK


@cache
def _card_points(card_id: str) -> frozenset[str]:
    return frozenset(p for sec in nw.route_cards()[card_id]["sections"] for p in sec["stations"])


def _rules() -> dict:
    return nw.load_route_cards()["pre_purchase"]


def _ticket_price() -> int:
    return nw.load_route_cards()["express_tickets"]["price"]


def price(card: str) -> int:
    return _ticket_price() if card == TICKET else nw.route_cards()[card]["price"]


def deal_cards() -> list[str]:
    """The cards of the pre-purchase deal, in card-list order (the shuffle permutes this list)."""
    cap = _rules()["max_card_price"]
    return [c["id"] for c in nw.load_route_cards()["cards"] if c["price"] <= cap]


def _tuple_path(path: list) -> list[tuple[str, str | None]]:
    return [(p, line) for p, line in path]


class TokaiBaron(Engine):
    name = "tokai"
    title = "Tokai Baron (東海男爵)"
    min_players = 2
    max_players = 6
    data_version = 1

    # ------------------------------------------------------------ setup

    def setup(self, options: dict[str, Any], seats: int) -> State:
        self.check_setup(options, seats)
        return {
            "phase": "deal",
            "players": [{"cash": 0, "cards": [], "ticket": False, "pos": None, "from": None, "dest": None,
                         "visited": [], "riding": [], "out": False} for _ in range(seats)],
            "owners": {c: None for c in nw.route_cards()},
            "tickets": nw.load_route_cards()["express_tickets"]["count"],
            "bank": 0,  # the bank's net flow: sum of player cash + bank is always 0
            "hands": [],
            "spent": [0] * seats,
            "current": 0,
            "start_rolls": [],
            "turn": None,
            "events": [],
        }

    # ------------------------------------------------------------ awaiting

    def awaiting(self, state: State) -> Awaiting:
        phase = state["phase"]
        cur = state["current"]
        if phase == "deal":
            return Awaiting(chance=ChanceRequest("shuffle", len(deal_cards()), reason="pre-purchase deal"))
        if phase == "prebuy":
            return Awaiting(frozenset({cur}), prompt="pre-purchase")
        if phase == "start":
            out = self._start_outcome(state)
            if isinstance(out, ds.NeedDice):
                return Awaiting(chance=ChanceRequest("dice", 3, reason="start point"))
            return Awaiting(frozenset({cur}), prompt="start point choice")
        if phase == "play":
            turn = state["turn"]
            stage = turn["stage"]
            if stage == "dest":
                out = self._dest_outcome(state)
                if isinstance(out, ds.NeedDice):
                    return Awaiting(chance=ChanceRequest("dice", 3, reason="destination"))
                return Awaiting(frozenset({cur}), prompt="destination choice")
            if stage == "roll":
                return Awaiting(chance=ChanceRequest("dice", 1 if turn["bonus"] else 2, reason="move"))
            return Awaiting(frozenset({cur}), prompt={"move": "move", "buy": "purchase", "sell": "sale"}[stage])
        return Awaiting()

    # ------------------------------------------------------------ outcomes

    def _start_outcome(self, state: State, choice: str | None = None) -> ds.Outcome:
        taken = [p["pos"] for p in state["players"] if p["pos"] is not None]
        rolls = [tuple(r) for r in state["start_rolls"]]
        try:
            return ds.decide_start(rolls, taken, choice)
        except ValueError:
            raise RuleError("You cannot start there.") from None

    def _dest_outcome(self, state: State, region: str | None = None, point: str | None = None) -> ds.Outcome:
        turn = state["turn"]
        me = state["players"][state["current"]]
        rolls = [tuple(r) for r in turn["rolls"]]
        try:
            return ds.decide_destination(me["pos"], rolls, region or turn["region"], point)
        except ValueError:
            raise RuleError("That is not a choice you may make now.") from None

    # ------------------------------------------------------------ apply

    def _apply(self, state: State, seat: int, action: Action) -> None:
        kind = action["type"]
        if seat == CHANCE:
            self._chance(state, action)
            return
        phase = state["phase"]
        if phase == "prebuy":
            if kind == "buy":
                self._prebuy(state, seat, action.get("card"))
            elif kind == "done":
                self._prebuy_done(state, seat)
            else:
                raise RuleError("Buy a card or the express ticket, or say you are done.")
        elif phase == "start":
            if kind != "choose":
                raise RuleError("Name your start point.")
            out = self._start_outcome(state, self._point_arg(action))
            if not isinstance(out, ds.Destination):
                raise RuleError("You cannot start there.")
            self._set_start(state, out.point)
        elif phase == "play":
            stage = state["turn"]["stage"]
            if stage == "dest":
                self._dest_choice(state, action)
            elif stage == "move":
                self._move(state, seat, action)
            elif stage == "buy":
                self._buy(state, seat, action)
            elif stage == "sell":
                self._sell(state, seat, action)
            else:
                raise RuleError("That is not a move this game knows.")
        else:
            raise RuleError("The game is over.")

    @staticmethod
    def _point_arg(action: Action) -> str:
        point = action.get("point")
        if not isinstance(point, str):
            raise RuleError("Name a point.")
        return point

    def _event(self, state: State, text: str) -> None:
        state["events"] = (state["events"] + [text])[-10:]

    # ------------------------------------------------------------ chance

    def _dice(self, action: Action, count: int, sides: int = 6) -> list[int]:
        values = action.get("values")
        if (action["type"] != "dice" or not isinstance(values, list) or len(values) != count
                or any(not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= sides for v in values)):
            raise RuleError(f"The chance draw must be {count} dice of 1 to {sides}.")
        return values

    def _chance(self, state: State, action: Action) -> None:
        phase = state["phase"]
        if phase == "deal":
            order = action.get("order")
            n = len(deal_cards())
            if action["type"] != "shuffle" or not isinstance(order, list) or sorted(order) != list(range(n)):
                raise RuleError(f"The shuffle must be a permutation of 0 to {n - 1}.")
            cards = [deal_cards()[i] for i in order]
            each = _rules()["deal_each"]
            state["hands"] = [cards[i * each:(i + 1) * each] for i in range(len(state["players"]))]
            state["phase"] = "prebuy"
            state["current"] = 0
            return
        if phase == "start":
            state["start_rolls"].append(self._dice(action, 3))
            self._resolve_start(state)
            return
        turn = state["turn"]
        if turn["stage"] == "dest":
            turn["rolls"].append(self._dice(action, 3))
            self._resolve_dest(state)
        else:  # roll
            values = self._dice(action, 1 if turn["bonus"] else 2)
            self._rolled(state, values)

    # ------------------------------------------------------------ pre-purchase

    def _prebuy_options(self, state: State, seat: int) -> list[str]:
        me = state["players"][seat]
        room = _rules()["spend_max"] - state["spent"][seat]
        out = [c for c in state["hands"][seat] if state["owners"][c] is None and price(c) <= room]
        if not me["ticket"] and state["tickets"] > 0 and price(TICKET) <= room:
            out.append(TICKET)
        return out

    def _prebuy(self, state: State, seat: int, card: Any) -> None:
        if card not in self._prebuy_options(state, seat):
            raise RuleError("You may buy only cards from your hand or one express ticket, 40,000 yen at most in all.")
        state["spent"][seat] += price(card)
        self._take(state, seat, card)

    def _prebuy_done(self, state: State, seat: int) -> None:
        if state["spent"][seat] < _rules()["spend_min"] and self._prebuy_options(state, seat):
            raise RuleError("You must spend at least 20,000 yen in the pre-purchase.")
        pay = _rules()["start_money"] - state["spent"][seat]
        state["players"][seat]["cash"] += pay
        state["bank"] -= pay
        if seat + 1 < len(state["players"]):
            state["current"] = seat + 1
        else:
            state["phase"] = "start"
            state["current"] = 0
            state["start_rolls"] = []

    def _take(self, state: State, seat: int, card: str) -> None:
        """Give ``seat`` a card or the ticket from the bank (the price is paid by the caller)."""
        me = state["players"][seat]
        if card == TICKET:
            me["ticket"] = True
            state["tickets"] -= 1
            return
        state["owners"][card] = seat
        me["cards"].append(card)
        if state["phase"] == "play":
            for i, other in enumerate(state["players"]):
                if i != seat and not other["out"] and other["pos"] in _card_points(card):
                    if card not in other["riding"]:
                        other["riding"].append(card)

    # ------------------------------------------------------------ start points

    def _resolve_start(self, state: State) -> None:
        out = self._start_outcome(state)
        if isinstance(out, ds.Destination):
            self._set_start(state, out.point)

    def _set_start(self, state: State, point: str) -> None:
        seat = state["current"]
        me = state["players"][seat]
        me["pos"] = me["from"] = point
        me["visited"] = [point]  # the departure point counts as passed
        self._event(state, f"Seat {seat} starts at {point}.")
        state["start_rolls"] = []
        if seat + 1 < len(state["players"]):
            state["current"] = seat + 1
            return
        for i, p in enumerate(state["players"]):  # a start on a pre-purchased line rides it as just bought
            p["riding"] = [c for c, owner in state["owners"].items()
                           if owner is not None and owner != i and p["pos"] in _card_points(c)]
        state["phase"] = "play"
        self._begin_turn(state, 0)

    # ------------------------------------------------------------ turns

    def _begin_turn(self, state: State, seat: int) -> None:
        me = state["players"][seat]
        state["current"] = seat
        state["turn"] = {"bonus": False, "bonus_due": False, "stage": "roll", "rolls": [], "region": None,
                         "path": [[me["pos"], None]], "moves": {}, "steps": 0, "bills": []}
        self._begin_part(state)

    def _begin_part(self, state: State) -> None:
        turn = state["turn"]
        turn["rolls"], turn["region"], turn["moves"] = [], None, {}
        if state["players"][state["current"]]["dest"] is None:
            turn["stage"] = "dest"
            self._resolve_dest(state)
        else:
            turn["stage"] = "roll"

    def _resolve_dest(self, state: State) -> None:
        out = self._dest_outcome(state)
        if isinstance(out, ds.Destination):
            self._set_dest(state, out.point)
        elif isinstance(out, ds.RestTurn):
            self._event(state, f"Seat {state['current']} rests a turn.")
            self._end_part(state)

    def _set_dest(self, state: State, point: str) -> None:
        state["players"][state["current"]]["dest"] = point
        state["turn"]["stage"] = "roll"
        self._event(state, f"Seat {state['current']} is bound for {point}.")

    def _dest_choice(self, state: State, action: Action) -> None:
        turn = state["turn"]
        out = self._dest_outcome(state)
        if isinstance(out, ds.Choose) and out.kind == ds.REGION:
            if action["type"] != "region" or action.get("region") not in out.options:
                raise RuleError("Choose a region.")
            turn["region"] = action["region"]
            self._resolve_dest(state)
        elif isinstance(out, ds.Choose):
            if action["type"] != "choose":
                raise RuleError("Name your destination.")
            got = self._dest_outcome(state, point=self._point_arg(action))
            if not isinstance(got, ds.Destination):
                raise RuleError("That is not a destination you may name.")
            self._set_dest(state, got.point)
        else:
            raise RuleError("No choice is due now.")

    def _rolled(self, state: State, values: list[int]) -> None:
        turn = state["turn"]
        seat = state["current"]
        me = state["players"][seat]
        if not turn["bonus"]:
            a, b = values
            turn["bonus_due"] = a == b and (a == 6 or me["ticket"])
        turn["steps"] = sum(values)
        moves = mv.endpoints(me["pos"], turn["steps"], visited=me["visited"], express=me["ticket"],
                             destination=me["dest"], owners=state["owners"], me=seat, riding=me["riding"])
        if not moves:
            self._event(state, f"Seat {seat} cannot move without passing a point twice and is out.")
            self._eliminate(state, seat)
            return
        turn["moves"] = {p: [list(h) for h in path] for p, path in sorted(moves.items())}
        turn["stage"] = "move"

    def _move(self, state: State, seat: int, action: Action) -> None:
        turn = state["turn"]
        me = state["players"][seat]
        if action["type"] != "move":
            raise RuleError("Choose where to move.")
        if "path" in action:
            path = action["path"]
            ok = isinstance(path, list) and all(isinstance(h, list) and len(h) == 2 for h in path)
            steps = turn["steps"]
            if ok:
                want = [tuple(h) for h in path]
                ok = any(w == want for w in mv.walks(me["pos"], steps, frozenset(me["visited"]), me["ticket"],
                                                     me["dest"]))
            if not ok:
                raise RuleError("That route is not a legal move for this roll.")
            path = [list(h) for h in path]
        else:
            to = action.get("to")
            if to not in turn["moves"]:
                raise RuleError("You cannot end your move there.")
            path = turn["moves"][to]
        if len(turn["path"]) > 1:
            turn["path"].append([me["pos"], None])  # a pause between the normal and the bonus move
        turn["path"].extend(path[1:])
        me["visited"].extend(p for p, _ in path[1:])
        me["pos"] = path[-1][0]
        turn["moves"] = {}
        if me["pos"] == me["dest"]:
            pay = nw.payout_table_lookup(me["from"], me["dest"])
            me["cash"] += pay
            state["bank"] -= pay
            self._event(state, f"Seat {seat} arrives at {me['dest']} and collects {pay} yen.")
            me["from"], me["dest"], me["visited"] = me["pos"], None, [me["pos"]]
            turn["stage"] = "buy"
        else:
            self._end_part(state)

    def _buy_options(self, state: State, seat: int) -> list[str]:
        me = state["players"][seat]
        out = [c for c, owner in state["owners"].items() if owner is None and price(c) <= me["cash"]]
        if not me["ticket"] and state["tickets"] > 0 and price(TICKET) <= me["cash"]:
            out.append(TICKET)
        return out

    def _buy(self, state: State, seat: int, action: Action) -> None:
        if action["type"] == "pass":
            self._end_part(state)
            return
        card = action.get("card")
        if action["type"] != "buy" or card not in self._buy_options(state, seat):
            raise RuleError("You may buy one route card the bank holds, or an express ticket, that you can pay for.")
        state["players"][seat]["cash"] -= price(card)
        state["bank"] += price(card)
        self._take(state, seat, card)
        self._event(state, f"Seat {seat} buys {card}.")
        if all(owner is not None for owner in state["owners"].values()):
            self._finish(state, "The last route card is sold.")
            return
        self._end_part(state)

    def _end_part(self, state: State) -> None:
        turn = state["turn"]
        if not turn["bonus"] and turn["bonus_due"]:
            turn["bonus"] = True
            self._begin_part(state)
            return
        self._fares(state)

    # ------------------------------------------------------------ fares and debts

    def _fares(self, state: State) -> None:
        seat = state["current"]
        me = state["players"][seat]
        path = _tuple_path(state["turn"]["path"])
        bills = mv.fare(path, state["owners"], seat, me["riding"])
        me["riding"] = sorted(mv.still_riding(path, me["riding"]))
        state["turn"]["bills"] = [[payee, amount] for payee, amount in bills.items()]
        self._settle(state)

    def _settle(self, state: State) -> None:
        seat = state["current"]
        me = state["players"][seat]
        bills = [(payee, amount) for payee, amount in state["turn"]["bills"]]
        result = debts.settle(me["cash"], bills, me["cards"] + ([TICKET] if me["ticket"] else []))
        if result.must_sell:
            state["turn"]["stage"] = "sell"
            return
        for payee, amount in result.paid.items():
            me["cash"] -= amount
            if payee == BANK:
                state["bank"] += amount
            else:
                state["players"][payee]["cash"] += amount
        if result.bankrupt:
            self._event(state, f"Seat {seat} is bankrupt and out.")
            self._eliminate(state, seat)
            return
        self._next_turn(state)

    def _sell(self, state: State, seat: int, action: Action) -> None:
        me = state["players"][seat]
        card = action.get("card")
        if action["type"] != "sell" or card not in me["cards"]:
            raise RuleError("Sell one of your route cards to the bank to pay your fares.")
        got = debts.sell_to_bank(price(card))
        me["cards"].remove(card)
        state["owners"][card] = None
        me["cash"] += got
        state["bank"] -= got
        for p in state["players"]:
            if card in p["riding"]:
                p["riding"].remove(card)
        self._event(state, f"Seat {seat} sells {card} to the bank for {got} yen.")
        self._settle(state)

    def _eliminate(self, state: State, seat: int) -> None:
        me = state["players"][seat]
        for card in me["cards"]:
            state["owners"][card] = None
        for p in state["players"]:
            p["riding"] = [c for c in p["riding"] if c not in me["cards"]]
        if me["ticket"]:
            state["tickets"] += 1
        state["bank"] += me["cash"]
        me.update(cash=0, cards=[], ticket=False, out=True, pos=None, dest=None, visited=[], riding=[])
        if sum(1 for p in state["players"] if not p["out"]) <= 1:
            self._finish(state, "Only one player is left.")
            return
        self._next_turn(state)

    def _next_turn(self, state: State) -> None:
        n = len(state["players"])
        seat = state["current"]
        for k in range(1, n + 1):
            nxt = (seat + k) % n
            if not state["players"][nxt]["out"]:
                self._begin_turn(state, nxt)
                return

    def _finish(self, state: State, why: str) -> None:
        state["phase"] = "over"
        state["turn"] = None
        self._event(state, why)

    # ------------------------------------------------------------ queries

    def legal(self, state: State, seat: int) -> list[Action]:
        aw = self.awaiting(state)
        if seat not in aw.seats:
            return []
        phase = state["phase"]
        if phase == "prebuy":
            out = [{"type": "buy", "card": c} for c in self._prebuy_options(state, seat)]
            if state["spent"][seat] >= _rules()["spend_min"] or not out:
                out.append({"type": "done"})
            return out
        if phase == "start":
            out = self._start_outcome(state)
            return [{"type": "choose", "point": p} for p in out.options]
        turn = state["turn"]
        stage = turn["stage"]
        if stage == "dest":
            out = self._dest_outcome(state)
            if out.kind == ds.REGION:
                return [{"type": "region", "region": r} for r in out.options]
            return [{"type": "choose", "point": p} for p in out.options]
        if stage == "move":
            return [{"type": "move", "to": p} for p in turn["moves"]]
        if stage == "buy":
            return [{"type": "buy", "card": c} for c in self._buy_options(state, seat)] + [{"type": "pass"}]
        if stage == "sell":
            return [{"type": "sell", "card": c} for c in state["players"][seat]["cards"]]
        return []

    def public(self, state: State) -> dict[str, Any]:
        return json.loads(json.dumps(state))

    def view(self, state: State, seat: int) -> dict[str, Any]:
        return self.public(state)

    def scores(self, state: State) -> list[int] | None:
        if state["phase"] != "over":
            return None
        return [p["cash"] + sum(price(c) for c in p["cards"]) for p in state["players"]]
