"""1890's variants played as table options (docs/rules/1890.md, ruling 26), each with its rule: the rules' own words
(scenario C, 1890, "Variants") in the test's docstring."""
from __future__ import annotations

import pytest

from engines.e18xx import operating
from engines.e18xx.g1890 import abilities
from engines.e18xx.state import G
from tests.e18xx_helpers import float_corp
from tests.test_e18xx_1890 import ENGINE, PASS, acting, play, sold_out_isr
from tests.test_e18xx_1890_full import first_or


def _step(state: dict) -> dict:
    """The acting seat passes, or makes the engine's default move where it may not pass."""
    seat = acting(state)
    return ENGINE.apply(state, seat, PASS if PASS in ENGINE.legal(state, seat) else ENGINE.auto_action(state, seat))


def _with(end_at_400: bool) -> dict:
    state = sold_out_isr()
    state["opts"]["end_at_400"] = end_at_400
    return state


@pytest.mark.parametrize("variant", [True, False])
def test_the_end_at_400_after_the_stock_round(variant):
    """"If the prices reaches 400円 at the end of a stock round, the game ends immediately": Hankyu, sold out at
    375 below the top row, rises to 400 as the stock round ends; with the variant no operating round follows."""
    state = _with(variant)
    float_corp(state, "Hankyu", 0, "375,1,17", percent=100)
    while state["round"]["kind"] == "stock":
        state = play(state, PASS)
    assert G(state).price("Hankyu") == 400
    if variant:
        assert state["over"] == "top_price" and state["round"]["kind"] == "over"
        assert ENGINE.scores(state) is not None
        assert state["events"][-1]["values"]["why"]["$msg"] == "a share price reached the top of the market"
    else:
        assert not state["over"] and state["round"]["kind"] == "operating"


@pytest.mark.parametrize("variant", [True, False])
def test_the_end_at_400_after_the_operating_turn(variant):
    """"If the price reached 400円 during the operating round, the game ends immediately after the company's
    operating turn": Hankyu pays out at 375 and reaches 400; its turn is played to its end (a train still bought),
    then the game ends before anyone else operates."""
    state = _with(variant)
    float_corp(state, "Hankyu", 0, "375,0,16")
    while state["round"]["kind"] == "stock":
        state = play(state, PASS)
    while operating.current(G(state)) != "Hankyu":
        state = _step(state)
    g = G(state)
    g.rules.pay_dividend(g, "Hankyu", "payout", 100)
    assert g.price("Hankyu") == 400
    state["round"]["step"] = "trains"  # its run and dividend are done
    others = [cid for cid in state["round"]["order"] if cid != "Hankyu"]
    operated = {cid: state["corps"][cid].get("operated") for cid in others}
    while state["round"]["kind"] == "operating" and operating.current(G(state)) == "Hankyu":
        buy = [m for m in ENGINE.legal(state, acting(state)) if m["type"] == "buy_train"]
        state = play(state, buy[0]) if buy and not state["corps"]["Hankyu"]["trains"] else _step(state)
    assert state["corps"]["Hankyu"]["trains"], "the turn went on to its train purchase"
    if variant:
        assert state["over"] == "top_price"
        assert {cid: state["corps"][cid].get("operated") for cid in others} == operated, "nobody operated after"
    else:
        assert not state["over"]


@pytest.mark.parametrize("variant, takes", [(False, {"green": 25, "brown": 30}), (True, {"green": 15, "brown": 20})])
def test_kobe_rapid_transit_revenue_control(variant, takes):
    """"Kobe Rapid Transit Revenue Control" (JA C10.6: 神戸高速の収益を減少します。神戸の線路タイルが、黄色の時は¥10、
    緑色の時は¥15、茶色の時は¥20): Kobe Rapid's owner earns 15 a route through a green Kobe and 20 through a brown
    one instead of half Kobe's value (25 of green 50, 30 of brown 60); the running company's revenue is the same."""
    g = G(first_or())
    g.s["opts"]["kobe_rapid_control"] = variant
    g.corp("Hanshin").update(floated=True, president="0", cash=300)
    g.s["privates"]["KobeRapid"]["owner"] = "2"
    run = {"train": "2-0", "hexes": ["F5", "F9"], "revenue": 60}
    for colour, tile in (("green", "820"), ("brown", "830")):
        g.set_board(g.board.lay_tile("F5", tile, 0))
        assert g.board.tile("F5").colour == colour
        cash, bank = g.s["cash"][2], g.s["bank"]
        assert abilities.runs_made(g, "Hanshin", [run, dict(run, train="2-1")]) == 0  # nothing added to the run
        assert g.s["cash"][2] - cash == bank - g.s["bank"] == 2 * takes[colour]


def _green(g: G, coord: str) -> None:
    """Lay on `coord` a yellow and then a green tile after which the brown K-shaped city (193) may come."""
    k = g.map.tiles["193"]
    board = g.board
    yellows = [board] if board.tile(coord).colour == "yellow" else [
        b for t in g.map.tiles.values() if t.colour == "yellow" and board.upgrades_to(coord, t)
        for b in _lays(board, coord, t.name)]
    for yb in yellows:
        for t in g.map.tiles.values():
            if t.colour == "green" and yb.upgrades_to(coord, t):
                for gb in _lays(yb, coord, t.name):
                    if replace_map(gb).upgrades_to(coord, k):
                        g.set_board(gb)
                        return
    raise AssertionError(f"no green tile on {coord} takes 193")


def _lays(board, coord: str, tile: str) -> list:
    out = []
    for rotation in range(6):
        try:
            out.append(board.lay_tile(coord, tile, rotation))
        except Exception:  # a rotation the hex does not take
            continue
    return out[:1]


def replace_map(board):
    """The board on the title's own map (no variant), to find a green that takes 193 at all."""
    from dataclasses import replace

    from engines.e18xx.board import load_map
    return replace(board, map=load_map("g1890"))


@pytest.mark.parametrize("variant", [True, False])
def test_the_tile_78_restriction(variant):
    """"Tile placement restrictions: Brown tile #78 may only be placed in Nara or a city bordering the sea or the
    Yodo river" (#78 of the Japanese rules is our 193, the brown K-shaped 40 city; ruling 30): it may replace the
    green tile of Akashi (on the sea), Hirakata (on the Yodo) and Nara, but with the variant not Itami's nor
    Kashiwara's (inland)."""
    g = G(ENGINE.setup({"scenario": "full", "tile_78_restriction": variant}, 3))
    k = g.map.tiles["193"]
    for coord in ("F3", "E16", "H19", "E10", "J15"):
        _green(g, coord)
        assert g.board.upgrades_to(coord, k) == (not variant or coord in ("F3", "E16", "H19")), coord
