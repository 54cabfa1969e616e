"""One acknowledgement per click: the first write to the clicked message as the answer.

A move clicked on a table needs no deferral when its work is done in time: the first write
to the clicked message (the table edited in place, or the old table's buttons retired) goes
out as the interaction's response, Discord's UPDATE_MESSAGE (type 7), one request instead
of a deferral (type 6) and a PATCH of ``@original``. Discord wants an answer within 3
seconds of the click, at any load: an :class:`Ack` defers the click (as every other click
is) when its deadline passes first, and the write then goes by ``@original``.

Exactly one of the two is sent: whoever comes first claims the response; the other waits
for it and knows what went. A click whose first answer is a private reply (a panel, a
hand, a refusal) or an edit of the clicked private panel is held the same way: the reply
goes as the response (CHANNEL_MESSAGE_WITH_SOURCE, type 4: :meth:`Ack.send`), the edit as
UPDATE_MESSAGE (:meth:`Ack.update`). Every other answer acknowledges through
:func:`acknowledge` first, so it behaves as after a deferral.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import aiohttp
import discord

log = logging.getLogger(__name__)

#: Key of :attr:`discord.Interaction.extras` holding the click's :class:`Ack`.
KEY = "herdbot.ack"
#: Key of :attr:`discord.Interaction.extras`: True once Discord said the interaction was
#: acknowledged (400 40060) although discord.py does not know it (a response Discord
#: refused yet took as the answer).
ANSWERED = "herdbot.answered"
#: Discord's 400 "Interaction has already been acknowledged."
ALREADY_ACKNOWLEDGED = 40060
#: A request that got no answer from Discord (the connection failed or timed out).
NO_ANSWER = (OSError, aiohttp.ClientError, TimeoutError)


def answered(interaction: discord.Interaction) -> bool:
    """True when ``interaction`` was acknowledged: by discord.py's count, or as Discord
    said (:data:`ANSWERED`). Its answers then go by followup or ``@original``."""
    return interaction.response.is_done() or bool(interaction.extras.get(ANSWERED))


def _note_answered(interaction: discord.Interaction, exc: BaseException) -> bool:
    """True (and remembered, :data:`ANSWERED`) when ``exc`` is Discord saying that
    ``interaction`` was acknowledged already."""
    if isinstance(exc, discord.HTTPException) and exc.code == ALREADY_ACKNOWLEDGED:
        interaction.extras[ANSWERED] = True
        return True
    return False


async def defer_now(interaction: discord.Interaction, *, ephemeral: bool = False,
                    thinking: bool = False) -> bool:
    """Defer ``interaction`` unless it was answered (True also when Discord says it was:
    400 40060). False when the interaction is gone (10062: answered too late) or Discord
    refused the deferral or did not answer it (a failed connection; logged, one line)."""
    if answered(interaction):
        return True
    try:
        await interaction.response.defer(ephemeral=ephemeral, thinking=thinking)
        return True
    except discord.NotFound:
        return False
    except discord.HTTPException as exc:
        if _note_answered(interaction, exc):
            return True
        log.info("defer failed for %s: %s", interaction.id, exc)
        return False
    except NO_ANSWER as exc:
        log.warning("defer of %s got no answer: %s", interaction.id, repr(exc))
        return False


def _retrieved(task: asyncio.Future[bool | None]) -> None:
    """Done-callback of a deferral task: its exception (if any) is retrieved and logged
    here, so none is left unretrieved when nobody awaits the task."""
    if not task.cancelled() and task.exception() is not None:
        log.warning("deferral failed: %r", task.exception())


class Ack:
    """The one response of a click on a message, sent by :meth:`update` (type 7) or, past
    ``delay_s`` seconds from now or at the first other answer, by a deferral (type 6).

    Made in a running event loop; held in ``interaction.extras`` (:func:`ack_of`) until
    :meth:`close`.
    """

    def __init__(self, interaction: discord.Interaction, delay_s: float) -> None:
        self.interaction = interaction
        #: The response claimed: resolves to True (acknowledged), False (the interaction is
        #: gone) or None (an update Discord refused: nothing acknowledged yet).
        self._sent: asyncio.Future[bool | None] | None = None
        self._timer = asyncio.get_running_loop().call_later(max(0.0, delay_s),
                                                            self._at_deadline)
        interaction.extras[KEY] = self

    @property
    def pending(self) -> bool:
        """True while no response was sent nor is on its way."""
        return self._sent is None

    def _at_deadline(self) -> None:
        if self._sent is None:
            self._claim_defer()

    def _claim_defer(self) -> asyncio.Future[bool | None]:
        self._timer.cancel()
        task: asyncio.Future[bool | None] = asyncio.ensure_future(defer_now(self.interaction))
        task.add_done_callback(_retrieved)
        self._sent = task
        return task

    async def acknowledge(self) -> bool:
        """Make sure the click is acknowledged: deferred now unless a response was sent or
        is on its way (then wait for it). False when the interaction is gone."""
        while True:
            sent = self._sent if self._sent is not None else self._claim_defer()
            done = await asyncio.shield(sent)
            if done is not None:
                return done
            if self._sent is sent:  # a refused update the updater has not replaced yet
                self._sent = None

    async def update(self, **kwargs: Any) -> bool:
        """Edit the clicked message with ``kwargs`` (those of
        :meth:`discord.InteractionResponse.edit_message`) as the click's response: True.
        False when the click was acknowledged otherwise already (deferred at its deadline,
        or Discord answers 400 40060: a retry after a server error found the update made):
        the caller edits ``@original`` instead. When Discord refuses the update, the click
        is deferred (unless it is gone) and the :class:`discord.HTTPException` raised."""
        return await self._respond(self.interaction.response.edit_message, kwargs)

    async def send(self, **kwargs: Any) -> bool:
        """Answer the click with a new message of ``kwargs`` (those of
        :meth:`discord.InteractionResponse.send_message`, such as an ephemeral panel) as
        its response (CHANNEL_MESSAGE_WITH_SOURCE): True. False when the click was
        acknowledged otherwise already: the caller sends a followup instead. True also
        when Discord answers 400 40060 to it (a retry after a server error found the
        message made: a followup would show it twice). Refusals as :meth:`update`."""
        return await self._respond(self.interaction.response.send_message, kwargs,
                                   repeatable=False)

    async def _respond(self, call: Any, kwargs: dict[str, Any], repeatable: bool = True,
                       ) -> bool:
        """``call(**kwargs)`` (a response of the interaction) as the click's one response
        (see :meth:`update`); ``repeatable``: the caller may make the same write again
        when Discord says the click was answered (400 40060)."""
        if self._sent is not None:
            await self.acknowledge()
            return False
        claim: asyncio.Future[bool | None] = asyncio.get_running_loop().create_future()
        if answered(self.interaction):  # answered without this guard
            self._timer.cancel()
            claim.set_result(True)
            self._sent = claim
            return False
        self._sent = claim
        self._timer.cancel()
        try:
            made = await call(**kwargs)
        except BaseException as exc:
            if _note_answered(self.interaction, exc):
                # Answered after all (a server error's retry found the first attempt
                # made): the caller edits @original, which is safe to repeat.
                claim.set_result(True)
                return not repeatable
            if isinstance(exc, discord.NotFound) and exc.code == 10062:
                claim.set_result(False)  # gone: no answer can reach it any more
            else:
                self._sent = None
                claim.set_result(None)
                if not isinstance(exc, asyncio.CancelledError):
                    await self.acknowledge()
            raise
        if made is None and not self.interaction.response.is_done():
            # (not a click on a message: discord.py sends no update for it)
            self._sent = None
            claim.set_result(None)
            await self.acknowledge()
            return False
        claim.set_result(True)
        return True

    async def close(self) -> None:
        """The click's handling is over: acknowledged now when nothing answered it."""
        self._timer.cancel()
        if self._sent is None:
            await self.acknowledge()
        elif not self._sent.done():
            await asyncio.shield(self._sent)
        self.interaction.extras.pop(KEY, None)


def ack_of(interaction: discord.Interaction | None) -> Ack | None:
    """The :class:`Ack` of ``interaction`` while its handling runs, else None."""
    if interaction is None:
        return None
    found = interaction.extras.get(KEY)
    return found if isinstance(found, Ack) else None


def pending(interaction: discord.Interaction | None) -> bool:
    """True when ``interaction``'s response is held for its first write (:class:`Ack`)."""
    guard = ack_of(interaction)
    return guard is not None and guard.pending


async def acknowledge(interaction: discord.Interaction) -> bool:
    """Acknowledge ``interaction`` through its :class:`Ack` when it has one (see
    :meth:`Ack.acknowledge`); True otherwise (nothing held)."""
    guard = ack_of(interaction)
    return await guard.acknowledge() if guard is not None else True


async def update(interaction: discord.Interaction, **kwargs: Any) -> bool:
    """:meth:`Ack.update` of ``interaction``'s :class:`Ack`; False when it has none."""
    guard = ack_of(interaction)
    return await guard.update(**kwargs) if guard is not None else False


async def send(interaction: discord.Interaction, **kwargs: Any) -> bool:
    """:meth:`Ack.send` of ``interaction``'s :class:`Ack`; False when it has none."""
    guard = ack_of(interaction)
    return await guard.send(**kwargs) if guard is not None else False
