"""Every Discord API call the table runtime makes goes through here: the table's public
message, the outbox of DMs and channel pings, and the closed-DM fallback."""
from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING

import discord

from bot.i18n import tr
from bot.outbox import Outbox
from bot.present import presenter_for
from bot.table_ui import game_title, hand_view, notice_text, table_message, vote_message
from bot.tables import Change, Table
from storage.base import OutboxRow

if TYPE_CHECKING:
    from bot.app import BoardBot

log = logging.getLogger("bot.delivery")

#: The table message counts as scrolled away when this many newer messages sit below it.
SCROLL_LIMIT = 8
OUTBOX_EVENT = "outbox_ready"
#: Discord error code for "Cannot send messages to this user".
DM_CLOSED = 50007
#: A message Discord refuses is tried this many times in all, over about half an hour (retry_delay).
TRIES = 8


def retry_delay(attempts: int) -> float:
    """Seconds to wait after the failed attempt number ``attempts + 1``: 5 s, 15 s, 45 s, ... up to 10 minutes."""
    return min(5.0 * 3 ** attempts, 600.0)


def channel_link(game) -> str:
    if game.guild_id:
        return f"https://discord.com/channels/{game.guild_id}/{game.channel_id}"
    return f"<#{game.channel_id}>"


class Delivery:
    def __init__(self, bot: BoardBot):
        self.bot = bot
        self.outbox: Outbox | None = None  # made when the loop starts
        self._stopping = False

    # --- the table's public message ------------------------------------------------
    async def on_change(self, change: Change) -> None:
        """After a commit: wake the outbox (it carries the narration, notices, pings and DMs the commit
        queued, exactly once) and show the table as it now stands."""
        self.poke()
        await self.show_table(change.table)

    async def _channel(self, channel_id: int) -> discord.abc.Messageable | None:
        ch = self.bot.get_channel(channel_id)
        if ch is None:
            try:
                ch = await self.bot.fetch_channel(channel_id)
            except discord.HTTPException:
                log.warning("channel %s is gone", channel_id)
                return None
        return ch

    async def show_table(self, table: Table, only_if_scrolled: bool = False) -> None:
        """Edit the table message in place, or post it anew below when it has scrolled away (with
        ``only_if_scrolled``, leave it alone unless it has)."""
        ch = await self._channel(table.game.channel_id)
        if ch is None:
            return
        embed, view = table_message(table)
        game = table.game
        if game.message_id is not None:
            old = ch.get_partial_message(game.message_id)
            if not await self._scrolled_away(ch, game.message_id):
                if only_if_scrolled:
                    return
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

    # --- the outbox ------------------------------------------------------------------
    async def run_outbox(self) -> None:
        """Send pending DMs, notices and narration, each route in order and paced (see bot/outbox.py), until
        closed."""
        settings = self.bot.settings
        self.outbox = Outbox(self.bot.tables.store, self._deliver, self._rest,
                             lambda: self.bot.dispatch(OUTBOX_EVENT), now=self.bot.clock.now,
                             interval=settings.dm_interval, rate=settings.send_rate)
        if self._stopping:
            self.outbox.stop()
        await self.outbox.run()

    async def _rest(self, seconds: float) -> None:
        """Wait for poke() or the timeout. Client.wait_for parks cleanly, also under SimCord."""
        try:
            await self.bot.wait_for(OUTBOX_EVENT, timeout=seconds)
        except TimeoutError:
            pass

    def poke(self) -> None:
        if self.outbox is not None:
            self.outbox.poke()
        self.bot.dispatch(OUTBOX_EVENT)

    def stop(self) -> None:
        self._stopping = True
        if self.outbox is not None:
            self.outbox.stop()
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
            log.warning("outbox %s failed (attempt %s of %s): %s", row.id, row.attempts + 1, TRIES, e.status)
            if row.attempts + 1 < TRIES:  # Discord may be down for minutes: wait longer each time
                await store.mark_failed(row.id, None, retry_at=self.bot.clock.now() + retry_delay(row.attempts))
                return
            await store.mark_failed(row.id, f"http {e.status}")
            if row.kind == "dm":  # never delivered: the player is told in the channel where to look instead
                await self._tell_in_channel(row, "dm_failed")
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
        queued = await tables.store.pending(100, route=row.route)
        later = [r for r in queued if r.id > row.id and r.payload == row.payload]
        if later:
            return  # a newer copy of the same view is queued; send only that one
        user = self.bot.get_user(row.target_id) or await self.bot.fetch_user(row.target_id)
        pres = presenter_for(table.engine.name)
        game = table.game
        lang = sitter.lang or game.lang  # the player's own language, else the table's
        head = tr(lang, "**Table {id} · {title}** — {link}", id=game.id, title=game_title(table.engine, lang),
                  link=channel_link(game))
        body = "\n".join(pres.private_lines(table, seat, lang=lang))
        await self.outbox.pace(row)
        await user.send(f"{head}\n{body}"[:2000], view=hand_view(table, seat, lang), nonce=f"ob{row.id}")

    async def _send_channel(self, row: OutboxRow) -> None:
        payload = row.payload
        if payload["kind"] == "announce":
            return await self._send_announce(row)
        table = await self.bot.tables.load(payload["game_id"])
        view = None
        if payload["kind"] == "vote":
            content, users, view = vote_message(table, payload["about"], payload["vote"])
        else:
            content, users = notice_text(table, payload), payload.get("users", [])
        if content:
            await self._post(row, 0, content, users, view=view)

    async def _send_announce(self, row: OutboxRow) -> None:
        """A change's narration, rebuilt from the log when it is sent: its lines, each with its picture."""
        p = row.payload
        change = await self.bot.tables.change_at(p["game_id"], p["first"], p["last"], p["digest"])
        if change is None:
            return  # the moves it told of were undone before it went out
        # Drawing a picture takes tens of milliseconds (a late 1889 map, PNG encoding): done in a worker thread,
        # the event loop meanwhile answers other players. The change is a fresh copy, nobody else's to mutate.
        lines = await asyncio.to_thread(presenter_for(change.table.engine.name).announce, change,
                                        lang=change.table.game.lang)
        for part, (text, picture) in enumerate(lines):
            await self._post(row, part, text, picture=picture)
        if lines:
            await self.show_table(await self.bot.tables.load(p["game_id"]), only_if_scrolled=True)

    async def _post(self, row: OutboxRow, part: int, content: str, users: list[int] | None = None,
                    view: discord.ui.View | None = None, picture: bytes | None = None) -> None:
        """One channel message of an outbox row; its nonce makes a resend after a crash a no-op on Discord."""
        ch = await self._channel(row.target_id)
        if ch is None:
            return
        allowed = discord.AllowedMentions(users=[discord.Object(u) for u in users or []], roles=False, everyone=False)
        kwargs: dict = {"view": view} if view is not None else {}
        if picture is not None:
            kwargs["file"] = discord.File(io.BytesIO(picture), filename=f"table-{row.game_id}.png")
        await self.outbox.pace(row)
        await ch.send(content[:2000], allowed_mentions=allowed, nonce=f"ob{row.id}.{part}", **kwargs)

    async def _dms_closed(self, row: OutboxRow) -> None:
        store = self.bot.tables.store
        await store.mark_failed(row.id, "dms closed")
        already = await store.dm_closed(row.target_id)
        await store.set_dm_closed(row.target_id, True)
        if not already:
            await self._tell_in_channel(row, "dms_closed")

    async def _tell_in_channel(self, row: OutboxRow, kind: str) -> None:
        """A DM that cannot reach its player: a notice in the table's channel points them to the table's button."""
        game = (await self.bot.tables.load(row.payload["game_id"])).game
        await self.bot.tables.store.enqueue("channel", game.channel_id, game.id,
                                            {"game_id": game.id, "kind": kind, "users": [row.target_id]},
                                            self.bot.clock.now())
        self.poke()
