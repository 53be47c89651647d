"""The one timer dispatcher: reminders, auto-pass and choice windows live in the database,
so they survive restarts; this task fires whatever is due.

With several processes on one database each runs a dispatcher: a due timer is claimed (Store.claim_timers) by one
of them for ``CLAIM_LEASE`` seconds and fired under the table's lock, which every process honours; a process that
dies holding a claim lets another fire the timer when the lease ends. A store one process owns (SQLite) needs no
claim."""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.app import BoardBot

log = logging.getLogger("bot.timers")
MAX_SLEEP = 3600.0
#: With other processes on the database: the longest sleep, so a timer another process left behind is not late long.
SHARED_SLEEP = 60.0
RETRY_AFTER = 30.0
#: How long a claimed timer is the claimer's: far longer than firing one takes.
CLAIM_LEASE = 120.0
WAKE_EVENT = "timers_changed"  # dispatched after each commit, since it may set an earlier timer


#: A timer that fails (the database busy, a bug) is tried again later, this many times, each wait twice the last.
TRIES = 6


async def run_due(bot: BoardBot) -> int:
    fired = 0
    store = bot.tables.store
    now = bot.clock.now()
    due = await store.claim_timers(now, now + CLAIM_LEASE) if store.shared else await store.due_timers(now)
    for timer in due:
        try:
            await bot.tables.fire(timer)
        except Exception:
            failed = int(timer.payload.get("failed", 0)) + 1
            log.exception("timer %s of table %s failed (%s of %s)", timer.kind, timer.game_id, failed, TRIES)
            if failed < TRIES:  # not dropped: a lost auto-pass would leave the table waiting for ever
                await store.set_timer(timer.game_id, timer.kind, bot.clock.now() + RETRY_AFTER * 2 ** (failed - 1),
                                      dict(timer.payload, failed=failed))
            else:
                await store.clear_timer(timer.game_id, timer.kind)
        fired += 1
    return fired


async def dispatcher(bot: BoardBot) -> None:
    while True:
        try:
            await run_due(bot)
            due = await bot.tables.store.next_timer_due()
            longest = SHARED_SLEEP if bot.tables.store.shared else MAX_SLEEP
            delay = longest if due is None else min(longest, max(0.0, due - bot.clock.now()))
        except Exception:  # a failing pass must not stop the timers for good
            log.exception("timer pass failed; retrying shortly")
            delay = RETRY_AFTER
        if delay <= 0:
            continue
        # Client.wait_for parks cleanly (also under SimCord) and a commit wakes it early.
        try:
            await bot.wait_for(WAKE_EVENT, timeout=delay)
        except TimeoutError:
            pass
