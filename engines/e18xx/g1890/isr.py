"""1890's initial stock round (rules §"Initial stock round", JA 9): the private and minor companies in the
scenario's order, one waterfall across game turns.

On his turn a player buys the first unsold company at its price, bids on a later one (at least 5 over its face
value, or 5 over the best bid; he may raise his own bid), or passes; every turn hands the priority card on. The
money of a bid stays set aside until that company is sold. After a purchase the following companies with bids are
settled in order: one bid buys at its amount; several bids start an auction among those bidders, opened by the
first bidder clockwise after the best bid, each raise at least 5, a pass drops out, the last one left buys. The
priority card then goes to the player after the one whose purchase set the auctions off.

When everyone passes in a row before all are sold, the stock round ends and the operating rounds are played; the
next game turn's stock round continues the initial one, bids standing. Each game turn that ends with Arima unsold
makes it 5 cheaper (its face value stays); at 0 the priority holder takes it for nothing at the start of the next
initial round, a purchase like any other. Once all are sold the round goes on as a regular stock round.

Round state: turn, pos (whose turn, an index into the order), passed [seats], bids {company: [[seat, price]]},
auction (None or {item, high: [seat, price], in: [seats], turn: seat}), trigger (seat whose purchase set the
auctions off), par (None or {corporation, seat}: a par price the buyer of Osaka Tram or Daiki sets now).
"""
from __future__ import annotations

from typing import Any

from engines.base import Action, RuleError
from engines.e18xx.companies import IPO
from engines.e18xx.state import BANK, G
from engines.text import msg

INCREMENT = 5
ARIMA = "Arima"


def order(g: G) -> list[str]:
    return list(g.title.rules["isr_order"])


def is_minor(g: G, item: str) -> bool:
    return item in g.s["corps"]


def sold(g: G, item: str) -> bool:
    if is_minor(g, item):
        return g.corp(item)["president"] is not None or bool(g.corp(item).get("closed"))
    return g.s["privates"][item]["owner"] is not None


def unsold(g: G) -> list[str]:
    return [i for i in order(g) if not sold(g, i)]


def face(g: G, item: str) -> int:
    if is_minor(g, item):
        return g.title.rules["minor_face_and_capital"][item][0]
    return g.pdef(item).value


def price_now(g: G, item: str) -> int:
    """What the first unsold company costs: its face value (Arima: less 5 for each game turn it stayed unsold)."""
    less = g.s["flags"].get("arima_discount", 0) if item == ARIMA else 0
    return max(face(g, item) - less, 0)


def item_name(g: G, item: str):
    return g.corp_name(item) if is_minor(g, item) else g.private_name(item)


def start(g: G, turn: int) -> None:
    g.s["round"] = {"kind": "isr", "turn": turn, "pos": 0, "passed": [], "bids": dict(g.s["flags"].get("bids", {})),
                    "auction": None, "trigger": None, "par": None}
    g.event("Stock round {turn} begins; [0] has priority. The initial stock round goes on.", g.order[0], turn=turn)
    left = unsold(g)
    if left and left[0] == ARIMA and price_now(g, ARIMA) <= 0:
        seat = g.order[0]
        g.event("[0] holds the priority card and takes {private} for nothing.", seat, private=item_name(g, ARIMA))
        _acquire(g, seat, ARIMA, 0)
        g.round["trigger"] = seat
        _resolve(g)
        if not g.round["auction"] and not g.round["par"]:
            _after_purchase(g)


def acting(g: G) -> frozenset[int]:
    """Who is awaited (as game.py asks a title's own round)."""
    return frozenset({seat_now(g)})


def seat_now(g: G) -> int:
    r = g.round
    if r["par"]:
        return r["par"]["seat"]
    if r["auction"]:
        return r["auction"]["turn"]
    return g.order[r["pos"] % g.n]


def prompt(g: G):
    r = g.round
    if r["par"]:
        return msg("set the par price of {corp}", corp=r["par"]["corporation"])
    if r["auction"]:
        return msg("raise the bid for {item} or drop out", item=item_name(g, r["auction"]["item"]))
    return msg("initial stock round: buy, bid or pass")


def committed(g: G, seat: int, besides: str | None = None) -> int:
    """Money `seat` has set aside in bids (on companies other than `besides`)."""
    return sum(p for item, bids in g.round["bids"].items() if item != besides for s, p in bids if s == seat)


def min_bid(g: G, item: str) -> int:
    bids = g.round["bids"].get(item, [])
    return (max(p for _, p in bids) if bids else face(g, item)) + INCREMENT


def finished(g: G) -> bool:
    """Everyone passed in a row (the operating rounds come), or everything is sold (a regular stock round follows)."""
    r = g.round
    return (len(r["passed"]) >= g.n or not unsold(g)) and not r["auction"] and not r["par"]


def _advance_from(g: G, seat: int) -> None:
    g.round["pos"] = (g.order.index(seat) + 1) % g.n


def _acquire(g: G, seat: int, item: str, price: int) -> None:
    """`seat` buys `item` at `price` (paid to the bank): a private with what comes with it, or a minor that starts
    with its fixed capital from the bank."""
    g.pay(g.key(seat), BANK, price)
    g.round["bids"].pop(item, None)
    key = g.key(seat)
    if is_minor(g, item):
        corp = g.corp(item)
        g.transfer(item, [g.cdef(item).president_cert], IPO, key)
        corp["president"], corp["floated"] = key, True
        corp["par"] = face(g, item)
        capital = g.title.rules["minor_face_and_capital"][item][1]
        g.pay(BANK, item, capital)
        g.event("[0] buys {item} for {price}; it starts with {capital}.", seat, item=item_name(g, item),
                price=g.amount(price), capital=g.amount(capital))
        g.rules.minor_started(g, item, seat)
        return
    g.s["privates"][item]["owner"] = key
    g.event("[0] buys {item} for {price}.", seat, item=item_name(g, item), price=g.amount(price))
    g.rules.private_bought(g, item, seat)


def _resolve(g: G) -> None:
    """Settle the bids on the companies after the one just sold, in order, until one has no bid or needs an
    auction."""
    r = g.round
    r["auction"] = None
    while (left := unsold(g)) and not r["par"]:
        item = left[0]
        bids = r["bids"].get(item, [])
        if len(bids) == 1:
            _acquire(g, bids[0][0], item, bids[0][1])
            continue
        if len(bids) > 1:
            high = max(bids, key=lambda b: (b[1], -bids.index(b)))
            seats = [s for s, _ in bids]
            r["auction"] = {"item": item, "high": list(high), "in": seats, "turn": _next_bidder(g, seats, high[0],
                                                                                                   high[0])}
            g.event("{item} goes up for auction between {bidders}; the best bid is {price} by [0].", high[0],
                    *seats, item=item_name(g, item), bidders=", ".join(f"[{i + 1}]" for i in range(len(seats))),
                    price=g.amount(high[1]))
        return


def _next_bidder(g: G, seats: list[int], after: int, high: int) -> int | None:
    """The first bidder still in, clockwise after `after`, who is not the best bidder."""
    for step in range(1, g.n + 1):
        seat = g.order[(g.order.index(after) + step) % g.n]
        if seat in seats and seat != high:
            return seat
    return None


def _after_purchase(g: G) -> None:
    """The auctions are over: the card goes to the player after the one whose purchase set them off."""
    r = g.round
    if r["trigger"] is not None:
        _advance_from(g, r["trigger"])
        r["trigger"] = None
    if not unsold(g):
        g.event("Every private and minor company is sold: the initial stock round is over.")


def apply(g: G, seat: int, action: Action) -> None:
    r = g.round
    if seat != seat_now(g):
        raise RuleError("It is not your turn.")
    kind = action["type"]
    if r["par"]:
        return _par(g, seat, action)
    if r["auction"]:
        return _auction_move(g, seat, action)
    if kind == "pass":
        g.event("[0] passes.", seat)
        if seat not in r["passed"]:
            r["passed"].append(seat)
        _advance_from(g, seat)
        return
    if kind != "bid":
        raise RuleError("In the initial stock round you buy the first company, bid on a later one, or pass.")
    item, price = action.get("company"), action.get("price")
    left = unsold(g)
    if item not in left:
        raise RuleError("That company is not for sale.")
    if not isinstance(price, int) or isinstance(price, bool):
        raise RuleError("A bid is a whole amount.")
    cash = g.s["cash"][seat]
    r["passed"] = []
    if item == left[0]:
        now = price_now(g, item)
        if price != now:
            raise RuleError("{item} costs {price} now.", item=item_name(g, item), price=g.amount(now))
        if price + committed(g, seat, item) > cash:
            raise RuleError("You have {cash} and {others} in other bids; {item} costs {price}.", cash=g.amount(cash),
                            others=g.amount(committed(g, seat, item)), item=item_name(g, item), price=g.amount(price))
        r["bids"].pop(item, None)  # bids on the first company are returned
        _acquire(g, seat, item, price)
        r["trigger"] = seat
        _resolve(g)
        if not r["auction"] and not r["par"]:
            _after_purchase(g)
        return
    least = min_bid(g, item)
    mine = next((p for s, p in r["bids"].get(item, []) if s == seat), None)
    if price < least and not (mine is not None and price > mine and price >= least):
        raise RuleError("A bid on {item} is at least {least}.", item=item_name(g, item), least=g.amount(least))
    if price + committed(g, seat, item) > cash:
        raise RuleError("You have {cash} and {others} in other bids; you can bid at most {most}.",
                        cash=g.amount(cash), others=g.amount(committed(g, seat, item)),
                        most=g.amount(cash - committed(g, seat, item)))
    r["bids"][item] = [*(b for b in r["bids"].get(item, []) if b[0] != seat), [seat, price]]
    g.event("[0] bids {price} on {item}.", seat, price=g.amount(price), item=item_name(g, item))
    _advance_from(g, seat)


def _auction_move(g: G, seat: int, action: Action) -> None:
    r = g.round
    a = r["auction"]
    item = a["item"]
    if action["type"] == "pass":
        a["in"].remove(seat)
        r["bids"][item] = [b for b in r["bids"][item] if b[0] != seat]
        g.event("[0] drops out of the auction for {item}.", seat, item=item_name(g, item))
    elif action["type"] == "bid" and action.get("company") == item:
        price = action.get("price")
        if not isinstance(price, int) or isinstance(price, bool) or price < a["high"][1] + INCREMENT:
            raise RuleError("A bid on {item} is at least {least}.", item=item_name(g, item),
                            least=g.amount(a["high"][1] + INCREMENT))
        room = g.s["cash"][seat] - committed(g, seat, item)
        if price > room:
            raise RuleError("You can bid at most {most}.", most=g.amount(room))
        a["high"] = [seat, price]
        r["bids"][item] = [*(b for b in r["bids"][item] if b[0] != seat), [seat, price]]
        g.event("[0] bids {price} on {item}.", seat, price=g.amount(price), item=item_name(g, item))
    else:
        raise RuleError("Raise your bid on {item} or drop out.", item=item_name(g, item))
    nxt = _next_bidder(g, a["in"], seat, a["high"][0])
    if nxt is None:
        winner, price = a["high"]
        r["auction"] = None
        _acquire(g, winner, item, price)
        _resolve(g)
        if not r["auction"] and not r["par"]:
            _after_purchase(g)
    else:
        a["turn"] = nxt


def _par(g: G, seat: int, action: Action) -> None:
    r = g.round
    cid = r["par"]["corporation"]
    if action.get("type") != "par" or action.get("corporation") != cid:
        raise RuleError("Set the par price of {corp}.", corp=cid)
    try:
        cell = g.title.market.by_id(str(action.get("share_price")))
    except ValueError:
        raise RuleError("There is no share price {cell} on this market.",
                        cell=repr(action.get("share_price"))) from None
    if cell not in g.title.market.par_cells:
        raise RuleError("{price} is not a par price for {corp}.", price=g.amount(cell.price), corp=cid)
    g.rules.set_par(g, cid, cell, seat)
    r["par"] = None
    _resolve(g)
    if not r["auction"] and not r["par"]:
        _after_purchase(g)


def legal(g: G, seat: int) -> list[Action]:
    if seat != seat_now(g):
        return []
    r = g.round
    cash = g.s["cash"][seat]
    if r["par"]:
        cid = r["par"]["corporation"]
        return [{"type": "par", "corporation": cid, "share_price": c.id} for c in g.title.market.par_cells]
    if r["auction"]:
        a = r["auction"]
        room = cash - committed(g, seat, a["item"])
        least = a["high"][1] + INCREMENT
        return [*({"type": "bid", "company": a["item"], "price": p} for p in (least, least + 5, least + 20)
                  if p <= room), {"type": "pass"}]
    moves: list[Action] = []
    left = unsold(g)
    if left and price_now(g, left[0]) + committed(g, seat, left[0]) <= cash:
        moves.append({"type": "bid", "company": left[0], "price": price_now(g, left[0])})
    for item in left[1:]:
        room = cash - committed(g, seat, item)
        least = min_bid(g, item)
        moves += [{"type": "bid", "company": item, "price": p} for p in (least, least + 5, least + 20) if p <= room]
    return [*moves, {"type": "pass"}]


def auto(g: G, seat: int) -> Action | None:
    if seat != seat_now(g):
        return None
    if g.round["par"]:
        return legal(g, seat)[0]
    return {"type": "pass"}


def finish(g: G) -> None:
    """Bids stay for the next game turn's stock round."""
    g.s["flags"]["bids"] = dict(g.round["bids"])


def priority_seat(g: G) -> int:
    return g.order[g.round["pos"] % g.n]


def describe(g: G) -> dict[str, Any]:
    r = g.round
    left = unsold(g)
    return {"kind": "isr", "turn": r["turn"], "acting": seat_now(g), "passed": list(r["passed"]),
            "for_sale": [{"company": item, "price": price_now(g, item) if i == 0 else None,
                          "min_bid": None if i == 0 else min_bid(g, item),
                          "bids": [{"seat": s, "price": p} for s, p in r["bids"].get(item, [])]}
                         for i, item in enumerate(left)],
            "auction": dict(r["auction"]) if r["auction"] else None, "par": r["par"]}
