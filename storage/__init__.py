"""Persistence behind one small interface (storage.base.Store): SQLite by default, PostgreSQL when several bot
processes share one database."""
from __future__ import annotations

from pathlib import Path

from storage.base import Store


def store_for(db_url: str | None, db_path: str | Path) -> Store:
    """The store the settings name: PostgreSQL for a ``postgresql://`` URL, else the SQLite file at ``db_path``."""
    from storage.postgres import PostgresStore, is_postgres_url

    if db_url:
        if not is_postgres_url(db_url):
            raise ValueError("BOT_DB_URL must start with postgresql:// (leave it unset to use the SQLite file "
                             "BOT_DB_PATH).")
        return PostgresStore(db_url)
    from storage.sqlite import SqliteStore

    return SqliteStore(db_path)
