"""A title's companies as data (corporations, privates, trains, phases) and the share bookkeeping.

The title files live in ``engines/e18xx/titles/g<title>/companies.json`` (NOTE.md there says where each
fact comes from); they are read on first use, never at import.

Shares of one corporation are held as a JSON value, ``Holdings``: holder -> certificate ids in order of
arrival. Holders are ``"ipo"``, ``"pool"`` (the bank pool) and player keys (any other string: the engine
chooses, e.g. ``"0"`` for seat 0). The order matters for exact replays of 18xx.games logs: a presidency
swap hands over the *first* certificates the new president received, and a partial sale takes back the
pool's *first* certificates (see ``transfer_shares``).
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, cached_property, lru_cache
from pathlib import Path
from typing import Any

from engines.e18xx.market import Cell, Market
from engines.text import Money, Name, msg

TITLES = Path(__file__).parent / "titles"
IPO = "ipo"
POOL = "pool"
SHARE_PERCENT = 10  # one ordinary share; a "share" in prices, sales and dividends is 10%

Holdings = dict[str, list[str]]
#: A title's currency format (companies.json) -> engines.text.Money's currency.
CURRENCY_KINDS = {"¥{}": "yen", "${}": "dollar", "£{}": "pound"}


# -- title data -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Corporation:
    id: str
    name: str
    tokens: tuple[int, ...]  # cost of each token in the order they are used; the first is the home token
    float_percent: int
    holding_limit_percent: int
    share_percents: tuple[int, ...]  # certificate i has id f"{id}_{i}"; certificate 0 is the president's
    color: str = ""
    text_color: str = ""
    kind: str = "major"  # major, minor (one 100% certificate) or national (only holds tokens)
    green: bool = False  # 1867: a minor that cannot start before the title's event makes it available
    name_ja: str = ""  # its name in Japanese, and the reading (kana) for autocomplete
    kana: str = ""

    @cached_property
    def full_name(self) -> Name:
        """Its name in both languages, for a message (engines/text.py); made once (a Name is frozen: shared)."""
        return Name(self.name, self.name_ja, self.kana)

    @cached_property
    def share_ids(self) -> tuple[str, ...]:
        """Its certificates' ids, president's first (made once: every new game's holdings start from them)."""
        return tuple(f"{self.id}_{i}" for i in range(len(self.share_percents)))

    @property
    def share_unit(self) -> int:
        """The percent one share is (a price is per share): the second certificate's, else half the president's (as
        18xx.games reckons it: 1867's one-certificate minors are two shares of 50%)."""
        return self.share_percents[1] if len(self.share_percents) > 1 else self.share_percents[0] // 2

    @property
    def cert_unit(self) -> int:
        """The percent of an ordinary certificate, which a price is for: 10, or 5 for a 1807 system's shares (its
        20% president's certificate is then four of them); a one-certificate minor's is reckoned in tens."""
        return self.share_percents[1] if len(self.share_percents) > 1 else SHARE_PERCENT

    @property
    def president_cert(self) -> str:
        return f"{self.id}_0"

    @property
    def president_percent(self) -> int:
        return self.share_percents[0]

    @property
    def total_shares(self) -> int:
        return sum(self.share_percents) // SHARE_PERCENT

    def cert_percent(self, cert: str) -> int:
        percent = self._percent_of.get(cert)
        if percent is None:
            raise ValueError(msg("{cert} is not a certificate of {corp}.", cert=repr(cert), corp=self.id))
        return percent

    @cached_property
    def _percent_of(self) -> dict[str, int]:
        """Certificate id -> its percent: asked for every holding, many times a move."""
        return dict(zip(self.share_ids, self.share_percents, strict=True))

    def bundle_percent(self, certs: Iterable[str]) -> int:
        try:  # asked for every holding many times a move: the lookups in C, not a call per certificate
            return sum(map(self._percent_of.__getitem__, certs))
        except KeyError:
            return sum(self.cert_percent(c) for c in certs)  # refuses the stranger with its sentence


@dataclass(frozen=True)
class Private:
    id: str
    name: str
    value: int
    revenue: int
    abilities: tuple[Mapping[str, Any], ...] = ()
    min_players: int = 0
    removed_with_players: tuple[int, ...] = ()
    unless_option: str | None = None
    discount: int = 0  # 1867: its least opening bid is the face value less this
    hidden: bool = False  # 1867's "3": never sold, only blocks a hex until its event
    name_ja: str = ""  # its name in Japanese, and the reading (kana) for autocomplete
    kana: str = ""

    @cached_property
    def full_name(self) -> Name:
        """Its name in both languages, for a message (engines/text.py); made once (a Name is frozen: shared)."""
        return Name(self.name, self.name_ja, self.kana)

    def ability(self, kind: str) -> Mapping[str, Any] | None:
        """Its first ability of that kind, or None (asked for each private at every track step: looked up)."""
        return self._first_ability.get(kind)

    @cached_property
    def _first_ability(self) -> dict[str, Mapping[str, Any]]:
        first: dict[str, Mapping[str, Any]] = {}
        for a in self.abilities:
            first.setdefault(a["kind"], a)
        return first

    def abilities_of(self, kind: str) -> list[Mapping[str, Any]]:
        return [a for a in self.abilities if a["kind"] == kind]


@dataclass(frozen=True)
class Train:
    name: str
    distance: int | None | tuple[Mapping[str, Any], ...]  # None: no limit on stops (D); a tuple: see route.py
    price: int
    count: int | None  # None: unlimited supply
    rusts_on: str | None = None
    obsolete_on: str | None = None
    available_in_phase: str | None = None  # bought from the depot from this phase on, even out of turn
    trade_in: Mapping[str, int] | None = None  # train name handed in -> discount
    first_bought_events: tuple[str, ...] = ()
    multiplier: int = 1
    removed_with_2_players: int = 0

    def ids(self) -> tuple[str, ...]:
        """Copies numbered as 18xx.games numbers them; an unlimited train gets a new id each purchase."""
        return tuple(f"{self.name}-{i}" for i in range(self.count or 0))


@dataclass(frozen=True)
class Phase:
    name: str
    on_train: str | None
    tiles: tuple[str, ...]
    operating_rounds: int
    train_limit: int | Mapping[str, int]  # one limit, or one per kind of corporation (a kind left out: none)
    corporations_buy_privates: bool
    status: tuple[str, ...] = ()  # 18xx.games's phase status words, e.g. export_train
    merger_rounds: bool = False  # 1867: a merger round follows each operating round

    def limit_for(self, kind: str) -> int:
        if isinstance(self.train_limit, int):
            return self.train_limit
        return self.train_limit.get(kind, 0)


@lru_cache(maxsize=4096)
def _money(amount: int, kind: str) -> Money:
    """A Money, made once per amount (frozen, so shared safely): making one, a frozen dataclass, cost more than the
    lookup, and an event or a refusal words several amounts."""
    return Money(amount, kind)


@dataclass(frozen=True)
class Title:
    id: str
    name: str
    min_players: int
    max_players: int
    currency: str
    bank: int
    starting_cash: Mapping[int, int]
    cert_limit: Mapping[int, int]
    market: Market
    corporations: tuple[Corporation, ...]
    privates: tuple[Private, ...]
    trains: tuple[Train, ...]
    phases: tuple[Phase, ...]
    rules: Mapping[str, Any]
    beginner_game: Mapping[str, Any]
    loans: Mapping[str, Any] | None = None

    def corporation(self, corp_id: str) -> Corporation:
        if (found := self._by_id["corporation"].get(corp_id)) is None:
            raise KeyError(f"{self.id} has no corporation {corp_id!r}.")
        return found

    def private(self, private_id: str) -> Private:
        if (found := self._by_id["private"].get(private_id)) is None:
            raise KeyError(f"{self.id} has no private company {private_id!r}.")
        return found

    def train(self, name: str) -> Train:
        if (found := self._by_id["train"].get(name)) is None:
            raise KeyError(f"{self.id} has no {name!r} train.")
        return found

    @cached_property
    def train_limits(self) -> dict[str, dict[str, int]]:
        """phase -> corporation -> its train limit then (asked for every corporation after every action)."""
        return {p.name: {c.id: p.limit_for(c.kind) for c in self.corporations} for p in self.phases}

    @cached_property
    def early_trains(self) -> list[frozenset[str]]:
        """Phase index -> the kinds of train sold by then before their turn comes (`available_in_phase`: 1889's D
        from phase 6): most phases have none, and then the depot's offer need not look past its first train."""
        return [frozenset(t.name for t in self.trains
                          if t.available_in_phase and i >= self.phase_indexes[t.available_in_phase])
                for i in range(len(self.phases))]

    @cached_property
    def kind_of(self) -> dict[str, str]:
        """corporation -> its kind (minor, major...): loops over the corporations that want one kind read it here
        instead of each corporation's definition (asked for every corporation several times a stock turn)."""
        return {c.id: c.kind for c in self.corporations}

    @cached_property
    def of_kind(self) -> dict[str, tuple[str, ...]]:
        """kind -> its corporations, in the title's order (a stock turn's loops over one kind's corporations, asked
        after every stock move, read them here instead of passing over the others)."""
        found: dict[str, list[str]] = {}
        for c in self.corporations:
            found.setdefault(c.kind, []).append(c.id)
        return {kind: tuple(ids) for kind, ids in found.items()}

    @cached_property
    def phase_indexes(self) -> dict[str, int]:
        """phase -> its place in the order (a depot's offer compares phases for each train, after every action)."""
        return {p.name: i for i, p in enumerate(self.phases)}

    def phase(self, name: str) -> Phase:
        if (found := self._by_id["phase"].get(name)) is None:
            raise KeyError(f"{self.id} has no phase {name!r}.")
        return found

    @cached_property
    def _by_id(self) -> dict[str, dict[str, Any]]:
        """Each kind of thing by its id: looked up many times a move."""
        return {"corporation": {c.id: c for c in self.corporations}, "private": {p.id: p for p in self.privates},
                "train": {t.name: t for t in self.trains}, "phase": {p.name: p for p in self.phases}}

    def next_phase(self, current: str, train_bought: str) -> str:
        """The phase after buying a train: phases advance in order while the bought train starts the next."""
        names = [p.name for p in self.phases]
        i = names.index(current)
        while i + 1 < len(self.phases) and self.phases[i + 1].on_train == train_bought:
            i += 1
        return names[i]

    def format_money(self, amount: int) -> str:
        return self.currency.format(amount)

    @cached_property
    def money_kind(self) -> str:
        """The currency as engines.text.Money names it ("yen", "dollar", ...); kept (every amount worded asks it)."""
        return CURRENCY_KINDS.get(self.currency, "none")

    def money_value(self, amount: int) -> Money:
        """An amount in this title's currency, written as each reader's language writes it (¥80 / 80円, $80)."""
        return _money(amount, self.money_kind)

    def privates_in_play(self, players: int, options: Iterable[str] = ()) -> tuple[Private, ...]:
        """The privates a game with this many players uses (the standard game; the beginner game keeps
        ``beginner_game.privates_by_players``, see ``beginner_privates``)."""
        opts = set(options)
        kept = []
        for p in self.privates:
            if players < p.min_players:
                continue
            if players in p.removed_with_players and (p.unless_option is None or p.unless_option not in opts):
                continue
            kept.append(p)
        return tuple(kept)

    def beginner_privates(self, players: int) -> tuple[Private, ...]:
        """Beginner game: the kept privates in title order, with their beginner value and revenue, no abilities."""
        game = self.beginner_game
        values = game["private_values"]
        kept = []
        for pid in game["privates_by_players"][str(players)]:
            value, revenue = values[pid]
            base = self.private(pid)
            kept.append(Private(id=pid, name=base.name, value=value, revenue=revenue, name_ja=base.name_ja,
                                kana=base.kana))
        return tuple(kept)

    def private_price_range(self, private: Private) -> tuple[int, int]:
        """What a corporation may pay a player for a private: half the value rounded up .. twice the value."""
        return (private.value + 1) // 2, 2 * private.value


def _title_path(title: str) -> Path:
    return TITLES / f"g{title}" / "companies.json"


@cache
def load_title(title: str = "1889") -> Title:
    path = _title_path(title)
    if not path.exists():
        raise KeyError(f"No title data for {title!r}.")
    data = json.loads(path.read_text(encoding="utf-8"))
    return title_from_data(data)


def title_from_data(data: Mapping[str, Any]) -> Title:
    corporations = tuple(
        Corporation(
            id=c["id"], name=c["name"], tokens=tuple(c["tokens"]),
            float_percent=c["float_percent"], holding_limit_percent=c["holding_limit_percent"],
            share_percents=tuple(c["shares"]), color=c.get("color", ""), text_color=c.get("text_color", ""),
            kind=c.get("kind", "major"), green=bool(c.get("green")), name_ja=c.get("name_ja", ""),
            kana=c.get("kana", ""),
        )
        for c in data["corporations"]
    )
    privates = tuple(
        Private(
            id=p["id"], name=p["name"], value=p["value"], revenue=p["revenue"],
            abilities=tuple(p.get("abilities", ())), min_players=p.get("min_players", 0),
            removed_with_players=tuple(p.get("removed_with_players", ())), unless_option=p.get("unless_option"),
            discount=p.get("discount", 0), hidden=bool(p.get("hidden")), name_ja=p.get("name_ja", ""),
            kana=p.get("kana", ""),
        )
        for p in data["privates"]
    )
    trains = tuple(
        Train(
            name=t["name"], price=t["price"],
            distance=tuple(t["distance"]) if isinstance(t["distance"], list) else t["distance"],
            count=None if t["count"] == "unlimited" else t["count"],
            rusts_on=t.get("rusts_on"), obsolete_on=t.get("obsolete_on"),
            available_in_phase=t.get("available_in_phase"), trade_in=t.get("trade_in"),
            first_bought_events=tuple(t.get("first_bought_events", ())), multiplier=t.get("multiplier", 1),
            removed_with_2_players=t.get("removed_with_2_players", 0),
        )
        for t in data["trains"]
    )
    phases = tuple(
        Phase(
            name=p["name"], on_train=p["on_train"], tiles=tuple(p["tiles"]), operating_rounds=p["operating_rounds"],
            train_limit=p["train_limit"], corporations_buy_privates=p["corporations_buy_privates"],
            status=tuple(p.get("status", ())), merger_rounds=bool(p.get("merger_rounds")),
        )
        for p in data["phases"]
    )
    return Title(
        id=data["title"], name=data["name"], min_players=data["players"]["min"], max_players=data["players"]["max"],
        currency=data["currency"], bank=data["bank"],
        starting_cash={int(k): v for k, v in data["starting_cash"].items()},
        cert_limit={int(k): v for k, v in data["cert_limit"].items()},
        market=Market.from_data(data["market"]),
        corporations=corporations, privates=privates, trains=trains, phases=phases,
        rules=dict(data.get("rules", {})), beginner_game=dict(data.get("beginner_game", {})), loans=data.get("loans"),
    )


# -- share bookkeeping ----------------------------------------------------------------------------------------


def is_player(holder: str | None) -> bool:
    return holder is not None and holder not in (IPO, POOL)


def initial_holdings(corp: Corporation) -> Holdings:
    return {IPO: list(corp.share_ids)}


def percent_of(corp: Corporation, holdings: Mapping[str, Sequence[str]], holder: str) -> int:
    return corp.bundle_percent(holdings.get(holder, ()))


def player_percents(corp: Corporation, holdings: Mapping[str, Sequence[str]]) -> dict[str, int]:
    return {h: percent_of(corp, holdings, h) for h in holdings if is_player(h)}


def is_floated(corp: Corporation, holdings: Mapping[str, Sequence[str]]) -> bool:
    """Floated once at most (100 - float_percent)% is left in the IPO."""
    return percent_of(corp, holdings, IPO) <= 100 - corp.float_percent


def is_sold_out(corp: Corporation, holdings: Mapping[str, Sequence[str]]) -> bool:
    """Every share held by players (nothing in the IPO or the pool): moves up at the end of a stock round."""
    return sum(player_percents(corp, holdings).values()) == 100


def _president_distance(players: Sequence[str], old: str | None, new: str) -> int:
    # Seats after the old president, going round the table in the current (priority) order.
    if old is None or old not in players:
        return 0
    a, b = players.index(old), players.index(new)
    return b - a if a < b else b - a + len(players)


def transfer_shares(
    corp: Corporation,
    holdings: Mapping[str, Sequence[str]],
    president: str | None,
    certs: Sequence[str],
    source: str,
    target: str,
    players: Sequence[str],
    percent: int | None = None,
) -> tuple[Holdings, str | None]:
    """Move certificates (a purchase, a sale, a par, an exchange) and apply the presidency rule.

    ``players`` is the current player order (it rotates with priority); it breaks ties for the
    presidency. ``percent`` smaller than the certificates' total is a partial sale of the
    president's certificate (e.g. 3 certificates worth 40% sold as 30%).

    The rule, as 18xx.games applies it:
    1. the certificates move; a partial bundle still counts its difference for the seller;
    2. if the president is among the players holding the most, nothing else happens;
    3. otherwise the new president is, among those holding the most *and* at least the president's
       certificate's percent, the first in seat order after the old president;
    4. the new president gives the first two certificates he received (first in his list) to the old
       president if the old president still holds >= 20%, else to the pool, and takes the president's
       certificate (from the pool if it was just sold, else from the old president);
    5. for a partial sale the seller then takes back the difference as the pool's first certificates.
    Returns the new holdings and president.
    """
    for cert in certs:
        corp.cert_percent(cert)  # a certificate of this corporation
    held = holdings.get(source, ())
    missing = [c for c in certs if c not in held]
    if missing:
        raise ValueError(msg("{holder} does not hold {certs}.", holder=source, certs=", ".join(missing)))
    total = corp.bundle_percent(certs)
    percent = total if percent is None else percent
    if percent > total or percent <= 0 or percent % corp.cert_unit:
        raise ValueError(msg("A bundle of {total}% cannot be sold as {percent}%.", total=total, percent=percent))
    left_over = total - percent  # what a partial sale hands back to the seller

    new: Holdings = {h: list(cs) for h, cs in holdings.items()}
    for cert in certs:
        new[source].remove(cert)
        new.setdefault(target, []).append(cert)

    if corp.president_cert in new.get(IPO, ()):
        return new, None  # the president's certificate is unsold (1890's Kinki before it forms): nobody presides
    counted = player_percents(corp, new)
    if is_player(source):
        counted[source] = counted.get(source, 0) + left_over
    if is_player(target):
        counted[target] = counted.get(target, 0) - left_over
    most = max(counted.values(), default=0)
    leaders = [p for p in players if counted.get(p, 0) == most]
    if president in leaders:
        return new, president
    candidates = [p for p in leaders if percent_of(corp, new, p) >= corp.president_percent]
    if not candidates:
        return new, president
    new_president = min(candidates, key=lambda p: _president_distance(players, president, p))

    pres_cert = corp.president_cert
    sold_pres_cert = pres_cert in certs
    if target == new_president and president == source and sold_pres_cert and not left_over:
        return new, new_president  # the whole president's certificate changed hands: nothing to swap
    if source == new_president or president is None:
        return new, new_president  # a par, or the buyer was the seller: nobody to swap with
    if not sold_pres_cert and pres_cert not in new.get(president, ()):
        return new, new_president

    if is_player(source) and is_player(target) and sold_pres_cert:
        hand_back_from = swap_to = target
    else:
        hand_back_from = POOL
        swap_to = president if percent_of(corp, new, president) >= corp.president_percent else POOL

    swap_count = corp.president_percent // corp.cert_unit
    for cert in new[new_president][:swap_count]:
        new[new_president].remove(cert)
        new.setdefault(swap_to, []).append(cert)
    for holder_certs in new.values():
        if pres_cert in holder_certs:
            holder_certs.remove(pres_cert)
            break
    new[new_president].append(pres_cert)

    for _ in range(left_over // corp.cert_unit):
        cert = new[hand_back_from].pop(0)
        new.setdefault(source, []).append(cert)
    return new, new_president


# -- limits ---------------------------------------------------------------------------------------------------


def counts_for_cert_limit(cell: Cell | None) -> bool:
    """A corporation without a share price yet (exchanged before par) still counts."""
    return cell is None or cell.counts_for_cert_limit


def certificate_count(
    player: str,
    holdings_by_corp: Mapping[str, Mapping[str, Sequence[str]]],
    cells: Mapping[str, Cell | None],
    privates_held: int = 0,
    privates_count: bool = True,
) -> int:
    """Certificates toward the limit: one per certificate (the president's too) of corporations whose price
    cell counts, plus one per private when the title says so."""
    n = sum(
        len(holdings.get(player, ()))
        for corp_id, holdings in holdings_by_corp.items()
        if counts_for_cert_limit(cells.get(corp_id))
    )
    return n + (privates_held if privates_count else 0)


def within_holding_limit(corp: Corporation, percent_after: int, cell: Cell | None) -> bool:
    """At most ``holding_limit_percent`` (60%) of one corporation, unless its price is in an unlimited cell."""
    return percent_after <= corp.holding_limit_percent or (cell is not None and not cell.holding_limit_applies)


def can_gain(
    corp: Corporation,
    holdings: Mapping[str, Sequence[str]],
    player: str,
    bundle_percent: int,
    cell: Cell | None,
    certs_now: int,
    cert_limit: int,
    exchange: bool = False,
) -> bool:
    """May ``player`` receive this bundle? Holding limit always; the cert limit unless the corporation's cell
    does not count or it is an exchange (DR)."""
    if not within_holding_limit(corp, percent_of(corp, holdings, player) + bundle_percent, cell):
        return False
    return not counts_for_cert_limit(cell) or exchange or certs_now < cert_limit


def fits_in_pool(corp: Corporation, holdings: Mapping[str, Sequence[str]], percent: int, limit: int = 50) -> bool:
    return percent_of(corp, holdings, POOL) + percent <= limit


def may_sell_president_cert(corp: Corporation, holdings: Mapping[str, Sequence[str]], seller: str) -> bool:
    """The president's certificate goes to the pool only if another player could take the presidency."""
    others = [pct for p, pct in player_percents(corp, holdings).items() if p != seller]
    return max(others, default=0) >= corp.president_percent


def sale_bundles(corp: Corporation, certs: Sequence[str]) -> list[tuple[list[str], int]]:
    """The bundles a holder could sell, as 18xx.games lists them: certificates ordered cheapest first (the
    president's last), every prefix, plus the president's certificate sold short by 10% steps.
    Returns (certificates, percent) pairs, smallest first within each prefix."""
    ordered = sorted(certs, key=corp.cert_percent)  # stable; 18xx.games's sort is not, which only matters
    bundles: list[tuple[list[str], int]] = []       # for which equal 10% certificates go first
    for i, cert in enumerate(ordered):
        prefix = ordered[: i + 1]
        pct = corp.bundle_percent(prefix)
        if cert == corp.president_cert:
            unit = corp.cert_unit
            for n in range((corp.president_percent - unit) // unit, 0, -1):
                bundles.append((prefix, pct - n * unit))
        bundles.append((prefix, pct))
    return bundles


# -- money ----------------------------------------------------------------------------------------------------


def dividend_payouts(
    corp: Corporation, holdings: Mapping[str, Sequence[str]], revenue: int, corporation_holds: str = POOL
) -> tuple[dict[str, int], int]:
    """A full payout: (amount per player, amount to the corporation for the shares of `corporation_holds`: the
    pool's in 1889, its own treasury's (the IPO) in 1867). Each holder gets ceil(revenue x percent / 100); the
    other bank holding pays nobody."""
    def share(pct: int) -> int:
        return -(-revenue * pct // 100)

    to_players = {p: share(pct) for p, pct in player_percents(corp, holdings).items() if pct}
    return to_players, share(percent_of(corp, holdings, corporation_holds))


def share_value(corp: Corporation, certs: Sequence[str], price: int) -> int:
    """Market value of certificates (score, bankruptcy): price x shares, rounded up."""
    return -(-price * corp.bundle_percent(certs) // corp.share_unit)


def sale_proceeds(price: int, percent: int, unit: int = SHARE_PERCENT) -> int:
    """`percent` of a corporation whose price is for `unit` percent (Corporation.cert_unit)."""
    return price * percent // unit


def player_value(
    cash: int,
    certs_by_corp: Mapping[str, Sequence[str]],
    prices: Mapping[str, int],
    private_values: Iterable[int],
    title: Title,
) -> int:
    """A player's score: cash + his certificates of parred corporations at the current price + the face
    value of the privates he still holds. ``prices`` holds only corporations that have been parred."""
    shares = sum(
        share_value(title.corporation(corp_id), certs, prices[corp_id])
        for corp_id, certs in certs_by_corp.items()
        if corp_id in prices
    )
    return cash + shares + sum(private_values)
