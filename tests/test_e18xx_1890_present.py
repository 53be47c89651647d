"""The 18xx presenter on 1890 (every scenario), without Discord: 1890's own words (the initial stock round, the
minors, Kinki's formation) are used in a scenario ("1890/hanshin") as in the full game, every awaited seat is told
what to do in every state, and the pictures of its map, market and charters."""
from __future__ import annotations

import random
from functools import cache

from bot.tables import Table
from cogs.e18xx.presenter import E18xxPresenter, todo
from engines.e18xx.game import Kansai1890
from engines.e18xx.state import G
from tests.e18xx_helpers import NAMES, presenter_table
from tests.test_e18xx_1890_full import keen_move

E = Kansai1890()
P = E18xxPresenter()
NAMES = NAMES[:4]


def table(state) -> Table:
    return presenter_table(E, state)


@cache
def trace(scenario: str = "hanshin", seed: int = 5, steps: int = 3000) -> tuple:
    """(state, awaited seats) along a seeded game of four keen players."""
    rng = random.Random(seed)
    s, out = E.setup({"scenario": scenario}, 4), []
    for _ in range(steps):
        if E.scores(s) is not None:
            break
        seats = sorted(E.awaiting(s).seats)
        out.append((s, seats))
        seat = rng.choice(seats)
        s = E.apply(s, seat, keen_move(s, seat, rng))
    return tuple(out)


def test_a_scenario_reads_in_1890s_own_words():
    """A regression: the words were looked up by the scenario's id ("1890/hanshin"), found none, and the shared
    todo() raised KeyError 'special' in the initial stock round."""
    s = E.setup({"scenario": "hanshin"}, 4)
    assert s["title"] == "1890/hanshin"
    lines = P.public_lines(table(s))
    assert lines[0].startswith("**Initial stock round**")
    seat = min(E.awaiting(s).seats)
    assert "bid on a later company" in todo(G(s), seat, list(NAMES))


def test_every_awaited_seat_is_told_what_to_do_in_every_state():
    for scenario in ("hanshin", "full"):
        rounds = set()
        for s, seats in trace(scenario):
            t = table(s)
            assert all(isinstance(x, str) and x for x in P.public_lines(t))
            for seat in seats:
                assert todo(G(s), seat, list(NAMES)).startswith("**Your move"), (scenario, s["round"]["kind"])
                assert P.private_lines(t, seat)
            rounds.add(s["round"]["kind"])
        assert {"isr", "stock", "operating"} <= rounds
