"""A 1867 corporation's tokens as 18xx.games keeps them: a list of tokens, each with its price, placed or not. The
next token is the first one not placed (its price times the distance, operating.py); a token taken off the board
is free again in its place in the list. A merger moves the minors' tokens onto the major's first free ones (a new
one at $0 when none is left), and afterwards the major keeps its placed tokens, then its free ones cheapest first,
two in all, and a $40 token to make three. State: each corporation's `charter`, [[price, [hex, city] | None], ...].
"""
from __future__ import annotations

from engines.e18xx.state import G

MERGED_TOKENS = 3  # a major after a merger: two tokens kept and one more
EXTRA_PRICE = 40  # the price of the token that makes three


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
    """Placed tokens, then free ones cheapest first, `limit` in all; then a $40 token up to three."""
    charter = g.corp(cid)["charter"]
    placed = [t for t in charter if t[1] is not None]
    free = sorted((t for t in charter if t[1] is None), key=lambda t: t[0])
    g.corp(cid)["charter"] = (placed + free)[:limit]
    fill_up(g, cid)


def fill_up(g: G, cid: str) -> None:
    """The token a major gets back after a merger (1867: one at $40 to make three; a title may say otherwise)."""
    count, price = g.rules.tokens_after_merger(g, cid)
    charter = g.corp(cid)["charter"]
    if count is None:  # 1867: one more unless it has three
        if len(charter) != MERGED_TOKENS:
            charter.append([EXTRA_PRICE, None])
        return
    while len(charter) < count:
        charter.append([price, None])
