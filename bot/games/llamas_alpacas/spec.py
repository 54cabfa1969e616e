"""Registry entry for Llamas & Alpacas."""

from __future__ import annotations

from bot.games.llamas_alpacas.engine import LlamasAlpacasEngine
from bot.games.llamas_alpacas.models import MAX_PLAYERS, MIN_PLAYERS, LlamasAlpacasOptions
from bot.games.registry import GameSpec

RULES_SUMMARY = """\
**Llamas & Alpacas** - build lines of three matching animals on your 3x3 board.

**Start:** everyone has 3 clovers, 3 carrots and one starting card to place anywhere. \
Six cards lie face up in a row.

**Your turn - do one:**
- **Take** a card from the row and put it on an empty space. Card 1 is free. For a later \
card, feed every card you skip: a clover for a llama, a carrot for an alpaca (or two of \
the other treat if you have none of the right one). Treats lying on your card are yours. \
You may hold 10 treats at most; the rest go onto the next card.
- **Move** one of your cards to an empty space.

**Scoring:** when a row or column of three is complete, check: same animal, same \
accessory colour (white fits any colour), same digit or a run like 1-2-3 or 4-3-2 in \
order (a star fits any digit). 1 / 2 / 3 of these give 2 / 4 / 6 points and the scored \
cards leave your board. A full board means your new card replaces one.

**End:** once someone has 18 points, finish the round. Most points wins; ties go to \
most treats, then a shared victory.
"""

SPEC = GameSpec(
    key=LlamasAlpacasEngine.key,
    name="Llamas & Alpacas",
    description="Feed the herd, line up llamas and alpacas on your 3x3 board (2-4 players).",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    engine=LlamasAlpacasEngine(),
    options_model=LlamasAlpacasOptions,
    rules_summary=RULES_SUMMARY,
)
