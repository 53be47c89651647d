"""Tokai Baron (東海男爵) in Discord: the table in words, the narration of every move, the map picture, and the
move panel.

Nothing is secret in this game, so the "hand" is only a summary and the panel. The panel's buttons and menus
carry the move itself as compact JSON (like I'm the Boss!) plus a short *step token* (the engine's event
counter, the seat to play and the stage): a panel from an earlier step is refused with a sentence, so an old
"Pass" from a purchase can never be read as a pass in a later auction. A move menu is ordered best first:
arrival, then fewest hops left to the destination, then the lowest fare; an ending from which the destination
could never be reached is marked as a dead end. ``/tokai move to:… via:…`` names the way (waypoints) and
``/tokai map`` shows the map to the one who asks."""
from __future__ import annotations

import io
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import Refusal
from bot.interact import answer
from bot.items import NOT_OFFERED, number
from bot.move_items import STALE, PanelButton, PanelMenu, compact, legal_move
from bot.place import Place
from bot.present import Presenter, fill, register
from bot.table_ui import hand_reply
from bot.tables import Change, Table
from cogs.table import table_autocomplete
from engines.tokai import debts
from engines.tokai import movement as mv
from engines.tokai import network as nw
from engines.tokai.engine import TICKET, TokaiBaron, card_name, point_name, price, region_name

DOTS = ["🔴", "🔵", "🟢", "🟠", "🟣", "🩵"]  # the seat colours of the map picture
STAGES = {"prebuy": "p", "start": "s", "dest": "d", "move": "m", "buy": "b", "sell": "l", "auction": "a"}
MENU_KINDS = ("move", "choose", "region")  # many similar choices: menus
CARD_KINDS = ("buy", "sell", "auction")  # buttons when few, else a menu per kind
PER_MENU = 25  # Discord's limit of options in a select menu
ROWS = 5  # Discord's limit of rows in a message
TOKEN = r"\d+\.\d+\.[a-z]\d"


def _names(table: Table) -> list[str]:
    return [s.name for s in table.game.in_seat_order()]


def _who(names: list[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else "?"


def yen(n: int) -> str:
    return f"{n:,} yen"


def event_line(event: dict[str, Any], names: list[str]) -> str:
    """An engine event with [0], [1] … replaced by the names of its seats."""
    return fill(event, lambda seat: _who(names, seat) if isinstance(seat, int) else "?")


def step_token(state: dict[str, Any]) -> str:
    """What identifies the step a panel was made for: the turn, the seat to play, the stage and the part (normal or
    bonus). Buying on in the pre-purchase, selling on, or bidding keep the step; a new stage or turn does not."""
    turn = state.get("turn")
    bonus = int(bool(turn and turn["bonus"]))
    return f"{state['turn_no']}.{state['current']}.{STAGES.get(stage_of(state), 'x')}{bonus}"


def stage_of(state: dict[str, Any]) -> str:
    turn = state.get("turn")
    return turn["stage"] if state["phase"] == "play" and turn else state["phase"]


# --- what a move costs and where it leads -------------------------------------------------------------
def turn_fare(state: dict[str, Any], seat: int, path: list) -> int:
    """The turn's fares if the move takes ``path``: the normal part, if any, and this part together, as the
    engine charges them at the end of the turn (each payee once, at its highest fare)."""
    turn, me = state["turn"], state["players"][seat]
    full = [list(h) for h in turn["path"]]
    if len(full) > 1:
        full.append([me["pos"], None])  # the pause between the normal and the bonus move
    full.extend(list(h) for h in path[1:])
    bills = mv.fare([(p, line) for p, line in full], state["owners"], seat, me["riding"])
    return sum(bills.values())


def path_text(path: list, limit: int = 100) -> str:
    """The stations of a path, "栄 → 久屋大通 → …", shortened in the middle to fit ``limit``."""
    names = [point_name(p) for p, _ in path]
    text = " → ".join(names)
    if len(text) <= limit:
        return text
    head, tail = names[:2], names[-3:]
    while len(" → ".join([*head, "…", *tail])) > limit and len(tail) > 1:
        tail = tail[1:]
    return " → ".join([*head, "…", *tail])[:limit]


def move_options(state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """Every ending of the move, best first: arriving, then fewest hops left, then the lowest fare; dead ends
    (the destination could never be reached from there) last. Each is {to, path, left, fare, label}."""
    turn, me = state["turn"], state["players"][seat]
    left = TokaiBaron.hops_left(state, seat)
    pay = nw.payout_table_lookup(me["from"], me["dest"]) if me["from"] and me["dest"] else 0
    out = []
    for to, path in turn["moves"].items():
        fare = turn_fare(state, seat, path)
        out.append({"to": to, "path": path, "left": left[to], "fare": fare,
                    "label": move_text(to, left[to], fare, pay)})
    out.sort(key=lambda o: (o["left"] is None, o["left"] or 0, o["fare"], point_name(o["to"]), o["to"]))
    return out


def move_text(to: str, left: int | None, fare: int, payout: int = 0) -> str:
    name = point_name(to)
    if left is None:
        return f"⚠ {name} — dead end: you could never reach your destination from there (fare {fare:,})"
    if left == 0:
        return f"{name} — 0 to go, fare {fare:,} (arrive! collect {payout:,})"
    return f"{name} — {left} to go, fare {fare:,}"


def card_text(card: str) -> str:
    """Where a route card runs: the ends of each of its sections."""
    if card == TICKET:
        return "any double earns a bonus turn; express-pass stations are not counted"
    secs = nw.route_cards()[card]["sections"]
    return " · ".join(f"{point_name(s['stations'][0])}–{point_name(s['stations'][-1])}" for s in secs)


def _region_of(point: str) -> str | None:
    try:
        return nw.region_of_point(point)
    except KeyError:
        return None


def _area(region: str) -> str:
    return next((r["area"] for r in nw.load_destinations()["regions"] if r["id"] == region), "")


# --- the presenter ----------------------------------------------------------------------------------------
class TokaiPresenter(Presenter):
    def public_lines(self, table: Table, lang: str = "en") -> list[str]:
        s = table.engine.public(table.state)
        names = _names(table)
        lines = [self._now_line(table.engine, s, names)] if s["phase"] != "over" else []
        for seat, p in enumerate(s["players"]):
            lines.append(self._player_line(s, seat, p, names))
        unsold = sum(1 for o in s["owners"].values() if o is None)
        lines.append(f"Bank: {unsold} of {len(s['owners'])} route cards unsold · {s['tickets']} express tickets")
        lines += self._turn_lines(s, names)
        if s["events"]:
            lines.append("Lately: " + " ".join(event_line(e, names) for e in s["events"][-4:]))
        scores = table.engine.scores(s)
        if scores is not None:
            ranked = sorted(range(len(names)), key=lambda x: -scores[x])
            lines.append("**Final assets:** " + " · ".join(
                f"{i}. {names[x]} {yen(scores[x])}" + (" (out)" if s["players"][x]["out"] else
                                                      f" (cash {s['players'][x]['cash']:,} + lines "
                                                      f"{scores[x] - s['players'][x]['cash']:,})")
                for i, x in enumerate(ranked, 1)))
        return lines

    @staticmethod
    def _now_line(engine, s: dict[str, Any], names: list[str]) -> str:
        phase, cur = s["phase"], s["current"]
        if phase in ("order", "deal"):
            return "Rolling for seat order and dealing the pre-purchase cards."
        prompt = engine.awaiting(s).prompt
        if phase == "prebuy":
            return (f"**Pre-purchase** · {names[cur]} has spent {s['spent'][cur]:,} of 20,000–40,000"
                    + (f" · now: {prompt}" if prompt else ""))
        if phase == "start":
            return f"**Start points** · {names[cur]}" + (f" · now: {prompt}" if prompt else "")
        turn = s["turn"]
        text = f"**{names[cur]}'s turn**" + (" · bonus part (coloured die)" if turn["bonus"] else "")
        if turn["stage"] == "move":
            text += f" · rolled {' + '.join(map(str, turn['dice']))} = {turn['steps']}"
        return text + (f" · now: {prompt}" if prompt else "")

    @staticmethod
    def _player_line(s: dict[str, Any], seat: int, p: dict[str, Any], names: list[str]) -> str:
        dot = DOTS[seat % len(DOTS)]
        if p["out"]:
            return f"{dot} ~~{names[seat]}~~ · out of the game"
        mark = "▶ " if s["phase"] not in ("over",) and s["current"] == seat else ""
        parts = [f"{mark}{dot} **{names[seat]}** · {yen(p['cash'])}"]
        if p["pos"]:
            where = f"at {point_name(p['pos'])}"
            if p["dest"]:
                where += f" → {point_name(p['dest'])} (pays {yen(nw.payout_table_lookup(p['from'], p['dest']))})"
            parts.append(where)
        cards = ", ".join(card_name(c) for c in p["cards"])
        parts.append(f"lines: {cards}" if cards else "no lines")
        if p["ticket"]:
            parts.append("express ticket")
        if p["riding"]:
            parts.append("riding at the unowned fare: " + ", ".join(  # ruling 15: the Shinkansen keeps 6,000
                f"{card_name(c)} ({yen(mv.card_fares(c)['unowned'])})" for c in p["riding"]))
        if s["phase"] == "prebuy" and s["hands"]:
            left = [c for c in s["hands"][seat] if s["owners"][c] is None]
            if left:
                parts.append("deal: " + ", ".join(f"{card_name(c)} {price(c) // 1000}k" for c in left))
        return " · ".join(parts)

    @staticmethod
    def _turn_lines(s: dict[str, Any], names: list[str]) -> list[str]:
        turn = s["turn"]
        if s["phase"] != "play" or not turn:
            return []
        out = []
        cur = s["current"]
        if turn["bills"] and turn["stage"] in ("sell", "auction"):
            bills = ", ".join(f"{amount:,} to " + ("the bank" if payee == debts.BANK else _who(names, payee))
                              for payee, amount in turn["bills"])
            out.append(f"{names[cur]} owes fares ({bills}) with {yen(s['players'][cur]['cash'])} in hand: "
                       "selling lines.")
        a = turn.get("auction")
        if turn["stage"] == "auction" and a:
            high = (f"high bid {yen(a['high_bid'])} by {_who(names, a['high_bidder'])}"
                    if a["high_bidder"] is not None else "no bid yet")
            still = ", ".join(_who(names, x) for x in a["active"] if x != a["high_bidder"]) or "nobody"
            out.append(f"**Auction** of {card_name(a['card'])} (face {yen(price(a['card']))}) · {high} · "
                       f"still bidding: {still}")
        return out

    def private_lines(self, table: Table, seat: int, lang: str = "en") -> list[str]:
        s = table.state
        me = s["players"][seat]
        names = _names(table)
        if me["out"]:
            lines = ["You are out of the game."]
        else:
            lines = [f"You: **{yen(me['cash'])}**"
                     + (f" · at {point_name(me['pos'])}" if me["pos"] else "")
                     + (f" → bound for {point_name(me['dest'])} (pays "
                        f"{yen(nw.payout_table_lookup(me['from'], me['dest']))})" if me["dest"] else ""),
                     "Your lines: " + (", ".join(f"{card_name(c)} ({price(c):,})" for c in me["cards"]) or "none")
                     + (" · express ticket" if me["ticket"] else "")]
        aw = table.engine.awaiting(s)
        if seat in aw.seats:
            lines.append(f"**Your move:** {self._todo(s, seat)}")
        elif table.engine.scores(s) is None and aw.seats:
            lines.append(f"Waiting for {', '.join(names[x] for x in sorted(aw.seats))}: {aw.prompt}.")
        return lines

    @staticmethod
    def _todo(s: dict[str, Any], seat: int) -> str:
        me = s["players"][seat]
        stage = stage_of(s)
        if stage == "prebuy":
            return (f"buy from your deal or an express ticket, one at a time ({s['spent'][seat]:,} spent; "
                    "20,000 to 40,000 yen in all), then press Done buying.")
        if stage == "start":
            return "任意 came up: name any point on the tables as your start."
        turn = s["turn"]
        if stage == "dest":
            if len(turn["rolls"]) == 1:
                return "you rolled the region you stand in: choose any region for your destination."
            return "任意 came up: name any destination point."
        if stage == "move":
            return (f"you rolled {turn['steps']}: choose where your move ends (best first). "
                    "`/tokai move to:… via:…` names the points your way must pass.")
        if stage == "buy":
            return "you arrived: buy one route card or an express ticket, or pass."
        if stage == "sell":
            due = sum(a for _, a in turn["bills"])
            return (f"your fares come to {yen(due)} and you have {yen(me['cash'])}: sell route cards, to the bank "
                    "at half price or at auction, until you can pay.")
        if stage == "auction":
            a = turn["auction"]
            if seat == s["current"]:
                half = debts.sell_to_bank(price(a["card"]))
                return (f"the bidding for {card_name(a['card'])} is over at {yen(a['high_bid'])}: accept it, or "
                        f"sell to the bank for {yen(half)} instead.")
            limit = dict(map(tuple, a["cash"])).get(seat, 0) + dict(map(tuple, a["owed"])).get(seat, 0)
            return (f"bid for {card_name(a['card'])} (at least {yen(a['high_bid'] + debts.UNIT)}, at most "
                    f"{yen(limit)}) or pass; a pass is final.")
        return "make your choice."

    def move_label(self, table: Table, action: dict[str, Any], lang: str = "en") -> str:
        s = table.state
        kind = action.get("type")
        if kind == "move" and set(action) == {"type", "to"} and s and stage_of(s) == "move" \
                and action["to"] in s["turn"]["moves"]:
            return next(o["label"] for o in move_options(s, s["current"]) if o["to"] == action["to"])
        if kind == "pass" and s and stage_of(s) in ("buy", "auction"):
            return "Buy nothing" if stage_of(s) == "buy" else "Pass (no more bids from you)"
        if kind == "region" and isinstance(action.get("region"), str):
            return f"{region_name(action['region'])} ({_area(action['region'])})"
        if kind == "choose" and isinstance(action.get("point"), str):
            region = _region_of(action["point"])
            return point_name(action["point"]) + (f" ({region_name(region)})" if region else "")
        return table.engine.label(action)

    def announce(self, change: Change, lang: str = "en") -> list[tuple[str, bytes | None]]:
        """What happened, in order, as one post (the engine's events); the map picture after a move (a pawn
        moved) and at the end of the game."""
        table = change.table
        after, before = table.state, change.before
        names = _names(table)
        seen = before["event_no"] if before else 0
        lines = [event_line(e, names) for e in after["events"] if e["no"] > seen]
        moved = before is None or any(p["pos"] != q["pos"] for p, q in zip(before["players"], after["players"],
                                                                            strict=False))
        ended = after["phase"] == "over" and (before is None or before["phase"] != "over")
        picture = None
        if (moved and any(p["pos"] for p in after["players"])) or ended:
            from cogs.tokai_map import render

            picture = render(table.engine.public(after), names)
        if not lines and picture is None:
            return []
        text = "\n".join(lines) or "The map now:"
        return [(f"Table {table.game.id}: {text}"[:2000], picture)]

    def move_view(self, table: Table, seat: int, lang: str = "en"):
        moves = table.engine.legal(table.state, seat)
        if not moves:
            return None
        return panel(self, table, seat, moves)


# --- the panel -----------------------------------------------------------------------------------------------
def _chunks(items: list, size: int = PER_MENU) -> list[list]:
    return [items[i:i + size] for i in range(0, len(items), size)]


def panel(pres: TokaiPresenter, table: Table, seat: int, moves: list[dict[str, Any]]) -> discord.ui.View:
    """The seat's moves: menus for the move, a point or a region; buttons for the rest, or a menu per kind of
    card move (buy, sell, auction) when there are too many for buttons."""
    s, gid = table.state, table.game.id
    tok = step_token(s)
    view = discord.ui.View(timeout=None)
    kinds = {m["type"] for m in moves}
    if "move" in kinds:
        add_move_menus(view, gid, tok, move_options(s, seat), 0)
        return view
    if kinds & {"choose", "region"}:
        points = [m for m in moves if m["type"] == "choose"]
        regions = [m for m in moves if m["type"] == "region"]
        if regions:
            view.add_item(MoveMenu(gid, tok, 0, [(pres.move_label(table, m), compact(m), None) for m in regions],
                                   "Choose a region"))
        order = {r: i for i, r in enumerate(r["id"] for r in nw.load_destinations()["regions"])}
        points.sort(key=lambda m: (order.get(_region_of(m["point"]), 99), point_name(m["point"])))
        for slot, chunk in enumerate(_chunks(points)[:ROWS - len(view.children)], len(view.children)):
            ends = [region_name(_region_of(c["point"])) for c in (chunk[0], chunk[-1]) if _region_of(c["point"])]
            view.add_item(MoveMenu(gid, tok, slot, [(pres.move_label(table, m), compact(m), point_area(m["point"]))
                                                    for m in chunk], "Name a point (" + " … ".join(ends) + ")"))
        return view
    cards = [m for m in moves if m["type"] in CARD_KINDS]
    singles = [m for m in moves if m["type"] not in CARD_KINDS]
    if len(cards) + len(singles) <= 20:
        for m in moves:
            view.add_item(MoveNow(gid, tok, m, pres.move_label(table, m)))
        return view
    for m in singles:
        view.add_item(MoveNow(gid, tok, m, pres.move_label(table, m)))
    slot = 0
    titles = {"buy": "Buy a route card or the express ticket", "sell": "Sell a line to the bank (half price)",
              "auction": "Put a line up for auction"}
    for kind in CARD_KINDS:
        group = [m for m in cards if m["type"] == kind]
        for chunk in _chunks(group):
            view.add_item(MoveMenu(gid, tok, slot, [(pres.move_label(table, m), compact(m), card_text(m["card"]))
                                                    for m in chunk], titles[kind]))
            slot += 1
    return view


def point_area(point: str) -> str | None:
    region = _region_of(point)
    return f"{region_name(region)}: {_area(region)}" if region else None


def add_move_menus(view: discord.ui.View, gid: int, tok: str, options: list[dict[str, Any]], start: int) -> None:
    """Menus of the move's endings from ``start``, 25 each; when they do not all fit, the last row offers the
    rest a page at a time."""
    rest = options[start:]
    if len(rest) > ROWS * PER_MENU:
        shown, more = rest[:(ROWS - 1) * PER_MENU], True
    else:
        shown, more = rest, False
    for slot, chunk in enumerate(_chunks(shown)):
        a = start + slot * PER_MENU + 1
        view.add_item(MoveMenu(gid, tok, slot, [(o["label"], compact({"type": "move", "to": o["to"]}),
                                                 path_text(o["path"])) for o in chunk],
                               f"Where does your move end? {a}–{a + len(chunk) - 1} of {len(options)}"
                               + (" (best first)" if a == 1 else "")))
    if more:
        after = start + len(shown)
        pages = [(f"Endings {i + 1}–{min(i + ROWS * PER_MENU, len(options))} of {len(options)}", str(i), None)
                 for i in range(after, len(options), ROWS * PER_MENU)]
        view.add_item(MoreMoves(gid, tok, None, pages[:PER_MENU], "More endings (further from your destination)"))


async def act(tables, table: Table, seat: int, user_id: int, move: dict[str, Any]) -> dict[str, Any]:
    """Play the move and answer with what was played (labelled in the state it was chosen in), then the panel."""
    pres = TokaiPresenter()
    label = pres.move_label(table, move)
    table = await tables.act(table.game.id, user_id, move, chosen_at=table.seq)
    reply = hand_reply(table, seat)
    reply["content"] = f"You played **{label}**.\n{reply['content']}"[:2000]
    return reply


class _Step:
    """Tokai's panel items carry the step token; a choice plays its move."""

    serves = staticmethod("tokai".__eq__)
    token, step = TOKEN, staticmethod(step_token)

    async def choose(self, interaction: discord.Interaction, code: str) -> dict[str, Any]:
        table, seat = await self.load(interaction)
        return await act(interaction.client.tables, table, seat, interaction.user.id, legal_move(table, seat, code))


class MoveNow(_Step, PanelButton, prefix="tx"):
    STYLES = {"done": discord.ButtonStyle.success, "accept": discord.ButtonStyle.success,
              "bank": discord.ButtonStyle.danger, "auction": discord.ButtonStyle.primary,
              "bid": discord.ButtonStyle.primary, "buy": discord.ButtonStyle.primary}


class MoveMenu(_Step, PanelMenu, prefix="txs"):
    pass


class MoreMoves(_Step, PanelMenu, prefix="txm", slot=False):
    """The endings past the first hundred, a page of up to 125 at a time (answered with its own menus)."""

    async def choose(self, interaction: discord.Interaction, start: str) -> dict[str, Any]:
        table, seat = await self.load(interaction)
        if stage_of(table.state) != "move" or table.state["current"] != seat:
            raise Refusal(STALE)
        view = discord.ui.View(timeout=None)
        options = move_options(table.state, seat)
        try:
            first = number(start, len(options) - 1)
        except ValueError:
            raise Refusal(NOT_OFFERED) from None
        add_move_menus(view, self.gid, self.tok, options, first)
        return {"content": f"Table {self.gid}: more endings for your move of {table.state['turn']['steps']}.",
                "view": view}


DYNAMIC_ITEMS = (MoveNow, MoveMenu, MoreMoves)


# --- /tokai: naming the way, the map -----------------------------------------------------------------------
SEPARATORS = re.compile(r"[\s,、，→>/]+")


def resolve_point(text: str) -> str:
    """A point from what a player typed: its id (nagoya), its name (名古屋, also 名古屋駅), another name of a merged
    station (名鉄名古屋), or its reading (なごや)."""
    t = text.strip()
    st = nw.stations()
    if t.lower() in st:
        return t.lower()
    for candidate in (t, t.removesuffix("駅")):
        try:
            return nw.station_id(candidate)
        except KeyError:
            pass
    found = next((sid for sid, s in st.items() if s.get("reading") == t), None)
    if found:
        return found
    raise Refusal(f"There is no point called “{t}” on the map. Write a station's name as the map does (名古屋), "
                  "its id (nagoya) or its reading (なごや).")


def parse_via(text: str) -> list[str]:
    return [resolve_point(part) for part in SEPARATORS.split(text or "") if part]


async def _tokai_table(interaction: discord.Interaction, table_id: int | None) -> Table:
    tables = interaction.client.tables
    gid = await tables.resolve(Place.of(interaction), table_id, kind="tokai".__eq__, what="Tokai Baron")
    return await tables.load(gid)


async def to_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The endings of your move now, best first, that match what you typed (name, id or reading)."""
    try:
        table = await _tokai_table(interaction, getattr(interaction.namespace, "table", None))
        seat = interaction.client.tables.player_seat(table, interaction.user.id)
    except Exception:
        return []
    s = table.state
    if stage_of(s) != "move" or s["current"] != seat:
        return []
    typed = current.strip().lower()
    out = []
    for o in move_options(s, seat):
        st = nw.stations()[o["to"]]
        if typed and not any(typed in x.lower() for x in (st["name"], o["to"], st.get("reading", ""))):
            continue
        out.append(app_commands.Choice(name=o["label"][:100], value=o["to"]))
        if len(out) == 25:
            break
    return out


class TokaiCog(commands.Cog):
    tokai = app_commands.Group(name="tokai", description="Tokai Baron: name your way, see the map.")

    def __init__(self, bot):
        self.bot = bot

    @tokai.command(name="move", description="Move, naming the points your way must pass (waypoints), in order.")
    @app_commands.describe(to="Where your move ends (the menu lists your endings, best first)",
                           via="Points your way must pass, in order: names or ids, separated by commas or spaces",
                           table="Which table (only if the channel has several)")
    @app_commands.autocomplete(to=to_autocomplete, table=table_autocomplete)
    async def move(self, interaction: discord.Interaction, to: str, via: str = "", table: int | None = None) -> None:
        async def work():
            t = await _tokai_table(interaction, table)
            tables = self.bot.tables
            seat = tables.player_seat(t, interaction.user.id)
            s = t.state
            if stage_of(s) != "move" or s["current"] != seat:
                aw = t.engine.awaiting(s)
                names = _names(t)
                waiting = ", ".join(names[x] for x in sorted(aw.seats)) or "chance"
                raise Refusal(f"You have no move to make now: table {t.game.id} is waiting for {waiting} "
                              f"({aw.prompt or 'a draw'}).")
            end = resolve_point(to)
            if end not in s["turn"]["moves"]:
                raise Refusal(f"Your move of {s['turn']['steps']} cannot end at {point_name(end)}; the `to` menu "
                              "lists where it can.")
            points = parse_via(via)
            move = {"type": "move", "to": end, "via": points} if points else {"type": "move", "to": end}
            return await act(tables, t, seat, interaction.user.id, move)

        await answer(interaction, work)

    @tokai.command(name="map", description="The map as it stands: lines owned, pawns, destinations (only you see it).")
    @app_commands.describe(table="Which table (only if the channel has several)")
    @app_commands.autocomplete(table=table_autocomplete)
    async def map(self, interaction: discord.Interaction, table: int | None = None) -> None:
        async def work():
            t = await _tokai_table(interaction, table)
            if t.state is None:
                raise Refusal(f"Table {t.game.id} has not started yet: there is nothing on the map.")
            from cogs.tokai_map import render

            png = render(t.engine.public(t.state), _names(t))
            return {"content": f"Table {t.game.id}: the map now.",
                    "file": discord.File(io.BytesIO(png), filename=f"table-{t.game.id}-map.png")}

        await answer(interaction, work)


async def setup(bot) -> None:
    register("tokai", TokaiPresenter())
    await bot.add_cog(TokaiCog(bot))
