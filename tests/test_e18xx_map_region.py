"""Crops of a big 18xx map (cogs/e18xx/map_region.py, pictures.render_region): along a seeded random game of 1807
(232 hexes and the London inset), at every track step of its first operating rounds the crop holds the acting
corporation's home and every hex it may lay on; the crop is the whole map's drawing cut out at full size, a fraction
of the whole, and its place names stay legible on a phone; 1889 stays whole; Japanese draws every glyph. The whole
1807 map is drawn once for the module."""
from __future__ import annotations

import io
import random
from contextlib import contextmanager
from functools import cache

import pytest
from PIL import Image, ImageDraw

from bot.i18n import say
from bot.tables import Change
from cogs.e18xx import map_region, pictures
from cogs.e18xx.map_region import PHONE_WIDTH, changed_focus, crop, network, region_png, step_focus
from cogs.e18xx.pictures import S, hex_centre, hex_extent, render_map
from cogs.e18xx.presenter import E18xxPresenter
from cogs.fonts import missing_glyphs
from engines.base import CHANCE
from engines.chance import draw
from engines.e18xx import operating
from engines.e18xx.game import BigFour1807, Shikoku1889
from engines.e18xx.state import G
from tests.e18xx_helpers import presenter_table

E = BigFour1807()


@cache
def track_steps(seed: int = 3, wanted: int = 20) -> tuple:
    """(state, seat, legal moves, operating corporation) at the first `wanted` track steps with a lay open."""
    rng, s, found = random.Random(seed), E.setup({}, 4), []
    while len(found) < wanted:
        aw = E.awaiting(s)
        if aw.chance is not None:
            seat, a = CHANCE, draw(aw.chance, rng)
        else:
            seat = min(aw.seats)
            moves = E.legal(s, seat)
            if s["round"]["kind"] == "operating" and s["round"].get("step") == "track" \
                    and any(m["type"] == "lay_tile" for m in moves):
                found.append((s, seat, moves, operating.current(G(s))))
            a = rng.choice(moves) if rng.random() < 0.7 else (E.auto_action(s, seat) or moves[-1])
        s = E.apply(s, seat, a)
    return tuple(found)


@pytest.fixture(scope="module")
def whole() -> Image.Image:
    s = track_steps()[0][0]
    return Image.open(io.BytesIO(render_map(G(s).board))).convert("RGB")


def inside(coord: str, box, map_def) -> bool:
    x, y = hex_centre(coord, map_def)
    return box[0] <= x <= box[2] and box[1] <= y <= box[3]


def test_the_crop_holds_the_home_and_every_hex_the_corporation_may_lay_on():
    """Its own lays (a private's free lay, P2-P5, may be anywhere: not in the focus, see map_region)."""
    inset = map_region.inset_of(G(track_steps()[0][0]).map)
    london = 0
    for s, _, moves, cid in track_steps():
        g = G(s)
        boxes = crop(g.map, step_focus(s, moves))
        assert boxes, cid
        home = g.map.homes.get(cid) or next(iter(network(g.board, cid)))
        lays = {m["hex"] for m in moves if m["type"] == "lay_tile" and m.get("entity_type") != "company"}
        for coord in {home} | lays:
            if coord in inset:  # an inset hex in the inset's own crop, and the small hex it stands for in the first
                london += 1
                assert inside(coord, boxes[1], g.map) and inside(inset[coord], boxes[0], g.map), (cid, coord)
            else:
                assert inside(coord, boxes[0], g.map), (cid, coord, boxes)
    assert london  # London's minors were among them: the inset was tried


def test_the_crop_is_the_whole_maps_drawing_cut_out_smaller_and_legible_on_a_phone(whole):
    s, _, moves, cid = next(t for t in track_steps() if t[3] not in ("LB", "LH", "LS", "LR", "LY", "EK", "SE", "EC"))
    g = G(s)
    (box,) = crop(g.map, step_focus(s, moves))
    part = Image.open(io.BytesIO(region_png(s, step_focus(s, moves)))).convert("RGB")
    assert part.size == (box[2] - box[0], box[3] - box[1])
    assert part.width * part.height < whole.width * whole.height / 4  # a quarter of the whole, or less
    # Cut out at full size: around the home hex, the crop's pixels are the whole map's.
    hx, hy = hex_centre(g.map.homes[cid], g.map)
    w, h = hex_extent(g.map)
    for dx in range(-w // 3, w // 3, 7):
        for dy in range(-h // 3, h // 3, 7):
            assert part.getpixel((hx + dx - box[0], hy + dy - box[1])) == whole.getpixel((hx + dx, hy + dy))
    # The names' size, measured as drawn: each hex is drawn S times over and shrunk, so a name's font size / S is
    # its height in pixels on the picture; a hex is `w` pixels across.
    sizes = {}
    with spied() as calls:
        region_png(s, step_focus(s, moves))
    for text, size in calls:
        sizes[text] = min(size / S, sizes.get(text, 99))
    named = [say(g.map.city_name(c), "en") for c in g.map.names if inside(c, box, g.map)]
    assert named
    for name in named:
        shown = [v for t, v in sizes.items() if t in name]  # a long name may be drawn on two lines
        assert shown and min(shown) >= 8, (name, shown)  # 11 px, down to 8 in a crowded hex (map_region)
        # across a phone's screen, the crop is not shrunk below that; the whole map is (names at 11 px -> 6)
        assert min(shown) * min(1, PHONE_WIDTH / part.width) >= 8
    assert 11 * PHONE_WIDTH / whole.width < 7
    assert w >= 120 and part.width <= 6 * w  # a hex is 120 px and more, and the crop at most six hexes across


def test_a_small_map_is_shown_whole():
    s = Shikoku1889().setup({}, 3)
    assert crop(G(s).map, {"F9", "K4"}) is None and region_png(s, {"F9"}) is None


def test_after_a_lay_the_announcement_shows_the_part_that_changed_then_the_whole_map():
    s, seat, moves, cid = track_steps()[0]
    lay = next(m for m in moves if m["type"] == "lay_tile")
    after = E.apply(s, seat, lay)
    assert lay["hex"] in changed_focus(s, after) and network(G(after).board, cid) <= changed_focus(s, after)
    posts = E18xxPresenter().announce(Change("action", presenter_table(E, after), entries=[(2, seat, lay)], before=s))
    assert len(posts) == 2
    part, whole = (Image.open(io.BytesIO(p)) for _, p in posts)
    assert part.width * part.height < whole.width * whole.height / 4
    assert "whole map" in posts[1][0]


def test_the_crop_draws_japanese_with_every_glyph():
    s, _, moves, _ = next(t for t in track_steps() if t[3] in ("LB", "LH", "LS", "LR", "LY", "EK", "SE", "EC"))
    g = G(s)
    with spied() as calls:
        region_png(s, step_focus(s, moves), "ja")
    texts = [t for t, _ in calls]
    assert any(say(g.map.city_name("U23"), "ja") in t for t in texts)  # ロンドン, in the crop around U23
    for text in texts:
        assert not missing_glyphs(text), text


@contextmanager
def spied():
    """(text, font size) of every ImageDraw.text meanwhile, the hexes' cache emptied first so that all is drawn."""
    pictures._hex_image.cache_clear()
    calls: list[tuple[str, float]] = []
    original = ImageDraw.ImageDraw.text

    def spy(self, xy, text, *args, **kwargs):
        calls.append((str(text), kwargs["font"].size if kwargs.get("font") else 0))
        return original(self, xy, text, *args, **kwargs)

    ImageDraw.ImageDraw.text = spy
    try:
        yield calls
    finally:
        ImageDraw.ImageDraw.text = original
        pictures._hex_image.cache_clear()


def test_a_crop_cut_out_of_the_whole_map_already_drawn_is_the_crop_drawn_anew():
    """A lay's narration draws the whole map once and cuts the part that changed out of it (presenter.announce): the
    same picture as the part drawn on its own, at a fraction of the work."""
    for s, _, moves, _ in track_steps()[:3]:
        focus = step_focus(s, moves)
        drawn = pictures.map_image(G(s).board, corp_colours=pictures.corp_colours("1807"))
        cut = Image.open(io.BytesIO(region_png(s, focus, whole=drawn))).convert("RGB")
        anew = Image.open(io.BytesIO(region_png(s, focus))).convert("RGB")
        assert cut.size == anew.size and cut.tobytes() == anew.tobytes()
