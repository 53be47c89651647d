"""18xx pictures: the 1889 map, the stock market and the charters, checked by size and by pixels where things
should be drawn (hex centres, a laid tile, a token, a market marker)."""
from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops, ImageColor

from cogs.e18xx.pictures import (
    SEA,
    R,
    _hex_image,
    cell_box,
    corp_colours,
    hex_centre,
    render_charters,
    render_map,
    render_market,
)
from engines.e18xx.board import Board, load_map
from engines.e18xx.companies import load_title


@pytest.fixture(scope="module")
def board() -> Board:
    return Board.new(load_map("g1889"))


def _open(png: bytes) -> Image.Image:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(png)).convert("RGB")


def _near(rgb: tuple[int, ...], colour: str, tol: int = 12) -> bool:
    want = ImageColor.getrgb(colour)
    return all(abs(a - b) <= tol for a, b in zip(rgb, want, strict=False))


def _pixels(img: Image.Image, box: tuple[int, int, int, int], colour: str) -> list[tuple[int, int]]:
    x0, y0, x1, y1 = box
    return [(x, y) for x in range(x0, x1) for y in range(y0, y1) if _near(img.getpixel((x, y)), colour)]


def _count(img: Image.Image, colour: str, tol: int = 12) -> int:
    """How many pixels of the whole picture are within `tol` of `colour` in every channel (without a Python loop)."""
    diff = ImageChops.difference(img, Image.new("RGB", img.size, ImageColor.getrgb(colour)))
    close = [band.point(lambda v: 255 if v <= tol else 0) for band in diff.split()]
    return ImageChops.multiply(ImageChops.multiply(close[0], close[1]), close[2]).histogram()[255]


def _around(coord: str, radius: float) -> tuple[int, int, int, int]:
    cx, cy = hex_centre(coord)
    r = round(radius)
    return cx - r, cy - r, cx + r, cy + r


def test_corp_colours_come_from_the_title():
    colours = corp_colours("1889")
    title = load_title("1889")
    assert set(colours) == {c.id for c in title.corporations}
    assert colours["IR"] == "#f48221"
    assert corp_colours("no such title") == {}


def test_the_map_draws_every_hex(board):
    img = _open(render_map(board))
    assert 1200 <= img.width <= 1700 and 800 <= img.height <= 1300
    centres = {coord: hex_centre(coord) for coord in board.map.printed}
    assert len(set(centres.values())) == len(centres)
    for coord, (x, y) in centres.items():
        assert 0 < x < img.width and 0 < y < img.height, coord
        assert img.getpixel((x, y)) != SEA, f"nothing drawn at {coord}"
        # and a point half way to the edge is not the sea either: the whole hex is there
        assert img.getpixel((x + R // 2, y + R // 4)) != SEA, coord
    assert img.getpixel((5, img.height // 2)) == SEA  # the margin is sea


def test_hexes_have_their_colours(board):
    img = _open(render_map(board))
    assert _pixels(img, _around("F1", R * 0.7), "#ec232a")  # the Imabari offboard is red
    assert _pixels(img, _around("B3", R * 0.7), "#bcbdc0")  # Yawatahama is gray
    assert _pixels(img, _around("K4", R * 0.7), "#fde900")  # Takamatsu is printed yellow
    assert _pixels(img, _around("F9", R * 0.7), "#71bf44")  # Kouchi is printed green


def test_laying_a_tile_changes_its_hex(board):
    before = _open(render_map(board))
    after = _open(render_map(board.lay_tile("C8", "9", 0)))  # a yellow straight, bottom to top
    box = _around("C8", R * 0.8)
    changed = sum(before.getpixel((x, y)) != after.getpixel((x, y))
                  for x in range(box[0], box[2]) for y in range(box[1], box[3]))
    assert changed > (box[2] - box[0]) ** 2 // 3
    cx, cy = hex_centre("C8")
    assert max(after.getpixel((cx, cy))) < 60  # track through the centre
    assert _near(after.getpixel((cx + R // 2, cy)), "#fde900")  # yellow beside it
    # the neighbours are untouched
    x, y = hex_centre("C6")
    assert before.getpixel((x + 10, y + 10)) == after.getpixel((x + 10, y + 10))


def test_a_token_shows_the_corporation_colour_in_its_city(board):
    orange = corp_colours("1889")["IR"]
    before = _open(render_map(board))
    assert not _pixels(before, _around("E2", R * 0.3), orange)
    after = _open(render_map(board.place_token("E2", "IR")))
    assert len(_pixels(after, _around("E2", R * 0.3), orange)) > 100
    # colours can be given by the caller
    blue = _open(render_map(board.place_token("E2", "IR"), corp_colours={"IR": "#1040e0"}))
    assert len(_pixels(blue, _around("E2", R * 0.3), "#1040e0")) > 100


def test_two_tokens_in_a_two_slot_city(board):
    colours = corp_colours("1889")
    b = board.lay_tile("K8", "14", 0).place_token("K8", "AR").place_token("K8", "KO")
    img = _open(render_map(b))
    box = _around("K8", R * 0.6)
    ar, ko = _pixels(img, box, colours["AR"]), _pixels(img, box, colours["KO"])
    assert len(ar) > 100 and len(ko) > 100
    assert sum(x for x, _ in ar) / len(ar) < sum(x for x, _ in ko) / len(ko)  # slot 0 is on the left


def test_every_tile_draws_in_some_rotation():
    m = load_map("g1889")
    for i, name in enumerate(m.tiles):
        pic = _hex_image(m, "I8", name, i % 6, True, ((None, None, None),), None, ())
        assert pic.getbbox() is not None


def test_the_market_shows_markers_on_their_cells():
    colours = corp_colours("1889")
    market = load_title("1889").market
    positions = {"100,0,3": ["IR", "AR"], "65,6,4": ["KO"]}
    img = _open(render_market(market, positions, colours))
    assert 1200 <= img.width <= 1700 and 700 <= img.height <= 1300
    ir = _pixels(img, cell_box("100,0,3"), colours["IR"])
    ar = _pixels(img, cell_box("100,0,3"), colours["AR"])
    assert len(ir) > 100 and len(ar) > 100
    assert sum(x for x, _ in ir) / len(ir) < sum(x for x, _ in ar) / len(ar)  # first to arrive on the left
    assert len(_pixels(img, cell_box("65,6,4"), colours["KO"])) > 100
    assert not _pixels(img, cell_box("90,1,3"), colours["IR"])
    # every cell of the grid lies on the picture
    for row in market.rows:
        for cell in row:
            x0, y0, x1, y1 = cell_box(cell.id)
            assert 0 <= x0 < x1 <= img.width and 0 <= y0 < y1 <= img.height


def test_the_charters():
    colours = corp_colours("1889")
    corps = [
        {"id": "IR", "name": "Iyo Railway", "colour": colours["IR"], "text_colour": "#ffffff", "cash": 420,
         "trains": ["2", "3"], "tokens_left": 1, "tokens_total": 2, "president": "Ann", "price": 100,
         "floated": True, "privates": ["SMR"]},
        {"id": "KO", "name": "Takamatsu & Kotohira Electric Railway", "colour": colours["KO"],
         "text_colour": "#ffffff", "cash": 0, "trains": [], "tokens_left": 2, "tokens_total": 2,
         "president": None, "price": None, "floated": False, "privates": []},
        {"id": "SR"},  # a bare dict still draws
    ]
    img = _open(render_charters(corps))
    assert 700 <= img.width <= 1700 and 200 <= img.height <= 1000
    assert _count(img, colours["IR"]) > 1000
    assert _count(img, colours["KO"]) > 1000
    seven = _open(render_charters([{"id": c.id, "name": c.name, "colour": c.color}
                                   for c in load_title("1889").corporations]))
    assert 900 <= seven.width <= 1700
    assert _open(render_charters([])).width > 0
