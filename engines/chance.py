"""Turning a ChanceRequest into the chance seat's action.

The random source is passed in (``secrets.SystemRandom`` at a live table, a seeded
``random.Random`` in selfplay), so engines stay free of the random module.
"""
from __future__ import annotations

from typing import Protocol

from engines.base import Action, ChanceRequest


class RandomSource(Protocol):
    def randrange(self, stop: int) -> int: ...


def draw(request: ChanceRequest, rng: RandomSource) -> Action:
    if request.kind == "dice":
        return {"type": "dice", "values": [rng.randrange(request.sides) + 1 for _ in range(request.count)]}
    if request.kind == "shuffle":
        order = list(range(request.count))
        for i in range(len(order) - 1, 0, -1):  # Fisher-Yates with the given source
            j = rng.randrange(i + 1)
            order[i], order[j] = order[j], order[i]
        return {"type": "shuffle", "order": order}
    if request.kind == "pick":
        return {"type": "pick", "index": rng.randrange(request.count)}
    raise ValueError(f"unknown chance kind {request.kind!r}")
