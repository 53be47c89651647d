"""I'm the Boss! rules, one scenario at a time (the rulings of the boss spec, numbered there):
setup by player count, a turn, deal requirements and offers, every influence card, closing and
payout, the end of the game, money privacy, the variants and the RuleError sentences.

Most scenarios are a 3-player game (investors: seat 0 red and blue, seat 1 yellow and pink,
seat 2 orange and green) or a 6-player game (seat i holds the i-th family of red, blue, yellow,
pink, orange, green), with the hands emptied and then set card by card. Space 0 needs red and
green and pays 2 shares; space 3 needs pink and 2 of red/orange/green and pays 3 shares."""
from __future__ import annotations

import json
from collections import Counter

import pytest

from engines.base import CHANCE, Awaiting, RuleError
from engines.boss import DECK, event_text
from engines.boss.board import FAMILIES
from tests.boss_helpers import (
    E,
    accept,
    act,
    cards_total,
    clear_hands,
    close,
    cover,
    deal_on,
    empty_deck,
    expire,
    fail,
    give,
    hand,
    investors_of,
    join,
    needed,
    offer,
    own,
    roll,
    rule_error,
    setup_chance,
    shuffle,
    started,
    tiles_done,
    top_deck,
)

DEAL = {"type": "deal"}
ROLL = {"type": "roll"}
DRAW = {"type": "draw"}
DECLARE = {"type": "declare"}
FAIL = {"type": "fail"}
PASS = {"type": "pass"}
STOP = {"type": "stop"}
STOP_SENTENCE = ("A stop answers only the travel, boss card or hire set another player played last, "
                 "before any other player moves.")


def lay(family: str) -> dict:
    return {"type": "lay", "family": family}


def travel(colour: str, family: str | None = None, laid: int | None = None) -> dict:
    return {"type": "travel", "card": colour, **({"family": family} if laid is None else {"laid": laid})}


def hire(family: str) -> dict:
    return {"type": "hire", "family": family}


def boss_card(restart: bool) -> dict:
    return {"type": "boss", "restart": restart}


def discard(card: str) -> dict:
    return {"type": "discard", "card": card}


def offered(seat: int, family: str, source: object = "investor", **price: int) -> dict:
    """An open offer as the deal keeps it."""
    return {"seat": seat, "family": family, "source": source, "price": price}


def agreement(seat: int, family: str, source: object = "investor", boss: int = 0, **price: int) -> dict:
    """An agreement as the deal keeps it: who joins with what, at what price, with which boss (seat 0 opens)."""
    return {"seat": seat, "family": family, "source": source, "price": price, "boss": boss}


def green_deal(n: int = 3, options: dict | None = None) -> dict:
    """Seat 0 (holding red) opens a deal on space 0 (red + green, 2 shares x $2M), all hands empty."""
    return deal_on(clear_hands(started(n, options)), 0)


def draw_turn(s: dict, die: int = 1) -> dict:
    """The turn player rolls (die scripted) and draws."""
    seat = s["turn"]
    return E.apply(roll(E.apply(s, seat, ROLL), die), seat, DRAW)


# --- setup (rulings 2, 3) ---------------------------------------------------------------------------


@pytest.mark.parametrize("n,per,beside", [(2, 3, 0), (3, 2, 0), (4, 1, 2), (5, 1, 1), (6, 1, 0)])
def test_setup_investors_by_player_count(n, per, beside):
    s = setup_chance(n)
    for seat in range(n):
        assert investors_of(s, seat) == list(FAMILIES[seat * per:(seat + 1) * per])
    assert investors_of(s, None) == list(FAMILIES[n * per:])
    assert len(investors_of(s, None)) == beside


def test_setup_investors_are_dealt_by_the_shuffle():
    s = setup_chance(3, investors_order=[5, 4, 3, 2, 1, 0])
    assert s["owners"] == {"green": 0, "orange": 0, "pink": 1, "yellow": 1, "blue": 2, "red": 2}
    s = setup_chance(4, investors_order=[2, 0, 5, 1, 3, 4])
    assert s["owners"] == {"yellow": 0, "red": 1, "green": 2, "blue": 3, "pink": None, "orange": None}


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_setup_five_cards_each_from_the_shuffled_deck_and_no_money(n):
    order = list(reversed(range(len(DECK))))
    s = setup_chance(n, deck_order=order)
    deck = [DECK[i] for i in order]
    assert [sum(h.values()) for h in s["hands"]] == [5] * n
    assert sum((Counter(h) for h in s["hands"]), Counter()) == Counter(deck[:5 * n])
    assert s["deck"] == deck[5 * n:] and s["discard"] == []
    assert s["cash"] == [0] * n
    assert E.public(s)["cash_band"] == ["no money"] * n
    assert cards_total(s) == len(DECK) == 98


def test_setup_waits_for_the_deck_shuffle_then_the_investor_shuffle():
    s = E.setup({}, 4)
    aw = E.awaiting(s)
    assert aw.chance is not None and (aw.chance.kind, aw.chance.count) == ("shuffle", 98) and not aw.seats
    assert rule_error(s, 0, DEAL) == "It is not your turn."
    assert rule_error(s, CHANCE, {"type": "shuffle", "order": list(range(97))}) == \
        "A shuffle orders each of the 98 items once."
    s = shuffle(s, range(98))
    aw = E.awaiting(s)
    assert aw.chance is not None and (aw.chance.kind, aw.chance.count) == ("shuffle", 6)
    assert rule_error(s, CHANCE, {"type": "shuffle", "order": [0, 0, 1, 2, 3, 4]}) == \
        "A shuffle orders each of the 6 items once."


def test_setup_tiles_stacked_1_to_15_and_no_space_covered():
    s = started(3)
    assert [t["number"] for t in s["stack"]] == list(range(1, 16))
    assert all(sp["tile"] is None for sp in s["spaces"]) and s["deals_done"] == 0
    assert E.public(s)["top"] == {"number": 1, "value": 2000, "end": []}
    assert E.public(s)["tiles_left"] == 15


def test_setup_short_variant_has_no_tiles_3_6_9():
    s = started(3, {"short": True})
    assert [t["number"] for t in s["stack"]] == [1, 2, 4, 5, 7, 8, 10, 11, 12, 13, 14, 15]


@pytest.mark.parametrize("n", [2, 3, 6])
def test_setup_marker_is_placed_by_seat_n_minus_1_then_seat_0_begins(n):
    s = setup_chance(n)
    assert s["phase"] == "place" and s["marker"] is None
    assert E.awaiting(s).seats == {n - 1}
    assert rule_error(s, 0, {"type": "place", "space": 3}) == "It is not your turn."
    assert rule_error(s, n - 1, {"type": "place", "space": 16}) == "Choose a space from 1 to 16."
    assert E.legal(s, n - 1) == [{"type": "place", "space": i} for i in range(16)]
    s = E.apply(s, n - 1, {"type": "place", "space": 7})
    assert s["marker"] == 7 and s["phase"] == "turn" and E.awaiting(s).seats == {0}


@pytest.mark.parametrize("n", [1, 7])
def test_setup_refuses_other_player_counts(n):
    with pytest.raises(RuleError) as e:
        E.setup({}, n)
    assert str(e.value) == "I'm the Boss! takes 2 to 6 players."


def test_setup_two_players_always_use_the_two_player_rules():
    assert E.setup({}, 2)["opts"]["two_player"] is True
    assert E.setup({}, 3)["opts"]["two_player"] is False
    assert E.setup({"two_player": True}, 3)["opts"]["two_player"] is True


# --- a turn (rulings 4, 15) -------------------------------------------------------------------------


def test_turn_deal_at_the_marker_or_roll():
    s = started(3, marker=5)
    assert E.legal(s, 0) == [DEAL, ROLL]
    assert rule_error(s, 1, DEAL) == "It is not your turn."
    assert rule_error(s, 0, DRAW) == "That move is not possible now."
    d = E.apply(s, 0, DEAL)
    assert d["phase"] == "deal"
    assert {k: d["deal"][k] for k in ("space", "boss", "stage", "tile", "value", "payout")} == \
        {"space": 5, "boss": 0, "stage": "open", "tile": 1, "value": 2000, "payout": 4000}


def test_roll_moves_the_marker_clockwise_skipping_covered_spaces():
    s = cover(started(3, marker=0), 1, 2)
    s = E.apply(s, 0, ROLL)
    aw = E.awaiting(s)
    assert aw.chance is not None and (aw.chance.kind, aw.chance.count) == ("dice", 1)
    assert rule_error(s, CHANCE, {"type": "dice", "values": [7]}) == "A roll is one die showing 1 to 6."
    s = roll(s, 3)
    assert s["marker"] == 5 and s["phase"] == "after_roll" and s["last_roll"] == 3


def test_roll_wraps_around_the_board_past_covered_spaces():
    s = cover(started(3, marker=14), 15, 0)
    s = roll(E.apply(s, 0, ROLL), 2)
    assert s["marker"] == 2


def test_after_the_roll_deal_on_the_new_space_or_draw_three():
    s = roll(E.apply(started(3), 0, ROLL), 4)
    assert s["marker"] == 4
    assert E.legal(s, 0) == [DEAL, DRAW]
    assert rule_error(s, 0, ROLL) == "That move is not possible now."
    assert E.apply(s, 0, DEAL)["deal"]["space"] == 4
    before, top = hand(s, 0), s["deck"][:3]
    after = E.apply(s, 0, DRAW)
    assert Counter(hand(after, 0)) == Counter(before) + Counter(top)
    assert after["deck"] == s["deck"][3:]
    assert after["phase"] == "turn" and after["turn"] == 1
    assert event_text(after["events"][-1]) == "[0] draws 3 cards."


def test_hand_limit_12_discard_down_one_card_at_a_time():
    s = give(started(3), 0, hire=2, stop=9)
    top_deck(s, "boss", "boss", "boss")
    s = draw_turn(s)
    assert s["phase"] == "limit" and E.awaiting(s).seats == {0}
    assert E.legal(s, 0) == [discard("boss"), discard("hire"), discard("stop")]  # two hire cards are no set
    assert rule_error(s, 1, discard("family.red")) == "It is not your turn."
    assert rule_error(s, 0, discard("family.red")) == "You do not hold that card."
    assert rule_error(s, 0, {"type": "discard", "card": ["stop"]}) == "The card of a discard move must be a name."
    assert rule_error(s, 0, ROLL) == "Discard down to 12 cards first (or play a set of three hire cards)."
    s = E.apply(s, 0, discard("boss"))
    assert s["phase"] == "limit" and sum(hand(s, 0).values()) == 13
    assert event_text(s["events"][-1]) == "[0] discards a card."  # face down: the card is not named
    s = E.apply(s, 0, discard("stop"))
    assert s["phase"] == "turn" and s["turn"] == 1
    assert hand(s, 0) == {"boss": 2, "hire": 2, "stop": 8}
    assert s["discard"] == ["boss", "stop"]


def test_hand_limit_a_hire_set_may_come_first_and_takes_from_beside_the_board():
    s = give(started(4), 0, hire=3, stop=9)
    top_deck(s, "boss", "boss", "boss")
    s = draw_turn(s)
    assert s["phase"] == "limit"
    assert [a for a in E.legal(s, 0) if a["type"] == "hire"] == [hire("orange"), hire("green")]
    assert rule_error(s, 0, hire("blue")) == \
        "While investors are left beside the board, a hire must take one of them."
    s = E.apply(s, 0, hire("green"))
    assert s["owners"]["green"] == 0
    assert hand(s, 0) == {"boss": 3, "stop": 9}
    assert s["discard"] == ["hire"] * 3
    assert s["phase"] == "turn" and s["turn"] == 1


def test_hire_set_outside_a_deal_only_when_over_the_hand_limit():
    s = give(started(4), 0, hire=3)
    assert rule_error(s, 0, hire("green")) == "That move is not possible now."


def test_draw_from_an_empty_deck_reshuffles_the_discards():
    s = give(started(3), 0)
    empty_deck(s)
    top_deck(s, "boss")  # one card left in the deck
    pile = list(s["discard"])
    s = draw_turn(s)
    assert s["phase"] == "reshuffle" and hand(s, 0) == {"boss": 1}
    aw = E.awaiting(s)
    assert aw.chance is not None and (aw.chance.kind, aw.chance.count) == ("shuffle", len(pile))
    order = list(reversed(range(len(pile))))
    s = shuffle(s, order)
    new_deck = [pile[i] for i in order]
    assert Counter(hand(s, 0)) == Counter(["boss", *new_deck[:2]])
    assert s["deck"] == new_deck[2:] and s["discard"] == []
    assert s["phase"] == "turn" and s["turn"] == 1
    assert cards_total(s) == 98


# --- deal requirements and offers (rulings 5, 6, 8, 13) ---------------------------------------------


def test_deal_needs_every_must_family_and_the_boss_investor_counts():
    s = green_deal()
    assert needed(s) == ["green"]
    assert E.public(s)["deal"]["covered"] == ["red"]
    assert DECLARE not in E.legal(s, 0)
    assert rule_error(s, 0, DECLARE) == "The deal still needs green."


def test_deal_needs_the_must_families_plus_n_more_from_the_set():
    s = clear_hands(started(6))
    own(s, red=1)  # the boss (seat 0) holds no investor
    s = deal_on(s, 3)  # pink + 2 of red/orange/green
    assert needed(s) == ["red", "pink", "orange", "green"]
    s = join(s, 4, "orange", money=1)
    assert needed(s) == ["red", "pink", "green"]
    s = join(s, 1, "red", money=1)
    assert needed(s) == ["pink"]  # two of red/orange/green are in: green is no longer needed
    assert rule_error(s, 5, {"type": "offer", "family": "green", "shares": 1}) == \
        "The deal does not need green any more."
    s = join(s, 3, "pink", money=1)
    assert needed(s) == []
    assert DECLARE in E.legal(s, 0)


def test_deal_the_boss_laid_family_card_counts_and_is_used():
    s = clear_hands(started(3))
    give(s, 0, family_green=1)
    s = deal_on(s, 0)
    s = act(s, 0, lay("green"))
    assert needed(s) == [] and E.public(s)["deal"]["covered"] == ["red", "green"]
    s = close(s)
    assert s["cash"] == [4000, 0, 0]
    assert hand(s, 0) == {} and s["discard"] == ["family.green"]


def test_boss_lays_only_families_the_deal_still_needs():
    s = clear_hands(started(3))
    give(s, 0, family_red=1, family_green=1)
    s = deal_on(s, 0)
    assert [a for a in E.legal(s, 0) if a["type"] == "lay"] == [lay("green")]
    assert rule_error(s, 0, lay("red")) == "The deal does not need red any more."


def test_other_players_lay_any_listed_family_once_each():
    s = clear_hands(started(3))
    give(s, 1, family_red=2, family_blue=1, family_green=1)
    s = deal_on(s, 0)
    assert [a for a in E.legal(s, 1) if a["type"] == "lay"] == [lay("red"), lay("green")]
    assert rule_error(s, 1, lay("blue")) == "This deal does not need that family."
    s = act(s, 1, lay("red"))  # red is covered by the boss, but a non-boss may still lay it
    assert s["deal"]["laid"] == [{"id": 1, "family": "red", "owner": 1}]
    assert rule_error(s, 1, lay("red")) == "You already have a red family card on the table."


def test_offer_by_the_investor_holder_and_accept():
    s = green_deal()
    assert [a for a in E.legal(s, 2) if a["type"] == "offer"] == \
        [{"type": "offer", "family": "green", "shares": k} for k in (1, 2)] + \
        [{"type": "offer", "family": "green", "money": m} for m in (0, 1, 2, 3, 4)]
    s = offer(s, 2, "green", shares=1)
    assert s["deal"]["offers"] == [offered(2, "green", shares=1)]
    assert {"type": "accept", "seat": 2, "family": "green", "shares": 1} in E.legal(s, 0), "it names its terms"
    s = accept(s, 2, "green")
    assert s["deal"]["offers"] == [] and s["deal"]["agreements"] == [agreement(2, "green", shares=1)]
    assert needed(s) == []


def test_offer_by_a_family_card_layer():
    s = clear_hands(started(3))
    give(s, 1, family_green=1)
    s = deal_on(s, 0)
    assert rule_error(s, 1, {"type": "offer", "family": "green", "money": 1}) == \
        "You need the green investor or a green family card laid on the table to join for it."
    s = act(s, 1, lay("green"))
    s = offer(s, 1, "green", money=2)
    assert s["deal"]["offers"] == [offered(1, "green", 1, money=2)]


def test_refuse_drops_the_offer():
    s = offer(green_deal(), 2, "green", shares=2)
    s = E.apply(s, 0, {"type": "refuse", "seat": 2, "family": "green"})
    assert s["deal"]["offers"] == [] and s["deal"]["agreements"] == [] and needed(s) == ["green"]
    assert rule_error(s, 0, {"type": "refuse", "seat": 2, "family": "green"}) == "There is no such offer."


def test_a_new_offer_replaces_the_old_one_and_an_offer_can_be_withdrawn():
    s = offer(green_deal(), 2, "green", shares=2)
    s = offer(s, 2, "green", money=1)
    assert s["deal"]["offers"] == [offered(2, "green", money=1)]
    assert {"type": "withdraw", "family": "green"} in E.legal(s, 2)
    s = E.apply(s, 2, {"type": "withdraw", "family": "green"})
    assert s["deal"]["offers"] == []
    assert rule_error(s, 2, {"type": "withdraw", "family": "green"}) == "You have no open offer for that family."


def test_accept_only_while_the_family_is_still_needed():
    s = clear_hands(started(3))
    give(s, 1, family_green=1)
    s = deal_on(s, 0)
    s = act(s, 1, lay("green"))
    s = offer(offer(s, 1, "green", shares=1), 2, "green", shares=1)
    s = accept(s, 2, "green")
    assert {"type": "accept", "seat": 1, "family": "green"} not in E.legal(s, 0)
    assert {"type": "refuse", "seat": 1, "family": "green"} in E.legal(s, 0)
    assert rule_error(s, 0, {"type": "accept", "seat": 1, "family": "green"}) == \
        "The deal does not need green any more."


def test_promises_cannot_exceed_the_payout():
    s = clear_hands(started(6))
    own(s, red=1)
    s = deal_on(s, 3)  # 3 shares x $2M = $6M
    s = offer(s, 1, "red", shares=2)
    s = offer(s, 3, "pink", money=2)
    s = offer(s, 4, "orange", shares=1)
    s = accept(accept(s, 1, "red"), 3, "pink")  # $4M + $2M: exactly the payout
    assert E.public(s)["deal"]["promised"] == 6000
    assert {"type": "accept", "seat": 4, "family": "orange"} not in E.legal(s, 0)
    assert rule_error(s, 0, {"type": "accept", "seat": 4, "family": "orange"}) == \
        "You would promise more than the deal pays ($6M)."


@pytest.mark.parametrize("price", [{"shares": 3}, {"shares": 0}, {"money": 5}, {"money": -1},
                                   {"shares": 1, "money": 1}, {}])
def test_a_price_is_whole_shares_or_millions_within_the_payout(price):
    s = green_deal()
    assert rule_error(s, 2, {"type": "offer", "family": "green", **price}) == \
        "A price is 1 to 2 shares, or nothing to $4M in whole millions; only the deal's payout can pay it."


def test_joining_for_nothing_is_a_price():
    """Ruling: a player may join for free (to help the boss, or to be paid under paid_if_played elsewhere)."""
    s = green_deal()
    s = act(s, 2, {"type": "offer", "family": "green", "money": 0})
    assert s["deal"]["offers"] == [offered(2, "green", money=0)]
    assert str(E.label({"type": "offer", "family": "green", "money": 0})) == "Offer green for nothing (free)"
    s = act(s, 0, {"type": "accept", "seat": 2, "family": "green"})
    assert s["deal"]["agreements"] == [agreement(2, "green", money=0)] and E.public(s)["deal"]["promised"] == 0


def test_offer_for_a_family_not_needed_or_not_in_the_deal():
    s = green_deal()
    assert rule_error(s, 2, {"type": "offer", "family": "orange", "shares": 1}) == \
        "This deal does not need that family."
    s = clear_hands(started(3))
    own(s, red=2)
    s = deal_on(s, 0)
    s = join(s, 2, "green", shares=1)
    assert rule_error(s, 2, {"type": "offer", "family": "green", "shares": 1}) == \
        "The deal does not need green any more."


# --- travel cards (rulings 7, 10) ---------------------------------------------------------------


def test_travel_on_an_investor_lapses_its_agreement_and_it_stays_away_until_the_deal_ends():
    s = clear_hands(started(3))
    give(s, 1, travel_green=1, travel_grey=1)
    s = join(deal_on(s, 0), 2, "green", shares=1)
    assert needed(s) == []
    s = act(s, 1, travel("green", "green"))
    d = s["deal"]
    assert d["away"] == ["green"] and d["agreements"] == [] and d["played"] == ["travel.green"]
    assert needed(s) == ["green"]
    assert rule_error(s, 2, {"type": "offer", "family": "green", "shares": 1}) == \
        "You need the green investor or a green family card laid on the table to join for it."
    assert rule_error(s, 1, travel("grey", "green")) == "The green investor is not at the table."
    s = fail(s)
    assert "travel.green" in s["discard"]
    s = deal_on(s, 0)  # the next deal: green is back at the table
    assert s["deal"]["away"] == [] and s["owners"]["green"] == 2
    assert "green" in needed(s) and {"type": "offer", "family": "green", "shares": 1} in E.legal(s, 2)


def test_travel_lapses_an_open_offer_too():
    s = clear_hands(started(3))
    give(s, 1, travel_grey=1)
    s = offer(deal_on(s, 0), 2, "green", money=1)
    s = act(s, 1, travel("grey", "green"))
    assert s["deal"]["offers"] == []


def test_travel_on_the_boss_investor_makes_the_deal_need_it():
    s = clear_hands(started(3))
    give(s, 1, travel_red=1)
    s = deal_on(s, 0)
    s = act(s, 1, travel("red", "red"))
    assert needed(s) == ["red", "green"]


def test_travel_on_a_laid_family_card_discards_both_at_once():
    s = clear_hands(started(3))
    give(s, 1, family_green=1)
    give(s, 2, travel_grey=1)
    s = deal_on(s, 0)
    s = join(act(s, 1, lay("green")), 1, "green", shares=1)
    assert s["deal"]["agreements"] == [agreement(1, "green", 1, shares=1)]
    s = act(s, 2, travel("grey", laid=1))
    d = s["deal"]
    assert d["laid"] == [] and d["agreements"] == [] and d["played"] == []
    assert s["discard"] == ["travel.grey", "family.green"]
    assert needed(s) == ["green"] and cards_total(s) == 98


def test_travel_colour_rules_grey_any_coloured_only_its_family():
    s = clear_hands(started(3))
    give(s, 1, travel_red=1, travel_green=1, travel_grey=1)
    give(s, 2, family_red=1)
    s = deal_on(s, 0)
    s = act(s, 2, lay("red"))
    assert [a for a in E.legal(s, 1) if a["type"] == "travel"] == [
        travel("red", "red"), travel("red", laid=1),
        travel("green", "green"),
        travel("grey", "red"), travel("grey", "green"), travel("grey", laid=1)]
    assert rule_error(s, 1, travel("red", "green")) == "A red travel card cannot send green away."
    assert rule_error(s, 1, travel("green", laid=1)) == "A green travel card cannot send red away."
    assert rule_error(s, 1, travel("purple", "green")) == "There is no such travel card."
    assert rule_error(s, 1, travel("grey", laid=9)) == "That family card is not on the table."
    assert rule_error(s, 1, travel("grey", "blue")) == "Send on travel only an investor this deal needs."
    assert act(s, 1, travel("grey", "green"))["deal"]["away"] == ["green"]
    assert act(s, 1, travel("green", "green"))["deal"]["away"] == ["green"]


def test_travel_not_on_your_own_investor_or_card_nor_one_beside_the_board():
    s = clear_hands(started(4))  # green lies beside the board
    give(s, 0, travel_red=1, family_green=1)
    give(s, 1, travel_green=1, family_red=1)
    s = deal_on(s, 0)
    assert rule_error(s, 1, travel("green", "green")) == "The green investor is not at the table."
    assert rule_error(s, 0, travel("red", "red")) == \
        "Only the 2-player rules let you send your own investor on travel."
    s = act(s, 1, lay("red"))
    assert rule_error(s, 1, travel("green", laid=1)) == "A green travel card cannot send red away."
    give(s, 1, travel_red=1)
    assert rule_error(s, 1, travel("red", laid=1)) == "You cannot send your own card on travel."
    assert travel("red", laid=1) in E.legal(s, 0)  # the boss may send another player's card away


def test_travel_needs_the_card_in_hand():
    s = green_deal()
    assert rule_error(s, 1, travel("grey", "green")) == "You do not hold a grey travel card."


# --- stop cards (ruling 12) -------------------------------------------------------------------------


def test_stop_on_a_travel_brings_the_agreement_back():
    s = clear_hands(started(3))
    give(s, 1, travel_green=1, stop=1)
    give(s, 2, stop=1)
    s = join(deal_on(s, 0), 2, "green", shares=1)
    s = act(s, 1, travel("green", "green"))
    assert any(m["type"] == "stop" for m in E.legal(s, 2)) and not any(m["type"] == "stop" for m in E.legal(s, 1))
    assert rule_error(s, 1, STOP) == STOP_SENTENCE  # not your own card
    s = act(s, 2, STOP)
    d = s["deal"]
    assert d["away"] == [] and d["agreements"] == [agreement(2, "green", shares=1)]
    assert d["played"] == ["travel.green", "stop"] and d["stoppable"] is None
    assert hand(s, 2) == {} and needed(s) == []
    assert json.loads(json.dumps(s)) == s
    s = close(s)  # played cards are discarded with the deal
    assert s["discard"] == ["travel.green", "stop"] and s["cash"] == [2000, 0, 2000]


def test_stop_on_a_travel_on_a_laid_card_puts_the_card_back():
    s = clear_hands(started(3))
    give(s, 1, family_green=1, stop=1)
    give(s, 2, travel_green=1)
    s = deal_on(s, 0)
    s = join(act(s, 1, lay("green")), 1, "green", money=1)
    s = act(s, 2, travel("green", laid=1))
    s = act(s, 1, STOP)
    assert s["deal"]["laid"] == [{"id": 1, "family": "green", "owner": 1}]
    assert s["deal"]["agreements"] == [agreement(1, "green", 1, money=1)]
    assert "family.green" not in s["discard"] and cards_total(s) == 98


def test_stop_on_a_boss_card_gives_the_deal_back_to_the_old_boss():
    s = clear_hands(started(3))
    give(s, 1, boss=1)
    give(s, 0, stop=1)
    s = join(deal_on(s, 0), 2, "green", shares=1)
    s = act(s, 1, boss_card(True))
    assert s["deal"]["boss"] == 1 and s["deal"]["agreements"] == [] and needed(s) == ["red", "green"]
    s = act(s, 0, STOP)
    assert s["deal"]["boss"] == 0 and s["deal"]["agreements"] == [agreement(2, "green", shares=1)]
    assert s["deal"]["played"] == ["boss", "stop"]


def test_stop_on_a_hire_set_sends_the_investor_back():
    s = clear_hands(started(6))
    give(s, 1, hire=3)
    give(s, 5, stop=1)
    s = join(deal_on(s, 0), 5, "green", shares=1)
    s = act(s, 1, hire("green"))
    assert s["owners"]["green"] == 1 and s["deal"]["agreements"] == []
    assert s["discard"] == ["hire"] * 3 and hand(s, 1) == {}
    s = act(s, 5, STOP)
    assert s["owners"]["green"] == 5 and s["deal"]["agreements"] == [agreement(5, "green", shares=1)]
    assert s["discard"] == ["hire"] * 3 and s["deal"]["played"] == ["stop"]


def test_stop_answers_only_the_last_card():
    s = clear_hands(started(3))
    give(s, 1, travel_orange=1, travel_green=1)
    give(s, 2, stop=2)
    s = deal_on(s, 3)  # pink + 2 of red/orange/green
    s = act(s, 1, travel("orange", "orange"))
    s = act(s, 1, travel("green", "green"))
    s = act(s, 2, STOP)
    assert s["deal"]["away"] == ["orange"]


def test_a_stop_cannot_be_stopped():
    s = clear_hands(started(3))
    give(s, 0, stop=1)
    give(s, 1, travel_green=1, stop=1)
    give(s, 2, stop=1)
    s = deal_on(s, 0)
    s = act(s, 1, travel("green", "green"))
    s = act(s, 2, STOP)
    assert STOP not in E.legal(s, 0) and STOP not in E.legal(s, 1)
    assert rule_error(s, 0, STOP) == STOP_SENTENCE


@pytest.mark.parametrize("between", ["own offer", "own lay", "the boss's refusal"])
def test_a_card_can_be_stopped_until_another_player_moves(between):
    """Ruling: the card player's own next moves do not close the window to stop their card (a stop then undoes
    them too, a family card laid since going back to the hand); any other player's move closes it."""
    s = clear_hands(started(3))
    give(s, 1, travel_green=1, family_red=1)
    give(s, 2, stop=1)
    s = deal_on(s, 3)  # the boss holds red: still pink + 1 of orange/green
    s = offer(s, 1, "pink", shares=1)
    s = act(s, 1, travel("green", "green"))
    if between == "own offer":
        s = offer(s, 1, "pink", shares=2)
    elif between == "own lay":
        s = act(s, 1, lay("red"))
    else:
        s = E.apply(s, 0, {"type": "refuse", "seat": 1, "family": "pink"})
    if between.startswith("own"):
        hand = dict(s["hands"][1])
        s = act(s, 2, STOP)
        assert "green" not in s["deal"]["away"] and s["deal"]["stoppable"] is None
        assert s["hands"][1].get("family.red", 0) == 1 and s["deal"]["offers"] == [offered(1, "pink", shares=1)], \
            "the stop undoes what the card's player did since"
        assert hand.get("family.red", 0) == (0 if between == "own lay" else 1)
    else:
        assert s["deal"]["stoppable"] is None
        assert not any(m["type"] == "stop" for m in E.legal(s, 2))
        assert rule_error(s, 2, STOP) == STOP_SENTENCE


def test_a_stop_names_the_card_it_stops():
    """A stop pressed on an older panel names the card shown there: when another card has been played since, the
    stop is refused with a sentence naming the card it would answer now, and nothing is cancelled."""
    s = clear_hands(started(3))
    give(s, 0, stop=1)
    give(s, 1, travel_green=1)
    give(s, 2, boss=1)
    s = deal_on(s, 0)
    s = act(s, 1, travel("green", "green"))
    seen = next(m for m in E.legal(s, 0) if m["type"] == "stop")  # the panel seat 0 was shown
    s = act(s, 2, {"type": "boss", "restart": False})
    assert rule_error(s, 0, seen) == ("The card you meant to stop can no longer be stopped; the card a stop would "
                                      "answer now is a boss card.")
    now = next(m for m in E.legal(s, 0) if m["type"] == "stop")
    assert now != seen
    s = act(s, 0, now)
    assert s["deal"]["boss"] == 0 and "green" in s["deal"]["away"]


# --- hire sets (ruling 11) ---------------------------------------------------------------------------


def test_hire_at_four_or_five_players_must_take_from_beside_the_board():
    s = clear_hands(started(4))
    give(s, 1, hire=6)
    s = deal_on(s, 0)
    assert [a for a in E.legal(s, 1) if a["type"] == "hire"] == [hire("orange"), hire("green")]
    assert rule_error(s, 1, hire("red")) == "While investors are left beside the board, a hire must take one of them."
    s = act(s, 1, hire("green"))
    assert s["owners"]["green"] == 1 and s["discard"] == ["hire"] * 3
    assert {"type": "offer", "family": "green", "shares": 1} in E.legal(s, 1)
    s = act(s, 1, hire("orange"))
    # none left beside the board: now a hire takes another player's investor, here the boss's red
    assert [a for a in E.legal(s, 1) if a["type"] == "hire"] == []  # three hire cards are gone twice
    give(s, 1, hire=3)
    s = act(s, 1, hire("red"))
    assert s["owners"]["red"] == 1 and needed(s) == ["red", "green"]


def test_hire_at_six_players_takes_another_players_investor_and_its_agreement_lapses():
    s = clear_hands(started(6))
    give(s, 1, hire=3)
    s = join(deal_on(s, 0), 5, "green", shares=1)
    assert rule_error(s, 1, hire("blue")) == "That investor is already yours."
    assert [a for a in E.legal(s, 1) if a["type"] == "hire"] == \
        [hire(f) for f in FAMILIES if f != "blue"]
    s = act(s, 1, hire("green"))
    assert s["owners"]["green"] == 1 and investors_of(s, 5) == []
    assert s["deal"]["agreements"] == [] and needed(s) == ["green"]
    assert rule_error(s, 5, {"type": "offer", "family": "green", "shares": 1}) == \
        "You need the green investor or a green family card laid on the table to join for it."
    s = join(s, 1, "green", shares=2)
    assert s["deal"]["agreements"] == [agreement(1, "green", shares=2)]


def test_a_hired_investor_on_travel_stays_on_travel_for_the_deal():
    s = clear_hands(started(6))
    give(s, 1, hire=3)
    give(s, 2, travel_grey=1)
    s = deal_on(s, 0)
    s = act(s, 2, travel("grey", "green"))
    s = act(s, 1, hire("green"))
    assert s["owners"]["green"] == 1 and s["deal"]["away"] == ["green"]
    assert not any(a["type"] == "offer" for a in E.legal(s, 1))


def test_hire_needs_a_set_of_three():
    s = clear_hands(started(6))
    give(s, 1, hire=2)
    s = deal_on(s, 0)
    assert rule_error(s, 1, hire("green")) == "A hire needs a set of three hire cards."
    assert rule_error(s, 1, hire("purple")) == "There is no such investor."


# --- boss cards (ruling 9) ---------------------------------------------------------------------------


def test_boss_card_keep_the_new_boss_owes_the_agreements():
    s = clear_hands(started(6))
    give(s, 2, boss=1)
    s = join(deal_on(s, 0), 5, "green", shares=1)
    s = act(s, 2, boss_card(False))
    d = s["deal"]
    assert d["boss"] == 2 and d["agreements"] == [agreement(5, "green", shares=1)]
    assert needed(s) == ["red"]  # the old boss's investor no longer counts by itself
    s = join(s, 0, "red", money=1)
    s = close(s)
    assert s["cash"] == [1000, 0, 1000, 0, 0, 2000]  # the new boss got $4M and paid $1M + $2M


def test_boss_card_restart_drops_offers_and_agreements_but_laid_cards_and_travels_stay():
    s = clear_hands(started(6))
    give(s, 2, boss=1)
    give(s, 3, family_green=1, travel_red=1)
    s = deal_on(s, 0)
    s = act(s, 3, lay("green"))
    s = offer(s, 3, "green", money=1)
    s = join(s, 5, "green", shares=1)
    s = act(s, 3, travel("red", "red"))
    assert len(s["deal"]["offers"]) == 1 and len(s["deal"]["agreements"]) == 1
    s = act(s, 2, boss_card(True))
    d = s["deal"]
    assert d["boss"] == 2 and d["offers"] == [] and d["agreements"] == []
    assert d["laid"] == [{"id": 1, "family": "green", "owner": 3}] and d["away"] == ["red"]
    assert needed(s) == ["red", "green"]


def test_boss_card_the_new_boss_own_investor_counts_and_its_own_agreement_is_dropped():
    s = clear_hands(started(6))
    give(s, 5, boss=1)
    s = join(deal_on(s, 0), 5, "green", shares=1)
    s = act(s, 5, boss_card(False))
    assert s["deal"]["boss"] == 5 and s["deal"]["agreements"] == []
    assert needed(s) == ["red"]
    assert {"type": "offer", "family": "red", "shares": 1} in E.legal(s, 0)


def test_boss_card_not_by_the_boss():
    s = clear_hands(started(3))
    give(s, 0, boss=1)
    give(s, 1, boss=1)
    s = deal_on(s, 0)
    assert not any(a["type"] == "boss" for a in E.legal(s, 0))
    assert rule_error(s, 0, boss_card(False)) == "You are already the boss of this deal."
    assert rule_error(s, 1, {"type": "boss"}) == "A boss move needs its restart."
    assert rule_error(s, 2, boss_card(True)) == "You do not hold a boss card."


@pytest.mark.parametrize("made", [True, False])
@pytest.mark.parametrize("keep_turn,nxt", [(False, 3), (True, 1)])
def test_after_a_boss_change_the_turn_passes_left_of_the_last_boss(made, keep_turn, nxt):
    s = clear_hands(started(6, {"keep_turn": keep_turn}))
    give(s, 2, boss=1)
    s = deal_on(s, 0)
    s = act(s, 2, boss_card(False))
    s = join(s, 0, "red", money=1)
    s = join(s, 5, "green", money=1)
    s = close(s) if made else fail(s)
    assert s["phase"] == "turn" and s["turn"] == nxt


# --- closing a deal (rulings 8, 13, 14) -----------------------------------------------------------


def test_declare_opens_the_last_call_and_nothing_more_from_all_others_closes_it():
    s = join(green_deal(3, {"last_call": 3600}), 2, "green", shares=1)
    s = E.apply(s, 0, DECLARE)
    assert s["deal"]["stage"] == "last_call"
    aw = E.awaiting(s)
    assert aw.seats == {1, 2} and aw.window == 3600.0
    assert E.legal(s, 1) == [{"type": "pass", "call": 1}] and E.legal(s, 0) == []
    assert E.expire(s) == {"type": "expire"}
    closed = "The deal is declared: only a card can still change it (or say nothing more)."
    assert rule_error(s, 2, {"type": "offer", "family": "green", "money": 1}) == closed
    assert rule_error(s, 2, {"type": "withdraw", "family": "green"}) == closed
    assert rule_error(s, 0, {"type": "accept", "seat": 2, "family": "green"}) == closed
    assert rule_error(s, 0, PASS) == "There is no last call for you to answer."
    s = E.apply(s, 1, PASS)
    assert s["phase"] == "deal" and E.awaiting(s).seats == {2}
    assert rule_error(s, 1, PASS) == "There is no last call for you to answer."
    s = E.apply(s, 2, PASS)
    assert s["phase"] == "turn" and s["deal"] is None and s["cash"] == [2000, 0, 2000]


def test_a_card_in_the_last_call_reopens_the_negotiation():
    s = clear_hands(started(3))
    give(s, 1, family_red=1)
    s = join(deal_on(s, 0), 2, "green", shares=1)
    s = E.apply(E.apply(s, 0, DECLARE), 2, PASS)
    s = act(s, 1, lay("red"))
    assert s["deal"]["stage"] == "open" and s["deal"]["passed"] == []
    assert E.awaiting(s).window is None and E.expire(s) is None
    assert rule_error(s, CHANCE, {"type": "expire"}) == "No chance draw is due now."
    assert rule_error(s, 2, PASS) == "There is no last call for you to answer."
    assert DECLARE in E.legal(s, 0)
    s = E.apply(s, 0, DECLARE)
    assert E.awaiting(s).seats == {1, 2}  # everyone answers the new last call


def test_a_boss_card_in_the_last_call_reopens_it_for_the_new_boss():
    s = clear_hands(started(6))
    give(s, 3, boss=1)
    s = join(deal_on(s, 0), 5, "green", shares=1)
    s = E.apply(s, 0, DECLARE)
    s = act(s, 3, boss_card(False))
    assert s["deal"]["stage"] == "open" and s["deal"]["boss"] == 3 and needed(s) == ["red"]


def test_the_last_call_expiring_closes_the_deal():
    s = join(green_deal(), 2, "green", shares=1)
    s = E.apply(E.apply(s, 0, DECLARE), 1, PASS)
    s = expire(s)
    assert s["deal"] is None and s["cash"] == [2000, 0, 2000] and s["spaces"][0]["tile"] == 1


@pytest.mark.parametrize("price,cash", [({"shares": 1}, [3000, 0, 3000]), ({"money": 1}, [5000, 0, 1000]),
                                        ({"shares": 2}, [0, 0, 6000])])
def test_payout_is_shares_times_the_top_tile_and_the_boss_pays_what_was_agreed(price, cash):
    s = clear_hands(started(3))
    cover(s, 10, 11, 12, 13, 14)  # deals 1-5 are done: deal 6 pays $3M a share
    assert s["stack"][0] == {"number": 6, "value": 3000, "end": []}
    s = deal_on(s, 0)
    assert s["deal"]["payout"] == 6000
    s = join(s, 2, "green", **price)
    s = close(s)
    assert s["cash"] == cash and s["paid_out"] == 6000


def test_close_discards_the_family_cards_used_and_returns_the_others():
    s = clear_hands(started(3))
    give(s, 1, family_green=1, family_red=1)
    give(s, 2, family_red=1, family_green=1)
    s = deal_on(s, 0)
    s = act(s, 1, lay("green"))
    s = act(s, 1, lay("red"))
    s = act(s, 2, lay("red"))
    s = join(s, 1, "green", shares=1)
    s = close(s)
    assert hand(s, 1) == {"family.red": 1}
    assert hand(s, 2) == {"family.green": 1, "family.red": 1}
    assert s["discard"] == ["family.green"]
    assert cards_total(s) == 98


def test_a_player_with_investor_and_laid_card_joins_with_the_investor_and_keeps_the_card():
    s = clear_hands(started(3))
    give(s, 2, family_green=1)
    s = deal_on(s, 0)
    s = act(s, 2, lay("green"))
    s = join(s, 2, "green", shares=1)
    assert s["deal"]["agreements"] == [agreement(2, "green", shares=1)]
    s = close(s)
    assert hand(s, 2) == {"family.green": 1} and s["discard"] == []


def test_close_a_new_boss_uses_only_the_laid_cards_the_deal_needs():
    # space 1: blue + 1 of red/pink. Seat 1 laid red and pink, then took the deal: one of them
    # brought the family in and is discarded, the other goes back to its hand (ruling 8).
    s = clear_hands(started(3))
    own(s, red=2, pink=2)
    give(s, 1, family_red=1, family_pink=1, boss=1)
    s = deal_on(s, 1)
    s = act(s, 1, lay("red"))
    s = act(s, 1, lay("pink"))
    s = act(s, 1, boss_card(False))
    s = join(s, 0, "blue", shares=1)
    s = close(s)
    assert hand(s, 1) == {"family.pink": 1}
    assert sorted(s["discard"]) == ["boss", "family.red"]


def test_the_tile_covers_the_space_and_the_marker_moves_to_the_next_free_space():
    s = clear_hands(started(3))
    cover(s, 1, 2)
    s = close(join(deal_on(s, 0), 2, "green", shares=1))
    assert s["spaces"][0]["tile"] == 3 and s["deals_done"] == 3
    assert s["marker"] == 3
    assert s["stack"][0]["number"] == 4
    assert s["phase"] == "turn" and s["turn"] == 1


def test_a_failed_deal_returns_laid_family_cards_and_discards_the_played_ones():
    s = clear_hands(started(3))
    give(s, 1, family_green=1, travel_red=1)
    s = deal_on(s, 0)
    s = join(act(s, 1, lay("green")), 1, "green", shares=1)
    s = act(s, 1, travel("red", "red"))
    assert FAIL in E.legal(s, 0)
    s = fail(s)
    assert hand(s, 1) == {"family.green": 1} and s["discard"] == ["travel.red"]
    assert s["cash"] == [0, 0, 0] and s["deal"] is None
    assert s["spaces"][0]["tile"] is None and s["marker"] == 0 and s["deals_done"] == 0
    assert len(s["stack"]) == 15
    assert s["phase"] == "turn" and s["turn"] == 1


# --- the end of the game (ruling 14) -------------------------------------------------------------


def test_no_end_roll_before_tile_10():
    s = clear_hands(started(3))
    tiles_done(s, 8, avoid=(0,))
    s = close(join(deal_on(s, 0), 2, "green", shares=1))  # deal 9
    assert s["phase"] == "turn" and s["deals_done"] == 9


def test_from_tile_10_the_boss_rolls_and_a_number_on_the_tile_back_ends_the_game():
    s = clear_hands(started(3))
    tiles_done(s, 9, avoid=(0,))
    assert s["stack"][0]["number"] == 10
    s = close(join(deal_on(s, 0), 2, "green", shares=1))
    assert s["phase"] == "end_roll"
    aw = E.awaiting(s)
    assert aw.chance is not None and aw.chance.kind == "dice" and not aw.seats
    over = roll(s, 1)
    assert over["phase"] == "over" and E.awaiting(over) == Awaiting()
    assert E.scores(over) == over["cash"] == [3800, 0, 3800]
    assert rule_error(over, 1, ROLL) == "The game is over."
    on = roll(s, 2)
    assert on["phase"] == "turn" and on["turn"] == 1 and E.scores(on) is None


@pytest.mark.parametrize("die,ends", [(1, True), (2, True), (3, False), (6, False)])
def test_tile_11_ends_the_game_on_1_or_2_not_on_3(die, ends):
    s = clear_hands(started(3))
    tiles_done(s, 10, avoid=(0,))
    s = close(join(deal_on(s, 0), 2, "green", shares=1))
    assert s["spaces"][0]["tile"] == 11
    s = roll(s, die)
    assert (s["phase"] == "over") is ends


def test_tile_15_ends_the_game_without_a_roll_and_scores_are_cash():
    s = clear_hands(started(3))
    tiles_done(s, 14, avoid=(0,))
    assert [t["number"] for t in s["stack"]] == [15]
    s = close(join(deal_on(s, 0), 2, "green", money=3))
    assert s["phase"] == "over" and E.awaiting(s) == Awaiting()
    assert E.scores(s) == [9600 - 3000, 0, 3000]
    assert E.public(s)["scores"] == [6600, 0, 3000]


# --- money privacy (ruling 16) -----------------------------------------------------------------------


def test_money_and_hands_are_private():
    s = clear_hands(started(3))
    give(s, 0, family_red=2, stop=1)
    give(s, 1, hire=3)
    s = close(join(deal_on(s, 0), 2, "green", shares=1))
    pub = E.public(s)
    assert not {"cash", "hand", "hands"} & set(pub)
    assert pub["cash_band"] == ["a thin pile", "no money", "a thin pile"]
    assert pub["hand_sizes"] == [3, 3, 0]
    assert "family.red" not in json.dumps(pub) and "hire" not in json.dumps(pub)
    for seat in range(3):
        v = E.view(s, seat)
        assert v["cash"] == s["cash"][seat] and v["hand"] == hand(s, seat)
        assert {k for k in v if v[k] != pub.get(k)} == {"cash", "hand"}


@pytest.mark.parametrize("cash,band", [(0, "no money"), (9_999, "a thin pile"), (10_000, "a small pile"),
                                       (25_000, "a fair pile"), (50_000, "a thick pile"),
                                       (100_000, "a huge pile")])
def test_the_table_sees_only_a_rough_size_of_each_pile(cash, band):
    s = started(3)
    s["cash"][1] = cash
    assert E.public(s)["cash_band"][1] == band
    assert str(cash) not in json.dumps(E.public(s)["cash_band"])


# --- variants (ruling 17) and the 2-player rules (ruling 18) -------------------------------------------


@pytest.mark.parametrize("on", [True, False])
def test_must_deal_starting_a_turn_with_ten_cards(on):
    s = give(started(3, {"must_deal": on}), 1, stop=10)
    s = draw_turn(s)
    assert s["turn"] == 1 and s["must_deal"] is on
    s = roll(E.apply(s, 1, ROLL), 1)
    if on:
        assert E.legal(s, 1) == [DEAL]
        assert rule_error(s, 1, DRAW) == "You began your turn with 10 or more cards, so you must make a deal (variant)."
        assert E.apply(s, 1, DEAL)["phase"] == "deal"
    else:
        assert E.legal(s, 1) == [DEAL, DRAW]


def test_must_deal_not_with_nine_cards():
    s = give(started(3, {"must_deal": True}), 1, stop=9)
    s = draw_turn(s)
    assert s["must_deal"] is False
    s = roll(E.apply(s, 1, ROLL), 1)
    assert E.legal(s, 1) == [DEAL, DRAW]


@pytest.mark.parametrize("on,cash", [(True, [5000, 0, 0, 0, 1000, 0]), (False, [4000, 0, 1000, 0, 1000, 0])])
def test_paid_if_played_only_players_who_played_a_card_are_paid(on, cash):
    s = clear_hands(started(6, {"paid_if_played": on}))
    give(s, 4, family_green=1)
    s = deal_on(s, 2)  # yellow + orange + 1 of red/blue/green; the boss holds red; 3 x $2M
    s = join(s, 2, "yellow", money=1)  # seat 2 plays no card
    s = act(s, 4, lay("green"))
    s = join(s, 4, "orange", money=1)
    s = close(s)
    assert s["cash"] == cash
    assert hand(s, 4) == {"family.green": 1}
    if on:
        assert any(event_text(e) == "[1] played no card in this deal, so [0] keeps their $1M." for e in s["events"])


@pytest.mark.parametrize("held,draws", [(0, 4), (1, 3), (2, 2), (3, 1), (4, 1)])
def test_draw_by_investors(held, draws):
    s = give(started(3, {"draw_by_investors": True}), 0)
    own(s, **{f: 0 if i < held else 1 for i, f in enumerate(FAMILIES)})
    s = draw_turn(s)
    assert sum(hand(s, 0).values()) == draws


def test_draw_three_without_draw_by_investors():
    s = give(started(3), 0)
    own(s, **{f: 1 for f in FAMILIES})
    assert sum(hand(draw_turn(s), 0).values()) == 3


def test_min_hand_three_cards_or_fewer_cannot_start_a_deal():
    s = give(started(3, {"min_hand": True}), 0, stop=3)
    assert E.legal(s, 0) == [ROLL]
    assert rule_error(s, 0, DEAL) == "With 3 cards or fewer you cannot start a deal (variant)."
    s2 = roll(E.apply(s, 0, ROLL), 1)
    assert E.legal(s2, 0) == [DRAW]
    assert rule_error(s2, 0, DEAL) == "With 3 cards or fewer you cannot start a deal (variant)."
    s = give(s, 0, stop=4)
    assert E.legal(s, 0) == [DEAL, ROLL]
    assert E.legal(give(started(3), 0, stop=1), 0) == [DEAL, ROLL]  # the variant is off by default


@pytest.mark.parametrize("on", [True, False])
def test_late_limit_the_hand_limit_is_10_once_nine_deals_are_made(on):
    s = clear_hands(started(3, {"late_limit": on}))
    tiles_done(s, 8, avoid=(0,))
    give(s, 1, stop=10, boss=1)
    assert E.public(s)["limit"] == 12
    s = close(join(deal_on(s, 0), 2, "green", shares=1))  # the 9th deal
    if not on:
        assert s["phase"] == "turn" and E.public(s)["limit"] == 12
        return
    assert E.public(s)["limit"] == 10
    assert s["phase"] == "limit" and E.awaiting(s).seats == {1}  # not only the turn player
    s = E.apply(s, 1, discard("stop"))
    assert s["phase"] == "turn" and s["turn"] == 1 and sum(hand(s, 1).values()) == 10


def test_short_game_the_first_end_roll_follows_tile_10_the_seventh_deal():
    s = clear_hands(started(3, {"short": True}))
    tiles_done(s, 6, avoid=(0,))
    assert s["stack"][0]["number"] == 10 and len(s["stack"]) == 6
    s = close(join(deal_on(s, 0), 2, "green", shares=1))
    assert s["deals_done"] == 7 and s["phase"] == "end_roll"
    assert roll(s, 1)["phase"] == "over"


def test_two_player_the_boss_uses_an_investor_for_a_fair_share():
    s = clear_hands(started(2))  # seat 0: red, blue, yellow; seat 1: pink, orange, green
    s = deal_on(s, 0)
    assert {"type": "use", "family": "green"} in E.legal(s, 0)
    s = act(s, 0, {"type": "use", "family": "green"})
    assert s["deal"]["agreements"] == [agreement(1, "green", fair=True)]
    assert E.public(s)["deal"]["amounts"] == [2000]  # $4M / 2 investors
    s = close(s)
    assert s["cash"] == [2000, 2000]


def test_two_player_fair_share_is_rounded_down_to_a_tenth_of_a_million():
    s = clear_hands(started(2))
    cover(s, 15)  # deal 2: $2.2M a share
    s = deal_on(s, 4)  # blue + 4 of pink/red/orange/yellow/green, 6 shares: $13.2M / 5 = $2.64M
    assert needed(s) == ["pink", "orange", "green"]
    s = act(s, 0, {"type": "use", "family": "pink"})
    assert E.public(s)["deal"]["amounts"] == [2600]


def test_two_player_a_laid_family_card_can_be_used():
    s = clear_hands(started(2))
    give(s, 0, travel_green=1)
    give(s, 1, family_green=1)
    s = deal_on(s, 0)
    s = act(s, 0, travel("green", "green"))  # seat 1's green investor is away: its laid card is what is usable
    s = act(s, 1, lay("green"))
    s = act(s, 0, {"type": "use", "family": "green"})
    assert s["deal"]["agreements"] == [agreement(1, "green", 1, fair=True)]
    s = close(s)
    assert sorted(s["discard"]) == ["family.green", "travel.green"] and hand(s, 1) == {}
    assert s["cash"] == [2000, 2000]


def test_two_player_either_player_may_send_their_own_investor_on_travel():
    s = clear_hands(started(2))
    give(s, 1, travel_green=1)
    s = deal_on(s, 0)
    assert travel("green", "green") in E.legal(s, 1)
    s = act(s, 1, travel("green", "green"))
    assert s["deal"]["away"] == ["green"]


def test_two_player_fail_refused_while_the_deal_can_be_made():
    s = clear_hands(started(2))
    give(s, 0, travel_green=1)
    s = deal_on(s, 0)
    assert FAIL not in E.legal(s, 0)
    assert rule_error(s, 0, FAIL) == \
        "The deal can be made with what is on the table, so you must make it (2-player rules)."
    s = act(s, 0, travel("green", "green"))  # now green cannot be had
    assert FAIL in E.legal(s, 0)
    assert fail(s)["phase"] == "turn"


def test_two_player_rules_as_an_option_at_three_players():
    s = green_deal(3, {"two_player": True})
    assert {"type": "use", "family": "green"} in E.legal(s, 0)
    assert rule_error(s, 0, FAIL) == \
        "The deal can be made with what is on the table, so you must make it (2-player rules)."
    s = green_deal()
    assert rule_error(s, 0, {"type": "use", "family": "green"}) == \
        "Only the 2-player rules let the boss use another player's investor."
    assert FAIL in E.legal(s, 0)


# --- RuleError sentences for illegal moves -------------------------------------------------------


def test_rule_errors_during_a_deal():
    s = green_deal()
    assert rule_error(s, 1, {"type": "offer", "family": "green", "shares": 1}) == \
        "You need the green investor or a green family card laid on the table to join for it."
    assert rule_error(s, 0, {"type": "offer", "family": "green", "shares": 1}) == \
        "The boss does not make offers; lay a family card instead."
    s = offer(s, 2, "green", shares=1)
    assert rule_error(s, 2, {"type": "accept", "seat": 2, "family": "green"}) == \
        "Only the boss of the deal can do that."
    assert rule_error(s, 1, DECLARE) == "Only the boss of the deal can do that."
    assert rule_error(s, 0, {"type": "accept", "seat": 1, "family": "green"}) == "There is no such offer."
    assert rule_error(s, 2, lay("green")) == "You do not hold a green family card."
    assert rule_error(s, 1, STOP) == STOP_SENTENCE
    assert rule_error(s, 1, {"type": "roll"}) == "That move is not possible during a deal."
    assert rule_error(s, 1, {"type": 3}) == "That is not a move this game knows."
    assert rule_error(s, 1, ["deal"]) == "That is not a move this game knows."


def test_during_a_deal_only_seats_at_the_table_may_act():
    """Anyone may act during a deal, so a seat number off the table (or one that would wrap around to another
    player's hand, like -2) is refused before a hand is read."""
    s = clear_hands(started(3))
    for seat in range(3):
        give(s, seat, boss=1, family_green=1, hire=3)
    s = deal_on(s, 0)
    for seat in (3, 8, -2, -3):
        assert not E.can_act(s, seat) and E.legal(s, seat) == []
        for move in (boss_card(True), lay("green"), hire("green"), DECLARE, PASS):
            assert rule_error(s, seat, move) == "That is not a seat at this table (seats 1 to 3)."
    assert act(s, 1, boss_card(True))["deal"]["boss"] == 1


def test_a_travel_card_sends_away_an_investor_or_a_laid_card_not_both():
    s = clear_hands(started(3))
    give(s, 1, travel_grey=1)
    give(s, 2, family_red=1)
    s = act(deal_on(s, 0), 2, lay("red"))
    sentence = "A travel card sends away one thing: an investor (family) or a family card on the table (laid)."
    assert rule_error(s, 1, {"type": "travel", "card": "grey", "family": "green", "laid": 1}) == sentence
    assert rule_error(s, 1, {"type": "travel", "card": "grey"}) == sentence
    assert rule_error(s, 1, {"type": "travel", "card": "grey", "family": None, "laid": None}) == sentence
    assert rule_error(s, 1, {"type": "travel", "card": "grey", "family": "green", "laid": True}) == \
        "The laid of a travel move must be a whole number."
    # a field left null counts as left out
    assert E.apply(s, 1, {"type": "travel", "card": "grey", "family": "green", "laid": None})["deal"]["away"] == \
        ["green"]
    assert E.apply(s, 1, {"type": "travel", "card": "grey", "family": None, "laid": 1})["deal"]["laid"] == []


def test_every_legal_move_fits_the_declared_actions():
    from engines.fields import check_action

    s = clear_hands(started(3))
    for seat in range(3):
        give(s, seat, boss=1, stop=1, hire=3, travel_grey=1, family_green=1, family_red=1)
    s = act(deal_on(s, 0), 1, lay("green"))
    s = offer(s, 1, "green", shares=1)
    moves = [m for seat in range(3) for m in E.legal(s, seat)]
    assert {m["type"] for m in moves} >= {"accept", "refuse", "boss", "travel", "lay", "hire", "offer", "withdraw"}
    for m in moves:
        check_action(m, E.actions)


def test_an_acceptance_names_the_terms_it_accepts():
    """The boss accepts what they saw: if the offer changed in between (1 share became $4M), the acceptance is
    refused with the new terms, and nothing is agreed."""
    s = green_deal()
    s = offer(s, 2, "green", shares=1)
    seen = next(m for m in E.legal(s, 0) if m["type"] == "accept")
    s = offer(s, 2, "green", money=4)
    assert rule_error(s, 0, seen) == ("That offer has changed: it now asks $4M for green. Look at it again before "
                                      "you accept.")
    assert s["deal"]["agreements"] == []
    s = act(s, 0, next(m for m in E.legal(s, 0) if m["type"] == "accept"))
    assert s["deal"]["agreements"] == [agreement(2, "green", money=4)]


def test_nothing_more_names_its_last_call():
    """A "nothing more" from an earlier last call cannot close a deal declared again since."""
    s = green_deal()
    s = accept(offer(s, 2, "green", shares=1), 2, "green")
    s = act(s, 0, {"type": "declare"})
    stale = {"type": "pass", "call": 1}
    assert stale in E.legal(s, 1)
    give(s, 1, family_red=1)
    s = act(s, 1, lay("red"))  # a card reopens the negotiation
    s = act(s, 0, {"type": "declare"})
    assert rule_error(s, 1, stale) == ("That last call is over; the deal was declared again. Look at it before "
                                       "you answer.")
    assert {"type": "pass", "call": 2} in E.legal(s, 1)


def test_after_a_boss_card_that_keeps_the_agreements_each_player_may_leave_theirs():
    """Ruling: the new boss chooses keep or start over; with keep, each player agreed with the earlier boss may
    leave their agreement (the seed: the new boss *and the players* may keep what was negotiated)."""
    s = clear_hands(started(3))
    give(s, 1, boss=1)
    s = accept(offer(deal_on(s, 0), 2, "green", shares=1), 2, "green")
    s = act(s, 1, {"type": "boss", "restart": False})
    assert s["deal"]["agreements"] == [agreement(2, "green", shares=1)]
    assert {"type": "withdraw", "family": "green"} in E.legal(s, 2)
    s = act(s, 2, {"type": "withdraw", "family": "green"})
    assert s["deal"]["agreements"] == [] and "green" in needed(s)
