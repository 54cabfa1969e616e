"""Custom ids of herdbot components: ``<kind>:<scope>:<game_id>:<version>:<code>``.

- ``kind``: ``hb`` for a button, ``hs`` for a select (DynamicItem templates differ per type).
- ``scope``: ``l`` lobby, ``g`` game table, ``r`` a finished game's replay viewer.
- ``version``: the state version the component was drawn for, or ``x`` for components that
  work at any version (My hand, Join ...).
- ``code``: what the component does, interpreted by the lobby or the game's cog; at most
  the 100 characters Discord allows for the whole id. A paged select adds ``,p<page>``
  (its Previous/Next buttons ``,b<page>`` / ``,f<page>``; see :mod:`bot.discord.choices`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_ID = re.compile(r"(?P<kind>hb|hs):(?P<scope>[lgr]):(?P<game>\d{1,18}):(?P<ver>\d{1,9}|x):(?P<code>[\w.,=\-]{0,80})")


class BadCustomId(ValueError):
    """A custom id that is not one of herdbot's."""


@dataclass(frozen=True)
class ComponentId:
    """A parsed custom id. ``version`` is ``None`` for version-free components."""

    kind: str
    scope: str
    game_id: int
    version: int | None
    code: str

    def encode(self) -> str:
        """The custom id string (raises ``ValueError`` past 100 characters)."""
        ver = "x" if self.version is None else str(self.version)
        text = f"{self.kind}:{self.scope}:{self.game_id}:{ver}:{self.code}"
        if len(text) > 100 or not _ID.fullmatch(text):
            raise ValueError(f"bad custom id {text!r}")
        return text


def button_id(scope: str, game_id: int, code: str, version: int | None = None) -> str:
    """Custom id of a herdbot button."""
    return ComponentId("hb", scope, game_id, version, code).encode()


def select_id(scope: str, game_id: int, code: str, version: int | None = None) -> str:
    """Custom id of a herdbot select."""
    return ComponentId("hs", scope, game_id, version, code).encode()


def parse(custom_id: str) -> ComponentId:
    """Parse a custom id. Raises :class:`BadCustomId` when it is not herdbot's."""
    match = _ID.fullmatch(custom_id or "")
    if match is None:
        raise BadCustomId(custom_id)
    ver = match["ver"]
    return ComponentId(
        match["kind"], match["scope"], int(match["game"]), None if ver == "x" else int(ver),
        match["code"],
    )
