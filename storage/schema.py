"""The numbered migrations: one list of numbers, each number a file per dialect. SQLite's are
storage/migrations/NNN_*.sql, PostgreSQL's storage/migrations/postgres/NNN_*.sql (the same numbers: a change to
the schema is one number with a file in each folder, since the two speak slightly different SQL)."""
from __future__ import annotations

from importlib import resources

DIALECTS = {"sqlite": (), "postgres": ("postgres",)}


def migrations(dialect: str = "sqlite") -> list[tuple[int, str]]:
    """(number, sql) for every file named NNN_*.sql of the dialect, in order."""
    folder = resources.files("storage") / "migrations"
    for part in DIALECTS[dialect]:
        folder = folder / part
    found = [(int(p.name[:3]), p.read_text(encoding="utf-8")) for p in folder.iterdir() if p.name.endswith(".sql")]
    return sorted(found)


def statements(sql: str) -> list[str]:
    """A migration's statements (split at semicolons: no migration has one inside a string or a body)."""
    return [s for s in sql.split(";") if s.strip()]
