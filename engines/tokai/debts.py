"""Tokai Baron: paying the turn's fares and not being able to (rules 11, 11.2, 12, 14.1 of 東海男爵 第0.1版).

Pure data-in/data-out: no randomness, no I/O, inputs are never mutated. Money is whole yen. Payees are seats or
``BANK`` (``movement.BANK``). Bills are the turn's fares *in route order*: ``movement.fare`` returns a dict whose
insertion order is the order in which the path first meets each payee, so it can be passed here as is.

Rulings where the seed is silent or loose (each is also written where it acts):
- 「額面の半額(端数切り捨て)」: half the face price, rounded down to 1,000 yen (the smallest banknote is 1,000 yen,
  so 9,000 -> 4,000).
- Auction: bids are whole 1,000 yen (the smallest note), the first bid at least 1,000, each later bid at least
  1,000 above the high bid; bidding is open (any bidder still in may bid at any time, the engine may impose a
  rotation); a pass is final; the high bidder may not pass. The auction ends when everyone but the high bidder
  has passed (or all have passed with no bid: no sale).
- 「支払いを受けるべきプレイヤーが、その金額を相殺することは可能」: a bidder may bid up to cash + what the seller owes
  them this turn; the winner's offset is taken in full (min(owed, price)); it settles that part of their bill at
  once (ahead of route order, as the seed's 5,000-yen example implies), and only the rest is paid in cash.
- A refused auction (「金額に不満があれば、銀行に額面の半額で売ることが可能」) means that card goes to the bank.
- The bank is one payee in route order like the owners (「その行動経路に沿って、支払いを行う」).
- A bankrupt player's express ticket goes back to the bank's stock (the seed says nothing; by analogy with 13.1
  「所有物件は全て、銀行に没収されます」). Route cards cannot remain: bankruptcy comes only once none are left.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

BANK = "bank"  # same value as movement.BANK
UNIT = 1000  # smallest banknote: 紙幣 1000円 2000円 5000円 10000円
EXPRESS_TICKET = "express_ticket"

Bills = Mapping[object, int] | Iterable[tuple[object, int]]


def _pairs(bills: Bills) -> list[tuple[object, int]]:
    """Bills as (payee, amount) pairs in route order (a Mapping keeps its insertion order)."""
    items = list(bills.items()) if isinstance(bills, Mapping) else [tuple(b) for b in bills]
    for payee, amount in items:
        if amount < 0:
            raise ValueError(f"negative bill to {payee!r}")
    return items


def total(bills: Bills) -> int:
    return sum(amount for _, amount in _pairs(bills))


def shortfall(cash: int, bills: Bills) -> int:
    """How much the player is short at the end of the turn (0 if they can pay).

    「支払いは、自分の手番の一番最後です」: cash already includes this turn's payouts."""
    return max(0, total(bills) - cash)


def may_sell(cash: int, bills: Bills) -> bool:
    """「所有する路線を売ることができるのは、この場合だけです」: selling is allowed only while short."""
    return shortfall(cash, bills) > 0


def sellable(card: str) -> bool:
    """「売ることができる物件は、鉄道の路線だけです。急行券は決して売ることはできません」."""
    return card != EXPRESS_TICKET


def sell_to_bank(card_price: int) -> int:
    """「銀行に額面の半額(端数切り捨て)で売ることができます」: half the face price, rounded down to 1,000 yen."""
    return card_price // 2 // UNIT * UNIT


def net_worth(cash: int, card_prices: Iterable[int]) -> int:
    """Rule 12: 「資産には、現金と鉄道の路線を含みます。急行券は資産に含みません」 (lines at face price)."""
    return cash + sum(card_prices)


# ---------------------------------------------------------------- sales


@dataclass(frozen=True)
class Sale:
    """One route card sold by ``seller``: to the bank (``buyer`` BANK) or to a player at auction.

    ``price`` = ``offset`` (cancelled from what the seller owes the buyer) + ``cash`` (paid to the seller)."""

    seller: object
    card: str
    buyer: object
    price: int
    offset: int = 0

    @property
    def cash(self) -> int:
        return self.price - self.offset


def bank_sale(seller: object, card: str, card_price: int) -> Sale:
    """「売られた物件は、再び未所有の状態に戻り、額面で購入することができるようになります」."""
    if not sellable(card):
        raise ValueError("急行券は決して売ることはできません")
    return Sale(seller, card, BANK, sell_to_bank(card_price))


@dataclass(frozen=True)
class Auction:
    seller: object
    card: str
    cash: dict = field(default_factory=dict)  # bidder -> cash in hand
    owed: dict = field(default_factory=dict)  # bidder -> what the seller still owes them this turn
    active: tuple = ()  # bidders who have not passed, in seating order
    high_bid: int = 0
    high_bidder: object = None

    @property
    def finished(self) -> bool:
        if self.high_bidder is None:
            return not self.active
        return self.active == (self.high_bidder,)

    def limit(self, seat: object) -> int:
        """The most ``seat`` can bid: cash plus the seller's debt to them (相殺)."""
        return self.cash[seat] + self.owed.get(seat, 0)

    def min_bid(self) -> int:
        return self.high_bid + UNIT  # ruling: first bid >= 1,000, raises by >= 1,000


def start_auction(seller: object, card: str, bidders: Mapping[object, int], owed: Mapping[object, int] = ()) -> Auction:
    """「プレイヤー間の競売にゆだねる」: ``bidders`` maps each other player to their cash (seller excluded);
    ``owed`` maps a creditor to what the seller owes them this turn (the remaining bill)."""
    if not sellable(card):
        raise ValueError("急行券は決して売ることはできません")
    cash = {seat: c for seat, c in dict(bidders).items() if seat != seller}
    owed = {seat: o for seat, o in dict(owed).items() if seat in cash and o > 0}
    return Auction(seller, card, cash, owed, tuple(cash))


def bid(auction: Auction, seat: object, amount: int) -> Auction:
    if auction.finished:
        raise ValueError("auction is over")
    if seat not in auction.active:
        raise ValueError(f"{seat!r} is not bidding")
    if seat == auction.high_bidder:
        raise ValueError(f"{seat!r} already holds the high bid")
    if amount % UNIT or amount < auction.min_bid():
        raise ValueError(f"bid must be a multiple of {UNIT} and at least {auction.min_bid()}")
    if amount > auction.limit(seat):
        raise ValueError(f"{seat!r} can bid at most {auction.limit(seat)}")
    return replace(auction, high_bid=amount, high_bidder=seat)


def pass_(auction: Auction, seat: object) -> Auction:
    if auction.finished:
        raise ValueError("auction is over")
    if seat not in auction.active:
        raise ValueError(f"{seat!r} is not bidding")
    if seat == auction.high_bidder:
        raise ValueError("the high bidder may not pass")
    return replace(auction, active=tuple(s for s in auction.active if s != seat))


def result(auction: Auction) -> Sale | None:
    """「最も高い値を付けたプレイヤーに、路線の所有権を譲ります」: the winning sale, or None if nobody bid.

    「5000円入ってくるプレイヤーが、現金を持たずに5000円で落札することは可能」: the winner's claim on the seller
    is offset first, the rest is paid in cash."""
    if not auction.finished:
        raise ValueError("auction is not over")
    if auction.high_bidder is None:
        return None
    offset = min(auction.owed.get(auction.high_bidder, 0), auction.high_bid)
    return Sale(auction.seller, auction.card, auction.high_bidder, auction.high_bid, offset)


def decide(auction: Auction, accept: bool, card_price: int) -> Sale:
    """The seller takes the auction's result, or 「競売を行った後で、金額に不満があれば、銀行に額面の半額で売る
    ことが可能」 (also the only way out when nobody bid)."""
    sale = result(auction)
    if accept and sale is not None:
        return sale
    return bank_sale(auction.seller, auction.card, card_price)


@dataclass(frozen=True)
class Ledger:
    """The debtor's position while selling: cash in hand, bills left (route order), cards held, card owners."""

    cash: int
    bills: tuple  # ((payee, amount), ...) in route order
    cards: tuple  # the debtor's route cards (the express ticket is never among them)
    owners: dict  # card id -> seat or None (unowned)
    paid: dict = field(default_factory=dict)  # payee -> paid so far by offset


def ledger(cash: int, bills: Bills, cards: Iterable[str], owners: Mapping[str, object]) -> Ledger:
    return Ledger(cash, tuple(_pairs(bills)), tuple(c for c in cards if sellable(c)), dict(owners))


def apply_sale(led: Ledger, sale: Sale) -> Ledger:
    """Book one sale: the seller gets the cash, the buyer's bill shrinks by the offset, the card changes hands
    (to the buyer, or back to unowned for a bank sale)."""
    if not may_sell(led.cash, led.bills):
        raise ValueError("所有する路線を売ることができるのは、この場合だけです (not short)")
    if sale.card not in led.cards:
        raise ValueError(f"{sale.card!r} is not the debtor's to sell")
    bills, left = [], sale.offset
    for payee, amount in led.bills:
        if payee == sale.buyer and left:
            take = min(left, amount)
            amount, left = amount - take, left - take
        bills.append((payee, amount))
    if left:
        raise ValueError("offset larger than the debt to the buyer")
    paid = dict(led.paid)
    if sale.offset:
        paid[sale.buyer] = paid.get(sale.buyer, 0) + sale.offset
    owners = dict(led.owners)
    owners[sale.card] = None if sale.buyer == BANK else sale.buyer
    cards = tuple(c for c in led.cards if c != sale.card)
    return replace(led, cash=led.cash + sale.cash, bills=tuple(bills), cards=cards, owners=owners, paid=paid)


# ---------------------------------------------------------------- settling


@dataclass(frozen=True)
class Settlement:
    must_sell: bool  # short and still holding route cards: sell before settling
    bankrupt: bool  # 「破産となり、直ちにゲームから除外されます」
    paid: dict  # payee -> cash paid now, in route order
    unpaid: dict  # payee -> void remainder (「不足した部分の料金は、無効となります」)
    cash_left: int
    returned: tuple = ()  # items going back to the bank on elimination


def pay_in_route_order(cash: int, bills: Bills) -> tuple[dict, dict, int]:
    """14.1 「その行動経路に沿って、支払いを行うものとします」: pay each payee in full in route order until the
    money runs out. Returns (paid, unpaid, cash_left)."""
    paid, unpaid = {}, {}
    for payee, amount in _pairs(bills):
        give = min(cash, amount)
        cash -= give
        if give:
            paid[payee] = paid.get(payee, 0) + give
        if amount - give:
            unpaid[payee] = unpaid.get(payee, 0) + amount - give
    return paid, unpaid, cash


def settle(cash: int, bills_in_route_order: Bills, assets: Iterable[str] = ()) -> Settlement:
    """End-of-turn payment. ``assets``: what the player still holds (route card ids, maybe ``EXPRESS_TICKET``).

    - enough cash: everyone is paid;
    - short but holding a route card: 「所有する路線を売って、その資金を作り、支払いに充てなければなりません」,
      nothing is paid yet (``must_sell``);
    - short with no route card left: 「売ることができる物件が無くなったり、物件を売ってもまだ支払いに不足した場合
      は、破産」: all cash goes out in route order, the rest is void, the player is eliminated."""
    bills = _pairs(bills_in_route_order)
    assets = tuple(assets)
    if not shortfall(cash, bills):
        paid, unpaid, left = pay_in_route_order(cash, bills)
        return Settlement(False, False, paid, unpaid, left)
    if any(sellable(a) for a in assets):
        return Settlement(True, False, {}, {}, cash)
    paid, unpaid, left = pay_in_route_order(cash, bills)
    return Settlement(False, True, paid, unpaid, left, returned=assets)
