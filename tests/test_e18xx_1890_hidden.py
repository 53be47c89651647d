"""1890's variants "Hidden personal cash" (option hidden_cash) and "Hiding of train purchase price" (option
hidden_train_prices): rules, 1890 scenario, Variants; docs/rules/1890.md rulings 33 and 34. The engine contract
(DESIGN.md): view(state, seat) is what the seat may know, public(state) what everyone may know, and a secret never
appears in public. The check below reads everything the channel is shown: the public state, the table message's
lines (its "Lately" narration included) and the charters' figures."""
from __future__ import annotations

import random
import re

import pytest

import engines
from bot.tables import Table, private_diff
from cogs.e18xx.presenter import E18xxPresenter, charter_dicts
from cogs.e18xx.words import event_line, money
from engines.e18xx.state import G
from storage.base import GameRow, SeatRow
from tests.test_e18xx_1890 import eager_move

ENGINE = engines.get("1890")
NAMES = ["Aiko", "Botan", "Chiyo"]


def _table(state: dict) -> Table:
    n = state["n"]
    game = GameRow(1, 1, 1, "1890", ENGINE.data_version, {}, "active", 1, n, False, 0, 0, None, None, {}, 0, 0,
                   seats=[SeatRow(i, i, 100 + i, NAMES[i]) for i in range(n)])
    return Table(game, ENGINE, state, 0)


def _figure(g: G, amount: int) -> re.Pattern:
    """The amount as the table writes it, not as part of a bigger number (¥10 is not in ¥105)."""
    return re.compile(r"(?<![\d,.])" + re.escape(money(g, amount)) + r"(?![\d,])")


def shown(state: dict) -> tuple:
    """Everything the channel is shown of a state: public(), the table message (its "Lately" narration included), the
    charters' figures and what the table waits for."""
    prompt = ENGINE.awaiting(state).prompt
    return (ENGINE.public(state), E18xxPresenter().public_lines(_table(state)), charter_dicts(state, NAMES),
            str(prompt))


def _log(options: dict, seed: int) -> list[tuple[int, dict]]:
    """The moves of a played Hanshin game (3 players) to its end."""
    rng, state, log = random.Random(seed), ENGINE.setup({"scenario": "hanshin", **options}, 3), []
    while not state["over"]:
        seat = rng.choice(sorted(ENGINE.awaiting(state).seats))
        move = eager_move(state, seat, rng)
        state = ENGINE.apply(state, seat, move)
        log.append((seat, move))
    return log


def _richer(options: dict, seat: int, extra: int) -> dict:
    """The same game's setup but `seat` holds `extra` more (taken from the bank: money is conserved)."""
    state = ENGINE.setup({"scenario": "hanshin", **options}, 3)
    state["cash"][seat] += extra
    state["bank"] -= extra
    return state


def first_difference(options: dict, log: list, seat: int = 0, extra: int = 35) -> int | None:
    """Plays the log twice, once with `seat` richer: the first move after which what the channel is shown differs
    (None: never before the end). A secret kept is a secret the channel cannot tell apart."""
    poor, rich = ENGINE.setup({"scenario": "hanshin", **options}, 3), _richer(options, seat, extra)
    for i, (who, move) in enumerate([(None, None), *log]):
        if move is not None:
            poor, rich = ENGINE.apply(poor, who, move), ENGINE.apply(rich, who, move)
        if poor["over"]:
            return None
        assert rich["cash"][seat] == poor["cash"][seat] + extra  # the same game, the secret apart
        if shown(poor) != shown(rich):
            return i
    return None


LOG = _log({"hidden_cash": True}, 5)


@pytest.mark.parametrize("seat", [0, 2])
def test_hidden_cash_the_channel_cannot_tell_a_players_cash(seat):
    """"The amount of player cash is secret. Players do not need to respond to inquiries about their cash holdings":
    the same whole game played with one player richer shows the channel exactly the same things until the end
    (public(), the table message and its narration, the charters); each player's view holds his own cash and no one
    else's; at the end all is shown."""
    assert len(LOG) > 300  # a whole game
    assert first_difference({"hidden_cash": True}, LOG, seat) is None
    state = _richer({"hidden_cash": True}, seat, 35)
    for i, (who, move) in enumerate(LOG):
        state = ENGINE.apply(state, who, move)
        if i % 50 == 0 and not state["over"]:
            views = [ENGINE.view(state, s) for s in range(3)]
            assert [v["my_cash"] for v in views] == state["cash"]
            assert all("cash" not in p and "value" not in p for v in views for p in v["players"])
    assert state["over"] and ENGINE.public(state)["players"][seat]["cash"] == state["cash"][seat]


def test_the_check_tells_the_cash_apart_without_the_variant():
    """The same check without the variant: the channel is shown the cash from the first move."""
    assert first_difference({}, LOG) == 0


def _plain_private(state: dict, seat: int) -> dict:
    pub = ENGINE.public(state)
    return {k: v for k, v in ENGINE.view(state, seat).items() if pub.get(k, object()) != v}


def test_hidden_cash_the_private_panel_shows_the_own_cash_and_only_changed_seats_are_told():
    """The player sees his own cash in his private panel; a move that changes one player's cash changes only the
    private parts of the seats whose cash or worth changed (the runtime DMs those)."""
    states = [ENGINE.setup({"scenario": "hanshin", "hidden_cash": True}, 3)]
    for who, move in LOG[:40]:
        states.append(ENGINE.apply(states[-1], who, move))
    table = _table(states[-1])
    g = G(states[-1])
    for seat in range(3):
        mine = E18xxPresenter().private_lines(table, seat)[0]
        assert _figure(g, states[-1]["cash"][seat]).search(mine)
    told = 0
    for before, after in zip(states, states[1:], strict=False):
        changed = [s for s in range(3) if _plain_private(before, s) != _plain_private(after, s)]
        assert private_diff(table, before, after) == changed
        told += bool(changed)
    assert told
    assert ENGINE.hides(states[-1]) and not ENGINE.hides(ENGINE.setup({"scenario": "hanshin"}, 3))


@pytest.mark.parametrize("variant", [True, False])
def test_without_hidden_variants_the_view_is_the_public_one(variant):
    """Without a hiding variant every seat sees the public view (nothing to DM)."""
    state = ENGINE.setup({"scenario": "hanshin", "hidden_cash": variant}, 3)
    assert (ENGINE.view(state, 0) != ENGINE.public(state)) is variant
    assert (ENGINE.privates(state, 3) != [{}, {}, {}]) is variant
    card = charter_dicts(state, NAMES)[0]
    assert card["cash"] == state["corps"][card["id"]]["cash"]  # treasuries stay public with hidden cash


# ---- hidden train prices ------------------------------------------------------------------------------------

def _trade(variant: bool, price: int) -> tuple[dict, dict]:
    """Hankyu (president seat 0) offers `price` for Sanyo's (seat 1) 2-train: the states after the offer and after
    seat 1 accepts it."""
    from tests.e18xx_helpers import float_corp
    from tests.test_e18xx_1890 import PASS, play, sold_out_isr
    from tests.test_e18xx_1890_full import turn_of
    state = sold_out_isr()
    state["opts"]["hidden_train_prices"] = variant
    cell = G(state).title.market.par_cells[0].id
    float_corp(state, "Hankyu", 0, cell)
    float_corp(state, "Sanyo", 1, cell)
    while state["round"]["kind"] != "operating":
        state = play(state, PASS)
    state["depot"]["trains"].remove("2-0")
    state["corps"]["Sanyo"]["trains"].append("2-0")
    turn_of(state, "Hankyu")["round"]["step"] = "trains"
    offered = ENGINE.apply(state, 0, {"type": "buy_train", "train": "2-0", "price": price})
    return offered, ENGINE.apply(offered, 1, {"type": "accept_offer"})


@pytest.mark.parametrize("variant", [True, False])
def test_hidden_train_prices_the_trade_is_public_its_price_only_the_presidents(variant):
    """"The buying and selling of trains between companies must be made public to other players, but it is not
    necessary to make their prices public": the offer and the trade are narrated without the price and the two
    presidents see it; as a treasury before and after would give it away, treasuries are shown to their presidents
    only. The same trade at another price shows the channel exactly the same (without the variant it does not)."""
    offered, bought = _trade(variant, 57)
    assert "2-0" in bought["corps"]["Hankyu"]["trains"] and bought["corps"]["Sanyo"]["cash"] > offered["corps"][
        "Sanyo"]["cash"]
    narrated = [event_line(e, NAMES) for e in bought["events"][-3:]]
    assert any("Hankyu buys train 2-0 from Sanyo" in line for line in narrated)
    g = G(bought)
    priced = any(_figure(g, 57).search(line) for line in narrated + shown(offered)[1] + shown(bought)[1])
    assert priced is not variant
    assert ("cash" in ENGINE.public(bought)["corporations"]["Hankyu"]) is not variant
    other_price = _trade(variant, 63)
    assert (shown(offered) == shown(other_price[0]) and shown(bought) == shown(other_price[1])) is variant
    if variant:
        assert ENGINE.view(offered, 1)["my_offer"]["price"] == 57 and "my_offer" not in ENGINE.view(offered, 2)
        for seat in (0, 1):
            assert ENGINE.view(bought, seat)["my_trades"][-1]["price"] == 57
            assert ENGINE.view(bought, seat)["my_treasuries"]  # each presides one company
        assert ENGINE.view(bought, 2)["my_trades"] == []
        lines = E18xxPresenter().private_lines(_table(bought), 0)
        assert any("Hankyu bought a 2-train from Sanyo for ¥57" in line for line in lines)
        assert charter_dicts(bought, NAMES)[0]["cash"] is None


def moved_between_treasuries(options: dict, log: list, amount: int = 35) -> tuple[list[str], int | None]:
    """Plays the log twice; in the second, as soon as two public companies have floated with `amount` each, `amount`
    moves from the second's treasury to the first's (as a trade at another price would). Returns the two companies
    and the first move after which what the channel is shown differs (None: never before the end)."""
    poor = ENGINE.setup({"scenario": "hanshin", **options}, 3)
    rich = ENGINE.setup({"scenario": "hanshin", **options}, 3)
    pair: list[str] = []
    for i, (who, move) in enumerate(log):
        poor, rich = ENGINE.apply(poor, who, move), ENGINE.apply(rich, who, move)
        if poor["over"]:
            return pair, None
        if not pair:
            pair = [c for c, v in poor["corps"].items() if v["floated"] and v["par"] and v["cash"] >= amount][:2]
            if len(pair) < 2:
                pair = []
                continue
            rich["corps"][pair[0]]["cash"] += amount
            rich["corps"][pair[1]]["cash"] -= amount
        if shown(poor) != shown(rich):
            return pair, i
    return pair, None


def test_hidden_train_prices_the_channel_cannot_tell_a_treasury_in_a_whole_game():
    """With the option a trade's price cannot be told from anything else the channel is shown: a whole game played
    twice, with a sum moved between two treasuries in the second (as a trade at another price would), shows the
    channel the same until the end (a company closing, its treasury to the bank, included); without the option the
    treasuries tell it at once."""
    log = _log({"hidden_train_prices": True}, 5)
    pair, differs = moved_between_treasuries({"hidden_train_prices": True}, log)
    assert len(pair) == 2 and differs is None and len(log) > 300
    assert moved_between_treasuries({}, _log({}, 5))[1] is not None
