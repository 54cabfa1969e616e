"""The lobby: ``/play`` posts a lobby that players join; Start opens the game's thread.

Flow and looks: UX.md, "Common to all games". The lobby message is edited in place; its
buttons are DynamicItems, so a lobby still works after a restart.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord import ids
from bot.discord.bot import HerdBot
from bot.discord.errors import thread_is_gone, why_not_posted
from bot.discord.game_cog import GameCog
from bot.discord.installs import (
    BOTH_INSTALLS,
    EVERYWHERE,
    ONE_MESSAGE,
    is_one_message,
    one_message_place,
)
from bot.discord.options_form import OptionsForm, check_options, preset_options
from bot.discord.permissions import missing_game_permissions, require_game_permissions
from bot.discord.replies import (
    answer_public,
    defer,
    edit_panel,
    quoted,
    send_ephemeral,
    send_error,
)
from bot.discord.result_post import REMATCH
from bot.discord.text import md_name, plain_name
from bot.discord.tokens import LiveTokens
from bot.games.registry import GameSpec
from bot.i18n import ENGLISH, game_language, supported
from bot.runtime import GameError, Update, UpdateKind
from bot.store import SeatRecord
from cogs.lobby_card import (
    HINTS,
    LANGUAGE_CHOICES,
    OPTIONS,
    RESET,
    TIMER_CHOICES,
    TIMER_LABELS,
    bool_options,
    head_of,
    lobby_card,
    next_ai_level,
    option_on,
)
from cogs.lobby_challenge import (
    CHALLENGE,
    announcement,
    carried,
    check_target,
    menu_name,
    only_challenged,
)
from cogs.lobby_in_place import closed_in_place
from cogs.lobby_rematch import open_rematch

log = logging.getLogger(__name__)



class Lobby(commands.Cog):
    """``/play`` and the lobby buttons."""

    def __init__(self, bot: HerdBot) -> None:
        self.bot = bot
        choices = [app_commands.Choice(name=f"{s.name}: {s.description}"[:100], value=s.key)
                   for s in bot.registry]
        self.play.parameters  # noqa: B018 - make sure the command is built
        self.play._params["game"].choices = choices  # type: ignore[attr-defined]
        self._menus = [self.challenge_menu(s) for s in bot.registry]
        #: lobby id -> the last interaction on a one-message lobby while its token lives
        #: (it shows the lobby closing; never the bot's token there).
        self._in_place = LiveTokens()

    @app_commands.command(name="play", description="Open a lobby for a llama-and-alpaca game.",
                          extras={"public": True})
    @app_commands.describe(game="Which game to play", turn_timer="Time each player has per turn",
                           rated="Whether the game changes the players' ratings (default: yes)",
                           language="The language of the game's table and thread "
                                    "(default: the server's)",
                           preset="A set of house rules saved on this server (lobby Options)")
    @app_commands.choices(turn_timer=TIMER_CHOICES, language=LANGUAGE_CHOICES)
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def play(
        self,
        interaction: discord.Interaction,
        game: str,
        turn_timer: app_commands.Choice[str] | None = None,
        rated: bool = True,
        language: app_commands.Choice[str] | None = None,
        preset: str | None = None,
    ) -> None:
        """Post a lobby for ``game`` in this channel (``rated`` off: an unrated game;
        ``preset``: the server's preset of house rules, the turn timer given here winning)
        in ``language`` (default: the server's ``/settings language``, else its Discord
        locale, else English)."""
        spec = self.bot.registry.get(game)
        if spec is None:
            raise GameError("unknown_game", f"There is no game called “{quoted(game)}”. Pick one from the list.")
        house = await self._preset(interaction, spec, preset) if preset else {}
        await self._open(interaction, spec, turn_timer.value if turn_timer else None,
                         {**house, **({} if rated else {"rated": False})},
                         language=language.value if language else None)

    async def _open(self, interaction: discord.Interaction, spec: GameSpec, timer: str | None,
                    options: dict[str, Any], challenge: discord.abc.User | None = None,
                    language: str | None = None) -> None:
        """Post a lobby for ``spec`` where ``interaction`` was made, with ``options`` over
        the defaults (``timer``: the turn timer chosen, else the server's) in ``language``
        (else the options', else the server's); with
        ``challenge`` that member is seated too and asked to accept. Raises
        :class:`GameError` where no game can be played."""
        settings = await self.bot.store.guild_settings(interaction.guild_id or 0)
        one = one_message_place(interaction)
        if not one:
            if settings.game_channel_id and interaction.channel_id != settings.game_channel_id:
                raise GameError("wrong_channel",
                                f"Games are played in <#{settings.game_channel_id}> on this server.")
            if isinstance(interaction.channel, discord.Thread):
                raise GameError("in_thread", "Start games in a channel, not inside a thread.")
            # The server may prefer a game in one message where no thread can be run.
            one = bool(settings.one_message) and bool(
                missing_game_permissions(interaction.app_permissions))
            if not one:
                require_game_permissions(interaction)
        timer = timer or options.pop("turn_timer", None) or (
            settings.turn_timer or self.bot.settings.default_turn_timer)
        language = language or options.pop("language", None)
        guild_locale = interaction.guild_locale
        lang = (supported(language) if language else None) or game_language(
            settings.language, str(guild_locale) if guild_locale is not None else None)
        update = await self.bot.service.create_lobby(
            spec.key,
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            host_id=interaction.user.id,
            host_name=interaction.user.display_name,
            options={**self.default_options(spec, timer),
                     **({HINTS: options.get("rated") is False} if spec.hint is not None
                        else {}),
                     **options,
                     **({} if lang == ENGLISH else {"language": lang}),
                     **({ONE_MESSAGE: True} if one else {}),
                     **({CHALLENGE: challenge.id} if challenge is not None else {})},
            max_open=settings.max_open_lobbies or self.bot.settings.max_open_lobbies,
        )
        if challenge is not None:
            update = await self.bot.service.join(update.record.id, challenge.id,
                                                 challenge.display_name)
        head, mentions = announcement(update.record, update.seats, lang)
        message = await answer_public(interaction, allowed_mentions=mentions,
                                      view=lobby_card(update.record, update.seats, spec,
                                                      head=head))
        await self.bot.store.update_game(update.record.id, lobby_message_id=message.id)
        if one:
            self._in_place.keep(update.record.id, interaction)

    async def _preset(self, interaction: discord.Interaction, spec: GameSpec,
                      name: str) -> dict[str, Any]:
        """The options of this server's preset ``name`` for ``spec``'s game, checked
        again. Raises :class:`GameError` for an unknown preset or one that no longer
        works."""
        found = await self.bot.store.preset(interaction.guild_id or 0, name)
        if found is None or found.kind != spec.key:
            raise GameError("no_preset", f"This server has no {spec.name} preset called "
                            f"“{quoted(name)}”.")
        check_options(spec, found.options, 0)
        return dict(found.options)

    @play.autocomplete("preset")
    async def _preset_names(self, interaction: discord.Interaction,
                            current: str) -> list[app_commands.Choice[str]]:
        """The server's presets of the chosen game (all games' before one is chosen)
        whose name holds what was typed."""
        game = getattr(interaction.namespace, "game", None)
        kind = game if isinstance(game, str) and game in self.bot.registry else None
        found = await self.bot.store.presets(interaction.guild_id or 0, kind)
        typed = current.strip().lower()
        return [app_commands.Choice(name=plain_name(p.name, 100), value=p.name)
                for p in found if typed in p.name.lower()][:25]

    def challenge_menu(self, spec: GameSpec) -> app_commands.ContextMenu:
        """The member context menu "Challenge to <game>" (both installs, every context)."""

        async def challenge(interaction: discord.Interaction,
                            member: discord.Member | discord.User) -> None:
            check_target(interaction, member)
            last = await self.bot.store.last_hosted(interaction.user.id, spec.key)
            await self._open(interaction, spec, None, carried(last), challenge=member)

        return app_commands.ContextMenu(
            name=menu_name(spec.name), callback=challenge, type=discord.AppCommandType.user,
            allowed_installs=BOTH_INSTALLS, allowed_contexts=EVERYWHERE,
            extras={"public": True})

    async def cog_load(self) -> None:
        for menu in self._menus:
            self.bot.tree.add_command(menu)

    async def cog_unload(self) -> None:
        for menu in self._menus:
            self.bot.tree.remove_command(menu.name, type=discord.AppCommandType.user)

    def default_options(self, spec: GameSpec, timer: str) -> dict[str, Any]:
        """A new lobby's options: the turn timer, each option's ``lobby_default`` (its
        ``json_schema_extra``) where the lobby's default differs from the model's, and the
        server's reaction window for games that have one."""
        options: dict[str, Any] = {"turn_timer": timer}
        for name, field in spec.options_model.model_fields.items():
            extra = field.json_schema_extra
            if isinstance(extra, dict) and "lobby_default" in extra:
                options[name] = extra["lobby_default"]  # e.g. hidden reaction windows
        if "reaction_seconds" in spec.options_model.model_fields:
            options["reaction_seconds"] = float(self.bot.settings.reaction_window_s)
        return options

    async def on_component(
        self, interaction: discord.Interaction, cid: ids.ComponentId, values: list[str]
    ) -> None:
        """Lobby buttons. Every refusal is ephemeral and changes nothing; a click on a
        one-message lobby that closed unseen shows it closed (:func:`closed_in_place`)."""
        try:
            await self._on_component(interaction, cid, values)
        except GameError as exc:
            if exc.code == "not_lobby" and cid.code != REMATCH:
                await closed_in_place(self.bot, interaction, cid.game_id)
            raise

    async def _on_component(
        self, interaction: discord.Interaction, cid: ids.ComponentId, values: list[str]
    ) -> None:
        service = self.bot.service
        user = interaction.user
        manage = bool(getattr(getattr(user, "guild_permissions", None), "manage_guild", False))
        gid = cid.game_id
        code = cid.code
        if code == "join":
            update = await service.join(gid, user.id, user.display_name)
            if update.kind == UpdateKind.STARTED:  # a rematch's last player joined
                await self._start(interaction, gid, update)
                return
        elif code == REMATCH:  # on a finished game's result card
            await open_rematch(self.bot, interaction, gid, self._lobby_parts, self._in_place)
            return
        elif code == "leave":
            update = await service.leave_lobby(gid, user.id)
        elif code == "ai":
            record = await service.get(gid)
            update = await service.add_ai(gid, user.id, next_ai_level(record, service.spec_of(record)))
        elif code == "level":
            update = await self._choose_level(gid, user.id, values)
        elif code == "unai":
            update = await service.remove_ai(gid, user.id)
        elif code == "cancel":
            update = await service.cancel(gid, user.id, manage_guild=manage)
        elif code.startswith("opt."):
            name = code[4:]
            record = await service.get(gid)
            spec = service.spec_of(record)
            if name not in dict(bool_options(spec)):
                raise GameError("bad_option", "That option does not exist.")
            update = await service.set_options(gid, user.id, {name: not option_on(record, name)})
        elif code == "start":
            await self._start(interaction, gid)
            return
        elif code == OPTIONS:
            await self._open_options(interaction, gid)
            return
        elif code == "accept":
            record = await service.get(gid)
            only_challenged(record, user.id)
            await self._start(interaction, gid, await service.start(gid, record.host_id,
                                                                    publish=False))
            return
        elif code == "decline":
            record = await service.get(gid)
            only_challenged(record, user.id)
            update = await service.cancel(gid, record.host_id)
            await edit_panel(interaction, **RESET, **self._lobby_parts(
                update, f"**{md_name(user.display_name)} declined the challenge.**"))
            return
        else:
            raise GameError("bad_button", "This button is not one herdbot understands.")
        await self._edit_lobby(interaction, update)

    async def _choose_level(self, game_id: int, user_id: int, values: list[str]) -> Update:
        """The host picked the level new AI seats play at (refused for anyone else and for
        a level the game does not offer)."""
        service = self.bot.service
        record = await service.get(game_id)
        spec = service.spec_of(record)
        if user_id != record.host_id:
            raise GameError("not_host", "Only the host can choose the AI level.")
        if len(values) != 1 or values[0] not in spec.offered_levels():
            raise GameError("bad_level", "That AI level is not offered for this game.")
        return await service.set_options(game_id, user_id, {"ai_level": values[0]})

    async def _open_options(self, interaction: discord.Interaction, game_id: int) -> None:
        """The host's Options form (a modal: the click is not acknowledged before it)."""
        service = self.bot.service
        record = await service.get(game_id)
        spec = service.spec_of(record)
        if record.status != "lobby":
            raise GameError("not_lobby", "This lobby is closed: the game has started or ended.")
        if interaction.user.id != record.host_id:
            raise GameError("not_host", "Only the host can change the options.")
        bools = [(name, label, option_on(record, name)) for name, label in bool_options(spec)]

        async def apply(submitted: discord.Interaction, chosen: dict[str, Any],
                        name: str) -> None:
            await self._apply_options(submitted, game_id, chosen, name)

        await interaction.response.send_modal(OptionsForm(
            game_id=game_id, spec=spec, options=record.options, bools=bools,
            timers=TIMER_LABELS, apply=apply))

    async def _apply_options(self, interaction: discord.Interaction, game_id: int,
                             chosen: dict[str, Any], name: str) -> None:
        """The Options form was submitted: checked (:func:`check_options`), stored, the
        lobby redrawn, and with a ``name`` saved as the server's preset."""
        await defer(interaction)
        service = self.bot.service
        record = await service.get(game_id)
        spec = service.spec_of(record)
        if interaction.user.id != record.host_id:
            raise GameError("not_host", "Only the host can change the options.")
        seats = await service.seats(game_id)
        bools = bool_options(spec)
        notes = check_options(spec, {**record.options, **chosen}, len(seats))
        update = await service.set_options(game_id, interaction.user.id, chosen)
        await self._edit_lobby(interaction, update)
        said = list(notes)
        if name and interaction.guild_id is not None:
            await self.bot.store.save_preset(interaction.guild_id, name, spec.key,
                                             preset_options(spec, update.record.options,
                                                            [n for n, _ in bools]),
                                             interaction.user.id)
            said.insert(0, f"Saved as the server preset “{md_name(name)}”: open a lobby "
                        "with it with /play preset:.")
        if said:
            await send_ephemeral(interaction, " ".join(said),
                                 allowed_mentions=discord.AllowedMentions.none())

    async def _edit_lobby(self, interaction: discord.Interaction, update: Update) -> None:
        await edit_panel(interaction, **RESET,
                         **self._lobby_parts(update, head_of(interaction.message)))
        if is_one_message(update.record):  # its token shows the lobby closing, if it does
            self._in_place.keep(update.record.id, interaction)

    async def on_lobby_update(self, update: Update) -> None:
        """Service subscriber hook. Lobby changes come back through the click itself; an
        ``expired`` lobby (nobody started it in time) has its message edited to say so,
        without buttons."""
        if update.kind != UpdateKind.EXPIRED:
            return
        record = update.record
        if is_one_message(record):  # the last live token shows it, else the next click
            try:
                await self._in_place.edit(record.id, **RESET, view=lobby_card(
                    record, update.seats, update.spec, expired=True))
            except discord.HTTPException as exc:
                log.info("lobby message of game %s could not be edited: %s", record.id, exc)
            self._in_place.drop(record.id)
            return
        if not (record.channel_id and record.lobby_message_id):
            return
        message = self.bot.get_partial_messageable(record.channel_id).get_partial_message(
            record.lobby_message_id)
        try:
            await message.edit(**RESET, view=lobby_card(record, update.seats, update.spec,
                                                        expired=True))
        except discord.HTTPException as exc:  # closed all the same
            log.info("lobby message of game %s could not be edited: %s", record.id, exc)

    @staticmethod
    def _lobby_parts(update: Update, head: str | None = None) -> dict[str, Any]:
        """The lobby message of ``update`` as keyword arguments of a post: its Components V2
        ``view`` (:func:`lobby_card`, led by ``head``)."""
        return {"view": lobby_card(update.record, update.seats, update.spec, head=head)}

    async def _start(self, interaction: discord.Interaction, game_id: int,
                     started: Update | None = None) -> None:
        """Start the lobby (``started``: a join started it already) and open its thread."""
        service = self.bot.service
        if started is None and not one_message_place(interaction) \
                and missing_game_permissions(interaction.app_permissions) \
                and not is_one_message(await service.get(game_id)):
            require_game_permissions(interaction)  # refused before anything changes
        acked = await defer(interaction)
        update = started or await service.start(game_id, interaction.user.id, publish=False)
        record = update.record
        spec = update.spec
        if is_one_message(record):
            await self._start_in_place(interaction, update, acked)
            return
        message = interaction.message
        thread_id: int | None = None
        if record.thread_id and record.thread_id != record.channel_id:
            thread_id = record.thread_id  # opened by an earlier Start whose table failed
            await self._add_members(thread_id, update.seats)
        elif message is not None:  # a component interaction always has one
            try:
                thread = await message.create_thread(
                    name=f"{spec.name} #{record.id}"[:100], auto_archive_duration=1440
                )
                thread_id = thread.id
                await self._add_members(thread_id, update.seats)
            except discord.HTTPException:
                pass
        if thread_id is None:
            log.warning("could not open a thread for game %s; playing in the channel", record.id)
            thread_id = record.channel_id
        await service.store.update_game(record.id, thread_id=thread_id)
        update.record = await service.get(record.id)
        cog = self.bot.game_cog(record.kind)
        if isinstance(cog, GameCog):
            try:
                await cog.on_update(update)
            except discord.HTTPException as exc:
                await self._start_failed(interaction, update, thread_id, exc, acked)
                return
        else:
            await service.publish(update)
        if acked:
            try:
                await interaction.edit_original_response(
                    **RESET,
                    view=lobby_card(update.record, update.seats, spec, playing_in=thread_id,
                                    head=head_of(message)))
            except discord.HTTPException:
                log.info("lobby message %s could not be edited", record.lobby_message_id)

    async def _start_in_place(self, interaction: discord.Interaction, update: Update,
                              acked: bool) -> None:
        """Start a one-message game: the lobby message becomes its table, edited through
        this click (:mod:`bot.discord.one_message`)."""
        record = update.record
        service = self.bot.service
        await service.store.update_game(record.id, thread_id=record.channel_id,
                                        table_message_id=record.lobby_message_id)
        update.record = await service.get(record.id)
        cog = self.bot.game_cog(record.kind)
        if not isinstance(cog, GameCog):
            await service.publish(update)
            return
        try:
            await cog.on_update(update, interaction)
        except discord.HTTPException as exc:
            await self._start_failed(interaction, update, record.channel_id, exc, acked)

    async def _add_members(self, thread_id: int, seats: list[SeatRecord]) -> None:
        for seat in seats:
            if seat.user_id is not None:
                try:
                    await self.bot.http.add_user_to_thread(thread_id, seat.user_id)
                except discord.HTTPException:
                    log.info("could not add %s to thread %s", seat.user_id, thread_id)

    async def _start_failed(self, interaction: discord.Interaction, update: Update,
                            where: int | None, exc: discord.HTTPException, acked: bool) -> None:
        """The first table could not be posted: the game goes back to the lobby (the host
        is told why and presses Start again once it is fixed), never started with no
        table."""
        game_id = update.record.id
        log.warning("game %s: first table refused (%s); back to the lobby", game_id, exc)
        try:
            back = await self.bot.service.return_to_lobby(game_id)
        except GameError:  # it already finished or ended meanwhile: nothing to undo
            return
        if thread_is_gone(exc):
            await self.bot.store.update_game(game_id, thread_id=None)
        if acked:
            try:
                await edit_panel(interaction, **RESET,
                                 **self._lobby_parts(back, head_of(interaction.message)))
            except discord.HTTPException:
                log.info("lobby message of game %s could not be edited", game_id)
        await send_error(interaction, f"The game could not start: I could not post its table "
                         f"in <#{where}> ({why_not_posted(exc)}). It is back in the lobby: "
                         "once that is fixed, press Start again.")


async def setup(bot: HerdBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Lobby(bot))
