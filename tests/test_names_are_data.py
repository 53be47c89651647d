"""A display name is data: a player called "[1]" is never read as the narration's placeholder for a seat."""
from __future__ import annotations

import pytest

from bot.present import fill
from cogs import boss, tokai
from cogs.e18xx import words as e18xx

EVENT = {"text": "[0] pays 5,000 yen to [1].", "seats": [0, 1]}


@pytest.mark.parametrize("event_line", [tokai.event_line, boss.event_line, e18xx.event_line])
def test_every_games_narration_names_the_right_players(event_line):
    assert event_line(EVENT, ["[1]", "ben"]) == "[1] pays 5,000 yen to ben."
    assert event_line(EVENT, ["ann", "[0]"]) == "ann pays 5,000 yen to [0]."


def test_a_placeholder_beyond_the_events_seats_is_left_as_written():
    assert fill({"text": "[0] and [3]", "seats": [2]}, lambda s: f"seat {s}") == "seat 2 and [3]"
