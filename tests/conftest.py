"""Shared fixtures: a bot on a temporary database, run inside SimCord."""
from __future__ import annotations

import pytest

from bot.app import create_bot
from bot.config import Settings
from tests.pg_server import ThrowawayServer


@pytest.fixture
def settings(tmp_path) -> Settings:
    # no pacing: SimCord's clock stands still between steps, and a paced message would wait for advance_time
    return Settings(token=None, db_path=tmp_path / "games.sqlite3", dm_interval=0, send_rate=0)


@pytest.fixture
def simcord_bot(settings):
    return create_bot(settings, sync_on_start=True)


@pytest.fixture
def world(simcord_env):
    """A guild with a #table channel and three members: (env, guild, channel, [ann, ben, cat])."""
    g = simcord_env.create_guild("Game night")
    ch = g.create_text_channel("table")
    members = [g.add_member(simcord_env.create_user(n)) for n in ("ann", "ben", "cat")]
    return simcord_env, g, ch, members


@pytest.fixture(autouse=True)
async def _close_the_bots_database(request):
    """SimCord detaches the bot without calling close(), so the bot's SQLite connection (and
    its worker thread, which keeps the process alive) is closed here after each test."""
    yield
    bot = (getattr(request.node, "funcargs", None) or {}).get("simcord_bot")
    if bot is not None and bot.tables is not None:
        await bot.tables.store.close()


@pytest.fixture(scope="session")
def pg_server():
    """This test process's PostgreSQL server (tests/pg_server.py), started the first time a test needs it."""
    server = ThrowawayServer()
    yield server
    server.stop()


@pytest.fixture
def pg_url(pg_server):
    """A new empty PostgreSQL database for this test: its URL."""
    url = pg_server.new_database()
    yield url
    pg_server.drop_database(url)


@pytest.fixture(params=["sqlite", "postgres"])
def db(request, tmp_path):
    """Where a test's store lives, once per store: a SQLite file, then a PostgreSQL database."""
    if request.param == "sqlite":
        return tmp_path / "store.sqlite3"
    return request.getfixturevalue("pg_url")
