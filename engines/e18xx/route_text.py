"""Routes named by their stops ("2: J1 K4 | 3: K4 I4 F9"), as a player types them, made into a run_routes action:
the track between two stops is found on the board."""
from __future__ import annotations

import re
from typing import Any

from engines.base import RuleError
from engines.e18xx.board import Board
from engines.e18xx.route import chains_from
from engines.e18xx.state import G


def train_name(train_id: str) -> str:
    """ "2-0" -> "2": a train's kind from its id."""
    return train_id.rpartition("-")[0] or train_id

# ---------------------------------------------------------------------------
ROUTE_SPLIT = re.compile(r"[|;\n]+")
STOP_SPLIT = re.compile(r"[\s,>→\-–]+")


def parse_routes(g: G, cid: str, text: str) -> dict[str, Any]:
    """A run_routes action from "2: J1 K4 | 3: K4 I4 F9": per train (its kind or id), the stops in order. The
    track between two stops is found on the board (a way not used by an earlier leg or train)."""
    owned = list(g.corp(cid)["trains"])
    if not owned:
        raise RuleError("{corp} has no trains.", corp=cid)
    board, used, routes = g.board, frozenset(), []
    free = list(owned)
    for part in ROUTE_SPLIT.split(text.strip()):
        if not part.strip():
            continue
        if ":" not in part:
            raise RuleError("Write each route as train: stops, like `2: J1 K4 | 3: K4 I4 F9`.")
        name, _, rest = part.partition(":")
        name = name.strip().upper()
        train_id = next((t for t in free if t.upper() == name), None) or \
            next((t for t in free if train_name(t).upper() == name), None)
        if train_id is None:
            have = ", ".join(train_name(t) for t in owned)
            raise RuleError("{corp} has no {train}-train left to run (its trains: {have}).", corp=cid, train=name,
                            have=have)
        free.remove(train_id)
        stops = [s.upper() for s in STOP_SPLIT.split(rest) if s]
        if len(stops) < 2:
            raise RuleError("The {train}-train's route needs at least two stops.", train=train_name(train_id))
        for s in stops:
            if s not in g.map.printed:
                raise RuleError("{hex} is not a hex of the map.", hex=s)
        chains = connect(board, stops, used)
        if chains is None:
            raise RuleError("No track joins {stops} as a route (every town and city on the way is a stop; two trains "
                            "may not share track).", stops=" → ".join(stops))
        for c in chains:
            used |= c.borders
        routes.append({"train": train_id, "connections": [list(c.hexes) for c in chains]})
    if not routes:
        raise RuleError("Name at least one route, like `2: J1 K4`.")
    return {"type": "run_routes", "routes": routes}


def connect(board: Board, stops: list[str], used: frozenset) -> list | None:
    """Chains of track from a node in stops[0] through a node in each next stop, sharing no border."""

    def walk(k, at, borders, seen, chains):
        if k == len(stops):
            return chains
        for c in chains_from(board, at):
            if c.b[0] != stops[k] or c.b in seen or c.borders & borders:
                continue
            found = walk(k + 1, c.b, borders | c.borders, seen | {c.b}, [*chains, c])
            if found:
                return found
        return None

    for index in range(len(board.tile(stops[0]).nodes)):
        found = walk(1, (stops[0], index), used, {(stops[0], index)}, [])
        if found:
            return found
    return None
