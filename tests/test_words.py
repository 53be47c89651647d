"""Plain English in player text: one plural helper, chance in words, no internal names."""
from __future__ import annotations

import engines
from engines.words import chance_label, plural


def test_plural():
    assert plural(1, "worker") == "1 worker" and plural(2, "worker") == "2 workers"
    assert plural(0, "deal") == "0 deals" and plural(1, "die", "dice") == "1 die"
    assert plural(3, "die", "dice") == "3 dice"


def test_chance_reads_as_words_in_every_game():
    assert str(chance_label({"type": "dice", "values": [5]})) == "a roll of 5"
    assert str(chance_label({"type": "dice", "values": [1, 2, 3]})) == "a roll of 1, 2 and 3"
    assert str(chance_label({"type": "shuffle", "order": [1, 0]})) == "a shuffle"
    assert chance_label({"type": "bet", "amount": 1}) is None
    for name in engines.ENGINES:
        label = str(engines.get(name).label({"type": "dice", "values": [5]}))  # a message: its English
        assert "type" not in label and "[" not in label and "values" not in label, (name, label)


def test_counted_labels_agree_in_number():
    assert str(engines.get("fourbit").label({"type": "upkeep", "keep": 1})) == "Keep 1 worker"
    assert str(engines.get("fourbit").label({"type": "upkeep", "keep": 2})) == "Keep 2 workers"
