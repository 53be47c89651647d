"""1867's nationalisation (18xx.games's `nationalize!`): a corporation that cannot pay its interest, ends its turn
without a train, or (at the trainless events) has operated and has no train, is taken over by the Canadian National:
it repays what loans its cash allows, its price falls one step and two more for each loan left, its cash goes to the
bank, the bank buys every player's shares at that price, and the CN takes over its tokens, richest city first (never
a second one on a tile, and keeping one back for Montreal while the CN is owed it). A minor closes for good; a major
starts again as if never started. The trainless majors' presidents choose first whether theirs is nationalised.
"""
from __future__ import annotations

from engines.e18xx.companies import initial_holdings
from engines.e18xx.g1867 import charter, loans
from engines.e18xx.state import BANK, G

NATIONAL = "CN"


def nationalize(g: G, cid: str) -> None:
    corp = g.corp(cid)
    if not corp["floated"] or corp.get("closed"):
        return
    g.event("{corp} is nationalised.", corp=cid)
    value = g.title.loans["value"]
    while corp["cash"] >= value and loans.held(g, cid):
        g.pay(cid, BANK, value)
        corp["loans"] -= 1
    market = g.title.market
    for _ in range(1 + 2 * loans.held(g, cid)):
        g.move_price(cid, market.left(g.cell(cid)))
    g.pay(cid, BANK, corp["cash"])
    price, cdef = g.price(cid), g.cdef(cid)
    for seat in range(g.n):
        certs = corp["shares"].get(g.key(seat), [])
        if certs:
            g.pay(BANK, g.key(seat), price * cdef.bundle_percent(certs) // cdef.share_unit)
    _hand_tokens_to_national(g, cid)
    for p in g.s["privates"].values():
        if p["owner"] == cid:
            p["closed"] = True
    g.s["market"] = {cell: [c for c in cs if c != cid] for cell, cs in g.s["market"].items() if cs != [cid]}
    corp.update(cash=0, trains=[], loans=0, floated=False, par=None, president=None, shares=initial_holdings(cdef),
                operated=False, has_operated=False)
    charter.reset(g, cid)
    if cdef.kind == "minor":
        corp["closed"] = True
    flags = g.s["flags"]
    flags["trainless_majors"] = [c for c in flags.get("trainless_majors", []) if c != cid]


def _hand_tokens_to_national(g: G, cid: str) -> None:
    board = g.board
    placed = sorted(board.token_nodes(cid), key=lambda ref: (board.node(ref).revenue, ref[0]), reverse=True)
    reservations = g.s["flags"]["national_reservations"]
    for coord, node in placed:
        board = board.remove_token(coord, node, cid)
        charter.release(g, cid, coord, node)
        tile = board.tile(coord)
        if any(NATIONAL in board.slots(coord, i) for i in tile.city_indexes()):
            continue
        left = len(g.cdef(NATIONAL).tokens) - len(board.token_nodes(NATIONAL))
        if left <= 0:
            continue
        if coord in reservations:
            reservations.remove(coord)
        elif left == len(reservations):
            continue  # the last token is kept for Montreal
        board = board.place_token(coord, NATIONAL, node)
        charter.take(g, NATIONAL, coord, node)
    g.set_board(board)


def trainless(g: G) -> None:
    """After a trainless event's train is bought: minors that have operated without a train are nationalised;
    such majors' presidents will choose."""
    flags = g.s["flags"]
    if not flags.pop("trainless_pending", False):
        return
    found = [cid for cid in g.rules.operating_order(g) if g.corp(cid).get("has_operated") and not g.corp(cid)["trains"]]
    for cid in found:
        if g.cdef(cid).kind == "minor":
            nationalize(g, cid)
    flags["trainless_majors"] = [c for c in found if g.cdef(c).kind == "major"]


def place_for_montreal(g: G, coord: str) -> None:
    """Tile 639 on Montreal: the CN takes the token it is owed there."""
    reservations = g.s["flags"]["national_reservations"]
    board = g.board
    if coord not in reservations or any(NATIONAL in board.slots(coord, i) for i in board.tile(coord).city_indexes()):
        return
    if len(g.cdef(NATIONAL).tokens) - len(board.token_nodes(NATIONAL)) <= 0:
        return
    reservations.remove(coord)
    node = board.tile(coord).city_indexes()[0]
    g.set_board(board.place_token(coord, NATIONAL, node))
    charter.take(g, NATIONAL, coord, node)
    g.event("The CN places its token on {where}.", where=g.place(coord))

