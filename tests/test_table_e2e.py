"""End to end in SimCord: three players create, join, start and finish a game."""
from __future__ import annotations

import random

import pytest

from bot.app import create_bot
from tests.helpers import create_table, open_hand, play, public_texts, start_table, table_message


@pytest.fixture
def simcord_bot(settings):
    return create_bot(settings, sync_on_start=True, rng=random.Random(4))


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
        await play(member, ch, gid, str(table.engine.label(first)))
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


def member_at(table, members, seat):
    return next(m for m in members if m.id == table.game.user_at(seat).user_id)


async def test_restart_mid_game_keeps_playing_through_the_same_buttons(world):
    env, g, ch, members = world
    gid = await start_table(ch, members[0], members[1:], players=3)
    table = await env.bot.tables.load(gid)
    first = member_at(table, members, min(table.engine.awaiting(table.state).seats))
    await play(first, ch, gid, "Bet 1")
    old_message = table_message(ch, gid)
    seq_before = (await env.bot.tables.load(gid)).seq

    await env.restart_bot()

    table = await env.bot.tables.load(gid)
    assert table.seq == seq_before and table.state["bets"].count(1) == 1
    nxt = member_at(table, members, min(table.engine.awaiting(table.state).seats))
    # the message posted before the restart still answers
    panel = await nxt.click(old_message, label="My hand & moves")
    assert panel.acknowledged and "Your hand:" in panel.response.content
    r = await nxt.click(panel.response, label="Bet 2")
    assert r.response.content.startswith("You played **Bet 2**.")
    assert (await env.bot.tables.load(gid)).seq == seq_before + 1


async def test_closed_dms_fall_back_to_the_button_and_never_leak(world):
    env, g, ch, (ann, ben, cat) = world
    env.inject_error("POST", f"/channels/{ben.user.dm_channel.id}/messages", status=403, code=50007,
                     message="Cannot send messages to this user", times=None)
    gid = await start_table(ch, ann, [ben, cat], players=3)
    assert ben.user.dm_channel.history() == []
    assert await env.bot.tables.store.dm_closed(ben.id)
    notices = [m.content for m in ch.history() if "DMs are closed" in (m.content or "")]
    assert len(notices) == 1 and f"<@{ben.id}>" in notices[0]
    table = await env.bot.tables.load(gid)
    ben_seat = table.game.seat_of(ben.id)
    hand = table.state["hands"][ben_seat]
    panel = await open_hand(ben, ch, gid)
    assert f"Your hand: {', '.join(str(c) for c in sorted(hand))}" in panel.response.content
    # play the whole game; Ben's hand never shows in public, and the notice is not repeated
    await finish(env, env.bot, ch, [ann, ben, cat], gid)
    texts = public_texts([ch])
    assert not any("Your hand" in t for t in texts)
    assert sum("DMs are closed" in t for t in texts) == 1
    assert ben.user.dm_channel.history() == []


async def test_secret_choices_stay_secret_until_the_reveal(world):
    env, g, ch, (ann, ben, cat) = world
    gid = await start_table(ch, ann, [ben], players=2)
    for _ in range(2):  # both bet 0
        table = await env.bot.tables.load(gid)
        await play(member_at(table, [ann, ben], table.state["turn"]), ch, gid, "Bet 0")
    table = await env.bot.tables.load(gid)
    ann_card = max(table.state["hands"][table.game.seat_of(ann.id)])
    r = await play(ann, ch, gid, f"Play card {ann_card}")
    assert "Your secret choice" in r.response.content
    # change of mind is allowed before everyone has chosen
    low = min(table.state["hands"][table.game.seat_of(ann.id)])
    await play(ann, ch, gid, f"Play card {low}")
    assert (await env.bot.tables.load(gid)).state["picks"][table.game.seat_of(ann.id)] == low
    public = " ".join(public_texts([ch]))
    assert f"Play card {ann_card}" not in public and "Your secret choice" not in public
    assert "✔ chosen" in table_message(ch, gid).embeds[0].description


def test_an_empty_hand_ends_the_game_early():
    """Ruling (docs/rules/dicehand.md): with 5 players the whole deck is dealt, so hands empty
    after 3 rounds and the game ends there even if 5 rounds were chosen."""
    import random as _random

    from bot.selfplay import play_one

    result = play_one("dicehand", 5, _random.Random(1), options={"rounds": 5})
    assert result["actions"] == 1 + 3 * (5 + 5 + 1)


async def test_a_move_can_be_played_from_the_dm(world):
    env, g, ch, (ann, ben, cat) = world
    gid = await start_table(ch, ann, [ben], players=2)
    table = await env.bot.tables.load(gid)
    first = member_at(table, [ann, ben], table.state["turn"])
    dm = first.user.dm_channel.last_message
    r = await first.user.click(dm, label="Bet 1")
    assert r.ephemeral and r.response.content.startswith("You played **Bet 1**.")
    assert (await env.bot.tables.load(gid)).state["bets"][table.state["turn"]] == 1
    # the DM's buttons belong to a moment of the game: pressed again later, they say so
    r = await first.user.click(dm, label="Bet 2")
    assert r.response.content.startswith("The game has moved on since these choices were shown")


async def test_tables_are_not_created_in_dms(world):
    env, g, ch, (ann, ben, cat) = world
    r = await ann.user.slash("game create", game="dicehand")
    assert r.ephemeral and r.response.content == "Tables live in a server channel or thread, not in DMs."


async def test_a_panel_survives_other_players_secret_choices_but_not_a_reveal(world):
    env, g, ch, (ann, ben, cat) = world
    gid = await start_table(ch, ann, [ben, cat], players=3)
    svc = env.bot.tables
    for _ in range(3):
        t = await svc.load(gid)
        await svc.act(gid, t.game.user_at(t.state["turn"]).user_id, {"type": "bet", "amount": 0})
    t = await svc.load(gid)
    hand = sorted(t.state["hands"][t.game.seat_of(ann.id)])
    panel = await open_hand(ann, ch, gid)  # shown before Ben chooses
    await play(ben, ch, gid, f"Play card {min(t.state['hands'][t.game.seat_of(ben.id)])}")
    r = await ann.click(panel.response, label=f"Play card {hand[0]}")
    assert r.response.content.startswith("Your secret choice: **Play card"), r.response.content
    # Cat's choice reveals the cards and rolls the die: a panel from before that is out of date
    stale = await open_hand(ann, ch, gid)
    await play(cat, ch, gid, f"Play card {min(t.state['hands'][t.game.seat_of(cat.id)])}")
    r = await ann.click(stale.response, label=f"Play card {hand[1]}")
    assert r.response.content.startswith("The game has moved on since these choices were shown")
