"""/rules GAME [TOPIC] from docs/rules/<game>.md, and /help."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import discord
from discord import app_commands
from discord.ext import commands

import engines
from bot.errors import Refusal
from bot.interact import answer

RULES_DIR = Path(__file__).resolve().parent.parent / "docs" / "rules"
LIMIT = 1900  # under Discord's 2000 characters per message, with room for a header


@dataclass
class Topic:
    title: str
    body: str


def topics(game: str) -> list[Topic]:
    """The '## ' sections of a game's rules file, the text before the first one as 'Overview'."""
    path = RULES_DIR / f"{game}.md"
    if not path.exists():
        raise Refusal(f"There are no rules written for {game} yet.")
    text = path.read_text(encoding="utf-8")
    parts = re.split(r"^## +(.+)$", text, flags=re.M)
    found = [Topic("Overview", re.sub(r"^# .*\n", "", parts[0]).strip())]
    found += [Topic(parts[i].strip(), parts[i + 1].strip()) for i in range(1, len(parts), 2)]
    return [t for t in found if t.body]


def chunks(text: str, limit: int = LIMIT) -> list[str]:
    """Split on line boundaries (a very long line at its last space) so each piece fits in one message."""
    out: list[str] = []
    cur = ""
    for para in text.split("\n"):
        while len(para) > limit:  # a single enormous line
            cut = para.rfind(" ", 0, limit)
            cut = cut if cut > 0 else limit
            if cur.strip():
                out.append(cur.rstrip())
                cur = ""
            out.append(para[:cut])
            para = para[cut:].lstrip()
        if len(cur) + len(para) + 1 > limit:
            out.append(cur.rstrip())
            cur = ""
        cur += para + "\n"
    if cur.strip():
        out.append(cur.rstrip())
    return out


def find_topic(game: str, name: str | None) -> Topic:
    all_topics = topics(game)
    if not name:
        return all_topics[0]
    for t in all_topics:
        if t.title.lower() == name.lower():
            return t
    matches = [t for t in all_topics if name.lower() in t.title.lower()]
    if len(matches) == 1:
        return matches[0]
    names = ", ".join(t.title for t in all_topics)
    raise Refusal(f"No rules topic called {name!r}. Topics: {names}.")


async def topic_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    try:
        found = topics(interaction.namespace.game)
    except (Refusal, TypeError):
        return []
    return [app_commands.Choice(name=t.title[:100], value=t.title[:100])
            for t in found if current.lower() in t.title.lower()][:25]


GAMES = [app_commands.Choice(name=e.title, value=e.name) for e in engines.ENGINES.values()]


class RulesCog(commands.Cog):
    def __init__(self, bot):
        self.bot = bot

    @app_commands.command(name="rules", description="Read a game's rules, topic by topic (only you see it).")
    @app_commands.choices(game=GAMES)
    @app_commands.autocomplete(topic=topic_autocomplete)
    async def rules(self, interaction: discord.Interaction, game: str, topic: str | None = None) -> None:
        async def work():
            t = find_topic(game, topic)
            title = engines.get(game).title
            others = ", ".join(x.title for x in topics(game) if x.title != t.title)
            tail = f"\n\n*Other topics:* {others}" if others else ""
            return chunks(f"**{title} — {t.title}**\n{t.body}{tail}")

        await answer(interaction, work)

    @app_commands.command(name="help", description="The games this bot runs and the commands to play them.")
    async def help(self, interaction: discord.Interaction) -> None:
        async def work():
            games = "\n".join(f"• **{e.title}** (`{e.name}`), {e.min_players}-{e.max_players} players"
                              for e in engines.ENGINES.values())
            cmds = []
            for cmd in self.bot.tree.get_commands():
                if isinstance(cmd, app_commands.Group):
                    cmds += [f"`/{cmd.name} {c.name}` — {c.description}" for c in cmd.commands]
                else:
                    cmds.append(f"`/{cmd.name}` — {cmd.description}")
            return chunks("**Games**\n" + games + "\n\n**Commands**\n" + "\n".join(cmds) +
                          "\n\nStart with `/game create`, then everyone presses **Join**; "
                          "`/rules` explains each game.")

        await answer(interaction, work)


async def setup(bot) -> None:
    await bot.add_cog(RulesCog(bot))
