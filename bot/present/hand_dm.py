"""What a seat stores as its last hand DM (``seats.dm_hand``): the version it was sent at
and the card ids it showed, so the next DM is sent only when the hand changed."""

from __future__ import annotations

from collections.abc import Sequence


def hand_record(version: int, cards: Sequence[int]) -> str:
    """What a seat stores as its last hand DM (``dm_hand``): ``"<version>:<sorted ids>"``."""
    return f"{version}:{','.join(map(str, sorted(cards)))}"


def parse_hand_record(stored: str | None) -> tuple[int, list[int]]:
    """``(version, sorted card ids)`` of a stored :func:`hand_record` (``(0, [])`` for
    none; a malformed part reads as nothing)."""
    since, _, last = (stored or "0:").partition(":")
    cards = [int(c) for c in last.split(",") if c.strip().lstrip("-").isdecimal()]
    return (int(since) if since.isdecimal() else 0), cards
