"""Two table services in processes of their own (tests/crash_worker.py) on one PostgreSQL database, as two bot
processes running different shards would be:

- racing: the same bursts of moves at the same tables are sent to both at once. Every acknowledged move is in the
  log at the seq it was acknowledged with (nothing lost), no two acknowledgements share a seq and the log holds no
  move nobody acknowledged (nothing doubled), a move acknowledged before another was sent comes first in the log
  (nothing reordered), and every outbox row is sent once, by one of them;
- killed: one of the two is killed -9 at a random moment of a burst, again and again, while the other goes on;
  then the checks of the crash test (tests/test_crash_recovery.py): nothing acknowledged lost, no gap, every log
  replays, no table stuck, every row sent (a second time only for a row a kill caught between send and mark).

CI runs both small; `python -m pytest -m slow tests/test_processes.py` runs the kill test at full size."""
from __future__ import annotations

import asyncio
import itertools
import os
import random
import time
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from engines.base import CHANCE
from tests.stores import open_store
from tests.test_crash_recovery import GAMES, Worker, check, collect

#: A killed process's claimed outbox rows are taken over after this many seconds (the bot's lease is minutes).
LEASE = 1.0


def start(db: str, sink: Path, seeds: list[int]) -> list[Worker]:
    workers = [Worker(db, sink, seed, lease=LEASE) for seed in seeds]
    for w in workers:
        w.wait_ready()
    return workers


def new_tables(worker: Worker, ids: itertools.count, count: int, rnd: random.Random) -> list[int]:
    first = len([x for x in worker.lines if "gid" in x and "seq" not in x])
    for engine, players in rnd.sample(GAMES * 2, count):
        worker.send({"id": next(ids), "op": "new", "engine": engine, "players": players})
    deadline = time.monotonic() + 60
    while len(made := [x["gid"] for x in worker.lines if "gid" in x and "seq" not in x]) < first + count:
        assert time.monotonic() < deadline, "the tables were not made"
        time.sleep(0.02)
    return made[first:]


def test_two_processes_racing_on_the_same_tables_lose_double_and_reorder_nothing(pg_url, tmp_path):
    rnd, ids, sink = random.Random(5), itertools.count(1), tmp_path / "sink.jsonl"
    workers = start(pg_url, sink, [1, 2])
    live = new_tables(workers[0], ids, 6, rnd)
    for _ in range(120):  # the same move request to both processes at once, table after table
        gid = rnd.choice(live)
        for w in workers:
            w.send({"id": next(ids), "op": "play", "gid": gid})
    lines = [x for w in workers for x in w.finish()]
    acked: list[dict] = []
    collect(lines, acked, [])
    by_worker = [sum("seq" in x for x in w.lines) for w in workers]
    assert all(by_worker), f"both processes stored moves: {by_worker}"
    stats = asyncio.run(check({"acked": acked, "db": pg_url, "sink": sink, "kills": 0}))
    assert stats["delivered again"] == 0, "no row is sent by both processes"
    # nothing doubled: one acknowledgement per stored move, and no stored move without one
    assert not [k for k, n in Counter((x["gid"], x["seq"]) for x in acked).items() if n > 1]
    stored = asyncio.run(player_moves(pg_url, live))
    assert stored == {(x["gid"], x["seq"]) for x in acked}
    # nothing reordered: a move acknowledged before another was sent is before it in the log
    per_table = defaultdict(list)
    for x in acked:
        per_table[x["gid"]].append(x)
    for moves in per_table.values():
        for a, b in itertools.permutations(moves, 2):
            if a["t1"] < b["t0"]:
                assert a["seq"] < b["seq"], (a, b)


async def player_moves(db: str, gids: list[int]) -> set[tuple[int, int]]:
    store = await open_store(db)
    try:
        return {(gid, a.seq) for gid in gids for a in await store.actions(gid) if a.seat != CHANCE}
    finally:
        await store.close()


def shared_crash_run(db: str, tmp: Path, kills: int, burst: int, seed: int,
                     pause: tuple[float, float] = (0.05, 0.4)) -> dict:
    """Two processes share the bursts; at each round one of them is killed and started again. Tables that end are
    replaced by new ones, so six are always in play."""
    rnd, ids, sink = random.Random(seed), itertools.count(1), tmp / "sink.jsonl"
    acked: list[dict] = []
    over: set[int] = set()
    workers = start(db, sink, [seed * 1000, seed * 1000 + 1])
    live = new_tables(workers[0], ids, 6, rnd)
    for k in range(kills):
        over |= {x["gid"] for w in workers for x in w.lines if x.get("refused") == "over"}
        live = [g for g in live if g not in over]
        live += new_tables(workers[0], ids, 6 - len(live), rnd) if len(live) < 6 else []
        for _ in range(burst):
            rnd.choice(workers).send({"id": next(ids), "op": "play", "gid": rnd.choice(live)})
        time.sleep(rnd.uniform(*pause))
        victim = rnd.randrange(2)
        collect(workers[victim].kill(), acked, [])
        workers[victim] = start(db, sink, [seed * 1000 + 2 + k])[0]
    for w in workers:
        collect(w.finish(), acked, [])
    return {"acked": acked, "db": db, "sink": sink, "kills": kills}


def test_a_process_killed_mid_burst_loses_nothing_the_other_goes_on(pg_url, tmp_path):
    stats = asyncio.run(check(shared_crash_run(pg_url, tmp_path, kills=3, burst=40, seed=1)))
    assert stats["acked"] > 30, stats


@pytest.mark.slow
def test_a_process_killed_thirty_times_on_postgresql(pg_url, tmp_path):
    run = shared_crash_run(pg_url, tmp_path, kills=30, burst=200, seed=int(os.environ.get("CRASH_SEED", "7")),
                           pause=(0.1, 3.0))
    stats = asyncio.run(check(run))
    print(stats)
    assert stats["acked"] > 1000, stats
