"""Hypothesis: random legal games of Dice & Hands keep their invariants, replay exactly,
never leak a secret, and load the same from any snapshot through storage and the service (on SQLite, and on
PostgreSQL with fewer examples: each needs a schema of its own)."""
from __future__ import annotations

import asyncio
import copy
import json
import random
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.errors import Refusal
from engines.base import CHANCE
from engines.chance import draw
from engines.dicehand import DECK_SIZE, DiceHand
from engines.log import replay
from storage.base import Commit
from tests.service_helpers import PLAYERS, open_service, random_move, started_table, user_at
from tests.stores import make_store

E = DiceHand()
ALL_CARDS = list(range(1, DECK_SIZE + 1))
# Every player count with every rounds option the table offers.
PLAYABLE = [(n, r) for n in range(2, 6) for r in range(1, 6)]

# A whole game draws hundreds of choices from st.randoms, so the inputs are large by nature.
LARGE_OK = [HealthCheck.too_slow, HealthCheck.large_base_example, HealthCheck.data_too_large]
FAST = settings(max_examples=50, deadline=None, suppress_health_check=LARGE_OK)
SLOW = settings(max_examples=40, deadline=None, suppress_health_check=LARGE_OK)
ON_POSTGRES = settings(max_examples=8, deadline=None, suppress_health_check=LARGE_OK)

tables = st.tuples(st.sampled_from(PLAYABLE), st.sampled_from([0, 1]))


def values_in(obj):
    yield obj
    if isinstance(obj, dict):
        for v in obj.values():
            yield from values_in(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from values_in(v)


def scrambled_secrets(state, rnd: random.Random):
    """The same state with every hidden thing (hands, deck order, picks) replaced by other
    cards of the same shape: what the public must not depend on."""
    s = copy.deepcopy(state)
    fresh = rnd.sample(ALL_CARDS, DECK_SIZE)
    for i, hand in enumerate(s["hands"]):
        s["hands"][i], fresh = fresh[:len(hand)], fresh[len(hand):]
        if s["picks"][i] is not None:
            s["picks"][i] = rnd.choice(s["hands"][i])
    s["deck"] = fresh[:len(s["deck"])]
    return s


def check_invariants(state, discarded: list[int], rnd: random.Random) -> None:
    assert all(type(x) is int and x >= 0 for x in state["scores"]), state["scores"]
    assert json.loads(json.dumps(state)) == state  # a snapshot is just json.dumps(state)
    if state["phase"] != "shuffle":
        assert sorted(sum(state["hands"], []) + state["deck"] + discarded) == ALL_CARDS
    for seat, p in enumerate(state["picks"]):
        assert p is None or p in state["hands"][seat]
    if state["phase"] == "pick":
        pub = E.public(state)
        assert not {"hand", "hands", "deck", "picks", "my_pick"} & set(pub)
        # scores, bets and hand sizes are public numbers that may coincide with cards
        rest = list(values_in({k: v for k, v in pub.items() if k not in ("scores", "bets", "hand_sizes")}))
        for hand in state["hands"]:
            assert hand not in rest and sorted(hand) not in rest and pub != hand
        assert E.public(scrambled_secrets(state, rnd)) == pub


def play_random_game(n: int, options: dict, rnd: random.Random, check=None):
    """Play to the end with uniformly random legal moves (re-picks and window expiries too).
    Returns the final state and the log as (seq, seat, action)."""
    state = E.setup(options, n)
    log: list[tuple[int, int, dict]] = []
    discarded: list[int] = []
    for _ in range(3000):
        if E.is_over(state):
            return state, log
        aw = E.awaiting(state)
        if aw.chance:
            seat, action = CHANCE, draw(aw.chance, rnd)
        elif aw.window and rnd.random() < 0.1:
            seat, action = CHANCE, E.expire(state)
        else:
            seats = [s for s in range(n) if E.legal(state, s)]
            assert seats, "awaited seats have no legal move"
            # mostly an awaited seat, sometimes one that already chose and changes its mind
            awaited = sorted(aw.seats & set(seats))
            seat = rnd.choice(seats if not awaited or rnd.random() < 0.1 else awaited)
            action = rnd.choice(E.legal(state, seat))
        if action["type"] == "dice":
            discarded += state["picks"]
        state = E.apply(state, seat, action)
        log.append((len(log) + 1, seat, action))
        if check:
            check(state, discarded)
    raise AssertionError("the game did not end")


# --- (a) the engine alone -------------------------------------------------------------------
@FAST
@given(tables, st.randoms(use_true_random=False))
def test_random_legal_games_keep_invariants_and_replay_exactly(table, rnd):
    (n, rounds), window = table
    options = {"rounds": rounds, "window_minutes": window}
    final, log = play_random_game(n, options, rnd, check=lambda s, d: check_invariants(s, d, rnd))
    # the chosen number of rounds, or fewer when a hand ran empty (the early-end ruling)
    assert E.is_over(final) and (final["round"] == rounds or not all(final["hands"]))
    assert final["round"] <= rounds
    assert replay(E, E.setup(options, n), log) == final
    # and from any midpoint: the log is the whole truth
    cut = rnd.randrange(len(log) + 1)
    middle = replay(E, E.setup(options, n), log[:cut])
    assert replay(E, middle, log[cut:]) == final


# --- (b) storage: latest snapshot + the actions after it == the whole log ---------------------
async def commit_in_batches(path: Path | str, n: int, options: dict, log, states, snapshot_every: int,
                            rnd: random.Random) -> None:
    store = make_store(path)
    await store.open()
    try:
        gid = await store.create_game(guild_id=None, channel_id=1, engine="dicehand", data_version=1,
                                      options=options, creator_id=PLAYERS[0][0], max_players=n,
                                      random_seats=False, reminder_hours=0, autopass_hours=0, now=0.0)
        for uid, name in PLAYERS[:n]:
            await store.add_seat(gid, uid, name)
        await store.commit(gid, Commit(first_seq=1, entries=[], seat_order=[uid for uid, _ in PLAYERS[:n]]), now=0.0)
        setup = E.setup(options, n)
        done = 0
        while done < len(log):
            size = rnd.randint(1, 4)
            batch = log[done:done + size]
            last = done + len(batch)
            c = Commit(first_seq=done + 1, entries=[(seat, a) for _, seat, a in batch])
            if last // snapshot_every > done // snapshot_every or rnd.random() < 0.15:
                c.snapshot = states[last - 1]
            await store.commit(gid, c, now=float(last))
            done = last
            snap = await store.latest_snapshot(gid)
            seq, state = snap if snap else (0, setup)
            tail = await store.actions(gid, after_seq=seq)
            assert [a.seq for a in tail] == list(range(seq + 1, done + 1))
            assert replay(E, state, [(a.seq, a.seat, a.action) for a in tail]) == states[done - 1]
        rows = await store.actions(gid)
        assert [(a.seq, a.seat, a.action) for a in rows] == log
        assert replay(E, setup, [(a.seq, a.seat, a.action) for a in rows]) == states[-1]
    finally:
        await store.close()


@SLOW
@given(tables, st.integers(1, 7), st.randoms(use_true_random=False))
def test_latest_snapshot_plus_tail_equals_the_full_replay(table, snapshot_every, rnd):
    (n, rounds), window = table
    options = {"rounds": rounds, "window_minutes": window}
    states = []
    _, log = play_random_game(n, options, rnd, check=lambda s, d: states.append(s))
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(commit_in_batches(Path(tmp) / "g.sqlite3", n, options, log, states, snapshot_every, rnd))


@ON_POSTGRES
@given(tables, st.integers(1, 7), st.randoms(use_true_random=False))
def test_latest_snapshot_plus_tail_equals_the_full_replay_on_postgresql(pg_server, table, snapshot_every, rnd):
    (n, rounds), window = table
    options = {"rounds": rounds, "window_minutes": window}
    states = []
    _, log = play_random_game(n, options, rnd, check=lambda s, d: states.append(s))
    url = pg_server.new_database()
    try:
        asyncio.run(commit_in_batches(url, n, options, log, states, snapshot_every, rnd))
    finally:
        pg_server.drop_database(url)


# --- (b) the table service: a cold load equals the full replay ---------------------------------
async def undo_last_move(service, gid: int, user_id: int) -> None:
    """Ask to undo; if a vote opens, every needed seat agrees. Refusals (chance, reveals) are fine."""
    try:
        table, need = await service.request_undo(gid, user_id)
    except Refusal:
        return
    vote = table.game.pending["undo"]["id"] if need else None
    for seat in need:
        await service.vote_undo(gid, user_at(table, seat), vote, True)


async def play_through_service(path: Path | str, n: int, options: dict, seed: int, snapshot_every: int,
                               rnd: random.Random) -> None:
    service = await open_service(path, seed=seed, snapshot_every=snapshot_every)
    try:
        gid = await started_table(service, n, options)
        for _ in range(400):
            table = await service.load(gid)
            if table.game.status != "active":
                break
            user, _, move = random_move(table, rnd)
            live = await service.act(gid, user, move)
            if rnd.random() < 0.15:
                await undo_last_move(service, gid, user)
                live = await service.load(gid)
            if rnd.random() < 0.3:
                service._cache.clear()
                cold = await service.load(gid)
                assert cold.state == live.state and cold.seq == live.seq
                assert cold.state == await service.full_replay(gid)
        table = await service.load(gid)
        assert table.game.status == "over"
        service._cache.clear()
        assert (await service.load(gid)).state == await service.full_replay(gid) == table.state
        assert table.seq == len(await service.store.actions(gid))
    finally:
        await service.store.close()


@SLOW
@given(tables, st.integers(1, 7), st.integers(0, 2**32))
def test_service_load_from_snapshots_equals_full_replay(table, snapshot_every, seed):
    # A seeded Random rather than st.randoms: hypothesis favours values like 0.0, which here
    # would undo every move and never finish the game.
    (n, rounds), window = table
    options = {"rounds": rounds, "window_minutes": window}
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(play_through_service(Path(tmp) / "g.sqlite3", n, options, seed, snapshot_every,
                                         random.Random(seed)))


@ON_POSTGRES
@given(tables, st.integers(1, 7), st.integers(0, 2**32))
def test_service_load_from_snapshots_equals_full_replay_on_postgresql(pg_server, table, snapshot_every, seed):
    (n, rounds), window = table
    options = {"rounds": rounds, "window_minutes": window}
    url = pg_server.new_database()
    try:
        asyncio.run(play_through_service(url, n, options, seed, snapshot_every, random.Random(seed)))
    finally:
        pg_server.drop_database(url)
