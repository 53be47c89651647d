"""The core in Japanese and English (issue 16): a Japanese Discord client and an English one at one table, each
reading their own language in every answer and DM while the channel reads the table's; /language; a Japanese
table; refusals; /rules and /help for a Japanese reader; the offline table in Japanese."""
from __future__ import annotations

import asyncio
import os
import random
import re
import subprocess
import sys
import time

import pytest

import engines
from bot.app import create_bot
from bot.errors import Refusal, player_sentence
from bot.i18n import say
from bot.offline import PLAYERS, client_locales, offline_lang, offline_world
from bot.translator import CatalogTranslator, game_choices
from cogs.rules import find_topic, topics
from engines.base import RuleError
from engines.dicehand import DiceHand
from engines.fields import check_action, check_chance
from engines.text import Name
from tests.helpers import component_field, components, public_texts
from tests.i18n_helpers import english_left

JA = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")  # kana or kanji


@pytest.fixture
def simcord_bot(settings):
    return create_bot(settings, sync_on_start=True, rng=random.Random(7))


@pytest.fixture
def people(simcord_env):
    """An English server (its preferred locale en-US) with ann, whose Discord client is Japanese, and ben and cat,
    whose clients are English."""
    env = simcord_env
    g = env.create_guild("Game night")
    ch = g.create_text_channel("table")
    ann, ben, cat = (g.add_member(env.create_user(n)) for n in ("ann", "ben", "cat"))
    with client_locales({ann.id: "ja"}):
        yield env, g, ch, ann, ben, cat


NAMES = ("ann", "ben", "cat", "alice", "bob", "/game status table", "/rules dicehand")  # commands are typed as they are


def japanese(text: str) -> bool:
    return bool(JA.search(text)) and not english_left(text, NAMES)


def english(text: str) -> bool:
    return not JA.search(text)


def labels(message) -> list[str]:
    return [component_field(c, "label") or "" for c in components(message) if component_field(c, "label")]


def table_post(ch, gid: int):
    """The newest table message of table gid, in either language."""
    for m in reversed(ch.history()):
        if m.embeds and m.embeds[0].title and re.match(rf"(Table |卓){gid}[ ・]", m.embeds[0].title):
            return m
    raise AssertionError(f"no table message for table {gid}")


def embed_text(m) -> str:
    e = m.embeds[0]
    return " ".join([e.title or "", e.description or "", *(f.name + " " + f.value for f in e.fields),
                     e.footer.text or "" if e.footer else ""])


def last_dm(member) -> str:
    return member.user.dm_channel.history()[-1].content


async def hand(member, ch, gid):
    r = await member.click(table_post(ch, gid), label=labels(table_post(ch, gid))[0])
    assert r.ephemeral
    return r


async def test_each_player_reads_their_own_language_and_the_channel_the_tables(people):
    env, g, ch, ann, ben, cat = people
    svc = env.bot.tables
    # ann (a Japanese client) opens a table in an English server: her answer is Japanese, the table English
    r = await ann.slash(ch, "game create", game="dicehand", players=2)
    assert r.ephemeral and japanese(r.response.content), r.response.content
    gid = int(re.search(r"卓(\d+)", r.response.content)[1])
    assert "ダイス＆ハンズ" in r.response.content
    post = table_post(ch, gid)
    assert post.embeds[0].title == f"Table {gid} · Dice & Hands" and labels(post) == ["Join", "Leave", "Start"]
    r = await ben.click(post, label="Join")
    assert r.response.content == f"You joined table {gid}."
    r = await ben.click(table_post(ch, gid), label="Start")  # a refusal, in ben's English
    assert r.response.content == "Only the player who created the table can start it."
    r = await ann.click(table_post(ch, gid), label="Start")
    assert r.response.content == f"卓{gid}が始まりました。"

    # the hands by DM, each in its reader's language, the table's message in English
    assert japanese(last_dm(ann)) and f"**卓{gid}・ダイス＆ハンズ**" in last_dm(ann)
    assert "あなたの手札：" in last_dm(ann)
    assert english(last_dm(ben)) and "Your hand:" in last_dm(ben)
    desc = embed_text(table_post(ch, gid))
    assert english(desc) and "Round 1 of 3" in desc and "**Waiting for**" in desc

    reads_ja = {ann.id: True, ben.id: False}

    async def bet(member, amount: int):
        panel = await hand(member, ch, gid)
        want = f"{amount}点賭ける" if reads_ja[member.id] else f"Bet {amount}"
        assert want in labels(panel.response), labels(panel.response)
        return await member.click(panel.response, label=want)

    t = await svc.load(gid)
    first = ann if t.game.user_at(t.state["turn"]).user_id == ann.id else ben
    second = ben if first is ann else ann
    # the first bettor's panel and answer in their language; a player not awaited is told so in theirs
    idle = await hand(second, ch, gid)
    assert ("今はすることがありません" if second is ann else "Nothing to do right now") in idle.response.content
    r = await bet(first, 1)
    assert r.response.content.startswith("**1点賭ける** を打ちました。" if first is ann else "You played **Bet 1**.")
    assert japanese(r.response.content) if first is ann else english(r.response.content)

    # /language switches: ben to Japanese, ann to English; their next answers and DMs follow
    r = await ben.slash(ch, "language", language="ja")
    assert r.response.content == "これから日本語で返答し、DMを送ります。"
    r = await ann.slash(ch, "language", language="en")
    assert r.response.content == "I will answer you and send your DMs in English."
    reads_ja = {ann.id: False, ben.id: True}
    before = {m: len(m.user.dm_channel.history()) for m in (ann, ben)}
    r = await bet(second, 0)  # the bets are in: the card choice begins, with a DM to each
    assert japanese(r.response.content) if second is ben else english(r.response.content)
    for m in (ann, ben):
        assert len(m.user.dm_channel.history()) > before[m]
    assert japanese(last_dm(ben)) and "あなたの手札：" in last_dm(ben), last_dm(ben)
    assert english(last_dm(ann)) and "Your hand:" in last_dm(ann), last_dm(ann)
    dm_labels = labels(ben.user.dm_channel.history()[-1])
    assert dm_labels and all(re.fullmatch(r"カード\d+を出す", x) for x in dm_labels), dm_labels
    panel = await hand(ben, ch, gid)
    card = labels(panel.response)[0]
    r = await ben.click(panel.response, label=card)
    assert r.response.content.startswith(f"あなたの秘密の選択：**{card}**") and japanese(r.response.content)

    # a refusal of the engine (a RuleError) reaches each asker in their language
    r = await ben.slash(ch, "game create", game="dicehand", options="rounds=9")
    assert r.response.content == "オプションroundsは次のいずれかにしてください：1, 2, 3, 4, 5。"
    r = await ann.slash(ch, "game create", game="dicehand", options="colour=red")
    assert r.response.content == "Dice & Hands has no option called 'colour'."
    r = await cat.slash(ch, "game create", game="dicehand", options="rounds=9")
    assert r.response.content == "Option rounds must be one of 1, 2, 3, 4, 5."
    # and a refusal of the table: cat is not playing
    r = await cat.click(table_post(ch, gid), label="My hand & moves")
    assert r.response.content == f"You are not playing at table {gid}."

    # everything the channel reads of this table is English (the table's language)
    channel = [t for t in public_texts([ch]) if t.strip()]
    assert channel and all(english(t) for t in channel), [t for t in channel if not english(t)]
    assert not env.errors


async def test_a_table_created_in_japanese_posts_in_japanese_to_its_end(people):
    env, g, ch, ann, ben, cat = people
    svc = env.bot.tables
    r = await ben.slash(ch, "game create", game="dicehand", players=2, options="rounds=1", language="ja")
    assert english(r.response.content)
    gid = int(r.response.content.split()[1])
    post = table_post(ch, gid)
    assert post.embeds[0].title == f"卓{gid}・ダイス＆ハンズ" and labels(post) == ["参加", "退出", "開始"]
    await ann.click(post, label="参加")
    r = await ben.click(table_post(ch, gid), label="開始")  # ben's answer stays English
    assert r.response.content == f"Table {gid} has started."
    assert english(last_dm(ben)) and japanese(last_dm(ann))
    assert labels(table_post(ch, gid)) == ["手札と手"]
    while (t := await svc.load(gid)).game.status == "active":
        aw = t.engine.awaiting(t.state)
        seat = min(aw.seats)
        await svc.act(gid, t.game.user_at(seat).user_id, t.engine.legal(t.state, seat)[0])
    await env.settle()
    texts = [t for t in public_texts([ch]) if t.strip()]
    assert any(f"卓{gid}・ダイス＆ハンズが終了しました" in t for t in texts), texts
    assert any("ゲーム終了" in t for t in texts)
    assert any(f"卓{gid}・ダイス＆ハンズ：" in t and "あなたの番です（0〜2点の賭け）" in t for t in texts), texts
    for text in texts:
        assert not english_left(text, NAMES), text


async def test_rules_and_help_for_a_japanese_reader(people):
    env, g, ch, ann, ben, cat = people
    r = await ann.slash(ch, "rules", game="dicehand")
    assert r.response.content.startswith("**ダイス＆ハンズ — 概要**") and "はったり" in r.response.content
    for name in ("Rulings", "裁定", "rulings"):  # a topic named in either language
        r = await ann.slash(ch, "rules", game="dicehand", topic=name)
        assert r.response.content.startswith("**ダイス＆ハンズ — 裁定 (Rulings)**"), (name, r.response.content)
    r = await ben.slash(ch, "rules", game="dicehand", topic="裁定")  # an English reader naming it in Japanese
    assert r.response.content.startswith("**Dice & Hands — Rulings**")
    r = await ann.slash(ch, "rules", game="dicehand", topic="nonsense")
    assert r.response.content.startswith("'nonsense'というルールの項目はありません。")
    auto = await ann.autocomplete(ch, "rules", "topic", "scori", game="dicehand")
    assert [c["name"] for c in auto] == ["得点"]
    r = await ann.slash(ch, "help")
    text = "\n".join(m.content for m in [r.response, *r.followups])
    assert text.startswith("**ゲーム**") and "ダイス＆ハンズ" in text and "東海男爵" in text
    core = [line for line in text.splitlines() if re.match(r"`/(game|rules|help|language)\b", line)]
    assert len(core) >= 12 and all(japanese(line) for line in core), core
    assert text.rstrip().endswith("各ゲームの説明は `/rules` で読めます。")


def test_rules_fall_back_to_english_where_no_japanese_is_written(tmp_path, monkeypatch):
    import cogs.rules as rules

    (tmp_path / "ja").mkdir()
    (tmp_path / "demo.md").write_text("# Demo\n\nAn overview.\n\n## Setup\n\nDeal.\n\n## Rulings\n\nNone.\n")
    monkeypatch.setattr(rules, "RULES_DIR", tmp_path)
    assert [t.title for t in topics("demo", "ja")] == ["Overview", "Setup", "Rulings"]
    assert find_topic("demo", "rulings", "ja").body == "None."
    (tmp_path / "ja" / "demo.md").write_text("# デモ\n\n概要です。\n\n## 準備\n\n配る。\n\n"
                                             "## 裁定 (Rulings)\n\nなし。\n")
    assert [t.title for t in topics("demo", "ja")] == ["概要", "準備", "裁定 (Rulings)"]
    assert find_topic("demo", "Setup", "ja").body == "配る。" and find_topic("demo", "準備").body == "Deal."


def test_a_japanese_topic_is_found_by_its_title_before_the_english_in_brackets(tmp_path, monkeypatch):
    import cogs.rules as rules

    (tmp_path / "ja").mkdir()
    (tmp_path / "demo.md").write_text("# Demo\n\nAn overview.\n\n## Rulings\n\nA.\n\n## Rulings: money\n\nB.\n")
    (tmp_path / "ja" / "demo.md").write_text("# デモ\n\n概要。\n\n## 裁定 (Rulings)\n\nあ。\n\n"
                                             "## 裁定：お金 (Rulings: money)\n\nい。\n")
    monkeypatch.setattr(rules, "RULES_DIR", tmp_path)
    assert find_topic("demo", "裁定", "ja").body == "あ。"  # two titles hold 裁定: the one that is just that
    assert find_topic("demo", "裁定：お金", "ja").body == "い。"


def test_the_engines_refusals_and_words_are_said_in_japanese():
    e = DiceHand()
    cases = []
    for call in (lambda: e.setup({"rounds": 9}, 2), lambda: e.setup({}, 9), lambda: e.setup({"nope": 1}, 2),
                 lambda: check_action({"type": "bet", "amount": "x"}, e.actions),
                 lambda: check_action({"type": "bet"}, e.actions),
                 lambda: check_action({"type": "bet", "amount": 1, "extra": 1}, e.actions),
                 lambda: check_action({"type": "move", "x": 1}, {"move": {}}),
                 lambda: check_action({"type": "fly"}, e.actions),
                 lambda: e.apply(e.setup({}, 2), 0, {"type": "bet", "amount": 1}),
                 lambda: e.apply(e.setup({}, 2), -1, {"type": "dice", "values": [3]})):
        with pytest.raises(RuleError) as info:
            call()
        cases.append(info.value)
    from engines.base import ChanceRequest

    for action, req in (({"type": "dice", "values": [9]}, ChanceRequest("dice", 2)),
                        ({"type": "shuffle", "order": [0]}, ChanceRequest("shuffle", 3)),
                        ({"type": "pick", "index": 5}, ChanceRequest("pick", 2))):
        with pytest.raises(RuleError) as info:
            check_chance(action, req)
        cases.append(info.value)
    for err in cases:
        ja, en = say(err.msg, "ja"), str(err)
        assert ja != en and JA.search(ja) and not english_left(ja), (en, ja)
        assert player_sentence(err, "ja")[0] == ja and player_sentence(err, "en")[0] == en
    s = e.setup({}, 2)
    for action in [{"type": "shuffle", "order": list(range(15))}, {"type": "dice", "values": [4]},
                   {"type": "expire"}, {"type": "bet", "amount": 2}, {"type": "pick", "card": 3}]:
        assert JA.search(say(e.label(action), "ja")) and not english_left(say(e.label(action), "ja")), action
    assert say(e.awaiting(s).chance.reason, "ja") == "山札のシャッフル"
    s = e.apply(s, -1, {"type": "shuffle", "order": list(range(15))})
    assert say(e.awaiting(s).prompt, "ja") == "0〜2点の賭け"
    for seat in (0, 1):
        s = e.apply(s, s["turn"], {"type": "bet", "amount": seat})
    assert say(e.awaiting(s).prompt, "ja") == "秘密のカード選択"
    refused = Refusal("Table {id} is full ({most} players).", id=4, most=2)
    assert str(refused) == "Table 4 is full (2 players)." and say(refused.msg, "ja") == "卓4は満席です（2人）。"


def test_every_engine_has_a_japanese_title_and_the_menus_translate_them():
    translator = CatalogTranslator()
    choices = {c.value: c for c in game_choices()}
    for engine in engines.ENGINES.values():
        name = engine.title_name
        assert isinstance(name, Name) and name.en and name.ja and JA.search(name.ja), engine.name
        payload = asyncio.run(choices[engine.name].get_translated_payload(translator))
        assert payload["name"] == engine.title
        assert payload["name_localizations"]["ja"] == name.ja  # what a Japanese client's menu of games shows


def test_the_offline_table_language_is_chosen_by_its_setting(monkeypatch):
    monkeypatch.delenv("BOT_OFFLINE_LANG", raising=False)
    assert offline_lang() == "en" and offline_lang("ja") == "ja"
    monkeypatch.setenv("BOT_OFFLINE_LANG", "ja")
    assert offline_lang() == "ja"
    monkeypatch.setenv("BOT_OFFLINE_LANG", "fr")
    with pytest.raises(ValueError):
        offline_lang()


async def test_the_offline_table_in_japanese_answers_and_posts_in_japanese(tmp_path):
    import simcord

    from bot.config import Settings

    bot = create_bot(Settings(token=None, db_path=tmp_path / "offline.sqlite3", dm_interval=0, send_rate=0),
                     sync_on_start=True)
    try:
        async with simcord.run(bot) as env:
            channel, members = offline_world(env, "ja")
            with client_locales({m.id: "ja" for m in members.values()}):
                r = await members["alice"].slash(channel, "game create", game="dicehand")
                assert r.response.content.startswith("卓") and japanese(r.response.content)
                gid = int(re.search(r"卓(\d+)", r.response.content)[1])
                post = table_post(channel, gid)
                assert post.embeds[0].title.startswith(f"卓{gid}・") and japanese(embed_text(post))
                r = await members["bob"].click(post, label="参加")
                assert r.response.content == f"卓{gid}に参加しました。"
            assert set(members) == set(PLAYERS)
    finally:
        await bot.close()


def test_the_offline_table_starts_with_its_japanese_setting(tmp_path):
    from tests.test_offline import ROOT, free_port

    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env |= {"BOT_DB_PATH": str(tmp_path / "offline.sqlite3"), "BOT_PREVIEW_PORT": str(port),
            "BOT_OFFLINE_LANG": "ja", "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "bot"], cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, text=True)
    try:
        seen, deadline = [], time.monotonic() + 60
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            seen.append(line)
            if re.search(r"open http://127\.0\.0\.1:\d+/#\S+", line):
                break
        assert any("open http://127.0.0.1:" in line for line in seen), "".join(seen)
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    assert proc.returncode == 0, "".join(seen)


async def test_autocomplete_speaks_the_readers_language(people):
    env, g, ch, ann, ben, cat = people
    r = await ben.slash(ch, "game create", game="dicehand")
    gid = int(r.response.content.split()[1])
    listed = [c["name"] for c in await ann.autocomplete(ch, "game status", "table", "")]
    assert listed == [f"{gid} · ダイス＆ハンズ · 参加者待ち"], listed
    listed = [c["name"] for c in await ben.autocomplete(ch, "game status", "table", "")]
    assert listed == [f"{gid} · Dice & Hands · waiting for players"], listed
    hints = [c["name"] for c in await ann.autocomplete(ch, "game create", "options", "", game="dicehand")]
    assert hints[0] == "rounds=3 — 遊ぶラウンド数。", hints
    hints = [c["name"] for c in await ben.autocomplete(ch, "game create", "options", "", game="dicehand")]
    assert hints[0] == "rounds=3 — How many rounds to play.", hints


@pytest.mark.parametrize("game", sorted(engines.ENGINES))
def test_japanese_rules_follow_the_english_topic_for_topic(game):
    """docs/rules/ja/<game>.md, where written: every topic of the English file in the same order (so a topic named
    in either language finds its match), a Rulings topic, and every piece fits one message."""
    from cogs.rules import LIMIT, RULES_DIR, chunks

    if not (RULES_DIR / "ja" / f"{game}.md").exists():
        pytest.skip(f"docs/rules/ja/{game}.md is not written yet")
    ja, en = topics(game, "ja"), topics(game)
    assert len(ja) == len(en), ([t.title for t in en], [t.title for t in ja])
    assert ja[0].title == "概要" and find_topic(game, "Rulings", "ja") == ja[[t.title for t in en].index("Rulings")]
    for t in ja:
        assert JA.search(t.body) and all(len(piece) <= LIMIT for piece in chunks(t.body)), t.title
