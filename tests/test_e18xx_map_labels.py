"""The writing on every hex of every 18xx title's map (pictures.hex_layout, as render_map draws it): the place's name,
the tile's label, the coordinate, revenues, costs, ports and offboard revenue boxes stay clear of the cities' token
circles and of each other, in English and in Japanese; 1890's Ibaraki / Settsu (E14), whose name ran over its lower
city, among them."""
from __future__ import annotations

import pytest

from bot.i18n import say
from cogs.e18xx.pictures import hex_layout
from engines.e18xx import hexes
from engines.e18xx.board import Board, load_map

# 1890's scenarios print the full map's hexes as they are (a subset): drawn again only in the slow run
MAPS = ["g1889", "g1867", "g1807", "g1890",
        *(pytest.param(f"g1890/{s}", marks=pytest.mark.slow) for s in ("hanshin", "keihanshin", "simplified"))]
TOUCH = 0.01  # in units of R (0.7 px): a graze this small is not an overlap


def overlaps(a, b) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > TOUCH and min(a[3], b[3]) - max(a[1], b[1]) > TOUCH


def hits_circle(box, circle) -> bool:
    x, y, r = circle
    dx, dy = max(box[0] - x, 0.0, x - box[2]), max(box[1] - y, 0.0, y - box[3])
    return (dx * dx + dy * dy) ** 0.5 < r - TOUCH


@pytest.fixture(scope="module", params=MAPS)
def board(request) -> Board:
    return Board.new(load_map(request.param))


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_no_writing_runs_over_a_city_or_other_writing(board, lang):
    problems = []
    for coord in board.map.printed:
        room = hex_layout(board, coord, lang)
        for kind, text, box in room.marks:
            problems += [(coord, kind, text, "city") for c in room.cities if hits_circle(box, c)]
        for k, (kind, text, box) in enumerate(room.marks):
            problems += [(coord, kind, text, other_kind, other) for other_kind, other, other_box in room.marks[k + 1:]
                         if overlaps(box, other_box) and not kind == other_kind == "name"]  # a name's two lines
    assert not problems, problems


def test_ibaraki_settsus_name_is_clear_of_both_its_cities():
    board = Board.new(load_map("g1890"))
    room = hex_layout(board, "E14")
    names = [box for kind, _, box in room.marks if kind == "name"]
    assert " ".join(t for k, t, _ in room.marks if k == "name") == say(board.map.city_name("E14"), "en")
    assert len(room.cities) == 2 and names
    assert not any(hits_circle(box, c) for box in names for c in room.cities)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_londons_inset_reads_as_six_hexes_of_two_cities_joined_to_the_small_london_hex(lang):
    """1807: each inset hex draws its two cities (no revenue of their own: they pay what U23's tile pays, which the
    inset's middle says), names on its linked edge the hex it joins, and that hex names it back; U23 names the inset;
    the inset's inner edges are drawn."""
    from cogs.e18xx.pictures import _unique_lines
    from cogs.fonts import missing_glyphs

    board = Board.new(load_map("g1807"))
    m = board.map
    joined = {hex_: other for (hex_, _), other in m.links.items()}
    for coord in m.mirrors["U23"]:
        room = hex_layout(board, coord, lang)
        assert len(room.cities) == 2 and not any(k == "revenue" for k, _, _ in room.marks)
        (tag,) = [t for k, t, _ in room.marks if k == "link"]
        assert tag == joined[coord] and joined[tag] == coord
        assert coord in [t for k, t, _ in hex_layout(board, tag, lang).marks if k == "link"]
    middle = " ".join(t for k, t, _ in hex_layout(board, "L28", lang).marks if k == "name")
    small = hex_layout(board, "U23", lang)
    note = " ".join(t for k, t, _ in small.marks if k == "name")
    if lang == "en":
        assert middle == "London pays as U23" and note == "London enlarged at L28"
    else:
        assert middle == "ロンドン 収益はU23と同じ" and note == "ロンドン 拡大図：L28"
    assert not missing_glyphs(middle + note)
    assert [t for k, t, _ in small.marks if k == "revenue"] == ["40"]  # a flat offboard revenue is drawn
    drawn = {side for c, e in _unique_lines(m) for side in ((c, e), (hexes.neighbour(c, e, m.layout), (e + 3) % 6))}
    listed = {(c, e) for c in ("L28", *m.mirrors["U23"]) for e in m.printed[c].lines}
    assert len(listed) == 24 and listed <= drawn  # L28's six edges and three of each other hex's
