"""1890's regular stock round: the shared one (engines/e18xx/stock.py), and

- a corporation whose price falls into the closing cells closes at once (rules §"Company closure");
- from game turn 2 a player may buy a late private from the bank at its face value as his purchase of the turn
  (rules §"Late private company"; not Kobe Electric's, which only its conversion makes; Kobe Rapid Transit only
  while Kobe has room for its token);
- a player may buy a private company from another player at any agreed price as his purchase of the turn
  (rules §"Buying shares", §"Purchase of private companies by players"): an offer the owner accepts or declines
  (Rules1890.interrupt), never a late private (they are never sold) nor a minor.

Round state besides the shared: offer (None or {buyer_seat, seller_seat, company, price}).
"""
from __future__ import annotations

from typing import Any

from engines.base import RuleError
from engines.e18xx import stock as core
from engines.e18xx.g1890 import hidden
from engines.e18xx.state import BANK, G

acting, finished, auto, describe, priority_seat = (core.acting, core.finished, core.auto, core.describe,
                                                   core.priority_seat)


def start(g: G, turn: int) -> None:
    core.start(g, turn)
    g.round["offer"] = None


def late_for_sale(g: G, seat: int) -> list[str]:
    """The late privates `seat` may buy from the bank now."""
    from engines.e18xx.g1890 import abilities
    from engines.e18xx.g1890.rules import KOBE_ELEC_LATE, late_privates
    r = g.round
    if r["turn"] < 2 or "buy" in r["did"] or g.cert_count(seat) >= g.cert_limit:
        return []
    cash = g.s["cash"][seat]
    return [pid for pid in late_privates(g) if pid != KOBE_ELEC_LATE and g.s["privates"][pid]["owner"] is None
            and not g.s["privates"][pid]["closed"] and g.pdef(pid).value <= cash
            and (pid != abilities.KOBE_RAPID or abilities.kobe_rapid_room(g))]


def tradeable(g: G, seat: int) -> list[str]:
    """Other players' privates `seat` may offer to buy (not late ones)."""
    from engines.e18xx.g1890.rules import late_privates
    r = g.round
    if "buy" in r["did"] or g.cert_count(seat) >= g.cert_limit or g.s["cash"][seat] < 1:
        return []
    late = late_privates(g)
    offered = r.get("offered", {}).get(g.key(seat), [])  # one offer a round for each private
    return [pid for pid, p in g.s["privates"].items() if not p["closed"] and p["owner"] is not None
            and p["owner"].isdigit() and p["owner"] != g.key(seat) and pid not in late and pid not in offered]


def private_moves(g: G, seat: int) -> list[dict[str, Any]]:
    moves = [{"type": "buy_company", "company": pid, "price": g.pdef(pid).value} for pid in late_for_sale(g, seat)]
    cash = g.s["cash"][seat]
    for pid in tradeable(g, seat):
        face = g.s["privates"][pid]["value"]
        for price in sorted({max(1, face // 2), max(1, face), max(1, 2 * face)}):
            if price <= cash:
                moves.append({"type": "buy_company", "company": pid, "price": price})
    return moves


def legal(g: G, seat: int) -> list[dict[str, Any]]:
    moves = core.legal(g, seat)
    if not moves or core.must_sell(g, seat):
        return moves
    return [*moves[:-1], *private_moves(g, seat), moves[-1]]


def has_move(g: G, seat: int) -> bool:
    return core.has_move(g, seat) or bool(late_for_sale(g, seat)) or bool(tradeable(g, seat))


def settle(g: G) -> None:
    """End turns that have nothing left to do (a private to buy counts as something)."""
    for _ in range(4 * g.n + 4):
        if finished(g) or g.round.get("offer"):
            return
        if has_move(g, acting(g)) or hidden.might_move(g, acting(g), has_move):
            return
        if not g.round["did"]:
            g.event("[0] can buy and sell nothing now, so passes.", acting(g))
        core.end_turn(g, passed=not g.round["did"])


def apply(g: G, seat: int, action) -> None:
    from engines.e18xx.g1890.rules import close_fallen
    if action["type"] == "buy_company":
        if seat != acting(g):
            raise RuleError("It is not your turn.")
        if why := core.must_sell(g, seat):
            raise RuleError("{why}: sell shares first.", why=why)
        _buy_private(g, seat, action)
        return
    core.apply(g, seat, action)
    close_fallen(g)


def _buy_private(g: G, seat: int, action) -> None:
    from engines.e18xx.g1890 import abilities
    pid, price = action.get("company"), action.get("price")
    if not isinstance(price, int) or isinstance(price, bool):
        raise RuleError("A price is a whole amount.")
    if pid in late_for_sale(g, seat):
        if price != g.pdef(pid).value:
            raise RuleError("{private} costs {price}.", private=g.private_name(pid), price=g.amount(g.pdef(pid).value))
        g.pay(g.key(seat), BANK, price)
        g.s["privates"][pid]["owner"] = g.key(seat)
        g.event("[0] buys {private} for {price}.", seat, private=g.private_name(pid), price=g.amount(price))
        if pid == abilities.KOBE_RAPID:
            abilities.kobe_rapid_bought(g, seat)
        core._did(g, seat, "buy")
        return
    if pid not in tradeable(g, seat):
        if g.round["turn"] < 2 and pid in g.s["privates"] and g.s["privates"][pid]["owner"] is None:
            raise RuleError("Late private companies are sold from game turn 2.")
        raise RuleError("That private company is not for sale to you now.")
    if not 1 <= price <= g.s["cash"][seat]:
        raise RuleError("You can offer from {low} to {high}.", low=g.amount(1), high=g.amount(g.s["cash"][seat]))
    seller = int(g.s["privates"][pid]["owner"])
    g.round["offer"] = {"buyer_seat": seat, "seller_seat": seller, "company": pid, "price": price}
    g.round.setdefault("offered", {}).setdefault(g.key(seat), []).append(pid)
    g.event("[0] offers {price} for {private}; [1] may accept or decline.", seat, seller, price=g.amount(price),
            private=g.private_name(pid))


def answer_offer(g: G, seat: int, action) -> None:
    offer = g.round["offer"]
    g.round["offer"] = None
    buyer, pid, price = offer["buyer_seat"], offer["company"], offer["price"]
    if action.get("type") != "accept_offer":
        g.event("[0] declines the offer for {private}.", seat, private=g.private_name(pid))
        return
    g.pay(g.key(buyer), g.key(seat), price)
    g.s["privates"][pid]["owner"] = g.key(buyer)
    g.event("[0] buys {private} from [1] for {price}.", buyer, seat, private=g.private_name(pid),
            price=g.amount(price))
    core._did(g, buyer, "buy")


def finish(g: G) -> None:
    """Sold-out public companies rise one row (rules §"Price adjustment for sold out companies"), in operating
    order; minors have no price."""
    from engines.e18xx.companies import is_sold_out
    publics = [cid for cid in g.floated() if g.cell(cid) is not None]
    for cid in g.operating_order(publics):
        if is_sold_out(g.cdef(cid), g.corp(cid)["shares"]) and g.rules.rises_when_sold_out(g, cid):
            before = g.price(cid)
            g.move_price(cid, g.title.market.after_sold_out(g.cell(cid)))
            if g.price(cid) != before:
                g.event("{corp} is sold out and rises to {price}.", corp=cid, price=g.amount(g.price(cid)))
