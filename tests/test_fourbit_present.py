"""4bit Town's presenter without Discord: buttons that say what they do (the card and its effect, the upkeep's
cost), panels within Discord's limits, a narration that tells each card use and what it gave, and a player
left without workers told why."""
from __future__ import annotations

import random
from types import SimpleNamespace

import discord

from bot.table_ui import hand_view
from bot.tables import Change, Table
from cogs.fourbit import FourBitPresenter
from engines.log import run_chance
from tests.fourbit_helpers import E, act, decline, end_round, game, skip, step, take, use

P = FourBitPresenter()
NAMES = ("ann", "ben", "carol")
INERT = [8, 9, 14, 15]


class Game:
    id = 7
    options: dict = {}
    status = "active"

    def in_seat_order(self):
        return [SimpleNamespace(name=n) for n in NAMES]


def table(state) -> Table:
    return Table(Game(), E, state, 1)


def told(s: dict, seat: int, action: dict) -> tuple[dict, str]:
    """Apply one move and return the state after it with everything the channel is told."""
    after = E.apply(s, seat, action)
    posts = P.announce(Change("action", table(after), entries=[(1, seat, action)], before=s))
    return after, "\n".join(text for text, _ in posts)


def buttons(s: dict, seat: int) -> list[str]:
    view = hand_view(table(s), seat)
    return [item.item.label for item in view.children if isinstance(item.item, discord.ui.Button)]


# --- buttons ------------------------------------------------------------------------------------------

def test_card_buttons_name_the_card_and_its_effect():
    order = [13, 9, 14, 15]  # location 0: 13-0 (4 coins → 2 wood + 2 stone) on top
    s = game(3, cards={0: INERT, 1: INERT, 2: order}, p2={"coins": 4})
    s = step(s, {0: "pass", 1: "pass", 2: (0, order)})
    assert buttons(s, 2) == ["Use card 13: 4 coins → 2 wood + 2 stone", "Skip card 13 (4 coins → 2 wood + 2 stone)",
                             "Take Artisans' Square: wood +12"]


def test_location_buttons_say_what_they_do():
    s = game(2, cards={0: [9, 12, 14, 15], 1: INERT}, row=[1, 11, 4, 5], p0={"wood": 10, "stone": 2, "coins": 4})
    s = step(s, {0: 8, 1: "pass"})
    assert buttons(s, 0) == ["Build Woodworks", "Build Artisans' Quarter",
                             "Skip the effect of 8 Administrative District"]


def test_upkeep_buttons_show_the_cost():
    s = game(2, p0={"coins": 20}, p1={"coins": 5})
    s = step(s, {0: "pass", 1: "pass"})
    assert buttons(s, 0) == ["Keep 3 workers (pay 18 coins)", "Keep 2 workers (pay 12 coins)",
                             "Keep 1 worker (pay 6 coins)", "Keep 0 workers (pay nothing)"]


def _random_states(seed: int, n: int):
    """Awaited (state, seat) pairs of a random game where players mostly act rather than skip."""
    rng = random.Random(seed)
    s, _ = run_chance(E, E.setup({}, n), rng)
    while not E.is_over(s):
        aw = E.awaiting(s)
        if s["phase"] == "work" and s["round"] == 1 and not s["reveal"]:
            for p in s["players"]:
                p.update(wood=40, stone=40, coins=50, level=5)
        seat = rng.choice(sorted(aw.seats))
        yield s, seat
        legal = E.legal(s, seat)
        doing = [a for a in legal if a["type"] not in ("skip", "decline", "pass")]
        s, _ = run_chance(E, E.apply(s, seat, rng.choice(doing) if doing and rng.random() < 0.8 else rng.choice(legal)),
                          rng)


def test_every_panel_fits_discord_and_labels_are_distinct():
    seen = 0
    for seed, n in ((1, 2), (2, 3), (3, 4)):
        for s, seat in _random_states(seed, n):
            if s["phase"] in ("work", "setup"):
                continue
            labels = [P.move_label(table(s), m) for m in E.legal(s, seat)]
            assert all(0 < len(x) <= 80 for x in labels), labels
            assert len(set(labels)) == len(labels), labels
            view = hand_view(table(s), seat)
            for item in view.children:
                if isinstance(item.item, discord.ui.Button):
                    assert 0 < len(item.item.label) <= 80
                else:
                    assert all(len(o.label) <= 100 for o in item.item.options)
            seen += 1
    assert seen > 100


# --- narration ------------------------------------------------------------------------------------------

def test_each_card_use_is_told_with_its_effect_and_what_it_gave():
    order = [3, 8, 14, 7]  # location 11 = bits 1,1,0,1: 3-1 (+2 coins), 8-1, 14-0 (1 more space), 7-1
    s = game(3, cards={0: INERT, 1: INERT, 2: order}, p2={"vp": 1})
    s = step(s, {0: "pass", 1: "pass", 2: (11, order)})
    s, text = told(s, 2, use(s))
    assert text == "carol at 11 Cathedral: uses card 3 (1-side: +2 coins) → +2 coins."
    s, text = told(s, 2, take(s))
    assert text == ("carol at 11 Cathedral: Take Cathedral: turn order +1, then coins +6 → +6 coins, "
                    "1 space up the track.")
    s, text = told(s, 2, use(s))
    assert text == ("carol at 11 Cathedral: uses card 14 (0-side: after moving up at the Cathedral: "
                    "1 more space) → 1 space up the track.")
    s, text = told(s, 2, use(s))
    assert text == "carol at 11 Cathedral: uses card 7 (1-side: 1 VP → 4 coins) → +4 coins, -1 VP."


def test_a_skipped_card_and_a_waiting_card_are_told():
    order = [12, 1, 14, 9]  # location 0: 12-0 waits for the location, 1-0 +2 wood
    s = game(2, cards={0: order, 1: INERT})
    s = step(s, {0: (0, order), 1: "pass"})
    s, text = told(s, 0, use(s))
    assert text == ("ann at 0 Artisans' Square: uses card 12 (0-side: if the location gives wood: "
                    "+2 stone); it is checked once the location's effect is done.")
    s, text = told(s, 0, skip(s))
    assert text == "ann at 0 Artisans' Square: skips card 1 (0-side: +2 wood)."
    s, text = told(s, 0, take(s))
    assert text.splitlines() == [
        "ann at 0 Artisans' Square: Take Artisans' Square: wood +12 → +12 wood.",
        "ann at 0 Artisans' Square: card 12 (0-side: if the location gives wood: +2 stone), "
        "after the location's effect → +2 stone."]


def test_a_waiting_card_with_the_location_skipped_is_told():
    order = [12, 9, 14, 8]  # location 0: 12-0 on top, the rest do nothing here
    s = game(2, cards={0: order, 1: INERT})
    s = step(s, {0: (0, order), 1: "pass"})
    s = act(s, use(s))
    s, text = told(s, 0, decline(s))
    assert text.splitlines() == [
        "ann at 0 Artisans' Square: skips the location's effect.",
        "ann at 0 Artisans' Square: card 12 (0-side: if the location gives wood: +2 stone) gives nothing: "
        "the location's effect was skipped."]


def test_a_location_that_cannot_be_taken_is_told():
    s = game(2, cards={0: INERT, 1: INERT})
    s, text = told(s, 0, {"type": "stack", "n": 6, "order": INERT})
    s, text = told(s, 1, {"type": "pass"})
    assert text.splitlines()[-1] == "ann at 6 Guild Crossing: the location's effect could not be taken."


def test_a_player_fired_at_upkeep_is_told_why_in_the_channel_and_the_panel():
    s = game(2, p0={"coins": 20}, p1={"coins": 5})
    s = E.apply(s, 0, {"type": "pass"})
    s, text = told(s, 1, {"type": "pass"})  # the round ends; ben cannot pay for anyone
    assert ("Upkeep: ben cannot pay 6 coins for even one worker (has 5), so all 3 are fired. ben has no hired "
            "worker left, so ben passes every step from now on (only a worker can hire).") in text
    s, text = told(s, 0, next(a for a in E.legal(s, 0) if a["keep"] == 2))
    assert "Upkeep: ann keeps 2 of 3 workers and pays 12 coins; 1 fired." in text
    assert "Build row:" in text and "**Round 1 is over.**" in text
    assert s["round"] == 2
    mine = "\n".join(P.private_lines(table(s), 1))
    assert "You have no hired workers, so you pass every step." in mine
    assert "you could not pay 6 coins for one worker (you had 5)" in mine
    assert any("ben" in line and "no hired workers: passes every step" in line for line in P.public_lines(table(s)))


def test_the_round_end_tells_the_four_new_buildings():
    s = game(2, row=[1], deck=[2, 3, 4, 5, 6], p0={"coins": 18}, p1={"coins": 18})
    s = E.apply(s, 0, {"type": "pass"})
    s, text = told(s, 1, {"type": "pass"})
    assert s["phase"] == "upkeep"
    s = E.apply(s, 0, E.legal(s, 0)[0])
    s, text = told(s, 1, E.legal(s, 1)[0])
    assert "Build row: Quarry, Market, Inn, Town Hall Annex added from the deck." in text
    assert s["row"] == [1, 2, 3, 4, 5] and s["deck"] == [6]


def test_the_panel_of_the_resolving_player_explains_the_choice():
    order = [1, 9, 14, 15]
    s = game(2, cards={0: order, 1: INERT}, row=[1, 3, 4, 5], p0={"wood": 8})
    s = step(s, {0: (8, order), 1: "pass"})
    mine = "\n".join(P.private_lines(table(s), 0))
    assert ("Your worker at 8 Administrative District. Cards left, top first: "
            "card 1 (0-side: +2 wood)") in mine
    assert "Take the location's effect whenever you like" in mine
    s = act(s, use(s))
    s = act(s, decline(s))
    assert "Your worker" not in "\n".join(P.private_lines(table(s), 0))


def test_the_table_shows_this_rounds_turn_order_and_the_track():
    s = game(2, cards={0: INERT, 1: [9, 8, 12, 15]})
    s = step(s, {0: "pass", 1: 11})
    s = act(s, take(s))
    lines = P.public_lines(table(s))
    assert "Turn order this round: ann > ben · track: ben (space 2), ann (space 1)" in lines
    s = end_round(s)
    assert "Turn order this round: ben > ann · track: ben (space 2), ann (space 1)" in P.public_lines(table(s))
