"""Replies that never fail loudly: ephemeral errors, safe followups, expired-token fallback.

When Discord refuses an interaction reply because the interaction is gone (10062: answered
too late) or its token expired (50027), the reply falls back: public-safe text is posted in
the channel with a mention; secret content goes to the member's DMs. The player never sees
"This interaction failed" and never sees another player's secret.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord.utils import MISSING

from bot.discord import ack, lean
from bot.discord.layout import with_head, without_rows
from bot.discord.text import md_name, pinging
from bot.i18n import member_language, translate
from bot.present.base import named
from bot.runtime import GameError

log = logging.getLogger(__name__)

#: Discord error codes herdbot handles.
UNKNOWN_INTERACTION = 10062
INVALID_WEBHOOK_TOKEN = 50027
CANNOT_DM = 50007
INVALID_FORM_BODY = 50035

_GONE = (UNKNOWN_INTERACTION, INVALID_WEBHOOK_TOKEN)

#: Key of :attr:`discord.Interaction.extras`: True while a public command's deferred
#: placeholder ("herdbot is thinking...") still waits for its answer (:func:`defer_command`).
PUBLIC_PENDING = "herdbot.public_pending"


def lang_of(interaction: discord.Interaction, game_lang: str | None = None) -> str:
    """The language of what the member of ``interaction`` alone sees (an ephemeral reply,
    a private panel): their client's when herdbot speaks it, else ``game_lang``, else
    English (:func:`bot.i18n.member_language`)."""
    locale = getattr(interaction, "locale", None)
    return member_language(str(locale) if locale is not None else None, game_lang)


def quoted(value: object, limit: int = 60) -> str:
    """A member's text for an error message: markdown and mentions escaped, cut to
    ``limit`` characters (put it between typographic quotes; never a Python repr)."""
    return md_name(str(value), limit)


async def send_ephemeral(
    interaction: discord.Interaction, content: str | None = None, *, secret: bool = False,
    **kwargs: Any,
) -> bool:
    """Answer ``interaction`` ephemerally, whether or not it was already acknowledged.

    Args:
        secret: the content is private (a hand); if the interaction is gone it goes by DM
            instead of the channel.

    Returns True when the member got the message one way or another. Never raises for a
    Discord HTTP error: when Discord refuses the answer itself (400 50035: over one of its
    limits; a server error), the member gets :func:`refused_answer`'s short sentence
    instead, never an endless "thinking...".
    """
    try:
        if ack.pending(interaction) and await ack.send(
                interaction, content=MISSING if content is None else content, ephemeral=True,
                **kwargs):
            return True  # the click's one response (held for its first answer)
        await ack.acknowledge(interaction)
        if interaction.extras.pop(PUBLIC_PENDING, False):
            # A public command's "thinking..." placeholder would turn into this private
            # answer for everyone to see: remove it, then answer privately.
            await _drop_placeholder(interaction)
        if ack.answered(interaction):
            await lean.followup(interaction, content=content, ephemeral=True, **kwargs)
        else:
            await interaction.response.send_message(content, ephemeral=True, **kwargs)
        return True
    except discord.HTTPException as exc:
        if exc.code not in _GONE and exc.status not in (401, 404):
            log.warning("could not answer interaction %s: %s", interaction.id, exc)
            return await _say_refused(interaction, exc)
        return await _fallback(interaction, content, secret=secret, **kwargs)


def refused_answer(exc: discord.HTTPException, lang: str | None = None) -> str:
    """The sentence a member gets (in ``lang``) instead of an answer Discord refused with
    ``exc``."""
    if exc.code == INVALID_FORM_BODY:
        said = translate(lang, "I could not show my answer: Discord refused it (it did not "
                         "fit Discord's message limits).")
    elif exc.status >= 500:
        said = translate(lang, "I could not show my answer: Discord refused it (a Discord "
                         "server error).")
    else:
        said = translate(lang, "I could not show my answer: Discord refused it (error "
                         "{code}).", code=exc.code or exc.status)
    return f"\N{NO ENTRY SIGN} {said}"


async def _say_refused(interaction: discord.Interaction, exc: discord.HTTPException) -> bool:
    """Tell the member in a short sentence that Discord refused their answer (``exc``);
    False when that is refused too (logged)."""
    said = refused_answer(exc, lang_of(interaction))
    try:
        await ack.acknowledge(interaction)
        if ack.answered(interaction):
            await lean.followup(interaction, content=said, ephemeral=True)
        else:
            await interaction.response.send_message(said, ephemeral=True)
        return True
    except discord.HTTPException as again:
        log.warning("could not tell interaction %s that its answer was refused: %s",
                    interaction.id, again)
        return False


async def _fallback(
    interaction: discord.Interaction, content: str | None, *, secret: bool, **kwargs: Any
) -> bool:
    """The answer the interaction could not take: by DM with ``secret``, else in the
    channel led by the member's mention. A Components V2 panel goes as one without its
    buttons and selects (an ephemeral panel's choices make no sense elsewhere)."""
    view = kwargs.pop("view", None)
    panel = without_rows(view) if isinstance(view, discord.ui.LayoutView) else None
    file = kwargs.pop("file", None)
    extra: dict[str, Any] = {}
    if file is not None:
        file.reset()
        extra["file"] = file
    if "embed" in kwargs:
        extra["embed"] = kwargs["embed"]
    try:
        if secret:
            if panel is not None:
                await interaction.user.send(view=panel, **extra)
            else:
                await interaction.user.send(content, **extra)
        else:
            channel = interaction.channel
            if channel is None or not hasattr(channel, "send"):
                return False
            text = f"{interaction.user.mention} {content or ''}".strip()
            mentions = pinging([interaction.user.id])
            if panel is not None:
                await channel.send(  # type: ignore[union-attr]
                    view=with_head(panel, text), allowed_mentions=mentions, **extra)
            else:
                await channel.send(  # type: ignore[union-attr]
                    text, allowed_mentions=mentions, **extra)
        return True
    except discord.HTTPException as exc:
        log.info("fallback reply for %s failed: %s", interaction.id, exc)
        return False


async def edit_panel(interaction: discord.Interaction, *, private: bool = False, **kwargs: Any) -> None:
    """Edit the message the component sits on (the lobby, an ephemeral panel), whether the
    click was already acknowledged (deferred) or not. With ``private``, a click arriving
    from a public message (a forged custom id) gets a new ephemeral instead, so a private
    panel never replaces a message everyone sees."""
    if private and not lean.on_ephemeral(interaction):
        await send_ephemeral(interaction, secret=True, **kwargs)
        return
    if ack.pending(interaction) and await ack.update(interaction, **kwargs):
        return  # the click's one response (held for its first write)
    await ack.acknowledge(interaction)
    if ack.answered(interaction):
        _rewind(kwargs)
        await lean.edit_original(interaction, **kwargs)
    else:
        await interaction.response.edit_message(**kwargs)


def _rewind(kwargs: dict[str, Any]) -> None:
    """Rewind the files among ``kwargs`` (an update that was tried may have read them)."""
    for file in [kwargs.get("file"), *(kwargs.get("attachments") or [])]:
        if isinstance(file, discord.File):
            file.reset()


async def send_error(interaction: discord.Interaction, message: str | GameError, *,
                     secret: bool = False, lang: str | None = None,
                     names: dict[str, str] | None = None) -> None:
    """Tell the user why their click or command was refused (ephemeral, one sentence):
    ``message`` is the sentence already in the member's language, or a
    :class:`~bot.runtime.GameError` told in ``lang`` (default: the member's,
    :func:`lang_of`; its :meth:`~bot.runtime.GameError.text`); seat ids in it are named
    with ``names``.

    When the interaction is gone the refusal is posted in the channel with a mention, or,
    with ``secret`` (games with hidden hands, whose refusals may name the member's own
    cards), sent by DM and never to the channel."""
    said = (message.text(lang or lang_of(interaction)) if isinstance(message, GameError)
            else message)
    if names:
        said = named(said, names)
    await send_ephemeral(interaction, f"\N{NO ENTRY SIGN} {said}", secret=secret)


async def defer(interaction: discord.Interaction, *, ephemeral: bool = False, thinking: bool = False) -> bool:
    """Acknowledge within Discord's 3 seconds. Returns False when the interaction is gone
    (10062: answered too late); later replies then fall back to the channel or DMs. A
    click whose response is held for its first write (:mod:`bot.discord.ack`) is
    deferred through its guard."""
    if not thinking and ack.ack_of(interaction) is not None:
        return await ack.acknowledge(interaction)
    return await ack.defer_now(interaction, ephemeral=ephemeral, thinking=thinking)


async def defer_command(interaction: discord.Interaction, *, public: bool = False) -> bool:
    """Acknowledge a slash command before any other work: ephemeral, or with ``public`` a
    placeholder everyone sees, which :func:`answer_public` fills in (a refusal sent
    through :func:`send_ephemeral` meanwhile removes it and answers privately). Returns
    False when the interaction is gone (see :func:`defer`)."""
    acked = await defer(interaction, ephemeral=not public, thinking=True)
    if acked and public:
        interaction.extras[PUBLIC_PENDING] = True
    return acked


async def answer_public(interaction: discord.Interaction, **kwargs: Any) -> discord.Message:
    """Fill in a public command's deferred placeholder with ``kwargs`` (a Components
    V2 ``view``, files, allowed mentions ...) and return the message. Raises :class:`discord.HTTPException` when Discord
    refuses."""
    interaction.extras.pop(PUBLIC_PENDING, None)
    return await interaction.edit_original_response(**kwargs)


async def _drop_placeholder(interaction: discord.Interaction) -> None:
    """Delete a public command's unanswered placeholder (never raises)."""
    try:
        await interaction.delete_original_response()
    except discord.HTTPException as exc:
        log.info("could not remove the placeholder of %s: %s", interaction.id, exc)
