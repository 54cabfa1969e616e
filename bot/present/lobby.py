"""The lobby's words in the lobby's language (pure): its title and description, the seat
list, the options and the footer, for the Discord layer to lay out (``cogs/lobby.py``).

Flow and looks: UX.md, "Common to all games".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from bot.i18n import (
    COMMAND_TEXT,
    ENGLISH,
    N_,
    NATIVE_NAMES,
    number,
    translate,
    translate_in,
    translate_n,
)

#: Words the lobby shows that are defined below the presentation layers (the games'
#: descriptions, their lobby options' labels, the AI levels' labels), marked for the
#: catalogue here and translated where shown.
SHOWN_HERE = (
    N_("Feed the herd, line up llamas and alpacas on your 3x3 board (2-4 players)."),
    N_("Draw, trade and haggle to dress the longest, fanciest alpaca neck (2-6 players)."),
    N_("Build a herd of 7 Animals with magic, upgrades and instant answers (2-8)."),
    N_("Hide who holds Instants"), N_("Reaction window"), N_("Time to choose a Baby"),
    N_("Easy"), N_("Normal"), N_("Hard"),
)


@dataclass(frozen=True)
class LobbySeat:
    """One taken seat: ``who`` as shown (a mention, or an AI seat's line) and whether it
    is the host's."""

    who: str
    host: bool = False


@dataclass(frozen=True)
class LobbyWords:
    """A lobby's text by part (markdown where Discord renders it)."""

    title: str
    description: str
    seats_title: str
    seats: str
    options_title: str
    options: str
    footer: str


def option_label(label: str, on: bool, lang: str = ENGLISH) -> str:
    """A lobby option and its state, ``"Hide who holds Instants: on"`` (in ``lang``)."""
    if on:
        return translate(lang, "{option}: on", option=translate(lang, label))
    return translate(lang, "{option}: off", option=translate(lang, label))


def lobby_words(lang: str, *, game: str, description: str, number: int, status: str,
                seats: Sequence[LobbySeat], min_players: int, max_players: int,
                timer: str | None, options: Sequence[tuple[str, bool]] = (),
                rated: bool = True, expires_at: float | None = None,
                expired: bool = False,
                challenge: tuple[int, int] | None = None) -> LobbyWords:
    """The words of lobby #``number`` of ``game`` in ``lang``: ``status`` (``lobby``,
    ``cancelled`` or started), the taken ``seats`` in order (none for a closed lobby
    whose seats could not be read), the turn ``timer``'s choice name (``None``: off),
    the boolean ``options`` as ``(label, on)``, ``rated``; an open lobby says when it
    closes (``expires_at``, Unix seconds), ``expired``: it closed that way; ``challenge``:
    the challenger's and the challenged member's ids of an open challenge lobby."""
    text = translate(lang, description)
    if status == "lobby" and expires_at is not None:
        when = f"<t:{int(expires_at)}:R>"
        text += "\n\n" + translate(lang, "This lobby closes {when} unless the host starts "
                                   "the game.", when=when)
    if status == "lobby" and challenge is not None:
        host, target = (f"<@{who}>" for who in challenge)
        text += "\n\n" + translate(lang, "**{host} challenges {target}**: Accept to start, "
                                   "or Decline.", host=host, target=target)
    lines = [translate(lang, "{number}. {who} {crown} host", number=i, who=seat.who,
                       crown="\N{CROWN}") if seat.host else f"{i}. {seat.who}"
             for i, seat in enumerate(seats, 1)]
    lines += [translate(lang, "{number}. *open seat*", number=i)
              for i in range(len(seats) + 1, max(min_players, len(seats) + 1) + 1)
              if i <= max_players]
    taken = "\n".join(lines) or "-"
    if not seats and status != "lobby":  # a quarantined lobby closed: its seats are unreadable
        taken = translate(lang, "(could not be read)")
    opts = [translate(lang, "Turn timer: {timer}",
                      timer=translate_in(lang, COMMAND_TEXT, timer) if timer else "off")]
    opts += [option_label(label, on, lang) for label, on in options]
    if not rated:
        opts.append(translate(lang, "Rated: no"))
    if lang != ENGLISH:
        opts.append(translate(lang, "Language: {language}", language=NATIVE_NAMES[lang]))
    if status == "lobby":
        need = min_players - len(seats)
        then = (translate_n(lang, "Waiting for {count} more player.",
                            "Waiting for {count} more players.", need) if need > 0
                else translate(lang, "The host can start the game."))
        if challenge is not None:
            then = translate(lang, "Waiting for the challenged member to accept or decline.")
        footer = translate(lang, "{least}-{most} players. {next}", least=min_players,
                           most=max_players, next=then)
    elif expired:
        footer = translate(lang, "Nobody started this lobby within an hour, so it has closed.")
    elif status == "cancelled":
        footer = translate(lang, "This lobby was cancelled.")
    else:
        footer = translate(lang, "The game has started in its thread.")
    return LobbyWords(
        title=translate(lang, "{game}: lobby #{number}", game=game, number=number),
        description=text, seats_title=translate(lang, "Seats ({count}/{most})",
                                                count=len(seats), most=max_players),
        seats=taken, options_title=translate(lang, "Options"), options="\n".join(opts),
        footer=footer)


#: A number option's bound by pydantic's error type (``Field(gt=, ge=, lt=, le=)``), its
#: bound ``{limit}`` (a number, or "600 seconds" for an option counted in seconds).
_BOUNDS: dict[str, tuple[str, str]] = {
    "greater_than": ("gt", N_("{option} must be more than {limit}.")),
    "greater_than_equal": ("ge", N_("{option} must be at least {limit}.")),
    "less_than": ("lt", N_("{option} must be less than {limit}.")),
    "less_than_equal": ("le", N_("{option} must be at most {limit}.")),
}
#: What kind of value an option takes, by pydantic's error type.
_KINDS: dict[str, str] = {
    "int_type": N_("{option} must be a whole number."),
    "int_parsing": N_("{option} must be a whole number."),
    "int_from_float": N_("{option} must be a whole number."),
    "float_type": N_("{option} must be a number."),
    "float_parsing": N_("{option} must be a number."),
    "bool_type": N_("{option} is on or off."),
    "bool_parsing": N_("{option} is on or off."),
}


def option_labels(model: type[BaseModel]) -> dict[str, str]:
    """The English label of each option of a game's options ``model``: its field's
    ``description`` (marked for the catalogue in :data:`SHOWN_HERE`), else its name in
    words."""
    return {name: field.description or name.replace("_", " ").capitalize()
            for name, field in model.model_fields.items()}


def options_reason(error: Mapping[str, Any], labels: Mapping[str, str],
                   lang: str = ENGLISH) -> str:
    """Why a game's options model refused a value, as a short sentence in ``lang`` from one
    of pydantic's errors (``ValidationError.errors()``: its ``type``, ``loc`` and ``ctx``);
    ``labels``: option name -> its English label (translated here; the name itself when
    it has none). Every refusal is one of our sentences, never pydantic's or the game's
    English: a bound or a kind of value is named; a model's own check across options
    (``value_error`` with no option named) says they do not go together; anything else
    says the value, or with no option named the options, are not ones the game takes."""
    loc = [str(p) for p in error.get("loc", ())]
    name = loc[0] if loc else ""
    option = translate(lang, labels[name]) if name in labels else name
    kind = str(error.get("type", ""))
    ctx = error.get("ctx") or {}
    if kind in _BOUNDS and _BOUNDS[kind][0] in ctx:
        limit = ctx[_BOUNDS[kind][0]]
        if name.endswith("_seconds") and isinstance(limit, (int, float)):
            seconds = translate_n(lang, "{count} second", "{count} seconds", int(limit)) \
                if float(limit).is_integer() else translate(lang, "{value} seconds",
                                                             value=number(lang, limit))
            return translate(lang, _BOUNDS[kind][1], option=option, limit=seconds)
        return translate(lang, _BOUNDS[kind][1], option=option,
                         limit=number(lang, limit) if isinstance(limit, (int, float)) else limit)
    if kind in _KINDS:
        return translate(lang, _KINDS[kind], option=option)
    if kind == "extra_forbidden":
        return translate(lang, "This game has no option “{option}”.", option=option)
    if kind == "value_error" and not option:  # the model's own check across its options
        return translate(lang, "Some of these options do not go together.")
    if not option:
        return translate(lang, "These options are not ones this game takes.")
    return translate(lang, "{option}: that value is not one this game takes.", option=option)
