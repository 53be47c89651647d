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
