"""Train routes: their legality, their revenue, and the best runs for a corporation's trains.

A chain is the track walked from one node (city, town, offboard) to the next; a route is a sequence of chains
through distinct nodes. Every node on a route is a stop; the stops of the kinds a train counts (all of them for
1889's trains) count toward its distance, and a train may pass others (1867: towns) and is paid for the best of
them while its distance has room (18xx.games's distance list: `nodes`, `pay`, `visit`). A route needs two
stops and one of the corporation's tokens, may pass through neither an offboard nor a city that other
corporations fill, and a corporation's routes may not share track: each hex border is used at most once.
"""
from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import chain as one_after_another
from itertools import pairwise
from typing import NamedTuple

from engines.base import RuleError
from engines.e18xx.board import NOWHERE, Board, EdgeRef, NodeRef, PathRef
from engines.text import Msg, Name, msg

UNLIMITED = 999
MAX_VISITS = 14  # the most stops the router lets a train that passes some stops free visit (1867: towns, 5+5E)


ALL_KINDS = frozenset({"city", "town", "offboard"})


@dataclass(frozen=True)
class Train:
    name: str
    distance: int  # stops of the counted kinds it may visit, and the most it is paid for
    diesel: bool = False  # pays the "diesel" revenue of offboards
    counts: frozenset[str] = ALL_KINDS  # the stop kinds that count toward the distance
    multiplier: int = 1  # 2+2, 5+5E: every stop pays double
    towns: int = 0  # 1890's 2+2 and 3+3: besides `distance` counted stops, up to this many towns, all paid

    def optional(self, kind: str) -> bool:
        """A stop it may pass without counting it, paid only while the distance has room (1867's towns)."""
        return kind not in self.counts


#: A train that may run any route: route_from_connections judges a reading's track and tokens, not its length.
ANY_TRAIN = Train("any", UNLIMITED)


def train(name: str) -> Train:
    """A train by its name: "2".."6" run that many stops; "D" runs any number and pays diesel revenue."""
    base = name.split("-")[0]  # accept 18xx.games train ids such as "3-1"
    if base.upper() == "D":
        return Train(base, UNLIMITED, diesel=True)
    return Train(base, int(base))


def train_from_def(t) -> Train:
    """A title's train (companies.Train): an int distance counts every stop, None is a D; a list is 18xx.games's
    distance ({nodes, pay, visit}): the part that pays sets the distance and the kinds counted."""
    if t.distance is None:
        return Train(t.name, UNLIMITED, diesel=True, multiplier=t.multiplier)
    if isinstance(t.distance, int):
        return Train(t.name, t.distance, multiplier=t.multiplier)
    paid = next(d for d in t.distance if d["pay"] > 0)
    return Train(t.name, paid["pay"], counts=frozenset(paid["nodes"]), multiplier=t.multiplier)


def counted(board: Board, stops: Iterable[NodeRef], train_: Train) -> int:
    return sum(board.node(ref).kind in train_.counts for ref in stops)


class Chain(NamedTuple):
    """Track from one node to the next (a named tuple: a cold replay makes thousands, and a frozen dataclass cost
    three times as much to make)."""

    a: NodeRef
    b: NodeRef
    paths: tuple[PathRef, ...]
    borders: frozenset[EdgeRef]
    hexes: tuple[str, ...]  # hexes walked from a to b, as 18xx.games writes a connection

    def reversed(self) -> Chain:
        return Chain(self.b, self.a, self.paths[::-1], self.borders, self.hexes[::-1])


class Route(NamedTuple):
    """Stops and the chains between them (a named tuple, as Chain: a recorded run reads several per route)."""

    stops: tuple[NodeRef, ...]
    chains: tuple[Chain, ...]

    @property
    def borders(self) -> frozenset[EdgeRef]:
        return frozenset().union(*(c.borders for c in self.chains))

    @property
    def hexes(self) -> tuple[str, ...]:
        return tuple(coord for coord, _ in self.stops)


@dataclass(frozen=True)
class Run:
    train: Train
    route: Route | None
    revenue: int


# ---- chains -----------------------------------------------------------------------------------------

def chains_from(board: Board, start: NodeRef) -> tuple[Chain, ...]:
    """Every chain leaving `start`: plain track followed, branch by branch, to the next node. A board never
    changes, so each node's chains are followed once per board (routes, runs and reach ask again and again); a
    board made by a lay keeps the chains of the board before whose walk never looked at the hex laid (track changes
    only there), so a replay does not follow every chain again after each lay."""
    known = board.chains.get(start)
    if known is None:
        known = board.chains[start] = _kept_chains(board, start) or _followed_chains(board, start)
    return known[0]


def _followed_chains(board: Board, start: NodeRef) -> tuple[tuple[Chain, ...], frozenset[str]]:
    """(the chains leaving `start`, the hexes their walk looked at): Board.chains's entry."""
    looks: set[str] = set()
    return tuple(_follow_chains(board, start, looks=looks)), frozenset(looks)


def _kept_chains(board: Board, start: NodeRef) -> tuple[tuple[Chain, ...], frozenset[str]] | None:
    """The entry of the latest board before the lays that made `board` (Board.lay_tile's `_chains_before`) that has
    one, if its walk never looked at a hex laid since."""
    laid: set[str] = set()
    for chains, coord in board.__dict__.get("_chains_before", ()):
        laid.add(coord)
        known = chains.get(start) if chains is not None else None
        if known is not None:
            return None if laid & known[1] else known
    return None


def leads_to_stop(board: Board, start: NodeRef) -> bool:
    """Whether track from `start` leads to a stop, `start` itself counting when its track comes back to it (as
    18xx.games's walk for a major's home finds any stop: G1867 unconnected_hexes)."""
    return bool(chains_from(board, start)) or bool(_follow_chains(board, start, loops=True))


def _follow_chains(board: Board, start: NodeRef, loops: bool = False, looks: set[str] | None = None) -> list[Chain]:
    """The chains leaving `start`; with `loops`, also those that come back to it. `looks` gets every hex whose track
    the walk looked at (the chains are the same on any board whose track differs only elsewhere)."""
    found: list[Chain] = []
    coord, index = start
    if looks is not None:
        looks.add(coord)

    # the board's and the map's tables at hand (Board.paths, paths_at, border and MapDef.across, without the calls)
    steps, track, ends, border_names = board.map._steps, board._track, board._paths_at, board.map._border_names

    def walk(at: str, edge: int, paths: list[PathRef], borders: set[EdgeRef], walked: list[str]) -> None:
        other = steps.get((at, edge), NOWHERE)[1]
        if other is None:
            return
        if looks is not None:
            looks.add(other)
        back = (edge + 3) % 6  # hexes.opposite
        there = track[other]
        for p in ends.get(other, {}).get(back, ()):
            a, b = there[p]
            out = b if a == back else a
            if isinstance(out, str):
                end = (other, int(out[1:]))
                if end != start or loops:
                    found.append(Chain(start, end, (*paths, (other, p)), frozenset(borders), (*walked, other)))
                continue
            border = border_names[other, out]
            if border in borders:
                continue
            walk(other, out, [*paths, (other, p)], borders | {border}, [*walked, other])

    node_end = f"_{index}"
    for p in board.paths_at(coord, node_end):
        a, b = board.paths(coord)[p]
        out = b if a == node_end else a
        if isinstance(out, str):
            if out != node_end:
                found.append(Chain(start, (coord, int(out[1:])), ((coord, p),), frozenset(), (coord,)))
            continue
        walk(coord, out, [(coord, p)], {board.border(coord, out)}, [coord])
    return found


# ---- one route --------------------------------------------------------------------------------------

def stop_revenue(board: Board, ref: NodeRef, train_: Train, colours: Sequence[str]) -> int:
    return board.node(ref).revenue_for(tuple(colours), train_.diesel)


def paid_stops(board: Board, stops: Sequence[NodeRef], train_: Train, colours: Sequence[str]) -> list[NodeRef]:
    """The stops a train is paid for: every counted one, then the richest others while the distance has room."""
    if train_.counts == ALL_KINDS:
        return list(stops)
    must = [ref for ref in stops if board.node(ref).kind in train_.counts]
    others = sorted((ref for ref in stops if board.node(ref).kind not in train_.counts),
                    key=lambda ref: -stop_revenue(board, ref, train_, colours))
    if train_.towns:
        return must + others[:train_.towns]
    return must + others[:max(0, train_.distance - len(must))]


def route_revenue(board: Board, route: Route, train_: Train, colours: Sequence[str]) -> int:
    paid = paid_stops(board, route.stops, train_, colours)
    return train_.multiplier * sum(stop_revenue(board, ref, train_, colours) for ref in paid)


def distinct_groups(board: Board, stops: Iterable[NodeRef]) -> bool:
    """At most one stop of each group of offboards (1867's two Detroit hexes)."""
    seen: set[str] = set()
    for ref in stops:
        for group in board.node(ref).groups:
            if group in seen:
                return False
            seen.add(group)
    return True


def hexes_once(stops: Sequence[NodeRef]) -> bool:
    """No two stops in one hex (1867's "no hex twice"; 1807's BGM, two-city and London hexes are one place each):
    two cities of one hex are refused even one right after the other, a route leaving the hex and coming back to its
    other city (18xx.games's Route#hexes lists each stop's hex)."""
    coords = [coord for coord, _ in stops]
    return len(coords) == len(set(coords))


def route_problem(board: Board, corp: str, route: Route, train_: Train, on_board: bool = False) -> Msg | None:
    """Why this route may not be run by this train, or None. `on_board`: the route is a reading of this board's
    chains (route_from_connections), its stops their ends: neither whether its chains are on the board nor whether
    they join its stops is looked at again."""
    stops = route.stops
    if len(stops) < 2:
        return msg("A route needs at least two stops.")
    if len(stops) > train_.distance and counted(board, stops, train_) > train_.distance:  # counted <= len(stops)
        return msg("A {train}-train runs to {distance} stops; this route has {stops}.", train=train_.name,
                   distance=train_.distance, stops=counted(board, stops, train_))
    if train_.towns and len(stops) - counted(board, stops, train_) > train_.towns:
        return msg("A {train}-train runs to {towns} towns; this route has {stops}.", train=train_.name,
                   towns=train_.towns, stops=len(stops) - counted(board, stops, train_))
    if len(set(stops)) != len(stops):
        return msg("A route may not visit a stop twice.")
    if not distinct_groups(board, stops):
        return msg("A route may visit only one stop of a group (e.g. one of Detroit's hexes).")
    if not on_board and (len(route.chains) != len(stops) - 1 or any(
        (c.a, c.b) != pair for c, pair in zip(route.chains, pairwise(stops), strict=True)
    )):
        return msg("The route's track does not join its stops.")
    seen: set[EdgeRef] = set()
    for chain in route.chains:
        if chain.borders & seen:
            return msg("A route may not use the same track twice.")
        seen |= chain.borders
        if not on_board and not _chain_on_board(board, chain):
            return msg("The route follows track that is not on the board.")
    for ref in stops[1:-1]:
        if board.node(ref).kind == "offboard":
            return msg("A route may not run through {where}; an offboard ends a route.", where=_where(board, ref))
        if board.blocks(ref, corp):
            return msg("{where} is full of other companies' tokens; {corp} may not run through it.",
                       where=_where(board, ref), corp=corp)
    if not any(corp in board.slots(*ref) for ref in stops if board.node(ref).kind == "city"):
        return msg("A route must include a city with a {corp} token.", corp=corp)
    return None


def runs_problem(board: Board, corp: str, runs: Sequence[tuple[Train, Route]]) -> Msg | None:
    """Why this set of runs is illegal (each route, and no track shared between them), or None."""
    used: set[EdgeRef] = set()
    for train_, route in runs:
        problem = route_problem(board, corp, route, train_)
        if problem:
            return problem
        if route.borders & used:
            return msg("Two trains may not run on the same track.")
        used |= route.borders
    return None


def check_runs(board: Board, corp: str, runs: Sequence[tuple[Train, Route]], colours: Sequence[str]) -> int:
    """The revenue of legal runs; raises RuleError with the reason otherwise."""
    problem = runs_problem(board, corp, runs)
    if problem:
        raise RuleError(problem)
    return sum(route_revenue(board, route, train_, colours) for train_, route in runs)


def _chain_on_board(board: Board, chain: Chain) -> bool:
    return any(c.b == chain.b and c.paths == chain.paths for c in chains_from(board, chain.a))


def _where(board: Board, ref: NodeRef) -> Name:
    return board.map.place_name(ref[0])


def route_from_connections(board: Board, connections: Sequence[Sequence[str]], corp: str | None = None,
                           accept=None) -> Route:
    """A route from 18xx.games' `connections`: chains of hexes, node to node, each in either direction.

    Hexes can leave a choice (two cities of one hex on the same track): the first reading that joins up is taken,
    or with `corp` named the first that also has one of its tokens and runs through no city closed to it.
    """
    if not connections:
        raise RuleError("A route needs at least two stops.")
    options = [_chains_matching(board, hex_list) for hex_list in connections]
    for found in options:
        if not found:
            raise RuleError("The route follows track that is not on the board.")
    if len(options) == 1 and len(options[0]) == 1:  # one chain fits: read either way round, no choice (below)
        only = options[0][0]
        return Route((only.a, only.b), (only,))
    # Readings that cross no hex edge twice first; failing those, any that joins up, as 18xx.games reads a recorded
    # game without checking its routes (5033.json #630 crosses D9-E8 on two tracks); route_problem judges them.
    for disjoint in (True, False):
        readings = _readings(options, disjoint)
        first = next(readings, None)
        if first is None:
            continue
        if corp is None and accept is None:
            return first
        # The checks read a route's stops and track, not its way round: the first reading turned round (a connection
        # is read both ways) gets the first's answer, and with no reading but those two the first is taken whatever
        # they say, so they are not asked (a recorded run's routes most often; a live table's are checked in full).
        turned = Route(first.stops[::-1], tuple(c.reversed() for c in first.chains[::-1]))
        other = next((route for route in readings if route != turned), None)
        if other is None:
            return first
        for route in one_after_another((first, other), readings):
            # the chains were read from this board: route_problem need not look for them on it again
            if (corp is None or route_problem(board, corp, route, ANY_TRAIN, on_board=True) is None) and (
                    accept is None or accept(route)):  # accept: the title's own rules (1807's London)
                return route
        return first
    raise RuleError("The route's connections do not join up.")


def _readings(options: list[list[Chain]], disjoint: bool = True):
    """Every way to orient and join one candidate chain per connection, node to node (without crossing a hex edge
    twice when `disjoint`)."""
    def extend(chains: list[Chain], used: frozenset[EdgeRef]):
        if len(chains) == len(options):
            yield Route((chains[0].a, *(c.b for c in chains)), tuple(chains))
            return
        end = chains[-1].b
        for candidate in options[len(chains)]:
            if disjoint and candidate.borders & used:  # the same track either way round
                continue
            if candidate.a == end:
                yield from extend([*chains, candidate], used | candidate.borders)
            if candidate.b == end:  # turned round only when that way joins
                yield from extend([*chains, candidate.reversed()], used | candidate.borders)

    for first in options[0]:
        for head in (first, first.reversed()):
            yield from extend([head], head.borders)


def _chains_matching(board: Board, hex_list: Sequence[str]) -> list[Chain]:
    """The chains through exactly these hexes in this order (either way round); failing any, the chains through
    these hexes in another order, as exports of 2020 sometimes list them (956.json #132: B5 B7 C4 for B7-B5-C4)."""
    hex_list = tuple(h.split()[0] for h in hex_list)
    backwards = hex_list[::-1]
    found, loose = [], []
    # a chain's hexes begin with its first node's, and track is the same both ways round: a chain through these
    # hexes from a node of the last hex is one from a node of the first turned round, so only the first hex's
    # chains are read (those of the last were read too, and their finds were all kept already)
    start = hex_list[0]
    for index in range(len(board.tile(start).nodes)):
        for chain in chains_from(board, (start, index)):
            if chain.hexes == hex_list:
                found.append(chain)
            elif chain.hexes == backwards:
                found.append(chain.reversed())
    if not found:  # in another order: a chain from any of the hexes
        in_order = sorted(hex_list)
        for start in dict.fromkeys(hex_list):
            for index in range(len(board.tile(start).nodes)):
                loose += [chain for chain in chains_from(board, (start, index)) if sorted(chain.hexes) == in_order]
    if len(found) == 1:  # most connections: nothing to tell apart
        return found
    unique = {(c.a, c.b, c.paths) if c.a <= c.b else (c.b, c.a, c.paths[::-1]): c for c in found or loose}
    return list(unique.values())


# ---- the best runs ----------------------------------------------------------------------------------

def all_routes(board: Board, corp: str, max_stops: int) -> list[Route]:
    """Every legal route for `corp` of at most `max_stops` stops, each once (not also reversed)."""
    graph = _Graph(board, corp)
    return [graph.route(found) for found in graph.enumerate(max_stops)]


def exhaustive_best(board: Board, corp: str, trains: Sequence[Train], colours: Sequence[str]) -> int:
    """The best total by trying every assignment of legal routes (or none) to the trains, without bounds or
    shortcuts: the slow reference that tests and bench/bench_18xx.py hold ``best_runs`` against."""
    routes = all_routes(board, corp, max(t.distance for t in trains))
    options = [[(route_revenue(board, r, t, colours), r.borders) for r in routes if len(r.stops) <= t.distance]
               for t in trains]
    best = 0

    def pick(k: int, total: int, used: frozenset) -> None:
        nonlocal best
        if k == len(options):
            best = max(best, total)
            return
        pick(k + 1, total, used)
        for revenue, borders in options[k]:
            if not borders & used:
                pick(k + 1, total + revenue, used | borders)

    pick(0, 0, frozenset())
    return best


def best_runs(
    board: Board, corp: str, trains: Iterable[Train | str], colours: Sequence[str], hexes_distinct: bool = False,
    excluded: frozenset[NodeRef] = frozenset(),
) -> tuple[int, list[Run]]:
    """The most revenue `corp`'s trains can earn together, and one way to earn it (exact search).

    Routes are enumerated once for the longest train. For each kind of train only routes not dominated by another
    route over the same stops on a subset of its track are kept, richest first. A branch and bound then gives each
    train a route (or none): the routes still open to a train are a bit set, narrowed by the track each choice
    uses, so the best open route is always the lowest bit.
    """
    trains = [t if isinstance(t, Train) else train(t) for t in trains]
    if not trains:
        return 0, []
    graph = _Graph(board, corp)
    counts = frozenset().union(*(t.counts for t in trains))
    found = graph.enumerate(max(t.distance + t.towns for t in trains), counts)
    refs = graph.refs
    if excluded:  # stops the title forbids this corporation (1807: London without its token)
        found = [f for f in found if not any(refs[i] in excluded for i in f[2])]
    if graph.grouped or hexes_distinct:
        found = [f for f in found if distinct_groups(board, [refs[i] for i in f[2]])
                 and (not hexes_distinct or hexes_once([refs[i] for i in f[2]]))]
    kinds = sorted(set(trains), key=lambda t: (t.distance, t.diesel, t.name))
    choices = []
    for kind in kinds:
        revenue = [stop_revenue(board, ref, kind, colours) for ref in graph.refs]
        if kind.counts == ALL_KINDS and kind.multiplier == 1:
            choices.append(_Choices(_options(found, kind.distance, revenue)))
        else:
            counted_node = [board.node(ref).kind in kind.counts for ref in graph.refs]
            choices.append(_Choices(_options_paid(found, kind, revenue, counted_node)))
    # richest trains first (bounds bite sooner); identical trains end up side by side
    kind_of = [kinds.index(t) for t in trains]
    richest = [c.top(c.all) for c in choices]
    order = sorted(range(len(trains)), key=lambda i: (-richest[kind_of[i]], trains[i].name))
    position_kinds = [kind_of[i] for i in order]
    picks = _branch_and_bound(choices, position_kinds)
    runs: list[Run | None] = [None] * len(trains)
    total = 0
    for k, pick in enumerate(picks):
        t = trains[order[k]]
        if pick is None:
            runs[order[k]] = Run(t, None, 0)
            continue
        revenue, _, index = choices[position_kinds[k]].options[pick]
        total += revenue
        runs[order[k]] = Run(t, graph.route(found[index]), revenue)
    return total, [r for r in runs if r is not None]


def _options(found: list[tuple], distance: int, revenue: list[int]) -> list[tuple[int, int, int]]:
    """(revenue, border mask, route index) for one kind of train, richest first, dominated routes dropped."""
    by_stops: dict[int, list[tuple[int, int]]] = {}
    for index, (node_mask, border_mask, stops, _) in enumerate(found):
        if len(stops) <= distance:
            by_stops.setdefault(node_mask, []).append((border_mask, index))
    options = []
    for group in by_stops.values():
        group.sort(key=lambda item: item[0].bit_count())
        kept: list[int] = []
        for border_mask, index in group:
            if any(k & border_mask == k for k in kept):
                continue  # the same stops on more track: never better
            kept.append(border_mask)
            value = sum(revenue[i] for i in found[index][2])
            if value > 0:
                options.append((value, border_mask, index))
    options.sort(key=lambda o: (-o[0], o[1].bit_count(), o[2]))
    return options


def _options_paid(found: list[tuple], kind: Train, revenue: list[int], counted_node: list[bool]
                  ) -> list[tuple[int, int, int]]:
    """_options for a train that counts only some kinds of stop and is paid for the best others while its distance
    has room, times its multiplier (1867's trains): every route it may run, richest first."""
    options = []
    for index, (_, border_mask, stops, _) in enumerate(found):
        must = [revenue[i] for i in stops if counted_node[i]]
        if len(must) > kind.distance:
            continue
        extra = sorted((revenue[i] for i in stops if not counted_node[i]), reverse=True)
        if kind.towns and len(extra) > kind.towns:
            continue  # 1890's 2+2: no more towns than it runs to
        room = kind.towns or kind.distance - len(must)
        value = kind.multiplier * (sum(must) + sum(extra[:room]))
        if value > 0:
            options.append((value, border_mask, index))
    options.sort(key=lambda o: (-o[0], o[1].bit_count(), o[2]))
    return options


def _bits(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class _Choices:
    """One kind of train's routes, richest first, with the set of routes that use each hex border."""

    def __init__(self, options: list[tuple[int, int, int]]):
        self.options = options
        self.all = (1 << len(options)) - 1
        self.falling = [-revenue for revenue, _, _ in options]  # ascending, for bisect
        users: dict[int, bytearray] = {}
        for i, (_, mask, _) in enumerate(options):
            for border in _bits(mask):
                row = users.get(border)
                if row is None:
                    row = users[border] = bytearray((len(options) + 7) // 8)
                row[i >> 3] |= 1 << (i & 7)
        self.users = {border: int.from_bytes(row, "little") for border, row in users.items()}

    def worth_more_than(self, revenue: int) -> int:
        """The set of routes paying more than `revenue` (a prefix, as the routes are richest first)."""
        return (1 << bisect_left(self.falling, -revenue)) - 1

    def clashing(self, mask: int, within: int) -> int:
        """The routes in `within` that share a border with `mask`."""
        out = 0
        for border in _bits(mask):
            out |= self.users.get(border, 0) & within
        return out

    def top(self, open_set: int, start: int = 0) -> int:
        """The revenue of the richest open route from index `start` on, or 0."""
        rest = (open_set & self.all) >> start
        return self.options[start + (rest & -rest).bit_length() - 1][0] if rest else 0


def _branch_and_bound(choices: list[_Choices], kinds: list[int]) -> list[int | None]:
    """For each train position (kinds[k] = its kind), the index of its route in choices[kind], or None.

    Identical trains sit next to each other and take routes in index order, so each later one earns no more
    than the one before. Routes that could no longer lift the total above the best found are dropped from the
    open sets, which keeps the sets (and the work of narrowing them) small.
    """
    n = len(kinds)
    best_total, best = -1, [None] * n
    chosen: list[int | None] = [None] * n

    def search(k: int, open_sets: tuple[int, ...], total: int) -> None:
        nonlocal best_total, best
        if k == n:
            if total > best_total:
                best_total, best = total, list(chosen)
            return
        kind = kinds[k]
        same_later = sum(1 for p in range(k + 1, n) if kinds[p] == kind)
        others = sum(choices[kinds[p]].top(open_sets[kinds[p]]) for p in range(k + 1, n) if kinds[p] != kind)
        tops = {kinds[p]: choices[kinds[p]].top(open_sets[kinds[p]]) for p in range(k + 1, n)}
        rest = others + same_later * tops.get(kind, 0)
        start = 0
        if k and kinds[k - 1] == kind:  # identical trains: take their routes in index order, no repeats
            if chosen[k - 1] is None:
                chosen[k] = None
                search(k + 1, open_sets, total)
                return
            start = chosen[k - 1] + 1
        options = choices[kind].options
        pending = open_sets[kind] >> start
        while pending:
            low = pending & -pending
            pending ^= low
            j = start + low.bit_length() - 1
            revenue, mask, _ = options[j]
            if total + revenue + others + same_later * min(revenue, tops.get(kind, 0)) <= best_total:
                break  # richest first: nothing further down can do better
            narrowed = list(open_sets)
            for other, top in tops.items():
                # a later route is worth keeping only if it could still beat the best total
                floor = best_total - total - revenue - rest + top
                useful = open_sets[other] & choices[other].worth_more_than(floor)
                narrowed[other] = useful & ~choices[other].clashing(mask, useful)
            chosen[k] = j
            search(k + 1, tuple(narrowed), total + revenue)
        chosen[k] = None
        if total + rest > best_total:
            search(k + 1, open_sets, total)

    search(0, tuple(c.all for c in choices), 0)
    return best


class _Graph:
    """The nodes a corporation reaches, with chains as bit masks, for fast enumeration."""

    def __init__(self, board: Board, corp: str):
        network = board.reachable(corp)
        self.board = board
        self.refs: list[NodeRef] = sorted(network.nodes)
        index = {ref: i for i, ref in enumerate(self.refs)}
        self.chains: list[Chain] = []
        border_bit: dict[EdgeRef, int] = {}
        self.adjacent: list[list[tuple[int, int, int]]] = []  # node -> (other node, border mask, chain index)
        for ref in self.refs:
            out = []
            for chain in chains_from(board, ref):
                if chain.b not in index:
                    continue
                mask = 0
                for border in chain.borders:
                    mask |= 1 << border_bit.setdefault(border, len(border_bit))
                out.append((index[chain.b], mask, len(self.chains)))
                self.chains.append(chain)
            self.adjacent.append(out)
        self.passable = [board.node(ref).kind != "offboard" and not board.blocks(ref, corp) for ref in self.refs]
        self.grouped = any(board.node(ref).groups for ref in self.refs)
        self.tokened = [corp in board.slots(*ref) if board.node(ref).kind == "city" else False for ref in self.refs]

    def enumerate(self, max_stops: int, counts: frozenset[str] = ALL_KINDS
                  ) -> list[tuple[int, int, tuple[int, ...], tuple[int, ...]]]:
        """Every legal route as (node mask, border mask, stop indexes, chain indexes), found from its lower end:
        at most `max_stops` stops of the kinds in `counts` (others pass free, up to MAX_VISITS stops in all)."""
        found: list[tuple[int, int, tuple[int, ...], tuple[int, ...]]] = []
        adjacent, passable, tokened = self.adjacent, self.passable, self.tokened
        if counts == ALL_KINDS:
            weight = [1] * len(self.refs)
            limit = min(max_stops, len(self.refs))
            visits = limit
        else:
            weight = [int(self.board.node(ref).kind in counts) for ref in self.refs]
            limit, visits = max_stops, min(MAX_VISITS, len(self.refs))

        def extend(at: int, start: int, nodes: int, borders: int, stops: list[int], chains: list[int], token: bool,
                   counted: int):
            for other, mask, chain in adjacent[at]:
                if nodes >> other & 1 or borders & mask:
                    continue
                now = counted + weight[other]
                if now > limit:
                    continue
                stops.append(other)
                chains.append(chain)
                has_token = token or tokened[other]
                if has_token and start < other:
                    found.append((nodes | 1 << other, borders | mask, tuple(stops), tuple(chains)))
                if len(stops) < visits and passable[other]:
                    extend(other, start, nodes | 1 << other, borders | mask, stops, chains, has_token, now)
                stops.pop()
                chains.pop()

        if limit >= 2 or counts != ALL_KINDS:
            for start in range(len(self.refs)):
                if weight[start] <= limit:
                    extend(start, start, 1 << start, 0, [start], [], tokened[start], weight[start])
        return found

    def route(self, found: tuple[int, int, tuple[int, ...], tuple[int, ...]]) -> Route:
        _, _, stops, chain_indexes = found
        chains = []
        for position, c in enumerate(chain_indexes):
            chain = self.chains[c]
            chains.append(chain if chain.a == self.refs[stops[position]] else chain.reversed())
        return Route(tuple(self.refs[i] for i in stops), tuple(chains))
