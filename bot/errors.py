"""What a player may be told when something goes wrong."""
from __future__ import annotations

import logging
import secrets
from typing import Any

from bot.i18n import say, tr
from engines.base import RuleError
from engines.text import Msg

log = logging.getLogger("bot.errors")


class Refusal(Exception):
    """A request the table refuses, with the sentence for the person who asked: an English template and its values
    (``Refusal("There is no table {id} here.", id=gid)``), said in their language; ``str()`` is the English."""

    def __init__(self, template: str | Msg, **values: Any):
        self.msg = template if isinstance(template, Msg) else Msg(template, values)
        super().__init__(str(self.msg))


def player_sentence(exc: BaseException, lang: str | None = None) -> tuple[str, str | None]:
    """The sentence to show its author (in `lang`, by default the reader's) and, for an unexpected error, the
    incident id it was logged under."""
    if isinstance(exc, (RuleError, Refusal)):
        return say(exc.msg, lang), None
    incident = secrets.token_hex(4)
    log.error("incident %s", incident, exc_info=exc)
    return tr(lang, "Sorry, something went wrong on our side. If it keeps happening, quote error id `{incident}` "
                    "to the server admin.", incident=incident), incident
