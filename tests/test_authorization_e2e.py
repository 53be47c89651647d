"""A table belongs to its server and channel, tried as a hostile user would, through the real bot in SimCord.

Two servers: "Home", where the tables live, and "Other", where mallory is an admin. Mallory is also a plain
member of Home and even sits at one Home table. From Other, by naming Home's table ids, she reaches nothing:
every command, button, menu, vote and autocomplete answers her alone with "There is no table N here." and
nothing at any Home table changes. In a DM, a table answers only its own players; in a thread, the tables
of the channel it belongs to answer; Manage Server counts only in the table's own server."""
from __future__ import annotations

import random

import discord
import pytest
from discord import app_commands

from bot.app import create_bot
from bot.place import nowhere
from bot.table_ui import hand_view
from tests.helpers import components, table_message


@pytest.fixture
def simcord_bot(settings):
    return create_bot(settings, sync_on_start=True, rng=random.Random(12))


async def started(svc, guild, channel, engine, players, options=None) -> int:
    t = await svc.create(guild_id=guild.id, channel_id=channel.id, engine_name=engine, user_id=players[0].id,
                         name=players[0].name, options=options or {}, random_seats=False)
    for m in players[1:]:
        await svc.join(t.game.id, m.id, m.name)
    await svc.start(t.game.id, players[0].id)
    return t.game.id


@pytest.fixture
async def servers(simcord_env):
    env = simcord_env
    home = env.create_guild("Home")
    hch = home.create_text_channel("table")
    other = env.create_guild("Other")
    och = other.create_text_channel("lobby")
    ann, ben = (home.add_member(env.create_user(n)) for n in ("ann", "ben"))
    mallory = env.create_user("mallory")
    mal_home = home.add_member(mallory)
    admins = other.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    mal = other.add_member(mallory, roles=[admins])
    svc = env.bot.tables
    t = {}
    lobby = await svc.create(guild_id=home.id, channel_id=hch.id, engine_name="dicehand", user_id=ann.id,
                             name="ann", options={})
    t["lobby"] = lobby.game.id
    for name, engine in (("dice", "dicehand"), ("boss", "boss"), ("fourbit", "fourbit"), ("tokai", "tokai")):
        t[name] = await started(svc, home, hch, engine, [ann, ben])
    t["1889"] = await started(svc, home, hch, "1889", [ann, ben, mal_home])  # mallory plays here, in Home
    t["done"] = await started(svc, home, hch, "dicehand", [ann, ben])
    await svc.abandon(t["done"], ann.id, False)
    await env.settle()
    return env, home, hch, other, och, (ann, ben, mal_home, mal), t


async def snapshot(svc, ids) -> dict:
    """Everything a move, a join, a vote or an abandon could change at these tables."""
    out = {}
    for gid in ids:
        g = await svc.store.game(gid)
        out[gid] = (g.status, [(s.seat, s.user_id) for s in g.seats], g.pending, len(await svc.store.actions(gid)))
    return out


def refused(r, gid) -> None:
    assert r.ephemeral, "a refusal is shown only to the one who asked"
    assert r.response is not None and r.response.content == str(nowhere(gid)), r.response and r.response.content


def filled(command: app_commands.Command) -> dict:
    """Plausible values for a command's required options (the table option is added by the caller)."""
    out = {}
    for p in command.parameters:
        if not p.required:
            continue
        if p.choices:
            out[p.display_name] = p.choices[0].value
        else:
            out[p.display_name] = 1 if p.type == discord.AppCommandOptionType.integer else "x"
    return out


async def test_another_server_reaches_no_table_by_any_command(servers):
    env, home, hch, other, och, (ann, ben, mal_home, mal), t = servers
    svc = env.bot.tables
    before = await snapshot(svc, t.values())
    game = {"join": t["lobby"], "start": t["lobby"], "hand": t["dice"], "status": t["dice"], "undo": t["dice"],
            "abandon": t["dice"], "export": t["done"]}
    for name, gid in game.items():
        refused(await mal.slash(och, f"game {name}", table=gid), gid)
    refused(await mal.slash(och, "game abandon", table=t["lobby"]), t["lobby"])
    refused(await mal.slash(och, "game replace", seat=1, player=mal, table=t["dice"]), t["dice"])
    for gid in t.values():
        refused(await mal.slash(och, "game status", table=gid), gid)
    group = env.bot.tree.get_command("18xx")
    for command in group.commands:  # every /18xx command, at the table mallory herself plays at in Home
        refused(await mal.slash(och, f"18xx {command.name}", table=t["1889"], **filled(command)), t["1889"])
    refused(await mal.slash(och, "tokai move", to="nagoya", table=t["tokai"]), t["tokai"])
    refused(await mal.slash(och, "tokai map", table=t["tokai"]), t["tokai"])
    assert await snapshot(svc, t.values()) == before
    assert not [m for m in och.history() if m.author.id == env.bot.user.id], "nothing is posted in Other"
    # in Other, with no table named, there is simply no table
    r = await mal.slash(och, "game status")
    assert r.response.content == "There is no open table in this channel; start one with `/game create`."
    r = await mal.slash(och, "18xx charters")
    assert r.response.content == "There is no 18xx table in this channel; start one with `/game create`."


async def test_autocomplete_in_another_server_lists_no_table_of_home(servers):
    env, home, hch, other, och, (ann, ben, mal_home, mal), t = servers
    for command in ("game status", "game hand", "game undo", "18xx map", "tokai map"):
        assert await mal.autocomplete(och, command, "table", "") == [], command
        for gid in t.values():
            assert await mal.autocomplete(och, command, "table", str(gid)) == [], (command, gid)
    # the move menus of a named Home table stay empty too, even at the table mallory plays at
    assert await mal.autocomplete(och, "18xx bid", "company", "", table=t["1889"]) == []
    assert await mal.autocomplete(och, "18xx map", "around", "", table=t["1889"]) == []
    assert await mal.autocomplete(och, "tokai move", "to", "", table=t["tokai"]) == []
    # at Home, the same autocomplete lists the channel's open tables (and not the abandoned one)
    listed = {c["value"] for c in await ann.autocomplete(hch, "game status", "table", "")}
    assert listed == {gid for name, gid in t.items() if name != "done"}


async def copy_panel(env, channel, view: discord.ui.View):
    """The bot posts a Home panel, ids and all, where an attacker can press it (any client can send any id)."""
    await env.bot.get_channel(channel.id).send("copied panel", view=view)
    await env.settle()
    return channel.history()[-1]


async def press_all(member, message, gid) -> int:
    """Press every button and choose the first option of every menu of a message; each must be refused."""
    pressed = 0
    for c in components(message):
        cid = c.get("custom_id") if isinstance(c, dict) else c.custom_id
        options = (c.get("options") if isinstance(c, dict) else getattr(c, "options", None)) or []
        if options:
            first = options[0]["value"] if isinstance(options[0], dict) else options[0].value
            r = await member.select(message, [first], custom_id=cid)
        else:
            if (c.get("disabled") if isinstance(c, dict) else getattr(c, "disabled", False)):
                continue
            r = await member.click(message, custom_id=cid)
        refused(r, gid)
        pressed += 1
    return pressed


async def test_every_button_and_menu_of_a_home_table_is_refused_in_another_server(servers):
    env, home, hch, other, och, (ann, ben, mal_home, mal), t = servers
    svc = env.bot.tables
    before = await snapshot(svc, t.values())
    # the table messages' buttons (join, leave, start, my hand)
    for name in ("lobby", "dice"):
        embed_msg = table_message(hch, t[name])
        view = discord.ui.View.from_message(embed_msg.message if hasattr(embed_msg, "message") else embed_msg)
        copy = await copy_panel(env, och, view)
        assert await press_all(mal, copy, t[name]) >= 1
    # every game's move panel, as its awaited player sees it
    for name in ("dice", "boss", "fourbit", "tokai", "1889"):
        table = await svc.load(t[name])
        seat = min(table.engine.awaiting(table.state).seats)
        view = hand_view(table, seat)
        assert view is not None, name
        copy = await copy_panel(env, och, view)
        assert await press_all(mal, copy, t[name]) >= 1, name
    # votes: an undo vote and a replacement vote, as their buttons would be
    from bot.table_ui import VoteButton

    view = discord.ui.View(timeout=None)
    for kind in ("undo", "repl"):
        for yes in (True, False):
            view.add_item(VoteButton(kind, t["dice"], 1, yes))
    copy = await copy_panel(env, och, view)
    assert await press_all(mal, copy, t["dice"]) == 4
    assert await snapshot(svc, t.values()) == before


async def test_in_a_dm_a_table_answers_only_its_own_players(servers):
    env, home, hch, other, och, (ann, ben, mal_home, mal), t = servers
    svc = env.bot.tables
    table = await svc.load(t["dice"])
    seat = min(table.engine.awaiting(table.state).seats)
    mal_user = env.bot.get_user(mal.id) or await env.bot.fetch_user(mal.id)
    await mal_user.send("a copied panel", view=hand_view(table, seat))
    await env.settle()
    dm = mal.user.dm_channel.history()[-1]
    for c in components(dm):
        cid = c.get("custom_id") if isinstance(c, dict) else c.custom_id
        r = await mal.user.click(dm, custom_id=cid)
        refused(r, t["dice"])
    # her own Home table's panel works in her DMs
    own = await svc.load(t["1889"])
    my_seat = own.game.seat_of(mal.id)
    await mal_user.send("your panel", view=hand_view(own, my_seat) or discord.ui.View())
    await env.settle()
    r = await mal.user.slash("game status", table=t["1889"])
    assert r.response.embeds and r.response.embeds[0].title.startswith(f"Table {t['1889']} ·")
    r = await mal.user.slash("game status", table=t["dice"])
    refused(r, t["dice"])


async def test_a_thread_reaches_its_channels_tables_and_not_the_other_way(servers):
    env, home, hch, other, och, (ann, ben, mal_home, mal), t = servers
    thread = await env.bot.get_channel(hch.id).create_thread(name="side talk", type=discord.ChannelType.public_thread)
    await env.settle()
    [th] = [c for c in hch.threads if c.id == thread.id]
    r = await ann.slash(th, "game status", table=t["dice"])
    assert r.response.embeds and r.response.embeds[0].title.startswith(f"Table {t['dice']} ·")
    r = await ann.slash(th, "game create", game="dicehand")
    in_thread = int(r.response.content.split()[1])
    r = await ann.slash(hch, "game status", table=in_thread)
    refused(r, in_thread)
    r = await ann.slash(th, "game status", table=in_thread)
    assert r.response.embeds[0].title.startswith(f"Table {in_thread} ·")


async def test_manage_server_counts_only_in_the_tables_own_server(servers):
    env, home, hch, other, och, (ann, ben, mal_home, mal), t = servers
    svc = env.bot.tables
    r = await mal_home.slash(hch, "game abandon", table=t["dice"])
    assert r.response.content == "Only the table's creator or a member with Manage Server can abandon it."
    r = await mal_home.slash(hch, "game replace", seat=1, player=mal_home, table=t["dice"])
    assert r.response.content == f"You are not playing at table {t['dice']}."
    assert (await svc.load(t["dice"])).game.status == "active"
