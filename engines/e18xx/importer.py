"""Read a game exported from 18xx.games (the fixtures' format) into plain values of ours.

``read_recorded(doc)`` takes the parsed JSON and returns a ``Recorded``: the title, the players in seat
order, the seed, the optional rules, the actions to replay and the final result. It does no I/O; the
caller reads the file.

What it does with the log (as 18xx.games does when it loads a game):
- drops undone actions with ``filter_undone`` (undo / redo semantics below), never trusting ``skip`` flags;
- flattens each action's ``auto_actions`` (moves the server made on a player's standing orders) right
  after the action that carries them;
- drops what changes no game state: chat ``message`` and the ``program_*`` standing orders themselves;
- normalises each action: bookkeeping keys (``created_at``, ``user``, ``original_id``, ``skip``) go, the
  site's field names stay, and share trades always carry ``percent``;
- reads older exports too, which name a player by name where newer ones give the id (an action's player
  ``entity``, the keys of ``result``), a private company by its full name (``"South Iyo Railway"``), and
  trade one certificate with ``buy_share`` / ``sell_share`` ``{share}``.

``SiteRandom`` is the site's seeded generator (1889 uses it only to deal privates in the beginner game).
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engines.e18xx.companies import Title, load_title

BOOKKEEPING = frozenset({"created_at", "user", "original_id", "skip", "auto_actions"})


def has_no_effect(action: Mapping[str, Any]) -> bool:
    """Chat, and standing orders (``program_*``): the moves made because of an order are recorded as
    ``auto_actions`` of later actions, so the order itself is a no-op for replay."""
    kind = action.get("type")
    return kind == "message" or isinstance(kind, str) and kind.startswith("program_")


@dataclass(frozen=True)
class RecordedPlayer:
    id: int
    name: str


@dataclass(frozen=True)
class Recorded:
    title: str
    players: tuple[RecordedPlayer, ...]  # seat order: seat i is players[i]
    seed: int
    options: tuple[str, ...]  # optional rules, e.g. ("beginner_game",)
    actions: tuple[dict[str, Any], ...]  # what to replay, in order (auto actions flattened in)
    result: dict[int, int]  # player id -> final score
    game_id: int | str | None = None
    game_end_reason: str | None = None
    kept_ids: tuple[int, ...] = field(default=(), repr=False)  # ids of the top-level actions undo left

    def seat_of(self, player_id: int) -> int:
        for seat, player in enumerate(self.players):
            if player.id == player_id:
                return seat
        raise KeyError(f"Player {player_id} is not in this game.")


# -- undo / redo ---------------------------------------------------------------------------------------------


def filter_undone(actions: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The actions that survive undo and redo, in their original order (undo/redo themselves never do).

    Walking the log with one slot per action and a stack of undone groups:
    - ``undo`` without ``action_id`` removes the last kept action that is not a message;
    - ``undo`` with ``action_id`` N goes back to the state right after action N (N = 0: the start):
      every kept non-message action from there up to the undo is removed;
    - either way the removed group is pushed (possibly empty);
    - ``redo`` pops the last group and puts its actions back in their slots;
    - ``message`` is always kept, even inside an undone range;
    - any other action is kept and makes earlier undos permanent (the stack is cleared).
    """
    slots: list[Mapping[str, Any] | None] = [None] * len(actions)
    undone: list[list[tuple[int, Mapping[str, Any]]]] = []
    for index, action in enumerate(actions):
        kind = action.get("type")
        if kind == "undo":
            start = _undo_start(actions, slots, action.get("action_id"), index)
            group = []
            for i in range(start, index):
                kept = slots[i]
                if kept is not None and kept.get("type") != "message":
                    group.append((i, kept))
                    slots[i] = None
            undone.append(group)
        elif kind == "redo":
            if not undone:
                raise ValueError(f"Action {action.get('id')} redoes with nothing undone.")
            for i, kept in undone.pop():
                slots[i] = kept
        elif kind == "message":
            slots[index] = action
        else:
            if undone:
                undone.clear()
            slots[index] = action
    return [a for a in slots if a is not None]


def _undo_start(actions: Sequence[Mapping[str, Any]], slots: Sequence[Mapping[str, Any] | None],
                action_id: int | None, index: int) -> int:
    if action_id is None:
        for i in range(index - 1, -1, -1):
            kept = slots[i]
            if kept is not None and kept.get("type") != "message":
                return i
        return 0
    if action_id == 0:
        return 0
    for i, a in enumerate(actions):
        if a.get("id") == action_id:
            return i + 1
    raise ValueError(f"Undo to action {action_id}, which is not in the log.")


# -- normalising ---------------------------------------------------------------------------------------------


def normalise_action(action: Mapping[str, Any], title: Title | None = None) -> dict[str, Any]:
    """A plain dict of ours: the site's fields without bookkeeping; share trades get ``percent``."""
    out = dict(action)  # copied whole and cut (cheaper than a filtered copy; the same order)
    for key in BOOKKEEPING:
        out.pop(key, None)
    out.setdefault("id", None)  # auto actions carry no id
    kind = out.get("type")
    if kind in ("buy_share", "sell_share") and "share" in out:  # the 2020 form: one certificate
        kind = out["type"] = kind + "s"
        out["shares"] = [out.pop("share")]
    if kind in ("buy_shares", "sell_shares") and out.get("percent") is None and title is not None:
        try:
            out["percent"] = _bundle_percent(out["shares"], title)
        except (KeyError, ValueError, TypeError):
            pass  # not a real certificate: left for the replay to refuse, naming the action
    elif kind == "run_routes":
        out["routes"] = [dict(route) for route in out.get("routes", [])]
    return out


def _bundle_percent(shares: Iterable[str], title: Title) -> int:
    total = 0
    for cert in shares:
        corp_id = cert.rpartition("_")[0]
        total += title.corporation(corp_id).cert_percent(cert)
    return total


def replay_actions(kept: Iterable[Mapping[str, Any]], title: Title | None = None) -> list[dict[str, Any]]:
    """Kept actions -> what to replay: auto actions right after their carrier, no-effect actions dropped.
    An auto action gets ``auto_of`` = the id of the action that carried it."""
    out = []
    for action in kept:
        if not has_no_effect(action):
            out.append(normalise_action(action, title))
        for auto in action.get("auto_actions") or ():
            if has_no_effect(auto):
                continue
            step = normalise_action(auto, title)
            step["auto_of"] = action.get("id")
            out.append(step)
    return out


# -- the whole file ------------------------------------------------------------------------------------------


def game_seed(doc: Mapping[str, Any]) -> int:
    """``settings.seed`` when present and not empty, else the first number in the game id (0 if none)."""
    seed = (doc.get("settings") or {}).get("seed")
    if seed is not None and seed != "":
        return int(seed)
    digits = re.search(r"\d+", str(doc.get("id", "")))
    return int(digits.group()) if digits else 0


def read_recorded(doc: Mapping[str, Any]) -> Recorded:
    title_id = str(doc["title"])
    try:
        title: Title | None = load_title(title_id)
    except KeyError:
        title = None  # still readable; share trades without percent keep it absent
    kept = filter_undone(doc.get("actions", []))
    settings = doc.get("settings") or {}
    players = tuple(RecordedPlayer(int(p["id"]), str(p["name"])) for p in doc["players"])
    by_name = {p.name: p.id for p in players}

    def player_id(ref: Any) -> Any:
        return by_name.get(ref, ref) if isinstance(ref, str) else ref

    private_id = {p.name: p.id for p in title.privates} if title is not None else {}
    actions = replay_actions(kept, title)
    for action in actions:  # older exports name a player, and a private company, by name
        entity_type = action.get("entity_type")
        if entity_type == "player":
            entity = action.get("entity")
            action["entity"] = by_name.get(entity, entity) if isinstance(entity, str) else entity
        elif entity_type == "company" and isinstance(entity := action.get("entity"), str):
            action["entity"] = private_id.get(entity, entity)
        if "company" in action and isinstance(company := action["company"], str):
            action["company"] = private_id.get(company, company)
    return Recorded(
        title=title_id,
        players=players,
        seed=game_seed(doc),
        options=tuple(settings.get("optional_rules") or ()),
        actions=tuple(actions),
        result={int(player_id(k)): int(v) for k, v in (doc.get("result") or {}).items()},
        game_id=doc.get("id"),
        game_end_reason=doc.get("game_end_reason"),
        kept_ids=tuple([a["id"] for a in kept if a.get("id") is not None]),
    )


# -- the site's generator ------------------------------------------------------------------------------------


class SiteRandom:
    """18xx.games's generator: a linear congruential one (m = 2^31, a = 1103515245, c = 12345),
    state = seed mod m; each draw advances the state and returns it."""

    M = 2**31
    A = 1103515245
    C = 12345

    def __init__(self, seed: int) -> None:
        self.state = seed % self.M

    def rand(self) -> int:
        self.state = (self.A * self.state + self.C) % self.M
        return self.state

    def shuffle(self, items: Sequence[Any]) -> list[Any]:
        """One draw per item in order, then sorted by draw (the draws never tie)."""
        draws = [(self.rand(), i) for i in range(len(items))]
        return [items[i] for _, i in sorted(draws)]


def beginner_deal(title: Title, seed: int, players: int) -> list[str]:
    """Beginner game: the kept privates shuffled with the site's generator; seat i gets the i-th."""
    kept = [p.id for p in title.beginner_privates(players)]
    return SiteRandom(seed).shuffle(kept)
