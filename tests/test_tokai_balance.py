"""Ruling 34 (docs/rules/tokai.md): the price of the two JR main lines keeps their owners from winning more than
twice their fair share. The balance benchmark's experiment is checked here: a given card changes owner, is paid for
out of the new owner's earnings, and a game gives each of its cards a share of a win. The full measurement (hundreds
of games, minutes on two cores) is `python bench/tokai_balance.py`, and the slow-marked test below."""
from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path

import pytest

import engines
from bot.selfplay import play_one
from engines.tokai.engine import price

BENCH = Path(__file__).resolve().parents[1] / "bench" / "tokai_balance.py"


def bench():
    spec = importlib.util.spec_from_file_location("tokai_balance", BENCH)
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("tokai_balance", module)
    spec.loader.exec_module(module)
    return module


def test_the_main_lines_cost_what_the_ruling_says():
    assert (price("shinkansen"), price("jr_tokaido")) == (150_000, 110_000)
    assert engines.get("tokai").data_version == 2  # tables priced the old way are not loaded as if they were new


def test_the_experiment_gives_cards_at_the_start_of_play_and_collects_their_price():
    b = bench()
    rng = random.Random(4)
    hook, given, owed = b.gift_hook(rng, 4, 6)
    states = []

    owed_after_gift = []

    def watch(state):
        before = {"owners": dict(state["owners"]), "cash": [p["cash"] for p in state["players"]]}
        state = hook(state)
        if given and not owed_after_gift:
            owed_after_gift.extend(owed)
        states.append((before, state))
        return state

    play_one("tokai", 4, random.Random(4), hook=watch)
    gifts = [(b4, st) for b4, st in states if b4["owners"] != st["owners"]]
    assert len(gifts) == 1 and gifts[0][1]["phase"] == "play", "given once, when play starts"
    b4, st = gifts[0]
    assert len(given) == 6 and all(st["owners"][card] == seat for card, seat in given)
    # the cash that changed hands then: refunds to the old owners, less what the new owners paid at once
    refunds = sum(price(c) for c, s in given if b4["owners"][c] not in (None, s))
    paid_at_once = sum(price(c) for c, _ in given) - sum(owed_after_gift)
    assert sum(p["cash"] for p in st["players"]) - sum(b4["cash"]) == refunds - paid_at_once
    assert all(debt >= 0 for debt in owed)
    assert sum(owed) < sum(owed_after_gift), "the earnings paid some back"


@pytest.mark.slow
def test_no_card_wins_for_its_owner_more_than_twice_the_fair_share():
    stats = bench().balance(games=300, players=4, cards=12, workers=2)
    worst = max(rate for n, rate in stats.values() if n >= 20) * 4
    assert worst <= 2.0, sorted(stats.items(), key=lambda kv: -kv[1][1])[:3]
