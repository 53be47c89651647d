"""Small pieces shared by every game's words: counts with their plural, and chance outcomes."""
from __future__ import annotations

from typing import Any

from engines.text import Msg, msg


def plural(n: int, word: str, many: str | None = None) -> str:
    """'1 worker', '2 workers'; ``many`` for an irregular plural ('1 die', '2 dice'). English only: a message a
    player reads uses engines.text.plural."""
    return f"{n} {word if n == 1 else many or word + 's'}"


def chance_label(action: dict[str, Any]) -> Msg | None:
    """A chance action in words ('a roll of 3 and 5', 'a shuffle'), a message said in the reader's language; None
    for a player's move."""
    kind = action.get("type")
    if kind == "dice":
        values = [str(v) for v in action.get("values") or []]
        if len(values) <= 1:
            return msg("a roll of {value}", value="".join(values))
        return msg("a roll of {values} and {last}", values=", ".join(values[:-1]), last=values[-1])
    if kind == "shuffle":
        return msg("a shuffle")
    if kind == "pick":
        return msg("a draw")
    if kind == "expire":
        return msg("the end of the time to choose")
    return None
