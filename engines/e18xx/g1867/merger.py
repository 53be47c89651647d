"""1867's merger round, after each operating round of phases 3 to 7 (18xx.games's G1867 Merger round).

Each floated minor in turn (by share price) may, by its owner:
- convert (its price in the convert range): it becomes a major its owner chooses, at the dearest major par price at
  most its own, the owner taking the president's certificate for free;
- merge with minors its network reaches (at most 10 together, at most 6 of one owner), adding them one by one, then
  choosing the major they become: its price the dearest major par price at most the highest plus the lowest minor
  price (between 100 and 200); each minor's owner takes one 10% certificate for free (a second one held swaps for
  the president's while it is still unsold);
- or pass.
The major takes the minors' tokens, cash, privates, loans and trains. Then: tokens over the limit of 2 (or two in
one hex) are removed by its president; the owners of the minors, from the first, buy 10% certificates from its
treasury at its price, as many as they like, then every player, from the president, one each; then it discards
trains over its limit. The next minor follows.

Round state: turn, or, of (the operating round it follows), minors [ids], index, merging [ids] (being gathered),
choosing ("convert" | "merge" | None: the minor's owner now names the major), target (the major being formed),
dealers [seats still to buy], multiple [seats who may buy more than one]. A minor with nothing to do is passed over
and noted in the state's `auto_passes`: 18xx.games records a pass for it, and engines/e18xx/export.py writes it.
"""
from __future__ import annotations

from typing import Any

from engines.base import Action, RuleError
from engines.e18xx import trains
from engines.e18xx.board import Board
from engines.e18xx.companies import IPO
from engines.e18xx.g1867 import charter
from engines.e18xx.state import G
from engines.text import Msg, msg

LIMIT_MERGE = 10
LIMIT_OWNED_BY_ONE = 6
TOKENS_AFTER_MERGER = 2
MERGE_PRICE_RANGE = (100, 200)


def start(g: G, turn: int, number: int, of: int) -> None:
    minors = [cid for cid in g.rules.operating_order(g) if g.cdef(cid).kind == "minor"]
    g.s["round"] = {"kind": "merger", "turn": turn, "or": number, "of": of, "minors": minors, "index": 0,
                    "merging": [], "choosing": None, "target": None, "dealers": [], "multiple": []}
    g.event("Merger round {turn}.{number} begins.", turn=turn, number=number)


def current(g: G) -> str | None:
    r = g.s["round"]
    return r["minors"][r["index"]] if r["index"] < len(r["minors"]) else None


def _tokens_to_remove(g: G) -> bool:
    cid = g.s["round"]["target"]
    return bool(cid) and g.s["round"].get("reducing", False) and _tokens_to_remove_for(g, cid)


def _tokens_to_remove_for(g: G, cid: str) -> bool:
    placed = [ref[0] for ref in g.board.token_nodes(cid)]
    return len(placed) > TOKENS_AFTER_MERGER or len(set(placed)) != len(placed)


def _eligible(g: G) -> int | None:
    """The first dealer who may buy a certificate of the new major now (the dealing's turn), or None."""
    return next((s for s in g.s["round"]["dealers"] if _buyable(g, s)), None)


def _buyable(g: G, seat: int) -> str | None:
    """The treasury certificate `seat` may buy of the new major, if any."""
    cid = g.s["round"]["target"]
    cdef, corp = g.cdef(cid), g.corp(cid)
    price = g.price(cid)
    for cert in corp["shares"].get(IPO, []):
        if cdef.cert_percent(cert) != 10:
            continue
        if g.s["cash"][seat] >= price and g.rules.may_gain(g, seat, cid, 10):
            return cert
        return None
    return None


def stage(g: G) -> str:
    """What the round waits for, in 18xx.games's order of steps: a new major's token removals ("reduce"), its share
    dealing ("deal"), any corporation's train discards ("discard", also after a train export), else the minor's
    merge, conversion or pass ("minor")."""
    return _stage(g)[0]


def _stage(g: G) -> tuple[str, int | None]:
    """The stage, and in a dealing the dealer whose turn it is (found on the way: acting needs him too)."""
    if _tokens_to_remove(g):
        return "reduce", None
    if g.s["round"]["target"] and (dealer := _eligible(g)) is not None:
        return "deal", dealer
    if trains.crowded(g):
        return "discard", None
    return "minor", None


def acting(g: G) -> frozenset[int]:
    now = _stage(g)
    if g.crowd_keeping:  # who_acts inside E18xxGame.apply, before its move: apply's first question is this one
        g.stage_kept = now
    return _acting(g, *now)


def _acting(g: G, now: str, dealer: int | None) -> frozenset[int]:
    """Who acts at this stage (`_stage`'s answer, for a caller that has it already)."""
    r = g.s["round"]
    if now == "reduce":
        return frozenset({g.president(r["target"])})
    if now == "deal":
        return frozenset({dealer})
    if now == "discard":
        return frozenset(g.president(c) for c in trains.crowded(g))
    cid = current(g) if not r["target"] else None
    return frozenset({g.president(cid)}) if cid else frozenset()


def prompt(g: G) -> Msg:
    r = g.round
    now = stage(g)
    if now == "reduce":
        return msg("{corp} removes tokens down to {n}", corp=r["target"], n=TOKENS_AFTER_MERGER)
    if now == "deal":
        return msg("buy a share of {corp} or pass", corp=r["target"])
    if now == "discard":
        return msg("{corps} discards trains down to the limit", corps=", ".join(trains.crowded(g)))
    if r["choosing"]:
        return msg("choose the major {corp} becomes", corp=current(g))
    return msg("{corp} may convert, merge or pass", corp=current(g))


def finished(g: G) -> bool:
    return current(g) is None and not g.s["round"]["target"] and not trains.crowded(g)


# ---- what a minor can do --------------------------------------------------------------------------------

def can_convert(g: G, cid: str) -> bool:
    return g.cdef(cid).kind == "minor" and "convert_range" in g.cell(cid).types


def candidates(g: G, cid: str) -> list[str]:
    """Minors the merge of `cid` (and those gathered so far) may add: any whose token is in a city their tracks
    reach (or the title counts as reached: Rules1867.merge_reach)."""
    merging = g.round["merging"] or [cid]
    if len(merging) >= LIMIT_MERGE:
        return []
    board, found, joins = g.board, [], _joins(g, merging)
    for corp in merging:
        for ref in [*sorted(board.reachable(corp).nodes), *g.rules.merge_reach(g, corp)]:
            if board.node(ref).kind != "city":
                continue
            for other in board.slots(*ref):
                if other not in found and joins(other):
                    found.append(other)
    return found


def _joins(g: G, merging: list[str]):
    """Whether a token's holder is a minor the merge may add (candidates)."""
    owners = [g.corp(c)["president"] for c in merging]
    full = {o for o in owners if owners.count(o) >= LIMIT_OWNED_BY_ONE}
    return lambda other: bool(other and other not in merging and other in g.s["corps"]
                              and g.cdef(other).kind == "minor" and g.corp(other)["floated"]
                              and g.corp(other)["president"] not in full)


def _may_join(g: G, cid: str, other: str) -> bool:
    """`other in candidates(g, cid)` but for the reach: a replay's check, as 18xx.games loading a game does not ask
    whether the track joins them (a reach walk per minor merging); it checks the rest."""
    merging = g.round["merging"] or [cid]
    return len(merging) < LIMIT_MERGE and _joins(g, merging)(other)


def _any_candidate(g: G, cid: str) -> bool:
    """bool(candidates(g, cid)), asked after every move of a merger round. First the cities holding a minor the merge
    may add (none: no walk at all); then each minor's reach walk, which stops at the first such city (as
    Board.can_token's), where candidates walks each minor's whole reach. A walk that finds none has walked the whole
    reach, whose nodes the board keeps (Board.reach_finds): as the minors gather, on the same board, the next
    question reads them. The newest minor first: a merge gathered along a line of minors finds the next one beyond
    the last (fewer walks in the recorded games; the answer is the same in any order)."""
    merging = g.round["merging"] or [cid]
    if len(merging) >= LIMIT_MERGE:
        return False
    board, joins = g.board, _joins(g, merging)
    targets = {(coord, i) for coord, per_node in board.tokens.items() for i, held in enumerate(per_node)
               if any(joins(other) for other in held) and board.node((coord, i)).kind == "city"}
    if not targets:
        return False

    def visit(coord: str, p: int) -> bool:  # the nodes of a path the walk takes are in the reach
        return any(type(end) is str and (coord, int(end[1:])) in targets for end in board.paths(coord)[p])

    for corp in reversed(merging):
        if not targets.isdisjoint(g.rules.merge_reach(g, corp)):
            return True
        if (known := board.reach_nodes(corp)) is not None:  # walked already (candidates, or a walk that found none)
            if not targets.isdisjoint(known):
                return True
        elif not targets.isdisjoint(board.token_nodes(corp)) or board.reach_finds(corp, visit):
            return True
    return False


def majors_free(g: G) -> list[str]:
    priced = g.cells()
    return [cid for cid in g.title.of_kind.get("major", ()) if cid not in priced
            and g.rules.may_start(g, cid, by_merger=True)]


def has_move(g: G, cid: str) -> bool:
    """Something to do: a conversion or a merger, while some major is still free to be formed (1807 has 11), or
    a title's own move (1807: a takeover)."""
    return (bool(majors_free(g)) and (can_convert(g, cid) or _any_candidate(g, cid))) \
        or g.rules.other_merger_move(g, cid)


# ---- actions ----------------------------------------------------------------------------------------------

def apply(g: G, seat: int, action: Action) -> None:
    kept, g.stage_kept = g.stage_kept, None  # nothing written since who_acts asked it (G.stage_kept)
    after = _move(g, seat, action, *(kept or _stage(g)))
    if kept is not None:  # inside E18xxGame.apply, whose `finally` drops what settle does not take
        g.stage_after = after


def _move(g: G, seat: int, action: Action, now: str, dealer: int | None) -> tuple[str, int | None] | None:
    """The move at this stage; the stage after it when its dealing found one (`_settle_dealing`), else None."""
    r = g.s["round"]
    if seat not in _acting(g, now, dealer):
        raise RuleError("It is not your turn.")
    kind = action["type"]
    if now == "reduce":
        return _remove_token(g, action)
    if now == "deal":
        return _deal(g, seat, action)
    if now == "discard":
        if kind != "discard_train":
            raise RuleError("{corps} must first discard down to the train limit.", corps=", ".join(trains.crowded(g)))
        return _discard(g, seat, action)
    cid = current(g)
    entity = action.get("entity")
    if entity is not None and entity != cid:
        raise RuleError("It is {corp}'s turn in the merger round, not {entity}'s.", corp=cid, entity=entity)
    if kind == "convert":
        if r["merging"] or r["choosing"] or not can_convert(g, cid):
            raise RuleError("{corp} cannot convert now (its price must be in the convert range).", corp=cid)
        r["choosing"] = "convert"
        g.event("{corp} will convert into a major.", corp=cid)
    elif kind == "merge":
        other = action.get("corporation")
        if r["choosing"]:
            if other not in majors_free(g):
                raise RuleError("Choose a major that has not started: {majors}.", majors=", ".join(majors_free(g)))
            return (_finish_convert if r["choosing"] == "convert" else _finish_merge)(g, cid, other)
        if not (_may_join(g, cid, other) if g.trusted else other in candidates(g, cid)):
            raise RuleError("{corp} cannot merge with {other}: only minors its track reaches.", corp=cid, other=other)
        r["merging"] = (r["merging"] or [cid]) + [other]
        g.event("{corp} joins the merger of {minors}.", corp=other, minors=", ".join(r["merging"][:-1]))
        if not _any_candidate(g, cid):  # candidates' answer, by a walk that stops at the first
            r["choosing"] = "merge"
    elif kind == "pass":
        if r["choosing"] == "convert":
            raise RuleError("Choose the major the minor converts into.")
        if r["choosing"] == "merge" and not g.trusted:  # no owner could preside it: the merger is called off
            g.event("The merger of {minors} is called off.", minors=", ".join(r["merging"]))
            _next_minor(g)
        elif r["merging"]:
            r["choosing"] = "merge"
            g.event("{minors} will merge; [0] names the major they become.", seat, minors=", ".join(r["merging"]))
        else:
            g.event("{corp} neither converts nor merges.", corp=cid)
            _next_minor(g)
    else:
        raise RuleError("In a merger round a minor converts, merges or passes.")
    return None


def _next_minor(g: G) -> None:
    r = g.round
    r.update(index=r["index"] + 1, merging=[], choosing=None, target=None, dealers=[], multiple=[])


def _par_at_most(g: G, price: int):
    return next(c for c in g.title.market.par_cells_for("major") if c.price <= price)


def _start_major(g: G, target: str, cell) -> None:
    g.s["market"] = g.title.market.with_par(g.s["market"], target, cell)
    corp = g.corp(target)
    corp["par"] = cell.price
    corp["floated"] = True


def _free_share(g: G, seat: int, target: str) -> None:
    """A minor's owner takes the major's last 10% certificate for free (_take_share)."""
    corp = g.corp(target)
    _take_share(g, seat, target, corp["shares"][IPO][-1])
    if corp["president"] is None:
        corp["president"] = g.key(seat)


def _absorb(g: G, minor: str, target: str, board: Board, still: dict[str, list] | None = None) -> Board:
    """The minor's tokens, cash, privates, loans and trains go to the major; the minor closes. First the major
    takes back any token of its own in a city where a minor still to merge has one (`still`: each such minor's
    cities, this one's included); then each of the minor's tokens becomes the major's next free token
    (charter.py), in the same place. Returns the board after, for the caller to set (once, after every minor)."""
    if still:
        theirs = {ref for nodes in still.values() for ref in nodes}
        for coord, node in board.token_nodes(target):
            if (coord, node) in theirs:
                board = board.remove_token(coord, node, target)
                charter.release(g, target, coord, node)
    for coord, node in still[minor] if still else board.token_nodes(minor):
        board = board.remove_token(coord, node, minor)
        board = board.place_token(coord, target, node, second_on_tile=True)
        charter.take(g, target, coord, node)
    hand_over(g, minor, target)
    m = g.corp(minor)
    m.update(floated=False, closed=True)
    g.s["market"] = {cell: [c for c in cs if c != minor] for cell, cs in g.s["market"].items() if cs != [minor]}
    owner = m["president"]
    m["shares"] = {IPO: list(g.cdef(minor).share_ids)}
    m["president"] = None
    g.event("{minor} merges into {major}.", int(owner), minor=minor, major=target)
    return board



def hand_over(g: G, source: str, target: str) -> None:
    """`source`'s cash, privates, loans and trains go to `target` (a minor merging; in 1807 also a takeover and a
    public company forming a system)."""
    src, dst = g.corp(source), g.corp(target)
    g.pay(source, target, src["cash"])
    for p in g.s["privates"].values():
        if p["owner"] == source:
            p["owner"] = target
    dst["loans"] = dst.get("loans", 0) + src.get("loans", 0)
    dst["trains"] += src["trains"]
    src.update(trains=[], loans=0)

def _finish_convert(g: G, cid: str, target: str) -> tuple[str, int | None] | None:
    r = g.round
    owner = g.president(cid)
    _start_major(g, target, _par_at_most(g, g.price(cid)))
    g.transfer(target, [g.cdef(target).president_cert], IPO, g.key(owner))  # the president's 20%, for free
    g.corp(target)["president"] = g.key(owner)
    g.set_board(_absorb(g, cid, target, g.board))
    g.event("{minor} converts into {major} at {price}.", minor=cid, major=target, price=g.amount(g.price(target)))
    r["minors"][r["index"]] = target
    r.update(target=target, choosing=None, merging=[])
    order = g.order
    r["dealers"] = order[order.index(owner):] + order[:order.index(owner)]
    r["multiple"], r["merged"] = [owner], False
    return _settle_dealing(g)


def _merge_terms(g: G) -> tuple[list[str], object, list[int]]:
    """The minors being merged in order, the major's price cell, and their owners from the first."""
    merging = [c for c in g.rules.operating_order(g) if c in g.round["merging"]]
    prices = [g.price(c) for c in merging]
    low, high = MERGE_PRICE_RANGE
    cell = _par_at_most(g, min(high, max(low, max(prices) + min(prices))))
    owners = [g.president(c) for c in merging]
    players = [s for s in g.order if s in owners]
    return merging, cell, players[players.index(owners[0]):] + players[:players.index(owners[0])]


def merge_possible(g: G, terms: tuple[list[str], object, list[int]] | None = None) -> bool:
    """Some owner can become president: he owns two of the minors, or can pay for a second share. `terms`:
    _merge_terms's, when the caller has them."""
    merging, cell, players = terms or _merge_terms(g)
    owners = [g.president(c) for c in merging]
    return any(g.s["cash"][s] >= cell.price or owners.count(s) >= 2 for s in players)


def _finish_merge(g: G, cid: str, target: str) -> tuple[str, int | None] | None:
    r = g.round
    terms = merging, cell, players = _merge_terms(g)
    if not merge_possible(g, terms):
        raise RuleError("No owner could become president of the new major: this merger is impossible.")
    _start_major(g, target, cell)
    # the minors' cities read once (a minor's tokens stay where they are until it is absorbed), and the board set
    # once, after them all
    board = g.board
    still = {minor: board.token_nodes(minor) for minor in merging}
    for minor in merging:
        _free_share(g, g.president(minor), target)
        board = _absorb(g, minor, target, board, still)
        del still[minor]
    g.set_board(board)
    reducing = _tokens_to_remove_for(g, target)  # the board is not changed again below
    if not reducing:
        charter.fill_up(g, target)
    g.event("{minors} merge into {major} at {price}.", minors=", ".join(merging), major=target,
            price=g.amount(cell.price))
    r["minors"] = [c for c in r["minors"] if c not in merging or c == cid]
    r["index"] = r["minors"].index(cid)
    r["minors"][r["index"]] = target
    r.update(target=target, choosing=None, merging=[], dealers=players, multiple=list(players), merged=True,
             reducing=reducing)
    return _settle_dealing(g)


def _remove_token(g: G, action: Action) -> tuple[str, int | None] | None:
    target = g.round["target"]
    if action["type"] != "remove_token":
        raise RuleError("{corp} must first remove tokens: it keeps {n}, in different hexes.", corp=target,
                        n=TOKENS_AFTER_MERGER)
    coord, node = action.get("hex"), action.get("city", 0)
    if (coord, node) not in g.board.token_nodes(target):
        raise RuleError("{corp} has no token there.", corp=target)
    if (coord, node) not in removable(g, target):
        raise RuleError("{corp} must keep tokens in two different hexes.", corp=target)
    g.set_board(g.board.remove_token(coord, node, target))
    charter.release(g, target, coord, node)
    g.event("{corp} removes its token from {where}.", corp=target, where=g.place(coord))
    if not _tokens_to_remove_for(g, target):
        charter.keep_after_merger(g, target, TOKENS_AFTER_MERGER)
        g.round["reducing"] = False
    return _settle_dealing(g)


def removable(g: G, target: str) -> list[tuple[str, int]]:
    """The tokens the new major may remove: any, unless that leaves all its tokens in one hex when they were in
    several."""
    placed = g.board.token_nodes(target)
    hexes_before = len({coord for coord, _ in placed})
    return [ref for ref in placed if hexes_before == 1 or len({c for c, n in placed if (c, n) != ref}) > 1]


def _deal(g: G, seat: int, action: Action) -> tuple[str, int | None] | None:
    r = g.round
    target = r["target"]
    if action["type"] == "pass":
        if _must_take_presidency(g, seat):
            raise RuleError("Nobody else can take {corp}'s presidency: buy a share (the president's certificate "
                            "comes with a second one).", corp=target)
        r["dealers"].remove(seat)
        g.event("[0] buys no more of {corp}.", seat, corp=target)
        first_round = bool(r["multiple"])
        after = _settle_dealing(g)
        if first_round and not r["multiple"] and _eligible(g) == seat:
            r["dealers"].remove(seat)  # as on 18xx.games: who passed last is not asked again at once
            after = _settle_dealing(g)
        return after
    elif action["type"] == "buy_shares":
        cert = _buyable(g, seat)
        if cert is None or action.get("shares") not in ([cert], [c for c in action.get("shares") or []
                                                                 if c in g.corp(target)["shares"][IPO]]):
            raise RuleError("Buy one 10% certificate of {corp} from its treasury.", corp=target)
        cert = action["shares"][0]
        if g.cdef(target).cert_percent(cert) != 10 or cert not in g.corp(target)["shares"][IPO]:
            raise RuleError("Buy one 10% certificate of {corp} from its treasury.", corp=target)
        price = g.price(target)
        g.pay(g.key(seat), target, price)
        _take_share(g, seat, target, cert)
        g.event("[0] buys a 10% share of {corp} for {price}.", seat, corp=target, price=g.amount(price))
        if seat not in r["multiple"] or _buyable(g, seat) is None:
            r["dealers"].remove(seat)
    else:
        raise RuleError("Buy a share of {corp} or pass.", corp=target)
    return _settle_dealing(g)


def _must_take_presidency(g: G, seat: int) -> bool:
    """The president's certificate is unsold and no other buyer could take it: a merger needs a president."""
    r = g.round
    target = r["target"]
    if g.cdef(target).president_cert not in g.corp(target)["shares"][IPO]:
        return False
    return not any(_buyable(g, s) for s in r["dealers"] if s != seat)


def _take_share(g: G, seat: int, target: str, cert: str) -> None:
    """A 10% certificate to the player; one who holds 10% already swaps both for the president's while it is
    unsold."""
    cdef, corp = g.cdef(target), g.corp(target)
    key = g.key(seat)
    if cdef.president_cert in corp["shares"][IPO] and g.percent(target, key) == 10:
        g.transfer(target, list(corp["shares"][key]), key, IPO)
        g.transfer(target, [cdef.president_cert], IPO, key)
        corp["president"] = key
    else:
        g.transfer(target, [cert], IPO, key)


def _settle_dealing(g: G) -> tuple[str, int | None] | None:
    """After a merger, once the minors' owners are done: every player, from the president, may buy one; then the
    merger is over (its train discards aside). After a conversion every player was a dealer from the start.
    The stage (`_stage`'s answer) when a token removal or a dealer is still to come, else None."""
    r = g.s["round"]
    if _tokens_to_remove(g):
        return "reduce", None
    if (dealer := _eligible(g)) is not None:
        return "deal", dealer
    target = r["target"]
    if r["multiple"] and r.get("merged"):
        president = g.president(target)
        order = g.order
        r["dealers"] = order[order.index(president):] + order[:order.index(president)]
        r["multiple"] = []
        if (dealer := _eligible(g)) is not None:
            return "deal", dealer
    r["dealers"] = []
    return None


def _discard(g: G, seat: int, action: Action) -> None:
    cid, train_id = action.get("entity"), action.get("train")
    crowd = trains.crowded(g)
    if cid not in crowd or train_id not in g.corp(cid)["trains"] or g.president(cid) != seat:
        raise RuleError("Name a train of a corporation you preside that is over its limit.")
    trains.discard(g, cid, train_id)
    g.event("{corp} discards train {train}.", corp=cid, train=train_id)


def settle(g: G) -> None:
    r = g.s["round"]
    after, g.stage_after = g.stage_after, None
    if after is not None:  # the move's own dealing found a token removal or a dealer to come: nothing settles
        return
    for _ in range(100):
        if stage(g) != "minor":
            return
        if r["target"]:
            _next_minor(g)
            continue
        cid = current(g)
        if cid is None:
            return
        if r["merging"] or r["choosing"] or g.trusted or has_move(g, cid):
            # 18xx.games records a pass for a minor with nothing to do: a replay waits for it (and so need not ask
            # whether the minor has a move, a reach walk for each minor it might merge with)
            return
        g.s.setdefault("auto_passes", []).append(cid)  # an export writes the pass the site records for it
        _next_minor(g)


def legal(g: G, seat: int) -> list[Action]:
    r = g.round
    if seat not in acting(g):
        return []
    now, target = stage(g), r["target"]
    if now == "reduce":
        return [{"type": "remove_token", "entity": target, "hex": h, "city": i} for h, i in removable(g, target)]
    if now == "deal":
        buy = {"type": "buy_shares", "shares": [_buyable(g, seat)], "percent": 10}
        return [buy] if _must_take_presidency(g, seat) else [buy, {"type": "pass"}]
    if now == "discard":
        return [{"type": "discard_train", "entity": c, "train": t}
                for c in trains.crowded(g) if g.president(c) == seat for t in g.corp(c)["trains"]]
    cid = current(g)
    if r["choosing"] == "merge" and not merge_possible(g):
        return [{"type": "pass", "entity": cid}]
    if r["choosing"]:
        return [{"type": "merge", "entity": cid, "corporation": m} for m in majors_free(g)]
    if not majors_free(g):
        return [{"type": "pass", "entity": cid}]
    moves: list[Action] = [{"type": "merge", "entity": cid, "corporation": c} for c in candidates(g, cid)]
    if not r["merging"] and can_convert(g, cid):
        moves.append({"type": "convert", "entity": cid})
    return [*moves, {"type": "pass", "entity": cid}]


def auto(g: G, seat: int) -> Action | None:
    moves = legal(g, seat)
    if not moves:
        return None
    if g.round["choosing"] or g.round["target"]:
        return moves[0]
    return moves[-1]


def describe(g: G) -> dict[str, Any]:
    r = g.round
    return {"kind": "merger", "turn": r["turn"], "or": r["or"], "minor": current(g), "merging": list(r["merging"]),
            "target": r["target"], "choosing": r["choosing"]}
