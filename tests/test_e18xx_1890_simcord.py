"""SimCord: a whole game of 1890 played to its end the way players play it in Discord (issue 18). Each awaited
player opens **My hand & moves** on the table message (or reads the panel the bot answered their last press with)
and presses what it offers: a button, an option of a move menu, or first a kind or a hex menu and then the move in
the panel it answers with. Which move a player wants is the keen player's of the engine-level games
(tests/test_e18xx_1890_full.keen_move), so companies start, track is laid, trains run and are bought and the game
reaches its end; a move the panel does not lead to fails the test. At the end the table message's game-over line
must give the engine's scores for the stored log, no answer may carry an error, and every press must be answered."""
from __future__ import annotations

import asyncio
import random
import re

import pytest

from bot.app import create_bot
from tests import simcord_18xx as simcord
from tests.helpers import open_hand, seat_table, table_message
from tests.test_e18xx_1890_full import keen_move

# hundreds of presses: give the bot time to settle on a busy machine
pytestmark = pytest.mark.simcord(settle_timeout=30)


@pytest.fixture
def simcord_bot(settings):
    return create_bot(settings, sync_on_start=True, rng=random.Random(5))


async def play_to_the_end(env, ch, members, scenario: str, seed: int, most: int, variants: str = ""):
    """1890 (this scenario, these variants) played through the panels by keen players (tests/simcord_18xx)."""
    return await simcord.play_to_the_end(env, ch, members, "1890", f"scenario={scenario} {variants}".strip(), keen_move,
                                         seed, most)


@pytest.mark.parametrize("scenario, players, seed", [
    ("hanshin", 2, 2),
    pytest.param("hanshin", 3, 1, marks=pytest.mark.slow),
    pytest.param("full", 3, 9, marks=pytest.mark.slow)])
async def test_a_whole_game_of_1890_through_the_panels(world, scenario, players, seed):
    env, _, ch, members = world
    table, presses, played = await play_to_the_end(env, ch, members[:players], scenario, seed, 4000)
    assert {"bid", "par", "buy_shares", "lay_tile", "place_token", "run_routes", "dividend", "buy_train",
            "pass"} <= {m["type"] for m in played}, "the panels played every part of a game"
    end = await simcord.check_the_end(env, ch, members, table, presses, "1890")
    # 1890 has no hidden information: no seat knows anything the others do not, so there is nothing to leak
    assert table.engine.privates(end, players) == [{}] * players


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
    r = await simcord.press(table.by_seat[seat], r.response, move, table.engine.legal(s, seat), [])
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
