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
        return cls(
            token=os.environ.get("DISCORD_TOKEN", "").strip() or None,
            db_path=Path(os.environ.get("BOT_DB_PATH", "data/bot.sqlite3")),
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
