"""Shared fixtures: a bot on a temporary database, run inside SimCord."""
from __future__ import annotations

import pytest

from bot.app import create_bot
from bot.config import Settings


@pytest.fixture
def settings(tmp_path) -> Settings:
    return Settings(token=None, db_path=tmp_path / "games.sqlite3", dm_interval=0)


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
