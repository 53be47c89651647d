"""Every engine refuses a malformed action or seat with a sentence (RuleError) and leaves the state as it was.

Crafted logs reach `python -m bot replay`, and a client can send anything, so for each engine hypothesis sends
junk at states reached by random play: actions of every known type with fields of the wrong type (true where a
number goes, 3.0 for a die, strings in a shuffle, lists, huge numbers), legal moves with one field spoiled or an
unknown field added, and seats that are not seat numbers."""
from __future__ import annotations

import json
import random
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engines
from engines.base import CHANCE, RuleError
from engines.log import run_chance

GAMES = {"dicehand": 3, "fourbit": 3, "boss": 4, "tokai": 3, "1889": 3}


@cache
def states(name: str) -> tuple[str, ...]:
    """States met in random games (as JSON, so each example starts from a fresh copy), with the move types seen."""
    engine = engines.get(name)
    rng = random.Random(5)
    out = []
    for _ in range(2):
        state = engine.setup({}, GAMES[name])
        for step in range(400):
            state, _ = run_chance(engine, state, rng)
            if engine.is_over(state):
                break
            seat = rng.choice(sorted(engine.awaiting(state).seats))
            moves = engine.legal(state, seat)
            move = engine.auto_action(state, seat) if engine.selfplay_auto and rng.random() < 0.9 else None
            state = engine.apply(state, seat, move or rng.choice(moves))
            if step % 13 == 0:
                out.append(json.dumps(state))
    return tuple(out)


JUNK = st.one_of(st.booleans(), st.none(), st.floats(allow_nan=True), st.integers(-10**30, 10**30),
                 st.sampled_from([True, False, 3.0, -1, 0, 10**20, "", "x", "0", [], {}, [1], ["a"], [True],
                                  {"a": 1}]),
                 st.text(max_size=6), st.lists(st.one_of(st.integers(-5, 50), st.text(max_size=3)), max_size=5))
SEATS = st.one_of(st.integers(-3, 8), st.booleans(), st.sampled_from([0.0, 1.5, "0", None, [0], CHANCE]))


@st.composite
def junk_action(draw, legal: list[dict]):
    """A legal move with a field spoiled or added, or a move of a known type made of junk, or plain junk."""
    how = draw(st.sampled_from(["spoil", "extra", "made", "raw"]))
    if legal and how in ("spoil", "extra"):
        move = dict(draw(st.sampled_from(legal)))
        keys = [k for k in move if k != "type"]
        if how == "spoil" and keys:
            move[draw(st.sampled_from(keys))] = draw(JUNK)
        else:
            move[draw(st.sampled_from(["trusted", "seat", "n", "card", "x"]))] = draw(JUNK)
        return move
    if how == "made" and legal:
        kind = draw(st.sampled_from(sorted({m["type"] for m in legal})))
        keys = sorted({k for m in legal for k in m if k != "type"} | {"amount", "card", "order", "values", "to"})
        return {"type": kind, **draw(st.dictionaries(st.sampled_from(keys), JUNK, max_size=4))}
    return draw(st.one_of(st.dictionaries(st.text(max_size=5), JUNK, max_size=4), JUNK.map(lambda v: {"type": v})))


@pytest.mark.parametrize("name", sorted(GAMES))
@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_junk_actions_and_seats_raise_only_a_sentence_and_change_nothing(name, data):
    engine = engines.get(name)
    text = data.draw(st.sampled_from(states(name)))
    state = json.loads(text)
    awaited = sorted(engine.awaiting(state).seats)
    seat = data.draw(st.one_of(st.sampled_from(awaited or [0]), SEATS))
    legal = [m for s in awaited for m in engine.legal(state, s)]
    chance = engine.awaiting(state).chance
    if chance is not None or data.draw(st.booleans()):
        seat = data.draw(st.one_of(st.just(CHANCE), SEATS))
        legal = legal + [{"type": "dice", "values": [1, 2]}, {"type": "shuffle", "order": [1, 0]},
                         {"type": "pick", "index": 0}, {"type": "expire"}]
    action = data.draw(junk_action(legal))
    try:
        engine.apply(state, seat, action)
    except RuleError as e:
        assert str(e).strip(), "a refusal says why"
    assert json.dumps(state) == text, "a refused (or accepted) action never changes the state it was applied to"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_bool_is_not_a_number_and_a_die_is_a_whole_number(name):
    """The shapes that were accepted before: true as 1, a die of 3.0, a shuffle of strings."""
    engine = engines.get(name)
    state = engine.setup({}, GAMES[name])
    req = engine.awaiting(state).chance
    if req is not None:
        wrong = ({"type": "shuffle", "order": [str(i) for i in range(req.count)]} if req.kind == "shuffle"
                 else {"type": "dice", "values": [3.0] * req.count})
        with pytest.raises(RuleError):
            engine.apply(state, CHANCE, wrong)
        state, _ = run_chance(engine, state, random.Random(1))
    seat = min(engine.awaiting(state).seats)
    for move in engine.legal(state, seat):
        for key, value in move.items():
            if type(value) is int and value in (0, 1):
                with pytest.raises(RuleError):
                    engine.apply(state, seat, {**move, key: bool(value)})
    with pytest.raises(RuleError):
        engine.apply(state, True if seat == 1 else seat + 0.0, engine.legal(state, seat)[0])
