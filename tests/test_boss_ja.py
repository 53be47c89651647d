"""I'm the Boss! in Japanese: whole random games read in Japanese at every step (the table, every hand, every
move's label, the panel, the narration, the board picture) hold no English sentence, the picture draws every
character it writes, every refusal of the engine is said in Japanese, and every colour and card of the game has
its Japanese name. The English stays as the other boss tests have it."""
from __future__ import annotations

import pytest
from PIL import ImageDraw

from bot.i18n import say
from bot.tables import Change
from cogs.boss import BossPresenter, event_line, price_view
from cogs.boss_board import render
from cogs.fonts import missing_glyphs
from engines.base import RuleError
from engines.boss import DECK, TRAVELS, Boss, card_name, colour, event_msg, price_text
from engines.boss.board import COLOUR_NAMES, FAMILIES
from engines.text import Name
from tests.boss_helpers import act, clear_hands, deal_on, give, join, offer, started
from tests.i18n_helpers import english_left, untranslated
from tests.test_boss_properties import NAMES, play, table_for

E = Boss()
PRESENTER = BossPresenter()
PATHS = ("engines/boss", "cogs/boss.py", "cogs/boss_board.py")
DECLARE, STOP, BOSS_CARD = {"type": "declare"}, {"type": "stop"}, {"type": "boss", "restart": False}


def lay(family: str) -> dict:
    return {"type": "lay", "family": family}


def travel(card: str, family: str) -> dict:
    return {"type": "travel", "card": card, "family": family}


def no_english(text: str) -> None:
    assert english_left(text, NAMES) == [], text


class Drawn:
    """Every text the board picture draws (a spy on ImageDraw.text)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch):
        self.texts: list[str] = []
        original = ImageDraw.ImageDraw.text

        def text(draw, xy, text, *args, **kwargs):
            self.texts.append(str(text))
            return original(draw, xy, text, *args, **kwargs)

        monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)


def panel_texts(view) -> list[str]:
    """What a panel shows: button labels, menu placeholders and option labels."""
    out = []
    for item in view.children:
        inner = getattr(item, "item", item)
        for attr in ("label", "placeholder"):
            if getattr(inner, attr, None):
                out.append(getattr(inner, attr))
        out += [o.label for o in getattr(inner, "options", [])]
    return out


def read_everything_in_japanese(n: int, seed: int, opts: dict, drawn: Drawn) -> dict[str, int]:
    seen = {"steps": 0, "labels": 0, "pictures": 0, "events": 0, "panels": 0}

    def each(before, seat, action, after, seq):
        table = table_for(n, opts, after, seq)
        seen["steps"] += 1
        for line in PRESENTER.public_lines(table, "ja"):
            no_english(line)
        for s in range(n):
            for line in PRESENTER.private_lines(table, s, "ja"):
                no_english(line)
        drawn.texts.clear()
        for text, picture in PRESENTER.announce(Change("action", table, entries=[(seq, seat, action)],
                                                       before=before), "ja"):
            no_english(text)
            seen["events"] += 1
            if picture is not None:
                seen["pictures"] += 1
                assert drawn.texts
                for t in drawn.texts:
                    no_english(t)
                    assert missing_glyphs(t) == set(), t
        if E.is_over(after):
            return
        aw = E.awaiting(after)
        if aw.prompt:
            no_english(say(aw.prompt, "ja"))
        if aw.chance is not None:
            no_english(say(aw.chance.reason, "ja"))
        for s in ([seq % n] if after["phase"] == "deal" else range(n)):  # a deal: one seat a step (many moves)
            moves = E.legal(after, s)
            for m in moves:
                no_english(PRESENTER.move_label(table, m, "ja"))
                seen["labels"] += 1
            view = PRESENTER.move_view(table, s, "ja")
            if view is not None:
                seen["panels"] += 1
                for t in panel_texts(view):
                    no_english(t)
            for family in sorted({m["family"] for m in moves if m["type"] == "offer"})[:1]:
                for t in panel_texts(price_view(table, s, family, "ja")):
                    no_english(t)

    play(seed, n, opts, each, check=False)
    return seen


@pytest.mark.parametrize("n,seed,opts", [
    (4, 11, {}),
    (3, 5, {"keep_turn": True, "paid_if_played": True, "late_limit": True}),
    (2, 7, {"short": True, "draw_by_investors": True}),
])
def test_a_whole_game_reads_in_japanese(monkeypatch, n, seed, opts):
    drawn = Drawn(monkeypatch)
    seen = read_everything_in_japanese(n, seed, opts, drawn)
    assert seen["steps"] > 50 and seen["labels"] > 100 and seen["pictures"] >= 2 and seen["panels"] > 20


def test_the_board_picture_in_japanese_draws_every_character_and_differs_from_english(monkeypatch):
    drawn = Drawn(monkeypatch)
    s = deal_on(clear_hands(started(4)), 0)
    public = E.public(s)
    ja = render(public, NAMES[:4], "ja")
    texts = list(drawn.texts)
    assert any("投資家" in t for t in texts) and any("アイム・ザ・ボス" in t for t in texts)
    for t in texts:
        no_english(t)
        assert missing_glyphs(t) == set(), t
    drawn.texts.clear()
    assert render(public, NAMES[:4], "en") != ja
    assert "Investors" in drawn.texts and "I'm the Boss!" in drawn.texts


def test_the_english_reading_is_unchanged():
    s = deal_on(clear_hands(started(4)), 0)
    table = table_for(4, {}, s, 1)
    lines = PRESENTER.public_lines(table)
    assert lines[0].startswith("Deal tile **#1** on top: **$2M a share** · 15 tiles left · 0 deals made")
    assert any(line.startswith("**Deal on space 1** · boss **Ann** · pays $4M") for line in lines)
    assert any(line.startswith("Needs red + green · in: ") for line in lines)
    assert PRESENTER.private_lines(table, 1)[0].startswith("Your money: **$0M** (the others see no money)")
    assert str(E.label({"type": "travel", "card": "grey", "family": "red"})) == \
        "Grey travel card on the red investor"
    assert PRESENTER.move_label(table, {"type": "travel", "card": "grey", "family": "red"}) == \
        "Grey travel card on Ann's red investor"
    assert str(price_text({"shares": 1})) == "1 share" and str(price_text({"money": 3})) == "$3M"
    started_event = next(e for e in s["events"] if e["text"].startswith("[0] starts a deal"))
    assert event_line(started_event, NAMES) == \
        "Ann starts a deal on space 1: red + green, paying $4M (2 shares × $2M)."
    assert event_line(started_event, NAMES, "ja") == \
        "Annがマス1で取引を始めました：赤・グリーン、配当金$4M（配当2つ × $2M）。"


def refusal(s: dict, seat: int, action: dict) -> RuleError:
    with pytest.raises(RuleError) as e:
        E.apply(s, seat, action)
    return e.value


def test_the_engine_refusals_are_said_in_japanese():
    """Representative refusals from the rules tests, each in Japanese with no English left."""
    s = clear_hands(started(4))
    give(s, 1, family_green=1, travel_grey=1)
    give(s, 2, stop=1, hire=1)
    d = deal_on(s, 0)  # space 1: red + green; Ann (seat 0) holds red
    offered = offer(act(d, 1, lay("green")), 1, "green", money=1)
    joined = join(act(d, 1, lay("green")), 1, "green", money=1)
    errors = [
        refusal(s, 0, {"type": "draw"}),                               # not now
        refusal(d, 2, lay("green")),                                   # no such card in hand
        refusal(d, 2, BOSS_CARD),                                      # no boss card
        refusal(d, 0, {"type": "offer", "family": "green", "shares": 1}),  # the boss does not offer
        refusal(d, 1, {"type": "offer", "family": "green", "shares": 1}),  # no investor, no card laid
        refusal(d, 1, {"type": "offer", "family": "blue", "shares": 1}),   # a family the deal does not need
        refusal(act(d, 1, lay("green")), 1, {"type": "offer", "family": "green", "shares": 9}),  # a bad price
        refusal(d, 0, DECLARE),                                        # still needs green
        refusal(d, 2, STOP),                                           # nothing to stop
        refusal(d, 1, travel("grey", "red") | {"laid": 1}),            # two targets
        refusal(d, 1, {"type": "withdraw", "family": "red"}),          # no offer
        refusal(d, 1, {"type": "accept", "seat": 2, "family": "green"}),  # only the boss
        refusal(offered, 0, {"type": "accept", "seat": 1, "family": "green", "money": 2}),  # the terms changed
        refusal(act(joined, 0, DECLARE), 1, {"type": "withdraw", "family": "green"}),  # the deal is declared
        refusal(d, 2, {"type": "hire", "family": "red"}),              # three hire cards needed
        refusal(s, 9, {"type": "roll"}),                               # no such seat
    ]
    assert len({e.msg.template for e in errors}) >= 14
    for e in errors:
        ja = say(e.msg, "ja")
        assert ja != str(e), str(e)
        no_english(ja)


def test_every_message_of_the_game_has_its_japanese():
    assert untranslated(PATHS) == []


def test_every_colour_and_card_has_both_names():
    assert set(COLOUR_NAMES) == {*FAMILIES, "grey"} == set(TRAVELS)
    for f, name in COLOUR_NAMES.items():
        assert isinstance(name, Name) and name.en == f and name.ja and name.ja != name.en
        assert colour(f) is name
    assert len({n.ja for n in COLOUR_NAMES.values()}) == len(COLOUR_NAMES)
    for kind in sorted(set(DECK)):
        en, ja = say(card_name(kind), "en"), say(card_name(kind), "ja")
        assert en.endswith("card") and ja.endswith("カード") and ja != en
        no_english(ja)


def test_stored_events_say_their_names_in_either_language():
    """An event keeps its values as JSON in the state; read back, it is said in each language."""
    s = clear_hands(started(3))
    give(s, 1, travel_green=1, stop=1)
    s = act(join(deal_on(s, 0), 2, "green", shares=1), 1, travel("green", "green"))
    last = s["events"][-1]
    assert last["values"]["colour"] == {"$name": ["green", "グリーン", ""]}
    assert str(event_msg(last)) == "[0] plays a green travel card on [1]'s green investor."
    assert say(event_msg(last), "ja") == "[0]が[1]のグリーンの投資家にグリーンの旅行カードを使いました。"
    table = table_for(3, {}, s, 9)
    line = next(ln for ln in PRESENTER.public_lines(table, "ja") if "停止カード" in ln)
    assert line == "Benのグリーンの投資家への旅行カードは、まだ停止カードで取り消せます。"


def test_the_japanese_rules_help_follows_the_english_topic_for_topic():
    from cogs.rules import LIMIT, chunks, topics

    en, ja = topics("boss"), topics("boss", "ja")
    assert len(ja) == len(en) and ja[0].title == "概要"
    for e, j in zip(en[1:], ja[1:], strict=True):
        assert j.title.endswith(f"({e.title})"), (e.title, j.title)
        assert all(len(piece) <= LIMIT for piece in chunks(j.body)), j.title
    assert sum("裁定" in t.title for t in ja) == 7
