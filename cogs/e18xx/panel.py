"""The 18xx move panel: moves as buttons and menus carrying the move (or its index) and the step token, labelled in
the player's language (`lang`; None: the reader's of the interaction, bot.i18n.reader)."""
from __future__ import annotations

import asyncio
import io
import json
from dataclasses import dataclass, replace
from math import ceil
from typing import Any

import discord

from bot.errors import Refusal
from bot.i18n import reader, tr
from bot.items import number
from bot.move_items import JSON, PanelButton, PanelMenu, legal_move
from bot.table_ui import hand_reply
from bot.tables import Table
from cogs.e18xx.common import FEW, GROUPS, KIND_GROUP, MAX_CODE, PER_MENU, PER_ROW, ROWS, TOKEN, is_18xx
from cogs.e18xx.map_region import region_png, step_focus
from cogs.e18xx.pictures import corp_colours, render_lays, render_tokens
from cogs.e18xx.words import (
    acting_corp,
    cut,
    legal_moves,
    move_detail,
    move_label,
    move_text,
    place,
    seat_names,
    step_token,
)
from engines.e18xx.state import G


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
    if kind == "bid" and "corporation" in move:
        return "minor"  # 1867 and 1807: a minor's auction, in the stock round
    return KIND_GROUP.get(kind, "other")


def entries_for(table: Table, seat: int, lang: str | None = None) -> list[Entry]:
    lang = lang or reader()
    moves = legal_moves(table, seat)
    if not moves:
        return []
    g, names = G(table.state), seat_names(table)
    return [Entry(i, m, code_for(i, m), move_text(g, m, names, lang=lang), move_detail(g, m, lang))
            for i, m in enumerate(moves)]


def lays_on(entries: list[Entry], coord: str, tile: str | None = None) -> list[Entry]:
    return [e for e in entries if e.move.get("type") == "lay_tile" and e.move.get("hex") == coord
            and tile in (None, e.move.get("tile"))]


def lays_png(state: dict[str, Any], coord: str, lays: list[tuple[str, int]], lang: str = "en") -> bytes:
    """The lays on one hex as a numbered picture (pictures.render_lays)."""
    return render_lays(G(state).board, coord, lays, corp_colours=corp_colours(state["title"]), lang=lang)


def tokens_png(state: dict[str, Any], cities: list[tuple[str, int]], lang: str = "en") -> bytes:
    """The cities open to a token as a numbered picture (pictures.render_tokens)."""
    return render_tokens(G(state).board, cities, corp_colours=corp_colours(state["title"]), lang=lang)


def _chunks(items: list, size: int = PER_MENU) -> list[list]:
    return [items[i:i + size] for i in range(0, len(items), size)]


STYLES = {"pass": discord.ButtonStyle.secondary, "bankrupt": discord.ButtonStyle.danger,
          "run_routes": discord.ButtonStyle.success, "accept_offer": discord.ButtonStyle.success,
          "decline_offer": discord.ButtonStyle.danger, "withdraw_offer": discord.ButtonStyle.secondary}


def _style(move: dict[str, Any]) -> discord.ButtonStyle:
    if move.get("type") == "dividend":
        return discord.ButtonStyle.success if move.get("kind") == "payout" else discord.ButtonStyle.secondary
    return STYLES.get(move.get("type"), discord.ButtonStyle.primary)


def layout(view: discord.ui.View, gid: int, tok: str, entries: list[Entry], g: G, grouped: bool = True,
           lang: str | None = None) -> None:
    """Buttons for a few moves; else buttons for the single moves (pass, dividend, run …) and a menu per kind,
    25 to a menu, lays by hex past 25; when that takes more than five rows, one menu asks for the kind first."""
    lang = lang or reader()
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
                ask = tr(lang, "Lay a tile: choose a hex")
                menus.append(("hex", f"{ask} ({k + 1})" if k else ask,
                              [(place(g, c, lang), c, tr(lang, "{n} ways to lay a tile here", n=count[c]))
                               for c in chunk]))
        else:
            many = len(group) > PER_MENU
            for k, chunk in enumerate(_chunks(group)):
                menus.append(("moves", tr(lang, GROUPS[key]) + (f" ({k + 1})" if many else ""),
                              [(e.label, e.code, e.detail) for e in chunk]))
    if grouped and ceil(len(singles) / PER_ROW) + len(menus) > ROWS:
        menus = [("kind", tr(lang, "What would you like to do?"),
                  [(tr(lang, GROUPS[key]), key, tr(lang, "{n} choices", n=len(group)))
                   for key, group in groups.items()])]
    for e in singles:
        view.add_item(MoveNow(gid, tok, e.code, e.label, _style(e.move)))
    room = ROWS - ceil(len(singles) / PER_ROW)
    for slot, (kind, placeholder, options) in enumerate(menus[:room]):
        item = {"moves": MoveMenu, "hex": HexMenu, "kind": KindMenu}[kind]
        view.add_item(item(gid, tok, slot, options, placeholder))


def sub_panel(table: Table, seat: int, key: str | None = None, coord: str | None = None,
              tile: str | None = None, lang: str | None = None) -> dict[str, Any]:
    """The answer to a kind menu (the moves of that kind) or a hex menu (the tile lays on that hex, of one tile if
    named), without the picture (lays_panel adds it)."""
    lang = lang or reader()
    g, entries = G(table.state), entries_for(table, seat, lang)
    if coord is not None:  # numbered as on the picture of these lays (lays_png)
        chosen = [replace(e, label=cut(f"{k}: {e.label}")) for k, e in enumerate(lays_on(entries, coord, tile), 1)]
        text = tr(lang, "the tiles you can lay on {where}, numbered as on the picture", where=place(g, coord, lang))
    else:
        chosen = [e for e in entries if group_of(e.move) == key]
        if key == "token":  # numbered as on the picture of these cities (tokens_png)
            chosen = [replace(e, label=cut(f"{k}: {e.label}")) for k, e in enumerate(chosen, 1)]
            text = tr(lang, "{moves}: the cities are numbered on the picture", moves=_lower(tr(lang, GROUPS[key])))
        else:
            text = _lower(tr(lang, GROUPS[key])) if key in GROUPS else tr(lang, "your moves")
    if not chosen:
        raise Refusal("You have no such move now.")
    view = discord.ui.View(timeout=None)
    layout(view, table.game.id, step_token(table.state), chosen, g, grouped=False, lang=lang)
    return {"content": tr(lang, "Table {id}: {text}.", id=table.game.id, text=text), "view": view}


def _lower(text: str) -> str:
    """A menu's heading inside a sentence: "Buy a train" -> "buy a train" (Japanese has no case)."""
    return text[:1].lower() + text[1:]


async def lays_panel(table: Table, seat: int, coord: str, tile: str | None = None,
                     lang: str | None = None) -> dict[str, Any]:
    """The lays on one hex (of one tile, if named) as numbered buttons with their picture, drawn in a worker thread
    so that a picture never holds up the bot."""
    lang = lang or reader()
    lays = [(e.move["tile"], e.move["rotation"]) for e in lays_on(entries_for(table, seat, lang), coord, tile)]
    reply = await _with_picture(sub_panel(table, seat, coord=coord, tile=tile, lang=lang), f"lays-{coord}.png",
                                lays_png, table.state, coord, lays, lang)
    return await _with_region(reply, table, seat, (coord,), lang)


async def tokens_panel(table: Table, seat: int, lang: str | None = None) -> dict[str, Any]:
    """The cities open to a token as numbered buttons with their picture, drawn in a worker thread."""
    lang = lang or reader()
    cities = [(e.move["hex"], e.move["city"]) for e in entries_for(table, seat, lang) if group_of(e.move) == "token"]
    reply = await _with_picture(sub_panel(table, seat, key="token", lang=lang), "tokens.png", tokens_png, table.state,
                                cities, lang)
    return await _with_region(reply, table, seat, tuple(dict.fromkeys(coord for coord, _ in cities)), lang)


async def _with_picture(reply: dict[str, Any], filename: str, draw, *args) -> dict[str, Any]:
    """The reply with the picture ``draw(*args)`` attached, drawn in a worker thread."""
    png = await asyncio.to_thread(draw, *args)
    reply["file"] = discord.File(io.BytesIO(png), filename=filename)
    return reply


async def _with_region(reply: dict[str, Any], table: Table, seat: int, marks: tuple[str, ...],
                       lang: str) -> dict[str, Any]:
    """On a big map, the reply's picture followed by the part of the map around the corporation's network and the
    hexes it may build on (map_region.step_focus), `marks` ringed in red: where the numbered choices lie."""
    focus = step_focus(table.state, legal_moves(table, seat)) | set(marks)
    png = await asyncio.to_thread(region_png, table.state, focus, lang, marks)
    if png is not None:
        reply["files"] = [reply.pop("file"), discord.File(io.BytesIO(png), filename="map-around.png")]
    return reply


async def act(tables, table: Table, seat: int, user_id: int, move: dict[str, Any]) -> dict[str, Any]:
    """Play the move; answer in the reader's language with what was played (in words of the state it was chosen
    in), then the panel."""
    lang = reader()
    g = G(table.state)
    label = move_label(table, move, lang)
    corp = acting_corp(g, seat, move)
    table = await tables.act(table.game.id, user_id, move, chosen_at=table.seq)
    reply = hand_reply(table, seat)
    if corp:
        head = tr(lang, "You played **{move}** as president of {cid}.", move=label, cid=corp)
    else:
        head = tr(lang, "You played **{move}**.", move=label)
    reply["content"] = f"{head}\n{reply['content']}"[:2000]
    return reply


class _Step:
    """The 18xx panel's items carry the step token (a panel is good only for the state it was made in) and cut
    their text with "…"; a choice plays its move: JSON, or ``#<index>`` into engine.legal of that state."""

    serves = staticmethod(is_18xx)
    token, step, fit = TOKEN, staticmethod(step_token), staticmethod(cut)

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

    async def _sub_panel(self, interaction: discord.Interaction, key: str | None = None,
                         coord: str | None = None) -> dict[str, Any]:
        table, seat = await self.load(interaction)
        if coord is not None:
            return await lays_panel(table, seat, coord)
        return await tokens_panel(table, seat) if key == "token" else sub_panel(table, seat, key=key)


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
