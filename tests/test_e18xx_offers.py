"""A price two people must agree on: a train from a corporation with another president, a private from a player
who does not preside the buyer. The buyer's move is an offer; the seller accepts or declines, the buyer may
withdraw it, and nobody else moves meanwhile (docs/rules/1889.md, Rulings)."""
from __future__ import annotations

import pytest

from engines.base import RuleError
from engines.e18xx import operating
from engines.e18xx.state import G
from engines.text import Msg, from_json
from tests.e18xx_helpers import E, act, after_auction, float_corp, give_trains, lay, start_or


def said(event: dict) -> str:
    """An event's English, [0] … left as they are."""
    return str(Msg(event["text"], {k: from_json(v) for k, v in (event.get("values") or {}).items()}))


def private_offer():
    """Phase 3, KO (seat 0) operating; seat 1 owns Mitsubishi Ferry (MF)."""
    s = after_auction(3)
    float_corp(s, "KO", 0)
    s["depot"]["phase"] = "3"
    s = start_or(s)
    assert s["privates"]["MF"]["owner"] == "1" and operating.current(G(s)) == "KO"
    return act(s, 0, "buy_company", company="MF", price=30)


def test_a_private_of_another_player_waits_for_the_owners_yes():
    s = private_offer()
    assert s["privates"]["MF"]["owner"] == "1" and s["corps"]["KO"]["cash"] == 700  # nothing moved yet
    assert E.awaiting(s).seats == {0, 1}
    # not even Dougo Railway's exchange, open at any other time, comes before the answer
    assert E.legal(s, 1) == [{"type": "accept_offer"}, {"type": "decline_offer"}]
    with pytest.raises(RuleError, match="Accept or decline"):
        act(s, 1, "buy_shares", entity="DR", entity_type="company", shares=["IR_1"])
    assert E.legal(s, 0) == [{"type": "withdraw_offer"}]
    assert E.legal(s, 2) == []
    with pytest.raises(RuleError, match="waiting for an answer"):
        act(s, 0, "pass")
    with pytest.raises(RuleError, match="Accept or decline"):
        act(s, 1, "pass")
    with pytest.raises(RuleError, match="not your turn"):
        act(s, 2, "accept_offer")
    cash = s["cash"][1]
    s = act(s, 1, "accept_offer")
    assert s["privates"]["MF"]["owner"] == "KO" and s["corps"]["KO"]["cash"] == 670 and s["cash"][1] == cash + 30
    assert s["round"]["offer"] is None and E.awaiting(s).seats == {0}
    assert "KO offers ¥30 for Mitsubishi Ferry" in said(s["events"][-2])


def test_a_declined_or_withdrawn_offer_moves_nothing_and_the_turn_goes_on():
    for seat, answer, word in ((1, "decline_offer", "declines"), (0, "withdraw_offer", "withdraws")):
        s = private_offer()
        before = (s["cash"], s["corps"]["KO"]["cash"], s["round"]["step"])
        s = act(s, seat, answer)
        assert (s["cash"], s["corps"]["KO"]["cash"], s["round"]["step"]) == before
        assert s["privates"]["MF"]["owner"] == "1" and s["round"]["offer"] is None
        assert E.awaiting(s).seats == {0} and said(s["events"][-1]) == f"[0] {word} the offer of KO."
    with pytest.raises(RuleError, match="waiting for an answer"):
        act(private_offer(), 0, "decline_offer")  # the buyer withdraws, he does not decline


def test_the_presidents_own_private_is_bought_at_once():
    s = after_auction(3)
    float_corp(s, "KO", 0)
    s["depot"]["phase"] = "3"
    s = act(start_or(s), 0, "buy_company", company="TR", price=40)  # seat 0 owns TR
    assert s["privates"]["TR"]["owner"] == "KO" and s["round"].get("offer") is None


def train_offer(price: int):
    """KO (seat 0) in its trains step; SR (seat 1) holds a 2-train."""
    s = after_auction(3)
    float_corp(s, "KO", 0)
    float_corp(s, "SR", 1, cell="65,5,3")
    give_trains(s, "SR", "2-5")
    lay(s, "J3", "8", 3)  # KO reaches Sakaide & Okayama
    s = start_or(s)
    assert operating.current(G(s)) == "KO"
    s = act(s, 0, "pass")  # no tile
    assert s["round"]["step"] == "trains"
    return act(s, 0, "buy_train", train="2-5", price=price)


def test_a_train_of_another_presidents_corporation_is_an_offer():
    s = train_offer(55)
    assert s["corps"]["SR"]["trains"] == ["2-5"] and E.legal(s, 1)[0] == {"type": "accept_offer"}
    sr_cash, ko_cash = s["corps"]["SR"]["cash"], s["corps"]["KO"]["cash"]
    s = act(s, 1, "accept_offer")
    assert s["corps"]["KO"]["trains"] == ["2-5"] and s["corps"]["SR"]["trains"] == []
    assert s["corps"]["KO"]["cash"] == ko_cash - 55 and s["corps"]["SR"]["cash"] == sr_cash + 55
    assert said(s["events"][-1]) == "KO buys train 2-5 from SR for ¥55."


def test_an_offer_is_checked_before_it_is_made():
    with pytest.raises(RuleError, match="costs at least 1"):
        train_offer(0)
    with pytest.raises(RuleError, match="only the cheapest train in the depot"):
        train_offer(701)  # more than KO's ¥700: its president's money is for depot trains only


def test_auto_play_never_agrees_to_a_price():
    s = train_offer(55)
    assert E.auto_action(s, 1) == {"type": "decline_offer"}
    assert E.auto_action(s, 0) == {"type": "withdraw_offer"}


def test_the_table_and_the_panels_say_what_is_offered():
    from types import SimpleNamespace

    from bot.tables import Table
    from cogs.e18xx.presenter import E18xxPresenter

    class Game:
        id, options = 7, {}

        def in_seat_order(self):
            return [SimpleNamespace(name=n) for n in ("ann", "ben", "cat")]

    p, t = E18xxPresenter(), Table(Game(), E, private_offer(), 1)
    what = "KO buys Mitsubishi Ferry (MF) from ben for ¥30"
    assert f"**KO** waits: {what}" in "\n".join(p.public_lines(t))
    seller = [b.item.label for b in p.move_view(t, 1).children]
    assert seller[:2] == [f"Accept: {what}", f"Decline: {what}"]
    assert [b.item.label for b in p.move_view(t, 0).children] == [f"Withdraw: {what}"]
    assert f"**Your move:** {what}, if you agree: accept or decline." in p.private_lines(t, 1)
    assert f"**Your move:** wait for an answer to your offer ({what}), or withdraw it." in p.private_lines(t, 0)
