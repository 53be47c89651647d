"""The catalogs: every message in the code is in the English catalog (bot/locales/messages.pot) and has its
Japanese, with the same placeholders; no message is an f-string (it could never be looked up)."""
from __future__ import annotations

import asyncio

from babel.messages.pofile import read_po
from discord import Locale, app_commands

from bot.i18n import LOCALES, lookup, say, tr
from bot.translator import CatalogTranslator
from engines.base import RuleError
from engines.text import Money, Name, from_json, msg, plural, to_json
from tests.i18n_helpers import extracted, unextractable, untranslated


def test_no_message_is_an_f_string():
    assert unextractable() == []


def test_the_english_catalog_holds_every_message_of_the_code():
    with (LOCALES / "messages.pot").open("rb") as f:
        pot = {m.id for m in read_po(f) if m.id}
    code = set(extracted())
    assert sorted(map(str, code - pot)) == [], "run the extraction in README, Languages"
    assert sorted(map(str, pot - code)) == [], "messages no code says any more: extract again"


def test_every_message_has_its_japanese_with_the_same_placeholders():
    assert untranslated() == []


def test_a_message_is_said_in_each_language_with_its_values_said_too():
    said = msg("You joined table {id}.", id=3)
    assert str(said) == "You joined table 3."
    japanese = lookup("You joined table {id}.", "ja")
    assert japanese != "You joined table {id}." and "{id}" in japanese
    assert say(said, "ja") == japanese.format(id=3)
    assert Money(10000, "yen").in_lang("en") == "¥10,000" and Money(10000, "yen").in_lang("ja") == "10,000円"
    assert Name("Nagoya", "名古屋").in_lang("ja") == "名古屋" and str(Name("Nagoya", "名古屋")) == "Nagoya"
    assert str(plural(1, "{n} deal", "{n} deals")) == "1 deal" and str(plural(2, "{n} deal", "{n} deals")) == "2 deals"
    e = RuleError("{corp} cannot reach {where}.", corp="AR", where=Name("Takamatsu", "高松"))
    assert str(e) == "AR cannot reach Takamatsu." and e.msg.values["corp"] == "AR"
    back = from_json(to_json(msg("{a} pays {b}.", a=Name("Nagoya", "名古屋"), b=Money(5, "yen"))))
    assert say(back, "ja").startswith("名古屋") and "5円" in say(back, "ja")


def test_a_message_the_catalog_lacks_is_said_in_english_rather_than_not_at_all():
    assert tr("ja", "A sentence nobody has translated, {n}.", n=1) == "A sentence nobody has translated, 1."


def test_a_japanese_client_reads_the_commands_in_japanese_and_their_names_stay_ascii():
    translator = CatalogTranslator()
    where = app_commands.TranslationContext

    def translate(text, location):
        ctx = where(location=location, data=None)
        return asyncio.run(translator.translate(app_commands.locale_str(text), Locale.japanese, ctx))

    L = app_commands.TranslationContextLocation
    said = translate("Choose the language the bot answers and DMs you in.", L.command_description)
    assert said and said != "Choose the language the bot answers and DMs you in." and not said.isascii()
    assert translate("language", L.command_name) is None
    assert asyncio.run(translator.translate(app_commands.locale_str("Open a new table in this channel."),
                                            Locale.american_english, where(location=L.command_description,
                                                                           data=None))) is None
