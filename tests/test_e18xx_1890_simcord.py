"""SimCord: a whole game of 1890 played to its end the way players play it in Discord (issue 18). Each awaited
player opens **My hand & moves** on the table message (or reads the panel the bot answered their last press with)
and presses what it offers: a button, an option of a move menu, or first a kind or a hex menu and then the move in
the panel it answers with. Which move a player wants is the keen player's of the engine-level games
(tests/test_e18xx_1890_full.keen_move), so companies start, track is laid, trains run and are bought and the game
reaches its end; a move the panel does not lead to fails the test. At the end the table message's game-over line
must give the engine's scores for the stored log, no answer may carry an error, and every press must be answered."""
from __future__ import annotations

import asyncio
import json
import random
import re

import pytest

from bot.app import create_bot
from tests.helpers import component_field, components, open_hand, option_values, public_texts, seat_table, table_message
from tests.test_e18xx_1890_full import keen_move

# hundreds of presses: give the bot time to settle on a busy machine
pytestmark = pytest.mark.simcord(settle_timeout=30)


@pytest.fixture
def simcord_bot(settings):
    return create_bot(settings, sync_on_start=True, rng=random.Random(5))


ITEM = re.compile(r"^(ex|exs|exh|exk):(\d+):([0-9a-f]{10})(?::(.*))?$")


def _key(move: dict) -> str:
    return json.dumps(move, sort_keys=True, separators=(",", ":"))


def offers(panel, legal: list[dict]) -> list[tuple[str, object, str, dict | str]]:
    """What a panel offers: (kind, component, value, move or what a menu asks), kind being 'button', 'move' (an
    option of a move menu), 'hex' or 'kind'. A code is a move as JSON or '#<index>' into the seat's legal moves."""
    out = []

    def move_of(code: str) -> dict:
        return legal[int(code[1:])] if code.startswith("#") else json.loads(code)

    for c in components(panel):
        cid = component_field(c, "custom_id") or ""
        m = ITEM.match(cid)
        if not m:
            continue
        prefix = m[1]
        if prefix == "ex":
            out.append(("button", c, m[4], move_of(m[4])))
        else:
            for value in option_values(c):
                out.append(({"exs": "move", "exh": "hex", "exk": "kind"}[prefix], c, value,
                            move_of(value) if prefix == "exs" else value))
    return out


async def press(member, panel, move: dict, legal: list[dict], presses: list):
    """Press what leads to `move` on this panel: its button or menu option, else the hex or kind menu that answers
    with a panel holding it. Every answer is kept in `presses`."""
    from cogs.e18xx.panel import group_of

    offered = offers(panel, legal)
    want = _key(move)
    for kind, c, value, what in offered:
        if kind in ("button", "move") and _key(what) == want:
            cid = component_field(c, "custom_id")
            r = await (member.click(panel, custom_id=cid) if kind == "button" else
                       member.select(panel, [value], custom_id=cid))
            presses.append(r)
            return r
    for kind, c, value, _ in offered:
        if (kind == "hex" and move.get("type") == "lay_tile" and value == move["hex"]) or (
                kind == "kind" and value == group_of(move)):
            r = await member.select(panel, [value], custom_id=component_field(c, "custom_id"))
            presses.append(r)
            return await press(member, r.response, move, legal, presses)
    raise AssertionError(f"the panel does not lead to {move}: it offers {[(k, v) for k, _, v, _ in offered]}")


def game_over_scores(text: str) -> dict[str, int]:
    """The table message's '**Game over.** 1. ann 120 · 2. ben 90, cat 90 (tied)' as {name: score}."""
    line = next(x for x in text.splitlines() if x.startswith("**Game over.**"))
    out = {}
    for place in line.removeprefix("**Game over.**").split(" · "):
        for who in place.split(". ", 1)[1].removesuffix(" (tied)").split(", "):
            name, score = who.rsplit(" ", 1)
            out[name] = int(score)
    return out


def final_scores(text: str) -> dict[str, int]:
    """The 18xx table's '**Final scores:** 1. ann ¥1,230 (cash ¥…, shares ¥…, privates ¥…) · …' as {name: score}."""
    line = next(x for x in text.splitlines() if x.startswith("**Final scores:**"))
    found = re.findall(r"\d+\. (\S+) ¥([\d,]+) \(cash ", line)
    return {name: int(score.replace(",", "")) for name, score in found}


async def play_to_the_end(env, ch, members, scenario: str, seed: int, most: int, variants: str = ""):
    """Seat the members at 1890 (this scenario, these variants) and play it through the panels to its end (or `most`
    moves); returns the table and every answer the bot gave a press, and the types of the moves played."""
    table = await seat_table(env, ch, members, game="1890", options=f"scenario={scenario} {variants}".strip())
    engine, state, gid = table.engine, table.state, table.gid
    rng = random.Random(seed)
    presses, played = [], []
    panel, last = None, None  # the panel the bot answered the last move with, and whose it is
    for _ in range(most):
        s = await state()
        if s["over"]:
            break
        seat = min(engine.awaiting(s).seats)
        member = table.by_seat[seat]
        if seat != last:  # someone else moved since: open the table's panel afresh
            r = await open_hand(member, ch, gid)
            assert r.response.content.startswith(f"**Table {gid} · 1890"), r.response.content
            presses.append(r)
            panel = r.response
        move = keen_move(s, seat, rng)
        done = len(presses)
        r = await press(member, panel, move, engine.legal(s, seat), presses)
        for step in presses[done:-1]:  # a kind or hex menu answers with the moves of that kind or on that hex
            assert step.response.content.startswith(f"Table {gid}: "), step.response.content
        assert r.response.content.startswith("You played **"), r.response.content
        panel, last = r.response, seat
        played.append(move["type"])
    return table, presses, played


@pytest.mark.parametrize("scenario, players, seed", [
    ("hanshin", 2, 2),
    pytest.param("hanshin", 3, 1, marks=pytest.mark.slow),
    pytest.param("full", 3, 9, marks=pytest.mark.slow)])
async def test_a_whole_game_of_1890_through_the_panels(world, scenario, players, seed):
    env, _, ch, members = world
    table, presses, played = await play_to_the_end(env, ch, members[:players], scenario, seed, 4000)
    gid, engine = table.gid, table.engine
    assert (await table.state())["over"], "the game reached its end"
    assert {"bid", "par", "buy_shares", "lay_tile", "place_token", "run_routes", "dividend", "buy_train",
            "pass"} <= set(played), "the panels played every part of a game"
    await env.settle()

    # the scores shown are the engine's for the stored log, replayed from the start
    end = await env.bot.tables.full_replay(gid)
    scores = {table.names[seat]: score for seat, score in enumerate(engine.scores(end))}
    text = table_message(ch, gid).embeds[0].description
    assert game_over_scores(text) == scores and final_scores(text) == scores, text
    assert any(m.content.startswith(f"Table {gid} · 1890") and "is over. Final scores are on the table message."
               in m.content for m in ch.history()), "the end is said in the channel"

    # every press was answered, to its presser alone, and no answer, post or DM carries an error
    assert all(r.ephemeral and r.response.content for r in presses)
    dms = [m.content or "" for member in members if member.user.dm_channel
           for m in member.user.dm_channel.history()]
    said = [r.response.content for r in presses] + public_texts([ch]) + dms
    assert not [t for t in said if "something went wrong" in t or "Traceback" in t]
    # 1890 has no hidden information: no seat knows anything the others do not, so there is nothing to leak
    assert engine.privates(end, players) == [{}] * players


async def test_an_answered_panel_leaves_no_view_behind(world):
    """A panel's items are the bot's dynamic items, found by their custom ids: discord.py keeps no view, nor its
    15-minute timer, for an ephemeral answer (bot.interact.unkept), and the panel still plays."""
    env, _, ch, members = world
    table = await seat_table(env, ch, members[:2], game="1890", options="scenario=hanshin")
    s = await table.state()
    seat = min(table.engine.awaiting(s).seats)
    r = await open_hand(table.by_seat[seat], ch, table.gid)
    assert not [t for t in asyncio.all_tasks() if "timeout_task" in t.get_coro().__qualname__]
    move = table.engine.legal(s, seat)[0]
    r = await press(table.by_seat[seat], r.response, move, table.engine.legal(s, seat), [])
    assert r.response.content.startswith("You played **"), r.response.content


async def test_the_variants_are_chosen_as_the_options_autocomplete_writes_them(world):
    """`/game create 1890 options:` offers each variant as name=default (a boolean's default reads False); that text
    as offered, or with True written over it, makes the table (and the variant is on in its game)."""
    env, _, ch, members = world
    ann = members[0]
    offered = {c["value"].split("=")[0]: c["value"] for c in
               await ann.autocomplete(ch, "game create", "options", "", game="1890")}
    assert offered["end_at_400"] == "end_at_400=False" and "kobe_rapid_control" in offered
    typed = " ".join(["scenario=full", offered["kobe_rapid_control"], offered["end_at_400"].replace("False", "True"),
                      "tile_78_restriction=true"])
    table = await seat_table(env, ch, members, game="1890", options=typed)
    opts = (await table.state())["opts"]
    assert opts.get("end_at_400") is True and opts.get("tile_78_restriction") is True
    assert not opts.get("kobe_rapid_control")


async def test_hidden_cash_is_in_each_players_panel_and_not_on_the_table(world):
    """The variant "Hidden personal cash" (docs/rules/1890.md ruling 40) in Discord: after some moves played
    through the panels, the table message shows no player's cash beside his name (nor his worth or the bank's cash)
    and each player's "My hand & moves" shows him his own."""
    env, _, ch, members = world
    table, _, _ = await play_to_the_end(env, ch, members[:2], "hanshin", 3, 60, "hidden_cash=true")
    s = await table.state()
    assert s["opts"].get("hidden_cash") is True and not s["over"]
    text = table_message(ch, table.gid).embeds[0].description
    for seat, name in table.names.items():
        line = next(x for x in text.splitlines() if f"**{name}**" in x)
        assert "¥" not in line and "worth" not in line, line
        hand = (await open_hand(table.by_seat[seat], ch, table.gid)).response.content
        assert f"You: **¥{s['cash'][seat]:,}**" in hand, hand
    assert not re.search(r"Bank ¥", text)
