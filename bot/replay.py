"""``python -m bot replay LOG``: replay an exported game log and summarise it."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engines.base import RuleError
from engines.log import IllegalAction, replay_export


def replay_file(path: str | Path) -> tuple[dict[str, Any], bool]:
    """(result, ok): the final public summary, or where the first illegal action stands."""
    not_a_log = "This file is not a game log exported by the bot"
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
        if not isinstance(doc, dict):
            return {"error": f"{not_a_log}."}, False
        engine, state = replay_export(doc)
    except (OSError, json.JSONDecodeError) as e:
        return {"error": f"Cannot read {path}: {e}"}, False
    except KeyError as e:
        return {"error": f"{not_a_log} (it has no {e.args[0]!r})."}, False
    except RuleError as e:
        return {"error": str(e)}, False
    except (ValueError, TypeError, AttributeError) as e:
        return {"error": str(e) or f"{not_a_log}."}, False
    except IllegalAction as e:
        return {"illegal": {"position": e.position, "seat": e.seat, "action": e.action, "sentence": e.sentence}}, False
    return {"game": engine.name, "players": doc.get("players"), "actions": len(doc["actions"]),
            "over": engine.is_over(state), "scores": engine.scores(state), "public": engine.public(state)}, True
