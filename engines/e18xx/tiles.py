"""Tile definitions, rotation and the upgrade rule.

Our tile text is one line of space-separated tokens (see docs in parse_tile):

    "green city:30:2 0-_0 1-_0 3-_0 4-_0"      tile 14: a two-slot city with four exits
    "yellow town:10 0-_0 _0-2"                  tile 58: a town on a gentle curve
    "red offboard:yellow=30/brown=60/diesel=100 0-_0 1-_0"
    "white cost:80:mountain"                    an empty mountain hex
    "yellow city:30 city:30 0-_0 3-_1 label:OO" two cities, each with its own track and slots
    "white city:0 border:3 border:4:80:water"   no track across edge 3; joining track across edge 4 costs 80
    "white town:0 stub:4"                        the first tile laid here must have an exit on edge 4
    "red offboard:yellow=30/gray=70 group:Detroit hide 5-_0"   one stop of the group "Detroit"

A path joins two ends; an end is an edge 0..5 or "_N", the N-th revenue node in order of appearance.
Borders belong to the printed hex (the map keeps them when tiles are laid), not to a tile of the manifest; so
does a future label (`future_label:O:gray`: the label a tile of that colour must carry on this hex).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cache, cached_property

COLOURS = ("white", "yellow", "green", "brown", "gray")  # the upgrade ladder; red and blue never upgrade
NODE_KINDS = ("city", "town", "offboard")

End = int | str  # an edge 0..5, or "_N" for node N


@dataclass(frozen=True)
class Node:
    kind: str  # city, town or offboard
    revenue: int = 0
    slots: int = 0  # token slots; cities only
    phase_revenue: tuple[tuple[str, int], ...] = ()  # offboards: (phase colour or "diesel", revenue)
    loc: float | None = None  # where it is drawn, as an edge number of the unrotated tile (0.5: between 0 and 1)
    groups: tuple[str, ...] = ()  # a route may visit only one stop of a group (offboards that are one place)
    hide_revenue: bool = False  # drawn without its revenue (another stop of its group shows it)

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
class Border:
    """A marked hex edge: impassable (no cost), or a water/mountain crossing whose cost the lay that first
    joins track across it pays."""

    edge: int
    cost: int = 0
    kind: str = ""  # what a terrain discount matches: water, mountain...

    @property
    def impassable(self) -> bool:
        return not self.cost


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
    borders: tuple[Border, ...] = ()  # printed hexes only
    stubs: tuple[int, ...] = ()  # edges the tile that replaces this one must have exits on (as laid: rotation 0)
    future_label: tuple[str, str] | None = None  # printed hexes only: (label, colour) a tile of that colour needs
    lines: tuple[int, ...] = ()  # printed hexes: edges with a line drawn on them that changes no rule

    def stub_edges(self, rotation: int = 0) -> frozenset[int]:
        return frozenset((edge + rotation) % 6 for edge in self.stubs)

    @property
    def cities(self) -> int:
        return sum(node.kind == "city" for node in self.nodes)

    @property
    def towns(self) -> int:
        return sum(node.kind == "town" for node in self.nodes)

    def exits(self, rotation: int = 0) -> frozenset[int]:
        return self._exits[rotation % 6]

    @cached_property
    def _exits(self) -> tuple[frozenset[int], ...]:
        return tuple(frozenset(end for path in paths for end in path if isinstance(end, int))
                     for paths in self._rotated_paths)

    def rotated_paths(self, rotation: int = 0) -> tuple[tuple[End, End], ...]:
        return self._rotated_paths[rotation % 6]

    @cached_property
    def _rotated_paths(self) -> tuple[tuple[tuple[End, End], ...], ...]:
        return tuple(tuple((_turn(a, r), _turn(b, r)) for a, b in self.paths) for r in range(6))

    def city_indexes(self) -> tuple[int, ...]:
        return self._city_indexes

    @cached_property
    def _city_indexes(self) -> tuple[int, ...]:
        return tuple(i for i, node in enumerate(self.nodes) if node.kind == "city")

    def node_exits(self, rotation: int = 0) -> dict[int, frozenset[int]]:
        """Node index -> the edges its own paths run to, for the cities and towns with track to an edge."""
        return self._node_exits[rotation % 6]

    @cached_property
    def _node_exits(self) -> tuple[dict[int, frozenset[int]], ...]:
        found: dict[int, set[int]] = {}
        for a, b in self.paths:
            for node, edge in ((a, b), (b, a)):
                if isinstance(node, str) and isinstance(edge, int) and self.nodes[int(node[1:])].kind != "offboard":
                    found.setdefault(int(node[1:]), set()).add(edge)
        return tuple({i: frozenset((e + r) % 6 for e in edges) for i, edges in found.items()} for r in range(6))


def _turn(end: End, rotation: int) -> End:
    return (end + rotation) % 6 if isinstance(end, int) else end


def parse_tile(name: str, text: str) -> TileDef:
    """Parse our tile text.

    Tokens: a colour first; then `city:REV[:SLOTS]`, `town:REV`, `offboard:COLOUR=REV/...` or `offboard:REV` (a
    revenue that never changes) (nodes, numbered _0, _1 ... in order), each followed by its own options if any:
    `loc:EDGE` (where it is drawn, e.g. `loc:5` or `loc:0.5`), `group:NAME` (a route visits one stop of a group at
    most), `hide` (its revenue is not drawn); `A-B` paths between edges and nodes; `label:X`;
    `cost:N[:terrain[+terrain]]`; `icon:X`; `blocks_lay`; `stub:EDGE` (a track stub: the next tile must have an
    exit there); on a printed hex `border:EDGE` (impassable) or `border:EDGE:COST[:kind]` (a crossing that costs
    COST > 0, e.g. `border:2:80:water`), `line:EDGE` (a line drawn on the edge, no rule) and
    `future_label:LABEL:COLOUR` (a tile of COLOUR laid here must carry LABEL, not the label of the tile it replaces).
    """
    tokens = text.split()
    if not tokens or tokens[0] not in (*COLOURS, "red", "blue"):
        raise ValueError(f"tile {name}: must start with a colour: {text!r}")
    colour, nodes, paths = tokens[0], [], []
    label, cost, terrain, icons, blocks_lay, borders = None, 0, (), [], False, []
    stubs, future_label, lines = [], None, []
    for token in tokens[1:]:
        kind, _, rest = token.partition(":")
        if kind == "city":
            revenue, _, slots = rest.partition(":")
            nodes.append(Node("city", int(revenue), int(slots or 1)))
        elif kind == "town":
            nodes.append(Node("town", int(rest)))
        elif kind == "offboard":
            if "=" in rest:
                table = tuple((colour_, int(value)) for colour_, value in (p.split("=") for p in rest.split("/")))
                nodes.append(Node("offboard", table[0][1], 0, table))
            else:
                nodes.append(Node("offboard", int(rest)))
        elif kind in ("loc", "group") or token == "hide":
            if not nodes:
                raise ValueError(f"tile {name}: {token!r} must follow the node it belongs to")
            last = nodes[-1]
            if kind == "loc":
                nodes[-1] = replace(last, loc=float(rest))
            elif kind == "group":
                nodes[-1] = replace(last, groups=(*last.groups, rest))
            else:
                nodes[-1] = replace(last, hide_revenue=True)
        elif kind == "stub":
            stubs.append(_edge(name, rest))
        elif kind == "line":
            lines.append(_edge(name, rest))
        elif kind == "future_label":
            future, _, future_colour = rest.partition(":")
            if not future or future_colour not in COLOURS:
                raise ValueError(f"tile {name}: a future label is future_label:LABEL:COLOUR")
            future_label = (future, future_colour)
        elif kind == "label":
            label = rest
        elif kind == "cost":
            amount, _, kinds = rest.partition(":")
            cost, terrain = int(amount), tuple(kinds.split("+")) if kinds else ()
        elif kind == "icon":
            icons.append(rest)
        elif token == "blocks_lay":
            blocks_lay = True
        elif kind == "border":
            borders.append(_border(name, rest))
        elif "-" in token:
            a, b = token.split("-")
            paths.append((_end(a), _end(b)))
        else:
            raise ValueError(f"tile {name}: unknown token {token!r}")
    for path in paths:
        for end in path:
            if isinstance(end, str) and int(end[1:]) >= len(nodes):
                raise ValueError(f"tile {name}: path to missing node {end}")
    if len({b.edge for b in borders}) != len(borders):
        raise ValueError(f"tile {name}: two borders on one edge")
    return TileDef(name, colour, tuple(nodes), tuple(paths), label, cost, terrain, tuple(icons), blocks_lay, text,
                   tuple(borders), tuple(stubs), future_label, tuple(lines))


def _edge(name: str, token: str) -> int:
    end = _end(token)
    if not isinstance(end, int):
        raise ValueError(f"tile {name}: {token!r} is not an edge")
    return end


def _border(name: str, rest: str) -> Border:
    edge, _, more = rest.partition(":")
    cost, _, kind = more.partition(":")
    border = Border(_end(edge), int(cost or 0), kind)
    if not isinstance(border.edge, int) or (more and border.cost <= 0):
        raise ValueError(f"tile {name}: a border is border:EDGE or border:EDGE:COST[:kind] with COST > 0")
    return border


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


@cache  # a pure function of two tile definitions (few): asked for every hex, tile and rotation
def keeps_track(old: TileDef, old_rotation: int, new: TileDef, new_rotation: int) -> bool:
    """Every path of the old tile, as laid, lies within some path of the new tile, as it would be laid."""
    new_paths = new.rotated_paths(new_rotation)
    return all(
        any(path_within(old_path, new_path, old, new) for new_path in new_paths)
        for old_path in old.rotated_paths(old_rotation)
    )


@cache
def keeps_cities(old: TileDef, old_rotation: int, new: TileDef, new_rotation: int) -> bool:
    """The cities and towns stay apart as 18xx.games keeps them: a new tile's city or town that touches none of
    the old ones' edges must be one the upgrade adds, and when both tiles have several cities each old one's
    edges lie within exactly one new one's (two cities never merge, one never splits)."""
    old_ct = list(old.node_exits(old_rotation).values())
    new_ct = list(new.node_exits(new_rotation).values())
    fresh = sum(1 for n in new_ct if all(not (n & o) for o in old_ct))
    if fresh > max(0, len(new_ct) - len(old_ct)):
        return False
    if old.cities > 1 and new.cities > 1:
        return all(sum(1 for n in new_ct if o <= n) == 1 for o in old_ct)
    return True


@cache
def upgrade_rotations(old: TileDef, old_rotation: int, new: TileDef) -> tuple[int, ...]:
    """Rotations of `new` that keep all of `old`'s track where it lies now, and its cities apart."""
    return tuple(r for r in range(6)
                 if keeps_track(old, old_rotation, new, r) and keeps_cities(old, old_rotation, new, r))


def city_map(old: TileDef, old_rotation: int, new: TileDef, new_rotation: int) -> dict[int, int]:
    """Old city node -> the new city node its tokens and reservations move to, as 18xx.games maps them.

    Cities without track map in order when the counts match; otherwise each old city with track goes to the first
    new city whose edges include all of its own; any other old city goes to the new city in its position (none
    past the last), or if that one is taken, to the first new city not yet taken (so a pathless city keeps apart).
    """
    old_cities, new_cities = old.city_indexes(), new.city_indexes()
    old_exits, new_exits = old.node_exits(old_rotation), new.node_exits(new_rotation)
    if not any(old_exits.get(i) for i in old_cities) and len(old_cities) == len(new_cities):
        return dict(zip(old_cities, new_cities, strict=True))
    found = {}
    for i in old_cities:
        mine = old_exits.get(i, frozenset())
        target = next((j for j in new_cities if mine and mine <= new_exits.get(j, frozenset())), None)
        if target is not None:
            found[i] = target
    for position, i in enumerate(old_cities):
        if i in found:
            continue
        if position >= len(new_cities):
            continue
        taken = set(found.values())
        target = new_cities[position]
        if target in taken:
            target = next((j for j in new_cities if j not in taken), None)
        if target is not None:
            found[i] = target
    return dict(sorted(found.items()))


@cache
def upgrades_to(old: TileDef, new: TileDef, special: bool = False) -> bool:
    """May `new` replace `old` at all (some rotation)? A private's special lay skips the label and node-count rules.

    Colour steps by one; the track is kept and the cities stay apart (keeps_cities); labels match; towns stay
    towns; cities keep their count unless the old tile is labelled (a labelled city never loses its cities).
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
