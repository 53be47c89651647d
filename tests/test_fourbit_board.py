"""The board picture draws every location, effect and building name whole, inside its box, and only with
characters Pillow's bundled font really has (a missing glyph is drawn as the font's box)."""
from __future__ import annotations

import pytest
from PIL import ImageDraw

from cogs import fourbit_board
from engines.fourbit import FourBit
from engines.fourbit.data import BUILDINGS, LOCATIONS
from tests.fourbit_helpers import game

E = FourBit()
ALL = list(range(1, 19))


def _box(font) -> tuple:
    m = font.getmask("\U0010ffff")  # a code point no font has: its mask is the missing-glyph box
    return m.size, bytes(m)


def real_glyph(font, ch: str) -> bool:
    m = font.getmask(ch)
    return ch.isspace() or (m.size, bytes(m)) != _box(font)


@pytest.fixture
def drawn(monkeypatch):
    """Render a crowded board (all 18 buildings in the row and in one player's hands, a long name) and
    return every text drawn, as (x, y, text, font)."""
    calls = []
    real = ImageDraw.ImageDraw.text

    def text(self, xy, t, *args, **kw):
        calls.append((xy[0], xy[1], t, kw.get("font")))
        return real(self, xy, t, *args, **kw)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    s = game(4, row=ALL, p0={"built": ALL})
    png = fourbit_board.render(E.public(s), ["ann", "ben × → ü", "carol", "dave"])
    assert png.startswith(b"\x89PNG")
    return calls


def test_the_font_check_tells_a_missing_glyph_from_a_real_one():
    font = fourbit_board._font(12)
    assert real_glyph(font, "A") and real_glyph(font, "·") and real_glyph(font, "×") and real_glyph(font, "町")
    assert not real_glyph(font, "\ue000") and not real_glyph(font, "\U0001F600")  # private use; an emoji


def test_every_character_drawn_has_a_glyph(drawn):
    for _, _, text, font in drawn:
        missing = [ch for ch in text if not real_glyph(font, ch)]
        assert not missing, (text, missing)


def test_every_location_name_and_effect_is_drawn_whole(drawn):
    lines = [t for _, _, t, _ in drawn]
    for _, name, effect in LOCATIONS:
        assert name in lines, name  # on one line of its own, never cut
        assert effect in " ".join(lines), effect  # wrapped at spaces, every word drawn
    assert "Administrative District" in lines


def test_every_building_name_is_drawn_whole_in_the_row_and_the_panel(drawn):
    row = [t for x, _, t, _ in drawn if x < 604]
    panel = [t for x, _, t, _ in drawn if x >= 620]
    for _, name, *_ in BUILDINGS.values():
        assert any(name in t for t in row), name  # whole on one line of the build row
        assert any(name in t for t in panel), name  # and of the first player's panel


def test_texts_stay_inside_their_boxes(drawn):
    for x, y, text, font in drawn:
        right = x + font.getlength(text)
        if 36 <= y < 36 + 4 * 92 and x < 604:  # a location cell
            cell = 12 + (x - 12) // 150 * 150
            assert right <= cell + 142, text
        elif x >= 620:  # a player's panel
            assert right <= 620 + 268, text
        else:
            assert right <= 604, text
