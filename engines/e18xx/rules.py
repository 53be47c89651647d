"""A title's rules as named hooks: what differs between 18xx titles, asked by the shared rounds.

A title is data (titles/g<id>/: map, tiles, market, companies, trains, phases) plus a `Rules` subclass that
overrides the hooks where its rules differ. `Rules` itself is Shikoku 1889's rules, the first title; 1867
(engines/e18xx/g1867/) inherits it and 1807 will inherit 1867's. `rules_for(title)` gives a title's rules; `G.rules`
has them at hand. Hooks take the game view `g` first and never keep state of their own: all of it is in `g.s`.
"""
from __future__ import annotations

import importlib
from functools import cache, cached_property
from types import ModuleType
from typing import TYPE_CHECKING, Any

from engines.base import RuleError
from engines.e18xx.companies import SHARE_PERCENT, can_gain
from engines.e18xx.route import Train, route_revenue, train_from_def
from engines.text import N_, Msg, msg

if TYPE_CHECKING:
    from collections.abc import Mapping

    from engines.e18xx.board import MapDef
    from engines.e18xx.companies import Title
    from engines.e18xx.route import Route
    from engines.e18xx.state import G


@cache
def _module(name: str) -> ModuleType:
    """One of engines/e18xx's modules that import state.py, which imports this one (so not at the top): imported
    once, at the first hook that asks, rather than by an import statement in hooks asked after every move."""
    return importlib.import_module(f"engines.e18xx.{name}")


class Rules:
    """Shikoku 1889: auction, then stock and operating rounds; one tile lay; pay out or withhold."""

    #: Told when the bank breaks.
    bank_break_text = N_("The bank has broken: the game ends after the current set of operating rounds.")
    #: A route may not visit a hex twice, nor two cities of one hex (1867, 1807; route.hexes_once).
    routes_visit_hex_once = False
    #: The operating steps of a corporation's turn, in order (operating.py runs them).
    operating_steps: tuple[str, ...] = ("track", "token", "routes", "dividend", "trains", "companies")
    #: Types of our moves 18xx.games cannot play (1807's systems): selfplay meant for an export to the site never
    #: chooses them (bot/selfplay.py, bench/e18xx_agreement.py).
    SITE_UNPLAYED: frozenset[str] = frozenset()

    def game_map(self, options: Mapping[str, Any], map_def: MapDef) -> MapDef:
        """The map a game is played on: its title's, unless the table's options change it (state["opts"])."""
        return map_def

    def cash_public(self, g: G) -> bool:
        """Whether the players' cash totals are shown to the table (1890's variant "hidden personal cash")."""
        return True

    def treasuries_public(self, g: G) -> bool:
        """Whether the companies' treasuries are shown to the table (1890's variant "hiding of train purchase
        price")."""
        return True

    def trade_price_public(self, g: G) -> bool:
        """Whether the price of a train bought from another company is narrated (1890's "hiding of train purchase
        price")."""
        return True

    def record_secret_trade(self, g: G, cid: str, seller: str, train_id: str, price: int) -> None:
        """Keep a train's price, not narrated (trade_price_public), for those who may know it."""

    def game_title(self, options: Mapping[str, Any], title: Title) -> Title:
        """The companies, trains and phases a game is played with: its title's, unless the table's options change
        them (state["opts"]; 1890's variant "Kinki as a normal company")."""
        return title

    # ---- rounds ---------------------------------------------------------------------------------------

    @cached_property
    def modules(self) -> dict[str, ModuleType]:
        """Round kind -> the module that runs it (start, acting, apply, legal, auto, settle, finished, describe)."""
        from engines.e18xx import auction, operating, stock
        return {"auction": auction, "stock": stock, "operating": operating}

    def begin(self, g: G) -> None:
        """The first round of a new game."""
        from engines.e18xx import auction
        if g.beginner:
            g.s["round"] = {"kind": "deal"}  # the chance seat shuffles the privates first
        else:
            auction.start(g)

    def dealt(self, g: G) -> list[str]:
        """The privates a chance draw shuffles at the start ("deal" round): 1889's Beginner Game deals them all."""
        return list(g.s["privates"])

    def deal(self, g: G, order: list[int]) -> None:
        """Beginner Game: the privates in title order, shuffled; seat i gets the i-th and pays its face value."""
        from engines.e18xx import stock
        from engines.e18xx.state import BANK
        kept = self.dealt(g)
        for seat in range(g.n):
            pid = kept[order[seat]]
            g.pay(g.key(seat), BANK, g.s["privates"][pid]["value"])
            g.s["privates"][pid]["owner"] = g.key(seat)
            g.event("[0] is dealt {private} and pays {price}.", seat, private=g.private_name(pid),
                    price=g.amount(g.s["privates"][pid]["value"]))
        stock.start(g, 1)

    def deal_request(self, g: G):
        """What the chance seat draws in the "deal" round: 1889 and 1867 shuffle the privates `dealt` gives."""
        from engines.base import ChanceRequest
        return ChanceRequest("shuffle", len(self.dealt(g)), reason=msg("deal the private companies"))

    def chance_request(self, g: G):
        """A draw the game waits for in the middle of a round (1890's Hanshin Tigers die), or None."""
        return None

    def prices_frozen(self, g: G) -> bool:
        """Whether no share price moves now (1890's Great Hanshin Earthquake)."""
        return False

    def apply_chance(self, g: G, action: dict[str, Any]) -> None:
        """The chance seat's draw that chance_request asked for."""
        raise RuleError("Nothing is drawn now.")

    def deal_seed(self, g: G, action: dict[str, Any]) -> None:
        """A "pick" deal (1807): the drawn number is a seed of 18xx.games's generator, which draws the setup."""
        raise NotImplementedError

    def site_seed(self, g: G) -> int | None:
        """The 18xx.games seed this game's setup was drawn with, when it was drawn with one (1807)."""
        return None

    def site_deal(self, title, seed: int, players: int) -> list[str]:
        """The privates in the order 18xx.games's seeded generator draws them for this deal."""
        from engines.e18xx.importer import beginner_deal
        return beginner_deal(title, seed, players)

    def deal_matters(self, dealt: list[str], players: int) -> tuple:
        """What of a drawn order the game depends on (an export's seed must give the same): who gets what."""
        return tuple(dealt[:players])

    def next_round(self, g: G) -> None:
        """The round after the one just finished (rounds.next_round has ended it)."""
        from engines.e18xx import operating, rounds, stock
        r = g.round
        if r["kind"] == "auction":
            rounds.rotate(g, self.modules["auction"].priority_seat(g))
            stock.start(g, 1)
        elif r["kind"] == "stock":
            rounds.rotate(g, stock.priority_seat(g))
            operating.start(g, r["turn"], 1, g.phase.operating_rounds)
        elif r["kind"] == "operating":
            if r["or"] < r["of"]:
                operating.start(g, r["turn"], r["or"] + 1, r["of"])
            elif g.s["bank_broken"]:
                rounds.end_game(g, "bank")
            else:
                stock.start(g, r["turn"] + 1)

    def interrupt(self, g: G) -> tuple[int, str, list[dict[str, Any]]] | None:
        """A decision that comes before anything else in any round: (the seat that decides, what it is, its moves),
        or None. 1889 has none."""
        return None

    def apply_interrupt(self, g: G, seat: int, action: dict[str, Any]) -> None:
        raise NotImplementedError

    def after_operating_round(self, g: G) -> None:
        """When an operating round has ended, before the next round starts."""

    def after_train_bought(self, g: G) -> None:
        """After a train has left the depot and its events have happened."""

    def trains_step_done(self, g: G, cid: str) -> None:
        """When a corporation's train step ends (passed, or skipped with nothing to buy)."""

    def operating_turn_done(self, g: G, cid: str) -> None:
        """When a corporation's operating turn has ended, before the next corporation's."""

    def after_lay(self, g: G, cid: str, coord: str, tile: str) -> None:
        """After a tile lay."""

    # ---- companies and trains -------------------------------------------------------------------------

    def train_limits(self, g: G) -> Mapping[str, int]:
        """Corporation -> its train limit now (a title with other limits overrides this: train_limit and
        trains.crowded read it)."""
        return g.title.train_limits[g.s["depot"]["phase"]]

    def train_limit(self, g: G, cid: str) -> int:
        return self.train_limits(g)[cid]

    def train(self, g: G, train_id: str) -> Train:
        """What a train runs as (its distance, which stops count, its multiplier), from the title's data."""
        return _route_train(g.title.id, train_id.rpartition("-")[0] if "-" in train_id else train_id)

    def train_price(self, g: G, train_id: str) -> int:
        """A depot train's list price (1807: a goods train's is its goods side's)."""
        return g.train_def(train_id).price

    def train_name(self, g: G, train_id: str) -> str:
        """The name a train is known by in trade-in tables (1807: "3G" for a 5 card bought as a goods train)."""
        return train_id.rpartition("-")[0]

    def route_trains(self, g: G, cid: str) -> list[str]:
        """`cid`'s trains that run on routes (1807: not its goods trains, which earn without one)."""
        return g.corp(cid)["trains"]

    def site_extra_revenue(self, g: G, cid: str) -> int:
        """What 18xx.games must be told `cid` earns besides its routes, written with its run (1807: goods trains)."""
        return 0

    def train_event(self, g: G, event: str) -> None:
        """What the first train of a kind sets off besides the phase and rusting (its `first_bought_events`)."""
        from engines.e18xx import trains
        if event == "close_privates":
            trains.close_privates(g)
        else:
            raise ValueError(f"{g.title.id} has no rule for the train event {event!r}")

    def price_after_sale(self, g: G, cid: str, cell, percent: int, was_president: bool):
        """Where a sale of `percent` leaves the price: 1889, one row down per 10% share."""
        return g.title.market.after_sale(cell, percent // SHARE_PERCENT)

    def may_par(self, g: G, cid: str) -> bool:
        """Whether a player may start `cid` with a par price now."""
        return True

    def par_cells(self, g: G, cid: str) -> tuple:
        return g.title.market.par_cells

    def ipo_payee(self, g: G, cid: str) -> str:
        """Who is paid for a certificate bought from the IPO: 1889, the bank (the corporation gets its capital
        when it floats)."""
        return _module("state").BANK

    def ipo_price(self, g: G, cid: str) -> int:
        return g.corp(cid)["par"]

    def floats_on_sale(self, g: G, cid: str) -> bool:
        """Whether a corporation floats as its shares are bought (once enough are sold), as in most titles."""
        return True

    def float_capital(self, g: G, cid: str) -> int:
        """What the bank pays a corporation as it floats (1889: ten times its par price)."""
        return g.corp(cid)["par"] * g.title.rules.get("float_pays_par_times_shares", 10)

    def may_gain(self, g: G, seat: int, cid: str, percent: int) -> bool:
        """Whether the player may take `percent` more of `cid` (holding and certificate limits)."""
        cdef = g.cdef(cid)
        return can_gain(cdef, g.corp(cid)["shares"], g.key(seat), percent, g.cell(cid), g.cert_count(seat),
                        g.cert_limit)

    def rises_when_sold_out(self, g: G, cid: str) -> bool:
        return True

    def trade_ins_allowed(self, g: G, cid: str | None = None) -> bool:
        """Whether a train may be traded in toward a depot train now (its `trade_in` prices say for which), by `cid`
        when named (1807: systems only)."""
        return True

    def may_buy_train(self, g: G, cid: str, train_id: str) -> bool:
        """Whether `cid` may buy this kind of depot train at all (1807: the 5+5E is for systems only)."""
        return True

    def must_buy_train(self, g: G, cid: str) -> bool:
        """1889: a corporation with a route and no train must buy one."""
        trains = _module("trains")
        return not g.corp(cid)["trains"] and trains.route_available(g, cid)

    def cheapest_train_price(self, g: G) -> int | None:
        """The least a depot train costs now, which decides whether a trainless corporation must buy one (1807: a
        card's goods side may be cheaper than the card)."""
        trains = _module("trains")
        return trains.cheapest_depot_price(g)

    def buying_power(self, g: G, cid: str) -> int:
        """What `cid` can spend on a tile lay or a depot train it must buy, without its president's help: its cash,
        and where the title lends (1867) the loans it may still take."""
        return g.corp(cid)["cash"]

    def raise_cash(self, g: G, cid: str, amount: int, *, train: bool = False) -> None:
        """Before `cid` pays `amount` (a lay, or a depot train it must buy when `train`): titles with automatic
        loans borrow what it lacks here. 1889 has none."""

    def home_tokens_at_operating_start(self, g: G) -> bool:
        return True

    # ---- the operating turn ---------------------------------------------------------------------------

    def operating_order(self, g: G) -> list[str]:
        """The floated corporations in the order they operate: by share price."""
        return g.operating_order(g.floated())

    def operating_round_start(self, g: G) -> None:
        """After the round's order is set (titles with loans note the interest due)."""

    def lays_allowed(self, g: G, cid: str, laid: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The lays still open to `cid` this turn given the ones made (`laid`: [{hex, upgrade}]): each a dict with
        `upgrade` (whether it may upgrade), `cost` (paid on top of terrain) and perhaps `not_on` (a hex it may not
        use), `hexes` (the only hexes it may use) and `connected` (False: the tile need not join the corporation's
        track, 1890's Arima). 1889: one lay or upgrade."""
        return [] if laid else [{"upgrade": True, "cost": 0}]

    def next_token_price(self, g: G, cid: str) -> int | None:
        """The printed price of `cid`'s next token (1889: the charter's prices in order), None when none is left."""
        operating = _module("operating")
        costs, used = g.cdef(cid).tokens, operating.tokens_used(g, cid)
        return costs[used] if used < len(costs) else None

    def tokens_left(self, g: G, cid: str) -> tuple[int, int]:
        """(tokens still on the charter, tokens in all)."""
        operating = _module("operating")
        total = len(g.cdef(cid).tokens)
        return total - operating.tokens_used(g, cid), total

    def token_placed(self, g: G, cid: str, coord: str, node: int) -> None:
        """After `cid` has put a token on the board (titles that track each token's price)."""

    def token_step_open(self, g: G, cid: str) -> bool:
        """Whether the token step waits for a move: 1889, when a token can be placed and paid for."""
        operating = _module("operating")
        if type(self).token_cost is not Rules.token_cost:  # a price that depends on the city: ask each
            return operating.can_token(g, cid)
        # one price for every city: can it pay, and is there a city (the board's walk stops at the first)
        base = operating.next_token_cost(g, cid)
        return base is not None and base <= g.corp(cid)["cash"] and g.board.can_token(cid)

    def token_cost(self, g: G, cid: str, coord: str, base: int) -> int:
        """What a token placed on `coord` costs, the next token's printed cost being `base`."""
        return base

    def route_problem(self, g: G, cid: str, route: Route) -> Msg | None:
        """Why the title forbids `cid` this route beyond the shared rules (1807: London), or None."""
        return None

    def excluded_stops(self, g: G, cid: str) -> frozenset:
        """Stops the auto-router must leave out of `cid`'s routes (1807: London cities without its token)."""
        return frozenset()

    def cert_limit(self, g: G) -> int:
        return g.title.cert_limit[g.n]

    def route_board(self, g: G, cid: str):
        """The board `cid`'s trains run on: the board (1890: with the tokens the Subway or a company that paid Kobe
        Rapid Transit's fee ignores made neutral; Osaka Railway's shared token)."""
        return g.board

    def lay_board(self, g: G, cid: str):
        """The board whose `cid` tokens its tile lays must reach: the board (1890: Osaka Railway lays from Osaka
        Electric Railroad's token). The tile itself goes on the real board."""
        return g.board

    def runs_made(self, g: G, cid: str, runs: list[dict[str, Any]]) -> int:
        """After `cid`'s trains ran (`runs`: train, hexes, revenue each): what the title adds to the revenue, paying
        any bonus of its own (1890: Hanshin's Tigers, Kobe Rapid Transit's fee). 1889: nothing."""
        return 0

    def route_revenue(self, g: G, cid: str, route: Route, train: Train) -> int:
        return route_revenue(g.board, route, train, g.colours)

    def dividend_kinds(self, g: G, cid: str) -> tuple[str, ...]:
        """The dividends `cid`'s president chooses from; empty = the title pays it without asking."""
        return ("payout", "withhold")

    def pay_dividend(self, g: G, cid: str, kind: str, revenue: int) -> None:
        """Pay `revenue` as `kind` (one of dividend_kinds, or withhold when nothing was earned) and move the price."""
        operating = _module("operating")
        if kind == "payout":
            operating.payout(g, cid, revenue)
        else:
            operating.withhold(g, cid, revenue)

    def loan_step(self, g: G, cid: str) -> None:
        """The operating step "loans" (titles with loans): interest and repayment, without asking."""

    def reserved_cert(self, g: G, cid: str, cert: str) -> bool:
        """Whether an IPO certificate is kept back from sale (1890: Kinki's, for the minors that merge into it)."""
        return False

    def may_buy_private(self, g: G, cid: str, pid: str) -> bool:
        """Whether corporation `cid` may buy private `pid` from its owner (when the phase lets corporations buy)."""
        return True

    def privates_counted(self, g: G, holder: str) -> int:
        """How many of `holder`'s privates count toward the certificate limit: 1889, all."""
        n = 0
        for p in g.s["privates"].values():  # len(g.privates_of(holder)) without the list (asked with every count)
            if p["owner"] == holder and not p["closed"]:
                n += 1
        return n

    def turn_moves(self, g: G, seat: int, cid: str) -> list[dict[str, Any]]:
        """A title's own moves open at any step of `cid`'s operating turn (1890: a minor converts). 1889: none."""
        return []

    def turn_move(self, g: G, seat: int, cid: str, action: dict[str, Any]) -> bool:
        """Make one of turn_moves' moves; False when `action` is not one (the shared steps take it)."""
        return False

    def closings(self, g: G) -> bool:
        """Close what must close once a move has been played out (1807: the £0 cell); whether anything closed."""
        return False

    def track_held(self, g: G, cid: str) -> bool:
        """Whether `cid`'s track step stays open with no lay of its own left (1807: its president's unused P2-P5)."""
        return False

    def private_lay(self, g: G, seat: int, cid: str, action: dict[str, Any]) -> bool:
        """Make a title's own private tile lay in `cid`'s turn; False when `action` is not one (1889's Mitsubishi
        Ferry is the shared code's)."""
        return False

    def private_lay_moves(self, g: G, seat: int, cid: str) -> list[dict[str, Any]]:
        """A title's own private tile lays open to `seat` at `cid`'s track step."""
        return []

    def private_price_range(self, g: G, pid: str) -> tuple[int, int]:
        """What a corporation may pay a player for a private: 1889, half the face value rounded up to twice it."""
        return g.title.private_price_range(g.pdef(pid))

    def game_end(self, g: G) -> None:
        """What happens as the game ends, before the scores (1867: loans are paid off by the share price)."""

    def value(self, g: G, seat: int) -> int:
        """A player's score."""
        return g.base_value(seat)


@cache
def _route_train(title: str, name: str) -> Train:
    from engines.e18xx.companies import load_title
    return train_from_def(load_title(title).train(name))


#: Titles whose rules differ from 1889's: title -> "module:class" (imported on first use).
TITLE_RULES = {"1867": "engines.e18xx.g1867.rules:Rules1867", "1890": "engines.e18xx.g1890.rules:Rules1890",
               "1807": "engines.e18xx.g1807.rules:Rules1807"}


@cache
def rules_for(title: str) -> Rules:
    """A title's rules; a scenario of a title ("1890/hanshin": its data in titles/g1890/hanshin/) has the title's."""
    title = title.partition("/")[0]
    if title not in TITLE_RULES:
        return Rules()
    module, _, name = TITLE_RULES[title].partition(":")
    return getattr(importlib.import_module(module), name)()
