"""What one long-running process keeps per table is bounded: the state cache holds the most recently used tables
only, and a table's lock lives only while someone holds or waits for it."""
from __future__ import annotations

import asyncio
import random

import pytest

import bot.tables
from tests.service_helpers import open_service, random_move, started_table


@pytest.fixture
async def service(db):
    s = await open_service(db, seed=4, snapshot_every=5)
    yield s
    await s.store.close()


async def test_the_state_cache_keeps_only_the_most_recently_used_tables(service, monkeypatch):
    monkeypatch.setattr(bot.tables, "CACHED_TABLES", 3)
    rng = random.Random(2)
    gids = [await started_table(service, 2) for _ in range(6)]
    for _ in range(4):
        for gid in gids:
            table = await service.load(gid)
            if table.game.status != "active":
                continue
            user, _, move = random_move(table, rng)
            await service.act(gid, user, move)
    assert len(service._cache) == 3 and list(service._cache) == gids[-3:]
    for gid in gids:  # a table no longer cached loads as it was stored
        assert (await service.load(gid)).state == await service.full_replay(gid)
    assert len(service._cache) == 3


async def test_a_tables_lock_is_dropped_once_nobody_holds_or_waits_for_it(service):
    gid = await started_table(service, 2)
    held, release = asyncio.Event(), asyncio.Event()

    async def holder():
        async with service.lock(gid):
            held.set()
            await release.wait()

    async def waiter():
        async with service.lock(gid):
            pass

    tasks = [asyncio.create_task(holder())]
    await held.wait()
    tasks.append(asyncio.create_task(waiter()))
    await asyncio.sleep(0)
    assert gid in service._locks  # held, and waited for
    release.set()
    await asyncio.gather(*tasks)
    assert service._locks == {}
    rng, table = random.Random(1), await service.load(gid)
    while table.game.status == "active":
        user, _, move = random_move(table, rng)
        table = await service.act(gid, user, move)
    assert service._locks == {}
