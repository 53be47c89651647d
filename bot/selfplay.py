"""``python -m bot selfplay``: play whole games choosing uniformly among legal moves (or, as often as the
engine's ``selfplay_auto`` says, its ``auto_action``).

One seeded ``random.Random`` drives both the players' choices and the chance draws, so a
seed always gives the same games. A game that does not end within ``max_actions`` is a bug
in its engine (or in ``legal``) and is reported as one.
"""
from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import engines
from engines.base import CHANCE, Engine
from engines.log import run_chance


class NeverEnds(Exception):
    pass


def selfplay_move(engine: Engine, state: dict[str, Any], seat: int, rng: random.Random,
                  moves: list[dict[str, Any]] | None = None, unplayed: frozenset[str] = frozenset()
                  ) -> dict[str, Any]:
    """The move selfplay makes for a seat: a uniform legal one, or the engine's idle-player default as often as
    the engine asks (``selfplay_auto``); never a move whose type is in ``unplayed`` while another is legal."""
    moves = engine.legal(state, seat) if moves is None else moves
    move = rng.choice([m for m in moves if m.get("type") not in unplayed] or moves)
    if engine.selfplay_auto and rng.random() < engine.selfplay_auto:
        auto = engine.auto_action(state, seat)
        move = auto if auto and auto.get("type") not in unplayed else move
    return move


def site_unplayed(name: str) -> frozenset[str]:
    """The move types of an 18xx title that 18xx.games cannot play (its rules' SITE_UNPLAYED): a game to be exported
    to the site avoids them. Nothing for other games."""
    from engines.e18xx.game import TITLES
    from engines.e18xx.rules import rules_for
    return rules_for(name).SITE_UNPLAYED if name in TITLES else frozenset()


def play_one(name: str, players: int, rng: random.Random, options: dict[str, Any] | None = None,
             max_actions: int = 100_000, hook: Callable[[dict], dict] | None = None,
             unplayed: frozenset[str] = frozenset()) -> dict[str, Any]:
    """One whole game; ``hook`` may change the state before each move (a balance experiment does); moves whose type
    is in ``unplayed`` are chosen only when nothing else is legal (site_unplayed: a game for 18xx.games)."""
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
        move = selfplay_move(engine, state, seat, rng, moves, unplayed)
        state = engine.apply(state, seat, move)
        log.append({"seat": seat, "action": move})
        actions += 1


def selfplay(name: str, players: int, seed: int, games: int = 1, export_dir: str | None = None,
             options: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """``games`` games from one seeded generator; with ``export_dir`` (an 18xx title) each is also written there in
    18xx.games's export format, its ``result`` our final scores, for the site's engine to check
    (``ref18xx replay DIR/*.json`` says ``matches_recorded`` for each)."""
    from engines.e18xx.export import NotExportable, export_game
    from engines.e18xx.game import TITLES

    if export_dir is not None and name not in TITLES:
        raise NotExportable(f"Only an 18xx title is exported for 18xx.games ({', '.join(TITLES)}), not {name}.")
    rng = random.Random(seed)
    results = []
    unplayed = site_unplayed(name) if export_dir is not None else frozenset()
    for i in range(games):
        r = play_one(name, players, rng, options, unplayed=unplayed)
        line = {"game": i + 1, "seed": seed, "players": players, "scores": r["scores"], "actions": r["actions"]}
        if options:
            line["options"] = dict(options)
        if export_dir is not None:
            doc = export_game(name, {}, [f"Player {s + 1}" for s in range(players)],
                              [(e["seat"], e["action"]) for e in r["log"]], game_id=seed * 1000 + i + 1,
                              description=f"selfplay {name}, {players} players, seed {seed}, game {i + 1}")
            path = Path(export_dir) / f"{name}-seed{seed}-game{i + 1}.json"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(doc), encoding="utf-8")
            line["export"] = str(path)
        results.append(line)
    return results
