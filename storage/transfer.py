"""Copying a SQLite database into PostgreSQL, row for row: every table with its ids, so buttons posted before the
move (their custom ids carry table ids) and queued messages keep working. ``python -m bot migrate`` runs it and
then checks each game (bot/migrate.py)."""
from __future__ import annotations

from storage.postgres import PostgresStore
from storage.sqlite import SqliteStore

#: Every table, parents first, with its columns and the Python type PostgreSQL's column takes (asyncpg's COPY is
#: strict: a DOUBLE PRECISION column takes no int, and SQLite's typing is loose).
TABLES: dict[str, list[tuple[str, type]]] = {
    "games": [("id", int), ("guild_id", int), ("channel_id", int), ("engine", str), ("data_version", int),
              ("options", str), ("status", str), ("creator_id", int), ("max_players", int), ("random_seats", int),
              ("reminder_hours", float), ("autopass_hours", float), ("message_id", int), ("last_ping_key", str),
              ("pending", str), ("created_at", float), ("updated_at", float), ("undos", int), ("lang", str)],
    "seats": [("game_id", int), ("position", int), ("seat", int), ("user_id", int), ("name", str)],
    "actions": [("game_id", int), ("seq", int), ("seat", int), ("action", str), ("at", float)],
    "undone_actions": [("game_id", int), ("seq", int), ("seat", int), ("action", str), ("at", float),
                       ("undone_at", float)],
    "snapshots": [("game_id", int), ("seq", int), ("state", str)],
    "timers": [("game_id", int), ("kind", str), ("due_at", float), ("payload", str), ("claimed_until", float)],
    "outbox": [("id", int), ("kind", str), ("target_id", int), ("game_id", int), ("payload", str),
               ("created_at", float), ("sent_at", float), ("attempts", int), ("failed", str), ("due_at", float),
               ("claimed_until", float)],
    "users": [("user_id", int), ("dm_closed", int), ("lang", str), ("seen_lang", str)],
}
#: Tables whose ids PostgreSQL hands out: its counter goes on after the highest id copied.
IDENTITIES = ("games", "outbox")
BATCH = 5000


class NotEmpty(Exception):
    """The PostgreSQL database already holds tables; the message says so."""


async def copy_all(source: SqliteStore, target: PostgresStore) -> dict[str, int]:
    """Copy every row of ``source`` into ``target`` in one transaction (all or nothing); returns rows per table.
    ``target`` must hold no game yet: copying into a database in use would mix two bots' tables."""
    held = await target._val("SELECT COUNT(*) FROM games")
    if held:
        raise NotEmpty(f"The PostgreSQL database already holds {held} table(s); migrate copies into an empty one.")
    counts = {}
    async with target.pool.acquire() as conn, conn.transaction():
        for table, columns in TABLES.items():
            names = [name for name, _ in columns]
            counts[table] = 0
            async with source.db.execute(f"SELECT {', '.join(names)} FROM {table} ORDER BY rowid") as cur:
                while rows := await cur.fetchmany(BATCH):
                    records = [tuple(None if v is None else kind(v) for v, (_, kind) in zip(row, columns, strict=True))
                               for row in rows]
                    await conn.copy_records_to_table(table, records=records, columns=names)
                    counts[table] += len(records)
        for table in IDENTITIES:
            await conn.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                               f"COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)")
    return counts
