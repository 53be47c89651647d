"""Issue 16 at runtime, for every game alike: a seeded random game at a Japanese table, read at every few steps
through the shared table code (bot/table_ui.py) as a Japanese player reads it: the table message (title,
description, fields, footer, buttons), each awaited player's hand and panel (buttons, menus, their options), every
legal move's label, the announcements, the channel notices; and what the game waits for (a prompt, a chance
draw's reason) is a message, never a plain string, said in Japanese. No run of English words may be left (player
names and the commands a player types aside). The per-game tests (tests/test_*_ja*.py) read more of each game;
this one holds every game, a new one included, to the same floor."""
from __future__ import annotations

import asyncio
import importlib
import random

import pytest

import engines
from bot import table_ui
from bot.i18n import say
from bot.present import presenter_for
from bot.tables import Change, Table
from engines.base import CHANCE
from engines.chance import draw
from engines.text import Msg, Name, Plural
from storage.base import GameRow, SeatRow
from tests.i18n_helpers import english_left
from tests.test_i18n_static import COGS, _Bot

PLAYERS = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus"]
#: What a player types, written as it is in every language (the table message's footer names them).
TYPED = ["/game status table", "/rules "]
NOTICES = ("reminder", "window", "over", "refused", "undone", "replaced", "abandoned", "dms_closed", "dm_failed",
           "ping", "autopass")
#: (game, players, steps) played; 18xx steps cost more.
GAMES = [("dicehand", 3, 80), ("fourbit", 3, 80), ("boss", 4, 150), ("tokai", 3, 120), ("1889", 3, 120),
         ("1867", 4, 120),
         ("1890", 4, 700),  # a whole game (random.Random(5) ends it in 585 steps)
         ("1807", 4, 120)]


@pytest.fixture(scope="module", autouse=True)
def presenters():
    for name in COGS:
        module = importlib.import_module(name)
        if hasattr(module, "setup"):
            asyncio.run(module.setup(_Bot()))


def texts_of(view) -> list[str]:
    out = []
    for item in getattr(view, "children", []):
        inner = getattr(item, "item", item)
        out += [getattr(inner, a) for a in ("label", "placeholder") if getattr(inner, a, None)]
        for o in getattr(inner, "options", []):
            out += [o.label] + ([o.description] if o.description else [])
    return out


def embed_texts(embed) -> list[str]:
    return [embed.title or "", embed.description or "", *(f"{f.name} {f.value}" for f in embed.fields),
            embed.footer.text or "" if embed.footer else ""]


def table_of(name: str, n: int, state, seq: int) -> Table:
    engine = engines.get(name)
    game = GameRow(id=7, guild_id=1, channel_id=2, engine=name, data_version=engine.data_version, options={},
                   status="active", creator_id=100, max_players=n, random_seats=False, reminder_hours=0,
                   autopass_hours=0, message_id=None, last_ping_key=None, pending={}, created_at=0.0,
                   updated_at=0.0, lang="ja",
                   seats=[SeatRow(position=i, seat=i, user_id=100 + i, name=PLAYERS[i]) for i in range(n)])
    return Table(game, engine, state, seq)


def said_as_a_message(value) -> bool:
    return isinstance(value, (Msg, Name, Plural))


@pytest.mark.parametrize("name,n,steps", GAMES)
def test_a_random_game_reads_in_japanese_through_the_shared_table_code(name, n, steps):
    engine, rnd, presenter = engines.get(name), random.Random(5), presenter_for(name)
    state = engine.setup({}, n)
    english: dict[str, str] = {}

    def check(where: str, text: str) -> None:
        for run in english_left(text, PLAYERS + TYPED):
            english.setdefault(f"{where}: {run!r}", text[:160])

    read = 0
    for seq in range(1, steps):
        if engine.is_over(state):
            break
        aw = engine.awaiting(state)
        if aw.chance is not None:
            seat, action = CHANCE, draw(aw.chance, rnd)
        else:
            seats = [s for s in sorted(aw.seats) if engine.legal(state, s)]
            if not seats:
                break
            seat = rnd.choice(seats)
            action = rnd.choice(engine.legal(state, seat))
        before, state = state, engine.apply(state, seat, action)
        if seq % 3:
            continue
        read += 1
        table = table_of(name, n, state, seq)
        for text, _ in presenter.announce(Change("action", table, entries=[(seq, seat, action)], before=before),
                                          "ja"):
            check("announce", text)
        embed, view = table_ui.table_message(table, "ja")
        for text in embed_texts(embed) + texts_of(view):
            check("table message", text)
        if engine.is_over(state):
            break
        aw = engine.awaiting(state)
        if aw.prompt:
            assert said_as_a_message(aw.prompt), f"{name}: a plain-string prompt {aw.prompt!r}"
            check("prompt", say(aw.prompt, "ja"))
        if aw.chance is not None and aw.chance.reason:
            assert said_as_a_message(aw.chance.reason), f"{name}: a plain-string reason {aw.chance.reason!r}"
            check("chance reason", say(aw.chance.reason, "ja"))
        for s in sorted(aw.seats)[:2]:
            reply = table_ui.hand_reply(table, s, "ja")
            for text in [reply["content"], *texts_of(reply.get("view"))]:
                check("hand", text)
            for move in engine.legal(state, s)[:30]:
                check("move label", presenter.move_label(table, move, "ja"))
        for kind in NOTICES:
            text = table_ui.notice_text(table, {"kind": kind, "users": [100], "about": "undo", "labels": [],
                                                "name": "Zed"}, "ja")
            if text:
                check("notice", text)
    assert read >= 5, f"{name}: only {read} steps read"
    assert english == {}
