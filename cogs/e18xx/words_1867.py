"""1867's words: what its own rounds and moves read like (the private auction one at a time, minors auctioned in
stock rounds, merger rounds, loans, nationalisation). The presenter and words.py ask `TITLE_WORDS[title]` first and
fall back to the shared words (1889's) where a hook answers None."""
from __future__ import annotations

from typing import Any

from cogs.e18xx.words import private_name, who
from engines.e18xx import operating
from engines.e18xx.g1867 import auction, bidding, loans, merger
from engines.e18xx.g1867 import stock as stock1867
from engines.e18xx.state import G


def round_lines(g: G, names: list[str]) -> list[str] | None:
    r, money = g.round, g.money
    if (pending := g.rules.interrupt(g)) is not None:
        return [f"**{pending[1][0].upper()}{pending[1][1:]}** ({who(names, pending[0])} decides)."]
    if r["kind"] == "auction":
        up = r["auction"]["item"] if r["auction"] else None
        lines = ["**Private auction**, one at a time · for sale: "
                 + ", ".join(f"{private_name(g, p)} from {money(auction.price(g, p))}" for p in r["privates"])]
        if up:
            bids = ", ".join(f"{who(names, s)} {money(p)}" for s, p in r["auction"]["bids"]) or "no bid yet"
            lines.append(f"Up now: {private_name(g, up)} ({bids}){' · its price is falling' if r['dutch'] else ''}")
        return lines
    if r["kind"] == "stock":
        line = f"**Stock round {r['turn']}** · phase {g.phase.name} · {who(names, stock1867.acting(g))} to act"
        if r.get("home"):
            return [line, f"{r['home']}'s home token is being placed."]
        if r.get("auction"):
            a = r["auction"]
            bids = ", ".join(f"{who(names, s)} {money(p)}" for s, p in a["bids"])
            return [line, f"**Auction** of the minor {a['item']} ({g.cdef(a['item']).name}): {bids}"]
        return [line]
    if r["kind"] == "merger":
        cid = merger.current(g)
        line = f"**Merger round {r['turn']}.{r['or']}** · phase {g.phase.name}"
        if r["target"]:
            return [line, f"**{r['target']}** is being formed: {merger.prompt(g)}."]
        if cid:
            return [line, f"**{cid}** ({who(names, g.president(cid))}): {merger.prompt(g)}."
                    + (f" Gathered: {', '.join(r['merging'])}." if r["merging"] else "")]
        return [line]
    return None


def todo(g: G, seat: int, names: list[str]) -> str | None:
    r, money = g.round, g.money
    if (pending := g.rules.interrupt(g)) is not None:
        return f"**Your move:** {pending[1]}: nationalise it, or pass to keep it."
    if r["kind"] == "auction":
        up = r["auction"]["item"]
        if r["dutch"]:
            return f"**Your move:** buy {private_name(g, up)} for {money(auction.price(g, up))}, or pass."
        least = bidding.least_bid(r["auction"], auction.price(g, up))
        return (f"**Your move:** bid at least {money(least)} for {private_name(g, up)} (in steps of {money(5)}), "
                "or pass.")
    if r["kind"] == "stock":
        if r.get("home"):
            return f"**Your move:** choose the city for {r['home']}'s home token."
        if r.get("auction"):
            a = r["auction"]
            return (f"**Your move:** bid at least {money(bidding.least_bid(a, stock1867.MIN_BID))} for the minor "
                    f"{a['item']}, or drop out.")
        return ("**Your move:** buy a share, open the bidding for a minor ($100 or more), start a major (phase 4 on), "
                "sell, or pass.")
    if r["kind"] == "merger":
        return f"**Your move:** {merger.prompt(g)}."
    if r["kind"] == "operating":
        cid = operating.current(g)
        if cid and g.president(cid) == seat and r["step"] == "redeem":
            return f"**Your move** as president of {cid}: redeem a share from the pool at its price, or pass."
        if cid and g.president(cid) == seat and r["step"] == "dividend" and r["revenue"]:
            rev = r["revenue"]
            return (f"**Your move** as president of {cid}: pay out {money(rev)}, pay half (the treasury keeps "
                    f"{money(rev // 20 * 10)}), or withhold it.")
    return None


def move_text(g: G, a: dict[str, Any], names: list[str]) -> str | None:
    kind, r, money = a.get("type"), g.round, g.money
    if kind == "choose":
        return f"Let the CN take over {a.get('entity')} (nationalise it)"
    if kind == "pass" and g.rules.interrupt(g) is not None:
        return f"Keep {a.get('entity')} out of the CN's hands"
    if r["kind"] == "auction":
        if kind == "bid":
            return (f"Buy {private_name(g, a['company'])} for {money(a['price'])}" if r["dutch"]
                    else f"Bid {money(a['price'])} for {private_name(g, a['company'])}")
        if kind == "pass":
            return "Drop out" if r["auction"]["bids"] or r["dutch"] else "Pass (decline to bid)"
    if r["kind"] == "stock":
        if kind == "bid":
            opening = "" if r.get("auction") else "Open the bidding: "
            return f"{opening}{money(a['price'])} for the minor {a['corporation']} ({g.cdef(a['corporation']).name})"
        if kind == "place_token":
            cities = g.board.tile(a["hex"]).city_indexes()
            city = f", city {cities.index(a['city']) + 1}" if len(cities) > 1 else ""
            return f"Home token for {a.get('entity')} on {g.map.place(a['hex'])}{city}"
        if kind == "pass" and r.get("auction"):
            return f"Drop out of the auction for {r['auction']['item']}"
    if r["kind"] == "merger":
        cid = merger.current(g)
        if kind == "merge" and r["choosing"]:
            verb = "converts into" if r["choosing"] == "convert" else "become"
            subject = cid if r["choosing"] == "convert" else ", ".join(r["merging"])
            return f"{subject} {verb} {a['corporation']} ({g.cdef(a['corporation']).name})"
        if kind == "merge":
            return f"{cid} merges with {a['corporation']}"
        if kind == "convert":
            return f"{cid} converts into a major (price {money(g.price(cid))})"
        if kind == "remove_token":
            return f"{a.get('entity')} removes its token on {g.map.place(a['hex'])}"
        if kind == "buy_shares":
            return f"Buy a 10% share of {r['target']} ({money(g.price(r['target']))})"
        if kind == "pass":
            if r["target"]:
                return f"Buy no more of {r['target']}"
            if r["choosing"] == "merge":
                return "Call the merger off (no owner could preside)"
            return "Finish gathering minors" if r["merging"] else f"{cid} neither converts nor merges"
    if r["kind"] == "operating":
        cid = operating.current(g)
        if kind == "buy_shares" and cid:
            return f"{cid} redeems a share from the pool ({money(g.price(cid))})"
        if kind == "pass" and r["step"] == "redeem":
            return "Pass: redeem no share"
        if kind == "pass" and r["step"] == "companies_preloan":
            return "Pass: buy no private company"
        if kind == "dividend" and a.get("kind") == "half":
            rev = r["revenue"] or 0
            return f"Pay half of {money(rev)}: {money(rev // 20 * 10)} kept, the rest paid out"
        if kind == "buy_train" and cid and a.get("price", 0) > g.corp(cid)["cash"]:
            need = a["price"] - g.corp(cid)["cash"]
            taken = -(-need // g.title.loans["received"])
            return (f"Buy a {a['train'].rpartition('-')[0]}-train for {money(a['price'])} (taking {taken} "
                    f"loan{'s' if taken > 1 else ''})")
    return None


def corp_extra(g: G, cid: str) -> str | None:
    """What a 1867 corporation's line adds: its kind and its loans."""
    held = loans.held(g, cid)
    kind = g.cdef(cid).kind
    return f"{kind}" + (f", {held} loan{'s' if held > 1 else ''}" if held else "")
