"""1807's takeover of a minor by a public company in the merger round (the seed's 小会社の買収; 18xx.games's G1807
Merge "Take over" and DeclineTokens). docs/rules/1807.md, "Merger round".

At the start of its turn in a merger round a minor may, by its owner, be taken over by a public company that has a
share in its treasury and a token in a city the minor's track reaches, or on a hex where the minor has a token
(London's cities count as one place for a minor with a London token). The owner takes one 10% share from the
public company's treasury for the minor's certificate (he may go over 60% by it, and may become its president);
the public company takes the minor's cash, privates, loans and trains. A minor's token in a city where the public
company has one already leaves the board (except in London). Then the owner may remove any of the minor's other
tokens, and the rest become the public company's tokens where they are (as many as it has tokens left; more must
be removed first). The minor closes.

Round state (on 1867's merger round): `takeover` {minor, major, seat (the minor's owner)} while the owner is
removing tokens.
"""
from __future__ import annotations

from typing import Any

from engines.base import Action, RuleError
from engines.e18xx.companies import IPO
from engines.e18xx.g1867 import charter
from engines.e18xx.g1867 import merger as base
from engines.e18xx.state import G

LONDON = "london"


def _place(g: G, coord: str) -> str:
    from engines.e18xx.g1807.rules import LONDON_HEXES
    return LONDON if coord in LONDON_HEXES else coord


def takers(g: G, minor: str) -> list[str]:
    """The public companies that may take `minor` over now, in title order."""
    r = g.round
    if r["merging"] or r["choosing"] or r["target"] or r.get("takeover"):
        return []
    board = g.board
    reached = {ref for ref in board.reachable(minor).nodes if board.node(ref).kind == "city"}
    own = board.token_nodes(minor)
    places = {_place(g, coord) for coord, _ in own}
    found = []
    for cid, corp in g.s["corps"].items():
        if g.cdef(cid).kind != "major" or not corp["floated"] or corp.get("closed") or not _share(g, cid):
            continue
        tokens = board.token_nodes(cid)
        if any(ref in reached for ref in tokens) or any(
                coord in places or (_place(g, coord) == LONDON and LONDON in places) for coord, _ in tokens):
            found.append(cid)
    return found


def _share(g: G, major: str) -> str | None:
    """The 10% share a takeover gives from `major`'s treasury."""
    cdef = g.cdef(major)
    return next((c for c in g.corp(major)["shares"].get(IPO, []) if cdef.cert_percent(c) == 10), None)


def moves(g: G, minor: str) -> list[Action]:
    return [{"type": "buy_shares", "entity": minor, "shares": [_share(g, major)], "percent": 10}
            for major in takers(g, minor)]


def take_over(g: G, seat: int, minor: str, action: Action) -> None:
    shares = action.get("shares") or []
    major = next((m for m in takers(g, minor) if shares and shares[0] in g.corp(m)["shares"].get(IPO, [])), None)
    if major is None or len(shares) != 1 or g.cdef(major).cert_percent(shares[0]) != 10:
        raise RuleError("{corp} can be taken over only by a public company with a treasury share and a token its "
                        "track reaches: {majors}.", corp=minor, majors=", ".join(takers(g, minor)) or "-")
    owner = g.key(seat)
    g.transfer(major, [shares[0]], IPO, owner)  # for the minor's certificate: no money, no 60% limit
    if g.corp(major)["president"] is None:
        g.corp(major)["president"] = owner
    board = g.board
    theirs = {ref for ref in board.token_nodes(major) if _place(g, ref[0]) != LONDON}
    for coord, node in board.token_nodes(minor):
        if (coord, node) in theirs:  # the same city twice: the minor's token goes (London excepted)
            board = board.remove_token(coord, node, minor)
    g.set_board(board)
    base.hand_over(g, minor, major)
    g.event("{major} takes over {minor}; [0] takes a 10% share of {major} for it.", seat, major=major, minor=minor)
    if board.token_nodes(minor) and free_tokens(g, major):
        g.round["takeover"] = {"minor": minor, "major": major, "seat": seat}
    else:
        _close(g, minor)


def free_tokens(g: G, major: str) -> int:
    return sum(at is None for _, at in g.corp(major)["charter"])


def tokens_stage(g: G) -> bool:
    return bool(g.round.get("takeover"))


def token_moves(g: G) -> list[Action]:
    t = g.round["takeover"]
    minor = t["minor"]
    placed = g.board.token_nodes(minor)
    found: list[Action] = [{"type": "remove_token", "entity": minor, "hex": h, "city": i} for h, i in placed]
    if len(placed) <= free_tokens(g, t["major"]):
        found.append({"type": "pass", "entity": minor})
    return found


def token_move(g: G, action: Action) -> None:
    """Remove one of the minor's tokens, or pass: the rest become the public company's."""
    t = g.round["takeover"]
    minor, major = t["minor"], t["major"]
    board = g.board
    if action["type"] == "remove_token":
        ref = (action.get("hex"), action.get("city", 0))
        if ref not in board.token_nodes(minor):
            raise RuleError("{corp} has no token there.", corp=minor)
        g.set_board(board.remove_token(*ref, minor))
        g.event("{major} removes {minor}'s token from {where}.", major=major, minor=minor, where=g.place(ref[0]))
        if not g.board.token_nodes(minor):
            _close(g, minor)
        return
    if action["type"] != "pass" or {"type": "pass", "entity": minor} not in token_moves(g):
        raise RuleError("Remove {minor}'s tokens down to the {n} tokens {major} has left, or pass to keep them.",
                        minor=minor, n=free_tokens(g, major), major=major)
    for coord, node in board.token_nodes(minor):
        board = board.remove_token(coord, node, minor).place_token(coord, major, node, second_on_tile=True)
        charter.take(g, major, coord, node)
        g.event("{major} takes {minor}'s token in {where}.", major=major, minor=minor, where=g.place(coord))
    g.set_board(board)
    _close(g, minor)


def _close(g: G, minor: str) -> None:
    """The minor leaves play (its tokens off the board, its certificate back in the box)."""
    board = g.board
    for coord, node in board.token_nodes(minor):
        board = board.remove_token(coord, node, minor)
    g.set_board(board)
    m = g.corp(minor)
    m.update(floated=False, closed=True, shares={IPO: list(g.cdef(minor).share_ids)}, president=None)
    g.s["market"] = {cell: [c for c in cs if c != minor] for cell, cs in g.s["market"].items() if cs != [minor]}
    g.round.pop("takeover", None)
    base._next_minor(g)


def describe(g: G) -> dict[str, Any]:
    return {"takeover": g.round.get("takeover")}
