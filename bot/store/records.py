"""The store's records (one validated row each) and its refusals; the parsing of rows."""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from pydantic import BaseModel, ValidationError

from bot.store.db import Row


class LobbyLimit(Exception):
    """Raised by :meth:`Store.create_game` when the host already has ``open`` open lobbies
    in the server (``open`` >= the ``max_open`` asked for); nothing was created."""

    def __init__(self, open_lobbies: int) -> None:
        super().__init__(f"{open_lobbies} open lobbies")
        self.open = open_lobbies


class StaleVersion(Exception):
    """The game's stored version is not the one the caller expected (an old button)."""

    def __init__(self, expected: int, actual: int) -> None:
        super().__init__(f"expected version {expected}, stored {actual}")
        self.expected = expected
        self.actual = actual


class UnreadableRow(ValueError):
    """A stored row of game ``game_id`` (the game itself or one of its seats) that does not
    validate: hand-edited, written by a newer herdbot, or missing a field. ``reason`` is a
    one-line summary of the validation error (field paths and messages, no values)."""

    def __init__(self, game_id: int, reason: str) -> None:
        super().__init__(f"game {game_id}: {reason}")
        self.game_id = game_id
        self.reason = reason


def describe_error(exc: Exception, limit: int = 3) -> str:
    """One line naming what failed in ``exc``: for a pydantic ``ValidationError`` the first
    ``limit`` errors as ``path: message`` (never the stored values), else ``Type: text``."""
    if isinstance(exc, ValidationError):
        errors = exc.errors(include_url=False, include_input=False)
        parts = [f"{'.'.join(str(p) for p in e['loc']) or '(root)'}: {e['msg']}"
                 for e in errors[:limit]]
        more = f" (+{len(errors) - limit} more)" if len(errors) > limit else ""
        return f"{exc.error_count()} validation error(s): " + "; ".join(parts) + more
    text = " ".join(str(exc).split())[:200]
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class GameHeader(BaseModel):
    """The few columns of a game row that ending and archiving it need, read without
    parsing its options, state or seats (for a game whose row does not validate).
    A column that is not of its type reads as ``None``."""

    id: int
    kind: str | None
    guild_id: int | None
    channel_id: int | None
    thread_id: int | None
    table_message_id: int | None
    host_id: int | None
    status: str | None


class GameRecord(BaseModel):
    """One row of ``games``: a lobby or a game. ``state`` is the engine state JSON."""

    id: int
    kind: str
    guild_id: int | None
    channel_id: int | None
    thread_id: int | None
    lobby_message_id: int | None
    table_message_id: int | None
    host_id: int
    status: str
    options: dict[str, Any]
    seed: int
    state: str | None
    version: int
    created_at: float
    updated_at: float
    #: The decision whose members were last pinged (migration 5; the publisher pings once
    #: per decision).
    pinged_key: str | None = None
    #: The state version the game's thread shows (its table, or what the cog posts instead;
    #: ``None``: nothing posted yet). Behind ``version`` after a crash or a refused post.
    table_version: int | None = None
    #: This game's rematch lobby (migration 10; ``None``: nobody asked for one).
    rematch_id: int | None = None
    #: The game this lobby replays (migration 10; ``None``: not a rematch).
    rematch_of: int | None = None


class SeatRecord(BaseModel):
    """One row of ``seats``: a seat id, its Discord member (``None`` for an AI) and flags."""

    game_id: int
    seat: str
    position: int
    user_id: int | None
    name: str
    is_ai: bool
    missed_turns: int = 0
    ai_takeover: bool = False
    #: What the seat's member was last sent by DM about their hand (a game's own key).
    dm_hand: str | None = None
    #: How strongly an AI seat plays (migration 8; a ``bot.ai.levels.Level`` value). A
    #: member's seat keeps ``"normal"``: a seat the AI takes over plays at Normal.
    ai_level: str = "normal"


class ActionRecord(BaseModel):
    """One row of the append-only action log: the action that produced ``version``."""

    game_id: int
    version: int
    seat: str
    action: dict[str, Any]
    events: list[dict[str, Any]]
    created_at: float


class TimerRecord(BaseModel):
    """A stored timer: at ``due_at`` (unix seconds) fire ``kind`` for the game."""

    id: int
    game_id: int
    kind: str
    key: str
    due_at: float
    payload: dict[str, Any]


class GameBundle(NamedTuple):
    """A game as one read gives it (:meth:`Store.load_game`)."""

    record: GameRecord
    seats: list[SeatRecord]
    #: kind -> the game's timer of that kind
    timers: dict[str, TimerRecord]


#: A timer to write: ``(game_id, kind, key, due_at, payload)``.
TimerRow = tuple[int, str, str, float, dict[str, Any]]


class GuildSettings(BaseModel):
    """Per-server settings; ``None`` fields fall back to the bot's config defaults."""

    guild_id: int
    turn_timer: str | None = None
    dm_notifications: bool | None = None
    game_channel_id: int | None = None
    max_open_lobbies: int | None = None
    end_idle_games: bool | None = None
    #: The language of the server's new games (``None``: its Discord locale, else English).
    language: str | None = None
    #: Play in one message in a channel where herdbot may not run a game's thread
    #: (``None``: off, the missing permissions are named instead).
    one_message: bool | None = None


class StatRecord(BaseModel):
    """Per-server, per-member, per-game statistics."""

    guild_id: int
    user_id: int
    kind: str
    played: int
    won: int
    best_score: int | None


def parse_game(row: Row | dict[str, Any]) -> GameRecord:
    """Parse a games row. Raises :class:`UnreadableRow` when it does not validate."""
    data = dict(row)
    try:
        data["options"] = json.loads(data["options"] or "{}")
        return GameRecord.model_validate(data)
    except (ValueError, TypeError) as exc:
        raise UnreadableRow(int_or(data.get("id"), -1), "game row: " + describe_error(exc)) from exc


def parse_seat(row: Row) -> SeatRecord:
    """Parse a seats row. Raises :class:`UnreadableRow` when it does not validate."""
    data = dict(row)
    try:
        return SeatRecord.model_validate(data)
    except (ValueError, TypeError) as exc:
        raise UnreadableRow(int_or(data.get("game_id"), -1),
                            f"seat {data.get('seat')!r}: " + describe_error(exc)) from exc


def int_or(value: Any, default: int) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def readable_games(rows: list[Row], unreadable: dict[int, str]) -> list[GameRecord]:
    """The rows that parse; the others go to ``unreadable`` (game id -> reason)."""
    out = []
    for row in rows:
        try:
            out.append(parse_game(row))
        except UnreadableRow as exc:
            unreadable[exc.game_id] = exc.reason
    return out


def parse_timer(row: Row) -> TimerRecord:
    data = dict(row)
    data["payload"] = json.loads(data["payload"] or "{}")
    return TimerRecord.model_validate(data)
