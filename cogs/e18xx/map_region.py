"""Which part of an 18xx map a picture shows: the whole of a small map, else a crop around what matters for a move,
so that a player reads it on a phone. A crop is drawn at the whole map's scale (a hex 128 px across, place names
11 px high, 8 to 10 in a crowded hex), and the least crop is 5 hexes and a margin across, under PHONE_WIDTH: shown
across a phone's screen it keeps its names at that size, where 1807's whole map (1980 px) shrinks an 11 px name to 6.

The rules:

- A map of at most SMALL_MAP hexes (1889's 52, 1890's scenarios) is shown whole: it reads as it is.
- Otherwise a picture has a focus, a set of hexes: the acting corporation's network (the hexes of its tokens and
  its home) and, at its track or token step, every hex it may lay a tile on or place a token in (a private
  company's lay, which may be anywhere, only where the player looks at it); after a lay or a token, the hexes
  just changed; for `/18xx map around:` the hex named.
- The crop is the focus's bounding box padded by one hex on every side, grown about its centre to at least
  MIN_ACROSS hexes across and MIN_DOWN hexes down, and moved back inside the map where it would stick out.
- Hexes of an inset (1807's London: the hexes a map's small hex mirrors, and the hexes severed from the rest) lie
  far from the place they stand for: in the focus each counts as the small hex it mirrors (U23, so the crop shows
  the track that reaches London), and the inset gets a crop of its own, drawn under the first.
- Where the crop would cover CROP_MAX or more of the whole map's area, the whole map is shown instead: it would be
  no easier to read.

A crop is a box in the pixels of the whole map's picture (``pictures.render_map``), which ``pictures.render_region``
draws."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from cogs.e18xx.pictures import corp_colours, hex_centre, hex_extent, hex_step, render_region
from engines.e18xx import operating
from engines.e18xx.board import Board, MapDef
from engines.e18xx.state import G

SMALL_MAP = 60  # hexes: a map this small is shown whole
MIN_ACROSS, MIN_DOWN = 5, 5  # the least a crop shows, in hexes
PAD = 1  # hexes of context around the focus
CROP_MAX = 0.6  # of the whole map's area: a bigger crop is no crop
PHONE_WIDTH = 1080  # pixels across a phone's screen

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


# ---- the focus of a moment of a game, and its picture ----
def region_png(state: dict[str, Any], focus: set[str], lang: str = "en", marks: tuple[str, ...] = (),
               whole=None) -> bytes | None:
    """The part of a big map around `focus` (cogs.e18xx.map_region's rules), `marks` ringed; None where the whole map
    is what to show (a small map, or a focus spread over most of it). `whole`: the whole map's picture of this
    state already drawn (pictures.map_image), to cut the part out of."""
    board = G(state).board
    boxes = crop(board.map, focus)
    if boxes is None:
        return None
    return render_region(board, boxes, corp_colours=corp_colours(state["title"]), lang=lang, marks=marks,
                         whole=whole)


def step_focus(state: dict[str, Any], moves: list[dict[str, Any]]) -> set[str]:
    """What matters at a track or token step: the operating corporation's network, and each hex it may lay a tile
    on or place a token in (of `moves`, the seat's legal moves; not a private company's own lay, which may be
    anywhere: 1807's P2-P5); empty at any other step."""
    g = G(state)
    reach = {m["hex"] for m in moves if m.get("type") in ("lay_tile", "place_token") and m.get("hex")
             and m.get("entity_type") != "company"}
    if not reach:
        return set()
    cid = operating.current(g) if g.round["kind"] == "operating" else None
    return reach | (network(g.board, cid) if cid else set())


def changed_focus(before: dict[str, Any], after: dict[str, Any]) -> set[str]:
    """What matters after lays and tokens: the hexes whose tile or tokens changed, and the networks of the
    corporations whose tokens changed or who were operating."""
    old, new = G(before).board, G(after).board
    hexes = {c for c in set(old.laid) | set(new.laid) if old.laid.get(c) != new.laid.get(c)}
    moved = _held(old) ^ _held(new)  # tokens placed or taken off
    hexes |= {coord for coord, _ in moved}
    corps = {corp for _, corp in moved}
    g = G(before)
    if g.round["kind"] == "operating" and (cid := operating.current(g)):
        corps.add(cid)
    return hexes.union(*(network(new, cid) for cid in corps))


def _held(board) -> set[tuple[str, str]]:
    """(hex, corporation) of every token on the board."""
    return {(coord, corp) for coord, per_node in board.tokens.items() for slots in per_node for corp in slots if corp}
