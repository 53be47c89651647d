"""The stock round (import notes §11.2-11.3), and share sales that operating rounds reuse.

A turn: at most one purchase (a share, or a par = the president's certificate) and any sales, sell-then-buy or
buy-then-sell but not sell-buy-sell; all the shares of one corporation sold this turn go in one sale, and a
corporation sold this round cannot be bought back this round. Nobody sells in the first stock round. A turn
ends by itself when the player has nothing more he may do; a player with nothing to do at the start of his turn
passes without being asked. The round ends when everyone has passed in a row (a turn in which the player did
something and then passed does not count as a pass).

A player over the certificate limit, or holding more than 60% of a corporation whose price is not in the orange
area, must sell before anything else, as on 18xx.games: while he is over and some sale is open to him, his only
moves are sales (he may not pass). When no sale is open to him (the first stock round, a full pool) he plays on.

Round state: turn (stock round number), pos (index into the order), passed [seats], did [this turn's
"buy"/"sell" in order], sold_now [corporations sold this turn], sold {seat: [corporations sold this round]},
last_to_act (seat or None).
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engines.base import Action, RuleError
from engines.e18xx.companies import (
    IPO,
    POOL,
    SHARE_PERCENT,
    can_gain,
    fits_in_pool,
    is_floated,
    is_sold_out,
    may_sell_president_cert,
    sale_bundles,
    sale_proceeds,
    within_holding_limit,
)
from engines.e18xx.state import BANK, G
from engines.text import Msg, msg, to_json


def start(g: G, turn: int) -> None:
    g.s["round"] = {"kind": "stock", "turn": turn, "pos": 0, "passed": [], "did": [], "sold_now": [], "sold": {},
                    "last_to_act": None}
    g.event("Stock round {turn} begins; [0] has priority.", g.order[0], turn=turn)


def acting(g: G) -> int:
    return g.order[g.s["round"]["pos"] % g.n]


def finished(g: G) -> bool:
    return len(g.s["round"]["passed"]) >= g.n


# ---- what a player may do -----------------------------------------------------------------------------

def may_sell_now(g: G) -> bool:
    r = g.s["round"]
    if r["turn"] == 1 and g.title.rules.get("no_selling_in_first_stock_round"):
        return False
    did = r["did"]
    if "buy" in did and g.title.rules.get("sell_buy_order") == "sell_buy":
        return False  # 1867: sales come before the purchase
    return not ("buy" in did and "sell" in did[: did.index("buy")])  # no sell-buy-sell


def over_limit(g: G, seat: int, count: int | None = None) -> Msg | None:
    """Why the player holds too much (over the certificate limit, or over 60% of a corporation outside the orange
    area), or None. `count`: his certificate count, when the caller has counted them."""
    count, limit = g.cert_count(seat) if count is None else count, g.cert_limit
    if count > limit:
        return msg("You hold {count} certificates, over the limit of {limit}", count=count, limit=limit)
    key = g.key(seat)
    for cid, corp in g.s["corps"].items():
        held = corp["shares"].get(key)
        if not held:
            continue  # asked after every action: only the corporations the player holds
        cdef = g.cdef(cid)
        percent = cdef.bundle_percent(held)
        if percent > cdef.holding_limit_percent and not within_holding_limit(cdef, percent, g.cell(cid)):
            return msg("You hold {percent}% of {corp}, over the limit of {limit}%", percent=percent, corp=cid,
                       limit=cdef.holding_limit_percent)
    return None


def sales(g: G, seat: int) -> list[Action]:
    """Every stock-round sale open to the player now (one bundle per corporation and percent)."""
    return list(_sales(g, seat))


def _sales(g: G, seat: int) -> Iterator[Action]:
    """The sales, one at a time: whether there is one at all is asked after every action (settle)."""
    if not may_sell_now(g):
        return
    key = g.key(seat)
    in_blocks = g.title.rules.get("must_sell_in_blocks", True)  # one sale per corporation a turn
    after_operating = g.title.rules.get("sell_after") == "corporation_operated"
    for cid, corp in g.s["corps"].items():
        held = corp["shares"].get(key, [])
        if not held or g.cell(cid) is None or (cid in g.s["round"]["sold_now"] and in_blocks):
            continue
        if after_operating and not corp.get("has_operated"):
            continue  # sale_problem refuses every bundle of it
        cdef, seen = g.cdef(cid), set()
        if len(held) == 1 and held[0] == cdef.president_cert \
                and not may_sell_president_cert(cdef, corp["shares"], key):
            continue  # every bundle holds his one certificate, the president's (the loop below would break at once)
        for certs, percent in sale_bundles(cdef, held):
            if percent in seen:
                continue
            if cdef.president_cert in certs and not may_sell_president_cert(cdef, corp["shares"], key):
                break  # sale_problem refuses this bundle and the rest, which hold the president's certificate too
            if sale_problem(g, seat, cid, certs, percent) is None:
                seen.add(percent)
                yield {"type": "sell_shares", "shares": certs, "percent": percent}


def must_sell(g: G, seat: int, count: int | None = None) -> Msg | None:
    """Why the player must sell before anything else (over a limit, and some sale is open to him), or None.
    `count` as over_limit takes it."""
    why = over_limit(g, seat, count)
    return why if why and sales(g, seat) else None


def sale_problem(g: G, seat: int, cid: str, certs: list[str], percent: int) -> Msg | None:
    """Why this sale to the pool is not allowed (the rules every sale shares), or None."""
    corp, cdef = g.corp(cid), g.cdef(cid)
    key = g.key(seat)
    if g.cell(cid) is None:
        return msg("{corp} has no share price yet.", corp=cid)
    if g.title.rules.get("sell_after") == "corporation_operated" and not corp.get("has_operated"):
        return msg("{corp}'s shares can be sold once it has operated.", corp=cid)
    held = corp["shares"].get(key, [])
    if not certs or any(c not in held for c in certs):
        return msg("You do not hold those {corp} shares.", corp=cid)
    if len(set(certs)) != len(certs) or not bundle_ok(cdef, certs, percent):
        return msg("You cannot sell {percent}% of {corp} that way.", percent=percent, corp=cid)
    if not fits_in_pool(cdef, corp["shares"], percent, g.title.rules.get("pool_limit_percent", 50)):
        return msg("The bank pool may hold at most {limit}% of {corp}.",
                   limit=g.title.rules.get("pool_limit_percent", 50), corp=cid)
    if cdef.president_cert in certs and not may_sell_president_cert(cdef, corp["shares"], key):
        return msg("No other player holds {percent}% of {corp} to take its presidency.",
                   percent=cdef.president_percent, corp=cid)
    return None


def bundle_ok(cdef, certs: list[str], percent: int) -> bool:
    """The whole bundle, or one holding the president's certificate sold short by whole shares (the seller keeps
    the difference as ordinary shares once the presidency passes)."""
    total = cdef.bundle_percent(certs)
    if percent == total:
        return True
    short = total - percent
    return (cdef.president_cert in certs and percent > 0 and short % cdef.cert_unit == 0
            and short < cdef.president_percent)


def stock_sale_problem(g: G, seat: int, cid: str, certs: list[str], percent: int) -> Msg | None:
    r = g.round
    if not may_sell_now(g):
        if r["turn"] == 1:
            return msg("Nobody sells shares in the first stock round.")
        return msg("You sold, then bought: you cannot sell again this turn.")
    if cid in r["sold_now"] and g.title.rules.get("must_sell_in_blocks", True):
        return msg("You already sold {corp} this turn; all of it goes in one sale.", corp=cid)
    return sale_problem(g, seat, cid, certs, percent)


def sell(g: G, seat: int, cid: str, certs: list[str], percent: int) -> None:
    """Sell to the pool at the current price; the price drops a row per share sold."""
    cell = g.cell(cid)
    was_president = g.corp(cid)["president"] == g.key(seat)
    g.transfer(cid, certs, g.key(seat), POOL, percent)
    unit = g.cdef(cid).cert_unit
    g.pay(BANK, g.key(seat), sale_proceeds(cell.price, percent, unit))
    g.move_price(cid, g.rules.price_after_sale(g, cid, cell, percent, was_president))
    g.event("[0] sells {percent}% of {corp} for {amount}; {corp} falls to {price}.", seat, percent=percent, corp=cid,
            amount=g.amount(sale_proceeds(cell.price, percent, unit)), price=g.amount(g.price(cid)))


#: buy_problem's refusal when it is not worded: never said to anyone (only asked whether there is one).
REFUSED = Msg("")


def buy_problem(g: G, seat: int, cid: str, cert: str, source: str,
                counts: tuple[int, int] | None = None, worded: bool = True) -> Msg | None:
    """Why the player may not buy this certificate now, or None. `counts`: his certificate count and limit, when
    the caller asks about many purchases at once (they are the same for all); `worded` False: any refusal is
    REFUSED, not worded (a list of purchases only asks whether each is open: most refusals word two amounts)."""
    r = g.s["round"]
    corp, cdef = g.corp(cid), g.cdef(cid)
    key = g.key(seat)
    if "buy" in r["did"]:
        return msg("You have already bought this turn.") if worded else REFUSED
    if g.cell(cid) is None:
        return msg("{corp} has not been started yet; start it with a par price.", corp=cid) if worded else REFUSED
    if cid in r["sold"].get(key, []):
        return msg("You sold {corp} this round and cannot buy it back until the next.", corp=cid) if worded else REFUSED
    if cert not in corp["shares"].get(source, []) or (source == IPO and g.rules.reserved_cert(g, cid, cert)):
        if source == IPO:
            return msg("That {corp} share is not in the IPO.", corp=cid) if worded else REFUSED
        return msg("That {corp} share is not in the bank pool.", corp=cid) if worded else REFUSED
    price = share_price(g, cid, source) * cdef.cert_percent(cert) // cdef.cert_unit
    if price > g.s["cash"][seat]:
        return msg("You have {cash}; the share costs {price}.", cash=g.amount(g.s["cash"][seat]),
                   price=g.amount(price)) if worded else REFUSED
    count, limit = counts or (g.cert_count(seat), g.cert_limit)
    if not can_gain(cdef, corp["shares"], key, cdef.cert_percent(cert), g.cell(cid), count, limit):
        if g.percent(cid, key) + cdef.cert_percent(cert) > cdef.holding_limit_percent:
            return msg("You may hold at most {limit}% of {corp}.", limit=cdef.holding_limit_percent,
                       corp=cid) if worded else REFUSED
        return msg("You are at the certificate limit of {limit}.", limit=g.cert_limit) if worded else REFUSED
    return None


def share_price(g: G, cid: str, source: str) -> int:
    return g.rules.ipo_price(g, cid) if source == IPO else g.price(cid)


def buy(g: G, seat: int, cid: str, cert: str, source: str) -> None:
    cdef = g.cdef(cid)
    price = share_price(g, cid, source) * cdef.cert_percent(cert) // cdef.cert_unit
    g.pay(g.key(seat), g.rules.ipo_payee(g, cid) if source == IPO else BANK, price)
    g.transfer(cid, [cert], source, g.key(seat))
    if source == IPO:
        g.event("[0] buys {percent}% of {corp} from the IPO for {price}.", seat, percent=cdef.cert_percent(cert),
                corp=cid, price=g.amount(price))
    else:
        g.event("[0] buys {percent}% of {corp} from the pool for {price}.", seat, percent=cdef.cert_percent(cert),
                corp=cid, price=g.amount(price))
    check_float(g, cid)


def check_float(g: G, cid: str) -> None:
    corp = g.corp(cid)
    if corp["floated"] or corp["par"] is None or not is_floated(g.cdef(cid), corp["shares"]) \
            or not g.rules.floats_on_sale(g, cid):
        return
    corp["floated"] = True
    capital = g.rules.float_capital(g, cid)
    if capital:
        g.pay(BANK, cid, capital)
    if capital:
        g.event("{corp} floats and receives {capital}.", corp=cid, capital=g.amount(capital))
    else:
        g.event("{corp} floats.", corp=cid)


def par_problem(g: G, seat: int, cid: str, cell_id: str) -> Msg | None:
    r = g.round
    if cid not in g.s["corps"]:
        return msg("There is no corporation {corp}.", corp=cid)
    if "buy" in r["did"]:
        return msg("You have already bought this turn.")
    if g.cell(cid) is not None or g.cdef(cid).president_cert not in g.corp(cid)["shares"].get(IPO, []):
        return msg("{corp} has already been started.", corp=cid)
    if not g.rules.may_par(g, cid):
        return msg("{corp} cannot be started now.", corp=cid)
    try:
        cell = g.title.market.by_id(cell_id)
    except ValueError:
        return msg("There is no share price {cell} on this market.", cell=repr(cell_id))
    if cell not in g.rules.par_cells(g, cid):
        return msg("{price} is not a par price for {corp}.", price=g.amount(cell.price), corp=cid)
    cost = cell.price * g.cdef(cid).president_percent // SHARE_PERCENT
    if cost > g.s["cash"][seat]:
        return msg("You have {cash}; starting {corp} at {price} costs {cost}.", cash=g.amount(g.s["cash"][seat]),
                   corp=cid, price=g.amount(cell.price), cost=g.amount(cost))
    if g.cert_count(seat) >= g.cert_limit:
        return msg("You are at the certificate limit of {limit}.", limit=g.cert_limit)
    return None


def par(g: G, seat: int, cid: str, cell_id: str) -> None:
    cell = g.title.market.by_id(cell_id)
    cdef = g.cdef(cid)
    cost = cell.price * cdef.president_percent // SHARE_PERCENT
    g.pay(g.key(seat), g.rules.ipo_payee(g, cid), cost)
    g.s["market"] = g.title.market.with_par(g.s["market"], cid, cell)
    g.corp(cid)["par"] = cell.price
    g.transfer(cid, [cdef.president_cert], IPO, g.key(seat))
    g.corp(cid)["president"] = g.key(seat)
    g.event("[0] starts {corp} ({name}) at {price}.", seat, corp=cid, name=cdef.full_name, price=g.amount(cell.price))
    check_float(g, cid)


# ---- actions ------------------------------------------------------------------------------------------

def apply(g: G, seat: int, action: Action) -> None:
    r = g.s["round"]
    if seat != acting(g):
        raise RuleError("It is not your turn.")
    kind = action["type"]
    key = g.key(seat)
    count = None  # his certificate count: asked by must_sell, then by a purchase's check (nothing moves between)
    if kind in ("pass", "par", "buy_shares"):
        count = g.cert_count(seat)
        if why := must_sell(g, seat, count):
            raise RuleError("{why}: sell shares first.", why=why)
    if kind == "pass":
        if r["did"]:
            g.event("[0] is done.", seat)
        else:
            g.event("[0] passes.", seat)
        end_turn(g, passed=not r["did"])
        return
    if kind == "par":
        cid, cell_id = action.get("corporation"), str(action.get("share_price", ""))
        problem = par_problem(g, seat, cid, cell_id)
        if problem:
            raise RuleError(problem)
        par(g, seat, cid, cell_id)
        _did(g, seat, "buy")
    elif kind == "buy_shares":
        cid, cert, source = _one_share(g, action)
        problem = buy_problem(g, seat, cid, cert, source, (count, g.cert_limit))
        if problem:
            raise RuleError(problem)
        buy(g, seat, cid, cert, source)
        _did(g, seat, "buy")
    elif kind == "sell_shares":
        cid, certs, percent = read_sale(g, action)
        problem = stock_sale_problem(g, seat, cid, certs, percent)
        if problem:
            raise RuleError(problem)
        sell(g, seat, cid, certs, percent)
        r["sold_now"].append(cid)
        r["sold"].setdefault(key, [])
        if cid not in r["sold"][key]:
            r["sold"][key].append(cid)
        _did(g, seat, "sell")
    else:
        raise RuleError("In a stock round you buy, sell, start a corporation or pass.")


def _did(g: G, seat: int, what: str) -> None:
    r = g.s["round"]
    r["did"].append(what)
    r["last_to_act"] = seat
    if seat in r["passed"]:
        r["passed"].remove(seat)


def _one_share(g: G, action: Action) -> tuple[str, str, str]:
    shares = action.get("shares")
    if not isinstance(shares, list) or len(shares) != 1 or not isinstance(shares[0], str):
        raise RuleError("Buy one share at a time.")
    cert = shares[0]
    cid = cert.rpartition("_")[0]
    if cid not in g.s["corps"]:
        raise RuleError("There is no share {cert}.", cert=repr(cert[:20]))
    check_percent(g, cid, [cert], action.get("percent"))
    for source in (IPO, POOL):
        if cert in g.corp(cid)["shares"].get(source, []):
            return cid, cert, source
    raise RuleError("Share {cert} is not for sale.", cert=cert)


def check_percent(g: G, cid: str, certs: list[str], percent: int | None) -> None:
    """A purchase's `percent`, when sent, is what its certificates make up (18xx.games records it)."""
    total = bundle_total(g, cid, certs)
    if percent is not None and percent != total:
        if len(certs) == 1:
            raise RuleError("{certs} is {total}% of {corp}, not {percent}%.", certs=certs[0], total=total, corp=cid,
                            percent=percent)
        raise RuleError("{certs} are {total}% of {corp}, not {percent}%.", certs=", ".join(certs), total=total,
                        corp=cid, percent=percent)


def bundle_total(g: G, cid: str, certs: list[str]) -> int:
    """What certificates of `cid` make up, in percent; a name that is not one of its certificates is refused."""
    cdef = g.cdef(cid)
    bad = next((c for c in certs if c not in cdef.share_ids), None)
    if bad is not None:
        raise RuleError("{cert} is not a certificate of {corp}.", cert=repr(bad[:20]), corp=cid)
    return cdef.bundle_percent(certs)


def read_sale(g: G, action: Action) -> tuple[str, list[str], int]:
    shares = action.get("shares")
    if not isinstance(shares, list) or not shares or not all(isinstance(c, str) for c in shares):
        raise RuleError("Name the shares to sell.")
    corps = {c.rpartition("_")[0] for c in shares}
    if len(corps) != 1 or next(iter(corps)) not in g.s["corps"]:
        raise RuleError("Sell shares of one corporation at a time.")
    cid = corps.pop()
    total = bundle_total(g, cid, shares)
    percent = action.get("percent", total)
    if not isinstance(percent, int) or isinstance(percent, bool):
        raise RuleError("A sale's percent is a whole number.")
    return cid, list(shares), percent


def end_turn(g: G, passed: bool) -> None:
    r = g.s["round"]
    seat = acting(g)
    if passed and seat not in r["passed"]:
        r["passed"].append(seat)
    r["did"], r["sold_now"] = [], []
    r["pos"] = (r["pos"] + 1) % g.n


def has_move(g: G, seat: int, counts: tuple[int, int] | None = None, pars: bool = True) -> bool:
    """Whether turn_moves holds more than pass, without listing them: the first purchase, par or sale found.
    `counts` and `pars` as _purchases takes them."""
    return next(_purchases(g, seat, counts, pars), None) is not None or next(_sales(g, seat), None) is not None


def settle(g: G) -> None:
    """End turns that have nothing left to do; the round is over when everyone has passed."""
    for _ in range(4 * g.n + 4):
        if finished(g):
            return
        if has_move(g, acting(g)):
            return
        if not g.s["round"]["did"]:  # the table is told, not left to wonder why a player was skipped
            g.event("[0] can buy and sell nothing now, so passes.", acting(g))
        end_turn(g, passed=not g.s["round"]["did"])


def finish(g: G) -> None:
    """End of the round: sold-out corporations rise (in operating order)."""
    floated = [cid for cid in g.floated()]
    for cid in g.operating_order(floated):
        if is_sold_out(g.cdef(cid), g.corp(cid)["shares"]) and g.rules.rises_when_sold_out(g, cid):
            before = g.price(cid)
            g.move_price(cid, g.title.market.after_sold_out(g.cell(cid)))
            if g.price(cid) != before:
                g.event("{corp} is sold out and rises to {price}.", corp=cid, price=g.amount(g.price(cid)))


def priority_seat(g: G) -> int:
    """Priority goes to the player after the last one who bought, sold or started a corporation."""
    last = g.round["last_to_act"]
    if last is None:
        return g.order[0]
    return g.order[(g.order.index(last) + 1) % g.n]


# ---- moves for a live player --------------------------------------------------------------------------

def turn_moves(g: G, seat: int) -> list[Action]:
    """Every purchase, par and sale open to `seat` now, then pass; only sales while he must sell."""
    sells = sales(g, seat)
    if sells and over_limit(g, seat):
        return sells
    return [*_purchases(g, seat), *sells, {"type": "pass"}]


def _purchases(g: G, seat: int, counts: tuple[int, int] | None = None, pars: bool = True) -> Iterator[Action]:
    """Every par and share purchase open to `seat` now, one at a time (a player over a limit is offered only
    sales by turn_moves, but may still have purchases here: has_move asks whether there is any move at all).
    `counts`: his certificate count and limit, when the caller has counted them; `pars` False: the share purchases
    alone (1867's has_move looks for a par its own way)."""
    if "buy" in g.s["round"]["did"]:
        return
    # his certificate count and limit: the same for every purchase, counted at the first unless given
    cash = g.s["cash"][seat]
    priced = g.cells()
    for cid in g.s["corps"]:
        if cid not in priced:
            if not pars:
                continue
            cells = g.rules.par_cells(g, cid) if g.rules.may_par(g, cid) else ()
            if not cells:
                continue
            # par_problem's checks are the corporation's and the player's but for the price: none of the prices
            # passes when the cheapest fails, and another passes when the cheapest does and he can pay it (asked
            # once, not for each price); a player who cannot pay the cheapest or is at the certificate limit is
            # refused by par_problem too, so those two are looked at first (most turns end there)
            percent, cheapest = g.cdef(cid).president_percent, min(cells, key=lambda c: c.price)
            if cheapest.price * percent // SHARE_PERCENT > cash:
                continue
            if counts is None:
                counts = (g.cert_count(seat), g.cert_limit)
            if counts[0] >= counts[1] or par_problem(g, seat, cid, cheapest.id) is not None:
                continue
            for cell in cells:
                if cell.price * percent // SHARE_PERCENT <= cash:
                    yield {"type": "par", "corporation": cid, "share_price": cell.id}
            continue
        shares = g.s["corps"][cid]["shares"]  # most have nothing in the IPO or the pool: not asked for a certificate
        for source, cert in ((IPO, shares.get(IPO) and g.ipo_cert(cid)), (POOL, shares.get(POOL) and g.pool_cert(cid))):
            if cert and counts is None:
                counts = (g.cert_count(seat), g.cert_limit)
            if cert and buy_problem(g, seat, cid, cert, source, counts, worded=False) is None:
                yield {"type": "buy_shares", "shares": [cert], "percent": g.cdef(cid).cert_percent(cert)}


def legal(g: G, seat: int) -> list[Action]:
    return turn_moves(g, seat) if seat == acting(g) else []


def auto(g: G, seat: int) -> Action | None:
    """Pass; a player who must sell sells the fewest shares of a corporation he does not preside (else of any)."""
    if seat != acting(g):
        return None
    if must_sell(g, seat):
        sells = sales(g, seat)
        key = g.key(seat)
        return min(sells, key=lambda m: (g.corp(m["shares"][0].rpartition("_")[0])["president"] == key,
                                         m["percent"], sells.index(m)))
    return {"type": "pass"}


def describe(g: G) -> dict[str, Any]:
    r = g.round
    seat = acting(g)
    return {"kind": "stock", "turn": r["turn"], "acting": seat, "passed": list(r["passed"]),
            "must_sell": to_json(must_sell(g, seat))}
