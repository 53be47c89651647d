"""SimCord: 1807 played to its end through the Discord panels (issue 17), by tests/simcord_18xx's driver: each
awaited player presses, on **My hand & moves** or the panel the bot answered his last press with, what leads to the
move the steered player of the engine-level selfplay wants (tests/test_e18xx_1807_systems.steered: he forms systems,
buys trains, pays out and buys shares, so public companies live to phase 6 and merger rounds ask other owners'
consent). At the end the table message gives the engine's scores of the stored log, no answer carries an error and
every press is answered. The default run loads the whole game but its last 150 moves as the table's stored log and
plays those through the panels (~40 s of CPU); the whole game through the panels is slow (thousands of presses).
Goods trains and takeovers, which the steered player meets late or never, are played by one keen on them
(keen_on), from a stored log loaded to just before the moment."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from bot.app import create_bot
from cogs.e18xx.words import acting_corp, run_parts
from engines.e18xx.companies import IPO
from engines.e18xx.g1807 import goods, takeover
from engines.e18xx.state import G
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


def keen_on(want):
    """The steered player, but one who plays a move `want(state, move)` picks whenever one is legal."""
    def policy(state: dict, seat: int, rng: random.Random) -> dict:
        legal = ENGINE.legal(state, seat)
        keen = [m for m in legal if want(state, m)]
        return rng.choice(keen) if keen else steered(legal, rng)
    return policy


def is_goods_buy(state: dict, move: dict) -> bool:
    return move["type"] == "buy_train" and "variant" in move


async def test_a_goods_train_bought_and_run_through_the_panels(world):
    """The game loaded to just before a president first may buy a goods train; from there the panels play on: the
    goods side bought from the buy-train panel, and its corporation's next run earning with it."""
    env, _, ch, members = world
    policy, seen = keen_on(is_goods_buy), {}

    def goods_run(s: dict, seat: int, m: dict) -> bool:
        if is_goods_buy(s, m):
            seen.setdefault("corp", acting_corp(G(s), seat, m))
        if m["type"] == "run_routes" and acting_corp(G(s), seat, m) == seen.get("corp"):
            seen["before"] = s
            return True
        return False

    table, presses, played = await simcord.play_to_the_end(
        env, ch, members, "1807", "", policy, 2, 200, last=1, until=lambda m: is_goods_buy({}, m), stop=goods_run)
    corp, before = seen["corp"], seen["before"]
    said = [r.response.content for r in presses]
    assert any(t.startswith("You played **Buy a 3G goods train") and t.split("\n")[0].endswith(
        f"as president of {corp}.") for t in said), said
    g = G(before)
    carried = [t for t in g.corp(corp)["trains"] if goods.is_goods(g, t)]
    earned = sum(goods.revenue(g, corp, t) for t in carried)
    assert carried and earned > 0, "the goods train is still the corporation's and earns from its cities"
    routes = run_parts(g, played[-1])[0]
    assert any(f"{corp}'s trains earn £{routes + earned:,}." in m.content for m in ch.history()), \
        "the run's narration counts the goods train's cities"
    assert all(r.ephemeral and r.response.content for r in presses)
    assert not [t for t in said if "something went wrong" in t]


MINORS = {c.id for c in G(ENGINE.setup({}, 3)).title.corporations if c.kind == "minor"}


def is_takeover(state: dict, move: dict) -> bool:
    """The owner of a minor, at its turn of a merger round, has a public company take it over (takeover.py)."""
    return state["round"]["kind"] == "merger" and move["type"] == "buy_shares" and move.get("entity") in MINORS


async def test_a_takeover_through_the_panels(world):
    """The game loaded to a few moves before a minor's owner, having had a public company take it over, first
    removes one of its tokens; from there the panels play on: the takeover chosen in the owner's panel, then the
    token removed in it, and the rest of the minor's tokens kept as the public company's."""
    env, _, ch, members = world
    policy, seen = keen_on(is_takeover), {}

    def done(s: dict, seat: int, m: dict) -> bool:
        if is_takeover(s, m):
            seen.update(minor=m["entity"], seat=seat, before=s, move=m)
            return False
        if m["type"] == "remove_token" and m["entity"] == seen.get("minor"):
            seen.setdefault("removed", (seat, m))
        return "minor" in seen and not s["round"].get("takeover")  # the move after the minor's tokens are done

    table, presses, played = await simcord.play_to_the_end(
        env, ch, members, "1807", "", policy, 3, 30, last=3, stop=done, until=lambda m: m["type"] == "remove_token")
    minor, seat, before, move = seen["minor"], seen["seat"], seen["before"], seen["move"]
    major = next(c for c in takeover.takers(G(before), minor) if move["shares"][0] in G(before).corp(c)["shares"][IPO])
    assert G(before).president(minor) == seat, "the minor's owner chose it in his own panel"
    said = [r.response.content for r in presses]
    assert f"You played **{major} takes over {minor}: a 10% share of {major} for it**." in "\n".join(said), said
    assert seen["removed"][0] == seat, "the owner removes the minor's tokens"
    removed = seen["removed"][1]
    g = G(await table.state())
    assert g.corp(minor).get("closed") and move["shares"][0] in g.corp(major)["shares"][g.key(seat)]
    where = (removed["hex"], removed["city"])
    assert minor not in g.board.slots(*where) and g.board.slots(*where).count(major) == G(before).board.slots(
        *where).count(major), "the token removed left the board, not turned into the public company's"
    assert not g.board.token_nodes(minor), "the minor's other tokens became the public company's"
    assert any(f"{major} takes over {minor}; {table.names[seat]} takes a 10% share of {major} for it." in m.content
               for m in ch.history())
    assert all(r.ephemeral and r.response.content for r in presses)
    assert not [t for t in said if "something went wrong" in t]
