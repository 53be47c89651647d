"""Building I'm the Boss! states for tests: a real setup with scripted shuffles, then direct edits
(hands, investors, the deck, the tile stack) that keep every card and tile accounted for, and
small drivers for deals. Every move goes through ``E.apply`` so the engine validates it.

Cards are named as in the engine ("family.red", "travel.grey", "hire", "boss", "stop"); in keyword
arguments the dot is an underscore: ``give(s, 0, family_red=2, travel_grey=1, hire=3)``."""
from __future__ import annotations

from typing import Any

import pytest

from engines.base import CHANCE, RuleError
from engines.boss import DECK, Boss
from engines.boss.board import FAMILIES, SPACES

E = Boss()


def card(key: str) -> str:
    """``family_red`` -> ``family.red``; ``hire`` stays ``hire``."""
    return key.replace("_", ".", 1)


def setup_chance(n: int, options: dict[str, Any] | None = None, deck_order: list[int] | None = None,
                 investors_order: list[int] | None = None) -> dict:
    """The state after the two setup shuffles (phase "place"). ``deck_order`` is a permutation of
    indices into ``DECK`` (front of the deck first); ``investors_order`` of indices into
    ``FAMILIES`` (dealt in runs: at 3 players the first two go to seat 0, and so on)."""
    s = E.setup(dict(options or {}), n)
    s = E.apply(s, CHANCE, {"type": "shuffle", "order": list(deck_order if deck_order is not None
                                                              else range(len(DECK)))})
    s = E.apply(s, CHANCE, {"type": "shuffle", "order": list(investors_order if investors_order is not None
                                                              else range(len(FAMILIES)))})
    return s


def started(n: int, options: dict[str, Any] | None = None, deck_order: list[int] | None = None,
            investors_order: list[int] | None = None, marker: int = 0) -> dict:
    """A started game: setup shuffles, then seat n-1 places the marker; phase "turn" for seat 0.
    With the default orders the investors go out in FAMILIES order (red, blue, yellow, pink,
    orange, green) and the hands are the front of DECK (family cards first)."""
    s = setup_chance(n, options, deck_order, investors_order)
    s = E.apply(s, n - 1, {"type": "place", "space": marker})
    assert s["phase"] == "turn" and s["turn"] == 0
    return s


def hand(s: dict, seat: int) -> dict[str, int]:
    return dict(s["hands"][seat])


def give(s: dict, seat: int, **cards: int) -> dict:
    """Set a seat's hand to exactly ``cards``: the old hand goes to the bottom of the deck, the
    new cards are taken out of the deck (so all 98 cards stay accounted for). Edits ``s``."""
    for c, k in s["hands"][seat].items():
        s["deck"] += [c] * k
    s["hands"][seat] = {}
    for key, k in cards.items():
        c = card(key)
        assert c in DECK, f"no such card {c}"
        for _ in range(k):
            take_out(s, c)
        if k:
            s["hands"][seat][c] = k
    return s


def clear_hands(s: dict) -> dict:
    """Every hand empty (the cards go to the bottom of the deck). Edits ``s``."""
    for seat in range(s["n"]):
        give(s, seat)
    return s


def take_out(s: dict, c: str) -> None:
    """Remove one ``c`` from the deck, else from the discards."""
    for pile in ("deck", "discard"):
        if c in s[pile]:
            s[pile].remove(c)
            return
    raise AssertionError(f"no {c} left in the deck or the discards")


def top_deck(s: dict, *cards: str) -> dict:
    """Put these cards (engine names) on top of the deck, first drawn first. Edits ``s``."""
    for c in cards:
        take_out(s, c)
    s["deck"][:0] = list(cards)
    return s


def empty_deck(s: dict) -> dict:
    """Move the whole deck to the discards (the next draw reshuffles). Edits ``s``."""
    s["discard"] += s["deck"]
    s["deck"] = []
    return s


def own(s: dict, **owners: int | None) -> dict:
    """Set investor owners: ``own(s, red=1, green=None)`` (None: beside the board). Edits ``s``."""
    for f, seat in owners.items():
        assert f in FAMILIES
        s["owners"][f] = seat
    return s


def investors_of(s: dict, seat: int | None) -> list[str]:
    return [f for f in FAMILIES if s["owners"][f] == seat]


def cover(s: dict, *spaces: int) -> dict:
    """Make the next deals as if already done: the top tiles cover ``spaces`` (in order), the marker
    moves on if it stood on one of them. The values left in the stack are unchanged. Edits ``s``."""
    for sp in spaces:
        assert s["spaces"][sp]["tile"] is None, f"space {sp} is covered"
        tile = s["stack"].pop(0)
        s["spaces"][sp]["tile"] = tile["number"]
        s["deals_done"] += 1
        s["end_numbers"] = tile["end"]
    if s["marker"] is not None and s["spaces"][s["marker"]]["tile"] is not None:
        s["marker"] = next(i for i in ((s["marker"] + k) % SPACES for k in range(1, SPACES))
                           if s["spaces"][i]["tile"] is None)
    return s


def free_spaces(s: dict) -> list[int]:
    return [i for i in range(SPACES) if s["spaces"][i]["tile"] is None]


def tiles_done(s: dict, k: int, avoid: tuple[int, ...] = ()) -> dict:
    """Cover ``k`` free spaces (the highest-numbered ones not in ``avoid`` and not under the
    marker) with the next ``k`` tiles. Edits ``s``."""
    spaces = [i for i in reversed(free_spaces(s)) if i not in avoid and i != s["marker"]][:k]
    assert len(spaces) == k
    return cover(s, *spaces)


#: Moves that name what they answer (a stop its card, "nothing more" its last call, an acceptance its terms): a
#: test may write the short form, and plays the one legal move that names it.
NAMED = ("stop", "pass", "accept")


def act(s: dict, seat: int, action: dict) -> dict:
    """Apply a move that must also be listed by ``legal`` (a short named move: the legal one it stands for)."""
    legal = E.legal(s, seat)
    if action not in legal and action["type"] in NAMED:
        action = next((m for m in legal if m.items() >= action.items()), action)
    assert action in legal, f"{action} is not legal for seat {seat}; legal: {legal}"
    return E.apply(s, seat, action)


def rule_error(s: dict, seat: int, action: dict) -> str:
    """The sentence of the RuleError the move raises (the test fails if it is accepted)."""
    with pytest.raises(RuleError) as e:
        E.apply(s, seat, action)
    return str(e.value)


def roll(s: dict, value: int) -> dict:
    return E.apply(s, CHANCE, {"type": "dice", "values": [value]})


def shuffle(s: dict, order: list[int]) -> dict:
    return E.apply(s, CHANCE, {"type": "shuffle", "order": list(order)})


def expire(s: dict) -> dict:
    return E.apply(s, CHANCE, {"type": "expire"})


def deal_on(s: dict, space: int | None = None) -> dict:
    """The turn player starts a deal as boss, on ``space`` (the marker is put there first;
    default: where it stands)."""
    if space is not None:
        assert s["spaces"][space]["tile"] is None, f"space {space} is covered"
        s["marker"] = space
    assert s["phase"] in ("turn", "after_roll")
    return E.apply(s, s["turn"], {"type": "deal"})


def boss(s: dict) -> int:
    return s["deal"]["boss"]


def needed(s: dict) -> list[str]:
    return E.needed(s)


def offer(s: dict, seat: int, family: str, shares: int | None = None, money: int | None = None) -> dict:
    a: dict[str, Any] = {"type": "offer", "family": family}
    if shares is not None:
        a["shares"] = shares
    if money is not None:
        a["money"] = money
    return E.apply(s, seat, a)


def accept(s: dict, seat: int, family: str) -> dict:
    """The boss accepts ``seat``'s offer for ``family``."""
    return E.apply(s, boss(s), {"type": "accept", "seat": seat, "family": family})


def join(s: dict, seat: int, family: str, shares: int | None = None, money: int | None = None) -> dict:
    """``seat`` offers ``family`` and the boss accepts."""
    return accept(offer(s, seat, family, shares, money), seat, family)


def others(s: dict) -> list[int]:
    return [x for x in range(s["n"]) if x != boss(s)]


def close(s: dict) -> dict:
    """The boss declares the deal made and everyone else says nothing more."""
    s = E.apply(s, boss(s), {"type": "declare"})
    for x in others(s):
        if s["phase"] == "deal":
            s = E.apply(s, x, {"type": "pass"})
    return s


def fail(s: dict) -> dict:
    return E.apply(s, boss(s), {"type": "fail"})


def cards_total(s: dict) -> int:
    """Every influence card: deck, discards, hands, laid and played in an open deal."""
    total = len(s["deck"]) + len(s["discard"]) + sum(sum(h.values()) for h in s["hands"])
    if s["deal"] is not None:
        total += len(s["deal"]["laid"]) + len(s["deal"]["played"])
    return total
