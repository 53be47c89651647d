"""Tokai Baron in Japanese (issue 16): seeded games read in Japanese at every step (the table, every seat's own
lines, every label and panel, the narration) with no English left; the map picture drawn in Japanese with no missing
glyph and in English in romaji; the rule errors said in Japanese; every name of the data in both languages; the
`/tokai move to:` autocomplete and the waypoints accepting romaji, the Japanese name or the kana reading."""
from __future__ import annotations

import random
import re
from functools import cache
from types import SimpleNamespace

import pytest
from PIL import ImageDraw

from bot.errors import Refusal
from bot.i18n import say
from bot.tables import Change, Table
from cogs import tokai_map
from cogs.fonts import missing_glyphs
from cogs.tokai import (
    MoreMoves,
    MoveMenu,
    MoveNow,
    TokaiPresenter,
    move_options,
    point_matches,
    resolve_point,
    to_choices,
)
from engines.base import CHANCE, RuleError
from engines.chance import draw
from engines.tokai import network as nw
from engines.tokai.engine import TICKET, TokaiBaron, card_name, point_name, region_area, region_name
from tests.i18n_helpers import english_left

E = TokaiBaron()
P = TokaiPresenter()
#: Player names in Latin letters: they stay as they are in either language.
NAMES = ("ann", "ben", "cat", "dan", "eve")
LATIN = re.compile(r"[A-Za-z]")
KANA_OR_KANJI = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


class Game:
    id = 7
    options: dict = {}

    def __init__(self, players: int):
        self.players = players

    def in_seat_order(self):
        return [SimpleNamespace(name=n) for n in NAMES[:self.players]]


def table(state) -> Table:
    return Table(Game(len(state["players"])), E, state, 1)


@cache
def game(seed: int, players: int) -> tuple:
    """Every (state, seat, action) of a seeded game: mostly the idle player's choice, sometimes another legal move,
    sales put up for auction and bids made, so that every stage is seen; the last entry is the final state."""
    rng = random.Random(seed)

    def chance(s):
        while (req := E.awaiting(s).chance) is not None:
            s = E.apply(s, CHANCE, draw(req, rng))
        return s

    s, out = chance(E.setup({}, players)), []
    while E.scores(s) is None:
        seat = min(E.awaiting(s).seats)
        legal = E.legal(s, seat)
        kinds = {m["type"] for m in legal}
        if "auction" in kinds and rng.random() < 0.7:
            move = rng.choice([m for m in legal if m["type"] == "auction"])
        elif "bid" in kinds and rng.random() < 0.6:
            move = rng.choice([m for m in legal if m["type"] == "bid"])
        elif rng.random() < 0.1:
            move = rng.choice(legal)
        else:
            move = E.auto_action(s, seat)
        out.append((s, seat, move))
        s = chance(E.apply(s, seat, move))
    out.append((s, None, None))
    return tuple(out)


def view_texts(view) -> list[str]:
    texts = []
    for item in view.children:
        if isinstance(item, MoveNow):
            texts.append(item.item.label)
        elif isinstance(item, (MoveMenu, MoreMoves)):
            texts.append(item.item.placeholder or "")
            for o in item.item.options:
                texts += [o.label, o.description or ""]
    return texts


def assert_japanese(texts, where) -> None:
    for text in texts:
        assert not english_left(text, NAMES), (where, text)


@pytest.mark.parametrize(("seed", "players"), [(3, 3), (8, 5)])
def test_a_whole_game_reads_in_japanese_at_every_step(monkeypatch, seed, players):
    monkeypatch.setattr("cogs.tokai_map.render", lambda state, names, lang="en": b"png")
    rows = game(seed, players)
    stages = set()
    for i, (s, seat, move) in enumerate(rows):
        t = table(s)
        stages.add(s["turn"]["stage"] if s["phase"] == "play" else s["phase"])
        assert_japanese(P.public_lines(t, "ja"), ("public", i))
        for x in range(players):
            assert_japanese(P.private_lines(t, x, "ja"), ("private", i, x))
        if seat is None:
            continue
        legal = E.legal(s, seat)
        if s["phase"] == "play" and s["turn"]["stage"] == "move":
            labels = [o["label"] for o in move_options(s, seat, "ja")] + [P.move_label(t, legal[0], "ja")]
        else:
            labels = [P.move_label(t, m, "ja") for m in legal]
        assert_japanese(labels, ("labels", i))
        assert_japanese(view_texts(P.move_view(t, seat, "ja")), ("panel", i))
        after = rows[i + 1][0]
        said = P.announce(Change("action", table(after), entries=[(1, seat, move)], before=s), "ja")
        assert_japanese([text for text, _ in said], ("announce", i))
    final = rows[-1][0]
    text = "\n".join(P.public_lines(table(final), "ja"))
    assert "**最終資産：** 1. " in text
    assert {"prebuy", "move", "buy", "sell", "over"} <= stages


def test_japanese_is_said_with_japanese_names_and_yen():
    rows = game(3, 3)
    s, seat, _ = next(r for r in rows if r[1] is not None and r[0]["phase"] == "play"
                      and r[0]["turn"]["stage"] == "move" and r[0]["players"][r[1]]["dest"])
    me = s["players"][seat]
    mine = "\n".join(P.private_lines(table(s), seat, "ja"))
    assert f"{nw.stations()[me['pos']]['name']}にいる" in mine and f"あなた：**{me['cash']:,}円**" in mine
    english = "\n".join(P.private_lines(table(s), seat, "en"))
    assert f"at {nw.stations()[me['pos']]['en']}" in english and f"You: **¥{me['cash']:,}**" in english
    first = move_options(s, seat, "ja")[0]
    assert first["label"].startswith(nw.stations()[first["to"]]["name"] + " — 残り")


def _drawn(monkeypatch, state, lang: str) -> list[str]:
    """Every text the map picture draws, in ``lang`` (its cached layer drawn afresh)."""
    texts: list[str] = []
    real = ImageDraw.ImageDraw.text

    def spy(self, xy, text, *args, **kwargs):
        texts.append(text)
        return real(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", spy)
    tokai_map._base.cache_clear()
    try:
        tokai_map.render(state, list(NAMES[:len(state["players"])]), lang)
    finally:
        tokai_map._base.cache_clear()
    return texts


def _map_states():
    rows = game(8, 5)
    mid = next(s for s, seat, _ in rows if s["phase"] == "play" and s["event_no"] > 60
               and any(p["out"] for p in s["players"]) is False and s["turn"]["path"])
    return [mid, rows[-1][0]]


def test_the_map_in_japanese_draws_every_word_with_a_glyph_and_no_english(monkeypatch):
    for state in _map_states():
        texts = _drawn(monkeypatch, state, "ja")
        assert any(nw.stations()["nagoya"]["name"] == t for t in texts)
        for text in texts:
            assert not missing_glyphs(text), text
            assert not english_left(text, NAMES), text
        positions = {p["pos"] for p in state["players"] if p["pos"]}
        assert {nw.stations()[p]["name"] for p in positions} <= set(texts), "every piece's point is named"
        assert "東海男爵" in texts


def test_the_map_in_english_shows_romaji(monkeypatch):
    state = _map_states()[0]
    texts = _drawn(monkeypatch, state, "en")
    assert "Nagoya" in texts and "Tokai Baron" in texts
    stations = [t for t in texts if t in {s["en"] for s in nw.stations().values()}]
    assert len(stations) > 40
    for text in texts:
        assert not KANA_OR_KANJI.search(text), text
    positions = {p["pos"] for p in state["players"] if p["pos"]}
    assert {nw.stations()[p]["en"] for p in positions} <= set(texts)


def test_the_menu_and_the_map_name_a_point_alike():
    for lang, key in (("en", "en"), ("ja", "name")):
        assert say(point_name("nagoya"), lang) == tokai_map.label("nagoya", lang) == nw.stations()["nagoya"][key]
    assert say(point_name("nagoya"), "en") == "Nagoya" and say(point_name("nagoya"), "ja") == "名古屋"


def test_autocomplete_and_waypoints_take_romaji_japanese_or_kana():
    for typed in ("nagoya", "Nagoya", "名古屋", "なごや", "名鉄名古屋"):
        assert point_matches("nagoya", typed), typed
        assert resolve_point(typed) == "nagoya", typed
    assert resolve_point("Kami-Iida") == resolve_point("kamiiida") == resolve_point("上飯田") == "kamiiida"
    assert resolve_point("かみいいだ") == resolve_point("Kami Iida") == "kamiiida"
    assert not point_matches("nagoya", "sakae")
    s, seat, _ = next(r for r in game(3, 3) if r[1] is not None and r[0]["phase"] == "play"
                      and r[0]["turn"]["stage"] == "move" and len(r[0]["turn"]["moves"]) > 3)
    for to in list(s["turn"]["moves"])[:5]:
        st = nw.stations()[to]
        for typed, lang in ((st["en"], "en"), (st["name"], "ja"), (st["reading"], "ja"), (st["en"].lower(), "ja")):
            choices = to_choices(s, seat, typed, lang)
            assert to in [c.value for c in choices], (to, typed)
        [mine] = [c for c in to_choices(s, seat, st["name"], "ja") if c.value == to]
        assert mine.name.removeprefix("⚠ ").startswith(st["name"]) and not english_left(mine.name, NAMES)
        [theirs] = [c for c in to_choices(s, seat, st["reading"], "en") if c.value == to]
        assert theirs.name.removeprefix("⚠ ").startswith(st["en"])
    with pytest.raises(Refusal) as no:
        resolve_point("ほげ")
    assert "「ほげ」という地点はマップにありません" in say(no.value.msg, "ja")


def _errors() -> list[RuleError]:
    """A few of the engine's refusals, raised as a player would meet them."""
    rows = game(3, 3)
    found: list[RuleError] = []

    def attempt(s, seat, action):
        with pytest.raises(RuleError) as e:
            E.apply(s, seat, action)
        found.append(e.value)

    s, seat, _ = next(r for r in rows if r[1] is not None and r[0]["phase"] == "prebuy")
    attempt(s, seat, {"type": "buy", "card": "shinkansen"})
    attempt(s, seat, {"type": "bid", "amount": 1000})
    fresh = next(r for r in rows if r[1] is not None and r[0]["phase"] == "prebuy"
                 and r[0]["spent"][r[1]] == 0)
    attempt(fresh[0], fresh[1], {"type": "done"})
    s, seat, _ = next(r for r in rows if r[1] is not None and r[0]["phase"] == "play"
                      and r[0]["turn"]["stage"] == "move")
    attempt(s, seat, {"type": "move", "to": "ほげ"})
    attempt(s, seat, {"type": "move"})
    attempt(s, seat, {"type": "pass"})
    far = next(p for p in nw.stations() if p not in s["turn"]["moves"])
    attempt(s, seat, {"type": "move", "to": far})
    s, seat, _ = next(r for r in rows if r[1] is not None and r[0]["phase"] == "play"
                      and r[0]["turn"]["stage"] == "buy")
    attempt(s, seat, {"type": "buy", "card": next(c for c, o in s["owners"].items() if o is not None)})
    s, seat, _ = next(r for r in rows if r[1] is not None and r[0]["phase"] == "play"
                      and r[0]["turn"]["stage"] == "auction" and not E._auction(r[0]).finished)
    attempt(s, seat, {"type": "bid", "amount": 10 ** 9})
    attempt(s, seat, {"type": "done"})
    with pytest.raises(RuleError) as e:
        E.apply(rows[-1][0], 0, {"type": "pass"})
    found.append(e.value)
    return found


def test_the_rule_errors_are_said_in_japanese():
    errors = _errors()
    assert len({e.msg.template for e in errors}) >= 9
    for e in errors:
        ja = say(e.msg, "ja")
        assert ja != str(e) and not english_left(ja, NAMES), (str(e), ja)
        assert LATIN.search(str(e))


def test_every_name_of_the_data_is_in_both_languages():
    def both(en: str, ja: str, kana: str | None, where: str):
        assert en and LATIN.search(en) and not KANA_OR_KANJI.search(en), where
        assert ja and KANA_OR_KANJI.search(ja), where
        if kana is not None:
            assert kana and re.fullmatch(r"[\u3040-\u309f・ー()～]+", kana), where

    for sid, s in nw.stations().items():
        both(s["en"], s["name"], s["reading"], sid)
    assert len({s["en"].casefold() for s in nw.stations().values()}) == len(nw.stations()), "romaji tell points apart"
    for lid, line in nw.lines().items():
        both(line["en"], line["name"], line["kana"], lid)
    for cid, card in nw.route_cards().items():
        both(card["en"], card["name"], card["kana"], cid)
        name = card_name(cid)
        assert say(name, "en") == card["en"] and say(name, "ja") == card["name"]
    for r in nw.load_destinations()["regions"]:
        both(r["en"], r["name"], r["kana"], r["id"])
        both(r["area_en"], r["area"], None, r["id"])
        assert say(region_name(r["id"]), "ja") == r["name"] and say(region_area(r["id"]), "en") == r["area_en"]
    assert say(card_name(TICKET), "ja") == "急行券" and say(card_name(TICKET), "en") == "express ticket"
