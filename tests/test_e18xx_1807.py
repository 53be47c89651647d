"""1807: The Big Four on 1867's rules (engines/e18xx/g1807/, docs/rules/1807.md): the setup drawn as 18xx.games
draws it, the rules that differ from 1867's, whole selfplay games, and the reference engine loading an export."""
from __future__ import annotations

import json
import random
import shutil

import pytest

import engines
from bot.selfplay import play_one
from engines.base import CHANCE, RuleError
from engines.e18xx import hexes
from engines.e18xx.board import load_map
from engines.e18xx.companies import load_title
from engines.e18xx.export import export_game
from engines.e18xx.state import G
from tests.e18xx_helpers import REF, site_replays_1807

ENGINE = engines.get("1807")


def dealt(seed: int, players: int = 4) -> dict:
    state = ENGINE.setup({}, players)
    assert ENGINE.awaiting(state).chance.kind == "pick"
    return ENGINE.apply(state, CHANCE, {"type": "pick", "index": seed - 1})


def test_setup_seven_railways_drawn_as_the_site_draws_them():
    """Setup: 3 of the 10 private railways leave (18xx.games, seed 5: P2, P3, P5), the 7 left are auctioned in
    number order from the card's least bid; ferries and undergrounds are not auctioned at the start."""
    state = dealt(5)
    railways = [p for p in state["privates"] if p.startswith("P")]
    assert railways == ["P1", "P4", "P6", "P7", "P8", "P9", "P10"]
    assert state["round"]["kind"] == "auction" and state["round"]["privates"] == railways
    assert ENGINE.legal(state, ENGINE.awaiting(state).seats.__iter__().__next__())[0]["price"] == 20


def test_setup_minor_batches_as_the_site_draws_them():
    """Setup: minors in three batches of 12, 6 and 6 (18xx.games, seed 5)."""
    batch = dealt(5)["flags"]["batch"]
    first = sorted(c for c, b in batch.items() if b == 1)
    assert first == ["BE", "BG", "EC", "EG", "GA", "GC", "GJ", "NM", "NU", "SAM", "SE", "TV"]
    assert sorted(c for c, b in batch.items() if b == 2) == ["EPD", "LH", "LR", "MC", "ND", "VN"]
    assert sorted(c for c, b in batch.items() if b == 3) == ["EK", "LB", "LS", "LY", "ML", "YNM"]


@pytest.mark.parametrize("players,cash,limit", [(3, 630, 32), (4, 470, 24), (5, 375, 19)])
def test_setup_cash_and_certificate_limits(players, cash, limit):
    state = dealt(1, players)
    assert state["cash"] == [cash] * players
    assert G(state).cert_limit == limit
    state["flags"]["cert_limit_reduced"] = True  # the first 4+4 (phase 8)
    assert G(state).cert_limit == {3: 21, 4: 16, 5: 13}[players]


def test_market_ruling_600_not_500():
    """Ruling (docs/rules/1807.md): the site's 500 between 540 and 660 is played as 600."""
    prices = [c.price for c in load_title("1807").market.rows[0]]
    assert prices[26:30] == [490, 540, 600, 660]
    assert prices == sorted(prices)


def test_london_inset_joined_to_the_hexes_around_the_small_london_hex():
    """The six London inset hexes are joined to the hexes around U23; the inset's centre to nothing."""
    m = load_map("g1807")
    assert m.across("U21", 4) == "L26" and m.across("L26", 1) == "U21"
    assert m.across("V22", 3) == "M27"
    assert all(m.neighbour("L28", e) is None for e in hexes.EDGES)


def test_token_cost_from_london_is_measured_from_the_small_hex():
    """Token: £20 times the distance to the nearest own token, London's inset counted as U23."""
    state = dealt(1)
    g = G(state)
    g.set_board(g.board.place_token("K27", "LH", 0))
    assert g.rules.token_cost(g, "LH", "U19", 20) == 20 * hexes.distance("U23", "U19", "pointy")


def test_route_to_london_needs_a_london_token():
    """A route may include a London city only where the corporation has a token."""
    state = dealt(1)
    g = G(state)
    route = type("R", (), {"stops": (("K27", 1), ("U19", 0))})()
    assert g.rules.route_problem(g, "GJ", route)
    g.set_board(g.board.place_token("K27", "GJ", 1))
    assert g.rules.route_problem(g, "GJ", route) is None


def test_unpaid_interest_moves_the_price_left_without_nationalisation():
    """Loans: a corporation that cannot pay its interest pays what it has and falls one step."""
    state = dealt(1)
    g = G(state)
    g.s["market"] = g.title.market.with_par(g.s["market"], "BE", next(c for c in g.title.market.cells if c.price == 70))
    corp = g.corp("BE")
    corp.update(floated=True, loans=2, cash=3)
    g.s["bank"] -= 3
    g.s["round"] = {"kind": "operating", "interest": {"BE": 2}}
    g.rules.loan_step(g, "BE")
    assert g.price("BE") == 65 and corp["cash"] == 0 and corp["floated"]


def test_export_carries_the_drawn_seed():
    played = play_one("1807", 4, random.Random(1), max_actions=20_000)
    log = [(e["seat"], e["action"]) for e in played["log"]]
    doc = export_game("1807", {}, ["a", "b", "c", "d"], log)
    assert doc["settings"]["seed"] == log[0][1]["index"] + 1


@pytest.mark.skipif(shutil.which("ruby") is None or not REF.exists(),
                    reason="needs Ruby and ../shared/tools/ref18xx (the 18xx.games engine)")
def test_reference_engine_draws_the_same_setup_and_takes_the_private_auction(tmp_path):
    """18xx.games's 1807 (with bench/ref_1807_fixes.rb, the two methods the prealpha lacks) loads our export's
    opening: the same seven railways drawn from the seed and every bid of the private auction accepted, to the same
    cash."""
    played = play_one("1807", 4, random.Random(1), max_actions=20_000)
    log = [(e["seat"], e["action"]) for e in played["log"]]
    state, opening = ENGINE.setup({}, 4), []
    for seat, action in log:
        if state["round"]["kind"] not in ("deal", "auction"):
            break
        opening.append((seat, action))
        state = ENGINE.apply(state, seat, action)
    doc = export_game("1807", {}, ["P1", "P2", "P3", "P4"], opening)
    path = tmp_path / "opening.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    (line,) = site_replays_1807([path])
    assert line["exception"] is None, line
    assert line["actions"] == len(doc["actions"])
    assert line["result"] == doc["result"]


def test_a_refused_move_reads_as_a_sentence():
    state = dealt(1)
    seat = next(iter(ENGINE.awaiting(state).seats))
    with pytest.raises(RuleError):
        ENGINE.apply(state, seat, {"type": "bid", "company": "P1", "price": 3})


# ---- issue 17, second part: ferries and undergrounds, P2-P5, closing, the site's turn order ------------------

def to_stock_round(seed: int = 1, players: int = 4) -> dict:
    """The opening auction played out (the first bidder takes each private at its least bid)."""
    state = dealt(seed, players)
    while state["round"]["kind"] == "auction":
        seat = next(iter(ENGINE.awaiting(state).seats))
        moves = ENGINE.legal(state, seat)
        bids = [m for m in moves if m["type"] == "bid"]
        state = ENGINE.apply(state, seat, bids[0] if bids and not state["round"]["auction"]["bids"] else
                             {"type": "pass"})
    return state


def test_ferries_are_auctioned_from_the_first_stock_round_at_face_value():
    """SR bidding: the ferries can be auctioned from the start (the seed), at their face value or more in £5 steps;
    the winner pays the bank and the turn goes to the player after him; the undergrounds are not up yet."""
    state = to_stock_round()
    assert state["round"]["kind"] == "stock" and state["round"]["turn"] == 1
    up = state["flags"]["privates_up"]
    assert up == ["F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8"]
    seat = next(iter(ENGINE.awaiting(state).seats))
    assert {"type": "bid", "company": "F1", "price": 50} in ENGINE.legal(state, seat)
    assert not any(m.get("company") in ("U1", "U2") for m in ENGINE.legal(state, seat))
    with pytest.raises(RuleError):
        ENGINE.apply(state, seat, {"type": "bid", "company": "F4", "price": 95})  # below the face value
    with pytest.raises(RuleError):
        ENGINE.apply(state, seat, {"type": "bid", "company": "F4", "price": 102})  # not a £5 step
    cash, bank, passed = state["cash"][seat], state["bank"], list(state["round"]["passed"])
    state = ENGINE.apply(state, seat, {"type": "bid", "company": "F4", "price": 100})
    while state["round"].get("auction"):
        state = ENGINE.apply(state, next(iter(ENGINE.awaiting(state).seats)), {"type": "pass"})
    assert state["privates"]["F4"]["owner"] == str(seat)
    assert state["cash"][seat] == cash - 100 and state["bank"] == bank + 100
    order = state["order"]
    assert state["round"]["passed"] == passed
    assert next(iter(ENGINE.awaiting(state).seats)) == order[(order.index(seat) + 1) % len(order)]


def test_undergrounds_come_at_phases_5_and_7():
    """SR bidding: U1 can be auctioned from phase 5, U2 from phase 7 (the first 5 and 7 trains' events)."""
    state = to_stock_round()
    g = G(state)
    g.rules.train_event(g, "u1_available")
    assert g.s["flags"]["privates_up"][-1] == "U1"
    g.rules.train_event(g, "u2_available")
    assert g.s["flags"]["privates_up"][-2:] == ["U1", "U2"]


def test_dropping_out_of_a_ferrys_auction_is_no_move():
    """SR bidding: those who only drop out of another's ferry auction keep their passes (a drop is no turn)."""
    from engines.e18xx.g1807 import stock
    state = to_stock_round()
    g = G(state)
    r = g.round
    r.update(passed=[0, 1, 2], pos=g.order.index(3))
    g.s["cash"][3] += 100
    stock.apply(g, 3, {"type": "bid", "company": "F1", "price": 50})
    while r.get("auction"):
        stock.apply(g, stock.acting(g), {"type": "pass"})
    assert g.s["privates"]["F1"]["owner"] == "3" and r["passed"] == [0, 1, 2]


def _passed_opener_outbid_for_a_ferry() -> tuple[dict, list[int]]:
    """Order a, b, c, d: a, b and c have passed, d did something; a opens F1's auction, b outbids him and wins."""
    g = G(to_stock_round())
    a, b, c, d = g.order
    g.s["cash"] = [300] * g.n
    g.round.update(passed=[a, b, c], pos=0)
    state = ENGINE.apply(g.s, a, {"type": "bid", "company": "F1", "price": 50})
    state = ENGINE.apply(state, b, {"type": "bid", "company": "F1", "price": 55})
    while state["round"].get("auction"):
        state = ENGINE.apply(state, next(iter(ENGINE.awaiting(state).seats)), {"type": "pass"})
    assert state["privates"]["F1"]["owner"] == str(b)
    return state, [a, b, c, d]


def test_opening_and_winning_a_ferrys_auction_are_moves_even_for_players_who_had_passed():
    """SR end (the seed: a turn is "売却 → 購入/入札" or a pass; the round ends when everyone has passed in a row): a
    player who had passed, then opens a ferry's auction that another wins, has not passed this time, and nor has the
    winner: the round waits for both to pass again (docs/rules/1807.md, Rulings, "Priority"), as for a minor's."""
    state, (a, b, c, d) = _passed_opener_outbid_for_a_ferry()
    assert a not in state["round"]["passed"] and b not in state["round"]["passed"]
    for seat in (c, d):
        assert next(iter(ENGINE.awaiting(state).seats)) == seat
        state = ENGINE.apply(state, seat, {"type": "pass"})
    assert state["round"]["kind"] == "stock" and next(iter(ENGINE.awaiting(state).seats)) == a


def test_priority_after_a_ferry_auction_goes_to_the_player_after_the_last_to_pass():
    """SR end (the seed: "Priority dealを最後にパス以外を行ったプレイヤーの左隣に渡す"): after a ferry's auction that
    the opener lost, everyone passes in turn, the opener and the winner too; the player after the winner, the last
    one to do something and the last to pass, has priority."""
    state, (a, b, c, d) = _passed_opener_outbid_for_a_ferry()
    for seat in (c, d, a, b):
        state = ENGINE.apply(state, seat, {"type": "pass"})
    assert state["round"]["turn"] == 2 and state["order"][0] == c  # nothing operates: the next stock round


@pytest.mark.skipif(shutil.which("ruby") is None or not REF.exists(),
                    reason="needs Ruby and ../shared/tools/ref18xx (the 18xx.games engine)")
def test_reference_engine_with_the_fixes_agrees_a_ferry_auction_unpasses_its_opener_and_winner(tmp_path):
    """18xx.games's 1807 with bench/ref_1807_fixes.rb plays the ruling above with real moves: in the first stock
    round a, b and c pass and d wins a ferry; a opens F1's auction and b wins it; c and d pass. The round goes on
    (a and b have not passed this time), so no operating round has paid the privates: the scores agree (the site
    alone would have ended the round after d's pass)."""
    state, log = dealt(1), [(CHANCE, {"type": "pick", "index": 0})]

    def play(seat: int, action: dict) -> None:
        nonlocal state
        assert next(iter(ENGINE.awaiting(state).seats)) == seat
        state = ENGINE.apply(state, seat, action)
        log.append((seat, action))

    while state["round"]["kind"] == "auction":  # the first bidder takes each private at its least bid
        seat = next(iter(ENGINE.awaiting(state).seats))
        bids = [m for m in ENGINE.legal(state, seat) if m["type"] == "bid"]
        play(seat, bids[0] if bids and not state["round"]["auction"]["bids"] else {"type": "pass"})
    a, b, c, d = (state["order"] * 2)[state["round"]["pos"]:][:4]
    for seat in (a, b, c):
        play(seat, {"type": "pass"})
    for seat, action in ((d, {"type": "bid", "company": "F2", "price": 50}), (a, "drop"), (b, "drop"), (c, "drop"),
                         (a, {"type": "bid", "company": "F1", "price": 50}), (b, {"type": "bid", "company": "F1",
                                                                                   "price": 55}),
                         (c, "drop"), (d, "drop"), (a, "drop"), (c, {"type": "pass"}), (d, {"type": "pass"})):
        play(seat, {"type": "pass"} if action == "drop" else action)
    assert state["round"]["kind"] == "stock" and state["round"]["turn"] == 1
    assert state["privates"]["F2"]["owner"] == str(d) and state["privates"]["F1"]["owner"] == str(b)
    doc = export_game("1807", {}, ["P1", "P2", "P3", "P4"], log)
    path = tmp_path / "ferry.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    (line,) = site_replays_1807([path])
    assert line["exception"] is None and line["actions"] == len(doc["actions"]), line
    assert line["result"] == doc["result"]


def test_opening_a_minors_auction_is_a_move_even_when_another_wins_it():
    """SR end (the seed: a turn is "売却 → 購入/入札" or a pass; the round ends when everyone has passed in a row):
    a player who had passed, then opens a minor's auction that another wins, has not passed this time, so the round
    waits for his pass (docs/rules/1807.md, Rulings, "Priority"; 18xx.games counted him as passed and ended the round
    there). A ferry he wins later leaves him unpassed too."""
    from engines.e18xx.g1807 import stock
    g = G(to_stock_round())
    r = g.round
    opener, rival, *others = g.order
    r.update(passed=[opener], pos=0)
    g.s["cash"][opener] = g.s["cash"][rival] = 300
    stock.apply(g, opener, {"type": "bid", "corporation": "BE", "price": 100})
    stock.apply(g, rival, {"type": "bid", "corporation": "BE", "price": 105})
    while r.get("auction"):
        stock.apply(g, stock.acting(g), {"type": "pass"})
    assert g.corp("BE")["president"] == str(rival) and opener not in r["passed"]
    for seat in others:
        stock.apply(g, seat, {"type": "pass"})
    stock.apply(g, opener, {"type": "bid", "company": "F1", "price": 50})
    while r.get("auction"):
        stock.apply(g, stock.acting(g), {"type": "pass"})
    assert g.s["privates"]["F1"]["owner"] == str(opener) and stock.acting(g) == rival
    stock.apply(g, rival, {"type": "pass"})
    assert sorted(r["passed"]) == sorted([rival, *others]) and not stock.finished(g)


def test_priority_after_a_sale_that_closes_a_company_goes_to_the_player_after_the_seller():
    """SR end (the seed: priority to the left of the last player to do something other than pass): a president's
    sale takes the price to the £0 cell and the company closes; nobody can do anything more, so everyone passes and
    the player after the seller has priority (18xx.games's round loses its end there; docs/rules/1807.md)."""
    g = G(to_stock_round())
    g.s["flags"]["privates_up"] = []  # no ferry to auction
    g.s["cash"] = [0] * g.n
    seller, other = g.order[1], g.order[3]
    cell = next(c for c in g.title.market.cells if c.price == 40)
    g.s["market"] = g.title.market.with_par(g.s["market"], "SECR", cell)
    g.corp("SECR").update(floated=True, president=str(seller), has_operated=True,
                          shares={str(seller): ["SECR_0", "SECR_2"], str(other): ["SECR_3", "SECR_4"]})
    cell = next(c for c in g.title.market.cells if c.price == 100)  # a minor to operate next, so the game waits
    g.s["market"] = g.title.market.with_par(g.s["market"], "BE", cell)
    g.corp("BE").update(floated=True, president=str(other), shares={str(other): list(g.cdef("BE").share_ids)})
    g.set_board(g.board.place_token(g.map.homes["BE"], "BE", g.map.home_nodes.get("BE", 0)))
    g.round.update(turn=2, pos=1, passed=[])
    state = ENGINE.apply(g.s, seller, {"type": "sell_shares", "shares": ["SECR_2"], "percent": 10})
    assert state["corps"]["SECR"].get("closed") and state["round"]["kind"] != "stock"
    order = g.order
    assert state["order"][0] == order[(order.index(seller) + 1) % len(order)]


def test_p2_to_p5_free_lay_in_the_track_step_of_an_owned_corporation():
    """OR track: the owner of P2-P5 lays one extra yellow tile on its hex in the track step of a corporation he
    presides, free and without a connection; the track step waits for a pass while it is unused."""
    state = dealt(2)  # P2 stays in this draw
    g = G(state)
    g.s["privates"]["P2"]["owner"] = "0"
    cell = next(c for c in g.title.market.cells if c.price == 50)
    g.s["market"] = g.title.market.with_par(g.s["market"], "BE", cell)
    g.corp("BE").update(floated=True, president="0", cash=100)
    g.set_board(g.board.place_token(g.map.homes["BE"], "BE", g.map.home_nodes.get("BE", 0)))
    g.s["round"] = {"kind": "operating", "turn": 1, "or": 1, "of": 2, "order": ["BE"], "index": 0, "step": "track",
                    "laid": True, "lays": [], "tokened": False, "revenue": None, "runs": [], "special": None,
                    "acted": False}
    from engines.e18xx import operating
    assert operating.step_open(g, "BE", "track")  # no lay left, but P2 unused: the step waits
    moves = g.rules.private_lay_moves(g, 0, "BE")
    assert moves and all(m["hex"] == "I17" and m["entity"] == "P2" for m in moves)
    operating.apply(g, 0, moves[0])
    assert g.board.tile("I17").name == moves[0]["tile"] and g.corp("BE")["cash"] == 100
    assert g.s["privates"]["P2"]["used"] and not operating.step_open(g, "BE", "track")
    with pytest.raises(RuleError):
        operating.apply(g, 0, {**moves[0], "hex": "I17"})


def test_a_corporation_at_the_zero_cell_closes():
    """Market: a corporation whose price reaches £0 closes: cash to the bank, tokens off, shares worthless."""
    state = dealt(1)
    g = G(state)
    zero = g.title.market.rows[0][0]
    assert zero.price == 0 and zero.closes
    g.s["market"] = g.title.market.with_par(g.s["market"], "BE", zero)
    home = g.map.homes["BE"]
    g.set_board(g.board.place_token(home, "BE", g.map.home_nodes.get("BE", 0)))
    g.corp("BE").update(floated=True, president="0", cash=30, shares={"0": ["BE_0"]})
    bank = g.s["bank"]
    assert g.rules.closings(g)
    corp = g.corp("BE")
    assert corp["closed"] and not corp["floated"] and corp["shares"] == {} and g.s["bank"] == bank + 30
    assert not g.board.token_nodes("BE") and g.cell("BE") is None


def test_a_corporation_ending_its_train_step_without_a_train_falls_even_if_it_could_not_buy():
    """OR trains (the site's G1807 BuyTrain): no train after the train step, one step left, bought or not."""
    state = dealt(1)
    g = G(state)
    cell = next(c for c in g.title.market.cells if c.price == 50)
    g.s["market"] = g.title.market.with_par(g.s["market"], "BE", cell)
    g.corp("BE").update(floated=True, president="0", cash=0)
    g.rules.trains_step_done(g, "BE")
    assert g.price("BE") == 45
