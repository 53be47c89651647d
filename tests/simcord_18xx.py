"""Playing an 18xx table through its Discord panels in SimCord, as players do (tests/test_e18xx_1890_simcord.py,
tests/test_e18xx_1807_simcord.py): the awaited player opens **My hand & moves** (or reads the panel the bot answered
his last press with) and presses what leads to the move a policy wants: a button, an option of a move menu, or first
a kind or a hex menu and then the move in the panel it answers with. A move the panel does not lead to fails."""
from __future__ import annotations

import json
import random
import re
from collections.abc import Callable

from tests.helpers import component_field, components, open_hand, option_values, public_texts, seat_table, table_message

ITEM = re.compile(r"^(ex|exs|exh|exk):(\d+):([0-9a-f]{10})(?::(.*))?$")

# a policy: (state, seat, rng) -> the move that seat wants, one of the engine's legal moves
Policy = Callable[[dict, int, random.Random], dict]


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
    """The 18xx table's '**Final scores:** 1. ann ¥1,230 (cash ¥…, …) · …' as {name: score} (any currency)."""
    line = next(x for x in text.splitlines() if x.startswith("**Final scores:**"))
    found = re.findall(r"\d+\. (\S+) \D([\d,]+) \(cash ", line)
    return {name: int(score.replace(",", "")) for name, score in found}


async def play_to_the_end(env, ch, members, game: str, options: str, policy: Policy, seed: int, most: int,
                          before: int = 0, last: int | None = None, until: Callable[[dict], bool] | None = None,
                          stop: Callable[[dict, int, dict], bool] | None = None):
    """Seat the members at `game` (these options) and play it through the panels to its end (or `most` moves).
    `before`: moves the policy plays first, stored in the table's log at once (load_moves), so a long game is joined
    in its middle; or `last`: the whole game but its last `last` moves is so loaded (with `until`: the moves before
    the first move it picks, but the last `last`), and the rest is played in the panels, up to the first move that
    `stop(state, seat, move)` picks if given. Returns the table, every answer the bot gave a press, and the moves
    played through the panels."""
    table = await seat_table(env, ch, members, game=game, options=options)
    engine, state, gid = table.engine, table.state, table.gid
    rng = random.Random(seed)
    if last is not None:  # one pass at the engine finds the end; the panels go on from `last` moves before it
        moves, rngs = await policy_moves(table, policy, rng, until=until)
        before = max(0, len(moves) - last)
        await load_moves(env, table, moves[:before])
        rng.setstate(rngs[before])
    elif before:
        await load_moves(env, table, (await policy_moves(table, policy, rng, most=before))[0])
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
            assert r.response.content.startswith(f"**Table {gid} · {game}"), r.response.content
            presses.append(r)
            panel = r.response
        move = policy(s, seat, rng)
        done = len(presses)
        r = await press(member, panel, move, engine.legal(s, seat), presses)
        for step in presses[done:-1]:  # a kind or hex menu answers with the moves of that kind or on that hex
            assert step.response.content.startswith(f"Table {gid}: "), step.response.content
        assert r.response.content.startswith("You played **"), r.response.content
        panel, last = r.response, seat
        played.append(move)
        if stop and stop(s, seat, move):
            break
    return table, presses, played


async def policy_moves(table, policy: Policy, rng: random.Random, most: int | None = None,
                       until: Callable[[dict], bool] | None = None) -> tuple[list[tuple[int, dict]], list[tuple]]:
    """The (seat, move)s the policy (with this rng) plays at the engine from the table's state: `most` of them, or
    (by default) all to the game's end, a draw of chance, or the first move `until` picks; and the rng's state
    before each move and after the last (so the panels can go on from any of them as the engine did)."""
    engine, state = table.engine, await table.state()
    moves, rngs = [], [rng.getstate()]
    for _ in range(most or 50_000):
        if state["over"] or engine.awaiting(state).chance is not None:
            break
        seat = min(engine.awaiting(state).seats)
        move = policy(state, seat, rng)
        if until and until(move):
            break
        state = engine.apply(state, seat, move)
        moves.append((seat, move))
        rngs.append(rng.getstate())
    else:
        assert most, "no end in 50,000 moves"
    return moves, rngs


async def load_moves(env, table, moves: list[tuple[int, dict]]) -> None:
    """The table's log continued by these (seat, move)s, committed by the table service in one go as a stored log
    loaded into the table: the moves are the log's, the table's state and message follow them, and the panels go
    on from there."""
    if not moves:
        return
    service = env.bot.tables
    async with service.lock(table.gid):
        await service._commit(await service.load(table.gid), moves)
    await env.settle()


async def check_the_end(env, ch, members, table, presses, game: str) -> dict:
    """After a game played to its end: the table message's game-over line and final scores are the engine's for the
    stored log replayed from the start, the end is said in the channel, every press was answered to its presser
    alone, and no answer, post or DM carries an error. Returns the replayed final state."""
    gid, engine = table.gid, table.engine
    assert (await table.state())["over"], "the game reached its end"
    await env.settle()
    end = await env.bot.tables.full_replay(gid)
    scores = {table.names[seat]: score for seat, score in enumerate(engine.scores(end))}
    text = table_message(ch, gid).embeds[0].description
    assert game_over_scores(text) == scores and final_scores(text) == scores, text
    assert any(m.content.startswith(f"Table {gid} · {game}") and
               "is over. Final scores are on the table message." in m.content for m in ch.history()), \
        "the end is said in the channel"
    assert all(r.ephemeral and r.response.content for r in presses)
    dms = [m.content or "" for member in members if member.user.dm_channel
           for m in member.user.dm_channel.history()]
    said = [r.response.content for r in presses] + public_texts([ch]) + dms
    assert not [t for t in said if "something went wrong" in t or "Traceback" in t]
    return end
