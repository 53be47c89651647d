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
        if string.extras.get(lang):  # a name that brings its own translation (a game's title)
            return string.extras[lang]
        said = lookup(string.message, lang)
        return said if said != string.message else None


def game_choices() -> list[app_commands.Choice[str]]:
    """Every game, for a menu: its title, and its Japanese title for a Japanese client."""
    import engines

    return [app_commands.Choice(name=app_commands.locale_str(e.title, ja=e.title_ja), value=e.name)
            for e in engines.ENGINES.values()]
