"""1867's stock round: 1889's turns (engines/e18xx/stock.py: buy or sell, pass) plus the auction of a minor.

A player may open the bidding for a minor instead of buying a share ($100 at least, in steps of $5): he first
puts its home token on any city with no token in it, then the others bid in the players' order until all but one
have passed. The winner pays his bid into the minor's treasury and holds its one certificate; its share price is
the dearest minor par price at most half the bid (and at most $135). The turn then passes to the player after the
winner. Majors start (par) from phase 4 and take the money for each share into their treasury as it is sold.

Round state adds: auction (bidding.py, None between auctions), home (the minor waiting for its home token), opener.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engines.base import Action, RuleError
from engines.e18xx import stock as shared
from engines.e18xx.companies import IPO
from engines.e18xx.g1867 import bidding
from engines.e18xx.state import G

MIN_BID = 100
MAX_MINOR_PAR = 135


def start(g: G, turn: int) -> None:
    shared.start(g, turn)
    g.round.update(auction=None, home=None, opener=None)


def acting(g: G) -> int:
    r = g.s["round"]
    if r.get("home"):
        return r["opener"]
    if r.get("auction"):
        return bidding.next_bidder(r["auction"])
    return shared.acting(g)


def finished(g: G) -> bool:
    return not g.s["round"].get("auction") and not g.s["round"].get("home") and shared.finished(g)


def available_minors(g: G) -> list[str]:
    """Minors a player may open the bidding for now."""
    return list(_open_minors(g))


def _open_minors(g: G) -> Iterator[str]:
    """available_minors one at a time: whether there is any is asked after every stock move (settle). None without
    asking each minor once no minor may start at all (1867's minors closed)."""
    if not g.rules.minors_may_start(g):
        return iter(())
    priced = g.cells()
    return (cid for cid in g.title.of_kind.get("minor", ()) if cid not in priced and g.rules.may_start(g, cid))


def _minor_open(g: G, cid: str) -> bool:
    """Whether `cid` is one of available_minors (asked of the one a bid names)."""
    return isinstance(cid, str) and g.title.kind_of.get(cid) == "minor" and g.cell(cid) is None \
        and g.rules.may_start(g, cid)


def _bid_cash(g: G):
    def cash(seat: int) -> int:
        return g.s["cash"][seat] if g.cert_count(seat) < g.cert_limit else 0
    return cash


def apply(g: G, seat: int, action: Action) -> None:
    r = g.s["round"]
    if seat != acting(g):
        raise RuleError("It is not your turn.")
    kind = action["type"]
    if r.get("home"):
        if kind != "place_token":
            raise RuleError("First put {corp}'s home token on a city.", corp=r["home"])
        _home(g, r["home"], action)
        return
    if r.get("auction"):
        auction = r["auction"]
        if kind == "bid":
            if action.get("corporation") != auction["item"]:
                raise RuleError("{corp} is up for auction now.", corp=auction["item"])
            # a raise: each bidder left was under the certificate limit when the bidding opened (the opening bid
            # dropped the others) and no certificate moves during it, so what he may bid is his cash, uncounted
            bidding.bid(g, auction, seat, action.get("price"), MIN_BID, lambda s: g.s["cash"][s])
            g.event("[0] bids {price} for {corp}.", seat, price=g.amount(action["price"]), corp=auction["item"])
        elif kind == "pass":
            bidding.drop(auction, seat)
            g.event("[0] drops out of the auction for {corp}.", seat, corp=auction["item"])
        else:
            raise RuleError("Bid for the minor up for auction, or pass.")
        _resolve(g)
        return
    if kind == "bid":
        cid = action.get("corporation")
        if "buy" in r["did"]:
            raise RuleError("You have already bought this turn.")
        if not _minor_open(g, cid):
            raise RuleError("{corp} is not a minor that can be started now.", corp=str(cid)[:20])
        auction = bidding.open_auction(cid, list(g.order))
        bidding.bid(g, auction, seat, action.get("price"), MIN_BID, _bid_cash(g))  # drops who cannot raise it
        r.update(auction=auction, home=cid, opener=seat)
        g.event("[0] opens the bidding for {corp} ({name}) at {price}.", seat, corp=cid, name=g.corp_name(cid),
                price=g.amount(action["price"]))
        shared._did(g, seat, "buy")
        _resolve(g)  # no one else may be able to bid: the opener wins at once (the home token still comes first)
        return
    shared.apply(g, seat, action)
    if kind == "par":  # a major's home token is chosen at once
        r.update(home=action["corporation"], opener=seat)


def _home(g: G, cid: str, action: Action) -> None:
    coord, node = action.get("hex"), action.get("city", 0)
    if not isinstance(coord, str) or not isinstance(node, int):
        raise RuleError("A home token goes on a hex's city.")
    if not g.trusted and (coord, node) not in g.rules.home_cities(g, cid):
        raise RuleError("{corp}'s home token goes on a city with no token in it.", corp=cid)
    board = None  # a replay's city: any printed one with a free slot (place_token looks for it, once)
    if coord in g.map.printed:
        try:
            board = g.board.place_token(coord, cid, node)
        except RuleError:  # no free slot there
            pass
    if board is None:
        raise RuleError("{corp} cannot place its home token on {where}.", corp=cid, where=coord)
    g.set_board(board)
    g.rules.token_placed(g, cid, coord, node)
    g.round["home"] = None
    g.event("{corp} puts its home token on {where}.", corp=cid, where=g.place(coord))
    _resolve(g)


def _resolve(g: G) -> None:
    r = g.round
    if not r.get("auction"):
        return
    won = bidding.winner(r["auction"])
    if won is None:
        return
    seat, price = won
    cid = r["auction"]["item"]
    r["auction"] = None
    par_price = min(price // 2, MAX_MINOR_PAR)
    cell = next(c for c in g.title.market.par_cells_for("minor") if c.price <= par_price)
    g.s["market"] = g.title.market.with_par(g.s["market"], cid, cell)
    corp = g.corp(cid)
    corp["par"] = cell.price
    g.transfer(cid, [g.cdef(cid).president_cert], IPO, g.key(seat))
    corp["president"] = g.key(seat)
    g.pay(g.key(seat), cid, price)
    corp["floated"] = True
    g.event("[0] wins {corp} for {price}; its shares start at {share_price}.", seat, corp=cid, price=g.amount(price),
            share_price=g.amount(cell.price))
    # the turn goes on from the winner: he has acted, and the player after him is next
    r["pos"] = g.order.index(seat)
    r["did"] = ["buy"]
    shared._did(g, seat, "buy")
    shared.end_turn(g, passed=False)


def settle(g: G) -> None:
    if g.s["round"].get("auction") or g.s["round"].get("home"):
        return
    for _ in range(4 * g.n + 4):
        if shared.finished(g) or _has_move(g, acting(g)):
            return
        if not g.s["round"]["did"]:
            g.event("[0] can buy and sell nothing now, so passes.", acting(g))
        shared.end_turn(g, passed=not g.s["round"]["did"])


def _has_move(g: G, seat: int) -> bool:
    """Whether the turn holds more than pass: a share purchase or sale (the shared turn's), a bid or a par."""
    if "buy" in g.s["round"]["did"]:
        return shared.has_move(g, seat)  # a sale at most: no purchase, bid or par after a purchase
    # the certificate count, the same for every purchase, bid and par, counted once; and the shared turn's pars
    # left out: the par it would offer (a major that may start and has a home city, its cheapest par price in hand,
    # room under the limit) is a par _any_par finds too (its least price is no dearer than a major's cheapest)
    counts = (g.cert_count(seat), g.cert_limit)
    room = counts[0] < counts[1]
    if room and g.s["cash"][seat] >= MIN_BID and next(_open_minors(g), None) is not None:
        return True  # a bid (asked first: the cheapest question, and the answer in most early turns)
    return shared.has_move(g, seat, counts, pars=False) or (room and _any_par(g, seat))


def _may_bid_at_all(g: G, seat: int) -> bool:
    """Not after a purchase this turn, under the certificate limit, and with the least bid in hand."""
    return _room_to_start(g, seat) and g.s["cash"][seat] >= MIN_BID


def _room_to_start(g: G, seat: int) -> bool:
    return "buy" not in g.round["did"] and g.cert_count(seat) < g.cert_limit


def _par_offered(g: G, seat: int) -> bool:
    """18xx.games keeps a player's turn open while some major could be started, he is under the certificate limit
    and has twice the lowest par price, whether or not a city can take its home token or he can pay the par he would
    choose (he then passes): so does this round, to follow the same turns."""
    return _room_to_start(g, seat) and _any_par(g, seat)


def _any_par(g: G, seat: int) -> bool:
    """_par_offered but for the player's room to start one."""
    least = g.title.market.par_cells[-1].price  # the least par price (dearest first): the site prices a share so
    priced, cash = g.cells(), g.s["cash"][seat]
    for cid in g.title.of_kind.get("major", ()):
        if cid not in priced and g.rules.may_start(g, cid):
            cdef = g.cdef(cid)
            if cash >= least * cdef.president_percent // cdef.share_unit:
                return True
    return False


def _bids(g: G, seat: int) -> list[Action]:
    if not _may_bid_at_all(g, seat):
        return []
    return [{"type": "bid", "corporation": cid, "price": MIN_BID} for cid in available_minors(g)]


def finish(g: G) -> None:
    shared.finish(g)


def priority_seat(g: G) -> int:
    return shared.priority_seat(g)


def legal(g: G, seat: int) -> list[Action]:
    r = g.round
    if seat != acting(g):
        return []
    if r.get("home"):
        cid = r["home"]
        return [{"type": "place_token", "entity": cid, "hex": h, "city": i} for h, i in g.rules.home_cities(g, cid)]
    if r.get("auction"):
        auction = r["auction"]
        low = bidding.least_bid(auction, MIN_BID)
        cash = _bid_cash(g)(seat)
        return [*({"type": "bid", "corporation": auction["item"], "price": p} for p in (low, low + 20) if p <= cash),
                {"type": "pass"}]
    moves = shared.turn_moves(g, seat)
    return [*moves[:-1], *_bids(g, seat), moves[-1]]


def auto(g: G, seat: int) -> Action | None:
    if seat != acting(g):
        return None
    if g.round.get("home"):
        return legal(g, seat)[0]
    return shared.auto(g, seat)


def describe(g: G) -> dict[str, Any]:
    r = g.round
    view = {"kind": "stock", "turn": r["turn"], "acting": acting(g), "passed": list(r["passed"])}
    if r.get("auction"):
        view["auction"] = {"corporation": r["auction"]["item"], "bids": [list(b) for b in r["auction"]["bids"]]}
    return view
