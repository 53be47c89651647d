"""One way to answer an interaction: defer at once (Discord allows 3 s), do the work, and
reply only to the person who asked. Errors become a sentence for them alone."""
from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.errors import player_sentence

Reply = dict[str, Any] | str | list[dict[str, Any] | str] | None


async def answer(interaction: discord.Interaction, work: Callable[[], Awaitable[Reply]]) -> None:
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)
    try:
        reply = await work()
    except Exception as exc:  # every failure reaches its author as a sentence, never a traceback
        sentence, _ = player_sentence(exc)
        await interaction.followup.send(sentence, ephemeral=True)
        return
    if reply is None:
        reply = "Done."
    for part in reply if isinstance(reply, list) else [reply]:  # a long answer goes out in order, in parts
        await interaction.followup.send(ephemeral=True, **({"content": part} if isinstance(part, str) else part))


def is_admin(interaction: discord.Interaction) -> bool:
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and perms.manage_guild)
