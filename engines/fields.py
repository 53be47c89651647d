"""The shape of actions, checked once for every engine before its rules run (Engine.apply).

An action comes from a player's client or a crafted log, so before an engine reads it its fields must have the
types the engine expects: a seat number is a whole number (``true`` is not 1), a die is a whole number from 1 to
its sides (not 3.0), a shuffle is an ordering of every index once. An engine declares its actions as
``{type: {field: kind}}`` with kinds:

- ``"int"``, ``"str"``, ``"bool"``: one value of that type (bool is never an int here);
- ``"int[]"``, ``"str[]"``: a list of such values;
- ``"list"``, ``"dict"``: a list or an object the engine checks itself (an 18xx route);
- ``"int|str"``: either (a building number, or ``"deck"``);
- a trailing ``"?"``: the field may be left out (or be null).

Fields not declared are refused, so a move with an extra field (``"trusted": true``) is not a move. Ranges that
depend on the state (which cards a player holds) stay the engine's to check."""
from __future__ import annotations

from typing import Any

from engines.base import Action, ChanceRequest, RuleError

Spec = dict[str, dict[str, str]]

_ONE = {"int": lambda v: type(v) is int, "str": lambda v: type(v) is str, "bool": lambda v: type(v) is bool,
        "list": lambda v: type(v) is list, "dict": lambda v: type(v) is dict}


_WORDS = {"int": "a whole number", "str": "a name", "bool": "yes or no", "list": "a list", "dict": "a set of fields"}


def words(kind: str) -> str:
    """What a kind of field must be, in words."""
    if kind.endswith("[]"):
        return f"a list of {words(kind[:-2]).removeprefix('a ')}s"
    return " or ".join(_WORDS[k] for k in kind.split("|"))


def fits(value: Any, kind: str) -> bool:
    if "|" in kind:
        return any(fits(value, k) for k in kind.split("|"))
    if kind.endswith("[]"):
        return type(value) is list and all(_ONE[kind[:-2]](v) for v in value)
    return _ONE[kind](value)


def check_action(action: Action, spec: Spec) -> None:
    """Refuse, with a sentence, an action whose type is unknown or whose fields are missing, extra or mistyped."""
    fields = spec.get(action["type"])
    if fields is None:
        raise RuleError("That is not a move this game knows.")
    move = "move" if action["type"] == "move" else f"{action['type']} move"
    for key, value in action.items():
        if key == "type":
            continue
        kind = fields.get(key)
        if kind is None:
            raise RuleError(f"A {move} has no {str(key)[:20]!r}.")
        optional = kind.endswith("?")
        if not (value is None and optional) and not fits(value, kind.rstrip("?")):
            raise RuleError(f"The {key} of a {move} must be {words(kind.rstrip('?'))}.")
    for key, kind in fields.items():
        if not kind.endswith("?") and key not in action:
            raise RuleError(f"A {move} needs its {key}.")


def check_chance(action: Action, request: ChanceRequest) -> None:
    """A chance outcome must answer the request exactly: every die a whole number from 1 to its sides, a shuffle
    an ordering of every index once, a pick one index."""
    kind, count = request.kind, request.count
    if action["type"] != kind:
        nouns = {"dice": "a roll", "shuffle": "a shuffle", "pick": "a pick"}
        raise RuleError(f"The game waits for {nouns.get(kind, kind)}, not {nouns.get(action['type'], 'that')}.")
    if kind == "dice":
        values = action.get("values")
        ok = type(values) is list and len(values) == count and all(
            type(v) is int and 1 <= v <= request.sides for v in values)
        if set(action) != {"type", "values"} or not ok:
            dice = "one die" if count == 1 else f"{count} dice"
            raise RuleError(f"A roll is {dice} showing 1 to {request.sides}.")
    elif kind == "shuffle":
        order = action.get("order")
        ok = type(order) is list and all(type(i) is int for i in order) and sorted(order) == list(range(count))
        if set(action) != {"type", "order"} or not ok:
            raise RuleError(f"A shuffle orders each of the {count} items once.")
    elif kind == "pick":
        index = action.get("index")
        if set(action) != {"type", "index"} or type(index) is not int or not 0 <= index < count:
            raise RuleError(f"A pick is one of the {count} items.")
