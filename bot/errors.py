"""What a player may be told when something goes wrong."""
from __future__ import annotations

import logging
import secrets

from engines.base import RuleError

log = logging.getLogger("bot.errors")


class Refusal(Exception):
    """A request the table refuses; the message is a sentence for the person who asked."""


def player_sentence(exc: BaseException) -> tuple[str, str | None]:
    """The sentence to show its author and, for an unexpected error, the incident id it was logged under."""
    if isinstance(exc, (RuleError, Refusal)):
        return str(exc), None
    incident = secrets.token_hex(4)
    log.error("incident %s", incident, exc_info=exc)
    return (f"Sorry, something went wrong on our side. If it keeps happening, quote error id `{incident}` "
            "to the server admin."), incident
