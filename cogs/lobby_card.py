"""The lobby message (Components V2): its card, its buttons and selects, and the words
of seats and options; the Lobby cog edits it in place (see :mod:`cogs.lobby`)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.ai.levels import DEFAULT_LEVEL, Level, level_label
from bot.discord.components import button, select
from bot.discord.layout import accent_of, action_rows, card, texts_of
from bot.discord.options_form import FORM_CODE
from bot.discord.text import md_name
from bot.games.registry import GameSpec
from bot.i18n import ENGLISH, N_, NATIVE_NAMES, SHIPPED, supported, translate
from bot.present.lobby import LobbySeat, lobby_words, option_label
from bot.runtime.takeback import OPTION as TAKE_BACKS
from bot.runtime.takeback import take_backs_on
from bot.store import GameRecord, SeatRecord
from cogs.lobby_challenge import (
    challenge_items,
    challenged,
)

TIMER_CHOICES = [
    app_commands.Choice(name="No turn timer", value="off"),
    app_commands.Choice(name="2 minutes per turn", value="2m"),
    app_commands.Choice(name="10 minutes per turn", value="10m"),
    app_commands.Choice(name="1 hour per turn", value="1h"),
    app_commands.Choice(name="24 hours per turn", value="24h"),
]
TIMER_LABELS = {c.value: c.name for c in TIMER_CHOICES}

#: The languages a game can be played in, each named in itself (not translated).
LANGUAGE_CHOICES = [app_commands.Choice(name=NATIVE_NAMES[lang], value=lang) for lang in SHIPPED]
#: The code of the lobby's Options button.
OPTIONS = FORM_CODE

#: What each AI level means, as the lobby's level select describes it (max 100 characters).
LEVEL_HINTS = {
    Level.EASY: N_("A beginner: sensible moves, with mistakes"),
    Level.NORMAL: N_("A steady player (the default)"),
    Level.HARD: N_("Thinks ahead from what its seat can see"),
}


def lobby_lang(record: GameRecord) -> str:
    """The language of a lobby and its game (chosen at ``/play``, kept in its options)."""
    return supported(record.options.get("language")) or ENGLISH


def next_ai_level(record: GameRecord, spec: GameSpec) -> str:
    """The level the lobby's Add AI seat adds at: the host's choice in the level select
    (kept in the lobby's options as ``ai_level``), Normal until one is made or when the
    choice is not offered."""
    level = record.options.get("ai_level", DEFAULT_LEVEL)
    return level if level in spec.offered_levels() else DEFAULT_LEVEL


def seat_line(seat: SeatRecord, lang: str = ENGLISH) -> str:
    """A lobby seat: the member's mention, or an AI seat's name and level
    (``🤖 AI Pancho (Hard)``)."""
    if seat.is_ai:
        return (f"\N{ROBOT FACE} {md_name(seat.name)} "
                f"({translate(lang, level_label(seat.ai_level))})")
    return f"<@{seat.user_id}>"


#: The lobby option that puts a Hint button on each player's My hand panel (not a rule:
#: the engine never sees it). Off by default in rated games, on otherwise.
HINTS = "hints"


def bool_options(spec: GameSpec) -> list[tuple[str, str]]:
    """Boolean lobby options of a game as ``(field, label)``, from its options model, then
    Hints for a game that offers them, then Take-backs (every game's)."""
    out = []
    for name, field in spec.options_model.model_fields.items():
        if field.annotation is bool:
            out.append((name, field.description or name.replace("_", " ").capitalize()))
    if spec.hint is not None:
        out.append((HINTS, N_("Hints")))
    return [*out, (TAKE_BACKS, N_("Take-backs"))]


def option_on(record: GameRecord, name: str) -> bool:
    """Whether boolean option ``name`` is on in the lobby ``record`` (Take-backs: by
    default off in a rated game, :func:`bot.runtime.takeback.take_backs_on`)."""
    if name == TAKE_BACKS:
        return take_backs_on(record.options)
    return bool(record.options.get(name))


#: What an edit of a lobby message resets: a lobby posted with an embed (before lobbies
#: were Components V2 messages) becomes a V2 one, which may carry neither.
RESET: dict[str, Any] = {"content": None, "embed": None}
#: The edge of a closed (cancelled or expired) lobby's container.
CLOSED_COLOUR = 0x888888


def head_of(message: discord.Message | None) -> str | None:
    """The line a lobby message shows above its title (a rematch's invitation), read back
    from the message so that an edit keeps it; ``None`` when it has none."""
    shown = texts_of(message)
    return shown[0] if shown and not shown[0].startswith("### ") else None


def lobby_card(record: GameRecord, seats: list[SeatRecord], spec: GameSpec, *,
               expired: bool = False, head: str | None = None,
               playing_in: int | None = None) -> discord.ui.LayoutView:
    """The lobby as one Components V2 message (:func:`bot.discord.layout.card`, the game's
    accent colour; grey once closed), in the lobby's language
    (:func:`bot.present.lobby.lobby_words`): ``head`` (a line above it, such as a
    rematch's invitation), the title ``<game>: lobby #<id>`` as a ``### `` heading, the
    game's description (an open lobby says when it closes unless started; ``playing_in``:
    the thread the game started in), the seats and the options each under a bold heading,
    the buttons (:func:`lobby_items`) and a footer saying what happens next (``expired``:
    it closed because nobody started it). Over Discord's limits, the words are cut with
    a count."""
    lang = lobby_lang(record)
    expires_at = record.options.get("expires_at")
    target = challenged(record)
    words = lobby_words(
        lang, game=spec.name, description=spec.description, number=record.id,
        status=record.status,
        seats=[LobbySeat(seat_line(s, lang), s.user_id == record.host_id) for s in seats],
        min_players=spec.min_players, max_players=spec.max_players,
        timer=TIMER_LABELS.get(record.options.get("turn_timer", "off")),
        options=[(label, option_on(record, name)) for name, label in bool_options(spec)],
        rated=record.options.get("rated") is not False,
        expires_at=expires_at if isinstance(expires_at, (int, float)) else None,
        expired=expired,
        challenge=(record.host_id, target) if target is not None else None)
    description = words.description
    if playing_in is not None:
        thread = f"<#{playing_in}>"
        description = (translate(lang, spec.description) + "\n\n"
                       + translate(lang, "**Playing in {thread}.**", thread=thread))
    items = lobby_items(record, seats, spec) if playing_in is None else []
    return card(accent=CLOSED_COLOUR if record.status == "cancelled" else accent_of(spec),
                before=[head or "", f"### {words.title}", description,
                        f"**{words.seats_title}**\n{words.seats}",
                        f"**{words.options_title}**\n{words.options}"],
                rows=action_rows(items), footer=words.footer, lang=lang)


def lobby_items(record: GameRecord, seats: list[SeatRecord],
                spec: GameSpec) -> list[discord.ui.Item[Any]]:
    """Join, Leave, Add AI seat, Start, Cancel (and option toggles), with disabled states;
    for a game offering several AI levels, a select of the level Add AI seat adds at
    (showing the current one, Normal by default). Empty once the lobby is closed."""
    if record.status != "lobby":
        return []
    if challenged(record) is not None:
        return challenge_items(record, lobby_lang(record))
    gid = record.id
    lang = lobby_lang(record)
    full = len(seats) >= spec.max_players
    items: list[discord.ui.Item[Any]] = [
        button("l", gid, "join", translate(lang, "Join"), style=discord.ButtonStyle.success,
               disabled=full),
        button("l", gid, "leave", translate(lang, "Leave")),
        button("l", gid, "ai", translate(lang, "Add AI seat"),
               disabled=full or spec.policy is None),
        button("l", gid, "unai", translate(lang, "Remove AI seat"),
               disabled=not any(s.is_ai for s in seats)),
        button("l", gid, "start", translate(lang, "Start"), style=discord.ButtonStyle.primary,
               disabled=len(seats) < spec.min_players),
        button("l", gid, "cancel", translate(lang, "Cancel"), style=discord.ButtonStyle.danger,
               row=1),
    ]
    items[0].row = items[1].row = items[2].row = items[3].row = items[4].row = 0
    for name, label in bool_options(spec):
        on = option_on(record, name)
        items.append(button("l", gid, f"opt.{name}", option_label(label, on, lang), row=1))
    items.append(button("l", gid, OPTIONS, translate(lang, "Options"), row=1))
    levels = spec.offered_levels()
    if len(levels) > 1:
        chosen = next_ai_level(record, spec)
        options = [discord.SelectOption(
                       label=translate(lang, "AI level: {level}",
                                       level=translate(lang, Level(lv).label)),
                       value=lv, description=translate(lang, LEVEL_HINTS[Level(lv)]),
                       default=lv == chosen)
                   for lv in levels]
        items.append(select("l", gid, "level", options,
                            placeholder=translate(lang, "AI level for new AI seats"),
                            disabled=full, row=2))
    return items
