"""The outbox: every stored change of a game becomes Discord messages through here.

The service publishes an :class:`~bot.runtime.Update` after every change (a click, a
timer, an AI move, the end); :class:`Outbox` is its one subscriber. Lobby updates go to
the lobby; game updates to the game's display (found through the lookup the outbox is
built with; a game cog's :meth:`~bot.discord.table_posts.TablePosts.show_update`), which
shows them through the message economy below, the same for all three games:

- at most one new message in the game's thread per turn: the next player's table, with
  its one ping (:func:`new_table`);
- a step inside a turn edits the table in place (:func:`edit_table`), through the click's
  own interaction when it was made on the table;
- the previous table's buttons are retired through the click's interaction when the click
  was made on it (:func:`retire`), a bot-token edit otherwise;
- a new table after a click goes out as the interaction's followup when the click was
  made in the game's thread: interaction requests do not count against Discord's global
  limit on bot-token requests (about 50 per second for a whole bot);
- the end of a game whose cog gives a final message (:meth:`GameCog.final_message`) is
  shown in the last table message, edited in place (:func:`show_end`): no new message;
- private events reach the member who clicked in the click's ephemeral answer; the other
  members get a DM each, or, in a game that DMs hands
  (:attr:`bot.present.base.Presenter.hand_dm_after`), one hand DM per change of turn and
  only for a change they did not see in their own answer (:func:`dm_hands`).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any, Protocol

import discord

from bot.discord import ack, lean
from bot.discord.errors import OOPS_AFTER_CHANGE, STORE_DOWN_AFTER_CHANGE, log_store_error
from bot.discord.host import Host, LobbyUpdates, ShowsUpdates
from bot.discord.layout import retired_copy
from bot.discord.replies import lang_of, send_error
from bot.i18n import translate
from bot.present.base import Presenter
from bot.present.hand_dm import hand_record, parse_hand_record
from bot.runtime import Update, UpdateKind
from bot.store import STORE_FAILURES, GameRecord, SeatRecord

log = logging.getLogger(__name__)


def in_channel(interaction: discord.Interaction | None, channel_id: int | None) -> bool:
    """True when ``interaction`` was made in channel ``channel_id`` (its followups land
    there)."""
    return (interaction is not None and channel_id is not None
            and interaction.channel_id == channel_id)


def on_message(interaction: discord.Interaction | None, message_id: int | None) -> bool:
    """True when ``interaction`` is a click on message ``message_id`` (its response can
    edit that message)."""
    return message_id is not None and lean.message_id(interaction) == message_id


def token_gone(exc: discord.HTTPException) -> bool:
    """True when Discord refused a request made with an interaction's token because the
    token itself is no good (401 50027 Invalid Webhook Token: older than Discord's
    15 minutes; 404 10015 Unknown Webhook), so the same request with the bot's token may
    still work. A 404 10003 (the channel is gone) or 10008 (the message is gone) is not a
    token problem."""
    return exc.status == 401 or (exc.status == 404 and exc.code not in (10003, 10008))


async def new_table(
    channel: discord.abc.Messageable, interaction: discord.Interaction | None,
    channel_id: int | None, **kwargs: Any,
) -> discord.Message | lean.Posted:
    """Post a new message in the game's thread: the interaction's followup when the click
    was made there (no bot-token request), else through the channel. Raises
    :class:`discord.HTTPException` when Discord refuses."""
    return await _post(channel, interaction, channel_id, kwargs)


async def _post(
    channel: discord.abc.Messageable, interaction: discord.Interaction | None,
    channel_id: int | None, kwargs: dict[str, Any],
) -> discord.Message | lean.Posted:
    if interaction is not None and in_channel(interaction, channel_id) and not interaction.is_expired():
        await ack.acknowledge(interaction)  # a followup needs the click answered first
        try:
            return await lean.followup(interaction, **kwargs)
        except discord.HTTPException as exc:
            if not token_gone(exc):
                raise
            # the interaction's token is gone: post as the bot below
        for file in [kwargs.get("file"), *kwargs.get("files", [])]:
            if file is not None:
                file.reset()
    return await channel.send(**kwargs)


async def _through_token(call: Any, kwargs: dict[str, Any]) -> bool:
    """Run ``call(**kwargs)`` (an edit made with an interaction's token); False when the
    token is no good any more (the caller then uses the bot's token; a file is rewound
    for the second try). Raises :class:`discord.HTTPException` for any other refusal."""
    try:
        await call(**kwargs)
        return True
    except discord.HTTPException as exc:
        if not token_gone(exc):
            raise
    for file in kwargs.get("attachments") or []:
        if isinstance(file, discord.File):
            file.reset()
    return False


async def edit_clicked(interaction: discord.Interaction, **kwargs: Any) -> None:
    """Edit the message ``interaction`` was made on with ``kwargs``: as the click's
    response (UPDATE_MESSAGE) while it is held for this write (:mod:`bot.discord.ack`),
    else through ``@original``. Raises :class:`discord.HTTPException` when Discord
    refuses."""
    if not await ack.update(interaction, **kwargs):
        for file in kwargs.get("attachments") or []:
            if isinstance(file, discord.File):
                file.reset()  # (an update that was tried read it)
        await lean.edit_original(interaction, **kwargs)


async def edit_table(
    channel: discord.abc.Messageable, interaction: discord.Interaction | None,
    message_id: int, posted: lean.Posted | discord.WebhookMessage | None = None, **kwargs: Any,
) -> None:
    """Edit the table message ``message_id`` in place without the bot's token where
    possible: through the click's interaction when the click was made on it, else through
    the token of the interaction whose followup posted it (``posted``; Discord keeps an
    interaction's token for 15 minutes), else with the bot's token. Raises
    :class:`discord.HTTPException` when Discord refuses."""
    if interaction is not None and on_message(interaction, message_id):
        if await _through_token(functools.partial(edit_clicked, interaction), kwargs):
            return
    elif posted is not None and posted.id == message_id:
        if await _through_token(posted.edit, kwargs):
            return
    await lean.edit(channel, message_id, **kwargs)


async def retire(
    channel: discord.abc.Messageable, interaction: discord.Interaction | None,
    message_id: int | None, posted: lean.Posted | discord.WebhookMessage | None = None,
    retired: tuple[int, discord.ui.LayoutView] | None = None,
) -> None:
    """Remove the buttons of the old table ``message_id`` (never raises), by the same
    routes as :func:`edit_table`: its layout is edited in again without its action rows
    (``retired``: (message id, that layout) as drawn; else rebuilt from the clicked
    message, else from the message read back: one request). A message that is not a
    Components V2 message loses its view."""
    if not message_id:
        return
    try:
        layout: discord.ui.LayoutView | None = None
        if retired is not None and retired[0] == message_id:
            layout = retired[1]
        elif on_message(interaction, message_id):
            assert interaction is not None and interaction.message is not None
            layout = retired_copy(interaction.message)
        elif hasattr(channel, "fetch_message"):
            layout = retired_copy(await channel.fetch_message(message_id))
        kwargs: dict[str, Any] = {"view": layout}
        await edit_table(channel, interaction, message_id, posted, **kwargs)
    except (discord.HTTPException, AttributeError):
        pass


async def show_end(
    channel: discord.abc.Messageable, interaction: discord.Interaction | None,
    message_id: int, posted: lean.Posted | discord.WebhookMessage | None, parts: dict[str, Any],
) -> None:
    """Show the end of a game in its last table message ``message_id``, edited in place
    by the routes of :func:`edit_table`: ``parts`` (a Components V2 ``view`` and a
    ``file``: the last moves, the scoring and the final picture; ``cards``, more files,
    when given) replace the table; its buttons and the last turn's ping go (an edit pings
    nobody). Raises :class:`discord.HTTPException` when Discord refuses."""
    await edit_table(channel, interaction, message_id, posted, view=parts["view"],
                     attachments=[parts["file"], *parts.get("cards", [])],
                     allowed_mentions=discord.AllowedMentions.none())


class HandTable(Protocol):
    """What :func:`dm_hands` reads of a loaded game (:class:`bot.discord.table.Table`)."""

    record: GameRecord
    seats: list[SeatRecord]
    state: Any

    @property
    def names(self) -> dict[str, str]:
        """Seat id -> display name (markdown-escaped)."""

    def is_human(self, seat_id: str) -> bool:
        """True when a member plays ``seat_id`` now."""

    def view(self, seat_id: str | None) -> Any:
        """The engine's view for ``seat_id``."""


async def dm_hands(bot: Host, presenter: Presenter, table: HandTable, actor: str | None,
                   start: int) -> None:
    """DM each member whose hand changed since their last hand DM, from stored state (the
    seat's ``dm_hand``, :func:`bot.present.hand_dm.hand_record`), with the private lines
    other seats' moves sent them since (:meth:`Presenter.hand_dm`). No DM for a change the
    member made and saw themself: ``actor`` is the seat whose click made this update (its
    private events reached it ephemerally), ``start`` the version before the update's
    first step. The stored hand moves on all the same, so the next DM counts from here.
    One read of the action log at most; raises the store's errors."""
    log_rows: list[Any] | None = None
    for seat in table.seats:
        if not table.is_human(seat.seat) or seat.user_id is None:
            continue
        cards = presenter.hand_cards(table.view(seat.seat))
        since, last = parse_hand_record(seat.dm_hand)
        ids = sorted(c for c, _ in cards)
        if last == ids:
            continue
        if log_rows is None:
            log_rows = await bot.store.actions(table.record.id)
        rows = [row for row in log_rows if row.version > since]
        await bot.store.set_seat(table.record.id, seat.seat,
                                 dm_hand=hand_record(table.state.version, ids))
        unseen = None if actor == seat.seat else start
        if presenter.hand_dm(seat.seat, cards, rows, set(last), table.names, unseen) is None:
            continue
        await bot.notifier.dm(table.record, seat.user_id, functools.partial(
            _hand_dm, presenter, seat.seat, cards, rows, set(last), table.names, unseen))


def _hand_dm(presenter: Presenter, seat: str, cards: list[tuple[int, str]], rows: list[Any],
             had: set[int], names: dict[str, str], unseen: int | None, lang: str) -> str:
    """The hand DM of ``seat`` in ``lang`` (the member's), for the notifier."""
    return presenter.hand_dm(seat, cards, rows, had, names, unseen, lang=lang) or ""


class Outbox:
    """The service's subscriber: routes each update to the lobby or the game's display.

    ``games`` finds the display of a game kind (``None``: no such game here) and
    ``lobby`` the lobby's (``None``: none loaded); both are looked up at each update, so
    displays loaded after the outbox was built are found.

    An unexpected failure while showing a click's change is logged and the member who
    clicked is told truthfully that their move was saved (``OOPS_AFTER_CHANGE``); when the
    database failed meanwhile (a full disk), ``STORE_DOWN_AFTER_CHANGE``, and the catch-up
    shows the change once writes work again.
    """

    def __init__(self, bot: Host, *, games: Callable[[str], ShowsUpdates | None],
                 lobby: Callable[[], LobbyUpdates | None]) -> None:
        self.bot = bot
        self.games = games
        self.lobby = lobby

    async def __call__(self, update: Update) -> None:
        """Show ``update`` (see the module docstring)."""
        interaction = update.origin if isinstance(update.origin, discord.Interaction) else None
        if update.kind in (UpdateKind.LOBBY, UpdateKind.CANCELLED, UpdateKind.EXPIRED):
            lobby = self.lobby()
            if lobby is not None:
                await lobby.on_lobby_update(update)
            return
        display = self.games(update.record.kind)
        if display is None:
            return
        if interaction is None:
            await display.show_update(update)
            return
        try:
            await display.show_update(update, interaction)
        except STORE_FAILURES as exc:
            log_store_error(f"showing {update.kind} of game {update.record.id}", exc)
            self.bot.service.start_catch_up(update.record.id)
            await send_error(interaction, translate(lang_of(interaction),
                                                    STORE_DOWN_AFTER_CHANGE))
        except Exception:
            log.exception("showing %s of game %s failed", update.kind, update.record.id)
            await send_error(interaction, translate(lang_of(interaction), OOPS_AFTER_CHANGE))
