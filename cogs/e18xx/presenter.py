"""The 18xx presenter: the table message, the narration of every action, what a player must do, and the pictures."""
from __future__ import annotations

from typing import Any

import discord

from bot.present import Presenter
from bot.tables import Change, Table
from cogs.e18xx.common import LATELY, STEP_WORDS
from cogs.e18xx.panel import entries_for, layout
from cogs.e18xx.words import (
    event_line,
    holdings,
    legal_moves,
    move_label,
    offer_text,
    phase_text,
    priority_seat,
    private_name,
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
        lines = self._round_lines(g, names)
        aw = set(table.engine.awaiting(state).seats)
        for seat in range(g.n):
            lines.append(self._player_line(g, seat, names, "▶ " if seat in aw else ""))
        started, idle = [], []
        for cid, c in state["corps"].items():
            if g.cdef(cid).kind == "national" or c.get("closed"):
                continue  # 1867's CN only holds tokens; a closed minor is gone
            (started if g.cell(cid) is not None else idle).append(cid)
        for cid in g.operating_order(started):
            lines.append(self._corp_line(g, cid, names))
        if idle:
            lines.append(f"Not started: {', '.join(idle)}.")
        lines.append(self._bank_line(g))
        if state["events"]:
            lines.append("**Lately:**")
            lines += [f"· {event_line(e, names)}" for e in state["events"][-LATELY:]]
        scores = table.engine.scores(state)
        if scores is not None:
            lines.append(self._final_line(g, scores, names))
        return lines

    @staticmethod
    def _round_lines(g: G, names: list[str]) -> list[str]:
        r, money = g.round, g.money
        kind = r["kind"]
        own = title_words(g)
        if own is not None and (lines := own.round_lines(g, names)) is not None:
            return lines
        prio = f"priority deal: {who(names, priority_seat(g))}"
        if kind == "auction":
            lines = [f"**Private auction** · {phase_text(g)} · {prio}"]
            parts = []
            for i, pid in enumerate(auction.unsold(g)):
                text = (f"{private_name(g, pid)} {money(auction.price_now(g, pid))}" if i == 0
                        else f"{private_name(g, pid)} from {money(auction.min_bid(g, pid))}")
                bids = r["bids"].get(pid, [])
                if bids:
                    text += " (bids: " + ", ".join(f"{who(names, s)} {money(p)}" for s, p in bids) + ")"
                parts.append(text)
            lines.append("For sale: " + " · ".join(parts))
            if r["auctioning"]:
                lines.append(f"**Auction** of {private_name(g, r['auctioning'])}: the lowest bidder raises or drops "
                             "out.")
            return lines
        if kind == "stock":
            return [f"**Stock round {r['turn']}** · {phase_text(g)} · {prio} · "
                    f"{who(names, stock.acting(g))} to act"]
        if kind == "operating":
            cid = operating.current(g)
            order = ", ".join(f"▶{c}" if c == cid else c for c in r["order"]) or "none floated"
            lines = [f"**Operating round {r['turn']}.{r['or']} of {r['of']}** · {phase_text(g)} · {prio}",
                     f"Order: {order}"]
            crowd = trains.crowded(g)
            if crowd:
                lines.append(f"{', '.join(crowd)} must discard down to {trains.train_limit(g, crowd[0])} trains.")
            elif r.get("offer"):
                lines.append(f"**{r['offer']['corporation']}** waits: {offer_text(g, r['offer'], names)}")
            elif r["special"]:
                sp = r["special"]
                lines.append(f"{who(names, sp['seat'])} may lay {g.pdef(sp['company']).name}'s tile.")
            elif cid:
                step = STEP_WORDS.get(r["step"], r["step"])
                if r["step"] == "dividend":
                    step += f" {money(r['revenue'] or 0)}"
                lines.append(f"**{cid}** operates (president {who(names, g.president(cid))}): {step}"
                             + (f" · ran for {money(r['revenue'])}" if r["revenue"] and r["step"] != "dividend"
                                else ""))
            return lines
        if kind == "over":
            why = {"bank": "the bank broke", "bankrupt": "a player went bankrupt",
                   "manually_ended": "the players ended it"}.get(r.get("reason"), str(r.get("reason")))
            return [f"**The game is over:** {why}."]
        return [f"**{kind.capitalize()}**"]

    @staticmethod
    def _player_line(g: G, seat: int, names: list[str], mark: str) -> str:
        return " · ".join([f"{mark}**{who(names, seat)}** {g.money(g.s['cash'][seat])}", *holdings(g, seat)])

    @staticmethod
    def _corp_line(g: G, cid: str, names: list[str]) -> str:
        c, money = g.corp(cid), g.money
        parts = [f"**{cid}** {money(g.price(cid))} (par {money(c['par'])})", f"treasury {money(c['cash'])}",
                 "trains " + (", ".join(train_name(t) for t in c["trains"]) or "none"),
                 tokens_left(g.rules.tokens_left(g, cid)[0]),
                 f"pres. {who(names, g.president(cid))}"]
        ipo, pool = g.percent(cid, IPO), g.percent(cid, POOL)
        if ipo or pool:
            parts.append(f"IPO {ipo}% · pool {pool}%")
        owned = g.privates_of(cid)
        if owned:
            parts.append("owns " + ", ".join(owned))
        if not c["floated"]:
            parts.append("not floated")
        own = title_words(g)
        if own is not None and (extra := own.corp_extra(g, cid)):
            parts.insert(1, extra)
        return " · ".join(parts)

    @staticmethod
    def _bank_line(g: G) -> str:
        depot = g.s["depot"]
        offer = ", ".join(f"{train_name(t)} {g.money(trains.list_price(g, t))}" for t in trains.depot_offer(g))
        counts: dict[str, int] = {}
        for t in depot["trains"]:
            counts[train_name(t)] = counts.get(train_name(t), 0) + 1
        left = ", ".join(n if g.title.train(n).count is None else f"{n}×{k}" for n, k in counts.items())
        text = f"Bank {g.money(g.s['bank'])}" + (" (broken)" if g.s["bank_broken"] else "")
        return text + f" · trains for sale: {offer or 'none'} · still to come: {left or 'none'}"

    @staticmethod
    def _final_line(g: G, scores: list[int], names: list[str]) -> str:
        ranked = sorted(range(len(scores)), key=lambda s: -scores[s])
        parts = []
        for i, seat in enumerate(ranked, 1):
            cash = g.s["cash"][seat]
            faces = sum(g.s["privates"][p]["value"] for p in g.privates_of(g.key(seat)))
            parts.append(f"{i}. {who(names, seat)} {g.money(scores[seat])} (cash {g.money(cash)}, shares "
                         f"{g.money(scores[seat] - cash - faces)}, privates {g.money(faces)})")
        return "**Final scores:** " + " · ".join(parts)

    def private_lines(self, table: Table, seat: int, lang: str = "en") -> list[str]:
        state, names = table.state, seat_names(table)
        g = G(state)
        lines = [" · ".join([f"You: **{g.money(g.s['cash'][seat])}**", *holdings(g, seat)])]
        led = [cid for cid in g.s["corps"] if g.president(cid) == seat]
        if led:
            lines.append("You preside " + ", ".join(f"{cid} (treasury {g.money(g.corp(cid)['cash'])})"
                                                    for cid in led) + ".")
        if table.engine.scores(state) is not None:
            return lines
        aw = table.engine.awaiting(state)
        if seat in aw.seats:
            lines.append(todo(g, seat, names))
        else:
            waiting = ", ".join(who(names, s) for s in sorted(aw.seats)) or "chance"
            lines.append(f"Waiting for {waiting}: {aw.prompt or 'a draw'}.")
            if legal_moves(table, seat):
                lines.append("You may still use your private company below.")
        return lines

    def move_label(self, table: Table, action: dict[str, Any], lang: str = "en") -> str:
        return move_label(table, action)

    def announce(self, change: Change, lang: str = "en") -> list[tuple[str, bytes | None]]:
        """The new events as one post, with one picture when it says something: the map after a tile or token
        is laid; the market at the end of each stock round and of each operating round (whose dividends moved
        the prices; one picture a round rather than one a corporation); and the map, the market and the
        charters (three posts) at the end of the game."""
        table = change.table
        after, before = table.state, change.before
        names = seat_names(table)
        gid = table.game.id
        seen = before["event_no"] if before else 0
        lines = [event_line(e, names) for e in after["events"] if e["no"] > seen]
        ended = bool(after["over"]) and not (before and before["over"])
        picture = None
        if ended:
            picture = map_png(after)
        elif before is not None:
            kinds = {a.get("type") for _, _, a in change.entries}
            if kinds & {"lay_tile", "place_token"} and before["board"] != after["board"]:
                picture = map_png(after)
            elif round_ended(before, after):
                picture = market_png(after)
        if not lines and picture is None:
            return []
        text = "\n".join(lines) or "The map now."
        while len(text) > 1900 and "\n" in text:  # keep the latest events
            text = "…" + text.split("\n", 1)[1]
        posts = [(f"Table {gid}: {text}"[:2000], picture)]
        if ended:
            posts.append((f"Table {gid}: the stock market at the end.", market_png(after)))
            posts.append((f"Table {gid}: the corporations at the end.", charters_png(after, names)))
        return posts

    def move_view(self, table: Table, seat: int, lang: str = "en"):
        entries = entries_for(table, seat)
        if not entries:
            return None
        view = discord.ui.View(timeout=None)
        layout(view, table.game.id, step_token(table.state), entries, G(table.state))
        return view


def round_ended(before: dict[str, Any], after: dict[str, Any]) -> bool:
    """A stock or operating round ended between these states."""
    a, b = before["round"], after["round"]
    if a["kind"] not in ("stock", "operating"):
        return False
    return a["kind"] != b["kind"] or (a.get("turn"), a.get("or")) != (b.get("turn"), b.get("or"))


def todo(g: G, seat: int, names: list[str]) -> str:
    """What the awaited seat must do now, in a sentence."""
    r, money = g.round, g.money
    own = title_words(g)
    if own is not None and (text := own.todo(g, seat, names)) is not None:
        return text
    if r["kind"] == "auction":
        if r["auctioning"]:
            pid = r["auctioning"]
            return (f"**Your move:** raise your bid for {private_name(g, pid)} (at least "
                    f"{money(auction.min_bid(g, pid))}) or drop out.")
        first = auction.unsold(g)[0]
        return (f"**Your move:** buy {private_name(g, first)} for {money(auction.price_now(g, first))}, bid on a "
                "dearer private (¥5 over its value or the best bid), or pass. `/18xx bid` names any amount.")
    if r["kind"] == "stock":
        if r["did"]:
            return "**Your move:** you may still sell (or buy, if you have not), or end your turn."
        sell = "" if not stock.may_sell_now(g) else ", sell"
        return f"**Your move:** buy a share, start a corporation (par){sell}, or pass."
    crowd = trains.crowded(g)
    if crowd:
        mine = [c for c in crowd if g.president(c) == seat]
        return (f"**Your move** as president of {', '.join(mine)}: discard trains down to the limit of "
                f"{trains.train_limit(g, (mine or crowd)[0])}.")
    offer = r.get("offer")
    if offer:
        if seat == offer["seller_seat"]:
            return f"**Your move:** {offer_text(g, offer, names)}, if you agree: accept or decline."
        return f"**Your move:** wait for an answer to your offer ({offer_text(g, offer, names)}), or withdraw it."
    if r["special"]:
        pid = r["special"]["company"]
        return f"**Your move:** lay {g.pdef(pid).name}'s green tile (you pay its cost), or pass."
    cid = operating.current(g)
    if cid is None or g.president(cid) != seat:
        return "**Your move:** use your private company, or wait."
    c = g.corp(cid)
    head = f"**Your move** as president of {cid} (treasury {money(c['cash'])}): "
    step = r["step"]
    if step == "track":
        extra = " (Mitsubishi Ferry's port tile too)" if privates.mf_pending(g, cid) else ""
        if r["laid"]:
            return head + f"lay your port tile{extra} or pass."
        return head + f"lay or upgrade a tile{extra}, or pass. `/18xx lay` suggests hexes, tiles and rotations."
    if step == "token":
        return head + f"place a token for {money(operating.next_token_cost(g, cid) or 0)}, or pass."
    if step == "routes":
        return (head + f"run the trains ({', '.join(train_name(t) for t in c['trains'])}). `/18xx run` shows the "
                "auto-router's best runs; `routes:` names your own.")
    if step == "dividend":
        rev = r["revenue"] or 0
        return head + f"pay out {money(rev)} ({money(rev // 10)} a share) or withhold it."
    if step == "trains":
        if trains.emergency(g, cid):
            return head + (f"{cid} has no train and must buy one; you add what the treasury lacks, selling shares "
                           "if you must.")
        if trains.must_buy(g, cid):
            return head + f"{cid} has no train and must buy one."
        return head + "buy trains, or pass."
    if step == "companies":
        return head + "buy a private company from you, or pass."
    return head + "make your choice."


# --- pictures ---------------------------------------------------------------------------------------------------
def map_png(state: dict[str, Any]) -> bytes:
    from cogs.e18xx.pictures import corp_colours, render_map

    return render_map(G(state).board, corp_colours=corp_colours(state["title"]))


def market_png(state: dict[str, Any]) -> bytes:
    from cogs.e18xx.pictures import corp_colours, render_market

    return render_market(G(state).title.market, state["market"], corp_colours(state["title"]))


def charter_dicts(state: dict[str, Any], names: list[str]) -> list[dict[str, Any]]:
    g = G(state)
    out = []
    for cdef in g.title.corporations:
        c = g.corp(cdef.id)
        if c.get("closed"):
            continue  # 1867: a minor merged away or nationalised
        cell = g.cell(cdef.id)
        left, total = g.rules.tokens_left(g, cdef.id)
        out.append({"id": cdef.id, "name": cdef.name, "colour": cdef.color, "text_colour": cdef.text_color,
                    "cash": c["cash"], "trains": [train_name(t) for t in c["trains"]],
                    "tokens_left": left, "tokens_total": total,
                    "president": who(names, g.president(cdef.id)) if c["president"] is not None else None,
                    "price": cell.price if cell else None, "floated": c["floated"],
                    "privates": g.privates_of(cdef.id), "kind": cdef.kind, "loans": c.get("loans", 0),
                    "closed": bool(c.get("closed"))})
    return out


def charters_png(state: dict[str, Any], names: list[str]) -> bytes:
    from cogs.e18xx.pictures import render_charters

    return render_charters(charter_dicts(state, names), currency=G(state).title.currency)
