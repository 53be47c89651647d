"""18xx: the 1867 map (engines/e18xx/titles/g1867/map.json) and the map features it brought to the board: track
stubs, future labels, unlimited tiles, start tokens (neutral ones block no one), offboard groups, pathless cities,
upgrade costs, water and impassable borders, and upgrades that must use the tiles with the most exits.

The counts are checked against 18xx.games's own map file (read as text) where ../shared is present; the recorded
game's lays are checked where its export is present."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engines.e18xx.board import NEUTRAL, UNLIMITED, Board, Lay, lay_problem, legal_lays, load_map, map_from_json
from engines.e18xx.tiles import city_map, parse_tile

REF = Path(__file__).resolve().parents[2] / "shared" / "tools" / "ref18xx" / "lib" / "engine"
REF_MAP = REF / "game" / "g_1867" / "map.rb"
REF_TILES = REF / "config" / "tile.rb"
RECORDED = Path(__file__).resolve().parents[2] / "shared" / "data" / "18xx" / "fixtures" / "1867-hs_ahjzadkh_19792.json"
ALL = ("yellow", "green", "brown", "gray")


@pytest.fixture(scope="module")
def m():
    return load_map("g1867")


@pytest.fixture(scope="module")
def start(m):
    return Board.new(m)


def lay(board: Board, coord: str, tile: str, rotation: int, corp: str | None = None, colours=ALL) -> str | None:
    problem = lay_problem(board, Lay(coord, tile, rotation), colours, corp)
    return None if problem is None else str(problem)  # its English


# ---- the map loads ----------------------------------------------------------------------------------

def test_the_1867_map_loads(m, start):
    assert m.title == "1867" and m.layout == "flat"
    assert len(m.printed) == 94 and len(m.tiles) == 68
    assert m.homes == {} and m.max_exits == {"cities"}
    assert m.names["D2"] == "Timmins" and m.names["L12"] == "Montreal" and m.names["M9"] == "Trois-Rivières"
    assert set(m.names) <= set(m.printed)
    assert start.reserved == {}


def test_every_manifest_tile_parses_on_its_own(m):
    raw = json.loads((Path(__file__).resolve().parents[1] / "engines/e18xx/titles/g1867/map.json").read_text())
    for name, entry in raw["tiles"].items():
        tile = parse_tile(name, entry["def"])
        assert tile == m.tiles[name] and tile.colour in ("yellow", "green", "brown", "gray")
        assert tile.exits(), name  # every 1867 tile has track
    for coord, text in raw["hexes"].items():
        assert parse_tile(coord, text) == m.printed[coord]


def test_unlimited_tiles_never_run_out(m, start):
    assert {n for n, c in m.counts.items() if c == UNLIMITED} == {"7", "8", "9"}
    assert m.counts["57"] == 2 and m.counts["X8"] == 1 and m.counts["207"] == 5
    b = start
    for coord in ("B8", "C7", "D4", "D6", "E3", "E5"):
        b = b.lay_tile(coord, "8", 0)
    assert b.supply()["8"] == UNLIMITED and lay(b, "C5", "8", 3) is None


# ---- the printed hexes ------------------------------------------------------------------------------

def test_neighbours_and_preprinted_exits(m):
    assert [m.neighbour("L12", e) for e in range(6)] == ["L14", "K13", "K11", "L10", "M11", "M13"]
    assert all(m.linked("L12", e) for e in range(6))  # L14's gray track faces back across edge 0
    montreal, toronto = m.printed["L12"], m.printed["F16"]
    assert (montreal.colour, montreal.label, montreal.cities, montreal.exits()) == ("yellow", "M", 3, {1, 3})
    assert montreal.node_exits() == {0: {1}, 1: {3}}  # the third city has no track
    assert montreal.nodes[2].loc == 5.0 and montreal.cost == 20 and montreal.terrain == ("water",)
    assert (toronto.colour, toronto.label, toronto.cities, toronto.exits()) == ("yellow", "T", 2, {1, 4})
    assert toronto.node_exits() == {0: {1}, 1: {4}}
    assert [m.linked("F16", e) for e in range(6)] == [False, True, True, True, True, False]  # F18 faces edge 2 only
    assert m.printed["D2"].exits() == {0, 1, 4, 5} and m.printed["D2"].lines == (1, 4)
    assert m.printed["J12"].future_label == ("O", "gray")
    assert m.printed["G15"].stubs == (1,) and m.printed["K13"].stubs == (4,) and m.printed["L10"].stubs == (0,)


def test_offboards_groups_and_flat_revenue(m):
    a17, a19 = m.printed["A17"].nodes[0], m.printed["A19"].nodes[0]
    assert a17.groups == a19.groups == ("Detroit",)
    assert a17.hide_revenue and not a19.hide_revenue
    assert a19.revenue_for(("yellow", "green", "brown", "gray")) == 70 and a19.revenue_for(("yellow",)) == 30
    port = m.printed["E19"]
    assert (port.colour, port.nodes[0].kind, port.nodes[0].revenue_for(("yellow", "green")), port.exits()) == (
        "blue", "offboard", 10, {3})
    assert not m.printed["F18"].nodes[0].groups


def test_start_tokens_and_neutral_ones_block_no_one(start):
    assert start.slots("D2") == (NEUTRAL,)
    assert [start.slots("L12", i) for i in range(3)] == [(None,), (None,), (NEUTRAL,)]
    assert start.slots("F16", 0) == ("CN",) and start.slots("F16", 1) == (None,)
    assert not start.blocks(("D2", 0), "CV")  # full, but neutral: routes run through Timmins
    assert start.blocks(("F16", 0), "CV") and not start.blocks(("F16", 0), "CN")
    assert start.free_slot("D2", "CV") is None and start.free_slot("L12", "CV", 2) is None
    assert start.free_slot("L12", "CV", 0) == 0


def test_borders_water_and_impassable(m, start):
    # M9's water borders: edge 0 (to M11) and edge 5 (to N10); both sides list them
    assert m.borders[("M9", 0)].cost == 80 and m.borders[("M11", 3)].cost == 80
    assert m.borders[("M9", 0)].kind == "water"
    b = start.lay_tile("M11", "9", 0)  # M11: track 0-3, facing M9 across the water
    assert b.lay_cost("M9", "57", 0) == 80  # M9 57 (0-3) joins the track across edge 0
    assert b.lay_cost("M9", "57", 1) == 0
    b = b.lay_tile("M9", "57", 0)
    assert b.lay_cost("M9", "14", 0) == 0  # paid once
    # impassable: C11 has walls on edges 0, 3 and 4 (1 and 2 are off the map): no track fits there
    assert m.across("C11", 0) is None and m.neighbour("C11", 0) == "C13" and m.across("C13", 3) is None
    assert "impassable border" in lay(start, "C11", "9", 0)
    assert not any(lay(start, "C11", t, r) is None for t in ("7", "8", "9") for r in range(6))
    assert lay(start, "D12", "9", 2) is None and "impassable" in lay(start, "D12", "9", 1)  # walls on 3 and 4


def test_the_costly_edges_are_every_border_with_a_cost_and_a_lay_joins_only_those(m, start):
    """Board.joined_borders looks only at a hex's costly edges (MapDef.costly_edges): those are exactly the
    map's borders with a cost, and what it finds for each yellow tile at each rotation on every hex is what a look
    at each new exit's border finds."""
    assert m.costly_edges and {(c, e) for c, edges in m.costly_edges.items() for e in edges} == {
        key for key, border in m.borders.items() if border.cost}
    b = start.lay_tile("M11", "9", 0).lay_tile("N10", "9", 1)
    assert b.joined_borders("M9", "57", 0) == [m.borders["M9", 0]]
    for coord in m.printed:
        if m.printed[coord].colour != "white":
            continue
        for tile in ("7", "8", "9", "57"):
            for rotation in range(6):
                exits = m.tiles[tile].exits(rotation) - b.exits(coord)
                expected = [m.borders[coord, e] for e in sorted(exits) if (coord, e) in m.borders
                            and m.borders[coord, e].cost and m.across(coord, e)
                            and (e + 3) % 6 in b.exits(m.across(coord, e))]
                assert b.joined_borders(coord, tile, rotation) == expected


def test_upgrade_costs_are_paid_by_the_first_lay_only(start):
    assert start.lay_cost("K11", "9", 0) == 20 and start.lay_cost("J12", "201", 0) == 20
    assert start.lay_cost("L12", "X1", 0) == 20  # the printed yellow Montreal: its green upgrade pays
    b = start.lay_tile("K11", "9", 0)
    assert b.lay_cost("K11", "20", 0) == 0
    b = start.lay_tile("L12", "X1", 1)
    assert b.lay_cost("L12", "X5", 0) == 0


# ---- lay rules --------------------------------------------------------------------------------------

def test_a_stub_must_be_joined_by_the_first_tile(start):
    assert lay(start, "G15", "57", 1) is None  # 1-4: joins the stub toward Toronto
    assert "stub" in lay(start, "G15", "57", 2)  # 2-5 (F14 - H16) leaves edge 1 unjoined
    assert "stub" in lay(start, "K13", "58", 1)  # 1-3: K13's stub is edge 4
    assert lay(start, "K13", "58", 2) is None
    b = start.lay_tile("G15", "57", 1)
    assert "stub" not in (lay(b, "G15", "14", 0) or "")  # only the printed hex had the stub


def test_the_recorded_games_first_lays_are_legal(start):
    for coord, tile, rotation in (("K13", "58", 2), ("E17", "621", 2), ("L10", "58", 4), ("M9", "57", 1),
                                  ("O7", "202", 5)):
        assert lay(start, coord, tile, rotation, colours=("yellow",)) is None, (coord, tile, rotation)
    assert "stub" in lay(start, "L10", "58", 2)  # 2-4 misses L10's stub on edge 0


def test_labels_y_t_m_and_the_future_o(m, start):
    assert start.upgrades_to("E17", m.tiles["621"]) and not start.upgrades_to("E17", m.tiles["57"])
    assert start.upgrades_to("D8", m.tiles["57"]) and not start.upgrades_to("D8", m.tiles["621"])
    assert {n for n, t in m.tiles.items() if start.upgrades_to("L12", t)} == {"X1", "X2", "X3", "X4", "637"}
    assert {n for n, t in m.tiles.items() if start.upgrades_to("F16", t)} == {"120"}
    # Ottawa (J12) is a Y city until gray, when its tile must be the O (X8); the other Y cities stop at brown
    b = start.lay_tile("J12", "201", 0).lay_tile("J12", "207", 0).lay_tile("J12", "623", 0)
    assert {n for n, t in m.tiles.items() if b.upgrades_to("J12", t)} == {"X8"}
    assert lay(b, "J12", "X8", 0) is None
    e = start.lay_tile("E17", "621", 0).lay_tile("E17", "622", 0).lay_tile("E17", "623", 0)
    assert not any(e.upgrades_to("E17", t) for t in m.tiles.values())
    assert not b.upgrades_to("J12", m.tiles["639"])
    assert b.upgrades_to("J12", m.tiles["639"], special=True)  # a special lay skips labels, future ones too


def test_montreal_upgrades_keep_its_three_cities_apart(m, start):
    b = start.place_token("L12", "CV", 0).place_token("L12", "PM", 1)
    assert lay(b, "L12", "X1", 1) is None
    assert city_map(m.printed["L12"], 0, m.tiles["X1"], 1) == {0: 0, 1: 2, 2: 1}
    after = b.lay_tile("L12", "X1", 1)
    assert [after.slots("L12", i) for i in range(3)] == [("CV",), (NEUTRAL,), ("PM",)]
    assert lay(b, "L12", "X1", 0) is None and "merge" not in (lay(b, "L12", "637", 0) or "")
    # brown: only X5 keeps X1's three straights (one as its one-slot city, two through its two-slot city)
    assert [t for t in ("X5", "X6", "X7") if any(lay(after, "L12", t, r) is None for r in range(6))] == ["X5"]
    brown = after.lay_tile("L12", "X5", 1)
    assert [brown.slots("L12", i) for i in range(2)] == [(NEUTRAL, "PM"), ("CV",)]


def test_city_upgrades_must_use_the_most_exits(m, start):
    b = start.lay_tile("M9", "57", 1).lay_tile("M9", "619", 1)  # 619 as laid: 1, 3, 4, 5
    assert lay(b, "M9", "63", 0) is None and lay(b, "M9", "611", 1, colours=("yellow", "green")) is not None
    assert "most exits" in lay(b, "M9", "611", 1)
    for coord in ("D8", "F8", "E13"):  # the three 63s elsewhere: now 611 is the best left
        b = b.lay_tile(coord, "63", 0)
    assert lay(b, "M9", "611", 1) is None
    # track is not held to it (1867's rule is for cities): 23 (3 exits) may replace a 9 where 20 (4) fits too
    b = start.lay_tile("C7", "9", 0)
    assert lay(b, "C7", "20", 0) is None and lay(b, "C7", "23", 0) is None


def test_legal_lays_honour_the_stub_and_the_most_exits(start):
    b = start.place_token("G15", "CA")
    at_g15 = {(x.tile, x.rotation) for x in legal_lays(b, "CA", ("yellow",)) if x.hex == "G15"}
    assert at_g15 and all(1 in b.map.tiles[t].exits(r) for t, r in at_g15)
    b = start.lay_tile("M9", "57", 1).lay_tile("M9", "619", 1).place_token("M9", "PM")
    at_m9 = {x.tile for x in legal_lays(b, "PM", ("yellow", "green", "brown")) if x.hex == "M9"}
    assert at_m9 == {"63"}  # 611 fits too, with one exit fewer


# ---- the recorded game ------------------------------------------------------------------------------

def test_the_recorded_games_lays_and_tokens_until_the_first_merger(start):
    """Every tile laid in an 18xx.games game of 1867 until its first merger, each checked with the operating minor's
    reach: 18xx.games accepted them all, so must we."""
    if not RECORDED.exists():
        pytest.skip("../shared/data/18xx/fixtures is absent: the recorded 1867 game cannot be read")
    actions = json.loads(RECORDED.read_text(encoding="utf-8"))["actions"]
    b, copies, lays = start, {}, 0
    for a in actions:
        if a["type"] == "merge":
            break
        if a["type"] == "place_token":
            where, _, city = a["city"].rpartition("-")
            coord = copies.get(where) or where.partition("-")[0]
            b = b.place_token(coord, a["entity"], b.tile(coord).city_indexes()[int(city)])
        elif a["type"] == "lay_tile":
            name = a["tile"].rpartition("-")[0]
            assert lay(b, a["hex"], name, a["rotation"], a["entity"]) is None, a
            b = b.lay_tile(a["hex"], name, a["rotation"])
            copies[a["tile"]] = a["hex"]
            lays += 1
    assert lays == 25 and b.tile("F16").name == "120" and b.slots("F16", 1) == ("TN",)


# ---- against 18xx.games's own map file --------------------------------------------------------------

def _ref_text() -> tuple[str, str]:
    if not REF_MAP.exists() or not REF_TILES.exists():
        pytest.skip("../shared/tools/ref18xx is absent: the map is checked against 18xx.games's map.rb only there")
    return REF_MAP.read_text(encoding="utf-8"), REF_TILES.read_text(encoding="utf-8")


def _ref_hexes(src: str) -> dict[str, str]:
    """hex -> its code in HEXES (colour:code)."""
    block = re.search(r"HEXES = \{(.*?)\n        \}\.freeze", src, re.S)[1]
    found = {}
    for colour, body in re.findall(r"^\s+(\w+): \{(.*?)^\s+\},", block, re.S | re.M):
        for keys, code in re.findall(r"(%w\[[^\]]*\]|\[[^\]]*\])\s*=>\s*((?:'[^']*'\\?\s*)+)", body, re.S):
            names = keys[3:-1].split() if keys.startswith("%w") else re.findall(r"'(\w+)'", keys)
            for name in names:
                found[name] = f"{colour}:" + "".join(re.findall(r"'([^']*)'", code))
    return found


def test_hexes_and_their_nodes_match_18xx_games(m):
    src, _ = _ref_text()
    ref = _ref_hexes(src)
    assert set(ref) == set(m.printed)
    for coord, code in ref.items():
        colour, _, parts = code.partition(":")
        tile = m.printed[coord]
        assert tile.colour == colour, coord
        for kind in ("city", "town", "offboard"):
            assert sum(node.kind == kind for node in tile.nodes) == parts.count(f"{kind}="), (coord, kind)
        paths = {frozenset(p) for p in re.findall(r"path=a:(_?\d),b:(_?\d)", parts)}
        assert {frozenset(str(e) for e in p) for p in tile.paths} == paths, coord
        assert sorted(b.edge for b in tile.borders) == sorted(
            int(e) for e, t in re.findall(r"border=edge:(\d)(,type:\w+)?", parts) if t), coord
        assert tile.stubs == tuple(int(e) for e in re.findall(r"stub=edge:(\d)", parts)), coord
        assert tile.cost == sum(int(c) for c in re.findall(r"upgrade=cost:(\d+)", parts)), coord
        assert tile.label == (re.findall(r"(?:^|;)label=(\w+)", parts) or [None])[0], coord
    totals = {kind: sum(n.kind == kind for t in m.printed.values() for n in t.nodes) for kind in ("city", "town",
                                                                                                    "offboard")}
    assert totals == {kind: sum(code.count(f"{kind}=") for code in ref.values()) for kind in totals}


def test_tile_manifest_matches_18xx_games(m):
    src, config = _ref_text()
    block = re.search(r"TILES = \{(.*?)\n        \}\.freeze", src, re.S)[1]
    counts = {name: (UNLIMITED if n == "'unlimited'" else int(n))
              for name, n in re.findall(r"^\s+'(\w+)' => (\d+|'unlimited'),$", block, re.M) if name != "count"}
    counts.update(re.findall(r"'(X\d)' =>\s*\{\s*'count' => (\d+)", block))
    counts = {name: n if n == UNLIMITED else int(n) for name, n in counts.items()}
    assert counts == dict(m.counts)
    codes = dict(re.findall(r"^\s+'(\w+)' => '([^']*)',$", config, re.M))
    codes.update((name, "".join(re.findall(r"'([^']*)'", code))) for name, code in re.findall(
        r"'(X\d)' =>\s*\{.*?'code' => ((?:'[^']*'\\?\s*)+)", block, re.S))
    for name, tile in m.tiles.items():
        code = codes[name]
        paths = {frozenset(p) for p in re.findall(r"path=a:(_?\d),b:(_?\d)", code)}
        assert {frozenset(str(e) for e in p) for p in tile.paths} == paths, name
        assert [n.kind for n in tile.nodes] == re.findall(r"(city|town|offboard)=", code), name
        assert [n.revenue for n in tile.nodes] == [int(r) for r in re.findall(r"revenue:(\d+)", code)], name
        slots = [int(s or 1) for s in re.findall(r"city=revenue:\d+(?:,slots:(\d+))?", code)]
        assert [n.slots for n in tile.nodes if n.kind == "city"] == slots, name
        assert tile.label == (re.findall(r"label=(\w+)", code) or [None])[0], name


# ---- the new tile text ------------------------------------------------------------------------------

def test_new_tile_text_tokens():
    t = parse_tile("A17", "red offboard:yellow=30/gray=70 group:Detroit group:Lakes hide 5-_0 line:0")
    assert t.nodes[0].groups == ("Detroit", "Lakes") and t.nodes[0].hide_revenue and t.lines == (0,)
    t = parse_tile("x", "white town:0 stub:4 future_label:O:gray")
    assert t.stubs == (4,) and t.stub_edges(1) == {5} and t.future_label == ("O", "gray")
    assert parse_tile("x", "blue offboard:10 3-_0").nodes[0].revenue_for(("yellow",)) == 10
    assert parse_tile("x", "green city:50 loc:0.5 0-_0").nodes[0].loc == 0.5
    for bad in ("white loc:5 city:0", "white stub:7", "white future_label:O", "white future_label:O:pink",
                "white hide"):
        with pytest.raises(ValueError):
            parse_tile("x", bad)


def test_map_json_rejects_what_it_cannot_mean():
    base = {"title": "t", "layout": "flat", "hexes": {"A1": "white city:0"},
            "tiles": {"7": {"count": "unlimited", "def": "yellow 0-1"}}}
    assert map_from_json(base).counts["7"] == UNLIMITED
    with pytest.raises(ValueError):
        map_from_json({**base, "tiles": {"7": {"count": "many", "def": "yellow 0-1"}}})
    with pytest.raises(ValueError):
        map_from_json({**base, "tiles": {"7": {"count": 1, "def": "yellow 0-1 future_label:O:gray"}}})
    with pytest.raises(ValueError):
        map_from_json({**base, "upgrades_must_use_max_exits": ["towns"]})
    with pytest.raises(ValueError):
        map_from_json({**base, "start_tokens": [{"hex": "A1", "holder": "X", "node": 1}]})
    b = Board.new(map_from_json({**base, "start_tokens": [{"hex": "A1", "holder": "X"}]}))
    assert b.slots("A1") == ("X",)
