"""The Tokai Baron map picture: a hand-made state, drawn and checked by pixels near the projected stations."""
from __future__ import annotations

import io
import re
from itertools import pairwise
from math import dist

from PIL import Image

from cogs.tokai_map import LINE_COLOURS, PLAYER_COLOURS, TRAIL, H, W, _tint, legend_box, render, xy
from engines.tokai import network as nw

NAMES = ["Ann", "Ben", "Cat"]


def _state(**changes) -> dict:
    """Three players: Ann at Okazaki bound for Toyohashi, Ben at Gifu bound for Sakae, Cat at Kuwana."""
    players = [
        {"cash": 120000, "cards": [], "ticket": True, "pos": "okazaki", "dest": "toyohashi", "out": False},
        {"cash": 5000, "cards": [], "ticket": False, "pos": "gifu", "dest": "sakae", "out": False},
        {"cash": 0, "cards": [], "ticket": False, "pos": "kuwana", "dest": None, "out": False},
    ]
    state = {"players": players, "owners": {c: None for c in nw.route_cards()}, "current": 0, "turn": None}
    state.update(changes)
    return state


def _image(state: dict) -> Image.Image:
    img = Image.open(io.BytesIO(render(state, NAMES)))
    img.load()
    return img.convert("RGB")


def _colours_near(img: Image.Image, at: tuple[int, int], r: int = 12) -> set[tuple[int, int, int]]:
    x, y = at
    raw = img.crop((x - r, y - r, x + r + 1, y + r + 1)).tobytes()
    return {tuple(raw[i:i + 3]) for i in range(0, len(raw), 3)}


def test_png_opens_at_the_expected_size():
    img = Image.open(io.BytesIO(render(_state(), NAMES)))
    assert img.format == "PNG"
    assert img.size == (W, H)


def test_every_map_line_has_a_colour():
    for line_id in nw.lines():
        assert re.fullmatch(r"#[0-9A-Fa-f]{6}", LINE_COLOURS.get(line_id, "")), line_id


def test_stations_project_inside_the_picture_and_clear_of_the_legend():
    x0, y0, x1, y1 = legend_box(6)
    for s in nw.stations():
        x, y = xy(s)
        assert 0 < x < W and 0 < y < H, s
        assert not (x0 <= x <= x1 and y0 <= y <= y1), s


def test_each_piece_is_drawn_at_its_point():
    img = _image(_state())
    for seat, p in enumerate(_state()["players"]):
        assert PLAYER_COLOURS[seat] in _colours_near(img, xy(p["pos"])), seat


def test_an_out_player_has_no_piece():
    state = _state()
    state["players"][2]["out"] = True
    assert PLAYER_COLOURS[2] not in _colours_near(_image(state), xy("kuwana"))


def test_an_owned_card_changes_its_section():
    card = nw.route_cards()["aikan"]
    a, b = max(((a, b) for _, a, b in nw.card_pairs(card)), key=lambda ab: dist(xy(ab[0]), xy(ab[1])))
    mid = ((xy(a)[0] + xy(b)[0]) // 2, (xy(a)[1] + xy(b)[1]) // 2)
    owners = {c: None for c in nw.route_cards()} | {"aikan": 1}
    plain, owned = _image(_state()), _image(_state(owners=owners))
    box = (mid[0] - 8, mid[1] - 8, mid[0] + 9, mid[1] + 9)
    assert plain.crop(box).tobytes() != owned.crop(box).tobytes()
    assert _tint(PLAYER_COLOURS[1]) in _colours_near(owned, mid, 8)
    assert _tint(PLAYER_COLOURS[1]) not in _colours_near(plain, mid, 8)


def test_the_turns_path_is_drawn_as_a_trail():
    seq = nw.lines()["jr_tokaido"]["stations"]
    i = seq.index("okazaki")
    path = [[seq[i], None]] + [[s, "jr_tokaido"] for s in seq[i + 1:i + 4]]
    img = _image(_state(turn={"path": path}))
    a, b = max(pairwise(p[0] for p in path), key=lambda ab: dist(xy(ab[0]), xy(ab[1])))
    mid = ((xy(a)[0] + xy(b)[0]) // 2, (xy(a)[1] + xy(b)[1]) // 2)
    assert TRAIL in _colours_near(img, mid, 6)
    assert TRAIL not in _colours_near(_image(_state(turn={"path": path[:1]})), mid, 6)


def test_a_state_before_the_start_draws():
    state = _state()
    for p in state["players"]:
        p["pos"] = p["dest"] = None
    assert _image(state).size == (W, H)
