"""Tokai Baron (東海男爵): the engine. Wires the pure modules (network, destinations, movement, debts) into the
``Engine`` contract of docs/engine.md. Nothing is secret: ``view`` is ``public``.

Flow: ``order`` (3 chance dice per player; the highest total plays first, ties roll again; play goes clockwise,
i.e. up the seat numbers) -> ``deal`` (a chance shuffle of the cards priced <= 30,000, 5 dealt to each player) ->
``prebuy`` (each player in turn buys one thing at a time from their hand or an express ticket, 20,000-40,000 in
all, then ``done``; the bank pays 50,000 less what they spent) -> ``start`` (decide_start with chance dice) ->
``play`` (turns) -> ``over``.

A turn: destination (decide_destination, 3 chance dice per roll: coloured, white, white; the player answers a
``region`` or ``choose`` when asked) -> 2 white dice (chance) -> ``move``: ``{"to": point}`` takes the cheapest
path of ``movement.endpoints``, ``{"to": point, "via": [points]}`` the cheapest through those waypoints in order,
``{"path": [...]}`` exactly that walk -> on arrival the payout chart pays, then one ``buy`` (route card at face
value or the express ticket) or ``pass`` -> a bonus part with the coloured die (1 chance die) after 6-6, or any
double with a ticket -> fares for the whole turn (``movement.fare``). While short, the player sells route cards:
``sell`` (to the bank at half price) or ``auction`` (the others ``bid``/``pass`` in any order; the seller then
``accept``s the high bid or sends the card to the ``bank``). With nothing left to sell they are bankrupt (route
order payment, out of the game).

Rulings made here (docs/rules/tokai.md, "Rulings: setup and the end"):
- Pre-purchase: ``done`` is allowed once 20,000 is spent, or when nothing more fits under 40,000.
  A player holds at most one express ticket (6 tickets for at most 6 players).
- The game ends at once when the last route card is bought: that turn's fares are not charged.
- The game also ends when only one player is left in it.
- An eliminated player (bankrupt, or out of moves under rule 13.1) scores 0: the bank took everything.
- A purchase, at auction too, grandfathers the line for every other player whose pawn stands on one of its points.
- Only players who can bid at least 1,000 yen (cash plus what the seller owes them) take part in an auction.
"""
from __future__ import annotations

import itertools
import json
from functools import cache
from typing import Any

from engines.base import CHANCE, Action, Awaiting, ChanceRequest, Engine, RuleError, State, clone
from engines.text import Money, Msg, Name, msg, to_json
from engines.tokai import debts
from engines.tokai import destinations as ds
from engines.tokai import movement as mv
from engines.tokai import network as nw

TICKET = debts.EXPRESS_TICKET
BANK = mv.BANK
RESERVE = 10_000  # cash an auto-played purchase leaves for fares
HOP_WORTH = 1_000  # what an auto-played move pays to end a hop nearer its destination: an own line's fare


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


def yen(amount: int) -> Money:
    return Money(amount, "yen")


def card_name(card: str) -> Name | Msg:
    """A route card's name in both languages; the express ticket is a word of the catalog."""
    if card == TICKET:
        return msg("express ticket")
    c = nw.route_cards()[card]
    return Name(c["en"], c["name"], c.get("kana", ""))


@cache
def point_name(point: str) -> Name:
    """A point's name: romaji for an English reader, the station's own name for a Japanese one, and its reading."""
    s = nw.stations()[point]
    return Name(s["en"], s["name"], s.get("reading", ""))


@cache
def region_name(region: str) -> Name:
    r = next(r for r in nw.load_destinations()["regions"] if r["id"] == region)
    return Name(r["en"], r["name"], r.get("kana", ""))


@cache
def region_area(region: str) -> Name:
    """The districts a region holds, in both languages."""
    r = next(r for r in nw.load_destinations()["regions"] if r["id"] == region)
    return Name(r["area_en"], r["area"])


def _tuple_path(path: list) -> list[tuple[str, str | None]]:
    return [(p, line) for p, line in path]


class TokaiBaron(Engine):
    name = "tokai"
    title = "Tokai Baron (東海男爵)"
    title_ja = "東海男爵"
    min_players = 2
    max_players = 6
    data_version = 2  # 2: the Shinkansen and the Tokaido line cost more (balance; data/NOTE.md)
    selfplay_auto = 0.95  # a uniform walker traps itself under the no-revisit rule; selfplay mostly heads home
    #: Every player action and its fields (engines/fields.py). A move names its end (``to``, optionally ``via``
    #: waypoints in order) or its whole walk (``path``: [point, line or null] pairs), which ``_move`` checks.
    actions = {
        "buy": {"card": "str"},  # pre-purchase, or the purchase on arrival (a route card or the express ticket)
        "done": {},  # pre-purchase finished
        "choose": {"point": "str"},  # a start point or a destination, when the dice let the player name one
        "region": {"region": "str"},  # the own-region rule: any region
        "move": {"to": "str?", "via": "str[]?", "path": "list?"},
        "pass": {},  # no purchase on arrival, or out of the bidding
        "sell": {"card": "str"},  # to the bank at half price
        "auction": {"card": "str"},
        "bid": {"amount": "int"},
        "accept": {},  # the seller takes the high bid
        "bank": {},  # the seller sells to the bank instead
    }

    # ------------------------------------------------------------ setup

    def setup(self, options: dict[str, Any], seats: int) -> State:
        self.check_setup(options, seats)
        return {
            "phase": "order",
            "order_rolls": [],  # [[seat, total], ...] of the latest seat-order roll
            "first": None,  # who rolled highest: play goes clockwise from them
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
            "event_no": 0,
            "turn_no": 0,  # turns begun: with the seat, stage and part it names a step (panels made for it)
        }

    # ------------------------------------------------------------ awaiting

    def awaiting(self, state: State) -> Awaiting:
        phase = state["phase"]
        cur = state["current"]
        if phase == "order":
            return Awaiting(chance=ChanceRequest("dice", 3 * len(self._rollers(state)), reason=msg("seat order")))
        if phase == "deal":
            return Awaiting(chance=ChanceRequest("shuffle", len(deal_cards()), reason=msg("pre-purchase deal")))
        if phase == "prebuy":
            return Awaiting(frozenset({cur}), prompt=msg("pre-purchase"))
        if phase == "start":
            out = self._start_outcome(state)
            if isinstance(out, ds.NeedDice):
                return Awaiting(chance=ChanceRequest("dice", 3, reason=msg("start point")))
            return Awaiting(frozenset({cur}), prompt=msg("start point choice"))
        if phase == "play":
            turn = state["turn"]
            stage = turn["stage"]
            if stage == "dest":
                out = self._dest_outcome(state)
                if isinstance(out, ds.NeedDice):
                    return Awaiting(chance=ChanceRequest("dice", 3, reason=msg("destination")))
                return Awaiting(frozenset({cur}), prompt=msg("destination choice"))
            if stage == "roll":
                return Awaiting(chance=ChanceRequest("dice", 1 if turn["bonus"] else 2, reason=msg("move")))
            if stage == "auction":
                auction = self._auction(state)
                if auction.finished:
                    return Awaiting(frozenset({cur}), prompt=msg("auction result"))
                return Awaiting(frozenset(auction.active) - {auction.high_bidder}, prompt=msg("auction bid"))
            prompts = {"move": msg("pawn move"), "buy": msg("purchase"), "sell": msg("sale")}
            return Awaiting(frozenset({cur}), prompt=prompts[stage])
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
            elif stage == "auction":
                self._auction_act(state, seat, action)
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

    def _event(self, state: State, said: Msg, *seats: int) -> None:
        """A public line of what happened: a message (its template and values, kept as JSON), where [0], [1] stand
        for the names of the seats given (bot.present.fill says it in the reader's language)."""
        state["event_no"] += 1
        values = {k: to_json(v) for k, v in said.values.items()}
        state["events"].append({"no": state["event_no"], "text": said.template, "values": values, "seats": list(seats)})
        del state["events"][:-40]

    # ------------------------------------------------------------ chance

    def _dice(self, action: Action, count: int, sides: int = 6) -> list[int]:
        values = action.get("values")
        if (action["type"] != "dice" or not isinstance(values, list) or len(values) != count
                or any(not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= sides for v in values)):
            raise RuleError("The chance draw must be {count} dice of 1 to {sides}.", count=count, sides=sides)
        return values

    @staticmethod
    def _rollers(state: State) -> list[int]:
        """Who rolls for seat order now: everyone, then only those tied for the highest total."""
        rolls = state["order_rolls"]
        if not rolls:
            return list(range(len(state["players"])))
        top = max(total for _, total in rolls)
        return [seat for seat, total in rolls if total == top]

    def _chance(self, state: State, action: Action) -> None:
        phase = state["phase"]
        if phase == "order":
            rollers = self._rollers(state)
            values = self._dice(action, 3 * len(rollers))
            state["order_rolls"] = [[seat, sum(values[3 * i:3 * i + 3])] for i, seat in enumerate(rollers)]
            tied = self._rollers(state)
            if len(tied) == 1:
                state["first"] = state["current"] = tied[0]
                state["phase"] = "deal"
                self._event(state, msg("[0] rolled highest and plays first."), tied[0])
            return
        if phase == "deal":
            order = action.get("order")
            n = len(deal_cards())
            if action["type"] != "shuffle" or not isinstance(order, list) or sorted(order) != list(range(n)):
                raise RuleError("The shuffle must be a permutation of 0 to {last}.", last=n - 1)
            cards = [deal_cards()[i] for i in order]
            each = _rules()["deal_each"]
            state["hands"] = [cards[i * each:(i + 1) * each] for i in range(len(state["players"]))]
            state["phase"] = "prebuy"
            state["current"] = state["first"]
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

    def _prebuy_items(self, state: State, seat: int) -> list[str]:
        """What the seat could still buy in the pre-purchase, at any price: its unowned cards and a ticket."""
        out = [c for c in state["hands"][seat] if state["owners"][c] is None]
        if not state["players"][seat]["ticket"] and state["tickets"] > 0:
            out.append(TICKET)
        return out

    @staticmethod
    def _can_reach_min(spent: int, items: list[str]) -> bool:
        """Whether some of ``items`` bring the spending to the minimum without passing the maximum."""
        rules = _rules()
        prices = [price(c) for c in items]
        return any(rules["spend_min"] <= spent + sum(combo) <= rules["spend_max"]
                   for k in range(len(prices) + 1) for combo in itertools.combinations(prices, k))

    def _prebuy_options(self, state: State, seat: int) -> list[str]:
        """What the seat may buy next: what fits under the maximum and, while the minimum can be reached, keeps
        it reachable (ruling 28: one may stop short of 20,000 only if no choice of purchases reaches it)."""
        spent, items = state["spent"][seat], self._prebuy_items(state, seat)
        must = spent < _rules()["spend_min"] and self._can_reach_min(spent, items)
        out = []
        for c in items:
            after, rest = spent + price(c), [x for x in items if x != c]
            if after > _rules()["spend_max"]:
                continue
            if must and after < _rules()["spend_min"] and not self._can_reach_min(after, rest):
                continue
            out.append(c)
        return out

    def _prebuy(self, state: State, seat: int, card: Any) -> None:
        if card not in self._prebuy_options(state, seat):
            raise RuleError("You may buy only cards from your hand or one express ticket, {most} at most in all, "
                            "and while {least} can be reached, nothing that would leave it out of reach.",
                            most=yen(_rules()["spend_max"]), least=yen(_rules()["spend_min"]))
        state["spent"][seat] += price(card)
        self._take(state, seat, card)
        self._event(state, msg("[0] buys {card} for {price} in the pre-purchase.", card=card_name(card),
                                price=yen(price(card))), seat)

    def _prebuy_done(self, state: State, seat: int) -> None:
        spent = state["spent"][seat]
        if spent < _rules()["spend_min"] and self._can_reach_min(spent, self._prebuy_items(state, seat)):
            raise RuleError("You must spend at least {least} in the pre-purchase: your cards can still reach it.",
                            least=yen(_rules()["spend_min"]))
        pay = _rules()["start_money"] - state["spent"][seat]
        state["players"][seat]["cash"] += pay
        state["bank"] -= pay
        self._event(state, msg("[0] is done buying: spent {spent}, the bank pays {pay}.",
                               spent=yen(state["spent"][seat]), pay=yen(pay)), seat)
        state["current"] = self._left_of(state, seat)
        if state["current"] == state["first"]:
            state["phase"] = "start"
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
        self._event(state, msg("[0] starts at {point}.", point=point_name(point)), seat)
        state["start_rolls"] = []
        if self._left_of(state, seat) != state["first"]:
            state["current"] = self._left_of(state, seat)
            return
        for i, p in enumerate(state["players"]):  # a start on a pre-purchased line rides it as just bought
            p["riding"] = [c for c, owner in state["owners"].items()
                           if owner is not None and owner != i and p["pos"] in _card_points(c)]
        state["phase"] = "play"
        self._begin_turn(state, state["first"])

    # ------------------------------------------------------------ turns

    def _begin_turn(self, state: State, seat: int) -> None:
        me = state["players"][seat]
        state["current"] = seat
        state["turn_no"] += 1
        state["turn"] = {"bonus": False, "bonus_due": False, "stage": "roll", "rolls": [], "region": None,
                         "path": [[me["pos"], None]], "moves": {}, "steps": 0, "dice": [], "bills": []}
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
            self._event(state, msg("[0] rests a turn."), state["current"])
            self._end_part(state)

    def _set_dest(self, state: State, point: str) -> None:
        state["players"][state["current"]]["dest"] = point
        state["turn"]["stage"] = "roll"
        self._event(state, msg("[0] is bound for {point}.", point=point_name(point)), state["current"])

    def _dest_choice(self, state: State, action: Action) -> None:
        turn = state["turn"]
        out = self._dest_outcome(state)
        if isinstance(out, ds.Choose) and out.kind == ds.REGION:
            if action["type"] != "region" or action.get("region") not in out.options:
                raise RuleError("Choose a region.")
            turn["region"] = action["region"]
            self._event(state, msg("[0] chooses the region {region}.", region=region_name(action["region"])),
                        state["current"])
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
        turn["dice"] = values
        moves = self._endpoints(state, seat)
        if not moves:
            self._event(state, msg("[0] rolled {n} and cannot move without passing a point twice: out of the game.",
                                   n=turn["steps"]), seat)
            self._eliminate(state, seat)
            return
        turn["moves"] = dict(sorted(moves.items()))
        turn["stage"] = "move"

    def clone(self, state: State) -> State:
        # A roll's moves (every ending with its path: up to ~40 KB after a roll of 12) are only ever replaced, never
        # changed in place, so the copy shares them: copying them was a quarter of a move's cost.
        turn = state.get("turn")
        if not turn or not turn.get("moves"):
            return clone(state)
        new = clone({k: {**v, "moves": {}} if k == "turn" else v for k, v in state.items()})
        new["turn"]["moves"] = turn["moves"]
        return new

    @staticmethod
    def _endpoints(state: State, seat: int, via: list[str] | tuple = ()) -> dict[str, list]:
        me = state["players"][seat]
        moves = mv.endpoints(me["pos"], state["turn"]["steps"], visited=me["visited"], express=me["ticket"],
                             destination=me["dest"], owners=state["owners"], me=seat, riding=me["riding"], via=via)
        return {p: [list(h) for h in path] for p, path in moves.items()}

    def _move(self, state: State, seat: int, action: Action) -> None:
        turn = state["turn"]
        me = state["players"][seat]
        if action["type"] != "move":
            raise RuleError("Choose where to move.")
        if action.get("path") is not None:
            if action.get("to") is not None or action.get("via") is not None:
                raise RuleError("Name where your move ends (with waypoints if you like), or the whole path, not both.")
            path = action["path"]
            ok = all(type(h) is list and len(h) == 2 and type(h[0]) is str and (h[1] is None or type(h[1]) is str)
                     for h in path)
            steps = turn["steps"]
            if ok:
                want = [tuple(h) for h in path]
                ok = any(w == want for w in mv.walks(me["pos"], steps, frozenset(me["visited"]), me["ticket"],
                                                     me["dest"]))
            if not ok:
                raise RuleError("That route is not a legal move for this roll.")
            path = [list(h) for h in path]
        else:
            to, via = action.get("to"), action.get("via") or []
            if to is None:
                raise RuleError("Name the point where your move ends.")
            for point in [to, *via]:
                if point not in nw.stations():
                    raise RuleError("There is no point called “{name}” on the map.", name=point[:30])
            if to not in turn["moves"]:
                raise RuleError("You cannot end your move there.")
            if via:
                path = self._endpoints(state, seat, via).get(to)
                if path is None:
                    raise RuleError("No legal route for this roll passes those points in that order.")
            else:
                path = turn["moves"][to]
        if len(turn["path"]) > 1:
            turn["path"].append([me["pos"], None])  # a pause between the normal and the bonus move
        turn["path"].extend([list(hop) for hop in path[1:]])  # its own hops, not the shared moves' ones
        me["visited"].extend(p for p, _ in path[1:])
        me["pos"] = path[-1][0]
        turn["moves"] = {}
        if me["pos"] == me["dest"]:
            pay = nw.payout_table_lookup(me["from"], me["dest"])
            me["cash"] += pay
            state["bank"] -= pay
            self._event(state, msg("[0] arrives at {point} and collects {pay}.", point=point_name(me["dest"]),
                                   pay=yen(pay)), seat)
            me["from"], me["dest"], me["visited"] = me["pos"], None, [me["pos"]]
            turn["stage"] = "buy"
        else:
            self._event(state, msg("[0] moves {n} to {point}.", n=turn["steps"], point=point_name(me["pos"])), seat)
            self._end_part(state)

    def _buy_options(self, state: State, seat: int) -> list[str]:
        me = state["players"][seat]
        out = [c for c, owner in state["owners"].items() if owner is None and price(c) <= me["cash"]]
        if not me["ticket"] and state["tickets"] > 0 and price(TICKET) <= me["cash"]:
            out.append(TICKET)
        return out

    def _buy(self, state: State, seat: int, action: Action) -> None:
        if action["type"] == "pass":
            self._event(state, msg("[0] buys nothing."), seat)
            self._end_part(state)
            return
        card = action.get("card")
        if action["type"] != "buy" or card not in self._buy_options(state, seat):
            raise RuleError("You may buy one route card the bank holds, or an express ticket, that you can pay for.")
        state["players"][seat]["cash"] -= price(card)
        state["bank"] += price(card)
        self._take(state, seat, card)
        self._event(state, msg("[0] buys {card} for {price}.", card=card_name(card), price=yen(price(card))), seat)
        if all(owner is not None for owner in state["owners"].values()):
            self._finish(state, msg("The last route card is sold."))
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
        if result.paid:
            payees = [p for p in result.paid if p != BANK]
            parts = [msg("{amount} to the bank", amount=yen(amount)) if p == BANK else
                     msg("{amount} to {who}", amount=yen(amount), who=f"[{payees.index(p) + 1}]")
                     for p, amount in result.paid.items()]
            self._event(state, msg("[0] pays fares: {parts}.", parts=parts), seat, *payees)
        if result.bankrupt:
            self._event(state, msg("[0] is bankrupt and out of the game."), seat)
            self._eliminate(state, seat)
            return
        self._next_turn(state)

    def _sell(self, state: State, seat: int, action: Action) -> None:
        me = state["players"][seat]
        card = action.get("card")
        if action["type"] not in ("sell", "auction") or card not in me["cards"]:
            raise RuleError("Sell one of your route cards to pay your fares: to the bank at half price, or at auction.")
        if action["type"] == "sell":
            self._book_sale(state, debts.bank_sale(seat, card, price(card)))
            return
        bidders = self._bidders(state)
        if not bidders:
            raise RuleError("Nobody can bid for a line now: sell it to the bank.")
        auction = debts.start_auction(seat, card, bidders, self._owed(state))
        state["turn"]["auction"] = self._auction_json(auction)
        state["turn"]["stage"] = "auction"
        self._event(state, msg("[0] puts {card} up for auction.", card=card_name(card)), seat)

    def _owed(self, state: State) -> dict[int, int]:
        """What the seller still owes each player this turn (their claim may be offset in a bid)."""
        return {payee: amount for payee, amount in state["turn"]["bills"] if payee != BANK}

    def _bidders(self, state: State) -> dict[int, int]:
        """The other players still in who can make the smallest bid, clockwise from the seller, with their cash."""
        seller = state["current"]
        owed = self._owed(state)
        out, seat = {}, self._left_of(state, seller)
        while seat != seller:
            cash = state["players"][seat]["cash"]
            if cash + owed.get(seat, 0) >= debts.UNIT:
                out[seat] = cash
            seat = self._left_of(state, seat)
        return out

    @staticmethod
    def _auction_json(a: debts.Auction) -> dict[str, Any]:
        # seats as list pairs, not dict keys: the state must survive a JSON round trip unchanged
        return {"card": a.card, "cash": [[s, c] for s, c in a.cash.items()],
                "owed": [[s, o] for s, o in a.owed.items()],
                "active": list(a.active), "high_bid": a.high_bid, "high_bidder": a.high_bidder}

    @staticmethod
    def _auction(state: State) -> debts.Auction:
        a = state["turn"]["auction"]
        return debts.Auction(state["current"], a["card"], dict(map(tuple, a["cash"])), dict(map(tuple, a["owed"])),
                             tuple(a["active"]), a["high_bid"], a["high_bidder"])

    def _auction_act(self, state: State, seat: int, action: Action) -> None:
        turn = state["turn"]
        auction = self._auction(state)
        if auction.finished:  # only the seller is awaited: take the high bid or the bank's half price
            if action["type"] not in ("accept", "bank"):
                raise RuleError("Accept the high bid, or sell the line to the bank at half price instead.")
            del turn["auction"]
            self._book_sale(state, debts.decide(auction, action["type"] == "accept", price(auction.card)))
            return
        amount = action.get("amount")
        try:
            if action["type"] == "bid" and isinstance(amount, int) and not isinstance(amount, bool):
                auction = debts.bid(auction, seat, amount)
                self._event(state, msg("[0] bids {amount}.", amount=yen(amount)), seat)
            elif action["type"] == "pass":
                auction = debts.pass_(auction, seat)
                self._event(state, msg("[0] drops out of the bidding."), seat)
            else:
                raise RuleError("Bid for the line or pass.")
        except ValueError:
            raise RuleError("Bid whole thousands of yen, from {low} to {high}.", low=yen(auction.min_bid()),
                            high=yen(auction.limit(seat))) from None
        turn["auction"] = self._auction_json(auction)
        if auction.finished and auction.high_bidder is None:
            self._event(state, msg("Nobody bids for {card}: it goes to the bank.", card=card_name(auction.card)))
            del turn["auction"]
            self._book_sale(state, debts.decide(auction, False, price(auction.card)))

    def _book_sale(self, state: State, sale: debts.Sale) -> None:
        """Book a sale while paying fares: the seller's cash and remaining bills, the line's new owner."""
        seat = state["current"]
        me = state["players"][seat]
        turn = state["turn"]
        led = debts.apply_sale(debts.ledger(me["cash"], turn["bills"], me["cards"], state["owners"]), sale)
        me["cash"] = led.cash
        turn["bills"] = [[payee, amount] for payee, amount in led.bills]
        me["cards"].remove(sale.card)
        for p in state["players"]:
            if sale.card in p["riding"]:
                p["riding"].remove(sale.card)
        if sale.buyer == BANK:
            state["owners"][sale.card] = None
            state["bank"] -= sale.cash
            self._event(state, msg("[0] sells {card} to the bank for {price}.", card=card_name(sale.card),
                                   price=yen(sale.price)), seat)
        else:
            state["players"][sale.buyer]["cash"] -= sale.cash
            self._take(state, sale.buyer, sale.card)
            self._event(state, msg("[0] buys {card} from [1] at auction for {price}.", card=card_name(sale.card),
                                   price=yen(sale.price)), sale.buyer, seat)
        turn["stage"] = "sell"
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
            self._finish(state, msg("Only one player is left."))
            return
        self._next_turn(state)

    @staticmethod
    def _left_of(state: State, seat: int) -> int:
        """The next seat clockwise still in the game (seats are numbered clockwise)."""
        n = len(state["players"])
        return next((seat + k) % n for k in range(1, n + 1) if not state["players"][(seat + k) % n]["out"])

    def _next_turn(self, state: State) -> None:
        self._begin_turn(state, self._left_of(state, state["current"]))

    def _finish(self, state: State, why: Msg) -> None:
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
            spent = state["spent"][seat]
            if spent >= _rules()["spend_min"] or not self._can_reach_min(spent, self._prebuy_items(state, seat)):
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
            cards = state["players"][seat]["cards"]
            auctions = [{"type": "auction", "card": c} for c in cards] if self._bidders(state) else []
            return [{"type": "sell", "card": c} for c in cards] + auctions
        if stage == "auction":
            auction = self._auction(state)
            if auction.finished:
                return [{"type": "accept"}, {"type": "bank"}]
            low, top = auction.min_bid(), auction.limit(seat)
            steps = (low, low + 1000, low + 5000, low + 10000, top // debts.UNIT * debts.UNIT)
            bids = sorted({b for b in steps if low <= b <= top})
            return [{"type": "bid", "amount": b} for b in bids] + [{"type": "pass"}]
        return []

    # ------------------------------------------------------------ timers, labels

    def auto_action(self, state: State, seat: int) -> Action | None:
        """What an absent player does when their time runs out: the move that brings them nearest their
        destination for the fare (a hop nearer is worth HOP_WORTH yen, so a rival's line at 5,000 is ridden only
        where it saves about five hops); on arrival the dearest line that leaves them 10,000 yen for fares (a line
        counts at face value in the assets, so buying never lowers a score); otherwise the cautious choice (stop
        pre-buying once allowed, pass on bids, accept the high bid, sell the cheapest line to the bank)."""
        moves = self.legal(state, seat)
        if not moves:
            return None
        kinds = {m["type"] for m in moves}
        if state["phase"] == "play" and state["turn"]["stage"] == "buy":
            cash = state["players"][seat]["cash"]
            lines = [m for m in moves if m["type"] == "buy" and m["card"] != TICKET
                     and cash - price(m["card"]) >= RESERVE]
            return max(lines, key=lambda m: (price(m["card"]), m["card"])) if lines else {"type": "pass"}
        for kind in ("done", "pass", "accept"):
            if kind in kinds:
                return {"type": kind}
        if "sell" in kinds:
            return min((m for m in moves if m["type"] == "sell"), key=lambda m: (price(m["card"]), m["card"]))
        if "buy" in kinds:  # pre-purchase below 20,000: the cheapest thing on offer
            return min(moves, key=lambda m: (price(m["card"]), m["card"]))
        if "move" in kinds:  # nearest the destination for the fare; a dead end comes last
            left, extra = self.hops_left(state, seat), self.extra_fares(state, seat)
            return min(moves, key=lambda m: (left[m["to"]] is None,
                                             extra[m["to"]] + HOP_WORTH * (left[m["to"]] or 0),
                                             left[m["to"]] or 0, m["to"]))
        return moves[0]

    @staticmethod
    def extra_fares(state: State, seat: int) -> dict[str, int]:
        """For each endpoint of the move: what its cheapest path adds to this turn's fares (all payees together)."""
        me, turn = state["players"][seat], state["turn"]
        before = _tuple_path(turn["path"])
        paid = sum(mv.fare(before, state["owners"], seat, me["riding"]).values())
        out = {}
        for to, path in turn["moves"].items():
            joined = before + ([(me["pos"], None)] if len(before) > 1 else []) + _tuple_path(path)[1:]
            out[to] = sum(mv.fare(joined, state["owners"], seat, me["riding"]).values()) - paid
        return out

    @staticmethod
    def hops_left(state: State, seat: int) -> dict[str, int | None]:
        """For each endpoint of the move: how many hops the destination would still be from there, without passing a
        point twice (0 = arriving), or None when it could never be reached from there (a certain loss later)."""
        me = state["players"][seat]
        graph = nw.movement_graph()
        out: dict[str, int | None] = {}
        for to, path in state["turn"]["moves"].items():
            blocked = (set(me["visited"]) | {p for p, _ in path}) - {me["dest"]}
            seen, frontier, hops = {to}, [to], 0
            out[to] = None
            while frontier:
                if me["dest"] in frontier:
                    out[to] = hops
                    break
                hops += 1
                frontier = [n for p in frontier for n in graph[p]
                            if n not in seen and n not in blocked and not seen.add(n)]
        return out

    def label(self, action: Action) -> Msg | Name:
        kind = action.get("type")
        if kind == "buy" and action.get("card") == TICKET:
            return msg("Express ticket ({price})", price=yen(price(TICKET)))
        if kind == "buy":
            return msg("Buy {card} ({price})", card=card_name(action["card"]), price=yen(price(action["card"])))
        if kind == "sell":
            card = action["card"]
            return msg("Sell {card} to the bank ({price})", card=card_name(card),
                       price=yen(debts.sell_to_bank(price(card))))
        if kind == "auction":
            return msg("Auction {card}", card=card_name(action["card"]))
        if kind == "bid":
            return msg("Bid {amount}", amount=yen(action["amount"]))
        if kind == "move":
            if action.get("to") is None:
                return msg("Move along the named path")
            if action.get("via"):
                return msg("Move to {point} via {via}", point=point_name(action["to"]),
                           via=[point_name(w) for w in action["via"]])
            return msg("Move to {point}", point=point_name(action["to"]))
        if kind in ("choose", "region"):
            return region_name(action["region"]) if kind == "region" else point_name(action["point"])
        words = {"done": msg("Done buying"), "pass": msg("Pass"), "accept": msg("Accept the high bid"),
                 "bank": msg("Sell to the bank instead")}
        return words.get(kind) or super().label(action)

    def public(self, state: State) -> dict[str, Any]:
        return json.loads(json.dumps(state))

    has_secrets = False  # a seat's view is the public one

    def view(self, state: State, seat: int) -> dict[str, Any]:
        return self.public(state)

    def scores(self, state: State) -> list[int] | None:
        if state["phase"] != "over":
            return None
        return [p["cash"] + sum(price(c) for c in p["cards"]) for p in state["players"]]
