"""Tokai Baron's printed parts as data: the map, the destination tables, the route cards and the payouts.

Pure stdlib. The files live in ``engines/tokai/data`` (NOTE.md says where each fact comes from). A point is a
station; two points are joined when they are consecutive on a line, and the join is tagged with every line that
runs there (a few stretches carry two lines, e.g. 名古屋-栄生-東枇杷島 on the 名古屋本線 and the 犬山線)."""
from __future__ import annotations

import json
from collections import deque
from functools import cache
from itertools import pairwise
from pathlib import Path

DATA = Path(__file__).parent / "data"
ANY = "any"  # the 任意 cell of the 東 table: the player names any destination point

# The payout rule (NOTE.md): 680 yen per hop on the shortest route, rounded to the nearest 1,000 yen.
# Hops are counted on the ordinary lines only: the Shinkansen is a faster, dearer way to make the same trip,
# just as JR charges a Shinkansen trip's base fare by the ordinary line's distance.
YEN_PER_HOP = 680
PAYOUT_BASE = 0
PAYOUT_UNIT = 1000
PAYOUT_SKIPS = frozenset({"jr_shinkansen"})

Graph = dict[str, dict[str, frozenset[str]]]  # point -> neighbour -> lines joining them


def _load(name: str) -> dict:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


@cache
def load_map() -> dict:
    return _load("map.json")


@cache
def load_destinations() -> dict:
    return _load("destinations.json")


@cache
def load_route_cards() -> dict:
    return _load("route_cards.json")


@cache
def load_payouts() -> dict:
    return _load("payouts.json")


@cache
def stations() -> dict[str, dict]:
    return {s["id"]: s for s in load_map()["stations"]}


@cache
def lines() -> dict[str, dict]:
    return {line["id"]: line for line in load_map()["lines"]}


@cache
def route_cards() -> dict[str, dict]:
    """Route cards by id, in the card list's order."""
    return {c["id"]: c for c in load_route_cards()["cards"]}


@cache
def station_id(name: str) -> str:
    """The point called ``name``, also by a merged station's name or another spelling (藤が丘 for 藤ヶ丘)."""
    for s in load_map()["stations"]:
        if name == s["name"] or name in s.get("also", ()):
            return s["id"]
    raise KeyError(f"No point called {name!r} on the map.")


def line_pairs(line: dict) -> list[tuple[str, str]]:
    """Consecutive points of a line, in its order; a loop (the 名城線) also joins its last point to its first."""
    seq = line["stations"]
    pairs = list(pairwise(seq))
    if line.get("loop"):
        pairs.append((seq[-1], seq[0]))
    return pairs


def build_graph(skip: frozenset[str] = frozenset()) -> Graph:
    """Every point, joined to its neighbours on every line not in ``skip``."""
    tags: dict[str, dict[str, set[str]]] = {sid: {} for sid in stations()}
    for line in lines().values():
        if line["id"] in skip:
            continue
        for a, b in line_pairs(line):
            tags[a].setdefault(b, set()).add(line["id"])
            tags[b].setdefault(a, set()).add(line["id"])
    return {a: {b: frozenset(ids) for b, ids in nbrs.items()} for a, nbrs in tags.items()}


@cache
def movement_graph() -> Graph:
    return build_graph()


@cache
def payout_graph() -> Graph:
    return build_graph(PAYOUT_SKIPS)


def hop_distances(graph: Graph, start: str) -> dict[str, int]:
    """Breadth-first search: the fewest hops from ``start`` to every point it reaches."""
    dist = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for there in graph[here]:
            if there not in dist:
                dist[there] = dist[here] + 1
                queue.append(there)
    return dist


@cache
def _payout_hops_from(start: str) -> dict[str, int]:
    return hop_distances(payout_graph(), start)


def hops(a: str, b: str, graph: Graph | None = None) -> int:
    """Fewest hops between two points, on the whole map unless another graph is given."""
    dist = hop_distances(graph if graph is not None else movement_graph(), a)
    return dist[b]


def payout_hops(a: str, b: str) -> int:
    return _payout_hops_from(a)[b]


def payout_for_hops(n: int, base: int | None = None, per_hop: int | None = None) -> int:
    """PAYOUT_BASE plus YEN_PER_HOP a hop, to the nearest 1,000 (a half rounds up)."""
    base = PAYOUT_BASE if base is None else base
    per_hop = YEN_PER_HOP if per_hop is None else per_hop
    return (base + n * per_hop + PAYOUT_UNIT // 2) // PAYOUT_UNIT * PAYOUT_UNIT


def payout(a: str, b: str) -> int:
    """What a trip between two points pays, by the stated rule (the stored table must agree)."""
    return payout_for_hops(payout_hops(a, b))


def payout_table_lookup(a: str, b: str) -> int:
    """The printed chart's value: what the engine should read at play time."""
    table = load_payouts()
    index = {p: i for i, p in enumerate(table["points"])}
    return table["thousands_of_yen"][index[a]][index[b]] * PAYOUT_UNIT


def region_of_roll(colour_die: int, white_total: int) -> str:
    """The region table: the coloured die's parity crossed with the two white dice's total."""
    column = "odd" if colour_die % 2 else "even"
    return load_destinations()["region_table"][column][str(white_total)]


def point_of_roll(region: str, colour_die: int, white_total: int) -> str:
    """A region's own table, read the same way; may be ANY (任意)."""
    column = "odd" if colour_die % 2 else "even"
    return load_destinations()["tables"][region][column][str(white_total)]


@cache
def destination_points() -> tuple[str, ...]:
    """Every point some table can name, region by region, in table order, without repeats."""
    seen: dict[str, None] = {}
    for table in load_destinations()["tables"].values():
        for column in ("odd", "even"):
            for point in table[column].values():
                if point != ANY:
                    seen.setdefault(point)
    return tuple(seen)


@cache
@cache
def _region_index() -> dict[str, str]:
    """point -> the region whose table names it (each point is in one table only)."""
    return {point: region for region, table in load_destinations()["tables"].items()
            for column in ("odd", "even") for point in table[column].values() if point != ANY}


def region_of_point(point: str) -> str:
    try:
        return _region_index()[point]
    except KeyError:
        raise KeyError(f"{point!r} is in no region's table.") from None


def card_pairs(card: dict) -> list[tuple[str, str, str]]:
    """The (line, point, point) hops a route card covers, section by section."""
    out = []
    for sec in card["sections"]:
        seq = sec["stations"]
        out.extend((sec["line"], a, b) for a, b in pairwise(seq))
    return out


def payout_matrix(points: tuple[str, ...] | list[str]) -> list[list[int]]:
    """The chart in thousands of yen, computed by the rule (used to write payouts.json and to check it)."""
    return [[payout(a, b) // PAYOUT_UNIT for b in points] for a in points]
