"""The replay viewer: a finished game stepped through privately, and its animation.

``/game replay`` and the Replay button of the end message open, to the member alone (an
ephemeral Components V2 message), one step of a finished game of the server: the table
picture at that moment as a spectator saw it, the step's own words (the events stored
with its move), and First, Previous, Next, Last, a jump select and Export. At the last
step of a finished game the final scores and every hand left are shown, as at the end.

Every component's custom id (scope ``r``, :mod:`bot.discord.ids`) names the game and the
step to show, so a viewer opened before a restart keeps working after it: codes
``f<n>``/``p<n>``/``n<n>``/``l<n>`` (First, Previous, Next, Last: show step ``n``),
``j`` (the jump select; its value is the step), ``gif`` (Export) and ``open`` (the end
message's Replay button). The replays read lately are kept (:data:`REPLAYS_KEPT`), and
the pictures go through the bot's picture cache (:meth:`Host.draw`), bounded there.
"""

from __future__ import annotations

import asyncio
import io
import re
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import discord

from bot.discord import ids
from bot.discord.components import HerdButton, button, select
from bot.discord.host import Host
from bot.discord.layout import action_rows, card
from bot.discord.replies import lang_of, send_ephemeral
from bot.discord.table import Table, TableLook
from bot.discord.table_lines import fit_lines
from bot.discord.text import plain_name
from bot.games.base import Event, State
from bot.i18n import ENGLISH, N_, number, translate, translate_n
from bot.present.base import Presenter, named
from bot.render.animation import animate, thinned
from bot.render.pool import Job
from bot.runtime import GameError
from bot.runtime.replays import Replay, ReplayRefused, open_replay
from bot.runtime.updates import game_title

#: Replays kept in memory (each keeps a state every 32 steps).
REPLAYS_KEPT = 8
#: Frames of an exported animation at most (one per turn, thinned evenly beyond this).
MAX_FRAMES = 60
#: Options of the jump select (Discord's most).
JUMPS = 25
#: The picture's file name in the viewer.
PICTURE = "replay.png"
#: The scope of the viewer's custom ids.
SCOPE = "r"
#: The end message's Replay button's code.
OPEN = "open"
REPLAY_EMOJI = "\N{FILM FRAMES}"
_STEP = re.compile(r"(?P<tag>[fpnl])(?P<step>\d{1,6})")


def replay_button(game_id: int, lang: str | None = None) -> HerdButton:
    """The Replay button (in ``lang``) of finished game ``game_id`` (the end message's)."""
    return button(SCOPE, game_id, OPEN, translate(lang, "Replay"), emoji=REPLAY_EMOJI)


def title_of(replay: Replay, lang: str | None) -> str:
    """The replayed game's name and number in ``lang``."""
    return game_title(lang, replay.spec.name, replay.record.id)


def jump_steps(last: int, count: int = JUMPS) -> list[int]:
    """The steps the jump select offers: every step of a game of at most ``count`` steps
    (0 to ``last``), else ``count`` steps evenly spread, the first and the last among
    them."""
    return thinned(last + 1, count)


def line(presenter: Presenter | None, event: Event, names: dict[str, str],
         lang: str | None) -> str:
    """``event``'s line in ``lang`` with ``names`` (seat -> name): the presenter's words,
    else the engine's text."""
    if presenter is None:
        return named(event.text, names)
    return presenter.event_line(event, names, lang=lang or ENGLISH)


class ReplayViewer:
    """Opens replays and answers their components. ``games`` finds the loaded cog of a
    game kind (its :class:`TableLook` draws the steps)."""

    def __init__(self, bot: Host, games: Callable[[str], Any]) -> None:
        self.bot = bot
        self.games = games
        self._kept: OrderedDict[int, Replay] = OrderedDict()
        self._exporting = asyncio.Lock()

    # -- reading -----------------------------------------------------------------------

    async def replay_of(self, game_id: int, guild_id: int | None) -> Replay:
        """Game ``game_id``'s replay for a member of server ``guild_id``: kept, or read
        (:func:`~bot.runtime.replays.open_replay`). Raises :class:`ReplayRefused`."""
        kept = self._kept.get(game_id)
        if kept is not None:
            if guild_id is None or kept.record.guild_id != guild_id:
                raise ReplayRefused("no_game", lambda lang: translate(
                    lang, "There is no game #{number} in this server.", number=game_id))
            self._kept.move_to_end(game_id)
            return kept
        replay = await open_replay(self.bot.service, game_id, guild_id)
        self._kept[game_id] = replay
        while len(self._kept) > REPLAYS_KEPT:
            self._kept.popitem(last=False)
        return replay

    def look(self, replay: Replay) -> TableLook:
        """The table look (game cog) that draws ``replay``'s game."""
        cog = self.games(replay.record.kind)
        if not isinstance(cog, TableLook):
            raise GameError("unknown_game", N_("This game is not available on this bot."))
        return cog

    def table_at(self, replay: Replay, step: int, lang: str | None = None) -> Table:
        """``replay``'s table after ``step``, told in ``lang`` (default: the game's; the
        viewer's language for a member's own replay)."""
        record = replay.record
        if lang is not None:
            record = record.model_copy(update={"options": {**record.options, "language": lang}})
        return Table(record, replay.seats, replay.spec, replay.state_at(step))

    def job(self, replay: Replay, step: int, table: Table | None = None) -> Job | None:
        """The picture of ``step`` as the thread showed it when ``step`` ended a batch:
        the table picture with the presenter's inputs from the batch's public events up
        to ``step``, and at the end of a finished game the end message's picture."""
        look = self.look(replay)
        table = table or self.table_at(replay, step)
        presenter = look.presenter
        inputs = {} if presenter is None else presenter.picture_inputs(
            replay.batch_events(step))
        if step == replay.last and table.result is not None:
            return look.end_picture(table, inputs)
        return look.picture(table, inputs)

    def turn_of(self, replay: Replay) -> Callable[[State], str]:
        """The turn a state is in, as the thread tells turns apart (a new table message
        per turn: the presenter's :meth:`~bot.present.base.Presenter.ping_key`)."""
        engine, presenter = replay.spec.engine, self.look(replay).presenter

        def turn(state: State) -> str:
            pending = engine.pending(state)
            if presenter is None:
                return f"{pending.kind}:{pending.key}:{','.join(pending.seats)}"
            return presenter.ping_key(pending, engine.view(state, None))
        return turn

    async def picture(self, replay: Replay, step: int, table: Table | None = None) -> bytes:
        """PNG bytes of ``step``'s picture (kept by the bot's picture cache)."""
        table = table or self.table_at(replay, step)
        job = self.job(replay, step, table)
        if job is None:
            return await self.bot.render(self.look(replay).render, table)
        return await self.bot.draw(job)

    # -- the message ---------------------------------------------------------------------

    def narration(self, replay: Replay, step: int, table: Table) -> list[str]:
        """``step``'s public events in words (names escaped), or a sentence saying the
        move showed nothing in public (in the table's language)."""
        lang = table.lang
        if step == 0:
            return [translate(lang, "The game begins: the cards are dealt.")]
        lines = [line(table.spec.presenter, e, table.names, lang)
                 for e in replay.events(step) if e.to is None]
        if lines:
            return lines
        seat = replay.moves[step - 1].seat
        if seat in table.names:
            return [translate(lang, "**{name}** made a move with nothing to show in public.",
                              name=table.names[seat])]
        return [translate(lang, "A player made a move with nothing to show in public.")]

    def end_lines(self, replay: Replay, table: Table) -> list[str]:
        """At the last step of a finished game: the final scores and every hand left (in
        the table's language)."""
        look = self.look(replay)
        lang = table.lang
        if table.result is None:
            return ["-# " + translate(lang, "This game was ended early; no scores were "
                                      "recorded.")]
        out = ["### " + translate(lang, "{title}: final scores", title=title_of(replay, lang)),
               look.final_text(table)]
        presenter = look.presenter
        hands = []
        for seat in table.seats:
            cards = [] if presenter is None else presenter.hand_cards(table.view(seat.seat))
            if cards:
                hands.append(f"**{table.names[seat.seat]}**: "
                             + ", ".join(name for _, name in cards))
        if hands:
            out.append(translate(lang, "**Hands at the end**") + "\n" + "\n".join(hands))
        return out

    def components(self, replay: Replay, step: int,
                   lang: str | None = None) -> list[discord.ui.Item[Any]]:
        """First, Previous, Next, Last and Export, then the jump select (in ``lang``)."""
        gid, last = replay.record.id, replay.last
        nav = [button(SCOPE, gid, f"f{0}", translate(lang, "First"),
                      emoji="\N{BLACK LEFT-POINTING DOUBLE TRIANGLE}", disabled=step == 0, row=0),
               button(SCOPE, gid, f"p{max(step - 1, 0)}", translate(lang, "Previous"),
                      emoji="\N{BLACK LEFT-POINTING TRIANGLE}", disabled=step == 0, row=0),
               button(SCOPE, gid, f"n{min(step + 1, last)}", translate(lang, "Next"),
                      emoji="\N{BLACK RIGHT-POINTING TRIANGLE}", disabled=step >= last,
                      style=discord.ButtonStyle.primary, row=0),
               button(SCOPE, gid, f"l{last}", translate(lang, "Last"),
                      emoji="\N{BLACK RIGHT-POINTING DOUBLE TRIANGLE}", disabled=step >= last,
                      row=0),
               button(SCOPE, gid, "gif", translate(lang, "Export"),
                      emoji="\N{FRAME WITH PICTURE}", row=0)]
        options = []
        plain = {s.seat: plain_name(s.name) for s in replay.seats}
        presenter = self.look(replay).presenter
        for n in jump_steps(last):
            said = [line(presenter, e, plain, lang) for e in replay.events(n) if e.to is None]
            about = (translate(lang, "The deal") if n == 0 else
                     said[0] if said else translate(lang, "A move"))
            options.append(discord.SelectOption(
                label=(translate(lang, "Move {move} (end)", move=n) if n == last else
                       translate(lang, "Move {move}", move=n)), value=str(n),
                description=about[:100], default=n == step))
        return [*nav, select(SCOPE, gid, "j", options,
                             placeholder=translate(lang, "Jump to a move"), row=1)]

    async def page(self, replay: Replay, step: int, lang: str | None = None) -> dict[str, Any]:
        """The viewer at ``step`` (clamped to the game) in ``lang`` (default: the game's):
        ``view`` and ``file``."""
        step = max(0, min(step, replay.last))
        table = self.table_at(replay, step, lang)
        lang = table.lang
        title = title_of(replay, lang)
        look = self.look(replay)
        lines = self.narration(replay, step, table)
        data = await self.picture(replay, step, table)
        after = self.end_lines(replay, table) if step == replay.last else []
        alt = look.alt_text(table, lines) if step else translate(
            lang, "{title}: the table at the deal.", title=title)
        view = card(accent=look.accent,
                    before=["### " + translate(lang, "Replay: {title}", title=title),
                            fit_lines(lines, 1500, lang)],
                    picture=PICTURE, alt=alt, after=after,
                    rows=action_rows(self.components(replay, step, lang)),
                    footer=translate(lang, "{title} · Move {move} of {last} · only you see this "
                                     "replay", title=title, move=step, last=replay.last),
                    lang=lang)
        return {"view": view, "file": discord.File(io.BytesIO(data), filename=PICTURE)}

    # -- answering -----------------------------------------------------------------------

    async def open(self, interaction: discord.Interaction, game_id: int, step: int = 0) -> None:
        """Send the viewer of game ``game_id`` at ``step`` to the member alone (a new
        ephemeral message). Raises :class:`ReplayRefused` with the member's sentence."""
        replay = await self.replay_of(game_id, interaction.guild_id)
        lang = lang_of(interaction, replay.record.options.get("language"))
        await send_ephemeral(interaction, **await self.page(replay, step, lang))

    async def on_click(self, interaction: discord.Interaction, cid: ids.ComponentId,
                       values: list[str]) -> None:
        """A viewer component (acknowledged by the router): show the step it names in the
        clicked ephemeral message (a new one when clicked on a public message), or
        export. Raises :class:`GameError` with the member's sentence."""
        code = cid.code
        if code == OPEN:
            await self.open(interaction, cid.game_id)
            return
        if code == "gif":
            await self.export(interaction, cid.game_id)
            return
        if code == "j":
            if len(values) != 1 or not values[0].isdigit():
                raise GameError("bad_choice", N_("Choose one of the moves shown."))
            step = int(values[0])
        else:
            match = _STEP.fullmatch(code)
            if match is None:
                raise GameError("bad_button", N_("This button is not one herdbot understands."))
            step = int(match["step"])
        replay = await self.replay_of(cid.game_id, interaction.guild_id)
        if step > replay.last:
            raise GameError("bad_choice", lambda lang: translate_n(
                lang, "{title} has {count} move; there is no move {move}.",
                "{title} has {count} moves; there is no move {move}.", replay.last,
                title=title_of(replay, lang), move=step))
        parts = await self.page(replay, step,
                                lang_of(interaction, replay.record.options.get("language")))
        message = interaction.message
        if message is not None and message.flags.ephemeral:
            await interaction.edit_original_response(view=parts["view"],
                                                     attachments=[parts["file"]])
        else:
            await send_ephemeral(interaction, **parts)

    async def export(self, interaction: discord.Interaction, game_id: int) -> None:
        """Send game ``game_id`` as an animated GIF to the member alone: one frame per turn
        (the table as each turn began, and the end; thinned evenly to
        :data:`MAX_FRAMES`), 500 pixels wide. One export is drawn at a time; another
        meanwhile is refused in a sentence."""
        replay = await self.replay_of(game_id, interaction.guild_id)
        if self._exporting.locked():
            raise GameError("busy", N_("Another replay is being exported; try again in a minute."))
        async with self._exporting:
            steps = replay.turn_starts(self.turn_of(replay))
            chosen = [steps[i] for i in thinned(len(steps), MAX_FRAMES)]
            frames = [await self.picture(replay, n) for n in chosen]
            data = await self.bot.render(animate, frames)
        name = f"{replay.spec.key}-{replay.record.id}.gif"
        lang = lang_of(interaction, replay.record.options.get("language"))
        title = title_of(replay, lang)
        await send_ephemeral(interaction, view=card(
            accent=self.look(replay).accent,
            before=["### " + translate(lang, "{title}, move by move", title=title),
                    translate_n(lang, "{count} picture, {size} KB: save it or share it.",
                                "{count} pictures, {size} KB: save it or share it.",
                                len(frames), size=number(lang, len(data) // 1024))],
            picture=name, alt=translate_n(lang, "{title} replayed, {count} picture.",
                                          "{title} replayed, {count} pictures.", len(frames),
                                          title=title), lang=lang),
            file=discord.File(io.BytesIO(data), filename=name))


__all__ = ["MAX_FRAMES", "OPEN", "REPLAYS_KEPT", "ReplayViewer", "jump_steps",
           "replay_button"]
