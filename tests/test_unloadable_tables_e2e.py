"""A table this version of the bot cannot load (its game's data is gone) says so, can still be abandoned, and
never breaks another command; an option that cannot work is refused when the table is made."""
from __future__ import annotations

import random

import pytest

from bot.app import create_bot
from engines.boss.board import BOARDS
from tests.helpers import create_table, start_table, table_message


@pytest.fixture
def simcord_bot(settings):
    return create_bot(settings, sync_on_start=True, rng=random.Random(5))


async def test_a_printed_board_the_server_lacks_is_refused_at_creation(world, monkeypatch):
    env, g, ch, (ann, ben, cat) = world
    monkeypatch.delitem(BOARDS, "printed", raising=False)
    r = await ann.slash(ch, "game create", game="boss", options="board=printed")
    assert r.ephemeral
    assert r.response.content == "This server has no printed board; an admin sets BOT_BOSS_BOARD to a board file."
    assert await env.bot.tables.store.games(channel_id=ch.id) == []


async def test_a_table_that_cannot_load_says_so_and_can_be_abandoned(world, monkeypatch):
    env, g, ch, (ann, ben, cat) = world
    monkeypatch.setitem(BOARDS, "printed", BOARDS["ours"])
    broken = await start_table(ch, ann, [ben, cat], game="boss", options="board=printed")
    fine = await start_table(ch, ann, [ben], game="dicehand", players=2)
    monkeypatch.delitem(BOARDS, "printed")  # the admin took the board file away
    env.bot.tables._cache.clear()  # as after a restart

    why = (f"Table {broken} cannot be loaded (This server has no printed board; an admin sets BOT_BOSS_BOARD "
           f"to a board file). Its creator or a member with Manage Server can end it with "
           f"`/game abandon table:{broken}`.")
    r = await ben.click(table_message(ch, broken), label="My hand & moves")
    assert r.ephemeral and r.response.content == why
    r = await ann.slash(ch, "game mine")  # the other table is still listed
    assert f"Table {fine} · Dice & Hands" in r.response.content and f"Table {broken} in <#{ch.id}>: {why}" \
        in r.response.content
    r = await ben.slash(ch, "game abandon", table=broken)
    assert r.response.content == "Only the table's creator or a member with Manage Server can abandon it."
    r = await ann.slash(ch, "game abandon", table=broken)
    assert r.response.content == f"Table {broken} is abandoned."
    assert (await env.bot.tables.store.game(broken)).status == "abandoned"
    r = await ann.slash(ch, "game mine")
    assert f"Table {broken}" not in r.response.content and f"Table {fine}" in r.response.content
    r = await ben.click(table_message(ch, broken), label="My hand & moves")
    assert r.response.content == f"Table {broken} has ended, and this version of the bot cannot show it."


async def test_a_lobby_of_a_game_this_version_lacks_can_be_abandoned(world):
    env, g, ch, (ann, ben, cat) = world
    gid = await create_table(ann, ch)
    await env.bot.tables.store._tx([("UPDATE games SET data_version = -1 WHERE id = ?", (gid,))])  # another version's
    r = await ben.click(table_message(ch, gid), label="Join")
    assert "cannot be loaded (it was saved by another version of Dice & Hands)" in r.response.content
    r = await ann.slash(ch, "game abandon", table=gid)
    assert r.response.content == f"Table {gid} is abandoned."
