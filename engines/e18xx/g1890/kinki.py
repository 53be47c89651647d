"""Kinki Nippon Railway (rules C8.3 minors, C8.4 Kinki; docs/rules/1890.md, Kinki).

The full game: minors 1-4 merge into Kinki. Osaka Electric Railroad (2, Daiki) may convert from phase 2 and must
when phase 2½ begins: its owner takes Kinki's president's certificate, Kinki floats at once with the minor's assets
and four times its par from the bank, Osaka Railway (3, Daitetsu) merges with it (one share), Kanan (1) may merge
too, and Kinki takes a turn of its own out of the operating order (its price does not fall if it withholds then).
Kanan may merge from phase 2 (Kinki formed) and must at phase 3: one share, Kinki takes its trains and half its
treasury rounded up, its owner the rest. Nara Electric (4) may merge from phase 4 and must at phase 5: two shares,
all its assets. A minor's token becomes Kinki's unless Kinki already has one on that hex. If Kinki has closed, a
minor that would have to merge closes instead.

Kinki's charter (both games): four home tokens (Osaka Higashi, Kashiwara, Kyoto, Nara) that cost nothing, then two
more at 40 and 100. In the Simplified game (the "Kinki as a normal company" variant, C10) Kinki is a normal public
company whose home tokens after Osaka Higashi are placed at the start of an operating round from phase 2
(Kashiwara), 3 (Nara) and 4 (Kyoto), each when it is connected and there is room.

State: flags["kinki_homes"] (home tokens Kinki has received), flags["kanan_choice"] (Kanan's owner decides now
whether it merges as Kinki forms), flags["kinki_auto"] (the Simplified home tokens still to come), round
["kinki_first"] (Kinki's first turn is in this operating round).
"""
from __future__ import annotations

from typing import Any

from engines.e18xx import trains
from engines.e18xx.board import token_problem
from engines.e18xx.companies import IPO
from engines.e18xx.state import BANK, G

KINKI = "Kinki"
KANAN, DAIKI, DAITETSU, NARA = "Kanan", "Daiki", "Daitetsu", "NaraElec"
#: minor -> (may from phase, must at phase, Kinki certificates its owner receives)
MERGERS = {DAIKI: ("2", "2.5", ("Kinki_0",)), DAITETSU: ("2", "2.5", ("Kinki_5",)),
           KANAN: ("2", "3", ("Kinki_6",)), NARA: ("4", "5", ("Kinki_7", "Kinki_8"))}
RESERVED = ("Kinki_0", "Kinki_5", "Kinki_6", "Kinki_7", "Kinki_8")
#: Kinki's tokens after its homes
REGULAR_TOKENS = (40, 100)
HOMES = 4
#: the Simplified game's automatic home tokens: phase -> (hex, city)
AUTO = {"2": ("J15", 0), "3": ("H19", 0), "4": ("B17", 1)}


def with_minors(g: G) -> bool:
    return g.title.rules.get("kinki") == "minors"


def in_game(g: G) -> bool:
    return KINKI in g.s["corps"]


def formed(g: G) -> bool:
    return in_game(g) and bool(g.corp(KINKI)["floated"] or g.corp(KINKI).get("closed"))


def open_minor(g: G, cid: str) -> bool:
    c = g.s["corps"].get(cid)
    return c is not None and c["president"] is not None and not c.get("closed")


def phase_at_least(g: G, name: str) -> bool:
    names = [p.name for p in g.title.phases]
    return name in names and g.phase_index() >= names.index(name)


# ---- moves --------------------------------------------------------------------------------------------

def moves(g: G, cid: str) -> list[dict[str, Any]]:
    """What minor `cid` may declare in its turn: Daiki's conversion, Kanan's or Nara Electric's merger."""
    if not with_minors(g) or cid not in MERGERS or cid == DAITETSU or not open_minor(g, cid):
        return []
    may, _, _ = MERGERS[cid]
    if not phase_at_least(g, may):
        return []
    if cid == DAIKI:
        return [] if formed(g) else [{"type": "convert", "entity": cid}]
    if formed(g) and not g.corp(KINKI).get("closed"):
        return [{"type": "merge", "corporation": KINKI, "entity": cid}]
    return []


def declare(g: G, cid: str) -> None:
    """`cid` converts (Daiki) or merges now, by its owner's choice or because it must."""
    if cid == DAIKI:
        form(g)
    else:
        merge(g, cid)


# ---- what happens -------------------------------------------------------------------------------------

def wind_up(g: G, cid: str, assets: bool = True) -> None:
    """A company leaving play (a minor merged or closed, a public in a closing cell, Kobe Electric converting): its
    tokens off the board and, with `assets`, its trains to the open market and its treasury to the bank."""
    board = g.board
    for coord, node in board.token_nodes(cid):
        board = board.remove_token(coord, node, cid)
    g.set_board(board)
    if assets:
        for train in list(g.corp(cid)["trains"]):
            trains.discard(g, cid, train)
        if g.corp(cid)["cash"]:
            g.pay(cid, BANK, g.corp(cid)["cash"])


def _close_minor(g: G, cid: str, to_bank: bool) -> None:
    """The minor is gone: its certificate void; its treasury to the bank (`to_bank`), its tokens off the board."""
    wind_up(g, cid, assets=to_bank)
    g.corp(cid).update(closed=True, floated=False, president=None, shares={})


def _take_tokens(g: G, cid: str) -> None:
    """The minor's tokens become Kinki's home tokens, except on a hex where Kinki already has one."""
    board = g.board
    for coord, node in board.token_nodes(cid):
        board = board.remove_token(coord, node, cid)
        if any(c == coord for c, _ in board.token_nodes(KINKI)):
            continue
        if board.free_slot(coord, KINKI, node) is not None:
            board = board.place_token(coord, KINKI, node)
            g.s["flags"]["kinki_homes"] = g.s["flags"].get("kinki_homes", 0) + 1
    g.set_board(board)


def _give_shares(g: G, owner: str, certs: tuple[str, ...]) -> None:
    corp = g.corp(KINKI)
    if certs == ("Kinki_0",):
        corp["president"] = owner  # the president's certificate goes to its owner; a bigger holder swaps for it
    g.transfer(KINKI, list(certs), IPO, owner)


def form(g: G) -> None:
    """Daiki converts: Kinki forms and floats, Daitetsu merges, Kanan's owner may merge it, Kinki operates."""
    owner = g.corp(DAIKI)["president"]
    if g.corp(KINKI).get("closed"):
        _close_minor(g, DAIKI, to_bank=True)
        g.event("{minor} closes, as {corp} has closed: its trains and treasury go to the bank.",
                minor=g.corp_name(DAIKI), corp=g.corp_name(KINKI))
        return
    kinki = g.corp(KINKI)
    seat = int(owner)
    _give_shares(g, owner, MERGERS[DAIKI][2])
    daiki = g.corp(DAIKI)
    for train in daiki["trains"]:
        kinki["trains"].append(train)
    daiki["trains"] = []
    _take_tokens(g, DAIKI)
    cash = daiki["cash"]
    if cash:
        g.pay(DAIKI, KINKI, cash)
    _close_minor(g, DAIKI, to_bank=False)
    kinki["floated"] = True
    capital = 4 * kinki["par"]
    g.pay(BANK, KINKI, capital)
    g.event("Kinki Nippon Railway forms: [0] converts {minor} into it and receives its president's certificate (20%); "
            "it floats with {minor}'s trains, tokens and {cash}, and {capital} from the bank.",
            seat, minor=g.corp_name(DAIKI), cash=g.amount(cash), capital=g.amount(capital))
    if open_minor(g, DAITETSU):
        merge(g, DAITETSU)
    if open_minor(g, KANAN):
        g.s["flags"]["kanan_choice"] = True
    r = g.round
    if r.get("kind") == "operating":
        r["kinki_first"] = True
        if r["index"] < len(r["order"]) and r["order"][r["index"]] == DAIKI:
            r["order"][r["index"]] = KINKI  # Kinki takes over the turn Daiki had begun
            r.update(step=g.rules.operating_steps[0], laid=False, lays=[], tokened=False, revenue=None, runs=[],
                     acted=False, emergency_sold=[])
        else:
            r["order"].insert(r["index"] + 1, KINKI)  # right after the company operating now
        g.event("{corp} operates out of turn in this operating round.", corp=g.corp_name(KINKI))


def merge(g: G, cid: str) -> None:
    """Kanan, Daitetsu or Nara Electric merges into Kinki (or closes if Kinki has closed)."""
    owner = g.corp(cid)["president"]
    if g.corp(KINKI).get("closed"):
        _close_minor(g, cid, to_bank=True)
        g.event("{minor} closes, as {corp} has closed: its trains and treasury go to the bank.",
                minor=g.corp_name(cid), corp=g.corp_name(KINKI))
        return
    minor, kinki = g.corp(cid), g.corp(KINKI)
    certs = MERGERS[cid][2]
    _give_shares(g, owner, certs)
    for train in minor["trains"]:
        kinki["trains"].append(train)
    minor["trains"] = []
    _take_tokens(g, cid)
    cash = minor["cash"]
    to_kinki = -(-cash // 2) if cid == KANAN else cash
    if to_kinki:
        g.pay(cid, KINKI, to_kinki)
    if cash - to_kinki:
        g.pay(cid, owner, cash - to_kinki)
    _close_minor(g, cid, to_bank=False)
    percent = 10 * len(certs) if certs != ("Kinki_0",) else 20
    if cash - to_kinki:  # Kanan: half its treasury (rounded down) to its owner
        g.event("{minor} merges into {corp}: [0] receives {percent}% of {corp}; {corp} takes its trains, tokens and "
                "{cash}, and [0] the other {kept}.", int(owner), minor=g.corp_name(cid), corp=g.corp_name(KINKI),
                percent=percent, cash=g.amount(to_kinki), kept=g.amount(cash - to_kinki))
    else:
        g.event("{minor} merges into {corp}: [0] receives {percent}% of {corp}; {corp} takes its trains, tokens and "
                "{cash}.", int(owner), minor=g.corp_name(cid), corp=g.corp_name(KINKI), percent=percent,
                cash=g.amount(to_kinki))


def forced(g: G) -> None:
    """The mergers the phase now demands (after every train bought, and as a minor is bought late)."""
    if not with_minors(g):
        return
    for cid in (DAIKI, KANAN, NARA):
        if open_minor(g, cid) and phase_at_least(g, MERGERS[cid][1]):
            if cid == KANAN and g.s["flags"].get("kanan_choice"):
                g.s["flags"]["kanan_choice"] = False
            if cid != DAIKI and not formed(g):
                continue
            if cid == DAIKI:
                g.event("Phase {phase}: {minor} must convert into {corp} now.", phase=MERGERS[cid][1],
                        minor=g.corp_name(cid), corp=g.corp_name(KINKI))
            else:
                g.event("Phase {phase}: {minor} must merge into {corp} now.", phase=MERGERS[cid][1],
                        minor=g.corp_name(cid), corp=g.corp_name(KINKI))
            declare(g, cid)


# ---- Kanan's choice as Kinki forms --------------------------------------------------------------------

def kanan_choice(g: G):
    if not g.s["flags"].get("kanan_choice") or not open_minor(g, KANAN):
        return None
    seat = int(g.corp(KANAN)["president"])
    return seat, [{"type": "merge", "corporation": KINKI, "entity": KANAN}, {"type": "pass", "entity": KANAN}]


def answer_kanan(g: G, action: dict[str, Any]) -> None:
    g.s["flags"]["kanan_choice"] = False
    if action.get("type") == "merge":
        merge(g, KANAN)
    else:
        g.event("[0] keeps {minor} a minor for now; it must merge into {corp} in phase {phase}.",
                int(g.corp(KANAN)["president"]), minor=g.corp_name(KANAN), corp=g.corp_name(KINKI),
                phase=MERGERS[KANAN][1])


# ---- tokens -------------------------------------------------------------------------------------------

def next_token_price(g: G) -> int | None:
    """After its home tokens Kinki pays 40, then 100."""
    regular = len(g.board.token_nodes(KINKI)) - g.s["flags"].get("kinki_homes", 0)
    return REGULAR_TOKENS[regular] if 0 <= regular < len(REGULAR_TOKENS) else None


def tokens_left(g: G) -> tuple[int, int]:
    """(tokens still to place, of six): the regular ones left and the home tokens still to come."""
    homes = g.s["flags"].get("kinki_homes", 0)
    regular = len(g.board.token_nodes(KINKI)) - homes
    if with_minors(g):
        coming = (0 if formed(g) else 1) + open_minor(g, KANAN) + 2 * open_minor(g, NARA)
    else:
        coming = HOMES - homes
    return max(0, len(REGULAR_TOKENS) - regular) + coming, HOMES + len(REGULAR_TOKENS)


def home_placed(g: G) -> None:
    g.s["flags"]["kinki_homes"] = g.s["flags"].get("kinki_homes", 0) + 1


def place_auto_tokens(g: G) -> None:
    """Simplified: Kinki's home tokens for the phases reached, where connected and there is room."""
    if with_minors(g) or not in_game(g) or not g.corp(KINKI)["floated"]:
        return
    done = g.s["flags"].setdefault("kinki_auto", [])
    for phase, (coord, node) in AUTO.items():
        if phase in done or not phase_at_least(g, phase):
            continue
        board = g.board
        if coord not in g.map.printed:
            continue
        cities = board.tile(coord).city_indexes()
        spot = next((i for i in ([node] if node in cities else []) + list(cities)
                     if token_problem(board, KINKI, coord, i) is None), None)
        if spot is None:
            continue
        g.set_board(board.place_token(coord, KINKI, spot))
        done.append(phase)
        home_placed(g)
        g.event("{corp} places a home token on {where}.", corp=KINKI, where=g.place(coord))
