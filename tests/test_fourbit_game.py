"""A complete 4-player game of 4bit Town from a scripted log, scored by hand.

Seats: A = seat 0, B = seat 1, C = seat 2, D = seat 3.

Setup chance:
- 4bit cards in order 1..16, so the hands are A [1,2,3,4], B [5,6,7,8], C [9..12], D [13..16].
- buildings: row 13 Academy, 11 Artisans' Quarter, 17 Mint, 9 Trading House; deck
  10, 16, 3, 1, 2, 15, 12, 14, 4, 5, 6, 7, 8, 18.
- turn order C, A, D, B (all on space 1): catch-up coins C 0, A 2, D 4, B 6.

Draft (pass left, seat i -> i+1):
- pick 1: A 3, B 7, C 11, D 13. A gets D's [14,15,16], B gets [1,2,4], C [5,6,8], D [9,10,12].
- pick 2: A 14, B 4, C 8, D 12. A gets [9,10], B [15,16], C [1,2], D [5,6].
- pick 3: A 10, B 16, C 1, D 5. Forced: A 6, B 9, C 15, D 2.
- cards: A [3,14,10,6], B [7,4,16,9], C [11,8,1,15], D [13,12,5,2].

Card faces used below (n's bits top first: 0 = 0000, 1 = 1000, 2 = 0100, 3 = 1100, 4 = 0010,
5 = 1010, 6 = 0110, 8 = 0001, 9 = 1001, 11 = 1101, 14 = 0111, 15 = 1111).
Every card decision the engine settles by itself (no legal use) is noted "auto".
"""
from __future__ import annotations

from engines.base import CHANCE
from engines.fourbit import FourBit
from engines.log import replay

E = FourBit()
A, B, C, D = 0, 1, 2, 3
USE = {"type": "use"}
SKIP = {"type": "skip"}
LOC = {"type": "location"}
BUILDING_ORDER = [13, 11, 17, 9, 10, 16, 3, 1, 2, 15, 12, 14, 4, 5, 6, 7, 8, 18]

# stacks (top card first)
A_STACK = [3, 14, 10, 6]
A_BUILD = [3, 14, 6, 10]   # 10 at the bottom: 10-1 (+4 coins after a build) at location 8
A_TRACK = [3, 10, 14, 6]   # at 11 (1101): 3-1, 10-1, 14-0 (one more space), 6-1
B_STACK = [9, 7, 4, 16]
B_VP = [7, 4, 16, 9]       # at 5 (1010): 7-1, 4-0, 16-1, 9-0
C_STACK = [8, 1, 11, 15]
C_BUILD = [8, 1, 15, 11]
C_TRACK = [11, 1, 8, 15]
C_PLAN = [15, 8, 1, 11]
D_STACK = [12, 13, 5, 2]
D_CONV = [2, 13, 12, 5]
D_LEVEL = [13, 2, 12, 5]
D_COINS = [13, 12, 2, 5]


def loc(**k):
    return {"type": "location", **k}


SCRIPT = [
    # ================= ROUND 1 (conversions up to 2) =================
    ("step", {C: (4, C_STACK), A: (0, A_STACK), D: (1, D_STACK), B: (9, B_STACK)}),
    # queue: B (plan first), then C, A, D (all level 3, track order C, A, D, B)
    # B plans Mint from the row: coins 6 + 6 = 12; faces 9-1, 7-0, 4-0, 16-1 (auto: no VP)
    (B, "loc", loc(building=17)), (B, 9, USE),        # +2 stone -> B W0 S2 C12
    (B, 7, SKIP), (B, 4, SKIP),
    # C at 4: coins 0 + 12; faces 8-0 (auto), 1-0, 11-1 (auto), 15-0 (auto)
    (C, "loc", LOC), (C, 1, USE),                     # C W2 S0 C12
    # A at 0: wood 12; 3-0 (auto: 2 coins), 14-0, 10-0, 6-0 (auto)
    (A, "loc", LOC),                                  # A W12 S0 C2
    # D at 1: stone 12; 12-1, 13-0, 5-0 (auto: 2 wood), 2-0
    (D, "loc", LOC), (D, 12, USE), (D, 13, SKIP), (D, 2, USE),  # D W2 S14 C4
    ("step", {C: (8, C_BUILD), A: (2, A_STACK), D: (3, D_CONV), B: (5, B_VP)}),
    # C uses 8-0 first, then builds Trading House (W4 C4): W2 - 2 = 0, C12 - 4 = 8, VP 1; then 1-0 +2 wood
    (C, 8, USE), (C, "loc", loc(building=9)), (C, 1, USE),  # C W2 S0 C8 VP1
    # A at 2, twice: W12 - 4 = 8, C2 + 8 = 10; 3-0 asked, 14-1/10-0/6-0 auto
    (A, "loc", loc(times=2)), (A, 3, SKIP),           # A W8 S0 C10
    # D at 3, twice: S14 - 4 = 10, C4 + 8 = 12; 2-1 (S4 -> C4), 13-1 asked, 12-0/5-0 auto
    (D, "loc", loc(times=2)), (D, 2, USE), (D, 13, SKIP),  # D W2 S6 C16
    # B at 5: VP 2; 7-1, 4-0, 16-1 asked, 9-0 auto
    (B, "loc", LOC), (B, 7, SKIP), (B, 4, SKIP), (B, 16, SKIP),  # B W0 S2 C12 VP2
    ("step", {C: (11, C_TRACK), A: (15, A_STACK), D: "pass", B: "pass"}),
    # C at 11: space 2 (front), C8 + 6 = 14; 11-1, 1-1 (2 wood), 8-0, 15-1 all auto
    (C, "loc", LOC),                                  # C W2 S0 C14 VP1
    # A at 15: W8 + 6 = 14, S6; 3-1 +2 coins; 6-1 auto (no VP)
    (A, "loc", LOC), (A, 3, USE),                     # A W14 S6 C12
    # A and C sent all 3 workers, B and D passed: the round ends. Upkeep 6 a worker:
    # A 12 - 12 = 0, B 12 - 12 = 0, C 14 - 12 = 2, D 16 - 12 = 4 (everyone keeps 2)
    ("upkeep", {A: 2, B: 2, C: 2, D: 2}),
    # row 13, 11 + 4 new: 10, 16, 3, 1
    ("check", 2, {A: (14, 6, 0, 0), B: (0, 2, 0, 2), C: (2, 0, 2, 1), D: (2, 6, 4, 0)}, [13, 11, 10, 16, 3, 1]),

    # ================= ROUND 2 (up to 4) =================
    ("step", {C: (4, C_STACK), A: (2, A_STACK), D: (3, D_CONV), B: (9, B_STACK)}),
    # B plans the top of the deck blind (Quarry, 2): C0 + 6 = 6; 9-1 +2 stone
    (B, "loc", loc(building="deck")), (B, 9, USE),
    (B, 7, SKIP), (B, 4, SKIP), (B, 16, SKIP),        # B W0 S4 C6 VP2
    (C, "loc", LOC), (C, 1, USE),                     # C: C2 + 12 = 14, W2 + 2 = 4
    # A at 2, 4 times: W14 - 8 = 6, C0 + 16 = 16; 6-0 S6 -> 1 VP
    (A, "loc", loc(times=4)), (A, 3, SKIP), (A, 6, USE),  # A W6 S0 C16 VP1
    # D at 3, 3 times: S6 - 6 = 0, C4 + 12 = 16; every card auto
    (D, "loc", loc(times=3)),                         # D W2 S0 C16
    ("step", {C: (8, C_BUILD), A: (15, A_STACK), D: (1, D_STACK), B: (0, B_STACK)}),
    # C uses 8-0, then builds Design Office (W6 C4): W4 - 4 = 0, C14 - 4 = 10, VP 1 + 2 = 3; 1-0 +2 wood
    (C, 8, USE), (C, "loc", loc(building=10)), (C, 1, USE),  # C W2 S0 C10 VP3
    # A at 15: W6 + 6 = 12, S6; 3-1 +2 coins; 6-1 (VP -> stone) declined
    (A, "loc", LOC), (A, 3, USE), (A, 6, SKIP),       # A W12 S6 C18 VP1
    # D at 1: S12; 12-1 +2 wood; 13-0 declined; 5-0 auto (4 wood); 2-0 +2 stone
    (D, "loc", LOC), (D, 12, USE), (D, 13, SKIP), (D, 2, USE),  # D W4 S14 C16
    # B at 0: W12; 9-0 auto; 7-0, 4-0, 16-0 declined
    (B, "loc", LOC), (B, 7, SKIP), (B, 4, SKIP), (B, 16, SKIP),  # B W12 S4 C6 VP2
    # upkeep: A 18 - 12 = 6 (keeps 2), B 6 - 6 = 0 (keeps 1), C 10 - 6 = 4 (keeps 1), D 16 - 12 = 4
    ("upkeep", {A: 2, B: 1, C: 1, D: 2}),
    # row: 10 built; + 15, 12, 14, 4
    ("check", 3, {A: (12, 6, 6, 1), B: (12, 4, 0, 2), C: (2, 0, 4, 3), D: (4, 14, 4, 0)},
     [13, 11, 16, 3, 1, 15, 12, 14, 4]),

    # ================= ROUND 3 (up to 6) =================
    ("step", {C: (4, C_STACK), A: (8, A_BUILD), D: (6, D_LEVEL), B: (2, B_STACK)}),
    # queue C, A, D, B
    (C, "loc", LOC), (C, 1, USE),                     # C W4 S0 C16 VP3
    # A builds Academy (W2 S6 C4): W10 S0 C2, VP 1; 10-1 +4 coins
    (A, "loc", loc(building=13)), (A, 10, USE),       # A W10 S0 C6 VP1
    # D levels up to 4 for 4/4/4: W0 S10 C0; 13-0 auto, 2-1 S4 -> C4, 12-1 and 5-0 auto
    (D, "loc", LOC), (D, 2, USE),                     # D W0 S6 C4, level 4
    # B at 2, 4 times: W12 - 8 = 4, C0 + 16 = 16; 7-1 declined; 4-0 C4 -> S4; 16-0 W4 S2 -> 1 VP
    (B, "loc", loc(times=4)), (B, 7, SKIP), (B, 4, USE), (B, 16, USE),  # B W0 S6 C12 VP3
    ("step", {A: (11, A_TRACK), D: (3, D_CONV)}),     # B and C have no worker left
    # queue: D (level 4) first, then A
    (D, "loc", loc(times=3)),                         # D: S6 - 6 = 0, C4 + 12 = 16
    # A at 11: space 1 -> 2 (front), C6 + 6 = 12; 3-1 +2; 14-0 one more space -> 3; 6-1 declined
    (A, "loc", LOC), (A, 3, USE), (A, 14, USE), (A, 6, SKIP),  # A W10 S0 C14 VP1, space 3
    # upkeep: A 14 - 12 = 2, B 12 - 6 = 6, C 16 - 6 = 10, D (level 4: 8 a worker) 16 - 16 = 0
    ("upkeep", {A: 2, B: 1, C: 1, D: 2}),
    # row: 13 built; + 5, 6, 7, 8
    ("check", 4, {A: (10, 0, 2, 1), B: (0, 6, 6, 3), C: (4, 0, 10, 3), D: (0, 0, 0, 0)},
     [11, 16, 3, 1, 15, 12, 14, 4, 5, 6, 7, 8]),

    # ================= ROUND 4 (up to 8) =================
    ("step", {A: (8, A_BUILD), D: (4, D_COINS), C: (9, C_PLAN), B: (3, B_STACK)}),
    # queue: C (plan) first, then D (level 4), A, B
    # C plans City Wall from the row: C10 + 6 + 2 (Design Office) = 18; 1-0 +2 wood
    (C, "loc", loc(building=16)), (C, 1, USE),        # C W6 S0 C18 VP3, plans [16]
    # D at 4: C0 + 12 = 12; 13-0 declined; the rest auto
    (D, "loc", LOC), (D, 13, SKIP),                   # D W0 S0 C12
    # A builds Woodworks (W10): W0, VP 1 + 2 = 3; 10-1 +4 coins
    (A, "loc", loc(building=1)), (A, 10, USE),        # A W0 S0 C6 VP3
    # B at 3, 3 times: S6 - 6 = 0, C6 + 12 = 18; 7-1 and 4-0 declined, 16-0 auto
    (B, "loc", loc(times=3)), (B, 7, SKIP), (B, 4, SKIP),  # B W0 S0 C18 VP3
    ("step", {A: (15, A_STACK), D: (11, D_STACK)}),
    # D at 11: space 1 -> 2, in front of C; C12 + 6 = 18; every card auto
    (D, "loc", LOC),                                  # D W0 S0 C18, space 2
    # A at 15: W6 S6; 3-1 +2 coins; 6-1 declined
    (A, "loc", LOC), (A, 3, USE), (A, 6, SKIP),       # A W6 S6 C8 VP3
    # upkeep: A 8 - 6 = 2 (keeps 1 of 2), B 18 - 6 = 12, C 18 - 6 = 12, D 18 - 16 = 2
    ("upkeep", {A: 1, B: 1, C: 1, D: 2}),
    # row: 16 planned, 1 built; + 18, the deck's last card
    ("check", 5, {A: (6, 6, 2, 3), B: (0, 0, 12, 3), C: (6, 0, 12, 3), D: (0, 0, 2, 0)},
     [11, 3, 15, 12, 14, 4, 5, 6, 7, 8, 18]),

    # ================= ROUND 5 (up to 10) =================
    ("step", {A: (4, A_BUILD), D: (1, D_STACK), C: (14, C_STACK), B: (15, B_STACK)}),
    # queue: D (level 4), then A (space 3), C (space 2), B (space 1)
    # D at 1: S12; 12-1 +2 wood; 13-0 auto (2 coins); 5-0 auto; 2-0 +2 stone
    (D, "loc", LOC), (D, 12, USE), (D, 2, USE),       # D W2 S14 C2
    # A at 4: C2 + 12 = 14; 3-0 and 6-1 declined
    (A, "loc", LOC), (A, 3, SKIP), (A, 6, SKIP),      # A W6 S6 C14 VP3
    # C at 14, 3 times: C12 - 6 = 6, S12; 1-1 W4 -> C4
    (C, "loc", loc(times=3)), (C, 1, USE),            # C W2 S12 C10 VP3
    # B at 15: W6 S6; 7-1 1 VP -> 4 coins; 4-1 +2 coins; 16-1 declined
    (B, "loc", LOC), (B, 7, USE), (B, 4, USE), (B, 16, SKIP),  # B W6 S6 C18 VP2
    ("step", {D: (3, D_CONV)}),
    # D at 3, 7 times: S14 - 14 = 0, C2 + 28 = 30
    (D, "loc", loc(times=7)),                         # D W2 S0 C30
    # upkeep: A 14 - 6 = 8, B 18 - 6 = 12, C 10 - 6 = 4, D 30 - 16 = 14
    ("upkeep", {A: 1, B: 1, C: 1, D: 2}),
    # the deck is empty: the row gets nothing
    ("check", 6, {A: (6, 6, 8, 3), B: (6, 6, 12, 2), C: (2, 12, 4, 3), D: (2, 0, 14, 0)},
     [11, 3, 15, 12, 14, 4, 5, 6, 7, 8, 18]),

    # ================= ROUND 6 (up to 12) =================
    ("step", {A: (11, A_TRACK), D: (4, D_STACK), C: (8, C_BUILD), B: (8, B_STACK)}),
    # C and B both at 8: level 3 each, C is ahead on the track, so C is first and B pays.
    # queue: D (level 4), A, C, B
    # D at 4 (faces 12-0, 13-0, 5-1, 2-0): C14 + 12 = 26; 13-0 declined; 5-1 auto (no VP); 2-0 +2 stone
    (D, "loc", LOC), (D, 13, SKIP), (D, 2, USE),      # D W2 S2 C26
    # A at 11: space 3 -> 4, C8 + 6 = 14; 3-1 +2 = 16; 14-0 -> space 5; 6-1 declined
    (A, "loc", LOC), (A, 3, USE), (A, 14, USE), (A, 6, SKIP),  # A W6 S6 C16 VP3, space 5
    # C uses 8-0, then builds its planned City Wall (W2 S8 C4): W2 S4 C0, VP 3 + 1 = 4; 1-0 +2 wood
    (C, 8, USE), (C, "loc", loc(building=16)), (C, 1, USE),  # C W4 S4 C0 VP4
    # B, not first: pays 2 stone, then builds its planned Mint (W6 S2 C8): W0 S2 C4, VP 2 + 3 = 5
    # 9-0 auto, 7-0 auto (4 coins), 4-0 and 16-1 declined
    (B, "loc", loc(building=17, pay="stone")), (B, 4, SKIP), (B, 16, SKIP),  # B W0 S2 C4 VP5
    ("step", {D: (15, D_STACK)}),
    # D at 15: W2 + 6 = 8, S2 + 6 = 8; 12-1 +2 wood; 13-1 and 2-1 declined; 5-1 auto
    (D, "loc", LOC), (D, 12, USE), (D, 13, SKIP), (D, 2, SKIP),  # D W10 S8 C26
    # round 6 end: Mint gives B 2 coins (1 building): C6. No upkeep.
]

# Final scores, by hand:
# seat 0 (A): vp 3 + workers 1×3 = 3 + track space 5 → 2 + Academy (2 buildings + 1) = 3  → 11
# seat 1 (B): vp 5 + workers 1×3 = 3 + track space 1 → 0 + Mint (no end effect) 0           → 8
# seat 2 (C): vp 4 + workers 1×3 = 3 + track space 2 → 0 + City Wall (3 buildings) 3        → 10
# seat 3 (D): vp 0 + workers 2×4 = 8 + track space 2 → 0 + no buildings                     → 8
# B and D tie on 8: D has 26 coins, B 6 (4 + Mint 2): D is third, B fourth.
FINAL = [
    {"vp": 3, "workers": 3, "track": 2, "buildings": 3, "total": 11, "coins": 16, "hired": 1},
    {"vp": 5, "workers": 3, "track": 0, "buildings": 0, "total": 8, "coins": 6, "hired": 1},
    {"vp": 4, "workers": 3, "track": 0, "buildings": 3, "total": 10, "coins": 0, "hired": 1},
    {"vp": 0, "workers": 8, "track": 0, "buildings": 0, "total": 8, "coins": 26, "hired": 2},
]


def asks_for(prompt, what) -> bool:
    """The table says what it waits for: the location's effect (maybe offered before a card) or a card."""
    prompt = str(prompt)
    return "the effect of" in prompt if what == "loc" else prompt.startswith(f"whether to use card {what}")


def full_action(s: dict, what, action: dict) -> dict:
    """The script's short moves with what the engine needs: the location, or the next card and its side."""
    w, r = s["queue"][s["res"]["i"]], s["res"]
    if what == "loc":
        return {**action, "at": w["loc"]}
    assert w["order"][r["card"]] == what, (what, w["order"], r["card"])
    return {**action, "card": what, "side": w["bits"][r["card"]]}


def play():
    """Play the whole game; returns the start state, the final state and the log."""
    start = E.setup({}, 4)
    log: list[tuple[int, int, dict]] = []
    s = start

    def apply(seat, action):
        nonlocal s
        s = E.apply(s, seat, action)
        log.append((len(log) + 1, seat, action))

    apply(CHANCE, {"type": "shuffle", "order": list(range(16))})
    apply(CHANCE, {"type": "shuffle", "order": [b - 1 for b in BUILDING_ORDER]})
    apply(CHANCE, {"type": "shuffle", "order": [C, A, D, B]})
    assert [p["coins"] for p in s["players"]] == [2, 6, 0, 4]
    for picks in ([3, 7, 11, 13], [14, 4, 8, 12], [10, 16, 1, 5]):
        for seat, card in enumerate(picks):
            assert {"type": "pick", "card": card} in E.legal(s, seat)
            apply(seat, {"type": "pick", "card": card})
    assert [p["cards"] for p in s["players"]] == [[3, 14, 10, 6], [7, 4, 16, 9], [11, 8, 1, 15], [13, 12, 5, 2]]
    assert s["row"] == [13, 11, 17, 9]

    for entry in SCRIPT:
        if entry[0] == "step":
            assert s["phase"] == "work", s["phase"]
            moves = entry[1]
            assert set(E.awaiting(s).seats) == set(moves), (sorted(E.awaiting(s).seats), moves)
            for seat, m in sorted(moves.items()):
                a = {"type": "pass"} if m == "pass" else {"type": "stack", "n": m[0], "order": list(m[1])}
                assert a in E.legal(s, seat)
                apply(seat, a)
        elif entry[0] == "upkeep":
            assert s["phase"] == "upkeep", s["phase"]
            keep = entry[1]
            asked = set(E.awaiting(s).seats)
            assert asked == set(keep), (asked, keep)
            for seat, k in sorted(keep.items()):
                a = {"type": "upkeep", "keep": k, "pay": k * 2 * s["players"][seat]["level"]}
                assert a in E.legal(s, seat)
                apply(seat, a)
        elif entry[0] == "check":
            _, round_, expected, row = entry
            assert s["round"] == round_ and s["phase"] == "work"
            got = {seat: tuple(s["players"][seat][k] for k in ("wood", "stone", "coins", "vp")) for seat in expected}
            assert got == expected, f"before round {round_}"
            assert s["row"] == row
        else:
            seat, what, action = entry
            assert s["phase"] == "resolve", (entry, s["phase"])
            aw = E.awaiting(s)
            assert aw.seats == {seat} and asks_for(aw.prompt, what), (entry, aw)
            action = full_action(s, what, action)
            assert action in E.legal(s, seat), (entry, E.legal(s, seat))
            apply(seat, action)
    return start, s, log


def test_full_game_scores_by_hand():
    _, s, log = play()
    assert E.is_over(s) and s["phase"] == "over"
    assert E.scores(s) == [11, 8, 10, 8]
    assert E.ranking(s) == [[0], [2], [3], [1]]
    assert s["final"] == FINAL
    p = s["players"]
    assert [sorted(x["built"]) for x in p] == [[1, 13], [17], [9, 10, 16], []]
    assert p[1]["plans"] == [2]  # the blind Quarry plan was never built
    assert [x["level"] for x in p] == [3, 3, 3, 4]
    assert E._order(s) == [A, D, C, B]
    assert {e["seat"]: e["space"] for e in s["track"]} == {A: 5, B: 1, C: 2, D: 2}
    assert s["row"] == [11, 3, 15, 12, 14, 4, 5, 6, 7, 8, 18] and s["deck"] == []
    assert E.public(s)["ranking"] == [[0], [2], [3], [1]]
    assert len(log) == 3 + 12 + sum(1 for e in SCRIPT if e[0] not in ("step", "upkeep", "check")) + sum(
        len(e[1]) for e in SCRIPT if e[0] in ("step", "upkeep"))


def test_full_game_replays_from_setup():
    start, live, log = play()
    assert replay(E, E.setup({}, 4), log) == live
    assert replay(E, start, log) == live
    # and any prefix replays to a state the engine accepts the rest from
    half = len(log) // 2
    mid = replay(E, E.setup({}, 4), log[:half])
    assert replay(E, mid, log[half:]) == live


def test_blind_plan_stays_hidden_from_the_others():
    start, _, log = play()
    # right after B's second plan (the blind Quarry), before it is ever revealed
    s = E.setup({}, 4)
    for _, seat, action in log:
        s = E.apply(s, seat, action)
        if seat == B and action == {"type": "location", "at": 9, "building": "deck"}:
            break
    assert s["players"][B]["plans"] == [17, 2]
    assert E.public(s)["players"][B]["plans"] == [17, None]
    for other in (A, C, D):
        assert E.view(s, other)["players"][B]["plans"] == [17, None]
    assert E.view(s, B)["my_plans"] == [17, 2]
    plan = next(ev for ev in reversed(s["log"]) if ev["type"] == "location")
    assert plan["move"] == {"at": 9, "building": "deck"}  # the narration's record names no blind plan
