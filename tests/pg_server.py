"""A real PostgreSQL server for the tests, started by them: the pgserver package (PyPI) carries the server's
binaries, so a fresh machine needs nothing else. One server per test process (each xdist worker starts its own,
in a temporary folder, in a few seconds), and a new empty schema for each test that asks for a database: its URL
names the schema (``search_path``, which asyncpg passes to the server), so the bot's tables land there. A schema
costs a few milliseconds where a new database costs a copy of the template (most of a second on a busy machine).

Durability is switched off on this throw-away server (fsync, synchronous_commit): a test kills bot processes,
never the server, so it changes nothing the tests check and makes creating a database ten times faster. The
bench (bench/bench_processes.py) keeps the defaults."""
from __future__ import annotations

import itertools
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

#: Settings of the throw-away server: durability off (see above), connections for several bot processes' pools.
TUNING = ("ALTER SYSTEM SET fsync = off; ALTER SYSTEM SET synchronous_commit = off; "
          "ALTER SYSTEM SET full_page_writes = off; SELECT pg_reload_conf();")

_counter = itertools.count(1)


class ThrowawayServer:
    def __init__(self, durable: bool = False):
        import pgserver

        # Not under pytest's temporary folder: that is private to root, while the server runs as a user of its own
        # when the tests run as root, and pytest removes old runs' folders, which a server still running would lose.
        self.folder = Path(tempfile.mkdtemp(prefix="boardbot-pg-"))
        self.folder.chmod(0o755)
        self.server = pgserver.get_server(self.folder / "data", cleanup_mode="delete")
        if not durable:
            self.server.psql(TUNING)

    def url(self, database: str = "postgres") -> str:
        return self.server.get_uri(database)

    def new_database(self) -> str:
        """A new empty schema: the URL of a database whose tables go there."""
        name = f"t{os.getpid()}_{next(_counter)}"
        self.server.psql(f"CREATE SCHEMA {name};")
        return f"{self.url()}&search_path={name}"

    def drop_database(self, url: str) -> None:
        name = url.rsplit("search_path=", 1)[1]
        try:
            self.server.psql(f"SET client_min_messages TO warning; DROP SCHEMA IF EXISTS {name} CASCADE;")
        except subprocess.CalledProcessError:
            pass  # the server is going away with the process anyway

    def stop(self) -> None:
        self.server.cleanup()
        shutil.rmtree(self.folder, ignore_errors=True)
