"""Llamas Unleashed as herdbot plays it: the rules (``bot.games.unleashed``) with their AI
levels, presenter, renderers, cog and demo driver."""

from __future__ import annotations

import dataclasses

from bot.ai.easy import unleashed_easy
from bot.ai.unleashed import heuristic_policy
from bot.ai.unleashed_hard import hard_policy
from bot.games.unleashed.spec import SPEC as RULES
from bot.present.unleashed import UnleashedPresenter
from bot.render.unleashed import hand_picture, render_table

SPEC = dataclasses.replace(
    RULES,
    policy=heuristic_policy,
    levels={"easy": unleashed_easy, "normal": heuristic_policy, "hard": hard_policy},
    presenter=UnleashedPresenter(),
    table_renderer=render_table,
    closeups={"hand": hand_picture},
    cog="cogs.unleashed",
    driver="bot.sandbox.drivers.unleashed",
)
