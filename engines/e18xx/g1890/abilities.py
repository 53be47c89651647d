"""1890's company abilities beyond the shared ones (rules C8.1-C8.4; docs/rules/1890.md).

- Osaka Subway: from phase 4 its trains ignore other companies' tokens in brown Osaka tiles (Osaka Kita, Nishi,
  Higashi, Minami); in its first operating turn its tile in Osaka costs nothing; Osaka Municipal Electric's block
  of the Osaka hexes ends as the Subway first operates, and the private closes when the Subway buys a train.
- Late privates (full game), bought from the bank at face value in regular stock rounds from game turn 2:
  Keifuku (Keihan receives 40 each operating round while it has a token in Kyoto), Kobe Rapid Transit (takes Kobe,
  see below), Kita-Osaka Kyuko (40 more, once, in the operating round after the first 6-train), Semboku (each
  public with a token in Sakai receives 40 each operating round).
- Kobe Rapid Transit: bought, it sends every token in Kobe but JR's back to its company and puts its own there; a
  public company may pay 100 as its token step to ignore that token (free for those whose token it sent back; never
  the Subway); each route of a company without a token in Kobe that counts Kobe pays its owner half of Kobe's value
  (with the variant "Kobe Rapid Transit revenue control", option kobe_rapid_control: 10, 15 or 20 by the colour of
  Kobe's tile; docs/rules/1890.md ruling 29).
- Full game: Hankyu receives 40 each operating round with a token in Takarazuka, and 10 for each yellow tile it
  lays; Hanshin, once Nishinomiya is brown, earns 10 more when it runs there and receives 10 into its treasury.
  With the variant "Hanshin Tigers" (option tigers_die, rules §"Variants: Hanshin Tigers") a die sets instead
  Nishinomiya's value for Hanshin in each turn it runs there (1: 100, 2: 60, 3: 50, 4-6: 40), no treasury bonus:
  runs_made leaves round["tigers"] (Nishinomiya's value as run), the game awaits the chance seat's die
  (Rules1890.chance_request) and tigers_roll puts the difference into each run through Nishinomiya.

State: flags["kobe_rapid_ignore"] [companies that ignore Kobe Rapid's token], flags["expo"] (None, "due", "paid").
"""
from __future__ import annotations

from typing import Any

from engines.base import ChanceRequest, RuleError
from engines.e18xx.board import NEUTRAL
from engines.e18xx.state import BANK, G
from engines.text import msg

SUBWAY, OSAKA_TRAM = "Subway", "OsakaTram"
DAIKI, DAITETSU = "Daiki", "Daitetsu"
OSAKA = ("G12", "H11", "H13", "I12")
KOBE, SAKAI, KYOTO, TAKARAZUKA, NISHINOMIYA = "F5", "J11", "B17", "D9", "F9"
KEIFUKU, KOBE_RAPID, KITA_KYU, SEMBOKU = "Keifuku", "KobeRapid", "KitaKyu", "Semboku"
KOBE_RAPID_TOKEN = "KobeRapid"
KOBE_FEE = 100
#: The variant "Kobe Rapid Transit revenue control": its take from a route through Kobe by Kobe's tile colour.
KOBE_RAPID_CONTROL = {"yellow": 10, "green": 15, "brown": 20}
#: the Hanshin Tigers variant: the die -> Nishinomiya's value for Hanshin
TIGERS_DIE = {1: 100, 2: 60, 3: 50, 4: 40, 5: 40, 6: 40}
SUBSIDY = 40


def full_game(g: G) -> bool:
    return g.title.id == "1890"


def owned(g: G, pid: str) -> bool:
    p = g.s["privates"].get(pid)
    return p is not None and p["owner"] is not None and not p["closed"]


def has_token(g: G, cid: str, coord: str) -> bool:
    return any(c == coord for c, _ in g.board.token_nodes(cid))


def option(g: G, name: str) -> bool:
    return bool(g.s["opts"].get(name))


def late_abilities(g: G) -> bool:
    """The variant "late private company abilities" takes them away (Kobe Rapid Transit then pays 50)."""
    return not option(g, "no_late_abilities")


# ---- the Subway ---------------------------------------------------------------------------------------

def subway_ignores(g: G) -> list[str]:
    """The Osaka hexes whose other tokens the Subway's trains ignore now (brown ones, from phase 4)."""
    names = [p.name for p in g.title.phases]
    if "4" not in names or g.phase_index() < names.index("4"):
        return []
    board = g.board
    return [c for c in OSAKA if c in g.map.printed and board.tile(c).colour in ("brown", "gray")]


def route_board(g: G, cid: str):
    """The board as `cid`'s trains see it: tokens it ignores stand as neutral ones (they block nobody)."""
    if cid == DAITETSU:
        return shared_home(g)
    ignore: dict[str, set[str]] = {}
    if cid == SUBWAY:
        for coord in subway_ignores(g):
            ignore.setdefault(coord, set()).add("*")
    if cid in g.s["flags"].get("kobe_rapid_ignore", []):
        ignore.setdefault(KOBE, set()).add(KOBE_RAPID_TOKEN)
    board = g.board
    if not ignore:
        return board
    tokens = dict(board.tokens)
    changed = False
    for coord, who in ignore.items():
        per_node = tokens.get(coord)
        if not per_node:
            continue
        new = tuple(tuple(NEUTRAL if t is not None and t != cid and ("*" in who or t in who) else t for t in slots)
                    for slots in per_node)
        if new != per_node:
            tokens[coord], changed = new, True
    if not changed:
        return board
    from dataclasses import replace
    return replace(board, tokens=tokens)


def shared_home(g: G):
    """Osaka Railway (minor 3) has no token of its own: it runs from Osaka Electric Railroad's (minor 2) in Osaka
    Higashi (rules C8.3: "Minor companies 2 and 3 operate out of the same station token in Osaka Higashi"), so its
    trains see that token as theirs."""
    board = g.board
    tokens = {coord: tuple(tuple(DAITETSU if t == DAIKI else t for t in slots) for slots in per_node)
              for coord, per_node in board.tokens.items()}
    if tokens == board.tokens:
        return board
    from dataclasses import replace
    return replace(board, tokens=tokens)


def subway_first_lay(g: G, cid: str) -> bool:
    return cid == SUBWAY and not g.corp(cid).get("has_operated")


def subway_train_bought(g: G) -> None:
    """Osaka Municipal Electric closes when the Subway has bought a train."""
    if SUBWAY in g.s["corps"] and g.corp(SUBWAY)["trains"] and g.private_open(OSAKA_TRAM) and full_game(g):
        g.s["privates"][OSAKA_TRAM]["closed"] = True
        g.event("{private} closes: {corp} has bought a train.", private=g.private_name(OSAKA_TRAM), corp=SUBWAY)


def subway_starts(g: G) -> None:
    """Osaka Municipal Electric's block of the Osaka hexes ends in the round of the Subway's first turn."""
    p = g.s["privates"].get(OSAKA_TRAM)
    if p and not p.get("unblocked") and SUBWAY in g.round.get("order", []) and full_game(g):
        p["unblocked"] = True
        g.event("{private} no longer blocks the Osaka hexes.", private=g.private_name(OSAKA_TRAM))


# ---- Kobe Rapid Transit -------------------------------------------------------------------------------

def kobe_rapid_room(g: G) -> bool:
    """Whether Kobe has a slot for Kobe Rapid's token once every token but JR's has left (rules: it is placed
    "like a normal station token"; the yellow Kobe has JR's slot only: CONFLICTS 22, our ruling)."""
    board = g.board
    for node in board.tile(KOBE).city_indexes():
        slots = board.slots(KOBE, node)
        left = [t for t in slots if t == "JR"]
        reserved = board.reservation(KOBE, node)
        free = len(slots) - len(left) - (1 if reserved and reserved not in left else 0)
        if free > 0:
            return True
    return False


def kobe_rapid_bought(g: G, seat: int) -> None:
    board = g.board
    sent_back = []
    for node in board.tile(KOBE).city_indexes():
        for holder in board.slots(KOBE, node):
            if holder is not None and holder not in ("JR", NEUTRAL):
                board = board.remove_token(KOBE, node, holder)
                sent_back.append(holder)
    for node in board.tile(KOBE).city_indexes():
        if board.free_slot(KOBE, KOBE_RAPID_TOKEN, node) is not None:
            board = board.place_token(KOBE, KOBE_RAPID_TOKEN, node)
            break
    g.set_board(board)
    ignore = g.s["flags"].setdefault("kobe_rapid_ignore", [])
    ignore += [c for c in sent_back if c not in ignore and c != SUBWAY]
    g.event("{private} takes its place in Kobe; the tokens of {corps} go back to their companies.",
            private=g.private_name(KOBE_RAPID), corps=", ".join(sent_back) or "-")


def kobe_fee_open(g: G, cid: str) -> bool:
    """A public company may pay 100 (its token step) to ignore Kobe Rapid's token; not JR nor the Subway."""
    return (owned(g, KOBE_RAPID) and late_abilities(g) and cid not in ("JR", SUBWAY)
            and g.cdef(cid).kind != "minor" and cid not in g.s["flags"].get("kobe_rapid_ignore", [])
            and not g.round.get("tokened") and g.corp(cid)["cash"] >= KOBE_FEE)


def pay_kobe_fee(g: G, cid: str) -> None:
    g.pay(cid, BANK, KOBE_FEE)
    g.s["flags"].setdefault("kobe_rapid_ignore", []).append(cid)
    g.round["tokened"] = True
    g.event("{corp} pays {fee} to run through Kobe past {private}'s token.", corp=cid, fee=g.amount(KOBE_FEE),
            private=g.private_name(KOBE_RAPID))


def kobe_value(g: G) -> int:
    board = g.board
    node = next((board.node((KOBE, i)) for i in board.tile(KOBE).city_indexes()), None)
    return node.revenue_for(g.colours) if node else 0


def kobe_rapid_take(g: G) -> int:
    """What Kobe Rapid Transit's owner earns from a route through Kobe: half Kobe's value (rounded down), or by the
    variant's table."""
    if option(g, "kobe_rapid_control"):
        return KOBE_RAPID_CONTROL.get(g.board.tile(KOBE).colour, max(KOBE_RAPID_CONTROL.values()))
    return kobe_value(g) // 2


# ---- after the trains ran -----------------------------------------------------------------------------

def runs_made(g: G, cid: str, runs: list[dict[str, Any]]) -> int:
    extra = 0
    if cid == "Hanshin" and full_game(g) and g.board.tile(NISHINOMIYA).colour in ("brown", "gray") and any(
            NISHINOMIYA in r["hexes"] and r["revenue"] for r in runs):
        if option(g, "tigers_die"):
            g.round["tigers"] = {"corp": cid, "value": city_value(g, NISHINOMIYA)}
        else:
            extra += 10
            g.pay(BANK, cid, 10)
            g.event("{corp} runs to Nishinomiya: the Hanshin Tigers add {bonus} to its revenue and {bonus} to its "
                    "treasury.", corp=cid, bonus=g.amount(10))
    if owned(g, KOBE_RAPID) and late_abilities(g) and not has_token(g, cid, KOBE):
        owner = g.s["privates"][KOBE_RAPID]["owner"]
        take = kobe_rapid_take(g)
        for r in runs:
            if KOBE in r["hexes"] and r["revenue"] and take:
                g.pay(BANK, owner, take)
                g.event("{private} earns {amount} from {corp}'s train through Kobe.",
                        private=g.private_name(KOBE_RAPID), amount=g.amount(take), corp=cid)
    return extra


def city_value(g: G, coord: str) -> int:
    board = g.board
    node = next((board.node((coord, i)) for i in board.tile(coord).city_indexes()), None)
    return node.revenue_for(g.colours) if node else 0


def tigers_request(g: G) -> ChanceRequest | None:
    if g.round.get("kind") != "operating" or not g.round.get("tigers"):
        return None
    return ChanceRequest("dice", 1, 6, reason=msg("the Hanshin Tigers' die: Nishinomiya's value for {corp}",
                                                  corp=g.round["tigers"]["corp"]))


def tigers_roll(g: G, action: dict[str, Any]) -> None:
    """The die sets Nishinomiya's value in each of Hanshin's runs there this turn."""
    values = action.get("values")
    if action.get("type") != "dice" or not isinstance(values, list) or len(values) != 1 \
            or values[0] not in TIGERS_DIE:
        raise RuleError("The Hanshin Tigers' die is one six-sided die.")
    tigers, r = g.round["tigers"], g.round
    r["tigers"] = None
    value = TIGERS_DIE[values[0]]
    extra = 0
    for run in r["runs"]:
        if NISHINOMIYA in run["hexes"] and run["revenue"]:
            run["revenue"] += value - tigers["value"]
            extra += value - tigers["value"]
    r["revenue"] = (r["revenue"] or 0) + extra
    g.event("The Hanshin Tigers' die shows {roll}: Nishinomiya is worth {value} to {corp} this turn; its trains "
            "earn {revenue}.", roll=values[0], value=g.amount(value), corp=tigers["corp"],
            revenue=g.amount(r["revenue"]))


# ---- at the start of an operating round ---------------------------------------------------------------

def subsidies(g: G) -> None:
    """Keifuku and Semboku's subsidies, Hankyu's Takarazuka Revue, Kita-Osaka Kyuko's Expo bonus."""
    if owned(g, KEIFUKU) and late_abilities(g) and g.corp("Keihan")["floated"] and has_token(g, "Keihan", KYOTO):
        g.pay(BANK, "Keihan", SUBSIDY)
        g.event("{corp} receives {amount} with {private}.", corp="Keihan", amount=g.amount(SUBSIDY),
                private=g.private_name(KEIFUKU))
    if owned(g, SEMBOKU) and late_abilities(g):
        for cid, corp in g.s["corps"].items():
            if corp["floated"] and g.cdef(cid).kind != "minor" and has_token(g, cid, SAKAI):
                g.pay(BANK, cid, SUBSIDY)
                g.event("{corp} receives {amount} with {private}.", corp=cid, amount=g.amount(SUBSIDY),
                        private=g.private_name(SEMBOKU))
    if full_game(g) and "Hankyu" in g.s["corps"] and g.corp("Hankyu")["floated"] and has_token(g, "Hankyu",
                                                                                               TAKARAZUKA):
        g.pay(BANK, "Hankyu", SUBSIDY)
        g.event("{corp} receives {amount} from the Takarazuka Revue.", corp="Hankyu", amount=g.amount(SUBSIDY))
    if g.s["flags"].get("expo") == "due":
        g.s["flags"]["expo"] = "paid"
        if owned(g, KITA_KYU) and late_abilities(g):
            owner = g.s["privates"][KITA_KYU]["owner"]
            g.pay(BANK, owner, SUBSIDY)
            g.event("Expo '70: {private} pays {amount} more this time.", private=g.private_name(KITA_KYU),
                    amount=g.amount(SUBSIDY))


def hankyu_lay(g: G, cid: str, tile: str) -> None:
    """Hankyu Land: 10 for each yellow tile Hankyu lays (full game)."""
    if cid == "Hankyu" and full_game(g) and g.map.tiles[tile].colour == "yellow":
        g.pay(BANK, cid, 10)
        g.event("{corp} receives {amount} for its yellow tile (Hankyu Land).", corp=cid, amount=g.amount(10))
