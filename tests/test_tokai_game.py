"""A complete 2-player game of Tokai Baron from a scripted log, money worked out by hand.

Seats: A = seat 0, B = seat 1. Every action goes through ``E.apply``; chance is scripted (dice and the deal
shuffle chosen here). Money below is in thousands of yen in the comments, in yen in the code.

Setup:
- seat order: A rolls 5+4+3 = 12, B 2+2+1 = 5: A plays first.
- deal: A is dealt 上飯田線 4, 豊川線 5, 蒲郡線 7, 武豊線 8, 津島線 8 and buys all five (32): 50 - 32 = 18.
  B is dealt 名港線 8, 広見線 9, リニモ 9, 竹鼻・羽島線 9, 城北線 10 and buys the first four (35): 50 - 35 = 15.
- starts: A at 豊橋 (toyohashi), B at 岐阜羽島 (gifuhashima). No pre-bought line touches either start.

The play is a ping-pong on the 新幹線 between 豊橋 and 岐阜羽島 (3 hops: 三河安城, 名古屋, 岐阜羽島), which the
payout chart pays 30 (payouts count ordinary-line hops only). B makes one excursion to 笠松 (kasamatsu) on its own
竹鼻・羽島線, and comes back with a 6-6. Every arrival buys a route card (or the express ticket), until the 34th
card is sold.

Fares (docs/rules/tokai.md, Fares and Rulings 13-15), worked out here by ``fares_due`` without the engine:
- 新幹線 unowned: 6 to the bank (turns 1-4). A buys it in turn 5 and pays 2 to the bank from then on (the fare
  is paid at the end of the turn, so A's turn 5 is already at the owner's rate).
- B stands on 岐阜羽島 when A buys the 新幹線, so B rides it "as already bought": 6 (its unowned fare) to A, not
  10, while B stays on it (turns 6 and 8). B leaves it for 笠松 in turn 10 (its own line: 1 to the bank), and from
  then on pays A 10 a turn.
- Turn 12 (B, 6-6): 笠松 -> 豊橋 on B's own 竹鼻・羽島線 and A's 新幹線, then the bonus part back to 岐阜羽島 on
  the 新幹線 again: 1 to the bank + 10 to A, each payee paid once (the second ride costs nothing more).
  B is short: it sells 名港線 to the bank (half of 8 = 4), is still short, and auctions リニモ. A bids 11: the
  10 B owes A is set against it, and A pays only 1 in cash.

The ledger (cash after each turn, thousands; p = payout, b = purchase, f = fares):
 turn  who  trip                   p    b                         f            A    B
    1  A    豊橋 -> 岐阜羽島         30   城北線 10                  6 bank      32   15
    2  B    岐阜羽島 -> 豊橋         30   あおなみ線 10              6 bank      32   29
    3  A    岐阜羽島 -> 豊橋         30   豊田線 10                  6 bank      46   29
    4  B    豊橋 -> 岐阜羽島         30   西尾線 10                  6 bank      46   43
    5  A    豊橋 -> 岐阜羽島         30   新幹線 70                  2 bank       4   43
    6  B    岐阜羽島 -> 豊橋         30   東海道本線 60              6 to A      10    7
    7  A    岐阜羽島 -> 豊橋         30   中央本線 30                2 bank       8    7
    8  B    豊橋 -> 岐阜羽島         30   河和線 16                  6 to A      14   15
    9  A    豊橋 -> 岐阜羽島         30   東山線 30                  2 bank      12   15
   10  B    岐阜羽島 -> 笠松          6   太多線 12                  1 bank      12    8
   11  A    岐阜羽島 -> 豊橋         30   常滑・空港線 28            2 bank      12    8
   12  B    笠松 -> 豊橋 (6-6)       24   名城線 26
            bonus: 豊橋 -> 岐阜羽島   30   名古屋本線 (名古屋～岐阜) 30  10 to A, 1 bank: B has 6, short by 5
            sells 名港線 to the bank: +4 -> 10, still short by 1
            auctions リニモ: A bids 11 = 10 offset + 1 cash -> B 11, owes A 0 and the bank 1 -> pays   11   10
   13  A    豊橋 -> 岐阜羽島 (3-3)   30   高山本線 16                2 bank      23   10
           (a double, but A has no express ticket: no bonus)
   14  B    岐阜羽島 -> 豊橋         30   express ticket 5          10 to A      33   25
   15  A    岐阜羽島 -> 豊橋         30   愛知環状鉄道 24            2 bank      37   25
   16  B    豊橋 -> 岐阜羽島 (2-2)   30   鶴舞線 26
            bonus (ticket): -> 豊橋  30   尾西線 13                 10 to A      47   36
   17  A    豊橋 -> 岐阜羽島         30   名古屋本線 (豊橋～名古屋) 45  2 bank      30   36
   18  B    豊橋 -> 岐阜羽島         30   近鉄名古屋線 22           10 to A      40   34
   19  A    岐阜羽島 -> 豊橋         30   桜通線 20                  2 bank      48   34
   20  B    岐阜羽島 -> 豊橋         30   瀬戸線 20                 10 to A      58   34
   21  A    豊橋 -> 岐阜羽島         30   三河線 20                  2 bank      66   34
   22  B    豊橋 -> 岐阜羽島         30   関西本線 20               10 to A      76   34
   23  A    岐阜羽島 -> 豊橋         30   小牧線 13                  2 bank      91   34
   24  B    岐阜羽島 -> 豊橋         30   名港線 8 (again)          10 to A     101   46
   25  A    豊橋 -> 岐阜羽島         30   犬山・各務原線 45: the last card, the game ends, no fares    86   46
"""
from __future__ import annotations

import json

import pytest

from engines.base import CHANCE
from engines.log import replay
from engines.tokai import network as nw
from engines.tokai.engine import TICKET, TokaiBaron, deal_cards
from tests.tokai_helpers import along

E = TokaiBaron()
A, B = 0, 1
BANK = "bank"

HANDS = [
    ["subway_kamiiida", "meitetsu_toyokawa", "meitetsu_gamagori", "jr_taketoyo", "meitetsu_tsushima"],
    ["subway_meiko", "meitetsu_hiromi", "linimo", "meitetsu_takehana_hashima", "johoku"],
]
PREBUY = [HANDS[A], HANDS[B][:4]]

# Destination rolls, (coloured, white, white) twice: the region table, then that region's table.
TO_GIFUHASHIMA = [[2, 1, 1], [1, 4, 4]]  # even 2 -> 北西 (NW); NW odd 8 -> 岐阜羽島
TO_TOYOHASHI = [[1, 4, 4], [1, 3, 4]]  # odd 8 -> 南東 (SE); SE odd 7 -> 豊橋
TO_KASAMATSU = [[2, 1, 1], [1, 2, 3]]  # even 2 -> NW, B's own region: B keeps NW; NW odd 5 -> 笠松

# Routes as (line, from, to) legs along one line each.
WEST = [("jr_shinkansen", "toyohashi", "gifuhashima")]  # 3 hops
EAST = [("jr_shinkansen", "gifuhashima", "toyohashi")]  # 3 hops
OUT = [("meitetsu_hashima", "gifuhashima", "egira"), ("meitetsu_takehana", "egira", "kasamatsu")]  # 1 + 8 hops
BACK = [("meitetsu_takehana", "kasamatsu", "egira"), ("meitetsu_hashima", "egira", "gifuhashima")] + EAST  # 12
ROUTE_TO = {"gifuhashima": TO_GIFUHASHIMA, "toyohashi": TO_TOYOHASHI, "kasamatsu": TO_KASAMATSU}

# The card each line used here is on (docs/rules/tokai.md, Cards: 竹鼻線 and 羽島線 share one card).
LINE_CARD = {"jr_shinkansen": "shinkansen", "meitetsu_hashima": "meitetsu_takehana_hashima",
             "meitetsu_takehana": "meitetsu_takehana_hashima"}


def part(route: list, dice: list[int], buy: str | None) -> tuple:
    """One part of a turn: a fresh destination (the end of the route), the move dice, the route, the purchase."""
    return ROUTE_TO[route[-1][2]], dice, route, buy


# (seat, parts (the second one is a bonus part), sales while short, (A's, B's) cash after the turn in thousands)
TURNS = [
    (A, [part(WEST, [1, 2], "johoku")], [], (32, 15)),
    (B, [part(EAST, [2, 5], "aonami")], [], (32, 29)),
    (A, [part(EAST, [4, 1], "meitetsu_toyota")], [], (46, 29)),
    (B, [part(WEST, [6, 3], "meitetsu_nishio")], [], (46, 43)),
    (A, [part(WEST, [2, 4], "shinkansen")], [], (4, 43)),
    (B, [part(EAST, [5, 1], "jr_tokaido")], [], (10, 7)),
    (A, [part(EAST, [3, 4], "jr_chuo")], [], (8, 7)),
    (B, [part(WEST, [1, 3], "meitetsu_kowa")], [], (14, 15)),
    (A, [part(WEST, [6, 5], "subway_higashiyama")], [], (12, 15)),
    (B, [part(OUT, [4, 5], "jr_taita")], [], (12, 8)),
    (A, [part(EAST, [2, 3], "meitetsu_tokoname_airport")], [], (12, 8)),
    (B, [part(BACK, [6, 6], "subway_meijo"), part(WEST, [3], "meitetsu_nagoya_west")],
     [("bank", "subway_meiko"), ("auction", "linimo", A, 11000)], (11, 10)),
    (A, [part(WEST, [3, 3], "jr_takayama")], [], (23, 10)),
    (B, [part(EAST, [1, 4], TICKET)], [], (33, 25)),
    (A, [part(EAST, [5, 2], "aikan")], [], (37, 25)),
    (B, [part(WEST, [2, 2], "subway_tsurumai"), part(EAST, [5], "meitetsu_bisai")], [], (47, 36)),
    (A, [part(WEST, [4, 6], "meitetsu_nagoya_east")], [], (30, 36)),
    (B, [part(WEST, [3, 6], "kintetsu_nagoya")], [], (40, 34)),
    (A, [part(EAST, [1, 5], "subway_sakuradori")], [], (48, 34)),
    (B, [part(EAST, [4, 3], "meitetsu_seto")], [], (58, 34)),
    (A, [part(WEST, [2, 6], "meitetsu_mikawa")], [], (66, 34)),
    (B, [part(WEST, [5, 4], "jr_kansai")], [], (76, 34)),
    (A, [part(EAST, [3, 1], "meitetsu_komaki")], [], (91, 34)),
    (B, [part(EAST, [6, 2], "subway_meiko")], [], (101, 46)),
    (A, [part(WEST, [1, 6], "meitetsu_inuyama_kakamigahara")], [], (86, 46)),
]

# Final assets: cash + route cards at face value (thousands; the express ticket does not count).
#   A: cash 86 + 上飯田線 4 + 豊川線 5 + 蒲郡線 7 + 武豊線 8 + 津島線 8 + 城北線 10 + 豊田線 10 + 新幹線 70
#      + 中央本線 30 + 東山線 30 + 常滑・空港線 28 + リニモ 9 (at auction) + 高山本線 16 + 愛知環状鉄道 24
#      + 名古屋本線 (豊橋～名古屋) 45 + 桜通線 20 + 三河線 20 + 小牧線 13 + 犬山・各務原線 45 = 86 + 402 = 488
#   B: cash 46 + 広見線 9 + 竹鼻・羽島線 9 + あおなみ線 10 + 西尾線 10 + 東海道本線 60 + 河和線 16 + 太多線 12
#      + 名城線 26 + 名古屋本線 (名古屋～岐阜) 30 + 鶴舞線 26 + 尾西線 13 + 近鉄名古屋線 22 + 瀬戸線 20
#      + 関西本線 20 + 名港線 8 = 46 + 291 = 337
# The cards come to 402 + 291 = 693, all 34 of them.
FINAL = [488_000, 337_000]


def fares_due(cards: list[str], owners: dict, me: int, riding: set[str]) -> dict:
    """What a turn's rides cost, from the rules text alone (docs/rules/tokai.md, Fares; Rulings 13-15): per card
    ridden, in route order, an ordinary line costs 1,000 to the bank if unowned or one's own, 5,000 to another
    player who owns it; the 新幹線 6,000 to the bank unowned, 2,000 own, 10,000 to another owner. A line bought
    while the rider stood on it costs its unowned fare, paid to the owner, until the rider rides another line.
    Each payee gets only the highest single fare."""
    due: dict = {}
    still = set(riding)
    for card in cards:
        still &= {card}
        unowned, own, other = (6000, 2000, 10000) if card == "shinkansen" else (1000, 1000, 5000)
        owner = owners[card]
        if owner is None:
            payee, amount = BANK, unowned
        elif owner == me:
            payee, amount = BANK, own
        else:
            payee, amount = owner, unowned if card in still else other
        due[payee] = max(due.get(payee, 0), amount)
    return due


def card_points(card: str) -> set[str]:
    return {p for sec in nw.route_cards()[card]["sections"] for p in sec["stations"]}


def face(card: str) -> int:
    return 5000 if card == TICKET else nw.route_cards()[card]["price"]


class Ledger:
    """The hand-kept books: cash, owners, where the pawns stand and the lines ridden 'as already bought'."""

    def __init__(self):
        self.cash = [50_000 - sum(face(c) for c in PREBUY[A]), 50_000 - sum(face(c) for c in PREBUY[B])]
        self.owners = {c: None for c in nw.route_cards()}
        for seat in (A, B):
            for c in PREBUY[seat]:
                self.owners[c] = seat
        self.pos = ["toyohashi", "gifuhashima"]
        self.riding: list[set[str]] = [set(), set()]
        self.fares_to_bank = 0

    def take(self, card: str, seat: int) -> None:
        self.owners[card] = seat
        other = 1 - seat
        if self.pos[other] in card_points(card):  # Ruling 25: the other pawn stands on the line bought
            self.riding[other].add(card)

    def turn(self, seat: int, parts: list, sales: list) -> bool:
        """Book one turn; False when it ended the game (the last card bought: no fares)."""
        ridden: list[str] = []
        for _, _, route, buy in parts:
            dest = route[-1][2]
            for line, a, b in route:
                ridden += [LINE_CARD[line]] * len(along(line, a, b))
            self.cash[seat] += nw.payout_table_lookup(self.pos[seat], dest)
            self.pos[seat] = dest
            if buy is not None:
                self.cash[seat] -= face(buy)
                if buy != TICKET:
                    self.take(buy, seat)
        if all(o is not None for o in self.owners.values()):
            return False
        bills = fares_due(ridden, self.owners, seat, self.riding[seat])
        self.riding[seat] = {c for c in self.riding[seat] if set(ridden) <= {c}}
        for sale in sales:
            assert sum(bills.values()) > self.cash[seat]  # selling only while short (Ruling 21)
            card = sale[1]
            if sale[0] == "bank":  # half the face price, rounded down to 1,000 (Ruling 17)
                self.cash[seat] += face(card) // 2 // 1000 * 1000
                self.owners[card] = None
            else:  # the winner's claim on the seller is set against the bid first (Ruling 19)
                _, _, winner, bid = sale
                offset = min(bills.get(winner, 0), bid)
                bills[winner] -= offset
                self.cash[winner] -= bid - offset
                self.cash[seat] += bid - offset
                self.take(card, winner)
        assert sum(bills.values()) <= self.cash[seat]
        for payee, amount in bills.items():
            self.cash[seat] -= amount
            if payee == BANK:
                self.fares_to_bank += amount
            else:
                self.cash[payee] += amount
        return True


def path_of(start: str, route: list) -> list[list]:
    out = [[start, None]]
    for line, a, b in route:
        assert out[-1][0] == a
        out += [[p, line] for p, _ in along(line, a, b)]
    return out


def shuffle_order() -> list[int]:
    cards = deal_cards()
    first = [cards.index(c) for hand in HANDS for c in hand]
    return first + [i for i in range(len(cards)) if i not in first]


def run_script() -> tuple[dict, list[tuple[int, int, dict]], Ledger]:
    s = E.setup({}, 2)
    log: list[tuple[int, int, dict]] = []

    def act(seat: int, action: dict) -> None:
        nonlocal s
        if seat != CHANCE and action["type"] != "move":
            assert action in E.legal(s, seat), (len(log), seat, action, E.legal(s, seat))
        s = E.apply(s, seat, action)
        log.append((len(log) + 1, seat, action))

    def dice(*values: int) -> None:
        act(CHANCE, {"type": "dice", "values": list(values)})

    dice(5, 4, 3, 2, 2, 1)
    assert s["first"] == A and s["phase"] == "deal"
    act(CHANCE, {"type": "shuffle", "order": shuffle_order()})
    assert s["hands"] == HANDS
    for seat in (A, B):
        for card in PREBUY[seat]:
            act(seat, {"type": "buy", "card": card})
        act(seat, {"type": "done"})
    for rolls in (TO_TOYOHASHI, TO_GIFUHASHIMA):
        for r in rolls:
            dice(*r)
    assert [p["pos"] for p in s["players"]] == ["toyohashi", "gifuhashima"]
    assert [p["riding"] for p in s["players"]] == [[], []]

    books = Ledger()
    assert [p["cash"] for p in s["players"]] == books.cash == [18_000, 15_000]
    for no, (seat, parts, sales, cash_after) in enumerate(TURNS, 1):
        where = f"turn {no}"
        assert s["current"] == seat and s["turn"]["stage"] == "dest", where
        for k, (rolls, move_dice, route, buy) in enumerate(parts):
            me = s["players"][seat]
            dest = route[-1][2]
            assert s["turn"]["bonus"] == (k == 1), where
            assert me["dest"] is None, where
            dice(*rolls[0])
            if E.awaiting(s).seats:  # the region rolled is the one the player stands in: keep it
                act(seat, {"type": "region", "region": nw.region_of_point(dest)})
            dice(*rolls[1])
            assert s["players"][seat]["dest"] == dest, where
            dice(*move_dice)
            assert {"type": "move", "to": dest} in E.legal(s, seat), where
            act(seat, {"type": "move", "path": path_of(me["pos"], route)})
            assert s["players"][seat]["pos"] == dest and s["turn"]["stage"] == "buy", where
            act(seat, {"type": "buy", "card": buy})
        going_on = books.turn(seat, parts, sales)
        if not going_on:
            assert no == len(TURNS)
            break
        for sale in sales:
            assert s["current"] == seat and s["turn"]["stage"] == "sell", where
            if sale[0] == "bank":
                act(seat, {"type": "sell", "card": sale[1]})
            else:
                _, card, winner, bid = sale
                act(seat, {"type": "auction", "card": card})
                act(winner, {"type": "bid", "amount": bid})
                act(seat, {"type": "accept"})
        assert s["current"] == 1 - seat and s["turn"]["stage"] == "dest", where  # no bonus left, fares paid
        assert [p["cash"] for p in s["players"]] == books.cash == [c * 1000 for c in cash_after], \
            (where, [p["cash"] for p in s["players"]], books.cash)
        assert s["owners"] == books.owners, where
        assert [set(p["riding"]) for p in s["players"]] == books.riding, where
    assert [p["cash"] for p in s["players"]] == books.cash == [c * 1000 for c in TURNS[-1][3]]
    return s, log, books


# The game was written for the first edition's prices; the engine's arithmetic does not depend on them.
FIRST_EDITION = {"shinkansen": 70_000, "jr_tokaido": 60_000}


@pytest.fixture(autouse=True)
def first_edition_prices(monkeypatch):
    for card, yen in FIRST_EDITION.items():
        monkeypatch.setitem(nw.route_cards()[card], "price", yen)


def test_scripted_two_player_game():
    s, log, books = run_script()
    assert E.is_over(s) and s["phase"] == "over" and s["turn"] is None
    assert E.awaiting(s).seats == frozenset() and E.awaiting(s).chance is None
    assert s["events"][-1]["text"] == "The last route card is sold."
    assert all(owner is not None for owner in s["owners"].values())
    assert s["owners"] == books.owners
    assert E.scores(s) == [books.cash[seat] + sum(face(c) for c, o in books.owners.items() if o == seat)
                           for seat in (A, B)]
    assert E.scores(s) == FINAL
    assert sum(FINAL) == 825_000  # 488,000 + 337,000
    assert s["tickets"] == 5 and s["players"][B]["ticket"] and not s["players"][A]["ticket"]
    assert sum(p["cash"] for p in s["players"]) + s["bank"] == 0
    assert replay(E, E.setup({}, 2), log) == s
    assert json.loads(json.dumps(s)) == s


def test_money_adds_up():
    """Where the 132,000 in cash at the end came from, and where the fares went, without the engine."""
    _, _, books = run_script()
    start = 2 * 50_000
    payouts = 25 * 30_000 + 24_000 + 6_000  # 27 arrivals (turns 12 and 16 have two): 780,000
    bought = 693_000 + 8_000 + 5_000  # every card once, 名港線 a second time, the ticket
    sold = 4_000  # 名港線 to the bank
    # 新幹線 unowned in turns 1-4, A's own in its turns 5-23, B's own 竹鼻・羽島線 in turns 10 and 12
    assert books.fares_to_bank == 4 * 6000 + 10 * 2000 + 1000 + 1000 == 46_000
    assert start + payouts - bought + sold - books.fares_to_bank == 86_000 + 46_000 == sum(books.cash)
