"""Llamas Unleashed: the short words of an action on a button or a select entry (pure)."""

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
    """Short words for a button or select entry (seat ids stand for players; the cog
    may replace them with names). Never names a card the acting seat cannot see."""
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
