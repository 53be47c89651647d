"""18xx in Discord, one cog for every 18xx title (today Shikoku 1889): the table in words, the narration of
every action, the map, market and charter pictures, the move panel and the ``/18xx`` commands.

Nothing is secret in an 18xx game, so a player's "hand" is a summary, what they must do now, and the panel.
The president of a corporation acts for it: the engine awaits the president's seat, and every message says
"as president of AR".

The panel's buttons and menus carry the move itself as compact JSON, or, when the JSON is too long for a
custom id (a route, a private's tile lay), ``#<index>`` into ``engine.legal`` of the same state. Either way the
custom id also holds a *step token*, a short hash of the whole state: a panel from any earlier state is
refused with a sentence only the clicker sees, so an old "Pass" can never be read in a later step, and an
index always means the move it was shown as. Many moves are grouped in menus by kind (bids, pars, shares,
lays, trains …); more than 25 tile lays become a menu of hexes that answers with the lays on the chosen hex;
when the groups do not fit Discord's five rows, one menu asks for the kind first.

``/18xx`` builds the same actions by name (bid, par, buy, sell, lay, token, run, dividend, buytrain,
buyprivate, pass), with autocomplete from ``engine.legal`` for the user's seat, shows the pictures
(map, market, charters) to the one who asks, and ``/18xx undo`` is ``/game undo``."""
from __future__ import annotations

import hashlib
import io
import json
import re
from collections import OrderedDict
from dataclasses import dataclass
from math import ceil
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import engines
from bot.errors import Refusal
from bot.interact import answer
from bot.items import number
from bot.move_items import JSON, PanelButton, PanelMenu, legal_move
from bot.move_items import STALE as STALE  # the sentence a stale panel gets, read by the tests
from bot.place import Place
from bot.present import Presenter, fill, register
from bot.table_ui import hand_reply
from bot.tables import Change, Table
from cogs.table import table_autocomplete
from engines.base import Engine
from engines.e18xx import auction, lays, operating, privates, stock, trains
from engines.e18xx.board import Board
from engines.e18xx.companies import IPO, POOL, SHARE_PERCENT, sale_bundles, sale_proceeds
from engines.e18xx.route import chains_from, route_from_connections, route_revenue
from engines.e18xx.route import train as route_train
from engines.e18xx.state import G

PER_MENU = 25  # Discord: options in a select menu
ROWS = 5  # Discord: rows in a message
PER_ROW = 5  # Discord: buttons in a row
FEW = 10  # up to this many moves, every move is a button
LABEL = 80  # Discord: a button's label (a menu option may have 100)
MAX_CODE = 72  # longest JSON carried in a custom id (100 in all with the prefix, table id and token)
TOKEN = r"[0-9a-f]{10}"
LATELY = 6  # events shown on the table message

STEP_WORDS = {"track": "lay track", "token": "place a token", "routes": "run trains", "dividend": "pay out or withhold",
              "trains": "buy trains", "companies": "buy a private company"}
GROUPS = {  # menu kinds: key -> what its menu asks
    "bid": "Bid for a private company", "par": "Start a corporation (par)", "buy": "Buy a share",
    "exchange": "Exchange a private for a share", "sell": "Sell shares", "lay": "Lay a tile",
    "token": "Place a token", "train": "Buy a train", "private": "Buy a private company",
    "discard": "Discard a train",
}
KIND_GROUP = {"bid": "bid", "par": "par", "sell_shares": "sell", "lay_tile": "lay", "place_token": "token",
              "buy_train": "train", "buy_company": "private", "discard_train": "discard"}


def e18xx_engines() -> list[Engine]:
    """Every 18xx title the bot knows: engines whose class lives in the engines.e18xx package."""
    return [e for e in engines.ENGINES.values() if type(e).__module__.startswith("engines.e18xx.")]


def is_18xx(name: str) -> bool:
    return name in {e.name for e in e18xx_engines()}


# --- words ----------------------------------------------------------------------------------------------------
def _names(table: Table) -> list[str]:
    return [s.name for s in table.game.in_seat_order()]


def _who(names: list[str], seat: int | str | None) -> str:
    if seat is None:
        return "nobody"
    seat = int(seat)
    return names[seat] if 0 <= seat < len(names) else f"seat {seat + 1}"


def event_line(event: dict[str, Any], names: list[str]) -> str:
    """An engine event with [0], [1] … replaced by the names of its seats."""
    return fill(event, lambda seat: _who(names, seat) if isinstance(seat, int) else "?")


def _cut(text: str, limit: int = LABEL) -> str:
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "…"


def train_name(train_id: str) -> str:
    return train_id.rpartition("-")[0] or train_id


def private_name(g: G, pid: str) -> str:
    return f"{g.pdef(pid).name} ({pid})"


def step_token(state: dict[str, Any]) -> str:
    """A short hash of the whole state: a panel is good only for the state it was made in."""
    text = json.dumps(state, sort_keys=True, separators=(",", ":"))
    return hashlib.blake2s(text.encode(), digest_size=5).hexdigest()


_LEGAL: OrderedDict[tuple[str, str, int], list[dict[str, Any]]] = OrderedDict()


def legal_moves(table: Table, seat: int, state: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """engine.legal, kept for the last few states (the routes step runs the auto-router)."""
    state = table.state if state is None else state
    key = (table.engine.name, step_token(state), seat)
    if key not in _LEGAL:
        _LEGAL[key] = table.engine.legal(state, seat)
        while len(_LEGAL) > 64:
            _LEGAL.popitem(last=False)
    _LEGAL.move_to_end(key)
    return _LEGAL[key]


def acting_corp(g: G, seat: int, action: dict[str, Any]) -> str | None:
    """The corporation a seat acts for with this action, if any (its president acts for it)."""
    r = g.round
    if r["kind"] != "operating" or g.s["over"]:
        return None
    if action.get("type") == "discard_train":
        return action.get("entity")
    if r["special"] or action.get("entity_type") == "company":
        return None
    cid = operating.current(g)
    return cid if cid and g.president(cid) == seat else None


def phase_text(g: G) -> str:
    p = g.phase
    return (f"phase {p.name}: {', '.join(p.tiles)} tiles, {p.train_limit} trains a corporation, "
            f"{p.operating_rounds} operating round{'s' if p.operating_rounds > 1 else ''} a set")


def priority_seat(g: G) -> int:
    """Who starts the next stock round, as things stand."""
    kind = g.round["kind"]
    if kind == "auction":
        return auction.priority_seat(g)
    if kind == "stock":
        return stock.priority_seat(g)
    return g.order[0]


def run_parts(g: G, action: dict[str, Any]) -> tuple[int, list[tuple[str, list[str], int]]] | None:
    """(total, [(train, stop hexes, revenue)]) of a run_routes action on the board, or None if it is not one."""
    board, total, parts = g.board, 0, []
    cid = operating.current(g) if g.round["kind"] == "operating" else None
    try:
        for x in action.get("routes", []):
            route = route_from_connections(board, x.get("connections") or [], corp=cid)
            revenue = route_revenue(board, route, route_train(x["train"]), g.colours)
            parts.append((x["train"], list(route.hexes), revenue))
            total += revenue
    except Exception:  # a route that does not follow track: the engine will say why when it is played
        return None
    return total, parts


def move_text(g: G, action: dict[str, Any], names: list[str], auto_run: bool = True) -> str:
    """A move in plain words, at most 80 characters."""
    return _cut(_move_text(g, action, names, auto_run))


def _move_text(g: G, a: dict[str, Any], names: list[str], auto_run: bool) -> str:
    kind, r, money = a.get("type"), g.round, g.money
    try:
        if kind == "pass":
            return _pass_text(g)
        if kind == "bid":
            pid, price = a["company"], a["price"]
            if r["kind"] == "auction" and r["auctioning"] == pid:
                return f"Raise to {money(price)} for {private_name(g, pid)}"
            if r["kind"] == "auction" and not r["auctioning"] and auction.unsold(g)[:1] == [pid]:
                return f"Buy {private_name(g, pid)} for {money(price)}"
            return f"Bid {money(price)} for {private_name(g, pid)}"
        if kind == "par":
            cid = a["corporation"]
            price = g.title.market.by_id(str(a["share_price"])).price
            pct = g.cdef(cid).president_percent
            return (f"Par {g.cdef(cid).name} ({cid}) at {money(price)}: "
                    f"{pct}% for {money(price * pct // SHARE_PERCENT)}")
        if kind == "buy_shares":
            cert = a["shares"][0]
            cid = cert.rpartition("_")[0]
            pct = g.cdef(cid).cert_percent(cert)
            if a.get("entity_type") == "company":
                return f"Exchange {private_name(g, a['entity'])} for a {pct}% share of {cid}"
            source = IPO if cert in g.corp(cid)["shares"].get(IPO, []) else POOL
            price = stock.share_price(g, cid, source) * pct // SHARE_PERCENT
            return f"Buy a {pct}% share of {cid} from the {'IPO' if source == IPO else 'pool'} ({money(price)})"
        if kind == "sell_shares":
            cid = a["shares"][0].rpartition("_")[0]
            pct = a.get("percent") or g.cdef(cid).bundle_percent(a["shares"])
            return f"Sell {pct}% of {cid} for {money(sale_proceeds(g.price(cid), pct))}"
        if kind == "lay_tile":
            where = g.map.place(a["hex"])
            if a.get("entity_type") == "company":
                cost = g.board.lay_cost(a["hex"], a["tile"], a["rotation"]) if r.get("special") else 0
                return (f"{g.pdef(a['entity']).name}: tile {a['tile']} on {where}, rotation {a['rotation']}"
                        + (f" ({money(cost)})" if cost else ""))
            cid = operating.current(g) if r["kind"] == "operating" else None
            cost = lays.lay_cost(g, cid, a["hex"], a["tile"], a["rotation"]) if cid else 0
            return f"Lay tile {a['tile']} on {where}, rotation {a['rotation']}" + (f" ({money(cost)})" if cost else "")
        if kind == "place_token":
            cid = operating.current(g)
            cost = operating.next_token_cost(g, cid) if cid else None
            cities = [n for n in g.board.tile(a["hex"]).nodes if n.kind == "city"]
            city = f", city {a.get('city', 0) + 1}" if len(cities) > 1 else ""
            return f"Place a token on {g.map.place(a['hex'])}{city}" + (f" for {money(cost)}" if cost else "")
        if kind == "run_routes":
            parts = run_parts(g, a)
            if parts is None:
                return "Run the trains on the routes given"
            total, runs = parts
            if not runs:
                return "Run no train (no route earns anything)"
            routes = ", ".join(f"{train_name(t)} {'-'.join(stops)}" for t, stops, _ in runs)
            return f"Run for {money(total)} ({'auto-router: ' if auto_run else ''}{routes})"
        if kind == "dividend":
            return _dividend_text(g, a.get("kind"))
        if kind == "buy_train":
            return _train_text(g, a, names)
        if kind == "buy_company":
            pid = a["company"]
            owner = g.s["privates"][pid]["owner"]
            return f"Buy {private_name(g, pid)} from {_who(names, owner)} for {money(a['price'])}"
        if kind == "discard_train":
            return f"{a['entity']} discards a {train_name(a['train'])}-train ({a['train']})"
        if kind == "bankrupt":
            return "Declare bankruptcy (the game ends)"
        if kind in ("accept_offer", "decline_offer", "withdraw_offer"):
            verb = {"accept_offer": "Accept", "decline_offer": "Decline", "withdraw_offer": "Withdraw"}[kind]
            return f"{verb}: {offer_text(g, r['offer'], names)}"
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        pass  # a move the state cannot describe (sent by hand): the engine's own words
    engine = next((e for e in e18xx_engines() if e.name == g.s["title"]), None)
    return engine.label(a) if engine else str(a.get("type", "a move"))


def offer_text(g: G, offer: dict[str, Any], names: list[str]) -> str:
    """What an offer buys, from whom, for how much."""
    buy, cid = offer["action"], offer["corporation"]
    if buy["type"] == "buy_train":
        seller = trains.owner_of_train(g, buy["train"])
        what = f"{seller}'s {train_name(buy['train'])}-train ({buy['train']})"
    else:
        what = f"{private_name(g, buy['company'])} from {_who(names, offer['seller_seat'])}"
    return f"{cid} buys {what} for {g.money(buy['price'])}"


def _pass_text(g: G) -> str:
    r = g.round
    if r["kind"] == "auction":
        return f"Drop out of the auction for {private_name(g, r['auctioning'])}" if r["auctioning"] else "Pass"
    if r["kind"] == "stock":
        return "Done: end your turn" if r["did"] else "Pass"
    if r["kind"] == "operating":
        if r["special"]:
            return f"Lay no tile with {g.pdef(r['special']['company']).name}"
        step = r["step"]
        if step == "track":
            return "Done: no port tile" if r["laid"] else "Pass: lay no tile"
        if step == "token":
            return "Pass: place no token"
        if step == "trains":
            return "Done buying trains" if g.corp(operating.current(g))["trains"] else "Pass: buy no train"
        if step == "companies":
            return "Pass: buy no private company"
    return "Pass"


def _dividend_text(g: G, kind: str | None) -> str:
    cid, revenue, money = operating.current(g), g.round["revenue"] or 0, g.money
    cell = g.cell(cid)
    if kind == "payout":
        after = g.title.market.after_payout(cell).price
        return f"Pay out {money(revenue)}: {money(revenue // 10)} a share, price {money(cell.price)} → {money(after)}"
    after = g.title.market.after_withhold(cell).price
    return f"Withhold {money(revenue)} in {cid}: price {money(cell.price)} → {money(after)}"


def _train_text(g: G, a: dict[str, Any], names: list[str]) -> str:
    train_id, price, exchange, money = a["train"], a["price"], a.get("exchange"), g.money
    seller = trains.owner_of_train(g, train_id)
    if seller is not None:
        return f"Buy {seller}'s {train_name(train_id)}-train ({train_id}) for {money(price)}"
    discarded = " discarded" if train_id in g.s["depot"]["discards"] else ""
    text = f"Buy a{discarded} {train_name(train_id)}-train for {money(price)}"
    if exchange:
        text += f", trading in {exchange}"
    cid = operating.current(g)
    if cid and price > g.corp(cid)["cash"]:
        text += f" (you add {money(price - g.corp(cid)['cash'])})"
    return text


def move_detail(g: G, a: dict[str, Any]) -> str | None:
    """A menu option's second line."""
    kind = a.get("type")
    try:
        if kind == "bid":
            p = g.s["privates"][a["company"]]
            return f"face value {g.money(p['value'])}, pays {g.money(p['revenue'])} each operating round"
        if kind == "par":
            return f"{g.cdef(a['corporation']).name} floats when 50% is sold; home {g.map.homes[a['corporation']]}"
        if kind == "buy_shares" and a.get("entity_type") != "company":
            cid = a["shares"][0].rpartition("_")[0]
            return f"{cid} at {g.money(g.price(cid))} (par {g.money(g.corp(cid)['par'])})"
        if kind == "lay_tile":
            tile = g.map.tiles[a["tile"]]
            old = g.board.tile(a["hex"])
            return f"{tile.colour} tile {a['tile']}" + (f" replacing {old.name}" if a["hex"] in g.board.laid else "")
    except (KeyError, IndexError, TypeError, ValueError):
        return None
    return None


def _tokens_left(n: int) -> str:
    return f"{n} token{'s' if n != 1 else ''} left"


def holdings(g: G, seat: int) -> list[str]:
    """A player's certificates, shares, privates and worth, as parts of a line."""
    key = g.key(seat)
    parts = [f"{g.cert_count(seat)}/{g.cert_limit} certificates"]
    shares = []
    for cid in g.s["corps"]:
        pct = g.percent(cid, key)
        if pct:
            shares.append(f"{cid} {pct}%" + (" (pres.)" if g.corp(cid)["president"] == key else ""))
    if shares:
        parts.append("shares " + ", ".join(shares))
    owned = g.privates_of(key)
    if owned:
        parts.append("privates " + ", ".join(owned))
    if seat in g.s["bankrupt"]:
        parts.append("bankrupt")
    parts.append(f"worth {g.money(g.value(seat))}")
    return parts


# --- the presenter --------------------------------------------------------------------------------------------
class E18xxPresenter(Presenter):
    def public_lines(self, table: Table) -> list[str]:
        state, names = table.state, _names(table)
        g = G(state)
        lines = self._round_lines(g, names)
        aw = set(table.engine.awaiting(state).seats)
        for seat in range(g.n):
            lines.append(self._player_line(g, seat, names, "▶ " if seat in aw else ""))
        started, idle = [], []
        for cid, c in state["corps"].items():
            (started if c["par"] is not None else idle).append(cid)
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
        prio = f"priority deal: {_who(names, priority_seat(g))}"
        if kind == "auction":
            lines = [f"**Private auction** · {phase_text(g)} · {prio}"]
            parts = []
            for i, pid in enumerate(auction.unsold(g)):
                text = (f"{private_name(g, pid)} {money(auction.price_now(g, pid))}" if i == 0
                        else f"{private_name(g, pid)} from {money(auction.min_bid(g, pid))}")
                bids = r["bids"].get(pid, [])
                if bids:
                    text += " (bids: " + ", ".join(f"{_who(names, s)} {money(p)}" for s, p in bids) + ")"
                parts.append(text)
            lines.append("For sale: " + " · ".join(parts))
            if r["auctioning"]:
                lines.append(f"**Auction** of {private_name(g, r['auctioning'])}: the lowest bidder raises or drops "
                             "out.")
            return lines
        if kind == "stock":
            return [f"**Stock round {r['turn']}** · {phase_text(g)} · {prio} · "
                    f"{_who(names, stock.acting(g))} to act"]
        if kind == "operating":
            cid = operating.current(g)
            order = ", ".join(f"▶{c}" if c == cid else c for c in r["order"]) or "none floated"
            lines = [f"**Operating round {r['turn']}.{r['or']} of {r['of']}** · {phase_text(g)} · {prio}",
                     f"Order: {order}"]
            crowd = trains.crowded(g)
            if crowd:
                lines.append(f"{', '.join(crowd)} must discard down to {trains.train_limit(g)} trains.")
            elif r.get("offer"):
                lines.append(f"**{r['offer']['corporation']}** waits: {offer_text(g, r['offer'], names)}")
            elif r["special"]:
                sp = r["special"]
                lines.append(f"{_who(names, sp['seat'])} may lay {g.pdef(sp['company']).name}'s tile.")
            elif cid:
                step = STEP_WORDS.get(r["step"], r["step"])
                if r["step"] == "dividend":
                    step += f" {money(r['revenue'] or 0)}"
                lines.append(f"**{cid}** operates (president {_who(names, g.president(cid))}): {step}"
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
        return " · ".join([f"{mark}**{_who(names, seat)}** {g.money(g.s['cash'][seat])}", *holdings(g, seat)])

    @staticmethod
    def _corp_line(g: G, cid: str, names: list[str]) -> str:
        c, money = g.corp(cid), g.money
        parts = [f"**{cid}** {money(g.price(cid))} (par {money(c['par'])})", f"treasury {money(c['cash'])}",
                 "trains " + (", ".join(train_name(t) for t in c["trains"]) or "none"),
                 _tokens_left(len(g.cdef(cid).tokens) - operating.tokens_used(g, cid)),
                 f"pres. {_who(names, g.president(cid))}"]
        ipo, pool = g.percent(cid, IPO), g.percent(cid, POOL)
        if ipo or pool:
            parts.append(f"IPO {ipo}% · pool {pool}%")
        owned = g.privates_of(cid)
        if owned:
            parts.append("owns " + ", ".join(owned))
        if not c["floated"]:
            parts.append("not floated")
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
            parts.append(f"{i}. {_who(names, seat)} {g.money(scores[seat])} (cash {g.money(cash)}, shares "
                         f"{g.money(scores[seat] - cash - faces)}, privates {g.money(faces)})")
        return "**Final scores:** " + " · ".join(parts)

    def private_lines(self, table: Table, seat: int) -> list[str]:
        state, names = table.state, _names(table)
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
            waiting = ", ".join(_who(names, s) for s in sorted(aw.seats)) or "chance"
            lines.append(f"Waiting for {waiting}: {aw.prompt or 'a draw'}.")
            if legal_moves(table, seat):
                lines.append("You may still use your private company below.")
        return lines

    def move_label(self, table: Table, action: dict[str, Any]) -> str:
        g = G(table.state)
        auto = True
        if action.get("type") == "run_routes":
            seats = table.engine.awaiting(table.state).seats
            auto = any(action in legal_moves(table, s) for s in seats)
        return move_text(g, action, _names(table), auto_run=auto)

    def announce(self, change: Change) -> list[tuple[str, bytes | None]]:
        """The new events as one post, with one picture when it says something: the map after a tile or token
        is laid; the market at the end of each stock round and of each operating round (whose dividends moved
        the prices; one picture a round rather than one a corporation); and the map, the market and the
        charters (three posts) at the end of the game."""
        table = change.table
        after, before = table.state, change.before
        names = _names(table)
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

    def move_view(self, table: Table, seat: int):
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
                f"{trains.train_limit(g)}.")
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
    from cogs.e18xx_pictures import corp_colours, render_map

    return render_map(G(state).board, corp_colours=corp_colours(state["title"]))


def market_png(state: dict[str, Any]) -> bytes:
    from cogs.e18xx_pictures import corp_colours, render_market

    return render_market(G(state).title.market, state["market"], corp_colours(state["title"]))


def charter_dicts(state: dict[str, Any], names: list[str]) -> list[dict[str, Any]]:
    g = G(state)
    out = []
    for cdef in g.title.corporations:
        c = g.corp(cdef.id)
        cell = g.cell(cdef.id)
        out.append({"id": cdef.id, "name": cdef.name, "colour": cdef.color, "text_colour": cdef.text_color,
                    "cash": c["cash"], "trains": [train_name(t) for t in c["trains"]],
                    "tokens_left": len(cdef.tokens) - operating.tokens_used(g, cdef.id),
                    "tokens_total": len(cdef.tokens),
                    "president": _who(names, g.president(cdef.id)) if c["president"] is not None else None,
                    "price": cell.price if cell else None, "floated": c["floated"],
                    "privates": g.privates_of(cdef.id)})
    return out


def charters_png(state: dict[str, Any], names: list[str]) -> bytes:
    from cogs.e18xx_pictures import render_charters

    return render_charters(charter_dicts(state, names), currency=G(state).title.currency)


# --- the panel --------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Entry:
    index: int
    move: dict[str, Any]
    code: str
    label: str
    detail: str | None


def code_for(index: int, move: dict[str, Any]) -> str:
    """The move as JSON when it fits a custom id, else its index in engine.legal (the token pins the state)."""
    text = json.dumps(move, separators=(",", ":"))
    return text if len(text) <= MAX_CODE else f"#{index}"


def group_of(move: dict[str, Any]) -> str:
    kind = move.get("type")
    if kind == "buy_shares":
        return "exchange" if move.get("entity_type") == "company" else "buy"
    return KIND_GROUP.get(kind, "other")


def entries_for(table: Table, seat: int) -> list[Entry]:
    moves = legal_moves(table, seat)
    if not moves:
        return []
    g, names = G(table.state), _names(table)
    return [Entry(i, m, code_for(i, m), move_text(g, m, names), move_detail(g, m)) for i, m in enumerate(moves)]


def _chunks(items: list, size: int = PER_MENU) -> list[list]:
    return [items[i:i + size] for i in range(0, len(items), size)]


STYLES = {"pass": discord.ButtonStyle.secondary, "bankrupt": discord.ButtonStyle.danger,
          "run_routes": discord.ButtonStyle.success, "accept_offer": discord.ButtonStyle.success,
          "decline_offer": discord.ButtonStyle.danger, "withdraw_offer": discord.ButtonStyle.secondary}


def _style(move: dict[str, Any]) -> discord.ButtonStyle:
    if move.get("type") == "dividend":
        return discord.ButtonStyle.success if move.get("kind") == "payout" else discord.ButtonStyle.secondary
    return STYLES.get(move.get("type"), discord.ButtonStyle.primary)


def layout(view: discord.ui.View, gid: int, tok: str, entries: list[Entry], g: G, grouped: bool = True) -> None:
    """Buttons for a few moves; else buttons for the single moves (pass, dividend, run …) and a menu per kind,
    25 to a menu, lays by hex past 25; when that takes more than five rows, one menu asks for the kind first."""
    if len(entries) <= FEW:
        for e in entries:
            view.add_item(MoveNow(gid, tok, e.code, e.label, _style(e.move)))
        return
    singles = [e for e in entries if group_of(e.move) == "other"]
    groups: dict[str, list[Entry]] = {}
    for e in entries:
        if group_of(e.move) != "other":
            groups.setdefault(group_of(e.move), []).append(e)
    menus: list[tuple[str, str, list]] = []
    for key, group in groups.items():
        if key == "lay" and len(group) > PER_MENU:
            coords = list(dict.fromkeys(e.move["hex"] for e in group))
            for k, chunk in enumerate(_chunks(coords)):
                count = {c: sum(1 for e in group if e.move["hex"] == c) for c in chunk}
                menus.append(("hex", f"Lay a tile: choose a hex{f' ({k + 1})' if k else ''}",
                              [(g.map.place(c), c, f"{count[c]} ways to lay a tile here") for c in chunk]))
        else:
            many = len(group) > PER_MENU
            for k, chunk in enumerate(_chunks(group)):
                menus.append(("moves", GROUPS[key] + (f" ({k + 1})" if many else ""),
                              [(e.label, e.code, e.detail) for e in chunk]))
    if grouped and ceil(len(singles) / PER_ROW) + len(menus) > ROWS:
        menus = [("kind", "What would you like to do?",
                  [(GROUPS[key], key, f"{len(group)} choices") for key, group in groups.items()])]
    for e in singles:
        view.add_item(MoveNow(gid, tok, e.code, e.label, _style(e.move)))
    room = ROWS - ceil(len(singles) / PER_ROW)
    for slot, (kind, placeholder, options) in enumerate(menus[:room]):
        item = {"moves": MoveMenu, "hex": HexMenu, "kind": KindMenu}[kind]
        view.add_item(item(gid, tok, slot, options, placeholder))


def sub_panel(table: Table, seat: int, key: str | None = None, coord: str | None = None) -> dict[str, Any]:
    """The answer to a kind menu (the moves of that kind) or a hex menu (the tile lays on that hex)."""
    g, entries = G(table.state), entries_for(table, seat)
    if coord is not None:
        chosen = [e for e in entries if e.move.get("type") == "lay_tile" and e.move.get("hex") == coord]
        text = f"the tiles you can lay on {g.map.place(coord)}"
    else:
        chosen = [e for e in entries if group_of(e.move) == key]
        text = GROUPS.get(key, "your moves").lower()
    if not chosen:
        raise Refusal("You have no such move now.")
    view = discord.ui.View(timeout=None)
    layout(view, table.game.id, step_token(table.state), chosen, g, grouped=False)
    return {"content": f"Table {table.game.id}: {text}.", "view": view}


async def act(tables, table: Table, seat: int, user_id: int, move: dict[str, Any]) -> dict[str, Any]:
    """Play the move; answer with what was played (in words of the state it was chosen in), then the panel."""
    g = G(table.state)
    label = E18xxPresenter().move_label(table, move)
    corp = acting_corp(g, seat, move)
    table = await tables.act(table.game.id, user_id, move, chosen_at=table.seq)
    reply = hand_reply(table, seat)
    head = f"You played **{label}**" + (f" as president of {corp}" if corp else "") + "."
    reply["content"] = f"{head}\n{reply['content']}"[:2000]
    return reply


class _Step:
    """The 18xx panel's items carry the step token (a panel is good only for the state it was made in) and cut
    their text with "…"; a choice plays its move: JSON, or ``#<index>`` into engine.legal of that state."""

    serves = staticmethod(is_18xx)
    token, step, fit = TOKEN, staticmethod(step_token), staticmethod(_cut)

    async def choose(self, interaction: discord.Interaction, code: str) -> dict[str, Any]:
        table, seat = await self.load(interaction)
        moves = legal_moves(table, seat)
        if code.startswith("#"):
            try:
                move = moves[number(code[1:], len(moves) - 1)]
            except ValueError:
                raise Refusal("That choice is no longer available.") from None
        else:
            move = legal_move(table, seat, code, moves)
        return await act(interaction.client.tables, table, seat, interaction.user.id, move)

    async def _sub_panel(self, interaction: discord.Interaction, **which) -> dict[str, Any]:
        table, seat = await self.load(interaction)
        return sub_panel(table, seat, **which)


class MoveNow(_Step, PanelButton, prefix="ex", code=rf"{JSON}|#\d+"):
    """A move; pressing plays it."""


class MoveMenu(_Step, PanelMenu, prefix="exs"):
    """Moves; a choice plays it."""


class HexMenu(_Step, PanelMenu, prefix="exh"):
    """A hex to lay a tile on; answers with the lays on that hex."""

    def choose(self, interaction: discord.Interaction, coord: str):
        return self._sub_panel(interaction, coord=coord)


class KindMenu(_Step, PanelMenu, prefix="exk"):
    """What kind of move; answers with the moves of that kind."""

    def choose(self, interaction: discord.Interaction, key: str):
        return self._sub_panel(interaction, key=key)


DYNAMIC_ITEMS = (MoveNow, MoveMenu, HexMenu, KindMenu)


# --- naming routes by their stops ---------------------------------------------------------------------------
ROUTE_SPLIT = re.compile(r"[|;\n]+")
STOP_SPLIT = re.compile(r"[\s,>→\-–]+")


def parse_routes(g: G, cid: str, text: str) -> dict[str, Any]:
    """A run_routes action from "2: J1 K4 | 3: K4 I4 F9": per train (its kind or id), the stops in order. The
    track between two stops is found on the board (a way not used by an earlier leg or train)."""
    owned = list(g.corp(cid)["trains"])
    if not owned:
        raise Refusal(f"{cid} has no trains.")
    board, used, routes = g.board, frozenset(), []
    free = list(owned)
    for part in ROUTE_SPLIT.split(text.strip()):
        if not part.strip():
            continue
        if ":" not in part:
            raise Refusal("Write each route as train: stops, like `2: J1 K4 | 3: K4 I4 F9`.")
        name, _, rest = part.partition(":")
        name = name.strip().upper()
        train_id = next((t for t in free if t.upper() == name), None) or \
            next((t for t in free if train_name(t).upper() == name), None)
        if train_id is None:
            have = ", ".join(train_name(t) for t in owned)
            raise Refusal(f"{cid} has no {name}-train left to run (its trains: {have}).")
        free.remove(train_id)
        stops = [s.upper() for s in STOP_SPLIT.split(rest) if s]
        if len(stops) < 2:
            raise Refusal(f"The {train_name(train_id)}-train's route needs at least two stops.")
        for s in stops:
            if s not in g.map.printed:
                raise Refusal(f"{s} is not a hex of the map.")
        chains = connect(board, stops, used)
        if chains is None:
            raise Refusal(f"No track joins {' → '.join(stops)} as a route (every town and city on the way is a "
                          "stop; two trains may not share track).")
        for c in chains:
            used |= c.borders
        routes.append({"train": train_id, "connections": [list(c.hexes) for c in chains]})
    if not routes:
        raise Refusal("Name at least one route, like `2: J1 K4`.")
    return {"type": "run_routes", "routes": routes}


def connect(board: Board, stops: list[str], used: frozenset) -> list | None:
    """Chains of track from a node in stops[0] through a node in each next stop, sharing no border."""

    def walk(k, at, borders, seen, chains):
        if k == len(stops):
            return chains
        for c in chains_from(board, at):
            if c.b[0] != stops[k] or c.b in seen or c.borders & borders:
                continue
            found = walk(k + 1, c.b, borders | c.borders, seen | {c.b}, [*chains, c])
            if found:
                return found
        return None

    for index in range(len(board.tile(stops[0]).nodes)):
        found = walk(1, (stops[0], index), used, {(stops[0], index)}, [])
        if found:
            return found
    return None


def run_text(g: G, action: dict[str, Any]) -> str:
    """The runs of an action, a line per train: its stops by name and what it earns."""
    parts = run_parts(g, action)
    if parts is None:
        return "(these routes do not follow the track)"
    total, runs = parts
    lines = [f"• {train_name(t)}-train: {' → '.join(g.map.place(h) for h in stops)}: {g.money(rev)}"
             for t, stops, rev in runs]
    return "\n".join(lines + [f"Total {g.money(total)}."])


# --- /18xx ---------------------------------------------------------------------------------------------------------
async def _find_table(interaction: discord.Interaction, table_id: int | None) -> Table:
    tables = interaction.client.tables
    gid = await tables.resolve(Place.of(interaction), table_id, kind=is_18xx, what="18xx")
    table = await tables.load(gid)
    if table.state is None:
        raise Refusal(f"Table {gid} has not started yet.")
    return table


async def _my_table(interaction: discord.Interaction, table_id: int | None) -> tuple[Table, int]:
    table = await _find_table(interaction, table_id)
    return table, interaction.client.tables.player_seat(table, interaction.user.id)


def _waiting(table: Table, seat: int, doing: str = "move") -> Refusal:
    """Why a command cannot be used now: whom and what the game waits for."""
    aw = table.engine.awaiting(table.state)
    names = _names(table)
    prompt = aw.prompt or "the end of the game"
    if seat in aw.seats:
        return Refusal(f"You cannot {doing} now: the game waits for you ({prompt}).")
    waiting = ", ".join(_who(names, s) for s in sorted(aw.seats)) or "nobody"
    return Refusal(f"You cannot {doing} now: table {table.game.id} is waiting for {waiting} ({prompt}).")


def _ns(interaction: discord.Interaction, name: str):
    return getattr(interaction.namespace, name, None)


def _autocomplete(kind: str):
    """An autocomplete over the user's legal moves of one type: the decorated function turns (g, those moves,
    names, the interaction) into (name, value) pairs; nothing is offered off the user's table."""
    def wrap(pairs_of):
        async def autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice]:
            try:
                table, seat = await _my_table(interaction, _ns(interaction, "table"))
            except Exception:
                return []
            moves = [m for m in legal_moves(table, seat) if m.get("type") == kind]
            return _choices(pairs_of(G(table.state), moves, _names(table), interaction), current)
        return autocomplete
    return wrap


def _choices(pairs, current: str) -> list[app_commands.Choice]:
    typed = (current or "").strip().lower()
    out, seen = [], set()
    for name, value in pairs:
        if value in seen or (typed and typed not in name.lower() and typed not in str(value).lower()):
            continue
        seen.add(value)
        out.append(app_commands.Choice(name=_cut(name, 100), value=value))
    return out[:25]


def _resolve_private(g: G, text: str) -> str:
    t = text.strip().lower()
    for pid, _ in g.s["privates"].items():
        if pid.lower() == t or g.pdef(pid).name.lower() == t:
            return pid
    raise Refusal(f"There is no private company called “{text}” in this game.")


def _resolve_corp(g: G, text: str) -> str:
    t = text.strip().lower()
    for cid in g.s["corps"]:
        if cid.lower() == t or g.cdef(cid).name.lower() == t:
            return cid
    raise Refusal(f"There is no corporation called “{text}” in this game.")


@_autocomplete("bid")
def ac_bid_company(g: G, moves: list, names: list[str], interaction) -> list:
    low: dict[str, int] = {}
    for m in moves:
        low.setdefault(m["company"], m["price"])
    return [(f"{private_name(g, pid)} from {g.money(p)}", pid) for pid, p in low.items()]


@_autocomplete("bid")
def ac_bid_price(g: G, moves: list, names: list[str], interaction) -> list:
    pid = (_ns(interaction, "company") or "").upper()
    return [(move_text(g, m, names), m["price"]) for m in moves if m["company"] == pid]


@_autocomplete("par")
def ac_par_corp(g: G, moves: list, names: list[str], interaction) -> list:
    return [(f"{g.cdef(m['corporation']).name} ({m['corporation']})", m["corporation"]) for m in moves]


@_autocomplete("par")
def ac_par_price(g: G, moves: list, names: list[str], interaction) -> list:
    cid = (_ns(interaction, "corporation") or "").upper()
    return [(move_text(g, m, names), g.title.market.by_id(m["share_price"]).price)
            for m in moves if m["corporation"] == cid]


@_autocomplete("buy_shares")
def ac_buy_corp(g: G, moves: list, names: list[str], interaction) -> list:
    return [(move_text(g, m, names), m["shares"][0].rpartition("_")[0]) for m in moves
            if m.get("entity_type") != "company"]


@_autocomplete("sell_shares")
def ac_sell_corp(g: G, moves: list, names: list[str], interaction) -> list:
    return [(f"{cid} ({g.cdef(cid).name})", cid)
            for cid in dict.fromkeys(m["shares"][0].rpartition("_")[0] for m in moves)]


@_autocomplete("sell_shares")
def ac_sell_percent(g: G, moves: list, names: list[str], interaction) -> list:
    cid = (_ns(interaction, "corporation") or "").upper()
    return [(move_text(g, m, names), m["percent"]) for m in moves if m["shares"][0].rpartition("_")[0] == cid]


@_autocomplete("lay_tile")
def ac_lay_hex(g: G, moves: list, names: list[str], interaction) -> list:
    count: dict[str, int] = {}
    for m in moves:
        count[m["hex"]] = count.get(m["hex"], 0) + 1
    return [(f"{g.map.place(h)}: {n} way{'s' if n > 1 else ''}", h) for h, n in count.items()]


@_autocomplete("lay_tile")
def ac_lay_tile(g: G, moves: list, names: list[str], interaction) -> list:
    coord = (_ns(interaction, "hex") or "").strip().upper()
    tiles = dict.fromkeys(m["tile"] for m in moves if m["hex"] == coord)
    return [(f"{t} ({g.map.tiles[t].colour})", t) for t in tiles]


@_autocomplete("lay_tile")
def ac_lay_rotation(g: G, moves: list, names: list[str], interaction) -> list:
    coord = (_ns(interaction, "hex") or "").strip().upper()
    tile = str(_ns(interaction, "tile") or "").strip()
    return [(move_text(g, m, names), m["rotation"]) for m in moves if m["hex"] == coord and m["tile"] == tile]


@_autocomplete("place_token")
def ac_token_hex(g: G, moves: list, names: list[str], interaction) -> list:
    return [(move_text(g, m, names), m["hex"]) for m in moves]


@_autocomplete("buy_train")
def ac_train(g: G, moves: list, names: list[str], interaction) -> list:
    return [(move_text(g, m, names), m["train"]) for m in moves]


@_autocomplete("buy_train")
def ac_exchange(g: G, moves: list, names: list[str], interaction) -> list:
    train_id = (_ns(interaction, "train") or "").strip()
    return [(move_text(g, m, names), m["exchange"]) for m in moves if m.get("exchange") and m["train"] == train_id]


@_autocomplete("buy_company")
def ac_private(g: G, moves: list, names: list[str], interaction) -> list:
    return [(private_name(g, m["company"]), m["company"]) for m in moves]


@_autocomplete("buy_company")
def ac_private_price(g: G, moves: list, names: list[str], interaction) -> list:
    pid = (_ns(interaction, "company") or "").upper()
    return [(move_text(g, m, names), m["price"]) for m in moves if m["company"] == pid]


TABLE = "Which table (only if the channel has several)"


def _matching(moves: list[dict[str, Any]], **fields) -> dict[str, Any] | None:
    return next((m for m in moves if all(m.get(k) == v for k, v in fields.items())), None)


class E18xxCog(commands.Cog):
    e18xx = app_commands.Group(name="18xx", description="18xx games (Shikoku 1889 …): name your moves, see the "
                                                        "map, market and charters.")

    def __init__(self, bot):
        self.bot = bot

    async def _act(self, interaction: discord.Interaction, table: Table, seat: int, move: dict[str, Any]):
        return await act(self.bot.tables, table, seat, interaction.user.id, move)

    @e18xx.command(name="bid", description="Private auction: buy the cheapest private, or bid on a dearer one.")
    @app_commands.describe(company="The private company", price="Your bid (the cheapest private: its price)",
                           table=TABLE)
    @app_commands.autocomplete(company=ac_bid_company, price=ac_bid_price, table=table_autocomplete)
    async def bid(self, interaction: discord.Interaction, company: str, price: int, table: int | None = None):
        async def work():
            t, seat = await _my_table(interaction, table)
            g = G(t.state)
            if g.round["kind"] != "auction":
                raise _waiting(t, seat, "bid")
            return await self._act(interaction, t, seat,
                                   {"type": "bid", "company": _resolve_private(g, company), "price": price})

        await answer(interaction, work)

    @e18xx.command(name="par", description="Stock round: start a corporation at a par price.")
    @app_commands.describe(corporation="The corporation to start", price="Its par price", table=TABLE)
    @app_commands.autocomplete(corporation=ac_par_corp, price=ac_par_price, table=table_autocomplete)
    async def par(self, interaction: discord.Interaction, corporation: str, price: int, table: int | None = None):
        async def work():
            t, seat = await _my_table(interaction, table)
            g = G(t.state)
            cid = _resolve_corp(g, corporation)
            cell = next((c for c in g.title.market.par_cells if c.price == price), None)
            if cell is None:
                prices = ", ".join(g.money(c.price) for c in g.title.market.par_cells)
                raise Refusal(f"{g.money(price)} is not a par price; the par prices are {prices}.")
            if g.round["kind"] != "stock":
                raise _waiting(t, seat, "start a corporation")
            return await self._act(interaction, t, seat, {"type": "par", "corporation": cid, "share_price": cell.id})

        await answer(interaction, work)

    @e18xx.command(name="buy", description="Stock round: buy one share from the IPO or the bank pool.")
    @app_commands.describe(corporation="The corporation", source="From the IPO (at par) or the pool (at its price)",
                           table=TABLE)
    @app_commands.choices(source=[app_commands.Choice(name="IPO", value="ipo"),
                                  app_commands.Choice(name="pool", value="pool")])
    @app_commands.autocomplete(corporation=ac_buy_corp, table=table_autocomplete)
    async def buy(self, interaction: discord.Interaction, corporation: str, source: str | None = None,
                  table: int | None = None):
        async def work():
            t, seat = await _my_table(interaction, table)
            g = G(t.state)
            cid = _resolve_corp(g, corporation)
            if g.round["kind"] != "stock":
                raise _waiting(t, seat, "buy that")
            legal = [m for m in legal_moves(t, seat) if m["type"] == "buy_shares" and m.get("entity_type") is None
                     and m["shares"][0].rpartition("_")[0] == cid]
            where = {IPO: g.corp(cid)["shares"].get(IPO, []), POOL: g.corp(cid)["shares"].get(POOL, [])}
            for src in ([source] if source else [IPO, POOL]):
                move = next((m for m in legal if m["shares"][0] in where[src]), None)
                if move:
                    return await self._act(interaction, t, seat, move)
            src = source or (IPO if where[IPO] else POOL)
            cert = g.ipo_cert(cid) if src == IPO else g.pool_cert(cid)
            if cert is None:
                raise Refusal(f"No {cid} share is in the {'IPO' if src == IPO else 'pool'}.")
            return await self._act(interaction, t, seat, {"type": "buy_shares", "shares": [cert],
                                                          "percent": g.cdef(cid).cert_percent(cert)})

        await answer(interaction, work)

    @e18xx.command(name="sell", description="Sell shares to the pool (stock round, or to pay for a train).")
    @app_commands.describe(corporation="The corporation", percent="How much, in percent (10, 20 …)", table=TABLE)
    @app_commands.autocomplete(corporation=ac_sell_corp, percent=ac_sell_percent, table=table_autocomplete)
    async def sell(self, interaction: discord.Interaction, corporation: str, percent: int, table: int | None = None):
        async def work():
            t, seat = await _my_table(interaction, table)
            g = G(t.state)
            cid = _resolve_corp(g, corporation)
            move = next((m for m in legal_moves(t, seat) if m["type"] == "sell_shares"
                         and m["shares"][0].rpartition("_")[0] == cid and m["percent"] == percent), None)
            if move is None:
                held = g.corp(cid)["shares"].get(g.key(seat), [])
                if not held:
                    raise Refusal(f"You hold no {cid} shares.")
                bundle = next((c for c, p in sale_bundles(g.cdef(cid), held) if p == percent), None)
                if bundle is None:
                    raise Refusal(f"You cannot sell {percent}% of {cid}; you hold {g.percent(cid, g.key(seat))}%.")
                move = {"type": "sell_shares", "shares": bundle, "percent": percent}
            return await self._act(interaction, t, seat, move)

        await answer(interaction, work)

    @e18xx.command(name="lay", description="Lay or upgrade a tile (the menus suggest your legal lays).")
    @app_commands.describe(hex="The hex, like F3", tile="The tile number", rotation="Its rotation, 0 to 5",
                           table=TABLE)
    @app_commands.autocomplete(hex=ac_lay_hex, tile=ac_lay_tile, rotation=ac_lay_rotation, table=table_autocomplete)
    async def lay(self, interaction: discord.Interaction, hex: str, tile: str, rotation: int,
                  table: int | None = None):
        async def work():
            t, seat = await _my_table(interaction, table)
            coord = hex.strip().upper()
            legal = [m for m in legal_moves(t, seat) if m["type"] == "lay_tile"]
            move = (_matching([m for m in legal if m.get("entity_type") != "company"], hex=coord,
                              tile=tile.strip(), rotation=rotation)
                    or _matching(legal, hex=coord, tile=tile.strip(), rotation=rotation))
            if move is None:
                if not legal and seat not in t.engine.awaiting(t.state).seats:
                    raise _waiting(t, seat, "lay a tile")
                move = {"type": "lay_tile", "hex": coord, "tile": tile.strip(), "rotation": rotation}
            return await self._act(interaction, t, seat, move)

        await answer(interaction, work)

    @e18xx.command(name="token", description="Place a station token in a city your track reaches.")
    @app_commands.describe(hex="The hex of the city", city="Which city of the hex (1 unless it has several)",
                           table=TABLE)
    @app_commands.autocomplete(hex=ac_token_hex, table=table_autocomplete)
    async def token(self, interaction: discord.Interaction, hex: str, city: int = 1, table: int | None = None):
        async def work():
            t, seat = await _my_table(interaction, table)
            coord = hex.strip().upper()
            if seat not in t.engine.awaiting(t.state).seats:
                raise _waiting(t, seat, "place a token")
            move = _matching(legal_moves(t, seat), type="place_token", hex=coord, city=city - 1) or \
                {"type": "place_token", "hex": coord, "city": city - 1}
            return await self._act(interaction, t, seat, move)

        await answer(interaction, work)

    @e18xx.command(name="run", description="Run the trains: see the auto-router's best runs, or name your own.")
    @app_commands.describe(routes="Your own routes, a train and its stops each: 2: J1 K4 | 3: K4 I4 F9",
                           table=TABLE)
    @app_commands.autocomplete(table=table_autocomplete)
    async def run(self, interaction: discord.Interaction, routes: str = "", table: int | None = None):
        async def work():
            t, seat = await _my_table(interaction, table)
            g = G(t.state)
            legal = legal_moves(t, seat)
            best = next((i for i, m in enumerate(legal) if m["type"] == "run_routes"), None)
            if best is None:
                raise _waiting(t, seat, "run trains")
            cid = operating.current(g)
            if routes.strip():
                return await self._act(interaction, t, seat, parse_routes(g, cid, routes))
            move = legal[best]
            view = discord.ui.View(timeout=None)
            view.add_item(MoveNow(t.game.id, step_token(t.state), code_for(best, move),
                                  f"Accept: {move_text(g, move, _names(t))}", discord.ButtonStyle.success))
            return {"content": f"Table {t.game.id}: {cid}'s best runs (auto-router):\n{run_text(g, move)}\n"
                               "Accept them, or name your own with `/18xx run routes:2: J1 K4 | 3: K4 I4 F9`.",
                    "view": view}

        await answer(interaction, work)

    @e18xx.command(name="dividend", description="Pay the revenue out to the shareholders, or withhold it.")
    @app_commands.describe(kind="Pay out (the price rises) or withhold (the treasury keeps it, the price falls)",
                           table=TABLE)
    @app_commands.choices(kind=[app_commands.Choice(name="pay out", value="payout"),
                                app_commands.Choice(name="withhold", value="withhold")])
    @app_commands.autocomplete(table=table_autocomplete)
    async def dividend(self, interaction: discord.Interaction, kind: str, table: int | None = None):
        async def work():
            t, seat = await _my_table(interaction, table)
            if not _matching(legal_moves(t, seat), type="dividend", kind=kind):
                raise _waiting(t, seat, "pay out or withhold")
            return await self._act(interaction, t, seat, {"type": "dividend", "kind": kind})

        await answer(interaction, work)

    @e18xx.command(name="buytrain",
                   description="Buy a train from the depot or another corporation (its president must agree).")
    @app_commands.describe(train="The train", price="Its price (only from another corporation: ¥1 or more)",
                           exchange="A train to trade in (D-trains)", table=TABLE)
    @app_commands.autocomplete(train=ac_train, exchange=ac_exchange, table=table_autocomplete)
    async def buytrain(self, interaction: discord.Interaction, train: str, price: int | None = None,
                       exchange: str | None = None, table: int | None = None):
        async def work():
            t, seat = await _my_table(interaction, table)
            want = train.strip().upper()
            legal = [m for m in legal_moves(t, seat) if m["type"] == "buy_train"]
            if not legal and seat not in t.engine.awaiting(t.state).seats:
                raise _waiting(t, seat, "buy a train")
            fits = [m for m in legal if (m["train"].upper() == want or train_name(m["train"]).upper() == want)
                    and m.get("exchange") == (exchange.strip() if exchange else None)
                    and (price is None or m["price"] == price)]
            if fits:
                return await self._act(interaction, t, seat, fits[0])
            ids = [m["train"] for m in legal if m["train"].upper() == want or train_name(m["train"]).upper() == want]
            if price is None or not ids:
                offered = ", ".join(dict.fromkeys(train_name(m["train"]) for m in legal)) or "none"
                raise Refusal(f"You cannot buy that train now (trains you can buy: {offered}).")
            move = {"type": "buy_train", "train": ids[0], "price": price}
            if exchange:
                move["exchange"] = exchange.strip()
            return await self._act(interaction, t, seat, move)

        await answer(interaction, work)

    @e18xx.command(name="offer", description="Answer an offer for your train or private, or withdraw your own.")
    @app_commands.describe(answer_="Accept or decline it (the seller), or withdraw it (the buyer)", table=TABLE)
    @app_commands.rename(answer_="answer")
    @app_commands.choices(answer_=[app_commands.Choice(name=n, value=v) for n, v in
                                   (("accept", "accept_offer"), ("decline", "decline_offer"),
                                    ("withdraw", "withdraw_offer"))])
    @app_commands.autocomplete(table=table_autocomplete)
    async def offer(self, interaction: discord.Interaction, answer_: str, table: int | None = None):
        async def work():
            t, seat = await _my_table(interaction, table)
            move = _matching(legal_moves(t, seat), type=answer_)
            if move is None:
                if G(t.state).round.get("offer") and seat in t.engine.awaiting(t.state).seats:
                    if answer_ == "withdraw_offer":
                        raise Refusal("Only the buyer withdraws an offer; accept or decline it.")
                    raise Refusal("Only the seller accepts or declines; you may withdraw your offer.")
                raise Refusal("No offer is waiting for your answer.")
            return await self._act(interaction, t, seat, move)

        await answer(interaction, work)

    @e18xx.command(name="buyprivate",
                   description="Phases 3-4: your corporation buys a player's private company (its owner must agree).")
    @app_commands.describe(company="The private company", price="Half to twice its face value", table=TABLE)
    @app_commands.autocomplete(company=ac_private, price=ac_private_price, table=table_autocomplete)
    async def buyprivate(self, interaction: discord.Interaction, company: str, price: int, table: int | None = None):
        async def work():
            t, seat = await _my_table(interaction, table)
            g = G(t.state)
            if seat not in t.engine.awaiting(t.state).seats or g.round["kind"] != "operating":
                raise _waiting(t, seat, "buy that")
            return await self._act(interaction, t, seat,
                                   {"type": "buy_company", "company": _resolve_private(g, company), "price": price})

        await answer(interaction, work)

    @e18xx.command(name="pass", description="Pass: end your turn or the step (no tile, no token, no train …).")
    @app_commands.autocomplete(table=table_autocomplete)
    async def pass_(self, interaction: discord.Interaction, table: int | None = None):
        async def work():
            t, seat = await _my_table(interaction, table)
            move = _matching(legal_moves(t, seat), type="pass")
            if move is None:
                if seat in t.engine.awaiting(t.state).seats:
                    raise Refusal("You cannot pass now. " + todo(G(t.state), seat, _names(t)).replace("**", ""))
                raise _waiting(t, seat, "pass")
            return await self._act(interaction, t, seat, move)

        await answer(interaction, work)

    async def _picture(self, interaction: discord.Interaction, table: int | None, what: str):
        async def work():
            t = await _find_table(interaction, table)
            if what == "map":
                png, text = map_png(t.state), "the map now"
            elif what == "market":
                png, text = market_png(t.state), "the stock market now"
            else:
                png, text = charters_png(t.state, _names(t)), "the corporations now"
            return {"content": f"Table {t.game.id}: {text}.",
                    "file": discord.File(io.BytesIO(png), filename=f"table-{t.game.id}-{what}.png")}

        await answer(interaction, work)

    @e18xx.command(name="map", description="The map as it stands: tiles and tokens (only you see it).")
    @app_commands.autocomplete(table=table_autocomplete)
    async def map(self, interaction: discord.Interaction, table: int | None = None):
        await self._picture(interaction, table, "map")

    @e18xx.command(name="market", description="The stock market: every corporation's share price (only you see it).")
    @app_commands.autocomplete(table=table_autocomplete)
    async def market(self, interaction: discord.Interaction, table: int | None = None):
        await self._picture(interaction, table, "market")

    @e18xx.command(name="charters", description="The corporations' charters: treasury, trains, tokens (only you).")
    @app_commands.autocomplete(table=table_autocomplete)
    async def charters(self, interaction: discord.Interaction, table: int | None = None):
        await self._picture(interaction, table, "charters")

    @e18xx.command(name="undo", description="Take back your last move (as /game undo: others it affects agree).")
    @app_commands.autocomplete(table=table_autocomplete)
    async def undo(self, interaction: discord.Interaction, table: int | None = None):
        async def work():
            t = await _find_table(interaction, table)
            _, need = await self.bot.tables.request_undo(t.game.id, interaction.user.id)
            if need:
                return "Your undo request is posted; the players it affects must agree."
            return "Your last move was undone."

        await answer(interaction, work)


async def setup(bot) -> None:
    presenter = E18xxPresenter()
    for engine in e18xx_engines():
        register(engine.name, presenter)
    await bot.add_cog(E18xxCog(bot))
