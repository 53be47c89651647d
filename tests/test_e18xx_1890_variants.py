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


def _floating(scenario: str = "hanshin") -> dict:
    state = sold_out_isr(scenario)
    state["opts"]["incremental_floating"] = True
    return state


def _to_operating(state: dict) -> dict:
    while state["round"]["kind"] == "stock":
        state = play(state, PASS)
    return state


def test_incremental_floating_pays_the_company_and_floats_it_by_the_trains_rank():
    """"Public company floatation" (the 1890 scenario's Variants): "Instead of receiving ten times the par value when
    floating, public companies receive money as shares are sold from the initial offer"; "When a company would begin
    its very first operating turn ... If this number [10% shares sold from the initial offering] is greater than or
    equal to the rank of the train currently for sale from the bank, then the company floats"; "The shares of
    Hanshin, Keihan, and Osaka Subway that are attached to private companies are considered to be already sold";
    "JR does not float unless 5 shares (50%) are purchased". Hanshin's president's certificate (20%) and the share
    that came with Hanshin Tramway make 3 with a 2-train for sale: it floats with its par for each of the three; JR
    with 20% does not."""
    state = _floating()
    state = play(state, {"type": "par", "corporation": "Hanshin", "share_price": "70,4,4"})
    assert state["corps"]["Hanshin"]["cash"] == 140 and not state["corps"]["Hanshin"]["floated"]  # paid, not floated
    state = play(state, {"type": "par", "corporation": "JR", "share_price": "100,0,4"})
    assert state["corps"]["JR"]["cash"] == 200
    state = _to_operating(state)
    assert state["corps"]["Hanshin"]["floated"] and state["corps"]["Hanshin"]["cash"] == 3 * 70
    assert "Hanshin" in state["round"]["order"]
    assert not state["corps"]["JR"]["floated"] and "JR" not in state["round"]["order"]
    assert state["corps"]["JR"]["cash"] == 200  # its money waits for it


def test_incremental_floating_needs_more_shares_as_the_trains_grow():
    """The rank of the train for sale sets the shares sold to float: with a 3-train next, a president's certificate
    alone (2 shares) is not enough, and a third share floats the company at the next operating round; a share bought
    from the initial offering after it has floated still pays the company."""
    state = _floating()
    state["depot"]["trains"] = [t for t in state["depot"]["trains"] if not t.startswith("2")]
    assert state["depot"]["trains"][0].startswith("3-")
    state = play(state, {"type": "par", "corporation": "Hankyu", "share_price": "70,4,4"})
    state = _to_operating(state)
    assert not state["corps"]["Hankyu"]["floated"]
    while state["round"]["kind"] != "stock":
        state = _step(state)
    while acting(state) == int(state["corps"]["Hankyu"]["president"]) or not [
            m for m in ENGINE.legal(state, acting(state)) if m["type"] == "buy_shares"
            and m["shares"][0].startswith("Hankyu")]:
        state = play(state, PASS)
    buy = next(m for m in ENGINE.legal(state, acting(state)) if m["type"] == "buy_shares"
               and m["shares"][0].startswith("Hankyu"))
    state = play(state, buy)
    assert state["corps"]["Hankyu"]["cash"] == 3 * 70 and not state["corps"]["Hankyu"]["floated"]
    state = _to_operating(state)
    assert state["corps"]["Hankyu"]["floated"] and state["corps"]["Hankyu"]["cash"] == 3 * 70
    g = G(state)
    assert g.rules.ipo_payee(g, "Hankyu") == "Hankyu"


def test_incremental_floating_ends_at_phase_5():
    """"After phase 5, public companies will be started using the normal rules. 50% of shares must be sold from the
    initial offer to float, and the company receives 10 times the par value to its treasury" (ruling 31: from phase
    5 on; a company that already has money from its sales receives the rest of ten times its par)."""
    state = _floating("full")
    g = G(state)
    assert g.rules.ipo_payee(g, "Hankyu") == "Hankyu" and not g.rules.floats_on_sale(g, "Hankyu")
    state["depot"]["phase"] = "5"
    g = G(state)
    assert g.rules.ipo_payee(g, "Hankyu") == "bank" and g.rules.floats_on_sale(g, "Hankyu")
    g.corp("Hankyu").update(cash=140, par=70)  # its president's certificate, sold before phase 5
    assert g.rules.float_capital(g, "Hankyu") == 700 - 140
