"""Registry entry for Llamas Unleashed."""

from __future__ import annotations

from bot.games.registry import GameSpec
from bot.games.unleashed.engine import UnleashedEngine
from bot.games.unleashed.models import UnleashedOptions

RULES_SUMMARY = """\
**Llamas Unleashed** - 2 to 8 players. Be the first with **7 Animals** in your Field \
(**6** with 6-8 players).
**Set-up:** everyone picks a Baby from the Nursery for their Field, gets 5 cards, and a \
random player starts.
**Your turn:** 1) start of turn: Herd Bonuses (3+ Animals of one kind) and your cards' \
start-of-turn effects; optional ones are lost once you move on. 2) Draw a card. 3) Play \
one card or draw one more. 4) Discard down to your hand limit (7).
**Cards:** Animals (Llama, Alpaca, Goat, Ram), Magic (one-shot, then discarded), Upgrades \
and Downgrades (stay in the Field they are played into and affect that player), Instants \
(played when another player plays a card).
**Answering:** after every play, players holding an Instant get a short window. Answers \
pile up and resolve last first; the answered player may answer back. Cards brought \
straight into a Field cannot be answered.
**Herds:** Llama - may draw 1. Alpaca - your Alpacas cannot be destroyed until your next \
turn. Goat - may take the top discard. Ram - may discard 1; if you do, destroy another \
player's Animal.
**"If you do":** you may do the first part whenever it is possible; if the second part is \
then impossible, it is skipped.
**End:** nobody wins until the whole chain has resolved. If the deck runs out: most \
Animals wins, then most letters in their names; still tied, everyone loses."""

SPEC = GameSpec(
    key="llamas-unleashed",
    name="Llamas Unleashed",
    description="Build a herd of 7 Animals with magic, upgrades and instant answers (2-8).",
    min_players=2,
    max_players=8,
    engine=UnleashedEngine(),
    options_model=UnleashedOptions,
    rules_summary=RULES_SUMMARY,
)
