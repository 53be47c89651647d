"""SimCord: three users play 1807 through the 18xx cog. `/game create 1807` draws the setup (the private railways
that stay, the minors' batches) as the table starts; the first private railway's auction goes through the players'
panels (a bid, the others drop out), the rest through the table service; in the first stock round a minor's
auction is opened from the panel's minor menu (its home token goes down by itself) and won, and a ferry's auction is
opened with `/18xx bid` and won; in the minor's first operating turn its president lays a tile with `/18xx lay`,
passes to the train step and buys a 2-train with `/18xx buytrain`. The table message says each round in 1807's
words."""
from __future__ import annotations

import random

import pytest

from bot.app import create_bot
from engines.e18xx.state import G
from tests.helpers import component_field, components, move_code, open_hand, option_values, seat_table, table_message

# a whole auction and a stock round played through SimCord: give the bot time to settle on a busy machine
pytestmark = pytest.mark.simcord(settle_timeout=30)


@pytest.fixture
def simcord_bot(settings):
    return create_bot(settings, sync_on_start=True, rng=random.Random(5))


async def test_three_players_auction_privates_start_a_minor_buy_a_ferry_and_run_it(world):
    env, _, ch, members = world
    table = await seat_table(env, ch, members, game="1807")
    gid, engine, by_seat, state = table.gid, table.engine, table.by_seat, table.state

    async def turn() -> int:
        seats = engine.awaiting(await state()).seats
        assert len(seats) == 1, seats
        return next(iter(seats))

    async def description() -> str:
        await env.settle()
        return table_message(ch, gid).embeds[0].description

    # the setup was drawn as the table started: the private railways' auction is on
    s = await state()
    assert s["round"]["kind"] == "auction" and s["flags"]["site_seed"]
    assert len([p for p in s["privates"] if p.startswith("P")]) == 7
    assert "**Auction of the private railways**, one at a time, in number order · for sale: " in await description()

    # the first private railway through the panels: a bid, then the others drop out
    pid = s["round"]["auction"]["item"]
    name = f"{G(s).pdef(pid).name} ({pid})"
    bidder = await turn()
    panel = (await open_hand(by_seat[bidder], ch, gid)).response
    assert "**Your move:** bid at least £" in panel.content and f"for {name} (in steps of £5), or pass." in \
        panel.content
    least = min(m["price"] for m in engine.legal(s, bidder) if m["type"] == "bid")
    r = await by_seat[bidder].click(panel, label=f"Bid £{least} for {name}")
    assert r.ephemeral and r.response.content.startswith(f"You played **Bid £{least} for {name}**"), \
        r.response.content
    while (await state())["round"]["auction"]["item"] == pid:
        seat = await turn()
        panel = (await open_hand(by_seat[seat], ch, gid)).response
        r = await by_seat[seat].click(panel, label="Drop out")
        assert r.response.content.startswith("You played **Drop out**"), r.response.content
    s = await state()
    assert s["privates"][pid]["owner"] == str(bidder) and s["cash"][bidder] == engine.setup({}, 3)["cash"][0] - least

    # the other private railways: each to its first bidder, through the table service
    while (await state())["round"]["kind"] == "auction":
        s, seat = await state(), await turn()
        bids = [m for m in engine.legal(s, seat) if m["type"] == "bid"]
        await table.act(seat, {"type": "pass"} if s["round"]["auction"]["bids"] or not bids else bids[0])
    s = await state()
    assert s["round"]["kind"] == "stock" and s["round"]["turn"] == 1
    text = await description()
    assert "**Stock round 1** · phase 2 · " in text and "Minors to auction: " in text
    assert "Ferries and undergrounds to auction: Irish Sea Ferry (F1) from £50" in text

    # a minor: its auction opened from the panel's minor menu; the others drop out
    opener = await turn()
    pres = by_seat[opener]
    minor = next(m for m in engine.legal(s, opener) if m["type"] == "bid" and "corporation" in m)
    cid = minor["corporation"]
    panel = (await open_hand(pres, ch, gid)).response
    menu = next(c for c in components(panel) if move_code(minor) in option_values(c))
    assert component_field(menu, "placeholder") == "Bid for a minor"
    r = await pres.select(panel, [move_code(minor)], custom_id=component_field(menu, "custom_id"))
    assert r.response.content.startswith(f"You played **Open the bidding: £100 for the minor {cid} ("), \
        r.response.content
    assert f"**Auction** of the minor {cid} (" in await description()
    while (await state())["round"].get("auction"):
        await table.act(await turn(), {"type": "pass"})
    s = await state()
    g = G(s)
    assert g.president(cid) == opener and g.corp(cid)["cash"] == 100 and g.price(cid) == 50
    home = g.map.homes[cid]
    assert cid in g.board.slots(home, g.map.home_nodes.get(cid, 0))  # its home token went down by itself

    # a ferry: its auction opened with /18xx bid (the player after the minor's winner), the others drop out
    buyer = await turn()
    assert buyer != opener
    r = await by_seat[buyer].slash(ch, "18xx bid", company="F1", price=50)
    assert r.ephemeral and r.response.content.startswith("You played **Open the bidding: £50 for Irish Sea Ferry "
                                                         "(F1)**"), r.response.content
    assert "**Auction** of Irish Sea Ferry (F1): " in await description()
    while (await state())["round"].get("auction"):
        await table.act(await turn(), {"type": "pass"})
    assert (await state())["privates"]["F1"]["owner"] == str(buyer)
    await env.settle()  # the narration of the moves played through the service is out
    assert any(f"{table.names[buyer]} buys Irish Sea Ferry" in (m.content or "") and "for £50" in (m.content or "")
               for m in ch.history())

    while (await state())["round"]["kind"] == "stock":
        await table.act(await turn(), {"type": "pass"})
    s = await state()
    assert s["round"]["kind"] == "operating" and s["round"]["order"] == [cid]
    assert "**Operating round 1.1 of 2**" in await description()

    # the big map at the minor's track step: its president sees the part around its network first, then the whole;
    # another player the whole map; anyone the part around a place named in either language
    r = await pres.slash(ch, "18xx map")
    assert [a.filename for a in r.response.attachments] == [f"table-{gid}-map-around.png", f"table-{gid}-map.png"]
    r = await by_seat[buyer].slash(ch, "18xx map")
    assert [a.filename for a in r.response.attachments] == [f"table-{gid}-map.png"]
    offered = await by_seat[buyer].autocomplete(ch, "18xx map", "around", "ヨー")  # found by its Japanese name
    assert [(c["name"], c["value"]) for c in offered] == [("York (K19)", "K19")]
    r = await by_seat[buyer].slash(ch, "18xx map", around="ヨーク")
    assert r.response.content == f"Table {gid}: the map around York (K19)." and len(r.response.attachments) == 1
    r = await by_seat[buyer].slash(ch, "18xx map", around="Atlantis")
    assert r.response.content == "There is no hex or city called “Atlantis” on this map."

    # the minor's first turn: a tile by /18xx lay, a pass to the train step, a 2-train by /18xx buytrain
    lay = next(m for m in engine.legal(s, opener) if m["type"] == "lay_tile" and m.get("entity_type") != "company"
               and G(s).board.lay_cost(m["hex"], m["tile"], m["rotation"]) == 0)
    r = await pres.slash(ch, "18xx lay", hex=lay["hex"], tile=lay["tile"], rotation=lay["rotation"])
    assert r.response.content.startswith(f"You played **Lay tile {lay['tile']} on "), r.response.content
    assert G(await state()).board.tile(lay["hex"]).name == lay["tile"]
    await env.settle()  # the lay told in the channel: the part of the map around it, then the whole map
    told = [m for m in ch.history() if m.attachments and (m.content or "").startswith(f"Table {gid}")][-2:]
    assert told[1].content == f"Table {gid}: the whole map." and "Lay" not in told[1].content
    while (await state())["round"]["step"] != "trains":
        assert await turn() == opener
        await table.act(opener, {"type": "pass"})
    r = await pres.slash(ch, "18xx buytrain", train="2")
    assert r.response.content.startswith("You played **Buy a 2-train for £100**"), r.response.content
    g = G(await state())
    assert [t.rpartition("-")[0] for t in g.corp(cid)["trains"]] == ["2"] and g.corp(cid)["cash"] == 0
