"""Both stores, SQLite and PostgreSQL (each test runs on each, the ``db`` fixture): migrations, the all-or-nothing
commit, the outbox, timers, undo, claims, and two stores on one database standing in for two bot processes; then
what only SQLite has (PRAGMAs, its thread, its file lock)."""
from __future__ import annotations

import asyncio
import sqlite3
from importlib import resources

import pytest

from storage.base import Commit, SeqConflict
from storage.schema import migrations
from storage.sqlite import BUSY_TIMEOUT_MS, SqliteStore
from tests.stores import dialect, make_store, open_store

MIGRATIONS = resources.files("storage") / "migrations"
MIGRATION_FILES = [p.name for p in MIGRATIONS.iterdir() if p.name.endswith(".sql")]
POSTGRES_FILES = [p.name for p in (MIGRATIONS / "postgres").iterdir() if p.name.endswith(".sql")]


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "store.sqlite3"


@pytest.fixture
async def store(db):
    s = await open_store(db)
    yield s
    await s.close()


@pytest.fixture
async def sqlite_store(db_path):
    s = SqliteStore(db_path)
    await s.open()
    yield s
    await s.close()


async def table_names(store) -> set[str]:
    sql = ("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()" if dialect(store) == "postgres" else
           "SELECT name FROM sqlite_master WHERE type = 'table'")
    return {r[0] for r in await store._rows(sql)}


async def new_game(store, now: float = 100.0) -> int:
    gid = await store.create_game(guild_id=1, channel_id=2, engine="dicehand", data_version=1, options={"rounds": 3},
                                  creator_id=11, max_players=3, random_seats=False, reminder_hours=24,
                                  autopass_hours=0, now=now)
    for uid, name in ((11, "ann"), (12, "ben")):
        await store.add_seat(gid, uid, name)
    await store.commit(gid, Commit(first_seq=1, entries=[], seat_order=[11, 12]), now=now)
    return gid


def bet(n):
    return {"type": "bet", "amount": n}


async def count(store, table: str, game_id: int) -> int:
    return (await store._rows(f"SELECT COUNT(*) FROM {table} WHERE game_id = ?", (game_id,)))[0][0]


# --- opening ---------------------------------------------------------------------------------
def test_each_dialect_has_a_file_for_every_migration_number():
    """One numbered list: a change to the schema is a number with a file in each dialect's folder."""
    assert MIGRATION_FILES, "storage/migrations holds the schema"
    assert [n for n, _ in migrations("sqlite")] == [n for n, _ in migrations("postgres")] == \
        list(range(1, len(MIGRATION_FILES) + 1))
    assert sorted(name[:3] for name in POSTGRES_FILES) == sorted(name[:3] for name in MIGRATION_FILES)


async def test_every_migration_is_applied_once_at_open(store):
    assert await store.schema_version() == len(MIGRATION_FILES) == len(migrations(dialect(store)))
    rows = await store._rows("SELECT version FROM schema_version ORDER BY version")
    assert [r[0] for r in rows] == [n for n, _ in migrations(dialect(store))]
    tables = await table_names(store)
    assert {"games", "seats", "actions", "undone_actions", "snapshots", "timers", "outbox", "users"} <= tables


async def test_wal_busy_timeout_and_foreign_keys_are_set(sqlite_store):
    store = sqlite_store
    assert (await store._rows("PRAGMA journal_mode"))[0][0] == "wal"
    assert (await store._rows("PRAGMA busy_timeout"))[0][0] == BUSY_TIMEOUT_MS > 0
    assert (await store._rows("PRAGMA foreign_keys"))[0][0] == 1


async def test_reopening_the_database_keeps_data_and_does_not_migrate_again(db):
    first = await open_store(db)
    gid = await new_game(first)
    await first.close()
    again = await open_store(db)  # a second CREATE TABLE games would raise here
    try:
        rows = await again._rows("SELECT version FROM schema_version")
        assert len(rows) == len(MIGRATION_FILES)
        assert (await again.game(gid)).options == {"rounds": 3}
    finally:
        await again.close()


# --- the action log ------------------------------------------------------------------------------
async def test_commit_stores_entries_at_consecutive_seqs_with_everything_else(store):
    gid = await new_game(store)
    c = Commit(first_seq=1, entries=[(0, bet(1)), (-1, {"type": "dice", "values": [4]})],
               snapshot={"phase": "bet"}, outbox=[("dm", 11, {"game_id": gid, "seat": 0})],
               timers=[("reminder", 500.0, {})], game_fields={"last_ping_key": "k"})
    await store.commit(gid, c, now=200.0)
    assert [(a.seq, a.seat, a.action, a.at) for a in await store.actions(gid)] == [
        (1, 0, bet(1), 200.0), (2, -1, {"type": "dice", "values": [4]}, 200.0)]
    assert [a.seq for a in await store.actions(gid, after_seq=1)] == [2]
    assert await store.latest_snapshot(gid) == (2, {"phase": "bet"})  # the state after the last entry
    assert [(o.kind, o.target_id, o.payload) for o in await store.pending()] == [
        ("dm", 11, {"game_id": gid, "seat": 0})]
    assert [(t.kind, t.due_at) for t in await store.due_timers(500.0)] == [("reminder", 500.0)]
    game = await store.game(gid)
    assert game.last_ping_key == "k" and game.updated_at == 200.0


async def test_a_commit_at_an_existing_seq_raises_seq_conflict_and_leaves_nothing_behind(store):
    gid = await new_game(store)
    await store.commit(gid, Commit(first_seq=1, entries=[(0, bet(1))]), now=1.0)
    await store.commit(gid, Commit(first_seq=2, entries=[(1, bet(2))], snapshot={"s": 2}), now=2.0)
    clash = Commit(first_seq=2, entries=[(1, bet(0)), (0, bet(0))], snapshot={"s": "clash"},
                   outbox=[("dm", 12, {"x": 1}), ("channel", 2, {"kind": "ping"})],
                   timers=[("reminder", 9.0, {}), ("window", 9.0, {})], game_fields={"status": "over"})
    with pytest.raises(SeqConflict):
        await store.commit(gid, clash, now=3.0)
    assert [(a.seq, a.action) for a in await store.actions(gid)] == [(1, bet(1)), (2, bet(2))]
    assert await store.latest_snapshot(gid) == (2, {"s": 2})
    assert await store.pending() == []
    assert await store.due_timers(1e9) == []
    game = await store.game(gid)
    assert game.status == "lobby" and game.updated_at == 2.0


async def test_a_conflict_on_a_later_entry_of_the_batch_also_rolls_back_the_first(store):
    gid = await new_game(store)
    await store.commit(gid, Commit(first_seq=2, entries=[(0, bet(2))]), now=1.0)
    with pytest.raises(SeqConflict):
        await store.commit(gid, Commit(first_seq=1, entries=[(0, bet(1)), (1, bet(1))]), now=2.0)
    assert [a.seq for a in await store.actions(gid)] == [2]


async def test_a_commit_without_entries_still_stores_its_outbox_and_timers(store):
    # Reminders and undo notices commit no action, so no seq is taken.
    gid = await new_game(store)
    await store.commit(gid, Commit(first_seq=1, entries=[], outbox=[("channel", 2, {"kind": "reminder"})],
                                   timers=[("reminder", 50.0, {})]), now=1.0)
    await store.commit(gid, Commit(first_seq=1, entries=[(0, bet(0))]), now=2.0)
    assert [a.seq for a in await store.actions(gid)] == [1]
    assert len(await store.pending()) == 1


async def test_undo_last_moves_the_action_to_undone_and_drops_snapshots_at_or_after_it(store):
    gid = await new_game(store)
    for seq in (1, 2, 3):
        await store.commit(gid, Commit(first_seq=seq, entries=[(seq % 2, bet(seq % 3))], snapshot={"after": seq}),
                           now=float(seq))
    assert (await store.game(gid)).undos == 0
    await store.undo_last(gid, 3, now=10.0, undos=0)
    assert (await store.game(gid)).undos == 1  # tells other processes their cached state is stale
    assert [a.seq for a in await store.actions(gid)] == [1, 2]
    assert await store.latest_snapshot(gid) == (2, {"after": 2})
    undone = await store._rows("SELECT game_id, seq, seat, action, at, undone_at FROM undone_actions")
    assert undone == [(gid, 3, 1, '{"type": "bet", "amount": 0}', 3.0, 10.0)]
    # the seq is free again for the next move
    await store.commit(gid, Commit(first_seq=3, entries=[(1, bet(2))]), now=11.0)
    assert [(a.seq, a.action) for a in await store.actions(gid)][-1] == (3, bet(2))


async def test_undo_last_refuses_to_remove_an_action_that_is_not_the_last(store):
    gid = await new_game(store)
    for seq in (1, 2):
        await store.commit(gid, Commit(first_seq=seq, entries=[(0, bet(1))]), now=float(seq))
    with pytest.raises(SeqConflict):
        await store.undo_last(gid, 1, now=5.0, undos=0)
    with pytest.raises(SeqConflict):  # the last action, but another undo happened since it was read
        await store.undo_last(gid, 2, now=5.0, undos=1)
    assert [a.seq for a in await store.actions(gid)] == [1, 2]
    assert (await store.game(gid)).undos == 0
    assert await count(store, "undone_actions", gid) == 0


async def test_a_move_computed_on_the_log_is_stored_only_while_the_log_still_ends_there(store):
    """A commit carrying the undo count it was computed against checks, in the same transaction, that no undo
    happened and that the log ends just before it: no gap, no action stored after it by another process."""
    gid = await new_game(store)
    await store.commit(gid, Commit(first_seq=1, entries=[(0, bet(1))], undos=0), now=1.0)
    await store.commit(gid, Commit(first_seq=2, entries=[(1, bet(1))], undos=0), now=2.0)
    await store.undo_last(gid, 2, now=3.0, undos=0)
    before = await store.game(gid)
    refused = [Commit(first_seq=2, entries=[(1, bet(2))], undos=0, outbox=[("dm", 12, {})]),  # before the undo
               Commit(first_seq=3, entries=[(1, bet(2))], undos=1, outbox=[("dm", 12, {})]),  # a gap after seq 1
               Commit(first_seq=1, entries=[(1, bet(2))], undos=1, outbox=[("dm", 12, {})])]  # seq 1 is taken
    for c in refused:
        with pytest.raises(SeqConflict):
            await store.commit(gid, c, now=4.0)
    assert [a.seq for a in await store.actions(gid)] == [1]
    assert await store.game(gid) == before and await count(store, "outbox", gid) == 0
    await store.commit(gid, Commit(first_seq=2, entries=[(1, bet(2))], undos=1), now=5.0)
    assert [(a.seq, a.action) for a in await store.actions(gid)] == [(1, bet(1)), (2, bet(2))]


# --- outbox ----------------------------------------------------------------------------------------
async def test_outbox_pending_mark_sent_and_mark_failed(store):
    gid = await new_game(store)
    a = await store.enqueue("dm", 11, gid, {"n": 1}, now=1.0)
    b = await store.enqueue("channel", 2, gid, {"n": 2}, now=1.0)
    c = await store.enqueue("dm", 12, None, {"n": 3}, now=1.0)
    assert [o.id for o in await store.pending()] == [a, b, c]  # oldest first
    assert [o.id for o in await store.pending(limit=2)] == [a, b]
    await store.mark_sent(a, now=2.0)
    await store.mark_failed(b, None, retry_at=9.0)  # a retryable failure: still pending, waiting, one attempt
    pend = {o.id: o for o in await store.pending()}
    assert set(pend) == {b, c} and (pend[b].attempts, pend[b].due_at) == (1, 9.0) and pend[c].attempts == 0
    await store.mark_failed(b, None, retry_at=20.0)
    assert next(o for o in await store.pending() if o.id == b).attempts == 2
    await store.mark_failed(c, "DMs closed")  # given up for good
    assert [o.id for o in await store.pending()] == [b]
    rows = await store._rows("SELECT id, sent_at, attempts, failed FROM outbox ORDER BY id")
    assert rows == [(a, 2.0, 1, None), (b, None, 2, None), (c, None, 1, "DMs closed")]


async def test_each_route_shows_its_oldest_pending_row(store):
    gid = await new_game(store)
    ids = [await store.enqueue(kind, target, gid, {"n": n}, now=1.0)
           for n, (kind, target) in enumerate([("dm", 11), ("channel", 2), ("dm", 11), ("dm", 12), ("channel", 2)])]
    assert [(o.id, o.route) for o in await store.route_heads()] == [
        (ids[0], ("dm", 11)), (ids[1], ("channel", 2)), (ids[3], ("dm", 12))]
    await store.mark_sent(ids[0], now=2.0)
    await store.mark_failed(ids[1], "given up")
    assert [o.id for o in await store.route_heads()] == [ids[2], ids[3], ids[4]]
    assert [o.id for o in await store.pending(route=("dm", 11))] == [ids[2]]


async def test_a_cancellation_during_commit_stays_a_cancellation(sqlite_store, monkeypatch):
    """A task cancelled while its COMMIT waits in sqlite's thread: the COMMIT still runs there
    before the ROLLBACK, which then fails. The caller must see the cancellation, not that failure:
    the outbox loop treats other errors as a pass to retry and would never stop."""
    store = sqlite_store
    gid = await new_game(store)
    a = await store.enqueue("dm", 11, gid, {"n": 1}, now=1.0)
    execute = store.db.execute

    async def cancelled():
        raise asyncio.CancelledError

    async def commit_then_rollback(*args):
        await execute("COMMIT")  # the thread runs the queued COMMIT first
        return await execute("ROLLBACK", *args)

    def racing(sql, *args):
        return {"COMMIT": cancelled, "ROLLBACK": commit_then_rollback}.get(sql, lambda *a: execute(sql, *a))(*args)

    monkeypatch.setattr(store.db, "execute", racing)
    with pytest.raises(asyncio.CancelledError):
        await store.mark_sent(a, now=2.0)
    monkeypatch.undo()
    assert await store._rows("SELECT sent_at FROM outbox WHERE id = ?", (a,)) == [(2.0,)], \
        "the COMMIT had gone through"


# --- timers ----------------------------------------------------------------------------------------
async def test_timers_set_replace_clear_and_due(store):
    g1, g2 = await new_game(store), await new_game(store)
    await store.set_timer(g1, "reminder", 100.0, {})
    await store.set_timer(g1, "window", 50.0, {"seq": 4})
    await store.set_timer(g2, "reminder", 70.0, {})
    assert await store.next_timer_due() == 50.0
    assert [(t.game_id, t.kind, t.payload) for t in await store.due_timers(70.0)] == [
        (g1, "window", {"seq": 4}), (g2, "reminder", {})]  # due ones, soonest first
    await store.set_timer(g1, "window", 200.0, {"seq": 5})  # one timer per kind: replaced
    assert await count(store, "timers", g1) == 2
    assert [(t.kind, t.payload) for t in await store.due_timers(200.0) if t.game_id == g1] == [
        ("reminder", {}), ("window", {"seq": 5})]
    await store.clear_timer(g1, "reminder")
    assert [t.kind for t in await store.due_timers(1e9) if t.game_id == g1] == ["window"]
    await store.clear_timer(g1)
    assert [t.game_id for t in await store.due_timers(1e9)] == [g2]
    await store.clear_timer(g2)
    assert await store.next_timer_due() is None


async def test_dm_closed_is_remembered_per_user(store):
    assert await store.dm_closed(11) is False
    await store.set_dm_closed(11, True)
    assert await store.dm_closed(11) is True and await store.dm_closed(12) is False
    await store.set_dm_closed(11, False)
    assert await store.dm_closed(11) is False


async def test_languages_a_table_keeps_its_own_and_a_seat_reads_its_players_chosen_before_seen(store):
    gid = await store.create_game(guild_id=1, channel_id=2, engine="dicehand", data_version=1, options={},
                                  creator_id=11, max_players=3, random_seats=False, reminder_hours=24,
                                  autopass_hours=0, now=1.0, lang="ja")
    await store.add_seat(gid, 11, "ann")
    await store.add_seat(gid, 12, "ben")
    game = await store.game(gid)
    assert game.lang == "ja" and [s.lang for s in game.seats] == [None, None]  # nothing known of them yet
    await store.set_user_lang(11, "en", chosen=False)  # ann's client showed English
    await store.set_user_lang(12, "ja", chosen=False)
    await store.set_user_lang(12, "en")  # ben chose English with /language: it wins over what his client shows
    assert [s.lang for s in (await store.game(gid)).seats] == ["en", "en"]
    assert await store.user_lang(12) == ("en", "ja")
    await store.set_user_lang(12, None)  # back to following his client
    assert [s.lang for s in (await store.game(gid)).seats] == ["en", "ja"]
    await store.update_game(gid, 2.0, lang="en")
    assert (await store.game(gid)).lang == "en"
    assert (await store.game(await new_game(store))).lang == "en"  # a table made without one: English


# --- two processes on one database ------------------------------------------------------------------
async def test_two_stores_on_one_database_see_each_others_commits(db):
    a, b = await open_store(db), await open_store(db)
    try:
        gid = await new_game(a)
        await a.commit(gid, Commit(first_seq=1, entries=[(0, bet(1))]), now=1.0)
        assert [x.seq for x in await b.actions(gid)] == [1]
        with pytest.raises(SeqConflict):
            await b.commit(gid, Commit(first_seq=1, entries=[(0, bet(2))]), now=2.0)
    finally:
        await a.close()
        await b.close()


@pytest.mark.parametrize("round_", range(5))
async def test_two_stores_racing_for_the_same_seq_exactly_one_wins(db, round_):
    a, b = await open_store(db), await open_store(db)
    try:
        gid = await new_game(a)
        await a.commit(gid, Commit(first_seq=1, entries=[(0, bet(0))]), now=1.0)
        results = await asyncio.gather(
            a.commit(gid, Commit(first_seq=2, entries=[(1, bet(1))], outbox=[("dm", 11, {"by": "a"})]), now=2.0),
            b.commit(gid, Commit(first_seq=2, entries=[(1, bet(2))], outbox=[("dm", 11, {"by": "b"})]), now=2.0),
            return_exceptions=True)
        conflicts = [r for r in results if isinstance(r, SeqConflict)]
        assert len(conflicts) == 1 and results.count(None) == 1, results
        winner = "a" if results[0] is None else "b"
        rows = await a.actions(gid)
        assert [x.seq for x in rows] == [1, 2]
        assert rows[1].action == bet(1 if winner == "a" else 2)
        assert [o.payload for o in await b.pending()] == [{"by": winner}]  # the loser left no DM behind
    finally:
        await a.close()
        await b.close()


async def test_two_processes_opening_a_new_database_at_once_migrate_it_once(db):
    a, b = make_store(db), make_store(db)
    try:
        await asyncio.gather(a.open(), b.open())
        assert await a.schema_version() == await b.schema_version() == len(MIGRATION_FILES)
        assert len(await a._rows("SELECT version FROM schema_version")) == len(MIGRATION_FILES)
    finally:
        await a.close()
        await b.close()


async def test_a_writer_waits_out_another_process_lock_instead_of_failing(db_path):
    # Without busy_timeout, a writer blocked by another process's open transaction would fail
    # with "database is locked"; with it, the store waits and then commits.
    a = SqliteStore(db_path)
    await a.open()
    gid = await new_game(a)
    raw = sqlite3.connect(db_path, isolation_level=None)
    try:
        raw.execute("BEGIN IMMEDIATE")
        task = asyncio.create_task(a.commit(gid, Commit(first_seq=1, entries=[(0, bet(1))]), now=1.0))
        await asyncio.sleep(0.3)
        assert not task.done()  # waiting on the other writer's lock, not failed
        raw.execute("COMMIT")
        await asyncio.wait_for(task, 5)
        assert [x.seq for x in await a.actions(gid)] == [1]
    finally:
        raw.close()
        await a.close()


# --- several processes: claims, the game lock, racing writers ---------------------------------------------------
async def test_due_timers_are_claimed_by_exactly_one_of_two_processes_until_the_lease_ends(db):
    a, b = await open_store(db), await open_store(db)
    try:
        games = [await new_game(a) for _ in range(6)]
        for i, gid in enumerate(games):
            await a.set_timer(gid, "reminder", 10.0 + i, {"n": i})
        await a.set_timer(games[0], "window", 500.0, {})  # not due yet
        got = await asyncio.gather(*(s.claim_timers(100.0, until=160.0, limit=4) for s in (a, b, a, b)))
        claimed = [(t.game_id, t.kind) for batch in got for t in batch]
        assert sorted(claimed) == sorted((gid, "reminder") for gid in games), "each due timer once, none twice"
        assert await b.claim_timers(150.0, until=210.0) == []  # still held
        assert await a.next_timer_due() == 160.0  # a held timer is not due again before its claim ends
        again = await b.claim_timers(161.0, until=221.0)  # the claimer died: the lease ran out
        assert sorted(t.game_id for t in again) == sorted(games)
        await a.set_timer(games[1], "reminder", 200.0, {})  # set anew (by a move): its claim ends
        await a.clear_timer(games[2])
        assert {(t.game_id, t.due_at) for t in await a.timers(games[1])} == {(games[1], 200.0)}
        assert [t.game_id for t in await a.claim_timers(200.0, until=400.0)] == [games[1]]
    finally:
        await a.close()
        await b.close()


async def test_an_outbox_row_is_claimed_by_exactly_one_process_and_sent_rows_never(db):
    a, b = await open_store(db), await open_store(db)
    try:
        gid = await new_game(a)
        ids = [await a.enqueue("dm", 11 + n % 3, gid, {"n": n}, now=1.0) for n in range(9)]
        got = await asyncio.gather(a.claim_outbox(ids, 5.0, 65.0), b.claim_outbox(ids, 5.0, 65.0),
                                   b.claim_outbox(ids[::-1], 5.0, 65.0))
        assert sorted(i for batch in got for i in batch) == ids, got
        heads = await b.route_heads()
        assert [h.claimed_until for h in heads] == [65.0] * 3  # the outbox waits for a held route's head
        await a.mark_sent(ids[0], now=6.0)
        await a.mark_failed(ids[1], None, retry_at=30.0)  # a failed try lets go of the row
        assert await b.claim_outbox(ids, 10.0, 70.0) == [ids[1]]
        assert await b.claim_outbox(ids, 70.0, 130.0) == ids[1:]  # every lease ran out; the sent row is never claimed
    finally:
        await a.close()
        await b.close()


async def test_the_game_lock_holds_a_table_across_processes(db):
    """Shared stores (PostgreSQL) hold a table across processes; SQLite's lock is the process's own (none here)."""
    a, b = await open_store(db), await open_store(db)
    try:
        g1, g2 = await new_game(a), await new_game(a)
        order = []

        async def hold(store, gid, name, pause):
            async with store.game_lock(gid):
                order.append(f"{name} in")
                await store.commit(gid, Commit(first_seq=len(order), entries=[]), now=1.0)  # works under the lock
                await asyncio.sleep(pause)
                order.append(f"{name} out")

        first = asyncio.create_task(hold(a, g1, "a", 0.3))
        await asyncio.sleep(0.1)
        await asyncio.gather(hold(b, g1, "b", 0), hold(b, g2, "other table", 0))
        await first
        if a.shared:
            assert order.index("b in") > order.index("a out"), order
            assert order.index("other table in") < order.index("a out"), "another table is not held up"
        else:
            assert order.index("b in") < order.index("a out"), order
    finally:
        await a.close()
        await b.close()


@pytest.mark.parametrize("round_", range(4))
async def test_an_undo_and_a_move_racing_in_two_processes_leave_no_gap(db, round_):
    """The undo of seq 2 and a move computed after it (at seq 3) race: exactly one is stored, never the move on top
    of an undone action."""
    a, b = await open_store(db), await open_store(db)
    try:
        gid = await new_game(a)
        for seq in (1, 2):
            await a.commit(gid, Commit(first_seq=seq, entries=[(seq % 2, bet(seq))], undos=0), now=1.0)
        calls = [a.undo_last(gid, 2, now=2.0, undos=0),
                 b.commit(gid, Commit(first_seq=3, entries=[(1, bet(3))], undos=0), now=2.0)]
        results = await asyncio.gather(*(calls if round_ % 2 else calls[::-1]), return_exceptions=True)
        assert sum(isinstance(r, SeqConflict) for r in results) == 1 and results.count(None) == 1, results
        seqs = [x.seq for x in await a.actions(gid)]
        assert seqs in ([1], [1, 2, 3]), seqs
    finally:
        await a.close()
        await b.close()
