"""The one font every picture draws with: Noto Sans CJK JP (Regular), which writes Japanese and English alike.
It comes with the install, from the PyPI package noto-cjk-sans-jp-regular (the font is under the SIL Open Font
License 1.1, README "Credits"), so no machine draws a missing-glyph box for 名古屋."""
from __future__ import annotations

from functools import cache

from noto_cjk_sans_jp_regular import FONT_PATH
from PIL import ImageFont

#: A code point no font draws (Unicode's private use area): what a missing glyph looks like in this font.
MISSING = "\ue000"


@cache  # a FreeType font is parsed afresh on every load
def font(size: float) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT_PATH), max(1, round(size)))


@cache
def _mask(ch: str) -> tuple:
    m = font(24).getmask(ch)
    return m.size, bytes(m)


def missing_glyphs(text: str) -> set[str]:
    """The characters of `text` the font cannot draw (each would be the missing-glyph box)."""
    box = _mask(MISSING)
    return {ch for ch in set(text) if not ch.isspace() and _mask(ch) == box}
