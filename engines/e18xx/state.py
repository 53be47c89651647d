"""The 18xx game state as a JSON value, and `G`, a short-lived view of it with the title's data at hand.

State layout (every key is JSON; players are seats 0..n-1, written as strings "0".."5" where they hold
shares or privates, so one string names any holder: "bank", "ipo", "pool", a player, or a corporation id):

    title, n, opts {beginner_game}, trusted (a replay of a recorded log: see game.py)
    bank, cash [per seat], order [seats, priority first], bankrupt [seats]
    privates {id: {owner: None | "0".. | corp id, closed, value, revenue, used}}
    corps {id: {cash, trains [train ids], par, floated, president ("0".. | None), shares (Holdings), operated}}
    market {price cell id: [corp ids in order of arrival]}
    board (Board.to_json), depot {trains, discards, phase, bought, next_d}
    round {kind: deal | auction | stock | operating | over, ...}, bank_broken, over (end reason or None)
    events [{no, text, seats}], event_no
"""
from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import Any

from engines.base import RuleError
from engines.e18xx.board import Board, MapDef, load_map
from engines.e18xx.companies import (
    IPO,
    POOL,
    Corporation,
    Private,
    Title,
    counts_for_cert_limit,
    initial_holdings,
    is_player,
    load_title,
    player_value,
    transfer_shares,
)
from engines.e18xx.market import Cell
from engines.e18xx.rules import Rules, rules_for
from engines.text import PLAIN_JSON, Money, Msg, Name, msg, to_json

BANK = "bank"
EVENTS_KEPT = 60


def new_state(title_id: str, seats: int, beginner: bool, opts: dict[str, Any] | None = None) -> dict[str, Any]:
    """`opts`: the table's variants that change the title's companies, trains or map (Rules.game_title, game_map)."""
    rules = rules_for(title_id)
    title = rules.game_title(opts or {}, load_title(title_id))
    map_def = rules.game_map(opts or {}, load_map(f"g{title_id}"))
    options = ("beginner_game",) if beginner else ()
    privates = title.beginner_privates(seats) if beginner else title.privates_in_play(seats, options)
    start = title.starting_cash[seats]
    trains = [tid for t in title.trains for tid in t.ids()]
    trains += [f"{t.name}-0" for t in title.trains if t.count is None]  # unlimited: one copy at a time
    return {
        "title": title_id, "n": seats, "opts": {"beginner_game": beginner}, "trusted": False,
        "bank": title.bank - start * seats, "cash": [start] * seats, "order": list(range(seats)), "bankrupt": [],
        "privates": {p.id: {"owner": None, "closed": False, "value": p.value, "revenue": p.revenue, "used": False}
                     for p in privates},
        "corps": {c.id: {"cash": 0, "trains": [], "par": None, "floated": False, "president": None,
                         "shares": initial_holdings(c), "operated": False} for c in title.corporations},
        "market": {},
        "board": _printed_board(map_def),
        "depot": {"trains": trains, "discards": [], "phase": title.phases[0].name, "bought": [],
                  "next_d": {t.name: 1 for t in title.trains if t.count is None}},
        "round": {"kind": "setup"},
        "bank_broken": False, "over": None, "events": [], "event_no": 0,
    }


@lru_cache(maxsize=16)
def _printed_board(map_def: MapDef) -> dict[str, Any]:
    """A new game's board as the state keeps it, made once per map: a state's board is replaced, never changed in
    place (Board.to_json), so every game may start from the same one."""
    return Board.new(map_def).to_json()


#: The G made last (it holds its state, so no other dict can take that state's id). A module variable, not an
#: attribute of the class: writing a class's attribute renews its version, and every attribute read of a G that
#: the interpreter had specialised for the old one goes the slow way until it is specialised again (a copied
#: state, as a live table's every move makes, writes it each move; a replay's cold start, a few times: 3.5%).
_last_g: G | None = None


class G:
    """The state with its title, map and board at hand; writes go straight to the dict.

    `G(state)` of the state the last G was made for is that G again: a replay asks several questions of each state
    (who acts, the move's translation, the move itself, what follows), and each would otherwise look its title up
    and read its board anew. Sharing is safe because a G keeps nothing of the state but what it checks is still
    the state's: the board it read from the dict it was read from, the price cells from the market dict (both
    always replaced, never changed in place)."""

    def __new__(cls, state: dict[str, Any]) -> G:
        global _last_g
        last = _last_g
        if last is not None and last.s is state and type(last) is cls:
            return last
        g = super().__new__(cls)
        g.s = state
        g.rules = rules_for(state["title"])
        g.title = g.rules.game_title(state.get("opts", {}), load_title(state["title"]))
        g.map = g.rules.game_map(state.get("opts", {}), load_map(f"g{state['title']}"))
        g._cdefs = g.title._by_id["corporation"]
        g._board = None
        g._board_json = None  # the board dict `_board` was read from
        g._market = None  # the market dict `_cells` was read from
        g._cells = {}
        g.crowd_keeping = False
        g.crowd_kept = None
        g.stage_kept = None
        g.calm_kept = False
        g.stage_after = None
        _last_g = g
        return g

    s: dict[str, Any]
    title: Title
    map: MapDef
    rules: Rules
    _board: Board | None
    _board_json: dict | None
    _market: dict | None
    _cells: dict[str, Cell]
    _cdefs: dict[str, Corporation]  # the title's corporations by id (cdef is asked tens of thousands of times a game)
    # `trains.crowded`'s answer kept while nothing can be written: only inside one `E18xxGame.apply`, from its
    # `who_acts` to the start of `_move` (which takes the answer and stops the keeping before any write)
    crowd_keeping: bool
    crowd_kept: list[str] | None
    # 1867's merger round's stage (merger._stage), asked by `who_acts` in that span: the move's own first question
    # (merger.apply reads it, before any write; E18xxGame.apply drops it at the end)
    stage_kept: tuple[str, int | None] | None
    # the stage the merger move's own dealing found (a token removal or a dealer to come), for the settle after it
    # in the same E18xxGame.apply (merger.settle takes it; apply drops it at the end)
    stage_after: tuple[str, int | None] | None
    # who_acts found no chance draw and no interrupt due (rules.chance_request and rules.interrupt both None) in that
    # span: `_move` takes it instead of asking both again before the move's first write
    calm_kept: bool

    # ---- shortcuts ------------------------------------------------------------------------------------

    @property
    def round(self) -> dict[str, Any]:
        return self.s["round"]

    @property
    def trusted(self) -> bool:
        return bool(self.s.get("trusted"))

    @property
    def beginner(self) -> bool:
        return bool(self.s["opts"].get("beginner_game"))

    @property
    def n(self) -> int:
        return self.s["n"]

    def money(self, amount: int) -> str:
        """An amount as plain English text, for code no player reads (a message takes `amount`)."""
        return self.title.format_money(amount)

    def amount(self, amount: int) -> Money:
        """An amount in the title's currency for a message: each reader's language writes it (¥80 / 80円)."""
        return self.title.money_value(amount)

    def private_name(self, pid: str) -> Name:
        """A private company's name in both languages, for a message."""
        return self.pdef(pid).full_name

    def corp_name(self, cid: str) -> Name:
        """A corporation's full name in both languages, for a message."""
        return self.cdef(cid).full_name

    def place(self, coord: str) -> Name:
        """A hex as players read it, in both languages ("Kouchi (F9)" / "高知 (F9)"), for a message."""
        return self.map.place_name(coord)

    def event(self, text: str, *seats: int, **values: Any) -> None:
        """A public line of what happened: a message template (engines/text.py) and its values, stored as JSON;
        [0], [1] stand for the names of the seats given."""
        s = self.s
        no = s["event_no"] = s["event_no"] + 1
        entry = {"no": no, "text": text, "seats": list(seats)}
        if values:  # this call's own dict (keyword arguments always are): its values made JSON in place
            for key, value in values.items():
                if type(value) not in PLAIN_JSON:  # a name or a number is stored as it is
                    values[key] = to_json(value)
            entry["values"] = values
        events = s["events"]
        events.append(entry)
        if len(events) > EVENTS_KEPT:
            del events[:-EVENTS_KEPT]

    # ---- the board ------------------------------------------------------------------------------------

    @property
    def board(self) -> Board:
        data = self.s["board"]
        if data is not self._board_json:  # replaced since (by set_board, or by a caller writing the state)
            self._board, self._board_json = Board.from_json(self.map, data), data
        return self._board

    def set_board(self, board: Board) -> None:
        self._board = board
        self.s["board"] = self._board_json = board.to_json()

    @property
    def optional_rules(self) -> tuple[str, ...]:
        return ("beginner_game",) if self.beginner else ()

    # ---- cash -----------------------------------------------------------------------------------------

    def cash(self, holder: str) -> int:
        if holder == BANK:
            return self.s["bank"]
        if is_player(holder) and holder.isdigit():
            return self.s["cash"][int(holder)]
        return self.s["corps"][holder]["cash"]

    def _add(self, holder: str, amount: int) -> None:
        if holder == BANK:
            self.s["bank"] += amount
        elif holder.isdigit():
            self.s["cash"][int(holder)] += amount
        else:
            self.s["corps"][holder]["cash"] += amount

    def pay(self, payer: str, payee: str, amount: int) -> None:
        """Move money. Only the bank may go below zero (it breaks, and keeps paying)."""
        if amount < 0:
            raise RuleError("An amount cannot be negative.")
        if payer != BANK and self.cash(payer) < amount:
            if payer.isdigit():
                raise RuleError("You have {cash}; that costs {price}.", cash=self.amount(self.cash(payer)),
                                price=self.amount(amount))
            raise RuleError("{corp} has {cash}; that costs {price}.", corp=payer, cash=self.amount(self.cash(payer)),
                            price=self.amount(amount))
        self._add(payer, -amount)
        self._add(payee, amount)
        if self.s["bank"] < 0 and not self.s["bank_broken"]:
            self.s["bank_broken"] = True
            self.event(self.rules.bank_break_text)

    def pay_private_revenue(self) -> None:
        """Every owned, open private pays its revenue to its owner (a player or a corporation)."""
        for p in self.s["privates"].values():
            if p["owner"] is not None and not p["closed"] and p["revenue"]:
                self.pay(BANK, p["owner"], p["revenue"])

    # ---- players --------------------------------------------------------------------------------------

    @staticmethod
    def key(seat: int) -> str:
        return str(seat)

    @property
    def order(self) -> list[int]:
        return self.s["order"]

    def player_keys(self) -> list[str]:
        """Players in the current (priority) order, as holder keys: ties for presidencies follow it."""
        return [self.key(seat) for seat in self.order]

    def privates_of(self, holder: str) -> list[str]:
        return [pid for pid, p in self.s["privates"].items() if p["owner"] == holder and not p["closed"]]

    def cert_count(self, seat: int) -> int:
        # companies.certificate_count, without its mappings (asked many times a move): a `key in` test per
        # corporation, the certificates counted only where he holds some
        key = str(seat)
        n = 0
        corps = self.s["corps"]
        if self.title.market.every_cell_counts:
            # 1867, 1807: no price makes a certificate not count, and only the corporations with a price are read:
            # a player holds certificates only of a corporation started (its par or its start puts it on the
            # market first), and one that closes or starts again takes them back as it leaves the market
            for cid in self.cells():
                if key in (held := corps[cid]["shares"]):
                    n += len(held[key])
        else:
            cells = self.cells()
            for cid, c in corps.items():
                if key in (held := c["shares"]):  # counts_for_cert_limit inlined: asked only of the few he holds
                    if (cell := cells.get(cid)) is None or cell.counts_for_cert_limit:
                        n += len(held[key])
        if self.title.rules.get("cert_limit_counts_privates", True):
            n += self.rules.privates_counted(self, key)
        return n

    @property
    def cert_limit(self) -> int:
        return self.rules.cert_limit(self)

    def value(self, seat: int) -> int:
        return self.rules.value(self, seat)

    def base_value(self, seat: int) -> int:
        """18xx.games's score: cash, shares of parred corporations at their price, privates at face value."""
        key = self.key(seat)
        cells, corps = self.cells(), self.s["corps"]
        certs = {cid: held for cid in cells if (held := corps[cid]["shares"].get(key))}  # only the priced count
        prices = {cid: cell.price for cid, cell in cells.items()}
        faces = [self.s["privates"][pid]["value"] for pid in self.privates_of(key)]
        return player_value(self.s["cash"][seat], certs, prices, faces, self.title)

    # ---- corporations ---------------------------------------------------------------------------------

    def corp(self, cid: str) -> dict[str, Any]:
        return self.s["corps"][cid]

    def cdef(self, cid: str) -> Corporation:
        # the title's dict read here, not through Title.corporation (asked tens of thousands of times a game)
        cdef = self._cdefs.get(cid) or self.title.corporation(cid)  # the latter refuses
        if cdef.kind == "major" and (limit := self.s.get("holding_limit")):
            return _with_holding_limit(cdef, limit)  # 1867 with two players: 70% of a major instead of 60%
        return cdef

    def pdef(self, pid: str) -> Private:
        return self.title.private(pid)

    def cell(self, cid: str) -> Cell | None:
        # every corporation's cell read at once, again whenever the market changes: the market is always replaced,
        # never changed in place (move_price, with_par), and a price is read tens of times a move (`cells` inlined)
        market = self.s["market"]
        if market is not self._market:
            self._market, self._cells = market, self.title.market.positions(market)
        return self._cells.get(cid)

    def cells(self) -> dict[str, Cell]:
        """Every corporation's price cell (none: not parred), for a loop over the corporations (read, never
        written: the market's own reading, replaced when the market is)."""
        market = self.s["market"]
        if market is not self._market:
            self._market, self._cells = market, self.title.market.positions(market)
        return self._cells

    def price(self, cid: str) -> int:
        cell = self.cell(cid)
        if cell is None:
            raise RuleError("{corp} has no share price yet.", corp=cid)
        return cell.price

    def move_price(self, cid: str, to: Cell) -> None:
        if self.rules.prices_frozen(self):
            return
        market, cells = self.s["market"], self.cells()
        here = cells.get(cid)
        if here is None:
            raise ValueError(f"{cid} has no share price yet.")  # as with_move
        self.s["market"] = new = self.title.market.with_move(market, cid, to, here)
        # the cells read anew but for this one (a price is read right after most moves: reading the whole market
        # again cost as much as the move)
        self._market, self._cells = new, {**cells, cid: to}

    def president(self, cid: str) -> int | None:
        key = self.corp(cid)["president"]
        return int(key) if key is not None else None

    def floated(self) -> list[str]:
        return [cid for cid, c in self.s["corps"].items() if c["floated"]]

    def operating_order(self, corps: list[str]) -> list[str]:
        return self.title.market.operating_order(self.s["market"], corps, self.cells())

    def percent(self, cid: str, holder: str) -> int:
        return self.cdef(cid).bundle_percent(self.corp(cid)["shares"].get(holder, ()))

    def transfer(self, cid: str, certs: list[str], source: str, target: str, percent: int | None = None) -> None:
        """Move certificates and apply the presidency rule (companies.transfer_shares)."""
        corp = self.corp(cid)
        before = corp["president"]
        try:
            shares, president = transfer_shares(self.cdef(cid), corp["shares"], before, certs, source, target,
                                                self.player_keys(), percent)
        except ValueError as e:
            raise RuleError(e.args[0] if e.args and isinstance(e.args[0], Msg) else msg(str(e))) from None
        corp["shares"], corp["president"] = shares, president
        if president != before and before is not None and president is not None:
            self.event("[0] becomes president of {corp}.", int(president), corp=cid)

    def counts_toward_limit(self, cid: str) -> bool:
        return counts_for_cert_limit(self.cell(cid))

    def ipo_cert(self, cid: str) -> str | None:
        """The next certificate for sale from the IPO (a title may keep some back: 1890's reserved Kinki shares)."""
        for cert in self.s["corps"][cid]["shares"].get(IPO, ()):  # a loop, not next(genexpr): asked per corporation
            if not self.rules.reserved_cert(self, cid, cert):  # of every stock turn
                return cert
        return None

    def pool_cert(self, cid: str) -> str | None:
        certs = self.corp(cid)["shares"].get(POOL, [])
        return certs[0] if certs else None

    # ---- trains and phases ----------------------------------------------------------------------------

    @property
    def phase(self):
        return self.title.phase(self.s["depot"]["phase"])

    @property
    def colours(self) -> tuple[str, ...]:
        return self.phase.tiles

    def phase_index(self, name: str | None = None) -> int:
        try:
            return self.title.phase_indexes[name or self.s["depot"]["phase"]]
        except KeyError:
            raise ValueError(f"no phase {name!r}") from None  # as list.index did

    def train_def(self, train_id: str):
        return self.title.train(train_id.rpartition("-")[0])

    # ---- privates -------------------------------------------------------------------------------------

    def private_open(self, pid: str) -> bool:
        p = self.s["privates"].get(pid)
        return p is not None and not p["closed"]

    def ability(self, pid: str, kind: str):
        """A private's ability, or None: closed privates and the Beginner Game's privates have none."""
        p = self.s["privates"].get(pid)  # private_open and beginner inlined: asked for each private at every track step
        if p is None or p["closed"] or self.s["opts"].get("beginner_game"):
            return None
        return self.pdef(pid).ability(kind)

    def blocked_hexes(self) -> dict[str, str]:
        """Hexes a private blocks now (while unsold or held by a player), to its name."""
        blocked = {}
        for pid, p in self.s["privates"].items():
            ability = self.ability(pid, "blocks_hexes")
            if ability is None or p.get("unblocked"):  # 1890: Osaka Municipal Electric's block ends early
                continue
            owner = p["owner"]
            kind = "bank" if owner is None else ("player" if owner.isdigit() else "corporation")
            if kind in ability["while_owned_by"]:
                for coord in ability["hexes"]:
                    blocked[coord] = self.pdef(pid).full_name
        return blocked


@lru_cache(maxsize=64)
def _with_holding_limit(cdef: Corporation, limit: int) -> Corporation:
    """A major under another holding limit: made once (G.cdef is asked tens of thousands of times a game)."""
    return replace(cdef, holding_limit_percent=limit)


def total_money(state: dict[str, Any]) -> int:
    """Bank + players + corporations: the title's bank at every moment (money is only moved)."""
    return state["bank"] + sum(state["cash"]) + sum(c["cash"] for c in state["corps"].values())
