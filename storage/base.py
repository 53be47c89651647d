"""The storage interface. Cogs and the table service speak only this; SQLite (storage/sqlite.py) is the
embedded default, PostgreSQL (storage/postgres.py) the database several bot processes share."""
from __future__ import annotations

import abc
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field, replace
from typing import Any


class DatabaseUnusable(Exception):
    """The database cannot serve the bot; the message says why, for the admin."""


class SeqConflict(Exception):
    """Another writer already stored an action at that sequence number."""


@dataclass
class SeatRow:
    position: int
    seat: int | None
    user_id: int
    name: str
    dm_closed: bool = False  # the player's DMs refused the bot's last message (read with the game)
    lang: str | None = None  # the player's language (chosen with /language, else last seen), None: not known


@dataclass
class GameRow:
    id: int
    guild_id: int | None
    channel_id: int
    engine: str
    data_version: int
    options: dict[str, Any]
    status: str
    creator_id: int
    max_players: int
    random_seats: bool
    reminder_hours: float
    autopass_hours: float
    message_id: int | None
    last_ping_key: str | None
    pending: dict[str, Any]
    created_at: float
    updated_at: float
    undos: int = 0  # bumped by every undo: a cached state from before it is stale
    lang: str = "en"  # the table's language: its channel posts are written in it
    seats: list[SeatRow] = field(default_factory=list)
    last_seq: int = 0  # the seq of its last stored action when it was read
    timers: frozenset[str] = frozenset()  # the kinds of its timers set when it was read

    def seat_of(self, user_id: int) -> int | None:
        return next((s.seat for s in self.seats if s.user_id == user_id), None)

    def committed(self, c: Commit, now: float) -> GameRow:
        """The row as a commit at ``now`` leaves it that seats nobody: what reading it back returns, without the
        read (a round trip to the database)."""
        timers = (self.timers - set(c.clear_timers)) | {kind for kind, _, _ in c.timers}
        return replace(self, **c.game_fields, updated_at=now, last_seq=c.first_seq + len(c.entries) - 1,
                       timers=timers)

    def user_at(self, seat: int) -> SeatRow | None:
        return next((s for s in self.seats if s.seat == seat), None)

    def in_seat_order(self) -> list[SeatRow]:
        return sorted(self.seats, key=lambda s: (s.seat if s.seat is not None else 99, s.position))


@dataclass
class ActionRow:
    seq: int
    seat: int
    action: dict[str, Any]
    at: float


@dataclass
class Commit:
    """Everything one accepted move writes, stored in a single transaction: the actions
    (the player's and the chance draws it triggered), an optional snapshot, the DMs and
    pings it causes, the timers it sets or clears, and table fields it changes."""

    first_seq: int
    entries: list[tuple[int, dict[str, Any]]]
    snapshot: dict[str, Any] | None = None
    outbox: list[tuple[str, int, dict[str, Any]]] = field(default_factory=list)
    timers: list[tuple[str, float, dict[str, Any]]] = field(default_factory=list)
    clear_timers: list[str] = field(default_factory=list)
    game_fields: dict[str, Any] = field(default_factory=dict)
    #: The undo count the entries were computed against: with entries, the commit also
    #: refuses (SeqConflict) if the log no longer ends at first_seq - 1 or an undo happened.
    undos: int | None = None
    #: Seats given at the start: the user ids in seat order (seat 0 first).
    seat_order: list[int] | None = None
    #: A seat handed to another user: (seat, user id, name).
    seat_user: tuple[int, int, str] | None = None


@dataclass
class OutboxRow:
    id: int
    kind: str
    target_id: int
    game_id: int | None
    payload: dict[str, Any]
    attempts: int
    due_at: float = 0.0  # not before: a failed message waits before it is tried again
    claimed_until: float = 0.0  # a process is sending it until then (claim_outbox); nobody else may

    @property
    def route(self) -> tuple[str, int]:
        """Its recipient or channel: messages on one route go in order, routes go side by side."""
        return self.kind, self.target_id


@dataclass
class TimerRow:
    game_id: int
    kind: str
    due_at: float
    payload: dict[str, Any]


class Store(abc.ABC):
    #: Other processes use this database at the same time (PostgreSQL): the loops that wait for work look at it
    #: more often, since work another process queued wakes only that process.
    shared: bool = False

    @abc.abstractmethod
    async def open(self) -> None: ...
    @abc.abstractmethod
    async def close(self) -> None: ...

    # games and seats
    @abc.abstractmethod
    async def create_game(self, *, guild_id: int | None, channel_id: int, engine: str, data_version: int,
                          options: dict[str, Any], creator_id: int, max_players: int, random_seats: bool,
                          reminder_hours: float, autopass_hours: float, now: float, lang: str = "en") -> int: ...
    @abc.abstractmethod
    async def game(self, game_id: int) -> GameRow | None: ...
    @abc.abstractmethod
    async def games(self, *, channel_id: int | None = None, user_id: int | None = None,
                    statuses: tuple[str, ...] = ("lobby", "active")) -> list[GameRow]: ...
    @abc.abstractmethod
    async def update_game(self, game_id: int, now: float, **fields: Any) -> None: ...
    @abc.abstractmethod
    async def add_seat(self, game_id: int, user_id: int, name: str) -> None: ...
    @abc.abstractmethod
    async def remove_seat(self, game_id: int, user_id: int) -> None: ...

    # the action log
    @abc.abstractmethod
    async def commit(self, game_id: int, c: Commit, now: float) -> None:
        """Store c.entries at c.first_seq, c.first_seq+1, ... with everything else in ``c``,
        all or nothing; raise SeqConflict if any of those sequence numbers exists."""
    @abc.abstractmethod
    async def actions(self, game_id: int, after_seq: int = 0) -> list[ActionRow]: ...
    @abc.abstractmethod
    async def last_move_at(self, game_id: int, seat: int) -> float | None:
        """When the seat last moved at the table, if ever."""
    @abc.abstractmethod
    async def undo_last(self, game_id: int, seq: int, now: float, undos: int, then: Commit | None = None) -> None:
        """Remove the action at seq and snapshots at or after it, and store ``then`` (with no entries: the
        outbox rows, timers and fields that go with the undo) in the same transaction; raise SeqConflict
        unless seq is still the last action and the game has had exactly ``undos`` undos."""
    @abc.abstractmethod
    async def latest_snapshot(self, game_id: int, at_most: int | None = None) -> tuple[int, dict[str, Any]] | None:
        """The newest snapshot (of the state after its seq), or the newest at or before ``at_most``."""

    @contextlib.asynccontextmanager
    async def game_lock(self, game_id: int) -> AsyncIterator[None]:
        """Hold a table across processes: the table service takes it inside its own per-game lock, so a game's
        actions run one at a time in every process. A store that one process owns needs none."""
        yield

    # timers
    @abc.abstractmethod
    async def set_timer(self, game_id: int, kind: str, due_at: float, payload: dict[str, Any]) -> None: ...
    @abc.abstractmethod
    async def clear_timer(self, game_id: int, kind: str | None = None) -> None: ...
    @abc.abstractmethod
    async def due_timers(self, now: float) -> list[TimerRow]: ...
    @abc.abstractmethod
    async def timers(self, game_id: int) -> list[TimerRow]:
        """A table's timers, due or not."""
    @abc.abstractmethod
    async def next_timer_due(self) -> float | None:
        """When the next timer may be fired: its due time, or the end of its claim if a process holds it."""
    @abc.abstractmethod
    async def claim_timers(self, now: float, until: float, limit: int = 100) -> list[TimerRow]:
        """Due timers no process holds, soonest first, now held by the caller until ``until``: two processes never
        get the same one. Setting a timer again (or clearing it) ends its claim."""

    # outbox
    @abc.abstractmethod
    async def enqueue(self, kind: str, target_id: int, game_id: int | None, payload: dict[str, Any],
                      now: float) -> int: ...
    @abc.abstractmethod
    async def pending(self, limit: int = 50, route: tuple[str, int] | None = None) -> list[OutboxRow]:
        """Unsent rows not given up, oldest first (only ``route``'s, if given)."""
    @abc.abstractmethod
    async def route_heads(self, limit: int = 500) -> list[OutboxRow]:
        """The oldest unsent row of each route, oldest first."""
    @abc.abstractmethod
    async def claim_outbox(self, ids: list[int], now: float, until: float) -> list[int]:
        """Of these unsent rows, those no process holds, now held by the caller until ``until`` (the others are
        being sent by another process, or were sent): exactly one process sends a row."""
    @abc.abstractmethod
    async def mark_sent(self, outbox_id: int, now: float) -> None: ...
    @abc.abstractmethod
    async def mark_failed(self, outbox_id: int, why: str | None, retry_at: float = 0.0) -> None:
        """Count a failed attempt; with ``why`` the message is given up for good, else it waits until
        ``retry_at`` (its claim ends: any process may try it then)."""

    # users
    @abc.abstractmethod
    async def set_dm_closed(self, user_id: int, closed: bool) -> None: ...
    @abc.abstractmethod
    async def dm_closed(self, user_id: int) -> bool: ...
    @abc.abstractmethod
    async def set_user_lang(self, user_id: int, lang: str | None, *, chosen: bool = True) -> None:
        """The language a player chose (``chosen``; None: follow their Discord client), or the one their client
        showed last (not chosen)."""
    @abc.abstractmethod
    async def user_lang(self, user_id: int) -> tuple[str | None, str | None]:
        """(chosen, last seen) languages of a user; None where not known."""
