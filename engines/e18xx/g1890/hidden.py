"""1890's variants that keep amounts secret (rules, 1890 scenario, Variants; docs/rules/1890.md rulings 33, 34).

Hidden personal cash (option hidden_cash): "The amount of player cash is secret. Players do not need to respond to
inquiries about their cash holdings." A player's cash total is his alone until the game ends: public() has neither
his cash nor his worth (worth less his holdings at their prices is his cash), the table message no cash beside his
name, nor the bank's cash (the money is conserved: with the treasuries public, the bank gives away the players'
sum, with two players the other's cash); his view and his private panel have his cash. What he pays and receives
stays public, as at the table, where everyone sees money change hands but nobody need say what he holds. Nor is a
player passed for want of money (the table would learn he cannot afford a share): he passes himself.

Hiding of train purchase price (option hidden_train_prices): "The buying and selling of trains between companies
must be made public to other players, but it is not necessary to make their prices public." The trade is narrated
without its price, and only the two presidents see the price (their views, state["secret_trades"]). A treasury
before and after the trade would give the price away, so with this option a company's treasury is shown only to
its president (public() and the table message leave treasuries out, and the bank's cash, which would tell a closing
company's treasury; the presidents' panels show theirs), and a
company's token step is not skipped for want of money. A company that must buy a train and cannot pay for it still
has its president pay what it lacks, in the open, as the rules have it.

At the game's end everything is shown again.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engines.e18xx.state import G

CASH, PRICES = "hidden_cash", "hidden_train_prices"


def cash_hidden(state: dict[str, Any]) -> bool:
    return bool(state["opts"].get(CASH)) and not state["over"]


def treasuries_hidden(state: dict[str, Any]) -> bool:
    return bool(state["opts"].get(PRICES)) and not state["over"]


def hides(state: dict[str, Any]) -> bool:
    return cash_hidden(state) or treasuries_hidden(state)


def record_trade(state: dict[str, Any], buyer_seat: int | None, seller_seat: int | None, cid: str, seller: str,
                 train: str, price: int) -> None:
    """A train bought from another company: its price, for the two presidents' eyes only."""
    state.setdefault("secret_trades", []).append(
        {"corp": cid, "seller": seller, "train": train, "price": price,
         "seats": sorted({s for s in (buyer_seat, seller_seat) if s is not None})})


def public(state: dict[str, Any], pub: dict[str, Any]) -> dict[str, Any]:
    """The public view less the secrets the table's options keep."""
    if cash_hidden(state):
        pub["players"] = [{k: v for k, v in p.items() if k not in ("cash", "value")} for p in pub["players"]]
    if hides(state):  # all money is the bank's, a treasury's or a player's: the bank would tell the players' sum,
        del pub["bank"]  # or what a closing company's hidden treasury held
    if treasuries_hidden(state):
        pub["corporations"] = {cid: {k: v for k, v in c.items() if k != "cash"}
                               for cid, c in pub["corporations"].items()}
        offer = pub["round"].get("offer") if isinstance(pub["round"], dict) else None
        if offer and offer["action"].get("type") == "buy_train":
            pub["round"] = {**pub["round"], "offer": {**offer, "action": {
                k: v for k, v in offer["action"].items() if k != "price"}}}
    return pub


def mine(state: dict[str, Any], seat: int, value: int, presided: list[str]) -> dict[str, Any]:
    """What `seat` alone knows besides the public view: his cash and worth; his companies' treasuries and the prices
    of the trades his companies made."""
    out: dict[str, Any] = {}
    if cash_hidden(state):
        out.update(my_cash=state["cash"][seat], my_value=value)
    if treasuries_hidden(state):
        out["my_treasuries"] = {cid: state["corps"][cid]["cash"] for cid in presided}
        out["my_trades"] = [t for t in state.get("secret_trades", []) if seat in t["seats"]]
        offer = state["round"].get("offer")
        if offer and seat in (offer["buyer_seat"], offer["seller_seat"]):
            out["my_offer"] = dict(offer["action"])
    return out


def might_move(g: G, seat: int, has_move: Callable[[G, int], bool]) -> bool:
    """With hidden cash a player who cannot afford anything is not passed for him (the table would learn he cannot
    afford the cheapest share): he passes himself, unless he could do nothing whatever his cash."""
    if not cash_hidden(g.s):
        return False
    cash = g.s["cash"][seat]
    g.s["cash"][seat] = g.title.bank  # more than anyone holds
    try:
        return has_move(g, seat)
    finally:
        g.s["cash"][seat] = cash


def token_might_open(g: G, cid: str, token_step_open: Callable[[G, str], bool]) -> bool:
    """With hidden treasuries a company's token step is not skipped because it cannot pay (the table would learn its
    treasury is short of the token's price): its president passes, unless no token could be placed at any price."""
    if not treasuries_hidden(g.s):
        return False
    corp = g.corp(cid)
    cash = corp["cash"]
    corp["cash"] = g.title.bank
    try:
        return token_step_open(g, cid)
    finally:
        corp["cash"] = cash
