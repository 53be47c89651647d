"""How fast the 18xx engine is on 1889: replaying each recorded 18xx.games fixture, the auto-router on the late
operating rounds of game 314, and selfplay.

1. Replay: each 1889 fixture in ../shared/data/18xx/fixtures replayed whole through engines/e18xx/replay.py
   (reading the export included), median of several runs, and recorded actions per second. The issue's peer is
   the 18xx.games engine (Ruby) loading the same log; it is timed only if `ruby` exists here, and even then not by
   this script (it needs the tobymao/18xx checkout and its gems), so without it no peer figure is printed.
2. Router: `best_runs` for all the corporation's trains on the state just before each run_routes of 314's last two
   sets of operating rounds (the busiest boards); median and max over those states, each state's time the median
   of several calls. The peer is an exhaustive search over every assignment of legal routes to the trains.
3. Selfplay: 1889 at 4 players, actions per second (chance draws included) over a few seeded games; a game still
   running after LIMIT actions (random play stuck in the private auction) is named and left out.

Run from the repository root:  python bench/bench_18xx.py [EXPORT.json ...]   (under half a minute)
Exports named on the command line (other recorded 1889 games) are replayed and timed too.
"""
from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repo, when run as a script

from bot.selfplay import NeverEnds, play_one  # noqa: E402
from engines.e18xx.replay import replay_export  # noqa: E402
from engines.e18xx.route import all_routes, best_runs, exhaustive_best, train  # noqa: E402
from engines.e18xx.state import G  # noqa: E402

#: Selfplay games that have not ended after this many actions are left out (a finished 4-player game takes about
#: 300-1,300; random play can stay in the private auction for ever, see tests/test_e18xx_selfplay.py).
LIMIT = 5_000
FIXTURES = Path(__file__).resolve().parents[2] / "shared" / "data" / "18xx" / "fixtures"


def timed(fn, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        out.append(time.perf_counter() - start)
    return out


def ms(x: float) -> str:
    return f"{x * 1000:.2f} ms"


def bench_replay(repeat: int, paths: list[Path]) -> None:
    ruby = shutil.which("ruby")
    print("peer: " + (f"ruby is at {ruby}, but this script does not run the 18xx.games engine (it needs the "
                      "tobymao/18xx checkout and its gems); no peer figure" if ruby else
                      "ruby is not installed on this machine, so the 18xx.games engine cannot be run here; "
                      "no peer figure, our figures only"))
    for path in paths:
        doc = json.loads(path.read_text(encoding="utf-8"))
        times = timed(lambda doc=doc: replay_export(doc), repeat)
        median = statistics.median(times)
        actions = len(doc["actions"])
        print(f"replay {path.name}: {actions} actions, median {ms(median)} of {repeat} "
              f"(min {ms(min(times))}), {actions / median:,.0f} actions/s")


def late_run_states() -> list[tuple[dict, dict]]:
    """(run_routes action, state before it) for 314's last two sets of operating rounds."""
    doc = json.loads((FIXTURES / "1889-314.json").read_text(encoding="utf-8"))
    found, before = [], {}

    def after(action, state):
        if action["type"] == "run_routes":
            found.append((action, before["state"]))
        before["state"] = state

    replay_export(doc, on_action=after)
    sets = sorted({s["round"]["turn"] for _, s in found})[-2:]
    return [(a, s) for a, s in found if s["round"]["turn"] in sets]


def bench_router(repeat: int) -> None:
    states = late_run_states()
    ours, peer, sizes, routes = [], [], [], []
    for action, state in states:
        g = G(state)
        args = (g.board, action["entity"], g.corp(action["entity"])["trains"], g.colours)
        slow = (args[0], args[1], [train(n) for n in args[2]], args[3])
        assert best_runs(*args)[0] == exhaustive_best(*slow), action["id"]
        ours.append(statistics.median(timed(lambda args=args: best_runs(*args), repeat)))
        peer.append(statistics.median(timed(lambda slow=slow: exhaustive_best(*slow), repeat)))
        sizes.append(len(args[2]))
        routes.append(len(all_routes(args[0], args[1], max(train(n).distance for n in args[2]))))
    turns = sorted({s["round"]["turn"] for _, s in states})
    print(f"router on 314, operating rounds {turns[0]}.x-{turns[-1]}.x: {len(states)} run_routes states, "
          f"{min(sizes)}-{max(sizes)} trains, {min(routes)}-{max(routes)} legal routes")
    print(f"  best_runs: median {ms(statistics.median(ours))}, max {ms(max(ours))} (each the median of {repeat} calls)")
    print(f"  peer, exhaustive search over route assignments (same totals): median "
          f"{ms(statistics.median(peer))}, max {ms(max(peer))}; ratio of medians exhaustive/router "
          f"{statistics.median(peer) / statistics.median(ours):.1f}x")


def bench_selfplay(games: int) -> None:
    actions, seconds, stalled = 0, 0.0, []
    for seed in range(games):
        start = time.perf_counter()
        try:
            actions += play_one("1889", 4, random.Random(seed), max_actions=LIMIT)["actions"]
            seconds += time.perf_counter() - start
        except NeverEnds:
            stalled.append(seed)
    note = f"; seeds {stalled} did not end within {LIMIT:,} actions (left out)" if stalled else ""
    done = games - len(stalled)
    print(f"selfplay 1889 4p: {actions / seconds:,.0f} actions/s ({actions} actions in {done} games, "
          f"{actions / done:.0f} a game, chance included){note}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7, help="runs per replay and calls per router state")
    ap.add_argument("--games", type=int, default=8, help="selfplay games (seeds 0..games-1)")
    ap.add_argument("exports", nargs="*", type=Path, help="more 18xx.games 1889 exports to replay and time")
    args = ap.parse_args()
    if not FIXTURES.is_dir():
        print(f"{FIXTURES} is absent (a user's clone): no fixtures to replay or route")
        if args.exports:
            bench_replay(args.repeat, args.exports)
    else:
        bench_replay(args.repeat, sorted(FIXTURES.glob("1889-*.json")) + args.exports)
        bench_router(args.repeat)
    bench_selfplay(args.games)


if __name__ == "__main__":
    main()
