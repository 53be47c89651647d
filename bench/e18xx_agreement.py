"""Do our 18xx rules agree with 18xx.games's? Selfplay games of a title (1889: every player count, with and without
the Beginner Game; 1867: 2 to 6 players) are exported in the site's format (`python -m bot selfplay ... --export`) and
loaded by the site's own engine (../shared/tools/ref18xx, Ruby): each game agrees when the site accepts every action
and ends with our final scores. Prints one line per disagreement and the count.

Run from the repository root:  python bench/e18xx_agreement.py [--title 1867] [--games N] [--seed S]
[--players 3 4]
(1889 about a second a game, 1867 a few)
Needs Ruby (apt-get install -y ruby) and ../shared/tools/ref18xx.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repo, when run as a script

from bot.selfplay import NeverEnds, play_one, site_unplayed  # noqa: E402
from engines.e18xx.export import export_game  # noqa: E402

REF18XX = Path(__file__).resolve().parents[2] / "shared" / "tools" / "ref18xx" / "ref18xx"
COUNTS = {"1889": (2, 3, 4, 5, 6), "1867": (2, 3, 4, 5, 6), "1807": (3, 4, 5)}
LIMITS = {"1889": 5_000, "1867": 10_000, "1807": 20_000}  # actions before a selfplay game counts as stalled
#: 1807 at 18xx.games is prealpha: loaded first, this file patches its bugs and plays our rulings where they differ
#: from the site's, so that our games can be checked (bench/ref_1807_fixes.rb names each patch's why); the reference
#: itself is not changed.
FIXES = {"1807": Path(__file__).with_name("ref_1807_fixes.rb")}


def site_bugs(tmp: Path, refused: dict[str, int], fixes: list[str]) -> dict[str, str]:
    """The exports the site refused because of its engine's own bugs (bench/ref_stale.rb), with why: it waits for
    a stale corporation (a corporation reset by nationalisation is a new object there; the site may keep the old one
    as the operator or among the trainless majors, then refuses every move for it, since they name it by id and
    find the new one), or its code crashed on the action."""
    if not refused:
        return set()
    ref, script = REF18XX.parent, str(Path(__file__).with_name("ref_stale.rb"))
    out = subprocess.run(["ruby", f"-I{ref / 'shims'}", f"-I{ref / 'lib'}", *fixes, script,
                          *(f"{tmp / name}:{at}" for name, at in refused.items())], capture_output=True, text=True,
                         env={**os.environ, "ENGINE_LOG_LEVEL": "5"})
    found = {}
    for line in map(json.loads, out.stdout.splitlines()):
        if line["stale"]:
            found[line["file"]] = "it waits for a corporation object its nationalisation replaced"
        elif line["crash"]:
            found[line["file"]] = f"its code crashed: {line['crash']}"
    return found


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--title", default="1889", choices=("1889", "1867", "1807"))
    ap.add_argument("--games", type=int, default=100, help="games (player counts in turn; 1889: every third a "
                                                           "Beginner Game)")
    ap.add_argument("--seed", type=int, default=0, help="the first seed; game k plays seed + k")
    ap.add_argument("--players", type=int, nargs="+", help="the player counts to take in turn (default: all the "
                                                             "title's)")
    ap.add_argument("--keep", metavar="DIR", help="copy the exports that disagree there (bench/trace_diff.py "
                                                   "finds where)")
    args = ap.parse_args()
    if shutil.which("ruby") is None or not REF18XX.exists():
        print("needs Ruby (apt-get install -y ruby) and ../shared/tools/ref18xx: nothing checked")
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        stalled = []
        title, limit = args.title, LIMITS[args.title]
        counts = args.players or COUNTS[title]
        for k in range(args.games):
            seed, players = args.seed + k, counts[k % len(counts)]
            options = {"beginner_game": True} if title == "1889" and k % 3 == 2 else {}
            try:
                played = play_one(title, players, random.Random(seed), options=options, max_actions=limit,
                                  unplayed=site_unplayed(title))  # the site has no systems: none is formed
            except NeverEnds:
                stalled.append(seed)
                continue
            doc = export_game(title, options, [f"Player {i + 1}" for i in range(players)],
                              [(e["seat"], e["action"]) for e in played["log"]], game_id=seed)
            (Path(tmp) / f"{title}-{seed}.json").write_text(json.dumps(doc), encoding="utf-8")
        files = sorted(str(p) for p in Path(tmp).glob("*.json"))
        ref = REF18XX.parent
        only = "g_1867,g_1807" if title == "1807" else f"g_{title}"
        fixes = [f"-r{FIXES[title]}"] if title in FIXES else []
        out = subprocess.run(["ruby", f"-I{ref / 'shims'}", f"-I{ref / 'lib'}", *fixes, str(ref / "replay.rb"), *files],
                             capture_output=True, text=True,
                             env={**os.environ, "ONLY_TITLES": only, "ENGINE_LOG_LEVEL": "5"})
        lines = [json.loads(line) for line in out.stdout.splitlines()]
        bad = [line for line in lines if line["exception"] or not line["matches_recorded"]]
        stuck = site_bugs(Path(tmp), {x["file"]: x["actions"] + 1 for x in bad if x["exception"]}, fixes)
        for line in bad:
            if line["file"] in stuck:
                print(f"the site's engine cannot go on: {line['file']} at its action {line['actions'] + 1} "
                      f"({stuck[line['file']]})")
                continue
            print(f"disagree: {line['file']} after {line['actions']} of {line['raw_actions']} actions: "
                  f"{line['exception'] or 'scores differ'}; the site's scores {line['result']}")
            if args.keep:
                Path(args.keep).mkdir(parents=True, exist_ok=True)
                shutil.copy(Path(tmp) / line["file"], Path(args.keep) / line["file"])
    games = "1 game" if len(stalled) == 1 else f"{len(stalled)} games"
    note = f" ({games} did not end within {limit:,} actions, left out: seeds {stalled})" if stalled else ""
    stuck_note = f"; {len(stuck)} the site's engine cannot replay (its bug, above)" if stuck else ""
    print(f"{title}: {len(lines) - len(bad)} of {len(lines) - len(stuck)} exported selfplay games agree with "
          f"18xx.games{stuck_note}{note}")
    return 1 if len(bad) > len(stuck) or len(lines) != len(files) else 0


if __name__ == "__main__":
    sys.exit(main())
