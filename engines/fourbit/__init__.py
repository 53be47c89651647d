"""4bit Town: worker placement with a secret, simultaneous 4-bit stack (rules: docs/rules/fourbit.md).

The round: a secret draft at the start of the game, then six rounds of work steps (everyone
at once chooses to pass or to send a worker with a stack of their four cards; the stack's bits
pick one of 16 locations), resolved one worker at a time, then the round end."""
from __future__ import annotations

import copy
import itertools
from typing import Any

from engines.base import CHANCE, Action, Awaiting, ChanceRequest, Engine, RuleError, State
from engines.fourbit.data import ACADEMY as ACADEMY_ID
from engines.fourbit.data import (
    ACTION_COINS,
    AD_TOWER,
    ANNEX,
    ARTISANS,
    BUILD_ROW,
    BUILDINGS,
    CAP,
    CARDS,
    CHAPEL,
    CITY_HALL,
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
    PLAZA,
    QUARRY,
    RESIDENCES,
    RESOURCES,
    ROUNDS,
    START_HIRED,
    START_LEVEL,
    TRADING,
    WAREHOUSE,
    WOODWORKS,
    WORKERS,
    track_vp,
)

PERMS = list(itertools.permutations(range(4)))


def bits(n: int) -> list[int]:
    """Top card first: the top card is the 1s bit, the bottom card the 8s bit."""
    return [(n >> k) & 1 for k in range(4)]


def location_name(n: int) -> str:
    return "City Hall (市役所)" if n == CITY_HALL else f"{n} {LOCATIONS[n][1]} ({LOCATIONS[n][0]})"


def building_name(b: int) -> str:
    return f"{BUILDINGS[b][1]} ({BUILDINGS[b][0]})"


def _cost_text(cost: dict[str, int]) -> str:
    return ", ".join(f"{v} {k}" for k, v in cost.items() if v)


def effect_text(e: dict[str, Any]) -> str:
    k = e["kind"]
    if k == "gain":
        return "gain " + _cost_text(e["gain"])
    if k == "convert":
        return f"pay {_cost_text(e['pay'])} → gain {_cost_text(e['gain'])}"
    if k == "build_discount":
        return f"building costs 2 {e['res']} less"
    if k == "hire_discount":
        return "hiring costs 2 coins less"
    if k == "extra_hire":
        return "after hiring, hire one more at the standard cost"
    flag = {"plan": "after planning", "sell": "after selling", "build": "after building",
            "loc_wood": "if the location gave wood", "loc_stone": "if the location gave stone",
            "track": "after turn order +1", "city_hall": "at City Hall"}[e["flag"]]
    return f"{flag}: " + ("move 1 more space" if e.get("step") else "gain " + _cost_text(e["gain"]))


class FourBit(Engine):
    name = "fourbit"
    title = "4bit Town"
    min_players = 2
    max_players = 4

    # --- setup -----------------------------------------------------------------------
    def setup(self, options: dict[str, Any], seats: int) -> State:
        self.check_setup(options, seats)
        player = {"wood": 0, "stone": 0, "coins": 0, "vp": 0, "level": START_LEVEL, "hired": START_HIRED,
                  "unhired": WORKERS - START_HIRED, "sent": 0, "passed": False, "plans": [], "plans_open": [],
                  "built": [], "cards": []}
        return {"n": seats, "phase": "setup", "setup": 0, "round": 0,
                "players": [copy.deepcopy(player) for _ in range(seats)],
                "draft": None, "deck": [], "row": [], "track": [], "blocked": [False] * 16, "choices": [None] * seats,
                "queue": [], "res": None, "pending": {}, "reveal": None, "log": [], "final": None}

    # --- who acts ----------------------------------------------------------------------
    def awaiting(self, s: State) -> Awaiting:
        ph = s["phase"]
        if ph == "setup":
            kind = [("shuffle", 16, "shuffle the 4bit cards"), ("shuffle", 18, "shuffle the buildings"),
                    ("shuffle", s["n"], "draw the turn order")][s["setup"]]
            return Awaiting(chance=ChanceRequest(kind[0], kind[1], reason=kind[2]))
        if ph == "draft":
            seats = frozenset(i for i, p in enumerate(s["draft"]["picks"]) if p is None)
            return Awaiting(seats=seats, secret=True, prompt="a secret draft pick")
        if ph == "work":
            seats = frozenset(i for i in self._active(s) if s["choices"][i] is None)
            return Awaiting(seats=seats, secret=True, prompt="a secret choice: pass, or send a worker with a stack")
        if ph == "resolve":
            w = s["queue"][s["res"]["i"]]
            return Awaiting(seats=frozenset({w["seat"]}), prompt=self._prompt(s))
        if ph in ("market", "upkeep"):
            seats = frozenset(int(k) for k, v in s["pending"].items() if v is None)
            what = "the Market's trades" if ph == "market" else "how many workers to keep (upkeep)"
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

    def _prompt(self, s: State) -> str:
        w, r = s["queue"][s["res"]["i"]], s["res"]
        where = location_name(w["loc"])
        if r["stage"] == "location":
            return f"the effect of {where}"
        if r["stage"] == "card":
            return f"whether to use card {w['order'][r['card']]}"
        if r["stage"] == "extra_hire":
            return "whether to hire one more worker"
        return "City Hall's gain"

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
            return [{"type": "upkeep", "keep": k} for k in range(p["hired"], -1, -1)
                    if k * 2 * p["level"] <= p["coins"]]
        return []

    def _resolve_options(self, s: State) -> list[Action]:
        """Every choice the resolving worker's owner has now, each checked by trying it."""
        r = s["res"]
        if r["stage"] == "location":
            cands = [{"type": "skip"}]
            w = s["queue"][r["i"]]
            pays = [None] if w["first"] else list(RESOURCES)
            for params in self._location_params(s, w):
                for pay in pays:
                    cands.append({"type": "location", **params, **({"pay": pay} if pay else {})})
        elif r["stage"] in ("card", "extra_hire"):
            cands = [{"type": "use"}, {"type": "skip"}]
        else:
            cands = [{"type": "city_hall", "gain": g, "step": st} for g in ("wood", "coins") for st in (False, True)]
        ok = []
        for a in cands:
            try:
                self._resolve_step(copy.deepcopy(s), a)
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
                if len(opts) == 1:  # nothing to decide: only "skip" is possible
                    self._resolve_step(s, opts[0])
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
        """Turn order: higher space first, the front of a space first."""
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
        first = self._order(s)[0]
        for i, p in enumerate(s["players"]):
            if RESIDENCES in p["built"] and i != first:
                self._gain(p, {"coins": 2})
        s["choices"] = [None] * s["n"]

    def _reveal(self, s: State) -> None:
        order = self._order(s)
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
            s["res"] = {"i": 0, "stage": "location" if placed[0]["loc"] != CITY_HALL else "card", "card": 0,
                        "flags": {}}
            s["phase"] = "resolve"

    # --- resources -------------------------------------------------------------------------------
    @staticmethod
    def _gain(p: dict[str, Any], gain: dict[str, int]) -> None:
        for k, v in gain.items():
            p[k] = p[k] + v if k == "vp" else min(CAP, p[k] + v)

    @staticmethod
    def _pay(p: dict[str, Any], cost: dict[str, int]) -> None:
        short = [k for k, v in cost.items() if p[k] < v]
        if short:
            need = _cost_text(cost)
            have = ", ".join(f"{p[k]} {k}" for k in short)
            raise RuleError(f"That costs {need}, and you have {have}.")
        for k, v in cost.items():
            p[k] -= v

    # --- resolving a worker ---------------------------------------------------------------------
    def _resolve_step(self, s: State, a: Action) -> None:
        r = s["res"]
        w = s["queue"][r["i"]]
        p = s["players"][w["seat"]]
        t = a.get("type")
        if r["stage"] == "location":
            if t == "location":
                self._location(s, w, p, a, r["flags"])
            elif t != "skip":
                raise RuleError("Choose how to use the location, or skip it.")
            r["stage"], r["card"] = "card", 0
        elif r["stage"] == "card":
            if t == "use":
                self._card(s, w, p, r)
            elif t != "skip":
                raise RuleError("Use the card or skip it.")
            if r["stage"] == "card":
                r["card"] += 1
        elif r["stage"] == "extra_hire":
            if t == "use":
                self._hire(p, discount=0)
            elif t != "skip":
                raise RuleError("Hire one more or skip it.")
            r["stage"] = "card"
            r["card"] += 1
        elif r["stage"] == "city_hall":
            if t != "city_hall" or a.get("gain") not in ("wood", "coins") or a.get("step", False) not in (True, False):
                raise RuleError("At City Hall you gain 2 wood or 2 coins, and may pay 4 coins for a track step.")
            self._gain(p, {a["gain"]: 2})
            if a.get("step"):
                self._pay(p, {"coins": CITY_HALL_STEP_COST})
                self._move(s, w["seat"])
            r["stage"] = "done"
        if r["stage"] == "card" and r["card"] >= 4:
            r["stage"] = "city_hall" if w["loc"] == CITY_HALL else "done"
        if r["stage"] == "done":
            self._next_worker(s)

    def _next_worker(self, s: State) -> None:
        r = s["res"]
        r["i"] += 1
        if r["i"] < len(s["queue"]):
            w = s["queue"][r["i"]]
            s["res"] = {"i": r["i"], "stage": "location" if w["loc"] != CITY_HALL else "card", "card": 0, "flags": {}}
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
        cards = self._active_cards(w)
        if loc in (0, 1, 4, 15):
            gain = {0: {"wood": 12}, 1: {"stone": 12}, 4: {"coins": 12}, 15: {"wood": 6, "stone": 6}}[loc]
            gain = dict(gain)
            if loc == 0 and WOODWORKS in p["built"]:
                gain["wood"] += 2
            if loc == 1 and QUARRY in p["built"]:
                gain["stone"] += 2
            if loc == 15 and WAREHOUSE in p["built"]:
                if a.get("bonus") not in ("wood", "stone"):
                    raise RuleError("Your Warehouse adds 2 wood or 2 stone: choose one.")
                gain[a["bonus"]] += 2
            self._gain(p, gain)
            flags["loc_wood"] = "wood" in gain
            flags["loc_stone"] = "stone" in gain
        elif loc in CONVERSIONS:
            src, dst = CONVERSIONS[loc]
            times = a.get("times")
            if type(times) is not int or not 1 <= times <= 2 * s["round"]:
                raise RuleError(f"This round you may convert 1 to {2 * s['round']} times here.")
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
                raise RuleError(f"Your company is already at level {MAX_LEVEL}.")
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
            raise RuleError(f"Your company level {p['level']} limits you to {p['level']} hired workers.")
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
            raise RuleError("Your Artisans' Quarter adds 2 wood or 2 stone: choose one.")
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

    def _card(self, s: State, w: dict[str, Any], p: dict[str, Any], r: dict[str, Any]) -> None:
        e = self._active_cards(w)[r["card"]]
        k, flags = e["kind"], r["flags"]
        if k == "gain":
            self._gain(p, e["gain"])
        elif k == "convert":
            self._pay(p, e["pay"])
            self._gain(p, e["gain"])
        elif k == "if":
            if e["flag"] == "city_hall":
                ok = w["loc"] == CITY_HALL
            else:
                ok = flags.get(e["flag"], False)
            if not ok:
                raise RuleError(f"This card works only {effect_text(e).split(':')[0]}.")
            if e.get("step"):
                self._move(s, w["seat"])
            else:
                self._gain(p, e["gain"])
        elif k == "extra_hire":
            if not flags.get("hire"):
                raise RuleError("This card works only after hiring at the Back Workshop.")
            probe = copy.deepcopy(p)
            self._hire(probe, discount=0)  # refuse now if the extra hire is impossible
            r["stage"] = "extra_hire"
            self._hire(p, discount=0)
            r["stage"] = "card"
        else:  # cost modifiers act during the location's action, not on their own
            raise RuleError("This card only lowers a cost during the location's action.")

    # --- round end ------------------------------------------------------------------------------
    def _round_end(self, s: State) -> None:
        for p in s["players"]:
            p["sent"], p["passed"] = 0, False
        s["blocked"] = [False] * 16
        for p in s["players"]:  # automatic round-end gains first (ruling), then the Market's choice
            n_built = len(p["built"])
            if INN in p["built"] and s["round"] <= 5:
                self._gain(p, {"coins": 2 * (p["hired"] // 2)})
            if MINT in p["built"]:
                self._gain(p, {"coins": 2 * n_built})
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
            raise RuleError(f"Your Market may trade once per building you own: {len(p['built'])} at most.")
        self._pay(p, {"wood": 2 * wood, "stone": 2 * stone})
        self._gain(p, {"coins": 2 * (wood + stone)})
        s["pending"][str(seat)] = a

    def _upkeep(self, s: State, seat: int, a: Action) -> None:
        if s["pending"].get(str(seat), "x") is not None:
            raise RuleError("You have no upkeep to pay now.")
        p = s["players"][seat]
        keep = a.get("keep")
        if type(keep) is not int or not 0 <= keep <= p["hired"]:
            raise RuleError(f"Keep between 0 and {p['hired']} workers.")
        self._pay(p, {"coins": keep * 2 * p["level"]})
        p["unhired"] += p["hired"] - keep
        p["hired"] = keep
        s["pending"][str(seat)] = a

    def _after_round_end_choice(self, s: State) -> None:
        if s["phase"] == "market" and s["round"] < ROUNDS:
            s["pending"] = {str(i): None for i, p in enumerate(s["players"]) if p["hired"] > 0}
            s["phase"] = "upkeep"
            return
        s["pending"] = {}
        while len(s["row"]) < BUILD_ROW and s["deck"]:
            s["row"].append(s["deck"].pop(0))
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
        skip = next((o for o in opts if o["type"] == "skip"), None)
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
            res = {"seat": w["seat"], "loc": w["loc"], "stage": s["res"]["stage"], "card": s["res"]["card"]}
        return {"phase": s["phase"], "round": s["round"], "players": players, "row": list(s["row"]),
                "deck_left": len(s["deck"]), "order": self._order(s) if s["track"] else [],
                "track": copy.deepcopy(s["track"]), "blocked": list(s["blocked"]), "reveal": copy.deepcopy(s["reveal"]),
                "queue": [{k: w[k] for k in ("seat", "loc", "n", "order", "first")} for w in s["queue"]],
                "resolving": res, "draft_round": s["draft"]["turn"] + 1 if s["draft"] else None,
                "final": copy.deepcopy(s["final"]), "ranking": self.ranking(s) if s["final"] else None}

    def view(self, s: State, seat: int) -> dict[str, Any]:
        v = self.public(s)
        p = s["players"][seat]
        v["my_plans"] = list(p["plans"])
        v["my_cards"] = list(p["cards"])
        if s["phase"] == "draft":
            v["draft_hand"] = list(s["draft"]["hands"][seat])
            v["draft_pick"] = s["draft"]["picks"][seat]
        v["my_choice"] = copy.deepcopy(s["choices"][seat])
        return v

    def label(self, a: Action) -> str:
        t = a.get("type")
        if t == "pick":
            return f"Take card {a['card']}"
        if t == "pass":
            return "Pass"
        if t == "stack":
            return f"Send to {location_name(a['n'])} with {'-'.join(str(c) for c in a['order'])}"
        if t == "skip":
            return "Skip"
        if t == "use":
            return "Use it"
        if t == "location":
            parts = []
            if "times" in a:
                parts.append(f"convert ×{a['times']}")
            if "building" in a:
                parts.append("the top of the deck" if a["building"] == "deck" else building_name(a["building"]))
            if "bonus" in a:
                parts.append(f"+2 {a['bonus']}")
            if "pay" in a:
                parts.append(f"pay 2 {a['pay']}")
            return "Use it" + (": " + ", ".join(parts) if parts else "")
        if t == "city_hall":
            return f"Gain 2 {a['gain']}" + (", pay 4 coins for a track step" if a.get("step") else "")
        if t == "market":
            return f"Trade {a['wood']}× wood, {a['stone']}× stone"
        if t == "upkeep":
            return f"Keep {a['keep']} workers"
        if t == "shuffle":
            return "Shuffle"
        return super().label(a)
