"""The offline table: the real bot inside SimCord, with a guild, a #table channel and four
local players, shown in SimCord's browser preview on 127.0.0.1.

A preview page shows one channel at a time: #table (switch player with "Viewing as"), or
one player's DMs. Type `dm NAME` / `table` / `quit` in the terminal to switch.

`BOT_OFFLINE_LANG=ja` opens it in Japanese: the server's preferred locale and every player's Discord client are
Japanese, so new tables post in Japanese and every answer and DM is in Japanese (English by default).
"""
from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import os
import signal
import sys
import time
from collections.abc import Iterator

from bot.app import create_bot
from bot.config import Settings
from bot.errors import Refusal

PLAYERS = ("alice", "bob", "carol", "dave")
TICK = 1.0  # seconds between two moves of the simulated clock
#: The Discord locale of the simulated server and clients, by the offline table's language.
LOCALES = {"en": "en-US", "ja": "ja"}


def offline_lang(value: str | None = None) -> str:
    """The offline table's language: `value`, else BOT_OFFLINE_LANG, else English."""
    lang = (value or os.environ.get("BOT_OFFLINE_LANG", "") or "en").strip().lower()
    if lang not in LOCALES:
        raise ValueError(f"BOT_OFFLINE_LANG must be one of {', '.join(LOCALES)}, not {lang!r}.")
    return lang


@contextlib.contextmanager
def client_locales(locales: dict[int, str]) -> Iterator[None]:
    """SimCord sends every interaction as from an en-US client in an en-US server: while this is open, a user's
    interactions carry their client's locale (``locales``: user id -> a Discord locale such as "ja"), and each
    server's its preferred locale (``create_guild(preferred_locale=...)``), as Discord sends them."""
    from simcord import interactions

    original = interactions.base_payload

    def base_payload(backend, *, user_id, guild_id, **kwargs):
        record, payload = original(backend, user_id=user_id, guild_id=guild_id, **kwargs)
        payload["locale"] = locales.get(user_id, payload["locale"])
        if guild_id is not None:
            payload["guild_locale"] = backend.get_guild(guild_id).preferred_locale or payload["guild_locale"]
        return record, payload

    interactions.base_payload = base_payload
    try:
        yield
    finally:
        interactions.base_payload = original


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


async def serve(settings: Settings, lang: str | None = None) -> None:
    import simcord

    lang = offline_lang(lang)
    locale = LOCALES[lang]
    # one simulated Discord has no shards: shard settings meant for the real bot are left out
    bot = create_bot(dataclasses.replace(settings, shard_count=None, shard_ids=None), sync_on_start=True)
    async with simcord.run(bot, check_errors=False) as env:
        channel, members = offline_world(env, locale)
        with client_locales({m.id: locale for m in members.values()}):
            await _serve(settings, bot, env, channel, members, locale)


def offline_world(env, locale: str = "en-US") -> tuple:
    """The simulated server (its preferred locale `locale`), its #table channel and the players: (channel,
    {name: member}). Open ``client_locales`` for the players' clients to show `locale` too."""
    guild = env.create_guild("Offline table", preferred_locale=locale)
    channel = guild.create_text_channel("table")
    return channel, {name: guild.add_member(env.create_user(name)) for name in PLAYERS}


async def _serve(settings: Settings, bot, env, channel, members, locale: str) -> None:
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
                                  port=settings.preview_port, locale=locale)
            where = "#table (switch player with 'Viewing as')"
        else:
            user = members[target].user
            preview = env.preview(user.dm_channel, viewers=[user], layout="channel", port=settings.preview_port,
                                  locale=locale)
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
