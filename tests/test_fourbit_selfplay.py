"""`selfplay fourbit --games 50` ends every game for 2, 3 and 4 players."""
from __future__ import annotations

import pytest

from bot.selfplay import selfplay


@pytest.mark.parametrize("players", [2, 3, 4])
def test_fifty_random_games_all_end(players):
    results = selfplay("fourbit", players, seed=players, games=50)
    assert len(results) == 50
    for r in results:
        assert len(r["scores"]) == players and all(isinstance(x, int) and x >= 0 for x in r["scores"])
        assert r["actions"] > 3  # the setup draws at least
