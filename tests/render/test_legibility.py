"""Every table is legible on a phone. For every game and player count, early, middle and
final states of a seeded AI game: the smallest text drawn shows at >= 14 px when the picture
is scaled to 500 px wide, the picture is at most 1.3 times as tall as it is wide, and its
size does not change during the game."""

from __future__ import annotations

import importlib
import random
from typing import Any

import pytest

from bot.app import builtin_games
from bot.render.common import PHONE_MIN_TEXT, PHONE_WIDTH

NAMES = ["Maya Longneck the Magnificent", "Bo", "Cyrus Fluff", "Dina Woolworth",
         "Ezra Carrots", "Fay Clover", "Gus Alpacino", "Hana Hay"]
MODULES = {"llamas-alpacas": "llamas_alpacas", "pacapaca": "pacapaca",
           "llamas-unleashed": "unleashed"}
CASES = [(spec.key, n) for spec in builtin_games() if spec.key in MODULES
         for n in range(spec.min_players, spec.max_players + 1)]


def states(key: str, players: int, seed: int) -> list[Any]:
    """Early (after the first decision), middle and final state of a seeded game played
    by the game's own AI policy in every seat."""
    spec = next(s for s in builtin_games() if s.key == key)
    engine = spec.engine
    state = engine.new_game([f"s{i}" for i in range(players)], seed=seed)
    rand = random.Random(seed)
    seen = [state]
    while engine.result(state) is None and len(seen) < 5000:
        seat = next(s for s in engine.pending(state).seats if engine.legal_actions(state, s))
        legal = engine.legal_actions(state, seat)
        state, _ = engine.apply(state, seat, spec.policy(engine.view(state, seat), legal, rand))
        seen.append(state)
    assert engine.result(state) is not None, "the AI game did not finish"
    return [seen[1], seen[len(seen) // 2], seen[-1]]


def test_every_game_and_count_is_covered():
    assert sorted({k for k, _ in CASES}) == sorted(MODULES)
    assert [n for k, n in CASES if k == "llamas-unleashed"] == list(range(2, 9))
    assert [n for k, n in CASES if k == "pacapaca"] == list(range(2, 7))
    assert [n for k, n in CASES if k == "llamas-alpacas"] == list(range(2, 5))


@pytest.mark.parametrize("key,players", CASES)
def test_table_is_legible_on_a_phone(key: str, players: int) -> None:
    spec = next(s for s in builtin_games() if s.key == key)
    module = importlib.import_module(f"bot.render.{MODULES[key]}")
    sizes = set()
    for stage, state in zip(("early", "middle", "final"), states(key, players, 40 + players),
                            strict=True):
        view = spec.engine.view(state, None)
        pic = module.table_picture(view, names={s: NAMES[i] for i, s in enumerate(state.seats)})
        width, height = pic.size
        phone_px = pic.smallest_text_px * PHONE_WIDTH / width
        assert phone_px >= PHONE_MIN_TEXT, (stage, pic.smallest_text_px, width)
        assert phone_px == pic.phone_text_px
        assert height <= 1.3 * width, (stage, pic.size)
        assert len(pic.png) <= 300 * 1024
        sizes.add(pic.size)
    assert len(sizes) == 1, sizes  # the same canvas from the first turn to the last


def test_the_meter_sees_small_text():
    """The measurement is real: text drawn smaller is reported smaller."""
    from PIL import Image

    from bot.render.common import Draw, font, measuring, paste, sprite

    @sprite
    def piece() -> Image.Image:
        img = Image.new("RGBA", (50, 20))
        Draw(img).text((0, 0), "x", font=font(11))
        return img

    with measuring() as outer:
        img = Image.new("RGB", (100, 100))
        Draw(img).text((0, 0), "hello", font=font(30))
        Draw(img).text((0, 40), "   ", font=font(5))  # blank text is not counted
        assert outer.smallest == 30
        piece()  # built but not pasted: not in this picture
        assert outer.smallest == 30
        paste(img, piece(), (0, 60))
    assert outer.smallest == 11
