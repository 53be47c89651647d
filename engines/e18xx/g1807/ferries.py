"""1807's ferries (docs/rules/1807.md, "Ferries"): the Irish ferries' route bonus and every ferry's revenue by phase.

- **The Irish ferries** F1-F3 each give a corporation owning them a bonus (£10) on the routes to one of the three
  Irish off-board areas (Stranraer-Belfast H2, Holyhead-Dublin N4, Fishguard-Rosslare S3); a corporation with
  several gives each to a different area (the seed: 複数所有では重複不可). Each turn the ferries go to the areas
  its routes reach most (an n+n train's route counting twice, as its bonus is doubled), so two ferries never pay for the
  same area and every route to an area with a ferry earns it (18xx.games's bonus_privates does the same).
- **Revenue by phase**: a ferry (and U1) pays more from the phases on its card, whoever owns it, a player or a
  corporation; like every phase change on 18xx.games, the step is taken by the ferries owned when the phase
  begins (one still unsold keeps its old revenue until a later step).

State: `flags["revenue_phase"]`, the last phase whose revenue steps were taken.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engines.e18xx.state import G

IRELAND = ("H2", "N4", "S3")
IRISH_FERRIES = ("F1", "F2", "F3")


def irish_ferries(g: G, cid: str) -> list[str]:
    return [pid for pid in g.privates_of(cid) if pid in IRISH_FERRIES]


def areas_for_ferries(g: G, runs: list[dict[str, Any]], n: int) -> list[str]:
    """The `n` Irish areas the ferries go to: those the routes reach most, weighted by their multipliers."""
    def weight(area: str) -> int:
        return sum(g.rules.train(g, run["train"]).multiplier for run in runs if area in run["hexes"])
    reached = sorted((a for a in IRELAND if weight(a)), key=lambda a: (-weight(a), IRELAND.index(a)))
    return reached[:n]


def irish_bonus(g: G, cid: str, runs: list[dict[str, Any]]) -> int:
    """Add each route's Irish ferry bonus to its run; the total added."""
    ferries = irish_ferries(g, cid)
    if not ferries:
        return 0
    areas = areas_for_ferries(g, runs, len(ferries))
    # fewer areas reached than ferries: the spare ferries earn nothing
    amount = {area: g.pdef(pid).ability("hex_bonus")["amount"] for pid, area in zip(ferries, areas, strict=False)}
    added = 0
    for run in runs:
        bonus = sum(amount[a] for a in areas if a in run["hexes"]) * g.rules.train(g, run["train"]).multiplier
        run["revenue"] += bonus
        added += bonus
    return added


def step_revenues(g: G) -> None:
    """The revenue steps of the phases begun since the last look, for every owned private (a player's or a
    corporation's)."""
    flags = g.s["flags"]
    phases = [p.name for p in g.title.phases]
    now = phases.index(g.phase.name)
    last = phases.index(flags.get("revenue_phase") or phases[0])
    for name in phases[last + 1:now + 1]:
        for pid, p in g.s["privates"].items():
            if p["owner"] is None or p["closed"]:
                continue
            for change in g.pdef(pid).abilities_of("revenue_change"):
                if change["on_phase"] == name and p["revenue"] != change["revenue"]:
                    p["revenue"] = change["revenue"]
                    g.event("{private} now pays {revenue}.", private=g.private_name(pid),
                            revenue=g.amount(p["revenue"]))
    flags["revenue_phase"] = g.phase.name
