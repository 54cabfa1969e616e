"""What a member is told when a request breaks, and the log line for a database refusal.

The sentences are shared by the router (clicks), the command tree and the outbox, which
answer a member truthfully whether what they did was saved before it broke.
"""

from __future__ import annotations

import logging

import discord

from bot.i18n import N_, translate

log = logging.getLogger("bot.discord.bot")

#: What a player sees when something unexpected breaks (the log gets the traceback).
OOPS = N_("Something went wrong on our side; nothing was changed. Please try again.")
#: The same when the game had already changed (stored) before it broke.
OOPS_AFTER_CHANGE = N_("Something went wrong on our side after the game was updated; what "
                     "you did was saved. See /game status.")
#: What a player sees when the database refuses a write (a full disk), cannot be read, or
#: (PostgreSQL) cannot be reached: nothing was written, and the same click works later.
STORE_DOWN = N_("herdbot cannot save anything right now (its database is full or unavailable), "
              "so this was not done. Please try again in a few minutes.")
#: The same when what the member did was stored and a later write (AI moves, timers) failed.
STORE_DOWN_AFTER_CHANGE = N_(
    "What you did was saved, but herdbot cannot save anything more right now (its database "
    "is full or unavailable). The game carries on by itself as soon as it can save again.")

#: What a member is told when the bot is handling as many clicks as it can at once: the
#: click was refused before anything was read or stored.
BUSY = N_("herdbot is very busy; your move was not made, try again in a moment.")
#: The same for a slash command.
BUSY_COMMAND = N_("herdbot is very busy; your command was not run, try again in a moment.")

#: Discord's error codes for a channel that no longer exists and for a locked thread.
UNKNOWN_CHANNEL = 10003
THREAD_ARCHIVED = 50083
#: ... for a message that no longer exists, for too many edits of an old message (over
#: an hour old), for a missing permission and for a channel the bot cannot see.
UNKNOWN_MESSAGE = 10008
EDIT_LIMIT = 30046
MISSING_PERMISSIONS = 50013
MISSING_ACCESS = 50001


def log_store_error(what: str, exc: Exception) -> None:
    """One log line (no traceback) for a request refused because the database failed."""
    log.warning("%s refused: database error (%s: %s)", what, type(exc).__name__, exc)


def thread_is_gone(exc: discord.HTTPException) -> bool:
    """True when Discord says the game's channel or thread no longer exists (404, 10003)."""
    return exc.status == 404 and exc.code == UNKNOWN_CHANNEL


def thread_refuses(exc: discord.HTTPException) -> bool:
    """True when Discord refused a request for the game's thread itself (deleted, locked,
    out of the bot's sight): a new message there would be refused alike."""
    return thread_is_gone(exc) or exc.code in (THREAD_ARCHIVED, MISSING_ACCESS)


def why_not_posted(exc: discord.HTTPException, lang: str | None = None) -> str:
    """A few words in ``lang`` on why Discord refused a post in the game's thread (for a
    sentence, in brackets)."""
    if exc.code == THREAD_ARCHIVED:
        return translate(lang, "it is locked")
    if exc.code == MISSING_PERMISSIONS:
        return translate(lang, "I am missing a permission there")
    if exc.code == MISSING_ACCESS:
        return translate(lang, "I cannot see it")
    if thread_is_gone(exc):
        return translate(lang, "it was deleted")
    return translate(lang, "Discord refused the message")


def why_not_edited(exc: discord.HTTPException, lang: str | None = None) -> str:
    """A few words in ``lang`` on why Discord refused the edit of a table message in the
    game's thread (for a sentence, in brackets)."""
    if exc.code == EDIT_LIMIT:
        return translate(lang, "Discord allows no more edits of it for now")
    if exc.code == UNKNOWN_MESSAGE:
        return translate(lang, "the message was deleted")
    if exc.code in (THREAD_ARCHIVED, MISSING_PERMISSIONS, MISSING_ACCESS) or thread_is_gone(exc):
        return why_not_posted(exc, lang)
    return translate(lang, "Discord refused the edit")
