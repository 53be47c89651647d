"""4bit Town in Japanese: whole seeded games read in Japanese at every step (the table, every hand, every move's
label, the stack builder and the draft menu, every narration and the board picture) with no English sentence
left and no glyph the font lacks; the engine's refusals said in Japanese; every name of the game data in both
languages."""
from __future__ import annotations

import random
from types import SimpleNamespace

import discord
import pytest
from PIL import ImageDraw

from bot.i18n import say
from bot.table_ui import hand_view
from bot.tables import Change, Table
from cogs import fourbit_board
from cogs.fonts import missing_glyphs
from cogs.fourbit import FourBitPresenter, stack_text
from engines import base
from engines.base import RuleError
from engines.fourbit import PERMS, FourBit, location_name
from engines.fourbit.data import BUILDING_NAMES, BUILDINGS, CITY_HALL, CITY_HALL_NAME, LOCATIONS, PLACES, TITLE
from engines.log import run_chance
from tests.fourbit_helpers import act, decline, game, step, take, use
from tests.i18n_helpers import english_left

E = FourBit()
P = FourBitPresenter()
NAMES = ("ann", "ben", "carol", "dave")


class Game:
    id = 7
    options: dict = {}
    status = "active"
    lang = "ja"

    def __init__(self, n: int):
        self.n = n

    def in_seat_order(self):
        return [SimpleNamespace(name=name) for name in NAMES[:self.n]]


def table(state, seq: int = 1) -> Table:
    return Table(Game(state["n"]), E, state, seq)


def japanese(text: str, what: object = "") -> None:
    """Said in Japanese: no run of English words (the players' names aside), and really Japanese."""
    left = english_left(text, NAMES)
    assert not left, (what, text, left)


@pytest.fixture
def drawn(monkeypatch):
    """Every text the pictures draw from now on."""
    texts: list[tuple[int, int, str, object]] = []
    real = ImageDraw.ImageDraw.text

    def text(self, xy, t, *args, **kw):
        texts.append((xy[0], xy[1], t, kw.get("font")))
        return real(self, xy, t, *args, **kw)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    return texts


def _view_texts(view) -> list[str]:
    """Everything a panel shows: button labels, menu placeholders, option labels and descriptions."""
    out = []
    for child in view.children if view else []:
        item = getattr(child, "item", child)
        if isinstance(item, discord.ui.Button):
            out.append(item.label or "")
        elif isinstance(item, discord.ui.Select):
            out.append(item.placeholder or "")
            for o in item.options:
                out += [o.label, o.description or ""]
    return [t for t in out if t and t != "-"]


def _rich(s: dict) -> None:
    for p in s["players"]:
        p.update(wood=40, stone=40, coins=50, level=5)


def _read_everything(s: dict, seq: int, rng: random.Random) -> int:
    """Render in Japanese everything a player can read at this state; returns how many texts were checked."""
    t = table(s, seq)
    texts = [("public", line) for line in P.public_lines(t, "ja")]
    for seat in range(s["n"]):
        texts += [("private", line) for line in P.private_lines(t, seat, "ja")]
    aw = E.awaiting(s)
    if aw.prompt:
        texts.append(("prompt", say(aw.prompt, "ja")))
    if aw.chance and aw.chance.reason:
        texts.append(("chance", say(aw.chance.reason, "ja")))
    for seat in sorted(aw.seats):
        moves = E.legal(s, seat)
        if s["phase"] == "work":  # 385 moves: the pass and a sample of stacks
            moves = [moves[0], *rng.sample(moves[1:], 8)]
        texts += [("label", P.move_label(t, m, "ja")) for m in moves]
        texts += [("panel", x) for x in _view_texts(hand_view(t, seat, "ja"))]
        if s["phase"] == "work":
            n, perm = rng.randrange(16), rng.randrange(len(PERMS))
            texts.append(("stack", stack_text(t, seat, n, perm, "ja")))
            texts.append(("stack", stack_text(t, seat, None, None, "ja")))
            from cogs.fourbit import stack_view
            texts += [("builder", x) for x in _view_texts(stack_view(t, seat, seq, n, perm, "ja"))]
    for what, text in texts:
        japanese(text, what)
    return len(texts)


@pytest.mark.parametrize("n, seed", [(2, 1), (3, 2), (4, 3)])
def test_a_whole_game_reads_in_japanese(n, seed, drawn):
    rng = random.Random(seed)
    s, _ = run_chance(E, E.setup({}, n), rng)
    seq, checked, told, pictures, enriched = 1, 0, 0, 0, False
    while not E.is_over(s):
        if s["phase"] == "work" and not enriched:
            _rich(s)  # buildings, hires and levels happen, so their words are read too
            enriched = True
        checked += _read_everything(s, seq, rng)
        seat = rng.choice(sorted(E.awaiting(s).seats))
        legal = E.legal(s, seat)
        doing = [a for a in legal if a["type"] not in ("skip", "decline", "pass")]
        action = rng.choice(doing) if doing and rng.random() < 0.8 else rng.choice(legal)
        after = E.apply(s, seat, action)
        before_pictures = len(drawn)
        for text, png in P.announce(Change("action", table(after, seq + 1), entries=[(seq + 1, seat, action)],
                                           before=s), "ja"):
            japanese(text, "announce")
            told += 1
            pictures += png is not None
        for _, _, text, _ in drawn[before_pictures:]:
            japanese(text, "picture")
            assert not missing_glyphs(text), (text, missing_glyphs(text))
        s, _ = run_chance(E, after, rng)
        seq += 1
    checked += _read_everything(s, seq, rng)
    assert s["phase"] == "over" and checked > 500 and told > 20 and pictures >= 6


def test_a_reveal_and_a_resolution_read_in_japanese():
    order = [3, 8, 14, 7]  # location 11: 3-1, 8-1, 14-0, 7-1
    s = game(3, cards={0: [8, 9, 14, 15], 1: [8, 9, 14, 15], 2: order}, p2={"vp": 1})
    s = E.apply(E.apply(s, 0, {"type": "pass"}), 1, {"type": "pass"})
    stack = {"type": "stack", "n": 11, "order": order}
    after = E.apply(s, 2, stack)
    posts = P.announce(Change("action", table(after), entries=[(1, 2, stack)], before=s), "ja")
    assert posts[0][0].splitlines() == ["**公開 — ラウンド1**", "carol：山 3-8-14-7 = 1011 = 11 → 11 聖堂前",
                                        "annはパスしました。", "benはパスしました。"]
    assert posts[-1][1] is not None  # the board picture
    assert "解決中：carol（11 聖堂前）· 場所効果はまだ受けていません。" in P.public_lines(table(after), "ja")
    s = act(after, use(after))
    s2 = E.apply(s, 2, take(s))
    text = "\n".join(t for t, _ in P.announce(Change("action", table(s2), entries=[(2, 2, take(s))], before=s), "ja"))
    assert text == ("carol（11 聖堂前）：聖堂前の効果を受ける：手番順トラック+1、コイン+6 → コイン+6、"
                    "手番順トラックを1マス前進。")


def test_the_english_is_unchanged():
    order = [12, 1, 14, 9]
    s = game(2, cards={0: order, 1: [8, 9, 14, 15]})
    s = step(s, {0: (0, order), 1: "pass"})
    t = table(s)
    assert [P.move_label(t, m) for m in E.legal(s, 0)][:2] == [
        "Use card 12: if the location gives wood: +2 stone", "Skip card 12 (if the location gives wood: +2 stone)"]
    assert [P.move_label(t, m, "ja") for m in E.legal(s, 0)][:2] == [
        "カード12を使う：場所効果で木材を得たら：石材+2", "カード12を使わない（場所効果で木材を得たら：石材+2）"]
    assert say(E.awaiting(s).prompt, "en") == ("whether to use card 12, or to take the effect of 0 Artisans' Square "
                                               "first")
    assert say(E.awaiting(s).prompt, "ja") == "カード12を使うか、先に0 職人広場の場所効果を受けるか"


# --- the engine's refusals ------------------------------------------------------------------------------

def _refusal(s: dict, seat: int, action: dict) -> RuleError:
    with pytest.raises(RuleError) as e:
        E.apply(s, seat, action)
    return e.value


def _said_in_japanese(e: RuleError) -> None:
    ja = say(e.msg, "ja")
    assert ja != str(e), f"no Japanese for {e.msg.template!r}"
    japanese(ja, e.msg.template)


def test_representative_refusals_are_said_in_japanese():
    s = game(2, cards={0: [1, 2, 3, 4], 1: [8, 9, 14, 15]})
    errors = [
        _refusal(s, 0, {"type": "stack", "n": 3, "order": [1, 2, 3, 5]}),
        _refusal(s, 0, {"type": "stack", "n": 16, "order": [1, 2, 3, 4]}),
        _refusal(s, 0, {"type": "pick", "card": 1}),
    ]
    r = step(s, {0: (4, [1, 2, 3, 4]), 1: "pass"})
    errors.append(_refusal(r, 0, {"type": "use", "card": 9, "side": 0}))
    errors.append(_refusal(r, 0, {"type": "location", "at": 5}))
    errors.append(_refusal(r, 0, decline(r)))
    u = game(2, p0={"coins": 20}, p1={"coins": 5})
    u = step(u, {0: "pass", 1: "pass"})
    errors.append(_refusal(u, 0, {"type": "upkeep", "keep": 4}))
    errors.append(_refusal(u, 0, {"type": "upkeep", "keep": 1, "pay": 4}))
    c = game(2, round_=2, cards={0: [8, 9, 14, 15], 1: [8, 9, 14, 15]}, p0={"wood": 2})
    c = step(c, {0: 2, 1: "pass"})  # 2 Design Bureau: 2 wood → 4 coins; these cards do nothing there
    errors.append(_refusal(c, 0, take(c, times=9)))
    errors.append(_refusal(c, 0, take(c, times=2)))  # That costs 2 wood, and you have 0 wood.
    w = game(2, cards={0: [8, 9, 14, 15], 1: [8, 9, 14, 15]}, p0={"built": [12]})
    w = step(w, {0: 15, 1: "pass"})  # 15 Back-Alley Tavern with a Warehouse: which bonus?
    errors.append(_refusal(w, 0, take(w)))
    assert say(errors[-1].msg, "ja") == "倉庫の効果で木材2か石材2が加わります。どちらかを選んでください。"
    errors.append(_refusal(w, 0, {"type": "market", "wood": 0, "stone": 0}))
    for e in errors:
        _said_in_japanese(e)
    assert say(errors[-1].msg, "ja").endswith("場所効果を受けるか受けないかを選んでください。")
    assert say(errors[-3].msg, "ja") == "それには木材2が必要ですが、手持ちは木材0です。"


def _wrong_moves(s: dict, seat: int) -> list[dict]:
    """Moves a player might send that the engine refuses now: other cards, other counts, other places."""
    cards = s["players"][seat]["cards"] or [1, 2, 3, 4]
    out = [{"type": "pick", "card": 99}, {"type": "pass"}, {"type": "stack", "n": 3, "order": [*cards[:3], 99]},
           {"type": "stack", "n": 20, "order": list(cards)}, {"type": "market", "wood": -1, "stone": 0},
           {"type": "market", "wood": 9, "stone": 9}, {"type": "market", "wood": 5, "stone": 0},
           {"type": "upkeep", "keep": 99}, {"type": "upkeep", "keep": 1, "pay": 999},
           {"type": "upkeep", "keep": s["players"][seat]["hired"]}, {"type": "city_hall", "gain": "stone"},
           {"type": "use", "card": 99, "side": 0}, {"type": "location", "at": 99}]
    if s["phase"] == "resolve":
        w, r = s["queue"][s["res"]["i"]], s["res"]
        loc = w["loc"]
        out += [{"type": "decline", "at": loc}, {"type": "location", "at": loc}]
        if r["card"] < 4:
            out.append({"type": "use", "card": w["order"][r["card"]], "side": w["bits"][r["card"]]})
        for pay in (None, "wood", "stone", "coins"):
            extra = {"pay": pay} if pay else {}
            out += [{"type": "location", "at": loc, "building": b, **extra} for b in (*range(1, 19), "deck")]
            out += [{"type": "location", "at": loc, "times": t, **extra} for t in range(0, 14)]
            out += [{"type": "location", "at": loc, "bonus": x, **extra} for x in ("wood", "gold")]
    return out


def test_every_refusal_met_in_whole_games_is_said_in_japanese(monkeypatch):
    """Whole games where, at every step, the engine is also sent moves it must refuse (and tries its own
    candidates on copies): every refusal of 4bit Town's engine they meet is said in Japanese."""
    from tests.i18n_helpers import extracted

    ours = set(extracted(["engines/fourbit"]))
    seen: dict[str, RuleError] = {}
    real = base.RuleError.__init__

    def init(self, template, **values):
        real(self, template, **values)
        seen.setdefault(self.msg.template, self)

    monkeypatch.setattr(base.RuleError, "__init__", init)
    for n, seed in ((2, 5), (3, 6), (4, 7)):
        rng = random.Random(seed)
        s, _ = run_chance(E, E.setup({}, n), rng)
        enriched = False
        while not E.is_over(s):
            if s["phase"] == "work" and not enriched:
                _rich(s)
                enriched = True
            seats = sorted(E.awaiting(s).seats)
            for wrong in _wrong_moves(s, seats[0]):
                try:
                    E.apply(s, seats[0], wrong)
                except RuleError:
                    pass
            seat = rng.choice(seats)
            s, _ = run_chance(E, E.apply(s, seat, rng.choice(E.legal(s, seat))), rng)
    met = {t: e for t, e in seen.items() if t in ours}
    assert len(met) >= 20, sorted(met)
    for e in met.values():
        _said_in_japanese(e)


# --- names and the board ----------------------------------------------------------------------------------

def test_every_name_of_the_game_is_in_both_languages():
    assert TITLE.en == "4bit Town" and TITLE.ja == "4bitタウン"
    assert len(PLACES) == 16 and len(BUILDING_NAMES) == 18
    for name in (*PLACES, *BUILDING_NAMES.values(), CITY_HALL_NAME):
        assert name.en and name.ja and name.en != name.ja and not name.ja.isascii(), name
    assert [p.ja for p in PLACES] == [ja for ja, _, _ in LOCATIONS]
    assert {b: (n.ja, n.en) for b, n in BUILDING_NAMES.items()} == {b: v[:2] for b, v in BUILDINGS.items()}
    assert say(location_name(11), "ja") == "11 聖堂前" and say(location_name(11), "en") == "11 Cathedral"
    assert say(location_name(CITY_HALL), "ja") == "市役所マス"
    for _, _, effect in LOCATIONS:
        japanese(say(_msg(effect), "ja"), effect)
    for *_, effect in BUILDINGS.values():
        japanese(say(_msg(effect), "ja"), effect)


def _msg(template: str):
    from engines.text import msg
    return msg(template)


def test_the_board_is_drawn_in_japanese_whole_inside_its_boxes(drawn):
    everything = list(range(1, 19))
    s = game(4, row=everything, p0={"built": everything, "plans": [1, 2], "plans_open": [True, False]})
    s["blocked"][3] = True
    png = fourbit_board.render(E.public(s), ["ann", "ben", "carol", "dave"], "ja")
    assert png.startswith(b"\x89PNG")
    lines = [t for _, _, t, _ in drawn]
    for text in lines:
        assert not missing_glyphs(text), text
        japanese(text, "board")
    for place in PLACES:
        assert place.ja in lines, place.ja  # whole, on a line of its own
    row = "".join(t for x, _, t, _ in drawn if x < 604)
    panel = "".join(t for x, _, t, _ in drawn if x >= 620)
    for name in BUILDING_NAMES.values():
        assert name.ja in row and name.ja in panel, name.ja  # never split between lines
    assert "封鎖" in lines and any("木材" in t for t in lines)
    for x, y, text, font in drawn:
        right = x + font.getlength(text)
        if 36 <= y < 36 + 4 * 92 and x < 604:  # a location cell
            assert right <= 12 + (x - 12) // 150 * 150 + 142, text
        elif x >= 620:
            assert right <= 620 + 268, text
        else:
            assert right <= 604, text
