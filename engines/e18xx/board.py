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
import weakref
from bisect import bisect_left
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cache, cached_property, lru_cache
from operator import itemgetter
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
    next_colour,
    parse_tile,
    path_within,
    upgrade_rotations,
    upgrades_to,
)
from engines.text import N_, Msg, Name, msg

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
    names_ja: Mapping[str, str] = field(default_factory=dict)  # hex -> its printed name in Japanese
    names_kana: Mapping[str, str] = field(default_factory=dict)  # hex -> the reading of that name, where not kana
    # hex -> colour -> the only tiles of that colour laid there (their label and city count need not match: 1890's
    # Osaka Nishi takes only #12 then #839, Nara's two cities merge on a green #14 or #15)
    hex_tiles: Mapping[str, Mapping[str, tuple[str, ...]]] = field(default_factory=dict)
    tile_hexes: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # tile -> the only hexes it goes on
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

    @cached_property
    def _border_names(self) -> dict[EdgeRef, EdgeRef]:
        """(hex, edge) -> Board.border's name for it: the smaller of the two sides' (hex, edge)."""
        names = {}
        for (coord, edge), (other, _) in self._steps.items():
            names[coord, edge] = min((coord, edge), (other, hexes.opposite(edge))) if other else (coord, edge)
        return names

    @cached_property
    def costly_edges(self) -> dict[str, tuple[int, ...]]:
        """hex -> its edges with a border that costs to cross (Board.joined_borders looks only at these)."""
        edges: dict[str, tuple[int, ...]] = {}
        for (coord, edge), border in sorted(self.borders.items()):
            if border.cost:
                edges[coord] = (*edges.get(coord, ()), edge)
        return edges

    @cached_property
    def _city_maps(self) -> dict[tuple[str, tuple[str, int] | None, str, int], dict[int, int]]:
        """Board.lay_tile's tiles.city_map answers: (hex, the tile laid there and its rotation or None for the printed
        one, new tile, its rotation); never to be changed."""
        return {}

    @cached_property
    def _upgrades(self) -> dict[tuple[str, str | None, str, bool], bool]:
        """Board.upgrades_to's answers: (hex, the tile laid there or None for the printed one, new tile, special)."""
        return {}

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

    def place_name(self, coord: str) -> Name:
        """A hex as players read it, in both languages: "Kouchi (F9)" / "高知 (F9)", or just "C8"."""
        found = self._place_names.get(coord)
        return found if found is not None else Name(coord, coord)

    def city_name(self, coord: str) -> Name | None:
        """The name the map prints on a hex, in both languages ("Kouchi" / "高知", read "こうち"), or None."""
        if coord not in self.names:
            return None
        ja = self.names_ja.get(coord, "")
        return Name(self.names[coord], ja, self.names_kana.get(coord, ja))

    @cached_property
    def _place_names(self) -> dict[str, Name]:
        """Every named hex's place_name (asked in the legality checks of every lay)."""
        out = {}
        for coord in self.names:
            city = self.city_name(coord)
            out[coord] = Name(f"{city.en} ({coord})", f"{city.ja} ({coord})" if city.ja else "", city.kana)
        return out

    def manifest(self, optional_rules: Iterable[str] = ()) -> dict[str, int | float]:
        rules = set(optional_rules)
        return {name: n for name, n in self.counts.items() if self.tile_rules.get(name, "") in rules | {""}}


def map_from_json(data: dict) -> MapDef:
    """Our map.json: title, layout, hexes (hex -> tile text), tiles (name -> def, count (a number or "unlimited"),
    rule), and optionally names, homes (corporation -> hex), hex_tiles (hex -> colour -> the only tiles of that colour
    laid there), tile_hexes (tile -> the only hexes it is laid on), home_nodes (corporation -> node index of its city,
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
        names_ja=dict(data.get("names_ja", {})),
        names_kana=dict(data.get("names_kana", {})),
        hex_tiles={h: {colour: tuple(names) for colour, names in by_colour.items()}
                   for h, by_colour in data.get("hex_tiles", {}).items()},
        tile_hexes={t: tuple(hs) for t, hs in data.get("tile_hexes", {}).items()},
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


@dataclass(frozen=True)
class WalkTrace:
    """Board.trace: what one corporation's reach walk met (see Board._traced_walk)."""

    looks: Mapping[str, set[tuple[End, int]]]  # hex -> (edge or node end, mask of the hex's edges left by) seen
    leaves: frozenset[tuple[str, int]]  # (hex, edge) left by outside converging mode
    walked: frozenset[PathRef]  # the paths the walk took
    entries: Mapping[str, int | None]  # hex -> the edge the walk first comes into it by (None: a token's hex)
    prefix: _Prefix | None = None  # where a variant's walk may start (see _Prefix)


@dataclass(frozen=True)
class _Prefix:
    """What a variant's walk (Board._traced_walk) needs of the trace to start where it first comes to its hex instead
    of at the tokens: until then it goes as the trace, step for step, outside converging mode. All of it strings,
    ints and tuples of them, which the garbage collector stops tracking (the trace is kept on the board).

    `paths` and `nodes`: the paths and nodes the walk marked outside converging mode, in order (the marks of any
    moment outside converging mode are the first so many since its token's start, `offsets`); `touches`: (hex, the
    token's index in the starts) -> where the walk from that token first comes to the hex: (the calls under way, as
    frames, how many paths and nodes were marked, the edge crossed into the hex (None: the walk starts at a token
    there), the last converging part begun); `parts_into`: hex -> the converging parts (numbered in the walk's
    order, from 0) that come into it past their first step; `parts`: converging part -> (the token's index, the hex
    it crosses into, by which edge, how many paths and nodes were marked, the edges left by at that moment), for
    the parts that come into some hex. A frame is (node,) for walk_node, (hex, path, edge come in by, node come
    from) for walk_path."""

    paths: tuple[PathRef, ...]
    nodes: tuple[NodeRef, ...]
    offsets: tuple[tuple[int, int], ...]
    touches: Mapping[tuple[str, int], tuple]
    parts_into: Mapping[str, tuple[int, ...]]
    parts: Mapping[int, tuple]


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

    def _tiles_key(self) -> tuple[tuple[str, tuple[str, int]], ...]:
        """The tiles laid in hex order: the key of what is kept per set of tiles (_track_of, _chains_of), kept as
        `_laid_key` (by hand: cached_property takes a lock). A board made by a lay on a board that had it puts the
        hex's entry in its place (lay_tile), not all sorted again."""
        if (key := self.__dict__.get("_laid_key")) is None:
            if (before := self.__dict__.get("_laid_key_before")) is not None:
                old, coord = before
                at = bisect_left(old, (coord,))  # (coord,) sorts just before (coord, anything)
                key = (*old[:at], (coord, self.laid[coord]), *old[at + (at < len(old) and old[at][0] == coord):])
            else:
                key = tuple(sorted(self.laid.items()))
            self.__dict__["_laid_key"] = key
        return key

    @cached_property
    def _track(self) -> dict[str, tuple[tuple[End, End], ...]]:
        return _track_of(self.map, self._tiles_key())[0]

    @cached_property
    def _paths_at(self) -> dict[str, dict[End, tuple[int, ...]]]:
        """hex -> end -> indexes of the paths of that hex with that end."""
        return _track_of(self.map, self._tiles_key())[1]

    def paths_at(self, coord: str, end: End) -> tuple[int, ...]:
        return self._paths_at.get(coord, {}).get(end, ())

    def node(self, ref: NodeRef):
        return self.tile(ref[0]).nodes[ref[1]]

    def nodes(self) -> list[NodeRef]:
        return [(coord, i) for coord in self.map.printed for i in range(len(self.tile(coord).nodes))]

    def border(self, coord: str, edge: int) -> EdgeRef:
        """One name for a hex border, the same from both sides."""
        return self.map._border_names.get((coord, edge)) or (coord, edge)

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
        """The cities holding `corp`'s tokens (a list of the caller's own: each board keeps its answer per
        corporation, asked after every move of an operating turn)."""
        if (known := self._token_nodes.get(corp)) is None:
            known = self._token_nodes[corp] = tuple(
                (coord, i) for coord, per_node in self.tokens.items() for i, s in enumerate(per_node) if corp in s)
        return list(known)

    @cached_property
    def _token_nodes(self) -> dict[str, tuple[NodeRef, ...]]:
        return {}

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

    def left(self, tile: str, optional_rules: Iterable[str] = ()) -> int | float:
        """supply().get(tile, 0), without counting every other tile (a replay asks it at every lay)."""
        needs = self.map.tile_rules.get(tile)
        if needs and needs not in optional_rules or tile not in self.map.counts:
            return 0
        return self.map.counts[tile] - [*map(_NAME, self.laid.values())].count(tile)  # the laid tiles' names, in C

    def lay_cost(self, coord: str, tile: str | None = None, rotation: int = 0) -> int:
        """The cost printed on what is replaced (terrain, or a tile's own upgrade cost), and with the tile being laid
        named, the costs of the borders it joins track across."""
        joined = self.joined_borders(coord, tile, rotation) if tile else ()
        return self.tile(coord).cost + sum(border.cost for border in joined)

    def joined_borders(self, coord: str, tile: str, rotation: int) -> list[Border]:
        """The costly borders that laying `tile` would be the first to join track across: the new tile has an exit
        there, the neighbour's track faces back, and the old tile had no exit there (else it was paid before)."""
        costly = self.map.costly_edges.get(coord)
        if not costly:  # most hexes: no costly border, nothing more to look at
            return []
        new_exits = self.map.tiles[tile].exits(rotation) - self.exits(coord)
        found = []
        for edge in costly:
            if edge not in new_exits:
                continue
            border = self.map.borders[coord, edge]
            other = self.map.across(coord, edge)
            if other and hexes.opposite(edge) in self.exits(other):
                found.append(border)
        return found

    def exits(self, coord: str) -> frozenset[int]:
        return self.tile(coord).exits(self.rotation(coord))

    def upgrades_to(self, coord: str, new: TileDef, special: bool = False) -> bool:
        """May `new` replace the tile on `coord` at all (tiles.upgrades_to)? Where the printed hex has a future label
        for `new`'s colour, `new` must carry that label instead of the old tile's (e.g. Ottawa's gray "O"). A pure
        function of the map, the hex, the two tiles and `special`: the map keeps each answer (the legal lays ask it
        for every hex the network touches and every tile left, some 5,000 times on 1867's late boards)."""
        if self.map.tiles.get(new.name) is not new:  # a tile of no manifest: asked as it is
            return self._upgrades_to(coord, new, special)
        placed = self.laid.get(coord)
        key = (coord, placed[0] if placed else None, new.name, special)
        if (known := self.map._upgrades.get(key)) is None:
            known = self.map._upgrades[key] = self._upgrades_to(coord, new, special)
        return known

    def _upgrades_to(self, coord: str, new: TileDef, special: bool) -> bool:
        old = self.tile(coord)
        if new.name in self.map.tile_hexes and coord not in self.map.tile_hexes[new.name]:
            return False
        only = self.map.hex_tiles.get(coord, {}).get(new.colour)
        if only is not None:  # the map names the tiles of this colour here: theirs are the only label/city rules
            return new.name in only and upgrades_to(old, new, special=True)
        future = self.map.printed[coord].future_label
        if future and future[1] == new.colour and not special:
            # the label check reads the future label; every other check is the usual one (18xx.games's order)
            return new.label == future[0] and upgrades_to(old, replace(new, label=old.label))
        return upgrades_to(old, new, special)

    # ---- changes (each returns a new Board) ----

    def lay_tile(self, coord: str, tile: str, rotation: int) -> Board:
        """Put `tile` on `coord` without asking whether it is legal (see lay_problem); tokens move onto it."""
        if coord not in self.map.printed:
            raise RuleError("{hex} is not on the map.", hex=coord)
        if tile not in self.map.tiles:
            raise RuleError("There is no tile {tile}.", tile=tile)
        new_tile = self.map.tiles[tile]
        laid = {**self.laid, coord: (tile, rotation % 6)}
        placed = self.laid.get(coord)
        key = (coord, placed, tile, rotation % 6)  # the old tile and the new, as the map keeps upgrades_to's answers
        if (moved := self.map._city_maps.get(key)) is None:
            moved = self.map._city_maps[key] = city_map(self.tile(coord), self.rotation(coord), new_tile, rotation % 6)
        reserved, tokens = self.reserved, self.tokens  # most lays: the board before's, as they are
        if any(k.partition(":")[0] == coord for k in reserved):  # a home here: it moves with its city
            reserved = {k: c for k, c in reserved.items() if k.partition(":")[0] != coord}
            for old_node, new_node in moved.items():  # reservations first, so moved tokens keep off their slots
                if owed := self.reservation(coord, old_node):
                    reserved[self._reserve_key(coord, new_node, new_tile)] = owed
        if coord in tokens:
            tokens = dict(tokens)
            per_node = [[None] * n.slots if n.kind == "city" else [] for n in new_tile.nodes]
            for old_node in range(len(tokens[coord])):
                for corp in filter(None, self.slots(coord, old_node)):
                    if old_node not in moved:
                        raise RuleError("Tile {tile} has no city for the tokens on {hex}.", tile=tile, hex=coord)
                    new_node = moved[old_node]
                    owed = reserved.get(self._reserve_key(coord, new_node, new_tile))
                    slot = _slot_for(per_node[new_node], owed, corp)
                    if slot is None:
                        raise RuleError("Tile {tile} has no room for {corp}'s token on {hex}.", tile=tile, corp=corp,
                                        hex=coord)
                    per_node[new_node][slot] = corp
            tokens[coord] = tuple(tuple(slots) for slots in per_node)
        after = Board(self.map, laid, tokens, reserved)  # not dataclasses.replace: it reads the fields anew each time
        # The track of every other hex is this board's: derived here, not recomputed for the whole map (the
        # legal lays try every upgrade on a board of its own). Set as cached_property would set them.
        if "_track" in self.__dict__:
            paths = new_tile.rotated_paths(rotation % 6)
            after.__dict__["_track"] = {**self._track, coord: paths}
            if "_paths_at" in self.__dict__:
                after.__dict__["_paths_at"] = {**self._paths_at, coord: _ends(paths)}
        # (chains followed on a board before, the hex laid right after it), newest first: route.chains_from keeps
        # those whose walk never looked at a hex laid since (a cold replay followed every chain again after each lay)
        # the new board's tiles key is worked out from this one's when asked (the legal lays' boards never ask it)
        if "_laid_key" in self.__dict__ or "_laid_key_before" in self.__dict__:
            after.__dict__["_laid_key_before"] = (self._tiles_key(), coord)
        if "chains" in self.__dict__ or "_chains_before" in self.__dict__:
            older = self.__dict__.get("_chains_before", ())[:CHAINS_BEFORE - 1]
            after.__dict__["_chains_before"] = ((self.__dict__.get("chains"), coord), *older)
        return self._changed_on(after, coord)

    def place_token(self, coord: str, corp: str, node: int | None = None, *, second_on_tile: bool = False) -> Board:
        """Put `corp`'s token in the slot it is owed, else the first free unreserved slot (reach is not checked).
        Without a node: the city reserved for `corp` on this hex, else the first city."""
        if node is None:
            node = self.home_node(coord, corp) or 0
        tile = self.tile(coord)
        per_node = self._slots_of(coord, tile)  # read once: the free slot looked for and the new slots made from it
        slot = self._free_in(coord, tile, per_node, corp, node, second_on_tile)
        if slot is None:
            raise RuleError("{corp} cannot place a token on {where}.", corp=corp, where=self.map.place_name(coord))
        per_node[node] = (*per_node[node][:slot], corp, *per_node[node][slot + 1:])
        reserved = self.reserved
        if corp in reserved.values():  # its home reservation on this hex, if any, is used up
            reserved = {h: c for h, c in reserved.items() if not (h.partition(":")[0] == coord and c == corp)}
        return self._changed_on(self._same_track(
            Board(self.map, self.laid, {**self.tokens, coord: tuple(per_node)}, reserved)), coord)

    def remove_token(self, coord: str, node: int, holder: str) -> Board:
        """The board without `holder`'s token in that city (its slot opens)."""
        per_node = [tuple(None if t == holder and i == node else t for t in self.slots(coord, i))
                    if n.kind == "city" else () for i, n in enumerate(self.tile(coord).nodes)]
        return self._changed_on(self._same_track(
            Board(self.map, self.laid, {**self.tokens, coord: tuple(per_node)}, self.reserved)), coord)

    def _same_track(self, after: Board) -> Board:
        """`after` (this board with other tokens, the same tiles) given this board's track as it is known: a board
        derived by lays knows its track without `_track_of` having it, which would compute the whole map's again."""
        # set as cached_property would set them
        for name in ("_laid_key", "_laid_key_before", "_track", "_paths_at", "chains", "_chains_before"):
            if name in self.__dict__:
                after.__dict__[name] = self.__dict__[name]
        return after

    def free_slot(self, coord: str, corp: str, node: int = 0, *, second_on_tile: bool = False) -> int | None:
        """The slot `corp` may put a token in; `second_on_tile`: even with its token in another city of the tile (a
        merger moving two minors' tokens, until the major removes one)."""
        tile = self.tile(coord)
        return self._free_in(coord, tile, self._slots_of(coord, tile), corp, node, second_on_tile)

    def _slots_of(self, coord: str, tile: TileDef) -> list[tuple[str | None, ...]]:
        """Each node's slots on `coord` as `slots` reads them (a town's: none)."""
        held = self.tokens.get(coord, ())
        out = []
        for i, n in enumerate(tile.nodes):
            mine = held[i] if i < len(held) else ()
            out.append((*mine, *(None,) * (n.slots - len(mine))) if n.kind == "city" else ())
        return out

    def _free_in(self, coord: str, tile: TileDef, per_node: list[tuple[str | None, ...]], corp: str, node: int,
                 second_on_tile: bool) -> int | None:
        """free_slot, with the hex's tile and its slots (`_slots_of`) read."""
        if node not in range(len(tile.nodes)) or tile.nodes[node].kind != "city":
            return None
        cities = [node] if second_on_tile else tile.city_indexes()
        if any(corp in per_node[i] for i in cities):
            return None  # one token per corporation on a tile, whichever of its cities
        return _slot_for(per_node[node], self.reservation(coord, node), corp)

    # ---- reach ----

    def reachable(self, corp: str) -> Network:
        """What `corp`'s tokens reach (see _walk): the nodes, paths and hex edges. A board never changes (a change
        is a new board), so each corporation's reach is walked once per board."""
        if (known := self._reach.get(corp)) is None:
            if (trace := self._traces.get(corp)) is not None:  # the same walk, step for step: the paths it took
                known = self._reach[corp] = self._network(corp, trace.walked)
            else:
                known = self._reach[corp] = self._reachable(corp)
        return known

    @cached_property
    def _reach(self) -> dict[str, Network]:
        return {}

    @cached_property
    def chains(self) -> dict:
        """node -> (the chains leaving it, the hexes their walk looked at): route.chains_from fills it. Chains follow
        track only, so boards with the same tiles share them (a token placed or a state read again keeps them), and
        a board never changes."""
        return _chains_of(self.map, self._tiles_key())

    def _reachable(self, corp: str) -> Network:
        walked: set[PathRef] = set()

        def visit(coord: str, p: int) -> bool:
            walked.add((coord, p))
            return False

        self._walk(corp, visit)
        return self._network(corp, walked)

    def reach_finds(self, corp: str, visit: Callable[[str, int], bool]) -> bool:
        """Whether ``visit(hex, path index)`` is True of a path of `corp`'s reach: its walk (see _walk) stops at the
        first. A walk that does not stop has walked the whole reach: its nodes are kept (reach_nodes), for a later
        question about them to read (1867's merger asks again as the minors gather)."""
        walked: list[PathRef] = []

        def look(coord: str, p: int) -> bool:
            if visit(coord, p):
                return True
            walked.append((coord, p))
            return False

        if self._walk(corp, look):
            return True
        nodes = set(self.token_nodes(corp))  # as _network reads them
        for coord, p in walked:
            nodes.update((coord, int(end[1:])) for end in self._track[coord][p] if type(end) is str)
        self._reached[corp] = frozenset(nodes)
        return False

    def reach_nodes(self, corp: str) -> frozenset[NodeRef] | None:
        """The nodes of `corp`'s reach if a walk of this board has found them (reachable, or a reach_finds that did
        not stop), else None."""
        if (known := self._reach.get(corp)) is not None:
            return known.nodes
        return self._reached.get(corp)

    @cached_property
    def _reached(self) -> dict[str, frozenset[NodeRef]]:
        return {}

    def _network(self, corp: str, walked: Iterable[PathRef]) -> Network:
        """The reach of `corp` whose walk (see _walk) took the paths `walked`: their nodes and hex edges, and every
        edge of a token's hex (a corporation may build out of it in any direction)."""
        starts = self.token_nodes(corp)
        edges: dict[str, set[int]] = {}
        for coord, _ in starts:
            edges.setdefault(coord, set()).update(e for e in hexes.EDGES if self.map.linked(coord, e))
        seen_nodes: set[NodeRef] = set(starts)
        for coord, p in walked:
            for end in self._track[coord][p]:
                if isinstance(end, int):
                    edges.setdefault(coord, set()).add(end)
                    other = self.map.across(coord, end)
                    if other:
                        edges.setdefault(other, set()).add(hexes.opposite(end))
                else:
                    seen_nodes.add((coord, int(end[1:])))
        for mirror, targets in self.map.mirrors.items():  # 1807: reaching London's inset reaches the small London hex
            if any(t in edges or any(ref[0] == t for ref in seen_nodes) for t in targets):
                edges.setdefault(mirror, set()).update(e for e in hexes.EDGES if self.map.linked(mirror, e))
        return Network(frozenset(seen_nodes), frozenset(walked), {h: frozenset(e) for h, e in edges.items()})

    def can_token(self, corp: str) -> bool:
        """Whether `corp` may place a token in some city it reaches now (``bool(legal_tokens(self, corp))``), as
        18xx.games's `can_token?` answers it: the reach walk stops at the first such city, where the full reach
        would walk every chain of a big network. Once per board and corporation, like the reach."""
        if (known := self._can_token.get(corp)) is None:
            if corp in self._reach:
                known = any(self._may_token(corp, ref) for ref in self._reach[corp].nodes)
            else:
                asked: dict[NodeRef, bool] = {}  # each city's answer, once per walk

                def visit(coord: str, p: int) -> bool:
                    for end in self._track[coord][p]:
                        if type(end) is str:
                            ref = (coord, int(end[1:]))
                            if (answer := asked.get(ref)) is None:
                                answer = asked[ref] = self._may_token(corp, ref)
                            if answer:
                                return True
                    return False

                known = self._walk(corp, visit)
            self._can_token[corp] = known
        return known

    @cached_property
    def _can_token(self) -> dict[str, bool]:
        return {}

    def _may_token(self, corp: str, ref: NodeRef) -> bool:
        """token_problem's checks but the reach: a city with a slot for `corp`, on a hex where it has no token."""
        return self.free_slot(ref[0], corp, ref[1]) is not None

    def first_entries(self, corp: str) -> dict[str, int | None]:
        """hex -> the edge by which `corp`'s reach walk (see _walk) first comes into it (None: the walk starts there,
        at a token). Up to that moment a walk on a board with another tile on that hex goes exactly as on this one,
        which lets the "new track" rule answer most lays without a walk of its own (_uses_new_track)."""
        if (known := self._entries.get(corp)) is None and (trace := self._traces.get(corp)) is not None:
            known = self._entries[corp] = dict(trace.entries)  # the same walk, step for step
        if known is None:
            known = self._entries[corp] = {}

            def enter(coord: str, edge: int | None) -> bool:
                known.setdefault(coord, edge)
                return False

            self._walk(corp, lambda coord, p: False, enter)
        return known

    @cached_property
    def _entries(self) -> dict[str, dict[str, int | None]]:
        return {}

    def trace(self, corp: str) -> WalkTrace:
        """What `corp`'s whole reach walk (see _walk) met, per hex, for the "new track" rule to answer a trial lay
        from this board's walk instead of walking the board after the lay (_answer_from_trace): once per board and
        corporation."""
        if (known := self._traces.get(corp)) is None:
            known = self._traces[corp] = self._traced_walk(corp)
        return known

    @cached_property
    def _traces(self) -> dict[str, WalkTrace]:
        return {}

    def variant_walk(self, corp: str, coord: str, paths: tuple[tuple[End, End], ...], converging: int,
                     through: tuple[bool, ...], starts: tuple[NodeRef, ...], steps: dict | None = None) -> _VariantWalk:
        """`corp`'s walk (see _walk) on this board with `coord`'s track made `paths`, its exits `converging` (a bit
        mask) where the walk's converging mode starts, its nodes letting a train through or not as `through` says, and
        the tokens at `starts`: the walk of a board after a trial lay whose gained paths are left out
        (_answer_from_variant), as the "new track" questions about that hex read it (_VariantWalk.takes). The walk is
        the same whatever gained path is asked (a look answers, it does not steer), so the lays of one variant share
        it: the caller keeps it for the lays it asks together (legal_lays: one call), not the board. A board's walks
        kept past the call that asked them are never asked again (each lay's answer is kept, `_new_track`) and were
        most of what the garbage collector's full passes went over (1867's 32 boards kept by content held 80,000
        objects of them: 100 ms a pass on a quiet core). `steps`: the steps outside `coord` its searches share with
        the other walks of the call (_Steps)."""
        return self._traced_walk(corp, (coord, paths, converging, through, starts), shared=steps)

    @cached_property
    def _new_track(self) -> dict[tuple[str, str, int, str], bool]:
        """_uses_new_track's answers on this board, by (hex, tile, rotation, corporation): a tuple of strings and
        ints, which the garbage collector stops tracking (a Lay key is an object it goes over at every full pass)."""
        return {}

    def _traced_walk(self, corp: str, variant: tuple | None = None, fork: _Fork | None = None,
                     shared: dict | None = None) -> WalkTrace | _VariantWalk | set[tuple[End, int]]:
        """_walk's walk, step for step (keep the two alike), visiting every path and noting, per hex, each way it
        comes to look at the hex's paths: by an edge (crossing into the hex) or by a node (walking a node of the
        hex, a token's included), with the hex's edges the chain has left by at that moment (a bit mask: a path
        ending at one of them may not be taken then); and which (hex, edge) it leaves by outside converging mode.
        `variant` (see variant_walk): (hex, its paths, its converging exits, its nodes' passability, the tokens)
        walks this board with that hex changed so, and returns what the "new track" questions about that hex read
        (_VariantWalk): the looks at the hex outside converging mode, and, instead of walking each converging part,
        where it starts with the marks of that moment (a fork), for a search or a walk of its own when asked. With
        `fork` too: that walk, the converging part from the fork, and its looks at the hex. `shared`: see _Steps.
        Where the board's trace is known (and the tokens are the same), a variant's walk starts where it first comes
        to its hex, with the forks before then that look at it (_Prefix): until then it goes as the trace.

        What the walk keeps (a variant's searches ask `through` later) holds the board by a weak reference: the board
        keeps its walks, and a cycle through them would keep a board and its walks after the board's last use until
        the garbage collector's full pass (which, with hundreds of them, took 100-300 ms on 1867's late boards)."""
        track, paths_at, steps = self._track, self._paths_at, self.map._steps
        board = weakref.ref(self)
        over, conv = None, 0
        passable: dict[NodeRef, bool] = {}
        starts = self.token_nodes(corp)
        # a variant's walk goes as the trace until it first comes to its hex: it starts there (resume), with the
        # forks the trace's converging parts before then make that come into the hex (the others never look at it)
        into_over: set[int] | None = None
        prefix: _Prefix | None = None
        if variant is not None:
            over, paths, conv, through_at, variant_starts = variant
            track, paths_at = {**track, over: paths}, {**paths_at, over: _ends(paths)}
            passable = {(over, i): ok for i, ok in enumerate(through_at)}
            if fork is None and list(variant_starts) == starts and (trace := self._traces.get(corp)) is not None:
                prefix = trace.prefix
                into_over = set(prefix.parts_into.get(over, ()))
            starts = list(variant_starts)

        tracing = over is None  # a variant's walk reads only its looks at its hex, and its forks
        # hex -> its looks: every hex's for the trace, the variant's hex's for a variant
        looks: dict[str, set[tuple[End, int]]] = {coord: set() for coord in (track if tracing else (over,))}
        entries: dict[str, int | None] = {}
        leaves: set[tuple[str, int]] = set()
        walked: set[PathRef] = set()
        nodes: set[NodeRef] = set()
        paths: set[PathRef] = set()
        used: set[tuple[str, int]] = set()
        mask: dict[str, int] = {}  # hex -> the edges of `used` on it, as bits
        forks: list[_Fork] = []
        parts_into: dict[str, list[int]] = {}  # the trace's: hex -> the converging parts that come into it
        part = -1  # the trace's converging part walked last, numbered in the walk's order
        # the trace's records for _Prefix: the calls under way outside converging mode, the marks in order, ...
        frames: list[tuple] = []
        order_paths: list[PathRef] = []
        order_nodes: list[NodeRef] = []
        offsets: list[tuple[int, int]] = []
        touches: dict[tuple[str, int], tuple] = {}
        part_marks: dict[int, tuple] = {}
        entered = False  # the converging part under way came into some hex past its first step
        at_start = 0  # the index of the token the walk started from

        def through(ref: NodeRef) -> bool:
            if (known := passable.get(ref)) is None:
                me = board()
                known = passable[ref] = me.node(ref).kind != "offboard" and not me.blocks(ref, corp)
            return known

        def walk_node(ref: NodeRef, converging: bool) -> None:
            if ref in nodes:
                return
            nodes.add(ref)
            coord, index = ref
            end = f"_{index}"
            if tracing or coord == over:
                looks[coord].add((end, mask.get(coord, 0)))
            if tracing and not converging:
                order_nodes.append(ref)
                frames.append((ref,))
            for p in paths_at[coord].get(end, ()):
                walk_path(coord, p, None, ref, converging)
            if converging:
                nodes.discard(ref)
            elif tracing:
                frames.pop()

        def walk_path(coord: str, p: int, came_by: int | None, came_from: NodeRef | None, converging: bool) -> None:
            nonlocal part, entered
            key = (coord, p)
            ends = a, b = track[coord][p]
            if key in paths or (type(a) is int and (coord, a) in used) or (type(b) is int and (coord, b) in used):
                return
            paths.add(key)
            if tracing:
                walked.add(key)
                if not converging:
                    order_paths.append(key)
                    frames.append((coord, p, came_by, came_from))
            for end in ends:
                if type(end) is str:
                    ref = (coord, int(end[1:]))
                    if ref != came_from and through(ref):
                        walk_node(ref, converging)
            for edge in ends:
                if type(edge) is not int or edge == came_by or (other := steps.get((coord, edge), NOWHERE)[1]) is None:
                    continue
                back = (edge + 3) % 6
                if tracing:
                    if other not in entries:
                        entries[other] = back
                    looks[other].add((back, mask.get(other, 0)))
                    if not converging:
                        leaves.add((coord, edge))
                        if (other, at_start) not in touches:
                            touches[other, at_start] = (tuple(frames), len(order_paths), len(order_nodes), edge, part)
                    elif (into := parts_into.get(other)) is None:
                        parts_into[other] = [part]
                        entered = True
                    elif into[-1] != part:
                        into.append(part)
                        entered = True
                elif other == over:
                    looks[over].add((back, mask.get(over, 0)))
                onward = converging or (conv >> edge & 1 if coord == over else len(paths_at[coord].get(edge, ())) > 1)
                if tracing and onward and not converging:
                    part += 1
                    entered = False
                used.add((coord, edge))
                mask[coord] = mask.get(coord, 0) | 1 << edge
                if over is None or converging or not onward:
                    for q in paths_at.get(other, {}).get(back, ()):
                        walk_path(other, q, back, None, onward)
                    if onward and entered and not converging:  # the trace's part from here came into some hex
                        part_marks[part] = (at_start, other, back, len(order_paths), len(order_nodes), tuple(used))
                else:  # a variant's converging part: its looks are all it leaves, asked of it only when needed
                    forks.append(_Fork(other, back, frozenset(paths), frozenset(used), frozenset(nodes),
                                       mask.get(over, 0)))
                used.discard((coord, edge))
                mask[coord] &= ~(1 << edge)
            if converging:
                paths.discard(key)
            elif tracing:
                frames.pop()

        def marks_at(at: int, n_paths: int, n_nodes: int) -> tuple[frozenset, frozenset]:
            """The paths and nodes marked outside converging mode when the walk from token `at` had marked so many."""
            off_paths, off_nodes = prefix.offsets[at]
            return (frozenset(prefix.paths[off_paths:n_paths]),
                    frozenset(prefix.nodes[off_nodes:n_nodes]) | (frozenset(starts) - {starts[at]}))

        def cross(coord: str, edge: int, other: str) -> None:
            """walk_path's step across `edge` into `other`, in a variant's walk outside converging mode."""
            back = (edge + 3) % 6
            if other == over:
                looks[over].add((back, mask.get(over, 0)))
            onward = conv >> edge & 1 if coord == over else len(paths_at[coord].get(edge, ())) > 1
            used.add((coord, edge))
            mask[coord] = mask.get(coord, 0) | 1 << edge
            if not onward:
                for q in paths_at.get(other, {}).get(back, ()):
                    walk_path(other, q, back, None, False)
            else:
                forks.append(_Fork(other, back, frozenset(paths), frozenset(used), frozenset(nodes), mask.get(over, 0)))
            used.discard((coord, edge))
            mask[coord] &= ~(1 << edge)

        def finish_path(frame: tuple, from_node: int, from_edge: int, from_q: int | None) -> None:
            """The rest of walk_path(*frame, converging=False) in a variant's walk: its node loop from its `from_node`th
            end, its edge loop from its `from_edge`th end (with `from_q`: that crossing under way, its paths from that
            one on). Keep it alike walk_path."""
            coord, p, came_by, came_from = frame
            ends = track[coord][p]
            for end in ends[from_node:]:
                if type(end) is str:
                    ref = (coord, int(end[1:]))
                    if ref != came_from and through(ref):
                        walk_node(ref, False)
            for i in range(from_edge, 2):
                edge = ends[i]
                if type(edge) is not int or edge == came_by or (other := steps.get((coord, edge), NOWHERE)[1]) is None:
                    continue
                if i != from_edge or from_q is None:
                    cross(coord, edge, other)
                    continue
                back = (edge + 3) % 6
                for q in paths_at.get(other, {}).get(back, ())[from_q:]:
                    walk_path(other, q, back, None, False)
                used.discard((coord, edge))
                mask[coord] &= ~(1 << edge)

        def resume(at: _Prefix) -> None:
            """A variant's walk from each token in turn, started where it first comes to its hex (as the trace found
            it: each token's walk starts with no marks, so until then it goes as the trace's from that token): the
            forks of the trace's converging parts before then that come into the hex, the marks of that moment, then
            the rest of each call under way, innermost first."""
            wanted = sorted(into_over)
            for s, start in enumerate(starts):
                touch = at.touches.get((over, s))
                for k in wanted:
                    t, other, back, n_paths, n_nodes, edges = at.parts[k]
                    if t == s and (touch is None or k <= touch[4]):
                        fork_paths, fork_nodes = marks_at(s, n_paths, n_nodes)
                        forks.append(_Fork(other, back, fork_paths, frozenset(edges), fork_nodes, 0))
                if touch is None:  # this token's walk never comes to the hex outside converging mode
                    continue
                calls, n_paths, n_nodes, edge, _ = touch
                paths.clear()
                used.clear()
                nodes.clear()
                if edge is None:  # it starts on the hex
                    nodes.update(set(starts) - {start})
                    walk_node(start, False)
                    continue
                off_paths, off_nodes = at.offsets[s]  # the marks of that moment (see marks_at)
                paths.update(at.paths[off_paths:n_paths])
                nodes.update(starts)
                nodes.discard(start)
                nodes.update(at.nodes[off_nodes:n_nodes])
                for frame, inner in zip(calls, calls[1:], strict=False):
                    if len(frame) == 4 and len(inner) == 4:  # a crossing under way
                        crossed = (inner[2] + 3) % 6
                        used.add((frame[0], crossed))
                        mask[frame[0]] = mask.get(frame[0], 0) | 1 << crossed
                innermost = calls[-1]
                ends = track[innermost[0]][innermost[1]]
                finish_path(innermost, 2, ends.index(edge), None)
                for i in range(len(calls) - 2, -1, -1):
                    frame, inner = calls[i], calls[i + 1]
                    if len(frame) == 1:  # walk_node: on with its node's next paths
                        coord, index = frame[0]
                        rest = paths_at[coord].get(f"_{index}", ())
                        for q in rest[rest.index(inner[1]) + 1:]:
                            walk_path(coord, q, None, frame[0], False)
                        continue
                    ends = track[frame[0]][frame[1]]
                    if len(inner) == 1:  # walk_path in its node loop
                        finish_path(frame, ends.index(f"_{inner[0][1]}") + 1, 0, None)
                    else:  # walk_path in its edge loop, crossing into inner's hex
                        crossed = (inner[2] + 3) % 6
                        finish_path(frame, 2, ends.index(crossed), paths_at[inner[0]][inner[2]].index(inner[1]) + 1)

        try:
            if fork is not None:  # the converging walk from `fork`, with the marks of that moment
                paths.update(fork.paths)
                used.update(fork.used)
                nodes.update(fork.nodes)
                mask[over] = fork.left
                for q in paths_at.get(fork.coord, {}).get(fork.back, ()):
                    walk_path(fork.coord, q, fork.back, None, True)
                return looks[over]
            if prefix is not None:  # a variant's walk: it goes as the trace until it first comes to its hex
                resume(prefix)
            else:
                for at_start, start in enumerate(starts):
                    nodes.clear()
                    nodes.update(set(starts) - {start})
                    paths.clear()
                    used.clear()
                    entries.setdefault(start[0], None)
                    if tracing:
                        offsets.append((len(order_paths), len(order_nodes)))
                        touches.setdefault((start[0], at_start), ((), len(order_paths), len(order_nodes), None, part))
                    walk_node(start, False)
        finally:
            walk_node = walk_path = None  # see _walk: the two closures hold each other (and the walk's marks)
        if over is None:
            return WalkTrace(looks, frozenset(leaves), frozenset(walked), entries,
                             _Prefix(tuple(order_paths), tuple(order_nodes), tuple(offsets), touches,
                                     {coord: tuple(into) for coord, into in parts_into.items()}, part_marks))

        def fork_looks(at: _Fork) -> set[tuple[End, int]]:
            """The looks at `over` of the converging walk from fork `at`."""
            return board()._traced_walk(corp, variant, at)

        return _VariantWalk(over, looks[over], tuple(forks), _Steps(track, paths_at, steps, through, over,
                                                                          {} if shared is None else shared),
                            fork_looks)

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
        try:
            for start in starts:
                nodes.clear()
                nodes.update(set(starts) - {start})
                paths.clear()
                used.clear()
                if (enter is not None and enter(start[0], None)) or walk_node(start, False):
                    return True
            return False
        finally:
            # walk_node and walk_path hold each other: a cycle that only the garbage collector's full pass frees
            # once a long walk has outlived the young generations, with the walk's marks in it (a legal() call on
            # a dense board left tens of thousands of objects for it, and its pauses landed on later calls)
            walk_node = walk_path = None

    # ---- the state ----

    def to_json(self) -> dict:
        """The board as a state keeps it (hexes in order; never to be changed in place: it is kept). A board made
        by changes on a few hexes (a lay, tokens placed or removed) from a board already written is written from
        that board's JSON: those hexes' entries anew, and each part the changes left as they were is the board
        before's own (a lay leaves the tokens of an empty hex, a token the tiles, and most changes the reservations;
        a replay writes the board after every lay and token, a merger or a nationalisation after several tokens)."""
        known = self.__dict__.get("_json")
        if known is None:
            before, coords = self.__dict__.get("_json_before", (None, ()))
            if before is None:
                known = {
                    "laid": {coord: [name, rot] for coord, (name, rot) in sorted(self.laid.items())},
                    "tokens": {coord: [list(s) for s in per_node] for coord, per_node in sorted(self.tokens.items())},
                    "reserved": dict(sorted(self.reserved.items())),
                }
            else:
                laid, tokens, reserved = before["laid"], before["tokens"], before["reserved"]
                for coord in coords:
                    placed, held = self.laid.get(coord), self.tokens.get(coord)
                    laid = _with_entry(laid, coord, None if placed is None else [placed[0], placed[1]])
                    tokens = _with_entry(tokens, coord, None if held is None else [list(s) for s in held])
                known = {
                    "laid": laid, "tokens": tokens,
                    "reserved": reserved if reserved == self.reserved else dict(sorted(self.reserved.items())),
                }
            self.__dict__["_json"] = known
        return known

    def _changed_on(self, after: Board, coord: str) -> Board:
        """`after`, a change of this board on `coord` alone, told the last JSON written in the boards it comes from
        (to_json) and the hexes changed since."""
        if "_json" in self.__dict__:
            after.__dict__["_json_before"] = (self.__dict__["_json"], (coord,))
        elif (before := self.__dict__.get("_json_before")) is not None:
            after.__dict__["_json_before"] = (before[0], (*before[1], coord))
        return after

    @classmethod
    def from_json(cls, map_def: MapDef, data: dict) -> Board:
        """The board of a state. A G is made for every question and the state's board changes far less often than
        that, so equal contents (in the same order) give the same Board, with its reach and chains already known:
        a Board never changes, so sharing one is safe."""
        return _board_of(
            map_def,
            tuple((coord, (name, rot)) for coord, (name, rot) in data["laid"].items()),
            tuple((coord, tuple(tuple(s) for s in per_node)) for coord, per_node in data["tokens"].items()),
            tuple(data["reserved"].items()),
        )


def _with_entry(entries: dict, key: str, value) -> dict:
    """The JSON entries of the hexes (in order) with `key`'s value set (removed when None): `entries` itself when
    that changes nothing, else a copy, the new key put in its place."""
    if entries.get(key) == value:
        return entries
    if value is None:
        out = dict(entries)
        del out[key]
    elif key in entries:
        out = dict(entries)
        out[key] = value
    else:
        items = list(entries.items())
        at = bisect_left(items, key, key=itemgetter(0))
        out = dict(items[:at])
        out[key] = value
        out.update(items[at:])
    return out


@lru_cache(maxsize=32)
def _board_of(map_def: MapDef, laid: tuple, tokens: tuple, reserved: tuple) -> Board:
    """Board.from_json's boards, by content (a replay asks about the same board across many actions; a live table's
    state is a copy, whose board is equal to the last)."""
    return Board(map_def, laid=dict(laid), tokens=dict(tokens), reserved=dict(reserved))


def forget_boards() -> None:
    """Forget the boards kept by content (`_board_of`, with what each has worked out: reach, chains, "new track"
    answers) and the chains and track kept per set of tiles: a benchmark replaying a game again starts as a process
    that has not seen that game's boards (bench/bench_18xx.py)."""
    _board_of.cache_clear()
    _chains_of.cache_clear()
    _track_of.cache_clear()


_NAME = itemgetter(0)  # a laid tile's name, of its (name, rotation)
NOWHERE = (None, None)  # MapDef._steps of an edge off the map
CHAINS_BEFORE = 16  # the boards before a lay whose chains a board made by lays may keep (Board.lay_tile)


@lru_cache(maxsize=64)
def _chains_of(map_def: MapDef, laid: tuple[tuple[str, tuple[str, int]], ...]) -> dict:
    """Board.chains of every board with these tiles: filled as chains are asked for."""
    return {}


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


@cache
def _ends(paths: tuple[tuple[End, End], ...]) -> dict[End, tuple[int, ...]]:
    """End -> indexes of the paths (of one hex) with that end. Kept per paths (a tile's geometry, as its rotated
    paths are: every lay asks it, and the legal lays for each variant they try); never to be changed."""
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

#: Why a tile of a colour the phase does not allow cannot be laid, by colour.
UNAVAILABLE = {"yellow": N_("Yellow tiles are not available in this phase."),
               "green": N_("Green tiles are not available in this phase."),
               "brown": N_("Brown tiles are not available in this phase."),
               "gray": N_("Gray tiles are not available in this phase.")}


def unavailable(colour: str) -> Msg:
    """The sentence that says tiles of `colour` are not laid in this phase."""
    if colour in UNAVAILABLE:
        return msg(UNAVAILABLE[colour])
    return msg("{colour} tiles are not available in this phase.", colour=colour.capitalize())


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
) -> Msg | None:
    """Why `lay` is illegal, as a sentence, or None when it is legal.

    colours: the tile colours the phase allows. corp: the corporation whose network the tile must touch, or None
    for a private's ability that needs no connection. special: a private's lay (label and city-count rules
    skipped). ability_tiles: tiles an ability may lay although they carry blocks_lay. blocked: hexes a private
    blocks now (a mapping to the company's name gives a better sentence).
    """
    blocked = blocked if isinstance(blocked, Mapping) else dict.fromkeys(blocked, msg("a private company"))
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
    walks: _Walks | None = None,
) -> Msg | None:
    """lay_problem, given what the caller works out once for the lays it asks together: the supply, the network,
    and (`most_exits`, `walks`) per-call keeps, shared by those lays only."""
    coord, name, rotation = lay.hex, lay.tile, lay.rotation
    where = board.map.place_name(coord)
    if coord not in board.map.printed:
        return msg("{hex} is not on the map.", hex=coord)
    if coord in blocked:
        return msg("{where} is blocked by {private}.", where=where, private=blocked[coord])
    new = board.map.tiles.get(name)
    if new is None or name not in supply:
        return msg("There is no tile {tile} in this game.", tile=name)
    if supply[name] <= 0:
        return msg("No tile {tile} is left.", tile=name)
    if new.blocks_lay and name not in ability_tiles:
        return msg("Tile {tile} can only be placed by a private company's ability.", tile=name)
    if new.colour not in colours:
        return unavailable(new.colour)
    old, old_rotation = board.tile(coord), board.rotation(coord)
    if not board.upgrades_to(coord, new, special):
        return msg("Tile {tile} cannot replace tile {old} on {where}.", tile=name, old=old.name, where=where)
    if rotation not in range(6):
        return msg("A rotation is 0 to 5.")
    if not keeps_track(old, old_rotation, new, rotation):
        return msg("Tile {tile} in rotation {rotation} does not keep the track already on {hex}.", tile=name,
                   rotation=rotation, hex=coord)
    if not keeps_cities(old, old_rotation, new, rotation):
        return msg("Tile {tile} in rotation {rotation} would merge, split or move the cities on {hex}.", tile=name,
                   rotation=rotation, hex=coord)
    exits = new.exits(rotation)
    if not all(board.map.linked(coord, e) for e in exits):
        if any(board.map.neighbour(coord, e) and not board.map.across(coord, e) for e in exits):
            return msg("Tile {tile} in rotation {rotation} would run track across an impassable border at {hex}.",
                       tile=name, rotation=rotation, hex=coord)
        return msg("Tile {tile} in rotation {rotation} would run track off the map or into a closed edge at {hex}.",
                   tile=name, rotation=rotation, hex=coord)
    if old.stubs and not old.stub_edges(old_rotation) <= exits:
        edges = ", ".join(str(e) for e in sorted(old.stub_edges(old_rotation) - exits))
        return msg("Tile {tile} in rotation {rotation} leaves the track stub of {where} (edge {edges}) unjoined.",
                   tile=name, rotation=rotation, where=where, edges=edges)
    reach = None
    if corp is not None:
        network = network or board.reachable(corp)
        reach = network.edges.get(coord, frozenset())
        if not reach:
            return msg("{corp} cannot reach {where}.", corp=corp, where=where)
        if not exits & reach:
            return msg("Tile {tile} in rotation {rotation} adds no track that {corp} can reach.", tile=name,
                       rotation=rotation, corp=corp)
    if board.map.max_exits and (problem := _max_exits_problem(board, coord, new, special, ability_tiles, supply,
                                                              reach, most_exits)):
        return problem
    if corp is not None and old.paths and coord not in board.map.mirrors and not _uses_new_track(board, lay, corp,
                                                                                                 walks):
        return msg("The new tile must give {corp} new track or change a city's revenue.", corp=corp)
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
) -> Msg | None:
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
        return msg("On {where} an upgrade must use a tile with the most exits: tile {best} ({most}), not tile "
                   "{tile} ({exits}).", where=board.map.place_name(coord), best=best[1], most=best[0], tile=new.name,
                   exits=len(new.exits()))
    return None


class _Walks(dict):
    """What the "new track" questions of one legal_lays call share: the variants' walks by their key
    (Board.variant_walk), and `steps`, the steps outside a variant's hex its forks' searches take (_Steps)."""

    def __init__(self):
        super().__init__()
        self.steps: dict = {}


def _uses_new_track(board: Board, lay: Lay, corp: str, walks: _Walks | None = None) -> bool:
    """The "semi-restrictive" rule: after an upgrade the corporation reaches new track or a city pays more. Once per
    board, lay and corporation (a state's board is shared by content: a table asking legal() again asks the same
    board). `walks`: the variants' walks the lays asked together share (see Board.variant_walk), else this lay's
    own."""
    key = (lay.hex, lay.tile, lay.rotation, corp)
    if (known := board._new_track.get(key)) is None:
        known = board._new_track[key] = _new_track_answer(board, lay, corp, _Walks() if walks is None else walks)
    return known


def _new_track_answer(board: Board, lay: Lay, corp: str, walks: _Walks) -> bool:
    after = board.lay_tile(lay.hex, lay.tile, lay.rotation)
    gains = _gains(board, after, lay.hex)
    if not gains:
        return False
    # The walk on the board after the lay goes as on the board before until it first comes into the hex: if it
    # comes by an edge a gained path starts at, it takes that path there (nothing of the hex is used yet).
    edge = board.first_entries(corp).get(lay.hex)
    if edge is not None and any(edge in after.paths(lay.hex)[index] for index in gains):
        return True
    if (answer := _answer_from_trace(board, after, lay.hex, gains, corp)) is not None:
        return answer
    # else the walk of the board after the lay answers, read from the walk it shares with the lays of the same variant
    return _answer_from_variant(board, after, lay.hex, gains, corp, walks)


def _answer_from_variant(board: Board, after: Board, coord: str, gains: set[int], corp: str,
                         walks: _Walks) -> bool:
    """The "new track" answer from the walk of the board after the lay with its gained paths left out
    (Board.variant_walk, kept in `walks`). Until it first takes a gained path, the walk after the lay goes exactly
    as that one: a gained path is only ever tried when the walk looks at the hex's paths by one of its ends, and
    then it is taken unless the chain has left the hex by one of its edges (a path walked before is no gained
    one). So the walk after the lay takes a gained path if and only if that walk looks at the hex by one of the
    path's ends with none of its edges left by. Lays with the same paths besides the gained ones, the same
    converging exits, the same passable nodes and the same gained paths share one answer."""
    new_paths, new_at = after.paths(coord), after._paths_at[coord]
    rest = tuple(path for j, path in enumerate(new_paths) if j not in gains)
    converging = sum(1 << edge for edge in hexes.EDGES if len(new_at.get(edge, ())) > 1)
    through = tuple(node.kind != "offboard" and not after.blocks((coord, i), corp)
                    for i, node in enumerate(after.tile(coord).nodes))
    takes = tuple((ends, sum(1 << e for e in ends if type(e) is int)) for ends in (new_paths[j] for j in sorted(gains)))
    key = (corp, coord, rest, converging, through, tuple(after.token_nodes(corp)))
    if (walk := walks.get(key)) is None:
        walk = walks[key] = board.variant_walk(*key, steps=walks.steps)
    return walk.takes(takes)


def _is_chain(chain: list[tuple[str, int, End]], last: End, track: Mapping, paths: set[PathRef],
              used: set[tuple[str, int]], nodes: set[NodeRef], over: str, left: int, edges: int) -> bool:
    """Whether the states (hex, path, the end it is entered by) found by _fork_takes's search are a chain its
    converging walk takes, looking at `over` at the end, by `last`, with none of `edges` left by: no path taken twice
    or already walked, no node passed twice or already walked, no path of a hex at an edge the chain has left that
    hex by (`left`: the edges of `over` left by before it)."""
    taken: set[PathRef] = set()
    passed: set[NodeRef] = set()
    crossed: set[tuple[str, int]] = set()
    for i, (here, p, _) in enumerate(chain):
        if (here, p) in paths or (here, p) in taken or any(
                type(e) is int and ((here, e) in used or (here, e) in crossed) for e in track[here][p]):
            return False
        taken.add((here, p))
        leaving = chain[i + 1][2] if i + 1 < len(chain) else last
        if type(leaving) is str:  # on through a node of this hex (the last: the node looked at)
            ref = (here, int(leaving[1:]))
            if ref in nodes or ref in passed:
                return False
            passed.add(ref)
        elif i + 1 < len(chain):  # across an edge: the next path is entered by the edge opposite
            out = (leaving + 3) % 6
            crossed.add((here, out))
            if here == over:
                left |= 1 << out
    return not edges & left


@dataclass(frozen=True, eq=False)
class _Fork:
    """Where a variant's walk (Board._traced_walk) would walk a converging part: it crosses into `coord` by its edge
    `back`, with the paths, edges left by and nodes marked at that moment, and `left` the edges of the variant's hex
    left by."""

    coord: str
    back: int
    paths: frozenset[PathRef]
    used: frozenset[tuple[str, int]]
    nodes: frozenset[NodeRef]
    left: int


class _VariantWalk:
    """The walk of a board with one hex's track changed (Board.variant_walk), as the "new track" questions about that
    hex read it: `looks`, each (end, edges of the hex left by) it looks at the hex by outside converging mode, and
    `forks`, where it would walk a converging part. A converging walk leaves nothing behind but its looks, so the walk
    after a fork goes the same whether it is walked or not: a question is answered from the looks, then from each
    fork, by a search (_fork_takes) or, where a search cannot tell, by walking that part (once per fork)."""

    def __init__(self, over: str, looks: set[tuple[End, int]], forks: tuple[_Fork, ...], graph: _Steps,
                 fork_looks: Callable[[_Fork], set[tuple[End, int]]]):
        self.over, self.looks, self.forks = over, looks, forks
        self._graph = graph
        self._fork_looks = fork_looks
        self._told: dict[tuple[int, tuple[End, End], int], bool | None] = {}  # (fork, path's ends, its edges) ->
        self._walked: dict[int, set[tuple[End, int]]] = {}  # fork -> the looks of its converging walk
        self._reach: dict[int, set[End]] = {}  # fork -> the ends of the hex a search from it comes to (_fork_reach)
        self._answers: dict[tuple, bool] = {}  # takes -> its answer (lays of other tiles may gain the same paths)

    def takes(self, takes: tuple[tuple[tuple[End, End], int], ...]) -> bool:
        """Whether the walk looks at its hex so that it would take one of `takes` (a gained path's ends and its
        edges' bit mask): by one of its ends, with none of its edges left by."""
        if (known := self._answers.get(takes)) is None:
            known = self._answers[takes] = self._takes(takes)
        return known

    def _takes(self, takes: tuple[tuple[tuple[End, End], int], ...]) -> bool:
        def wanted(looks: set[tuple[End, int]]) -> bool:
            return any(end in ends and not edges & left for end, left in looks for ends, edges in takes)

        if wanted(self.looks):
            return True
        for i, fork in enumerate(self.forks):
            unknown = False
            for ends, edges in takes:
                if edges & fork.left:
                    continue  # the hex is left by this path's edge already: it is not taken in this part
                if (reach := self._reach.get(i)) is None:
                    reach = self._reach[i] = _fork_reach(self._graph, fork)
                if ends[0] not in reach and ends[1] not in reach:
                    continue  # no chain from the fork comes to the hex by one of this path's ends
                if (told := self._told.get((i, ends, edges), ())) == ():
                    told = self._told[i, ends, edges] = _fork_takes(self._graph, fork, ends, edges)
                if told:
                    return True
                unknown = unknown or told is None
            if unknown:
                if (looks := self._walked.get(i)) is None:
                    looks = self._walked[i] = set(self._fork_looks(fork))
                if wanted(looks):
                    return True
        return False


class _Steps(dict):
    """The steps of a variant's graph that _fork_reach's and _fork_takes's searches take out of each state (hex, the
    end a chain is at there), worked out once per state (the forks' searches go over the same states again and
    again): per path there, (its index, its key, the (hex, edge) of each of its ends that is an edge or None, the node
    it passes or None, the state it comes to, its other end). Paths into a node no train passes (an offboard, a city
    others fill) and edges off the map are left out. Outside the variant's hex every variant of the board has the
    board's graph: those states' steps are shared by the walks of one legal_lays call (`shared`)."""

    def __init__(self, track: Mapping, paths_at: Mapping, steps: Mapping, through: Callable[[NodeRef], bool],
                 over: str, shared: dict):
        super().__init__()
        self.graph, self.shared = (track, paths_at, steps, through, over), shared

    def __missing__(self, state: tuple[str, End]) -> tuple[tuple, ...]:
        track, paths_at, steps, through, over = self.graph
        here, entered = state
        if here != over and (known := self.shared.get(state)) is not None:
            self[state] = known
            return known
        found = []
        for p in paths_at.get(here, {}).get(entered, ()):
            a, b = track[here][p]
            edges = ((here, a) if type(a) is int else None, (here, b) if type(b) is int else None)
            end = b if a == entered else a
            if type(end) is str:
                ref = (here, int(end[1:]))
                if through(ref):
                    found.append((p, (here, p), *edges, ref, (here, end), end))
            elif (other := steps.get((here, end), NOWHERE)[1]) is not None:
                found.append((p, (here, p), *edges, None, (other, (end + 3) % 6), end))
        known = self[state] = tuple(found)
        if here != over:
            self.shared[state] = known
        return known


def _fork_reach(steps: _Steps, fork: _Fork) -> set[End]:
    """The ends by which _fork_takes's search, without its stop at the gained path's edges, comes to the variant's
    hex: its steps are a superset of that search's for every gained path, so a path with neither end here is not
    found by it (False), and one search answers that for all the gained paths asked of the fork."""
    paths, used, nodes = fork.paths, fork.used, fork.nodes
    start = (fork.coord, fork.back)
    seen = {start}
    stack = [start]
    reach: set[End] = set()
    over = steps.graph[4]
    while stack:
        for _, key, edge_a, edge_b, ref, step, _ in steps[stack.pop()]:
            if key in paths or ref in nodes or edge_a in used or edge_b in used:
                continue
            if step[0] == over:
                reach.add(step[1])
            if step not in seen:
                seen.add(step)
                stack.append(step)
    return reach


def _fork_takes(steps: _Steps, fork: _Fork, ends_j: tuple[End, End], edges_j: int) -> bool | None:
    """Whether the converging walk from `fork` would look at the variant's hex so that it would take the gained path
    `ends_j` (its edges the bits `edges_j`), told without walking it: True, False, or None when that cannot be told.

    Such a walk leaves nothing behind but its looks (every path, node and edge it marks it unmarks), and it tries
    every chain from the fork, depth first: each sequence of paths joined by a node or across an edge that takes no
    path already walked (`fork.paths`), passes no node already walked, and takes no path of a hex by an edge the chain
    has left that hex by. So it looks at the hex as the gained path wants iff such a chain gets there by one of the
    path's ends without leaving the hex by one of its edges first. A search over (hex, the end a chain is at there)
    that keeps the marks of the fork but not the chain's own reaches wherever such a chain does (none found: False);
    the first it finds is checked as a chain (then True; if it takes a path twice or crosses back where it left,
    which a search cannot rule out, None: the part is walked)."""
    paths, used, nodes = fork.paths, fork.used, fork.nodes
    # states: (hex, the end a chain is at there: an edge it came in by or a node it came to)
    start = (fork.coord, fork.back)
    came: dict[tuple[str, End], tuple | None] = {start: None}  # -> (state before, path taken)
    stack: list[tuple[str, End]] = [start]
    found = None
    track, _, _, _, over = steps.graph
    while stack and found is None:
        at = stack.pop()
        leaving = at[0] == over
        for p, key, edge_a, edge_b, ref, step, end in steps[at]:
            if key in paths or ref in nodes or edge_a in used or edge_b in used:
                continue
            if step[0] == over and step[1] in ends_j:
                found = (at, p, end)
                break
            if leaving and ref is None and edges_j >> end & 1:
                continue  # leaving the hex by the gained path's edge: it would not be taken after
            if step not in came:
                came[step] = (at, p)
                stack.append(step)
    if found is None:
        return False
    at, p, last = found
    chain = [(at[0], p, at[1])]
    while (before := came[at]) is not None:
        at, p = before
        chain.append((at[0], p, at[1]))
    chain.reverse()
    return True if _is_chain(chain, last, track, paths, used, nodes, over, fork.left, edges_j) else None


def _answer_from_trace(board: Board, after: Board, coord: str, gains: set[int], corp: str) -> bool | None:
    """The "new track" answer read from the walk on the board before the lay (Board.trace), where the walk after it
    goes step for step the same until it first takes a gained path; None when that cannot be told (the walk after
    is then needed). The walks are alike while: every old path of the hex is a path of the new tile with the same
    ends, in the same order among the paths of each end (only gained paths are new); each node of the hex lets a
    train through in both or neither; the corporation's tokens are where they were; and no exit the walk leaves
    the hex by outside converging mode becomes converging (or stops being). Then the walk after takes a new gained
    path when the walk before looked at the hex's paths by one of its ends with none of its edges left by, and a
    kept one (a city that pays more) when the walk before took it."""
    old_paths, new_paths = board.paths(coord), after.paths(coord)
    old_at, new_at = board._paths_at[coord], after._paths_at[coord]
    index_of = {}
    for i, path in enumerate(old_paths):
        index_of.setdefault(path, i)
        if type(path[0]) is not str or type(path[1]) is not str:  # at most one node: either way round walks alike
            index_of.setdefault(path[::-1], i)
    kept: dict[int, int] = {}  # new path -> the old path it is
    for j, path in enumerate(new_paths):
        i = index_of.get(path)
        if i is not None and i not in kept.values():
            kept[j] = i
    if len(kept) != len(old_paths) or any(j not in gains for j in range(len(new_paths)) if j not in kept):
        return None
    for end, olds in old_at.items():
        if [kept[j] for j in new_at.get(end, ()) if j in kept] != list(olds):
            return None
    old_tile, new_tile = board.tile(coord), after.tile(coord)
    for i in range(min(len(old_tile.nodes), len(new_tile.nodes))):
        if (old_tile.nodes[i].kind == "offboard") != (new_tile.nodes[i].kind == "offboard") or (
                board.blocks((coord, i), corp) != after.blocks((coord, i), corp)):
            return None
    if after.token_nodes(corp) != board.token_nodes(corp):
        return None
    trace = board.trace(corp)
    for edge in range(6):
        if (len(old_at.get(edge, ())) > 1) != (len(new_at.get(edge, ())) > 1) and (coord, edge) in trace.leaves:
            return None
    if any((coord, kept[j]) in trace.walked for j in gains if j in kept):
        return True
    looks = trace.looks.get(coord, ())
    for j in gains:
        if j in kept:
            continue
        ends = new_paths[j]
        edges = sum(1 << e for e in ends if type(e) is int)
        if any(end in ends and not edges & left for end, left in looks):
            return True
    return False


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
    blocked = blocked if isinstance(blocked, Mapping) else dict.fromkeys(blocked, msg("a private company"))
    supply = board.supply(optional_rules)
    # the "new track" rule reads the traced walk; the reach and the first entries are read from it too, instead of
    # two more walks of the same network (the board keeps all three)
    board.trace(corp)
    network = board.reachable(corp)
    most_exits: dict[tuple[str, str], tuple[int, str]] = {}
    walks = _Walks()  # the variants' walks, shared by this call's lays (see Board.variant_walk)
    # the tiles that may be laid at all, by colour: an upgrade is always of the next colour (tiles.upgrades_to)
    by_colour: dict[str, list[tuple[str, TileDef]]] = {}
    for name, left in supply.items():
        new = board.map.tiles[name]
        if left > 0 and not new.blocks_lay and new.colour in colours:
            by_colour.setdefault(new.colour, []).append((name, new))
    found = []
    for coord in sorted(network.edges):
        if coord in blocked or coord not in board.map.printed:
            continue
        old, old_rotation = board.tile(coord), board.rotation(coord)
        for name, new in by_colour.get(next_colour(old.colour), ()):
            if not board.upgrades_to(coord, new):
                continue
            same_track = set()  # a symmetric tile lays the same track at several rotations: offer it once
            # only the rotations that keep the old track and cities (_lay_problem refuses the others)
            for rotation in upgrade_rotations(old, old_rotation, new):
                track = _track_set(new, rotation)
                lay = Lay(coord, name, rotation)
                if track not in same_track and _lay_problem(board, lay, colours, corp, False, frozenset(), blocked,
                                                            supply, network, most_exits, walks) is None:
                    same_track.add(track)
                    found.append(lay)
    return sorted(found)


def _track_set(tile: TileDef, rotation: int) -> frozenset[frozenset[End]]:
    """The track `tile` lays at `rotation`, as a set of paths without their order (rotations of a symmetric tile
    that lay the same track are one lay); once per tile and rotation."""
    if (known := _TRACK_SETS.get((tile.name, rotation))) is None or known[0] is not tile:
        known = _TRACK_SETS[tile.name, rotation] = (tile, frozenset(frozenset(p) for p in tile.rotated_paths(rotation)))
    return known[1]


_TRACK_SETS: dict[tuple[str, int], tuple[TileDef, frozenset[frozenset[End]]]] = {}


def check_lay(board: Board, lay: Lay, colours: Iterable[str], corp: str | None, **rules) -> Board:
    """Lay a tile if it is legal, else raise RuleError with the reason."""
    problem = lay_problem(board, lay, colours, corp, **rules)
    if problem:
        raise RuleError(problem)
    return board.lay_tile(lay.hex, lay.tile, lay.rotation)


# ---- tokens -----------------------------------------------------------------------------------------

def token_problem(board: Board, corp: str, coord: str, node: int = 0) -> Msg | None:
    """Why `corp` may not place a token in this city now, or None (cost and token supply are the caller's)."""
    if coord not in board.map.printed:
        return msg("{hex} is not on the map.", hex=coord)
    where = board.map.place_name(coord)
    tile = board.tile(coord)
    if node not in range(len(tile.nodes)) or tile.nodes[node].kind != "city":
        if node == 0 or not tile.cities:
            return msg("There is no city on {where}.", where=where)
        return msg("{where} has no city {node}.", where=where, node=node)
    if any(corp in board.slots(coord, i) for i in range(len(tile.nodes))):
        return msg("{corp} already has a token on {where}.", corp=corp, where=where)
    if (coord, node) not in board.reachable(corp).nodes:
        return msg("{corp} cannot reach {where}.", corp=corp, where=where)
    if board.free_slot(coord, corp, node) is None:
        return msg("{where} has no free slot for {corp}.", where=where, corp=corp)
    return None


def legal_tokens(board: Board, corp: str) -> list[NodeRef]:
    network = board.reachable(corp)
    return sorted(ref for ref in network.nodes if token_problem(board, corp, *ref) is None)
