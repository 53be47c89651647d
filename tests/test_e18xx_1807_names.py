"""1807's Japanese names (engines/e18xx/titles/g1807/*.json, our own transliterations: see NOTE.md): every
corporation (minors, publics, systems), every private railway, ferry and underground, and every name the map prints
has a Japanese name in katakana/kanji with a kana reading, as 1889's and 1867's have."""
from __future__ import annotations

import re

from bot.i18n import say
from engines.e18xx.board import load_map
from engines.e18xx.companies import load_title
from engines.text import Name

LATIN = re.compile(r"[A-Za-z]")
JAPANESE = re.compile(r"[\u3041-\u3096\u30a1-\u30fa\u4e00-\u9fff]")
READING = re.compile(r"[\u3041-\u3096ー]+")  # hiragana (and the long vowel mark) only


def japanese(text: str) -> bool:
    return bool(text) and bool(JAPANESE.search(text)) and not LATIN.search(text)


def test_every_company_has_a_japanese_name_and_a_reading():
    t = load_title("1807")
    kinds = {c.kind for c in t.corporations}
    assert kinds == {"minor", "major", "system"} and len(t.corporations) == 40
    for c in t.corporations:
        assert japanese(c.name_ja) and READING.fullmatch(c.kana), c
        assert c.full_name == Name(c.name, c.name_ja, c.kana) and say(c.full_name, "ja") == c.name_ja
    assert [p.id for p in t.privates] == [f"P{i}" for i in range(1, 11)] + [f"F{i}" for i in range(1, 9)] + ["U1", "U2"]
    for p in t.privates:
        assert japanese(p.name_ja) and READING.fullmatch(p.kana), p
        assert say(p.full_name, "ja") == p.name_ja
    # the railways' words come out in Japanese: "Railway" as 鉄道, "and" read as アンド
    for c in t.corporations:
        if c.name.endswith("Railway"):
            assert c.name_ja.endswith("鉄道"), c
        if " and " in c.name:
            assert "アンド" in c.name_ja, c


def test_every_named_place_has_a_japanese_name():
    m = load_map("g1807")
    assert set(m.names_ja) == set(m.names) and len(m.names) == 72
    for coord in m.names:
        city = m.city_name(coord)
        assert japanese(city.ja) and city.kana, coord
        assert not re.search(r"[\u4e00-\u9fff]", city.kana), (coord, city.kana)  # a kanji name has its reading
        place = m.place_name(coord)
        assert place.en == m.place(coord) and place.ja == f"{city.ja} ({coord})"
    unnamed = next(c for c in m.printed if c not in m.names)
    assert m.place_name(unnamed) == Name(unnamed, unnamed) and m.city_name(unnamed) is None


def test_the_british_names_as_japanese_players_know_them():
    m, t = load_map("g1807"), load_title("1807")
    assert [say(m.place_name(c), "ja") for c in ("U23", "M15", "D10", "D6", "M11", "G17", "A13")] == [
        "ロンドン (U23)", "マンチェスター (M15)", "エディンバラ (D10)", "グラスゴー (D6)", "リバプール (M11)",
        "ニューカッスル (G17)", "アバディーン (A13)"]
    corps = {c.id: c.name_ja for c in t.corporations}
    assert corps["GA"] == "グラスゴー・アンド・エア鉄道"
    assert corps["LNW"] == "ロンドン・アンド・ノース・ウェスタン鉄道"
    assert corps["GWR"] == "グレート・ウェスタン鉄道"
    privates = {p.id: p.name_ja for p in t.privates}
    assert privates["P9"] == "ウェスト・ロンドン" and privates["U1"] == "メトロポリタン鉄道"
    assert m.city_name("M15").matches("マンチェ") and t.private("P10").full_name.matches("りばぷーる")
