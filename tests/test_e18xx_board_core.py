"""18xx board core beyond 1889: hex-edge borders, hexes with several cities, and the pointy layout.

Each test builds a small hand-written map in our own format. Expected values are worked out by hand from the
edge conventions in engines/e18xx/hexes.py. The last test reads the 1807 data in ../shared when it is there."""
from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from engines.base import RuleError
from engines.e18xx import hexes, lays
from engines.e18xx.board import (
    Board,
    Lay,
    check_lay,
    lay_problem,
    legal_lays,
    legal_tokens,
    map_from_json,
    token_problem,
)
from engines.e18xx.route import best_runs, chains_from, exhaustive_best, route_from_connections, route_problem, train
from engines.e18xx.tiles import Border, city_map, keeps_track, parse_tile, upgrade_rotations, upgrades_to
from tests.e18xx_helpers import BROWN, GREEN, SHARED, YELLOW

TILES = {
    "57": "yellow city:20 0-_0 3-_0",
    "Y1": "yellow city:20 0-_0",  # a city with one exit, handy at the ends of a small map
    "7": "yellow 0-1",
    "9": "yellow 0-3",
    "20": "green 0-3 1-4",
    "OOy": "yellow city:30 city:30 0-_0 3-_1 label:OO",
    "OOswap": "green city:40 city:40 3-_0 4-_0 0-_1 1-_1 label:OO",  # its city 0 takes edge 3, city 1 edge 0
    "OOmerge": "green city:40 city:40 0-_0 3-_0 1-_1 4-_1 label:OO",  # one city would take both old edges
    "G2": "green city:30:2 0-_0 1-_0 3-_0 4-_0",
}


def make_map(layout: str, hex_text: dict[str, str], homes: dict | None = None, home_nodes: dict | None = None):
    return map_from_json({
        "title": "test", "layout": layout, "hexes": hex_text, "homes": homes or {}, "home_nodes": home_nodes or {},
        "impassable_colours": ["gray", "red"], "tiles": {name: {"def": d, "count": 9} for name, d in TILES.items()},
    })


# ---- pointy hexes -----------------------------------------------------------------------------------

def test_pointy_neighbours_of_c5_by_hand():
    # pointy: x = number - 1, y = letter; 0 lower-left, 1 left, 2 upper-left, 3 upper-right, 4 right, 5 lower-right
    assert [hexes.neighbour("C5", e, "pointy") for e in hexes.EDGES] == ["D4", "C3", "B4", "B6", "C7", "D6"]
    assert hexes.neighbour("A1", 1, "pointy") is None  # no number 0
    assert hexes.neighbour("A1", 2, "pointy") is None  # no row above A
    assert hexes.edge_between("C5", "D6", "pointy") == 5
    assert hexes.edge_between("C5", "C9", "pointy") is None


def test_pointy_edges_match_borders_that_1807_lists_on_both_sides():
    # 1807's Kirkcaldy C11 has impassable edge 0 and Edinburgh D10 edge 3; H10 edge 1 faces H8's edge 4;
    # Edinburgh's water edge 2 faces C9 and D12's impassable edge 2 faces C11.
    assert hexes.neighbour("C11", 0, "pointy") == "D10"
    assert hexes.neighbour("D10", 3, "pointy") == "C11"
    assert hexes.neighbour("H10", 1, "pointy") == "H8" and hexes.neighbour("H8", 4, "pointy") == "H10"
    assert hexes.neighbour("D10", 2, "pointy") == "C9"
    assert hexes.neighbour("D12", 2, "pointy") == "C11"


def test_a_rotation_turns_a_pointy_tile_clockwise():
    curve = parse_tile("7", TILES["7"])  # lower-left to left
    assert curve.exits(2) == {2, 3}  # upper-left and upper-right
    assert {hexes.neighbour("C5", e, "pointy") for e in curve.exits(2)} == {"B4", "B6"}
    assert curve.exits(5) == {5, 0}


def pointy_map():
    block = {h: "white" for h in ("B2", "B4", "B6", "B8", "C1", "C5", "D2", "D4", "D6", "D8")}
    return make_map("pointy", {
        **block,
        "C3": "white city:0",
        "C7": "white city:0",
        "C9": "red offboard:yellow=30/brown=60 1-_0",
    }, homes={"AA": "C3"})


def test_a_pointy_map_end_to_end_lay_token_and_route():
    m = pointy_map()
    b = Board.new(m).place_token("C3", "AA")
    b = check_lay(b, Lay("C3", "57", 1), YELLOW, "AA")  # C1 - C3 - C5
    assert {lay for lay in legal_lays(b, "AA", YELLOW) if lay.hex == "C5"} == {
        Lay("C5", "7", 0), Lay("C5", "7", 1), Lay("C5", "9", 1)}  # each uses C5's left edge, which AA reaches
    assert "adds no track" in str(lay_problem(b, Lay("C5", "9", 0), YELLOW, "AA"))
    assert str(lay_problem(b, Lay("C5", "9", 1), YELLOW, "AA", blocked={"C5": "Test Private"})) == (
        "C5 is blocked by Test Private.")
    b = check_lay(b, Lay("C5", "9", 1), YELLOW, "AA")
    b = check_lay(b, Lay("C7", "57", 1), YELLOW, "AA")  # C5 - C7 - the offboard C9
    assert legal_tokens(b, "AA") == [("C7", 0)]
    assert str(token_problem(b, "AA", "C9")) == "There is no city on C9."
    b = b.place_token("C7", "AA")
    assert best_runs(b, "AA", ["2"], YELLOW)[0] == 50  # C7 20 + C9 30 beats C3 20 + C7 20
    total, runs = best_runs(b, "AA", ["3"], YELLOW)
    assert total == 70 and sorted(runs[0].route.hexes) == ["C3", "C7", "C9"]
    assert best_runs(b, "AA", ["3"], BROWN)[0] == 100  # C9 pays 60 from the brown phase
    assert exhaustive_best(b, "AA", [train("2"), train("3")], YELLOW) == best_runs(b, "AA", ["2", "3"], YELLOW)[0]


# ---- borders ----------------------------------------------------------------------------------------

def test_border_tokens_parse():
    t = parse_tile("X1", "white city:0 border:2 border:4:80:water")
    assert t.borders == (Border(2), Border(4, 80, "water"))
    assert t.borders[0].impassable and not t.borders[1].impassable
    for bad in ("white border:2:0", "white border:7", "white border:2 border:2:80", "white border:_0"):
        with pytest.raises(ValueError):
            parse_tile("X1", bad)


def border_map():
    # Three rows on a pointy map, each a home city, a plain hex and a city: C has an impassable border between
    # C5 and C7 listed on C5, G the same listed on G7's side, E a water border (cost 80) listed on E5.
    return make_map("pointy", {
        "C3": "white city:0", "C5": "white border:4", "C7": "white city:0",
        "E3": "white city:0", "E5": "white border:4:80:water", "E7": "white city:0",
        "G3": "white city:0", "G5": "white", "G7": "white city:0 border:1",
    }, homes={"AA": "C3", "BB": "E3", "CC": "G3"})


def home_track(m) -> Board:
    b = Board.new(m)
    for corp, coord in m.homes.items():
        b = check_lay(b.place_token(coord, corp), Lay(coord, "Y1", 4), YELLOW, corp)  # the home city's track right
    return b


def test_a_border_on_one_side_is_known_from_both():
    m = border_map()
    assert (m.borders["C5", 4], m.borders["C7", 1]) == (Border(4), Border(1))
    assert (m.borders["G5", 4], m.borders["G7", 1]) == (Border(4), Border(1))
    assert m.borders["E7", 1] == Border(1, 80, "water")
    assert m.neighbour("C5", 4) == "C7" and m.across("C5", 4) is None
    assert not m.linked("C5", 4) and not m.linked("C7", 1) and not m.linked("G5", 4)
    assert m.linked("E5", 4) and m.linked("C5", 1)


def test_the_two_sides_of_a_border_must_agree():
    same = make_map("pointy", {"C3": "white border:4:80:water", "C5": "white border:1:80:water"})
    assert same.borders["C3", 4] == Border(4, 80, "water")
    with pytest.raises(ValueError):
        make_map("pointy", {"C3": "white border:4", "C5": "white border:1:80:water"})
    with pytest.raises(ValueError):
        map_from_json({"title": "t", "layout": "flat", "hexes": {}, "tiles": {"x": {"def": "yellow border:1",
                                                                                     "count": 1}}})


def test_no_tile_may_run_track_across_an_impassable_border():
    b = home_track(border_map())
    for coord, corp in (("C5", "AA"), ("G5", "CC")):
        problem = lay_problem(b, Lay(coord, "9", 1), YELLOW, corp)
        assert str(problem) == f"Tile 9 in rotation 1 would run track across an impassable border at {coord}."
        assert not any(4 in b.map.tiles[lay.tile].exits(lay.rotation)
                       for lay in legal_lays(b, corp, YELLOW) if lay.hex == coord)
    assert lay_problem(b, Lay("E5", "9", 1), YELLOW, "BB") is None  # water is crossed for a price


def test_reach_and_routes_stop_at_an_impassable_border_even_where_track_faces_it():
    # Lay the track without the legality check: the walk must still not cross.
    b = home_track(border_map()).lay_tile("C5", "9", 1).lay_tile("C7", "Y1", 1)
    network = b.reachable("AA")
    assert network.nodes == {("C3", 0)} and "C7" not in network.edges
    assert chains_from(b, ("C3", 0)) == ()
    assert best_runs(b, "AA", ["2"], YELLOW)[0] == 0
    with pytest.raises(RuleError):
        route_from_connections(b, [["C3", "C5", "C7"]])


def test_a_water_border_is_paid_by_the_lay_that_first_joins_track_across_it():
    b = home_track(border_map())
    assert b.lay_cost("E5", "9", 1) == 0  # E7 has no track facing back yet
    b = check_lay(b, Lay("E5", "9", 1), YELLOW, "BB")
    assert b.joined_borders("E7", "Y1", 1) == [Border(1, 80, "water")]
    assert b.lay_cost("E7", "Y1", 1) == 80 and b.lay_cost("E7") == 0  # without the tile: terrain only
    b = check_lay(b, Lay("E7", "Y1", 1), YELLOW, "BB")
    assert b.lay_cost("E5", "20", 1) == 0  # E5 already ran track across: paid once only
    # The other order: the neighbour's track is down first, so E5's lay pays.
    first = home_track(border_map()).lay_tile("E7", "Y1", 1)
    assert first.lay_cost("E5", "9", 1) == 80


def test_a_terrain_discount_for_water_lowers_a_water_border():
    b = check_lay(home_track(border_map()), Lay("E5", "9", 1), YELLOW, "BB")

    def game(terrain):
        ability = {"terrain": terrain, "amount": 40}
        return SimpleNamespace(board=b, privates_of=lambda cid: ["P"], ability=lambda pid, kind: ability)

    assert lays.lay_cost(game("water"), "BB", "E7", "Y1", 1) == 40
    assert lays.lay_cost(game("mountain"), "BB", "E7", "Y1", 1) == 80
    assert lays.lay_cost(game("water"), "BB", "E7") == 0


# ---- several cities on a hex --------------------------------------------------------------------------

def oo_map(homes=None, home_nodes=None):
    # Flat: C1 above C3 (C3's edge 3), C5 below it (edge 0); B4 and D2 are C3's edges 1 and 4.
    return make_map("flat", {
        "C1": "white city:0", "C3": "white city:0 city:0 label:OO", "C5": "white city:0", "B4": "white",
        "D2": "white",
    }, homes=homes if homes is not None else {"AA": "C1", "BB": "C5"}, home_nodes=home_nodes)


def test_cities_stay_apart_when_an_oo_tile_is_upgraded():
    old, swap, merge = (parse_tile(n, TILES[n]) for n in ("OOy", "OOswap", "OOmerge"))
    assert upgrade_rotations(old, 0, swap) == (0, 2, 3, 5)
    assert keeps_track(old, 0, merge, 0)  # its track would do, but city 0 would take both old cities' edges
    assert upgrade_rotations(old, 0, merge) == () and not upgrades_to(old, merge)
    assert city_map(old, 0, swap, 0) == {0: 1, 1: 0}
    assert city_map(old, 0, swap, 3) == {0: 0, 1: 1}
    blank = parse_tile("C3", "white city:0 city:0 label:OO")
    assert city_map(blank, 0, old, 0) == {0: 0, 1: 1}  # cities without track map in order


def oo_board() -> Board:
    b = Board.new(oo_map()).place_token("C1", "AA").place_token("C5", "BB")
    b = check_lay(b, Lay("C1", "Y1", 0), YELLOW, "AA")
    b = check_lay(b, Lay("C5", "Y1", 3), YELLOW, "BB")
    return check_lay(b, Lay("C3", "OOy", 0), YELLOW, "AA")  # city 0 faces C5, city 1 faces C1


def test_each_city_of_a_hex_is_reached_and_tokened_on_its_own():
    b = oo_board()
    assert legal_tokens(b, "AA") == [("C3", 1)] and legal_tokens(b, "BB") == [("C3", 0)]
    assert str(token_problem(b, "AA", "C3", 0)) == "AA cannot reach C3."
    assert str(token_problem(b, "AA", "C3", 2)) == "C3 has no city 2."
    b = b.place_token("C3", "AA", 1)
    assert (b.slots("C3", 0), b.slots("C3", 1)) == ((None,), ("AA",))
    assert b.blocks(("C3", 1), "BB") and not b.blocks(("C3", 0), "BB")  # AA's token fills only its own city
    assert token_problem(b, "BB", "C3", 0) is None
    assert str(token_problem(b, "AA", "C3", 0)) == "AA already has a token on C3."  # one token a hex
    b = b.place_token("C3", "BB", 0)
    total, runs = best_runs(b, "AA", ["4"], YELLOW)
    assert total == 50 and runs[0].route.stops in (
        (("C1", 0), ("C3", 1)), (("C3", 1), ("C1", 0)))  # city 1 has no track on to city 0 and C5
    assert best_runs(b, "BB", ["2"], YELLOW)[0] == 50


def test_an_upgrade_moves_each_citys_tokens_to_the_city_that_keeps_its_edges():
    b = oo_board().place_token("C3", "AA", 1).place_token("C3", "BB", 0)
    b = check_lay(b, Lay("C3", "OOswap", 0), GREEN, "AA")
    assert (b.slots("C3", 0), b.slots("C3", 1)) == (("AA",), ("BB",))
    total, runs = best_runs(b, "AA", ["2"], GREEN)
    assert total == 60 and ("C3", 0) in runs[0].route.stops  # C1 20 + AA's city, now node 0, 40


def test_a_home_in_the_second_city_keeps_its_slot_through_upgrades():
    with pytest.raises(ValueError):
        oo_map(homes={"DD": "C3"}, home_nodes={"DD": 2})
    b = Board.new(oo_map(homes={"DD": "C3"}, home_nodes={"DD": 1}))
    assert b.reserved == {"C3:1": "DD"}
    assert (b.reservation("C3", 0), b.reservation("C3", 1)) == (None, "DD")
    assert b.free_slot("C3", "EE", 1) is None and b.free_slot("C3", "EE", 0) == 0
    assert b.place_token("C3", "DD").slots("C3", 1) == ("DD",)  # no node named: the reserved city
    b = b.lay_tile("C3", "OOy", 0)
    assert b.reserved == {"C3:1": "DD"}
    assert Board.from_json(b.map, json.loads(json.dumps(b.to_json()))).reserved == {"C3:1": "DD"}
    b = b.lay_tile("C3", "OOswap", 0)  # old city 1 (edge 3) becomes city 0
    assert b.reserved == {"C3": "DD"}
    b = b.place_token("C3", "DD")
    assert b.slots("C3", 0) == ("DD",) and b.reserved == {}


def test_tokens_moved_by_an_upgrade_keep_off_a_reserved_slot():
    m = make_map("flat", {"C1": "white", "C3": "yellow city:20:2 0-_0 3-_0", "C5": "white", "B4": "white",
                          "D2": "white"}, homes={"XX": "C3"})
    b = Board.new(m).place_token("C3", "YY")
    assert b.slots("C3", 0) == (None, "YY")
    b = b.lay_tile("C3", "G2", 0)
    assert b.slots("C3", 0) == (None, "YY") and b.free_slot("C3", "ZZ", 0) is None
    assert b.free_slot("C3", "XX", 0) == 0


def test_two_cities_on_one_edge_are_told_apart_by_the_corporations_token():
    # Like 1807's London hexes: both cities of C3 leave by the same edge.
    m = make_map("flat", {"C1": "yellow city:20 0-_0", "C3": "yellow city:40 city:40 3-_0 3-_1"})
    b = Board(m).place_token("C3", "AA", 1)
    plain = route_from_connections(b, [["C3", "C1"]])
    assert plain.stops == (("C3", 0), ("C1", 0))
    assert str(route_problem(b, "AA", plain, train("2"))) == "A route must include a city with a AA token."
    assert route_from_connections(b, [["C3", "C1"]], corp="AA").stops == (("C3", 1), ("C1", 0))
    total, runs = best_runs(b, "AA", ["2"], YELLOW)
    assert total == 60 and ("C3", 1) in runs[0].route.stops


# ---- the 1807 data ------------------------------------------------------------------------------------

def test_every_1807_border_faces_the_same_border_on_its_neighbour():
    path = SHARED / "1807_tobymao.json"
    if not path.exists():
        pytest.skip("../shared/data/18xx/1807_tobymao.json is not here")
    data = json.loads(path.read_text(encoding="utf-8"))
    kinds = {"border", "impassable", "water", "mountain", "province"}
    found = {(h["coord"], p["edge"]): (p["type"], p.get("cost")) for h in data["hexes"] for p in h["parts"]
             if p["type"] in kinds}
    assert data["layout"] == "pointy" and len(found) > 50
    for (coord, edge), border in found.items():
        other = hexes.neighbour(coord, edge, "pointy")
        assert found.get((other, hexes.opposite(edge))) == border, (coord, edge)


def test_the_picture_of_cities_open_to_a_token_rings_the_one_each_number_means():
    """render_tokens: one cell per city, its hex amid the neighbours with that city ringed, so the two cities of
    an OO hex are told apart by number."""
    import io

    from PIL import Image

    from cogs.e18xx.pictures import render_tokens
    board = Board.new(oo_map()).lay_tile("C3", "OOy", 0)
    pic = Image.open(io.BytesIO(render_tokens(board, [("C3", 0), ("C3", 1), ("C3", 0)], corp_colours={})))
    w = pic.width // 3
    cells = [pic.convert("RGB").crop((k * w, 0, (k + 1) * w, pic.height)) for k in range(3)]
    assert cells[0].tobytes() != cells[1].tobytes()  # the ring is on the other city
    top = (0, 0, w, pic.height // 5)  # the number's corner
    body = (0, pic.height // 5, w, pic.height)
    assert cells[0].crop(body).tobytes() == cells[2].crop(body).tobytes()  # the same city, ringed the same
    assert cells[0].crop(top).tobytes() != cells[2].crop(top).tobytes()  # but numbered 1 and 3


def _every_path(board: Board) -> dict:
    """Each hex's paths and, per end, the paths with that end: the track as the board answers it."""
    return {coord: (board.paths(coord), {end: board.paths_at(coord, end) for pair in board.paths(coord)
                                         for end in pair}) for coord in board.map.printed}


def test_a_boards_token_cities_kept_per_corporation_are_its_own_and_each_callers_list_its_own():
    """Board.token_nodes keeps its answer per corporation (a board never changes): a board after a token placed or
    removed answers for its own tokens, and a caller changing the list it got changes no later answer."""
    from engines.e18xx.board import load_map

    board = Board.new(load_map("g1889")).lay_tile("A10", "57", 1)
    assert board.token_nodes("AR") == []
    tokened = board.place_token("A10", "AR", 0)
    first = tokened.token_nodes("AR")
    assert first == [("A10", 0)]
    first.append(("B3", 0))
    assert tokened.token_nodes("AR") == [("A10", 0)]
    assert board.token_nodes("AR") == [] and tokened.remove_token("A10", 0, "AR").token_nodes("AR") == []


def test_a_token_placed_or_removed_keeps_the_track_of_the_board_it_was_placed_on():
    """A board derived by a lay knows its track without the track kept per set of tiles; the board after a token
    (placed or removed) takes that track over instead of working out the whole map's again. It must be the track
    of its own tiles: the same answers as a board read afresh from its contents, all kept boards forgotten."""
    from engines.e18xx.board import forget_boards, load_map

    board = Board.new(load_map("g1889"))
    board.paths("A10"), board.paths_at("A10", "_0")  # the track known, so the lays below derive theirs from it
    laid = board.lay_tile("A10", "57", 1).lay_tile("B9", "9", 2)
    tokened = laid.place_token("A10", "AR", 0)
    untokened = tokened.remove_token("A10", 0, "AR")
    forget_boards()
    for derived in (tokened, untokened):
        fresh = Board.from_json(derived.map, json.loads(json.dumps(derived.to_json())))
        assert _every_path(derived) == _every_path(fresh)
    assert _every_path(tokened) != _every_path(board)  # the lays changed the track the test compares


def test_forget_boards_drops_the_boards_kept_by_content():
    """A benchmark replaying a game again starts without its boards (bench/bench_18xx.py): after forget_boards the
    same contents give a board read afresh, which works its track out again."""
    from engines.e18xx.board import forget_boards, load_map

    data = Board.new(load_map("g1889")).lay_tile("A10", "57", 1).to_json()
    kept = Board.from_json(load_map("g1889"), data)
    assert Board.from_json(load_map("g1889"), data) is kept  # kept by content
    forget_boards()
    fresh = Board.from_json(load_map("g1889"), data)
    assert fresh is not kept and _every_path(fresh) == _every_path(kept)
