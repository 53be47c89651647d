"""A picture of the Tokai Baron (東海男爵) map (Pillow): the lines in their colours, the owned route cards as
bands in the owners' colours, the players' pieces and destinations, this turn's path, and a legend.

The lines, stations and fixed labels never change, so they are drawn once (``functools.cache``) onto a
transparent layer (one per language); a render draws the owner bands under it and the pieces over it. Station
names are drawn in the reader's language, as the menus name them: romaji for English (Nagoya), the station's own
name for Japanese (名古屋)."""
from __future__ import annotations

import io
from functools import cache
from math import cos, radians

from PIL import Image, ImageDraw

from bot.i18n import say, tr
from cogs.fonts import font
from engines.text import Money, Name, plural
from engines.tokai import network as nw

W, H = 1400, 1100
MARGIN = 50
BG = (244, 241, 232)
INK, SOFT = (25, 25, 25), (110, 105, 100)

# The lines' real colours, copied from the station database's line records (nagoya_rail_lines.json, matched by
# name); the file is not shipped, so the table lives here. Lines the database gives no colour (None) got one of
# ours, marked "ours", chosen to differ from their neighbours.
LINE_COLOURS = {
    "jr_shinkansen": "#0000FF",
    "jr_tokaido": "#F57615",
    "jr_chuo": "#3B6C9C",
    "jr_kansai": "#3DBC87",
    "jr_takayama": "#8C6E3C",  # ours
    "jr_taita": "#BFBA2F",
    "jr_taketoyo": "#E0A030",  # ours
    "johoku": "#5A8C8C",  # ours
    "meitetsu_nagoya": "#DC143C",
    "meitetsu_toyokawa": "#DC143C",
    "meitetsu_nishio": "#483D8B",
    "meitetsu_gamagori": "#483D8B",
    "meitetsu_mikawa": "#B05A8C",  # ours
    "meitetsu_toyota": "#9ACD32",
    "meitetsu_tokoname": "#0000CD",
    "meitetsu_airport": "#0000CD",
    "meitetsu_kowa": "#00BFFF",
    "meitetsu_seto": "#800080",
    "meitetsu_tsushima": "#FF6347",
    "meitetsu_bisai": "#FF6347",
    "meitetsu_inuyama": "#2E8B57",
    "meitetsu_kakamigahara": "#6B8E23",  # ours
    "meitetsu_hiromi": "#2E8B57",
    "meitetsu_komaki": "#FF69B4",
    "meitetsu_takehana": "#DAA520",
    "meitetsu_hashima": "#DAA520",
    "kintetsu_nagoya": "#0000FF",
    "aonami": "#1E6FB4",  # ours
    "aikan": "#200098",
    "linimo": "#164CA2",
    "subway_higashiyama": "#FFB700",
    "subway_meijo": "#977AD4",
    "subway_meiko": "#977AD4",
    "subway_tsurumai": "#009CBE",
    "subway_sakuradori": "#C4392F",
    "subway_kamiiida": "#E979B9",
}
FALLBACK_COLOUR = "#808080"
# Six vivid seat colours, none equal to a line colour, so a piece is told apart from the line under it.
PLAYER_COLOURS = [(230, 30, 40), (20, 90, 235), (20, 165, 60), (250, 140, 0), (175, 50, 205), (0, 175, 175)]
TRAIL = (255, 225, 40)


def _font(size: float):
    return font(size)


def line_colour(line_id: str) -> str:
    return LINE_COLOURS.get(line_id, FALLBACK_COLOUR)


TITLE = Name("Tokai Baron", "東海男爵", "とうかいだんしゃく")


def label(station: str, lang: str = "en") -> str:
    """A point's name in the reader's language, as the menus write it (engines.tokai.engine.point_name)."""
    s = nw.stations()[station]
    return s["name"] if lang == "ja" else s["en"]


@cache
def _projection() -> tuple[float, float, float, float]:
    """(scale, kx, ox, oy): equirectangular, x = lon * cos(mean lat), y = -lat, scaled and centred on the picture."""
    st = nw.stations().values()
    lats, lons = [s["lat"] for s in st], [s["lon"] for s in st]
    kx = cos(radians(sum(lats) / len(lats)))
    xs, ys = [lon * kx for lon in lons], [-lat for lat in lats]
    scale = min((W - 2 * MARGIN) / (max(xs) - min(xs)), (H - 2 * MARGIN) / (max(ys) - min(ys)))
    ox = (W - scale * (max(xs) - min(xs))) / 2 - scale * min(xs)
    oy = (H - scale * (max(ys) - min(ys))) / 2 - scale * min(ys)
    return scale, kx, ox, oy


@cache
def xy(station: str) -> tuple[int, int]:
    """Pixel position of a station on the picture."""
    scale, kx, ox, oy = _projection()
    s = nw.stations()[station]
    return round(s["lon"] * kx * scale + ox), round(-s["lat"] * scale + oy)


def _box_free(box: tuple[float, float, float, float], taken: list) -> bool:
    x0, y0, x1, y1 = box
    if x0 < 2 or y0 < 2 or x1 > W - 2 or y1 > H - 2:
        return False
    return all(x1 < a0 or x0 > a1 or y1 < b0 or y0 > b1 for a0, b0, a1, b1 in taken)


def _place_label(d: ImageDraw.ImageDraw, station: str, font, taken: list, lang: str = "en"):
    """Top-left of a label beside its point where it hits no other label (right, left, above, below), or None."""
    x, y = xy(station)
    text = label(station, lang)
    w, h = d.textlength(text, font=font), font.size
    for sx, sy in ((x + 7, y - h / 2 - 1), (x - 7 - w, y - h / 2 - 1), (x - w / 2, y - 8 - h), (x - w / 2, y + 7)):
        box = (sx - 1, sy, sx + w + 1, sy + h + 2)
        if _box_free(box, taken):
            taken.append(box)
            return sx, sy
    return None


def _write(d: ImageDraw.ImageDraw, at: tuple[float, float], text: str, font, fill=INK) -> None:
    """Text with a pale halo, readable on top of lines."""
    d.text(at, text, fill=fill, font=font, stroke_width=2, stroke_fill=(255, 255, 250))


@cache
def _base(lang: str = "en") -> Image.Image:
    """The static layer on transparent: lines, stations, and the destination points' labels where they fit."""
    img = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    lines = nw.lines()
    # The Shinkansen first, under the rest: its long straight hops would otherwise hide the local lines.
    for line in sorted(lines.values(), key=lambda ln: not ln.get("shinkansen")):
        pts = [xy(s) for s in line["stations"]] + ([xy(line["stations"][0])] if line.get("loop") else [])
        if line.get("shinkansen"):
            d.line(pts, fill=line_colour(line["id"]), width=9, joint="curve")
            d.line(pts, fill=(255, 255, 255), width=3, joint="curve")  # white core: unlike any ordinary line
        else:
            d.line(pts, fill=line_colour(line["id"]), width=3, joint="curve")
    count: dict[str, int] = {}
    for line in lines.values():
        for s in set(line["stations"]):
            count[s] = count.get(s, 0) + 1
    for s, n in count.items():
        x, y = xy(s)
        r = 5 if n > 1 else 2.5
        d.ellipse([x - r, y - r, x + r, y + r], fill=(255, 255, 255), outline=INK if n > 1 else SOFT,
                  width=2 if n > 1 else 1)
    font = _font(12)
    taken: list = []
    for s in nw.destination_points():  # only the points a destination roll can name, or the map is unreadable
        at = _place_label(d, s, font, taken, lang)
        if at:
            _write(d, at, label(s, lang), font)
    return img


def _tint(rgb: tuple[int, int, int], k: float = 0.5) -> tuple[int, int, int]:
    """``rgb`` mixed with the background: the look of a translucent band without a second layer."""
    return tuple(round(c * k + b * (1 - k)) for c, b in zip(rgb, BG, strict=True))  # type: ignore[return-value]


def _grey(rgb: tuple[int, int, int]) -> tuple[int, int, int]:
    g = sum(rgb) // 3
    return tuple(min(255, (c + 2 * g) // 3 + 40) for c in rgb)  # type: ignore[return-value]


def _name(names: list[str], seat: int, lang: str = "en") -> str:
    return names[seat] if 0 <= seat < len(names) and names[seat] else tr(lang, "Seat {n}", n=seat + 1)


def _bands(d: ImageDraw.ImageDraw, owners: dict) -> None:
    cards = nw.route_cards()
    for card_id, seat in owners.items():
        if seat is None or card_id not in cards:
            continue
        for sec in cards[card_id]["sections"]:
            d.line([xy(s) for s in sec["stations"]], fill=_tint(PLAYER_COLOURS[seat % 6]), width=15, joint="curve")


def _trail(d: ImageDraw.ImageDraw, state: dict) -> None:
    turn = state.get("turn") or {}
    pts = [xy(p[0]) for p in turn.get("path") or [] if p and p[0] in nw.stations()]
    pts = [p for i, p in enumerate(pts) if i == 0 or p != pts[i - 1]]  # a pause repeats the point
    if len(pts) < 2:
        return
    seat = state.get("current", 0)
    d.line(pts, fill=TRAIL, width=11, joint="curve")
    d.line(pts, fill=PLAYER_COLOURS[seat % 6], width=3, joint="curve")


def _pieces(d: ImageDraw.ImageDraw, players: list[dict], font) -> None:
    # Destinations first, so a piece standing on someone's destination stays visible.
    for seat, p in enumerate(players):
        if p.get("out") or not p.get("dest"):
            continue
        x, y = xy(p["dest"])
        r = 13 + 4 * (seat % 3)  # rings of different sizes, so shared destinations all show
        d.ellipse([x - r, y - r, x + r, y + r], outline=PLAYER_COLOURS[seat % 6], width=4)
        d.polygon([(x + r - 2, y - r - 14), (x + r + 12, y - r - 9), (x + r - 2, y - r - 4)],
                  fill=PLAYER_COLOURS[seat % 6], outline=INK)
        d.line([x + r - 2, y - r - 14, x + r - 2, y - r + 2], fill=INK, width=2)
    here: dict[str, int] = {}
    for seat, p in enumerate(players):
        if p.get("out") or not p.get("pos"):
            continue
        k = here.get(p["pos"], 0)
        here[p["pos"]] = k + 1
        x, y = xy(p["pos"])
        x += 14 * k  # pieces on one point stand side by side
        d.ellipse([x - 11, y - 11, x + 11, y + 11], fill=PLAYER_COLOURS[seat % 6], outline=INK, width=2)
        t = str(seat + 1)
        d.text((x - d.textlength(t, font=font) / 2, y - 8), t, fill=(255, 255, 255), font=font)


def legend_box(n_players: int) -> tuple[int, int, int, int]:
    """The legend's pixel box: bottom left, the sea south of Yokkaichi and west of Tokoname, where no station is."""
    x0, y1 = 14, H - 14
    return x0, y1 - 40 - 46 * n_players, x0 + 330, y1


def _player_labels(d: ImageDraw.ImageDraw, players: list[dict], font, lang: str = "en") -> None:
    """Every piece's point and destination named in a box clear of the rings: these must be read, crowded or not."""
    points = dict.fromkeys(s for p in players if not p.get("out") for s in (p.get("pos"), p.get("dest")) if s)
    taken: list = []
    for s in points:
        x, y = xy(s)
        text = label(s, lang)
        w, h = d.textlength(text, font=font), font.size
        # Past the widest ring, on a side with room and clear of the other boxes (central Nagoya is crowded).
        spots = [(x + 26, y - h / 2 - 2), (x - 26 - w, y - h / 2 - 2), (x - w / 2, y - 30 - h), (x - w / 2, y + 28)]
        boxes = [(sx - 5, sy - 3, sx + w + 5, sy + h + 5) for sx, sy in spots]
        clear = [b for b in boxes if _box_free(b, taken)] or [b for b in boxes if _box_free(b, [])] or boxes
        taken.append(clear[0])
        sx, sy = clear[0][0] + 5, clear[0][1] + 3
        d.rectangle([sx - 4, sy - 2, sx + w + 4, sy + font.size + 4], fill=(255, 253, 240), outline=SOFT)
        d.text((sx, sy), text, fill=INK, font=font)


def _legend(d: ImageDraw.ImageDraw, players: list[dict], names: list[str], fonts: dict, lang: str = "en") -> None:
    x0, y0, x1, y1 = legend_box(len(players))
    d.rectangle([x0, y0, x1, y1], fill=(255, 253, 246), outline=(120, 112, 100), width=2)
    d.text((x0 + 12, y0 + 8), say(TITLE, lang), fill=INK, font=fonts["big"])
    y = y0 + 38
    for seat, p in enumerate(players):
        out = p.get("out")
        colour = _grey(PLAYER_COLOURS[seat % 6]) if out else PLAYER_COLOURS[seat % 6]
        ink = (160, 158, 154) if out else INK
        d.ellipse([x0 + 12, y + 4, x0 + 32, y + 24], fill=colour, outline=ink, width=2)
        who = _name(names, seat, lang)[:26]
        name = tr(lang, "{n}. {name} (out)", n=seat + 1, name=who) if out else f"{seat + 1}. {who}"
        d.text((x0 + 42, y + 2), name, fill=ink, font=fonts["mid"])
        n = len(p.get("cards", []))
        info = f"{say(Money(p.get('cash', 0), 'yen'), lang)} · {say(plural(n, '{n} card', '{n} cards'), lang)}"
        if p.get("ticket"):
            info += f" · {tr(lang, 'express ticket')}"
        d.text((x0 + 42, y + 22), info, fill=(160, 158, 154) if out else SOFT, font=fonts["small"])
        y += 46


def render(state: dict, names: list[str], lang: str = "en") -> bytes:
    """PNG bytes of the map with the owned cards, the pieces, the destinations and this turn's path, its words in
    ``lang``."""
    base = _base(lang)
    img = Image.new("RGBA", (W, H), BG)
    d = ImageDraw.Draw(img)
    _bands(d, state.get("owners", {}))  # under the lines, so the line colour still shows in the band
    img.alpha_composite(base)
    d = ImageDraw.Draw(img)
    _trail(d, state)
    players = state.get("players", [])
    fonts = {"small": _font(13), "mid": _font(16), "big": _font(20)}
    _pieces(d, players, fonts["mid"])
    _player_labels(d, players, fonts["mid"], lang)
    _legend(d, players, names, fonts, lang)
    out = io.BytesIO()
    img.convert("RGB").save(out, format="PNG", compress_level=3)  # about twice as fast as the default
    return out.getvalue()
