"""SimCord: 1807 played to its end through the Discord panels (issue 17), by tests/simcord_18xx's driver: each
awaited player presses, on **My hand & moves** or the panel the bot answered his last press with, what leads to the
move the steered player of the engine-level selfplay wants (tests/test_e18xx_1807_systems.steered: he forms systems,
buys trains, pays out and buys shares, so public companies live to phase 6 and merger rounds ask other owners'
consent). At the end the table message gives the engine's scores of the stored log, no answer carries an error and
every press is answered. The default run loads the whole game but its last 150 moves as the table's stored log and
plays those through the panels (~55 s); the whole game through the panels is slow (thousands of presses)."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from bot.app import create_bot
from tests import simcord_18xx as simcord
from tests.test_e18xx_1807_systems import ENGINE, steered

# thousands of presses: give the bot time to settle on a busy machine
pytestmark = pytest.mark.simcord(settle_timeout=30)


@pytest.fixture
def simcord_bot(settings):
    return create_bot(settings, sync_on_start=True, rng=random.Random(5))


def steered_move(state: dict, seat: int, rng: random.Random) -> dict:
    return steered(ENGINE.legal(state, seat), rng)


@pytest.mark.parametrize("seed, last", [
    (1, 150),
    pytest.param(1, None, marks=[pytest.mark.slow, pytest.mark.timeout(3600)])])
async def test_1807_through_the_panels_to_its_end(world, seed, last):
    env, _, ch, members = world
    table, presses, played = await simcord.play_to_the_end(env, ch, members, "1807", "", steered_move, seed,
                                                           20_000, last=last)
    kinds = Counter(m["type"] for m in played)
    print(len(played), dict(kinds))
    assert {"lay_tile", "run_routes", "dividend", "buy_train"} <= set(kinds), "the panels played operating rounds"
    if last is None:  # the whole game: its merger rounds too, another owner's consent asked and given in his panel
        assert {"bid", "par", "merge_system", "accept_offer", "form_system"} <= set(kinds), kinds
    await simcord.check_the_end(env, ch, members, table, presses, "1807")


async def test_a_merger_round_through_the_panels(world):
    """The game loaded to a few moves before a president first asks another owner to merge into his system; from
    there the panels play on: the asking, the other owner's answer in his own panel, and the system formed."""
    env, _, ch, members = world
    table, presses, played = await simcord.play_to_the_end(
        env, ch, members, "1807", "", steered_move, 1, 40, last=3, until=lambda m: m["type"] == "merge_system")
    kinds = Counter(m["type"] for m in played)
    assert kinds["merge_system"] and kinds["accept_offer"] + kinds["decline_offer"] and kinds["form_system"], kinds
    assert all(r.ephemeral and r.response.content for r in presses)
    assert not [r for r in presses if "something went wrong" in r.response.content]
