"""The table's look and its buttons, shared by every game: the table message, the move
panel, vote buttons and channel notices. Buttons are DynamicItems whose custom_id carries
the table id, so they keep working after a restart; state is always reloaded from storage."""
from __future__ import annotations

import re
from typing import Any

import discord

from bot.errors import Refusal
from bot.interact import answer
from bot.items import TableItem, choice_number, number, table_id
from bot.move_items import STALE
from bot.present import presenter_for
from bot.tables import Table, replace_votes_needed

MAX_BUTTONS = 20  # 4 rows of 5; the last row is kept for the select menu


def seat_mentions(table: Table, seats) -> str:
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
        if aw.pinged:
            lines.append(f"**Waiting for** {seat_mentions(table, aw.pinged)}: {aw.prompt or 'a move'}.")
        view.add_item(TableButton("hand", game.id))
    elif game.status == "over":
        scores = engine.scores(table.state)
        places = [", ".join(f"{game.user_at(s).name} {scores[s]}" for s in place)
                  + (" (tied)" if len(place) > 1 else "") for place in engine.ranking(table.state)]
        lines.append("**Game over.** " + " · ".join(f"{i}. {p}" for i, p in enumerate(places, 1)))
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
    pres = presenter_for(table.engine.name)
    custom = pres.move_view(table, seat)
    if custom is not None:
        return custom
    moves = table.engine.legal(table.state, seat)
    if not moves:
        return None
    view = discord.ui.View(timeout=None)
    if len(moves) <= MAX_BUTTONS:
        for i, move in enumerate(moves):
            view.add_item(MoveButton(table.game.id, table.seq, i, pres.move_label(table, move)[:80]))
    else:  # up to five menus of 25 moves; a game with more offers its own panel
        for page in range(min(5, (len(moves) + 24) // 25)):
            chunk = list(enumerate(moves))[25 * page:25 * page + 25]
            view.add_item(MoveSelect(table.game.id, table.seq, page,
                                     [(i, pres.move_label(table, m)[:100]) for i, m in chunk]))
    return view


def hand_reply(table: Table, seat: int) -> dict[str, Any]:
    pres = presenter_for(table.engine.name)
    lines = [f"**Table {table.game.id} · {table.engine.title}**", *pres.private_lines(table, seat)]
    view = hand_view(table, seat)
    if view is None and table.game.status == "active":
        aw = table.engine.awaiting(table.state)
        lines.append(f"Nothing to do right now; waiting for {seat_mentions(table, aw.pinged) or 'chance'}.")
    reply: dict[str, Any] = {"content": "\n".join(lines)[:2000]}
    if view is not None:
        reply["view"] = view
    return reply


#: Channel notices queued in the outbox, by kind: {id}, {title}, {users} and the payload's own fields.
NOTICES = {
    "reminder": "Reminder: table {id} · {title} is waiting for {users}.",
    "window": "Table {id}: time is up ({what}).",
    "over": "Table {id} · {title} is over. Final scores are on the table message.",
    "refused": "Table {id}: the {about} was refused.",
    "undone": "Table {id}: the last move was undone.",
    "replaced": "Table {id}: {name} takes over a seat.",
    "abandoned": "Table {id} was abandoned.",
    "dms_closed": "{users}, your DMs are closed, so I can't send you your hand. Use the **My hand & moves** button "
                  "on the table message to see it; `/game dms` turns DMs back on once you have opened them.",
    "dm_failed": "{users}, a DM from me to you could not be delivered, so I stopped trying. Use the **My hand & "
                 "moves** button on the table message to see your hand.",
}


def notice_text(table: Table, payload: dict[str, Any]) -> str | None:
    """Text of a channel notice queued in the outbox."""
    game, engine = table.game, table.engine
    users = mentions(payload.get("users", []))
    kind = payload["kind"]
    if kind == "ping":
        if game.status != "active":
            return None
        aw = engine.awaiting(table.state)
        # rendered when sent: a player who has moved since it was queued is not called to move
        still = [u for u in payload.get("users", []) if game.seat_of(u) in aw.pinged]
        return f"Table {game.id} · {engine.title}: {mentions(still)}, your move ({aw.prompt})." if still else None
    if kind == "autopass":
        if payload.get("secret"):
            return f"Table {game.id}: time ran out, so a choice was made for {users}."
        return f"Table {game.id}: time ran out; played for {users}: {', '.join(payload['labels'])}."
    if kind in NOTICES:
        return NOTICES[kind].format(**{"what": "the choice", **payload, "id": game.id, "title": engine.title,
                                       "users": users})
    return None


def mentions(user_ids: list[int]) -> str:
    return ", ".join(f"<@{u}>" for u in user_ids)


def vote_message(table: Table, about: str, vote: int) -> tuple[str | None, list[int], discord.ui.View | None]:
    """The post of an open vote (``about`` undo or replace) with its buttons; nothing once that vote is over."""
    game = table.game
    req = game.pending.get(about)
    if not req or req.get("id") != vote:
        return None, [], None
    view = discord.ui.View(timeout=None)
    for yes in (True, False):
        view.add_item(VoteButton("undo" if about == "undo" else "repl", game.id, vote, yes))
    if about == "undo":
        waiting = [s for s in req["need"] if s not in req["yes"]]
        users = [game.user_at(s).user_id for s in waiting]
        return (f"Table {game.id}: {game.user_at(req['seat']).name} asks to undo their last move. "
                f"{mentions(users)}, do you agree?"), users, view
    sitter = game.user_at(req["seat"])
    others = [s for s in req["yes"] if s != req["seat"]]
    text = (f"Table {game.id}: {game.user_at(req['by']).name} proposes to give seat {req['seat'] + 1} "
            f"({sitter.name}) to {req['name']}. It needs {replace_votes_needed(game)} of the other players "
            f"({len(others)} so far)")
    text += "." if len(game.seats) > 2 else f", and {sitter.name}'s agreement."
    users = [sitter.user_id] if req.get("ask") else []
    if users:
        text += f" <@{sitter.user_id}>, you may agree or refuse."
    return text, users, view


# --- buttons that survive restarts ---------------------------------------------------------------
class TableButton(TableItem, discord.ui.DynamicItem[discord.ui.Button],
                  template=r"tbl:(?P<op>join|leave|start|hand):(?P<gid>\d+)"):
    LOOK = {"join": ("Join", discord.ButtonStyle.success), "leave": ("Leave", discord.ButtonStyle.secondary),
            "start": ("Start", discord.ButtonStyle.primary), "hand": ("My hand & moves", discord.ButtonStyle.primary)}

    def __init__(self, op: str, game_id: int):
        label, style = self.LOOK[op]
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"tbl:{op}:{game_id}"))
        self.op, self.gid = op, game_id

    @classmethod
    def read(cls, match: re.Match, item):
        return cls(match["op"], table_id(match["gid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        tables = interaction.client.tables
        user = interaction.user

        async def work():
            if self.op == "join":
                await tables.join(self.gid, user.id, user.display_name)
                return f"You joined table {self.gid}."
            if self.op == "leave":
                await tables.leave(self.gid, user.id)
                return f"You left table {self.gid}."
            if self.op == "start":
                await tables.start(self.gid, user.id)
                return f"Table {self.gid} has started."
            return await my_hand(tables, self.gid, user.id)

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
    seat = tables.player_seat(table, interaction.user.id)
    shown = table.state
    if seq != table.seq:
        # Other players' secret choices do not make your panel stale; anything else does.
        shown = await tables.unchanged_for(table, seat, seq)
        if shown is None:
            raise Refusal(STALE)
    moves = table.engine.legal(shown, seat)
    if not 0 <= index < len(moves):
        raise Refusal("That choice is no longer available.")
    move = moves[index]
    was_secret = table.engine.awaiting(table.state).secret
    table = await tables.act(game_id, interaction.user.id, move, chosen_at=seq)
    return confirm_reply(table, seat, move, was_secret)


def confirm_reply(table: Table, seat: int, move: dict[str, Any], was_secret: bool) -> dict[str, Any]:
    """The answer after a move: what was played (or chosen in secret, while that secret step
    is still open), then the hand and moves."""
    secret = was_secret and table.engine.awaiting(table.state).secret and table.engine.can_act(table.state, seat)
    label = presenter_for(table.engine.name).move_label(table, move)
    reply = hand_reply(table, seat)
    if secret:
        head = (f"Your secret choice: **{label}**. Nobody sees it until everyone has chosen; "
                "you may change it until then.")
    else:
        head = f"You played **{label}**."
    reply["content"] = f"{head}\n{reply['content']}"[:2000]
    return reply


class MoveButton(TableItem, discord.ui.DynamicItem[discord.ui.Button],
                 template=r"mv:(?P<gid>\d+):(?P<seq>\d+):(?P<idx>\d+)"):
    def __init__(self, game_id: int, seq: int, index: int, label: str = "Move"):
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary,
                                           custom_id=f"mv:{game_id}:{seq}:{index}"))
        self.gid, self.seq, self.index = game_id, seq, index

    @classmethod
    def read(cls, match: re.Match, item):
        return cls(table_id(match["gid"]), number(match["seq"]), number(match["idx"]), item.label or "Move")

    async def callback(self, interaction: discord.Interaction) -> None:
        await answer(interaction, lambda: play_index(interaction, self.gid, self.seq, self.index))


class MoveSelect(TableItem, discord.ui.DynamicItem[discord.ui.Select],
                 template=r"mvs:(?P<gid>\d+):(?P<seq>\d+):(?P<page>\d)"):
    def __init__(self, game_id: int, seq: int, page: int, options: list[tuple[int, str]] | None = None):
        opts = [discord.SelectOption(label=label, value=str(i)) for i, label in options or [(0, "-")]]
        super().__init__(discord.ui.Select(custom_id=f"mvs:{game_id}:{seq}:{page}", options=opts,
                                           placeholder="Choose your move" + (f" ({page + 1})" if page else "")))
        self.gid, self.seq = game_id, seq

    @classmethod
    def read(cls, match: re.Match, item):
        return cls(table_id(match["gid"]), number(match["seq"]), number(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await answer(interaction, lambda: play_index(interaction, self.gid, self.seq, choice_number(interaction, 999)))


class VoteButton(TableItem, discord.ui.DynamicItem[discord.ui.Button],
                 template=r"vote:(?P<kind>undo|repl):(?P<gid>\d+):(?P<ref>\d+):(?P<yes>[yn])"):
    """Agree or Refuse on one vote; ``ref`` is the vote's id, so a click on an older vote never counts."""

    def __init__(self, kind: str, game_id: int, ref: int, yes: bool):
        label = ("Agree" if yes else "Refuse")
        style = discord.ButtonStyle.success if yes else discord.ButtonStyle.danger
        super().__init__(discord.ui.Button(label=label, style=style,
                                           custom_id=f"vote:{kind}:{game_id}:{ref}:{'y' if yes else 'n'}"))
        self.kind, self.gid, self.ref, self.yes = kind, game_id, ref, yes

    @classmethod
    def read(cls, match: re.Match, item):
        return cls(match["kind"], table_id(match["gid"]), number(match["ref"]), match["yes"] == "y")

    async def callback(self, interaction: discord.Interaction) -> None:
        tables = interaction.client.tables

        async def work():
            if self.kind == "undo":
                await tables.vote_undo(self.gid, interaction.user.id, self.ref, self.yes)
            else:
                await tables.vote_replace(self.gid, interaction.user.id, self.ref, self.yes)
            return "Your vote is counted." if self.yes else "You refused."

        await answer(interaction, work)


DYNAMIC_ITEMS = (TableButton, MoveButton, MoveSelect, VoteButton)
