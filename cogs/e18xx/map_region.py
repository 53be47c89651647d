"""Which part of an 18xx map a picture shows: the whole of a small map, else a crop around what matters for a move,
so that a player reads it on a phone (a hex about 130 px across on the picture, its names at 11 px and more).

The rules:

- A map of at most SMALL_MAP hexes (1889's 52, 1890's scenarios) is shown whole: it reads as it is.
- Otherwise a picture has a focus, a set of hexes: the acting corporation's network (the hexes of its tokens and
  its home) and, at its track or token step, every hex it may lay a tile on or place a token in; after a lay or a
  token, the hexes just changed; for `/18xx map around:` the hex named.
- The crop is the focus's bounding box padded by one hex on every side, grown about its centre to at least
  MIN_ACROSS hexes across and MIN_DOWN hexes down, and moved back inside the map where it would stick out.
- Hexes of an inset (1807's London: the hexes a map's small hex mirrors, and the hexes severed from the rest) lie
  far from the place they stand for: in the focus each counts as the small hex it mirrors (U23, so the crop shows
  the track that reaches London), and the inset gets a crop of its own, drawn beside the first.
- Where the crop would cover CROP_MAX or more of the whole map's area, the whole map is shown instead: it would be
  no easier to read.

A crop is a box in the pixels of the whole map's picture (``pictures.render_map``), which ``pictures.render_region``
draws."""
from __future__ import annotations

from collections.abc import Iterable

from cogs.e18xx.pictures import hex_centre, hex_extent, hex_step
from engines.e18xx.board import Board, MapDef

SMALL_MAP = 60  # hexes: a map this small is shown whole
MIN_ACROSS, MIN_DOWN = 5, 5  # the least a crop shows, in hexes
PAD = 1  # hexes of context around the focus
CROP_MAX = 0.6  # of the whole map's area: a bigger crop is no crop

Box = tuple[int, int, int, int]  # left, top, right, bottom: pixels of the whole map's picture


def is_small(map_def: MapDef) -> bool:
    return len(map_def.printed) <= SMALL_MAP


def inset_of(map_def: MapDef) -> dict[str, str]:
    """Each inset hex -> the small hex it stands for (1807: K27 ... M29 and the severed centre L28 -> U23)."""
    out = {}
    for small, hexes in map_def.mirrors.items():
        out.update(dict.fromkeys(hexes, small))
        out.update(dict.fromkeys(map_def.severed, small))
    return out


def network(board: Board, corp: str) -> set[str]:
    """The hexes of a corporation's tokens and of its home (reserved, or the map's home before any token)."""
    found = {coord for coord, _ in board.token_nodes(corp)}
    found |= {key.partition(":")[0] for key, owner in board.reserved.items() if owner == corp}
    if not found and corp in board.map.homes:
        found.add(board.map.homes[corp])
    return found


def crop(map_def: MapDef, focus: Iterable[str]) -> list[Box] | None:
    """The boxes to draw for `focus` (a hex outside the map is ignored), or None for the whole map (see the rules)."""
    focus = {c for c in focus if c in map_def.printed}
    if is_small(map_def) or not focus:
        return None
    inset = inset_of(map_def)
    main = {inset.get(c, c) for c in focus}
    boxes = [_grown(map_def, main, map_def.printed)]
    if focus & inset.keys():
        boxes.append(_grown(map_def, set(inset), inset, least=False))
    whole = _bounds(map_def, map_def.printed)
    area = (whole[2] - whole[0]) * (whole[3] - whole[1])
    if sum((b[2] - b[0]) * (b[3] - b[1]) for b in boxes) >= CROP_MAX * area:
        return None
    return boxes


def _bounds(map_def: MapDef, coords: Iterable[str], pad: float = 0.0) -> tuple[float, float, float, float]:
    """The box of the hexes' centres, `pad` hexes wider on every side."""
    across, down = hex_step(map_def)
    xs, ys = zip(*(hex_centre(c, map_def) for c in coords), strict=True)
    return min(xs) - pad * across, min(ys) - pad * down, max(xs) + pad * across, max(ys) + pad * down


def _grown(map_def: MapDef, coords: set[str], within: Iterable[str], least: bool = True) -> Box:
    """The padded box of `coords`' centres, at least MIN_ACROSS x MIN_DOWN hexes (unless not `least`), moved inside
    the box of `within`, plus half a hex so the hexes at its edge show whole."""
    across, down = hex_step(map_def)
    x0, y0, x1, y1 = _bounds(map_def, coords, PAD)
    lx0, ly0, lx1, ly1 = _bounds(map_def, within)
    if least:
        want_w, want_h = (MIN_ACROSS - 1) * across, (MIN_DOWN - 1) * down
        if x1 - x0 < want_w:
            x0, x1 = (x0 + x1 - want_w) / 2, (x0 + x1 + want_w) / 2
        if y1 - y0 < want_h:
            y0, y1 = (y0 + y1 - want_h) / 2, (y0 + y1 + want_h) / 2
    x0, x1 = _inside(x0, x1, lx0, lx1)
    y0, y1 = _inside(y0, y1, ly0, ly1)
    w, h = hex_extent(map_def)
    return round(x0 - w / 2), round(y0 - h / 2), round(x1 + w / 2), round(y1 + h / 2)


def _inside(a: float, b: float, lo: float, hi: float) -> tuple[float, float]:
    """The span a..b moved (not shrunk) to lie within lo..hi, or lo..hi when it is longer."""
    if b - a >= hi - lo:
        return lo, hi
    if a < lo:
        return lo, b + lo - a
    if b > hi:
        return a - (b - hi), hi
    return a, b
