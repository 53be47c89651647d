"""18xx core: hex names and neighbours, tile text and rotation, the upgrade rule, the 1889 map and board.

Reads only our own files, except the last test, which compares our map with ../shared when it is there."""
from __future__ import annotations

import json

import pytest

from engines.base import RuleError
from engines.e18xx import hexes
from engines.e18xx.board import (
    Board,
    Lay,
    check_lay,
    lay_problem,
    legal_lays,
    legal_tokens,
    load_map,
    token_problem,
)
from engines.e18xx.companies import load_title
from engines.e18xx.tiles import parse_tile, upgrade_rotations, upgrades_to
from tests.e18xx_helpers import BROWN, GREEN, SHARED, YELLOW


@pytest.fixture(scope="module")
def m():
    return load_map("g1889")


def tile(m, name):
    return m.tiles[name]


# ---- hexes ------------------------------------------------------------------------------------------

def test_names_and_doubled_coordinates_round_trip():
    assert hexes.doubled("F9") == (5, 8)
    assert hexes.doubled("A10") == (0, 9)
    assert hexes.doubled("AA12") == (26, 11)
    assert hexes.doubled("F9", "pointy") == (8, 5)
    for name in ("A1", "F9", "L7", "AA12", "AZ3"):
        for layout in ("flat", "pointy"):
            assert hexes.name_of(*hexes.doubled(name, layout), layout) == name
    with pytest.raises(ValueError):
        hexes.doubled("f9")


def test_flat_neighbours_follow_18xx_games_edge_numbers():
    # 0 = bottom, then clockwise: lower-left, upper-left, top, upper-right, lower-right
    around_f9 = [hexes.neighbour("F9", e) for e in hexes.EDGES]
    assert around_f9 == ["F11", "E10", "E8", "F7", "G8", "G10"]
    assert hexes.neighbour("A2", 1) is None  # no column left of A
    assert hexes.edge_between("F9", "G10") == 5
    assert hexes.edge_between("F9", "F13") is None
    assert [hexes.opposite(e) for e in hexes.EDGES] == [3, 4, 5, 0, 1, 2]


def test_pointy_neighbours():
    # 0 = lower-left, 1 = left, 2 = upper-left, 3 = upper-right, 4 = right, 5 = lower-right
    around = [hexes.neighbour("E5", e, "pointy") for e in hexes.EDGES]
    assert around == ["F4", "E3", "D4", "D6", "E7", "F6"]


@pytest.mark.parametrize("layout", ["flat", "pointy"])
def test_axial_steps_agree_with_neighbours(layout):
    for name in ("F9", "E2", "B3", "K8", "C7", "D4"):
        q, r = hexes.to_axial(name, layout)
        for edge in hexes.EDGES:
            other = hexes.neighbour(name, edge, layout)
            if other is None:
                continue
            dq, dr = hexes.axial_step(edge, layout)
            assert hexes.to_axial(other, layout) == (q + dq, r + dr)


def test_offset_coordinates_fold_the_doubled_rows():
    assert hexes.to_offset("F9") == (5, 4)
    assert hexes.to_offset("F11") == (5, 5)
    assert hexes.to_offset("E10") == (4, 4)


# ---- tiles ------------------------------------------------------------------------------------------

def test_tile_text_parses_nodes_paths_and_labels():
    t = parse_tile("439", "green city:60:2 0-_0 2-_0 4-_0 label:H cost:80")
    assert (t.colour, t.cities, t.towns, t.label, t.cost) == ("green", 1, 0, "H", 80)
    assert t.nodes[0].slots == 2 and t.nodes[0].revenue == 60
    assert t.exits() == {0, 2, 4}
    plain = parse_tile("H5", "white cost:80:water+mountain")
    assert plain.terrain == ("water", "mountain") and not plain.paths
    with pytest.raises(ValueError):
        parse_tile("x", "green city:30 0-_1")
    with pytest.raises(ValueError):
        parse_tile("x", "purple 0-3")
    with pytest.raises(ValueError):
        parse_tile("x", "green 0-7")


def test_offboard_revenue_by_phase_colour_and_diesel(m):
    imabari = m.printed["F1"].nodes[0]
    assert imabari.revenue_for(("yellow",)) == 30
    assert imabari.revenue_for(("yellow", "green")) == 30  # no green value: the yellow one holds
    assert imabari.revenue_for(("yellow", "green", "brown")) == 60
    assert imabari.revenue_for(("yellow", "green", "brown"), diesel=True) == 100


def test_rotation_turns_each_edge_clockwise(m):
    assert tile(m, "7").exits(0) == {0, 1}
    assert tile(m, "7").exits(1) == {1, 2}
    assert tile(m, "7").exits(5) == {5, 0}
    # The notes' example: ER lays 14 on C4 with rotation 1, edges 1, 2, 4, 5, keeping C4's track to edge 2.
    assert tile(m, "14").exits(1) == {1, 2, 4, 5}
    assert 1 in upgrade_rotations(m.printed["C4"], 0, tile(m, "14"))


def test_yellow_track_upgrades_to_green_that_keeps_it(m):
    assert upgrade_rotations(tile(m, "9"), 0, tile(m, "20")) == (0, 2, 3, 5)
    assert upgrade_rotations(tile(m, "8"), 0, tile(m, "16")) == (0, 5)
    assert upgrade_rotations(tile(m, "7"), 0, tile(m, "26")) == (1,)
    assert upgrade_rotations(tile(m, "9"), 2, tile(m, "20")) == (1, 2, 4, 5)  # 9 laid as 2-5
    assert not upgrades_to(tile(m, "9"), tile(m, "16"))  # no straight on 16
    assert not upgrades_to(tile(m, "7"), tile(m, "20"))
    assert not upgrades_to(tile(m, "9"), tile(m, "47"))  # yellow to brown skips green
    assert not upgrades_to(tile(m, "9"), tile(m, "15"))  # track does not become a city
    greens_for_7 = {n for n, t in m.tiles.items() if upgrades_to(tile(m, "7"), t) and not n.startswith("Beg")}
    assert greens_for_7 == {"26", "27", "28", "29"}


def test_city_tiles_upgrade_to_cities_and_towns_stay_towns(m):
    greens_for_57 = {n for n, t in m.tiles.items() if upgrades_to(tile(m, "57"), t)}
    assert greens_for_57 == {"14", "15", "205", "206"}
    assert not any(upgrades_to(tile(m, "58"), t) for t in m.tiles.values())  # 1889 has no green towns
    assert upgrades_to(m.printed["J5"], tile(m, "58"))
    assert not upgrades_to(m.printed["J5"], tile(m, "5"))
    assert not upgrades_to(m.printed["D3"], tile(m, "3"))  # a plain hex takes plain track
    assert upgrades_to(m.printed["D3"], tile(m, "3"), special=True)


def test_labels_must_match(m):
    assert upgrades_to(m.printed["I4"], tile(m, "438"))  # Kotohira: H only
    assert not upgrades_to(m.printed["I4"], tile(m, "57"))
    assert upgrades_to(tile(m, "438"), tile(m, "439"))
    assert not upgrades_to(tile(m, "438"), tile(m, "15"))
    assert upgrades_to(m.printed["K4"], tile(m, "440"))  # Takamatsu: T
    assert not upgrades_to(m.printed["K4"], tile(m, "15"))
    assert upgrades_to(m.printed["F9"], tile(m, "465"))  # Kouchi: K
    assert not upgrades_to(m.printed["F9"], tile(m, "448"))
    assert not upgrades_to(m.printed["C4"], tile(m, "439"))
    assert upgrades_to(m.printed["C4"], tile(m, "439"), special=True)  # a private's lay skips the label rule


# ---- the 1889 map -----------------------------------------------------------------------------------

def test_1889_map_loads(m):
    assert m.title == "1889" and m.layout == "flat"
    assert len(m.printed) == 52
    assert m.homes == {"AR": "K8", "IR": "E2", "SR": "I2", "KO": "K4", "TR": "F9", "KU": "C10", "UR": "B7"}
    for corp, coord in m.homes.items():
        assert m.printed[coord].cities == 1, corp
    assert m.names["F9"] == "Kouchi"
    assert (m.printed["F9"].colour, m.printed["F9"].label, m.printed["F9"].nodes[0].slots) == ("green", "K", 2)
    assert m.printed["K4"].label == "T" and m.printed["I4"].label == "H"
    assert {c for c, t in m.printed.items() if t.colour == "red"} == {"F1", "J1", "L7"}
    # which private blocks which hex, and each phase's tile colours, are the title's (companies.json)
    title = load_title("1889")
    blocks = {h: p.id for p in title.privates for a in p.abilities_of("blocks_hexes") for h in a["hexes"]}
    assert blocks == {"K4": "TR", "C4": "ER"}
    assert title.phase("2").tiles == YELLOW and title.phase("D").tiles == BROWN
    # every hex name has letter index + number even on this map
    assert all(sum(hexes.doubled(c)) % 2 == 1 for c in m.printed)


def test_manifest_counts_and_beginner_tiles(m):
    plain = m.manifest()
    assert plain["8"] == 5 and plain["9"] == 5 and plain["448"] == 4 and plain["437"] == 1
    assert "Beg6" not in plain
    assert sum(plain.values()) == 63
    assert m.manifest(["beginner_game"])["Beg6"] == 2


def test_links_exclude_off_map_and_closed_gray_edges(m):
    assert m.linked("B9", 0) and not m.linked("B9", 3)  # Uwajima has no track facing B9
    assert m.linked("C8", 2)  # ...but does face C8
    assert not m.linked("A8", 1)  # off the map
    assert m.linked("I8", 4) and not m.linked("J5", 0)  # J7's track runs I8 - K8 only


# ---- the board --------------------------------------------------------------------------------------

def test_lay_and_supply(m):
    b = Board.new(m)
    assert b.supply()["8"] == 5
    b2 = b.lay_tile("J3", "8", 3)
    assert b2.tile("J3").name == "8" and b2.rotation("J3") == 3
    assert b2.paths("J3") == ((3, 5),)
    assert b2.supply()["8"] == 4 and b.supply()["8"] == 5  # boards are values
    b3 = b2.lay_tile("J3", "23", 5)
    assert b3.supply()["8"] == 5 and b3.supply()["23"] == 1  # the replaced tile went back
    assert b.lay_cost("K6") == 80 and b.lay_cost("J3") == 0 and b.lay_cost("F9") == 80


def test_home_slots_are_reserved(m):
    b = Board.new(m)
    assert b.free_slot("K8", "KO") is None  # Tokushima's one slot waits for AR
    assert b.free_slot("K8", "AR") == 0
    assert b.free_slot("F9", "IR") == 1  # Kouchi has two slots: TR is owed the first
    b = b.place_token("F9", "IR")
    assert b.slots("F9") == (None, "IR")
    b = b.place_token("F9", "TR")
    assert b.slots("F9") == ("TR", "IR") and "F9" not in b.reserved
    with pytest.raises(RuleError):
        b.place_token("F9", "KO")


def test_tokens_move_to_the_new_tile_and_full_cities_block(m):
    b = Board.new(m).place_token("I2", "SR").lay_tile("I2", "6", 4)
    assert b.slots("I2") == ("SR",)
    assert b.blocks(("I2", 0), "KO") and not b.blocks(("I2", 0), "SR")
    b = b.lay_tile("I2", "15", 4)
    assert b.slots("I2") == ("SR", None) and not b.blocks(("I2", 0), "KO")
    assert not b.blocks(("J5", 0), "KO")  # towns never block


def test_reach_starts_at_tokens_and_stops_at_full_cities(m):
    b = Board.new(m).place_token("K4", "KO")
    net = b.reachable("KO")
    assert net.nodes == {("K4", 0)}
    assert net.edges["K4"] == {0, 1, 2} and net.edges["J3"] == {5}
    b = b.lay_tile("J3", "8", 3).lay_tile("I2", "6", 5).place_token("I2", "SR").lay_tile("H3", "9", 1)
    # J3: K4 - J1; I2 (J3 - city - H3, full with SR) is not on KO's track yet
    assert ("I2", 0) not in b.reachable("KO").nodes
    assert ("J1", 0) in b.reachable("KO").nodes
    b = b.lay_tile("J3", "23", 5)  # K4 - I2 and K4 - J1
    net = b.reachable("KO")
    assert ("I2", 0) in net.nodes  # KO reaches the full city...
    assert "H3" not in net.edges  # ...but not through it


def test_legal_lays_from_a_home_token(m):
    b = Board.new(m).place_token("K4", "KO")
    lays = legal_lays(b, "KO", YELLOW, blocked=["K4"])
    assert [(x.hex, x.tile, x.rotation) for x in lays] == [
        ("J3", "7", 5), ("J3", "8", 3), ("J3", "8", 5), ("J3", "9", 2),
        ("J5", "3", 3), ("J5", "3", 4), ("J5", "58", 2),
        ("K6", "7", 2), ("K6", "8", 3), ("K6", "9", 0),
    ]  # the straight 9 at rotation 5 (J3) and 3 (K6) lays the same track as at 2 and 0: listed once
    assert check_lay(b, Lay("J3", "9", 5), YELLOW, "KO", blocked=["K4"]).tile("J3").name == "9"
    assert all(m.linked(x.hex, e) for x in lays for e in m.tiles[x.tile].exits(x.rotation))
    assert not any(x.hex == "K4" for x in lays)


def test_lay_problems_read_as_sentences(m):
    b = Board.new(m).place_token("K4", "KO")
    blocked = {"K4": "Takamatsu E-Railroad"}
    assert str(lay_problem(b, Lay("K4", "440", 0), GREEN, "KO", blocked=blocked)) == (
        "Takamatsu (K4) is blocked by Takamatsu E-Railroad."
    )
    assert lay_problem(b, Lay("K6", "9", 0), YELLOW, "KO") is None
    assert str(lay_problem(b, Lay("K6", "9", 1), YELLOW, "KO")) == (
        "Tile 9 in rotation 1 would run track off the map or into a closed edge at K6."
    )
    assert str(lay_problem(b, Lay("K6", "24", 0), YELLOW, "KO")) == "Green tiles are not available in this phase."
    assert str(lay_problem(b, Lay("C8", "9", 0), YELLOW, "KO")) == "KO cannot reach C8."
    assert str(lay_problem(b, Lay("K6", "437", 0), YELLOW, "KO")) == (
        "Tile 437 can only be placed by a private company's ability."
    )
    assert str(lay_problem(b, Lay("K6", "99", 0), YELLOW, "KO")) == "There is no tile 99 in this game."
    assert str(lay_problem(b, Lay("K6", "Beg7", 2), YELLOW, "KO")) == "There is no tile Beg7 in this game."
    assert lay_problem(b, Lay("K6", "Beg7", 2), YELLOW, "KO", optional_rules=["beginner_game"]) is None
    b = b.lay_tile("K6", "9", 0)
    assert str(lay_problem(b, Lay("K6", "26", 1), GREEN, "KO")) == (
        "Tile 26 in rotation 1 does not keep the track already on K6."
    )
    # rotation 0 keeps K4 - K8 but adds only K8 - Naruto, which KO's trains cannot get onto
    assert "must give KO new track" in str(lay_problem(b, Lay("K6", "26", 0), GREEN, "KO"))
    with pytest.raises(RuleError, match="not available"):
        check_lay(b, Lay("K6", "26", 3), YELLOW, "KO")
    assert check_lay(b, Lay("K6", "26", 3), GREEN, "KO").tile("K6").name == "26"


def test_private_ability_lays(m):
    b = Board.new(m)
    port = Lay("G10", "437", 0)
    assert lay_problem(b, port, YELLOW, None, ability_tiles=["437"]) is None  # MF needs no connection
    assert lay_problem(b, Lay("C4", "439", 0), GREEN, None, special=True) is None  # ER skips the label rule
    assert "cannot replace" in str(lay_problem(b, Lay("C4", "439", 0), GREEN, None))


def test_an_upgrade_must_add_reachable_track_or_revenue(m):
    b = Board.new(m).place_token("K4", "KO").lay_tile("J3", "9", 2)  # K4 - I2 straight
    # 20 keeps the straight and adds J5 - J1, which KO cannot reach: refused
    assert str(lay_problem(b, Lay("J3", "20", 2), GREEN, "KO")) == (
        "The new tile must give KO new track or change a city's revenue."
    )
    # 23 adds K4 - J1 off KO's own track: fine
    assert lay_problem(b, Lay("J3", "23", 5), GREEN, "KO") is None
    # a city upgrade that adds no track but raises the revenue is fine (440 -> 466: 40 -> 60, same exits)
    c = Board.new(m).place_token("K4", "KO").lay_tile("K4", "440", 0)
    assert lay_problem(c, Lay("K4", "466", 0), BROWN, "KO") is None


def test_token_rules(m):
    b = Board.new(m).place_token("K4", "KO").lay_tile("J3", "8", 3)
    assert str(token_problem(b, "KO", "I2")) == "KO cannot reach Marugame (I2)."
    assert str(token_problem(b, "KO", "K4")) == "KO already has a token on Takamatsu (K4)."
    assert str(token_problem(b, "KO", "J3")) == "There is no city on J3."
    b = b.lay_tile("J3", "23", 5).lay_tile("I2", "6", 5)
    assert str(token_problem(b, "KO", "I2")) == "Marugame (I2) has no free slot for KO."  # owed to SR
    assert legal_tokens(b, "KO") == []
    b = b.lay_tile("I2", "15", 4)
    assert legal_tokens(b, "KO") == [("I2", 0)]


def test_board_json_round_trip(m):
    b = Board.new(m).place_token("K4", "KO").lay_tile("J3", "8", 3).lay_tile("K4", "440", 0)
    data = json.loads(json.dumps(b.to_json()))
    again = Board.from_json(m, data)
    assert again.to_json() == b.to_json()
    assert again.slots("K4") == ("KO", None)


# ---- cross-check with the shared facts (optional) ---------------------------------------------------

def test_map_matches_the_shared_1889_data(m):
    source, tiles_file = SHARED / "1889.json", SHARED / "standard_tiles_1889.json"
    if not source.exists() or not tiles_file.exists():
        pytest.skip("../shared/data is absent; our map.json is checked against it only where it exists")
    data = json.loads(source.read_text(encoding="utf-8"))
    assert {h["coord"] for h in data["hexes"]} == set(m.printed)
    for h in data["hexes"]:
        coord = h["coord"]
        links = {str(e): m.neighbour(coord, e) for e in hexes.EDGES if m.linked(coord, e)}
        assert links == h["neighbors"], coord
        assert m.printed[coord].colour == h["color"], coord
    assert {c["sym"]: c["home"] for c in data["corporations"]} == dict(m.homes)
    assert {n: t["count"] for n, t in data["tiles"].items()} == dict(m.counts)
    # the upgrade table the engine computes: every pair, its rotations and whether only a private may lay it
    table = json.loads(tiles_file.read_text(encoding="utf-8"))["upgrades"]["table"]
    for source_name, entries in table.items():
        old = m.printed[source_name[4:]] if source_name.startswith("hex:") else m.tiles[source_name]
        expected = {}
        for e in entries:
            rotations = tuple(range(6)) if e["rotations"] == "any" else tuple(e["rotations"])
            expected[e["to"]] = (rotations, bool(e.get("special_only")))
        found = {
            name: (upgrade_rotations(old, 0, new), not upgrades_to(old, new))
            for name, new in m.tiles.items()
            if not name.startswith("Beg") and upgrades_to(old, new, special=True)
        }
        assert found == expected, source_name
