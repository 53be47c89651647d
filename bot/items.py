"""The base of every button and menu the bot posts. Their custom ids, and the values a menu sends, come from the
client, so they are untrusted: each id is read with types and bounds, and a click answers only where its table
does (bot/place.py).

An item class writes ``read(match, item)``, which builds it from the id or raises ValueError (or any error of
reading: KeyError, IndexError, TypeError, OverflowError). An id that cannot be read becomes an ``Unreadable``
item, which answers its presser with a sentence: discord.py would otherwise log the error and leave the click
spinning. Before the callback, ``interaction_check`` refuses a table that does not answer here."""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, ClassVar

import discord

from bot.errors import Refusal
from bot.i18n import say as said_in
from bot.i18n import tr
from bot.interact import reader_lang
from bot.place import Place
from bot.tables import MAX_ID
from engines.text import N_

UNREADABLE = N_("That button or menu is not one I can read; open the table's panel again.")
OTHER_GAME = N_("That button or menu belongs to another game than this table's.")
NOT_OFFERED = N_("That choice is not one this menu offers; open the table's panel again.")
DIGITS = re.compile(r"[0-9]{1,19}")
READ_ERRORS = (ValueError, TypeError, KeyError, IndexError, OverflowError)


def number(text: str | None, hi: int = MAX_ID) -> int:
    """A whole number read from an id: ASCII digits, at most ``hi``; else ValueError."""
    if text is None or not DIGITS.fullmatch(text) or int(text) > hi:
        raise ValueError(f"not a number up to {hi}: {text!r}")
    return int(text)


def table_id(text: str | None) -> int:
    value = number(text)
    if value == 0:
        raise ValueError("no table has id 0")
    return value


def chosen(interaction: discord.Interaction) -> str:
    """The one value a select menu sent (a client may send none, several, or not strings)."""
    values = (interaction.data or {}).get("values")
    if not isinstance(values, list) or len(values) != 1 or not isinstance(values[0], str):
        raise Refusal(NOT_OFFERED)
    return values[0]


def choice_number(interaction: discord.Interaction, hi: int) -> int:
    """A menu's value that must be a whole number from 0 to ``hi``."""
    try:
        return number(chosen(interaction), hi)
    except ValueError:
        raise Refusal(NOT_OFFERED) from None


async def say(interaction: discord.Interaction, text: str) -> None:
    """A sentence for the presser alone (already in their language), whether or not the interaction was answered
    yet."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


class Unreadable(discord.ui.DynamicItem[discord.ui.Item], template=r"(?s).*"):
    """Stands in for an item whose id could not be read; never registered, so its template matters not."""

    async def callback(self, interaction: discord.Interaction) -> None:
        await say(interaction, tr(await reader_lang(interaction), UNREADABLE))


class TableItem:
    """Mixin for a DynamicItem bound to one table (``gid``); placed before DynamicItem in the bases."""

    gid: int
    #: which engines' tables the item is for (a game's own panel); the shared items serve every game
    serves: ClassVar[Callable[[str], bool]] = staticmethod(lambda engine: True)

    @classmethod
    def read(cls, match: re.Match, item: Any):
        raise NotImplementedError

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match):
        try:
            return cls.read(match, item)
        except READ_ERRORS:
            return Unreadable(item)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        store = interaction.client.tables.store
        try:
            game = Place.of(interaction).check(await store.game(self.gid), self.gid)
            if not self.serves(game.engine):
                raise Refusal(OTHER_GAME)
        except Refusal as exc:
            await say(interaction, said_in(exc.msg, await reader_lang(interaction)))
            return False
        return True
