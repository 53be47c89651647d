"""The 18xx table in words: players, moves, offers, holdings and runs as a player reads them."""
from __future__ import annotations

import hashlib
import importlib
import json
from collections import OrderedDict
from typing import Any

from bot.i18n import say, tr
from bot.present import fill
from bot.tables import Table
from cogs.e18xx.common import LABEL, e18xx_engines
from engines.e18xx import auction, operating, stock, trains
from engines.e18xx.companies import IPO, POOL, SHARE_PERCENT, sale_proceeds
from engines.e18xx.route import route_from_connections
from engines.e18xx.route_text import train_name
from engines.e18xx.state import G
from engines.text import CURRENCIES, N_, Money, from_json, plural

# --- words ----------------------------------------------------------------------------------------------------
#: A title's own words (module name): its hooks round_lines, todo, move_text and corp_extra answer None where the
#: shared words (1889's) say it. Every function here takes the reader's language, `lang` ("en" by default).
TITLE_WORDS = {"1807": "cogs.e18xx.words_1807", "1867": "cogs.e18xx.words_1867", "1890": "cogs.e18xx.words_1890"}

#: The title's currency format -> engines.text.Money's currency.
CURRENCY = {"¥{}": "yen", "${}": "dollar", "£{}": "pound"}
#: Words kept in tables, said in the reader's language with tr(lang, WORD).
COLOURS = {"yellow": N_("yellow"), "green": N_("green"), "brown": N_("brown"), "gray": N_("gray"),
           "grey": N_("gray"), "white": N_("white"), "red": N_("red"), "blue": N_("blue"),
           "orange": N_("orange"), "diesel": N_("diesel")}
KINDS = {"minor": N_("minor"), "major": N_("major"), "national": N_("national"), "public": N_("corporation"),
         "system": N_("system")}


def title_words(g: G):
    """The title's words module, or None (a scenario, "1890/hanshin", has its title's)."""
    name = TITLE_WORDS.get(g.title.id.partition("/")[0])
    return importlib.import_module(name) if name else None


def word(table: dict[str, str], key: Any, lang: str) -> str:
    """A word of one of the tables above in `lang` (a key the table lacks: as it is)."""
    return tr(lang, table[key]) if key in table else str(key)


def listing(items: Any, lang: str = "en") -> str:
    """Items one after another as `lang` lists them: "AR, IR" / "AR、IR"."""
    return ("、" if lang == "ja" else ", ").join(items)


def money(g: G, amount: int, lang: str = "en") -> str:
    """An amount in the title's currency as `lang` writes it: ¥1,000 / 1,000円, $100."""
    cur = g.title.currency
    return Money(amount, CURRENCY.get(cur, cur if cur in CURRENCIES else "none")).in_lang(lang)


def name_of(value: Any, lang: str = "en") -> str:
    """A name from the title's data (a plain string, or an engines.text.Name in both languages) in `lang`."""
    return say(value, lang)


def full_name(definition: Any) -> Any:
    """A corporation's or private's name in both languages (its `full_name`, a Name), else its English `name`."""
    return getattr(definition, "full_name", None) or definition.name


def corp_name(g: G, cid: str, lang: str = "en") -> str:
    return name_of(full_name(g.cdef(cid)), lang)


def private_title(g: G, pid: str, lang: str = "en") -> str:
    """A private company's name alone: "Mitsubishi Ferry" / "三菱フェリー"."""
    return name_of(full_name(g.pdef(pid)), lang)


def city_name(map_def: Any, coord: str) -> Any:
    """The name the map prints on a hex (a Name in both languages, or a plain string), or None."""
    if hasattr(map_def, "city_name"):
        return map_def.city_name(coord)
    return map_def.names.get(coord)


def place(g: G, coord: str, lang: str = "en") -> str:
    """A hex as players read it: "Kouchi (F9)" / "高知 (F9)", or just "C8" where the map prints no name."""
    city = city_name(g.map, coord)
    return f"{name_of(city, lang)} ({coord})" if city else coord


def seat_names(table: Table) -> list[str]:
    return [s.name for s in table.game.in_seat_order()]


def who(names: list[str], seat: int | str | None, lang: str = "en") -> str:
    if seat is None:
        return tr(lang, "nobody")
    seat = int(seat)
    return names[seat] if 0 <= seat < len(names) else tr(lang, "seat {n}", n=seat + 1)


def event_line(event: dict[str, Any], names: list[str], lang: str = "en") -> str:
    """An engine event in `lang` with [0], [1] … replaced by the names of its seats. Its values are read back from
    their JSON one by one (engines.text.from_json leaves a plain dict of values as it is, so a Money or a Msg among
    them would otherwise be said as its JSON)."""
    values = event.get("values")
    if values:
        event = {**event, "values": {k: from_json(v) for k, v in values.items()}}
    return fill(event, lambda seat: who(names, seat, lang) if isinstance(seat, int) else "?", lang)


def cut(text: str, limit: int = LABEL) -> str:
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "…"


def private_name(g: G, pid: str, lang: str = "en") -> str:
    """A private company with its id: "Mitsubishi Ferry (MF)"."""
    return f"{private_title(g, pid, lang)} ({pid})"


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


def phase_text(g: G, lang: str = "en") -> str:
    p = g.phase
    if isinstance(p.train_limit, int):
        limit = tr(lang, "{n} trains a corporation", n=p.train_limit)
    else:
        limit = tr(lang, "trains {limits}", limits=" / ".join(
            tr(lang, "{n} a {kind}", n=n, kind=word(KINDS, kind, lang)) for kind, n in p.train_limit.items()))
    tiles = ("・" if lang == "ja" else ", ").join(word(COLOURS, t, lang) for t in p.tiles)
    rounds = say(plural(p.operating_rounds, "{n} operating round a set", "{n} operating rounds a set"), lang)
    return tr(lang, "phase {phase}: {tiles} tiles, {limit}, {rounds}", phase=p.name, tiles=tiles, limit=limit,
              rounds=rounds)


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


def move_text(g: G, action: dict[str, Any], names: list[str], auto_run: bool = True, lang: str = "en") -> str:
    """A move in plain words, at most 80 characters."""
    return cut(_move_text(g, action, names, auto_run, lang))


def _move_text(g: G, a: dict[str, Any], names: list[str], auto_run: bool, lang: str) -> str:
    kind, r = a.get("type"), g.round

    def m(amount: int) -> str:
        return money(g, amount, lang)

    try:
        own = title_words(g)
        if own is not None and (text := own.move_text(g, a, names, lang)) is not None:
            return text
        if kind == "pass":
            return _pass_text(g, lang)
        if kind == "bid":
            pid, price = a["company"], a["price"]
            private = private_name(g, pid, lang)
            if r["kind"] == "auction" and r["auctioning"] == pid:
                return tr(lang, "Raise to {price} for {private}", price=m(price), private=private)
            if r["kind"] == "auction" and not r["auctioning"] and auction.unsold(g)[:1] == [pid]:
                return tr(lang, "Buy {private} for {price}", private=private, price=m(price))
            return tr(lang, "Bid {price} for {private}", price=m(price), private=private)
        if kind == "par":
            cid = a["corporation"]
            price = g.title.market.by_id(str(a["share_price"])).price
            pct = g.cdef(cid).president_percent
            return tr(lang, "Par {name} ({cid}) at {price}: {pct}% for {cost}", name=corp_name(g, cid, lang),
                      cid=cid, price=m(price), pct=pct, cost=m(price * pct // SHARE_PERCENT))
        if kind == "buy_shares":
            cert = a["shares"][0]
            cid = cert.rpartition("_")[0]
            pct = g.cdef(cid).cert_percent(cert)
            if a.get("entity_type") == "company":
                return tr(lang, "Exchange {private} for a {pct}% share of {cid}",
                          private=private_name(g, a["entity"], lang), pct=pct, cid=cid)
            source = IPO if cert in g.corp(cid)["shares"].get(IPO, []) else POOL
            price = stock.share_price(g, cid, source) * pct // SHARE_PERCENT
            if source == IPO:
                return tr(lang, "Buy a {pct}% share of {cid} from the IPO ({price})", pct=pct, cid=cid, price=m(price))
            return tr(lang, "Buy a {pct}% share of {cid} from the pool ({price})", pct=pct, cid=cid, price=m(price))
        if kind == "sell_shares":
            cid = a["shares"][0].rpartition("_")[0]
            pct = a.get("percent") or g.cdef(cid).bundle_percent(a["shares"])
            return tr(lang, "Sell {pct}% of {cid} for {price}", pct=pct, cid=cid,
                      price=m(sale_proceeds(g.price(cid), pct)))
        if kind == "lay_tile":
            where = place(g, a["hex"], lang)
            if a.get("entity_type") == "company":
                cost = g.board.lay_cost(a["hex"], a["tile"], a["rotation"]) if r.get("special") else 0
                text = tr(lang, "{private}: tile {tile} on {where}, rotation {rotation}",
                          private=private_title(g, a["entity"], lang), tile=a["tile"], where=where,
                          rotation=a["rotation"])
            else:
                cid = operating.current(g) if r["kind"] == "operating" else None
                cost = operating.lay_price(g, cid, a["hex"], a["tile"], a["rotation"]) if cid else 0
                text = tr(lang, "Lay tile {tile} on {where}, rotation {rotation}", tile=a["tile"], where=where,
                          rotation=a["rotation"])
            return text + (f" ({m(cost)})" if cost else "")
        if kind == "place_token":
            cid = operating.current(g)
            cost = operating.next_token_cost(g, cid) if cid else None
            cities = [n for n in g.board.tile(a["hex"]).nodes if n.kind == "city"]
            where = place(g, a["hex"], lang)
            if len(cities) > 1:
                where = tr(lang, "{where}, city {n}", where=where, n=a.get("city", 0) + 1)
            if cost:
                return tr(lang, "Place a token on {where} for {price}", where=where, price=m(cost))
            return tr(lang, "Place a token on {where}", where=where)
        if kind == "run_routes":
            parts = run_parts(g, a)
            if parts is None:
                return tr(lang, "Run the trains on the routes given")
            total, runs = parts
            if not runs:
                return tr(lang, "Run no train (no route earns anything)")
            # a train and its stops: "5+5E M11-T10" (in Japanese "5+5E列車 M11-T10": no Latin run across them)
            routes = ", ".join(tr(lang, "{name} {stops}", name=train_name(t), stops="-".join(stops))
                               for t, stops, _ in runs)
            if auto_run:
                return tr(lang, "Run for {total} (auto-router: {routes})", total=m(total), routes=routes)
            return tr(lang, "Run for {total} ({routes})", total=m(total), routes=routes)
        if kind == "dividend":
            return _dividend_text(g, a.get("kind"), lang)
        if kind == "buy_train":
            return _train_text(g, a, names, lang)
        if kind == "buy_company":
            pid = a["company"]
            owner = g.s["privates"][pid]["owner"]
            return tr(lang, "Buy {private} from {owner} for {price}", private=private_name(g, pid, lang),
                      owner=who(names, owner, lang), price=m(a["price"]))
        if kind == "discard_train":
            return tr(lang, "{cid} discards a {name}-train ({train})", cid=a["entity"], name=train_name(a["train"]),
                      train=a["train"])
        if kind == "bankrupt":
            return tr(lang, "Declare bankruptcy (the game ends)")
        if kind in ("accept_offer", "decline_offer", "withdraw_offer"):
            offer = offer_text(g, r["offer"], names, lang)
            if kind == "accept_offer":
                return tr(lang, "Accept: {offer}", offer=offer)
            if kind == "decline_offer":
                return tr(lang, "Decline: {offer}", offer=offer)
            return tr(lang, "Withdraw: {offer}", offer=offer)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        pass  # a move the state cannot describe (sent by hand): the engine's own words
    engine = next((e for e in e18xx_engines() if e.name == g.s["title"].partition("/")[0]), None)
    return say(engine.label(a), lang) if engine else str(a.get("type", "a move"))


def offer_text(g: G, offer: dict[str, Any], names: list[str], lang: str = "en", priced: bool = True) -> str:
    """What an offer buys, from whom, for how much (not how much, unless `priced`: 1890's hidden train prices)."""
    buy, cid = offer["action"], offer["corporation"]
    price = money(g, buy["price"], lang)
    if buy["type"] == "buy_train":
        seller = trains.owner_of_train(g, buy["train"])
        if not priced:
            return tr(lang, "{cid} buys {seller}'s {name}-train ({train})", cid=cid, seller=seller,
                      name=train_name(buy["train"]), train=buy["train"])
        return tr(lang, "{cid} buys {seller}'s {name}-train ({train}) for {price}", cid=cid, seller=seller,
                  name=train_name(buy["train"]), train=buy["train"], price=price)
    return tr(lang, "{cid} buys {private} from {owner} for {price}", cid=cid,
              private=private_name(g, buy["company"], lang), owner=who(names, offer["seller_seat"], lang),
              price=price)


def _pass_text(g: G, lang: str = "en") -> str:
    r = g.round
    if r["kind"] == "auction":
        if r["auctioning"]:
            return tr(lang, "Drop out of the auction for {private}", private=private_name(g, r["auctioning"], lang))
        return tr(lang, "Pass")
    if r["kind"] == "stock":
        return tr(lang, "Done: end your turn") if r["did"] else tr(lang, "Pass")
    if r["kind"] == "operating":
        if r["special"]:
            return tr(lang, "Lay no tile with {private}", private=private_title(g, r["special"]["company"], lang))
        step = r["step"]
        if step == "track":
            return tr(lang, "Done: no port tile") if r["laid"] else tr(lang, "Pass: lay no tile")
        if step == "token":
            return tr(lang, "Pass: place no token")
        if step == "trains":
            if g.corp(operating.current(g))["trains"]:
                return tr(lang, "Done buying trains")
            return tr(lang, "Pass: buy no train")
        if step == "companies":
            return tr(lang, "Pass: buy no private company")
    return tr(lang, "Pass")


def _dividend_text(g: G, kind: str | None, lang: str = "en") -> str:
    cid, revenue = operating.current(g), g.round["revenue"] or 0
    cell = g.cell(cid)
    if kind == "payout":
        after = g.title.market.after_payout(cell).price
        return tr(lang, "Pay out {revenue}: {per} a share, price {before} → {after}", revenue=money(g, revenue, lang),
                  per=money(g, revenue // 10, lang), before=money(g, cell.price, lang), after=money(g, after, lang))
    after = g.title.market.after_withhold(cell).price
    return tr(lang, "Withhold {revenue} in {cid}: price {before} → {after}", revenue=money(g, revenue, lang), cid=cid,
              before=money(g, cell.price, lang), after=money(g, after, lang))


def _train_text(g: G, a: dict[str, Any], names: list[str], lang: str = "en") -> str:
    train_id, price, exchange = a["train"], a["price"], a.get("exchange")
    seller = trains.owner_of_train(g, train_id)
    if seller is not None:
        return tr(lang, "Buy {seller}'s {name}-train ({train}) for {price}", seller=seller,
                  name=train_name(train_id), train=train_id, price=money(g, price, lang))
    values = {"name": train_name(train_id), "price": money(g, price, lang)}
    if train_id in g.s["depot"]["discards"]:
        text = tr(lang, "Buy a discarded {name}-train for {price}", **values)
    else:
        text = tr(lang, "Buy a {name}-train for {price}", **values)
    if exchange:
        text = tr(lang, "{text}, trading in {train}", text=text, train=exchange)
    cid = operating.current(g)
    if cid and price > g.corp(cid)["cash"]:
        text = tr(lang, "{text} (you add {amount})", text=text, amount=money(g, price - g.corp(cid)["cash"], lang))
    return text


def move_detail(g: G, a: dict[str, Any], lang: str = "en") -> str | None:
    """A menu option's second line."""
    kind = a.get("type")
    try:
        if kind == "bid":
            p = g.s["privates"][a["company"]]
            return tr(lang, "face value {value}, pays {revenue} each operating round", value=money(g, p["value"], lang),
                      revenue=money(g, p["revenue"], lang))
        if kind == "par":
            cid = a["corporation"]
            return tr(lang, "{name} floats when {pct}% is sold; home {home}", name=corp_name(g, cid, lang),
                      pct=g.cdef(cid).float_percent, home=place(g, g.map.homes[cid], lang))
        if kind == "buy_shares" and a.get("entity_type") != "company":
            cid = a["shares"][0].rpartition("_")[0]
            return tr(lang, "{cid} at {price} (par {par})", cid=cid, price=money(g, g.price(cid), lang),
                      par=money(g, g.corp(cid)["par"], lang))
        if kind == "lay_tile":
            tile = g.map.tiles[a["tile"]]
            colour = word(COLOURS, tile.colour, lang)
            if a["hex"] in g.board.laid:
                return tr(lang, "{colour} tile {tile} replacing {old}", colour=colour, tile=a["tile"],
                          old=g.board.tile(a["hex"]).name)
            return tr(lang, "{colour} tile {tile}", colour=colour, tile=a["tile"])
    except (KeyError, IndexError, TypeError, ValueError):
        return None
    return None


def tokens_left(n: int, lang: str = "en") -> str:
    return say(plural(n, "{n} token left", "{n} tokens left"), lang)


def holdings(g: G, seat: int, lang: str = "en", worth: bool = True) -> list[str]:
    """A player's certificates, shares, privates and (with `worth`) worth, as parts of a line."""
    key = g.key(seat)
    parts = [tr(lang, "{n}/{limit} certificates", n=g.cert_count(seat), limit=g.cert_limit)]
    shares, minors = [], []
    for cid in g.s["corps"]:
        pct = g.percent(cid, key)
        if pct and g.cdef(cid).kind == "minor" and g.cell(cid) is None:
            minors.append(cid)  # 1890's minors: one certificate of 100% at a fixed price, not a share
        elif pct:
            if g.corp(cid)["president"] == key:
                shares.append(tr(lang, "{cid} {pct}% (pres.)", cid=cid, pct=pct))
            else:
                shares.append(f"{cid} {pct}%")
    if shares:
        parts.append(tr(lang, "shares {shares}", shares=listing(shares, lang)))
    if minors:
        parts.append(tr(lang, "minors {cids}", cids=listing(minors, lang)))
    owned = g.privates_of(key)
    if owned:
        parts.append(tr(lang, "privates {privates}", privates=listing(owned, lang)))
    if seat in g.s["bankrupt"]:
        parts.append(tr(lang, "bankrupt"))
    if worth:
        parts.append(tr(lang, "worth {amount}", amount=money(g, g.value(seat), lang)))
    return parts


def run_text(g: G, action: dict[str, Any], lang: str = "en") -> str:
    """The runs of an action, a line per train: its stops by name and what it earns."""
    parts = run_parts(g, action)
    if parts is None:
        return tr(lang, "(these routes do not follow the track)")
    total, runs = parts
    lines = ["• " + tr(lang, "{name}-train: {stops}: {revenue}", name=train_name(t),
                       stops=" → ".join(place(g, h, lang) for h in stops), revenue=money(g, rev, lang))
             for t, stops, rev in runs]
    return "\n".join(lines + [tr(lang, "Total {total}.", total=money(g, total, lang))])


def move_label(table: Table, action: dict[str, Any], lang: str = "en") -> str:
    """A move in words, as the table it is played at shows it (a run the auto-router chose says so)."""
    auto = True
    if action.get("type") == "run_routes":
        seats = table.engine.awaiting(table.state).seats
        auto = any(action in legal_moves(table, s) for s in seats)
    return move_text(G(table.state), action, seat_names(table), auto_run=auto, lang=lang)
