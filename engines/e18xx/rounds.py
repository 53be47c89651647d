"""From one round to the next, and the end of the game (import notes §10, §11, §12).

After every action `settle` does what happens without an action: turns and steps with nothing to do, the end
of a round, sold-out moves, priority, the next round, and the end of the game once the bank has broken and a
set of operating rounds is over. As on 18xx.games, a game still running when a round of turn 100 (stock round
100) ends is stopped there ("dnf"), so that no game, random play included, can run forever.
"""
from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar

from engines.e18xx.state import G
from engines.text import msg

#: Called as listener(g, "Stock 2.1") when a round has finished, before the next one starts (and before the
#: priority moves). Replays use it to compare with recorded checkpoints; the rules never look at it.
ROUND_END: ContextVar[Callable[[G, str], None] | None] = ContextVar("e18xx_round_end", default=None)

#: 18xx.games's safety stop: the game ends ("dnf") when a round of this turn (stock round number) or later ends.
LAST_TURN = 100


def settle(g: G) -> None:
    for _ in range(1000):
        kind = g.s["round"]["kind"]  # the dict, not G.round (a property: a call, after every move)
        if g.s["over"]:
            if kind != "over":
                end_game(g, g.s["over"])
            return
        module = g.rules.modules.get(kind)
        if module is None or g.rules.interrupt(g) is not None:
            return  # a decision that comes first (1867's trainless majors) holds everything else
        if hasattr(module, "settle"):
            module.settle(g)
        if g.rules.closings(g):  # 1807: a corporation whose price reached the closing cell closes, and play goes on
            continue
        if g.s["over"]:
            continue
        if not module.finished(g):
            return
        next_round(g)
    raise RuntimeError("the game does not settle")


def round_name(g: G) -> str:
    r = g.round
    if r["kind"] == "auction":
        return "Auction 1.1"
    if r["kind"] == "stock":
        return f"Stock {r['turn']}.1"
    return f"Operating {r['turn']}.{r['or']}"


def _round_end(g: G) -> None:
    listener = ROUND_END.get()
    if listener is not None:
        listener(g, round_name(g))


def rotate(g: G, first: int) -> None:
    i = g.order.index(first)
    g.s["order"] = g.order[i:] + g.order[:i]


def next_round(g: G) -> None:
    r = g.round
    module = g.rules.modules[r["kind"]]
    if hasattr(module, "finish"):
        module.finish(g)
    if r["kind"] in ("stock", "operating") and r["turn"] >= LAST_TURN:
        last_or = r["kind"] == "operating" and r["or"] >= r["of"]
        _round_end(g)
        end_game(g, "bank" if last_or and g.s["bank_broken"] else "dnf")
        return
    _round_end(g)
    if r["kind"] == "operating":
        g.rules.after_operating_round(g)
    if not g.s["over"]:
        g.rules.next_round(g)


def end_game(g: G, reason: str) -> None:
    g.rules.game_end(g)
    g.s["over"] = reason
    g.s["round"] = {"kind": "over", "reason": reason, "after": g.round.get("kind")}
    why = {"bank": msg("the bank has broken"), "bankrupt": msg("a player went bankrupt"),
           "manually_ended": msg("the players ended it"),
           "dnf": msg("it reached turn {turn} (the safety stop)", turn=LAST_TURN),
           "final_phase": msg("the last set of operating rounds is over"),
           "top_price": msg("a share price reached the top of the market")}.get(reason, reason)
    g.event("The game is over: {why}.", why=why)
