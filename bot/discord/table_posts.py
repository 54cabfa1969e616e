"""The per-game part of the outbox: a stored change shown in the game's thread.

:class:`TablePosts` turns an :class:`~bot.runtime.Update` into the thread's table (a new
message once per decision, else the table edited in place, the old one's buttons
retired), the reminders and notices, the private events (ephemeral for the clicker, DMs
for the others, hand DMs), the end and the archived thread, through the message economy
of :mod:`bot.discord.outbox`. What a table looks like is :class:`TableLook`'s hooks.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from bot.discord import ack, takeback
from bot.discord.errors import thread_is_gone, thread_refuses, why_not_posted
from bot.discord.installs import is_one_message
from bot.discord.layout import card, texts_of, without_rows
from bot.discord.lean import Posted
from bot.discord.lesson_notes import LessonNotes
from bot.discord.one_message import OneMessage
from bot.discord.outbox import (
    dm_hands,
    edit_table,
    new_table,
    on_message,
    retire,
    show_end,
)
from bot.discord.posting import TableNotShown, posted_anew
from bot.discord.replies import lang_of, send_ephemeral
from bot.discord.result_post import files_of, with_card
from bot.discord.table import MOVES, SHOWS_A_VERSION, Table
from bot.discord.table_lines import event_lines, fit_lines
from bot.discord.table_notices import TableNotices
from bot.games.base import Event
from bot.i18n import translate
from bot.runtime import Update, UpdateKind
from bot.runtime.updates import Sentence, game_title, in_language
from bot.store import STORE_FAILURES, GameRecord

log = logging.getLogger(__name__)


class TablePosts(OneMessage, LessonNotes, TableNotices):
    """How a game cog shows a stored change in its thread (a mixin of
    :class:`bot.discord.game_cog.GameCog`; the outbox calls :meth:`show_update`)."""

    #: game id -> lock serialising the posts of its tables.
    _post_locks: dict[int, asyncio.Lock]
    #: game id -> (table message id, the event lines it shows): a display cache only,
    #: forgotten when the game ends (see _lines_shown).
    _shown: dict[int, tuple[int, list[str]]]
    #: game id -> its table as posted by a click's followup: edits go through that
    #: interaction's token while Discord keeps it (15 minutes), not the bot's.
    _posted: dict[int, Posted | discord.WebhookMessage]
    #: game id -> (version, table message id, pinged key) this cog last stored as the
    #: game's table (:meth:`_note_recorded`).
    _recorded: dict[int, tuple[int, int | None, str | None]]
    #: game id -> the newest state version this cog drew a table for or saw stored.
    _newest: dict[int, int]
    #: game id -> (table message id, its layout without buttons) to retire it by.
    _retired: dict[int, tuple[int, discord.ui.LayoutView]]
    #: game id -> (table message id, the seats its headline pinged when posted).
    _heads: dict[int, tuple[int, list[str]]]
    #: game id -> the members watching it (:class:`bot.discord.watch.Watching`).
    _watchers: dict[int, set[int]]

    def channel_of(self, record: GameRecord) -> discord.abc.Messageable | None:
        """The game's thread (or channel) object, from the cache or as a partial."""
        target = record.thread_id or record.channel_id
        if target is None:
            return None
        return self.bot.get_channel(target) or self.bot.get_partial_messageable(target)  # type: ignore[return-value]

    async def post_table(
        self, table: Table, events: list[Event] | None = None,
        interaction: discord.Interaction | None = None, *, fresh: bool = False,
    ) -> None:
        """Show the table (picture, turn text, buttons) in the thread: a new message when a
        new decision begins (pinging the members who must act, once per decision: the key
        is stored with the game) or with ``fresh`` (/game status), else the current table
        edited in place; the old table's buttons are retired. ``interaction`` (the click that made the change) carries the
        posts where it can (see :mod:`bot.discord.outbox`)."""
        channel = self.channel_of(table.record)
        if channel is None:
            return
        lock = self._post_locks.setdefault(table.record.id, asyncio.Lock())
        async with lock, self.bot.render_slots:
            if is_one_message(table.record):
                await self.post_one_message(table, events, interaction)
                return
            await self._post_table(channel, table, events, interaction, fresh=fresh)

    def _lines_shown(self, game_id: int, message_id: int,
                     interaction: discord.Interaction | None) -> list[str]:
        """The event lines table message ``message_id`` shows now: remembered since this
        process drew it, else read from the clicked message. The bot has no message
        intent, so after a restart an edit by a timer may start the lines afresh (every
        move stays in /game log)."""
        remembered = self._shown.get(game_id)
        if remembered is not None and remembered[0] == message_id:
            return list(remembered[1])
        if interaction is not None and on_message(interaction, message_id):
            return event_lines(interaction.message)
        return []

    def _remember(self, table: Table, message_id: int, lines: list[str],
                  layout: discord.ui.LayoutView | None = None) -> None:
        """Remember what table message ``message_id`` shows: its event ``lines`` and its
        ``layout`` without buttons (to retire it by; see :func:`outbox.retire`)."""
        if table.result is None and table.record.status == "active":
            self._shown[table.record.id] = (message_id, lines[-60:])
            if layout is not None:
                self._retired[table.record.id] = (message_id, without_rows(layout))
        else:
            self.forget(table.record.id)


    async def _post_table(
        self, channel: discord.abc.Messageable, table: Table, events: list[Event] | None,
        interaction: discord.Interaction | None = None, *, fresh: bool = False,
    ) -> None:
        # Two updates of one game can be published out of order (a timer and a click);
        # posts are serialised per game and a table older than the stored state only
        # tells its events, so the newest table is the one with live buttons. One read:
        # the stored game and its rules and turn timers' deadlines. A change just stored
        # on SQLite (one process per file) needs no read; on PostgreSQL another process
        # may have stored and posted a newer table meanwhile.
        gid = table.record.id
        if table.deadlines is None or self.bot.store.dialect != "sqlite":
            stored, due = await self.bot.store.game_and_deadlines(gid)
        else:  # a change just stored: its record, deadlines and what this cog posted since
            stored, due = table.record, table.deadlines
            mine = self._recorded.get(gid)
            if mine is not None and mine[0] >= (stored.table_version or 0):
                stored = stored.model_copy(update={"table_version": mine[0],
                                                   "table_message_id": mine[1],
                                                   "pinged_key": mine[2]})
            if self._newest.get(gid, -1) > stored.version:
                stored = stored.model_copy(update={"version": self._newest[gid]})
        if stored is not None:
            self._newest[gid] = max(self._newest.get(gid, -1), stored.version)
        thread_id = table.record.thread_id or table.record.channel_id
        if stored is not None and stored.version > table.state.version:
            lines = self.public_lines(table, events)
            if lines:
                await new_table(channel, interaction, thread_id,
                                content="\n".join(f"\N{BULLET} {t}" for t in lines)[:2000])
            return
        if stored is not None:
            table.record = stored
        table.deadline = due.get("rules")
        old = table.record.table_message_id
        key: str | None = None
        if table.result is None and table.record.status == "active":
            key = self.ping_key(table)
        if old and not fresh and table.result is not None:
            # The end replaces the last table: it keeps the moves that table told.
            lines = self._lines_shown(table.record.id, old, interaction)
            parts = await self.final_message(table, lines + self.public_lines(table, events))
            if parts is not None:
                parts = await with_card(self.bot, table, parts)
                try:
                    await show_end(channel, interaction, old,
                                   self._posted.get(table.record.id), parts)
                except discord.HTTPException as exc:
                    await self._post_end_anew(channel, table, interaction, old, parts, exc)
                table.shown_end = True
                return
        lines = self.public_lines(table, events)
        refused: discord.HTTPException | None = None
        if old and not fresh and (key is None or key == table.record.pinged_key):
            # A step inside the decision already shown (or the end): the table is edited
            # in place and keeps the earlier steps' lines (see _lines_shown).
            lines = self._lines_shown(table.record.id, old, interaction) + lines
            file = await self.render_file(table)
            # The decision's ping stays written as posted (an edit pings nobody again).
            kept = self._pinged(table, key, old)
            layout = self.table_card(table, lines=lines, deadline=due.get("turn"), humans=kept)
            try:
                await edit_table(channel, interaction, old, self._posted.get(table.record.id),
                                 view=layout, attachments=[file],
                                 allowed_mentions=table.pings(kept))
            except discord.HTTPException as exc:
                # Refused (an old message's edits used up, a permission, the message
                # deleted): the table is posted anew below, with no second ping.
                refused = self._edit_refused(table.record, exc)
            else:
                self._remember(table, old, lines, layout)
                await self.ask_inside_turn(table, interaction)
                return
        if refused is None and table.catchup and await self.adopt_posted(channel, table, key, old):
            return
        humans: list[str] = []
        if key is not None and key != table.record.pinged_key and self.pings_members(table):
            # (a /game status repost of the decision already pinged pings nobody again)
            humans = [s for s in table.pending.seats if table.is_human(s)]
        file = await self.render_file(table)
        deadline = due.get("turn")
        # A click on the old table held for its first write: that write is the old
        # table's retirement, as the click's one response; the new table follows.
        early = ack.pending(interaction) and on_message(interaction, old)
        if early:
            await retire(channel, interaction, old, self._posted.get(table.record.id),
                         self._retired.get(table.record.id))
        try:
            message = await new_table(
                channel, interaction, thread_id,
                view=(layout := self.table_card(table, lines=lines, deadline=deadline,
                                                humans=humans)),
                file=file, allowed_mentions=table.pings(humans),
            )
        except discord.HTTPException as exc:
            if early and not thread_is_gone(exc):
                # The old table lost its buttons already: the catch-up posts the table
                # again (by the bot's token) once it can.
                self.bot.service.start_catch_up(table.record.id)
            if refused is None or thread_is_gone(exc):
                raise
            raise TableNotShown(refused, exc) from exc
        posted = self._posted.pop(table.record.id, None)
        retired = self._retired.pop(table.record.id, None)
        self._remember(table, message.id, lines, layout)
        self._heads[table.record.id] = (message.id, humans)
        if isinstance(message, (Posted, discord.WebhookMessage)) and table.result is None:
            self._posted[table.record.id] = message
        await self.bot.store.update_game(table.record.id, table_message_id=message.id,
                                         pinged_key=key, table_version=table.state.version)
        self._note_recorded(table.record.id, table.state.version, message.id, key)
        table.record = table.record.model_copy(update={"table_message_id": message.id,
                                                       "pinged_key": key,
                                                       "table_version": table.state.version})
        self._turn_pinged[table.record.id] = set(humans)
        self._asked[table.record.id] = self._decision(table)
        for seat_id in humans:
            await self.turn_notice(table, seat_id, message)
        if not early:
            await retire(channel, interaction, old, posted, retired)
        if refused is not None and interaction is not None:
            await send_ephemeral(interaction, posted_anew(refused, lang_of(interaction, table.lang)))

    def _pinged(self, table: Table, key: str | None, message_id: int) -> list[str]:
        """The seats whose members table message ``message_id`` (of decision ``key``)
        pinged when posted, to keep in its edits: as this process posted it, else (after
        a restart) the pending human seats when the game pings for it."""
        posted = self._heads.get(table.record.id)
        if posted is not None and posted[0] == message_id:
            return posted[1]
        if key is None or not self.pings_members(table):
            return []
        return [s for s in table.pending.seats if table.is_human(s)]

    def _edit_refused(self, record: GameRecord, exc: discord.HTTPException
                      ) -> discord.HTTPException:
        """Discord refused the in-place edit of ``record``'s table with ``exc``: return it
        when a new message may show the table instead. Raises it again when the thread is
        gone (the game then ends, see :meth:`thread_gone`), :class:`TableNotShown` when
        the thread itself refuses (locked, out of sight: a post would be refused alike)."""
        if thread_is_gone(exc):
            raise exc
        if thread_refuses(exc):
            raise TableNotShown(exc, None) from exc
        log.info("game %s: the edit of its table was refused (%s); posting it anew",
                 record.id, exc)
        return exc

    async def _post_end_anew(
        self, channel: discord.abc.Messageable, table: Table,
        interaction: discord.Interaction | None, old: int, parts: dict[str, Any],
        exc: discord.HTTPException,
    ) -> None:
        """The end (``parts``: :meth:`final_message`) could not replace the last table
        ``old`` (Discord refused the edit with ``exc``): post it as a new message, retire the
        old table's buttons and tell the member who clicked. Raises as :meth:`_edit_refused`,
        or :class:`TableNotShown` when the post is refused too."""
        refused = self._edit_refused(table.record, exc)
        files = files_of(parts)
        for file in files:
            file.reset()
        view = {"view": parts["view"]} if "view" in parts else {}
        try:
            await new_table(channel, interaction, table.record.thread_id or table.record.channel_id,
                            files=files, **view)
        except discord.HTTPException as post:
            if thread_is_gone(post):
                raise
            raise TableNotShown(refused, post) from post
        await retire(channel, interaction, old, self._posted.get(table.record.id))
        if interaction is not None:
            await send_ephemeral(interaction, posted_anew(refused, lang_of(interaction, table.lang)))


    async def adopt_posted(
        self, channel: discord.abc.Messageable, table: Table, key: str | None,
        old: int | None,
    ) -> bool:
        """Catch-up only: when the newest table in the thread already shows this state's
        version (it was posted, then recording it failed: a full disk, or a crash between
        the post and the write), record that message as the table (with its ping) instead
        of posting a second table and pinging again; the older table's buttons are retired.
        Reads the thread's last few messages (one request). Returns True when adopted;
        False (post as usual) when the newest table is older or the thread cannot be read.
        Raises the store's errors."""
        me = self.bot.user
        found: discord.Message | None = None
        try:
            async for message in channel.history(limit=5):  # type: ignore[attr-defined]
                if me is None or message.author.id != me.id:
                    continue
                footer = next((t for t in texts_of(message)[::-1] if t.startswith("-# ")), "")
                if footer.startswith(f"-# {self.table_title(table)} "):
                    found = message
                    break
        except (discord.HTTPException, AttributeError) as exc:
            log.info("game %s: could not read its thread to catch up: %s", table.record.id, exc)
            return False
        if found is None or footer != f"-# {self.table_footer(table)}":
            return False
        await self.bot.store.update_game(table.record.id, table_message_id=found.id,
                                         pinged_key=key, table_version=table.state.version)
        self._note_recorded(table.record.id, table.state.version, found.id, key)
        table.record = table.record.model_copy(update={"table_message_id": found.id,
                                                       "pinged_key": key,
                                                       "table_version": table.state.version})
        self._remember(table, found.id, event_lines(found))
        if old != found.id:
            await retire(channel, None, old, None, self._retired.pop(table.record.id, None))
        log.info("game %s: its table for move %d was posted but not recorded; recorded now",
                 table.record.id, table.state.version)
        return True

    def _note_recorded(self, game_id: int, version: int, message_id: int | None,
                       key: str | None) -> None:
        """Remember what this cog stored as game ``game_id``'s table: the version shown,
        the message and the decision pinged (newer than an update's record read before)."""
        if self._recorded.get(game_id, (-1,))[0] <= version:
            self._recorded[game_id] = (version, message_id, key)

    def forget(self, game_id: int) -> None:
        """Drop what this cog keeps in memory about game ``game_id`` (the lines its table
        shows, the followup that posted it, its picture inputs, its spectators, its post
        lock): called when the game ends."""
        self._recorded.pop(game_id, None)
        self._newest.pop(game_id, None)
        self._shown.pop(game_id, None)
        self._retired.pop(game_id, None)
        self._heads.pop(game_id, None)
        self._posted.pop(game_id, None)
        self._picture_inputs.pop(game_id, None)
        self._watchers.pop(game_id, None)
        self.forget_one(game_id)
        self._turn_pinged.pop(game_id, None)
        self._asked.pop(game_id, None)
        self.forget_lesson(game_id)
        lock = self._post_locks.get(game_id)
        if lock is not None and not lock.locked():
            del self._post_locks[game_id]

    async def show_update(
        self, update: Update, interaction: discord.Interaction | None = None
    ) -> bool:
        """:meth:`on_update` for a change that is already stored; once shown, its version
        is stored as what the thread shows (``Store.mark_shown``; a version left unshown is
        caught up at the next start). When Discord refuses a
        post in the game's thread the change stays made and the member who acted (if any)
        is told so, with where to look; a deleted thread ends the game (see
        :meth:`thread_gone`). Never raises for a Discord refusal; returns True when
        everything was posted."""
        try:
            if not self.nothing_public(update) or self.lesson_due(update):
                await self.on_update(update, interaction)
            if update.state is not None and update.kind in SHOWS_A_VERSION:
                # The thread shows this version now (a table, a panel edit or a line; some
                # changes show nothing public): start-up catch-up skips it.
                try:
                    if self._recorded.get(update.record.id, (-1,))[0] < update.state.version:
                        await self.bot.store.mark_shown(update.record.id, update.state.version)
                except STORE_FAILURES as exc:  # shown all the same; a restart shows it again
                    log.warning("game %s: could not record the version shown (%s)",
                                update.record.id, exc)
            return True
        except (discord.HTTPException, TableNotShown) as exc:
            what = await self.posting_failed(update.record, exc)
            if interaction is not None:
                gone = isinstance(exc, discord.HTTPException) and thread_is_gone(exc)
                lang = lang_of(interaction, update.record.options.get("language"))
                said = (translate(lang, "Your move was made, but {what}.", what=what(lang))
                        if gone else translate(lang, "Your move was made, but {what}. See "
                                               "/game status.", what=what(lang)))
                await send_ephemeral(interaction, said)
            return False

    async def posting_failed(self, record: GameRecord,
                             exc: discord.HTTPException | TableNotShown) -> Sentence:
        """Deal with Discord refusing a post (or a table's edit, :class:`TableNotShown`) in
        ``record``'s thread after a stored change and return a true clause for the member
        in any language ("I could not post the table in the game's thread (it is
        locked)"). A deleted
        thread ends the game; other refusals are logged (warning, not error: a locked
        thread is a moderator's choice)."""
        where = record.thread_id or record.channel_id
        if isinstance(exc, TableNotShown):
            log.warning("game %s: could not edit its table in %s: %s%s", record.id, where,
                        exc.edit, f"; nor post it anew: {exc.post}" if exc.post else "")
            return exc.clause
        if thread_is_gone(exc):
            await self.thread_gone(record)
            return lambda lang: translate(lang, "the game's thread was deleted, so the game "
                                          "has ended (no scores recorded)")
        log.warning("game %s: could not post in %s: %s", record.id, where, exc)
        refused = exc
        return lambda lang: translate(lang, "I could not post the table in the game's thread "
                                      "({why})", why=why_not_posted(refused, lang))

    async def thread_gone(self, record: GameRecord) -> bool:
        """The game's thread was deleted on Discord: end the game (timers stop, nothing
        more is posted there, no scores) and say so in the lobby's channel. Returns True
        when this call ended it (False: it was not running)."""
        update = await self.bot.service.end_without_thread(record.id)
        self.forget(record.id)
        if update is None:
            return False
        if record.channel_id and record.channel_id != record.thread_id:
            try:
                lang = record.options.get("language")
                await self.bot.get_partial_messageable(record.channel_id).send(
                    "\N{BLACK SQUARE FOR STOP} " + translate(
                        lang, "{title} has ended: its thread was deleted. No scores are "
                        "recorded.", title=game_title(lang, update.spec.name, record.id)))
            except discord.HTTPException as exc:
                log.info("game %s: could not post the end note: %s", record.id, exc)
        return True


    async def on_update(self, update: Update, interaction: discord.Interaction | None = None) -> None:
        """Show what changed: notes, the new table, private events, and the end."""
        if update.state is not None and update.steps and self.presenter is not None:
            self._picture_inputs[update.record.id] = self.presenter.picture_inputs(
                [e for e in update.events() if e.to is None])  # the picture is public
        if update.kind in (UpdateKind.ARCHIVE, UpdateKind.ENDED) and not (
                update.kind == UpdateKind.ENDED and is_one_message(update.record)):
            self.forget(update.record.id)  # (a one-message end still needs its token)
        if update.kind == UpdateKind.ARCHIVE:
            await self.archive(update.record)
            return
        if update.kind == UpdateKind.ENDED and update.state is None:  # a quarantined game
            await self._announce_end(update.record, update.notes)
            return
        if update.kind == UpdateKind.TAKE_BACK:
            await takeback.show_lapsed(self.bot, update)
            return
        if update.kind in (UpdateKind.LOBBY, UpdateKind.CANCELLED, UpdateKind.EXPIRED) or update.state is None:
            return
        table = Table(update.record, update.seats, update.spec, update.state,
                      catchup=update.kind == UpdateKind.CATCHUP, deadlines=update.deadlines,
                      derived=update.derived)
        channel = self.channel_of(table.record)
        if is_one_message(table.record) and update.kind in (UpdateKind.REMINDER,
                                                            UpdateKind.IDLE_NOTICE):
            return  # the one message shows the turn timer; nothing else can be posted
        if update.kind == UpdateKind.REMINDER:
            humans = [s for s in table.pending.seats if table.is_human(s)]
            if channel is not None and humans:
                deadline = int(update.deadline or 0)
                await channel.send(
                    "\N{ALARM CLOCK} " + translate(
                        table.lang, "{who}, half your time is gone: the AI plays for you "
                        "{when}.", who=" ".join(table.mention(s) for s in humans),
                        when=f"<t:{deadline}:R>"),
                    allowed_mentions=table.pings(humans),
                )
            return
        if update.kind == UpdateKind.ENDED:
            if is_one_message(table.record):
                await self.end_one_message(table, " ".join(
                    in_language(n, table.lang) for n in update.notes) or translate(
                        table.lang, "This game was ended early; no scores are recorded."))
                self.forget(table.record.id)
                return
            await self._announce_end(table.record, update.notes)
            return
        if update.kind == UpdateKind.IDLE_NOTICE:
            if channel is not None:
                humans = [s for s in table.pending.seats if table.is_human(s)]
                who = " ".join(table.mention(s) for s in humans)
                said = (translate(table.lang, "This game will end in 24 hours unless someone "
                                  "moves. Waiting for {who}.", who=who) if who else
                        translate(table.lang, "This game will end in 24 hours unless someone "
                                  "moves."))
                await channel.send(f"\N{HOURGLASS WITH FLOWING SAND} {said}",
                                   allowed_mentions=table.pings(humans))
            return
        # Notes (a turn timer ran out) lead the table's lines: no message of their own.
        notes = [Event(type="note", text=in_language(n, table.lang)) for n in update.notes]
        await self.tell_lesson(table, update.events())
        await self.post_table(table, notes + update.events(), interaction)
        await self.send_private_events(table, update, interaction)
        if update.result is not None:
            self.forget(table.record.id)
            await self.finish(table)
        if self.presenter is not None and self.presenter.hand_dm_due(update.events()):
            actor = table.seat_of(interaction.user.id) if interaction else None
            await dm_hands(self.bot, self.presenter, table, actor.seat if actor else None,
                               update.record.version - len(update.steps))

    def lesson_due(self, update: Update) -> bool:
        """True when a lesson has an explanation due for ``update``, which is then shown
        even if it shows nothing else (:meth:`nothing_public`)."""
        if update.state is None or update.kind not in MOVES:
            return False
        table = Table(update.record, update.seats, update.spec, update.state,
                      derived=update.derived)
        return bool(self.lesson_steps(table, update.events()))

    def nothing_public(self, update: Update) -> bool:
        """True for moves that show nothing in the thread: all their events private, no
        note, no result, and steps the presenter calls quiet (:meth:`Presenter.quiet`)."""
        if self.presenter is None or update.kind not in MOVES or update.state is None \
                or not update.steps or update.result is not None or update.notes \
                or any(e.to is None for e in update.events()):
            return False
        return self.presenter.quiet(update.spec.engine.pending(update.state),
                                    [(s.seat, s.action) for s in update.steps])

    async def _announce_end(self, record: GameRecord, notes: list[str] | None = None) -> None:
        """Say in the thread that the game was ended early (``notes``: why, instead of the
        plain sentence) and retire the table's buttons."""
        channel = self.channel_of(record)
        if channel is None:
            return
        lang = record.options.get("language")
        why = " ".join(in_language(n, lang) for n in notes or []) or translate(
            lang, "This game was ended early; no scores are recorded.")
        try:
            await channel.send(f"\N{BLACK SQUARE FOR STOP} {why}"[:2000])
        except discord.HTTPException as exc:  # the game is ended all the same
            log.info("game %s: could not post the end: %s", record.id, exc)
            return
        if record.table_message_id:
            await retire(channel, None, record.table_message_id, None,
                         self._retired.pop(record.id, None))

    async def archive(self, record: GameRecord) -> None:
        """Archive the finished game's thread (its buttons were already retired)."""
        if not record.thread_id or record.thread_id == record.channel_id:
            return
        thread = self.bot.get_channel(record.thread_id)
        try:
            if isinstance(thread, discord.Thread):
                await thread.edit(archived=True)
            else:
                await self.bot.http.edit_channel(record.thread_id, archived=True)
        except discord.HTTPException:
            log.info("could not archive thread %s", record.thread_id)

    async def final_message(self, table: Table,
                            lines: list[str] | None = None) -> dict[str, Any] | None:
        """The end of the game as one message's parts (``view`` and a ``file``), led by
        ``lines`` (the last moves, already named), which then replace the last table in
        place (:func:`bot.discord.outbox.show_end`: no new message, UX.md "A quiet
        thread"); ``None``: the last table shows the last moves and the final scores follow
        as a message of their own (:meth:`finish`). Default: the last moves, the final
        scores (:meth:`final_text`), the final table picture and the footer with the move
        number in one Components V2 message."""
        head = fit_lines(lines or [], 1000, table.lang)
        view = card(accent=self.accent, before=[head], picture="final.png",
                    alt=self.alt_text(table, lines or []),
                    after=["### " + self.final_heading(table),
                           self.final_text(table), table.lesson],
                    footer=self.table_footer(table), lang=table.lang)
        return {"view": view, "file": await self.render_file(table, "final.png")}

    def final_heading(self, table: Table) -> str:
        """The heading of the final scores in the game's language ("Some Game #12:
        final scores")."""
        return translate(table.lang, "{title}: final scores", title=self.table_title(table))

    async def finish(self, table: Table) -> None:
        """Post the final scores (:meth:`final_message`, else :meth:`final_text` under a
        heading in a Components V2 message), unless the last table shows them already (``table.shown_end``)."""
        channel = self.channel_of(table.record)
        if table.result is None or table.shown_end or channel is None:
            return
        parts = await self.final_message(table)
        if parts is None:
            parts = {"view": card(
                accent=self.accent,
                before=["### " + self.final_heading(table), self.final_text(table)],
                lang=table.lang)}
        else:
            parts = await with_card(self.bot, table, parts)
            parts = {"files": files_of(parts), "view": parts["view"]}
        await channel.send(**parts)

