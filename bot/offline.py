"""The offline table: the real bot inside SimCord, with a guild, a #table channel and four
local players, shown in SimCord's browser preview on 127.0.0.1.

A preview page shows one channel at a time: #table (switch player with "Viewing as"), or
one player's DMs. Type `dm NAME` / `table` / `quit` in the terminal to switch.
"""
from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import signal
import sys
import time

from bot.app import create_bot
from bot.config import Settings
from bot.errors import Refusal

PLAYERS = ("alice", "bob", "carol", "dave")
TICK = 1.0  # seconds between two moves of the simulated clock


async def keep_time(env, stop: asyncio.Event, tick: float = TICK) -> None:
    """SimCord's clock moves only when told to, so last calls, reminders and auto-pass would never come due:
    move it with real time. A tick is skipped while a player's action is being served (SimCord runs one
    operation at a time); the next tick catches up."""
    last = time.monotonic()
    while not stop.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), tick)
        now = time.monotonic()
        if env._operation_task is None:  # SimCord has no public "is anything running" yet
            await env.advance_time(now - last)
            last = now


async def _stdin_lines():
    """Lines typed in the terminal, or nothing when there is no terminal (CI, a service)."""
    if not sys.stdin or not sys.stdin.isatty():
        return
    loop = asyncio.get_running_loop()
    while True:
        line = await loop.run_in_executor(None, sys.stdin.readline)
        if not line:
            return
        yield line.strip()


async def restore_tables(bot, channel_id: int) -> None:
    """Games survive a restart in the database, but the simulated Discord starts empty (with
    the same ids): post each open table's message in the new channel."""
    for game in await bot.tables.store.games(channel_id=channel_id):
        try:
            table = await bot.tables.load(game.id)
        except Refusal as e:  # a table this version cannot read is left out, not the whole table
            print(e)
            continue
        await bot.delivery.show_table(table)


async def serve(settings: Settings) -> None:
    import simcord

    # one simulated Discord has no shards: shard settings meant for the real bot are left out
    bot = create_bot(dataclasses.replace(settings, shard_count=None, shard_ids=None), sync_on_start=True)
    async with simcord.run(bot, check_errors=False) as env:
        guild = env.create_guild("Offline table")
        channel = guild.create_text_channel("table")
        members = {name: guild.add_member(env.create_user(name)) for name in PLAYERS}
        await restore_tables(bot, channel.id)
        await env.settle()

        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(sig, stop.set)

        clock = asyncio.create_task(keep_time(env, stop))
        target = "table"
        while not stop.is_set():
            if target == "table":
                preview = env.preview(channel, viewers=list(members.values()), layout="channel",
                                      port=settings.preview_port)
                where = "#table (switch player with 'Viewing as')"
            else:
                user = members[target].user
                preview = env.preview(user.dm_channel, viewers=[user], layout="channel", port=settings.preview_port)
                where = f"{target}'s DMs"
            async with preview:
                print(f"Offline table: {where}\n  open {preview.url}", flush=True)
                print(f"  players: {', '.join(PLAYERS)} · type 'dm NAME', 'table' or 'quit' here", flush=True)
                target = await _next_target(stop, preview, target)
        await clock
        await bot.close()


async def _next_target(stop: asyncio.Event, preview, current: str) -> str:
    lines = _stdin_lines()
    waiters = {asyncio.ensure_future(stop.wait()), asyncio.ensure_future(preview.wait_closed())}
    try:
        while True:
            reader = asyncio.ensure_future(anext(lines, None))
            done, _ = await asyncio.wait(waiters | {reader}, return_when=asyncio.FIRST_COMPLETED)
            if reader not in done:
                reader.cancel()
                stop.set()
                return current
            line = reader.result()
            if line is None:  # no terminal: serve until stopped
                await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
                stop.set()
                return current
            if line == "quit":
                stop.set()
                return current
            if line == "table":
                return "table"
            if line.startswith("dm ") and line[3:].strip() in PLAYERS:
                return line[3:].strip()
            print(f"  unknown command {line!r}: try 'dm {PLAYERS[1]}', 'table' or 'quit'", flush=True)
    finally:
        for w in waiters:
            w.cancel()
