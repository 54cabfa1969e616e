"""Alpaca Pacapaca as herdbot plays it: the rules (``bot.games.pacapaca``) with their AI
levels, presenter, renderers, cog and demo driver."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import Any

from bot.ai.easy import pacapaca_easy
from bot.ai.pacapaca import heuristic_policy, weigh
from bot.ai.pacapaca_hard import hard_policy
from bot.games.pacapaca.spec import SPEC as RULES
from bot.i18n import ENGLISH
from bot.present import hints
from bot.present.pacapaca import PacapacaPresenter
from bot.render.pacapaca import alpaca_picture, render_cards, render_final, render_table


def hint(view: Any, legal: Sequence[Any], rng: random.Random, lang: str = ENGLISH) -> str:
    """The Normal AI's move for the seat of ``view`` and why, in words (seat ids) in
    ``lang``."""
    return hints.pacapaca(weigh(view, list(legal), rng), lang)


SPEC = dataclasses.replace(
    RULES,
    policy=heuristic_policy,
    hint=hint,
    levels={"easy": pacapaca_easy, "normal": heuristic_policy, "hard": hard_policy},
    presenter=PacapacaPresenter(),
    table_renderer=render_table,
    closeups={"alpaca": alpaca_picture, "cards": render_cards, "final": render_final},
    cog="cogs.pacapaca",
    driver="bot.sandbox.drivers.pacapaca",
)
