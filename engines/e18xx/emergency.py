"""Emergency money and bankruptcy (import notes §11.6-11.7).

A corporation that must buy a train and cannot pay the depot's cheapest from its treasury gets its president's
money. He may sell shares for it, but no sale may cost him a presidency, none may raise more than needed (the
same sale less one share would already cover the shortfall), and each corporation's shares go in one sale (as
18xx.games sells 1889's: a corporation sold once for this train is not sold again). When even all he could sell
cannot pay, he goes bankrupt: he sells what the pool takes, corporation by corporation in operating order (but
never a presidency away, as 18xx.games sells 1889's), his cash goes to the bank, and the game ends at once.
"""
from __future__ import annotations

from engines.base import Action, RuleError
from engines.e18xx import stock, trains
from engines.e18xx.companies import sale_bundles, sale_proceeds
from engines.e18xx.state import BANK, G
from engines.text import Msg, msg


def in_emergency(g: G, seat: int, cid: str) -> None:
    if g.round["step"] != "trains" or not trains.emergency(g, cid):
        raise RuleError("Shares are sold in an operating round only to pay for {corp}'s train.", corp=cid)


def emergency_sale_problem(g: G, seat: int, cid: str, corp_id: str, certs: list[str], percent: int) -> Msg | None:
    if corp_id in g.round.get("emergency_sold", ()):
        return msg("You already sold {corp} for this train: the shares of a corporation go in one sale.", corp=corp_id)
    problem = stock.sale_problem(g, seat, corp_id, certs, percent)
    if problem:
        return problem
    key = g.key(seat)
    if g.corp(corp_id)["president"] == key:
        if g.cdef(corp_id).president_cert in certs:
            return msg("Selling that would cost you the presidency of {corp}.", corp=corp_id)
        left = g.percent(corp_id, key) - percent
        others = [pct for holder, pct in player_percents(g, corp_id).items() if holder != key]
        if others and max(others) > left:
            return msg("Selling that would cost you the presidency of {corp}.", corp=corp_id)
    need = trains.shortfall(g, cid)
    if need <= 0:
        return msg("You and {corp} can already pay for the train.", corp=cid)
    price = g.price(corp_id)
    unit = g.cdef(corp_id).cert_unit
    if sale_proceeds(price, percent - unit, unit) >= need:
        return msg("Sell no more than you need: {need}.", need=g.amount(need))
    return None


def player_percents(g: G, cid: str) -> dict[str, int]:
    return {h: g.percent(cid, h) for h in g.corp(cid)["shares"] if h.isdigit()}


def emergency_sale(g: G, seat: int, cid: str, action: Action) -> None:
    in_emergency(g, seat, cid)
    corp_id, certs, percent = stock.read_sale(g, action)
    problem = emergency_sale_problem(g, seat, cid, corp_id, certs, percent)
    if problem:
        raise RuleError(problem)
    stock.sell(g, seat, corp_id, certs, percent)
    g.round.setdefault("emergency_sold", []).append(corp_id)
    resort(g)


def resort(g: G) -> None:
    """After a price fell, corporations still to operate this round are put back in price order."""
    r = g.round
    done, rest = r["order"][: r["index"] + 1], r["order"][r["index"] + 1:]
    unpriced = [c for c in rest if g.cell(c) is None]  # 1890's minors: they keep their places, first
    r["order"] = done + unpriced + g.operating_order([c for c in rest if g.cell(c) is not None])


def sellable(g: G, seat: int, cid: str) -> list[Action]:
    """The emergency sales open to the president of `cid` now."""
    moves = []
    key = g.key(seat)
    for corp_id, corp in g.s["corps"].items():
        held = corp["shares"].get(key, [])
        if not held or g.cell(corp_id) is None:
            continue
        seen = set()
        for certs, percent in sale_bundles(g.cdef(corp_id), held):
            if percent not in seen and emergency_sale_problem(g, seat, cid, corp_id, certs, percent) is None:
                seen.add(percent)
                moves.append({"type": "sell_shares", "shares": certs, "percent": percent})
    return moves


def liquidity(g: G, seat: int, cid: str) -> int:
    """What the president could still raise by emergency sales (largest sale per corporation)."""
    key = g.key(seat)
    total = 0
    for corp_id, corp in g.s["corps"].items():
        held = corp["shares"].get(key, [])
        if not held or g.cell(corp_id) is None or corp_id in g.round.get("emergency_sold", ()):
            continue
        best = 0
        for certs, percent in sale_bundles(g.cdef(corp_id), held):
            if stock.sale_problem(g, seat, corp_id, certs, percent) is None and not (
                    corp["president"] == key and loses_presidency(g, corp_id, key, certs, percent)):
                best = max(best, sale_proceeds(g.price(corp_id), percent, g.cdef(corp_id).cert_unit))
        total += best
    return total


def loses_presidency(g: G, corp_id: str, key: str, certs: list[str], percent: int) -> bool:
    if g.cdef(corp_id).president_cert in certs:
        return True
    others = [pct for holder, pct in player_percents(g, corp_id).items() if holder != key]
    return bool(others) and max(others) > g.percent(corp_id, key) - percent


def bankrupt_sales(g: G, seat: int, corp_id: str) -> list[tuple[int, int, list[str]]]:
    """(proceeds, percent, certificates) of each sale a bankrupt player makes of a corporation: any the pool takes,
    but none that would change a presidency, nor of a corporation he sold for this train (1889 on 18xx.games)."""
    key = g.key(seat)
    held = g.corp(corp_id)["shares"].get(key, [])
    if corp_id in g.round.get("emergency_sold", ()):
        return []  # sold for this train already: not again
    unit = g.cdef(corp_id).cert_unit
    return [(sale_proceeds(g.price(corp_id), percent, unit), percent, certs)
            for certs, percent in sale_bundles(g.cdef(corp_id), held)
            if stock.sale_problem(g, seat, corp_id, certs, percent) is None
            and not (g.corp(corp_id)["president"] == key and loses_presidency(g, corp_id, key, certs, percent))]


def may_go_bankrupt(g: G, seat: int, cid: str) -> bool:
    return trains.emergency(g, cid) and trains.shortfall(g, cid) > liquidity(g, seat, cid)


def bankrupt(g: G, seat: int, cid: str, action: Action) -> None:
    in_emergency(g, seat, cid)
    if not may_go_bankrupt(g, seat, cid):
        raise RuleError("You can still raise the money for {corp}'s train.", corp=cid)
    key = g.key(seat)
    g.event("[0] cannot pay for {corp}'s train and goes bankrupt.", seat, corp=cid)
    held_corps = [c for c, corp in g.s["corps"].items() if corp["shares"].get(key) and g.cell(c) is not None]
    for corp_id in g.operating_order(held_corps):  # as 18xx.games: in operating order, the dearest sale first,
        while options := bankrupt_sales(g, seat, corp_id):  # again while one is left
            _, percent, certs = max(options, key=lambda o: o[0])
            stock.sell(g, seat, corp_id, certs, percent)
    g.pay(key, BANK, g.s["cash"][seat])
    g.s["bankrupt"].append(seat)
    g.s["over"] = "bankrupt"
