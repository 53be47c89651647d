"""The depot: which trains are for sale, what a purchase sets off (phases, rusting, closing privates), limits,
and what a corporation's trains oblige it to (a corporation with a route and no train must buy one).

Train ids are 18xx.games's ("2-0" .. "6-1", "D-0", "D-1", ...): the depot lists the trains still to come in
order; an unlimited train (D) gets its next copy when one leaves. Discarded trains wait in `discards` and sell
at list price.
"""
from __future__ import annotations

from engines.e18xx.route import chains_from
from engines.e18xx.state import BANK, G
from engines.text import N_, msg

#: The tile colours of a phase, in words (a set the table lacks is said as its colours joined).
TILE_COLOURS = {("yellow",): N_("yellow"), ("yellow", "green"): N_("yellow, green"),
                ("yellow", "green", "brown"): N_("yellow, green, brown"),
                ("yellow", "green", "brown", "gray"): N_("yellow, green, brown, gray")}
#: A train limit of one kind of corporation, in words.
LIMIT_OF_KIND = {"minor": N_("{n} for a minor"), "major": N_("{n} for a major"),
                 "national": N_("{n} for a national")}


def depot_offer(g: G) -> list[str]:
    """Depot trains for sale now: the next train to come, the first of any kind already available
    (D from phase 6 on), and the first discarded train of each kind."""
    depot = g.s["depot"]
    upcoming = depot["trains"]
    offer: list[str] = upcoming[:1]
    early = g.title.early_trains[g.phase_index()]
    if early:
        seen = {t.rpartition("-")[0] for t in offer}
        for train_id in upcoming[1:]:
            if (name := train_id.rpartition("-")[0]) in early and name not in seen:
                offer.append(train_id)
                seen.add(name)
    discards: list[str] = []
    for train_id in depot["discards"]:  # one discarded train of each kind at a time, the first discarded
        if train_id.rpartition("-")[0] not in {t.rpartition("-")[0] for t in discards}:
            discards.append(train_id)
    return offer + discards


def list_price(g: G, train_id: str, exchange: str | None = None) -> int:
    t = g.train_def(train_id)
    price = g.rules.train_price(g, train_id)
    if exchange is None:
        return price
    discount = (t.trade_in or {}).get(g.rules.train_name(g, exchange))
    if discount is None:
        raise ValueError
    return price - discount


def cheapest_depot_price(g: G) -> int | None:
    prices = [list_price(g, t) for t in depot_offer(g)]
    return min(prices) if prices else None


def cheapest_depot_trains(g: G) -> list[str]:
    offer = depot_offer(g)
    low = cheapest_depot_price(g)
    return [t for t in offer if list_price(g, t) == low]


def train_limit(g: G, cid: str) -> int:
    return g.rules.train_limit(g, cid)


def crowded(g: G) -> list[str]:
    """Corporations holding more trains than the phase allows, in title order."""
    if (kept := g.crowd_kept) is not None:  # asked again before a move with nothing written since (G.crowd_keeping)
        return kept
    limits = g.rules.train_limits(g)  # one table for all: asked several times after every action
    # a limit is never below 0, so a corporation without trains (most of them, most of the time) is not looked up
    crowd = [cid for cid, c in g.s["corps"].items() if (held := c["trains"]) and len(held) > limits[cid]]
    if g.crowd_keeping:
        g.crowd_kept = crowd
    return crowd


def owner_of_train(g: G, train_id: str) -> str | None:
    for cid, c in g.s["corps"].items():
        if train_id in c["trains"]:
            return cid
    return None


def take_from_depot(g: G, train_id: str, buyer: str | None) -> None:
    """Move a depot train to `buyer` and set off what its purchase does (money is the caller's)."""
    depot = g.s["depot"]
    name = train_id.rpartition("-")[0]
    if train_id in depot["discards"]:
        depot["discards"].remove(train_id)
        g.corp(buyer)["trains"].append(train_id)
        return
    place = depot["trains"].index(train_id)
    depot["trains"].remove(train_id)
    if g.title.train(name).count is None:  # unlimited: the next copy takes its place
        number = depot["next_d"][name]
        depot["next_d"][name] = number + 1
        depot["trains"].insert(place, f"{name}-{number}")
    if buyer is not None:  # None: exported (1867), gone from the game
        g.corp(buyer)["trains"].append(train_id)
    if name not in depot["bought"]:
        depot["bought"].append(name)
        first_of_kind(g, name)


def first_of_kind(g: G, name: str) -> None:
    """The first train of a kind: a new phase, rusting, and the title's events (1889: the 5 closes privates)."""
    depot = g.s["depot"]
    new_phase = g.title.next_phase(depot["phase"], name)
    if new_phase != depot["phase"]:
        depot["phase"] = new_phase
        phase = g.phase
        limit = phase.train_limit if isinstance(phase.train_limit, int) else [
            msg(LIMIT_OF_KIND.get(kind, "{n}"), n=n) for kind, n in phase.train_limit.items()]
        tiles = tile_colours(phase.tiles)
        if phase.corporations_buy_privates:
            g.event("Phase {phase} begins: {tiles} tiles, train limit {limit}, corporations may buy private "
                    "companies.", phase=new_phase, tiles=tiles, limit=limit)
        else:
            g.event("Phase {phase} begins: {tiles} tiles, train limit {limit}.", phase=new_phase, tiles=tiles,
                    limit=limit)
        for pid, p in g.s["privates"].items():
            change = g.ability(pid, "revenue_change")
            if change and change["on_phase"] == new_phase and p["owner"] is not None and p["owner"].isdigit():
                p["revenue"] = change["revenue"]
                g.event("{private} now pays {revenue}.", private=g.private_name(pid), revenue=g.amount(p["revenue"]))
    rusted = [t.name for t in g.title.trains if t.rusts_on == name]
    if rusted:
        for c in g.s["corps"].values():
            c["trains"] = [t for t in c["trains"] if t.rpartition("-")[0] not in rusted]
        depot["discards"] = [t for t in depot["discards"] if t.rpartition("-")[0] not in rusted]
        g.event("The {trains} trains rust.", trains=", ".join(rusted))
    for event in g.title.train(name).first_bought_events:
        g.rules.train_event(g, event)


def close_privates(g: G) -> None:
    closed = []
    for pid, p in g.s["privates"].items():
        if p["closed"]:
            continue
        keeps = g.ability(pid, "never_closes")
        if keeps and p["owner"] is not None and p["owner"].isdigit() and "player" in keeps["while_owned_by"]:
            continue
        p["closed"] = True
        closed.append(g.private_name(pid))
    if closed:
        g.event("Private companies close: {privates}.", privates=closed)


def discard(g: G, cid: str, train_id: str) -> None:
    g.corp(cid)["trains"].remove(train_id)
    g.s["depot"]["discards"].append(train_id)


def pay_for_train(g: G, buyer: str, seller: str | None, price: int, president: str | None = None) -> None:
    """The buyer pays; in an emergency its president adds what the treasury lacks."""
    payee = seller or BANK
    short = price - g.cash(buyer)
    if short > 0:
        if president is None:
            raise ValueError
        g.pay(president, buyer, short)
    g.pay(buyer, payee, price)


# ---- what a corporation's trains can do ----------------------------------------------------------------

def route_available(g: G, cid: str) -> bool:
    """Whether the corporation has a route at all: one of its tokened cities has track to another stop (a route of
    two stops, the least there is; all_routes(board, cid, 2) would list them all, after every action)."""
    board = g.rules.route_board(g, cid)  # 1890's Osaka Railway runs from Osaka Electric Railroad's token
    # board.token_nodes(cid)'s cities one at a time, in its order: the first with a chain answers (the list looked
    # at every hex's tokens, asked at every routes step)
    return any(chains_from(board, (coord, i)) for coord, per_node in board.tokens.items()
               for i, slots in enumerate(per_node) if cid in slots)


def must_buy(g: G, cid: str) -> bool:
    return g.rules.must_buy_train(g, cid)


def room(g: G, cid: str) -> bool:
    return len(g.corp(cid)["trains"]) < train_limit(g, cid)


def other_trains(g: G, cid: str) -> list[tuple[str, str]]:
    """Trains `cid` may buy from other corporations: any, at a price both presidents agree to (one president
    buying from himself just pays; otherwise the purchase is an offer the other must accept, operating.py)."""
    return [(other, t) for other, c in g.s["corps"].items() if other != cid for t in c["trains"]]


def trade_ins(g: G, cid: str, *, below_zero: bool = False) -> list[tuple[str, str, int]]:
    """(depot train, train handed in, price) for every trade-in `cid` can pay for (1889: a D for a 4, 5 or 6).
    A trade-in worth more than the new train (1867's 5+5E for a 2+2) is never offered; `below_zero` counts it, as
    18xx.games does when it decides whether the train step waits for the corporation (which then passes)."""
    found: list[tuple[str, str, int]] = []
    if not g.rules.trade_ins_allowed(g, cid):
        return found
    for t in depot_offer(g):
        # a train with no trade-in prices takes none (list_price refuses every one, by an exception each: asked at
        # every settle of a train step, for each train held)
        if not g.train_def(t).trade_in or not g.rules.may_buy_train(g, cid, t):
            continue
        for old in g.corp(cid)["trains"]:
            try:
                price = list_price(g, t, old)
            except ValueError:
                continue
            if price <= g.corp(cid)["cash"] and (below_zero or price >= 0):
                found.append((t, old, price))
    return found


def can_buy_train(g: G, cid: str) -> bool:
    """A trade-in it can pay for (5033.json #663: IR at two trains trades its 5 for a D), or room and cash for the
    cheapest train offered (another corporation's train counts as 1)."""
    if trade_ins(g, cid, below_zero=True):
        return True
    if not room(g, cid):
        return False
    cash = g.corp(cid)["cash"]
    # another corporation's train first: found at once after the first sale, where the depot's are each priced
    if cash >= 1 and any(c["trains"] for other, c in g.s["corps"].items() if other != cid):  # other_trains
        return True
    return any(list_price(g, t) <= cash for t in depot_offer(g) if g.rules.may_buy_train(g, cid, t))


def emergency(g: G, cid: str) -> bool:
    """Must buy a train and cannot pay the cheapest the depot offers from the treasury (nor, where the title lends,
    with the loans it may take: then it borrows instead)."""
    low = g.rules.cheapest_train_price(g)
    return must_buy(g, cid) and low is not None and g.rules.buying_power(g, cid) < low


def shortfall(g: G, cid: str) -> int:
    president = g.president(cid)
    return cheapest_depot_price(g) - g.corp(cid)["cash"] - g.s["cash"][president]


def tile_colours(colours) -> object:
    """A phase's tile colours in words (a message), as its events say them."""
    template = TILE_COLOURS.get(tuple(colours))
    return msg(template) if template else ", ".join(colours)
