"""1807's merger round: 1867's (engines/e18xx/g1867/merger.py) with the takeover of a minor by a public company
(takeover.py) as one more choice at the start of a minor's turn, and its token choices before anything else."""
from __future__ import annotations

from typing import Any

from engines.base import Action, RuleError
from engines.e18xx.g1807 import takeover
from engines.e18xx.g1867 import merger as base
from engines.e18xx.g1867.merger import current, finished, start  # noqa: F401  as 1867's
from engines.e18xx.state import G
from engines.text import Msg, msg


def acting(g: G) -> frozenset[int]:
    if takeover.tokens_stage(g):
        return frozenset({_owner(g)})
    return base.acting(g)


def stage(g: G) -> str:
    """"takeover" while the taken-over minor's owner chooses its tokens, else 1867's stages."""
    return "takeover" if takeover.tokens_stage(g) else base.stage(g)


def _owner(g: G) -> int:
    """The taken-over minor's owner, who chooses its tokens (its certificate is already exchanged)."""
    return g.round["takeover"]["seat"]


def prompt(g: G) -> Msg:
    if takeover.tokens_stage(g):
        t = g.round["takeover"]
        return msg("remove tokens of {minor} or pass: the rest go to {major}", minor=t["minor"], major=t["major"])
    return base.prompt(g)


def apply(g: G, seat: int, action: Action) -> None:
    if takeover.tokens_stage(g):
        if seat != _owner(g):
            raise RuleError("It is not your turn.")
        takeover.token_move(g, action)
        return
    cid = base.current(g)
    if (action["type"] == "buy_shares" and action.get("entity") == cid and cid is not None
            and base.stage(g) == "minor" and seat in base.acting(g)):
        takeover.take_over(g, seat, cid, action)
        return
    base.apply(g, seat, action)


def settle(g: G) -> None:
    if not takeover.tokens_stage(g):
        base.settle(g)


def legal(g: G, seat: int) -> list[Action]:
    if takeover.tokens_stage(g):
        return takeover.token_moves(g) if seat == _owner(g) else []
    moves = base.legal(g, seat)
    cid = base.current(g)
    if cid is None or base.stage(g) != "minor" or seat not in base.acting(g):
        return moves
    return [*moves[:-1], *takeover.moves(g, cid), *moves[-1:]] if moves else takeover.moves(g, cid)


def auto(g: G, seat: int) -> Action | None:
    if takeover.tokens_stage(g):
        return takeover.token_moves(g)[-1] if seat == _owner(g) else None  # keep what fits
    return base.auto(g, seat)


def describe(g: G) -> dict[str, Any]:
    return {**base.describe(g), **takeover.describe(g)}
