"""1890's regular stock round: the shared one (engines/e18xx/stock.py), and a corporation whose price falls into
the closing cells closes at once (rules §"Company closure")."""
from __future__ import annotations

from engines.e18xx import stock as core
from engines.e18xx.state import G

acting, finished, legal, auto, describe, settle, priority_seat = (
    core.acting, core.finished, core.legal, core.auto, core.describe, core.settle, core.priority_seat)


def start(g: G, turn: int) -> None:
    core.start(g, turn)


def apply(g: G, seat: int, action) -> None:
    from engines.e18xx.g1890.rules import close_fallen
    core.apply(g, seat, action)
    close_fallen(g)


def finish(g: G) -> None:
    """Sold-out public companies rise one row (rules §"Price adjustment for sold out companies"), in operating
    order; minors have no price."""
    from engines.e18xx.companies import is_sold_out
    publics = [cid for cid in g.floated() if g.cell(cid) is not None]
    for cid in g.operating_order(publics):
        if is_sold_out(g.cdef(cid), g.corp(cid)["shares"]) and g.rules.rises_when_sold_out(g, cid):
            before = g.price(cid)
            g.move_price(cid, g.title.market.after_sold_out(g.cell(cid)))
            if g.price(cid) != before:
                g.event("{corp} is sold out and rises to {price}.", corp=cid, price=g.amount(g.price(cid)))
