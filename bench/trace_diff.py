"""Where our engine first differs from 18xx.games on a recorded game: replays FILE in both (the reference engine's
trace from bench/ref_trace.rb) and compares, after every action, the players' cash and each started corporation's
cash, share price and trains. Prints the first difference and the actions around it.

    python bench/trace_diff.py ../shared/data/18xx/fixtures/1867-hs_ahjzadkh_19792.json
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engines.e18xx.replay import ReplayFailed, replay_export  # noqa: E402
from engines.e18xx.state import G  # noqa: E402

REF = Path(__file__).resolve().parents[2] / "shared" / "tools" / "ref18xx"


def ref_trace(path: str) -> dict[int, dict]:
    script = str(Path(__file__).with_name("ref_trace.rb"))
    out = subprocess.run(["ruby", f"-I{REF / 'shims'}", f"-I{REF / 'lib'}", script, path], capture_output=True,
                         text=True, env={**os.environ, "ENGINE_LOG_LEVEL": "5"})
    lines = [json.loads(x) for x in out.stdout.splitlines() if x.startswith("{")]
    return {x["id"]: x for x in lines}


def ours(state, players) -> dict:
    g = G(state)
    corps = {}
    for cid, c in state["corps"].items():
        if g.cell(cid) is None:
            continue
        corps[cid] = {"cash": c["cash"], "price": g.price(cid), "trains": sorted(c["trains"])}
    tokens = {cid: sorted(coord for coord, _ in g.board.token_nodes(cid)) for cid in state["corps"]}
    return {"cash": {str(p.id): state["cash"][i] for i, p in enumerate(players)}, "corps": corps,
            "tokens": {cid: t for cid, t in tokens.items() if t}}


def theirs(line: dict) -> dict:
    corps = {cid: {"cash": c["cash"], "price": c["price"], "trains": sorted(c["trains"])}
             for cid, c in line["corps"].items() if c["price"] is not None}
    tokens = {cid: sorted(c["tokens"]) for cid, c in line["corps"].items() if c["tokens"]}
    return {"cash": line["cash"], "corps": corps, "tokens": tokens}


def main() -> None:
    path = sys.argv[1]
    ref = ref_trace(path)
    doc = json.loads(Path(path).read_text())
    seen: list[tuple[dict, dict]] = []
    carries_autos = {a.get("id") for a in doc["actions"] if a.get("auto_actions")}
    players = []

    def on_action(action, state):
        # the reference's line for an action is after its automatic actions: ours are separate actions after it
        if action.get("id") in carries_autos:
            return
        key = action.get("id", action.get("auto_of"))
        if key not in ref:
            return
        mine, other = ours(state, players), theirs(ref[key])
        seen.append((action, ref[key]))
        if mine != other:
            print(f"differs after action {key} ({action['type']} by {action.get('entity')}):")
            for part in ("cash", "corps", "tokens"):
                if mine[part] != other[part]:
                    for k in sorted(set(mine[part]) | set(other[part])):
                        if mine[part].get(k) != other[part].get(k):
                            print(f"  {part} {k}: ours {mine[part].get(k)}  ref {other[part].get(k)}")
            print("  ref acting next:", ref[key]["acting"], ref[key]["round"])
            raise SystemExit(1)

    from engines.e18xx.importer import read_recorded
    players.extend(read_recorded(doc).players)
    try:
        _, done = replay_export(doc, on_action=on_action)
    except ReplayFailed as e:
        print(e)
        if seen:
            print("  ref acting then:", seen[-1][1]["acting"], seen[-1][1]["round"])
        raise SystemExit(1) from None
    print(f"{len(seen)} actions agree; scores {done.scores}; recorded {doc.get('result')}")


if __name__ == "__main__":
    main()
