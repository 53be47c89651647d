"""1807's goods trains (docs/rules/1807.md, "Goods trains"): the 3G, 4G, 5G and 6G are the other side of the 5, 6,
3+3 and 4+4 cards, bought from the depot instead of them for less (£450, £550, £700, £800).

A goods train is the card it was bought as: it counts toward the train limit, sets off what its card sets off (the
3G the phase 5 as the 5 does, the 6G the phase 8 and the end as the 4+4 does), never rusts (none of those cards
does) and is handed in at the seed's trade-in value. It runs no route (the seed: 経路は不要, it may share track with
the other trains): it earns the mine bonus plus the values of as many cities holding the corporation's tokens as
its number (one city a hex, London once), plus the private railways' bonuses of those cities; no border or London
bonus. The revenue is added after the routes (Rules1807.runs_made), and 18xx.games is told it as the run's
`extra_revenue`, which it adds as given (its own goods trains run on routes: see the rulings).

State: `flags["goods"]` maps a train id bought as a goods train to its goods name ("5-2": "3G").
"""
from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from engines.base import RuleError
from engines.e18xx import trains
from engines.e18xx.companies import TITLES

if TYPE_CHECKING:
    from engines.e18xx.state import G

LONDON_GROUP = "london"


@cache
def variants() -> dict[str, dict[str, Any]]:
    """Card name -> its goods side ({"name": "3G", "price": 450, "cities": 3})."""
    import json
    raw = json.loads((TITLES / "g1807" / "companies.json").read_text(encoding="utf-8"))
    found = {}
    for t in raw["trains"]:
        for v in t.get("variants", ()):
            found[t["name"]] = {"name": v["name"], "price": v["price"], "cities": v["distance"][0]["pay"]}
    return found


def goods_name(g: G, train_id: str) -> str | None:
    """"3G" for a train bought as a 3G; None for a train run on routes."""
    return g.s["flags"].get("goods", {}).get(train_id)


def is_goods(g: G, train_id: str) -> bool:
    return goods_name(g, train_id) is not None


def price(g: G, train_id: str) -> int:
    name = goods_name(g, train_id)
    if name is None:
        return g.train_def(train_id).price
    return next(v["price"] for v in variants().values() if v["name"] == name)


def cities_counted(g: G, train_id: str) -> int:
    name = goods_name(g, train_id)
    return next(v["cities"] for v in variants().values() if v["name"] == name)


# ---- buying --------------------------------------------------------------------------------------------

def _offered(g: G) -> list[str]:
    """New depot trains that may be bought as goods trains: those of the depot's offer whose card has a goods
    side (a discarded train is sold as what it was)."""
    discards = g.s["depot"]["discards"]
    return [t for t in trains.depot_offer(g) if t not in discards and t.rpartition("-")[0] in variants()]


def cheapest_price(g: G) -> int | None:
    """The least a goods train of the depot costs now (None when none is offered)."""
    return min((variants()[t.rpartition("-")[0]]["price"] for t in _offered(g)), default=None)


def moves(g: G, cid: str) -> list[dict[str, Any]]:
    """In the train step, with room: every goods train of the depot the corporation can pay for (with its loans
    when it must buy)."""
    if g.round.get("step") != "trains" or not trains.room(g, cid):
        return []
    power = g.rules.buying_power(g, cid) if trains.must_buy(g, cid) else g.corp(cid)["cash"]
    found = []
    for t in _offered(g):
        v = variants()[t.rpartition("-")[0]]
        if v["price"] <= power:
            found.append({"type": "buy_train", "train": t, "price": v["price"], "variant": v["name"]})
    return found


def buy(g: G, seat: int, cid: str, action: dict[str, Any]) -> None:
    """Buy a depot train as its goods side: the shared purchase (price, loans, limit, what the card sets off), at
    the goods price."""
    from engines.e18xx import operating
    train_id, name = action.get("train"), action.get("variant")
    v = variants().get(str(train_id).rpartition("-")[0])
    if v is None or v["name"] != name or (train_id not in _offered(g) and not g.trusted):
        raise RuleError("Train {train} cannot be bought as a {goods} goods train.", train=str(train_id)[:20],
                        goods=str(name)[:10])
    if action.get("exchange") is not None:
        raise RuleError("A goods train is bought without a trade-in.")
    flags = g.s["flags"]
    flags["goods"] = {**flags.get("goods", {}), train_id: name}
    try:
        operating._buy_train(g, seat, cid, {k: val for k, val in action.items() if k != "variant"})
    except RuleError:
        flags["goods"] = {k: val for k, val in flags["goods"].items() if k != train_id}
        raise
    g.event("Train {train} of {corp} is a {goods} goods train.", train=train_id, corp=cid, goods=name)


# ---- running -------------------------------------------------------------------------------------------

def revenue(g: G, cid: str, train_id: str) -> int:
    """The mine bonus plus the best cities holding `cid`'s tokens, as many as the train's number (one a hex,
    London once), each with the bonuses `cid`'s privates give for it."""
    from engines.e18xx.g1807.rules import BONUS, LONDON_HEXES
    board, rules = g.board, g.rules
    train = rules.train(g, train_id)
    bonuses = [a for pid in g.privates_of(cid) for a in g.pdef(pid).abilities_of("hex_bonus")]
    best: dict[str, int] = {}  # hex (London: "london") -> its best city's value with the bonuses for it
    for coord, node in board.token_nodes(cid):
        if board.node((coord, node)).kind != "city":
            continue
        value = rules.stop_value(g, (coord, node), train) + sum(a["amount"] for a in bonuses if coord in a["hexes"])
        key = LONDON_GROUP if coord in LONDON_HEXES else coord
        best[key] = max(best.get(key, 0), value)
    counted = sorted(best.values(), reverse=True)[:cities_counted(g, train_id)]
    if not counted:
        return 0
    return sum(counted) + board.tile(BONUS["mine"]).nodes[0].revenue_for(g.colours)


def runs(g: G, cid: str) -> list[dict[str, Any]]:
    """The goods trains' runs (no hexes: they run no route), one per goods train of `cid`."""
    return [{"train": t, "hexes": [], "revenue": revenue(g, cid, t)} for t in g.corp(cid)["trains"] if is_goods(g, t)]
