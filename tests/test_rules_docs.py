"""Every game has rules help that fits Discord: a file, an overview, a Rulings topic, and no
piece over one message; topics stay within autocomplete's 25 choices."""
from __future__ import annotations

import pytest

import engines
from cogs.rules import LIMIT, chunks, find_topic, topics


@pytest.mark.parametrize("game", sorted(engines.ENGINES))
def test_rules_help_exists_and_fits(game):
    found = topics(game)
    assert found[0].title == "Overview" and len(found) <= 25
    assert any(t.title == "Rulings" for t in found), "rulings on unclear rules are written down"
    for t in found:
        assert all(len(piece) <= LIMIT for piece in chunks(t.body)), t.title
    assert find_topic(game, "rulings").title == "Rulings"
