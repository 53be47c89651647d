"""How fast each engine plays: moves applied per second in selfplay, and what the state copy
costs. ``Engine.apply`` copies the state before each move by a pickle round trip; the peer
is ``copy.deepcopy``, which it replaced.

Run from the repository root:  python bench/bench_engines.py   (about half a minute)
"""
from __future__ import annotations

import argparse
import copy
import pickle
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repo, when run as a script

import engines  # noqa: E402
from bot.selfplay import play_one  # noqa: E402


def states_of(name: str, players: int, seed: int) -> list[dict]:
    """Every state of one selfplay game, to time copies on real states."""
    engine = engines.get(name)
    log = play_one(name, players, random.Random(seed))["log"]
    state, out = engine.setup({}, players), []
    for entry in log:
        state = engine.apply(state, entry["seat"], entry["action"])
        out.append(state)
    return out


def per_second(fn, items, seconds: float) -> float:
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for item in items:
            fn(item)
        done += len(items)
    return done / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="length of each copy measurement")
    args = ap.parse_args()
    for name, players in (("dicehand", 3), ("fourbit", 4), ("boss", 4), ("boss", 6), ("tokai", 4), ("tokai", 6)):
        start = time.perf_counter()
        games = [play_one(name, players, random.Random(seed)) for seed in range(3)]
        moves = sum(g["actions"] for g in games)
        rate = moves / (time.perf_counter() - start)
        states = states_of(name, players, 0)[::10]
        pick = per_second(lambda s: pickle.loads(pickle.dumps(s, pickle.HIGHEST_PROTOCOL)), states, args.seconds)
        deep = per_second(copy.deepcopy, states, args.seconds)
        print(f"{name} {players}p: selfplay {rate:,.0f} moves/s ({moves} moves in 3 games, chance included); "
              f"state copy: pickle {pick:,.0f}/s, deepcopy {deep:,.0f}/s, ratio {pick / deep:.1f}x")


if __name__ == "__main__":
    main()
