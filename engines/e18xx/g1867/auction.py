"""1867's opening auction of the private companies, one at a time from the cheapest (18xx.games's
SingleItemAuction). The least opening bid is the private's face value less its discount; bids rise by 5. A bidder
who passes is out; the last one left wins and pays. If everyone declines to open the bidding, the price drops by 5
and the first player to bid buys it at that price (each round of passes drops it another 5). After a sale the
player after the winner opens the next private; when all are sold, the player after the last winner has priority.

Round state: privates [unsold, cheapest first], index (position in the order of the player who opens), auction
(bidding.py, or None between privates), declined [seats], dutch (the price is falling), discount {private: n}.
"""
from __future__ import annotations

from typing import Any

from engines.base import Action, RuleError
from engines.e18xx.g1867 import bidding
from engines.e18xx.state import BANK, G


def start(g: G) -> None:
    kept = [pid for pid in g.s["privates"] if g.rules.auctioned_at_start(g, pid)]
    g.s["round"] = {"kind": "auction", "privates": sorted(kept, key=lambda pid: g.pdef(pid).value), "index": 0,
                    "auction": None, "declined": [], "dutch": False, "discount": {}}
    g.event("The private companies are auctioned, one at a time.")
    _next_private(g)


def _rotated(g: G) -> list[int]:
    i = g.round["index"] % g.n
    return g.order[i:] + g.order[:i]


def price(g: G, pid: str) -> int:
    """The least opening bid: face value less the private's discount and 5 for each round of passes."""
    return g.pdef(pid).value - g.pdef(pid).discount - g.round["discount"].get(pid, 0)


def _open(g: G, pid: str) -> None:
    least = price(g, pid)
    g.round["auction"] = bidding.open_auction(pid, [s for s in _rotated(g) if g.s["cash"][s] >= least])


def _next_private(g: G) -> None:
    r = g.round
    r.update(auction=None, declined=[], dutch=False)
    if r["privates"]:
        pid = r["privates"][0]
        g.event("{private} is up for auction; the least bid is {price}.", private=g.private_name(pid),
                price=g.amount(price(g, pid)))
        _open(g, pid)


def finished(g: G) -> bool:
    return not g.s["round"]["privates"]


def acting(g: G) -> int:
    r = g.s["round"]
    auction = r["auction"]
    if auction["bids"]:
        return bidding.next_bidder(auction)
    return next(s for s in auction["bidders"] if s not in r["declined"])


def priority_seat(g: G) -> int:
    return g.order[g.round["index"] % g.n]


def _drop_price(g: G, pid: str) -> None:
    r = g.round
    r["discount"][pid] = r["discount"].get(pid, 0) + bidding.INCREMENT
    r["dutch"] = True
    g.event("Nobody bids for {private}: its price drops to {price}.", private=g.private_name(pid),
            price=g.amount(price(g, pid)))


def apply(g: G, seat: int, action: Action) -> None:
    r = g.s["round"]
    if seat != acting(g):
        raise RuleError("It is not your turn.")
    auction = r["auction"]
    pid = auction["item"]
    kind = action["type"]
    if kind == "bid":
        if action.get("company") != pid:
            raise RuleError("{private} is up for auction now.", private=g.private_name(pid))
        r["declined"] = []
        if r["dutch"]:
            if action.get("price") != price(g, pid):
                raise RuleError("{private} sells for {price} now.", private=g.private_name(pid),
                                price=g.amount(price(g, pid)))
            auction["bidders"] = [seat]
            auction["bids"] = [[seat, price(g, pid)]]
        else:
            bidding.bid(g, auction, seat, action.get("price"), price(g, pid), lambda s: g.s["cash"][s])
            g.event("[0] bids {price} for {private}.", seat, price=g.amount(action["price"]),
                    private=g.private_name(pid))
    elif kind == "pass":
        if auction["bids"] or r["dutch"]:
            bidding.drop(auction, seat)
            g.event("[0] drops out of the auction for {private}.", seat, private=g.private_name(pid))
        else:
            r["declined"].append(seat)
            g.event("[0] declines to bid for {private}.", seat, private=g.private_name(pid))
            if len(r["declined"]) == len(auction["bidders"]):
                r["declined"] = []
                _drop_price(g, pid)
    else:
        raise RuleError("Bid for the private company up for auction, or pass.")
    _resolve(g)


def _resolve(g: G) -> None:
    r = g.round
    auction = r["auction"]
    pid = auction["item"]
    if not auction["bidders"]:  # everyone passed while the price fell: it falls again
        _drop_price(g, pid)
        _open(g, pid)
        if price(g, pid) <= 0:
            auction["bids"] = [[auction["bidders"][0], 0]]
            auction["bidders"] = auction["bidders"][:1]
    won = bidding.winner(auction)
    if won is None:
        return
    seat, amount = won
    g.pay(g.key(seat), BANK, amount)
    g.s["privates"][pid]["owner"] = g.key(seat)
    r["privates"].remove(pid)
    r["index"] = g.order.index(seat) + 1
    g.event("[0] buys {private} for {price}.", seat, private=g.private_name(pid), price=g.amount(amount))
    _next_private(g)


def legal(g: G, seat: int) -> list[Action]:
    if g.round["privates"] == [] or seat != acting(g):
        return []
    r = g.round
    pid = r["auction"]["item"]
    if r["dutch"]:
        least = [price(g, pid)]
    else:
        low = bidding.least_bid(r["auction"], price(g, pid))
        least = [p for p in (low, low + 5, low + 20) if p <= g.s["cash"][seat]]
    return [*({"type": "bid", "company": pid, "price": p} for p in least), {"type": "pass"}]


def auto(g: G, seat: int) -> Action | None:
    return {"type": "pass"} if seat == acting(g) else None


def describe(g: G) -> dict[str, Any]:
    r = g.round
    auction = r["auction"] or {}
    return {"kind": "auction", "privates": list(r["privates"]), "up": auction.get("item"),
            "bids": [list(b) for b in auction.get("bids", [])], "dutch": r["dutch"]}
