"""Recorded 18xx.games games of 1889 replayed through our engine: exact final scores and end reason, the
reference engine's state at the end of every round, every dividend's price move, money conserved throughout,
and `python -m bot replay` on an export.

The recorded games live in ../shared/data/18xx; the tests that need them skip when it is absent."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engines.e18xx import trains
from engines.e18xx.game import Shikoku1889
from engines.e18xx.importer import read_recorded
from engines.e18xx.replay import ReplayFailed, UnknownTitle, is_18xx_export, replay_export, replay_recorded
from engines.e18xx.state import G, total_money

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared" / "data" / "18xx"
GAMES = {"314.json": "1889-314.json", "hs_jmmljkbw_17502.json": "1889-hs_jmmljkbw_17502.json"}


def need_shared() -> Path:
    if not SHARED.is_dir():
        pytest.skip("../shared/data/18xx is absent (a user's clone): the recorded 18xx.games games are not here.")
    return SHARED


def load(name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    shared = need_shared()
    doc = json.loads((shared / "fixtures" / GAMES[name]).read_text(encoding="utf-8"))
    checkpoints = json.loads((shared / "fixtures" / "1889_checkpoints.json").read_text(encoding="utf-8"))
    return doc, checkpoints["games"][name]


# ---- comparing with the reference engine -----------------------------------------------------------------

def ours(g: G, ids: list[int]) -> dict[str, Any]:
    """Our state in the checkpoint file's terms (players by id, corporations that have a price)."""
    s = g.s
    players = {}
    for seat, pid in enumerate(ids):
        key = g.key(seat)
        players[pid] = {"cash": s["cash"][seat], "companies": sorted(g.privates_of(key)),
                        "shares": {c: g.percent(c, key) for c in s["corps"] if g.percent(c, key)}}
    corps = {}
    for cid, corp in s["corps"].items():
        cell = g.cell(cid)
        if cell is None:
            continue
        president = g.president(cid)
        corps[cid] = {"price": cell.price, "price_cell": cell.id, "par": corp["par"], "cash": corp["cash"],
                      "floated": corp["floated"], "president": ids[president] if president is not None else None,
                      "trains": list(corp["trains"]), "companies": sorted(g.privates_of(cid)),
                      "pool_percent": g.percent(cid, "pool"), "ipo_percent": g.percent(cid, "ipo")}
    return {"bank": s["bank"], "phase": s["depot"]["phase"], "players": players, "corporations": corps,
            "player_order": [ids[seat] for seat in g.order], "depot_next": trains.depot_offer(g)}


def expected(checkpoint: dict[str, Any]) -> dict[str, Any]:
    keys = ("price", "price_cell", "par", "cash", "floated", "president", "trains", "companies", "pool_percent",
            "ipo_percent")
    return {
        "bank": checkpoint["bank"], "phase": checkpoint["phase"],
        "players": {p["id"]: {"cash": p["cash"], "companies": sorted(p["companies"]), "shares": p["shares"]}
                    for p in checkpoint["players"]},
        "corporations": {c["sym"]: {k: sorted(c[k]) if k == "companies" else c[k] for k in keys}
                         for c in checkpoint["corporations"]},
        "player_order": [p["id"] for p in checkpoint["players"]], "depot_next": checkpoint["depot_next"],
    }


def first_difference(a: Any, b: Any, path: str = "") -> str | None:
    """Where two JSON-like values first differ, as "path: ours X, expected Y", or None."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if key not in a or key not in b:
                return f"{path}.{key}: {'missing in ours' if key not in a else 'not expected'}"
            found = first_difference(a[key], b[key], f"{path}.{key}")
            if found:
                return found
        return None
    return None if a == b else f"{path}: ours {a!r}, expected {b!r}"


def test_first_difference_names_the_path():
    assert first_difference({"a": {"b": [1, 2]}}, {"a": {"b": [1, 2]}}) is None
    assert first_difference({"a": {"b": 1}}, {"a": {"b": 2}}) == ".a.b: ours 1, expected 2"
    assert first_difference({"a": 1}, {"a": 1, "c": 0}) == ".c: missing in ours"


# ---- the fixtures ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(GAMES))
def test_recorded_game_ends_with_the_recorded_scores_and_reason(name):
    doc, _ = load(name)
    recorded, done = replay_export(doc)
    assert done.scores == {int(k): v for k, v in doc["result"].items()}
    assert done.game_end_reason == doc["game_end_reason"]
    assert recorded.title == Shikoku1889.title_id and done.actions == len(recorded.actions)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_round_ends_as_on_the_site(name):
    doc, reference = load(name)
    ids = [p["id"] for p in doc["players"]]
    assert ids == reference["players_seat_order"]
    checkpoints = {c["at"].removeprefix("end of "): c for c in reference["checkpoints"]}
    seen: list[str] = []

    def at_round_end(g: G, round_name: str) -> None:
        assert round_name in checkpoints, f"the site has no round {round_name}"
        difference = first_difference(ours(g, ids), expected(checkpoints[round_name]))
        assert difference is None, f"end of {round_name}: {difference}"
        seen.append(round_name)

    _, done = replay_export(doc, on_round_end=at_round_end)
    ends = [c for c in reference["checkpoints"] if c["at"].startswith("game end")]
    assert seen == [c["at"].removeprefix("end of ") for c in reference["checkpoints"] if c not in ends]
    final = expected(ends[0])
    mine = ours(G(done.state), ids)
    assert first_difference(mine, final) is None, first_difference(mine, final)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_run_and_dividend_moves_the_price_as_on_the_site(name):
    """Run totals as recorded; after each dividend (or the automatic withhold of nothing) the price the site had."""
    doc, reference = load(name)
    runs = {o["action_id"]: o["total"] for o in reference["operating"] if "action_id" in o}
    moves: dict[int, list[tuple[str, str]]] = {}
    for o in reference["operating"]:
        if "dividend_action_id" in o:
            moves.setdefault(o["dividend_action_id"], []).append((o["corporation"], o["price_to"]))
    checked = []

    def after(action: dict[str, Any], state: dict[str, Any]) -> None:
        if action.get("id") is None or action.get("auto_of") is not None:
            return
        g = G(state)
        if action["id"] in runs:
            assert sum(r["revenue"] for r in g.round["runs"]) == runs[action["id"]], action["id"]
            checked.append(action["id"])
        for cid, cell in moves.get(action["id"], ()):
            assert g.cell(cid).id == cell, (action["id"], cid)
            checked.append(action["id"])

    replay_export(doc, on_action=after)
    assert len(checked) == len(runs) + sum(len(v) for v in moves.values())


@pytest.mark.parametrize("name", sorted(GAMES))
def test_money_is_conserved_after_every_action(name):
    doc, _ = load(name)
    bank = 7000

    def after(action: dict[str, Any], state: dict[str, Any]) -> None:
        assert total_money(state) == bank, action
        json.loads(json.dumps(state))  # and the state stays JSON

    replay_export(doc, on_action=after)


def test_a_recorded_game_replays_through_the_cli():
    need_shared()
    path = SHARED / "fixtures" / GAMES["314.json"]
    r = subprocess.run([sys.executable, "-m", "bot", "replay", str(path)], cwd=REPO, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == {
        "title": "1889", "game": 314, "players": [639, 90, 344], "actions": 457, "over": True,
        "game_end_reason": "bankrupt", "scores": {"639": 320, "90": 1473, "344": 1134}, "matches_recorded": True}


def test_a_log_that_goes_wrong_names_the_action_and_why(tmp_path):
    doc, _ = load("314.json")
    next(a for a in doc["actions"] if a["id"] == 86)["routes"][0]["train"] = "5-0"
    with pytest.raises(ReplayFailed) as e:
        replay_export(doc)
    assert str(e.value) == ("Action 86 (run_routes by SR) cannot be replayed: "
                            "Each route needs one of SR's trains (2-2, 2-3), once.")
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "bot", "replay", str(path)], cwd=REPO, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert json.loads(r.stdout) == {"error": str(e.value)}


# ---- without the fixtures ----------------------------------------------------------------------------------

def export(title: str = "1889", players: int = 3, seed: int = 17502, options: list[str] | None = None,
           actions: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {"id": seed, "title": title, "players": [{"id": 100 + i, "name": f"P{i}"} for i in range(players)],
            "settings": {"seed": seed, "optional_rules": options or []}, "actions": actions or [],
            "result": {}, "game_end_reason": None}


def test_an_unknown_title_is_refused_with_a_sentence(tmp_path):
    with pytest.raises(UnknownTitle, match="no rules for the 18xx title '1830'; it knows 1889, 1867"):
        replay_export(export("1830"))
    path = tmp_path / "g.json"
    path.write_text(json.dumps(export("1830")), encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "bot", "replay", str(path)], cwd=REPO, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 1
    said = "This bot has no rules for the 18xx title '1830'; it knows 1889, 1867, 1807."
    assert json.loads(r.stdout) == {"error": said}


def test_an_export_is_recognised_by_its_title_and_entity_types():
    assert is_18xx_export(export(actions=[{"type": "pass", "entity": 100, "entity_type": "player", "id": 1}]))
    assert is_18xx_export(export())
    assert not is_18xx_export({"format": "boardbot-log", "game": "dicehand", "actions": []})
    assert not is_18xx_export(export(actions=[{"type": "pass"}]))


def test_the_beginner_game_deals_as_the_site_does():
    """The site's seeded shuffle: seed 17502 with 3 players deals SIR, ER, DR (import notes §9)."""
    done = replay_recorded(read_recorded(export(options=["beginner_game"])))
    owners = {pid: p["owner"] for pid, p in done.state["privates"].items()}
    assert owners == {"SIR": "0", "ER": "1", "DR": "2"}
    assert done.state["cash"] == [420 - 90, 420 - 40, 420 - 60]
    assert done.state["round"]["kind"] == "stock" and done.game_end_reason is None


def test_a_crafted_action_is_refused_with_a_sentence_naming_it():
    """Crafted logs reach `python -m bot replay`: a junk entity or field is a ReplayFailed, never a crash."""
    for bad, why in [({"type": "pass", "entity": [100], "entity_type": "player"}, "names no player"),
                     ({"type": "bid", "entity": 100, "entity_type": "player", "company": "TR", "price": 20,
                       "trusted": True}, "A bid move has no 'trusted'"),
                     ({"type": "bid", "entity": 100, "entity_type": "player", "company": "TR", "price": "20"},
                      "The price of a bid move must be a whole number")]:
        with pytest.raises(ReplayFailed, match=why):
            replay_recorded(read_recorded(export(actions=[{**bad, "id": 1}])))


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_shortcuts_settle_takes_agree_with_the_full_lists(name):
    """After every action settle asks whether a step has anything to do; it asks without listing everything: a
    corporation has a route when a tokened city has track to another stop, a player has a stock move when one
    purchase, par or sale is found. Both agree with the full lists at every state of the recorded games."""
    from engines.e18xx import stock
    from engines.e18xx.route import all_routes
    doc, _ = load(name)
    seen = {"route": set(), "stock": set()}

    def after(action: dict[str, Any], state: dict[str, Any]) -> None:
        g = G(state)
        for cid in state["corps"]:
            has = trains.route_available(g, cid)
            assert has == bool(all_routes(g.board, cid, 2)), (action, cid)
            seen["route"].add(has)
        if g.round["kind"] == "stock":
            for seat in range(g.n):
                has = stock.has_move(g, seat)
                assert has == any(m["type"] != "pass" for m in stock.turn_moves(g, seat)), (action, seat)
                seen["stock"].add(has)

    replay_export(doc, on_action=after)
    assert seen["stock"] == {True, False}
    assert seen["route"] == ({True, False} if name == "314.json" else {False})  # the other one ends before any run


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_replay_in_place_ends_in_the_state_of_one_that_copies_every_step(name):
    """Without a listener a replay applies each action to the same state (no copy to keep); it must end exactly
    where the replay that hands every intermediate state to a listener ends."""
    doc, _ = load(name)
    kept: list[dict[str, Any]] = []
    _, in_place = replay_export(doc)
    _, copied = replay_export(doc, on_action=lambda action, state: kept.append(state))
    assert in_place.state == copied.state and in_place.scores == copied.scores
    assert len({id(s) for s in kept}) == len(kept)  # each listener saw a state of its own


def track_steps(fixture: str) -> list[dict[str, Any]]:
    """The state at every track step of a recorded game (its file among the fixtures)."""
    doc = json.loads((need_shared() / "fixtures" / fixture).read_text(encoding="utf-8"))
    states: list[dict[str, Any]] = []
    replay_export(doc, on_action=lambda action, state: states.append(state) if (
        state["round"]["kind"] == "operating" and state["round"].get("step") == "track") else None)
    return states


def test_a_board_after_a_lay_derives_its_track_as_a_new_board_reads_it():
    """A lay on a board whose track is computed derives the new board's track from it (the legal lays try every
    upgrade on a board of its own): the track, the paths at each end and the reach equal a board read afresh."""
    from engines.e18xx import operating
    from engines.e18xx.board import Board, legal_lays
    states = track_steps(GAMES["314.json"])
    compared = 0
    for state in states[::4]:
        g = G(state)
        corp = operating.current(g)
        board = g.board
        board.reachable(corp)  # computes its track
        for lay in legal_lays(board, corp, g.colours)[:12]:
            derived = board.lay_tile(lay.hex, lay.tile, lay.rotation)
            assert "_track" in derived.__dict__ and "_paths_at" in derived.__dict__
            fresh = Board.from_json(board.map, derived.to_json())
            assert derived._track == fresh._track and derived._paths_at == fresh._paths_at
            assert derived.reachable(corp) == fresh.reachable(corp)
            compared += 1
    assert compared > 50


def test_the_reach_and_first_entries_read_from_the_traced_walk_are_the_walks_own():
    """legal_lays reads a board's reach and the hexes' first entries from its traced walk: at every track step of
    314, the same as the reach walk and the entries walk of a board that has no trace."""
    from engines.e18xx import operating
    from engines.e18xx.board import Board
    states = track_steps(GAMES["314.json"])
    for state in states:
        g = G(state)
        corp = operating.current(g)
        traced = Board(g.map, laid=dict(g.board.laid), tokens=dict(g.board.tokens), reserved=dict(g.board.reserved))
        plain = Board(g.map, laid=dict(g.board.laid), tokens=dict(g.board.tokens), reserved=dict(g.board.reserved))
        traced.trace(corp)
        assert traced.reachable(corp) == plain.reachable(corp)
        assert traced.first_entries(corp) == plain.first_entries(corp)
        assert not plain._traces  # the plain board walked for itself, with no trace
    assert len(states) > 40


def _upgrades_answered_as_a_walk(state: dict[str, Any]):
    """Every upgrade open to the operating corporation in `state`, once the new-track rule has been checked to give
    the same answer as a walk of the board after the lay: (board, laid board, hex, gained paths, corporation,
    the walk's answer) for each."""
    from engines.e18xx import board as bd
    from engines.e18xx import operating
    g = G(state)
    corp, board = operating.current(g), g.board
    walks = bd._Walks()  # the lays asked together share the variants' walks and their searches' steps, as in legal_lays
    for coord in board.reachable(corp).edges:
        if coord not in board.laid or coord not in board.map.printed:
            continue
        for name in board.map.tiles:
            for rotation in range(6):
                lay = bd.Lay(coord, name, rotation)
                if bd.lay_problem(board, lay, g.colours, None) is not None:
                    continue
                laid = board.lay_tile(coord, name, rotation)
                gains = bd._gains(board, laid, coord)
                walked = bool(gains) and laid._walk(corp, lambda c, p, h=coord, gains=gains: c == h and p in gains)
                assert bd._uses_new_track(board, lay, corp, walks) == walked, lay
                yield board, laid, coord, gains, corp, walked


def test_the_new_track_rule_answers_as_a_full_walk_of_the_board_after_the_lay():
    """_uses_new_track answers most upgrades from where the walk on the board before first comes into the hex;
    for every upgrade open to the operating corporation at the track steps of a recorded game, it says what a walk
    of the whole board after the lay says."""
    answers = {"shortcut": 0, "walked": 0}
    for state in track_steps(GAMES["314.json"])[::2]:
        for board, laid, coord, gains, corp, _ in _upgrades_answered_as_a_walk(state):
            edge = board.first_entries(corp).get(coord)
            quick = edge is not None and any(edge in laid.paths(coord)[i] for i in gains)
            answers["shortcut" if quick else "walked"] += 1
    assert answers["shortcut"] > 20 and answers["walked"] > 20, answers


def test_on_1867s_big_map_the_new_track_rule_answers_as_a_full_walk_too():
    """On 1867's map most upgrades the walk before cannot answer add a path to an exit the walk leaves by; they are
    answered from a walk shared by the lays of the same variant (_answer_from_variant): for every upgrade open to the
    operating corporation at some track steps of a recorded game, the same answer as a walk of the board after."""
    from engines.e18xx import board as bd
    variants = 0
    for state in track_steps("1867-21268.json")[10::16]:
        for board, laid, coord, gains, corp, _ in _upgrades_answered_as_a_walk(state):
            variants += bool(gains) and bd._answer_from_trace(board, laid, coord, gains, corp) is None
    assert variants > 50, variants


def test_on_1867s_densest_boards_the_new_track_rule_answers_as_a_full_walk_too():
    """The late boards of nationalization_cash are where the walk has most converging exits: there the variant's walk
    tells whether a converging part would take a gained path by a search instead of walking it
    (_VariantWalk: _fork_reach, then _fork_takes). For every upgrade open to the operating corporation at the last track
    steps of the game, the same answer as a walk of the board after the lay, with many upgrades past the trace and
    the first entry, answered both ways."""
    from engines.e18xx import board as bd
    by_variant = {True: 0, False: 0}
    for state in track_steps("1867-nationalization_cash.json")[-5::4]:
        for board, laid, coord, gains, corp, walked in _upgrades_answered_as_a_walk(state):
            entry = board.first_entries(corp).get(coord)
            if gains and not (entry is not None and any(entry in laid.paths(coord)[i] for i in gains)) and (
                    bd._answer_from_trace(board, laid, coord, gains, corp) is None):
                by_variant[walked] += 1
    assert by_variant[True] > 10 and by_variant[False] > 10, by_variant


def _new_track_asked_together(g: G, board, corp: str):
    """The "new track" question of every upgrade open to `corp`, asked together as legal_lays asks them, with the
    variants' walks they share kept where a test reads them (legal_lays keeps them for its call only)."""
    from engines.e18xx.board import Lay, _uses_new_track, _Walks, lay_problem
    walks = _Walks()
    for coord in sorted(board.reachable(corp).edges):
        for name in board.map.tiles if coord in board.laid else ():
            for rotation in range(6):
                if lay_problem(board, Lay(coord, name, rotation), g.colours, None) is None:
                    _uses_new_track(board, Lay(coord, name, rotation), corp, walks)
    return walks


def test_a_variant_walks_forks_are_answered_as_walking_them_answers():
    """A variant's walk (_VariantWalk) does not walk its converging parts: at each fork, a search of where its chains
    could come to the hex (_fork_reach) rules out the gained paths with neither end there, and a search per gained
    path (_fork_takes) tells the rest, or cannot (then the part is walked). On 21268's boards where all three happen,
    every fork asked: its walk looks at the hex only by ends the reach search found, and each told answer is the
    walk's."""
    from engines.e18xx import operating
    states = track_steps("1867-21268.json")
    told = {True: 0, False: 0, None: 0}
    ruled_out = 0
    for state in (states[145], states[154], states[160]):
        g = G(state)
        corp, board = operating.current(g), g.board
        walks = _new_track_asked_together(g, board, corp)
        for walk in walks.values():
            for i, fork in enumerate(walk.forks):
                if i not in walk._reach:
                    continue  # never asked: an earlier look or fork answered every question
                looks = walk._fork_looks(fork)
                assert {end for end, _ in looks} <= walk._reach[i]
                ruled_out += not walk._reach[i]
                for (j, ends, edges), answer in walk._told.items():
                    if j == i:
                        told[answer] += 1
                        walked = any(end in ends and not edges & left for end, left in looks)
                        assert answer is None or answer == walked, (fork, ends)
    assert ruled_out > 20 and all(n > 5 for n in told.values()), (ruled_out, told)


def test_a_variants_walk_started_where_it_first_comes_to_its_hex_looks_as_the_whole_walk():
    """Until a variant's walk first comes to its hex it goes as the board's traced walk, so it starts there, with the
    marks and the calls under way the trace noted (_Prefix); a converging part it would fork before then comes into
    the hex only if the trace's part from the same moment did (_Prefix.parts_into), and the others are left out.
    On three of 21268's late boards, every variant's walk made so looks at its hex as the whole walk of a board with
    no trace, keeps forks of that walk, fewer, and each fork left out, walked, never looks at the hex."""
    from engines.e18xx import operating
    from engines.e18xx.board import Board, _Steps
    states = track_steps("1867-21268.json")
    kept = left_out = resumed = 0
    for state in (states[145], states[154], states[160]):
        g = G(state)
        corp, board = operating.current(g), g.board
        walks = _new_track_asked_together(g, board, corp)
        touches = board._traces[corp].prefix.touches
        # the searches' steps the walks share are the board's own (each walk's hex has steps of its own)
        own = _Steps(board._track, board._paths_at, board.map._steps,
                     lambda ref, b=board, c=corp: b.node(ref).kind != "offboard" and not b.blocks(ref, c), "", {})
        assert len(walks.steps) > 50 and all(own[state] == steps for state, steps in walks.steps.items())
        untraced = Board(g.map, laid=dict(board.laid), tokens=dict(board.tokens), reserved=dict(board.reserved))
        for key, walk in walks.items():
            full = untraced.variant_walk(*key)
            assert full.looks == walk.looks
            marks = {(f.coord, f.back, f.paths, f.used, f.nodes, f.left) for f in walk.forks}
            assert marks <= {(f.coord, f.back, f.paths, f.used, f.nodes, f.left) for f in full.forks}
            for fork in full.forks:
                if (fork.coord, fork.back, fork.paths, fork.used, fork.nodes, fork.left) not in marks:
                    assert not full._fork_looks(fork)
                    left_out += 1
            kept += len(walk.forks)
            resumed += any(at[0] == key[1] and touch[0] != () for at, touch in touches.items())  # past a token's start
    assert left_out > 100 and kept > 100 and resumed > 20, (left_out, kept, resumed)


def test_what_a_board_keeps_after_legal_lays_is_no_work_for_the_garbage_collector():
    """A board kept by content (32 of them) outlives many calls, so what it keeps is gone over by every full pass of
    the garbage collector: after legal_lays on one of 1867's densest boards it keeps each lay's "new track" answer
    under a key the collector stops tracking (strings and ints), and none of the variants' walks the lays shared
    (tens of thousands of objects on such boards, never asked again once each lay's answer is kept)."""
    import gc

    from engines.e18xx import operating
    from engines.e18xx.board import Board, _Fork, _VariantWalk, legal_lays
    g = G(track_steps("1867-nationalization_cash.json")[-3])
    corp = operating.current(g)
    board = Board(g.map, laid=dict(g.board.laid), tokens=dict(g.board.tokens), reserved=dict(g.board.reserved))
    legal_lays(board, corp, g.colours)
    gc.collect()
    assert len(board._new_track) > 100 and not gc.is_tracked(board._new_track)
    seen, stack, kept = set(), [v for k, v in vars(board).items() if k != "map"], []
    while stack:  # everything the board's own keeps hold
        obj = stack.pop()
        if id(obj) not in seen and not isinstance(obj, type):
            seen.add(id(obj))
            kept.append(obj)
            stack.extend(gc.get_referents(obj))
    assert not any(isinstance(obj, (_VariantWalk, _Fork)) for obj in kept)


def test_the_newest_exports_fields_that_say_nothing_in_1889_are_read_and_any_that_say_more_refused():
    """The site's exports grew fields since these games were recorded (a run's extra revenue and subsidy, the token's
    placer, a train's variant, a share's price, a route's halts): a game carrying them as 1889 fills them replays as
    before; a value 1889 has no rule for is refused with a sentence naming it."""
    shared = need_shared()
    doc = json.loads((shared / "fixtures" / "1889-962.json").read_text(encoding="utf-8"))
    grown = json.loads(json.dumps(doc))
    before: dict[Any, dict[str, Any]] = {}  # the state each recorded action was played on, by its id
    last: list[dict[str, Any]] = [{}]

    def keep(action: dict[str, Any], state: dict[str, Any]) -> None:
        before[action.get("id")] = last[0]
        last[0] = state

    replay_export(doc, on_action=keep)
    for action in grown["actions"]:
        kind = action["type"]
        if kind == "buy_shares" and action.get("entity_type") == "player" and before.get(action["id"]):
            state, cert = before[action["id"]], action["shares"][0]
            corp = state["corps"][cert.rpartition("_")[0]]
            action["share_price"] = corp["par"] if cert in corp["shares"].get("ipo", []) else \
                G(state).price(cert.rpartition("_")[0])
        if kind == "run_routes":
            action.update(extra_revenue=0, subsidy=0)
            for route in action["routes"]:
                route.update(subsidy=0, halts=None, abilities=[])
        elif kind == "place_token":
            action["tokener"] = action["entity"]
        elif kind == "buy_train":
            action["variant"] = action["train"].rpartition("-")[0]
        elif kind in ("buy_shares", "par"):
            action.update(purchase_for=None, borrow_from=None)
    _, plain = replay_export(doc)
    _, read = replay_export(grown)
    assert read.scores == plain.scores == {int(k): v for k, v in doc["result"].items()}
    assert any("share_price" in a for a in grown["actions"] if a["type"] == "buy_shares")
    run = next(a for a in grown["actions"] if a["type"] == "run_routes")
    run["extra_revenue"] = 20
    with pytest.raises(ReplayFailed, match="The extra_revenue of '20' in this run_routes has no rule in 1889"):
        replay_export(grown)
    run["extra_revenue"] = 0
    buy = next(a for a in grown["actions"] if a["type"] == "buy_shares" and "share_price" in a)
    buy["share_price"] += 5
    with pytest.raises(ReplayFailed, match="The share_price of .* in this buy_shares has no rule in 1889"):
        replay_export(grown)


def test_a_board_after_lays_keeps_only_the_chains_that_the_lays_cannot_change(monkeypatch):
    """A board made by lays keeps the chains of the boards before it whose walk never looked at a hex laid since
    (route.chains_from): a cold replay of 962 (its routes are read from their connections) checks every kept entry
    against a walk of its own board; it fails if a chain through a hex laid since is kept."""
    from engines.e18xx import route
    from engines.e18xx.board import forget_boards
    doc = json.loads((need_shared() / "fixtures" / "1889-962.json").read_text(encoding="utf-8"))
    kept_chains, kept = route._kept_chains, []

    def checked(board, start):
        found = kept_chains(board, start)
        if found is not None:
            assert found[0] == tuple(route._follow_chains(board, start)), start
            kept.append(start)
        return found

    monkeypatch.setattr(route, "_kept_chains", checked)
    forget_boards()  # a game not seen before: every board's chains are followed or kept, none known by content
    replay_export(doc)
    assert len(kept) > 50


def test_a_purchase_refused_without_words_is_refused_exactly_when_it_is_refused_in_words():
    """The stock turn's list of purchases asks buy_problem unworded (most refusals word two amounts that nobody
    reads): at every stock state of 314, for every player and certificate on sale, it refuses exactly what the
    worded check refuses."""
    from engines.e18xx import stock
    from engines.e18xx.companies import IPO, POOL
    doc, _ = load("314.json")
    seen = set()

    def after(action: dict[str, Any], state: dict[str, Any]) -> None:
        g = G(state)
        if g.round["kind"] != "stock":
            return
        for seat in range(g.n):
            for cid in state["corps"]:
                for source, cert in ((IPO, g.ipo_cert(cid)), (POOL, g.pool_cert(cid))):
                    if cert:
                        worded = stock.buy_problem(g, seat, cid, cert, source)
                        assert (stock.buy_problem(g, seat, cid, cert, source, worded=False) is None) == (
                            worded is None), (action, seat, cert)
                        seen.add(worded is None)

    replay_export(doc, on_action=after)
    assert seen == {True, False}


def _chains_matching_from_both_ends(board, hex_list):
    """route._chains_matching as it read the chains of both end hexes (the slow reference)."""
    from engines.e18xx import route
    hex_list = tuple(h.split()[0] for h in hex_list)
    found = []
    for start in dict.fromkeys(h for h in hex_list if h in (hex_list[0], hex_list[-1])):
        for index in range(len(board.tile(start).nodes)):
            for chain in route.chains_from(board, (start, index)):
                if chain.hexes == hex_list or chain.hexes[::-1] == hex_list:
                    found.append(chain if chain.hexes == hex_list else chain.reversed())
    if not found:
        return None  # read in another order: the same code either way
    return list({(c.a, c.b, c.paths) if c.a <= c.b else (c.b, c.a, c.paths[::-1]): c for c in found}.values())


@pytest.mark.parametrize("name", ["1889-962.json", "1867-hs_ahjzadkh_19792.json"])
def test_a_recorded_connections_chains_read_from_its_first_hex_are_those_read_from_both_ends(name, monkeypatch):
    """route._chains_matching reads only the chains of a connection's first hex (those from its last hex are the
    same turned round): for every connection of the recorded runs of two games whose routes are read from their
    connections, the same chains in the same order as reading both ends; and the last hex's chains are not asked
    (it fails if they are read again)."""
    from engines.e18xx import route
    doc = json.loads((need_shared() / "fixtures" / name).read_text(encoding="utf-8"))
    matching, compared = route._chains_matching, []

    def checked(board, hex_list):
        asked = []
        chains_from = route.chains_from
        monkeypatch.setattr(route, "chains_from", lambda b, start: asked.append(start[0]) or chains_from(b, start))
        try:
            found = matching(board, hex_list)
        finally:
            monkeypatch.setattr(route, "chains_from", chains_from)
        reference = _chains_matching_from_both_ends(board, hex_list)
        if reference is not None:
            assert found == reference, hex_list
            first, last = hex_list[0].split()[0], hex_list[-1].split()[0]
            assert first == last or last not in asked, hex_list
            compared.append(hex_list)
        return found

    monkeypatch.setattr(route, "_chains_matching", checked)
    replay_export(doc)
    assert len(compared) >= 30


def boards_written(monkeypatch, *names: str) -> list:
    """Every board the replays of these fixtures write (G.set_board), each replay's boards made afresh."""
    from engines.e18xx.board import forget_boards
    written = []
    set_board = G.set_board

    def recorded(g, board):
        set_board(g, board)
        written.append(board)

    monkeypatch.setattr(G, "set_board", recorded)
    for name in names:
        forget_boards()
        replay_export(json.loads((need_shared() / "fixtures" / name).read_text(encoding="utf-8")))
    return written


def test_the_tiles_left_are_the_supplys_count_at_every_board_a_replay_writes(monkeypatch):
    """Board.left (a replay's check of each lay) counts the laid tiles of one name: at every board a replay of
    962 and of hs_ahjzadkh_19792 writes, for every tile of the manifest, with and without the Beginner Game's
    rule, it is what the whole supply says."""
    written = boards_written(monkeypatch, "1889-962.json", "1867-hs_ahjzadkh_19792.json")
    assert len(written) > 100
    for board in written:
        for rules in ((), ("beginner_game",)):
            supply = board.supply(rules)
            assert {t: board.left(t, rules) for t in board.map.tiles} == {t: supply.get(t, 0) for t in board.map.tiles}


def test_a_board_written_from_the_last_boards_json_is_written_as_a_whole_board_is(monkeypatch):
    """A board made by a lay or by tokens is written (to_json) from the last JSON written before it with the
    changed hexes' entries anew: at every board a replay of 962, hs_ahjzadkh_19792 and 21268 writes, the same
    JSON, in the same order, as a board with the same contents written whole (it fails when an entry is left out,
    kept stale or put out of order); boards made by several changes (a merger's or a nationalisation's tokens)
    are among them, and a part no change touched is the JSON before's own; the key of its tiles, derived by
    lay_tile, is theirs sorted."""
    from engines.e18xx.board import Board
    written = boards_written(monkeypatch, "1889-962.json", "1867-hs_ahjzadkh_19792.json", "1867-21268.json")
    derived = [b for b in written if "_json_before" in b.__dict__]
    assert len(derived) > 200
    assert sum(len(b.__dict__["_json_before"][1]) > 1 for b in derived) >= 10  # several hexes changed since
    shared = 0
    for board in written:
        whole = Board(board.map, dict(board.laid), dict(board.tokens), dict(board.reserved))
        assert json.dumps(board.to_json()) == json.dumps(whole.to_json())
        if "_json_before" in board.__dict__:
            before = board.__dict__["_json_before"][0]
            shared += sum(board.to_json()[part] is before[part] for part in ("laid", "tokens", "reserved"))
        if "_laid_key_before" in board.__dict__:  # the tiles' key, put together from the board before's
            assert board._tiles_key() == tuple(sorted(board.laid.items()))
    assert sum("_laid_key_before" in b.__dict__ for b in written) > 80
    assert shared > len(derived)  # most changes leave two of the three parts as they were
