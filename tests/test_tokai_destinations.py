import random

import pytest

from engines.tokai.destinations import (
    POINT,
    REGION,
    Choose,
    Destination,
    NeedDice,
    RestTurn,
    decide_destination,
    decide_start,
    point_of,
    region_containing,
    region_of,
    regions,
)
from engines.tokai.network import ANY, destination_points, load_destinations, station_id, stations

EAST_ROLL = (5, 3, 4)  # seed: 色付「5」, 白「3」「4」 -> 奇数の7 -> 東
AKAIKE_ROLL = (3, 5, 4)  # seed: 色付「3」, 白「5」「4」 -> 奇数の9 -> 赤池
ANY_ROLL = (2, 3, 4)  # 偶数の7 -> 任意 on the 東 table
NORTH_ROLL = (1, 4, 5)  # 奇数の9 -> 北
INUYAMA_ROLL = (1, 3, 4)  # 北 奇数の7 -> 犬山
SUMS = range(2, 13)


def test_seed_examples():
    assert region_of(True, 7) == "east"
    assert point_of("east", True, 9) == station_id("赤池")
    assert region_containing(station_id("犬山")) == "north"
    assert point_of("east", False, 7) == ANY
    assert decide_destination(station_id("名古屋"), [EAST_ROLL, AKAIKE_ROLL]) == Destination(station_id("赤池"))


def test_every_cell_is_a_map_point_or_any():
    d = load_destinations()
    assert set(regions()) == set(d["tables"])
    for odd in (True, False):
        for total in SUMS:
            assert region_of(odd, total) in d["tables"]
            for region in regions():
                p = point_of(region, odd, total)
                assert p == ANY or p in stations()
    cells = [point_of(r, o, t) for r in regions() for o in (True, False) for t in SUMS]
    assert cells.count(ANY) == 1


def test_each_point_in_exactly_one_region():
    d = load_destinations()["tables"]
    for p in destination_points():
        holders = [r for r, t in d.items() if p in t["odd"].values() or p in t["even"].values()]
        assert holders == [region_containing(p)]
    with pytest.raises(KeyError):
        region_containing("no_such_point")


def test_dice_requests_in_order():
    here = station_id("名古屋")
    assert isinstance(decide_destination(here, []), NeedDice)
    need = decide_destination(here, [EAST_ROLL])
    assert isinstance(need, NeedDice) and need.count == 3
    with pytest.raises(ValueError):
        decide_destination(here, [(7, 1, 1)])
    with pytest.raises(ValueError):
        decide_destination(here, [EAST_ROLL, AKAIKE_ROLL, AKAIKE_ROLL])


def test_own_region_offers_any_region():
    inuyama = station_id("犬山")
    ask = decide_destination(inuyama, [NORTH_ROLL])
    assert isinstance(ask, Choose) and ask.kind == REGION and set(ask.options) == set(regions())
    # chose 東 instead: the second roll reads the 東 table
    assert decide_destination(inuyama, [NORTH_ROLL, AKAIKE_ROLL], region_choice="east") == Destination(
        station_id("赤池")
    )
    # kept 北 and rolled 犬山 again: 1回休み
    assert isinstance(decide_destination(inuyama, [NORTH_ROLL, INUYAMA_ROLL], region_choice="north"), RestTurn)
    # kept 北, another northern point: an ordinary destination
    assert decide_destination(inuyama, [NORTH_ROLL, (2, 2, 2)], region_choice="north") == Destination("otai")
    # no choice when the rolled region is not the player's own
    with pytest.raises(ValueError):
        decide_destination(station_id("名古屋"), [NORTH_ROLL], region_choice="east")


def test_any_cell():
    here = station_id("名古屋")
    ask = decide_destination(here, [EAST_ROLL, ANY_ROLL])
    assert isinstance(ask, Choose) and ask.kind == POINT
    assert here not in ask.options and set(ask.options) == set(destination_points()) - {here}
    okazaki = station_id("岡崎")
    assert decide_destination(here, [EAST_ROLL, ANY_ROLL], any_choice=okazaki) == Destination(okazaki)
    with pytest.raises(ValueError):
        decide_destination(here, [EAST_ROLL, ANY_ROLL], any_choice="no_such_point")


def test_start_redo_when_taken_and_any():
    akaike = station_id("赤池")
    assert decide_start([EAST_ROLL, AKAIKE_ROLL]) == Destination(akaike)
    redo = decide_start([EAST_ROLL, AKAIKE_ROLL], taken={akaike})
    assert isinstance(redo, NeedDice)
    assert decide_start([EAST_ROLL, AKAIKE_ROLL, NORTH_ROLL, INUYAMA_ROLL], taken={akaike}) == Destination(
        station_id("犬山")
    )
    ask = decide_start([EAST_ROLL, ANY_ROLL], taken={akaike})
    assert isinstance(ask, Choose) and akaike not in ask.options and len(ask.options) == len(destination_points()) - 1
    assert decide_start([EAST_ROLL, ANY_ROLL], taken={akaike}, any_choice="otai") == Destination("otai")
    with pytest.raises(ValueError):
        decide_start([EAST_ROLL, ANY_ROLL], taken={akaike}, any_choice=akaike)


def _play_start(rng: random.Random, taken: set[str]) -> str:
    rolls: list = []
    while True:
        out = decide_start(rolls, taken)
        if isinstance(out, Choose):
            out = decide_start(rolls, taken, any_choice=rng.choice(out.options))
        if isinstance(out, Destination):
            return out.point
        rolls.append(tuple(rng.randint(1, 6) for _ in range(3)))


def test_start_points_never_alike():
    rng = random.Random(1)
    for _ in range(200):
        taken: set[str] = set()
        for _ in range(6):
            p = _play_start(rng, taken)
            assert p not in taken and p in destination_points()
            taken.add(p)
