"""The map picture beyond 1889: borders on hex edges, hexes with two cities, and pointy-topped maps.

Small hand-written maps (as in test_e18xx_board_core.py), flat and pointy, each with an impassable border, a
water and a mountain border, and a two-city hex whose first city is a corporation's home (reserved) and whose
second city holds another corporation's token. Pixels are sampled where the renderer's own geometry helpers say
a thing is drawn; where a position comes from the renderer, it is also checked against the engine's edges."""
from __future__ import annotations

import io
from math import hypot

import pytest
from PIL import Image, ImageColor

from cogs.e18xx.pictures import (
    APO,
    SEA,
    R,
    _border_label_at,
    _city_circles,
    _corner,
    _edge_dir,
    _edge_ends,
    _edge_mid,
    hex_centre,
    node_centre,
    render_map,
)
from engines.e18xx import hexes
from engines.e18xx.board import Board, map_from_json

RED, BLUE = "#d02020", "#2040d0"
COLOURS = {"AA": RED, "BB": BLUE}
IMPASSABLE, WATER, MOUNTAIN = (30, 30, 30), (40, 120, 200), (150, 95, 45)
RESERVED_GREY = (150, 150, 150)  # a home slot's corporation id
LEGEND_FILL = (235, 242, 246)

# Flat: C3's edges 0..5 face C5, B4, B2, C1, D2, D4. Its city 0 runs to edge 0 (down), city 1 to edge 3 (up).
FLAT = {
    "hexes": {
        "C1": "white city:0", "C5": "white city:0", "B4": "white",
        "C3": "yellow city:30 city:30 0-_0 3-_1 label:OO border:5:80:water",  # water C3|D4, listed on C3
        "D2": "white border:1",  # impassable C3|D2, listed on D2's side
        "B2": "white border:5:60:mountain",  # mountain B2|C3, listed on B2's side
        "D4": "white",
    },
    "names": {"C1": "Northton", "B4": "Westby"},
    "two_city": "C3", "edges": (0, 3),
    "borders": {("C3", 4): IMPASSABLE, ("C3", 5): WATER, ("C3", 2): MOUNTAIN},
}
# Pointy: C5's edges 0..5 face D4, C3, B4, B6, C7, D6. Its city 0 runs to edge 1 (left), city 1 to edge 4 (right).
POINTY = {
    "hexes": {
        "C3": "white city:0", "C7": "white city:0", "B4": "white",
        "C5": "yellow city:30 city:30 1-_0 4-_1 label:OO border:5:80:water",  # water C5|D6
        "B6": "white border:0",  # impassable C5|B6, listed on B6's side
        "D4": "white border:3:60:mountain",  # mountain C5|D4, listed on D4's side
        "D6": "white",
    },
    "names": {"C3": "Westby", "C7": "Eastwick", "D6": "Southam Downs"},
    "two_city": "C5", "edges": (1, 4),
    "borders": {("C5", 3): IMPASSABLE, ("C5", 5): WATER, ("C5", 0): MOUNTAIN},
}
CASES = {"flat": FLAT, "pointy": POINTY}


def make_board(layout: str, borders: bool = True, home: bool = True, token: bool = True) -> Board:
    case = CASES[layout]
    text = case["hexes"]
    if not borders:
        text = {h: " ".join(t for t in s.split() if not t.startswith("border:")) for h, s in text.items()}
    m = map_from_json({"title": f"test {layout}", "layout": layout, "hexes": text, "names": case["names"],
                       "homes": {"BB": case["two_city"]} if home else {}, "tiles": {}})
    b = Board.new(m)
    return b.place_token(case["two_city"], "AA", 1) if token else b


def picture(board: Board) -> Image.Image:
    png = render_map(board, corp_colours=COLOURS)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(png)).convert("RGB")


def at(board: Board, coord: str, pt: tuple[float, float]) -> tuple[int, int]:
    """A point given in units of R about a hex's centre, as a pixel of the picture."""
    cx, cy = hex_centre(coord, board.map)
    return round(cx + pt[0] * R), round(cy + pt[1] * R)


def near(rgb, want, tol: int = 24) -> bool:
    want = ImageColor.getrgb(want) if isinstance(want, str) else want
    return all(abs(a - b) <= tol for a, b in zip(rgb, want, strict=False))


def count(img: Image.Image, centre: tuple[float, float], half: float, want, tol: int = 24) -> int:
    """Pixels within `tol` of `want` in the square of half-side `half` px about `centre`."""
    x0, y0 = round(centre[0] - half), round(centre[1] - half)
    x1, y1 = round(centre[0] + half), round(centre[1] + half)
    return sum(near(img.getpixel((x, y)), want, tol) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1))


def along_edge(layout: str, edge: int, t: float) -> tuple[float, float]:
    """The point of `edge` a fraction `t` of the way from its midpoint to the end away from the cost label."""
    mx, my = _edge_mid(layout, edge)
    lx, ly = _border_label_at(layout, edge)
    end = max(_edge_ends(layout, edge), key=lambda c: hypot(c[0] - lx, c[1] - ly))
    return mx + t * (end[0] - mx), my + t * (end[1] - my)


@pytest.fixture(scope="module", params=["flat", "pointy"])
def layout(request) -> str:
    return request.param


@pytest.fixture(scope="module")
def board(layout) -> Board:
    return make_board(layout)


@pytest.fixture(scope="module")
def img(board) -> Image.Image:
    return picture(board)


def test_each_border_is_a_line_of_its_kind_along_its_own_edge(layout, board, img):
    bordered = CASES[layout]["borders"]
    coord = CASES[layout]["two_city"]
    for edge in range(6):
        on_line = [img.getpixel(at(board, coord, along_edge(layout, edge, t))) for t in (0.3, 0.6)]
        inside = img.getpixel(at(board, coord, tuple(0.72 * v for v in _edge_mid(layout, edge))))
        if (coord, edge) in bordered:
            assert all(near(p, bordered[coord, edge]) for p in on_line), (edge, on_line)
        else:  # an unbordered edge shows none of the border colours
            assert not any(near(p, c) for p in on_line for c in (IMPASSABLE, WATER, MOUNTAIN)), (edge, on_line)
        # the line stays on the edge: a little way into the hex is no border colour
        assert not any(near(inside, c) for c in (IMPASSABLE, WATER, MOUNTAIN)), (edge, inside)


def test_a_border_listed_on_the_neighbours_side_is_drawn_on_the_same_edge(layout, board, img):
    # The impassable and mountain borders are listed on the neighbour: sample from the neighbour's own geometry.
    for (coord, edge), colour in CASES[layout]["borders"].items():
        other = board.map.neighbour(coord, edge)
        back = hexes.opposite(edge)
        assert at(board, other, _edge_mid(layout, back)) == pytest.approx(at(board, coord, _edge_mid(layout, edge)),
                                                                          abs=1)
        assert near(img.getpixel(at(board, other, along_edge(layout, back, 0.45))), colour)


def test_a_costly_border_has_its_cost_written_on_the_edge_once(layout, board, img):
    plain = picture(make_board(layout, borders=False))
    coord = CASES[layout]["two_city"]
    for (_, edge), colour in CASES[layout]["borders"].items():
        label = at(board, coord, _border_label_at(layout, edge))
        other = board.map.neighbour(coord, edge)
        assert at(board, other, _border_label_at(layout, hexes.opposite(edge))) == pytest.approx(label, abs=1)
        white = count(img, label, 0.09 * R, (255, 255, 255), tol=8)
        if colour == IMPASSABLE:
            assert white == 0  # no cost, no label
            continue
        ink = (10, 60, 130) if colour == WATER else (20, 20, 20)
        assert white > 30 and count(img, label, 0.09 * R, ink, tol=40) > 5, edge  # a white box with the number
        assert count(plain, label, 0.09 * R, (255, 255, 255), tol=8) == 0  # and none of it without the border


def test_each_city_of_the_two_city_hex_sits_towards_its_own_edge(layout, board, img):
    coord = CASES[layout]["two_city"]
    cities = [node_centre(board, coord, i) for i in (0, 1)]
    for i, edge in enumerate(CASES[layout]["edges"]):
        mid = at(board, coord, _edge_mid(layout, edge))
        mine, other = (hypot(c[0] - mid[0], c[1] - mid[1]) for c in (cities[i], cities[1 - i]))
        assert mine < other, (i, edge)
        # its own track runs from the edge to it: just inside the edge, on the way to the city, is black
        d = hypot(cities[i][0] - mid[0], cities[i][1] - mid[1])
        x, y = mid[0] + (cities[i][0] - mid[0]) * 0.05 * R / d, mid[1] + (cities[i][1] - mid[1]) * 0.05 * R / d
        assert max(img.getpixel((round(x), round(y)))) < 70, (i, edge)
    # no track joins the two cities: the middle of the hex is its plain yellow
    cx, cy = hex_centre(coord, board.map)
    assert near(img.getpixel((cx, cy)), "#fde900")
    # both cities are drawn inside the hex and apart
    assert all(hypot(x - cx, y - cy) < APO * R for x, y in cities)
    assert hypot(cities[0][0] - cities[1][0], cities[0][1] - cities[1][1]) > 0.55 * R


def test_the_token_and_the_home_mark_are_each_in_their_own_city(layout, board, img):
    coord = CASES[layout]["two_city"]
    home, tokened = (node_centre(board, coord, i) for i in (0, 1))
    assert count(img, tokened, 0.15 * R, RED) > 100
    assert count(img, home, 0.2 * R, RED) == 0
    # the home city shows "BB" in grey in its slot; the token's city does not, nor the home city without a home
    assert count(img, home, 0.14 * R, RESERVED_GREY, tol=20) > 10
    assert count(img, tokened, 0.14 * R, RESERVED_GREY, tol=20) == 0
    bare = picture(make_board(layout, home=False))
    assert count(bare, home, 0.14 * R, RESERVED_GREY, tol=20) == 0
    assert count(img, home, 0.2 * R, BLUE) == 0  # a home is marked in grey, not in the owner's colour


def test_a_home_in_the_second_city_is_marked_there():
    m = map_from_json({"title": "t", "layout": "pointy", "hexes": POINTY["hexes"], "tiles": {},
                       "homes": {"BB": "C5"}, "home_nodes": {"BB": 1}})
    b = Board.new(m)
    assert b.reserved == {"C5:1": "BB"}
    pic = picture(b)
    first, second = (node_centre(b, "C5", i) for i in (0, 1))
    assert count(pic, second, 0.14 * R, RESERVED_GREY, tol=20) > 10
    assert count(pic, first, 0.14 * R, RESERVED_GREY, tol=20) == 0


def test_the_pointy_map_lays_hexes_out_by_the_engines_edges():
    b = make_board("pointy")
    for coord in b.map.printed:
        for edge in range(6):
            other = b.map.neighbour(coord, edge)
            if other is None:
                continue
            (x0, y0), (x1, y1) = hex_centre(coord, b.map), hex_centre(other, b.map)
            dx, dy = _edge_dir("pointy", edge)
            assert (x1 - x0, y1 - y0) == pytest.approx((2 * APO * R * dx, 2 * APO * R * dy), abs=1.5), (coord, edge)


def test_a_pointy_map_has_a_sane_size_with_every_hex_inside(layout):
    b = make_board(layout)
    pic = picture(b)
    assert 300 <= pic.width <= 1000 and 300 <= pic.height <= 1000
    for coord in b.map.printed:
        corners = [at(b, coord, _corner(layout, e)) for e in range(6)]
        assert all(0 <= x < pic.width and 0 <= y < pic.height for x, y in corners), coord
        for e in range(6):  # just inside each corner is the hex, not the sea
            assert pic.getpixel(at(b, coord, _corner(layout, e, 0.9))) != SEA, (coord, e)
        # the legend covers no hex (a small map grows room for it): at most a stray antialiased pixel matches
        assert count(pic, hex_centre(coord, b.map), 0.7 * R, LEGEND_FILL, tol=2) < 20, coord
    assert sum(n for n, rgb in pic.getcolors(1 << 16) if rgb == LEGEND_FILL) > 1000  # but it is there


@pytest.mark.parametrize("text", ["yellow city:40 city:40 3-_0 3-_1",  # both on one edge, as 1807's London
                                  "green city:40:2 city:40:2 0-_0 1-_1 label:NY"])  # wide cities, adjacent edges
def test_cities_that_would_overlap_are_pushed_apart_inside_the_hex(layout, text):
    m = map_from_json({"title": "t", "layout": layout, "hexes": {"C3": text, "C1": "white", "C5": "white"},
                       "tiles": {}})
    b = Board(m).place_token("C3", "AA", 0).place_token("C3", "BB", 1)
    pic = picture(b)
    slots = []
    for i in (0, 1):
        x, y = node_centre(b, "C3", i)
        offsets, r = _city_circles(m.printed["C3"].nodes[i].slots)
        slots.append([(x + dx * R, y + dy * R) for dx, dy in offsets])
        cx, cy = hex_centre("C3", m)
        for sx, sy in slots[i]:  # each slot wholly inside the hex
            assert max((sx - cx) * ux + (sy - cy) * uy for ux, uy in (_edge_dir(layout, e) for e in range(6))) \
                + r * R <= APO * R, (i, sx, sy)
    assert min(hypot(p[0] - q[0], p[1] - q[1]) for p in slots[0] for q in slots[1]) >= 2 * r * R
    # each corporation's token is in its own city's first slot and not in the other city
    for i, (mine, theirs) in enumerate(((RED, BLUE), (BLUE, RED))):
        assert count(pic, slots[i][0], 0.15 * R, mine) > 100, i
        assert count(pic, slots[i][0], 0.15 * R, theirs) == 0, i
