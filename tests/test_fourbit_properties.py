"""Hypothesis: random legal games of 4bit Town (2-4 players) end in time, keep every
resource in range, replay exactly, and never show a seat's secret stack, pass or draft pick
to the public or to another seat before the reveal."""
from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from engines.base import CHANCE
from engines.chance import draw
from engines.fourbit import FourBit
from engines.fourbit.data import CAP, MAX_LEVEL, ROUNDS, WORKERS
from engines.log import replay

E = FourBit()
LARGE_OK = [HealthCheck.too_slow, HealthCheck.large_base_example, HealthCheck.data_too_large]
GAMES = settings(max_examples=40, deadline=None, suppress_health_check=LARGE_OK)
# Locations a little more likely than others, so that random games earn coins and build.
FAVOURED = [4, 4, 4, 8, 8, 9, 7, 6, 0, 1, 2, 3, 5, 10, 11, 12, 13, 14, 15, 15]


def bound(n: int) -> int:
    """An upper bound on the number of actions in a game: setup and draft, then per round and
    seat at most 7 workers (plus a pass), each with a choice and at most 7 decisions, and the
    round end."""
    return 3 + 3 * n + ROUNDS * n * (WORKERS + 1) * (1 + 7) + ROUNDS * 2 * n


def check_invariants(s: dict) -> None:
    for p in s["players"]:
        for k in ("wood", "stone", "coins"):
            assert 0 <= p[k] <= CAP, (k, p[k])
            assert p[k] % 2 == 0, (k, p[k])  # every amount moves in steps of 2
        assert p["vp"] >= 0
        assert p["hired"] + p["unhired"] == WORKERS
        assert 0 <= p["hired"] <= p["level"] <= MAX_LEVEL
        assert 0 <= p["sent"] <= p["hired"]
    assert 0 <= s["round"] <= ROUNDS
    assert json.loads(json.dumps(s)) == s  # the state stays plain JSON (no tuples, no int keys)
    for v in [E.public(s)] + [E.view(s, i) for i in range(s["n"])]:
        assert json.loads(json.dumps(v)) == v


def choose(s: dict, seat: int, rnd: random.Random) -> dict:
    legal = E.legal(s, seat)
    assert legal, f"seat {seat} is awaited but has no legal action in phase {s['phase']}"
    ph = s["phase"]
    if ph == "work":
        if rnd.random() < 0.1:
            return legal[0]
        n = rnd.choice(FAVOURED)
        return rnd.choice([a for a in legal[1:] if a["n"] == n])
    if ph == "upkeep":
        return legal[0] if rnd.random() < 0.85 else rnd.choice(legal)
    if ph == "resolve":  # mostly act: use cards and take locations
        doing = [a for a in legal if a["type"] not in ("skip", "decline")]
        return rnd.choice(doing) if doing and rnd.random() < 0.85 else rnd.choice(legal)
    return rnd.choice(legal)


def secret_views(s: dict) -> list:
    """What the public and every seat sees: the parts that must not depend on another seat's
    secret choice."""
    return [E.public(s)] + [E.view(s, i) for i in range(s["n"])]


def check_secrecy(s: dict, seat: int, action: dict, rnd: random.Random) -> None:
    """Before a reveal, the seat's choice changes nothing that the public or another seat sees:
    compare with the same moment after a different choice (and with the moment before)."""
    ph = s["phase"]
    if ph == "draft":
        hand = s["draft"]["hands"][seat]
        alt = {"type": "pick", "card": rnd.choice(hand)}
    else:
        legal = E.legal(s, seat)
        alt = legal[0] if action["type"] != "pass" else rnd.choice(legal[1:])
    if E.awaiting(s).seats <= {seat}:
        return  # the last choice of the step: everything is revealed now
    a = E.apply(s, seat, action)
    b = E.apply(s, seat, alt)
    assert E.public(a) == E.public(b) == E.public(s)
    for other in range(s["n"]):
        if other != seat:
            assert E.view(a, other) == E.view(b, other) == E.view(s, other)
    # no choice of anyone's is in what another seat is shown besides its own private keys
    own = ("my_choice", "draft_pick", "draft_hand", "my_cards", "my_plans")
    shown = [E.public(a)] + [{k: v for k, v in E.view(a, o).items() if k not in own}
                             for o in range(s["n"]) if o != seat]
    for v in shown:
        text = json.dumps(v)
        assert '"stack"' not in text and '"pass"' not in text and '"pick"' not in text and "choice" not in text
    # the seat itself sees its own choice
    mine = E.view(a, seat)
    if ph == "draft":
        assert mine["draft_pick"] == action["card"]
    else:
        assert mine["my_choice"]["type"] == action["type"]


def play(rnd: random.Random, n: int, rich: dict | None = None, secrecy: bool = True):
    """A random legal game; ``rich`` edits every player's resources right after the draft (the
    replay then starts from that edited state). Returns (start, final state, log, actions)."""
    s = E.setup({}, n)
    start = s
    log = []
    count = 0
    edited = False
    while not E.is_over(s):
        assert count <= bound(n), "the game did not end in time"
        aw = E.awaiting(s)
        if aw.chance:
            a = draw(aw.chance, rnd)
            s = E.apply(s, CHANCE, a)
            log.append((len(log) + 1, CHANCE, a))
            continue
        if rich is not None and not edited and s["phase"] == "work":
            for p in s["players"]:
                p.update(rich)
            start, log, edited = s, [], True
        seat = rnd.choice(sorted(aw.seats))
        a = choose(s, seat, rnd)
        if secrecy and aw.secret:
            check_secrecy(s, seat, a, rnd)
        label = str(E.label(a))
        assert isinstance(label, str) and label and not label.startswith("type ")
        s = E.apply(s, seat, a)
        log.append((len(log) + 1, seat, a))
        count += 1
        check_invariants(s)
    assert s["round"] == ROUNDS and s["phase"] == "over"
    assert E.awaiting(s).seats == frozenset() and E.awaiting(s).chance is None
    return start, s, log, count


@GAMES
@given(st.integers(2, 4), st.randoms(use_true_random=False))
def test_random_games_end_keep_invariants_and_replay(n, rnd):
    start, s, log, count = play(rnd, n)
    assert count <= bound(n)
    assert replay(E, E.setup({}, n), log) == s
    scores = E.scores(s)
    assert len(scores) == n and all(x >= 0 for x in scores)
    ranked = [seat for place in E.ranking(s) for seat in place]
    assert sorted(ranked) == list(range(n))
    assert [scores[i] for i in ranked] == sorted(scores, reverse=True)


@GAMES
@given(st.integers(2, 4), st.randoms(use_true_random=False),
       st.fixed_dictionaries({"wood": st.sampled_from([20, 40, 68]), "stone": st.sampled_from([20, 40, 68]),
                              "coins": st.sampled_from([30, 50, 68]), "vp": st.integers(0, 5),
                              "level": st.integers(3, 7)}))
def test_rich_random_games_keep_invariants_and_replay(n, rnd, rich):
    # rich players build, hire, level up and hit the cap far more often
    start, s, log, _ = play(rnd, n, rich=rich, secrecy=False)
    assert replay(E, start, log) == s
    for line in s["final"]:
        assert line["total"] == line["vp"] + line["workers"] + line["track"] + line["buildings"]


@settings(max_examples=25, deadline=None, suppress_health_check=LARGE_OK)
@given(st.integers(2, 4), st.randoms(use_true_random=False), st.data())
def test_a_secret_choice_changes_nothing_others_see(n, rnd, data):
    """Two states that differ only in one seat's secret choice look the same to everyone else."""
    s = E.setup({}, n)
    while True:
        aw = E.awaiting(s)
        if aw.chance:
            s = E.apply(s, CHANCE, draw(aw.chance, rnd))
            continue
        if E.is_over(s):
            return
        if aw.secret and len(aw.seats) >= 2 and data.draw(st.booleans()):
            break
        seat = rnd.choice(sorted(aw.seats))
        s = E.apply(s, seat, choose(s, seat, rnd))
    seat = data.draw(st.sampled_from(sorted(aw.seats)))
    legal = E.legal(s, seat)
    x, y = data.draw(st.sampled_from(legal)), data.draw(st.sampled_from(legal))
    a, b = E.apply(s, seat, x), E.apply(s, seat, y)
    assert E.public(a) == E.public(b)
    for other in range(n):
        if other != seat:
            assert E.view(a, other) == E.view(b, other)
            assert E.legal(a, other) == E.legal(b, other)
    assert E.awaiting(a) == E.awaiting(b)


@settings(max_examples=25, deadline=None, suppress_health_check=LARGE_OK,
          phases=[Phase.explicit, Phase.reuse, Phase.generate])  # no shrinking: whole games
@given(st.integers(2, 4), st.randoms(use_true_random=False))
def test_the_last_secret_choice_of_a_step_is_a_reveal(n, rnd):
    """Undo may not cross a reveal: the action that completes a secret step (a draft pick
    round, a work step) must make ``reveals`` true, and the other secret choices must not.
    BUG: fails today whenever the draft passes hands or a step resolves by itself."""
    s = E.setup({}, n)
    while not E.is_over(s):
        aw = E.awaiting(s)
        if aw.chance:
            s = E.apply(s, CHANCE, draw(aw.chance, rnd))
            continue
        seat = rnd.choice(sorted(aw.seats))
        a = choose(s, seat, rnd)
        after = E.apply(s, seat, a)
        if aw.secret:
            last = aw.seats == {seat}
            assert E.reveals(s, seat, a, after) == last, (s["phase"], a, last)
        s = after
