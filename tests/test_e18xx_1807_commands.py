"""1807's system moves by `/18xx` commands (issue 17), in SimCord: `/18xx merge` gathers a public company into a
system merger (its president asked), `/18xx consent` answers, `/18xx system` forms the system and `/18xx oddshares`
settles a player's two odd shares by his choice; their autocompletes offer the user's own moves in his language,
and a wrong name, a wrong seat or a table of another channel is one ephemeral sentence that changes nothing.

The table is loaded at a position built at the engine (tests/test_e18xx_1807_systems.three_with_a_poor_player: CR,
GER and GNR about to merge in phase 6), stored as the table's snapshot, as the table service keeps one."""
from __future__ import annotations

import random

import pytest

from bot.app import create_bot
from engines.e18xx.state import G
from storage.base import Commit
from tests.helpers import component_field, components, open_hand, seat_table
from tests.test_e18xx_1807_systems import three_with_a_poor_player


@pytest.fixture
def simcord_bot(settings):
    return create_bot(settings, sync_on_start=True, rng=random.Random(5))


async def load_position(env, table, state: dict) -> None:
    """The table's game continued from `state`: stored as the snapshot at its last move (the table service reads a
    table from its newest snapshot and the moves after it), the cached state dropped."""
    service = env.bot.tables
    async with service.lock(table.gid):
        loaded = await service.load(table.gid)
        await service.store.commit(table.gid, Commit(first_seq=loaded.seq + 1, entries=[], snapshot=state),
                                   service.clock.now())
        service._cache.pop(table.gid, None)


async def panel_labels(member, ch, gid: int) -> set[str]:
    """The labels of the buttons on the member's move panel (**My hand & moves**)."""
    r = await open_hand(member, ch, gid)
    return {component_field(c, "label") for c in components(r.response)}


def said(r) -> str:
    assert r.ephemeral, r.response.content
    return r.response.content


async def test_a_system_formed_by_slash_commands_with_the_odd_shares_choice(world):
    env, guild, ch, members = world
    members = [*members, guild.add_member(env.create_user("dan"))]
    table = await seat_table(env, ch, members, game="1807")
    start, _, _ = three_with_a_poor_player()
    await load_position(env, table, start)
    by, names, gid, state = table.by_seat, table.names, table.gid, table.state
    assert (await state())["round"]["part"] == "systems"

    # gathering: CR's president (seat 0) asks GER's (seat 1); no one else may, and a wrong name is a sentence
    offered = await by[0].autocomplete(ch, "18xx merge", "corporation", "")
    assert offered == [{"name": f"Ask {names[1]} to merge GER into CR's system", "value": "GER"}]
    assert await by[1].autocomplete(ch, "18xx merge", "corporation", "") == []
    assert said(await by[1].slash(ch, "18xx merge", corporation="GER")).startswith(
        f"You cannot merge now: table {gid} is waiting for {names[0]}")
    assert said(await by[0].slash(ch, "18xx merge", corporation="XYZ")) == \
        "There is no corporation called “XYZ” in this game."
    said(await by[0].slash(ch, "18xx merge", corporation="GER"))
    assert (await state())["round"]["consent"]["seat"] == 1
    assert said(await by[2].slash(ch, "18xx consent", answer="accept_offer")).startswith(
        f"You cannot answer now: table {gid} is waiting for {names[1]}")
    said(await by[1].slash(ch, "18xx consent", answer="accept_offer"))
    said(await by[0].slash(ch, "18xx merge", corporation="GNR"))
    said(await by[2].slash(ch, "18xx consent", answer="accept_offer"))
    assert (await state())["round"]["gathering"] == ["CR", "GER", "GNR"]
    assert said(await by[2].slash(ch, "18xx consent", answer="accept_offer")) == \
        "No merger is waiting for your consent."

    # forming: the 12-token systems, each with its price; an 8-token one is refused by name
    offered = await by[0].autocomplete(ch, "18xx system", "system", "")
    assert {c["value"] for c in offered} == {"GWR", "LMS", "LNE"}
    lms = next(c["name"] for c in offered if c["value"] == "LMS")
    assert lms.startswith("CR, GER, GNR form LMS (") and lms.endswith("at £165, 12 tokens"), lms
    assert said(await by[0].slash(ch, "18xx system", system="GCR")) == \
        "You cannot form GCR now; you may form GWR, LMS, LNE."
    other = guild.create_text_channel("other")
    assert said(await by[0].slash(other, "18xx system", system="LMS", table=gid)) == f"There is no table {gid} here."
    assert said(await by[0].slash(ch, "18xx system", system="LMS", table=gid + 100)) == \
        f"There is no table {gid + 100} here."
    said(await by[0].slash(ch, "18xx system", system="LMS"))
    s = await state()
    assert s["round"]["odd"]["system"] == "LMS" and s["corps"]["LMS"]["president"] is None

    # the odd shares: dan's choice alone, offered with its amounts in his language
    cash = list(s["cash"])
    for seat in (0, 1, 2):
        assert await by[seat].autocomplete(ch, "18xx oddshares", "choice", "") == []
        assert said(await by[seat].slash(ch, "18xx oddshares", choice="money")).startswith(
            f"You cannot settle odd shares now: table {gid} is waiting for {names[3]}")
    assert await by[3].autocomplete(ch, "18xx oddshares", "choice", "") == [
        {"name": "Take one LMS share and £55", "value": "share"},
        {"name": "Take £220 from LMS, no share", "value": "money"}]
    assert said(await by[3].slash(ch, "18xx oddshares", choice="both")).startswith("Choose “share”")
    assert {"Take one LMS share and £55", "Take £220 from LMS, no share"} <= await panel_labels(by[3], ch, gid)
    assert not {"Take one LMS share and £55", "Take £220 from LMS, no share"} & await panel_labels(by[0], ch, gid)
    said(await by[3].slash(ch, "language", language="ja"))
    assert "株は受け取らず、LMSから£220を受け取る" in await panel_labels(by[3], ch, gid)
    japanese = await by[3].autocomplete(ch, "18xx oddshares", "choice", "")
    assert [c["value"] for c in japanese] == ["share", "money"]
    assert japanese[1]["name"] == "株は受け取らず、LMSから£220を受け取る"
    assert (await state())["cash"] == cash  # nothing moved for the refusals
    said(await by[3].slash(ch, "18xx oddshares", choice="money"))
    s = await state()
    g = G(s)
    assert s["cash"][3] == cash[3] + 220 and s["corps"]["LMS"]["loans"] == 2 and g.corp("LMS")["president"] == "0"
    assert s["round"]["kind"] == "operating"


@pytest.mark.parametrize("lang, topic", [("en", "Playing in Discord"), ("ja", "Discordでの遊び方")])
def test_rules_1807_tell_the_system_commands(lang, topic):
    """`/rules 1807` (its "Playing in Discord" topic, in each language) names the commands of the merger round."""
    from cogs.rules import find_topic
    body = find_topic("1807", topic, lang).body
    assert all(f"`/18xx {c}`" in body for c in ("merge", "consent", "system", "oddshares", "pass")), body
