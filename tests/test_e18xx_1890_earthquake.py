"""1890's optional rule "Great Hanshin Earthquake" (rules, scenarios.tex §"Variants: Great Hanshin Earthquake";
docs/rules/1890.md rulings 32-36; engines/e18xx/g1890/earthquake.py). Each test quotes the rule it checks."""
from __future__ import annotations

import pytest

from engines.base import CHANCE, RuleError
from engines.chance import draw
from engines.e18xx import stock as core_stock
from engines.e18xx.board import NEUTRAL
from engines.e18xx.g1890 import earthquake as Q
from engines.e18xx.state import G
from tests.e18xx_helpers import buy_from_depot, float_corp
from tests.test_e18xx_1890 import ENGINE
from tests.test_e18xx_1890_full import first_or, keen_variant_game, kobe_with_room, turn_of


def quake_game(on: bool = True) -> dict:
    """The full game's first operating round in phase 6 with the variant on, nothing drawn yet."""
    state = first_or()
    if on:
        state["opts"]["earthquake"] = True
    state["depot"]["phase"] = "6"
    return state


def test_a_d_train_bought_asks_whether_it_is_the_labelled_one():
    """"Label the reverse side of one D-train with the word Earthquake, and shuffle it with the other D-trains ...
    The Great Hanshin Earthquake will occur when this labeled D-train is purchased": as each D-train is bought the
    chance seat picks among the D-trains the depot held (0 is the labelled one), the odds of the shuffle; nothing in
    the state says beforehand which one it is."""
    state = quake_game()
    assert "quake" not in state["flags"] and ENGINE.awaiting(state).chance is None
    buy_from_depot(state, "D", "Hankyu")
    request = ENGINE.awaiting(state).chance
    assert (request.kind, request.count) == ("pick", 6)
    assert ENGINE.legal(state, 0) == [] and state["flags"]["quake"]["stage"] is None
    with pytest.raises(RuleError):
        ENGINE.apply(state, CHANCE, {"type": "pick", "index": 6})
    state = ENGINE.apply(state, CHANCE, {"type": "pick", "index": 3})
    assert state["flags"]["quake"]["stage"] is None and ENGINE.awaiting(state).chance is None
    assert state["events"][-1]["text"] == "The D-train bought is not the Earthquake train."
    buy_from_depot(state, "D", "Keihan")
    assert ENGINE.awaiting(state).chance.count == 5  # one fewer unlabelled D-train left to hold it
    state = ENGINE.apply(state, CHANCE, {"type": "pick", "index": 0})
    assert state["flags"]["quake"]["stage"] == "on"
    buy_from_depot(state, "D", "Sanyo")
    assert ENGINE.awaiting(state).chance is None  # it happened once


def test_the_last_d_train_is_the_labelled_one_and_no_earthquake_once_the_bank_broke():
    """"... unless the bank has already broken at that point": then nothing is drawn. With one D-train left it is
    the labelled one: no draw is needed. Without the variant nothing is drawn."""
    state = quake_game()
    state["bank_broken"] = True
    buy_from_depot(state, "D", "Hankyu")
    assert ENGINE.awaiting(state).chance is None and state["flags"]["quake"]["stage"] is None
    state = quake_game()
    g = G(state)
    g.s["flags"]["quake"] = {**Q.state(g), "d_seen": 5}
    for t in [t for t in state["depot"]["trains"] if t.startswith("D-")][:-1]:
        state["depot"]["trains"].remove(t)
    buy_from_depot(state, "D", "Hankyu")
    assert ENGINE.awaiting(state).chance is None and state["flags"]["quake"]["stage"] == "on"
    state = quake_game(on=False)
    buy_from_depot(state, "D", "Hankyu")
    assert ENGINE.awaiting(state).chance is None and "quake" not in state["flags"]


def stricken() -> tuple[dict, G]:
    """Kobe green with Sanyo's and JR's tokens, Ashiya with Hankyu's, Nishinomiya yellow then green with Hanshin's
    and Keihan's, Itami with Hankyu's; seat 2 owns Kobe Rapid Transit; then the earthquake."""
    state = quake_game()
    g = G(state)
    for cid, seat in (("Sanyo", 1), ("Hankyu", 0), ("Hanshin", 0), ("Keihan", 1), ("JR", 2)):
        float_corp(state, cid, seat, "100,0,4", percent=60 if cid != "Hanshin" else 50)
    kobe_with_room(g)
    board = g.board
    for coord in ("F7", "E10"):
        board = board.lay_tile(coord, "57", 0)
    g.set_board(board)
    for tile in ("57", "15"):
        g.set_board(g.board.lay_tile("F9", tile, 0))
        g.rules.after_lay(g, "Hanshin", "F9", tile)
    board = g.board.place_token("F5", "JR").place_token("F5", "Sanyo").place_token("F7", "Hankyu")
    board = board.place_token("F9", "Hanshin").place_token("F9", "Keihan").place_token("E10", "Hankyu")
    g.set_board(board)
    g.s["privates"]["KobeRapid"]["owner"] = "2"
    buy_from_depot(state, "D", "Hankyu")
    return ENGINE.apply(state, CHANCE, {"type": "pick", "index": 0}), g


def test_the_earthquake_strikes_kobe_ashiya_nishinomiya_and_itami():
    """"Kobe Rapid Transit Railway is closed, and the station tokens in Kobe and Ashiya are removed and returned to
    their owning companies. The Nishinomiya tile is downgraded one level. Tokens in Itami are flipped face down."
    Nishinomiya goes back to the yellow tile it had (the green one returns to the supply); its second token no
    longer fits and goes back (ruling 34); a face-down token holds its space but runs for no one (ruling 35)."""
    state, _ = stricken()
    g = G(state)
    board = g.board
    assert state["privates"]["KobeRapid"]["closed"]
    assert all(t is None for coord in ("F5", "F7") for slots in board.tokens[coord] for t in slots)
    assert board.laid["F9"] == ("57", 0) and board.slots("F9") == ("Hanshin",)
    assert board.left("15") == g.map.counts["15"]  # the green tile is back in the supply
    assert board.left("57") == g.map.counts["57"] - 3
    assert g.rules.tokens_left(g, "Keihan")[0] == g.rules.tokens_left(g, "Keihan")[1]
    assert g.rules.tokens_left(g, "Sanyo")[0] == g.rules.tokens_left(g, "Sanyo")[1]
    assert state["flags"]["quake"]["face_down"] == ["Hankyu"]
    assert board.slots("E10") == ("Hankyu",)
    assert g.rules.route_board(g, "Hankyu").slots("E10") == (NEUTRAL,)
    assert g.rules.lay_board(g, "Hankyu").slots("E10") == (NEUTRAL,)


def test_charity_is_counted_when_the_earthquake_occurs():
    """"Each player pays ... (# D-trains already sold x 100円) + (# of shares held x 200円). This amount is
    calculated at the time the earthquake occurs": the D-train just bought counts; shares are 10% each (the
    president's certificate two), minors' certificates are no shares (ruling 36)."""
    state, _ = stricken()
    g = G(state)
    for seat in range(3):
        shares = sum(g.percent(cid, str(seat)) // 10 for cid in g.s["corps"] if g.cdef(cid).kind != "minor")
        assert state["flags"]["quake"]["owed"].get(str(seat), 0) == 100 * 1 + 200 * shares
    # seat 0: Hankyu 60%, Hanshin 50% and Hanshin Tramway's share, Kinki 30%
    assert {cid: g.percent(cid, "0") for cid in ("Hankyu", "Hanshin", "Kinki")} == {"Hankyu": 60, "Hanshin": 60,
                                                                                   "Kinki": 30}
    assert state["flags"]["quake"]["owed"]["0"] == 100 + 200 * (6 + 6 + 3)


def test_incomes_fall_and_prices_are_frozen_until_the_next_stock_round():
    """"until the next stock round Hanshin Railway's income will be 0, and the incomes for Hankyu, Sanyo, and JR
    will be reduced by half. During this time, stock prices will be frozen and will not move." Halves round down
    to a multiple of 10 (ruling 33); the others are untouched."""
    state, _ = stricken()
    g = G(state)
    prices = {cid: g.price(cid) for cid in ("Hanshin", "Hankyu", "Keihan", "JR")}
    paid = {}
    for cid, revenue in (("Hanshin", 100), ("Hankyu", 130), ("Keihan", 100), ("JR", 90)):
        bank = g.s["bank"]
        g.rules.pay_dividend(g, cid, "half" if cid == "JR" else "payout", revenue)
        paid[cid] = bank - g.s["bank"]  # to the players' shares only: the IPO's shares pay nobody
    said = {e["values"]["corp"]: e["values"]["after"]["$money"] for e in state["events"]
            if e["text"].startswith("The earthquake: {corp}'s income")}
    assert said == {"Hanshin": 0, "Hankyu": 60, "JR": 40}
    # Hankyu: 60% of 60; Keihan: 70% of 100 (60% and Keishin's share); JR's half dividend of 40: 20 to the
    # shares (60% held: 12) and 20 kept in its treasury
    assert paid == {"Hanshin": 0, "Hankyu": 36, "Keihan": 70, "JR": 12 + 20}
    assert {cid: g.price(cid) for cid in prices} == prices
    Q.stock_round_begins(g)
    assert Q.income(g, "Hanshin", 100) == 100
    g.rules.pay_dividend(g, "Keihan", "payout", 100)
    assert g.price("Keihan") > prices["Keihan"]


def test_charity_is_taken_as_the_next_stock_round_begins_selling_shares_for_what_cash_lacks():
    """"Each player pays ... by the end of the next stock round ... If cash on hand is insufficient to make the
    payment, then shares must be sold to make up the difference": taken from cash as the round begins, then the
    player sells, bundles no larger than the debt needs, before anyone acts (ruling 36); money stays conserved."""
    state, _ = stricken()
    g = G(state)
    total = g.s["bank"] + sum(g.s["cash"]) + sum(c["cash"] for c in g.s["corps"].values())
    owed = dict(state["flags"]["quake"]["owed"])
    core_stock.start(g, 3)
    Q.stock_round_begins(g)
    assert state["flags"]["quake"]["stage"] == "after"
    debtor = min(int(k) for k in state["flags"]["quake"]["owed"])
    assert state["cash"][debtor] == 0
    aw = ENGINE.awaiting(state)
    assert aw.seats == {debtor}
    sales = ENGINE.legal(state, debtor)
    assert sales and all(m["type"] == "sell_shares" for m in sales)
    left = state["flags"]["quake"]["owed"][str(debtor)]
    for m in sales:  # none sells a share more than needed
        cid = m["shares"][0].rpartition("_")[0]
        assert (m["percent"] - 10) * g.price(cid) // 10 < left
    while ENGINE.awaiting(state).seats == {debtor} and state["flags"]["quake"]["owed"].get(str(debtor)):
        state = ENGINE.apply(state, debtor, ENGINE.legal(state, debtor)[-1])
    g = G(state)
    assert g.s["bank"] + sum(g.s["cash"]) + sum(c["cash"] for c in g.s["corps"].values()) == total
    assert str(debtor) not in state["flags"]["quake"]["owed"]
    assert sum(owed.values()) > 0 and state["events"]


def test_a_debt_beyond_every_sale_is_written_off_and_one_outstanding_at_the_end_counts_against_worth():
    """Ruling 36: what even selling all he may cannot pay is written off; a game that ends before the stock round
    counts the debt against the player's worth."""
    state, _ = stricken()
    g = G(state)
    worth = g.rules.value(g, 0)
    base = g.base_value(0) + sum(g.title.rules["minor_face_and_capital"][cid][0] for cid, c in g.s["corps"].items()
                                 if g.cdef(cid).kind == "minor" and c["president"] == "0" and not c.get("closed"))
    assert worth == base - state["flags"]["quake"]["owed"]["0"]
    for corp in g.s["corps"].values():  # seat 1 holds nothing it could sell
        corp["shares"].pop("1", None)
    state["flags"]["quake"]["owed"]["1"] = 5000
    core_stock.start(g, 3)
    Q.stock_round_begins(g)
    assert "1" not in state["flags"]["quake"]["owed"]
    assert any(e["text"].startswith("[0] cannot sell enough") and e["seats"] == [1] for e in state["events"])


def test_itami_tokens_turn_up_for_100_after_the_next_stock_round():
    """"After the next stock round, companies may pay 100円 to flip them back face up": a move of the company in its
    operating turn (ruling 35), not before the stock round."""
    state, _ = stricken()
    g = G(state)
    g.corp("Hankyu")["cash"] = 300
    turn_of(state, "Hankyu")
    flip = {"type": "choose", "choice": "flip_itami", "entity": "Hankyu"}
    assert flip not in ENGINE.legal(state, 0)
    state["flags"]["quake"]["stage"] = "after"
    assert flip in ENGINE.legal(state, 0)
    bank = state["bank"]
    state = ENGINE.apply(state, 0, flip)
    g = G(state)
    assert g.corp("Hankyu")["cash"] == 200 and state["bank"] == bank + 100
    assert g.rules.route_board(g, "Hankyu").slots("E10") == ("Hankyu",)
    assert flip not in ENGINE.legal(state, 0)


def test_a_whole_game_with_the_earthquake_ends_with_money_conserved_and_replays_equal():
    """Selfplay with the variant: the earthquake occurs, the game ends, money is conserved throughout and the
    replay of the log equals the game."""
    def labelled_first(request, rng):  # the first D-train bought is the Earthquake train
        return {"type": "pick", "index": 0} if request.kind == "pick" else draw(request, rng)
    keen_variant_game({"scenario": "full", "earthquake": True},
                      lambda state: state["flags"].get("quake", {}).get("stage") == "on", labelled_first)


def test_the_table_tells_the_debtor_and_names_the_flip():
    """Words (cogs/e18xx/words_1890.py): the player who must sell for the relief is told so, his sales are listed;
    the flip reads as a move."""
    from cogs.e18xx.presenter import E18xxPresenter, todo
    from cogs.e18xx.words_1890 import move_text
    from tests.e18xx_helpers import NAMES, presenter_table
    state, _ = stricken()
    g = G(state)
    core_stock.start(g, 3)
    Q.stock_round_begins(g)
    debtor = min(ENGINE.awaiting(state).seats)
    assert "earthquake's relief" in todo(G(state), debtor, list(NAMES[:3]))
    assert E18xxPresenter().public_lines(presenter_table(ENGINE, state))
    flip = {"type": "choose", "choice": "flip_itami", "entity": "Hankyu"}
    assert move_text(G(state), flip, list(NAMES[:3])) == "Pay ¥100 to turn the token in Itami face up"


def test_a_tile_laid_unrecorded_goes_back_to_a_yellow_tile_it_upgrades():
    """tile_history.previous without a record (a tile laid before the option's record began): the first yellow tile
    in the manifest's order that the green one upgrades, in a rotation that keeps the green tile's track."""
    from engines.e18xx.g1890 import tile_history
    from engines.e18xx.tiles import upgrade_rotations
    state = quake_game()
    g = G(state)
    g.set_board(g.board.lay_tile("F9", "57", 0).lay_tile("F9", "15", 0))
    assert "laid_history" not in state["flags"]
    name, rotation = tile_history.previous(g, "F9")
    assert g.map.tiles[name].colour == "yellow" and 0 in upgrade_rotations(g.map.tiles[name], rotation,
                                                                             g.map.tiles["15"])
    g.set_board(g.board.lay_tile("F7", "57", 0))
    assert tile_history.previous(g, "F7") is None  # a first tile: the printed hex
