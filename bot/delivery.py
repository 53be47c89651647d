"""Every Discord API call the table runtime makes goes through here: the table's public
message, the outbox of DMs and channel pings, and the closed-DM fallback."""
from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING

import discord

from bot.present import presenter_for
from bot.table_ui import hand_view, notice_text, table_message, vote_message
from bot.tables import Change, Table
from storage.base import OutboxRow

if TYPE_CHECKING:
    from bot.app import BoardBot

log = logging.getLogger("bot.delivery")

#: The table message counts as scrolled away when this many newer messages sit below it.
SCROLL_LIMIT = 8
OUTBOX_EVENT = "outbox_ready"
#: poke() wakes the outbox at once; this slow poll only catches rows another process queued.
SAFETY_POLL = 3600.0
RETRY_AFTER = 30.0
#: Discord error code for "Cannot send messages to this user".
DM_CLOSED = 50007


def channel_link(game) -> str:
    if game.guild_id:
        return f"https://discord.com/channels/{game.guild_id}/{game.channel_id}"
    return f"<#{game.channel_id}>"


class Delivery:
    def __init__(self, bot: BoardBot):
        self.bot = bot
        self._dirty = True  # set when a commit may have queued something
        self._stopping = False

    # --- the table's public message ------------------------------------------------
    async def on_change(self, change: Change) -> None:
        self.poke()  # the commit may have queued DMs or pings
        if change.kind in ("action", "started", "timer") and change.entries:
            for text, picture in presenter_for(change.table.engine.name).announce(change):
                await self._say(change.table, text, file=picture)
        await self.show_table(change.table)
        if change.kind == "vote":
            await self._post_vote(change.table, change.note)
        elif change.kind in ("undo", "replaced", "abandoned"):
            await self._say(change.table, self._event_text(change))

    def _event_text(self, change: Change) -> str:
        g = change.table.game
        if change.kind == "undo":
            return f"Table {g.id}: the last move was undone."
        if change.kind == "replaced":
            return f"Table {g.id}: {change.note} takes over a seat."
        return f"Table {g.id} was abandoned."

    async def _channel(self, channel_id: int) -> discord.abc.Messageable | None:
        ch = self.bot.get_channel(channel_id)
        if ch is None:
            try:
                ch = await self.bot.fetch_channel(channel_id)
            except discord.HTTPException:
                log.warning("channel %s is gone", channel_id)
                return None
        return ch

    async def _say(self, table: Table, content: str, users: list[int] | None = None,
                   view: discord.ui.View | None = None, file: bytes | None = None) -> discord.Message | None:
        ch = await self._channel(table.game.channel_id)
        if ch is None:
            return None
        allowed = discord.AllowedMentions(users=[discord.Object(u) for u in users or []], roles=False,
                                          everyone=False)
        kwargs: dict = {"view": view} if view is not None else {}
        if file is not None:
            kwargs["file"] = discord.File(io.BytesIO(file), filename=f"table-{table.game.id}.png")
        return await ch.send(content[:2000], allowed_mentions=allowed, **kwargs)

    async def show_table(self, table: Table) -> None:
        ch = await self._channel(table.game.channel_id)
        if ch is None:
            return
        embed, view = table_message(table)
        game = table.game
        if game.message_id is not None:
            old = ch.get_partial_message(game.message_id)
            if not await self._scrolled_away(ch, game.message_id):
                try:
                    await old.edit(embed=embed, view=view)
                    return
                except discord.NotFound:
                    pass
            else:
                try:  # leave the old message as a record, without live buttons
                    await old.edit(view=None)
                except discord.HTTPException:
                    pass
        msg = await ch.send(embed=embed, view=view)
        await self.bot.tables.store.update_game(game.id, self.bot.clock.now(), message_id=msg.id)

    async def _scrolled_away(self, ch, message_id: int) -> bool:
        newer = [m async for m in ch.history(limit=SCROLL_LIMIT + 1, after=discord.Object(message_id))]
        return len(newer) > SCROLL_LIMIT

    async def _post_vote(self, table: Table, note: str) -> None:
        content, users, view = vote_message(table, note)
        if content:
            await self._say(table, content, users, view)

    # --- the outbox ------------------------------------------------------------------
    async def run_outbox(self) -> None:
        """Send pending DMs and pings in order, no faster than one per dm_interval, until closed."""
        while not self._stopping:
            self._dirty = False
            try:
                rows = await self.bot.tables.store.pending()
                for row in rows:
                    await self._pace()
                    if self._stopping:
                        return
                    await self._deliver(row)
            except Exception:  # a failing pass must not stop the outbox for good
                log.exception("outbox pass failed; retrying shortly")
                rows = []
                await self._rest(RETRY_AFTER)
                continue
            if not rows and not self._dirty:
                await self._rest(SAFETY_POLL)

    async def _rest(self, seconds: float) -> None:
        """Wait for poke() or the timeout. Client.wait_for parks cleanly, also under SimCord."""
        try:
            await self.bot.wait_for(OUTBOX_EVENT, timeout=seconds)
        except TimeoutError:
            pass

    async def _pace(self) -> None:
        """Wait until dm_interval has passed since the last message sent, by the stored send
        times, so the pace holds across a restart too."""
        interval = self.bot.settings.dm_interval
        if interval:
            last = await self.bot.tables.store.last_sent()
            if last is not None and (wait := last + interval - self.bot.clock.now()) > 0:
                await asyncio.sleep(wait)

    def poke(self) -> None:
        self._dirty = True
        self.bot.dispatch(OUTBOX_EVENT)

    def stop(self) -> None:
        self._stopping = True
        self.bot.dispatch(OUTBOX_EVENT)

    async def _deliver(self, row: OutboxRow) -> None:
        store = self.bot.tables.store
        try:
            if row.kind == "dm":
                await self._send_dm(row)
            else:
                await self._send_channel(row)
        except discord.Forbidden as e:
            if e.code == DM_CLOSED and row.kind == "dm":
                await self._dms_closed(row)
                return
            log.warning("outbox %s forbidden: %s", row.id, e.code)
            await store.mark_failed(row.id, f"forbidden {e.code}")
            return
        except discord.HTTPException as e:
            if row.attempts >= 4:
                await store.mark_failed(row.id, f"http {e.status}")
            else:
                await store.mark_failed(row.id, None)
            log.warning("outbox %s failed (attempt %s): %s", row.id, row.attempts + 1, e.status)
            return
        except Exception:
            log.exception("outbox %s could not be rendered", row.id)
            await store.mark_failed(row.id, "render error")
            return
        await store.mark_sent(row.id, self.bot.clock.now())

    async def _send_dm(self, row: OutboxRow) -> None:
        tables = self.bot.tables
        gid, seat = row.payload["game_id"], row.payload["seat"]
        table = await tables.load(gid)
        sitter = table.game.user_at(seat)
        if sitter is None or sitter.user_id != row.target_id or table.state is None:
            return  # the seat changed hands since: its secrets are no longer this user's
        later = [r for r in await tables.store.pending(500) if r.id > row.id and r.kind == "dm"
                 and r.target_id == row.target_id and r.payload == row.payload]
        if later:
            return  # a newer copy of the same view is queued; send only that one
        user = self.bot.get_user(row.target_id) or await self.bot.fetch_user(row.target_id)
        pres = presenter_for(table.engine.name)
        game = table.game
        head = f"**Table {game.id} · {table.engine.title}** — {channel_link(game)}"
        body = "\n".join(pres.private_lines(table, seat))
        await user.send(f"{head}\n{body}"[:2000], view=hand_view(table, seat), nonce=f"ob{row.id}")

    async def _send_channel(self, row: OutboxRow) -> None:
        table = await self.bot.tables.load(row.payload["game_id"])
        content = notice_text(table, row.payload)
        if content:
            ch = await self._channel(row.target_id)
            if ch is None:
                return
            allowed = discord.AllowedMentions(users=[discord.Object(u) for u in row.payload.get("users", [])],
                                              roles=False, everyone=False)
            await ch.send(content, allowed_mentions=allowed, nonce=f"ob{row.id}")

    async def _dms_closed(self, row: OutboxRow) -> None:
        store = self.bot.tables.store
        await store.mark_failed(row.id, "dms closed")
        already = await store.dm_closed(row.target_id)
        await store.set_dm_closed(row.target_id, True)
        if not already:
            table = await self.bot.tables.load(row.payload["game_id"])
            await self._say(table, f"<@{row.target_id}>, your DMs are closed, so I can't send you your hand. "
                                   "Use the **My hand** button on the table message to see it; "
                                   "`/game dms` turns DMs back on once you have opened them.",
                            users=[row.target_id])
