"""One thing auctioned among the players, 18xx.games's "passable auction": bidders in the players' order, each bid
at least the best bid plus the increment, a bidder who passes is out, the last bidder left wins. Whoever cannot
pay the least next bid is out at once. The auction is a JSON dict in the round:
{item, bids [[seat, price]], bidders [seats]}.
"""
from __future__ import annotations

from typing import Any

from engines.base import RuleError
from engines.e18xx.state import G

INCREMENT = 5


def open_auction(item: str, bidders: list[int]) -> dict[str, Any]:
    return {"item": item, "bids": [], "bidders": list(bidders)}


def best(auction: dict[str, Any]) -> list[int] | None:
    """The best bid: the last, as each bid beats the best before it (bid; a falling price's sale is the only one)."""
    bids = auction["bids"]
    return bids[-1] if bids else None


def next_bidder(auction: dict[str, Any]) -> int:
    """Whose turn: the bidder after the best bidder (the first bidder before any bid)."""
    bidders, top = auction["bidders"], best(auction)
    if top is None:
        return bidders[0]
    return bidders[(bidders.index(top[0]) + 1) % len(bidders)]


def least_bid(auction: dict[str, Any], opening: int) -> int:
    top = best(auction)
    return opening if top is None else top[1] + INCREMENT


def bid(g: G, auction: dict[str, Any], seat: int, price: Any, opening: int, cash_of) -> None:
    """Take a bid (checked), then drop the bidders who cannot pay the least next one. `cash_of(seat)`: the most
    he may bid, never more than his cash (his cash is looked at first: cash_of counts his certificates)."""
    least = least_bid(auction, opening)
    if not isinstance(price, int) or isinstance(price, bool) or price < least:
        raise RuleError("The least bid is {least}.", least=g.amount(least))
    if price % INCREMENT:
        raise RuleError("Bids go in steps of {step}.", step=g.amount(INCREMENT))
    if price > cash_of(seat):
        raise RuleError("You have {cash}; you cannot bid {price}.", cash=g.amount(cash_of(seat)), price=g.amount(price))
    auction["bids"] = [b for b in auction["bids"] if b[0] != seat] + [[seat, price]]
    nxt = price + INCREMENT
    cash = g.s["cash"]
    auction["bidders"] = [s for s in auction["bidders"] if s == seat or (cash[s] >= nxt and cash_of(s) >= nxt)]


def drop(auction: dict[str, Any], seat: int) -> None:
    auction["bidders"].remove(seat)


def winner(auction: dict[str, Any]) -> list[int] | None:
    """[seat, price] once one bidder is left with a bid, else None."""
    if len(auction["bidders"]) == 1 and auction["bids"]:
        return best(auction)
    return None
