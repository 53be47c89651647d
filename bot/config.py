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
    dm_interval: float = 0.5
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
            dev_guild=int(guild) if guild else None,
            reminder_hours=float(os.environ.get("BOT_REMINDER_HOURS", "24")),
            log_level=os.environ.get("BOT_LOG_LEVEL", "INFO").upper(),
            dm_interval=float(os.environ.get("BOT_DM_INTERVAL", "0.5")),
            preview_port=int(os.environ.get("BOT_PREVIEW_PORT", "8765")),
            boss_board=Path(board) if (board := os.environ.get("BOT_BOSS_BOARD", "").strip()) else None,
        )
