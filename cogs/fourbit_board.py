"""A picture of the 4bit Town board (Pillow): the 16 locations with this round's workers and
blocked marks, City Hall, the build row, the turn-order track, and each player's panel.

Pillow's bundled font covers little beyond ASCII, so every text goes through ``drawable`` (a missing
glyph would show as a box), and names are fitted or wrapped by their drawn width, never cut."""
from __future__ import annotations

import io
import unicodedata
from functools import cache
from typing import Any

from PIL import Image, ImageDraw

from cogs.fonts import font
from engines.fourbit.data import BUILDINGS, CITY_HALL, LOCATIONS

COLOURS = [(220, 60, 60), (60, 110, 220), (40, 160, 80), (230, 170, 30)]
W, H = 900, 640
SIZES = (12, 11, 10, 9, 8)  # a text that does not fit is drawn smaller before it is wrapped
# the bundled font lacks these; the words stay readable in ASCII
PLAIN = {"×": "x", "→": "->", "—": "-", "–": "-", "’": "'", "é": "e"}


def _font(size: float):
    return font(size)


def _mask(font, ch: str) -> tuple:
    m = font.getmask(ch)
    return m.size, bytes(m)


@cache
def _notdef(font) -> tuple:
    return _mask(font, "\U0010ffff")  # a private code point: the font's box for a missing glyph


@cache
def has_glyph(font, ch: str) -> bool:
    return ch.isspace() or _mask(font, ch) != _notdef(font)


def _stand_in(font, ch: str) -> str:
    if has_glyph(font, ch):
        return ch
    base = unicodedata.normalize("NFKD", ch)[:1]  # 'ë' -> 'e'
    return base if base and has_glyph(font, base) else "?"


def drawable(text: str, font) -> str:
    """The text with ASCII stand-ins for the symbols the font lacks, and '?' for anything else it lacks."""
    return "".join(_stand_in(font, c) for c in "".join(PLAIN.get(ch, ch) for ch in text))


def wrap(text: str, font, width: float, sep: str = " ") -> list[str]:
    """Lines no wider than ``width`` that break only at ``sep`` (a space, or ', ' between names, the comma
    staying at the line's end), so no word or name is split; one too wide for any line gets its own."""
    items = text.split(sep)
    tokens = [item + sep.rstrip() for item in items[:-1]] + items[-1:]
    lines: list[str] = []
    for token in tokens:
        trial = f"{lines[-1]} {token}" if lines else token
        if lines and font.getlength(trial) <= width:
            lines[-1] = trial
        else:
            lines.append(token)
    return lines


def fit(text: str, width: float, lines: int, sep: str = " ", sizes: tuple[int, ...] = SIZES) -> tuple[list[str], Any]:
    """The largest size at which the text wraps into at most ``lines`` lines of ``width``; the smallest
    size (with more lines) when nothing fits."""
    for size in sizes:
        font = _font(size)
        out = wrap(drawable(text, font), font, width, sep)
        if len(out) <= lines and all(font.getlength(line) <= width for line in out):
            return out, font
    font = _font(sizes[-1])
    return wrap(drawable(text, font), font, width, sep), font


def _step(font) -> int:
    return getattr(font, "size", 11) + 2


def _lines(d: ImageDraw.ImageDraw, xy: tuple[int, int], lines: list[str], font, fill, step: int) -> int:
    """Draw lines downward; returns the y below the last one."""
    x, y = xy
    for line in lines:
        d.text((x, y), line, fill=fill, font=font)
        y += step
    return y


def _text(d: ImageDraw.ImageDraw, xy: tuple[int, int], text: str, font, fill) -> None:
    d.text(xy, drawable(text, font), fill=fill, font=font)


def render(public: dict, names: list[str]) -> bytes:
    """PNG bytes of the board as the public view shows it (nothing secret is drawn)."""
    img = Image.new("RGB", (W, H), (245, 240, 228))
    d = ImageDraw.Draw(img)
    small, big = _font(12), _font(16)
    _text(d, (12, 8), f"4bit Town · round {public['round']} of 6 · {public['phase']}", big, (0, 0, 0))
    placed: dict[int, list[int]] = {}
    if public["reveal"] and public["reveal"]["round"] == public["round"]:
        for w in public["reveal"]["workers"]:
            placed.setdefault(w["loc"], []).append(w["seat"])
    for n in range(16):
        _location(d, n, public["blocked"][n], placed.get(n, []), big)
    x, y = 12, 36 + 4 * 92  # City Hall
    d.rectangle([x, y, x + 592, y + 40], fill=(235, 235, 250), outline=(90, 80, 70))
    _text(d, (x + 6, y + 4), "City Hall: workers whose location was blocked land here", small, (0, 0, 0))
    for k, seat in enumerate(placed.get(CITY_HALL, [])):
        d.ellipse([x + 330 + 22 * k, y + 12, x + 348 + 22 * k, y + 30], fill=COLOURS[seat])
    y += 50
    row = ", ".join(BUILDINGS[b][1] for b in public["row"]) or "-"
    lines, font = fit(f"Build row (deck {public['deck_left']}): {row}", 592, 4, sep=", ")
    y = _lines(d, (12, y), lines, font, (0, 0, 0), _step(font))
    track = " > ".join(f"{names[e['seat']]} @{e['space']}" for e in public["track"])
    lines, font = fit(f"Track: {track}", 592, 2)
    _lines(d, (12, y + 4), lines, font, (0, 0, 0), _step(font))
    for i, p in enumerate(public["players"]):
        _player(d, i, p, names[i], big, small)
    out = io.BytesIO()
    img.save(out, format="PNG")
    return out.getvalue()


def _location(d: ImageDraw.ImageDraw, n: int, blocked: bool, seats: list[int], big) -> None:
    """One cell of the 4 x 4 grid: number, name (fitted to the cell), effect (wrapped), workers."""
    x, y = 12 + (n % 4) * 150, 36 + (n // 4) * 92
    d.rectangle([x, y, x + 142, y + 84], fill=(225, 215, 200) if blocked else (255, 252, 245), outline=(90, 80, 70))
    _text(d, (x + 6, y + 4), f"{n:04b} = {n}", big, (0, 0, 0))
    lines, font = fit(LOCATIONS[n][1], 130, 1)
    _lines(d, (x + 6, y + 24), lines, font, (40, 40, 40), 13)
    lines, font = fit(LOCATIONS[n][2], 130, 2)
    _lines(d, (x + 6, y + 38), lines, font, (90, 90, 90), 13)
    if blocked:
        _text(d, (x + 96, y + 4), "blocked", _font(12), (150, 40, 40))
    for k, seat in enumerate(seats):
        d.ellipse([x + 8 + 22 * k, y + 64, x + 24 + 22 * k, y + 80], fill=COLOURS[seat])


def _player(d: ImageDraw.ImageDraw, i: int, p: dict, name: str, big, small) -> None:
    """A player's panel on the right: resources, level, workers, and every building by name."""
    px, py = 620, 36 + i * 150
    d.rectangle([px, py, px + 268, py + 142], fill=(255, 255, 255), outline=COLOURS[i], width=3)
    lines, font = fit(name, 252, 1, sizes=(16, 14, 12, 10, 8))
    _lines(d, (px + 8, py + 4), lines[:1], font, COLOURS[i], 0)  # a Discord name fits one line at size 8
    _text(d, (px + 8, py + 26), f"wood {p['wood']}  stone {p['stone']}  coins {p['coins']}", small, (0, 0, 0))
    planned = f"  {len(p['plans'])} planned" if p["plans"] else ""
    _text(d, (px + 8, py + 42), f"VP {p['vp']}  level {p['level']}{planned}", small, (0, 0, 0))
    _text(d, (px + 8, py + 58), f"workers {p['hired']} hired, {p['unhired']} unhired, {p['sent']} out", small,
          (0, 0, 0))
    built = ", ".join(BUILDINGS[b][1] for b in p["built"]) or "no buildings"
    lines, font = fit(built, 252, 5, sep=", ")
    _lines(d, (px + 8, py + 74), lines, font, (60, 60, 60), _step(font) - 1)
