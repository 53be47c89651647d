"""Timers and the outbox in SimCord: reminders across a restart, auto-pass, choice windows,
and every DM sent exactly once across a restart."""
from __future__ import annotations

import random

import pytest

from bot.app import create_bot
from bot.config import Settings
from tests.helpers import start_table


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
    # 10 s between DMs: longer than SimCord's settle time, so a restart lands mid-burst
    return create_bot(Settings(token=None, db_path=settings.db_path, dm_interval=10), sync_on_start=True,
                      rng=random.Random(2))


@pytest.fixture
def simcord_bot(request, settings):
    if "slow_outbox" in request.fixturenames:
        return request.getfixturevalue("slow_outbox")
    return create_bot(settings, sync_on_start=True, rng=random.Random(3))


@pytest.mark.usefixtures("slow_outbox")
async def test_outbox_sends_every_dm_exactly_once_across_a_restart(simcord_env):
    env = simcord_env
    g = env.create_guild("Game night")
    ch = g.create_text_channel("table")
    members = [g.add_member(env.create_user(n)) for n in ("ann", "ben", "cat", "dan", "eve")]
    svc = env.bot.tables
    # two tables dealing hands to five players each: a burst of ten DMs
    for _ in range(2):
        t = await svc.create(guild_id=g.id, channel_id=ch.id, engine_name="dicehand", user_id=members[0].id,
                             name="ann", options={})
        for m in members[1:]:
            await svc.join(t.game.id, m.id, m.name)
        await svc.start(t.game.id, members[0].id)
    queued = [r for r in await svc.store.pending(500) if r.kind == "dm"]
    assert len(queued) >= 9, "the burst is queued, not sent at once"
    await env.advance_time(25)  # a few go out
    sent_early = sum(len(m.user.dm_channel.history()) for m in members)
    assert 0 < sent_early < 10
    await env.restart_bot()
    await env.advance_time(200)
    per_user = {m.name: len(m.user.dm_channel.history()) for m in members}
    assert per_user == {m.name: 2 for m in members}, per_user
    assert await env.bot.tables.store.pending(500) == []
    times = sorted(msg.created_at for m in members for msg in m.user.dm_channel.history())
    gaps = [(b - a).total_seconds() for a, b in zip(times, times[1:], strict=False)]
    assert min(gaps) >= 9.9, "the outbox keeps its rate limit"


async def test_a_failing_outbox_pass_is_retried_and_nothing_is_lost(world, caplog, monkeypatch):
    env, g, ch, (ann, ben, cat) = world
    store = env.bot.tables.store
    real_pending, failures = store.pending, []

    async def flaky_pending(*args, **kwargs):
        rows = await real_pending(*args, **kwargs)
        if rows and any(r.kind == "dm" for r in rows) and not failures:
            failures.append(1)
            raise OSError("database went away for a moment")
        return rows

    monkeypatch.setattr(store, "pending", flaky_pending)
    gid = await start_table(ch, ann, [ben], players=2)
    assert failures, "the pass that had the hands to send failed"
    await env.advance_time(31)
    for m in (ann, ben):
        [dm] = m.user.dm_channel.history()
        assert f"Table {gid} · Dice & Hands" in dm.content
    assert any("outbox pass failed" in r.getMessage() for r in caplog.records)
