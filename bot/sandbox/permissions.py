"""Discord's permission arithmetic for the bot in a channel: base permissions from roles,
channel overwrites, then the implicit denials (Discord's "Permissions" documentation,
"Permission Overwrites" and "Implicit Permissions")."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .payloads import PERMISSIONS

#: Every permission bit: what Administrator grants.
ALL = (1 << 53) - 1


def bits(names: Iterable[str]) -> int:
    """The permission bits named ``names`` (names of :data:`~bot.sandbox.payloads.PERMISSIONS`);
    KeyError for an unknown name."""
    out = 0
    for name in names:
        out |= PERMISSIONS[name]
    return out


def deny(overwrite: dict[str, Any], denied: int) -> None:
    """Deny ``denied`` bits in a permission overwrite (and stop allowing them)."""
    overwrite["deny"] = str(int(overwrite["deny"]) | denied)
    overwrite["allow"] = str(int(overwrite["allow"]) & ~denied)


def undeny(overwrite: dict[str, Any], cleared: int) -> None:
    """Clear the deny bits ``cleared`` of a permission overwrite."""
    overwrite["deny"] = str(int(overwrite["deny"]) & ~cleared)


def effective(base: int, overwrites: Mapping[int, dict[str, Any]], targets: Iterable[int],
              *, in_thread: bool) -> int:
    """Permission bits in a guild channel: ``base`` (the roles' bits, OR-ed), then the
    channel's ``overwrites`` of ``targets`` in order (@everyone, roles, the member), then
    the implicit denials: no View Channel leaves no channel permission at all; no Send
    Messages (in a thread: Send Messages in Threads) takes Embed Links, Attach Files,
    Mention Everyone and Send TTS Messages. Administrator grants every bit."""
    if base & PERMISSIONS["administrator"]:
        return ALL
    for target in targets:
        ow = overwrites.get(target)
        if ow is not None:
            base = (base & ~int(ow["deny"])) | int(ow["allow"])
    perm = PERMISSIONS
    if not base & perm["view_channel"]:
        keep = perm["administrator"] | perm["manage_guild"] | perm["manage_roles"]
        return base & keep
    send = perm["send_messages_in_threads"] if in_thread else perm["send_messages"]
    if not base & send:
        base &= ~(perm["embed_links"] | perm["attach_files"] | perm["mention_everyone"]
                  | perm["send_tts_messages"])
    return base
