"""1867's words: what its own rounds and moves read like (the private auction one at a time, minors auctioned in
stock rounds, merger rounds, loans, nationalisation). The presenter and words.py ask `TITLE_WORDS[title]` first and
fall back to the shared words (1889's) where a hook answers None. Every hook takes the reader's language."""
from __future__ import annotations

from typing import Any

from bot.i18n import say, tr
from cogs.e18xx.words import KINDS, corp_name, money, place, private_name, who, word
from engines.e18xx import operating, trains
from engines.e18xx.g1867 import auction, bidding, loans, merger
from engines.e18xx.g1867 import stock as stock1867
from engines.e18xx.state import G
from engines.text import plural


def merger_prompt(g: G, lang: str = "en") -> str:
    """What the merger round waits for (merger.prompt, in the reader's language)."""
    r = g.round
    now = merger.stage(g)
    if now == "reduce":
        return tr(lang, "{cid} removes tokens down to {n}", cid=r["target"], n=merger.TOKENS_AFTER_MERGER)
    if now == "deal":
        return tr(lang, "buy a share of {cid} or pass", cid=r["target"])
    if now == "discard":
        return tr(lang, "{cids} discards trains down to the limit", cids=", ".join(trains.crowded(g)))
    if r["choosing"]:
        return tr(lang, "choose the major {cid} becomes", cid=merger.current(g))
    return tr(lang, "{cid} may convert, merge or pass", cid=merger.current(g))


def _trainless(pending) -> str:
    """The major an interrupt asks about (its moves name it)."""
    return next((m.get("entity") for m in pending[2] if m.get("entity")), "?")


def round_lines(g: G, names: list[str], lang: str = "en") -> list[str] | None:
    r = g.round

    def m(amount: int) -> str:
        return money(g, amount, lang)

    if (pending := g.rules.interrupt(g)) is not None:
        return [tr(lang, "**{cid} has no train: its president chooses whether the CN takes it over** "
                         "({who} decides).", cid=_trainless(pending), who=who(names, pending[0], lang))]
    if r["kind"] == "auction":
        up = r["auction"]["item"] if r["auction"] else None
        lines = [tr(lang, "**Private auction**, one at a time · for sale: {privates}", privates=", ".join(
            tr(lang, "{private} from {price}", private=private_name(g, p, lang), price=m(auction.price(g, p)))
            for p in r["privates"]))]
        if up:
            bids = ", ".join(f"{who(names, s, lang)} {m(p)}" for s, p in r["auction"]["bids"]) or tr(lang, "no bid yet")
            if r["dutch"]:
                lines.append(tr(lang, "Up now: {private} ({bids}) · its price is falling",
                                private=private_name(g, up, lang), bids=bids))
            else:
                lines.append(tr(lang, "Up now: {private} ({bids})", private=private_name(g, up, lang), bids=bids))
        return lines
    if r["kind"] == "stock":
        line = tr(lang, "**Stock round {turn}** · phase {phase} · {who} to act", turn=r["turn"], phase=g.phase.name,
                  who=who(names, stock1867.acting(g), lang))
        if r.get("home"):
            return [line, tr(lang, "{cid}'s home token is being placed.", cid=r["home"])]
        if r.get("auction"):
            a = r["auction"]
            bids = ", ".join(f"{who(names, s, lang)} {m(p)}" for s, p in a["bids"])
            return [line, tr(lang, "**Auction** of the minor {cid} ({name}): {bids}", cid=a["item"],
                             name=corp_name(g, a["item"], lang), bids=bids)]
        return [line]
    if r["kind"] == "merger":
        cid = merger.current(g)
        line = tr(lang, "**Merger round {turn}.{n}** · phase {phase}", turn=r["turn"], n=r["or"], phase=g.phase.name)
        if r["target"]:
            return [line, tr(lang, "**{cid}** is being formed: {prompt}.", cid=r["target"],
                             prompt=merger_prompt(g, lang))]
        if cid:
            text = tr(lang, "**{cid}** ({who}): {prompt}.", cid=cid, who=who(names, g.president(cid), lang),
                      prompt=merger_prompt(g, lang))
            if r["merging"]:
                text += " " + tr(lang, "Gathered: {cids}.", cids=", ".join(r["merging"]))
            return [line, text]
        return [line]
    return None


def todo(g: G, seat: int, names: list[str], lang: str = "en") -> str | None:
    r = g.round

    def m(amount: int) -> str:
        return money(g, amount, lang)

    if (pending := g.rules.interrupt(g)) is not None:
        return tr(lang, "**Your move:** {cid} has no train: nationalise it, or pass to keep it.",
                  cid=_trainless(pending))
    if r["kind"] == "auction":
        up = r["auction"]["item"]
        if r["dutch"]:
            return tr(lang, "**Your move:** buy {private} for {price}, or pass.", private=private_name(g, up, lang),
                      price=m(auction.price(g, up)))
        least = bidding.least_bid(r["auction"], auction.price(g, up))
        return tr(lang, "**Your move:** bid at least {price} for {private} (in steps of {step}), or pass.",
                  price=m(least), private=private_name(g, up, lang), step=m(5))
    if r["kind"] == "stock":
        if r.get("home"):
            return tr(lang, "**Your move:** choose the city for {cid}'s home token.", cid=r["home"])
        if r.get("auction"):
            a = r["auction"]
            return tr(lang, "**Your move:** bid at least {price} for the minor {cid}, or drop out.",
                      price=m(bidding.least_bid(a, stock1867.MIN_BID)), cid=a["item"])
        return tr(lang, "**Your move:** buy a share, open the bidding for a minor ({price} or more), start a major "
                        "(phase 4 on), sell, or pass.", price=m(stock1867.MIN_BID))
    if r["kind"] == "merger":
        return tr(lang, "**Your move:** {prompt}.", prompt=merger_prompt(g, lang))
    if r["kind"] == "operating":
        cid = operating.current(g)
        if cid and g.president(cid) == seat and r["step"] == "redeem":
            return tr(lang, "**Your move** as president of {cid}: redeem a share from the pool at its price, or pass.",
                      cid=cid)
        if cid and g.president(cid) == seat and r["step"] == "dividend" and r["revenue"]:
            rev = r["revenue"]
            return tr(lang, "**Your move** as president of {cid}: pay out {revenue}, pay half (the treasury keeps "
                            "{kept}), or withhold it.", cid=cid, revenue=m(rev), kept=m(rev // 20 * 10))
    return None


def move_text(g: G, a: dict[str, Any], names: list[str], lang: str = "en") -> str | None:
    kind, r = a.get("type"), g.round

    def m(amount: int) -> str:
        return money(g, amount, lang)

    if kind == "choose":
        return tr(lang, "Let the CN take over {cid} (nationalise it)", cid=a.get("entity"))
    if kind == "pass" and g.rules.interrupt(g) is not None:
        return tr(lang, "Keep {cid} out of the CN's hands", cid=a.get("entity"))
    if r["kind"] == "auction":
        if kind == "bid":
            private = private_name(g, a["company"], lang)
            if r["dutch"]:
                return tr(lang, "Buy {private} for {price}", private=private, price=m(a["price"]))
            return tr(lang, "Bid {price} for {private}", price=m(a["price"]), private=private)
        if kind == "pass":
            return tr(lang, "Drop out") if r["auction"]["bids"] or r["dutch"] else tr(lang, "Pass (decline to bid)")
    if r["kind"] == "stock":
        if kind == "bid":
            values = {"price": m(a["price"]), "cid": a["corporation"], "name": corp_name(g, a["corporation"], lang)}
            if r.get("auction"):
                return tr(lang, "{price} for the minor {cid} ({name})", **values)
            return tr(lang, "Open the bidding: {price} for the minor {cid} ({name})", **values)
        if kind == "place_token":
            cities = g.board.tile(a["hex"]).city_indexes()
            where = place(g, a["hex"], lang)
            if len(cities) > 1:
                where = tr(lang, "{where}, city {n}", where=where, n=cities.index(a["city"]) + 1)
            return tr(lang, "Home token for {cid} on {where}", cid=a.get("entity"), where=where)
        if kind == "pass" and r.get("auction"):
            return tr(lang, "Drop out of the auction for {cid}", cid=r["auction"]["item"])
    if r["kind"] == "merger":
        cid = merger.current(g)
        if kind == "merge" and r["choosing"]:
            values = {"major": a["corporation"], "name": corp_name(g, a["corporation"], lang)}
            if r["choosing"] == "convert":
                return tr(lang, "{cid} converts into {major} ({name})", cid=cid, **values)
            return tr(lang, "{cids} become {major} ({name})", cids=", ".join(r["merging"]), **values)
        if kind == "merge":
            return tr(lang, "{cid} merges with {other}", cid=cid, other=a["corporation"])
        if kind == "convert":
            return tr(lang, "{cid} converts into a major (price {price})", cid=cid, price=m(g.price(cid)))
        if kind == "remove_token":
            cities = g.board.tile(a["hex"]).city_indexes()
            where = place(g, a["hex"], lang)
            if len(cities) > 1:  # 1807's London hexes hold two cities
                where = tr(lang, "{where}, city {n}", where=where, n=cities.index(a["city"]) + 1)
            return tr(lang, "{cid} removes its token on {where}", cid=a.get("entity"), where=where)
        if kind == "buy_shares":
            return tr(lang, "Buy a 10% share of {cid} ({price})", cid=r["target"], price=m(g.price(r["target"])))
        if kind == "pass":
            if r["target"]:
                return tr(lang, "Buy no more of {cid}", cid=r["target"])
            if r["choosing"] == "merge":
                return tr(lang, "Call the merger off (no owner could preside)")
            if r["merging"]:
                return tr(lang, "Finish gathering minors")
            return tr(lang, "{cid} neither converts nor merges", cid=cid)
    if r["kind"] == "operating":
        cid = operating.current(g)
        if kind == "buy_shares" and cid:
            return tr(lang, "{cid} redeems a share from the pool ({price})", cid=cid, price=m(g.price(cid)))
        if kind == "pass" and r["step"] == "redeem":
            return tr(lang, "Pass: redeem no share")
        if kind == "pass" and r["step"] == "companies_preloan":
            return tr(lang, "Pass: buy no private company")
        if kind == "dividend" and a.get("kind") == "half":
            rev = r["revenue"] or 0
            return tr(lang, "Pay half of {revenue}: {kept} kept, the rest paid out", revenue=m(rev),
                      kept=m(rev // 20 * 10))
        if kind == "buy_train" and cid and a.get("price", 0) > g.corp(cid)["cash"]:
            need = a["price"] - g.corp(cid)["cash"]
            taken = -(-need // g.title.loans["received"])
            return tr(lang, "Buy a {name}-train for {price} ({loans})", name=a["train"].rpartition("-")[0],
                      price=m(a["price"]),
                      loans=say(plural(taken, "taking {n} loan", "taking {n} loans"), lang))
    return None


def corp_extra(g: G, cid: str, lang: str = "en") -> str | None:
    """What a 1867 corporation's line adds: its kind and its loans."""
    held = loans.held(g, cid)
    kind = word(KINDS, g.cdef(cid).kind, lang)
    return kind + (", " + say(plural(held, "{n} loan", "{n} loans"), lang) if held else "")
