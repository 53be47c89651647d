"""python -m bot [run|sync|replay|selfplay|export|migrate] — see README.md."""
from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys

from bot.config import Settings


class RedactSecrets(logging.Filter):
    """Belt and braces: no log line ever carries the token."""

    def __init__(self, secrets_: list[str]):
        super().__init__()
        self.secrets = [s for s in secrets_ if s]

    def filter(self, record: logging.LogRecord) -> bool:
        msg = record.getMessage()
        if any(s in msg for s in self.secrets):
            for s in self.secrets:
                msg = msg.replace(s, "[redacted]")
            record.msg, record.args = msg, ()
        return True


def _password(url: str | None) -> str:
    from urllib.parse import urlsplit

    try:
        return (urlsplit(url).password or "") if url else ""
    except ValueError:
        return ""


def setup_logging(settings: Settings) -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.addFilter(RedactSecrets([settings.token or "", _password(settings.db_url)]))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(settings.log_level)


def check_store(settings: Settings) -> None:
    """Before the bot starts: the database it is set to can serve it (DatabaseUnusable says why not)."""
    if settings.db_url:
        from storage.postgres import check_postgres

        asyncio.run(check_postgres(settings.db_url))
    else:
        from storage.sqlite import check_database

        check_database(settings.db_path)


def cmd_run(settings: Settings) -> int:
    from storage.base import DatabaseUnusable

    try:
        check_store(settings)
    except DatabaseUnusable as e:  # a supervisor sees the exit status; the admin reads why
        fix = "Set BOT_DB_URL to a PostgreSQL server that answers." if settings.db_url else \
            "Set BOT_DB_PATH to a writable file."
        print(f"error: the database cannot be used: {e} {fix}", file=sys.stderr)
        return 3
    if settings.token is None:
        from bot.offline import serve

        print("No DISCORD_TOKEN set: opening the offline table.", flush=True)
        asyncio.run(serve(settings))
        return 0
    from bot.app import create_bot

    create_bot(settings).run(settings.token, log_handler=None)
    return 0


def cmd_sync(settings: Settings, guild: int | None) -> int:
    if settings.token is None:
        print("sync needs DISCORD_TOKEN (set it in .env).", file=sys.stderr)
        return 2
    import discord

    from bot.app import create_bot

    bot = create_bot(settings)

    async def go() -> None:
        async with bot:
            await bot.login(settings.token)
            if guild:
                bot.tree.copy_global_to(guild=discord.Object(guild))
                done = await bot.tree.sync(guild=discord.Object(guild))
            else:
                done = await bot.tree.sync()
            print(f"synced {len(done)} commands {'to guild ' + str(guild) if guild else 'globally'}")

    asyncio.run(go())
    return 0


def cmd_replay(path: str) -> int:
    from bot.replay import replay_file

    result, ok = replay_file(path)
    print(json.dumps(result, ensure_ascii=False))
    return 0 if ok else 1


def cmd_selfplay(game: str, players: int, seed: int, games: int, export_dir: str | None = None,
                 options: list[str] | None = None) -> int:
    from bot.selfplay import NeverEnds, selfplay
    from engines.base import RuleError
    from engines.e18xx.export import NotExportable

    try:
        opts = dict(o.split("=", 1) for o in options or ())
        for line in selfplay(game, players, seed, games, export_dir=export_dir, options=opts):
            print(json.dumps(line))
    except (NeverEnds, RuleError, NotExportable) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except (KeyError, OSError) as e:
        print(f"error: {e.args[-1]}", file=sys.stderr)
        return 2
    return 0


def cmd_export(settings: Settings, game_id: int) -> int:
    """A stored table's whole log on standard output (an 18xx title in 18xx.games's export format)."""
    from bot.clock import SystemClock
    from bot.errors import Refusal
    from bot.tables import TableService
    from storage import store_for
    from storage.base import DatabaseUnusable

    async def go() -> dict:
        store = store_for(settings.db_url, settings.db_path)
        await store.open()
        try:
            return await TableService(store, SystemClock()).export(game_id)
        finally:
            await store.close()

    try:
        check_store(settings)
        doc = asyncio.run(go())
    except (DatabaseUnusable, Refusal) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    print(json.dumps(doc, ensure_ascii=False))
    return 0


def cmd_migrate(settings: Settings, url: str, source: str | None) -> int:
    """Copy every game of the SQLite file into PostgreSQL and check each there; a JSON report on standard output."""
    from bot.migrate import migrate
    from storage.base import DatabaseUnusable
    from storage.postgres import is_postgres_url, safe_url
    from storage.transfer import NotEmpty

    if not is_postgres_url(url):
        print("error: --to takes a PostgreSQL URL (postgresql://user:password@host/database).", file=sys.stderr)
        return 2
    path = source or settings.db_path
    try:
        report = asyncio.run(migrate(path, url))
    except (DatabaseUnusable, NotEmpty) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    print(json.dumps({"from": str(path), "to": safe_url(url), **report}))
    if report["mismatched"]:
        print(f"error: {len(report['mismatched'])} table(s) read back differently in PostgreSQL: "
              f"{', '.join(map(str, report['mismatched']))}. Keep running on the SQLite file.", file=sys.stderr)
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Board games in Discord.")
    sub = parser.add_subparsers(dest="cmd")
    sub.add_parser("run", help="run the bot (the default); without DISCORD_TOKEN, the offline table")
    p = sub.add_parser("sync", help="publish the slash commands to Discord (globally, or to one guild at once)")
    p.add_argument("--guild", type=int, help="guild id for an instant sync (default: BOT_DEV_GUILD, else global)")
    p = sub.add_parser("replay", help="replay an exported game log and print its final public summary as JSON")
    p.add_argument("log")
    p = sub.add_parser("selfplay", help="play whole games with random legal moves; one JSON line per game")
    p.add_argument("game")
    p.add_argument("--players", type=int, required=True)
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--games", type=int, default=1)
    p.add_argument("--export", metavar="DIR", help="an 18xx title: write each game in 18xx.games's export format")
    p.add_argument("--option", action="append", metavar="NAME=VALUE", help="a game option, e.g. scenario=full")
    p = sub.add_parser("export", help="print a stored table's whole log as JSON (18xx: in 18xx.games's format)")
    p.add_argument("game_id", type=int)
    p = sub.add_parser("migrate", help="copy every game of the SQLite file into PostgreSQL and check each replays "
                                       "to the same state there")
    p.add_argument("--to", required=True, metavar="URL", help="the PostgreSQL database (empty): postgresql://...")
    p.add_argument("--from", dest="source", metavar="PATH", help="the SQLite file (default: BOT_DB_PATH)")
    args = parser.parse_args(argv)
    if args.cmd == "replay":
        return cmd_replay(args.log)
    if args.cmd == "selfplay":
        return cmd_selfplay(args.game, args.players, args.seed, args.games, args.export, args.option)
    try:
        settings = Settings.from_env()
    except ValueError as e:
        print(f"error: a setting in the environment or .env is not valid: {e}", file=sys.stderr)
        return 2
    setup_logging(settings)
    if args.cmd == "sync":
        return cmd_sync(settings, args.guild or settings.dev_guild)
    if args.cmd == "export":
        return cmd_export(settings, args.game_id)
    if args.cmd == "migrate":
        return cmd_migrate(settings, args.to, args.source)
    return cmd_run(settings)


if __name__ == "__main__":
    sys.exit(main())
