"""The 18xx presenter: the table message, the narration of every action, what a player must do, and the pictures,
each in the language it is given (the table's for the channel, the player's for what they alone read)."""
from __future__ import annotations

import json
import threading
from collections import OrderedDict
from typing import Any

import discord

from bot.i18n import say, tr
from bot.present import Presenter
from bot.tables import Change, Table
from cogs.e18xx.common import LATELY, STEP_WORDS
from cogs.e18xx.map_region import changed_focus, region_png
from cogs.e18xx.panel import entries_for, layout
from cogs.e18xx.words import (
    event_line,
    full_name,
    holdings,
    legal_moves,
    listing,
    money,
    move_label,
    name_of,
    offer_text,
    phase_text,
    priority_seat,
    private_name,
    private_title,
    seat_names,
    step_token,
    title_words,
    tokens_left,
    who,
)
from engines.e18xx import auction, operating, privates, stock, trains
from engines.e18xx.companies import IPO, POOL
from engines.e18xx.route_text import train_name
from engines.e18xx.state import G


# --- the presenter --------------------------------------------------------------------------------------------
class E18xxPresenter(Presenter):
    def public_lines(self, table: Table, lang: str = "en") -> list[str]:
        state, names = table.state, seat_names(table)
        g = G(state)
        lines = self._round_lines(g, names, lang)
        aw = set(table.engine.awaiting(state).seats)
        for seat in range(g.n):
            lines.append(self._player_line(g, seat, names, "▶ " if seat in aw else "", lang))
        started, idle = [], []
        own = title_words(g)
        own_line = getattr(own, "corp_line", None)
        for cid, c in state["corps"].items():
            if g.cdef(cid).kind == "national" or c.get("closed"):
                continue  # 1867's CN only holds tokens; a closed minor is gone
            if own_line is not None and (line := own_line(g, cid, names, lang)) is not None:
                if line:  # a title's own line (1890's minors, at a fixed price, first in the operating order)
                    lines.append(line)
                continue
            (started if g.cell(cid) is not None else idle).append(cid)
        for cid in g.operating_order(started):
            lines.append(self._corp_line(g, cid, names, lang))
        if idle:
            lines.append(tr(lang, "Not started: {cids}.", cids=listing(idle, lang)))
        lines.append(self._bank_line(g, lang))
        if state["events"]:
            lines.append(tr(lang, "**Lately:**"))
            lines += [f"· {event_line(e, names, lang)}" for e in state["events"][-LATELY:]]
        scores = table.engine.scores(state)
        if scores is not None:
            lines.append(self._final_line(g, scores, names, lang))
        return lines

    @staticmethod
    def _round_lines(g: G, names: list[str], lang: str = "en", titled: bool = True) -> list[str]:
        """The round's lines: the title's words first (unless `titled` is False: a title's hook asking for the
        shared lines to add to them), else the shared words (1889's)."""
        r = g.round
        kind = r["kind"]

        def m(amount: int) -> str:
            return money(g, amount, lang)

        own = title_words(g) if titled else None
        if own is not None and (lines := own.round_lines(g, names, lang)) is not None:
            return lines
        prio = tr(lang, "priority deal: {who}", who=who(names, priority_seat(g), lang))
        phase = phase_text(g, lang)
        if kind == "auction":
            lines = [tr(lang, "**Private auction** · {phase} · {priority}", phase=phase, priority=prio)]
            parts = []
            for i, pid in enumerate(auction.unsold(g)):
                private = private_name(g, pid, lang)
                text = (f"{private} {m(auction.price_now(g, pid))}" if i == 0
                        else tr(lang, "{private} from {price}", private=private, price=m(auction.min_bid(g, pid))))
                bids = r["bids"].get(pid, [])
                if bids:
                    text += " " + tr(lang, "(bids: {bids})",
                                     bids=", ".join(f"{who(names, s, lang)} {m(p)}" for s, p in bids))
                parts.append(text)
            lines.append(tr(lang, "For sale: {privates}", privates=" · ".join(parts)))
            if r["auctioning"]:
                lines.append(tr(lang, "**Auction** of {private}: the lowest bidder raises or drops out.",
                                private=private_name(g, r["auctioning"], lang)))
            return lines
        if kind == "stock":
            return [tr(lang, "**Stock round {turn}** · {phase} · {priority} · {who} to act", turn=r["turn"],
                       phase=phase, priority=prio, who=who(names, stock.acting(g), lang))]
        if kind == "operating":
            cid = operating.current(g)
            order = listing([f"▶{c}" if c == cid else c for c in r["order"]], lang) or tr(lang, "none floated")
            lines = [tr(lang, "**Operating round {turn}.{n} of {of}** · {phase} · {priority}", turn=r["turn"],
                        n=r["or"], of=r["of"], phase=phase, priority=prio),
                     tr(lang, "Order: {order}", order=order)]
            crowd = trains.crowded(g)
            if crowd:
                lines.append(tr(lang, "{cids} must discard down to {n} trains.", cids=", ".join(crowd),
                                n=trains.train_limit(g, crowd[0])))
            elif r.get("offer"):
                lines.append(tr(lang, "**{cid}** waits: {offer}", cid=r["offer"]["corporation"],
                                offer=offer_text(g, r["offer"], names, lang, priced=g.rules.trade_price_public(g))))
            elif r["special"]:
                sp = r["special"]
                lines.append(tr(lang, "{who} may lay {private}'s tile.", who=who(names, sp["seat"], lang),
                                private=private_title(g, sp["company"], lang)))
            elif cid:
                step = tr(lang, STEP_WORDS[r["step"]]) if r["step"] in STEP_WORDS else r["step"]
                if r["step"] == "dividend":
                    step += f" {m(r['revenue'] or 0)}"
                text = tr(lang, "**{cid}** operates (president {who}): {step}", cid=cid,
                          who=who(names, g.president(cid), lang), step=step)
                if r["revenue"] and r["step"] != "dividend":
                    text += " · " + tr(lang, "ran for {revenue}", revenue=m(r["revenue"]))
                lines.append(text)
            return lines
        if kind == "over":
            reason = r.get("reason")
            why = {"bank": tr(lang, "the bank broke"), "bankrupt": tr(lang, "a player went bankrupt"),
                   "manually_ended": tr(lang, "the players ended it"),
                   "final_phase": tr(lang, "the last set of operating rounds is over"),
                   "top_price": tr(lang, "a share price reached the top of the market")}.get(reason, str(reason))
            return [tr(lang, "**The game is over:** {why}.", why=why)]
        return [f"**{kind.capitalize()}**"]

    @staticmethod
    def _player_line(g: G, seat: int, names: list[str], mark: str, lang: str = "en") -> str:
        if not g.rules.cash_public(g):  # 1890's hidden cash: neither the cash nor the worth that gives it away
            return " · ".join([f"{mark}**{who(names, seat, lang)}**", *holdings(g, seat, lang, worth=False)])
        return " · ".join([f"{mark}**{who(names, seat, lang)}** {money(g, g.s['cash'][seat], lang)}",
                           *holdings(g, seat, lang)])

    @staticmethod
    def _corp_line(g: G, cid: str, names: list[str], lang: str = "en") -> str:
        c = g.corp(cid)

        def m(amount: int) -> str:
            return money(g, amount, lang)

        parts = [tr(lang, "**{cid}** {price} (par {par})", cid=cid, price=m(g.price(cid)), par=m(c["par"])),
                 *([tr(lang, "treasury {cash}", cash=m(c["cash"]))] if g.rules.treasuries_public(g) else []),
                 tr(lang, "trains {trains}", trains=", ".join(train_name(t) for t in c["trains"]) or tr(lang, "none")),
                 tokens_left(g.rules.tokens_left(g, cid)[0], lang),
                 tr(lang, "pres. {who}", who=who(names, g.president(cid), lang))]
        ipo, pool = g.percent(cid, IPO), g.percent(cid, POOL)
        if ipo or pool:
            parts.append(tr(lang, "IPO {ipo}% · pool {pool}%", ipo=ipo, pool=pool))
        owned = g.privates_of(cid)
        if owned:
            parts.append(tr(lang, "owns {privates}", privates=listing(owned, lang)))
        if not c["floated"]:
            parts.append(tr(lang, "not floated"))
        own = title_words(g)
        if own is not None and (extra := own.corp_extra(g, cid, lang)):
            parts.insert(1, extra)
        return " · ".join(parts)

    @staticmethod
    def _bank_line(g: G, lang: str = "en") -> str:
        depot = g.s["depot"]
        offer = ", ".join(f"{train_name(t)} {money(g, trains.list_price(g, t), lang)}" for t in trains.depot_offer(g))
        counts: dict[str, int] = {}
        for t in depot["trains"]:
            counts[train_name(t)] = counts.get(train_name(t), 0) + 1
        left = ", ".join(n if g.title.train(n).count is None else f"{n}×{k}" for n, k in counts.items())
        bank = money(g, g.s["bank"], lang)
        text = tr(lang, "Bank {cash} (broken)", cash=bank) if g.s["bank_broken"] else tr(lang, "Bank {cash}",
                                                                                          cash=bank)
        if not (g.rules.cash_public(g) and g.rules.treasuries_public(g)):  # 1890's hidden cash or treasuries
            text = tr(lang, "Bank (broken)") if g.s["bank_broken"] else tr(lang, "Bank")
        return text + " · " + tr(lang, "trains for sale: {offer} · still to come: {left}",
                                 offer=offer or tr(lang, "none"), left=left or tr(lang, "none"))

    @staticmethod
    def _final_line(g: G, scores: list[int], names: list[str], lang: str = "en") -> str:
        ranked = sorted(range(len(scores)), key=lambda s: -scores[s])
        parts = []
        for i, seat in enumerate(ranked, 1):
            cash = g.s["cash"][seat]
            faces = sum(g.s["privates"][p]["value"] for p in g.privates_of(g.key(seat)))
            parts.append(tr(lang, "{rank}. {who} {score} (cash {cash}, shares {shares}, privates {privates})", rank=i,
                            who=who(names, seat, lang), score=money(g, scores[seat], lang),
                            cash=money(g, cash, lang), shares=money(g, scores[seat] - cash - faces, lang),
                            privates=money(g, faces, lang)))
        return tr(lang, "**Final scores:** {scores}", scores=" · ".join(parts))

    def private_lines(self, table: Table, seat: int, lang: str = "en") -> list[str]:
        state, names = table.state, seat_names(table)
        g = G(state)
        lines = [" · ".join([tr(lang, "You: **{cash}**", cash=money(g, g.s["cash"][seat], lang)),
                             *holdings(g, seat, lang)])]
        led = [cid for cid in g.s["corps"] if g.president(cid) == seat]
        if led:
            lines.append(tr(lang, "You preside {cids}.", cids=", ".join(
                tr(lang, "{cid} (treasury {cash})", cid=cid, cash=money(g, g.corp(cid)["cash"], lang))
                for cid in led)))
        known = [t for t in g.s.get("secret_trades", []) if seat in t["seats"]][-3:]
        if known and not g.rules.trade_price_public(g):  # 1890's hidden train prices: what the presidents know
            lines.append(tr(lang, "Prices only the presidents know: {trades}.", trades=", ".join(
                tr(lang, "{cid} bought a {train}-train from {seller} for {price}", cid=t["corp"],
                   train=train_name(t["train"]), seller=t["seller"], price=money(g, t["price"], lang))
                for t in known)))
        if table.engine.scores(state) is not None:
            return lines
        aw = table.engine.awaiting(state)
        if seat in aw.seats:
            lines.append(todo(g, seat, names, lang))
        else:
            waiting = ", ".join(who(names, s, lang) for s in sorted(aw.seats)) or tr(lang, "chance")
            prompt = say(aw.prompt, lang) if aw.prompt else tr(lang, "a draw")
            lines.append(tr(lang, "Waiting for {who}: {prompt}.", who=waiting, prompt=prompt))
            if legal_moves(table, seat):
                lines.append(tr(lang, "You may still use your private company below."))
        return lines

    def move_label(self, table: Table, action: dict[str, Any], lang: str = "en") -> str:
        return move_label(table, action, lang)

    def announce(self, change: Change, lang: str = "en") -> list[tuple[str, bytes | None]]:
        """The new events as one post, with one picture when it says something: the map after a tile or token
        is laid (on a big map, the part around what changed, then the whole map in a second post); the market at
        the end of each stock round and of each operating round (whose dividends moved the prices; one picture a
        round rather than one a corporation); and the map, the market and the charters (three posts) at the end of
        the game."""
        table = change.table
        after, before = table.state, change.before
        names = seat_names(table)
        gid = table.game.id
        seen = before["event_no"] if before else 0
        lines = [event_line(e, names, lang) for e in after["events"] if e["no"] > seen]
        ended = bool(after["over"]) and not (before and before["over"])
        picture = whole = None
        if ended:
            picture = map_png(after, lang)
        elif before is not None:
            kinds = {a.get("type") for _, _, a in change.entries}
            if kinds & {"lay_tile", "place_token"} and before["board"] != after["board"]:
                drawn = map_image(after, lang)  # the whole map, and the part that changed cut out of it
                picture = region_png(after, changed_focus(before, after), lang, whole=drawn)
                if picture is None:
                    picture = map_png(after, lang, drawn)
                else:
                    whole = map_png(after, lang, drawn)
            elif round_ended(before, after):
                picture = market_png(after, lang)
        if not lines and picture is None:
            return []
        text = "\n".join(lines) or tr(lang, "The map now.")
        while len(text) > 1900 and "\n" in text:  # keep the latest events
            text = "…" + text.split("\n", 1)[1]
        posts = [(tr(lang, "Table {id}: {text}", id=gid, text=text)[:2000], picture)]
        if whole is not None:  # a big map: the part that changed above, the whole map below it
            posts.append((tr(lang, "Table {id}: the whole map.", id=gid), whole))
        if ended:
            posts.append((tr(lang, "Table {id}: the stock market at the end.", id=gid), market_png(after, lang)))
            posts.append((tr(lang, "Table {id}: the corporations at the end.", id=gid),
                          charters_png(after, names, lang)))
        return posts

    def move_view(self, table: Table, seat: int, lang: str = "en"):
        entries = entries_for(table, seat, lang)
        if not entries:
            return None
        view = discord.ui.View(timeout=None)
        layout(view, table.game.id, step_token(table.state), entries, G(table.state), lang=lang)
        return view


def round_ended(before: dict[str, Any], after: dict[str, Any]) -> bool:
    """A stock or operating round ended between these states."""
    a, b = before["round"], after["round"]
    if a["kind"] not in ("stock", "operating"):
        return False
    return a["kind"] != b["kind"] or (a.get("turn"), a.get("or")) != (b.get("turn"), b.get("or"))


def todo(g: G, seat: int, names: list[str], lang: str = "en") -> str:
    """What the awaited seat must do now, in a sentence."""
    r = g.round

    def m(amount: int) -> str:
        return money(g, amount, lang)

    own = title_words(g)
    if own is not None and (text := own.todo(g, seat, names, lang)) is not None:
        return text
    if r["kind"] == "auction":
        if r["auctioning"]:
            pid = r["auctioning"]
            return tr(lang, "**Your move:** raise your bid for {private} (at least {price}) or drop out.",
                      private=private_name(g, pid, lang), price=m(auction.min_bid(g, pid)))
        first = auction.unsold(g)[0]
        return tr(lang, "**Your move:** buy {private} for {price}, bid on a dearer private ({step} over its value or "
                        "the best bid), or pass. `/18xx bid` names any amount.",
                  private=private_name(g, first, lang), price=m(auction.price_now(g, first)), step=m(5))
    if r["kind"] == "stock":
        if r["did"]:
            return tr(lang, "**Your move:** you may still sell (or buy, if you have not), or end your turn.")
        if stock.may_sell_now(g):
            return tr(lang, "**Your move:** buy a share, start a corporation (par), sell, or pass.")
        return tr(lang, "**Your move:** buy a share, start a corporation (par), or pass.")
    crowd = trains.crowded(g)
    if crowd:
        mine = [c for c in crowd if g.president(c) == seat]
        return tr(lang, "**Your move** as president of {cids}: discard trains down to the limit of {n}.",
                  cids=", ".join(mine), n=trains.train_limit(g, (mine or crowd)[0]))
    offer = r.get("offer")
    if offer:
        if seat == offer["seller_seat"]:
            return tr(lang, "**Your move:** {offer}, if you agree: accept or decline.",
                      offer=offer_text(g, offer, names, lang))
        return tr(lang, "**Your move:** wait for an answer to your offer ({offer}), or withdraw it.",
                  offer=offer_text(g, offer, names, lang))
    if r.get("special"):
        pid = r["special"]["company"]
        return tr(lang, "**Your move:** lay {private}'s green tile (you pay its cost), or pass.",
                  private=private_title(g, pid, lang))
    cid = operating.current(g)
    if cid is None or g.president(cid) != seat:
        return tr(lang, "**Your move:** use your private company, or wait.")
    c = g.corp(cid)
    values = {"cid": cid, "cash": m(c["cash"])}
    step = r["step"]
    if step == "track":
        mf = privates.mf_pending(g, cid)
        if r["laid"]:
            if mf:
                return tr(lang, "**Your move** as president of {cid} (treasury {cash}): lay your port tile (Mitsubishi "
                                "Ferry's port tile too) or pass.", **values)
            return tr(lang, "**Your move** as president of {cid} (treasury {cash}): lay your port tile or pass.",
                      **values)
        if mf:
            return tr(lang, "**Your move** as president of {cid} (treasury {cash}): lay or upgrade a tile (Mitsubishi "
                            "Ferry's port tile too), or pass. `/18xx lay` suggests hexes, tiles and rotations.",
                      **values)
        return tr(lang, "**Your move** as president of {cid} (treasury {cash}): lay or upgrade a tile, or pass. "
                        "`/18xx lay` suggests hexes, tiles and rotations.", **values)
    if step == "token":
        return tr(lang, "**Your move** as president of {cid} (treasury {cash}): place a token for {price}, or pass.",
                  price=m(operating.next_token_cost(g, cid) or 0), **values)
    if step == "routes":
        return tr(lang, "**Your move** as president of {cid} (treasury {cash}): run the trains ({trains}). `/18xx run` "
                        "shows the auto-router's best runs; `routes:` names your own.",
                  trains=", ".join(train_name(t) for t in c["trains"]), **values)
    if step == "dividend":
        rev = r["revenue"] or 0
        return tr(lang, "**Your move** as president of {cid} (treasury {cash}): pay out {revenue} ({per} a share) or "
                        "withhold it.", revenue=m(rev), per=m(rev // 10), **values)
    if step == "trains":
        if trains.emergency(g, cid):
            return tr(lang, "**Your move** as president of {cid} (treasury {cash}): {cid} has no train and must buy "
                            "one; you add what the treasury lacks, selling shares if you must.", **values)
        if trains.must_buy(g, cid):
            return tr(lang, "**Your move** as president of {cid} (treasury {cash}): {cid} has no train and must buy "
                            "one.", **values)
        return tr(lang, "**Your move** as president of {cid} (treasury {cash}): buy trains, or pass.", **values)
    if step == "companies":
        return tr(lang, "**Your move** as president of {cid} (treasury {cash}): buy a private company from you, or "
                        "pass.", **values)
    return tr(lang, "**Your move** as president of {cid} (treasury {cash}): make your choice.", **values)


# --- pictures ---------------------------------------------------------------------------------------------------
#: The last maps drawn, by board: a lay's narration draws the whole map, and every player who then asks for the map
#: (or a second narration of the same board) gets that picture without it being drawn again (0.1-0.4 s on 1807's).
MAPS_KEPT = 8
_maps: OrderedDict[tuple[str, str, str], bytes] = OrderedDict()  # (title, language, options and board) -> PNG
_maps_lock = threading.Lock()  # narration draws in a worker thread


def map_image(state: dict[str, Any], lang: str = "en"):
    """The whole map's picture, not yet a PNG (pictures.map_image)."""
    from cogs.e18xx.pictures import corp_colours
    from cogs.e18xx.pictures import map_image as draw

    return draw(G(state).board, corp_colours=corp_colours(state["title"]), lang=lang)


def map_png(state: dict[str, Any], lang: str = "en", drawn=None) -> bytes:
    """The whole map as a PNG; `drawn`: its map_image, when the caller has drawn it already."""
    from cogs.e18xx.pictures import corp_colours, png, render_map

    g = G(state)
    # what the picture is drawn from: the map (the title and its options: 1890's Kinki variant moves homes), the
    # board, the language
    key = (state["title"], lang, json.dumps([state.get("opts", {}), state["board"]], sort_keys=True,
                                            separators=(",", ":")))
    with _maps_lock:
        if key in _maps:
            _maps.move_to_end(key)
            return _maps[key]
    picture = png(drawn) if drawn is not None else render_map(g.board, corp_colours=corp_colours(state["title"]),
                                                               lang=lang)
    with _maps_lock:
        _maps[key] = picture
        while len(_maps) > MAPS_KEPT:
            _maps.popitem(last=False)
    return picture


def market_png(state: dict[str, Any], lang: str = "en") -> bytes:
    from cogs.e18xx.pictures import corp_colours, render_market

    return render_market(G(state).title.market, state["market"], corp_colours(state["title"]), lang=lang)


def charter_dicts(state: dict[str, Any], names: list[str], lang: str = "en") -> list[dict[str, Any]]:
    g = G(state)
    out = []
    for cdef in g.title.corporations:
        c = g.corp(cdef.id)
        if c.get("closed"):
            continue  # 1867: a minor merged away or nationalised
        cell = g.cell(cdef.id)
        left, total = g.rules.tokens_left(g, cdef.id)
        out.append({"id": cdef.id, "name": name_of(full_name(cdef), lang), "colour": cdef.color,
                    "text_colour": cdef.text_color,
                    "cash": c["cash"] if g.rules.treasuries_public(g) else None,  # None: "-" (1890's variant)
                    "trains": [train_name(t) for t in c["trains"]],
                    "tokens_left": left, "tokens_total": total,
                    "president": who(names, g.president(cdef.id), lang) if c["president"] is not None else None,
                    "price": cell.price if cell else None, "floated": c["floated"],
                    "privates": g.privates_of(cdef.id), "kind": cdef.kind, "loans": c.get("loans", 0),
                    "closed": bool(c.get("closed"))})
        own = title_words(g)
        if own is not None and hasattr(own, "charter"):
            own.charter(g, cdef.id, out[-1], lang)  # 1890: a minor's fixed price, said as such
    return out


def charters_png(state: dict[str, Any], names: list[str], lang: str = "en") -> bytes:
    from cogs.e18xx.pictures import render_charters
    from cogs.e18xx.words import CURRENCY

    g = G(state)
    cur = g.title.currency
    return render_charters(charter_dicts(state, names, lang), currency=cur, lang=lang,
                           money_kind=CURRENCY.get(cur))
