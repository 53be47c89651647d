"""A picture of the I'm the Boss! deal board (Pillow): the 16 deal spaces around a square ring with
the families each needs, the deal tiles on the spaces already dealt, the dollar marker, the top deal
tile, who holds each investor and the deal under way. Only the public view and the names are used."""
from __future__ import annotations

import io

from PIL import Image, ImageDraw

from bot.i18n import say, tr
from cogs.fonts import font
from engines.boss import colour, joined, money
from engines.boss.board import FAMILIES
from engines.text import plural

FAMILY_COLOURS = {
    "red": (214, 48, 49), "blue": (41, 98, 214), "yellow": (245, 205, 30),
    "pink": (240, 128, 186), "orange": (243, 133, 24), "green": (39, 158, 74),
}
W = H = 900
CELL = 170
X0, Y0 = (W - 5 * CELL) // 2, H - 5 * CELL - 12  # the ring: a 5 x 5 grid of cells, outer row only
BG = (236, 230, 214)
SPACE_BG = (255, 252, 243)
COVERED_BG = (204, 202, 198)
INK, SOFT = (25, 25, 25), (95, 90, 85)
GOLD = (214, 170, 30)
DEAL_EDGE = (200, 30, 60)
ACTIVE_BG = (255, 236, 238)
TILE = (120, 116, 110)


def _font(size: float):
    return font(size)


def cell_of(space: int) -> tuple[int, int]:
    """(column, row) of a deal space on the 5 x 5 ring: clockwise, space 1 (index 0) top left."""
    if space < 5:
        return space, 0
    if space < 9:
        return 4, space - 4
    if space < 13:
        return 12 - space, 4
    return 0, 16 - space


def space_box(space: int) -> tuple[int, int, int, int]:
    """Pixel box (x0, y0, x1, y1) of a deal space."""
    c, r = cell_of(space)
    x, y = X0 + c * CELL, Y0 + r * CELL
    return x + 3, y + 3, x + CELL - 3, y + CELL - 3


def _name(names: list[str], seat: int, lang: str = "en") -> str:
    return names[seat] if 0 <= seat < len(names) and names[seat] else tr(lang, "Seat {n}", n=seat + 1)


def _fit(d: ImageDraw.ImageDraw, text: str, font, width: float) -> str:
    """The text, cut with an ellipsis to fit in ``width`` pixels."""
    if d.textlength(text, font=font) <= width:
        return text
    while text and d.textlength(text + "…", font=font) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def _grey(rgb: tuple[int, int, int]) -> tuple[int, int, int]:
    g = sum(rgb) // 3
    return tuple(min(255, (c + 2 * g) // 3 + 30) for c in rgb)  # type: ignore[return-value]


def _square(d: ImageDraw.ImageDraw, x: int, y: int, size: int, family: str, faded: bool = False) -> None:
    rgb = FAMILY_COLOURS[family]
    d.rectangle([x, y, x + size, y + size], fill=_grey(rgb) if faded else rgb,
                outline=(150, 150, 150) if faded else INK, width=2 if size >= 20 else 1)


def _centred(d: ImageDraw.ImageDraw, cx: float, y: float, text: str, font, fill) -> None:
    d.text((cx - d.textlength(text, font=font) / 2, y), text, fill=fill, font=font)


def _space(d: ImageDraw.ImageDraw, i: int, sp: dict, fonts: dict, deal: dict | None, names: list[str],
           lang: str = "en") -> None:
    x0, y0, x1, y1 = space_box(i)
    covered = sp.get("tile") is not None
    active = deal is not None and deal.get("space") == i
    fill = COVERED_BG if covered else ACTIVE_BG if active else SPACE_BG
    d.rectangle([x0, y0, x1, y1], fill=fill, outline=DEAL_EDGE if active else (110, 100, 90), width=6 if active else 2)
    ink = (140, 138, 134) if covered else INK
    d.text((x0 + 9, y0 + 5), str(i + 1), fill=ink, font=fonts["big"])
    shares = say(plural(sp["shares"], "{n} share", "{n} shares"), lang)
    d.text((x1 - 9 - d.textlength(shares, font=fonts["mid"]), y0 + 10), shares, fill=ink, font=fonts["mid"])
    if covered:  # the deal tile lies on the space and hides what it asked for
        tx0, ty0, tx1, ty1 = x0 + 22, y0 + 42, x1 - 22, y1 - 14
        d.rectangle([tx0, ty0, tx1, ty1], fill=TILE, outline=(70, 66, 60), width=2)
        _centred(d, (tx0 + tx1) / 2, ty0 + 8, tr(lang, "deal tile"), fonts["small"], (230, 228, 222))
        _centred(d, (tx0 + tx1) / 2, ty0 + 30, str(sp["tile"]), fonts["huge"], (250, 250, 248))
        return
    must = list(sp["must"])
    size = min(34, (x1 - x0 - 18 - 5 * (len(must) - 1)) // max(1, len(must)))
    for k, f in enumerate(must):
        _square(d, x0 + 9 + k * (size + 5), y0 + 44, size, f)
    if sp.get("more"):
        y = y0 + 44 + size + 12
        label = tr(lang, "+{n} of", n=sp["more"])
        d.text((x0 + 9, y), label, fill=INK, font=fonts["mid"])
        sx = x0 + 9 + int(d.textlength(label, font=fonts["mid"])) + 7
        step = min(24, (x1 - 6 - sx) // max(1, len(sp["from"])))
        for k, f in enumerate(sp["from"]):
            _square(d, sx + k * step, y, step - 4, f)
    if active:  # the boss's name in a band, right of where the marker stands
        bx0, by0, bx1, by1 = x0 + 58, y1 - 46, x1 - 6, y1 - 6
        d.rectangle([bx0, by0, bx1, by1], fill=DEAL_EDGE)
        d.text((bx0 + 6, by0 + 2), tr(lang, "Boss"), fill=(255, 220, 225), font=fonts["small"])
        d.text((bx0 + 6, by0 + 18), _fit(d, _name(names, deal["boss"], lang), fonts["mid"], bx1 - bx0 - 12),
               fill=(255, 255, 255), font=fonts["mid"])


def _marker(d: ImageDraw.ImageDraw, space: int, fonts: dict) -> None:
    x0, y0, x1, y1 = space_box(space)
    r = 19
    cx, cy = x0 + 12 + r, y1 - 10 - r
    d.ellipse([cx - r - 3, cy - r - 3, cx + r + 3, cy + r + 3], fill=INK)
    d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=GOLD, outline=(255, 235, 140), width=2)
    _centred(d, cx, cy - 14, "$", fonts["big"], INK)


def _centre(d: ImageDraw.ImageDraw, public: dict, names: list[str], fonts: dict, lang: str = "en") -> None:
    cx0, cy0 = X0 + CELL + 14, Y0 + CELL + 12
    cx1, cy1 = X0 + 4 * CELL - 14, Y0 + 4 * CELL - 12
    d.rectangle([cx0, cy0, cx1, cy1], fill=(250, 246, 236), outline=(150, 140, 120), width=2)
    x, y = cx0 + 14, cy0 + 10
    top = public.get("top")
    # the top deal tile, drawn as a tile
    d.rectangle([x, y, x + 96, y + 96], fill=TILE, outline=INK, width=2)
    if top:
        _centred(d, x + 48, y + 6, tr(lang, "next deal"), fonts["small"], (235, 232, 226))
        _centred(d, x + 48, y + 22, str(top["number"]), fonts["huge"], (255, 255, 255))
        _centred(d, x + 48, y + 70, money(top["value"]), fonts["mid"], (255, 240, 170))
    else:
        _centred(d, x + 48, y + 38, tr(lang, "no tiles"), fonts["mid"], (235, 232, 226))
    tx = x + 112
    if top:
        d.text((tx, y + 2), tr(lang, "{value} a share", value=money(top["value"])), fill=INK, font=fonts["big"])
    left = public.get("tiles_left", 0)
    d.text((tx, y + 34), tr(lang, "{left} · {made} made",
                            left=plural(left, "{n} deal tile left", "{n} deal tiles left"),
                            made=public.get("deals_done", 0)), fill=INK, font=fonts["mid"])
    if public.get("phase") == "over":
        d.text((tx, y + 60), tr(lang, "The game is over"), fill=DEAL_EDGE, font=fonts["big"])
    elif top and top.get("end"):
        nums = [str(n) for n in top["end"]]
        ends = nums[0] if len(nums) == 1 else tr(lang, "{some} or {last}", some=joined(nums[:-1]),
                                                      last=nums[-1])
        d.text((tx, y + 58), tr(lang, "After this deal, a roll of"), fill=DEAL_EDGE, font=fonts["mid"])
        d.text((tx, y + 77), tr(lang, "{numbers} ends the game", numbers=ends), fill=DEAL_EDGE, font=fonts["mid"])
    elif top:
        d.text((tx, y + 58), tr(lang, "This deal cannot end the game"), fill=SOFT, font=fonts["mid"])
    # the investors
    y += 112
    deal = public.get("deal")
    away = set(deal.get("away", [])) if deal else set()
    d.text((x, y), tr(lang, "Investors"), fill=INK, font=fonts["big"])
    y += 30
    owners = public.get("owners", {})
    labels = {f: tr(lang, "{family}:", family=colour(f)) for f in FAMILIES}
    wx = x + max(100, 42 + max(int(d.textlength(t, font=fonts["mid"])) for t in labels.values()))
    for f in FAMILIES:
        seat = owners.get(f)
        travel = f in away
        _square(d, x, y, 22, f, faded=travel)
        who = tr(lang, "beside the board") if seat is None else _fit(d, _name(names, seat, lang), fonts["mid"], 200)
        d.text((x + 32, y + 2), labels[f], fill=SOFT, font=fonts["mid"])
        d.text((wx, y + 2), who, fill=SOFT if seat is None else INK, font=fonts["mid"])
        if travel:
            tw = d.textlength(who, font=fonts["mid"])
            d.text((wx + 10 + tw, y + 2), tr(lang, "(on travel)"), fill=DEAL_EDGE, font=fonts["mid"])
            d.line([x + 2, y + 2, x + 20, y + 20], fill=DEAL_EDGE, width=3)
            d.line([x + 2, y + 20, x + 20, y + 2], fill=DEAL_EDGE, width=3)
        y += 30
    if deal:  # the deal under way
        y += 4
        d.line([x, y, cx1 - 14, y], fill=(180, 170, 150), width=1)
        y += 8
        title = (tr(lang, "Deal on space {space} (last call)", space=deal["space"] + 1)
                 if deal.get("stage") == "last_call" else tr(lang, "Deal on space {space} (open)",
                                                             space=deal["space"] + 1))
        d.text((x, y), title, fill=DEAL_EDGE, font=fonts["big"])
        y += 28
        pays = tr(lang, " · pays {payout}", payout=money(deal.get("payout", 0)))
        boss = _fit(d, tr(lang, "Boss: {name}", name=_name(names, deal["boss"], lang)), fonts["mid"],
                    cx1 - 14 - x - d.textlength(pays, font=fonts["mid"]))
        d.text((x, y), boss + pays, fill=INK, font=fonts["mid"])
        y += 24
        rows = ((tr(lang, "In:"), deal.get("covered", []), tr(lang, "none yet")),
                (tr(lang, "Needs:"), deal.get("needed", []), tr(lang, "nothing")))
        lx = x + max(64, 10 + max(int(d.textlength(r[0], font=fonts["mid"])) for r in rows))
        for label, fams, empty in rows:
            d.text((x, y), label, fill=SOFT, font=fonts["mid"])
            if fams:
                for k, f in enumerate(fams):
                    _square(d, lx + k * 24, y + 1, 18, f)
            else:
                d.text((lx, y), empty, fill=SOFT, font=fonts["mid"])
            y += 24


def render(public: dict, names: list[str], lang: str = "en") -> bytes:
    """PNG bytes of the deal board as the public view shows it (no hands, no cash), its words in `lang`."""
    img = Image.new("RGB", (W, H), BG)
    d = ImageDraw.Draw(img)
    fonts = {"small": _font(13), "mid": _font(16), "big": _font(22), "huge": _font(40)}
    d.text((X0, 6), tr(lang, "I'm the Boss!"), fill=INK, font=fonts["big"])
    note = (tr(lang, "our board · spaces clockwise from 1") if public.get("board", "ours") == "ours" else
            tr(lang, "printed board · spaces clockwise from 1"))
    d.text((X0 + 5 * CELL - d.textlength(note, font=fonts["small"]), 12), note, fill=SOFT, font=fonts["small"])
    deal = public.get("deal")
    for i, sp in enumerate(public["spaces"]):
        _space(d, i, sp, fonts, deal, names, lang)
    marker = public.get("marker")
    if marker is not None:
        _marker(d, marker, fonts)
    _centre(d, public, names, fonts, lang)
    out = io.BytesIO()
    img.save(out, format="PNG", compress_level=3)  # about twice as fast as the default, a little bigger
    return out.getvalue()
