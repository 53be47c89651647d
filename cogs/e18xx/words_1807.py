"""1807's words: what its own rounds and moves read like, over 1867's (words_1867.py), whose rules it builds on. What
differs: the setup draw (the private railways that leave, the three batches of minors), the opening auction of the
drawn private railways, the ferries and undergrounds auctioned in stock rounds, the minors' batches, P2-P5's free
yellow tiles, public companies and systems (our kinds "major" and "system"), and the end set off by the first 4+4
train. The presenter and words.py ask `TITLE_WORDS[title]` first and fall back to the shared words (1889's) where a
hook answers None. Every hook takes the reader's language."""
from __future__ import annotations

from typing import Any

from bot.i18n import say, tr
from cogs.e18xx import words_1867 as base
from cogs.e18xx.words import corp_name, listing, money, place, private_name, private_title, who, word
from engines.e18xx import operating, rounds, trains
from engines.e18xx.companies import IPO
from engines.e18xx.g1807 import goods, systems, takeover
from engines.e18xx.g1807 import stock as stock1807
from engines.e18xx.g1867 import auction, bidding, loans, merger
from engines.e18xx.g1867 import stock as stock1867
from engines.e18xx.state import G
from engines.text import N_, plural

#: 1807's kinds of corporation (the site's "public" is our "major").
KINDS = {"minor": N_("minor"), "major": N_("public company"), "system": N_("system")}
#: Why the game ended (rounds.end_game's reasons).
ENDS = {"final_phase": N_("the last set of operating rounds after the first 4+4 train is over"),
        "bank": N_("the bank broke"),
        "bankrupt": N_("a player went bankrupt"), "manually_ended": N_("the players ended it")}


def _company_auction(g: G) -> dict[str, Any] | None:
    """The ferry's or underground's auction open in a stock round, or None."""
    found = g.round.get("auction") if g.round["kind"] == "stock" else None
    return found if found and found.get("company") else None


def _bids(g: G, bids: dict[str, Any], names: list[str], lang: str) -> str:
    """The bids of an auction (bidding.py): "Ann £20, Ben £25", or "no bid yet"."""
    return ", ".join(f"{who(names, s, lang)} {money(g, p, lang)}" for s, p in bids["bids"]) or tr(lang, "no bid yet")


def _minors_open(g: G) -> list[str]:
    """The minors a player may open the bidding for now (their batch has come, their home is free)."""
    return [cid for cid in g.s["corps"] if g.cdef(cid).kind == "minor" and g.rules.may_start(g, cid)]


def _batches_to_come(g: G, lang: str) -> list[str]:
    """The minors' batches not come yet: batch 2 in stock round 2, batch 3 with the first 3-train."""
    flags, turn = g.s["flags"], g.round.get("turn", 1)
    parts = []
    for n in (2, 3):
        minors = sorted(c for c, b in flags.get("batch", {}).items() if b == n)
        if not minors or (n == 2 and turn >= 2) or (n == 3 and flags.get("batch3")):
            continue
        if n == 2:
            parts.append(tr(lang, "batch 2 ({minors}) in stock round 2", minors=listing(minors, lang)))
        else:
            parts.append(tr(lang, "batch 3 ({minors}) with the first 3-train", minors=listing(minors, lang)))
    return parts


def _end_line(g: G, lang: str) -> list[str]:
    """The end set off by the first 4+4 train: the turn whose operating rounds are the last."""
    turn = g.s["flags"].get("final_turn")
    if g.s["flags"].get("end_trigger") != "final_phase" or turn is None:
        return []
    return [tr(lang, "The first 4+4 train has come: the game ends after the three operating rounds of turn {turn}.",
               turn=turn)]


def round_lines(g: G, names: list[str], lang: str = "en") -> list[str] | None:
    r = g.round
    kind = r["kind"]

    def m(amount: int) -> str:
        return money(g, amount, lang)

    if kind == "deal":
        return [tr(lang, "**Setup**: the private railways that stay and the minors of each batch are being drawn.")]
    if kind == "over":
        reason = r.get("reason")
        if reason == "dnf":
            why = tr(lang, "it reached turn {turn} (the safety stop)", turn=rounds.LAST_TURN)
        else:
            why = word(ENDS, reason, lang)
        return [tr(lang, "**The game is over:** {why}.", why=why)]
    if kind == "auction":
        up = r["auction"]["item"] if r["auction"] else None
        lines = [tr(lang, "**Auction of the private railways**, one at a time, in number order · for sale: "
                          "{privates}", privates=", ".join(
                              tr(lang, "{private} from {price}", private=private_name(g, p, lang),
                                 price=m(auction.price(g, p))) for p in r["privates"]))]
        if up:
            values = {"private": private_name(g, up, lang), "bids": _bids(g, r["auction"], names, lang)}
            if r["dutch"]:
                lines.append(tr(lang, "Up now: {private} ({bids}) · its price is falling", **values))
            else:
                lines.append(tr(lang, "Up now: {private} ({bids})", **values))
        return lines
    if kind == "stock":
        lines = [tr(lang, "**Stock round {turn}** · phase {phase} · {who} to act", turn=r["turn"],
                    phase=g.phase.name, who=who(names, stock1867.acting(g), lang))]
        if (up := _company_auction(g)) is not None:
            lines.append(tr(lang, "**Auction** of {private}: {bids}", private=private_name(g, up["item"], lang),
                            bids=_bids(g, up, names, lang)))
        elif r.get("home"):
            lines.append(tr(lang, "{cid}'s home token is being placed.", cid=r["home"]))
        elif r.get("auction"):
            a = r["auction"]
            lines.append(tr(lang, "**Auction** of the minor {cid} ({name}): {bids}", cid=a["item"],
                            name=corp_name(g, a["item"], lang), bids=_bids(g, a, names, lang)))
        else:
            if minors := _minors_open(g):
                lines.append(tr(lang, "Minors to auction: {minors}", minors=listing(minors, lang)))
            if privates := stock1807.auctionable(g):
                lines.append(tr(lang, "Ferries and undergrounds to auction: {privates}", privates=listing(
                    [tr(lang, "{private} from {price}", private=private_name(g, p, lang),
                        price=m(g.pdef(p).value)) for p in privates], lang)))
            if later := _batches_to_come(g, lang):
                lines.append(tr(lang, "Minors still to come: {batches}.", batches=listing(later, lang)))
        return lines + _end_line(g, lang)
    if kind == "merger" and (r.get("consent") or r.get("part") == "systems"):
        return _merger_lines(g, names, lang) + _end_line(g, lang)
    if kind == "merger" and (t := r.get("takeover")):
        return [tr(lang, "**Merger round {turn}.{n}** · phase {phase}", turn=r["turn"], n=r["or"], phase=g.phase.name),
                tr(lang, "**{major}** takes over {minor}: {who} removes tokens of {minor} or passes (the rest go "
                         "to {major}).", major=t["major"], minor=t["minor"], who=who(names, t["seat"], lang))]
    if kind in ("merger", "operating"):
        from cogs.e18xx.presenter import E18xxPresenter  # the shared lines, to add to
        lines = base.round_lines(g, names, lang) if kind == "merger" else None
        if lines is None:
            lines = E18xxPresenter._round_lines(g, names, lang, titled=False)
        return lines + _end_line(g, lang)
    return None


def merger_prompt(g: G, lang: str = "en") -> str:
    """What 1807's merger round waits for (systems.prompt, in the reader's language): an owner's consent, then the
    systems' part; the minors' part otherwise reads as 1867's."""
    r = g.round
    now = systems.stage(g)
    if now == "consent":
        c = r["consent"]
        if systems.in_systems(g):
            return tr(lang, "{other}'s president decides whether it joins {cid}'s system merger", other=c["other"],
                      cid=c["corporation"])
        return tr(lang, "{other}'s owner decides whether it joins {cid}'s merger", other=c["other"],
                  cid=c["corporation"])
    if now == "odd":
        return tr(lang, "{system} forms once two odd shares are settled: one {system} share and {third}, or {four}",
                  **_odd_values(g, lang))
    if not systems.in_systems(g):
        return base.merger_prompt(g, lang)
    if now == "reduce":
        return tr(lang, "{cid} removes tokens down to {n}", cid=r["reducing"], n=systems.capacity(g, r["reducing"]))
    if now == "discard":
        return tr(lang, "{cids} discards trains down to the limit", cids=", ".join(trains.crowded(g)))
    if r["gathering"]:
        return tr(lang, "{cid} may gather another public company, form a system of {cids}, or call it off",
                  cid=systems.current(g), cids=", ".join(r["gathering"]))
    return tr(lang, "{cid} may form a system or pass", cid=systems.current(g))


def _merger_lines(g: G, names: list[str], lang: str) -> list[str]:
    """The merger round while an owner is asked for his consent, and in its systems' part."""
    r = g.round
    line = tr(lang, "**Merger round {turn}.{n}** · phase {phase}", turn=r["turn"], n=r["or"], phase=g.phase.name)
    if systems.in_systems(g):
        line += " · " + tr(lang, "public companies may form systems")
    seats = sorted(systems.acting(g))
    if not seats:
        return [line]
    return [line, tr(lang, "{who}: {prompt}.", who=listing([who(names, s, lang) for s in seats], lang),
                     prompt=merger_prompt(g, lang))]


def _odd_values(g: G, lang: str) -> dict[str, str]:
    """The system forming and what two odd shares bring its holder who cannot pay for them: a third of its price
    with a share, four thirds without."""
    odd = g.round["odd"]
    price = systems.system_cell(g, odd["publics"]).price
    return {"system": odd["system"], "third": money(g, price // 3, lang), "four": money(g, price * 4 // 3, lang)}


def _system_move(g: G, a: dict[str, Any], names: list[str], lang: str) -> str | None:
    """A move of 1807's merger round that 1867's words do not know: consent, and the systems' part."""
    kind, r = a.get("type"), g.round
    if r.get("consent") and kind in ("accept_offer", "decline_offer"):
        c = r["consent"]
        if kind == "accept_offer":
            return tr(lang, "Agree: {other} joins {cid}'s merger", other=c["other"], cid=c["corporation"])
        return tr(lang, "Refuse: {other} stays out of {cid}'s merger", other=c["other"], cid=c["corporation"])
    if kind == "odd_shares" and r.get("odd"):
        values = _odd_values(g, lang)
        if a.get("choice") == "share":
            return tr(lang, "Take one {system} share and {third}", **values)
        return tr(lang, "Take {four} from {system}, no share", **values)
    if not systems.in_systems(g):
        return None
    cid = systems.current(g)
    if kind == "merge_system":
        other = a["corporation"]
        if g.president(other) != g.president(cid):
            return tr(lang, "Ask {owner} to merge {other} into {cid}'s system", owner=who(names, g.president(other),
                                                                                          lang), other=other, cid=cid)
        return tr(lang, "Merge {other} into {cid}'s system", other=other, cid=cid)
    if kind == "form_system":
        publics = r["gathering"] or [cid]
        price = systems.system_cell(g, publics).price
        values = {"system": a["corporation"], "name": corp_name(g, a["corporation"], lang),
                  "price": money(g, price, lang), "n": systems.capacity(g, a["corporation"])}
        if len(publics) == 1:
            return tr(lang, "{cid} converts into {system} ({name}) at {price}, {n} tokens", cid=cid, **values)
        return tr(lang, "{cids} form {system} ({name}) at {price}, {n} tokens", cids=", ".join(publics), **values)
    if kind == "pass" and systems.stage(g) == "public":
        if r["gathering"]:
            return tr(lang, "Call off the system merger of {cids}", cids=", ".join(r["gathering"]))
        return tr(lang, "{cid} forms no system", cid=cid)
    return None


def _president_values(g: G, cid: str, lang: str) -> dict[str, str]:
    return {"cid": cid, "cash": money(g, g.corp(cid)["cash"], lang)}


def _track_todo(g: G, cid: str, lang: str) -> str | None:
    """The track step: 1807's two lays (three for a system), the later ones dearer, and P2-P5's free yellow tiles.
    `lays` are the lays made this turn; `laid` is set once no other lay is allowed."""
    r = g.round
    values = _president_values(g, cid, lang)
    free = g.rules.free_lays(g, cid)
    lays = r.get("lays") or []
    more = [] if r["laid"] else g.rules.lays_allowed(g, cid, lays)
    if free:
        values["privates"] = listing([private_title(g, p, lang) for p in free], lang)
    if not lays and more:
        if free:
            return tr(lang, "**Your move** as president of {cid} (treasury {cash}): lay or upgrade a tile, or lay "
                            "{privates}'s free yellow tile, or pass. `/18xx lay` suggests hexes, tiles and "
                            "rotations.", **values)
        return None  # the shared words
    if more:
        extra = money(g, more[0]["cost"], lang)
        if more[0]["upgrade"]:
            text = tr(lang, "lay or upgrade another tile for {cost} more", cost=extra)
        else:
            text = tr(lang, "lay another yellow tile for {cost} more", cost=extra)
        if free:
            return tr(lang, "**Your move** as president of {cid} (treasury {cash}): {lay}, lay {privates}'s free "
                            "yellow tile, or pass.", lay=text, **values)
        return tr(lang, "**Your move** as president of {cid} (treasury {cash}): {lay}, or pass.", lay=text, **values)
    if free:
        return tr(lang, "**Your move** as president of {cid} (treasury {cash}): lay {privates}'s free yellow tile, "
                        "or pass.", **values)
    return tr(lang, "**Your move** as president of {cid} (treasury {cash}): pass to end the track step.", **values)


def _stock_todo(g: G, seat: int, lang: str) -> str:
    """What a player may do in the stock round, from the moves open to them now."""
    moves = stock1807.legal(g, seat)
    kinds = {m["type"] for m in moves}
    choices = []
    if "buy_shares" in kinds:
        choices.append(tr(lang, "buy a share"))
    if any(m["type"] == "bid" and "corporation" in m for m in moves):
        choices.append(tr(lang, "open the bidding for a minor ({price} or more)",
                          price=money(g, stock1867.MIN_BID, lang)))
    if any(m["type"] == "bid" and "company" in m for m in moves):
        choices.append(tr(lang, "open the bidding for a ferry or underground (its face value or more)"))
    if "par" in kinds:
        choices.append(tr(lang, "start a public company"))
    if "sell_shares" in kinds:
        choices.append(tr(lang, "sell"))
    if not choices:
        return tr(lang, "**Your move:** you can buy and sell nothing now: pass.")
    return tr(lang, "**Your move:** {choices}, or pass.", choices=listing(choices, lang))


def todo(g: G, seat: int, names: list[str], lang: str = "en") -> str | None:
    r = g.round

    def m(amount: int) -> str:
        return money(g, amount, lang)

    if r["kind"] == "stock":
        if (up := _company_auction(g)) is not None:
            pid = up["item"]
            return tr(lang, "**Your move:** bid at least {price} for {private} (in steps of {step}), or drop out.",
                      price=m(bidding.least_bid(up, g.pdef(pid).value)), private=private_name(g, pid, lang),
                      step=m(bidding.INCREMENT))
        if r.get("home") or r.get("auction"):
            return base.todo(g, seat, names, lang)
        if "buy" in r["did"]:
            return tr(lang, "**Your move:** you may still sell (or buy, if you have not), or end your turn.")
        return _stock_todo(g, seat, lang)
    if r["kind"] == "merger" and (r.get("consent") or r.get("part") == "systems"):
        return tr(lang, "**Your move:** {prompt}.", prompt=merger_prompt(g, lang))
    if r["kind"] == "merger" and (t := r.get("takeover")):
        return tr(lang, "**Your move:** remove tokens of {minor}, or pass: its other tokens become {major}'s "
                        "({n} at most).", minor=t["minor"], major=t["major"], n=takeover.free_tokens(g, t["major"]))
    if r["kind"] == "merger" and not r["target"] and (cid := merger.current(g)) and takeover.takers(g, cid):
        return tr(lang, "**Your move:** {cid} may convert, merge, be taken over by {majors} (for a 10% share of "
                        "it), or pass.", cid=cid, majors=listing(takeover.takers(g, cid), lang))
    if r["kind"] == "operating" and not r.get("special") and not r.get("offer"):
        cid = operating.current(g)
        if cid and g.president(cid) == seat and r["step"] == "dividend" and r["revenue"] and g.cdef(
                cid).kind == "system":
            rev = r["revenue"]
            return tr(lang, "**Your move** as president of {cid}: pay out {revenue} ({per_share} a 5% share), pay "
                            "half ({half} a share), or withhold it.", cid=cid, revenue=m(rev),
                      per_share=m(rev // systems.UNITS), half=m(rev // 2 // systems.UNITS))
        if cid and g.president(cid) == seat and r["step"] == "track":
            if (text := _track_todo(g, cid, lang)) is not None:
                return text
    return base.todo(g, seat, names, lang)


def move_text(g: G, a: dict[str, Any], names: list[str], lang: str = "en") -> str | None:
    kind, r = a.get("type"), g.round

    def m(amount: int) -> str:
        return money(g, amount, lang)

    if r["kind"] == "stock" and not r.get("home"):
        up = _company_auction(g)
        if kind == "bid" and "company" in a:
            values = {"price": m(a["price"]), "private": private_name(g, a["company"], lang)}
            if up is not None:
                return tr(lang, "Bid {price} for {private}", **values)
            return tr(lang, "Open the bidding: {price} for {private}", **values)
        if kind == "pass" and up is not None:
            return tr(lang, "Drop out of the auction for {private}", private=private_name(g, up["item"], lang))
    if r["kind"] == "merger" and (text := _system_move(g, a, names, lang)) is not None:
        return text
    if r["kind"] == "merger" and (t := r.get("takeover")):
        if kind == "remove_token":
            return tr(lang, "Remove {minor}'s token on {where}", minor=t["minor"], where=place(g, a["hex"], lang))
        if kind == "pass":
            return tr(lang, "Hand {minor}'s tokens to {major}", minor=t["minor"], major=t["major"])
    if r["kind"] == "merger" and kind == "buy_shares" and a.get("entity") and not r["target"]:
        major = next((c for c in takeover.takers(g, a["entity"]) if a["shares"][0] in g.corp(c)["shares"].get(
            IPO, [])), a["shares"][0].rpartition("_")[0])
        return tr(lang, "{major} takes over {cid}: a 10% share of {major} for it", major=major, cid=a["entity"])
    if r["kind"] == "merger" and kind == "convert":
        cid = merger.current(g)
        return tr(lang, "{cid} converts into a public company (price {price})", cid=cid, price=m(g.price(cid)))
    if r["kind"] == "operating" and not r.get("special"):
        if kind == "lay_tile" and a.get("entity_type") == "company":
            cid = operating.current(g)
            cost = g.rules._border_cost(g, a["hex"], a["tile"], a["rotation"]) if cid else 0
            text = tr(lang, "{private}: free yellow tile {tile} on {where}, rotation {rotation}",
                      private=private_title(g, a["entity"], lang), tile=a["tile"], where=place(g, a["hex"], lang),
                      rotation=a["rotation"])
            return text + (" " + tr(lang, "({cost} for the border)", cost=m(cost)) if cost else "")
        if kind == "buy_train" and a.get("variant"):
            return tr(lang, "Buy a {goods} goods train ({train}) for {price}", goods=a["variant"], train=a["train"],
                      price=m(a["price"]))
        cid = operating.current(g)
        if kind == "buy_train" and cid and a.get("price", 0) > g.corp(cid)["cash"] and not a.get("exchange"):
            # with loans; named by its id, as a new and a discarded train of one kind may both be offered
            taken = -(-(a["price"] - g.corp(cid)["cash"]) // g.title.loans["received"])
            return tr(lang, "Buy a {name}-train ({train}) for {price} ({loans})", name=a["train"].rpartition("-")[0],
                      train=a["train"], price=m(a["price"]),
                      loans=say(plural(taken, "taking {n} loan", "taking {n} loans"), lang))
        if kind == "pass" and r["step"] == "track" and not r.get("offer"):
            return tr(lang, "Done laying track") if r.get("lays") else tr(lang, "Pass: lay no tile")
    return base.move_text(g, a, names, lang)


def corp_extra(g: G, cid: str, lang: str = "en") -> str | None:
    """What a 1807 corporation's line adds: its kind (minor, public company, system) and its loans."""
    held = loans.held(g, cid)
    kind = word(KINDS, g.cdef(cid).kind, lang)
    carried = [f"{t} {goods.goods_name(g, t)}" for t in g.corp(cid)["trains"] if goods.is_goods(g, t)]
    return (kind + (", " + say(plural(held, "{n} loan", "{n} loans"), lang) if held else "")
            + (", " + tr(lang, "goods trains: {trains}", trains=listing(carried, lang)) if carried else ""))
