"""Every game's rules help has a Japanese twin: docs/rules/ja/<game>.md for each docs/rules/<game>.md, with a
"# " title, the same "## " topics in the same number, each written in Japanese, and every `code` span of the
English (a command, an option, a file) kept exactly, so that no command is mistranslated."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parents[1] / "docs" / "rules"
GAMES = sorted(p.stem for p in RULES.glob("*.md"))
CODE = re.compile(r"`[^`\n]*`")
TOPIC = re.compile(r"^## +(.+)$", re.M)


def split(text: str) -> tuple[str, list[tuple[str, str]]]:
    """(the text before the first topic, [(topic title, topic body)]), as cogs/rules.py cuts a file."""
    parts = TOPIC.split(text)
    return parts[0], [(parts[i].strip(), parts[i + 1].strip()) for i in range(1, len(parts), 2)]


def japanese_share(text: str) -> float:
    """Of the letters outside `code`, the share that is not ASCII (kana, kanji): digits, punctuation and
    markdown do not count either way, so abbreviations (AR, CN) and prices weigh what they are."""
    letters = [c for c in CODE.sub(" ", text) if c.isalpha()]
    return sum(not c.isascii() for c in letters) / len(letters) if letters else 0.0


def read(game: str, lang: str | None = None) -> str:
    path = RULES / lang / f"{game}.md" if lang else RULES / f"{game}.md"
    assert path.exists(), f"{path.relative_to(RULES.parents[1])} is missing"
    return path.read_text(encoding="utf-8")


@pytest.mark.parametrize("game", GAMES)
def test_japanese_rules_follow_the_english(game):
    en, ja = read(game), read(game, "ja")
    en_head, en_topics = split(en)
    ja_head, ja_topics = split(ja)
    assert en.startswith("# ") and ja.startswith("# "), "both files start with a '# Title' line"
    assert len(ja_topics) == len(en_topics), (
        f"{len(ja_topics)} Japanese topics for {len(en_topics)} English: "
        f"{[t for t, _ in en_topics]} / {[t for t, _ in ja_topics]}")
    overview = re.sub(r"^# .*\n", "", ja_head).strip()
    if re.sub(r"^# .*\n", "", en_head).strip():
        assert overview and japanese_share(overview) > 0.5, "the overview is in Japanese"
    for (en_title, _), (title, body) in zip(en_topics, ja_topics, strict=True):
        assert body, f"the topic {title!r} (for {en_title!r}) is empty"
        share = japanese_share(body)
        assert share > 0.5, f"the topic {title!r} (for {en_title!r}) is mostly not Japanese ({share:.0%})"


@pytest.mark.parametrize("game", GAMES)
def test_japanese_rules_keep_every_command(game):
    en, ja = read(game), read(game, "ja")
    missing = sorted(set(CODE.findall(en)) - set(CODE.findall(ja)))
    assert not missing, f"`code` of the English rules not in the Japanese ones: {missing}"
