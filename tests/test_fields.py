"""engines/fields.py: each declared field kind accepts exactly its values, whichever way check_action reads it (a
value of a plain kind's type passes on one look; the rest go through the kind's own check)."""
from __future__ import annotations

import pytest

from engines.base import RuleError
from engines.fields import check_action

VALUES = {"zero": 0, "true": True, "name": "a", "null": None, "empty": [], "ints": [1], "names": ["a"],
          "mixed": [1, "a"], "bools": [True], "object": {}, "float": 1.0}

#: kind -> the VALUES it accepts (a "?" kind accepts null as well)
ACCEPTS = {
    "int": {"zero"}, "str": {"name"}, "bool": {"true"}, "list": {"empty", "ints", "names", "mixed", "bools"},
    "dict": {"object"}, "int[]": {"empty", "ints"}, "str[]": {"empty", "names"}, "int|str": {"zero", "name"},
}


@pytest.mark.parametrize("kind", sorted(ACCEPTS))
@pytest.mark.parametrize("optional", [False, True])
def test_a_field_accepts_exactly_the_values_of_its_kind(kind, optional):
    spec = {"go": {"f": kind + ("?" if optional else "")}}
    for name, value in VALUES.items():
        accepted = name in ACCEPTS[kind] or (optional and value is None)
        try:
            check_action({"type": "go", "f": value}, spec)
            said = None
        except RuleError as e:
            said = str(e)
        assert (said is None) == accepted, (kind, optional, name, said)
        if not accepted:
            assert said.startswith("The f of a go move must be "), said
    if optional:
        check_action({"type": "go"}, spec)
    else:
        with pytest.raises(RuleError, match="A go move needs its f."):
            check_action({"type": "go"}, spec)


def test_a_field_not_declared_is_refused_whatever_it_holds():
    spec = {"go": {"f": "int"}}
    for value in VALUES.values():
        with pytest.raises(RuleError, match="A go move has no 'g'."):
            check_action({"type": "go", "f": 1, "g": value}, spec)


def test_the_first_field_that_fails_is_the_one_named():
    spec = {"go": {"a": "int", "b": "str", "c": "int?"}}
    with pytest.raises(RuleError, match="The b of a go move must be a name."):
        check_action({"type": "go", "a": 1, "b": 2, "c": "x"}, spec)
    with pytest.raises(RuleError, match="The c of a go move must be a whole number."):
        check_action({"type": "go", "c": "x", "b": 2}, spec)
    with pytest.raises(RuleError, match="A go move needs its a."):  # present fields first, then the missing ones
        check_action({"type": "go", "b": "x"}, spec)


def test_a_spec_read_once_is_read_again_when_a_new_table_takes_its_place():
    check_action({"type": "go", "f": 1}, {"go": {"f": "int"}})
    with pytest.raises(RuleError, match="must be a name"):
        check_action({"type": "go", "f": 1}, {"go": {"f": "str"}})  # a new table, perhaps at the same address
