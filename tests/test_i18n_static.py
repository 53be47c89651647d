"""Issue 16, what a Japanese player could still read in English, found without playing: the code handing Discord a
word that never passes through the catalog, and what the runtime shows of every command, option and engine.

Static (an AST scan of bot/, cogs/ and engines/):

- a string with words given to Discord as a label, placeholder, description, title, name, value, content or text
  (a button, menu, option, embed, modal, send or edit) instead of ``tr(...)``/``say(...)`` of a message; a
  ``Choice(name=...)`` may be a plain string only in a decorator (``app_commands.choices``), where the catalog
  extracts it and bot/translator.py translates it: an autocomplete's choices are never translated by Discord;
- a default for such a parameter (``label="Move"``), which is shown whenever a caller leaves it out;
- an English sentence built with an f-string, ``+`` or ``%`` in the bot (a sentence must be one message, or its
  order cannot follow Japanese);
- ``str(exc)`` / ``f"{exc}"`` of a caught exception in the bot: its English, not its message said for the reader;
- an engine's ``Option(...)`` description, ``Awaiting(prompt=...)`` or ``ChanceRequest(reason=...)`` written as a
  plain string: it must be marked (``N_``) or a message (``msg``), so the catalog holds it.

At runtime: every command's, parameter's and choice's description reaches a Japanese client in Japanese; every
game has its own presenter (the generic one lists raw keys); every engine names its own moves and its options in
Japanese; the generic presenter, where it is still reached, says its values in the reader's language."""
from __future__ import annotations

import ast
import asyncio
import importlib
import re
from pathlib import Path

import pytest
from discord import Locale, app_commands
from discord.ext import commands

import engines
from bot.i18n import catalog, lookup, say
from bot.present import Presenter, presenter_for
from bot.translator import CatalogTranslator
from engines.base import Engine
from engines.text import msg
from tests.i18n_helpers import ROOT, english_left

#: Where the bot talks to players; the command-line tools (python -m bot ...) print for the operator in English.
BOT = ("bot", "cogs")
CONSOLE = {"bot/__main__.py", "bot/migrate.py", "bot/selfplay.py", "bot/replay.py", "bot/config.py"}
#: What Discord shows of a component, an embed or a message.
SHOWN = {"label", "placeholder", "description", "title", "name", "value", "content", "text"}
UI = {"Button", "Select", "SelectOption", "Embed", "TextInput", "Modal", "Choice", "add_field", "insert_field_at",
      "set_field_at", "set_footer", "set_author", "send", "send_message", "edit", "edit_message", "reply",
      "edit_original_response", "followup"}
#: Calls whose ``value=`` is shown (an embed's field); elsewhere a value is what a choice sends back.
FIELDS = {"add_field", "insert_field_at", "set_field_at"}
#: Calls whose first argument is shown as the message's content.
CONTENT_FIRST = {"send", "send_message", "reply"}
#: Calls whose strings never reach a player: logs, the console, errors a programmer reads, patterns.
QUIET = {"print", "debug", "info", "warning", "error", "exception", "critical", "ValueError", "TypeError",
         "KeyError", "RuntimeError", "AssertionError", "NotImplementedError", "SystemExit", "compile", "fullmatch",
         "match", "search", "sub", "split", "getLogger"}
#: A word: two letters or more (a lone letter is a coordinate or an abbreviation a table of words gives anyway).
WORD = re.compile(r"[A-Za-z]{2,}")
#: A sentence: two words with a space (and maybe a value, "0") between; an id like "table-3.png" or "tbl:join" is
#: not one.
SENTENCE = re.compile(r"[A-Za-z][A-Za-z']+[,;:]? +(?:0[,;:]? +)?[A-Za-z]{2}")


def _files(roots) -> list[Path]:
    out = []
    for r in roots:
        out += sorted((ROOT / r).rglob("*.py"))
    return [p for p in out if str(p.relative_to(ROOT)) not in CONSOLE]


def _name(func: ast.expr) -> str:
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def _literals(node: ast.expr) -> list[str]:
    """The literal text of a value: a string, the literal parts of an f-string, both sides of a `+`, `%`, a
    conditional or an `or`."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        return [v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str)]
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
        return _literals(node.left) + _literals(node.right)
    if isinstance(node, ast.IfExp):
        return _literals(node.body) + _literals(node.orelse)
    if isinstance(node, ast.BoolOp):
        return [s for v in node.values for s in _literals(v)]
    return []


def _joined(node: ast.expr) -> str:
    """The text a built string reads as, each value put in as "0" (so "{who} passes" reads "0 passes")."""
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "0" for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
        return _joined(node.left) + _joined(node.right)
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return "0"


def _parents(tree: ast.AST) -> dict[int, ast.AST]:
    return {id(child): node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def _inside(node: ast.AST, parents: dict[int, ast.AST], test) -> bool:
    while id(node) in parents:
        node = parents[id(node)]
        if test(node):
            return True
    return False


def _in_decorator(node: ast.AST, parents: dict[int, ast.AST]) -> bool:
    """Whether a node is part of a decorator (``@app_commands.choices(...)``)."""
    child = node
    while id(child) in parents:
        parent = parents[id(child)]
        if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return any(child is d for d in parent.decorator_list)
        child = parent
    return False


def _quiet(node: ast.AST, parents: dict[int, ast.AST]) -> bool:
    return _inside(node, parents, lambda n: isinstance(n, ast.Call) and _name(n.func) in QUIET)


def shown_literals(source: str) -> list[tuple[int, str]]:
    """(line, what) of each string with words handed to Discord to show, not said through the catalog."""
    tree = ast.parse(source)
    parents = _parents(tree)
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or _name(node.func) not in UI:
            continue
        name = _name(node.func)
        values = [(kw.arg, kw.value) for kw in node.keywords
                  if kw.arg in SHOWN and (kw.arg != "value" or name in FIELDS)]  # a choice's value is not shown
        if name in CONTENT_FIRST and node.args:
            values.append(("content", node.args[0]))
        for arg, value in values:
            if name == "Choice" and arg == "name" and isinstance(value, ast.Constant) and _in_decorator(node, parents):
                continue  # extracted into the catalog, translated for each client by bot/translator.py
            words = [s for s in _literals(value) if WORD.search(s)]
            if words:
                out.append((node.lineno, f"{name}({arg}=) {words[0]!r}"))
    return out


def shown_defaults(source: str) -> list[tuple[int, str]]:
    """(line, what) of each parameter named like something Discord shows whose default is a string with words."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        args = node.args.posonlyargs + node.args.args
        pairs = list(zip(args[len(args) - len(node.args.defaults):], node.args.defaults, strict=True))
        pairs += [(a, d) for a, d in zip(node.args.kwonlyargs, node.args.kw_defaults, strict=True) if d is not None]
        for arg, default in pairs:
            if arg.arg in SHOWN and any(WORD.search(s) for s in _literals(default)):
                out.append((node.lineno, f"{node.name}({arg.arg}={ast.unparse(default)})"))
    return out


def built_sentences(source: str) -> list[tuple[int, str]]:
    """(line, what) of each English sentence built from pieces (an f-string, `+`, `%`) outside logs and errors."""
    tree = ast.parse(source)
    parents = _parents(tree)
    out = []
    for node in ast.walk(tree):
        built = isinstance(node, ast.JoinedStr) or (
            isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod))
            and not isinstance(parents.get(id(node)), ast.BinOp))
        if not built or _quiet(node, parents):
            continue
        if SENTENCE.search(_joined(node)):
            out.append((node.lineno, ast.unparse(node)[:80]))
    return out


def exception_texts(source: str) -> list[tuple[int, str]]:
    """(line, what) of each ``str(e)``, ``repr(e)`` or ``f"{e}"`` of a caught exception (outside logs)."""
    tree = ast.parse(source)
    parents = _parents(tree)
    out = []
    for handler in ast.walk(tree):
        if not isinstance(handler, ast.ExceptHandler) or not handler.name:
            continue
        for node in ast.walk(handler):
            said = (isinstance(node, ast.Call) and _name(node.func) in ("str", "repr") and node.args
                    and isinstance(node.args[0], ast.Name) and node.args[0].id == handler.name) or (
                isinstance(node, ast.FormattedValue) and isinstance(node.value, ast.Name)
                and node.value.id == handler.name)
            if said and not _quiet(node, parents):
                out.append((node.lineno, ast.unparse(node)))
    return out


def unmarked_engine_words(source: str) -> list[tuple[int, str]]:
    """(line, what) of an Option description, an Awaiting prompt or a ChanceRequest reason written as a plain
    string (or an f-string): the catalog never sees it, so a Japanese reader gets the English."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = _name(node.func)
        values = []
        if name == "Option":
            values = [kw.value for kw in node.keywords if kw.arg == "description"] + node.args[1:2]
        elif name == "Awaiting":
            values = [kw.value for kw in node.keywords if kw.arg == "prompt"]
        elif name == "ChanceRequest":
            values = [kw.value for kw in node.keywords if kw.arg == "reason"] + node.args[3:4]
        for value in values:
            if any(WORD.search(s) for s in _literals(value)):
                out.append((node.lineno, f"{name}(...) {ast.unparse(value)[:60]}"))
    return out


def scan(check, roots) -> list[str]:
    return [f"{p.relative_to(ROOT)}:{line}: {what}" for p in _files(roots)
            for line, what in check(p.read_text(encoding="utf-8"))]


# --- the scans, and that they find what they look for ---------------------------------------------------------------
def test_the_bot_hands_discord_no_string_it_did_not_say_through_the_catalog():
    assert scan(shown_literals, BOT) == []


def test_no_label_or_placeholder_defaults_to_an_english_word():
    assert scan(shown_defaults, BOT) == []


def test_the_bot_builds_no_english_sentence_from_pieces():
    assert scan(built_sentences, BOT) == []


def test_the_bot_shows_no_exception_as_its_english_text():
    assert scan(exception_texts, BOT) == []


def test_engine_options_prompts_and_chance_reasons_are_messages():
    assert scan(unmarked_engine_words, ("engines",)) == []


def test_the_scans_find_what_they_look_for():
    bad = '''
import discord
from discord import app_commands
@app_commands.choices(x=[app_commands.Choice(name="fine", value="a")])
async def f(interaction, e=None, label="Move"):
    discord.ui.Button(label="Join")
    discord.ui.Button(label=tr(lang, "Join"))
    discord.SelectOption(label="-", value="x", description=f"costs {n} coins")
    discord.Embed(title="Table " + str(n))
    embed.set_footer(text="✔")
    await interaction.followup.send("Done.", ephemeral=True)
    out = [app_commands.Choice(name="pay out", value="payout")]
    text = f"{who} passes, {n} left." + tr(lang, "x")
    try:
        pass
    except Exception as err:
        await say(interaction, str(err))
        log.warning("failed: %s", err)
        raise ValueError(f"not a {err}")
'''
    assert [w for _, w in shown_literals(bad)] == ["Button(label=) 'Join'", "SelectOption(description=) 'costs '",
                                                    "Embed(title=) 'Table '", "send(content=) 'Done.'",
                                                    "Choice(name=) 'pay out'"]
    assert [w for _, w in shown_defaults(bad)] == ["f(label='Move')"]
    assert sorted(w for _, w in built_sentences(bad)) == ["f'costs {n} coins'", "f'{who} passes, {n} left.'",
                                                           "f'{who} passes, {n} left.' + tr(lang, 'x')"]
    assert [w for _, w in exception_texts(bad)] == ["str(err)"]
    engine = '''
Option("rounds", "How many rounds.", 3)
Option("rounds", N_("How many rounds."), 3)
Awaiting(frozenset({0}), prompt="a bet")
Awaiting(frozenset({0}), prompt=msg("a bet"))
ChanceRequest("dice", 1, reason=f"a roll for {who}")
'''
    assert [w.split("(")[0] for _, w in unmarked_engine_words(engine)] == ["Option", "Awaiting", "ChanceRequest"]


# --- at runtime ---------------------------------------------------------------------------------------------------
JA = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
COMMAND = re.compile(r"/[a-z0-9]+(?: [a-z]+)?")  # a command named in a description is typed as it is
COGS = ("cogs.table", "cogs.rules", "cogs.language", "cogs.tokai", "cogs.e18xx.commands", "cogs.boss",
        "cogs.fourbit", "cogs.dicehand")


def app_commands_of_the_cogs() -> list[app_commands.Command | app_commands.Group]:
    found = []
    for name in COGS:
        module = importlib.import_module(name)
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, commands.Cog) and value.__module__ == name:
                found += value(None).get_app_commands()
    return found


def every_command(items) -> list[app_commands.Command]:
    out = []
    for item in items:
        out += every_command(item.commands) if isinstance(item, app_commands.Group) else [item]
    return out


def what_a_client_shows() -> list[tuple[str, app_commands.locale_str, app_commands.TranslationContextLocation]]:
    """(where, text, location) of every description and choice a client shows of the slash commands."""
    Where = app_commands.TranslationContextLocation
    items = app_commands_of_the_cogs()
    out = []

    def text(value):
        return value if isinstance(value, app_commands.locale_str) else app_commands.locale_str(str(value))

    groups = [i for i in items if isinstance(i, app_commands.Group)]
    out += [(f"/{g.name}", text(g._locale_description or g.description), Where.group_description) for g in groups]
    for cmd in every_command(items):
        out.append((f"/{cmd.qualified_name}", text(cmd._locale_description or cmd.description),
                    Where.command_description))
        for name, p in cmd._params.items():
            out.append((f"/{cmd.qualified_name} {name}", text(p.description), Where.parameter_description))
            for c in p.choices or []:  # MISSING is false
                out.append((f"/{cmd.qualified_name} {name}:{c.value}", text(c._locale_name or c.name),
                            Where.choice_name))
    return out


def test_a_japanese_client_reads_every_command_parameter_and_choice_in_japanese():
    translator = CatalogTranslator()
    Where = app_commands.TranslationContextLocation
    shown = what_a_client_shows()
    assert len(shown) > 100
    missing = []
    for where, text, location in shown:
        english = text.message
        if not WORD.search(english) or english in ("English",):  # a language named in its own words
            continue
        ctx = app_commands.TranslationContext(location=location, data=None)
        said = asyncio.run(translator.translate(text, Locale.japanese, ctx))
        if said is None and catalog("ja").get(english) == english:  # the same in Japanese ("IPO")
            continue
        if said is None or not JA.search(said) or english_left(COMMAND.sub(" ", said)):
            missing.append(f"{where}: {english!r} -> {said!r}")
    assert missing == []
    assert any(loc == Where.choice_name for _, _, loc in shown)


class _Bot:
    """Enough of a bot for a cog's setup to register its presenter."""

    settings = None

    async def add_cog(self, cog) -> None:
        pass


@pytest.fixture(scope="module")
def presenters():
    for name in COGS:
        module = importlib.import_module(name)
        if hasattr(module, "setup"):
            asyncio.run(module.setup(_Bot()))


@pytest.mark.parametrize("name", sorted(engines.ENGINES))
def test_every_game_has_its_own_presenter_and_names_its_own_moves(presenters, name):
    presenter = presenter_for(name)
    for method in ("public_lines", "private_lines"):
        assert getattr(type(presenter), method) is not getattr(Presenter, method), \
            f"{name} shows its {method} through the generic presenter (raw keys in English)"
    assert type(engines.get(name)).label is not Engine.label, f"{name} names its moves by their type, in English"


@pytest.mark.parametrize("name", sorted(engines.ENGINES))
def test_every_option_of_every_game_is_described_in_japanese(name):
    for o in engines.get(name).options:
        english = o.description if isinstance(o.description, str) else str(o.description)
        said = lookup(o.description, "ja") if isinstance(o.description, str) else say(o.description, "ja")
        assert said != english and JA.search(said) and not english_left(said), (name, o.name, english)


def test_the_generic_presenter_says_its_values_in_the_readers_language():
    from bot.present import _lines

    lines = _lines({"bet": msg("a roll"), "score": 3, "hidden": None}, "ja")
    assert lines[0].endswith(say(msg("a roll"), "ja")) and "3" in lines[1] and len(lines) == 2
