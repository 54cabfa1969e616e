"""Challenge from a profile: a member's context menu (Apps -> "Challenge to <game>") opens
a lobby with both members seated and the challenger's last options for that game; the
challenged member accepts (the game starts) or declines (the lobby closes). Nobody
answering: the lobby closes after an hour like any other.

Refusals, each a sentence with nothing changed: a challenge to a bot or to oneself, and
Accept or Decline pressed by anyone but the challenged member."""

from __future__ import annotations

from typing import Any

import discord

from bot.discord.components import button
from bot.discord.installs import ONE_MESSAGE, is_one_message
from bot.discord.text import md_name
from bot.i18n import ENGLISH, translate
from bot.runtime import GameError
from bot.store import GameRecord, SeatRecord

#: The lobby option naming the challenged member (their user id).
CHALLENGE = "challenge"
#: Options of the challenger's last game that a challenge does not take over.
NOT_CARRIED = ("expires_at", ONE_MESSAGE, CHALLENGE)


def menu_name(game_name: str) -> str:
    """The context menu's name (at most 32 characters, Discord's limit)."""
    return f"Challenge to {game_name}"[:32]


def check_target(interaction: discord.Interaction, member: discord.abc.User) -> None:
    """Refuse a challenge to a bot or to oneself (:class:`GameError`)."""
    if member.bot:
        raise GameError("challenge_bot", "Bots cannot be challenged: open a lobby with /play "
                        "and press Add AI seat to play the AI.")
    if member.id == interaction.user.id:
        raise GameError("challenge_self", "You cannot challenge yourself: pick another member.")


def carried(last: GameRecord | None) -> dict[str, Any]:
    """The options of the challenger's last game of the kind to reuse (turn timer, game
    options, AI level, rated)."""
    if last is None:
        return {}
    return {k: v for k, v in last.options.items() if k not in NOT_CARRIED}


def challenged(record: GameRecord) -> int | None:
    """The challenged member of a challenge lobby, else None."""
    value = record.options.get(CHALLENGE)
    return int(value) if value is not None else None


def challenge_items(record: GameRecord, lang: str = ENGLISH) -> list[discord.ui.Item[Any]]:
    """A challenge lobby's buttons in ``lang``: Accept, Decline (the challenged member)
    and Cancel (the challenger)."""
    gid = record.id
    return [button("l", gid, "accept", translate(lang, "Accept"),
                   style=discord.ButtonStyle.success, row=0),
            button("l", gid, "decline", translate(lang, "Decline"),
                   style=discord.ButtonStyle.danger, row=0),
            button("l", gid, "cancel", translate(lang, "Cancel"), row=0)]


def only_challenged(record: GameRecord, user_id: int) -> None:
    """Refuse Accept or Decline from anyone but the challenged member."""
    if challenged(record) != user_id:
        raise GameError("not_challenged", "Only the challenged member can accept or decline "
                        "this challenge.")


def announcement(record: GameRecord, seats: list[SeatRecord], lang: str = ENGLISH
                 ) -> tuple[str | None, discord.AllowedMentions]:
    """How a new challenge lobby reaches the challenged member: ``(head, allowed
    mentions)``. Where herdbot's bot user is (a server channel), the lobby's mention of
    them pings them and nobody else (a challenge is an invitation they expect); where it is
    played in one message (a DM, a group DM, a server without the bot), the lobby says
    plainly above its title that it waits for them. A lobby that is no challenge: no head,
    nobody pinged."""
    target = challenged(record)
    none = discord.AllowedMentions.none()
    if target is None:
        return None, none
    if not is_one_message(record):
        return None, discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                             users=[discord.Object(target)])
    name = next((s.name for s in seats if s.user_id == target), "")
    bold = f"**{md_name(name)}**"
    return ("\N{BLACK RIGHT-POINTING TRIANGLE} " + translate(
        lang, "Waiting for {name} to accept the challenge.", name=bold), none)
