"""Llamas & Alpacas as herdbot plays it: the rules (``bot.games.llamas_alpacas``) with
their AI levels, presenter, renderers, cog and demo driver."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import Any

from bot.ai.easy import llamas_alpacas_easy
from bot.ai.llamas_alpacas import heuristic_policy, weigh
from bot.ai.llamas_alpacas_hard import hard_policy
from bot.games.llamas_alpacas.spec import SPEC as RULES
from bot.i18n import ENGLISH
from bot.present import hints
from bot.present.llamas_alpacas import LlamasAlpacasPresenter
from bot.render.llamas_alpacas import board_picture, render_table


def hint(view: Any, legal: Sequence[Any], rng: random.Random, lang: str = ENGLISH) -> str:
    """The Normal AI's move for the seat of ``view`` and why, in words (seat ids) in
    ``lang``."""
    return hints.llamas_alpacas(weigh(view, list(legal), rng), lang)


SPEC = dataclasses.replace(
    RULES,
    policy=heuristic_policy,
    hint=hint,
    levels={"easy": llamas_alpacas_easy, "normal": heuristic_policy, "hard": hard_policy},
    presenter=LlamasAlpacasPresenter(),
    table_renderer=render_table,
    closeups={"board": board_picture},
    # Nothing is hidden but the draw pile's order, which no refusal names.
    hidden_info=False,
    cog="cogs.llamas_alpacas",
    driver="bot.sandbox.drivers.llamas_alpacas",
)
