"""1807's goods trains, Irish ferries and takeovers (engines/e18xx/g1807/goods.py, ferries.py, takeover.py;
docs/rules/1807.md): one test a rule, each worked by hand."""
from __future__ import annotations

import pytest

import engines
from engines.base import CHANCE, RuleError
from engines.e18xx import trains
from engines.e18xx.companies import IPO
from engines.e18xx.g1867 import charter, loans
from engines.e18xx.state import G

ENGINE = engines.get("1807")


def dealt(seed: int = 1, players: int = 4) -> G:
    state = ENGINE.setup({}, players)
    return G(ENGINE.apply(state, CHANCE, {"type": "pick", "index": seed - 1}))


def at_price(g: G, cid: str, price: int, president: str = "0", cash: int = 0) -> None:
    cell = next(c for c in g.title.market.cells if c.price == price)
    g.s["market"] = g.title.market.with_par(g.s["market"], cid, cell)
    g.corp(cid).update(floated=True, president=president, cash=cash, par=price)
    g.s["bank"] -= cash


def token(g: G, cid: str, coord: str, node: int = 0) -> None:
    g.set_board(g.board.place_token(coord, cid, node, second_on_tile=True))
    charter.take(g, cid, coord, node)


def in_train_step(g: G, cid: str) -> None:
    g.s["round"] = {"kind": "operating", "turn": 3, "or": 1, "of": 2, "order": [cid], "index": 0, "step": "trains",
                    "laid": True, "lays": [], "tokened": True, "revenue": 0, "runs": [], "special": None,
                    "acted": True}


def to_depot_train(g: G, name: str) -> str:
    """Take the trains before the first `name` out of the depot (exported), so it is the next one."""
    depot = g.s["depot"]
    while not depot["trains"][0].startswith(name + "-"):
        depot["trains"].pop(0)
    return depot["trains"][0]


# ---- goods trains ---------------------------------------------------------------------------------------

def test_goods_train_earns_the_mine_bonus_and_its_best_own_token_cities():
    """Goods trains (the seed): no route; the mine bonus plus as many cities holding the corporation's tokens as
    the train's number, with the privates' bonuses for them, one city a hex, London once; no border bonus.
    LNW in phase 5 has tokens in London (K27, £40), Glasgow (D6, £30, over the Scottish border), both cities of
    Leeds (L16, £30), Liverpool (M11, £30) and Manchester (M15, £30), and owns P7 (+£10 London) and P10
    (+£10 Liverpool). A 3G: 50 + 40 + 30 + mine 50 = £170. A 6G: the five places, Leeds once:
    50 + 40 + 30 + 30 + 30 + mine 50 = £230."""
    g = dealt()
    g.s["depot"]["phase"] = "5"
    at_price(g, "LNW", 100)
    for coord, node in (("K27", 1), ("D6", 2), ("L16", 0), ("L16", 1), ("M11", 0), ("M15", 0)):
        token(g, "LNW", coord, node)
    for pid in ("P7", "P10"):
        g.s["privates"].setdefault(pid, {"closed": False, "revenue": 0, "used": False, "value": 0})["owner"] = "LNW"
    g.corp("LNW")["trains"] = ["5-0", "4+4-0"]
    g.s["flags"]["goods"] = {"5-0": "3G", "4+4-0": "6G"}
    runs: list[dict] = []
    assert g.rules.runs_made(g, "LNW", runs) == 170 + 230
    assert [(r["train"], r["revenue"], r["hexes"]) for r in runs] == [("5-0", 170, []), ("4+4-0", 230, [])]
    assert g.rules.route_trains(g, "LNW") == []  # they run no route
    assert g.rules.site_extra_revenue(g, "LNW") == 400


def test_goods_train_is_bought_as_the_other_side_of_its_card():
    """Goods trains: the 3G is the 5 card's other side at £450: it sets off phase 5 as the 5 does, counts toward
    the limit and runs no route."""
    g = dealt()
    g.s["depot"]["phase"] = "4"
    at_price(g, "LNW", 100, cash=600)
    token(g, "LNW", "D6", 2)
    g.corp("LNW")["trains"] = ["4-0"]
    in_train_step(g, "LNW")
    five = to_depot_train(g, "5")
    move = {"type": "buy_train", "train": five, "price": 450, "variant": "3G"}
    assert move in ENGINE.legal(g.s, 0) and {"type": "buy_train", "train": five, "price": 550} in ENGINE.legal(g.s, 0)
    with pytest.raises(RuleError):
        ENGINE.apply(g.s, 0, {**move, "price": 550})
    state = ENGINE.apply(g.s, 0, move)
    after = G(state)
    assert after.corp("LNW")["cash"] == 150 and after.corp("LNW")["trains"] == ["4-0", five]
    assert after.s["flags"]["goods"] == {five: "3G"} and after.phase.name == "5"
    assert after.rules.route_trains(after, "LNW") == ["4-0"]


def test_a_trainless_corporation_that_can_pay_for_a_goods_train_must_buy_a_train():
    """1867's rule (a trainless corporation must buy a train when its cash and the loans it may take pay the
    cheapest) counts a new card's goods side: with £480 of buying power, short of the 5 (£550) but not of its 3G
    (£450), LNW may not pass, and the idle default buys the 3G (18xx.games: min_depot_price). A discarded 5 is sold
    only as a 5 (the rulings), so it does not oblige."""
    g = dealt()
    g.s["depot"]["phase"] = "4"
    at_price(g, "LNW", 100)
    token(g, "LNW", "D6", 2)
    in_train_step(g, "LNW")
    g.corp("LNW")["cash"] = 480 - loans.buying_power(g, "LNW")  # the loans it may take, and cash to £480 in all
    five = to_depot_train(g, "5")
    assert trains.must_buy(g, "LNW")
    legal = ENGINE.legal(g.s, 0)
    assert {"type": "pass"} not in legal and {"type": "buy_train", "train": five, "price": 550} not in legal
    three_g = {"type": "buy_train", "train": five, "price": 450, "variant": "3G"}
    assert three_g in legal and ENGINE.auto_action(g.s, 0) == three_g
    with pytest.raises(RuleError):
        ENGINE.apply(g.s, 0, {"type": "pass"})
    to_depot_train(g, "6")  # the 6 comes next (its 4G £550) and the only 5 left is a discard
    g.s["depot"]["discards"].append(five)
    assert not trains.must_buy(g, "LNW") and {"type": "pass"} in ENGINE.legal(g.s, 0)


def test_goods_trade_in_values_are_the_seeds():
    """Ruling: a 3G is handed in for £110 and a 4G for £135 (the seed's table; 18xx.games says 125 and 150)."""
    g = dealt()
    g.s["flags"]["goods"] = {"5-0": "3G", "6-0": "4G"}
    assert trains.list_price(g, "4+4-0", "5-0") == 1000 - 110
    assert trains.list_price(g, "4+4-0", "6-0") == 1000 - 135
    assert trains.list_price(g, "4+4-0", "5-1") == 1000 - 135  # a 5 is a 5


def test_6g_sets_off_the_end_as_the_4_4_does():
    """Ruling: the first 6G, the 4+4 card's other side, starts phase 8 and sets off the end (the seed: 4+4/6G)."""
    g = dealt()
    g.s["depot"]["phase"] = "7"
    at_price(g, "LNW", 100, cash=900)
    token(g, "LNW", "D6", 2)
    g.corp("LNW")["trains"] = ["4-0"]
    in_train_step(g, "LNW")
    card = to_depot_train(g, "4+4")
    state = ENGINE.apply(g.s, 0, {"type": "buy_train", "train": card, "price": 800, "variant": "6G"})
    after = G(state)
    assert after.phase.name == "8" and after.s["flags"]["cert_limit_reduced"]
    assert after.corp("LNW")["trains"] == [card]  # the 4 rusted
    assert after.rules._end_trigger(after) == "final_phase"


# ---- ferries ----------------------------------------------------------------------------------------------

def _ferries(g: G, cid: str, *pids: str) -> None:
    for pid in pids:
        g.s["privates"][pid]["owner"] = cid


def test_irish_ferries_pay_on_two_distinct_areas():
    """Irish ferries: each gives £10 on the routes to one Irish area, two ferries two different areas. Routes to
    Belfast (H2) and Dublin (N4) with F1 and F2: £10 each; the 3+3 doubles its bonus."""
    g = dealt()
    _ferries(g, "LNW", "F1", "F2")
    runs = [{"train": "3-0", "hexes": ["D6", "H2"], "revenue": 60}, {"train": "3+3-0", "hexes": ["N4", "M11"],
                                                                      "revenue": 140}]
    assert g.rules.runs_made(g, "LNW", runs) == 10 + 20
    assert [r["revenue"] for r in runs] == [70, 160]


def test_two_ferries_never_pay_twice_for_one_area():
    """Irish ferries: the same area twice is refused: with F1 and F2 and only Belfast reached, one ferry pays
    (£10 on each route there), the other nothing."""
    g = dealt()
    _ferries(g, "LNW", "F1", "F2")
    runs = [{"train": "3-0", "hexes": ["D6", "H2"], "revenue": 60}]
    assert g.rules.runs_made(g, "LNW", runs) == 10
    runs = [{"train": "3-0", "hexes": ["D6", "H2"], "revenue": 60}, {"train": "4-0", "hexes": ["H2", "D10"],
                                                                     "revenue": 80}]
    assert g.rules.runs_made(g, "LNW", runs) == 20 and [r["revenue"] for r in runs] == [70, 90]


def test_ferry_revenue_steps_by_phase_for_a_corporation_owner():
    """Ferries: F4 (Hull) pays £20, £30 from phase 3, £40 from 5, £50 from 7, to a corporation owning it too; a
    ferry unsold at a phase's start keeps its revenue until a later step (as on 18xx.games)."""
    g = dealt()
    _ferries(g, "LNW", "F4")
    assert g.s["privates"]["F4"]["revenue"] == 20
    for phase, hull, harwich in (("3", 30, 20), ("5", 40, 20), ("7", 50, 20)):
        g.s["depot"]["phase"] = phase
        g.rules.after_train_bought(g)
        assert (g.s["privates"]["F4"]["revenue"], g.s["privates"]["F5"]["revenue"]) == (hull, harwich)
    cash = g.corp("LNW")["cash"]
    g.pay_private_revenue()
    assert g.corp("LNW")["cash"] == cash + 50


# ---- takeover ---------------------------------------------------------------------------------------------

def test_takeover_of_a_minor_by_a_public_company():
    """Merger round, takeover: Glasgow & Ayrshire (GA, home D6) is taken over by LNW, which has a token in
    another Glasgow city and shares in its treasury. GA's owner (seat 0, already 60% of LNW) takes a 10% share
    for GA's certificate: 70%, over the 60% limit. LNW takes GA's £80, its loan, its train and, on a pass, its
    token; GA closes."""
    from engines.e18xx.g1867 import merger
    g = dealt()
    g.s["depot"]["phase"] = "4"
    at_price(g, "GA", 80, cash=80)
    g.corp("GA").update(loans=1, trains=["3-0"], shares={"0": list(g.cdef("GA").share_ids)})
    token(g, "GA", "D6", 0)
    at_price(g, "LNW", 100, cash=300)
    lnw = g.cdef("LNW")
    g.transfer("LNW", list(g.corp("LNW")["shares"][IPO][:5]), IPO, "0")  # the president's 20% and four 10%
    token(g, "LNW", "D6", 2)
    assert g.percent("LNW", "0") == 60
    merger.start(g, 3, 1, 2)
    from engines.e18xx import rounds
    rounds.settle(g)
    share = next(c for c in g.corp("LNW")["shares"][IPO] if lnw.cert_percent(c) == 10)
    move = {"type": "buy_shares", "entity": "GA", "shares": [share], "percent": 10}
    assert move in ENGINE.legal(g.s, 0)
    state = ENGINE.apply(g.s, 0, move)
    after = G(state)
    assert after.percent("LNW", "0") == 70
    assert after.corp("LNW")["cash"] == 380 and after.corp("LNW")["loans"] == 1
    assert after.corp("LNW")["trains"] == ["3-0"]
    assert ENGINE.legal(state, 0) == [{"type": "remove_token", "entity": "GA", "hex": "D6", "city": 0},
                                      {"type": "pass", "entity": "GA"}]
    state = ENGINE.apply(state, 0, {"type": "pass", "entity": "GA"})
    after = G(state)
    assert ("D6", 0) in after.board.token_nodes("LNW") and not after.board.token_nodes("GA")
    assert after.corp("GA")["closed"] and after.cell("GA") is None
    assert not after.round.get("takeover")  # GA's turn is over (the round, with no minor left, too)


def test_takeover_needs_a_connection():
    """Takeover: a public company with no token the minor's track reaches (nor on its hex) cannot take it over."""
    from engines.e18xx.g1807 import takeover
    from engines.e18xx.g1867 import merger
    g = dealt()
    g.s["depot"]["phase"] = "4"
    at_price(g, "GA", 80, cash=80)
    g.corp("GA")["shares"] = {"0": list(g.cdef("GA").share_ids)}
    token(g, "GA", "D6", 0)
    at_price(g, "LNW", 100, cash=300, president="1")
    token(g, "LNW", "M11", 0)
    merger.start(g, 3, 1, 2)
    assert takeover.takers(g, "GA") == []
