"""A table service in a process of its own, for the crash test (tests/test_crash_recovery.py) to kill -9, and
for the test of two processes racing on one PostgreSQL database.

    python -m tests.crash_worker DB SINK SEED [LEASE]

DB is a SQLite file or a postgresql:// URL; LEASE the seconds a claimed outbox row stays this process's (the
bot's default otherwise), short in the tests so a killed process's claims are soon taken over.

It prints {"ready": true} once it has done what the bot does at start (draw any chance a table awaits,
run the outbox), with no Discord: the outbox's deliver renders each announcement from the log
(TableService.change_at) and records each row it sends in SINK, one JSON line, before marking it sent, as
the bot's delivery posts before it marks. It reads
commands as JSON lines on stdin, each run at once (a burst interleaves across tables), and prints one JSON
line per command only after its commit:
- {"id", "op": "new", "engine", "players"}: create, seat and start a table -> {"id", "gid"}
- {"id", "op": "play", "gid"}: an awaited seat plays a random legal move -> {"id", "gid", "seq", "seat",
  "action", "t0", "t1"} (the move is stored at seq; t0 and t1 are the machine's monotonic clock before the move
  was sent and after it was stored), or {"id", "refused"}
- {"id", "op": "drain"}: wait until the outbox is empty -> {"id", "drained": true}
"""
from __future__ import annotations

import asyncio
import json
import random
import sys
import time
from collections import defaultdict

from bot.clock import SystemClock
from bot.errors import Refusal
from bot.outbox import Outbox
from bot.tables import TableService
from engines.base import RuleError
from tests.stores import open_store


async def main(db: str, sink_path: str, seed: int, lease: float | None = None) -> None:
    store = await open_store(db)
    rng = random.Random(seed)
    svc = TableService(store, SystemClock(), rng=random.Random(seed + 1))
    wake = asyncio.Event()
    sink = open(sink_path, "a", encoding="utf-8")  # noqa: SIM115 - open for the process's life

    async def deliver(row) -> None:
        if row.payload.get("kind") == "announce":
            p = row.payload
            change = await svc.change_at(p["game_id"], p["first"], p["last"], p["digest"])
            assert change is not None and change.entries, f"announcement {row.id} lost its moves"
        sink.write(json.dumps({"row": row.id, "kind": row.payload.get("kind", row.kind)}) + "\n")
        sink.flush()  # in the OS's hands now: a kill -9 does not lose it, as a message Discord accepted
        await store.mark_sent(row.id, svc.clock.now())

    async def rest(seconds: float) -> None:
        try:
            await asyncio.wait_for(wake.wait(), seconds)
        except TimeoutError:
            pass
        wake.clear()

    outbox = Outbox(store, deliver, rest, wake.set, now=svc.clock.now, lease=lease)
    committed: dict[asyncio.Task, list] = {}  # the entries each task's last commit stored (seq, seat, action)

    async def told(change) -> None:
        committed[asyncio.current_task()] = change.entries  # listeners run in the task that committed
        outbox.poke()

    svc.listeners.append(told)
    await svc.recover()
    runner = asyncio.create_task(outbox.run())
    sys.stdout.write(json.dumps({"ready": True}) + "\n")
    sys.stdout.flush()

    def say(doc) -> None:
        sys.stdout.write(json.dumps(doc) + "\n")
        sys.stdout.flush()

    async def run(cmd: dict) -> None:
        try:
            if cmd["op"] == "new":
                users = [1000 + i for i in range(cmd["players"])]
                t = await svc.create(guild_id=1, channel_id=2, engine_name=cmd["engine"], user_id=users[0],
                                     name="p0", options={})
                for i, u in enumerate(users[1:], 1):
                    await svc.join(t.game.id, u, f"p{i}")
                await svc.start(t.game.id, users[0])
                say({"id": cmd["id"], "gid": t.game.id})
            elif cmd["op"] == "play":
                async with turns[cmd["gid"]]:  # a table's players move one after another; tables interleave
                    t = await svc.load(cmd["gid"])
                    if t.game.status != "active":
                        return say({"id": cmd["id"], "gid": t.game.id, "refused": "over"})
                    seat = rng.choice(sorted(t.engine.awaiting(t.state).seats))
                    move = rng.choice(t.engine.legal(t.state, seat))
                    t0 = time.monotonic()
                    try:
                        await svc.act(t.game.id, t.game.user_at(seat).user_id, move, chosen_at=t.seq)
                    except RuleError as e:  # another process moved first and the move is no longer legal
                        return say({"id": cmd["id"], "refused": str(e)})
                    seq = committed.pop(asyncio.current_task())[0][0]  # where the move went (another process
                    say({"id": cmd["id"], "gid": t.game.id, "seq": seq, "seat": seat, "action": move, "t0": t0,
                         "t1": time.monotonic()})  # may have stored secret choices first)
            elif cmd["op"] == "drain":  # after every other command has answered
                while len(tasks) > 1 or await store.pending():
                    wake.set()
                    await asyncio.sleep(0.01)
                say({"id": cmd["id"], "drained": True})
        except Refusal as e:
            say({"id": cmd["id"], "refused": str(e)})

    turns: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    tasks = set()
    while line := await reader.readline():
        task = asyncio.create_task(run(json.loads(line)))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
    await asyncio.gather(*tasks)
    outbox.stop()
    wake.set()
    await runner
    await store.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4]) if len(sys.argv) > 4 else None))
