"""4bit Town rules, one scenario at a time: every location, every card face, every building,
the step order, the round end, the draft, the cap, scoring and tie-breaks (docs: the seed
rules and rulings G-1..G-42 in the spec)."""
from __future__ import annotations

import json

import pytest

from engines.base import CHANCE, RuleError
from engines.fourbit import CITY_HALL, bits
from engines.fourbit.data import BUILDINGS, track_vp
from tests.fourbit_helpers import (
    E,
    act,
    decline,
    end_round,
    game,
    options,
    player,
    res,
    setup_chance,
    skip,
    skip_all,
    stage,
    step,
    take,
    use,
    who,
)

# Card faces that never fire by themselves at an ordinary location: 8 (a cost modifier),
# 9 (after a plan), 14 (after turn order +1), 15 (at City Hall).
INERT = [8, 9, 14, 15]
# Cards that ask nothing and change nothing anywhere but at locations 7-10 (and City Hall).
QUIET = [8, 9, 10, 11]
NOBUILD = [9, 12, 14, 15]  # quiet at the Build and Sell locations (no card 8 discount)
NOTRACK = [8, 9, 12, 15]  # quiet at location 11
NOPLAN = [11, 12, 14, 15]  # quiet at locations 8, 9 and 12


def order_for(n: int, card: int, side: int, others: list[int]) -> list[int]:
    """A stack for location n with ``card`` at the first position whose bit is ``side``."""
    pos = bits(n).index(side)
    order = list(others)
    order.insert(pos, card)
    return order


def rule_error(s, seat, action) -> str:
    with pytest.raises(RuleError) as e:
        E.apply(s, seat, action)
    return str(e.value)


# --- the 16 locations: first player free, follower pays ---------------------------------------

SIMPLE = [  # location, gain (wood, stone, coins, vp)
    (0, (12, 0, 0, 0)),
    (1, (0, 12, 0, 0)),
    (4, (0, 0, 12, 0)),
    (5, (0, 0, 0, 2)),
    (15, (6, 6, 0, 0)),
]


@pytest.mark.parametrize("n,gain", SIMPLE)
def test_simple_location_first_free_and_follower_pays(n, gain):
    s = game(2, cards={0: INERT, 1: INERT}, p1={"wood": 2, "stone": 2, "coins": 2})
    s = step(s, {0: n, 1: n})
    # tie on level 3: the front of the track is first; inert cards are passed over by themselves
    assert stage(s) == (0, n, "location", 4)
    assert options(s) == [take(s), decline(s)]
    s = act(s, take(s))
    assert res(s, 0) == gain
    assert stage(s) == (1, n, "location", 4)
    assert options(s) == [take(s, pay="wood"), take(s, pay="stone"), take(s, pay="coins"), decline(s)]
    s = act(s, take(s, pay="stone"))
    assert res(s, 1) == (2 + gain[0], 0 + gain[1], 2 + gain[2], gain[3])
    assert s["phase"] == "work" and s["blocked"][n]


def test_follower_without_the_cost_gets_nothing():
    s = game(2, cards={0: INERT, 1: INERT})
    s = step(s, {0: 4, 1: 4})
    s = act(s, take(s))
    # seat 1 has nothing to pay with: the only choice is to skip, applied by itself
    assert s["phase"] == "work" and res(s, 1) == (0, 0, 0, 0)
    assert rule_error(game(2), 0, {"type": "use", "card": 1, "side": 0}) == \
        "That move does not fit this moment of the game."


def test_first_player_is_the_higher_company_level_then_the_track_front():
    s = game(2, cards={0: INERT, 1: INERT}, p1={"level": 4})
    s = step(s, {0: 4, 1: 4})
    assert [(w["seat"], w["first"]) for w in s["queue"]] == [(1, True), (0, False)]
    s = game(2, cards={0: INERT, 1: INERT}, seats=[1, 0])
    s = step(s, {0: 4, 1: 4})
    assert [(w["seat"], w["first"]) for w in s["queue"]] == [(1, True), (0, False)]


def test_follower_may_not_pay_for_an_effect_it_cannot_carry_out():
    # seat 1 has exactly 4/4/4: paying 2 of any kind leaves too little for the level-up
    s = game(2, cards={0: INERT, 1: INERT}, p0={"wood": 4, "stone": 4, "coins": 4},
             p1={"wood": 4, "stone": 4, "coins": 4})
    s = step(s, {0: 6, 1: 6})
    s = act(s, take(s))
    assert player(s, 0)["level"] == 4
    assert s["phase"] == "work" and player(s, 1)["level"] == 3 and res(s, 1) == (4, 4, 4, 0)


def test_blocked_location_sends_the_worker_to_city_hall():
    s = game(2, cards={0: QUIET, 1: QUIET}, p1={"coins": 2})
    s = step(s, {0: 4, 1: "pass"})
    s = act(s, take(s))
    assert s["blocked"][4] and s["phase"] == "work"
    s = step(s, {0: 4})  # seat 1 passed: only seat 0 is asked
    w = s["queue"][0]
    assert (w["n"], w["loc"], w["first"]) == (4, CITY_HALL, False)
    # no location effect at City Hall; these cards do nothing there: straight to the gain
    assert stage(s) == (0, CITY_HALL, "city_hall", 4)
    assert options(s) == [{"type": "city_hall", "gain": "wood", "step": False},
                          {"type": "city_hall", "gain": "wood", "step": True},
                          {"type": "city_hall", "gain": "coins", "step": False},
                          {"type": "city_hall", "gain": "coins", "step": True}]
    s = act(s, {"type": "city_hall", "gain": "wood", "step": False})
    assert res(s, 0) == (2, 0, 12, 0)
    # City Hall is never blocked: a third worker can go there too
    s = step(s, {0: 4})
    assert s["queue"][0]["loc"] == CITY_HALL


def test_two_workers_on_a_blocked_location_both_go_to_city_hall():
    s = game(3, cards={0: QUIET, 1: QUIET, 2: QUIET})
    s = step(s, {0: 5, 1: 6, 2: 6})
    s = act(s, take(s))  # seat 0 at 5; seats 1 and 2 cannot afford the level-up: settled by themselves
    assert s["phase"] == "work"
    s = step(s, {0: 5, 1: 5, 2: "pass"})
    assert [(w["seat"], w["loc"], w["first"]) for w in s["queue"]] == [(0, CITY_HALL, False), (1, CITY_HALL, False)]


def test_city_hall_cards_gain_and_paid_step():
    cards = [15, 1, 8, 9]  # stack for 4 = bits 0,0,1,0: 15-0 (wood +2), 1-0 (wood +2), 8-1, 9-0
    s = game(3, cards={0: QUIET, 1: cards, 2: QUIET}, p1={"coins": 2})
    # seat 0 blocks location 4; seat 1 tries a level-up it cannot afford: its 1-1 (4 wood → 4 coins)
    # cannot be paid either, so there is nothing to decide
    s = step(s, {0: 4, 1: 6, 2: "pass"})
    s = act(s, take(s))
    assert s["phase"] == "work"
    s = step(s, {0: "pass", 1: (4, cards)})
    assert stage(s) == (1, CITY_HALL, "card", 0)
    assert options(s) == [use(s), skip(s)]  # City Hall has no location effect to take
    s = act(s, use(s))  # 15-0 at City Hall: +2 wood
    s = act(s, use(s))  # 1-0: +2 wood
    assert stage(s)[2] == "city_hall"
    assert options(s) == [{"type": "city_hall", "gain": "wood", "step": False},
                          {"type": "city_hall", "gain": "coins", "step": False},
                          {"type": "city_hall", "gain": "coins", "step": True}]
    s = act(s, {"type": "city_hall", "gain": "coins", "step": True})  # 2 + 2 coins, pay 4
    assert res(s, 1) == (4, 0, 0, 0)
    # the paid step is a plain move to the front of space 2 (no +6 coins), G-7/G-8
    assert s["track"][0] == {"seat": 1, "space": 2} and E._order(s)[0] == 1
    assert E.public(s)["order"] == [0, 1, 2]  # this round keeps its order; the move counts from round 2


def test_city_hall_paid_step_is_not_the_turn_order_action():
    cards = [14, 1, 8, 9]  # at City Hall card 14 never fires (G-33); 1-0 does
    s = game(2, cards={0: QUIET, 1: cards}, p1={"coins": 8, "built": [5]})  # Town Hall Annex
    s = step(s, {0: 4, 1: 6})
    s = act(s, take(s))
    s = step(s, {0: "pass", 1: (4, cards)})
    assert stage(s) == (1, CITY_HALL, "card", 1) and options(s) == [use(s), skip(s)]
    s = act(s, skip(s))
    s = act(s, {"type": "city_hall", "gain": "wood", "step": True})
    assert res(s, 1) == (2, 0, 4, 0)  # no Annex VP, no +6 coins
    assert s["track"][0] == {"seat": 1, "space": 2}


@pytest.mark.parametrize("n,src,dst", [(2, "wood", "coins"), (3, "stone", "coins"),
                                       (13, "coins", "wood"), (14, "coins", "stone")])
@pytest.mark.parametrize("round_", [1, 3, 6])
def test_conversion_locations_are_limited_to_round_times_two(n, src, dst, round_):
    s = game(2, round_=round_, cards={0: INERT, 1: INERT}, p0={src: 30}, p1={src: 30})
    s = step(s, {0: n, 1: n})
    limit = 2 * round_
    assert options(s) == [take(s, times=t) for t in range(1, limit + 1)] + [decline(s)]
    assert rule_error(s, 0, take(s, times=limit + 1)) == f"This round you may convert 1 to {limit} times here."
    assert rule_error(s, 0, take(s, times=0)) == f"This round you may convert 1 to {limit} times here."
    s = act(s, take(s, times=limit))
    p = player(s, 0)
    assert p[src] == 30 - 2 * limit and p[dst] == 4 * limit
    # the follower gets the same limit after paying 2 (G-16)
    fol = [a for a in options(s) if a["type"] == "location" and a["pay"] == src]
    assert max(a["times"] for a in fol) == min(limit, (30 - 2) // 2)


def test_conversion_needs_the_payment_for_every_time():
    s = game(2, round_=6, cards={0: INERT, 1: INERT}, p0={"wood": 6})
    s = step(s, {0: 2, 1: "pass"})
    assert options(s) == [take(s, times=1), take(s, times=2), take(s, times=3), decline(s)]
    assert rule_error(s, 0, take(s, times=4)) == "That costs 2 wood, and you have 0 wood."


def test_location_6_company_level_up_costs_4_4_4_and_stops_at_7():
    s = game(2, cards={0: INERT, 1: INERT}, p0={"wood": 6, "stone": 6, "coins": 4, "level": 6})
    s = step(s, {0: 6, 1: "pass"})
    s = act(s, take(s))
    assert player(s, 0)["level"] == 7 and res(s, 0) == (2, 2, 0, 0)
    s = game(2, cards={0: INERT, 1: INERT}, p0={"wood": 8, "stone": 8, "coins": 8, "level": 7})
    s = step(s, {0: 6, 1: "pass"})
    # at level 7 the effect cannot be taken: nothing to decide, the step ends by itself
    assert s["phase"] == "work" and player(s, 0)["level"] == 7 and res(s, 0) == (8, 8, 8, 0)


def test_location_7_hire_costs_4_and_respects_the_limit():
    s = game(2, cards={0: INERT, 1: INERT}, p0={"coins": 6, "level": 4})
    s = step(s, {0: 7, 1: "pass"})
    s = act(s, take(s))
    p = player(s, 0)
    assert (p["hired"], p["unhired"], p["coins"]) == (4, 3, 2)
    # hired 3 = level 3: no hire possible, neither free nor for the follower cost (G-26)
    s = game(2, cards={0: NOBUILD, 1: NOBUILD}, p0={"coins": 8}, p1={"coins": 8, "level": 3})
    s = step(s, {0: 7, 1: 7})
    assert s["phase"] == "work" and res(s, 0) == (0, 0, 8, 0) and res(s, 1) == (0, 0, 8, 0)
    assert player(s, 0)["hired"] == 3 and player(s, 1)["hired"] == 3


def test_hired_worker_can_be_sent_later_in_the_same_round():
    s = game(2, cards={0: [9, 14, 15, 8], 1: QUIET}, p0={"coins": 4, "level": 4})
    s = step(s, {0: 7, 1: "pass"})
    s = act(s, take(s))
    for n in (0, 1):
        s = step(s, {0: n})
        s = act(s, take(s))
    assert player(s, 0)["sent"] == 3 and E.awaiting(s).seats == {0}
    s = step(s, {0: 4})  # the fourth worker, hired this round (G-11)
    s = act(s, take(s))
    # no unsent hired worker left: seat 0 is passed automatically and the round ends
    assert s["phase"] == "upkeep" and player(s, 0)["coins"] == 12


@pytest.mark.parametrize("guild,card_side,cost", [(False, None, 4), (True, None, 2), (False, 0, 2), (True, 0, 0)])
def test_hire_discounts_guild_hall_and_card_11_0(guild, card_side, cost):
    cards = [9, 14, 15, 11] if card_side == 0 else [9, 14, 15, 8]  # 7 = bits 1,1,1,0: bottom is a 0-face
    s = game(2, cards={0: cards, 1: INERT}, p0={"coins": 10, "level": 5, "built": [8] if guild else []})
    s = step(s, {0: 7, 1: "pass"})
    if card_side == 0:  # 11-0 is used first; it lowers the hire taken after it
        assert options(s) == [use(s), skip(s), take(s)]
        s = act(s, use(s))
    s = act(s, take(s))
    assert player(s, 0)["coins"] == 10 - cost and player(s, 0)["hired"] == 4
    assert s["phase"] == "work"


def test_card_11_0_after_the_hire_does_nothing():
    cards = [9, 14, 15, 11]  # 11-0 at the bottom
    s = game(2, cards={0: cards, 1: INERT}, p0={"coins": 10, "level": 5})
    s = step(s, {0: 7, 1: "pass"})
    s = act(s, take(s))  # hired before reaching card 11: full price, and the card has nothing left to lower
    assert player(s, 0)["coins"] == 6 and s["phase"] == "work"


@pytest.mark.parametrize("guild,second", [(False, 4), (True, 2)])
def test_card_11_1_extra_hire_at_standard_cost(guild, second):
    cards = [11, 14, 15, 9]  # 11 on top: face 1
    s = game(2, cards={0: cards, 1: INERT}, p0={"coins": 20, "level": 5, "built": [8] if guild else []})
    s = step(s, {0: 7, 1: "pass"})
    assert options(s) == [skip(s), take(s)]  # 11-1 waits for a hire that has not happened yet
    s = act(s, take(s))
    first = 2 if guild else 4
    assert stage(s) == (0, 7, "card", 0) and options(s) == [use(s), skip(s)]
    s = act(s, use(s))
    p = player(s, 0)
    assert (p["hired"], p["unhired"], p["coins"]) == (5, 2, 20 - first - second)


def test_card_11_1_needs_a_hire_and_room_under_the_limit():
    cards = [11, 1, 15, 9]
    # before the hire, 11-1 cannot be used
    s = game(2, cards={0: cards, 1: INERT}, p0={"coins": 20, "wood": 4, "level": 5})
    s = step(s, {0: 7, 1: "pass"})
    assert use(s) not in options(s)
    assert rule_error(s, 0, use(s)) == "This card works only after hiring at 7 Back Workshop."
    # hired up to the limit: the extra hire is impossible, so 11-1 is passed by itself
    s = game(2, cards={0: cards, 1: INERT}, p0={"coins": 20, "wood": 4, "level": 4})
    s = step(s, {0: 7, 1: "pass"})
    s = act(s, take(s))
    assert stage(s) == (0, 7, "card", 1)
    assert player(s, 0)["hired"] == 4


def test_hire_when_all_seven_are_hired():
    s = game(2, cards={0: NOBUILD, 1: INERT}, p0={"coins": 8, "level": 7, "hired": 7, "unhired": 0})
    s = step(s, {0: 7, 1: "pass"})
    assert s["phase"] == "work" and player(s, 0)["coins"] == 8


def test_location_8_build_from_row_or_own_plan_not_anothers():
    # Woodworks (1): 10 wood, 2 VP. Seat 1 has planned Quarry (2), out of seat 0's reach.
    s = game(2, cards={0: NOBUILD, 1: NOBUILD}, row=[1, 3, 4, 5], p0={"wood": 10, "stone": 10, "plans": [6],
             "plans_open": [False]}, p1={"plans": [2], "plans_open": [True]})
    s = step(s, {0: 8, 1: "pass"})
    assert options(s) == [take(s, building=1), decline(s)]  # Plaza (6) costs W6 S16 C6: too dear; 3/4/5 too
    assert rule_error(s, 0, take(s, building=2)) == "Build one of your planned buildings or one from the build row."
    s = act(s, take(s, building=1))
    p = player(s, 0)
    assert p["built"] == [1] and res(s, 0) == (0, 10, 0, 2) and s["row"] == [3, 4, 5]


def test_build_a_planned_building_for_its_full_cost():
    s = game(2, cards={0: NOBUILD, 1: INERT}, row=[3, 4, 5, 6], p0={"wood": 10, "plans": [1], "plans_open": [False]})
    s = step(s, {0: 8, 1: "pass"})
    s = act(s, take(s, building=1))
    p = player(s, 0)
    assert p["built"] == [1] and p["plans"] == [] and p["plans_open"] == [] and res(s, 0) == (0, 0, 0, 2)
    assert s["row"] == [3, 4, 5, 6]


def test_build_refusal_names_the_cost():
    s = game(2, cards={0: NOBUILD, 1: INERT}, row=[1, 11, 4, 5], p0={"wood": 4, "stone": 2, "coins": 4})
    s = step(s, {0: 8, 1: "pass"})
    assert options(s) == [take(s, building=11), decline(s)]
    assert rule_error(s, 0, take(s, building=1)) == "That costs 10 wood, and you have 4 wood."


@pytest.mark.parametrize("side,resource", [(0, "wood"), (1, "stone")])
def test_card_8_used_before_the_build_lowers_its_cost(side, resource):
    # 8 = bits 0,0,0,1: positions 0-2 show the 0-face, the bottom shows the 1-face
    order = order_for(8, 8, side, [9, 14, 15])
    b = 1 if resource == "wood" else 2  # Woodworks W10 / Quarry S10
    s = game(2, cards={0: order, 1: INERT}, row=[b, 3, 4, 5], p0={resource: 8})
    s = step(s, {0: (8, order), 1: "pass"})
    assert options(s) == [use(s), skip(s)]  # 8 is too little without the card
    s = act(s, use(s))
    assert options(s) == [take(s, building=b), decline(s)]
    s = act(s, take(s, building=b))
    assert player(s, 0)[resource] == 0 and player(s, 0)["built"] == [b]
    assert s["phase"] == "work"


def test_card_8_after_the_build_does_nothing():
    order = [9, 14, 15, 8]  # 8-1 at the bottom
    s = game(2, cards={0: order, 1: INERT}, row=[2, 3, 4, 5], p0={"stone": 10})
    s = step(s, {0: (8, order), 1: "pass"})
    assert options(s) == [use(s), skip(s), take(s, building=2)]
    s = act(s, take(s, building=2))  # built first: the full 10 stone, and card 8 is passed by itself
    assert player(s, 0)["stone"] == 0 and player(s, 0)["built"] == [2] and s["phase"] == "work"


def test_card_8_discount_stops_at_zero():
    # Academy costs W2 S6 C4: with 8-0 no wood at all is needed, and none is gained
    order = [8, 9, 14, 15]
    s = game(2, cards={0: order, 1: INERT}, row=[13, 3, 4, 5], p0={"stone": 6, "coins": 4})
    s = step(s, {0: (8, order), 1: "pass"})
    assert options(s) == [use(s), skip(s)]
    s = act(s, use(s))
    assert options(s) == [take(s, building=13), decline(s)]
    s = act(s, take(s, building=13))
    assert res(s, 0) == (0, 0, 0, 0) and player(s, 0)["built"] == [13]
    # Quarry costs no wood: 8-0 leaves its 10 stone, so 8 stone is not enough
    s = game(2, cards={0: order, 1: INERT}, row=[2, 3, 4, 5], p0={"stone": 8})
    s = step(s, {0: (8, order), 1: "pass"})
    s = act(s, use(s))
    assert s["phase"] == "work" and player(s, 0)["built"] == []


def test_card_8_outside_a_build_is_never_usable():
    order = [8, 1, 14, 15]  # location 0: 8-0 on top, 1-0 second
    s = game(2, cards={0: order, 1: INERT})
    s = step(s, {0: (0, order), 1: "pass"})
    assert stage(s) == (0, 0, "card", 1)  # passed over by itself, before the location as after it


def test_location_9_plan_from_row_public_and_from_deck_hidden():
    s = game(2, cards={0: INERT, 1: INERT}, row=[1, 2, 3, 4], deck=[5, 6, 7])
    s = step(s, {0: 9, 1: "pass"})
    # card 9 sits at position 1 (face 0: +2 wood after planning): before the plan it can only be skipped
    assert options(s) == [skip(s), take(s, building=1), take(s, building=2), take(s, building=3),
                          take(s, building=4), take(s, building="deck")]
    s = act(s, take(s, building=3))
    assert stage(s) == (0, 9, "card", 1) and options(s) == [use(s), skip(s)]
    s = act(s, use(s))
    assert res(s, 0) == (2, 0, 6, 0) and player(s, 0)["plans"] == [3] and s["row"] == [1, 2, 4]
    assert E.public(s)["players"][0]["plans"] == [3]
    s = game(2, cards={0: INERT, 1: INERT}, row=[1, 2, 3, 4], deck=[5, 6, 7])
    s = step(s, {0: 9, 1: "pass"})
    s = act(s, take(s, building="deck"))
    s = skip_all(s)
    assert player(s, 0)["plans"] == [5] and s["deck"] == [6, 7]
    pub = E.public(s)
    assert pub["players"][0]["plans"] == [None] and pub["deck_left"] == 2
    assert E.view(s, 0)["my_plans"] == [5]
    assert E.view(s, 1)["my_plans"] == [] and E.view(s, 1)["players"][0]["plans"] == [None]


@pytest.mark.parametrize("card,side,gain", [(9, 0, "wood"), (9, 1, "stone")])
def test_card_9_after_a_plan(card, side, gain):
    order = order_for(9, card, side, [8, 14, 15])
    s = game(2, cards={0: order, 1: INERT}, row=[1, 2, 3, 4])
    s = step(s, {0: (9, order), 1: "pass"})
    s = act(s, take(s, building=1))
    s = act(s, use(s))
    assert player(s, 0)[gain] == 2 and player(s, 0)["coins"] == 6


def test_card_9_reached_before_the_plan_does_nothing():
    order = [9, 1, 14, 15]  # location 9 = bits 1,0,0,1: 9-1, 1-0, 14-0, 15-1
    s = game(2, cards={0: order, 1: INERT}, row=[1, 2, 3, 4])
    s = step(s, {0: (9, order), 1: "pass"})
    assert use(s) not in options(s)
    assert rule_error(s, 0, use(s)) == "This card works only after planning."
    s = act(s, skip(s))
    s = act(s, take(s, building=1))  # planned after card 9's turn: no stone
    assert stage(s) == (0, 9, "card", 1) and res(s, 0) == (0, 0, 6, 0)


def test_design_office_adds_2_coins_to_a_plan():
    s = game(2, cards={0: INERT, 1: INERT}, row=[1, 2, 3, 4], p0={"built": [10]})
    s = step(s, {0: 9, 1: "pass"})
    s = act(s, take(s, building=2))
    s = skip_all(s)
    assert player(s, 0)["coins"] == 8


def test_plan_with_empty_row_and_deck_is_not_possible():
    s = game(2, cards={0: NOPLAN, 1: INERT}, row=[], deck=[])
    s = step(s, {0: 9, 1: "pass"})
    assert s["phase"] == "work" and res(s, 0) == (0, 0, 0, 0)  # no plan, so no +6 coins (G-26)
    s = game(2, cards={0: NOPLAN, 1: INERT}, row=[1], deck=[])
    s = step(s, {0: 9, 1: "pass"})
    assert options(s) == [take(s, building=1), decline(s)]
    assert rule_error(s, 0, take(s, building="deck")) == "Plan a building from the build row or the top of the deck."


@pytest.mark.parametrize("b", sorted(BUILDINGS))
def test_every_building_cost_instant_vp_and_sale_value(b):
    name, english, cost, vp, sale, _ = BUILDINGS[b]
    others = [x for x in range(1, 19) if x != b]
    s = game(2, cards={0: NOBUILD, 1: NOBUILD}, row=[b] + others[:3], deck=others[3:], p0=dict(cost))
    s = step(s, {0: 8, 1: "pass"})
    # no bonus choice: the Artisans' Quarter gives nothing for its own construction (G-29)
    assert take(s, building=b) in options(s)
    s = act(s, take(s, building=b))
    assert res(s, 0) == (0, 0, 0, vp), english
    assert player(s, 0)["built"] == [b] and b not in s["row"]
    # sell it in the next step: its sale value in coins; the instant VP stays (G-25)
    s = step(s, {0: 10})
    assert options(s) == [take(s, building=b), decline(s)]
    s = act(s, take(s, building=b))
    assert player(s, 0)["built"] == [] and b in s["row"]
    assert res(s, 0) == (0, 0, sale, vp), english


def test_location_10_sell_with_card_10_0_and_only_your_own_buildings():
    order = [10, 14, 15, 9]  # location 10 = bits 0,1,0,1: 10-0 on top
    s = game(2, cards={0: order, 1: INERT}, row=[2, 3, 4, 5], p0={"built": [1]})
    s = step(s, {0: (10, order), 1: "pass"})
    assert options(s) == [skip(s), take(s, building=1)]
    s = act(s, take(s, building=1))
    assert options(s) == [use(s), skip(s)]
    s = act(s, use(s))
    assert player(s, 0)["coins"] == 14 + 4 and s["row"] == [2, 3, 4, 5, 1]
    s = game(2, cards={0: NOBUILD, 1: INERT}, p0={"built": [1]})
    s = step(s, {0: 10, 1: "pass"})
    assert options(s) == [take(s, building=1), decline(s)]
    assert rule_error(s, 0, take(s, building=2)) == "You can only sell a building you have built."


def test_card_10_1_after_a_build_only():
    order = [9, 14, 15, 10]  # location 8: 10-1 at the bottom
    s = game(2, cards={0: order, 1: INERT}, row=[1, 2, 3, 4], p0={"wood": 10})
    s = step(s, {0: (8, order), 1: "pass"})
    s = act(s, take(s, building=1))
    assert stage(s) == (0, 8, "card", 3) and options(s) == [use(s), skip(s)]
    s = act(s, use(s))
    assert player(s, 0)["coins"] == 4
    s = game(2, cards={0: order, 1: INERT}, row=[1, 2, 3, 4], p0={"wood": 10})
    s = step(s, {0: (8, order), 1: "pass"})
    s = act(s, skip(s))  # no build before card 10's turn: it can only be skipped
    s = act(s, decline(s))
    assert s["phase"] == "work" and player(s, 0)["coins"] == 0


def test_location_11_turn_order_push_to_front_and_coins():
    s = game(3, cards={0: NOTRACK, 1: NOTRACK, 2: NOTRACK}, p0={"coins": 18}, p1={"coins": 18}, p2={"coins": 18})
    assert E.public(s)["order"] == [0, 1, 2]
    s = step(s, {0: "pass", 1: "pass", 2: 11})
    s = act(s, take(s))
    assert res(s, 2) == (0, 0, 24, 0)
    assert s["track"] == [{"seat": 2, "space": 2}, {"seat": 0, "space": 1}, {"seat": 1, "space": 1}]
    assert E._order(s) == [2, 0, 1]
    s = end_round(s)
    assert E.public(s)["order"] == [2, 0, 1]
    # next round seat 1 also reaches space 2: it becomes the front of that space
    s = step(s, {0: "pass", 1: 11, 2: "pass"})
    s = act(s, take(s))
    assert E._order(s) == [1, 2, 0]
    assert s["track"][:2] == [{"seat": 1, "space": 2}, {"seat": 2, "space": 2}]


@pytest.mark.parametrize("annex", [False, True])
def test_card_14_0_extra_step_and_annex_once(annex):
    order = [9, 8, 14, 15]  # location 11 = bits 1,1,0,1: 14 at position 2 shows its 0-face
    s = game(3, cards={0: NOTRACK, 1: NOTRACK, 2: order}, p2={"built": [5] if annex else []})
    # seats 0 and 1 go ahead to space 2 first (seat 1 in front)
    s["track"] = [{"seat": 1, "space": 2}, {"seat": 0, "space": 2}, {"seat": 2, "space": 1}]
    s = step(s, {0: "pass", 1: "pass", 2: (11, order)})
    assert options(s) == [skip(s), take(s)]  # card 14 needs the move first
    s = act(s, take(s))
    assert stage(s) == (2, 11, "card", 2) and options(s) == [use(s), skip(s)]
    s = act(s, use(s))
    # space 2 (front), then one more to space 3: front of everything
    assert s["track"][0] == {"seat": 2, "space": 3}
    assert res(s, 2) == (0, 0, 6, 1 if annex else 0)


def test_card_14_0_extra_step_pushes_to_the_front_of_an_occupied_space():
    order = [9, 8, 14, 15]
    s = game(3, cards={0: NOTRACK, 1: NOTRACK, 2: order})
    s["track"] = [{"seat": 1, "space": 3}, {"seat": 0, "space": 3}, {"seat": 2, "space": 1}]
    s = step(s, {0: "pass", 1: "pass", 2: (11, order)})
    s = act(s, take(s))
    s = act(s, use(s))
    assert E._order(s) == [2, 1, 0]
    assert s["track"][0] == {"seat": 2, "space": 3}


def test_card_14_1_four_coins_after_turn_order_only():
    order = [14, 8, 9, 15]  # top: 14-1
    s = game(2, cards={0: order, 1: INERT})
    s = step(s, {0: (11, order), 1: "pass"})
    s = act(s, take(s))
    s = act(s, use(s))
    assert player(s, 0)["coins"] == 10
    s = game(2, cards={0: order, 1: INERT})
    s = step(s, {0: (11, order), 1: "pass"})
    s = act(s, skip(s))  # no turn-order action before card 14's turn: it does not fire
    s = act(s, decline(s))
    assert s["phase"] == "work" and player(s, 0)["coins"] == 0


def test_location_12_cancel_plan_returns_face_up_and_gives_6():
    s = game(2, cards={0: INERT, 1: INERT}, row=[1, 2, 3, 4], p0={"plans": [7, 9], "plans_open": [False, True]})
    s = step(s, {0: 12, 1: "pass"})
    assert options(s) == [take(s, building=7), take(s, building=9), decline(s)]
    assert rule_error(s, 0, take(s, building=1)) == "You can only cancel a building you have planned."
    s = act(s, take(s, building=7))
    p = player(s, 0)
    assert p["plans"] == [9] and p["plans_open"] == [True] and s["row"] == [1, 2, 3, 4, 7]
    assert p["coins"] == 6
    assert E.public(s)["row"] == [1, 2, 3, 4, 7]
    # nothing planned: nothing to cancel, and no +6 coins (G-26)
    s = game(2, cards={0: INERT, 1: INERT})
    s = step(s, {0: 12, 1: "pass"})
    assert s["phase"] == "work" and res(s, 0) == (0, 0, 0, 0)


@pytest.mark.parametrize("n,card_pos,gain", [(0, 0, "stone"), (13, 1, "stone"), (15, 0, "wood"), (1, 0, "wood"),
                                             (14, 1, "wood"), (15, 3, "wood")])
def test_card_12_when_the_location_gave_wood_or_stone(n, card_pos, gain):
    side = bits(n)[card_pos]
    order = [8, 9, 14]
    order.insert(card_pos, 12)
    s = game(2, round_=2, cards={0: order, 1: INERT}, p0={"coins": 4})
    s = step(s, {0: (n, order), 1: "pass"})
    before = player(s, 0)[gain]
    s = act(s, take(s, times=1) if n in (13, 14) else take(s))
    mid = player(s, 0)[gain]
    assert options(s) == [use(s), skip(s)], (n, side)
    s = act(s, use(s))
    assert player(s, 0)[gain] == mid + 2 and mid >= before


@pytest.mark.parametrize("n,card_pos", [(1, 1), (4, 0), (2, 0)])
def test_card_12_without_its_gain_does_nothing(n, card_pos):
    # (1, pos 1) is 12-0 after stone only; location 4 gives coins; location 2 gives coins
    order = [8, 9, 14]
    order.insert(card_pos, 12)
    s = game(2, cards={0: order, 1: INERT}, p0={"wood": 4})
    s = step(s, {0: (n, order), 1: "pass"})
    s = act(s, take(s, times=1) if n == 2 else take(s))
    assert s["phase"] == "work"


@pytest.mark.parametrize("then", ["take", "decline"])
def test_card_12_used_before_the_location_waits_for_it(then):
    """Seed ch. 7: effects that start "if this location's effect..." are checked after the location's effect."""
    order = [12, 1, 14, 9]  # location 0: 12-0 (if wood, +2 stone) on top, then 1-0 (+2 wood)
    s = game(2, cards={0: order, 1: INERT})
    s = step(s, {0: (0, order), 1: "pass"})
    assert options(s) == [use(s), skip(s), take(s)]
    s = act(s, use(s))  # held: nothing yet
    assert res(s, 0) == (0, 0, 0, 0) and s["res"]["waiting"] == [0]
    s = act(s, use(s))  # 1-0: +2 wood, still before the location
    assert res(s, 0) == (2, 0, 0, 0)
    if then == "take":
        s = act(s, take(s))  # wood +12, then card 12 is checked: +2 stone
        assert res(s, 0) == (14, 2, 0, 0)
    else:
        s = act(s, decline(s))  # no location effect: card 12 gives nothing
        assert res(s, 0) == (2, 0, 0, 0)
    assert s["phase"] == "work"


def test_location_15_warehouse_bonus_is_a_choice():
    s = game(2, cards={0: INERT, 1: INERT}, p0={"built": [12]})
    s = step(s, {0: 15, 1: "pass"})
    assert options(s) == [take(s, bonus="wood"), take(s, bonus="stone"), decline(s)]
    assert rule_error(s, 0, take(s)) == "Your Warehouse adds 2 wood or 2 stone: choose one."
    s = act(s, take(s, bonus="stone"))
    assert res(s, 0) == (6, 8, 0, 0)


def test_woodworks_and_quarry():
    s = game(2, cards={0: INERT, 1: INERT}, p0={"built": [1]}, p1={"built": [2]})
    s = step(s, {0: 0, 1: 1})
    s = act(s, take(s))
    s = act(s, take(s))
    assert res(s, 0) == (14, 0, 0, 0) and res(s, 1) == (0, 14, 0, 0)
    # the Woodworks does nothing for the Tavern's wood
    s = game(2, cards={0: INERT, 1: INERT}, p0={"built": [1, 2]})
    s = step(s, {0: 15, 1: "pass"})
    s = act(s, take(s))
    assert res(s, 0) == (6, 6, 0, 0)


@pytest.mark.parametrize("n,src", [(2, "wood"), (3, "stone")])
def test_trading_house_once_per_visit(n, src):
    s = game(2, round_=2, cards={0: INERT, 1: INERT}, p0={src: 8, "built": [9]})
    s = step(s, {0: n, 1: "pass"})
    s = act(s, take(s, times=4))
    assert player(s, 0)["coins"] == 16 + 2
    # not at the other conversions
    s = game(2, round_=2, cards={0: INERT, 1: INERT}, p0={"coins": 8, "built": [9]})
    s = step(s, {0: 13, 1: "pass"})
    s = act(s, take(s, times=1))
    assert res(s, 0) == (4, 0, 6, 0)


def test_advertising_tower_adds_1_vp_at_location_5():
    s = game(2, cards={0: INERT, 1: INERT}, p0={"built": [18]}, p1={"coins": 2, "built": [18]})
    s = step(s, {0: 5, 1: 5})
    s = act(s, take(s))
    s = act(s, take(s, pay="coins"))
    assert player(s, 0)["vp"] == 3 and player(s, 1)["vp"] == 3


@pytest.mark.parametrize("bonus", ["wood", "stone"])
def test_artisans_quarter_bonus_on_each_build(bonus):
    s = game(2, cards={0: NOBUILD, 1: INERT}, row=[1, 3, 4, 5], p0={"wood": 10, "built": [11]})
    s = step(s, {0: 8, 1: "pass"})
    assert options(s) == [take(s, building=1, bonus="wood"), take(s, building=1, bonus="stone"), decline(s)]
    assert rule_error(s, 0, take(s, building=1)) == "Your Artisans' Quarter adds 2 wood or 2 stone: choose one."
    s = act(s, take(s, building=1, bonus=bonus))
    assert player(s, 0)[bonus] == 2


# --- plan, build, cancel in one step ------------------------------------------------------------

def test_plans_resolve_first_and_cancels_last_whatever_the_levels():
    s = game(3, cards={0: NOPLAN, 1: NOPLAN, 2: NOPLAN}, row=[1, 2, 3, 4],
             p0={"level": 6, "plans": [7], "plans_open": [True]},
             p1={"level": 5, "wood": 10, "stone": 10},
             p2={"level": 3})
    s = step(s, {0: 12, 1: 8, 2: 9})
    assert [(w["seat"], w["loc"]) for w in s["queue"]] == [(2, 9), (1, 8), (0, 12)]
    # the plan takes Woodworks from the row before seat 1 can build it
    s = act(s, take(s, building=1))
    assert who(s) == 1
    assert options(s) == [take(s, building=2), decline(s)]  # Quarry yes; Woodworks planned, High-Rise not back
    s = act(s, decline(s))
    s = act(s, take(s, building=7))  # cancelled last: the High-Rise goes back to the row face up
    assert s["row"] == [2, 3, 4, 7]


def test_two_planners_in_one_step_take_different_buildings_in_order():
    # G-37: at the same location the first player resolves first and takes its building
    s = game(2, cards={0: NOPLAN, 1: NOPLAN}, row=[1, 2], deck=[3], p0={"wood": 2}, p1={"level": 4})
    s = step(s, {0: 9, 1: 9})
    assert [(w["seat"], w["first"]) for w in s["queue"]] == [(1, True), (0, False)]
    s = act(s, take(s, building=2))
    assert options(s) == [take(s, building=1, pay="wood"), take(s, building="deck", pay="wood"), decline(s)]
    s = act(s, take(s, building="deck", pay="wood"))
    assert player(s, 0)["plans"] == [3] and player(s, 1)["plans"] == [2] and s["row"] == [1]
    assert res(s, 0) == (0, 0, 6, 0) and res(s, 1) == (0, 0, 6, 0)


def test_resolution_order_otherwise_level_then_track():
    s = game(4, cards={i: QUIET for i in range(4)}, seats=[3, 2, 1, 0], p0={"level": 5})
    s = step(s, {0: 0, 1: 1, 2: 4, 3: 15})
    assert [w["seat"] for w in s["queue"]] == [0, 3, 2, 1]


# --- the order inside a worker: cards in stack order, the location's effect at any point (seed 6-2-4 A, ch. 7) ---

def test_a_card_gain_can_pay_for_the_build():
    order = [1, 9, 14, 15]  # location 8 = bits 0,0,0,1: 1-0 (+2 wood) on top, the rest do nothing here
    s = game(2, cards={0: order, 1: INERT}, row=[1, 3, 4, 5], p0={"wood": 8})
    s = step(s, {0: (8, order), 1: "pass"})
    assert options(s) == [use(s), skip(s)]  # Woodworks costs 10 wood: not yet
    s = act(s, use(s))
    assert options(s) == [take(s, building=1), decline(s)]
    s = act(s, take(s, building=1))
    assert player(s, 0)["built"] == [1] and res(s, 0) == (0, 0, 0, 2)


def test_a_card_gain_can_pay_for_the_level_up_and_the_hire():
    order = [3, 9, 14, 15]  # location 6 = bits 0,1,1,0: 3-0 (4 coins → 4 wood) on top
    s = game(2, cards={0: order, 1: INERT}, p0={"stone": 4, "coins": 8})
    s = step(s, {0: (6, order), 1: "pass"})
    s = act(s, use(s))
    s = act(s, take(s))
    assert player(s, 0)["level"] == 4 and res(s, 0) == (0, 0, 0, 0)
    order = [3, 9, 14, 15]  # location 7 = bits 1,1,1,0: 3-1 (+2 coins) on top
    s = game(2, cards={0: order, 1: INERT}, p0={"coins": 2, "level": 4})
    s = step(s, {0: (7, order), 1: "pass"})
    assert options(s) == [use(s), skip(s)]
    s = act(s, use(s))
    s = act(s, take(s))
    assert player(s, 0)["hired"] == 4 and player(s, 0)["coins"] == 0


def test_a_card_gain_can_pay_the_follower_cost():
    s = game(2, cards={0: INERT, 1: [1, 9, 14, 15]})  # location 4 = bits 0,0,1,0: 1-0 (+2 wood) on top
    s = step(s, {0: 4, 1: (4, [1, 9, 14, 15])})
    s = act(s, take(s))
    assert who(s) == 1 and options(s) == [use(s), skip(s)]  # nothing to pay the 2 with yet
    s = act(s, use(s))
    assert options(s) == [take(s, pay="wood"), decline(s)]
    s = act(s, take(s, pay="wood"))
    assert res(s, 1) == (0, 0, 12, 0)


def test_the_location_can_come_between_two_cards():
    order = [2, 5, 1, 16]  # location 0: 2-0 +2 stone, 5-0 6 wood → 1 VP, 1-0 +2 wood, 16-0 4 wood + 2 stone → 1 VP
    s = game(2, cards={0: order, 1: INERT})
    s = step(s, {0: (0, order), 1: "pass"})
    assert options(s) == [use(s), skip(s), take(s)]
    s = act(s, use(s))
    assert options(s) == [skip(s), take(s)]  # card 5 needs 6 wood: take the location first
    s = act(s, take(s))
    assert options(s) == [use(s), skip(s)]  # the location is done: only the cards are left
    for _ in range(3):
        s = act(s, use(s))
    assert res(s, 0) == (12 - 6 + 2 - 4, 2 - 2, 0, 2) and s["phase"] == "work"


def test_the_location_can_come_after_the_last_card():
    order = [1, 2, 3, 4]  # location 0: all 0-sides
    s = game(2, cards={0: order, 1: INERT}, p0={"coins": 8})
    s = step(s, {0: (0, order), 1: "pass"})
    for _ in range(4):
        s = act(s, use(s))
    assert res(s, 0) == (2 + 4, 2 + 4, 0, 0)
    assert options(s) == [take(s), decline(s)]
    s = act(s, take(s))
    assert res(s, 0) == (18, 6, 0, 0) and s["phase"] == "work"


# --- turn order: each round uses the track as the previous round left it (seed 4-4) ---------------------

def test_each_round_plays_in_the_order_the_track_had_at_the_end_of_the_last_one():
    s = game(2, cards={0: INERT, 1: NOTRACK}, p0={"coins": 2}, p1={"coins": 2})
    assert E.public(s)["order"] == [0, 1]
    s = step(s, {0: 0, 1: 11})
    s = act(s, take(s))
    s = act(s, take(s))  # seat 1 moves to space 2, in front
    assert E._order(s) == [1, 0]
    # still round 1: its order stays, so seat 0 is first at a shared location
    s = step(s, {0: 4, 1: 4})
    assert [(w["seat"], w["first"]) for w in s["queue"]] == [(0, True), (1, False)]
    assert E.public(s)["order"] == [0, 1]
    s = skip_all(s)
    s = end_round(s)
    # round 2 starts from the track at the end of round 1: seat 1 is first now (no reset)
    assert s["round"] == 2 and E.public(s)["order"] == [1, 0]


def test_round_2_order_decides_a_shared_location():
    s = game(2, cards={0: INERT, 1: NOTRACK}, p1={"coins": 0})
    s = step(s, {0: "pass", 1: 11})
    s = act(s, take(s))
    s = end_round(s, keep={0: 0, 1: 1})
    s["players"][0].update(hired=3, unhired=4)  # seat 0 back in play for the check
    s = step(s, {0: 4, 1: 4})
    assert [(w["seat"], w["first"]) for w in s["queue"]] == [(1, True), (0, False)]


# --- standalone card faces ---------------------------------------------------------------------------

STANDALONE = [  # card, side, resources before (w, s, c, vp), after
    (1, 0, (0, 0, 0, 0), (2, 0, 0, 0)),
    (1, 1, (4, 0, 0, 0), (0, 0, 4, 0)),
    (2, 0, (0, 0, 0, 0), (0, 2, 0, 0)),
    (2, 1, (0, 4, 0, 0), (0, 0, 4, 0)),
    (3, 0, (0, 0, 4, 0), (4, 0, 0, 0)),
    (3, 1, (0, 0, 0, 0), (0, 0, 2, 0)),
    (4, 0, (0, 0, 4, 0), (0, 4, 0, 0)),
    (4, 1, (0, 0, 0, 0), (0, 0, 2, 0)),
    (5, 0, (6, 0, 0, 0), (0, 0, 0, 1)),
    (5, 1, (0, 0, 0, 1), (4, 0, 0, 0)),
    (6, 0, (0, 6, 0, 0), (0, 0, 0, 1)),
    (6, 1, (0, 0, 0, 1), (0, 4, 0, 0)),
    (7, 0, (0, 0, 6, 0), (0, 0, 0, 1)),
    (7, 1, (0, 0, 0, 1), (0, 0, 4, 0)),
    (13, 0, (0, 0, 4, 0), (2, 2, 0, 0)),
    (13, 1, (2, 2, 0, 0), (0, 0, 4, 0)),
    (16, 0, (4, 2, 0, 0), (0, 0, 0, 1)),
    (16, 1, (0, 0, 0, 1), (2, 2, 0, 0)),
]


def _card_on_top(card, side, before):
    """The card on top, first to decide; location 0 (all 0-faces) or 1 (top card 1-face), not taken yet."""
    n = side
    order = [card, 8, 9, 14]
    w, st, c, vp = before
    s = game(2, cards={0: order, 1: INERT}, p0={"wood": w, "stone": st, "coins": c, "vp": vp})
    return step(s, {0: (n, order), 1: "pass"})


@pytest.mark.parametrize("card,side,before,after", STANDALONE)
def test_standalone_card_faces(card, side, before, after):
    s = _card_on_top(card, side, before)
    assert stage(s) == (0, side, "card", 0) and options(s) == [use(s), skip(s), take(s)]
    s = act(s, use(s))
    assert res(s, 0) == after
    s = act(s, decline(s))  # only the card changes anything
    assert res(s, 0) == after and s["phase"] == "work"


@pytest.mark.parametrize("card,side,before,after", [x for x in STANDALONE if x[2] != (0, 0, 0, 0)])
def test_card_conversions_need_the_full_payment(card, side, before, after):
    short = tuple(max(0, v - 2) if v > 1 else 0 for v in before)
    s = _card_on_top(card, side, short)
    assert options(s) == [skip(s), take(s)]  # the card cannot be paid now
    msg = rule_error(s, 0, use(s))
    assert msg.startswith("That costs ") and ", and you have " in msg


def test_card_gain_above_the_cap_is_lost_and_conversion_is_still_allowed():
    s = _card_on_top(3, 0, (66, 0, 4, 0))
    s = act(s, use(s))
    assert res(s, 0) == (68, 0, 0, 0)


def test_cards_are_resolved_top_first_after_the_location():
    order = [1, 2, 3, 4]  # location 0: 1-0, 2-0, 3-0, 4-0
    s = game(2, cards={0: order, 1: INERT}, p0={"coins": 8})
    s = step(s, {0: (0, order), 1: "pass"})
    assert stage(s) == (0, 0, "card", 0)
    s = act(s, take(s))
    seen = []
    while s["phase"] == "resolve":
        seen.append(s["queue"][0]["order"][s["res"]["card"]])
        s = act(s, use(s))
    assert seen == [1, 2, 3, 4]
    assert res(s, 0) == (12 + 2 + 4, 2 + 4, 0, 0)


def test_card_15_only_at_city_hall():
    order = [15, 1, 8, 9]
    s = game(2, cards={0: order, 1: INERT})
    s = step(s, {0: (0, order), 1: "pass"})
    assert stage(s) == (0, 0, "card", 1)  # 15-0 passed over by itself at an ordinary location


@pytest.mark.parametrize("side,gain", [(0, "wood"), (1, "stone")])
def test_card_15_at_city_hall(side, gain):
    order = [15, 8, 9, 10]
    s = game(2, cards={0: QUIET, 1: order})
    s = step(s, {0: side, 1: 6})  # seat 0 blocks location `side`; seat 1 cannot level up
    s = act(s, take(s))
    s = step(s, {0: "pass", 1: (side, order)})
    assert stage(s) == (1, CITY_HALL, "card", 0) and options(s) == [use(s), skip(s)]
    s = act(s, use(s))
    assert player(s, 1)[gain] == 2


# --- round end ------------------------------------------------------------------------------------------

def test_upkeep_rounds_1_to_5_players_choose_how_many_to_keep():
    s = game(2, p0={"coins": 20}, p1={"coins": 5})
    s = step(s, {0: "pass", 1: "pass"})
    # seat 1 can pay for nobody (6 coins a worker at level 3): fired by itself
    assert s["phase"] == "upkeep" and E.awaiting(s).seats == {0}
    assert player(s, 1)["hired"] == 0 and player(s, 1)["unhired"] == 7 and player(s, 1)["coins"] == 5
    assert options(s) == [{"type": "upkeep", "keep": k, "pay": 6 * k} for k in (3, 2, 1, 0)]
    assert [str(E.label(a)) for a in options(s)] == ["Keep 3 workers (pay 18 coins)", "Keep 2 workers (pay 12 coins)",
                                                "Keep 1 worker (pay 6 coins)", "Keep 0 workers (pay nothing)"]
    assert rule_error(s, 0, {"type": "upkeep", "keep": 4}) == "Keep between 0 and 3 workers."
    assert rule_error(s, 0, {"type": "upkeep", "keep": 1, "pay": 4}) == "Keeping 1 worker costs 6 coins."
    s = act(s, {"type": "upkeep", "keep": 1, "pay": 6})
    p = player(s, 0)
    assert (p["hired"], p["unhired"], p["coins"]) == (1, 6, 14)
    assert s["round"] == 2 and s["phase"] == "work"


def test_upkeep_uses_the_company_level():
    s = game(2, p0={"coins": 30, "level": 5})
    s = step(s, {0: "pass", 1: "pass"})
    assert options(s) == [{"type": "upkeep", "keep": k, "pay": 10 * k} for k in (3, 2, 1, 0)]
    s = act(s, {"type": "upkeep", "keep": 3, "pay": 30})
    assert player(s, 0)["coins"] == 0


def test_no_upkeep_after_round_6():
    s = game(2, round_=6, p0={"coins": 20})
    s = step(s, {0: "pass", 1: "pass"})
    assert s["phase"] == "over"
    assert player(s, 0)["hired"] == 3 and player(s, 1)["hired"] == 3 and player(s, 0)["coins"] == 20


@pytest.mark.parametrize("round_,hired,gain", [(1, 3, 2), (1, 4, 4), (5, 5, 4), (6, 3, 0)])
def test_inn_rounds_1_to_5(round_, hired, gain):
    s = game(2, round_=round_, p0={"built": [4], "hired": hired, "unhired": 7 - hired, "level": 5},
             p1={"coins": 6})
    s = step(s, {0: "pass", 1: "pass"})
    if round_ < 6:  # seat 0 has too few coins for upkeep at level 5; seat 1 is asked
        assert s["phase"] == "upkeep" and player(s, 0)["coins"] == gain and player(s, 0)["hired"] == 0
    else:
        assert s["phase"] == "over" and s["final"][0]["coins"] == 0


def test_inn_coins_are_counted_before_upkeep():
    s = game(2, p0={"built": [4], "coins": 16})
    s = step(s, {0: "pass", 1: "pass"})
    assert options(s)[0] == {"type": "upkeep", "keep": 3, "pay": 18}  # 16 + 2 = 18 = 3 × 6


@pytest.mark.parametrize("round_", [1, 6])
def test_mint_every_round_including_6(round_):
    s = game(2, round_=round_, p0={"built": [17, 1, 2]})
    s = step(s, {0: "pass", 1: "pass"})
    if round_ == 1:
        assert player(s, 0)["coins"] == 6
    else:
        assert s["final"][0]["coins"] == 6


@pytest.mark.parametrize("round_", [1, 6])
def test_market_every_round_up_to_one_trade_per_building(round_):
    s = game(2, round_=round_, p0={"built": [3, 1], "wood": 4, "stone": 2, "coins": 0})
    s = step(s, {0: "pass", 1: "pass"})
    assert s["phase"] == "market" and E.awaiting(s).seats == {0}
    assert options(s) == [{"type": "market", "wood": w, "stone": st}
                          for w in range(3) for st in range(3 - w) if w <= 2 and st <= 1]
    assert rule_error(s, 0, {"type": "market", "wood": 2, "stone": 1}) == \
        "Your Market may trade once per building you own: 2 at most."
    s = act(s, {"type": "market", "wood": 1, "stone": 1})
    if round_ == 1:
        assert res(s, 0)[:3] == (2, 0, 4)
    else:
        assert s["phase"] == "over" and s["final"][0]["coins"] == 4


def test_market_after_the_automatic_gains():
    # Mint coins come first; the Market is then offered with the new totals
    s = game(2, p0={"built": [3, 17], "wood": 2})
    s = step(s, {0: "pass", 1: "pass"})
    assert player(s, 0)["coins"] == 4 and s["phase"] == "market"


def test_market_with_nothing_to_trade_is_skipped():
    s = game(2, p0={"built": [3]}, p1={"coins": 6})
    s = step(s, {0: "pass", 1: "pass"})
    # no wood or stone to trade: the Market is settled by itself; seat 0 cannot pay upkeep
    assert s["phase"] == "upkeep" and E.awaiting(s).seats == {1} and player(s, 0)["hired"] == 0


@pytest.mark.parametrize("row,deck,after_row,after_deck", [
    ([1, 2], [3, 4, 5, 6, 7, 8], [1, 2, 3, 4, 5, 6], [7, 8]),
    ([1, 2, 3, 4], [5, 6, 7, 8, 9], [1, 2, 3, 4, 5, 6, 7, 8], [9]),  # a full row still gets 4 more
    ([1, 2, 3, 4, 5], [6], [1, 2, 3, 4, 5, 6], []),  # the deck runs short: all it has
    ([1], [], [1], []),
])
def test_build_row_gets_4_new_cards_each_round_end(row, deck, after_row, after_deck):
    """Seed 6-3-4: add 4 face up if the deck has them; if it runs short, carry on."""
    s = game(2, row=row, deck=deck, p0={"coins": 6}, p1={"coins": 6})
    s = end_round(s)
    assert s["round"] == 2 and s["row"] == after_row and s["deck"] == after_deck


def test_residences_round_start_coins_unless_first():
    s = game(2, p0={"built": [15], "coins": 6}, p1={"built": [15], "coins": 6})
    s = end_round(s)
    assert s["round"] == 2
    assert player(s, 0)["coins"] == 0 and player(s, 1)["coins"] == 2  # seat 0 is first


# --- setup and draft ------------------------------------------------------------------------------------

@pytest.mark.parametrize("n,order,coins", [(2, [1, 0], [2, 0]), (3, [2, 0, 1], [2, 4, 0]),
                                           (4, [2, 0, 3, 1], [2, 6, 0, 4])])
def test_catch_up_coins_by_track_position(n, order, coins):
    s = setup_chance(n, seats=order)
    assert [p["coins"] for p in s["players"]] == coins
    assert s["track"] == [{"seat": seat, "space": 1} for seat in order]
    assert s["phase"] == "draft"
    assert s["row"] == [1, 2, 3, 4] and s["deck"] == list(range(5, 19))


def test_setup_chance_is_checked():
    s = E.setup({}, 3)
    assert E.awaiting(s).chance.count == 16
    assert rule_error(s, CHANCE, {"type": "shuffle", "order": list(range(15))}) == \
        "A shuffle orders each of the 16 items once."
    assert rule_error(s, 0, {"type": "pick", "card": 1}) == "It is not your turn."
    with pytest.raises(RuleError, match="takes 2 to 4 players"):
        E.setup({}, 5)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_draft_deals_4_each_picks_pass_left_last_forced(n):
    deal = list(range(16, 0, -1))  # the 4bit deck from card 16 down
    s = setup_chance(n, cards=deal)
    hands = [deal[4 * i:4 * i + 4] for i in range(n)]
    assert s["draft"]["hands"] == hands
    assert E.awaiting(s).seats == set(range(n)) and E.awaiting(s).secret
    assert E.legal(s, 0) == [{"type": "pick", "card": c} for c in hands[0]]
    # pick the first card of each hand; change of mind is allowed until everyone has picked
    s = E.apply(s, 0, {"type": "pick", "card": hands[0][1]})
    s = E.apply(s, 0, {"type": "pick", "card": hands[0][0]})
    for seat in range(1, n):
        s = E.apply(s, seat, {"type": "pick", "card": hands[seat][0]})
    # passed to the left: seat i now holds what seat i-1 left
    assert s["draft"]["hands"] == [hands[(i - 1) % n][1:] for i in range(n)]
    for _ in range(2):
        for seat in range(n):
            s = E.apply(s, seat, {"type": "pick", "card": s["draft"]["hands"][seat][0]})
    assert s["phase"] == "work" and s["round"] == 1 and s["draft"] is None
    cards = [p["cards"] for p in s["players"]]
    assert all(len(c) == 4 for c in cards)
    dealt = sorted(c for h in hands for c in h)
    assert sorted(c for cs in cards for c in cs) == dealt
    # seat 0 got: its own first, then seat n-1's, n-2's and the last of n-3's hand
    assert cards[0] == [hands[0][0], hands[(0 - 1) % n][1], hands[(0 - 2) % n][2], hands[(0 - 3) % n][3]]
    # the undealt cards left the game unseen
    undealt = [c for c in deal if c not in dealt]
    assert len(undealt) == 16 - 4 * n
    pub = json.dumps(E.public(s))
    for c in undealt:
        assert c not in [x for p in E.public(s)["players"] for x in p["cards"]]
    assert "draft_hand" not in pub


def test_draft_pick_must_be_in_hand():
    s = setup_chance(2)
    assert rule_error(s, 0, {"type": "pick", "card": 5}) == "That card is not in the hand you were passed."


def test_draft_picks_are_secret_until_the_draft_ends():
    s = setup_chance(2)
    s1 = E.apply(s, 0, {"type": "pick", "card": 1})
    s2 = E.apply(s, 0, {"type": "pick", "card": 2})
    assert E.public(s1) == E.public(s2) and E.view(s1, 1) == E.view(s2, 1)
    assert E.view(s1, 0)["draft_pick"] == 1
    assert E.public(s1)["players"][0]["cards"] == []


# --- reveals: undo must not cross a reveal --------------------------------------------------------------

def test_a_draft_pass_is_a_reveal():
    """BUG: the draft stays a secret step after hands are passed, so the default
    ``reveals`` says False and the last picker may undo after seeing the new hand."""
    s = setup_chance(2)
    s = E.apply(s, 0, {"type": "pick", "card": 1})
    after = E.apply(s, 1, {"type": "pick", "card": 5})
    assert after["draft"]["turn"] == 1
    assert E.reveals(s, 1, {"type": "pick", "card": 5}, after)


def test_a_step_that_resolves_by_itself_is_still_a_reveal():
    """BUG: a work step whose every resolution is forced goes straight back to the secret
    work step; the stacks were revealed but ``reveals`` says False."""
    s = game(2, cards={0: INERT, 1: INERT})
    s = E.apply(s, 0, {"type": "stack", "n": 6, "order": INERT})  # level up with nothing: no choice
    a = {"type": "stack", "n": 6, "order": INERT}
    after = E.apply(s, 1, a)
    assert after["phase"] == "work" and after["reveal"]["workers"]
    assert E.reveals(s, 1, a, after)


def test_a_normal_reveal_is_a_reveal():
    s = game(2, cards={0: INERT, 1: INERT})
    s = E.apply(s, 0, {"type": "stack", "n": 4, "order": INERT})
    a = {"type": "pass"}
    after = E.apply(s, 1, a)
    assert after["phase"] == "resolve" and E.reveals(s, 1, a, after)


# --- work-step choices ----------------------------------------------------------------------------------

def test_stack_choices_are_secret_and_changeable():
    s = game(2, cards={0: [1, 2, 3, 4], 1: [5, 6, 7, 16]})
    assert E.awaiting(s).secret and E.awaiting(s).seats == {0, 1}
    assert len(E.legal(s, 0)) == 1 + 16 * 24
    s1 = E.apply(s, 0, {"type": "stack", "n": 3, "order": [4, 3, 2, 1]})
    assert E.awaiting(s1).seats == {1} and E.can_act(s1, 0)
    s1 = E.apply(s1, 0, {"type": "pass"})
    assert E.view(s1, 0)["my_choice"] == {"type": "pass"}


def test_stack_refusals():
    s = game(2, cards={0: [1, 2, 3, 4], 1: [5, 6, 7, 16]})
    assert rule_error(s, 0, {"type": "stack", "n": 3, "order": [1, 2, 3, 5]}) == \
        "A stack uses each of your four cards once."
    assert rule_error(s, 0, {"type": "stack", "n": 3, "order": [1, 2, 3]}) == \
        "A stack uses each of your four cards once."
    assert rule_error(s, 0, {"type": "stack", "n": 16, "order": [1, 2, 3, 4]}) == \
        "A stack makes a number from 0 to 15."
    assert rule_error(s, 0, {"type": "stack", "n": True, "order": [1, 2, 3, 4]}) == \
        "The n of a stack move must be a whole number."
    assert rule_error(s, 0, {"type": "pick", "card": 1}) == "That move does not fit this moment of the game."
    assert rule_error(s, 0, {"kind": "pass"}) == "That is not a move this game knows."
    assert rule_error(s, 5, {"type": "pass"}) == "It is not your turn."
    assert rule_error(s, CHANCE, {"type": "shuffle", "order": [0, 1]}) == "No chance draw is due now."


def test_stack_with_a_malformed_order_is_a_rule_error():
    """BUG: ``sorted(order)`` raises TypeError on mixed values instead of a RuleError."""
    s = game(2, cards={0: [1, 2, 3, 4], 1: [5, 6, 7, 16]})
    assert rule_error(s, 0, {"type": "stack", "n": 3, "order": [1, "2", 3, 4]}) == \
        "The order of a stack move must be a list of whole numbers."
    assert rule_error(s, 0, {"type": "stack", "n": 3, "order": [1, None, 3, 4]}) == \
        "The order of a stack move must be a list of whole numbers."


def test_shuffle_with_a_malformed_order_is_a_rule_error():
    """BUG: the same TypeError for a scripted chance shuffle (logs and tests script them)."""
    s = E.setup({}, 2)
    assert rule_error(s, CHANCE, {"type": "shuffle", "order": [0, "1"] + list(range(2, 16))}) == \
        "A shuffle orders each of the 16 items once."


def test_resolution_refusals():
    s = game(2, cards={0: [1, 2, 3, 4], 1: INERT}, p0={"wood": 2})
    s = step(s, {0: 0, 1: "pass"})
    assert rule_error(s, 1, skip(s)) == "It is not your turn."
    assert rule_error(s, 0, {"type": "use", "card": 2, "side": 0}) == "Your next card is card 1, 0-side up."
    assert rule_error(s, 0, {"type": "use", "card": 1}) == "A use move needs its side."
    assert rule_error(s, 0, decline(s)) == \
        "Use or skip your cards first; the location's effect can be skipped after the last."
    assert rule_error(s, 0, {"type": "location", "at": 5}) == "This worker is at 0 Artisans' Square."
    assert rule_error(s, 0, {"type": "city_hall", "gain": "wood"}) == \
        "Use or skip your next card, or take or skip the location's effect."
    s = act(s, take(s))
    assert rule_error(s, 0, take(s)) == "This worker's location effect is already done."
    s = act(s, skip(s))  # 1-0 and 2-0 are asked; 3-0 and 4-0 cannot be paid and pass by themselves
    s = act(s, skip(s))
    assert s["phase"] == "work"
    s = game(2, cards={0: INERT, 1: INERT}, p1={"coins": 2})
    s = step(s, {0: 0, 1: 0})
    s = act(s, take(s))
    assert rule_error(s, 1, take(s)) == \
        "You were not first here: pay 2 wood, 2 stone or 2 coins to use the location."
    assert rule_error(s, 1, take(s, pay="wood")) == "That costs 2 wood, and you have 0 wood."


def test_city_hall_refusals():
    s = game(2, cards={0: INERT, 1: INERT})
    s = step(s, {0: 4, 1: "pass"})
    s = act(s, take(s))
    s = step(s, {0: 4})
    assert stage(s)[2] == "card"  # 15-0 at City Hall is usable
    assert rule_error(s, 0, {"type": "location", "at": CITY_HALL}) == "City Hall has no location effect."
    card = skip(s)
    s = act(s, card)
    city_hall = "At City Hall you gain 2 wood or 2 coins, and may pay 4 coins for a track step."
    assert rule_error(s, 0, {"type": "city_hall", "gain": "stone"}) == city_hall
    assert rule_error(s, 0, card) == city_hall


def test_players_without_unsent_workers_are_passed_automatically():
    s = game(2, cards={0: QUIET, 1: QUIET}, p0={"hired": 1, "unhired": 6})
    s = step(s, {0: 4, 1: 0})
    s = act(s, take(s))
    s = act(s, take(s))
    assert s["phase"] == "work" and E.awaiting(s).seats == {1}  # seat 0 has no worker left
    s = step(s, {1: "pass"})
    assert s["phase"] == "upkeep"  # the round ended: seat 0 may keep its worker for 6 coins


# --- the cap ---------------------------------------------------------------------------------------------

def test_resources_are_capped_at_68_and_vp_is_not():
    s = game(2, round_=6, cards={0: QUIET, 1: QUIET}, p0={"wood": 60, "coins": 68, "vp": 80},
             p1={"coins": 30, "wood": 30})
    s = step(s, {0: 0, 1: 13})
    s = act(s, take(s))
    assert player(s, 0)["wood"] == 68
    s = act(s, take(s, times=12))  # 12 conversions: 24 coins → 48 wood, capped at 68
    assert res(s, 1) == (68, 0, 6, 0)
    s = step(s, {0: 5, 1: "pass"})
    s = act(s, take(s))
    assert player(s, 0)["vp"] == 82


# --- scoring -------------------------------------------------------------------------------------------

def test_track_vp_table():
    assert [track_vp(x) for x in range(1, 16)] == [0, 0, 0, 1, 2, 3, 5, 7, 9, 12, 15, 18, 21, 24, 27]


def _final(n=2, **kw):
    s = game(n, round_=6, **kw)
    s = end_round(s)
    assert s["phase"] == "over" and E.awaiting(s).seats == frozenset() and E.awaiting(s).chance is None
    return s


def test_scoring_workers_times_level_and_track():
    s = game(2, round_=6, p0={"vp": 4, "level": 5, "hired": 4, "unhired": 3}, p1={"vp": 1})
    s["track"] = [{"seat": 1, "space": 13}, {"seat": 0, "space": 4}]
    s = end_round(s)
    assert s["final"][0] == {"vp": 4, "workers": 20, "track": 1, "buildings": 0, "total": 25, "coins": 0, "hired": 4}
    assert s["final"][1] == {"vp": 1, "workers": 9, "track": 21, "buildings": 0, "total": 31, "coins": 0, "hired": 3}
    assert E.scores(s) == [25, 31] and E.ranking(s) == [[1], [0]]
    assert rule_error(s, 0, {"type": "pass"}) == "The game is over."


@pytest.mark.parametrize("built,extra,end", [
    ([6], 3, {}),                                # Plaza: 1 per hired worker (3)
    ([7, 1, 2], 3, {}),                          # High-Rise: 1 per building, itself included
    ([12], 2, {"wood": 4, "stone": 6, "coins": 5}),  # Warehouse: sets of 2/2/2 counted, not spent
    ([13, 1], 3, {}),                            # Academy: 2 buildings + 1
    ([15], 1, {}),                               # Residences: 3 hired // 2
    ([16, 1], 0, {}),                            # City Wall with 2 buildings: nothing
    ([16, 1, 2], 3, {}),                         # City Wall with 3 buildings: 3
    ([14], 3, {"coins": 20}),                    # Chapel: 20 coins -> 3 VP, 2 coins left
    ([1, 2, 5, 8, 9, 10, 11, 18], 0, {}),        # no end-game effect
])
def test_scoring_building_end_effects(built, extra, end):
    s = _final(p0={"built": built, **end})
    line = s["final"][0]
    assert line["buildings"] == extra
    assert line["total"] == 9 + extra
    if 14 in built:
        assert line["coins"] == 2 and player(s, 0)["coins"] == 2
    elif 12 in built:
        assert (player(s, 0)["wood"], player(s, 0)["stone"], player(s, 0)["coins"]) == (4, 6, 5)


def test_scoring_everything_together():
    # seat 0: Plaza, High-Rise, Warehouse, Academy, Residences, City Wall, Chapel = 7 buildings,
    # level 4, 4 hired, vp 10, track space 7, 14 wood / 10 stone / 27 coins
    s = _final(p0={"built": [6, 7, 12, 13, 15, 16, 14], "level": 4, "hired": 4, "unhired": 3, "vp": 10,
                   "wood": 14, "stone": 10, "coins": 27})
    line = s["final"][0]
    # Plaza 4 + High-Rise 7 + Warehouse min(14,10,27)//2 = 5 + Academy 8 + Residences 2 + Wall 3
    # + Chapel 27 // 6 = 4 (3 coins left)
    assert line["buildings"] == 4 + 7 + 5 + 8 + 2 + 3 + 4
    assert line["workers"] == 16 and line["vp"] == 10 and line["track"] == 0
    assert line["total"] == 10 + 16 + 0 + 33 and line["coins"] == 3


def test_ties_broken_by_coins_then_hired_then_shared():
    s = _final(3, p0={"vp": 5, "coins": 4}, p1={"vp": 5, "coins": 2}, p2={"vp": 5, "coins": 4})
    assert E.scores(s) == [14, 14, 14]
    assert E.ranking(s) == [[0, 2], [1]]
    s = _final(3, p0={"vp": 8, "coins": 4, "hired": 2, "unhired": 5}, p1={"vp": 2, "coins": 4},
               p2={"vp": 8, "coins": 4, "hired": 2, "unhired": 5})
    # seats 0 and 2: 8 + 6 = 14; seat 1: 2 + 9 = 11
    assert E.scores(s) == [14, 11, 14] and E.ranking(s) == [[0, 2], [1]]
    s = _final(3, p0={"vp": 5, "coins": 4, "level": 4, "hired": 2, "unhired": 5}, p1={"vp": 6, "coins": 4},
               p2={"vp": 8, "coins": 4, "hired": 2, "unhired": 5, "level": 3})
    # seat 0: 5 + 8 = 13 (2 hired); seat 1: 6 + 9 = 15; seat 2: 8 + 6 = 14
    assert E.scores(s) == [13, 15, 14] and E.ranking(s) == [[1], [2], [0]]
    s = _final(2, p0={"vp": 6, "coins": 4, "hired": 2, "unhired": 5, "level": 3},
               p1={"vp": 3, "coins": 4, "hired": 3})
    # 6 + 6 = 12 against 3 + 9 = 12, coins equal: seat 1 has more hired workers
    assert E.scores(s) == [12, 12] and E.ranking(s) == [[1], [0]]


def test_chapel_conversion_counts_for_the_coin_tie_break():
    s = _final(2, p0={"built": [14], "coins": 13, "vp": 0}, p1={"vp": 2, "coins": 2})
    # seat 0: 9 + 2 (12 coins) = 11, 1 coin left; seat 1: 2 + 9 = 11 with 2 coins
    assert E.scores(s) == [11, 11] and E.ranking(s) == [[1], [0]]
