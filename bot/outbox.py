"""The outbox loop, with no Discord in it: pending rows (DMs, channel notices, narration) go to ``deliver``, which
sends them and marks them sent or failed. The bot's delivery (bot/delivery.py) gives the Discord side; the crash
test gives a recording one.

Discord limits a bot per route (each channel, each DM) and overall, so the outbox does too: every recipient or
channel is a route whose messages go in order, no closer together than ``interval``; routes go side by side, and
all of them together no faster than ``rate`` messages a second. A busy table therefore never holds up another
table's channel or a player's DM. A failed row waits (its ``due_at``), holding back only its own route.

Several processes on one database (PostgreSQL) each run an outbox: a pass claims the rows it is about to send
(Store.claim_outbox) for ``lease`` seconds, so exactly one process sends each row. Only a route's oldest row is
ever claimed, so a route stays in order whichever process sends it; a process that dies holding a claim lets
another send the row when the lease ends. A store one process owns (SQLite) needs no claim, which would cost a
durable write a pass, and a restart after a crash sends at once what the crash left.

Waiting for work is the owner's (``rest``, woken by ``wake``), because the bot parks in Client.wait_for, which
SimCord recognises as idle."""
from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Awaitable, Callable

from storage.base import OutboxRow, Store

log = logging.getLogger("bot.outbox")

#: poke() makes the loop look again at once; this slow poll only catches rows another process queued.
SAFETY_POLL = 3600.0
#: With other processes on the database: how often to look for rows they queued, or left claimed when they died.
SHARED_POLL = 30.0
#: How long a claimed row is the claimer's: far longer than sending one row takes (its pictures, its pacing).
CLAIM_LEASE = 120.0
RETRY_AFTER = 30.0
#: Routes looked at in one pass (the oldest first); the rest wait for the next pass.
ROUTES_PER_PASS = 200


class Outbox:
    def __init__(self, store: Store, deliver: Callable[[OutboxRow], Awaitable[None]],
                 rest: Callable[[float], Awaitable[None]], wake: Callable[[], None], *,
                 now: Callable[[], float], interval: float = 0.0, rate: float = 0.0, lease: float | None = None):
        self.store, self.deliver, self.rest, self.wake, self.now = store, deliver, rest, wake, now
        self.interval, self.rate = interval, rate
        self.lease = CLAIM_LEASE if lease is None else lease
        self.poll = SHARED_POLL if store.shared else SAFETY_POLL
        self._dirty = True  # set when a commit may have queued something
        self._stopping = False
        self._route_free: dict[tuple[str, int], float] = {}  # route -> when it may send again

    async def run(self) -> None:
        """Deliver pending rows until stopped: each pass sends the oldest due row of every route, side by side."""
        while not self._stopping:
            self._dirty = False
            try:
                heads = await self.store.route_heads(ROUTES_PER_PASS)
                now = self.now()
                due = [row for row in heads if self._ready_at(row) <= now]
                if self.rate:  # at most a second's worth of the overall rate in one pass
                    due = due[:max(1, int(self.rate))]
                if due and self.store.shared:  # another process may be sending some of them: those are its own
                    mine = set(await self.store.claim_outbox([row.id for row in due], now, now + self.lease))
                    due = [row for row in due if row.id in mine]
                if due:
                    await asyncio.gather(*(self._one(row) for row in due))
                    self._forget_idle_routes()
                    if self.rate:  # the next pass waits its turn of the overall rate
                        await asyncio.sleep(len(due) / self.rate)
                    continue
            except Exception:  # a failing pass must not stop the outbox for good
                log.exception("outbox pass failed; retrying shortly")
                await self.rest(RETRY_AFTER)
                continue
            if not self._dirty:
                later = min((self._ready_at(row) for row in heads), default=math.inf)
                await self.rest(min(self.poll, later - now))

    def _ready_at(self, row: OutboxRow) -> float:
        return max(row.due_at, row.claimed_until, self._route_free.get(row.route, 0.0))

    async def _one(self, row: OutboxRow) -> None:
        if self._stopping:
            return
        try:
            await self.deliver(row)
        except Exception:  # one row's failure holds back its own route a while; the others go on
            log.exception("outbox row %s failed; its route waits", row.id)
            self._route_free[row.route] = self.now() + RETRY_AFTER

    async def pace(self, row: OutboxRow) -> None:
        """Before each message: wait for the row's route to allow one more (only a row of several messages, such
        as narration with pictures, ever waits here; the overall rate is kept between passes)."""
        now = self.now()
        at = max(now, self._route_free.get(row.route, 0.0))
        self._route_free[row.route] = at + self.interval  # taken before sleeping: a concurrent sender queues after
        if at > now:
            await asyncio.sleep(at - now)

    def _forget_idle_routes(self) -> None:
        now = self.now()
        self._route_free = {r: t for r, t in self._route_free.items() if t > now}

    def poke(self) -> None:
        """Something may have been queued: look again before resting."""
        self._dirty = True
        self.wake()

    def stop(self) -> None:
        self._stopping = True
        self.wake()
