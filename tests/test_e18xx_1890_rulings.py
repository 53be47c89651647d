"""1890 (Kansai): a dedicated test for each ruling of docs/rules/1890.md ("Rulings") that had none, each naming the
ruling and the section of the rules it decides."""
from __future__ import annotations

from engines.e18xx import lays
from engines.e18xx.state import G
from tests.test_e18xx_1890 import ENGINE, PASS, acting, new, play, sold_out_isr


def test_ruling_7_selling_a_company_that_has_not_operated():
    """Ruling 7, rules "Restrictions on share sales": only game turn 1 forbids selling; from game turn 2 a player
    may sell shares of a company that has not operated yet (the Polish summary's restriction is not followed)."""
    state = sold_out_isr()
    state = play(state, {"type": "par", "corporation": "Hankyu", "share_price": "65,5,4"})
    for _ in range(3):  # everyone passes: game turn 1's operating round (Hankyu has not floated) and turn 2 begin
        while state["round"]["kind"] == "stock":
            state = play(state, PASS)
        while state["round"]["kind"] == "operating":
            state = ENGINE.apply(state, acting(state), ENGINE.auto_action(state, acting(state)) or PASS)
        if state["round"]["turn"] >= 2:
            break
    assert state["round"]["kind"] == "stock" and state["round"]["turn"] == 2
    assert not state["corps"]["Hankyu"]["operated"]
    seller = int(G(state).corp("Hankyu")["president"])
    while acting(state) != seller:
        state = play(state, PASS)
    sells = [m for m in ENGINE.legal(state, seller) if m["type"] == "sell_shares"]
    assert sells == []  # the president's certificate alone cannot be sold (nobody else holds two shares) ...
    state = play(state, {"type": "buy_shares", "shares": ["Hankyu_1"], "percent": 10})
    assert {"type": "sell_shares", "shares": ["Hankyu_1"], "percent": 10} in ENGINE.legal(state, seller)


def test_ruling_8_upgrades_pay_the_printed_costs():
    """Ruling 8, rules "Laying track" and the tile manifest: upgrades are not free; Osaka Kita pays 80 for its green
    tile and again for the brown one (the green #823 prints 80), Nara pays 80."""
    state = sold_out_isr("full")
    g = G(state)
    assert lays.lay_cost(g, "Hankyu", "G12", "823", 0) == 80
    g.set_board(g.board.lay_tile("G12", "823", 0))
    assert lays.lay_cost(g, "Hankyu", "G12", "833", 0) == 80
    assert lays.lay_cost(g, "Kinki", "H19", "14", 0) == 80


def test_ruling_10_green_kyoto_pays_40():
    """Ruling 10, the Japanese tile table: green Kyoto (#825) pays 40, not the artwork's 50."""
    tile = G(new("full")).map.tiles["825"]
    assert tile.colour == "green" and {n.revenue for n in tile.nodes if n.kind == "city"} == {40}


def test_ruling_12_jr_nara_home_out_of_play_in_hanshin_and_keihanshin():
    """Ruling 12, scenarios A and B ("JR ... home stations"): Nara is off the map; that home token is out of play,
    JR has five tokens (three free homes, then 40 and 100); the full game's JR has six with a Nara home."""
    for scenario in ("hanshin", "keihanshin"):
        g = G(new(scenario))
        assert g.cdef("JR").tokens == (0, 0, 0, 40, 100)
        assert "H19" not in g.map.printed and "H19" not in str(g.map.homes.get("JR"))
    g = G(new("full"))
    assert g.cdef("JR").tokens[:4] == (0, 0, 0, 0) and "H19" in g.map.printed


def test_ruling_14_minor_half_rounded_down_to_the_owner():
    """Ruling 14, "Minor company dividends": with an odd revenue the owner gets half rounded down, the treasury
    the rest (45: 22 to the owner, 23 to the treasury)."""
    g = G(sold_out_isr())
    owner = int(g.corp("KobeElec")["president"])
    cash, treasury = g.s["cash"][owner], g.corp("KobeElec")["cash"]
    g.rules.pay_dividend(g, "KobeElec", "payout", 45)
    assert (g.s["cash"][owner] - cash, g.corp("KobeElec")["cash"] - treasury) == (22, 23)


def test_ruling_15_kobe_electric_trains_go_to_the_open_market():
    """Ruling 15, minor 5 Kobe Electric ("returned to the bank"): converting, its trains go to the open market
    (the depot's discards, for sale again), its cash to the bank."""
    g = G(sold_out_isr())
    g.s["depot"]["trains"].remove("2-0")
    g.corp("KobeElec")["trains"] = ["2-0"]
    owner = int(g.corp("KobeElec")["president"])
    g.rules.turn_move(g, owner, "KobeElec", {"type": "convert", "entity": "KobeElec"})
    assert g.corp("KobeElec")["trains"] == [] and "2-0" in g.s["depot"]["discards"]


def test_ruling_24_simplified_hankyu_and_hanshin_have_no_bonuses():
    """Ruling 24, D8.4 (Simplified): Hankyu's Takarazuka Revue and Land and the Hanshin Tigers are the full game's
    only; in the Simplified game a yellow tile pays Hankyu nothing."""
    from engines.e18xx.g1890 import abilities
    for scenario, paid in (("full", 10), ("simplified", 0)):
        g = G(sold_out_isr(scenario))
        cash = g.corp("Hankyu")["cash"]
        abilities.hankyu_lay(g, "Hankyu", "57")
        assert g.corp("Hankyu")["cash"] - cash == paid
