"""The I'm the Boss! board picture: a real public view from the engine, drawn and checked by pixels."""
from __future__ import annotations

import io
import random

from PIL import Image, ImageStat

import engines
from cogs.boss_board import GOLD, H, W, render, space_box
from engines.base import CHANCE
from engines.log import run_chance

NAMES = ["Ann", "Ben", "Cat", "Dan"]
GREEN_CARD = 20  # index of the first green family card in engines.boss.DECK


def _start(deck_order: list[int] | None = None):
    """A 4-player game with the marker placed on space 1 (red investor: Ann, blue: Ben, ...)."""
    e = engines.get("boss")
    s = e.setup({}, 4)
    s = e.apply(s, CHANCE, {"type": "shuffle", "order": deck_order or list(range(98))})
    s = e.apply(s, CHANCE, {"type": "shuffle", "order": list(range(6))})
    s = e.apply(s, 3, {"type": "place", "space": 0})
    return e, s


def _image(public: dict) -> Image.Image:
    img = Image.open(io.BytesIO(render(public, NAMES)))
    img.load()
    return img


def _marker_area(img: Image.Image, space: int) -> Image.Image:
    x0, y0, x1, y1 = space_box(space)
    return img.crop((x0, y1 - 60, x0 + 60, y1))


def _gold_pixels(img: Image.Image) -> int:
    raw = img.convert("RGB").tobytes()
    return sum(1 for k in range(0, len(raw), 3)
               if all(abs(raw[k + j] - GOLD[j]) < 30 for j in range(3)))


def _body(img: Image.Image, space: int) -> Image.Image:
    x0, y0, x1, y1 = space_box(space)
    return img.crop((x0 + 30, y0 + 50, x1 - 30, y1 - 20))


def test_png_opens_at_size():
    e, s = _start()
    img = _image(e.public(s))
    assert img.format == "PNG"
    assert img.size == (W, H) == (900, 900)


def test_marker_space_differs_from_a_free_space():
    e, s = _start()
    img = _image(e.public(s))
    assert _gold_pixels(_marker_area(img, 0)) > 200
    assert _gold_pixels(_marker_area(img, 2)) == 0


def test_picture_changes_when_the_marker_moves():
    e, s = _start()
    before = e.public(s)
    s = e.apply(s, 0, {"type": "roll"})
    s = e.apply(s, CHANCE, {"type": "dice", "values": [3]})
    after = e.public(s)
    assert (before["marker"], after["marker"]) == (0, 3)
    a, b = _image(before), _image(after)
    assert render(before, NAMES) != render(after, NAMES)
    assert _gold_pixels(_marker_area(a, 0)) > 200 and _gold_pixels(_marker_area(b, 0)) == 0
    assert _gold_pixels(_marker_area(a, 3)) == 0 and _gold_pixels(_marker_area(b, 3)) > 200


def test_covered_space_and_deal_space_look_different():
    # Ann (red investor) gets a green family card first and makes the deal on space 1: red + green.
    order = [GREEN_CARD] + [i for i in range(98) if i != GREEN_CARD]
    e, s = _start(order)
    plain = _image(e.public(s))
    s = e.apply(s, 0, {"type": "deal"})
    s = e.apply(s, 0, {"type": "lay", "family": "green"})
    dealing = e.public(s)
    assert dealing["deal"]["space"] == 0 and dealing["deal"]["needed"] == []
    during = _image(dealing)
    assert ImageStat.Stat(_body(during, 0)).mean != ImageStat.Stat(_body(plain, 0)).mean  # highlighted
    s = e.apply(s, 0, {"type": "declare"})
    for seat in (1, 2, 3):  # the last call: nobody plays a card
        s = e.apply(s, seat, {"type": "pass"})
    done = e.public(s)
    assert done["spaces"][0]["tile"] == 1 and done["marker"] == 1
    img = _image(done)
    covered = ImageStat.Stat(_body(img, 0).convert("L")).mean[0]
    free = ImageStat.Stat(_body(img, 2).convert("L")).mean[0]
    assert covered < free - 60
    assert _gold_pixels(_marker_area(img, 1)) > 200 and _gold_pixels(_marker_area(img, 0)) == 0


def _play(players: int, seed: int, every: int, options: dict | None = None) -> tuple[int, dict]:
    """A whole game of random legal moves (leaning toward finishing deals), drawing every
    ``every``-th public view on the way and the last one; returns (views drawn, last view)."""
    e, rng = engines.get("boss"), random.Random(seed)
    names = [f"Player {k + 1} with a rather long name" for k in range(players)]
    s = e.setup(options or {}, players)
    drawn = 0
    for step in range(5000):
        s, _ = run_chance(e, s, rng)
        if step % every == 0 or e.is_over(s):
            assert render(e.public(s), names).startswith(b"\x89PNG")
            drawn += 1
        if e.is_over(s):
            return drawn, e.public(s)
        seat = rng.choice(sorted(e.awaiting(s).seats))
        moves = e.legal(s, seat)
        quick = [m for m in moves if m["type"] in ("deal", "declare", "pass", "accept", "lay", "offer")]
        s = e.apply(s, seat, rng.choice(quick if quick and rng.random() < 0.7 else moves))
    raise AssertionError("the random game did not end")


def test_every_public_view_of_a_random_game_renders():
    drawn, last = _play(2, 3, 1)  # every view of a short 2-player game
    assert drawn > 50 and last["phase"] == "over" and last["deals_done"] > 5
    for players, seed, options in ((3, 11, {}), (6, 5, {"short": True})):  # longer games: a sample of views
        drawn, last = _play(players, seed, 25, options)
        assert drawn > 10 and last["phase"] == "over"
