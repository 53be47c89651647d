"""Tile definitions, rotation and the upgrade rule.

Our tile text is one line of space-separated tokens (see docs in parse_tile):

    "green city:30:2 0-_0 1-_0 3-_0 4-_0"      tile 14: a two-slot city with four exits
    "yellow town:10 0-_0 _0-2"                  tile 58: a town on a gentle curve
    "red offboard:yellow=30/brown=60/diesel=100 0-_0 1-_0"
    "white cost:80:mountain"                    an empty mountain hex

A path joins two ends; an end is an edge 0..5 or "_N", the N-th revenue node in order of appearance.
"""
from __future__ import annotations

from dataclasses import dataclass, field

COLOURS = ("white", "yellow", "green", "brown", "gray")  # the upgrade ladder; red and blue never upgrade
NODE_KINDS = ("city", "town", "offboard")

End = int | str  # an edge 0..5, or "_N" for node N


@dataclass(frozen=True)
class Node:
    kind: str  # city, town or offboard
    revenue: int = 0
    slots: int = 0  # token slots; cities only
    phase_revenue: tuple[tuple[str, int], ...] = ()  # offboards: (phase colour or "diesel", revenue)

    def revenue_for(self, phase_colours: tuple[str, ...] = (), diesel: bool = False) -> int:
        """Revenue counted by a train; offboards pay by the latest phase colour they list, D trains "diesel"."""
        if not self.phase_revenue:
            return self.revenue
        table = dict(self.phase_revenue)
        if diesel and "diesel" in table:
            return table["diesel"]
        for colour in reversed(phase_colours):
            if colour in table:
                return table[colour]
        return self.phase_revenue[0][1]


@dataclass(frozen=True)
class TileDef:
    name: str
    colour: str
    nodes: tuple[Node, ...] = ()
    paths: tuple[tuple[End, End], ...] = ()
    label: str | None = None
    cost: int = 0  # paid by whoever replaces this tile (terrain, or the tile's own upgrade cost)
    terrain: tuple[str, ...] = ()
    icons: tuple[str, ...] = ()
    blocks_lay: bool = False  # only a private ability may lay it
    text: str = field(default="", compare=False)

    @property
    def cities(self) -> int:
        return sum(node.kind == "city" for node in self.nodes)

    @property
    def towns(self) -> int:
        return sum(node.kind == "town" for node in self.nodes)

    def exits(self, rotation: int = 0) -> frozenset[int]:
        return frozenset(end for path in self.rotated_paths(rotation) for end in path if isinstance(end, int))

    def rotated_paths(self, rotation: int = 0) -> tuple[tuple[End, End], ...]:
        return tuple((_turn(a, rotation), _turn(b, rotation)) for a, b in self.paths)


def _turn(end: End, rotation: int) -> End:
    return (end + rotation) % 6 if isinstance(end, int) else end


def parse_tile(name: str, text: str) -> TileDef:
    """Parse our tile text.

    Tokens: a colour first; then `city:REV[:SLOTS]`, `town:REV`, `offboard:COLOUR=REV/...` (nodes, numbered
    _0, _1 ... in order); `A-B` paths between edges and nodes; `label:X`; `cost:N[:terrain[+terrain]]`;
    `icon:X`; `blocks_lay`.
    """
    tokens = text.split()
    if not tokens or tokens[0] not in (*COLOURS, "red", "blue"):
        raise ValueError(f"tile {name}: must start with a colour: {text!r}")
    colour, nodes, paths = tokens[0], [], []
    label, cost, terrain, icons, blocks_lay = None, 0, (), [], False
    for token in tokens[1:]:
        kind, _, rest = token.partition(":")
        if kind == "city":
            revenue, _, slots = rest.partition(":")
            nodes.append(Node("city", int(revenue), int(slots or 1)))
        elif kind == "town":
            nodes.append(Node("town", int(rest)))
        elif kind == "offboard":
            table = tuple((colour_, int(value)) for colour_, value in (p.split("=") for p in rest.split("/")))
            nodes.append(Node("offboard", table[0][1], 0, table))
        elif kind == "label":
            label = rest
        elif kind == "cost":
            amount, _, kinds = rest.partition(":")
            cost, terrain = int(amount), tuple(kinds.split("+")) if kinds else ()
        elif kind == "icon":
            icons.append(rest)
        elif token == "blocks_lay":
            blocks_lay = True
        elif "-" in token:
            a, b = token.split("-")
            paths.append((_end(a), _end(b)))
        else:
            raise ValueError(f"tile {name}: unknown token {token!r}")
    for path in paths:
        for end in path:
            if isinstance(end, str) and int(end[1:]) >= len(nodes):
                raise ValueError(f"tile {name}: path to missing node {end}")
    return TileDef(name, colour, tuple(nodes), tuple(paths), label, cost, terrain, tuple(icons), blocks_lay, text)


def _end(token: str) -> End:
    if token.startswith("_"):
        return token
    edge = int(token)
    if edge not in range(6):
        raise ValueError(f"edge {edge} is not 0..5")
    return edge


# ---- the upgrade rule -------------------------------------------------------------------------------

def next_colour(colour: str) -> str | None:
    if colour not in COLOURS or colour == COLOURS[-1]:
        return None
    return COLOURS[COLOURS.index(colour) + 1]


def _end_within(old: End, new: End, old_tile: TileDef, new_tile: TileDef) -> bool:
    if isinstance(old, int) or isinstance(new, int):
        return old == new
    return old_tile.nodes[int(old[1:])].kind == new_tile.nodes[int(new[1:])].kind


def path_within(old: tuple[End, End], new: tuple[End, End], old_tile: TileDef, new_tile: TileDef) -> bool:
    """An old path survives in a new one: both ends match (same edge, or a node of the same kind)."""
    (a, b), (c, d) = old, new
    return (_end_within(a, c, old_tile, new_tile) and _end_within(b, d, old_tile, new_tile)) or (
        _end_within(a, d, old_tile, new_tile) and _end_within(b, c, old_tile, new_tile)
    )


def keeps_track(old: TileDef, old_rotation: int, new: TileDef, new_rotation: int) -> bool:
    """Every path of the old tile, as laid, lies within some path of the new tile, as it would be laid."""
    new_paths = new.rotated_paths(new_rotation)
    return all(
        any(path_within(old_path, new_path, old, new) for new_path in new_paths)
        for old_path in old.rotated_paths(old_rotation)
    )


def upgrade_rotations(old: TileDef, old_rotation: int, new: TileDef) -> tuple[int, ...]:
    """Rotations of `new` that keep all of `old`'s track where it lies now."""
    return tuple(r for r in range(6) if keeps_track(old, old_rotation, new, r))


def upgrades_to(old: TileDef, new: TileDef, special: bool = False) -> bool:
    """May `new` replace `old` at all (some rotation)? A private's special lay skips the label and node-count rules.

    Colour steps by one; the track is kept; labels match; towns stay towns; cities keep their count unless the
    old tile is labelled (a labelled city never loses its cities).
    """
    if next_colour(old.colour) != new.colour:
        return False
    if not special:
        if old.label != new.label or old.towns != new.towns:
            return False
        if old.label is None and old.cities != new.cities:
            return False
        if old.label is not None and old.cities and not new.cities:
            return False
    return bool(upgrade_rotations(old, 0, new))
