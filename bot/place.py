"""Where a request comes from, and which tables it may reach.

A table belongs to its server and channel: it answers in that channel and in threads of it, and in DMs
only to its own players (their move panels are sent there). Anywhere else it does not exist, whatever id
is sent: the sentence is the same as for an id no table has, so nothing is learnt by trying ids."""
from __future__ import annotations

from dataclasses import dataclass

from bot.errors import Refusal
from engines.text import Msg, msg
from storage.base import GameRow


@dataclass(frozen=True)
class Place:
    user_id: int
    guild_id: int | None  # None: a DM
    channel_id: int | None
    parent_id: int | None = None  # the channel a thread belongs to
    manager: bool = False  # has Manage Server in this server

    @classmethod
    def of(cls, interaction) -> Place:
        channel = interaction.channel
        perms = getattr(interaction.user, "guild_permissions", None)
        return cls(user_id=interaction.user.id, guild_id=interaction.guild_id,
                   channel_id=interaction.channel_id, parent_id=getattr(channel, "parent_id", None),
                   manager=bool(interaction.guild_id and perms and perms.manage_guild))

    @property
    def channels(self) -> tuple[int, ...]:
        """The channels whose tables answer here: this one and, in a thread, the channel it is in."""
        return tuple(c for c in (self.channel_id, self.parent_id) if c is not None)

    def sees(self, game: GameRow) -> bool:
        if self.guild_id is None:
            return game.seat_of(self.user_id) is not None
        return game.guild_id == self.guild_id and game.channel_id in self.channels

    def manages(self, game: GameRow) -> bool:
        """Manage Server counts only in the table's own server."""
        return self.manager and self.guild_id is not None and game.guild_id == self.guild_id

    def check(self, game: GameRow | None, game_id: int) -> GameRow:
        if game is None or not self.sees(game):
            raise Refusal(nowhere(game_id))
        return game


def nowhere(game_id: int) -> Msg:
    """The sentence for a table that is not here (``str()`` of it is the English)."""
    return msg("There is no table {id} here.", id=game_id)
