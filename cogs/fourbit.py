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
from bot.interact import answer
from bot.items import TableItem, choice_number, number, table_id
from bot.present import Presenter, register
from bot.table_ui import MoveButton, MoveSelect, confirm_reply
from bot.tables import Table
from engines.fourbit import FLAG_PLACES, PERMS, bits, building_name, effect_text, location_label, location_name
from engines.fourbit.data import BUILDINGS, CARDS, CITY_HALL, LOCATIONS
from engines.words import plural

RES = {"wood": "🪵", "stone": "🪨", "coins": "🪙"}


def _short(e: dict[str, Any]) -> str:
    return effect_text(e).replace("wood", "W").replace("stone", "S").replace("coins", "C")


def _names(table: Table) -> list[str]:
    return [s.name for s in table.game.in_seat_order()]


def _card(card: int, side: int) -> str:
    return f"card {card} ({side}-side: {effect_text(CARDS[card][side])})"


def _gave(d: dict[str, int]) -> str:
    """What a step changed for its player: '+2 wood, -4 coins, 1 space up the track'."""
    parts = [f"{d[k]:+d} {'VP' if k == 'vp' else k}" for k in ("wood", "stone", "coins", "vp") if d.get(k)]
    if d.get("level"):
        parts.append(f"company level {d['level']:+d}")
    if d.get("hired"):
        parts.append(f"{d['hired']:+d} hired {'worker' if abs(d['hired']) == 1 else 'workers'}")
    if d.get("space"):
        parts.append(f"{plural(d['space'], 'space')} up the track")
    return ", ".join(parts) or "nothing"


def _resolution_line(ev: dict[str, Any], who: str) -> str | None:
    """One step of a worker's resolution in words; cards passed over by themselves are not told."""
    t, where = ev["type"], location_name(ev["loc"])
    head = f"{who} at {where}:"
    if t == "use" and ev.get("held"):
        cost = CARDS[ev["card"]][ev["side"]]["kind"] in ("build_discount", "hire_discount")
        wait = "it lowers the cost of the action to come" if cost else \
            "it is checked once the location's effect is done"
        return f"{head} uses {_card(ev['card'], ev['side'])}; {wait}."
    if t == "use":
        return f"{head} uses {_card(ev['card'], ev['side'])} → {_gave(ev['gave'])}."
    if t == "waited" and not ev["taken"]:
        return f"{head} {_card(ev['card'], ev['side'])} gives nothing: the location's effect was skipped."
    if t == "waited":
        return f"{head} {_card(ev['card'], ev['side'])}, after the location's effect → {_gave(ev['gave'])}."
    if t == "skip":
        return None if ev["auto"] else f"{head} skips {_card(ev['card'], ev['side'])}."
    if t == "location":
        return f"{head} {location_label({'at': ev['loc'], **ev['move']})} → {_gave(ev['gave'])}."
    if t == "decline":
        return f"{head} the location's effect could not be taken." if ev["auto"] else \
            f"{head} skips the location's effect."
    if t == "city_hall":
        return f"{head} City Hall's gain → {_gave(ev['gave'])}."
    return None


def _no_workers(who: str) -> str:
    return f"{who} has no hired worker left, so {who} passes every step from now on (only a worker can hire)."


def _round_end_line(ev: dict[str, Any], names: list[str]) -> str | None:
    t = ev["type"]
    if t == "row":
        added = ", ".join(BUILDINGS[b][1] for b in ev["added"])
        return f"Build row: {added} added from the deck." if added else "Build row: the deck is empty, nothing added."
    who = names[ev["seat"]]
    if t == "income":
        return f"Round end: {who}'s buildings give {_gave(ev['gave'])}."
    if t != "upkeep":
        return None
    keep, hired, paid = ev["keep"], ev["hired"], ev["paid"]
    if ev["auto"] and keep == 0:
        line = (f"Upkeep: {who} cannot pay {ev['each']} coins for even one worker (has {ev['coins']}), "
                f"so all {hired} are fired.")
    elif keep == hired:
        line = f"Upkeep: {who} keeps every worker ({hired}) and pays {paid} coins."
    else:
        line = f"Upkeep: {who} keeps {keep} of {hired} workers and pays {paid} coins; {hired - keep} fired."
    return f"{line} {_no_workers(who)}" if keep == 0 and hired else line


def event_lines(events: list[dict[str, Any]], names: list[str]) -> list[str]:
    """The public story of resolution steps and round-end effects, as the engine recorded them."""
    lines = []
    for ev in events:
        line = _resolution_line(ev, names[ev["seat"]]) if "loc" in ev else _round_end_line(ev, names)
        if line:
            lines.append(line)
    return lines


def _new_events(before: dict[str, Any], after: dict[str, Any]) -> list[dict[str, Any]]:
    fresh = after["told"] - before["told"]
    return after["log"][-fresh:] if fresh > 0 else []


def _my_worker_lines(s: dict[str, Any], seat: int) -> list[str]:
    """While this seat's worker resolves: what is left of its stack, and whether the location is done."""
    r = s["res"]
    if s["phase"] != "resolve" or s["queue"][r["i"]]["seat"] != seat:
        return []
    w = s["queue"][r["i"]]
    left = [_card(c, b) + ("" if _can_work(CARDS[c][b], w["loc"]) else ", nothing here")
            for c, b in list(zip(w["order"], w["bits"], strict=True))[r["card"]:]]
    lines = [f"Your worker at {location_name(w['loc'])}. Cards left, top first: {'; '.join(left) or 'none'}."]
    if r["stage"] == "city_hall":
        lines.append("Now City Hall's gain: 2 wood or 2 coins, then you may pay 4 coins to move up the track.")
    elif not r["loc_done"]:
        lines.append("Take the location's effect whenever you like: before the next card, between two, or after "
                     "the last." + "".join(_timing_notes(w, r["card"])))
    return lines


def _can_work(e: dict[str, Any], loc: int) -> bool:
    """Whether a card face can do anything at this location at all."""
    if e["kind"] in ("gain", "convert"):
        return True
    if e["kind"] in ("build_discount", "hire_discount"):
        return loc == (8 if e["kind"] == "build_discount" else 7)
    flag = "hire" if e["kind"] == "extra_hire" else e["flag"]
    return loc == CITY_HALL if flag == "city_hall" else loc in FLAG_PLACES[flag]


def _timing_notes(w: dict[str, Any], start: int) -> list[str]:
    """What the remaining cards need from the location's timing."""
    notes = []
    for c, b in list(zip(w["order"], w["bits"], strict=True))[start:]:
        e = CARDS[c][b]
        if not _can_work(e, w["loc"]):
            continue
        if e["kind"] in ("build_discount", "hire_discount"):
            notes.append(f" Use card {c} before it: it lowers that cost.")
        elif e.get("flag") in ("loc_wood", "loc_stone"):
            notes.append(f" Card {c} waits for it.")
        elif e["kind"] == "extra_hire" or e.get("flag") in ("plan", "sell", "build", "track"):
            notes.append(f" Card {c} needs it done first.")
    return notes


def _why_no_workers(s: dict[str, Any], seat: int) -> list[str]:
    p = s["players"][seat]
    if s["phase"] in ("setup", "draft", "over") or p["hired"]:
        return []
    upkeep = next((ev for ev in reversed(s["log"]) if ev["type"] == "upkeep" and ev["seat"] == seat), None)
    why = ""
    if upkeep and upkeep["auto"]:
        why = (f" At the upkeep you could not pay {upkeep['each']} coins for one worker "
               f"(you had {upkeep['coins']}), so all were fired.")
    elif upkeep:
        why = " You chose to keep none of them at the upkeep."
    return [f"You have no hired workers, so you pass every step.{why} Only a worker sent to 7 Back Workshop "
            "can hire another, so you sit out the rest of the game; your score still counts."]


class FourBitPresenter(Presenter):
    def public_lines(self, table: Table, lang: str = "en") -> list[str]:
        p = table.engine.public(table.state)
        names = _names(table)
        lines = [f"**Round {p['round'] or '—'} of 6** · phase: {p['phase']}"]
        if p["draft_round"]:
            lines.append(f"Draft: pick {p['draft_round']} of 3 (the fourth card is the one left).")
        for i, q in enumerate(p["players"]):
            built = ", ".join(BUILDINGS[b][1] for b in q["built"]) or "no buildings"
            plans = len(q["plans"])
            state = ("no hired workers: passes every step" if not q["hired"] else "passed" if q["passed"]
                     else f"{q['hired'] - q['sent']} of {q['hired']} workers free")
            lines.append(f"**{names[i]}** {RES['wood']}{q['wood']} {RES['stone']}{q['stone']} {RES['coins']}"
                         f"{q['coins']} · VP {q['vp']} · level {q['level']} · {state} · {built}"
                         + (f" · {plans} planned" if plans else ""))
        if p["order"]:
            lines.append("Turn order this round: " + " > ".join(names[s] for s in p["order"]) + " · track: "
                         + ", ".join(f"{names[e['seat']]} (space {e['space']})" for e in p["track"]))
        if p["row"]:
            lines.append("Build row: " + ", ".join(building_name(b) for b in p["row"]) + f" · deck {p['deck_left']}")
        blocked = [str(n) for n, b in enumerate(p["blocked"]) if b]
        if blocked:
            lines.append("Blocked this round: " + ", ".join(blocked))
        if p["reveal"]:
            r = p["reveal"]
            shown = [f"{names[w['seat']]} → {location_name(w['loc'])}"
                     + (f" (made {w['n']}, blocked)" if w["loc"] == CITY_HALL else "")
                     + ("" if w["first"] or w["loc"] == CITY_HALL else " (follower)") for w in r["workers"]]
            shown += [f"{names[s]} passed" for s in r["passes"]]
            lines.append(f"Last reveal (round {r['round']}): " + "; ".join(shown))
        if p["resolving"]:
            w = p["resolving"]
            done = "" if w["loc"] == CITY_HALL else (" · location effect done" if w["loc_done"]
                                                      else " · location effect not taken yet")
            lines.append(f"Resolving: {names[w['seat']]} at {location_name(w['loc'])}{done}.")
        if p["final"]:
            for place, seats in enumerate(p["ranking"], 1):
                for s in seats:
                    f = p["final"][s]
                    lines.append(f"{place}. {names[s]}: {f['total']} VP (VP {f['vp']} + workers {f['workers']} + "
                                 f"track {f['track']} + buildings {f['buildings']}; {f['coins']} coins)")
        return lines

    def private_lines(self, table: Table, seat: int, lang: str = "en") -> list[str]:
        v = table.engine.view(table.state, seat)
        lines = []
        if "draft_hand" in v:
            lines.append("Draft: your hand " + ", ".join(f"card {c}" for c in v["draft_hand"])
                         + (f" · your pick: card {v['draft_pick']}" if v["draft_pick"] else ""))
            for c in v["draft_hand"]:
                lines.append(f"  card {c}: 0-side {_short(CARDS[c][0])} | 1-side {_short(CARDS[c][1])}")
        if v["my_cards"]:
            lines.append("Your cards: " + "; ".join(f"{c} (0: {_short(CARDS[c][0])} | 1: {_short(CARDS[c][1])})"
                                                   for c in v["my_cards"]))
        if v["my_plans"]:
            lines.append("Your plans: " + ", ".join(building_name(b) for b in v["my_plans"]))
        c = v.get("my_choice")
        if c:
            lines.append("Your secret choice this step: " + ("pass" if c["type"] == "pass" else
                         f"{location_name(c['n'])} with stack {'-'.join(map(str, c['order']))}"))
        lines += _my_worker_lines(table.state, seat) + _why_no_workers(table.state, seat)
        return lines or ["Nothing secret yet."]

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
                out.append((f"{names[seat]}'s Market: {engine.label(action)}", None))
            if after["reveal"] is not state["reveal"] and after["reveal"] != state["reveal"]:
                r = after["reveal"]
                lines = [f"**Reveal — round {r['round']}**"]
                for w in r["workers"]:
                    stack = "-".join(map(str, w["order"]))
                    where = location_name(w["loc"])
                    note = " (blocked → City Hall)" if w["loc"] == CITY_HALL else \
                        ("" if w["first"] else " (follower)")
                    lines.append(f"{names[w['seat']]}: stack {stack} = {w['n']:04b} = {w['n']} → {where}{note}")
                lines += [f"{names[s]} passes." for s in r["passes"]]
                out.append(("\n".join(lines), None))
                picture = True
            told = event_lines(_new_events(state, after), names)
            if told:
                out.append(("\n".join(told)[:2000], None))
            if state["round"] >= 1 and (after["round"] != state["round"] or after["phase"] == "over"):
                out.append((f"**Round {state['round']} is over.**", None))
                picture = True
            state = after
        if picture and out:
            from cogs.fourbit_board import render

            text, _ = out[-1]
            out[-1] = (text, render(engine.public(table.state), names))
        return out

    def move_view(self, table: Table, seat: int, lang: str = "en"):
        s = table.state
        if s["phase"] == "work" and table.engine.can_act(s, seat):
            return stack_view(table, seat, table.seq, None, None)
        if s["phase"] == "draft":  # the draft pick from a menu showing both sides of each card
            view = discord.ui.View(timeout=None)
            moves = table.engine.legal(s, seat)
            view.add_item(MoveSelect(table.game.id, table.seq, 0, [
                (i, f"Card {m['card']} · 0: {_short(CARDS[m['card']][0])} | 1: {_short(CARDS[m['card']][1])}"[:100])
                for i, m in enumerate(moves)]))
            return view
        return None


# --- the stack builder ------------------------------------------------------------------------
def stack_text(table: Table, seat: int, n: int | None, perm: int | None) -> str:
    cards = table.state["players"][seat]["cards"]
    lines = [f"**Table {table.game.id} · 4bit Town** — round {table.state['round']}: choose in secret."]
    if n is None:
        lines.append("1. Choose a location. 2. Choose the order of your cards. 3. Confirm (or Pass).")
    else:
        where = location_name(n)
        blocked = table.state["blocked"][n]
        lines.append(f"Location **{n:04b} = {n}**: {where} — {LOCATIONS[n][2]}"
                     + (" · **blocked this round: the worker would go to City Hall**" if blocked else ""))
        if perm is not None:
            order = [cards[i] for i in PERMS[perm]]
            for pos, (c, b) in enumerate(zip(order, bits(n), strict=True)):
                lines.append(f"{'top' if pos == 0 else 'bottom' if pos == 3 else f'#{pos + 1}'}: card {c}, "
                             f"{b}-side → {effect_text(CARDS[c][b])}")
    return "\n".join(lines)[:2000]


def stack_view(table: Table, seat: int, seq: int, n: int | None, perm: int | None) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    gid = table.game.id
    view.add_item(StackLocation(gid, seq, perm, _location_options(table, n)))
    view.add_item(StackOrder(gid, seq, n, _order_options(table, seat, n, perm)))
    view.add_item(StackConfirm(gid, seq, n, perm))
    view.add_item(MoveButton(gid, seq, 0, "Pass"))  # legal()[0] is the pass
    return view


def _location_options(table: Table, chosen: int | None) -> list[discord.SelectOption]:
    out = []
    for n in range(16):
        blocked = " · blocked: City Hall" if table.state["blocked"][n] else ""
        out.append(discord.SelectOption(label=f"{n:04b} = {n} · {LOCATIONS[n][1]}"[:100], value=str(n),
                                        description=f"{LOCATIONS[n][2]}{blocked}"[:100], default=n == chosen))
    return out


def _order_options(table: Table, seat: int, n: int | None, chosen: int | None) -> list[discord.SelectOption]:
    cards = table.state["players"][seat]["cards"]
    out = []
    for p, perm in enumerate(PERMS):
        order = [cards[i] for i in perm]
        desc = ""
        if n is not None:
            desc = " | ".join(f"{c}:{_short(CARDS[c][b])}" for c, b in zip(order, bits(n), strict=True))
        out.append(discord.SelectOption(label=f"top → bottom: {' · '.join(map(str, order))}", value=str(p),
                                        description=desc[:100] or None, default=p == chosen))
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
    try:
        _, table, seat = await _builder_table(interaction, gid)
        n, perm = n(), perm()
    except Exception as exc:  # the panel's owner alone hears why
        await interaction.followup.send(player_sentence(exc)[0], ephemeral=True)
        return
    panel = {"content": stack_text(table, seat, n, perm), "view": stack_view(table, seat, seq, n, perm)}
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

    def __init__(self, gid: int, seq: int, perm: int | None, options: list[discord.SelectOption] | None = None):
        super().__init__(discord.ui.Select(custom_id=f"fbl:{gid}:{seq}:{'x' if perm is None else perm}",
                                           placeholder="1. Location", options=options or [
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

    def __init__(self, gid: int, seq: int, n: int | None, options: list[discord.SelectOption] | None = None):
        super().__init__(discord.ui.Select(custom_id=f"fbo:{gid}:{seq}:{'x' if n is None else n}",
                                           placeholder="2. Order of your cards (top first)", options=options or [
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

    def __init__(self, gid: int, seq: int, n: int | None, perm: int | None):
        ready = n is not None and perm is not None
        super().__init__(discord.ui.Button(label="3. Confirm stack", style=discord.ButtonStyle.success,
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
