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
from engines.text import N_, Msg, msg, plural

Spec = dict[str, dict[str, str]]

_ONE = {"int": lambda v: type(v) is int, "str": lambda v: type(v) is str, "bool": lambda v: type(v) is bool,
        "list": lambda v: type(v) is list, "dict": lambda v: type(v) is dict}


_WORDS = {"int": N_("a whole number"), "str": N_("a name"), "bool": N_("yes or no"), "list": N_("a list"),
          "dict": N_("a set of fields"), "int[]": N_("a list of whole numbers"), "str[]": N_("a list of names"),
          "bool[]": N_("a list of yes-or-no values"), "list[]": N_("a list of lists"),
          "dict[]": N_("a list of sets of fields")}


def words(kind: str) -> Msg:
    """What a kind of field must be, in words (a message)."""
    if "|" in kind:
        first, rest = kind.split("|", 1)
        return msg("{first} or {rest}", first=words(first), rest=words(rest))
    return msg(_WORDS[kind])


#: a declared field ("int[]?") -> (may it be null, its kind without the "?", fits for that kind): check_action
#: reads each declaration once, not at every move
_KINDS: dict[str, tuple[bool, str, Any]] = {}


def _kind(field: str) -> tuple[bool, str, Any]:
    known = _KINDS.get(field)
    if known is None:
        kind = field.rstrip("?")
        known = _KINDS[field] = (field.endswith("?"), kind, _fits_for(kind))
    return known


def _fits_for(kind: str):
    """Whether a value is of this kind, as a function of the value (worked out once per kind)."""
    if "|" in kind:
        either = tuple(_fits_for(k) for k in kind.split("|"))
        return lambda value: any(f(value) for f in either)
    if kind.endswith("[]"):
        one = _ONE[kind[:-2]]
        return lambda value: type(value) is list and all(one(v) for v in value)
    return _ONE[kind]


#: A plain kind's one type: a value of exactly that type fits it, and a value of another type only if null where
#: the field may be.
_TYPES = {"int": int, "str": str, "bool": bool, "list": list, "dict": dict}


def check_action(action: Action, spec: Spec) -> None:
    """Refuse, with a sentence, an action whose type is unknown or whose fields are missing, extra or mistyped."""
    fields = spec.get(action["type"])
    if fields is None:
        raise RuleError("That is not a move this game knows.")
    known = _DECLARED.get(id(fields))
    if known is None or known[0] is not fields:
        known = _declare(fields)
    _, types, required = known
    for key, value in action.items():
        if types.get(key) is not type(value):  # most fields hold a value of their plain kind's type: nothing to ask
            _check_field(action["type"], fields, key, value)
    for key in required:
        if key not in action:
            if action["type"] == "move":
                raise RuleError("A move needs its {field}.", field=key)
            raise RuleError("A {kind} move needs its {field}.", kind=action["type"], field=key)


def _check_field(kind: str, fields: dict[str, str], key: str, value: Any) -> None:
    """A field whose value is not of its plain kind's type: the type itself, null where the field may be, or a
    value of a kind that looks further (a list of names, a number or a name); anything else is refused."""
    if key == "type":
        return
    # "a move", or "a bet move": the action's type is its name in the game's data, said as it is
    plain = kind == "move"
    field = fields.get(key)
    if field is None:
        name = repr(str(key)[:20])
        if plain:
            raise RuleError("A move has no {field}.", field=name)
        raise RuleError("A {kind} move has no {field}.", kind=kind, field=name)
    optional, field_kind, fits_kind = _kind(field)
    if value is None and optional:
        return
    if not fits_kind(value):
        what = words(field_kind)
        if plain:
            raise RuleError("The {field} of a move must be {what}.", field=key, what=what)
        raise RuleError("The {field} of a {kind} move must be {what}.", field=key, kind=kind, what=what)


#: id of an action type's fields -> (those fields, the type of each field of a plain kind, the keys it must have):
#: an engine's spec is a constant table, read once per action type
_DECLARED: dict[int, tuple[dict[str, str], dict[str, type], tuple[str, ...]]] = {}


def _declare(fields: dict[str, str]) -> tuple[dict[str, str], dict[str, type], tuple[str, ...]]:
    """The type of each field of a plain kind ("int", "str?"; "type" is a name) and the fields a move of this type
    must have (those not marked "?"), kept in _DECLARED."""
    types = {key: _TYPES[f.rstrip("?")] for key, f in fields.items() if f.rstrip("?") in _TYPES}
    types["type"] = str
    known = _DECLARED[id(fields)] = (fields, types, tuple(k for k, f in fields.items() if not f.endswith("?")))
    return known


#: A chance outcome, as the game waiting for one names it.
_NOUNS = {"dice": N_("a roll"), "shuffle": N_("a shuffle"), "pick": N_("a pick")}


def check_chance(action: Action, request: ChanceRequest) -> None:
    """A chance outcome must answer the request exactly: every die a whole number from 1 to its sides, a shuffle
    an ordering of every index once, a pick one index."""
    kind, count = request.kind, request.count
    if action["type"] != kind:
        wanted = msg(_NOUNS[kind]) if kind in _NOUNS else kind
        got = msg(_NOUNS.get(action["type"], N_("that")))
        raise RuleError("The game waits for {wanted}, not {got}.", wanted=wanted, got=got)
    if kind == "dice":
        values = action.get("values")
        ok = type(values) is list and len(values) == count and all(
            type(v) is int and 1 <= v <= request.sides for v in values)
        if set(action) != {"type", "values"} or not ok:
            dice = plural(count, "one die", "{n} dice")
            raise RuleError("A roll is {dice} showing 1 to {sides}.", dice=dice, sides=request.sides)
    elif kind == "shuffle":
        order = action.get("order")
        ok = type(order) is list and all(type(i) is int for i in order) and sorted(order) == list(range(count))
        if set(action) != {"type", "order"} or not ok:
            raise RuleError("A shuffle orders each of the {n} items once.", n=count)
    elif kind == "pick":
        index = action.get("index")
        if set(action) != {"type", "index"} or type(index) is not int or not 0 <= index < count:
            raise RuleError("A pick is one of the {n} items.", n=count)
