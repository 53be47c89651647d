"""``python -m bot replay LOG``: replay an exported game log and summarise it."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engines.log import IllegalAction, replay_export


def replay_file(path: str | Path) -> tuple[dict[str, Any], bool]:
    """(result, ok): the final public summary, or where the first illegal action stands."""
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
        engine, state = replay_export(doc)
    except (OSError, json.JSONDecodeError) as e:
        return {"error": f"Cannot read {path}: {e}"}, False
    except (ValueError, KeyError, TypeError) as e:
        return {"error": str(e.args[0]) if e.args else "This file is not a game log exported by the bot."}, False
    except IllegalAction as e:
        return {"illegal": {"position": e.position, "seat": e.seat, "action": e.action, "sentence": e.sentence}}, False
    return {"game": engine.name, "players": doc.get("players"), "actions": len(doc["actions"]),
            "over": engine.is_over(state), "scores": engine.scores(state), "public": engine.public(state)}, True
