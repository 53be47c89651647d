"""A game played here, written in 18xx.games's export format, so a player can load it into the site's tools (and
the site's engine, ../shared/tools/ref18xx, can check it: every action accepted, the same final scores).

The inverse of importer.py and replay.translate. Our log is replayed through our engine, and each action is
written as the site names it, from the state it was played on:
- who acts: a player by id (seats are players 1..n), a corporation (the operating one when our action leaves it
  implicit, as its president sends it), or a private company;
- tiles by copy ("57" laid as "57-0", the lowest copy not on the board; an upgraded tile's copy returns to the
  supply) and cities by the site's city id (``<tile copy>-<city>``, ``<hex>-0-<city>`` for a printed city);
- our own agreement moves (an offer to buy a train or a private from another president or player, accepted,
  declined or withdrawn; 1807's consent of a minor's owner to its merger): the site has none, so an accepted offer
  is the purchase at the agreed price (the consented merger is the minor's merge) and the rest is left out;
- 1807's systems part of a merger round: the site has no systems, so nothing of it is written (a game that forms a
  system cannot be loaded there; its moves are the rules' `SITE_UNPLAYED`);
- the chance seat's deal (1889's Beginner Game; 1867's two-player draw of the privates that leave): the site
  draws it from its seed, so the export carries a seed whose draw is ours.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engines.base import CHANCE, Action, RuleError, State
from engines.e18xx import operating
from engines.e18xx.companies import load_title
from engines.e18xx.game import TITLES
from engines.e18xx.state import G
from engines.text import Msg, msg

#: Seeds tried for a Beginner Game's deal (one in 6!/(6-n)! matches: 360 at four players).
SEED_SEARCH = 200_000
#: Our moves the site has no name for: the answers to an offer (the accepted one is written as the purchase).
OURS_ONLY = ("accept_offer", "decline_offer", "withdraw_offer")


class NotExportable(Exception):
    """The game cannot be written in the site's format; the message says why (`msg`, said in each reader's
    language; str() is its English)."""

    def __init__(self, why: str | Msg):
        self.msg = why if isinstance(why, Msg) else Msg(why)
        super().__init__(str(self.msg))


def export_game(title_id: str, options: Mapping[str, Any], names: Sequence[str],
                log: Iterable[tuple[int, Action]], *, game_id: int = 1, description: str = "") -> dict[str, Any]:
    """The export of a game of ``title_id`` between ``names`` (by seat) whose log is ``log`` ((seat, action) in
    order, chance draws included). Its ``result`` is our final scores by player id (or the scores so far)."""
    if title_id not in TITLES:
        raise NotExportable(msg("This bot cannot export the 18xx title {title}.", title=repr(title_id)))
    engine = TITLES[title_id]()
    ids = list(range(1, len(names) + 1))
    state = engine.setup(dict(options), len(names))
    writer = _Writer(ids)
    seed = 0
    for position, (seat, action) in enumerate(log, 1):
        if seat == CHANCE:
            seed = _seed_for_deal(title_id, state, action, len(names))
        try:
            state = writer.play(engine, state, seat, action)
        except RuleError as e:
            raise NotExportable(msg("Move {n} of the log ({kind}) cannot be played: {why}", n=position,
                                    kind=action.get("type"), why=e.msg)) from None
    scores = engine.scores(state) or [G(state).value(s) for s in range(len(names))]
    optional = ["beginner_game"] if options.get("beginner_game") else []
    return {
        "id": game_id, "title": title_id, "description": description, "max_players": len(names),
        "players": [{"id": pid, "name": name} for pid, name in zip(ids, names, strict=True)],
        "settings": {"seed": seed, "optional_rules": optional},
        "status": "finished" if state["over"] else "active",
        "actions": [{**a, "id": i} for i, a in enumerate(writer.actions, 1)],
        "result": {str(pid): score for pid, score in zip(ids, scores, strict=True)},
    }


def _pending(state: State) -> dict[str, Any] | None:
    """An offer (operating.py) or a merger's consent (1807) waiting for its answer."""
    return state["round"].get("offer") or state["round"].get("consent")


def _seed_for_deal(title_id: str, state: State, action: Action, players: int) -> int:
    """A seed whose draw (by the site's generator) gives what this game's deal gave: who gets which private
    (1889's Beginner Game), or which privates leave (1867 with two players)."""
    g = G(state)
    if g.rules.deal_request(g).kind == "pick":  # 1807: our draw is the site's seed
        return action["index"] + 1
    kept = g.rules.dealt(g)
    ours = g.rules.deal_matters([kept[i] for i in action.get("order", [])], players)
    title = load_title(title_id)
    for seed in range(1, SEED_SEARCH):
        if g.rules.deal_matters(g.rules.site_deal(title, seed, players), players) == ours:
            return seed
    raise NotExportable(msg("No seed of the site deals the private companies as this game dealt them."))


class _Writer:
    """Our actions, written one by one as the site names them (see the module's docstring)."""

    def __init__(self, ids: list[int]):
        self.ids = ids  # player id by seat
        self.actions: list[dict[str, Any]] = []
        self.copies: dict[str, str] = {}  # hex -> tile copy on it
        self.gathering = 0  # where the merger being gathered (1867) began in `actions`

    def play(self, engine, state: State, seat: int, action: Action) -> State:
        """Write the site's action for ours (none for a chance draw) and play ours: the state after it."""
        written = self.write(state, seat, action) if seat != CHANCE else None
        after = engine.apply(state, seat, action)
        if written is not None and _pending(after) and not _pending(state):
            self.actions.pop()  # an offer, not yet a purchase: written when it is accepted
        self.skipped(state, after)
        return after

    def write(self, state: State, seat: int, action: Action) -> dict[str, Any] | None:
        """Write the site's action for ours, played on ``state``; returns it (None when nothing is written)."""
        g = G(state)
        kind = action["type"]
        r = g.round
        if r["kind"] == "merger" and r.get("part") == "systems":
            return None  # 1807's systems: the site has none
        if r["kind"] == "merger" and kind == "merge" and not r["merging"] and not r["choosing"]:
            self.gathering = len(self.actions)  # a merger begins: written unless it is called off
        if r["kind"] == "merger" and kind == "pass" and r["choosing"] == "merge":
            # called off (no owner could preside the major): the site has no such move; the minor just passes
            del self.actions[self.gathering:]
            return self._add({"type": "pass"}, "corporation", action.get("entity"))
        if kind in OURS_ONLY:
            offer = _pending(state)
            if kind == "accept_offer" and offer:
                return self._add(offer["action"], "corporation", offer["corporation"])
            return None
        if kind == "lay_tile":
            action = {**action, "tile": self._take_copy(action["hex"], action["tile"])}
        elif kind == "run_routes":
            action = {**action, "routes": [self._with_nodes(g, x) for x in action.get("routes", [])]}
            cid = operating.current(g)
            extra = g.rules.site_extra_revenue(g, cid) if cid is not None else 0
            if extra:  # the site adds what it is told besides the routes (1807's goods trains)
                action["extra_revenue"] = extra
        elif kind in ("place_token", "remove_token"):
            city = self._city_id(g, action["hex"], action["city"])
            if kind == "remove_token":  # the site names the slot the token is in
                action = {**action, "slot": g.board.slots(action["hex"], action["city"]).index(action["entity"])}
            action = {**action, "city": city}
            action.pop("hex")
        if action.get("entity_type") == "company":
            return self._add(action, "company", action["entity"])
        if action.get("entity") is not None:
            return self._add(action, "corporation", action["entity"])
        if g.round["kind"] == "operating" and kind != "sell_shares":
            return self._add(action, "corporation", operating.current(g))
        return self._add(action, "player", self.ids[seat])

    def skipped(self, before: State, after: State) -> None:
        """The passes the site records for what our engine passed over by itself (1867: a minor with nothing to
        do in a merger round, noted in the state's `auto_passes`)."""
        for cid in after.get("auto_passes", [])[len(before.get("auto_passes", [])):]:
            self._add({"type": "pass"}, "corporation", cid)

    def _add(self, action: Action, entity_type: str, entity: Any) -> dict[str, Any]:
        fields = {k: v for k, v in action.items() if k not in ("entity", "entity_type")}
        self.actions.append({**fields, "entity": entity, "entity_type": entity_type})
        return self.actions[-1]

    @staticmethod
    def _with_nodes(g: G, route: dict[str, Any]) -> dict[str, Any]:
        """A route through a hex with two cities on one track (1807's London) names the cities it stops at, as the
        site's `nodes` (node signatures, hex-index), which the site reads to choose among the readings of its
        connections; other routes are written as they are."""
        from engines.e18xx.route import route_from_connections
        cid = operating.current(g)
        if cid is None or "nodes" in route:
            return route
        try:
            found = route_from_connections(g.rules.route_board(g, cid), route.get("connections") or [], corp=cid,
                                           accept=lambda r: g.rules.route_problem(g, cid, r) is None)
        except RuleError:
            return route
        board = g.board
        nodes = [f"{h}-{i}" for h, i in found.stops if len(board.tile(h).city_indexes()) > 1]
        return {**route, "nodes": nodes} if nodes else route

    def _take_copy(self, coord: str, name: str) -> str:
        on_board = set(self.copies.values())
        index = next(i for i in range(10_000) if f"{name}-{i}" not in on_board)
        self.copies[coord] = f"{name}-{index}"
        return self.copies[coord]

    def _city_id(self, g: G, coord: str, node: int) -> str:
        tile = g.board.tile(coord)
        cities = [i for i, n in enumerate(tile.nodes) if n.kind == "city"]
        if node not in cities:
            raise NotExportable(msg("There is no city {node} on {hex}.", node=node, hex=coord))
        printed = f"{coord}-{g.map.site_hex_index.get(coord, 0)}"  # the site numbers printed hexes of one kind
        return f"{self.copies.get(coord, printed)}-{cities.index(node)}"
