"""Settings from the environment (and a .env file beside the bot); see .env.example."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from dotenv import load_dotenv


@dataclass(frozen=True)
class Settings:
    token: str | None = field(default=None, repr=False)  # never printed or logged
    db_path: Path = Path("data/bot.sqlite3")
    db_url: str | None = field(default=None, repr=False)  # postgresql://...: the database several processes share
    shard_count: int | None = None  # Discord's shards in all (set with shard_ids: this process runs some of them)
    shard_ids: tuple[int, ...] | None = None  # the shards this process runs; None: one process, unsharded
    dev_guild: int | None = None
    reminder_hours: float = 24.0
    log_level: str = "INFO"
    dm_interval: float = 1.0  # seconds between two messages to one channel or one player (Discord: 5 per 5 s)
    send_rate: float = 40.0  # messages a second from the whole bot (Discord's global limit is 50 requests)
    preview_port: int = 8765
    boss_board: Path | None = None  # the printed I'm the Boss! board, written by an admin who owns the box

    @classmethod
    def from_env(cls, env_file: str | None = ".env") -> Settings:
        if env_file:
            load_dotenv(env_file, override=False)
        guild = os.environ.get("BOT_DEV_GUILD", "").strip()
        db_url = os.environ.get("BOT_DB_URL", "").strip() or None
        if db_url and db_url.split("://", 1)[0] not in ("postgresql", "postgres"):
            raise ValueError("BOT_DB_URL must be a PostgreSQL URL (postgresql://user:password@host/database), or "
                             "empty to keep the games in the SQLite file BOT_DB_PATH.")
        shard_count, shard_ids = _shards()
        return cls(
            token=os.environ.get("DISCORD_TOKEN", "").strip() or None,
            db_path=Path(os.environ.get("BOT_DB_PATH", "data/bot.sqlite3")),
            db_url=db_url,
            shard_count=shard_count,
            shard_ids=shard_ids,
            dev_guild=_number("BOT_DEV_GUILD", "", int) if guild else None,
            reminder_hours=_number("BOT_REMINDER_HOURS", "24", float),
            log_level=os.environ.get("BOT_LOG_LEVEL", "INFO").upper(),
            dm_interval=_number("BOT_DM_INTERVAL", "1", float),
            send_rate=_number("BOT_SEND_RATE", "40", float),
            preview_port=_number("BOT_PREVIEW_PORT", "8765", int),
            boss_board=Path(board) if (board := os.environ.get("BOT_BOSS_BOARD", "").strip()) else None,
        )


def _number(name: str, default: str, kind: type) -> int | float:
    text = os.environ.get(name, default).strip()
    try:
        return kind(text)
    except ValueError:
        raise ValueError(f"{name} must be {'a whole number' if kind is int else 'a number'}, not {text!r}.") from None


def _shards() -> tuple[int | None, tuple[int, ...] | None]:
    """BOT_SHARD_COUNT and BOT_SHARD_IDS ("0,1" or "0-3"): both or neither, every id below the count."""
    count_text = os.environ.get("BOT_SHARD_COUNT", "").strip()
    ids_text = os.environ.get("BOT_SHARD_IDS", "").strip()
    if not count_text and not ids_text:
        return None, None
    if not count_text or not ids_text:
        raise ValueError("BOT_SHARD_COUNT and BOT_SHARD_IDS go together: the number of shards in all, and the "
                         "shards this process runs (for example 4 and 0-1).")
    count = int(_number("BOT_SHARD_COUNT", "", int))
    if count < 1:
        raise ValueError(f"BOT_SHARD_COUNT must be at least 1, not {count}.")
    ids: list[int] = []
    for part in ids_text.split(","):
        first, _, last = part.strip().partition("-")
        try:
            ids += list(range(int(first), int(last or first) + 1))
        except ValueError:
            raise ValueError(f"BOT_SHARD_IDS must list shard numbers such as 0,1 or 0-3, not {ids_text!r}.") from None
    if not ids:
        raise ValueError(f"BOT_SHARD_IDS names no shard ({ids_text!r}); give ranges from low to high, such as 0-3.")
    if len(set(ids)) != len(ids):
        raise ValueError(f"BOT_SHARD_IDS names a shard twice ({ids_text!r}).")
    if not all(0 <= i < count for i in ids):
        raise ValueError(f"BOT_SHARD_IDS names shard {max(ids)}, but BOT_SHARD_COUNT is {count}: shards are "
                         f"numbered 0 to {count - 1}.")
    return count, tuple(sorted(ids))
