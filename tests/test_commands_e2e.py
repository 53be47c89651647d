"""The /game commands around play, /rules and /help, and error handling, in SimCord."""
from __future__ import annotations

import json
import logging
import random

import discord
import pytest

from bot.app import create_bot
from bot.replay import replay_file
from tests.helpers import create_table, play, start_table, table_message


@pytest.fixture
def simcord_bot(settings):
    return create_bot(settings, sync_on_start=True, rng=random.Random(11))


@pytest.fixture
def world(world):
    """The shared world plus a member with Manage Server."""
    env, g, ch, members = world
    mods = g.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = g.add_member(env.create_user("mod"), roles=[mods])
    return env, g, ch, members, mod


def at(table, members, seat):
    return next(m for m in members if m.id == table.game.user_at(seat).user_id)


async def test_undo_needs_the_consent_of_the_player_it_affects(world):
    env, g, ch, (ann, ben, cat), mod = world
    gid = await start_table(ch, ann, [ben], players=2)
    svc = env.bot.tables
    t = await svc.load(gid)
    first, second = at(t, [ann, ben], t.state["turn"]), at(t, [ann, ben], 1 - t.state["turn"])
    r = await first.slash(ch, "game undo")
    assert r.response.content == "The last thing that happened was chance (a shuffle), and chance cannot be undone."
    await play(first, ch, gid, "Bet 2")
    r = await second.slash(ch, "game undo")
    assert r.response.content == "You can only undo your own last move, and the last move was someone else's."
    r = await first.slash(ch, "game undo")
    assert r.response.content == "Your undo request is posted; the players it affects must agree."
    vote = ch.last_message
    assert f"<@{second.id}>, do you agree?" in vote.content
    r = await first.click(vote, label="Agree")
    assert r.response.content == "Your consent is not needed for this undo."
    r = await second.click(vote, label="Agree")
    t = await svc.load(gid)
    assert t.state["bets"] == [None, None] and t.state["turn"] == first_seat(t, first)
    assert any(m.content == f"Table {gid}: the last move was undone." for m in ch.history())
    assert await svc.full_replay(gid) == t.state


def first_seat(table, member):
    return table.game.seat_of(member.id)


async def test_a_reveal_cannot_be_undone(world):
    env, g, ch, (ann, ben, cat), mod = world
    gid = await start_table(ch, ann, [ben], players=2)
    svc = env.bot.tables
    for _ in range(2):
        t = await svc.load(gid)
        await svc.act(gid, t.game.user_at(t.state["turn"]).user_id, {"type": "bet", "amount": 0})
    t = await svc.load(gid)
    for seat in (0, 1):
        await svc.act(gid, t.game.user_at(seat).user_id, {"type": "pick", "card": min(t.state["hands"][seat])})
    r = await ann.slash(ch, "game undo")
    assert "chance cannot be undone" in r.response.content  # the die roll followed the reveal


async def test_replace_by_vote_and_by_admin(world):
    env, g, ch, (ann, ben, cat), mod = world
    gid = await start_table(ch, ann, [ben, cat], players=3)
    dan = g.add_member(env.create_user("dan"))
    eve = g.add_member(env.create_user("eve"))
    t = await env.bot.tables.load(gid)
    cat_seat = t.game.seat_of(cat.id)
    r = await dan.slash(ch, "game replace", seat=cat_seat + 1, player=eve)
    assert r.response.content == f"You are not playing at table {gid}."
    r = await ann.slash(ch, "game replace", seat=cat_seat + 1, player=dan)
    # three players: a majority of the two others (Ann and Ben) must agree; Ann's proposal counts
    assert r.response.content == "Your proposal is posted for a vote."
    assert (await env.bot.tables.load(gid)).game.user_at(cat_seat).user_id == cat.id
    r = await cat.click(ch.last_message, label="Agree")
    assert r.response.content == "Your vote is counted."  # the player replaced agrees, but is not a majority
    assert (await env.bot.tables.load(gid)).game.user_at(cat_seat).user_id == cat.id
    await ben.click(ch.last_message, label="Agree")
    t = await env.bot.tables.load(gid)
    assert t.game.user_at(cat_seat).user_id == dan.id
    assert "Your hand:" in dan.user.dm_channel.history()[-1].content, "the newcomer gets the seat's hand"
    r = await cat.click(table_message(ch, gid), label="My hand & moves")
    assert r.response.content == f"You are not playing at table {gid}."
    r = await mod.slash(ch, "game replace", seat=cat_seat + 1, player=eve)
    assert r.response.content == f"{eve.name} now plays seat {cat_seat + 1}."


async def test_abandon_is_for_the_creator_or_a_manager(world):
    env, g, ch, (ann, ben, cat), mod = world
    gid = await start_table(ch, ann, [ben], players=2)
    r = await ben.slash(ch, "game abandon")
    assert r.response.content == "Only the table's creator or a member with Manage Server can abandon it."
    r = await mod.slash(ch, "game abandon", table=gid)
    assert r.response.content == f"Table {gid} is abandoned."
    assert "Abandoned" in table_message(ch, gid).embeds[0].description
    assert await env.bot.tables.store.games(channel_id=ch.id) == []


async def test_export_after_the_end_replays_to_the_live_game(world, tmp_path):
    env, g, ch, (ann, ben, cat), mod = world
    gid = await start_table(ch, ann, [ben], players=2, options="rounds=1")
    r = await ann.slash(ch, "game export")
    assert r.response.content.startswith("The log holds every hidden card")
    svc = env.bot.tables
    while (t := await svc.load(gid)).game.status == "active":
        seat = min(t.engine.awaiting(t.state).seats)
        await svc.act(gid, t.game.user_at(seat).user_id, t.engine.legal(t.state, seat)[-1])
    r = await ben.slash(ch, "game export", table=gid)
    [attachment] = r.response.attachments
    data = await attachment.read() if hasattr(attachment, "read") else attachment
    path = tmp_path / "log.json"
    path.write_bytes(data)
    summary, ok = replay_file(path)
    assert ok and summary["scores"] == t.engine.scores(t.state)
    assert summary["public"] == json.loads(json.dumps(t.engine.public(t.state)))


async def test_my_games_lists_tables_across_channels(world):
    env, g, ch, (ann, ben, cat), mod = world
    other = g.create_text_channel("other")
    gid1 = await start_table(ch, ann, [ben], players=2)
    gid2 = await create_table(ann, other)
    r = await ann.slash(ch, "game mine")
    assert f"Table {gid1} · Dice & Hands in <#{ch.id}>" in r.response.content
    assert f"Table {gid2} · Dice & Hands in <#{other.id}>: waiting for players" in r.response.content
    r = await ann.slash(ch, "game status")
    assert r.ephemeral and r.response.embeds[0].title == f"Table {gid1} · Dice & Hands"


async def test_rules_and_help(world):
    env, g, ch, (ann, ben, cat), mod = world
    r = await ann.slash(ch, "rules", game="dicehand")
    assert r.ephemeral and r.response.content.startswith("**Dice & Hands — Overview**")
    r = await ann.slash(ch, "rules", game="dicehand", topic="Rulings")
    assert "Rulings" in r.response.content and "An empty hand ends the game" in r.response.content
    assert all(len(m.content) <= 2000 for m in [r.response, *r.followups])
    r = await ann.slash(ch, "rules", game="dicehand", topic="nonsense")
    assert r.response.content.startswith("No rules topic called 'nonsense'.")
    auto = await ann.autocomplete(ch, "rules", "topic", "", game="dicehand")
    assert "Rulings" in [c["name"] for c in auto]
    r = await ann.slash(ch, "help")
    parts = [r.response, *r.followups]
    text = "\n".join(m.content for m in parts)
    assert "Dice & Hands" in text and "/game create" in text
    assert all(len(m.content) <= 2000 for m in parts) and all(m.ephemeral for m in parts)
    assert len(text) > 2000 and text.rstrip().endswith("`/rules` explains each game."), "split, never cut"
    for command in env.bot.tree.get_commands():  # every command is listed, the last ones too
        assert f"`/{command.name}" in text


async def test_a_long_rules_topic_arrives_whole_and_in_order(world):
    from cogs.rules import topics

    env, g, ch, (ann, ben, cat), mod = world
    longest = max(topics("tokai"), key=lambda t: len(t.body))
    assert len(longest.body) > 1900, "a topic longer than one message"
    r = await ann.slash(ch, "rules", game="tokai", topic=longest.title)
    parts = [r.response, *r.followups]
    assert len(parts) > 1 and all(len(m.content) <= 2000 and m.ephemeral for m in parts)
    text = "\n".join(m.content for m in parts)
    assert text.startswith(f"**Tokai Baron (東海男爵) — {longest.title}**")
    lines = [line for line in longest.body.splitlines() if line.strip()]
    positions = [text.find(line) for line in lines]
    assert -1 not in positions and positions == sorted(positions), "every line, in order"


async def test_an_unexpected_error_gives_an_id_and_logs_the_traceback(world, caplog, monkeypatch):
    env, g, ch, (ann, ben, cat), mod = world
    gid = await create_table(ann, ch)

    async def boom(*a, **k):
        raise ZeroDivisionError("internal detail")

    monkeypatch.setattr(env.bot.tables, "join", boom)
    with caplog.at_level(logging.ERROR, logger="bot.errors"):
        r = await ben.click(table_message(ch, gid), label="Join")
    assert r.ephemeral
    assert "something went wrong on our side" in r.response.content
    assert "internal detail" not in r.response.content and "Traceback" not in r.response.content
    incident = r.response.content.split("`")[1]
    record = next(rec for rec in caplog.records if incident in rec.getMessage())
    assert record.exc_info and record.exc_info[0] is ZeroDivisionError


async def test_a_vote_counts_only_for_the_proposal_it_was_cast_on(world):
    env, g, ch, (ann, ben, cat), mod = world
    gid = await start_table(ch, ann, [ben, cat], players=3)
    dan = g.add_member(env.create_user("dan"))
    t = await env.bot.tables.load(gid)
    cat_seat = t.game.seat_of(cat.id)
    await ann.slash(ch, "game replace", seat=cat_seat + 1, player=dan)
    first = ch.last_message
    r = await ben.click(first, label="Refuse")
    assert r.response.content == "You refused."
    assert ch.last_message.content == f"Table {gid}: the replacement was refused."
    await ann.slash(ch, "game replace", seat=cat_seat + 1, player=dan)  # the same proposal again
    r = await ben.click(first, label="Agree")  # an Agree pressed on the refused one
    assert r.response.content == "That replacement proposal is no longer open."
    assert (await env.bot.tables.load(gid)).game.user_at(cat_seat).user_id == cat.id
    r = await ann.click(first, label="Agree")
    assert r.response.content == "That replacement proposal is no longer open."
    r = await ben.click(ch.last_message, label="Agree")  # on the open one it counts
    assert (await env.bot.tables.load(gid)).game.user_at(cat_seat).user_id == dan.id


async def test_at_two_players_the_player_replaced_must_agree(world):
    env, g, ch, (ann, ben, cat), mod = world
    gid = await start_table(ch, ann, [ben], players=2)
    t = await env.bot.tables.load(gid)
    ben_seat = t.game.seat_of(ben.id)
    await env.bot.tables.act(gid, t.game.user_at(t.state["turn"]).user_id, {"type": "bet", "amount": 0})
    r = await ann.slash(ch, "game replace", seat=ben_seat + 1, player=cat)
    assert r.response.content == "Your proposal is posted for a vote."
    vote = ch.last_message
    assert "and ben's agreement" in vote.content
    r = await ann.click(vote, label="Agree")  # the proposer alone is never enough
    assert r.response.content == "Your vote is counted."
    assert (await env.bot.tables.load(gid)).game.user_at(ben_seat).user_id == ben.id
    r = await ben.click(ch.last_message, label="Agree")
    assert (await env.bot.tables.load(gid)).game.user_at(ben_seat).user_id == cat.id
    r = await cat.slash(ch, "game replace", seat=t.game.seat_of(ann.id) + 1, player=ben)
    vote = ch.last_message
    r = await ann.click(vote, label="Refuse")  # the player replaced may refuse
    assert r.response.content == "You refused."
    assert (await env.bot.tables.load(gid)).game.user_at(t.game.seat_of(ann.id)).user_id == ann.id


async def test_the_player_replaced_is_asked_when_active_and_nobody_proposes_their_own_seat(world):
    env, g, ch, (ann, ben, cat), mod = world
    gid = await start_table(ch, ann, [ben, cat], players=3)
    dan = g.add_member(env.create_user("dan"))
    svc = env.bot.tables
    t = await svc.load(gid)
    mover = t.game.user_at(t.state["turn"])
    await svc.act(gid, mover.user_id, {"type": "bet", "amount": 0})
    proposer = next(m for m in (ann, ben, cat) if m.id != mover.user_id)
    r = await proposer.slash(ch, "game replace", seat=t.state["turn"] + 1, player=dan)
    assert f"<@{mover.user_id}>, you may agree or refuse." in ch.last_message.content, "they moved just now"
    idle = next(m for m in (ann, ben, cat) if m.id not in (mover.user_id, proposer.id))
    r = await proposer.slash(ch, "game replace", seat=t.game.seat_of(idle.id) + 1, player=dan)
    assert f"<@{idle.id}>" not in ch.last_message.content, "a player who has not moved is not pinged"
    r = await proposer.slash(ch, "game replace", seat=t.game.seat_of(proposer.id) + 1, player=dan)
    assert r.response.content.startswith("To hand over your own seat, ask another player")


async def test_hours_beyond_a_year_or_below_zero_are_refused(world):
    env, g, ch, (ann, ben, cat), mod = world
    for hours in ({"reminder_hours": 1e12}, {"autopass_hours": -1.0}):
        r = await ann.slash(ch, "game create", game="dicehand", **hours)
        assert r.response.content == "Reminder and auto-pass hours go from 0 to a year (8760 hours)."
    assert await env.bot.tables.store.games(channel_id=ch.id) == []
