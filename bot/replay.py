"""``python -m bot replay LOG``: replay an exported game log and summarise it.

LOG is either our own export (``/game export``) or a game exported from 18xx.games (it has a ``title`` and
``actions`` that name their ``entity_type``), which is replayed through the 18xx engine to its final scores.
"""
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
        from engines.e18xx.replay import is_18xx_export

        if is_18xx_export(doc):
            return replay_18xx(doc)
        engine, state = replay_export(doc)
    except OSError as e:
        return {"error": f"Cannot read {path}: {e.strerror or 'the file cannot be opened'}."}, False
    except json.JSONDecodeError as e:
        return {"error": f"Cannot read {path}: it is not JSON (line {e.lineno}, column {e.colno})."}, False
    except UnicodeDecodeError:
        return {"error": f"Cannot read {path}: it is not UTF-8 text."}, False
    except RecursionError:
        return {"error": f"{not_a_log}: it nests deeper than any game log."}, False
    except RuleError as e:
        return {"error": str(e)}, False
    except IllegalAction as e:
        return {"illegal": {"position": e.position, "seat": e.seat, "action": e.action, "sentence": e.sentence}}, False
    except (KeyError, ValueError, TypeError, AttributeError, IndexError):  # Python's words are not for a player
        return {"error": f"{not_a_log}, or it was changed since: a part of it cannot be read."}, False
    return {"game": engine.name, "players": doc.get("players"), "actions": len(doc["actions"]),
            "over": engine.is_over(state), "scores": engine.scores(state), "public": engine.public(state)}, True


def replay_18xx(doc: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """An 18xx.games export: final scores keyed by the site's player ids, and why the game ended."""
    from engines.e18xx.replay import ReplayFailed, UnknownTitle
    from engines.e18xx.replay import replay_export as replay_site_export

    try:
        recorded, done = replay_site_export(doc)
    except (UnknownTitle, ReplayFailed) as e:
        return {"error": str(e)}, False
    except RuleError as e:
        return {"error": f"This 18xx.games export cannot be replayed: {e}"}, False
    except KeyError as e:
        return {"error": f"This 18xx.games export cannot be read: a part of it has no {str(e.args[0])[:40]!r}."}, False
    except (TypeError, ValueError, AttributeError, IndexError, RecursionError):
        return {"error": "This 18xx.games export cannot be read: a part of it is not what the site writes."}, False
    result: dict[str, Any] = {
        "title": recorded.title, "game": recorded.game_id, "players": [p.id for p in recorded.players],
        "actions": done.actions, "over": done.game_end_reason is not None,
        "game_end_reason": done.game_end_reason, "scores": {str(pid): score for pid, score in done.scores.items()},
    }
    if recorded.result:
        result["matches_recorded"] = (done.scores == recorded.result  # older exports record no reason
                                      and recorded.game_end_reason in (None, done.game_end_reason))
    return result, True
