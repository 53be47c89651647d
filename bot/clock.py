"""Time as an injectable dependency, so timers can be driven by a fake clock in tests."""
from __future__ import annotations

import discord


class SystemClock:
    """Wall-clock seconds since the epoch, read through discord.py so that a simulated
    Discord (SimCord) moves it with its virtual clock."""

    def now(self) -> float:
        return discord.utils.utcnow().timestamp()


class FakeClock:
    def __init__(self, start: float = 1_800_000_000.0):
        self.t = start

    def now(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds
