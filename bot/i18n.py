"""Every word a player reads, in English or Japanese.

The English of each message is its id (gettext's msgid), written where it is said: ``tr(lang, "You joined table
{id}.", id=gid)`` in the bot, ``msg(...)`` / ``RuleError(...)`` in an engine (engines/text.py). The Japanese is in
the gettext catalog ``bot/locales/ja/LC_MESSAGES/messages.po``, read with Babel; ``bot/locales/messages.pot`` is the
English catalog, extracted from the code by ``bot/catalog.py`` (README, "Languages"). A message the catalog lacks
is said in English, and tests/test_i18n_catalog.py fails.

Who reads what: an answer or DM in the reader's language (chosen with /language, else their Discord client's),
a channel post in the table's. `READER` holds the language of the person an interaction answers, set by
bot.interact.answer, so the code that builds an answer need not carry it.
"""
from __future__ import annotations

import contextvars
import functools
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po

from engines.text import Msg, english, render

LOCALES = Path(__file__).resolve().parent / "locales"
#: The languages the bot speaks, each in its own words.
LANGS = {"en": "English", "ja": "日本語"}
DEFAULT = "en"
READER: contextvars.ContextVar[str] = contextvars.ContextVar("reader_lang", default=DEFAULT)


def lang_of(locale: Any) -> str:
    """The bot's language for a Discord locale ('ja' -> ja; any other -> en) or a language code."""
    code = str(getattr(locale, "value", locale) or "")
    return "ja" if code.lower().startswith("ja") else DEFAULT


@functools.cache
def catalog(lang: str) -> dict[Any, str | tuple[str, ...]]:
    """msgid (a tuple of the English forms for a plural) -> its translation, from every .po file of `lang`;
    untranslated and fuzzy entries are left out."""
    found: dict[Any, str | tuple[str, ...]] = {}
    for path in sorted((LOCALES / lang / "LC_MESSAGES").glob("*.po")):
        with path.open("rb") as f:
            for m in read_po(f):
                if m.id and m.string and not m.fuzzy and (not isinstance(m.string, tuple) or all(m.string)):
                    found[m.id] = m.string
    return found


def lookup(template: Any, lang: str) -> str:
    """The template of a message in `lang` (English: itself). A plural comes as (one, other, n)."""
    if lang == DEFAULT:
        return english(template, lang)
    cat = catalog(lang)
    if isinstance(template, tuple):
        one, other, n = template
        forms = cat.get((one, other))
        return forms[0] if forms else english(template, DEFAULT)  # Japanese has one form
    found = cat.get(template)
    return found if isinstance(found, str) else template


def say(value: Any, lang: str | None = None) -> str:
    """A message (or a name, money, plain text) in `lang`, by default the reader's."""
    return render(value, lang or READER.get(), lookup)


def tr(lang: str | None, template: str, **values: Any) -> str:
    """A message said at once: ``tr(lang, "Table {id} has started.", id=gid)``; lang None: the reader's."""
    return say(Msg(template, values), lang)


def reader() -> str:
    return READER.get()
