"""1890's words: what its own rounds and moves read like (the initial stock round's waterfall of privates and minors
with bids and auctions, Kinki Nippon's formation and the minors' mergers, the private sales between players in
stock rounds, Kobe Rapid Transit's fee, the earthquake's relief and Itami's tokens, the air raids' waiting tokens).
The presenter and words.py ask `TITLE_WORDS[title]` first and fall back to the shared words (1889's) where a hook
answers None. Every hook takes the reader's language."""
from __future__ import annotations

from typing import Any

from bot.i18n import tr
from cogs.e18xx.words import KINDS, corp_name, money, private_name, tokens_left, who, word
from engines.e18xx.g1890 import air_raids, earthquake, isr
from engines.e18xx.route_text import train_name
from engines.e18xx.state import G


def _item(g: G, item: str, lang: str) -> str:
    return corp_name(g, item, lang) if isr.is_minor(g, item) else private_name(g, item, lang)


def _offer(g: G) -> dict[str, Any] | None:
    return g.round.get("offer") if g.round.get("kind") == "stock" else None


def round_lines(g: G, names: list[str], lang: str = "en") -> list[str] | None:
    r = g.round

    def m(amount: int) -> str:
        return money(g, amount, lang)

    if r["kind"] != "isr":
        return None  # the shared words; todo says what an offer or Kanan's choice waits for
    lines: list[str] = []
    left = isr.unsold(g)
    head = tr(lang, "**Initial stock round** (game turn {turn}) · {who} to act", turn=r["turn"],
              who=who(names, isr.seat_now(g), lang))
    lines.append(head)
    if left:
        first, rest = left[0], left[1:]
        lines.append(tr(lang, "For sale now: {item} at {price}", item=_item(g, first, lang),
                        price=m(isr.price_now(g, first))))
        if rest:
            parts = []
            for item in rest:
                bids = r["bids"].get(item, [])
                best = max((p for _, p in bids), default=None)
                if best is None:
                    parts.append(tr(lang, "{item} (bids from {price})", item=_item(g, item, lang),
                                    price=m(isr.min_bid(g, item))))
                else:
                    parts.append(tr(lang, "{item} (best bid {price})", item=_item(g, item, lang), price=m(best)))
            lines.append(tr(lang, "Then, to bid on: {items}", items=", ".join(parts)))
    if r["auction"]:
        a = r["auction"]
        lines.append(tr(lang, "**Auction** of {item}: best bid {price} by {who}", item=_item(g, a["item"], lang),
                        price=m(a["high"][1]), who=who(names, a["high"][0], lang)))
    if r["par"]:
        lines.append(tr(lang, "{who} sets the par price of {cid}.", who=who(names, r["par"]["seat"], lang),
                        cid=r["par"]["corporation"]))
    return lines


def todo(g: G, seat: int, names: list[str], lang: str = "en") -> str | None:
    r = g.round

    def m(amount: int) -> str:
        return money(g, amount, lang)

    pending = g.rules.interrupt(g)
    if pending is not None and pending[0] == seat:
        if earthquake.interrupt(g) is not None:
            return tr(lang, "**Your move:** sell shares to pay the {amount} you still owe to the earthquake's relief.",
                      amount=m(earthquake.owed(g, seat)))
        if g.s["flags"].get("kanan_choice"):
            return tr(lang, "**Your move:** merge Kanan Railway into Kinki Nippon Railway now, or pass to keep it.")
        offer = _offer(g)
        return tr(lang, "**Your move:** sell {private} to {buyer} for {price}: accept or decline.",
                  private=private_name(g, offer["company"], lang), buyer=who(names, offer["buyer_seat"], lang),
                  price=m(offer["price"]))
    if r["kind"] != "isr" or isr.seat_now(g) != seat:
        return None
    if r["par"]:
        return tr(lang, "**Your move:** set the par price of {cid}.", cid=r["par"]["corporation"])
    if r["auction"]:
        a = r["auction"]
        return tr(lang, "**Your move:** bid at least {price} for {item}, or drop out.",
                  price=m(a["high"][1] + isr.INCREMENT), item=_item(g, a["item"], lang))
    left = isr.unsold(g)
    return tr(lang, "**Your move:** buy {item} for {price}, bid on a later company, or pass.",
              item=_item(g, left[0], lang), price=m(isr.price_now(g, left[0])))


def move_text(g: G, a: dict[str, Any], names: list[str], lang: str = "en") -> str | None:
    kind, r = a.get("type"), g.round

    def m(amount: int) -> str:
        return money(g, amount, lang)

    if kind == "merge" and a.get("entity"):
        return tr(lang, "Merge {cid} into {major}", cid=a["entity"], major=a.get("corporation"))
    if kind == "convert" and a.get("entity") == "Daiki":
        return tr(lang, "Convert Daiki into Kinki Nippon Railway")
    if kind == "convert" and a.get("entity") == "KobeElec":
        return tr(lang, "Convert Kobe Electric into a late private company")
    if kind == "choose" and a.get("choice") == "kobe_rapid":
        return tr(lang, "Pay {fee} to pass Kobe Rapid Transit's token", fee=m(100))
    if kind == "choose" and a.get("choice") == "flip_itami":
        return tr(lang, "Pay {fee} to turn the token in Itami face up", fee=m(earthquake.FLIP_COST))
    if kind == "choose" and str(a.get("choice")).startswith(air_raids.TAKE_BACK):
        coord = a["choice"].removeprefix(air_raids.TAKE_BACK)
        return tr(lang, "Take back the token waiting in {where}", where=g.map.place_name(coord).in_lang(lang))
    if kind == "pass" and a.get("entity") == "Kanan" and g.s["flags"].get("kanan_choice"):
        return tr(lang, "Keep Kanan Railway a minor for now")
    if kind in ("accept_offer", "decline_offer") and _offer(g) is not None:
        offer = _offer(g)
        if kind == "accept_offer":
            return tr(lang, "Sell {private} for {price}", private=private_name(g, offer["company"], lang),
                      price=m(offer["price"]))
        return tr(lang, "Keep {private}", private=private_name(g, offer["company"], lang))
    if r["kind"] == "stock" and kind == "buy_company":
        pid = a["company"]
        owner = g.s["privates"][pid]["owner"]
        if owner is None:
            return tr(lang, "Buy the late private {private} for {price}", private=private_name(g, pid, lang),
                      price=m(a["price"]))
        return tr(lang, "Offer {owner} {price} for {private}", owner=who(names, int(owner), lang),
                  price=m(a["price"]), private=private_name(g, pid, lang))
    if r["kind"] == "isr":
        if kind == "bid":
            item = a["company"]
            if r["auction"]:
                return tr(lang, "Raise to {price} for {item}", price=m(a["price"]), item=_item(g, item, lang))
            if isr.unsold(g)[:1] == [item]:
                return tr(lang, "Buy {item} for {price}", item=_item(g, item, lang), price=m(a["price"]))
            return tr(lang, "Bid {price} on {item}", price=m(a["price"]), item=_item(g, item, lang))
        if kind == "pass":
            return tr(lang, "Drop out of the auction") if r["auction"] else tr(lang, "Pass")
    return None


def corp_extra(g: G, cid: str, lang: str = "en") -> str | None:
    """A corporation's kind (minor or public)."""
    kind = g.cdef(cid).kind
    return word(KINDS, "public" if kind == "major" else kind, lang)


def corp_line(g: G, cid: str, names: list[str], lang: str = "en") -> str | None:
    """A minor's line in the table: a minor at its fixed price, its treasury, trains, tokens and owner ("" for one not
    sold yet: the initial stock round's lines offer it); None for a public company (the shared line)."""
    if g.cdef(cid).kind != "minor":
        return None
    c = g.corp(cid)
    if c["president"] is None:
        return ""
    return " · ".join([
        tr(lang, "**{cid}** minor, fixed price {price}", cid=cid, price=money(g, isr.face(g, cid), lang)),
        *([tr(lang, "treasury {cash}", cash=money(g, c["cash"], lang))] if g.rules.treasuries_public(g) else []),
        tr(lang, "trains {trains}", trains=", ".join(train_name(t) for t in c["trains"]) or tr(lang, "none")),
        tokens_left(g.rules.tokens_left(g, cid)[0], lang),
        tr(lang, "pres. {who}", who=who(names, g.president(cid), lang))])


def charter(g: G, cid: str, card: dict[str, Any], lang: str = "en") -> None:
    """A minor's charter shows its fixed price."""
    if g.cdef(cid).kind == "minor":
        card["price_text"] = tr(lang, "{price} (fixed)", price=money(g, isr.face(g, cid), lang))
