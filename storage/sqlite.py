"""SQLite storage through aiosqlite: WAL, a busy timeout, numbered migrations at open."""
from __future__ import annotations

import asyncio
import itertools
import json
import sqlite3
from pathlib import Path
from typing import Any

import aiosqlite

from storage import schema
from storage.base import ActionRow, Commit, DatabaseUnusable, GameRow, OutboxRow, SeatRow, SeqConflict, Store, TimerRow
from storage.schema import migrations

__all__ = ["SqliteStore", "DatabaseUnusable", "check_database", "migrations", "BUSY_TIMEOUT_MS"]

BUSY_TIMEOUT_MS = 5000
MAX_SEQ = 2**63 - 1
_GAME_COLUMNS = ("id, guild_id, channel_id, engine, data_version, options, status, creator_id, max_players, "
                 "random_seats, reminder_hours, autopass_hours, message_id, last_ping_key, pending, "
                 "created_at, updated_at, undos, lang")
# A game row is read with its seats (and whether each player's DMs are closed, and their language), the seq of its
# last action and the kinds of its timers, in one query: each query is a round trip to aiosqlite's thread.
_GAME_SELECT = (f"SELECT {_GAME_COLUMNS}, "
                "(SELECT json_group_array(json_array(position, seat, user_id, name, COALESCE("
                "(SELECT dm_closed FROM users WHERE users.user_id = seats.user_id), 0), "
                "(SELECT COALESCE(lang, seen_lang) FROM users WHERE users.user_id = seats.user_id))) FROM seats "
                "WHERE seats.game_id = games.id), "
                "(SELECT COALESCE(MAX(seq), 0) FROM actions WHERE actions.game_id = games.id), "
                "(SELECT json_group_array(kind) FROM timers WHERE timers.game_id = games.id) FROM games")
_UPDATABLE = {"status", "message_id", "last_ping_key", "pending", "options", "random_seats",
              "reminder_hours", "autopass_hours", "lang"}


def check_database(path: str | Path) -> None:
    """Before the bot starts: the file (or the folder it will be made in) must be a sound, writable SQLite
    database, so a bad path stops the start with a sentence, not at the first move."""
    path = Path(path)
    if path.exists() and not path.is_file():
        raise DatabaseUnusable(f"{path} is not a file.")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
    except (OSError, sqlite3.Error) as e:
        raise DatabaseUnusable(f"{path} cannot be opened ({e}).") from None
    try:
        problems = [row[0] for row in db.execute("PRAGMA quick_check")]
        if problems != ["ok"]:
            raise DatabaseUnusable(f"{path} is damaged ({'; '.join(problems[:3])}).")
        db.execute("BEGIN IMMEDIATE")  # a write probe, rolled back: a read-only file or folder fails here
        db.execute("CREATE TABLE start_check (x)")
        db.execute("ROLLBACK")
    except sqlite3.DatabaseError as e:
        raise DatabaseUnusable(f"{path} is not a usable SQLite database ({e}).") from None
    finally:
        db.close()


class SqliteStore(Store):
    def __init__(self, path: str | Path):
        self.path = str(path)
        self.db: aiosqlite.Connection | None = None
        # One connection is shared by every coroutine: writes take this lock so two
        # transactions never interleave on it. Other processes are held off by SQLite itself.
        self._write = asyncio.Lock()

    async def open(self) -> None:
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self.db = await aiosqlite.connect(self.path, isolation_level=None)
        await self._rows(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        await self._rows("PRAGMA foreign_keys = ON")
        # Switching to WAL needs a moment alone with the file and SQLite does not wait for
        # it with the busy timeout, so a second process opening the same new file retries.
        for attempt in range(BUSY_TIMEOUT_MS // 50):
            try:
                await self._rows("PRAGMA journal_mode = WAL")
                break
            except sqlite3.OperationalError as e:
                if "locked" not in str(e) or attempt == BUSY_TIMEOUT_MS // 50 - 1:
                    raise
                await asyncio.sleep(0.05)
        await self._migrate()

    async def close(self) -> None:
        if self.db is not None:
            await self.db.close()
            self.db = None

    async def _migrate(self) -> None:
        async with self._write:
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                await self.db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
                async with self.db.execute("SELECT MAX(version) FROM schema_version") as cur:
                    current = (await cur.fetchone())[0] or 0
                for number, sql in migrations():
                    if number > current:
                        for statement in schema.statements(sql):
                            async with self.db.execute(statement):
                                pass
                        await self.db.execute("INSERT INTO schema_version VALUES (?)", (number,))
                await self.db.execute("COMMIT")
            except BaseException:
                try:
                    await self.db.execute("ROLLBACK")
                except sqlite3.OperationalError:
                    pass  # a cancelled COMMIT still ran in sqlite's thread: nothing is left to roll back
                raise  # the original error or cancellation, never the failed rollback

    async def schema_version(self) -> int:
        return (await self._rows("SELECT MAX(version) FROM schema_version"))[0][0]

    async def _tx(self, statements: list[tuple[str, tuple]], guarded: bool = False) -> None:
        """Run statements in one immediate transaction; ``guarded``: the first must change exactly one row, else
        raise SeqConflict and change nothing (see _guard). Each call is a round trip to aiosqlite's thread, so
        consecutive statements with the same SQL (a move's actions, its outbox rows) go in one executemany."""
        async with self._write:
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                for i, (sql, same) in enumerate(itertools.groupby(statements, key=lambda statement: statement[0])):
                    cur = await self.db.executemany(sql, [args for _, args in same])
                    if guarded and i == 0 and cur.rowcount != 1:
                        raise SeqConflict("the game's log moved on")
                await self.db.execute("COMMIT")
            except BaseException:
                try:
                    await self.db.execute("ROLLBACK")
                except sqlite3.OperationalError:
                    pass  # a cancelled COMMIT still ran in sqlite's thread: nothing is left to roll back
                raise  # the original error or cancellation, never the failed rollback

    async def _insert(self, sql: str, args: tuple) -> int:
        """One INSERT, its own transaction; returns the new row's id."""
        async with self._write:
            (rowid,) = await self.db.execute_insert(sql, args)
            return rowid

    async def _rows(self, sql: str, args: tuple = ()) -> list[tuple]:
        return list(await self.db.execute_fetchall(sql, args))

    async def _write_rows(self, sql: str, args: tuple) -> list[tuple]:
        """One statement that writes and returns rows (UPDATE ... RETURNING), its own transaction."""
        async with self._write:
            return list(await self.db.execute_fetchall(sql, args))

    # --- games and seats ---------------------------------------------------
    async def create_game(self, *, guild_id, channel_id, engine, data_version, options, creator_id,
                          max_players, random_seats, reminder_hours, autopass_hours, now, lang="en") -> int:
        return await self._insert(
            "INSERT INTO games (guild_id, channel_id, engine, data_version, options, status, creator_id, "
            "max_players, random_seats, reminder_hours, autopass_hours, created_at, updated_at, lang) "
            "VALUES (?, ?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?)",
            (guild_id, channel_id, engine, data_version, json.dumps(options), creator_id, max_players,
             int(random_seats), reminder_hours, autopass_hours, now, now, lang))

    def _game(self, r: tuple) -> GameRow:
        seats = sorted((SeatRow(p, s, u, n, bool(closed), lang) for p, s, u, n, closed, lang in json.loads(r[19])),
                       key=lambda seat: seat.position)
        return GameRow(id=r[0], guild_id=r[1], channel_id=r[2], engine=r[3], data_version=r[4],
                       options=json.loads(r[5]), status=r[6], creator_id=r[7], max_players=r[8],
                       random_seats=bool(r[9]), reminder_hours=r[10], autopass_hours=r[11], message_id=r[12],
                       last_ping_key=r[13], pending=json.loads(r[14]), created_at=r[15], updated_at=r[16],
                       undos=r[17], lang=r[18], seats=seats, last_seq=r[20], timers=frozenset(json.loads(r[21])))

    async def game(self, game_id: int) -> GameRow | None:
        rows = await self._rows(f"{_GAME_SELECT} WHERE id = ?", (game_id,))
        return self._game(rows[0]) if rows else None

    async def games(self, *, channel_id=None, user_id=None, statuses=("lobby", "active")) -> list[GameRow]:
        where = [f"status IN ({', '.join('?' * len(statuses))})"]
        args: list[Any] = list(statuses)
        if channel_id is not None:
            where.append("channel_id = ?")
            args.append(channel_id)
        if user_id is not None:
            where.append("id IN (SELECT game_id FROM seats WHERE user_id = ?)")
            args.append(user_id)
        rows = await self._rows(f"{_GAME_SELECT} WHERE {' AND '.join(where)} ORDER BY id",
                                tuple(args))
        return [self._game(r) for r in rows]

    @staticmethod
    def _update_stmt(game_id: int, now: float, fields: dict[str, Any]) -> tuple[str, tuple]:
        bad = set(fields) - _UPDATABLE
        if bad:
            raise ValueError(f"not updatable: {bad}")
        values = [json.dumps(v) if k in ("pending", "options") else v for k, v in fields.items()]
        sets = "".join(f"{k} = ?, " for k in fields)
        return f"UPDATE games SET {sets}updated_at = ? WHERE id = ?", (*values, now, game_id)

    async def update_game(self, game_id: int, now: float, **fields: Any) -> None:
        await self._tx([self._update_stmt(game_id, now, fields)])

    async def add_seat(self, game_id: int, user_id: int, name: str) -> None:
        await self._tx([("INSERT INTO seats (game_id, position, user_id, name) VALUES (?, "
                         "(SELECT COALESCE(MAX(position), -1) + 1 FROM seats WHERE game_id = ?), ?, ?)",
                         (game_id, game_id, user_id, name))])

    async def remove_seat(self, game_id: int, user_id: int) -> None:
        await self._tx([("DELETE FROM seats WHERE game_id = ? AND user_id = ?", (game_id, user_id))])

    # --- the action log -------------------------------------------------------
    async def commit(self, game_id: int, c: Commit, now: float) -> None:
        statements = self._commit_stmts(game_id, c, now)
        guarded = bool(c.entries) and c.undos is not None
        if guarded:  # the game's row is updated first, only if its log still ends where the move was computed
            statements.insert(0, self._guard(statements.pop(), c.first_seq - 1, c.undos))
        try:
            await self._tx(statements, guarded=guarded)
        except sqlite3.IntegrityError as e:
            raise SeqConflict(f"game {game_id} already has an action at {c.first_seq}") from e

    @staticmethod
    def _guard(update: tuple[str, tuple], last_seq: int, undos: int) -> tuple[str, tuple]:
        """An update of a game's row that changes it only if its log ends at last_seq with that many undos: run
        first in a guarded transaction, it checks that no other process moved the game on, in the same round trip."""
        sql, args = update
        return (f"{sql} AND undos = ? AND (SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_id = games.id) = ?",
                (*args, undos, last_seq))

    def _commit_stmts(self, game_id: int, c: Commit, now: float) -> list[tuple[str, tuple]]:
        stmts = [("INSERT INTO actions (game_id, seq, seat, action, at) VALUES (?, ?, ?, ?, ?)",
                  (game_id, c.first_seq + i, seat, json.dumps(action), now))
                 for i, (seat, action) in enumerate(c.entries)]
        if c.snapshot is not None:
            stmts.append(("INSERT OR REPLACE INTO snapshots (game_id, seq, state) VALUES (?, ?, ?)",
                          (game_id, c.first_seq + len(c.entries) - 1, json.dumps(c.snapshot))))
        stmts += [("INSERT INTO outbox (kind, target_id, game_id, payload, created_at) VALUES (?, ?, ?, ?, ?)",
                   (kind, target, game_id, json.dumps(payload), now)) for kind, target, payload in c.outbox]
        stmts += [("DELETE FROM timers WHERE game_id = ? AND kind = ?", (game_id, k)) for k in c.clear_timers]
        stmts += [("INSERT OR REPLACE INTO timers (game_id, kind, due_at, payload) VALUES (?, ?, ?, ?)",
                   (game_id, k, due, json.dumps(p))) for k, due, p in c.timers]
        stmts += [("UPDATE seats SET seat = ? WHERE game_id = ? AND user_id = ?", (i, game_id, u))
                  for i, u in enumerate(c.seat_order or [])]
        if c.seat_user is not None:
            seat, user_id, name = c.seat_user
            stmts.append(("UPDATE seats SET user_id = ?, name = ? WHERE game_id = ? AND seat = ?",
                          (user_id, name, game_id, seat)))
        stmts.append(self._update_stmt(game_id, now, c.game_fields))
        return stmts

    async def actions(self, game_id: int, after_seq: int = 0) -> list[ActionRow]:
        rows = await self._rows("SELECT seq, seat, action, at FROM actions WHERE game_id = ? AND seq > ? ORDER BY seq",
                                (game_id, after_seq))
        return [ActionRow(q, s, json.loads(a), t) for q, s, a, t in rows]

    async def last_move_at(self, game_id: int, seat: int) -> float | None:
        rows = await self._rows("SELECT MAX(at) FROM actions WHERE game_id = ? AND seat = ?", (game_id, seat))
        return rows[0][0]

    async def undo_last(self, game_id: int, seq: int, now: float, undos: int, then: Commit | None = None) -> None:
        if then is not None and then.entries:
            raise ValueError("an undo stores no new actions")
        await self._tx([
            self._guard(("UPDATE games SET undos = undos + 1 WHERE id = ?", (game_id,)), seq, undos),
            ("INSERT INTO undone_actions SELECT game_id, seq, seat, action, at, ? FROM actions "
             "WHERE game_id = ? AND seq = ?", (now, game_id, seq)),
            ("DELETE FROM actions WHERE game_id = ? AND seq = ?", (game_id, seq)),
            ("DELETE FROM snapshots WHERE game_id = ? AND seq >= ?", (game_id, seq)),
            *(self._commit_stmts(game_id, then, now) if then is not None else []),
        ], guarded=True)

    async def latest_snapshot(self, game_id: int, at_most: int | None = None) -> tuple[int, dict[str, Any]] | None:
        rows = await self._rows("SELECT seq, state FROM snapshots WHERE game_id = ? AND seq <= ? "
                                "ORDER BY seq DESC LIMIT 1", (game_id, MAX_SEQ if at_most is None else at_most))
        return (rows[0][0], json.loads(rows[0][1])) if rows else None

    # --- timers ---------------------------------------------------------------
    async def set_timer(self, game_id, kind, due_at, payload) -> None:
        await self._tx([("INSERT OR REPLACE INTO timers (game_id, kind, due_at, payload) VALUES (?, ?, ?, ?)",
                         (game_id, kind, due_at, json.dumps(payload)))])

    async def clear_timer(self, game_id, kind=None) -> None:
        if kind is None:
            await self._tx([("DELETE FROM timers WHERE game_id = ?", (game_id,))])
        else:
            await self._tx([("DELETE FROM timers WHERE game_id = ? AND kind = ?", (game_id, kind))])

    async def due_timers(self, now: float) -> list[TimerRow]:
        rows = await self._rows("SELECT game_id, kind, due_at, payload FROM timers WHERE due_at <= ? ORDER BY due_at",
                                (now,))
        return [TimerRow(g, k, d, json.loads(p)) for g, k, d, p in rows]

    async def timers(self, game_id: int) -> list[TimerRow]:
        rows = await self._rows("SELECT game_id, kind, due_at, payload FROM timers WHERE game_id = ?", (game_id,))
        return [TimerRow(g, k, d, json.loads(p)) for g, k, d, p in rows]

    async def next_timer_due(self) -> float | None:
        rows = await self._rows("SELECT MIN(MAX(due_at, claimed_until)) FROM timers")
        return rows[0][0]

    async def claim_timers(self, now: float, until: float, limit: int = 100) -> list[TimerRow]:
        rows = await self._write_rows(
            "UPDATE timers SET claimed_until = ? WHERE rowid IN (SELECT rowid FROM timers WHERE due_at <= ? AND "
            "claimed_until <= ? ORDER BY due_at LIMIT ?) RETURNING game_id, kind, due_at, payload",
            (until, now, now, limit))
        return sorted((TimerRow(g, k, d, json.loads(p)) for g, k, d, p in rows), key=lambda t: (t.due_at, t.game_id))

    # --- outbox ----------------------------------------------------------------
    async def enqueue(self, kind, target_id, game_id, payload, now) -> int:
        return await self._insert("INSERT INTO outbox (kind, target_id, game_id, payload, created_at) "
                                  "VALUES (?, ?, ?, ?, ?)", (kind, target_id, game_id, json.dumps(payload), now))

    _OUTBOX = "SELECT id, kind, target_id, game_id, payload, attempts, due_at, claimed_until FROM outbox "

    async def pending(self, limit: int = 50, route: tuple[str, int] | None = None) -> list[OutboxRow]:
        where, args = ("AND kind = ? AND target_id = ? ", route) if route else ("", ())
        rows = await self._rows(self._OUTBOX + "WHERE sent_at IS NULL AND failed IS NULL " + where +
                                "ORDER BY id LIMIT ?", (*args, limit))
        return [OutboxRow(i, k, t, g, json.loads(p), a, d, c) for i, k, t, g, p, a, d, c in rows]

    async def route_heads(self, limit: int = 500) -> list[OutboxRow]:
        rows = await self._rows(self._OUTBOX + "WHERE id IN (SELECT MIN(id) FROM outbox WHERE sent_at IS NULL AND "
                                "failed IS NULL GROUP BY kind, target_id) ORDER BY id LIMIT ?", (limit,))
        return [OutboxRow(i, k, t, g, json.loads(p), a, d, c) for i, k, t, g, p, a, d, c in rows]

    async def claim_outbox(self, ids: list[int], now: float, until: float) -> list[int]:
        if not ids:
            return []
        rows = await self._write_rows(
            f"UPDATE outbox SET claimed_until = ? WHERE id IN ({', '.join('?' * len(ids))}) AND sent_at IS NULL "
            "AND failed IS NULL AND claimed_until <= ? RETURNING id", (until, *ids, now))
        return sorted(r[0] for r in rows)

    async def mark_sent(self, outbox_id: int, now: float) -> None:
        await self._tx([("UPDATE outbox SET sent_at = ?, attempts = attempts + 1 WHERE id = ?", (now, outbox_id))])

    async def mark_failed(self, outbox_id: int, why: str | None, retry_at: float = 0.0) -> None:
        await self._tx([("UPDATE outbox SET attempts = attempts + 1, failed = ?, due_at = ?, claimed_until = 0 "
                         "WHERE id = ?", (why, retry_at, outbox_id))])

    # --- users -------------------------------------------------------------------
    async def set_dm_closed(self, user_id: int, closed: bool) -> None:
        await self._tx([("INSERT INTO users (user_id, dm_closed) VALUES (?, ?) "
                         "ON CONFLICT(user_id) DO UPDATE SET dm_closed = excluded.dm_closed", (user_id, int(closed)))])

    async def set_user_lang(self, user_id: int, lang: str | None, *, chosen: bool = True) -> None:
        column = "lang" if chosen else "seen_lang"
        await self._tx([(f"INSERT INTO users (user_id, {column}) VALUES (?, ?) "
                         f"ON CONFLICT(user_id) DO UPDATE SET {column} = excluded.{column}", (user_id, lang))])

    async def user_lang(self, user_id: int) -> tuple[str | None, str | None]:
        rows = await self._rows("SELECT lang, seen_lang FROM users WHERE user_id = ?", (user_id,))
        return (rows[0][0], rows[0][1]) if rows else (None, None)

    async def dm_closed(self, user_id: int) -> bool:
        rows = await self._rows("SELECT dm_closed FROM users WHERE user_id = ?", (user_id,))
        return bool(rows and rows[0][0])
