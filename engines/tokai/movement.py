"""Tokai Baron movement and fares (rules 7.2, 9.2, 11 of 東海男爵 第0.1版), as pure functions over the map.

A path is a list of ``(point, line)`` pairs. Its first pair is ``(start, None)``: the hop's origin is needed to
tell which route card a hop is on (the 名鉄名古屋本線 is two cards, split at 名古屋). Every later pair is one hop,
ridden on that line, ending at that point. A pair with line ``None`` in the middle is a pause (the end of the
normal move, where the bonus move starts), so one turn's moves can be joined as ``normal + bonus`` for ``fare``.

Choices where the seed is unclear are written where they act; in short:
- 急行通過駅 (express-pass stations, flagged per line): with the ticket, a hop *on that line* into such a point
  is not counted, the move may not end there, and the rider may not change lines there (「停車が自由なのでは
  なく、必ず通過しなければなりません」: passing is not stopping, and changing trains needs a stop). The points
  still count as passed for the no-revisit rule. The destination is always a stop.
- Arriving at the destination ends the move, whatever steps are left (「出た目は、目的地に到着した場合を除き、
  使い切らなければなりません」), so a path never passes through the destination.
- The bank is one payee: own and unowned lines (and the Shinkansen's bank fares) are charged once, at the
  highest (the seed's 岐阜羽島→岡崎 example: unowned 新幹線 + 東海道本線 = 6,000 in all).
- A grandfathered line (bought by another player while you ride it) costs its *unowned* fare, paid to the new
  owner: 1,000 for an ordinary line as the seed says, 6,000 for the Shinkansen (「既に目的地まで切符は買って
  あるものと見なして」: the ticket was already bought at the public price).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import cache

from engines.tokai import network as nw

BANK = "bank"
Hop = tuple[str, str | None]
Path = list[Hop]


@cache
def _card_of_hop() -> dict[tuple[str, frozenset[str]], str]:
    """(line, {a, b}) -> route-card id; every hop of every line is on exactly one card."""
    out = {}
    for card in nw.load_route_cards()["cards"]:
        for line, a, b in nw.card_pairs(card):
            out[(line, frozenset((a, b)))] = card["id"]
    return out


@cache
def _express_pass() -> dict[str, frozenset[str]]:
    return {lid: frozenset(line.get("express_pass", ())) for lid, line in nw.lines().items()}


def card_of(line: str, a: str, b: str) -> str:
    """The route card covering the hop a-b on ``line``."""
    return _card_of_hop()[(line, frozenset((a, b)))]


def card_fares(card_id: str) -> dict[str, int]:
    """{"unowned", "own", "other"} for a card: the Shinkansen carries its own, the rest use the common fares."""
    return nw.route_cards()[card_id].get("fares") or nw.load_route_cards()["fares"]


def hops_of(path: Path) -> list[tuple[str, str, str]]:
    """The path's real hops as (line, from, to), skipping the start and any pause."""
    out = []
    for (prev, _), (here, line) in zip(path, path[1:], strict=False):
        if line is not None:
            out.append((line, prev, here))
    return out


def line_changes(path: Path) -> int:
    """How many times the rider changes lines (a pause does not break the line: the seed's 犬山→岐阜 example)."""
    lines = [line for line, _, _ in hops_of(path)]
    return sum(1 for a, b in zip(lines, lines[1:], strict=False) if a != b)


# ---------------------------------------------------------------- movement


def _passes(line: str, point: str, express: bool, destination: str | None) -> bool:
    """True when the hop into ``point`` on ``line`` is not counted (an express-pass station, ticket held)."""
    return express and point != destination and point in _express_pass()[line]


def walks(start: str, steps: int, visited: frozenset[str], express: bool, destination: str | None):
    """Every legal path of one move, by depth-first search. Yields complete paths."""
    graph = nw.movement_graph()
    path: Path = [(start, None)]
    seen = set(visited) | {start}

    def go(here: str, line_in: str | None, used: int, must_stay: bool):
        for there, tags in graph[here].items():
            if there in seen:
                continue  # 一度通った地点は…2度以上通ってはなりません
            for line in sorted(tags):
                if must_stay and line != line_in:
                    continue  # no change of trains at a station the express passes
                passed = _passes(line, there, express, destination)
                count = used if passed else used + 1
                path.append((there, line))
                if there == destination or (count == steps and not passed):
                    yield list(path)  # arrival ends the move; otherwise the roll must be used up exactly
                elif count < steps or passed:
                    seen.add(there)
                    yield from go(there, line, count, passed)
                    seen.discard(there)
                path.pop()

    if steps > 0 and start != destination:
        yield from go(start, None, 0, False)


def _passes_in_order(path: Path, via: Sequence[str]) -> bool:
    points = iter(p for p, _ in path[1:])
    return all(any(p == w for p in points) for w in via)  # one shared iterator: each waypoint after the last


def endpoints(
    start: str,
    steps: int,
    *,
    visited: Iterable[str] = frozenset(),
    express: bool = False,
    destination: str | None = None,
    owners: Mapping[str, object] | None = None,
    me: object = None,
    riding: Iterable[str] = (),
    via: Sequence[str] = (),
) -> dict[str, Path]:
    """Every point a move of exactly ``steps`` counted hops can end on (or the destination, reached sooner),
    with the cheapest path there: lowest total fare, then fewest line changes, then fewest hops.

    ``visited``: points passed since the trip began (the start is added). ``owners``/``me``/``riding`` are as for
    ``fare``; with no owners every line is unowned (so the cheapest path avoids the Shinkansen). ``via``: waypoints
    the path must pass in this order (a player naming their way). No endpoint at all (without waypoints) means every
    way forward revisits a point (rule 13.1: the player is out)."""
    owners = owners or {}
    riding = frozenset(riding)
    if steps <= 0 or start == destination:
        return {}
    # The same search as ``walks``, with each path's key (fare, line changes, length) built hop by hop instead of
    # recomputed for every complete path: a roll of 12 in central Nagoya has about 20,000 partial paths, so each
    # hop's work is kept to a few lookups (the hops' cards and express flags are precomputed; a card's fare is
    # looked up once per search).
    adj, via, nvia = _adjacency(), tuple(via), len(via)
    plain: dict[str, tuple[object, int]] = {}  # card -> (payee, fare) when not grandfathered
    best: dict[str, tuple[tuple, Path]] = {}
    path: Path = [(start, None)]
    seen = set(visited) | {start}

    def go(here: str, line_in: str | None, used: int, must_stay: bool, due: dict, total: int, still: frozenset,
           changes: int, waypoint: int) -> None:
        for there, line, card, express_pass in adj[here]:
            if there in seen or (must_stay and line != line_in):
                continue  # no point twice; no change of trains at a station the express passes
            passed = express and express_pass and there != destination
            count = used if passed else used + 1
            left = still & {card} if still else still  # leaving a line ends its grandfathering
            if left:
                payee, amount = _charge(card, owners, me, True)
            else:
                if (got := plain.get(card)) is None:
                    got = plain[card] = _charge(card, owners, me, False)
                payee, amount = got
            was = due.get(payee, 0)
            now_due, now_total = (due, total) if amount <= was else ({**due, payee: amount}, total - was + amount)
            now_changes = changes + 1 if line_in is not None and line != line_in else changes
            reached = waypoint + 1 if waypoint < nvia and there == via[waypoint] else waypoint
            path.append((there, line))
            if there == destination or (count == steps and not passed):
                if reached == nvia:
                    mark = (now_total, now_changes, len(path))
                    old = best.get(there)
                    if old is None or mark < old[0] or (mark == old[0] and path < old[1]):
                        best[there] = (mark, list(path))
            elif count < steps or passed:
                seen.add(there)
                go(there, line, count, passed, now_due, now_total, left, now_changes, reached)
                seen.discard(there)
            path.pop()

    go(start, None, 0, False, {}, 0, riding, 0, 0)
    return {end: p for end, (_, p) in best.items()}


@cache
def _adjacency() -> dict[str, tuple[tuple[str, str, str, bool], ...]]:
    """here -> ((there, line, card, is ``there`` an express-pass point of that line), ...), in the order ``walks``
    tries them, so both searches meet paths in the same order."""
    graph, hop_card, express_pass = nw.movement_graph(), _hop_card(), _express_pass()
    return {here: tuple((there, line, hop_card[(line, here, there)], there in express_pass[line])
                        for there, tags in graph[here].items() for line in sorted(tags)) for here in graph}


@cache
def _hop_card() -> dict[tuple[str, str, str], str]:
    """(line, from, to) -> route-card id, both ways: the search's lookup, without building a set per hop."""
    return {(line, a, b): card for (line, ends), card in _card_of_hop().items() for a in ends for b in ends if a != b}


# ---------------------------------------------------------------- fares


def _charge(card_id: str, owners: Mapping[str, object], me: object, grandfathered: bool) -> tuple[object, int]:
    """(payee, amount) for riding one card once this turn."""
    fares = card_fares(card_id)
    owner = owners.get(card_id)
    if owner is None:
        return BANK, fares["unowned"]  # unowned lines count as one's own, but the Shinkansen keeps 6,000
    if owner == me:
        return BANK, fares["own"]
    if grandfathered:
        return owner, fares["unowned"]  # ticket already bought at the public fare; paid to the new owner
    return owner, fares["other"]


def fare(
    path: Path, owners: Mapping[str, object], me: object, riding: Iterable[str] | None = None
) -> dict[object, int]:
    """What one turn's movement costs: {"bank": n, seat: n}, each payee charged only its highest single fare.

    ``owners``: route-card id -> seat or None. ``riding``: card ids bought by another player while ``me`` was on
    them; they stay at the grandfathered fare from the start of the path until the first hop on another card."""
    still = set(riding or ())
    due: dict[object, int] = {}
    for line, a, b in hops_of(path):
        card = card_of(line, a, b)
        still &= {card}  # leaving a line ends its grandfathering for good (the seed's 高山本線 remark)
        payee, amount = _charge(card, owners, me, card in still)
        due[payee] = max(due.get(payee, 0), amount)
    return due


def still_riding(path: Path, riding: Iterable[str]) -> frozenset[str]:
    """The grandfathered cards the rider is still on after ``path`` (every hop stayed on that card)."""
    cards = {card_of(line, a, b) for line, a, b in hops_of(path)}
    return frozenset(c for c in riding if cards <= {c})
