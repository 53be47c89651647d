"""``python -m bot`` as a user runs it: selfplay, replay of an exported log, help and sync."""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from tests.service_helpers import open_service, random_move, started_table

REPO = Path(__file__).resolve().parents[1]


def run_bot(*args: str, cwd: Path = REPO, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=60)


def json_lines(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines() if line.strip()]


# --- selfplay ---------------------------------------------------------------------------------
def test_selfplay_prints_one_json_line_per_game():
    r = run_bot("selfplay", "dicehand", "--players", "3", "--seed", "5", "--games", "4")
    assert r.returncode == 0, r.stderr
    lines = json_lines(r.stdout)
    assert [g["game"] for g in lines] == [1, 2, 3, 4]
    for g in lines:
        assert g["players"] == 3 and g["seed"] == 5
        assert len(g["scores"]) == 3 and all(type(x) is int and x >= 0 for x in g["scores"])
        # at least: a shuffle, and per round 3 bets, 3 picks and a die (3 rounds by default)
        assert type(g["actions"]) is int and g["actions"] >= 1 + 3 * 7


def test_selfplay_is_reproducible_by_seed():
    args = ("selfplay", "dicehand", "--players", "3", "--games", "4")
    first, again, other = (run_bot(*args, "--seed", s) for s in ("5", "5", "6"))
    assert first.returncode == again.returncode == other.returncode == 0
    assert first.stdout == again.stdout
    strip_seed = [{k: v for k, v in g.items() if k != "seed"} for g in json_lines(first.stdout)]
    assert strip_seed != [{k: v for k, v in g.items() if k != "seed"} for g in json_lines(other.stdout)]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_selfplay_ends_for_every_player_count(players):
    r = run_bot("selfplay", "dicehand", "--players", str(players), "--seed", "1", "--games", "3")
    assert r.returncode == 0, r.stderr
    assert [len(g["scores"]) for g in json_lines(r.stdout)] == [players] * 3


@pytest.mark.parametrize("args, code, sentence", [
    (("dicehand", "--players", "6"), 1, "Dice & Hands takes 2 to 5 players."),
    (("chess", "--players", "2"), 2,
     "No game called 'chess'; known games: 1807, 1867, 1889, 1890, boss, dicehand, fourbit, tokai."),
], ids=["six-players", "unknown-game"])
def test_selfplay_with_bad_arguments_says_why_without_a_traceback(args, code, sentence):
    r = run_bot("selfplay", *args, "--seed", "1")
    assert (r.returncode, r.stdout, r.stderr) == (code, "", f"error: {sentence}\n")


# --- replay -----------------------------------------------------------------------------------
@pytest.fixture
async def exported(tmp_path):
    """A whole 3-player game played through the TableService, exported, and the live table."""
    service = await open_service(tmp_path / "g.sqlite3", seed=8)
    try:
        gid = await started_table(service, 3, {"rounds": 2})
        rng = random.Random(8)
        table = await service.load(gid)
        while table.game.status == "active":
            user, _, move = random_move(table, rng)
            table = await service.act(gid, user, move)
        doc = await service.export(gid)
    finally:
        await service.store.close()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path, doc, table


async def test_replay_prints_the_same_public_state_and_scores_as_the_live_table(exported):
    path, doc, table = exported
    r = run_bot("replay", str(path))
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["game"] == "dicehand" and out["over"] is True
    assert out["actions"] == len(doc["actions"]) == table.seq
    assert out["players"] == [s.name for s in table.game.in_seat_order()]
    assert out["scores"] == table.engine.scores(table.state)
    assert out["public"] == json.loads(json.dumps(table.engine.public(table.state)))


async def test_replay_of_a_corrupted_log_names_the_position_and_the_sentence(exported, tmp_path):
    path, doc, _ = exported
    entry = next(a for a in doc["actions"] if a["action"]["type"] == "bet")
    entry["action"]["amount"] = 7
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc), encoding="utf-8")
    r = run_bot("replay", str(bad))
    assert r.returncode == 1
    out = json.loads(r.stdout)
    assert out == {"illegal": {"position": entry["seq"], "seat": entry["seat"],
                               "action": {"type": "bet", "amount": 7}, "sentence": "A bet is 0 to 2 points."}}


LOG_HEAD = {"format": "boardbot-log", "game": "dicehand", "data_version": 1, "players": ["ann", "ben"]}


@pytest.mark.parametrize("text, sentence", [
    ('{"hello": "world"}', "This file is not a game log exported by the bot."),
    ("[1, 2]", "This file is not a game log exported by the bot."),
    (json.dumps(LOG_HEAD | {"game": "chess", "options": {}, "seats": 2, "actions": []}),
     "No game called 'chess'; known games: 1807, 1867, 1889, 1890, boss, dicehand, fourbit, tokai."),
    (json.dumps(LOG_HEAD | {"options": {"rounds": 9}, "seats": 2, "actions": []}),
     "Option rounds must be one of 1, 2, 3, 4, 5."),
    (json.dumps(LOG_HEAD | {"options": {}, "seats": 7, "actions": []}), "Dice & Hands takes 2 to 5 players."),
], ids=["not-a-log", "json-list", "unknown-game", "bad-option", "bad-seat-count"])
def test_replay_of_a_file_that_is_no_valid_log_says_why_without_a_traceback(tmp_path, text, sentence):
    path = tmp_path / "other.json"
    path.write_text(text, encoding="utf-8")
    r = run_bot("replay", str(path))
    assert "Traceback" not in r.stderr, r.stderr.splitlines()[-1]
    assert r.returncode == 1
    assert json.loads(r.stdout) == {"error": sentence}


def test_replay_of_a_log_missing_its_actions_answers_with_a_sentence(tmp_path):
    path = tmp_path / "short.json"
    path.write_text(json.dumps(LOG_HEAD | {"options": {}, "seats": 2}), encoding="utf-8")
    r = run_bot("replay", str(path))
    assert r.returncode == 1 and "Traceback" not in r.stderr
    error = json.loads(r.stdout)["error"]
    # a sentence a person can act on, not just the name of the missing key
    assert "actions" in error and len(error.split()) > 3 and error.endswith("."), error


def test_replay_of_a_file_that_is_not_json_says_it_cannot_be_read(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("my game notes", encoding="utf-8")
    r = run_bot("replay", str(path))
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert json.loads(r.stdout)["error"].startswith(f"Cannot read {path}: ")


# --- help and sync ----------------------------------------------------------------------------
def test_help_lists_every_command():
    r = run_bot("--help")
    assert r.returncode == 0
    for cmd in ("run", "sync", "replay", "selfplay", "export", "migrate"):
        assert cmd in r.stdout
    assert "{run,sync,replay,selfplay,export,migrate}" in r.stdout


def test_sync_without_a_token_exits_2_with_a_sentence(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    r = run_bot("sync", cwd=tmp_path, env=env)  # a tmp cwd: no .env to read a token from
    assert r.returncode == 2
    assert "sync needs DISCORD_TOKEN (set it in .env)." in r.stderr
    assert "Traceback" not in r.stderr


# --- a database the bot cannot use ----------------------------------------------------------------
def _corrupt(path: Path) -> None:
    import sqlite3

    db = sqlite3.connect(path)
    db.execute("CREATE TABLE t (x TEXT)")
    db.executemany("INSERT INTO t VALUES (?)", [(f"row {i}" * 20,) for i in range(2000)])
    db.commit()
    db.close()
    with path.open("r+b") as f:  # the header stays sound; pages in the middle do not
        f.seek(4096 * 3)
        f.write(b"\x13" * 4096 * 4)


@pytest.mark.parametrize("make, why", [
    (lambda p: p.write_bytes(b"this is not a database, just some text" * 100), "is not a usable SQLite database"),
    (_corrupt, ""),
    (lambda p: p.mkdir(), "is not a file."),
    (None, "cannot be opened"),
], ids=["garbage", "partly-corrupt", "a-folder", "unwritable-place"])
def test_the_bot_refuses_to_start_on_a_database_it_cannot_use(tmp_path, make, why):
    path = tmp_path / "bot.sqlite3"
    if make is None:
        path = Path("/proc/self/no/bot.sqlite3")  # a place nobody, root included, can write
    else:
        make(path)
    env = {**os.environ, "BOT_DB_PATH": str(path), "DISCORD_TOKEN": ""}
    r = run_bot("run", cwd=tmp_path, env=env)
    assert r.returncode == 3, (r.stdout, r.stderr)
    assert "Traceback" not in r.stderr
    assert r.stderr.startswith(f"error: the database cannot be used: {path} ") and why in r.stderr, r.stderr
    assert "Set BOT_DB_PATH to a writable file." in r.stderr


def test_a_setting_that_is_no_number_is_named(tmp_path):
    r = run_bot("run", cwd=tmp_path, env={**os.environ, "BOT_DM_INTERVAL": "fast", "DISCORD_TOKEN": ""})
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.strip() == ("error: a setting in the environment or .env is not valid: "
                                "BOT_DM_INTERVAL must be a number, not 'fast'.")
