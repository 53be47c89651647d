"""The items of a game's own move panel: a button that carries a move, and a select menu whose options carry
moves (or whatever a subclass makes of a choice: a hex, a kind, a page). The custom id is
``<prefix>:<table id>[:<step token>]:<code or slot>``, so a panel keeps working after a restart, and a game
with a step token refuses, with a sentence, a choice from a panel of an earlier step.

discord.py wants a ``template=`` on every DynamicItem subclass, so each base here has one that matches
nothing, and a subclass names only its prefix (``class MoveNow(Plays, PanelButton, prefix="tx")``): the
template is built from that and the class's ``token``. What a game's items share (the token, how a choice
is played, how text is cut) sits in a mixin placed before the base."""
from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any, ClassVar

import discord

from bot.errors import Refusal
from bot.interact import Reply, answer
from bot.items import TableItem, chosen, number, table_id
from bot.tables import Table
from engines.text import N_

STALE = N_("The game has moved on since these choices were shown; open them again to see your moves now.")
JSON = r"\{.*\}"  # a move as compact JSON
NOTHING = r"(?!)"  # the bases' own template: they are never registered


def compact(move: dict[str, Any]) -> str:
    """A move as a custom id or an option value carries it."""
    return json.dumps(move, separators=(",", ":"))


def move_of(code: str) -> dict[str, Any]:
    """The move a code carries; a custom id or an option value comes from the client, so it is checked."""
    try:
        move = json.loads(code)
    except (ValueError, RecursionError):
        raise Refusal("That choice is not a move this game knows.") from None
    if not isinstance(move, dict):
        raise Refusal("That choice is not a move this game knows.")
    return move


def _key(move: dict[str, Any]) -> str:
    # sorted keys, and JSON keeps true apart from 1: a move equals a legal one exactly or not at all
    return json.dumps(move, sort_keys=True, separators=(",", ":"))


def legal_move(table: Table, seat: int, code: str, moves: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The legal move a code names: it must equal one of the seat's legal moves exactly (a client can send any
    code, with any extra fields). The move played is the engine's own."""
    wanted = _key(move_of(code))
    for move in table.engine.legal(table.state, seat) if moves is None else moves:
        if _key(move) == wanted:
            return move
    raise Refusal("That move is not open to you now; open the table's panel again to see your moves.")


class _PanelItem(TableItem):
    """What a button and a menu share: the id's fields, the stale check, and ``choose``, which a subclass
    (or its game's mixin) writes."""

    prefix: ClassVar[str]
    token: ClassVar[str | None] = None  # the step token's pattern; None: the panel never goes stale
    #: Panels posted before the game had a token keep parsing (and are then refused with a sentence).
    token_optional: ClassVar[bool] = False
    step: ClassVar[Callable[[dict[str, Any]], str]]  # a state's step token, when ``token`` is set
    fit: ClassVar[Callable[[str, int], str]] = staticmethod(lambda text, limit: text[:limit])
    gid: int
    tok: str | None

    @classmethod
    def _template(cls, prefix: str, last: str) -> str:
        tok = f":(?P<tok>{cls.token})" if cls.token else ""
        if tok and cls.token_optional:
            tok = f"(?:{tok})?"
        return f"{prefix}:(?P<gid>\\d+){tok}{last}"

    def _custom_id(self, last: object) -> str:
        fields = [self.prefix, self.gid, self.tok, last]
        return ":".join(str(f) for f in fields if f is not None)

    async def load(self, interaction: discord.Interaction) -> tuple[Table, int]:
        """The table and the clicker's seat, refusing a panel made for another step."""
        tables = interaction.client.tables
        table = await tables.load(self.gid)
        seat = tables.player_seat(table, interaction.user.id)
        if self.token and self.step(table.state) != self.tok:
            raise Refusal(STALE)
        return table, seat

    async def choose(self, interaction: discord.Interaction, value: str) -> Reply:
        raise NotImplementedError


class PanelButton(_PanelItem, discord.ui.DynamicItem[discord.ui.Button], template=NOTHING):
    """A button that carries one move's code: ``<prefix>:<table id>[:<step token>]:<code>``."""

    STYLES: ClassVar[dict[str, discord.ButtonStyle]] = {}  # by the move's type; others are secondary

    def __init_subclass__(cls, *, prefix: str, code: str = JSON, **kwargs) -> None:
        cls.prefix = prefix
        super().__init_subclass__(template=cls._template(prefix, f":(?P<code>{code})"), **kwargs)

    def __init__(self, gid: int, tok: str | None, move: dict[str, Any] | str, label: str = "-",
                 style: discord.ButtonStyle | None = None):
        self.gid, self.tok = gid, tok
        self.code = move if isinstance(move, str) else compact(move)  # a code is parsed only when played
        kind = move.get("type") if isinstance(move, dict) else None
        if style is None:
            style = self.STYLES.get(kind, discord.ButtonStyle.secondary)
        super().__init__(discord.ui.Button(label=self.fit(label, 80), style=style,
                                           custom_id=self._custom_id(self.code)))

    @classmethod
    def read(cls, match: re.Match, item):
        return cls(table_id(match["gid"]), match.groupdict().get("tok"), match["code"], item.label or "-")

    async def callback(self, interaction: discord.Interaction) -> None:
        await answer(interaction, lambda: self.choose(interaction, self.code))


class PanelMenu(_PanelItem, discord.ui.DynamicItem[discord.ui.Select], template=NOTHING):
    """A select menu: ``<prefix>:<table id>[:<step token>][:<slot>]``, the slot telling a panel's menus apart;
    options are (label, value, detail or None)."""

    def __init_subclass__(cls, *, prefix: str, slot: bool = True, **kwargs) -> None:
        cls.prefix = prefix
        super().__init_subclass__(template=cls._template(prefix, r":(?P<slot>\d)" if slot else ""), **kwargs)

    def __init__(self, gid: int, tok: str | None, slot: int | None,
                 options: list[tuple[str, str, str | None]] | None = None, placeholder: str = "-"):
        self.gid, self.tok = gid, tok
        opts = [discord.SelectOption(label=self.fit(label, 100), value=value,
                                     description=self.fit(detail, 100) if detail else None)
                for label, value, detail in options or [("-", "-", None)]]
        super().__init__(discord.ui.Select(custom_id=self._custom_id(slot), options=opts,
                                           placeholder=self.fit(placeholder, 150)))

    @classmethod
    def read(cls, match: re.Match, item):
        slot = match.groupdict().get("slot")
        return cls(table_id(match["gid"]), match.groupdict().get("tok"), None if slot is None else number(slot, 9))

    async def callback(self, interaction: discord.Interaction) -> None:
        await answer(interaction, lambda: self.choose(interaction, chosen(interaction)))
