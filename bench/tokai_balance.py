"""Tokai Baron's balance: how often the owner of each route card wins, over many auto-played games.

    python bench/tokai_balance.py [--games N] [--players P] [--cards K] [--seed S] [--workers W] [--price CARD=YEN ...]

Each game is played as `python -m bot selfplay tokai` plays it (the idle-player default 95% of the time, a uniform
legal move otherwise). When play starts (after the pre-purchase), K route cards drawn at random are each given to a
seat drawn at random (taken from its owner, who gets its price back, if the pre-purchase sold it). The seat pays the
price out of its earnings as they come, keeping 10,000 yen for fares, and what is still owed at the end is taken off
its assets: it owns the line from the start and pays for it as a player saving up for it would. Over many games
every card has a random owner in some of them, so the owner's win rate is the card's own strength (a shared first
place counts as a share of a win). The first buyer's win rate would say more about who can afford a card than about
the card: the dearest lines are bought by whoever is ahead already. A card's owner win rate is compared with the
fair share, 1 in P: the edition is balanced when no card's owners win more than twice their fair share. Cards given
in fewer than 20 games are marked, their rate being mostly noise. `--price` tries another price for a card (to
balance the edition before changing its data)."""
from __future__ import annotations

import argparse
import random
import sys
import time
from collections import defaultdict
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repo, when run as a script

import engines  # noqa: E402
from bot.selfplay import play_one  # noqa: E402
from engines.tokai import network as nw  # noqa: E402
from engines.tokai.engine import price  # noqa: E402

FEW = 20


#: Cash a seat keeps for fares while it pays for a card it was given.
RESERVE = 10_000


def gift_hook(rng: random.Random, players: int, k: int):
    """(hook, given, owed): the experiment as a selfplay hook. When play starts it gives ``k`` random cards to random
    seats (recorded in ``given``); from then on each seat pays what it owes (``owed``) out of its cash above RESERVE."""
    engine, given, owed = engines.get("tokai"), [], [0] * players

    def give(state: dict) -> dict:
        if not given and state["phase"] == "play":
            for card in rng.sample(sorted(state["owners"]), k):
                seat, old = rng.randrange(players), state["owners"][card]
                if old is not None:  # an experiment's hand, not a move: the line changes owner, at its price
                    state["players"][old]["cards"].remove(card)
                    state["owners"][card] = None
                    state["players"][old]["cash"] += price(card)
                engine._take(state, seat, card)
                owed[seat] += price(card)
                given.append((card, seat))
        for seat, debt in enumerate(owed):  # the card is paid for out of the seat's earnings, as they come
            me = state["players"][seat]
            if debt and not me["out"] and (pay := min(debt, me["cash"] - RESERVE)) > 0:
                me["cash"] -= pay
                owed[seat] -= pay
        return state

    return give, given, owed


def gift_game(args: tuple[int, int, int]) -> list[tuple[str, float]]:
    """[(card, the share of the win of the seat given it)] for one seeded game with ``k`` cards given at random."""
    seed, players, k = args
    rng = random.Random(seed)
    hook, given, owed = gift_hook(rng, players, k)
    state = play_one("tokai", players, rng, hook=hook)["state"]
    scores = [s - debt for s, debt in zip(engines.get("tokai").scores(state), owed, strict=True)]
    top = [s for s, v in enumerate(scores) if v == max(scores)]
    return [(card, 1 / len(top) if seat in top else 0.0) for card, seat in given]


def set_trial(prices: dict[str, int], payout: tuple[int, int] | None = None) -> None:
    """Try other prices, or another payout rule (base, yen a hop), in this process: the data is read once and kept."""
    for card in nw.load_route_cards()["cards"]:
        card["price"] = prices.get(card["id"], card["price"])
    if payout is not None:
        chart = nw.load_payouts()
        chart["thousands_of_yen"] = [[nw.payout_for_hops(nw.payout_hops(a, b), *payout) // nw.PAYOUT_UNIT
                                      if a != b else 0 for b in chart["points"]] for a in chart["points"]]


def balance(games: int, players: int, cards: int, seed: int = 0, workers: int = 2,
            prices: dict[str, int] | None = None,
            payout: tuple[int, int] | None = None) -> dict[str, tuple[int, float]]:
    """{card: (games it was given in, its owners' win rate)}."""
    owned: dict[str, int] = defaultdict(int)
    wins: dict[str, float] = defaultdict(float)
    jobs = [(seed + i, players, cards) for i in range(games)]
    with Pool(workers, initializer=set_trial, initargs=(prices or {}, payout)) as pool:
        for result in pool.imap_unordered(gift_game, jobs, chunksize=4):
            for card, won in result:
                owned[card] += 1
                wins[card] += won
    return {card: (owned[card], wins[card] / owned[card]) for card in owned}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--cards", type=int, default=12, help="cards given at random in each game")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--price", action="append", default=[], metavar="CARD=YEN", help="try another price for a card")
    ap.add_argument("--payout", metavar="BASE,PER_HOP", help="try another payout rule: yen per trip plus yen a hop")
    a = ap.parse_args()
    prices = {card: int(yen) for card, yen in (p.split("=") for p in a.price)}
    payout = tuple(int(x) for x in a.payout.split(",")) if a.payout else None
    set_trial(prices, payout)
    start = time.perf_counter()
    stats = balance(a.games, a.players, a.cards, a.seed, a.workers, prices, payout)
    fair = 1 / a.players
    cards = nw.route_cards()
    print(f"tokai balance: {a.games} games at {a.players} players, {a.cards} cards given at random in each, seeds "
          f"{a.seed}..{a.seed + a.games - 1}, {time.perf_counter() - start:.0f} s; fair share {fair:.0%}"
          + (f"; prices tried: {prices}" if prices else "") + (f"; payout tried: {payout}" if payout else ""))
    worst = 0.0
    for card, (n, rate) in sorted(stats.items(), key=lambda kv: -kv[1][1]):
        mark = "  (few games)" if n < FEW else ""
        if n >= FEW:
            worst = max(worst, rate / fair)
        print(f"  {card:30} {cards[card]['price']:>7,} yen  given in {n:4} games  owner wins {rate:6.1%}  "
              f"{rate / fair:4.2f}x fair{mark}")
    print(f"highest owner win rate: {worst:.2f}x the fair share (balanced: at most 2x)")


if __name__ == "__main__":
    main()
