"""Game engines: pure rules, one package per game. ``get(name)`` finds one."""
from __future__ import annotations

from engines.base import Engine


def _all() -> dict[str, Engine]:
    from engines.boss import Boss
    from engines.dicehand import DiceHand
    from engines.e18xx.game import BigFour1807, Canada1867, Kansai1890, Shikoku1889
    from engines.fourbit import FourBit
    from engines.tokai.engine import TokaiBaron

    games: list[Engine] = [DiceHand(), FourBit(), Boss(), TokaiBaron(), Shikoku1889(), Canada1867(), Kansai1890(),
                           BigFour1807()]
    return {g.name: g for g in games}


ENGINES: dict[str, Engine] = _all()


def get(name: str) -> Engine:
    try:
        return ENGINES[name]
    except KeyError:
        known = ", ".join(sorted(ENGINES))
        raise KeyError(f"No game called {name!r}; known games: {known}.") from None
