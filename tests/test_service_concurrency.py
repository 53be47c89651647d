"""Moves arriving at the same moment through the TableService (no Discord), on both stores: in one process
the per-game lock orders them, across two processes the unique seq decides; no move is lost
or applied twice, and a refused one says why.

On PostgreSQL the table's lock also holds across processes (Store.game_lock), so two processes never race on a
table at all (tests/test_shared_tables.py). The races below are made by processes that do not take it: they show
that the database's guard alone still refuses the second writer."""
from __future__ import annotations

import asyncio

import pytest

from bot.errors import Refusal
from engines.base import CHANCE, RuleError
from storage.base import Store
from tests.service_helpers import PLAYERS, open_service, started_table, user_at

STALE = ("The game has moved on since these choices were shown; open them again to see your moves now.")
SOMEONE_ELSE = ("Someone else moved at the same moment, so your move was not applied; "
                "look at the table and try again.")


def bet(n):
    return {"type": "bet", "amount": n}


def pick(card):
    return {"type": "pick", "card": card}


@pytest.fixture
async def service(db):
    s = await open_service(db, seed=3)
    yield s
    await s.store.close()


@pytest.fixture
async def two_processes(db):
    """Two services on one database, as two bot processes would be, without the lock a shared store holds a table
    with across processes (see the module's docstring)."""
    a = await open_service(db, seed=1)
    b = await open_service(db, seed=2)
    for s in (a, b):
        s.store.game_lock = Store.game_lock.__get__(s.store)
    yield a, b
    await a.store.close()
    await b.store.close()


async def to_card_choice(service, gid):
    """Everyone bets 0 in turn; returns the table in the secret card choice."""
    table = await service.load(gid)
    while table.state["phase"] == "bet":
        table = await service.act(gid, user_at(table, table.state["turn"]), bet(0))
    assert table.state["phase"] == "pick"
    return table


async def player_actions(service, gid, after_seq=0):
    return [(a.seat, a.action) for a in await service.store.actions(gid, after_seq=after_seq) if a.seat != CHANCE]


async def pick_then_ask_undo(a, before_undo=None):
    """Two players reach the card choice; seat 0 (ann) picks and asks to undo it, which needs
    seat 1's (ben's) consent. ``before_undo`` runs between the pick and the request.
    Returns (gid, table at the card choice, ann, ben, the undo vote's id)."""
    gid = await started_table(a, 2, random_seats=False)
    table = await to_card_choice(a, gid)
    ann, ben = user_at(table, 0), user_at(table, 1)
    await a.act(gid, ann, pick(min(table.state["hands"][0])))
    if before_undo is not None:
        await before_undo(gid)
    asked, need = await a.request_undo(gid, ann)
    assert need == [1]
    return gid, table, ann, ben, asked.game.pending["undo"]["id"]


def assert_no_gap(seqs):
    assert seqs == list(range(1, len(seqs) + 1)), f"the log has a gap: {seqs}"


async def assert_consistent(service, gid):
    live = await service.load(gid)
    service._cache.clear()
    assert (await service.load(gid)).state == live.state == await service.full_replay(gid)
    return live


# --- one process: the lock ---------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3])
async def test_secret_picks_sent_at_the_same_moment_are_all_applied_once(service, players):
    gid = await started_table(service, players, random_seats=False)
    table = await to_card_choice(service, gid)
    before = table.seq
    cards = [min(h) for h in table.state["hands"]]
    results = await asyncio.gather(*(service.act(gid, user_at(table, s), pick(cards[s])) for s in range(players)),
                                   return_exceptions=True)
    assert not [r for r in results if isinstance(r, BaseException)], results
    moves = await player_actions(service, gid, after_seq=before)
    assert sorted(moves, key=lambda m: m[0]) == [(s, pick(cards[s])) for s in range(players)]
    rows = await service.store.actions(gid, after_seq=before)
    assert [r.action["type"] for r in rows] == ["pick"] * players + ["dice"]  # the die once, after the last
    live = await assert_consistent(service, gid)
    assert live.state["last"]["picks"] == cards and live.state["round"] == 2


async def test_the_same_bet_sent_twice_at_once_is_applied_once(service):
    gid = await started_table(service, 3, random_seats=False)
    table = await service.load(gid)
    ann = user_at(table, 0)
    results = await asyncio.gather(service.act(gid, ann, bet(2)), service.act(gid, ann, bet(2)),
                                   return_exceptions=True)
    errors = [r for r in results if isinstance(r, BaseException)]
    assert len(errors) == 1 and isinstance(errors[0], RuleError)
    assert str(errors[0]) == "It is not your turn."
    assert await player_actions(service, gid) == [(0, bet(2))]
    assert (await assert_consistent(service, gid)).state["bets"] == [2, None, None]


async def test_the_same_click_twice_with_the_shown_seq_is_applied_once(service):
    gid = await started_table(service, 3, random_seats=False)
    table = await service.load(gid)
    ann = user_at(table, 0)
    results = await asyncio.gather(service.act(gid, ann, bet(1), chosen_at=table.seq),
                                   service.act(gid, ann, bet(1), chosen_at=table.seq), return_exceptions=True)
    errors = [r for r in results if isinstance(r, BaseException)]
    assert len(errors) == 1 and isinstance(errors[0], Refusal) and str(errors[0]) == STALE
    assert await player_actions(service, gid) == [(0, bet(1))]


async def test_a_secret_pick_sent_twice_with_the_shown_seq_is_applied_once(service):
    # A seat may change its pick, so only the shown seq tells a double click from a change of mind.
    gid = await started_table(service, 2, random_seats=False)
    table = await to_card_choice(service, gid)
    ann, card = user_at(table, 0), min(table.state["hands"][0])
    results = await asyncio.gather(service.act(gid, ann, pick(card), chosen_at=table.seq),
                                   service.act(gid, ann, pick(card), chosen_at=table.seq), return_exceptions=True)
    assert sum(isinstance(r, Refusal) for r in results) == 1
    assert await player_actions(service, gid, after_seq=table.seq) == [(0, pick(card))]


async def test_secret_picks_made_at_the_same_moment_are_all_accepted(service):
    # Everyone chose on the same panel step; the others' picks coming first must not make a pick stale.
    gid = await started_table(service, 4, random_seats=False)
    table = await to_card_choice(service, gid)
    picks = {seat: min(table.state["hands"][seat]) for seat in range(4)}
    results = await asyncio.gather(*(service.act(gid, user_at(table, seat), pick(card), chosen_at=table.seq)
                                     for seat, card in picks.items()), return_exceptions=True)
    assert [r for r in results if isinstance(r, BaseException)] == []
    assert sorted(await player_actions(service, gid, after_seq=table.seq)) == sorted(
        (seat, pick(card)) for seat, card in picks.items())


async def test_a_pick_shown_before_a_bet_is_stale(service):
    # Only other players' secret choices keep a panel fresh: a public move in between makes it stale.
    gid = await started_table(service, 3, random_seats=False)
    shown = await service.load(gid)
    await service.act(gid, user_at(shown, 0), bet(0))
    with pytest.raises(Refusal, match="moved on"):
        await service.act(gid, user_at(shown, 1), bet(1), chosen_at=shown.seq)


async def test_a_stale_move_is_refused_and_changes_nothing(service):
    gid = await started_table(service, 3, random_seats=False)
    shown = await service.load(gid)
    await service.act(gid, user_at(shown, 0), bet(0), chosen_at=shown.seq)
    now = await service.load(gid)
    with pytest.raises(Refusal) as err:
        await service.act(gid, user_at(shown, 1), bet(2), chosen_at=shown.seq)  # shown before ann's bet
    assert str(err.value) == STALE
    after = await service.load(gid)
    assert (after.seq, after.state) == (now.seq, now.state)
    # the same move against the current seq goes through
    await service.act(gid, user_at(shown, 1), bet(2), chosen_at=now.seq)
    assert (await service.load(gid)).state["bets"] == [0, 2, None]


# --- two processes: the unique seq ---------------------------------------------------------------
async def race(first_call, second, second_call):
    """``second`` (a service) loads the table inside ``second_call``; then ``first_call`` runs to
    its end; only then may ``second`` commit: the worst order two processes racing on the same
    state can produce."""
    second_loaded, first_done = asyncio.Event(), asyncio.Event()
    real_commit = second.store.commit

    async def commit_after_first(game_id, c, now):
        second_loaded.set()
        await first_done.wait()
        return await real_commit(game_id, c, now)

    second.store.commit = commit_after_first

    async def first_runs():
        await second_loaded.wait()
        try:
            return await first_call()
        finally:
            first_done.set()

    async def second_runs():
        try:
            return await second_call()
        finally:
            second_loaded.set()  # if it fails before committing, do not leave the first waiting

    try:
        return await asyncio.gather(first_runs(), second_runs(), return_exceptions=True)
    finally:
        second.store.commit = real_commit


async def test_the_second_process_to_commit_is_told_someone_else_moved(two_processes):
    a, b = two_processes
    gid = await started_table(a, 2, random_seats=False)
    table = await to_card_choice(a, gid)
    ann, ben = user_at(table, 0), user_at(table, 1)
    ann_card, ben_card = min(table.state["hands"][0]), min(table.state["hands"][1])
    won, lost = await race(lambda: a.act(gid, ann, pick(ann_card)), b, lambda: b.act(gid, ben, pick(ben_card)))
    assert not isinstance(won, BaseException), won
    assert isinstance(lost, Refusal) and str(lost) == SOMEONE_ELSE
    # after reloading, b's state includes a's move exactly once, and not its own refused one
    seen = await b.load(gid)
    assert seen.seq == table.seq + 1 and seen.state == won.state
    assert seen.state["picks"] == [ann_card, None]
    assert await player_actions(b, gid, after_seq=table.seq) == [(0, pick(ann_card))]
    # ben tries again through b and it goes through
    done = await b.act(gid, ben, pick(ben_card))
    assert done.state["last"]["picks"] == [ann_card, ben_card]
    assert await player_actions(a, gid, after_seq=table.seq) == [(0, pick(ann_card)), (1, pick(ben_card))]
    assert (await a.load(gid)).state == done.state == await a.full_replay(gid)


async def test_the_same_player_clicking_in_two_processes_moves_once(two_processes):
    a, b = two_processes
    gid = await started_table(a, 3, random_seats=False)
    table = await b.load(gid)
    ann = user_at(table, 0)
    won, lost = await race(lambda: a.act(gid, ann, bet(1)), b, lambda: b.act(gid, ann, bet(2)))
    assert isinstance(lost, Refusal) and str(lost) == SOMEONE_ELSE
    assert await player_actions(a, gid) == [(0, bet(1))]
    assert (await b.load(gid)).state["bets"] == [1, None, None]


async def test_a_process_with_an_older_cache_applies_its_move_after_the_others(two_processes):
    a, b = two_processes
    gid = await started_table(a, 3, random_seats=False)
    table = await b.load(gid)  # b caches the table, then a moves
    await a.act(gid, user_at(table, 0), bet(1))
    moved = await b.act(gid, user_at(table, 1), bet(2))
    assert moved.state["bets"] == [1, 2, None]
    assert await player_actions(a, gid) == [(0, bet(1)), (1, bet(2))]


async def test_a_process_sees_an_undo_made_by_the_other_one(two_processes):
    a, b = two_processes

    async def b_caches_ann_s_pick(gid):
        assert (await b.load(gid)).state["picks"][0] is not None

    gid, _, ann, ben, undo_vote = await pick_then_ask_undo(a, b_caches_ann_s_pick)
    await a.vote_undo(gid, ben, undo_vote, True)
    truth = await a.full_replay(gid)
    assert truth["picks"] == [None, None]
    assert (await b.load(gid)).state == truth, "b still shows the undone pick"


async def test_a_move_through_a_process_that_missed_an_undo_keeps_the_log_replayable(two_processes):
    a, b = two_processes
    gid, table, ann, ben, undo_vote = await pick_then_ask_undo(a, b.load)
    await a.vote_undo(gid, ben, undo_vote, True)
    try:
        await b.act(gid, ben, pick(min(table.state["hands"][1])))
    except Refusal:
        pass  # refusing is fine; storing a move on top of the undone one is not
    assert_no_gap([r.seq for r in await a.store.actions(gid)])
    a._cache.clear()
    assert (await a.load(gid)).state == await a.full_replay(gid)


async def test_an_undo_racing_a_move_in_another_process_leaves_no_gap_in_the_log(two_processes):
    # b loads (ann's pick is the last action) and applies ben's pick; before b commits, a
    # completes the undo of ann's pick. b's commit must not land on top of the undone action.
    a, b = two_processes
    gid, table, ann, ben, undo_vote = await pick_then_ask_undo(a)
    undone, moved = await race(lambda: a.vote_undo(gid, ben, undo_vote, True), b,
                               lambda: b.act(gid, ben, pick(min(table.state["hands"][1]))))
    assert not isinstance(undone, BaseException), undone
    assert_no_gap([r.seq for r in await a.store.actions(gid)])
    assert isinstance(moved, Refusal) and str(moved) == SOMEONE_ELSE, moved
    a._cache.clear()
    assert (await a.load(gid)).state == await a.full_replay(gid)


async def test_an_undo_is_not_reported_done_when_another_process_moved_first(two_processes):
    # a has checked the undo request (ann's pick is the last action) and is about to remove
    # it; b commits ben's pick first. The undo can no longer happen and must not claim it did.
    a, b = two_processes
    gid, table, ann, ben, undo_vote = await pick_then_ask_undo(a)
    told = []

    async def listener(change):
        told.append(change.kind)

    a.listeners.append(listener)
    a_checked, b_done = asyncio.Event(), asyncio.Event()
    real_undo_last = a.store.undo_last

    async def undo_last_after_b(game_id, seq, now, undos, then=None):
        a_checked.set()
        await b_done.wait()
        return await real_undo_last(game_id, seq, now, undos, then)

    a.store.undo_last = undo_last_after_b

    async def b_moves():
        await a_checked.wait()
        try:
            return await b.act(gid, ben, pick(min(table.state["hands"][1])))
        finally:
            b_done.set()

    undone, moved = await asyncio.gather(a.vote_undo(gid, ben, undo_vote, True), b_moves(), return_exceptions=True)
    assert not isinstance(moved, BaseException), moved
    ann_pick_kept = (0, pick(min(table.state["hands"][0]))) in await player_actions(a, gid)
    assert ann_pick_kept  # the move was not undone ...
    assert "undo" not in told and isinstance(undone, Refusal), (told, undone)  # ... so nobody may be told it was


async def test_players_are_seated_in_joining_order_without_random_seats(service):
    # The tests above address seats by PLAYERS order; this guards that assumption.
    gid = await started_table(service, 3, random_seats=False)
    t = await service.load(gid)
    assert [user_at(t, i) for i in range(3)] == [uid for uid, _ in PLAYERS[:3]]


async def test_a_cached_table_reads_its_log_only_when_another_process_added_to_it(two_processes):
    """A move reads its game row; the row says how far the log goes, so a table cached at that point is not read
    again, and a move stored by another process still is."""
    a, b = two_processes
    gid = await started_table(a)
    reads = []
    real = a.store.actions

    async def counting(game_id, after_seq=0):
        reads.append(after_seq)
        return await real(game_id, after_seq=after_seq)

    a.store.actions = counting
    table = await a.load(gid)
    reads.clear()
    again = await a.load(gid)
    assert reads == [] and again.seq == table.seq and again.state == table.state
    other = await b.load(gid)
    await b.act(gid, user_at(other, other.state["turn"]), bet(1))
    seen = await a.load(gid)
    assert reads == [table.seq], "the move b stored is read from the log"
    assert seen.seq == table.seq + 1 and seen.state == (await b.load(gid)).state
    assert seen.game.last_seq == seen.seq and [s.position for s in seen.game.seats] == sorted(
        s.position for s in seen.game.seats)


async def test_the_table_a_move_returns_is_the_one_a_new_read_finds(service, db):
    """A move builds its table from what it committed, without reading the row back: every field (status at the
    end, the ping key, a pending undo vote, whose DMs are closed) is what a fresh process reads."""
    import random

    from tests.service_helpers import random_move
    gid = await started_table(service, players=3)
    await service.store.set_dm_closed(PLAYERS[2][0], True)
    table, rng, undo_asked = await service.load(gid), random.Random(5), False
    while table.game.status == "active":
        user, _, move = random_move(table, rng)
        table = await service.act(gid, user, move)
        other = await open_service(db)
        fresh = await other.load(gid)
        await other.store.close()
        assert (table.game, table.seq, table.state) == (fresh.game, fresh.seq, fresh.state)
        if not undo_asked and table.game.status == "active" and (await service.request_undo(gid, user))[1]:
            undo_asked = True  # a vote is open: the next move carries the pending field it changes
    assert undo_asked and table.game.status == "over"
    assert [s.dm_closed for s in table.game.in_seat_order()].count(True) == 1
