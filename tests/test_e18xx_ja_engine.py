"""The 18xx rules engine in Japanese (issue 16): along seeded selfplay games of Shikoku 1889 and 1867, every event
(rendered by bot.present.fill), every awaited prompt and every move's label read in Japanese with no English left;
the engine's refusals (RuleErrors raised by moves made wrong on purpose along the same games) read in Japanese; every
city and company of both titles has a Japanese name; and the English is what it was."""
from __future__ import annotations

import random
import re
from functools import cache

import pytest

from bot.i18n import say
from bot.present import fill
from bot.selfplay import selfplay_move
from engines.base import RuleError
from engines.e18xx.board import load_map
from engines.e18xx.companies import load_title
from engines.e18xx.game import Canada1867, Shikoku1889
from engines.e18xx.state import G
from engines.log import run_chance
from engines.text import Money, Msg, Name, msg
from tests.i18n_helpers import english_left, untranslated

ENGINES = {"1889": Shikoku1889(), "1867": Canada1867()}
#: (title, players, seed): whole games, long enough to reach every round, phase and the game's end.
GAMES = [("1889", 4, 3), ("1867", 4, 3), ("1867", 2, 5)]
LATIN = re.compile(r"[A-Za-z]{2,}")


def who(seat) -> str:
    return f"P{seat + 1}" if isinstance(seat, int) else "?"


def wrong_moves(engine, state: dict, seat: int, moves: list[dict], rng: random.Random) -> list[tuple[int, dict]]:
    """Moves made wrong on purpose from the legal ones: another seat's turn, prices, hexes, tiles, rotations, shares,
    percents, trains, dividends, routes and entities changed, and a few moves of the wrong round."""
    hexes = sorted(load_map(f"g{engine.title_id}").printed)
    out: list[tuple[int, dict]] = [((seat + 1) % state["n"], moves[0])]
    for m in rng.sample(moves, min(4, len(moves))):
        t = m["type"]
        if "price" in m:
            out += [(seat, {**m, "price": m["price"] + rng.choice((1, 3, 7))}), (seat, {**m, "price": m["price"] - 1}),
                    (seat, {**m, "price": 10**6}), (seat, {**m, "price": "x"})]
        if t == "lay_tile":
            out += [(seat, {**m, "rotation": (m["rotation"] + k) % 6}) for k in (1, 2, 3)]
            out += [(seat, {**m, "hex": rng.choice(hexes)}), (seat, {**m, "tile": rng.choice(("9", "57", "14", "611",
                                                                                              "99", "437", "45"))}),
                    (seat, {**m, "rotation": 7}), (seat, {**m, "hex": "Z9"})]
        if t in ("place_token", "remove_token"):
            out += [(seat, {**m, "hex": rng.choice(hexes)}), (seat, {**m, "city": 3}), (seat, {**m, "hex": "Z9"})]
        if t in ("buy_shares", "sell_shares"):
            out += [(seat, {**m, "percent": (m.get("percent") or 10) + 10}), (seat, {**m, "shares": ["XX_1"]}),
                    (seat, {**m, "shares": [*m["shares"], *m["shares"]]})]
        if t == "par":
            out += [(seat, {**m, "share_price": "1,0,0"}), (seat, {**m, "corporation": "ZZ"})]
        if t == "buy_train":
            out += [(seat, {**m, "exchange": "2-0"}), (seat, {**m, "train": "D-9"})]
        if t == "run_routes":
            routes = m["routes"]
            out += [(seat, {**m, "routes": routes + routes}), (seat, {**m, "routes": [{"train": "9-9"}]}),
                    (seat, {**m, "routes": [{**r, "connections": r.get("connections", [])[:1]} for r in routes]}),
                    (seat, {**m, "routes": [{**r, "junk": 1} for r in routes]})]
        if t == "merge":
            out += [(seat, {**m, "corporation": "ZZ"})]
    kinds = ("pass", "dividend", "buy_train", "lay_tile", "place_token", "run_routes", "par", "buy_shares",
             "sell_shares", "bid", "discard_train", "convert", "merge", "accept_offer", "buy_company")
    out += [(seat, {"type": k, **extra}) for k in rng.sample(kinds, 4)
            for extra in ({}, {"kind": "half"}, {"entity": "ZZ", "entity_type": "corporation"})]
    return out


@cache
def play(title: str, players: int, seed: int) -> dict:
    """A whole seeded selfplay game (as bot.selfplay plays it), and what a player reads along it: every event, the
    prompts and labels met, and the RuleErrors of the wrong moves tried every few steps."""
    engine, rng, probe = ENGINES[title], random.Random(seed), random.Random(seed + 1)
    state = engine.setup({}, players)
    events: dict[int, dict] = {}
    prompts, labels, refusals, crashes = {}, {}, {}, {}
    for step in range(20000):
        state, _ = run_chance(engine, state, rng)
        for e in state["events"]:
            events.setdefault(e["no"], e)
        if engine.is_over(state):
            break
        aw = engine.awaiting(state)
        prompts.setdefault(aw.prompt.template if isinstance(aw.prompt, Msg) else aw.prompt, aw.prompt)
        seat = rng.choice(sorted(aw.seats))
        moves = engine.legal(state, seat)
        for m in moves:
            label = engine.label(m)
            labels.setdefault(label.template if isinstance(label, Msg) else label, label)
        if step % 6 == 0:
            for s, wrong in wrong_moves(engine, state, seat, moves, probe):
                try:
                    engine.apply(state, s, wrong)
                except RuleError as e:
                    refusals.setdefault(e.msg.template, e)
                except Exception as e:  # not this test's subject: the engine's own checks (reported apart)
                    crashes.setdefault(f"{type(e).__name__}: {e}"[:80], wrong)
        state = engine.apply(state, seat, selfplay_move(engine, state, seat, rng, moves))
    assert engine.is_over(state), f"{title} did not end"
    return {"state": state, "events": [events[n] for n in sorted(events)], "prompts": prompts, "labels": labels,
            "refusals": refusals, "crashes": crashes}


def names(title: str) -> set[str]:
    """What is written in Latin letters in both languages: the players' stand-ins."""
    return {who(s) for s in range(6)}


def check_japanese(text: str, english: str, title: str, what: str) -> None:
    assert not english_left(text, names(title)), f"{what}: English left in {text!r} ({english!r})"


# ---- the catalog ----------------------------------------------------------------------------------------------

def test_every_message_of_the_engine_has_its_japanese():
    assert untranslated(["engines/e18xx"]) == []


# ---- events, prompts and labels along whole games -------------------------------------------------------------

@pytest.mark.parametrize("title, players, seed", GAMES)
def test_the_events_of_a_whole_game_read_in_japanese(title, players, seed):
    game = play(title, players, seed)
    assert len(game["events"]) > 500
    kinds = set()
    for e in game["events"]:
        ja, en = fill(e, who, "ja"), fill(e, who, "en")
        kinds.add(e["text"])
        check_japanese(ja, en, title, "event")
        assert "[" not in ja and "{" not in ja, ja  # every seat and value filled in
        if LATIN.search(e["text"]):
            assert ja != en, e["text"]
    assert len(kinds) > 30, sorted(kinds)


@pytest.mark.parametrize("title, players, seed", GAMES)
def test_prompts_and_move_labels_read_in_japanese(title, players, seed):
    game = play(title, players, seed)
    for prompt in game["prompts"].values():
        assert isinstance(prompt, Msg), f"the prompt {prompt!r} is a plain string"
        check_japanese(say(prompt, "ja"), str(prompt), title, "prompt")
    assert len(game["labels"]) > 10
    for label in game["labels"].values():
        assert isinstance(label, Msg), f"the label {label!r} is a plain string"
        ja = say(label, "ja")
        check_japanese(ja, str(label), title, "label")


@pytest.mark.parametrize("title, players, seed", GAMES)
def test_refusals_read_in_japanese(title, players, seed):
    game = play(title, players, seed)
    refusals = game["refusals"]
    assert len(refusals) > 25, sorted(refusals)
    for template, e in refusals.items():
        ja = say(e.msg, "ja")
        assert ja != str(e), template
        check_japanese(ja, str(e), title, "refusal")


def test_many_kinds_of_refusal_are_met_along_the_games():
    seen = set().union(*(play(*g)["refusals"] for g in GAMES))
    assert len(seen) > 60, len(seen)


def test_refusals_raised_by_hand_read_in_japanese():
    """A few the games rarely meet: a replay's, an export's, a typed route's."""
    from engines.e18xx.export import NotExportable, export_game
    from engines.e18xx.replay import ReplayFailed, UnknownTitle, replay_export
    from engines.e18xx.route_text import parse_routes

    e = ENGINES["1889"]
    s = e.setup({}, 3)
    said = []
    for action in ({"type": "bid", "company": "ER", "price": 40}, {"type": "bid", "company": "TR", "price": 15},
                   {"type": "bid", "company": "ZZ", "price": 40}, {"type": "par", "corporation": "KO",
                                                                    "share_price": "70,4,3"},
                   {"type": "end_game"}, {"type": "pass", "entity": "AR", "entity_type": "corp"}):
        with pytest.raises(RuleError) as caught:
            e.apply(s, 0, action)
        said.append(caught.value.msg)
    with pytest.raises(RuleError) as caught:
        parse_routes(G(s), "KO", "2: J1 K4")
    said.append(caught.value.msg)
    with pytest.raises(UnknownTitle) as unknown:
        replay_export({"title": "1830", "players": [], "actions": []})
    said.append(unknown.value.msg)
    failed = ReplayFailed({"id": 7, "type": "pass", "entity": "AR"}, 0, "It is not your turn.",
                          msg("It is not your turn."))
    said.append(failed.msg)
    assert str(failed) == "Action 7 (pass by AR) cannot be replayed: It is not your turn."
    with pytest.raises(NotExportable) as refused:
        export_game("1889", {}, ["a", "b", "c"], [(0, {"type": "par", "corporation": "KO", "share_price": "70,4,3"})])
    said.append(refused.value.msg)
    for m in said:
        ja = say(m, "ja")
        assert ja != str(m) and not english_left(ja), (str(m), ja)


# ---- names ----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("title", ["1889", "1867"])
def test_every_city_and_company_has_a_japanese_name(title):
    t, m = load_title(title), load_map(f"g{title}")
    for c in t.corporations:
        assert c.name_ja and not LATIN.search(c.name_ja) and c.kana, c
        assert c.full_name == Name(c.name, c.name_ja, c.kana)
    for p in t.privates:
        assert p.name_ja and not LATIN.search(p.name_ja) and p.kana, p
    assert set(m.names_ja) == set(m.names)
    for coord in m.names:
        city = m.city_name(coord)
        assert city.ja and not LATIN.search(city.ja) and city.kana, coord
        place = m.place_name(coord)
        assert place.en == m.place(coord) and place.ja == f"{city.ja} ({coord})"
    unnamed = next(c for c in m.printed if c not in m.names)
    assert m.place_name(unnamed) == Name(unnamed, unnamed) and m.city_name(unnamed) is None


def test_the_shikoku_names_as_japanese_players_know_them():
    m, t = load_map("g1889"), load_title("1889")
    assert [say(m.place_name(c), "ja") for c in ("K4", "E2", "F9", "K8")] == [
        "高松 (K4)", "松山 (E2)", "高知 (F9)", "徳島 (K8)"]
    assert {c.id: c.name_ja for c in t.corporations}["AR"] == "阿波鉄道"
    assert {c.id: c.name_ja for c in t.corporations}["IR"] == "伊予鉄道"
    assert {c.id: c.name_ja for c in t.corporations}["TR"] == "土佐電気鉄道"
    assert Name("Matsuyama", "松山", "まつやま").matches("まつ") and m.city_name("E2").matches("まつやま")
    assert say(load_map("g1867").place_name("L12"), "ja") == "モントリオール (L12)"


# ---- the English is unchanged ---------------------------------------------------------------------------------

def test_the_english_reads_as_before():
    e = ENGINES["1889"]
    s = e.setup({}, 3)
    s = e.apply(s, 0, {"type": "bid", "company": "TR", "price": 20})
    ev = s["events"][-1]
    assert fill(ev, who, "en") == "P1 buys Takamatsu E-Railroad for ¥20."
    assert fill(ev, who, "ja") == "P1が高松電気軌道を20円で購入した。"
    with pytest.raises(RuleError, match="A bid on Ehime Railway is at least ¥45.") as caught:
        e.apply(s, 1, {"type": "bid", "company": "ER", "price": 40})
    assert say(caught.value.msg, "ja") == "愛媛鉄道への入札は最低45円です。"
    assert str(e.label({"type": "bid", "company": "ER", "price": 45})) == "Bid ¥45 for ER"
    assert say(e.label({"type": "bid", "company": "ER", "price": 45}), "ja") == "ERに45円を入札"
    assert str(e.awaiting(s).prompt) == "bid for a private company or pass"
    g = G(s)
    assert g.amount(80) == Money(80, "yen") and say(g.amount(1200), "ja") == "1,200円"
    assert G(ENGINES["1867"].setup({}, 3)).amount(80) == Money(80, "dollar")
