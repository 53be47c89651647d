"""How a game's state reads in Discord. Each game cog registers a Presenter; games without
one get the generic presenter, which lists the public and private views as plain lines."""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from bot.i18n import say, tr
from bot.tables import Change, Table
from engines.text import Msg, from_json

PLACEHOLDER = re.compile(r"\[(\d+)\]")


def fill(event: dict[str, Any], who: Callable[[Any], str], lang: str = "en") -> str:
    """An engine event in `lang` (its text is a message template, its values stored with engines.text.to_json),
    with [0], [1] … replaced by who(its seats), in one pass after the rest: a name is data, so a player called
    "[1]" is never read as a placeholder."""
    seats = event["seats"]
    text = say(Msg(event["text"], from_json(event.get("values") or {})), lang)
    return PLACEHOLDER.sub(lambda m: who(seats[int(m[1])]) if int(m[1]) < len(seats) else m[0], text)


def _lines(d: dict[str, Any], lang: str = "en") -> list[str]:
    """A view as lines, for a game without a presenter of its own (every game has one: tests/test_i18n_static.py):
    its keys as they are written, its values (messages, names, money) said in `lang`."""
    return [f"**{k.replace('_', ' ')}**: {say(v, lang)}" for k, v in d.items() if v is not None]


class Presenter:
    """Every method is given the language to write in: the table's for what the channel reads (public_lines,
    announce), the player's for what they alone read (private_lines, move_label, move_view)."""

    def public_lines(self, table: Table, lang: str = "en") -> list[str]:
        return _lines(table.engine.public(table.state), lang)

    def private_lines(self, table: Table, seat: int, lang: str = "en") -> list[str]:
        return _lines(table.private(seat), lang) or [tr(lang, "You hold nothing secret right now.")]

    def move_label(self, table: Table, action: dict[str, Any], lang: str = "en") -> str:
        return say(table.engine.label(action), lang)

    def announce(self, change: Change, lang: str = "en") -> list[tuple[str, bytes | None]]:
        """Public lines to post in the channel for a committed change, each with an optional
        PNG picture (a reveal, a round end). Never anything secret."""
        return []

    def move_view(self, table: Table, seat: int, lang: str = "en"):
        """A game's own panel for this seat's moves (a discord.ui.View), or None for the
        shared one: a button per legal move, or menus when there are many."""
        return None


_PRESENTERS: dict[str, Presenter] = {}
_GENERIC = Presenter()


def register(engine_name: str, presenter: Presenter) -> None:
    _PRESENTERS[engine_name] = presenter


def presenter_for(engine_name: str) -> Presenter:
    return _PRESENTERS.get(engine_name, _GENERIC)
