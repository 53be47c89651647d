"""The variant "Kinki as a normal company" in the full game (option kinki_normal; rules, 1890 scenario, Variants;
docs/rules/1890.md ruling 39).

Minors 1-4 are gone and Kinki is a normal public company with two regular tokens and four home tokens placed by
themselves at the start of operating rounds (Osaka Higashi, then Kashiwara, Nara, Kyoto in phases 2-4); three
2-trains and all 3+3-trains are removed. The Simplified scenario is played this way, so the variant is the full
game's data with the Simplified data's companies, trains, phases, Kinki rules and homes: kinki.py then plays Kinki
as it does in the Simplified game. The full game's privates (the late ones too) and Kobe Electric stay.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import cache
from typing import TYPE_CHECKING, Any

from engines.e18xx.companies import title_from_data

if TYPE_CHECKING:
    from engines.e18xx.board import MapDef
    from engines.e18xx.companies import Title

OPTION = "kinki_normal"
SIMPLIFIED = "1890/simplified"
#: what the Simplified scenario's data says about the minors, the trains and Kinki
FROM_SIMPLIFIED = ("corporations", "trains", "phases")
RULES_FROM_SIMPLIFIED = ("kinki", "isr_order", "minor_face_and_capital")


def chosen(options: Mapping[str, Any]) -> bool:
    return bool(options.get(OPTION))


def title(full: Title) -> Title:
    return _title(full.id)


@cache
def _title(full_id: str) -> Title:
    from engines.e18xx.g1890.rules import raw
    data, simplified = dict(raw(full_id)["companies"]), raw(SIMPLIFIED)["companies"]
    data.update({key: simplified[key] for key in FROM_SIMPLIFIED})
    data["rules"] = {**data["rules"], **{key: simplified["rules"][key] for key in RULES_FROM_SIMPLIFIED}}
    return title_from_data(data)


@cache
def game_map(full: MapDef) -> MapDef:
    from engines.e18xx.board import load_map
    simplified = load_map(f"g{SIMPLIFIED}")
    return replace(full, homes=simplified.homes, home_nodes=simplified.home_nodes)
