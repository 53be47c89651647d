"""1890's optional rule "Second World War Air Raids" (option air_raids; rules, scenarios.tex §"Variants: Second World
War Air Raids"; docs/rules/1890.md rulings 37-38).

After the last 3+3-train is bought, every green tile on the bombed hexes is removed: Kobe, Ashiya, Nishinomiya,
Amagasaki, Osaka Kita, Nishi, Higashi and Minami, and the hexes sharing a side with them (SURROUNDING). A hex with a
city or town goes back to the yellow tile the green one replaced (tile_history.py; "Yellow tiles will not be
discarded"); an empty hex goes back to the printed hex, to be laid again from yellow with its terrain cost. The tile
taken off returns to the supply.

Then the tokens taken off are put back, city by city, in operating order starting with the company after the one
that bought the last 3+3-train (spaces reserved for unstarted companies stay free). A token with no space left waits
on the tile (flags["raids"]["waiting"]: hex -> [companies]): the next upgrade of that hex fills its new spaces with
them, in order; meanwhile it is not on the charter. Its company may take it back in its operating turn (a "choose"
move, choice "raid_token:<hex>"): it returns to the charter, and the next token it places costs 100
(flags["raids"]["returned"]).
"""
from __future__ import annotations

from typing import Any

from engines.base import RuleError
from engines.e18xx.board import NEUTRAL
from engines.e18xx.g1890 import tile_history
from engines.e18xx.state import G

OPTION = "air_raids"
BOMBED = ("F5", "F7", "F9", "F11", "G12", "H11", "H13", "I12")
#: the hexes sharing a side with a bombed city (read from the map: titles/g1890/map.json)
SURROUNDING = ("F3", "E4", "E6", "E8", "E10", "E12", "F13", "G14", "H15", "I14", "J13", "J11")
RETURNED_TOKEN_PRICE = 100
TAKE_BACK = "raid_token:"  # a choice "raid_token:F11": take back the token waiting on F11


def on(g: G) -> bool:
    return bool(g.s["opts"].get(OPTION))


def state(g: G) -> dict[str, Any]:
    return g.s["flags"].setdefault("raids", {"done": False, "waiting": {}, "returned": {}})


def train_bought(g: G, buyer: str | None) -> None:
    """After a depot purchase: the last 3+3-train sets off the raids."""
    if not on(g) or state(g)["done"]:
        return
    if "3+3" not in g.s["depot"]["bought"] or any(t.rpartition("-")[0] == "3+3" for t in g.s["depot"]["trains"]):
        return
    state(g)["done"] = True
    raid(g, buyer)


def raid(g: G, buyer: str | None) -> None:
    g.event("The air raids: the green tiles around Kobe and Osaka are destroyed.")
    taken: dict[str, list[tuple[int, str]]] = {}
    for coord in (*BOMBED, *SURROUNDING):
        if coord not in g.map.printed or g.board.tile(coord).colour != "green":
            continue
        printed = g.map.printed[coord]
        was = g.board.tile(coord).name
        before = tile_history.previous(g, coord) if printed.nodes else None
        taken[coord] = tile_history.take_back(g, coord, before)
        if before is None:
            g.event("The air raids: tile {old} is taken off {where}.", old=was, where=g.place(coord))
        else:
            g.event("The air raids: tile {new} replaces tile {old} in {where}.", new=before[0], old=was,
                    where=g.place(coord))
    order = _order(g, buyer)
    for coord, held in taken.items():
        _put_back(g, coord, held, order)


def _order(g: G, buyer: str | None) -> list[str]:
    """Operating order from the company after the one that bought the last 3+3-train."""
    order = list(g.round.get("order") or g.rules.operating_order(g))
    if buyer in order:
        i = order.index(buyer) + 1
        order = order[i:] + order[:i]
    return order


def _put_back(g: G, coord: str, held: list[tuple[int, str]], order: list[str]) -> None:
    rank = {cid: i for i, cid in enumerate(order)}
    holders = sorted((h for h in held if h[1] != NEUTRAL), key=lambda h: rank.get(h[1], len(rank)))
    board, waiting = g.board, []
    for node, holder in holders:
        cities = board.tile(coord).city_indexes()
        tries = ([node] if node in cities else []) + [n for n in cities if n != node]
        spot = next((n for n in tries if board.free_slot(coord, holder, n) is not None), None)
        if spot is None:
            waiting.append(holder)
        else:
            board = board.place_token(coord, holder, spot)
    g.set_board(board)
    if waiting:
        state(g)["waiting"].setdefault(coord, []).extend(waiting)
        g.event("No space is left in {where}: the tokens of {corps} wait on the tile for its next upgrade.",
                where=g.place(coord), corps=", ".join(waiting))


def waiting_tokens(g: G, cid: str) -> int:
    raids = g.s["flags"].get("raids")
    return sum(w.count(cid) for w in raids["waiting"].values()) if raids else 0


def after_lay(g: G, coord: str) -> None:
    """An upgrade of a hex with waiting tokens fills its new spaces with them, in order."""
    raids = g.s["flags"].get("raids")
    if not raids or not raids["waiting"].get(coord):
        return
    board, queue, placed = g.board, raids["waiting"][coord], []
    for holder in list(queue):
        if g.s["corps"].get(holder, {}).get("closed"):
            queue.remove(holder)  # its company has closed: the token leaves the game
            continue
        spot = next((n for n in board.tile(coord).city_indexes()
                     if board.free_slot(coord, holder, n) is not None), None)
        if spot is None:
            continue
        board = board.place_token(coord, holder, spot)
        queue.remove(holder)
        placed.append(holder)
    if not queue:
        del raids["waiting"][coord]
    g.set_board(board)
    if placed:
        g.event("The waiting tokens of {corps} take the new spaces in {where}.", corps=", ".join(placed),
                where=g.place(coord))


def take_back_moves(g: G, cid: str) -> list[dict[str, Any]]:
    raids = g.s["flags"].get("raids") if on(g) else None
    if not raids:
        return []
    return [{"type": "choose", "choice": f"{TAKE_BACK}{coord}", "entity": cid}
            for coord, queue in sorted(raids["waiting"].items()) if cid in queue]


def take_back(g: G, cid: str, choice: str) -> None:
    coord = choice.removeprefix(TAKE_BACK)
    raids = state(g)
    if cid not in raids["waiting"].get(coord, []):
        raise RuleError("{corp} has no token waiting there.", corp=cid)
    raids["waiting"][coord].remove(cid)
    if not raids["waiting"][coord]:
        del raids["waiting"][coord]
    raids["returned"][cid] = raids["returned"].get(cid, 0) + 1
    g.event("{corp} takes back its token waiting in {where}.", corp=cid, where=g.place(coord))


def token_price(g: G, cid: str, charter_price: int | None) -> int | None:
    """A token taken back is placed as a normal 100 token."""
    raids = g.s["flags"].get("raids")
    if raids and raids["returned"].get(cid):
        return RETURNED_TOKEN_PRICE
    return charter_price


def token_placed(g: G, cid: str) -> None:
    raids = g.s["flags"].get("raids")
    if raids and raids["returned"].get(cid):
        raids["returned"][cid] -= 1
        if not raids["returned"][cid]:
            del raids["returned"][cid]
