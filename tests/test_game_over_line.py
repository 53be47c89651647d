"""The table message's "Game over" line ranks by each game's own tie-break, and says when players share a place."""
from __future__ import annotations

import cogs.fourbit  # noqa: F401 - registers the 4bit Town presenter
import engines
from bot.table_ui import table_message
from bot.tables import Table
from storage.base import GameRow, SeatRow
from tests.test_fourbit_rules import _final


def over_table(engine_name: str, state: dict, names: list[str]) -> Table:
    seats = [SeatRow(position=i, seat=i, user_id=100 + i, name=n) for i, n in enumerate(names)]
    game = GameRow(id=7, guild_id=1, channel_id=2, engine=engine_name, data_version=1, options={}, status="over",
                   creator_id=100, max_players=4, random_seats=False, reminder_hours=0, autopass_hours=0,
                   message_id=None, last_ping_key=None, pending={}, created_at=0, updated_at=0, seats=seats)
    return Table(game, engines.get(engine_name), state, 50)


def game_over_line(table: Table) -> str:
    embed, view = table_message(table)
    assert view is None, "a finished table has no buttons"
    return next(line for line in embed.description.splitlines() if line.startswith("**Game over.**"))


def test_4bit_town_breaks_an_equal_score_by_hired_workers():
    # 6 + 6 = 12 against 3 + 9 = 12, coins equal: seat 1 has more hired workers and wins
    s = _final(2, p0={"vp": 6, "coins": 4, "hired": 2, "unhired": 5, "level": 3}, p1={"vp": 3, "coins": 4, "hired": 3})
    assert game_over_line(over_table("fourbit", s, ["ann", "ben"])) == "**Game over.** 1. ben 12 · 2. ann 12"


def test_a_game_without_a_tie_break_shows_a_shared_place():
    e = engines.get("dicehand")
    s = dict(e.setup({}, 3), phase="over", scores=[4, 7, 4])
    assert e.scores(s) == [4, 7, 4], "the state reads as over with these scores"
    line = game_over_line(over_table("dicehand", s, ["ann", "ben", "cat"]))
    assert line == "**Game over.** 1. ben 7 · 2. ann 4, cat 4 (tied)"
