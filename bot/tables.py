"""The table service: lobby, seats, the per-game lock, and apply -> persist -> notify.

Everything here is Discord-free: the cogs turn clicks into calls, and listeners (the
Discord presenter) are told about each committed change afterwards.
"""
from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any

import engines
from bot.errors import Refusal
from bot.i18n import LANGS, say, tr
from bot.place import Place
from engines.base import CHANCE, Action, ChanceRequest, Engine, RuleError, State
from engines.chance import RandomSource, draw
from engines.e18xx.export import NotExportable, export_game
from engines.e18xx.game import E18xxGame
from engines.log import export as export_log
from engines.log import replay, unknown_game
from engines.text import Msg, Name, msg, to_json
from engines.words import chance_label
from storage.base import Commit, GameRow, SeqConflict, Store, TimerRow

HOUR = 3600.0
YEAR_HOURS = 24 * 365
#: Ids are SQLite integers: anything else names no table (an id from Discord is untrusted).
MAX_ID = 2**63 - 1
#: Tables whose latest state is kept in memory (the most recently used); others are rebuilt from a snapshot.
CACHED_TABLES = 1000
log = logging.getLogger("bot.tables")


@dataclass
class Table:
    game: GameRow
    engine: Engine
    state: State | None  # None while in the lobby
    seq: int  # sequence number of the last action

    def private(self, seat: int, state: State | None = None) -> dict[str, Any]:
        """What only this seat knows: its view less the public part."""
        state = self.state if state is None else state
        return {} if state is None else self.engine.private(state, seat)

    def privates(self, state: State | None) -> list[dict[str, Any]]:
        """Every seat's private part."""
        n = len(self.game.seats)
        return [{} for _ in range(n)] if state is None else self.engine.privates(state, n)


@dataclass
class Change:
    """A committed change, told to listeners after it is stored."""

    kind: str  # created | joined | left | started | action | undo | abandoned | replaced | vote | timer
    table: Table
    entries: list[tuple[int, int, Action]] = field(default_factory=list)  # (seq, seat, action)
    note: str = ""
    before: State | None = None  # the state the entries were applied to


Listener = Callable[[Change], Awaitable[None]]


def is_id(value: object) -> bool:
    return type(value) is int and 0 < value <= MAX_ID


def replace_votes_needed(game: GameRow) -> int:
    """A majority of the players other than the one being replaced."""
    return (len(game.seats) - 1) // 2 + 1


def replacement_passes(game: GameRow, req: dict[str, Any]) -> bool:
    """A replacement by vote passes when a majority of the players other than the one replaced agree, and
    someone besides the proposer agreed: another player, or the player replaced (at two players, the only one).
    The player replaced may also refuse, which ends the proposal."""
    yes = set(req["yes"])
    others = yes - {req["seat"]}
    return len(others) >= replace_votes_needed(game) and bool(yes - {req["by"]})


def entries_digest(entries: list[tuple[int, int, Action]]) -> str:
    """A fingerprint of logged actions, so an announcement queued for them is skipped if they were undone."""
    return hashlib.sha256(json.dumps(entries, sort_keys=True).encode()).hexdigest()[:16]


def new_vote(game: GameRow) -> int:
    """The id of a new undo or replacement vote: a click on an older vote's button never counts for it."""
    return int(game.pending.get("last_vote", 0)) + 1


def private_diff(table: Table, before: State | None, after: State) -> list[int]:
    """The seats whose private part differs between the two states (none in a game without secrets)."""
    if not table.engine.hides(after):
        return []
    was, now = table.privates(before), table.privates(after)
    return [s for s in range(len(now)) if was[s] != now[s]]


class Unloadable(Refusal):
    """A table this version of the bot cannot load; the sentence says how to end it."""


def clause(sentence: Msg) -> Name:
    """A sentence said inside another one, in parentheses: in every language, without its full stop."""
    said = {lang: say(sentence, lang).rstrip(".。") for lang in LANGS}
    return Name(said["en"], said.get("ja", ""))


#: What ``resolve`` may be asked to find besides an open table, in both languages.
KINDS = {"Tokai Baron": Name("Tokai Baron", "東海男爵")}


class TableService:
    def __init__(self, store: Store, clock, rng: RandomSource | None = None, snapshot_every: int = 20):
        self.store = store
        self.clock = clock
        self.rng = rng or secrets.SystemRandom()
        self.snapshot_every = snapshot_every
        self.listeners: list[Listener] = []
        # game id -> [lock, users]: a table's lock lives while someone holds or waits for it
        self._locks: dict[int, list] = {}
        # game id -> (undo count, seq, state): the state after seq, valid while no undo happened; the
        # most recently used CACHED_TABLES only, so a long-running bot does not keep every table ever loaded
        self._cache: OrderedDict[int, tuple[int, int, State]] = OrderedDict()
        # game id -> (undo count, seq, state) before its last commit: the narration of a commit, sent a moment
        # later, starts from there (change_at) without replaying the log since the last snapshot
        self._before: dict[int, tuple[int, int, State]] = {}

    # --- loading ---------------------------------------------------------------
    async def load(self, game_id: int) -> Table:
        game = await self.store.game(game_id) if is_id(game_id) else None
        if game is None:
            raise Refusal("There is no table {id}.", id=game_id)
        return await self._load(game)

    async def _load(self, game: GameRow) -> Table:
        try:
            return await self._build(game)
        except (Refusal, RuleError, KeyError, ValueError, TypeError, IndexError, RecursionError) as e:
            # A table whose game or data this version cannot read (an engine gone, a board file removed):
            # it says so, and it can still be abandoned; nothing else is held up by it.
            log.warning("table %s cannot be loaded: %r", game.id, e)
            if game.status not in ("lobby", "active"):
                raise Refusal("Table {id} has ended, and this version of the bot cannot show it.",
                              id=game.id) from None
            why = e.msg if isinstance(e, (Refusal, RuleError)) else msg("its saved game cannot be read")
            raise Unloadable("Table {id} cannot be loaded ({why}). Its creator or a member with Manage Server can "
                             "end it with `/game abandon table:{id}`.", id=game.id, why=clause(why)) from None

    async def _build(self, game: GameRow) -> Table:
        game_id = game.id
        engine = engines.get(game.engine)
        if game.data_version != engine.data_version:
            raise Refusal("it was saved by another version of {game}", game=engine.title_name)
        if game.status == "lobby":
            return Table(game, engine, None, 0)
        cached = self._cache.get(game_id)
        if cached is not None:
            self._cache.move_to_end(game_id)
        if cached is not None and cached[0] == game.undos:
            seq, state = cached[1:]
        else:  # never loaded, or another process undid a move since
            snap = await self.store.latest_snapshot(game_id)
            seq, state = snap if snap else (0, engine.setup(game.options, len(game.seats)))
        # the game row says how far its log goes: a table cached at that point needs no read of its log
        tail = [] if seq == game.last_seq else await self.store.actions(game_id, after_seq=seq)
        state = replay(engine, state, [(a.seq, a.seat, a.action) for a in tail])
        seq = tail[-1].seq if tail else seq
        self._remember(game_id, (game.undos, seq, state))
        return Table(game, engine, state, seq)

    def _remember(self, game_id: int, entry: tuple[int, int, State]) -> None:
        self._cache[game_id] = entry
        self._cache.move_to_end(game_id)
        while len(self._cache) > CACHED_TABLES:
            self._before.pop(self._cache.popitem(last=False)[0], None)

    async def full_replay(self, game_id: int) -> State:
        """The state rebuilt from the whole log, ignoring snapshots and cache (for checks)."""
        game = await self.store.game(game_id)
        engine = engines.get(game.engine)
        rows = await self.store.actions(game_id)
        return replay(engine, engine.setup(game.options, len(game.seats)), [(a.seq, a.seat, a.action) for a in rows])

    async def state_at(self, game_id: int, seq: int) -> State:
        """The state right after action ``seq`` (for panels shown before later moves, and announcements)."""
        game = await self.store.game(game_id)
        for kept in (self._cache.get(game_id), self._before.get(game_id)):
            if kept is not None and kept[:2] == (game.undos, seq):
                return kept[2]
        engine = engines.get(game.engine)
        snap = await self.store.latest_snapshot(game_id, at_most=seq)
        start, state = snap if snap else (0, engine.setup(game.options, len(game.seats)))
        rows = await self.store.actions(game_id, after_seq=start)
        return replay(engine, state, [(a.seq, a.seat, a.action) for a in rows if a.seq <= seq])

    async def change_at(self, game_id: int, first: int, last: int, digest: str) -> Change | None:
        """The committed change of actions ``first``..``last``, rebuilt for its announcement; None when those
        actions are no longer the ones announced (undone since, their seqs reused: ``digest`` differs)."""
        table = await self.load(game_id)
        rows = [a for a in await self.store.actions(game_id, after_seq=first - 1) if a.seq <= last]
        entries = [(a.seq, a.seat, a.action) for a in rows]
        if not entries or entries_digest(entries) != digest:
            return None
        before = await self.state_at(game_id, first - 1)
        after = table.state if table.seq == last else replay(table.engine, before, entries)
        return Change("action", Table(table.game, table.engine, after, last), entries=entries, before=before)

    async def unchanged_for(self, table: Table, seat: int, seq: int) -> State | None:
        """The state at ``seq`` if, since then, only other players' secret choices were made
        (nothing drawn, nothing revealed, nothing by this seat), so a panel shown at ``seq``
        still offers this seat the same moves; else None."""
        if seq > table.seq:
            return None
        rows = await self.store.actions(table.game.id, after_seq=seq)
        if any(a.seat in (seat, CHANCE) for a in rows):
            return None
        state = await self.state_at(table.game.id, seq)
        before = state
        for a in rows:
            after = table.engine.apply(before, a.seat, a.action)
            if not table.engine.awaiting(before).secret or table.engine.reveals(before, a.seat, a.action, after):
                return None
            before = after
        return state

    async def _tell(self, change: Change) -> None:
        # The change is already stored: a failing listener (Discord down, message deleted)
        # must not turn a committed move into an error for the player.
        for listener in self.listeners:
            try:
                await listener(change)
            except Exception:
                log.exception("listener failed after %s on table %s", change.kind, change.table.game.id)

    @contextlib.asynccontextmanager
    async def lock(self, game_id: int):
        """Hold a table's lock: its moves, votes and timers run one at a time, in this process (the asyncio lock)
        and across every process on the database (the store's game lock, taken by one task of a process at a
        time)."""
        entry = self._locks.setdefault(game_id, [asyncio.Lock(), 0])
        entry[1] += 1
        try:
            async with entry[0], self.store.game_lock(game_id):
                yield
        finally:
            entry[1] -= 1
            if entry[1] == 0:
                del self._locks[game_id]

    # --- the lobby ---------------------------------------------------------------
    async def create(self, *, guild_id: int | None, channel_id: int, engine_name: str, user_id: int, name: str,
                     options: dict[str, Any], max_players: int | None = None, random_seats: bool = True,
                     reminder_hours: float = 24, autopass_hours: float = 0, lang: str = "en") -> Table:
        try:
            engine = engines.get(engine_name)
        except KeyError:
            raise Refusal(unknown_game(engine_name)) from None
        options = engine.check_options(options)
        max_players = max_players or engine.max_players
        if not engine.min_players <= max_players <= engine.max_players:
            raise Refusal("{game} takes {least} to {most} players.", game=engine.title_name,
                          least=engine.min_players, most=engine.max_players)
        if not (0 <= reminder_hours <= YEAR_HOURS and 0 <= autopass_hours <= YEAR_HOURS):
            raise Refusal("Reminder and auto-pass hours go from 0 to a year (8760 hours).")
        if autopass_hours and type(engine).auto_action is Engine.auto_action:
            raise Refusal("{game} has no auto-pass.", game=engine.title_name)
        gid = await self.store.create_game(
            guild_id=guild_id, channel_id=channel_id, engine=engine.name, data_version=engine.data_version,
            options=options, creator_id=user_id, max_players=max_players, random_seats=random_seats,
            reminder_hours=reminder_hours, autopass_hours=autopass_hours, now=self.clock.now(), lang=lang)
        await self.store.add_seat(gid, user_id, name)
        table = await self.load(gid)
        await self._tell(Change("created", table))
        return table

    async def join(self, game_id: int, user_id: int, name: str) -> Table:
        async with self.lock(game_id):
            table = await self.load(game_id)
            game = table.game
            if game.status != "lobby":
                raise Refusal("Table {id} has already started; ask the players to replace someone if you want a "
                              "seat.", id=game_id)
            if any(s.user_id == user_id for s in game.seats):
                raise Refusal("You are already seated at table {id}.", id=game_id)
            if len(game.seats) >= game.max_players:
                raise Refusal("Table {id} is full ({most} players).", id=game_id, most=game.max_players)
            await self.store.add_seat(game_id, user_id, name)
            table = await self.load(game_id)
        await self._tell(Change("joined", table, note=name))
        return table

    async def leave(self, game_id: int, user_id: int) -> Table:
        async with self.lock(game_id):
            table = await self.load(game_id)
            if table.game.status != "lobby":
                raise Refusal("The game has started, so you cannot just leave; ask the table to replace you "
                              "(`/game replace`), or the creator to abandon it.")
            if not any(s.user_id == user_id for s in table.game.seats):
                raise Refusal("You are not seated at table {id}.", id=game_id)
            if user_id == table.game.creator_id:
                raise Refusal("You created this table; abandon it instead of leaving (`/game abandon`).")
            await self.store.remove_seat(game_id, user_id)
            table = await self.load(game_id)
        await self._tell(Change("left", table))
        return table

    async def start(self, game_id: int, user_id: int) -> Table:
        async with self.lock(game_id):
            table = await self.load(game_id)
            game, engine = table.game, table.engine
            if game.status != "lobby":
                raise Refusal("Table {id} has already started.", id=game_id)
            if user_id != game.creator_id:
                raise Refusal("Only the player who created the table can start it.")
            n = len(game.seats)
            if n < engine.min_players:
                raise Refusal("{game} needs at least {least} players; {n} seated.", game=engine.title_name,
                              least=engine.min_players, n=n)
            order = [s.user_id for s in game.seats]
            if game.random_seats:  # the seating is a chance draw, like any other
                perm = draw(ChanceRequest("shuffle", n), self.rng)["order"]
                order = [order[i] for i in perm]
            # Seats, status and the opening draws are one commit: a crash cannot leave a started table
            # whose first draw nobody makes.
            seats = [replace(s, seat=order.index(s.user_id)) for s in game.seats]
            started = Table(replace(game, status="active", seats=seats), engine, engine.setup(game.options, n), 0)
            table = await self._commit(started, [], kind="started",
                                       fields={"status": "active"}, seat_order=order)
        return table

    # --- acting ---------------------------------------------------------------------
    async def act(self, game_id: int, user_id: int, action: Action, chosen_at: int | None = None) -> Table:
        """Play a seat's move. ``chosen_at``: the step the player chose it at; the move is refused if the table
        has moved on since, except by other players' secret choices (checked under the lock, so players
        choosing in secret at the same moment are all accepted, in any order)."""
        async with self.lock(game_id):
            table = await self.load(game_id)
            seat = self.player_seat(table, user_id)
            if chosen_at is not None and chosen_at != table.seq and \
                    await self.unchanged_for(table, seat, chosen_at) is None:
                raise Refusal("The game has moved on since these choices were shown; open them again "
                              "to see your moves now.")
            table = await self._settle(table)
            return await self._commit(table, [(seat, action)])

    async def _settle(self, table: Table) -> Table:
        """Draw a chance the table still awaits (stored by an older version, or by hand); under the lock."""
        if table.game.status == "active" and table.engine.awaiting(table.state).chance is not None:
            log.warning("table %s awaited a chance draw; drawing it now", table.game.id)
            return await self._commit(table, [], kind="started" if table.seq == 0 else "action")
        return table

    async def recover(self) -> int:
        """At start: draw every chance an active table awaits, and set again a timer its step needs that is
        missing, so no table waits for ever. Returns how many tables needed either."""
        mended = 0
        for game in await self.store.games(statuses=("active",)):
            try:
                async with self.lock(game.id):
                    table = await self.load(game.id)
                    settled = await self._settle(table)
                    if settled is not table or await self._restore_timers(settled):
                        mended += 1
            except Exception:  # one broken table must not keep the others stuck
                log.exception("table %s could not be recovered", game.id)
        return mended

    async def _restore_timers(self, table: Table) -> bool:
        """The timers the table's step needs that are missing (the store lost one, or an old version dropped
        it), planned as if the step had just begun. True if any was missing."""
        if table.game.status != "active":
            return False
        c = Commit(first_seq=table.seq + 1, entries=[])
        await self._plan_turn(table, table.state, self.clock.now(), c, actors=set())
        have = {t.kind for t in await self.store.timers(table.game.id)}
        c.timers = [t for t in c.timers if t[0] != "window"]
        if window := table.engine.awaiting(table.state).window:  # its start is not stored: a whole window again
            c.timers.append(("window", self.clock.now() + window, {"seq": table.seq}))
        missing = [(kind, due, payload) for kind, due, payload in c.timers if kind not in have]
        for kind, due, payload in missing:
            await self.store.set_timer(table.game.id, kind, due, payload)
        return bool(missing)

    def player_seat(self, table: Table, user_id: int) -> int:
        """The user's seat at a table in play, or a Refusal saying why they cannot act there."""
        game = table.game
        if game.status == "lobby":
            raise Refusal("Table {id} has not started yet.", id=game.id)
        if game.status == "over":
            raise Refusal("Table {id} is over.", id=game.id)
        if game.status != "active":
            raise Refusal("Table {id} is abandoned.", id=game.id)
        seat = game.seat_of(user_id)
        if seat is None:
            raise Refusal("You are not playing at table {id}.", id=game.id)
        return seat

    async def _commit(self, table: Table, moves: list[tuple[int, Action]], kind: str = "action",
                      outbox: list[tuple[str, int, dict]] | None = None, fields: dict[str, Any] | None = None,
                      seat_order: list[int] | None = None, clear: list[str] | None = None) -> Table:
        """Apply moves and any chance they trigger, store it all in one transaction, then tell
        the listeners. Must be called under the game's lock. RuleError leaves nothing changed."""
        engine, game = table.engine, table.game
        before = table.state
        state = before if before is not None else engine.setup(game.options, len(game.seats))
        entries: list[tuple[int, Action]] = []
        revealed = False
        for seat, action in moves:
            nxt = engine.apply(state, seat, action)
            revealed = revealed or engine.reveals(state, seat, action, nxt)
            state = nxt
            entries.append((seat, action))
        while (req := engine.awaiting(state).chance) is not None:
            chance = draw(req, self.rng)
            state = engine.apply(state, CHANCE, chance)
            entries.append((CHANCE, chance))
        now = self.clock.now()
        first = table.seq + 1
        last = table.seq + len(entries)
        c = Commit(first_seq=first, entries=entries, undos=game.undos, game_fields=dict(fields or {}),
                   seat_order=seat_order, clear_timers=list(clear or []))
        numbered = [(first + i, s, a) for i, (s, a) in enumerate(entries)]
        if entries:  # the narration goes out through the outbox, first, and exactly once
            c.outbox.append(("channel", game.channel_id, {"game_id": game.id, "kind": "announce", "first": first,
                                                          "last": last, "digest": entries_digest(numbered)}))
        c.outbox += list(outbox or [])
        if entries and (last // self.snapshot_every) > (table.seq // self.snapshot_every):
            c.snapshot = state
        after = Table(game, engine, state, last)
        for seat in private_diff(after, before, state):
            row = game.user_at(seat)
            if row and not row.dm_closed:
                c.outbox.append(("dm", row.user_id, {"game_id": game.id, "seat": seat}))
        await self._plan_turn(after, before, now, c, actors={s for s, _ in moves}, revealed=revealed)
        if game.pending.get("undo") or (game.pending.get("replace") and entries):
            c.game_fields["pending"] = {k: v for k, v in game.pending.items() if k != "undo"}
        c.clear_timers = [kind for kind in c.clear_timers if kind in game.timers]  # no statement for a timer not set
        try:
            await self.store.commit(game.id, c, now)
        except SeqConflict:
            self._cache.pop(game.id, None)
            raise Refusal("Someone else moved at the same moment, so your move was not applied; "
                          "look at the table and try again.") from None
        self._remember(game.id, (game.undos, last, state))
        if before is not None:
            self._before[game.id] = (game.undos, table.seq, before)
        if seat_order is None:
            table = Table(game.committed(c, now), engine, state, last)
        else:  # the start seats the players: read them back
            table = await self.load(game.id)
        await self._tell(Change(kind, table, entries=numbered, before=before))
        return table

    async def _plan_turn(self, table: Table, before: State | None, now: float, c: Commit, actors: set[int],
                         revealed: bool = False) -> None:
        """Pings, timers and status that follow from who the game now waits for."""
        engine, game, state = table.engine, table.game, table.state
        if engine.is_over(state):
            c.game_fields["status"] = "over"
            c.clear_timers += ["reminder", "autopass", "window"]
            c.outbox.append(("channel", game.channel_id, {"game_id": game.id, "kind": "over"}))
            return
        aw = engine.awaiting(state)
        key = {"seats": sorted(aw.pinged), "prompt": to_json(aw.prompt)}  # a prompt may be a message
        last = json.loads(game.last_ping_key) if game.last_ping_key else {"seats": [], "prompt": None}
        # A new turn: the game waits for something else, or a new secret step begins (after a
        # reveal, or after steps that were not secret). Else only newly awaited seats are new.
        new_step = aw.secret and (before is None or revealed or not engine.awaiting(before).secret)
        new_turn = last["prompt"] != key["prompt"] or new_step
        fresh = set(aw.pinged) if new_turn else set(aw.pinged) - set(last["seats"])
        if fresh - actors:
            users = [game.user_at(s).user_id for s in sorted(fresh - actors)]
            c.outbox.append(("channel", game.channel_id, {"game_id": game.id, "kind": "ping", "users": users}))
        if aw.secret:  # a secret choice is made in private: its panel goes to each player's DMs
            for s in sorted(fresh):
                row = game.user_at(s)
                dm = ("dm", row.user_id, {"game_id": game.id, "seat": s})
                if dm not in c.outbox and not row.dm_closed:
                    c.outbox.append(dm)
        if key != last:
            c.game_fields["last_ping_key"] = json.dumps(key)
        if game.reminder_hours > 0:
            c.timers.append(("reminder", now + game.reminder_hours * HOUR, {}))
        if game.autopass_hours > 0 and any(engine.auto_action(state, s) for s in aw.seats):
            c.timers.append(("autopass", now + game.autopass_hours * HOUR, {"seq": table.seq}))
        else:
            c.clear_timers.append("autopass")
        before_aw = engine.awaiting(before) if before is not None else None
        if aw.window:  # a window opens with its step and is not stretched by the choices in it
            if new_turn or not (before_aw and before_aw.window):
                c.timers.append(("window", now + aw.window, {"seq": table.seq}))
        else:
            c.clear_timers.append("window")

    # --- timers -------------------------------------------------------------------------
    async def fire(self, timer: TimerRow) -> None:
        """Run a due timer: a reminder, an auto-pass or the end of a choice window."""
        async with self.lock(timer.game_id):
            now_set = await self.store.timers(timer.game_id)
            if not any(t.kind == timer.kind and t.due_at == timer.due_at for t in now_set):
                return  # fired by another process meanwhile, or set anew by a move: the new one fires when due
            table = await self.load(timer.game_id)
            if table.game.status == "active":
                table = await self._settle(table)
            game, engine, state = table.game, table.engine, table.state
            if game.status != "active":
                await self.store.clear_timer(game.id)
                return
            aw = engine.awaiting(state)
            now = self.clock.now()
            if timer.kind == "reminder":
                users = [game.user_at(s).user_id for s in sorted(aw.pinged)]
                c = Commit(first_seq=table.seq + 1, entries=[],
                           timers=[("reminder", now + game.reminder_hours * HOUR, {})],
                           outbox=[("channel", game.channel_id, {"game_id": game.id, "kind": "reminder",
                                                                 "users": users})] if users else [])
                await self.store.commit(game.id, c, now)
                await self._tell(Change("timer", table, note="reminder"))
                return
            # the timer is cleared in the same commit as its move, so a crash in between cannot lose it
            if timer.kind == "autopass":
                moves = [(s, a) for s in sorted(aw.seats) if (a := engine.auto_action(state, s))]
                note = {"game_id": game.id, "kind": "autopass", "users": [game.user_at(s).user_id for s, _ in moves],
                        "secret": aw.secret, "labels": [to_json(engine.label(a)) for _, a in moves]}
                if moves:
                    await self._commit(table, moves, kind="timer", outbox=[("channel", game.channel_id, note)],
                                       clear=[timer.kind])
                    return
            elif timer.kind == "window" and (a := engine.expire(state)) is not None:
                await self._commit(table, [(CHANCE, a)], kind="timer", clear=[timer.kind],
                                   outbox=[("channel", game.channel_id, {"game_id": game.id, "kind": "window",
                                                                         "what": to_json(aw.prompt)})])
                return
            await self.store.clear_timer(game.id, timer.kind)

    # --- undo ---------------------------------------------------------------------------
    async def request_undo(self, game_id: int, user_id: int) -> tuple[Table, list[int]]:
        """Undo the requester's last action at once when it affects nobody else; otherwise open
        a vote and return the seats whose consent is needed."""
        async with self.lock(game_id):
            table = await self.load(game_id)
            seat = self.player_seat(table, user_id)
            rows = await self.store.actions(game_id, after_seq=table.seq - 1)
            if not rows:
                raise Refusal("There is nothing to undo yet.")
            last = rows[-1]
            if last.seat == CHANCE:
                raise Refusal("The last thing that happened was chance ({what}), and chance cannot be undone.",
                              what=chance_label(last.action) or msg("a draw"))
            if last.seat != seat:
                raise Refusal("You can only undo your own last move, and the last move was someone else's.")
            before = await self._state_before(table)
            if table.engine.reveals(before, seat, last.action, table.state):
                raise Refusal("That move revealed hidden information, so it cannot be undone.")
            need = sorted((set(table.engine.awaiting(table.state).seats) |
                           set(private_diff(table, before, table.state))) - {seat})
            if not need:
                return await self._undo(table, last.seq, before), []
            vote = new_vote(table.game)
            pending = dict(table.game.pending, last_vote=vote,
                           undo={"id": vote, "seq": last.seq, "seat": seat, "need": need, "yes": []})
            table = await self._notify(table, "vote", {"vote": vote, "about": "undo"}, pending=pending)
        return table, need

    async def _notify(self, table: Table, kind: str, notice: dict[str, Any], change: str = "vote",
                      **fields: Any) -> Table:
        """Store table fields and a channel notice (rendered when the outbox sends it) in one transaction,
        then tell the listeners. Under the game's lock."""
        game = table.game
        c = Commit(first_seq=table.seq + 1, entries=[], game_fields=fields,
                   outbox=[("channel", game.channel_id, {"game_id": game.id, "kind": kind, **notice})])
        if fields.get("status") == "abandoned":
            c.clear_timers += ["reminder", "autopass", "window"]
        await self.store.commit(game.id, c, self.clock.now())
        table = await self.load(game.id)
        await self._tell(Change(change, table))
        return table

    async def vote_undo(self, game_id: int, user_id: int, vote: int, yes: bool) -> Table:
        """A vote on the undo request ``vote`` (its id: a click on an older request never counts)."""
        async with self.lock(game_id):
            table = await self.load(game_id)
            seat = self.player_seat(table, user_id)
            req = table.game.pending.get("undo")
            if not req or req.get("id") != vote or table.seq != req["seq"]:
                raise Refusal("That undo request is no longer open.")
            if seat not in req["need"]:
                raise Refusal("Your consent is not needed for this undo.")
            pending = dict(table.game.pending)
            if not yes:
                pending.pop("undo")
                return await self._notify(table, "refused", {"about": "undo"}, pending=pending)
            req = dict(req, yes=sorted(set(req["yes"]) | {seat}))
            if set(req["yes"]) >= set(req["need"]):
                return await self._undo(table, req["seq"])
            return await self._notify(table, "vote", {"vote": vote, "about": "undo"}, pending=dict(pending, undo=req))

    async def _state_before(self, table: Table) -> State:
        return await self.state_at(table.game.id, table.seq - 1)

    async def _undo(self, table: Table, seq: int, before: State | None = None) -> Table:
        game = table.game
        if before is None:
            before = await self._state_before(table)
        aw = table.engine.awaiting(before)
        pending = {k: v for k, v in game.pending.items() if k != "undo"}
        # the undo, the notice, the DMs and the restored step's ping key: one transaction
        key = {"seats": sorted(aw.pinged), "prompt": to_json(aw.prompt)}
        c = Commit(first_seq=seq, entries=[], game_fields={"pending": pending, "last_ping_key": json.dumps(key)},
            outbox=[("channel", game.channel_id, {"game_id": game.id, "kind": "undone"})])
        undone = Table(game, table.engine, before, seq - 1)
        for s in private_diff(undone, table.state, before):
            row = game.user_at(s)
            if row and not row.dm_closed:
                c.outbox.append(("dm", row.user_id, {"game_id": game.id, "seat": s}))
        try:
            await self.store.undo_last(game.id, seq, self.clock.now(), game.undos, then=c)
        except SeqConflict:
            self._cache.pop(game.id, None)
            raise Refusal("Someone moved at the same moment, so nothing was undone.") from None
        self._remember(game.id, (game.undos + 1, seq - 1, before))
        table = await self.load(game.id)
        await self._tell(Change("undo", table))
        return table

    # --- ending and replacing ------------------------------------------------------------------
    async def abandon(self, game_id: int, user_id: int, is_admin: bool) -> Table | None:
        """End a table for good. A table that cannot be loaded is ended too (without a notice, which could not
        be shown): None is returned then."""
        async with self.lock(game_id):
            game = await self.store.game(game_id) if is_id(game_id) else None
            if game is None:
                raise Refusal("There is no table {id}.", id=game_id)
            if game.status not in ("lobby", "active"):
                raise Refusal("Table {id} has already ended.", id=game_id)
            if user_id != game.creator_id and not is_admin:
                raise Refusal("Only the table's creator or a member with Manage Server can abandon it.")
            try:
                table = await self._load(game)
            except Unloadable:
                await self.store.update_game(game_id, self.clock.now(), status="abandoned")
                await self.store.clear_timer(game_id)
                return None
            return await self._notify(table, "abandoned", {}, change="abandoned", status="abandoned")

    async def replace(self, game_id: int, user_id: int, seat: int, new_user: int, new_name: str,
                      is_admin: bool) -> tuple[Table, bool]:
        """A member with Manage Server replaces at once; a player opens a vote (see ``replacement_passes``).
        Returns the table and whether the replacement is done."""
        async with self.lock(game_id):
            table = await self.load(game_id)
            game = table.game
            if game.status != "active":
                raise Refusal("Table {id} is not in play.", id=game_id)
            if type(seat) is not int or game.user_at(seat) is None:
                raise Refusal("Table {id} has no seat {seat}.", id=game_id,
                              seat=seat + 1 if type(seat) is int else str(seat))
            if game.seat_of(new_user) is not None:
                raise Refusal("{name} is already playing at table {id}.", name=new_name, id=game_id)
            if is_admin:
                return await self._do_replace(table, seat, new_user, new_name), True
            proposer = self.player_seat(table, user_id)
            if proposer == seat:
                raise Refusal("To hand over your own seat, ask another player or a member with Manage Server "
                              "to propose it; you can then agree.")
            vote = new_vote(game)
            req = {"id": vote, "seat": seat, "user": new_user, "name": new_name, "by": proposer,
                   "yes": [proposer], "ask": await self._active(game, seat)}
            return await self._replace_vote(table, dict(game.pending, last_vote=vote, replace=req))

    async def _replace_vote(self, table: Table, pending: dict[str, Any]) -> tuple[Table, bool]:
        """Store a proposal's votes; carry it out when it passes, else post where the vote stands."""
        req = pending["replace"]
        if replacement_passes(table.game, req):
            return await self._do_replace(table, req["seat"], req["user"], req["name"], pending), True
        return await self._notify(table, "vote", {"vote": req["id"], "about": "replace"}, pending=pending), False

    async def _active(self, game: GameRow, seat: int) -> bool:
        """Whether the seat's player moved within the table's reminder time (a day when it has none)."""
        last = await self.store.last_move_at(game.id, seat)
        return last is not None and self.clock.now() - last < (game.reminder_hours or 24) * HOUR

    async def vote_replace(self, game_id: int, user_id: int, vote: int, yes: bool) -> tuple[Table, bool]:
        """A vote on the replacement proposal ``vote`` (its id: a click on an older proposal never counts)."""
        async with self.lock(game_id):
            table = await self.load(game_id)
            voter = self.player_seat(table, user_id)
            req = table.game.pending.get("replace")
            if not req or req.get("id") != vote:
                raise Refusal("That replacement proposal is no longer open.")
            pending = dict(table.game.pending)
            if not yes:
                pending.pop("replace")
                return await self._notify(table, "refused", {"about": "replacement"}, pending=pending), False
            return await self._replace_vote(table, dict(pending, replace=dict(req, yes=sorted({*req["yes"], voter}))))

    async def _do_replace(self, table: Table, seat: int, user_id: int, name: str,
                          pending: dict[str, Any] | None = None) -> Table:
        game = table.game
        pending = {k: v for k, v in (game.pending if pending is None else pending).items() if k != "replace"}
        c = Commit(first_seq=table.seq + 1, entries=[], game_fields={"pending": pending},
                   seat_user=(seat, user_id, name),
                   outbox=[("channel", game.channel_id, {"game_id": game.id, "kind": "replaced", "name": name}),
                           ("dm", user_id, {"game_id": game.id, "seat": seat})])
        await self.store.commit(game.id, c, self.clock.now())
        table = await self.load(game.id)
        await self._tell(Change("replaced", table, note=name))
        return table

    # --- reading -----------------------------------------------------------------------------
    async def export(self, game_id: int) -> dict[str, Any]:
        """The table's whole log: for an 18xx title in 18xx.games's export format (which the site's tools load and
        `python -m bot replay` reads too), else in ours (engines/log.py)."""
        table = await self.load(game_id)
        rows = await self.store.actions(game_id)
        players = [s.name for s in table.game.in_seat_order()]
        if isinstance(table.engine, E18xxGame):
            try:
                return export_game(table.engine.name, table.game.options, players, [(a.seat, a.action) for a in rows],
                                   game_id=game_id,
                                   description=tr(None, "Table {id}, played in Discord", id=game_id))
            except NotExportable as e:
                raise Refusal("Table {id} cannot be exported for 18xx.games: {why}", id=game_id,
                              why=e.msg) from None
        return export_log(table.engine, table.game.options, players, [(a.seq, a.seat, a.action) for a in rows])

    async def resolve(self, place: Place, table_id: int | None = None,
                      kind: Callable[[str], bool] | None = None, what: str = "open") -> int:
        """The table a command means: the one named, if it answers here; else the only open table here
        (preferring one the user sits at) whose engine ``kind`` accepts. In a DM: the user's own tables."""
        if table_id is not None:
            game = place.check(await self.store.game(table_id) if is_id(table_id) else None, table_id)
            if kind is not None and not kind(game.engine):
                named = KINDS.get(what, what)
                if what[0] in "AEIOU8":  # "an 18xx table"
                    raise Refusal("Table {id} is not an {what} table.", id=table_id, what=named)
                raise Refusal("Table {id} is not a {what} table.", id=table_id, what=named)
            return table_id
        if place.guild_id is None:
            games = await self.store.games(user_id=place.user_id)
        else:
            games = [g for c in place.channels for g in await self.store.games(channel_id=c)]
        games = [g for g in games if place.sees(g) and (kind is None or kind(g.engine))]
        mine = [g for g in games if g.seat_of(place.user_id) is not None]
        pick = mine if len(mine) == 1 else games
        if len(pick) == 1:
            return pick[0].id
        dm, named = place.guild_id is None, KINDS.get(what, what)
        if not pick:
            if what == "open":
                raise Refusal(msg("There is no open table you play at; start one with `/game create`.") if dm else
                              msg("There is no open table in this channel; start one with `/game create`."))
            raise Refusal(msg("There is no {what} table you play at; start one with `/game create`.", what=named)
                          if dm else msg("There is no {what} table in this channel; start one with `/game create`.",
                                         what=named))
        ids = ", ".join(str(g.id) for g in pick)
        if what == "open":
            raise Refusal(msg("You play at several open tables ({ids}); name one with the `table` option.", ids=ids)
                          if dm else msg("This channel has several open tables ({ids}); name one with the `table` "
                                         "option.", ids=ids))
        raise Refusal(msg("You play at several {what} tables ({ids}); name one with the `table` option.", ids=ids,
                          what=named) if dm else
                      msg("This channel has several {what} tables ({ids}); name one with the `table` option.",
                          ids=ids, what=named))

__all__ = ["TableService", "Table", "Change", "replace_votes_needed"]
