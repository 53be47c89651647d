"""Pictures of an 18xx game (Pillow): the map, the stock market and the corporations' charters, as PNG bytes.

- ``render_map(board)``: every hex of the title's map in its colour, the track of its tile, cities with one
  slot per token space (tokens in the corporation's colour, a home slot showing its owner's id in grey), towns,
  revenues, offboard revenues by phase, terrain costs, labels, ports, the hex's name ("F9"), the place's name
  and the number of a laid tile; a hex with several cities draws each towards the edges its track runs to
  (pushed apart and kept inside the hex where they would overlap), with its own slots, tokens and home mark.
  Borders on hex edges go over the hexes: an impassable one a thick black line, a costly one a line in its
  kind's colour (water blue, mountain brown, else grey) with its cost in a box on the edge, beside the
  midpoint where track crosses. ``hex_centre(coord)`` is where a hex's centre lands on the picture,
  ``node_centre(board, coord, node)`` a city's or town's. The writing on a hex (its name, label, coordinate,
  revenues, costs) is placed clear of its cities and of each other where the hex has room, moving from its usual
  spot and shrinking a little if it must; ``hex_layout(board, coord)`` says where everything went. A `line:` edge
  is a thin dark line; an edge linked to a far hex (1807's London inset) names that hex; a node's `loc` places it.
- ``render_region(board, boxes)``: crops of the map at the same scale, one under the other (which crops:
  cogs.e18xx.map_region), chosen hexes ringed in red.
- ``render_market(market, positions, colours)``: the share price grid in its colour zones, par cells framed,
  each corporation's marker on its cell (several on one cell left to right in arrival order, so the leftmost
  operates first). A 1-D market is one strip wrapped over lines, its cells coloured by type (close, par kind,
  convert range, max price). ``cell_box(cell_id, market)`` is where a cell lands on the picture.
- ``render_charters(corps)``: one card per corporation from plain dicts (shape in its docstring).
- ``corp_colours(title)``: corporation id -> colour, from the title's companies.json.

Each picture takes ``lang`` ("en" or "ja"): place names, company names, headings and legends are drawn in it
(templates said with bot.i18n.tr; the font writes Japanese, cogs/fonts.py).

A hex is drawn three times over size and shrunk (smooth track and circles) and kept in an LRU cache keyed by
everything it shows (tile, rotation, tokens, colours), so a new picture of a map redraws only the hexes that
changed since the last one; the sea and the legend are drawn once per map. Geometry follows
``engines.e18xx.hexes``: edges are numbered clockwise on screen, 0 at the bottom of a flat-topped hex (at the
lower left of a pointy-topped one); a tile laid with rotation r moves its edge e to (e + r) % 6.
"""
from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from math import atan2, ceil, cos, hypot, pi, radians, sin, sqrt

from PIL import Image, ImageColor, ImageDraw

from bot.i18n import say, tr
from cogs.fonts import font
from engines.e18xx import hexes
from engines.e18xx.board import Board, MapDef, load_map
from engines.e18xx.market import Market, parse_cell_id
from engines.e18xx.tiles import Border, TileDef
from engines.text import N_, Money, plural

# ---- common ---------------------------------------------------------------------------------------------

INK = (20, 20, 20)
SOFT = (95, 95, 95)
FALLBACK_COLOUR = "#808080"
RGB = tuple[int, int, int]


def _font(size: float):
    return font(size)


def _rgb(colour: str | Sequence[int] | None, default: str = FALLBACK_COLOUR) -> RGB:
    if isinstance(colour, tuple | list):
        return tuple(colour[:3])  # type: ignore[return-value]
    try:
        return ImageColor.getrgb(colour or default)[:3]  # type: ignore[return-value]
    except ValueError:
        return ImageColor.getrgb(default)[:3]  # type: ignore[return-value]


def _contrast(rgb: RGB) -> RGB:
    """Black or white, whichever reads better on `rgb`."""
    r, g, b = rgb
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else (255, 255, 255)


def png(img: Image.Image) -> bytes:
    out = io.BytesIO()
    img.convert("RGB").save(out, format="PNG", compress_level=3)
    return out.getvalue()


def corp_colours(title: str = "1889") -> dict[str, str]:
    """Corporation id -> its colour ("#f48221"), from the title's companies.json; {} for a title without one."""
    from engines.e18xx.companies import load_title

    try:
        corps = load_title(title).corporations
    except KeyError:
        return {}
    return {corp.id: corp.color or FALLBACK_COLOUR for corp in corps}


@lru_cache(maxsize=256)
def _token(text: str, fill: RGB, diameter: int) -> Image.Image:
    """A round marker with `text`, drawn big and shrunk so its edge is smooth."""
    s = 4
    big = Image.new("RGBA", (diameter * s, diameter * s), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    d.ellipse((0, 0, diameter * s - 1, diameter * s - 1), fill=INK)
    d.ellipse((s * 1.3, s * 1.3, diameter * s - 1 - s * 1.3, diameter * s - 1 - s * 1.3), fill=fill)
    size = diameter * 0.46 if len(text) <= 2 else diameter * 0.36
    c = diameter * s / 2
    d.text((c, c), text, fill=_contrast(fill), font=_font(size * s), anchor="mm")
    return big.reduce(s)


def _paste_token(img: Image.Image, centre: tuple[float, float], text: str, fill: RGB, diameter: int) -> None:
    tok = _token(text, fill, diameter)
    img.alpha_composite(tok, (round(centre[0] - diameter / 2), round(centre[1] - diameter / 2)))


# ---- the map --------------------------------------------------------------------------------------------

R = 74  # a hex's corner radius on the picture, px: 1889's 12 columns make a map about 1430 px wide
S = 3  # a hex is drawn S times over size, then shrunk
MARGIN = 26
SEA = (200, 222, 233)
APO = sqrt(3) / 2  # the apothem (centre to edge) in units of R
HEX_FILL: dict[str, RGB] = {
    "white": (234, 224, 200),
    "yellow": (253, 233, 0),
    "green": (113, 191, 68),
    "brown": (203, 119, 69),
    "gray": (188, 189, 192),
    "red": (236, 35, 42),
    "blue": (53, 167, 255),
}
PHASE_FILL: dict[str, RGB] = {**HEX_FILL, "diesel": (160, 160, 175)}
TERRAIN = {"mountain": (190, 138, 82), "water": (40, 120, 200)}
TRACK_W = 0.095  # in units of R
SLOT_R = 0.25
_BASE_ANGLE = {"flat": 90, "pointy": 120}  # screen angle (degrees, y down) of edge 0's midpoint

Pt = tuple[float, float]


def _edge_dir(layout: str, edge: int) -> Pt:
    a = radians(_BASE_ANGLE[layout] + 60 * edge)
    return cos(a), sin(a)


def _edge_mid(layout: str, edge: int) -> Pt:
    dx, dy = _edge_dir(layout, edge)
    return APO * dx, APO * dy


def _corner_angle(layout: str, edge: int) -> float:
    """Screen angle (degrees) of the corner between `edge` and `edge + 1`."""
    return (_BASE_ANGLE[layout] + 30 + 60 * edge) % 360


def _corner(layout: str, edge: int, dist: float = 1.0) -> Pt:
    a = radians(_corner_angle(layout, edge))
    return dist * cos(a), dist * sin(a)


def _hex_size(layout: str) -> tuple[int, int]:
    """The 1x size of one hex's picture, even numbers so the centre is a whole pixel."""
    w, h = (2 * R, 2 * APO * R) if layout == "flat" else (2 * APO * R, 2 * R)
    return 2 * ceil(w / 2 + 2), 2 * ceil(h / 2 + 2)


def _line(a: Pt, b: Pt, steps: int = 24) -> list[Pt]:
    return [(a[0] + (b[0] - a[0]) * i / steps, a[1] + (b[1] - a[1]) * i / steps) for i in range(steps + 1)]


def _arc(c: Pt, a: Pt, b: Pt, steps: int = 24) -> list[Pt]:
    """The shorter arc about `c` from `a` to `b` (both at the same distance from `c`)."""
    a1 = atan2(a[1] - c[1], a[0] - c[0])
    a2 = atan2(b[1] - c[1], b[0] - c[0])
    turn = (a2 - a1 + pi) % (2 * pi) - pi
    r = hypot(a[0] - c[0], a[1] - c[1])
    return [(c[0] + r * cos(a1 + turn * i / steps), c[1] + r * sin(a1 + turn * i / steps)) for i in range(steps + 1)]


def _edge_to_edge(layout: str, a: int, b: int) -> list[Pt]:
    """Track between two edges: straight across, a gentle curve (one edge between) or a sharp one (neighbours)."""
    pa, pb = _edge_mid(layout, a), _edge_mid(layout, b)
    step = (b - a) % 6
    if step == 3:
        return _line(pa, pb)
    if step in (1, 5):  # about the corner the two edges share, radius R/2
        return _arc(_corner(layout, a if step == 1 else b), pa, pb)
    middle = (a + 1) % 6 if step == 2 else (b + 1) % 6  # about the centre of the hex beyond the middle edge
    dx, dy = _edge_dir(layout, middle)
    return _arc((2 * APO * dx, 2 * APO * dy), pa, pb)


def _node_edges(paths: Sequence[tuple]) -> tuple[dict[int, list[int]], set[int]]:
    """Node -> edges its paths reach directly; and the nodes on a path to another node."""
    edges: dict[int, list[int]] = {}
    linked: set[int] = set()
    for a, b in paths:
        if isinstance(a, str) and isinstance(b, str):
            linked.update((int(a[1:]), int(b[1:])))
            continue
        if isinstance(a, str):
            a, b = b, a
        if isinstance(b, str):
            edges.setdefault(int(b[1:]), []).append(a)
    return edges, linked


def _plan_nodes(tile: TileDef, paths: Sequence[tuple], layout: str, rotation: int = 0,
                avoid: Sequence[tuple[float, float, float]] = ()) -> tuple[list[Pt], dict[int, list[Pt]]]:
    """Where each node sits (units of R about the centre), and the curve of each town that track runs through.

    A town with exactly two edges sits in the middle of the edge-to-edge curve (drawn as a bar across it); a
    node with a `loc` sits towards that edge (turned with the tile: 1807's London cities); a lone node sits in the
    centre; several nodes sit part way towards their edges (those without track evenly round the centre), then are
    pushed apart where they would overlap, off the circles to `avoid` (a costly border's cost on an edge), and kept
    inside the hex (`_spread`).
    """
    node_edges, linked = _node_edges(paths)
    places: list[Pt] = []
    through: dict[int, list[Pt]] = {}
    count = len(tile.nodes)
    for i, node in enumerate(tile.nodes):
        edges = node_edges.get(i, [])
        if node.kind == "town" and len(edges) == 2 and edges[0] != edges[1] and i not in linked:
            curve = _edge_to_edge(layout, *edges)
            through[i] = curve
            places.append(curve[len(curve) // 2])
        elif node.loc is not None:
            a = radians(_BASE_ANGLE[layout] + 60 * (node.loc + rotation))
            places.append((0.5 * cos(a), 0.5 * sin(a)))
        elif count == 1:
            places.append((0.0, 0.0))
        elif edges:
            mids = [_edge_mid(layout, e) for e in edges]
            places.append((0.6 * sum(p[0] for p in mids) / len(mids), 0.6 * sum(p[1] for p in mids) / len(mids)))
        else:  # side by side on a flat hex, one above the other on a pointy one: clear of most corners
            a = 2 * pi * i / count + (0 if layout == "flat" else pi / 2)
            places.append((0.4 * cos(a), 0.4 * sin(a)))
    if count > 1:
        shapes = [_node_circles(node, i in through) for i, node in enumerate(tile.nodes)]
        fixed = set(through) | set(range(count, count + len(avoid)))
        places = _spread(places + [(x, y) for x, y, _ in avoid], shapes + [[(0.0, 0.0, r)] for *_, r in avoid],
                         fixed, layout)[:count]
    return places, through


def _border_circles(map_def: MapDef, coord: str) -> tuple[tuple[float, float, float], ...]:
    """The room of each costly border's cost written on the hex's edges (see _border_label_at), as circles."""
    return tuple((*_border_label_at(map_def.layout, e), 0.16) for e in range(6)
                 if (b := map_def.borders.get((coord, e))) is not None and not b.impassable)


def _city_circles(slots: int) -> tuple[list[Pt], float]:
    """A city's slot centres about its own centre, and the slots' radius."""
    n = max(1, slots)
    r = SLOT_R if n < 3 else SLOT_R * 0.92
    return [(x * r / SLOT_R, y * r / SLOT_R) for x, y in _slot_centres(n)], r


def _node_circles(node, on_curve: bool) -> list[tuple[float, float, float]]:
    """Circles (x, y, radius about the node's centre) that cover what is drawn for a node."""
    if node.kind == "city":
        centres, r = _city_circles(node.slots)
        return [(x, y, r + 0.035) for x, y in centres]
    if node.kind == "town":
        return [(0.0, 0.0, 0.2 if on_curve else 0.1)]
    return [(-0.3, 0.0, 0.15), (0.0, 0.0, 0.15), (0.3, 0.0, 0.15)]  # the row of revenue boxes


def _spread(places: list[Pt], shapes: list[list[tuple[float, float, float]]], fixed: set[int],
            layout: str) -> list[Pt]:
    """Push overlapping nodes apart and keep each inside the hex, a little in from its edges so the track to
    them shows; `fixed` nodes (towns on a curve) stay put."""
    pts = [list(p) for p in places]
    gap, inset = 0.06, 0.1
    for _ in range(100):
        moved = False
        for i in range(len(pts)):
            for j in range(i + 1, len(pts)):
                if i in fixed and j in fixed:
                    continue
                # the worst overlapping pair of circles, and the way from i's to j's
                overlap, dx, dy = max(
                    (ri + rj + gap - hypot(pts[j][0] + xj - pts[i][0] - xi, pts[j][1] + yj - pts[i][1] - yi),
                     pts[j][0] + xj - pts[i][0] - xi, pts[j][1] + yj - pts[i][1] - yi)
                    for xi, yi, ri in shapes[i] for xj, yj, rj in shapes[j])
                if overlap <= 1e-3:
                    continue
                if hypot(dx, dy) < 1e-6:  # one on top of the other: apart across the line to the centre
                    dx, dy = pts[j][0] - pts[i][0], pts[j][1] - pts[i][1]
                    if hypot(dx, dy) < 1e-6:
                        dx, dy = (-pts[i][1], pts[i][0]) if hypot(*pts[i]) > 1e-6 else (1.0, 0.0)
                d = hypot(dx, dy)
                ux, uy = dx / d, dy / d
                share_i = 0.0 if i in fixed else (1.0 if j in fixed else 0.5)
                step = 0.6 * overlap  # less than all of it: the moves of other pairs may help too
                pts[i][0] -= ux * step * share_i
                pts[i][1] -= uy * step * share_i
                pts[j][0] += ux * step * (1 - share_i)
                pts[j][1] += uy * step * (1 - share_i)
                moved = True
        for i, p in enumerate(pts):
            if i not in fixed:
                moved |= _keep_inside(p, shapes[i], layout, inset)
        if not moved:
            break
    return [(p[0], p[1]) for p in pts]


def _keep_inside(p: list[float], shape: list[tuple[float, float, float]], layout: str, inset: float) -> bool:
    """Move a node at `p` straight in from any edge it crosses (so it may slide along that edge); did it move?"""
    moved = False
    for e in range(6):
        ux, uy = _edge_dir(layout, e)
        excess = p[0] * ux + p[1] * uy + max(x * ux + y * uy + r for x, y, r in shape) - (APO - inset)
        if excess > 1e-3:
            p[0] -= ux * excess
            p[1] -= uy * excess
            moved = True
    return moved


def _slot_centres(slots: int) -> list[Pt]:
    r = SLOT_R
    if slots <= 1:
        return [(0.0, 0.0)]
    if slots == 2:
        return [(-r, 0.0), (r, 0.0)]
    if slots == 3:
        rr = 2 * r / sqrt(3)
        return [(rr * cos(radians(a)), rr * sin(radians(a)) - 0.03) for a in (-150, -30, 90)]
    if slots == 4:
        return [(-r, -r), (r, -r), (-r, r), (r, r)]
    rr = r / sin(pi / slots)
    return [(rr * cos(2 * pi * k / slots - pi / 2), rr * sin(2 * pi * k / slots - pi / 2)) for k in range(slots)]


class _Pen:
    """Draws on one hex's big picture in units of R about the hex centre."""

    def __init__(self, img: Image.Image):
        self.img = img
        self.d = ImageDraw.Draw(img)
        self.u = R * S
        self.cx, self.cy = img.width / 2, img.height / 2

    def p(self, pt: Pt) -> Pt:
        return self.cx + pt[0] * self.u, self.cy + pt[1] * self.u

    def circle(self, c: Pt, r: float, fill=None, outline=None, width: float = 0.0) -> None:
        x, y = self.p(c)
        ru = r * self.u
        self.d.ellipse((x - ru, y - ru, x + ru, y + ru), fill=fill, outline=outline,
                       width=max(1, round(width * self.u)) if outline else 0)

    def line(self, pts: Sequence[Pt], fill, width: float) -> None:
        self.d.line([self.p(q) for q in pts], fill=fill, width=max(1, round(width * self.u)), joint="curve")

    def polygon(self, pts: Sequence[Pt], fill=None, outline=None, width: float = 0.0) -> None:
        self.d.polygon([self.p(q) for q in pts], fill=fill, outline=outline,
                       width=max(1, round(width * self.u)) if outline else 0)

    def rect(self, box: tuple[float, float, float, float], fill=None, outline=None, width: float = 0.0) -> None:
        x0, y0 = self.p(box[:2])
        x1, y1 = self.p(box[2:])
        self.d.rectangle((x0, y0, x1, y1), fill=fill, outline=outline,
                         width=max(1, round(width * self.u)) if outline else 0)

    def text(self, at: Pt, text: str, size: float, fill=INK, halo: RGB | None = None, anchor: str = "mm") -> None:
        """`size` in px of the finished picture; a halo in the hex's colour keeps it readable over track."""
        kw = {"stroke_width": round(1.6 * S), "stroke_fill": halo} if halo else {}
        self.d.text(self.p(at), text, fill=fill, font=_font(size * S), anchor=anchor, **kw)

    def text_width(self, text: str, size: float) -> float:
        """Width in units of R."""
        return self.d.textlength(text, font=_font(size * S)) / self.u


def _fit_lines(pen: _Pen, text: str, size: float, width: float) -> tuple[list[str], float]:
    """`text` on one line, else broken in two at the space nearest the middle, shrinking the font if need be."""
    for s in (size, size - 1, size - 2):
        if pen.text_width(text, s) <= width:
            return [text], s
    spaces = [i for i, ch in enumerate(text) if ch == " "]
    if spaces:
        cut = min(spaces, key=lambda i: abs(i - len(text) / 2))
        lines = [text[:cut].strip(), text[cut:].strip()]
        for s in (size, size - 1, size - 2):
            if max(pen.text_width(line, s) for line in lines) <= width:
                return lines, s
        return lines, size - 2
    return [text], size - 2


def _draw_city(pen: _Pen, at: Pt, slots: Sequence[str | None], reserved: str | None,
               colours: Mapping[str, str]) -> None:
    n = max(1, len(slots))
    offsets, r = _city_circles(n)
    centres = [(at[0] + x, at[1] + y) for x, y in offsets]
    ring = 0.035
    for rad, colour in ((r + ring, INK), (r, (255, 255, 255))):  # a black hull, then a white one inside it
        for c in centres:
            pen.circle(c, rad, fill=colour)
        if n == 2:
            pen.line(centres, colour, 2 * rad)
        elif n > 2:
            pen.line([*centres, centres[0]], colour, 2 * rad)
            pen.polygon(centres, fill=colour)
    for i, c in enumerate(centres):
        pen.circle(c, r * 0.96, outline=(150, 150, 150), width=0.012)
        corp = slots[i] if i < len(slots) else None
        if corp:
            fill = _rgb(colours.get(corp))
            pen.circle(c, r * 0.9, fill=fill, outline=INK, width=0.02)
            pen.text(c, corp, _fitting(pen, corp, 13 if len(corp) <= 2 else 10, 1.6 * r), fill=_contrast(fill))
        elif i == 0 and reserved:
            pen.text(c, reserved, _fitting(pen, reserved, 12, 1.6 * r), fill=(150, 150, 150))


def _fitting(pen: _Pen, text: str, size: float, width: float, smallest: float = 7) -> float:
    """The size, at most `size`, at which `text` is no wider than `width` (a long id in a token: 1890's KobeElec)."""
    while size > smallest and pen.text_width(text, size) > width:
        size -= 0.5
    return size


def _draw_town(pen: _Pen, at: Pt, curve: list[Pt] | None) -> None:
    if curve is None:
        pen.circle(at, 0.1, fill=INK)
        return
    k = len(curve) // 2
    tx, ty = curve[k + 1][0] - curve[k - 1][0], curve[k + 1][1] - curve[k - 1][1]
    norm = hypot(tx, ty) or 1.0
    tx, ty = tx / norm, ty / norm  # along the track
    nx, ny = -ty, tx  # across it
    half_l, half_w = 0.2, 0.06
    pen.polygon([(at[0] + sx * nx * half_l + sy * tx * half_w, at[1] + sx * ny * half_l + sy * ty * half_w)
                 for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))], fill=INK)


def _offboard_box(pen: _Pen, at: Pt, table: Sequence[tuple[str, int]]) -> Box:
    """The room of an offboard's revenue boxes (see _draw_offboard)."""
    total = sum(max(0.3, pen.text_width(str(v), 12) + 0.1) for _, v in table)
    return at[0] - total / 2, at[1] - 0.13, at[0] + total / 2, at[1] + 0.13


def _draw_offboard(pen: _Pen, at: Pt, table: Sequence[tuple[str, int]]) -> None:
    """Revenue by phase: one box per phase in its colour, left to right."""
    size = 12
    widths = [max(0.3, pen.text_width(str(v), size) + 0.1) for _, v in table]
    total, h = sum(widths), 0.26
    x = at[0] - total / 2
    for (phase, value), w in zip(table, widths, strict=True):
        fill = PHASE_FILL.get(phase, (255, 255, 255))
        pen.rect((x, at[1] - h / 2, x + w, at[1] + h / 2), fill=fill, outline=INK, width=0.025)
        pen.text((x + w / 2, at[1]), str(value), size, fill=_contrast(fill))
        x += w


def _draw_revenue(pen: _Pen, at: Pt, value: int, r: float = 0.17) -> None:
    pen.circle(at, r, fill=(255, 255, 255), outline=INK, width=0.025)
    pen.text(at, str(value), (12 if value < 100 else 10) * r / 0.17)


def _draw_cost(pen: _Pen, at: Pt, cost: int, terrain: Sequence[str], k: float = 1.0) -> None:
    """A terrain sign with its cost, or a boxed cost; `k` times the usual size (a crowded hex's is smaller)."""
    x, y = at
    if "mountain" in terrain:
        lift = (0.05 if "water" in terrain else 0.0) * k
        pen.polygon([(x, y - 0.2 * k - lift), (x + 0.23 * k, y + 0.17 * k - lift), (x - 0.23 * k, y + 0.17 * k - lift)],
                    fill=TERRAIN["mountain"], outline=INK, width=0.018)
        pen.text((x, y + 0.07 * k - lift), str(cost), 11 * k)
        if "water" in terrain:
            pen.line(_wave((x, y + 0.19 * k), 0.2 * k), TERRAIN["water"], 0.035 * k)
    elif "water" in terrain:
        pen.line(_wave((x, y - 0.11 * k), 0.2 * k), TERRAIN["water"], 0.035 * k)
        pen.line(_wave((x, y - 0.03 * k), 0.2 * k), TERRAIN["water"], 0.035 * k)
        pen.text((x, y + 0.1 * k), str(cost), 11 * k, fill=(10, 60, 130))
    else:  # a tile's own upgrade cost
        w = pen.text_width(str(cost), 11 * k) / 2 + 0.06 * k
        pen.rect((x - w, y - 0.1 * k, x + w, y + 0.1 * k), fill=(255, 255, 255), outline=INK, width=0.018)
        pen.text((x, y), str(cost), 11 * k)


def _wave(at: Pt, half: float) -> list[Pt]:
    return [(at[0] - half + 2 * half * i / 16, at[1] + 0.175 * half * sin(2 * pi * i / 8)) for i in range(17)]


def _draw_port(pen: _Pen, at: Pt) -> None:
    x, y = at
    navy, w = (20, 50, 110), 0.03
    pen.circle((x, y - 0.13), 0.04, outline=navy, width=w)
    pen.line([(x, y - 0.09), (x, y + 0.15)], navy, w)
    pen.line([(x - 0.08, y - 0.03), (x + 0.08, y - 0.03)], navy, w)
    pen.line(_arc((x, y + 0.03), (x - 0.13, y + 0.03), (x + 0.13, y + 0.03))[::-1][:13]
             + _arc((x, y + 0.03), (x, y + 0.16), (x + 0.13, y + 0.03))[1:], navy, w)


def _ang_dist(a: float, b: float) -> float:
    return abs((a - b + 180) % 360 - 180)


_PREFER = {  # screen angles of the corners each kind of mark would like, best first
    "revenue": (180, 240, 300, 0, 120, 60),
    "label": (300, 240, 0, 180, 60, 120),
    "cost": (60, 120, 0, 180, 240, 300),
    "port": (120, 60, 180, 0, 240, 300),
}


Box = tuple[float, float, float, float]  # left, top, right, bottom in units of R about a hex's centre


@dataclass
class HexLayout:
    """Where things are on one hex's picture, in units of R about its centre: `cities`, the circles of its cities'
    token slots (x, y, radius); `shapes`, other nodes' circles (towns); `marks`, each text or sign written on it
    (kind, text, box): the place's name ("name", one per line), the tile's label, the hex's coordinate, a laid tile's
    number, revenues, costs, ports, an offboard's revenue boxes. Marks are placed clear of the cities, the other
    nodes and each other where the hex has room (``clash``)."""

    cities: list[tuple[float, float, float]] = field(default_factory=list)
    shapes: list[tuple[float, float, float]] = field(default_factory=list)
    marks: list[tuple[str, str, Box]] = field(default_factory=list)

    def clash(self, box: Box) -> float:
        """How far `box` runs into the cities, other nodes and marks (0: clear of them all)."""
        total = 0.0
        for x, y, r in (*self.cities, *self.shapes):
            total += max(0.0, r - _box_distance(box, x, y))
        for _, _, other in self.marks:
            total += max(0.0, min(box[2], other[2]) - max(box[0], other[0])) * \
                max(0.0, min(box[3], other[3]) - max(box[1], other[1])) * 10
        return total

    def mark(self, kind: str, text: str, box: Box) -> None:
        self.marks.append((kind, text, box))


def _box_distance(box: Box, x: float, y: float) -> float:
    """From a point to the nearest point of a box (0 inside it)."""
    return hypot(max(box[0] - x, 0.0, x - box[2]), max(box[1] - y, 0.0, y - box[3]))


def _inside_hex(box: Box, layout: str, margin: float = 0.04) -> bool:
    return all(x * ux + y * uy <= APO - margin for e in range(6) for ux, uy in [_edge_dir(layout, e)]
               for x in (box[0], box[2]) for y in (box[1], box[3]))


def _text_box(text: str, size: float, at: Pt, halo: bool = False, anchor: str = "mm") -> Box:
    """The ink of `text` written at `at` (units of R) in `size` px of the finished picture, with its halo."""
    left, top, right, bottom = _font(size * S).getbbox(text, anchor=anchor)
    pad = 1.6 * S if halo else 0.0
    u = R * S
    return at[0] + (left - pad) / u, at[1] + (top - pad) / u, at[0] + (right + pad) / u, at[1] + (bottom + pad) / u


def _square(at: Pt, half_w: float, top: float, bottom: float | None = None) -> Box:
    return at[0] - half_w, at[1] - top, at[0] + half_w, at[1] + (top if bottom is None else bottom)


def _mark_box(kind: str, at: Pt, pen: _Pen, text: str = "", size: float = 20, terrain: Sequence[str] = ()) -> Box:
    """The room a mark drawn at `at` takes: a revenue circle, a label, a cost sign (terrain or a box), a port."""
    if kind == "revenue":
        return _square(at, size, size)
    if kind == "label":
        return _text_box(text, size, at)
    if kind == "port":
        return _square(at, 0.14, 0.18, 0.17)
    k = size / 20  # the cost sign's scale (size 20: as usual)
    if "mountain" in terrain:
        lift = 0.05 if "water" in terrain else 0.0
        return _square(at, 0.24 * k, (0.21 + lift) * k, (0.22 if "water" in terrain else 0.18 - lift) * k)
    if "water" in terrain:
        return _square(at, 0.21 * k, 0.16 * k, 0.19 * k)
    return _square(at, pen.text_width(text, 11 * k) / 2 + 0.07 * k, 0.11 * k)


@lru_cache(maxsize=4096)
def _hex_image(map_def: MapDef, coord: str, tile_name: str, rotation: int, laid: bool,
               slots: tuple[tuple[str | None, ...], ...], reserved: tuple[str | None, ...] | str | None,
               colours: tuple[tuple[str, str], ...], lang: str = "en") -> Image.Image:
    """One hex as it stands, on transparent, at the final size (1x); its centre is the picture's centre; its
    place name in `lang`.

    slots: per node, the corporations in its token slots. reserved: per node, the corporation owed the city's
    first slot; a bare string is the hex's first city's."""
    return _draw_hex(map_def, coord, tile_name, rotation, laid, slots, reserved, colours, lang)[0]


def hex_layout(board: Board, coord: str, lang: str = "en") -> HexLayout:
    """Where hex `coord` of `board` has its cities and marks (see HexLayout), as render_map draws it."""
    tile = board.tile(coord)
    slots = tuple(board.slots(coord, i) if node.kind == "city" else () for i, node in enumerate(tile.nodes))
    reserved = tuple(board.reservation(coord, i) if node.kind == "city" else None for i, node in enumerate(tile.nodes))
    laid = coord in board.laid
    return _draw_hex(board.map, coord, tile.name, board.rotation(coord) if laid else 0, laid, slots, reserved, (),
                     lang)[1]


def _draw_hex(map_def: MapDef, coord: str, tile_name: str, rotation: int, laid: bool,
              slots: tuple[tuple[str | None, ...], ...], reserved: tuple[str | None, ...] | str | None,
              colours: tuple[tuple[str, str], ...], lang: str = "en") -> tuple[Image.Image, HexLayout]:
    """One hex's picture (see _hex_image) and its layout."""
    layout = map_def.layout
    tile = map_def.tiles[tile_name] if laid else map_def.printed[coord]
    if not isinstance(reserved, tuple):
        first = tile.city_indexes()[:1]
        reserved = tuple(reserved if i in first else None for i in range(len(tile.nodes)))
    colour_of = dict(colours)
    w1, h1 = _hex_size(layout)
    big = Image.new("RGBA", (w1 * S, h1 * S), (0, 0, 0, 0))
    pen = _Pen(big)
    room = HexLayout()
    fill = HEX_FILL.get(tile.colour, (255, 255, 255))
    outline = [_corner(layout, e, 1.0 + 0.6 / R) for e in range(6)]
    pen.polygon(outline, fill=fill)
    pen.polygon([_corner(layout, e) for e in range(6)], outline=(70, 70, 70), width=1.2 / R)

    paths = tile.rotated_paths(rotation)
    places, through = _plan_nodes(tile, paths, layout, rotation, _border_circles(map_def, coord))
    track: list[list[Pt]] = list(through.values())
    for a, b in paths:
        if isinstance(a, int) and isinstance(b, int):
            track.append(_edge_to_edge(layout, a, b))
        elif isinstance(a, str) and isinstance(b, str):
            track.append([places[int(a[1:])], places[int(b[1:])]])
        else:
            edge, node = (a, int(b[1:])) if isinstance(a, int) else (b, int(a[1:]))
            if node not in through:
                track.append([_edge_mid(layout, edge), places[node]])
    for line in track[len(through):] + track[:len(through)]:  # the towns' curves last, as before
        pen.line(line, INK, TRACK_W)
    for i, node in enumerate(tile.nodes):
        x, y = places[i]
        if node.kind == "city":
            centres, r = _city_circles(node.slots)
            room.cities += [(x + cx, y + cy, r + 0.035) for cx, cy in centres]
        elif node.kind == "town":
            room.shapes += [(x + cx, y + cy, r) for cx, cy, r in _node_circles(node, i in through)]
        elif node.phase_revenue:
            room.mark("offboard", "", _offboard_box(pen, places[i], node.phase_revenue))

    exits = tile.exits(rotation)
    flat = layout == "flat"
    taken: dict[int, int] = {}  # corner (named by the edge before it, clockwise) -> how bad a mark there would be

    def mark(e: int, badness: int) -> None:
        taken[e] = max(taken.get(e, 0), badness)

    def angle(e: int) -> float:
        return radians(_corner_angle(layout, e))

    node_edges = _node_edges(paths)[0]
    curves = [(a, b) for a, b in paths if isinstance(a, int) and isinstance(b, int)]
    for a, b in curves + [(node_edges[i][0], node_edges[i][1]) for i in through]:
        step = (b - a) % 6
        if step in (1, 5):  # a sharp curve runs round its corner
            mark(a if step == 1 else b, 3)
    for i, at in enumerate(places):
        for e in range(6):
            cx, cy = _corner(layout, e, 0.64)
            if tile.nodes[i].kind == "offboard":
                if abs(cy - at[1]) < 0.2:  # the revenue boxes run across the middle
                    mark(e, 3)
            elif at != (0.0, 0.0) and min(hypot(cx - at[0] - x, cy - at[1] - y)
                                          for x, y, _ in _node_circles(tile.nodes[i], i in through)) < 0.42:
                mark(e, 3)
    pill = any(n.kind == "city" and n.slots > 1 and places[i] == (0.0, 0.0) for i, n in enumerate(tile.nodes))
    pill_side = 0.9 if flat else 0.8  # corners beside a centred two-slot city (pointy ones sit lower)
    for e in range(6):  # a costly border's cost is written on the edge, by a corner: keep marks off it
        border = map_def.borders.get((coord, e))
        if border and not border.impassable:
            lx, ly = _border_label_at(layout, e)
            room.mark("border", str(border.cost), _square((lx, ly), pen.text_width(str(border.cost), 11) / 2 + 0.06,
                                                          0.1))
            for k in range(6):
                cx, cy = _corner(layout, k, 0.64)
                if hypot(cx - lx, cy - ly) < 0.45:
                    mark(k, 3)
    CENTRE = 6  # a tile of several nodes may put a mark in its middle when no node or track is there
    if len(tile.nodes) > 1:
        on_track = [q for line in track for a, b in zip(line, line[1:], strict=False) for q in _line(a, b, 8)]
        clear = min([hypot(x, y) for x, y in on_track] + [hypot(at[0] + x, at[1] + y) - r for i, at in enumerate(places)
                                                          for x, y, r in _node_circles(tile.nodes[i], i in through)])
        mark(CENTRE, 0 if clear > 0.14 else 10)  # room for a revenue circle or a label's letter or two

    # The place's name goes at the bottom unless track leaves by a bottom edge and none by a top one (a flat hex
    # has one of each, a pointy one two); where a city or a mark is in the way, it moves (_place_name).
    bottom_edges = {e for e in range(6) if _edge_dir(layout, e)[1] > 0.8}
    top_edges = {e for e in range(6) if _edge_dir(layout, e)[1] < -0.8}
    name_at_top = bool(bottom_edges & exits) and not top_edges & exits
    from cogs.e18xx.words import city_name

    city = city_name(map_def, coord)
    name = say(city, lang) if city else None
    lines, size = _fit_lines(pen, name, 11, 1.22) if name else ([], 11)
    if note := _inset_note(map_def, coord, lang):  # 1807's London: the small hex and its inset name each other
        lines = [*lines, note]
    for e in range(6):
        if lines and ((sin(angle(e)) < -0.3) if name_at_top else (sin(angle(e)) > 0.3)):
            mark(e, 2)
    # Small text tucked into corners: the hex's name at the top left, a laid tile's number at the right, on
    # the side away from a long place name.
    mark(min(range(6), key=lambda e: _ang_dist(240 if flat else 270, _corner_angle(layout, e))), 1)
    wide = lines and max(pen.text_width(line, size) for line in lines) > 0.7
    number_low = name_at_top or not wide
    number_corner = max((e for e in range(6) if (sin(angle(e)) > 0.3) == number_low), key=lambda e: cos(angle(e)))
    if laid:
        mark(number_corner, 1)
    for e in range(6):  # an edge joined to a hex other than the one beside it says which (1807's London inset)
        if (other := map_def.links.get((coord, e))) is not None:
            mid = _edge_mid(layout, e)
            at = (0.74 * mid[0], 0.74 * mid[1])  # on the track's end: the track goes on to that hex
            box = _text_box(other, 11, at)
            box = (box[0] - 0.06, box[1] - 0.05, box[2] + 0.06, box[3] + 0.05)
            pen.rect(box, fill=(255, 255, 255), outline=LINK_INK, width=0.03)
            pen.text(at, other, 11, fill=LINK_INK)
            room.mark("link", other, box)
    coord_at, coord_anchor = _coord_spot(room, coord, layout)
    room.mark("coord", coord, _text_box(coord, 10, coord_at, halo=True, anchor=coord_anchor))
    number_at = _corner(layout, number_corner, 0.84)
    if laid:
        room.mark("number", tile.name, _text_box(tile.name, 10, number_at, halo=True))

    def corner_for(kind: str, box_at, wide: bool = False, near: Pt | None = None, commit: bool = True) -> Pt:
        """The best free corner for a mark (its room at a point: `box_at`), clear of the cities and other marks where
        one is; a wide one (a terrain sign) sits nearer the centre at the sides. With `near`, of the free corners
        the one nearest that point (a city's own revenue)."""
        prefs = _PREFER[kind]

        def spot(e: int, alt: int) -> Pt:
            """Corner `e`'s usual spot (alt 0), or one further into the corner (1) or nearer the centre (2); or by
            the middle of edge `e` (3)."""
            if e == CENTRE:
                return 0.0, 0.0
            if alt == 3:  # towards the middle of edge e, where no track leaves by it
                ux, uy = _edge_dir(layout, e)
                return 0.6 * ux, 0.6 * uy
            if alt:
                return _corner(layout, e, (0.72, 0.5)[alt - 1])
            if not flat and sin(angle(e)) < -0.9 and taken.get(e, 0) < 3:  # a pointy top corner: below its
                return _corner(layout, e, 0.55)  # coordinate, unless a node is there (better over it than a token)
            return _corner(layout, e, (0.62 if wide else 0.7) if abs(cos(angle(e))) > 0.9 else 0.64)

        def rank(choice: tuple[int, int]) -> tuple[int, int, float, int]:
            e, alt = choice
            box = box_at(spot(e, alt))
            clash = room.clash(box) + (0.0 if _inside_hex(box, layout, -0.04) else 1.0)  # a box's corner may
            # stick out a little: a circle's or a glyph's ink does not fill it
            if clash > 1e-3:  # where every spot is in the way of something, the one least in the way
                return 100, clash, 0.0, 0
            if e == CENTRE:  # only where every corner is taken
                return taken[e] + 1, 0, 0.0, len(prefs)
            if alt == 3:  # between two corners: after every clear corner
                return 50, alt, 0.0, 0
            extra = 2 if pill and wide and abs(cos(angle(e))) > pill_side else 0
            liking = min(i for i, a in enumerate(prefs) if _ang_dist(a, _corner_angle(layout, e)) <= 30)
            far = hypot(_corner(layout, e)[0] - near[0], _corner(layout, e)[1] - near[1]) if near else 0.0
            return taken.get(e, 0) + extra, alt, far, liking

        choices = [(e, alt) for e in range(6) for alt in range(3)] + ([(CENTRE, 0)] if CENTRE in taken else []) \
            + [(e, 3) for e in range(6) if e not in exits]
        best = min(choices, key=rank)
        at = spot(*best)  # before the corner is taken: that moves a pointy top corner's spot
        if commit:
            taken[best[0]] = 10
        return at

    for i, node in enumerate(tile.nodes):
        if node.kind == "city":
            _draw_city(pen, places[i], slots[i] if i < len(slots) else (None,) * node.slots,
                       reserved[i] if i < len(reserved) else None, colour_of)
        elif node.kind == "town":
            _draw_town(pen, places[i], through.get(i))
        else:
            _draw_offboard(pen, places[i], node.phase_revenue)
    # One revenue per value, as 18xx.games prints an OO tile's: several values each go by their own nodes.
    paying: dict[int, list[Pt]] = {}
    for i, node in enumerate(tile.nodes):  # an offboard's revenue by phase is in its boxes; a flat one is a circle
        if node.revenue and not node.hide_revenue and not (node.kind == "offboard" and node.phase_revenue):
            paying.setdefault(node.revenue, []).append(places[i])
    for value, at in paying.items():
        near = (sum(x for x, _ in at) / len(at), sum(y for _, y in at) / len(at)) if len(paying) > 1 else None
        for r in (0.17, 0.14):  # a crowded hex (three cities) has it smaller
            def revenue_at(p: Pt, r: float = r) -> Box:
                return _mark_box("revenue", p, pen, size=r)
            spot = corner_for("revenue", revenue_at, near=near, commit=False)
            if room.clash(revenue_at(spot)) <= 1e-3:
                break
        spot = corner_for("revenue", revenue_at, near=near)
        room.mark("revenue", str(value), revenue_at(spot))
        _draw_revenue(pen, spot, value, r)
    name_below = None  # a label written in a pointy hex's top corner pushes a name at the top below it (Kyoto, B17)
    if tile.label:
        # A long label (BGM) smaller where it would not fit at full size: the biggest that is clear and leaves the
        # name room at its size or a point smaller, else the biggest that is clear, else the smallest.
        fits = []
        for label_size in (20, 17, 14, 12):
            def label_at(p: Pt, z: float = label_size) -> Box:
                return _mark_box("label", p, pen, tile.label, z)
            at = corner_for("label", label_at, commit=False)
            if room.clash(label_at(at)) <= 1e-3:
                fits.append(label_size)
                if not lines or _name_room(room, label_at(at), lines, size, name, name_at_top, name_below, layout):
                    break
        else:
            label_size = fits[0] if fits else label_size

        def label_at(p: Pt, z: float = label_size) -> Box:
            return _mark_box("label", p, pen, tile.label, z)
        at = corner_for("label", label_at)
        room.mark("label", tile.label, _mark_box("label", at, pen, tile.label, label_size))
        pen.text(at, tile.label, label_size)
        if name_at_top and not flat and abs(at[0]) < 0.05 and at[1] < 0:
            name_below = at[1] + 0.24
    if tile.cost:
        text = str(tile.cost)
        for k in (1.0, 0.8):  # a crowded hex's sign smaller
            def cost_at(p: Pt, k: float = k) -> Box:
                return _mark_box("cost", p, pen, text, 20 * k, tile.terrain)
            at = corner_for("cost", cost_at, wide=bool(tile.terrain), commit=False)
            if room.clash(cost_at(at)) <= 1e-3:
                break
        at = corner_for("cost", cost_at, wide=bool(tile.terrain))
        room.mark("cost", text, cost_at(at))
        _draw_cost(pen, at, tile.cost, tile.terrain, k)
    if "port" in tile.icons:
        at = corner_for("port", lambda p: _mark_box("port", p, pen))
        room.mark("port", "", _mark_box("port", at, pen))
        _draw_port(pen, at)

    pen.text(coord_at, coord, 10, fill=(70, 70, 70), halo=fill, anchor=coord_anchor)
    if lines:
        for line, at, line_size in _place_name(room, lines, size, name, name_at_top, name_below, layout, pen):
            pen.text(at, line, line_size, halo=fill)
    if laid:
        pen.text(number_at, tile.name, 10, fill=(50, 50, 50), halo=fill)
    return big.reduce(S), room


LINK_INK = (20, 50, 110)
INSET_NOTES = {"small": N_("enlarged at {hex}"), "inset": N_("pays as {hex}")}


def _inset_note(map_def: MapDef, coord: str, lang: str) -> str | None:
    """On a small hex drawn enlarged elsewhere (1807's U23), where; on the middle of that inset (L28), whose tile's
    revenue its cities pay."""
    if coord in map_def.mirrors and map_def.severed:
        return tr(lang, INSET_NOTES["small"], hex=min(map_def.severed))
    if coord in map_def.severed and map_def.mirrors:
        return tr(lang, INSET_NOTES["inset"], hex=min(map_def.mirrors))
    return None


def _coord_spot(room: HexLayout, coord: str, layout: str) -> tuple[Pt, str]:
    """Where the hex's coordinate is written (and its anchor): at the top left of a flat hex, in the top corner of a
    pointy one; where a city is there (1807's London inset, 1890's Osaka), the first other corner clear of it."""
    if layout == "flat":
        x = -(1 - 0.72 / sqrt(3)) + 0.06
        spots = [((x, -0.72), "lm"), ((-x, -0.72), "rm"), ((x, 0.72), "lm"), ((-x, 0.72), "rm")]
    else:
        spots = [((0.0, -0.8), "mm"), ((-0.42, -0.6), "mm"), ((0.42, -0.6), "mm"), ((0.0, 0.8), "mm"),
                 ((-0.42, 0.6), "mm"), ((0.42, 0.6), "mm")]
    return next((s for s in spots if room.clash(_text_box(coord, 10, s[0], halo=True, anchor=s[1])) <= 1e-3),
                spots[0])


SMALL_KANA = "ァィゥェォャュョッヮーぁぃぅぇぉゃゅょっゎ・"


def _name_room(room: HexLayout, box: Box, lines: list[str], size: float, name: str, at_top: bool,
               below: float | None, layout: str) -> bool:
    """Would the name still find a clear spot, a point smaller at most, with a mark at `box` too?"""
    marks = [*room.marks, ("label", "", box)]
    placed = _place_name(HexLayout(room.cities, room.shapes, list(marks)), lines, size, name, at_top, below, layout,
                         None)
    clear = HexLayout(room.cities, room.shapes, marks)  # without the name just tried
    return placed[0][2] >= size - 1 and all(clear.clash(b) <= 1e-3 for b in _boxes_of(placed))


def _boxes_of(placed: list[tuple[str, Pt, float]]) -> list[Box]:
    return [_text_box(line, z, at, halo=True) for line, at, z in placed]


def _place_name(room: HexLayout, lines: list[str], size: float, name: str, at_top: bool, below: float | None,
                layout: str, pen: _Pen) -> list[tuple[str, Pt, float]]:
    """The place's name, line by line (text, centre, size): where it always went (at the bottom, or at the top)
    when that is clear of the cities and the marks; else the nearest clear spot of the hex, trying it on two lines
    and smaller (down to 8 px); else the spot where it runs least into them. Each line is recorded in `room`."""
    flat = layout == "flat"
    variants = [(lines, size)]
    words = name.split(" ")
    if len(lines) == 1 and len(words) > 1:
        cut = min(range(1, len(words)), key=lambda k: abs(len(" ".join(words[:k])) - len(name) / 2))
        variants.append(([" ".join(words[:cut]), " ".join(words[cut:])], size))
    elif len(lines) == 1 and len(name) >= 4 and any(ord(ch) >= 0x3000 for ch in name):  # Japanese: after a ・ or
        # in the middle
        dots = [k + 1 for k, ch in enumerate(name[:-1]) if ch == "・"]
        cut = min(dots, key=lambda k: abs(k - len(name) / 2)) if dots else len(name) // 2
        while cut < len(name) - 1 and name[cut] in SMALL_KANA:  # no line starts with a small kana or a ー
            cut += 1
        variants.append(([name[:cut], name[cut:]], size))

    for smaller in (size - 1, size - 2, size - 3):  # 8 px only where nothing bigger fits (three cities and a label)
        if smaller >= 8:
            variants += [(v, smaller) for v, z in list(variants) if z == size]

    def rows(n: int, z: float) -> list[float]:
        step = z * 1.05 / R
        top = -0.55 if flat else -0.47 if below is None else below
        bottom = 0.6 - step * (n - 1) + (0.03 if n > 1 else 0)
        first, second = (top, bottom) if at_top else (bottom, top)
        sweep = [first + (second - first) * k / 24 for k in range(1, 24)]
        nudge = -0.06 if at_top else 0.06  # a little nearer the edge it sits by
        return [first, first + nudge, second, second - nudge, *sweep]

    def boxes(v: list[str], z: float, x: float, y0: float) -> list[tuple[str, Pt, Box]]:
        step = z * 1.05 / R
        return [(line, (x, y0 + k * step), _text_box(line, z, (x, y0 + k * step), halo=True))
                for k, line in enumerate(v)]

    best = None
    for v, z in variants:
        for y0 in rows(len(v), z):
            for x in (0.0, -0.1, 0.1, -0.2, 0.2, -0.3, 0.3, -0.4, 0.4, -0.5, 0.5):
                placed = boxes(v, z, x, y0)
                if not all(_inside_hex(b, layout, 0.02) for _, _, b in placed):
                    continue
                clash = sum(room.clash(b) for _, _, b in placed)
                if best is None or clash < best[0] - 1e-6:
                    best = (clash, placed, z)
                if clash <= 1e-3:
                    break
            if best and best[0] <= 1e-3:
                break
        if best and best[0] <= 1e-3:
            break
    if best is None:  # nothing fits inside: where it always went
        best = (0.0, boxes(lines, size, 0.0, rows(len(lines), size)[0]), size)
    _, placed, z = best
    for line, _, box in placed:
        room.mark("name", line, box)
    return [(line, at, z) for line, at, _ in placed]


@lru_cache(maxsize=16)
def _origin(map_def: MapDef) -> tuple[float, float, float, float]:
    """(min pixel-x, min pixel-y, width, height) of the hex centres, before the margin."""
    xs, ys = zip(*(_raw_centre(coord, map_def.layout) for coord in map_def.printed), strict=True)
    return min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)


def _raw_centre(coord: str, layout: str) -> Pt:
    x, y = hexes.doubled(coord, layout)  # doubled coordinates: neighbours step by 1 and 2
    if layout == "flat":
        return x * 1.5 * R, y * APO * R
    return x * APO * R, y * 1.5 * R


def hex_centre(coord: str, map_def: MapDef | None = None) -> tuple[int, int]:
    """Where the centre of hex `coord` lands on `render_map`'s picture (1889's map by default)."""
    map_def = map_def or load_map()
    min_x, min_y, _, _ = _origin(map_def)
    w1, h1 = _hex_size(map_def.layout)
    x, y = _raw_centre(coord, map_def.layout)
    return round(MARGIN + w1 / 2 + x - min_x), round(MARGIN + h1 / 2 + y - min_y)


def hex_step(map_def: MapDef) -> tuple[float, float]:
    """Pixels between the centres of neighbouring columns and of neighbouring rows of hexes on the map's picture."""
    return (1.5 * R, 2 * APO * R) if map_def.layout == "flat" else (2 * APO * R, 1.5 * R)


def hex_extent(map_def: MapDef) -> tuple[int, int]:
    """The width and height of one hex's picture, pixels."""
    return _hex_size(map_def.layout)


def node_centre(board: Board, coord: str, node: int) -> tuple[float, float]:
    """Where node `node` (a city, town or offboard) of hex `coord` lands on `render_map`'s picture."""
    places, _ = _plan_nodes(board.tile(coord), board.paths(coord), board.map.layout,
                            board.rotation(coord) if coord in board.laid else 0, _border_circles(board.map, coord))
    cx, cy = hex_centre(coord, board.map)
    return cx + places[node][0] * R, cy + places[node][1] * R


# ---- borders on hex edges ----

BORDER_INK = (30, 30, 30)  # impassable
BORDER_COLOUR: dict[str, RGB] = {"water": TERRAIN["water"], "mountain": (150, 95, 45)}  # darker than brown tiles
BORDER_OTHER = (140, 140, 140)
BORDER_W = {True: 0.1, False: 0.07}  # impassable or not, in units of R


def _border_colour(border: Border) -> RGB:
    return BORDER_INK if border.impassable else BORDER_COLOUR.get(border.kind, BORDER_OTHER)


def _edge_ends(layout: str, edge: int) -> tuple[Pt, Pt]:
    """The two corners of `edge`, units of R about the hex centre."""
    return _corner(layout, (edge - 1) % 6), _corner(layout, edge)


def _border_label_at(layout: str, edge: int) -> Pt:
    """Where a costly border's cost is written: on the edge, part way from its midpoint to one end, so it sits on
    the line yet clear of track, which crosses at the midpoint. Of a hex's corners every other one is some hex's
    top-left (flat) or top (pointy) corner, where that hex's coordinate is written: the label goes to the other
    end. Both sides of the edge agree, as a corner seen from the next hex turns by 120 degrees."""
    mine = 60 if layout == "flat" else 90
    e = next(k for k in ((edge - 1) % 6, edge) if round(_corner_angle(layout, k) - mine) % 120 == 0)
    end = _corner(layout, e)
    mx, my = _edge_mid(layout, edge)
    return mx + 0.45 * (end[0] - mx), my + 0.45 * (end[1] - my)


def _unique_borders(map_def: MapDef) -> list[tuple[str, Border]]:
    """Each bordered edge once, named from the side that sorts first (the map holds both sides)."""
    found = []
    for (coord, edge), border in sorted(map_def.borders.items()):
        other = map_def.neighbour(coord, edge)
        if other is None or (coord, edge) < (other, hexes.opposite(edge)):
            found.append((coord, border))
    return found


@lru_cache(maxsize=8)
def _border_patches(map_def: MapDef) -> tuple[tuple[Image.Image, tuple[int, int]], ...]:
    """Each border drawn on its own small transparent picture, with where its top left goes on the map. Borders
    straddle two hexes, so they go over the hexes rather than into one hex's picture."""
    layout = map_def.layout
    w1, h1 = _hex_size(layout)
    pad = 8  # room for the line's width beyond the hex's corners
    patches = []
    for coord, border in _unique_borders(map_def):
        big = Image.new("RGBA", ((w1 + 2 * pad) * S, (h1 + 2 * pad) * S), (0, 0, 0, 0))
        pen = _Pen(big)
        colour, width = _border_colour(border), BORDER_W[border.impassable]
        a, b = _edge_ends(layout, border.edge)
        pen.line([a, b], colour, width)
        for end in (a, b):  # round ends, so borders meeting at a corner join without a notch
            pen.circle(end, width / 2, fill=colour)
        if not border.impassable:
            x, y = _border_label_at(layout, border.edge)
            text = str(border.cost)
            w = pen.text_width(text, 11) / 2 + 0.06
            pen.rect((x - w, y - 0.1, x + w, y + 0.1), fill=(255, 255, 255), outline=colour, width=0.025)
            pen.text((x, y), text, 11, fill=(10, 60, 130) if border.kind == "water" else INK)
        patches += _patch(big, coord, map_def)
    for coord, edge in _unique_lines(map_def):  # a line drawn on an edge, no rule (1807's London inset, 1867's Detroit)
        big = Image.new("RGBA", ((w1 + 2 * pad) * S, (h1 + 2 * pad) * S), (0, 0, 0, 0))
        pen = _Pen(big)
        a, b = _edge_ends(layout, edge)
        pen.line([a, b], LINE_INK, LINE_W)
        for end in (a, b):
            pen.circle(end, LINE_W / 2, fill=LINE_INK)
        patches += _patch(big, coord, map_def)
    return tuple(patches)


LINE_INK, LINE_W = (60, 60, 60), 0.06


def _patch(big: Image.Image, coord: str, map_def: MapDef) -> list[tuple[Image.Image, tuple[int, int]]]:
    """A drawing about hex `coord`'s centre, shrunk and trimmed, with where its top left goes on the map."""
    patch = big.reduce(S)
    box = patch.getbbox()
    cx, cy = hex_centre(coord, map_def)
    return [(patch.crop(box), (cx - patch.width // 2 + box[0], cy - patch.height // 2 + box[1]))] if box else []


def _unique_lines(map_def: MapDef) -> list[tuple[str, int]]:
    """Each printed `line:` edge once (the hexes on both sides may list it)."""
    found: set[tuple[str, int]] = set()
    for coord, tile in sorted(map_def.printed.items()):
        for edge in tile.lines:
            other = hexes.neighbour(coord, edge, map_def.layout)
            if other is None or (other, hexes.opposite(edge)) not in found:
                found.add((coord, edge))
    return sorted(found)


def _border_legend(map_def: MapDef, lang: str = "en") -> list[str]:
    borders = [b for _, b in _unique_borders(map_def)]
    lines = [tr(lang, "Thick black edge: no track across it")] if any(b.impassable for b in borders) else []
    kinds = sorted({b.kind for b in borders if not b.impassable})
    for kind in kinds:
        if kind == "water":
            lines.append(tr(lang, "Blue edge: water, track across it costs the number"))
        elif kind == "mountain":
            lines.append(tr(lang, "Brown edge: mountain, track across it costs the number"))
        else:
            lines.append(tr(lang, "Grey edge, track across it costs the number"))
    return lines


@lru_cache(maxsize=8)
def _map_base(map_def: MapDef, lang: str = "en") -> Image.Image:
    """The sea and the legend (in `lang`): all that never changes but the hexes."""
    _, _, w, h = _origin(map_def)
    w1, h1 = _hex_size(map_def.layout)
    width, height = round(w + w1 + 2 * MARGIN), round(h + h1 + 2 * MARGIN)
    legend = [tr(lang, "Offboard revenue boxes:"), "  " + tr(lang, "yellow phase | brown phase | D trains"),
              tr(lang, "Grey id in a city: its home slot"), tr(lang, "Triangle: mountain, costs to build"),
              tr(lang, "Waves: water, costs to build"), tr(lang, "Number in a box: the upgrade cost"),
              *_border_legend(map_def, lang)]
    font = _font(13)
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    lw = max(probe.textlength(t, font=font) for t in legend) + 16
    lh = 18 * len(legend) + 10
    # The legend goes in the corner farthest from any hex: on 1889, the empty sea at the top right. Where every
    # corner would cover a hex (a small map), the picture grows below the map to hold it.
    centres = [hex_centre(c, map_def) for c in map_def.printed]
    best = None
    for x0, y0 in ((width - lw - 8, 8), (8, height - lh - 8), (width - lw - 8, height - lh - 8), (8, 40)):
        near = min(max(abs(cx - min(max(cx, x0), x0 + lw)) - w1 / 2, abs(cy - min(max(cy, y0), y0 + lh)) - h1 / 2)
                   for cx, cy in centres)
        if best is None or near > best[0]:
            best = (near, x0, y0)
    near, x0, y0 = best
    if near < 0:
        x0, y0 = 8, height - MARGIN + 8
        width, height = max(width, round(lw + 16)), round(y0 + lh + 8)
    img = Image.new("RGBA", (width, height), SEA + (255,))
    d = ImageDraw.Draw(img)
    title_id = map_def.title.partition("/")[0]  # a scenario's map ("1890/hanshin") bears its game's title
    title = {"1889": tr(lang, "1889 Shikoku"), "1867": tr(lang, "1867 Canada"), "1890": tr(lang, "1890 Kansai"),
             "1807": tr(lang, "1807 The Big Four")}.get(title_id, title_id)
    d.text((MARGIN - 8, 6), title, fill=(40, 60, 80), font=_font(20))
    d.rounded_rectangle((x0, y0, x0 + lw, y0 + lh), radius=6, fill=(235, 242, 246), outline=(120, 140, 150))
    for k, t in enumerate(legend):
        d.text((x0 + 8, y0 + 6 + 18 * k), t, fill=INK, font=font)
    return img


def render_map(board: Board, *, corp_colours: Mapping[str, str] | None = None, lang: str = "en") -> bytes:
    """The board as a PNG: every hex with its tile, track, cities and tokens, then the borders on hex edges (see
    the module's docstring).

    corp_colours: corporation id -> colour; by default the title's own (see `corp_colours`)."""
    return png(map_image(board, corp_colours=corp_colours, lang=lang))


def map_image(board: Board, *, corp_colours: Mapping[str, str] | None = None, lang: str = "en") -> Image.Image:
    """render_map's picture before encoding (render_region may cut its crops out of it)."""
    map_def = board.map
    colours = dict(corp_colours) if corp_colours is not None else _title_colours(map_def.title)
    img = _map_base(map_def, lang).copy()
    for coord in map_def.printed:
        _paste_hex(img, board, coord, colours, hex_centre(coord, map_def), lang)
    for patch, at in _border_patches(map_def):
        img.alpha_composite(patch, at)
    return img


PANEL_GAP = 12  # between the crops of one picture
PANEL_LINE = (90, 110, 125)


def render_region(board: Board, boxes: Sequence[tuple[int, int, int, int]], *,
                  corp_colours: Mapping[str, str] | None = None, lang: str = "en", marks: Sequence[str] = (),
                  whole: Image.Image | None = None) -> bytes:
    """Crops of the map as a PNG: each box (pixels of `render_map`'s picture, from cogs.e18xx.map_region) drawn as
    render_map draws it, at its size, the crops one under the other, each framed; the hexes in `marks` ringed in
    red. With `whole`, the map_image of this board already drawn (a lay's narration posts both), the crops are cut
    out of it rather than drawn again."""
    map_def = board.map
    colours = dict(corp_colours) if corp_colours is not None else _title_colours(map_def.title)
    w1, h1 = _hex_size(map_def.layout)
    panels = []
    for x0, y0, x1, y1 in boxes:
        panel = Image.new("RGBA", (x1 - x0, y1 - y0), SEA + (255,))
        if whole is not None:
            panel.alpha_composite(whole.crop((x0, y0, x1, y1)))
        else:
            for coord in map_def.printed:
                cx, cy = hex_centre(coord, map_def)
                if x0 - w1 < cx < x1 + w1 and y0 - h1 < cy < y1 + h1:
                    _paste_hex(panel, board, coord, colours, (cx - x0, cy - y0), lang)
            for patch, (px, py) in _border_patches(map_def):
                if px < x1 and py < y1 and px + patch.width > x0 and py + patch.height > y0:
                    panel.alpha_composite(patch, (px - x0, py - y0))  # Pillow clips what falls off the panel
        pen = ImageDraw.Draw(panel)
        for coord in marks:
            if coord in map_def.printed:
                cx, cy = hex_centre(coord, map_def)
                corners = [(cx - x0 + (R - 4) * cos(radians(_corner_angle(map_def.layout, e))),
                            cy - y0 + (R - 4) * sin(radians(_corner_angle(map_def.layout, e)))) for e in range(6)]
                pen.polygon(corners, outline=MARK, width=6)
        pen.rectangle((0, 0, panel.width - 1, panel.height - 1), outline=PANEL_LINE, width=2)
        panels.append(panel)
    height = sum(p.height for p in panels) + PANEL_GAP * (len(panels) - 1)
    sheet = Image.new("RGBA", (max(p.width for p in panels), height), SEA + (255,))
    y = 0
    for panel in panels:  # one under the other: a phone held upright has more room down than across
        sheet.alpha_composite(panel, (0, y))
        y += panel.height + PANEL_GAP
    return png(sheet)


CHOICES_PER_ROW = 5
CHOICE_SCALE = 2  # each choice is drawn at 1/CHOICE_SCALE of the map's size
MARK = (214, 32, 40)  # the ring around a city to choose


def render_lays(board: Board, coord: str, lays: Sequence[tuple[str, int]], *,
                corp_colours: Mapping[str, str] | None = None, lang: str = "en") -> bytes:
    """The tile lays open on one hex, numbered from 1 in the order given, as a PNG: each choice is the hex with
    the tile laid in its rotation (and the tokens it carries over), amid its neighbours as they stand, so a player
    picks by number the track he sees rather than a rotation he must imagine."""
    colours = dict(corp_colours) if corp_colours is not None else _title_colours(board.map.title)
    around = _neighbourhood(board, coord, colours, lang)
    cells = []
    for tile, rotation in lays:
        cell = around.copy()
        _paste_hex(cell, board.lay_tile(coord, tile, rotation), coord, colours, (cell.width // 2, cell.height // 2),
                   lang)
        cells.append(cell)
    return _numbered(cells)


def render_tokens(board: Board, cities: Sequence[tuple[str, int]], *,
                  corp_colours: Mapping[str, str] | None = None, lang: str = "en") -> bytes:
    """The cities open to a token, numbered from 1 in the order given, as a PNG: each choice is its hex amid its
    neighbours with that city ringed (a hex with several cities shows which one)."""
    colours = dict(corp_colours) if corp_colours is not None else _title_colours(board.map.title)
    cells = []
    for coord, node in cities:
        cell = _neighbourhood(board, coord, colours, lang)
        _paste_hex(cell, board, coord, colours, (cell.width // 2, cell.height // 2), lang)
        hx, hy = hex_centre(coord, board.map)
        nx, ny = node_centre(board, coord, node)
        x, y, r = cell.width / 2 + nx - hx, cell.height / 2 + ny - hy, 0.42 * R
        ImageDraw.Draw(cell).ellipse((x - r, y - r, x + r, y + r), outline=MARK, width=7)
        cells.append(cell)
    return _numbered(cells)


def _neighbourhood(board: Board, coord: str, colours: Mapping[str, str], lang: str = "en") -> Image.Image:
    """A picture three hexes wide centred on `coord`, with its neighbours drawn as they stand (not the hex)."""
    map_def = board.map
    w1, h1 = _hex_size(map_def.layout)
    cx, cy = hex_centre(coord, map_def)
    cell = Image.new("RGBA", (3 * w1, 3 * h1), SEA + (255,))
    for e in range(6):
        if (n := map_def.neighbour(coord, e)) is not None:
            nx, ny = hex_centre(n, map_def)
            _paste_hex(cell, board, n, colours, (cell.width // 2 + nx - cx, cell.height // 2 + ny - cy), lang)
    return cell


def _numbered(cells: Sequence[Image.Image]) -> bytes:
    """The choices side by side, CHOICES_PER_ROW to a row, each framed and numbered from 1 in its corner."""
    w, h = (cells[0].width, cells[0].height) if cells else (1, 1)
    cols = min(CHOICES_PER_ROW, max(1, len(cells)))
    sheet = Image.new("RGBA", (cols * w, ceil(len(cells) / cols) * h if cells else h), (255, 255, 255, 255))
    pen = ImageDraw.Draw(sheet)
    font = _font(44)
    for k, cell in enumerate(cells):
        x, y = (k % cols) * w, (k // cols) * h
        sheet.alpha_composite(cell, (x, y))
        pen.rectangle((x, y, x + w - 1, y + h - 1), outline=INK, width=2)
        left, top, right, bottom = pen.textbbox((0, 0), str(k + 1), font=font)
        pen.rectangle((x + 6, y + 6, x + 20 + right - left, y + 24 + bottom - top), fill=(255, 255, 255))
        pen.text((x + 12, y + 8), str(k + 1), font=font, fill=INK)
    return png(sheet.reduce(CHOICE_SCALE))


def _paste_hex(img: Image.Image, board: Board, coord: str, colours: Mapping[str, str], at: tuple[int, int],
               lang: str = "en") -> None:
    """Hex `coord` of `board` as render_map draws it (its name in `lang`), centred at `at` on `img`."""
    tile = board.tile(coord)
    slots = tuple(board.slots(coord, i) if node.kind == "city" else () for i, node in enumerate(tile.nodes))
    reserved = tuple(board.reservation(coord, i) if node.kind == "city" else None for i, node in enumerate(tile.nodes))
    corps = sorted({c for per_node in slots for c in per_node if c} | {c for c in reserved if c})
    key = tuple((c, colours.get(c, FALLBACK_COLOUR)) for c in corps)
    laid = coord in board.laid
    pic = _hex_image(board.map, coord, tile.name, board.rotation(coord) if laid else 0, laid, slots, reserved, key,
                     lang)
    img.alpha_composite(pic, (at[0] - pic.width // 2, at[1] - pic.height // 2))


def _title_colours(title: str) -> dict[str, str]:
    return corp_colours(title)


# ---- the stock market -----------------------------------------------------------------------------------

CELL_W, CELL_H = 96, 84
M_MARGIN, M_TOP = 20, 44
ZONE_FILL: dict[str, RGB] = {
    "white": (250, 248, 240),
    "yellow": (252, 226, 100),
    "orange": (246, 160, 80),
    "brown": (200, 130, 80),
    "red": (236, 90, 90),
    "gray": (200, 200, 200),
}
PAR_FRAME = (150, 20, 40)
TOKEN_D = 34
# A 1-D market is a strip of cells wrapped over lines of at most STRIP_MAX cells, STRIP_GAP apart.
STRIP_MAX, STRIP_GAP = 12, 18
CLOSE_FILL = (72, 72, 72)
PAR_TINTS: tuple[RGB, ...] = ((196, 222, 246), (204, 236, 196), (246, 214, 228))  # one per par kind, in order
PAR_MIXED = (222, 210, 242)  # open to several kinds
CONVERT_BAND = (236, 176, 30)  # along the foot of a convert_range cell
MAX_WALL = (120, 50, 160)  # the right edge of a max_price cell: capped moves stop there
BAND_H, WALL_W = 8, 7


def _strip_cols(market: Market) -> int:
    """Cells per line of a 1-D market: the lines as even as they can be."""
    n = len(market.rows[0])
    return ceil(n / ceil(n / STRIP_MAX))


def cell_box(cell_id: str, market: Market | None = None) -> tuple[int, int, int, int]:
    """(left, top, right, bottom) of a share price cell ("price,row,col") on `render_market`'s picture. A 1-D
    market is wrapped over several lines: pass it so the cell is found on its line."""
    _, row, col = parse_cell_id(cell_id)
    if market is not None and market.one_d:
        line, col = divmod(col, _strip_cols(market))
        x0, y0 = M_MARGIN + col * CELL_W, M_TOP + line * (CELL_H + STRIP_GAP)
    else:
        x0, y0 = M_MARGIN + col * CELL_W, M_TOP + row * CELL_H
    return x0, y0, x0 + CELL_W, y0 + CELL_H


def _zone_fill(zone: str) -> RGB:
    if zone in ZONE_FILL:
        return ZONE_FILL[zone]
    r, g, b = _rgb(zone, "#ffffff")
    return (r + 255) // 2, (g + 255) // 2, (b + 255) // 2


#: Colour names of market zones, said with tr(lang, word).
ZONE_WORDS = {"white": N_("white"), "yellow": N_("yellow"), "orange": N_("orange"), "brown": N_("brown"),
              "red": N_("red"), "gray": N_("gray"), "green": N_("green"), "blue": N_("blue")}


def _zone_line(zone: str, cell, lang: str = "en") -> str:
    """A legend line for a zone: its colour and what it means."""
    name = tr(lang, ZONE_WORDS[zone]) if zone in ZONE_WORDS else zone
    return tr(lang, "{zone}: {meaning}", zone=name, meaning=_zone_text(cell, lang))


def _kind_word(kind: str, lang: str = "en") -> str:
    from cogs.e18xx.words import KINDS, word

    return word(KINDS, kind, lang)


def _either(kinds: Sequence[str], lang: str = "en") -> str:
    """ "minor or major" in `lang`."""
    text = _kind_word(kinds[0], lang)
    for kind in kinds[1:]:
        text = tr(lang, "{a} or {b}", a=text, b=_kind_word(kind, lang))
    return text


def _zone_text(cell, lang: str = "en") -> str:
    if cell.counts_for_cert_limit and cell.holding_limit_applies:
        return tr(lang, "counts for the certificate limit")
    if not cell.counts_for_cert_limit and not cell.holding_limit_applies:
        return tr(lang, "no certificate limit, holding limit lifted")
    if not cell.counts_for_cert_limit:
        return tr(lang, "not counted for the certificate limit")
    return tr(lang, "holding limit lifted")


# A legend line: (how its swatch is drawn: "fill", "frame", "band" or "wall"; the colour; the text).
Legend = list[tuple[str, RGB, str]]


def _legend_size(legend: Legend) -> tuple[int, int]:
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    return int(max(probe.textlength(t, font=_font(13)) for _, _, t in legend) + 44), 22 * len(legend) + 12


def _draw_legend(d: ImageDraw.ImageDraw, x0: int, y0: int, legend: Legend) -> None:
    lw, lh = _legend_size(legend)
    d.rounded_rectangle((x0, y0, x0 + lw, y0 + lh), radius=6, fill=(250, 250, 247), outline=(120, 120, 120))
    for k, (how, colour, text) in enumerate(legend):
        y = y0 + 8 + 22 * k
        box = (x0 + 10, y + 2, x0 + 28, y + 16)
        if how == "fill":
            d.rectangle(box, fill=colour, outline=(90, 90, 90))
        elif how == "frame":
            d.rectangle(box, outline=colour, width=2)
        else:
            d.rectangle(box, fill=ZONE_FILL["white"], outline=(90, 90, 90))
            if how == "band":
                d.rectangle((box[0], box[3] - 4, box[2], box[3]), fill=colour)
            else:
                d.rectangle((box[2] - 4, box[1], box[2], box[3]), fill=colour)
        d.text((x0 + 36, y + 1), text, fill=INK, font=_font(13))


ORDER_NOTE = N_("several markers on a cell: the leftmost came first and operates first")


@lru_cache(maxsize=8)
def _market_base(market: Market, lang: str = "en") -> Image.Image:
    if market.one_d:
        return _strip_base(market, lang)
    cols = max(len(row) for row in market.rows)
    width = 2 * M_MARGIN + cols * CELL_W
    grid_h = M_TOP + len(market.rows) * CELL_H
    zones: dict[str, object] = {}
    for cell in market.cells:
        zones.setdefault(cell.zone, cell)
    legend: Legend = [("fill", _zone_fill(z), _zone_line(z, c, lang)) for z, c in zones.items()]
    legend += [("frame", PAR_FRAME, tr(lang, "red frame: par price")), ("frame", (90, 90, 90), tr(lang, ORDER_NOTE))]
    lw, lh = _legend_size(legend)
    # The legend goes in the empty corner under the short rows when it fits there, else below the grid.
    spot = None
    for r in range(len(market.rows) - 1, -1, -1):  # the lowest rows first: the legend sits by the short rows
        used = max(len(row) for row in market.rows[r:])
        x0 = M_MARGIN + used * CELL_W + 16
        if x0 + lw <= width - M_MARGIN and (len(market.rows) - r) * CELL_H >= lh:
            spot = (x0, grid_h - lh - 4)
            break
    height = grid_h + M_MARGIN + (0 if spot else lh + 10)
    spot = spot or (M_MARGIN, grid_h + 10)
    img = Image.new("RGBA", (width, height), (238, 236, 230, 255))
    d = ImageDraw.Draw(img)
    d.text((M_MARGIN, 10), tr(lang, "Stock market"), fill=INK, font=_font(22))
    for cell in market.cells:
        x0, y0, x1, y1 = cell_box(cell.id)
        d.rectangle((x0, y0, x1, y1), fill=_zone_fill(cell.zone), outline=(90, 90, 90))
        if cell.is_par:
            d.rectangle((x0 + 2, y0 + 2, x1 - 2, y1 - 2), outline=PAR_FRAME, width=3)
            d.text((x1 - 7, y0 + 6), tr(lang, "par"), fill=PAR_FRAME, font=_font(13), anchor="ra")
        d.text((x0 + 7, y0 + 5), str(cell.price), fill=INK, font=_font(17))
    _draw_legend(d, *spot, legend)
    return img


def _par_fill(cell, kinds: Sequence[str]) -> RGB | None:
    """The tint of a par cell: its kind's own when it is open to one kind only."""
    if not cell.is_par:
        return None
    if len(cell.par_kinds) == 1:
        return PAR_TINTS[kinds.index(next(iter(cell.par_kinds))) % len(PAR_TINTS)]
    return PAR_MIXED


def _strip_base(market: Market, lang: str = "en") -> Image.Image:
    """A 1-D market: one strip of cells, left to right and line after line, each cell coloured by its type."""
    cells = list(market.cells)
    kinds = sorted({k for c in cells for k in c.par_kinds})
    lines = ceil(len(cells) / _strip_cols(market))
    legend: Legend = []
    if any(c.zone != "white" for c in cells):
        zones = {c.zone: c for c in cells}
        legend += [("fill", _zone_fill(z), _zone_line(z, c, lang)) for z, c in zones.items()]
    if any(c.closes for c in cells):
        legend.append(("fill", CLOSE_FILL, tr(lang, "a corporation whose price gets here closes")))
    for kind in kinds:
        legend.append(("fill", PAR_TINTS[kinds.index(kind) % len(PAR_TINTS)],
                       tr(lang, "par price for a {kind} only", kind=_kind_word(kind, lang))))
    if any(c.is_par and len(c.par_kinds) != 1 for c in cells):
        kinds_text = _either(kinds, lang) if kinds else tr(lang, "any company")
        legend.append(("fill", PAR_MIXED, tr(lang, "par price for {kinds}", kinds=kinds_text)))
    if any(c.is_par for c in cells):
        legend.append(("frame", PAR_FRAME, tr(lang, "red frame: par price")))
    if any("convert_range" in c.types for c in cells):
        legend.append(("band", CONVERT_BAND, tr(lang, "orange foot: a minor here may convert")))
    if any("max_price" in c.types for c in cells):
        legend.append(("wall", MAX_WALL, tr(lang, "purple wall: the highest price a minor reaches")))
    legend.append(("frame", (90, 90, 90), tr(lang, ORDER_NOTE)))
    lw, lh = _legend_size(legend)
    strip_h = M_TOP + lines * CELL_H + (lines - 1) * STRIP_GAP
    width = max(2 * M_MARGIN + _strip_cols(market) * CELL_W, 2 * M_MARGIN + lw)
    img = Image.new("RGBA", (width, strip_h + 20 + lh + M_MARGIN), (238, 236, 230, 255))
    d = ImageDraw.Draw(img)
    d.text((M_MARGIN, 10), tr(lang, "Stock market"), fill=INK, font=_font(22))
    for cell in cells:
        x0, y0, x1, y1 = cell_box(cell.id, market)
        fill = CLOSE_FILL if cell.closes else _zone_fill(cell.zone)
        if not cell.closes and cell.zone == "white":
            fill = _par_fill(cell, kinds) or fill
        d.rectangle((x0, y0, x1, y1), fill=fill, outline=(90, 90, 90))
        if cell.is_par:
            d.rectangle((x0 + 2, y0 + 2, x1 - 2, y1 - 2), outline=PAR_FRAME, width=3)
            d.text((x1 - 7 - WALL_W, y0 + 6), tr(lang, "par"), fill=PAR_FRAME, font=_font(13), anchor="ra")
        # the band and the wall over the par frame, so they show on par cells too
        if "convert_range" in cell.types:
            d.rectangle((x0 + 1, y1 - BAND_H, x1 - 1, y1 - 1), fill=CONVERT_BAND)
        if "max_price" in cell.types:
            d.rectangle((x1 - WALL_W, y0 + 1, x1 - 1, y1 - 1), fill=MAX_WALL)
        ink = _contrast(fill)
        d.text((x0 + 7, y0 + 5), str(cell.price), fill=ink, font=_font(17))
        if cell.closes:
            d.text((x1 - 7, y0 + 6), tr(lang, "closes"), fill=ink, font=_font(13), anchor="ra")
    _draw_legend(d, M_MARGIN, strip_h + 20, legend)
    return img


def render_market(market: Market, positions: Mapping[str, Sequence[str]],
                  corp_colours: Mapping[str, str], lang: str = "en") -> bytes:
    """The market as a PNG. positions: cell id ("price,row,col") -> corporation ids in order of arrival (the
    market's stacks); they are drawn left to right, three to a row, smaller when a cell holds more than six."""
    img = _market_base(market, lang).copy()
    for cell_id, corps in positions.items():
        if not corps:
            continue
        x0, y0, x1, y1 = cell_box(cell_id, market)
        rows = ceil(len(corps) / 3)
        top, bottom = y0 + 25, y1 - (BAND_H + 3 if market.one_d else 3)  # 1-D: clear of the convert band
        d = min(TOKEN_D, int((bottom - top) / rows), int((CELL_W - 6) / min(3, len(corps))) - 2)
        for i, corp in enumerate(corps):
            r, c = divmod(i, 3)
            in_row = min(3, len(corps) - 3 * r)
            cx = (x0 + x1) / 2 + (c - (in_row - 1) / 2) * (d + 2)
            cy = top + d / 2 + r * d if rows > 1 else (top + bottom) / 2
            _paste_token(img, (cx, cy), corp, _rgb(corp_colours.get(corp)), d)
    return png(img)


# ---- the charters ---------------------------------------------------------------------------------------

CARD_W, CARD_H, GAP = 360, 244, 14
K = 2  # charters are drawn K times over size, then shrunk


def render_charters(corps: Sequence[Mapping], *, currency: str = "¥{}", per_row: int | None = None,
                    lang: str = "en", money_kind: str | None = None) -> bytes:
    """One card per corporation, `per_row` to a row, as a PNG. Each corporation is a plain dict:

    - "id": "AR"; "name": "Awa Railroad"; "colour": "#37383a"; "text_colour": "#ffffff" (on the colour)
    - "cash": int, the treasury
    - "trains": ["2", "3", ...], train names
    - "tokens_left": int still on the charter; "tokens_total": int, with those already on the map
    - "president": player name, or None before anyone holds the president's certificate
    - "price": the share price (int), or None before the par; "price_text": what the price row says instead (1890's
      minors: "¥100 (fixed)")
    - "floated": bool; "privates": ["SMR", ...], ids of the private companies it owns
    - "kind": "minor" or "national" for a badge (1867; a major has none), "loans": int, "closed": bool (a minor
      merged or nationalised: "CLOSED" instead of "NOT FLOATED")

    Missing keys read as empty. `currency` is the title's format ("¥{}" for 1889); with `money_kind` (an
    engines.text.Money currency: "yen", "dollar") amounts are written as `lang` writes them. The words are in
    `lang` (the names come in it already). By default the cards are
    laid out to come out biggest in a chat preview (about 550 x 350 px): three to a row for 1889's seven.
    """
    if not corps:
        img = Image.new("RGB", (400, 80), (238, 236, 230))
        ImageDraw.Draw(img).text((20, 28), tr(lang, "No corporations yet."), fill=INK, font=_font(18))
        return png(img)
    def size(cols: int) -> tuple[int, int]:
        return GAP + cols * (CARD_W + GAP), GAP + ceil(len(corps) / cols) * (CARD_H + GAP)

    if per_row is None:
        per_row = max(range(1, 5), key=lambda c: min(550 / size(c)[0], 350 / size(c)[1]))
    cols = max(1, min(per_row, len(corps)))
    width, height = size(cols)
    big = Image.new("RGBA", (width * K, height * K), (238, 236, 230, 255))
    for i, corp in enumerate(corps):
        r, c = divmod(i, cols)
        _draw_card(big, (GAP + c * (CARD_W + GAP)) * K, (GAP + r * (CARD_H + GAP)) * K, corp, currency, lang,
                   money_kind)
    return png(big.reduce(K))


def _fit(d: ImageDraw.ImageDraw, text: str, size: int, width: float, smallest: int = 12) -> tuple[list[str], int]:
    """One line at the biggest size that fits, else two lines broken at a space."""
    for s in range(size, smallest - 1, -1):
        if d.textlength(text, font=_font(s * K)) <= width:
            return [text], s
    spaces = [i for i, ch in enumerate(text) if ch == " "]
    if not spaces:
        return [text], smallest
    cut = min(spaces, key=lambda i: abs(i - len(text) / 2))
    lines = [text[:cut].strip(), text[cut:].strip()]
    for s in range(size, smallest - 1, -1):
        if max(d.textlength(line, font=_font(s * K)) for line in lines) <= width:
            return lines, s
    return lines, smallest


CARD_KINDS = {"minor": N_("MINOR"), "national": N_("NATIONAL")}


def _draw_card(img: Image.Image, x: int, y: int, corp: Mapping, currency: str, lang: str = "en",
               money_kind: str | None = None) -> None:
    d = ImageDraw.Draw(img)
    colour = _rgb(corp.get("colour"))
    text_colour = _rgb(corp.get("text_colour"), "#ffffff") if corp.get("text_colour") else _contrast(colour)
    floated = bool(corp.get("floated"))
    w, h, head = CARD_W * K, CARD_H * K, 62 * K
    body = (255, 255, 252) if floated else (228, 226, 222)
    d.rounded_rectangle((x, y, x + w, y + h), radius=10 * K, fill=body, outline=(70, 70, 70), width=2 * K)
    d.rounded_rectangle((x, y, x + w, y + head), radius=10 * K, fill=colour, outline=(70, 70, 70), width=2 * K)
    d.rectangle((x + 2 * K, y + head - 10 * K, x + w - 2 * K, y + head), fill=colour)
    d.line((x, y + head, x + w, y + head), fill=(70, 70, 70), width=2 * K)
    # the corporation's marker and name
    cid = str(corp.get("id", "?"))
    tx, ty, rad = x + 34 * K, y + head / 2, 22 * K
    d.ellipse((tx - rad, ty - rad, tx + rad, ty + rad), fill=colour, outline=text_colour, width=2 * K)
    size = 16 if len(cid) <= 2 else 12
    while size > 7 and d.textlength(cid, font=_font(size * K)) > 2 * rad - 5 * K:  # a long id (1890's "KobeElec")
        size -= 1
    d.text((tx, ty), cid, fill=text_colour, font=_font(size * K), anchor="mm")
    lines, size = _fit(d, str(corp.get("name", cid)), 19, w - 76 * K)
    step = (size + 3) * K
    top = ty - step * (len(lines) - 1) / 2
    for k, line in enumerate(lines):
        d.text((x + 64 * K, top + k * step), line, fill=text_colour, font=_font(size * K), anchor="lm")

    def money(v) -> str:
        if v is None:
            return "-"
        return Money(v, money_kind).in_lang(lang) if money_kind else currency.format(v)

    font, small, label = _font(16 * K), _font(13 * K), (105, 105, 105)
    lx, vx, yy = x + 14 * K, x + 104 * K, y + head + 10 * K
    row_h = 25 * K
    president = corp.get("president")
    price = corp.get("price")
    loans = int(corp.get("loans", 0))
    treasury = money(corp.get("cash", 0))
    if loans:
        treasury += " · " + say(plural(loans, "{n} loan", "{n} loans"), lang)
    rows = [
        (tr(lang, "President"), president or tr(lang, "none")),
        (tr(lang, "Share price"), corp["price_text"] if corp.get("price_text")
         else money(price) if price is not None else tr(lang, "not parred")),
        (tr(lang, "Treasury"), treasury),
    ]
    for k, (name, value) in enumerate(rows):
        d.text((lx, yy + k * row_h), name, fill=label, font=small, anchor="lt")
        _money_text(d, (vx, yy + k * row_h - 2 * K), str(value), font, INK)
    kind = tr(lang, CARD_KINDS[corp["kind"]]) if corp.get("kind") in CARD_KINDS else ""
    state = tr(lang, "CLOSED") if corp.get("closed") else tr(lang, "NOT FLOATED") if not floated else ""
    badges = [b for b in (kind, state) if b]
    for k, badge in enumerate(badges):
        bw = d.textlength(badge, font=small) + 14 * K
        bx, by = x + w - bw - 10 * K, yy + k * row_h
        d.rounded_rectangle((bx, by - 3 * K, bx + bw, by + 19 * K), radius=5 * K, fill=(120, 120, 120))
        d.text((bx + bw / 2, by + 8 * K), badge, fill=(255, 255, 255), font=small, anchor="mm")
    # trains, as small cards with their names
    yy += 3 * row_h
    d.text((lx, yy + 4 * K), tr(lang, "Trains"), fill=label, font=small, anchor="lt")
    trains = [str(t) for t in corp.get("trains", [])]
    bx = vx
    for t in trains:
        tw = max(30 * K, d.textlength(t, font=font) + 14 * K)
        d.rounded_rectangle((bx, yy, bx + tw, yy + 22 * K), radius=4 * K, fill=(250, 244, 220), outline=INK,
                            width=K + 1)
        d.text((bx + tw / 2, yy + 11 * K), t, fill=INK, font=font, anchor="mm")
        bx += tw + 6 * K
    if not trains:
        d.text((vx, yy + 2 * K), tr(lang, "none"), fill=SOFT, font=font, anchor="lt")
    # tokens: filled ones are still on the charter, hollow ones on the map
    yy += row_h + 4 * K
    left, total = int(corp.get("tokens_left", 0)), int(corp.get("tokens_total", 0))
    d.text((lx, yy + 4 * K), tr(lang, "Tokens"), fill=label, font=small, anchor="lt")
    rad = 10 * K
    for k in range(max(total, left)):
        cx, cy = vx + rad + k * (2 * rad + 6 * K), yy + rad
        if k < left:
            d.ellipse((cx - rad, cy - rad, cx + rad, cy + rad), fill=colour, outline=INK, width=K)
        else:
            d.ellipse((cx - rad, cy - rad, cx + rad, cy + rad), fill=None, outline=(150, 150, 150), width=K + 1)
    d.text((vx + max(total, left) * (2 * rad + 6 * K) + 4 * K, yy + 2 * K),
           tr(lang, "{left} of {total} left", left=left, total=total), fill=SOFT, font=small, anchor="lt")
    # private companies
    yy += row_h + 2 * K
    privates = [str(p) for p in corp.get("privates", [])]
    d.text((lx, yy + 2 * K), tr(lang, "Privates"), fill=label, font=small, anchor="lt")
    d.text((vx, yy), ", ".join(privates) if privates else tr(lang, "none"), fill=INK if privates else SOFT, font=font,
           anchor="lt")


@cache
def _has_glyph(ch: str) -> bool:
    """Does the bundled font draw `ch` (it has no "¥", for one)?"""
    font = _font(24)
    return bytes(font.getmask(ch)) != bytes(font.getmask("\uffff"))


def _money_text(d: ImageDraw.ImageDraw, at: tuple[float, float], text: str, font, fill) -> None:
    """Text from its top left; a "¥" the font lacks is drawn as a Y with two bars."""
    if "¥" not in text or _has_glyph("¥"):
        d.text(at, text, fill=fill, font=font, anchor="lt")
        return
    x, y = at
    before, _, after = text.partition("¥")
    if before:
        d.text((x, y), before, fill=fill, font=font, anchor="lt")
        x += d.textlength(before, font=font)
    left, top, right, bottom = d.textbbox((x, y), "Y", font=font, anchor="lt")
    d.text((x, y), "Y", fill=fill, font=font, anchor="lt")
    mid, w, h = (left + right) / 2, right - left, bottom - top
    for f in (0.56, 0.74):
        d.line((mid - w * 0.32, top + h * f, mid + w * 0.32, top + h * f), fill=fill, width=max(1, round(h * 0.09)))
    d.text((x + d.textlength("Y", font=font), y), after, fill=fill, font=font, anchor="lt")
