"""How fast the 18xx engine is on 1889 and 1867: replaying each recorded 18xx.games fixture beside the 18xx.games
engine, the legal moves at a track step, the auto-router on the late operating rounds of game 314, and selfplay.

1. Replay: each 1889 and 1867 fixture in ../shared/data/18xx/fixtures replayed whole through engines/e18xx/replay.py
   (reading the export included), beside the 18xx.games engine (../shared/tools/ref18xx, Ruby) loading the same
   export in a long-lived process, interleaved in blocks of three runs; medians, and how many times faster ours
   is (the target is 5x). Without Ruby or ../shared the peer is named as not timed and ours is printed alone.
2. legal() at a track step: every track step of 314 and 962, as a live table asks it (target: p99 under 10 ms), of
   1867's 21268 and nationalization_cash (target: p99 under 50 ms), and of three seeded 1807 selfplay games (the
   largest map, 232 hexes; target: p99 under 50 ms).
3. Router: `best_runs` for all the corporation's trains on the state just before each run_routes of 314's last two
   sets of operating rounds (the busiest boards); median and max over those states, each state's time the median
   of several calls. The peer is an exhaustive search over every assignment of legal routes to the trains.
4. Selfplay: 1889 and 1867 at 4 players, actions per second (chance draws included) over a few seeded games; a game
   still running after LIMIT actions (random play stuck in 1889's private auction) is named and left out.

Run from the repository root:  python bench/bench_18xx.py [EXPORT.json ...]   (about a minute)
Exports named on the command line (other recorded 1889 games) are replayed and timed too.
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repo, when run as a script

from bot.selfplay import NeverEnds, play_one  # noqa: E402
from engines.e18xx import board as e18xx_board  # noqa: E402
from engines.e18xx.board import forget_boards  # noqa: E402
from engines.e18xx.game import BigFour1807, Canada1867, Shikoku1889  # noqa: E402
from engines.e18xx.replay import replay_export  # noqa: E402
from engines.e18xx.route import all_routes, best_runs, exhaustive_best, train  # noqa: E402
from engines.e18xx.state import G  # noqa: E402

#: Selfplay games that have not ended after this many actions are left out (a finished 4-player game takes about
#: 300-1,300; random play can stay in the private auction for ever, see tests/test_e18xx_selfplay.py).
LIMIT = 5_000
FIXTURES = Path(__file__).resolve().parents[2] / "shared" / "data" / "18xx" / "fixtures"
REF18XX = Path(__file__).resolve().parents[2] / "shared" / "tools" / "ref18xx"


def timed(fn, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        out.append(time.perf_counter() - start)
    return out


def ms(x: float) -> str:
    return f"{x * 1000:.2f} ms"


class Peer:
    """The 18xx.games engine (../shared/tools/ref18xx, Ruby) as a long-lived process: `load PATH` in, the seconds
    of its in-process load and replay out (JSON parsed before its clock starts, a full GC before each)."""

    def __init__(self, titles: str):
        env = {**os.environ, "ONLY_TITLES": titles}
        self.proc = subprocess.Popen([str(REF18XX / "ref18xx"), "serve"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, env=env)
        json.loads(self.proc.stdout.readline())  # {"ready": true, ...}

    def load(self, path: Path) -> float:
        self.proc.stdin.write(f"load {path.resolve()}\n")
        self.proc.stdin.flush()
        answer = json.loads(self.proc.stdout.readline())
        if answer.get("exception") or not answer.get("result_matches"):
            raise RuntimeError(f"the reference engine did not replay {path.name}: {answer}")
        return answer["seconds"]

    def close(self) -> None:
        self.proc.stdin.write("quit\n")
        self.proc.stdin.flush()
        self.proc.wait(timeout=10)


def peer_or_why() -> tuple[Peer | None, str]:
    if not (REF18XX / "ref18xx").exists():
        return None, f"{REF18XX} is absent (a user's clone)"
    if shutil.which("ruby") is None:
        return None, "ruby is not installed here (apt-get install -y ruby)"
    return Peer("g_1889,g_1867"), ""


#: Runs in a row of one engine before the other's (bench_replay): see its docstring for why not one.
BLOCK = 3


def bench_replay(repeat: int, paths: list[Path]) -> None:
    """Each export replayed by us and by the reference engine, interleaved in blocks (BLOCK runs of one, then BLOCK
    of the other, `repeat` blocks each; the machine's noise hits both), medians and their ratio. Both time the same
    work: from the parsed export (JSON parsed outside the clock on both sides) to the game replayed to its end, the
    game built from its title included, each side starting after a full garbage collection (the peer's `serve` runs
    `GC.start` before its clock) and without what an earlier run of the same game left behind: ours forgets the
    boards it keeps by content (`forget_boards`; the title's data and the tiles' geometry, which any game of the
    title warms, stay, as the peer's loaded title does). Ours also works out the final scores inside the clock,
    which the peer does after it (a few microseconds).

    Blocks, not single runs in turn: a process that has slept wakes slow on these virtual machines (a replay of
    hs_ahjzadkh_19792, 7 ms, takes 0.8-4 ms more after a 40 ms sleep, alone on the machine; after a 7 ms sleep
    0.3-0.5 ms more), and with single runs in turn each side sleeps while the other runs: ours 40-200 ms before each
    run, the peer's only our 2-35 ms, which charges the faster engine for the wait. In a block only its first run
    follows the other side's; the median of each side is of runs that did not sleep first (bench/README.md)."""
    peer, why = peer_or_why()
    print("peer: the 18xx.games engine, " + ("timed in the same run, interleaved in blocks of "
                                             f"{BLOCK} runs" if peer else f"not timed: {why}"))
    try:
        for path in paths:
            doc = json.loads(path.read_text(encoding="utf-8"))
            ours, theirs = [], []
            for _ in range(repeat):
                for _ in range(BLOCK):
                    forget_boards()  # a game not seen before: its boards are not known yet
                    gc.collect()  # as the peer's GC.start before each load
                    ours += timed(lambda doc=doc: replay_export(doc), 1)
                if peer:
                    theirs += [peer.load(path) for _ in range(BLOCK)]
            median, actions = statistics.median(ours), len(doc["actions"])
            line = (f"replay {path.name}: {actions} actions, ours median {ms(median)} of {len(ours)} "
                    f"({actions / median:,.0f} actions/s)")
            if theirs:
                ratio = statistics.median(theirs) / median
                line += (f", 18xx.games median {ms(statistics.median(theirs))}: ours {ratio:.1f}x faster "
                         f"(target 5x: {'met' if ratio >= 5 else 'MISSED'})")
            print(line)
    finally:
        if peer:
            peer.close()


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


def at_track_step(state: dict) -> bool:
    return state["round"]["kind"] == "operating" and state["round"].get("step") == "track"


def recorded_track_states(paths: list[Path]) -> list[dict]:
    """The state at every track step of the recorded games, taken out of replay mode (every lay checked in full)."""
    states: list[dict] = []
    for path in paths:
        def keep(action, state):
            if at_track_step(state):
                states.append({**state, "trusted": False})
        replay_export(json.loads(path.read_text(encoding="utf-8")), on_action=keep)
    return states


def selfplay_track_states(title: str, seeds: range) -> list[dict]:
    """The state before every move at a track step of seeded 4-player selfplay games of `title`."""
    states: list[dict] = []
    for seed in seeds:
        play_one(title, 4, random.Random(seed), max_actions=LIMIT * 4,
                 hook=lambda state: states.append(state) or state if at_track_step(state) else state)
    return states


def bench_track_legal(engine, states: list[dict], source: str, target: float) -> None:
    """`legal()` for the operating corporation at each track step, as a live table asks it when its player opens
    the panel."""
    # selfplay asked legal() of these states already, and a board keeps its answers: the first call is timed on
    # boards made afresh (a board is shared by content, so a state after one on the same board still shares it, as
    # a live table's would). The states held are frozen out of the garbage collector's passes: a live process does
    # not hold thousands of game states, whose scan (hundreds of ms) would land on whichever call set it off.
    e18xx_board._board_of.cache_clear()
    gc.collect()
    gc.freeze()
    # each state's time the median of 3 calls: one state's p99 is otherwise the machine's noise more than ours. A
    # board keeps what it has worked out (its reach, the "new track" answers), so calls after the first on a state
    # are quicker: the first call's figures are printed too, the time a table waits the first time it asks
    try:
        runs = [timed(lambda s=s: engine.legal(s, min(engine.awaiting(s).seats)), 3) for s in states]
    finally:
        gc.unfreeze()
    times, firsts = [statistics.median(r) for r in runs], [r[0] for r in runs]
    # wall times: on a machine other work keeps busy they measure the machine as much as us, so its load is printed
    load = f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    print(f"legal() at a track step, {len(states)} states of {source} ({load}; each the median of 3 calls): median "
          f"{ms(statistics.median(times))}, p99 {ms(p99(times))}, max {ms(max(times))} "
          f"(target p99 < {ms(target)}: {'met' if p99(times) < target else 'MISSED'})")
    print(f"  the first call on each state: median {ms(statistics.median(firsts))}, p99 {ms(p99(firsts))}, max "
          f"{ms(max(firsts))} (target p99 < {ms(target)}: {'met' if p99(firsts) < target else 'MISSED'})")


def p99(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(0.99 * (len(xs) - 1)))]


def bench_selfplay(title: str, games: int) -> None:
    actions, seconds, stalled = 0, 0.0, []
    for seed in range(games):
        start = time.perf_counter()
        try:
            actions += play_one(title, 4, random.Random(seed), max_actions=LIMIT)["actions"]
            seconds += time.perf_counter() - start
        except NeverEnds:
            stalled.append(seed)
    note = f"; seeds {stalled} did not end within {LIMIT:,} actions (left out)" if stalled else ""
    done = games - len(stalled)
    print(f"selfplay {title} 4p: {actions / seconds:,.0f} actions/s ({actions} actions in {done} games, "
          f"{actions / done:.0f} a game, chance included){note}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7,
                    help="blocks of runs per replay (bench_replay), calls per router state")
    ap.add_argument("--games", type=int, default=8, help="selfplay games (seeds 0..games-1)")
    ap.add_argument("exports", nargs="*", type=Path, help="more 18xx.games exports (1889, 1867) to replay and time")
    args = ap.parse_args()
    if not FIXTURES.is_dir():
        print(f"{FIXTURES} is absent (a user's clone): no fixtures to replay or route")
        if args.exports:
            bench_replay(args.repeat, args.exports)
    else:
        bench_replay(args.repeat, sorted(FIXTURES.glob("1889-*.json")) + sorted(FIXTURES.glob("1867-*.json"))
                     + args.exports)
        for engine, names, target in ((Shikoku1889(), ["1889-314.json", "1889-962.json"], 0.010),
                                      (Canada1867(), ["1867-21268.json", "1867-nationalization_cash.json"], 0.050)):
            bench_track_legal(engine, recorded_track_states([FIXTURES / n for n in names]), ", ".join(names), target)
        bench_router(args.repeat)
    bench_track_legal(BigFour1807(), selfplay_track_states("1807", range(3)), "1807 selfplay (4 players, seeds 0-2)",
                      0.050)
    bench_selfplay("1889", args.games)
    bench_selfplay("1867", max(1, args.games // 4))


if __name__ == "__main__":
    main()
