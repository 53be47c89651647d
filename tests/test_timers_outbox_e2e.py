"""Timers and the outbox in SimCord: reminders across a restart, auto-pass, choice windows,
and every DM sent exactly once across a restart; on both stores (SQLite, then PostgreSQL)."""
from __future__ import annotations

import dataclasses
import random

import pytest

import bot.outbox
import bot.timers
from bot.app import create_bot
from bot.config import Settings
from tests.helpers import start_table


@pytest.fixture
def settings(db) -> Settings:
    """The bot's settings on each store in turn (``db``: a SQLite file, then a PostgreSQL database)."""
    if isinstance(db, str):
        return Settings(token=None, db_url=db, dm_interval=0, send_rate=0)
    return Settings(token=None, db_path=db, dm_interval=0, send_rate=0)


@pytest.fixture(autouse=True)
def _one_process(monkeypatch):
    """SimCord runs one bot: its polls for work other processes left in a shared database (every minute of virtual
    time) would make advancing hours of it thousands of steps, so they poll as seldom as with SQLite."""
    monkeypatch.setattr(bot.outbox, "SHARED_POLL", bot.outbox.SAFETY_POLL)
    monkeypatch.setattr(bot.timers, "SHARED_SLEEP", bot.timers.MAX_SLEEP)


def reminders(ch, gid):
    return [m.content for m in ch.history() if (m.content or "").startswith(f"Reminder: table {gid}")]


async def test_reminder_fires_after_idle_time_and_once_more_after_a_restart(world):
    env, g, ch, (ann, ben, cat) = world
    gid = await start_table(ch, ann, [ben], players=2, reminder_hours=1.0)
    table = await env.bot.tables.load(gid)
    waiting = table.game.user_at(table.state["turn"]).user_id
    await env.advance_time(59 * 60)
    assert reminders(ch, gid) == []
    await env.advance_time(2 * 60)
    assert reminders(ch, gid) == [f"Reminder: table {gid} · Dice & Hands is waiting for <@{waiting}>."]

    await env.restart_bot()
    await env.advance_time(30 * 60)
    assert len(reminders(ch, gid)) == 1, "a restart does not repeat a reminder already sent"
    await env.advance_time(31 * 60)
    assert len(reminders(ch, gid)) == 2, "the next idle period reminds once more"


async def test_autopass_plays_the_default_move_after_its_hours(world):
    env, g, ch, (ann, ben, cat) = world
    gid = await start_table(ch, ann, [ben], players=2, autopass_hours=2.0, reminder_hours=0.0)
    table = await env.bot.tables.load(gid)
    turn = table.state["turn"]
    await env.advance_time(2 * 3600 + 60)
    table = await env.bot.tables.load(gid)
    assert table.state["bets"][turn] == 0
    user = table.game.user_at(turn).user_id
    assert any(m.content == f"Table {gid}: time ran out; played for <@{user}>: Bet 0." for m in ch.history())


async def test_choice_window_expires_into_lowest_cards_without_revealing_who(world):
    env, g, ch, (ann, ben, cat) = world
    gid = await start_table(ch, ann, [ben], players=2, options="window_minutes=5", reminder_hours=0.0)
    svc = env.bot.tables
    for _ in range(2):
        t = await svc.load(gid)
        await svc.act(gid, t.game.user_at(t.state["turn"]).user_id, {"type": "bet", "amount": 0})
    t = await svc.load(gid)
    hands = [sorted(h) for h in t.state["hands"]]
    await env.advance_time(5 * 60 + 30)
    t = await svc.load(gid)
    assert t.state["last"]["picks"] == [h[0] for h in hands]
    assert any(f"Table {gid}: time is up (a secret card choice)." == m.content for m in ch.history())


@pytest.fixture
def slow_outbox(settings):
    # 10 s between two messages on one route: longer than SimCord's settle time, so a restart lands mid-burst
    return create_bot(dataclasses.replace(settings, dm_interval=10, send_rate=40), sync_on_start=True,
                      rng=random.Random(2))


@pytest.fixture
def simcord_bot(request, settings):
    if "slow_outbox" in request.fixturenames:
        return request.getfixturevalue("slow_outbox")
    return create_bot(settings, sync_on_start=True, rng=random.Random(3))


async def two_tables_of_five(env):
    """Two tables dealing hands to the same five players: two DMs for each, and two channel posts."""
    g = env.create_guild("Game night")
    ch = g.create_text_channel("table")
    members = [g.add_member(env.create_user(n)) for n in ("ann", "ben", "cat", "dan", "eve")]
    svc = env.bot.tables
    for _ in range(2):
        t = await svc.create(guild_id=g.id, channel_id=ch.id, engine_name="dicehand", user_id=members[0].id,
                             name="ann", options={})
        for m in members[1:]:
            await svc.join(t.game.id, m.id, m.name)
        await svc.start(t.game.id, members[0].id)
    return members


def dm_times(member):
    return [msg.created_at for msg in member.user.dm_channel.history()]


@pytest.mark.usefixtures("slow_outbox")
async def test_outbox_sends_every_dm_exactly_once_across_a_restart(simcord_env):
    env = simcord_env
    members = await two_tables_of_five(env)
    await env.advance_time(5)  # each player's first hand is out, the second waits its route's turn
    assert {m.name: len(dm_times(m)) for m in members} == {m.name: 1 for m in members}
    await env.restart_bot()
    await env.advance_time(200)
    per_user = {m.name: len(dm_times(m)) for m in members}
    assert per_user == {m.name: 2 for m in members}, per_user
    assert await env.bot.tables.store.pending(500) == []


@pytest.mark.usefixtures("slow_outbox")
async def test_the_outbox_paces_each_route_and_lets_routes_go_side_by_side(simcord_env):
    env = simcord_env
    members = await two_tables_of_five(env)
    await env.advance_time(60)
    firsts = [dm_times(m)[0] for m in members]
    assert (max(firsts) - min(firsts)).total_seconds() < 1, "one player's DMs do not hold up another's"
    for m in members:
        first, second = dm_times(m)
        assert (second - first).total_seconds() >= 9.9, "a route keeps its own pace"


async def test_a_failing_outbox_pass_is_retried_and_nothing_is_lost(world, caplog, monkeypatch):
    env, g, ch, (ann, ben, cat) = world
    store = env.bot.tables.store
    real_heads, failures = store.route_heads, []

    async def flaky_heads(*args, **kwargs):
        rows = await real_heads(*args, **kwargs)
        if rows and any(r.kind == "dm" for r in rows) and not failures:
            failures.append(1)
            raise OSError("database went away for a moment")
        return rows

    monkeypatch.setattr(store, "route_heads", flaky_heads)
    gid = await start_table(ch, ann, [ben], players=2)
    assert failures, "the pass that had the hands to send failed"
    await env.advance_time(31)
    for m in (ann, ben):
        [dm] = m.user.dm_channel.history()
        assert f"Table {gid} · Dice & Hands" in dm.content
    assert any("outbox pass failed" in r.getMessage() for r in caplog.records)


async def test_a_timer_that_fails_is_tried_again_not_dropped(world, monkeypatch):
    env, g, ch, (ann, ben, cat) = world
    gid = await start_table(ch, ann, [ben], players=2, autopass_hours=2.0, reminder_hours=0.0)
    svc = env.bot.tables
    real, calls = svc.fire, []

    async def flaky(timer):
        calls.append(timer.kind)
        if len(calls) == 1:
            raise OSError("disk busy")
        await real(timer)

    monkeypatch.setattr(svc, "fire", flaky)
    turn = (await svc.load(gid)).state["turn"]
    await env.advance_time(2 * 3600 + 10)
    assert (await svc.load(gid)).state["bets"][turn] is None and calls == ["autopass"]
    await env.advance_time(60)
    assert (await svc.load(gid)).state["bets"][turn] == 0 and calls == ["autopass", "autopass"]


async def test_a_lost_autopass_timer_is_set_again_at_start(world):
    env, g, ch, (ann, ben, cat) = world
    gid = await start_table(ch, ann, [ben], players=2, autopass_hours=2.0, reminder_hours=0.0)
    turn = (await env.bot.tables.load(gid)).state["turn"]
    await env.bot.tables.store.clear_timer(gid)  # as a kill between a timer's clearing and its move once could
    await env.restart_bot()
    assert [t.kind for t in await env.bot.tables.store.timers(gid)] == ["autopass"]
    await env.advance_time(2 * 3600 + 60)
    assert (await env.bot.tables.load(gid)).state["bets"][turn] == 0


async def test_a_dm_discord_fails_is_tried_again_later_until_it_goes_out(world):
    env, g, ch, (ann, ben, cat) = world
    env.inject_error("POST", f"/channels/{ben.user.dm_channel.id}/messages", status=503, times=3)
    gid = await start_table(ch, ann, [ben, cat], players=3)
    assert ben.user.dm_channel.history() == [] and len(cat.user.dm_channel.history()) == 1, \
        "one player's failing DMs hold up nobody else"
    await env.advance_time(10)  # tried again after 5 s: still failing
    assert ben.user.dm_channel.history() == []
    await env.advance_time(120)  # after 15 s and 45 s more, Discord takes it
    [dm] = ben.user.dm_channel.history()
    assert f"Table {gid} · Dice & Hands" in dm.content
    assert not any("could not be delivered" in (m.content or "") for m in ch.history())


async def test_a_dm_that_never_goes_out_is_given_up_and_the_player_told_in_the_channel(world):
    env, g, ch, (ann, ben, cat) = world
    env.inject_error("POST", f"/channels/{ben.user.dm_channel.id}/messages", status=503, times=None)
    gid = await start_table(ch, ann, [ben, cat], players=3)
    await env.advance_time(20 * 60)  # still trying after twenty minutes
    assert not any("could not be delivered" in (m.content or "") for m in ch.history())
    assert [r.id for r in await env.bot.tables.store.pending(route=("dm", ben.id))]
    await env.advance_time(30 * 60)
    notices = [m.content for m in ch.history() if "could not be delivered" in (m.content or "")]
    assert notices == [f"<@{ben.id}>, a DM from me to you could not be delivered, so I stopped trying. Use the "
                       "**My hand & moves** button on the table message to see your hand."]
    assert await env.bot.tables.store.pending(route=("dm", ben.id)) == []
    t = await env.bot.tables.load(gid)
    assert t.game.status == "active" and ben.user.dm_channel.history() == []


async def test_narration_and_its_pictures_are_drawn_off_the_event_loop(world, monkeypatch):
    """Drawing a picture takes tens of milliseconds: the outbox draws a change's narration in a worker thread,
    so the event loop goes on answering players meanwhile."""
    import asyncio

    from bot.present import presenter_for

    env, g, ch, (ann, ben, cat) = world
    presenter = presenter_for("dicehand")  # Dice & Hands narrates nothing itself: the spy's line stands in
    on_loop = []

    def spy(change, lang="en"):
        try:
            asyncio.get_running_loop()
            on_loop.append(True)
        except RuntimeError:  # no loop in this thread: a worker's
            on_loop.append(False)
        return [(f"Table {change.table.game.id}: drawn by the worker, move {len(on_loop)}.", None)]

    monkeypatch.setattr(presenter, "announce", spy)
    gid = await start_table(ch, ann, [ben], players=2, reminder_hours=0.0)
    for _ in range(2):  # both players bet: the round's bets are told
        table = await env.bot.tables.load(gid)
        await env.bot.tables.act(gid, table.game.user_at(table.state["turn"]).user_id, {"type": "bet", "amount": 1})
    await env.advance_time(5)
    assert on_loop and not any(on_loop)
    posted = [m.content for m in ch.history()]
    assert f"Table {gid}: drawn by the worker, move 1." in posted, "what the worker drew is what is posted"
