"""Reading 18xx.games exports: the undo/redo filter, normalised actions, the seed and the site's generator.

The fixture tests read ../shared/data/18xx and skip when it is absent."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from engines.e18xx.companies import load_title
from engines.e18xx.importer import (
    SiteRandom,
    beginner_deal,
    filter_undone,
    game_seed,
    normalise_action,
    read_recorded,
    replay_actions,
)
from tests.e18xx_helpers import SHARED

FIXTURES = {"314.json": "1889-314.json", "hs_jmmljkbw_17502.json": "1889-hs_jmmljkbw_17502.json"}


def need_shared() -> Path:
    if not SHARED.is_dir():
        pytest.skip("../shared/data/18xx is absent (a user's clone): the recorded 18xx.games games are not here.")
    return SHARED


def act(i: int, kind: str = "pass", **fields) -> dict:
    return {"id": i, "type": kind, "entity": 1, "entity_type": "player", **fields}


def ids(actions) -> list:
    return [a["id"] for a in actions]


# -- undo / redo on hand-made logs ----------------------------------------------------------------------------


def test_undo_removes_the_last_action_but_not_messages():
    log = [act(1), act(2), act(3, "message", message="oops"), act(4, "undo"), act(5)]
    assert ids(filter_undone(log)) == [1, 3, 5]


def test_undo_twice_goes_back_twice_and_redo_comes_forward_in_turn():
    log = [act(1), act(2), act(3), act(4, "undo"), act(5, "undo")]
    assert ids(filter_undone(log)) == [1]
    assert ids(filter_undone(log + [act(6, "redo")])) == [1, 2]
    assert ids(filter_undone(log + [act(6, "redo"), act(7, "redo")])) == [1, 2, 3]
    # undo after a redo takes back what the redo restored
    assert ids(filter_undone(log + [act(6, "redo"), act(7, "undo")])) == [1]


def test_a_new_action_makes_undos_permanent():
    log = [act(1), act(2), act(3, "undo"), act(4)]
    assert ids(filter_undone(log)) == [1, 4]
    with pytest.raises(ValueError):
        filter_undone(log + [act(5, "redo")])
    # a message does not: the undone action can still come back
    assert ids(filter_undone([act(1), act(2), act(3, "undo"), act(4, "message"), act(5, "redo")])) == [1, 2, 4]


def test_undo_to_an_action_id():
    log = [act(1), act(2), act(3, "message"), act(4), act(5, "undo", action_id=1)]
    assert ids(filter_undone(log)) == [1, 3]  # back to right after action 1; the message stays
    assert ids(filter_undone(log + [act(6, "redo")])) == [1, 2, 3, 4]
    assert ids(filter_undone([act(1), act(2), act(3, "undo", action_id=0)])) == []
    with pytest.raises(ValueError):
        filter_undone([act(1), act(2, "undo", action_id=9)])


def test_undo_to_an_id_counts_positions_of_the_whole_log():
    # the target is found among all actions, undone ones included
    log = [act(1), act(2), act(3, "undo"), act(4, "redo"), act(5), act(6, "undo", action_id=2)]
    assert ids(filter_undone(log)) == [1, 2]


def test_undo_with_nothing_to_undo_is_harmless():
    log = [act(1, "message"), act(2, "undo"), act(3, "redo"), act(4)]
    assert ids(filter_undone(log)) == [1, 4]


def test_auto_actions_follow_their_carrier_and_vanish_with_it():
    carrier = act(2, auto_actions=[{"type": "buy_shares", "entity": 7, "entity_type": "player",
                                    "shares": ["KO_3"], "created_at": 5},
                                   {"type": "pass", "entity": 7, "entity_type": "player"}])
    title = load_title("1889")
    kept = filter_undone([act(1), carrier])
    out = replay_actions(kept, title)
    assert [a["type"] for a in out] == ["pass", "pass", "buy_shares", "pass"]
    assert out[2] == {"type": "buy_shares", "entity": 7, "entity_type": "player", "shares": ["KO_3"],
                      "percent": 10, "id": None, "auto_of": 2}
    assert replay_actions(filter_undone([act(1), carrier, act(3, "undo")]), title) == [
        normalise_action(act(1))]


def test_normalising_keeps_the_site_fields_and_fills_percent():
    title = load_title("1889")
    raw = {"type": "buy_shares", "entity": 90, "entity_type": "player", "id": 30, "shares": ["AR_0"],
           "created_at": 1, "user": 3, "original_id": 29, "skip": False}
    assert normalise_action(raw, title) == {"type": "buy_shares", "entity": 90, "entity_type": "player",
                                            "id": 30, "shares": ["AR_0"], "percent": 20}
    sale = {"type": "sell_shares", "entity": 1, "entity_type": "player", "id": 3, "shares": ["KO_3", "KO_0"],
            "percent": 20}
    assert normalise_action(sale, title)["percent"] == 20  # a partial sale keeps its own percent
    program = [act(1, "program_buy_shares", corporation="TR"), act(2, "message", message="hi"), act(3)]
    assert ids(replay_actions(program, title)) == [3]


def test_seed():
    assert game_seed({"id": 5, "settings": {"seed": 1879860849}}) == 1879860849
    assert game_seed({"id": "hs_jmmljkbw_17502", "settings": {"seed": ""}}) == 17502
    assert game_seed({"id": 314}) == 314
    assert game_seed({"id": "hotseat"}) == 0


def test_site_generator_and_beginner_deal():
    rng = SiteRandom(1)
    assert [rng.rand() for _ in range(2)] == [1103527590, 377401575]
    assert SiteRandom(2**31 + 1).rand() == 1103527590  # the seed is taken mod 2^31
    title = load_title("1889")
    # the deals the notes give, checked on the 18xx.games engine
    assert beginner_deal(title, 1, 2) == ["SIR", "DR"]
    assert beginner_deal(title, 17502, 3) == ["SIR", "ER", "DR"]
    assert beginner_deal(title, 314, 4) == ["SMR", "ER", "DR", "SIR"]
    assert beginner_deal(title, 962, 6) == ["DR", "TR", "MF", "SMR", "SIR", "ER"]


def test_read_recorded_hand_made():
    doc = {"id": "hs_abc_7", "title": "1889", "settings": {"optional_rules": ["beginner_game"]},
           "players": [{"id": 5, "name": "P1"}, {"id": 2, "name": "P2"}],
           "actions": [act(1, entity=5), act(2, "undo"), act(3, entity=2)], "result": {"5": 400, "2": 420},
           "game_end_reason": "manually_ended"}
    rec = read_recorded(doc)
    assert rec.title == "1889" and rec.seed == 7 and rec.options == ("beginner_game",)
    assert [p.id for p in rec.players] == [5, 2] and rec.seat_of(2) == 1
    assert ids(rec.actions) == [3] and rec.kept_ids == (3,)
    assert rec.result == {5: 400, 2: 420} and rec.game_end_reason == "manually_ended"


def test_older_exports_name_players_and_privates():
    """Exports from 2020 (tobymao/18xx spec fixtures 962, 5033) name a player by name in an action's entity and in
    the result, and a private by its full name."""
    doc = {"id": 962, "title": "1889", "players": [{"id": 1230, "name": "ann"}, {"id": 545, "name": "ben"}],
           "actions": [act(1, "bid", entity="ann", company="South Iyo Railway", price=85),
                       act(2, "buy_company", entity="KO", entity_type="corporation", company="Ehime Railway",
                           price=80),
                       act(3, entity="ben"), act(4, "buy_share", entity="ann", share="IR_1")],
           "result": {"ben": 4444, "ann": 3880}}
    rec = read_recorded(doc)
    assert [(a["entity"], a.get("company")) for a in rec.actions] == [(1230, "SIR"), ("KO", "ER"), (545, None),
                                                                      (1230, None)]
    assert rec.actions[-1]["type"] == "buy_shares" and rec.actions[-1]["shares"] == ["IR_1"]
    assert rec.actions[-1]["percent"] == 10
    assert rec.result == {545: 4444, 1230: 3880} and rec.game_end_reason is None


# -- the recorded games ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_fixture_filtering_matches_the_checkpoints(name):
    shared = need_shared()
    doc = json.loads((shared / "fixtures" / FIXTURES[name]).read_text(encoding="utf-8"))
    game = json.loads((shared / "fixtures" / "1889_checkpoints.json").read_text(encoding="utf-8"))["games"][name]
    rec = read_recorded(doc)
    kept = filter_undone(doc["actions"])
    # the site's own marks agree with our filter wherever the export carries them
    assert [a["id"] for a in doc["actions"] if not a.get("skip") and a["type"] not in ("undo", "redo")] == ids(kept)
    assert [p.id for p in rec.players] == game["players_seat_order"]
    assert rec.seed == game["seed"] and list(rec.options) == game["optional_rules"]
    assert rec.result == {int(k): v for k, v in game["result"].items()}
    assert rec.game_end_reason == game["game_end_reason"]
    after = [cp["after_action_id"] for cp in game["checkpoints"]]
    assert set(after) <= set(rec.kept_ids) and after[-1] == rec.kept_ids[-1]  # the game ends on the last action
    auto = sum(len(a.get("auto_actions") or ()) for a in kept)
    no_effect = sum(a["type"] == "message" or a["type"].startswith("program_") for a in kept)
    assert len(rec.actions) == len(kept) - no_effect + auto
    for action in rec.actions:
        if action["type"] in ("buy_shares", "sell_shares"):
            assert action["percent"] in (10, 20, 30, 40, 50, 60)


def test_fixture_action_counts():
    shared = need_shared()
    counts = {}
    for name, file in FIXTURES.items():
        rec = read_recorded(json.loads((shared / "fixtures" / file).read_text(encoding="utf-8")))
        counts[name] = (len(rec.kept_ids), len(rec.actions), sum("auto_of" in a for a in rec.actions))
    # 314: nothing undone; the hotseat game: one standing order dropped, its four auto moves flattened in
    assert counts == {"314.json": (457, 457, 0), "hs_jmmljkbw_17502.json": (50, 53, 4)}
