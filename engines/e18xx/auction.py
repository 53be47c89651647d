"""1889's opening waterfall auction of the private companies (18xx.games's rules, import notes §11.1).

On his turn a player buys the cheapest unsold private at its price, bids on a dearer one, or passes. After a
purchase the bids are settled from the cheapest private up: one bid wins at its amount, several start an
auction among those bidders (the lowest bidder raises or drops out), no bid stops the settling. When everybody
has passed in a row, the cheapest private gets 5 cheaper while it is the first one (at 0 the next player must
take it), or, once it is sold, every owned private pays its revenue once.

Round state: pos (whose turn outside an auction, an index into the order), passed [seats], bids {private:
[[seat, price], ...]}, auctioning (private or None), cheapest (the first private), discount.
"""
from __future__ import annotations

from typing import Any

from engines.base import Action, RuleError
from engines.e18xx.state import BANK, G

INCREMENT = 5


def start(g: G) -> None:
    unsold = sorted(g.s["privates"], key=lambda pid: g.s["privates"][pid]["value"])
    g.s["round"] = {"kind": "auction", "pos": 0, "passed": [], "bids": {}, "auctioning": None,
                    "cheapest": unsold[0], "discount": 0}
    g.event("The private companies are auctioned.")


def unsold(g: G) -> list[str]:
    left = [pid for pid, p in g.s["privates"].items() if p["owner"] is None and not p["closed"]]
    return sorted(left, key=lambda pid: g.s["privates"][pid]["value"])


def finished(g: G) -> bool:
    return not unsold(g)


def price_now(g: G, pid: str) -> int:
    """What the cheapest private costs now (its value less the discount of an all-pass round)."""
    discount = g.round["discount"] if pid == g.round["cheapest"] else 0
    return g.s["privates"][pid]["value"] - discount


def min_bid(g: G, pid: str) -> int:
    bids = g.round["bids"].get(pid, [])
    if not bids:
        return g.s["privates"][pid]["value"] + INCREMENT
    return max(price for _, price in bids) + INCREMENT


def committed(g: G, seat: int, besides: str) -> int:
    return sum(price for pid, bids in g.round["bids"].items() if pid != besides for s, price in bids if s == seat)


def acting(g: G) -> int:
    r = g.round
    if r["auctioning"]:
        bids = r["bids"][r["auctioning"]]
        return min(bids, key=lambda b: b[1])[0]
    return g.order[r["pos"] % g.n]


def _advance(g: G) -> None:
    g.round["pos"] = (g.round["pos"] + 1) % g.n


def _buy(g: G, seat: int, pid: str, price: int) -> None:
    g.pay(g.key(seat), BANK, price)
    g.s["privates"][pid]["owner"] = g.key(seat)
    g.round["bids"].pop(pid, None)
    g.event("[0] buys {private} for {price}.", seat, private=g.private_name(pid), price=g.amount(price))


def _resolve(g: G) -> None:
    """Settle bids from the cheapest private up, until one has no bid or needs an auction."""
    r = g.round
    r["auctioning"] = None
    while (left := unsold(g)):
        pid = left[0]
        bids = r["bids"].get(pid, [])
        if len(bids) == 1:
            _buy(g, bids[0][0], pid, bids[0][1])
            continue
        if len(bids) > 1:
            r["auctioning"] = pid
            g.event("{private} goes up for auction between {bidders}.", *[s for s, _ in bids],
                    private=g.private_name(pid), bidders=", ".join(f"[{i}]" for i in range(len(bids))))
        return


def apply(g: G, seat: int, action: Action) -> None:
    kind = action["type"]
    r = g.round
    if seat != acting(g):
        raise RuleError("It is not your turn.")
    if kind == "pass":
        if r["auctioning"]:
            pid = r["auctioning"]
            r["bids"][pid] = [b for b in r["bids"][pid] if b[0] != seat]
            g.event("[0] drops out of the auction for {private}.", seat, private=g.private_name(pid))
            _resolve(g)
            return
        g.event("[0] passes.", seat)
        if seat not in r["passed"]:
            r["passed"].append(seat)
        if len(r["passed"]) == g.n:
            _all_passed(g)
        _advance(g)
        return
    if kind != "bid":
        raise RuleError("In the auction you bid for a private company or pass.")
    pid, price = action.get("company"), action.get("price")
    if pid not in g.s["privates"] or g.s["privates"][pid]["owner"] is not None or g.s["privates"][pid]["closed"]:
        raise RuleError("That private company is not for sale.")
    if not isinstance(price, int) or isinstance(price, bool):
        raise RuleError("A bid is a whole amount.")
    cash = g.s["cash"][seat]
    if r["auctioning"]:
        if pid != r["auctioning"]:
            raise RuleError("{private} is being auctioned; raise your bid or drop out.",
                            private=g.private_name(r["auctioning"]))
        _check_bid(g, seat, pid, price, cash)
        _place(g, seat, pid, price)
        return
    if seat in r["passed"]:
        r["passed"].remove(seat)
    if pid == unsold(g)[0]:
        now = price_now(g, pid)
        if price != now and not g.trusted:  # the site takes the price sent; we ask for the right one
            raise RuleError("{private} costs {price} now.", private=g.private_name(pid), price=g.amount(now))
        others = committed(g, seat, pid)  # open bids stay covered: a winning bid must be paid
        if price + others > cash:
            raise RuleError("You have {cash} and {others} in other bids; {private} costs {price}.",
                            cash=g.amount(cash), others=g.amount(others), private=g.private_name(pid),
                            price=g.amount(price))
        _buy(g, seat, pid, price)
        _resolve(g)
    else:
        _check_bid(g, seat, pid, price, cash)
        _place(g, seat, pid, price)
    _advance(g)


def _check_bid(g: G, seat: int, pid: str, price: int, cash: int) -> None:
    least = min_bid(g, pid)
    if price < least:
        raise RuleError("A bid on {private} is at least {least}.", private=g.private_name(pid), least=g.amount(least))
    others = committed(g, seat, pid)
    if price + others > cash:
        raise RuleError("You have {cash} and {others} in other bids; you can bid at most {most}.",
                        cash=g.amount(cash), others=g.amount(others), most=g.amount(cash - others))


def _place(g: G, seat: int, pid: str, price: int) -> None:
    bids = [b for b in g.round["bids"].get(pid, []) if b[0] != seat]
    g.round["bids"][pid] = [*bids, [seat, price]]
    g.event("[0] bids {price} on {private}.", seat, price=g.amount(price), private=g.private_name(pid))


def _all_passed(g: G) -> None:
    r = g.round
    cheapest = r["cheapest"]
    if cheapest in unsold(g):
        r["discount"] += INCREMENT
        now = price_now(g, cheapest)
        g.event("Everyone passed: {private} now costs {price}.", private=g.private_name(cheapest),
                price=g.amount(max(now, 0)))
        if now <= 0:
            _advance(g)
            winner = g.order[r["pos"]]
            g.s["privates"][cheapest]["owner"] = g.key(winner)
            g.event("[0] must take {private} for free.", winner, private=g.private_name(cheapest))
            _resolve(g)
    else:
        g.event("Everyone passed: the private companies pay their revenue.")
        g.pay_private_revenue()
    r["passed"] = []


def priority_seat(g: G) -> int:
    """Who has priority for the first stock round: whoever's turn it would be now."""
    return g.order[g.round["pos"] % g.n]


def legal(g: G, seat: int) -> list[Action]:
    if seat != acting(g):
        return []
    r = g.round
    cash = g.s["cash"][seat]
    moves: list[Action] = []
    if r["auctioning"]:
        pid = r["auctioning"]
        room = cash - committed(g, seat, pid)
        for price in _steps(min_bid(g, pid), room):
            moves.append({"type": "bid", "company": pid, "price": price})
        return [*moves, {"type": "pass"}]
    left = unsold(g)
    first = left[0]
    if price_now(g, first) + committed(g, seat, first) <= cash:
        moves.append({"type": "bid", "company": first, "price": price_now(g, first)})
    for pid in left[1:]:
        room = cash - committed(g, seat, pid)
        for price in _steps(min_bid(g, pid), room):
            moves.append({"type": "bid", "company": pid, "price": price})
    return [*moves, {"type": "pass"}]


def _steps(least: int, room: int) -> list[int]:
    """A few sensible bids: the least, and 5 and 20 more, while affordable."""
    return [p for p in (least, least + 5, least + 20) if p <= room]


def auto(g: G, seat: int) -> Action | None:
    return {"type": "pass"} if seat == acting(g) else None


def describe(g: G) -> dict[str, Any]:
    r = g.round
    return {"kind": "auction", "for_sale": [{"company": pid, "price": price_now(g, pid) if i == 0 else None,
                                             "min_bid": None if i == 0 else min_bid(g, pid),
                                             "bids": [{"seat": s, "price": p} for s, p in r["bids"].get(pid, [])]}
                                            for i, pid in enumerate(unsold(g))],
            "auctioning": r["auctioning"], "passed": list(r["passed"])}
