"""Who is told what privately about a change shown in a game's thread: the turn notices
(opt-in DMs), a member asked to decide inside another's turn (a DM: the edited table pings
nobody), and the private events (ephemeral for the clicker, DMs for the others; in a game
played in one message, kept for the others' next private answer, :mod:`bot.discord.unseen`)."""

from __future__ import annotations

from typing import Any

import discord

from bot.discord.installs import is_one_message
from bot.discord.lean import Posted
from bot.discord.replies import send_ephemeral
from bot.discord.table import Table, TableLook
from bot.discord.unseen import since
from bot.games.base import Event
from bot.i18n import member_language, translate
from bot.runtime import Update
from bot.runtime.core import is_lesson

#: Characters the kept lines may take in the actor's answer (its whole text: 1,900).
KEPT_CHARS = 1400


def your_turn(lang: str) -> str:
    """The turn notice DM, in ``lang``."""
    return translate(lang, "It is your turn.")


def your_move(lang: str) -> str:
    """The DM asking for a decision inside another's turn, in ``lang``."""
    return translate(lang, "It is your move: see the table.")


class TableNotices(TableLook):
    """The private side of showing a change (a mixin of
    :class:`bot.discord.table_posts.TablePosts`)."""

    #: game id -> the seats the turn's table message pinged (:meth:`ask_inside_turn`).
    _turn_pinged: dict[int, set[str]]
    #: game id -> the last decision whose members were pinged or asked by DM.
    _asked: dict[int, str]

    @staticmethod
    def _decision(table: Table) -> str:
        pending = table.pending
        return f"{pending.kind}:{pending.key}:{','.join(pending.seats)}"

    async def ask_inside_turn(self, table: Table,
                              interaction: discord.Interaction | None) -> None:
        """A decision inside the turn, shown by editing the turn's table (which pings
        nobody), owed by members its message did not ping (an effect asking another
        player to choose): each is sent one DM per decision, "It is your move", unless
        they made the click that led to it. Reaction windows name nobody."""
        gid = table.record.id
        if table.result is not None or not self.pings_members(table) or is_lesson(table.record):
            return  # (a lesson's table is in the member's DM already)
        decision = self._decision(table)
        if self._asked.get(gid) == decision:
            return
        self._asked[gid] = decision
        pinged = self._turn_pinged.get(gid, set())
        clicker = interaction.user.id if interaction is not None else None
        for seat_id in table.pending.seats:
            seat = table.seat(seat_id)
            if table.is_human(seat_id) and seat_id not in pinged and seat.user_id != clicker:
                assert seat.user_id is not None
                await self.bot.notifier.dm(table.record, seat.user_id, your_move)

    async def turn_notice(self, table: Table, seat_id: str,
                          message: discord.Message | Posted) -> None:
        """DM a turn notice to a member who opted in with ``/notify on``."""
        user_id = table.seat(seat_id).user_id
        if user_id is None or is_lesson(table.record) \
                or not await self.bot.store.turn_notices(user_id):
            return
        await self.bot.notifier.dm(table.record, user_id, your_turn)

    async def send_private_events(
        self, table: Table, update: Update, interaction: discord.Interaction | None
    ) -> None:
        """Private events reach their seat: the actor by an ephemeral followup (a panel of
        its own where :meth:`event_panel` gives one), others by DM, or in a game that DMs
        hands, in their next hand DM (:func:`bot.discord.outbox.dm_hands`). In a game
        played in one message the others' lines wait for their next private answer, and
        the actor's answer starts with the lines kept for them; the lines kept for a member are
        in their last seen language."""
        actor = table.seat_of(interaction.user.id) if interaction else None
        if interaction is not None and table.client_locale is None:
            table.client_locale = str(interaction.locale)  # the actor's panels: their language
        one = is_one_message(table.record)
        later = not one and self.presenter is not None and self.presenter.hand_dm_after is not None
        per_seat: dict[str, list[str]] = {}
        langs: dict[str, str | None] = {}
        if one and actor is not None:
            kept = await self.bot.store.take_unseen(table.record.id, actor.seat)
            if kept:
                per_seat[actor.seat] = [since(table.member_lang, kept, KEPT_CHARS)]
        for event in update.events():
            for seat in event.to or []:
                if actor is not None and seat == actor.seat and interaction is not None:
                    panel = await self.event_panel(table, seat, event)
                    if panel is not None:
                        await send_ephemeral(interaction, secret=True, **panel)
                        continue
                elif later:
                    continue
                mine = actor is not None and seat == actor.seat
                lang = table.member_lang if mine else (
                    await self._kept_lang(table, seat, langs) if one else None)
                per_seat.setdefault(seat, []).append(self.event_line(table, event, lang=lang))
        await self.deliver_private(table, per_seat, interaction)

    async def _kept_lang(self, table: Table, seat: str, langs: dict[str, str | None]
                         ) -> str | None:
        """The language of the lines kept for ``seat`` of a one-message game: its member's
        last seen client locale, else the game's (read once per call: ``langs``); ``None``
        (the game's) for an AI seat."""
        if seat not in langs:
            user_id = table.seat(seat).user_id
            langs[seat] = None if user_id is None or not table.is_human(seat) else \
                member_language(await self.bot.store.member_locale(user_id), table.lang)
        return langs[seat]

    async def event_panel(self, table: Table, seat: str, event: Event) -> dict[str, Any] | None:
        """Keyword arguments of an ephemeral panel that shows private ``event`` to ``seat``,
        the member who just acted, instead of its line (a drawn pair with its Keep
        buttons); ``None`` (the default): the line."""
        return None

    async def deliver_private(
        self, table: Table, per_seat: dict[str, list[str]],
        interaction: discord.Interaction | None,
    ) -> None:
        """Send each human seat its private lines: the member who clicked gets an ephemeral
        followup, everyone else a DM (through the notifier's opt-outs and closed-DM memory)."""
        actor = table.seat_of(interaction.user.id) if interaction else None
        for seat_id, texts in per_seat.items():
            if not table.is_human(seat_id):
                continue
            body = "\n".join(texts)[:1900]
            if actor is not None and actor.seat == seat_id and interaction is not None:
                await send_ephemeral(interaction, body, secret=True)
            elif is_one_message(table.record):  # no DM there: shown at their next look
                if table.result is None:  # (over: nobody looks again)
                    await self.bot.store.keep_unseen(table.record.id, seat_id, texts)
            else:
                user_id = table.seat(seat_id).user_id
                assert user_id is not None
                await self.bot.notifier.dm(table.record, user_id, body)
