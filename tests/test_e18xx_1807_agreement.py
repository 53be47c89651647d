"""1807 as 18xx.games plays it, and replay equal to live (issue 17, "Proof"): the rules found by loading our exported
games in the site's engine (bench/e18xx_agreement.py --title 1807; docs/rules/1807.md, Rulings), and whole
selfplay games of 3, 4 and 5 players whose log, exported and read back, gives the live game's state."""
from __future__ import annotations

import json
import random
from functools import cache

import pytest

import engines
from bot.replay import replay_file
from bot.selfplay import play_one
from engines import log as game_log
from engines.base import CHANCE, RuleError
from engines.e18xx.g1867 import charter, merger
from engines.e18xx.state import G, total_money

ENGINE = engines.get("1807")


def dealt(seed: int = 1, players: int = 4) -> G:
    state = ENGINE.setup({}, players)
    return G(ENGINE.apply(state, CHANCE, {"type": "pick", "index": seed - 1}))


def start_minor(g: G, cid: str, seat: int) -> None:
    """A started minor on its printed home, at £100."""
    cell = next(c for c in g.title.market.cells if c.price == 100)
    g.s["market"] = g.title.market.with_par(g.s["market"], cid, cell)
    g.corp(cid).update(floated=True, president=str(seat), shares={str(seat): list(g.cdef(cid).share_ids)})
    g.set_board(g.board.place_token(g.map.homes[cid], cid, g.map.home_nodes.get(cid, 0)))


def test_a_minor_with_a_london_token_may_merge_with_any_minor_in_london():
    """Merger round (the seed: London's cities count as joined to each other; the site's G1807 Merge): LB in London
    (M27) reaches LH in London (K27) with no track between them; BG, outside London, does not."""
    g = dealt()
    for cid, seat in (("LB", 0), ("LH", 1), ("BG", 2)):
        start_minor(g, cid, seat)
    g.s["round"] = {"kind": "merger", "merging": []}
    assert "LH" not in {ref[0] for ref in g.board.reachable("LB").nodes}  # no track joins them
    assert "LH" in merger.candidates(g, "LB") and merger._any_candidate(g, "LB")
    assert "LH" not in merger.candidates(g, "BG") and not merger._any_candidate(g, "BG")
    assert "LB" in merger.candidates(g, "LH")


def test_1867_counts_only_track_for_a_merger():
    g = G(engines.get("1867").setup({}, 3))
    assert g.rules.merge_reach(g, "CV") == []


def test_a_public_company_formed_by_a_merger_has_four_tokens_the_new_ones_20():
    """The site's G1807 fix_token_count!: the charter made up to four tokens at £20 (1867: a £40 one to make
    three), whether the merged tokens were reduced to two or not."""
    g = dealt()
    corp = g.corp("NER")
    corp["charter"] = [[0, ["U7", 0]], [20, ["U11", 0]], [20, None], [20, None]]  # two minors merged: kept whole
    charter.fill_up(g, "NER")
    assert corp["charter"] == [[0, ["U7", 0]], [20, ["U11", 0]], [20, None], [20, None]]
    corp["charter"] = [[0, ["U7", 0]], [20, None], [20, ["U11", 0]], [20, ["U9", 0]], [0, None]]
    charter.release(g, "NER", "U9", 0)  # three merged, one removed: two kept, then filled up
    charter.keep_after_merger(g, "NER", merger.TOKENS_AFTER_MERGER)
    assert corp["charter"] == [[0, ["U7", 0]], [20, ["U11", 0]], [20, None], [20, None]]
    g1867 = G(engines.get("1867").setup({}, 3))
    g1867.corp("CNR")["charter"] = [[0, ["L12", 0]], [0, ["F16", 0]]]
    charter.fill_up(g1867, "CNR")
    assert g1867.corp("CNR")["charter"] == [[0, ["L12", 0]], [0, ["F16", 0]], [40, None]]


def _major_homes(g: G) -> set[str]:
    g.board.__dict__.pop("_home_cities", None)
    return {coord for coord, _ in g.rules.home_cities(g, "NER")}


def test_a_public_companys_home_is_judged_by_its_hex():
    """Par (ruling "A public company's home"): Birmingham's three stations (L16) are one city: once one of them is
    joined by track to Manchester (M17), none of them is "not joined", as on the site (G1867 unconnected_hexes)."""
    g = dealt()
    assert "L16" in _major_homes(g)
    g.set_board(g.board.lay_tile("L16", "BF5", 3).lay_tile("M17", "622", 4))
    assert "L16" not in _major_homes(g) and _major_homes(g)


def test_track_coming_back_to_a_city_joins_it_for_a_public_companys_home():
    """Par: track leaving A9 and coming back to it (a loop through B8 and A7) counts as joining it to a stop, as on
    the site, whose walk finds the city's own other track."""
    g = dealt()
    assert "A9" in _major_homes(g)
    g.set_board(g.board.lay_tile("A9", "201", 0).lay_tile("B8", "7", 2).lay_tile("A7", "7", 4))
    assert "A9" not in _major_homes(g) and _major_homes(g)


def at_routes_step(g: G, cid: str, trains: list[str]) -> None:
    """`cid` floated with these trains, at the routes step of its operating turn."""
    cell = next(c for c in g.title.market.cells if c.price == 50)
    g.s["market"] = g.title.market.with_par(g.s["market"], cid, cell)
    g.corp(cid).update(floated=True, president="0", cash=0, trains=trains)
    g.s["round"] = {"kind": "operating", "turn": 1, "or": 1, "of": 2, "order": [cid], "index": 0, "step": "routes",
                    "laid": True, "lays": [], "tokened": True, "revenue": None, "runs": [], "special": None,
                    "acted": False}


def test_a_route_visits_one_city_of_a_hex():
    """Routes (1867's "no hex twice"; 18xx.games's 1807 check_city_revisited): a route leaving Glasgow's green BF1
    by one city and coming back to another (D6-E7-E5-D6, £80) is neither offered nor accepted; the best legal run
    is Glasgow to the town of F4 (£50)."""
    from engines.e18xx import operating
    g = dealt(1)
    g.set_board(g.board.lay_tile("D6", "BF1", 2).lay_tile("E7", "7", 1).lay_tile("E5", "27", 3)
                .lay_tile("F4", "4", 0).place_token("D6", "GA"))
    at_routes_step(g, "GA", ["2-0"])
    loop = {"type": "run_routes", "routes": [{"train": "2-0", "connections": [["D6", "E7", "E5", "D6"]]}]}
    with pytest.raises(RuleError, match="hex twice"):
        operating.apply(g, 0, loop)
    best = operating.best_run_action(g, "GA")
    assert best["routes"] == [{"train": "2-0", "connections": [["D6", "E5", "F4"]]}]
    operating.apply(g, 0, best)
    assert g.round["revenue"] == 50


@cache
def _played(players: int, seed: int) -> dict:
    return play_one("1807", players, random.Random(seed), max_actions=20_000)


@pytest.mark.parametrize("players, seed", [(3, 3), (4, 1), (5, 4)])
def test_selfplay_ends_and_the_exported_log_replays_to_the_live_state(tmp_path, players, seed):
    """Selfplay of 3-5 players ends, money only moved; the log exported (`/game export`) and read back by `python
    -m bot replay` ends in the live game's state and scores."""
    played = _played(players, seed)
    live = played["state"]
    assert live["over"] in ("final_phase", "dnf")
    assert total_money(live) == G(live).title.bank
    doc = game_log.export(ENGINE, {}, [f"p{i}" for i in range(players)],
                          [(n, e["seat"], e["action"]) for n, e in enumerate(played["log"], 1)])
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    result, ok = replay_file(path)
    assert ok and result["over"] and result["scores"] == played["scores"], result
    _, replayed = game_log.replay_export(json.loads(path.read_text(encoding="utf-8")))
    assert replayed == live


def test_a_minor_starts_in_its_home_city_where_an_upgrade_has_put_it():
    """A minor's home is its printed city, followed through upgrades (as the site's reservation is): Glasgow's first
    tile (BF1) turns D6 so that GA's token moves to city 1 and GC's home to city 0, where GC may still start."""
    g = dealt()
    start_minor(g, "GA", 0)
    g.set_board(g.board.lay_tile("D6", "BF1", 2))
    assert g.board.token_nodes("GA") == [("D6", 1)]
    g.s["flags"]["batch"]["GC"], g.s["flags"]["batch3"] = 3, True
    assert g.rules.home_cities(g, "GC") == [("D6", 0)]
