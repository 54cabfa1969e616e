"""Every version of every message a member sees, for the demo's offline review.

A :class:`Recorder` watches a world (:attr:`WorldState.watchers`): each message the bot
posts or edits (public, ephemeral or in a DM) is read as a member sees it, once per
change: its text, embeds, buttons and selects (with their options), Components V2 text
displays, and its pictures with their alternative text. Where it was seen: ``"thread"``
(or ``"channel"``) for public messages, ``"<name>"`` for a member's ephemeral, and
``"<name> (DM)"`` for a DM.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from bot.sandbox.model import SimMessage, walk_components
from bot.sandbox.state import WorldState

#: Components V2 types in a transcript (Discord's numbers).
_SELECTS = {3: "select", 5: "user select", 6: "role select", 7: "mentionable select",
            8: "channel select"}
_NAME = re.compile(r"[^A-Za-z0-9_-]+")


def folder_name(name: str) -> str:
    """A member's name as a folder name (letters, digits, ``-`` and ``_``)."""
    return _NAME.sub("-", name).strip("-") or "member"


def component_lines(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What a member sees of ``components``, in order: buttons (label, emoji, style,
    disabled), selects (placeholder, options' labels and descriptions), V2 text displays
    and media (with the alternative text)."""
    out: list[dict[str, Any]] = []
    for c in walk_components(components):
        kind = c.get("type")
        if kind == 2:
            emoji = (c.get("emoji") or {}).get("name")
            out.append({"button": c.get("label") or "", "emoji": emoji, "style": c.get("style"),
                        "disabled": bool(c.get("disabled"))})
        elif kind in _SELECTS:
            out.append({_SELECTS[kind]: c.get("placeholder") or "",
                        "options": [{"label": o.get("label"), "description": o.get("description")}
                                    for o in c.get("options") or []],
                        "disabled": bool(c.get("disabled"))})
        elif kind == 10:
            out.append({"text": c.get("content") or ""})
        elif kind == 12:
            for item in c.get("items") or []:
                out.append({"media": (item.get("media") or {}).get("url"),
                            "alt": item.get("description")})
        elif kind == 11:
            out.append({"media": (c.get("media") or {}).get("url"), "alt": c.get("description")})
    return [{k: v for k, v in line.items() if v not in (None, False)} for line in out]


def look(message: SimMessage) -> dict[str, Any]:
    """``message`` as a member sees it now (JSON-able), pictures as names only."""
    return {
        "content": message.content,
        "embeds": [{k: e.get(k) for k in ("title", "description", "fields", "footer")
                    if e.get(k)} for e in message.embeds],
        "components": component_lines(message.components),
        "files": [{"name": a.filename, **({"alt": a.description} if a.description else {})}
                  for a in message.attachments],
    }


def text_of(entry: Mapping[str, Any]) -> list[str]:
    """An entry of the transcript as readable lines (no trailing blank line)."""
    head = f"[{entry['where']}] message {entry['id']}"
    if entry["version"] > 1:
        head += f", edit {entry['version'] - 1}"
    lines = [head]
    if entry["content"]:
        lines.append(entry["content"])
    for e in entry["embeds"]:
        lines.append(" | ".join(str(e[k]) for k in ("title", "description") if e.get(k)))
        for f in e.get("fields") or []:
            lines.append(f"{f.get('name')}: {f.get('value')}")
        if e.get("footer"):
            lines.append(f"({e['footer'].get('text')})")
    for c in entry["components"]:
        if "button" in c:
            lines.append(f"[button: {c.get('emoji', '')}{c['button']}"
                         f"{' (disabled)' if c.get('disabled') else ''}]")
        elif "text" in c:
            lines.append(c["text"])
        elif "media" in c:
            lines.append(f"[picture {c['media']}: {c.get('alt') or 'no alternative text'}]")
        else:
            kind = next(k for k in c if k.endswith("select"))
            options = "; ".join(str(o["label"]) for o in c.get("options", []))
            lines.append(f"[{kind} '{c[kind]}': {options}]")
    for f in entry["files"]:
        lines.append(f"[file {f['saved'] or f['name']}"
                     + (f": {f['alt']}" if f.get("alt") else "") + "]")
    return lines


class Recorder:
    """Records the versions of the messages of ``world`` into ``out``: public pictures as
    ``turn-NNN.png``, a member's as ``<name>/NNN-<file>`` (each written when it changed)."""

    def __init__(self, world: WorldState, out: Path):
        self.world, self.out = world, out
        self.entries: list[dict[str, Any]] = []
        self._last: dict[int, str] = {}  # message id -> fingerprint of its last look
        self._versions: dict[int, int] = {}
        self._pictures: dict[tuple[int, str], str] = {}  # (message, file) -> digest written
        self.public_pictures = 0
        self._member_pictures: dict[str, int] = {}
        world.watchers.append(self.saw)

    def where(self, message: SimMessage) -> str:
        """Where ``message`` is seen (see the module's docstring)."""
        owner = message.ephemeral_for
        if owner is not None:
            return self.world.member(owner).name
        channel = self.world.channels.get(message.channel_id)
        if channel is not None and channel.kind == "dm" and channel.recipient_id is not None:
            return f"{self.world.member(channel.recipient_id).name} (DM)"
        return "thread" if channel is not None and channel.is_thread else "channel"

    def saw(self, message: SimMessage) -> None:
        """Record ``message`` when what it shows changed (a watcher of the world)."""
        seen = look(message)
        if not (seen["content"] or seen["embeds"] or seen["components"] or seen["files"]):
            return  # a deferred response's placeholder
        digest = hashlib.sha1(repr(seen).encode()).hexdigest()
        for a in message.attachments:
            digest += hashlib.sha1(a.data).hexdigest()
        if self._last.get(message.id) == digest:
            return
        self._last[message.id] = digest
        version = self._versions[message.id] = self._versions.get(message.id, 0) + 1
        where = self.where(message)
        for f, a in zip(seen["files"], message.attachments, strict=True):
            f["saved"] = self._save(message.id, where, a.filename, a.data)
        self.entries.append({"id": message.id, "version": version, "where": where, **seen})

    def _save(self, message_id: int, where: str, filename: str, data: bytes) -> str | None:
        """Write a picture that changed; its path under ``out`` (None: not a picture or
        the same as written before for this message)."""
        if not filename.endswith(".png"):
            return None
        digest = hashlib.sha1(data).hexdigest()
        if self._pictures.get((message_id, filename)) == digest:
            return None
        self._pictures[(message_id, filename)] = digest
        if where in ("thread", "channel"):
            self.public_pictures += 1
            path = f"turn-{self.public_pictures:03d}.png"
        else:
            folder = folder_name(where.removesuffix(" (DM)"))
            n = self._member_pictures[folder] = self._member_pictures.get(folder, 0) + 1
            (self.out / folder).mkdir(parents=True, exist_ok=True)
            path = f"{folder}/{n:03d}-{filename}"
        (self.out / path).write_bytes(data)
        return path

    def public(self) -> Iterator[dict[str, Any]]:
        """The entries of public messages, in order."""
        return (e for e in self.entries if e["where"] in ("thread", "channel"))

    def of_member(self, name: str) -> Iterator[dict[str, Any]]:
        """The entries only ``name`` sees (ephemerals and DMs), in order."""
        return (e for e in self.entries if e["where"] in (name, f"{name} (DM)"))


__all__ = ["Recorder", "component_lines", "folder_name", "look", "text_of"]
