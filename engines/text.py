"""Words an engine says, kept unsaid until a reader's language is known.

An engine never builds a finished English sentence for a player: it builds a `Msg`, an English template (the
message id of the catalog, `locales/`) and the values to put in it. The bot renders it in the reader's language
(`bot/i18n.py`); `str()` of one is its English, for logs and tests. Values may be plain text and numbers, other
messages, a `Name` (a place, company or card in both languages), `Money` (written as each language writes its
currency) or a `Plural` (a count whose words depend on it). A message kept in a stored state (an 18xx event)
goes through `to_json` / `from_json`.

The standard library only: engines import nothing else.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

#: The template's placeholders, as str.format names them: "{corp}", "{price}".
FIELD = re.compile(r"\{(\w+)(?:![rsa])?(?::[^{}]*)?\}")


@dataclass(frozen=True)
class Msg:
    """A sentence or phrase: the English template, which is its catalog id, and its values."""

    template: str
    values: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return render(self, "en", english)


def msg(template: str, **values: Any) -> Msg:
    """A message to be said later in its reader's language: ``msg("{corp} cannot reach {where}.", ...)``."""
    return Msg(template, values)


@dataclass(frozen=True)
class Plural:
    """A count in words: ``Plural(n, "{n} deal", "{n} deals")``: the English form by the count, and in a language
    with one form (Japanese) its single translation. Its other values go into whichever form is said."""

    n: int
    one: str
    other: str
    values: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return render(self, "en", english)


def plural(n: int, one: str, other: str, **values: Any) -> Plural:
    return Plural(n, one, other, values)


@dataclass(frozen=True)
class Name:
    """A proper name in both languages (a station, a company, a card); `kana` is its reading, where the data has
    it, for autocomplete."""

    en: str
    ja: str = ""
    kana: str = ""

    def in_lang(self, lang: str) -> str:
        return self.ja if lang == "ja" and self.ja else self.en

    def __str__(self) -> str:
        return self.en

    def matches(self, typed: str) -> bool:
        """Whether what a player typed names this (either spelling, or the reading), ignoring case."""
        typed = typed.strip().casefold()
        return bool(typed) and any(typed in s.casefold() for s in (self.en, self.ja, self.kana) if s)


#: How each currency is written: English before the number, Japanese per the currency's custom.
CURRENCIES = {
    "yen": ("¥{n}", "{n}円"),
    "dollar": ("${n}", "${n}"),
    "pound": ("£{n}", "£{n}"),
    "k": ("${n}k", "${n}k"),  # I'm the Boss!'s thousands of dollars
    "none": ("{n}", "{n}"),
}


@dataclass(frozen=True)
class Money:
    amount: int
    currency: str = "yen"

    def in_lang(self, lang: str) -> str:
        en, ja = CURRENCIES[self.currency]
        sign = "-" if self.amount < 0 else ""
        return sign + (ja if lang == "ja" else en).format(n=f"{abs(self.amount):,}")

    def __str__(self) -> str:
        return self.in_lang("en")


Lookup = Any  # (template, lang) -> the template in that language; the bot's catalog, or English itself


def render(value: Any, lang: str, lookup: Lookup) -> str:
    """`value` in `lang`: a message's template looked up and filled with its values, each rendered the same way."""
    if isinstance(value, Msg):
        return _fill(lookup(value.template, lang), value.values, lang, lookup)
    if isinstance(value, Plural):
        template = lookup((value.one, value.other, value.n), lang)
        return _fill(template, {**value.values, "n": value.n}, lang, lookup)
    if isinstance(value, (Name, Money)):
        return value.in_lang(lang)
    if isinstance(value, (list, tuple)):
        return ", ".join(render(v, lang, lookup) for v in value)
    return str(value)


def _fill(template: str, values: dict[str, Any], lang: str, lookup: Lookup) -> str:
    if not values:
        return template
    return template.format(**{k: v if isinstance(v, (int, float)) else render(v, lang, lookup)
                              for k, v in values.items()})


def english(template: Any, lang: str) -> str:
    """The lookup that says everything in English (`str()` of a message)."""
    if isinstance(template, tuple):
        one, other, n = template
        return one if n == 1 else other
    return template


def placeholders(template: str) -> set[str]:
    return set(FIELD.findall(template))


# ---- kept in a stored state ----------------------------------------------------------------------------

#: Types stored as they are (exactly these types: a subclass of str or int may be a message's value type).
PLAIN_JSON = frozenset((str, int, bool, float, type(None)))


def to_json(value: Any) -> Any:
    """A message and its values as JSON (tagged objects), for a state that is stored."""
    kind = type(value)
    if kind in PLAIN_JSON:  # most values of an event (a corporation's id, a count): as they are
        return value
    if kind is Money:  # the next commonest (an event's amounts), before the checks by class
        return {"$money": value.amount, "currency": value.currency}
    if isinstance(value, Msg):
        return {"$msg": value.template, "values": {k: to_json(v) for k, v in value.values.items()}}
    if isinstance(value, Plural):
        return {"$plural": [value.one, value.other], "n": value.n,
                "values": {k: to_json(v) for k, v in value.values.items()}}
    if isinstance(value, Name):
        return {"$name": [value.en, value.ja, value.kana]}
    if isinstance(value, Money):
        return {"$money": value.amount, "currency": value.currency}
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    if isinstance(value, dict):  # a message's values
        return {k: to_json(v) for k, v in value.items()}
    return value


def from_json(value: Any) -> Any:
    if isinstance(value, dict):
        if "$msg" in value:
            return Msg(value["$msg"], {k: from_json(v) for k, v in value.get("values", {}).items()})
        if "$plural" in value:
            one, other = value["$plural"]
            return Plural(value["n"], one, other, {k: from_json(v) for k, v in value.get("values", {}).items()})
        if "$name" in value:
            return Name(*value["$name"])
        if "$money" in value:
            return Money(value["$money"], value.get("currency", "yen"))
        return {k: from_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [from_json(v) for v in value]
    return value


def N_(template: str) -> str:
    """Marks a template kept in a table of words, said later with tr/msg (the catalog finds it by this name)."""
    return template
