"""A commit's narration (TableService.change_at, run when the outbox sends it) starts from the states the commit
kept: the one before it and the one after it, so it replays nothing; a narration of an older commit, or one after an
undo, is rebuilt from the log as before."""
from __future__ import annotations

import random

import pytest

import bot.tables as tables
import engines
from bot.tables import entries_digest
from engines.log import replay
from tests.service_helpers import open_service, random_move, started_table


@pytest.fixture
async def service(db):
    s = await open_service(db, seed=3, snapshot_every=1000)  # no snapshot: a rebuild replays the log from the start
    yield s
    await s.store.close()


async def test_a_commits_narration_replays_nothing(service, monkeypatch):
    changes = []

    async def keep(change):
        changes.append(change)

    service.listeners.append(keep)
    gid = await started_table(service)
    rng = random.Random(1)
    for _ in range(12):
        uid, _, action = random_move(await service.load(gid), rng, change_mind=0)
        await service.act(gid, uid, action)
    told = [c for c in changes if c.kind == "action"]
    old, last = told[-4], told[-1]

    async def narration(change):
        first, end = change.entries[0][0], change.entries[-1][0]
        return await service.change_at(gid, first, end, entries_digest(change.entries))

    game = await service.store.game(gid)
    engine = engines.get(game.engine)
    log = [(a.seq, a.seat, a.action) for a in await service.store.actions(gid)]
    before_last = replay(engine, engine.setup(game.options, len(game.seats)),
                         [e for e in log if e[0] < last.entries[0][0]])
    end = await service.full_replay(gid)
    rebuilt_old = await narration(old)  # older than the states kept: rebuilt from the log
    assert rebuilt_old.before == old.before and rebuilt_old.table.state == old.table.state

    def no_replay(engine, state, entries):
        assert not list(entries), "the narration of the last commit replayed moves of the log"
        return state

    monkeypatch.setattr(tables, "replay", no_replay)
    now = await narration(last)
    assert now.before == before_last and now.table.state == end
