"""Llamas Unleashed: an action in short English words (pure), the engine's
``action_label`` for logs, tests and tools; the buttons and select entries players see
are worded in their language by :mod:`bot.present.unleashed`."""

from __future__ import annotations

from bot.games.base import Action
from bot.games.unleashed.effects.statics import card, name
from bot.games.unleashed.models import (
    Activate,
    Choose,
    ChooseBaby,
    DrawCard,
    Pass,
    Play,
    Proceed,
    Respond,
    UnleashedState,
)
from bot.games.unleashed.views import source_words


def action_label(st: UnleashedState, action: Action) -> str:
    """Short English words for ``action`` (seat ids stand for players). Never names a
    card the acting seat cannot see."""
    if isinstance(action, ChooseBaby):
        return "Pick one for me" if action.card is None else f"Take {name(action.card)}"
    if isinstance(action, Play):
        d = card(action.card)
        if action.field is None:
            return f"Play {d.name}"
        if action.field == st.active:
            return f"Play {d.name} into your Field"
        return f"Play {d.name} into {action.field}'s Field"
    if isinstance(action, DrawCard):
        return "Draw a card"
    if isinstance(action, Activate):
        return f"Use {source_words(action.source)}"
    if isinstance(action, Proceed):
        return "Go to the Draw phase" if st.phase == "start" else "End your Action phase"
    if isinstance(action, Choose):
        if st.choice is not None and 0 <= action.option < len(st.choice.options):
            return st.choice.options[action.option].label
        return f"Option {action.option}"
    if isinstance(action, Respond):
        return f"Respond with {name(action.card)}"
    if isinstance(action, Pass):
        return "Pass"
    return action.type
