"""The operating round (import notes §11.4-11.5): each floated corporation in price order lays track, places a
token, runs its trains, pays or withholds, and buys trains; in phases 3-4 it may also buy private companies.
Emergency money and bankruptcy are in emergency.py, the privates' tile lays in privates.py.

At the start of each operating round the privates pay their revenue and newly floated corporations put their
home token down. A step with nothing possible is skipped; `pass` ends the current step. A corporation without
a train that has a route must buy one, its president paying what the treasury lacks (selling shares if needed),
and goes bankrupt when even that cannot pay for the cheapest train.

Round state: turn (the stock round number), or / of (this round in its set), order [corporations],
index (the one operating), step, laid, tokened, revenue (None until the trains ran), runs, special
({company, seat}: ER's tile lay right after a corporation bought it), acted (the operating corporation has
made a move this turn; until it has, the game is "between two corporations' turns", when Mitsubishi Ferry's
owner may lay its port whoever operates; missing in older states = false), offer (a purchase waiting for the
other side's yes, below; missing = none).

A price between two people needs both: a train from a corporation with another president, or a private from a
player who does not preside the buyer, is first an *offer*. Until the seller (that president, that owner)
accepts or declines, or the buyer withdraws it, nobody else moves.
"""
from __future__ import annotations

from typing import Any

from engines.base import Action, RuleError
from engines.e18xx import emergency, lays, privates, trains
from engines.e18xx.board import Lay, lay_problem, legal_lays, legal_tokens, token_problem
from engines.e18xx.companies import IPO, POOL, dividend_payouts
from engines.e18xx.route import Route, best_runs, check_runs, hexes_once, route_from_connections
from engines.e18xx.state import BANK, G
from engines.text import N_, Msg, msg

#: The dividends a corporation may choose, in words.
DIVIDEND_KINDS = {("payout", "withhold"): N_("payout or withhold"),
                  ("payout", "half", "withhold"): N_("payout or half or withhold"),
                  ("half", "withhold"): N_("half or withhold")}
STEP_OF = {"buy_shares": "redeem", "lay_tile": "track", "place_token": "token", "run_routes": "routes",
           "dividend": "dividend", "buy_train": "trains", "sell_shares": "trains", "bankrupt": "trains"}


# ---- the round ----------------------------------------------------------------------------------------

def start(g: G, turn: int, number: int, of: int) -> None:
    g.s["round"] = {"kind": "operating", "turn": turn, "or": number, "of": of, "order": [], "index": 0,
                    "step": g.rules.operating_steps[0], "laid": False, "tokened": False, "revenue": None, "runs": [],
                    "special": None, "acted": False}
    g.event("Operating round {turn}.{number} begins.", turn=turn, number=number)
    g.pay_private_revenue()
    for cid in g.floated() if g.rules.home_tokens_at_operating_start(g) else ():
        if not g.board.token_nodes(cid):
            home = g.map.homes[cid]
            g.set_board(g.board.place_token(home, cid))
            g.event("{corp} places its home token on {where}.", corp=cid, where=g.place(home))
    order = g.rules.operating_order(g)
    g.round["order"] = order
    for corp in g.s["corps"].values():
        corp["operated"] = False
    if order:
        g.event("Operating order: {order}.", order=", ".join(order))
    g.rules.operating_round_start(g)


def current(g: G) -> str | None:
    r = g.s["round"]
    return r["order"][r["index"]] if r["index"] < len(r["order"]) else None


def presides_turn(g: G, seat: int) -> bool:
    """An operating round in the turn of a corporation `seat` presides, with nothing else pending."""
    cid = current(g) if g.round["kind"] == "operating" else None
    return (cid is not None and g.president(cid) == seat and not trains.crowded(g) and not g.round["special"]
            and not g.round.get("offer"))


def finished(g: G) -> bool:
    return current(g) is None and not trains.crowded(g)


def acting(g: G) -> frozenset[int]:
    r = g.s["round"]
    crowd = trains.crowded(g)
    if crowd:
        return frozenset(g.president(cid) for cid in crowd)
    if r.get("offer"):
        return frozenset({r["offer"]["seller_seat"], r["offer"]["buyer_seat"]})
    if r["special"]:
        return frozenset({r["special"]["seat"]})
    cid = current(g)
    return frozenset({g.president(cid)}) if cid else frozenset()


def _next_step(g: G) -> None:
    r = g.s["round"]
    steps = g.rules.operating_steps
    i = steps.index(r["step"])
    if r["step"] == "trains":  # passed or skipped (1867: a corporation left without a train is nationalised)
        g.rules.trains_step_done(g, current(g))
    if i + 1 < len(steps):
        r["step"] = steps[i + 1]
        return
    cid = current(g)
    g.corp(cid)["operated"] = g.corp(cid)["has_operated"] = True
    r.update(index=r["index"] + 1, step=steps[0], laid=False, lays=[], tokened=False, revenue=None, runs=[],
             acted=False, emergency_sold=[])
    g.rules.operating_turn_done(g, cid)


#: Moves that never give or take a train nor change the phase (so whether anyone is over the train limit after
#: one is what it was before it): E18xxGame._move keeps the answer asked before the move for `settle`. A pass
#: only ends a step, as `settle` ends the steps it skips (the title's end of a train step or of a turn included).
TRAINLESS_MOVES = frozenset(("lay_tile", "place_token", "run_routes", "dividend", "pass"))


def settle(g: G) -> None:
    """Skip every step that offers nothing, and do the automatic ones (a withhold of nothing)."""
    r = g.s["round"]
    crowd, g.crowd_kept = g.crowd_kept, None  # E18xxGame._move's answer from before a move that left it so
    if crowd is None:
        crowd = trains.crowded(g)
    if crowd:
        return
    # asked once, not at every step skipped below: the steps done here without a move (a dividend, the loans, a
    # nationalisation or closing, a skipped train step) never give a corporation a train nor change the phase, so
    # nobody is over the limit after them who was not before
    corps = g.s["corps"]
    for _ in range(200):
        if g.s["over"] or r["special"] or r.get("offer"):
            return
        order, index = r["order"], r["index"]  # current(g), read here: asked at every step skipped
        if index >= len(order):
            return
        cid = order[index]
        corp = corps[cid]
        if not corp["floated"]:  # nationalised during the round (1867): it no longer operates
            r.update(index=index + 1, step=g.rules.operating_steps[0], laid=False, lays=[], tokened=False,
                     revenue=None, runs=[], acted=False)
            continue
        step = r["step"]
        # once the trains have run (the revenue is counted) whether they could is not asked again
        if step == "routes" and r["revenue"] is None and not (corp["trains"] and trains.route_available(g, cid)):
            r["revenue"] = 0
        if not (step in BY_ITSELF and _by_itself(g, cid)) and step_open(g, cid, step):
            return
        _next_step(g)


#: The steps `_by_itself` may do without a move.
BY_ITSELF = frozenset(("dividend", "loans"))


def _by_itself(g: G, cid: str) -> bool:
    """Do the step if it happens without a move: a dividend of nothing (or one the title pays without asking), the
    interest on loans. Returns whether it did."""
    r = g.s["round"]
    if r["step"] == "dividend" and (not r["revenue"] or not g.rules.dividend_kinds(g, cid)):
        g.rules.pay_dividend(g, cid, "payout" if r["revenue"] else "withhold", r["revenue"] or 0)
        return True
    if r["step"] == "loans":
        g.rules.loan_step(g, cid)
        return True
    return False


def step_open(g: G, cid: str, step: str) -> bool:
    r = g.s["round"]
    if step == "track":
        return bool(lays_open(g, cid)) or privates.mf_pending(g, cid) or g.rules.track_held(g, cid)
    if step == "token":
        return not r["tokened"] and g.rules.token_step_open(g, cid)
    if step == "routes":
        return r["revenue"] is None
    if step == "dividend":
        return bool(r["revenue"])
    if step == "trains":
        return trains.must_buy(g, cid) or trains.can_buy_train(g, cid)
    if step in ("companies", "companies_preloan"):
        return bool(private_offers(g, cid))
    if step == "redeem":
        return bool(redeemable(g, cid))
    return False


# ---- what a corporation can do ------------------------------------------------------------------------

def lay_slot(g: G, cid: str, coord: str, open_lays: list[dict[str, Any]] | None = None) -> dict[str, Any] | None:
    """The open lay a tile on `coord` would use (an upgrade only where the slot allows one), or None. `open_lays`:
    lays_open's answer if the caller has it."""
    upgrade = g.board.tile(coord).colour != "white"
    if open_lays is None:
        open_lays = lays_open(g, cid)
    fitting = [s for s in open_lays if (s["upgrade"] or not upgrade) and s.get("not_on") != coord
               and coord in s.get("hexes", (coord,))]
    # a lay kept for named hexes (1890's Arima) goes first where it may
    return next((s for s in fitting if "hexes" in s), fitting[0] if fitting else None)


def lay_price(g: G, cid: str, coord: str, tile: str, rotation: int) -> int:
    """What a lay costs `cid` now: terrain and borders, and the title's price of the lay it is (1867's second)."""
    slot = lay_slot(g, cid, coord)
    if slot and slot.get("free"):
        return 0  # 1890: the Subway's first tile in Osaka costs nothing
    return lays.lay_cost(g, cid, coord, tile, rotation) + (slot["cost"] if slot else 0)


def redeemable(g: G, cid: str) -> list[str]:
    """Pool certificates of `cid` it can buy back into its treasury now (1867's majors, 1807's systems), one at a
    time."""
    if g.cdef(cid).kind not in ("major", "system"):
        return []
    price, cdef = g.price(cid), g.cdef(cid)
    return [c for c in g.corp(cid)["shares"].get(POOL, [])
            if price * cdef.cert_percent(c) // cdef.cert_unit <= g.corp(cid)["cash"]]


def lays_open(g: G, cid: str) -> list[dict[str, Any]]:
    """The tile lays `cid` may still make this turn (the title's `lays_allowed`)."""
    r = g.s["round"]
    if r["laid"]:
        return []
    slots = g.rules.lays_allowed(g, cid, r.get("lays", []))
    cash = g.corp(cid)["cash"]
    if all(slot["cost"] <= cash for slot in slots):
        return slots  # a buying power is never below the cash (asked at every settle of a track step: not priced)
    power = g.rules.buying_power(g, cid)
    return [slot for slot in slots if slot["cost"] <= power]


def tokens_used(g: G, cid: str) -> int:
    return len(g.board.token_nodes(cid))


def next_token_cost(g: G, cid: str) -> int | None:
    """The printed price of the next token, None when none is left (the title's `next_token_price`)."""
    return g.rules.next_token_price(g, cid)


def can_token(g: G, cid: str) -> bool:
    return bool(token_moves(g, cid))


def token_moves(g: G, cid: str) -> list[tuple[str, int, int]]:
    """(hex, city, cost) for every token `cid` may place and pay for now."""
    base = next_token_cost(g, cid)
    if base is None:
        return []
    cash = g.corp(cid)["cash"]
    moves = [(h, i, g.rules.token_cost(g, cid, h, base)) for h, i in legal_tokens(g.board, cid)]
    return [m for m in moves if m[2] <= cash]


def private_offers(g: G, cid: str) -> list[str]:
    """Privates `cid` may buy now: phases 3-4, held by a player, at least half their value affordable."""
    if g.beginner or not g.phase.corporations_buy_privates:
        return []
    cash = g.corp(cid)["cash"]
    return [pid for pid, p in g.s["privates"].items()
            if not p["closed"] and p["owner"] is not None and p["owner"].isdigit()
            and g.rules.may_buy_private(g, cid, pid) and g.rules.private_price_range(g, pid)[0] <= cash]


# ---- actions ------------------------------------------------------------------------------------------

def apply(g: G, seat: int, action: Action, crowd: list[str] | None = None) -> None:
    """`crowd`: trains.crowded of this state if the caller has it (asked before the move, nothing written since)."""
    kind = action["type"]
    r = g.round
    if crowd is None:
        crowd = trains.crowded(g)
    if kind == "discard_train" or crowd:
        if not crowd:
            raise RuleError("No corporation has too many trains.")
        if kind != "discard_train":
            raise RuleError("{corps} must first discard down to the train limit.", corps=", ".join(crowd))
        _discard(g, seat, action, crowd)
        return
    if r.get("offer"):
        _answer(g, seat, action)
        return
    if r["special"]:
        privates.special_step(g, seat, action)
        return
    cid = current(g)
    if kind == "lay_tile" and action.get("entity_type") == "company" and cid is not None:
        if not g.rules.private_lay(g, seat, cid, action):  # a title's own private lays (1807: P2-P5)
            privates.lay_with_private(g, seat, action, in_track_of=cid)
        return
    if cid is None or seat != g.president(cid):
        raise RuleError("It is not your turn.")
    entity = action.get("entity")
    if entity is not None and action.get("entity_type", "corporation") == "corporation" and entity != cid:
        raise RuleError("{corp} is operating, not {entity}.", corp=cid, entity=entity)
    r["acted"] = True  # set before the move, which may end the turn (and clear it for the next corporation)
    if g.rules.turn_move(g, seat, cid, action):
        return
    if kind == "buy_company":
        _buy_company(g, seat, cid, action)
        return
    step = r["step"]
    if kind == "pass":
        if step in ("routes", "dividend"):
            if step == "routes":
                raise RuleError("Run your trains first.")
            raise RuleError("Choose to pay out or withhold.")
        if step == "trains" and trains.must_buy(g, cid):
            raise RuleError("{corp} has no train and must buy one.", corp=cid)
        _next_step(g)
        return
    wanted = STEP_OF.get(kind)
    if wanted is None:
        raise RuleError("That is not a move of an operating round.")
    if wanted != step:
        steps = g.rules.operating_steps
        if g.trusted and steps.index(wanted) > steps.index(step):
            while r["step"] != wanted:  # a recorded log may skip steps our reckoning keeps open
                if r["step"] == "routes" and r["revenue"] is None:
                    r["revenue"] = 0  # trains not run: nothing earned, and the price still moves left
                _by_itself(g, cid)
                _next_step(g)
        else:
            raise RuleError(_step_hint(step))
    _STEP_MOVES[kind](g, seat, cid, action)


def _step_hint(step: str) -> Msg:
    return msg({"redeem": N_("Now redeem a share or pass."), "track": N_("Now lay a tile or pass."),
                "token": N_("Now place a token or pass."), "routes": N_("Now run your trains."),
                "dividend": N_("Now pay out or withhold."),
                "trains": N_("Now buy trains or pass."), "companies": N_("Now buy a private company or pass."),
                "companies_preloan": N_("Now buy a private company or pass.")}[step])


def _lay(g: G, seat: int, cid: str, action: Action) -> None:
    r = g.round
    open_lays = lays_open(g, cid)
    if not open_lays:
        if r.get("lays"):
            raise RuleError("{corp} has already laid its tiles this turn.", corp=cid)
        raise RuleError("{corp} has already laid a tile this turn.", corp=cid)
    coord, tile, rotation = lays.read_lay(action)
    board = g.board
    upgrade = board.tile(coord).colour != "white"
    slot = lay_slot(g, cid, coord, open_lays)
    if slot is None:
        if any(s.get("not_on") == coord for s in open_lays):
            raise RuleError("That lay is not open now: the second tile may not go on the same hex.")
        raise RuleError("That lay is not open now: only one upgrade a turn.")
    if g.trusted:
        lays.check_upgrade(g, coord, tile)
    else:
        reaching = cid if slot.get("connected", True) else None  # 1890's Arima lay needs no connection
        problem = lay_problem(g.rules.lay_board(g, cid), Lay(coord, tile, rotation), g.colours, reaching,
                              blocked=g.blocked_hexes(), optional_rules=g.optional_rules)
        if problem:
            raise RuleError(problem)
    cost = 0 if slot.get("free") else lays.lay_cost(g, cid, coord, tile, rotation) + slot["cost"]
    if cost:  # most lays cost nothing: no loan to take, nothing to pay
        g.rules.raise_cash(g, cid, cost)
        g.pay(cid, BANK, cost)
    g.set_board(board.lay_tile(coord, tile, rotation))
    g.rules.after_lay(g, cid, coord, tile)
    r["lays"] = [*r.get("lays", []), {"hex": coord, "upgrade": upgrade}]
    r["laid"] = not g.rules.lays_allowed(g, cid, r["lays"])
    if cost:
        g.event("{corp} lays tile {tile} on {where} for {cost}.", corp=cid, tile=tile, where=g.place(coord),
                cost=g.amount(cost))
    else:
        g.event("{corp} lays tile {tile} on {where}.", corp=cid, tile=tile, where=g.place(coord))


def _redeem(g: G, seat: int, cid: str, action: Action) -> None:
    """The corporation buys one of its certificates back from the pool at the market price (once a turn)."""
    shares = action.get("shares")
    if not isinstance(shares, list) or len(shares) != 1 or shares[0] not in redeemable(g, cid):
        raise RuleError("{corp} redeems one of its certificates from the pool that it can pay for.", corp=cid)
    cert = shares[0]
    price = g.price(cid) * g.cdef(cid).cert_percent(cert) // g.cdef(cid).cert_unit
    g.pay(cid, BANK, price)
    g.transfer(cid, [cert], POOL, IPO)
    g.event("{corp} redeems a share from the pool for {price}.", corp=cid, price=g.amount(price))
    _next_step(g)  # one redemption a turn


def _token(g: G, seat: int, cid: str, action: Action) -> None:
    r = g.round
    coord, node = action.get("hex"), action.get("city", 0)
    if not isinstance(coord, str) or not isinstance(node, int):
        raise RuleError("A token goes on a hex's city.")
    cost = next_token_cost(g, cid)
    if r["tokened"] or cost is None:
        raise RuleError("{corp} has no token to place now.", corp=cid)
    cost = g.rules.token_cost(g, cid, coord, cost)
    if g.trusted:  # a replay's token needs only a free slot, which place_token looks for (and refuses without)
        if coord not in g.map.printed:
            raise RuleError("{corp} cannot place a token on {where}.", corp=cid, where=coord)
    else:
        problem = token_problem(g.board, cid, coord, node)
        if problem:
            raise RuleError(problem)
    board = g.board.place_token(coord, cid, node)  # before any write: it refuses a city with no free slot
    g.pay(cid, BANK, cost)
    g.set_board(board)
    g.rules.token_placed(g, cid, coord, node)
    r["tokened"] = True
    g.event("{corp} places a token on {where} for {cost}.", corp=cid, where=g.place(coord), cost=g.amount(cost))


#: A route's fields: the train and its track (`connections`, hexes node to node), and what a recorded
#: 18xx.games route also carries: its stops' `hexes`, its `revenue` (a replay takes it), `revenue_str`, `nodes`.
ROUTE_FIELDS = {"train": N_("a train id"), "connections": N_("a list of lists of hexes"),
                "hexes": N_("a list of hexes"), "revenue": N_("a whole number of at least 0"),
                "revenue_str": N_("a text"), "nodes": N_("a list of node ids")}


def _is_strs(value: Any) -> bool:
    return type(value) is list and {*map(type, value)} <= _STR  # every item a str (the types gathered in C)


_STR = frozenset((str,))
_ROUTE_FIELD_OK = {
    "train": lambda v: type(v) is str, "revenue_str": lambda v: type(v) is str,
    "revenue": lambda v: type(v) is int and v >= 0, "hexes": _is_strs, "nodes": _is_strs,
    "connections": lambda v: type(v) is list and all(map(_is_strs, v)) and all(v),  # lists of hexes, none empty
}


def read_routes(g: G, routes: Any) -> list[dict[str, Any]]:
    """The routes of a run_routes move, each field of the type it must have and every hex of its track on the
    map; whether the track is there and the routes legal is _run's to judge."""
    if type(routes) is not list or not all(type(x) is dict for x in routes):
        raise RuleError("Send the routes your trains run: a train and its connections for each.")
    printed = g.map.printed
    for x in routes:
        for key, value in x.items():
            if key not in ROUTE_FIELDS:
                raise RuleError("A route has no {field}.", field=repr(str(key)[:20]))
            if not _ROUTE_FIELD_OK[key](value):
                raise RuleError("A route's {field} must be {kind}.", field=key, kind=msg(ROUTE_FIELDS[key]))
        if "train" not in x:
            raise RuleError("Each route names the train that runs it.")
        for hex_list in x.get("connections", ()):
            for coord in hex_list:
                if coord in printed:  # most name the hex alone; some add words after it
                    continue
                words = coord.split()
                if not words or words[0] not in printed:
                    raise RuleError("{hex} is not a hex of the map.", hex=repr(coord[:20]))
    return routes


def _run(g: G, seat: int, cid: str, action: Action) -> None:
    routes = read_routes(g, action.get("routes"))
    owned = g.rules.route_trains(g, cid)
    used = [x.get("train") for x in routes]
    if any(t not in owned for t in used) or len(set(used)) != len(used):
        raise RuleError("Each route needs one of {corp}'s trains ({trains}), once.", corp=cid,
                        trains=", ".join(owned) or msg("none"))
    runs, total = [], 0
    if g.trusted and all(isinstance(x.get("revenue"), int) for x in routes):
        # 18xx.games trusts a recorded route's revenue while loading a game, and so do we.
        for x in routes:
            runs.append({"train": x["train"], "hexes": list(x.get("hexes") or []), "revenue": x["revenue"]})
            total += x["revenue"]
    else:
        board = g.rules.route_board(g, cid)
        parsed = []

        def accept(r: Route) -> bool:
            return g.rules.route_problem(g, cid, r) is None

        for x in routes:
            try:
                route = route_from_connections(board, x.get("connections") or [], corp=cid, accept=accept)
            except RuleError:
                raise RuleError("The route of train {train} does not follow track on the board.",
                                train=x["train"]) from None
            parsed.append((g.rules.train(g, x["train"]), route, x["train"]))
        if not g.trusted:
            check_runs(board, cid, [(t, route) for t, route, _ in parsed], g.colours)
            if g.rules.routes_visit_hex_once and not all(hexes_once(route.stops) for _, route, _ in parsed):
                raise RuleError("A route may not visit a hex twice.")
            for _, route, _ in parsed:
                if problem := g.rules.route_problem(g, cid, route):
                    raise RuleError(problem)
        for t, route, train_id in parsed:
            revenue = g.rules.route_revenue(g, cid, route, t)
            runs.append({"train": train_id, "hexes": list(route.hexes), "revenue": revenue})
            total += revenue
    total += g.rules.runs_made(g, cid, runs)
    g.round["runs"], g.round["revenue"] = runs, total
    g.event("{corp}'s trains earn {revenue}.", corp=cid, revenue=g.amount(total))


def best_run_action(g: G, cid: str) -> Action:
    """The auto-router's best runs for the corporation's trains, as a run_routes action."""
    owned = g.rules.route_trains(g, cid)
    total, runs = best_runs(g.rules.route_board(g, cid), cid, [g.rules.train(g, t) for t in owned], g.colours,
                            hexes_distinct=g.rules.routes_visit_hex_once, excluded=g.rules.excluded_stops(g, cid))
    routes = []
    for train_id, run in zip(owned, runs, strict=True):
        if run.route is not None:
            routes.append({"train": train_id, "connections": [list(c.hexes) for c in run.route.chains]})
    return {"type": "run_routes", "routes": routes}


def _dividend(g: G, seat: int, cid: str, action: Action) -> None:
    kind = action.get("kind")
    kinds = g.rules.dividend_kinds(g, cid)
    if kind not in kinds:
        if not kinds:
            raise RuleError("{corp} pays its dividend by itself.", corp=cid)
        raise RuleError("A dividend is {kinds}.", kinds=msg(DIVIDEND_KINDS[tuple(kinds)]) if tuple(kinds) in
                        DIVIDEND_KINDS else " or ".join(kinds))
    g.rules.pay_dividend(g, cid, kind, g.round["revenue"])
    _next_step(g)


def payout(g: G, cid: str, revenue: int, *, kept: int = 0, steps: int = 1) -> None:
    """Pay `revenue` to the shareholders (less `kept`, which the treasury keeps: a half dividend) and move the price
    `steps` to the right."""
    holds = IPO if g.title.rules.get("treasury_shares_pay") == "corporation" else POOL
    to_players, to_corp = dividend_payouts(g.cdef(cid), g.corp(cid)["shares"], revenue - kept, holds)
    for key, amount in to_players.items():
        g.pay(BANK, key, amount)
    g.pay(BANK, cid, to_corp + kept)
    before = g.price(cid)
    g.move_price(cid, g.title.market.after_payout(g.cell(cid), steps))
    paid = revenue - kept
    if kept:
        g.event("{corp} pays out {paid} ({per_share} a share), keeping {kept}; its price goes from {before} to "
                "{after}.", corp=cid, paid=g.amount(paid), per_share=g.amount(paid // 10), kept=g.amount(kept),
                before=g.amount(before), after=g.amount(g.price(cid)))
    else:
        g.event("{corp} pays out {paid} ({per_share} a share); its price goes from {before} to {after}.", corp=cid,
                paid=g.amount(paid), per_share=g.amount(paid // 10), before=g.amount(before),
                after=g.amount(g.price(cid)))


def withhold(g: G, cid: str, revenue: int) -> None:
    g.pay(BANK, cid, revenue)
    before = g.price(cid)
    g.move_price(cid, g.title.market.after_withhold(g.cell(cid)))
    g.event("{corp} withholds {revenue}; its price goes from {before} to {after}.", corp=cid,
            revenue=g.amount(revenue), before=g.amount(before), after=g.amount(g.price(cid)))


def _buy_train(g: G, seat: int, cid: str, action: Action, agreed: bool = False) -> None:
    train_id, price, exchange = action.get("train"), action.get("price"), action.get("exchange")
    if not isinstance(train_id, str) or not isinstance(price, int) or isinstance(price, bool):
        raise RuleError("A train purchase names a train and a price.")
    corp = g.corp(cid)
    offer = trains.depot_offer(g)
    seller = None
    if exchange is not None and exchange not in corp["trains"]:
        raise RuleError("{corp} has no train {train} to trade in.", corp=cid, train=exchange)
    if train_id in offer:
        if not g.rules.may_buy_train(g, cid, train_id):
            raise RuleError("{corp} may not buy train {train}.", corp=cid, train=train_id)
        try:
            expected = trains.list_price(g, train_id, exchange)
        except ValueError:
            raise RuleError("Train {old} cannot be traded in for train {train}.", old=exchange,
                            train=train_id) from None
        if exchange is not None and not g.rules.trade_ins_allowed(g, cid):
            raise RuleError("Trains are not traded in during this phase.")
        if expected < 0:
            raise RuleError("Train {old} is worth more in trade than train {train} costs.", old=exchange,
                            train=train_id)
        if price != expected:
            raise RuleError("Train {train} costs {price}.", train=train_id, price=g.amount(expected))
    else:
        seller = trains.owner_of_train(g, train_id)
        if seller is None or seller == cid:
            raise RuleError("Train {train} is not for sale.", train=train_id)
        if exchange is not None:
            raise RuleError("Only the depot takes trains in trade.")
        if price < 1:
            raise RuleError("A train bought from another corporation costs at least 1.")
    if len(corp["trains"]) - (exchange is not None) >= trains.train_limit(g, cid):
        raise RuleError("{corp} already has {n} trains, the limit.", corp=cid, n=len(corp["trains"]))
    president = None
    if seller is None and trains.must_buy(g, cid):
        g.rules.raise_cash(g, cid, price, train=True)
    if price > corp["cash"]:
        if not trains.must_buy(g, cid):
            raise RuleError("{corp} has {cash}; that train costs {price}.", corp=cid, cash=g.amount(corp["cash"]),
                            price=g.amount(price))
        if seller is not None or train_id not in trains.cheapest_depot_trains(g) or exchange is not None:
            raise RuleError("With the president's money a corporation buys only the cheapest train in the depot.")
        president = g.key(seat)
        if corp["cash"] + g.s["cash"][seat] < price:
            raise RuleError("{corp} and you together have {cash}; sell shares first, or go bankrupt if even that "
                            "cannot pay {price}.", corp=cid, cash=g.amount(corp["cash"] + g.s["cash"][seat]),
                            price=g.amount(price))
    if seller is not None and not agreed and not g.trusted and g.president(seller) != seat:
        _offer(g, seat, g.president(seller), action, msg("train {train} of {corp}", train=train_id, corp=seller))
        return
    if exchange is not None:  # the traded-in train goes back to the bank, for sale again (as on 18xx.games)
        trains.discard(g, cid, exchange)
    trains.pay_for_train(g, cid, seller, price, president)
    if seller is None:
        trains.take_from_depot(g, train_id, cid)
        g.rules.after_train_bought(g)
        if exchange and president:
            g.event("{corp} buys train {train} for {price}, trading in {old}, [0] paying what it lacked.", seat,
                    corp=cid, train=train_id, price=g.amount(price), old=exchange)
        elif exchange:
            g.event("{corp} buys train {train} for {price}, trading in {old}.", seat, corp=cid, train=train_id,
                    price=g.amount(price), old=exchange)
        elif president:
            g.event("{corp} buys train {train} for {price}, [0] paying what it lacked.", seat, corp=cid,
                    train=train_id, price=g.amount(price))
        else:
            g.event("{corp} buys train {train} for {price}.", seat, corp=cid, train=train_id, price=g.amount(price))
    else:
        g.corp(seller)["trains"].remove(train_id)
        corp["trains"].append(train_id)
        if g.rules.trade_price_public(g):
            g.event("{corp} buys train {train} from {seller} for {price}.", corp=cid, train=train_id, seller=seller,
                    price=g.amount(price))
        else:  # 1890's variant: only the two presidents learn the price
            g.rules.record_secret_trade(g, cid, seller, train_id, price)
            g.event("{corp} buys train {train} from {seller}.", corp=cid, train=train_id, seller=seller)
    if not step_open(g, cid, "trains"):
        _next_step(g)


#: The moves of a step, by type (STEP_OF says which step each belongs to).
_STEP_MOVES = {"buy_shares": _redeem, "lay_tile": _lay, "place_token": _token, "run_routes": _run,
               "dividend": _dividend, "buy_train": _buy_train, "sell_shares": emergency.emergency_sale,
               "bankrupt": emergency.bankrupt}


def _discard(g: G, seat: int, action: Action, crowd: list[str]) -> None:
    cid, train_id = action.get("entity"), action.get("train")
    if cid is None:
        mine = [c for c in crowd if g.president(c) == seat]
        cid = mine[0] if len(mine) == 1 else None
    if cid not in crowd:
        raise RuleError("Name the corporation over its train limit.")
    if g.president(cid) != seat:
        raise RuleError("Only {corp}'s president discards its trains.", corp=cid)
    if train_id not in g.corp(cid)["trains"]:
        raise RuleError("{corp} has no train {train}.", corp=cid, train=train_id)
    trains.discard(g, cid, train_id)
    g.event("{corp} discards train {train} to the depot.", corp=cid, train=train_id)


def _buy_company(g: G, seat: int, cid: str, action: Action, agreed: bool = False) -> None:
    pid, price = action.get("company"), action.get("price")
    if g.beginner or not g.phase.corporations_buy_privates:
        raise RuleError("Corporations buy private companies only in phases 3 and 4 (never in the Beginner Game).")
    if pid in g.s["privates"] and not g.rules.may_buy_private(g, cid, pid):
        raise RuleError("{corp} cannot buy {private}.", corp=cid, private=g.private_name(pid))
    p = g.s["privates"].get(pid)
    if p is None or p["closed"] or p["owner"] is None or not p["owner"].isdigit():
        raise RuleError("That private company is not a player's to sell.")
    low, high = g.rules.private_price_range(g, pid)
    if not isinstance(price, int) or isinstance(price, bool) or not low <= price <= high:
        raise RuleError("{private} sells for {low} to {high}.", private=g.private_name(pid), low=g.amount(low),
                        high=g.amount(high))
    if price > g.corp(cid)["cash"]:
        raise RuleError("{corp} has {cash}; it cannot pay {price}.", corp=cid, cash=g.amount(g.corp(cid)["cash"]),
                        price=g.amount(price))
    seller = int(p["owner"])
    if seller != seat and not agreed and not g.trusted:
        _offer(g, seat, seller, action, g.private_name(pid))
        return
    g.pay(cid, p["owner"], price)
    p["owner"] = cid
    g.event("{corp} buys {private} from [0] for {price}.", seller, corp=cid, private=g.private_name(pid),
            price=g.amount(price))
    lay = g.ability(pid, "lay_tile")
    if lay and "sold_to_corporation" in lay.get("when", ()) and not p["used"]:
        g.round["special"] = {"company": pid, "seat": seller}


def _offer(g: G, buyer: int, seller: int, action: Action, what: Any) -> None:
    cid = current(g)
    g.round["offer"] = {"buyer_seat": buyer, "seller_seat": seller, "corporation": cid, "action": dict(action)}
    if action["type"] == "buy_train" and not g.rules.trade_price_public(g):
        g.event("{corp} makes an offer for {what}; [0] may accept or decline.", seller, corp=cid, what=what)
    else:
        g.event("{corp} offers {price} for {what}; [0] may accept or decline.", seller, corp=cid,
                price=g.amount(action["price"]), what=what)


def _answer(g: G, seat: int, action: Action) -> None:
    """The seller accepts or declines an offer; the buyer may withdraw it."""
    offer = g.round["offer"]
    kind = action["type"]
    if seat not in (offer["seller_seat"], offer["buyer_seat"]):
        raise RuleError("An offer is waiting for an answer first.")
    if kind == "accept_offer" and seat == offer["seller_seat"]:
        g.round["offer"] = None
        buy = offer["action"]
        cid = offer["corporation"]
        {"buy_train": _buy_train, "buy_company": _buy_company}[buy["type"]](
            g, offer["buyer_seat"], cid, buy, agreed=True)
        return
    if (kind, seat) in (("decline_offer", offer["seller_seat"]), ("withdraw_offer", offer["buyer_seat"])):
        g.round["offer"] = None
        if kind == "decline_offer":
            g.event("[0] declines the offer of {corp}.", seat, corp=offer["corporation"])
        else:
            g.event("[0] withdraws the offer of {corp}.", seat, corp=offer["corporation"])
        return
    if seat == offer["seller_seat"]:
        raise RuleError("Accept or decline the offer first.")
    raise RuleError("Your offer is waiting for an answer; you may withdraw it.")


# ---- moves for a live player --------------------------------------------------------------------------

def legal(g: G, seat: int) -> list[Action]:
    if seat not in acting(g):
        return []
    r = g.round
    crowd = trains.crowded(g)
    if crowd:
        return [{"type": "discard_train", "entity": c, "train": t}
                for c in crowd if g.president(c) == seat for t in g.corp(c)["trains"]]
    offer = r.get("offer")
    if offer:
        if seat == offer["seller_seat"]:
            return [{"type": "accept_offer"}, {"type": "decline_offer"}]
        return [{"type": "withdraw_offer"}]
    if r["special"]:
        company = r["special"]["company"]
        return [*privates.special_lays(g), {"type": "pass", "entity": company, "entity_type": "company"}]
    cid = current(g)
    step = r["step"]
    moves: list[Action] = []
    buys = _company_moves(g, cid)  # a private may be bought at any step of the turn, as on 18xx.games
    buys += g.rules.turn_moves(g, seat, cid)  # and a title's moves of any step (1890: a minor's conversion)
    if step == "redeem":
        moves = [{"type": "buy_shares", "shares": [c]} for c in redeemable(g, cid)[:1]]
    elif step == "track":
        power = g.rules.buying_power(g, cid)
        if lays_open(g, cid):
            for lay in legal_lays(g.rules.lay_board(g, cid), cid, g.colours, blocked=g.blocked_hexes(),
                                  optional_rules=g.optional_rules):
                if lay_slot(g, cid, lay.hex) and lay_price(g, cid, lay.hex, lay.tile, lay.rotation) <= power:
                    moves.append({"type": "lay_tile", "hex": lay.hex, "tile": lay.tile, "rotation": lay.rotation})
            moves += [m for m in _unconnected_lays(g, cid) if m not in moves]
    elif step == "token":
        moves = [{"type": "place_token", "hex": h, "city": i} for h, i, _ in token_moves(g, cid)]
    elif step == "routes":
        return [best_run_action(g, cid), *buys]
    elif step == "dividend":
        return [*({"type": "dividend", "kind": k} for k in g.rules.dividend_kinds(g, cid)), *buys]
    elif step == "trains":
        moves = _train_moves(g, seat, cid)
        if trains.must_buy(g, cid):
            return [*moves, *buys]
    return [*moves, *buys, {"type": "pass"}]


def _unconnected_lays(g: G, cid: str) -> list[Action]:
    """Lays on the named hexes of a title's lay that needs no connection (1890's Arima)."""
    moves: list[Action] = []
    power = g.rules.buying_power(g, cid)
    for slot in lays_open(g, cid):
        if slot.get("connected", True):
            continue
        for coord in slot.get("hexes", ()):
            for name, left in g.board.supply(g.optional_rules).items():
                for rotation in range(6) if left > 0 else ():
                    lay = Lay(coord, name, rotation)
                    if (lay_problem(g.board, lay, g.colours, None, blocked=g.blocked_hexes(),
                                    optional_rules=g.optional_rules) is None
                            and lay_price(g, cid, coord, name, rotation) <= power):
                        moves.append({"type": "lay_tile", "hex": coord, "tile": name, "rotation": rotation})
    return moves


def _train_moves(g: G, seat: int, cid: str) -> list[Action]:
    corp = g.corp(cid)
    moves: list[Action] = []
    if not trains.room(g, cid):  # at the limit: only a trade-in keeps the count
        return [{"type": "buy_train", "train": t, "price": price, "exchange": old}
                for t, old, price in trains.trade_ins(g, cid)]
    if trains.emergency(g, cid):
        for t in trains.cheapest_depot_trains(g):
            price = trains.list_price(g, t)
            if corp["cash"] + g.s["cash"][seat] >= price:
                moves.append({"type": "buy_train", "train": t, "price": price})
        if not moves:
            moves += emergency.sellable(g, seat, cid)
            if emergency.may_go_bankrupt(g, seat, cid):
                moves.append({"type": "bankrupt"})
    power = g.rules.buying_power(g, cid) if trains.must_buy(g, cid) else corp["cash"]
    for t in trains.depot_offer(g):
        price = trains.list_price(g, t)
        if (price <= power and g.rules.may_buy_train(g, cid, t)
                and {"type": "buy_train", "train": t, "price": price} not in moves):
            moves.append({"type": "buy_train", "train": t, "price": price})
    moves += [{"type": "buy_train", "train": t, "price": price, "exchange": old}
              for t, old, price in trains.trade_ins(g, cid)]
    for _, t in trains.other_trains(g, cid):
        for price in sorted({1, trains.list_price(g, t)}):
            if price <= corp["cash"]:
                moves.append({"type": "buy_train", "train": t, "price": price})
    return moves


def _company_moves(g: G, cid: str) -> list[Action]:
    moves = []
    cash = g.corp(cid)["cash"]
    for pid in private_offers(g, cid):
        low, high = g.rules.private_price_range(g, pid)
        for price in sorted({low, g.pdef(pid).value, high}):
            if price <= cash:
                moves.append({"type": "buy_company", "company": pid, "price": price})
    return moves


def auto(g: G, seat: int) -> Action | None:
    if seat not in acting(g):
        return None
    r = g.round
    crowd = trains.crowded(g)
    if crowd:
        cid = next(c for c in crowd if g.president(c) == seat)
        weakest = min(g.corp(cid)["trains"], key=lambda t: (g.rules.train(g, t).distance, t))
        return {"type": "discard_train", "entity": cid, "train": weakest}
    if r.get("offer"):  # nobody agrees to a price on a player's behalf
        return {"type": "decline_offer" if seat == r["offer"]["seller_seat"] else "withdraw_offer"}
    if r["special"]:
        return {"type": "pass", "entity": r["special"]["company"], "entity_type": "company"}
    cid = current(g)
    step = r["step"]
    if step == "routes":
        return best_run_action(g, cid)
    if step == "dividend":
        return {"type": "dividend", "kind": (g.rules.dividend_kinds(g, cid) or ("payout",))[0]}
    if step == "trains" and trains.must_buy(g, cid):
        moves = _train_moves(g, seat, cid)
        offer = trains.depot_offer(g)  # the title's own buys count too (1807: a goods side may be the cheapest)
        buys = [m for m in [*moves, *g.rules.turn_moves(g, seat, cid)]
                if m["type"] == "buy_train" and "exchange" not in m and m["train"] in offer]
        if buys:
            return min(buys, key=lambda m: m["price"])
        sales = [m for m in moves if m["type"] == "sell_shares"]
        return sales[0] if sales else {"type": "bankrupt"}
    return {"type": "pass"}


def describe(g: G) -> dict[str, Any]:
    r = g.round
    return {"kind": "operating", "turn": r["turn"], "or": r["or"], "of": r["of"], "order": list(r["order"]),
            "operating": current(g), "step": r["step"], "revenue": r["revenue"], "runs": list(r["runs"]),
            "crowded": trains.crowded(g), "special": r["special"], "offer": r.get("offer")}
