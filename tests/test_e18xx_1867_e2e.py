"""SimCord: three users play 1867 through the 18xx cog. The first private is bid for with `/18xx bid`, the others
through the table service; in the first stock round a minor's auction is opened with `/18xx bid`, its home city is
chosen on the numbered picture of `/18xx token`, and it is won; in its first operating turn the president sees the
lays of a hex drawn and numbered (`/18xx lay hex:`), lays two tiles (the second for $20), and buys a 2-train with
a loan; in its
next turn `/18xx run` runs the auto-router's routes and the minor pays half to its owner without being asked."""
from __future__ import annotations

import random

import pytest

from bot.app import create_bot
from engines.e18xx.state import G
from tests.helpers import component_field, components, seat_table, table_message


@pytest.fixture
def simcord_bot(settings):
    return create_bot(settings, sync_on_start=True, rng=random.Random(5))


async def test_three_players_start_a_minor_and_run_it(world):
    env, _, ch, members = world
    table = await seat_table(env, ch, members, game="1867")
    gid, engine, by_seat, state = table.gid, table.engine, table.by_seat, table.state

    async def turn() -> int:
        seats = engine.awaiting(await state()).seats
        assert len(seats) == 1, seats
        return next(iter(seats))

    assert "**Private auction**, one at a time" in table_message(ch, gid).embeds[0].description

    # the auction: a bid by command, the rest as the players (each private to the first bidder)
    seat = await turn()
    choices = await by_seat[seat].autocomplete(ch, "18xx bid", "company", "")
    assert [c["value"] for c in choices] == ["C&SL"] and "from $20" in choices[0]["name"]
    r = await by_seat[seat].slash(ch, "18xx bid", company="C&SL", price=20)
    assert r.ephemeral and r.response.content.startswith("You played **Bid $20 for Champlain & St. Lawrence (C&SL)**")
    r = await by_seat[seat].slash(ch, "18xx bid", company="C&SL", price=25)
    assert r.ephemeral and r.response.content.startswith("You cannot bid now"), r.response.content
    while (await state())["round"]["kind"] == "auction":
        s, seat = await state(), await turn()
        bids = [m for m in engine.legal(s, seat) if m["type"] == "bid"]
        await table.act(seat, {"type": "pass"} if s["round"]["auction"]["bids"] or not bids else bids[0])
    assert (await state())["round"]["kind"] == "stock"

    # a minor: the bidding opened by command, its home city chosen on the picture, the others drop out
    opener = await turn()
    pres = by_seat[opener]
    r = await pres.slash(ch, "18xx bid", company="CV", price=100)
    assert r.response.content.startswith("You played **Open the bidding: $100 for the minor CV (Credit Valley"), \
        r.response.content
    r = await pres.slash(ch, "18xx token")
    [picture] = r.response.attachments
    assert r.ephemeral and (await picture.read()).startswith(b"\x89PNG")
    homes = {(m["hex"], m["city"]) for m in engine.legal(await state(), opener) if m["type"] == "place_token"}
    assert ("E15", 0) in homes and ("F16", 1) in homes and ("F16", 0) not in homes  # Toronto's first: the CN's
    r = await pres.slash(ch, "18xx token", hex="E15")
    assert r.response.content.startswith("You played **Home token for CV on Guelph (E15)**"), r.response.content
    while (await state())["round"].get("auction"):
        await table.act(await turn(), {"type": "pass"})
    s = await state()
    g = G(s)
    assert g.president("CV") == opener and g.corp("CV")["cash"] == 100 and g.price("CV") == 50
    while (await state())["round"]["kind"] == "stock":
        await table.act(await turn(), {"type": "pass"})
    s = await state()
    assert s["round"]["kind"] == "operating" and s["round"]["order"] == ["CV"]

    # CV's first turn: the lays of a hex on a picture, two lays (the second for $20), a 2-train
    lays = [m for m in engine.legal(s, opener) if m["type"] == "lay_tile"]
    first = lays[0]
    r = await pres.slash(ch, "18xx lay", hex=first["hex"])
    picture, around = r.response.attachments  # 1867's big map: the part around CV's network too, the hex ringed
    assert r.ephemeral and picture.filename == f"lays-{first['hex']}.png" and around.filename == "map-around.png"
    shown = [component_field(c, "label") for c in components(r.response)] + [
        o["label"] if isinstance(o, dict) else o.label for c in components(r.response)
        for o in component_field(c, "options") or []]
    assert len([x for x in shown if x]) == len([m for m in lays if m["hex"] == first["hex"]])
    await table.act(opener, first)
    s = await state()
    second = next(m for m in engine.legal(s, opener) if m["type"] == "lay_tile"
                  and G(s).board.lay_cost(m["hex"], m["tile"], m["rotation"]) == 0)
    cash = G(s).corp("CV")["cash"]
    r = await pres.slash(ch, "18xx lay", hex=second["hex"], tile=second["tile"], rotation=second["rotation"])
    assert r.response.content.startswith(f"You played **Lay tile {second['tile']} on "), r.response.content
    assert "($20)" in r.response.content.split("\n")[0]
    assert G(await state()).corp("CV")["cash"] == cash - 20
    while (await state())["round"]["step"] != "trains":
        await table.act(opener, {"type": "pass"})
    r = await pres.slash(ch, "18xx buytrain", train="2")  # $80 left after the $20 lay: a loan pays the rest
    assert r.response.content.startswith("You played **Buy a 2-train for $100 (taking 1 loan)**"), r.response.content
    assert G(await state()).corp("CV")["loans"] == 1

    # its next turn: the auto-router's run, and half the revenue to the owner without a dividend choice
    for _ in range(30):
        s = await state()
        if s["round"]["kind"] == "operating" and s["round"]["step"] == "routes":
            break
        await table.act(await turn(), engine.auto_action(s, await turn()))
    s = await state()
    assert s["round"]["step"] == "routes"
    cash_owner = s["cash"][opener]
    r = await pres.slash(ch, "18xx run")
    accept = next(c for c in components(r.response) if (component_field(c, "label") or "").startswith("Accept"))
    r = await pres.click(r.response, custom_id=component_field(accept, "custom_id"))
    assert r.response.content.startswith("You played **Run for $"), r.response.content
    s = await state()
    earned = s["cash"][opener] - cash_owner  # no dividend was asked: the round went on
    assert earned > 0 and s["round"].get("step") != "dividend"
    await env.settle()
    assert any("CV earns $" in (m.content or "") and f"${earned} to {pres.name}" in (m.content or "")
               for m in ch.history())
