"""Tokai Baron's edition data (engines/tokai/data): the map, the destination tables, the route cards, the payouts.

Reads only the repo's own files. The seed rules' worked examples are checked by name."""
from __future__ import annotations

from collections import Counter
from itertools import pairwise

import pytest

from engines.tokai import network as nw

# Every station the seed rules name (2007 第0.1版), in the rules' spelling.
SEED_STATIONS = (
    "小田井 枇杷島 名古屋 丸の内 一宮 須ヶ口 味美 上飯田 平安通 久屋大通 犬山 岐阜 赤池 "
    "藤ヶ丘 岡崎 上前津 八事 本山 栄 鶴舞 千種 岐阜羽島 可児 大垣 高蔵寺 尾張瀬戸"
).split()
# Every route card the seed rules name.
SEED_CARDS = (
    "名鉄犬山・各務原線 JR高山本線 JR東海道本線 JR新幹線 JR中央本線 JR太多線 地下鉄東山線 地下鉄名城線 地下鉄鶴舞線 "
    "地下鉄桜通線 地下鉄上飯田線 名鉄小牧線 名鉄瀬戸線 城北線 愛知環状鉄道"
).split()
PLAYERS_MAX = 6
WEIGHT = {total: 6 - abs(7 - total) for total in range(2, 13)}  # ways to roll each total on two dice
TOTALS = [str(t) for t in range(2, 13)]


def sid(name: str) -> str:
    return nw.station_id(name)


def on_line(line: str, *names: str) -> bool:
    seq = nw.lines()[line]["stations"]
    return all(sid(n) in seq for n in names)


def line_index(line: str, name: str) -> int:
    return nw.lines()[line]["stations"].index(sid(name))


def is_connected(graph: nw.Graph) -> bool:
    start = next(iter(graph))
    return len(nw.hop_distances(graph, start)) == len(graph)


def cards() -> list[dict]:
    return nw.load_route_cards()["cards"]


def card_named(name: str) -> dict:
    return next(c for c in cards() if c["name"] == name)


def point_weights(region: str) -> Counter:
    table = nw.load_destinations()["tables"][region]
    weights: Counter = Counter()
    for column in ("odd", "even"):
        for total, point in table[column].items():
            weights[point] += WEIGHT[int(total)]
    return weights


# --- the map ---------------------------------------------------------------------------------------------------


def test_map_keeps_the_licence_and_credit():
    m = nw.load_map()
    assert "CC BY-SA 4.0" in m["licence"]
    assert "Seo-4d696b75/station_database" in m["credit"]
    assert "ekidata" in m["credit"] and "N02" in m["credit"]


def test_station_ids_and_names_are_unique():
    stations = nw.load_map()["stations"]
    assert len({s["id"] for s in stations}) == len(stations)
    assert len({s["name"] for s in stations}) == len(stations)


def test_stations_lie_in_the_tokai_area():
    for s in nw.load_map()["stations"]:
        assert 34.5 < s["lat"] < 35.6 and 136.2 < s["lon"] < 137.5, s


def test_lines_name_known_points_once_each_and_every_point_is_on_a_line():
    on_some_line = set()
    for line in nw.lines().values():
        seq = line["stations"]
        assert len(seq) >= 2, line["id"]
        assert len(set(seq)) == len(seq), line["id"]
        assert set(seq) <= set(nw.stations()), line["id"]
        on_some_line.update(seq)
    assert on_some_line == set(nw.stations())


def test_network_is_connected_with_and_without_the_shinkansen():
    assert is_connected(nw.movement_graph())
    assert is_connected(nw.payout_graph())


def test_graph_edges_are_consecutive_stations_tagged_with_their_lines():
    graph = nw.movement_graph()
    tagged = Counter()
    for line in nw.lines().values():
        for a, b in nw.line_pairs(line):
            assert line["id"] in graph[a][b] and line["id"] in graph[b][a]
            tagged[line["id"]] += 1
    assert sum(len(ids) for nbrs in graph.values() for ids in nbrs.values()) == 2 * sum(tagged.values())


def test_meijo_line_is_a_loop():
    meijo = nw.lines()["subway_meijo"]
    assert meijo.get("loop") is True
    assert sid("ナゴヤドーム前矢田") in nw.movement_graph()[sid("砂田橋")]


def test_long_lines_are_trimmed_to_the_area():
    names = {s["name"] for s in nw.load_map()["stations"]}
    assert not names & {"塩尻", "富山", "東京", "新大阪", "亀山", "伊勢中川", "浜松", "美濃赤坂", "荒尾"}
    shinkansen = [sid(n) for n in ("豊橋", "三河安城", "名古屋", "岐阜羽島", "米原")]
    assert nw.lines()["jr_shinkansen"]["stations"] == shinkansen
    # the 大垣-荒尾-美濃赤坂 branch is not part of the 大垣-垂井 main line
    assert sid("垂井") in nw.movement_graph()[sid("大垣")]


def test_every_station_the_seed_names_is_on_the_map():
    names = {s["name"] for s in nw.load_map()["stations"]}
    assert set(SEED_STATIONS) <= names
    assert sid("藤が丘") == sid("藤ヶ丘")  # the data set's spelling finds the rules' point


def test_express_pass_points_are_plain_meitetsu_stops():
    flagged_on: dict[str, set[str]] = {}
    for line in nw.lines().values():
        for point in line.get("express_pass", []):
            assert line["operator"] == "名古屋鉄道", line["id"]
            assert point in line["stations"][1:-1], (line["id"], point)
            flagged_on.setdefault(point, set()).add(line["id"])
    assert len(flagged_on) > 50
    for point, flagged in flagged_on.items():
        through = {line["id"] for line in nw.lines().values() if point in line["stations"]}
        assert through == flagged, point  # a point is passed on every line through it, or on none


# --- the seed's movement and fare examples ------------------------------------------------------------------------


def test_seed_odai_to_nagoya_is_three_stations_via_biwajima():
    assert nw.hops(sid("小田井"), sid("名古屋")) == 3
    assert on_line("johoku", "小田井", "枇杷島") and on_line("jr_tokaido", "枇杷島", "名古屋")
    assert nw.hops(sid("小田井"), sid("枇杷島")) == 2


def test_seed_odai_detours_follow_real_lines():
    assert on_line("subway_tsurumai", "小田井", "丸の内") and on_line("subway_sakuradori", "丸の内", "名古屋")
    assert on_line("johoku", "小田井", "味美")
    assert on_line("meitetsu_komaki", "味美", "上飯田")
    assert on_line("subway_kamiiida", "上飯田", "平安通")
    assert on_line("subway_meijo", "平安通", "久屋大通")
    assert on_line("subway_sakuradori", "久屋大通", "名古屋")


def test_seed_loop_via_ichinomiya_and_sukaguchi_passes_biwajima_twice():
    assert on_line("jr_tokaido", "枇杷島", "一宮") and on_line("meitetsu_nagoya", "一宮", "須ヶ口")
    assert line_index("meitetsu_nagoya", "名古屋") < line_index("meitetsu_nagoya", "枇杷島")
    assert line_index("meitetsu_nagoya", "枇杷島") < line_index("meitetsu_nagoya", "須ヶ口")


def test_seed_fare_examples_use_the_named_lines():
    assert on_line("subway_tsurumai", "上前津", "鶴舞", "八事") and on_line("subway_meijo", "上前津", "栄", "本山")
    assert on_line("jr_chuo", "鶴舞", "千種") and on_line("subway_higashiyama", "栄", "千種", "本山")
    assert on_line("jr_taita", "可児", "美濃太田") and on_line("jr_takayama", "美濃太田", "岐阜")
    assert on_line("jr_tokaido", "岐阜", "大垣", "岡崎") and on_line("jr_shinkansen", "岐阜羽島", "名古屋")
    assert on_line("aikan", "高蔵寺") and on_line("meitetsu_seto", "尾張瀬戸")
    assert on_line("meitetsu_kakamigahara", "鵜沼") and on_line("jr_takayama", "鵜沼")


def test_seed_inuyama_kakamigahara_card_alone_runs_nagoya_inuyama_gifu():
    card = card_named("名鉄犬山・各務原線")
    sub: dict[str, dict[str, frozenset[str]]] = {}
    for line, a, b in nw.card_pairs(card):
        sub.setdefault(a, {})[b] = frozenset({line})
        sub.setdefault(b, {})[a] = frozenset({line})
    reach = nw.hop_distances(sub, sid("名古屋"))
    assert sid("犬山") in reach and sid("岐阜") in reach


def test_seed_kozoji_to_owari_seto_round_trip():
    # 2-2 or more reaches 尾張瀬戸; a bonus die of 2 or more gets back off the 瀬戸線 (at 新瀬戸 = 瀬戸市)
    assert nw.hops(sid("高蔵寺"), sid("尾張瀬戸")) == 4
    assert nw.hops(sid("尾張瀬戸"), sid("瀬戸市")) == 2
    assert sid("瀬戸市役所前") not in nw.lines()["meitetsu_seto"]["express_pass"]


# --- the destination tables ----------------------------------------------------------------------------------------


def test_region_table_names_nine_regions_in_22_cells():
    d = nw.load_destinations()
    regions = [r["id"] for r in d["regions"]]
    assert len(regions) == len(set(regions)) == 9
    for column in ("odd", "even"):
        assert list(d["region_table"][column]) == TOTALS
    assert {r for col in d["region_table"].values() for r in col.values()} == set(regions)
    assert set(d["tables"]) == set(regions)


def test_every_table_entry_is_a_point_of_the_map():
    d = nw.load_destinations()
    for region, table in d["tables"].items():
        for column in ("odd", "even"):
            assert list(table[column]) == TOTALS, region
            for total, point in table[column].items():
                if point == nw.ANY:
                    assert (region, column, total) == ("east", "even", "7")
                else:
                    assert point in nw.stations(), (region, column, total, point)


def test_any_appears_once_at_east_even_seven():
    d = nw.load_destinations()
    cells = [(r, c, t) for r, tab in d["tables"].items() for c in ("odd", "even") for t, p in tab[c].items()
             if p == nw.ANY]
    assert cells == [("east", "even", "7")]


def test_every_point_belongs_to_one_region():
    seen: dict[str, str] = {}
    for region, table in nw.load_destinations()["tables"].items():
        for point in {p for c in ("odd", "even") for p in table[c].values()} - {nw.ANY}:
            assert point not in seen, (point, seen.get(point), region)
            seen[point] = region
    assert set(seen) == set(nw.destination_points())


def test_seed_destination_examples():
    assert nw.region_of_roll(5, 3 + 4) == "east"
    assert nw.point_of_roll("east", 3, 5 + 4) == sid("赤池")
    assert nw.point_of_roll("east", 2, 7) == nw.ANY
    assert nw.region_of_point(sid("犬山")) == "north"
    names = {r["id"]: r["name"] for r in nw.load_destinations()["regions"]}
    assert names["east"] == "東" and names["north"] == "北"


def test_seed_start_cities_and_stations_are_destinations_where_named():
    for name in "名古屋 栄 金山 犬山 岐阜 赤池 藤ヶ丘 岡崎 大垣 可児 高蔵寺 尾張瀬戸".split():
        assert sid(name) in nw.destination_points(), name


def test_big_points_sit_on_the_likely_totals():
    d = nw.load_destinations()
    for region, table in d["tables"].items():
        weights = point_weights(region)
        weights.pop(nw.ANY, None)
        likely = {table[c][t] for c in ("odd", "even") for t in ("6", "7", "8")} - {nw.ANY}
        others = set(weights) - likely
        assert min(weights[p] for p in likely) >= max((weights[p] for p in others), default=0), region
        sevens = {table[c]["7"] for c in ("odd", "even")} - {nw.ANY}
        assert max(weights[p] for p in sevens) == max(weights.values()), region


# --- the route cards ----------------------------------------------------------------------------------------------


def test_there_are_34_route_cards_with_unique_ids_and_names():
    assert len(cards()) == 34
    assert len({c["id"] for c in cards()}) == 34
    assert len({c["name"] for c in cards()}) == 34


def test_route_card_prices_are_positive_multiples_of_1000():
    for c in cards():
        assert c["price"] > 0 and c["price"] % 1000 == 0, c["id"]


def test_pre_purchase_set_can_deal_five_cards_to_six_players():
    rules = nw.load_route_cards()["pre_purchase"]
    assert rules["max_card_price"] == 30000 and rules["deal_each"] == 5
    cheap = [c for c in cards() if c["price"] <= rules["max_card_price"]]
    assert len(cheap) >= rules["deal_each"] * PLAYERS_MAX
    assert card_named("JR新幹線") not in cheap


def test_route_card_stations_are_consecutive_on_their_line():
    for c in cards():
        assert c["sections"], c["id"]
        for sec in c["sections"]:
            line = nw.lines()[sec["line"]]
            pairs = {frozenset(p) for p in nw.line_pairs(line)}
            seq = sec["stations"]
            assert len(seq) >= 2, c["id"]
            for a, b in pairwise(seq):
                assert frozenset((a, b)) in pairs, (c["id"], a, b)
            closes_loop = line.get("loop") and seq[0] == seq[-1]
            body = seq[:-1] if closes_loop else seq
            assert len(set(body)) == len(body), c["id"]


def test_every_hop_of_every_line_is_on_exactly_one_card():
    covered = Counter((line, frozenset((a, b))) for c in cards() for line, a, b in nw.card_pairs(c))
    every = {(line["id"], frozenset(p)) for line in nw.lines().values() for p in nw.line_pairs(line)}
    assert set(covered) == every
    assert all(n == 1 for n in covered.values())


def test_seed_named_route_cards_exist():
    names = {c["name"] for c in cards()}
    assert set(SEED_CARDS) <= names


def test_shinkansen_card_charges_its_own_fares():
    card = card_named("JR新幹線")
    assert card["fares"] == {"unowned": 6000, "own": 2000, "other": 10000}
    assert [s["line"] for s in card["sections"]] == ["jr_shinkansen"]
    assert nw.load_route_cards()["fares"] == {"unowned": 1000, "own": 1000, "other": 5000}
    assert nw.load_route_cards()["express_tickets"] == {"count": 6, "price": 5000}


# --- the payouts --------------------------------------------------------------------------------------------------


def test_payout_rule_is_calibrated_on_the_seed_example():
    assert nw.payout_hops(sid("藤ヶ丘"), sid("岡崎")) == 25
    assert nw.payout(sid("藤ヶ丘"), sid("岡崎")) == 17000
    assert nw.payout_table_lookup(sid("藤ヶ丘"), sid("岡崎")) == 17000


@pytest.mark.parametrize(("n", "yen"), [(1, 1000), (2, 1000), (3, 2000), (10, 7000), (25, 17000), (50, 34000)])
def test_payout_for_hops(n, yen):
    assert nw.payout_for_hops(n) == yen


def test_payout_table_lists_every_destination_point():
    table = nw.load_payouts()
    assert table["points"] == list(nw.destination_points())
    size = len(table["points"])
    assert len(table["thousands_of_yen"]) == size
    assert all(len(row) == size for row in table["thousands_of_yen"])


def test_payout_table_states_the_rule_the_code_uses():
    table = nw.load_payouts()
    assert table["yen_per_hop"] == nw.YEN_PER_HOP == 680
    assert table["round_to"] == nw.PAYOUT_UNIT == 1000
    assert set(table["skip_lines"]) == set(nw.PAYOUT_SKIPS) == {"jr_shinkansen"}


def test_payout_table_is_symmetric_and_follows_the_rule():
    table = nw.load_payouts()
    points, rows = table["points"], table["thousands_of_yen"]
    graph = nw.build_graph(frozenset(table["skip_lines"]))
    for i, a in enumerate(points):
        dist = nw.hop_distances(graph, a)
        assert rows[i][i] == 0
        for j, b in enumerate(points):
            assert rows[i][j] == rows[j][i], (a, b)
            if i != j:
                exact = dist[b] * table["yen_per_hop"] / table["round_to"]
                assert exact % 1 != 0.5  # no ties, so plain rounding is the rule
                assert rows[i][j] == round(exact) >= 1, (a, b)


def test_hop_distances_on_a_small_graph():
    graph = {"a": {"b": frozenset({"x"})}, "b": {"a": frozenset({"x"}), "c": frozenset({"y"})},
             "c": {"b": frozenset({"y"})}, "d": {}}
    assert nw.hop_distances(graph, "a") == {"a": 0, "b": 1, "c": 2}
