"""Selfplay of Tokai Baron: ``bot.selfplay`` ends every game for 2 to 6 players, its log replays to a finished game,
and ``python -m bot selfplay tokai`` prints the same results as the library call."""
from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

import engines
from bot.selfplay import play_one, selfplay
from engines.log import replay
from engines.tokai import network as nw

ROOT = Path(__file__).resolve().parent.parent
E = engines.get("tokai")
FACE = {c["id"]: c["price"] for c in nw.load_route_cards()["cards"]}


def check_results(results: list[dict], n: int, seed: int, games: int) -> None:
    assert [r["game"] for r in results] == list(range(1, games + 1))
    for r in results:
        assert r["players"] == n and r["seed"] == seed
        assert len(r["scores"]) == n and all(isinstance(v, int) and v >= 0 for v in r["scores"])
        assert all(v % 1000 == 0 for v in r["scores"])  # yen in banknotes of 1,000 and up
        assert isinstance(r["actions"], int) and r["actions"] > 4 * n  # at least the setup's chance and pre-buying


@pytest.mark.parametrize("n, games", [(2, 3), (3, 2), (4, 1), (5, 1), (6, 1)])
def test_selfplay_ends_every_game(n, games):
    seed = 100 + n
    check_results(selfplay("tokai", n, seed, games), n, seed, games)


def test_selfplay_log_replays_to_the_finished_game():
    for seed in (1, 2):
        r = play_one("tokai", 2, random.Random(seed))
        entries = [(i, a["seat"], a["action"]) for i, a in enumerate(r["log"], 1)]
        s = replay(E, E.setup({}, 2), entries)
        assert E.is_over(s) and E.scores(s) == r["scores"] and len(entries) == r["actions"]
        left = [p for p in s["players"] if not p["out"]]
        assert len(left) == 1 or all(o is not None for o in s["owners"].values())  # the two ways a game ends
        for seat, p in enumerate(s["players"]):
            assert r["scores"][seat] == (0 if p["out"] else p["cash"] + sum(FACE[c] for c in p["cards"]))


def test_selfplay_is_reproducible_by_seed():
    assert selfplay("tokai", 2, 9, 2) == selfplay("tokai", 2, 9, 2)


def test_selfplay_command_line():
    out = subprocess.run([sys.executable, "-m", "bot", "selfplay", "tokai", "--players", "2", "--seed", "5",
                          "--games", "2"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    lines = [json.loads(x) for x in out.stdout.splitlines() if x.strip()]
    check_results(lines, 2, 5, 2)
    assert lines == selfplay("tokai", 2, 5, 2)


def test_selfplay_command_line_refuses_seven_players():
    out = subprocess.run([sys.executable, "-m", "bot", "selfplay", "tokai", "--players", "7", "--seed", "1"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 1 and out.stdout == ""
    assert out.stderr.strip() == "error: Tokai Baron (東海男爵) takes 2 to 6 players."
