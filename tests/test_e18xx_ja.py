"""The 18xx cog in Japanese, along seeded games of Shikoku 1889, 1867 and 1807: everything a player reads (the table,
their own lines, every move's label, the panel's buttons, menus and options, the narration) says no English
sentence, and every picture (map, market, charters, lays, tokens) draws its words in Japanese with no missing
glyph. Also: /18xx's refusals in Japanese, a city found by either language's name, and the English unchanged."""
from __future__ import annotations

import copy
import importlib
import random
from contextlib import contextmanager
from functools import cache

import discord
import pytest
from PIL import ImageDraw

from bot.errors import Refusal
from bot.i18n import READER, say
from bot.tables import Change

# the modules as imported here: a bot closed by another test unloads its cogs, and a later import is a new module
from cogs.e18xx import commands, pictures, presenter
from cogs.e18xx.common import LATELY
from cogs.e18xx.panel import HexMenu, KindMenu, MoveMenu, MoveNow, entries_for, lays_png, tokens_png
from cogs.e18xx.presenter import E18xxPresenter, charters_png, map_png, market_png, todo
from cogs.e18xx.words import event_line, place
from cogs.fonts import missing_glyphs
from engines.base import CHANCE
from engines.chance import draw
from engines.e18xx import rounds
from engines.e18xx.game import BigFour1807, Canada1867, Kansai1890, Shikoku1889
from engines.e18xx.state import G
from tests.e18xx_helpers import NAMES, presenter_table
from tests.i18n_helpers import english_left

P = E18xxPresenter()
E1889, E1867, E1807 = Shikoku1889(), Canada1867(), BigFour1807()
BUSY = ("bid", "par", "buy_shares", "lay_tile", "place_token", "buy_train", "run_routes", "dividend", "merge",
        "convert")

@cache
def trace(title: str, seed: int, players: int, steps: int, policy: str) -> tuple:
    """(state, awaited seat, action) along a seeded game: "busy" mostly plays the busy moves (pars, lays, runs,
    trains …), "random" any legal move, else the engine's default. A chance draw (1807's setup) is made and not
    kept."""
    engine = engine_of(title)
    rng = random.Random(seed)
    s, out = engine.setup({}, players), []
    for _ in range(steps):
        if engine.scores(s) is not None:
            break
        if (chance := engine.awaiting(s).chance) is not None:
            s = engine.apply(s, CHANCE, draw(chance, rng))
            continue
        seat = min(engine.awaiting(s).seats)
        moves = engine.legal(s, seat)
        if policy == "busy":
            busy = [m for m in moves if m["type"] in BUSY]
            move = rng.choice(busy) if busy and rng.random() < 0.75 else (engine.auto_action(s, seat) or moves[-1])
        else:
            move = rng.choice(moves) if rng.random() < 0.7 else (engine.auto_action(s, seat) or moves[-1])
        out.append((s, seat, move))
        s = engine.apply(s, seat, move)
    return tuple(out)


#: Whole games, to their end: 1889 (four players, busy moves), 1867 (four players, random moves: its minors'
#: auctions, merger rounds and conversions) and 1807 (four players, random moves: the drawn private railways'
#: auction, ferry and underground auctions, minors by batch, P2-P5's free tiles, merger rounds, the 4+4 end).
GAMES = {"1889": ("1889", 5, 4, 1200, "busy"), "1867": ("1867", 4, 4, 1600, "random"),
         "1807": ("1807", 5, 4, 4000, "busy")}  # 1807's random play seldom leaves phase 3 in 4,000 steps
TITLES = list(GAMES)


def engine_of(title: str):
    return {"1889": E1889, "1867": E1867, "1807": E1807}[title]


def table(title: str, state):
    return presenter_table(engine_of(title), state)


def latin_names(state) -> list[str]:
    """What may stay in Latin letters in Japanese: the players' names."""
    return list(NAMES[:state["n"]])


def assert_japanese(text: str, state, where: str) -> None:
    left = english_left(text, latin_names(state))
    assert not left, f"{where}: English left {left} in {text!r}"


def _view_texts(view: discord.ui.View) -> list[str]:
    """Every text of a panel: buttons' labels, menus' placeholders, options' labels and descriptions."""
    texts = []
    for item in view.children:
        if isinstance(item, MoveNow):
            texts.append(item.item.label)
        elif isinstance(item, (MoveMenu, HexMenu, KindMenu)):
            texts.append(item.item.placeholder or "")
            for o in item.item.options:
                texts += [o.label, o.description or ""]
    return [t for t in texts if t]


@pytest.mark.parametrize("title", TITLES)
def test_everything_a_player_reads_is_japanese(title):
    """At every step: the table, every seat's own lines, every legal move's label, the panel; the narration of
    every move, the engine's event lines among them."""
    rounds_seen, kinds, specials = set(), set(), set()
    for k, (s, seat, a) in enumerate(trace(*GAMES[title])):
        t = table(title, s)
        g = G(s)
        rounds_seen.add(s["round"]["kind"])
        events = {event_line(e, latin_names(s), "ja") for e in s["events"][-LATELY:]}
        for line in P.public_lines(t, "ja"):
            assert_japanese(line, s, f"public line {s['round']['kind']}")
        for e in events:
            assert_japanese(e, s, "event")
        for other in range(s["n"]):
            for line in P.private_lines(t, other, "ja"):
                assert_japanese(line, s, "private line")
        assert_japanese(todo(g, seat, latin_names(s), "ja"), s, "todo")
        entries = entries_for(t, seat, "ja")
        labels = [e.label for e in entries]
        assert len(set(labels)) == len(labels), labels
        assert all(0 < len(x) <= 80 for x in labels), labels
        for e in entries:
            kinds.add(e.move["type"])
            if e.move["type"] == "bid" and "company" in e.move and s["round"]["kind"] == "stock":
                specials.add("private in a stock round")  # 1807's ferries and undergrounds
            if e.move["type"] == "lay_tile" and e.move.get("entity_type") == "company":
                specials.add("a private's tile")
            assert_japanese(e.label, s, f"label of {e.move['type']}")
            if e.detail:
                assert_japanese(e.detail, s, f"detail of {e.move['type']}")
            assert len(e.detail or "") <= 100
        if k % 5 == 0:  # the panel itself (its buttons and menus), every few steps
            view = P.move_view(t, seat, "ja")
            for text in _view_texts(view):
                assert_japanese(text, s, "panel")
        assert_japanese(P.move_label(t, a, "ja"), s, f"move label of {a['type']}")
    assert {"auction", "stock", "operating"} <= rounds_seen
    assert {"lay_tile", "place_token", "run_routes", "buy_train", "pass", "par", "dividend"} <= kinds
    if title in ("1867", "1807"):
        assert "merger" in rounds_seen and {"merge", "convert"} <= kinds
    if title == "1807":
        assert {"private in a stock round", "a private's tile"} <= specials
        drawing = E1807.setup({}, 4)  # before the setup's draw (the trace makes it unseen)
        for line in P.public_lines(table(title, drawing), "ja"):
            assert_japanese(line, drawing, "the setup draw")


@pytest.mark.parametrize("title", TITLES)
def test_the_narration_is_japanese(title, monkeypatch):
    """announce(change, "ja"): every post's text (pictures stood in for: they are checked below)."""
    monkeypatch.setattr(presenter, "map_png", lambda state, lang="en", drawn=None: b"map")
    monkeypatch.setattr(presenter, "map_image", lambda state, lang="en": None)
    monkeypatch.setattr(presenter, "market_png", lambda state, lang="en": b"market")
    monkeypatch.setattr(presenter, "charters_png", lambda state, names, lang="en": b"charters")
    engine = engine_of(title)
    posted = 0
    for s, seat, a in trace(*GAMES[title]):
        after = engine.apply(s, seat, a)
        change = Change("action", table(title, after), entries=[(2, seat, a)], before=s)
        for text, _ in P.announce(change, "ja"):
            assert text.startswith("卓7：")
            assert_japanese(text, after, f"announce after {a['type']}")
            posted += 1
    assert posted > 20
    # the end: three posts
    s, seat, a = trace(*GAMES[title])[-1]
    after = copy.deepcopy(engine.apply(s, seat, a))
    rounds.end_game(G(after), "final_phase" if title == "1807" else "bank")  # 1807's bank never breaks
    posts = P.announce(Change("action", table(title, after), entries=[(2, seat, a)], before=s), "ja")
    assert [png for _, png in posts] == [b"map", b"market", b"charters"]
    for text, _ in posts[1:]:
        assert_japanese(text, after, "end post")
    assert_japanese(P.public_lines(table(title, after), "ja")[0], after, "game over")
    assert any(line.startswith("**最終得点：**") for line in P.public_lines(table(title, after), "ja"))


def clear_picture_caches() -> None:
    """Empty the pictures' caches: of the module imported here, and of the one the presenter's lazy imports find now
    (another test's bot, closed, unloads its cogs; the next import is a new module with caches of its own)."""
    for module in {pictures, importlib.import_module("cogs.e18xx.pictures")}:
        for cached in (module._hex_image, module._map_base, module._market_base, module._token):
            cached.cache_clear()
    for module in {presenter, importlib.import_module("cogs.e18xx.presenter")}:
        module._maps.clear()  # the maps drawn, by board


@contextmanager
def drawn_texts():
    """Every text drawn with ImageDraw.text meanwhile (the pictures' caches emptied first, so all is drawn)."""
    clear_picture_caches()
    texts: list[str] = []
    original = ImageDraw.ImageDraw.text

    def spy(self, xy, text, *args, **kwargs):
        texts.append(str(text))
        return original(self, xy, text, *args, **kwargs)

    ImageDraw.ImageDraw.text = spy
    try:
        yield texts
    finally:
        ImageDraw.ImageDraw.text = original
        clear_picture_caches()  # no Japanese hex kept for an English picture's test


@pytest.mark.parametrize("title", TITLES)
def test_the_pictures_draw_japanese_with_every_glyph(title):
    steps = trace(*GAMES[title])
    s = steps[-1][0]
    names = latin_names(s)
    g = G(s)
    with drawn_texts() as texts:
        assert map_png(s, "ja").startswith(b"\x89PNG")
        assert market_png(s, "ja").startswith(b"\x89PNG")
        assert charters_png(s, names, "ja").startswith(b"\x89PNG")
        coord = next(iter(g.map.names))
        lays_png(s, coord, [], "ja")
        cities = [(c, g.board.tile(c).city_indexes()[0]) for c in list(g.map.names)[:3]
                  if g.board.tile(c).city_indexes()]
        tokens_png(s, cities, "ja")
    assert texts
    drawn = "\n".join(texts)
    for text in texts:
        assert not missing_glyphs(text), (text, missing_glyphs(text))
        assert_japanese(text, s, "picture")
    whole = "".join(texts)  # a long Japanese name is written on two lines, one text each
    for coord in g.map.names:  # every city's name in Japanese on the map
        assert say(g.map.city_name(coord), "ja") in whole
    assert "株価表" in drawn and "社長" in drawn and "盤外の収益ボックス：" in drawn


def test_a_scenarios_map_bears_its_games_title_in_each_language():
    s = Kansai1890().setup({"scenario": "hanshin"}, 3)
    for lang, title in (("en", "1890 Kansai"), ("ja", "1890 関西")):
        with drawn_texts() as texts:
            map_png(s, lang)
        assert title in texts and not any("1890/hanshin" in t for t in texts)


def test_the_english_pictures_and_words_are_unchanged():
    s = trace(*GAMES["1889"])[-1][0]
    with drawn_texts() as texts:
        map_png(s)
        market_png(s)
        charters_png(s, latin_names(s))
    drawn = "\n".join(texts)
    assert "Kouchi" in drawn and "Stock market" in drawn and "President" in drawn and "1889 Shikoku" in drawn
    assert "高知" not in drawn
    lines = P.public_lines(table("1889", s))
    assert any(line.startswith(("Bank ¥", "Bank -¥")) for line in lines)
    assert not any("円" in line for line in lines)


def test_a_city_is_found_by_either_languages_name():
    g = G(E1889.setup({}, 4))
    assert commands._resolve_hex(g, "高知") == "F9"
    assert commands._resolve_hex(g, "kouchi") == "F9"
    assert commands._resolve_hex(g, "f9") == "F9"
    assert place(g, "F9", "ja") == "高知 (F9)" and place(g, "F9") == "Kouchi (F9)"
    pairs = [(place(g, c, "ja"), c, commands._hex_spellings(g, c)) for c in g.map.names]
    assert [c.value for c in commands._choices(pairs, "Kouchi")] == ["F9"]
    assert [c.value for c in commands._choices(pairs, "高知")] == ["F9"]
    assert [c.value for c in commands._choices(pairs, "こうち")] == ["F9"]
    assert commands._resolve_corp(g, "伊予鉄道") == "IR" and commands._resolve_corp(g, "Iyo Railway") == "IR"
    assert commands._resolve_private(g, "三菱フェリー") == "MF"
    g67 = G(E1867.setup({}, 4))
    ottawa = next(c for c in g67.map.names if g67.map.names[c] == "Ottawa")
    assert commands._resolve_hex(g67, say(g67.map.city_name(ottawa), "ja")) == ottawa
    g07 = G(E1807.setup({}, 4))
    assert commands._resolve_hex(g07, "リバプール") == commands._resolve_hex(g07, "liverpool") == "M11"
    assert place(g07, "M11", "ja") == "リバプール (M11)"
    assert commands._resolve_corp(g07, "ロンドン・アンド・ノース・ウェスタン鉄道") == "LNW"
    assert commands._resolve_private(g07, "ドーバー・フェリー") == "F7"


def test_refusals_of_18xx_commands_are_japanese():
    g = G(E1889.setup({}, 4))
    token = READER.set("ja")
    try:
        found = []
        for call in (lambda: commands._resolve_corp(g, "XYZ"), lambda: commands._resolve_private(g, "XYZ")):
            with pytest.raises(Refusal) as e:
                call()
            found.append(e.value)
        t = table("1889", g.s)
        found.append(commands._waiting(t, 3, "lay a tile"))
        found.append(Refusal("You cannot sell {percent}% of {cid}; you hold {held}%.", percent=30, cid="AR", held=20))
    finally:
        READER.reset(token)
    for e in found:
        ja, en = say(e.msg, "ja"), say(e.msg, "en")
        assert ja != en
        assert not english_left(ja, latin_names(g.s)), ja


@pytest.mark.parametrize("scenario", ["hanshin", "full"])
def test_1890s_pictures_draw_japanese_with_every_glyph_and_english_unchanged(scenario):
    """1890 (a keen game of each scenario to its end): the map, market, charters and tile-lay pictures in Japanese
    draw every glyph, no English, every place's Japanese name; in English, the romaji names."""
    from tests.test_e18xx_1890_present import trace as trace_1890

    s = trace_1890(scenario)[-1][0]
    g = G(s)
    names = latin_names(s)
    for lang in ("ja", "en"):
        with drawn_texts() as texts:
            assert map_png(s, lang).startswith(b"\x89PNG")
            assert market_png(s, lang).startswith(b"\x89PNG")
            assert charters_png(s, names, lang).startswith(b"\x89PNG")
            coord = next(iter(g.map.names))
            lays_png(s, coord, [], lang)
            cities = [(c, g.board.tile(c).city_indexes()[0]) for c in list(g.map.names)[:3]
                      if g.board.tile(c).city_indexes()]
            tokens_png(s, cities, lang)
        drawn = " ".join(texts)  # a long name is written on two lines
        for text in texts:
            assert not missing_glyphs(text), (lang, text, missing_glyphs(text))
            if lang == "ja":
                assert_japanese(text, s, "picture")
        whole = "".join(texts)  # a long Japanese name is written on two lines, one text each
        for coord in g.map.names:
            assert say(g.map.city_name(coord), lang) in (drawn if lang == "en" else whole), (lang, coord)
        if lang == "ja":
            assert "株価表" in drawn and "社長" in drawn and "近畿日本鉄道" in drawn or scenario == "hanshin"
            assert "（固定）" in drawn or scenario == "hanshin"  # a minor's fixed price on its charter
        else:
            assert "Kyōto" in drawn and "Stock market" in drawn
