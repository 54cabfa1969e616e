"""The router: an interaction to the lobby or the game's cog, acknowledged first.

A click on a herdbot component (custom id ``hb:`` / ``hs:``, :mod:`bot.discord.ids`) is
acknowledged at once (a move chosen on a table: by its first write to the table, or
deferred at its deadline; :mod:`bot.discord.ack`), the game it names read once (state,
seats, timers), and handed to
the lobby or to the cog playing the game (found through the lookup the router is built
with). When the click fails, the member is told truthfully whether something it did was
saved: the games its own writes changed (``bot.store.tracking``) are compared with what
was read before. :meth:`Router.games_before` and :meth:`Router.changed_games` do the same
for slash commands (``bot.discord.bot.HerdTree``).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Collection
from typing import Any, NamedTuple, Protocol
from urllib.parse import quote

import discord
from discord.http import HTTPClient, Route

from bot.discord import choices, ids, lean
from bot.discord.ack import Ack
from bot.discord.errors import (
    BUSY,
    OOPS,
    OOPS_AFTER_CHANGE,
    STORE_DOWN,
    STORE_DOWN_AFTER_CHANGE,
    log_store_error,
)
from bot.discord.host import GameDisplay, Host
from bot.discord.options_form import FORM_CODE
from bot.discord.replies import defer, lang_of, send_error
from bot.i18n import N_, member_language, translate
from bot.present.codes import parse_code
from bot.runtime import GameError, GameUnreadable, Known
from bot.runtime.admission import ACK_BY_S, Admission, snowflake_time
from bot.store import STORE_FAILURES, GameRecord, SeatRecord, UnreadableRow, tracking_writes

log = logging.getLogger(__name__)

#: The ephemeral bit of a message's flags.
EPHEMERAL = discord.MessageFlags(ephemeral=True).value
#: Seconds a private panel counts as a move under way (:func:`carries_on`): longer than
#: any decision's clock, short enough that a panel left open since long before the bot got
#: busy is new work.
PANEL_FRESH_S = 300.0


class LobbyClicks(Protocol):
    """The lobby cog as the router uses it (``cogs.lobby.Lobby``)."""

    async def on_component(self, interaction: discord.Interaction, cid: ids.ComponentId,
                           values: list[str]) -> None:
        """Handle a click on a lobby (scope ``l``)."""
        ...


class ReplayClicks(Protocol):
    """The replay viewer as the router uses it (:class:`bot.discord.replay_view.ReplayViewer`)."""

    async def on_click(self, interaction: discord.Interaction, cid: ids.ComponentId,
                       values: list[str]) -> None:
        """Handle a click on a replay viewer (scope ``r``)."""
        ...


class GamesBefore(NamedTuple):
    """What :meth:`HerdBot.games_before` noted: ``games`` maps a game id to its stored row
    and seats; ``seated`` holds the ids of the member's lobbies and running games."""

    games: dict[int, tuple[GameRecord, list[SeatRecord]]]
    seated: set[int]



class Router:
    """Routes herdbot's components. ``games`` finds the loaded cog of a game kind and
    ``lobby`` the lobby cog (``None``: not loaded), looked up at each click. ``admission``
    bounds the clicks (and, through :class:`~bot.discord.bot.HerdTree`, the commands)
    handled at once; one beyond it is answered :data:`~bot.discord.errors.BUSY` at once."""

    def __init__(self, bot: Host, *, games: Callable[[str], GameDisplay | None],
                 lobby: Callable[[], LobbyClicks | None],
                 admission: Admission | None = None,
                 replays: ReplayClicks | None = None,
                 held: Callable[[], Collection[str]] = frozenset) -> None:
        self.bot = bot
        self.games = games
        #: The loaded game cogs' own codes whose clicks are held (:func:`holds_answer`).
        self.held = held
        self.lobby = lobby
        self.admission = admission or Admission()
        self.replays = replays
        #: Seconds after a click was made by which a held move is deferred.
        self.ack_by_s = ACK_BY_S

    async def route_component(
        self, interaction: discord.Interaction, custom_id: str, values: list[str], *,
        admitted: bool = False,
    ) -> None:
        """Dispatch a herdbot button or select to the lobby or the game's cog. Unparseable
        ids, unknown games and unexpected errors get an ephemeral sentence; a click beyond
        :attr:`admission` gets :data:`~bot.discord.errors.BUSY` and changes nothing.
        ``admitted``: the caller already holds the click's place in :attr:`admission`."""
        try:
            cid = ids.parse(custom_id)
        except ids.BadCustomId:
            await send_error(interaction, translate(lang_of(interaction),
                                                "This button is not one herdbot understands."))
            return
        if admitted:
            await self._take(interaction, cid, custom_id, values)
            return
        with self.admission.slot() as entered:
            if not entered:
                await refuse_busy(interaction, BUSY)
                return
            await self._take(interaction, cid, custom_id, values)

    async def _take(self, interaction: discord.Interaction, cid: ids.ComponentId,
                    custom_id: str, values: list[str]) -> None:
        """An admitted click: acknowledged at once (the work below reads the store, which
        can queue), except the lobby's Options button, whose answer is a modal, which
        must come first, and a click whose response is held for its first answer
        (:func:`holds_answer`: :class:`~bot.discord.ack.Ack`, deferred at
        :data:`~bot.runtime.admission.ACK_BY_S` after the click was made); then
        :meth:`_route_component`."""
        guard: Ack | None = None
        if holds_answer(interaction, cid, self.held()):
            guard = Ack(interaction, self.ack_delay(interaction))
        elif not (cid.scope == "l" and cid.code == FORM_CODE):
            await defer(interaction)
        try:
            with tracking_writes() as written:
                await self._route_component(interaction, cid, custom_id, values, written)
        finally:
            if guard is not None:
                await guard.close()

    def ack_delay(self, interaction: discord.Interaction) -> float:
        """Seconds from now until a held click is deferred: :attr:`ack_by_s` after Discord
        made it (its age as :meth:`~bot.runtime.admission.Admission.age_s` tells)."""
        age = self.admission.age_s(snowflake_time(interaction.id))
        return max(0.0, self.ack_by_s - age)

    async def _route_component(self, interaction: discord.Interaction, cid: ids.ComponentId,
                               custom_id: str, values: list[str], written: set[int]) -> None:
        """:meth:`route_component` once acknowledged; ``written`` fills with the games the
        click's own writes changed, so an error claims a change only when it made one."""
        cog: GameDisplay | None = None
        before: GameRecord | None = None
        before_seats: list[Any] = []
        known: Known | None = None
        try:
            if cid.scope == "r":  # a replay viewer: reads a finished game, changes nothing
                if self.replays is None:
                    raise GameError("unknown_game", N_("Replays are not available on this bot."))
                await self.replays.on_click(interaction, cid, values)
                return
            try:
                if cid.scope == "l":  # lobby clicks change seats and options, not the version
                    before = await self.bot.store.get_game(cid.game_id)
                    before_seats = await self.bot.store.seats(cid.game_id)
                else:  # the game, its seats and timers in one read, which the click uses
                    known = await self.bot.service.peek(cid.game_id)
                    before = known.bundle.record if known.bundle is not None else None
            except (UnreadableRow, GameUnreadable):  # quarantined: answered in words
                before, known = None, None
            if cid.scope == "l":
                lobby = self.lobby()
                if lobby is None:
                    raise RuntimeError("the lobby cog is not loaded")
                await lobby.on_component(interaction, cid, values)
                return
            # A quarantined game's row may not validate: its kind still finds the cog, which
            # answers every click but "end the game" with GameUnreadable's sentence.
            # (the row just read serves again when it validated)
            record = before or await self.bot.service.record_or_stub(cid.game_id)
            cog = self.games(record.kind)
            if cog is None:
                raise GameError("unknown_game", N_("This game is not available on this bot."))
            await cog.handle_component(interaction, cid, values, before, known)
        except GameError as exc:
            game_lang = before.options.get("language") if before is not None else None
            await send_error(interaction, exc, secret=bool(cog and cog.hidden_info),
                             lang=lang_of(interaction, game_lang))
        except STORE_FAILURES as exc:
            log_store_error(f"component {custom_id}", exc)
            if cid.game_id in written and await self._changed(before, cid.game_id, before_seats):
                # The rest (AI moves, timers, the table) is caught up once writes work.
                self.bot.service.start_catch_up(cid.game_id)
                await send_error(interaction, translate(lang_of(interaction),
                                                        STORE_DOWN_AFTER_CHANGE))
            else:
                await send_error(interaction, translate(lang_of(interaction), STORE_DOWN))
        except Exception:
            log.exception("component %s failed", custom_id)
            changed = (cid.game_id in written
                       and await self._changed(before, cid.game_id, before_seats))
            await send_error(interaction, translate(lang_of(interaction),
                                                    OOPS_AFTER_CHANGE if changed else OOPS))

    async def games_before(self, interaction: discord.Interaction) -> GamesBefore | None:
        """The stored games a slash command by ``interaction.user`` may change, read before
        it runs: the game of the channel it is used in (a game's thread) and the member's
        lobbies and running games in this server, each with its seats. ``None`` when the
        store cannot be read, and outside a server (a DM: no command changes a game there),
        so nothing is claimed then."""
        if interaction.guild_id is None:
            return None
        try:
            mine = await self.bot.store.active_games_of(interaction.user.id, interaction.guild_id)
            games = {g.id: g for g in mine}
            here = (await self.bot.store.game_id_by_thread(interaction.channel_id)
                    if interaction.channel_id is not None else None)
            if here is not None and here not in games:
                try:
                    record = await self.bot.store.get_game(here)
                except UnreadableRow:
                    record = None
                if record is not None:
                    games[here] = record
            seats = {}
            for game_id in games:
                try:
                    seats[game_id] = await self.bot.store.seats(game_id)
                except UnreadableRow:
                    seats[game_id] = []
        except Exception:  # the store cannot be read: claim nothing afterwards
            log.warning("command %s: the games it may change could not be read first",
                        getattr(interaction.command, "qualified_name", "?"), exc_info=True)
            return None
        return GamesBefore({g: (r, seats[g]) for g, r in games.items()}, {g.id for g in mine})

    async def changed_games(self, before: GamesBefore | None,
                            interaction: discord.Interaction, written: set[int]) -> list[int]:
        """The ids of the games noted in ``before`` (:meth:`games_before`) that changed in
        the store since (status, version, options or seats), then of the lobbies and games
        the member holds a seat in that were not there before (a lobby ``/play`` stored),
        in that order; of those only the ones in ``written``, the games the command's own
        writes changed (``bot.store.tracking``): another player's move meanwhile is not
        the member's change. Empty when unknown."""
        if before is None or not written:
            return []
        changed = [game_id for game_id, (record, seats) in before.games.items()
                   if game_id in written and await self._changed(record, game_id, seats)]
        try:
            mine = await self.bot.store.active_games_of(interaction.user.id, interaction.guild_id)
        except Exception:  # the store itself broke: claim nothing more
            return changed
        return changed + [g.id for g in mine if g.id in written
                          and g.id not in before.seated and g.id not in changed]

    async def _changed(self, before: GameRecord | None, game_id: int,
                       before_seats: list[Any] | None = None) -> bool:
        """True when game ``game_id``'s stored status, version or options differ from
        ``before``, or (for a lobby, ``before_seats`` given) its seats do: what a failed
        request had already stored. False when unknown."""
        if before is None:
            return False
        try:
            after = await self.bot.store.get_game(game_id)
            after_seats = await self.bot.store.seats(game_id) if before_seats else []
        except Exception:  # the store itself broke: claim nothing
            return False
        return after is not None and (
            (before.status, before.version, before.options)
            != (after.status, after.version, after.options)
            or (bool(before_seats) and before_seats != after_seats))

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Answer component clicks discord.py's dispatch will not route (never 'This
        interaction failed'): ids that are not herdbot's, ids a DynamicItem template cannot
        match, and clicks on a component no longer on its message (the table moved on
        between the click and its arrival) - those go to the router, which answers them."""
        if interaction.type is not discord.InteractionType.component:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        if not custom_id.startswith(("hb:", "hs:", "lb:")):  # lb: a leaderboard's page
            await send_error(interaction, translate(lang_of(interaction),
                                                "This button is not one herdbot understands."))
            return
        on_message = _component_ids(interaction.message)
        if "\n" in custom_id or "\r" in custom_id or custom_id not in on_message:
            values = [str(v) for v in data.get("values", [])]  # type: ignore[union-attr]
            await self.route_component(interaction, custom_id, values)


def presenter_kind(cid: ids.ComponentId) -> str | None:
    """The kind (``a``, ``s`` or ``o``: :func:`~bot.present.codes.parse_code`) of a game's
    presenter button or select, a pick from a paged select included; ``None`` for any
    other component (a page turn, Refresh, My hand, a replay's or a lobby's)."""
    if cid.scope != "g":
        return None
    code, paged, _ = choices.parse_page(cid.code)
    parsed = parse_code(code) if paged in (None, "p") else None  # (a pick, not a turn)
    return parsed[0] if parsed is not None else None


def is_move(interaction: discord.Interaction, cid: ids.ComponentId) -> bool:
    """True for a click that plays a move chosen on a public table: a presenter's button
    or select of kind ``a`` or ``s`` (:func:`presenter_kind`) on a message that is not
    ephemeral, whose first write is to the clicked table (its response can carry it)."""
    if not lean.has_message(interaction) or lean.on_ephemeral(interaction):
        return False
    return presenter_kind(cid) in ("a", "s")


def holds_answer(interaction: discord.Interaction, cid: ids.ComponentId,
                 held: Collection[str] = ()) -> bool:
    """True for a click whose response is held for its first answer
    (:class:`~bot.discord.ack.Ack`): on a message, a presenter's choice, panel or page
    turn (:func:`is_move` on a table, or on a private panel), My hand, or a game cog's own
    button whose code (before a ``.``) is in ``held``. Its first answer
    may be the clicked message edited or a private reply, either of which can be the
    response; a first write that needs the click acknowledged (a new table posted as its
    followup) defers it first, as its deadline does."""
    if cid.scope != "g" or not lean.has_message(interaction):
        return False
    return (cid.code == "hand" or cid.code.partition(".")[0] in held
            or parse_code(choices.parse_page(cid.code)[0]) is not None)


def carries_on(data: dict[str, Any], now: float) -> bool:
    """Whether the INTERACTION_CREATE payload ``data`` is a step of a move already begun:
    a presenter's choice (:func:`presenter_kind`) on an ephemeral message (a private
    panel) made less than :data:`PANEL_FRESH_S` seconds before unix time ``now``. False
    for anything else, a custom id that does not parse included."""
    message = data.get("message")
    if not isinstance(message, dict):
        return False
    flags = message.get("flags")
    if not isinstance(flags, int) or not flags & EPHEMERAL:
        return False
    try:
        made_at = snowflake_time(int(message["id"]))
        cid = ids.parse(str(data["data"]["custom_id"]))
    except (KeyError, TypeError, ValueError):
        return False
    return now - made_at < PANEL_FRESH_S and presenter_kind(cid) is not None


async def refuse_busy(interaction: discord.Interaction, sentence: str) -> None:
    """Answer ``interaction`` with ``sentence`` (a message id, in the member's language;
    ephemeral, as an error) as its one
    response, or not at all: when Discord refuses it (the interaction is already gone, the
    bot too late even for that) nothing falls back to the channel or DMs, which would be
    more work for a bot that is refusing work."""
    try:
        await interaction.response.send_message(
            refusal_text(sentence, lang_of(interaction)), ephemeral=True)
    except discord.HTTPException as exc:
        log.debug("busy refusal of %s not delivered: %s", interaction.id, exc)


def click_key(data: dict[str, Any]) -> tuple[int, int, str] | None:
    """``(member id, message id, custom id)`` of the click in the INTERACTION_CREATE
    payload ``data``: the same button or select pressed again by the same member; None
    when one of them is missing."""
    try:
        member = data.get("member")
        user = member["user"] if isinstance(member, dict) else data["user"]
        return (int(user["id"]), int(data["message"]["id"]),
                str(data["data"]["custom_id"]))
    except (KeyError, TypeError, ValueError):
        return None


def refusal_text(sentence: str, lang: str) -> str:
    """What a busy refusal says: ``sentence`` in ``lang`` after the no-entry sign."""
    return f"\N{NO ENTRY SIGN} {translate(lang, sentence)}"


#: JSON bodies of busy answers sent from the gateway form, by (sentence, language).
_BUSY_BODIES: dict[tuple[str, str], bytes] = {}
_JSON_HEADERS = {"Content-Type": "application/json"}


def busy_body(sentence: str, lang: str) -> bytes:
    """The interaction response (CHANNEL_MESSAGE_WITH_SOURCE, ephemeral, pinging nobody)
    that says ``sentence`` in ``lang``, JSON-encoded (made once per pair)."""
    body = _BUSY_BODIES.get((sentence, lang))
    if body is None:
        body = _BUSY_BODIES[(sentence, lang)] = json.dumps({
            "type": discord.InteractionResponseType.channel_message.value,
            "data": {"content": refusal_text(sentence, lang),
                     "flags": EPHEMERAL, "allowed_mentions": {"parse": []}},
        }, separators=(",", ":"), ensure_ascii=False).encode()
    return body


async def refuse_unbuilt(http: HTTPClient, data: dict[str, Any], sentence: str) -> None:
    """:func:`refuse_busy` for an interaction still in its gateway form ``data`` (an
    INTERACTION_CREATE payload): one POST of a body made once per language
    (:func:`busy_body`) on ``http``'s session, with no :class:`discord.Interaction` built
    and no answer asked for (Discord answers 204): the cheapest answer a busy bot can
    give. Not delivered (Discord refused it, the network failed, the session is closed,
    ``data`` has no id or token): logged at DEBUG, nothing else."""
    try:
        url = (f"{Route.BASE}/interactions/{int(data['id'])}/"
               f"{quote(str(data['token']), safe='')}/callback")
        body = busy_body(sentence, member_language(data.get("locale"), None))
        session = http._HTTPClient__session  # type: ignore[attr-defined]
        async with session.post(url, data=body, headers=_JSON_HEADERS, proxy=http.proxy,
                                proxy_auth=http.proxy_auth) as response:
            if response.status >= 300:
                log.debug("busy refusal of %s not delivered: HTTP %s %s", data.get("id"),
                          response.status, await response.text())
    except Exception as exc:  # noqa: BLE001 - not delivered is this answer's one failure
        log.debug("busy refusal of %s not delivered: %r", data.get("id"), exc)


def _component_ids(message: discord.Message | None) -> set[str]:
    """Every custom id among a message's components (rows and nested children)."""
    found: set[str] = set()
    if message is None:
        return found
    stack: list[Any] = list(message.components)
    while stack:
        comp = stack.pop()
        custom_id = getattr(comp, "custom_id", None)
        if custom_id:
            found.add(custom_id)
        stack.extend(getattr(comp, "children", []) or [])
        accessory = getattr(comp, "accessory", None)
        if accessory is not None:
            stack.append(accessory)
    return found
