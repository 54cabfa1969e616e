"""The lobby's Options form: one modal with every option of the game, the turn timer and
take-backs, and a name to save the set as a server preset (UX.md proposal "House rules").

Built from Discord's modal components (a Label around each input): the turn timer as a
radio group, every on/off option in one checkbox group, each number option as a select of
the values its options model accepts, the preset name as a text input. What the host
submits is checked by :func:`check_options` (the game's options model, then a trial set-up
at the seated count) before anything is stored.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

import discord
from discord import ui
from pydantic import ValidationError

from bot.discord.errors import OOPS
from bot.discord.replies import send_error
from bot.discord.text import plain_name
from bot.games.registry import GameSpec
from bot.i18n import N_, number, translate, translate_n
from bot.present.lobby import across_options, option_labels, options_reason
from bot.runtime import GameError
from bot.runtime.core import TURN_TIMERS
from bot.runtime.lobby import LobbyOps
from bot.runtime.takeback import OPTION as TAKE_BACKS
from bot.store import MAX_PRESET_NAME

log = logging.getLogger(__name__)

#: The code of the lobby button that opens the form: the router does not acknowledge it
#: first, since a modal must be the click's first answer.
FORM_CODE = "options"
#: Number values offered for a number option (those its model accepts, and its current).
NUMBER_CANDIDATES = (5, 10, 15, 20, 30, 45, 60, 90, 120, 180, 300, 600)
#: Modal components a form may hold (Discord: 5); the timer, the checkboxes and the
#: preset name take three.
MAX_NUMBERS = 2

#: ``apply(interaction, chosen options, preset name)``: what the lobby does with a form.
Apply = Callable[[discord.Interaction, dict[str, Any], str], Awaitable[None]]


def number_fields(spec: GameSpec) -> list[str]:
    """The game's number options the form offers (not ``players``, which the seats set)."""
    return [name for name, field in spec.options_model.model_fields.items()
            if name != "players" and field.annotation in (int, float)][:MAX_NUMBERS]


def preset_options(spec: GameSpec, options: Mapping[str, Any],
                   switches: Sequence[str] = ()) -> dict[str, Any]:
    """The part of a lobby's ``options`` a preset keeps: the turn timer, take-backs, the
    lobby's other on/off ``switches`` (such as hints) and the game's own options (not the
    expected player count)."""
    keep = {"turn_timer", TAKE_BACKS, *switches, *spec.options_model.model_fields} - {"players"}
    return {k: v for k, v in options.items() if k in keep}


def _seconds(value: float, lang: str | None = None) -> str:
    if float(value).is_integer():
        return translate_n(lang, "{count} second", "{count} seconds", int(value))
    return translate(lang, "{value} seconds", value=number(lang, value))


def number_choices(spec: GameSpec, name: str, current: Any) -> list[float | int]:
    """The values of number option ``name`` the form offers: :data:`NUMBER_CANDIDATES`
    its options model accepts, and ``current``, in order."""
    field = spec.options_model.model_fields[name]
    kind = int if field.annotation is int else float
    out: set[float | int] = set()
    for value in (*NUMBER_CANDIDATES, *([current] if current is not None else [])):
        try:
            spec.options_model.model_validate({name: kind(value)})
        except (ValidationError, TypeError, ValueError):
            continue
        out.add(kind(value))
    return sorted(out)[:25]


def check_options(spec: GameSpec, options: Mapping[str, Any], seated: int) -> list[str]:
    """Check a lobby's ``options`` for ``seated`` players: the turn timer, take-backs, the
    game's options model, and (with a playable count; else without the expected player
    count) a trial set-up. Returns the notes on
    options the seated count overrides (:meth:`~bot.games.base.Options.notes`). Raises
    :class:`GameError` (``bad_options``) with a sentence naming what does not work."""
    if options.get("turn_timer", "off") not in TURN_TIMERS:
        raise GameError("bad_options", N_("That turn timer is not one herdbot offers."))
    if not isinstance(options.get(TAKE_BACKS, False), bool):
        raise GameError("bad_options", N_("Take-backs are on or off."))
    playable = spec.min_players <= seated <= spec.max_players
    fields = spec.options_model.model_fields
    try:
        if playable:
            model = LobbyOps.engine_options(spec, dict(options), seated)
        else:  # not a count the game is played at (yet): the options alone
            model = spec.options_model.model_validate(
                {k: v for k, v in options.items() if k in fields and k != "players"})
    except ValidationError as exc:
        first = dict(exc.errors()[0])
        labels = option_labels(spec.options_model)
        raise GameError("bad_options", lambda lang: options_reason(
            first, labels, lang) if across_options(first) else translate(
            lang, "These options do not work: {reason}",
            reason=options_reason(first, labels, lang))) from exc
    if playable:
        try:
            spec.engine.new_game([f"s{i}" for i in range(seated)], seed=0, options=model)
        except ValueError as exc:
            why = f"{exc}."  # (the engine's English)
            raise GameError("bad_options", lambda lang: translate_n(
                lang, "With {count} player these options do not work: {reason}",
                "With {count} players these options do not work: {reason}", seated,
                reason=why)) from exc
    return list(model.notes(seated)) if playable else []


class OptionsForm(ui.Modal):
    """The Options modal of lobby ``game_id`` (see the module docstring). ``options``:
    the lobby's options now; ``bools``: ``(name, label, on)`` of every on/off option;
    ``timers``: turn timer value -> label; ``apply`` is called with what was chosen;
    ``lang``: the language of the host who opened it."""

    def __init__(self, *, game_id: int, spec: GameSpec, options: Mapping[str, Any],
                 bools: Sequence[tuple[str, str, bool]], timers: Mapping[str, str],
                 apply: Apply, lang: str | None = None) -> None:
        super().__init__(title=translate(lang, "{game}: options", game=spec.name)[:45],
                         custom_id=f"hf:l:{game_id}:options", timeout=900)
        self.lang = lang
        self.apply = apply
        self.bools = [name for name, _, _ in bools]
        current = str(options.get("turn_timer", "off"))
        self.timer: ui.RadioGroup[Any] = ui.RadioGroup(custom_id="turn_timer", options=[
            discord.RadioGroupOption(label=label, value=value, default=value == current)
            for value, label in timers.items()])
        self.add_item(ui.Label(text=translate(lang, "Turn timer")[:45], component=self.timer,
                               description=translate(
                                   lang, "When it runs out, the AI plays the turn.")[:100]))
        self.rules: ui.CheckboxGroup[Any] = ui.CheckboxGroup(
            custom_id="rules", required=False, min_values=0, max_values=len(bools),
            options=[discord.CheckboxGroupOption(label=label[:100], value=name, default=on)
                     for name, label, on in bools])
        self.add_item(ui.Label(text=translate(lang, "Rules")[:45], component=self.rules,
                               description=translate(lang, "Ticked: on.")[:100]))
        self.numbers: dict[str, ui.Select[Any]] = {}
        for name in number_fields(spec):
            field = spec.options_model.model_fields[name]
            now = options.get(name, field.default)
            select: ui.Select[Any] = ui.Select(custom_id=f"n.{name}", options=[
                discord.SelectOption(label=_seconds(v, lang) if name.endswith("seconds")
                                     else number(lang, v),
                                     value=str(v), default=v == now)
                for v in number_choices(spec, name, now)])
            self.numbers[name] = select
            label = translate(lang, option_labels(spec.options_model)[name])
            self.add_item(ui.Label(text=label[:45], component=select))
        self.preset: ui.TextInput[Any] = ui.TextInput(
            custom_id="preset", required=False, max_length=MAX_PRESET_NAME,
            placeholder=translate(lang, "A name, to start lobbies with /play preset:")[:100])
        self.add_item(ui.Label(text=translate(lang, "Save as a server preset (optional)")[:45],
                               component=self.preset))
        self._kinds = {name: int if spec.options_model.model_fields[name].annotation is int
                       else float for name in self.numbers}

    def chosen(self) -> dict[str, Any]:
        """The options as submitted."""
        out: dict[str, Any] = {"turn_timer": self.timer.value or "off"}
        ticked = set(self.rules.values)
        out.update({name: name in ticked for name in self.bools})
        for name, select in self.numbers.items():
            if select.values:
                out[name] = self._kinds[name](select.values[0])
        return out

    async def on_submit(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        await self.apply(interaction, self.chosen(), plain_name(self.preset.value or "").strip())

    async def on_error(self, interaction: discord.Interaction,  # type: ignore[override]
                       error: Exception) -> None:
        if isinstance(error, GameError):
            await send_error(interaction, error, lang=self.lang)
            return
        log.error("the options form failed", exc_info=error)
        await send_error(interaction, translate(self.lang, OOPS))


__all__ = ["FORM_CODE", "OptionsForm", "check_options", "number_choices", "number_fields",
           "preset_options"]
