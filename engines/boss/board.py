"""The deal board of I'm the Boss!: 16 deal spaces and 15 deal tiles, read from a JSON file.

The printed values are not public, so ``board_ours.json`` is our own design. A server admin
who owns the box can write the printed values in the same format and name the file in
``BOT_BOSS_BOARD``; tables then offer it as ``board=printed``. Money is in thousands of dollars.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engines.text import Name

FAMILIES = ("red", "blue", "yellow", "pink", "orange", "green")
#: Each family's colour (and the grey of the travel cards that go with any family) in both languages, as the
#: Japanese rules name them.
COLOUR_NAMES = {
    "red": Name("red", "赤"), "blue": Name("blue", "青"), "yellow": Name("yellow", "黄色"),
    "pink": Name("pink", "ピンク"), "orange": Name("orange", "オレンジ"), "green": Name("green", "グリーン"),
    "grey": Name("grey", "グレー"),
}
SPACES = 16
TILES = 15
OURS = Path(__file__).with_name("board_ours.json")


class BoardError(ValueError):
    """A board file that cannot be used; the message says what is wrong."""


def _families(where: str, value: Any) -> list[str]:
    if not isinstance(value, list) or any(f not in FAMILIES for f in value) or len(set(value)) != len(value):
        raise BoardError(f"{where} must be a list of different families from {', '.join(FAMILIES)}.")
    return value


def validate(doc: Any) -> dict[str, Any]:
    """Check a board document and return it; raise BoardError with a sentence otherwise."""
    if not isinstance(doc, dict):
        raise BoardError("A board file is a JSON object with 'spaces' and 'deals'.")
    spaces, deals = doc.get("spaces"), doc.get("deals")
    if not isinstance(spaces, list) or len(spaces) != SPACES:
        raise BoardError(f"A board has {SPACES} deal spaces, in clockwise order.")
    for i, s in enumerate(spaces, 1):
        where = f"Space {i}"
        if not isinstance(s, dict):
            raise BoardError(f"{where} must be an object with must, more, from and shares.")
        must = _families(f"{where}: 'must'", s.get("must"))
        pool = _families(f"{where}: 'from'", s.get("from", []))
        if set(must) & set(pool):
            raise BoardError(f"{where}: a family cannot be both required and optional.")
        more = s.get("more", 0)
        if not isinstance(more, int) or not 0 <= more <= len(pool):
            raise BoardError(f"{where}: 'more' must be 0 to the number of families in 'from'.")
        if len(must) + more < 1:
            raise BoardError(f"{where} needs at least one investor.")
        if not isinstance(s.get("shares"), int) or s["shares"] < 1:
            raise BoardError(f"{where}: 'shares' must be a whole number of at least 1.")
    if not isinstance(deals, list) or [d.get("number") if isinstance(d, dict) else None for d in deals] != \
            list(range(1, TILES + 1)):
        raise BoardError(f"A board has {TILES} deal tiles numbered 1 to {TILES}, in that order.")
    for d in deals:
        if not isinstance(d.get("value"), int) or d["value"] <= 0:
            raise BoardError(f"Deal {d['number']}: 'value' is the pay per share in thousands of dollars, above 0.")
        end = d.get("end", [])
        if not isinstance(end, list) or any(not isinstance(x, int) or not 1 <= x <= 6 for x in end):
            raise BoardError(f"Deal {d['number']}: 'end' lists die numbers 1 to 6.")
    return doc


def load_board(path: str | Path) -> dict[str, Any]:
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise BoardError(f"Cannot read the board file {path}: {e}") from None
    return validate(doc)


#: Boards a table may use, by the name of the ``board`` option.
BOARDS: dict[str, dict[str, Any]] = {"ours": load_board(OURS)}


def use_printed(path: str | Path) -> None:
    """Offer the printed board from an admin's file as ``board=printed``."""
    BOARDS["printed"] = load_board(path)
