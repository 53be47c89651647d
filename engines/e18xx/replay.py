"""Replay a game recorded on 18xx.games through our engine, to its final state and scores.

The site's ids become ours: player ids are seats (the file lists players in seat order), a corporation's
action is its president's and a private's its owner's, tile copies ("57-1") are tile names, and city ids
("438-0-0": part 0 of tile copy 438-0; "E2-6-0": part 0 of the printed hex E2) are a hex and a city there.
Train and share ids are the same on both sides. The state is marked `trusted`, so the engine checks what the
site checks while loading a game (see engines/e18xx/game.py).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from engines.base import CHANCE, RuleError, State
from engines.e18xx import rounds
from engines.e18xx.companies import load_title
from engines.e18xx.game import TITLES, E18xxGame, trusted
from engines.e18xx.importer import Recorded, read_recorded
from engines.e18xx.state import G
from engines.text import Msg, msg


class UnknownTitle(ValueError):
    """A title this bot has no rules for; its one argument is the message that says so."""

    @property
    def msg(self) -> Msg:
        return self.args[0] if self.args and isinstance(self.args[0], Msg) else Msg(str(self))


@dataclass
class ReplayFailed(Exception):
    """A recorded action our engine refused: where, and the engine's sentence."""

    action: dict[str, Any]
    seat: int | None
    sentence: str
    reason: Msg | None = None  # the engine's sentence as a message (said in each reader's language)

    def __str__(self) -> str:
        return str(self.msg)

    @property
    def msg(self) -> Msg:
        a = self.action
        who, kind, why = a.get("entity"), a.get("type"), self.reason or self.sentence
        if a.get("id") is not None:
            if who is not None:
                return msg("Action {id} ({kind} by {who}) cannot be replayed: {why}", id=a["id"], kind=kind, who=who,
                           why=why)
            return msg("Action {id} ({kind}) cannot be replayed: {why}", id=a["id"], kind=kind, why=why)
        if who is not None:
            return msg("The automatic action after {id} ({kind} by {who}) cannot be replayed: {why}",
                       id=a.get("auto_of"), kind=kind, who=who, why=why)
        return msg("The automatic action after {id} ({kind}) cannot be replayed: {why}", id=a.get("auto_of"),
                   kind=kind, why=why)


@dataclass
class Replayed:
    state: State
    scores: dict[int, int]  # player id -> score (current values when the log stops before the end)
    game_end_reason: str | None
    actions: int


def is_18xx_export(doc: Any) -> bool:
    """An 18xx.games export: a title, players and actions that name their entity type."""
    if not isinstance(doc, dict) or "title" not in doc or not isinstance(doc.get("actions"), list):
        return False
    return "players" in doc and all(isinstance(a, dict) and "entity_type" in a for a in doc["actions"][:5])


def replay_export(doc: Mapping[str, Any], **hooks) -> tuple[Recorded, Replayed]:
    if str(doc.get("title")) not in TITLES:
        raise UnknownTitle(msg("This bot has no rules for the 18xx title {title}; it knows {titles}.",
                               title=repr(doc.get("title")), titles=", ".join(TITLES)))
    recorded = read_recorded(doc)
    return recorded, replay_recorded(recorded, **hooks)


def replay_recorded(
    recorded: Recorded,
    on_action: Callable[[dict[str, Any], State], None] | None = None,
    on_round_end: Callable[[G, str], None] | None = None,
) -> Replayed:
    """Every recorded action in order; `on_action(action, state)` after each, `on_round_end(g, name)` when a
    round has finished (before the next starts). Raises ReplayFailed at the first action the engine refuses."""
    if recorded.title not in TITLES:
        raise UnknownTitle(msg("This bot has no rules for the 18xx title {title}.", title=repr(recorded.title)))
    engine = TITLES[recorded.title]()
    beginner = "beginner_game" in recorded.options
    seats = {p.id: i for i, p in enumerate(recorded.players)}
    token = rounds.ROUND_END.set(on_round_end)
    try:
        options = {"beginner_game": True} if beginner else {}
        state = trusted(engine.setup(options, len(recorded.players)))
        if engine.awaiting(state).chance:  # a deal at the start: the site draws it from the game's seed
            g = G(state)
            kept = g.rules.dealt(g)
            deal = g.rules.site_deal(load_title(recorded.title), recorded.seed, len(recorded.players))
            state = engine.apply(state, CHANCE, {"type": "shuffle", "order": [kept.index(pid) for pid in deal]})
        copies: dict[str, str] = {}  # hex -> tile copy id now on it
        in_place = on_action is None  # a refused action ends the replay, so no state needs keeping unless shown
        for action in recorded.actions:
            seat = None
            try:
                seat, ours = translate(engine, state, action, seats, copies)
                state = engine.apply(state, seat, ours, in_place=in_place)
            except RuleError as e:
                raise ReplayFailed(action, seat, str(e), e.msg) from None
            if action["type"] == "lay_tile":
                copies[action["hex"]] = action["tile"]
            if on_action is not None:
                on_action(action, state)
    finally:
        rounds.ROUND_END.reset(token)
    scores = engine.scores(state) or [G(state).value(s) for s in range(len(recorded.players))]
    return Replayed(state, {p.id: scores[i] for i, p in enumerate(recorded.players)}, state["over"],
                    len(recorded.actions))


def translate(engine: E18xxGame, state: State, action: Mapping[str, Any], seats: Mapping[int, int],
              copies: Mapping[str, str]) -> tuple[int, dict[str, Any]]:
    """The seat that acts and our action for one recorded action: the recorded one less its bookkeeping (id,
    auto_of), less who acts when that is a player (the seat says it), and in our words where the site's differ."""
    kind = action["type"]
    entity, entity_type = action.get("entity"), action.get("entity_type")
    if type(entity) not in (int, str):
        raise RuleError("The entity {entity} names no player, corporation or company.", entity=repr(str(entity)[:20]))
    ours = dict(action)  # copied whole and cut (cheaper than a filtered copy); the recorded action stays the site's
    ours.pop("id", None)
    ours.pop("auto_of", None)
    if entity_type == "player":
        seat = seats.get(entity)
        if seat is None:
            raise RuleError("Player {player} is not in this game.", player=entity)
        del ours["entity"], ours["entity_type"]
    elif entity_type == "corporation":
        corp = state["corps"].get(entity)
        if corp is None:
            raise RuleError("There is no corporation {corp} in this game.", corp=entity)
        if corp["president"] is not None:
            seat = int(corp["president"])
        else:  # a minor's home token before it has an owner: the player who opened its auction
            awaited = engine.awaiting(state).seats
            if len(awaited) != 1:
                raise RuleError("Corporation {corp} has no president.", corp=entity)
            seat = next(iter(awaited))
    elif entity_type == "company":
        p = state["privates"].get(entity)
        if p is None:
            raise RuleError("There is no private company {private} in this game.", private=entity)
        if p["owner"] is not None and p["owner"].isdigit():
            seat = int(p["owner"])
        else:
            awaited = engine.awaiting(state).seats
            if len(awaited) != 1:
                raise RuleError("Nobody can act for {entity} now.", entity=entity)
            seat = next(iter(awaited))
    else:
        raise RuleError("Unknown entity type {kind}.", kind=repr(entity_type))
    if kind in WITH_PLAIN:
        _drop_plain(state, kind, ours, entity)
    if kind == "lay_tile":
        ours["tile"] = tile_name(str(action.get("tile", "")))
    elif kind in ("place_token", "remove_token"):
        ours["hex"], ours["city"] = city_of(G(state), str(action.get("city", "")), copies)
        ours.pop("slot", None)
    return seat, ours


#: Fields newer 18xx.games exports write that hold nothing 1889 has a rule for: dropped while they hold what a game
#: of 1889 writes there (nothing, 0, or what the move says anyway), refused with a sentence otherwise.
PLAIN = {
    "run_routes": {"extra_revenue": (0,), "subsidy": (0,)},
    "buy_shares": {"purchase_for": (), "borrow_from": (), "swap": (), "discounter": (), "total_price": ()},
    "par": {"purchase_for": (), "borrow_from": (), "slot": ()},
    "place_token": {"cost": (), "token_type": ()},
    "lay_tile": {"combo_entities": ([],)},
}
ROUTE_PLAIN = {"subsidy": (0,), "halts": (), "abilities": ([],)}
#: The moves that may carry such fields (most moves, passes, bids and dividends, carry none of them).
WITH_PLAIN = frozenset((*PLAIN, "buy_train"))


def _drop_plain(state: State, kind: str, ours: dict[str, Any], entity: Any) -> None:
    """Remove from ``ours`` the site's fields that say nothing in 1889 (PLAIN, and a few that repeat the move:
    the token's placer, the train's variant, the share's price); a field saying more is refused."""
    for key, allowed in PLAIN.get(kind, {}).items():
        if key in ours:
            _plain(kind, key, ours.pop(key), allowed)
    if kind == "place_token" and "tokener" in ours:
        _plain(kind, "tokener", ours.pop("tokener"), (entity,))
    if kind == "buy_train" and "variant" in ours:
        _plain(kind, "variant", ours.pop("variant"), (tile_name(str(ours.get("train", ""))),))
    if kind == "buy_shares" and "share_price" in ours:
        shares = ours.get("shares") or [""]
        cid = str(shares[0]).rpartition("_")[0]
        prices = ()
        g = G(state)
        if cid in g.s["corps"] and g.cell(cid) is not None:  # the price this purchase pays anyway
            prices = (g.corp(cid)["par"], g.price(cid))
        _plain(kind, "share_price", ours.pop("share_price"), prices)
    if kind == "run_routes" and type(ours.get("routes")) is list:
        ours["routes"] = [dict(route) if type(route) is dict else route for route in ours["routes"]]  # ours to change
        for route in ours["routes"]:
            for key, allowed in ROUTE_PLAIN.items():
                if type(route) is dict and key in route:
                    _plain(kind, key, route.pop(key), allowed)


def _plain(kind: str, key: str, value: Any, allowed: tuple) -> None:
    if value is not None and value not in allowed:
        raise RuleError("The {field} of {value} in this {kind} has no rule in 1889.", field=key,
                        value=repr(str(value)[:20]), kind=kind)


def tile_name(copy_id: str) -> str:
    """ "57-1" -> "57"; "Beg6-0" -> "Beg6"."""
    return copy_id.rpartition("-")[0] or copy_id


def city_of(g: G, city_id: str, copies: Mapping[str, str]) -> tuple[str, int]:
    """A site city id -> (hex, index of the node among the tile's nodes)."""
    parts = city_id.split("-")
    if len(parts) != 3 or not parts[2].isdigit():
        raise RuleError("{city} is not a city id.", city=repr(city_id))
    part = int(parts[2])
    if parts[0] in g.map.printed and parts[0] not in g.map.tiles:
        coord = parts[0]
    else:
        copy = f"{parts[0]}-{parts[1]}"
        coord = next((h for h, c in copies.items() if c == copy), None)
        if coord is None:
            raise RuleError("Tile {tile} is not on the board.", tile=copy)
    cities = g.board.tile(coord).city_indexes()
    if not cities:
        raise RuleError("There is no city on {where}.", where=coord)
    return coord, cities[min(part, len(cities) - 1)]
