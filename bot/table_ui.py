"""The table's look and its buttons, shared by every game: the table message, the move
panel, vote buttons and channel notices. Buttons are DynamicItems whose custom_id carries
the table id, so they keep working after a restart; state is always reloaded from storage."""
from __future__ import annotations

import re
from typing import Any

import discord

from bot.errors import Refusal
from bot.i18n import reader, say, tr
from bot.interact import answer
from bot.items import TableItem, choice_number, number, table_id
from bot.move_items import STALE
from bot.present import presenter_for
from bot.tables import Table, replace_votes_needed
from engines.text import N_, from_json

MAX_BUTTONS = 20  # 4 rows of 5; the last row is kept for the select menu


def seat_mentions(table: Table, seats) -> str:
    return ", ".join(f"<@{table.game.user_at(s).user_id}>" for s in sorted(seats))


# --- how a table looks ------------------------------------------------------------------------
def game_title(engine, lang: str) -> str:
    return say(getattr(engine, "title_name", None) or engine.title, lang)


def prompt_of(aw, lang: str) -> str:
    return say(aw.prompt, lang) if aw.prompt else tr(lang, "a move")


def table_message(table: Table, lang: str | None = None) -> tuple[discord.Embed, discord.ui.View | None]:
    """The table as the channel sees it, in the table's language (or `lang`: /game status answers its asker)."""
    game, engine = table.game, table.engine
    lang = lang or game.lang
    title = game_title(engine, lang)
    embed = discord.Embed(title=tr(lang, "Table {id} · {title}", id=game.id, title=title))
    embed.set_footer(text=tr(lang, "table {id} · /game status table:{id} · /rules {game}", id=game.id,
                             game=engine.name))
    view = discord.ui.View(timeout=None)
    if game.status == "lobby":
        seats = "\n".join(f"• {s.name}" for s in game.seats)
        order = tr(lang, "random") if game.random_seats else tr(lang, "in order of joining")
        embed.description = tr(lang, "Waiting for players: {n} of up to {most} (at least {least}). Seat order: "
                                     "{order}.", n=len(game.seats), most=game.max_players,
                               least=engine.min_players, order=order) + f"\n{seats}"
        for op in ("join", "leave", "start"):
            view.add_item(TableButton(op, game.id, lang))
        return embed, view
    lines = presenter_for(engine.name).public_lines(table, lang=lang)
    players = "\n".join(f"{s.seat + 1}. {s.name}" for s in game.in_seat_order())
    embed.add_field(name=tr(lang, "Players"), value=players or "-", inline=False)
    if game.status == "active":
        aw = engine.awaiting(table.state)
        if aw.pinged:
            lines.append(tr(lang, "**Waiting for** {users}: {prompt}.", users=seat_mentions(table, aw.pinged),
                            prompt=prompt_of(aw, lang)))
        view.add_item(TableButton("hand", game.id, lang))
    elif game.status == "over":
        scores = engine.scores(table.state)
        places = [", ".join(f"{game.user_at(s).name} {scores[s]}" for s in place)
                  + (tr(lang, " (tied)") if len(place) > 1 else "") for place in engine.ranking(table.state)]
        lines.append(tr(lang, "**Game over.**") + " " + " · ".join(f"{i}. {p}" for i, p in enumerate(places, 1)))
        view = None
    else:
        lines.append(tr(lang, "**Abandoned.**"))
        view = None
    embed.description = "\n".join(lines)[:4000]
    return embed, view


def hand_view(table: Table, seat: int, lang: str | None = None) -> discord.ui.View | None:
    """Buttons for each legal move of this seat (a select menu when there are many), in the player's language."""
    if table.state is None or table.game.status != "active":
        return None
    lang = lang or reader()
    pres = presenter_for(table.engine.name)
    custom = pres.move_view(table, seat, lang=lang)
    if custom is not None:
        return custom
    moves = table.engine.legal(table.state, seat)
    if not moves:
        return None
    view = discord.ui.View(timeout=None)
    if len(moves) <= MAX_BUTTONS:
        for i, move in enumerate(moves):
            view.add_item(MoveButton(table.game.id, table.seq, i, pres.move_label(table, move, lang=lang)[:80]))
    else:  # up to five menus of 25 moves; a game with more offers its own panel
        for page in range(min(5, (len(moves) + 24) // 25)):
            chunk = list(enumerate(moves))[25 * page:25 * page + 25]
            view.add_item(MoveSelect(table.game.id, table.seq, page,
                                     [(i, pres.move_label(table, m, lang=lang)[:100]) for i, m in chunk], lang))
    return view


def hand_reply(table: Table, seat: int, lang: str | None = None) -> dict[str, Any]:
    """A player's hand and moves, in their language (by default the reader's)."""
    lang = lang or reader()
    pres = presenter_for(table.engine.name)
    lines = [tr(lang, "**Table {id} · {title}**", id=table.game.id, title=game_title(table.engine, lang)),
             *pres.private_lines(table, seat, lang=lang)]
    view = hand_view(table, seat, lang)
    if view is None and table.game.status == "active":
        aw = table.engine.awaiting(table.state)
        lines.append(tr(lang, "Nothing to do right now; waiting for {who}.",
                        who=seat_mentions(table, aw.pinged) or tr(lang, "chance")))
    reply: dict[str, Any] = {"content": "\n".join(lines)[:2000]}
    if view is not None:
        reply["view"] = view
    return reply


#: Channel notices queued in the outbox, by kind: {id}, {title}, {users} and the payload's own fields.
NOTICES = {
    "reminder": N_("Reminder: table {id} · {title} is waiting for {users}."),
    "window": N_("Table {id}: time is up ({what})."),
    "over": N_("Table {id} · {title} is over. Final scores are on the table message."),
    "refused": N_("Table {id}: the {about} was refused."),
    "undone": N_("Table {id}: the last move was undone."),
    "replaced": N_("Table {id}: {name} takes over a seat."),
    "abandoned": N_("Table {id} was abandoned."),
    "dms_closed": N_("{users}, your DMs are closed, so I can't send you your hand. Use the **My hand & moves** "
                     "button on the table message to see it; `/game dms` turns DMs back on once you have opened "
                     "them."),
    "dm_failed": N_("{users}, a DM from me to you could not be delivered, so I stopped trying. Use the **My hand & "
                    "moves** button on the table message to see your hand."),
}
#: What a vote is about, as a notice names it.
ABOUT = {"undo": N_("undo"), "replacement": N_("replacement")}


def notice_text(table: Table, payload: dict[str, Any], lang: str | None = None) -> str | None:
    """Text of a channel notice queued in the outbox, in the table's language."""
    game, engine = table.game, table.engine
    lang = lang or game.lang
    users = mentions(payload.get("users", []))
    title = game_title(engine, lang)
    kind = payload["kind"]
    if kind == "ping":
        if game.status != "active":
            return None
        aw = engine.awaiting(table.state)
        # rendered when sent: a player who has moved since it was queued is not called to move
        still = [u for u in payload.get("users", []) if game.seat_of(u) in aw.pinged]
        return tr(lang, "Table {id} · {title}: {users}, your move ({prompt}).", id=game.id, title=title,
                  users=mentions(still), prompt=prompt_of(aw, lang)) if still else None
    if kind == "autopass":
        if payload.get("secret"):
            return tr(lang, "Table {id}: time ran out, so a choice was made for {users}.", id=game.id, users=users)
        return tr(lang, "Table {id}: time ran out; played for {users}: {moves}.", id=game.id, users=users,
                  moves=", ".join(say(from_json(label), lang) for label in payload["labels"]))
    if kind in NOTICES:
        values = {**payload, "id": game.id, "title": title, "users": users,
                  "what": say(from_json(payload["what"]), lang) if payload.get("what") else tr(lang, "the choice"),
                  "about": tr(lang, ABOUT.get(payload.get("about"), payload.get("about") or ""))}
        return tr(lang, NOTICES[kind], **{k: v for k, v in values.items() if k != "kind"})
    return None


def mentions(user_ids: list[int]) -> str:
    return ", ".join(f"<@{u}>" for u in user_ids)


def vote_message(table: Table, about: str, vote: int,
                 lang: str | None = None) -> tuple[str | None, list[int], discord.ui.View | None]:
    """The post of an open vote (``about`` undo or replace) with its buttons, in the table's language; nothing
    once that vote is over."""
    game = table.game
    lang = lang or game.lang
    req = game.pending.get(about)
    if not req or req.get("id") != vote:
        return None, [], None
    view = discord.ui.View(timeout=None)
    for yes in (True, False):
        view.add_item(VoteButton("undo" if about == "undo" else "repl", game.id, vote, yes, lang))
    if about == "undo":
        waiting = [s for s in req["need"] if s not in req["yes"]]
        users = [game.user_at(s).user_id for s in waiting]
        return tr(lang, "Table {id}: {name} asks to undo their last move. {users}, do you agree?", id=game.id,
                  name=game.user_at(req["seat"]).name, users=mentions(users)), users, view
    sitter = game.user_at(req["seat"])
    others = [s for s in req["yes"] if s != req["seat"]]
    values = dict(id=game.id, by=game.user_at(req["by"]).name, seat=req["seat"] + 1, sitter=sitter.name,
                  name=req["name"], need=replace_votes_needed(game), so_far=len(others))
    if len(game.seats) > 2:
        text = tr(lang, "Table {id}: {by} proposes to give seat {seat} ({sitter}) to {name}. It needs {need} of the "
                        "other players ({so_far} so far).", **values)
    else:
        text = tr(lang, "Table {id}: {by} proposes to give seat {seat} ({sitter}) to {name}. It needs {need} of the "
                        "other players ({so_far} so far), and {sitter}'s agreement.", **values)
    users = [sitter.user_id] if req.get("ask") else []
    if users:
        text += " " + tr(lang, "<@{user}>, you may agree or refuse.", user=sitter.user_id)
    return text, users, view


# --- buttons that survive restarts ---------------------------------------------------------------
class TableButton(TableItem, discord.ui.DynamicItem[discord.ui.Button],
                  template=r"tbl:(?P<op>join|leave|start|hand):(?P<gid>\d+)"):
    LOOK = {"join": (N_("Join"), discord.ButtonStyle.success), "leave": (N_("Leave"), discord.ButtonStyle.secondary),
            "start": (N_("Start"), discord.ButtonStyle.primary),
            "hand": (N_("My hand & moves"), discord.ButtonStyle.primary)}

    def __init__(self, op: str, game_id: int, lang: str = "en"):
        label, style = self.LOOK[op]
        super().__init__(discord.ui.Button(label=tr(lang, label), style=style, custom_id=f"tbl:{op}:{game_id}"))
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
                return tr(None, "You joined table {id}.", id=self.gid)
            if self.op == "leave":
                await tables.leave(self.gid, user.id)
                return tr(None, "You left table {id}.", id=self.gid)
            if self.op == "start":
                await tables.start(self.gid, user.id)
                return tr(None, "Table {id} has started.", id=self.gid)
            return await my_hand(tables, self.gid, user.id)

        await answer(interaction, work)


async def my_hand(tables, game_id: int, user_id: int) -> dict[str, Any]:
    table = await tables.load(game_id)
    seat = table.game.seat_of(user_id)
    if seat is None or table.game.status == "lobby":
        if seat is None:
            raise Refusal("You are not playing at table {id}.", id=game_id)
        raise Refusal("Table {id} has not started yet.", id=game_id)
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


def confirm_reply(table: Table, seat: int, move: dict[str, Any], was_secret: bool,
                  lang: str | None = None) -> dict[str, Any]:
    """The answer after a move: what was played (or chosen in secret, while that secret step
    is still open), then the hand and moves, in the player's language."""
    lang = lang or reader()
    secret = was_secret and table.engine.awaiting(table.state).secret and table.engine.can_act(table.state, seat)
    label = presenter_for(table.engine.name).move_label(table, move, lang=lang)
    reply = hand_reply(table, seat, lang)
    if secret:
        head = tr(lang, "Your secret choice: **{move}**. Nobody sees it until everyone has chosen; you may change "
                        "it until then.", move=label)
    else:
        head = tr(lang, "You played **{move}**.", move=label)
    reply["content"] = f"{head}\n{reply['content']}"[:2000]
    return reply


class MoveButton(TableItem, discord.ui.DynamicItem[discord.ui.Button],
                 template=r"mv:(?P<gid>\d+):(?P<seq>\d+):(?P<idx>\d+)"):
    def __init__(self, game_id: int, seq: int, index: int, label: str = "-"):
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary,
                                           custom_id=f"mv:{game_id}:{seq}:{index}"))
        self.gid, self.seq, self.index = game_id, seq, index

    @classmethod
    def read(cls, match: re.Match, item):
        return cls(table_id(match["gid"]), number(match["seq"]), number(match["idx"]), item.label or "-")

    async def callback(self, interaction: discord.Interaction) -> None:
        await answer(interaction, lambda: play_index(interaction, self.gid, self.seq, self.index))


class MoveSelect(TableItem, discord.ui.DynamicItem[discord.ui.Select],
                 template=r"mvs:(?P<gid>\d+):(?P<seq>\d+):(?P<page>\d)"):
    def __init__(self, game_id: int, seq: int, page: int, options: list[tuple[int, str]] | None = None,
                 lang: str = "en"):
        opts = [discord.SelectOption(label=label, value=str(i)) for i, label in options or [(0, "-")]]
        placeholder = tr(lang, "Choose your move") + (f" ({page + 1})" if page else "")
        super().__init__(discord.ui.Select(custom_id=f"mvs:{game_id}:{seq}:{page}", options=opts,
                                           placeholder=placeholder))
        self.gid, self.seq = game_id, seq

    @classmethod
    def read(cls, match: re.Match, item):
        return cls(table_id(match["gid"]), number(match["seq"]), number(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await answer(interaction, lambda: play_index(interaction, self.gid, self.seq, choice_number(interaction, 999)))


class VoteButton(TableItem, discord.ui.DynamicItem[discord.ui.Button],
                 template=r"vote:(?P<kind>undo|repl):(?P<gid>\d+):(?P<ref>\d+):(?P<yes>[yn])"):
    """Agree or Refuse on one vote; ``ref`` is the vote's id, so a click on an older vote never counts."""

    def __init__(self, kind: str, game_id: int, ref: int, yes: bool, lang: str = "en"):
        label = tr(lang, "Agree") if yes else tr(lang, "Refuse")
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
            return tr(None, "Your vote is counted.") if self.yes else tr(None, "You refused.")

        await answer(interaction, work)


DYNAMIC_ITEMS = (TableButton, MoveButton, MoveSelect, VoteButton)
