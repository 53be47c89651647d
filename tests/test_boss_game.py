"""A complete 4-player game of I'm the Boss! from a scripted log (default options), money worked out
by hand; and ``python -m bot selfplay boss`` for every player count.

Seats: A = seat 0, B = seat 1, C = seat 2, D = seat 3. Money in thousands ($2.6M = 2600).

Setup chance:
- investors in FAMILIES order: A red, B blue, C yellow, D pink; orange and green beside the board.
- the deck (5 cards each, seat 0 first, then C's three draws of 3):
  A travel.pink, family.green, family.orange, stop, hire
  B family.red, family.orange x2, travel.grey, hire
  C family.green, hire x2, boss, travel.red
  D stop, boss, family.orange, family.green x2
  C draws: hire, boss, stop | travel.grey, hire, family.red | family.blue, hire, stop
- D (seat n-1) places the dollar marker on space 7 (index 6); A begins.

Deal spaces used (index: requirement, shares; board_ours.json):
  6: red + pink + 1 of blue/yellow, 4      7: yellow + 2 of blue/pink/green, 3
  8: red + blue + yellow + 2 of pink/orange/green, 6      9: orange + 1 of blue/red, 2
  12: blue + orange + 2 of yellow/pink/green, 5    3: pink + 2 of red/orange/green, 3
  4: blue + 4 of pink/red/orange/yellow/green, 6    13: green + 2 of red/yellow/pink, 3
  14: yellow + pink + orange + 1 of red/blue/green, 5    1: blue + 1 of red/pink, 2
  10: pink + green + 1 of red/orange, 4
Tile values a share: 1 2000, 2 2200, 3 2400, 4 2600, 5 2800, 6 3000, 7 3200, 8 3400, 9 3600,
10 3800 (ends on 1), 11 4000 (ends on 1, 2).
"""
from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from engines.base import CHANCE
from engines.boss import DECK, Boss, event_text
from engines.log import replay
from tests.boss_helpers import NAMED

E = Boss()
A, B, C, D = 0, 1, 2, 3
ROOT = Path(__file__).resolve().parent.parent

HANDS = [
    ["travel.pink", "family.green", "family.orange", "stop", "hire"],
    ["family.red", "family.orange", "family.orange", "travel.grey", "hire"],
    ["family.green", "hire", "hire", "boss", "travel.red"],
    ["stop", "boss", "family.orange", "family.green", "family.green"],
]
C_DRAWS = ["hire", "boss", "stop", "travel.grey", "hire", "family.red", "family.blue", "hire", "stop"]


def deck_order(top: list[str]) -> list[int]:
    """A shuffle (indices into DECK) that puts these cards on top, in order; the rest in DECK order."""
    order: list[int] = []
    for c in top:
        order.append(next(i for i, k in enumerate(DECK) if k == c and i not in order))
    return order + [i for i in range(len(DECK)) if i not in order]


DEAL, ROLL, DRAW = {"type": "deal"}, {"type": "roll"}, {"type": "draw"}
DECLARE, FAIL, STOP = {"type": "declare"}, {"type": "fail"}, {"type": "stop"}


def dice(v: int):
    return CHANCE, {"type": "dice", "values": [v]}


def offer(seat: int, family: str, shares: int | None = None, money: int | None = None):
    price = {"shares": shares} if shares is not None else {"money": money}
    return seat, {"type": "offer", "family": family, **price}


def accept(boss: int, seat: int, family: str):
    return boss, {"type": "accept", "seat": seat, "family": family}


def lay(seat: int, family: str):
    return seat, {"type": "lay", "family": family}


def passes(*seats: int):
    return [(s, {"type": "pass"}) for s in seats]


SCRIPT = [
    (CHANCE, {"type": "shuffle", "order": deck_order([c for h in HANDS for c in h] + C_DRAWS)}),
    (CHANCE, {"type": "shuffle", "order": [0, 1, 2, 3, 4, 5]}),
    (D, {"type": "place", "space": 6}),
    ("turn", A),

    # --- deal 1: A on space 6, tile 1: 4 shares x 2000 = 8000. A brings red.
    (A, DEAL),
    offer(D, "pink", shares=1), accept(A, D, "pink"),    # 1 x 2000 = 2000
    offer(B, "blue", money=2), accept(A, B, "blue"),     # $2M = 2000
    (A, DECLARE), *passes(B, C, D),
    # A 8000 - 2000 - 2000 = 4000, B 2000, D 2000
    ("cash", [4000, 2000, 0, 2000]), ("turn", B), ("marker", 7),

    # --- deal 2: B on space 7, tile 2: 3 x 2200 = 6600. B brings blue.
    (B, DEAL),
    offer(C, "yellow", shares=1), accept(B, C, "yellow"),  # 1 x 2200 = 2200
    offer(D, "pink", money=2), accept(B, D, "pink"),       # 2000
    ("agreed", [(C, "yellow"), (D, "pink")]),
    (A, {"type": "travel", "card": "pink", "family": "pink"}),  # D's pink goes travelling: its agreement lapses
    ("agreed", [(C, "yellow")]), ("needed", ["pink", "green"]),
    (D, STOP),                                             # the travel is cancelled, the agreement is back
    ("agreed", [(C, "yellow"), (D, "pink")]), ("needed", []),
    (B, DECLARE), *passes(A, C, D),
    # B 6600 - 2200 - 2000 = 2400 -> 4400; C 2200; D 2000 -> 4000
    ("cash", [4000, 4400, 2200, 4000]), ("turn", C), ("marker", 8),

    # --- deal 3: C on space 8, tile 3: 6 x 2400 = 14400. C brings yellow.
    (C, DEAL),
    offer(A, "red", shares=2), accept(C, A, "red"),        # 2 x 2400 = 4800
    (D, {"type": "boss", "restart": False}),               # "I'm the boss!": D now owes A's 4800
    ("boss", D), ("said", "[0] plays a boss card", [D, C]), ("agreed", [(A, "red")]),
    # D's pink counts by itself now; C's yellow no longer does and must be offered
    ("needed", ["blue", "yellow", "orange", "green"]),
    offer(C, "yellow", money=3), accept(D, C, "yellow"),   # 3000
    offer(B, "blue", shares=1), accept(D, B, "blue"),      # 2400
    lay(D, "orange"),                                      # D's own card: the 2nd of pink/orange/green
    (D, DECLARE), *passes(A, B, C),
    # D 14400 - 4800 - 3000 - 2400 = 4200 -> 8200; A 4800 -> 8800; C 3000 -> 5200; B 2400 -> 6800
    ("cash", [8800, 6800, 5200, 8200]),
    ("turn", A),  # left of D, the last boss (without the boss card it would have been D, left of C)
    ("marker", 9),

    # --- A on space 9 (orange + 1 of blue/red): nobody can bring orange, the deal fails.
    (A, DEAL),
    lay(B, "red"),                                         # B's red family card goes down...
    (A, FAIL),                                             # ...and comes back: a failed deal returns laid cards
    ("hand", B, {"family.red": 1, "family.orange": 2, "travel.grey": 1, "hire": 1}),
    ("cash", [8800, 6800, 5200, 8200]), ("turn", B), ("marker", 9), ("deals", 3),

    # --- deal 4: B rolls 3 (from 9: 10, 11, 12), on space 12, tile 4: 5 x 2600 = 13000. B brings blue.
    (B, ROLL), dice(3), ("marker", 12),
    (B, DEAL),
    lay(B, "orange"),
    offer(C, "yellow", shares=2), accept(B, C, "yellow"),  # 2 x 2600 = 5200
    offer(D, "pink", money=3), accept(B, D, "pink"),       # 3000
    (B, DECLARE), *passes(A, C, D),
    # B 13000 - 5200 - 3000 = 4800 -> 11600; C 5200 -> 10400; D 3000 -> 11200
    ("cash", [8800, 11600, 10400, 11200]), ("turn", C), ("marker", 13),

    # --- C rolls 6 (from 13: 14, 15, 0, 1, 2, 3) and draws hire, boss, stop: 8 cards.
    (C, ROLL), dice(6), ("marker", 3), (C, DRAW), ("size", C, 8), ("turn", D),

    # --- deal 5: D on space 3, tile 5: 3 x 2800 = 8400. D brings pink.
    (D, DEAL),
    offer(A, "red", shares=1), accept(D, A, "red"),        # 2800
    lay(D, "green"),
    (D, DECLARE), *passes(A, B, C),
    # D 8400 - 2800 = 5600 -> 16800; A 2800 -> 11600
    ("cash", [11600, 11600, 10400, 16800]), ("turn", A), ("marker", 4),

    # --- deal 6: A on space 4, tile 6: 6 x 3000 = 18000. A brings red.
    (A, DEAL),
    offer(B, "blue", shares=2), accept(A, B, "blue"),      # 2 x 3000 = 6000
    offer(C, "yellow", money=4), accept(A, C, "yellow"),   # 4000
    offer(D, "pink", shares=1), accept(A, D, "pink"),      # 3000
    lay(A, "green"),                                       # red, yellow, pink, green: 4 of the five
    (A, DECLARE), *passes(B, C, D),
    # A 18000 - 13000 = 5000 -> 16600; B 6000 -> 17600; C 4000 -> 14400; D 3000 -> 19800
    ("cash", [16600, 17600, 14400, 19800]), ("turn", B), ("marker", 5),

    # --- deal 7: B rolls 1 (from 5, past the tiles on 6-8, to 9), tile 7: 2 x 3200 = 6400, all B's.
    (B, ROLL), dice(1), ("marker", 9),
    (B, DEAL), lay(B, "orange"), (B, DECLARE), *passes(A, C, D),
    ("cash", [16600, 24000, 14400, 19800]), ("turn", C), ("marker", 10),

    # --- C rolls 2 (from 10: 11, then 13 past the tile on 12) and draws travel.grey, hire, family.red.
    (C, ROLL), dice(2), ("marker", 13), (C, DRAW), ("size", C, 11), ("turn", D),

    # --- deal 8: D on space 13, tile 8: 3 x 3400 = 10200. D brings pink.
    (D, DEAL),
    lay(C, "green"), offer(C, "green", shares=1), accept(D, C, "green"),  # through C's family card: 3400
    offer(A, "red", money=2), accept(D, A, "red"),         # 2000
    (D, DECLARE), *passes(A, B, C),
    # D 10200 - 3400 - 2000 = 4800 -> 24600; C 3400 -> 17800; A 2000 -> 18600
    ("cash", [18600, 24000, 17800, 24600]), ("turn", A), ("marker", 14), ("size", C, 10),

    # --- deal 9: A on space 14, tile 9: 5 x 3600 = 18000. A brings red.
    (A, DEAL),
    lay(A, "orange"),
    offer(C, "yellow", shares=1), accept(A, C, "yellow"),  # 3600
    offer(D, "pink", shares=2), accept(A, D, "pink"),      # 7200
    (A, DECLARE), *passes(B, C, D),
    # A 18000 - 10800 = 7200 -> 25800; C 3600 -> 21400; D 7200 -> 31800
    ("cash", [25800, 24000, 21400, 31800]), ("turn", B), ("marker", 15),

    # --- deal 10: B rolls 2 (from 15: 0, 1), tile 10: 2 x 3800 = 7600. B brings blue.
    (B, ROLL), dice(2), ("marker", 1),
    (B, DEAL),
    offer(D, "pink", shares=1), accept(B, D, "pink"),      # 3800
    (B, DECLARE), *passes(A, C, D),
    ("phase", "end_roll"), dice(3),                        # tile 10 ends the game only on a 1
    # B 7600 - 3800 = 3800 -> 27800; D 3800 -> 35600
    ("cash", [25800, 27800, 21400, 35600]), ("turn", C), ("marker", 2),

    # --- C rolls 2 (from 2: 5, then 10) and draws family.blue, hire, stop: 13 cards, one over the limit.
    (C, ROLL), dice(2), ("marker", 10), (C, DRAW),
    ("phase", "limit"), ("size", C, 13),
    (C, {"type": "discard", "card": "travel.red"}),
    ("size", C, 12), ("phase", "turn"), ("turn", D),

    # --- deal 11: D on space 10, tile 11: 4 x 4000 = 16000. D brings pink.
    (D, DEAL),
    lay(D, "green"),
    offer(A, "red", shares=2), accept(D, A, "red"),        # 2 x 4000 = 8000
    (D, DECLARE), *passes(A, B, C),
    ("phase", "end_roll"), dice(2),                        # tile 11 ends the game on 1 or 2
    # D 16000 - 8000 = 8000 -> 43600; A 8000 -> 33800
]

# Final money, deal by deal:
#   A: 4000 (d1) + 4800 (d3) + 2800 (d5) + 5000 (d6) + 2000 (d8) + 7200 (d9) + 8000 (d11) = 33800
#   B: 2000 (d1) + 2400 (d2) + 2400 (d3) + 4800 (d4) + 6000 (d6) + 6400 (d7) + 3800 (d10) = 27800
#   C: 2200 (d2) + 3000 (d3) + 5200 (d4) + 4000 (d6) + 3400 (d8) + 3600 (d9) = 21400
#   D: 2000 + 2000 + 4200 + 3000 + 5600 + 3000 + 4800 + 7200 + 3800 + 8000 = 43600
# The bank paid 8000 + 6600 + 14400 + 13000 + 8400 + 18000 + 6400 + 10200 + 18000 + 7600 + 16000
#   = 126600 = 33800 + 27800 + 21400 + 43600.
FINAL = [33800, 27800, 21400, 43600]


def run_script() -> tuple[dict, list[tuple[int, int, dict]]]:
    s = E.setup({}, 4)
    log: list[tuple[int, int, dict]] = []
    for step in SCRIPT:
        what = step[0]
        if what == "cash":
            assert s["cash"] == step[1], (len(log), s["cash"], step[1])
        elif what == "turn":
            assert s["turn"] == step[1] and s["phase"] == "turn", (len(log), s["phase"], s["turn"])
        elif what == "marker":
            assert s["marker"] == step[1], (len(log), s["marker"])
        elif what == "needed":
            assert E.needed(s) == step[1]
        elif what == "boss":
            assert s["deal"]["boss"] == step[1]
        elif what == "hand":
            assert s["hands"][step[1]] == step[2]
        elif what == "size":
            assert sum(s["hands"][step[1]].values()) == step[2]
        elif what == "phase":
            assert s["phase"] == step[1]
        elif what == "agreed":
            assert [(a["seat"], a["family"]) for a in s["deal"]["agreements"]] == step[1]
        elif what == "said":
            assert event_text(s["events"][-1]).startswith(step[1]) and s["events"][-1]["seats"] == step[2]
        elif what == "deals":
            assert s["deals_done"] == step[1]
        else:
            seat, action = step
            if seat != CHANCE:
                legal = E.legal(s, seat)
                if action not in legal and action["type"] in NAMED:  # the move as the panel names it
                    action = next((m for m in legal if m.items() >= action.items()), action)
                assert action in legal, (len(log), seat, action)
            s = E.apply(s, seat, action)
            log.append((len(log) + 1, seat, action))
    return s, log


def test_scripted_four_player_game():
    s, log = run_script()
    assert s["phase"] == "over" and E.is_over(s)
    assert s["deals_done"] == 11 and s["last_roll"] == 2
    assert E.scores(s) == FINAL
    assert s["paid_out"] == sum(FINAL) == 126600
    assert E.public(s)["scores"] == FINAL
    # the cards: A and B kept the two filler cards they never played, D played every card
    assert s["hands"] == [
        {"stop": 1, "hire": 1},
        {"family.red": 1, "travel.grey": 1, "hire": 1},
        {"hire": 5, "boss": 2, "stop": 2, "travel.grey": 1, "family.red": 1, "family.blue": 1},
        {},
    ]
    assert Counter(s["discard"]) == Counter({
        "travel.pink": 1, "stop": 1,                         # deal 2
        "boss": 1, "family.orange": 4, "family.green": 4,    # deal 3's boss card; the family cards used
        "travel.red": 1,                                     # C's discard at the hand limit
    })
    assert len(s["deck"]) == 98 - 20 - 9
    assert replay(E, E.setup({}, 4), log) == s
    assert json.loads(json.dumps(s)) == s


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_selfplay_every_player_count(n):
    games = 3
    out = subprocess.run([sys.executable, "-m", "bot", "selfplay", "boss", "--players", str(n), "--seed", str(40 + n),
                          "--games", str(games)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    lines = [json.loads(x) for x in out.stdout.splitlines()]
    assert [x["game"] for x in lines] == list(range(1, games + 1))
    for x in lines:
        assert x["players"] == n and x["seed"] == 40 + n
        assert len(x["scores"]) == n and all(isinstance(v, int) and v >= 0 for v in x["scores"])
        assert sum(x["scores"]) > 0 and x["actions"] > 0
