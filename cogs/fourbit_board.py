"""A picture of the 4bit Town board (Pillow): the 16 locations with this round's workers and
blocked marks, City Hall, the build row, the turn-order track, and each player's panel, in the reader's
language (the table's, for the channel).

The font (cogs/fonts.py) writes Japanese and English alike, so every text is drawn as it is said; names are
fitted or wrapped by their drawn width, never cut: English breaks at spaces (a list at ', ' between names),
Japanese between any two characters but never before closing punctuation."""
from __future__ import annotations

import io
from typing import Any

from PIL import Image, ImageDraw

from bot.i18n import say, tr
from cogs.fonts import font
from engines.fourbit import PHASES, building_name, place_effect
from engines.fourbit.data import CITY_HALL, PLACES, TITLE

COLOURS = [(220, 60, 60), (60, 110, 220), (40, 160, 80), (230, 170, 30)]
W, H = 900, 640
SIZES = (12, 11, 10, 9, 8)  # a text that does not fit is drawn smaller before it is wrapped
#: How each language lists names: the separator, and what joins two items on one line.
LIST = {"en": (", ", " "), "ja": ("、", "")}
#: Characters a Japanese line never starts with (kinsoku): they stay at the end of the line before.
NO_START = set("、。，．・：；？！）」』】〕ー…‐-→")
#: Characters a Japanese line never ends with: they go down with the character after them.
NO_END = set("（「『【〔")


def _latin(ch: str) -> bool:
    return bool(ch) and ch.isascii() and not ch.isspace()


def _font(size: float):
    return font(size)


def wrap(text: str, font, width: float, sep: str = " ", joiner: str = " ") -> list[str]:
    """Lines no wider than ``width`` that break only at ``sep`` (a space, or ', ' between names, the comma
    staying at the line's end), so no word or name is split; one too wide for any line gets its own. An empty
    ``sep`` breaks between any two characters (Japanese), never before closing punctuation."""
    if sep:
        items = text.split(sep)
        tokens = [item + sep.rstrip() for item in items[:-1]] + items[-1:]
    else:
        tokens: list[str] = []
        for ch in text:
            last = tokens[-1][-1:] if tokens else ""
            if tokens and (ch in NO_START or last in NO_END or _latin(ch) and _latin(last)):
                tokens[-1] += ch  # '+6' or 'VP' stays whole, punctuation stays with its word
            else:
                tokens.append(ch)
    lines: list[str] = []
    for token in tokens:
        trial = f"{lines[-1]}{joiner}{token}" if lines else token
        if lines and font.getlength(trial) <= width:
            lines[-1] = trial
        else:
            lines.append(token)
    return lines


def fit(text: str, width: float, lines: int, sep: str = " ", sizes: tuple[int, ...] = SIZES,
        joiner: str = " ") -> tuple[list[str], Any]:
    """The largest size at which the text wraps into at most ``lines`` lines of ``width``; the smallest
    size (with more lines) when nothing fits."""
    for size in sizes:
        font = _font(size)
        out = wrap(text, font, width, sep, joiner)
        if len(out) <= lines and all(font.getlength(line) <= width for line in out):
            return out, font
    font = _font(sizes[-1])
    return wrap(text, font, width, sep, joiner), font


def _fit_words(text: str, width: float, lines: int, lang: str, sizes: tuple[int, ...] = SIZES):
    """Running text: English breaks at spaces, Japanese between characters."""
    return fit(text, width, lines, sizes=sizes, sep="" if lang == "ja" else " ", joiner="" if lang == "ja" else " ")


def _fit_list(text: str, width: float, lines: int, lang: str, sizes: tuple[int, ...] = SIZES):
    """A list of names, broken only between two names."""
    sep, joiner = LIST.get(lang, LIST["en"])
    return fit(text, width, lines, sep=sep, sizes=sizes, joiner=joiner)


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
    d.text(xy, text, fill=fill, font=font)


def _line(d: ImageDraw.ImageDraw, xy: tuple[int, int], text: str, width: float, fill, lang: str) -> None:
    """One line of a panel, drawn smaller if it is too wide (and wrapped only if even the smallest is)."""
    lines, font = _fit_words(text, width, 1, lang)
    _lines(d, xy, lines, font, fill, _step(font))


def render(public: dict, names: list[str], lang: str = "en") -> bytes:
    """PNG bytes of the board as the public view shows it (nothing secret is drawn), in `lang`."""
    img = Image.new("RGB", (W, H), (245, 240, 228))
    d = ImageDraw.Draw(img)
    big = _font(16)
    sep = LIST.get(lang, LIST["en"])[0]
    _text(d, (12, 8), tr(lang, "{title} · round {round} of 6 · {phase}", title=TITLE, round=public["round"],
                         phase=tr(lang, PHASES.get(public["phase"], public["phase"]))), big, (0, 0, 0))
    placed: dict[int, list[int]] = {}
    if public["reveal"] and public["reveal"]["round"] == public["round"]:
        for w in public["reveal"]["workers"]:
            placed.setdefault(w["loc"], []).append(w["seat"])
    for n in range(16):
        _location(d, n, public["blocked"][n], placed.get(n, []), big, lang)
    x, y = 12, 36 + 4 * 92  # City Hall
    d.rectangle([x, y, x + 592, y + 40], fill=(235, 235, 250), outline=(90, 80, 70))
    lines, font = _fit_words(tr(lang, "City Hall: workers whose location was blocked land here"), 318, 2, lang)
    _lines(d, (x + 6, y + 4), lines, font, (0, 0, 0), _step(font))
    for k, seat in enumerate(placed.get(CITY_HALL, [])):
        d.ellipse([x + 330 + 22 * k, y + 12, x + 348 + 22 * k, y + 30], fill=COLOURS[seat])
    y += 50
    row = sep.join(say(building_name(b), lang) for b in public["row"]) or "-"
    lines, font = _fit_list(tr(lang, "Build row (deck {n}): {row}", n=public["deck_left"], row=row), 592, 4, lang)
    y = _lines(d, (12, y), lines, font, (0, 0, 0), _step(font))
    track = " > ".join(f"{names[e['seat']]} @{e['space']}" for e in public["track"])
    lines, font = fit(tr(lang, "Track: {track}", track=track), 592, 2)
    _lines(d, (12, y + 4), lines, font, (0, 0, 0), _step(font))
    for i, p in enumerate(public["players"]):
        _player(d, i, p, names[i], lang)
    out = io.BytesIO()
    img.save(out, format="PNG")
    return out.getvalue()


def _location(d: ImageDraw.ImageDraw, n: int, blocked: bool, seats: list[int], big, lang: str) -> None:
    """One cell of the 4 x 4 grid: number, name (fitted to the cell), effect (wrapped), workers."""
    x, y = 12 + (n % 4) * 150, 36 + (n // 4) * 92
    d.rectangle([x, y, x + 142, y + 84], fill=(225, 215, 200) if blocked else (255, 252, 245), outline=(90, 80, 70))
    _text(d, (x + 6, y + 4), f"{n:04b} = {n}", big, (0, 0, 0))
    lines, font = fit(say(PLACES[n], lang), 130, 1)
    _lines(d, (x + 6, y + 24), lines, font, (40, 40, 40), 13)
    lines, font = _fit_words(say(place_effect(n), lang), 130, 2, lang)
    _lines(d, (x + 6, y + 38), lines, font, (90, 90, 90), 13)
    if blocked:
        _text(d, (x + 96, y + 4), tr(lang, "blocked"), _font(12), (150, 40, 40))
    for k, seat in enumerate(seats):
        d.ellipse([x + 8 + 22 * k, y + 64, x + 24 + 22 * k, y + 80], fill=COLOURS[seat])


def _player(d: ImageDraw.ImageDraw, i: int, p: dict, name: str, lang: str) -> None:
    """A player's panel on the right: resources, level, workers, and every building by name."""
    px, py = 620, 36 + i * 150
    d.rectangle([px, py, px + 268, py + 142], fill=(255, 255, 255), outline=COLOURS[i], width=3)
    lines, font = fit(name, 252, 1, sizes=(16, 14, 12, 10, 8))
    _lines(d, (px + 8, py + 4), lines[:1], font, COLOURS[i], 0)  # a Discord name fits one line at size 8
    black = (0, 0, 0)
    _line(d, (px + 8, py + 26), tr(lang, "wood {wood}  stone {stone}  coins {coins}", wood=p["wood"],
                                   stone=p["stone"], coins=p["coins"]), 252, black, lang)
    if p["plans"]:
        level = tr(lang, "VP {vp}  level {level}  {n} planned", vp=p["vp"], level=p["level"], n=len(p["plans"]))
    else:
        level = tr(lang, "VP {vp}  level {level}", vp=p["vp"], level=p["level"])
    _line(d, (px + 8, py + 42), level, 252, black, lang)
    _line(d, (px + 8, py + 58), tr(lang, "workers {hired} hired, {unhired} unhired, {sent} out", hired=p["hired"],
                                   unhired=p["unhired"], sent=p["sent"]), 252, black, lang)
    sep = LIST.get(lang, LIST["en"])[0]
    built = sep.join(say(building_name(b), lang) for b in p["built"]) or tr(lang, "no buildings")
    lines, font = _fit_list(built, 252, 5, lang)
    _lines(d, (px + 8, py + 74), lines, font, (60, 60, 60), _step(font) - 1)
