"""The deal board is data: ours ships with the game and keeps every public fact; an admin's
printed board is read from BOT_BOSS_BOARD, checked, and offered as board=printed."""
from __future__ import annotations

import copy
import importlib
import json
import logging

import pytest

import engines
from bot.config import Settings
from engines.base import RuleError
from engines.boss.board import BOARDS, FAMILIES, BoardError, load_board, use_printed, validate

OURS = BOARDS["ours"]


def test_our_board_is_labelled_and_keeps_every_public_fact():
    assert OURS["ours"] is True and "our own design" in OURS["note"].lower()
    values = [d["value"] for d in OURS["deals"]]
    assert values == sorted(set(values)), "values rise from deal 1 to 15"
    assert values[5] == 3000, "deal 6 pays $3M a share"
    assert OURS["deals"][10]["end"] == [1, 2], "the back of deal 11 ends the game on 1 or 2"
    spaces = [(sorted(s["must"]), s["more"], sorted(s["from"])) for s in OURS["spaces"]]
    assert (["blue"], 4, sorted(set(FAMILIES) - {"blue"})) in spaces
    assert (["blue", "red", "yellow"], 2, ["green", "orange", "pink"]) in spaces


def test_every_family_matters_about_as_much_on_our_board():
    """Each family's expected weight in the deals (required: 1, optional: more/len(from)),
    weighted by shares, is within 10% of the mean, and each family is required somewhere."""
    weight = {f: 0.0 for f in FAMILIES}
    for s in OURS["spaces"]:
        for f in FAMILIES:
            share = 1 if f in s["must"] else (s["more"] / len(s["from"]) if f in s["from"] else 0)
            weight[f] += share * s["shares"]
    mean = sum(weight.values()) / len(weight)
    assert all(abs(w - mean) <= 0.1 * mean for w in weight.values()), weight
    assert all(sum(f in s["must"] for s in OURS["spaces"]) >= 4 for f in FAMILIES)


@pytest.mark.parametrize("change, words", [
    (lambda b: b["spaces"].pop(), "16 deal spaces"),
    (lambda b: b["spaces"][0].update(must=["purple"]), "different families"),
    (lambda b: b["spaces"][1].update(more=5), "'more'"),
    (lambda b: b["spaces"][0].update(shares=0), "'shares'"),
    (lambda b: b["deals"].reverse(), "numbered 1 to 15"),
    (lambda b: b["deals"][3].update(value=-1), "'value'"),
    (lambda b: b["deals"][12].update(end=[7]), "die numbers"),
])
def test_a_bad_board_file_is_refused_with_a_sentence(change, words):
    doc = copy.deepcopy(OURS)
    change(doc)
    with pytest.raises(BoardError, match=words):
        validate(doc)


def test_the_printed_board_comes_from_the_admins_file(tmp_path, monkeypatch):
    boss = engines.get("boss")
    monkeypatch.delitem(BOARDS, "printed", raising=False)
    with pytest.raises(RuleError, match="BOT_BOSS_BOARD"):
        boss.setup({"board": "printed"}, 4)
    printed = copy.deepcopy(OURS) | {"name": "printed", "ours": False}
    printed["deals"][0]["value"] = 1000
    path = tmp_path / "printed.json"
    path.write_text(json.dumps(printed), encoding="utf-8")
    monkeypatch.setenv("BOT_BOSS_BOARD", str(path))
    settings = Settings.from_env(env_file=None)
    assert settings.boss_board == path
    use_printed(settings.boss_board)
    state = boss.setup({"board": "printed"}, 4)
    assert state["stack"][0]["value"] == 1000 and boss.setup({}, 4)["stack"][0]["value"] == 2000


async def test_an_unusable_board_file_is_logged_and_the_bot_keeps_our_board(tmp_path, monkeypatch, caplog):
    boss_cog = importlib.import_module("cogs.boss")  # discord.py may have unloaded it as an extension
    monkeypatch.delitem(BOARDS, "printed", raising=False)
    path = tmp_path / "broken.json"
    path.write_text("{not json", encoding="utf-8")

    class FakeBot:
        settings = Settings(boss_board=path)

    with caplog.at_level(logging.ERROR):
        await boss_cog.setup(FakeBot())
    assert "printed" not in BOARDS
    assert "BOT_BOSS_BOARD is not usable" in caplog.text and "Cannot read the board file" in caplog.text
    with pytest.raises(BoardError):
        load_board(path)
