"""Dice & Hands, one rule at a time, with scripted chance (no randomness anywhere)."""
from __future__ import annotations

import copy

import pytest

from engines.base import CHANCE, RuleError
from engines.dicehand import DECK_SIZE, DiceHand

E = DiceHand()

# A deck whose top cards deal seat 0 [15, 1, 2], seat 1 [14, 3, 4], seat 2 [13, 5, 6] and leave
# 7..12 to draw, so each seat has one high card and rounds have distinct winners.
SCRIPTED_DECK = [15, 1, 2, 14, 3, 4, 13, 5, 6, 7, 8, 9, 10, 11, 12]
SCRIPTED_ORDER = [c - 1 for c in SCRIPTED_DECK]  # shuffle action order: card = index + 1


def shuffle(order=None):
    return {"type": "shuffle", "order": list(range(DECK_SIZE)) if order is None else order}


def bet(n):
    return {"type": "bet", "amount": n}


def pick(card):
    return {"type": "pick", "card": card}


def die(n):
    return {"type": "dice", "values": [n]}


def dealt(seats=3, order=SCRIPTED_ORDER, **options):
    return E.apply(E.setup(options, seats), CHANCE, shuffle(order))


def in_pick_phase(seats=3, bets=None, **options):
    s = dealt(seats, **options)
    for seat, amount in enumerate(bets or [0] * seats):
        s = E.apply(s, seat, bet(amount))
    assert s["phase"] == "pick"
    return s


def refused(state, seat, action) -> str:
    """The sentence of the RuleError, checking that the caller's state is left untouched."""
    before = copy.deepcopy(state)
    with pytest.raises(RuleError) as err:
        E.apply(state, seat, action)
    assert state == before
    return str(err.value)


# --- setup and options --------------------------------------------------------------------
def test_setup_waits_for_a_shuffle_of_the_whole_deck():
    s = E.setup({}, 3)
    aw = E.awaiting(s)
    assert aw.seats == frozenset() and aw.chance is not None
    assert (aw.chance.kind, aw.chance.count) == ("shuffle", DECK_SIZE)
    assert s["hands"] == [[], [], []] and s["scores"] == [0, 0, 0] and s["rounds"] == 3


@pytest.mark.parametrize("seats", [1, 6])
def test_setup_refuses_a_player_count_outside_2_to_5(seats):
    with pytest.raises(RuleError, match=r"^Dice & Hands takes 2 to 5 players\.$"):
        E.setup({}, seats)


def test_options_are_checked_with_sentences():
    with pytest.raises(RuleError, match=r"^Dice & Hands has no option called 'speed'\.$"):
        E.setup({"speed": 2}, 3)
    with pytest.raises(RuleError, match=r"^Option rounds must be one of 1, 2, 3, 4, 5\.$"):
        E.setup({"rounds": 9}, 3)


# --- the deal -------------------------------------------------------------------------------
def test_shuffle_deals_three_cards_to_each_seat_from_the_top():
    s = dealt(3)
    assert s["hands"] == [[15, 1, 2], [14, 3, 4], [13, 5, 6]]
    assert s["deck"] == [7, 8, 9, 10, 11, 12]
    assert s["phase"] == "bet"


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_every_seat_gets_three_cards_and_no_card_is_lost(seats):
    s = dealt(seats, order=list(range(DECK_SIZE)))
    assert all(len(h) == 3 for h in s["hands"])
    assert sorted(sum(s["hands"], []) + s["deck"]) == list(range(1, DECK_SIZE + 1))


@pytest.mark.parametrize("order", [list(range(14)), [0] * 15, list(range(1, 16))])
def test_a_shuffle_that_is_not_a_permutation_is_refused(order):
    assert refused(E.setup({}, 3), CHANCE, shuffle(order)) == "A shuffle orders each of the 15 items once."


# --- bets ------------------------------------------------------------------------------------
def test_bets_are_taken_in_turn_starting_with_the_leader():
    s = dealt(3)
    for seat in range(3):
        assert E.awaiting(s).seats == frozenset({seat})
        assert E.legal(s, seat) == [bet(0), bet(1), bet(2)]
        assert all(E.legal(s, other) == [] for other in range(3) if other != seat)
        s = E.apply(s, seat, bet(seat % 3))
    assert s["bets"] == [0, 1, 2]
    assert s["phase"] == "pick"


def test_a_bet_out_of_turn_is_refused():
    s = dealt(3)
    assert refused(s, 1, bet(1)) == "It is not your turn."
    assert refused(s, 7, bet(1)) == "It is not your turn."  # not even a seat


@pytest.mark.parametrize("amount", [3, -1, 7])
def test_a_bet_outside_0_to_2_is_refused(amount):
    assert refused(dealt(3), 0, bet(amount)) == "A bet is 0 to 2 points."


@pytest.mark.parametrize("amount", ["1", None, 1.5])
def test_a_bet_that_is_not_a_whole_number_is_refused(amount):
    assert refused(dealt(3), 0, bet(amount)) == "The amount of a bet move must be a whole number."


def test_a_bet_without_an_amount_is_refused():
    assert refused(dealt(3), 0, {"type": "bet"}) == "A bet move needs its amount."


def test_a_bet_of_json_true_is_refused():
    # JSON true is not a number of points; bool is an int subclass in Python, so an
    # isinstance(int) check alone lets it through (a hand-edited log could carry it).
    assert refused(dealt(3), 0, bet(True)) == "The amount of a bet move must be a whole number."


def test_a_card_during_the_bets_is_refused():
    assert refused(dealt(3), 0, pick(15)) == "That move does not fit this part of the round."


@pytest.mark.parametrize("action", [{"type": "dance"}, {"amount": 1}, {"type": 3}, "bet", None])
def test_unknown_moves_are_refused(action):
    s = dealt(3)
    assert refused(s, 0, action) == "That is not a move this game knows."


# --- chance at the wrong time -----------------------------------------------------------------
def test_players_cannot_act_before_the_shuffle():
    assert refused(E.setup({}, 3), 0, bet(0)) == "It is not your turn."


def test_chance_is_refused_when_no_draw_is_due():
    s = dealt(3)
    assert refused(s, CHANCE, die(3)) == "No chance draw is due now."
    assert refused(s, CHANCE, shuffle()) == "No chance draw is due now."
    assert refused(in_pick_phase(), CHANCE, die(3)) == "No chance draw is due now."


def test_a_chance_outcome_of_the_wrong_kind_is_refused():
    assert refused(E.setup({}, 3), CHANCE, die(3)) == "The game waits for a shuffle, not a roll."
    s = in_pick_phase()
    for seat, card in enumerate((15, 14, 13)):
        s = E.apply(s, seat, pick(card))
    assert refused(s, CHANCE, shuffle()) == "The game waits for a roll, not a shuffle."


@pytest.mark.parametrize("value", [0, 7])
def test_a_die_outside_1_to_6_is_refused(value):
    s = in_pick_phase()
    for seat, card in enumerate((15, 14, 13)):
        s = E.apply(s, seat, pick(card))
    assert refused(s, CHANCE, die(value)) == "A roll is one die showing 1 to 6."


@pytest.mark.parametrize("action", [{"type": "shuffle"}, {"type": "shuffle", "order": None},
                                    {"type": "shuffle", "order": [False] + list(range(1, DECK_SIZE))}])
def test_a_malformed_shuffle_is_a_rule_error_not_a_crash(action):
    # A corrupt log replayed by `python -m bot replay` must end in a sentence, not a traceback.
    assert refused(E.setup({}, 3), CHANCE, action) == "A shuffle orders each of the 15 items once."


@pytest.mark.parametrize("values", [[], None, [3, 4], ["3"], [True]])
def test_a_malformed_die_is_a_rule_error_not_a_crash(values):
    s = in_pick_phase()
    for seat, card in enumerate((15, 14, 13)):
        s = E.apply(s, seat, pick(card))
    assert refused(s, CHANCE, {"type": "dice", "values": values}) == "A roll is one die showing 1 to 6."


# --- the secret card choice ---------------------------------------------------------------------
def test_every_seat_is_awaited_for_the_secret_choice():
    aw = E.awaiting(in_pick_phase())
    assert aw.seats == frozenset({0, 1, 2}) and aw.secret and str(aw.prompt) == "a secret card choice"
    assert aw.window is None  # no window unless the table sets one


def test_a_seat_may_only_play_a_card_it_holds():
    s = in_pick_phase()
    assert E.legal(s, 0) == [pick(1), pick(2), pick(15)]
    assert refused(s, 0, pick(14)) == "You do not hold that card."
    assert refused(s, 0, pick(99)) == "You do not hold that card."


def test_a_choice_can_be_changed_until_the_last_seat_has_chosen():
    s = E.apply(in_pick_phase(), 1, pick(3))
    assert E.awaiting(s).seats == frozenset({0, 2})
    assert E.can_act(s, 1) and E.legal(s, 1) == [pick(3), pick(4), pick(14)]
    s = E.apply(s, 1, pick(14))  # changes their mind
    assert s["picks"] == [None, 14, None]
    s = E.apply(s, 0, pick(1))
    s = E.apply(s, 0, pick(2))
    assert s["picks"] == [2, 14, None] and s["phase"] == "pick"
    s = E.apply(s, 2, pick(5))  # the last one: the step ends
    assert s["phase"] == "roll" and s["picks"] == [2, 14, 5]
    assert refused(s, 1, pick(3)) == "It is not your turn."


@pytest.mark.parametrize("card", [True, 1.0])
def test_a_card_must_be_the_card_number_itself(card):
    # Seat 0 holds card 1; JSON true or 1.0 compare equal to it in Python but are not a card.
    assert refused(in_pick_phase(), 0, pick(card)) == "The card of a pick move must be a whole number."


def test_a_bet_during_the_card_choice_is_refused():
    assert refused(in_pick_phase(), 0, bet(1)) == "That move does not fit this part of the round."


def test_a_player_cannot_send_the_expire_action():
    s = in_pick_phase(window_minutes=1)
    assert refused(s, 0, {"type": "expire"}) == "That is not a move this game knows."


# --- resolution, refill, leader rotation, end ---------------------------------------------------
def play_round(s, bets_by_seat, picks_by_seat, value):
    """Bets in turn from the leader, then the picks, then the die."""
    seats = s["seats"]
    for k in range(seats):
        seat = (s["leader"] + k) % seats
        assert E.awaiting(s).seats == frozenset({seat})
        s = E.apply(s, seat, bet(bets_by_seat[seat]))
    for seat in range(seats):
        s = E.apply(s, seat, pick(picks_by_seat[seat]))
    assert E.awaiting(s).chance.kind == "dice"
    return E.apply(s, CHANCE, die(value))


def test_the_highest_card_gains_die_plus_bet_and_the_others_lose_their_bet():
    s = play_round(dealt(3), [2, 1, 0], [15, 3, 5], 4)
    assert s["scores"] == [6, 0, 0]  # seat 0: 4 + 2; seat 1 had 0 and bet 1: stays 0, never below
    assert s["last"] == {"picks": [15, 3, 5], "die": 4, "bets": [2, 1, 0]}
    s = play_round(s, [2, 2, 0], [1, 14, 13], 6)
    assert s["scores"] == [4, 8, 0]  # seat 1 wins 6 + 2; seat 0 loses its bet of 2


def test_a_loser_never_goes_below_zero():
    s = play_round(dealt(3), [0, 2, 2], [15, 3, 5], 1)
    assert s["scores"] == [1, 0, 0]


def test_played_cards_are_replaced_from_the_deck_in_seat_order():
    s = play_round(dealt(3), [0, 0, 0], [15, 3, 5], 1)
    assert s["hands"] == [[1, 2, 7], [14, 4, 8], [13, 6, 9]]
    assert s["deck"] == [10, 11, 12]
    assert s["picks"] == [None, None, None] and s["bets"] == [None, None, None]


def test_no_refill_once_the_deck_is_empty():
    s = dealt(3)
    s = play_round(s, [0, 0, 0], [15, 3, 5], 1)
    s = play_round(s, [0, 0, 0], [1, 14, 13], 1)
    assert s["deck"] == []
    s = play_round(s, [0, 0, 0], [2, 4, 6], 1)
    assert [len(h) for h in s["hands"]] == [2, 2, 2]


def test_the_leader_moves_one_seat_on_each_round():
    s = dealt(3, rounds=4)
    assert (s["round"], s["leader"]) == (1, 0)
    s = play_round(s, [0, 0, 0], [15, 3, 5], 1)
    assert (s["round"], s["leader"], s["turn"]) == (2, 1, 1)
    assert E.awaiting(s).seats == frozenset({1})
    s = play_round(s, [0, 0, 0], [1, 14, 13], 1)
    assert (s["round"], s["leader"]) == (3, 2)
    s = play_round(s, [0, 0, 0], [2, 4, 6], 1)
    assert (s["round"], s["leader"]) == (4, 0)


def test_the_game_ends_after_the_chosen_number_of_rounds():
    s = dealt(3)
    s = play_round(s, [2, 1, 0], [15, 3, 5], 4)
    s = play_round(s, [2, 2, 0], [1, 14, 13], 6)
    assert E.scores(s) is None and not E.is_over(s)
    s = play_round(s, [2, 2, 1], [2, 4, 12], 1)
    assert s["phase"] == "over"
    assert E.scores(s) == [2, 6, 2]
    aw = E.awaiting(s)
    assert aw.seats == frozenset() and aw.chance is None
    assert all(E.legal(s, seat) == [] for seat in range(3))
    assert refused(s, 0, bet(0)) == "The game is over."
    assert refused(s, CHANCE, die(1)) == "No chance draw is due now."


def test_a_one_round_game_ends_after_its_die():
    s = play_round(dealt(2, rounds=1), [1, 0], [15, 14], 3)
    assert E.scores(s) == [4, 0]


@pytest.mark.parametrize("rounds", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_every_offered_rounds_option_can_be_played_to_the_end(seats, rounds):
    # The table offers rounds 1..5 for 2..5 players; each awaited seat must always have a move.
    # Ruling: with 4 or 5 players the 15 cards run dry and the game ends after round 3,
    # when a hand is empty, whatever the rounds option says.
    s = dealt(seats, order=list(range(DECK_SIZE)), rounds=rounds)
    for _ in range(200):
        if E.is_over(s):
            break
        aw = E.awaiting(s)
        if aw.chance:
            s = E.apply(s, CHANCE, die(3))
            continue
        seat = min(aw.seats)
        moves = E.legal(s, seat)
        assert moves, f"round {s['round']}: seat {seat} is awaited but holds no card"
        s = E.apply(s, seat, moves[0])
    assert E.is_over(s)
    assert s["round"] == (rounds if seats * rounds <= DECK_SIZE else 3)


def test_an_empty_hand_ends_the_game_after_that_rounds_scoring():
    # 4 players: 12 cards dealt, the 3 left go to seats 0-2 after round 1, so seat 3 plays
    # its last card in round 3.
    s = dealt(4, order=list(range(DECK_SIZE)), rounds=5)
    assert s["hands"][3] == [10, 11, 12] and s["deck"] == [13, 14, 15]
    s = play_round(s, [0, 0, 0, 0], [1, 4, 7, 10], 2)
    assert [len(h) for h in s["hands"]] == [3, 3, 3, 2]
    s = play_round(s, [0, 0, 0, 0], [2, 5, 8, 11], 2)
    assert not E.is_over(s)
    s = play_round(s, [0, 0, 0, 2], [3, 6, 9, 12], 5)
    assert s["hands"][3] == [] and s["round"] == 3
    assert E.scores(s) == [0, 0, 0, 2 + 2 + 5 + 2]  # seat 3 won all three rounds


# --- the choice window and auto-pass -------------------------------------------------------------
def test_the_window_option_sets_the_awaiting_window_in_seconds():
    assert E.awaiting(in_pick_phase(window_minutes=5)).window == 300
    assert E.awaiting(dealt(3, window_minutes=5)).window is None  # only the card choice has one


def test_expire_gives_the_lowest_card_to_those_who_had_not_chosen():
    s = in_pick_phase(window_minutes=1)
    s = E.apply(s, 1, pick(14))
    assert E.expire(s) == {"type": "expire"}
    s = E.apply(s, CHANCE, E.expire(s))
    assert s["picks"] == [1, 14, 5]  # seat 1 keeps its own choice
    assert s["phase"] == "roll"


def test_expire_is_refused_without_a_window_and_outside_the_choice():
    assert refused(in_pick_phase(), CHANCE, {"type": "expire"}) == "No chance draw is due now."
    s = dealt(3, window_minutes=1)
    assert E.expire(s) is None
    assert refused(s, CHANCE, {"type": "expire"}) == "No chance draw is due now."


def test_auto_action_bets_nothing_and_plays_the_lowest_card():
    s = dealt(3)
    assert E.auto_action(s, 0) == bet(0)
    s = E.apply(in_pick_phase(), 2, pick(13))
    assert E.auto_action(s, 0) == pick(1)
    assert E.auto_action(s, 1) == pick(3)
    assert E.auto_action(s, 2) is None  # already chose
    assert E.auto_action(E.setup({}, 3), 0) is None  # nothing to do before the deal


def test_auto_actions_are_legal_moves():
    s = in_pick_phase()
    for seat in range(3):
        a = E.auto_action(s, seat)
        assert a in E.legal(s, seat)
        s = E.apply(s, seat, a)
    assert s["picks"] == [1, 3, 5]


# --- secrets ------------------------------------------------------------------------------------
def values_in(obj):
    """Every value inside a JSON-like object, containers included."""
    yield obj
    if isinstance(obj, dict):
        for v in obj.values():
            yield from values_in(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            yield from values_in(v)


def test_public_holds_no_hand_and_no_pick_during_the_choice():
    s = E.apply(in_pick_phase(), 1, pick(14))
    pub = E.public(s)
    assert not {"hand", "hands", "my_pick", "picks", "deck"} & set(pub)
    everything = list(values_in(pub))
    for seat in range(3):
        hand = s["hands"][seat]
        assert hand not in everything and sorted(hand) not in everything
    assert pub["chosen"] == [False, True, False]  # only *whether* each seat chose


def test_public_is_the_same_whichever_card_was_chosen():
    base = in_pick_phase()
    pubs = [E.public(E.apply(base, 1, pick(c))) for c in base["hands"][1]]
    assert all(p == pubs[0] for p in pubs)


def test_public_is_the_same_whatever_the_hands_hold():
    a = dealt(3, order=list(range(DECK_SIZE)))
    b = dealt(3, order=list(reversed(range(DECK_SIZE))))
    assert a["hands"] != b["hands"]
    assert E.public(a) == E.public(b)


def test_a_view_adds_only_that_seats_hand_and_choice():
    s = E.apply(in_pick_phase(), 1, pick(14))
    v = E.view(s, 1)
    assert v["hand"] == [3, 4, 14] and v["my_pick"] == 14
    assert E.view(s, 0)["my_pick"] is None and E.view(s, 0)["hand"] == [1, 2, 15]
    assert {k: x for k, x in v.items() if k not in ("hand", "my_pick")} == E.public(s)


def test_the_round_is_public_once_revealed():
    s = play_round(dealt(3), [2, 1, 0], [15, 3, 5], 4)
    assert E.public(s)["last_round"] == {"picks": [15, 3, 5], "die": 4, "bets": [2, 1, 0]}


# --- reveals (the line undo may not cross) -------------------------------------------------------
def test_reveals_only_for_the_action_that_ends_the_choice():
    s = in_pick_phase()
    for seat, card in ((0, 1), (1, 3), (0, 15)):  # including a change of mind
        after = E.apply(s, seat, pick(card))
        assert E.reveals(s, seat, pick(card), after) is False
        s = after
    after = E.apply(s, 2, pick(5))
    assert E.reveals(s, 2, pick(5), after) is True


def test_expire_reveals_and_bets_do_not():
    s = E.apply(in_pick_phase(window_minutes=1), 0, pick(1))
    after = E.apply(s, CHANCE, {"type": "expire"})
    assert E.reveals(s, CHANCE, {"type": "expire"}, after) is True
    d = dealt(3)
    assert E.reveals(d, 0, bet(1), E.apply(d, 0, bet(1))) is False


def test_labels_are_plain_words():
    assert [str(E.label(a)) for a in (bet(2), pick(7), die(5), shuffle(), {"type": "expire"})] == [
        "Bet 2", "Play card 7", "Die shows 5", "Deck shuffled", "Time is up"]
