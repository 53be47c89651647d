"""The 18xx game as an Engine, for any title whose data lives in titles/g<id>/; Shikoku 1889 is the first
(rules: docs/rules/1889.md). A title is a subclass naming its id, its options and its words.

The rounds live in auction.py, stock.py and operating.py, what happens between them in rounds.py, the
state in state.py. Actions mirror 18xx.games's (import notes §3.1): bid, par, buy_shares, sell_shares,
lay_tile, place_token, run_routes, dividend, buy_train, buy_company, discard_train, bankrupt, pass, end_game;
and ours, accept_offer, decline_offer and withdraw_offer, for a price two people must agree on (operating.py).
The acting seat is the player; a corporation's action is its president's, a private's its owner's, and an
action may name its corporation or private in `entity` / `entity_type` as the site's do.

A live game checks everything and computes route revenue itself. A replay of a recorded 18xx.games log
(`trusted` in the state, set only by engines/e18xx/replay.py) does what the site does while loading a game:
it skips connectivity, rotation, blocking and route legality and takes a route's recorded revenue.
"""
from __future__ import annotations

from typing import Any

from engines.base import CHANCE, Action, Awaiting, Engine, Option, RuleError, State
from engines.e18xx import operating, privates, rounds, stock, trains
from engines.e18xx.companies import IPO, can_gain, load_title
from engines.e18xx.state import G, new_state
from engines.text import N_, Msg, msg

#: What the game waits for at each step of a corporation's turn.
STEP_PROMPTS = {"redeem": N_("{corp} operates: redeem"), "track": N_("{corp} operates: track"),
                "token": N_("{corp} operates: token"), "routes": N_("{corp} operates: routes"),
                "dividend": N_("{corp} operates: dividend"), "trains": N_("{corp} operates: trains"),
                "companies": N_("{corp} operates: companies"),
                "companies_preloan": N_("{corp} operates: companies_preloan"),
                "loans": N_("{corp} operates: loans")}

#: Who makes a move: a corporation (its president) or a private company (its owner), as 18xx.games names them.
_ENTITY = {"entity": "str?", "entity_type": "str?"}
ENTITY_TYPES = ("corporation", "company")
#: The moves a private company makes (Dougo's exchange, a tile lay, Ehime Railway declining its lay).
COMPANY_MOVES = frozenset(("buy_shares", "lay_tile", "pass"))
#: The moves a corporation makes in an operating round (its president sends them).
CORPORATION_MOVES = frozenset(("buy_shares", "lay_tile", "place_token", "run_routes", "dividend", "buy_train",
                               "buy_company", "discard_train", "bankrupt", "pass", "merge", "convert", "remove_token",
                               "choose", "merge_system", "form_system"))


#: who_acts's answers, by the seats that act (a few sets of seats: a game has at most six).
_ACTING: dict[frozenset[int], Awaiting] = {}


class E18xxGame(Engine):
    """Every 18xx title's engine: the rounds, the moves and the views, read from the title's data."""

    title_id: str  # the folder titles/g<title_id>/ and 18xx.games's title name

    #: The moves and their fields (engines/fields.py): what `legal` lists and what engines/e18xx/replay.py makes
    #: of a recorded 18xx.games action (the site's fields less id / entity of a player; a corporation's or
    #: private's action keeps `entity` and `entity_type`). A route is a dict that operating.py checks itself.
    actions = {
        "bid": {"company": "str?", "corporation": "str?", "price": "int"},
        "par": {"corporation": "str", "share_price": "str"},
        "buy_shares": {"shares": "str[]", "percent": "int?", **_ENTITY},  # entity: Dougo's exchange
        "sell_shares": {"shares": "str[]", "percent": "int?"},
        "lay_tile": {"hex": "str", "tile": "str", "rotation": "int", **_ENTITY},
        "place_token": {"hex": "str", "city": "int", **_ENTITY},
        "run_routes": {"routes": "list", **_ENTITY},
        "dividend": {"kind": "str", **_ENTITY},
        "buy_train": {"train": "str", "price": "int", "exchange": "str?", "variant": "str?", **_ENTITY},  # 1807: "3G"
        "buy_company": {"company": "str", "price": "int", **_ENTITY},
        "discard_train": {"train": "str", **_ENTITY},
        "accept_offer": {}, "decline_offer": {}, "withdraw_offer": {},
        "bankrupt": {**_ENTITY},
        "pass": {**_ENTITY},
        "end_game": {},
        "merge": {"corporation": "str", **_ENTITY}, "convert": {**_ENTITY},  # 1867's merger round
        "choose": {"choice": "str", **_ENTITY},  # 1867: a trainless major's president chooses nationalisation
        "remove_token": {"hex": "str", "city": "int", **_ENTITY},
        "merge_system": {"corporation": "str", **_ENTITY}, "form_system": {"corporation": "str", **_ENTITY},  # 1807
        "odd_shares": {"choice": "str"},  # 1807: a player's two odd shares in a system's forming
    }

    # ---- setup and turns --------------------------------------------------------------------------------

    def setup(self, options: dict[str, Any], seats: int) -> State:
        opts = self.check_setup(options, seats)
        state = new_state(self.title_id, seats, bool(opts.get("beginner_game")))
        g = G(state)
        g.rules.begin(g)
        return state

    def awaiting(self, state: State) -> Awaiting:
        g = G(state)
        kind = g.round["kind"]
        if kind == "deal":
            return Awaiting(chance=g.rules.deal_request(g))
        if (request := g.rules.chance_request(g)) is not None:  # 1890's Hanshin Tigers die
            return Awaiting(chance=request)
        module = g.rules.modules.get(kind)
        if (pending := g.rules.interrupt(g)) is not None:
            return Awaiting(frozenset({pending[0]}), prompt=pending[1])
        if kind == "auction":
            return Awaiting(frozenset({module.acting(g)}), prompt=msg("bid for a private company or pass"))
        if kind == "stock":
            seat = module.acting(g)
            if g.round.get("home"):
                return Awaiting(frozenset({seat}), prompt=msg("place {corp}'s home token", corp=g.round["home"]))
            if g.round.get("auction"):
                return Awaiting(frozenset({seat}), prompt=msg("bid for {corp} or pass",
                                                              corp=g.round["auction"]["item"]))
            if stock.must_sell(g, seat):
                return Awaiting(frozenset({seat}), prompt=msg("stock round {turn}: sell down to the limits",
                                                              turn=g.round["turn"]))
            return Awaiting(frozenset({seat}), prompt=msg("stock round {turn}: buy, sell or pass",
                                                          turn=g.round["turn"]))
        if kind == "operating":
            seats = operating.acting(g)
            if trains.crowded(g):
                return Awaiting(seats, prompt=msg("discard trains down to the limit"))
            if offer := g.round.get("offer"):
                return Awaiting(seats, prompt=msg("{corp} waits for an answer to its offer",
                                                  corp=offer["corporation"]),
                                deciding=frozenset({offer["seller_seat"]}))
            if g.round["special"]:
                return Awaiting(seats, prompt=msg("lay {private}'s tile or pass",
                                                  private=g.private_name(g.round["special"]["company"])))
            cid = operating.current(g)
            return Awaiting(seats, prompt=msg(STEP_PROMPTS.get(g.round["step"], "{corp} operates: {step}"), corp=cid,
                                              step=g.round["step"]))
        if module is not None:  # a title's own round (1867's merger round) says who acts and what it waits for
            return Awaiting(module.acting(g), prompt=module.prompt(g))
        return Awaiting()

    def who_acts(self, state: State) -> Awaiting:
        return self._who_acts(G(state))

    def _who_acts(self, g: G) -> Awaiting:
        # a round's module says who acts whatever the words (awaiting's seats are its `acting` in every round it
        # runs); the words cost more: a stock turn's ask whether he must sell, an operating turn's build messages
        # (apply asks this before every move, a replay's included)
        module = g.rules.modules.get(g.s["round"]["kind"])
        if module is None or g.rules.chance_request(g) is not None or g.rules.interrupt(g) is not None:
            return self.awaiting(g.s)  # a draw (1890's Tigers die) or a decision outside the round's turns
        if g.crowd_keeping:  # inside E18xxGame.apply, before its move: `_move` asks both again before any write
            g.calm_kept = True
        seats = module.acting(g)
        seats = seats if isinstance(seats, frozenset) else frozenset({seats})
        if (known := _ACTING.get(seats)) is None:  # an Awaiting is frozen: one per set of seats, made once (making
            known = _ACTING[seats] = Awaiting(seats)  # one, a frozen dataclass of seven fields, cost more than this)
        return known

    def can_act(self, state: State, seat: int) -> bool:
        return seat in self.awaiting(state).seats or bool(self._anytime(G(state), seat))

    # ---- actions ----------------------------------------------------------------------------------------

    def apply(self, state: State, seat: int, action: Action, *, in_place: bool = False) -> State:
        # who_acts asks trains.crowded before every move and the operating round's apply asks it again first thing,
        # with nothing written between (only checks of the move): the answer is kept for that span, and `_move`
        # ends it before anything is written (`finally`: a refused move leaves nothing kept for later questions).
        # Engine.apply's steps, with the one G of the state for who acts and, in place, for the move (G(state) of
        # the same state is that G again, but each call of the class costs as much as a question)
        g = G(state)
        g.crowd_keeping = True
        try:
            self.check_move(state, seat, action, self._who_acts(g))
            new = state if in_place else self.clone(state)
            self._move(g if in_place else G(new), seat, action)
            return new
        finally:
            g.crowd_keeping, g.crowd_kept, g.calm_kept = False, None, False
            g.stage_kept = g.stage_after = None

    def _apply(self, state: State, seat: int, action: Action) -> None:
        """Engine's step, for a caller of Engine.apply; E18xxGame.apply runs `_move` with the G it has at hand."""
        self._move(G(state), seat, action)

    def _move(self, g: G, seat: int, action: Action) -> None:
        """The move (Engine's `_apply`) on the state of `g`: apply's state itself in a replay (in place); otherwise a
        copy, whose G keeps nothing."""
        crowd, g.crowd_kept, g.crowd_keeping = g.crowd_kept, None, False  # from here on the move writes
        calm, g.calm_kept = g.calm_kept, False  # who_acts found no draw and no interrupt due just before (G.calm_kept)
        r = g.s["round"]  # the round before the move (G.round, a property, is a call)
        kind = r["kind"]
        if seat == CHANCE:
            if not calm and g.rules.chance_request(g) is not None:
                g.rules.apply_chance(g, action)
            else:
                self._deal(g, action)
            rounds.settle(g)
            return
        if not calm and g.rules.chance_request(g) is not None:
            raise RuleError("The game waits for a die roll first.")
        self._check_entity(g, action)
        move = action["type"]
        if move == "end_game":
            if not g.trusted:
                raise RuleError("A game here ends when a player goes bankrupt or after the bank breaks.")
            g.s["over"] = "manually_ended"
        elif not calm and g.rules.interrupt(g) is not None:
            g.rules.apply_interrupt(g, seat, action)
        elif r.get("offer"):
            operating.apply(g, seat, action, crowd)  # only the offer's answer is taken now
        elif move == "buy_shares" and action.get("entity_type") == "company":
            self._exchange(g, seat, action)
        elif move == "lay_tile" and action.get("entity_type") == "company" and kind == "stock":
            privates.lay_with_private(g, seat, action, in_track_of=None)
        elif kind == "operating":
            operating.apply(g, seat, action, crowd)
            if crowd == [] and move in operating.TRAINLESS_MOVES:
                # nobody was over the limit before a move that moves no train: operating.settle takes this answer
                # instead of asking again (E18xxGame.apply's `finally` drops it if settle never comes to it)
                g.crowd_kept = crowd
        elif kind in g.rules.modules:
            g.rules.modules[kind].apply(g, seat, action)
        else:
            raise RuleError("The game is over.")
        rounds.settle(g)

    @staticmethod
    def _check_entity(g: G, action: Action) -> None:
        """A move names who makes it, if anyone: a corporation of this game (`entity`, with `entity_type`
        "corporation" or left out), or a private company of it (`entity_type` "company") for the moves a private
        makes."""
        entity, entity_type = action.get("entity"), action.get("entity_type")
        if entity is None and entity_type is None:  # a player's own move (most of a game's)
            return
        if entity_type is not None and entity_type not in ENTITY_TYPES:
            raise RuleError("A move is made for a corporation or a company, not a {kind}.", kind=repr(entity_type[:20]))
        if entity is None:
            raise RuleError("A move for a {kind} names it in entity.", kind=entity_type)
        if entity_type == "company":
            if entity not in g.s["privates"]:
                raise RuleError("There is no private company {private} in this game.", private=repr(entity[:20]))
            if action["type"] not in COMPANY_MOVES:
                raise RuleError("A private company only exchanges itself for a share, lays a tile or passes.")
        else:
            if entity not in g.s["corps"]:
                raise RuleError("There is no corporation {corp} in this game.", corp=repr(entity[:20]))
            # it buys shares only back (operating round); 1807: a minor taken over for a share (merger round)
            move = action["type"]
            if move not in CORPORATION_MOVES or move == "buy_shares" and g.round["kind"] not in ("operating", "merger"):
                raise RuleError("A corporation does not make that move; its president does, as a player.")

    def _deal(self, g: G, action: Action) -> None:
        """The chance seat's shuffle at the start (1889's Beginner Game deal, 1867's two-player draw)."""
        if g.rules.deal_request(g).kind == "pick":  # 1807: the draw is the seed of 18xx.games's own setup draws
            g.rules.deal_seed(g, action)
            return
        if action.get("type") != "shuffle":
            raise RuleError("The private companies are dealt by a shuffle.")
        order = action.get("order")
        if not isinstance(order, list) or sorted(order) != list(range(len(g.rules.dealt(g)))):
            raise RuleError("A shuffle must be a permutation of the private companies.")
        g.rules.deal(g, order)

    def _exchange(self, g: G, seat: int, action: Action) -> None:
        """Dougo Railway: its owner swaps it for an IR share from the IPO, at any time in a stock or operating
        round (not in the auction, where 18xx.games has no exchange step); the private closes."""
        if g.round["kind"] not in ("stock", "operating"):
            raise RuleError("{private} is exchanged in a stock round or an operating round.",
                            private=g.private_name(action["entity"]) if action.get("entity") in g.s["privates"]
                            else action.get("entity"))
        pid = action.get("entity")
        ability = g.ability(pid, "exchange_for_share") if pid in g.s["privates"] else None
        if ability is None:
            raise RuleError("That private company cannot be exchanged for a share.")
        if g.s["privates"][pid]["owner"] != g.key(seat):
            raise RuleError("You do not own {private}.", private=g.private_name(pid))
        cid = ability["corporation"]
        shares = action.get("shares")
        held = g.corp(cid)["shares"].get(IPO, [])
        cdef = g.cdef(cid)
        if (not isinstance(shares, list) or len(shares) != 1 or shares[0] not in held
                or shares[0] == cdef.president_cert):
            raise RuleError("{private} is exchanged for one {corp} share (not the president's certificate) from the "
                            "IPO.", private=g.private_name(pid), corp=cid)
        stock.check_percent(g, cid, shares, action.get("percent"))
        if not can_gain(cdef, g.corp(cid)["shares"], g.key(seat), cdef.cert_percent(shares[0]), g.cell(cid),
                        g.cert_count(seat), g.cert_limit, exchange=True):
            raise RuleError("You may hold at most {limit}% of {corp}.", limit=cdef.holding_limit_percent, corp=cid)
        g.transfer(cid, shares, IPO, g.key(seat))
        g.s["privates"][pid]["closed"] = True
        g.event("[0] exchanges {private} for a {corp} share.", seat, private=g.private_name(pid), corp=cid)
        stock.check_float(g, cid)

    def _anytime(self, g: G, seat: int) -> list[Action]:
        """Moves a private's owner may make out of turn: the Dougo exchange (stock and operating rounds);
        Mitsubishi's port in a stock round, in the turn of a corporation its owner presides, and in an operating
        round between two corporations' turns (while the operating corporation has not moved yet). In a replay of
        a recorded game, anyone may end it (18xx.games lets a player end a game at any time)."""
        if g.s["over"]:
            return []
        moves: list[Action] = [{"type": "end_game"}] if g.trusted else []
        if g.round["kind"] not in ("stock", "operating", "auction") or g.round.get("offer"):
            return moves  # an offer waits for its answer before anything else happens
        for pid, p in g.s["privates"].items():
            ability = g.ability(pid, "exchange_for_share")
            if ability and p["owner"] == g.key(seat) and g.round["kind"] != "auction":
                cid = ability["corporation"]
                cdef = g.cdef(cid)
                cert = next((c for c in g.corp(cid)["shares"].get(IPO, []) if c != cdef.president_cert), None)
                if cert and can_gain(cdef, g.corp(cid)["shares"], g.key(seat), cdef.cert_percent(cert), g.cell(cid),
                                     g.cert_count(seat), g.cert_limit, exchange=True):
                    moves.append({"type": "buy_shares", "entity": pid, "entity_type": "company", "shares": [cert]})
        if g.round["kind"] == "stock" or privates.between_turns(g) or (
                operating.presides_turn(g, seat) and g.round["step"] == "track"):
            moves += privates.private_lays(g, seat)
        if operating.presides_turn(g, seat) and g.round["step"] == "track":
            moves += g.rules.private_lay_moves(g, seat, operating.current(g))  # a title's own (1807: P2-P5)
        return moves

    # ---- what a seat may do -----------------------------------------------------------------------------

    def legal(self, state: State, seat: int) -> list[Action]:
        """Every move `seat` may send now: the awaited seat's moves, then the out-of-turn private moves
        (Mitsubishi's port, the Dougo exchange) open to any owner, then `pass` when passing is allowed.

        Every listed move is accepted. Most moves are listed in full (every tile and rotation, token, share,
        par price, sale by percent, train, discard). Where a move takes a free amount or shape, `legal` offers a
        sensible few and `apply` takes any legal one:
        - `bid` (auction): the least bid, 5 and 20 more, while affordable; any whole amount from the least bid
          (¥5 over the face value or the best bid) up to the cash not tied up in other bids is accepted. Buying
          the cheapest private is at its current price only.
        - `run_routes`: the auto-router's best runs; any legal set of routes (at most one per train) is accepted.
        - `buy_train` from another corporation: ¥1 and the list price; any price from ¥1 to the buyer's cash is
          accepted. From a corporation with another president it is an offer: that president answers with
          `accept_offer` or `decline_offer`, and the buyer may take it back with `withdraw_offer`.
        - `buy_company` (phases 3-4, a player's private): half the face value rounded up, the face value and twice
          it; any whole amount in that range that the corporation can pay is accepted. Bought from another
          player than the president, it is an offer as above.
        - `sell_shares`: one bundle per corporation and percent (the certificates 18xx.games would take); any of
          the player's certificates of that corporation making up the percent are accepted (a bundle holding the
          president's certificate may be sold short by whole shares).
        - the Dougo exchange: the first ordinary IR share in the IPO; any ordinary IR share there is accepted.
        A player who must sell (over the certificate limit or 60% of a corporation in a stock round) is offered
        only sales.
        """
        g = G(state)
        kind = g.round["kind"]
        moves: list[Action] = []
        if g.rules.chance_request(g) is not None:
            return []
        if (pending := g.rules.interrupt(g)) is not None:
            return list(pending[2]) if seat == pending[0] else []
        if kind in g.rules.modules:
            moves = g.rules.modules[kind].legal(g, seat)
        extra = [m for m in self._anytime(g, seat) if m not in moves]
        if moves and moves[-1]["type"] == "pass":
            return [*moves[:-1], *extra, moves[-1]]
        return [*moves, *extra]

    def auto_action(self, state: State, seat: int) -> Action | None:
        g = G(state)
        if g.rules.chance_request(g) is not None:
            return None
        if (pending := g.rules.interrupt(g)) is not None:
            return pending[2][-1] if seat == pending[0] else None
        module = g.rules.modules.get(g.round["kind"])
        return module.auto(g, seat) if module else None

    def scores(self, state: State) -> list[int] | None:
        if not state["over"]:
            return None
        g = G(state)
        return [g.value(seat) for seat in range(g.n)]

    # ---- what everyone sees -----------------------------------------------------------------------------

    def public(self, state: State) -> dict[str, Any]:
        g = G(state)
        module = g.rules.modules.get(g.s["round"]["kind"])
        round_view = module.describe(g) if module else dict(g.round)
        corps = {}
        for cid, c in state["corps"].items():
            cell = g.cell(cid)
            corps[cid] = {
                "cash": c["cash"], "trains": list(c["trains"]), "par": c["par"], "floated": c["floated"],
                "price": cell.price if cell else None, "price_cell": cell.id if cell else None,
                "president": g.president(cid), "ipo_percent": g.percent(cid, IPO),
                "pool_percent": g.percent(cid, "pool"),
                "tokens_left": g.rules.tokens_left(g, cid)[0],
                "privates": g.privates_of(cid),
            }
        players = []
        for seat in range(g.n):
            key = g.key(seat)
            players.append({
                "seat": seat, "cash": state["cash"][seat], "certificates": g.cert_count(seat),
                "shares": {cid: g.percent(cid, key) for cid in state["corps"] if g.percent(cid, key)},
                "privates": g.privates_of(key), "value": g.value(seat),
            })
        return {
            "title": g.title.name, "round": round_view, "phase": state["depot"]["phase"],
            "train_limit": g.phase.train_limit, "bank": state["bank"], "bank_broken": state["bank_broken"],
            "order": list(state["order"]), "cert_limit": g.cert_limit, "players": players, "corporations": corps,
            "privates": {pid: dict(p) for pid, p in state["privates"].items()},
            "market": {cell: list(cs) for cell, cs in state["market"].items()}, "board": state["board"],
            "depot": {"offer": trains.depot_offer(g), "upcoming": list(state["depot"]["trains"]),
                      "discards": list(state["depot"]["discards"])},
            "over": state["over"], "events": [dict(e) for e in state["events"][-20:]],
        }

    has_secrets = False  # a seat's view is the public one

    def view(self, state: State, seat: int) -> dict[str, Any]:
        return self.public(state)  # an 18xx game has no secrets

    def label(self, action: Action) -> Msg | str:
        title = load_title(self.title_id)

        def money(amount: Any) -> Any:
            return title.money_value(amount) if isinstance(amount, int) and not isinstance(amount, bool) else amount

        kind = action.get("type")
        if kind == "pass":
            return msg("Pass")
        if kind == "bid":
            return msg("Bid {price} for {item}", price=money(action.get("price")), item=action.get("company"))
        if kind == "par":
            price = str(action.get("share_price", "")).split(",")[0]
            return msg("Start {corp} at {price}", corp=action.get("corporation"),
                       price=money(int(price)) if price.isdigit() else price)
        if kind == "buy_shares":
            if action.get("entity_type") == "company":
                return msg("Exchange {private} for {shares}", private=action.get("entity"),
                           shares=", ".join(action.get("shares", [])))
            return msg("Buy {shares}", shares=", ".join(action.get("shares", [])))
        if kind == "sell_shares":
            shares = action.get("shares") or ["?"]
            return msg("Sell {percent}% of {corp}", percent=action.get("percent"), corp=shares[0].rpartition("_")[0])
        if kind == "lay_tile":
            if action.get("entity_type") == "company":
                return msg("{private}: Tile {tile} on {hex}, rotation {rotation}", private=action["entity"],
                           tile=action.get("tile"), hex=action.get("hex"), rotation=action.get("rotation"))
            return msg("Tile {tile} on {hex}, rotation {rotation}", tile=action.get("tile"), hex=action.get("hex"),
                       rotation=action.get("rotation"))
        if kind == "place_token":
            return msg("Token on {hex}", hex=action.get("hex"))
        if kind == "run_routes":
            stops = sum(len(r.get("connections") or []) + 1 for r in action.get("routes", []) if r.get("connections"))
            return msg("Run {n} train(s) ({stops} stops)", n=len(action.get("routes", [])), stops=stops)
        if kind == "dividend":
            return msg("Pay out") if action.get("kind") == "payout" else msg("Withhold")
        if kind == "buy_train":
            if action.get("variant"):
                return msg("Buy train {train} as a {goods} goods train for {price}", train=action.get("train"),
                           goods=action["variant"], price=money(action.get("price")))
            if action.get("exchange"):
                return msg("Buy train {train} for {price} trading in {old}", train=action.get("train"),
                           price=money(action.get("price")), old=action["exchange"])
            return msg("Buy train {train} for {price}", train=action.get("train"), price=money(action.get("price")))
        if kind == "buy_company":
            return msg("Buy {private} for {price}", private=action.get("company"), price=money(action.get("price")))
        if kind == "discard_train":
            return msg("{corp}: discard train {train}", corp=action.get("entity"), train=action.get("train"))
        if kind == "accept_offer":
            return msg("Accept the offer")
        if kind == "decline_offer":
            return msg("Decline the offer")
        if kind == "withdraw_offer":
            return msg("Withdraw the offer")
        if kind == "bankrupt":
            return msg("Declare bankruptcy")
        if kind == "merge":
            return msg("Merge with {corp}", corp=action.get("corporation"))
        if kind == "convert":
            return msg("Convert")
        if kind == "choose":
            return msg("Nationalise") if action.get("choice") == "nationalize" else msg("Choose {choice}",
                                                                                       choice=action.get("choice"))
        if kind == "remove_token":
            return msg("Remove the token on {hex}", hex=action.get("hex"))
        if kind == "end_game":
            return msg("End the game")
        if kind == "odd_shares":  # 1807
            return msg("Odd shares: one share and a third") if action.get("choice") == "share" else msg(
                "Odd shares: four thirds")
        return super().label(action)


class Shikoku1889(E18xxGame):
    title_id = name = "1889"
    title = "Shikoku 1889"
    title_ja = "1889 (四国)"
    min_players = 2
    max_players = 6
    data_version = 1
    # uniform random play can keep raising bids in the waterfall auction with every yen the privates pay and
    # never buy the cheapest private; the auto-pass lets a player save up (tests/test_e18xx_selfplay.py)
    selfplay_auto = 0.3
    options = (
        Option("beginner_game", N_("the Beginner Game: privates dealt at random instead of auctioned, no abilities"),
               False, (False, True)),
    )


class Canada1867(E18xxGame):
    title_id = name = "1867"
    title = "1867: The Railways of Canada"
    title_ja = "1867 (カナダ)"
    min_players = 2
    max_players = 6
    data_version = 1
    options = ()


class Kansai1890(E18xxGame):
    """1890 (Kansai): the scenario option picks the title data (titles/g1890/ and its scenario folders)."""

    title_id = name = "1890"
    title = "1890 (Kansai)"
    title_ja = "1890 (関西)"
    min_players = 2
    max_players = 7
    data_version = 1
    selfplay_auto = 0.3
    #: scenario -> the title id of its data
    SCENARIOS = {"hanshin": "1890/hanshin", "keihanshin": "1890/keihanshin", "full": "1890",
                 "simplified": "1890/simplified"}
    options = (
        Option("scenario", N_("the scenario: hanshin (2-4 players), keihanshin (2-4), full (2-7) or simplified (2-7)"),
               "hanshin", tuple(SCENARIOS)),
        Option("jr_privatization", N_("variant: JR pays full dividends in phase 6"), False, (False, True)),
        Option("d_as_8", N_("variant: D-trains run to 8 stops"), False, (False, True)),
        Option("kobe_elec_converts", N_("variant: Kobe Electric must convert into a late private at phase 5"), False,
               (False, True)),
        Option("no_late_abilities", N_("variant: late privates have no abilities; Kobe Rapid Transit pays 50"),
               False, (False, True)),
        Option("end_at_400", N_("variant: the game ends when a share price reaches 400"), False, (False, True)),
        Option("kobe_rapid_control",
               N_("variant (full game): Kobe Rapid earns 10/15/20 a run through Kobe, by its colour"), False,
               (False, True)),
        Option("tile_78_restriction",
               N_("variant: the brown K-shaped city only in Nara or a city on the sea or the Yodo"), False,
               (False, True)),
        Option("incremental_floating",
               N_("variant: before phase 5 a company is paid for each share sold and floats by the train's rank"),
               False, (False, True)),
        Option("kinki_normal", N_("variant (full game): Kinki is a normal company, without minors 1-4"), False,
               (False, True)),
        Option("hidden_cash", N_("variant: each player's cash is secret until the game ends"), False,
               (False, True)),
        Option("hidden_train_prices",
               N_("variant: the price of a train bought from another company is told only to the two presidents; "
                  "treasuries are shown only to their presidents"), False, (False, True)),
        Option("tigers_die", N_("variant (full game): a die sets Nishinomiya's value for Hanshin once it is brown"),
               False, (False, True)),
        Option("earthquake", N_("variant (full game): one D-train brings the Great Hanshin Earthquake"), False,
               (False, True)),
        Option("air_raids", N_("variant: the last 3+3-train brings the air raids on Kobe and Osaka's green tiles"),
               False, (False, True)),
    )

    #: with the variants hidden_cash or hidden_train_prices (engines/e18xx/g1890/hidden.py) a seat knows more than
    #: the public view; without them (hides) the runtime never looks for private changes.
    has_secrets = True

    def hides(self, state: State) -> bool:
        from engines.e18xx.g1890 import hidden
        return hidden.hides(state)

    def public(self, state: State) -> dict[str, Any]:
        from engines.e18xx.g1890 import hidden
        return hidden.public(state, super().public(state))

    def view(self, state: State, seat: int) -> dict[str, Any]:
        from engines.e18xx.g1890 import hidden
        g = G(state)
        presided = [cid for cid in state["corps"] if g.president(cid) == seat]
        return {**self.public(state), **hidden.mine(state, seat, g.value(seat), presided)}

    def privates(self, state: State, seats: int) -> list[dict[str, Any]]:
        if not self.hides(state):
            return [{} for _ in range(seats)]
        return super().privates(state, seats)

    def setup(self, options: dict[str, Any], seats: int) -> State:
        opts = self.check_setup(options, seats)
        title_id = self.SCENARIOS[opts.get("scenario", "hanshin")]
        title = load_title(title_id)
        if not title.min_players <= seats <= title.max_players:
            raise RuleError("{title} is for {low} to {high} players.", title=title.name, low=title.min_players,
                            high=title.max_players)
        variants = {k: v for k, v in opts.items() if k != "scenario" and v}
        state = new_state(title_id, seats, False, variants)
        state["opts"].update(variants)  # the variants chosen
        g = G(state)
        g.rules.begin(g)
        return state


TITLES: dict[str, type[E18xxGame]] = {cls.title_id: cls for cls in (Shikoku1889, Canada1867)}


class BigFour1807(E18xxGame):
    title_id = name = "1807"
    title = "1807: The Big Four"
    title_ja = "1807 ビッグ・フォー"
    min_players = 3
    max_players = 5
    data_version = 1
    options = ()


TITLES: dict[str, type[E18xxGame]] = {cls.title_id: cls for cls in (Shikoku1889, Canada1867, BigFour1807)}


def trusted(state: State) -> State:
    """The state marked as a replay of a recorded log (only engines/e18xx/replay.py calls this)."""
    return {**state, "trusted": True}
