"""1890's rules hooks (docs/rules/1890.md): what differs from the shared rules (engines/e18xx/rules.py).

Companies: privates (and, in the full scenario, late privates), minors (one 100% certificate, fixed capital and
price, always 50/50), publics (JR with its own par, train limit, half dividends and two lays). The initial stock
round is isr.py. Scenario data: titles/g1890/ (the full game) and titles/g1890/<scenario>/.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache, cached_property
from types import ModuleType
from typing import TYPE_CHECKING, Any

from engines.base import RuleError
from engines.e18xx.companies import IPO, POOL, TITLES
from engines.e18xx.g1890 import abilities, air_raids, earthquake, floating, hidden, kinki, kinki_normal, tile_history
from engines.e18xx.route import Train, route_revenue
from engines.e18xx.rules import Rules
from engines.e18xx.state import BANK
from engines.text import N_, msg

if TYPE_CHECKING:
    from engines.e18xx.board import MapDef
    from engines.e18xx.companies import Title
    from engines.e18xx.route import Route
    from engines.e18xx.state import G

JR = "JR"
MINOR_ORDER = ("Kanan", "Daiki", "Daitetsu", "NaraElec", "KobeElec")
KOBE_ELEC, KOBE_ELEC_LATE = "KobeElec", "KobeElecLate"
ARIMA = "Arima"
JR_LAY_PHASES = ("1", "1.5", "2", "2.5", "3")
TOP_PRICE = 400  # the variant "the end at 400"


@cache
def raw(title: str) -> dict[str, Any]:
    """A scenario's companies.json and map.json as written (the keys the shared loaders do not read)."""
    folder = TITLES / f"g{title}"
    return {"companies": json.loads((folder / "companies.json").read_text(encoding="utf-8")),
            "map": json.loads((folder / "map.json").read_text(encoding="utf-8"))}


def late_privates(g: G) -> list[str]:
    """In the data's order: a player's moves are listed in it, and a set's order changes with each process's string
    hashing (a button posted before a restart names its move by its place in the list)."""
    return [p["id"] for p in raw(g.title.id)["companies"]["privates"] if p.get("late")]


def extra_homes(g: G) -> dict[str, list[list]]:
    """Of the companies in the game (the variant "Kinki as a normal company" has no Nara Electric)."""
    return {cid: homes for cid, homes in raw(g.title.id)["map"].get("extra_homes", {}).items() if cid in g.s["corps"]}


def is_minor(g: G, cid: str) -> bool:
    return g.cdef(cid).kind == "minor"


def close_fallen(g: G) -> None:
    """A public company whose price is in a closing cell closes (rules §7.4): its tokens leave the board, its
    trains go to the open market, its treasury to the bank, its certificates are void."""
    for cid, corp in g.s["corps"].items():
        cell = g.cell(cid)
        if cell is None or not cell.closes or corp.get("closed"):
            continue
        kinki.wind_up(g, cid)
        for pid in g.privates_of(cid):
            g.s["privates"][pid]["closed"] = True
        g.s["market"] = {c: [x for x in cs if x != cid] for c, cs in g.s["market"].items()}
        g.s["market"] = {c: cs for c, cs in g.s["market"].items() if cs}
        corp.update(closed=True, floated=False, president=None, shares={})
        g.event("{corp} closes: its price fell into the closing cells.", corp=cid)


#: The variant "tile placement restrictions" (option tile_78_restriction; docs/rules/1890.md ruling 30): the brown
#: K-shaped 40 city, the Japanese rules' #78 (our 193, CONFLICTS), only in Nara or a city on the sea or the Yodo.
TILE_78 = "193"
TILE_78_HEXES = ("H19",  # Nara
                 "F3", "F5", "F7", "F9", "F11", "G12", "H11", "J11", "L9", "M8",  # on Osaka Bay
                 "C18", "D15", "E14", "E16", "F13", "F15", "G14")  # on the Yodo


@cache
def _tile_78_map(map_def: MapDef) -> MapDef:
    from dataclasses import replace
    return replace(map_def, tile_hexes={**map_def.tile_hexes, TILE_78: TILE_78_HEXES})


def at_the_top(g: G) -> bool:
    """The variant "end of game when highest stock price is reached" (option end_at_400; rules, 1890 scenario,
    Variants): whether a public company's share price stands at 400 (the market's top cell)."""
    return abilities.option(g, "end_at_400") and any(
        g.cell(cid) is not None and g.price(cid) >= TOP_PRICE for cid in g.floated())


class Rules1890(Rules):
    bank_break_text = N_("The bank has broken: the game ends at the end of this game turn.")

    def game_map(self, options: Mapping[str, Any], map_def: MapDef) -> MapDef:
        if kinki_normal.chosen(options):
            map_def = kinki_normal.game_map(map_def)
        return _tile_78_map(map_def) if options.get("tile_78_restriction") else map_def

    def game_title(self, options: Mapping[str, Any], title: Title) -> Title:
        return kinki_normal.title(title) if kinki_normal.chosen(options) else title

    def cash_public(self, g: G) -> bool:
        return not hidden.cash_hidden(g.s)

    def treasuries_public(self, g: G) -> bool:
        return not hidden.treasuries_hidden(g.s)

    def trade_price_public(self, g: G) -> bool:
        return not hidden.treasuries_hidden(g.s)

    def record_secret_trade(self, g: G, cid: str, seller: str, train_id: str, price: int) -> None:
        hidden.record_trade(g.s, g.president(cid), g.president(seller), cid, seller, train_id, price)

    @cached_property
    def modules(self) -> dict[str, ModuleType]:
        from engines.e18xx import operating
        from engines.e18xx.g1890 import isr, stock
        return {"isr": isr, "stock": stock, "operating": operating}

    # ---- rounds ---------------------------------------------------------------------------------------

    def begin(self, g: G) -> None:
        from engines.e18xx.g1890 import isr
        g.s["flags"] = {"arima_discount": 0, "bids": {}, "subway_operated": False, "expo": None}
        board = g.board
        reserved = dict(board.reserved)
        for cid, homes in extra_homes(g).items():
            for coord, node in homes:
                reserved[board._reserve_key(coord, node)] = cid
        if "Kinki" in g.s["corps"] and not kinki.with_minors(g):  # Simplified: Kinki's home tokens to come
            for coord, node in kinki.AUTO.values():
                reserved[board._reserve_key(coord, node)] = "Kinki"
        if abilities.option(g, "no_late_abilities") and "KobeRapid" in g.s["privates"]:
            g.s["privates"]["KobeRapid"]["revenue"] = 50
        from dataclasses import replace
        g.set_board(replace(board, reserved=reserved))
        isr.start(g, 1)

    def next_round(self, g: G) -> None:
        from engines.e18xx import operating, rounds
        from engines.e18xx.g1890 import isr, stock
        r = g.round
        if r["kind"] == "isr":
            if isr.unsold(g):
                rounds.rotate(g, isr.priority_seat(g))
                floating.float_at_operating_start(g)
                operating.start(g, r["turn"], 1, g.phase.operating_rounds)
            else:
                g.s["flags"]["bids"] = {}
                rounds.rotate(g, isr.priority_seat(g))
                stock.start(g, r["turn"])
        elif r["kind"] == "stock":
            if at_the_top(g):  # the sold-out rises of the round's end took a price to 400
                rounds.end_game(g, "top_price")
                return
            rounds.rotate(g, stock.priority_seat(g))
            floating.float_at_operating_start(g)
            operating.start(g, r["turn"], 1, g.phase.operating_rounds)
        elif r["kind"] == "operating":
            if r["or"] < r["of"]:
                floating.float_at_operating_start(g)
                operating.start(g, r["turn"], r["or"] + 1, r["of"])
                return
            self._end_of_game_turn(g)
            if g.s["bank_broken"]:
                rounds.end_game(g, "bank")
            elif r["turn"] >= g.title.rules["game_turns"]:
                rounds.end_game(g, "final_phase")
            elif isr.unsold(g):
                isr.start(g, r["turn"] + 1)
                earthquake.stock_round_begins(g)
            else:
                stock.start(g, r["turn"] + 1)
                earthquake.stock_round_begins(g)

    def operating_turn_done(self, g: G, cid: str) -> None:
        """The end at 400: a price that reached it in this turn ends the game now, after the whole turn."""
        if at_the_top(g):
            g.s["over"] = "top_price"

    def _end_of_game_turn(self, g: G) -> None:
        """Arima gets 5 cheaper for each game turn that ends with it unsold (rules §"Arima ... price decrease")."""
        from engines.e18xx.g1890 import isr
        if ARIMA in isr.unsold(g):
            g.s["flags"]["arima_discount"] += isr.INCREMENT
            g.event("{private} is still unsold: it now costs {price}.", private=g.private_name(ARIMA),
                    price=g.amount(isr.price_now(g, ARIMA)))

    # ---- the initial stock round's purchases ----------------------------------------------------------

    def private_bought(self, g: G, pid: str, seat: int) -> None:
        """What comes with a private: a share of Hanshin or Keihan; the Subway's president's certificate."""
        for ability in g.pdef(pid).abilities:
            if ability["kind"] == "attached_share":
                cid = ability["corporation"]
                cert = next(c for c in g.corp(cid)["shares"][IPO] if c != g.cdef(cid).president_cert)
                g.transfer(cid, [cert], IPO, g.key(seat))
                g.event("[0] receives a {corp} share with {private}.", seat, corp=cid, private=g.private_name(pid))
            elif ability["kind"] == "subway_president":
                g.s["privates"][pid]["value"] = 0
                g.round["par"] = {"corporation": ability["corporation"], "seat": seat}

    def minor_started(self, g: G, cid: str, seat: int) -> None:
        """The buyer of Osaka Electric Railroad sets Kinki's par price at once; a minor bought after its merger was
        due merges at once."""
        if cid == "Daiki" and "Kinki" in g.s["corps"]:
            g.round["par"] = {"corporation": "Kinki", "seat": seat}
        elif kinki.formed(g):
            kinki.forced(g)

    def set_par(self, g: G, cid: str, cell, seat: int) -> None:
        from engines.e18xx import stock
        g.s["market"] = g.title.market.with_par(g.s["market"], cid, cell)
        g.corp(cid)["par"] = cell.price
        if cid == "Subway":
            g.transfer(cid, [g.cdef(cid).president_cert], IPO, g.key(seat))
            g.corp(cid)["president"] = g.key(seat)
        g.event("[0] sets the par price of {corp} at {price}.", seat, corp=cid, price=g.amount(cell.price))
        if cid == "Kinki":
            kinki.forced(g)  # Osaka Electric Railroad bought after its conversion was due
        else:
            stock.check_float(g, cid)

    # ---- companies ------------------------------------------------------------------------------------

    def ipo_payee(self, g: G, cid: str) -> str:
        """The bank, or with the variant "public company floatation" the company itself (floating.py)."""
        return cid if floating.pays_itself(g, cid) else BANK

    def floats_on_sale(self, g: G, cid: str) -> bool:
        return floating.floats_on_sale(g, cid)

    def float_capital(self, g: G, cid: str) -> int:
        return floating.float_capital(g, cid, super().float_capital(g, cid))

    def may_par(self, g: G, cid: str) -> bool:
        """Publics are started in a stock round; minors are sold in the initial stock round; the Subway's and
        Kinki's par prices are set by the buyers of their predecessors."""
        if cid == "Kinki" and not kinki.with_minors(g):
            return not g.corp(cid).get("closed")  # Simplified: Kinki is a normal company
        return not is_minor(g, cid) and cid not in ("Subway", "Kinki") and not g.corp(cid).get("closed")

    def par_cells(self, g: G, cid: str) -> tuple:
        """JR's par price is 100; the others choose 65 to 100."""
        cells = g.title.market.par_cells
        return tuple(c for c in cells if c.price == 100) if cid == JR else cells

    def train_limit(self, g: G, cid: str) -> int:
        kind = "jr" if cid == JR else g.cdef(cid).kind
        return g.phase.limit_for(kind)

    def train_limits(self, g: G) -> Mapping[str, int]:
        """JR's own limit too (6/4/3): the shared table knows only the kinds of the charters (JR is a major)."""
        return {cid: self.train_limit(g, cid) for cid in g.s["corps"]}

    def rises_when_sold_out(self, g: G, cid: str) -> bool:
        return not is_minor(g, cid)

    def privates_counted(self, g: G, holder: str) -> int:
        """Kobe Electric as a late private does not count toward the certificate limit."""
        return len([pid for pid in g.privates_of(holder) if pid != KOBE_ELEC_LATE])

    def reserved_cert(self, g: G, cid: str, cert: str) -> bool:
        """With the minors (the full game) Kinki's president's certificate and four shares wait for the minors that
        merge into it: only four Kinki shares are sold from the IPO (rules §"Kinki")."""
        return cid == "Kinki" and kinki.with_minors(g) and cert in kinki.RESERVED

    def may_buy_private(self, g: G, cid: str, pid: str) -> bool:
        """Public companies buy privates (never late privates; never Osaka Municipal Electric in the full game)."""
        if is_minor(g, cid) or pid in late_privates(g):
            return False
        return not any(a["kind"] == "subway_president" for a in g.pdef(pid).abilities)

    def train(self, g: G, train_id: str) -> Train:
        """A 2+2 (3+3) runs to 2 (3) cities or offboards plus 2 (3) towns: it visits 4 (6) stops, paid for the best
        2 (3) of each kind (rules §"Types of trains")."""
        name = train_id.rpartition("-")[0] if "-" in train_id else train_id
        if "+" in name:
            n = int(name.split("+")[0])
            return Train(name, n, counts=frozenset({"city", "offboard"}), towns=n)
        if name == "D" and abilities.option(g, "d_as_8"):
            return Train(name, 8, diesel=True)
        return super().train(g, train_id)

    def revenue_colours(self, g: G) -> tuple[str, ...]:
        """Offboards pay their left value in phases 1-3, the middle one in 4-5 and the right one in 6."""
        return (*g.colours, "gray") if g.phase.name == "6" else g.colours

    def route_revenue(self, g: G, cid: str, route: Route, train: Train) -> int:
        """Every stop of the route pays (a 2+2's route has at most 2 cities or offboards and 2 towns)."""
        return route_revenue(g.board, route, train, self.revenue_colours(g))

    def route_board(self, g: G, cid: str):
        return earthquake.route_board(g, abilities.route_board(g, cid))

    def lay_board(self, g: G, cid: str):
        """Osaka Railway lays track from Osaka Electric Railroad's token, as its trains run from it (C8.3); the
        earthquake's face-down tokens are no stations."""
        return earthquake.route_board(g, abilities.shared_home(g) if cid == abilities.DAITETSU else g.board)

    def runs_made(self, g: G, cid: str, runs: list[dict[str, Any]]) -> int:
        return abilities.runs_made(g, cid, runs)

    def chance_request(self, g: G):
        return abilities.tigers_request(g) or earthquake.request(g)

    def apply_chance(self, g: G, action: dict[str, Any]) -> None:
        if abilities.tigers_request(g) is not None:
            abilities.tigers_roll(g, action)
        elif earthquake.request(g) is not None:
            earthquake.apply_draw(g, action)
        else:
            raise RuleError("Nothing is drawn now.")

    def prices_frozen(self, g: G) -> bool:
        return earthquake.active(g)

    # ---- the operating round --------------------------------------------------------------------------

    def operating_order(self, g: G) -> list[str]:
        """Minors by number, then publics by share price."""
        floated = g.floated()
        minors = [c for c in MINOR_ORDER if c in floated]
        return minors + g.operating_order([c for c in floated if not is_minor(g, c)])

    def home_tokens_at_operating_start(self, g: G) -> bool:
        return False

    def operating_round_start(self, g: G) -> None:
        """Newly started companies put their home tokens down (JR has four homes, Nara Electric two); Simplified:
        Kinki's home tokens of the phase; the subsidies; the Subway's first turn lifts Osaka Municipal Electric's
        block."""
        self._homes(g)
        kinki.place_auto_tokens(g)
        abilities.subsidies(g)
        abilities.subway_starts(g)

    def _homes(self, g: G) -> None:
        for cid in g.s["round"]["order"]:
            if g.board.token_nodes(cid):
                continue
            homes = ([[g.map.homes[cid], g.map.home_nodes.get(cid)]] if cid in g.map.homes else [])
            homes += extra_homes(g).get(cid, [])
            for coord, node in homes:
                board = g.board
                if node is None:
                    node = board.home_node(coord, cid) or 0
                if board.free_slot(coord, cid, node) is None:
                    continue
                g.set_board(board.place_token(coord, cid, node))
                if cid == "Kinki":
                    kinki.home_placed(g)
                g.event("{corp} places its home token on {where}.", corp=cid, where=g.place(coord))

    def lays_allowed(self, g: G, cid: str, laid: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """One lay or upgrade; JR two on different hexes in phases 1-3; a public owning Arima one more on Arima,
        without a connection."""
        if abilities.subway_first_lay(g, cid):  # its first turn: one tile, free in Osaka
            return [] if laid else [{"upgrade": True, "cost": 0, "hexes": list(abilities.OSAKA), "free": True},
                                    {"upgrade": True, "cost": 0}]
        arima = [lay for lay in laid if lay["hex"] == "D7"]
        normal = len(laid) - len(arima[:1])
        slots = []
        allowed = 2 if cid == JR and g.phase.name in JR_LAY_PHASES else 1
        if normal < allowed:
            slot = {"upgrade": True, "cost": 0}
            if laid:
                slot["not_on"] = laid[-1]["hex"]
            slots.append(slot)
        owns_arima = ARIMA in g.privates_of(cid) and g.ability(ARIMA, "extra_lay")
        if owns_arima and not arima and "D7" in g.map.printed and g.board.tile("D7").colour == "white":
            slots.insert(0, {"upgrade": False, "cost": 0, "hexes": ["D7"], "connected": False})
        return slots

    def token_step_open(self, g: G, cid: str) -> bool:
        """Minors place no tokens besides their homes; a public may pay Kobe Rapid Transit's fee instead."""
        if is_minor(g, cid):
            return False
        return (super().token_step_open(g, cid) or abilities.kobe_fee_open(g, cid)
                or hidden.token_might_open(g, cid, super().token_step_open))

    def next_token_price(self, g: G, cid: str) -> int | None:
        """Kinki's own; the air raids' tokens waiting on a tile are not on the charter, one taken back costs 100."""
        if cid == "Kinki":
            return kinki.next_token_price(g)
        from engines.e18xx import operating
        costs = g.cdef(cid).tokens
        used = operating.tokens_used(g, cid) + air_raids.waiting_tokens(g, cid)
        return air_raids.token_price(g, cid, costs[used] if used < len(costs) else None)

    def tokens_left(self, g: G, cid: str) -> tuple[int, int]:
        if cid == "Kinki":
            return kinki.tokens_left(g)
        left, total = super().tokens_left(g, cid)
        return left - air_raids.waiting_tokens(g, cid), total

    def token_placed(self, g: G, cid: str, coord: str, node: int) -> None:
        air_raids.token_placed(g, cid)

    def after_lay(self, g: G, cid: str, coord: str, tile: str) -> None:
        abilities.hankyu_lay(g, cid, tile)
        tile_history.record(g, coord)
        air_raids.after_lay(g, coord)

    def dividend_kinds(self, g: G, cid: str) -> tuple[str, ...]:
        if is_minor(g, cid):
            return ()
        if cid == JR and not (abilities.option(g, "jr_privatization") and g.phase.name == "6"):
            return ("half", "withhold")
        return ("payout", "withhold")

    def pay_dividend(self, g: G, cid: str, kind: str, revenue: int) -> None:
        """Minors: half to the owner, the rest to the treasury, no price. JR: a half dividend pays shareholders
        10 x (revenue // 20), the treasury keeps the rest, and the price moves right."""
        from engines.e18xx import operating
        if is_minor(g, cid):
            owner = g.corp(cid)["president"]
            paid = revenue // 2
            if revenue:
                g.pay(BANK, owner, paid)
                g.pay(BANK, cid, revenue - paid)
                g.event("{corp} earns {revenue}: {paid} to [0], {kept} to its treasury.", int(owner), corp=cid,
                        revenue=g.amount(revenue), paid=g.amount(paid), kept=g.amount(revenue - paid))
            return
        revenue = earthquake.income(g, cid, revenue)
        if kind == "half" and revenue:
            operating.payout(g, cid, revenue, kept=revenue - 10 * (revenue // 20))
        elif kind == "payout" and revenue:
            operating.payout(g, cid, revenue)
        elif cid == "Kinki" and g.round.get("kinki_first"):
            g.pay(BANK, cid, revenue)  # its first turn: the price does not fall
            g.event("{corp} withholds {revenue}; in its first turn its price stays at {price}.", corp=cid,
                    revenue=g.amount(revenue), price=g.amount(g.price(cid)))
        else:
            operating.withhold(g, cid, revenue)
        close_fallen(g)

    def turn_moves(self, g: G, seat: int, cid: str) -> list[dict[str, Any]]:
        """Kobe Electric may convert into a late private at any point of its turn; minors 1, 2 and 4 may merge into
        (Daiki: convert into) Kinki in theirs; in the token step a public may pay Kobe Rapid Transit's fee."""
        moves = kinki.moves(g, cid)
        if cid == KOBE_ELEC and KOBE_ELEC_LATE in g.s["privates"] and not g.corp(cid).get("closed"):
            moves.append({"type": "convert", "entity": cid})
        if g.round.get("step") == "token" and abilities.kobe_fee_open(g, cid):
            moves.append({"type": "choose", "choice": "kobe_rapid", "entity": cid})
        if earthquake.may_flip(g, cid):
            moves.append({"type": "choose", "choice": "flip_itami", "entity": cid})
        return moves + air_raids.take_back_moves(g, cid)

    def turn_move(self, g: G, seat: int, cid: str, action: dict[str, Any]) -> bool:
        if action["type"] not in ("convert", "merge", "choose"):
            return False
        if {**action, "entity": cid} not in self.turn_moves(g, seat, cid):
            if action.get("choice") == "flip_itami":
                raise RuleError("{corp} cannot turn its token in Itami face up now.", corp=cid)
            if str(action.get("choice")).startswith(air_raids.TAKE_BACK):
                raise RuleError("{corp} has no token waiting there.", corp=cid)
            if action["type"] == "choose":
                raise RuleError("{corp} cannot pay Kobe Rapid Transit's fee now.", corp=cid)
            raise RuleError("{corp} cannot convert or merge now.", corp=cid)
        if action["type"] == "choose" and action.get("choice") == "flip_itami":
            earthquake.flip(g, cid)
            return True
        if action["type"] == "choose" and str(action.get("choice")).startswith(air_raids.TAKE_BACK):
            air_raids.take_back(g, cid, action["choice"])
            return True
        if action["type"] == "choose":
            abilities.pay_kobe_fee(g, cid)
            from engines.e18xx import operating
            if not operating.step_open(g, cid, "token"):
                operating._next_step(g)
            return True
        if cid != KOBE_ELEC:
            kinki.declare(g, cid)
            return True
        self.convert_kobe_elec(g, cid)
        return True

    def convert_kobe_elec(self, g: G, cid: str) -> None:
        corp = g.corp(cid)
        kinki.wind_up(g, cid)
        owner = corp["president"]
        corp.update(closed=True, floated=False, president=None, shares={})
        g.s["privates"][KOBE_ELEC_LATE]["owner"] = owner
        g.event("{corp} becomes a late private company of [0]; its assets go to the bank.", int(owner), corp=cid)

    # ---- decisions that come first ----------------------------------------------------------------------

    def interrupt(self, g: G):
        """Kanan's owner decides whether it merges as Kinki forms; a player answers an offer for his private."""
        if g.s["over"]:
            return None
        if (relief := earthquake.interrupt(g)) is not None:
            return relief
        if (choice := kinki.kanan_choice(g)) is not None:
            seat, moves = choice
            return seat, msg("Kinki Nippon Railway forms: merge {corp} into it now?", corp=kinki.KANAN), moves
        offer = g.round.get("offer") if g.round.get("kind") == "stock" else None
        if offer:
            return offer["seller_seat"], msg("[0] offers {price} for {private}: accept or decline",
                                             price=g.amount(offer["price"]),
                                             private=g.private_name(offer["company"])), [
                {"type": "accept_offer"}, {"type": "decline_offer"}]
        return None

    def apply_interrupt(self, g: G, seat: int, action: dict[str, Any]) -> None:
        pending = self.interrupt(g)
        if pending is None or seat != pending[0]:
            raise RuleError("It is not your turn.")
        if action not in pending[2] and {k: v for k, v in action.items() if k != "entity"} not in [
                {k: v for k, v in m.items() if k != "entity"} for m in pending[2]]:
            raise RuleError("Answer the question first.")
        if earthquake.interrupt(g) is not None:
            earthquake.apply_sale(g, seat, action)
            return
        if g.s["flags"].get("kanan_choice"):
            kinki.answer_kanan(g, action)
            return
        from engines.e18xx.g1890 import stock
        stock.answer_offer(g, seat, action)

    def train_event(self, g: G, event: str) -> None:
        if event == "close_privates":
            late = late_privates(g)
            closed = []
            for pid, p in g.s["privates"].items():
                if p["closed"] or pid in late:
                    continue
                kinds = {a["kind"] for a in g.pdef(pid).abilities}
                if "never_closes" in kinds:
                    change = g.pdef(pid).ability("revenue_change")
                    if change:
                        p["revenue"] = change["revenue"]
                        g.event("{private} stays open and now pays {revenue}.", private=g.private_name(pid),
                                revenue=g.amount(p["revenue"]))
                    continue
                if "subway_president" in kinds:
                    continue
                p["closed"] = True
                closed.append(g.private_name(pid))
            if closed:
                g.event("Private companies close: {privates}.", privates=closed)
        elif event == "expo":
            g.s["flags"]["expo"] = "due"
            if "KitaKyu" in g.s["privates"]:
                g.event("Expo '70 is coming: {private} pays {amount} more in the next operating round.",
                        private=g.private_name("KitaKyu"), amount=g.amount(abilities.SUBSIDY))
        else:
            super().train_event(g, event)

    def after_train_bought(self, g: G) -> None:
        """A price in the closing cells; the mergers into Kinki the phase now demands; Osaka Municipal Electric
        closes once the Subway has a train; variant: Kobe Electric converts at phase 5."""
        close_fallen(g)
        kinki.forced(g)
        abilities.subway_train_bought(g)
        earthquake.train_bought(g)
        if g.round.get("kind") == "operating":
            from engines.e18xx import operating
            air_raids.train_bought(g, operating.current(g))
        if (abilities.option(g, "kobe_elec_converts") and kinki.phase_at_least(g, "5")
                and KOBE_ELEC in g.s["corps"] and kinki.open_minor(g, KOBE_ELEC)):
            self.convert_kobe_elec(g, KOBE_ELEC)

    def trains_step_done(self, g: G, cid: str) -> None:
        close_fallen(g)

    def value(self, g: G, seat: int) -> int:
        """Cash, shares at their price, privates and minors at face value (rules §"End of the game"), less the
        earthquake's relief still owed when the game ends before the stock round it is due in."""
        key = g.key(seat)
        minors = sum(g.title.rules["minor_face_and_capital"][cid][0] for cid, c in g.s["corps"].items()
                     if is_minor(g, cid) and c["president"] == key and not c.get("closed"))
        return g.base_value(seat) + minors - earthquake.owed(g, seat)


def pool_percent(g: G, cid: str) -> int:
    return g.percent(cid, POOL)
