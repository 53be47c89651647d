"""One way to answer an interaction: defer at once (Discord allows 3 s), do the work, and
reply only to the person who asked, in their language. Errors become a sentence for them alone."""
from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.errors import player_sentence
from bot.i18n import READER, lang_of, say, tr
from engines.text import Msg

log = logging.getLogger("bot.interact")

Reply = dict[str, Any] | str | Msg | list[dict[str, Any] | str | Msg] | None


async def reader_lang(interaction: discord.Interaction) -> str:
    """The language to answer this person in: the one they chose with /language, else their Discord client's
    (remembered, so their DMs are written in it too)."""
    seen = lang_of(getattr(interaction, "locale", None))
    tables = getattr(interaction.client, "tables", None)
    if tables is None:
        return seen
    try:
        chosen, last = await tables.store.user_lang(interaction.user.id)
        if chosen:
            return chosen
        if last != seen:
            await tables.store.set_user_lang(interaction.user.id, seen, chosen=False)
    except Exception:  # the language is a nicety: an answer never fails for it
        log.exception("could not read the language of user %s", interaction.user.id)
    return seen


def unkept(view: discord.ui.View) -> None:
    """Stop a view whose items are all dynamic items before it is sent: discord.py finds those by their custom
    ids, and would otherwise keep every ephemeral answer's view with a 15-minute timer for nothing."""
    if all(isinstance(item, discord.ui.DynamicItem) for item in view.walk_children()):
        view.stop()


async def answer(interaction: discord.Interaction, work: Callable[[], Awaitable[Reply]]) -> None:
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)
    lang = await reader_lang(interaction)
    READER.set(lang)  # this task's: the work below builds its sentences in the reader's language
    try:
        reply = await work()
    except Exception as exc:  # every failure reaches its author as a sentence, never a traceback
        sentence, _ = player_sentence(exc, lang)
        await interaction.followup.send(sentence, ephemeral=True)
        return
    if reply is None:
        reply = tr(lang, "Done.")
    for part in reply if isinstance(reply, list) else [reply]:  # a long answer goes out in order, in parts
        if isinstance(part, dict):
            part = {**part, "content": say(part["content"], lang)} if "content" in part else part
            if "view" in part:
                unkept(part["view"])
            await interaction.followup.send(ephemeral=True, **part)
        else:
            await interaction.followup.send(say(part, lang), ephemeral=True)


def is_admin(interaction: discord.Interaction) -> bool:
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and perms.manage_guild)
