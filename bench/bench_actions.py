"""How fast a move gets stored and answered.

1. Through SimCord (the real discord.py machinery against a simulated Discord): the time
   from pressing a move button ("Bet 1" on the ephemeral move panel) to its answer, which
   includes the durable write to SQLite and the table message update, and the time of a
   `/game create`. Median and p99 over the samples.
2. Through the TableService directly (no Discord): player actions committed per second.
3. Raw `Store.commit` of one-action commits per second, the floor the service is built on,
   and the ratio of (2) to (3).

Run from the repository root:  python bench/bench_actions.py   (under a minute)
"""
from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repo, when run as a script

import simcord  # noqa: E402

from bot.app import create_bot  # noqa: E402
from bot.clock import FakeClock  # noqa: E402
from bot.config import Settings  # noqa: E402
from bot.tables import TableService  # noqa: E402
from storage.base import Commit  # noqa: E402
from storage.sqlite import SqliteStore  # noqa: E402


def p99(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(0.99 * (len(xs) - 1)))]


def ms(x: float) -> str:
    return f"{x * 1000:.1f} ms"


def table_message(channel, game_id: int):
    for m in reversed(channel.history()):
        if m.embeds and (m.embeds[0].title or "").startswith(f"Table {game_id} ·"):
            return m
    raise RuntimeError(f"no table message for table {game_id}")


# --- 1. SimCord: button press to answer -------------------------------------------------------------
async def bench_simcord(db: Path, samples: int) -> tuple[list[float], list[float]]:
    bot = create_bot(Settings(token=None, db_path=db, dm_interval=0, send_rate=0), sync_on_start=True,
                     rng=random.Random(1))
    bets: list[float] = []
    creates: list[float] = []
    async with simcord.run(bot) as env:
        guild = env.create_guild("Bench")
        ch = guild.create_text_channel("table")
        members = [guild.add_member(env.create_user(n)) for n in ("ann", "ben")]
        by_id = {m.id: m for m in members}
        while len(bets) < samples:
            t = time.perf_counter()
            r = await members[0].slash(ch, "game create", game="dicehand", players=2, options="rounds=5")
            creates.append(time.perf_counter() - t)
            gid = int(r.response.content.split()[1])
            await members[1].click(table_message(ch, gid), label="Join")
            await members[0].click(table_message(ch, gid), label="Start")
            while len(bets) < samples:
                table = await env.bot.tables.load(gid)
                if table.game.status != "active":
                    break
                seat = min(table.engine.awaiting(table.state).seats)
                member = by_id[table.game.user_at(seat).user_id]
                panel = await member.click(table_message(ch, gid), label="My hand & moves")
                if table.state["phase"] == "bet":
                    t = time.perf_counter()
                    r = await member.click(panel.response, label="Bet 1")
                    bets.append(time.perf_counter() - t)
                    assert r.response.content.startswith("You played **Bet 1**."), r.response.content
                else:  # the card choice: not measured, just played to reach the next bets
                    label = table.engine.label(table.engine.legal(table.state, seat)[0])
                    await member.click(panel.response, label=label)
            # discord.py keeps each ephemeral panel's view alive for 15 minutes (its token's
            # lifetime), each with a sleeping task that SimCord's settle scans; let them expire
            # between games so later samples do not pay for earlier ones.
            await env.advance_time(16 * 60)
        errors = env.errors
        # close the bot's database inside the simulated Discord, as the offline table does;
        # otherwise its SQLite thread keeps the process from exiting
        await env.bot.close()
    if errors:
        raise RuntimeError(f"the bot raised {len(errors)} error(s): {errors[0]!r}")
    return bets, creates


# --- 2. TableService without Discord ----------------------------------------------------------------
async def bench_service(db: Path, seconds: float) -> tuple[int, float]:
    store = SqliteStore(db)
    await store.open()
    service = TableService(store, FakeClock(), rng=random.Random(2))
    rng = random.Random(3)
    users = [(101, "ann"), (102, "ben"), (103, "cat")]
    acted = 0
    start = time.perf_counter()
    try:
        while time.perf_counter() - start < seconds:
            table = await service.create(guild_id=1, channel_id=2, engine_name="dicehand", user_id=users[0][0],
                                         name=users[0][1], options={"rounds": 5}, max_players=3)
            gid = table.game.id
            for uid, name in users[1:]:
                await service.join(gid, uid, name)
            table = await service.start(gid, users[0][0])
            while table.game.status == "active":
                seat = min(table.engine.awaiting(table.state).seats)
                move = rng.choice(table.engine.legal(table.state, seat))
                table = await service.act(gid, table.game.user_at(seat).user_id, move, chosen_at=table.seq)
                acted += 1
        return acted, time.perf_counter() - start
    finally:
        await store.close()


# --- 3. Raw Store.commit ------------------------------------------------------------------------------
async def bench_store(db: Path, seconds: float) -> tuple[int, float]:
    store = SqliteStore(db)
    await store.open()
    try:
        gid = await store.create_game(guild_id=1, channel_id=2, engine="dicehand", data_version=1, options={},
                                      creator_id=101, max_players=3, random_seats=False, reminder_hours=0,
                                      autopass_hours=0, now=0.0)
        seq = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            seq += 1
            await store.commit(gid, Commit(first_seq=seq, entries=[(seq % 3, {"type": "bet", "amount": seq % 3})]),
                               now=float(seq))
        return seq, time.perf_counter() - start
    finally:
        await store.close()


async def main(samples: int, seconds: float) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        print(f"SimCord: pressing a move button (Bet 1) until its answer, {samples} samples "
              "(includes the SQLite commit, the table message edit and SimCord's settle)")
        bets, creates = await bench_simcord(tmp / "simcord.sqlite3", samples)
        print(f"  bet button   median {ms(statistics.median(bets))}  p99 {ms(p99(bets))}  n={len(bets)}")
        print(f"  /game create median {ms(statistics.median(creates))}  p99 {ms(p99(creates))}  n={len(creates)}")

        acted, took = await bench_service(tmp / "service.sqlite3", seconds)
        service_rate = acted / took
        print(f"TableService.act (no Discord): {acted} actions in {took:.1f} s = {service_rate:.0f} actions/s "
              f"({ms(took / acted)} each)")

        commits, took = await bench_store(tmp / "store.sqlite3", seconds)
        store_rate = commits / took
        print(f"Store.commit raw: {commits} commits in {took:.1f} s = {store_rate:.0f} commits/s "
              f"({ms(took / commits)} each)")
        print(f"ratio service/raw store: {service_rate / store_rate:.2f}")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--samples", type=int, default=100, help="bet button presses to time through SimCord")
    ap.add_argument("--seconds", type=float, default=6.0, help="duration of each of the two SQLite runs")
    args = ap.parse_args()
    asyncio.run(main(args.samples, args.seconds))
