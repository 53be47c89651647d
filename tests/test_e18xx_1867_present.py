"""The 18xx presenter on a seeded game of 1867, without Discord: the table in words at every state, every panel
within Discord's limits with distinct labels, the narration of every move, 1867's own words (minor auctions, merger
rounds, redemptions, half dividends, nationalisation), and the pictures of its map, market and charters."""
from __future__ import annotations

import random
from functools import cache

from bot.tables import Change, Table
from cogs.e18xx.panel import entries_for
from cogs.e18xx.presenter import E18xxPresenter, charters_png, map_png, market_png, todo
from engines.e18xx.game import Canada1867
from engines.e18xx.state import G
from tests.e18xx_helpers import NAMES, presenter_table

E = Canada1867()
P = E18xxPresenter()
NAMES = NAMES[:4]
PNG = b"\x89PNG"


def table(state) -> Table:
    return presenter_table(E, state)


@cache
def trace(seed: int = 4, steps: int = 1600) -> tuple:
    """(state, awaited seat, action) along a seeded game of four players: random legal moves, sometimes the
    engine's default."""
    rng = random.Random(seed)
    s, out = E.setup({}, 4), []
    for _ in range(steps):
        if E.scores(s) is not None:
            break
        seat = min(E.awaiting(s).seats)
        moves = E.legal(s, seat)
        move = rng.choice(moves) if rng.random() < 0.7 else (E.auto_action(s, seat) or moves[-1])
        out.append((s, seat, move))
        s = E.apply(s, seat, move)
    return tuple(out)


def test_every_state_reads_in_words_and_every_panel_fits_discord():
    kinds, rounds = set(), set()
    for s, seat, _ in trace():
        t = table(s)
        lines = P.public_lines(t)
        assert lines and all(isinstance(x, str) and x for x in lines)
        assert todo(G(s), seat, list(NAMES)).startswith("**Your move")
        entries = entries_for(t, seat)
        labels = [e.label for e in entries]
        assert labels and all(0 < len(x) <= 80 for x in labels), labels
        assert len(set(labels)) == len(labels), labels
        kinds |= {e.move["type"] for e in entries}
        rounds.add(s["round"]["kind"])
    assert {"auction", "stock", "operating", "merger"} <= rounds
    assert {"bid", "place_token", "lay_tile", "run_routes", "buy_train", "merge", "pass"} <= kinds


def test_every_move_but_an_operating_pass_is_narrated():
    """As in 1889, a corporation passing a step of its turn is not posted; everything else is."""
    for s, seat, a in trace():
        after = E.apply(s, seat, a)
        posts = P.announce(Change("action", table(after), entries=[(2, seat, a)], before=s))
        if a["type"] == "pass" and s["round"]["kind"] == "operating" and not G(s).rules.interrupt(G(s)):
            continue
        assert posts and all(text.startswith("Table 7: ") for text, _ in posts), (s["round"], a)


def test_1867s_own_moves_read_as_plain_words():
    def first(pred):
        return next((s, seat, a) for s, seat, a in trace() if pred(s, seat, a))

    s, seat, a = first(lambda s, seat, a: s["round"]["kind"] == "auction" and a["type"] == "bid")
    assert P.move_label(table(s), a).startswith(("Bid $", "Buy "))
    s, seat, a = first(lambda s, seat, a: a["type"] == "bid" and s["round"]["kind"] == "stock"
                       and not s["round"].get("auction"))
    assert P.move_label(table(s), a).startswith(f"Open the bidding: ${a['price']} for the minor {a['corporation']}")
    s, seat, a = first(lambda s, seat, a: a["type"] == "place_token" and s["round"]["kind"] == "stock")
    assert P.move_label(table(s), a).startswith(f"Home token for {a['entity']} on ")
    s, seat, a = first(lambda s, seat, a: a["type"] == "merge" and not s["round"]["choosing"])
    assert P.move_label(table(s), a) == f"{s['round']['minors'][s['round']['index']]} merges with {a['corporation']}"


def test_the_pictures_draw_1867():
    s = trace()[-1][0]
    assert map_png(s).startswith(PNG) and market_png(s).startswith(PNG)
    assert charters_png(s, list(NAMES)).startswith(PNG)


def test_a_game_ended_by_its_last_set_of_operating_rounds_says_so_in_words():
    s = E.setup({}, 4)
    s["round"] = {"kind": "over", "reason": "final_phase"}
    assert "**The game is over:** the last set of operating rounds is over." in P.public_lines(table(s))
    assert not any("final_phase" in line for line in P.public_lines(table(s), "ja"))
