"""The 18xx presenter without Discord, along a seeded game of Shikoku 1889: move labels (short, plain, distinct), the
panel within Discord's limits and reaching every legal move, the table in words, the narration and its pictures, and
routes named by their stops."""
from __future__ import annotations

import asyncio
import copy
import importlib
import io
import json
import random
import re
from functools import cache

import discord
import pytest

import cogs.e18xx as cog
from bot.present import presenter_for
from bot.tables import Change, Table
from cogs.e18xx.common import PER_MENU, e18xx_engines
from cogs.e18xx.panel import (
    HexMenu,
    KindMenu,
    MoveMenu,
    MoveNow,
    entries_for,
    group_of,
    lays_on,
    lays_png,
    sub_panel,
)
from cogs.e18xx.presenter import E18xxPresenter, charters_png, map_png, market_png
from cogs.e18xx.words import run_parts, step_token
from engines.e18xx import rounds
from engines.e18xx.board import legal_lays
from engines.e18xx.game import Shikoku1889
from engines.e18xx.route_text import parse_routes
from engines.e18xx.state import G
from tests.e18xx_helpers import NAMES, after_auction, float_corp, presenter_table

E = Shikoku1889()
P = E18xxPresenter()
BUSY = ("bid", "par", "buy_shares", "lay_tile", "place_token", "buy_train", "run_routes", "dividend")


def table(state) -> Table:
    return presenter_table(E, state)


@cache
def trace(seed: int = 3, players: int = 4, steps: int = 300) -> tuple:
    """(state, awaited seat, action) along a seeded game: the players mostly start corporations, buy shares, lay
    track, place tokens, run and buy trains, else pass."""
    rng = random.Random(seed)
    s, out = E.setup({}, players), []
    for _ in range(steps):
        if E.scores(s) is not None:
            break
        seat = min(E.awaiting(s).seats)
        moves = E.legal(s, seat)
        busy = [m for m in moves if m["type"] in BUSY]
        move = rng.choice(busy) if busy and rng.random() < 0.75 else (E.auto_action(s, seat) or moves[-1])
        out.append((s, seat, move))
        s = E.apply(s, seat, move)
    return tuple(out)


def find(pred):
    return next((s, seat, a) for s, seat, a in trace() if pred(s, seat, a))


def _items(view: discord.ui.View):
    return list(view.children)


def test_every_18xx_title_gets_the_presenter():
    assert "1889" in {e.name for e in e18xx_engines()}

    class Bot:
        async def add_cog(self, c):
            self.cog = c

    import asyncio

    asyncio.run(cog.setup(Bot()))
    for e in e18xx_engines():
        assert isinstance(presenter_for(e.name), E18xxPresenter)


def test_every_label_is_short_plain_and_distinct_within_its_panel():
    kinds = set()
    for s, seat, _ in trace():
        entries = entries_for(table(s), seat)
        labels = [e.label for e in entries]
        assert labels and all(0 < len(x) <= 80 for x in labels), labels
        assert len(set(labels)) == len(labels), labels
        assert not any(re.search(r"\[\d\]|\*\*|<@", x) for x in labels)
        kinds |= {e.move["type"] for e in entries}
        for e in entries[:3]:
            assert P.move_label(table(s), e.move) == e.label
    assert {"bid", "par", "buy_shares", "lay_tile", "buy_train", "run_routes", "dividend", "pass"} <= kinds


def test_labels_read_as_plain_words():
    s, seat, a = find(lambda s, seat, a: a["type"] == "bid" and s["round"]["auctioning"] is None
                      and a["company"] == "TR")
    assert P.move_label(table(s), a) == "Buy Takamatsu E-Railroad (TR) for ¥20"
    s, seat, a = find(lambda s, seat, a: a["type"] == "par")
    price = G(s).title.market.by_id(a["share_price"]).price
    name = G(s).cdef(a["corporation"]).name
    assert P.move_label(table(s), a) == f"Par {name} ({a['corporation']}) at ¥{price}: 20% for ¥{2 * price}"
    s, seat, a = find(lambda s, seat, a: a["type"] == "buy_shares")
    cid = a["shares"][0].split("_")[0]
    assert re.fullmatch(rf"Buy a 10% share of {cid} from the (IPO|pool) \(¥\d+\)", P.move_label(table(s), a))
    s, seat, a = find(lambda s, seat, a: a["type"] == "lay_tile" and "entity" not in a)
    where = rf"(.* \({a['hex']}\)|{a['hex']})"
    assert re.fullmatch(rf"Lay tile {a['tile']} on {where}, rotation {a['rotation']}( \(¥\d+\))?",
                        P.move_label(table(s), a))
    s, seat, a = find(lambda s, seat, a: a["type"] == "run_routes")
    total, _ = run_parts(G(s), a)
    assert P.move_label(table(s), a).startswith(f"Run for ¥{total} (auto-router: ")
    s, seat, a = find(lambda s, seat, a: a["type"] == "dividend" and a["kind"] == "payout")
    rev = s["round"]["revenue"]
    assert P.move_label(table(s), a).startswith(f"Pay out ¥{rev}: ¥{rev // 10} a share, price ¥")
    s, seat, a = find(lambda s, seat, a: a["type"] == "buy_train")
    assert re.match(r"Buy a (discarded )?\d-train for ¥\d+", P.move_label(table(s), a))


def _offered(view: discord.ui.View, s, seat) -> list[dict]:
    """Every move the panel reaches: its buttons and menu options, and through a hex or kind menu the moves that
    menu answers with."""
    legal = E.legal(s, seat)
    out = []

    def decode(code: str) -> dict:
        return legal[int(code[1:])] if code.startswith("#") else json.loads(code)

    for item in _items(view):
        if isinstance(item, MoveNow):
            out.append(decode(item.code))
        elif isinstance(item, MoveMenu):
            out += [decode(o.value) for o in item.item.options]
        elif isinstance(item, HexMenu):
            out += [m for o in item.item.options for m in legal if m["type"] == "lay_tile" and m["hex"] == o.value]
        elif isinstance(item, KindMenu):
            out += [m for o in item.item.options for m in legal if group_of(m) == o.value]
    return out


def test_every_panel_fits_discord_and_reaches_every_legal_move():
    for s, seat, _ in trace():
        view = P.move_view(table(s), seat)
        items = _items(view)
        buttons = [i for i in items if isinstance(i, MoveNow)]
        menus = [i for i in items if not isinstance(i, MoveNow)]
        assert len(menus) + -(-len(buttons) // 5) <= 5, "five rows at most"
        for item in items:
            assert len(item.custom_id) <= 100, item.custom_id
            assert type(item).__discord_ui_compiled_template__.fullmatch(item.custom_id), item.custom_id
        for b in buttons:
            assert 0 < len(b.item.label) <= 80
        for m in menus:
            assert 1 <= len(m.item.options) <= PER_MENU
            for o in m.item.options:
                assert len(o.label) <= 100 and len(o.value) <= 100 and len(o.description or "") <= 100
        legal = E.legal(s, seat)
        offered = _offered(view, s, seat)
        assert sorted(map(json.dumps, offered)) == sorted(map(json.dumps, legal))


def test_a_stale_token_and_long_moves_by_index():
    states = [s for s, _, _ in trace()[:40]]
    tokens = [step_token(s) for s in states]
    assert len(set(tokens)) == len(tokens), "every action changes the token"
    s, seat, a = find(lambda s, seat, a: a["type"] == "run_routes")
    [entry] = [e for e in entries_for(table(s), seat) if e.move["type"] == "run_routes"]
    assert entry.code == f"#{E.legal(s, seat).index(a)}", "a route's JSON is too long for a custom id"


def test_the_table_names_every_players_cash_and_every_floated_corporation():
    checked = 0
    for s, _, _ in trace()[::30]:
        text = "\n".join(P.public_lines(table(s)))
        g = G(s)
        for seat in range(s["n"]):
            assert f"**{NAMES[seat]}** ¥{s['cash'][seat]:,}" in text
        for cid in g.floated():
            treasury = s["corps"][cid]["cash"]
            assert f"**{cid}** ¥{g.price(cid)} (par ¥{s['corps'][cid]['par']}) · treasury ¥{treasury:,}" in text
            checked += 1
        assert f"Bank ¥{s['bank']:,}" in text and "[0]" not in text
        assert re.search(r"\*\*(Private auction|Stock round \d+|Operating round \d+\.\d of \d)\*\* · phase ", text)
    assert checked, "the trace floats corporations"
    s, seat, _ = find(lambda s, seat, a: s["round"]["kind"] == "operating" and s["round"]["step"] == "track")
    cid = s["round"]["order"][s["round"]["index"]]
    text = "\n".join(P.public_lines(table(s)))
    assert f"**{cid}** operates (president {NAMES[seat]}): lay track" in text


def test_private_lines_say_what_to_do_and_for_which_corporation():
    s, seat, _ = find(lambda s, seat, a: s["round"]["kind"] == "operating" and s["round"]["step"] == "track")
    cid = s["round"]["order"][s["round"]["index"]]
    mine = "\n".join(P.private_lines(table(s), seat))
    assert f"You: **¥{s['cash'][seat]:,}**" in mine
    assert f"**Your move** as president of {cid} (treasury ¥{s['corps'][cid]['cash']:,}): lay or upgrade a tile" in mine
    other = "\n".join(P.private_lines(table(s), (seat + 1) % s["n"]))
    assert f"Waiting for {NAMES[seat]}: {cid} operates: track." in other


def test_the_final_scores_are_ranked():
    s = copy.deepcopy(trace()[-1][0])
    rounds.end_game(G(s), "bank")
    text = "\n".join(P.public_lines(table(s)))
    scores = E.scores(s)
    best = max(range(s["n"]), key=lambda x: scores[x])
    assert "**The game is over:** the bank broke." in text
    assert f"**Final scores:** 1. {NAMES[best]} ¥{scores[best]:,} (cash ¥{s['cash'][best]:,}, shares ¥" in text


@pytest.fixture
def pictures(monkeypatch):
    """Stand-ins for the pictures (a real one is drawn once below), recording what was drawn."""
    drawn = []
    for what in ("map", "market"):
        monkeypatch.setattr(cog.presenter, f"{what}_png",
                            lambda state, lang="en", *drawing, w=what: drawn.append(w) or w.encode())
    monkeypatch.setattr(cog.presenter, "map_image", lambda state, lang="en": None)  # the map not drawn
    monkeypatch.setattr(cog.presenter, "charters_png",
                        lambda state, names, lang="en": drawn.append("charters") or b"charters")
    return drawn


def change(s, seat, action) -> Change:
    after = E.apply(s, seat, action)
    return Change("action", table(after), entries=[(2, seat, action)], before=s)


def test_announce_posts_the_events_and_the_map_after_a_lay(pictures):
    s, seat, a = find(lambda s, seat, a: a["type"] == "lay_tile" and "entity" not in a)
    [(text, png)] = P.announce(change(s, seat, a))
    assert png == b"map" and text.startswith("Table 7: ") and f"lays tile {a['tile']} on" in text
    s, seat, a = find(lambda s, seat, a: a["type"] == "par")
    [(text, png)] = P.announce(change(s, seat, a))
    assert png is None and f"{NAMES[seat]} starts {a['corporation']}" in text


def test_announce_shows_the_market_when_a_round_ends(pictures):
    s, seat, a = find(lambda s, seat, a: s["round"]["kind"] == "stock" and a["type"] == "pass"
                      and E.apply(s, seat, a)["round"]["kind"] == "operating")
    [(text, png)] = P.announce(change(s, seat, a))
    assert png == b"market" and "Operating round" in text


def test_announce_shows_all_three_pictures_at_the_end(pictures):
    s, seat, a = find(lambda s, seat, a: s["round"]["kind"] == "operating" and a["type"] == "pass")
    after = copy.deepcopy(E.apply(s, seat, a))
    rounds.end_game(G(after), "bank")
    posts = P.announce(Change("action", table(after), entries=[(2, seat, a)], before=s))
    assert [png for _, png in posts] == [b"map", b"market", b"charters"]
    assert "The game is over: the bank has broken." in posts[0][0]


def test_the_pictures_are_pngs():
    s = trace()[-1][0]
    for png in (map_png(s), market_png(s), charters_png(s, list(NAMES))):
        assert png.startswith(b"\x89PNG")


def test_a_map_is_drawn_once_per_board_and_language(monkeypatch):
    """The whole map a lay's narration posts is kept: a player asking for the map of that board (a copy of the state,
    as a reload gives) gets the same picture without a second drawing; another board or language is drawn."""
    # the modules map_png uses now: another test's bot, closed, unloads its cogs, and a later import is a new module
    pictures = importlib.import_module("cogs.e18xx.pictures")
    map_png.__globals__["_maps"].clear()
    drawn = []
    real = pictures.render_map
    monkeypatch.setattr(pictures, "render_map", lambda board, **kw: drawn.append(kw["lang"]) or real(board, **kw))
    s, seat, a = find(lambda s, seat, a: a["type"] == "lay_tile" and "entity" not in a)
    first = map_png(s)
    assert map_png(copy.deepcopy(s)) is first and drawn == ["en"]
    laid = map_png(E.apply(s, seat, a))
    assert laid != first and map_png(s, "ja") != first and drawn == ["en", "en", "ja"]


def test_routes_named_by_their_stops_run_like_the_auto_router():
    s, seat, a = find(lambda s, seat, a: a["type"] == "run_routes" and len(a["routes"]) >= 1)
    g = G(s)
    total, runs = run_parts(g, a)
    text = " | ".join(f"{t.split('-')[0]}: {' '.join(stops)}" for t, stops, _ in runs)
    cid = s["round"]["order"][s["round"]["index"]]
    named = parse_routes(g, cid, text)
    after = E.apply(s, seat, named)
    assert after["round"]["revenue"] == total
    assert run_parts(g, named) == (total, runs)
    with pytest.raises(Exception, match="is not a hex of the map"):
        parse_routes(g, cid, "2: Z9 K8")
    with pytest.raises(Exception, match="needs at least two stops"):
        parse_routes(g, cid, f"{runs[0][0].split('-')[0]}: K8")


def test_a_crowded_stock_turn_asks_for_the_kind_first():
    """Pars, purchases, sales, Mitsubishi Ferry's port and Dougo Railway's exchange do not fit five rows: one menu
    asks for the kind, and each kind's answer offers exactly its moves."""
    from tests.e18xx_helpers import after_auction, float_corp, give_shares, start_sr

    s = after_auction(3)  # seat 1 owns Mitsubishi Ferry and Dougo Railway
    float_corp(s, "IR", 1, percent=50)
    float_corp(s, "SR", 1, cell="80,2,3", percent=40)
    float_corp(s, "AR", 0)
    give_shares(s, "AR", 1, ["AR_8"])
    s["order"] = [1, 2, 0]
    s = start_sr(s, 2)
    assert E.awaiting(s).seats == {1}
    t = table(s)
    view = P.move_view(t, 1)
    [kinds] = [i for i in _items(view) if isinstance(i, KindMenu)]
    keys = [o.value for o in kinds.item.options]
    assert {"par", "buy", "sell", "lay", "exchange"} <= set(keys)
    assert sorted(map(json.dumps, _offered(view, s, 1))) == sorted(map(json.dumps, E.legal(s, 1)))
    for key in keys:
        answer = sub_panel(t, 1, key=key)
        assert answer["content"].startswith("Table 7: ")
        got = _offered(answer["view"], s, 1)
        assert sorted(map(json.dumps, got)) == sorted(json.dumps(m) for m in E.legal(s, 1) if group_of(m) == key)


def test_a_hex_menu_answers_with_the_lays_on_that_hex():
    for s, seat, _ in trace(seed=1, steps=600):  # this longer game reaches a track step with more than 25 lays
        menus = [i for i in _items(P.move_view(table(s), seat)) if isinstance(i, HexMenu)]
        if menus:
            break
    else:
        raise AssertionError("the trace never offered more than 25 lays: choose a longer game")
    coord = menus[0].item.options[0].value
    answer = sub_panel(table(s), seat, coord=coord)
    assert G(s).map.place(coord) in answer["content"] and "numbered as on the picture" in answer["content"]
    got = _offered(answer["view"], s, seat)
    assert got and sorted(map(json.dumps, got)) == sorted(
        json.dumps(m) for m in E.legal(s, seat) if m["type"] == "lay_tile" and m["hex"] == coord)
    # each choice is numbered as the picture numbers it: the lays in the order lays_on gives them
    lays = lays_on(entries_for(table(s), seat), coord)
    labels = [i.item.label for i in _items(answer["view"]) if isinstance(i, MoveNow)] or [
        o.label for i in _items(answer["view"]) if isinstance(i, MoveMenu) for o in i.item.options]
    assert [label.split(": ", 1)[0] for label in labels] == [str(k) for k in range(1, len(lays) + 1)]
    assert [label.split(": ", 1)[1] for label in labels] == [e.label for e in lays]
    # the menu's answer carries the picture of those lays, drawn off the event loop

    async def load(interaction):
        return table(s), seat

    menus[0].load = load
    reply = asyncio.run(menus[0].choose(None, coord))
    assert reply["file"].filename == f"lays-{coord}.png"
    drawn = reply["file"].fp.read()
    assert drawn == lays_png(s, coord, [(e.move["tile"], e.move["rotation"]) for e in lays])


def test_the_picture_of_the_lays_on_a_hex_draws_each_choice_in_its_numbered_cell():
    """render_lays: one cell per lay, five to a row, each the hex with that tile in that rotation amid its
    neighbours; different lays look different, the same lay drawn twice looks the same."""
    from PIL import Image

    s = after_auction(3)
    float_corp(s, "KO", 0)
    board = G(s).board
    board = board.place_token(G(s).map.homes["KO"], "KO")
    every = legal_lays(board, "KO", ("yellow",))
    coord = max({lay.hex for lay in every}, key=lambda h: sum(lay.hex == h for lay in every))
    lays = [(lay.tile, lay.rotation) for lay in every if lay.hex == coord]
    assert len(lays) >= 4
    s = {**s, "board": board.to_json()}
    pic = Image.open(io.BytesIO(lays_png(s, coord, lays))).convert("RGB")
    cols, rows = min(5, len(lays)), -(-len(lays) // 5)
    w, h = pic.width // cols, pic.height // rows
    cell = [pic.crop((k % cols * w, k // cols * h, (k % cols + 1) * w, (k // cols + 1) * h)) for k in range(len(lays))]
    assert len({c.tobytes() for c in cell}) == len(lays)  # every choice drawn differently
    again = Image.open(io.BytesIO(lays_png(s, coord, lays[:1]))).convert("RGB")
    assert again.tobytes() == cell[0].tobytes()
