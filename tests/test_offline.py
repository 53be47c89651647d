"""The offline table: `python -m bot` without a token serves SimCord's preview on loopback."""
from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_offline_table_starts_and_its_page_answers_on_loopback(tmp_path):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env |= {"BOT_DB_PATH": str(tmp_path / "offline.sqlite3"), "BOT_PREVIEW_PORT": str(port)}
    proc = subprocess.Popen([sys.executable, "-m", "bot"], cwd=tmp_path, env=env | {"PYTHONPATH": str(ROOT)},
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, text=True)
    try:
        url, seen = None, []
        deadline = time.monotonic() + 60
        while url is None and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            seen.append(line)
            if m := re.search(r"open (http://127\.0\.0\.1:(\d+)/#\S+)", line):
                url = m[1]
                assert int(m[2]) == port
        assert url, "no preview URL printed:\n" + "".join(seen)
        assert "No DISCORD_TOKEN set: opening the offline table." in "".join(seen)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as resp:
            assert resp.status == 200
            assert "SimCord Preview" in resp.read().decode()
        assert (tmp_path / "offline.sqlite3").exists(), "the offline table keeps games in the SQLite file"
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    assert proc.returncode == 0


async def test_offline_tables_come_back_after_a_restart(tmp_path):
    """Two offline sessions on one database: the second shows the first one's open table."""
    import simcord

    from bot.app import create_bot
    from bot.config import Settings
    from bot.offline import restore_tables
    from tests.helpers import create_table, table_message

    settings = Settings(token=None, db_path=tmp_path / "offline.sqlite3", dm_interval=0, send_rate=0)
    for session in (1, 2):
        bot = create_bot(settings, sync_on_start=True)
        async with simcord.run(bot) as env:
            guild = env.create_guild("Offline table")
            channel = guild.create_text_channel("table")
            alice = guild.add_member(env.create_user("alice"))
            if session == 1:
                gid = await create_table(alice, channel)
            else:
                assert channel.history() == []
                await restore_tables(bot, channel.id)
                await env.settle()
                msg = table_message(channel, gid)
                r = await alice.click(msg, label="Leave")
                assert r.response.content.startswith("You created this table"), "its buttons work again"
        await bot.close()


async def test_time_passes_at_its_real_pace_in_the_offline_table(tmp_path):
    """keep_time moves SimCord's clock with real time, so a timer comes due (here a reminder) as it would."""
    import asyncio

    import simcord

    from bot.app import create_bot
    from bot.config import Settings
    from bot.offline import keep_time
    from tests.helpers import start_table

    bot = create_bot(Settings(token=None, db_path=tmp_path / "offline.sqlite3", dm_interval=0, send_rate=0),
                     sync_on_start=True)
    async with simcord.run(bot, check_errors=False) as env:
        guild = env.create_guild("Offline table")
        channel = guild.create_text_channel("table")
        ann, ben = (guild.add_member(env.create_user(n)) for n in ("ann", "ben"))
        gid = await start_table(channel, ann, [ben], players=2)
        await bot.tables.store.set_timer(gid, "reminder", bot.clock.now() + 0.5, {})
        bot.dispatch("timers_changed")  # as a commit does
        await env.settle()
        before = env.now()
        stop = asyncio.Event()
        ticking = asyncio.create_task(keep_time(env, stop, tick=0.1))
        try:
            await asyncio.sleep(1.2)
        finally:
            stop.set()
            await ticking
        await env.settle()
        try:
            assert (env.now() - before).total_seconds() >= 1.0
            assert any(f"Reminder: table {gid}" in (m.content or "") for m in channel.history())
        finally:
            await bot.close()
