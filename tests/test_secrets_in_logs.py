"""The token never reaches a log line or a printed setting."""
from __future__ import annotations

import logging

from bot.__main__ import setup_logging
from bot.config import Settings

TOKEN = "MTIzNDU2Nzg5.fake.token-value"


def test_settings_repr_hides_the_token(monkeypatch):
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    s = Settings.from_env(env_file=None)
    assert s.token == TOKEN
    assert TOKEN not in repr(s) and TOKEN not in str(s)


def test_a_log_line_carrying_the_token_is_redacted(capsys):
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    try:
        setup_logging(Settings(token=TOKEN))
        logging.getLogger("discord.http").warning("request failed with header Bot %s", TOKEN)
        logging.getLogger("bot").info("token=%s", TOKEN)
    finally:
        root.handlers[:], level = saved
        root.setLevel(level)
    err = capsys.readouterr().err
    assert "request failed with header Bot [redacted]" in err
    assert "token=[redacted]" in err
    assert TOKEN not in err
