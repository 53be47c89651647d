"""The 18xx table in words: players, moves, offers, holdings and runs as a player reads them."""
from __future__ import annotations

import hashlib
import importlib
import json
from collections import OrderedDict
from typing import Any

from bot.present import fill
from bot.tables import Table
from cogs.e18xx.common import LABEL, e18xx_engines
from engines.e18xx import auction, operating, stock, trains
from engines.e18xx.companies import IPO, POOL, SHARE_PERCENT, sale_proceeds
from engines.e18xx.route import route_from_connections
from engines.e18xx.route_text import train_name
from engines.e18xx.state import G

# --- words ----------------------------------------------------------------------------------------------------
#: A title's own words (module name): its hooks round_lines, todo, move_text and corp_extra answer None where the
#: shared words (1889's) say it.
TITLE_WORDS = {"1867": "cogs.e18xx.words_1867"}


def title_words(g: G):
    """The title's words module, or None."""
    name = TITLE_WORDS.get(g.title.id)
    return importlib.import_module(name) if name else None


def seat_names(table: Table) -> list[str]:
    return [s.name for s in table.game.in_seat_order()]


def who(names: list[str], seat: int | str | None) -> str:
    if seat is None:
        return "nobody"
    seat = int(seat)
    return names[seat] if 0 <= seat < len(names) else f"seat {seat + 1}"


def event_line(event: dict[str, Any], names: list[str]) -> str:
    """An engine event with [0], [1] … replaced by the names of its seats."""
    return fill(event, lambda seat: who(names, seat) if isinstance(seat, int) else "?")


def cut(text: str, limit: int = LABEL) -> str:
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "…"


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
    limit = f"{p.train_limit} trains a corporation" if isinstance(p.train_limit, int) else "trains " + " / ".join(
        f"{n} a {kind}" for kind, n in p.train_limit.items())
    return (f"phase {p.name}: {', '.join(p.tiles)} tiles, {limit}, "
            f"{p.operating_rounds} operating round{'s' if p.operating_rounds > 1 else ''} a set")


def priority_seat(g: G) -> int:
    """Who starts the next stock round, as things stand."""
    module = g.rules.modules.get(g.round["kind"])
    if module is not None and hasattr(module, "priority_seat"):
        return module.priority_seat(g)
    return g.order[0]


def run_parts(g: G, action: dict[str, Any]) -> tuple[int, list[tuple[str, list[str], int]]] | None:
    """(total, [(train, stop hexes, revenue)]) of a run_routes action on the board, or None if it is not one."""
    board, total, parts = g.board, 0, []
    cid = operating.current(g) if g.round["kind"] == "operating" else None
    try:
        for x in action.get("routes", []):
            route = route_from_connections(board, x.get("connections") or [], corp=cid)
            revenue = g.rules.route_revenue(g, cid, route, g.rules.train(g, x["train"]))
            parts.append((x["train"], list(route.hexes), revenue))
            total += revenue
    except Exception:  # a route that does not follow track: the engine will say why when it is played
        return None
    return total, parts


def move_text(g: G, action: dict[str, Any], names: list[str], auto_run: bool = True) -> str:
    """A move in plain words, at most 80 characters."""
    return cut(_move_text(g, action, names, auto_run))


def _move_text(g: G, a: dict[str, Any], names: list[str], auto_run: bool) -> str:
    kind, r, money = a.get("type"), g.round, g.money
    try:
        own = title_words(g)
        if own is not None and (text := own.move_text(g, a, names)) is not None:
            return text
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
            cost = operating.lay_price(g, cid, a["hex"], a["tile"], a["rotation"]) if cid else 0
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
            return f"Buy {private_name(g, pid)} from {who(names, owner)} for {money(a['price'])}"
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
        what = f"{private_name(g, buy['company'])} from {who(names, offer['seller_seat'])}"
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


def tokens_left(n: int) -> str:
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


def run_text(g: G, action: dict[str, Any]) -> str:
    """The runs of an action, a line per train: its stops by name and what it earns."""
    parts = run_parts(g, action)
    if parts is None:
        return "(these routes do not follow the track)"
    total, runs = parts
    lines = [f"• {train_name(t)}-train: {' → '.join(g.map.place(h) for h in stops)}: {g.money(rev)}"
             for t, stops, rev in runs]
    return "\n".join(lines + [f"Total {g.money(total)}."])


def move_label(table: Table, action: dict[str, Any]) -> str:
    """A move in words, as the table it is played at shows it (a run the auto-router chose says so)."""
    auto = True
    if action.get("type") == "run_routes":
        seats = table.engine.awaiting(table.state).seats
        auto = any(action in legal_moves(table, s) for s in seats)
    return move_text(G(table.state), action, seat_names(table), auto_run=auto)
