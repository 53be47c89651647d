"""Building 4bit Town states for tests: scripted setup chance, a scripted draft, then direct
edits of the state, and small drivers for the work step and the resolution choices."""
from __future__ import annotations

from typing import Any

from engines.base import CHANCE
from engines.fourbit import FourBit

E = FourBit()


def setup_chance(n: int, cards: list[int] | None = None, buildings: list[int] | None = None,
                 seats: list[int] | None = None) -> dict:
    """The state after the three setup shuffles. ``cards`` and ``buildings`` are card numbers
    (1-based) in deal order; ``seats`` is the turn order, front first."""
    s = E.setup({}, n)
    s = E.apply(s, CHANCE, {"type": "shuffle", "order": [c - 1 for c in (cards or range(1, 17))]})
    s = E.apply(s, CHANCE, {"type": "shuffle", "order": [b - 1 for b in (buildings or range(1, 19))]})
    s = E.apply(s, CHANCE, {"type": "shuffle", "order": list(seats if seats is not None else range(n))})
    return s


def draft(s: dict, picks: list[list[int]] | None = None) -> dict:
    """Play the three draft picks (``picks[turn][seat]``; default: the lowest card in hand)."""
    for turn in range(3):
        for seat in range(s["n"]):
            card = picks[turn][seat] if picks else min(s["draft"]["hands"][seat])
            s = E.apply(s, seat, {"type": "pick", "card": card})
    return s


def game(n: int = 2, round_: int = 1, cards: dict[int, list[int]] | None = None,
         seats: list[int] | None = None, row: list[int] | None = None, deck: list[int] | None = None,
         **players: dict[str, Any]) -> dict:
    """A state at the start of a round's work phase, after a real setup and draft, then edited:
    ``cards={seat: [c1, c2, c3, c4]}``, ``p0={"coins": 10, "built": [1]}`` and so on. Every
    resource starts at 0 unless given (the catch-up coins are overwritten)."""
    s = draft(setup_chance(n, seats=seats))
    assert s["phase"] == "work" and s["round"] == 1
    s["round"] = round_
    for i, p in enumerate(s["players"]):
        p.update(wood=0, stone=0, coins=0, vp=0)
        p.update(players.get(f"p{i}", {}))
        if cards and i in cards:
            p["cards"] = list(cards[i])
    if row is not None:
        s["row"] = list(row)
    if deck is not None:
        s["deck"] = list(deck)
    return s


# the default cards: every face of 1..4 is a plain gain or conversion; choose others per test
PLAIN = {0: [1, 2, 3, 4], 1: [5, 6, 7, 16], 2: [13, 8, 9, 10], 3: [11, 12, 14, 15]}


def stack(s: dict, seat: int, n: int, order: list[int] | None = None) -> dict:
    return {"type": "stack", "n": n, "order": list(order or s["players"][seat]["cards"])}


def step(s: dict, moves: dict[int, Any]) -> dict:
    """One work step: every active seat must be given a move: a location number, a
    ``(number, order)`` pair, "pass" or an action dict."""
    active = sorted(E.awaiting(s).seats)
    assert sorted(moves) == active, f"active seats are {active}, moves given for {sorted(moves)}"
    for seat, m in moves.items():
        if m == "pass":
            a = {"type": "pass"}
        elif isinstance(m, int):
            a = stack(s, seat, m)
        elif isinstance(m, tuple):
            a = stack(s, seat, m[0], m[1])
        else:
            a = m
        s = E.apply(s, seat, a)
    return s


def who(s: dict) -> int:
    seats = E.awaiting(s).seats
    assert len(seats) == 1, f"expected one seat to act, awaiting {sorted(seats)} in phase {s['phase']}"
    return next(iter(seats))


def options(s: dict) -> list[dict]:
    return E.legal(s, who(s))


def act(s: dict, action: dict, seat: int | None = None) -> dict:
    """Apply a resolution choice, which must be one of the listed legal actions."""
    seat = who(s) if seat is None else seat
    legal = E.legal(s, seat)
    assert action in legal, f"{action} is not legal for seat {seat}; legal: {legal}"
    return E.apply(s, seat, action)


def next_card(s: dict) -> dict:
    """The card and side of the resolving worker's next card."""
    w, r = s["queue"][s["res"]["i"]], s["res"]
    return {"card": w["order"][r["card"]], "side": w["bits"][r["card"]]}


def use(s: dict) -> dict:
    return {"type": "use", **next_card(s)}


def skip(s: dict) -> dict:
    return {"type": "skip", **next_card(s)}


def take(s: dict, **params) -> dict:
    """Take the resolving worker's location effect now, with these parameters."""
    return {"type": "location", "at": s["queue"][s["res"]["i"]]["loc"], **params}


def decline(s: dict) -> dict:
    return {"type": "decline", "at": s["queue"][s["res"]["i"]]["loc"]}


def skip_all(s: dict, city_hall: dict | None = None) -> dict:
    """Skip every remaining choice of the step: cards, then the location (City Hall takes ``city_hall``,
    default 2 wood)."""
    while s["phase"] == "resolve":
        legal = options(s)
        kinds = {a["type"]: a for a in reversed(legal)}
        gain = city_hall or {"type": "city_hall", "gain": "wood", "step": False}
        a = kinds.get("skip") or kinds.get("decline") or gain
        s = act(s, a)
    return s


def stage(s: dict) -> tuple[int, int, str, int]:
    """(seat, location, stage, card index) of the worker being resolved; the stage is "location" while only
    the location's effect is left, "card" while cards are left, "city_hall" for City Hall's gain."""
    w, r = s["queue"][s["res"]["i"]], s["res"]
    name = r["stage"] if r["stage"] == "city_hall" else "card" if r["card"] < 4 else "location"
    return w["seat"], w["loc"], name, r["card"]


def end_round(s: dict, market: dict[int, dict] | None = None, keep: dict[int, int] | None = None) -> dict:
    """Every active seat passes; then Market trades and upkeep as given (default: no trades,
    keep every worker that can be paid)."""
    s = step(s, {seat: "pass" for seat in E.awaiting(s).seats})
    while s["phase"] in ("market", "upkeep"):
        seat = min(E.awaiting(s).seats)
        legal = E.legal(s, seat)
        if s["phase"] == "market":
            a = (market or {}).get(seat, {"type": "market", "wood": 0, "stone": 0})
        else:
            want = keep.get(seat) if keep else None
            a = next(m for m in legal if m["keep"] == want) if want is not None else legal[0]
        s = act(s, a, seat)
    return s


def player(s: dict, seat: int) -> dict:
    return s["players"][seat]


def res(s: dict, seat: int) -> tuple[int, int, int, int]:
    p = s["players"][seat]
    return p["wood"], p["stone"], p["coins"], p["vp"]
