"""1867's rules hooks (docs/rules/1867.md): what differs from 1889's `Rules`."""
from __future__ import annotations

from functools import cached_property
from itertools import combinations
from types import ModuleType
from typing import TYPE_CHECKING, Any

from engines.e18xx import hexes, operating, trains
from engines.e18xx.board import NEUTRAL
from engines.e18xx.g1867 import charter, loans, national  # at the top: asked after every operating move
from engines.e18xx.route import leads_to_stop
from engines.e18xx.rules import Rules
from engines.e18xx.state import BANK
from engines.text import N_, msg

if TYPE_CHECKING:
    from engines.e18xx.route import Route, Train
    from engines.e18xx.state import G

#: A route joining one of the capitals (Toronto, Montreal, Quebec) to Timmins earns 40 more (times its multiplier).
CAPITALS = ("F16", "L12", "O7")
TIMMINS = "D2"
CAPITAL_BONUS = 40
SECOND_LAY_COST = 20
MAJOR_PHASE = "4"
TWO_PLAYER_HOLDING_LIMIT = 70
TWO_PLAYER_PRIVATES_REMOVED = 2


def _home_cities(board, printed, kind: str) -> list[tuple[str, int]]:
    """The cities a minor (no token in the city) or a major (no corporation's token on the hex; first those on a hex
    none of whose cities has track leading to a stop, a loop back to the city included: 18xx.games's
    unconnected_hexes) could start in, before the corporation's own reservations are looked at."""
    if kind == "minor":
        return [(coord, i) for coord in printed for i in board.tile(coord).city_indexes()
                if not any(board.slots(coord, i))]
    found = []
    for coord in printed:
        cities = board.tile(coord).city_indexes()
        if any(t not in (None, NEUTRAL) for i in cities for t in board.slots(coord, i)):
            continue
        found += [(coord, i) for i in cities if None in board.slots(coord, i)]
    joined = {coord for coord in {c for c, _ in found}
              if any(leads_to_stop(board, (coord, i)) for i in board.tile(coord).city_indexes())}
    alone = [ref for ref in found if ref[0] not in joined]
    return alone or found


def _paid(stops: list, train: Train, colours: tuple[str, ...], bonuses: list[tuple[int, set[str]]]) -> int:
    """What these stops ((ref, node) pairs) pay the train: their revenue, the Timmins-to-a-capital bonus, times the
    train's multiplier, and the corporation's privates' hex bonuses (`bonuses`: amount, hexes)."""
    revenue = sum(node.revenue_for(colours, train.diesel) for _, node in stops)
    visited = {ref[0] for ref, _ in stops}
    if visited & set(CAPITALS) and TIMMINS in visited:
        revenue += CAPITAL_BONUS
    revenue *= train.multiplier
    for amount, hexes_ in bonuses:
        revenue += amount * len(visited & hexes_)
    return revenue


class Rules1867(Rules):
    bank_break_text = N_("The bank has broken: the game ends at the end of this operating round, or of the next "
                         "one.")
    routes_visit_hex_once = True
    #: A major formed by a merger has its charter made up to this many tokens at this price (charter.fill_up).
    merged_charter = (3, 40)
    operating_steps = ("redeem", "track", "token", "routes", "dividend", "companies_preloan", "loans", "trains",
                       "companies")

    @cached_property
    def modules(self) -> dict[str, ModuleType]:
        from engines.e18xx.g1867 import auction, merger, stock
        return {"auction": auction, "stock": stock, "operating": operating, "merger": merger}

    def begin(self, g: G) -> None:
        from engines.e18xx.g1867 import auction
        g.s["flags"] = {"green_minors": False, "minors_closed": False, "trainless_majors": [],
                        "national_reservations": list(g.map.national_reservations), "final_turn": None}
        charter.init(g)
        for coord, node in g.board.token_nodes(national.NATIONAL):  # the CN's token printed in Toronto
            charter.take(g, national.NATIONAL, coord, node)
        if g.n == 2:  # as 18xx.games sets up two players: fewer trains, a 70% limit, two privates drawn away
            depot = g.s["depot"]["trains"]
            for t in g.title.trains:
                copies = [tid for tid in depot if tid.rpartition("-")[0] == t.name]
                for tid in copies[len(copies) - t.removed_with_2_players:]:
                    depot.remove(tid)
            g.s["holding_limit"] = TWO_PLAYER_HOLDING_LIMIT
            g.s["round"] = {"kind": "deal"}  # the chance seat draws the privates that leave
            return
        auction.start(g)

    def dealt(self, g: G) -> list[str]:
        """Two players: the privates (not the hidden "3") from which two are drawn away."""
        return [pid for pid in g.s["privates"] if not g.pdef(pid).hidden]

    def deal(self, g: G, order: list[int]) -> None:
        from engines.e18xx.g1867 import auction
        kept = self.dealt(g)
        gone = [kept[i] for i in order[:TWO_PLAYER_PRIVATES_REMOVED]]
        for pid in gone:
            del g.s["privates"][pid]
        g.event("With two players {privates} leave the game.", privates=[g.private_name(pid) for pid in gone])
        auction.start(g)

    def site_deal(self, title, seed: int, players: int) -> list[str]:
        from engines.e18xx.importer import SiteRandom
        return SiteRandom(seed).shuffle([p.id for p in title.privates if not p.hidden])

    def deal_matters(self, dealt: list[str], players: int) -> tuple:
        return tuple(sorted(dealt[:TWO_PLAYER_PRIVATES_REMOVED]))

    def auctioned_at_start(self, g: G, pid: str) -> bool:
        """Whether the opening auction sells `pid`: every private but the hidden "3"."""
        return not g.pdef(pid).hidden

    def next_round(self, g: G) -> None:
        from engines.e18xx import rounds
        from engines.e18xx.g1867 import auction, stock
        merger = self.modules["merger"]  # 1807's has its own
        r = g.round
        trigger = self._end_trigger(g)
        if r["kind"] == "auction":
            rounds.rotate(g, auction.priority_seat(g))
            stock.start(g, 1)
        elif r["kind"] == "stock":
            rounds.rotate(g, stock.priority_seat(g))
            operating.start(g, r["turn"], 1, self.operating_rounds(g))
        elif r["kind"] == "operating" and self._ends_now(g, trigger):
            rounds.end_game(g, trigger)
        elif r["kind"] == "operating" and g.phase.merger_rounds:
            merger.start(g, r["turn"], r["or"], r["of"])
        elif r["or"] < r["of"]:
            operating.start(g, r["turn"], r["or"] + 1, r["of"])
        else:
            stock.start(g, r["turn"] + 1)

    @staticmethod
    def _end_trigger(g: G) -> str | None:
        """What ends the game, checked as each round ends (18xx.games's game_end_check): the last phase (the set
        after the current one is the last), which takes the place of a broken bank (the end of the current
        operating round). Either sets the last turn to the next one, and every set from then on has three
        operating rounds (1867's game_end_set_final_turn!)."""
        flags = g.s["flags"]
        trigger = flags.get("end_trigger")
        if g.phase.name == g.title.phases[-1].name and trigger != "final_phase":
            trigger = "final_phase"
            g.event("The last phase has begun: the game ends after the next set of operating rounds.")
        elif g.s["bank_broken"] and trigger is None:
            trigger = "bank"
        if trigger is not None:
            flags["end_trigger"] = trigger
            if flags["final_turn"] is None:
                flags["final_turn"] = g.round.get("turn", 1) + 1
        return trigger

    @staticmethod
    def _ends_now(g: G, trigger: str | None) -> bool:
        """At the end of an operating round: a broken bank ends the game now; the last phase after the set of the
        last turn."""
        r = g.round
        return trigger == "bank" or (trigger == "final_phase" and r["or"] >= r["of"]
                                     and r["turn"] == g.s["flags"]["final_turn"])

    def operating_rounds(self, g: G) -> int:
        """Two a set; three once the game's end has been set off."""
        return 3 if g.s["flags"]["final_turn"] is not None else g.phase.operating_rounds

    # ---- companies ------------------------------------------------------------------------------------

    def may_start(self, g: G, cid: str, by_merger: bool = False) -> bool:
        """Minors until the first 5-train (green ones from the first 3-train); majors from phase 4, or from phase 3
        by a minor's conversion or a merger. A closed minor never comes back."""
        # asked of every corporation a stock turn could start (its kind and the phase read straight from the tables)
        kind, flags = g.title.kind_of[cid], g.s["flags"]
        if g.s["corps"][cid].get("closed"):
            return False
        if kind == "minor":
            return not flags["minors_closed"] and (not g.cdef(cid).green or flags["green_minors"])
        if kind != "major":
            return False
        if by_merger:
            return flags["green_minors"]
        phases = g.title.phase_indexes
        return phases[g.s["depot"]["phase"]] >= phases[MAJOR_PHASE]

    def minors_may_start(self, g: G) -> bool:
        """False when may_start is False for every minor (asked first, so the minors need not each be asked): 1867's
        minors are closed."""
        return not g.s["flags"]["minors_closed"]

    def may_par(self, g: G, cid: str) -> bool:
        """A major, from phase 4, while some city can take its home token."""
        return g.title.kind_of[cid] == "major" and self.may_start(g, cid) and self._any_home_city(g, cid)

    def price_after_sale(self, g: G, cid: str, cell, percent: int, was_president: bool):
        """One step left for a sale by the president (before the sale); others do not move the price."""
        return g.title.market.left(cell) if was_president else cell

    def par_cells(self, g: G, cid: str) -> tuple:
        return g.title.market.par_cells_for(g.cdef(cid).kind)

    def ipo_payee(self, g: G, cid: str) -> str:
        return cid  # incremental capitalisation: the treasury is paid share by share

    def ipo_price(self, g: G, cid: str) -> int:
        return g.price(cid)  # treasury shares sell at the market price

    def float_capital(self, g: G, cid: str) -> int:
        return 0

    def home_cities(self, g: G, cid: str) -> list[tuple[str, int]]:
        """A minor starts on any city with no token in it; a major on a city with room in a hex where no
        corporation has a token, one not joined by track to another stop if there is any such."""
        board = g.board
        return [(coord, node) for coord, node in self._home_candidates(g, cid)
                if board.free_slot(coord, cid, node) is not None]

    def _any_home_city(self, g: G, cid: str) -> bool:
        """bool(home_cities(g, cid)), stopping at the first (may_par is asked for every par price of a stock turn)."""
        board = g.board
        known = board.__dict__.setdefault("_any_home_city", {})  # a board never changes: once per board and corp
        if cid not in known:
            known[cid] = any(board.free_slot(coord, cid, node) is not None
                             for coord, node in self._home_candidates(g, cid))
        return known[cid]

    @staticmethod
    def _home_candidates(g: G, cid: str) -> list[tuple[str, int]]:
        board, kind = g.board, g.cdef(cid).kind
        known = board.__dict__.setdefault("_home_cities", {})  # a board never changes: once per board and kind
        if kind not in known:
            known[kind] = _home_cities(board, g.map.printed, kind)
        return known[kind]

    def rises_when_sold_out(self, g: G, cid: str) -> bool:
        return g.cdef(cid).kind == "major"

    def merge_reach(self, g: G, cid: str) -> list[tuple[str, int]]:
        """Cities a merger counts as reached by `cid` beyond what its track reaches (1807: London's). 1867: none."""
        return []

    def home_tokens_at_operating_start(self, g: G) -> bool:
        return False

    # ---- the operating turn ---------------------------------------------------------------------------

    def lays_allowed(self, g: G, cid: str, laid: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Two lays: the first may upgrade; the second costs 20 more, is a yellow lay if the first upgraded, and
        never on the hex of the first."""
        if not laid:
            return [{"upgrade": True, "cost": 0}]
        if len(laid) == 1:
            return [{"upgrade": not laid[0]["upgrade"], "cost": SECOND_LAY_COST, "not_on": laid[0]["hex"]}]
        return []

    def next_token_price(self, g: G, cid: str) -> int | None:
        return charter.next_price(g, cid)

    def tokens_left(self, g: G, cid: str) -> tuple[int, int]:
        charter = g.corp(cid)["charter"]
        return sum(at is None for _, at in charter), len(charter)

    def token_placed(self, g: G, cid: str, coord: str, node: int) -> None:
        charter.take(g, cid, coord, node)

    def token_step_open(self, g: G, cid: str) -> bool:
        """With a token left whose printed price it can pay and a city to put it in, the corporation is asked (it
        passes if the price, which grows with the distance, is too high), as on 18xx.games."""
        base = operating.next_token_cost(g, cid)
        return base is not None and base <= g.corp(cid)["cash"] and g.board.can_token(cid)

    def token_cost(self, g: G, cid: str, coord: str, base: int) -> int:
        """A token costs its price times the distance in hexes to the nearest token the corporation has."""
        placed = [ref[0] for ref in g.board.token_nodes(cid)]
        if not placed:
            return base
        return base * min(hexes.distance(coord, other, g.map.layout) for other in placed)

    def route_revenue(self, g: G, cid: str, route: Route, train: Train) -> int:
        """The counted stops (cities and offboards; a 5+5E's offboards) and the best choice of the others while the
        distance has room, bonuses included; a 5+5E whose offboards hold no token of the corporation must choose a
        tokened city among them (18xx.games's `compute_stops`)."""
        board, colours = g.board, g.colours
        # each stop's node read once, and the privates' bonuses once a route (not again for each choice of stops)
        stops = [(ref, board.node(ref)) for ref in route.stops]
        bonuses = [(ability["amount"], set(ability["hexes"])) for pid in g.privates_of(cid)
                   for ability in g.pdef(pid).abilities_of("hex_bonus")]
        must = [stop for stop in stops if stop[1].kind in train.counts]
        others = [stop for stop in stops if stop[1].kind not in train.counts]
        room = train.distance - len(must)
        if not others or room <= 0:
            return _paid(must, train, colours, bonuses)
        need_token = not any(node.kind == "city" and cid in board.slots(*ref) for ref, node in must)
        picks = list(combinations(others, room)) if room < len(others) else [tuple(others)]
        best = 0
        for pick in picks:
            if need_token and not any(node.kind == "city" and cid in board.slots(*ref) for ref, node in pick):
                continue
            best = max(best, _paid(must + list(pick), train, colours, bonuses))
        return best

    def operating_order(self, g: G) -> list[str]:
        """Minors first, then majors, each by share price."""
        floated = [cid for cid in g.floated() if g.cdef(cid).kind != "national"]
        ordered = g.operating_order(floated)
        return [c for c in ordered if g.cdef(c).kind == "minor"] + [c for c in ordered if g.cdef(c).kind != "minor"]

    def operating_round_start(self, g: G) -> None:
        loans.note_interest(g)

    def pay_dividend(self, g: G, cid: str, kind: str, revenue: int) -> None:
        """A minor pays half (rounded down) into its treasury and the rest to its owner, and rises one step (to its
        cap); with nothing earned it falls one step."""
        if g.cdef(cid).kind != "minor":
            return self._major_dividend(g, cid, kind, revenue)
        market, cell = g.title.market, g.cell(cid)
        if revenue:
            kept = revenue // 2
            owner = g.corp(cid)["president"]
            g.pay(BANK, cid, kept)
            g.pay(BANK, owner, revenue - kept)
            g.move_price(cid, market.after_payout(cell, capped=True))
            g.event("{corp} earns {revenue}: {kept} to its treasury, {paid} to [0]; its price is now {price}.",
                    int(owner), corp=cid, revenue=g.amount(revenue), kept=g.amount(kept),
                    paid=g.amount(revenue - kept), price=g.amount(g.price(cid)))
        else:
            g.move_price(cid, market.after_withhold(cell))
            g.event("{corp} earns nothing; its price falls to {price}.", corp=cid, price=g.amount(g.price(cid)))

    def _major_dividend(self, g: G, cid: str, kind: str, revenue: int) -> None:
        """A major pays out all, half (the treasury keeps revenue/20 rounded down, times 10) or nothing; the price
        moves right when what is paid out is at least the share price, left when nothing is."""
        if kind == "withhold" or not revenue:
            operating.withhold(g, cid, revenue)
            return
        kept = revenue // 20 * 10 if kind == "half" else 0
        operating.payout(g, cid, revenue, kept=kept, steps=int(revenue - kept >= g.price(cid)))

    def other_merger_move(self, g: G, cid: str) -> bool:
        """Whether minor `cid` has a title's own move in the merger round besides converting and merging (1807: a
        takeover), so that its turn waits for it."""
        return False

    def trade_ins_allowed(self, g: G, cid: str | None = None) -> bool:
        return g.phase.name == "8"  # the "train trade allowed" of the first 8-train

    def must_buy_train(self, g: G, cid: str) -> bool:
        """A corporation with no train must buy one, when it can with its cash and every loan it may still take."""
        if g.corp(cid)["trains"]:
            return False  # asked after every operating move: the depot's offer is read only for a trainless one
        low = self.cheapest_train_price(g)  # the cash first: a buying power is never below it
        return low is not None and (g.corp(cid)["cash"] >= low or loans.buying_power(g, cid) >= low)

    def buying_power(self, g: G, cid: str) -> int:
        return loans.buying_power(g, cid)

    def raise_cash(self, g: G, cid: str, amount: int, *, train: bool = False) -> None:
        loans.borrow_for(g, cid, amount)

    def loan_step(self, g: G, cid: str) -> None:
        if not loans.pay_interest_and_repay(g, cid):
            g.event("{corp} cannot pay its interest.", corp=cid)
            national.nationalize(g, cid)

    def trains_step_done(self, g: G, cid: str) -> None:
        """A corporation that ends its train step without a train is nationalised."""
        if not g.corp(cid)["trains"]:
            national.nationalize(g, cid)

    def private_price_range(self, g: G, pid: str) -> tuple[int, int]:
        """A corporation pays a player from 1 up to the private's face value."""
        return 1, g.pdef(pid).value

    def interrupt(self, g: G) -> tuple[int, str, list[dict[str, Any]]] | None:
        """A trainless major's president chooses whether the CN takes it over."""
        pending = g.s["flags"].get("trainless_majors") or []
        if not pending or g.s["over"]:
            return None
        cid = pending[0]
        moves = [{"type": "choose", "entity": cid, "choice": "nationalize"}, {"type": "pass", "entity": cid}]
        return g.president(cid), msg("{corp} has no train: its president chooses whether the CN takes it over",
                                     corp=cid), moves

    def apply_interrupt(self, g: G, seat: int, action: dict[str, Any]) -> None:
        from engines.base import RuleError
        cid = g.s["flags"]["trainless_majors"][0]
        if seat != g.president(cid) or action.get("entity", cid) != cid:
            raise RuleError("{corp}'s president first chooses whether it is nationalised.", corp=cid)
        if action["type"] == "choose" and action.get("choice") == "nationalize":
            national.nationalize(g, cid)
        elif action["type"] == "pass":
            g.s["flags"]["trainless_majors"].pop(0)
            g.event("{corp} stays in private hands.", corp=cid)
        else:
            raise RuleError("Choose to nationalise {corp}, or pass.", corp=cid)

    def after_train_bought(self, g: G) -> None:
        national.trainless(g)

    def after_lay(self, g: G, cid: str, coord: str, tile: str) -> None:
        if tile == "639":
            national.place_for_montreal(g, coord)

    def after_operating_round(self, g: G) -> None:
        """In the phases that export trains, the next train in the depot leaves the game as if bought."""
        if "export_train" not in g.phase.status or g.s["over"] or self._ends_now(g, self._end_trigger(g)):
            return  # the site checks the end first: a game that ends now exports nothing
        upcoming = g.s["depot"]["trains"]
        if upcoming:
            train_id = upcoming[0]
            g.event("Train {train} is exported.", train=train_id)
            trains.take_from_depot(g, train_id, None)
            self.after_train_bought(g)

    def train_event(self, g: G, event: str) -> None:
        """The events of 1867's first trains of a kind (docs/rules/1867.md, "Phases and events")."""
        flags = g.s["flags"]
        if event == "green_minors_available":
            flags["green_minors"] = True
            for pid in g.s["privates"]:
                if g.pdef(pid).hidden:
                    g.s["privates"][pid]["closed"] = True
            board = g.board
            for coord, node in board.token_nodes(NEUTRAL):
                board = board.remove_token(coord, node, NEUTRAL)
            g.set_board(board)
            g.event("The green minors can now be started; the neutral tokens leave the board.")
        elif event == "majors_can_ipo":
            g.event("Majors can now be started.")
        elif event == "minors_cannot_start":
            flags["minors_closed"] = True
            g.event("Minors can no longer be started.")
        elif event == "train_trade_allowed":
            pass  # the trade-in prices are in the trains' data
        elif event == "trainless_nationalization":
            flags["trainless_pending"] = True  # once the rusting is done (after_train_bought)
        elif event == "nationalize_companies":
            for pid, p in g.s["privates"].items():
                if p["closed"] or p["owner"] in (None, national.NATIONAL) or g.pdef(pid).hidden:
                    continue
                g.pay(BANK, p["owner"], g.pdef(pid).value)
                p["owner"] = national.NATIONAL
            g.event("The CN buys every private company at its face value.")
        elif event == "minors_nationalized":
            for cid in g.rules.operating_order(g):
                if g.cdef(cid).kind == "minor":
                    national.nationalize(g, cid)
        else:
            raise NotImplementedError(f"1867's {event} event")

    def dividend_kinds(self, g: G, cid: str) -> tuple[str, ...]:
        if g.cdef(cid).kind == "minor":
            return ()  # half to the minor, half to its owner, without asking
        return ("payout", "half", "withhold")

    def game_end(self, g: G) -> None:
        """Every loan still held is paid off by moving the corporation's price one step left."""
        for cid, corp in g.s["corps"].items():
            if corp.get("loans") and g.cell(cid) is not None:
                for _ in range(corp["loans"]):
                    g.move_price(cid, g.title.market.left(g.cell(cid)))
                g.event("{corp} pays off {n} loan(s) with its share price: it falls to {price}.", corp=cid,
                        n=corp["loans"], price=g.amount(g.price(cid)))
                corp["loans"] = 0
