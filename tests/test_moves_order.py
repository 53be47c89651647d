"""A player's moves are listed in the same order in every process: a move button names its move by its place in the
list (`mv:<table>:<seq>:<index>`), and a button posted before a restart is pressed in a new process, whose string
hashing (PYTHONHASHSEED) differs. A list built from a set would reorder (it did: 1890's late privates)."""
from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
WALK = """
import hashlib, json, random, sys
import engines
from engines.base import CHANCE
from engines.chance import draw
name, options, steps = sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3])
e, rng, seen = engines.get(name), random.Random(3), hashlib.md5()
s = e.setup(options, 4)
for _ in range(steps):
    aw = e.awaiting(s)
    if aw.chance:
        s = e.apply(s, CHANCE, draw(aw.chance, rng))
        continue
    if not aw.seats:
        break
    seat = min(aw.seats)
    moves = e.legal(s, seat)
    seen.update(json.dumps(moves, sort_keys=True).encode())
    if not moves:
        break
    s = e.apply(s, seat, rng.choice(moves))
print(seen.hexdigest())
"""


def moves_digest(game: str, options: str, steps: int, hash_seed: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    r = subprocess.run([sys.executable, "-c", WALK, game, options, str(steps)], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=240)
    assert r.returncode == 0, r.stderr
    return r.stdout.strip()


@pytest.mark.parametrize("game,options,steps", [
    ("1890", '{"scenario": "full"}', 1200), ("1807", "{}", 600), ("1867", "{}", 600), ("1889", "{}", 600),
    ("tokai", "{}", 400), ("boss", "{}", 400), ("fourbit", "{}", 400), ("dicehand", "{}", 200)])
def test_the_moves_are_listed_in_the_same_order_whatever_the_string_hashing(game, options, steps):
    first = moves_digest(game, options, steps, "1")
    assert first != hashlib.md5(b"").hexdigest()  # some moves were listed
    assert moves_digest(game, options, steps, "2") == first
