"""Hex coordinates as 18xx.games names them ("F9", "AA12"), edges and neighbours.

A name is letters then a number. The engine reads it as "doubled" coordinates:
on a flat-topped map x = letter index (column) and y = number - 1 (row), so a
column steps by 2 in y; on a pointy-topped map x = number - 1, y = letter index.
Edges are numbered clockwise on screen, 0 at the bottom (flat) or lower-left
(pointy). A tile laid with rotation r moves each of its edges e to (e + r) % 6.
"""
from __future__ import annotations

import re
from typing import Literal

Layout = Literal["flat", "pointy"]
EDGES = range(6)

_NAME = re.compile(r"^([A-Z]{1,2})(\d+)$")
_LETTERS = [chr(c) for c in range(ord("A"), ord("Z") + 1)]
_LETTERS += ["A" + letter for letter in _LETTERS]  # A..Z, then AA..AZ as on 18xx.games

# (dx, dy) in doubled coordinates for each edge.
_FLAT_STEPS = ((0, 2), (-1, 1), (-1, -1), (0, -2), (1, -1), (1, 1))
_POINTY_STEPS = ((-1, 1), (-2, 0), (-1, -1), (1, -1), (2, 0), (1, 1))
# Axial (q, r) steps for each edge, matching the doubled steps above.
_FLAT_AXIAL = ((0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1), (1, 0))
_POINTY_AXIAL = ((-1, 1), (-1, 0), (0, -1), (1, -1), (1, 0), (0, 1))


def opposite(edge: int) -> int:
    return (edge + 3) % 6


def rotate_edge(edge: int, rotation: int) -> int:
    return (edge + rotation) % 6


def doubled(name: str, layout: Layout = "flat") -> tuple[int, int]:
    """The engine's (x, y) for a hex name."""
    match = _NAME.match(name)
    if not match:
        raise ValueError(f"{name!r} is not a hex name")
    letter, number = _LETTERS.index(match[1]), int(match[2])
    return (letter, number - 1) if layout == "flat" else (number - 1, letter)


def name_of(x: int, y: int, layout: Layout = "flat") -> str:
    """The hex name for the engine's (x, y)."""
    letter, number = (x, y + 1) if layout == "flat" else (y, x + 1)
    if not 0 <= letter < len(_LETTERS) or number < 1:
        raise ValueError(f"({x}, {y}) has no hex name")
    return f"{_LETTERS[letter]}{number}"


def neighbour(name: str, edge: int, layout: Layout = "flat") -> str | None:
    """The name of the hex across `edge`, or None when it would fall off the lettering."""
    x, y = doubled(name, layout)
    dx, dy = (_FLAT_STEPS if layout == "flat" else _POINTY_STEPS)[edge]
    try:
        return name_of(x + dx, y + dy, layout)
    except ValueError:
        return None


def edge_between(a: str, b: str, layout: Layout = "flat") -> int | None:
    """The edge of `a` that faces `b`, or None when they are not adjacent."""
    for edge in EDGES:
        if neighbour(a, edge, layout) == b:
            return edge
    return None


def to_axial(name: str, layout: Layout = "flat") -> tuple[int, int]:
    """Axial (q, r). Floor division makes either doubled parity work (1889 has x + y odd)."""
    x, y = doubled(name, layout)
    return (x, (y - x) // 2) if layout == "flat" else ((x - y) // 2, y)


def axial_step(edge: int, layout: Layout = "flat") -> tuple[int, int]:
    return (_FLAT_AXIAL if layout == "flat" else _POINTY_AXIAL)[edge]


def to_offset(name: str, layout: Layout = "flat") -> tuple[int, int]:
    """(column, row) in an offset grid: each doubled row pair folds into one row."""
    x, y = doubled(name, layout)
    return (x, y // 2) if layout == "flat" else (x // 2, y)


def distance(a: str, b: str, layout: Layout = "flat") -> int:
    """Steps from hex a to hex b across hex edges."""
    q1, r1 = to_axial(a, layout)
    q2, r2 = to_axial(b, layout)
    return (abs(q1 - q2) + abs(r1 - r2) + abs(q1 + r1 - q2 - r2)) // 2
