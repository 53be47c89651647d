"""``python -m bot replay LOG``: replay an exported game log and summarise it."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engines.log import IllegalAction, replay_export


def replay_file(path: str | Path) -> tuple[dict[str, Any], bool]:
    """(result, ok): the final public summary, or where the first illegal action stands."""
    doc = json.loads(Path(path).read_text(encoding="utf-8"))
    try:
        engine, state = replay_export(doc)
    except IllegalAction as e:
        return {"illegal": {"position": e.position, "seat": e.seat, "action": e.action, "sentence": e.sentence}}, False
    return {"game": engine.name, "players": doc.get("players"), "actions": len(doc["actions"]),
            "over": engine.is_over(state), "scores": engine.scores(state), "public": engine.public(state)}, True
