"""Llamas Unleashed as herdbot plays it: the rules (``bot.games.unleashed``) with their AI
levels, presenter, renderers, cog and demo driver."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import Any

from bot.ai.easy import unleashed_easy
from bot.ai.unleashed import heuristic_policy, weigh
from bot.ai.unleashed_hard import hard_policy
from bot.games.unleashed.spec import SPEC as RULES
from bot.i18n import ENGLISH
from bot.present import hints
from bot.present.unleashed import UnleashedPresenter
from bot.render.unleashed import render_table
from bot.render.unleashed_hand import hand_picture


def hint(view: Any, legal: Sequence[Any], rng: random.Random, lang: str = ENGLISH) -> str:
    """The Normal AI's move for the seat of ``view`` and why, in words (seat ids) in
    ``lang``."""
    return hints.unleashed(weigh(view, list(legal), rng), lang)


SPEC = dataclasses.replace(
    RULES,
    policy=heuristic_policy,
    hint=hint,
    levels={"easy": unleashed_easy, "normal": heuristic_policy, "hard": hard_policy},
    presenter=UnleashedPresenter(),
    table_renderer=render_table,
    closeups={"hand": hand_picture},
    cog="cogs.unleashed",
    driver="bot.sandbox.drivers.unleashed",
)
