"""Hypothesis: random legal games of I'm the Boss! (2-6 players, random variant options) end in
time, keep every card and every dollar accounted for, never promise more than a deal pays,
replay exactly, and never show a hand or an exact pile of money to the table.

The random player: one ``random.Random`` (seeded by hypothesis) drives chance and the moves. Each
step it picks a seat among *all* seats with a legal move (during a deal anyone may act, so offers,
cards, boss cards and stops by players who are not awaited happen), then a move type, then one move
of that type (so 40 prices do not drown the cards). Bias, so that a game ends in a few hundred
actions: move types are weighted (offers x3, drawing x3 against dealing after a roll, withdrawals and
refusals x0.3, failing x0.05); at each step of an open deal the boss is asked first with probability
0.3, and then declares the deal made (0.9) when it can, else accepts an offer (0.8), else uses a card
(0.8, 2-player rules), else fails the deal (0.5 when nobody can make progress, else 0.02). A last call
runs out (the chance ``expire``) with probability 0.1 a step. Measured over 1200 games: about 400
actions a game on average, 1789 at most, against the bound of 4000.
"""
from __future__ import annotations

import copy
import json
import random
import re
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import engines.boss
from bot.tables import Change, Table
from cogs.boss import BossPresenter
from engines.base import CHANCE
from engines.boss import DECK, Boss, cash_band, event_text, money
from engines.boss.board import BOARDS
from engines.chance import draw
from engines.log import replay
from storage.base import GameRow, SeatRow

E = Boss()
PRESENTER = BossPresenter()
# The board read again from its file, so that payouts are worked out without the engine.
BOARD = json.loads((Path(engines.boss.__file__).parent / "board_ours.json").read_text(encoding="utf-8"))
TILE_VALUE = {t["number"]: t["value"] for t in BOARD["deals"]}
SPACES = BOARD["spaces"]
DECK_KINDS = Counter(DECK)
KINDS = sorted(DECK_KINDS)
NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]
BOUND = 4000  # actions a game, chance included (see above)
OPTIONS = st.fixed_dictionaries({
    o.name: st.sampled_from([c for c in o.choices if o.name != "board" or c in BOARDS]) for o in E.options})
LARGE_OK = [HealthCheck.too_slow, HealthCheck.large_base_example, HealthCheck.data_too_large]
BOSS_FIRST = 0.3  # in an open deal, how often the boss is asked first
BOSS_CLOSES = (("declare", 0.9), ("accept", 0.8), ("use", 0.8))  # what the boss then does, in this order,
FAIL, FAIL_STUCK = 0.02, 0.5  # else fails the deal
EXPIRE = 0.1
WEIGHT = {"offer": 3, "draw": 3, "withdraw": 0.3, "refuse": 0.3, "fail": 0.05}
WHOLE_GAMES = [Phase.explicit, Phase.reuse, Phase.generate]  # no shrinking of whole games


def choose(s: dict, rnd: random.Random) -> tuple[int, dict]:
    """The next (seat, action) of a random legal game."""
    aw = E.awaiting(s)
    if aw.chance:
        return CHANCE, draw(aw.chance, rnd)
    if aw.window and rnd.random() < EXPIRE:
        return CHANCE, E.expire(s)
    legal = {seat: moves for seat in range(s["n"]) if (moves := E.legal(s, seat))}
    assert aw.seats, f"nobody is awaited in phase {s['phase']} and the game is not over"
    assert aw.seats <= set(legal), f"an awaited seat has no legal move in phase {s['phase']}"
    if s["phase"] == "deal" and s["deal"]["stage"] == "open" and rnd.random() < BOSS_FIRST:
        boss = s["deal"]["boss"]
        types = {a["type"] for moves in legal.values() for a in moves}
        # progress: someone can declare, accept, use or offer, or lay the first family card of the deal
        progress = types & {"declare", "accept", "use", "offer"} or ("lay" in types and not s["deal"]["laid"])
        for kind, p in BOSS_CLOSES + (("fail", FAIL if progress else FAIL_STUCK),):
            moves = [a for a in legal.get(boss, []) if a["type"] == kind]
            if moves and rnd.random() < p:
                return boss, rnd.choice(moves)
    seat = rnd.choice(sorted(legal))
    kinds = sorted({a["type"] for a in legal[seat]})
    kind = rnd.choices(kinds, [WEIGHT.get(k, 1) for k in kinds])[0]
    return seat, rnd.choice([a for a in legal[seat] if a["type"] == kind])


def all_cards(s: dict) -> Counter:
    """Every influence card: deck, discards, hands, and laid and played in an open deal."""
    cards = Counter(s["deck"]) + Counter(s["discard"])
    for h in s["hands"]:
        cards += Counter(h)
    if s["deal"] is not None:
        cards += Counter(f"family.{c['family']}" for c in s["deal"]["laid"]) + Counter(s["deal"]["played"])
    return cards


def amount(deal: dict, entry: dict) -> int:
    """What an agreement is worth, worked out from the board file."""
    p, sp = entry["price"], SPACES[deal["space"]]
    if "shares" in p:
        return p["shares"] * TILE_VALUE[deal["tile"]]
    if "money" in p:
        return p["money"] * 1000
    return payout(deal) // (len(sp["must"]) + sp["more"]) // 100 * 100  # 2-player fair share


def payout(deal: dict) -> int:
    return SPACES[deal["space"]]["shares"] * TILE_VALUE[deal["tile"]]


def keys_in(value) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys_in(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys_in(v)}
    return set()


def check_step(before: dict, seat: int, action: dict, after: dict, seq: int) -> int:
    """Invariants after one action; returns what the bank paid out in it (worked out here)."""
    assert json.loads(json.dumps(after)) == after
    # cards: all 98, and exactly the engine's deck
    cards = all_cards(after)
    assert sum(cards.values()) == len(DECK) == 98
    assert cards == DECK_KINDS, cards - DECK_KINDS
    assert all(k > 0 for h in after["hands"] for k in h.values())
    # money: the bank pays only when a deal closes, the boss pays what was agreed, nobody is in debt
    assert all(c >= 0 for c in after["cash"]), after["cash"]
    assert sum(after["cash"]) == after["paid_out"]
    expected = list(before["cash"])
    paid = 0
    d = before["deal"]
    if d is not None and after["deals_done"] == before["deals_done"] + 1:  # the deal closed now
        assert after["spaces"][d["space"]]["tile"] == d["tile"] == before["stack"][0]["number"]
        paid = payout(d)
        boss = d["boss"]
        expected[boss] += paid
        for a in d["agreements"]:
            if before["opts"]["paid_if_played"] and a["seat"] not in d["card_players"]:
                continue  # the variant: the boss keeps it
            expected[boss] -= amount(d, a)
            expected[a["seat"]] += amount(d, a)
        said = [event_text(e) for e in after["events"] if e["no"] > before["event_no"]]
        assert any(t.startswith(f"Deal made! The bank pays [0] {money(paid)} ") for t in said), said
    else:
        assert after["deals_done"] == before["deals_done"]
    assert after["cash"] == expected, (action, before["cash"], after["cash"], expected)
    # promises stay within the payout
    pub = E.public(after)
    if after["deal"] is not None:
        d = after["deal"]
        promised = sum(amount(d, a) for a in d["agreements"])
        assert promised <= payout(d) == d["payout"]
        assert pub["deal"]["promised"] == promised
    # no hand and no exact money in public; a seat's view is public plus its own hand and money
    assert not keys_in(pub) & {"hand", "hands", "cash"}
    assert pub["cash_band"] == [cash_band(c) for c in after["cash"]]
    assert pub["hand_sizes"] == [sum(h.values()) for h in after["hands"]]
    who = seq % after["n"]  # one seat a step, in turn (all of them at the sampled steps of check_secrets)
    assert E.view(after, who) == pub | {"hand": after["hands"][who], "cash": after["cash"][who]}
    return paid


def band_range(c: int) -> tuple[int, int]:
    edges = [0, 1, 10_000, 25_000, 50_000, 100_000, 10**9]
    i = next(i for i in range(len(edges) - 1) if edges[i] <= c < edges[i + 1])
    return edges[i], edges[i + 1] - 1


def other_secrets(s: dict, rnd: random.Random, seats) -> dict:
    """The same state with other hands (same sizes) and other exact money (same look) for ``seats``."""
    alt = copy.deepcopy(s)
    for seat in seats:
        size = sum(s["hands"][seat].values())
        alt["hands"][seat] = dict(Counter(rnd.choice(KINDS) for _ in range(size)))
        alt["cash"][seat] = rnd.randint(*band_range(s["cash"][seat]))
    return alt


def check_secrets(s: dict, rnd: random.Random) -> None:
    """public(s) does not depend on hands or exact money; view(s, seat) is public plus that seat's
    hand and money only, and depends on no other seat's."""
    pub = E.public(s)
    for seat in range(s["n"]):
        v = E.view(s, seat)
        assert json.loads(json.dumps(v)) == v
        assert v == pub | {"hand": s["hands"][seat], "cash": s["cash"][seat]}
    if E.is_over(s):
        return  # the scores are the exact money, and public
    assert E.public(other_secrets(s, rnd, range(s["n"]))) == pub
    for seat in range(s["n"]):
        changed = other_secrets(s, rnd, [o for o in range(s["n"]) if o != seat])
        assert E.view(changed, seat) == E.view(s, seat)
        assert E.legal(changed, seat) == E.legal(s, seat)


def play(seed: int, n: int, opts: dict, each=None, check: bool = True) -> tuple[dict, list, int]:
    """A random legal game, checked after every action (``check_step``, unless ``check`` is false);
    ``each(before, seat, action, after, seq)`` adds checks. Returns the final state, the log and what
    the bank paid (worked out from the board)."""
    rnd = random.Random(seed)
    s = E.setup(opts, n)
    log: list[tuple[int, int, dict]] = []
    bank = 0
    while not E.is_over(s):
        assert len(log) < BOUND, "the game did not end in time"
        seat, action = choose(s, rnd)
        after = E.apply(s, seat, action)
        log.append((len(log) + 1, seat, action))
        if check:
            bank += check_step(s, seat, action, after, len(log))
            assert after["paid_out"] == bank
        if each is not None:
            each(s, seat, action, after, len(log))
        s = after
    aw = E.awaiting(s)
    assert aw.seats == frozenset() and aw.chance is None
    return s, log, bank


@settings(max_examples=15, deadline=None, suppress_health_check=LARGE_OK, phases=WHOLE_GAMES)
@given(st.integers(2, 6), st.integers(0, 2**32), OPTIONS)
def test_random_games_end_conserve_cards_and_money_keep_secrets_and_replay(n, seed, opts):
    sample = random.Random(seed ^ 0x5EC)

    def each(before, seat, action, after, seq):
        if sample.random() < 0.1:
            check_secrets(after, sample)

    s, log, bank = play(seed, n, opts, each)
    check_secrets(s, sample)
    scores = E.scores(s)
    assert scores == s["cash"] and len(scores) == n
    assert sum(scores) == s["paid_out"] == bank
    assert not s["stack"] or s["last_roll"] in s["end_numbers"]  # the last tile, or an end number rolled
    assert replay(E, E.setup(opts, n), log) == s
    assert json.loads(json.dumps(s)) == s


def table_for(n: int, opts: dict, state: dict, seq: int) -> Table:
    """A table as the runtime holds it, without Discord or a database."""
    game = GameRow(id=7, guild_id=1, channel_id=2, engine="boss", data_version=E.data_version, options=opts,
                   status="running", creator_id=100, max_players=n, random_seats=False, reminder_hours=0,
                   autopass_hours=0, message_id=None, last_ping_key=None, pending={}, created_at=0.0,
                   updated_at=0.0, seats=[SeatRow(position=i, seat=i, user_id=100 + i, name=NAMES[i])
                                          for i in range(n)])
    return Table(game, E, state, seq)


HAND_LINE = re.compile(r"^Your hand \(\d+\): (.*)$")


@settings(max_examples=5, deadline=None, suppress_health_check=LARGE_OK, phases=WHOLE_GAMES)
@given(st.integers(2, 6), st.integers(0, 2**32), OPTIONS)
def test_the_presenter_shows_no_private_line_to_the_table(n, seed, opts):
    def each(before, seat, action, after, seq):
        table = table_for(n, opts, after, seq)
        lines = PRESENTER.public_lines(table)
        posts = PRESENTER.announce(Change("action", table, entries=[(seq, seat, action)], before=before))
        text = "\n".join(lines + [t for t, _ in posts])
        assert "Your money" not in text and "Your hand" not in text
        s = seq % n  # one seat a step, in turn (each private_lines and table.private builds the views again)
        mine = PRESENTER.private_lines(table, s)
        assert not any(line in text for line in mine[:2])
        listing = HAND_LINE.match(mine[1]).group(1)
        # a one-card listing ("boss card") is also how the narration names a played card
        if ", " in listing or "× " in listing:
            assert listing not in text, (listing, text)
        assert set(table.private(s)) <= {"hand", "cash"}  # what the runtime DMs

    play(seed, n, opts, each, check=False)  # the engine's invariants are the other test's
