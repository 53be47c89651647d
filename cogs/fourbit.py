"""4bit Town in Discord: how the town reads, and the secret stack builder.

The stack builder is a private panel (DM or the ephemeral "My hand & moves"): choose the
location, then the order of your four cards; it shows the number the stack makes and what
each card's side will do before you confirm. Until everyone has chosen you may change it."""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import discord

from bot.errors import Refusal, player_sentence
from bot.i18n import READER, say, tr
from bot.interact import answer, reader_lang
from bot.items import TableItem, choice_number, number, table_id
from bot.present import Presenter, register
from bot.table_ui import MoveButton, MoveSelect, confirm_reply
from bot.tables import Table
from engines.fourbit import (
    AMOUNT,
    FLAG_PLACES,
    PERMS,
    PHASES,
    bits,
    building_name,
    effect_text,
    location_label,
    location_name,
    place_effect,
)
from engines.fourbit.data import CARDS, CITY_HALL, PLACES, TITLE
from engines.text import N_, plural

RES = {"wood": "🪵", "stone": "🪨", "coins": "🪙"}
#: How each language lists names and parts of a sentence.
SEP = {"en": ", ", "ja": "、"}
SEMI = {"en": "; ", "ja": "；"}
#: What joins two sentences: a space in English, nothing after a Japanese full stop.
SPACE = {"en": " ", "ja": ""}


def _sep(lang: str) -> str:
    return SEP.get(lang, ", ")


def _short(e: dict[str, Any], lang: str = "en") -> str:
    """A card face in as few characters as a menu needs: English abbreviates the resources (W, S, C)."""
    text = say(effect_text(e), lang)
    return text.replace("wood", "W").replace("stone", "S").replace("coins", "C") if lang == "en" else text


def _names(table: Table) -> list[str]:
    return [s.name for s in table.game.in_seat_order()]


def _card(card: int, side: int, lang: str) -> str:
    return tr(lang, "card {card} ({side}-side: {effect})", card=card, side=side, effect=effect_text(CARDS[card][side]))


def _gave(d: dict[str, int], lang: str) -> str:
    """What a step changed for its player: '+2 wood, -4 coins, 1 space up the track'."""
    parts = [tr(lang, AMOUNT[k], n=f"{d[k]:+d}") for k in ("wood", "stone", "coins", "vp") if d.get(k)]
    if d.get("level"):
        parts.append(tr(lang, "company level {n}", n=f"{d['level']:+d}"))
    if d.get("hired"):
        h = d["hired"]
        parts.append(say(plural(abs(h), "{d} hired worker", "{d} hired workers", d=f"{h:+d}"), lang))
    if d.get("space"):
        parts.append(say(plural(d["space"], "{n} space up the track", "{n} spaces up the track"), lang))
    return _sep(lang).join(parts) or tr(lang, "nothing")


def _resolution_line(ev: dict[str, Any], who: str, lang: str) -> str | None:
    """One step of a worker's resolution in words; cards passed over by themselves are not told."""
    t = ev["type"]
    v = {"who": who, "where": location_name(ev["loc"])}
    if t in ("use", "waited", "skip"):
        v["card"] = _card(ev["card"], ev["side"], lang)
    if "gave" in ev:
        v["gave"] = _gave(ev["gave"], lang)
    if t == "use" and ev.get("held"):
        if CARDS[ev["card"]][ev["side"]]["kind"] in ("build_discount", "hire_discount"):
            return tr(lang, "{who} at {where}: uses {card}; it lowers the cost of the action to come.", **v)
        return tr(lang, "{who} at {where}: uses {card}; it is checked once the location's effect is done.", **v)
    if t == "use":
        return tr(lang, "{who} at {where}: uses {card} → {gave}.", **v)
    if t == "waited" and not ev["taken"]:
        return tr(lang, "{who} at {where}: {card} gives nothing: the location's effect was skipped.", **v)
    if t == "waited":
        return tr(lang, "{who} at {where}: {card}, after the location's effect → {gave}.", **v)
    if t == "skip":
        return None if ev["auto"] else tr(lang, "{who} at {where}: skips {card}.", **v)
    if t == "location":
        move = location_label({"at": ev["loc"], **ev["move"]})
        return tr(lang, "{who} at {where}: {move} → {gave}.", move=move, **v)
    if t == "decline":
        if ev["auto"]:
            return tr(lang, "{who} at {where}: the location's effect could not be taken.", **v)
        return tr(lang, "{who} at {where}: skips the location's effect.", **v)
    if t == "city_hall":
        return tr(lang, "{who} at {where}: City Hall's gain → {gave}.", **v)
    return None


def _no_workers(who: str, lang: str) -> str:
    return tr(lang, "{who} has no hired worker left, so {who} passes every step from now on (only a worker can "
                    "hire).", who=who)


def _round_end_line(ev: dict[str, Any], names: list[str], lang: str) -> str | None:
    t = ev["type"]
    if t == "row":
        added = _sep(lang).join(say(building_name(b), lang) for b in ev["added"])
        if added:
            return tr(lang, "Build row: {added} added from the deck.", added=added)
        return tr(lang, "Build row: the deck is empty, nothing added.")
    who = names[ev["seat"]]
    if t == "income":
        return tr(lang, "Round end: {who}'s buildings give {gave}.", who=who, gave=_gave(ev["gave"], lang))
    if t != "upkeep":
        return None
    keep, hired, paid = ev["keep"], ev["hired"], ev["paid"]
    if ev["auto"] and keep == 0:
        line = tr(lang, "Upkeep: {who} cannot pay {each} coins for even one worker (has {coins}), so all {hired} are "
                        "fired.", who=who, each=ev["each"], coins=ev["coins"], hired=hired)
    elif keep == hired:
        line = tr(lang, "Upkeep: {who} keeps every worker ({hired}) and pays {paid} coins.", who=who, hired=hired,
                  paid=paid)
    else:
        line = tr(lang, "Upkeep: {who} keeps {keep} of {hired} workers and pays {paid} coins; {fired} fired.",
                  who=who, keep=keep, hired=hired, paid=paid, fired=hired - keep)
    return SPACE.get(lang, " ").join([line, _no_workers(who, lang)]) if keep == 0 and hired else line


def event_lines(events: list[dict[str, Any]], names: list[str], lang: str = "en") -> list[str]:
    """The public story of resolution steps and round-end effects, as the engine recorded them."""
    lines = []
    for ev in events:
        line = _resolution_line(ev, names[ev["seat"]], lang) if "loc" in ev else _round_end_line(ev, names, lang)
        if line:
            lines.append(line)
    return lines


def _new_events(before: dict[str, Any], after: dict[str, Any]) -> list[dict[str, Any]]:
    fresh = after["told"] - before["told"]
    return after["log"][-fresh:] if fresh > 0 else []


def _my_worker_lines(s: dict[str, Any], seat: int, lang: str) -> list[str]:
    """While this seat's worker resolves: what is left of its stack, and whether the location is done."""
    r = s["res"]
    if s["phase"] != "resolve" or s["queue"][r["i"]]["seat"] != seat:
        return []
    w = s["queue"][r["i"]]
    left = [_card(c, b, lang) if _can_work(CARDS[c][b], w["loc"]) else
            tr(lang, "{card}, nothing here", card=_card(c, b, lang))
            for c, b in list(zip(w["order"], w["bits"], strict=True))[r["card"]:]]
    lines = [tr(lang, "Your worker at {where}. Cards left, top first: {left}.", where=location_name(w["loc"]),
                left=SEMI.get(lang, "; ").join(left) or tr(lang, "none"))]
    if r["stage"] == "city_hall":
        lines.append(tr(lang, "Now City Hall's gain: 2 wood or 2 coins, then you may pay 4 coins to move up the "
                              "track."))
    elif not r["loc_done"]:
        when = tr(lang, "Take the location's effect whenever you like: before the next card, between two, or after "
                        "the last.")
        lines.append(SPACE.get(lang, " ").join([when, *_timing_notes(w, r["card"], lang)]))
    return lines


def _can_work(e: dict[str, Any], loc: int) -> bool:
    """Whether a card face can do anything at this location at all."""
    if e["kind"] in ("gain", "convert"):
        return True
    if e["kind"] in ("build_discount", "hire_discount"):
        return loc == (8 if e["kind"] == "build_discount" else 7)
    flag = "hire" if e["kind"] == "extra_hire" else e["flag"]
    return loc == CITY_HALL if flag == "city_hall" else loc in FLAG_PLACES[flag]


def _timing_notes(w: dict[str, Any], start: int, lang: str) -> list[str]:
    """What the remaining cards need from the location's timing."""
    notes = []
    for c, b in list(zip(w["order"], w["bits"], strict=True))[start:]:
        e = CARDS[c][b]
        if not _can_work(e, w["loc"]):
            continue
        if e["kind"] in ("build_discount", "hire_discount"):
            notes.append(tr(lang, "Use card {card} before it: it lowers that cost.", card=c))
        elif e.get("flag") in ("loc_wood", "loc_stone"):
            notes.append(tr(lang, "Card {card} waits for it.", card=c))
        elif e["kind"] == "extra_hire" or e.get("flag") in ("plan", "sell", "build", "track"):
            notes.append(tr(lang, "Card {card} needs it done first.", card=c))
    return notes


def _why_no_workers(s: dict[str, Any], seat: int, lang: str) -> list[str]:
    p = s["players"][seat]
    if s["phase"] in ("setup", "draft", "over") or p["hired"]:
        return []
    upkeep = next((ev for ev in reversed(s["log"]) if ev["type"] == "upkeep" and ev["seat"] == seat), None)
    parts = [tr(lang, "You have no hired workers, so you pass every step.")]
    if upkeep and upkeep["auto"]:
        parts.append(tr(lang, "At the upkeep you could not pay {each} coins for one worker (you had {coins}), so all "
                              "were fired.", each=upkeep["each"], coins=upkeep["coins"]))
    elif upkeep:
        parts.append(tr(lang, "You chose to keep none of them at the upkeep."))
    parts.append(tr(lang, "Only a worker sent to {where} can hire another, so you sit out the rest of the game; your "
                          "score still counts.", where=location_name(7)))
    return [SPACE.get(lang, " ").join(parts)]


class FourBitPresenter(Presenter):
    def public_lines(self, table: Table, lang: str = "en") -> list[str]:
        p = table.engine.public(table.state)
        names = _names(table)
        sep = _sep(lang)
        lines = [tr(lang, "**Round {round} of 6** · {phase}", round=p["round"] or "—",
                    phase=tr(lang, PHASES.get(p["phase"], p["phase"])))]
        if p["draft_round"]:
            lines.append(tr(lang, "Draft: pick {pick} of 3 (the fourth card is the one left).", pick=p["draft_round"]))
        for i, q in enumerate(p["players"]):
            built = sep.join(say(building_name(b), lang) for b in q["built"]) or tr(lang, "no buildings")
            if not q["hired"]:
                state = tr(lang, "no hired workers: passes every step")
            elif q["passed"]:
                state = tr(lang, "passed")
            else:
                state = tr(lang, "{free} of {hired} workers free", free=q["hired"] - q["sent"], hired=q["hired"])
            res = f"{RES['wood']}{q['wood']} {RES['stone']}{q['stone']} {RES['coins']}{q['coins']}"
            line = tr(lang, "**{name}** {res} · VP {vp} · level {level} · {state} · {built}", name=names[i], res=res,
                      vp=q["vp"], level=q["level"], state=state, built=built)
            if q["plans"]:
                line = tr(lang, "{line} · {n} planned", line=line, n=len(q["plans"]))
            lines.append(line)
        if p["order"]:
            track = sep.join(tr(lang, "{name} (space {space})", name=names[e["seat"]], space=e["space"])
                             for e in p["track"])
            lines.append(tr(lang, "Turn order this round: {order} · track: {track}",
                            order=" > ".join(names[s] for s in p["order"]), track=track))
        if p["row"]:
            lines.append(tr(lang, "Build row: {row} · deck {n}", row=sep.join(say(building_name(b), lang)
                                                                            for b in p["row"]), n=p["deck_left"]))
        blocked = [str(n) for n, b in enumerate(p["blocked"]) if b]
        if blocked:
            lines.append(tr(lang, "Blocked this round: {blocked}", blocked=", ".join(blocked)))
        if p["reveal"]:
            r = p["reveal"]
            shown = []
            for w in r["workers"]:
                v = {"name": names[w["seat"]], "where": location_name(w["loc"])}
                if w["loc"] == CITY_HALL:
                    shown.append(tr(lang, "{name} → {where} (made {n}, blocked)", n=w["n"], **v))
                elif w["first"]:
                    shown.append(tr(lang, "{name} → {where}", **v))
                else:
                    shown.append(tr(lang, "{name} → {where} (follower)", **v))
            shown += [tr(lang, "{name} passed", name=names[s]) for s in r["passes"]]
            lines.append(tr(lang, "Last reveal (round {round}): {shown}", round=r["round"], shown="; ".join(shown)))
        if p["resolving"]:
            w = p["resolving"]
            v = {"name": names[w["seat"]], "where": location_name(w["loc"])}
            if w["loc"] == CITY_HALL:
                lines.append(tr(lang, "Resolving: {name} at {where}.", **v))
            elif w["loc_done"]:
                lines.append(tr(lang, "Resolving: {name} at {where} · location effect done.", **v))
            else:
                lines.append(tr(lang, "Resolving: {name} at {where} · location effect not taken yet.", **v))
        if p["final"]:
            for place, seats in enumerate(p["ranking"], 1):
                for s in seats:
                    f = p["final"][s]
                    lines.append(tr(lang, "{place}. {name}: {total} VP (VP {vp} + workers {workers} + track {track} + "
                                          "buildings {buildings}; {coins} coins)", place=place, name=names[s], **f))
        return lines

    def private_lines(self, table: Table, seat: int, lang: str = "en") -> list[str]:
        v = table.engine.view(table.state, seat)
        lines = []
        if "draft_hand" in v:
            hand = _sep(lang).join(tr(lang, "card {card}", card=c) for c in v["draft_hand"])
            if v["draft_pick"]:
                lines.append(tr(lang, "Draft: your hand {hand} · your pick: card {pick}", hand=hand,
                                pick=v["draft_pick"]))
            else:
                lines.append(tr(lang, "Draft: your hand {hand}", hand=hand))
            for c in v["draft_hand"]:
                lines.append("  " + tr(lang, "card {card}: 0-side {zero} | 1-side {one}", card=c,
                                       zero=_short(CARDS[c][0], lang), one=_short(CARDS[c][1], lang)))
        if v["my_cards"]:
            cards = SEMI.get(lang, "; ").join(f"{c} (0: {_short(CARDS[c][0], lang)} | 1: {_short(CARDS[c][1], lang)})"
                              for c in v["my_cards"])
            lines.append(tr(lang, "Your cards: {cards}", cards=cards))
        if v["my_plans"]:
            lines.append(tr(lang, "Your plans: {plans}",
                            plans=_sep(lang).join(say(building_name(b), lang) for b in v["my_plans"])))
        c = v.get("my_choice")
        if c and c["type"] == "pass":
            lines.append(tr(lang, "Your secret choice this step: pass"))
        elif c:
            lines.append(tr(lang, "Your secret choice this step: {where} with stack {stack}",
                            where=location_name(c["n"]), stack="-".join(map(str, c["order"]))))
        lines += _my_worker_lines(table.state, seat, lang) + _why_no_workers(table.state, seat, lang)
        return lines or [tr(lang, "Nothing secret yet.")]

    def announce(self, change, lang: str = "en") -> list[tuple[str, bytes | None]]:
        """The reveal, the placement and each resolution in order; a board picture after each
        reveal and each round end. Secret choices themselves are never narrated."""
        table, engine = change.table, change.table.engine
        names = _names(table)
        state = change.before
        out: list[tuple[str, bytes | None]] = []
        picture = False
        for _seq, seat, action in change.entries:
            if state is None or state["phase"] == "setup":
                state = engine.apply(state, seat, action) if state is not None else state
                continue
            after = engine.apply(state, seat, action)
            if state["phase"] == "market" and seat >= 0:
                out.append((tr(lang, "{name}'s Market: {move}", name=names[seat], move=engine.label(action)), None))
            if after["reveal"] is not state["reveal"] and after["reveal"] != state["reveal"]:
                r = after["reveal"]
                lines = [tr(lang, "**Reveal — round {round}**", round=r["round"])]
                for w in r["workers"]:
                    v = {"name": names[w["seat"]], "stack": "-".join(map(str, w["order"])), "bits": f"{w['n']:04b}",
                         "n": w["n"], "where": location_name(w["loc"])}
                    if w["loc"] == CITY_HALL:
                        lines.append(tr(lang, "{name}: stack {stack} = {bits} = {n} → {where} (blocked → City Hall)",
                                        **v))
                    elif w["first"]:
                        lines.append(tr(lang, "{name}: stack {stack} = {bits} = {n} → {where}", **v))
                    else:
                        lines.append(tr(lang, "{name}: stack {stack} = {bits} = {n} → {where} (follower)", **v))
                lines += [tr(lang, "{name} passes.", name=names[s]) for s in r["passes"]]
                out.append(("\n".join(lines), None))
                picture = True
            told = event_lines(_new_events(state, after), names, lang)
            if told:
                out.append(("\n".join(told)[:2000], None))
            if state["round"] >= 1 and (after["round"] != state["round"] or after["phase"] == "over"):
                out.append((tr(lang, "**Round {round} is over.**", round=state["round"]), None))
                picture = True
            state = after
        if picture and out:
            from cogs.fourbit_board import render

            text, _ = out[-1]
            out[-1] = (text, render(engine.public(table.state), names, lang))
        return out

    def move_view(self, table: Table, seat: int, lang: str = "en"):
        s = table.state
        if s["phase"] == "work" and table.engine.can_act(s, seat):
            return stack_view(table, seat, table.seq, None, None, lang)
        if s["phase"] == "draft":  # the draft pick from a menu showing both sides of each card
            view = discord.ui.View(timeout=None)
            moves = table.engine.legal(s, seat)
            view.add_item(MoveSelect(table.game.id, table.seq, 0, [
                (i, tr(lang, "Card {card} · 0: {zero} | 1: {one}", card=m["card"],
                       zero=_short(CARDS[m["card"]][0], lang), one=_short(CARDS[m["card"]][1], lang))[:100])
                for i, m in enumerate(moves)], lang=lang))
            return view
        return None


# --- the stack builder ------------------------------------------------------------------------
#: Each position of a stack, top first, as the builder names it.
POSITIONS = (N_("top: card {card}, {side}-side → {effect}"), N_("#2: card {card}, {side}-side → {effect}"),
             N_("#3: card {card}, {side}-side → {effect}"), N_("bottom: card {card}, {side}-side → {effect}"))


def stack_text(table: Table, seat: int, n: int | None, perm: int | None, lang: str = "en") -> str:
    cards = table.state["players"][seat]["cards"]
    lines = [tr(lang, "**Table {id} · {title}** — round {round}: choose in secret.", id=table.game.id, title=TITLE,
                round=table.state["round"])]
    if n is None:
        lines.append(tr(lang, "1. Choose a location. 2. Choose the order of your cards. 3. Confirm (or Pass)."))
    else:
        v = {"bits": f"{n:04b}", "n": n, "where": location_name(n), "effect": place_effect(n)}
        if table.state["blocked"][n]:
            lines.append(tr(lang, "Location **{bits} = {n}**: {where} — {effect} · **blocked this round: the worker "
                                  "would go to City Hall**", **v))
        else:
            lines.append(tr(lang, "Location **{bits} = {n}**: {where} — {effect}", **v))
        if perm is not None:
            order = [cards[i] for i in PERMS[perm]]
            for pos, (c, b) in enumerate(zip(order, bits(n), strict=True)):
                lines.append(tr(lang, POSITIONS[pos], card=c, side=b, effect=effect_text(CARDS[c][b])))
    return "\n".join(lines)[:2000]


def stack_view(table: Table, seat: int, seq: int, n: int | None, perm: int | None,
               lang: str = "en") -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    gid = table.game.id
    view.add_item(StackLocation(gid, seq, perm, _location_options(table, n, lang), lang))
    view.add_item(StackOrder(gid, seq, n, _order_options(table, seat, n, perm, lang), lang))
    view.add_item(StackConfirm(gid, seq, n, perm, lang))
    view.add_item(MoveButton(gid, seq, 0, tr(lang, "Pass")))  # legal()[0] is the pass
    return view


def _location_options(table: Table, chosen: int | None, lang: str = "en") -> list[discord.SelectOption]:
    out = []
    for n in range(16):
        effect = place_effect(n)
        desc = tr(lang, "{effect} · blocked: City Hall", effect=effect) if table.state["blocked"][n] else \
            say(effect, lang)
        label = tr(lang, "{bits} = {n} · {place}", bits=f"{n:04b}", n=n, place=PLACES[n])
        out.append(discord.SelectOption(label=label[:100], value=str(n), description=desc[:100], default=n == chosen))
    return out


def _order_options(table: Table, seat: int, n: int | None, chosen: int | None,
                   lang: str = "en") -> list[discord.SelectOption]:
    cards = table.state["players"][seat]["cards"]
    out = []
    for p, perm in enumerate(PERMS):
        order = [cards[i] for i in perm]
        desc = ""
        if n is not None:
            desc = " | ".join(f"{c}:{_short(CARDS[c][b], lang)}" for c, b in zip(order, bits(n), strict=True))
        label = tr(lang, "top → bottom: {order}", order=" · ".join(map(str, order)))
        out.append(discord.SelectOption(label=label, value=str(p), description=desc[:100] or None, default=p == chosen))
    return out


async def _builder_table(interaction: discord.Interaction, gid: int) -> tuple[Any, Table, int]:
    tables = interaction.client.tables
    table = await tables.load(gid)
    seat = tables.player_seat(table, interaction.user.id)
    if table.state["phase"] != "work" or not table.engine.can_act(table.state, seat):
        raise Refusal("This stack is no longer open: the step it was for is over.")
    return tables, table, seat


async def _redraw(interaction: discord.Interaction, gid: int, seq: int, n: Callable[[], int | None],
                  perm: Callable[[], int | None]) -> None:
    """Redraw the stack builder with one more choice made (``n`` and ``perm`` read the choice when called). The
    panel is edited in place where only its owner sees it (a DM, an ephemeral reply); anywhere else it is
    answered anew to the presser alone, so a hand is never drawn into a message others can read."""
    private = interaction.guild_id is None or (interaction.message is not None and interaction.message.flags.ephemeral)
    if private:
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=True, thinking=True)
    lang = await reader_lang(interaction)
    READER.set(lang)
    try:
        _, table, seat = await _builder_table(interaction, gid)
        n, perm = n(), perm()
    except Exception as exc:  # the panel's owner alone hears why
        await interaction.followup.send(player_sentence(exc, lang)[0], ephemeral=True)
        return
    panel = {"content": stack_text(table, seat, n, perm, lang), "view": stack_view(table, seat, seq, n, perm, lang)}
    if private:
        await interaction.edit_original_response(**panel)
    else:
        await interaction.followup.send(ephemeral=True, **panel)


def _opt(x: str, hi: int) -> int | None:
    return None if x == "x" else number(x, hi)


LAST_N, LAST_PERM = 15, len(PERMS) - 1


class StackLocation(TableItem, discord.ui.DynamicItem[discord.ui.Select],
                    template=r"fbl:(?P<gid>\d+):(?P<seq>\d+):(?P<p>\d+|x)"):
    serves = staticmethod("fourbit".__eq__)

    def __init__(self, gid: int, seq: int, perm: int | None, options: list[discord.SelectOption] | None = None,
                 lang: str = "en"):
        super().__init__(discord.ui.Select(custom_id=f"fbl:{gid}:{seq}:{'x' if perm is None else perm}",
                                           placeholder=tr(lang, "1. Location"), options=options or [
                                               discord.SelectOption(label="-", value="0")]))
        self.gid, self.seq, self.perm = gid, seq, perm

    @classmethod
    def read(cls, match: re.Match, item):
        return cls(table_id(match["gid"]), number(match["seq"]), _opt(match["p"], LAST_PERM))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _redraw(interaction, self.gid, self.seq, lambda: choice_number(interaction, LAST_N), lambda: self.perm)


class StackOrder(TableItem, discord.ui.DynamicItem[discord.ui.Select],
                 template=r"fbo:(?P<gid>\d+):(?P<seq>\d+):(?P<n>\d+|x)"):
    serves = staticmethod("fourbit".__eq__)

    def __init__(self, gid: int, seq: int, n: int | None, options: list[discord.SelectOption] | None = None,
                 lang: str = "en"):
        super().__init__(discord.ui.Select(custom_id=f"fbo:{gid}:{seq}:{'x' if n is None else n}",
                                           placeholder=tr(lang, "2. Order of your cards (top first)"),
                                           options=options or [
                                               discord.SelectOption(label="-", value="0")]))
        self.gid, self.seq, self.n = gid, seq, n

    @classmethod
    def read(cls, match: re.Match, item):
        return cls(table_id(match["gid"]), number(match["seq"]), _opt(match["n"], LAST_N))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _redraw(interaction, self.gid, self.seq, lambda: self.n, lambda: choice_number(interaction, LAST_PERM))


class StackConfirm(TableItem, discord.ui.DynamicItem[discord.ui.Button],
                   template=r"fbk:(?P<gid>\d+):(?P<seq>\d+):(?P<n>\d+|x):(?P<p>\d+|x)"):
    serves = staticmethod("fourbit".__eq__)

    def __init__(self, gid: int, seq: int, n: int | None, perm: int | None, lang: str = "en"):
        ready = n is not None and perm is not None
        super().__init__(discord.ui.Button(label=tr(lang, "3. Confirm stack"), style=discord.ButtonStyle.success,
                                           disabled=not ready,
                                           custom_id=f"fbk:{gid}:{seq}:{'x' if n is None else n}:"
                                                     f"{'x' if perm is None else perm}"))
        self.gid, self.seq, self.n, self.perm = gid, seq, n, perm

    @classmethod
    def read(cls, match: re.Match, item):
        return cls(table_id(match["gid"]), number(match["seq"]), _opt(match["n"], LAST_N), _opt(match["p"], LAST_PERM))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work():
            if self.n is None or self.perm is None:
                raise Refusal("Choose a location and an order first.")
            tables, table, seat = await _builder_table(interaction, self.gid)
            if self.seq != table.seq and await tables.unchanged_for(table, seat, self.seq) is None:
                raise Refusal("The game has moved on since this stack was shown; open it again.")
            cards = table.state["players"][seat]["cards"]
            move = {"type": "stack", "n": self.n, "order": [cards[i] for i in PERMS[self.perm]]}
            table = await tables.act(self.gid, interaction.user.id, move, chosen_at=self.seq)
            return confirm_reply(table, seat, move, was_secret=True)

        await answer(interaction, work)


DYNAMIC_ITEMS = (StackLocation, StackOrder, StackConfirm)


async def setup(bot) -> None:
    register("fourbit", FourBitPresenter())
