"""End to end in SimCord: three players create, join, start and finish a game."""
from __future__ import annotations

import random

import pytest

from bot.app import create_bot
from tests.helpers import create_table, open_hand, play, public_texts, table_message


@pytest.fixture
def simcord_bot(settings):
    return create_bot(settings, sync_on_start=True, rng=random.Random(4))


@pytest.fixture
def world(simcord_env):
    g = simcord_env.create_guild("Game night")
    ch = g.create_text_channel("table")
    members = [g.add_member(simcord_env.create_user(n)) for n in ("ann", "ben", "cat")]
    return simcord_env, g, ch, members


async def finish(env, bot, ch, members, gid):
    """Play until the game ends, each awaited player taking their first listed move."""
    for _ in range(200):
        table = await bot.tables.load(gid)
        if table.game.status != "active":
            return table
        aw = table.engine.awaiting(table.state)
        seat = min(aw.seats)
        user_id = table.game.user_at(seat).user_id
        member = next(m for m in members if m.id == user_id)
        first = table.engine.legal(table.state, seat)[0]
        await play(member, ch, gid, table.engine.label(first))
    raise AssertionError("game did not end")


async def test_three_players_create_join_start_and_finish(world):
    env, g, ch, (ann, ben, cat) = world
    gid = await create_table(ann, ch, players=3, options="rounds=2")
    msg = table_message(ch, gid)
    assert "Waiting for players: 1 of up to 3" in msg.embeds[0].description
    for m in (ben, cat):
        r = await m.click(msg, label="Join")
        assert r.response.content == f"You joined table {gid}."
    r = await ben.click(msg, label="Start")
    assert "Only the player who created the table can start it." == r.response.content
    r = await ann.click(msg, label="Start")
    assert r.response.content == f"Table {gid} has started."
    bot = env.bot
    # everyone got their hand by DM, naming the game and linking the channel
    for m in (ann, ben, cat):
        dm = m.user.dm_channel.history()
        assert dm and f"Table {gid} · Dice & Hands" in dm[-1].content and str(ch.id) in dm[-1].content
        assert "Your hand:" in dm[-1].content
    table = await finish(env, bot, ch, [ann, ben, cat], gid)
    assert table.game.status == "over"
    final = table_message(ch, gid).embeds[0].description
    assert "Game over." in final
    assert not table_message(ch, gid).components, "a finished table has no buttons"
    assert any(f"Table {gid} · Dice & Hands is over." in t for t in public_texts([ch]))


async def test_non_player_and_out_of_turn_are_refused_privately(world):
    env, g, ch, (ann, ben, cat) = world
    gid = await create_table(ann, ch, players=2)
    await ben.click(table_message(ch, gid), label="Join")
    await ann.click(table_message(ch, gid), label="Start")
    r = await cat.click(table_message(ch, gid), label="My hand & moves")
    assert r.ephemeral and r.response.content == f"You are not playing at table {gid}."
    r = await cat.slash(ch, "game undo")
    assert r.ephemeral and r.response.content == f"You are not playing at table {gid}."
    table = await env.bot.tables.load(gid)
    waiting = min(table.engine.awaiting(table.state).seats)
    idle = next(m for m in (ann, ben) if m.id != table.game.user_at(waiting).user_id)
    panel = await open_hand(idle, ch, gid)
    assert "Nothing to do right now" in panel.response.content
    assert not panel.response.components
    before = len(await env.bot.tables.store.actions(gid))
    assert len(await env.bot.tables.store.actions(gid)) == before
    assert not env.errors
