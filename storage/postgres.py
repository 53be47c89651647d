"""PostgreSQL storage through asyncpg: the database several bot processes share (one per group of Discord shards).

The same guarantees as SQLite (storage/sqlite.py): one transaction per commit, the unique (game, seq) key and the
guard refuse a stale commit, numbered migrations at open (storage/migrations/postgres/, the same numbers as
SQLite's), and JSON stored as the text it was written as. What several processes add:

- ``game_lock``: a session advisory lock per table, held on a connection of its own for as long as the table
  service holds the table, so a game's actions run one at a time across processes. Store calls made under it by
  the same task use that connection; a process that dies lets go of its locks with its connections.
- Claims: a due timer or an outbox row is taken by one process with ``FOR UPDATE SKIP LOCKED`` and a lease
  (``claimed_until``), so two processes never fire or send the same one, and a process that dies holding one
  lets another take it when the lease runs out.

Every transaction that writes a game's rows locks the game's row first (``FOR UPDATE``), so two writers of the
same game queue in one order (no deadlock), and the guard that follows reads the log after the other committed.
"""
from __future__ import annotations

import asyncio
import contextlib
import contextvars
import itertools
import json
import re
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from storage import schema
from storage.base import (
    ActionRow,
    Commit,
    DatabaseUnusable,
    GameRow,
    OutboxRow,
    SeatRow,
    SeqConflict,
    Store,
    TimerRow,
)

MAX_SEQ = 2**63 - 1
#: The advisory lock two processes opening a new database at once take to migrate it once (game ids are positive).
MIGRATION_LOCK = -19
#: How long a process may wait for the database to answer a connection (seconds).
CONNECT_TIMEOUT = 10.0
_GAME_COLUMNS = ("id, guild_id, channel_id, engine, data_version, options, status, creator_id, max_players, "
                 "random_seats, reminder_hours, autopass_hours, message_id, last_ping_key, pending, "
                 "created_at, updated_at, undos, lang")
# A game row with its seats (each with its player's closed DMs and language), the seq of its last action and the
# kinds of its timers, in one query (one round trip).
_GAME_SELECT = (f"SELECT {_GAME_COLUMNS}, "
                "(SELECT COALESCE(json_agg(json_build_array(s.position, s.seat, s.user_id, s.name, "
                "COALESCE(u.dm_closed, 0), COALESCE(u.lang, u.seen_lang)) ORDER BY s.position)::text, '[]') "
                "FROM seats s LEFT JOIN users u ON u.user_id = s.user_id WHERE s.game_id = games.id), "
                "(SELECT COALESCE(MAX(seq), 0) FROM actions WHERE actions.game_id = games.id), "
                "(SELECT array_agg(kind) FROM timers WHERE timers.game_id = games.id) FROM games")
_UPDATABLE = {"status", "message_id", "last_ping_key", "pending", "options", "random_seats",
              "reminder_hours", "autopass_hours", "lang"}
_OUTBOX = "SELECT id, kind, target_id, game_id, payload, attempts, due_at, claimed_until FROM outbox "
_SET_TIMER = ("INSERT INTO timers (game_id, kind, due_at, payload) VALUES ($1, $2, $3, $4) ON CONFLICT (game_id, kind) "
              "DO UPDATE SET due_at = EXCLUDED.due_at, payload = EXCLUDED.payload, claimed_until = 0")

#: (task, connection) of the game lock the running task holds: its store calls go through that connection.
_held: contextvars.ContextVar[tuple[asyncio.Task, asyncpg.Connection] | None] = contextvars.ContextVar(
    "storage_postgres_held", default=None)


def is_postgres_url(url: str | None) -> bool:
    return bool(url) and url.split("://", 1)[0] in ("postgresql", "postgres")


def safe_url(url: str) -> str:
    """The URL without its password, to be shown or logged."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rsplit("@", 1)[1]
    return urlunsplit(parts._replace(netloc=f"{parts.username}:***@{host}"))


def numbered(sql: str) -> str:
    """SQL written with SQLite's ``?`` placeholders, numbered for PostgreSQL ($1, $2, ...); for tests and tools
    that query both stores with the same text."""
    counter = itertools.count(1)
    return re.sub(r"\?", lambda _: f"${next(counter)}", sql)


async def check_postgres(url: str) -> None:
    """Before the bot starts: the server answers and lets us in, so a wrong URL stops the start with a sentence."""
    try:
        conn = await asyncpg.connect(url, timeout=CONNECT_TIMEOUT)
    except (TimeoutError, OSError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as e:
        raise DatabaseUnusable(f"{safe_url(url)} cannot be reached ({type(e).__name__}: {e}).") from None
    await conn.close()


class PostgresStore(Store):
    shared = True

    def __init__(self, url: str, *, pool_size: int = 10):
        self.url = url
        self.pool_size = pool_size
        self.pool: asyncpg.Pool | None = None

    async def open(self) -> None:
        try:
            self.pool = await asyncpg.create_pool(self.url, min_size=1, max_size=self.pool_size,
                                                  timeout=CONNECT_TIMEOUT)
        except (TimeoutError, OSError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as e:
            raise DatabaseUnusable(f"{safe_url(self.url)} cannot be reached ({type(e).__name__}: {e}).") from None
        await self._migrate()

    async def close(self) -> None:
        if self.pool is not None:
            pool, self.pool = self.pool, None
            try:
                await asyncio.wait_for(pool.close(), 10)
            except Exception:  # a connection still busy: cut it rather than hang
                pool.terminate()

    async def _migrate(self) -> None:
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            current = await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version")
            for number, sql in schema.migrations("postgres"):
                if number > current:
                    await conn.execute(sql)  # no arguments: the whole file goes as one script
                    await conn.execute("INSERT INTO schema_version VALUES ($1)", number)

    async def schema_version(self) -> int:
        return await self._val("SELECT MAX(version) FROM schema_version")

    # --- connections -------------------------------------------------------------------
    @contextlib.asynccontextmanager
    async def _conn(self) -> AsyncIterator[asyncpg.Connection]:
        """The game lock's connection for the task holding it, else one from the pool."""
        held = _held.get()
        if held is not None and held[0] is asyncio.current_task():
            yield held[1]
            return
        async with self.pool.acquire() as conn:
            yield conn

    @contextlib.asynccontextmanager
    async def game_lock(self, game_id: int) -> AsyncIterator[None]:
        async with self.pool.acquire() as conn:
            await conn.execute("SELECT pg_advisory_lock($1)", game_id)
            token = _held.set((asyncio.current_task(), conn))
            try:
                yield
            finally:
                _held.reset(token)
                # A cancelled unlock is made good by the pool, which unlocks all when it takes the connection back.
                await conn.execute("SELECT pg_advisory_unlock($1)", game_id)

    async def _rows(self, sql: str, args: tuple = ()) -> list[tuple]:
        """Rows of a query written with ``?`` placeholders (as for SQLite): for tests and tools."""
        return await self._fetch(numbered(sql), *args)

    async def _fetch(self, sql: str, *args: Any) -> list[tuple]:
        async with self._conn() as conn:
            return [tuple(r) for r in await conn.fetch(sql, *args)]

    async def _claim(self, sql: str, *args: Any) -> list[tuple]:
        """A claim's UPDATE ... RETURNING, committed without waiting for the disk: a claim the server loses in a
        crash only lets the row or timer be taken again, as when its lease ends; and that wait would cost every
        pass of the outbox a flush of the log."""
        async with self._conn() as conn, conn.transaction():
            await conn.execute("SET LOCAL synchronous_commit = off")
            return [tuple(r) for r in await conn.fetch(sql, *args)]

    async def _val(self, sql: str, *args: Any) -> Any:
        async with self._conn() as conn:
            return await conn.fetchval(sql, *args)

    async def _tx(self, statements: list[tuple[str, tuple]], lock_game: int | None = None,
                  guard: tuple[int, int] | None = None) -> None:
        """Run statements in one transaction. ``lock_game``: the game's row is locked first (every writer of a game
        does this, so they queue in one order); the update of the game's row, if first, is what locks it.
        ``guard`` (last seq, undos): the first statement must be that update, and it changes the row only if the
        game's log ends at that seq after that many undos, else SeqConflict and nothing changes. Consecutive
        statements with the same SQL go in one executemany."""
        async with self._conn() as conn:
            try:
                async with conn.transaction():
                    if guard is not None:
                        await conn.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", lock_game)
                        # a statement after the lock: in READ COMMITTED it sees what the writers we waited for
                        # committed (a subquery of the locking statement would not)
                        (sql, args), statements = statements[0], statements[1:]
                        n = len(args)
                        done = await conn.execute(f"{sql} AND undos = ${n + 1} AND (SELECT COALESCE(MAX(seq), 0) "
                                                  f"FROM actions WHERE game_id = games.id) = ${n + 2}",
                                                  *args, guard[1], guard[0])
                        if done != "UPDATE 1":
                            raise SeqConflict("the game's log moved on")
                    elif lock_game is not None and not statements[0][0].startswith("UPDATE games "):
                        await conn.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", lock_game)
                    for sql, same in itertools.groupby(statements, key=lambda statement: statement[0]):
                        batch = [args for _, args in same]
                        if len(batch) == 1:
                            await conn.execute(sql, *batch[0])
                        else:
                            await conn.executemany(sql, batch)
            except asyncpg.UniqueViolationError as e:
                if e.table_name in ("actions", "snapshots"):
                    raise SeqConflict(f"an action is already stored there ({e.constraint_name})") from None
                raise

    # --- games and seats ---------------------------------------------------
    async def create_game(self, *, guild_id, channel_id, engine, data_version, options, creator_id,
                          max_players, random_seats, reminder_hours, autopass_hours, now, lang="en") -> int:
        return await self._val(
            "INSERT INTO games (guild_id, channel_id, engine, data_version, options, status, creator_id, "
            "max_players, random_seats, reminder_hours, autopass_hours, created_at, updated_at, lang) "
            "VALUES ($1, $2, $3, $4, $5, 'lobby', $6, $7, $8, $9, $10, $11, $11, $12) RETURNING id",
            guild_id, channel_id, engine, data_version, json.dumps(options), creator_id, max_players,
            int(random_seats), float(reminder_hours), float(autopass_hours), float(now), lang)

    @staticmethod
    def _game(r: tuple) -> GameRow:
        seats = [SeatRow(p, s, u, n, bool(closed), lang) for p, s, u, n, closed, lang in json.loads(r[19])]
        return GameRow(id=r[0], guild_id=r[1], channel_id=r[2], engine=r[3], data_version=r[4],
                       options=json.loads(r[5]), status=r[6], creator_id=r[7], max_players=r[8],
                       random_seats=bool(r[9]), reminder_hours=r[10], autopass_hours=r[11], message_id=r[12],
                       last_ping_key=r[13], pending=json.loads(r[14]), created_at=r[15], updated_at=r[16],
                       undos=r[17], lang=r[18], seats=seats, last_seq=r[20], timers=frozenset(r[21] or ()))

    async def game(self, game_id: int) -> GameRow | None:
        rows = await self._fetch(f"{_GAME_SELECT} WHERE id = $1", game_id)
        return self._game(rows[0]) if rows else None

    async def games(self, *, channel_id=None, user_id=None, statuses=("lobby", "active")) -> list[GameRow]:
        where, args = ["status = ANY($1::text[])"], [list(statuses)]
        if channel_id is not None:
            args.append(channel_id)
            where.append(f"channel_id = ${len(args)}")
        if user_id is not None:
            args.append(user_id)
            where.append(f"id IN (SELECT game_id FROM seats WHERE user_id = ${len(args)})")
        rows = await self._fetch(f"{_GAME_SELECT} WHERE {' AND '.join(where)} ORDER BY id", *args)
        return [self._game(r) for r in rows]

    @staticmethod
    def _update_stmt(game_id: int, now: float, fields: dict[str, Any]) -> tuple[str, tuple]:
        bad = set(fields) - _UPDATABLE
        if bad:
            raise ValueError(f"not updatable: {bad}")
        values = [json.dumps(v) if k in ("pending", "options") else _typed(k, v) for k, v in fields.items()]
        sets = "".join(f"{k} = ${i}, " for i, k in enumerate(fields, 1))
        n = len(fields)
        return f"UPDATE games SET {sets}updated_at = ${n + 1} WHERE id = ${n + 2}", (*values, float(now), game_id)

    async def update_game(self, game_id: int, now: float, **fields: Any) -> None:
        await self._tx([self._update_stmt(game_id, now, fields)])

    async def add_seat(self, game_id: int, user_id: int, name: str) -> None:
        await self._tx([("INSERT INTO seats (game_id, position, user_id, name) VALUES ($1, "
                         "(SELECT COALESCE(MAX(position), -1) + 1 FROM seats WHERE game_id = $1), $2, $3)",
                         (game_id, user_id, name))], lock_game=game_id)

    async def remove_seat(self, game_id: int, user_id: int) -> None:
        await self._tx([("DELETE FROM seats WHERE game_id = $1 AND user_id = $2", (game_id, user_id))])

    # --- the action log -------------------------------------------------------
    async def commit(self, game_id: int, c: Commit, now: float) -> None:
        guard = (c.first_seq - 1, c.undos) if c.entries and c.undos is not None else None
        statements = self._commit_stmts(game_id, c, now)
        statements.insert(0, statements.pop())  # the game row's update first: it locks the row
        await self._tx(statements, lock_game=game_id, guard=guard)

    def _commit_stmts(self, game_id: int, c: Commit, now: float) -> list[tuple[str, tuple]]:
        now = float(now)
        stmts = [("INSERT INTO actions (game_id, seq, seat, action, at) VALUES ($1, $2, $3, $4, $5)",
                  (game_id, c.first_seq + i, seat, json.dumps(action), now))
                 for i, (seat, action) in enumerate(c.entries)]
        if c.snapshot is not None:
            stmts.append(("INSERT INTO snapshots (game_id, seq, state) VALUES ($1, $2, $3) "
                          "ON CONFLICT (game_id, seq) DO UPDATE SET state = EXCLUDED.state",
                          (game_id, c.first_seq + len(c.entries) - 1, json.dumps(c.snapshot))))
        stmts += [("INSERT INTO outbox (kind, target_id, game_id, payload, created_at) VALUES ($1, $2, $3, $4, $5)",
                   (kind, target, game_id, json.dumps(payload), now)) for kind, target, payload in c.outbox]
        stmts += [("DELETE FROM timers WHERE game_id = $1 AND kind = $2", (game_id, k)) for k in c.clear_timers]
        stmts += [(_SET_TIMER, (game_id, k, float(due), json.dumps(p))) for k, due, p in c.timers]
        stmts += [("UPDATE seats SET seat = $1 WHERE game_id = $2 AND user_id = $3", (i, game_id, u))
                  for i, u in enumerate(c.seat_order or [])]
        if c.seat_user is not None:
            seat, user_id, name = c.seat_user
            stmts.append(("UPDATE seats SET user_id = $1, name = $2 WHERE game_id = $3 AND seat = $4",
                          (user_id, name, game_id, seat)))
        stmts.append(self._update_stmt(game_id, now, c.game_fields))
        return stmts

    async def actions(self, game_id: int, after_seq: int = 0) -> list[ActionRow]:
        rows = await self._fetch("SELECT seq, seat, action, at FROM actions WHERE game_id = $1 AND seq > $2 "
                                 "ORDER BY seq", game_id, after_seq)
        return [ActionRow(q, s, json.loads(a), t) for q, s, a, t in rows]

    async def last_move_at(self, game_id: int, seat: int) -> float | None:
        return await self._val("SELECT MAX(at) FROM actions WHERE game_id = $1 AND seat = $2", game_id, seat)

    async def undo_last(self, game_id: int, seq: int, now: float, undos: int, then: Commit | None = None) -> None:
        if then is not None and then.entries:
            raise ValueError("an undo stores no new actions")
        now = float(now)
        await self._tx([
            ("UPDATE games SET undos = undos + 1 WHERE id = $1", (game_id,)),
            ("INSERT INTO undone_actions SELECT game_id, seq, seat, action, at, $1 FROM actions "
             "WHERE game_id = $2 AND seq = $3", (now, game_id, seq)),
            ("DELETE FROM actions WHERE game_id = $1 AND seq = $2", (game_id, seq)),
            ("DELETE FROM snapshots WHERE game_id = $1 AND seq >= $2", (game_id, seq)),
            *(self._commit_stmts(game_id, then, now) if then is not None else []),
        ], lock_game=game_id, guard=(seq, undos))

    async def latest_snapshot(self, game_id: int, at_most: int | None = None) -> tuple[int, dict[str, Any]] | None:
        rows = await self._fetch("SELECT seq, state FROM snapshots WHERE game_id = $1 AND seq <= $2 "
                                 "ORDER BY seq DESC LIMIT 1", game_id, MAX_SEQ if at_most is None else at_most)
        return (rows[0][0], json.loads(rows[0][1])) if rows else None

    # --- timers ---------------------------------------------------------------
    async def set_timer(self, game_id, kind, due_at, payload) -> None:
        await self._tx([(_SET_TIMER, (game_id, kind, float(due_at), json.dumps(payload)))])

    async def clear_timer(self, game_id, kind=None) -> None:
        if kind is None:
            await self._tx([("DELETE FROM timers WHERE game_id = $1", (game_id,))])
        else:
            await self._tx([("DELETE FROM timers WHERE game_id = $1 AND kind = $2", (game_id, kind))])

    async def due_timers(self, now: float) -> list[TimerRow]:
        rows = await self._fetch("SELECT game_id, kind, due_at, payload FROM timers WHERE due_at <= $1 "
                                 "ORDER BY due_at, game_id, kind", float(now))
        return [TimerRow(g, k, d, json.loads(p)) for g, k, d, p in rows]

    async def timers(self, game_id: int) -> list[TimerRow]:
        rows = await self._fetch("SELECT game_id, kind, due_at, payload FROM timers WHERE game_id = $1 ORDER BY kind",
                                 game_id)
        return [TimerRow(g, k, d, json.loads(p)) for g, k, d, p in rows]

    async def next_timer_due(self) -> float | None:
        return await self._val("SELECT MIN(GREATEST(due_at, claimed_until)) FROM timers")

    async def claim_timers(self, now: float, until: float, limit: int = 100) -> list[TimerRow]:
        # SKIP LOCKED: a timer another process is claiming this instant is left to it, not waited for
        rows = await self._claim(
            "UPDATE timers t SET claimed_until = $2 FROM (SELECT game_id, kind FROM timers WHERE due_at <= $1 AND "
            "claimed_until <= $1 ORDER BY due_at LIMIT $3 FOR UPDATE SKIP LOCKED) due "
            "WHERE t.game_id = due.game_id AND t.kind = due.kind RETURNING t.game_id, t.kind, t.due_at, t.payload",
            float(now), float(until), limit)
        return sorted((TimerRow(g, k, d, json.loads(p)) for g, k, d, p in rows), key=lambda t: (t.due_at, t.game_id))

    # --- outbox ----------------------------------------------------------------
    async def enqueue(self, kind, target_id, game_id, payload, now) -> int:
        return await self._val("INSERT INTO outbox (kind, target_id, game_id, payload, created_at) "
                               "VALUES ($1, $2, $3, $4, $5) RETURNING id",
                               kind, target_id, game_id, json.dumps(payload), float(now))

    async def pending(self, limit: int = 50, route: tuple[str, int] | None = None) -> list[OutboxRow]:
        if route:
            rows = await self._fetch(_OUTBOX + "WHERE sent_at IS NULL AND failed IS NULL AND kind = $1 AND "
                                     "target_id = $2 ORDER BY id LIMIT $3", *route, limit)
        else:
            rows = await self._fetch(_OUTBOX + "WHERE sent_at IS NULL AND failed IS NULL ORDER BY id LIMIT $1", limit)
        return [OutboxRow(i, k, t, g, json.loads(p), a, d, c) for i, k, t, g, p, a, d, c in rows]

    async def route_heads(self, limit: int = 500) -> list[OutboxRow]:
        rows = await self._fetch(_OUTBOX + "WHERE id IN (SELECT MIN(id) FROM outbox WHERE sent_at IS NULL AND "
                                 "failed IS NULL GROUP BY kind, target_id) ORDER BY id LIMIT $1", limit)
        return [OutboxRow(i, k, t, g, json.loads(p), a, d, c) for i, k, t, g, p, a, d, c in rows]

    async def claim_outbox(self, ids: list[int], now: float, until: float) -> list[int]:
        if not ids:
            return []
        # SKIP LOCKED: a row another process is claiming this instant is its; FOR UPDATE checks the row again
        # as that process committed it (sent, or claimed), so a row is never claimed twice
        rows = await self._claim(
            "UPDATE outbox SET claimed_until = $3 WHERE id IN (SELECT id FROM outbox WHERE id = ANY($1::bigint[]) AND "
            "sent_at IS NULL AND failed IS NULL AND claimed_until <= $2 FOR UPDATE SKIP LOCKED) RETURNING id",
            list(ids), float(now), float(until))
        return sorted(r[0] for r in rows)

    async def mark_sent(self, outbox_id: int, now: float) -> None:
        await self._tx([("UPDATE outbox SET sent_at = $1, attempts = attempts + 1 WHERE id = $2",
                         (float(now), outbox_id))])

    async def mark_failed(self, outbox_id: int, why: str | None, retry_at: float = 0.0) -> None:
        await self._tx([("UPDATE outbox SET attempts = attempts + 1, failed = $1, due_at = $2, claimed_until = 0 "
                         "WHERE id = $3", (why, float(retry_at), outbox_id))])

    # --- users -------------------------------------------------------------------
    async def set_dm_closed(self, user_id: int, closed: bool) -> None:
        await self._tx([("INSERT INTO users (user_id, dm_closed) VALUES ($1, $2) "
                         "ON CONFLICT (user_id) DO UPDATE SET dm_closed = EXCLUDED.dm_closed",
                         (user_id, int(closed)))])

    async def dm_closed(self, user_id: int) -> bool:
        return bool(await self._val("SELECT dm_closed FROM users WHERE user_id = $1", user_id))

    async def set_user_lang(self, user_id: int, lang: str | None, *, chosen: bool = True) -> None:
        column = "lang" if chosen else "seen_lang"
        await self._tx([(f"INSERT INTO users (user_id, {column}) VALUES ($1, $2) "
                         f"ON CONFLICT (user_id) DO UPDATE SET {column} = EXCLUDED.{column}", (user_id, lang))])

    async def user_lang(self, user_id: int) -> tuple[str | None, str | None]:
        rows = await self._fetch("SELECT lang, seen_lang FROM users WHERE user_id = $1", user_id)
        return (rows[0][0], rows[0][1]) if rows else (None, None)


def _typed(column: str, value: Any) -> Any:
    """A game field as its column's type wants it (asyncpg is strict: a float column takes no int, a flag no bool)."""
    if column in ("reminder_hours", "autopass_hours") and value is not None:
        return float(value)
    if column == "random_seats":
        return int(value)
    return value
