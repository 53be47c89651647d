"""Tokai Baron (東海男爵) in Discord: the table in words, the narration of every move, the map picture, and the
move panel.

Nothing is secret in this game, so the "hand" is only a summary and the panel. The panel's buttons and menus
carry the move itself as compact JSON (like I'm the Boss!) plus a short *step token* (the engine's event
counter, the seat to play and the stage): a panel from an earlier step is refused with a sentence, so an old
"Pass" from a purchase can never be read as a pass in a later auction. A move menu is ordered best first:
arrival, then fewest hops left to the destination, then the lowest fare; an ending from which the destination
could never be reached is marked as a dead end. ``/tokai move to:… via:…`` names the way (waypoints) and
``/tokai map`` shows the map to the one who asks.

Every word is said in the reader's language (``lang``): the table's for the channel, the player's for their panel;
stations, lines and regions by their names in that language (engines.tokai.engine's Name), yen as each language
writes it."""
from __future__ import annotations

import io
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import Refusal
from bot.i18n import reader, say, tr
from bot.interact import answer, reader_lang
from bot.items import NOT_OFFERED, number
from bot.move_items import STALE, PanelButton, PanelMenu, compact, legal_move
from bot.place import Place
from bot.present import Presenter, fill, register
from bot.table_ui import hand_reply
from bot.tables import Change, Table
from cogs.table import table_autocomplete
from engines.text import N_, Money, from_json
from engines.tokai import debts
from engines.tokai import movement as mv
from engines.tokai import network as nw
from engines.tokai.engine import TICKET, TokaiBaron, card_name, point_name, price, region_area, region_name

DOTS = ["🔴", "🔵", "🟢", "🟠", "🟣", "🩵"]  # the seat colours of the map picture
STAGES = {"prebuy": "p", "start": "s", "dest": "d", "move": "m", "buy": "b", "sell": "l", "auction": "a"}
MENU_KINDS = ("move", "choose", "region")  # many similar choices: menus
CARD_KINDS = ("buy", "sell", "auction")  # buttons when few, else a menu per kind
PER_MENU = 25  # Discord's limit of options in a select menu
ROWS = 5  # Discord's limit of rows in a message
TOKEN = r"\d+\.\d+\.[a-z]\d"
#: The menu of each kind of card move, when there are too many for buttons.
TITLES = {"buy": N_("Buy a route card or the express ticket"), "sell": N_("Sell a line to the bank (half price)"),
          "auction": N_("Put a line up for auction")}


def _names(table: Table) -> list[str]:
    return [s.name for s in table.game.in_seat_order()]


def _who(names: list[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else "?"


def yen(n: int, lang: str = "en") -> str:
    """An amount as the reader writes yen: ¥5,000 / 5,000円."""
    return say(Money(n, "yen"), lang)


def event_line(event: dict[str, Any], names: list[str], lang: str = "en") -> str:
    """An engine event in ``lang``, with [0], [1] … replaced by the names of its seats. Its values are stored each as
    JSON (engines.text.to_json), so they are read back one by one here."""
    values = {k: from_json(v) for k, v in (event.get("values") or {}).items()}
    return fill({**event, "values": values}, lambda seat: _who(names, seat) if isinstance(seat, int) else "?", lang)


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


def path_text(path: list, limit: int = 100, lang: str = "en") -> str:
    """The stations of a path, "Sakae → Hisaya-odori → …" (栄 → 久屋大通 → …), shortened in the middle to fit
    ``limit``."""
    names = [say(point_name(p), lang) for p, _ in path]
    text = " → ".join(names)
    if len(text) <= limit:
        return text
    head, tail = names[:2], names[-3:]
    while len(" → ".join([*head, "…", *tail])) > limit and len(tail) > 1:
        tail = tail[1:]
    return " → ".join([*head, "…", *tail])[:limit]


def move_options(state: dict[str, Any], seat: int, lang: str = "en") -> list[dict[str, Any]]:
    """Every ending of the move, best first: arriving, then fewest hops left, then the lowest fare; dead ends
    (the destination could never be reached from there) last. Each is {to, path, left, fare, label}."""
    turn, me = state["turn"], state["players"][seat]
    left = TokaiBaron.hops_left(state, seat)
    pay = nw.payout_table_lookup(me["from"], me["dest"]) if me["from"] and me["dest"] else 0
    out = []
    for to, path in turn["moves"].items():
        fare = turn_fare(state, seat, path)
        out.append({"to": to, "path": path, "left": left[to], "fare": fare,
                    "label": move_text(to, left[to], fare, pay, lang)})
    out.sort(key=lambda o: (o["left"] is None, o["left"] or 0, o["fare"], o["to"]))
    return out


def move_text(to: str, left: int | None, fare: int, payout: int = 0, lang: str = "en") -> str:
    name, cost = point_name(to), Money(fare, "yen")
    if left is None:
        return tr(lang, "⚠ {point} — dead end: you could never reach your destination from there (fare {fare})",
                  point=name, fare=cost)
    if left == 0:
        return tr(lang, "{point} — 0 to go, fare {fare} (arrive! collect {pay})", point=name, fare=cost,
                  pay=Money(payout, "yen"))
    return tr(lang, "{point} — {left} to go, fare {fare}", point=name, left=left, fare=cost)


def card_text(card: str, lang: str = "en") -> str:
    """Where a route card runs: the ends of each of its sections."""
    if card == TICKET:
        return tr(lang, "any double earns a bonus turn; express-pass stations are not counted")
    secs = nw.route_cards()[card]["sections"]
    return " · ".join(f"{say(point_name(s['stations'][0]), lang)}–{say(point_name(s['stations'][-1]), lang)}"
                      for s in secs)


def _region_of(point: str) -> str | None:
    try:
        return nw.region_of_point(point)
    except KeyError:
        return None


def _join(items, lang: str) -> str:
    """A list as the reader writes one: "a, b" in English, "a、b" in Japanese."""
    return ("、" if lang == "ja" else ", ").join(items)


def _lines_of(cards: list[str], lang: str) -> str:
    return _join((say(card_name(c), lang) for c in cards), lang)


# --- the presenter ----------------------------------------------------------------------------------------
class TokaiPresenter(Presenter):
    def public_lines(self, table: Table, lang: str = "en") -> list[str]:
        s = table.engine.public(table.state)
        names = _names(table)
        lines = [self._now_line(table.engine, s, names, lang)] if s["phase"] != "over" else []
        for seat, p in enumerate(s["players"]):
            lines.append(self._player_line(s, seat, p, names, lang))
        unsold = sum(1 for o in s["owners"].values() if o is None)
        lines.append(tr(lang, "Bank: {unsold} of {total} route cards unsold · express tickets left: {tickets}",
                        unsold=unsold, total=len(s["owners"]), tickets=s["tickets"]))
        lines += self._turn_lines(s, names, lang)
        if s["events"]:
            lines.append(tr(lang, "Lately: {events}",
                            events=" ".join(event_line(e, names, lang) for e in s["events"][-4:])))
        scores = table.engine.scores(s)
        if scores is not None:
            ranked = sorted(range(len(names)), key=lambda x: -scores[x])
            ranks = []
            for i, x in enumerate(ranked, 1):
                p = s["players"][x]
                if p["out"]:
                    ranks.append(tr(lang, "{rank}. {name} {total} (out)", rank=i, name=names[x],
                                    total=Money(scores[x], "yen")))
                else:
                    ranks.append(tr(lang, "{rank}. {name} {total} (cash {cash} + lines {lines})", rank=i,
                                    name=names[x], total=Money(scores[x], "yen"), cash=Money(p["cash"], "yen"),
                                    lines=Money(scores[x] - p["cash"], "yen")))
            lines.append(tr(lang, "**Final assets:** {ranking}", ranking=" · ".join(ranks)))
        return lines

    @staticmethod
    def _now_line(engine, s: dict[str, Any], names: list[str], lang: str) -> str:
        phase, cur = s["phase"], s["current"]
        if phase in ("order", "deal"):
            return tr(lang, "Rolling for seat order and dealing the pre-purchase cards.")
        prompt = engine.awaiting(s).prompt
        now = tr(lang, "now: {prompt}", prompt=prompt) if prompt else None
        if phase == "prebuy":
            rules = nw.load_route_cards()["pre_purchase"]
            text = tr(lang, "**Pre-purchase** · {name} has spent {spent} of {least}–{most}", name=names[cur],
                      spent=Money(s["spent"][cur], "yen"), least=Money(rules["spend_min"], "yen"),
                      most=Money(rules["spend_max"], "yen"))
        elif phase == "start":
            text = tr(lang, "**Start points** · {name}", name=names[cur])
        else:
            turn = s["turn"]
            parts = [tr(lang, "**{name}'s turn**", name=names[cur])]
            if turn["bonus"]:
                parts.append(tr(lang, "bonus part (coloured die)"))
            if turn["stage"] == "move":
                parts.append(tr(lang, "rolled {dice} = {n}", dice=" + ".join(map(str, turn["dice"])), n=turn["steps"]))
            text = " · ".join(parts)
        return f"{text} · {now}" if now else text

    @staticmethod
    def _player_line(s: dict[str, Any], seat: int, p: dict[str, Any], names: list[str], lang: str) -> str:
        dot = DOTS[seat % len(DOTS)]
        if p["out"]:
            return tr(lang, "{dot} ~~{name}~~ · out of the game", dot=dot, name=names[seat])
        mark = "▶ " if s["phase"] not in ("over",) and s["current"] == seat else ""
        parts = [f"{mark}{dot} **{names[seat]}** · {yen(p['cash'], lang)}"]
        if p["pos"]:
            if p["dest"]:
                parts.append(tr(lang, "at {point} → {dest} (pays {pay})", point=point_name(p["pos"]),
                                dest=point_name(p["dest"]),
                                pay=Money(nw.payout_table_lookup(p["from"], p["dest"]), "yen")))
            else:
                parts.append(tr(lang, "at {point}", point=point_name(p["pos"])))
        parts.append(tr(lang, "lines: {lines}", lines=_lines_of(p["cards"], lang)) if p["cards"]
                     else tr(lang, "no lines"))
        if p["ticket"]:
            parts.append(tr(lang, "express ticket"))
        if p["riding"]:
            riding = [tr(lang, "{card} ({fare})", card=card_name(c), fare=Money(mv.card_fares(c)["unowned"], "yen"))
                      for c in p["riding"]]  # ruling 15: the Shinkansen keeps 6,000
            parts.append(tr(lang, "riding at the unowned fare: {lines}", lines=_join(riding, lang)))
        if s["phase"] == "prebuy" and s["hands"]:
            left = [c for c in s["hands"][seat] if s["owners"][c] is None]
            if left:
                deal = [tr(lang, "{card} {price}", card=card_name(c), price=Money(price(c), "yen")) for c in left]
                parts.append(tr(lang, "deal: {cards}", cards=_join(deal, lang)))
        return " · ".join(parts)

    @staticmethod
    def _bills(turn: dict[str, Any], names: list[str], lang: str) -> str:
        return _join((tr(lang, "{amount} to the bank", amount=Money(amount, "yen")) if payee == debts.BANK else
                      tr(lang, "{amount} to {who}", amount=Money(amount, "yen"), who=_who(names, payee))
                      for payee, amount in turn["bills"]), lang)

    def _turn_lines(self, s: dict[str, Any], names: list[str], lang: str) -> list[str]:
        turn = s["turn"]
        if s["phase"] != "play" or not turn:
            return []
        out = []
        cur = s["current"]
        if turn["bills"] and turn["stage"] in ("sell", "auction"):
            out.append(tr(lang, "{name} owes fares ({bills}) with {cash} in hand: selling lines.", name=names[cur],
                          bills=self._bills(turn, names, lang), cash=Money(s["players"][cur]["cash"], "yen")))
        a = turn.get("auction")
        if turn["stage"] == "auction" and a:
            high = (tr(lang, "high bid {amount} by {name}", amount=Money(a["high_bid"], "yen"),
                       name=_who(names, a["high_bidder"]))
                    if a["high_bidder"] is not None else tr(lang, "no bid yet"))
            still = _join((_who(names, x) for x in a["active"] if x != a["high_bidder"]), lang) or tr(lang, "nobody")
            out.append(tr(lang, "**Auction** of {card} (face {price}) · {high} · still bidding: {still}",
                          card=card_name(a["card"]), price=Money(price(a["card"]), "yen"), high=high, still=still))
        return out

    def private_lines(self, table: Table, seat: int, lang: str = "en") -> list[str]:
        s = table.state
        me = s["players"][seat]
        names = _names(table)
        if me["out"]:
            lines = [tr(lang, "You are out of the game.")]
        else:
            parts = [tr(lang, "You: **{cash}**", cash=Money(me["cash"], "yen"))]
            if me["pos"]:
                parts.append(tr(lang, "at {point}", point=point_name(me["pos"])))
            if me["dest"]:
                parts.append(tr(lang, "bound for {point} (pays {pay})", point=point_name(me["dest"]),
                                pay=Money(nw.payout_table_lookup(me["from"], me["dest"]), "yen")))
            mine = [tr(lang, "{card} ({price})", card=card_name(c), price=Money(price(c), "yen")) for c in me["cards"]]
            held = tr(lang, "Your lines: {lines}", lines=_join(mine, lang) if mine else tr(lang, "none"))
            lines = [" · ".join(parts), f"{held} · {tr(lang, 'express ticket')}" if me["ticket"] else held]
        aw = table.engine.awaiting(s)
        if seat in aw.seats:
            lines.append(tr(lang, "**Your move:** {todo}", todo=self._todo(s, seat, lang)))
        elif table.engine.scores(s) is None and aw.seats:
            waiting = _join((names[x] for x in sorted(aw.seats)), lang)
            lines.append(tr(lang, "Waiting for {names}: {prompt}.", names=waiting,
                            prompt=aw.prompt or tr(lang, "a move")))
        return lines

    @staticmethod
    def _todo(s: dict[str, Any], seat: int, lang: str) -> str:
        me = s["players"][seat]
        stage = stage_of(s)
        if stage == "prebuy":
            rules = nw.load_route_cards()["pre_purchase"]
            return tr(lang, "buy from your deal or an express ticket, one at a time ({spent} spent; {least} to {most} "
                            "in all), then press Done buying.", spent=Money(s["spent"][seat], "yen"),
                      least=Money(rules["spend_min"], "yen"), most=Money(rules["spend_max"], "yen"))
        if stage == "start":
            return tr(lang, "任意 (any point) came up: name any point on the tables as your start.")
        turn = s["turn"]
        if stage == "dest":
            if len(turn["rolls"]) == 1:
                return tr(lang, "you rolled the region you stand in: choose any region for your destination.")
            return tr(lang, "任意 (any point) came up: name any destination point.")
        if stage == "move":
            return tr(lang, "you rolled {n}: choose where your move ends (best first). `/tokai move to:… via:…` names "
                            "the points your way must pass.", n=turn["steps"])
        if stage == "buy":
            return tr(lang, "you arrived: buy one route card or an express ticket, or pass.")
        if stage == "sell":
            due = sum(a for _, a in turn["bills"])
            return tr(lang, "your fares come to {due} and you have {cash}: sell route cards, to the bank at half price "
                            "or at auction, until you can pay.", due=Money(due, "yen"), cash=Money(me["cash"], "yen"))
        if stage == "auction":
            a = turn["auction"]
            if seat == s["current"]:
                half = debts.sell_to_bank(price(a["card"]))
                return tr(lang, "the bidding for {card} is over at {high}: accept it, or sell to the bank for {half} "
                                "instead.", card=card_name(a["card"]), high=Money(a["high_bid"], "yen"),
                          half=Money(half, "yen"))
            limit = dict(map(tuple, a["cash"])).get(seat, 0) + dict(map(tuple, a["owed"])).get(seat, 0)
            return tr(lang, "bid for {card} (at least {least}, at most {most}) or pass; a pass is final.",
                      card=card_name(a["card"]), least=Money(a["high_bid"] + debts.UNIT, "yen"),
                      most=Money(limit, "yen"))
        return tr(lang, "make your choice.")

    def move_label(self, table: Table, action: dict[str, Any], lang: str = "en") -> str:
        s = table.state
        kind = action.get("type")
        if kind == "move" and set(action) == {"type", "to"} and s and stage_of(s) == "move" \
                and action["to"] in s["turn"]["moves"]:
            return next(o["label"] for o in move_options(s, s["current"], lang) if o["to"] == action["to"])
        if kind == "pass" and s and stage_of(s) in ("buy", "auction"):
            return tr(lang, "Buy nothing") if stage_of(s) == "buy" else tr(lang, "Pass (no more bids from you)")
        if kind == "region" and isinstance(action.get("region"), str):
            return tr(lang, "{region} ({area})", region=region_name(action["region"]),
                      area=region_area(action["region"]))
        if kind == "choose" and isinstance(action.get("point"), str):
            region = _region_of(action["point"])
            if region:
                return tr(lang, "{point} ({region})", point=point_name(action["point"]), region=region_name(region))
            return say(point_name(action["point"]), lang)
        return say(table.engine.label(action), lang)

    def announce(self, change: Change, lang: str = "en") -> list[tuple[str, bytes | None]]:
        """What happened, in order, as one post (the engine's events); the map picture after a move (a pawn
        moved) and at the end of the game."""
        table = change.table
        after, before = table.state, change.before
        names = _names(table)
        seen = before["event_no"] if before else 0
        lines = [event_line(e, names, lang) for e in after["events"] if e["no"] > seen]
        moved = before is None or any(p["pos"] != q["pos"] for p, q in zip(before["players"], after["players"],
                                                                            strict=False))
        ended = after["phase"] == "over" and (before is None or before["phase"] != "over")
        picture = None
        if (moved and any(p["pos"] for p in after["players"])) or ended:
            from cogs.tokai_map import render

            picture = render(table.engine.public(after), names, lang)
        if not lines and picture is None:
            return []
        text = "\n".join(lines) or tr(lang, "The map now:")
        return [(tr(lang, "Table {id}: {text}", id=table.game.id, text=text)[:2000], picture)]

    def move_view(self, table: Table, seat: int, lang: str = "en"):
        moves = table.engine.legal(table.state, seat)
        if not moves:
            return None
        return panel(self, table, seat, moves, lang)


# --- the panel -----------------------------------------------------------------------------------------------
def _chunks(items: list, size: int = PER_MENU) -> list[list]:
    return [items[i:i + size] for i in range(0, len(items), size)]


def panel(pres: TokaiPresenter, table: Table, seat: int, moves: list[dict[str, Any]],
          lang: str = "en") -> discord.ui.View:
    """The seat's moves: menus for the move, a point or a region; buttons for the rest, or a menu per kind of
    card move (buy, sell, auction) when there are too many for buttons."""
    s, gid = table.state, table.game.id
    tok = step_token(s)
    view = discord.ui.View(timeout=None)
    kinds = {m["type"] for m in moves}
    if "move" in kinds:
        add_move_menus(view, gid, tok, move_options(s, seat, lang), 0, lang)
        return view
    if kinds & {"choose", "region"}:
        points = [m for m in moves if m["type"] == "choose"]
        regions = [m for m in moves if m["type"] == "region"]
        if regions:
            view.add_item(MoveMenu(gid, tok, 0, [(pres.move_label(table, m, lang), compact(m), None) for m in regions],
                                   tr(lang, "Choose a region")))
        order = {r: i for i, r in enumerate(r["id"] for r in nw.load_destinations()["regions"])}
        points.sort(key=lambda m: (order.get(_region_of(m["point"]), 99), say(point_name(m["point"]), lang)))
        for slot, chunk in enumerate(_chunks(points)[:ROWS - len(view.children)], len(view.children)):
            ends = [say(region_name(_region_of(c["point"])), lang) for c in (chunk[0], chunk[-1])
                    if _region_of(c["point"])]
            view.add_item(MoveMenu(gid, tok, slot, [(pres.move_label(table, m, lang), compact(m),
                                                     point_area(m["point"], lang)) for m in chunk],
                                   tr(lang, "Name a point ({regions})", regions=" … ".join(ends))))
        return view
    cards = [m for m in moves if m["type"] in CARD_KINDS]
    singles = [m for m in moves if m["type"] not in CARD_KINDS]
    if len(cards) + len(singles) <= 20:
        for m in moves:
            view.add_item(MoveNow(gid, tok, m, pres.move_label(table, m, lang)))
        return view
    for m in singles:
        view.add_item(MoveNow(gid, tok, m, pres.move_label(table, m, lang)))
    slot = 0
    for kind in CARD_KINDS:
        group = [m for m in cards if m["type"] == kind]
        for chunk in _chunks(group):
            view.add_item(MoveMenu(gid, tok, slot, [(pres.move_label(table, m, lang), compact(m),
                                                     card_text(m["card"], lang)) for m in chunk],
                                   tr(lang, TITLES[kind])))
            slot += 1
    return view


def point_area(point: str, lang: str = "en") -> str | None:
    region = _region_of(point)
    return tr(lang, "{region}: {area}", region=region_name(region), area=region_area(region)) if region else None


def add_move_menus(view: discord.ui.View, gid: int, tok: str, options: list[dict[str, Any]], start: int,
                   lang: str = "en") -> None:
    """Menus of the move's endings from ``start``, 25 each; when they do not all fit, the last row offers the
    rest a page at a time."""
    rest = options[start:]
    if len(rest) > ROWS * PER_MENU:
        shown, more = rest[:(ROWS - 1) * PER_MENU], True
    else:
        shown, more = rest, False
    for slot, chunk in enumerate(_chunks(shown)):
        a = start + slot * PER_MENU + 1
        where = dict(first=a, last=a + len(chunk) - 1, total=len(options))
        title = (tr(lang, "Where does your move end? {first}–{last} of {total} (best first)", **where) if a == 1
                 else tr(lang, "Where does your move end? {first}–{last} of {total}", **where))
        view.add_item(MoveMenu(gid, tok, slot, [(o["label"], compact({"type": "move", "to": o["to"]}),
                                                 path_text(o["path"], lang=lang)) for o in chunk], title))
    if more:
        after = start + len(shown)
        pages = [(tr(lang, "Endings {first}–{last} of {total}", first=i + 1,
                     last=min(i + ROWS * PER_MENU, len(options)), total=len(options)), str(i), None)
                 for i in range(after, len(options), ROWS * PER_MENU)]
        view.add_item(MoreMoves(gid, tok, None, pages[:PER_MENU],
                                tr(lang, "More endings (further from your destination)")))


async def act(tables, table: Table, seat: int, user_id: int, move: dict[str, Any]) -> dict[str, Any]:
    """Play the move and answer with what was played (labelled in the state it was chosen in), then the panel."""
    pres = TokaiPresenter()
    label = pres.move_label(table, move, reader())
    table = await tables.act(table.game.id, user_id, move, chosen_at=table.seq)
    reply = hand_reply(table, seat)
    reply["content"] = (tr(None, "You played **{label}**.", label=label) + "\n" + reply["content"])[:2000]
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
        lang = reader()
        view = discord.ui.View(timeout=None)
        options = move_options(table.state, seat, lang)
        try:
            first = number(start, len(options) - 1)
        except ValueError:
            raise Refusal(NOT_OFFERED) from None
        add_move_menus(view, self.gid, self.tok, options, first, lang)
        return {"content": tr(lang, "Table {id}: more endings for your move of {n}.", id=self.gid,
                              n=table.state["turn"]["steps"]),
                "view": view}


DYNAMIC_ITEMS = (MoveNow, MoveMenu, MoreMoves)


# --- /tokai: naming the way, the map -----------------------------------------------------------------------
SEPARATORS = re.compile(r"[\s,、，→>/]+")
NOT_ALNUM = re.compile(r"[\s\-‐・()（）'’.]+")


def _plain(text: str) -> str:
    """What is compared when a player types a name: no case, spaces, hyphens or dots (Kami-Iida = kamiiida)."""
    return NOT_ALNUM.sub("", text).casefold()


def point_matches(point: str, typed: str) -> bool:
    """Whether what a player typed is in a point's romaji, Japanese name, other names, reading or id."""
    want = _plain(typed)
    if not want:
        return True
    st = nw.stations()[point]
    return any(want in _plain(x) for x in (st["en"], st["name"], st.get("reading", ""), point, *st.get("also", ())))


def resolve_point(text: str) -> str:
    """A point from what a player typed: its name in either language (名古屋, Nagoya; also 名古屋駅), its id
    (nagoya), another name of a merged station (名鉄名古屋), or its reading (なごや)."""
    t = text.strip()
    st = nw.stations()
    if t.lower() in st:
        return t.lower()
    for candidate in (t, t.removesuffix("駅")):
        try:
            return nw.station_id(candidate)
        except KeyError:
            pass
    want = _plain(t.removesuffix("駅"))
    found = next((sid for sid, s in st.items() if want and want in (_plain(s["en"]), _plain(s.get("reading", "")))),
                 None)
    if found:
        return found
    raise Refusal("There is no point called “{name}” on the map. Write a station's name as the map does (Nagoya or "
                  "名古屋) or its reading (なごや).", name=t)


def parse_via(text: str) -> list[str]:
    return [resolve_point(part) for part in SEPARATORS.split(text or "") if part]


async def _tokai_table(interaction: discord.Interaction, table_id: int | None) -> Table:
    tables = interaction.client.tables
    gid = await tables.resolve(Place.of(interaction), table_id, kind="tokai".__eq__, what="Tokai Baron")
    return await tables.load(gid)


def to_choices(state: dict[str, Any], seat: int, current: str, lang: str) -> list[app_commands.Choice[str]]:
    """The endings of the move that match what was typed (either spelling, the reading or the id), best first,
    labelled in the reader's language."""
    out = []
    for o in move_options(state, seat, lang):
        if not point_matches(o["to"], current):
            continue
        out.append(app_commands.Choice(name=o["label"][:100], value=o["to"]))
        if len(out) == 25:
            break
    return out


async def to_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The endings of your move now, best first, that match what you typed (name, id or reading)."""
    try:
        table = await _tokai_table(interaction, getattr(interaction.namespace, "table", None))
        seat = interaction.client.tables.player_seat(table, interaction.user.id)
        lang = await reader_lang(interaction)
    except Exception:
        return []
    s = table.state
    if stage_of(s) != "move" or s["current"] != seat:
        return []
    return to_choices(s, seat, current, lang)


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
                waiting = _join((names[x] for x in sorted(aw.seats)), reader()) or tr(None, "chance")
                raise Refusal("You have no move to make now: table {id} is waiting for {who} ({what}).", id=t.game.id,
                              who=waiting, what=aw.prompt or tr(None, "a draw"))
            end = resolve_point(to)
            if end not in s["turn"]["moves"]:
                raise Refusal("Your move of {n} cannot end at {point}; the `to` menu lists where it can.",
                              n=s["turn"]["steps"], point=point_name(end))
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
                raise Refusal("Table {id} has not started yet: there is nothing on the map.", id=t.game.id)
            from cogs.tokai_map import render

            png = render(t.engine.public(t.state), _names(t), reader())
            return {"content": tr(None, "Table {id}: the map now.", id=t.game.id),
                    "file": discord.File(io.BytesIO(png), filename=f"table-{t.game.id}-map.png")}

        await answer(interaction, work)


async def setup(bot) -> None:
    register("tokai", TokaiPresenter())
    await bot.add_cog(TokaiCog(bot))
