"""Crafted component ids, for every button and menu the bot registers, through the real bot in SimCord.

A client can send any custom id and any menu value. For each DynamicItem class, hypothesis writes ids that
match its template (any digits, huge numbers, unicode digits, junk JSON, moves with extra fields such as
``"trusted": true``) aimed at real tables of every game and at tables that do not exist; the bot posts them and
a seated player (or a stranger) presses them. Every press is answered, to the presser alone, with a sentence:
never silence, never "something went wrong", never a logged error; and a move it plays is exactly one of that
player's legal moves."""
from __future__ import annotations

import importlib
import json
import logging
import random
import re

import discord
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.app import COGS, create_bot
from bot.table_ui import DYNAMIC_ITEMS
from engines.base import CHANCE

COG_ITEMS = [i for name in COGS for i in getattr(importlib.import_module(name), "DYNAMIC_ITEMS", ())]
ITEMS = sorted({*DYNAMIC_ITEMS, *COG_ITEMS}, key=lambda c: c.__discord_ui_compiled_template__.pattern)
GAMES = ("dicehand", "boss", "fourbit", "tokai", "1889")
HUGE = ["0", "9" * 19, "9" * 30, "18446744073709551616", "٣", "00"]


@pytest.fixture
def simcord_bot(settings):
    return create_bot(settings, sync_on_start=True, rng=random.Random(21))


@pytest.fixture
async def tables(simcord_env):
    env = simcord_env
    g = env.create_guild("Home")
    ch = g.create_text_channel("table")
    ann, ben = (g.add_member(env.create_user(n)) for n in ("ann", "ben"))
    stranger = g.add_member(env.create_user("zed"))
    svc = env.bot.tables
    ids = {}
    for engine in GAMES:
        t = await svc.create(guild_id=g.id, channel_id=ch.id, engine_name=engine, user_id=ann.id, name="ann",
                             options={}, random_seats=False)
        await svc.join(t.game.id, ben.id, "ben")
        await svc.start(t.game.id, ann.id)
        ids[engine] = t.game.id
    await env.settle()
    return env, ch, ann, ben, stranger, ids


def _key(move) -> str:
    return json.dumps(move, sort_keys=True, separators=(",", ":"))


@st.composite
def crafted(draw, item, gids: list[int]) -> str:
    """An id matching the item's template, its table id replaced (usually) by a real table's or a wild number."""
    pattern = item.__discord_ui_compiled_template__
    text = draw(st.from_regex(pattern, fullmatch=True).filter(lambda s: len(s) <= 100))
    m = pattern.fullmatch(text)
    out = text
    if m and "gid" in m.groupdict():
        gid = draw(st.one_of(st.sampled_from([str(g) for g in gids]), st.sampled_from(HUGE)))
        out = text[:m.start("gid")] + gid + text[m.end("gid"):]
    if m and "code" in m.groupdict() and draw(st.booleans()):
        code = _key(draw(MOVES))
        out = out[:out.rindex(m["code"])] + code if out.endswith(m["code"]) else out
    return out[:100]


MOVES = st.one_of(
    st.sampled_from([{"type": "pass", "trusted": True}, {"type": "pass"}, {"type": "bid", "company": "TR", "price": 20},
                     {"type": "stack", "n": True, "order": [1, 2, 3, 4]}, {"type": "move", "to": ["nagoya"]},
                     {"type": "declare"}, {"type": "stop"}, {"type": "nothing"}, {}]),
    st.dictionaries(st.text(max_size=5), st.one_of(st.integers(), st.booleans(), st.text(max_size=5)), max_size=3),
)
VALUES = st.one_of(st.sampled_from(["0", "1", "24", "99999999999999999999", "-1", "x", "٣", "#0", "#99", "E5", "lay"]),
                   MOVES.map(_key).filter(lambda v: len(v) <= 100), st.text(min_size=1, max_size=40))


def is_menu(item) -> bool:
    return any(getattr(b, "__args__", (None,))[0] is discord.ui.Select for b in getattr(item, "__orig_bases__", ()))


@pytest.mark.parametrize("item", ITEMS, ids=lambda c: c.__discord_ui_compiled_template__.pattern.split(":")[0])
@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), value=VALUES, who=st.sampled_from(["ann", "ben", "zed"]))
async def test_every_crafted_id_is_answered_with_a_sentence_and_plays_only_legal_moves(tables, item, caplog, data,
                                                                                       value, who):
    env, ch, ann, ben, stranger, ids = tables
    svc = env.bot.tables
    gids = list(ids.values())
    custom_id = data.draw(crafted(item, gids))
    if not item.__discord_ui_compiled_template__.fullmatch(custom_id):
        return  # cut at 100 characters past its template: discord.py would not route it to this item
    menu = any(is_menu(b) for b in item.__mro__)
    member = {"ann": ann, "ben": ben, "zed": stranger}[who]
    before = {gid: ((t := await svc.load(gid)).seq, t.state) for gid in gids}
    view = discord.ui.View(timeout=None)
    if menu:
        view.add_item(discord.ui.Select(custom_id=custom_id, options=[discord.SelectOption(label="x", value=value)]))
    else:
        view.add_item(discord.ui.Button(label="x", custom_id=custom_id))
    caplog.clear()
    await env.bot.get_channel(ch.id).send("crafted", view=view)
    await env.settle()
    msg = ch.history()[-1]
    r = await (member.select(msg, [value], custom_id=custom_id) if menu else member.click(msg, custom_id=custom_id))
    said = r.followups[-1] if r.followups else r.response  # a deferred panel redraw answers in a followup
    text = said.content if said is not None and said.id != msg.id else None
    assert text and said.ephemeral, f"{custom_id!r} {value!r}: no answer to the presser alone"
    assert "something went wrong" not in text, f"{custom_id!r} {value!r}: {text}"
    assert not re.search(r"Traceback|Error\b|Exception", text), text
    for gid in gids:  # what a press played is one of that player's legal moves, exactly
        seq, state = before[gid]
        t = await svc.load(gid)
        for row in await svc.store.actions(gid, after_seq=seq):
            if row.seat != CHANCE:
                assert _key(row.action) in {_key(m) for m in t.engine.legal(state, row.seat)}, row.action
            state = t.engine.apply(state, row.seat, row.action)
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [e.getMessage() for e in errors]
