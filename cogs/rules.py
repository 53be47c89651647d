"""/rules GAME [TOPIC] from docs/rules/<game>.md (docs/rules/ja/<game>.md for a Japanese reader, when it is
written), and /help, in the reader's language."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import discord
from discord import app_commands
from discord.ext import commands

import engines
from bot.errors import Refusal
from bot.i18n import DEFAULT, lookup, reader, tr
from bot.interact import answer, reader_lang
from bot.table_ui import game_title
from bot.translator import game_choices

RULES_DIR = Path(__file__).resolve().parent.parent / "docs" / "rules"
LIMIT = 1900  # under Discord's 2000 characters per message, with room for a header
#: How a list of topics is written in each language.
COMMA = {"ja": "、"}


@dataclass
class Topic:
    title: str
    body: str


def rules_file(game: str, lang: str = DEFAULT) -> Path:
    """The game's rules in `lang` when they are written in it, else in English."""
    if lang != DEFAULT and (RULES_DIR / lang / f"{game}.md").exists():
        return RULES_DIR / lang / f"{game}.md"
    return RULES_DIR / f"{game}.md"


def in_lang(game: str, lang: str) -> bool:
    """Whether the game's rules are written in `lang` (English always is)."""
    return lang == DEFAULT or rules_file(game, lang).parent.name == lang


def topics(game: str, lang: str = DEFAULT) -> list[Topic]:
    """The '## ' sections of a game's rules file (in `lang` when written in it), the text before the first one as
    'Overview'."""
    path = rules_file(game, lang)
    if not path.exists():
        raise Refusal("There are no rules written for {game} yet.", game=game)
    text = path.read_text(encoding="utf-8")
    parts = re.split(r"^## +(.+)$", text, flags=re.M)
    overview = tr(lang, "Overview") if in_lang(game, lang) else "Overview"
    found = [Topic(overview, re.sub(r"^# .*\n", "", parts[0]).strip())]
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


def _match(found: list[Topic], name: str) -> int | None:
    """The index of the topic a name means: its whole title, or the title before its bracketed English ("裁定" for
    "裁定 (Rulings)"), else the only title that contains it."""
    name = name.strip().lower()
    for i, t in enumerate(found):
        title = t.title.lower()
        if name in (title, re.split(r"\s*[(（]", title)[0]):
            return i
    hits = [i for i, t in enumerate(found) if name in t.title.lower()]
    return hits[0] if len(hits) == 1 else None


def _aligned(game: str, lang: str) -> list[list[Topic]]:
    """The game's topics in every language it is written in whose topics follow the reader's one for one."""
    mine = topics(game, lang)
    out = [mine]
    for other in (DEFAULT, "ja"):
        if other != lang and in_lang(game, other):
            theirs = topics(game, other)
            if len(theirs) == len(mine):
                out.append(theirs)
    return out


def find_topic(game: str, name: str | None, lang: str = DEFAULT) -> Topic:
    """The topic a reader names, in their language; a name in another language the rules are written in finds
    the same topic (the files follow each other topic for topic)."""
    versions = _aligned(game, lang)
    mine = versions[0]
    if not name:
        return mine[0]
    for found in versions:
        i = _match(found, name)
        if i is not None:
            return mine[i]
    raise Refusal("No rules topic called {name}. Topics: {topics}.", name=repr(name),
                  topics=COMMA.get(lang, ", ").join(t.title for t in mine))


async def topic_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    try:
        lang = await reader_lang(interaction)
        versions = _aligned(interaction.namespace.game, lang)
    except (Refusal, TypeError):
        return []
    typed = current.lower()
    mine = versions[0]
    return [app_commands.Choice(name=t.title[:100], value=t.title[:100]) for i, t in enumerate(mine)
            if any(typed in found[i].title.lower() for found in versions)][:25]


GAMES = game_choices()


def described(command, lang: str) -> str:
    """A command's description in `lang` (the catalog holds every command's)."""
    return lookup(command.description, lang)


class RulesCog(commands.Cog):
    def __init__(self, bot):
        self.bot = bot

    @app_commands.command(name="rules", description="Read a game's rules, topic by topic (only you see it).")
    @app_commands.describe(game="Which game", topic="A topic of its rules (default: the overview)")
    @app_commands.choices(game=GAMES)
    @app_commands.autocomplete(topic=topic_autocomplete)
    async def rules(self, interaction: discord.Interaction, game: str, topic: str | None = None) -> None:
        async def work():
            lang = reader()
            t = find_topic(game, topic, lang)
            title = game_title(engines.get(game), lang)
            others = COMMA.get(lang, ", ").join(x.title for x in topics(game, lang) if x.title != t.title)
            text = tr(lang, "**{game} — {topic}**", game=title, topic=t.title) + f"\n{t.body}"
            if others:
                text += "\n\n" + tr(lang, "*Other topics:* {topics}", topics=others)
            if not in_lang(game, lang):
                text = tr(lang, "(These rules are not written in your language yet: here they are in English.)") \
                    + "\n" + text
            return chunks(text)

        await answer(interaction, work)

    @app_commands.command(name="help", description="The games this bot runs and the commands to play them.")
    async def help(self, interaction: discord.Interaction) -> None:
        async def work():
            lang = reader()
            games = "\n".join(tr(lang, "• **{title}** (`{name}`), {least}-{most} players", title=game_title(e, lang),
                                 name=e.name, least=e.min_players, most=e.max_players)
                              for e in engines.ENGINES.values())
            cmds = []
            for cmd in self.bot.tree.get_commands():
                if isinstance(cmd, app_commands.Group):
                    cmds += [f"`/{cmd.name} {c.name}` — {described(c, lang)}" for c in cmd.commands]
                else:
                    cmds.append(f"`/{cmd.name}` — {described(cmd, lang)}")
            return chunks(tr(lang, "**Games**") + "\n" + games + "\n\n" + tr(lang, "**Commands**") + "\n"
                          + "\n".join(cmds) + "\n\n"
                          + tr(lang, "Start with `/game create`, then everyone presses **Join**; `/rules` explains "
                                     "each game."))

        await answer(interaction, work)


async def setup(bot) -> None:
    await bot.add_cog(RulesCog(bot))
