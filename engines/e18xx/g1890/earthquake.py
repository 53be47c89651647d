"""1890's optional rule "Great Hanshin Earthquake" (option earthquake; rules, scenarios.tex §"Variants: Great Hanshin
Earthquake"; docs/rules/1890.md rulings 32-36).

The box labels one D-train "Earthquake" and shuffles it among the D-trains. We draw instead of shuffling: when a
D-train is bought from the depot, the chance seat picks one of the D-trains the depot held (index 0 is the
labelled one), which is the same chance as a hidden shuffle and leaves no secret in the state to leak. With one
D-train left the earthquake needs no draw. Nothing is drawn once the bank has broken (the earthquake no longer
occurs) or once it has occurred.

The earthquake (apply_quake):
- until the next stock round begins: Hanshin's income is 0, Hankyu's, Sanyo's and JR's halved (rounded down to a
  multiple of 10), and no share price moves (G.move_price asks Rules.prices_frozen);
- Kobe Rapid Transit closes; every token in Kobe and Ashiya goes back to its company;
- Nishinomiya's tile goes back one colour (the tile it replaced, tile_history.py); tokens that no longer fit go
  back to their companies, the last in the city's order first;
- the tokens in Itami are turned face down: they keep their space but run for no one and block no one; from the
  end of the next stock round their company may pay 100 in its operating turn to turn it up (a "choose" move);
- charity: each player owes 100 x the D-trains sold + 200 x his shares (10% each, the president's certificate two),
  counted now and taken as the next stock round begins: first from his cash, then by sales he chooses (each no
  larger than the debt needs) before anyone acts (an interrupt); what selling all he may cannot pay is written off.

State: flags["quake"] = {"draw": n (a pick awaited) | None, "stage": None | "on" | "after", "face_down": [corps],
"owed": {seat: amount}, "d_seen": D-trains sold when last asked}; the tiles Nishinomiya had: tile_history.py.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from engines.base import ChanceRequest, RuleError
from engines.e18xx.board import NEUTRAL
from engines.e18xx.companies import sale_bundles, sale_proceeds
from engines.e18xx.g1890 import tile_history
from engines.e18xx.state import BANK, G
from engines.text import msg

OPTION = "earthquake"
KOBE, ASHIYA, NISHINOMIYA, ITAMI = "F5", "F7", "F9", "E10"
KOBE_RAPID, KOBE_RAPID_TOKEN = "KobeRapid", "KobeRapid"
NO_INCOME, HALF_INCOME = ("Hanshin",), ("Hankyu", "Sanyo", "JR")
PER_D_TRAIN, PER_SHARE, FLIP_COST = 100, 200, 100


def on(g: G) -> bool:
    return bool(g.s["opts"].get(OPTION))


def state(g: G) -> dict[str, Any]:
    return g.s["flags"].setdefault("quake", {"draw": None, "stage": None, "face_down": [], "owed": {}})


def d_trains_in_depot(g: G) -> int:
    return sum(1 for t in g.s["depot"]["trains"] if t.rpartition("-")[0] == "D")


def d_trains_sold(g: G) -> int:
    return (g.title.train("D").count or 0) - d_trains_in_depot(g)


# ---- the draw ---------------------------------------------------------------------------------------------

def train_bought(g: G) -> None:
    """After a depot purchase: a D-train newly sold asks the chance seat whether it is the labelled one."""
    if not on(g):
        return
    q = state(g)
    sold = d_trains_sold(g)
    if q["stage"] is not None or sold <= q.get("d_seen", 0):
        return
    q["d_seen"] = sold
    if g.s["bank_broken"]:
        return
    held = d_trains_in_depot(g) + 1  # the depot's D-trains as this one was bought
    if held == 1:
        apply_quake(g)
    else:
        q["draw"] = held


def request(g: G) -> ChanceRequest | None:
    if not on(g) or not g.s["flags"].get("quake", {}).get("draw"):
        return None
    return ChanceRequest("pick", state(g)["draw"],
                         reason=msg("the Great Hanshin Earthquake: is this the labelled D-train?"))


def apply_draw(g: G, action: dict[str, Any]) -> None:
    q = state(g)
    index = action.get("index")
    if action.get("type") != "pick" or not isinstance(index, int) or isinstance(index, bool) \
            or not 0 <= index < q["draw"]:
        raise RuleError("The draw picks one of the D-trains.")
    q["draw"] = None
    if index == 0:
        apply_quake(g)
    else:
        g.event("The D-train bought is not the Earthquake train.")


# ---- the earthquake --------------------------------------------------------------------------------------

def apply_quake(g: G) -> None:
    q = state(g)
    q["stage"] = "on"
    g.event("The Great Hanshin Earthquake! Until the next stock round Hanshin earns nothing, Hankyu, Sanyo and JR "
            "half, and share prices do not move.")
    p = g.s["privates"].get(KOBE_RAPID)
    if p is not None and not p["closed"]:
        p["closed"] = True
        g.event("{private} closes in the earthquake.", private=g.private_name(KOBE_RAPID))
    for coord in (KOBE, ASHIYA):
        _clear(g, coord)
    _downgrade(g)
    board = g.board
    q["face_down"] = sorted({t for node in board.tile(ITAMI).city_indexes() for t in board.slots(ITAMI, node)
                             if t is not None and t != NEUTRAL and t in g.s["corps"]})
    if q["face_down"]:
        g.event("The tokens of {corps} in {where} are turned face down.", corps=", ".join(q["face_down"]),
                where=g.place(ITAMI))
    _charity(g)


def _clear(g: G, coord: str) -> None:
    board = g.board
    gone = []
    for node in board.tile(coord).city_indexes():
        for holder in board.slots(coord, node):
            if holder is not None and holder != NEUTRAL:
                board = board.remove_token(coord, node, holder)
                gone.append(holder)
    g.set_board(board)
    if gone:
        g.event("The tokens in {where} go back to their companies: {corps}.", where=g.place(coord),
                corps=", ".join(gone))


def _downgrade(g: G) -> None:
    """Nishinomiya's tile goes back to the one it replaced (the printed hex after a yellow tile); the tile taken
    off returns to the supply. Tokens keep their order; those that no longer fit go back to their companies."""
    board = g.board
    if NISHINOMIYA not in board.laid:
        return
    was = board.tile(NISHINOMIYA).name
    before = tile_history.previous(g, NISHINOMIYA)
    held = tile_history.take_back(g, NISHINOMIYA, before)
    board, back = g.board, []
    for _, holder in held:
        node = next((n for n in board.tile(NISHINOMIYA).city_indexes()
                     if board.free_slot(NISHINOMIYA, holder, n) is not None), None) if holder != NEUTRAL else None
        if node is None:
            back.append(holder)
        else:
            board = board.place_token(NISHINOMIYA, holder, node)
    g.set_board(board)
    if before is not None:
        g.event("The earthquake: tile {new} replaces tile {old} in {where}.", new=before[0], old=was,
                where=g.place(NISHINOMIYA))
    else:
        g.event("The earthquake: tile {old} is taken off {where}.", old=was, where=g.place(NISHINOMIYA))
    if back := [t for t in back if t != NEUTRAL]:
        g.event("The tokens in {where} go back to their companies: {corps}.", where=g.place(NISHINOMIYA),
                corps=", ".join(back))


def shares_held(g: G, seat: int) -> int:
    """A player's shares of the public companies, in 10% shares (minors' certificates are not shares)."""
    key = g.key(seat)
    return sum(g.percent(cid, key) // 10 for cid in g.s["corps"] if g.cdef(cid).kind != "minor")


def _charity(g: G) -> None:
    q = state(g)
    sold = d_trains_sold(g)
    for seat in range(g.n):
        owed = sold * PER_D_TRAIN + shares_held(g, seat) * PER_SHARE
        if owed:
            q["owed"][str(seat)] = owed
            g.event("[0] owes {owed} to the earthquake's relief, due as the next stock round begins.", seat,
                    owed=g.amount(owed))


# ---- while it lasts ------------------------------------------------------------------------------------------

def active(g: G) -> bool:
    return on(g) and g.s["flags"].get("quake", {}).get("stage") == "on"


def income(g: G, cid: str, revenue: int) -> int:
    """A company's income while the earthquake lasts."""
    if not active(g) or not revenue:
        return revenue
    if cid in NO_INCOME:
        after = 0
    elif cid in HALF_INCOME:
        after = 10 * (revenue // 20)
    else:
        return revenue
    g.event("The earthquake: {corp}'s income of {revenue} is {after}.", corp=cid, revenue=g.amount(revenue),
            after=g.amount(after))
    return after


def route_board(g: G, board):
    """Face-down tokens in Itami stand as neutral ones: they run for no one and block no one."""
    down = g.s["flags"].get("quake", {}).get("face_down") if on(g) else None
    if not down or ITAMI not in board.tokens:
        return board
    per_node = tuple(tuple(NEUTRAL if t in down else t for t in slots) for slots in board.tokens[ITAMI])
    return replace(board, tokens={**board.tokens, ITAMI: per_node})


# ---- the next stock round --------------------------------------------------------------------------------------

def stock_round_begins(g: G) -> None:
    """The earthquake's effects end; what players still owe is taken from their cash."""
    if not active(g):
        return
    q = state(g)
    q["stage"] = "after"
    g.event("The earthquake's effects end: incomes and share prices are as before.")
    for key, owed in list(q["owed"].items()):
        paid = min(owed, g.s["cash"][int(key)])
        if paid:
            g.pay(key, BANK, paid)
            g.event("[0] pays {paid} to the earthquake's relief.", int(key), paid=g.amount(paid))
        _settle(g, key, owed - paid)


def _settle(g: G, key: str, owed: int) -> None:
    q = state(g)
    if owed and _sales(g, int(key), owed):
        q["owed"][key] = owed
        return
    q["owed"].pop(key, None)
    if owed:
        g.event("[0] cannot sell enough: {amount} of the relief is written off.", int(key), amount=g.amount(owed))


def _sales(g: G, seat: int, owed: int) -> list[dict[str, Any]]:
    """The sales a player may make to pay his charity: any bundle the pool takes, no larger than the debt needs."""
    from engines.e18xx.stock import sale_problem
    key, moves = g.key(seat), []
    for cid, corp in g.s["corps"].items():
        held = corp["shares"].get(key)
        if not held or g.cell(cid) is None or g.cdef(cid).kind == "minor":
            continue
        unit, price = g.cdef(cid).cert_unit, g.price(cid)
        for certs, percent in sale_bundles(g.cdef(cid), held):
            if sale_proceeds(price, percent - unit, unit) >= owed:
                continue  # one share fewer would already pay
            move = {"type": "sell_shares", "shares": certs, "percent": percent}
            if move not in moves and sale_problem(g, seat, cid, certs, percent) is None:
                moves.append(move)
    return moves


def interrupt(g: G):
    """The first player (in seat order) who still owes sells shares before the stock round goes on."""
    if not on(g) or g.round.get("kind") != "stock":
        return None
    for key, owed in sorted(g.s["flags"].get("quake", {}).get("owed", {}).items()):
        if moves := _sales(g, int(key), owed):
            return int(key), msg("the earthquake's relief: sell shares to pay {amount}", amount=g.amount(owed)), moves
    return None


def apply_sale(g: G, seat: int, action: dict[str, Any]) -> None:
    from engines.e18xx.stock import sell
    q = state(g)
    key = g.key(seat)
    cid = action["shares"][0].rpartition("_")[0]
    sell(g, seat, cid, list(action["shares"]), action["percent"])
    owed = q["owed"][key]
    paid = min(owed, g.s["cash"][seat])
    g.pay(key, BANK, paid)
    g.event("[0] pays {paid} to the earthquake's relief.", seat, paid=g.amount(paid))
    q["owed"][key] = owed - paid
    for other, left in list(q["owed"].items()):  # a sale may have closed another's last sale (the pool's limit)
        _settle(g, other, left)


def owed(g: G, seat: int) -> int:
    """The relief a player still owes (the game may end before the stock round it is due in: then it counts
    against his worth)."""
    return g.s["flags"].get("quake", {}).get("owed", {}).get(g.key(seat), 0) if on(g) else 0


# ---- turning Itami's tokens up ----------------------------------------------------------------------------------

def may_flip(g: G, cid: str) -> bool:
    q = g.s["flags"].get("quake", {})
    return (on(g) and q.get("stage") == "after" and cid in q.get("face_down", [])
            and g.corp(cid)["cash"] >= FLIP_COST)


def flip(g: G, cid: str) -> None:
    if not may_flip(g, cid):
        raise RuleError("{corp} cannot turn its token in Itami face up now.", corp=cid)
    g.pay(cid, BANK, FLIP_COST)
    state(g)["face_down"].remove(cid)
    g.event("{corp} pays {fee} to turn its token in {where} face up.", corp=cid, fee=g.amount(FLIP_COST),
            where=g.place(ITAMI))
