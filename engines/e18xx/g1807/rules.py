"""1807's rules hooks (docs/rules/1807.md): what differs from 1867's `Rules1867`.

The setup is drawn with 18xx.games's own generator from one drawn seed (`deal_seed`): the three private railways
that leave and the three batches of minors, so an export carries that seed and the site draws the same. Minors have
their home printed on the map; public companies (our kind "major") start from phase 4 by par or from phase 3 by a
merger; systems (kind "system") form in the merger round from phase 6 (systems.py). There is no nationalisation: a
corporation that cannot pay its interest pays what it has and its price falls one step, and one that ends its train
step without a train (when it could buy one) falls one step. The bank never breaks the game: the first 4+4 train
ends it after the set that follows.
"""
from __future__ import annotations

import json
from functools import cached_property
from types import ModuleType
from typing import TYPE_CHECKING, Any

from engines.base import ChanceRequest, RuleError
from engines.e18xx import hexes
from engines.e18xx.companies import TITLES
from engines.e18xx.g1807 import ferries, goods
from engines.e18xx.g1867.rules import Rules1867
from engines.e18xx.route import Train, stop_revenue
from engines.e18xx.state import BANK
from engines.text import Msg, msg

if TYPE_CHECKING:
    from engines.e18xx.route import Route
    from engines.e18xx.state import G

#: The seed is drawn in 1..SEEDS (18xx.games's generator keeps its state modulo 2^31).
SEEDS = 2**31 - 1
RAILWAYS_LEFT_OUT = 3
LONDON_SMALL = "U23"
LONDON_HEXES = ("K27", "K29", "L26", "L30", "M27", "M29")
SCOTLAND = frozenset({"A9", "A11", "A13", "C5", "C7", "C11", "D4", "D6", "D8", "D10", "F4", "H2"})
WALES = frozenset({"N4", "S3", "T10", "U7", "U9", "U11"})
BONUS = {"scotland": "J6", "wales": "L6", "london": "I28", "mine": "G28"}  # the bonuses' printed revenues


def _raw() -> dict[str, Any]:
    return json.loads((TITLES / "g1807" / "companies.json").read_text(encoding="utf-8"))


class Rules1807(Rules1867):
    #: Our moves 18xx.games cannot play (it has no systems): a selfplay game to be loaded on the site avoids them
    #: (bench/e18xx_agreement.py).
    SITE_UNPLAYED = frozenset({"merge_system", "form_system", "odd_shares"})

    @cached_property
    def modules(self) -> dict[str, ModuleType]:
        from engines.e18xx import operating
        from engines.e18xx.g1807 import stock, systems
        from engines.e18xx.g1867 import auction
        return {"auction": auction, "stock": stock, "operating": operating, "merger": systems}

    @cached_property
    def data(self) -> dict[str, Any]:
        return _raw()

    # ---- setup ----------------------------------------------------------------------------------------

    def begin(self, g: G) -> None:
        from engines.e18xx.g1867 import charter
        g.s["flags"] = {"green_minors": True, "minors_closed": False, "trainless_majors": [],
                        "national_reservations": [], "final_turn": None, "batch": {}, "site_seed": None,
                        "cert_limit_reduced": False}
        charter.init(g)
        g.s["round"] = {"kind": "deal"}

    def deal_request(self, g: G) -> ChanceRequest:
        return ChanceRequest("pick", SEEDS, reason=msg("draw the private railways and the minors in play"))

    def deal_seed(self, g: G, action: dict[str, Any]) -> None:
        """18xx.games's setup from `seed`: the ten private railways shuffled, the first three leave; minor groups A
        and B shuffled, the last 4 of A and 8 of B start, the 2 and 4 before them come in stock round 2, the rest
        with the first 3-train (G1807 setup_companies, setup_minors)."""
        from engines.e18xx.g1867 import auction
        from engines.e18xx.importer import SiteRandom
        index = action.get("index")
        if action.get("type") != "pick" or not isinstance(index, int) or not 0 <= index < SEEDS:
            raise RuleError("The setup is drawn by picking a seed.")
        seed = index + 1
        rng = SiteRandom(seed)
        railways = [p["id"] for p in self.data["privates"] if p["type"] == "railway"]
        gone = rng.shuffle(railways)[:RAILWAYS_LEFT_OUT]
        for pid in gone:
            del g.s["privates"][pid]  # the ferries and undergrounds stay, unsold until their stock rounds
        batch = {}
        for group in ("A", "B"):
            members = rng.shuffle(self.data["minor_groups"][group])  # in the site's order of the group
            first, second, _ = self.data["minor_batches"][group]
            for cid in members[len(members) - first:]:
                batch[cid] = 1
            for cid in members[len(members) - first - second:len(members) - first]:
                batch[cid] = 2
            for cid in members[:len(members) - first - second]:
                batch[cid] = 3
        g.s["flags"].update(batch=batch, site_seed=seed, privates_up=[])
        g.event("The private railways {gone} leave the game.", gone=", ".join(sorted(gone, key=_number)))
        for n in (1, 2, 3):
            g.event("Minor batch {n}: {minors}.", n=n, minors=", ".join(sorted(c for c, b in batch.items() if b == n)))
        auction.start(g)

    def auctioned_at_start(self, g: G, pid: str) -> bool:
        """The opening auction sells the private railways; the ferries and undergrounds come later."""
        return self.kind_of_private(pid) == "railway"

    def _privates_come(self, g: G, pids: list[str]) -> None:
        """Ferries or undergrounds that may now be auctioned in the stock round."""
        flags = g.s["flags"]
        new = [pid for pid in pids if pid in g.s["privates"] and pid not in flags.setdefault("privates_up", [])]
        if new:
            flags["privates_up"] = [*flags["privates_up"], *new]
            g.event("These private companies can now be auctioned in the stock round: {privates}.",
                    privates=", ".join(new))

    def next_round(self, g: G) -> None:
        """1867's rounds; the ferries come with the first stock round (18xx.games's G1807 new_stock_round)."""
        super().next_round(g)
        if g.round["kind"] == "stock" and g.round["turn"] == 1 and not g.s["over"]:
            self._privates_come(g, [p["id"] for p in self.data["privates"] if p["type"] == "ferry"])

    def site_seed(self, g: G) -> int | None:
        return g.s["flags"].get("site_seed")

    def kind_of_private(self, pid: str) -> str:
        return next(p["type"] for p in self.data["privates"] if p["id"] == pid)

    # ---- rounds ---------------------------------------------------------------------------------------

    @staticmethod
    def _end_trigger(g: G) -> str | None:
        """The first 4+4 train, or its goods side the 6G (phase 8): the current set ends, then a stock round and a set
        of three operating rounds. The bank is unlimited and never ends the game."""
        flags = g.s["flags"]
        if g.phase.name == g.title.phases[-1].name and flags.get("end_trigger") is None:
            flags["end_trigger"] = "final_phase"
            flags["final_turn"] = g.round.get("turn", 1) + 1
            g.event("The first 4+4 or 6G train has been bought: after this set, a stock round and three more "
                    "operating rounds end the game.")
        return flags.get("end_trigger")

    def after_operating_round(self, g: G) -> None:
        """At the end of each set of operating rounds in phases 4 to 7 the next depot train is exported."""
        from engines.e18xx import trains
        r = g.round
        if "train_export" not in g.phase.status or g.s["over"] or r["or"] < r["of"]:
            return
        if self._ends_now(g, self._end_trigger(g)):
            return
        upcoming = g.s["depot"]["trains"]
        if upcoming:
            train_id = upcoming[0]
            g.event("Train {train} is exported.", train=train_id)
            trains.take_from_depot(g, train_id, None)
            self.after_train_bought(g)

    def after_train_bought(self, g: G) -> None:
        """No trainless nationalisation in 1807; the privates' revenue steps of a new phase (ferries.py)."""
        ferries.step_revenues(g)

    def stock_round_start(self, g: G) -> None:
        """Minor batch 2 comes in stock round 2."""

    # ---- companies ------------------------------------------------------------------------------------

    def may_start(self, g: G, cid: str, by_merger: bool = False) -> bool:
        """Minors of a batch that has come (1 from the start, 2 from stock round 2, 3 from the first 3-train) while
        minors may start (phases 2-4); public companies from phase 4 (from phase 3 by a merger); systems never by
        themselves."""
        cdef, flags = g.cdef(cid), g.s["flags"]
        if g.corp(cid).get("closed") or g.cell(cid) is not None:
            return False
        if cdef.kind == "minor":
            batch = flags["batch"].get(cid)
            come = batch == 1 or (batch == 2 and self._stock_turn(g) >= 2) or (batch == 3 and flags.get("batch3"))
            return bool(come) and "minors_start" in g.phase.status and bool(self.home_cities(g, cid))
        if cdef.kind == "major":
            return "minors_convert" in g.phase.status if by_merger else g.phase_index() >= g.phase_index("4")
        return False

    def minors_may_start(self, g: G) -> bool:
        """Minors start only in the phases that say so (may_start)."""
        return "minors_start" in g.phase.status

    @staticmethod
    def _stock_turn(g: G) -> int:
        r = g.round
        return r.get("turn", 1) if r["kind"] in ("stock", "operating", "merger") else 1

    def home_cities(self, g: G, cid: str) -> list[tuple[str, int]]:
        if g.cdef(cid).kind == "minor":  # its printed home city, wherever an upgrade has put that city
            coord = g.map.homes[cid]
            node = g.board.home_node(coord, cid)
            return [(coord, node)] if g.board.free_slot(coord, cid, node) is not None else []
        return super().home_cities(g, cid)

    def rises_when_sold_out(self, g: G, cid: str) -> bool:
        return False  # "売切れ上がりなし": no rise when sold out

    def cert_limit(self, g: G) -> int:
        """32/24/19 by players; 21/16/13 from phase 8."""
        if g.s["flags"].get("cert_limit_reduced"):
            return self.data["cert_limit_phase_8"][str(g.n)]
        return g.title.cert_limit[g.n]

    def train_event(self, g: G, event: str) -> None:
        flags = g.s["flags"]
        if event == "minors_batch3":
            flags["batch3"] = True
            g.event("The last minors can now be started: {minors}.",
                    minors=", ".join(sorted(c for c, b in flags["batch"].items() if b == 3)))
        elif event in ("u1_available", "u2_available"):
            self._privates_come(g, [event[:2].upper()])
        elif event == "cert_limit_reduced":
            flags["cert_limit_reduced"] = True
            g.event("The certificate limit is now {limit}.", limit=self.data["cert_limit_phase_8"][str(g.n)])
            self._close_privates(g)
        elif event == "signal_end_game":
            pass  # _end_trigger sees phase 8
        else:
            raise NotImplementedError(event)

    def _close_privates(self, g: G) -> None:
        for pid, p in g.s["privates"].items():
            if not p["closed"] and g.pdef(pid).ability("closes_on_phase"):
                p["closed"] = True
        g.event("The private railways close.")

    # ---- the operating turn ---------------------------------------------------------------------------

    def operating_order(self, g: G) -> list[str]:
        """Minors, then public companies, then systems, each by share price."""
        ordered = g.operating_order(g.floated())
        return [c for kind in ("minor", "major", "system") for c in ordered if g.cdef(c).kind == kind]

    def lays_allowed(self, g: G, cid: str, laid: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """1867's two lays (the second £20 more, yellow if the first upgraded); a system a third yellow for £20."""
        found = super().lays_allowed(g, cid, laid)
        if g.cdef(cid).kind == "system" and len(laid) == 2:
            upgraded = any(x["upgrade"] for x in laid)
            return [{"upgrade": not upgraded, "cost": 20, "not_on": laid[-1]["hex"]}]
        return found

    def closings(self, g: G) -> bool:
        """A corporation whose price reaches the £0 cell closes once the move has been played out (18xx.games's
        close_corporations_in_close_cell!): its cash goes to the bank, its trains leave the game, its tokens leave
        the board, its privates close, its loans are gone, and its shares are worth nothing."""
        from engines.e18xx.g1867 import charter
        closing = [cid for cid, corp in g.s["corps"].items()
                   if corp["floated"] and not corp.get("closed") and (cell := g.cell(cid)) is not None and cell.closes]
        for cid in closing:
            corp = g.corp(cid)
            if corp["cash"]:
                g.pay(cid, BANK, corp["cash"])
            board = g.board
            for coord, node in board.token_nodes(cid):
                board = board.remove_token(coord, node, cid)
                charter.release(g, cid, coord, node)
            g.set_board(board)
            for p in g.s["privates"].values():
                if p["owner"] == cid:
                    p["closed"] = True
            g.s["market"] = {cell: [c for c in cs if c != cid] for cell, cs in g.s["market"].items() if cs != [cid]}
            corp.update(trains=[], loans=0, floated=False, president=None, shares={}, operated=False, closed=True)
            g.event("{corp} reaches the closing cell and closes; its shares are worth nothing.", corp=cid)
        return bool(closing)

    # ---- P2-P5's free lays ------------------------------------------------------------------------------

    def free_lays(self, g: G, cid: str) -> list[str]:
        """P2-P5 held by `cid`'s president, open and unused: each gives one extra yellow tile on its hex in the
        track step of a corporation its owner presides (18xx.games: "owning_player_track")."""
        president = g.key(g.president(cid))
        return [pid for pid, p in g.s["privates"].items()
                if p["owner"] == president and not p["closed"] and not p.get("used")
                and g.pdef(pid).ability("free_lay")]

    def track_held(self, g: G, cid: str) -> bool:
        """While the president has an unused P2-P5 the track step waits for a pass (as on 18xx.games, even when
        the private's hex has been built on)."""
        return bool(self.free_lays(g, cid))

    @staticmethod
    def _border_cost(g: G, coord: str, tile: str, rotation: int) -> int:
        return sum(border.cost for border in g.board.joined_borders(coord, tile, rotation))

    def private_lay_moves(self, g: G, seat: int, cid: str) -> list[dict[str, Any]]:
        from engines.e18xx.board import Lay, lay_problem
        moves: list[dict[str, Any]] = []
        board, supply = g.board, g.board.supply(g.optional_rules)
        for pid in self.free_lays(g, cid):
            ability = g.pdef(pid).ability("free_lay")
            for coord in ability["hexes"]:
                if coord in board.laid:
                    continue
                for tile in ability["tiles"]:
                    for rotation in range(6) if supply.get(tile, 0) > 0 else ():
                        if (lay_problem(board, Lay(coord, tile, rotation), g.colours, None,
                                        ability_tiles=ability["tiles"], optional_rules=g.optional_rules) is None
                                and self._border_cost(g, coord, tile, rotation) <= g.corp(cid)["cash"]):
                            moves.append({"type": "lay_tile", "entity": pid, "entity_type": "company", "hex": coord,
                                          "tile": tile, "rotation": rotation})
        return moves

    def private_lay(self, g: G, seat: int, cid: str, action: dict[str, Any]) -> bool:
        """P2-P5's free lay: a yellow tile on the private's hex, no connection needed, no terrain cost; the
        corporation pays a border cost the tile completes (the seed; docs/rules/1807.md). Used once."""
        from engines.e18xx import lays
        from engines.e18xx.board import Lay, lay_problem
        pid = action.get("entity")
        p = g.s["privates"].get(pid) if isinstance(pid, str) else None
        ability = g.pdef(pid).ability("free_lay") if p else None
        if ability is None:
            return False
        if g.round["step"] != "track" or pid not in self.free_lays(g, cid):
            raise RuleError("{private} lays its tile once, at the track step of a corporation its owner presides.",
                            private=g.private_name(pid))
        coord, tile, rotation = lays.read_lay(action)
        if coord not in ability["hexes"] or tile not in ability["tiles"]:
            raise RuleError("{private} lays tile {tiles} on {hexes}.", private=g.private_name(pid),
                            tiles=", ".join(ability["tiles"]), hexes=", ".join(ability["hexes"]))
        if g.trusted:
            lays.check_upgrade(g, coord, tile)
        else:
            problem = lay_problem(g.board, Lay(coord, tile, rotation), g.colours, None,
                                  ability_tiles=ability["tiles"], optional_rules=g.optional_rules)
            if problem:
                raise RuleError(problem)
        cost = self._border_cost(g, coord, tile, rotation)
        if cost > g.corp(cid)["cash"] and not g.trusted:
            raise RuleError("{corp} cannot pay {cost} for the border.", corp=cid, cost=g.amount(cost))
        g.pay(cid, BANK, min(cost, g.corp(cid)["cash"]))
        g.set_board(g.board.lay_tile(coord, tile, rotation))
        self.after_lay(g, cid, coord, tile)
        p["used"] = True
        g.event("[0] uses {private} to lay tile {tile} on {where} for {corp}.", seat, private=g.private_name(pid),
                tile=tile, where=g.place(coord), corp=cid)
        return True

    #: A public company formed by a merger has four tokens, the new ones £20 (18xx.games's G1807 fix_token_count!).
    merged_charter = (4, 20)

    def token_cost(self, g: G, cid: str, coord: str, base: int) -> int:
        """£20 times the distance to the nearest token, London's inset measured from the small London hex."""
        def on_map(h: str) -> str:
            return LONDON_SMALL if h in LONDON_HEXES else h
        placed = [ref[0] for ref in g.board.token_nodes(cid)]
        if not placed:
            return base
        return base * min(hexes.distance(on_map(coord), on_map(other), g.map.layout) for other in placed)

    def merge_reach(self, g: G, cid: str) -> list[tuple[str, int]]:
        """London's cities are joined to each other for a merger (the seed: "ロンドンは相互に接続されているとみなす"):
        a corporation with a token in London reaches every London city (18xx.games's G1807 Merge#connected_cities)."""
        board = g.board
        if not any(coord in LONDON_HEXES for coord, _ in board.token_nodes(cid)):
            return []
        return [(h, i) for h in LONDON_HEXES for i in board.tile(h).city_indexes()]

    def london_revenue(self, g: G) -> int:
        tile = g.board.tile(LONDON_SMALL)
        return tile.nodes[0].revenue_for(g.colours)

    def route_problem(self, g: G, cid: str, route: Route) -> Msg | None:
        """A route may enter a London city only where the corporation has a token (docs/rules/1807.md)."""
        board = g.board
        for ref in route.stops:
            if ref[0] in LONDON_HEXES and cid not in board.slots(*ref):
                return msg("A route may visit London only at a city holding one of the corporation's tokens.")
        return None

    def excluded_stops(self, g: G, cid: str) -> frozenset:
        """The stops the router may not use: London cities without the corporation's token."""
        board = g.board
        return frozenset((h, i) for h in LONDON_HEXES for i in board.tile(h).city_indexes()
                         if cid not in board.slots(h, i))

    def stop_value(self, g: G, ref, train: Train) -> int:
        if ref[0] in LONDON_HEXES:
            return self.london_revenue(g)
        return stop_revenue(g.board, ref, train, g.colours)

    def route_revenue(self, g: G, cid: str, route: Route, train: Train) -> int:
        """The stops (towns only while the distance has room), plus the border, London-offboard and private
        bonuses, all times the multiplier (18xx.games's G1807 revenue_for)."""
        board = g.board
        must = [ref for ref in route.stops if board.node(ref).kind in train.counts]
        others = sorted((ref for ref in route.stops if board.node(ref).kind not in train.counts),
                        key=lambda ref: -self.stop_value(g, ref, train))
        stops = must + others[:max(0, train.distance - len(must))]
        m = train.multiplier
        revenue = sum(self.stop_value(g, ref, train) for ref in stops) * m
        visited = [ref[0] for ref in stops]
        bonus = {k: board.tile(h).nodes[0].revenue_for(g.colours) for k, h in BONUS.items()}
        if set(visited) & SCOTLAND and set(visited) - SCOTLAND:
            revenue += bonus["scotland"] * m
        if set(visited) & WALES and set(visited) - WALES:
            revenue += bonus["wales"] * m
        if any(board.node(ref).kind == "offboard" for ref in stops) and set(visited) & set(LONDON_HEXES):
            revenue += bonus["london"] * m
        for pid in g.privates_of(cid):
            if pid in ferries.IRISH_FERRIES:
                continue  # added over all the routes together (runs_made)
            for ability in g.pdef(pid).abilities_of("hex_bonus"):
                if set(visited) & set(ability["hexes"]):
                    revenue += ability["amount"] * m
        return revenue

    def other_merger_move(self, g: G, cid: str) -> bool:
        """A public company may take the minor over (takeover.py)."""
        from engines.e18xx.g1807 import takeover
        return bool(takeover.takers(g, cid))

    # ---- goods trains and the Irish ferries ---------------------------------------------------------------

    def train(self, g: G, train_id: str) -> Train:
        """A goods train counts cities only (goods.py); the others as the title's data says."""
        if goods.is_goods(g, train_id):
            return Train(goods.goods_name(g, train_id), goods.cities_counted(g, train_id), counts=frozenset({"city"}))
        return super().train(g, train_id)

    def train_price(self, g: G, train_id: str) -> int:
        return goods.price(g, train_id)

    def train_name(self, g: G, train_id: str) -> str:
        return goods.goods_name(g, train_id) or super().train_name(g, train_id)

    def route_trains(self, g: G, cid: str) -> list[str]:
        return [t for t in g.corp(cid)["trains"] if not goods.is_goods(g, t)]

    def runs_made(self, g: G, cid: str, runs: list[dict[str, Any]]) -> int:
        """The Irish ferries' bonus over the routes together, then the goods trains' revenue (their own runs)."""
        added = ferries.irish_bonus(g, cid, runs)
        carried = goods.runs(g, cid)
        runs.extend(carried)
        return added + sum(run["revenue"] for run in carried)

    def site_extra_revenue(self, g: G, cid: str) -> int:
        return sum(run["revenue"] for run in goods.runs(g, cid))

    def turn_moves(self, g: G, seat: int, cid: str) -> list[dict[str, Any]]:
        return [*super().turn_moves(g, seat, cid), *goods.moves(g, cid)]

    def turn_move(self, g: G, seat: int, cid: str, action: dict[str, Any]) -> bool:
        if action["type"] == "buy_train" and "variant" in action:
            goods.buy(g, seat, cid, action)
            return True
        return super().turn_move(g, seat, cid, action)

    def loan_step(self, g: G, cid: str) -> None:
        """Interest (borrowing for it), then repayments; a corporation that cannot pay pays what it has and its price
        falls one step (18xx.games's G1807 interest_unpaid!)."""
        from engines.e18xx.g1867 import loans
        if not loans.pay_interest_and_repay(g, cid):
            cash = g.corp(cid)["cash"]
            if cash:
                g.pay(cid, BANK, cash)
            g.move_price(cid, g.title.market.left(g.cell(cid)))
            g.event("{cid} cannot pay all its interest: it pays {cash} and its price falls to {price}.", cid=cid,
                    cash=g.money(cash), price=g.money(g.price(cid)))

    def trains_step_done(self, g: G, cid: str) -> None:
        """A corporation that ends its train step without a train falls one step, whether or not it could have
        bought one (18xx.games's G1807 BuyTrain#pass!, which a skipped step runs too)."""
        if not g.corp(cid)["trains"] and g.cell(cid) is not None:
            g.move_price(cid, g.title.market.left(g.cell(cid)))
            g.event("{cid} has no train: its price falls to {price}.", cid=cid, price=g.amount(g.price(cid)))

    def cheapest_train_price(self, g: G) -> int | None:
        """The depot's cheapest card, or a new card's goods side when cheaper (a 3G at £450 under the 5 at £550): a
        corporation with no train that can pay it must buy a train (as 18xx.games's min_depot_price)."""
        prices = [p for p in (super().cheapest_train_price(g), goods.cheapest_price(g)) if p is not None]
        return min(prices, default=None)

    def must_buy_train(self, g: G, cid: str) -> bool:
        """1867's rule, for a corporation that may hold a train at all (a minor holds none in phase 8)."""
        return self.train_limit(g, cid) > 0 and super().must_buy_train(g, cid)

    def interrupt(self, g: G):
        return None

    # ---- systems (engines/e18xx/g1807/systems.py) -----------------------------------------------------------

    def trade_ins_allowed(self, g: G, cid: str | None = None) -> bool:
        """Systems trade trains in, even at their limit (the seed); nobody else does."""
        return cid is not None and g.cdef(cid).kind == "system"

    def may_buy_train(self, g: G, cid: str, train_id: str) -> bool:
        """The 5+5E is for systems only (the seed)."""
        return train_id.rpartition("-")[0] != "5+5E" or g.cdef(cid).kind == "system"

    def pay_dividend(self, g: G, cid: str, kind: str, revenue: int) -> None:
        if g.cdef(cid).kind == "system":
            from engines.e18xx.g1807 import systems
            return systems.dividend(g, cid, kind, revenue)
        return super().pay_dividend(g, cid, kind, revenue)

    def value(self, g: G, seat: int) -> int:
        """Cash, shares at their price (a minor's certificate at twice its price), privates at face value."""
        return g.base_value(seat)


def _number(pid: str) -> int:
    return int(pid[1:])
