"""The /game commands and the buttons every game shares: create, join, leave, start,
my hand and moves, status, my games, undo, abandon, export, replace, DMs.

Every reply here is ephemeral; what the whole table sees is the table message and the
notices the outbox posts (bot/delivery.py)."""
from __future__ import annotations

import io
import json
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import engines
from bot.errors import Refusal
from bot.interact import answer, is_admin
from bot.present import presenter_for
from bot.tables import Table, replace_votes_needed
from engines.base import CHANCE

MAX_BUTTONS = 20  # 4 rows of 5; the last row is kept for the select menu


def _names(table: Table, seats) -> str:
    return ", ".join(f"<@{table.game.user_at(s).user_id}>" for s in sorted(seats))


# --- how a table looks ------------------------------------------------------------------------
def table_message(table: Table) -> tuple[discord.Embed, discord.ui.View | None]:
    game, engine = table.game, table.engine
    embed = discord.Embed(title=f"Table {game.id} · {engine.title}")
    embed.set_footer(text=f"table {game.id} · /game status table:{game.id} · /rules {engine.name}")
    view = discord.ui.View(timeout=None)
    if game.status == "lobby":
        seats = "\n".join(f"• {s.name}" for s in game.seats)
        order = "random" if game.random_seats else "in order of joining"
        embed.description = (f"Waiting for players: {len(game.seats)} of up to {game.max_players} "
                             f"(at least {engine.min_players}). Seat order: {order}.\n{seats}")
        for op in ("join", "leave", "start"):
            view.add_item(TableButton(op, game.id))
        return embed, view
    lines = presenter_for(engine.name).public_lines(table)
    players = "\n".join(f"{s.seat + 1}. {s.name}" for s in game.in_seat_order())
    embed.add_field(name="Players", value=players or "-", inline=False)
    if game.status == "active":
        aw = engine.awaiting(table.state)
        if aw.seats:
            lines.append(f"**Waiting for** {_names(table, aw.seats)}: {aw.prompt or 'a move'}.")
        view.add_item(TableButton("hand", game.id))
    elif game.status == "over":
        scores = engine.scores(table.state)
        ranked = sorted(range(len(scores)), key=lambda s: -scores[s])
        lines.append("**Game over.** " + ", ".join(f"{game.user_at(s).name} {scores[s]}" for s in ranked))
        view = None
    else:
        lines.append("**Abandoned.**")
        view = None
    embed.description = "\n".join(lines)[:4000]
    return embed, view


def hand_view(table: Table, seat: int) -> discord.ui.View | None:
    """Buttons for each legal move of this seat (a select menu when there are many)."""
    if table.state is None or table.game.status != "active":
        return None
    moves = table.engine.legal(table.state, seat)
    if not moves:
        return None
    pres = presenter_for(table.engine.name)
    view = discord.ui.View(timeout=None)
    if len(moves) <= MAX_BUTTONS:
        for i, move in enumerate(moves):
            view.add_item(MoveButton(table.game.id, table.seq, i, pres.move_label(table, move)[:80]))
    else:
        view.add_item(MoveSelect(table.game.id, table.seq,
                                 [(i, pres.move_label(table, m)[:100]) for i, m in enumerate(moves[:25])]))
    return view


def hand_reply(table: Table, seat: int) -> dict[str, Any]:
    pres = presenter_for(table.engine.name)
    lines = [f"**Table {table.game.id} · {table.engine.title}**", *pres.private_lines(table, seat)]
    view = hand_view(table, seat)
    if view is None and table.game.status == "active":
        aw = table.engine.awaiting(table.state)
        lines.append(f"Nothing to do right now; waiting for {_names(table, aw.seats) or 'chance'}.")
    reply: dict[str, Any] = {"content": "\n".join(lines)[:2000]}
    if view is not None:
        reply["view"] = view
    return reply


def notice_text(table: Table, payload: dict[str, Any]) -> str | None:
    """Text of a channel notice queued in the outbox."""
    game, engine = table.game, table.engine
    users = mentions(payload.get("users", []))
    kind = payload["kind"]
    if kind == "ping":
        if game.status != "active":
            return None
        return f"Table {game.id} · {engine.title}: {users}, your move ({engine.awaiting(table.state).prompt})."
    if kind == "reminder":
        return f"Reminder: table {game.id} · {engine.title} is waiting for {users}."
    if kind == "autopass":
        if payload.get("secret"):
            return f"Table {game.id}: time ran out, so a choice was made for {users}."
        return f"Table {game.id}: time ran out; played for {users}: {', '.join(payload['labels'])}."
    if kind == "window":
        return f"Table {game.id}: the time to choose is over; whoever had not chosen gets the default."
    if kind == "over":
        return f"Table {game.id} · {engine.title} is over. Final scores are on the table message."
    return None


def mentions(user_ids: list[int]) -> str:
    return ", ".join(f"<@{u}>" for u in user_ids)


def vote_message(table: Table, note: str) -> tuple[str | None, list[int], discord.ui.View | None]:
    game = table.game
    view = discord.ui.View(timeout=None)
    if note == "undo" and (req := game.pending.get("undo")):
        waiting = [s for s in req["need"] if s not in req["yes"]]
        users = [game.user_at(s).user_id for s in waiting]
        for yes in (True, False):
            view.add_item(VoteButton("undo", game.id, req["seq"], yes))
        return (f"Table {game.id}: {game.user_at(req['seat']).name} asks to undo their last move. "
                f"{mentions(users)}, do you agree?"), users, view
    if note == "replace" and (req := game.pending.get("replace")):
        need = replace_votes_needed(game)
        for yes in (True, False):
            view.add_item(VoteButton("repl", game.id, req["seat"], yes))
        return (f"Table {game.id}: proposal to give seat {req['seat'] + 1} ({game.user_at(req['seat']).name}) "
                f"to {req['name']}. {len(req['yes'])} of {need} votes needed so far."), [], view
    if note.endswith("refused"):
        return f"Table {game.id}: the {note.split()[0].replace('repl', 'replacement')} was refused.", [], None
    return None, [], None


# --- buttons that survive restarts ---------------------------------------------------------------
class TableButton(discord.ui.DynamicItem[discord.ui.Button], template=r"tbl:(?P<op>join|leave|start|hand):(?P<gid>\d+)"):
    LOOK = {"join": ("Join", discord.ButtonStyle.success), "leave": ("Leave", discord.ButtonStyle.secondary),
            "start": ("Start", discord.ButtonStyle.primary), "hand": ("My hand & moves", discord.ButtonStyle.primary)}

    def __init__(self, op: str, game_id: int):
        label, style = self.LOOK[op]
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"tbl:{op}:{game_id}"))
        self.op, self.game_id = op, game_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match):
        return cls(match["op"], int(match["gid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        tables = interaction.client.tables
        user = interaction.user

        async def work():
            if self.op == "join":
                await tables.join(self.game_id, user.id, user.display_name)
                return f"You joined table {self.game_id}."
            if self.op == "leave":
                await tables.leave(self.game_id, user.id)
                return f"You left table {self.game_id}."
            if self.op == "start":
                await tables.start(self.game_id, user.id)
                return f"Table {self.game_id} has started."
            return await my_hand(tables, self.game_id, user.id)

        await answer(interaction, work)


async def my_hand(tables, game_id: int, user_id: int) -> dict[str, Any]:
    table = await tables.load(game_id)
    seat = table.game.seat_of(user_id)
    if seat is None or table.game.status == "lobby":
        raise Refusal(f"You are not playing at table {game_id}." if seat is None
                      else f"Table {game_id} has not started yet.")
    return hand_reply(table, seat)


async def play_index(interaction: discord.Interaction, game_id: int, seq: int, index: int) -> dict[str, Any]:
    tables = interaction.client.tables
    table = await tables.load(game_id)
    seat = tables._seat(table, interaction.user.id)
    if seq != table.seq:
        raise Refusal("The game has moved on since these choices were shown; here is what you can do now.")
    moves = table.engine.legal(table.state, seat)
    if not 0 <= index < len(moves):
        raise Refusal("That choice is no longer available.")
    move = moves[index]
    secret = table.engine.awaiting(table.state).secret
    table = await tables.act(game_id, interaction.user.id, move, expected_seq=seq)
    label = presenter_for(table.engine.name).move_label(table, move)
    reply = hand_reply(table, seat)
    if secret and table.engine.awaiting(table.state).secret:
        head = f"Your secret choice: **{label}**. Nobody sees it until everyone has chosen; you may change it until then."
    else:
        head = f"You played **{label}**."
    reply["content"] = f"{head}\n{reply['content']}"[:2000]
    return reply


class MoveButton(discord.ui.DynamicItem[discord.ui.Button], template=r"mv:(?P<gid>\d+):(?P<seq>\d+):(?P<idx>\d+)"):
    def __init__(self, game_id: int, seq: int, index: int, label: str = "Move"):
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary,
                                           custom_id=f"mv:{game_id}:{seq}:{index}"))
        self.game_id, self.seq, self.index = game_id, seq, index

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match):
        return cls(int(match["gid"]), int(match["seq"]), int(match["idx"]), item.label or "Move")

    async def callback(self, interaction: discord.Interaction) -> None:
        await answer(interaction, lambda: play_index(interaction, self.game_id, self.seq, self.index))


class MoveSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"mvs:(?P<gid>\d+):(?P<seq>\d+)"):
    def __init__(self, game_id: int, seq: int, options: list[tuple[int, str]] | None = None):
        opts = [discord.SelectOption(label=label, value=str(i)) for i, label in options or [(0, "-")]]
        super().__init__(discord.ui.Select(custom_id=f"mvs:{game_id}:{seq}", placeholder="Choose your move",
                                           options=opts))
        self.game_id, self.seq = game_id, seq

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match):
        return cls(int(match["gid"]), int(match["seq"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        index = int(interaction.data["values"][0])
        await answer(interaction, lambda: play_index(interaction, self.game_id, self.seq, index))


class VoteButton(discord.ui.DynamicItem[discord.ui.Button],
                 template=r"vote:(?P<kind>undo|repl):(?P<gid>\d+):(?P<ref>\d+):(?P<yes>[yn])"):
    def __init__(self, kind: str, game_id: int, ref: int, yes: bool):
        label = ("Agree" if yes else "Refuse")
        style = discord.ButtonStyle.success if yes else discord.ButtonStyle.danger
        super().__init__(discord.ui.Button(label=label, style=style,
                                           custom_id=f"vote:{kind}:{game_id}:{ref}:{'y' if yes else 'n'}"))
        self.kind, self.game_id, self.ref, self.yes = kind, game_id, ref, yes

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match):
        return cls(match["kind"], int(match["gid"]), int(match["ref"]), match["yes"] == "y")

    async def callback(self, interaction: discord.Interaction) -> None:
        tables = interaction.client.tables

        async def work():
            if self.kind == "undo":
                await tables.vote_undo(self.game_id, interaction.user.id, self.ref, self.yes)
            else:
                await tables.vote_replace(self.game_id, interaction.user.id, self.yes)
            return "Your vote is counted." if self.yes else "You refused."

        await answer(interaction, work)


DYNAMIC_ITEMS = (TableButton, MoveButton, MoveSelect, VoteButton)


# --- option parsing and autocomplete ---------------------------------------------------------------
def parse_options(text: str) -> dict[str, Any]:
    """'rounds=3 window_minutes=5' -> {'rounds': 3, 'window_minutes': 5}."""
    out: dict[str, Any] = {}
    for part in text.replace(",", " ").split():
        if "=" not in part:
            raise Refusal(f"Write options as name=value, like rounds=3 (got {part!r}).")
        key, value = part.split("=", 1)
        try:
            out[key] = json.loads(value)
        except json.JSONDecodeError:
            out[key] = value
    return out


async def table_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
    tables = interaction.client.tables
    games = await tables.store.games(user_id=interaction.user.id)
    games += [g for g in await tables.store.games(channel_id=interaction.channel_id) if g not in games]
    choices = []
    for g in games:
        name = f"{g.id} · {engines.get(g.engine).title} · {g.status}"
        if current in str(g.id) or current.lower() in name.lower():
            choices.append(app_commands.Choice(name=name[:100], value=g.id))
    return choices[:25]


async def options_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    try:
        engine = engines.get(interaction.namespace.game)
    except KeyError:
        return []
    out = []
    for o in engine.options:
        example = f"{o.name}={o.default}"
        hint = f"{example} — {o.description}"
        out.append(app_commands.Choice(name=hint[:100], value=(current + " " + example).strip()[:100]))
    return out[:25]


GAME_CHOICES = [app_commands.Choice(name=e.title, value=e.name) for e in engines.ENGINES.values()]


class TableCog(commands.Cog):
    game = app_commands.Group(name="game", description="Play board games at a table in this channel.")

    def __init__(self, bot):
        self.bot = bot

    @game.command(name="create", description="Open a new table in this channel.")
    @app_commands.describe(game="Which game", players="Most players allowed (default: the game's maximum)",
                           seating="Seat order", reminder_hours="Remind the awaited players after this idle time",
                           autopass_hours="Play the default move for a player idle this long (0 = never)",
                           options="Game options as name=value, e.g. rounds=3")
    @app_commands.choices(game=GAME_CHOICES, seating=[app_commands.Choice(name="random", value="random"),
                                                      app_commands.Choice(name="as joined", value="joined")])
    @app_commands.autocomplete(options=options_autocomplete)
    async def create(self, interaction: discord.Interaction, game: str, players: int | None = None,
                     seating: str = "random", reminder_hours: float | None = None, autopass_hours: float = 0.0,
                     options: str = "") -> None:
        async def work():
            table = await self.bot.tables.create(
                guild_id=interaction.guild_id, channel_id=interaction.channel_id, engine_name=game,
                user_id=interaction.user.id, name=interaction.user.display_name, options=parse_options(options),
                max_players=players, random_seats=seating == "random",
                reminder_hours=self.bot.settings.reminder_hours if reminder_hours is None else reminder_hours,
                autopass_hours=autopass_hours)
            return (f"Table {table.game.id} ({table.engine.title}) is open and you are seated. "
                    "Others join with the Join button; press Start when everyone is in.")

        await answer(interaction, work)

    async def _table(self, interaction: discord.Interaction, table: int | None) -> int:
        return await self.bot.tables.resolve(interaction.channel_id, interaction.user.id, table)

    @game.command(name="join", description="Take a seat at a table that has not started.")
    @app_commands.autocomplete(table=table_autocomplete)
    async def join(self, interaction: discord.Interaction, table: int | None = None) -> None:
        async def work():
            gid = await self._table(interaction, table)
            await self.bot.tables.join(gid, interaction.user.id, interaction.user.display_name)
            return f"You joined table {gid}."

        await answer(interaction, work)

    @game.command(name="start", description="Start a table you created.")
    @app_commands.autocomplete(table=table_autocomplete)
    async def start(self, interaction: discord.Interaction, table: int | None = None) -> None:
        async def work():
            gid = await self._table(interaction, table)
            await self.bot.tables.start(gid, interaction.user.id)
            return f"Table {gid} has started."

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
            embed, _ = table_message(t)
            return {"embed": embed}

        await answer(interaction, work)

    @game.command(name="mine", description="Your open tables in every channel.")
    async def mine(self, interaction: discord.Interaction) -> None:
        async def work():
            games = await self.bot.tables.store.games(user_id=interaction.user.id)
            if not games:
                return "You are not seated at any open table."
            lines = []
            for g in games:
                t = await self.bot.tables.load(g.id)
                where = f"<#{g.channel_id}>"
                if g.status == "lobby":
                    now = "waiting for players"
                else:
                    aw = t.engine.awaiting(t.state)
                    now = "**your move**" if g.seat_of(interaction.user.id) in aw.seats else \
                        f"waiting for {_names(t, aw.seats) or 'chance'}"
                lines.append(f"• Table {g.id} · {t.engine.title} in {where}: {now}")
            return "\n".join(lines)[:2000]

        await answer(interaction, work)

    @game.command(name="undo", description="Take back your last move (others it affects must agree).")
    @app_commands.autocomplete(table=table_autocomplete)
    async def undo(self, interaction: discord.Interaction, table: int | None = None) -> None:
        async def work():
            gid = await self._table(interaction, table)
            _, need = await self.bot.tables.request_undo(gid, interaction.user.id)
            if need:
                return "Your undo request is posted; the players it affects must agree."
            return "Your last move was undone."

        await answer(interaction, work)

    @game.command(name="abandon", description="End a table without a result (its creator or a server manager).")
    @app_commands.autocomplete(table=table_autocomplete)
    async def abandon(self, interaction: discord.Interaction, table: int | None = None) -> None:
        async def work():
            gid = await self._table(interaction, table)
            await self.bot.tables.abandon(gid, interaction.user.id, is_admin(interaction))
            return f"Table {gid} is abandoned."

        await answer(interaction, work)

    @game.command(name="export", description="Download the whole game log as JSON (python -m bot replay reads it).")
    @app_commands.autocomplete(table=table_autocomplete)
    async def export(self, interaction: discord.Interaction, table: int | None = None) -> None:
        async def work():
            gid = await self._table(interaction, table)
            t = await self.bot.tables.load(gid)
            if t.game.status in ("lobby", "active"):  # the log holds every hidden card and die
                raise Refusal("The log holds every hidden card, so it can be exported only once the game has ended.")
            doc = await self.bot.tables.export(gid)
            data = json.dumps(doc, indent=1).encode()
            return {"content": f"The log of table {gid}.",
                    "file": discord.File(io.BytesIO(data), filename=f"table-{gid}-{doc['game']}.json")}

        await answer(interaction, work)

    @game.command(name="replace", description="Give a seat to someone else (a vote of the players, or a server manager).")
    @app_commands.describe(seat="Seat number as shown on the table", player="Who takes the seat")
    @app_commands.autocomplete(table=table_autocomplete)
    async def replace(self, interaction: discord.Interaction, seat: int, player: discord.Member,
                      table: int | None = None) -> None:
        async def work():
            gid = await self._table(interaction, table)
            _, done = await self.bot.tables.replace(gid, interaction.user.id, seat - 1, player.id,
                                                    player.display_name, is_admin(interaction))
            return f"{player.display_name} now plays seat {seat}." if done else "Your proposal is posted for a vote."

        await answer(interaction, work)

    @game.command(name="dms", description="Turn my game DMs back on after opening your DMs.")
    async def dms(self, interaction: discord.Interaction) -> None:
        async def work():
            await self.bot.tables.store.set_dm_closed(interaction.user.id, False)
            return "I will DM you again. If your DMs are still closed, I will tell the table and use the button."

        await answer(interaction, work)


__all__ = ["TableCog", "DYNAMIC_ITEMS", "table_message", "hand_view", "notice_text", "vote_message", "CHANCE"]


async def setup(bot) -> None:
    await bot.add_cog(TableCog(bot))
