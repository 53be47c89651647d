"""`/18xx`: the moves by name with autocomplete from the legal moves, the pictures, and undo. Answers are in the
reader's language (tr(None, ...): bot.interact.answer sets it); autocomplete offers choices in it, and finds a
city, corporation or private by its English or Japanese name."""
from __future__ import annotations

import io
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import Refusal
from bot.i18n import reader, say, tr
from bot.interact import answer, reader_lang
from bot.place import Place
from bot.present import register
from bot.tables import Table
from cogs.e18xx.common import e18xx_engines, is_18xx
from cogs.e18xx.map_region import region_png, step_focus
from cogs.e18xx.panel import MoveNow, act, code_for, lays_panel, tokens_panel
from cogs.e18xx.presenter import E18xxPresenter, charters_png, map_png, market_png, todo
from cogs.e18xx.words import (
    COLOURS,
    city_name,
    corp_name,
    cut,
    full_name,
    legal_moves,
    money,
    move_text,
    place,
    private_name,
    run_text,
    seat_names,
    step_token,
    who,
    word,
)
from cogs.table import table_autocomplete
from engines.e18xx import operating
from engines.e18xx.companies import IPO, POOL, sale_bundles
from engines.e18xx.route_text import parse_routes, train_name
from engines.e18xx.state import G
from engines.text import N_, Name, plural


# --- /18xx ---------------------------------------------------------------------------------------------------------
async def _find_table(interaction: discord.Interaction, table_id: int | None) -> Table:
    tables = interaction.client.tables
    gid = await tables.resolve(Place.of(interaction), table_id, kind=is_18xx, what="18xx")
    table = await tables.load(gid)
    if table.state is None:
        raise Refusal("Table {id} has not started yet.", id=gid)
    return table


async def _my_table(interaction: discord.Interaction, table_id: int | None) -> tuple[Table, int]:
    table = await _find_table(interaction, table_id)
    return table, interaction.client.tables.player_seat(table, interaction.user.id)


#: What a command does, for "You cannot … now" (said with tr).
DOING = {"move": N_("move"), "bid": N_("bid"), "merge": N_("merge"), "start a corporation": N_("start a corporation"),
         "buy that": N_("buy that"), "lay a tile": N_("lay a tile"), "place a token": N_("place a token"),
         "run trains": N_("run trains"), "pay out or withhold": N_("pay out or withhold"),
         "buy a train": N_("buy a train"), "pass": N_("pass"), "convert": N_("convert"),
         "form a system": N_("form a system"), "answer": N_("answer"), "settle odd shares": N_("settle odd shares")}


def _waiting(table: Table, seat: int, doing: str = "move") -> Refusal:
    """Why a command cannot be used now: whom and what the game waits for."""
    lang = reader()
    aw = table.engine.awaiting(table.state)
    names = seat_names(table)
    prompt = say(aw.prompt, lang) if aw.prompt else tr(lang, "the end of the game")
    doing_text = tr(lang, DOING[doing]) if doing in DOING else doing
    if seat in aw.seats:
        return Refusal("You cannot {doing} now: the game waits for you ({prompt}).", doing=doing_text, prompt=prompt)
    waiting = ", ".join(who(names, s, lang) for s in sorted(aw.seats)) or tr(lang, "nobody")
    return Refusal("You cannot {doing} now: table {id} is waiting for {who} ({prompt}).", doing=doing_text,
                   id=table.game.id, who=waiting, prompt=prompt)


def _ns(interaction: discord.Interaction, name: str):
    return getattr(interaction.namespace, name, None)


def _autocomplete(*kinds: str):
    """An autocomplete over the user's legal moves of these types: the decorated function turns (g, those moves,
    names, the interaction, the reader's language) into (name, value) or (name, value, other spellings) tuples;
    nothing is offered off the user's table."""
    def wrap(pairs_of):
        async def autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice]:
            try:
                table, seat = await _my_table(interaction, _ns(interaction, "table"))
                lang = await reader_lang(interaction)
            except Exception:
                return []
            moves = [m for m in legal_moves(table, seat) if m.get("type") in kinds]
            return _choices(pairs_of(G(table.state), moves, seat_names(table), interaction, lang), current)
        return autocomplete
    return wrap


def _spellings(value: Any) -> list[str]:
    """Every way a name from the data is written: a Name's English, Japanese and reading; a plain string."""
    if isinstance(value, Name):
        return [s for s in (value.en, value.ja, value.kana) if s]
    return [str(value)] if value else []


def _choices(pairs, current: str) -> list[app_commands.Choice]:
    """Choices whose name, value or other spellings (a city's name in the other language) hold what was typed."""
    typed = (current or "").strip().casefold()
    out, seen = [], set()
    for name, value, *other in pairs:
        words = [name, str(value), *(other[0] if other else ())]
        if value in seen or (typed and not any(typed in w.casefold() for w in words)):
            continue
        seen.add(value)
        out.append(app_commands.Choice(name=cut(name, 100), value=value))
    return out[:25]


def _hex_spellings(g: G, coord: str) -> list[str]:
    return _spellings(city_name(g.map, coord) or "")


def _resolve_hex(g: G, text: str) -> str:
    """A hex named by its coordinate ("F9"), or its place's name in either language ("Kouchi", "高知")."""
    t = text.strip()
    if t.upper() in g.map.printed:
        return t.upper()
    for coord in g.map.names:
        if any(s.casefold() == t.casefold() for s in _hex_spellings(g, coord)):
            return coord
    return t.upper()


def _resolve_private(g: G, text: str) -> str:
    t = text.strip().casefold()
    for pid, _ in g.s["privates"].items():
        if pid.casefold() == t or any(s.casefold() == t for s in _spellings(full_name(g.pdef(pid)))):
            return pid
    raise Refusal("There is no private company called “{name}” in this game.", name=text)


def _is_private(g: G, text: str) -> bool:
    try:
        _resolve_private(g, text)
    except Refusal:
        return False
    return True


def _resolve_corp(g: G, text: str) -> str:
    t = text.strip().casefold()
    for cid in g.s["corps"]:
        if cid.casefold() == t or any(s.casefold() == t for s in _spellings(full_name(g.cdef(cid)))):
            return cid
    raise Refusal("There is no corporation called “{name}” in this game.", name=text)


def _bid_item(m: dict[str, Any]) -> str:
    """What a bid is for: a private company, or (1867) a minor corporation."""
    return m.get("company") or m.get("corporation") or ""


@_autocomplete("bid")
def ac_bid_company(g: G, moves: list, names: list[str], interaction, lang: str) -> list:
    low: dict[str, int] = {}
    for m in moves:
        low.setdefault(_bid_item(m), m["price"])
    out = []
    for item, p in low.items():
        if item in g.s["privates"]:
            what, spellings = private_name(g, item, lang), _spellings(full_name(g.pdef(item)))
        else:
            what, spellings = f"{corp_name(g, item, lang)} ({item})", _spellings(full_name(g.cdef(item)))
        out.append((tr(lang, "{item} from {price}", item=what, price=money(g, p, lang)), item, spellings))
    return out


@_autocomplete("bid")
def ac_bid_price(g: G, moves: list, names: list[str], interaction, lang: str) -> list:
    item = (_ns(interaction, "company") or "").casefold()
    return [(move_text(g, m, names, lang=lang), m["price"]) for m in moves if _bid_item(m).casefold() == item]


@_autocomplete("merge", "merge_system")
def ac_merge(g: G, moves: list, names: list[str], interaction, lang: str) -> list:
    """1867: the minor to merge with or the major to become; 1890: the minor that merges into Kinki Nippon; 1807's
    systems: the public company to gather into the system merger."""
    out = []
    for m in moves:
        cid = m["entity"] if g.title.id.partition("/")[0] == "1890" else m["corporation"]
        out.append((move_text(g, m, names, lang=lang), cid, _spellings(full_name(g.cdef(cid)))))
    return out


@_autocomplete("form_system")
def ac_system(g: G, moves: list, names: list[str], interaction, lang: str) -> list:
    """1807: the systems the gathered public companies may form, each with its price and tokens."""
    return [(move_text(g, m, names, lang=lang), m["corporation"], _spellings(full_name(g.cdef(m["corporation"]))))
            for m in moves]


@_autocomplete("odd_shares")
def ac_odd_shares(g: G, moves: list, names: list[str], interaction, lang: str) -> list:
    """1807: how two odd shares settle, with the amounts."""
    return [(move_text(g, m, names, lang=lang), m["choice"]) for m in moves]


@_autocomplete("convert")
def ac_convert(g: G, moves: list, names: list[str], interaction, lang: str) -> list:
    return [(move_text(g, m, names, lang=lang), m["entity"], _spellings(full_name(g.cdef(m["entity"]))))
            for m in moves if m.get("entity")]


@_autocomplete("par")
def ac_par_corp(g: G, moves: list, names: list[str], interaction, lang: str) -> list:
    return [(f"{corp_name(g, m['corporation'], lang)} ({m['corporation']})", m["corporation"],
             _spellings(full_name(g.cdef(m["corporation"])))) for m in moves]


@_autocomplete("par")
def ac_par_price(g: G, moves: list, names: list[str], interaction, lang: str) -> list:
    cid = (_ns(interaction, "corporation") or "").casefold()
    return [(move_text(g, m, names, lang=lang), g.title.market.by_id(m["share_price"]).price)
            for m in moves if m["corporation"].casefold() == cid]


@_autocomplete("buy_shares")
def ac_buy_corp(g: G, moves: list, names: list[str], interaction, lang: str) -> list:
    return [(move_text(g, m, names, lang=lang), m["shares"][0].rpartition("_")[0],
             _spellings(full_name(g.cdef(m["shares"][0].rpartition("_")[0])))) for m in moves
            if m.get("entity_type") != "company"]


@_autocomplete("sell_shares")
def ac_sell_corp(g: G, moves: list, names: list[str], interaction, lang: str) -> list:
    return [(f"{cid} ({corp_name(g, cid, lang)})", cid, _spellings(full_name(g.cdef(cid))))
            for cid in dict.fromkeys(m["shares"][0].rpartition("_")[0] for m in moves)]


@_autocomplete("sell_shares")
def ac_sell_percent(g: G, moves: list, names: list[str], interaction, lang: str) -> list:
    cid = (_ns(interaction, "corporation") or "").casefold()
    return [(move_text(g, m, names, lang=lang), m["percent"]) for m in moves
            if m["shares"][0].rpartition("_")[0].casefold() == cid]


@_autocomplete("lay_tile")
def ac_lay_hex(g: G, moves: list, names: list[str], interaction, lang: str) -> list:
    """The hexes open to a lay, found by coordinate or by the place's name in English or Japanese."""
    count: dict[str, int] = {}
    for m in moves:
        count[m["hex"]] = count.get(m["hex"], 0) + 1
    return [(tr(lang, "{where}: {ways}", where=place(g, h, lang),
                ways=say(plural(n, "{n} way", "{n} ways"), lang)), h, _hex_spellings(g, h))
            for h, n in count.items()]


@_autocomplete("lay_tile")
def ac_lay_tile(g: G, moves: list, names: list[str], interaction, lang: str) -> list:
    coord = _resolve_hex(g, _ns(interaction, "hex") or "")
    tiles = dict.fromkeys(m["tile"] for m in moves if m["hex"] == coord)
    return [(f"{t} ({word(COLOURS, g.map.tiles[t].colour, lang)})", t) for t in tiles]


@_autocomplete("lay_tile")
def ac_lay_rotation(g: G, moves: list, names: list[str], interaction, lang: str) -> list:
    coord = _resolve_hex(g, _ns(interaction, "hex") or "")
    tile = str(_ns(interaction, "tile") or "").strip()
    return [(move_text(g, m, names, lang=lang), m["rotation"]) for m in moves
            if m["hex"] == coord and m["tile"] == tile]


@_autocomplete("place_token")
def ac_token_hex(g: G, moves: list, names: list[str], interaction, lang: str) -> list:
    """The cities open to a token, found by coordinate or by the place's name in English or Japanese."""
    return [(move_text(g, m, names, lang=lang), m["hex"], _hex_spellings(g, m["hex"])) for m in moves]


@_autocomplete("buy_train")
def ac_train(g: G, moves: list, names: list[str], interaction, lang: str) -> list:
    return [(move_text(g, m, names, lang=lang), m["train"]) for m in moves]


@_autocomplete("buy_train")
def ac_exchange(g: G, moves: list, names: list[str], interaction, lang: str) -> list:
    train_id = (_ns(interaction, "train") or "").strip()
    return [(move_text(g, m, names, lang=lang), m["exchange"]) for m in moves
            if m.get("exchange") and m["train"] == train_id]


@_autocomplete("buy_company")
def ac_private(g: G, moves: list, names: list[str], interaction, lang: str) -> list:
    return [(private_name(g, m["company"], lang), m["company"], _spellings(full_name(g.pdef(m["company"]))))
            for m in moves]


@_autocomplete("buy_company")
def ac_private_price(g: G, moves: list, names: list[str], interaction, lang: str) -> list:
    pid = (_ns(interaction, "company") or "").casefold()
    return [(move_text(g, m, names, lang=lang), m["price"]) for m in moves if m["company"].casefold() == pid]


async def ac_place(interaction: discord.Interaction, current: str) -> list[app_commands.Choice]:
    """Every named place of the table's map, in the reader's language, found by either language's name or by its
    coordinate."""
    try:
        table = await _find_table(interaction, _ns(interaction, "table"))
        lang = await reader_lang(interaction)
    except Exception:
        return []
    g = G(table.state)
    return _choices([(place(g, coord, lang), coord, _hex_spellings(g, coord)) for coord in g.map.names], current)


TABLE = N_("Which table (only if the channel has several)")


def _matching(moves: list[dict[str, Any]], **fields) -> dict[str, Any] | None:
    return next((m for m in moves if all(m.get(k) == v for k, v in fields.items())), None)


def _chosen(table: Table, seat: int, doing: str, *wanted: dict[str, Any]) -> tuple[dict[str, Any] | None, list]:
    """The user's legal move matching the first of `wanted` (fields, its type among them) that one matches, or None,
    with his legal moves of those types; refused (_waiting, `doing`) when he has none of them."""
    types = {w["type"] for w in wanted}
    moves = [m for m in legal_moves(table, seat) if m["type"] in types]
    if not moves:
        raise _waiting(table, seat, doing)
    return next((m for w in wanted if (m := _matching(moves, **w))), None), moves


class E18xxCog(commands.Cog):
    e18xx = app_commands.Group(name="18xx", description="18xx games (Shikoku 1889 …): name your moves, see the "
                                                        "map, market and charters.")

    def __init__(self, bot):
        self.bot = bot

    async def _act(self, interaction: discord.Interaction, table: Table, seat: int, move: dict[str, Any]):
        return await act(self.bot.tables, table, seat, interaction.user.id, move)

    @e18xx.command(name="bid", description="Bid in an auction: for a private company, or (1867, 1807) for a minor.")
    @app_commands.describe(company="The private company (1867, 1807: or the minor)",
                           price="Your bid (1889's cheapest private: its price)", table=TABLE)
    @app_commands.autocomplete(company=ac_bid_company, price=ac_bid_price, table=table_autocomplete)
    async def bid(self, interaction: discord.Interaction, company: str, price: int, table: int | None = None):
        async def work():
            t, seat = await _my_table(interaction, table)
            g = G(t.state)
            bids = [m for m in legal_moves(t, seat) if m["type"] == "bid"]
            if not bids:
                raise _waiting(t, seat, "bid")
            if g.round["kind"] == "auction" or (any("company" in m for m in bids) and _is_private(g, company)):
                move = {"type": "bid", "company": _resolve_private(g, company), "price": price}
            elif g.round["kind"] == "isr":  # 1890's initial stock round: a private or a minor
                try:
                    item = _resolve_private(g, company)
                except Refusal:
                    item = _resolve_corp(g, company)
                move = {"type": "bid", "company": item, "price": price}
            else:  # 1867's and 1807's stock round: a minor (1807's ferries and undergrounds: above)
                move = {"type": "bid", "corporation": _resolve_corp(g, company), "price": price}
            return await self._act(interaction, t, seat, move)

        await answer(interaction, work)

    @e18xx.command(name="merge", description="Merger round: merge with a minor, name the major it becomes, or "
                                             "gather a system (1807).")
    @app_commands.describe(corporation="The minor to merge with, the major to become, or (1807) the public company "
                                       "to gather", table=TABLE)
    @app_commands.autocomplete(corporation=ac_merge, table=table_autocomplete)
    async def merge(self, interaction: discord.Interaction, corporation: str, table: int | None = None):
        async def work():
            t, seat = await _my_table(interaction, table)
            cid = _resolve_corp(G(t.state), corporation)
            move, _ = _chosen(t, seat, "merge", {"type": "merge", "corporation": cid},
                              {"type": "merge", "entity": cid}, {"type": "merge_system", "corporation": cid})
            if move is None:
                raise _waiting(t, seat, "merge")
            return await self._act(interaction, t, seat, move)

        await answer(interaction, work)

    @e18xx.command(name="system", description="1807's merger round: form a system of the public companies "
                                              "gathered (or of your one company).")
    @app_commands.describe(system="The system to form (its charter)", table=TABLE)
    @app_commands.autocomplete(system=ac_system, table=table_autocomplete)
    async def system(self, interaction: discord.Interaction, system: str, table: int | None = None):
        async def work():
            t, seat = await _my_table(interaction, table)
            cid = _resolve_corp(G(t.state), system[:40])
            move, forms = _chosen(t, seat, "form a system", {"type": "form_system", "corporation": cid})
            if move is None:
                raise Refusal("You cannot form {cid} now; you may form {systems}.", cid=cid,
                              systems=", ".join(m["corporation"] for m in forms))
            return await self._act(interaction, t, seat, move)

        await answer(interaction, work)

    @e18xx.command(name="consent", description="Merger round (1807): agree or refuse that your company joins "
                                               "another's merger.")
    @app_commands.describe(answer_="Agree (your company joins) or refuse (it stays out)", table=TABLE)
    @app_commands.rename(answer_="answer")
    @app_commands.choices(answer_=[app_commands.Choice(name="agree", value="accept_offer"),
                                   app_commands.Choice(name="refuse", value="decline_offer")])
    @app_commands.autocomplete(table=table_autocomplete)
    async def consent(self, interaction: discord.Interaction, answer_: str, table: int | None = None):
        async def work():
            t, seat = await _my_table(interaction, table)
            asked = G(t.state).round.get("consent")
            if not asked or answer_ not in ("accept_offer", "decline_offer"):
                raise Refusal("No merger is waiting for your consent.")
            if seat != asked["seat"]:
                raise _waiting(t, seat, "answer")
            return await self._act(interaction, t, seat, {"type": answer_})

        await answer(interaction, work)

    @e18xx.command(name="oddshares", description="1807: settle two odd shares you cannot pay for as a system forms.")
    @app_commands.describe(choice="One share of the system and a third of its price, or four thirds of its price",
                           table=TABLE)
    @app_commands.autocomplete(choice=ac_odd_shares, table=table_autocomplete)
    async def oddshares(self, interaction: discord.Interaction, choice: str, table: int | None = None):
        async def work():
            t, seat = await _my_table(interaction, table)
            move, _ = _chosen(t, seat, "settle odd shares", {"type": "odd_shares", "choice": choice.strip()})
            if move is None:
                raise Refusal("Choose “share” (one share and a third of the price) or “money” (four thirds of the "
                              "price).")
            return await self._act(interaction, t, seat, move)

        await answer(interaction, work)

    @e18xx.command(name="convert", description="Convert a minor: 1867's into a major; 1890's into Kinki Nippon "
                                               "or a late private.")
    @app_commands.describe(corporation="The minor that converts", table=TABLE)
    @app_commands.autocomplete(corporation=ac_convert, table=table_autocomplete)
    async def convert(self, interaction: discord.Interaction, corporation: str, table: int | None = None):
        async def work():
            t, seat = await _my_table(interaction, table)
            cid = _resolve_corp(G(t.state), corporation)
            move, _ = _chosen(t, seat, "convert", {"type": "convert", "entity": cid})
            if move is None:
                raise _waiting(t, seat, "convert")
            return await self._act(interaction, t, seat, move)

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
                lang = reader()
                prices = ", ".join(money(g, c.price, lang) for c in g.title.market.par_cells)
                raise Refusal("{price} is not a par price; the par prices are {prices}.", price=money(g, price, lang),
                              prices=prices)
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
                if src == IPO:
                    raise Refusal("No {cid} share is in the IPO.", cid=cid)
                raise Refusal("No {cid} share is in the pool.", cid=cid)
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
                    raise Refusal("You hold no {cid} shares.", cid=cid)
                bundle = next((c for c, p in sale_bundles(g.cdef(cid), held) if p == percent), None)
                if bundle is None:
                    raise Refusal("You cannot sell {percent}% of {cid}; you hold {held}%.", percent=percent, cid=cid,
                                  held=g.percent(cid, g.key(seat)))
                move = {"type": "sell_shares", "shares": bundle, "percent": percent}
            return await self._act(interaction, t, seat, move)

        await answer(interaction, work)

    @e18xx.command(name="lay", description="Lay or upgrade a tile (without a tile or rotation: a picture of your "
                                           "lays on the hex, to pick by number).")
    @app_commands.describe(hex="The hex, like F3", tile="The tile number (leave out to see every lay here)",
                           rotation="Its rotation, 0 to 5 (leave out to see them drawn)", table=TABLE)
    @app_commands.autocomplete(hex=ac_lay_hex, tile=ac_lay_tile, rotation=ac_lay_rotation, table=table_autocomplete)
    async def lay(self, interaction: discord.Interaction, hex: str, tile: str | None = None,
                  rotation: int | None = None, table: int | None = None):
        async def work():
            t, seat = await _my_table(interaction, table)
            coord = _resolve_hex(G(t.state), hex)
            legal = [m for m in legal_moves(t, seat) if m["type"] == "lay_tile"]
            if tile is None or rotation is None:  # show the lays open there, drawn and numbered, to pick from
                named = tile.strip() if tile else None
                if not [m for m in legal if m["hex"] == coord and named in (None, m["tile"])]:
                    if not legal and seat not in t.engine.awaiting(t.state).seats:
                        raise _waiting(t, seat, "lay a tile")
                    if named:
                        raise Refusal("You cannot lay tile {tile} on {where} now.", tile=named[:8], where=coord[:8])
                    raise Refusal("You cannot lay a tile on {where} now.", where=coord[:8])
                return await lays_panel(t, seat, coord, named)
            move = (_matching([m for m in legal if m.get("entity_type") != "company"], hex=coord,
                              tile=tile.strip(), rotation=rotation)
                    or _matching(legal, hex=coord, tile=tile.strip(), rotation=rotation))
            if move is None:
                if not legal and seat not in t.engine.awaiting(t.state).seats:
                    raise _waiting(t, seat, "lay a tile")
                move = {"type": "lay_tile", "hex": coord, "tile": tile.strip(), "rotation": rotation}
            return await self._act(interaction, t, seat, move)

        await answer(interaction, work)

    @e18xx.command(name="token", description="Place a station token in a city your track reaches (without a hex: "
                                             "a picture of the cities open, to pick by number).")
    @app_commands.describe(hex="The hex of the city (leave out to see them all)",
                           city="Which city of the hex (1 unless it has several)", table=TABLE)
    @app_commands.autocomplete(hex=ac_token_hex, table=table_autocomplete)
    async def token(self, interaction: discord.Interaction, hex: str | None = None, city: int = 1,
                    table: int | None = None):
        async def work():
            t, seat = await _my_table(interaction, table)
            if seat not in t.engine.awaiting(t.state).seats:
                raise _waiting(t, seat, "place a token")
            if hex is None:
                if not [m for m in legal_moves(t, seat) if m["type"] == "place_token"]:
                    raise Refusal("There is no city you can place a token in now.")
                return await tokens_panel(t, seat)
            coord = _resolve_hex(G(t.state), hex)
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
            lang = reader()
            view = discord.ui.View(timeout=None)
            label = tr(lang, "Accept: {move}", move=move_text(g, move, seat_names(t), lang=lang))
            view.add_item(MoveNow(t.game.id, step_token(t.state), code_for(best, move), label,
                                  discord.ButtonStyle.success))
            head = tr(lang, "Table {id}: {cid}'s best runs (auto-router):", id=t.game.id, cid=cid)
            tail = tr(lang, "Accept them, or name your own with `/18xx run routes:2: J1 K4 | 3: K4 I4 F9`.")
            return {"content": "\n".join([head, run_text(g, move, lang), tail]), "view": view}

        await answer(interaction, work)

    @e18xx.command(name="dividend", description="Pay the revenue out to the shareholders, or withhold it.")
    @app_commands.describe(kind="Pay out (the price rises) or withhold (the treasury keeps it, the price falls)",
                           table=TABLE)
    @app_commands.choices(kind=[app_commands.Choice(name="pay out", value="payout"),
                                app_commands.Choice(name="pay half (1867's majors)", value="half"),
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
                offered = ", ".join(dict.fromkeys(train_name(m["train"]) for m in legal)) or tr(None, "none")
                raise Refusal("You cannot buy that train now (trains you can buy: {trains}).", trains=offered)
            move = {"type": "buy_train", "train": ids[0], "price": price}
            if exchange:
                move["exchange"] = exchange.strip()
            return await self._act(interaction, t, seat, move)

        await answer(interaction, work)

    @e18xx.command(name="offer", description="Answer an offer for your train or private, or withdraw your own.")
    @app_commands.describe(answer_="Accept or decline it (the seller), or withdraw it (the buyer)", table=TABLE)
    @app_commands.rename(answer_="answer")
    @app_commands.choices(answer_=[app_commands.Choice(name="accept", value="accept_offer"),
                                   app_commands.Choice(name="decline", value="decline_offer"),
                                   app_commands.Choice(name="withdraw", value="withdraw_offer")])
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
                   description="Buy a player's private (its owner must agree): your corporation, or you in 1890's "
                               "stock round.")
    @app_commands.describe(company="The private company",
                           price="Half to twice its face value (1890's stock round: any agreed price)", table=TABLE)
    @app_commands.autocomplete(company=ac_private, price=ac_private_price, table=table_autocomplete)
    async def buyprivate(self, interaction: discord.Interaction, company: str, price: int, table: int | None = None):
        async def work():
            t, seat = await _my_table(interaction, table)
            g = G(t.state)
            if seat not in t.engine.awaiting(t.state).seats or g.round["kind"] not in ("operating", "stock"):
                raise _waiting(t, seat, "buy that")  # 1890: a player buys from a player in a stock round
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
                    raise Refusal("You cannot pass now. {todo}",
                                  todo=todo(G(t.state), seat, seat_names(t), reader()).replace("**", ""))
                raise _waiting(t, seat, "pass")
            return await self._act(interaction, t, seat, move)

        await answer(interaction, work)

    async def _picture(self, interaction: discord.Interaction, table: int | None, what: str):
        async def work():
            t = await _find_table(interaction, table)
            lang = reader()
            if what == "map":
                png, text = map_png(t.state, lang), tr(lang, "Table {id}: the map now.", id=t.game.id)
                building = t.game.status == "active" and G(t.state).round.get("step") in ("track", "token")
                seat = t.game.seat_of(interaction.user.id) if building else None  # (legal moves: not the router's)
                near = None if seat is None else region_png(t.state, step_focus(t.state, legal_moves(t, seat)), lang)
                if near is not None:  # a big map at the player's track or token step: the part that matters first
                    name = f"table-{t.game.id}-map"
                    return {"content": tr(lang, "Table {id}: the map around your network and the hexes you may "
                                                "build on, then the whole map.", id=t.game.id),
                            "files": [discord.File(io.BytesIO(near), filename=f"{name}-around.png"),
                                      discord.File(io.BytesIO(png), filename=f"{name}.png")]}
            elif what == "market":
                png, text = market_png(t.state, lang), tr(lang, "Table {id}: the stock market now.", id=t.game.id)
            else:
                png = charters_png(t.state, seat_names(t), lang)
                text = tr(lang, "Table {id}: the corporations now.", id=t.game.id)
            return {"content": text,
                    "file": discord.File(io.BytesIO(png), filename=f"table-{t.game.id}-{what}.png")}

        await answer(interaction, work)

    @e18xx.command(name="map", description="The map as it stands: tiles and tokens (only you see it).")
    @app_commands.describe(around="A city or hex: on a big map, the part around it", table=TABLE)
    @app_commands.autocomplete(around=ac_place, table=table_autocomplete)
    async def map(self, interaction: discord.Interaction, around: str | None = None, table: int | None = None):
        """The whole map; at the player's track or token step on a big map, the part around their corporation's
        network and lays first (map_region); with `around`, the part around that place."""
        if around is None:
            await self._picture(interaction, table, "map")
            return

        async def work():
            t = await _find_table(interaction, table)
            lang, g = reader(), G(t.state)
            coord = _resolve_hex(g, around)
            if coord not in g.map.printed:
                raise Refusal("There is no hex or city called “{name}” on this map.", name=around[:40])
            png = region_png(t.state, {coord}, lang, marks=(coord,))
            if png is None:  # a small map reads whole
                png, text = map_png(t.state, lang), tr(lang, "Table {id}: the map now.", id=t.game.id)
            else:
                text = tr(lang, "Table {id}: the map around {where}.", id=t.game.id, where=place(g, coord, lang))
            return {"content": text, "file": discord.File(io.BytesIO(png), filename=f"table-{t.game.id}-map.png")}

        await answer(interaction, work)

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
                return tr(None, "Your undo request is posted; the players it affects must agree.")
            return tr(None, "Your last move was undone.")

        await answer(interaction, work)


async def setup(bot) -> None:
    presenter = E18xxPresenter()
    for engine in e18xx_engines():
        register(engine.name, presenter)
    await bot.add_cog(E18xxCog(bot))
