"""The bot process: builds the commands.Bot with storage, the table service, delivery,
timers and every cog. ``create_bot`` is what ``python -m bot``, the offline table and
the tests all use.

With shard settings (BOT_SHARD_COUNT, BOT_SHARD_IDS) the bot is discord.py's AutoShardedBot running those shards,
one process per group of shards, all on one database (BOT_DB_URL, PostgreSQL). Nothing else differs: every table
is found through the store, so an interaction reaches its table whichever process receives it (DMs all arrive on
shard 0's process), the store's game lock puts a table's actions in one order across processes, and each due timer
or outbox row is claimed by one process (bot/timers.py, bot/outbox.py)."""
from __future__ import annotations

import asyncio
import importlib
import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.clock import SystemClock
from bot.config import Settings
from bot.delivery import Delivery
from bot.errors import player_sentence
from bot.i18n import tr
from bot.interact import reader_lang
from bot.table_ui import DYNAMIC_ITEMS
from bot.tables import Change, TableService
from bot.timers import WAKE_EVENT, dispatcher
from bot.translator import CatalogTranslator
from storage import store_for

log = logging.getLogger("bot")

COGS = ("cogs.table", "cogs.rules", "cogs.language", "cogs.dicehand", "cogs.fourbit", "cogs.boss", "cogs.tokai",
        "cogs.e18xx")


class Tree(app_commands.CommandTree):
    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        original = getattr(error, "original", error)
        lang = await reader_lang(interaction)
        if isinstance(error, app_commands.CheckFailure) and not isinstance(error, app_commands.CommandInvokeError):
            sentence = tr(lang, "You cannot use that command here.")
        else:
            sentence, _ = player_sentence(original, lang)
        if interaction.response.is_done():
            await interaction.followup.send(sentence, ephemeral=True)
        else:
            await interaction.response.send_message(sentence, ephemeral=True)


class BoardBot(commands.Bot):
    def __init__(self, settings: Settings, clock=None, rng=None, sync_on_start: bool = False):
        intents = discord.Intents.default()
        shards = {"shard_count": settings.shard_count, "shard_ids": list(settings.shard_ids)} \
            if settings.shard_ids is not None else {}
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, tree_cls=Tree,
                         help_command=None, **shards)
        self.settings = settings
        self.clock = clock or SystemClock()
        self.rng = rng
        self.sync_on_start = sync_on_start  # only the offline table and tests: production syncs explicitly
        self.tables: TableService | None = None
        self.delivery: Delivery | None = None
        self._tasks: list[asyncio.Task] = []

    async def setup_hook(self) -> None:
        await self._stop_runtime()  # a restart of the same object starts clean
        store = store_for(self.settings.db_url, self.settings.db_path)
        await store.open()
        self.tables = TableService(store, self.clock, rng=self.rng)
        self.delivery = Delivery(self)
        self.tables.listeners.append(self._on_change)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        await self.tree.set_translator(CatalogTranslator())
        for name in COGS:
            if name not in self.extensions:
                await self.load_extension(name)
            # a cog's own buttons, registered again at every start so they survive restarts
            self.add_dynamic_items(*getattr(importlib.import_module(name), "DYNAMIC_ITEMS", ()))
        if self.sync_on_start:
            await self.tree.sync()
        self._tasks = [asyncio.create_task(self.delivery.run_outbox(), name="outbox"),
                       asyncio.create_task(dispatcher(self), name="timers"),
                       # a table stopped by a crash between a move and a chance draw is drawn for now
                       asyncio.create_task(self.tables.recover(), name="recover")]

    async def _on_change(self, change: Change) -> None:
        self.dispatch(WAKE_EVENT)
        await self.delivery.on_change(change)

    async def _stop_runtime(self) -> None:
        if self.delivery:
            self.delivery.stop()
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            try:
                await task
            except BaseException:
                pass
        self._tasks = []
        if self.tables:
            await self.tables.store.close()
            self.tables = None

    async def close(self) -> None:
        await self._stop_runtime()
        await super().close()


class ShardedBoardBot(BoardBot, commands.AutoShardedBot):
    """The bot running some of Discord's shards (settings.shard_ids of settings.shard_count)."""


def create_bot(settings: Settings | None = None, **kwargs) -> BoardBot:
    settings = settings or Settings.from_env()
    if settings.shard_ids is not None:
        return ShardedBoardBot(settings, **kwargs)
    return BoardBot(settings, **kwargs)
