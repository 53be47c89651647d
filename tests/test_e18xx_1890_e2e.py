"""SimCord: three users create 1890 with `/game create 1890 options:scenario=...`, and a whole game is played
through the table service to its end; after every move the table message (text, pictures) is shown without error,
the initial stock round, Kinki's formation and the private sales read in it, and `/rules 1890` answers."""
from __future__ import annotations

import random

import pytest

from bot.app import create_bot
from tests.helpers import seat_table, table_message
from tests.test_e18xx_1890_full import keen_move


@pytest.fixture
def simcord_bot(settings):
    return create_bot(settings, sync_on_start=True, rng=random.Random(5))


@pytest.mark.parametrize("scenario, seed", [("hanshin", 3), ("full", 9)])
async def test_a_whole_game_of_1890_in_discord(world, scenario, seed):
    env, _, ch, members = world
    table = await seat_table(env, ch, members, game="1890", options=f"scenario={scenario}")
    engine, state = table.engine, table.state
    s = await state()
    assert s["title"] == ("1890" if scenario == "full" else f"1890/{scenario}")
    text = table_message(ch, table.gid).embeds[0].description
    assert text
    rng = random.Random(seed)
    seen_kinds = set()
    for _ in range(3000):
        s = await state()
        if s["over"]:
            break
        seen_kinds.add(s["round"]["kind"])
        seat = rng.choice(sorted(engine.awaiting(s).seats))
        await table.act(seat, keen_move(s, seat, rng))
        assert table_message(ch, table.gid).embeds[0].description
    s = await state()
    assert s["over"] and {"isr", "stock", "operating"} <= seen_kinds
    assert engine.scores(s) is not None


async def test_rules_1890(world):
    env, _, ch, members = world
    r = await members[0].slash(ch, "rules", game="1890")
    assert "1890" in (r.response.content or "") + "".join(e.description or "" for e in r.response.embeds)


async def test_1890s_offers_conversion_and_mergers_through_slash_commands(world):
    """`/18xx buyprivate` in a stock round offers a price for another player's private (rules §"Purchase of private
    companies by players") and the owner answers with `/18xx offer`; `/18xx convert` turns Osaka Electric into
    Kinki Nippon (rules §"Kinki Nippon Railway"); `/18xx merge` names the minor (Kanan) that merges into Kinki.
    Everything else is played through the table service by players who never make those moves themselves."""
    from engines.e18xx import operating
    from engines.e18xx.state import G

    env, _, ch, members = world
    table = await seat_table(env, ch, members, game="1890", options="scenario=full")
    engine, state, by_seat = table.engine, table.state, table.by_seat
    rng = random.Random(9)

    def player_offer(s, m) -> bool:
        return (m["type"] == "buy_company" and s["round"]["kind"] == "stock"
                and (s["privates"][m["company"]]["owner"] or "").isdigit())

    done: list[str] = []
    for _ in range(1500):
        s = await state()
        if s["over"] or len(done) == 3:
            break
        seat = min(engine.awaiting(s).seats)
        legal = engine.legal(s, seat)
        member = by_seat[seat]
        offer = next((m for m in legal if player_offer(s, m)), None)
        if "offer" not in done and offer is not None:
            pid = offer["company"]
            seller = int(s["privates"][pid]["owner"])
            r = await member.slash(ch, "18xx buyprivate", company=pid, price=offer["price"])
            assert r.ephemeral, r.response.content
            after = await state()
            assert after["round"]["offer"] == {"buyer_seat": seat, "seller_seat": seller, "company": pid,
                                               "price": offer["price"]}
            r = await member.slash(ch, "18xx offer", answer="accept_offer")
            assert r.response.content == "No offer is waiting for your answer.", r.response.content
            r = await by_seat[seller].slash(ch, "18xx offer", answer="accept_offer")
            assert r.ephemeral, r.response.content
            after = await state()
            assert after["privates"][pid]["owner"] == str(seat) and after["round"]["offer"] is None
            assert after["cash"][seat] == s["cash"][seat] - offer["price"]
            assert after["cash"][seller] == s["cash"][seller] + offer["price"]
            done.append("offer")
            continue
        if "convert" not in done and {"type": "convert", "entity": "Daiki"} in legal:
            assert operating.current(G(s)) == "Daiki"
            r = await member.slash(ch, "18xx convert", corporation="Osaka Electric Railroad")
            assert r.ephemeral, r.response.content
            after = await state()
            assert after["corps"]["Daiki"].get("closed") and after["corps"]["Kinki"]["floated"]
            assert after["corps"]["Kinki"]["president"] is not None
            done.append("convert")
            continue
        merge = next((m for m in legal if m["type"] == "merge" and m.get("entity") == "Kanan"), None)
        if "merge" not in done and merge is not None:
            others = [m for m in by_seat.values() if m is not member]
            r = await others[0].slash(ch, "18xx merge", corporation="Kanan")
            assert r.ephemeral and "cannot merge now" in r.response.content, r.response.content
            r = await member.slash(ch, "18xx merge", corporation="Kanan")
            assert r.ephemeral, r.response.content
            after = await state()
            assert after["corps"]["Kanan"].get("closed")
            assert "Kanan Railway merges into Kinki Nippon Railway" in "\n".join(
                m.content or "" for m in ch.history()[-6:])
            done.append("merge")
            continue
        ok = [m for m in legal if m["type"] not in ("convert", "merge") and not player_offer(s, m)]
        move = keen_move(s, seat, rng)
        await table.act(seat, move if move in ok else rng.choice(ok))
    assert done == ["offer", "convert", "merge"]


async def test_1890s_initial_stock_round_bids_through_slash_commands(world):
    """`/18xx bid` in the initial stock round names a private or a minor (by id or by name, any case); its price
    autocomplete finds 1890's mixed-case ids."""
    env, _, ch, members = world
    table = await seat_table(env, ch, members, game="1890", options="scenario=full")
    s = await table.state()
    seat = min(table.engine.awaiting(s).seats)
    member = table.by_seat[seat]
    prices = await member.autocomplete(ch, "18xx bid", "price", "", company="kobetram")
    assert prices and all("Kobe Tramway" in c["name"] for c in prices), prices
    r = await member.slash(ch, "18xx bid", company="Kanan Railway", price=105)
    assert r.ephemeral, r.response.content
    s = await table.state()
    assert s["round"]["bids"]["Kanan"] == [[seat, 105]]
    seat = min(table.engine.awaiting(s).seats)
    r = await table.by_seat[seat].slash(ch, "18xx bid", company="KobeTram", price=45)
    assert r.ephemeral, r.response.content
    assert (await table.state())["round"]["bids"]["KobeTram"] == [[seat, 45]]
