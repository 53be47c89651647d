"""1807's merger round: the minors' part of merger_round.py (1867's with the takeover) with every affected owner's
consent, then, from phase 6, the public companies forming systems (the seed's merger round; docs/rules/1807.md).

- Minors (part "minors"): as 1867's round, but a minor of another player joins a merger only if its owner agrees
  (`accept_offer` / `decline_offer`); a declined minor is not asked again for this merger.
- Systems (part "systems", from phase 6): each public company in turn, by share price, may by its president gather
  up to three more public companies its track reaches (`merge_system`; another president's company joins only if
  he agrees), then form a system (`form_system` naming it), or pass. One company converts alone (its president
  presides no other public company, and an unstarted public company is left to leave the game); two form an
  8-token system when one is free; three and four a 12-token one. The exchange (`exchange`): shares are counted in
  units (a president's certificate is two of a public company's, four of a system's); 1:1 for one or two
  companies, 3:2 for three, 2:1 for four, a player's odd shares settled in money as the seed says; where the seed
  gives him a choice (three companies, two odd shares he cannot pay for) he makes it (`odd_shares`, stage "odd")
  before the system forms, each in turn, the others waiting. The system takes
  the companies' cash, trains, loans, privates and tokens (one token a city; its president removes those over its
  charter), and the public companies start again as if never started.

The site (18xx.games) has no systems: `form_system`, `merge_system` and `odd_shares` are in
`Rules1807.SITE_UNPLAYED`, and
nothing of the systems part is exported (engines/e18xx/export.py).

Round state adds: part ("minors" | "systems"), consent (a pending agreement: seat, corporation, other, action),
declined [ids asked and refused in the merger of declined_for, the corporation then in turn], publics [ids],
pindex, gathering [ids], reducing (a new system removing tokens over its charter), odd (a system about to form while
players choose how their odd shares settle: publics, system, choices {seat key: "share" | "money"}).
"""
from __future__ import annotations

from typing import Any

from engines.base import Action, RuleError
from engines.e18xx import trains
from engines.e18xx.companies import IPO, POOL, initial_holdings
from engines.e18xx.g1807 import merger_round as minors
from engines.e18xx.g1867 import charter, loans
from engines.e18xx.g1867 import merger as base
from engines.e18xx.state import BANK, G
from engines.text import N_, Msg, msg

SYSTEM_PHASE_STATUS = "systems_form"
MAX_PUBLICS = 4
UNITS = 20  # a system's 100% in 5% shares
PRESIDENT_UNITS = 4  # its 20% president's certificate
#: new units for old units, by the number of public companies merging (the seed: 1:1, 1:1, 3:2, 2:1)
RATIO = {1: (1, 1), 2: (1, 1), 3: (2, 3), 4: (1, 2)}
CONSENT_MOVES = ({"type": "accept_offer"}, {"type": "decline_offer"})
#: A player's two odd shares of a 3-company merger he cannot pay for (or too few new shares): one new share and a
#: third of the price, or four thirds of the price, received from the system (the seed). Either keeps the system a
#: president: the chooser keeps four shares or more with either when he has them with one, and a share he leaves
#: only adds to a later player's.
ODD_CHOICES = ("share", "money")
#: What the system pays a player for odd shares, said once: by his choice (who chose, what he got, what he gave), or
#: with no choice (one odd share he cannot pay for).
_PAID_FOR_ODD_SHARES = {
    "share": N_("[0] chooses one {system} share and {amount} for two odd shares."),
    "money": N_("[0] chooses {amount} from {system} for two odd shares, and no share."),
    None: N_("{system} pays [0] {amount} for odd shares."),
}


# ---- the round ----------------------------------------------------------------------------------------------

def start(g: G, turn: int, number: int, of: int) -> None:
    minors.start(g, turn, number, of)
    g.round.update(part="minors", consent=None, declined=[], publics=[], pindex=0, gathering=[], reducing=None,
                   odd=None)


def systems_allowed(g: G) -> bool:
    """From phase 6; never in a replay of a game recorded on 18xx.games, which has no systems."""
    return SYSTEM_PHASE_STATUS in g.phase.status and not g.trusted


def in_systems(g: G) -> bool:
    return g.round.get("part") == "systems"


def current(g: G) -> str | None:
    """The corporation whose turn it is: a minor, then (systems part) a public company."""
    r = g.round
    if not in_systems(g):
        return minors.current(g)
    return r["publics"][r["pindex"]] if r["pindex"] < len(r["publics"]) else None


def stage(g: G) -> str:
    """"consent", then the new system's "reduce" or 1867's stages in the minors' part; in the systems part
    "odd" (a player chooses how his odd shares settle), "reduce", "discard" or "public"."""
    r = g.round
    if r.get("consent"):
        return "consent"
    if r.get("odd"):
        return "odd"
    if not in_systems(g):
        return minors.stage(g)
    if r.get("reducing"):
        return "reduce"
    if trains.crowded(g):
        return "discard"
    return "public"


def acting(g: G) -> frozenset[int]:
    r = g.round
    now = stage(g)
    if now == "consent":
        return frozenset({r["consent"]["seat"]})
    if now == "odd":
        return frozenset({odd_chooser(g)})
    if not in_systems(g):
        return minors.acting(g)
    if now == "reduce":
        return frozenset({g.president(r["reducing"])})
    if now == "discard":
        return frozenset(g.president(c) for c in trains.crowded(g))
    cid = current(g)
    return frozenset({g.president(cid)}) if cid else frozenset()


def prompt(g: G) -> Msg:
    r = g.round
    now = stage(g)
    if now == "consent":
        c = r["consent"]
        return msg("{other}'s owner decides whether it joins {corp}'s merger", other=c["other"],
                   corp=c["corporation"])
    if now == "odd":
        return msg("two odd shares settle as {system} forms: one share and a third of its price, or four thirds",
                   system=r["odd"]["system"])
    if not in_systems(g):
        return minors.prompt(g)
    if now == "reduce":
        return msg("{corp} removes tokens down to {n}", corp=r["reducing"], n=capacity(g, r["reducing"]))
    if now == "discard":
        return msg("{corps} discards trains down to the limit", corps=", ".join(trains.crowded(g)))
    return msg("{corp} may form a system or pass", corp=current(g))


def finished(g: G) -> bool:
    r = g.round
    if r.get("consent") or r.get("odd"):
        return False
    if not in_systems(g):
        return minors.finished(g) and not systems_allowed(g)
    return current(g) is None and not r.get("reducing") and not trains.crowded(g)


def settle(g: G) -> None:
    r = g.round
    if r.get("consent") or r.get("odd"):
        return
    if not in_systems(g):
        minors.settle(g)
        if not (minors.finished(g) and systems_allowed(g)):
            return
        r.update(part="systems", publics=[c for c in g.rules.operating_order(g) if g.cdef(c).kind == "major"],
                 pindex=0, gathering=[], declined=[])
        g.event("The public companies may now form systems.")
    for _ in range(100):
        if stage(g) != "public" or (cid := current(g)) is None or r["gathering"] or _has_move(g, cid):
            return
        _next_public(g)  # nothing to do: passed over (the site has no systems part to record a pass in)


def _next_public(g: G) -> None:
    r = g.round
    r.update(pindex=r["pindex"] + 1, gathering=[], declined=[])


# ---- the minors' part: consent ----------------------------------------------------------------------------------

def declined(g: G) -> list[str]:
    """The corporations whose owners refused to join the current corporation's merger (asked again for another's)."""
    r = g.round
    return r["declined"] if r.get("declined_for") == current(g) else []


def _minor_needs_consent(g: G, seat: int, action: Action) -> bool:
    r = g.round
    other = action.get("corporation")
    return (action["type"] == "merge" and minors.stage(g) == "minor" and not r["choosing"] and isinstance(other, str)
            and other in base.candidates(g, minors.current(g)) and g.president(other) != seat)


def _ask(g: G, seat: int, corp: str, other: str, action: Action) -> None:
    owner = g.president(other)
    g.round["consent"] = {"seat": owner, "corporation": corp, "other": other, "action": dict(action),
                          "proposer": seat}
    g.event("[0] asks [1] whether {other} joins {corp}'s merger.", seat, owner, other=other, corp=corp)


def _answer(g: G, seat: int, action: Action) -> None:
    r = g.round
    c = r["consent"]
    if action["type"] not in ("accept_offer", "decline_offer"):
        raise RuleError("{other}'s owner first answers whether it joins {corp}'s merger.", other=c["other"],
                        corp=c["corporation"])
    r["consent"] = None
    if action["type"] == "decline_offer":
        r["declined"] = [*declined(g), c["other"]]
        r["declined_for"] = current(g)
        g.event("[0] declines: {other} does not join {corp}'s merger.", seat, other=c["other"], corp=c["corporation"])
        return
    g.event("[0] agrees: {other} joins {corp}'s merger.", seat, other=c["other"], corp=c["corporation"])
    if in_systems(g):
        _gather(g, c["other"])
    else:
        minors.apply(g, c["proposer"], c["action"])


# ---- the systems' part ------------------------------------------------------------------------------------------

def capacity(g: G, system: str) -> int:
    return len(g.cdef(system).tokens)


def systems_free(g: G, size: int) -> list[str]:
    """The systems a merger of `size` public companies may form: an 8-token one for one or two companies while one
    is free (else a 12-token one); a 12-token one for three or four."""
    free = [c for c in g.s["corps"] if g.cdef(c).kind == "system" and g.cell(c) is None
            and not g.corp(c).get("closed")]
    eights = [c for c in free if capacity(g, c) == 8]
    twelves = [c for c in free if capacity(g, c) == 12]
    return (eights or twelves) if size <= 2 else twelves


def _reach_joins(g: G, gathering: list[str]) -> list[str]:
    """Public companies with a token in a city the gathering's track reaches (1867's connection for minors)."""
    board, found = g.board, []
    r = g.round
    for corp in gathering:
        for ref in sorted(board.reachable(corp).nodes):
            if board.node(ref).kind != "city":
                continue
            for other in board.slots(*ref):
                if (other and other not in found and other not in gathering and other in g.s["corps"]
                        and g.cdef(other).kind == "major" and g.corp(other)["floated"]
                        and other in r["publics"][r["pindex"]:] and other not in declined(g)):
                    found.append(other)
    return found


def candidates(g: G, cid: str) -> list[str]:
    gathering = g.round["gathering"] or [cid]
    if len(gathering) >= MAX_PUBLICS:
        return []
    return _reach_joins(g, gathering)


def unstarted_publics(g: G, but: list[str]) -> list[str]:
    return [c for c in g.s["corps"] if g.cdef(c).kind == "major" and g.cell(c) is None and c not in but
            and not g.corp(c).get("closed")]


def form_problem(g: G, publics: list[str], system: str | None = None) -> Msg | None:
    """Why these public companies cannot form a system (`system` when one is named), or None."""
    free = systems_free(g, len(publics))
    if not free:
        return msg("No system charter is free for {n} public companies.", n=len(publics))
    if system is not None and system not in free:
        return msg("{n} public companies form one of {systems}.", n=len(publics), systems=", ".join(free))
    if len(publics) == 1:
        president = g.corp(publics[0])["president"]
        if any(g.corp(c)["president"] == president for c in g.s["corps"]
               if c != publics[0] and g.cdef(c).kind == "major" and g.cell(c) is not None):
            return msg("A public company converts alone only when its president presides no other.")
        if not unstarted_publics(g, publics):
            return msg("A public company converts alone only while an unstarted public company is left.")
    deal = exchange(g, publics, system_cell(g, publics).price)
    if deal["president"] is None:
        return msg("Nobody would hold 20% of the system: it cannot form.")
    return None


def _has_move(g: G, cid: str) -> bool:
    return bool(candidates(g, cid)) or form_problem(g, [cid]) is None


def _gather(g: G, other: str) -> None:
    r = g.round
    cid = current(g)
    r["gathering"] = (r["gathering"] or [cid]) + [other]
    g.event("{corp} joins the system merger of {corps}.", corp=other, corps=", ".join(r["gathering"][:-1]))


def apply(g: G, seat: int, action: Action) -> None:
    r = g.round
    if seat not in acting(g):
        raise RuleError("It is not your turn.")
    if r.get("consent"):
        return _answer(g, seat, action)
    if not in_systems(g):
        if _minor_needs_consent(g, seat, action) and not g.trusted:
            if action["corporation"] in declined(g):
                raise RuleError("{other}'s owner has declined this merger.", other=action["corporation"])
            return _ask(g, seat, minors.current(g), action["corporation"], action)
        return minors.apply(g, seat, action)
    now, kind = stage(g), action["type"]
    if now == "odd":
        return _choose_odd(g, seat, action)
    if now == "reduce":
        return _remove_token(g, action)
    if now == "discard":
        if kind != "discard_train":
            raise RuleError("{corps} must first discard down to the train limit.", corps=", ".join(trains.crowded(g)))
        return base._discard(g, seat, action)
    cid = current(g)
    if action.get("entity") not in (None, cid):
        raise RuleError("It is {corp}'s turn in the merger round, not {entity}'s.", corp=cid, entity=action["entity"])
    if kind == "merge_system":
        other = action.get("corporation")
        if other not in candidates(g, cid):
            raise RuleError("{corp} cannot merge with {other}: only public companies its track reaches, four in all.",
                            corp=cid, other=other)
        if g.president(other) != seat:
            return _ask(g, seat, cid, other, action)
        _gather(g, other)
    elif kind == "form_system":
        publics = r["gathering"] or [cid]
        if problem := form_problem(g, publics, action.get("corporation")):
            raise RuleError(problem)
        r["odd"] = {"publics": list(publics), "system": action["corporation"], "choices": {}}
        _form_when_chosen(g)
    elif kind == "pass":
        if r["gathering"]:
            g.event("The system merger of {corps} is called off.", corps=", ".join(r["gathering"]))
        else:
            g.event("{corp} forms no system.", corp=cid)
        _next_public(g)
    else:
        raise RuleError("In this part of the merger round a public company merges, forms a system or passes.")


def legal(g: G, seat: int) -> list[Action]:
    r = g.round
    if seat not in acting(g):
        return []
    if r.get("consent"):
        return [dict(m) for m in CONSENT_MOVES]
    if not in_systems(g):
        moves = minors.legal(g, seat)
        return [m for m in moves if not (m["type"] == "merge" and m.get("corporation") in declined(g))]
    now = stage(g)
    if now == "odd":
        return [{"type": "odd_shares", "choice": c} for c in ODD_CHOICES]
    if now == "reduce":
        target = r["reducing"]
        return [{"type": "remove_token", "entity": target, "hex": h, "city": i} for h, i in g.board.token_nodes(target)]
    if now == "discard":
        return [{"type": "discard_train", "entity": c, "train": t}
                for c in trains.crowded(g) if g.president(c) == seat for t in g.corp(c)["trains"]]
    cid = current(g)
    publics = r["gathering"] or [cid]
    moves: list[Action] = [{"type": "merge_system", "entity": cid, "corporation": c} for c in candidates(g, cid)]
    if form_problem(g, publics) is None:
        moves += [{"type": "form_system", "entity": cid, "corporation": s} for s in systems_free(g, len(publics))]
    return [*moves, {"type": "pass", "entity": cid}]


def auto(g: G, seat: int) -> Action | None:
    moves = legal(g, seat)
    if not moves:
        return None
    if g.round.get("consent"):
        return {"type": "decline_offer"}
    if not in_systems(g):
        return minors.auto(g, seat)
    return moves[0] if stage(g) != "public" else moves[-1]


def describe(g: G) -> dict[str, Any]:
    r = g.round
    view = minors.describe(g)
    view.update(part=r.get("part", "minors"), consent=dict(r["consent"]) if r.get("consent") else None,
                public=current(g) if in_systems(g) else None, gathering=list(r.get("gathering") or []),
                odd=dict(r["odd"]) if r.get("odd") else None)
    return view


# ---- forming a system ---------------------------------------------------------------------------------------------

def _cell_at_most(g: G, price: int):
    """The dearest market cell at most `price` (the cheapest that is not the closing cell when none is)."""
    cells = [c for c in g.title.market.cells if not c.closes]
    fitting = [c for c in cells if c.price <= price]
    return max(fitting, key=lambda c: c.price) if fitting else min(cells, key=lambda c: c.price)


def system_cell(g: G, publics: list[str]):
    """One company: its own price; two: their average; three: highest plus lowest, then three steps left; four:
    highest plus lowest (the seed). A price between cells takes the cell below."""
    prices = [g.price(c) for c in publics]
    if len(publics) == 1:
        return g.cell(publics[0])
    if len(publics) == 2:
        return _cell_at_most(g, sum(prices) // 2)
    cell = _cell_at_most(g, max(prices) + min(prices))
    if len(publics) == 3:
        for _ in range(3):
            cell = g.title.market.left(cell)
    return cell


def _units(g: G, cid: str, holder: str) -> int:
    return g.percent(cid, holder) // g.cdef(cid).cert_unit


def exchange(g: G, publics: list[str], price: int, choices: dict[str, str] | None = None) -> dict[str, Any]:
    """The share exchange, worked out without changing anything: new units by holder (players by seat key, the pool,
    the system's treasury), money by player (+ paid to the system, - paid by it), the president, and `open`: the
    players (seat keys, in settling order) with a choice (ODD_CHOICES) not in `choices`, counted as "share".

    Units are counted over all the merging companies together. new, old = RATIO[n]; each player gets old // `old`
    sets of `new`, the pool likewise; then, players from the initiating company's president in turn order, the odd
    shares: with 3:2, one odd share is one new share for a third of the price, two are two new shares for two thirds
    (one who cannot pay, or when shares run out, receives two thirds for one; for two, one share and a third, or
    four thirds, his choice); with 2:1, one odd share is a new share for half the price (or half the price
    received). Amounts
    are rounded down. The treasury keeps what is left of the 20. The president: most units, ties to the initiating
    company's president, then in turn order from him; nobody with 4 (20%) means no system."""
    n = len(publics)
    new, old = RATIO[n]
    first = g.president(publics[0])
    order = g.order[g.order.index(first):] + g.order[:g.order.index(first)]
    held = {g.key(s): sum(_units(g, c, g.key(s)) for c in publics) for s in order}
    units: dict[str, int] = {k: u // old * new for k, u in held.items()}
    units[POOL] = sum(_units(g, c, POOL) for c in publics) // old * new
    left = UNITS - sum(units.values())
    money: dict[str, int] = {}
    chosen, open_ = choices or {}, []
    for key, u in held.items():
        odd = u % old
        if not odd:
            continue
        cash = g.s["cash"][int(key)]
        if n == 3 and odd == 1:
            if left >= 1 and cash >= price // 3:
                units[key], left, money[key] = units[key] + 1, left - 1, price // 3
            else:
                money[key] = -(price * 2 // 3)
        elif n == 3:
            if left >= 2 and cash >= price * 2 // 3:
                units[key], left, money[key] = units[key] + 2, left - 2, price * 2 // 3
            elif left >= 1 and chosen.get(key) != "money":  # his choice: a share and a third (until he chooses)
                open_ += [key] if key not in chosen else []
                units[key], left, money[key] = units[key] + 1, left - 1, -(price // 3)
            else:  # four thirds: his choice, or no share left
                money[key] = -(price * 4 // 3)
        elif n == 4:
            if left >= 1 and cash >= price // 2:
                units[key], left, money[key] = units[key] + 1, left - 1, price // 2
            else:
                money[key] = -(price // 2)
    units[IPO] = left
    top = max(units[k] for k in held)
    president = next((k for k in held if units[k] == top), None) if top >= PRESIDENT_UNITS else None
    return {"units": units, "money": money, "president": president, "open": open_}


def _odd_deal(g: G, choices: dict[str, str]) -> dict[str, Any]:
    odd = g.round["odd"]
    return exchange(g, odd["publics"], system_cell(g, odd["publics"]).price, choices)


def odd_chooser(g: G) -> int:
    """The seat choosing now: the first, in settling order, whose choice is not made."""
    return int(_odd_deal(g, g.round["odd"]["choices"])["open"][0])


def _choose_odd(g: G, seat: int, action: Action) -> None:
    choice = action.get("choice")
    if action["type"] != "odd_shares":
        raise RuleError("First choose how your two odd shares of {system} settle.", system=g.round["odd"]["system"])
    if choice not in ODD_CHOICES:
        raise RuleError("Choose one share and a third of the price, or four thirds of the price.")
    g.round["odd"]["choices"][g.key(seat)] = choice
    _form_when_chosen(g)  # the choice is told as the system pays for it (form), once


def _form_when_chosen(g: G) -> None:
    """The system forms once every player with a choice has made it."""
    r = g.round
    odd = r["odd"]
    if _odd_deal(g, odd["choices"])["open"]:
        return
    r["odd"] = None
    publics = odd["publics"]
    form(g, publics, odd["system"], odd["choices"])
    r["publics"] = [c for c in r["publics"] if c not in publics[1:]]
    _next_public(g)


def form(g: G, publics: list[str], system: str, choices: dict[str, str] | None = None) -> None:
    cell = system_cell(g, publics)
    deal = exchange(g, publics, cell.price, choices)
    corp = g.corp(system)
    g.s["market"] = g.title.market.with_par(g.s["market"], system, cell)
    corp.update(par=cell.price, floated=True, operated=True, has_operated=True)
    charter.reset(g, system)
    for cid in publics:
        _carry(g, cid, system)
    _deal_certificates(g, system, deal)
    for key, amount in deal["money"].items():
        if amount > 0:
            g.pay(key, system, amount)
            g.event("[0] pays {amount} to {system} for odd shares.", int(key), amount=g.amount(amount), system=system)
        elif amount < 0:
            loans.borrow_for(g, system, -amount)
            paid = min(-amount, corp["cash"])
            g.pay(system, key, paid)
            g.event(_PAID_FOR_ODD_SHARES[(choices or {}).get(key)], int(key), amount=g.amount(paid), system=system)
    if len(publics) == 1:
        gone = unstarted_publics(g, publics)[0]
        g.corp(gone)["closed"] = True
        g.event("{corp} leaves the game.", corp=gone)
    for cid in publics:
        _restart(g, cid)
    g.event("{corps} form {system} at {price}; [0] is its president.", int(deal["president"]),
            corps=", ".join(publics), system=system, price=g.amount(cell.price))
    for key in sorted((k for k in deal["units"] if k.isdigit() and deal["units"][k]), key=int):
        g.event("[0] now holds {percent}% of {system}.", int(key), percent=g.percent(system, key), system=system)
    if len(g.board.token_nodes(system)) > capacity(g, system):
        g.round["reducing"] = system
    else:
        _trim_charter(g, system)


def _carry(g: G, cid: str, system: str) -> None:
    """The public company's cash, trains, loans, privates and tokens go to the system; a token in a city where the
    system has one already goes back (one token a city)."""
    board = g.board
    for coord, node in board.token_nodes(cid):
        board = board.remove_token(coord, node, cid)
        if system not in board.slots(coord, node):
            board = board.place_token(coord, system, node, second_on_tile=True)
            charter.take(g, system, coord, node)
    g.set_board(board)
    base.hand_over(g, cid, system)


def _deal_certificates(g: G, system: str, deal: dict[str, Any]) -> None:
    """The president's certificate (four units) to the president, 5% certificates to everyone else."""
    cdef = g.cdef(system)
    rest = list(cdef.share_ids[1:])
    shares: dict[str, list[str]] = {}
    president = deal["president"]
    for key, u in deal["units"].items():
        if key == IPO or not u:
            continue
        if key == president:
            shares[key], u = [cdef.president_cert], u - PRESIDENT_UNITS
        shares.setdefault(key, []).extend(rest[:u])
        rest = rest[u:]
    shares[IPO] = rest
    g.corp(system).update(shares=shares, president=president)


def _restart(g: G, cid: str) -> None:
    """A public company merged into a system starts again as if never started (its charter back in the box)."""
    cdef = g.cdef(cid)
    g.s["market"] = {cell: [c for c in cs if c != cid] for cell, cs in g.s["market"].items() if cs != [cid]}
    g.corp(cid).update(cash=0, trains=[], loans=0, floated=False, par=None, president=None,
                       shares=initial_holdings(cdef), operated=False, has_operated=False)
    charter.reset(g, cid)


def _trim_charter(g: G, system: str) -> None:
    """The system keeps its charter's count of tokens: those placed, then free ones."""
    c = g.corp(system)
    placed = [t for t in c["charter"] if t[1] is not None]
    free = [t for t in c["charter"] if t[1] is None]
    c["charter"] = (placed + free)[:capacity(g, system)]


def _remove_token(g: G, action: Action) -> None:
    system = g.round["reducing"]
    if action["type"] != "remove_token":
        raise RuleError("{corp} must first remove tokens down to {n}.", corp=system, n=capacity(g, system))
    coord, node = action.get("hex"), action.get("city", 0)
    if (coord, node) not in g.board.token_nodes(system):
        raise RuleError("{corp} has no token there.", corp=system)
    g.set_board(g.board.remove_token(coord, node, system))
    charter.release(g, system, coord, node)
    g.event("{corp} removes its token from {where}.", corp=system, where=g.place(coord))
    if len(g.board.token_nodes(system)) <= capacity(g, system):
        _trim_charter(g, system)
        g.round["reducing"] = None


# ---- systems operating -------------------------------------------------------------------------------------------

def dividend(g: G, cid: str, kind: str, revenue: int) -> None:
    """A system pays all or half (per 5% share, rounded down; the rest stays in its treasury) or nothing; paying,
    its price moves one step right when ten times the dividend per share is at least its price, two when it is at
    least twice its price (the seed)."""
    from engines.e18xx import operating
    if kind == "withhold" or not revenue:
        operating.withhold(g, cid, revenue)
        return
    paid = revenue // 2 if kind == "half" else revenue
    per_share = paid // UNITS
    price = g.price(cid)
    steps = 2 if per_share * 10 >= 2 * price else int(per_share * 10 >= price)
    cdef, corp = g.cdef(cid), g.corp(cid)
    to_corp = revenue - per_share * UNITS
    for holder, certs in corp["shares"].items():
        units = cdef.bundle_percent(certs) // cdef.cert_unit
        if holder == IPO:
            to_corp += per_share * units
        elif holder != POOL and units:
            g.pay(BANK, holder, per_share * units)
    g.pay(BANK, cid, to_corp)
    g.move_price(cid, g.title.market.after_payout(g.cell(cid), steps))
    g.event("{corp} pays {per_share} a share ({paid} in all), keeping {kept}; its price goes from {before} to "
            "{after}.", corp=cid, per_share=g.amount(per_share), paid=g.amount(per_share * UNITS),
            kept=g.amount(revenue - per_share * UNITS), before=g.amount(price), after=g.amount(g.price(cid)))
