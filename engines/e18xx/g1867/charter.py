"""A 1867 corporation's tokens as 18xx.games keeps them: a list of tokens, each with its price, placed or not. The
next token is the first one not placed (its price times the distance, operating.py); a token taken off the board
is free again in its place in the list. A merger moves the minors' tokens onto the major's first free ones (a new
one at $0 when none is left), and afterwards the major keeps its placed tokens, then its free ones cheapest first,
two in all, and new tokens up to the title's count (Rules1867.merged_charter: 1867 a $40 token to make three, 1807
$20 ones to make four). State: each corporation's `charter`, [[price, [hex, city] | None], ...].
"""
from __future__ import annotations

from engines.e18xx.state import G


def init(g: G) -> None:
    for cid, corp in g.s["corps"].items():
        corp["charter"] = [[price, None] for price in g.cdef(cid).tokens]


def next_price(g: G, cid: str) -> int | None:
    return next((price for price, at in g.corp(cid)["charter"] if at is None), None)


def take(g: G, cid: str, coord: str, node: int) -> None:
    """The next token goes on (coord, node); a major with none left gets a new $0 one (a merger's)."""
    charter = g.corp(cid)["charter"]
    free = next((t for t in charter if t[1] is None), None)
    if free is None:
        free = [0, None]
        charter.append(free)
    free[1] = [coord, node]


def release(g: G, cid: str, coord: str, node: int) -> None:
    for token in g.corp(cid)["charter"]:
        if token[1] == [coord, node]:
            token[1] = None
            return


def reset(g: G, cid: str) -> None:
    g.corp(cid)["charter"] = [[price, None] for price in g.cdef(cid).tokens]


def keep_after_merger(g: G, cid: str, limit: int) -> None:
    """Placed tokens, then free ones cheapest first, `limit` in all; then filled up (fill_up)."""
    charter = g.corp(cid)["charter"]
    placed = [t for t in charter if t[1] is not None]
    free = sorted((t for t in charter if t[1] is None), key=lambda t: t[0])
    g.corp(cid)["charter"] = (placed + free)[:limit]
    fill_up(g, cid)


def fill_up(g: G, cid: str) -> None:
    """A merged major's charter made up to the title's count with new tokens at the title's price (18xx.games's
    fix_token_count!)."""
    count, price = g.rules.merged_charter
    charter = g.corp(cid)["charter"]
    charter += [[price, None] for _ in range(count - len(charter))]
