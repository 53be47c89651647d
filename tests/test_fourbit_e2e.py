"""SimCord: three players play a whole game of 4bit Town through DMs and buttons: the draft
and every secret stack from the DM panel, resolutions and round ends from the table button."""
from __future__ import annotations

import random

import pytest

from bot.app import create_bot
from tests.helpers import open_hand, public_texts, start_table, table_message


@pytest.fixture
def simcord_bot(settings):
    return create_bot(settings, sync_on_start=True, rng=random.Random(8))


def custom_ids(message) -> list[str]:
    return [c.custom_id for row in message.components for c in getattr(row, "children", [])
            if getattr(c, "custom_id", None)]


def latest_dm_with(member, prefix: str):
    for m in reversed(member.user.dm_channel.history()):
        if any(cid.startswith(prefix) for cid in custom_ids(m)):
            return m
    raise AssertionError(f"no DM of {member.name} offers {prefix}")


async def build_stack(member, n: int, perm: int) -> str:
    """Choose location n and card order perm in the DM panel, then confirm."""
    dm = latest_dm_with(member, "fbl:")
    [loc] = [c for c in custom_ids(dm) if c.startswith("fbl:")]
    await member.user.select(dm, [str(n)], custom_id=loc)
    dm = member.user.dm_channel.get_message(dm.id) if hasattr(member.user.dm_channel, "get_message") else \
        next(m for m in member.user.dm_channel.history() if m.id == dm.id)
    assert f"= {n}**" in dm.content, "the panel shows the number the stack makes"
    [order] = [c for c in custom_ids(dm) if c.startswith("fbo:")]
    await member.user.select(dm, [str(perm)], custom_id=order)
    dm = next(m for m in member.user.dm_channel.history() if m.id == dm.id)
    assert "top: card" in dm.content and "-side →" in dm.content, "each card's side is shown before confirming"
    r = await member.user.click(dm, label="3. Confirm stack")
    return r.response.content


async def test_three_players_play_a_whole_game_through_dms_and_buttons(simcord_env):
    env = simcord_env
    g = env.create_guild("Game night")
    ch = g.create_text_channel("table")
    members = [g.add_member(env.create_user(n)) for n in ("ann", "ben", "cat")]
    by_id = {m.id: m for m in members}
    gid = await start_table(ch, members[0], members[1:], game="fourbit", players=3)
    svc = env.bot.tables
    stacks = 0
    for _ in range(600):
        t = await svc.load(gid)
        if t.game.status != "active":
            break
        s = t.state
        aw = t.engine.awaiting(s)
        seat = min(aw.seats)
        member = by_id[t.game.user_at(seat).user_id]
        if s["phase"] == "draft":  # picked from the menu in the DM
            dm = latest_dm_with(member, "mvs:")
            [menu] = [c for c in custom_ids(dm) if c.startswith("mvs:")]
            r = await member.user.select(dm, ["0"], custom_id=menu)
            assert r.ephemeral and f"card {s['draft']['hands'][seat][0]}" in r.response.content
        elif s["phase"] == "work":
            if s["players"][seat]["sent"] == 0:  # each player's first worker of the round goes out
                text = await build_stack(member, (5 * seat + s["round"]) % 16, (seat + s["round"]) % 24)
                assert text.startswith("Your secret choice:") or text.startswith("You played")
                stacks += 1
            else:
                r = await member.user.click(latest_dm_with(member, "mv:"), label="Pass")
                assert r.ephemeral
        else:
            panel = await open_hand(member, ch, gid)
            first_move = t.engine.legal(s, seat)[0]
            r = await member.click(panel.response, label=str(t.engine.label(first_move))[:80])
            assert r.ephemeral and "You played" in r.response.content, r.response.content
    t = await svc.load(gid)
    # upkeep is steep (level × 2 coins a worker): who cannot pay loses workers and sits out later rounds
    assert t.game.status == "over" and t.state["round"] == 6 and stacks >= 3
    final = table_message(ch, gid).embeds[0].description
    assert "Game over." in final and "1. " in final
    assert await svc.full_replay(gid) == t.state
    assert not env.errors


async def test_reveals_are_posted_with_a_board_picture_and_never_before_everyone_chose(simcord_env):
    env = simcord_env
    g = env.create_guild("Game night")
    ch = g.create_text_channel("table")
    ann, ben = (g.add_member(env.create_user(n)) for n in ("ann", "ben"))
    gid = await start_table(ch, ann, [ben], game="fourbit", players=2)
    svc = env.bot.tables
    while (t := await svc.load(gid)).state["phase"] == "draft":
        seat = min(t.engine.awaiting(t.state).seats)
        await svc.act(gid, t.game.user_at(seat).user_id, {"type": "pick", "card": t.state["draft"]["hands"][seat][0]})
    await env.settle()  # the outbox delivers what those moves queued (narration, the stack panels by DM)
    t = await svc.load(gid)
    first, second = (next(m for m in (ann, ben) if m.id == t.game.user_at(s).user_id) for s in (0, 1))
    await build_stack(first, 5, 0)
    public = " ".join(public_texts([ch]))
    assert "Reveal —" not in public and "Stall Street" not in public, "nothing is shown before everyone chose"
    await build_stack(second, 5, 3)
    reveal = next(m for m in ch.history() if (m.content or "").startswith("**Reveal — round 1**"))
    assert "= 0101 = 5 → 5 Stall Street" in reveal.content and "(follower)" in reveal.content
    [picture] = reveal.attachments
    assert picture.filename == f"table-{gid}.png"
