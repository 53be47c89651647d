"""The /game commands and the buttons every game shares: create, join, leave, start,
my hand and moves, status, my games, undo, abandon, export, replace, DMs.

Every reply here is ephemeral; what the whole table sees is the table message and the
notices the outbox posts (bot/delivery.py)."""
from __future__ import annotations

import io
import json
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import engines
from bot.errors import Refusal
from bot.i18n import LANGS, lang_of, lookup, reader, say, tr
from bot.interact import answer, reader_lang
from bot.place import Place
from bot.table_ui import game_title, my_hand, seat_mentions, table_message
from bot.translator import game_choices
from engines.text import N_

#: A table's status, as /game mine and the table autocomplete name it.
STATUS = {"lobby": N_("waiting for players"), "active": N_("in play"), "over": N_("over"),
          "abandoned": N_("abandoned")}


# --- option parsing and autocomplete ---------------------------------------------------------------
def parse_options(text: str) -> dict[str, Any]:
    """'rounds=3 window_minutes=5' -> {'rounds': 3, 'window_minutes': 5}."""
    out: dict[str, Any] = {}
    for part in text.replace(",", " ").split():
        if "=" not in part:
            raise Refusal("Write options as name=value, like rounds=3 (got {part}).", part=repr(part))
        key, value = part.split("=", 1)
        if value.lower() in ("true", "false"):  # as the autocomplete shows a default (False) and as JSON has it
            out[key] = value.lower() == "true"
            continue
        try:
            out[key] = json.loads(value)
        except json.JSONDecodeError:
            out[key] = value
    return out


async def table_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
    """The tables that answer here: this channel's (and its parent's, in a thread), or in a DM the user's own."""
    place, store = Place.of(interaction), interaction.client.tables.store
    if place.guild_id is None:
        games = await store.games(user_id=place.user_id)
    else:
        games = [g for c in place.channels for g in await store.games(channel_id=c)]
    lang = await reader_lang(interaction)
    choices = []
    for g in games:
        if not place.sees(g):
            continue
        title = game_title(engines.get(g.engine), lang) if g.engine in engines.ENGINES else g.engine
        name = f"{g.id} · {title} · {tr(lang, STATUS.get(g.status, g.status))}"
        if current in str(g.id) or current.lower() in name.lower():
            choices.append(app_commands.Choice(name=name[:100], value=g.id))
    return choices[:25]


async def options_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    try:
        engine = engines.get(interaction.namespace.game)
    except KeyError:
        return []
    lang = await reader_lang(interaction)
    out = []
    for o in engine.options:
        example = f"{o.name}={o.default}"
        # an option's description is a template marked with N_ (or a message): said in the reader's language
        desc = lookup(o.description, lang) if isinstance(o.description, str) else say(o.description, lang)
        hint = f"{example} — {desc}"
        out.append(app_commands.Choice(name=hint[:100], value=(current + " " + example).strip()[:100]))
    return out[:25]


GAME_CHOICES = game_choices()


class TableCog(commands.Cog):
    game = app_commands.Group(name="game", description="Play board games at a table in this channel.")

    def __init__(self, bot):
        self.bot = bot

    @game.command(name="create", description="Open a new table in this channel.")
    @app_commands.describe(game="Which game", players="Most players allowed (default: the game's maximum)",
                           seating="Seat order", reminder_hours="Remind the awaited players after this idle time",
                           autopass_hours="Play the default move for a player idle this long (0 = never)",
                           options="Game options as name=value, e.g. rounds=3",
                           language="The language of the table's posts (default: the server's)")
    @app_commands.choices(game=GAME_CHOICES, seating=[app_commands.Choice(name="random", value="random"),
                                                      app_commands.Choice(name="as joined", value="joined")],
                          language=[app_commands.Choice(name=name, value=code) for code, name in LANGS.items()])
    @app_commands.autocomplete(options=options_autocomplete)
    async def create(self, interaction: discord.Interaction, game: str, players: int | None = None,
                     seating: str = "random", reminder_hours: float | None = None, autopass_hours: float = 0.0,
                     options: str = "", language: str | None = None) -> None:
        async def work():
            if interaction.guild_id is None:
                raise Refusal("Tables live in a server channel or thread, not in DMs.")
            lang = language if language in LANGS else lang_of(interaction.guild_locale)
            table = await self.bot.tables.create(
                guild_id=interaction.guild_id, channel_id=interaction.channel_id, engine_name=game,
                user_id=interaction.user.id, name=interaction.user.display_name, options=parse_options(options),
                max_players=players, random_seats=seating == "random",
                reminder_hours=self.bot.settings.reminder_hours if reminder_hours is None else reminder_hours,
                autopass_hours=autopass_hours, lang=lang)
            return tr(None, "Table {id} ({title}) is open and you are seated. Others join with the Join button; "
                            "press Start when everyone is in.", id=table.game.id,
                      title=game_title(table.engine, reader()))

        await answer(interaction, work)

    async def _table(self, interaction: discord.Interaction, table: int | None) -> int:
        return await self.bot.tables.resolve(Place.of(interaction), table)

    @game.command(name="join", description="Take a seat at a table that has not started.")
    @app_commands.autocomplete(table=table_autocomplete)
    async def join(self, interaction: discord.Interaction, table: int | None = None) -> None:
        async def work():
            gid = await self._table(interaction, table)
            await self.bot.tables.join(gid, interaction.user.id, interaction.user.display_name)
            return tr(None, "You joined table {id}.", id=gid)

        await answer(interaction, work)

    @game.command(name="start", description="Start a table you created.")
    @app_commands.autocomplete(table=table_autocomplete)
    async def start(self, interaction: discord.Interaction, table: int | None = None) -> None:
        async def work():
            gid = await self._table(interaction, table)
            await self.bot.tables.start(gid, interaction.user.id)
            return tr(None, "Table {id} has started.", id=gid)

        await answer(interaction, work)

    @game.command(name="hand", description="See your hand and your possible moves (only you see it).")
    @app_commands.autocomplete(table=table_autocomplete)
    async def hand(self, interaction: discord.Interaction, table: int | None = None) -> None:
        async def work():
            return await my_hand(self.bot.tables, await self._table(interaction, table), interaction.user.id)

        await answer(interaction, work)

    @game.command(name="status", description="Whose move it is and what the game waits for.")
    @app_commands.autocomplete(table=table_autocomplete)
    async def status(self, interaction: discord.Interaction, table: int | None = None) -> None:
        async def work():
            t = await self.bot.tables.load(await self._table(interaction, table))
            embed, _ = table_message(t, reader())
            return {"embed": embed}

        await answer(interaction, work)

    @game.command(name="mine", description="Your open tables in every channel.")
    async def mine(self, interaction: discord.Interaction) -> None:
        async def work():
            games = await self.bot.tables.store.games(user_id=interaction.user.id)
            if not games:
                return tr(None, "You are not seated at any open table.")
            lang = reader()
            lines = []
            for g in games:
                where = f"<#{g.channel_id}>"
                try:
                    t = await self.bot.tables.load(g.id)
                except Refusal as e:  # one unreadable table must not hide the others
                    lines.append(tr(lang, "• Table {id} in {where}: {why}", id=g.id, where=where, why=e.msg))
                    continue
                if g.status == "lobby":
                    now = tr(lang, "waiting for players")
                else:
                    aw = t.engine.awaiting(t.state)
                    now = tr(lang, "**your move**") if g.seat_of(interaction.user.id) in aw.pinged else \
                        tr(lang, "waiting for {who}", who=seat_mentions(t, aw.pinged) or tr(lang, "chance"))
                lines.append(tr(lang, "• Table {id} · {title} in {where}: {now}", id=g.id,
                                title=game_title(t.engine, lang), where=where, now=now))
            return "\n".join(lines)[:2000]

        await answer(interaction, work)

    @game.command(name="undo", description="Take back your last move (others it affects must agree).")
    @app_commands.autocomplete(table=table_autocomplete)
    async def undo(self, interaction: discord.Interaction, table: int | None = None) -> None:
        async def work():
            gid = await self._table(interaction, table)
            _, need = await self.bot.tables.request_undo(gid, interaction.user.id)
            if need:
                return tr(None, "Your undo request is posted; the players it affects must agree.")
            return tr(None, "Your last move was undone.")

        await answer(interaction, work)

    @game.command(name="abandon", description="End a table without a result (its creator or a server manager).")
    @app_commands.autocomplete(table=table_autocomplete)
    async def abandon(self, interaction: discord.Interaction, table: int | None = None) -> None:
        async def work():
            gid = await self._table(interaction, table)
            await self.bot.tables.abandon(gid, interaction.user.id, Place.of(interaction).manager)
            return tr(None, "Table {id} is abandoned.", id=gid)

        await answer(interaction, work)

    @game.command(name="export", description="Download the whole game log as JSON (python -m bot replay reads it; "
                                               "an 18xx game in 18xx.games's format).")
    @app_commands.autocomplete(table=table_autocomplete)
    async def export(self, interaction: discord.Interaction, table: int | None = None) -> None:
        async def work():
            gid = await self._table(interaction, table)
            t = await self.bot.tables.load(gid)
            if t.game.status == "lobby":
                raise Refusal("Table {id} has not started: there is no game to export yet.", id=gid)
            if t.game.status == "active" and t.engine.hides(t.state):  # the log holds every hidden card and die
                raise Refusal("The log holds every hidden card, so it can be exported only once the game has ended.")
            doc = await self.bot.tables.export(gid)
            data = json.dumps(doc, indent=1, ensure_ascii=False).encode()
            if "game" in doc:
                return {"content": tr(None, "The log of table {id}.", id=gid),
                        "file": discord.File(io.BytesIO(data), filename=f"table-{gid}-{doc['game']}.json")}
            return {"content": tr(None, "The log of table {id} in 18xx.games's format: the site's tools load it.",
                                  id=gid),
                    "file": discord.File(io.BytesIO(data), filename=f"{doc['title']}-table-{gid}.json")}

        await answer(interaction, work)

    @game.command(name="replace",
                  description="Give a seat to someone else (a vote of the players, or a server manager).")
    @app_commands.describe(seat="Seat number as shown on the table", player="Who takes the seat")
    @app_commands.autocomplete(table=table_autocomplete)
    async def replace(self, interaction: discord.Interaction, seat: int, player: discord.Member,
                      table: int | None = None) -> None:
        async def work():
            gid = await self._table(interaction, table)
            _, done = await self.bot.tables.replace(gid, interaction.user.id, seat - 1, player.id,
                                                    player.display_name, Place.of(interaction).manager)
            if done:
                return tr(None, "{name} now plays seat {seat}.", name=player.display_name, seat=seat)
            return tr(None, "Your proposal is posted for a vote.")

        await answer(interaction, work)

    @game.command(name="dms", description="Turn my game DMs back on after opening your DMs.")
    async def dms(self, interaction: discord.Interaction) -> None:
        async def work():
            await self.bot.tables.store.set_dm_closed(interaction.user.id, False)
            return tr(None, "I will DM you again. If your DMs are still closed, I will tell the table and use the "
                            "button.")

        await answer(interaction, work)




async def setup(bot) -> None:
    await bot.add_cog(TableCog(bot))
