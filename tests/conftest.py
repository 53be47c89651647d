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
