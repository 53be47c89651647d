"""``python -m bot replay`` on hostile files: every refusal is a sentence, never Python's own words, and never a
traceback (a file nested 100,000 deep included)."""
from __future__ import annotations

import json
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.replay import replay_file

JUNK = st.recursive(st.none() | st.booleans() | st.integers(-3, 10**12) | st.floats(allow_nan=False)
                    | st.text(max_size=6), lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=8)
OURS = {"format": "boardbot-log", "game": "dicehand", "data_version": 1, "options": {}, "seats": 2,
        "players": ["ann", "ben"], "actions": [{"seq": 1, "seat": -1, "action": {"type": "shuffle", "order": [1, 0]}}]}
SITE = {"title": "1889", "id": 1, "players": [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}],
        "actions": [{"type": "bid", "entity": 1, "entity_type": "player", "id": 1, "company": "TR", "price": 20}]}
PYTHON_WORDS = re.compile(r"Error\b|object|NoneType|subscriptable|unhashable|argument|iterable|\bint\(\)|"
                          r"<class|'(dict|list|str|int|float|bool)'|Traceback|line \d+ column|char \d+")


def assert_sentence(result):
    if "error" in result:
        text = result["error"]
        assert text[0].isupper() and text.rstrip().endswith((".", ")")), text
        assert not PYTHON_WORDS.search(text), text
    else:
        assert set(result) == {"illegal"} and result["illegal"]["sentence"][0].isupper()


def mutated(doc, path, value):
    """doc with the value at ``path`` (keys and indexes) replaced."""
    doc = json.loads(json.dumps(doc))
    here = doc
    for key in path[:-1]:
        here = here[key]
    here[path[-1]] = value
    return doc


PATHS = [("game",), ("options",), ("seats",), ("actions",), ("actions", 0), ("actions", 0, "seq"),
         ("actions", 0, "seat"), ("actions", 0, "action"), ("actions", 0, "action", "order")]
SITE_PATHS = [("players",), ("players", 0), ("players", 0, "id"), ("actions", 0, "entity"), ("actions", 0, "price"),
              ("actions", 0, "company"), ("actions", 0, "type"), ("actions", 0, "id"), ("title",)]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_a_log_with_any_field_replaced_by_junk_is_refused_with_a_sentence(tmp_path, data):
    base, paths = data.draw(st.sampled_from([(OURS, PATHS), (SITE, SITE_PATHS)]))
    doc = mutated(base, data.draw(st.sampled_from(paths)), data.draw(JUNK))
    path = tmp_path / "log.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    result, ok = replay_file(path)
    if not ok:
        assert_sentence(result)


def test_a_file_nested_100000_deep_is_refused_with_a_sentence(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    result, ok = replay_file(path)
    assert not ok and result == {"error": "This file is not a game log exported by the bot: it nests deeper "
                                          "than any game log."}


def test_a_file_that_is_not_text_or_not_json_says_so(tmp_path):
    path = tmp_path / "b.json"
    path.write_bytes(b"\xff\xfe\x00junk")
    assert replay_file(path) == ({"error": f"Cannot read {path}: it is not UTF-8 text."}, False)
    path.write_text("{oops", encoding="utf-8")
    assert replay_file(path) == ({"error": f"Cannot read {path}: it is not JSON (line 1, column 2)."}, False)
