"""SimCord: three users play Tokai Baron. The pre-purchase and the first moves go through the panel (buttons,
and the move menu across a restart), a stale button is refused, `/tokai move … via:…` names a way and `/tokai map`
shows the map; the rest of the game is played through the table service as the same players (a click costs SimCord
~0.4 s). Then the test checks what the channel showed: the narration, the map pictures and the final assets."""
from __future__ import annotations

import json
import random

import pytest

from bot.app import create_bot
from cogs.tokai import STALE
from engines.tokai.engine import point_name, price
from tests.helpers import component_field, components, move_code, open_hand, option_values, seat_table, table_message

# Every move posts a map picture, drawn in a worker thread: seconds on a loaded 2-core machine, past SimCord's 5 s
# for the bot to settle (the test failed so under a full parallel run with other work on the machine).
pytestmark = pytest.mark.simcord(settle_timeout=30)


@pytest.fixture
def simcord_bot(settings):
    return create_bot(settings, sync_on_start=True, rng=random.Random(11))


async def use(member, panel, move):
    """Press the button or pick the menu option of ``panel`` that carries ``move``."""
    code = move_code(move)
    for c in components(panel):
        cid = component_field(c, "custom_id") or ""
        if cid.startswith("tx:") and cid.endswith(":" + code):
            return await member.click(panel, custom_id=cid)
        if code in option_values(c):
            return await member.select(panel, [code], custom_id=cid)
    raise AssertionError(f"the panel of {member.name} does not offer {move}")


def first_option(panel) -> tuple[str, str]:
    """(custom id, value) of the first option of the panel's first menu."""
    menu = next(c for c in components(panel) if option_values(c))
    return component_field(menu, "custom_id"), option_values(menu)[0]


async def test_three_players_prebuy_move_name_a_way_and_finish(world, monkeypatch):
    env, g, ch, members = world
    table = await seat_table(env, ch, members, game="tokai")
    gid, engine, by_seat, names, state = table.gid, table.engine, table.by_seat, table.names, table.state

    def channel_text() -> str:
        return "\n".join(m.content or "" for m in ch.history())

    s = await state()
    assert s["phase"] == "prebuy", "the runtime rolled the seat order and dealt the cards"
    assert f"{names[s['first']]} rolled highest and plays first." in channel_text()

    # the pre-purchase through the panel: the cheapest cards of the deal until 20,000 is spent, then Done
    stale = None
    for _ in range(3):
        s = await state()
        seat = s["current"]
        panel = (await open_hand(by_seat[seat], ch, gid)).response
        assert "**Your move:** buy from your deal" in panel.content
        while True:
            s = await state()
            moves = engine.legal(s, seat)
            if any(m["type"] == "done" for m in moves):
                move = {"type": "done"}
            else:
                move = min((m for m in moves if m["type"] == "buy"), key=lambda m: (price(m["card"]), m["card"]))
            r = await use(by_seat[seat], panel, move)
            assert r.ephemeral and r.response.content.startswith("You played **"), r.response.content
            if stale is None:
                stale = (by_seat[seat], panel)  # a panel of the first pre-purchase, kept for later
            if move["type"] == "done":
                break
            panel = r.response
    s = await state()
    assert s["phase"] == "play" and all(p["pos"] for p in s["players"]), "start points are rolled by chance"
    text = channel_text()
    for x in range(3):
        assert f"{names[x]} is done buying: spent" in text and f"{names[x]} starts at" in text
    assert "in the pre-purchase." in text

    # a stale button: its step is over, so only the clicker hears why, and nothing changes
    posts = len(ch.history())
    member, old = stale
    button = next(c for c in components(old) if (component_field(c, "custom_id") or "").startswith("tx:"))
    r = await member.click(old, custom_id=component_field(button, "custom_id"))
    assert r.ephemeral and r.response.content == STALE
    assert len(ch.history()) == posts and (await state())["event_no"] == s["event_no"]

    # play until a move is awaited (a region or point choice through the panel's menu), then move by the menu
    async def to_move_stage(use_panel: bool):
        for _ in range(50):
            s = await state()
            seat = s["current"]
            if s["turn"]["stage"] == "move":
                return s, seat
            move = engine.auto_action(s, seat)
            if use_panel and s["turn"]["stage"] == "dest":
                panel = (await open_hand(by_seat[seat], ch, gid)).response
                cid, value = first_option(panel)
                await by_seat[seat].select(panel, [value], custom_id=cid)
            else:
                await table.act(seat, move)
        raise AssertionError("no move came")

    s, seat = await to_move_stage(use_panel=True)
    me = by_seat[seat]
    panel = (await open_hand(me, ch, gid)).response
    assert f"you rolled {s['turn']['steps']}: choose where your move ends" in panel.content
    cid, value = first_option(panel)
    best = json.loads(value)["to"]
    left = engine.hops_left(s, seat)
    assert left[best] == min(v for v in left.values() if v is not None), "the menu lists the best ending first"
    await env.restart_bot()  # the panel was shown before the restart and still works after it
    posts = len(ch.history())
    r = await me.select(panel, [value], custom_id=cid)
    assert r.ephemeral and r.response.content.startswith(f"You played **{point_name(best)} — "), r.response.content
    after = await state()
    assert after["players"][seat]["pos"] == best
    news = [m for m in ch.history()[posts:] if (m.content or "").startswith(f"Table {gid}: ")]
    assert any(f"{names[seat]} moves {s['turn']['steps']} to {point_name(best)}" in m.content
               or f"{names[seat]} arrives at {point_name(best)}" in m.content for m in news), [m.content for m in news]
    pictures = [a for m in news for a in m.attachments]
    assert pictures and pictures[0].filename == f"table-{gid}.png", "a map picture follows each move"

    # /tokai move: autocomplete, an unknown waypoint, someone else's turn, then a named way
    s, seat = await to_move_stage(use_panel=False)
    me, other = by_seat[seat], by_seat[(seat + 1) % 3]
    choices = await me.autocomplete(ch, "tokai move", "to", "")
    assert choices and len(choices) <= 25 and all(" to go, fare " in c["name"] or "dead end" in c["name"]
                                                  for c in choices)
    to, path = next((to, path) for to, path in s["turn"]["moves"].items() if len(path) >= 3)
    via = path[1][0]
    r = await me.slash(ch, "tokai move", to=to, via="ほげほげ")
    assert r.ephemeral and "There is no point called “ほげほげ” on the map" in r.response.content
    r = await other.slash(ch, "tokai move", to=to)
    assert r.ephemeral and r.response.content.startswith("You have no move to make now")
    assert (await state())["event_no"] == s["event_no"], "refused commands change nothing"
    r = await me.slash(ch, "tokai move", to=str(point_name(to)), via=str(point_name(via)))
    assert r.ephemeral, "the answer goes to the mover alone"
    assert r.response.content.startswith(f"You played **Move to {point_name(to)} via {point_name(via)}**"), \
        r.response.content
    assert (await state())["players"][seat]["pos"] == to

    # /tokai map: the picture, to the one who asked
    r = await other.slash(ch, "tokai map")
    assert r.ephemeral and r.response.attachments and r.response.attachments[0].filename.endswith(".png")

    # the rest of the game through the table service, as the same players (a cheap stand-in for the picture)
    monkeypatch.setattr("cogs.tokai_map.render", lambda state, names, lang="en": b"\x89PNG stand-in")
    for _ in range(3000):
        t = await env.bot.tables.load(gid)
        if t.game.status != "active":
            break
        seat = min(engine.awaiting(t.state).seats)
        await table.act(seat, engine.auto_action(t.state, seat))
    t = await env.bot.tables.load(gid)
    assert t.game.status == "over"
    await env.settle()  # the outbox posts the narration those moves queued
    final = table_message(ch, gid).embeds[0].description
    assert "**Final assets:** 1. " in final
    last = [m for m in ch.history() if (m.content or "").startswith(f"Table {gid}: ")][-1]
    assert ("The last route card is sold." in last.content or "Only one player is left." in last.content)
    assert last.attachments, "the map at the end of the game"


async def test_tokai_commands_find_the_tokai_table_among_other_games(world, monkeypatch):
    """/tokai map and /tokai move need no table option when the channel's one Tokai Baron table is the player's,
    even beside tables of other games (as /18xx commands do)."""
    env, g, ch, members = world
    monkeypatch.setattr("cogs.tokai_map.render", lambda state, names, lang="en": b"\x89PNG stand-in")
    other = await seat_table(env, ch, members[:2])  # a Dice & Hands table in the same channel
    table = await seat_table(env, ch, members, game="tokai")
    r = await members[0].slash(ch, "tokai map")
    assert r.ephemeral and r.response.content == f"Table {table.gid}: the map now.", r.response.content
    r = await members[0].slash(ch, "tokai map", table=other.gid)
    assert r.response.content == f"Table {other.gid} is not a Tokai Baron table."
