"""/language: the language the bot answers and DMs a player in. Left alone, it follows their Discord client."""
from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import LANGS, lang_of, tr
from bot.interact import answer

AUTO = "auto"


class LanguageCog(commands.Cog):
    def __init__(self, bot):
        self.bot = bot

    @app_commands.command(name="language", description="Choose the language the bot answers and DMs you in.")
    @app_commands.describe(language="English, Japanese, or the language of your Discord client")
    @app_commands.choices(language=[app_commands.Choice(name="English", value="en"),
                                    app_commands.Choice(name="日本語 (Japanese)", value="ja"),
                                    app_commands.Choice(name="Follow my Discord client", value=AUTO)])
    async def language(self, interaction: discord.Interaction, language: str) -> None:
        async def work():
            if language not in (*LANGS, AUTO):
                return tr(None, "There is no language {name} here.", name=language[:20])
            store = self.bot.tables.store
            await store.set_user_lang(interaction.user.id, None if language == AUTO else language)
            now = lang_of(interaction.locale) if language == AUTO else language
            if language == AUTO:
                return tr(now, "I will answer you in the language of your Discord client ({name}).",
                          name=LANGS[now])
            return tr(now, "I will answer you and send your DMs in {name}.", name=LANGS[now])

        await answer(interaction, work)


async def setup(bot) -> None:
    await bot.add_cog(LanguageCog(bot))
