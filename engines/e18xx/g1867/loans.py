"""1867's loans: $50 each from a shared pool (minors may hold 2, majors 5), paying $45 when taken; interest of $5 a
loan, on the loans held when the operating round began, due after the dividend; then every loan the corporation can
repay ($50) is repaid. A corporation borrows by itself what it lacks for a tile lay or for a train it must buy.
Each corporation's count is `loans` in its state; the round keeps `interest` {corporation: loans due}.
"""
from __future__ import annotations

from engines.e18xx.state import BANK, G


def _terms(g: G) -> dict:
    return g.title.loans


def held(g: G, cid: str) -> int:
    return g.corp(cid).get("loans", 0)


def pool_left(g: G) -> int:
    # a list, not a generator: cheaper for the twenty-odd corporations, and asked at most operating moves
    return _terms(g)["count"] - sum([c.get("loans", 0) for c in g.s["corps"].values()])


def can_take(g: G, cid: str) -> bool:
    return held(g, cid) < _terms(g)["max"].get(g.cdef(cid).kind, 0) and pool_left(g) > 0


def take(g: G, cid: str) -> None:
    terms = _terms(g)
    g.corp(cid)["loans"] = held(g, cid) + 1
    g.pay(BANK, cid, terms["received"])
    g.event("{corp} takes a loan and receives {amount}.", corp=cid, amount=g.amount(terms["received"]))


def borrow_for(g: G, cid: str, amount: int) -> None:
    while g.corp(cid)["cash"] < amount and can_take(g, cid):
        take(g, cid)


def buying_power(g: G, cid: str) -> int:
    terms = _terms(g)
    room = min(_terms(g)["max"].get(g.cdef(cid).kind, 0) - held(g, cid), pool_left(g))
    return g.corp(cid)["cash"] + max(0, room) * terms["received"]


def note_interest(g: G) -> None:
    """At the start of an operating round: the loans each corporation owes interest on this round."""
    g.round["interest"] = {cid: held(g, cid) for cid in g.s["corps"] if held(g, cid)}


def pay_interest_and_repay(g: G, cid: str) -> bool:
    """The loan step: interest (borrowing for it if need be), then repayments. False when the interest cannot be
    paid even so (the corporation is then nationalised)."""
    terms = _terms(g)
    owed = terms["interest_per_loan"] * g.round.get("interest", {}).get(cid, 0)
    while owed > g.corp(cid)["cash"] and can_take(g, cid):
        take(g, cid)
    if owed > g.corp(cid)["cash"]:
        return False
    if owed:
        g.pay(cid, BANK, owed)
        g.event("{corp} pays {amount} interest.", corp=cid, amount=g.amount(owed))
    while held(g, cid) and g.corp(cid)["cash"] >= terms["value"]:
        g.pay(cid, BANK, terms["value"])
        g.corp(cid)["loans"] -= 1
        g.event("{corp} repays a loan.", corp=cid)
    g.round.setdefault("interest", {})[cid] = held(g, cid)
    return True
