"""1890's variant "public company floatation" (option incremental_floating; rules, 1890 scenario, Variants;
docs/rules/1890.md ruling 31).

Before phase 5 a public company's sales from its initial offering pay the company itself, and it floats only as it
would begin an operating round: when as many 10% shares have left its initial offering as the rank of the train for
sale (2 for a 2- or 2+2-train, 3 for a 3 or 3+3, ...; never more than five, the normal 50%; JR always five). It then
also has the par price of every share that left the initial offering without paying it (the shares of Hanshin and
Keihan that come with privates, the Subway's president's certificate). A company floated so keeps being paid for
its initial offering (corp["incremental"]). From phase 5 the normal rules: 50% sold floats a company as the shares
are bought, and the bank pays it ten times its par price less what it already has. Kinki (with the minors) is
started as ever, but the sales of its shares before it forms pay its treasury.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from engines.e18xx.companies import IPO, percent_of
from engines.e18xx.state import BANK

if TYPE_CHECKING:
    from engines.e18xx.state import G

NORMAL_PHASE = "5"  # "After phase 5, public companies will be started using the normal rules"
MOST = 5  # shares: the normal 50%
JR = "JR"


def on(g: G) -> bool:
    return bool(g.s["opts"].get("incremental_floating"))


def early(g: G) -> bool:
    """Before phase 5, the variant's rules."""
    return g.phase_index() < g.title.phase_indexes.get(NORMAL_PHASE, len(g.title.phases))  # Hanshin: no phase 5


def _kinki_formed_apart(g: G, cid: str) -> bool:
    from engines.e18xx.g1890 import kinki
    return cid == kinki.KINKI and kinki.with_minors(g)


def _public(g: G, cid: str) -> bool:
    return g.cdef(cid).kind != "minor"


def pays_itself(g: G, cid: str) -> bool:
    """Whether a share bought from `cid`'s initial offering pays `cid` (else the bank)."""
    if not on(g) or not _public(g, cid):
        return False
    corp = g.corp(cid)
    if _kinki_formed_apart(g, cid):
        return not corp["floated"]
    return bool(corp.get("incremental")) or (not corp["floated"] and early(g))


def floats_on_sale(g: G, cid: str) -> bool:
    """Whether `cid` floats as its shares are bought (the normal rules), not as an operating round begins."""
    return not (on(g) and early(g) and _public(g, cid) and not _kinki_formed_apart(g, cid))


def sold(g: G, cid: str) -> int:
    """10% shares that have left the initial offering."""
    return (100 - percent_of(g.cdef(cid), g.corp(cid)["shares"], IPO)) // 10


def needed(g: G, cid: str) -> int:
    if cid == JR:
        return MOST
    upcoming = g.s["depot"]["trains"]
    name = upcoming[0].rpartition("-")[0] if upcoming else ""  # "2+2-1": the second 2+2-train
    rank = name.split("+")[0]
    return min(int(rank), MOST) if rank.isdigit() else MOST


def float_at_operating_start(g: G) -> None:
    """As an operating round begins: the variant's floats (before phase 5) or the normal ones of companies that
    reached 50% while the variant held them back."""
    from engines.e18xx import stock
    if not on(g):
        return
    for cid, corp in g.s["corps"].items():
        if corp["floated"] or corp["par"] is None or corp.get("closed") or not _public(g, cid) \
                or _kinki_formed_apart(g, cid):
            continue
        if not early(g):
            stock.check_float(g, cid)
            continue
        if sold(g, cid) < needed(g, cid):
            continue
        corp.update(floated=True, incremental=True)
        due = corp["par"] * sold(g, cid) - corp["cash"]  # the shares that came with privates count as sold
        if due > 0:
            g.pay(BANK, cid, due)
            g.event("{corp} floats and receives {capital}.", corp=cid, capital=g.amount(due))
        else:
            g.event("{corp} floats.", corp=cid)


def float_capital(g: G, cid: str, normal: int) -> int:
    """The normal float's capital less what the company already has from its sales."""
    return max(0, normal - g.corp(cid)["cash"]) if on(g) else normal
