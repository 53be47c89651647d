"""What one bot process holds: many tables at once, the whole bot in SimCord, moves at a set rate.

    python bench/bench_load.py [--tables 200] [--rates 5,10,15,20] [--seconds 30]

For each rate, moves are played at that many a second (SimCord's virtual clock; each second's moves spread over
the tables, each a legal move of an awaited seat, through the table service as a click would) while the outbox
sends the narration, pings and DMs they cause at the bot's default pace (one message a second per channel or
player, 40 a second in all). It prints, per rate: the outbox backlog (rows waiting) at the middle and at the end of
the run and the age of the oldest waiting row, whether the backlog is bounded (the end is not above the middle by
more than one second of messages), the p50 / p99 wall time of a move's answer (commit, table message edit,
listeners), the messages queued per move, and the process's peak memory. The sustained rate is the highest
whose backlog stays bounded and whose work keeps pace with the real clock (below).

Every table has its own channel, as a busy bot's tables are spread over many servers. A table ends after a few
dozen moves (Dice & Hands, 5 rounds); a finished table's turns are skipped, so the last rate may play fewer moves.

The virtual clock moves a second at a time, and each second's work (the moves, the sends they cause, SimCord's
own side of them) takes some real time on this machine: the run prints that wall time per virtual second too. A
rate is sustained only if the backlog stays bounded *and* a virtual second's work fits in a real second: a bot
that needs longer falls behind the real clock whatever its queues say. That figure counts SimCord's simulated
Discord as well as the bot, so it reads high. (SimCord's settle has a deadline in real time per advance; the
opening sends of 200 tables take longer than its default 5 s in one advance, hence the steps and the longer
deadline below.)
"""
from __future__ import annotations

import argparse
import asyncio
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repo, when run as a script

import simcord  # noqa: E402

from bot.app import create_bot  # noqa: E402
from bot.config import Settings  # noqa: E402

#: Real seconds SimCord may take to settle one advance of the virtual clock (its default is 5).
SETTLE_TIMEOUT = 120.0
#: Virtual seconds for the opening messages of every table to go out before moves start.
OPENING = 30


def p99(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(0.99 * (len(xs) - 1)))]


async def open_tables(env, tables: int) -> list[int]:
    guild = env.create_guild("Load")
    members = [guild.add_member(env.create_user(f"p{i}")) for i in range(3 * tables)]
    svc = env.bot.tables
    gids = []
    for t in range(tables):
        ch = guild.create_text_channel(f"table-{t}")
        ann, ben, cat = members[3 * t:3 * t + 3]
        table = await svc.create(guild_id=guild.id, channel_id=ch.id, engine_name="dicehand", user_id=ann.id,
                                 name=ann.name, options={"rounds": 5}, reminder_hours=0)
        for m in (ben, cat):
            await svc.join(table.game.id, m.id, m.name)
        await svc.start(table.game.id, ann.id)
        gids.append(table.game.id)
    return gids


async def queued(store) -> int:
    """Rows ever queued (sent, waiting or failed)."""
    (n,), = await store._rows("SELECT COUNT(*) FROM outbox")
    return n


async def backlog(store) -> tuple[int, float | None]:
    """(rows waiting, when the oldest was queued)."""
    (n, oldest), = await store._rows("SELECT COUNT(*), MIN(created_at) FROM outbox "
                                     "WHERE sent_at IS NULL AND failed IS NULL")
    return n, oldest


async def run_rate(db: Path, tables: int, rate: int, seconds: int, seed: int) -> dict:
    bot = create_bot(Settings(token=None, db_path=db), sync_on_start=True, rng=random.Random(seed))
    rng = random.Random(seed)
    answers: list[float] = []
    async with simcord.run(bot, settle_timeout=SETTLE_TIMEOUT) as env:
        svc = env.bot.tables
        gids = await open_tables(env, tables)
        for _ in range(OPENING):  # the opening DMs and posts go out before the clock starts
            await env.advance_time(1)
        start_n, _ = await backlog(svc.store)
        queued_before = await queued(svc.store)
        turn, middle = 0, None
        began = time.perf_counter()
        for second in range(seconds):
            for _ in range(rate):
                gid = gids[turn % len(gids)]
                turn += 1
                table = await svc.load(gid)
                if table.game.status != "active":  # finished: its turn is skipped
                    continue
                seat = rng.choice(sorted(table.engine.awaiting(table.state).seats))
                move = rng.choice(table.engine.legal(table.state, seat))
                t = time.perf_counter()
                await svc.act(gid, table.game.user_at(seat).user_id, move, chosen_at=table.seq)
                answers.append(time.perf_counter() - t)
            await env.advance_time(1)
            if second == seconds // 2:
                middle = await backlog(svc.store)
        wall = (time.perf_counter() - began) / seconds
        messages = await queued(svc.store) - queued_before
        end = await backlog(svc.store)
        now = env.bot.clock.now()
        await env.bot.close()
    return {"rate": rate, "start": start_n, "middle": middle[0], "end": end[0],
            "oldest": (now - end[1]) if end[1] is not None else 0.0, "moves": len(answers),
            "p50": statistics.median(answers), "p99": p99(answers), "wall": wall,
            "per_move": messages / max(1, len(answers))}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--rates", default="5,10,15,20", help="moves a second to try, comma-separated")
    ap.add_argument("--seconds", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rates = [int(r) for r in a.rates.split(",")]
    print(f"load: {a.tables} tables of Dice & Hands (3 players, a channel each), {a.seconds} s of virtual time "
          f"per rate; the outbox at its default pace (1 message/s per route, 40/s in all)")
    sustained = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i, rate in enumerate(rates):
            r = asyncio.run(run_rate(Path(tmp) / f"load{i}.sqlite3", a.tables, rate, a.seconds, a.seed))
            bounded = r["end"] <= r["middle"] + 40
            keeps_pace = r["wall"] <= 1.0
            sustained = max(sustained, rate) if bounded and keeps_pace else sustained
            print(f"  {rate:3} moves/s: {r['moves']} moves, {r['per_move']:.1f} messages each; "
                  f"backlog {r['middle']} rows at {a.seconds // 2} s, "
                  f"{r['end']} at {a.seconds} s, oldest waiting {r['oldest']:.1f} s "
                  f"({'bounded' if bounded else 'GROWING'}); answer p50 {r['p50'] * 1000:.1f} ms, "
                  f"p99 {r['p99'] * 1000:.1f} ms; {r['wall']:.2f} s of wall time per virtual second"
                  f"{'' if keeps_pace else ' (FALLS BEHIND the real clock)'}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"sustained: {sustained} moves/s with a bounded backlog, keeping pace with the real clock; "
          f"peak memory {peak:.0f} MB")


if __name__ == "__main__":
    main()
