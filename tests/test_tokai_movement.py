"""Tokai Baron movement and fares (engines/tokai/movement.py), checked on the real map.

The seed rules' worked examples (rule 7.2 小田井→名古屋, rule 11 上前津 / 岐阜羽島→岡崎 / 名古屋→犬山 / 高蔵寺→尾張瀬戸)
are checked by name, plus the general rules: exact steps, no revisits, changes only at shared points, express
skipping, one charge per payee, the Shinkansen's fares, arrival ends the move."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.tokai import movement as mv
from engines.tokai import network as nw
from tests.tokai_helpers import along

B, C, ME = "B", "C", "A"


def sid(name: str) -> str:
    return nw.station_id(name)


def ride(start: str, *legs: tuple[str, str] | None) -> mv.Path:
    """A path from station names: each leg is (line, to-name); None is the pause between normal and bonus move."""
    path: mv.Path = [(sid(start), None)]
    for leg in legs:
        if leg is None:
            path.append((path[-1][0], None))
            continue
        line, to = leg
        path.extend(along(line, path[-1][0], sid(to)))
    return path


def points(path: mv.Path) -> list[str]:
    return [p for p, line in path if line is not None or p == path[0][0]]


def counted(path: mv.Path, express: bool) -> int:
    passes = {lid: set(line.get("express_pass", ())) for lid, line in nw.lines().items()}
    return sum(1 for p, line in path[1:] if not (express and p in passes[line]))


# ---------------------------------------------------------------- movement


def test_seed_otai_to_nagoya_via_biwajima_is_three_stations():
    ends = mv.endpoints(sid("小田井"), 3, destination=sid("名古屋"))
    assert points(ends[sid("名古屋")]) == [sid("小田井"), sid("尾張星の宮"), sid("枇杷島"), sid("名古屋")]


def test_seed_long_detour_is_legal_but_the_ichinomiya_loop_is_not():
    detour = ride("小田井", ("johoku", "味美"), ("meitetsu_komaki", "上飯田"), ("subway_kamiiida", "平安通"),
                  ("subway_meijo", "久屋大通"), ("subway_sakuradori", "名古屋"))
    steps = len(detour) - 1
    walks = list(mv.walks(sid("小田井"), steps, frozenset(), False, sid("名古屋")))
    assert detour in walks
    # Going round by 一宮 and 須ヶ口 passes 枇杷島 twice: no legal walk ever repeats a point.
    assert all(len(set(points(w))) == len(w) for w in walks)


def test_exact_steps_and_one_step_is_the_neighbours():
    start = sid("金山")
    assert set(mv.endpoints(start, 1)) == set(nw.movement_graph()[start])
    for steps in (2, 5, 9):
        ends = mv.endpoints(start, steps)
        assert ends and all(len(path) - 1 == steps for path in ends.values())
        assert start not in ends


def test_no_revisit_including_points_already_passed_this_trip():
    start = sid("名古屋")
    visited = frozenset({sid("枇杷島"), sid("金山")})
    for path in mv.endpoints(start, 6, visited=visited).values():
        pts = points(path)
        assert len(set(pts)) == len(pts)
        assert not visited & set(pts)
    # 名古屋 -> 枇杷島 is one hop on the 東海道本線, but not once 枇杷島 has been passed.
    assert sid("枇杷島") in mv.endpoints(start, 1)
    assert sid("枇杷島") not in mv.endpoints(start, 1, visited=visited)


def test_lines_change_only_at_shared_points():
    # The Shinkansen crosses many stations without stopping: one step from 名古屋 reaches 岐阜羽島 and 三河安城,
    # but the JR and Meitetsu stations it runs past are not joined to it.
    ends = mv.endpoints(sid("名古屋"), 1)
    assert {sid("岐阜羽島"), sid("三河安城")} <= set(ends)
    assert ends[sid("岐阜羽島")][-1] == (sid("岐阜羽島"), "jr_shinkansen")
    # 一宮 lies under the Shinkansen's 名古屋–岐阜羽島 stretch but is no point of it: no way on or off there.
    assert sid("一宮") not in mv.endpoints(sid("名古屋"), 1)
    assert sid("岐阜羽島") not in mv.endpoints(sid("一宮"), 1)
    # In every path, each hop runs on its line, so a change happens at a point both lines serve.
    for path in mv.endpoints(sid("栄"), 7).values():
        for (a, _), (b, line) in zip(path, path[1:], strict=False):
            seq = nw.lines()[line]["stations"]
            assert a in seq and b in seq


def test_express_skips_pass_stations_on_meitetsu():
    sakae = sid("栄")
    seto = [(p, "meitetsu_seto") for p in ("higashioote", "shimizu", "amagasaka", "morishita", "oozone")]
    # Without the ticket, two steps on the 瀬戸線 stop at 清水; with it, 清水・尼ヶ坂・森下 are passed, not counted.
    assert sid("清水") in mv.endpoints(sakae, 2)
    ex = mv.endpoints(sakae, 2, express=True)
    assert ex[sid("大曽根")] == [(sakae, None), *seto]
    passes = {lid: set(line.get("express_pass", ())) for lid, line in nw.lines().items()}
    for steps in (1, 2, 3, 6):
        for end, path in mv.endpoints(sakae, steps, express=True).items():
            assert counted(path, True) == steps
            assert end not in passes[path[-1][1]]  # never stops at a station the express passes
            for (p, line), (_, nxt) in zip(path[1:], path[2:], strict=False):
                if p in passes[line]:
                    assert nxt == line  # no change of trains at a passed station
    # Non-Meitetsu lines have no pass stations: the express changes nothing there.
    assert mv.endpoints(sid("高蔵寺"), 2, express=True) == mv.endpoints(sid("高蔵寺"), 2)


def test_arrival_ends_the_move_with_steps_left():
    dest = sid("名古屋")
    ends = mv.endpoints(sid("小田井"), 8, destination=dest)
    assert dest in ends and len(ends[dest]) - 1 < 8
    for path in ends.values():
        assert dest not in [p for p, _ in path[:-1]]  # nobody rides through the destination
    # The seed's 高蔵寺 round trip: any doubles from 2-2 up reach 尾張瀬戸 (4 counted with the ticket) ...
    for roll in (4, 6, 12):
        ends = mv.endpoints(sid("高蔵寺"), roll, express=True, destination=sid("尾張瀬戸"))
        route = ("高蔵寺", "中水野", "瀬戸市", "瀬戸市役所前", "尾張瀬戸")
        assert points(ends[sid("尾張瀬戸")]) == [sid(n) for n in route]
    # ... and the bonus die's 2 brings the rider back to 瀬戸市 (the trip restarts at the destination).
    assert sid("瀬戸市") in mv.endpoints(sid("尾張瀬戸"), 2, express=True)


def test_cheapest_path_prefers_lower_fare_then_fewer_changes():
    # Unowned, 名古屋 -> 三河安城 in one step can only be the Shinkansen: 6,000.
    assert mv.fare(mv.endpoints(sid("名古屋"), 1)[sid("三河安城")], {}, ME) == {"bank": 6000}
    # 上前津 -> 本山 with B owning 名城線 and 鶴舞線 (bought while A sat at 上前津): 2,000 like the seed's route by
    # 鶴舞・千種, but 鶴舞線 to 伏見 then 東山線 costs the same with one change fewer.
    owners = {"subway_meijo": B, "subway_tsurumai": B}
    ends = mv.endpoints(sid("上前津"), 12, destination=sid("本山"), owners=owners, me=ME, riding={"subway_tsurumai"})
    best = ends[sid("本山")]
    assert mv.fare(best, owners, ME, {"subway_tsurumai"}) == {B: 1000, "bank": 1000}
    assert mv.line_changes(best) == 1
    assert [line for _, line in best[1:]] == ["subway_tsurumai"] * 2 + ["subway_higashiyama"] * 7


# ---------------------------------------------------------------- fares


def test_seed_kamimaezu_examples():
    owners = {"subway_meijo": B, "subway_tsurumai": B}
    riding = {"subway_tsurumai"}
    to_yagoto = ride("上前津", ("subway_tsurumai", "八事"))
    assert mv.fare(to_yagoto, owners, ME, riding) == {B: 1000}
    via_meijo = ride("上前津", ("subway_meijo", "八事"), ("subway_meijo", "本山"))
    assert mv.fare(via_meijo, owners, ME, riding) == {B: 5000}
    # Through 栄 with A's own 東山線: 1,000 to the bank and 5,000 to B.
    via_sakae = ride("上前津", ("subway_meijo", "栄"), ("subway_higashiyama", "本山"))
    assert mv.fare(via_sakae, {**owners, "subway_higashiyama": ME}, ME, riding) == {"bank": 1000, B: 5000}
    # 鶴舞線, then 中央本線 and 東山線 (unowned = own): B 1,000, the bank 1,000 once.
    via_chuo = ride("上前津", ("subway_tsurumai", "鶴舞"), ("jr_chuo", "千種"), ("subway_higashiyama", "本山"))
    assert mv.fare(via_chuo, owners, ME, riding) == {B: 1000, "bank": 1000}


def test_seed_gifuhashima_to_okazaki_shinkansen():
    path = ride("岐阜羽島", ("jr_shinkansen", "三河安城"), ("jr_tokaido", "岡崎"))
    assert mv.fare(path, {}, ME) == {"bank": 6000}
    assert mv.fare(path, {"shinkansen": ME}, ME) == {"bank": 2000}
    assert mv.fare(path, {"shinkansen": B}, ME) == {B: 10000, "bank": 1000}
    assert mv.fare(path, {"shinkansen": B, "jr_tokaido": B}, ME) == {B: 10000}
    # Grandfathered (our reading of 「既に目的地まで切符は買ってある」): the public fare, to the new owner.
    assert mv.fare(path, {"shinkansen": B}, ME, {"shinkansen"}) == {B: 6000, "bank": 1000}


def test_seed_nagoya_inuyama_grandfathering_until_leaving_the_line():
    card = "meitetsu_inuyama_kakamigahara"
    owners = {card: B}
    # Normal move to 犬山, bonus move on to 岐阜 on the same card: still 1,000 (arrival does not end it).
    stay = ride("名古屋", ("meitetsu_inuyama", "鵜沼"), None, ("meitetsu_kakamigahara", "岐阜"))
    assert mv.fare(stay, owners, ME, {card}) == {B: 1000}
    assert mv.still_riding(stay, {card}) == {card}
    # Taking the 高山本線 leaves the card: a later use of it pays the full 5,000.
    left = ride("名古屋", ("meitetsu_inuyama", "鵜沼"), ("jr_takayama", "各務ヶ原"))
    assert mv.fare(left, owners, ME, {card}) == {B: 1000, "bank": 1000}
    assert mv.still_riding(left, {card}) == frozenset()
    back = ride("上前津", ("subway_tsurumai", "鶴舞"), ("jr_chuo", "金山"), ("subway_meijo", "八事"),
                ("subway_tsurumai", "塩釜口"))
    assert mv.fare(back, {"subway_tsurumai": B}, ME, {"subway_tsurumai"}) == {B: 5000, "bank": 1000}


def test_seed_kouzouji_round_trip_is_charged_once():
    path = ride("高蔵寺", ("aikan", "瀬戸市"), ("meitetsu_seto", "尾張瀬戸"), None, ("meitetsu_seto", "瀬戸市"),
                ("aikan", "高蔵寺"))
    assert mv.fare(path, {"aikan": B, "meitetsu_seto": C}, B) == {"bank": 1000, C: 5000}


def test_one_charge_per_payee_and_the_split_nagoya_main_line():
    path = ride("豊橋", ("meitetsu_nagoya", "名古屋"), ("meitetsu_nagoya", "岐阜"))
    east, west = "meitetsu_nagoya_east", "meitetsu_nagoya_west"
    assert mv.card_of("meitetsu_nagoya", sid("名古屋"), "sakou") == west
    assert mv.fare(path, {east: B, west: B}, ME) == {B: 5000}
    assert mv.fare(path, {east: B, west: C}, ME) == {B: 5000, C: 5000}
    assert mv.fare(path, {east: B}, ME) == {B: 5000, "bank": 1000}
    assert mv.fare(path, {east: ME, west: ME}, ME) == {"bank": 1000}
    assert mv.fare([(sid("豊橋"), None)], {}, ME) == {}


@pytest.mark.parametrize(("owner", "expected"), [(None, {"bank": 6000}), (ME, {"bank": 2000}), (B, {B: 10000})])
def test_shinkansen_fares(owner, expected):
    path = ride("名古屋", ("jr_shinkansen", "岐阜羽島"))
    assert mv.fare(path, {"shinkansen": owner}, ME) == expected


# --- the search against its definition --------------------------------------------------------------------------
def endpoints_by_definition(start, steps, visited, express, destination, owners, me, riding, via):
    """Every walk, each path's key computed whole: the definition ``mv.endpoints`` must match exactly."""
    best = {}
    for path in mv.walks(start, steps, frozenset(visited), express, destination):
        if via and not mv._passes_in_order(path, via):
            continue
        key = (sum(mv.fare(path, owners, me, riding).values()), mv.line_changes(path), len(path), path)
        if path[-1][0] not in best or key < best[path[-1][0]][0]:
            best[path[-1][0]] = (key, path)
    return {end: path for end, (_, path) in best.items()}


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_the_search_finds_exactly_the_cheapest_paths_of_the_definition(data):
    rng = random.Random(data.draw(st.integers(0, 10**6)))
    points_ = sorted(nw.movement_graph())
    cards = sorted(nw.route_cards())
    start = rng.choice(points_)
    owners = {c: rng.choice([None, None, ME, B]) for c in cards}
    riding = rng.sample(cards, 2) if rng.random() < 0.3 else []
    destination = rng.choice(points_) if rng.random() < 0.5 else None
    visited = rng.sample(points_, 5) if rng.random() < 0.5 else []
    args = dict(visited=[p for p in visited if p != start], express=rng.random() < 0.5, destination=destination,
                owners=owners, me=ME, riding=riding)
    steps = data.draw(st.integers(1, 7))
    want = endpoints_by_definition(start, steps, via=(), **args)
    assert mv.endpoints(start, steps, **args) == want
    if want:  # waypoints: a point some cheapest path passes
        path = want[rng.choice(sorted(want))]
        via = [p for p, _ in path[1:-1]][:1]
        assert mv.endpoints(start, steps, via=via, **args) == endpoints_by_definition(start, steps, via=via, **args)
