"""Taking a tile back to the one it replaced, for 1890's historical events (earthquake.py: Nishinomiya; air_raids.py:
the green tiles of the bombed hexes).

The board keeps only the tile on each hex, so with either event's option on every lay is remembered
(flags["laid_history"]: hex -> [[tile, rotation], ...], in order). A tile laid some other way (none in 1890 today)
falls back to the first tile of the colour below, in the manifest's order, that the current one upgrades and that is
left in the supply.
"""
from __future__ import annotations

from dataclasses import replace

from engines.e18xx.state import G
from engines.e18xx.tiles import upgrade_rotations, upgrades_to

OPTIONS = ("earthquake", "air_raids")


def record(g: G, coord: str) -> None:
    if any(g.s["opts"].get(o) for o in OPTIONS):
        g.s["flags"].setdefault("laid_history", {}).setdefault(coord, []).append(list(g.board.laid[coord]))


def previous(g: G, coord: str) -> tuple[str, int] | None:
    """The tile and rotation the tile on `coord` replaced; None: the printed hex."""
    board = g.board
    now = board.laid.get(coord)
    history = [tuple(x) for x in g.s["flags"].get("laid_history", {}).get(coord, [])]
    if history and history[-1] == now:
        return history[-2] if len(history) > 1 else None
    current, printed = board.tile(coord), g.map.printed[coord]
    colours = ("white", "yellow", "green", "brown", "gray")
    below = colours[max(0, colours.index(current.colour) - 1)]
    if printed.colour == below:
        return None
    for name, tile in g.map.tiles.items():
        allowed = g.map.tile_hexes.get(name)
        if tile.colour != below or (allowed and coord not in allowed) or board.left(name, g.optional_rules) <= 0:
            continue
        if not upgrades_to(tile, current):
            continue
        for r in range(6):
            if now[1] in upgrade_rotations(tile, r, current):
                return name, r
    return None


def revert(g: G, coord: str) -> list[tuple[int, str]]:
    """Put back on `coord` the tile its tile replaced (the printed hex for a first tile), with no tokens on it;
    returns the tokens taken off as (city, holder), in the order they stood."""
    return take_back(g, coord, previous(g, coord))


def take_back(g: G, coord: str, before: tuple[str, int] | None) -> list[tuple[int, str]]:
    """Put `before` (None: the printed hex) on `coord` with no tokens; the tile taken off returns to the supply."""
    board = g.board
    held = [(node, t) for node in board.tile(coord).city_indexes() for t in board.slots(coord, node) if t is not None]
    laid = {k: v for k, v in board.laid.items() if k != coord}
    if before is not None:
        laid[coord] = (before[0], before[1])
    history = g.s["flags"].get("laid_history", {}).get(coord)
    if history and tuple(history[-1]) == board.laid.get(coord):
        history.pop()
    if before is None and history:
        history.clear()
    g.set_board(replace(board, laid=laid, tokens={k: v for k, v in board.tokens.items() if k != coord}))
    return held
