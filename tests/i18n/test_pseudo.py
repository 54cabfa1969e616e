"""The pseudo-locale: accented, about 40% longer, placeholders, mentions and markdown
kept, for every message id of the code."""

from __future__ import annotations

import math

from bot import i18n
from bot.i18n.extract import source_messages
from bot.i18n.pseudo import _KEPT, pseudo
from tests.i18n.test_catalogue import kept


def letters(text: str) -> int:
    """ASCII letters of ``text`` outside its kept spans (placeholders, mentions, code)."""
    return sum(ch.isascii() and ch.isalpha() for ch in _KEPT.sub("", text))


def test_a_pseudo_sentence():
    assert pseudo("Take {position} ({cost})") == "Ţààķéé {position} ({cost})"
    assert pseudo("**{name}** holds <@12> `x`") == "**{name}** ĥööļðš <@12> `x`\N{MIDDLE DOT}"
    assert pseudo("Back") == "Ɓààçķ\N{MIDDLE DOT}"
    assert pseudo("Thinks ahead") == "Ţĥîîñķš ààĥééààð\N{MIDDLE DOT}"
    assert pseudo("") == ""


def test_every_message_id_grows_by_at_least_40_percent_of_its_letters_and_keeps_its_markup():
    ids = [m for msgid in source_messages()
           for m in ([msgid] if isinstance(msgid, str) else msgid)]
    assert len(ids) >= 90
    for msgid in ids:
        shown = pseudo(msgid)
        assert kept(shown) == kept(msgid), msgid
        assert len(shown) - len(msgid) >= math.ceil(letters(msgid) * 0.4), msgid
        assert letters(shown) == 0  # every letter outside the kept spans accented
        assert i18n.translate("en_XA", msgid) == shown


def test_the_pseudo_locale_fills_placeholders_and_plurals():
    assert i18n.translate_n("en_XA", "{count} clover", "{count} clovers", 1) == pseudo(
        "{count} clover").format(count="1")
    assert i18n.translate_n("en_XA", "{count} clover", "{count} clovers", 6) == pseudo(
        "{count} clovers").format(count="6")
