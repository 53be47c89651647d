"""1807's stock round: 1867's (engines/e18xx/g1867/stock.py) with two changes.

- A minor's home token is put down at once: every 1807 minor has its home city printed on the map (18xx.games: the
  corporation's coordinates), so nobody chooses it.
- The ferries (from the first stock round) and the undergrounds (U1 from phase 5, U2 from phase 7) are auctioned
  here, as the private railways were at the start: instead of buying a share a player opens the bidding for one at
  its face value or more (steps of £5); the others bid in the players' order until all but one have passed; the
  winner pays the bank. The turn then goes to the player after the winner (18xx.games's G1807 BuySellParShares
  win_bid). As with a minor's auction, opening it is the opener's move and winning it the winner's: neither counts
  as passed any more, even when he had passed before (docs/rules/1807.md, Rulings, "Priority").

Round state adds nothing new: the auction (bidding.py) has `company: true` when its item is a private.
"""
from __future__ import annotations

from typing import Any

from engines.base import Action, RuleError
from engines.e18xx import stock as shared
from engines.e18xx.g1867 import bidding
from engines.e18xx.g1867 import stock as base
from engines.e18xx.g1867.stock import (  # noqa: F401  the round's other functions are 1867's
    acting,
    finish,
    finished,
    priority_seat,
    start,
)
from engines.e18xx.state import BANK, G


def _home_now(g: G) -> None:
    cid = g.round.get("home")
    if cid and g.cdef(cid).kind == "minor":
        coord = g.map.homes[cid]
        base._home(g, cid, {"hex": coord, "city": g.board.home_node(coord, cid)})  # where an upgrade put the city


def auctionable(g: G) -> list[str]:
    """The ferries and undergrounds that may be auctioned now: come into play, unsold, in number order."""
    up = g.s["flags"].get("privates_up", [])
    return [pid for pid in up if g.s["privates"][pid]["owner"] is None and not g.s["privates"][pid]["closed"]]


def _least(g: G, pid: str) -> int:
    return g.pdef(pid).value


def _company_auction(g: G) -> bool:
    auction = g.round.get("auction")
    return bool(auction and auction.get("company"))


def apply(g: G, seat: int, action: Action) -> None:
    r = g.round
    kind = action["type"]
    r.pop("after_private_win", None)
    if seat == acting(g) and not r.get("home") and (
            _company_auction(g) or (kind == "bid" and "company" in action and not r.get("auction"))):
        _apply_company(g, seat, action)
        return
    if kind == "bid" and "company" in action:
        raise RuleError("{corp} is up for auction now.", corp=r["auction"]["item"] if r.get("auction") else "-")
    base.apply(g, seat, action)
    _home_now(g)


def _apply_company(g: G, seat: int, action: Action) -> None:
    r = g.round
    kind = action["type"]
    cash = base._bid_cash(g)
    if r.get("auction"):
        auction = r["auction"]
        pid = auction["item"]
        if kind == "bid":
            if action.get("company") != pid:
                raise RuleError("{private} is up for auction now.", private=g.private_name(pid))
            bidding.bid(g, auction, seat, action.get("price"), _least(g, pid), cash)
            g.event("[0] bids {price} for {private}.", seat, price=g.amount(action["price"]),
                    private=g.private_name(pid))
        elif kind == "pass":
            bidding.drop(auction, seat)
            g.event("[0] drops out of the auction for {private}.", seat, private=g.private_name(pid))
        else:
            raise RuleError("Bid for the private company up for auction, or pass.")
        _resolve(g)
        return
    pid = action.get("company")
    if "buy" in r["did"]:
        raise RuleError("You have already bought this turn.")
    if pid not in auctionable(g):
        raise RuleError("{private} cannot be auctioned now.", private=str(pid)[:20])
    auction = bidding.open_auction(pid, list(g.order))
    auction["company"] = True
    bidding.bid(g, auction, seat, action.get("price"), _least(g, pid), cash)  # drops who cannot raise it
    r["auction"] = auction
    g.event("[0] opens the bidding for {private} at {price}.", seat, private=g.private_name(pid),
            price=g.amount(action["price"]))
    shared._did(g, seat, "buy")  # his move, as a minor's opening (g1867/stock.py)
    _resolve(g)


def _resolve(g: G) -> None:
    r = g.round
    won = bidding.winner(r["auction"])
    if won is None:
        return
    seat, price = won
    pid = r["auction"]["item"]
    r["auction"] = None
    g.pay(g.key(seat), BANK, price)
    g.s["privates"][pid]["owner"] = g.key(seat)
    g.event("[0] buys {private} for {price}.", seat, private=g.private_name(pid), price=g.amount(price))
    # the player after the winner is next (18xx.games: goto the winner, next entity); winning is his move
    r["pos"] = g.order.index(seat)
    shared._did(g, seat, "buy")
    shared.end_turn(g, passed=False)
    r["after_private_win"] = True


def _company_bids(g: G, seat: int) -> list[Action]:
    """Openings of a ferry or underground auction `seat` may make (at the least price)."""
    if "buy" in g.round["did"]:
        return []
    cash = base._bid_cash(g)(seat)
    return [{"type": "bid", "company": pid, "price": _least(g, pid)} for pid in auctionable(g)
            if _least(g, pid) <= cash]


def _may_open(g: G, seat: int) -> bool:
    """18xx.games keeps a player's turn open while he has the cash for some auctionable private's least bid, even at
    the certificate limit (when his only move is then to pass)."""
    return "buy" not in g.round["did"] and any(_least(g, pid) <= g.s["cash"][seat] for pid in auctionable(g))


def settle(g: G) -> None:
    if g.round.get("auction") or g.round.get("home"):
        return
    for _ in range(4 * g.n + 4):
        seat = acting(g)
        if shared.finished(g) or base._has_move(g, seat) or _may_open(g, seat):
            break
        if not g.round["did"]:
            g.event("[0] can buy and sell nothing now, so passes.", seat)
        shared.end_turn(g, passed=not g.round["did"])
    r = g.round
    if shared.finished(g) and not r.get("priority_set"):
        # Priority goes to the player after the last one to pass (18xx.games's reorder_players :after_last_to_act
        # takes the turn's position). 18xx.games moves the turn on twice when the players after a private's winner,
        # and then the winner, all pass without a choice to the round's end (win_bid's next_entity! and the
        # action's own): priority then goes one seat further.
        last = r["pos"] - (0 if r.pop("after_private_win", None) else 1)
        r["last_to_act"] = g.order[last % g.n]
        r["priority_set"] = True


def legal(g: G, seat: int) -> list[Action]:
    r = g.round
    if seat != acting(g):
        return []
    if _company_auction(g):
        auction = r["auction"]
        low = bidding.least_bid(auction, _least(g, auction["item"]))
        cash = base._bid_cash(g)(seat)
        return [*({"type": "bid", "company": auction["item"], "price": p} for p in (low, low + 20) if p <= cash),
                {"type": "pass"}]
    moves = base.legal(g, seat)
    if r.get("auction") or r.get("home"):
        return moves
    return [*moves[:-1], *_company_bids(g, seat), moves[-1]]


def auto(g: G, seat: int) -> Action | None:
    if seat == acting(g) and _company_auction(g):
        return {"type": "pass"}
    return base.auto(g, seat)


def describe(g: G) -> dict[str, Any]:
    view = base.describe(g)
    if _company_auction(g):
        auction = g.round["auction"]
        view["auction"] = {"company": auction["item"], "bids": [list(b) for b in auction["bids"]]}
    return view
