"""1890's optional rule "Second World War Air Raids" (rules, scenarios.tex §"Variants: Second World War Air Raids";
docs/rules/1890.md rulings 37-38; engines/e18xx/g1890/air_raids.py). Each test quotes the rule it checks."""
from __future__ import annotations

import pytest

from engines.base import RuleError
from engines.e18xx.g1890 import air_raids as A
from engines.e18xx.state import G
from tests.e18xx_helpers import buy_from_depot, float_corp
from tests.test_e18xx_1890 import ENGINE
from tests.test_e18xx_1890_full import first_or, keen_variant_game, turn_of


def raid_game() -> tuple[dict, G]:
    """Amagasaki (F11) yellow 57 then green 15 with Hanshin's and Hankyu's tokens; the empty E8 yellow 8 then green
    23; Ashiya (F7) yellow; Hanshin operates in phase 3 with one 3+3-train left in the depot."""
    state = first_or()
    state["opts"]["air_raids"] = True
    g = G(state)
    for cid, seat in (("Hanshin", 0), ("Hankyu", 1), ("Keihan", 2)):
        float_corp(state, cid, seat, "100,0,4")
    for coord, tiles in (("F11", ("57", "15")), ("E8", ("8", "23")), ("F7", ("57",))):
        for tile in tiles:
            g.set_board(g.board.lay_tile(coord, tile, 0))
            g.rules.after_lay(g, "Keihan", coord, tile)
    g.set_board(g.board.place_token("F11", "Hanshin").place_token("F11", "Hankyu"))
    turn_of(state, "Hanshin", "3")
    state["round"]["order"] = ["Hanshin", "Keihan", "Hankyu"]
    return state, g


def test_the_raids_come_after_the_last_3_plus_3_train():
    """"After the last 3+3-train is purchased, the air raids will take place": not after the first one."""
    state, g = raid_game()
    buy_from_depot(state, "3+3", "Keihan")
    assert not state["flags"].get("raids", {}).get("done") and g.board.tile("F11").name == "15"
    buy_from_depot(state, "3+3", "Hanshin")
    assert state["flags"]["raids"]["done"] and G(state).board.tile("F11").name == "57"


def test_green_tiles_go_back_yellow_ones_stay_and_empty_hexes_start_again():
    """"Discard all green tiles from Kobe, Ashiya, Nishinomiya, Amagasaki, Osaka ... as well as surrounding hexes.
    Yellow tiles will not be discarded. Green track tiles that were removed from empty map hexes must be laid again
    starting with yellow, and repaying any terrain costs": Amagasaki's green city goes back to its yellow tile, the
    empty E8 back to the printed hex (its 120 terrain cost again), yellow Ashiya stays; the green tiles return to the
    supply (ruling 37)."""
    state, g = raid_game()
    supply = {t: g.board.left(t) for t in ("15", "23", "57", "8")}
    buy_from_depot(state, "3+3", "Keihan")
    buy_from_depot(state, "3+3", "Hanshin")
    board = G(state).board
    assert board.laid["F11"] == ("57", 0) and "E8" not in board.laid and board.laid["F7"] == ("57", 0)
    assert board.lay_cost("E8") == 120
    # the green 15 and 23 come back; Amagasaki takes a 57 again; E8 is blank, so no 8 leaves the supply
    assert {t: board.left(t) for t in supply} == {"15": supply["15"] + 1, "23": supply["23"] + 1,
                                                  "57": supply["57"] - 1, "8": supply["8"]}
    assert all(c not in A.SURROUNDING for c in A.BOMBED) and len(A.SURROUNDING) == 12


def test_tokens_return_in_operating_order_after_the_buyer_and_the_rest_wait_on_the_tile():
    """"the tokens are placed in operating order beginning with the company after the one that purchased the last
    3+3-train. Remaining tokens will be placed on the tile, as a reserved token. When the tile is upgraded creating a
    new token space, the reserved token will automatically fill that space": Hanshin bought it, Keihan and Hankyu
    come first: Hankyu takes the one space, Hanshin's token waits (off its charter) until the green tile is back
    (ruling 38)."""
    state, g = raid_game()
    left = g.rules.tokens_left(g, "Hanshin")[0]
    buy_from_depot(state, "3+3", "Keihan")
    buy_from_depot(state, "3+3", "Hanshin")
    g = G(state)
    assert g.board.slots("F11") == ("Hankyu",)
    assert state["flags"]["raids"]["waiting"] == {"F11": ["Hanshin"]}
    assert g.rules.tokens_left(g, "Hanshin")[0] == left  # still off the charter
    g.set_board(g.board.lay_tile("F11", "15", 0))
    g.rules.after_lay(g, "Keihan", "F11", "15")
    assert set(g.board.slots("F11")) == {"Hankyu", "Hanshin"} and not state["flags"]["raids"]["waiting"]


def test_a_waiting_token_may_be_taken_back_and_placed_as_a_100_token():
    """"At any time, reserved tokens may be removed to be used elsewhere as a normal 100円 station token": a move of
    its company in its operating turn; the token is back on the charter and the next one placed costs 100 (ruling
    38)."""
    state, g = raid_game()
    buy_from_depot(state, "3+3", "Keihan")
    buy_from_depot(state, "3+3", "Hanshin")
    g = G(state)
    back = {"type": "choose", "choice": "raid_token:F11", "entity": "Hanshin"}
    assert back in ENGINE.legal(state, 0)
    left = g.rules.tokens_left(g, "Hanshin")[0]
    state = ENGINE.apply(state, 0, back)
    g = G(state)
    assert g.rules.tokens_left(g, "Hanshin")[0] == left + 1 and not state["flags"]["raids"]["waiting"]
    assert g.rules.next_token_price(g, "Hanshin") == 100
    with pytest.raises(RuleError):
        ENGINE.apply(state, 0, back)
    A.token_placed(g, "Hanshin")
    assert g.rules.next_token_price(g, "Hanshin") == g.cdef("Hanshin").tokens[len(g.board.token_nodes("Hanshin"))]


def test_a_whole_game_with_the_air_raids_ends_with_money_conserved_and_replays_equal():
    """Selfplay with the variant (and the earthquake): the raids come, every game ends, money is conserved and the
    replay of the log equals the game."""
    opts = {"scenario": "full", "air_raids": True, "earthquake": True}
    def raided(state):
        return state["flags"].get("raids", {}).get("done")
    assert raided(keen_variant_game(opts, raided))  # and still at the end


def test_the_take_back_reads_as_a_move():
    from cogs.e18xx.words_1890 import move_text
    state, g = raid_game()
    move = {"type": "choose", "choice": "raid_token:F11", "entity": "Hanshin"}
    assert move_text(g, move, ["a", "b", "c"]) == "Take back the token waiting in Amagasaki (F11)"
