"""SimCord: three users play Shikoku 1889 through the 18xx cog. The private auction goes through the panel's bid
menu and `/18xx bid`, the first stock round through `/18xx par` and `/18xx buy`, the first operating round through
`/18xx lay` (its suggestions are legal lays), `/18xx pass` and `/18xx buytrain`; in the second, `/18xx run` shows the
auto-router's runs and its Accept button runs them, `/18xx dividend` pays out, `/18xx undo` takes both back, and the
run is named by its stops. A stale panel is refused to the clicker alone, a map picture follows the lay, the market
picture the end of a round; what happens in between goes through the table service as the same players (a click
costs SimCord ~0.4 s). A second game floats UR, whose first lay reaches a city, and places a token by `/18xx token`."""
from __future__ import annotations

import json
import random

import pytest

from bot.app import create_bot
from bot.move_items import STALE
from cogs.e18xx.words import run_parts
from engines.e18xx import operating
from engines.e18xx.route import all_routes
from engines.e18xx.state import G
from tests.helpers import component_field, components, open_hand, option_values, seat_table, table_message


@pytest.fixture
def simcord_bot(settings):
    return create_bot(settings, sync_on_start=True, rng=random.Random(5))


async def test_three_players_auction_stock_round_and_operating_rounds(world):
    env, g, ch, members = world
    table = await seat_table(env, ch, members, game="1889")
    gid, engine, by_seat, names, state = table.gid, table.engine, table.by_seat, table.names, table.state

    async def turn() -> int:
        seats = engine.awaiting(await state()).seats
        assert len(seats) == 1, seats
        return next(iter(seats))

    async def posts_since(n: int):
        await env.settle()  # moves played through the service: the outbox posts their narration
        return [m for m in ch.history()[n:] if (m.content or "").startswith(f"Table {gid}: ")]

    assert "**Private auction**" in table_message(ch, gid).embeds[0].description

    # the auction: the first purchase through the panel's bid menu, the second by /18xx bid, the rest as the players
    seat = await turn()
    panel = (await open_hand(by_seat[seat], ch, gid)).response
    assert "**Your move:** buy Takamatsu E-Railroad (TR) for ¥20" in panel.content
    buy_tr = json.dumps({"type": "bid", "company": "TR", "price": 20}, separators=(",", ":"))
    menu = next(c for c in components(panel) if buy_tr in option_values(c))
    r = await by_seat[seat].select(panel, [buy_tr], custom_id=component_field(menu, "custom_id"))
    assert r.ephemeral and r.response.content.startswith("You played **Buy Takamatsu E-Railroad (TR) for ¥20**")
    stale = (by_seat[seat], panel, component_field(menu, "custom_id"))

    seat = await turn()
    choices = await by_seat[seat].autocomplete(ch, "18xx bid", "company", "")
    assert choices and choices[0]["value"] == "MF" and "from ¥30" in choices[0]["name"]
    r = await by_seat[seat].slash(ch, "18xx bid", company="MF", price=30)
    assert r.ephemeral and r.response.content.startswith("You played **Buy Mitsubishi Ferry (MF) for ¥30**")
    wrong = by_seat[(seat + 2) % 3]
    r = await wrong.slash(ch, "18xx bid", company="ER", price=40)
    assert r.ephemeral and r.response.content.startswith(f"You cannot bid now: table {gid} is waiting for ")
    while (await state())["round"]["kind"] == "auction":
        s, seat = await state(), await turn()
        buy = next(m for m in engine.legal(s, seat) if m["type"] == "bid")
        await table.act(seat, buy)
    assert (await state())["round"]["kind"] == "stock"

    # a stale panel: only its clicker hears why, and nothing changes
    await env.settle()  # the narration of the moves played through the service is out
    posts = len(ch.history())
    member, old, menu_id = stale
    r = await member.select(old, [buy_tr], custom_id=menu_id)
    assert r.ephemeral and r.response.content == STALE
    assert len(ch.history()) == posts

    # the first stock round: a par and three purchases float AR
    first = await turn()
    pres = by_seat[first]
    choices = await pres.autocomplete(ch, "18xx par", "corporation", "")
    legal_pars = {m["corporation"] for m in engine.legal(await state(), first) if m["type"] == "par"}
    assert {c["value"] for c in choices} <= legal_pars and "AR" in {c["value"] for c in choices}
    prices = await pres.autocomplete(ch, "18xx par", "price", "", corporation="AR")
    assert [c["value"] for c in prices] == [100, 90, 80, 75, 70, 65]
    r = await pres.slash(ch, "18xx par", corporation="AR", price=70)
    assert r.response.content.startswith("You played **Par Awa Railroad (AR) at ¥70: 20% for ¥140**")
    for _ in range(3):
        seat = await turn()
        r = await by_seat[seat].slash(ch, "18xx buy", corporation="AR")
        assert r.response.content.startswith("You played **Buy a 10% share of AR from the IPO (¥70)**"), \
            r.response.content
    s = await state()
    assert s["corps"]["AR"]["floated"] and s["corps"]["AR"]["president"] == str(first)
    posts = len(ch.history())
    while (await state())["round"]["kind"] == "stock":
        seat = await turn()
        await table.act(seat, {"type": "pass"})
    news = await posts_since(posts)
    assert any(a.filename.endswith(".png") for m in news for a in m.attachments), "the market after the round"
    assert "**Operating round 1.1 of 1**" in table_message(ch, gid).embeds[0].description

    # the first operating round: /18xx lay with legal suggestions, then pass the token, buy a train
    s = await state()
    lays = [m for m in engine.legal(s, first) if m["type"] == "lay_tile"]
    hexes = await pres.autocomplete(ch, "18xx lay", "hex", "")
    assert hexes and {c["value"] for c in hexes} <= {m["hex"] for m in lays}
    # a lay that gives AR a route (to the Naruto off-board area), so that its train runs in the next round
    lay = next(m for m in lays if all_routes(G(engine.apply(s, first, m)).board, "AR", 2))
    coord = lay["hex"]
    assert coord in {c["value"] for c in hexes}
    tiles = await pres.autocomplete(ch, "18xx lay", "tile", "", hex=coord)
    assert tiles and {c["value"] for c in tiles} <= {m["tile"] for m in lays if m["hex"] == coord}
    tile = lay["tile"]
    assert tile in {c["value"] for c in tiles}
    rotations = await pres.autocomplete(ch, "18xx lay", "rotation", "", hex=coord, tile=tile)
    legal_rot = {m["rotation"] for m in lays if m["hex"] == coord and m["tile"] == tile}
    assert rotations and {c["value"] for c in rotations} == legal_rot
    rotation = lay["rotation"]
    # only the hex: the lays open there, drawn and numbered, with a button (or menu entry) per number
    r = await pres.slash(ch, "18xx lay", hex=coord)
    [picture] = r.response.attachments
    assert r.ephemeral and picture.filename == f"lays-{coord}.png"
    assert (await picture.read()).startswith(b"\x89PNG")
    shown = [component_field(c, "label") for c in components(r.response)] + [
        o["label"] if isinstance(o, dict) else o.label for c in components(r.response)
        for o in component_field(c, "options") or []]
    shown = [label for label in shown if label]
    assert [label.split(": ", 1)[0] for label in shown] == [str(k) for k in range(1, len(shown) + 1)]
    assert len(shown) == len([m for m in lays if m["hex"] == coord])
    r = await pres.slash(ch, "18xx lay", hex="A1")
    assert r.response.content == "You cannot lay a tile on A1 now."
    posts = len(ch.history())
    r = await pres.slash(ch, "18xx lay", hex=coord, tile=tile, rotation=rotation)
    assert r.ephemeral and r.response.content.startswith(f"You played **Lay tile {tile} on "), r.response.content
    assert "as president of AR." in r.response.content.split("\n")[0]
    news = await posts_since(posts)
    assert any(f"AR lays tile {tile} on" in m.content for m in news)
    assert any(a.filename == f"table-{gid}.png" for m in news for a in m.attachments), "the map after a lay"
    assert (await state())["board"]["laid"][coord] == [tile, rotation]

    s = await state()
    if s["round"]["step"] == "token":
        r = await pres.slash(ch, "18xx pass")
        assert r.response.content.startswith("You played **Pass: place no token** as president of AR.")
    s = await state()
    assert s["round"]["step"] == "trains", s["round"]
    r = await pres.slash(ch, "18xx buytrain", train="2")
    assert r.response.content.startswith("You played **Buy a 2-train for ¥80** as president of AR.")
    r = await by_seat[(first + 1) % 3].slash(ch, "18xx pass")
    assert r.ephemeral and r.response.content.startswith("You cannot pass now: table ")
    r = await pres.slash(ch, "18xx pass")
    assert r.response.content.startswith("You played **Done buying trains** as president of AR.")

    # on, as the players, to AR's routes in the next operating round
    for _ in range(40):
        s = await state()
        if s["round"]["kind"] == "operating" and s["round"]["step"] == "routes" and s["round"]["turn"] == 2:
            break
        seat = await turn()
        await table.act(seat, {"type": "pass"})
    assert (await state())["round"]["step"] == "routes"
    r = await pres.slash(ch, "18xx run")
    assert r.ephemeral and "AR's best runs (auto-router):" in r.response.content
    accept = next(c for c in components(r.response) if (component_field(c, "label") or "").startswith("Accept"))
    assert "Run for ¥" in component_field(accept, "label")
    r = await pres.click(r.response, custom_id=component_field(accept, "custom_id"))
    assert r.response.content.startswith("You played **Run for ¥"), r.response.content
    revenue = (await state())["round"]["revenue"]
    assert revenue > 0
    r = await pres.slash(ch, "18xx dividend", kind="payout")
    assert r.response.content.startswith(f"You played **Pay out ¥{revenue}: ¥{revenue // 10} a share")
    assert f"AR pays out ¥{revenue}" in "\n".join(m.content or "" for m in ch.history())

    # /18xx undo (twice: the dividend, then the run), and the run again with routes named by their stops
    for _ in range(2):
        r = await pres.slash(ch, "18xx undo")
        assert r.ephemeral and r.response.content == "Your last move was undone."
    s = await state()
    assert s["round"]["step"] == "routes"
    _, runs = run_parts(G(s), engine.legal(s, first)[0])
    named = " | ".join(f"{t.split('-')[0]}: {' '.join(stops)}" for t, stops, _ in runs)
    r = await pres.slash(ch, "18xx run", routes="2: Z9 K8")
    assert r.ephemeral and r.response.content == "Z9 is not a hex of the map."
    r = await pres.slash(ch, "18xx run", routes=named)
    assert r.response.content.startswith(f"You played **Run for ¥{revenue} (auto-router: "), r.response.content
    r = await pres.slash(ch, "18xx dividend", kind="withhold")
    assert r.response.content.startswith(f"You played **Withhold ¥{revenue} in AR: price ¥")

    # the pictures, to the one who asks
    for what in ("map", "market", "charters"):
        r = await members[2].slash(ch, f"18xx {what}")
        assert r.ephemeral and r.response.attachments[0].filename == f"table-{gid}-{what}.png"

    final = table_message(ch, gid).embeds[0].description
    for seat, name in names.items():
        assert f"**{name}** ¥{G(await state()).s['cash'][seat]}" in final


async def test_a_corporation_places_a_token_with_the_command(world):
    """UR floats in the first stock round and lays the track that reaches a second city; its president then places
    a token there with `/18xx token` (the hex from its autocomplete), after a wrong user and wrong hexes are
    refused."""
    env, g, ch, members = world
    table = await seat_table(env, ch, members, game="1889")
    gid, engine, by_seat, state = table.gid, table.engine, table.by_seat, table.state

    async def turn() -> int:
        seats = engine.awaiting(await state()).seats
        assert len(seats) == 1, seats
        return next(iter(seats))

    # the way there, as the players: the cheapest privates, UR parred at ¥70 and floated by three purchases
    while (await state())["round"]["kind"] == "auction":
        s, seat = await state(), await turn()
        await table.act(seat, next(m for m in engine.legal(s, seat) if m["type"] == "bid"))
    s, pres_seat = await state(), await turn()
    market = G(s).title.market
    await table.act(pres_seat, next(m for m in engine.legal(s, pres_seat) if m["type"] == "par"
                                    and m["corporation"] == "UR" and market.by_id(m["share_price"]).price == 70))
    for _ in range(3):
        s, seat = await state(), await turn()
        await table.act(seat, next(m for m in engine.legal(s, seat) if m["type"] == "buy_shares"
                                   and m["shares"][0].startswith("UR_")))
    while (await state())["round"]["kind"] == "stock":
        await table.act(await turn(), {"type": "pass"})
    s = await state()
    assert s["corps"]["UR"]["floated"] and s["corps"]["UR"]["president"] == str(pres_seat)
    assert s["round"]["kind"] == "operating" and s["round"]["step"] == "track"
    assert await turn() == pres_seat, "UR is the only corporation to operate"

    # a legal lay after which UR's track reaches a city with room for a token
    lays = [m for m in engine.legal(s, pres_seat) if m["type"] == "lay_tile"]
    lay = next(m for m in lays if any(x["type"] == "place_token" for x in engine.legal(engine.apply(s, pres_seat, m),
                                                                                       pres_seat)))
    await table.act(pres_seat, lay)
    s = await state()
    assert s["round"]["step"] == "token"
    tokens = [m for m in engine.legal(s, pres_seat) if m["type"] == "place_token"]
    pres, other = by_seat[pres_seat], by_seat[(pres_seat + 1) % 3]

    # the autocomplete offers the president the legal hexes, and the others nothing
    choices = await pres.autocomplete(ch, "18xx token", "hex", "")
    assert choices and {c["value"] for c in choices} == {m["hex"] for m in tokens}
    assert await other.autocomplete(ch, "18xx token", "hex", "") == []
    coord = choices[0]["value"]
    gs = G(s)
    place, cost, cash = gs.map.place(coord), operating.next_token_cost(gs, "UR"), s["corps"]["UR"]["cash"]
    home = gs.board.token_nodes("UR")[0][0]

    # refusals: to the one who asked alone, and nothing changes
    posts = len(ch.history())
    r = await other.slash(ch, "18xx token", hex=coord)
    assert r.ephemeral and r.response.content.startswith(
        f"You cannot place a token now: table {gid} is waiting for {pres.name} "), r.response.content
    r = await pres.slash(ch, "18xx token", hex=home)
    assert r.ephemeral and r.response.content == f"UR already has a token on {gs.map.place(home)}.", r.response.content
    r = await pres.slash(ch, "18xx token", hex="Z9")
    assert r.ephemeral and r.response.content == "Z9 is not on the map.", r.response.content
    assert len(ch.history()) == posts and (await state())["event_no"] == s["event_no"]

    # without a hex: the cities open, drawn and numbered, a button per number; the button places that token
    r = await pres.slash(ch, "18xx token")
    [picture] = r.response.attachments
    assert r.ephemeral and picture.filename == "tokens.png" and (await picture.read()).startswith(b"\x89PNG")
    labels = [component_field(c, "label") for c in components(r.response)]
    assert [label.split(": ", 1)[0] for label in labels] == [str(k) for k in range(1, len(tokens) + 1)]
    assert len(ch.history()) == posts

    # the token itself
    r = await pres.slash(ch, "18xx token", hex=coord)
    assert r.ephemeral and r.response.content.startswith(
        f"You played **Place a token on {place} for {gs.money(cost)}** as president of UR."), r.response.content
    after = await state()
    assert any("UR" in slots for slots in after["board"]["tokens"][coord])
    assert after["corps"]["UR"]["cash"] == cash - cost
    assert after["round"]["step"] != "token" and not any(m["type"] == "place_token"
                                                        for m in engine.legal(after, pres_seat))
    news = [m for m in ch.history()[posts:] if (m.content or "").startswith(f"Table {gid}: ")]
    told = [m for m in news if f"UR places a token on {place} for {gs.money(cost)}." in m.content]
    assert told, [m.content for m in news]
    assert any(a.filename == f"table-{gid}.png" for m in told for a in m.attachments), "the map after the token"


async def test_a_train_between_two_presidents_is_an_offer_the_seller_answers(world):
    """Two corporations with different presidents: the one without a train offers ¥1 for the other's 2-train with
    `/18xx buytrain`; the buyer cannot accept his own offer; the seller accepts with `/18xx offer`."""
    env, g, ch, members = world
    table = await seat_table(env, ch, members, game="1889")
    engine, by_seat, state = table.engine, table.by_seat, table.state

    async def turn() -> int:
        seats = engine.awaiting(await state()).seats
        assert len(seats) == 1, seats
        return next(iter(seats))

    async def play(pick) -> None:
        s, seat = await state(), await turn()
        await table.act(seat, next(m for m in engine.legal(s, seat) if pick(m)))

    while (await state())["round"]["kind"] == "auction":
        await play(lambda m: m["type"] == "bid")
    first = await turn()  # UR's president; the next seat starts KO, both at ¥65; shares are bought until both float
    await play(lambda m: m["type"] == "par" and m["corporation"] == "UR" and m["share_price"].startswith("65,"))
    await play(lambda m: m["type"] == "par" and m["corporation"] == "KO" and m["share_price"].startswith("65,"))
    while unfloated := [c for c in ("UR", "KO") if not (await state())["corps"][c]["floated"]]:
        s, seat = await state(), await turn()
        buys = [m for m in engine.legal(s, seat) if m["type"] == "buy_shares" and m.get("entity_type") != "company"
                and m["shares"][0].partition("_")[0] in unfloated]
        await table.act(seat, buys[0] if buys else {"type": "pass"})
    while (await state())["round"]["kind"] == "stock":
        await table.act(await turn(), {"type": "pass"})
    s = await state()
    seller_seat = int(s["corps"]["UR"]["president"])
    buyer_seat = int(s["corps"]["KO"]["president"])
    assert seller_seat == first and buyer_seat != seller_seat

    # UR buys a 2-train and passes on; KO comes to its train step with no train
    while True:
        s = await state()
        cid = operating.current(G(s))
        seat = await turn()
        if cid == "KO" and s["round"]["step"] == "trains":
            break
        if cid == "UR" and s["round"]["step"] == "trains" and not s["corps"]["UR"]["trains"]:
            await play(lambda m: m["type"] == "buy_train")
        elif s["round"]["step"] == "routes":
            await table.act(seat, engine.auto_action(s, seat))
        else:
            await table.act(seat, {"type": "pass"} if {"type": "pass"} in engine.legal(s, seat)
                            else engine.auto_action(s, seat))
    train = s["corps"]["UR"]["trains"][0]
    buyer, seller = by_seat[buyer_seat], by_seat[seller_seat]
    await env.settle()  # the moves played through the service: their pings are posted before we count
    posts = len(ch.history())
    r = await buyer.slash(ch, "18xx buytrain", train=train, price=1)
    assert r.ephemeral and "as president of KO" in r.response.content, r.response.content
    s = await state()
    assert s["round"]["offer"] and s["corps"]["UR"]["trains"] == [train]
    news = "\n".join(m.content or "" for m in ch.history()[posts:])
    assert f"KO offers ¥1 for train {train} of UR; {seller.name} may accept or decline." in news, news
    pings = [m.content for m in ch.history()[posts:] if "your move" in (m.content or "")]
    assert pings and all(f"<@{seller.id}>" in p and f"<@{buyer.id}>" not in p for p in pings), \
        "only the seller, whose answer the game waits for, is pinged"
    assert f"**Waiting for** <@{seller.id}>:" in table_message(ch, table.gid).embeds[0].description

    r = await buyer.slash(ch, "18xx offer", answer="accept_offer")
    assert r.ephemeral and r.response.content == "Only the seller accepts or declines; you may withdraw your offer."
    assert (await state())["round"]["offer"] == s["round"]["offer"]

    ko_cash, ur_cash = s["corps"]["KO"]["cash"], s["corps"]["UR"]["cash"]
    r = await seller.slash(ch, "18xx offer", answer="accept_offer")
    assert r.ephemeral, r.response.content
    after = await state()
    assert after["round"]["offer"] is None and after["corps"]["KO"]["trains"] == [train]
    assert after["corps"]["UR"]["trains"] == []
    assert (after["corps"]["KO"]["cash"], after["corps"]["UR"]["cash"]) == (ko_cash - 1, ur_cash + 1)


async def test_an_18xx_table_is_exported_for_the_site_even_while_it_runs(world):
    """Nothing is secret in an 18xx game, so `/game export` answers at any time after the start, with the game in
    18xx.games's export format (which our replay reads too); a table still in its lobby has nothing to export."""
    from engines.e18xx.replay import replay_export
    from tests.helpers import start_table
    env, g, ch, members = world
    lobby = (await members[0].slash(ch, "game create", game="1889", players=3)).response.content.split()[1]
    r = await members[0].slash(ch, "game export", table=int(lobby))
    assert r.response.content == f"Table {lobby} has not started: there is no game to export yet."
    gid = await start_table(ch, members[0], members[1:], game="1889")
    svc = env.bot.tables
    for _ in range(8):
        t = await svc.load(gid)
        seat = min(t.engine.awaiting(t.state).seats)
        await svc.act(gid, t.game.user_at(seat).user_id, t.engine.legal(t.state, seat)[0])
    r = await members[1].slash(ch, "game export", table=gid)
    assert r.response.content == f"The log of table {gid} in 18xx.games's format: the site's tools load it."
    [attachment] = r.response.attachments
    assert attachment.filename == f"1889-table-{gid}.json" and r.response.ephemeral
    doc = json.loads(await attachment.read())
    assert (doc["title"], doc["id"], doc["status"]) == ("1889", gid, "active")
    _, replayed = replay_export(doc)
    assert replayed.state["cash"] == (await svc.load(gid)).state["cash"]
