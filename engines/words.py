"""Small pieces of English shared by every game's words: counts with their plural, and chance outcomes."""
from __future__ import annotations

from typing import Any


def plural(n: int, word: str, many: str | None = None) -> str:
    """'1 worker', '2 workers'; ``many`` for an irregular plural ('1 die', '2 dice')."""
    return f"{n} {word if n == 1 else many or word + 's'}"


def chance_label(action: dict[str, Any]) -> str | None:
    """A chance action in words ('a roll of 3 and 5', 'a shuffle'), or None for a player's move."""
    kind = action.get("type")
    if kind == "dice":
        values = [str(v) for v in action.get("values") or []]
        return "a roll of " + " and ".join(filter(None, [", ".join(values[:-1]), values[-1] if values else ""]))
    return {"shuffle": "a shuffle", "pick": "a draw", "expire": "the end of the time to choose"}.get(kind)
