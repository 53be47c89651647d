"""What a Japanese Discord client shows of the slash commands: descriptions, parameter descriptions and choices
from the catalog, through discord.py's app_commands.Translator. Command and parameter names stay ASCII, so a
command is typed the same in every client."""
from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import DEFAULT, lang_of, lookup

Where = app_commands.TranslationContextLocation
TRANSLATED = {Where.command_description, Where.group_description, Where.parameter_description, Where.choice_name}


class CatalogTranslator(app_commands.Translator):
    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        lang = lang_of(locale)
        if lang == DEFAULT or context.location not in TRANSLATED:
            return None
        said = lookup(string.message, lang)
        return said if said != string.message else None
