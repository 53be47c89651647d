"""The one-dimensional 18xx stock market (1867 family): a hand-made strip with every cell type, worked out by
hand, then 1807's market as 18xx.games encodes it (read from ../shared/data/18xx, skipped when absent), and
its picture."""
from __future__ import annotations

import io
import json
import re

import pytest
from PIL import Image, ImageColor

from cogs.e18xx.pictures import cell_box, render_market
from engines.e18xx.market import Market
from tests.e18xx_helpers import SHARED

# col:   0    1   2   3   4   5   6    7    8    9
# price: 0   40  50  60  70  80  90  100  120  150
#      close   minor  both   public
#                         convert   max
STRIP = {
    "one_d": True,
    "rows": [[0, 40, 50, 60, 70, 80, 90, 100, 120, 150]],
    "par_kinds": {"minor": {"0": [2, 3, 4, 5]}, "public": {"0": [4, 5, 6, 7]}},
    "cell_types": {"close": {"0": [0]}, "convert_range": {"0": [5, 6]}, "max_price": {"0": [7]}},
}
M = Market.from_data(STRIP)


def at(price: int):
    """The strip's cell of `price` (prices are unique on it)."""
    return next(c for c in M.cells if c.price == price)


def test_a_strip_is_one_row_with_row_zero_ids():
    assert M.one_d and len(M.rows) == 1
    assert [c.id for c in M.rows[0][:3]] == ["0,0,0", "40,0,1", "50,0,2"]
    assert M.by_id("150,0,9").col == 9
    with pytest.raises(ValueError):
        M.by_id("150,1,9")


def test_a_single_row_is_one_d_by_default_and_the_flag_needs_one_row():
    assert Market.from_data({"rows": [[10, 20, 30]]}).one_d
    assert not Market.from_data({"rows": [[10, 20], [5]]}).one_d
    with pytest.raises(ValueError, match="one row"):
        Market.from_data({"one_d": True, "rows": [[10, 20], [5]]})


@pytest.mark.parametrize(("start", "move", "end"), [
    (70, "right", 80),
    (150, "right", 150),  # the right end: nowhere to go
    (70, "left", 60),
    (0, "left", 0),       # the left end
    (70, "up", 80),       # up is right on a strip
    (70, "down", 60),     # down is left
    (0, "down", 0),
])
def test_single_moves(start, move, end):
    assert getattr(M, move)(at(start)).price == end


def test_payout_withhold_sold_out():
    assert M.after_payout(at(70)).price == 80
    assert M.after_payout(at(70), 2).price == 90
    assert M.after_payout(at(70), 0).price == 70  # a public company paying less than its price stays
    assert M.after_payout(at(100), 3).price == 150  # stops at the right end
    with pytest.raises(ValueError):
        M.after_payout(at(70), -1)
    assert M.after_withhold(at(70)).price == 60
    assert M.after_withhold(at(0)).price == 0
    assert M.after_sold_out(at(90)).price == 100
    assert M.after_sold_out(at(150)).price == 150


def test_a_sale_moves_left_one_step_per_share():
    assert M.after_sale(at(100), 3).price == 70
    assert M.after_sale(at(50), 4).price == 0  # stops at the left end
    assert M.after_sale(at(100), 0).price == 100


def test_capped_moves_stop_on_the_max_price_cell():
    assert M.after_payout(at(80), 3, capped=True).price == 100
    assert M.after_payout(at(80), 3).price == 120
    assert M.after_payout(at(100), capped=True).price == 100
    assert M.after_sold_out(at(100), capped=True).price == 100
    assert M.after_payout(at(70), capped=True).price == 80  # elsewhere the cap changes nothing


def test_cell_types():
    assert at(0).closes and not any(c.closes for c in M.cells if c.price)
    assert M.after_withhold(at(40)).closes
    assert {c.price for c in M.cells if "convert_range" in c.types} == {80, 90}
    assert at(100).types == frozenset({"max_price"})
    assert at(40).types == frozenset()


def test_par_cells_by_kind():
    assert [c.price for c in M.par_cells_for("minor")] == [80, 70, 60, 50]
    assert [c.price for c in M.par_cells_for("public")] == [100, 90, 80, 70]
    assert [c.price for c in M.par_cells] == [100, 90, 80, 70, 60, 50]
    assert M.par_cell(90, "public").id == "90,0,6" and M.par_cell(90).id == "90,0,6"
    with pytest.raises(ValueError, match="for a minor"):
        M.par_cell(90, "minor")
    assert at(70).par_kinds == frozenset({"minor", "public"})
    assert at(50).can_par("minor") and not at(50).can_par("public") and at(50).can_par()
    assert not at(40).is_par and not at(40).can_par()
    assert M.par_cells_for("system") == ()


def test_an_open_par_cell_takes_every_kind():
    m = Market.from_data({"rows": [[50, 60, 70]], "par_cells": [[0, 1]], "par_kinds": {"minor": {"0": [2]}}})
    assert [c.price for c in m.par_cells_for("public")] == [60]
    assert [c.price for c in m.par_cells_for("minor")] == [70, 60]


def test_operating_order_on_a_strip():
    stacks = M.with_par({}, "A", at(70))
    stacks = M.with_par(stacks, "B", at(70))
    stacks = M.with_par(stacks, "C", at(90))
    assert M.operating_order(stacks, ["A", "B", "C"]) == ["C", "A", "B"]
    stacks = M.with_move(stacks, "B", M.after_payout(at(70), 2))  # B joins C on 90, behind it
    assert stacks == {"70,0,4": ["A"], "90,0,6": ["C", "B"]}
    assert M.operating_order(stacks, ["A", "B", "C"]) == ["C", "B", "A"]


@pytest.mark.parametrize(("change", "message"), [
    ({"cell_types": {"closes": {"0": [0]}}}, "Unknown cell types"),
    ({"cell_types": {"close": {"0": [10]}}}, "not on the market"),
    ({"par_kinds": {"minor": {"1": [0]}}}, "not on the market"),
    ({"par_cells": [[0, 12]]}, "not on the market"),
    ({"par_cells": [[0, 2]]}, "both"),
    ({"zones": {"yellow": {"0": [5]}, "red": {"0": [5]}}}, "several zones"),
])
def test_bad_data_is_refused(change, message):
    with pytest.raises(ValueError, match=message):
        Market.from_data({**STRIP, **change})


# -- 1807 (18xx.games's COLUMN_MARKET) ------------------------------------------------------------------------

# What each meaning of 18xx.games's market legend becomes in our format.
MEANING = {
    "close": ("cell_types", "close"), "convert_range": ("cell_types", "convert_range"),
    "max_price": ("cell_types", "max_price"), "par_1": ("par_kinds", "minor"), "par_2": ("par_kinds", "public"),
}


def market_1807() -> Market:
    path = SHARED / "1807_tobymao.json"
    if not path.is_file():
        pytest.skip("../shared/data/18xx/1807_tobymao.json is absent (a user's clone): no 1807 market to read.")
    data = json.loads(path.read_text(encoding="utf-8"))
    legend = {s: text.split()[0] for s, text in data["market_cell_suffix_legend"].items()}
    out: dict = {"one_d": True, "rows": [[]], "par_kinds": {}, "cell_types": {}}
    for col, code in enumerate(data["market_1d"]):
        price, suffixes = re.fullmatch(r"(\d+)([A-Za-z]*)", code).groups()
        out["rows"][0].append(int(price))
        for s in suffixes:
            meaning = legend[s]
            targets = [MEANING["par_1"], MEANING["par_2"]] if meaning == "par" else [MEANING[meaning]]
            for key, name in targets:
                out[key].setdefault(name, {}).setdefault("0", []).append(col)
    return Market.from_data(out)


def test_1807_market():
    m = market_1807()
    assert m.one_d and len(m.rows[0]) == 32
    assert m.by_id("0,0,0").closes
    assert m.by_id("50,0,3").par_kinds == frozenset({"minor"})
    assert m.by_id("70,0,7").par_kinds == frozenset({"minor", "public"})
    top = m.by_id("165,0,15")
    assert top.types == frozenset({"max_price", "convert_range"}) and top.par_kinds == frozenset({"public"})
    assert not m.by_id("220,0,18").is_par and not m.by_id("220,0,18").types
    # the Japanese rules summary (../shared/seeds): publics start at 70 to 200, minors convert at 100 to 165
    public = [c.price for c in m.par_cells_for("public")]
    assert (public[0], public[-1]) == (200, 70)
    assert [c.price for c in m.cells if "convert_range" in c.types] == [100, 110, 120, 135, 150, 165]
    # a minor paying out from 150 stops at its maximum, a public goes on
    assert m.after_payout(m.by_id("150,0,14"), 2, capped=True).price == 165
    assert m.after_payout(m.by_id("150,0,14"), 2).price == 180


# -- the picture ----------------------------------------------------------------------------------------------


def _pixels(img: Image.Image, box: tuple[int, int, int, int], colour: str, tol: int = 12) -> int:
    want = ImageColor.getrgb(colour)
    x0, y0, x1, y1 = box
    return sum(1 for x in range(x0, x1) for y in range(y0, y1)
               if all(abs(a - b) <= tol for a, b in zip(img.getpixel((x, y)), want, strict=False)))


def test_the_strip_picture_wraps_and_shows_the_markers():
    # 30 cells: too long for one line
    long = Market.from_data({**STRIP, "rows": [[0, 40, 50, 60, 70, 80, 90, 100, 120, 150] + list(range(160, 360, 10))]})
    colours = {"A": "#1f6fd0", "B": "#d02f1f", "C": "#20a040"}
    positions = {"70,0,4": ["A", "B"], "350,0,29": ["C"]}
    img = Image.open(io.BytesIO(render_market(long, positions, colours))).convert("RGB")
    assert 800 <= img.width <= 1400 and 300 <= img.height <= 900
    boxes = [cell_box(c.id, long) for c in long.cells]
    assert all(0 <= x0 < x1 <= img.width and 0 <= y0 < y1 <= img.height for x0, y0, x1, y1 in boxes)
    assert len({y0 for _, y0, _, _ in boxes}) == 3  # three lines of ten
    assert _pixels(img, cell_box("70,0,4", long), "#1f6fd0") > 100
    assert _pixels(img, cell_box("70,0,4", long), "#d02f1f") > 100
    assert _pixels(img, cell_box("350,0,29", long), "#20a040") > 100
    assert _pixels(img, cell_box("80,0,5", long), "#1f6fd0") == 0
    # the close cell is dark, unlike a plain one
    x0, y0, _, _ = cell_box("0,0,0", long)
    assert sum(img.getpixel((x0 + 50, y0 + 50))) < 300 < sum(img.getpixel((cell_box("40,0,1", long)[0] + 50, y0 + 50)))
