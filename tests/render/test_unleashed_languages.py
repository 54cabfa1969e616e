"""The Llamas Unleashed table and close-up in every shipped language (the pseudo-locale
included): the same canvas as in English, text >= 14 px at 500 px wide, every letter in
the bundled fonts, and with short names every label of a Field's name block, the header
and the key fits whole or in its translated short form (no ellipsis)."""

from __future__ import annotations

from typing import Any, cast

import pytest

from bot.app import builtin_games
from bot.games.unleashed.models import UnleashedView
from bot.i18n import SHIPPED
from bot.render.common import PHONE_MIN_TEXT
from bot.render.unleashed import _base, table_picture
from bot.render.unleashed_hand import _mini, hand_picture
from tests.render.test_legibility import NAMES, SHORT_NAMES, drawn_texts, states, uncovered

SPEC = builtin_games()["llamas-unleashed"]


def seen(state: Any, seat: str | None) -> UnleashedView:
    """What ``seat`` (``None``: a spectator) sees of ``state``."""
    return cast(UnleashedView, SPEC.engine.view(state, seat))


@pytest.mark.parametrize("lang", SHIPPED)
@pytest.mark.parametrize("players", [2, 5, 8])
def test_the_unleashed_table_and_close_up_are_legible_in_every_language(players: int,
                                                                       lang: str) -> None:
    sizes = set()
    for names, check_cut in ((NAMES, False), (SHORT_NAMES, True)):
        _base.cache_clear()  # type: ignore[attr-defined]
        _mini.cache_clear()  # type: ignore[attr-defined]
        with drawn_texts() as texts:
            for state in states("llamas-unleashed", players, 40 + players):
                seats = {s: names[i] for i, s in enumerate(state.seats)}
                pic = table_picture(seen(state, None), names=seats, lang=lang)
                assert pic.phone_text_px >= PHONE_MIN_TEXT, (lang, pic.smallest_text_px)
                assert pic.size[1] <= 1.3 * pic.size[0]
                sizes.add(pic.size)
                for seat in state.seats[:2]:
                    close = hand_picture(seen(state, seat), names=seats, lang=lang)
                    assert close.phone_text_px >= PHONE_MIN_TEXT, (lang, seat)
        if check_cut:
            # (the pile line may cut a long chain of answers; names are the players')
            cut = [t for t in texts if "\N{HORIZONTAL ELLIPSIS}" in t]
            assert cut == [], lang
        assert uncovered("".join(texts)) == set(), lang
    _base.cache_clear()  # type: ignore[attr-defined]
    assert len(sizes) == 1, sizes
