"""18xx routes: revenue of hand-built networks, the route rules, and the router against brute force.

Reads only our own files, except the last test, which replays a recorded 1889 game from ../shared when present."""
from __future__ import annotations

import json
import random
from functools import cache

import pytest

from engines.base import RuleError
from engines.e18xx import hexes
from engines.e18xx.board import Board, legal_lays, legal_tokens, load_map
from engines.e18xx.companies import load_title
from engines.e18xx.route import (
    Route,
    all_routes,
    best_runs,
    check_runs,
    exhaustive_best,
    route_from_connections,
    route_problem,
    route_revenue,
    runs_problem,
    train,
)
from tests.e18xx_helpers import SHARED

PHASE = {"2": ("yellow",), "3": ("yellow", "green"), "5": ("yellow", "green", "brown")}


@pytest.fixture(scope="module")
def m():
    return load_map("g1889")


def takamatsu(m) -> Board:
    """KO at Takamatsu with track to Sakaide & Okayama (J1) and Naruto & Awaji (L7), as in 314.json's first OR."""
    return Board.new(m).place_token("K4", "KO").lay_tile("J3", "8", 3).lay_tile("K6", "8", 3)


def stops(route: Route) -> list[str]:
    return [coord for coord, _ in route.stops]


# ---- trains and revenue -----------------------------------------------------------------------------

def test_train_names():
    assert train("3") == train("3-1")
    assert (train("6").distance, train("6").diesel) == (6, False)
    assert train("D-0").diesel and train("D").distance >= 99


def test_two_2_trains_at_takamatsu(m):
    total, runs = best_runs(takamatsu(m), "KO", ["2", "2"], PHASE["2"])
    assert total == 100  # J1 20 + K4 30, and K4 30 + L7 20
    assert sorted(sorted(stops(r.route)) for r in runs) == [["J1", "K4"], ["K4", "L7"]]


def test_a_3_train_runs_through_the_city(m):
    total, runs = best_runs(takamatsu(m), "KO", ["3"], PHASE["2"])
    assert total == 70 and stops(runs[0].route) in (["J1", "K4", "L7"], ["L7", "K4", "J1"])


def test_offboards_pay_by_phase_and_diesels_pay_more(m):
    b = takamatsu(m).lay_tile("K4", "440", 0)  # 40
    assert best_runs(b, "KO", ["3"], PHASE["3"])[0] == 20 + 40 + 20
    assert best_runs(b, "KO", ["6"], PHASE["5"])[0] == 40 + 40 + 40
    assert best_runs(b, "KO", ["D"], PHASE["5"])[0] == 80 + 40 + 80


def test_towns_count_as_stops(m):
    b = takamatsu(m).lay_tile("J5", "58", 2)  # K4 - Ritsurin Kouen (10) - Kotohira (white, no track on it)
    b = b.lay_tile("I4", "438", 3)  # Kotohira 40, to J5 and H3... only J5 is used
    total, runs = best_runs(b, "KO", ["2"], PHASE["2"])
    assert total == 50  # J1 + K4 beats the 2-stop K4 + J5 (40)
    total, runs = best_runs(b, "KO", ["3"], PHASE["2"])
    assert total == 80 and sorted(stops(runs[0].route)) == ["I4", "J5", "K4"]  # 40 + 10 + 30


def test_no_train_no_revenue(m):
    assert best_runs(takamatsu(m), "KO", [], PHASE["2"]) == (0, [])
    total, runs = best_runs(Board.new(m).place_token("C10", "KU"), "KU", ["2"], PHASE["2"])
    assert total == 0 and runs[0].route is None


# ---- the rules --------------------------------------------------------------------------------------

def test_routes_from_18xx_games_connections(m):
    b = takamatsu(m)
    route = route_from_connections(b, [["J1", "J3", "K4"], ["K4", "K6", "L7"]])
    assert stops(route) == ["J1", "K4", "L7"]
    again = route_from_connections(b, [["L7", "K6", "K4"], ["J1", "J3", "K4"]])  # chains either way round
    assert stops(again) == ["L7", "K4", "J1"]
    assert route_revenue(b, route, train("3"), PHASE["2"]) == 70
    with pytest.raises(RuleError, match="not on the board"):
        route_from_connections(b, [["J1", "I2"]])


def test_connections_as_older_exports_write_them(m):
    """Exports of 2020 may list a chain's hexes out of order (956.json: B5 B7 C4 for B7-B5-C4), and a recorded
    route may cross a hex edge twice (5033.json #630, on two tracks of one tile): the replay still reads them,
    and route_problem is what judges a route in a live game."""
    b = takamatsu(m)
    loose, exact = route_from_connections(b, [["J3", "J1", "K4"]]), route_from_connections(b, [["J1", "J3", "K4"]])
    assert loose.stops[::-1] == exact.stops and loose.chains[0].reversed() == exact.chains[0]
    there_and_back = route_from_connections(b, [["J1", "J3", "K4"], ["K4", "J3", "J1"]])
    assert stops(there_and_back) == ["J1", "K4", "J1"]
    assert route_problem(b, "KO", there_and_back, train("3")) is not None


def test_route_rules(m):
    b = takamatsu(m)
    route = route_from_connections(b, [["J1", "J3", "K4"], ["K4", "K6", "L7"]])
    assert route_problem(b, "KO", route, train("3")) is None
    assert str(route_problem(b, "KO", route, train("2"))) == "A 2-train runs to 2 stops; this route has 3."
    assert str(route_problem(b, "SR", route, train("3"))) == (
        "Takamatsu (K4) is full of other companies' tokens; SR may not run through it."
    )
    short = route_from_connections(b, [["J1", "J3", "K4"]])
    assert str(route_problem(b, "SR", short, train("3"))) == "A route must include a city with a SR token."
    one = Route(route.stops[:1], ())
    assert str(route_problem(b, "KO", one, train("3"))) == "A route needs at least two stops."
    twice = Route((*route.stops, route.stops[1]), (*route.chains, route.chains[1].reversed()))
    assert str(route_problem(b, "KO", twice, train("4"))) == "A route may not visit a stop twice."


def test_offboards_end_routes(m):
    # Imabari (F1) joins Matsuyama (E2) and Saijou (F3): a route may end there but not pass through.
    b = Board.new(m).place_token("E2", "IR").lay_tile("E2", "5", 4).lay_tile("F3", "5", 2)  # a triangle
    through = route_from_connections(b, [["E2", "F1"], ["F1", "F3"]])
    assert str(route_problem(b, "IR", through, train("3"))) == (
        "A route may not run through Imabari (F1); an offboard ends a route."
    )
    total, runs = best_runs(b, "IR", ["3"], PHASE["2"])
    assert total == 30 + 20 + 20  # F1 - E2 - F3, Imabari at one end
    assert stops(runs[0].route)[0] == "F1" or stops(runs[0].route)[-1] == "F1"


def test_a_full_city_of_others_cannot_be_run_through(m):
    # SR fills Marugame (I2, one slot); KO's track runs K4 - J3 - I2 - H3 - G4.
    b = Board.new(m).place_token("K4", "KO").place_token("I2", "SR")
    b = b.lay_tile("J3", "23", 5)  # J3: K4 - I2 and K4 - J1
    b = b.lay_tile("I2", "6", 5)  # Marugame: J3 - city - H3
    b = b.lay_tile("H3", "9", 1)  # H3: I2 - G4
    b = b.lay_tile("G4", "57", 1)  # Niihama: H3 - city - F5
    assert ("G4", 0) not in b.reachable("KO").nodes
    through = [r for r in all_routes(b, "KO", 4) if "I2" in stops(r)[1:-1]]
    assert through == []
    ending = [r for r in all_routes(b, "KO", 4) if stops(r)[-1] == "I2" or stops(r)[0] == "I2"]
    assert ending  # K4 - I2 is fine: a blocked city may end a route


def test_runs_may_not_share_track(m):
    b = takamatsu(m)
    route = route_from_connections(b, [["J1", "J3", "K4"]])
    assert str(runs_problem(b, "KO", [(train("2"), route), (train("2"), route)])) == (
        "Two trains may not run on the same track."
    )
    other = route_from_connections(b, [["K4", "K6", "L7"]])
    assert check_runs(b, "KO", [(train("2"), route), (train("2"), other)], PHASE["2"]) == 100
    with pytest.raises(RuleError):
        check_runs(b, "KO", [(train("2"), route), (train("3"), route)], PHASE["2"])


def test_one_border_serves_one_train(m):
    # Two cities reached through one plain hex: both trains want the same border, only one may have it.
    b = Board.new(m).place_token("K4", "KO").lay_tile("J3", "23", 5)  # J3: K4 - I2 and K4 - J1 share K4's edge
    b = b.lay_tile("I2", "6", 5)
    total, runs = best_runs(b, "KO", ["2", "2"], PHASE["2"])
    assert total == 50  # K4 with J1 or with I2: each 50, never both
    assert sum(r.route is not None for r in runs) == 1


# ---- the router against brute force -----------------------------------------------------------------

def walk_routes(board: Board, corp: str, max_stops: int) -> set[tuple]:
    """Every legal route, found by walking the track one path at a time (independent of route.py)."""
    found: set[tuple] = set()

    def passable(ref):
        return board.node(ref).kind != "offboard" and not board.blocks(ref, corp)

    def tokened(ref):
        return board.node(ref).kind == "city" and corp in board.slots(*ref)

    def leave(ref, stops, borders):
        coord, i = ref
        for p in board.paths_at(coord, f"_{i}"):
            a, b = board.paths(coord)[p]
            follow(coord, b if a == f"_{i}" else a, stops, borders)

    def follow(coord, end, stops, borders):
        if isinstance(end, str):
            arrive((coord, int(end[1:])), stops, borders)
            return
        border = board.border(coord, end)
        other = board.map.neighbour(coord, end)
        if border in borders or other is None:
            return
        back = hexes.opposite(end)
        for q in board.paths_at(other, back):
            a, b = board.paths(other)[q]
            follow(other, b if a == back else a, stops, borders | {border})

    def arrive(ref, stops, borders):
        if ref in stops or len(stops) == max_stops:
            return
        stops = (*stops, ref)
        if any(tokened(s) for s in stops):
            found.add((min(stops, stops[::-1]), borders))
        if passable(ref):
            leave(ref, stops, borders)

    for ref in board.nodes():
        leave(ref, (ref,), frozenset())
    return found


def random_board(m, seed: int, lays: int, corps=("KO", "SR", "IR")) -> Board:
    """Seeded random legal lays (yellow, then green, then brown) and a few tokens."""
    rng = random.Random(seed)
    b = Board.new(m)
    for corp in corps:
        b = b.place_token(m.homes[corp], corp)
    for step in range(lays):
        corp = rng.choice(corps)
        options = legal_lays(b, corp, PHASE["2"] if step < lays // 3 else PHASE["3" if step < 2 * lays // 3 else "5"])
        if options:
            lay = rng.choice(options)
            b = b.lay_tile(lay.hex, lay.tile, lay.rotation)
        if rng.random() < 0.2 and (tokens := legal_tokens(b, corp)):
            b = b.place_token(tokens[0][0], corp, tokens[0][1])
    return b


@cache
def busy_board(seed: int) -> Board:
    m = load_map("g1889")
    return random_board(m, seed, 60, corps=tuple(m.homes))


@pytest.mark.parametrize("seed", range(6))
def test_enumeration_matches_a_path_by_path_walk(m, seed):
    b = busy_board(seed)
    for corp in m.homes:
        for limit in (2, 4, 99):
            mine = {(min(r.stops, r.stops[::-1]), r.borders) for r in all_routes(b, corp, limit)}
            assert mine == walk_routes(b, corp, limit), (corp, limit)


@pytest.mark.parametrize("seed", range(6))
def test_router_is_optimal_for_two_trains(m, seed):
    b = busy_board(seed)
    for corp in m.homes:
        routes = all_routes(b, corp, 99)
        if len(routes) > 400:
            continue
        for names in (["D", "D"], ["3", "D"], ["4", "5"]):
            first, second = (
                [(route_revenue(b, r, t, PHASE["5"]), r.borders) for r in routes if len(r.stops) <= t.distance]
                for t in map(train, names)
            )
            best = max([0] + [x for x, _ in first] + [y for y, _ in second])
            for x, bx in first:
                for y, by in second:
                    if x + y > best and not bx & by:
                        best = x + y
            assert best_runs(b, corp, names, PHASE["5"])[0] == best, (corp, names)


@pytest.mark.parametrize("seed", range(6))
def test_router_is_optimal_on_small_boards(m, seed):
    b = random_board(m, seed, 24)
    for corp in ("KO", "SR", "IR"):
        for names in (["2", "2"], ["2", "3"], ["3", "4"], ["2", "2", "3"]):
            if len(all_routes(b, corp, 4)) > 40:
                continue
            total, runs = best_runs(b, corp, names, PHASE["3"])
            assert total == exhaustive_best(b, corp, [train(n) for n in names], PHASE["3"]), (corp, names)
            chosen = [(r.train, r.route) for r in runs if r.route]
            assert runs_problem(b, corp, chosen) is None  # legal, and no track used twice
            assert check_runs(b, corp, chosen, PHASE["3"]) == total
            assert sorted(r.train.name for r in runs) == sorted(names)


def test_router_on_a_busier_board(m):
    b = random_board(m, 11, 40, corps=("KO", "SR", "IR", "AR", "TR"))
    for corp in ("KO", "SR"):
        total, runs = best_runs(b, corp, ["4", "D"], PHASE["5"])
        chosen = [(r.train, r.route) for r in runs if r.route]
        assert runs_problem(b, corp, chosen) is None
        assert check_runs(b, corp, chosen, PHASE["5"]) == total
        for single in ("4", "D"):  # never worse than the best lone route of either train
            lone = max([route_revenue(b, r, train(single), PHASE["5"])
                        for r in all_routes(b, corp, train(single).distance)] or [0])
            assert total >= lone


# ---- a recorded game (optional) ---------------------------------------------------------------------

def test_router_beats_the_recorded_runs_of_314(m):
    """Rebuild the board of 18xx.games game 314 from its tile and token actions; at every run_routes the router
    must find at least the recorded revenue, except where the record itself breaks the blocking rule."""
    game_file, checkpoints_file = SHARED / "fixtures" / "1889-314.json", SHARED / "fixtures" / "1889_checkpoints.json"
    if not game_file.exists() or not checkpoints_file.exists():
        pytest.skip("../shared/data is absent; the recorded-game replay needs its fixtures")
    game = json.loads(game_file.read_text(encoding="utf-8"))
    expected = json.loads(checkpoints_file.read_text(encoding="utf-8"))["games"]["314.json"]
    assert not any(a["type"] in ("undo", "redo") for a in game["actions"])  # nothing to filter out
    phase_at = {o["action_id"]: o["phase"] for o in expected["operating"] if "action_id" in o}
    # Home tokens go down at the start of the operating round after a corporation floats.
    homes_after = {c["after_action_id"]: [x["sym"] for x in c["corporations"] if x["floated"]]
                   for c in expected["checkpoints"] if c["round"] == "Stock"}
    board, hex_of_copy, checked = Board.new(m), {}, 0
    for action in game["actions"]:
        kind = action["type"]
        if kind == "lay_tile":
            board = board.lay_tile(action["hex"], action["tile"].rsplit("-", 1)[0], action["rotation"])
            hex_of_copy[action["tile"]] = action["hex"]
        elif kind == "place_token":
            copy = action["city"].rsplit("-", 1)[0]
            board = board.place_token(hex_of_copy.get(copy) or copy.split("-")[0], action["entity"])
        elif kind == "run_routes":
            corp, colours = action["entity"], load_title("1889").phase(phase_at[action["id"]]).tiles
            recorded = sum(r["revenue"] for r in action["routes"])
            total, _ = best_runs(board, corp, [r["train"] for r in action["routes"]], colours)
            checked += 1
            if action["id"] == 367:
                # IR's 3-train ran Kotohira - Marugame - Takamatsu through Marugame, which SR and AR fill.
                assert (recorded, total) == (400, 370)
                route = route_from_connections(board, [["I4", "I2"], ["I2", "J3", "K4"]])
                assert "full of other companies' tokens" in str(route_problem(board, "IR", route, train("3")))
            else:
                assert total >= recorded, action["id"]
        if action["id"] in homes_after:
            for corp in homes_after[action["id"]]:
                if not board.token_nodes(corp):
                    board = board.place_token(m.homes[corp], corp)
    assert checked == 32


def test_a_recorded_routes_readings_need_no_look_for_their_chains_on_the_board():
    """route_from_connections reads a route's chains from the board itself (or turns them round) and makes its stops
    from their ends, so it asks route_problem without looking for them on the board again nor whether they join the
    stops: at every run of 962 (routes read from their connections), every reading of every route gets the same
    answer either way."""
    import json
    from pathlib import Path

    import pytest

    from engines.e18xx.replay import replay_export
    from engines.e18xx.route import ANY_TRAIN, _chains_matching, _readings
    from engines.e18xx.state import G
    path = Path(__file__).resolve().parents[2] / "shared" / "data" / "18xx" / "fixtures" / "1889-962.json"
    if not path.exists():
        pytest.skip("../shared/data/18xx is absent (a user's clone)")
    before, readings = {}, [0]

    def after(action, state):
        if action["type"] == "run_routes":
            g = G(before["state"])
            for x in action["routes"]:
                options = [_chains_matching(g.board, hexes) for hexes in x.get("connections") or []]
                if options and all(options):
                    for disjoint in (True, False):
                        for route in _readings(options, disjoint):
                            assert route_problem(g.board, action["entity"], route, ANY_TRAIN, on_board=True) == \
                                route_problem(g.board, action["entity"], route, ANY_TRAIN)
                            readings[0] += 1
        before["state"] = state

    replay_export(json.loads(path.read_text(encoding="utf-8")), on_action=after)
    assert readings[0] > 50


def _reading_the_checks_choose(board, connections, corp, accept):
    """route_from_connections as it asked the checks of every reading in turn (the slow reference)."""
    from engines.e18xx.route import ANY_TRAIN, _chains_matching, _readings
    options = [_chains_matching(board, hexes) for hexes in connections]
    for disjoint in (True, False):
        first = None
        for route in _readings(options, disjoint):
            if route_problem(board, corp, route, ANY_TRAIN, on_board=True) is None and accept(route):
                return route
            first = first or route
        if first is not None:
            return first
    return None


def test_a_route_read_only_one_way_or_turned_round_is_taken_without_asking_the_checks(m, monkeypatch):
    """A connection is read both ways round, and the checks that choose among a route's readings read its stops and
    track, not its way round: a route whose only readings are one and the same turned round is taken as read, the
    checks unasked (they would choose nothing), and it is the reading they would have taken. Where two chains fit
    the hexes, they choose (the other test of two cities on one edge)."""
    from engines.e18xx import route as route_module
    b = takamatsu(m)  # KO's token at K4
    expected = _reading_the_checks_choose(b, [["J1", "J3", "K4"]], "SR", lambda r: True)
    assert route_problem(b, "SR", expected, train("2")) is not None  # no SR token: the checks refuse both ways

    def asked(*args, **kwargs):
        raise AssertionError("a check was asked")

    monkeypatch.setattr(route_module, "route_problem", asked)
    assert route_from_connections(b, [["J1", "J3", "K4"]], corp="SR", accept=asked) == expected
    assert route_from_connections(b, [["J1", "J3", "K4"], ["K4", "K6", "L7"]], corp="SR", accept=asked).stops == (
        ("J1", 0), ("K4", 0), ("L7", 0))


@pytest.mark.parametrize("name", ["1889-962.json", "1867-hs_ahjzadkh_19792.json"])
def test_every_recorded_route_is_the_reading_the_checks_of_every_reading_choose(name):
    """At every run of two games whose routes are read from their connections: route_from_connections's reading
    is the one the checks of every reading in turn choose, and every reading gets the same answer from the checks
    as the same reading turned round (why the checks need not be asked when those two are all there is)."""
    from engines.e18xx.replay import replay_export
    from engines.e18xx.route import ANY_TRAIN, _chains_matching, _readings
    from engines.e18xx.state import G
    path = SHARED / "fixtures" / name
    if not path.exists():
        pytest.skip("../shared/data/18xx is absent (a user's clone)")
    before, compared = {}, [0, 0]

    def after(action, state):
        if action["type"] == "run_routes":
            g, cid = G(before["state"]), action["entity"]
            board = g.rules.route_board(g, cid)

            def accept(r):
                return g.rules.route_problem(g, cid, r) is None

            for x in action["routes"]:
                connections = x.get("connections") or []
                assert route_from_connections(board, connections, corp=cid, accept=accept) == \
                    _reading_the_checks_choose(board, connections, cid, accept)
                compared[0] += 1
                options = [_chains_matching(board, hexes) for hexes in connections]
                for disjoint in (True, False):
                    for r in _readings(options, disjoint):
                        turned = Route(r.stops[::-1], tuple(c.reversed() for c in r.chains[::-1]))
                        assert route_problem(board, cid, r, ANY_TRAIN, on_board=True) == \
                            route_problem(board, cid, turned, ANY_TRAIN, on_board=True)
                        assert accept(r) == accept(turned)
                        compared[1] += 1
        before["state"] = state

    replay_export(json.loads(path.read_text(encoding="utf-8")), on_action=after)
    assert compared[0] > 20 and compared[1] > compared[0]
