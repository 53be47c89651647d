"""`python -m bot selfplay 1889` plays whole games of Shikoku 1889 to their end for 3, 4 and 5 players.

Uniform random play can stall in the private auction (bids raised with every yen the privates pay); the engine's
``selfplay_auto`` mixes in its auto-pass, which lets a player save up: the stalled state below must be left."""
from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from bot.selfplay import selfplay
from engines.base import Action
from engines.e18xx.game import Shikoku1889

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("players, seed", [(3, 2), (4, 8), (5, 7)])
def test_random_games_end_with_scores(players, seed):
    results = selfplay("1889", players, seed, games=3)
    assert [r["game"] for r in results] == [1, 2, 3]
    for r in results:
        assert len(r["scores"]) == players and all(type(x) is int for x in r["scores"]), r
        # at least the auction of six or seven privates, a stock round and an operating round
        assert r["actions"] > 50, r


def test_selfplay_1889_through_the_cli():
    r = subprocess.run([sys.executable, "-m", "bot", "selfplay", "1889", "--players", "5", "--seed", "6",
                        "--games", "1"], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    lines = [json.loads(line) for line in r.stdout.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0]["players"] == 5 and lines[0]["seed"] == 6
    assert len(lines[0]["scores"]) == 5 and lines[0]["actions"] > 50


# ---- the auction stall ----------------------------------------------------------------------------------------

def bid(company: str, price: int) -> Action:
    return {"type": "bid", "company": company, "price": price}


def stalled_auction() -> dict:
    """3 players. Seat 0 buys TR; then every player's cash goes into bids on dearer privates while MF, now the
    cheapest unsold, has no bid (and as the first private it can only be bought, not bid on). Each time everybody
    passes, TR pays seat 0 ¥5, which uniform play mostly spends on raising its own bids, so seat 0 rarely gets the
    ¥30 it needs for MF and the auction, the only way forward, goes on and on (the bank breaking meanwhile)."""
    engine = Shikoku1889()
    state = engine.setup({}, 3)
    passes = {"type": "pass"}
    for seat, action in [(0, bid("TR", 20)), (1, bid("SIR", 420)), (2, bid("DR", 420)), (0, bid("ER", 45)),
                         (1, passes), (2, passes), (0, bid("SMR", 355)), (1, passes), (2, passes), (0, passes),
                         (1, passes), (2, passes)]:
        state = engine.apply(state, seat, action)
    return state


def test_the_stalled_auction_is_what_the_rules_say():
    engine = Shikoku1889()
    state = stalled_auction()
    assert state["cash"] == [405, 420, 420] and state["round"]["kind"] == "auction"
    assert [str(engine.label(m)) for m in engine.legal(state, 0)] == ["Bid ¥50 for ER", "Bid ¥360 for SMR", "Pass"]


def play_from(state: dict, seed: int, limit: int) -> tuple[dict, int]:
    """What bot.selfplay does (uniform legal moves, the engine's auto_action as often as selfplay_auto says),
    from a given state, until the auction ends or `limit` actions."""
    engine, rng = Shikoku1889(), random.Random(seed)
    for n in range(limit):
        if state["round"]["kind"] != "auction":
            return state, n
        seat = rng.choice(sorted(engine.awaiting(state).seats))
        move = rng.choice(engine.legal(state, seat))
        if engine.selfplay_auto and rng.random() < engine.selfplay_auto:
            move = engine.auto_action(state, seat) or move
        state = engine.apply(state, seat, move)
    return state, limit


def test_selfplay_leaves_a_stalled_auction():
    for seed in (1, 2):
        state, n = play_from(stalled_auction(), seed, 5000)
        assert state["round"]["kind"] != "auction", f"seed {seed}: still in the auction after {n} actions"


# ---- games for 18xx.games: moves the site cannot play ------------------------------------------------------------

def test_selfplay_never_chooses_an_unplayed_move_while_another_is_legal():
    """selfplay_move with `unplayed`: a stock turn of 1889 where pars are legal never pars (the only other move is to
    pass); a turn whose every move is unplayed still gets one of them."""
    from bot.selfplay import selfplay_move
    engine, rng = Shikoku1889(), random.Random(5)
    state, _ = play_from(engine.setup({}, 3), 5, 5000)  # the private auction played out
    seat = next(iter(engine.awaiting(state).seats))
    kinds = {m["type"] for m in engine.legal(state, seat)}
    assert "par" in kinds
    chosen = {selfplay_move(engine, state, seat, rng, unplayed=frozenset({"par"}))["type"] for _ in range(200)}
    assert "par" not in chosen and chosen
    assert selfplay_move(engine, state, seat, rng, unplayed=frozenset(kinds))["type"] in kinds


def test_a_game_exported_for_the_site_leaves_out_the_titles_unplayed_moves(tmp_path, monkeypatch):
    """`python -m bot selfplay --export` (bot.selfplay.selfplay) plays for the site: a title's SITE_UNPLAYED (1807's
    systems) are never chosen. Here 1889 declared to have no par: no corporation ever starts."""
    from engines.e18xx.rules import rules_for

    def pars(directory: Path) -> int:
        (line,) = selfplay("1889", 3, 5, export_dir=str(directory))
        doc = json.loads(Path(line["export"]).read_text(encoding="utf-8"))
        return sum(a["type"] == "par" for a in doc["actions"])

    assert pars(tmp_path / "as_is") > 0
    monkeypatch.setattr(rules_for("1889"), "SITE_UNPLAYED", frozenset({"par"}))
    assert pars(tmp_path / "no_par") == 0


# ---- what operating.settle relies on ---------------------------------------------------------------------------

@pytest.mark.parametrize("title, players, seed", [("1889", 4, 1), ("1867", 4, 2), ("1890", 4, 3), ("1807", 4, 4)])
def test_the_operating_rounds_automatic_steps_never_crowd_a_corporation(monkeypatch, title, players, seed):
    """operating.settle asks `trains.crowded` once, before the steps it does without a move (dividends of nothing,
    loans, skipped steps): none of them may give a corporation a train or lower a train limit. A whole game of each
    title checks it at every settle."""
    from engines.e18xx import operating, trains
    real, calls = operating.settle, []

    def checked(g):
        before = trains.crowded(g)
        real(g)
        calls.append(1)
        assert before or not trains.crowded(g), (g.round, trains.crowded(g))

    monkeypatch.setattr(operating, "settle", checked)
    selfplay(title, players, seed, games=1)
    assert len(calls) > 20  # operating rounds were played
