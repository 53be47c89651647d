"""Whom a move's private changes are sent to: the runtime's shortcut (the public part computed once, nothing for
a game without secrets) names exactly the seats the plain definition names, in every game; and every awaited seat
may act (Engine.apply asks can_act only of the others)."""
from __future__ import annotations

import random

import pytest

import engines
from bot.tables import Table, private_diff
from engines.log import run_chance
from storage.base import GameRow, SeatRow

PLAYERS = {"dicehand": 3, "fourbit": 3, "boss": 4, "tokai": 3, "1889": 3}


def plain_private(engine, state, seat):
    pub = engine.public(state)
    return {k: v for k, v in engine.view(state, seat).items() if pub.get(k, object()) != v}


@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_private_diff_names_the_seats_whose_view_changed(name):
    engine, n, rng = engines.get(name), PLAYERS[name], random.Random(7)
    game = GameRow(1, 1, 1, name, engine.data_version, {}, "active", 1, n, False, 0, 0, None, None, {}, 0, 0,
                   seats=[SeatRow(i, i, 100 + i, f"p{i}") for i in range(n)])
    state, _ = run_chance(engine, engine.setup({}, n), rng)
    table = Table(game, engine, state, 0)
    changed = 0
    for _ in range(150):
        if engine.is_over(state):
            break
        seat = rng.choice(sorted(engine.awaiting(state).seats))
        assert all(engine.can_act(state, s) for s in engine.awaiting(state).seats)  # apply relies on it
        after, _ = run_chance(engine, engine.apply(state, seat, rng.choice(engine.legal(state, seat))), rng)
        want = [s for s in range(n) if plain_private(engine, state, s) != plain_private(engine, after, s)]
        assert private_diff(table, state, after) == want
        changed += bool(want)
        state = after
    if not engine.has_secrets:  # a game that says it has none really has none
        assert changed == 0
    else:
        assert changed > 0
