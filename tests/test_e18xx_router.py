"""The auto-router on every run_routes state of the recorded 1889 games, reached through the real replay.

For each run_routes action of each 1889 fixture in ../shared/data/18xx/fixtures, the state just before it comes
from engines/e18xx/replay.py (its `on_action` hook), and there `best_runs` for all the corporation's trains must
earn at least what the players ran, unless the recorded run breaks one of our rules: then the record is refused
by route_problem / runs_problem and the router's best is exactly what our rules allow.

test_e18xx_route.py already checks 314's runs on a board it rebuilds from the tile and token actions, with the
recorded trains only. Here the board, phase, home tokens and trains are the engine's own, every fixture is read,
each recorded run is matched on our board (and must pay what the site says), the refused records are found from
the recorded hexes rather than named, and the router's answer is checked for legality, for an exact optimum (brute
force) and for surviving the trip through a run_routes action.
"""
from __future__ import annotations

import json
from functools import cache
from itertools import product
from pathlib import Path
from typing import Any

import pytest

from engines.e18xx import operating
from engines.e18xx.board import Board
from engines.e18xx.importer import filter_undone
from engines.e18xx.replay import replay_export
from engines.e18xx.route import (
    Route,
    Train,
    best_runs,
    chains_from,
    check_runs,
    exhaustive_best,
    route_from_connections,
    route_revenue,
    runs_problem,
    train,
)
from engines.e18xx.state import G
from tests.e18xx_helpers import SHARED

FIXTURES = sorted(p.name for p in (SHARED / "fixtures").glob("1889-*.json")) if SHARED.is_dir() else [None]

#: Recorded runs our rules refuse: fixture -> {action id: (recorded total, the router's best)}.
#: 314 #367: IR's 3-train ran Kotohira - Marugame - Takamatsu through Marugame, which SR and AR fill.
REFUSED = {"1889-314.json": {367: (400, 370)}}


def need_shared() -> Path:
    if not SHARED.is_dir():
        pytest.skip("../shared/data/18xx is absent (a user's clone): the recorded 18xx.games games are not here.")
    return SHARED


@cache
def run_states(name: str) -> tuple[tuple[dict[str, Any], dict[str, Any]], ...]:
    """(run_routes action, the engine's state just before it) for every run of one fixture, in order."""
    doc = json.loads((need_shared() / "fixtures" / name).read_text(encoding="utf-8"))
    assert doc["title"] == "1889"
    found: list[tuple[dict[str, Any], dict[str, Any]]] = []
    before: dict[str, Any] = {}

    def after(action: dict[str, Any], state: dict[str, Any]) -> None:
        if action["type"] == "run_routes":
            found.append((action, before["state"]))
        before["state"] = state  # engine.apply returns a fresh state each time, so keeping it is safe

    replay_export(doc, on_action=after)
    # an undone run never reaches the engine (18xx.games exports keep undone actions in the log)
    assert len(found) == sum(a["type"] == "run_routes" for a in filter_undone(doc["actions"]))
    return tuple(found)


def routes_through(board: Board, hexes: list[str]) -> list[Route]:
    """Every walk along the board's track, node to node, covering exactly these hexes (no rule checked).

    The old export format (314.json) gives each route as its hexes, not in an order one can follow, so a
    recorded route is matched by the hexes it covers and then by its revenue."""
    want = frozenset(hexes)
    found: dict[tuple, Route] = {}

    def extend(stops: list, chains: list, borders: frozenset, walked: frozenset) -> None:
        if walked == want and len(stops) > 1:
            key = (min(tuple(stops), tuple(stops[::-1])), borders)
            found.setdefault(key, Route(tuple(stops), tuple(chains)))
        for chain in chains_from(board, stops[-1]):
            if chain.b in stops or chain.borders & borders or not want.issuperset(chain.hexes):
                continue
            extend([*stops, chain.b], [*chains, chain], borders | chain.borders, walked | set(chain.hexes))

    for coord in want:
        for index in range(len(board.tile(coord).nodes)):
            extend([(coord, index)], [], frozenset(), frozenset({coord}))
    return list(found.values())


def recorded_runs(g: G, action: dict[str, Any]) -> list[list[tuple[Train, Route]]]:
    """For each recorded route, the ways it can lie on our board paying exactly its recorded revenue (the newer
    export names the route by its connections and writes no revenue: then there is one way, paying what it pays)."""
    ways = []
    for run in action["routes"]:
        t = train(run["train"])
        if "connections" in run:
            ways.append([(t, route_from_connections(g.board, run["connections"]))])
            continue
        ways.append([(t, r) for r in routes_through(g.board, run["hexes"])
                     if route_revenue(g.board, r, t, g.colours) == run["revenue"]])
    return ways


def best_legal_part(board: Board, corp: str, ways: list[list[tuple[Train, Route]]], colours) -> int:
    """The most a subset of the recorded routes earns when it is legal under our rules."""
    best = 0
    for keep in product((False, True), repeat=len(ways)):
        for combo in product(*(w if k else [None] for w, k in zip(ways, keep, strict=True))):
            runs = [x for x in combo if x is not None]
            if runs_problem(board, corp, runs) is None:
                best = max(best, sum(route_revenue(board, r, t, colours) for t, r in runs))
    return best


@pytest.mark.parametrize("name", FIXTURES)
def test_the_router_earns_at_least_the_recorded_runs(name):
    need_shared()
    refused = {}
    for action, state in run_states(name):
        g = G(state)
        corp, board, colours = action["entity"], g.board, g.colours
        owned = g.corp(corp)["trains"]
        assert {r["train"] for r in action["routes"]} <= set(owned), action["id"]
        total, runs = best_runs(board, corp, owned, colours)
        ways = recorded_runs(g, action)
        assert all(ways), f"action {action['id']}: a recorded route does not lie on our board as recorded"
        recorded = sum(route_revenue(board, w[0][1], w[0][0], colours) for w in ways)
        if any(runs_problem(board, corp, combo) is None for combo in product(*ways)):
            assert total >= recorded, action["id"]
        else:
            refused[action["id"]] = (recorded, total)
            assert total >= best_legal_part(board, corp, ways, colours), action["id"]
    assert refused == REFUSED.get(name, {})


@pytest.mark.parametrize("name", FIXTURES)
def test_the_routers_answer_is_legal_exact_and_survives_a_run_routes_action(name):
    need_shared()
    for action, state in run_states(name):
        g = G(state)
        corp, board, colours = action["entity"], g.board, g.colours
        names = g.corp(corp)["trains"]
        total, runs = best_runs(board, corp, names, colours)
        assert sorted(r.train.name for r in runs) == sorted(train(n).name for n in names)
        chosen = [(r.train, r.route) for r in runs if r.route is not None]
        assert runs_problem(board, corp, chosen) is None, action["id"]
        assert check_runs(board, corp, chosen, colours) == total == sum(r.revenue for r in runs), action["id"]
        assert total == exhaustive_best(board, corp, [train(n) for n in names], colours), action["id"]
        # what the live engine offers as the run: its connections lead back to runs worth the same
        offered = operating.best_run_action(g, corp)
        again = [(train(x["train"]), route_from_connections(board, x["connections"])) for x in offered["routes"]]
        assert check_runs(board, corp, again, colours) == total, action["id"]


def test_the_known_refused_run_is_refused_for_the_blocked_city():
    """314 #367 as our rules see it: the 3-train's only reading passes through Marugame, full of SR and AR."""
    need_shared()
    action, state = next((a, s) for a, s in run_states("1889-314.json") if a["id"] == 367)
    g = G(state)
    ways = recorded_runs(g, action)
    three = next(w for w, run in zip(ways, action["routes"], strict=True) if run["train"] == "3-3")
    assert len(three) == 1
    _, route = three[0]
    assert [coord for coord, _ in route.stops] in (["I4", "I2", "K4"], ["K4", "I2", "I4"])
    assert "Marugame (I2) is full of other companies' tokens" in str(runs_problem(g.board, "IR", three))
    assert best_runs(g.board, "IR", g.corp("IR")["trains"], g.colours)[0] == 370


def test_every_fixture_has_its_runs_checked():
    need_shared()
    counts = {name: len(run_states(name)) for name in FIXTURES}
    assert counts["1889-314.json"] == 32  # the other fixtures may stop before any operating round
    assert set(REFUSED) <= set(counts)
