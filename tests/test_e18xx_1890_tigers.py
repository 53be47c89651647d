"""1890's optional rule "Hanshin Tigers" (rules, scenarios.tex §"Variants: Hanshin Tigers"; docs/rules/1890.md
ruling 27): once Nishinomiya is brown, each operating turn in which Hanshin runs there a die sets Nishinomiya's value
(1: 100, 2: 60, 3: 50, 4-6: 40) instead of the fixed Tigers bonus (+10 revenue, +10 treasury). The die is the
engine's chance seat: the game awaits a ChanceRequest("dice", 1, 6) between the run and the dividend."""
from __future__ import annotations

import copy
import random
from functools import cache

import pytest

from engines.base import CHANCE, RuleError
from engines.e18xx.g1890.abilities import NISHINOMIYA, TIGERS_DIE
from engines.e18xx.game import Kansai1890
from engines.text import Msg
from tests.test_e18xx_1890_full import keen_move, keen_variant_game

E = Kansai1890()


@cache
def before_the_roll() -> dict:
    """A keen four-player full game with the variant, up to the first roll the game awaits (the first of a few
    seeds whose game gets there: the order of the legal moves keen_move picks from follows the hash seed)."""
    for seed in range(1, 30):
        rng = random.Random(seed)
        s = E.setup({"scenario": "full", "tigers_die": True}, 4)
        for _ in range(4000):
            if s["over"]:
                break
            aw = E.awaiting(s)
            if aw.chance is not None:
                return s
            seat = min(aw.seats)
            s = E.apply(s, seat, keen_move(s, seat, rng))
    raise AssertionError("Hanshin never ran to a brown Nishinomiya")


def test_the_game_awaits_the_die_after_hanshin_runs_to_a_brown_nishinomiya():
    s = before_the_roll()
    r = s["round"]
    assert r["kind"] == "operating" and r["tigers"] == {"corp": "Hanshin", "value": 40}
    assert s["board"] and E.awaiting(s).seats == frozenset()
    request = E.awaiting(s).chance
    assert (request.kind, request.count, request.sides) == ("dice", 1, 6)
    assert isinstance(request.reason, Msg) and "Hanshin Tigers" in request.reason.template
    assert all(E.legal(s, seat) == [] for seat in range(4))
    president = int(s["corps"]["Hanshin"]["president"])
    with pytest.raises(RuleError):  # not his turn: the die is
        E.apply(s, president, {"type": "dividend", "kind": "payout"})
    assert any(NISHINOMIYA in run["hexes"] for run in r["runs"])
    assert not any("the Hanshin Tigers add" in e["text"] for e in s["events"][-5:])  # no fixed bonus


@pytest.mark.parametrize("roll", [1, 2, 3, 4, 5, 6])
def test_the_die_sets_nishinomiyas_value_in_each_run_there(roll):
    s = before_the_roll()
    r = s["round"]
    through = sum(1 for run in r["runs"] if NISHINOMIYA in run["hexes"] and run["revenue"])
    cash = s["corps"]["Hanshin"]["cash"]
    after = E.apply(s, CHANCE, {"type": "dice", "values": [roll]})
    assert after["round"]["revenue"] == r["revenue"] + through * (TIGERS_DIE[roll] - 40)
    assert sum(run["revenue"] for run in after["round"]["runs"]) == after["round"]["revenue"]
    assert after["corps"]["Hanshin"]["cash"] == cash  # no treasury bonus with the variant
    assert after["round"]["tigers"] is None and E.awaiting(after).chance is None
    assert E.awaiting(after).seats == {int(s["corps"]["Hanshin"]["president"])}
    assert after["round"]["step"] == "dividend"
    e = after["events"][-1]
    assert e["text"].startswith("The Hanshin Tigers' die shows {roll}") and e["values"]["roll"] == roll
    assert TIGERS_DIE == {1: 100, 2: 60, 3: 50, 4: 40, 5: 40, 6: 40}


def test_a_die_is_one_six_sided_die():
    s = before_the_roll()
    for bad in ({"type": "dice", "values": [7]}, {"type": "dice", "values": [1, 2]}, {"type": "shuffle"}):
        with pytest.raises(RuleError):
            E.apply(s, CHANCE, bad)


def test_without_the_variant_the_fixed_bonus_stays():
    s = copy.deepcopy(before_the_roll())
    s["opts"].pop("tigers_die")
    s["round"]["tigers"] = None
    assert E.awaiting(s).chance is None


def test_a_whole_game_with_the_variant_ends_and_replays_equal():
    """Selfplay with the variant: the die is rolled (in the first of a few seeds' games where it is), every game
    ends with money conserved, and the replay of the log equals the game."""
    keen_variant_game({"scenario": "full", "tigers_die": True}, lambda s: E.awaiting(s).chance is not None,
                      seeds=range(1, 30), moves=4000)
