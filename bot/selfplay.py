"""``python -m bot selfplay``: play whole games choosing uniformly among legal moves (or, as often as the
engine's ``selfplay_auto`` says, its ``auto_action``).

One seeded ``random.Random`` drives both the players' choices and the chance draws, so a
seed always gives the same games. A game that does not end within ``max_actions`` is a bug
in its engine (or in ``legal``) and is reported as one.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import engines
from engines.base import CHANCE, Engine
from engines.log import run_chance


class NeverEnds(Exception):
    pass


def selfplay_move(engine: Engine, state: dict[str, Any], seat: int, rng: random.Random,
                  moves: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The move selfplay makes for a seat: a uniform legal one, or the engine's idle-player default as often as
    the engine asks (``selfplay_auto``)."""
    move = rng.choice(engine.legal(state, seat) if moves is None else moves)
    if engine.selfplay_auto and rng.random() < engine.selfplay_auto:
        move = engine.auto_action(state, seat) or move
    return move


def play_one(name: str, players: int, rng: random.Random, options: dict[str, Any] | None = None,
             max_actions: int = 100_000, hook: Callable[[dict], dict] | None = None) -> dict[str, Any]:
    """One whole game; ``hook`` may change the state before each move (a balance experiment does)."""
    engine = engines.get(name)
    state = engine.setup(options or {}, players)
    actions = 0
    log: list[dict[str, Any]] = []
    while True:
        state, drawn = run_chance(engine, state, rng)
        if hook is not None:
            state = hook(state)
        actions += len(drawn)
        log += [{"seat": CHANCE, "action": a} for a in drawn]
        if engine.is_over(state):
            return {"game": name, "players": players, "scores": engine.scores(state), "actions": actions,
                    "log": log, "state": state}
        if actions >= max_actions:
            raise NeverEnds(f"{name} did not end after {max_actions} actions")
        seats = sorted(engine.awaiting(state).seats)
        if not seats:
            raise NeverEnds(f"{name} waits for nobody but is not over")
        seat = rng.choice(seats)
        moves = engine.legal(state, seat)
        if not moves:
            raise NeverEnds(f"{name}: seat {seat} is awaited but has no legal move")
        move = selfplay_move(engine, state, seat, rng, moves)
        state = engine.apply(state, seat, move)
        log.append({"seat": seat, "action": move})
        actions += 1


def selfplay(name: str, players: int, seed: int, games: int = 1) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    results = []
    for i in range(games):
        r = play_one(name, players, rng)
        results.append({"game": i + 1, "seed": seed, "players": players, "scores": r["scores"],
                        "actions": r["actions"]})
    return results
