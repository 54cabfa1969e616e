"""Registry entry for Alpaca Pacapaca."""

from __future__ import annotations

from bot.games.pacapaca.engine import PacapacaEngine
from bot.games.pacapaca.models import PacapacaOptions
from bot.games.registry import GameSpec

RULES_SUMMARY = """\
**Alpaca Pacapaca** - grow the longest, best-dressed alpaca neck. 2-6 players.

Everyone starts with a head and a body. On your turn do one of:
- **Draw 2**: look at two cards secretly, add one to your neck, put the other face down on the discard pile. (One card left? Draw it and add it.)
- **Take the pile**: add every card of the discard pile to your neck.
- **Negotiate**: pick another player; within 60 seconds you both shape one swap of neck cards or babies (any sizes, even 0 for 2). It happens only if you both accept the same deal. No deal? Draw or take the pile instead; no second negotiation that turn.

When the deck runs out, everybody gets one last turn, then scoring:
1. Half-finished looks fall off: a bow needs a left and a right loop; a scarf needs a top and a bottom (middles stretch a finished scarf, otherwise they fall off too).
2. Longest neck 4, second 2 (a tie for longest: 3 each and no second; a tie for second: 1 each). Mud counts as neck.
3. Bow 6; scarf 2 per card; charm 1 each, +5 once for all four kinds; mud -1 each.
Babies (optional, always with 6 players) stand beside the parent: a boy scores 3 if the parent wears a finished scarf, a girl 3 with a finished bow.

Highest total wins; ties share the win.
"""

SPEC = GameSpec(
    key="pacapaca",
    name="Alpaca Pacapaca",
    description="Draw, trade and haggle to dress the longest, fanciest alpaca neck (2-6 players).",
    min_players=2,
    max_players=6,
    engine=PacapacaEngine(),
    options_model=PacapacaOptions,
    rules_summary=RULES_SUMMARY,
)
