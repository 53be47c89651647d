"""1807's systems (engines/e18xx/g1807/systems.py, docs/rules/1807.md "Merger round"): public companies forming
systems from phase 6 with the seed's exchange (1:1, 1:1, 3:2, 2:1), prices and charters; every affected owner's
consent; systems operating (third lay, limit, loans, dividends, trade-ins, the 5+5E)."""
from __future__ import annotations

import json
import random

import pytest

import engines
from bot.selfplay import run_chance
from cogs.e18xx.words import event_line
from engines.base import CHANCE, RuleError
from engines.e18xx import operating, trains
from engines.e18xx.companies import IPO, POOL, load_title
from engines.e18xx.g1807 import systems
from engines.e18xx.g1867 import charter, loans
from engines.e18xx.state import G, total_money
from tests.e18xx_helpers import NAMES
from tests.i18n_helpers import english_left

ENGINE = engines.get("1807")
SYSTEM_PLAYED = ("merge_system", "form_system")


def phase6(players: int = 4) -> dict:
    """A dealt 4-player game moved to phase 6, nothing started yet."""
    state = ENGINE.apply(ENGINE.setup({}, players), CHANCE, {"type": "pick", "index": 0})
    state["depot"]["phase"] = "6"
    return state


def cell(g: G, price: int):
    return next(c for c in g.title.market.cells if c.price == price)


def two_slot(g: G, *coords: str) -> None:
    """Green two-slot city tiles (15) on these plain cities, so two companies can share one."""
    board = g.board
    for coord in coords:
        board = board.lay_tile(coord, "15", 0)
    g.set_board(board)


def public(g: G, cid: str, price: int, holders: dict[str, int], tokens: list[str], cash: int = 0,
           trains_held: tuple[str, ...] = (), loans_held: int = 0) -> None:
    """Start public company `cid` at `price`: `holders` maps a seat key or "pool" to whole shares (the first listed
    holds the president's certificate, two of them), its tokens on `tokens`, cash taken from the bank."""
    cdef, corp = g.cdef(cid), g.corp(cid)
    president, rest = cdef.share_ids[0], list(cdef.share_ids[1:])
    shares: dict[str, list[str]] = {}
    for k, (holder, n) in enumerate(holders.items()):
        if k == 0:
            shares[holder], rest = [president, *rest[:n - 2]], rest[n - 2:]
        else:
            shares[holder], rest = rest[:n], rest[n:]
    shares[IPO] = rest
    g.s["market"] = g.title.market.with_par(g.s["market"], cid, cell(g, price))
    corp.update(floated=True, par=price, president=next(iter(holders)), shares=shares, cash=cash,
                trains=list(trains_held), loans=loans_held, has_operated=True)
    g.s["bank"] -= cash
    board = g.board
    for coord in tokens:
        node = board.tile(coord).city_indexes()[0]
        board = board.place_token(coord, cid, node)
        charter.take(g, cid, coord, node)
    g.set_board(board)
    for t in trains_held:
        g.s["depot"]["trains"].remove(t)


def units(g: G, cid: str, holder: str) -> int:
    return g.percent(cid, holder) // g.cdef(cid).cert_unit


def merger_round(state: dict) -> dict:
    """The merger round after operating round 5.1, from its systems part (no minor is floated)."""
    g = G(state)
    systems.start(g, 5, 1, 2)
    systems.settle(g)
    return state


def act(state: dict, seat: int, action: dict) -> dict:
    assert seat in ENGINE.awaiting(state).seats, (seat, ENGINE.awaiting(state))
    return ENGINE.apply(state, seat, action)


def test_holder_helper_counts_units():
    state = phase6()
    g = G(state)
    public(g, "CR", 100, {"0": 4, "1": 2, POOL: 1}, ["H18"])
    assert (units(g, "CR", "0"), units(g, "CR", "1"), units(g, "CR", POOL), units(g, "CR", IPO)) == (4, 2, 1, 3)
    assert g.corp("CR")["president"] == "0"


def test_one_company_converts_into_an_8_token_system():
    """One public company converts: 1:1, price kept, the 8-token charter (GCR, the first free), four tokens more,
    cash, trains, loans and privates carried; the company starts again; one unstarted public company leaves.
    CR at £100: seat 0 holds 40% (4 shares) -> 4 units = the president's 20%; seat 1 20% -> two 5% shares; the pool
    one; the treasury the rest of 20: 20 - 4 - 2 - 1 = 13 five-percent certificates."""
    state = phase6()
    g = G(state)
    public(g, "CR", 100, {"0": 4, "1": 2, POOL: 1}, ["H18", "V14"], cash=300, trains_held=("6-0",), loans_held=2)
    bank = total_money(state)
    state = merger_round(state)
    assert state["round"]["part"] == "systems" and systems.current(G(state)) == "CR"
    moves = ENGINE.legal(state, 0)
    assert {"type": "form_system", "entity": "CR", "corporation": "GCR"} in moves
    assert {"type": "form_system", "entity": "CR", "corporation": "SR"} in moves  # both 8-token charters
    assert not any(m.get("corporation") in ("GWR", "LMS", "LNE") for m in moves)
    state = act(state, 0, {"type": "form_system", "entity": "CR", "corporation": "GCR"})
    g = G(state)
    gcr = g.corp("GCR")
    assert g.price("GCR") == 100
    assert gcr["president"] == "0" and gcr["shares"]["0"] == ["GCR_0"]
    assert units(g, "GCR", "0") == 4 and units(g, "GCR", "1") == 2 and units(g, "GCR", POOL) == 1
    assert len(gcr["shares"][IPO]) == 13
    assert gcr["cash"] == 300 and gcr["trains"] == ["6-0"] and gcr["loans"] == 2
    assert sorted(c for c, _ in g.board.token_nodes("GCR")) == ["H18", "V14"]
    assert g.rules.tokens_left(g, "GCR") == (6, 8)  # CR's 2 placed and 2 free, and 4 more: its charter's 8
    assert g.corp("CR")["floated"] is False and g.cell("CR") is None and not g.board.token_nodes("CR")
    assert g.corp("GER")["closed"]  # the first unstarted public company leaves the game
    assert g.value(0) == g.s["cash"][0] + 4 * 100  # the president's 20% is four 5% shares at the price
    assert total_money(state) == bank


def test_one_company_cannot_convert_when_its_president_presides_another():
    state = phase6()
    g = G(state)
    public(g, "CR", 100, {"0": 4}, ["H18"])
    public(g, "GER", 100, {"0": 4}, ["V14"])
    assert systems.form_problem(g, ["CR"]) is not None


def test_two_companies_merge_1_to_1_at_their_average():
    """CR (£120) gathers GER (£80), which shares its city on H18; GER's president agrees. Average (120 + 80) / 2 =
    100. Units 1:1: seat 0 5 (CR), seat 1 3 (CR) + 4 (GER) = 7, seat 2 2 (GER), treasury 2 + 4 = 6; 5+7+2+6 = 20.
    Seat 1 holds most and presides (his 20% certificate and three 5%). Tokens: H18 once (both were there), V14,
    I19; cash 200 + 150."""
    state = phase6()
    g = G(state)
    two_slot(g, "H18")
    public(g, "CR", 120, {"0": 5, "1": 3}, ["H18", "V14"], cash=200)
    public(g, "GER", 80, {"1": 4, "2": 2}, ["H18", "I19"], cash=150)
    state = merger_round(state)
    assert systems.current(G(state)) == "CR"
    assert {"type": "merge_system", "entity": "CR", "corporation": "GER"} in ENGINE.legal(state, 0)
    state = act(state, 0, {"type": "merge_system", "entity": "CR", "corporation": "GER"})
    assert ENGINE.awaiting(state).seats == frozenset({1})  # GER's president is asked
    assert ENGINE.legal(state, 1) == [{"type": "accept_offer"}, {"type": "decline_offer"}]
    state = act(state, 1, {"type": "accept_offer"})
    assert state["round"]["gathering"] == ["CR", "GER"]
    state = act(state, 0, {"type": "form_system", "entity": "CR", "corporation": "SR"})
    g = G(state)
    assert g.price("SR") == 100
    assert [units(g, "SR", k) for k in ("0", "1", "2", POOL, IPO)] == [5, 7, 2, 0, 6]
    assert g.corp("SR")["president"] == "1" and "SR_0" in g.corp("SR")["shares"]["1"]
    assert sorted(c for c, _ in g.board.token_nodes("SR")) == ["H18", "I19", "V14"]
    assert g.corp("SR")["cash"] == 350 and len(g.corp("SR")["charter"]) == 8


def test_a_declined_consent_keeps_the_company_out():
    state = phase6()
    g = G(state)
    two_slot(g, "H18")
    public(g, "CR", 120, {"0": 5}, ["H18"])
    public(g, "GER", 80, {"1": 4}, ["H18"])
    state = merger_round(state)
    state = act(state, 0, {"type": "merge_system", "entity": "CR", "corporation": "GER"})
    state = act(state, 1, {"type": "decline_offer"})
    assert state["round"]["gathering"] == [] and ENGINE.awaiting(state).seats == frozenset({0})
    assert not any(m.get("corporation") == "GER" for m in ENGINE.legal(state, 0))  # not asked again
    with pytest.raises(RuleError):
        ENGINE.apply(state, 0, {"type": "merge_system", "entity": "CR", "corporation": "GER"})


def test_three_companies_merge_3_to_2_with_odd_shares_paid():
    """CR £150, GER £100, GNR £90: highest + lowest = 240, the cell at most that is 220, three steps left: 200, 180,
    165. Units over the three (then 3:2, sets of three old for two new):
      seat 0: CR 4 + GER 1 = 5 -> 2 new, 2 odd: pays 2/3 x 165 = 110 for 2 more -> 4
      seat 1: GER 4 -> 2 new, 1 odd: pays 165 / 3 = 55 for 1 more -> 3
      seat 2: GNR 5 + CR 1 = 6 -> 4 new
      seat 3: CR 2 + GNR 2 = 4 -> 2 new, 1 odd, but has only 20: receives 2/3 x 165 = 110 from the system -> 2
      pool: CR 1 + GER 1 = 2 -> no set, nothing
    20 - (4 + 3 + 4 + 2) = 7 stay in the treasury. Seats 0 and 2 hold 4 each: the tie goes to the initiating
    company's president, seat 0. Cash: 100 + 50 + 30 + 110 + 55 - 110 = 235."""
    state = phase6()
    g = G(state)
    two_slot(g, "H18", "I19")
    public(g, "CR", 150, {"0": 4, "2": 1, "3": 2, POOL: 1}, ["H18"], cash=100)
    public(g, "GER", 100, {"1": 4, "0": 1, POOL: 1}, ["H18", "I19"], cash=50)
    public(g, "GNR", 90, {"2": 5, "3": 2}, ["I19"], cash=30)
    g.s["bank"] += g.s["cash"][3] - 20
    g.s["cash"][3] = 20
    cash = list(g.s["cash"])
    money = total_money(state)
    state = merger_round(state)
    state = act(state, 0, {"type": "merge_system", "entity": "CR", "corporation": "GER"})
    state = act(state, 1, {"type": "accept_offer"})
    assert {"type": "merge_system", "entity": "CR", "corporation": "GNR"} in ENGINE.legal(state, 0)
    state = act(state, 0, {"type": "merge_system", "entity": "CR", "corporation": "GNR"})
    state = act(state, 2, {"type": "accept_offer"})
    moves = ENGINE.legal(state, 0)
    assert {m["corporation"] for m in moves if m["type"] == "form_system"} == {"GWR", "LMS", "LNE"}  # 12 tokens
    state = act(state, 0, {"type": "form_system", "entity": "CR", "corporation": "LMS"})
    g = G(state)
    assert g.price("LMS") == 165
    assert [units(g, "LMS", k) for k in ("0", "1", "2", "3", POOL, IPO)] == [4, 3, 4, 2, 0, 7]
    assert g.corp("LMS")["president"] == "0" and g.corp("LMS")["shares"]["0"] == ["LMS_0"]
    assert g.s["cash"] == [cash[0] - 110, cash[1] - 55, cash[2], cash[3] + 110]
    assert g.corp("LMS")["cash"] == 235
    assert sorted(c for c, _ in g.board.token_nodes("LMS")) == ["H18", "I19"]
    assert len(g.corp("LMS")["charter"]) == 12
    assert total_money(state) == money


def three_with_a_poor_player(cash3: int = 20) -> tuple[dict, dict, list[tuple[int, dict]]]:
    """CR £150, GER £100, GNR £90 (the system at 165, as above), the companies' treasuries empty, gathered by CR with
    the two others' presidents agreeing; seat 3 holds CR 2 + GNR 3 = 5 shares (one set, two odd) and `cash3`.
    Returns the merger round's start, the state before CR forms LMS, and the moves played between."""
    state = phase6()
    g = G(state)
    two_slot(g, "H18", "I19")
    public(g, "CR", 150, {"0": 4, "2": 1, "3": 2, POOL: 1}, ["H18"])
    public(g, "GER", 100, {"1": 4, "0": 1, POOL: 1}, ["H18", "I19"])
    public(g, "GNR", 90, {"2": 5, "3": 3}, ["I19"])
    g.s["bank"] += g.s["cash"][3] - cash3
    g.s["cash"][3] = cash3
    start = state = merger_round(state)
    moves = [(0, {"type": "merge_system", "entity": "CR", "corporation": "GER"}), (1, {"type": "accept_offer"}),
             (0, {"type": "merge_system", "entity": "CR", "corporation": "GNR"}), (2, {"type": "accept_offer"})]
    for seat, move in moves:
        state = act(state, seat, move)
    return start, state, moves


FORM_LMS = {"type": "form_system", "entity": "CR", "corporation": "LMS"}
SHARE, MONEY = {"type": "odd_shares", "choice": "share"}, {"type": "odd_shares", "choice": "money"}


def test_two_odd_shares_unpaid_wait_for_their_holders_choice_and_only_his():
    """Seat 3 cannot pay 2/3 x 165 = 110 for his two odd shares (he has 20): the system waits for his choice, one
    share and a third or four thirds (the seed), offered to him alone; seat 0's two odd shares, which he can pay for,
    are settled without asking him."""
    _, state, _ = three_with_a_poor_player()
    before = state
    state = act(state, 0, FORM_LMS)
    g = G(state)
    assert systems.stage(g) == "odd" and g.corp("LMS")["president"] is None and g.cell("LMS") is None
    assert ENGINE.awaiting(state).seats == frozenset({3})
    assert ENGINE.legal(state, 3) == [SHARE, MONEY]
    assert all(ENGINE.legal(state, s) == [] for s in (0, 1, 2))
    for seat in (0, 1, 2):
        with pytest.raises(RuleError):
            ENGINE.apply(state, seat, SHARE)
    with pytest.raises(RuleError):
        ENGINE.apply(state, 3, {"type": "odd_shares", "choice": "both"})
    with pytest.raises(RuleError):
        ENGINE.apply(state, 3, {"type": "pass"})
    assert state["cash"] == before["cash"]  # nothing moves until he has chosen


@pytest.mark.parametrize("choice, seat3_units, seat3_gets, loans_taken", [
    # one share and a third: seat 3 has 2 + 1 = 3 shares and receives 165 // 3 = 55; LMS has 110 (seat 0's two odd
    # shares) + 55 (seat 1's one) = 165 and pays 55: 110 left, no loan; the treasury keeps 20 - (4+3+4+3) = 6
    (SHARE, 3, 55, 0),
    # four thirds: seat 3 keeps his 2 and receives 165 x 4 // 3 = 220; LMS has 165, borrows two loans of £45 (165 +
    # 90 = 255 >= 220) and pays: 35 left; the treasury keeps 7
    (MONEY, 2, 220, 2),
])
def test_the_chosen_settlement_of_two_odd_shares(choice, seat3_units, seat3_gets, loans_taken):
    """Units: seat 0 CR 4 + GER 1 = 5 -> 2 and two odd, pays 110 -> 4; seat 1 GER 4 -> 2 and one odd, pays 55 ->
    3; seat 2 GNR 5 + CR 1 = 6 -> 4; seat 3 CR 2 + GNR 3 = 5 -> 2 and two odd he cannot pay for; the pool CR 1 +
    GER 1 = 2 -> none. Seat 0 presides (4, tied with seat 2, the initiating company's president)."""
    _, state, _ = three_with_a_poor_player()
    cash, money = list(state["cash"]), total_money(state)
    state = act(act(state, 0, FORM_LMS), 3, choice)
    g = G(state)
    assert state["round"].get("odd") is None and g.price("LMS") == 165 and g.corp("LMS")["president"] == "0"
    assert [units(g, "LMS", k) for k in ("0", "1", "2", "3", POOL, IPO)] == [4, 3, 4, seat3_units, 0,
                                                                            20 - 11 - seat3_units]
    assert g.s["cash"] == [cash[0] - 110, cash[1] - 55, cash[2], cash[3] + seat3_gets]
    assert g.corp("LMS")["loans"] == loans_taken
    assert g.corp("LMS")["cash"] == 165 + 45 * loans_taken - seat3_gets
    assert state["round"]["kind"] == "operating"  # no other public company: the merger round is over
    assert total_money(state) == money


def told_as_lms_forms(choice: dict) -> tuple[list[str], list[dict], list[str]]:
    """CR forms LMS (three_with_a_poor_player) and seat 3 makes his odd-shares `choice`: the players' names, the
    events of his choice's move, and their lines in English as the table posts them."""
    names = list(NAMES[:4])
    _, state, _ = three_with_a_poor_player()
    state = act(state, 0, FORM_LMS)
    seen = state["event_no"]
    state = act(state, 3, choice)
    new = [e for e in state["events"] if e["no"] > seen]
    return names, new, [event_line(e, names, "en") for e in new]


@pytest.mark.parametrize("choice, told, amount", [
    (SHARE, "dan chooses one LMS share and £55 for two odd shares.", "£55"),
    (MONEY, "dan chooses £220 from LMS for two odd shares, and no share.", "£220"),
])
def test_the_odd_shares_choice_is_told_once_as_the_system_pays(choice, told, amount):
    """The narration of seat 3's choice (the new events, as the table posts them) is one line, when LMS pays him:
    who chose, what he got and what he gave; said in Japanese too (the others' lines are the plain payments)."""
    names, new, lines = told_as_lms_forms(choice)
    assert [line for line in lines if names[3] in line and "odd shares" in line] == [told]
    assert lines.index(told) < lines.index("CR, GER, GNR form LMS at £165; ann is its president.")
    ja = next(event_line(e, names, "ja") for e in new if e["seats"] == [3])
    assert english_left(ja, [*names, "LMS"]) == [] and amount in ja


@pytest.mark.parametrize("choice, dan", [(SHARE, "15%"), (MONEY, "10%")])
def test_every_holder_is_told_his_share_of_the_system_it_forms(choice, dan):
    """After the forming line, one line a player who holds the new system: the payers and the payees of odd shares
    as well as the chooser (seat 0 4 units, seat 1 3, seat 2 4, seat 3 3 or 2 by his choice: 5% each), seat
    order; in Japanese too."""
    names, new, lines = told_as_lms_forms(choice)
    formed = lines.index("CR, GER, GNR form LMS at £165; ann is its president.")
    held = [f"{names[0]} now holds 20% of LMS.", f"{names[1]} now holds 15% of LMS.",
            f"{names[2]} now holds 20% of LMS.", f"{names[3]} now holds {dan} of LMS."]
    assert lines[formed + 1:formed + 5] == held
    ja = [event_line(e, names, "ja") for e in new[formed + 1:formed + 5]]
    assert all(english_left(line, [*names, "LMS"]) == [] for line in ja) and dan in ja[3]


def test_new_shares_running_short_give_a_player_who_can_pay_the_choice_too():
    """CR all seat 0's (10 shares), GER all seat 1's, GNR seat 0 3, seat 1 4, seat 2 3: seat 0 13 (4 sets -> 8, one
    odd), seat 1 14 (4 sets -> 8, two odd), seat 2 3 (one set -> 2); 20 - 18 = 2 left. Seat 0 pays 165 // 3 = 55 for
    one: 1 left, too few for seat 1's two, rich as he is: his choice, one share and 55 (by default), or 220."""
    state = phase6()
    g = G(state)
    public(g, "CR", 150, {"0": 10}, ["H18"])
    public(g, "GER", 100, {"1": 10}, ["V14"])
    public(g, "GNR", 90, {"0": 3, "1": 4, "2": 3}, ["I19"])
    publics = ["CR", "GER", "GNR"]
    deal = systems.exchange(g, publics, 165)
    assert deal["open"] == ["1"]
    assert (deal["units"]["0"], deal["units"]["1"], deal["units"]["2"], deal["units"][IPO]) == (9, 9, 2, 0)
    assert deal["money"] == {"0": 55, "1": -55} and deal["president"] == "0"
    chosen = systems.exchange(g, publics, 165, {"1": "money"})
    assert chosen["open"] == [] and (chosen["units"]["1"], chosen["units"][IPO]) == (8, 1)
    assert chosen["money"] == {"0": 55, "1": -220}
    assert systems.exchange(g, publics, 165, {"1": "share"})["open"] == []


def test_a_player_who_can_pay_for_two_odd_shares_is_not_asked():
    """With 110 (2/3 x 165) seat 3 must pay for his two odd shares (docs/rules/1807.md, "The exchange"): the system
    forms at once, seat 3 holding 4."""
    _, state, _ = three_with_a_poor_player(cash3=110)
    state = act(state, 0, FORM_LMS)
    g = G(state)
    assert state["round"].get("odd") is None and units(g, "LMS", "3") == 4 and g.s["cash"][3] == 0


def test_a_replay_of_the_log_through_the_choice_equals_the_live_state():
    """The moves from the merger round's start, the choice included, replayed from the stored (JSON) start as the
    table service does, give the live state; so does a state stored while the choice waits, played on."""
    from engines.log import replay
    start, gathered, moves = three_with_a_poor_player()
    stored = json.loads(json.dumps(start))
    moves += [(0, FORM_LMS), (3, MONEY)]
    live = act(act(gathered, 0, FORM_LMS), 3, MONEY)
    replayed = replay(ENGINE, stored, [(i, seat, move) for i, (seat, move) in enumerate(moves, 1)])
    assert json.dumps(replayed, sort_keys=True) == json.dumps(live, sort_keys=True)
    waiting = json.loads(json.dumps(act(gathered, 0, FORM_LMS)))
    assert json.dumps(ENGINE.apply(waiting, 3, MONEY), sort_keys=True) == json.dumps(live, sort_keys=True)


def test_the_odd_shares_choice_is_not_written_for_the_site():
    """18xx.games has no systems (SITE_UNPLAYED): forming LMS and the odd shares' choice write nothing."""
    from bot.selfplay import site_unplayed
    from engines.e18xx.export import _Writer
    assert {"merge_system", "form_system", "odd_shares"} <= site_unplayed("1807")
    _, state, _ = three_with_a_poor_player()
    writer = _Writer([1, 2, 3, 4])
    for seat, move in ((0, FORM_LMS), (3, SHARE)):
        state = writer.play(ENGINE, state, seat, move)
    assert writer.actions == [] and G(state).corp("LMS")["president"] == "0"


def test_four_companies_merge_2_to_1_and_the_president_removes_tokens_over_12():
    """CR £200, GER £150, GNR £120, LBSC £100: highest + lowest = 300. Units (2:1):
      seat 0: CR 6 + LBSC 3 = 9 -> 4 new, 1 odd: pays 300 / 2 = 150 for one more -> 5 (president)
      seat 1: GER 5 -> 2 new, 1 odd: pays 150 -> 3
      seat 2: GNR 4 -> 2 new
      seat 3: CR 1 + GER 1 + GNR 1 + LBSC 2 = 5 -> 2 new, 1 odd, has 100: receives 150 -> 2
      pool: CR 1 + GNR 1 = 2 -> 1
    the treasury 20 - 13 = 7. Tokens: 13 cities (H18, I19, P28 shared): one over the 12 of the charter, which the
    president removes."""
    state = phase6()
    g = G(state)
    two_slot(g, "H18", "I19", "P28", "U13")  # U13: BE's home, its second slot free
    public(g, "CR", 200, {"0": 6, "3": 1, POOL: 1}, ["H18", "V14", "X18", "X20"], cash=100)
    public(g, "GER", 150, {"1": 5, "3": 1}, ["H18", "I19", "X24", "V26"], cash=100)
    public(g, "GNR", 120, {"2": 4, "3": 1, POOL: 1}, ["I19", "P28", "R28", "A9"], cash=100)
    public(g, "LBSC", 100, {"0": 3, "3": 2}, ["P28", "D4", "U9"], cash=100)
    board = g.board.place_token("U13", "LBSC", 0)
    charter.take(g, "LBSC", "U13", 0)
    g.set_board(board)
    g.s["bank"] += g.s["cash"][3] - 100
    g.s["cash"][3] = 100
    cash = list(g.s["cash"])
    state = merger_round(state)
    assert systems.current(G(state)) == "CR"
    for other, seat in (("GER", 1), ("GNR", 2), ("LBSC", None)):
        assert {"type": "merge_system", "entity": "CR", "corporation": other} in ENGINE.legal(state, 0)
        state = act(state, 0, {"type": "merge_system", "entity": "CR", "corporation": other})
        if seat is not None:  # LBSC is seat 0's own: no one to ask
            state = act(state, seat, {"type": "accept_offer"})
    assert state["round"]["gathering"] == ["CR", "GER", "GNR", "LBSC"]
    assert not any(m["type"] == "merge_system" for m in ENGINE.legal(state, 0))  # four at most
    state = act(state, 0, {"type": "form_system", "entity": "CR", "corporation": "GWR"})
    g = G(state)
    assert g.price("GWR") == 300
    assert [units(g, "GWR", k) for k in ("0", "1", "2", "3", POOL, IPO)] == [5, 3, 2, 2, 1, 7]
    assert g.s["cash"] == [cash[0] - 150, cash[1] - 150, cash[2], cash[3] + 150]
    assert g.corp("GWR")["cash"] == 400 + 150 + 150 - 150
    assert len(g.board.token_nodes("GWR")) == 13 and state["round"]["reducing"] == "GWR"
    removals = ENGINE.legal(state, 0)
    assert {m["type"] for m in removals} == {"remove_token"}
    state = act(state, 0, {"type": "remove_token", "entity": "GWR", "hex": "A9", "city": 0})
    g = G(state)
    assert len(g.board.token_nodes("GWR")) == 12 and state["round"].get("reducing") is None
    assert g.rules.tokens_left(g, "GWR") == (0, 12)


def test_minor_merger_needs_the_other_owners_consent():
    """1807's minor mergers: adding another player's minor asks its owner; the merge is played only once he
    agrees; a refused minor is not offered again in this merger."""
    state, g = floated_minors_sharing_a_city("1807", "H18", ("BE", "BG"))
    first = systems.current(g)
    other = "BG" if first == "BE" else "BE"
    owner, asked = g.president(first), g.president(other)
    assert {"type": "merge", "entity": first, "corporation": other} in ENGINE.legal(state, owner)
    proposed = act(state, owner, {"type": "merge", "entity": first, "corporation": other})
    assert ENGINE.awaiting(proposed).seats == frozenset({asked}) and proposed["round"]["merging"] == []
    assert ENGINE.legal(proposed, asked) == [{"type": "accept_offer"}, {"type": "decline_offer"}]
    declined = act(proposed, asked, {"type": "decline_offer"})
    assert declined["round"]["merging"] == [] and ENGINE.awaiting(declined).seats == frozenset({owner})
    assert {"type": "merge", "entity": first, "corporation": other} not in ENGINE.legal(declined, owner)
    accepted = act(proposed, asked, {"type": "accept_offer"})
    assert accepted["round"]["merging"] == [first, other]


def test_export_writes_a_consented_minor_merge_and_leaves_the_answers_out():
    """The site has no consent: the export writes the merge once accepted, and nothing for a refusal."""
    from engines.e18xx.export import _Writer
    start, g = floated_minors_sharing_a_city("1807", "H18", ("BE", "BG"))
    first = systems.current(g)
    other = "BG" if first == "BE" else "BE"
    owner, asked = g.president(first), g.president(other)
    merge = {"type": "merge", "entity": first, "corporation": other}
    for answer, expected in (("decline_offer", []), ("accept_offer", [
            {"type": "merge", "corporation": other, "entity": first, "entity_type": "corporation"}])):
        state, writer = start, _Writer([1, 2, 3, 4])
        for seat, action in ((owner, merge), (asked, {"type": answer})):
            state = writer.play(ENGINE, state, seat, action)
        assert writer.actions == expected


def floated_minors_sharing_a_city(title: str, coord: str, minors: tuple[str, ...]) -> tuple[dict, G]:
    """Minors of seats 0 and 1 at £80, both with a token in the two-slot city laid on `coord`, in phase 3."""
    state = engines.get(title).setup({}, 4)
    if title == "1807":
        state = ENGINE.apply(state, CHANCE, {"type": "pick", "index": 0})
    state["depot"]["phase"] = "3"
    state["flags"]["green_minors"] = True  # 1867: majors form by merger from the first 3-train
    g = G(state)
    two_slot(g, coord)
    for cid, owner in zip(minors, ("0", "1"), strict=True):
        g.s["market"] = g.title.market.with_par(g.s["market"], cid, cell(g, 80))
        g.corp(cid).update(floated=True, president=owner, shares={owner: [f"{cid}_0"]}, has_operated=True)
        node = g.board.tile(coord).city_indexes()[0]
        g.set_board(g.board.place_token(coord, cid, node))
        charter.take(g, cid, coord, node)
    g.rules.modules["merger"].start(g, 3, 1, 2)
    g.rules.modules["merger"].settle(g)
    return state, g


def test_1867_merges_another_players_minor_without_asking():
    """1867 stays as 18xx.games plays it: no consent."""
    state, g = floated_minors_sharing_a_city("1867", "C17", ("CV", "BO"))
    merger = g.rules.modules["merger"]
    first = merger.current(g)
    other = "BO" if first == "CV" else "CV"
    after = engines.get("1867").apply(state, g.president(first), {"type": "merge", "entity": first,
                                                                   "corporation": other})
    assert after["round"]["merging"] == [first, other] and "consent" not in after["round"]


# ---- systems operating ---------------------------------------------------------------------------------------------

def operating_system(price: int = 100, cash: int = 0) -> tuple[dict, G]:
    """GCR formed from CR (seat 0: 60%, seat 1: 20%) and in an operating round."""
    state = phase6()
    g = G(state)
    public(g, "CR", price, {"0": 6, "1": 2}, ["H18"], cash=cash)
    systems.form(g, ["CR"], "GCR")
    operating.start(g, 5, 1, 2)
    return state, g


def test_system_lays_a_third_yellow_tile_for_20():
    state, g = operating_system()
    assert g.rules.lays_allowed(g, "GCR", [{"hex": "A1", "upgrade": True}, {"hex": "A3", "upgrade": False}]) == [
        {"upgrade": False, "cost": 20, "not_on": "A3"}]
    assert g.rules.lays_allowed(g, "CR", [{"hex": "A1", "upgrade": True}, {"hex": "A3", "upgrade": False}]) == []


def test_system_operates_after_public_companies_with_limit_4_and_10_loans():
    state, g = operating_system(price=100)
    public(g, "GER", 50, {"2": 4}, ["V26"])
    assert g.rules.operating_order(g) == ["GER", "GCR"]  # publics, then systems, each by price
    assert g.rules.train_limit(g, "GCR") == 4
    for _ in range(10):
        assert loans.can_take(g, "GCR")
        loans.take(g, "GCR")
    assert not loans.can_take(g, "GCR")


@pytest.mark.parametrize("revenue,kind,per_share,steps", [
    (2000, "payout", 100, 2),   # 2000 / 20 = 100 a share; 100 x 10 = 1000 >= 2 x 100: two steps
    (300, "payout", 15, 1),     # 15 x 10 = 150 >= 100, < 200: one step
    (190, "payout", 9, 0),      # 190 / 20 = 9 (rounded down); 90 < 100: no move
    (4000, "half", 100, 2),     # half: 2000 paid, 100 a share
])
def test_system_dividend_per_5_percent_share_moves_up_to_two_steps(revenue, kind, per_share, steps):
    """Per 5% share, rounded down; right one step when 10 x the share's dividend >= price, two when >= twice."""
    state, g = operating_system(price=100)
    before = list(g.s["cash"])
    g.rules.pay_dividend(g, "GCR", kind, revenue)
    assert g.s["cash"][0] - before[0] == per_share * 6 and g.s["cash"][1] - before[1] == per_share * 2
    assert g.price("GCR") == [100, 110, 120][steps]
    assert g.corp("GCR")["cash"] == revenue - per_share * 8  # its 12 treasury shares and the rest, to it


def test_system_withholds_one_step_left():
    state, g = operating_system(price=100)
    g.rules.pay_dividend(g, "GCR", "withhold", 300)
    assert g.price("GCR") == 90 and g.corp("GCR")["cash"] == 300


def test_systems_trade_in_at_the_seeds_values_and_only_they_buy_5_5e():
    """A system at its limit trades a 6 in for £160 toward a 4+4 (the seed's table; 3G 110, 4G 135); a public
    company trades nothing in and may not buy a 5+5E."""
    state, g = operating_system(cash=2000)
    g.s["depot"]["phase"] = "8"
    depot = g.s["depot"]["trains"]
    for t in ("6-0", "6-1", "6-2", "3+3-0"):
        depot.remove(t)
        g.corp("GCR")["trains"].append(t)
    while not depot[0].startswith("4+4"):
        depot.pop(0)  # the earlier trains sold
    t44 = depot[0]
    found = trains.trade_ins(g, "GCR")
    assert (t44, "6-0", 1000 - 160) in found
    assert load_title("1807").train("4+4").trade_in["3G"] == 110 and load_title("1807").train("4+4").trade_in[
        "4G"] == 135
    public(g, "GER", 100, {"2": 4}, ["V14"], cash=2000)
    g.corp("GER")["trains"] = ["6-x"]
    assert trains.trade_ins(g, "GER") == []
    assert g.rules.may_buy_train(g, "GCR", "5+5E-0") and not g.rules.may_buy_train(g, "GER", "5+5E-0")


def test_system_shares_cost_their_price_each_and_score_so():
    """A 5% share of a system costs its price (the price is per share), paid to its treasury; the end scores it
    at the price, the president's 20% at four times it."""
    from engines.e18xx.g1867 import stock
    state, g = operating_system(price=100)
    stock.start(g, 6)
    seat = stock.acting(g)
    buy = next(m for m in ENGINE.legal(state, seat) if m["type"] == "buy_shares" and m["shares"][0].startswith("GCR"))
    before, treasury = state["cash"][seat], g.corp("GCR")["cash"]
    after = ENGINE.apply(state, seat, buy)
    assert after["cash"][seat] == before - 100 and after["corps"]["GCR"]["cash"] == treasury + 100
    g = G(after)
    held = 6 + (seat == 0)  # the president's certificate (4 shares), two 5% shares, and the one bought
    assert units(g, "GCR", "0") == held and g.value(0) == g.s["cash"][0] + held * 100


# ---- selfplay --------------------------------------------------------------------------------------------------

TIERS = (SYSTEM_PLAYED + ("accept_offer",), ("buy_train",), ("dividend",), ("buy_shares", "par"))


def steered(moves: list[dict], rng: random.Random) -> dict:
    """A random player who mostly forms systems, buys trains, pays out and buys shares (uniform play seldom keeps
    a public company alive to phase 6)."""
    for tier in TIERS:
        pref = [m for m in moves if m["type"] in tier and not (m["type"] == "buy_train" and m["price"] < 2)
                and not (m["type"] == "dividend" and m.get("kind") != "payout")]
        if pref and rng.random() < 0.9:
            return rng.choice(pref)
    return rng.choice(moves)


def steered_game(seed: int, players: int, limit: int = 20_000) -> tuple[dict, dict[str, int]]:
    """A steered selfplay game from the setup, and what it played: systems formed, minors taken over, goods trains
    bought."""
    rng, state = random.Random(seed), ENGINE.setup({}, players)
    played = {"systems": 0, "takeovers": 0, "goods": 0}
    for _ in range(limit):
        state, _ = run_chance(ENGINE, state, rng)
        if ENGINE.is_over(state):
            break
        seat = rng.choice(sorted(ENGINE.awaiting(state).seats))
        move = steered(ENGINE.legal(state, seat), rng)
        played["systems"] += move["type"] == "form_system"
        taker = move.get("entity") if move["type"] == "buy_shares" and state["round"]["kind"] == "merger" else None
        played["takeovers"] += taker in state["corps"] and G(state).cdef(taker).kind == "minor"
        played["goods"] += move["type"] == "buy_train" and "variant" in move
        state = ENGINE.apply(state, seat, move)
    return state, played


@pytest.mark.parametrize("seed", [1])  # ~13 s: the one whole game that forms systems, takes over and buys goods
def test_selfplay_with_systems_ends_with_money_conserved(seed):
    """A whole game with systems allowed ends by the 4+4, having formed systems, taken minors over and bought goods
    trains, with every pound still in play."""
    state, played = steered_game(seed, 4)
    assert state["over"] == "final_phase" and all(played.values()), played
    assert total_money(state) == load_title("1807").bank
    assert all(isinstance(s, int) for s in ENGINE.scores(state))


# ---- words -------------------------------------------------------------------------------------------------------

def test_the_systems_part_and_consent_read_in_words():
    """What a player reads in Discord: the consent asked of GER's president, the gathering, the system named."""
    from cogs.e18xx.presenter import E18xxPresenter, todo
    from tests.e18xx_helpers import presenter_table
    P, names = E18xxPresenter(), list(NAMES[:4])
    state = phase6()
    g = G(state)
    two_slot(g, "H18")
    public(g, "CR", 120, {"0": 5, "1": 3}, ["H18", "V14"])
    public(g, "GER", 80, {"1": 4, "2": 2}, ["H18", "I19"])
    state = merger_round(state)
    ask = {"type": "merge_system", "entity": "CR", "corporation": "GER"}
    assert P.move_label(presenter_table(ENGINE, state), ask) == f"Ask {names[1]} to merge GER into CR's system"
    assert todo(G(state), 0, names) == "**Your move:** CR may form a system or pass."
    asked = act(state, 0, ask)
    assert todo(G(asked), 1, names) == "**Your move:** GER's president decides whether it joins CR's system merger."
    assert P.move_label(presenter_table(ENGINE, asked), {"type": "accept_offer"}) == "Agree: GER joins CR's merger"
    gathered = act(asked, 1, {"type": "accept_offer"})
    label = P.move_label(presenter_table(ENGINE, gathered), {"type": "form_system", "entity": "CR",
                                                              "corporation": "SR"})
    assert label == "CR, GER form SR (Southern Railway) at £100, 8 tokens"
    lines = P.public_lines(presenter_table(ENGINE, gathered))
    assert lines[0].startswith("**Merger round 5.1** · phase 6 · public companies may form systems")
    text = P.move_label(presenter_table(ENGINE, gathered), {"type": "pass", "entity": "CR"})
    assert text == "Call off the system merger of CR, GER"


def test_the_odd_shares_choice_reads_in_words_in_both_languages():
    """Seat 3's panel and hand say his choice with its amounts (165 // 3 = 55, 165 x 4 // 3 = 220), in English and
    Japanese; the others read that the table waits for him."""
    from cogs.e18xx.presenter import E18xxPresenter, todo
    from tests.e18xx_helpers import presenter_table
    P, names = E18xxPresenter(), list(NAMES[:4])
    _, state, _ = three_with_a_poor_player()
    state = act(state, 0, FORM_LMS)
    table = presenter_table(ENGINE, state)
    assert P.move_label(table, SHARE) == "Take one LMS share and £55"
    assert P.move_label(table, MONEY) == "Take £220 from LMS, no share"
    assert todo(G(state), 3, names) == ("**Your move:** LMS forms once two odd shares are settled: one LMS share "
                                        "and £55, or £220.")
    assert todo(G(state), 3, names, "ja").startswith("**あなたの手番：**") and "£220" in todo(G(state), 3, names, "ja")
    assert "LMS" in P.move_label(table, MONEY, "ja") and "£220" in P.move_label(table, MONEY, "ja")
    assert P.move_label(table, MONEY, "ja") != P.move_label(table, MONEY)
    lines = P.public_lines(presenter_table(ENGINE, state))
    assert f"{names[3]}: LMS forms once two odd shares are settled" in "\n".join(lines)
