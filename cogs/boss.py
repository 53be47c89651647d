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
from bot.i18n import say, tr
from bot.interact import answer
from bot.items import TableItem, chosen, table_id
from bot.move_items import PanelButton, PanelMenu, compact, legal_move
from bot.present import PLACEHOLDER, Presenter, register
from bot.table_ui import confirm_reply
from bot.tables import Change, Table
from engines.boss import FAMILIES, Boss, capital, card_name, colour, event_msg, joined, money, price_text
from engines.boss.board import BoardError, use_printed
from engines.text import N_, from_json, plural

log = logging.getLogger("cogs.boss")

MENU_MOVES = ("lay", "travel", "hire", "discard", "place")  # many similar choices: a menu
ANSWER_MOVES = ("accept", "refuse", "use")
DOTS = {"red": "🟥", "blue": "🟦", "yellow": "🟨", "pink": "🩷", "orange": "🟧", "green": "🟩"}


def _names(table: Table) -> list[str]:
    return [s.name for s in table.game.in_seat_order()]


def event_line(event: dict[str, Any], names: list[str], lang: str = "en") -> str:
    """An engine event in `lang`, [0], [1] … replaced by the names of its seats in one pass after the rest (a
    player called "[1]" is never read as a placeholder)."""
    seats = event["seats"]

    def who(m) -> str:
        k = int(m[1])
        if k >= len(seats):  # beyond the event's seats: left as written
            return m[0]
        seat = seats[k]
        return names[seat] if type(seat) is int and 0 <= seat < len(names) else "?"

    return PLACEHOLDER.sub(who, say(event_msg(event), lang))


def _list(items: list[Any], lang: str) -> str:
    """Several names or phrases in a row, as `lang` writes a list ("Ann, Ben" / "Ann、Ben")."""
    return say(joined(list(items)), lang)


def _fam(f: str, lang: str) -> str:
    return f"{DOTS[f]}{say(colour(f), lang)}"


def _fams(fams: list[str], lang: str = "en") -> str:
    return " ".join(_fam(f, lang) for f in fams)


def still_needed(space: dict[str, Any], covered: list[str], lang: str = "en") -> str:
    """What the deal lacks, as the space says it: "🟥red + 1 of 🩷pink/🟧orange"."""
    parts = [_fam(f, lang) for f in space["must"] if f not in covered]
    short = space["more"] - len(set(covered) & set(space["from"]))
    if short > 0:
        parts.append(tr(lang, "{n} of {families}", n=short,
                        families="/".join(_fam(f, lang) for f in space["from"] if f not in covered)))
    return " + ".join(parts)


def _owner(p: dict[str, Any], fam: str, names: list[str], lang: str) -> str:
    o = p["owners"][fam]
    return tr(lang, "beside the board") if o is None else names[o]


def _shares(n: int) -> Any:
    return plural(n, "{n} share", "{n} shares")


class BossPresenter(Presenter):
    def public_lines(self, table: Table, lang: str = "en") -> list[str]:
        p = table.engine.public(table.state)
        names = _names(table)
        lines = []
        if p["top"]:
            t = p["top"]
            lines.append(tr(lang, "Deal tile **#{number}** on top: **{value} a share** · {left} · {made} made",
                            number=t["number"], value=money(t["value"]),
                            left=plural(p["tiles_left"], "{n} tile left", "{n} tiles left"),
                            made=plural(p["deals_done"], "{n} deal", "{n} deals")))
        if p["marker"] is not None:
            sp = p["spaces"][p["marker"]]
            needs, shares = Boss.requirement_text(sp), _shares(sp["shares"])
            if p["top"]:
                lines.append(tr(lang, "Dollar marker on **space {space}**: {needs}, {shares} (pays {payout} now)",
                                space=p["marker"] + 1, needs=needs, shares=shares,
                                payout=money(sp["shares"] * p["top"]["value"])))
            else:
                lines.append(tr(lang, "Dollar marker on **space {space}**: {needs}, {shares}",
                                space=p["marker"] + 1, needs=needs, shares=shares))
        lines.append(tr(lang, "Investors: {investors}",
                        investors=" · ".join(f"{DOTS[f]}{_owner(p, f, names, lang)}" for f in FAMILIES)))
        lines.append(tr(lang, "Players: {players}", players=" · ".join(
            tr(lang, "{name} {cards}, {pile}", name=names[s], pile=tr(lang, p["cash_band"][s]),
               cards=plural(p["hand_sizes"][s], "{n} card", "{n} cards")) for s in range(len(names)))))
        if p["deal"]:
            lines += self._deal_lines(p, names, lang)
        if p["events"]:
            lines.append(tr(lang, "Lately: {events}",
                            events=" ".join(event_line(e, names, lang) for e in p["events"][-4:])))
        if p["scores"] is not None:
            ranked = sorted(range(len(names)), key=lambda s: -p["scores"][s])
            lines.append(tr(lang, "**Final money:** {players}",
                            players=_list([f"{names[s]} {money(p['scores'][s])}" for s in ranked], lang)))
        return lines

    def _deal_lines(self, p: dict[str, Any], names: list[str], lang: str = "en") -> list[str]:
        d = p["deal"]
        sp = p["spaces"][d["space"]]
        head = tr(lang, "**Deal on space {space}** · boss **{boss}** · pays {payout} · promised {promised}",
                  space=d["space"] + 1, boss=names[d["boss"]], payout=money(d["payout"]),
                  promised=money(d["promised"]))
        out = [head + tr(lang, " · **last call**") if d["stage"] == "last_call" else head]
        covered = _fams(d["covered"], lang) or tr(lang, "nobody yet")
        needs = Boss.requirement_text(sp)
        if d["needed"]:
            out.append(tr(lang, "Needs {needs} · in: {covered} · still needed: {missing}", needs=needs,
                          covered=covered, missing=still_needed(sp, d["covered"], lang)))
        else:
            out.append(tr(lang, "Needs {needs} · in: {covered} · **complete**", needs=needs, covered=covered))
        if d["laid"]:
            out.append(tr(lang, "On the table: {cards}", cards=_list(
                [f"#{c['id']} {DOTS[c['family']]} {names[c['owner']]}" for c in d["laid"]], lang)))
        if d["away"]:
            out.append(tr(lang, "On travel: {families}", families=_fams(d["away"], lang)))
        for a, amount in zip(d["agreements"], d["amounts"], strict=True):
            out.append(tr(lang, "Agreed: {name} brings {family} for {price} ({amount})", name=names[a["seat"]],
                          family=_fam(a["family"], lang), price=price_text(a["price"]), amount=money(amount)))
        for o in d["offers"]:
            out.append(tr(lang, "Offer: {name} brings {family} for {price}", name=names[o["seat"]],
                          family=_fam(o["family"], lang), price=price_text(o["price"])))
        if d["stoppable"]:
            out.append(tr(lang, "A stop card may still cancel {name}'s {card}.", name=names[d["stoppable"]["seat"]],
                          card=from_json(d["stoppable"]["what"])))
        if d["stage"] == "last_call" and d["passed"]:
            out.append(tr(lang, "Nothing more from: {names}", names=_list([names[s] for s in d["passed"]], lang)))
        return out

    def private_lines(self, table: Table, seat: int, lang: str = "en") -> list[str]:
        v = table.engine.view(table.state, seat)
        hand = _list([tr(lang, "{n}× {card}", n=n, card=card_name(c)) if n > 1 else card_name(c)
                      for c, n in v["hand"].items()], lang)
        mine = [f for f in FAMILIES if v["owners"][f] == seat]
        return [tr(lang, "Your money: **{money}** (the others see {pile})", money=money(v["cash"]),
                   pile=tr(lang, v["cash_band"][seat])),
                tr(lang, "Your hand ({n}): {cards}", n=sum(v["hand"].values()), cards=hand or tr(lang, "empty")),
                tr(lang, "Your investors: {families}", families=_fams(mine, lang) or tr(lang, "none"))]

    def move_label(self, table: Table, action: dict[str, Any], lang: str = "en") -> str:
        names = _names(table)
        k, s = action["type"], table.state
        if k in ("accept", "refuse"):
            offer = next((o for o in s["deal"]["offers"] if o["seat"] == action["seat"]
                          and o["family"] == action["family"]), None) if s["deal"] else None
            name, family = names[action["seat"]], colour(action["family"])
            if offer:
                return tr(lang, "Accept {name}'s {family} for {price}" if k == "accept" else
                          "Refuse {name}'s {family} for {price}", name=name, family=family,
                          price=price_text(offer["price"]))
            return tr(lang, "Accept {name}'s {family}" if k == "accept" else "Refuse {name}'s {family}",
                      name=name, family=family)
        if k == "travel":
            card = capital(action["card"])
            if "laid" in action:
                laid = next((c for c in s["deal"]["laid"] if c["id"] == action["laid"]), None) if s["deal"] else None
                if laid:
                    return tr(lang, "{colour} travel card on {name}'s {family} family card", colour=card,
                              name=names[laid["owner"]], family=colour(laid["family"]))
                return tr(lang, "{colour} travel card on a family card", colour=card)
            owner = s["owners"][action["family"]]
            if owner is not None:
                return tr(lang, "{colour} travel card on {name}'s {family} investor", colour=card,
                          name=names[owner], family=colour(action["family"]))
            return tr(lang, "{colour} travel card on an investor", colour=card)
        if k == "hire":
            owner = s["owners"][action["family"]]
            if owner is None:
                return tr(lang, "Hire the {family} investor from beside the board (3 hire cards)",
                          family=colour(action["family"]))
            return tr(lang, "Hire the {family} investor from {name} (3 hire cards)", family=colour(action["family"]),
                      name=names[owner])
        if k == "use":
            return tr(lang, "Use the {family} from the table for a fair share", family=colour(action["family"]))
        if k == "place":
            sp = s["spaces"][action["space"]]
            return tr(lang, "Space {space}: {needs}, {shares}", space=action["space"] + 1,
                      needs=Boss.requirement_text(sp), shares=_shares(sp["shares"]))
        return say(table.engine.label(action), lang)

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
        text = "\n".join(event_line(e, names, lang) for e in fresh)
        picture = None
        placed = (before is None or before["marker"] is None) and after["marker"] is not None
        ended = before is not None and before["deal"] is not None and after["deal"] is None
        if placed or ended:
            from cogs.boss_board import render

            picture = render(table.engine.public(after), names, lang)
        return [(tr(lang, "Table {id}: {text}", id=table.game.id, text=text)[:2000], picture)]

    def move_view(self, table: Table, seat: int, lang: str = "en"):
        moves = table.engine.legal(table.state, seat)
        if not moves:
            return None
        return panel(self, table, seat, moves, lang)


# --- the panel -------------------------------------------------------------------------------
def panel(pres: BossPresenter, table: Table, seat: int, moves: list[dict[str, Any]],
          lang: str = "en") -> discord.ui.View:
    """Buttons for the few decisive moves, menus for cards, answers to offers and offers. Every item carries how
    many moves the seat had made when it was drawn, so it plays once (a double press, an old DM panel)."""
    gid, tok = table.game.id, str(Boss.moves_made(table.state, seat))
    view = discord.ui.View(timeout=None)
    cards = [m for m in moves if m["type"] in MENU_MOVES]
    answers = [m for m in moves if m["type"] in ANSWER_MOVES]
    offers = sorted({m["family"] for m in moves if m["type"] == "offer"}, key=FAMILIES.index)
    buttons = [m for m in moves if m["type"] not in (*MENU_MOVES, *ANSWER_MOVES, "offer")]
    for m in buttons[:10]:
        view.add_item(MoveNow(gid, tok, m, pres.move_label(table, m, lang)))
    rows = 5 - (len(buttons[:10]) + 4) // 5 - (1 if offers else 0)  # a menu fills a row of its own
    placeholder = tr(lang, "Play a card") if table.state["phase"] == "deal" else tr(lang, "Choose")
    menus = [(group[i:i + 25], title) for group, title in ((answers, tr(lang, "Answer an offer")),
                                                           (cards, placeholder))
             for i in range(0, len(group), 25)]
    for slot, (chunk, title) in enumerate(menus[:rows]):
        options = [(pres.move_label(table, m, lang), compact(m), None) for m in chunk]
        view.add_item(MoveMenu(gid, tok, slot, options, title))
    if offers:
        view.add_item(OfferFamily(gid, [(_fam(f, lang), f) for f in offers], lang))
    return view


def price_view(table: Table, seat: int, family: str, lang: str | None = None) -> discord.ui.View:
    """The prices one may ask for a family: shares, or nothing to whole millions of the payout (in `lang`, by
    default the reader's)."""
    moves = [m for m in table.engine.legal(table.state, seat) if m["type"] == "offer" and m["family"] == family]
    if not moves:
        raise Refusal("You cannot offer {family} in this deal now.", family=colour(family))
    view = discord.ui.View(timeout=None)
    shares = [m for m in moves if "shares" in m]
    cash = [m for m in moves if "money" in m]
    value = table.state["deal"]["value"]
    tok = str(Boss.moves_made(table.state, seat))
    options = [(tr(lang, "{price} (= {amount} now)", price=price_text(m), amount=money(m["shares"] * value)),
                compact(m), None) for m in shares]
    view.add_item(MoveMenu(table.game.id, tok, 0, options,
                           tr(lang, "Ask {family}: a number of shares", family=colour(family))))
    for page, start in enumerate(range(0, len(cash), 25), 1):
        chunk = cash[start:start + 25]
        view.add_item(MoveMenu(table.game.id, tok, page, [(say(price_text(m), lang), compact(m), None) for m in chunk],
                               tr(lang, "Ask {family}: {low} to {high}", family=colour(family),
                                  low=price_text(chunk[0]), high=price_text(chunk[-1]))))
        if page == 4:
            break
    return view


PLAYED = N_("You have made a move since this panel was shown, so it plays nothing more; "
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

    def __init__(self, game_id: int, options: list[tuple[str, str]] | None = None, lang: str = "en"):
        opts = [discord.SelectOption(label=label, value=fam) for label, fam in options or [("-", "red")]]
        super().__init__(discord.ui.Select(custom_id=f"bof:{game_id}", options=opts,
                                           placeholder=tr(lang, "Offer to join for a price: which family?")))
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
            return {"content": tr(None, "Your price for bringing {family} into the deal on table {id}? Only the "
                                        "deal's payout can pay it.", family=colour(family), id=self.gid),
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
