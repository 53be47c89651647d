"""A game as options, seats and an action log: replaying it, and the export format.

The export is the JSON file ``/game export`` attaches and ``python -m bot replay`` reads:
``{"format": "boardbot-log", "game": name, "data_version": n, "options": {...},
"seats": n, "players": [names], "actions": [{"seq": 1, "seat": s, "action": {...}}, ...]}``.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from engines.base import CHANCE, Action, Engine, RuleError, State
from engines.chance import RandomSource, draw

FORMAT = "boardbot-log"


@dataclass
class IllegalAction(Exception):
    position: int  # 1-based sequence number
    seat: int
    action: Action
    sentence: str

    def __str__(self) -> str:
        return f"action {self.position} (seat {self.seat}) {self.action}: {self.sentence}"


def replay(engine: Engine, state: State, entries: Iterable[tuple[int, int, Action]]) -> State:
    """Apply ``(seq, seat, action)`` entries to ``state``; raise IllegalAction at the first bad one."""
    for seq, seat, action in entries:
        try:
            state = engine.apply(state, seat, action)
        except RuleError as e:
            raise IllegalAction(seq, seat, action, str(e)) from None
    return state


def run_chance(engine: Engine, state: State, rng: RandomSource) -> tuple[State, list[Action]]:
    """Resolve every chance request now due; return the new state and the chance actions drawn."""
    drawn: list[Action] = []
    while (req := engine.awaiting(state).chance) is not None:
        action = draw(req, rng)
        state = engine.apply(state, CHANCE, action)
        drawn.append(action)
    return state, drawn


def export(engine: Engine, options: dict[str, Any], players: list[str],
           actions: list[tuple[int, int, Action]]) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "game": engine.name,
        "data_version": engine.data_version,
        "options": options,
        "seats": len(players),
        "players": players,
        "actions": [{"seq": q, "seat": s, "action": a} for q, s, a in actions],
    }


def replay_export(doc: dict[str, Any]) -> tuple[Engine, State]:
    """Rebuild the final state of an exported log (raises IllegalAction)."""
    import engines

    if doc.get("format") != FORMAT:
        raise ValueError("This file is not a game log exported by the bot.")
    try:
        engine = engines.get(doc["game"])
    except KeyError as e:
        if "game" not in doc:
            raise
        raise ValueError(e.args[0]) from None
    state = engine.setup(doc["options"], doc["seats"])
    entries = [(a["seq"], a["seat"], a["action"]) for a in doc["actions"]]
    return engine, replay(engine, state, entries)
