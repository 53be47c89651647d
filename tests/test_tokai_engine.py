"""Tokai Baron engine: a scripted opening, a move with payout, a fare, the end, and random play."""
from __future__ import annotations

import json
import random

import pytest

from engines.base import CHANCE, RuleError
from engines.log import run_chance
from engines.tokai import destinations as ds
from engines.tokai import movement as mv
from engines.tokai import network as nw
from engines.tokai.engine import TICKET, TokaiBaron, deal_cards, price
from tests.tokai_helpers import along

E = TokaiBaron()


def roll_pair(point: str) -> list[list[int]]:
    """Two 3-dice rolls (coloured, white, white) that name ``point`` from the region table and its region's table."""
    region = nw.region_of_point(point)
    combos = [[c, a, b] for c in range(1, 7) for a in range(1, 7) for b in range(1, 7)]
    first = next(r for r in combos if ds.region_of(r[0] % 2 == 1, r[1] + r[2]) == region)
    second = next(r for r in combos if ds.point_of(region, r[0] % 2 == 1, r[1] + r[2]) == point)
    return [first, second]


def dice(values: list[int]) -> dict:
    return {"type": "dice", "values": values}


def opening() -> dict:
    """Two players, identity shuffle; seat 0 starts at 名古屋, seat 1 at 栄."""
    s = E.setup({}, 2)
    s = E.apply(s, CHANCE, dice([6, 6, 6, 1, 2, 3]))  # seat order: seat 0 rolls 18, seat 1 rolls 6
    s = E.apply(s, CHANCE, {"type": "shuffle", "order": list(range(len(deal_cards())))})
    assert s["hands"][0] == deal_cards()[:5] and s["hands"][1] == deal_cards()[5:10]
    with pytest.raises(RuleError):
        E.apply(s, 0, {"type": "done"})  # nothing spent yet
    s = E.apply(s, 0, {"type": "buy", "card": "jr_kansai"})
    s = E.apply(s, 0, {"type": "buy", "card": "jr_taketoyo"})
    s = E.apply(s, 0, {"type": "done"})
    s = E.apply(s, 1, {"type": "buy", "card": "meitetsu_nagoya_west"})
    with pytest.raises(RuleError):
        E.apply(s, 1, {"type": "buy", "card": "meitetsu_komaki"})  # 43,000 > 40,000
    with pytest.raises(RuleError):
        E.apply(s, 1, {"type": "buy", "card": "jr_chuo"})  # not in this hand
    s = E.apply(s, 1, {"type": "buy", "card": "johoku"})
    s = E.apply(s, 1, {"type": "done"})
    for point in ("nagoya", "sakae"):
        for r in roll_pair(point):
            s = E.apply(s, CHANCE, dice(r))
    return s


def test_opening_money_and_starts():
    s = opening()
    p0, p1 = s["players"]
    assert p0["cash"] == 50000 - 28000 and p1["cash"] == 50000 - 40000
    assert sorted(p0["cards"]) == ["jr_kansai", "jr_taketoyo"]
    assert s["owners"]["johoku"] == 1 and s["owners"]["jr_chuo"] is None
    assert p0["pos"] == "nagoya" and p1["pos"] == "sakae"
    assert p0["riding"] == ["meitetsu_nagoya_west"]  # a start on a pre-bought line rides it as just bought
    assert s["phase"] == "play" and s["current"] == 0
    assert E.awaiting(s).chance is not None  # the destination roll
    assert E.public(s) == E.view(s, 0) == json.loads(json.dumps(s))


def to_destination(s: dict, point: str) -> dict:
    for r in roll_pair(point):
        s = E.apply(s, CHANCE, dice(r))
        if E.awaiting(s).seats:  # own region: keep it
            s = E.apply(s, s["current"], {"type": "region", "region": nw.region_of_point(point)})
    assert s["players"][s["current"]]["dest"] == point
    return s


def test_move_to_destination_pays_out_and_bank_fare():
    s = to_destination(opening(), "kariya")
    s = E.apply(s, CHANCE, dice([2, 2]))
    assert {"type": "move", "to": "kariya"} in E.legal(s, 0)
    with pytest.raises(RuleError):
        E.apply(s, 0, {"type": "move", "to": "toyohashi"})
    path = s["turn"]["moves"]["kariya"]
    with pytest.raises(RuleError):
        E.apply(s, 0, {"type": "move", "path": path[:-1]})  # stops short of the roll
    assert E.apply(s, 0, {"type": "move", "path": path}) == E.apply(s, 0, {"type": "move", "to": "kariya"})
    s = E.apply(s, 0, {"type": "move", "to": "kariya"})
    pay = nw.payout_table_lookup("nagoya", "kariya")
    assert pay > 0 and s["players"][0]["cash"] == 22000 + pay
    assert s["turn"]["stage"] == "buy" and s["players"][0]["dest"] is None
    before = s
    s = E.apply(s, 0, {"type": "pass"})
    fare = mv.fare([tuple(h) for h in before["turn"]["path"]], before["owners"], 0, before["players"][0]["riding"])
    assert s["players"][0]["cash"] == 22000 + pay - sum(fare.values())
    assert s["current"] == 1 and s["players"][0]["pos"] == "kariya"


def test_fare_paid_to_another_player():
    s = opening()
    for card, owner in s["owners"].items():
        if owner is None:
            s["owners"][card] = 1
            s["players"][1]["cards"].append(card)
    s["players"][0]["riding"] = []
    s = to_destination(s, "kariya")
    s = E.apply(s, CHANCE, dice([4, 5]))  # 9 hops: no need of the Shinkansen (10,000 to its owner)
    s = E.apply(s, 0, {"type": "move", "to": "kariya"})
    cash0, cash1 = s["players"][0]["cash"], s["players"][1]["cash"]
    s = E.apply(s, 0, {"type": "pass"})
    assert s["players"][1]["cash"] == cash1 + 5000
    assert cash0 - s["players"][0]["cash"] >= 5000


def test_short_player_sells_to_the_bank():
    s = short_of_money()
    assert s["current"] == 0
    cards = s["players"][0]["cards"]
    auctions = [{"type": "auction", "card": c} for c in cards]
    assert E.legal(s, 0) == [{"type": "sell", "card": c} for c in cards] + auctions
    owed = sum(amount for _, amount in s["turn"]["bills"])
    with pytest.raises(RuleError):
        E.apply(s, 0, {"type": "pass"})
    s = E.apply(s, 0, {"type": "sell", "card": "jr_kansai"})  # 20,000 -> 10,000
    assert s["owners"]["jr_kansai"] is None and s["current"] == 1
    assert s["players"][0]["cash"] == 10000 - owed


def test_game_ends_when_the_last_card_is_bought():
    s = to_destination(opening(), "kariya")
    s = E.apply(s, CHANCE, dice([2, 2]))
    s = E.apply(s, 0, {"type": "move", "to": "kariya"})
    for card, owner in s["owners"].items():
        if owner is None and card != "linimo":
            s["owners"][card] = 1
            s["players"][1]["cards"].append(card)
    s["players"][0]["cash"] = 50000
    assert {"type": "buy", "card": "linimo"} in E.legal(s, 0)
    assert E.scores(s) is None
    s = E.apply(s, 0, {"type": "buy", "card": "linimo"})
    assert E.is_over(s) and E.awaiting(s).seats == frozenset() and E.awaiting(s).chance is None
    scores = E.scores(s)
    assert scores[0] == 50000 - price("linimo") + sum(price(c) for c in s["players"][0]["cards"])
    assert scores[1] == s["players"][1]["cash"] + sum(price(c) for c in s["players"][1]["cards"])
    with pytest.raises(RuleError):
        E.apply(s, 1, {"type": "pass"})


def test_bad_chance_and_seat_counts():
    with pytest.raises(RuleError):
        E.setup({}, 7)
    s = E.apply(E.setup({}, 3), CHANCE, dice([1, 1, 1, 2, 2, 2, 3, 3, 3]))
    with pytest.raises(RuleError):
        E.apply(s, CHANCE, {"type": "shuffle", "order": [0] * len(deal_cards())})
    s = opening()
    with pytest.raises(RuleError):
        E.apply(s, CHANCE, dice([7, 1, 1]))


def _pick(s: dict, moves: list[dict], rng: random.Random) -> dict:
    """Mostly buy when possible and head for the destination (a uniform walker soon traps itself)."""
    buys = [m for m in moves if m["type"] == "buy"]
    if buys and rng.random() < 0.8:
        return rng.choice(buys)
    if moves[0]["type"] == "move" and rng.random() < 0.9:
        dist = nw.hop_distances(nw.movement_graph(), s["players"][s["current"]]["dest"])
        return min(moves, key=lambda m: dist.get(m["to"], 999))
    return rng.choice(moves)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_play_ends_and_conserves_money(players):
    rng = random.Random(players)
    s, _ = run_chance(E, E.setup({}, players), rng)
    for step in range(3000):
        if E.is_over(s):
            break
        aw = E.awaiting(s)
        seat = rng.choice(sorted(aw.seats))
        moves = E.legal(s, seat)
        assert moves
        s = E.apply(s, seat, _pick(s, moves, rng))
        s, _ = run_chance(E, s, rng)
        assert sum(p["cash"] for p in s["players"]) + s["bank"] == 0
        assert all(p["cash"] >= 0 for p in s["players"])
        assert {c for c, o in s["owners"].items() if o is not None} == {c for p in s["players"] for c in p["cards"]}
        assert s["tickets"] + sum(p["ticket"] for p in s["players"]) == 6
        if step % 25 == 0:
            assert json.loads(json.dumps(s)) == s
    assert E.is_over(s)
    assert len(E.scores(s)) == players
    assert json.loads(json.dumps(s)) == s
    assert TICKET not in s["owners"]


def short_of_money() -> dict:
    """Seat 0 rode seat 1's 東海道本線 (5,000 to seat 1) with no cash left: it must sell."""
    s = opening()
    s["players"][0]["riding"] = []
    s["owners"]["jr_tokaido"] = 1
    s["players"][1]["cards"].append("jr_tokaido")
    s = to_destination(s, "kariya")
    s = E.apply(s, CHANCE, dice([4, 5]))
    s = E.apply(s, 0, {"type": "move", "to": "kariya"})
    s["players"][0]["cash"] = 0
    s = E.apply(s, 0, {"type": "pass"})
    assert s["turn"]["stage"] == "sell"
    return s


def test_auction_winner_offsets_what_they_are_owed():
    s = short_of_money()
    bills = dict((payee, amount) for payee, amount in s["turn"]["bills"])
    assert bills[1] == 5000
    s["players"][1]["cash"] = 0  # seat 1 can bid only with the 5,000 owed (the seed's own example)
    money = sum(p["cash"] for p in s["players"]) + s["bank"]  # the hand-made changes above broke the zero sum
    s = E.apply(s, 0, {"type": "auction", "card": "jr_kansai"})
    assert E.awaiting(s).seats == {1} and str(E.awaiting(s).prompt) == "auction bid"
    assert E.legal(s, 1) == [{"type": "bid", "amount": 1000}, {"type": "bid", "amount": 2000},
                             {"type": "bid", "amount": 5000}, {"type": "pass"}]
    with pytest.raises(RuleError):
        E.apply(s, 1, {"type": "bid", "amount": 6000})  # more than cash + what is owed
    with pytest.raises(RuleError):
        E.apply(s, 0, {"type": "bid", "amount": 1000})  # the seller does not bid
    s = E.apply(s, 1, {"type": "bid", "amount": 5000})
    assert E.awaiting(s).seats == {0} and E.legal(s, 0) == [{"type": "accept"}, {"type": "bank"}]
    s = E.apply(s, 0, {"type": "accept"})
    assert s["owners"]["jr_kansai"] == 1 and "jr_kansai" in s["players"][1]["cards"]
    assert s["players"][1]["cash"] == 0  # paid entirely by cancelling the fare owed
    assert s["current"] == 0 and s["turn"]["stage"] == "sell"  # still short of the bank's fare: sell on
    assert dict((payee, amount) for payee, amount in s["turn"]["bills"]) == {1: 0, "bank": bills["bank"]}
    s = E.apply(s, 0, {"type": "sell", "card": "jr_taketoyo"})
    assert s["current"] == 1
    assert sum(p["cash"] for p in s["players"]) + s["bank"] == money


def test_auction_refused_or_unbid_goes_to_the_bank():
    s = short_of_money()
    s = E.apply(s, 0, {"type": "auction", "card": "jr_kansai"})
    cash1 = s["players"][1]["cash"]
    s2 = E.apply(s, 1, {"type": "pass"})  # nobody bids: the bank buys at half price
    assert s2["owners"]["jr_kansai"] is None and "jr_kansai" not in s2["players"][0]["cards"]
    s3 = E.apply(E.apply(s, 1, {"type": "bid", "amount": 1000}), 0, {"type": "bank"})
    assert s3["owners"]["jr_kansai"] is None and s3["players"][1]["cash"] >= cash1 - 0
    assert s2["players"][0]["cash"] == s3["players"][0]["cash"]


def test_seat_order_roll_rerolls_ties_and_play_goes_clockwise_from_the_winner():
    s = E.setup({}, 3)
    assert E.awaiting(s).chance.count == 9
    s = E.apply(s, CHANCE, dice([6, 6, 6, 6, 6, 6, 1, 1, 1]))  # seats 0 and 1 tie on 18
    assert E.awaiting(s).chance.count == 6 and s["phase"] == "order"
    s = E.apply(s, CHANCE, dice([1, 1, 1, 2, 2, 2]))
    assert s["first"] == 1 and s["phase"] == "deal"
    s = E.apply(s, CHANCE, {"type": "shuffle", "order": list(range(len(deal_cards())))})
    seen = []
    for _ in range(3):
        seat = s["current"]
        seen.append(seat)
        s = E.apply(s, seat, {"type": "buy", "card": TICKET})
        cheapest = min(s["hands"][seat], key=price)
        while s["spent"][seat] < 20000:
            cheapest = min((c for c in s["hands"][seat] if s["owners"][c] is None), key=price)
            s = E.apply(s, seat, {"type": "buy", "card": cheapest})
        s = E.apply(s, seat, {"type": "done"})
    assert seen == [1, 2, 0] and s["phase"] == "start" and s["current"] == 1


def test_waypoints_pick_the_cheapest_path_through_them_in_order():
    s = to_destination(opening(), "kariya")
    s = E.apply(s, CHANCE, dice([3, 3]))
    to = next(p for p, path in s["turn"]["moves"].items() if len(path) > 3)
    middle = s["turn"]["moves"][to][2][0]
    s2 = E.apply(s, 0, {"type": "move", "to": to, "via": [middle]})
    assert middle in s2["players"][0]["visited"] and s2["players"][0]["pos"] == to
    with pytest.raises(RuleError):
        E.apply(s, 0, {"type": "move", "to": to, "via": ["toyohashi"]})  # not on any 6-hop way there
    with pytest.raises(RuleError):
        E.apply(s, 0, {"type": "move", "to": to, "via": "kanayama"})


def test_a_malformed_move_is_refused_with_a_sentence():
    s = to_destination(opening(), "kariya")
    s = E.apply(s, CHANCE, dice([3, 3]))
    to = next(iter(s["turn"]["moves"]))
    path = s["turn"]["moves"][to]
    refusals = [({"type": "move"}, "Name the point where your move ends"),
                ({"type": "move", "to": "ほげ"}, "There is no point called “ほげ” on the map"),
                ({"type": "move", "to": to, "via": ["ほげ"]}, "There is no point called “ほげ” on the map"),
                ({"type": "move", "to": to, "via": [1]}, "must be a list of names"),
                ({"type": "move", "to": to, "path": path}, "not both"),
                ({"type": "move", "path": [[1, 2], ["x", None]]}, "not a legal move for this roll"),
                ({"type": "move", "to": to, "trusted": True}, "has no 'trusted'"),
                ({"type": "bid", "amount": 1000}, "Choose where to move")]
    for action, why in refusals:
        with pytest.raises(RuleError, match=why):
            E.apply(s, 0, action)
    assert E.apply(s, 0, {"type": "move", "to": to, "via": None, "path": None}) == E.apply(s, 0, {"type": "move",
                                                                                                "to": to})


def test_labels_name_cards_points_and_money():
    assert str(E.label({"type": "buy", "card": TICKET})) == "Express ticket (¥5,000)"
    assert str(E.label({"type": "buy", "card": "jr_kansai"})) == f"Buy {nw.route_cards()['jr_kansai']['en']} (¥20,000)"
    assert str(E.label({"type": "sell", "card": "jr_kansai"})).endswith("to the bank (¥10,000)")
    assert str(E.label({"type": "move", "to": "nagoya", "via": ["kanayama"]})) == "Move to Nagoya via Kanayama"
    assert str(E.label({"type": "bid", "amount": 12000})) == "Bid ¥12,000"
    assert str(E.label({"type": "done"})) == "Done buying"


def test_auto_action_arrives_and_buys_the_dearest_line_it_can_spare():
    s = to_destination(opening(), "kariya")
    s = E.apply(s, CHANCE, dice([2, 2]))
    left = E.hops_left(s, 0)
    assert left["kariya"] == 0 and all(v is None or v > 0 for p, v in left.items() if p != "kariya")
    assert E.auto_action(s, 0) == {"type": "move", "to": "kariya"}
    s = E.apply(s, 0, E.auto_action(s, 0))
    cash = s["players"][0]["cash"]
    choice = E.auto_action(s, 0)
    affordable = [price(c) for c, o in s["owners"].items() if o is None and cash - price(c) >= 10000]
    if affordable:
        assert choice["type"] == "buy" and price(choice["card"]) == max(affordable)
    else:
        assert choice == {"type": "pass"}
    assert E.auto_action(s, 1) is None  # not awaited


def test_only_players_who_can_bid_1000_take_part_in_an_auction():
    s = short_of_money()
    s["players"][1]["cash"] = 0
    s["turn"]["bills"] = [[payee, amount] for payee, amount in s["turn"]["bills"] if payee != 1]  # nothing owed
    assert all(m["type"] == "sell" for m in E.legal(s, 0))
    with pytest.raises(RuleError, match="Nobody can bid"):
        E.apply(s, 0, {"type": "auction", "card": "jr_kansai"})
    s["players"][1]["cash"] = 1000
    assert {"type": "auction", "card": "jr_kansai"} in E.legal(s, 0)


def test_a_line_bought_at_auction_grandfathers_the_sellers_pawn_on_it():
    """Ruling 27: the seller, standing at 刈谷 on 名鉄三河線, sells that line at auction; the buyer's line then costs
    the seller 1,000 yen (ruling 15), not 5,000, while the seller rides on along it."""
    s = short_of_money()  # seat 0 at 刈谷, no cash, owes 1,000 to the bank and 5,000 to seat 1
    s["owners"]["meitetsu_mikawa"] = 0
    s["players"][0]["cards"].append("meitetsu_mikawa")
    assert s["players"][0]["riding"] == []
    money = sum(p["cash"] for p in s["players"]) + s["bank"]
    s = E.apply(s, 0, {"type": "auction", "card": "meitetsu_mikawa"})
    s = E.apply(s, 1, {"type": "bid", "amount": 8000})  # 5,000 set against the fare owed, 3,000 in cash
    s = E.apply(s, 0, {"type": "accept"})
    assert s["owners"]["meitetsu_mikawa"] == 1 and s["current"] == 1
    assert s["players"][0]["cash"] == 3000 - 1000  # the bank's fare paid from the sale
    assert s["players"][0]["riding"] == ["meitetsu_mikawa"]

    # seat 1's turn: a short move (no double) without arriving
    s = to_destination(s, "toyohashi")
    s = E.apply(s, CHANCE, dice([1, 2]))
    s = E.apply(s, 1, E.legal(s, 1)[0])
    assert s["current"] == 0

    # seat 0 rides three hops along 名鉄三河線 to 吉浜, short of its destination 豊橋
    s = to_destination(s, "toyohashi")
    s = E.apply(s, CHANCE, dice([1, 2]))
    path = [["kariya", None]] + [[p, line] for p, line in along("meitetsu_mikawa", "kariya", "yoshihama")]
    assert len(path) == 4, path
    cash0, cash1 = s["players"][0]["cash"], s["players"][1]["cash"]
    s = E.apply(s, 0, {"type": "move", "path": path})
    assert cash0 - s["players"][0]["cash"] == 1000 and s["players"][1]["cash"] - cash1 == 1000
    assert s["current"] == 1, "paid in full: the turn is over"
    assert s["players"][0]["riding"] == ["meitetsu_mikawa"], "still on the line: still grandfathered"
    assert sum(p["cash"] for p in s["players"]) + s["bank"] == money


def test_the_pre_purchase_cannot_be_steered_below_the_minimum_when_it_could_be_reached():
    """Ruling 28: stop short of 20,000 only if no choice of purchases reaches it. With 16,000 and 30,000 in hand
    (and no ticket left), buying the 16,000 first would strand the player at 16,000: it is refused."""
    s = E.setup({}, 2)
    s = E.apply(s, CHANCE, dice([6, 6, 6, 1, 2, 3]))
    s = E.apply(s, CHANCE, {"type": "shuffle", "order": list(range(len(deal_cards())))})
    s["hands"][0], s["tickets"] = ["jr_takayama", "jr_chuo"], 0
    assert [m.get("card") for m in E.legal(s, 0) if m["type"] == "buy"] == ["jr_chuo"]
    with pytest.raises(RuleError, match="20,000"):
        E.apply(s, 0, {"type": "buy", "card": "jr_takayama"})
    with pytest.raises(RuleError, match="20,000"):
        E.apply(s, 0, {"type": "done"})
    s = E.apply(s, 0, {"type": "buy", "card": "jr_chuo"})
    assert s["spent"][0] == 30_000 and {"type": "done"} in E.legal(s, 0)
    # a hand that cannot reach 20,000 at all may stop below it
    s["hands"][1], s["spent"][1] = ["subway_kamiiida", "meitetsu_toyokawa"], 0
    s = E.apply(s, 0, {"type": "done"})
    assert {"type": "done"} in E.legal(s, 1)
    s = E.apply(s, 1, {"type": "buy", "card": "subway_kamiiida"})
    s = E.apply(s, 1, {"type": "done"})
    assert s["spent"][1] == 4_000


def bonus_part_knockout(seed: int):
    """Random play until a roller is out of moves in a bonus part after riding another's line, or None."""
    from engines.chance import draw

    rng, s = random.Random(seed), E.setup({}, 3)
    for _ in range(4000):
        if E.is_over(s):
            return None
        aw = E.awaiting(s)
        if aw.chance is None:
            seat = rng.choice(sorted(aw.seats))
            s = E.apply(s, seat, E.auto_action(s, seat) if rng.random() < 0.95 else rng.choice(E.legal(s, seat)))
            continue
        before, s = s, E.apply(s, CHANCE, draw(aw.chance, rng))
        turn, seat = before.get("turn"), before["current"]
        if turn and turn["bonus"] and turn["stage"] == "roll" and s["players"][seat]["out"]:
            owed = mv.fare([tuple(x) for x in turn["path"]], before["owners"], seat, before["players"][seat]["riding"])
            if any(p != mv.BANK for p in owed):
                return before, s, seat, owed
    return None


def test_a_player_out_of_moves_in_a_bonus_part_pays_no_fares_everything_goes_to_the_bank():
    """Ruling 33: random play reaches a bonus part where the roller cannot move without passing a point twice,
    with fares owed from the normal part to another player; nobody is paid them, and the bank takes all."""
    found = next(filter(None, (bonus_part_knockout(seed) for seed in range(40, 240))))
    before, s, seat, owed = found
    for p in owed:
        if p != mv.BANK:
            assert s["players"][p]["cash"] == before["players"][p]["cash"], "the owner is not paid"
    me = before["players"][seat]
    assert s["bank"] == before["bank"] + me["cash"] and s["players"][seat]["cash"] == 0
    assert all(s["owners"][c] is None for c in me["cards"])


def test_auto_move_weighs_the_fare_against_the_hops_it_saves():
    """An idle player's move is nearest the destination *for the fare*: a hop nearer is worth HOP_WORTH yen, so it
    does not pay 5,000 to a rival's line to end one hop nearer, but does to end many hops nearer."""
    from engines.tokai.engine import HOP_WORTH

    base = opening()
    for card, owner in base["owners"].items():
        if owner is None:  # seat 1 owns every line seat 0 does not
            base["owners"][card] = 1
            base["players"][1]["cards"].append(card)
    base["players"][0]["riding"] = []
    checked = 0
    for dest in ("kariya", "toyohashi", "gifu", "inuyama", "tajimi", "kuwana"):
        s = to_destination(base, dest)
        for a, b in ((1, 2), (2, 3), (3, 4), (4, 5), (5, 6)):
            t = E.apply(s, CHANCE, dice([a, b]))
            if t["turn"].get("stage") != "move":
                continue
            left, extra = E.hops_left(t, 0), E.extra_fares(t, 0)
            live = [to for to in t["turn"]["moves"] if left[to] is not None]
            nearest = min(live, key=lambda to: (left[to], to))
            chosen = E.auto_action(t, 0)["to"]
            assert left[chosen] is not None
            cost = {to: extra[to] + HOP_WORTH * left[to] for to in live}
            assert cost[chosen] == min(cost.values())
            if extra[chosen] < extra[nearest]:
                checked += 1  # it ended farther, to pay less: by less than the fare it saved
                assert 0 < HOP_WORTH * (left[chosen] - left[nearest]) <= extra[nearest] - extra[chosen]
    assert checked, "some roll had a nearer ending on a rival's line and a cheaper one a little farther"


def test_a_move_never_changes_the_state_it_was_played_on():
    """A roll's moves are shared between a state and its copy (TokaiBaron.clone): whatever is played, including a
    move along waypoints or a whole named path, the state before stays as it was."""
    rng = random.Random(11)
    state, _ = run_chance(E, E.setup({}, 4), rng)
    named = 0
    for _ in range(600):
        if E.is_over(state):
            break
        seat = rng.choice(sorted(E.awaiting(state).seats))
        move = rng.choice(E.legal(state, seat))
        if move["type"] == "move" and state["turn"]["moves"] and rng.random() < 0.5:
            move = {"type": "move", "path": state["turn"]["moves"][move["to"]]}  # the whole path, as a player may
            named += 1
        before = json.dumps(state)
        after, _ = run_chance(E, E.apply(state, seat, move), rng)
        assert json.dumps(state) == before
        state = after
    assert named > 10
