"""The rules' questions asked after every move, made cheaper (bench/README.md, the eleventh round): each shortcut
gives the answer the full question gives, at every state of a recorded game, and what it keeps or skips is what
it says it keeps or skips."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engines.base import RuleError
from engines.e18xx import operating, stock, trains
from engines.e18xx.board import Board, forget_boards, load_map
from engines.e18xx.companies import certificate_count, load_title
from engines.e18xx.g1867 import bidding, loans, merger
from engines.e18xx.g1867 import stock as stock1867
from engines.e18xx.game import Canada1867, Shikoku1889
from engines.e18xx.replay import replay_export
from engines.e18xx.route import chains_from
from engines.e18xx.rules import Rules
from engines.e18xx.state import G

FIXTURES = Path(__file__).resolve().parents[2] / "shared" / "data" / "18xx" / "fixtures"


def recorded(name: str) -> dict:
    if not FIXTURES.is_dir():
        pytest.skip("../shared/data/18xx is absent: the recorded games are not here.")
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


# ---- the market -----------------------------------------------------------------------------------------------

def test_a_price_move_leaves_the_old_stacks_and_reads_only_the_moved_cell_anew():
    """G.move_price keeps the market's reading but for the corporation moved (the next price read does not read
    the whole market again); the reading is the one the market itself gives, the stacks it left are as they were,
    and the new stacks share only the lists of cells the move did not touch."""
    g = G(Canada1867().setup({}, 3))
    market = g.title.market
    cells = market.par_cells_for("minor")
    for cid, cell in (("A", cells[0]), ("B", cells[0]), ("C", cells[1])):
        g.s["market"] = market.with_par(g.s["market"], cid, cell)
    before = g.s["market"]
    frozen = {k: list(v) for k, v in before.items()}
    g.cells()  # read: the move below keeps this reading
    to = next(c for c in market.cells if c not in (cells[0], cells[1]))
    g.move_price("A", to)
    after = g.s["market"]
    assert before == frozen  # the stacks the move left are unchanged
    assert g.cells() == market.positions(after) and g.cell("A") == to
    assert after[cells[0].id] == ["B"] and after[to.id] == ["A"]
    assert after[cells[1].id] is before[cells[1].id]  # a cell the move left alone: its list is shared
    g.move_price("B", to)  # behind A on the cell it comes to
    assert g.s["market"][to.id] == ["A", "B"] and cells[0].id not in g.s["market"]
    assert g.cells() == market.positions(g.s["market"])


# ---- the operating round's checks, against the full questions, at every state of a recorded game -------------

def _full_lays_open(g: G, cid: str) -> list:
    r = g.round
    if r["laid"]:
        return []
    slots = g.rules.lays_allowed(g, cid, r.get("lays", []))
    power = g.rules.buying_power(g, cid)
    return [slot for slot in slots if slot["cost"] <= power]


def _full_trade_ins(g: G, cid: str, below_zero: bool) -> list:
    found = []
    if not g.rules.trade_ins_allowed(g, cid):
        return found
    for t in trains.depot_offer(g):
        if not g.rules.may_buy_train(g, cid, t):
            continue
        for old in g.corp(cid)["trains"]:
            try:
                price = trains.list_price(g, t, old)
            except ValueError:
                continue
            if price <= g.corp(cid)["cash"] and (below_zero or price >= 0):
                found.append((t, old, price))
    return found


@pytest.mark.parametrize("name", ["1867-21268.json", "1889-314.json"])
def test_the_operating_checks_answer_as_the_full_questions_at_every_state(name):
    """lays_open and 1867's must_buy_train look at the cash before the buying power, trade_ins skips depot trains
    with no trade-in prices, can_buy_train looks at other corporations' trains before the depot's prices,
    route_available looks at the tokened cities one at a time, the operating order reads G's kept cells: at every
    state of a recorded game, for every floated corporation, each answers as the full question (every lay priced,
    every trade-in tried, every tokened city listed, the market read anew)."""
    seen = {"lays": 0, "trade": 0, "must": 0}

    def after(action, state):
        g = G(state)
        floated = g.floated()  # the order read with G's kept cells, as with the market's own reading
        assert g.operating_order(floated) == g.title.market.operating_order(g.s["market"], floated)
        if g.round["kind"] != "operating":
            return
        for cid in floated:
            board = g.rules.route_board(g, cid)
            assert trains.route_available(g, cid) == any(chains_from(board, ref) for ref in board.token_nodes(cid))
            cash = g.corp(cid)["cash"]
            assert trains.can_buy_train(g, cid) == (
                bool(trains.trade_ins(g, cid, below_zero=True))
                or (trains.room(g, cid) and (any(trains.list_price(g, t) <= cash for t in trains.depot_offer(g)
                                                 if g.rules.may_buy_train(g, cid, t))
                                             or (cash >= 1 and bool(trains.other_trains(g, cid))))))
            assert operating.lays_open(g, cid) == _full_lays_open(g, cid)
            for below_zero in (False, True):
                full = _full_trade_ins(g, cid, below_zero)
                assert trains.trade_ins(g, cid, below_zero=below_zero) == full
                seen["trade"] += bool(full)
            seen["lays"] += bool(_full_lays_open(g, cid))
            if g.title.id == "1867":
                low = g.rules.cheapest_train_price(g)
                full = not g.corp(cid)["trains"] and low is not None and loans.buying_power(g, cid) >= low
                assert g.rules.must_buy_train(g, cid) == full
                seen["must"] += full

    replay_export(recorded(name), on_action=after)
    assert seen["lays"] > 100 and seen["trade"] > 0 and (seen["must"] > 0 or name.startswith("1889")), seen


def test_once_the_trains_have_run_settle_does_not_ask_whether_they_could(monkeypatch):
    """At the routes step operating.settle asks route_available only while no revenue is counted: after the
    trains ran (the revenue is set) the answer could only undo what they earned, and is not asked."""
    real, asked = trains.route_available, []

    def counted(g, cid):
        asked.append(g.round["revenue"])
        return real(g, cid)

    monkeypatch.setattr(trains, "route_available", counted)
    replay_export(recorded("1867-hs_ahjzadkh_19792.json"))
    assert asked and all(revenue is None for revenue in asked)


@pytest.mark.parametrize("name", ["1867-nationalization_cash.json", "1867-hs_ahjzadkh_19792.json", "1889-314.json"])
def test_settle_after_a_move_that_moves_no_train_takes_the_crowd_asked_before_it(monkeypatch, name):
    """A replay's operating.settle after a lay, a token, a run, a dividend or a pass with nobody over the train limit
    takes that answer (kept by E18xxGame._move) instead of asking again: at every settle the kept answer is the one
    asked anew, it is kept only after operating.TRAINLESS_MOVES, and settle leaves nothing kept for later questions."""
    engine = Canada1867 if name.startswith("1867") else Shikoku1889
    real_settle, real_apply, moves, kept_after = operating.settle, engine.apply, [], []

    def checked(g):
        kept, g.crowd_kept = g.crowd_kept, None
        if kept is not None:
            assert kept == trains.crowded(g) == [], (g.round, moves[-1])
            kept_after.append(moves[-1])
        g.crowd_kept = kept
        real_settle(g)
        assert g.crowd_kept is None

    def noted(self, state, seat, action, **kw):
        moves.append(action["type"])
        return real_apply(self, state, seat, action, **kw)

    monkeypatch.setattr(operating, "settle", checked)
    monkeypatch.setattr(engine, "apply", noted)
    replay_export(recorded(name))
    assert {"lay_tile", "run_routes", "pass"} <= set(kept_after) <= operating.TRAINLESS_MOVES and len(kept_after) > 30


def nothing_kept_after_a_move(monkeypatch, attr: str) -> None:
    """Canada1867.apply checked after every move: the answer G keeps within one move (`attr`) is gone."""
    real_apply = Canada1867.apply

    def applied(self, state, seat, action, **kw):
        after = real_apply(self, state, seat, action, **kw)
        assert getattr(G(after), attr) is None, attr
        return after

    monkeypatch.setattr(Canada1867, "apply", applied)


@pytest.mark.parametrize("name", ["1867-nationalization_cash.json", "1867-hs_ahjzadkh_19792.json"])
def test_the_merger_rounds_move_takes_the_stage_who_acts_asked_just_before(monkeypatch, name):
    """merger.apply's first question (the stage) is the one who_acts asked in the same E18xxGame.apply, nothing
    written between: it takes that answer (G.stage_kept), which is the stage asked anew, and nothing is left kept
    after a move (a later question would read a stage of a state since changed)."""
    real_move, taken = merger.apply, []

    def checked(g, seat, action):
        if g.stage_kept is not None:
            kept, g.stage_kept = g.stage_kept, None
            assert kept == merger._stage(g), (g.round, action)
            taken.append(kept[0])
            g.stage_kept = kept
        real_move(g, seat, action)

    monkeypatch.setattr(merger, "apply", checked)
    nothing_kept_after_a_move(monkeypatch, "stage_kept")
    replay_export(recorded(name))
    assert {"minor", "deal", "reduce"} <= set(taken)


@pytest.mark.parametrize("name", ["1867-nationalization_cash.json", "1867-hs_ahjzadkh_19792.json"])
def test_the_merger_rounds_settle_takes_the_stage_its_moves_dealing_found(monkeypatch, name):
    """A merger move whose dealing finds a token removal or a dealer still to come hands that stage to the settle
    after it in the same E18xxGame.apply (G.stage_after), which is the stage asked anew there, and nothing is left
    after a move."""
    real_settle, taken = merger.settle, []

    def checked(g):
        if g.stage_after is not None:
            assert g.stage_after == merger._stage(g), g.round
            taken.append(g.stage_after[0])
        real_settle(g)
        assert g.stage_after is None

    monkeypatch.setattr(merger, "settle", checked)
    nothing_kept_after_a_move(monkeypatch, "stage_after")
    replay_export(recorded(name))
    assert {"deal", "reduce"} <= set(taken)


def test_a_stage_handed_over_that_no_settle_takes_is_dropped_at_the_end_of_the_move(monkeypatch):
    """When settle does not come to the merger round (a game over, an interrupt first), the stage a move's dealing
    handed over is dropped by E18xxGame.apply: a later question would read a stage of a state since changed."""
    real_apply, handed, dropped = Canada1867.apply, [], []

    def applied(self, state, seat, action, **kw):
        if state["round"]["kind"] == "merger":
            copy = json.loads(json.dumps(state))
            with monkeypatch.context() as m:
                m.setattr(merger, "settle", lambda g: handed.append(g.stage_after))  # settle takes nothing
                real_apply(self, copy, seat, action, in_place=True)
            dropped.append(G(copy).stage_after is None)
        return real_apply(self, state, seat, action, **kw)

    monkeypatch.setattr(Canada1867, "apply", applied)
    replay_export(recorded("1867-nationalization_cash.json"))
    assert any(stage is not None for stage in handed) and all(dropped)


@pytest.mark.parametrize("name", ["1867-hs_ahjzadkh_19792.json", "1889-314.json"])
def test_a_move_takes_who_acts_answer_that_no_draw_and_no_interrupt_is_due(monkeypatch, name):
    """who_acts, asked by E18xxGame.apply just before the move, found no chance draw and no interrupt due: `_move`
    takes that (G.calm_kept) instead of asking both again; each asked anew says the same, and nothing is left kept
    after a move, nor after a refused one (a later question would read a state since changed)."""
    engine = Canada1867 if name.startswith("1867") else Shikoku1889
    real_apply, real_move, taken = engine.apply, engine._move, []

    def checked(self, g, seat, action):
        if g.calm_kept:
            assert g.rules.chance_request(g) is None and g.rules.interrupt(g) is None, (g.round, action)
            taken.append(action["type"])
        real_move(self, g, seat, action)

    def applied(self, state, seat, action, **kw):
        after = real_apply(self, state, seat, action, **kw)
        assert not G(after).calm_kept
        return after

    monkeypatch.setattr(engine, "_move", checked)
    monkeypatch.setattr(engine, "apply", applied)
    replay_export(recorded(name))
    assert len(taken) > 100
    monkeypatch.undo()
    eng = engine()
    state = eng.setup({}, 3)
    seat = min(eng.who_acts(state).seats)
    with pytest.raises(RuleError, match="not your turn"):
        eng.apply(state, (seat + 1) % 3, {"type": "pass"}, in_place=True)
    assert not G(state).calm_kept


# ---- the merger round's reach questions ------------------------------------------------------------------------

def _fresh(state: dict) -> G:
    """A G of a copy of `state` whose board has walked nothing yet (no reach, no kept nodes)."""
    forget_boards()
    return G(json.loads(json.dumps(state)))


@pytest.mark.parametrize("name", ["1867-nationalization_cash.json", "1867-hs_ahjzadkh_19792.json",
                                  "1867-21268.json"])
def test_whether_a_minor_may_merge_with_another_is_whether_candidates_lists_one(monkeypatch, name):
    """merger._any_candidate (the cities of the minors that may join first, walks that stop at the first, the nodes
    a walk that found none leaves on the board) answers bool(candidates) asked on a board of its own: at each
    question a replay asks as the minors of a merge gather on one board, and at every minor's turn of a merger
    round asked on a fresh board."""
    real, asked, turns = merger._any_candidate, [], []

    def checked(g, cid):
        answer = real(g, cid)
        state = g.s
        asked.append(answer)
        assert answer == bool(merger.candidates(_fresh(state), cid)), (g.round, cid)
        return answer

    def after(action, state):
        g = G(state)
        if g.round["kind"] != "merger" or merger.stage(g) != "minor" or (cid := merger.current(g)) is None:
            return
        answer = real(_fresh(state), cid)
        turns.append(answer)
        assert answer == bool(merger.candidates(_fresh(state), cid)), (g.round, cid)

    monkeypatch.setattr(merger, "_any_candidate", checked)
    replay_export(recorded(name), on_action=after)
    assert asked and True in turns and False in turns


def test_a_reach_walk_that_finds_nothing_keeps_the_nodes_of_the_whole_reach():
    """Board.reach_finds: a walk whose question is never True walks the whole reach, and the nodes it keeps
    (reach_nodes) are those of the full reach walked on a board of its own, for every corporation with a token, on
    the board of every merger round of a recorded game; a walk that stops keeps none."""
    boards = []

    def after(action, state):
        if state["round"]["kind"] == "merger" and state["board"] not in boards:
            boards.append(state["board"])

    replay_export(recorded("1867-nationalization_cash.json"), on_action=after)
    assert len(boards) > 3
    for data in boards:
        forget_boards()
        board = Board.from_json(load_map("g1867"), data)
        holders = {h for per_node in board.tokens.values() for held in per_node for h in held if h}
        assert holders
        for corp in sorted(holders):
            assert board.reach_nodes(corp) is None
            assert not board.reach_finds(corp, lambda coord, p: False)
            kept = board.reach_nodes(corp)
            forget_boards()
            assert kept == Board.from_json(load_map("g1867"), data).reachable(corp).nodes, corp
            if len(kept) > len(board.token_nodes(corp)):  # track leaves its cities: a walk asked of a path stops
                forget_boards()
                fresh = Board.from_json(load_map("g1867"), data)
                assert fresh.reach_finds(corp, lambda coord, p: True) and fresh.reach_nodes(corp) is None


# ---- the stock round's counts ---------------------------------------------------------------------------------

def _full_cert_count(g: G, seat: int) -> int:
    """companies.certificate_count over every corporation, the privates counted from their owners (1890's rule
    leaves one out: its own hook)."""
    key = g.key(seat)
    privates = len(g.privates_of(key)) if type(g.rules).privates_counted is Rules.privates_counted \
        else g.rules.privates_counted(g, key)
    return certificate_count(key, {cid: c["shares"] for cid, c in g.s["corps"].items()},
                             {cid: g.cell(cid) for cid in g.s["corps"]}, privates,
                             g.title.rules.get("cert_limit_counts_privates", True))


@pytest.mark.parametrize("name", ["1867-hs_ahjzadkh_19792.json", "1867-nationalization_cash.json", "1889-314.json"])
def test_the_certificate_count_is_the_companies_count_at_every_state(name):
    """G.cert_count reads only the corporations with a price where every cell counts (1867), and reads the price
    cells where some do not (1889's coloured zones): both give companies.certificate_count at every state, for
    every player."""
    def after(action, state):
        g = G(state)
        for seat in range(g.n):
            assert g.cert_count(seat) == _full_cert_count(g, seat)

    replay_export(recorded(name), on_action=after)
    g = G(Canada1867().setup({}, 3))
    assert g.title.market.every_cell_counts
    assert not G(Shikoku1889().setup({}, 3)).title.market.every_cell_counts


@pytest.mark.parametrize("title, players, seed", [("1867", 4, 2), ("1807", 4, 4), ("1890", 4, 3)])
def test_a_player_holds_certificates_only_of_a_corporation_with_a_price(title, players, seed):
    """What G.cert_count relies on where every cell counts (1867, 1807): no player holds a certificate of a
    corporation off the market (started ones are put on it before a certificate moves; closing or starting again
    takes the certificates back as it leaves). Checked with the count itself at every state of a whole game of
    random play (1807's systems and takeovers, 1867's mergers and nationalisations; 1890's count reads every
    corporation)."""
    from bot.selfplay import play_one
    held = []

    def check(state):
        g = G(state)
        for seat in range(g.n):
            key = g.key(seat)
            if g.title.market.every_cell_counts:
                for cid, c in g.s["corps"].items():
                    if c["shares"].get(key):
                        held.append(cid)
                        assert g.cell(cid) is not None, (cid, key, g.round)
            assert g.cert_count(seat) == _full_cert_count(g, seat), (key, g.round)
        return state

    play_one(title, players, random.Random(seed), hook=check)
    assert len(held) > 1000 or title == "1890"


@pytest.mark.parametrize("name", ["1867-nationalization_cash.json", "1889-314.json"])
def test_a_players_value_is_his_cash_his_priced_certificates_and_his_privates_at_every_state(name):
    """G.base_value hands player_value the certificates of the priced corporations only (no other counts): the value
    is player_value's over every corporation, for every player at every state."""
    from engines.e18xx.companies import player_value

    def after(action, state):
        g = G(state)
        for seat in range(g.n):
            key = g.key(seat)
            full = player_value(g.s["cash"][seat], {cid: c["shares"].get(key, []) for cid, c in g.s["corps"].items()},
                                {cid: cell.price for cid, cell in g.cells().items()},
                                [g.s["privates"][pid]["value"] for pid in g.privates_of(key)], g.title)
            assert g.base_value(seat) == full

    replay_export(recorded(name), on_action=after)


def test_new_games_share_the_printed_board_and_a_game_played_leaves_it_as_printed():
    """new_state's board is made once per map and shared by every new game (a state's board is replaced, never
    changed in place): a game replayed in place from it leaves it as printed, and a new game starts from it."""
    first = Canada1867().setup({}, 3)
    printed = json.loads(json.dumps(first["board"]))
    assert Canada1867().setup({}, 4)["board"] is first["board"]
    assert printed == Board.new(load_map("g1867")).to_json()
    _, replayed = replay_export(recorded("1867-hs_ahjzadkh_19792.json"))  # in place: tiles, tokens, a merger
    assert replayed.state["board"] != printed and first["board"] == printed
    assert Canada1867().setup({}, 3)["board"] == printed


def _full_sales(g: G, seat: int) -> list:
    """Every stock-round sale open to the player, asked in full: each bundle of each corporation he holds that
    stock_sale_problem lets him sell, the first of each percent."""
    from engines.e18xx.companies import sale_bundles
    found = []
    for cid, corp in g.s["corps"].items():
        held, seen = corp["shares"].get(g.key(seat)), set()
        for certs, percent in sale_bundles(g.cdef(cid), held) if held else ():
            if percent not in seen and stock.stock_sale_problem(g, seat, cid, certs, percent) is None:
                seen.add(percent)
                found.append({"type": "sell_shares", "shares": certs, "percent": percent})
    return found


@pytest.mark.parametrize("name", ["1867-nationalization_cash.json", "1889-314.json"])
def test_the_stock_turns_sales_are_the_sales_the_full_question_allows(name):
    """The stock turn lists its sales corporation by corporation, skipping what it knows every bundle is refused
    for (a one-certificate holding no other player could take the presidency of, among others): the list is the
    full question's, for every player at every stock-round state."""
    seen = set()

    def after(action, state):
        g = G(state)
        if g.round["kind"] != "stock" or g.round.get("auction") or g.round.get("home"):
            return
        for seat in range(g.n):
            sales = stock.sales(g, seat)
            assert sales == _full_sales(g, seat), (action, seat)
            seen.add(bool(sales))

    replay_export(recorded(name), on_action=after)
    assert seen == {True, False}


def _full_has_move_1867(g: G, seat: int) -> bool:
    """1867's stock turn holds more than pass, asked in full: the shared turn's purchases (pars included) or sales,
    else, with no purchase this turn and room under the certificate limit, a bid or a par offered."""
    if stock.has_move(g, seat):
        return True
    room = "buy" not in g.round["did"] and g.cert_count(seat) < g.cert_limit
    return room and ((g.s["cash"][seat] >= stock1867.MIN_BID and bool(stock1867.available_minors(g)))
                     or stock1867._any_par(g, seat))


@pytest.mark.parametrize("name", ["1867-nationalization_cash.json", "1867-21268.json"])
def test_1867s_stock_turn_has_a_move_exactly_when_the_full_question_finds_one(name):
    """1867's settle asks whether a stock turn holds a move with the certificates counted once and without the
    shared turn's pars (a par it offers is one `_any_par` finds): the answer is the full question's, for every
    player at every stock-round state, among them states where a par is open."""
    seen, pars = set(), []

    def after(action, state):
        g = G(state)
        r = g.round
        if r["kind"] != "stock" or r.get("auction") or r.get("home"):
            return
        for seat in range(g.n):
            has = stock1867._has_move(g, seat)
            assert has == _full_has_move_1867(g, seat), (action, seat)
            seen.add(has)
            pars.extend(m for m in stock._purchases(g, seat) if m["type"] == "par")

    replay_export(recorded(name), on_action=after)
    assert seen == {True, False}
    assert pars  # the pars left out of the shared question were there to be found


@pytest.mark.parametrize("name", ["1867-nationalization_cash.json", "1867-21268.json"])
def test_1867s_par_offered_is_the_least_par_price_against_every_major_that_may_start(name):
    """_any_par reads the least par price as the last of the market's par cells (dearest first) and stops at the
    first major it finds: the answer is the question asked over every major with the least price of all the cells,
    for every player at every stock-round state, among them states with both answers."""
    seen = set()

    def after(action, state):
        g = G(state)
        if g.round["kind"] != "stock":
            return
        least = min(cell.price for cell in g.title.market.par_cells)
        for seat in range(g.n):
            full = any(cid not in g.cells() and g.rules.may_start(g, cid)
                       and g.s["cash"][seat] >= least * g.cdef(cid).president_percent // g.cdef(cid).share_unit
                       for cid in g.s["corps"] if g.cdef(cid).kind == "major")
            assert stock1867._any_par(g, seat) == full
            seen.add(full)

    replay_export(recorded(name), on_action=after)
    assert seen == {True, False}


def test_1867s_stock_turn_whose_only_moves_are_pars_has_a_move():
    """From phase 4 with the minors closed and nothing yet started, a player's only moves are pars: the turn has a
    move (the shared question, asked without its pars, finds nothing), and none once he is at the limit."""
    g = G(Canada1867().setup({}, 3))
    stock1867.start(g, 2)
    g.s["depot"]["phase"] = "4"
    g.s["flags"]["minors_closed"] = True
    g.s["cash"] = [1000, 1000, 1000]
    assert {m["type"] for m in stock1867.legal(g, 0)} == {"par", "pass"}
    assert not stock.has_move(g, 0, pars=False)
    assert stock1867._has_move(g, 0) and _full_has_move_1867(g, 0)
    g.s["cash"][0] = 99  # less than any par: no move
    assert not stock1867._has_move(g, 0) and not _full_has_move_1867(g, 0)


@pytest.mark.parametrize("title", ["1889", "1867", "1890", "1807"])
def test_a_titles_corporations_of_a_kind_are_the_states_of_that_kind_in_its_order(title):
    """Title.of_kind (read by the stock turn's loops over minors or majors) lists, for each kind, the corporations
    of a new game's state of that kind, in the state's order (the order legal() offers them in)."""
    from engines.e18xx.state import new_state
    state = new_state(title, 3, False)
    g = G(state)
    kinds = {g.cdef(cid).kind for cid in state["corps"]}
    assert {k: list(v) for k, v in g.title.of_kind.items()} == {
        kind: [cid for cid in state["corps"] if g.cdef(cid).kind == kind] for kind in kinds}


def _minors_check(seen: set):
    """A state check: when the title says no minor may start (Rules.minors_may_start), may_start says no for each."""
    def check(state):
        g = G(state)
        allowed = g.rules.minors_may_start(g)
        seen.add(allowed)
        if not allowed:
            assert not any(g.rules.may_start(g, cid) for cid in g.title.of_kind["minor"]), g.round
            assert stock1867.available_minors(g) == []
        return state
    return check


def test_once_1867s_minors_are_closed_none_may_start_and_none_is_asked(monkeypatch):
    """The stock turn lists the minors open for a bid without asking each once the title says none may start: at
    every state of a recorded game that closes them, may_start says no for every minor then."""
    seen, asked = set(), []
    check = _minors_check(seen)
    rules = type(G(Canada1867().setup({}, 3)).rules)
    real = rules.may_start

    def after(action, state):
        g = G(state)
        asked.clear()
        monkeypatch.setattr(rules, "may_start", lambda self, g, cid, by_merger=False: asked.append(cid) or False)
        stock1867.available_minors(g)
        monkeypatch.setattr(rules, "may_start", real)
        assert bool(asked) == g.rules.minors_may_start(g)
        check(state)

    replay_export(recorded("1867-nationalization_cash.json"), on_action=after)
    assert seen == {True, False}


def test_1807s_minors_may_start_only_in_the_phases_that_say_so():
    """1807: at every state of a whole random game, no minor may start when the phase says minors do not start."""
    from bot.selfplay import play_one
    seen = set()
    play_one("1807", 3, random.Random(16), hook=_minors_check(seen))
    assert seen == {True, False}


def _auctions_check(seen: list):
    """A state check: every auction under way (1867's privates, a minor's, 1807's) holds its bids in rising order,
    one a bidder, so its best bid is its last."""
    def check(state):
        r = state["round"]
        auction = r.get("auction")
        if auction and auction["bids"]:
            prices = [price for _, price in auction["bids"]]
            assert prices == sorted(set(prices)) and len({s for s, _ in auction["bids"]}) == len(prices), auction
            assert bidding.best(auction) == max(auction["bids"], key=lambda b: b[1])
            seen.append(len(prices))
        return state
    return check


@pytest.mark.parametrize("name", ["1867-nationalization_cash.json", "1867-hs_ahjzadkh_19792.json"])
def test_an_auctions_bids_rise_so_its_best_bid_is_its_last(name):
    seen = []
    check = _auctions_check(seen)
    replay_export(recorded(name), on_action=lambda action, state: check(state))
    assert max(seen) > 2


def test_1807s_auctions_bids_rise_so_their_best_bid_is_their_last():
    from bot.selfplay import play_one
    seen = []
    play_one("1807", 3, random.Random(15), hook=_auctions_check(seen))
    assert max(seen) > 2


def test_a_bid_names_an_open_minor_exactly_when_it_is_among_the_available_minors():
    """The bid's check of the minor it names (one corporation asked) answers as the list of available minors does,
    at every stock-round state of a recorded game, for every corporation and for names that are none."""
    seen = set()

    def after(action, state):
        g = G(state)
        if g.round["kind"] != "stock":
            return
        available = stock1867.available_minors(g)
        for cid in [*g.s["corps"], "XX", None, 7]:
            assert stock1867._minor_open(g, cid) == (cid in available), (action, cid)
            seen.add(cid in available)

    replay_export(recorded("1867-nationalization_cash.json"), on_action=after)
    assert seen == {True, False}


@pytest.mark.parametrize("name", ["1867-nationalization_cash.json", "1867-hs_ahjzadkh_19792.json"])
def test_a_raise_in_a_minors_auction_finds_every_bidder_left_under_the_certificate_limit(name):
    """A raise in a minor's auction takes each bidder's cash as what he may bid, uncounted: the opening bid dropped
    whoever was at the limit and no certificate moves during the bidding. At every state of a recorded game with
    a bid made, every bidder left may bid his cash by the count too."""
    raises = []

    def after(action, state):
        g = G(state)
        auction = g.round.get("auction") if g.round["kind"] == "stock" else None
        if auction and auction["bids"]:
            may_bid = stock1867._bid_cash(g)
            assert all(may_bid(s) == g.s["cash"][s] for s in auction["bidders"]), action
            raises.append(action)

    replay_export(recorded(name), on_action=after)
    assert raises


def test_a_bidder_short_of_cash_is_dropped_without_counting_his_certificates(monkeypatch):
    """After a bid, a bidder who cannot pay the next one is dropped: one short of cash without his certificates
    counted, one with the cash but at the certificate limit (he may bid nothing) by the count."""
    g = G(Canada1867().setup({}, 3))
    g.s["cash"] = [500, 50, 500]
    counted = []
    real = G.cert_count
    monkeypatch.setattr(G, "cert_count", lambda self, seat: counted.append(seat) or (99 if seat == 2 else
                                                                                      real(self, seat)))
    auction = bidding.open_auction("A", [0, 1, 2])
    bidding.bid(g, auction, 0, 100, stock1867.MIN_BID, stock1867._bid_cash(g))
    assert auction["bidders"] == [0]
    assert 1 not in counted and 2 in counted


# ---- the privates' abilities ----------------------------------------------------------------------------------

@pytest.mark.parametrize("title", ["1889", "1867", "1890", "1807"])
def test_a_companys_full_name_is_made_once_and_is_its_name_in_both_languages(title):
    """A corporation's and a private's full name (asked for most events) is made once and shared (a Name is
    frozen), and it is the name, the Japanese name and the reading of its data."""
    from engines.text import Name
    t = load_title(title)
    for company in (*t.corporations, *t.privates):
        assert company.full_name == Name(company.name, company.name_ja, company.kana)
        assert company.full_name is company.full_name


@pytest.mark.parametrize("title", ["1889", "1867", "1890", "1807"])
def test_a_privates_ability_looked_up_is_its_first_of_that_kind(title):
    """Private.ability reads a table made once (it was a search of the abilities at each question): the first
    ability of each kind, None for a kind it lacks."""
    privates = load_title(title).privates
    kinds = {a["kind"] for p in privates for a in p.abilities} | {"no_such_kind"}
    for p in privates:
        for kind in kinds:
            assert p.ability(kind) == next(iter(p.abilities_of(kind)), None)


@pytest.mark.parametrize("engine", [Shikoku1889, Canada1867])
def test_a_closed_private_has_no_ability(engine):
    g = G(engine().setup({}, 3))
    pid = next(pid for pid in g.s["privates"] if g.pdef(pid).abilities)
    first = g.pdef(pid).abilities[0]
    assert g.ability(pid, first["kind"]) == first
    g.s["privates"][pid]["closed"] = True
    assert g.ability(pid, first["kind"]) is None


@pytest.mark.parametrize("name", ["1867-hs_ahjzadkh_19792.json", "1889-314.json"])
def test_settle_asks_only_the_steps_that_happen_by_themselves_whether_they_do(name):
    """operating.settle calls _by_itself only at the steps of operating.BY_ITSELF: at every other step of the title,
    in operating states of a recorded game, _by_itself does nothing and says so (it fails when _by_itself is given
    another step to do and BY_ITSELF is not told)."""
    import copy
    states = []
    replay_export(recorded(name), on_action=lambda action, state: states.append(state))
    asked = 0
    for state in states[::3]:
        g = G(state)
        if g.round["kind"] != "operating" or operating.current(g) is None:
            continue
        for step in g.rules.operating_steps:
            if step in operating.BY_ITSELF:
                continue
            s = copy.deepcopy(state)
            s["round"]["step"] = step
            assert operating._by_itself(G(s), operating.current(G(s))) is False, (step, state["round"])
            s["round"]["step"] = state["round"]["step"]
            assert s == state, step
            asked += 1
    assert asked > 100



def test_engines_own_apply_steps_make_the_same_move_as_the_18xx_apply(monkeypatch):
    """E18xxGame.apply runs Engine.apply's steps (check, copy, move) itself with one G: Engine.apply on a copy of the
    state before each move of a recorded game (a live table's path: a copy, nothing kept) ends in the same state."""
    import copy

    from engines.base import Engine
    real_apply, compared = Canada1867.apply, []

    def both(self, state, seat, action, **kw):
        ours = Engine.apply(self, copy.deepcopy(state), seat, action)
        after = real_apply(self, state, seat, action, **kw)
        assert json.dumps(ours, sort_keys=True) == json.dumps(after, sort_keys=True), action
        compared.append(action["type"])
        return after

    monkeypatch.setattr(Canada1867, "apply", both)
    replay_export(recorded("1867-hs_ahjzadkh_19792.json"))
    assert len(compared) > 200 and {"merge", "lay_tile", "run_routes"} <= set(compared)
