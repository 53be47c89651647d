"""1867's rulings where we decide something the site leaves open (docs/rules/1867.md, "Rulings"): a merger nobody
could preside is called off, a trade-in worth more than the new train is never offered, and a stock turn stays open
while a major could be started."""
from __future__ import annotations

from engines.e18xx import trains
from engines.e18xx.g1867 import merger
from engines.e18xx.g1867 import stock as stock1867
from engines.e18xx.state import G
from tests.test_e18xx_1867 import E, first_operating_turn


def test_a_merger_no_owner_could_preside_is_called_off_by_a_pass():
    g = G(first_operating_turn())
    g.rules.train_event(g, "green_minors_available")
    merger.start(g, 2, 1, 2)
    owners = {cid: g.president(cid) for cid in ("CV", "CA")}
    assert owners["CV"] != owners["CA"]  # nobody owns two of them
    for seat in range(g.n):
        g.s["cash"][seat] = 0  # and nobody can pay for a second share
    r = g.round
    r.update(merging=["CV", "CA"], choosing="merge", index=r["minors"].index("CV"))
    assert not merger.merge_possible(g)
    seat = owners["CV"]
    assert E.legal(g.s, seat) == [{"type": "pass", "entity": "CV"}]  # no major can be named: only the call-off
    after = G(E.apply(g.s, seat, {"type": "pass", "entity": "CV"}))
    # the round goes on past CV (here to its end: the other minors, without cash, have nothing to do)
    assert after.round["kind"] != "merger" or (merger.current(after) != "CV" and not after.round["merging"])
    for cid, owner in owners.items():  # both minors stay as they were, with their owners
        assert after.corp(cid)["floated"] and after.president(cid) == owner
    assert not any(after.cell(c) for c in after.s["corps"] if after.cdef(c).kind == "major")
    assert any("called off" in e["text"] for e in after.s["events"])


def test_a_trade_in_worth_more_than_the_new_train_is_never_offered_but_keeps_the_step_open():
    g = G(first_operating_turn())
    g.s["depot"]["phase"] = "8"
    g.s["depot"]["trains"] = ["2+2-0", "2+2-1", "5+5E-0"]
    cid = "CV"
    g.corp(cid)["trains"] = ["5+5E-9"]
    g.corp(cid)["cash"] = 100
    assert trains.list_price(g, "2+2-0", "5+5E-9") == 600 - 750  # the 2+2 would pay the buyer $150
    assert all(old != "5+5E-9" or new.startswith("5+5E") for new, old, _ in trains.trade_ins(g, cid))
    assert all(price >= 0 for _, _, price in trains.trade_ins(g, cid))
    assert ("2+2-0", "5+5E-9", -150) in trains.trade_ins(g, cid, below_zero=True)
    assert trains.can_buy_train(g, cid)  # as the site: the step waits for the corporation, which then passes


def test_a_stock_turn_stays_open_while_a_major_could_be_started_by_a_player_with_twice_the_lowest_par():
    g = G(first_operating_turn())
    g.s["depot"]["phase"] = "4"  # majors may start
    stock1867.start(g, 2)
    seat = E.awaiting(g.s).seats and next(iter(E.awaiting(g.s).seats))
    least = min(cell.price for cell in g.title.market.par_cells)
    g.s["cash"][seat] = 2 * least
    assert stock1867._par_offered(g, seat)
    g.s["cash"][seat] = 2 * least - 1
    assert not stock1867._par_offered(g, seat)
    g.s["cash"][seat] = 2 * least
    g.round["did"] = ["buy"]  # once he has bought, the turn is his to end
    assert not stock1867._par_offered(g, seat)
