"""Tokai Baron's presenter without Discord: move labels (arrival first, dead ends warned and last), the table in
words, the panel within Discord's limits, waypoint names, and the narration."""
from __future__ import annotations

import json
import random
import re
from functools import cache
from types import SimpleNamespace

import discord
import pytest

from bot.errors import Refusal
from bot.tables import Change, Table
from cogs.tokai import (
    STALE,
    MoreMoves,
    MoveMenu,
    MoveNow,
    TokaiPresenter,
    event_line,
    move_options,
    move_text,
    parse_via,
    path_text,
    resolve_point,
    step_token,
    turn_fare,
)
from engines.base import CHANCE
from engines.chance import draw
from engines.tokai import network as nw
from engines.tokai.engine import TokaiBaron, point_name

E = TokaiBaron()
P = TokaiPresenter()
NAMES = ("ann", "ben", "cat")


class Game:
    id = 7
    options: dict = {}

    def in_seat_order(self):
        return [SimpleNamespace(name=n) for n in NAMES]


def table(state) -> Table:
    return Table(Game(), E, state, 1)


@cache
def trace(seed: int = 0) -> tuple:
    """Every (state, seat, action) of one seeded three-player game played by auto_action, chance drawn as the
    runtime does; the last entry is the final state with no seat."""
    rng = random.Random(seed)

    def chance(s):
        while (req := E.awaiting(s).chance) is not None:
            s = E.apply(s, CHANCE, draw(req, rng))
        return s

    s, out = chance(E.setup({}, 3)), []
    while E.scores(s) is None:
        seat = min(E.awaiting(s).seats)
        move = E.auto_action(s, seat)
        out.append((s, seat, move))
        s = chance(E.apply(s, seat, move))
    out.append((s, None, None))
    return tuple(out)


def find(pred, seed: int = 0):
    return next((s, seat, a) for s, seat, a in trace(seed) if seat is not None and pred(s, seat))


def moving(s) -> bool:
    return s["phase"] == "play" and s["turn"]["stage"] == "move"


def test_move_labels_put_arrival_first_then_hops_left_then_fare():
    s, seat, _ = find(lambda s, seat: moving(s) and 0 in E.hops_left(s, seat).values()
                      and len(s["turn"]["moves"]) > 5)
    opts = move_options(s, seat)
    assert sorted(o["to"] for o in opts) == sorted(s["turn"]["moves"]), "every ending, once"
    first = opts[0]
    assert first["left"] == 0 and first["to"] == s["players"][seat]["dest"]
    pay = nw.payout_table_lookup(s["players"][seat]["from"], s["players"][seat]["dest"])
    assert first["label"] == f"{point_name(first['to'])} — 0 to go, fare ¥{first['fare']:,} (arrive! collect ¥{pay:,})"
    keys = [(o["left"] is None, o["left"] or 0, o["fare"]) for o in opts]
    assert keys == sorted(keys)
    assert P.move_label(table(s), {"type": "move", "to": first["to"]}) == first["label"]
    middle = next(o for o in opts if o["left"])
    assert f"— {middle['left']} to go, fare ¥{middle['fare']:,}" in middle["label"]


def test_a_dead_end_is_warned_clearly_and_listed_last():
    s, seat, _ = find(lambda s, seat: moving(s) and None in E.hops_left(s, seat).values()
                      and any(v is not None for v in E.hops_left(s, seat).values()))
    opts = move_options(s, seat)
    dead = [o for o in opts if o["left"] is None]
    assert dead and opts[-len(dead):] == dead
    for o in dead:
        assert "dead end: you could never reach your destination from there" in o["label"]
        assert o["label"].startswith("⚠ ")
    assert all("dead end" not in o["label"] for o in opts if o["left"] is not None)
    assert move_text("nagoya", None, 1000).startswith("⚠ Nagoya — dead end")
    assert move_text("nagoya", None, 1000, lang="ja").startswith("⚠ 名古屋 — ")


def test_the_fare_shown_is_what_the_engine_charges():
    def plain_move(s, seat):
        if not moving(s) or s["turn"]["bonus_due"] or s["turn"]["bonus"]:
            return False
        me = s["players"][seat]
        ends = [to for to, left in E.hops_left(s, seat).items() if left]
        return bool(ends) and me["cash"] >= 20_000

    checked = 0
    for s, seat, _ in trace(0):
        if seat is None or not plain_move(s, seat):
            continue
        to = next(to for to, left in E.hops_left(s, seat).items() if left)
        after = E.apply(s, seat, {"type": "move", "to": to})
        paid = next(event_line(e, list(NAMES)) for e in after["events"]
                    if e["no"] > s["event_no"] and "pays fares" in e["text"])
        total = sum(int(n.replace(",", "")) for n in re.findall(r"¥([\d,]+) to ", paid))
        assert turn_fare(s, seat, s["turn"]["moves"][to]) == total
        checked += 1
        if checked == 5:
            break
    assert checked


def test_the_table_lists_every_players_cash_lines_and_places():
    s, seat, _ = find(lambda s, seat: moving(s) and s["event_no"] > 12)
    text = "\n".join(P.public_lines(table(s)))
    for x, p in enumerate(s["players"]):
        assert f"**{NAMES[x]}** · ¥{p['cash']:,}" in text
        for c in p["cards"]:
            assert nw.route_cards()[c]["en"] in text
        if p["pos"]:
            assert str(point_name(p["pos"])) in text
    assert f"**{NAMES[seat]}'s turn** · " in text and f"= {s['turn']['steps']} · " in text
    assert "Lately: " in text and "[0]" not in text


def test_the_final_assets_are_ranked():
    final = trace(0)[-1][0]
    text = "\n".join(P.public_lines(table(final)))
    scores = E.scores(final)
    best = max(range(3), key=lambda x: scores[x])
    assert f"**Final assets:** 1. {NAMES[best]} ¥{scores[best]:,}" in text


def test_private_lines_say_what_to_do_now():
    s, seat, _ = find(lambda s, seat: moving(s))
    mine = "\n".join(P.private_lines(table(s), seat))
    assert f"You: **¥{s['players'][seat]['cash']:,}**" in mine
    assert f"**Your move:** you rolled {s['turn']['steps']}" in mine and "/tokai move" in mine
    other = "\n".join(P.private_lines(table(s), (seat + 1) % 3))
    assert f"Waiting for {NAMES[seat]}: pawn move." in other
    s, seat, _ = find(lambda s, seat: s["phase"] == "prebuy")
    assert "**Your move:** buy from your deal" in "\n".join(P.private_lines(table(s), seat))


def _items(view: discord.ui.View):
    return list(view.children)


def _all_panels():
    for s, seat, _ in trace(0):
        if seat is not None:
            yield s, seat, P.move_view(table(s), seat)


def test_every_panel_fits_discord_and_offers_only_legal_moves():
    for s, seat, view in _all_panels():
        legal = [json.dumps(m, sort_keys=True) for m in E.legal(s, seat)]
        offered = []
        assert len(view.children) <= 25
        for item in _items(view):
            assert len(item.custom_id) <= 100, item.custom_id
            if isinstance(item, MoveNow):
                assert len(item.item.label) <= 80
                offered.append(json.loads(item.code))
            elif isinstance(item, MoveMenu):
                assert 1 <= len(item.item.options) <= 25
                for o in item.item.options:
                    assert len(o.label) <= 100 and len(o.value) <= 100 and len(o.description or "") <= 100
                    offered.append(json.loads(o.value))
        for m in offered:
            assert json.dumps(m, sort_keys=True) in legal, m
        if len(legal) <= 100:
            assert len(offered) == len(legal), (s["phase"], s["turn"] and s["turn"]["stage"])


def test_a_move_with_very_many_endings_pages_the_rest():
    s, seat, _ = find(lambda s, seat: moving(s) and len(s["turn"]["moves"]) > 125)
    items = _items(P.move_view(table(s), seat))
    menus = [i for i in items if isinstance(i, MoveMenu)]
    [more] = [i for i in items if isinstance(i, MoreMoves)]
    assert len(menus) == 4 and sum(len(m.item.options) for m in menus) == 100
    assert [o.value for o in more.item.options][0] == "100"
    assert menus[0].item.options[0].label == move_options(s, seat)[0]["label"]


def test_custom_ids_fit_for_every_card_and_every_station():
    tok = "99999.5.a1"
    for card in nw.route_cards():
        for kind in ("buy", "sell", "auction"):
            assert len(MoveNow(999999, tok, {"type": kind, "card": card}).custom_id) <= 100
    longest = max(nw.stations(), key=len)
    assert len(json.dumps({"type": "move", "to": longest}, separators=(",", ":"))) <= 100


def test_the_step_token_changes_with_the_step_only():
    steps = [(step_token(s), s["phase"], s["current"], s["turn"] and s["turn"]["stage"]) for s, seat, _ in trace(0)
             if seat is not None]
    prebuy = {tok for tok, phase, cur, _ in steps if phase == "prebuy" and cur == steps[0][2]}
    assert len(prebuy) == 1, "buying in the pre-purchase keeps the panel's step"
    moves = [tok for tok, phase, _, stage in steps if stage == "move"]
    assert len(set(moves)) == len(moves), "every move is a step of its own"
    assert STALE.startswith("The game has moved on")


def test_points_are_found_by_name_id_other_name_or_reading():
    assert resolve_point("名古屋") == resolve_point("nagoya") == resolve_point("名鉄名古屋") == "nagoya"
    assert resolve_point("名古屋駅") == resolve_point("なごや") == resolve_point(" NAGOYA ") == "nagoya"
    assert parse_via("栄, 千種 今池、金山") == [nw.station_id(n) for n in ("栄", "千種", "今池", "金山")]
    assert parse_via("") == []
    with pytest.raises(Refusal, match="There is no point called “ほげ” on the map"):
        parse_via("栄, ほげ")


def test_a_long_way_is_shortened_to_fit_a_menu():
    path = [[p, None] for p in list(nw.stations())[:40]]
    text = path_text(path)
    assert len(text) <= 100 and "…" in text
    assert text.startswith(str(point_name(path[0][0]))) and text.endswith(str(point_name(path[-1][0])))
    assert path_text(path[:3]) == " → ".join(str(point_name(p)) for p, _ in path[:3])


def test_announce_narrates_the_prebuy_and_shows_the_map_after_a_move(monkeypatch):
    monkeypatch.setattr("cogs.tokai_map.render", lambda state, names, lang="en": b"png")
    s, seat, move = find(lambda s, seat: s["phase"] == "prebuy")
    after = E.apply(s, seat, move)
    [(text, picture)] = P.announce(Change("action", table(after), entries=[(1, seat, move)], before=s))
    assert text.startswith("Table 7: ") and NAMES[seat] in text and picture is None
    rows = trace(0)
    i = next(i for i, (x, seat, _) in enumerate(rows) if seat is not None and moving(x))
    (s, seat, move), after = rows[i], rows[i + 1][0]
    [(text, picture)] = P.announce(Change("action", table(after), entries=[(1, seat, move)], before=s))
    dest = str(point_name(after["players"][seat]["pos"] or move["to"]))
    assert (f"{NAMES[seat]} moves" in text or f"{NAMES[seat]} arrives at" in text) and dest in text
    assert picture == b"png"
    final = rows[-1][0]
    [(text, picture)] = P.announce(Change("action", table(final), entries=[(1, rows[-2][1], rows[-2][2])],
                                          before=rows[-2][0]))
    assert picture == b"png" and ("The last route card is sold." in text or "Only one player is left." in text)
