"""The catalog's messages, read out of the code: Babel's extractor for this project (babel.cfg names it), so
``pybabel extract -F babel.cfg -o bot/locales/messages.pot .`` writes the English catalog and ``pybabel update``
brings the Japanese one up to date with it (README, "Languages").

A message is the first string of these calls (the second of ``tr``, whose first is the language; both of
``plural``): ``msg``, ``Msg``, ``RuleError``, ``Refusal``, ``N_`` (a string marked for later), ``.event`` (an 18xx
event), ``tr``, ``plural``/``Plural`` (one, other), ``locale_str``; and what Discord shows of a command: the
``description=`` of a command or group, ``app_commands.describe(...)`` and ``Choice(name=...)``. A
message must be a plain string: an f-string would be a different message each time, so `problems` names them.
"""
from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Any

FIRST = {"msg", "Msg", "RuleError", "Refusal", "Unloadable", "N_", "event", "locale_str"}
SECOND = {"tr"}
PLURALS = {"plural", "Plural"}
COMMANDS = {"command", "Group", "group"}


def _name(func: ast.expr) -> str:
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def _const(node: ast.expr | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _choices(node: ast.expr) -> list[ast.expr]:
    """The strings a message argument may be: both sides of a conditional (``"a" if x else "b"``), else itself."""
    if isinstance(node, ast.IfExp):
        return _choices(node.body) + _choices(node.orelse)
    return [node]


def messages(source: str) -> Iterator[tuple[int, str, Any, ast.expr | None]]:
    """(line, call name, message or None, the argument node) for every message-bearing call in `source`."""
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = _name(node.func)
        args = node.args
        if (name in FIRST and args) or (name in SECOND and len(args) > 1):
            for arg in _choices(args[0] if name in FIRST else args[1]):
                yield node.lineno, name, _const(arg), arg
        elif name in PLURALS and len(args) > 2:
            one, other = _const(args[1]), _const(args[2])
            yield node.lineno, name, (one, other) if one and other else None, args[1]
        for kw in node.keywords:  # what Discord shows of a command, translated by bot/translator.py
            if (name == "describe" or (name == "Choice" and kw.arg == "name")
                    or (name in COMMANDS and kw.arg == "description")):
                yield node.lineno, name, _const(kw.value), kw.value


def extract(fileobj, keywords, comment_tags, options) -> Iterator[tuple[int, str, Any, list[str]]]:
    """Babel's extraction method: (line, function, message, comments), named as gettext's own functions so Babel
    reads a plural's two forms."""
    for line, _, message, _ in messages(fileobj.read().decode("utf-8")):
        if message:
            yield line, "ngettext" if isinstance(message, tuple) else "_", message, []


def problems(source: str) -> list[tuple[int, str]]:
    """(line, call) of each message given as an f-string or a joined string: it can never be in the catalog."""
    return [(line, name) for line, name, message, node in messages(source)
            if message is None and isinstance(node, (ast.JoinedStr, ast.BinOp))]
