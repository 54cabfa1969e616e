"""Writes to Discord whose answers are not parsed into discord.py messages.

discord.py builds a whole :class:`discord.Message` (every Components V2 component parsed
again) from Discord's answer to each message it sends or edits, and from the clicked
message of each interaction. The bot reads the id of a message it posted and nothing
else of these answers, so its clicks and edits go through here instead: the same
requests, built by discord.py's own :func:`discord.http.handle_message_parameters` and
sent by its own HTTP client and webhook adapter (its rate limits, retries and
:class:`discord.HTTPException` with Discord's status and code), whose answers are read
for ids only:

- :class:`Click`: an interaction (built from its gateway form) whose clicked message is
  parsed only when read, and whose UPDATE_MESSAGE response, new message and deferral
  (``response.edit_message``, ``response.send_message``, ``response.defer``) read
  nothing of the message in Discord's answer;
- :func:`followup`, :func:`edit_followup`: an interaction's followup sent (a
  :class:`Posted`, not a :class:`discord.WebhookMessage`, comes back) or edited;
- :func:`send`: a message sent with the bot's token (``Messageable.send``), its id
  returned;
- :func:`edit_original`: an interaction's ``@original`` edited
  (``Interaction.edit_original_response`` without the message it returns);
- :func:`edit`: a message edited with the bot's token (``PartialMessage.edit`` without the
  message it returns).

Views are tracked by discord.py's view store as its own calls track them.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

import discord
from discord.interactions import InteractionCallbackResponse
from discord.utils import MISSING, cached_slot_property
from discord.webhook.async_ import (
    async_context,
    interaction_message_response_params,
    interaction_response_params,
)

#: No message flags (discord.py's ``MISSING``).
_NO_FLAGS: Any = MISSING
#: discord.py's slot of :attr:`discord.Interaction.message`, where :class:`Click` keeps it.
_MESSAGE: Any = discord.Interaction.__dict__["message"]


class Posted:
    """A message posted by an interaction's followup: its ``id``, its ``channel_id``, and
    :meth:`edit` through the same interaction token (Discord keeps it for 15 minutes)."""

    __slots__ = ("id", "channel_id", "_webhook")

    def __init__(self, message_id: int, channel_id: int, webhook: discord.Webhook) -> None:
        self.id = message_id
        self.channel_id = channel_id
        self._webhook = webhook

    def __repr__(self) -> str:
        return f"<Posted id={self.id} channel_id={self.channel_id}>"

    async def edit(self, **kwargs: Any) -> None:
        """:meth:`discord.WebhookMessage.edit` of this message (same keywords). Raises
        :class:`discord.HTTPException` when Discord refuses."""
        await self._webhook.edit_message(self.id, **kwargs)


class _Followups(discord.Webhook):
    """An interaction's followup webhook whose posted and edited messages come back as
    :class:`Posted` (ids only)."""

    def _create_message(self, data: Any, *, thread: Any) -> Posted:  # type: ignore[override]
        return Posted(int(data["id"]), int(data["channel_id"]), self)


class _Response(discord.InteractionResponse["discord.Client"]):
    """A click's response whose UPDATE_MESSAGE does not parse the updated message that
    Discord sends back."""

    async def edit_message(
        self, *, content: Any = MISSING, embed: discord.Embed | None = MISSING,
        embeds: Sequence[discord.Embed] = MISSING,
        attachments: Sequence[discord.Attachment | discord.File] = MISSING,
        view: discord.ui.View | discord.ui.LayoutView | None = MISSING,
        allowed_mentions: discord.AllowedMentions | None = MISSING,
        delete_after: float | None = None, suppress_embeds: bool = MISSING,
    ) -> InteractionCallbackResponse[discord.Client] | None:
        """:meth:`discord.InteractionResponse.edit_message`, its answer's ``resource``
        left unread (discord.py's own when ``delete_after`` or ``suppress_embeds`` is
        given): None when the interaction is not on a message (nothing sent). Raises
        :class:`discord.InteractionResponded` when it was answered already,
        :class:`discord.HTTPException` when Discord refuses."""
        if delete_after is not None or suppress_embeds is not MISSING:
            return await super().edit_message(
                content=content, embed=embed, embeds=embeds, attachments=attachments,
                view=view, allowed_mentions=allowed_mentions, delete_after=delete_after,
                suppress_embeds=suppress_embeds)
        if self._response_type:
            raise discord.InteractionResponded(self._parent)
        parent = self._parent
        message_id = parent.message_id  # type: ignore[attr-defined]
        state = parent._state
        if parent.type not in (discord.InteractionType.component,
                               discord.InteractionType.modal_submit):
            return None
        if view is not MISSING and message_id is not None:
            state.prevent_view_updates_for(message_id)
        params = interaction_message_response_params(
            type=discord.InteractionResponseType.message_update.value,
            content=content, embed=embed, embeds=embeds, view=view, attachments=attachments,
            previous_allowed_mentions=state.allowed_mentions,
            allowed_mentions=allowed_mentions, flags=_NO_FLAGS)
        response = await self._answer(discord.InteractionResponseType.message_update, params)
        if view and not view.is_finished() and view.is_dispatchable():
            state.store_view(view, message_id)
        return response

    async def send_message(  # type: ignore[override]
        self, content: Any = None, *, embed: discord.Embed = MISSING,
        embeds: Sequence[discord.Embed] = MISSING, file: discord.File = MISSING,
        files: Sequence[discord.File] = MISSING,
        view: Any = MISSING, ephemeral: bool = False,
        allowed_mentions: discord.AllowedMentions = MISSING, **kwargs: Any,
    ) -> InteractionCallbackResponse[discord.Client]:
        """:meth:`discord.InteractionResponse.send_message` (CHANNEL_MESSAGE_WITH_SOURCE),
        the message in its answer left unparsed (discord.py's own for any other keyword,
        such as ``delete_after``); its view kept as a followup's is (when it has
        callbacks). Raises as that does."""
        if kwargs:
            return await super().send_message(
                content, embed=embed, embeds=embeds, file=file, files=files, view=view,
                ephemeral=ephemeral, allowed_mentions=allowed_mentions, **kwargs)
        if self._response_type:
            raise discord.InteractionResponded(self._parent)
        state = self._parent._state
        params = interaction_message_response_params(
            type=discord.InteractionResponseType.channel_message.value, content=content,
            embed=embed, embeds=embeds, file=file, files=files, view=view,
            previous_allowed_mentions=state.allowed_mentions,
            allowed_mentions=allowed_mentions,
            flags=discord.MessageFlags(ephemeral=True) if ephemeral else _NO_FLAGS)
        response, data = await self._send(discord.InteractionResponseType.channel_message,
                                          params)
        if view and not view.is_finished() and view.is_dispatchable():
            if ephemeral and view.timeout is None:
                view.timeout = 15 * 60.0  # (as discord.py: an ephemeral message's token)
            message = (data.get("resource") or {}).get("message") or {}
            state.store_view(view, int(message["id"]) if "id" in message else None)
        return response

    async def defer(self, *, ephemeral: bool = False, thinking: bool = False,
                    ) -> InteractionCallbackResponse[discord.Client] | None:
        """:meth:`discord.InteractionResponse.defer`, its answer's ``resource`` left
        unread. Raises as that does."""
        if self._response_type:
            raise discord.InteractionResponded(self._parent)
        kind = self._parent.type
        data: dict[str, Any] | None = None
        if kind in (discord.InteractionType.component, discord.InteractionType.modal_submit):
            answer = (discord.InteractionResponseType.deferred_channel_message if thinking
                      else discord.InteractionResponseType.deferred_message_update)
            if thinking and ephemeral:
                data = {"flags": 64}
        elif kind is discord.InteractionType.application_command:
            answer = discord.InteractionResponseType.deferred_channel_message
            if ephemeral:
                data = {"flags": 64}
        else:
            return None
        return await self._answer(answer, interaction_response_params(
            type=answer.value, data=data))

    async def _answer(self, answer: discord.InteractionResponseType, params: Any,
                      ) -> InteractionCallbackResponse[discord.Client]:
        """Send the interaction response ``params`` (of type ``answer``) as discord.py
        does; its answer read for the interaction's part only."""
        return (await self._send(answer, params))[0]

    async def _send(self, answer: discord.InteractionResponseType, params: Any,
                    ) -> tuple[InteractionCallbackResponse[discord.Client], dict[str, Any]]:
        """:meth:`_answer`, and Discord's answer as it came."""
        parent = self._parent
        http = parent._state.http
        data = await async_context.get().create_interaction_response(
            parent.id, parent.token, session=parent._session, proxy=http.proxy,
            proxy_auth=http.proxy_auth, params=params)
        self._response_type = answer
        return InteractionCallbackResponse(
            data={"interaction": data["interaction"]},  # type: ignore[typeddict-item]
            parent=parent, state=parent._state, type=answer), data  # type: ignore[return-value]


class Click(discord.Interaction["discord.Client"]):
    """A :class:`discord.Interaction` built from its gateway form (same arguments) whose
    writes read ids only of Discord's answers (see the module docstring); its
    ``message`` (the clicked message) is parsed the first time it is read."""

    __slots__ = ("_message_data", "_message_parsed", "message_id")

    def _from_data(self, data: Any) -> None:
        raw = data.get("message")
        self._message_data = raw
        self._message_parsed = True  # (discord.py reads it back: None until parsed)
        self.message_id: int | None = int(raw["id"]) if raw is not None else None
        unparsed: Any = ({k: v for k, v in data.items() if k != "message"}
                         if raw is not None else data)
        super()._from_data(unparsed)
        self._message_parsed = raw is None

    @property  # type: ignore[override]
    def message(self) -> discord.Message | None:
        """The clicked message, parsed from the interaction's data when first read."""
        if not self._message_parsed:
            self._message_parsed = True
            message = discord.Message(state=self._state, channel=self.channel,  # type: ignore[arg-type]
                                      data=self._message_data)
            if message.guild is None and self.guild_id:
                message.guild = self.guild
            _MESSAGE.__set__(self, message)
        return _MESSAGE.__get__(self)  # type: ignore[no-any-return]

    @message.setter
    def message(self, value: discord.Message | None) -> None:
        _MESSAGE.__set__(self, value)

    @cached_slot_property("_cs_response")
    def response(self) -> _Response:  # type: ignore[override]
        """The click's response (:class:`_Response`)."""
        return _Response(self)



def _followups(interaction: discord.Interaction) -> _Followups:
    """``interaction.followup``, whose messages come back as :class:`Posted`."""
    return _Followups.from_state(
        data={"id": interaction.application_id, "type": 3, "token": interaction.token},
        state=interaction._state)


async def followup(interaction: discord.Interaction, **kwargs: Any) -> Posted:
    """``interaction.followup.send(**kwargs)`` (``wait`` as an interaction's followup
    always waits), Discord's answer read for the message's ids only. Raises
    :class:`discord.HTTPException` when Discord refuses."""
    posted = await _followups(interaction).send(**kwargs)
    assert isinstance(posted, Posted)  # (what _Followups makes of Discord's answer)
    return posted


async def edit_followup(interaction: discord.Interaction, message_id: int,
                        **kwargs: Any) -> None:
    """``interaction.followup.edit_message(message_id, **kwargs)``, Discord's answer left
    unread. Raises :class:`discord.HTTPException` when Discord refuses."""
    await _followups(interaction).edit_message(message_id, **kwargs)


def message_id(interaction: discord.Interaction | None) -> int | None:
    """The id of the message ``interaction`` was made on (None: none), without parsing
    the message when the interaction is a :class:`Click`."""
    if interaction is None:
        return None
    if isinstance(interaction, Click):
        return interaction.message_id
    message = interaction.message
    return message.id if message is not None else None


async def edit_original(
    interaction: discord.Interaction, *, content: Any = MISSING,
    embed: discord.Embed | None = MISSING, embeds: Sequence[discord.Embed] = MISSING,
    attachments: Sequence[discord.Attachment | discord.File] = MISSING,
    view: discord.ui.View | discord.ui.LayoutView | None = MISSING,
    allowed_mentions: discord.AllowedMentions | None = MISSING,
) -> None:
    """:meth:`discord.Interaction.edit_original_response` (PATCH ``@original``) without
    the message it returns. Raises :class:`discord.HTTPException` when Discord
    refuses."""
    state = interaction._state
    http = state.http
    with discord.http.handle_message_parameters(
        content=content, attachments=attachments, embed=embed, embeds=embeds, view=view,
        allowed_mentions=allowed_mentions, previous_allowed_mentions=state.allowed_mentions,
    ) as params:
        data = await async_context.get().edit_original_interaction_response(
            interaction.application_id, interaction.token, session=interaction._session,
            proxy=http.proxy, proxy_auth=http.proxy_auth, payload=params.payload,
            multipart=params.multipart, files=params.files)
    if view and not view.is_finished() and view.is_dispatchable():
        state.store_view(view, int(data["id"]))


def has_message(interaction: discord.Interaction) -> bool:
    """True when ``interaction`` was made on a message, without parsing the message when
    the interaction is a :class:`Click`."""
    if isinstance(interaction, Click):
        return interaction.message_id is not None
    return interaction.message is not None


def on_ephemeral(interaction: discord.Interaction) -> bool:
    """True when ``interaction`` was made on an ephemeral message, without parsing the
    message when the interaction is a :class:`Click`."""
    if isinstance(interaction, Click) and not interaction._message_parsed:
        raw = interaction._message_data
        return bool(int(raw.get("flags") or 0) & discord.MessageFlags.ephemeral.flag)
    message = interaction.message
    return message is not None and message.flags.ephemeral


async def send(channel: discord.abc.Messageable, content: str | None = None, *,
               file: discord.File | None = None, files: Sequence[discord.File] | None = None,
               view: discord.ui.View | discord.ui.LayoutView | None = None,
               allowed_mentions: discord.AllowedMentions | None = None) -> int:
    """:meth:`discord.abc.Messageable.send` with the bot's token (its nonce too), the
    message Discord sends back read for its id only: returns that id. Raises
    :class:`discord.HTTPException` when Discord refuses."""
    channel = await channel._get_channel()
    state = channel._state
    with discord.http.handle_message_parameters(
        content=str(content) if content is not None else None, tts=False,
        file=file if file is not None else MISSING,
        files=files if files is not None else MISSING, embed=MISSING, embeds=MISSING,
        nonce=secrets.randbits(64), allowed_mentions=allowed_mentions,
        message_reference=MISSING, previous_allowed_mentions=state.allowed_mentions,
        mention_author=None, stickers=MISSING, view=view, flags=MISSING, poll=None,  # type: ignore[arg-type]
    ) as params:
        data = await state.http.send_message(channel.id, params=params)
    sent = int(data["id"])
    if view and not view.is_finished() and view.is_dispatchable():
        state.store_view(view, sent)
    return sent


async def edit(channel: discord.abc.Messageable, message_id: int, *, content: Any = MISSING,
               embed: discord.Embed | None = MISSING,
               embeds: Sequence[discord.Embed] = MISSING,
               attachments: Sequence[discord.Attachment | discord.File] = MISSING,
               view: discord.ui.View | discord.ui.LayoutView | None = MISSING,
               allowed_mentions: discord.AllowedMentions | None = MISSING) -> None:
    """:meth:`discord.PartialMessage.edit` of message ``message_id`` in ``channel`` (a
    channel or thread with an ``id``) with the bot's token, the message Discord sends
    back left unparsed. Raises :class:`discord.HTTPException` when Discord refuses."""
    state = channel._state  # type: ignore[attr-defined]
    previous = state.allowed_mentions if content is not MISSING else None
    if view is not MISSING:
        state.prevent_view_updates_for(message_id)
    with discord.http.handle_message_parameters(
        content=content, embed=embed, embeds=embeds, attachments=attachments, view=view,
        allowed_mentions=allowed_mentions, previous_allowed_mentions=previous,
    ) as params:
        await state.http.edit_message(channel.id, message_id,  # type: ignore[attr-defined]
                                      params=params)
    if view and not view.is_finished() and view.is_dispatchable():
        state.store_view(view, message_id)
