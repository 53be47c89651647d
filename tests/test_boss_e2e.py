"""SimCord: four users play a whole game of I'm the Boss!. The first deal is contested (an
offer, an acceptance, a travel card, a stop, a boss card, the last call) and everything until
the second deal is made goes through the panel's buttons and menus; the rest of the game is
played through the table service as the same players (a click costs SimCord ~0.4 s). Then the
test checks what the channel and the DMs showed."""
from __future__ import annotations

import json
import random
import re

import pytest

from bot.app import create_bot
from bot.present import presenter_for
from tests.boss_helpers import NAMED
from tests.helpers import (
    component_field,
    components,
    move_code,
    open_hand,
    option_values,
    public_texts,
    start_table,
    table_message,
)


@pytest.fixture
def simcord_bot(settings):
    return create_bot(settings, sync_on_start=True, rng=random.Random(5))


async def ui_play(member, channel, gid, move):
    """Play ``move`` the way a player does: open 'My hand & moves' and use the button or menu
    that carries it (an offer goes through the family menu, then the price menu)."""
    panel = (await open_hand(member, channel, gid)).response
    code = move_code(move)

    def names(carried: str) -> bool:  # the move itself, or (stop, pass, accept) the move naming what it answers
        return carried == code or (move["type"] in NAMED and json.loads(carried).items() >= move.items())

    for c in components(panel):
        cid = component_field(c, "custom_id") or ""
        if cid.startswith(f"bx:{gid}:") and names(cid.split(":", 3)[3]):
            return await member.click(panel, custom_id=cid)
        if (value := next((v for v in option_values(c) if names(v)), None)) is not None:
            return await member.select(panel, [value], custom_id=cid)
    if move["type"] == "offer":
        [family_menu] = [c for c in components(panel) if (component_field(c, "custom_id") or "").startswith("bof:")]
        prices = await member.select(panel, [move["family"]], custom_id=component_field(family_menu, "custom_id"))
        assert prices.ephemeral and "Your price" in prices.response.content, prices.response.content
        for c in components(prices.response):
            if code in option_values(c):
                return await member.select(prices.response, [code], custom_id=component_field(c, "custom_id"))
    raise AssertionError(f"the panel of {member.name} does not offer {move}")


def simple_policy(engine, state, seat):
    """A quick, legal way through the game: move before dealing, deal only where the families
    are somewhere at the table, lay and offer for 1 share, accept, declare, nothing more."""
    moves = engine.legal(state, seat)
    first = {}
    for m in moves:
        first.setdefault(m["type"], m)
    d = state["deal"]
    if state["phase"] == "after_roll":
        sp = state["spaces"][state["marker"]]
        around = {f for f, o in state["owners"].items() if o is not None}
        around |= {k[7:] for hand in state["hands"] for k in hand if k.startswith("family.")}
        doable = set(sp["must"]) <= around and len(around & set(sp["from"])) >= sp["more"]
        return first["deal"] if doable and "deal" in first else first.get("draw", first.get("deal"))
    for kind in ("declare", "accept", "pass", "roll", "discard", "place"):
        if kind in first:
            return first[kind]
    if d is None:
        return moves[0] if moves else None
    needed = engine.needed(state)
    lay = next((m for m in moves if m["type"] == "lay" and m["family"] in needed
                and state["owners"][m["family"]] != seat), None)
    if seat == d["boss"]:
        others_can = any(m["type"] in ("offer", "lay") for s in range(state["n"]) if s != seat
                         for m in engine.legal(state, s))
        return lay or (None if others_can and state.get("_patience", 0) < 2 else first.get("fail"))
    if not any(o["seat"] == seat for o in d["offers"]):
        offer = next((m for m in moves if m["type"] == "offer" and m.get("shares") == 1), None)
        return offer or lay
    return None


async def test_four_players_contest_a_deal_and_finish_the_game(world):
    env, g, ch, members = world
    members = members + [g.add_member(env.create_user("dan"))]
    gid = await start_table(ch, members[0], members[1:], game="boss", options="short=true")
    svc = env.bot.tables
    t = await svc.load(gid)
    by_seat = {s.seat: next(m for m in members if m.id == s.user_id) for s in t.game.seats}
    engine = t.engine

    async def state():
        return (await svc.load(gid)).state

    # the player right of the first places the marker on the known space: red, blue, yellow + 2 more
    await ui_play(by_seat[3], ch, gid, {"type": "place", "space": 8})
    await ui_play(by_seat[0], ch, gid, {"type": "deal"})
    s = await state()
    assert s["deal"]["boss"] == 0 and s["deal"]["payout"] == 6 * 2000, "tile 1 pays $2M a share"

    # a contested deal: an offer, its acceptance, a travel card on it, a stop, a boss card
    offerer = next(x for x in (1, 2, 3) if any(m["type"] == "offer" and m["family"] != "x"
                                               for m in engine.legal(s, x)))
    fam = next(m["family"] for m in engine.legal(s, offerer) if m["type"] == "offer")
    await ui_play(by_seat[offerer], ch, gid, {"type": "offer", "family": fam, "shares": 2})
    await ui_play(by_seat[0], ch, gid, {"type": "accept", "seat": offerer, "family": fam})
    s = await state()
    assert [a["family"] for a in s["deal"]["agreements"]] == [fam]
    travel = next(((x, m) for x in range(4) if x != offerer for m in engine.legal(s, x)
                   if m["type"] == "travel" and (m.get("family") == fam or "laid" in m)), None)
    assert travel, "the seed deals someone a travel card for the offered family"
    await ui_play(by_seat[travel[0]], ch, gid, travel[1])
    s = await state()
    assert s["deal"]["agreements"] == [], "the travelled card leaves the deal and its agreement lapses"
    stopper = next(x for x in range(4) if x != travel[0] and s["hands"][x].get("stop"))
    await ui_play(by_seat[stopper], ch, gid, {"type": "stop"})
    s = await state()
    assert [a["family"] for a in s["deal"]["agreements"]] == [fam], "the stop brings the agreement back"
    usurper = next(x for x in (1, 2, 3) if s["hands"][x].get("boss") and x != offerer)
    await ui_play(by_seat[usurper], ch, gid, {"type": "boss", "restart": False})
    s = await state()
    assert s["deal"]["boss"] == usurper and [a["family"] for a in s["deal"]["agreements"]] == [fam]

    narration = "\n".join(m.content or "" for m in ch.history())
    names = {x: by_seat[x].name for x in range(4)}
    expected = [f"{names[offerer]} offers {fam}", f"{names[0]} accepts {names[offerer]}'s {fam} for 2 shares",
                f"{names[travel[0]]} plays a", f"{names[stopper]} plays a stop card",
                f"{names[usurper]} plays a boss card"]
    at = [narration.find(e) for e in expected]
    assert -1 not in at and at == sorted(at), "every move appears in the channel, in order"
    t = await svc.load(gid)
    for x, m in by_seat.items():  # the newest DM always shows the hand as it is now
        newest = m.user.dm_channel.history()[-1].content
        assert presenter_for("boss").private_lines(t, x)[1] in newest, (x, newest)

    # the rest of the game through the panel, with simple choices
    patience = 0
    for _ in range(3000):
        t = await svc.load(gid)
        if t.game.status != "active":
            break
        s = t.state
        aw = engine.awaiting(s)
        acted = False
        for seat in sorted(aw.seats):
            move = simple_policy(engine, dict(s, _patience=patience), seat)
            if move is None:
                continue
            if s["deals_done"] < 2:
                await ui_play(by_seat[seat], ch, gid, move)
            else:  # SimCord takes ~0.4 s a click: the table runtime plays the rest as the same players
                await svc.act(gid, by_seat[seat].id, move)
            acted = True
            break
        patience = 0 if acted else patience + 1
        if not acted:
            boss = s["deal"]["boss"]
            await svc.act(gid, by_seat[boss].id, {"type": "fail"})
    t = await svc.load(gid)
    assert t.game.status == "over"
    scores = engine.scores(t.state)
    assert sum(scores) == t.state["paid_out"] > 0

    # what the channel showed: the final money on the table message, never a hand or a private line
    final = table_message(ch, gid).embeds[0].description
    assert "Final money" in final
    texts = "\n".join(public_texts([ch]))
    assert "Your money" not in texts and "Your hand" not in texts
    # every player's DMs carry their own hand and exact money
    for x, m in by_seat.items():
        dms = [d.content or "" for d in m.user.dm_channel.history()]
        assert any("Your money: **" in d for d in dms)
        assert not any(re.search(rf"{names[y]}'s hand", d) for d in dms for y in range(4) if y != x)


async def test_the_last_call_survives_a_restart_and_closes_the_deal_when_it_runs_out(world):
    env, g, ch, members = world
    gid = await start_table(ch, members[0], members[1:], game="boss", options="last_call=300")
    svc = env.bot.tables
    t = await svc.load(gid)
    by_seat = {s.seat: s.user_id for s in t.game.seats}
    engine = t.engine
    for _ in range(500):  # simple play until a deal is declared
        s = (await svc.load(gid)).state
        if s["deal"] and s["deal"]["stage"] == "last_call":
            break
        seat, move = next(((x, m) for x in sorted(engine.awaiting(s).seats)
                           if (m := simple_policy(engine, dict(s, _patience=3), x)) is not None), (None, None))
        await svc.act(gid, by_seat[seat], move)
    before = (await svc.load(gid)).state
    assert before["deal"]["stage"] == "last_call" and before["deals_done"] == 0
    await env.restart_bot()
    await env.advance_time(200)
    assert (await env.bot.tables.load(gid)).state["deal"]["stage"] == "last_call", "still open before its time"
    await env.advance_time(120)
    after = (await env.bot.tables.load(gid)).state
    assert after["deals_done"] == 1 and after["deal"] is None
    narration = "\n".join(m.content or "" for m in ch.history())
    assert "The last call is over." in narration and "Deal made!" in narration


def test_the_table_says_what_a_deal_still_needs_as_the_space_does():
    from cogs.boss import still_needed

    space = {"must": ["red", "blue", "yellow"], "more": 2, "from": ["pink", "orange", "green"]}
    assert still_needed(space, ["blue", "pink"]) == "🟥red + 🟨yellow + 1 of 🟧orange/🟩green"
    assert still_needed(space, ["red", "blue", "yellow"]) == "2 of 🩷pink/🟧orange/🟩green"
    assert still_needed(space, ["red", "blue", "yellow", "pink", "green"]) == ""


async def test_a_panel_plays_once_a_second_press_is_refused(world):
    """A double press, or a press on an old panel, never plays a move twice: the panel carries the player's own
    count of moves when it was drawn (others' moves do not make it stale)."""
    from cogs.boss import PLAYED

    env, g, ch, members = world
    gid = await start_table(ch, members[0], members[1:], game="boss")
    svc = env.bot.tables
    t = await svc.load(gid)
    member = {s.seat: next(m for m in members if m.id == s.user_id) for s in t.game.seats}
    placer = min(t.engine.awaiting(t.state).seats)
    await svc.act(gid, member[placer].id, {"type": "place", "space": 0})
    t = await svc.load(gid)
    turn = t.state["turn"]
    panel = (await open_hand(member[turn], ch, gid)).response
    [deal] = [c for c in components(panel) if (component_field(c, "custom_id") or "").endswith(':{"type":"deal"}')]
    first = await member[turn].click(panel, custom_id=component_field(deal, "custom_id"))
    assert first.ephemeral and first.response.content.startswith("You played **Start a deal here**")
    events = (await svc.load(gid)).state["event_no"]
    again = await member[turn].click(panel, custom_id=component_field(deal, "custom_id"))
    assert again.ephemeral and again.response.content == PLAYED
    assert (await svc.load(gid)).state["event_no"] == events, "nothing was played the second time"
