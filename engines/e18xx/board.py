"""The board: a title's map, the tile on each hex, tokens in city slots, and what a corporation's track reaches.

A Board is a value: laying a tile or a token returns a new Board, and `to_json` / `from_json` keep it in a game
state. Nodes (cities, towns, offboards) are named (hex, index) and paths (hex, index) in the order their tile
text lists them. A hex may hold several cities: each has its own slots, a token blocks only its own city, and an
upgrade moves each city's tokens to the new city that keeps its edges (tiles.city_map).

Borders (tiles.Border, printed on a hex) sit on the edge a hex shares with its neighbour, whichever side lists
them: no track crosses an impassable one, and the lay that first joins track across a costly one pays its cost.

A title's map may also set: tiles without a count limit (`"count": "unlimited"`), tokens on the board at the start
(`start_tokens`; a token held by NEUTRAL fills its slot but blocks no one's route), and which upgrades must use
the tiles with the most exits (`upgrades_must_use_max_exits`). Printed hexes may carry track stubs and a future
label (see tiles.parse_tile), which the lay rules below honour.
"""
from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cache, cached_property, lru_cache
from pathlib import Path

from engines.base import RuleError
from engines.e18xx import hexes
from engines.e18xx.tiles import (
    Border,
    End,
    TileDef,
    city_map,
    keeps_cities,
    keeps_track,
    parse_tile,
    path_within,
    upgrades_to,
)

TITLES = Path(__file__).parent / "titles"

NodeRef = tuple[str, int]
PathRef = tuple[str, int]
EdgeRef = tuple[str, int]  # (hex, edge) of one side of a hex border; see Board.border

UNLIMITED = math.inf  # the count of a tile the supply never runs out of (every count arithmetic keeps it)
NEUTRAL = "neutral"  # the holder of a token that fills a slot but blocks no route (18xx.games's neutral tokens)
MAX_EXITS_KINDS = ("cities", "unlabeled_cities", "track")  # what upgrades_must_use_max_exits may list


@dataclass(frozen=True)
class StartToken:
    """A token on the printed board: `holder` (a corporation, or NEUTRAL) in city `node` of `hex` (None: its first
    city)."""

    hex: str
    holder: str
    node: int | None = None


@dataclass(frozen=True, eq=False)
class MapDef:
    """A title's printed map and tile manifest, loaded from titles/<title>/map.json."""

    title: str
    layout: hexes.Layout
    printed: Mapping[str, TileDef]  # hex -> preprinted tile, named after the hex
    names: Mapping[str, str]
    homes: Mapping[str, str]  # corporation -> home hex
    tiles: Mapping[str, TileDef]
    counts: Mapping[str, int | float]  # UNLIMITED for a tile with no count limit
    tile_rules: Mapping[str, str]  # tile -> optional rule it needs
    impassable: frozenset[str]  # colours a neighbour can only be entered where its own track faces back
    borders: Mapping[EdgeRef, Border] = field(default_factory=dict)  # both sides of each bordered edge
    home_nodes: Mapping[str, int] = field(default_factory=dict)  # corporation -> its city's node, if not the first
    start_tokens: tuple[StartToken, ...] = ()
    # upgrades that must use, of the tiles of its colour that could be laid there, one with the most exits: of a
    # hex with a city ("cities"), with a city and no label ("unlabeled_cities"), with no city nor town ("track")
    max_exits: frozenset[str] = frozenset()
    national_reservations: tuple[str, ...] = ()  # 1867: hexes where the national corporation (CN) is owed a token
    site_hex_index: Mapping[str, int] = field(default_factory=dict)  # 18xx.games's printed tile "<hex>-<n>", n != 0
    # 1807's London inset: (hex, edge) -> the hex across it when that is not the one beside it; hexes joined to
    # nothing; a hex (the small London hex) a corporation may build on when its network reaches any of the listed
    links: Mapping[EdgeRef, str] = field(default_factory=dict)
    severed: frozenset[str] = frozenset()
    mirrors: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    @cached_property
    def _steps(self) -> dict[EdgeRef, tuple[str | None, str | None]]:
        """(hex, edge) -> (the hex across it on this map, the same unless an impassable border closes the edge)."""
        steps = {}
        for coord in self.printed:
            for edge in hexes.EDGES:
                other = self.links.get((coord, edge)) or hexes.neighbour(coord, edge, self.layout)
                other = other if other in self.printed and coord not in self.severed and other not in self.severed \
                    else None
                border = self.borders.get((coord, edge))
                steps[coord, edge] = (other, None if border and border.impassable else other)
        return steps

    def neighbour(self, coord: str, edge: int) -> str | None:
        """The hex across `edge` when it is on this map."""
        return self._steps.get((coord, edge), (None, None))[0]

    def across(self, coord: str, edge: int) -> str | None:
        """The hex track through `edge` runs into: the neighbour, unless an impassable border is in the way."""
        return self._steps.get((coord, edge), (None, None))[1]

    def linked(self, coord: str, edge: int) -> bool:
        """May track leave `coord` through `edge`? Not off the map, across an impassable border, nor into a gray or
        red hex that does not face back."""
        other = self.across(coord, edge)
        if other is None:
            return False
        tile = self.printed[other]
        return tile.colour not in self.impassable or hexes.opposite(edge) in tile.exits()

    def place(self, coord: str) -> str:
        """A hex as players read it: "Kouchi (F9)", or just "C8" where the map prints no name."""
        return f"{self.names[coord]} ({coord})" if coord in self.names else coord

    def manifest(self, optional_rules: Iterable[str] = ()) -> dict[str, int | float]:
        rules = set(optional_rules)
        return {name: n for name, n in self.counts.items() if self.tile_rules.get(name, "") in rules | {""}}


def map_from_json(data: dict) -> MapDef:
    """Our map.json: title, layout, hexes (hex -> tile text), tiles (name -> def, count (a number or "unlimited"),
    rule), and optionally names, homes (corporation -> hex), home_nodes (corporation -> node index of its city,
    where the home hex has several cities), impassable_colours, start_tokens ([{hex, holder, node?}], holder a
    corporation or "neutral") and upgrades_must_use_max_exits (a list of MAX_EXITS_KINDS)."""
    layout = data["layout"]
    printed = {coord: parse_tile(coord, text) for coord, text in data["hexes"].items()}
    tiles = {name: parse_tile(name, entry["def"]) for name, entry in data["tiles"].items()}
    if any(t.borders or t.future_label or t.lines for t in tiles.values()):
        raise ValueError("borders, lines and future labels belong to printed hexes, not to tiles of the manifest")
    start_tokens = tuple(StartToken(t["hex"], t["holder"], t.get("node")) for t in data.get("start_tokens", ()))
    for token in start_tokens:
        cities = printed[token.hex].city_indexes() if token.hex in printed else ()
        if not cities or (token.node is not None and token.node not in cities):
            raise ValueError(f"the start token on {token.hex} is not in a city of the map")
    max_exits = frozenset(data.get("upgrades_must_use_max_exits", ()))
    if not max_exits <= set(MAX_EXITS_KINDS):
        raise ValueError(f"upgrades_must_use_max_exits lists only {', '.join(MAX_EXITS_KINDS)}")
    homes = dict(data.get("homes", {}))
    home_nodes = dict(data.get("home_nodes", {}))
    for corp, node in home_nodes.items():
        if node not in printed[homes[corp]].city_indexes():
            raise ValueError(f"{corp}'s home node {node} is not a city of {homes[corp]}")
    return MapDef(
        title=data["title"],
        layout=layout,
        printed=printed,
        names=dict(data.get("names", {})),
        homes=homes,
        tiles=tiles,
        counts={name: _count(name, entry["count"]) for name, entry in data["tiles"].items()},
        tile_rules={name: entry["rule"] for name, entry in data["tiles"].items() if "rule" in entry},
        impassable=frozenset(data.get("impassable_colours", ())),
        borders=_both_sides(printed, layout),
        home_nodes=home_nodes,
        start_tokens=start_tokens,
        max_exits=max_exits,
        national_reservations=tuple(h for hs in data.get("national_reservations", {}).values() for h in hs),
        site_hex_index=dict(data.get("site_hex_index", {})),
        links={**{(x["hex"], x["edge"]): x["to"] for x in data.get("links", ())},
               **{(x["to"], x["to_edge"]): x["hex"] for x in data.get("links", ())}},
        severed=frozenset(data.get("severed", ())),
        mirrors={coord: tuple(hs) for coord, hs in data.get("mirrors", {}).items()},
    )


def _count(name: str, count: int | str) -> int | float:
    if count == "unlimited":
        return UNLIMITED
    if not isinstance(count, int) or count < 0:
        raise ValueError(f"tile {name}: a count is a number or \"unlimited\"")
    return count


def _both_sides(printed: Mapping[str, TileDef], layout: hexes.Layout) -> dict[EdgeRef, Border]:
    """Each printed border under both (hex, edge) names of its edge; the two sides may not disagree."""
    found: dict[EdgeRef, Border] = {}
    for coord, tile in printed.items():
        for border in tile.borders:
            other = hexes.neighbour(coord, border.edge, layout)
            sides = [(coord, border.edge)]
            if other in printed:
                sides.append((other, hexes.opposite(border.edge)))
            for side in sides:
                mine = replace(border, edge=side[1])
                if found.setdefault(side, mine) != mine:
                    raise ValueError(f"the border on {coord} edge {border.edge} differs from its other side")
    return found


@cache
def load_map(title: str = "g1889") -> MapDef:
    return map_from_json(json.loads((TITLES / title / "map.json").read_text(encoding="utf-8")))


@dataclass(frozen=True)
class Network:
    """What a corporation's tokens reach along track it may run on."""

    nodes: frozenset[NodeRef]
    paths: frozenset[PathRef]
    edges: Mapping[str, frozenset[int]]  # hex -> edges through which the network touches it (where it may build)


@dataclass(frozen=True, eq=False)
class Board:
    map: MapDef
    laid: Mapping[str, tuple[str, int]] = field(default_factory=dict)  # hex -> (tile name, rotation)
    tokens: Mapping[str, tuple[tuple[str | None, ...], ...]] = field(default_factory=dict)  # hex -> slots per node
    # corporation owed the first slot of a city (its home): keyed by the hex for the hex's first city, else "hex:N"
    # for node N, so a one-city map reads simply hex -> corporation
    reserved: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def new(cls, map_def: MapDef) -> Board:
        """The printed board, every home city holding a slot for its corporation, with the map's start tokens."""
        board = cls(map_def)
        reserved = {board._reserve_key(coord, map_def.home_nodes.get(corp)): corp
                    for corp, coord in map_def.homes.items()}
        board = replace(board, reserved=reserved)
        for token in map_def.start_tokens:
            board = board.place_token(token.hex, token.holder, token.node)
        return board

    # ---- what lies where ----

    def tile(self, coord: str) -> TileDef:
        placed = self.laid.get(coord)
        return self.map.tiles[placed[0]] if placed else self.map.printed[coord]

    def rotation(self, coord: str) -> int:
        placed = self.laid.get(coord)
        return placed[1] if placed else 0

    def paths(self, coord: str) -> tuple[tuple[End, End], ...]:
        return self._track[coord]

    @cached_property
    def _track(self) -> dict[str, tuple[tuple[End, End], ...]]:
        return _track_of(self.map, tuple(sorted(self.laid.items())))[0]

    @cached_property
    def _paths_at(self) -> dict[str, dict[End, tuple[int, ...]]]:
        """hex -> end -> indexes of the paths of that hex with that end."""
        return _track_of(self.map, tuple(sorted(self.laid.items())))[1]

    def paths_at(self, coord: str, end: End) -> tuple[int, ...]:
        return self._paths_at.get(coord, {}).get(end, ())

    def node(self, ref: NodeRef):
        return self.tile(ref[0]).nodes[ref[1]]

    def nodes(self) -> list[NodeRef]:
        return [(coord, i) for coord in self.map.printed for i in range(len(self.tile(coord).nodes))]

    def border(self, coord: str, edge: int) -> EdgeRef:
        """One name for a hex border, the same from both sides."""
        other = self.map.neighbour(coord, edge)
        return min((coord, edge), (other, hexes.opposite(edge))) if other else (coord, edge)

    def _reserve_key(self, coord: str, node: int | None, tile: TileDef | None = None) -> str:
        cities = (tile or self.tile(coord)).city_indexes()
        return coord if node is None or not cities or node == cities[0] else f"{coord}:{node}"

    def reservation(self, coord: str, node: int) -> str | None:
        """The corporation owed the first slot of this city, if any."""
        return self.reserved.get(self._reserve_key(coord, node))

    def home_node(self, coord: str, corp: str) -> int | None:
        """The city of `coord` reserved for `corp`, else the hex's first city (None when it has none)."""
        cities = self.tile(coord).city_indexes()
        return next((i for i in cities if self.reservation(coord, i) == corp), cities[0] if cities else None)

    def slots(self, coord: str, node: int = 0) -> tuple[str | None, ...]:
        tile_node = self.tile(coord).nodes[node]
        held = self.tokens.get(coord, ())
        mine = held[node] if node < len(held) else ()
        return tuple(mine) + (None,) * (tile_node.slots - len(mine))

    def token_nodes(self, corp: str) -> list[NodeRef]:
        return [(coord, i) for coord, per_node in self.tokens.items() for i, s in enumerate(per_node) if corp in s]

    def blocks(self, ref: NodeRef, corp: str) -> bool:
        """A city whose slots are all held by other corporations: no one else may run or build through it. A city
        with a NEUTRAL token in it blocks no one."""
        node = self.node(ref)
        if node.kind != "city":
            return False
        slots = self.slots(*ref)
        return corp not in slots and None not in slots and NEUTRAL not in slots

    def supply(self, optional_rules: Iterable[str] = ()) -> dict[str, int | float]:
        """Tiles left to lay (UNLIMITED for a tile with no count limit); a replaced tile came back to the supply
        when it left the board."""
        left = self.map.manifest(optional_rules)
        for name, _ in self.laid.values():
            left[name] = left.get(name, 0) - 1
        return left

    def lay_cost(self, coord: str, tile: str | None = None, rotation: int = 0) -> int:
        """The cost printed on what is replaced (terrain, or a tile's own upgrade cost), and with the tile being laid
        named, the costs of the borders it joins track across."""
        joined = self.joined_borders(coord, tile, rotation) if tile else ()
        return self.tile(coord).cost + sum(border.cost for border in joined)

    def joined_borders(self, coord: str, tile: str, rotation: int) -> list[Border]:
        """The costly borders that laying `tile` would be the first to join track across: the new tile has an exit
        there, the neighbour's track faces back, and the old tile had no exit there (else it was paid before)."""
        new_exits = self.map.tiles[tile].exits(rotation) - self.exits(coord)
        found = []
        for edge in sorted(new_exits):
            border = self.map.borders.get((coord, edge))
            other = self.map.across(coord, edge)
            if border and border.cost and other and hexes.opposite(edge) in self.exits(other):
                found.append(border)
        return found

    def exits(self, coord: str) -> frozenset[int]:
        return self.tile(coord).exits(self.rotation(coord))

    def upgrades_to(self, coord: str, new: TileDef, special: bool = False) -> bool:
        """May `new` replace the tile on `coord` at all (tiles.upgrades_to)? Where the printed hex has a future label
        for `new`'s colour, `new` must carry that label instead of the old tile's (e.g. Ottawa's gray "O")."""
        old = self.tile(coord)
        future = self.map.printed[coord].future_label
        if future and future[1] == new.colour and not special:
            # the label check reads the future label; every other check is the usual one (18xx.games's order)
            return new.label == future[0] and upgrades_to(old, replace(new, label=old.label))
        return upgrades_to(old, new, special)

    # ---- changes (each returns a new Board) ----

    def lay_tile(self, coord: str, tile: str, rotation: int) -> Board:
        """Put `tile` on `coord` without asking whether it is legal (see lay_problem); tokens move onto it."""
        if coord not in self.map.printed:
            raise RuleError(f"{coord} is not on the map.")
        if tile not in self.map.tiles:
            raise RuleError(f"There is no tile {tile}.")
        new_tile = self.map.tiles[tile]
        laid = {**self.laid, coord: (tile, rotation % 6)}
        moved = city_map(self.tile(coord), self.rotation(coord), new_tile, rotation % 6)
        reserved = {k: c for k, c in self.reserved.items() if k.partition(":")[0] != coord}
        for old_node, new_node in moved.items():  # reservations first, so moved tokens keep off their slots
            if owed := self.reservation(coord, old_node):
                reserved[self._reserve_key(coord, new_node, new_tile)] = owed
        tokens = dict(self.tokens)
        if coord in tokens:
            per_node = [[None] * n.slots if n.kind == "city" else [] for n in new_tile.nodes]
            for old_node in range(len(tokens[coord])):
                for corp in filter(None, self.slots(coord, old_node)):
                    if old_node not in moved:
                        raise RuleError(f"Tile {tile} has no city for the tokens on {coord}.")
                    new_node = moved[old_node]
                    owed = reserved.get(self._reserve_key(coord, new_node, new_tile))
                    slot = _slot_for(per_node[new_node], owed, corp)
                    if slot is None:
                        raise RuleError(f"Tile {tile} has no room for {corp}'s token on {coord}.")
                    per_node[new_node][slot] = corp
            tokens[coord] = tuple(tuple(slots) for slots in per_node)
        after = replace(self, laid=laid, tokens=tokens, reserved=reserved)
        # The track of every other hex is this board's: derived here, not recomputed for the whole map (the
        # legal lays try every upgrade on a board of its own). Set as cached_property would set them.
        if "_track" in self.__dict__:
            paths = new_tile.rotated_paths(rotation % 6)
            after.__dict__["_track"] = {**self._track, coord: paths}
            if "_paths_at" in self.__dict__:
                after.__dict__["_paths_at"] = {**self._paths_at, coord: _ends(paths)}
        return after

    def place_token(self, coord: str, corp: str, node: int | None = None, *, second_on_tile: bool = False) -> Board:
        """Put `corp`'s token in the slot it is owed, else the first free unreserved slot (reach is not checked).
        Without a node: the city reserved for `corp` on this hex, else the first city."""
        if node is None:
            node = self.home_node(coord, corp) or 0
        slot = self.free_slot(coord, corp, node, second_on_tile=second_on_tile)
        if slot is None:
            raise RuleError(f"{corp} cannot place a token on {self.map.place(coord)}.")
        slots = list(self.slots(coord, node))
        slots[slot] = corp
        tile = self.tile(coord)
        per_node = [self.slots(coord, i) if n.kind == "city" else () for i, n in enumerate(tile.nodes)]
        per_node[node] = tuple(slots)
        reserved = {h: c for h, c in self.reserved.items() if not (h.partition(":")[0] == coord and c == corp)}
        return replace(self, tokens={**self.tokens, coord: tuple(per_node)}, reserved=reserved)

    def remove_token(self, coord: str, node: int, holder: str) -> Board:
        """The board without `holder`'s token in that city (its slot opens)."""
        per_node = [tuple(None if t == holder and i == node else t for t in self.slots(coord, i))
                    if n.kind == "city" else () for i, n in enumerate(self.tile(coord).nodes)]
        return replace(self, tokens={**self.tokens, coord: tuple(per_node)})

    def free_slot(self, coord: str, corp: str, node: int = 0, *, second_on_tile: bool = False) -> int | None:
        """The slot `corp` may put a token in; `second_on_tile`: even with its token in another city of the tile (a
        merger moving two minors' tokens, until the major removes one)."""
        tile = self.tile(coord)
        if node not in range(len(tile.nodes)) or tile.nodes[node].kind != "city":
            return None
        cities = [node] if second_on_tile else tile.city_indexes()
        if any(corp in self.slots(coord, i) for i in cities):
            return None  # one token per corporation on a tile, whichever of its cities
        return _slot_for(self.slots(coord, node), self.reservation(coord, node), corp)

    # ---- reach ----

    def reachable(self, corp: str) -> Network:
        """What `corp`'s tokens reach (see _walk): the nodes, paths and hex edges. A board never changes (a change
        is a new board), so each corporation's reach is walked once per board."""
        if (known := self._reach.get(corp)) is None:
            known = self._reach[corp] = self._reachable(corp)
        return known

    @cached_property
    def _reach(self) -> dict[str, Network]:
        return {}

    @cached_property
    def chains(self) -> dict:
        """node -> the chains leaving it (route.chains_from fills it): a board never changes, so once per board."""
        return {}

    def _reachable(self, corp: str) -> Network:
        starts = self.token_nodes(corp)
        edges: dict[str, set[int]] = {}
        for coord, _ in starts:  # a corporation may build out of its token hexes in any direction
            edges.setdefault(coord, set()).update(e for e in hexes.EDGES if self.map.linked(coord, e))
        seen_nodes: set[NodeRef] = set(starts)
        seen_paths: set[PathRef] = set()

        def visit(coord: str, p: int) -> bool:
            if (coord, p) not in seen_paths:
                seen_paths.add((coord, p))
                for end in self._track[coord][p]:
                    if isinstance(end, int):
                        edges.setdefault(coord, set()).add(end)
                        other = self.map.across(coord, end)
                        if other:
                            edges.setdefault(other, set()).add(hexes.opposite(end))
                    else:
                        seen_nodes.add((coord, int(end[1:])))
            return False

        self._walk(corp, visit)
        for mirror, targets in self.map.mirrors.items():  # 1807: reaching London's inset reaches the small London hex
            if any(t in edges or any(ref[0] == t for ref in seen_nodes) for t in targets):
                edges.setdefault(mirror, set()).update(e for e in hexes.EDGES if self.map.linked(mirror, e))
        return Network(frozenset(seen_nodes), frozenset(seen_paths), {h: frozenset(e) for h, e in edges.items()})

    def loosely_reaches(self, corp: str, coord: str, targets: set[int]) -> bool:
        """Whether `corp`'s track, walked without _walk's rules against using an edge or a path twice, reaches one
        of the paths `targets` of `coord`: a quick superset of _walk's reach (not reached here: not reached there),
        a plain search over paths instead of a walk that may take exponentially many chains on a big network."""
        track, paths_at, steps = self._track, self._paths_at, self.map._steps
        seen: set[PathRef] = set()
        stack = [(c, p) for c, i in self.token_nodes(corp) for p in paths_at[c].get(f"_{i}", ())]
        while stack:
            here, p = stack.pop()
            if (here, p) in seen:
                continue
            seen.add((here, p))
            if here == coord and p in targets:
                return True
            for end in track[here][p]:
                if type(end) is str:
                    ref = (here, int(end[1:]))
                    if self.node(ref).kind != "offboard" and not self.blocks(ref, corp):
                        stack += [(here, q) for q in paths_at[here].get(end, ())]
                elif (other := steps.get((here, end), NOWHERE)[1]) is not None:
                    stack += [(other, q) for q in paths_at.get(other, {}).get((end + 3) % 6, ())]
        return False

    def first_entries(self, corp: str) -> dict[str, int | None]:
        """hex -> the edge by which `corp`'s reach walk (see _walk) first comes into it (None: the walk starts there,
        at a token). Up to that moment a walk on a board with another tile on that hex goes exactly as on this one,
        which lets the "new track" rule answer most lays without a walk of its own (_uses_new_track)."""
        if (known := self._entries.get(corp)) is None:
            known = self._entries[corp] = {}

            def enter(coord: str, edge: int | None) -> bool:
                known.setdefault(coord, edge)
                return False

            self._walk(corp, lambda coord, p: False, enter)
        return known

    @cached_property
    def _entries(self) -> dict[str, dict[str, int | None]]:
        return {}

    def _walk(self, corp: str, visit: Callable[[str, int], bool],
              enter: Callable[[str, int | None], bool] | None = None) -> bool:
        """Calls ``visit(hex, path index)`` for every path a train of `corp` could run on from one of its tokens, as
        18xx.games's graph walks it (a path may come more than once); stops, returning True, as soon as ``visit``
        returns True (a question about one path). From each token in turn (its other tokens' cities are not walked
        through), depth first along chains that never use a path twice nor come back into a hex by an edge they
        left it by: entering a hex by one edge, a train leaves only along the paths that start at that edge. A walk
        stops at offboards and at cities other corporations fill. A path stays walked once left, except past a
        converging exit (an edge several paths of a tile share), where another chain may take it again. ``enter``,
        if given, is told each time the walk starts at a token's hex (edge None) or crosses an edge into a hex, before
        it looks at that hex's paths; it may stop the walk too."""
        track, paths_at, steps = self._track, self._paths_at, self.map._steps  # the walk's lookups, at hand
        nodes: set[NodeRef] = set()
        paths: set[PathRef] = set()
        used: set[tuple[str, int]] = set()  # (hex, edge) the chain left by: no path of it there while it lasts
        passable: dict[NodeRef, bool] = {}  # may a train run on through this node (asked again and again)

        def through(ref: NodeRef) -> bool:
            if (known := passable.get(ref)) is None:
                known = passable[ref] = self.node(ref).kind != "offboard" and not self.blocks(ref, corp)
            return known

        def walk_node(ref: NodeRef, converging: bool) -> bool:
            if ref in nodes:
                return False
            nodes.add(ref)
            coord, index = ref
            for p in paths_at[coord].get(f"_{index}", ()):
                if walk_path(coord, p, None, ref, converging):
                    return True
            if converging:
                nodes.discard(ref)
            return False

        def walk_path(coord: str, p: int, came_by: int | None, came_from: NodeRef | None,
                      converging: bool) -> bool:
            key = (coord, p)
            ends = a, b = track[coord][p]
            if key in paths or (type(a) is int and (coord, a) in used) or (type(b) is int and (coord, b) in used):
                return False
            paths.add(key)
            if visit(coord, p):
                return True
            for end in ends:  # the nodes on this path, then on along the track
                if type(end) is str:
                    ref = (coord, int(end[1:]))
                    if ref != came_from and through(ref) and walk_node(ref, converging):
                        return True
            for edge in ends:
                if type(edge) is not int or edge == came_by or (other := steps.get((coord, edge), NOWHERE)[1]) is None:
                    continue
                back = (edge + 3) % 6  # hexes.opposite, inline: the walk's hottest line
                if enter is not None and enter(other, back):
                    return True
                onward = converging or len(paths_at[coord].get(edge, ())) > 1
                used.add((coord, edge))
                for q in paths_at.get(other, {}).get(back, ()):
                    if walk_path(other, q, back, None, onward):
                        return True
                used.discard((coord, edge))
            if converging:
                paths.discard(key)
            return False

        starts = self.token_nodes(corp)
        for start in starts:
            nodes.clear()
            nodes.update(set(starts) - {start})
            paths.clear()
            used.clear()
            if (enter is not None and enter(start[0], None)) or walk_node(start, False):
                return True
        return False

    # ---- the state ----

    def to_json(self) -> dict:
        return {
            "laid": {coord: [name, rot] for coord, (name, rot) in sorted(self.laid.items())},
            "tokens": {coord: [list(s) for s in per_node] for coord, per_node in sorted(self.tokens.items())},
            "reserved": dict(sorted(self.reserved.items())),
        }

    @classmethod
    def from_json(cls, map_def: MapDef, data: dict) -> Board:
        return cls(
            map_def,
            laid={coord: (name, rot) for coord, (name, rot) in data["laid"].items()},
            tokens={coord: tuple(tuple(s) for s in per_node) for coord, per_node in data["tokens"].items()},
            reserved=dict(data["reserved"]),
        )


NOWHERE = (None, None)  # MapDef._steps of an edge off the map


@lru_cache(maxsize=256)
def _track_of(map_def: MapDef, laid: tuple[tuple[str, tuple[str, int]], ...]) -> tuple[dict, dict]:
    """(hex -> its paths, hex -> end -> indexes of its paths with that end) for the tiles laid: a Board is made
    from the state for every question, most often on the same tiles as the last, so this is computed once for
    them (never changed: a lay derives new dicts, see Board.lay_tile)."""
    placed = dict(laid)
    track = {}
    for coord, printed in map_def.printed.items():
        name, rotation = placed.get(coord, (None, 0))
        track[coord] = (map_def.tiles[name] if name else printed).rotated_paths(rotation)
    return track, {coord: _ends(paths) for coord, paths in track.items()}


def _ends(paths: tuple[tuple[End, End], ...]) -> dict[End, tuple[int, ...]]:
    """End -> indexes of the paths (of one hex) with that end."""
    found: dict[End, list[int]] = {}
    for index, (a, b) in enumerate(paths):
        found.setdefault(a, []).append(index)
        if b != a:
            found.setdefault(b, []).append(index)
    return {end: tuple(v) for end, v in found.items()}


def _slot_for(slots, owed: str | None, corp: str) -> int | None:
    """The slot a token of `corp` takes in a city: the first, when it is owed it, else the first free slot that is
    not kept for another corporation."""
    if owed == corp and slots[0] is None:
        return 0
    return next((i for i, holder in enumerate(slots) if holder is None and not (owed and i == 0)), None)


# ---- tile lays --------------------------------------------------------------------------------------

@dataclass(frozen=True, order=True)
class Lay:
    hex: str
    tile: str
    rotation: int


def lay_problem(
    board: Board,
    lay: Lay,
    colours: Iterable[str],
    corp: str | None,
    *,
    special: bool = False,
    ability_tiles: Iterable[str] = (),
    blocked: Mapping[str, str] | Iterable[str] = (),
    optional_rules: Iterable[str] = (),
) -> str | None:
    """Why `lay` is illegal, as a sentence, or None when it is legal.

    colours: the tile colours the phase allows. corp: the corporation whose network the tile must touch, or None
    for a private's ability that needs no connection. special: a private's lay (label and city-count rules
    skipped). ability_tiles: tiles an ability may lay although they carry blocks_lay. blocked: hexes a private
    blocks now (a mapping to the company's name gives a better sentence).
    """
    blocked = blocked if isinstance(blocked, Mapping) else dict.fromkeys(blocked, "a private company")
    return _lay_problem(board, lay, frozenset(colours), corp, special, frozenset(ability_tiles), blocked,
                        board.supply(optional_rules), None, None)


def _lay_problem(
    board: Board,
    lay: Lay,
    colours: frozenset[str],
    corp: str | None,
    special: bool,
    ability_tiles: frozenset[str],
    blocked: Mapping[str, str],
    supply: Mapping[str, int | float],
    network: Network | None,
    most_exits: dict[tuple[str, str], tuple[int, str]] | None,
) -> str | None:
    coord, name, rotation = lay.hex, lay.tile, lay.rotation
    where = board.map.place(coord)
    if coord not in board.map.printed:
        return f"{coord} is not on the map."
    if coord in blocked:
        return f"{where} is blocked by {blocked[coord]}."
    new = board.map.tiles.get(name)
    if new is None or name not in supply:
        return f"There is no tile {name} in this game."
    if supply[name] <= 0:
        return f"No tile {name} is left."
    if new.blocks_lay and name not in ability_tiles:
        return f"Tile {name} can only be placed by a private company's ability."
    if new.colour not in colours:
        return f"{new.colour.capitalize()} tiles are not available in this phase."
    old, old_rotation = board.tile(coord), board.rotation(coord)
    if not board.upgrades_to(coord, new, special):
        return f"Tile {name} cannot replace tile {old.name} on {where}."
    if rotation not in range(6):
        return "A rotation is 0 to 5."
    if not keeps_track(old, old_rotation, new, rotation):
        return f"Tile {name} in rotation {rotation} does not keep the track already on {coord}."
    if not keeps_cities(old, old_rotation, new, rotation):
        return f"Tile {name} in rotation {rotation} would merge, split or move the cities on {coord}."
    exits = new.exits(rotation)
    if not all(board.map.linked(coord, e) for e in exits):
        if any(board.map.neighbour(coord, e) and not board.map.across(coord, e) for e in exits):
            return f"Tile {name} in rotation {rotation} would run track across an impassable border at {coord}."
        return f"Tile {name} in rotation {rotation} would run track off the map or into a closed edge at {coord}."
    if old.stubs and not old.stub_edges(old_rotation) <= exits:
        edges = ", ".join(str(e) for e in sorted(old.stub_edges(old_rotation) - exits))
        return f"Tile {name} in rotation {rotation} leaves the track stub of {where} (edge {edges}) unjoined."
    reach = None
    if corp is not None:
        network = network or board.reachable(corp)
        reach = network.edges.get(coord, frozenset())
        if not reach:
            return f"{corp} cannot reach {where}."
        if not exits & reach:
            return f"Tile {name} in rotation {rotation} adds no track that {corp} can reach."
    if board.map.max_exits and (problem := _max_exits_problem(board, coord, new, special, ability_tiles, supply,
                                                              reach, most_exits)):
        return problem
    if corp is not None and old.paths and coord not in board.map.mirrors and not _uses_new_track(board, lay, corp):
        return f"The new tile must give {corp} new track or change a city's revenue."
    return None


def _fits(board: Board, coord: str, new: TileDef, rotation: int, reach: frozenset[int] | None) -> bool:
    """The rotation checks of _lay_problem, as a yes or no (reach None: no connection needed)."""
    old, old_rotation = board.tile(coord), board.rotation(coord)
    exits = new.exits(rotation)
    return (keeps_track(old, old_rotation, new, rotation) and keeps_cities(old, old_rotation, new, rotation)
            and all(board.map.linked(coord, e) for e in exits)
            and (not old.stubs or old.stub_edges(old_rotation) <= exits)
            and (reach is None or bool(exits & reach)))


def _max_exits_problem(
    board: Board,
    coord: str,
    new: TileDef,
    special: bool,
    ability_tiles: frozenset[str],
    supply: Mapping[str, int | float],
    reach: frozenset[int] | None,
    most_exits: dict[tuple[str, str], tuple[int, str]] | None,
) -> str | None:
    """The map's upgrades_must_use_max_exits: where it applies to the tile on `coord`, the new tile needs as many
    exits as the tile of its colour with the most that could be laid there now (left in the supply, an upgrade of
    the old tile, some rotation fitting and reaching). 18xx.games offers its players only those tiles."""
    old, kinds = board.tile(coord), board.map.max_exits
    applies = (old.cities and ("cities" in kinds or ("unlabeled_cities" in kinds and old.label is None))) or (
        not old.cities and not old.towns and "track" in kinds)
    if not applies:
        return None
    key = (coord, new.colour)
    best = most_exits.get(key) if most_exits is not None else None
    if best is None:
        best = (0, "")
        for name, left in supply.items():
            tile = board.map.tiles[name]
            if (tile.colour != new.colour or left <= 0 or (tile.blocks_lay and name not in ability_tiles)
                    or len(tile.exits()) <= best[0] or not board.upgrades_to(coord, tile, special)):
                continue
            if any(_fits(board, coord, tile, r, reach) for r in range(6)):
                best = (len(tile.exits()), name)
        if most_exits is not None:
            most_exits[key] = best
    if len(new.exits()) < best[0]:
        return (f"On {board.map.place(coord)} an upgrade must use a tile with the most exits: tile {best[1]} "
                f"({best[0]}), not tile {new.name} ({len(new.exits())}).")
    return None


def _uses_new_track(board: Board, lay: Lay, corp: str) -> bool:
    """The "semi-restrictive" rule: after an upgrade the corporation reaches new track or a city pays more."""
    after = board.lay_tile(lay.hex, lay.tile, lay.rotation)
    gains = _gains(board, after, lay.hex)
    if not gains:
        return False
    # The walk on the board after the lay goes as on the board before until it first comes into the hex: if it
    # comes by an edge a gained path starts at, it takes that path there (nothing of the hex is used yet).
    edge = board.first_entries(corp).get(lay.hex)
    if edge is not None and any(edge in after.paths(lay.hex)[index] for index in gains):
        return True
    # does the corporation reach one of them? not even loosely: no (the walk would try every chain); else the walk
    # answers, stopping at the first
    if not after.loosely_reaches(corp, lay.hex, gains):
        return False
    return after._walk(corp, lambda coord, p: coord == lay.hex and p in gains)


def _gains(board: Board, after: Board, coord: str) -> set[int]:
    """The new tile's paths on `coord` (of `after`) that are new track or reach a city that pays more."""
    old, old_paths, new = board.tile(coord), board.paths(coord), after.tile(coord)
    gains = set()
    for index, new_path in enumerate(after.paths(coord)):
        kept = next((p for p in old_paths if path_within(p, new_path, old, new)), None)
        if kept is None:
            gains.add(index)
            continue
        old_node = next((e for e in kept if isinstance(e, str)), None)
        new_node = next((e for e in new_path if isinstance(e, str)), None)
        if old_node and new_node and _max_revenue(old, old_node) != _max_revenue(new, new_node):
            gains.add(index)
    return gains


def _max_revenue(tile: TileDef, end: str) -> int:
    node = tile.nodes[int(end[1:])]
    return max([node.revenue, *(v for _, v in node.phase_revenue)])


def legal_lays(
    board: Board,
    corp: str,
    colours: Iterable[str],
    *,
    blocked: Mapping[str, str] | Iterable[str] = (),
    optional_rules: Iterable[str] = (),
) -> list[Lay]:
    """Every tile, hex and rotation `corp` may lay now with its normal lay, sorted; of rotations that give the
    same track only the first is listed (``check_lay`` still accepts the others)."""
    colours = frozenset(colours)
    blocked = blocked if isinstance(blocked, Mapping) else dict.fromkeys(blocked, "a private company")
    supply = board.supply(optional_rules)
    network = board.reachable(corp)
    most_exits: dict[tuple[str, str], tuple[int, str]] = {}
    found = []
    for coord in sorted(network.edges):
        if coord in blocked or coord not in board.map.printed:
            continue
        for name, left in supply.items():
            new = board.map.tiles[name]
            if left <= 0 or new.blocks_lay or new.colour not in colours or not board.upgrades_to(coord, new):
                continue
            same_track = set()  # a symmetric tile lays the same track at several rotations: offer it once
            for rotation in range(6):
                track = frozenset(frozenset(path) for path in new.rotated_paths(rotation))
                lay = Lay(coord, name, rotation)
                if track not in same_track and _lay_problem(board, lay, colours, corp, False, frozenset(), blocked,
                                                            supply, network, most_exits) is None:
                    same_track.add(track)
                    found.append(lay)
    return sorted(found)


def check_lay(board: Board, lay: Lay, colours: Iterable[str], corp: str | None, **rules) -> Board:
    """Lay a tile if it is legal, else raise RuleError with the reason."""
    problem = lay_problem(board, lay, colours, corp, **rules)
    if problem:
        raise RuleError(problem)
    return board.lay_tile(lay.hex, lay.tile, lay.rotation)


# ---- tokens -----------------------------------------------------------------------------------------

def token_problem(board: Board, corp: str, coord: str, node: int = 0) -> str | None:
    """Why `corp` may not place a token in this city now, or None (cost and token supply are the caller's)."""
    if coord not in board.map.printed:
        return f"{coord} is not on the map."
    where = board.map.place(coord)
    tile = board.tile(coord)
    if node not in range(len(tile.nodes)) or tile.nodes[node].kind != "city":
        return f"There is no city on {where}." if node == 0 or not tile.cities else f"{where} has no city {node}."
    if any(corp in board.slots(coord, i) for i in range(len(tile.nodes))):
        return f"{corp} already has a token on {where}."
    if (coord, node) not in board.reachable(corp).nodes:
        return f"{corp} cannot reach {where}."
    if board.free_slot(coord, corp, node) is None:
        return f"{where} has no free slot for {corp}."
    return None


def legal_tokens(board: Board, corp: str) -> list[NodeRef]:
    network = board.reachable(corp)
    return sorted(ref for ref in network.nodes if token_problem(board, corp, *ref) is None)
