"""Building 1889 positions for rule tests: a quick auction, corporations floated by hand, operating rounds; and
1807 exports loaded by the site's engine."""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from bot.tables import Table
from engines.base import CHANCE
from engines.e18xx import operating, rounds, stock, trains
from engines.e18xx.companies import IPO
from engines.e18xx.game import Shikoku1889
from engines.e18xx.state import BANK, G, total_money

E = Shikoku1889()
SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "18xx"  # facts gathered beside the repo (CI)
REF = SHARED.parents[1] / "tools" / "ref18xx"  # 18xx.games's engine (Ruby), beside the repo as in CI
FIXES_1807 = Path(__file__).resolve().parents[1] / "bench" / "ref_1807_fixes.rb"  # its prealpha 1807's defects patched
YELLOW, GREEN, BROWN = ("yellow",), ("yellow", "green"), ("yellow", "green", "brown")  # the tiles of a phase


def act(state: dict[str, Any], seat: int, action_type: str, **fields) -> dict[str, Any]:
    """Apply one action; money must be conserved after it."""
    state = E.apply(state, seat, {"type": action_type, **fields})
    assert total_money(state) == 7000
    return state


def turn(state: dict[str, Any]) -> int:
    seats = E.awaiting(state).seats
    assert len(seats) == 1, seats
    return next(iter(seats))


def after_auction(n: int = 3) -> dict[str, Any]:
    """Each player in turn buys the cheapest private at face value (3 players: seat 0 TR and SMR, seat 1 MF and
    DR, seat 2 ER and SIR); the first stock round then starts with seat 0."""
    s = E.setup({}, n)
    while s["round"]["kind"] == "auction":
        seat = turn(s)
        s = E.apply(s, seat, next(m for m in E.legal(s, seat) if m["type"] == "bid"))
    return s


def dealt(n: int = 3, order: list[int] | None = None) -> dict[str, Any]:
    s = E.setup({"beginner_game": True}, n)
    return E.apply(s, CHANCE, {"type": "shuffle", "order": order or list(range(n))})


def float_corp(s: dict[str, Any], cid: str, seat: int, cell: str = "70,4,3", percent: int = 60) -> None:
    """Start and float a corporation at once (shares handed over, capital from the bank)."""
    g = G(s)
    c = g.title.market.by_id(cell)
    s["market"] = g.title.market.with_par(s["market"], cid, c)
    corp = g.corp(cid)
    corp["par"], corp["president"] = c.price, g.key(seat)
    take = corp["shares"][IPO][: 1 + (percent - 20) // 10]
    corp["shares"][IPO] = corp["shares"][IPO][len(take):]
    corp["shares"][g.key(seat)] = corp["shares"].get(g.key(seat), []) + take
    corp["floated"] = True
    g.pay(BANK, cid, 10 * c.price)


def start_or(s: dict[str, Any], turn_no: int = 2, number: int = 1, of: int = 1) -> dict[str, Any]:
    """Begin an operating round in `s` (private revenue, home tokens) and settle to the first decision."""
    g = G(s)
    operating.start(g, turn_no, number, of)
    rounds.settle(g)
    return s


def start_sr(s: dict[str, Any], turn_no: int = 2) -> dict[str, Any]:
    g = G(s)
    stock.start(g, turn_no)
    rounds.settle(g)
    return s


def give_trains(s: dict[str, Any], cid: str, *train_ids: str) -> None:
    depot = s["depot"]
    for t in train_ids:
        depot["trains"].remove(t)
        s["corps"][cid]["trains"].append(t)
        name = t.rpartition("-")[0]
        if name not in depot["bought"]:
            depot["bought"].append(name)


def buy_from_depot(s: dict[str, Any], kind: str, cid: str) -> None:
    """The depot's first `kind` train ("D", "3+3" …) leaves for `cid`, and the rules hear of it as after any depot
    purchase."""
    g = G(s)
    trains.take_from_depot(g, next(t for t in s["depot"]["trains"] if t.startswith(f"{kind}-")), cid)
    g.rules.after_train_bought(g)


def lay(s: dict[str, Any], coord: str, tile: str, rotation: int) -> None:
    g = G(s)
    g.set_board(g.board.lay_tile(coord, tile, rotation))


def give_shares(s: dict[str, Any], cid: str, seat: int, certs: list[str]) -> None:
    """Hand IPO certificates to a player (no money moves; for building positions)."""
    ipo = s["corps"][cid]["shares"][IPO]
    for cert in certs:
        ipo.remove(cert)
    s["corps"][cid]["shares"].setdefault(str(seat), []).extend(certs)


NAMES = ("ann", "ben", "cat", "dan", "eve", "fay")


class PresenterGame:
    """The stored game a presenter test's table stands for: table 7, its players named from NAMES."""

    id = 7
    options: dict = {}

    def __init__(self, n: int):
        self.n = n

    def in_seat_order(self):
        return [SimpleNamespace(name=n) for n in NAMES[:self.n]]


def presenter_table(engine, state) -> Table:
    """A table of `engine` at `state`, as the presenter sees one."""
    return Table(PresenterGame(state["n"]), engine, state, 1)



def site_replays_1807(paths: list[Path]) -> list[dict[str, Any]]:
    """18xx.games's engine (with bench/ref_1807_fixes.rb) loading these 1807 exports: its replay.rb line for each
    (exception, actions, result, matches_recorded...)."""
    out = subprocess.run(["ruby", f"-I{REF / 'shims'}", f"-I{REF / 'lib'}", f"-r{FIXES_1807}", str(REF / "replay.rb"),
                          *map(str, paths)], capture_output=True, text=True, timeout=600,
                         env={**os.environ, "ONLY_TITLES": "g_1867,g_1807", "ENGINE_LOG_LEVEL": "5"})
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(lines) == len(paths), out.stderr
    return lines
