"""4bit Town: worker placement with a secret, simultaneous 4-bit stack (rules: docs/rules/fourbit.md).

The round: a secret draft at the start of the game, then six rounds of work steps (everyone
at once chooses to pass or to send a worker with a stack of their four cards; the stack's bits
pick one of 16 locations), resolved one worker at a time, then the round end."""
from __future__ import annotations

import copy
import itertools
from typing import Any

from engines.base import CHANCE, Action, Awaiting, ChanceRequest, Engine, RuleError, State, clone
from engines.fourbit.data import ACADEMY as ACADEMY_ID
from engines.fourbit.data import (
    ACTION_COINS,
    AD_TOWER,
    ANNEX,
    ARTISANS,
    BUILD_ROW,
    BUILDING_NAMES,
    BUILDINGS,
    CAP,
    CARDS,
    CHAPEL,
    CITY_HALL,
    CITY_HALL_NAME,
    CITY_HALL_STEP_COST,
    CITY_WALL,
    CONVERSIONS,
    DESIGN_OFFICE,
    FOLLOWER_COST,
    GUILD_HALL,
    HIGHRISE,
    HIRE_COST,
    INN,
    LEVEL_UP_COST,
    LOCATIONS,
    MARKET,
    MAX_LEVEL,
    MINT,
    PLACES,
    PLAZA,
    QUARRY,
    RESIDENCES,
    RESOURCES,
    ROUNDS,
    START_HIRED,
    START_LEVEL,
    TITLE,
    TRADING,
    WAREHOUSE,
    WOODWORKS,
    WORKERS,
    track_vp,
)
from engines.text import N_, Msg, msg, plural

PERMS = list(itertools.permutations(range(4)))


def bits(n: int) -> list[int]:
    """Top card first: the top card is the 1s bit, the bottom card the 8s bit."""
    return [(n >> k) & 1 for k in range(4)]


def location_name(n: int) -> Any:
    """'11 Cathedral' (a message), or City Hall (a name)."""
    return CITY_HALL_NAME if n == CITY_HALL else msg("{n} {place}", n=n, place=PLACES[n])


def building_name(b: int) -> Any:
    return BUILDING_NAMES[b]


#: An amount of wood, stone, coins or VP ('2 wood'), and a gain of one ('+2 wood').
AMOUNT = {"wood": N_("{n} wood"), "stone": N_("{n} stone"), "coins": N_("{n} coins"), "vp": N_("{n} VP")}
GAIN = {"wood": N_("+{n} wood"), "stone": N_("+{n} stone"), "coins": N_("+{n} coins"), "vp": N_("+{n} VP")}
#: The condition of a card that acts after (or if) something ('after planning').
FLAGS = {"plan": N_("after planning"), "sell": N_("after selling"), "build": N_("after building"),
         "loc_wood": N_("if the location gives wood"), "loc_stone": N_("if the location gives stone"),
         "track": N_("after moving up at the Cathedral"), "city_hall": N_("at City Hall")}
#: The phase, as the table message and the board picture say it.
PHASES = {"setup": N_("phase: setup"), "draft": N_("phase: draft"), "work": N_("phase: work"),
          "resolve": N_("phase: resolve"), "market": N_("phase: market"), "upkeep": N_("phase: upkeep"),
          "over": N_("phase: over")}
BUILD_DISCOUNT = {"wood": N_("your build costs 2 wood less"), "stone": N_("your build costs 2 stone less")}


def amount(res: str, n: int) -> Msg:
    return msg(AMOUNT[res], n=n)


def gain_of(res: str, n: int) -> Msg:
    return msg(GAIN[res], n=n)


def joined(parts: list[Any], template: str = "plus") -> Any:
    """Several amounts in one phrase: '2 wood + 2 stone' (template "plus"), '4 wood, 4 stone' ("list")."""
    if not parts:
        return ""
    out = parts[0]
    for p in parts[1:]:
        out = msg("{a} + {b}", a=out, b=p) if template == "plus" else msg("{a}, {b}", a=out, b=p)
    return out


def _cost_text(cost: dict[str, int]) -> Any:
    return joined([amount(k, v) for k, v in cost.items() if v], "list")


def _amounts(d: dict[str, int]) -> Any:
    return joined([amount(k, v) for k, v in d.items() if v])


def effect_text(e: dict[str, Any]) -> Msg:
    """A card face in a few words: '+2 wood', '4 coins → 2 wood + 2 stone', 'after planning: +2 wood'."""
    k = e["kind"]
    if k == "gain":
        return joined([gain_of(r, v) for r, v in e["gain"].items() if v])
    if k == "convert":
        return msg("{pay} → {gain}", pay=_amounts(e["pay"]), gain=_amounts(e["gain"]))
    if k == "build_discount":
        return msg(BUILD_DISCOUNT[e["res"]])
    if k == "hire_discount":
        return msg("your hire costs 2 coins less")
    if k == "extra_hire":
        return msg("after hiring, hire 1 more at the standard cost")
    what = msg("1 more space") if e.get("step") else joined([gain_of(r, v) for r, v in e["gain"].items() if v])
    return msg("{cond}: {what}", cond=msg(FLAGS[e["flag"]]), what=what)


def place_effect(n: int) -> Msg:
    """A location's printed effect in words ('wood +12')."""
    return msg(LOCATIONS[n][2])


# what each location's own effect does, for a card that needs it (card 12 counts the printed gain only)
FLAG_PLACES = {"plan": {9}, "sell": {10}, "build": {8}, "track": {11}, "hire": {7},
               "loc_wood": {0, 13, 15}, "loc_stone": {1, 14, 15}}
TRACKED = ("wood", "stone", "coins", "vp", "level", "hired")
VERBS = {8: N_("Build {what}"), 9: N_("Plan {what}"), 10: N_("Sell {what}"), 12: N_("Cancel the plan of {what}")}


def location_label(a: dict[str, Any]) -> Msg:
    """A location move in words, without the state: 'Build Woodworks, paying 2 stone'."""
    n = a.get("at") if type(a.get("at")) is int else None
    name = PLACES[n] if n in range(16) else msg("the location")
    b = a.get("building") if type(a.get("building")) in (int, str) else None
    what = msg("the top of the deck") if b == "deck" else BUILDING_NAMES[b] if b in BUILDINGS else msg("a building")
    if n in CONVERSIONS:
        src, dst = CONVERSIONS[n]
        text = msg("Convert {times}× at {place} ({pay} → {gain} each)", times=a.get("times"), place=name,
                   pay=amount(src, 2), gain=amount(dst, 4))
    elif n in VERBS:
        text = msg(VERBS[n], what=what)
    elif n in range(16):
        text = msg("Take {place}: {effect}", place=name, effect=place_effect(n))
    else:
        text = msg("Take the location's effect")
    if a.get("bonus") in RESOURCES:
        text = msg("{text}, {bonus} bonus", text=text, bonus=gain_of(a["bonus"], 2))
    if a.get("pay") in RESOURCES:
        text = msg("{text}, paying {cost}", text=text, cost=amount(a["pay"], 2))
    return text


class FourBit(Engine):
    name = "fourbit"
    title = "4bit Town"
    title_ja = TITLE.ja
    min_players = 2
    max_players = 4
    data_version = 2  # resolution interleaves cards and the location; the round keeps its turn order

    # --- setup -----------------------------------------------------------------------
    actions = {
        "pick": {"card": "int"}, "pass": {}, "stack": {"n": "int", "order": "int[]"},
        "market": {"wood": "int", "stone": "int"}, "upkeep": {"keep": "int", "pay": "int?"},
        "use": {"card": "int", "side": "int"}, "skip": {"card": "int", "side": "int"},
        "location": {"at": "int", "building": "int|str?", "times": "int?", "pay": "str?", "bonus": "str?"},
        "decline": {"at": "int"}, "city_hall": {"gain": "str", "step": "bool?"},
    }

    def setup(self, options: dict[str, Any], seats: int) -> State:
        self.check_setup(options, seats)
        player = {"wood": 0, "stone": 0, "coins": 0, "vp": 0, "level": START_LEVEL, "hired": START_HIRED,
                  "unhired": WORKERS - START_HIRED, "sent": 0, "passed": False, "plans": [], "plans_open": [],
                  "built": [], "cards": []}
        return {"n": seats, "phase": "setup", "setup": 0, "round": 0,
                "players": [copy.deepcopy(player) for _ in range(seats)],
                "draft": None, "deck": [], "row": [], "track": [], "turn": [], "blocked": [False] * 16,
                "choices": [None] * seats, "queue": [], "res": None, "pending": {}, "reveal": None,
                "log": [], "told": 0, "final": None}

    # --- who acts ----------------------------------------------------------------------
    def awaiting(self, s: State) -> Awaiting:
        ph = s["phase"]
        if ph == "setup":
            kind = [("shuffle", 16, msg("shuffle the 4bit cards")), ("shuffle", 18, msg("shuffle the buildings")),
                    ("shuffle", s["n"], msg("draw the turn order"))][s["setup"]]
            return Awaiting(chance=ChanceRequest(kind[0], kind[1], reason=kind[2]))
        if ph == "draft":
            seats = frozenset(i for i, p in enumerate(s["draft"]["picks"]) if p is None)
            return Awaiting(seats=seats, secret=True, prompt=msg("a secret draft pick"))
        if ph == "work":
            seats = frozenset(i for i in self._active(s) if s["choices"][i] is None)
            what = msg("a secret choice: pass, or send a worker with a stack")
            return Awaiting(seats=seats, secret=True, prompt=what)
        if ph == "resolve":
            w = s["queue"][s["res"]["i"]]
            return Awaiting(seats=frozenset({w["seat"]}), prompt=self._prompt(s))
        if ph in ("market", "upkeep"):
            seats = frozenset(int(k) for k, v in s["pending"].items() if v is None)
            what = msg("the Market's trades") if ph == "market" else msg("how many workers to keep (upkeep)")
            return Awaiting(seats=seats, prompt=what)
        return Awaiting()

    def can_act(self, s: State, seat: int) -> bool:
        if not 0 <= seat < s["n"]:
            return False
        if s["phase"] == "draft":  # a pick may change until everyone has picked
            return True
        if s["phase"] == "work":
            return seat in self._active(s)
        return super().can_act(s, seat)

    def _active(self, s: State) -> list[int]:
        return [i for i, p in enumerate(s["players"]) if not p["passed"] and p["hired"] - p["sent"] > 0]

    def _prompt(self, s: State) -> Msg:
        w, r = s["queue"][s["res"]["i"]], s["res"]
        where = location_name(w["loc"])
        if r["stage"] == "city_hall":
            return msg("City Hall's gain")
        if r["card"] >= 4:
            return msg("the effect of {where}", where=where)
        card = w["order"][r["card"]]
        if r["loc_done"]:
            return msg("whether to use card {card}", card=card)
        return msg("whether to use card {card}, or to take the effect of {where} first", card=card, where=where)

    # --- legal moves --------------------------------------------------------------------
    def legal(self, s: State, seat: int) -> list[Action]:
        if not self.can_act(s, seat):
            return []
        ph = s["phase"]
        if ph == "draft":
            return [{"type": "pick", "card": c} for c in s["draft"]["hands"][seat]]
        if ph == "work":
            cards = s["players"][seat]["cards"]
            stacks = [{"type": "stack", "n": n, "order": [cards[i] for i in perm]}
                      for n in range(16) for perm in PERMS]
            return [{"type": "pass"}, *stacks]
        if ph == "resolve":
            return self._resolve_options(s)
        if ph == "market":
            p = s["players"][seat]
            limit = len(p["built"])
            return [{"type": "market", "wood": a, "stone": b} for a in range(limit + 1) for b in range(limit + 1 - a)
                    if 2 * a <= p["wood"] and 2 * b <= p["stone"]]
        if ph == "upkeep":
            p = s["players"][seat]
            return [{"type": "upkeep", "keep": k, "pay": k * 2 * p["level"]} for k in range(p["hired"], -1, -1)
                    if k * 2 * p["level"] <= p["coins"]]
        return []

    def _resolve_options(self, s: State) -> list[Action]:
        """Every choice the resolving worker's owner has now, each checked by trying it: use or skip the next
        card, or take the location's effect before it; skipping the effect is offered once the cards are done
        (skipping it earlier would gain nothing)."""
        r = s["res"]
        w = s["queue"][r["i"]]
        if r["stage"] == "city_hall":
            cands = [{"type": "city_hall", "gain": g, "step": st} for g in ("wood", "coins") for st in (False, True)]
        else:
            cands = []
            if r["card"] < 4:
                card = {"card": w["order"][r["card"]], "side": w["bits"][r["card"]]}
                cands += [{"type": "use", **card}, {"type": "skip", **card}]
            if not r["loc_done"]:
                pays = [None] if w["first"] else list(RESOURCES)
                for params in self._location_params(s, w):
                    for pay in pays:
                        cands.append({"type": "location", "at": w["loc"], **params, **({"pay": pay} if pay else {})})
                if r["card"] >= 4:
                    cands.append({"type": "decline", "at": w["loc"]})
        ok = []
        for a in cands:
            try:
                self._resolve_step(clone(s), a)  # tried on a copy
                ok.append(a)
            except RuleError:
                pass
        return ok

    def _location_params(self, s: State, w: dict[str, Any]) -> list[dict[str, Any]]:
        p, loc = s["players"][w["seat"]], w["loc"]
        if loc in CONVERSIONS:
            return [{"times": t} for t in range(1, 2 * s["round"] + 1)]
        if loc == 8:
            bonus = ["wood", "stone"] if ARTISANS in p["built"] else [None]
            return [{"building": b, **({"bonus": x} if x else {})} for b in [*p["plans"], *s["row"]] for x in bonus]
        if loc == 9:
            return [{"building": b} for b in s["row"]] + ([{"building": "deck"}] if s["deck"] else [])
        if loc == 10:
            return [{"building": b} for b in p["built"]]
        if loc == 12:
            return [{"building": b} for b in p["plans"]]
        if loc == 15 and WAREHOUSE in p["built"]:
            return [{"bonus": "wood"}, {"bonus": "stone"}]
        return [{}]

    # --- applying ----------------------------------------------------------------------------
    def _apply(self, s: State, seat: int, a: Action) -> None:
        ph, t = s["phase"], a["type"]
        if seat == CHANCE:
            if ph != "setup":
                raise RuleError("No chance draw is due now.")
            self._setup_chance(s, a)
        elif ph == "draft" and t == "pick":
            if a.get("card") not in s["draft"]["hands"][seat]:
                raise RuleError("That card is not in the hand you were passed.")
            s["draft"]["picks"][seat] = a["card"]
        elif ph == "work" and t in ("pass", "stack"):
            if t == "stack":
                order, n = a.get("order"), a.get("n")
                if not (isinstance(order, list) and all(type(c) is int for c in order)
                        and sorted(order) == sorted(s["players"][seat]["cards"])):
                    raise RuleError("A stack uses each of your four cards once.")
                if type(n) is not int or not 0 <= n <= 15:
                    raise RuleError("A stack makes a number from 0 to 15.")
            s["choices"][seat] = {"type": t, **({"n": a["n"], "order": list(a["order"])} if t == "stack" else {})}
        elif ph == "resolve":
            self._resolve_step(s, a)
        elif ph == "market" and t == "market":
            self._market(s, seat, a)
        elif ph == "upkeep" and t == "upkeep":
            self._upkeep(s, seat, a)
        else:
            raise RuleError("That move does not fit this moment of the game.")
        self._settle(s)

    def _setup_chance(self, s: State, a: Action) -> None:
        order = a.get("order")
        size = [16, 18, s["n"]][s["setup"]]
        if (a.get("type") != "shuffle" or not isinstance(order, list) or not all(type(i) is int for i in order)
                or sorted(order) != list(range(size))):
            raise RuleError("That chance outcome does not fit the game now.")
        if s["setup"] == 0:  # deal 4 each from the shuffled 4bit cards; the rest go back to the box
            cards = [i + 1 for i in order]
            s["draft"] = {"hands": [cards[4 * i:4 * i + 4] for i in range(s["n"])], "picks": [None] * s["n"], "turn": 0}
        elif s["setup"] == 1:
            deck = [i + 1 for i in order]
            s["row"], s["deck"] = deck[:BUILD_ROW], deck[BUILD_ROW:]
        else:  # all markers on space 1, the first drawn at the front; catch-up coins by position
            s["track"] = [{"seat": seat, "space": 1} for seat in order]
            for pos, seat in enumerate(order):
                s["players"][seat]["coins"] = 2 * pos
            s["phase"] = "draft"
        s["setup"] += 1

    def _settle(self, s: State) -> None:
        """Run everything that needs no decision: draft passing, reveals, forced or empty
        choices, round ends."""
        while True:
            ph = s["phase"]
            if ph == "draft" and all(p is not None for p in s["draft"]["picks"]):
                self._draft_pass(s)
            elif ph == "work" and not self._active(s):
                self._round_end(s)
            elif ph == "work" and all(s["choices"][i] is not None for i in self._active(s)):
                self._reveal(s)
            elif ph == "resolve":
                opts = self._resolve_options(s)
                if len(opts) == 1:  # nothing to decide: only a skip is possible
                    self._resolve_step(s, opts[0], auto=True)
                else:
                    return
            elif ph in ("market", "upkeep") and self._auto_round_end_choices(s):
                continue
            elif ph in ("market", "upkeep") and all(v is not None for v in s["pending"].values()):
                self._after_round_end_choice(s)
            else:
                return

    # --- the draft ---------------------------------------------------------------------------
    def _draft_pass(self, s: State) -> None:
        d, n = s["draft"], s["n"]
        hands = []
        for i in range(n):
            s["players"][i]["cards"].append(d["picks"][i])
            hands.append([c for c in d["hands"][i] if c != d["picks"][i]])
        d["hands"] = [hands[(i - 1) % n] for i in range(n)]  # pass to the left: seat i -> i + 1
        d["picks"] = [None] * n
        d["turn"] += 1
        if d["turn"] == 3:  # the last card is forced
            for i in range(n):
                s["players"][i]["cards"] += d["hands"][i]
            s["draft"] = None
            self._round_start(s)

    # --- rounds and steps -------------------------------------------------------------------------
    def _order(self, s: State) -> list[int]:
        """The track's order now: higher space first, the front of a space first. A round plays in the order
        the track had when it began (``s["turn"]``); moves during the round count from the next one."""
        ranked = sorted(range(len(s["track"])), key=lambda i: -s["track"][i]["space"])
        return [s["track"][i]["seat"] for i in ranked]

    def _move(self, s: State, seat: int, steps: int = 1) -> None:
        """Move forward; arriving on an occupied space puts you at its front."""
        entry = next(e for e in s["track"] if e["seat"] == seat)
        s["track"].remove(entry)
        entry["space"] += steps
        at = next((i for i, e in enumerate(s["track"]) if e["space"] <= entry["space"]), len(s["track"]))
        s["track"].insert(at, entry)

    def _round_start(self, s: State) -> None:
        s["round"] += 1
        s["phase"] = "work"
        s["turn"] = self._order(s)  # the track as the last round left it (never reset)
        first = s["turn"][0]
        for i, p in enumerate(s["players"]):
            if RESIDENCES in p["built"] and i != first:
                self._gain(p, {"coins": 2})
        s["choices"] = [None] * s["n"]

    def _reveal(self, s: State) -> None:
        order = s["turn"]
        rank = {seat: order.index(seat) for seat in range(s["n"])}
        level = [p["level"] for p in s["players"]]
        placed: list[dict[str, Any]] = []
        passes = []
        for seat in self._active(s):
            c = s["choices"][seat]
            if c["type"] == "pass":
                s["players"][seat]["passed"] = True
                passes.append(seat)
                continue
            loc = c["n"] if not s["blocked"][c["n"]] else CITY_HALL
            placed.append({"seat": seat, "n": c["n"], "loc": loc, "order": c["order"], "bits": bits(c["n"])})
            s["players"][seat]["sent"] += 1
        key = {seat: (-level[seat], rank[seat]) for seat in range(s["n"])}
        for w in placed:
            same = [x["seat"] for x in placed if x["loc"] == w["loc"]]
            w["first"] = w["loc"] != CITY_HALL and min(same, key=key.get) == w["seat"]
        # plans first and cancelled plans last; otherwise company level, then turn order
        placed.sort(key=lambda w: ({9: 0, 12: 2}.get(w["loc"], 1), *key[w["seat"]]))
        for w in placed:
            if w["loc"] != CITY_HALL:
                s["blocked"][w["loc"]] = True
        s["reveal"] = {"round": s["round"], "workers": copy.deepcopy(placed), "passes": passes}
        s["choices"] = [None] * s["n"]
        if placed:
            s["queue"] = placed
            s["phase"] = "resolve"
            self._start_worker(s, 0)

    # --- resources -------------------------------------------------------------------------------
    @staticmethod
    def _gain(p: dict[str, Any], gain: dict[str, int]) -> None:
        for k, v in gain.items():
            p[k] = p[k] + v if k == "vp" else min(CAP, p[k] + v)

    @staticmethod
    def _pay(p: dict[str, Any], cost: dict[str, int]) -> None:
        short = [k for k, v in cost.items() if p[k] < v]
        if short:
            have = joined([amount(k, p[k]) for k in short], "list")
            raise RuleError("That costs {need}, and you have {have}.", need=_cost_text(cost), have=have)
        for k, v in cost.items():
            p[k] -= v

    # --- what happened, for the narration --------------------------------------------------------
    def _tell(self, s: State, event: dict[str, Any]) -> None:
        """Keep a short public record of each resolution step and round-end effect; ``told`` counts them all,
        so the narration can tell which are new."""
        s["log"] = [*s["log"][-63:], event]
        s["told"] += 1

    def _snap(self, s: State, seat: int) -> dict[str, int]:
        p = s["players"][seat]
        space = next((e["space"] for e in s["track"] if e["seat"] == seat), 0)
        return {**{k: p[k] for k in TRACKED}, "space": space}

    def _delta(self, s: State, seat: int, before: dict[str, int]) -> dict[str, int]:
        now = self._snap(s, seat)
        return {k: now[k] - before[k] for k in now if now[k] != before[k]}

    # --- resolving a worker ---------------------------------------------------------------------
    def _start_worker(self, s: State, i: int) -> None:
        w = s["queue"][i]
        s["res"] = {"i": i, "stage": "cards", "card": 0, "loc_done": w["loc"] == CITY_HALL, "flags": {},
                    "armed": [], "waiting": []}
        self._advance(s)

    def _advance(self, s: State) -> None:
        """Pass over the cards that can do nothing more for this worker, then finish it when the cards and the
        location are done (City Hall ends with its gain)."""
        r = s["res"]
        w = s["queue"][r["i"]]
        while r["card"] < 4 and self._dead(s, w, r["card"]):
            r["card"] += 1
        if r["stage"] == "cards" and r["card"] >= 4 and r["loc_done"]:
            if w["loc"] == CITY_HALL:
                r["stage"] = "city_hall"
            else:
                self._next_worker(s)

    def _dead(self, s: State, w: dict[str, Any], i: int) -> bool:
        """A card face that cannot be used by this worker, now or later: asking about it would be noise."""
        r, p = s["res"], s["players"][w["seat"]]
        e, loc, done = self._active_cards(w)[i], w["loc"], r["loc_done"]
        k = e["kind"]
        if k in ("gain", "convert"):
            return False
        if k == "hire_discount" and (p["unhired"] == 0 or p["hired"] >= p["level"]):
            return True  # no hire can follow: the limit does not change during a resolution
        if k in ("build_discount", "hire_discount"):  # it must come before the build or hire it lowers
            return done or loc != (8 if k == "build_discount" else 7)
        flag = "hire" if k == "extra_hire" else e["flag"]
        if flag == "city_hall":
            return loc != CITY_HALL
        return loc not in FLAG_PLACES[flag] or (done and not r["flags"].get(flag))

    def _resolve_step(self, s: State, a: Action, auto: bool = False) -> None:
        r = s["res"]
        w = s["queue"][r["i"]]
        p, seat = s["players"][w["seat"]], w["seat"]
        t = a.get("type")
        before = self._snap(s, seat)
        event: dict[str, Any] = {"seat": seat, "loc": w["loc"], "type": t, "auto": auto}
        if r["stage"] == "city_hall":
            if t != "city_hall" or a.get("gain") not in ("wood", "coins") or a.get("step", False) not in (True, False):
                raise RuleError("At City Hall you gain 2 wood or 2 coins, and may pay 4 coins for a track step.")
            self._gain(p, {a["gain"]: 2})
            if a.get("step"):
                self._pay(p, {"coins": CITY_HALL_STEP_COST})
                self._move(s, seat)
            event.update(gain=a["gain"], step=bool(a.get("step")))
            r["stage"] = "done"
        elif t in ("use", "skip"):
            if r["card"] >= 4:
                raise RuleError("This worker's cards are all done: take or skip the location's effect.")
            card, side = w["order"][r["card"]], w["bits"][r["card"]]
            if a.get("card") != card or a.get("side") != side:
                raise RuleError("Your next card is card {card}, {side}-side up.", card=card, side=side)
            event.update(card=card, side=side)
            if t == "use":
                event["held"] = self._card(s, w, p, r)
            r["card"] += 1
        elif t in ("location", "decline"):
            if r["loc_done"]:
                raise RuleError("City Hall has no location effect." if w["loc"] == CITY_HALL
                                else "This worker's location effect is already done.")
            if a.get("at") != w["loc"]:
                raise RuleError("This worker is at {where}.", where=location_name(w["loc"]))
            if t == "decline" and r["card"] < 4:
                raise RuleError("Use or skip your cards first; the location's effect can be skipped after the last.")
            if t == "location":
                self._location(s, w, p, a, r["flags"])
                event["move"] = {k: v for k, v in a.items() if k != "type"}
            r["loc_done"] = True
        elif w["loc"] == CITY_HALL:
            raise RuleError("Use or skip your next card first; City Hall's gain comes last.")
        else:
            raise RuleError("Use or skip your next card, or take or skip the location's effect.")
        event["gave"] = self._delta(s, seat, before)
        self._tell(s, event)
        if t in ("location", "decline"):
            self._waiting_cards(s, w, p, r, taken=t == "location")
        if r["stage"] == "done":
            self._next_worker(s)
        else:
            self._advance(s)

    def _waiting_cards(self, s: State, w: dict[str, Any], p: dict[str, Any], r: dict[str, Any], taken: bool) -> None:
        """Card 12 used before the location is checked now that the location's effect is done (seed ch. 7)."""
        for i in r["waiting"]:
            e = self._active_cards(w)[i]
            before = self._snap(s, w["seat"])
            if r["flags"].get(e["flag"]):
                self._gain(p, e["gain"])
            self._tell(s, {"seat": w["seat"], "loc": w["loc"], "type": "waited", "card": w["order"][i],
                           "side": w["bits"][i], "gave": self._delta(s, w["seat"], before), "auto": True,
                           "taken": taken})
        r["waiting"] = []

    def _next_worker(self, s: State) -> None:
        i = s["res"]["i"] + 1
        if i < len(s["queue"]):
            self._start_worker(s, i)
            return
        s["queue"], s["res"] = [], None
        s["phase"] = "work"

    def _active_cards(self, w: dict[str, Any]) -> list[dict[str, Any]]:
        return [CARDS[c][b] for c, b in zip(w["order"], w["bits"], strict=True)]

    def _location(self, s: State, w: dict[str, Any], p: dict[str, Any], a: Action, flags: dict[str, bool]) -> None:
        loc = w["loc"]
        if not w["first"]:
            pay = a.get("pay")
            if pay not in RESOURCES:
                raise RuleError("You were not first here: pay 2 wood, 2 stone or 2 coins to use the location.")
            self._pay(p, {pay: FOLLOWER_COST})
        cards = [self._active_cards(w)[i] for i in s["res"]["armed"]]  # cost cards used before this action
        if loc in (0, 1, 4, 15):
            gain = {0: {"wood": 12}, 1: {"stone": 12}, 4: {"coins": 12}, 15: {"wood": 6, "stone": 6}}[loc]
            gain = dict(gain)
            if loc == 0 and WOODWORKS in p["built"]:
                gain["wood"] += 2
            if loc == 1 and QUARRY in p["built"]:
                gain["stone"] += 2
            if loc == 15 and WAREHOUSE in p["built"]:
                if a.get("bonus") not in ("wood", "stone"):
                    raise RuleError("Your {building} adds 2 wood or 2 stone: choose one.",
                                    building=BUILDING_NAMES[WAREHOUSE])
                gain[a["bonus"]] += 2
            self._gain(p, gain)
            flags["loc_wood"] = "wood" in gain
            flags["loc_stone"] = "stone" in gain
        elif loc in CONVERSIONS:
            src, dst = CONVERSIONS[loc]
            times = a.get("times")
            if type(times) is not int or not 1 <= times <= 2 * s["round"]:
                raise RuleError("This round you may convert 1 to {most} times here.", most=2 * s["round"])
            for _ in range(times):
                self._pay(p, {src: 2})
                self._gain(p, {dst: 4})
            if loc in (2, 3) and TRADING in p["built"]:
                self._gain(p, {"coins": 2})
            flags["loc_wood"], flags["loc_stone"] = dst == "wood", dst == "stone"
        elif loc == 5:
            self._gain(p, {"vp": 2 + (1 if AD_TOWER in p["built"] else 0)})
        elif loc == 6:
            if p["level"] >= MAX_LEVEL:
                raise RuleError("Your company is already at level {level}.", level=MAX_LEVEL)
            self._pay(p, LEVEL_UP_COST)
            p["level"] += 1
        elif loc == 7:
            self._hire(p, discount=2 if {"kind": "hire_discount"} in cards else 0)
            flags["hire"] = True
        elif loc == 8:
            self._build(s, p, a, cards)
            flags["build"] = True
        elif loc == 9:
            b = a.get("building")
            if b == "deck" and s["deck"]:
                p["plans"].append(s["deck"].pop(0))
                p["plans_open"].append(False)
            elif b in s["row"]:
                s["row"].remove(b)
                p["plans"].append(b)
                p["plans_open"].append(True)
            else:
                raise RuleError("Plan a building from the build row or the top of the deck.")
            self._gain(p, {"coins": ACTION_COINS + (2 if DESIGN_OFFICE in p["built"] else 0)})
            flags["plan"] = True
        elif loc == 10:
            b = a.get("building")
            if b not in p["built"]:
                raise RuleError("You can only sell a building you have built.")
            p["built"].remove(b)
            s["row"].append(b)
            self._gain(p, {"coins": BUILDINGS[b][4]})
            flags["sell"] = True
        elif loc == 11:
            self._move(s, w["seat"])
            self._gain(p, {"coins": ACTION_COINS, "vp": 1 if ANNEX in p["built"] else 0})
            flags["track"] = True
        elif loc == 12:
            b = a.get("building")
            if b not in p["plans"]:
                raise RuleError("You can only cancel a building you have planned.")
            i = p["plans"].index(b)
            p["plans"].pop(i)
            p["plans_open"].pop(i)
            s["row"].append(b)
            self._gain(p, {"coins": ACTION_COINS})

    def _hire(self, p: dict[str, Any], discount: int) -> None:
        if p["unhired"] == 0:
            raise RuleError("All seven of your workers are already hired.")
        if p["hired"] + 1 > p["level"]:
            raise RuleError("Your company level {level} limits you to {level} hired workers.", level=p["level"])
        cost = max(0, HIRE_COST - discount - (2 if GUILD_HALL in p["built"] else 0))
        self._pay(p, {"coins": cost})
        p["hired"] += 1
        p["unhired"] -= 1

    def _build(self, s: State, p: dict[str, Any], a: Action, cards: list[dict[str, Any]]) -> None:
        b = a.get("building")
        if b in p["plans"]:
            source = "plan"
        elif b in s["row"]:
            source = "row"
        else:
            raise RuleError("Build one of your planned buildings or one from the build row.")
        cost = dict(BUILDINGS[b][2])
        for c in cards:
            if c["kind"] == "build_discount":
                cost[c["res"]] = max(0, cost.get(c["res"], 0) - 2)
        artisans = ARTISANS in p["built"]
        if artisans and a.get("bonus") not in ("wood", "stone"):
            raise RuleError("Your {building} adds 2 wood or 2 stone: choose one.", building=BUILDING_NAMES[ARTISANS])
        self._pay(p, cost)
        if source == "plan":
            i = p["plans"].index(b)
            p["plans"].pop(i)
            p["plans_open"].pop(i)
        else:
            s["row"].remove(b)
        p["built"].append(b)
        self._gain(p, {"vp": BUILDINGS[b][3]})
        if artisans:
            self._gain(p, {a["bonus"]: 2})

    def _card(self, s: State, w: dict[str, Any], p: dict[str, Any], r: dict[str, Any]) -> bool:
        """Use the next card; True when it waits for the location's action (a cost card, or card 12)."""
        e = self._active_cards(w)[r["card"]]
        k, flags = e["kind"], r["flags"]
        if k == "gain":
            self._gain(p, e["gain"])
        elif k == "convert":
            self._pay(p, e["pay"])
            self._gain(p, e["gain"])
        elif k in ("build_discount", "hire_discount"):
            if self._dead(s, w, r["card"]):
                raise RuleError("This card lowers the cost of a build at 8 or a hire at 7 that comes after it.")
            r["armed"].append(r["card"])
            return True
        elif k == "extra_hire":
            if not flags.get("hire"):
                raise RuleError("This card works only after hiring at {where}.", where=location_name(7))
            self._hire(p, discount=0)
        elif e["flag"] == "city_hall":
            if w["loc"] != CITY_HALL:
                raise RuleError("This card works only at City Hall.")
            self._gain(p, e["gain"])
        elif e["flag"] in ("loc_wood", "loc_stone") and not r["loc_done"]:
            if w["loc"] not in FLAG_PLACES[e["flag"]]:
                raise RuleError("This card works only {cond}.", cond=msg(FLAGS[e["flag"]]))
            r["waiting"].append(r["card"])  # checked once the location's effect is done
            return True
        else:
            if not flags.get(e["flag"]):
                raise RuleError("This card works only {cond}.", cond=msg(FLAGS[e["flag"]]))
            if e.get("step"):
                self._move(s, w["seat"])
            else:
                self._gain(p, e["gain"])
        return False

    # --- round end ------------------------------------------------------------------------------
    def _round_end(self, s: State) -> None:
        for p in s["players"]:
            p["sent"], p["passed"] = 0, False
        s["blocked"] = [False] * 16
        for i, p in enumerate(s["players"]):  # automatic round-end gains first (ruling), then the Market's choice
            before = self._snap(s, i)
            n_built = len(p["built"])
            if INN in p["built"] and s["round"] <= 5:
                self._gain(p, {"coins": 2 * (p["hired"] // 2)})
            if MINT in p["built"]:
                self._gain(p, {"coins": 2 * n_built})
            gave = self._delta(s, i, before)
            if gave:
                self._tell(s, {"seat": i, "type": "income", "gave": gave})
        s["pending"] = {str(i): None for i, p in enumerate(s["players"]) if MARKET in p["built"]}
        s["phase"] = "market"

    def _auto_round_end_choices(self, s: State) -> bool:
        """Settle the choices that are no choice (a single legal option)."""
        done = False
        for k, v in s["pending"].items():
            if v is None:
                opts = self.legal(s, int(k))
                if len(opts) == 1:
                    (self._market if s["phase"] == "market" else self._upkeep)(s, int(k), opts[0])
                    done = True
        return done

    def _market(self, s: State, seat: int, a: Action) -> None:
        if s["pending"].get(str(seat), "x") is not None:
            raise RuleError("You have no Market trades to make now.")
        p = s["players"][seat]
        wood, stone = a.get("wood"), a.get("stone")
        if type(wood) is not int or type(stone) is not int or wood < 0 or stone < 0:
            raise RuleError("Say how many times to trade wood and stone.")
        if wood + stone > len(p["built"]):
            raise RuleError("Your Market may trade once per building you own: {n} at most.", n=len(p["built"]))
        self._pay(p, {"wood": 2 * wood, "stone": 2 * stone})
        self._gain(p, {"coins": 2 * (wood + stone)})
        s["pending"][str(seat)] = a

    def _upkeep(self, s: State, seat: int, a: Action) -> None:
        if s["pending"].get(str(seat), "x") is not None:
            raise RuleError("You have no upkeep to pay now.")
        p = s["players"][seat]
        keep = a.get("keep")
        if type(keep) is not int or not 0 <= keep <= p["hired"]:
            raise RuleError("Keep between 0 and {n} workers.", n=p["hired"])
        cost = keep * 2 * p["level"]
        if a.get("pay") not in (None, cost):
            raise RuleError("Keeping {workers} costs {cost} coins.",
                            workers=plural(keep, "{n} worker", "{n} workers"), cost=cost)
        forced = len(self.legal(s, seat)) == 1
        self._pay(p, {"coins": cost})
        self._tell(s, {"seat": seat, "type": "upkeep", "keep": keep, "hired": p["hired"], "paid": cost,
                       "each": 2 * p["level"], "coins": p["coins"] + cost, "auto": forced})
        p["unhired"] += p["hired"] - keep
        p["hired"] = keep
        s["pending"][str(seat)] = a

    def _after_round_end_choice(self, s: State) -> None:
        if s["phase"] == "market" and s["round"] < ROUNDS:
            s["pending"] = {str(i): None for i, p in enumerate(s["players"]) if p["hired"] > 0}
            s["phase"] = "upkeep"
            return
        s["pending"] = {}
        added = s["deck"][:BUILD_ROW]  # seed 6-3-4: add 4 face up, fewer if the deck runs short
        s["row"] += added
        s["deck"] = s["deck"][BUILD_ROW:]
        self._tell(s, {"type": "row", "added": added, "round": s["round"]})
        if s["round"] >= ROUNDS:
            self._final(s)
        else:
            self._round_start(s)

    # --- scoring ---------------------------------------------------------------------------------
    def _final(self, s: State) -> None:
        lines = []
        space = {e["seat"]: e["space"] for e in s["track"]}
        for i, p in enumerate(s["players"]):
            b = p["built"]
            line = {"vp": p["vp"], "workers": p["hired"] * p["level"], "track": track_vp(space[i]), "buildings": 0}
            extra = 0
            if PLAZA in b:
                extra += p["hired"]
            if HIGHRISE in b:
                extra += len(b)
            if WAREHOUSE in b:
                extra += min(p["wood"], p["stone"], p["coins"]) // 2
            if ACADEMY_ID in b:
                extra += len(b) + 1
            if RESIDENCES in b:
                extra += p["hired"] // 2
            if CITY_WALL in b and len(b) >= 3:
                extra += 3
            if CHAPEL in b:  # converting always helps: VP beats the coin tie-break
                extra += p["coins"] // 6
                p["coins"] -= 6 * (p["coins"] // 6)
            line["buildings"] = extra
            line["total"] = sum(line.values())
            line["coins"], line["hired"] = p["coins"], p["hired"]
            lines.append(line)
        s["final"] = lines
        s["phase"] = "over"

    def scores(self, s: State) -> list[int] | None:
        return [line["total"] for line in s["final"]] if s["phase"] == "over" else None

    def ranking(self, s: State) -> list[list[int]]:
        """Seats from first to last place; tied seats share a place (VP, then coins, then workers)."""
        f = s["final"]
        key = {i: (f[i]["total"], f[i]["coins"], f[i]["hired"]) for i in range(s["n"])}
        places: list[list[int]] = []
        for seat in sorted(key, key=key.get, reverse=True):
            if places and key[places[-1][0]] == key[seat]:
                places[-1].append(seat)
            else:
                places.append([seat])
        return places

    # --- timers ------------------------------------------------------------------------------------
    def auto_action(self, s: State, seat: int) -> Action | None:
        if s["phase"] == "draft":
            return {"type": "pick", "card": min(s["draft"]["hands"][seat])}
        if s["phase"] == "work":
            return {"type": "pass"}
        opts = self.legal(s, seat)
        skip = next((o for o in opts if o["type"] in ("skip", "decline")), None)
        return skip or (opts[0] if opts else None)

    # --- what people see ------------------------------------------------------------------------------
    def public(self, s: State) -> dict[str, Any]:
        players = []
        for p in s["players"]:
            q = {k: v for k, v in p.items() if k not in ("plans", "plans_open")}
            q["plans"] = [b if open_ else None for b, open_ in zip(p["plans"], p["plans_open"], strict=True)]
            q["cards"] = list(p["cards"]) if s["phase"] not in ("setup", "draft") else []
            players.append(q)
        res = None
        if s["res"]:
            w = s["queue"][s["res"]["i"]]
            r = s["res"]
            res = {"seat": w["seat"], "loc": w["loc"], "stage": r["stage"], "card": r["card"],
                   "loc_done": r["loc_done"], "waiting": [w["order"][i] for i in r["waiting"] + r["armed"]]}
        order = list(s["turn"]) or (self._order(s) if s["track"] else [])  # the draft shows round 1's order
        return {"phase": s["phase"], "round": s["round"], "players": players, "row": list(s["row"]),
                "deck_left": len(s["deck"]), "order": order,
                "track": copy.deepcopy(s["track"]), "blocked": list(s["blocked"]), "reveal": copy.deepcopy(s["reveal"]),
                "queue": [{k: w[k] for k in ("seat", "loc", "n", "order", "first")} for w in s["queue"]],
                "resolving": res, "draft_round": s["draft"]["turn"] + 1 if s["draft"] else None,
                "final": copy.deepcopy(s["final"]), "ranking": self.ranking(s) if s["final"] else None}

    def view(self, s: State, seat: int) -> dict[str, Any]:
        return self.public(s) | self.private(s, seat)

    def private(self, s: State, seat: int) -> dict[str, Any]:
        p = s["players"][seat]
        v = {"my_plans": list(p["plans"]), "my_cards": list(p["cards"])}
        if s["phase"] == "draft":
            v["draft_hand"] = list(s["draft"]["hands"][seat])
            v["draft_pick"] = s["draft"]["picks"][seat]
        v["my_choice"] = copy.deepcopy(s["choices"][seat])
        return v

    def privates(self, s: State, seats: int) -> list[dict[str, Any]]:
        return [self.private(s, seat) for seat in range(seats)]

    def label(self, a: Action) -> Any:
        t = a.get("type")
        if t == "pick":
            return msg("Take card {card}", card=a["card"])
        if t == "pass":
            return msg("Pass")
        if t == "stack":
            return msg("Send to {where} with {stack}", where=location_name(a["n"]),
                       stack="-".join(str(c) for c in a["order"]))
        if t in ("use", "skip"):
            ok = type(a.get("card")) is int and a.get("side") in (0, 1) and type(a.get("side")) is int
            face = CARDS.get(a["card"], (None, None))[a["side"]] if ok else None
            effect = effect_text(face) if face else msg("this card")
            if t == "use":
                return msg("Use card {card}: {effect}", card=a.get("card"), effect=effect)
            return msg("Skip card {card} ({effect})", card=a.get("card"), effect=effect)
        if t == "location":
            return location_label(a)
        if t == "decline":
            at = a.get("at")
            if type(at) is int and 0 <= at < 16:
                return msg("Skip the effect of {where}", where=location_name(at))
            return msg("Skip the effect")
        if t == "city_hall":
            gain = amount(a["gain"], 2) if a.get("gain") in RESOURCES else a.get("gain")
            if a.get("step"):
                return msg("Gain {gain}, pay 4 coins for a track step", gain=gain)
            return msg("Gain {gain}", gain=gain)
        if t == "market":
            return msg("Trade {wood}× wood, {stone}× stone", wood=a["wood"], stone=a["stone"])
        if t == "upkeep":
            cost, keep = a.get("pay"), a["keep"]
            if cost is None:
                return plural(keep, "Keep {n} worker", "Keep {n} workers")
            if cost == 0:
                return plural(keep, "Keep {n} worker (pay nothing)", "Keep {n} workers (pay nothing)")
            return plural(keep, "Keep {n} worker (pay {cost} coins)", "Keep {n} workers (pay {cost} coins)", cost=cost)
        if t == "shuffle":
            return msg("Shuffle")
        return super().label(a)
