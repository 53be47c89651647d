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


def start(g: G, turn: int) -> None:
    g.s["round"] = {"kind": "stock", "turn": turn, "pos": 0, "passed": [], "did": [], "sold_now": [], "sold": {},
                    "last_to_act": None}
    g.event(f"Stock round {turn} begins; [0] has priority.", g.order[0])


def acting(g: G) -> int:
    return g.order[g.round["pos"] % g.n]


def finished(g: G) -> bool:
    return len(g.round["passed"]) >= g.n


# ---- what a player may do -----------------------------------------------------------------------------

def may_sell_now(g: G) -> bool:
    r = g.round
    if r["turn"] == 1 and g.title.rules.get("no_selling_in_first_stock_round"):
        return False
    did = r["did"]
    if "buy" in did and g.title.rules.get("sell_buy_order") == "sell_buy":
        return False  # 1867: sales come before the purchase
    return not ("buy" in did and "sell" in did[: did.index("buy")])  # no sell-buy-sell


def over_limit(g: G, seat: int) -> str | None:
    """Why the player holds too much (over the certificate limit, or over 60% of a corporation outside the orange
    area), or None."""
    count, limit = g.cert_count(seat), g.cert_limit
    if count > limit:
        return f"You hold {count} certificates, over the limit of {limit}"
    key = g.key(seat)
    for cid, corp in g.s["corps"].items():
        held = corp["shares"].get(key)
        if not held:
            continue  # asked after every action: only the corporations the player holds
        cdef = g.cdef(cid)
        percent = cdef.bundle_percent(held)
        if percent > cdef.holding_limit_percent and not within_holding_limit(cdef, percent, g.cell(cid)):
            return f"You hold {percent}% of {cid}, over the limit of {cdef.holding_limit_percent}%"
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
    for cid, corp in g.s["corps"].items():
        held = corp["shares"].get(key, [])
        if not held or g.cell(cid) is None or (cid in g.round["sold_now"] and in_blocks):
            continue
        seen = set()
        for certs, percent in sale_bundles(g.cdef(cid), held):
            if percent in seen:
                continue
            if sale_problem(g, seat, cid, certs, percent) is None:
                seen.add(percent)
                yield {"type": "sell_shares", "shares": certs, "percent": percent}


def must_sell(g: G, seat: int) -> str | None:
    """Why the player must sell before anything else (over a limit, and some sale is open to him), or None."""
    why = over_limit(g, seat)
    return why if why and sales(g, seat) else None


def sale_problem(g: G, seat: int, cid: str, certs: list[str], percent: int) -> str | None:
    """Why this sale to the pool is not allowed (the rules every sale shares), or None."""
    corp, cdef = g.corp(cid), g.cdef(cid)
    key = g.key(seat)
    if g.cell(cid) is None:
        return f"{cid} has no share price yet."
    if g.title.rules.get("sell_after") == "corporation_operated" and not corp.get("has_operated"):
        return f"{cid}'s shares can be sold once it has operated."
    held = corp["shares"].get(key, [])
    if not certs or any(c not in held for c in certs):
        return f"You do not hold those {cid} shares."
    if len(set(certs)) != len(certs) or not bundle_ok(cdef, certs, percent):
        return f"You cannot sell {percent}% of {cid} that way."
    if not fits_in_pool(cdef, corp["shares"], percent, g.title.rules.get("pool_limit_percent", 50)):
        return f"The bank pool may hold at most {g.title.rules.get('pool_limit_percent', 50)}% of {cid}."
    if cdef.president_cert in certs and not may_sell_president_cert(cdef, corp["shares"], key):
        return f"No other player holds {cdef.president_percent}% of {cid} to take its presidency."
    return None


def bundle_ok(cdef, certs: list[str], percent: int) -> bool:
    """The whole bundle, or one holding the president's certificate sold short by whole shares (the seller keeps
    the difference as ordinary shares once the presidency passes)."""
    total = cdef.bundle_percent(certs)
    if percent == total:
        return True
    short = total - percent
    return (cdef.president_cert in certs and percent > 0 and short % SHARE_PERCENT == 0
            and short < cdef.president_percent)


def stock_sale_problem(g: G, seat: int, cid: str, certs: list[str], percent: int) -> str | None:
    r = g.round
    if not may_sell_now(g):
        if r["turn"] == 1:
            return "Nobody sells shares in the first stock round."
        return "You sold, then bought: you cannot sell again this turn."
    if cid in r["sold_now"] and g.title.rules.get("must_sell_in_blocks", True):
        return f"You already sold {cid} this turn; all of it goes in one sale."
    return sale_problem(g, seat, cid, certs, percent)


def sell(g: G, seat: int, cid: str, certs: list[str], percent: int) -> None:
    """Sell to the pool at the current price; the price drops a row per share sold."""
    cell = g.cell(cid)
    was_president = g.corp(cid)["president"] == g.key(seat)
    g.transfer(cid, certs, g.key(seat), POOL, percent)
    g.pay(BANK, g.key(seat), sale_proceeds(cell.price, percent))
    g.move_price(cid, g.rules.price_after_sale(g, cid, cell, percent, was_president))
    g.event(f"[0] sells {percent}% of {cid} for {g.money(sale_proceeds(cell.price, percent))}; "
            f"{cid} falls to {g.money(g.price(cid))}.", seat)


def buy_problem(g: G, seat: int, cid: str, cert: str, source: str) -> str | None:
    r = g.round
    corp, cdef = g.corp(cid), g.cdef(cid)
    key = g.key(seat)
    if "buy" in r["did"]:
        return "You have already bought this turn."
    if g.cell(cid) is None:
        return f"{cid} has not been started yet; start it with a par price."
    if cid in r["sold"].get(key, []):
        return f"You sold {cid} this round and cannot buy it back until the next."
    if cert not in corp["shares"].get(source, []):
        return f"That {cid} share is not in the {'IPO' if source == IPO else 'bank pool'}."
    price = share_price(g, cid, source) * cdef.cert_percent(cert) // SHARE_PERCENT
    if price > g.s["cash"][seat]:
        return f"You have {g.money(g.s['cash'][seat])}; the share costs {g.money(price)}."
    if not can_gain(cdef, corp["shares"], key, cdef.cert_percent(cert), g.cell(cid), g.cert_count(seat),
                    g.cert_limit):
        if g.percent(cid, key) + cdef.cert_percent(cert) > cdef.holding_limit_percent:
            return f"You may hold at most {cdef.holding_limit_percent}% of {cid}."
        return f"You are at the certificate limit of {g.cert_limit}."
    return None


def share_price(g: G, cid: str, source: str) -> int:
    return g.rules.ipo_price(g, cid) if source == IPO else g.price(cid)


def buy(g: G, seat: int, cid: str, cert: str, source: str) -> None:
    cdef = g.cdef(cid)
    price = share_price(g, cid, source) * cdef.cert_percent(cert) // SHARE_PERCENT
    g.pay(g.key(seat), g.rules.ipo_payee(g, cid) if source == IPO else BANK, price)
    g.transfer(cid, [cert], source, g.key(seat))
    g.event(f"[0] buys {cdef.cert_percent(cert)}% of {cid} from the {'IPO' if source == IPO else 'pool'} "
            f"for {g.money(price)}.", seat)
    check_float(g, cid)


def check_float(g: G, cid: str) -> None:
    corp = g.corp(cid)
    if corp["floated"] or corp["par"] is None or not is_floated(g.cdef(cid), corp["shares"]):
        return
    corp["floated"] = True
    capital = g.rules.float_capital(g, cid)
    if capital:
        g.pay(BANK, cid, capital)
    g.event(f"{cid} floats" + (f" and receives {g.money(capital)}." if capital else "."))


def par_problem(g: G, seat: int, cid: str, cell_id: str) -> str | None:
    r = g.round
    if cid not in g.s["corps"]:
        return f"There is no corporation {cid}."
    if "buy" in r["did"]:
        return "You have already bought this turn."
    if g.cell(cid) is not None or g.cdef(cid).president_cert not in g.corp(cid)["shares"].get(IPO, []):
        return f"{cid} has already been started."
    if not g.rules.may_par(g, cid):
        return f"{cid} cannot be started now."
    try:
        cell = g.title.market.by_id(cell_id)
    except ValueError as e:
        return str(e)
    if cell not in g.rules.par_cells(g, cid):
        return f"{g.money(cell.price)} is not a par price for {cid}."
    cost = cell.price * g.cdef(cid).president_percent // SHARE_PERCENT
    if cost > g.s["cash"][seat]:
        return f"You have {g.money(g.s['cash'][seat])}; starting {cid} at {g.money(cell.price)} costs {g.money(cost)}."
    if g.cert_count(seat) >= g.cert_limit:
        return f"You are at the certificate limit of {g.cert_limit}."
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
    g.event(f"[0] starts {cid} ({cdef.name}) at {g.money(cell.price)}.", seat)
    check_float(g, cid)


# ---- actions ------------------------------------------------------------------------------------------

def apply(g: G, seat: int, action: Action) -> None:
    r = g.round
    if seat != acting(g):
        raise RuleError("It is not your turn.")
    kind = action["type"]
    key = g.key(seat)
    if kind in ("pass", "par", "buy_shares") and (why := must_sell(g, seat)):
        raise RuleError(f"{why}: sell shares first.")
    if kind == "pass":
        g.event("[0] passes." if not r["did"] else "[0] is done.", seat)
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
        problem = buy_problem(g, seat, cid, cert, source)
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
    r = g.round
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
        raise RuleError(f"There is no share {cert[:20]!r}.")
    check_percent(g, cid, [cert], action.get("percent"))
    for source in (IPO, POOL):
        if cert in g.corp(cid)["shares"].get(source, []):
            return cid, cert, source
    raise RuleError(f"Share {cert} is not for sale.")


def check_percent(g: G, cid: str, certs: list[str], percent: int | None) -> None:
    """A purchase's `percent`, when sent, is what its certificates make up (18xx.games records it)."""
    total = bundle_total(g, cid, certs)
    if percent is not None and percent != total:
        raise RuleError(f"{', '.join(certs)} {'is' if len(certs) == 1 else 'are'} {total}% of {cid}, "
                        f"not {percent}%.")


def bundle_total(g: G, cid: str, certs: list[str]) -> int:
    """What certificates of `cid` make up, in percent; a name that is not one of its certificates is refused."""
    cdef = g.cdef(cid)
    bad = next((c for c in certs if c not in cdef.share_ids), None)
    if bad is not None:
        raise RuleError(f"{bad[:20]!r} is not a certificate of {cid}.")
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
    r = g.round
    seat = acting(g)
    if passed and seat not in r["passed"]:
        r["passed"].append(seat)
    r["did"], r["sold_now"] = [], []
    r["pos"] = (r["pos"] + 1) % g.n


def has_move(g: G, seat: int) -> bool:
    """Whether turn_moves holds more than pass, without listing them: the first purchase, par or sale found."""
    return next(_purchases(g, seat), None) is not None or next(_sales(g, seat), None) is not None


def settle(g: G) -> None:
    """End turns that have nothing left to do; the round is over when everyone has passed."""
    for _ in range(4 * g.n + 4):
        if finished(g):
            return
        if has_move(g, acting(g)):
            return
        if not g.round["did"]:  # the table is told, not left to wonder why a player was skipped
            g.event("[0] can buy and sell nothing now, so passes.", acting(g))
        end_turn(g, passed=not g.round["did"])


def finish(g: G) -> None:
    """End of the round: sold-out corporations rise (in operating order)."""
    floated = [cid for cid in g.floated()]
    for cid in g.operating_order(floated):
        if is_sold_out(g.cdef(cid), g.corp(cid)["shares"]) and g.rules.rises_when_sold_out(g, cid):
            before = g.price(cid)
            g.move_price(cid, g.title.market.after_sold_out(g.cell(cid)))
            if g.price(cid) != before:
                g.event(f"{cid} is sold out and rises to {g.money(g.price(cid))}.")


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


def _purchases(g: G, seat: int) -> Iterator[Action]:
    """Every par and share purchase open to `seat` now, one at a time (a player over a limit is offered only
    sales by turn_moves, but may still have purchases here: has_move asks whether there is any move at all)."""
    if "buy" in g.round["did"]:
        return
    for cid in g.s["corps"]:
        if g.cell(cid) is None:
            cells = g.rules.par_cells(g, cid) if g.rules.may_par(g, cid) else ()
            # par_problem's checks are the corporation's and the player's but for the price: none of the prices
            # passes when the cheapest fails (asked once, not for each price)
            if cells and par_problem(g, seat, cid, min(cells, key=lambda c: c.price).id) is None:
                for cell in cells:
                    if par_problem(g, seat, cid, cell.id) is None:
                        yield {"type": "par", "corporation": cid, "share_price": cell.id}
            continue
        for source, cert in ((IPO, g.ipo_cert(cid)), (POOL, g.pool_cert(cid))):
            if cert and buy_problem(g, seat, cid, cert, source) is None:
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
            "must_sell": must_sell(g, seat)}
