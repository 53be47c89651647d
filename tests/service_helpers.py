"""A TableService on a real store (a SQLite file, or a PostgreSQL database's URL), without Discord: seating
players and choosing legal moves the way the move panel offers them."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from bot.clock import FakeClock
from bot.tables import Table, TableService
from tests.stores import make_store

PLAYERS = [(101, "ann"), (102, "ben"), (103, "cat"), (104, "dan"), (105, "eve")]
CHANNEL = 555


async def open_service(path: str | Path, *, seed: int = 0, snapshot_every: int = 20,
                       clock: FakeClock | None = None) -> TableService:
    store = make_store(path)
    await store.open()
    return TableService(store, clock or FakeClock(), rng=random.Random(seed), snapshot_every=snapshot_every)


async def started_table(service: TableService, players: int = 3, options: dict[str, Any] | None = None,
                        random_seats: bool = True) -> int:
    """Create, join and start a Dice & Hands table through the service API; returns its id."""
    creator, name = PLAYERS[0]
    table = await service.create(guild_id=1, channel_id=CHANNEL, engine_name="dicehand", user_id=creator,
                                 name=name, options=dict(options or {}), max_players=players,
                                 random_seats=random_seats)
    gid = table.game.id
    for uid, uname in PLAYERS[1:players]:
        await service.join(gid, uid, uname)
    await service.start(gid, creator)
    return gid


def user_at(table: Table, seat: int) -> int:
    return table.game.user_at(seat).user_id


def seats_that_may_move(table: Table) -> list[int]:
    """Seats with a legal move now (in the secret choice, also those changing their mind)."""
    engine, state = table.engine, table.state
    return [s for s in range(len(table.game.seats)) if engine.legal(state, s)]


def random_move(table: Table, rng: random.Random, change_mind: float = 0.1) -> tuple[int, int, dict[str, Any]]:
    """(user_id, seat, action): an awaited seat and one of its legal moves; with probability
    ``change_mind`` any seat that may move (in a secret choice, one that already chose)."""
    seats = seats_that_may_move(table)
    assert seats, "an active table awaits a seat that has no legal move"
    awaited = sorted(table.engine.awaiting(table.state).seats & set(seats))
    seat = rng.choice(seats if not awaited or rng.random() < change_mind else awaited)
    return user_at(table, seat), seat, rng.choice(table.engine.legal(table.state, seat))
