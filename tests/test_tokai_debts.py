"""Tokai Baron: not being able to pay (engines/tokai/debts.py; rules 11.2, 12, 14.1 of 東海男爵 第0.1版).

Checked: half price to the bank rounded down, the express ticket never sold, the auction with a creditor's offset
(the seed's 5,000-yen example), the seller's refusal, route order on bankruptcy (the seed's 可児→大垣 example, also
through ``movement.fare`` on the real map), the void remainder, and money conserved through sales and settling."""
from __future__ import annotations

import pytest

from engines.tokai import debts as db
from engines.tokai import movement as mv
from engines.tokai import network as nw
from tests.tokai_helpers import along

A, B, C, D = "A", "B", "C", "D"


# ---------------------------------------------------------------- basics


def test_bank_is_movement_bank():
    assert db.BANK == mv.BANK


def test_shortfall():
    assert db.shortfall(8000, {B: 5000, C: 5000}) == 2000
    assert db.shortfall(10000, {B: 5000, C: 5000}) == 0
    assert db.shortfall(0, {}) == 0
    assert db.shortfall(3000, [(db.BANK, 1000), (B, 5000)]) == 3000
    assert db.may_sell(8000, {B: 10000}) and not db.may_sell(10000, {B: 10000})


def test_sell_to_bank_half_rounded_down():
    assert db.sell_to_bank(30000) == 15000
    assert db.sell_to_bank(9000) == 4000  # 4,500 -> 端数切り捨て
    assert db.sell_to_bank(45000) == 22000
    assert db.sell_to_bank(4000) == 2000
    for card in nw.load_route_cards()["cards"]:
        half = db.sell_to_bank(card["price"])
        assert half % db.UNIT == 0 and card["price"] / 2 - db.UNIT < half <= card["price"] / 2


def test_express_ticket_never_sold():
    assert not db.sellable(db.EXPRESS_TICKET)
    with pytest.raises(ValueError):
        db.bank_sale(A, db.EXPRESS_TICKET, 5000)
    with pytest.raises(ValueError):
        db.start_auction(A, db.EXPRESS_TICKET, {B: 10000})
    led = db.ledger(0, {B: 5000}, ["jr_taita", db.EXPRESS_TICKET], {})
    assert led.cards == ("jr_taita",)
    # holding only the ticket is holding nothing sellable: bankrupt, and it is not an asset (rule 12)
    s = db.settle(2000, {B: 5000}, [db.EXPRESS_TICKET])
    assert s.bankrupt and not s.must_sell and s.returned == (db.EXPRESS_TICKET,)
    assert db.net_worth(7000, [12000, 16000]) == 35000


def test_bank_sale_makes_card_unowned():
    led = db.ledger(1000, {B: 5000}, ["jr_taita"], {"jr_taita": A})
    led = db.apply_sale(led, db.bank_sale(A, "jr_taita", 12000))
    assert led.cash == 7000 and led.owners["jr_taita"] is None and led.cards == ()
    assert db.settle(led.cash, led.bills, led.cards).paid == {B: 5000}


def test_no_selling_unless_short():
    led = db.ledger(9000, {B: 5000}, ["jr_taita"], {"jr_taita": A})
    with pytest.raises(ValueError):
        db.apply_sale(led, db.bank_sale(A, "jr_taita", 12000))


# ---------------------------------------------------------------- auction


def test_auction_highest_bid_wins():
    auc = db.start_auction(A, "jr_takayama", {A: 0, B: 20000, C: 20000})
    assert auc.active == (B, C)  # the seller does not bid
    auc = db.bid(auc, B, 6000)
    auc = db.bid(auc, C, 9000)
    assert not auc.finished
    auc = db.pass_(auc, B)
    assert auc.finished
    assert db.result(auc) == db.Sale(A, "jr_takayama", C, 9000, 0)


def test_auction_bid_rules():
    auc = db.start_auction(A, "jr_takayama", {B: 5000, C: 20000})
    with pytest.raises(ValueError):
        db.bid(auc, B, 500)  # below the 1,000 minimum / not whole 1,000s
    with pytest.raises(ValueError):
        db.bid(auc, B, 6000)  # more than cash, nothing owed
    with pytest.raises(ValueError):
        db.result(auc)  # not over
    auc = db.bid(auc, B, 5000)
    with pytest.raises(ValueError):
        db.bid(auc, C, 5500)  # raise by at least 1,000
    with pytest.raises(ValueError):
        db.bid(auc, B, 6000)  # already high
    with pytest.raises(ValueError):
        db.pass_(auc, B)  # the high bidder cannot pass
    auc = db.pass_(auc, C)
    with pytest.raises(ValueError):
        db.bid(auc, C, 7000)  # passed, and over
    assert db.result(auc).buyer == B


def test_auction_nobody_bids_goes_to_bank():
    auc = db.start_auction(A, "jr_taita", {B: 0, C: 0})
    auc = db.pass_(db.pass_(auc, B), C)
    assert auc.finished and db.result(auc) is None
    assert db.decide(auc, True, 12000) == db.Sale(A, "jr_taita", db.BANK, 6000)


def test_seller_may_refuse_and_sell_to_bank():
    auc = db.start_auction(A, "jr_taita", {B: 9000})
    auc = db.bid(auc, B, 3000)
    assert auc.finished  # the only bidder holds the bid
    assert db.decide(auc, True, 12000).buyer == B
    assert db.decide(auc, False, 12000) == db.Sale(A, "jr_taita", db.BANK, 6000)


def test_seed_offset_example_creditor_bids_without_cash():
    """「5000円入ってくるプレイヤーが、現金を持たずに5000円で落札することは可能です」."""
    auc = db.start_auction(A, "jr_taita", {B: 0, C: 0}, owed={B: 5000})
    assert auc.limit(B) == 5000 and auc.limit(C) == 0
    with pytest.raises(ValueError):
        db.bid(auc, C, 1000)
    auc = db.pass_(db.bid(auc, B, 5000), C)
    sale = db.result(auc)
    assert sale == db.Sale(A, "jr_taita", B, 5000, 5000) and sale.cash == 0
    led = db.ledger(0, {B: 5000}, ["jr_taita"], {"jr_taita": A})
    led = db.apply_sale(led, sale)
    assert led.bills == ((B, 0),) and led.paid == {B: 5000} and led.owners["jr_taita"] == B
    s = db.settle(led.cash, led.bills, led.cards)
    assert not s.bankrupt and s.unpaid == {}


def test_offset_part_cash_part_claim():
    auc = db.start_auction(A, "jr_takayama", {B: 4000}, owed={B: 5000})
    sale = db.result(db.bid(auc, B, 9000))
    assert (sale.offset, sale.cash) == (5000, 4000)
    with pytest.raises(ValueError):
        db.bid(auc, B, 10000)


def test_offset_jumps_route_order():
    """C is last on the route but, having bought the card with its claim, is paid by offset."""
    led = db.ledger(0, [(B, 5000), (C, 5000)], ["jr_taita"], {"jr_taita": A})
    auc = db.start_auction(A, "jr_taita", {B: 0, C: 0}, owed=dict(led.bills))
    auc = db.pass_(db.bid(auc, C, 5000), B)
    led = db.apply_sale(led, db.result(auc))
    s = db.settle(led.cash, led.bills, led.cards)
    assert s.bankrupt and s.unpaid == {B: 5000} and led.paid == {C: 5000}


# ---------------------------------------------------------------- settling


def test_settle_pays_everyone_when_able():
    s = db.settle(20000, {db.BANK: 1000, B: 5000, C: 10000}, ["jr_taita"])
    assert s == db.Settlement(False, False, {db.BANK: 1000, B: 5000, C: 10000}, {}, 4000)


def test_settle_must_sell_first():
    s = db.settle(8000, {B: 5000, C: 5000}, ["jr_taita", db.EXPRESS_TICKET])
    assert s.must_sell and not s.bankrupt and s.paid == {} and s.cash_left == 8000


def test_seed_14_1_example_route_order():
    """可児→大垣 on 太多線 (B), 高山本線 (C), 東海道本線 (D), 8,000 yen: B 5,000, C 3,000, D nothing."""
    s = db.settle(8000, [(B, 5000), (C, 5000), (D, 5000)], [])
    assert s.bankrupt and s.cash_left == 0
    assert list(s.paid.items()) == [(B, 5000), (C, 3000)]
    assert s.unpaid == {C: 2000, D: 5000}  # 「不足した部分の料金は、無効となります」


def test_seed_14_1_example_through_fare_on_the_map():
    sid = nw.station_id
    path: mv.Path = [(sid("可児"), None)]
    for line, to in (("jr_taita", "美濃太田"), ("jr_takayama", "岐阜"), ("jr_tokaido", "大垣")):
        path += along(line, path[-1][0], sid(to))
    owners = {"jr_taita": B, "jr_takayama": C, "jr_tokaido": D}
    bills = mv.fare(path, owners, A)
    assert list(bills) == [B, C, D]  # fare's dict is in route order
    s = db.settle(8000, bills, [])
    assert s.paid == {B: 5000, C: 3000} and s.bankrupt


def test_bank_is_paid_in_route_order_too():
    s = db.settle(3000, [(db.BANK, 1000), (B, 5000)], [])
    assert s.paid == {db.BANK: 1000, B: 2000} and s.unpaid == {B: 3000}


# ---------------------------------------------------------------- money conserved


def test_money_conserved_through_sales_and_bankruptcy():
    prices = {"jr_taita": 12000, "jr_takayama": 16000, "subway_kamiiida": 4000}
    cash = {A: 2000, B: 3000, C: 10000, D: 1000, db.BANK: 1_000_000}
    bills = [(db.BANK, 1000), (B, 5000), (C, 10000), (D, 5000)]
    start = sum(cash.values())
    led = db.ledger(cash[A], bills, list(prices), {c: A for c in prices})

    # auction 1: B (owed 5,000, cash 3,000) buys the 高山本線 for 7,000: 5,000 offset + 2,000 cash
    auc = db.start_auction(A, "jr_takayama", {k: v for k, v in cash.items() if k != db.BANK}, dict(led.bills))
    auc = db.pass_(db.pass_(db.bid(auc, B, 7000), C), D)
    sale = db.decide(auc, True, prices["jr_takayama"])
    cash[B] -= sale.cash
    led = db.apply_sale(led, sale)
    # the 上飯田線 to the bank for 2,000
    sale = db.bank_sale(A, "subway_kamiiida", prices["subway_kamiiida"])
    cash[db.BANK] -= sale.cash
    led = db.apply_sale(led, sale)
    # auction 2 refused: the 太多線 to the bank for 6,000
    auc = db.start_auction(A, "jr_taita", {C: cash[C]}, dict(led.bills))
    sale = db.decide(db.bid(auc, C, 1000), False, prices["jr_taita"])
    cash[db.BANK] -= sale.cash
    led = db.apply_sale(led, sale)

    assert led.cash == 2000 + 2000 + 2000 + 6000 and led.cards == ()
    assert all(owner != A for owner in led.owners.values())
    s = db.settle(led.cash, led.bills, led.cards)
    assert s.bankrupt and s.cash_left == 0
    assert s.paid == {db.BANK: 1000, C: 10000, D: 1000} and s.unpaid == {D: 4000}
    for payee, amount in s.paid.items():
        cash[payee] += amount
    cash[A] = s.cash_left
    assert sum(cash.values()) == start
    # each creditor got (cash + offset) + void remainder = its bill
    got = {p: s.paid.get(p, 0) + led.paid.get(p, 0) + s.unpaid.get(p, 0) for p, _ in bills}
    assert got == dict(bills)


def test_pay_in_route_order_conserves():
    for cash in range(0, 25000, 1000):
        bills = [(db.BANK, 1000), (B, 5000), (C, 10000), (B, 2000)]
        paid, unpaid, left = db.pay_in_route_order(cash, bills)
        assert sum(paid.values()) + left == cash
        assert sum(paid.values()) + sum(unpaid.values()) == db.total(bills)
