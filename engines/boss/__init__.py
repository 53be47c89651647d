"""I'm the Boss! (Sid Sackson): deals, open negotiation and influence cards (rules: docs/rules/boss.md).

A turn starts a deal where the dollar marker stands, or rolls the die to move the marker and
then starts a deal or draws cards. During a deal everyone may act at any moment: lay family
cards, offer to join for a price, play travel, hire sets, boss and stop cards. The boss accepts
or refuses offers and declares the deal made (which opens a last call) or failed.
Money is in thousands of dollars ($3M = 3000)."""
from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

from engines.base import CHANCE, Action, Awaiting, ChanceRequest, Engine, Option, RuleError, State
from engines.boss.board import BOARDS, COLOUR_NAMES, FAMILIES, SPACES
from engines.text import N_, Msg, Name, from_json, msg, plural, to_json

TRAVELS = (*FAMILIES, "grey")
#: The 98 influence cards: 4 family cards per family, 3 travel cards per family and 3 grey,
#: 33 hire, 10 boss, 10 stop.
DECK = ([f"family.{f}" for f in FAMILIES for _ in range(4)] + [f"travel.{t}" for t in TRAVELS for _ in range(3)]
        + ["hire"] * 33 + ["boss"] * 10 + ["stop"] * 10)
START_HAND = 5
HAND_LIMIT = 12
LATE_LIMIT = 10
DRAW = 3
HIRE_SET = 3
BOOL = (False, True)
WINDOWS = (30, 60, 120, 300, 900, 3600, 14400, 43200, 86400)
#: The cards that are not of a family, by their name in the engine.
CARD_NAMES = {"hire": N_("hire card"), "boss": N_("boss card"), "stop": N_("stop card")}


def money(k: int) -> str:
    """$ in millions from thousands: 3000 -> "$3M", 2400 -> "$2.4M" (written so in Japanese too, as the
    Japanese rules write it: "$3M")."""
    m = k / 1000
    return f"${m:g}M" if m == round(m, 3) else f"${m:.3f}M"


def colour(f: str) -> Name | str:
    """A family's (or a travel card's) colour in both languages."""
    return COLOUR_NAMES.get(f, f)


def capital(f: str) -> Name | str:
    """A colour that begins a phrase ("Red travel card …"); Japanese has no capitals."""
    name = colour(f)
    return Name(name.en.capitalize(), name.ja) if isinstance(name, Name) else name


#: How big a pile of face-down money looks to the others (the public view keeps the English; the bot says it).
CASH_BANDS = ((1, N_("no money")), (10_000, N_("a thin pile")), (25_000, N_("a small pile")),
              (50_000, N_("a fair pile")), (100_000, N_("a thick pile")))
HUGE = N_("a huge pile")


def cash_band(k: int) -> str:
    """How big a pile of face-down money looks to the others."""
    for limit, text in CASH_BANDS:
        if k < limit:
            return text
    return HUGE


def card_name(kind: str) -> Msg:
    if kind.startswith("family."):
        return msg("{family} family card", family=colour(kind[7:]))
    if kind.startswith("travel."):
        return msg("{colour} travel card", colour=colour(kind[7:]))
    return msg(CARD_NAMES[kind]) if kind in CARD_NAMES else msg("{card} card", card=kind)


def price_text(price: dict[str, Any]) -> Any:
    if "shares" in price:
        return plural(price["shares"], "{n} share", "{n} shares")
    if "money" in price:
        return money(price["money"] * 1000) if price["money"] else msg("nothing (free)")
    return msg("a fair share")


def joined(parts: list[Any], template: str = "list") -> Any:
    """Several words in one phrase: "red, blue" ("list"), "red + blue" ("plus"), "red/blue" ("or")."""
    if not parts:
        return ""
    out = parts[0]
    for p in parts[1:]:
        out = (msg("{a} + {b}", a=out, b=p) if template == "plus" else msg("{a}/{b}", a=out, b=p)
               if template == "or" else msg("{a}, {b}", a=out, b=p))
    return out


def requirement(space: dict[str, Any]) -> Any:
    """What a deal space asks for: "red + green", "blue + 2 of red/pink/green"."""
    must = joined([colour(f) for f in space["must"]], "plus")
    if not space["more"]:
        return must
    more = msg("{n} of {families}", n=space["more"], families=joined([colour(f) for f in space["from"]], "or"))
    return msg("{required} + {more}", required=must, more=more) if space["must"] else more


def event_msg(event: dict[str, Any]) -> Msg:
    """An event as a message (its values stored as JSON one by one), its seats left as [0], [1]."""
    return Msg(event["text"], {k: from_json(v) for k, v in (event.get("values") or {}).items()})


def event_text(event: dict[str, Any]) -> str:
    """An event's line in English, its seats left as [0], [1] (logs and tests)."""
    return str(event_msg(event))


PRICE_KEYS = ("shares", "money")


def price_of(action: dict[str, Any]) -> dict[str, int]:
    """The terms an offer or an acceptance names: its shares or its money (a field left out or null is not one)."""
    return {k: action[k] for k in PRICE_KEYS if action.get(k) is not None}


class Boss(Engine):
    name = "boss"
    title = "I'm the Boss!"
    title_ja = "アイム・ザ・ボス"
    min_players = 2
    max_players = 6
    data_version = 1
    options = (
        Option("board", N_("deal board: ours, or printed (when the server admin has set BOT_BOSS_BOARD)"), "ours",
               ("ours", "printed")),
        Option("last_call", N_("seconds of the last call after a deal is declared (4 hours by default, for a game "
                               "played over days; 60 when everyone plays at once)"), 14400, WINDOWS),
        Option("keep_turn", N_("variant: a boss card does not change whose turn is next"), False, BOOL),
        Option("must_deal", N_("variant: start your turn with 10 or more cards and you must make a deal"), False,
               BOOL),
        Option("paid_if_played", N_("variant: only the boss and players who played a card in the deal are paid"),
               False, BOOL),
        Option("draw_by_investors", N_("variant: draw 4/3/2/1 cards holding 0/1/2/3+ investors"), False, BOOL),
        Option("min_hand", N_("variant: with 3 cards or fewer you cannot start a deal"), False, BOOL),
        Option("late_limit", N_("variant: from the 10th deal the hand limit is 10"), False, BOOL),
        Option("short", N_("variant: a shorter game without deal tiles 3, 6 and 9"), False, BOOL),
        Option("two_player", N_("the 2-player rules at any table (always on with 2 players)"), False, BOOL),
    )
    #: Every move a player may send (engines/fields.py); the die, the shuffles and the end of a last call are
    #: the chance seat's. A travel card names an investor (family) or a laid family card (laid), one of the two;
    #: an offer asks for shares or money, one of the two. What a player sees may change under them while others
    #: play, so moves name what they answer: an acceptance its terms, a stop the card it stops (the event number
    #: of that card), "nothing more" its last call. (Older logs left these out; they still replay.)
    actions = {
        "place": {"space": "int"}, "deal": {}, "roll": {}, "draw": {},
        "discard": {"card": "str"}, "hire": {"family": "str"},
        "lay": {"family": "str"}, "travel": {"card": "str", "family": "str?", "laid": "int?"},
        "boss": {"restart": "bool"}, "stop": {"card": "int?"}, "pass": {"call": "int?"},
        "offer": {"family": "str", "shares": "int?", "money": "int?"}, "withdraw": {"family": "str"},
        "accept": {"seat": "int", "family": "str", "shares": "int?", "money": "int?"},
        "refuse": {"seat": "int", "family": "str"},
        "use": {"family": "str"}, "declare": {}, "fail": {},
    }

    # --- setup ------------------------------------------------------------------
    def check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        opts = super().check_options(options)
        if opts["board"] not in BOARDS:  # refused when the table is made, not first found at its start
            raise RuleError("This server has no printed board; an admin sets BOT_BOSS_BOARD to a board file.")
        return opts

    def setup(self, options: dict[str, Any], seats: int) -> State:
        opts = self.check_setup(options, seats)
        board = BOARDS[opts["board"]]
        tiles = [d for d in board["deals"] if not (opts["short"] and d["number"] in (3, 6, 9))]
        return {
            "opts": opts | {"two_player": opts["two_player"] or seats == 2}, "n": seats,
            "spaces": [dict(s, tile=None) for s in copy.deepcopy(board["spaces"])],
            "stack": copy.deepcopy(tiles), "deals_done": 0,
            "phase": "deck", "deck": [], "discard": [], "hands": [{} for _ in range(seats)],
            "cash": [0] * seats, "paid_out": 0, "owners": {f: None for f in FAMILIES},
            "marker": None, "turn": 0, "must_deal": False, "draw_left": 0, "limit_next": None,
            "deal": None, "last_roll": None, "end_numbers": [], "last_boss": None, "events": [], "event_no": 0,
        }

    # --- who acts ---------------------------------------------------------------
    def awaiting(self, state: State) -> Awaiting:
        ph = state["phase"]
        if ph == "deck":
            return Awaiting(chance=ChanceRequest("shuffle", len(DECK), reason=msg("shuffle the influence cards")))
        if ph == "investors":
            return Awaiting(chance=ChanceRequest("shuffle", len(FAMILIES), reason=msg("deal the investors")))
        if ph == "reshuffle":
            return Awaiting(chance=ChanceRequest("shuffle", len(state["discard"]),
                                                 reason=msg("reshuffle the discards")))
        if ph in ("move", "end_roll"):
            return Awaiting(chance=ChanceRequest("dice", 1, reason=msg("roll the die")))
        if ph == "place":
            return Awaiting(frozenset({state["n"] - 1}), prompt=msg("place the dollar marker"))
        if ph == "turn":
            return Awaiting(frozenset({state["turn"]}), prompt=msg("start a deal here or roll the die"))
        if ph == "after_roll":
            return Awaiting(frozenset({state["turn"]}), prompt=msg("start a deal here or draw cards"))
        if ph == "limit":
            over = frozenset(s for s in range(state["n"]) if self._hand_size(state, s) > self._limit(state))
            return Awaiting(over, prompt=msg("discard down to {limit} cards", limit=self._limit(state)))
        if ph == "deal":
            d = state["deal"]
            where = msg("deal {deal} on space {space}", deal=state["deals_done"] + 1, space=d["space"] + 1)
            if d["stage"] == "last_call":
                seats = frozenset(s for s in range(state["n"]) if s != d["boss"] and s not in d["passed"])
                return Awaiting(seats, window=float(state["opts"]["last_call"]),
                                prompt=msg("last call on {deal}: play a card or say nothing more", deal=where))
            seats = frozenset(s for s in range(state["n"]) if self._has_deal_move(state, s))
            return Awaiting(seats, prompt=msg("{deal}: join, offer or play cards; the boss closes it", deal=where))
        return Awaiting()

    def apply(self, state: State, seat: int, action: Action, *, in_place: bool = False) -> State:
        # During a deal anyone may act, so a seat number must be checked against the table before a hand is read.
        if type(seat) is int and seat != CHANCE and not 0 <= seat < state["n"]:
            raise RuleError("That is not a seat at this table (seats 1 to {n}).", n=state["n"])
        new = super().apply(state, seat, action, in_place=in_place)
        if seat != CHANCE:  # each seat's own count of moves: a panel made after move k plays only as move k + 1
            new.setdefault("moved", [0] * new["n"])[seat] += 1
        return new

    @staticmethod
    def moves_made(state: State, seat: int) -> int:
        """How many moves the seat has made (panels carry it, so a double press or an old panel plays nothing)."""
        return state.get("moved", [0] * state["n"])[seat]

    def can_act(self, state: State, seat: int) -> bool:
        if not 0 <= seat < state["n"]:
            return False
        if state["phase"] == "deal":  # anyone, at any moment; _apply says why a move is not possible
            return True
        return seat in self.awaiting(state).seats

    def reveals(self, before: State, seat: int, action: Action, after: State) -> bool:
        # A draw shows the drawer cards from the deck: undoing it would let them draw again.
        return seat == CHANCE or action.get("type") == "draw"

    # --- rules ------------------------------------------------------------------
    def _apply(self, state: State, seat: int, action: Action) -> None:
        kind, ph = action["type"], state["phase"]
        if seat == CHANCE:
            return self._chance(state, action)
        if ph == "place" and kind == "place":
            space = action.get("space")
            if type(space) is not int or not 0 <= space < SPACES:
                raise RuleError("Choose a space from 1 to {spaces}.", spaces=SPACES)
            state["marker"] = space
            self._event(state, msg("[0] places the dollar marker on space {space}.", space=space + 1), seat)
            return self._start_turn(state, 0)
        if ph in ("turn", "after_roll") and kind == "deal":
            if state["opts"]["min_hand"] and self._hand_size(state, seat) <= 3:
                raise RuleError("With 3 cards or fewer you cannot start a deal (variant).")
            return self._open_deal(state, seat)
        if ph == "turn" and kind == "roll":
            state["phase"] = "move"
            return None
        if ph == "after_roll" and kind == "draw":
            if state["must_deal"]:
                raise RuleError("You began your turn with 10 or more cards, so you must make a deal (variant).")
            return self._draw(state, seat, self._draw_count(state, seat))
        if ph == "limit":
            return self._limit_action(state, seat, action)
        if ph == "deal":
            return self._deal_action(state, seat, action)
        raise RuleError("That move is not possible now.")

    def _chance(self, state: State, action: Action) -> None:
        ph = state["phase"]
        if action["type"] == "expire":  # the last call ran out: the deal is made
            if ph != "deal" or state["deal"]["stage"] != "last_call":
                raise RuleError("No last call is open.")
            self._event(state, msg("The last call is over."))
            return self._close(state)
        if ph in ("deck", "investors", "reshuffle"):
            size = {"deck": len(DECK), "investors": len(FAMILIES), "reshuffle": len(state["discard"])}[ph]
            order = action.get("order")
            if action["type"] != "shuffle" or sorted(order or []) != list(range(size)):
                raise RuleError("A shuffle must be a permutation.")
            if ph == "deck":
                state["deck"] = [DECK[i] for i in order]
                for s in range(state["n"]):
                    for _ in range(START_HAND):
                        self._take(state, s, state["deck"].pop(0))
                state["phase"] = "investors"
            elif ph == "investors":
                per = {2: 3, 3: 2}.get(state["n"], 1)
                for i, f in enumerate(FAMILIES[j] for j in order):
                    state["owners"][f] = i // per if i // per < state["n"] else None
                state["phase"] = "place"
            else:
                state["deck"] = [state["discard"][i] for i in order]
                state["discard"] = []
                self._event(state, msg("The discards are shuffled into a new deck."))
                self._draw(state, state["turn"], state["draw_left"])
            return None
        values = action.get("values")
        if action["type"] != "dice" or not isinstance(values, list) or len(values) != 1 or values[0] not in range(1, 7):
            raise RuleError("A die shows 1 to 6.")
        roll = values[0]
        state["last_roll"] = roll
        if ph == "move":
            free = [i for i in range(SPACES) if state["spaces"][i]["tile"] is None]
            at = state["marker"]
            ahead = [(at + k) % SPACES for k in range(1, SPACES + 1)]
            ahead = [i for i in ahead if i in free]
            state["marker"] = ahead[(roll - 1) % len(ahead)]
            self._event(state, msg("[0] rolls {roll}: the marker moves to space {space}.", roll=roll,
                                   space=state["marker"] + 1), state["turn"])
            state["phase"] = "after_roll"
        elif ph == "end_roll":
            if roll in state["end_numbers"]:
                self._event(state, msg("[0] rolls {roll}: the game ends.", roll=roll), state["last_boss"])
                return self._finish(state)
            self._event(state, msg("[0] rolls {roll}: the game goes on.", roll=roll), state["last_boss"])
            self._end_turn(state)
        else:
            raise RuleError("No chance draw is due now.")
        return None

    # --- turns --------------------------------------------------------------------
    def _start_turn(self, state: State, seat: int) -> None:
        state["turn"] = seat
        state["phase"] = "turn"
        state["must_deal"] = state["opts"]["must_deal"] and self._hand_size(state, seat) >= 10

    def _end_turn(self, state: State) -> None:
        """After a draw or a deal: everyone over the hand limit discards, then the next turn."""
        if state["limit_next"] is None:
            state["limit_next"] = (state["turn"] + 1) % state["n"]
        if any(self._hand_size(state, s) > self._limit(state) for s in range(state["n"])):
            state["phase"] = "limit"
            return
        nxt, state["limit_next"] = state["limit_next"], None
        self._start_turn(state, nxt)

    def _draw_count(self, state: State, seat: int) -> int:
        if not state["opts"]["draw_by_investors"]:
            return DRAW
        held = sum(1 for o in state["owners"].values() if o == seat)
        return max(1, 4 - held)

    def _draw(self, state: State, seat: int, count: int) -> None:
        got = 0
        while got < count and state["deck"]:
            self._take(state, seat, state["deck"].pop(0))
            got += 1
        if got < count and state["discard"]:
            state["draw_left"] = count - got
            state["phase"] = "reshuffle"
            if got:
                self._event(state, msg("[0] draws {cards}.", cards=plural(got, "{n} card", "{n} cards")), seat)
            return
        state["draw_left"] = 0
        self._event(state, msg("[0] draws {cards}.", cards=plural(got, "{n} card", "{n} cards")), seat)
        self._end_turn(state)

    def _limit(self, state: State) -> int:
        return LATE_LIMIT if state["opts"]["late_limit"] and state["deals_done"] >= 9 else HAND_LIMIT

    def _limit_action(self, state: State, seat: int, action: Action) -> None:
        if action["type"] == "discard":
            card = action.get("card")
            if not isinstance(card, str) or not state["hands"][seat].get(card):
                raise RuleError("You do not hold that card.")
            self._give(state, seat, card)
            state["discard"].append(card)
            self._event(state, msg("[0] discards a card."), seat)
        elif action["type"] == "hire":
            self._hire(state, seat, action.get("family"))
        else:
            raise RuleError("Discard down to {limit} cards first (or play a set of three hire cards).",
                            limit=self._limit(state))
        if not any(self._hand_size(state, s) > self._limit(state) for s in range(state["n"])):
            self._end_turn(state)

    # --- cards in hands ---------------------------------------------------------
    @staticmethod
    def _hand_size(state: State, seat: int) -> int:
        return sum(state["hands"][seat].values())

    @staticmethod
    def _take(state: State, seat: int, card: str) -> None:
        hand = state["hands"][seat]
        hand[card] = hand.get(card, 0) + 1

    @staticmethod
    def _give(state: State, seat: int, card: str, count: int = 1) -> None:
        hand = state["hands"][seat]
        if hand.get(card, 0) < count:
            if count == 1:
                raise RuleError("You do not hold a {card}.", card=card_name(card))
            if card == "hire":
                raise RuleError("You do not hold {count} hire cards.", count=count)
            raise RuleError("You do not hold {count} of: {card}.", count=count, card=card_name(card))
        hand[card] -= count
        if not hand[card]:
            del hand[card]

    def _event(self, state: State, said: Msg, *seats: int) -> None:
        """A public line of what happened: its message template, its values (kept as JSON) and the seats whose
        names [0], [1] stand for."""
        state["event_no"] += 1
        event = {"no": state["event_no"], "text": said.template, "seats": list(seats)}
        if said.values:
            event["values"] = {k: to_json(v) for k, v in said.values.items()}
        state["events"].append(event)
        del state["events"][:-40]

    # --- deals ----------------------------------------------------------------------
    def _open_deal(self, state: State, seat: int) -> None:
        tile = state["stack"][0]
        space = state["spaces"][state["marker"]]
        state["phase"] = "deal"
        state["deal"] = {
            "space": state["marker"], "boss": seat, "stage": "open", "tile": tile["number"],
            "value": tile["value"], "payout": tile["value"] * space["shares"],
            "laid": [], "next_id": 1, "away": [], "played": [], "offers": [], "agreements": [],
            "passed": [], "stoppable": None, "card_players": [],
        }
        self._event(state, msg("[0] starts a deal on space {space}: {needs}, paying {payout} ({shares} × {value}).",
                               space=state["marker"] + 1, needs=requirement(space),
                               payout=money(state["deal"]["payout"]),
                               shares=plural(space["shares"], "{n} share", "{n} shares"), value=money(tile["value"])),
                    seat)

    @staticmethod
    def requirement_text(space: dict[str, Any]) -> Any:
        """What a deal space asks for, as a message ("red + 2 of blue/pink/green")."""
        return requirement(space)

    def _space(self, state: State) -> dict[str, Any]:
        return state["spaces"][state["deal"]["space"]]

    def _families(self, state: State) -> list[str]:
        sp = self._space(state)
        return [f for f in FAMILIES if f in sp["must"] or f in sp["from"]]

    def _investor_free(self, state: State, family: str, seat: int) -> bool:
        return state["owners"][family] == seat and family not in state["deal"]["away"]

    def _source(self, state: State, seat: int, family: str) -> Any:
        """What a seat can bring to the deal for a family: its investor, else its laid card id."""
        if self._investor_free(state, family, seat):
            return "investor"
        return next((c["id"] for c in state["deal"]["laid"] if c["owner"] == seat and c["family"] == family), None)

    def _valid(self, state: State, entry: dict[str, Any]) -> bool:
        src = entry["source"]
        if src == "investor":
            return self._investor_free(state, entry["family"], entry["seat"])
        return any(c["id"] == src and c["owner"] == entry["seat"] for c in state["deal"]["laid"])

    def covered(self, state: State) -> set[str]:
        d = state["deal"]
        got = {f for f in self._families(state) if self._investor_free(state, f, d["boss"])}
        got |= {c["family"] for c in d["laid"] if c["owner"] == d["boss"]}
        got |= {a["family"] for a in d["agreements"]}
        return got

    def needed(self, state: State) -> list[str]:
        """Families the deal still lacks: every missing required one, and the optional ones
        while fewer than ``more`` of them are in."""
        sp, got = self._space(state), self.covered(state)
        out = [f for f in sp["must"] if f not in got]
        if len(got & set(sp["from"])) < sp["more"]:
            out += [f for f in sp["from"] if f not in got]
        return [f for f in FAMILIES if f in out]

    def _promised(self, state: State) -> int:
        return sum(self._amount(state, a) for a in state["deal"]["agreements"])

    def _amount(self, state: State, agreement: dict[str, Any]) -> int:
        d, p = state["deal"], agreement["price"]
        if "shares" in p:
            return p["shares"] * d["value"]
        if "money" in p:
            return p["money"] * 1000
        sp = self._space(state)  # the 2-player fair share: the payout split by the deal's investors
        return d["payout"] // (len(sp["must"]) + sp["more"]) // 100 * 100

    def _tidy(self, state: State) -> None:
        """Drop offers and agreements whose card is gone (travelled, hired away) or whose
        player is now the boss (the boss's own investors and cards count by themselves)."""
        d = state["deal"]
        for key in ("offers", "agreements"):
            d[key] = [e for e in d[key] if e["seat"] != d["boss"] and self._valid(state, e)]

    def _usable(self, state: State) -> dict[str, Any]:
        """Two-player rules: family -> (seat, source) the boss may use without consent."""
        d, out = state["deal"], {}
        for f in self._families(state):
            for s in range(state["n"]):
                if s != d["boss"] and (src := self._source(state, s, f)) is not None:
                    out.setdefault(f, (s, src))
        return out

    def _able(self, state: State) -> bool:
        """Two-player rules: could the boss complete the deal now with what lies on the table?"""
        sp, got, usable = self._space(state), self.covered(state), self._usable(state)
        missing = [f for f in sp["must"] if f not in got]
        if any(f not in usable for f in missing):
            return False
        short = max(0, sp["more"] - len(got & set(sp["from"])))
        if len([f for f in sp["from"] if f not in got and f in usable]) < short:
            return False
        fair = self._amount(state, {"price": {"fair": True}})
        return self._promised(state) + (len(missing) + short) * fair <= state["deal"]["payout"]

    def _pay_card(self, state: State, seat: int, card: str, count: int = 1, to: str = "played") -> None:
        self._give(state, seat, card, count)
        (state["deal"]["played"] if to == "played" else state["discard"]).extend([card] * count)
        self._played_a_card(state["deal"], seat)

    @staticmethod
    def _played_a_card(deal: dict[str, Any], seat: int) -> None:
        """Remember who played a card in this deal (the paid_if_played variant asks)."""
        if seat not in deal["card_players"]:
            deal["card_players"].append(seat)

    def _deal_action(self, state: State, seat: int, action: Action) -> None:
        d, kind = state["deal"], action["type"]
        if kind not in ("travel", "hire", "boss", "stop") and d["stoppable"] and d["stoppable"]["seat"] != seat:
            d["stoppable"] = None  # a stop answers the card just played, until another player moves
        if kind in ("lay", "travel", "hire", "boss", "stop"):
            self._play_card(state, seat, action)
        elif kind == "pass":
            if d["stage"] != "last_call" or seat == d["boss"] or seat in d["passed"]:
                raise RuleError("There is no last call for you to answer.")
            if action.get("call") is not None and action["call"] != d.get("call", 1):
                raise RuleError("That last call is over; the deal was declared again. Look at it before you answer.")
            d["passed"].append(seat)
            self._event(state, msg("[0]: nothing more."), seat)
            if len(d["passed"]) == state["n"] - 1:
                return self._close(state)
        elif d["stage"] != "open":
            raise RuleError("The deal is declared: only a card can still change it (or say nothing more).")
        elif kind == "offer":
            self._offer(state, seat, action)
        elif kind == "withdraw":
            fam = action.get("family")
            kept = [a for a in d["agreements"] if a["seat"] == seat and a["family"] == fam and self._kept(d, a)]
            if kept:  # an agreement with an earlier boss, kept by a boss card: its player may leave it
                d["agreements"].remove(kept[0])
                self._event(state, msg("[0] leaves the {family} agreement made with the earlier boss.",
                                       family=colour(fam)), seat)
            elif any(o["seat"] == seat and o["family"] == fam for o in d["offers"]):
                d["offers"] = [o for o in d["offers"] if not (o["seat"] == seat and o["family"] == fam)]
                self._event(state, msg("[0] withdraws the {family} offer.", family=colour(fam)), seat)
            else:
                raise RuleError("You have no open offer for that family.")
        elif kind in ("accept", "refuse", "use", "declare", "fail"):
            if seat != d["boss"]:
                raise RuleError("Only the boss of the deal can do that.")
            getattr(self, f"_{kind}")(state, seat, action)
        else:
            raise RuleError("That move is not possible during a deal.")
        if state["phase"] == "deal":
            self._tidy(state)
        return None

    def _offer(self, state: State, seat: int, action: Action) -> None:
        d, fam = state["deal"], action.get("family")
        if seat == d["boss"]:
            raise RuleError("The boss does not make offers; lay a family card instead.")
        if fam not in self._families(state):
            raise RuleError("This deal does not need that family.")
        src = self._source(state, seat, fam)
        if src is None:
            raise RuleError("You need the {family} investor or a {family} family card laid on the table to join for "
                            "it.", family=colour(fam))
        if fam not in self.needed(state):
            raise RuleError("The deal does not need {family} any more.", family=colour(fam))
        price = self._price(state, action)
        d["offers"] = [o for o in d["offers"] if not (o["seat"] == seat and o["family"] == fam)]
        d["offers"].append({"seat": seat, "family": fam, "source": src, "price": price})
        self._event(state, msg("[0] offers {family} (the investor) for {price}." if src == "investor" else
                               "[0] offers {family} (a family card) for {price}.",
                               family=colour(fam), price=price_text(price)), seat)

    def _price(self, state: State, action: Action) -> dict[str, int]:
        d = state["deal"]
        shares, cash = action.get("shares"), action.get("money")
        top = self._space(state)["shares"]
        if shares is not None and cash is None and type(shares) is int and 1 <= shares <= top:
            return {"shares": shares}
        if cash is not None and shares is None and type(cash) is int and 0 <= cash * 1000 <= d["payout"]:
            return {"money": cash}
        raise RuleError("A price is 1 to {top} shares, or nothing to {payout} in whole millions; only the deal's "
                        "payout can pay it.", top=top, payout=money(d["payout"]))

    @staticmethod
    def _kept(deal: dict[str, Any], agreement: dict[str, Any]) -> bool:
        """An agreement made with an earlier boss of this deal (kept when a boss card was played)."""
        return agreement.get("boss", deal["boss"]) != deal["boss"]

    def _accept(self, state: State, seat: int, action: Action) -> None:
        d = state["deal"]
        offer = self._find_offer(state, action)
        if offer is None:
            raise RuleError("There is no such offer.")
        named = price_of(action)
        if named and named != offer["price"]:
            raise RuleError("That offer has changed: it now asks {price} for {family}. Look at it again before you "
                            "accept.", price=price_text(offer["price"]), family=colour(offer["family"]))
        if offer["family"] not in self.needed(state):
            raise RuleError("The deal does not need {family} any more.", family=colour(offer["family"]))
        if self._promised(state) + self._amount(state, offer) > d["payout"]:
            raise RuleError("You would promise more than the deal pays ({payout}).", payout=money(d["payout"]))
        d["offers"].remove(offer)
        d["agreements"].append(dict(offer, boss=seat))
        self._event(state, msg("[0] accepts [1]'s {family} for {price}.", family=colour(offer["family"]),
                               price=price_text(offer["price"])), seat, offer["seat"])

    @staticmethod
    def _find_offer(state: State, action: Action) -> dict[str, Any] | None:
        return next((o for o in state["deal"]["offers"]
                     if o["seat"] == action.get("seat") and o["family"] == action.get("family")), None)

    def _refuse(self, state: State, seat: int, action: Action) -> None:
        d = state["deal"]
        offer = self._find_offer(state, action)
        if offer is None:
            raise RuleError("There is no such offer.")
        d["offers"].remove(offer)
        self._event(state, msg("[0] refuses [1]'s {family} offer.", family=colour(offer["family"])), seat,
                    offer["seat"])

    def _use(self, state: State, seat: int, action: Action) -> None:
        d, fam = state["deal"], action.get("family")
        if not state["opts"]["two_player"]:
            raise RuleError("Only the 2-player rules let the boss use another player's investor.")
        if fam not in self.needed(state) or fam not in (usable := self._usable(state)):
            raise RuleError("The deal needs no such family from the table.")
        owner, src = usable[fam]
        entry = {"seat": owner, "family": fam, "source": src, "price": {"fair": True}, "boss": seat}
        if self._promised(state) + self._amount(state, entry) > d["payout"]:
            raise RuleError("You would promise more than the deal pays ({payout}).", payout=money(d["payout"]))
        d["offers"] = [o for o in d["offers"] if not (o["seat"] == owner and o["family"] == fam)]
        d["agreements"].append(entry)
        self._event(state, msg("[0] uses [1]'s {family} for a fair share ({amount}).", family=colour(fam),
                               amount=money(self._amount(state, entry))), seat, owner)

    def _declare(self, state: State, seat: int, action: Action) -> None:
        if self.needed(state):
            raise RuleError("The deal still needs {families}.",
                            families=joined([colour(f) for f in self.needed(state)]))
        state["deal"]["stage"] = "last_call"
        state["deal"]["passed"] = []
        state["deal"]["call"] = state["deal"].get("call", 0) + 1  # "nothing more" names the last call it answers
        self._event(state, msg("[0] declares the deal made. Last call: play a card now or say nothing more."), seat)

    def _fail(self, state: State, seat: int, action: Action) -> None:
        if state["opts"]["two_player"] and self._able(state):
            raise RuleError("The deal can be made with what is on the table, so you must make it (2-player rules).")
        d = state["deal"]
        for c in d["laid"]:
            self._take(state, c["owner"], f"family.{c['family']}")
        state["discard"] += d["played"]
        self._event(state, msg("[0] declares the deal failed."), seat)
        self._after_deal(state, d["boss"])

    def _play_card(self, state: State, seat: int, action: Action) -> None:
        d, kind = state["deal"], action["type"]
        if kind == "stop":
            if d["stoppable"] is None or d["stoppable"]["seat"] == seat:
                raise RuleError("A stop answers only the travel, boss card or hire set another player "
                                "played last, before any other player moves.")
            if action.get("card") is not None and action["card"] != d["stoppable"].get("no"):
                raise RuleError("The card you meant to stop can no longer be stopped; the card a stop would answer "
                                "now is a {card}.", card=from_json(d["stoppable"]["what"]))
            stopped, snap = d["stoppable"], d["stoppable"]["snap"]
            before = {c["id"] for c in snap["deal"]["laid"]}
            later = [c for c in d["laid"] if c["id"] not in before]  # laid by the card's player since: back to hand
            state["owners"], state["deal"], state["discard"] = snap["owners"], snap["deal"], snap["discard"]
            for c in later:
                self._take(state, c["owner"], f"family.{c['family']}")
            d = state["deal"]
            self._pay_card(state, seat, "stop")
            self._event(state, msg("[0] plays a stop card: [1]'s {card} is cancelled.",
                                   card=from_json(stopped["what"])), seat, stopped["seat"])
        else:
            if kind == "lay":
                self._lay(state, seat, action.get("family"))
                if d["stoppable"] and d["stoppable"]["seat"] != seat:
                    d["stoppable"] = None
            else:
                what, snap = getattr(self, f"_{kind}_card")(state, seat, action)
                d = state["deal"]
                d["stoppable"] = {"seat": seat, "what": to_json(what), "snap": snap, "no": state["event_no"]}
        if d["stage"] == "last_call":
            self._event(state, msg("The last call is over: the negotiation is open again."))
        d["stage"], d["passed"] = "open", []

    def _snapshot(self, state: State) -> dict[str, Any]:
        deal = dict(state["deal"], stoppable=None)
        return copy.deepcopy({"owners": state["owners"], "deal": deal, "discard": state["discard"]})

    def _lay(self, state: State, seat: int, fam: Any) -> None:
        d = state["deal"]
        if fam not in self._families(state):
            raise RuleError("This deal does not need that family.")
        if seat == d["boss"] and fam not in self.needed(state):
            raise RuleError("The deal does not need {family} any more.", family=colour(fam))
        if any(c["owner"] == seat and c["family"] == fam for c in d["laid"]):
            raise RuleError("You already have a {family} family card on the table.", family=colour(fam))
        self._give(state, seat, f"family.{fam}")
        self._played_a_card(d, seat)
        d["laid"].append({"id": d["next_id"], "family": fam, "owner": seat})
        d["next_id"] += 1
        self._event(state, msg("[0] lays a {family} family card.", family=colour(fam)), seat)

    def _travel_card(self, state: State, seat: int, action: Action) -> tuple[Msg, dict[str, Any]]:
        d, card_colour = state["deal"], action.get("card")
        if card_colour not in TRAVELS:
            raise RuleError("There is no such travel card.")
        laid, fam = action.get("laid"), action.get("family")
        if (laid is None) == (fam is None):
            raise RuleError("A travel card sends away one thing: an investor (family) or a family card on the "
                            "table (laid).")
        if laid is not None:
            card = next((c for c in d["laid"] if c["id"] == laid), None)
            if card is None:
                raise RuleError("That family card is not on the table.")
            fam, owner = card["family"], card["owner"]
        else:
            if fam not in self._families(state):
                raise RuleError("Send on travel only an investor this deal needs.")
            owner = state["owners"][fam]
            if owner is None or fam in d["away"]:
                raise RuleError("The {family} investor is not at the table.", family=colour(fam))
        if card_colour not in (fam, "grey"):
            raise RuleError("A {colour} travel card cannot send {family} away.", colour=colour(card_colour),
                            family=colour(fam))
        if owner == seat and (laid is not None or not state["opts"]["two_player"]):
            raise RuleError("You cannot send your own card on travel." if laid is not None else
                            "Only the 2-player rules let you send your own investor on travel.")
        target = (msg("{family} family card", family=colour(fam)) if laid is not None else
                  msg("{family} investor", family=colour(fam)))
        if laid is not None:
            self._pay_card(state, seat, f"travel.{card_colour}", to="discard")
            snap = self._snapshot(state)
            d["laid"].remove(card)
            state["discard"].append(f"family.{fam}")
        else:
            self._pay_card(state, seat, f"travel.{card_colour}")
            snap = self._snapshot(state)
            d["away"].append(fam)
        self._event(state, msg("[0] plays a {colour} travel card on [1]'s {target}.", colour=colour(card_colour),
                               target=target), seat, owner)
        return msg("travel card on the {target}", target=target), snap

    def _hire_card(self, state: State, seat: int, action: Action) -> tuple[Msg, dict[str, Any]]:
        self._check_hire(state, seat, action.get("family"))
        self._pay_card(state, seat, "hire", HIRE_SET, to="discard")
        snap = self._snapshot(state)
        self._move_investor(state, seat, action["family"])
        return msg("hire of the {family} investor", family=colour(action["family"])), snap

    def _check_hire(self, state: State, seat: int, fam: Any) -> None:
        if fam not in FAMILIES:
            raise RuleError("There is no such investor.")
        if state["hands"][seat].get("hire", 0) < HIRE_SET:
            raise RuleError("A hire needs a set of three hire cards.")
        pool = [f for f, o in state["owners"].items() if o is None]
        if pool and state["owners"][fam] is not None:
            raise RuleError("While investors are left beside the board, a hire must take one of them.")
        if state["owners"][fam] == seat:
            raise RuleError("That investor is already yours.")

    def _move_investor(self, state: State, seat: int, fam: str) -> None:
        was = state["owners"][fam]
        state["owners"][fam] = seat
        if was is None:
            self._event(state, msg("[0] plays three hire cards and takes the {family} investor from beside the board.",
                                   family=colour(fam)), seat)
        else:
            self._event(state, msg("[0] plays three hire cards and takes [1]'s {family} investor.",
                                   family=colour(fam)), seat, was)

    def _hire(self, state: State, seat: int, fam: Any) -> None:
        """A hire set outside a deal (before discarding down to the hand limit)."""
        self._check_hire(state, seat, fam)
        self._give(state, seat, "hire", HIRE_SET)
        state["discard"] += ["hire"] * HIRE_SET
        self._move_investor(state, seat, fam)

    def _boss_card(self, state: State, seat: int, action: Action) -> tuple[Msg, dict[str, Any]]:
        d = state["deal"]
        if seat == d["boss"]:
            raise RuleError("You are already the boss of this deal.")
        restart = action.get("restart")
        if not isinstance(restart, bool):
            raise RuleError("Say whether the negotiation starts over.")
        self._pay_card(state, seat, "boss")
        snap = self._snapshot(state)
        old, d["boss"] = d["boss"], seat
        if restart:
            d["offers"], d["agreements"] = [], []
        self._event(state, msg("[0] plays a boss card: \"I'm the boss!\" [0] takes the deal from [1] and starts the "
                               "negotiation over." if restart else
                               "[0] plays a boss card: \"I'm the boss!\" [0] takes the deal from [1], keeping what was "
                               "agreed."), seat, old)
        return msg("boss card"), snap

    def _close(self, state: State) -> None:
        """The deal is made: the bank pays the boss, the boss pays what was agreed."""
        d, sp = state["deal"], self._space(state)
        boss = d["boss"]
        state["cash"][boss] += d["payout"]
        state["paid_out"] += d["payout"]
        self._event(state, msg("Deal made! The bank pays [0] {payout} ({shares} × {value}).",
                               payout=money(d["payout"]), shares=plural(sp["shares"], "{n} share", "{n} shares"),
                               value=money(d["value"])), boss)
        used: set[int] = set()
        for a in d["agreements"]:
            amount = self._amount(state, a)
            if a["source"] != "investor":
                used.add(a["source"])
            if state["opts"]["paid_if_played"] and a["seat"] not in d["card_players"]:
                self._event(state, msg("[1] played no card in this deal, so [0] keeps their {amount}.",
                                       amount=money(amount)), boss, a["seat"])
                continue
            state["cash"][boss] -= amount
            state["cash"][a["seat"]] += amount
            self._event(state, msg("[0] pays [1] {amount} as agreed.", amount=money(amount)), boss, a["seat"])
        got = {f for f in FAMILIES if self._investor_free(state, f, boss)} | {a["family"] for a in d["agreements"]}
        for c in d["laid"]:  # the boss's own family cards are used where nothing else brought the family
            if c["owner"] == boss and c["family"] not in got and \
                    (c["family"] in sp["must"] or len(got & set(sp["from"])) < sp["more"]):
                used.add(c["id"])
                got.add(c["family"])
        for c in d["laid"]:
            if c["id"] in used:
                state["discard"].append(f"family.{c['family']}")
            else:
                self._take(state, c["owner"], f"family.{c['family']}")
        state["discard"] += d["played"]
        tile = state["stack"].pop(0)
        sp["tile"] = tile["number"]
        state["deals_done"] += 1
        state["end_numbers"] = tile["end"]
        free = [(d["space"] + k) % SPACES for k in range(1, SPACES)]
        state["marker"] = next((i for i in free if state["spaces"][i]["tile"] is None), None)
        if not state["stack"]:
            self._event(state, msg("That was the last deal tile: the game ends."))
            state["deal"] = None
            return self._finish(state)
        self._after_deal(state, boss, roll=bool(tile["end"]))

    def _after_deal(self, state: State, boss: int, roll: bool = False) -> None:
        state["deal"] = None
        nxt = state["turn"] if state["opts"]["keep_turn"] else boss
        state["limit_next"] = (nxt + 1) % state["n"]
        state["last_boss"] = boss
        if roll:
            state["phase"] = "end_roll"
        else:
            self._end_turn(state)

    def _finish(self, state: State) -> None:
        state["phase"] = "over"
        state["deal"] = None

    # --- moves ----------------------------------------------------------------------
    def legal(self, state: State, seat: int) -> list[Action]:
        ph = state["phase"]
        if not 0 <= seat < state["n"]:
            return []
        if ph == "deal":
            return self._deal_moves(state, seat)
        if seat not in self.awaiting(state).seats:
            return []
        if ph == "place":
            return [{"type": "place", "space": i} for i in range(SPACES)]
        moves: list[Action] = []
        can_deal = not (state["opts"]["min_hand"] and self._hand_size(state, seat) <= 3)
        if ph == "turn":
            moves = [{"type": "deal"}] if can_deal else []
            return moves + [{"type": "roll"}]
        if ph == "after_roll":
            moves = [{"type": "deal"}] if can_deal or state["must_deal"] else []
            return moves + ([] if state["must_deal"] else [{"type": "draw"}])
        if ph == "limit":
            moves = [{"type": "discard", "card": c} for c in sorted(state["hands"][seat])]
            return moves + self._hire_moves(state, seat)
        return []

    def _hire_moves(self, state: State, seat: int) -> list[Action]:
        if state["hands"][seat].get("hire", 0) < HIRE_SET:
            return []
        pool = [f for f in FAMILIES if state["owners"][f] is None]
        targets = pool or [f for f in FAMILIES if state["owners"][f] != seat]
        return [{"type": "hire", "family": f} for f in targets]

    def _deal_moves(self, state: State, seat: int) -> list[Action]:
        return list(self._each_deal_move(state, seat))

    def _has_deal_move(self, state: State, seat: int) -> bool:
        return next(self._each_deal_move(state, seat), None) is not None

    def _each_deal_move(self, state: State, seat: int) -> Iterator[Action]:
        d = state["deal"]
        hand = state["hands"][seat]
        fams = self._families(state)
        open_ = d["stage"] == "open"
        lacking = self.needed(state)
        needed = lacking if open_ else []  # offers and answers only while the negotiation is open
        if seat == d["boss"] and open_:
            if not needed:
                yield {"type": "declare"}
            if not (state["opts"]["two_player"] and self._able(state)):
                yield {"type": "fail"}
            room = d["payout"] - self._promised(state)
            for o in d["offers"]:
                if o["family"] in needed and self._amount(state, o) <= room:
                    yield {"type": "accept", "seat": o["seat"], "family": o["family"], **o["price"]}
                yield {"type": "refuse", "seat": o["seat"], "family": o["family"]}
            if state["opts"]["two_player"]:
                usable = self._usable(state)
                fair = self._amount(state, {"price": {"fair": True}})
                yield from [{"type": "use", "family": f} for f in needed if f in usable and fair <= room]
        if d["stage"] == "last_call" and seat != d["boss"] and seat not in d["passed"]:
            yield {"type": "pass", "call": d.get("call", 1)}
        # cards
        for f in fams:
            if hand.get(f"family.{f}") and not any(c["owner"] == seat and c["family"] == f for c in d["laid"]) \
                    and (seat != d["boss"] or f in lacking):
                yield {"type": "lay", "family": f}
        for tc in TRAVELS:
            if not hand.get(f"travel.{tc}"):
                continue
            for f in fams:
                owner = state["owners"][f]
                if tc in (f, "grey") and owner is not None and f not in d["away"] and \
                        (owner != seat or state["opts"]["two_player"]):
                    yield {"type": "travel", "card": tc, "family": f}
            for c in d["laid"]:
                if tc in (c["family"], "grey") and c["owner"] != seat:
                    yield {"type": "travel", "card": tc, "laid": c["id"]}
        yield from self._hire_moves(state, seat)
        if hand.get("boss") and seat != d["boss"]:
            yield from [{"type": "boss", "restart": False}, {"type": "boss", "restart": True}]
        if hand.get("stop") and d["stoppable"] and d["stoppable"]["seat"] != seat:
            yield {"type": "stop", "card": d["stoppable"].get("no")}
        if open_ and seat != d["boss"]:
            top, most = self._space(state)["shares"], d["payout"] // 1000
            for f in needed:
                if self._source(state, seat, f) is not None:
                    yield from [{"type": "offer", "family": f, "shares": k} for k in range(1, top + 1)]
                    yield from [{"type": "offer", "family": f, "money": m} for m in range(0, most + 1)]
            yield from [{"type": "withdraw", "family": o["family"]} for o in d["offers"] if o["seat"] == seat]
            yield from [{"type": "withdraw", "family": a["family"]} for a in d["agreements"]
                        if a["seat"] == seat and self._kept(d, a)
                        and not any(o["seat"] == seat and o["family"] == a["family"] for o in d["offers"])]

    # --- timers -----------------------------------------------------------------------
    def auto_action(self, state: State, seat: int) -> Action | None:
        ph = state["phase"]
        if ph == "place":
            return {"type": "place", "space": 0}
        if ph == "turn":
            return {"type": "roll"}
        if ph == "after_roll":
            return {"type": "deal"} if state["must_deal"] else {"type": "draw"}
        if ph == "limit":
            return {"type": "discard", "card": sorted(state["hands"][seat])[0]}
        if ph == "deal":
            moves = self._deal_moves(state, seat)
            for kind in ("declare", "fail", "use", "pass"):
                if (m := next((m for m in moves if m["type"] == kind), None)) is not None:
                    return m
        return None

    def expire(self, state: State) -> Action | None:
        if state["phase"] == "deal" and state["deal"]["stage"] == "last_call":
            return {"type": "expire"}
        return None

    # --- views --------------------------------------------------------------------------
    def public(self, state: State) -> dict[str, Any]:
        d = state["deal"]
        deal = None
        if d is not None:
            deal = {k: copy.deepcopy(v) for k, v in d.items() if k not in ("stoppable", "next_id")}
            deal["stoppable"] = None if not d["stoppable"] else {"seat": d["stoppable"]["seat"],
                                                                 "what": d["stoppable"]["what"]}
            deal["covered"] = sorted(self.covered(state), key=FAMILIES.index)
            deal["needed"] = self.needed(state)
            deal["promised"] = self._promised(state)
            deal["amounts"] = [self._amount(state, a) for a in d["agreements"]]
        top = state["stack"][0] if state["stack"] else None
        return {
            "phase": state["phase"], "opts": dict(state["opts"]), "board": state["opts"]["board"],
            "spaces": copy.deepcopy(state["spaces"]), "marker": state["marker"],
            "top": None if top is None else {"number": top["number"], "value": top["value"], "end": top["end"]},
            "tiles_left": len(state["stack"]), "deals_done": state["deals_done"], "turn": state["turn"],
            "owners": dict(state["owners"]), "hand_sizes": [self._hand_size(state, s) for s in range(state["n"])],
            "cash_band": [cash_band(c) for c in state["cash"]], "deck": len(state["deck"]),
            "discard": len(state["discard"]), "limit": self._limit(state), "deal": deal,
            "last_roll": state["last_roll"], "events": copy.deepcopy(state["events"]),
            "scores": self.scores(state),
        }

    def view(self, state: State, seat: int) -> dict[str, Any]:
        return self.public(state) | self.private(state, seat)

    def private(self, state: State, seat: int) -> dict[str, Any]:
        return {"hand": dict(sorted(state["hands"][seat].items())), "cash": state["cash"][seat]}

    def privates(self, state: State, seats: int) -> list[dict[str, Any]]:
        return [self.private(state, s) for s in range(seats)]

    def scores(self, state: State) -> list[int] | None:
        return list(state["cash"]) if state["phase"] == "over" else None

    def label(self, action: Action) -> Msg:
        k = action["type"]
        if k == "place":
            return msg("Place the marker on space {space}", space=action["space"] + 1)
        if k in LABELS:
            return msg(LABELS[k])
        if k == "discard":
            return msg("Discard a {card}", card=card_name(action["card"]))
        if k == "lay":
            return msg("Lay a {family} family card", family=colour(action["family"]))
        if k == "travel":
            laid = action.get("laid")
            if laid is not None:
                return msg("{colour} travel card on family card #{laid}", colour=capital(action["card"]), laid=laid)
            return msg("{colour} travel card on the {family} investor", colour=capital(action["card"]),
                       family=colour(action["family"]))
        if k == "hire":
            return msg("Hire the {family} investor (3 hire cards)", family=colour(action["family"]))
        if k == "boss":
            return msg("Boss card, start over") if action["restart"] else msg("Boss card, keep the agreements")
        if k == "offer":
            return msg("Offer {family} for {price}", family=colour(action["family"]), price=price_text(action))
        if k == "withdraw":
            return msg("Withdraw the {family} offer", family=colour(action["family"]))
        if k == "accept":
            return msg("Accept seat {seat}'s {family}", seat=action["seat"] + 1, family=colour(action["family"]))
        if k == "refuse":
            return msg("Refuse seat {seat}'s {family}", seat=action["seat"] + 1, family=colour(action["family"]))
        if k == "use":
            return msg("Use the {family} investor for a fair share", family=colour(action["family"]))
        return super().label(action)


#: The moves whose label is a fixed phrase.
LABELS = {"deal": N_("Start a deal here"), "roll": N_("Roll the die"), "draw": N_("Draw cards"),
          "declare": N_("Declare the deal made"), "fail": N_("Declare the deal failed"),
          "stop": N_("Play a stop card"), "pass": N_("Nothing more")}
