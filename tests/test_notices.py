"""Channel notices are rendered when the outbox sends them: a ping queued for a player who has moved since calls
nobody to move."""
from __future__ import annotations

import pytest

from bot.table_ui import notice_text
from tests.service_helpers import open_service, started_table, user_at


@pytest.fixture
async def service(db):
    s = await open_service(db, seed=2)
    yield s
    await s.store.close()


async def test_a_ping_for_a_player_who_has_moved_since_is_not_sent(service):
    gid = await started_table(service, 3, random_seats=False)
    table = await service.load(gid)
    first = user_at(table, table.state["turn"])
    ping = {"game_id": gid, "kind": "ping", "users": [first]}
    prompt = table.engine.awaiting(table.state).prompt
    assert notice_text(table, ping) == f"Table {gid} · Dice & Hands: <@{first}>, your move ({prompt})."
    table = await service.act(gid, first, {"type": "bet", "amount": 0})
    assert notice_text(table, ping) is None
    nxt = user_at(table, table.state["turn"])
    assert f"<@{nxt}>, your move" in notice_text(table, {**ping, "users": [first, nxt]})
    assert f"<@{first}>" not in notice_text(table, {**ping, "users": [first, nxt]})
