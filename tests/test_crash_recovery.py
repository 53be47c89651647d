"""kill -9 of a table service during bursts of moves: nothing acknowledged is lost or doubled, no table is left
waiting for a draw nobody makes, and every announcement goes out once.

The service runs in tests/crash_worker.py, a process of its own. Bursts of commands (new tables, moves at
random tables) are sent to it and it is killed at a random moment, then restarted on the same file, many times;
at the end it drains its outbox. Then:
- every acknowledged move is in the log at the seq it was acknowledged with (nothing lost), the log of every
  table has no gap and replays to the same state from the start as from its snapshots (nothing doubled);
- no active table awaits a chance draw;
- the announcement rows cover every stored action exactly once, each was delivered, and a row is delivered
  twice only when a kill fell between its delivery and its mark (at most one row per route per kill, routes
  sending side by side; Discord's nonce makes that second post a no-op).

On PostgreSQL two such processes share the database and one of them is killed at a time while the other goes
on (tests/test_processes.py), with the same checks.

CI runs it small; `python -m pytest -m slow tests/test_crash_recovery.py` runs it at full size (60 kills)."""
from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import pytest

from bot.clock import SystemClock
from bot.tables import TableService
from tests.stores import open_store

ROOT = Path(__file__).resolve().parent.parent
GAMES = (("dicehand", 2), ("dicehand", 3), ("fourbit", 2), ("fourbit", 3))


class Worker:
    def __init__(self, db: Path | str, sink: Path, seed: int, lease: float | None = None):
        args = [str(db), str(sink), str(seed)] + ([str(lease)] if lease is not None else [])
        self.proc = subprocess.Popen([sys.executable, "-m", "tests.crash_worker", *args],
                                     cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.lines: list[dict] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            try:
                self.lines.append(json.loads(line))
            except json.JSONDecodeError:
                pass  # a line cut by the kill was never acknowledged

    def wait_ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while not any(x.get("ready") for x in self.lines):
            assert time.monotonic() < deadline and self.proc.poll() is None, "the worker did not start"
            time.sleep(0.01)

    def send(self, cmd: dict) -> None:
        self.proc.stdin.write(json.dumps(cmd) + "\n")
        self.proc.stdin.flush()

    def kill(self) -> list[dict]:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        self._reader.join()
        return self.lines

    def finish(self, timeout: float = 120) -> list[dict]:
        self.send({"id": -1, "op": "drain"})
        deadline = time.monotonic() + timeout
        while not any(x.get("id") == -1 for x in self.lines):
            assert time.monotonic() < deadline, "the outbox never drained"
            time.sleep(0.02)
        self.proc.stdin.close()
        assert self.proc.wait(timeout) == 0
        self._reader.join()
        return self.lines


def collect(lines: list[dict], acked: list[dict], live: list[int]) -> None:
    """A worker's answers: acknowledged moves into ``acked``; new tables into ``live``, ended ones out."""
    for x in lines:
        if x.get("refused") == "over":
            if x["gid"] in live:
                live.remove(x["gid"])
        elif "seq" in x:
            acked.append(x)
        elif "gid" in x:
            live.append(x["gid"])


def crash_run(tmp: Path, kills: int, burst: int, seed: int, pause: tuple[float, float] = (0.01, 0.4)) -> dict:
    db, sink = tmp / "games.sqlite3", tmp / "sink.jsonl"
    rnd = random.Random(seed)
    acked: list[dict] = []
    live: list[int] = []
    next_id = 0
    for k in range(kills + 1):
        w = Worker(db, sink, seed * 1000 + k)
        w.wait_ready()
        cmds = [{"op": "new", "engine": e, "players": n} for e, n in rnd.sample(GAMES * 2, max(0, 6 - len(live)))]
        cmds += [{"op": "play", "gid": rnd.choice(live)} for _ in range(burst if live else 0)]
        for cmd in cmds:
            next_id += 1
            w.send({"id": next_id, **cmd})
        if k < kills:
            time.sleep(rnd.uniform(*pause))  # part of the burst is stored and acknowledged, then the kill
            lines = w.kill()
        else:
            lines = w.finish()
        collect(lines, acked, live)
    return {"acked": acked, "db": db, "sink": sink, "kills": kills}


async def check(run: dict) -> dict:
    store = await open_store(run["db"])
    svc = TableService(store, SystemClock())
    try:
        # nothing acknowledged is lost
        logs = {}
        for x in run["acked"]:
            if x["gid"] not in logs:
                logs[x["gid"]] = {a.seq: a for a in await store.actions(x["gid"])}
            row = logs[x["gid"]].get(x["seq"])
            assert row is not None and (row.seat, row.action) == (x["seat"], x["action"]), x
        # nothing doubled: no gap, and the log replays from the start to what snapshots and cache give
        games = await store.games(statuses=("lobby", "active", "over"))
        actions = 0
        for g in games:
            rows = await store.actions(g.id)
            actions += len(rows)
            assert [a.seq for a in rows] == list(range(1, len(rows) + 1)), g.id
            if g.status == "lobby":
                continue
            table = await svc.load(g.id)
            assert await svc.full_replay(g.id) == table.state, g.id
            # no stuck table: an active table waits for a player, never for a draw
            aw = table.engine.awaiting(table.state)
            assert g.status == "over" or (aw.chance is None and aw.seats), (g.id, aw)
            # every stored action is announced by exactly one announcement row
            covered = Counter()
            for _, payload in await store._rows("SELECT id, payload FROM outbox WHERE game_id = ?", (g.id,)):
                p = json.loads(payload)
                if p.get("kind") == "announce":
                    covered.update(range(p["first"], p["last"] + 1))
            assert covered == Counter(a.seq for a in rows), g.id
        # every row was delivered; a second delivery only for a row a kill caught in between
        unsent = await store._rows("SELECT id FROM outbox WHERE sent_at IS NULL")
        assert unsent == []
        rows = (await store._rows("SELECT COUNT(*) FROM outbox"))[0][0]
        sent = Counter(json.loads(line)["row"] for line in run["sink"].read_text().splitlines())
        assert len(sent) == rows
        again = sum(c - 1 for c in sent.values())
        # routes (each channel, each player's DMs) send side by side: a kill catches at most one row of each
        routes = (await store._rows("SELECT COUNT(DISTINCT kind || target_id) FROM outbox"))[0][0]
        assert again <= run["kills"] * routes
        return {"tables": len(games), "actions": actions, "acked": len(run["acked"]), "outbox rows": rows,
                "delivered again": again}
    finally:
        await store.close()


def test_kill_9_during_bursts_loses_nothing_and_leaves_no_table_stuck(tmp_path):
    run = crash_run(tmp_path, kills=5, burst=60, seed=1)
    stats = asyncio.run(check(run))
    assert stats["acked"] > 50, stats  # the bursts did reach the tables


@pytest.mark.slow
def test_kill_9_sixty_times(tmp_path):
    run = crash_run(tmp_path, kills=60, burst=300, seed=int(os.environ.get("CRASH_SEED", "7")), pause=(0.1, 4.0))
    stats = asyncio.run(check(run))
    print(stats)
    assert stats["acked"] > 2000, stats
