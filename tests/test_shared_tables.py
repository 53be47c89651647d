"""Several bot processes on one PostgreSQL database (issue 19): the shard settings, a table's actions in one order
across processes, a timer fired and an outbox row sent by exactly one process, a DM reaching its table whichever
process receives it, and `python -m bot migrate` copying a SQLite file into PostgreSQL.

Discord itself cannot be reached here, so the processes are table services (and bots in SimCord) sharing one
database; tests/test_processes.py runs them as real processes."""
from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from bot.app import BoardBot, ShardedBoardBot, create_bot
from bot.clock import FakeClock
from bot.config import Settings
from bot.outbox import Outbox
from bot.timers import run_due
from engines.base import RuleError
from tests.helpers import start_table
from tests.service_helpers import PLAYERS, open_service, random_move, started_table, user_at
from tests.stores import open_store

REPO = Path(__file__).resolve().parents[1]


def bet(n):
    return {"type": "bet", "amount": n}


def pick(card):
    return {"type": "pick", "card": card}


@pytest.fixture
async def two_processes(pg_url):
    """Two table services on one PostgreSQL database, as two bot processes (each holding some shards) would be."""
    clock = FakeClock()
    a = await open_service(pg_url, seed=1, clock=clock)
    b = await open_service(pg_url, seed=2, clock=clock)
    yield a, b
    await a.store.close()
    await b.store.close()


# --- settings ------------------------------------------------------------------------------------------------
def settings_from(monkeypatch, **env: str) -> Settings:
    for name in ("BOT_SHARD_COUNT", "BOT_SHARD_IDS", "BOT_DB_URL"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return Settings.from_env(env_file=None)


@pytest.mark.parametrize("count, ids, expected", [("4", "0-1", (0, 1)), ("4", "3", (3,)),
                                                  ("8", "0,2, 5-6", (0, 2, 5, 6))])
def test_shard_settings_name_the_shards_this_process_runs(monkeypatch, count, ids, expected):
    s = settings_from(monkeypatch, BOT_SHARD_COUNT=count, BOT_SHARD_IDS=ids)
    assert (s.shard_count, s.shard_ids) == (int(count), expected)
    bot = create_bot(s)
    assert isinstance(bot, ShardedBoardBot) and (bot.shard_count, bot.shard_ids) == (int(count), list(expected))
    assert type(create_bot(settings_from(monkeypatch))) is BoardBot  # no shard settings: one unsharded process


@pytest.mark.parametrize("env, sentence", [
    ({"BOT_SHARD_COUNT": "4"}, "BOT_SHARD_COUNT and BOT_SHARD_IDS go together: the number of shards in all, and "
                               "the shards this process runs (for example 4 and 0-1)."),
    ({"BOT_SHARD_COUNT": "4", "BOT_SHARD_IDS": "2-4"},
     "BOT_SHARD_IDS names shard 4, but BOT_SHARD_COUNT is 4: shards are numbered 0 to 3."),
    ({"BOT_SHARD_COUNT": "4", "BOT_SHARD_IDS": "one"},
     "BOT_SHARD_IDS must list shard numbers such as 0,1 or 0-3, not 'one'."),
    ({"BOT_SHARD_COUNT": "4", "BOT_SHARD_IDS": "1,1"}, "BOT_SHARD_IDS names a shard twice ('1,1')."),
    ({"BOT_SHARD_COUNT": "0", "BOT_SHARD_IDS": "0"}, "BOT_SHARD_COUNT must be at least 1, not 0."),
    ({"BOT_DB_URL": "mysql://x/y"}, "BOT_DB_URL must be a PostgreSQL URL (postgresql://user:password@host/database), "
                                    "or empty to keep the games in the SQLite file BOT_DB_PATH."),
])
def test_bad_shard_and_database_settings_say_why(monkeypatch, env, sentence):
    with pytest.raises(ValueError) as err:
        settings_from(monkeypatch, **env)
    assert str(err.value) == sentence


def test_an_unreachable_database_stops_the_start_with_a_sentence_and_no_password(tmp_path):
    url = f"postgresql://bot:secret@/games?host={tmp_path}"  # no server listens there
    r = subprocess.run([sys.executable, "-m", "bot"], cwd=REPO, capture_output=True, text=True, timeout=60,
                       env={"PATH": "/usr/bin:/bin", "BOT_DB_URL": url, "DISCORD_TOKEN": "x"})
    assert r.returncode == 3, r.stderr
    assert r.stderr.startswith(f"error: the database cannot be used: postgresql://bot:***@/games?host={tmp_path} "
                               "cannot be reached (")
    assert r.stderr.endswith("Set BOT_DB_URL to a PostgreSQL server that answers.\n") and "secret" not in r.stderr


# --- a table's actions in one order across processes ----------------------------------------------------------
async def test_secret_picks_sent_to_two_processes_at_once_are_all_applied(two_processes):
    a, b = two_processes
    gid = await started_table(a, 4, random_seats=False)
    table = await a.load(gid)
    while table.state["phase"] == "bet":
        table = await a.act(gid, user_at(table, table.state["turn"]), bet(0))
    cards = [min(h) for h in table.state["hands"]]
    results = await asyncio.gather(*((a, b)[s % 2].act(gid, user_at(table, s), pick(cards[s]), chosen_at=table.seq)
                                     for s in range(4)), return_exceptions=True)
    assert [r for r in results if isinstance(r, BaseException)] == [], "each waited for the other, none refused"
    for service in (a, b):
        assert (await service.load(gid)).state["last"]["picks"] == cards
    assert (await b.load(gid)).state == await a.full_replay(gid)


async def test_the_same_bet_sent_to_two_processes_is_applied_once_in_order(two_processes):
    a, b = two_processes
    gid = await started_table(a, 3, random_seats=False)
    ann = user_at(await a.load(gid), 0)
    results = await asyncio.gather(a.act(gid, ann, bet(2)), b.act(gid, ann, bet(2)), return_exceptions=True)
    errors = [r for r in results if isinstance(r, BaseException)]
    # the second saw the first's move (it waited for the table), so the game itself refuses it
    assert len(errors) == 1 and isinstance(errors[0], RuleError) and str(errors[0]) == "It is not your turn."
    assert [(x.seat, x.action) for x in await a.store.actions(gid) if x.seat >= 0] == [(0, bet(2))]


async def test_random_play_through_two_processes_keeps_one_log(two_processes):
    a, b = two_processes
    gids = [await started_table(a, 3) for _ in range(3)]
    rng = random.Random(3)

    async def player(service, gid, moves):
        for _ in range(moves):
            table = await service.load(gid)
            if table.game.status != "active":
                return
            user, _, move = random_move(table, rng)
            try:
                await service.act(gid, user, move, chosen_at=table.seq)
            except Exception as e:  # a stale panel or a move the other process made first: refused, not lost
                assert "moved on" in str(e) or "is over" in str(e) or isinstance(e, RuleError), e

    await asyncio.gather(*(player(s, gid, 25) for gid in gids for s in (a, b)))
    for gid in gids:
        seqs = [x.seq for x in await a.store.actions(gid)]
        assert seqs == list(range(1, len(seqs) + 1))
        a._cache.clear()
        assert (await a.load(gid)).state == (await b.load(gid)).state == await b.full_replay(gid)


# --- timers and the outbox: one process each ---------------------------------------------------------------------
async def test_a_due_reminder_is_fired_by_exactly_one_of_two_processes(two_processes):
    a, b = two_processes
    await started_table(a, 2)
    clock = a.clock
    clock.advance(25 * 3600)  # past the 24 h reminder
    bots = [SimpleNamespace(tables=s, clock=clock) for s in (a, b)]
    fired = await asyncio.gather(*(run_due(bot) for bot in bots))
    assert sorted(fired) == [0, 1]
    reminders = [o for o in await a.store.pending(500) if o.payload.get("kind") == "reminder"]
    assert len(reminders) == 1
    assert await asyncio.gather(*(run_due(bot) for bot in bots)) == [0, 0]  # set again for tomorrow


async def test_two_processes_send_each_outbox_row_once_and_each_route_in_order(pg_url):
    stores = [await open_store(pg_url) for _ in range(2)]
    try:
        ids = [await stores[0].enqueue("channel", 1 + n % 4, None, {"n": n}, now=0.0) for n in range(40)]
        sent: list[tuple[int, int]] = []
        clock = FakeClock()
        loops: list[Outbox] = []

        def deliverer(who: int):
            async def deliver(row) -> None:
                sent.append((who, row.id))
                await asyncio.sleep(random.random() / 200)
                await stores[who].mark_sent(row.id, clock.now())
                if len(sent) == len(ids):
                    for loop in loops:
                        loop.stop()
            return deliver

        async def rest(seconds: float) -> None:
            await asyncio.sleep(min(seconds, 0.01))

        loops += [Outbox(s, deliverer(i), rest, lambda: None, now=clock.now) for i, s in enumerate(stores)]
        await asyncio.wait_for(asyncio.gather(*(loop.run() for loop in loops)), 30)
        assert sorted(row for _, row in sent) == ids, "every row once"
        for route in range(1, 5):
            order = [row for _, row in sent if row in ids[route - 1::4]]
            assert order == sorted(order), "a route's rows go in order, whichever process sends them"
        assert await stores[1].pending() == []
    finally:
        for s in stores:
            await s.close()


# --- DMs arrive on shard 0: the table is found through the store --------------------------------------------
@pytest.fixture
def settings(pg_url) -> Settings:
    return Settings(token=None, db_url=pg_url, dm_interval=0, send_rate=0)


async def test_a_dm_reaches_its_table_though_another_process_serves_the_tables_server(world, pg_url):
    """The bot in SimCord stands for shard 0's process, which receives every DM; another table service on the
    same database stands for the process running the table's server, and moves there. A player's DM then finds
    the table, with that move, through the database."""
    env, g, ch, (ann, ben, cat) = world
    gid = await start_table(ch, ann, [ben], players=2)
    other = await open_service(pg_url, seed=9)  # the process whose shard holds the table's server
    try:
        table = await other.load(gid)
        members = {m.id: m for m in (ann, ben)}
        first, second = (members[user_at(table, s)] for s in (table.state["turn"], 1 - table.state["turn"]))
        await other.act(gid, first.id, bet(1))
        r = await second.user.slash("game hand")  # in the DM: no channel names the table, the store does
        assert r.ephemeral and "Your hand:" in r.response.content, r.response.content
        r = await second.user.click(r.response, label="Bet 2")
        assert r.response.content.startswith("You played **Bet 2**."), r.response.content
        assert (await other.load(gid)).state["bets"] == [1, 2][::1 if table.state["turn"] == 0 else -1]
        assert [x.seat for x in await other.store.actions(gid)][-2:] == [table.state["turn"], 1 - table.state["turn"]]
    finally:
        await other.store.close()


# --- python -m bot migrate ------------------------------------------------------------------------------------
async def sqlite_with_games(path: Path) -> dict[int, dict]:
    """A SQLite file with tables in every state (one in the lobby, two in play, one over) and
    messages still queued; returns each table's state."""
    s = await open_service(path, seed=4, snapshot_every=5)
    rng = random.Random(4)
    try:
        lobby = await s.create(guild_id=1, channel_id=9, engine_name="dicehand", user_id=PLAYERS[0][0], name="ann",
                               options={})
        gids = [await started_table(s, n) for n in (2, 3, 3)]
        for gid, moves in zip(gids, (4, 17, 200), strict=True):
            for _ in range(moves):
                table = await s.load(gid)
                if table.game.status != "active":
                    break
                user, _, move = random_move(table, rng)
                await s.act(gid, user, move)
        await s.store.set_dm_closed(PLAYERS[1][0], True)
        await s.store.set_user_lang(PLAYERS[2][0], "ja")
        states = {gid: (await s.load(gid)).state for gid in gids}
        states[lobby.game.id] = None
        return states
    finally:
        await s.store.close()


def run_bot(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=REPO, capture_output=True, text=True,
                          timeout=120, env={"PATH": "/usr/bin:/bin", **(env or {})})


async def test_migrate_copies_every_game_into_postgresql_and_checks_each_replays_the_same(tmp_path, pg_url):
    path = tmp_path / "games.sqlite3"
    states = await sqlite_with_games(path)
    r = run_bot("migrate", "--to", pg_url, "--from", str(path))
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)
    assert report["games"] == len(states) and report["mismatched"] == report["unreplayable"] == []
    assert report["replayed"] == len(states) - 1 and report["copied"]["actions"] > 30
    moved = await open_service(pg_url, seed=5)
    try:
        for gid, state in states.items():
            table = await moved.load(gid)
            assert table.state == state
        assert {t.game.status for t in [await moved.load(g) for g in states]} >= {"lobby", "active", "over"}
        assert await moved.store.dm_closed(PLAYERS[1][0]) and await moved.store.user_lang(PLAYERS[2][0]) == ("ja", None)
        assert await moved.store.pending(500), "queued messages came along, to be sent from PostgreSQL"
        gid = await started_table(moved, 2)  # new tables and messages take ids after the copied ones
        assert gid == max(states) + 1
        table = next(t for t in [await moved.load(g) for g in states] if t.game.status == "active")
        active = table.game.id
        user, _, move = random_move(table, random.Random(1))
        await moved.act(active, user, move)  # play goes on where it was
    finally:
        await moved.store.close()
    again = run_bot("migrate", "--to", pg_url, "--from", str(path))
    assert again.returncode == 1 and again.stdout == ""
    assert again.stderr == (f"error: The PostgreSQL database already holds {len(states) + 1} table(s); migrate "
                            "copies into an empty one.\n")


def test_migrate_refuses_a_url_that_is_not_postgresql(tmp_path):
    r = run_bot("migrate", "--to", str(tmp_path / "x.sqlite3"))
    assert (r.returncode, r.stderr) == (2, "error: --to takes a PostgreSQL URL "
                                           "(postgresql://user:password@host/database).\n")
