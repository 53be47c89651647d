"""1807's own words in English (cogs/e18xx/words_1807.py), along a seeded random game: the setup draw, the auction of
the drawn private railways, the stock round's minors to auction and batches to come, a ferry's auction, P2-P5's free
yellow tile and the second lay, a minor converting into a public company; and, built, the end by the first 4+4
train. The Japanese of the same is read in tests/test_e18xx_ja.py and tests/test_i18n_runtime.py."""
from __future__ import annotations

import random

from cogs.e18xx.presenter import E18xxPresenter, todo
from engines.base import CHANCE
from engines.chance import draw
from engines.e18xx.g1867 import merger
from engines.e18xx.game import BigFour1807
from engines.e18xx.state import G
from tests.e18xx_helpers import NAMES, presenter_table
from tests.test_e18xx_1807_goods import at_price, dealt, in_train_step, to_depot_train, token

E, P = BigFour1807(), E18xxPresenter()


def walk(seed: int = 8, steps: int = 4000):
    """(state, awaited seat, action) along a seeded random game (the setup draw kept, its seat CHANCE), one at a
    time: a test walks only as far as its situation."""
    rng = random.Random(seed)
    s = E.setup({}, 4)
    for _ in range(steps):
        if E.scores(s) is not None:
            return
        aw = E.awaiting(s)
        if aw.chance is not None:
            seat, a = CHANCE, draw(aw.chance, rng)
        else:
            seat = min(aw.seats)
            moves = E.legal(s, seat)
            a = rng.choice(moves) if rng.random() < 0.7 else (E.auto_action(s, seat) or moves[-1])
        yield s, seat, a
        s = E.apply(s, seat, a)


WALKED: list[tuple] = []  # the steps walked so far, shared by the tests
WALK = walk()


def first(pred):
    for step in WALKED:
        if pred(*step):
            return step
    for step in WALK:
        WALKED.append(step)
        if pred(*step):
            return step
    raise AssertionError("the situation does not occur within the walked game")


def names() -> list[str]:
    return list(NAMES[:4])


def labels(s, seat) -> list[str]:
    return [P.move_label(presenter_table(E, s), m) for m in E.legal(s, seat)]


def test_the_setup_draw_and_the_private_railways_auction():
    s, _, _ = first(lambda s, seat, a: s["round"]["kind"] == "deal")
    assert P.public_lines(presenter_table(E, s))[0].startswith("**Setup**: the private railways that stay")
    s, seat, _ = first(lambda s, seat, a: s["round"]["kind"] == "auction")
    lines = P.public_lines(presenter_table(E, s))
    assert lines[0].startswith("**Auction of the private railways**, one at a time, in number order · for sale: ")
    up = s["round"]["auction"]["item"]
    assert lines[1].startswith("Up now: ") and f"({up})" in lines[1]
    assert todo(G(s), seat, names()).startswith("**Your move:** bid at least £")
    assert labels(s, seat)[0].startswith("Bid £") and labels(s, seat)[-1] == "Pass (decline to bid)"


def test_a_stock_round_names_the_minors_the_ferries_and_the_batches_to_come():
    s, seat, _ = first(lambda s, seat, a: s["round"]["kind"] == "stock" and not s["round"].get("auction"))
    lines = P.public_lines(presenter_table(E, s))
    assert lines[0].startswith("**Stock round 1** · phase 2 · ")
    minors = next(x for x in lines if x.startswith("Minors to auction: "))
    batch1 = sorted(c for c, b in s["flags"]["batch"].items() if b == 1)
    assert minors == "Minors to auction: " + ", ".join(c for c in s["corps"] if c in batch1)
    assert any(x.startswith("Ferries and undergrounds to auction: Irish Sea Ferry (F1) from £50") for x in lines)
    assert any(x.startswith("Minors still to come: batch 2 (") and "in stock round 2, batch 3 (" in x
               and x.endswith("with the first 3-train.") for x in lines)
    assert todo(G(s), seat, names()) == ("**Your move:** open the bidding for a minor (£100 or more), open the "
                                         "bidding for a ferry or underground (its face value or more), or pass.")
    said = labels(s, seat)
    assert "Open the bidding: £50 for Irish Sea Ferry (F1)" in said
    assert any(x.startswith("Open the bidding: £100 for the minor ") for x in said)


def test_a_ferrys_auction():
    s, seat, _ = first(lambda s, seat, a: (s["round"].get("auction") or {}).get("company")
                       and s["round"]["auction"]["bids"])
    pid = s["round"]["auction"]["item"]
    name = f"{G(s).pdef(pid).name} ({pid})"
    lines = P.public_lines(presenter_table(E, s))
    assert lines[1].startswith(f"**Auction** of {name}: ")
    assert todo(G(s), seat, names()).startswith("**Your move:** bid at least £")
    assert f"for {name} (in steps of £5), or drop out." in todo(G(s), seat, names())
    said = labels(s, seat)
    assert said[0].startswith("Bid £") and said[0].endswith(f"for {name}")
    assert said[-1] == f"Drop out of the auction for {name}"


def test_a_free_yellow_tile_and_the_second_lay():
    s, seat, _ = first(lambda s, seat, a: s["round"]["kind"] == "operating" and s["round"]["step"] == "track"
                       and seat != CHANCE and any(m.get("entity_type") == "company" for m in E.legal(s, seat)))
    g = G(s)
    cid = s["round"]["order"][s["round"]["index"]]
    said = todo(g, seat, names())
    assert said.startswith(f"**Your move** as president of {cid} (treasury £")
    assert "free yellow tile" in said and said.endswith("`/18xx lay` suggests hexes, tiles and rotations.")
    free = next(m for m in E.legal(s, seat) if m.get("entity_type") == "company")
    label = P.move_label(presenter_table(E, s), free)
    assert label.startswith(f"{g.pdef(free['entity']).name}: free yellow tile {free['tile']} on ")
    s, seat, _ = first(lambda s, seat, a: s["round"]["kind"] == "operating" and s["round"]["step"] == "track"
                       and s["round"].get("lays") and not s["round"]["laid"] and seat != CHANCE)
    assert "another" in todo(G(s), seat, names()) and "for £20 more" in todo(G(s), seat, names())
    assert P.move_label(presenter_table(E, s), {"type": "pass"}) == "Done laying track"


def test_a_minor_converts_into_a_public_company_and_corporations_say_their_kind():
    s, seat, a = first(lambda s, seat, a: a["type"] == "convert")
    cid = merger.current(G(s))
    assert P.move_label(presenter_table(E, s), a).startswith(f"{cid} converts into a public company (price £")
    after = E.apply(s, seat, a)
    if after["round"].get("choosing"):  # the owner then names the public company
        after = E.apply(after, seat, E.legal(after, seat)[0])
    lines = P.public_lines(presenter_table(E, after))
    assert any(" · public company" in x for x in lines) and any(" · minor" in x for x in lines)


def test_the_end_by_the_first_4_4_train():
    """Built, not found along a random game (whether one reaches the 4+4 depends on every move before): LNW in phase 7
    buys the first 4+4, which sets the end; then its last operating turn of the final turn's three rounds ends the
    game, and the one before does not."""
    g = dealt()
    g.s["depot"]["phase"] = "7"
    at_price(g, "LNW", 100, cash=1200)
    token(g, "LNW", "D6", 2)
    g.corp("LNW")["trains"] = ["3+3-0"]
    in_train_step(g, "LNW")
    s = E.apply(g.s, 0, {"type": "buy_train", "train": to_depot_train(g, "4+4"), "price": 1000})
    assert s["flags"].get("end_trigger") == "final_phase"
    turn = s["flags"]["final_turn"]
    assert (f"The first 4+4 train has come: the game ends after the three operating rounds of turn {turn}."
            in P.public_lines(presenter_table(E, s)))
    for number, over in ((2, None), (3, "final_phase")):
        at_last_step = {**s, "round": {**s["round"], "turn": turn, "or": number, "of": 3, "step": "trains"}}
        after = E.apply(at_last_step, 0, {"type": "pass"})
        assert after.get("over") == over
    assert P.public_lines(presenter_table(E, after))[0] == (
        "**The game is over:** the last set of operating rounds after the first 4+4 train is over.")
