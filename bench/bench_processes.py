"""Actions per second and p99 latency of a move with 1, 2 and 4 bot processes on one PostgreSQL, and with one
process on SQLite, in one run (issue 19).

Each process is what one bot process of a sharded deployment runs, without Discord: a table service (the
per-table lock held across processes, the commit, the game row read back) and an outbox loop that claims each
row it sends and marks it sent (its Discord side is a no-op), on its own tables (a shard's servers), all on one
database. Every process plays ``--tables`` Dice & Hands tables side by side, each table one move after another
as fast as the service answers (a new table when one ends), for ``--seconds``; each move's `TableService.act` is
timed, press to stored. The figures are the sum of the processes' moves per second and the p99 over all moves.

PostgreSQL is a server the run starts itself (the pgserver package, the tests' server), with its defaults
(durable commits: fsync, synchronous_commit on), or the one ``--url`` names (an empty database).

Run from the repository root:  python bench/bench_processes.py   (about a minute and a half)
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repo, when run as a script

ROOT = Path(__file__).resolve().parents[1]


def quantile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(q * (len(xs) - 1)))] if xs else float("nan")


# --- one process --------------------------------------------------------------------------------------------
async def worker(db: str, tables: int, seconds: float, seed: int) -> dict:
    from bot.clock import SystemClock
    from bot.outbox import Outbox
    from bot.selfplay import selfplay_move
    from bot.tables import TableService
    from tests.stores import open_store

    store = await open_store(db)
    svc = TableService(store, SystemClock(), rng=random.Random(seed))
    rng = random.Random(seed + 1)
    wake = asyncio.Event()

    async def deliver(row) -> None:
        await store.mark_sent(row.id, time.time())

    async def rest(s: float) -> None:
        try:
            await asyncio.wait_for(wake.wait(), s)
        except TimeoutError:
            pass
        wake.clear()

    outbox = Outbox(store, deliver, rest, wake.set, now=time.time)

    async def told(change) -> None:
        outbox.poke()

    svc.listeners.append(told)
    users = iter(range(seed * 10**6, seed * 10**6 + 10**6))

    async def new_table() -> int:
        ids = [next(users) for _ in range(3)]
        t = await svc.create(guild_id=seed, channel_id=next(users), engine_name="dicehand", user_id=ids[0],
                             name="p0", options={"rounds": 5})
        for i, u in enumerate(ids[1:], 1):
            await svc.join(t.game.id, u, f"p{i}")
        await svc.start(t.game.id, ids[0])
        return t.game.id

    gids = [await new_table() for _ in range(tables)]
    runner = asyncio.create_task(outbox.run())
    print(json.dumps({"ready": True}), flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)  # all processes start together
    latencies: list[float] = []
    end = time.monotonic() + seconds

    async def play(slot: int) -> None:
        while time.monotonic() < end:
            table = await svc.load(gids[slot])
            if table.game.status != "active":
                gids[slot] = await new_table()
                continue
            seat = rng.choice(sorted(table.engine.awaiting(table.state).seats))
            move = selfplay_move(table.engine, table.state, seat, rng)
            t0 = time.perf_counter()
            await svc.act(table.game.id, table.game.user_at(seat).user_id, move)
            latencies.append(time.perf_counter() - t0)

    start = time.monotonic()
    await asyncio.gather(*(play(i) for i in range(tables)))
    took = time.monotonic() - start
    outbox.stop()
    wake.set()
    await runner
    await store.close()
    return {"moves": len(latencies), "seconds": took, "latencies": latencies}


# --- the run ------------------------------------------------------------------------------------------------
def cpu_ticks() -> tuple[int, int]:
    """(busy, all) jiffies of the machine's cores so far (/proc/stat)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]
    return sum(fields) - idle, sum(fields)


def run_processes(db: str, processes: int, tables: int, seconds: float) -> dict:
    procs = [subprocess.Popen([sys.executable, __file__, "--worker", db, str(tables), str(seconds), str(i + 1)],
                              cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
             for i in range(processes)]
    for p in procs:
        assert json.loads(p.stdout.readline()).get("ready"), "a process did not start"
    busy0, all0 = cpu_ticks()
    for p in procs:
        p.stdin.write("go\n")
        p.stdin.flush()
    results = [json.loads(p.communicate()[0].strip().splitlines()[-1]) for p in procs]
    busy1, all1 = cpu_ticks()
    assert all(p.returncode == 0 for p in procs), "a process failed"
    latencies = [x for r in results for x in r["latencies"]]
    moves = sum(r["moves"] for r in results)
    return {"moves": moves, "per_second": sum(r["moves"] / r["seconds"] for r in results),
            "p50": quantile(latencies, 0.5), "p99": quantile(latencies, 0.99),
            "busy": (busy1 - busy0) / max(1, all1 - all0)}


def fresh_postgres_db(server, n: int) -> str:
    name = f"bench{n}"
    server.psql(f"CREATE DATABASE {name};")
    return server.get_uri(name)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=10.0, help="how long each configuration plays")
    ap.add_argument("--tables", type=int, default=8, help="tables each process plays side by side")
    ap.add_argument("--processes", default="1,2,4", help="process counts on PostgreSQL")
    ap.add_argument("--url", help="an empty PostgreSQL database to use instead of a server started here "
                                  "(each count gets its own schema)")
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        r = run_processes(str(Path(tmp) / "bench.sqlite3"), 1, args.tables, args.seconds)
        rows.append(("SQLite", 1, r))
        server, folder = None, None
        if not args.url:
            warnings.filterwarnings("ignore", "XDG_RUNTIME_DIR is not set")  # pgserver's runtime folder: not needed
            import pgserver

            folder = Path(tempfile.mkdtemp(prefix="boardbot-bench-pg-"))
            folder.chmod(0o755)  # the server runs as a user of its own when this runs as root
            server = pgserver.get_server(folder / "data", cleanup_mode="delete")
        try:
            for n, count in enumerate(int(c) for c in args.processes.split(",")):
                if server is not None:
                    db = fresh_postgres_db(server, n)
                else:
                    db = f"{args.url}{'&' if '?' in args.url else '?'}search_path=bench{n}"
                    _create_schema(args.url, f"bench{n}")
                rows.append(("PostgreSQL", count, run_processes(db, count, args.tables, args.seconds)))
        finally:
            if server is not None:
                server.cleanup()
                shutil.rmtree(folder, ignore_errors=True)
    print(f"{args.tables} Dice & Hands tables per process, each played move after move for {args.seconds:.0f} s; "
          "an outbox loop in each process")
    print(f"{'store':<11} {'processes':>9} {'moves':>7} {'moves/s':>8} {'p50':>8} {'p99':>8} {'cores busy':>10}")
    for store, count, r in rows:
        print(f"{store:<11} {count:>9} {r['moves']:>7} {r['per_second']:>8.0f} {r['p50'] * 1000:>6.1f}ms "
              f"{r['p99'] * 1000:>6.1f}ms {r['busy']:>10.0%}")
    print(f"on {os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f} at the end (other work on the machine "
          "counts in 'cores busy')")


def _create_schema(url: str, name: str) -> None:
    import asyncpg

    async def go() -> None:
        conn = await asyncpg.connect(url)
        await conn.execute(f"CREATE SCHEMA {name}")
        await conn.close()

    asyncio.run(go())


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        db, tables, seconds, seed = sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
        result = asyncio.run(worker(db, tables, seconds, seed))
        print(json.dumps(result), flush=True)
    else:
        main()
