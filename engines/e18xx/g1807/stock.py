"""1807's stock round: 1867's (engines/e18xx/g1867/stock.py) with a minor's home token put down at once: every
1807 minor has its home city printed on the map (18xx.games: the corporation's coordinates), so nobody chooses it."""
from __future__ import annotations

from engines.base import Action
from engines.e18xx.g1867 import stock as base
from engines.e18xx.g1867.stock import (  # noqa: F401  the round's other functions are 1867's
    acting,
    auto,
    describe,
    finish,
    finished,
    priority_seat,
    settle,
    start,
)
from engines.e18xx.state import G


def _home_now(g: G) -> None:
    cid = g.round.get("home")
    if cid and g.cdef(cid).kind == "minor":
        coord = g.map.homes[cid]
        base._home(g, cid, {"hex": coord, "city": g.map.home_nodes.get(cid, 0)})


def apply(g: G, seat: int, action: Action) -> None:
    base.apply(g, seat, action)
    _home_now(g)


def legal(g: G, seat: int) -> list[Action]:
    return base.legal(g, seat)
