"""Take-backs in Discord: the request message with Allow and Refuse, its answers and its
end (UX.md proposal "Take-backs").

``/game takeback`` asks (:func:`ask`); the request is one Components V2 message in the
game's thread pinging the members asked, with Allow and Refuse buttons (custom ids
``tbyes`` / ``tbno`` at the request's version). Each answer edits it (:func:`answer`);
when the minute runs out the runtime's ``take_back`` update closes it
(:func:`show_lapsed`). The take-back itself is a move: the table is posted anew by the
publisher.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import ui

from bot.discord import ids, lean
from bot.discord.components import button
from bot.discord.host import Host
from bot.discord.layout import action_rows, card
from bot.discord.replies import defer, lang_of, send_ephemeral
from bot.discord.text import and_list, md_name, pinging
from bot.i18n import N_, translate, translate_n
from bot.present.base import named
from bot.runtime import GameError, Update
from bot.runtime.takeback import TAKE_BACK_S, TakeBackOutcome, TakeBackRequest
from bot.store import GameRecord, SeatRecord

log = logging.getLogger(__name__)

#: The accent of a request (amber) and of a closed one (grey).
ASKING, CLOSED = 0xE0A100, 0x888888
#: The codes of the two answers.
ALLOW, REFUSE = "tbyes", "tbno"


def _lang(record: GameRecord) -> str | None:
    """The game's language (a request is public: in the thread's language)."""
    return record.options.get("language")


def _name(seats: list[SeatRecord], user_id: int, lang: str | None) -> str:
    seat = next((s for s in seats if s.user_id == user_id), None)
    return md_name(seat.name) if seat is not None else translate(lang, "someone")


def _head(seats: list[SeatRecord], request: TakeBackRequest, lang: str | None) -> str:
    """Who asks, and the move in the words the thread showed (names markdown-escaped)."""
    move = named(request.said, {s.seat: md_name(s.name) for s in seats}) if request.said else ""
    who = _name(seats, request.user_id, lang)
    said = (translate(lang, "**{name}** asks to take back their last move: {move}", name=who,
                      move=move) if move else
            translate(lang, "**{name}** asks to take back their last move.", name=who))
    return f"\N{LEFTWARDS ARROW WITH HOOK} {said}"


def request_card(record: GameRecord, seats: list[SeatRecord],
                 request: TakeBackRequest) -> ui.LayoutView:
    """The open request: who asks, who is asked (mentions), who allowed so far, when it
    lapses, and Allow / Refuse."""
    lang = _lang(record)
    waiting = [u for u in request.asked if u not in request.allowed]
    lines = [translate(lang, "{who}: allow it? One Refuse, or no answer {when}, keeps the "
                       "move.", who=" ".join(f"<@{u}>" for u in waiting),
                       when=f"<t:{int(request.due_at)}:R>")]
    if request.allowed:
        lines.append(translate(lang, "Allowed by {names}.", names=and_list(
            lang, [_name(seats, u, lang) for u in request.allowed])))
    rows = action_rows([
        button("g", record.id, ALLOW, translate(lang, "Allow"), version=request.version,
               style=discord.ButtonStyle.success),
        button("g", record.id, REFUSE, translate(lang, "Refuse"), version=request.version,
               style=discord.ButtonStyle.danger),
    ])
    return card(accent=ASKING, before=[_head(seats, request, lang), *lines], rows=rows,
                lang=lang)


def closed_card(seats: list[SeatRecord], request: TakeBackRequest, why: str,
                lang: str | None = None) -> ui.LayoutView:
    """The request once over (in ``lang``), without buttons; ``why`` says how it ended."""
    return card(accent=CLOSED, before=[_head(seats, request, lang), why], lang=lang)


def ending(outcome: TakeBackOutcome | Update, lang: str | None = None) -> str:
    """How a request ended, in one sentence in ``lang``."""
    if isinstance(outcome, Update):
        why = outcome.notes[0] if outcome.notes else "expired"
        if why == "moved_on":
            return translate(lang, "The game moved on before everyone answered: nothing "
                             "changed.")
        return translate_n(lang, "Not everyone answered within {count} second, which counts "
                           "as a refusal: nothing changed.", "Not everyone answered within "
                           "{count} seconds, which counts as a refusal: nothing changed.",
                           int(TAKE_BACK_S))
    if outcome.status == "refused":
        return translate(lang, "Refused by {name}: nothing changed.",
                         name=_name(outcome.seats, outcome.by or 0, lang))
    return translate(lang, "Everyone allowed it: the move is taken back.")


async def ask(bot: Host, interaction: discord.Interaction, game_id: int) -> None:
    """``/game takeback``: ask the table (already acknowledged, ephemeral). Raises
    :class:`GameError` for a refused request."""
    outcome = await bot.service.ask_take_back(game_id, interaction.user.id)
    if outcome.status == "done":
        await send_ephemeral(interaction, translate(
            lang_of(interaction, _lang(outcome.record)), "Your last move is taken back."))
        return
    record, request = outcome.record, outcome.request
    where = record.thread_id or record.channel_id
    if where is None:
        raise GameError("no_thread", N_("This game has no thread to ask in."))
    channel = bot.get_partial_messageable(where)
    message = await lean.send(channel, view=request_card(record, outcome.seats, request),
                              allowed_mentions=pinging(request.asked))
    await bot.service.note_take_back_message(record.id, request.version, message)
    await send_ephemeral(interaction, translate_n(
        lang_of(interaction, _lang(record)), "The other players are asked; they have "
        "{count} second to allow it.", "The other players are asked; they have {count} "
        "seconds to allow it.", int(TAKE_BACK_S)))


async def answer(bot: Host, interaction: discord.Interaction, cid: ids.ComponentId) -> None:
    """Allow or Refuse pressed on a request: the request message is edited to show the
    answer (or its end). Raises :class:`GameError` for an answer refused (sent as a
    private sentence by the router)."""
    if cid.version is None:
        raise GameError("bad_button", N_("This button is not one herdbot understands."))
    await defer(interaction)
    outcome = await bot.service.answer_take_back(cid.game_id, interaction.user.id,
                                                 cid.version, cid.code == ALLOW)
    if outcome.status == "waiting":
        view = request_card(outcome.record, outcome.seats, outcome.request)
    else:
        lang = _lang(outcome.record)
        view = closed_card(outcome.seats, outcome.request, ending(outcome, lang), lang)
    await _edit(interaction, view)


async def _edit(interaction: discord.Interaction, view: ui.LayoutView) -> None:
    """Edit the message the button is on (never raises for Discord's refusal)."""
    try:
        await interaction.edit_original_response(view=view,
                                                 allowed_mentions=pinging([]))
    except discord.HTTPException as exc:
        log.info("could not edit the take-back request: %s", exc)


async def show_lapsed(bot: Host, update: Update) -> None:
    """A request nobody (or not everybody) answered in time, or made void by a move: its
    message is closed (never raises for Discord's refusal)."""
    request: Any = update.take_back
    record = update.record
    where = record.thread_id or record.channel_id
    if not isinstance(request, TakeBackRequest) or request.message_id is None or where is None:
        return
    channel = bot.get_partial_messageable(where)
    try:
        await lean.edit(channel, request.message_id,
                        view=closed_card(update.seats, request, ending(update, _lang(record)),
                                         _lang(record)),
                        allowed_mentions=pinging([]))
    except discord.HTTPException as exc:
        log.info("game %s: could not close the take-back request: %s", record.id, exc)


__all__ = ["ALLOW", "REFUSE", "answer", "ask", "closed_card", "ending", "request_card",
           "show_lapsed"]
