"""Opening either store from what a test holds: a path is a SQLite file, a postgresql:// URL a PostgreSQL
database (tests/pg_server.py starts the server)."""
from __future__ import annotations

from pathlib import Path

from storage import store_for
from storage.base import Store
from storage.postgres import is_postgres_url


def make_store(db: str | Path) -> Store:
    if isinstance(db, str) and is_postgres_url(db):
        return store_for(db, "")
    return store_for(None, db)


async def open_store(db: str | Path) -> Store:
    store = make_store(db)
    await store.open()
    return store


def dialect(store: Store) -> str:
    return "postgres" if store.shared else "sqlite"
