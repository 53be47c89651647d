"""The outbox loop, with no Discord in it: every pending row (DM, channel notice, narration), in id order,
goes to ``deliver``, which sends it and marks it sent or failed. The bot's delivery (bot/delivery.py) gives
the Discord side; the crash test gives a recording one. Waiting is the owner's too (``rest``), because the
bot parks in Client.wait_for, which SimCord recognises as idle."""
from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from storage.base import OutboxRow, Store

log = logging.getLogger("bot.outbox")

#: poke() makes the loop look again at once; this slow poll only catches rows another process queued.
SAFETY_POLL = 3600.0
RETRY_AFTER = 30.0


class Outbox:
    def __init__(self, store: Store, deliver: Callable[[OutboxRow], Awaitable[None]],
                 rest: Callable[[float], Awaitable[None]]):
        self.store, self.deliver, self.rest = store, deliver, rest
        self._dirty = True  # set when a commit may have queued something
        self._stopping = False

    async def run(self) -> None:
        """Deliver pending rows until stopped."""
        while not self._stopping:
            self._dirty = False
            try:
                rows = await self.store.pending()
                for row in rows:
                    if self._stopping:
                        return
                    await self.deliver(row)
            except Exception:  # a failing pass must not stop the outbox for good
                log.exception("outbox pass failed; retrying shortly")
                await self.rest(RETRY_AFTER)
                continue
            if not rows and not self._dirty:
                await self.rest(SAFETY_POLL)

    def poke(self) -> None:
        """Something may have been queued: look again before resting (the owner also wakes ``rest``)."""
        self._dirty = True

    def stop(self) -> None:
        self._stopping = True
