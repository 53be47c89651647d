"""The replay's own work around each recorded move (engines/e18xx/replay.py's translation, G.event): what it gives
the engine and what it leaves as it was."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from engines.e18xx import replay
from engines.e18xx.game import Shikoku1889
from engines.e18xx.state import G
from engines.text import Money, Name

FIXTURES = Path(__file__).resolve().parents[2] / "shared" / "data" / "18xx" / "fixtures"
#: the fields a translation drops besides bookkeeping: those saying nothing in our rules, and a token's site slot
DROPPED = {kind: set(fields) for kind, fields in replay.PLAIN.items()}
DROPPED["place_token"] |= {"tokener", "slot"}
DROPPED["remove_token"] = {"slot"}
DROPPED["buy_train"] = {"variant"}
DROPPED["buy_shares"] |= {"share_price"}


@pytest.mark.parametrize("name", ["1867-hs_ahjzadkh_19792", "1889-314"])
def test_a_recorded_move_is_ours_less_its_bookkeeping_and_a_players_name(name, monkeypatch):
    """Our action is the recorded one less `id` / `auto_of`, less `entity` / `entity_type` when a player acts (the
    seat says who), with a corporation's or private's entity as recorded; the recorded action is left as it was
    (a refusal names it, `on_action` sees it)."""
    path = FIXTURES / f"{name}.json"
    if not path.exists():
        pytest.skip("../shared/data/18xx is absent")
    seen = []
    translate = replay.translate

    def watched(engine, state, action, seats, copies):
        before = copy.deepcopy(action)
        seat, ours = translate(engine, state, action, seats, copies)
        assert action == before
        seen.append((action, ours))
        return seat, ours

    monkeypatch.setattr(replay, "translate", watched)
    replay.replay_export(json.loads(path.read_text()))
    assert len(seen) > 200
    for action, ours in seen:
        kind = action["type"]
        kept = set(action) - {"id", "auto_of"} - DROPPED.get(kind, set())
        if action["entity_type"] == "player":
            kept -= {"entity", "entity_type"}
        else:
            assert (ours["entity"], ours["entity_type"]) == (action["entity"], action["entity_type"])
        if kind in ("place_token", "remove_token"):
            kept.add("hex")  # the site's city id read as a hex and a city there
        assert set(ours) == kept, (action, ours)
        for key in kept - {"tile", "hex", "city", "routes"}:  # the ones read into our words
            assert ours[key] == action[key], (key, action, ours)
        if kind == "lay_tile":
            assert ours["tile"] == action["tile"].rpartition("-")[0]


def test_an_event_stores_its_values_as_json_and_leaves_the_callers_mapping_as_it_was():
    g = G(Shikoku1889().setup({}, 3))
    values = {"price": Money(80), "private": Name("Takamatsu", "高松"), "corp": "IR", "n": 2}
    g.event("{corp} buys {private} for {price} ({n}).", 1, **values)
    assert values == {"price": Money(80), "private": Name("Takamatsu", "高松"), "corp": "IR", "n": 2}
    last = g.s["events"][-1]
    assert last["seats"] == [1] and last["no"] == g.s["event_no"]
    assert last["values"] == {"price": {"$money": 80, "currency": "yen"},
                              "private": {"$name": ["Takamatsu", "高松", ""]}, "corp": "IR", "n": 2}
    json.dumps(g.s)  # the state stays plain JSON


def test_a_g_is_made_once_per_state_and_making_one_leaves_the_class_as_it_was():
    """G(state) of the state the last G was made for is that G (a replay asks several questions of each state);
    the last G is kept outside the class, whose attributes a new G never writes (a write renews the class's
    version, and the interpreter's specialised reads of every G's attributes start again)."""
    engine = Shikoku1889()
    first, second = engine.setup({}, 3), engine.setup({}, 3)
    before = dict(vars(G))
    g = G(first)
    assert G(first) is g
    assert G(second) is not g and G(second).s is second
    assert G(first) is not g and G(first).s is first  # a G for another state came between
    assert dict(vars(G)) == before
