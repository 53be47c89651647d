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
from engines.text import N_, Msg, msg

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


def unknown_game(name: object) -> Msg:
    """The sentence for a game name no engine has (engines.get's KeyError says it in English)."""
    import engines

    known = ", ".join(sorted(engines.ENGINES))
    return msg("No game called {name}; known games: {known}.", name=repr(name), known=known)


def replay_export(doc: dict[str, Any]) -> tuple[Engine, State]:
    """Rebuild the final state of an exported log (raises IllegalAction)."""
    import engines

    if doc.get("format") != FORMAT:
        raise RuleError("This file is not a game log exported by the bot.")
    for key, kind, what in (("game", str, N_("a game name")), ("options", dict, N_("its options")),
                            ("seats", int, N_("a number of seats")), ("actions", list, N_("a list of actions"))):
        if key not in doc:
            raise RuleError("This file is not a whole game log: it has no {key} ({what}).", key=repr(key),
                            what=msg(what))
        if type(doc[key]) is not kind:
            raise RuleError("This file is not a game log the bot can read: its {key} is not {what}.", key=repr(key),
                            what=msg(what))
    try:
        engine = engines.get(doc["game"])
    except KeyError:
        raise RuleError(unknown_game(doc["game"])) from None
    state = engine.setup(doc["options"], doc["seats"])
    entries = []
    for n, a in enumerate(doc["actions"], 1):
        if type(a) is not dict or type(a.get("seq")) is not int or type(a.get("seat")) is not int \
                or type(a.get("action")) is not dict:
            raise RuleError("Entry {n} of the log is not a numbered action of a seat.", n=n)
        entries.append((a["seq"], a["seat"], a["action"]))
    return engine, replay(engine, state, entries)
