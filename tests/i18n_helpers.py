"""What the language tests share: which messages of some source files the Japanese catalog lacks, and whether a
text said in Japanese still holds an English sentence."""
from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from bot.catalog import messages, problems
from bot.i18n import catalog
from engines.text import placeholders

ROOT = Path(__file__).resolve().parents[1]
#: Where the bot's messages are (babel.cfg extracts the same).
SOURCES = ("bot", "cogs", "engines")


def source_files(paths: Iterable[str] = SOURCES) -> list[Path]:
    out: list[Path] = []
    for p in paths:
        path = ROOT / p
        out += sorted(path.rglob("*.py")) if path.is_dir() else [path]
    return out


def extracted(paths: Iterable[str] = SOURCES) -> dict[object, str]:
    """message id (a tuple for a plural) -> where it is first said, for every message in these files."""
    found: dict[object, str] = {}
    for f in source_files(paths):
        for line, _, message, _ in messages(f.read_text(encoding="utf-8")):
            if message:
                found.setdefault(message, f"{f.relative_to(ROOT)}:{line}")
    return found


def untranslated(paths: Iterable[str] = SOURCES) -> list[str]:
    """Messages of these files that the Japanese catalog lacks, or translates with other placeholders."""
    ja = catalog("ja")
    out = []
    for message, where in extracted(paths).items():
        said = ja.get(message)
        if not said:
            out.append(f"{where}: no Japanese for {message!r}")
            continue
        english = message if isinstance(message, tuple) else (message,)
        japanese = said if isinstance(said, tuple) else (said,)
        want = set().union(*(placeholders(m) for m in english))
        if any(placeholders(j) != want for j in japanese):
            out.append(f"{where}: the Japanese of {message!r} has other placeholders: {said!r}")
    return out


def unextractable(paths: Iterable[str] = SOURCES) -> list[str]:
    """Messages given as f-strings or joined strings: they can never be in a catalog."""
    return [f"{f.relative_to(ROOT)}:{line}: {name}(...) is given an f-string or a joined string"
            for f in source_files(paths) for line, name in problems(f.read_text(encoding="utf-8"))]


MENTION = re.compile(r"<[@#][!&]?\d+>|https?://\S+|`[^`]*`")
WORDS = re.compile(r"[A-Za-z][A-Za-z']*(?:[ \-][A-Za-z][A-Za-z']*)+")


def english_left(text: str, names: Iterable[str] = ()) -> list[str]:
    """Runs of two or more English words in a text said in Japanese: an untranslated sentence or phrase. Mentions,
    links and `code` (a command a player types) are not words; `names` (players, companies, places written in
    Latin letters in both languages) are taken out first. A single Latin word (an abbreviation, a company's id)
    passes."""
    text = MENTION.sub(" ", text)
    for name in sorted(names, key=len, reverse=True):
        if name:
            text = text.replace(name, " ")
    return WORDS.findall(text)
