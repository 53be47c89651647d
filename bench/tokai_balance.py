"""Tokai Baron's balance: how often the owner of each route card wins, over many auto-played games.

    python bench/tokai_balance.py [--games N] [--players P] [--seed S] [--workers W] [--price CARD=YEN ...]

Each game is played as `python -m bot selfplay tokai` plays it (the idle-player default 95% of the time, a
uniform legal move otherwise). A card's owner is the player who bought it first (in the pre-purchase or on
arriving), and the game counts for the card if it was bought at all; whether that owner won (a shared first place
counts as a share of a win). Ownership at the end would say little: the winner then holds most lines, and an
eliminated player's lines are back in the bank. A card's owner win rate is compared with the fair share, 1 in P:
the edition is balanced when no card's owners win more than twice their fair share. Cards bought in fewer than
20 games are marked, their rate being mostly noise. `--price` tries another price for a card (to balance the
edition before changing its data).

A first buyer's win rate also measures who can afford a card: the dearest lines are bought by whoever is ahead
already, so they read high even when they give no edge of their own. Compare a card with cards of like price."""
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
from engines.tokai.engine import TICKET, price  # noqa: E402

FEW = 20
PRICES: dict[str, int] = {}  # prices tried (--price), for the workers


def one_game(args: tuple[int, int]) -> dict[str, float]:
    """{card: the share of the win its first buyer got} for one seeded game (cards nobody bought are left out)."""
    seed, players = args
    game = play_one("tokai", players, random.Random(seed))
    buyer: dict[str, int] = {}
    for entry in game["log"]:
        action = entry["action"]
        if action["type"] == "buy" and action["card"] != TICKET:
            buyer.setdefault(action["card"], entry["seat"])
    first = engines.get("tokai").ranking(game["state"])[0]
    return {card: (1 / len(first) if seat in first else 0.0) for card, seat in buyer.items()}


def probe_game(args: tuple[int, int, str]) -> float:
    """The share of the win of a random seat given ``card`` when play starts (after the pre-purchase), counting
    its price against that seat's assets as if it had paid: the card's own edge, not who can afford it."""
    seed, players, card = args
    rng = random.Random(seed)
    engine, given = engines.get("tokai"), {}

    def give(state: dict) -> dict:
        if not given and state["phase"] in ("start", "play") and state["owners"][card] is None:
            given["seat"] = rng.randrange(players)
            engine._take(state, given["seat"], card)  # an experiment's hand, not a move
        return state

    state = play_one("tokai", players, rng, hook=give)["state"]
    if not given:
        return -1.0  # bought in the pre-purchase: not a probe
    scores = engine.scores(state)
    scores[given["seat"]] -= price(card)
    best = max(scores)
    top = [s for s, v in enumerate(scores) if v == best]
    return 1 / len(top) if given["seat"] in top else 0.0


def probe(card: str, games: int, players: int, seed: int = 0, workers: int = 2) -> tuple[int, float]:
    """(games, win rate) of the seat given ``card`` at the start of play."""
    with Pool(workers, initializer=set_prices, initargs=(PRICES,)) as pool:
        got = [x for x in pool.map(probe_game, [(seed + i, players, card) for i in range(games)]) if x >= 0]
    return len(got), sum(got) / len(got)


def set_prices(prices: dict[str, int]) -> None:
    """Try other prices (in this process): the cards' data is read once and kept."""
    for card in nw.load_route_cards()["cards"]:
        card["price"] = prices.get(card["id"], card["price"])


def balance(games: int, players: int, seed: int = 0, workers: int = 2,
            prices: dict[str, int] | None = None) -> dict[str, tuple[int, float]]:
    """{card: (games it was bought in, its first buyers' win rate)}."""
    owned: dict[str, int] = defaultdict(int)
    wins: dict[str, float] = defaultdict(float)
    jobs = [(seed + i, players) for i in range(games)]
    with Pool(workers, initializer=set_prices, initargs=(prices or {},)) as pool:
        for result in pool.imap_unordered(one_game, jobs, chunksize=4):
            for card, won in result.items():
                owned[card] += 1
                wins[card] += won
    return {card: (owned[card], wins[card] / owned[card]) for card in owned}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--price", action="append", default=[], metavar="CARD=YEN", help="try another price for a card")
    ap.add_argument("--probe", action="append", default=[], metavar="CARD",
                    help="give CARD to a random seat when play starts, and print that seat's win rate")
    a = ap.parse_args()
    prices = {card: int(yen) for card, yen in (p.split("=") for p in a.price)}
    set_prices(prices)
    PRICES.update(prices)
    for card in a.probe:
        n, rate = probe(card, a.games, a.players, a.seed, a.workers)
        print(f"probe {card}: given to a random seat when play starts (its price counted against it), "
              f"{n} games at {a.players} players: that seat wins {rate:.1%}, {rate * a.players:.2f}x the fair share")
    if a.probe:
        return
    start = time.perf_counter()
    stats = balance(a.games, a.players, a.seed, a.workers, prices)
    fair = 1 / a.players
    cards = nw.route_cards()
    print(f"tokai balance: {a.games} games at {a.players} players, seeds {a.seed}..{a.seed + a.games - 1}, "
          f"{time.perf_counter() - start:.0f} s; fair share {fair:.0%}"
          + (f"; prices tried: {prices}" if prices else ""))
    worst = 0.0
    for card, (n, rate) in sorted(stats.items(), key=lambda kv: -kv[1][1]):
        mark = "  (few games)" if n < FEW else ""
        if n >= FEW:
            worst = max(worst, rate / fair)
        print(f"  {card:28} {cards[card]['price']:>7,} yen  bought in {n:4} games  buyer wins {rate:6.1%}  "
              f"{rate / fair:4.2f}x fair{mark}")
    print(f"highest owner win rate: {worst:.2f}x the fair share (balanced: at most 2x)")


if __name__ == "__main__":
    main()
