"""The shared items of a game's move panel (bot.move_items): a custom id parses back into what it was made of,
old panels of every game still parse, a panel of an earlier step is refused, and a move whose JSON is too long
for a custom id travels as its index (the 18xx panel)."""
from __future__ import annotations

import json
from types import SimpleNamespace

import discord
import pytest

from bot.errors import Refusal
from bot.move_items import STALE, PanelButton, PanelMenu, move_of
from cogs import boss, tokai
from cogs.e18xx import panel as e18xx
from cogs.e18xx.words import step_token


def turn_token(state: dict) -> str:
    return f"{state['turn']}.{state['seat']}"


class _Game:
    token, step = r"\d+\.\d+", staticmethod(turn_token)

    async def choose(self, interaction, value: str) -> str:
        _, seat = await self.load(interaction)
        return f"seat {seat} chose {value}"


class Button(_Game, PanelButton, prefix="zz"):
    STYLES = {"buy": discord.ButtonStyle.primary}


class Menu(_Game, PanelMenu, prefix="zzs"):
    pass


class Pages(_Game, PanelMenu, prefix="zzm", slot=False):
    pass


class Untimed(PanelButton, prefix="zo"):
    async def choose(self, interaction, value: str) -> str:
        _, seat = await self.load(interaction)
        return f"seat {seat} chose {value}"


async def parse(cls, custom_id: str, label: str | None = None):
    """What discord.py does with a click on a posted panel: match the template, then from_custom_id."""
    match = cls.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match, f"{cls.__name__} does not read {custom_id}"
    return await cls.from_custom_id(None, SimpleNamespace(label=label), match)


def matches(cls, custom_id: str) -> bool:
    return cls.__discord_ui_compiled_template__.fullmatch(custom_id) is not None


class Sent:
    def __init__(self):
        self.replies: list[str] = []

    async def send(self, content=None, *, ephemeral=False, **rest):
        assert ephemeral, "a panel answers only the one who chose"
        self.replies.append(content)


def interaction(state: dict, values: list[str] | None = None, seat: int = 1):
    tables = SimpleNamespace(load=_async(SimpleNamespace(state=state)), player_seat=lambda table, user: seat)
    response = SimpleNamespace(is_done=lambda: False, defer=_async(None))
    return SimpleNamespace(client=SimpleNamespace(tables=tables), user=SimpleNamespace(id=42), response=response,
                           followup=Sent(), data={"values": values or []})


def _async(value):
    async def f(*args, **kwargs):
        return value
    return f


# --- custom ids ---------------------------------------------------------------------------------------------
async def test_a_button_carries_table_step_and_move_and_reads_them_back():
    b = Button(12, "3.1", {"type": "buy", "card": "x"}, "Buy x")
    assert b.custom_id == 'zz:12:3.1:{"type":"buy","card":"x"}'
    assert b.item.label == "Buy x" and b.item.style == discord.ButtonStyle.primary
    assert Button(12, "3.1", {"type": "sell"}).item.style == discord.ButtonStyle.secondary
    back = await parse(Button, b.custom_id, "Buy x")
    assert (back.gid, back.tok, back.code, back.item.label) == (12, "3.1", b.code, "Buy x")
    assert json.loads(back.code) == {"type": "buy", "card": "x"}


async def test_a_menu_carries_table_step_and_slot_and_reads_them_back():
    m = Menu(12, "3.1", 4, [("A" * 120, "a", "d" * 120), ("B", "b", None)], "Pick")
    assert m.custom_id == "zzs:12:3.1:4"
    assert [(o.label, o.value, o.description) for o in m.item.options] == [("A" * 100, "a", "d" * 100),
                                                                         ("B", "b", None)]
    back = await parse(Menu, m.custom_id)
    assert (back.gid, back.tok) == (12, "3.1")
    p = Pages(12, "3.1", None, [("Endings 101–200", "100", None)], "More")
    assert p.custom_id == "zzm:12:3.1" and (await parse(Pages, p.custom_id)).tok == "3.1"
    assert not matches(Pages, "zzm:12:3.1:4"), "a menu without slots takes none"


async def test_without_a_token_the_id_has_no_step_field():
    b = Untimed(5, None, {"type": "pass"})
    assert b.custom_id == 'zo:5:{"type":"pass"}'
    back = await parse(Untimed, b.custom_id)
    assert (back.gid, back.tok, back.code) == (5, None, '{"type":"pass"}')
    assert not matches(Untimed, 'zo:5:3.1:{"type":"pass"}')


def test_a_template_reads_only_its_own_ids():
    assert not matches(Button, "zzs:12:3.1:4"), "a menu's id is not a button's"
    assert not matches(Menu, 'zz:12:3.1:{"type":"pass"}')
    assert not matches(Button, 'zz:12:x.y:{"type":"pass"}'), "a malformed token"
    assert not matches(Button, "zz:12:3.1:#4"), "an index is not a JSON move unless the class says so"


async def test_old_panels_of_every_game_still_parse():
    """Ids as the panels before the shared base wrote them (these are posted in Discord and must keep working)."""
    b = await parse(boss.MoveNow, 'bx:3:{"type":"deal"}', "Deal")
    assert (b.gid, b.tok, b.code) == (3, None, '{"type":"deal"}')
    assert (await parse(boss.MoveMenu, "bxs:3:2")).gid == 3
    t = await parse(tokai.MoveNow, 'tx:3:12.1.m0:{"type":"pass"}')
    assert (t.gid, t.tok, t.code) == (3, "12.1.m0", '{"type":"pass"}')
    assert (await parse(tokai.MoveMenu, "txs:3:12.1.m0:2")).tok == "12.1.m0"
    assert (await parse(tokai.MoreMoves, "txm:3:12.1.m0")).tok == "12.1.m0"
    e = await parse(e18xx.MoveNow, "ex:3:0123456789:#17")
    assert (e.gid, e.tok, e.code) == (3, "0123456789", "#17")
    for cls, prefix in ((e18xx.MoveMenu, "exs"), (e18xx.HexMenu, "exh"), (e18xx.KindMenu, "exk")):
        assert (await parse(cls, f"{prefix}:3:0123456789:0")).tok == "0123456789"
    assert tokai.MoveNow.__discord_ui_compiled_template__.pattern == \
        r"tx:(?P<gid>\d+):(?P<tok>\d+\.\d+\.[a-z]\d):(?P<code>\{.*\})"
    assert e18xx.MoveNow.__discord_ui_compiled_template__.pattern == \
        r"ex:(?P<gid>\d+):(?P<tok>[0-9a-f]{10}):(?P<code>\{.*\}|#\d+)"


# --- a choice -----------------------------------------------------------------------------------------------
async def test_a_press_on_a_panel_of_this_step_is_played():
    it = interaction({"turn": 3, "seat": 1})
    await Button(12, "3.1", {"type": "pass"}).callback(it)
    assert it.followup.replies == ['seat 1 chose {"type":"pass"}']


async def test_a_panel_of_an_earlier_step_is_refused():
    it = interaction({"turn": 4, "seat": 1})
    await Button(12, "3.1", {"type": "pass"}).callback(it)
    assert it.followup.replies == [STALE]
    it = interaction({"turn": 4, "seat": 1}, values=["a"])
    await Menu(12, "3.1", 0, [("A", "a", None)]).callback(it)
    assert it.followup.replies == [STALE]


async def test_a_menu_choice_reaches_choose_and_no_token_never_goes_stale():
    it = interaction({"turn": 3, "seat": 1}, values=["b"])
    await Menu(12, "3.1", 0, [("A", "a", None), ("B", "b", None)]).callback(it)
    assert it.followup.replies == ["seat 1 chose b"]
    it = interaction({"turn": 99, "seat": 0}, seat=0)
    await Untimed(5, None, {"type": "pass"}).callback(it)
    assert it.followup.replies == ['seat 0 chose {"type":"pass"}']


def test_a_code_that_is_not_a_move_is_refused():
    assert move_of('{"type":"pass"}') == {"type": "pass"}
    for code in ("{not json", "[1, 2]", "7"):
        with pytest.raises(Refusal, match="That choice is not a move this game knows."):
            move_of(code)


async def test_a_move_too_long_for_a_custom_id_is_played_by_its_index(monkeypatch):
    state = {"round": "operating", "n": 7}
    tok = step_token(state)
    route = {"type": "run_routes", "routes": [{"train": "2-0", "hexes": ["J1", "K4", "I4", "F9"] * 10}]}
    moves = [{"type": "pass"}, {"type": "dividend", "kind": "payout"}, route]
    assert e18xx.code_for(2, route) == "#2", "its JSON does not fit, so the index stands for it"
    b = e18xx.MoveNow(3, tok, e18xx.code_for(2, route), "Run")
    assert len(b.custom_id) <= 100 and b.custom_id == f"ex:3:{tok}:#2"
    played = []
    monkeypatch.setattr(e18xx, "legal_moves", lambda table, seat: moves)

    async def act(tables, table, seat, user_id, move):
        played.append(move)
        return "played"

    monkeypatch.setattr(e18xx, "act", act)
    it = interaction(state)
    await (await parse(e18xx.MoveNow, b.custom_id, "Run")).callback(it)
    assert played == [route] and it.followup.replies == ["played"]
    it = interaction(state)
    await e18xx.MoveNow(3, tok, "#9", "Gone").callback(it)
    assert it.followup.replies == ["That choice is no longer available."] and played == [route]
    it = interaction({**state, "n": 8})
    await b.callback(it)
    assert it.followup.replies == [STALE], "the index means a move only in the state it was shown in"
