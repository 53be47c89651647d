"""A tile lay as an action: reading it, what a replay still checks, and what it costs."""
from __future__ import annotations

from engines.base import Action, RuleError
from engines.e18xx.board import unavailable
from engines.e18xx.state import G


def read_lay(action: Action) -> tuple[str, str, int]:
    coord, tile, rotation = action.get("hex"), action.get("tile"), action.get("rotation", 0)
    if not isinstance(coord, str) or not isinstance(tile, str):
        raise RuleError("A tile lay names a hex and a tile.")
    if not isinstance(rotation, int) or isinstance(rotation, bool) or rotation not in range(6):
        raise RuleError("A rotation is 0 to 5.")
    return coord, tile, rotation


def check_upgrade(g: G, coord: str, tile: str, special: bool = False) -> None:
    """What a replay still checks: the tile exists and is left, its colour is allowed, it can replace the old."""
    board = g.board
    if coord not in g.map.printed:
        raise RuleError("{hex} is not on the map.", hex=coord)
    if board.left(tile, g.optional_rules) <= 0:
        raise RuleError("No tile {tile} is left.", tile=tile)
    new = g.map.tiles[tile]
    if new.colour not in g.colours:
        raise RuleError(unavailable(new.colour))
    if not board.upgrades_to(coord, new, special):
        raise RuleError("Tile {tile} cannot replace tile {old} on {where}.", tile=tile, old=board.tile(coord).name,
                        where=coord)


def lay_cost(g: G, cid: str, coord: str, tile: str | None = None, rotation: int = 0) -> int:
    """The cost printed on what is replaced, and (with the tile being laid named) of the borders it first joins
    track across, each less a private's terrain discount for its kind of terrain."""
    board = g.board
    old = board.tile(coord)
    borders = board.joined_borders(coord, tile, rotation) if tile else ()
    if not old.cost and not borders:
        return 0  # most lays: nothing to pay, so no discount to look for
    discounts = [d for pid in g.privates_of(cid) if (d := g.ability(pid, "terrain_discount"))]
    cost = old.cost
    for discount in discounts:
        if not cost:
            continue
        exact = discount.get("only_if_terrain_is_exactly")
        if (old.terrain == (discount["terrain"],)) if exact else discount["terrain"] in old.terrain:
            cost = max(0, cost - discount["amount"])
    for border in borders:
        off = sum(d["amount"] for d in discounts if d["terrain"] == border.kind)
        cost += max(0, border.cost - off)
    return cost
