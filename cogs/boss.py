"""I'm the Boss! in Discord: the table in words, the narration of every move, and the deal panel.

The panel's buttons and menus carry the move itself (not an index into the legal moves), so a
panel stays usable while others play cards around it: in a real-time negotiation the state
changes every few seconds, and the engine refuses a move that is no longer possible."""
from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.errors import Refusal
from bot.interact import answer
from bot.items import TableItem, chosen, table_id
from bot.move_items import PanelButton, PanelMenu, compact, legal_move
from bot.present import Presenter, fill, register
from bot.table_ui import confirm_reply
from bot.tables import Change, Table
from engines.boss import FAMILIES, Boss, card_name, money, price_text
from engines.boss.board import BoardError, use_printed
from engines.words import plural

log = logging.getLogger("cogs.boss")

MENU_MOVES = ("lay", "travel", "hire", "discard", "place")  # many similar choices: a menu
ANSWER_MOVES = ("accept", "refuse", "use")
DOTS = {"red": "🟥", "blue": "🟦", "yellow": "🟨", "pink": "🩷", "orange": "🟧", "green": "🟩"}


def _names(table: Table) -> list[str]:
    return [s.name for s in table.game.in_seat_order()]


def event_line(event: dict[str, Any], names: list[str]) -> str:
    return fill(event, lambda seat: names[seat] if type(seat) is int and 0 <= seat < len(names) else "?")


def _fams(fams: list[str]) -> str:
    return " ".join(f"{DOTS[f]}{f}" for f in fams)


def still_needed(space: dict[str, Any], covered: list[str]) -> str:
    """What the deal lacks, as the space says it: "🟥red + 1 of 🩷pink/🟧orange"."""
    parts = [f"{DOTS[f]}{f}" for f in space["must"] if f not in covered]
    short = space["more"] - len(set(covered) & set(space["from"]))
    if short > 0:
        parts.append(f"{short} of " + "/".join(f"{DOTS[f]}{f}" for f in space["from"] if f not in covered))
    return " + ".join(parts)


def _owner(p: dict[str, Any], fam: str, names: list[str]) -> str:
    o = p["owners"][fam]
    return "beside the board" if o is None else names[o]


class BossPresenter(Presenter):
    def public_lines(self, table: Table, lang: str = "en") -> list[str]:
        p = table.engine.public(table.state)
        names = _names(table)
        lines = []
        if p["top"]:
            t = p["top"]
            lines.append(f"Deal tile **#{t['number']}** on top: **{money(t['value'])} a share** · "
                         f"{p['tiles_left']} tiles left · {plural(p['deals_done'], 'deal')} made")
        if p["marker"] is not None:
            sp = p["spaces"][p["marker"]]
            pay = f" (pays {money(sp['shares'] * p['top']['value'])} now)" if p["top"] else ""
            lines.append(f"Dollar marker on **space {p['marker'] + 1}**: {Boss.requirement_text(sp)}, "
                         f"{sp['shares']} shares{pay}")
        lines.append("Investors: " + " · ".join(f"{DOTS[f]}{_owner(p, f, names)}" for f in FAMILIES))
        lines.append("Players: " + " · ".join(f"{names[s]} {p['hand_sizes'][s]} cards, {p['cash_band'][s]}"
                                              for s in range(len(names))))
        if p["deal"]:
            lines += self._deal_lines(p, names)
        if p["events"]:
            lines.append("Lately: " + " ".join(event_line(e, names) for e in p["events"][-4:]))
        if p["scores"] is not None:
            ranked = sorted(range(len(names)), key=lambda s: -p["scores"][s])
            lines.append("**Final money:** " + ", ".join(f"{names[s]} {money(p['scores'][s])}" for s in ranked))
        return lines

    def _deal_lines(self, p: dict[str, Any], names: list[str]) -> list[str]:
        d = p["deal"]
        sp = p["spaces"][d["space"]]
        out = [f"**Deal on space {d['space'] + 1}** · boss **{names[d['boss']]}** · pays {money(d['payout'])} · "
               f"promised {money(d['promised'])}" + (" · **last call**" if d["stage"] == "last_call" else "")]
        out.append(f"Needs {Boss.requirement_text(sp)} · in: {_fams(d['covered']) or 'nobody yet'}"
                   + (f" · still needed: {still_needed(sp, d['covered'])}" if d["needed"] else " · **complete**"))
        if d["laid"]:
            out.append("On the table: " + ", ".join(f"#{c['id']} {DOTS[c['family']]} {names[c['owner']]}"
                                                    for c in d["laid"]))
        if d["away"]:
            out.append("On travel: " + _fams(d["away"]))
        for a, amount in zip(d["agreements"], d["amounts"], strict=True):
            out.append(f"Agreed: {names[a['seat']]} brings {DOTS[a['family']]}{a['family']} for "
                       f"{price_text(a['price'])} ({money(amount)})")
        for o in d["offers"]:
            out.append(f"Offer: {names[o['seat']]} brings {DOTS[o['family']]}{o['family']} for "
                       f"{price_text(o['price'])}")
        if d["stoppable"]:
            out.append(f"A stop card may still cancel {names[d['stoppable']['seat']]}'s {d['stoppable']['what']}.")
        if d["stage"] == "last_call" and d["passed"]:
            out.append("Nothing more from: " + ", ".join(names[s] for s in d["passed"]))
        return out

    def private_lines(self, table: Table, seat: int, lang: str = "en") -> list[str]:
        v = table.engine.view(table.state, seat)
        hand = ", ".join(f"{n}× {card_name(c)}" if n > 1 else card_name(c) for c, n in v["hand"].items())
        mine = [f for f in FAMILIES if v["owners"][f] == seat]
        return [f"Your money: **{money(v['cash'])}** (the others see {v['cash_band'][seat]})",
                f"Your hand ({sum(v['hand'].values())}): {hand or 'empty'}",
                f"Your investors: {_fams(mine) or 'none'}"]

    def move_label(self, table: Table, action: dict[str, Any], lang: str = "en") -> str:
        names = _names(table)
        k, s = action["type"], table.state
        if k in ("accept", "refuse"):
            offer = next((o for o in s["deal"]["offers"] if o["seat"] == action["seat"]
                          and o["family"] == action["family"]), None) if s["deal"] else None
            price = f" for {price_text(offer['price'])}" if offer else ""
            return f"{k.capitalize()} {names[action['seat']]}'s {action['family']}{price}"
        if k == "travel":
            if "laid" in action:
                card = next((c for c in s["deal"]["laid"] if c["id"] == action["laid"]), None) if s["deal"] else None
                whose = f"{names[card['owner']]}'s {card['family']} family card" if card else "a family card"
            else:
                owner = s["owners"][action["family"]]
                whose = f"{names[owner]}'s {action['family']} investor" if owner is not None else "an investor"
            return f"{action['card'].capitalize()} travel card on {whose}"
        if k == "hire":
            owner = s["owners"][action["family"]]
            where = "from beside the board" if owner is None else f"from {names[owner]}"
            return f"Hire the {action['family']} investor {where} (3 hire cards)"
        if k == "use":
            return f"Use the {action['family']} from the table for a fair share"
        if k == "place":
            sp = s["spaces"][action["space"]]
            return f"Space {action['space'] + 1}: {Boss.requirement_text(sp)}, {sp['shares']} shares"
        return table.engine.label(action)

    def announce(self, change: Change, lang: str = "en") -> list[tuple[str, bytes | None]]:
        """Everything that happened, in order, as one post; the board picture when the marker is
        first placed and after each deal ends."""
        table = change.table
        after, before = table.state, change.before
        seen = before["event_no"] if before else 0
        fresh = [e for e in after["events"] if e["no"] > seen]
        if not fresh:
            return []
        names = _names(table)
        text = "\n".join(event_line(e, names) for e in fresh)
        picture = None
        placed = (before is None or before["marker"] is None) and after["marker"] is not None
        ended = before is not None and before["deal"] is not None and after["deal"] is None
        if placed or ended:
            from cogs.boss_board import render

            picture = render(table.engine.public(after), names)
        return [(f"Table {table.game.id}: {text}"[:2000], picture)]

    def move_view(self, table: Table, seat: int, lang: str = "en"):
        moves = table.engine.legal(table.state, seat)
        if not moves:
            return None
        return panel(self, table, seat, moves)


# --- the panel -------------------------------------------------------------------------------
def panel(pres: BossPresenter, table: Table, seat: int, moves: list[dict[str, Any]]) -> discord.ui.View:
    """Buttons for the few decisive moves, menus for cards, answers to offers and offers. Every item carries how
    many moves the seat had made when it was drawn, so it plays once (a double press, an old DM panel)."""
    gid, tok = table.game.id, str(Boss.moves_made(table.state, seat))
    view = discord.ui.View(timeout=None)
    cards = [m for m in moves if m["type"] in MENU_MOVES]
    answers = [m for m in moves if m["type"] in ANSWER_MOVES]
    offers = sorted({m["family"] for m in moves if m["type"] == "offer"}, key=FAMILIES.index)
    buttons = [m for m in moves if m["type"] not in (*MENU_MOVES, *ANSWER_MOVES, "offer")]
    for m in buttons[:10]:
        view.add_item(MoveNow(gid, tok, m, pres.move_label(table, m)))
    rows = 5 - (len(buttons[:10]) + 4) // 5 - (1 if offers else 0)  # a menu fills a row of its own
    placeholder = "Play a card" if table.state["phase"] == "deal" else "Choose"
    menus = [(group[i:i + 25], title) for group, title in ((answers, "Answer an offer"), (cards, placeholder))
             for i in range(0, len(group), 25)]
    for slot, (chunk, title) in enumerate(menus[:rows]):
        options = [(pres.move_label(table, m), compact(m), None) for m in chunk]
        view.add_item(MoveMenu(gid, tok, slot, options, title))
    if offers:
        view.add_item(OfferFamily(gid, [(f"{DOTS[f]} {f}", f) for f in offers]))
    return view


def price_view(table: Table, seat: int, family: str) -> discord.ui.View:
    """The prices one may ask for a family: shares, or nothing to whole millions of the payout."""
    moves = [m for m in table.engine.legal(table.state, seat) if m["type"] == "offer" and m["family"] == family]
    if not moves:
        raise Refusal(f"You cannot offer {family} in this deal now.")
    view = discord.ui.View(timeout=None)
    shares = [m for m in moves if "shares" in m]
    cash = [m for m in moves if "money" in m]
    value = table.state["deal"]["value"]
    tok = str(Boss.moves_made(table.state, seat))
    options = [(f"{price_text(m)} (= {money(m['shares'] * value)} now)", compact(m), None) for m in shares]
    view.add_item(MoveMenu(table.game.id, tok, 0, options, f"Ask {family}: a number of shares"))
    for page, start in enumerate(range(0, len(cash), 25), 1):
        chunk = cash[start:start + 25]
        view.add_item(MoveMenu(table.game.id, tok, page, [(price_text(m), compact(m), None) for m in chunk],
                               f"Ask {family}: {price_text(chunk[0])} to {price_text(chunk[-1])}"))
        if page == 4:
            break
    return view


PLAYED = ("You have made a move since this panel was shown, so it plays nothing more; "
          "open your panel again (My hand & moves) to see your moves now.")


class _Plays:
    """A choice on the deal panel plays its move. The panel stays usable while others play around it, as long as
    the move is still one of the player's legal moves; its token is the player's own count of moves, so it plays
    once: a second press, or a press on an older panel, is refused."""

    serves = staticmethod("boss".__eq__)
    token, token_optional = r"\d{1,9}", True  # panels from before the token: refused with PLAYED

    async def load(self, interaction: discord.Interaction) -> tuple[Table, int]:
        tables = interaction.client.tables
        table = await tables.load(self.gid)
        seat = tables.player_seat(table, interaction.user.id)
        if str(Boss.moves_made(table.state, seat)) != self.tok:
            raise Refusal(PLAYED)
        return table, seat

    async def choose(self, interaction: discord.Interaction, code: str) -> dict[str, Any]:
        table, seat = await self.load(interaction)
        move = legal_move(table, seat, code)
        table = await interaction.client.tables.act(self.gid, interaction.user.id, move)
        return confirm_reply(table, seat, move, was_secret=False)


class MoveNow(_Plays, PanelButton, prefix="bx"):
    STYLES = {"declare": discord.ButtonStyle.success, "fail": discord.ButtonStyle.danger,
              "boss": discord.ButtonStyle.primary, "stop": discord.ButtonStyle.danger,
              "pass": discord.ButtonStyle.success}


class MoveMenu(_Plays, PanelMenu, prefix="bxs"):
    pass


class OfferFamily(TableItem, discord.ui.DynamicItem[discord.ui.Select], template=r"bof:(?P<gid>\d+)"):
    serves = staticmethod("boss".__eq__)

    def __init__(self, game_id: int, options: list[tuple[str, str]] | None = None):
        opts = [discord.SelectOption(label=label, value=fam) for label, fam in options or [("-", "red")]]
        super().__init__(discord.ui.Select(custom_id=f"bof:{game_id}", options=opts,
                                           placeholder="Offer to join for a price: which family?"))
        self.gid = game_id

    @classmethod
    def read(cls, match: re.Match, item):
        return cls(table_id(match["gid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work():
            family = chosen(interaction)
            tables = interaction.client.tables
            table = await tables.load(self.gid)
            seat = tables.player_seat(table, interaction.user.id)
            if family not in FAMILIES:
                raise Refusal("There is no such family.")
            return {"content": f"Your price for bringing {family} into the deal on table {self.gid}? "
                               "Only the deal's payout can pay it.",
                    "view": price_view(table, seat, family)}

        await answer(interaction, work)


DYNAMIC_ITEMS = (MoveNow, MoveMenu, OfferFamily)


async def setup(bot) -> None:
    path = getattr(bot.settings, "boss_board", None)
    if path:
        try:
            use_printed(path)
        except BoardError as e:  # the bot still runs with our board; the admin reads why
            log.error("BOT_BOSS_BOARD is not usable, so board=printed is off: %s", e)
    register("boss", BossPresenter())
