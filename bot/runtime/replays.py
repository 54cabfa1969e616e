"""Replays: a finished game rebuilt from its seed, options and stored action log.

:func:`open_replay` reads a game once (its row, seats and action log) and checks that it
may be replayed; :class:`Replay` then gives the state after any step by playing the
engine again from the nearest kept state (one kept every :data:`CHECKPOINT_EVERY` steps,
so a step of a 2,000-move game costs at most that many engine steps). Step ``n`` is the
state of version ``n``: step 0 is the deal, step ``n`` the state after the ``n``-th
action (a take-back, :mod:`bot.games.takeback`, restores the state before the move it
names). The narration of a step is the events stored with its action (the engine's own
words at the time), never made again.

A step's *batch* is the stored moves written together with it (one click and the AI
moves after it, or one timer), which the game's thread showed as one table: the actions
of one batch share their ``created_at`` (the store's clock when they were written).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.games.base import Action, Event, IllegalAction, State
from bot.games.registry import GameSpec
from bot.games.takeback import TakeBack, parse_logged, taken_back
from bot.i18n import translate
from bot.runtime.lobby import LobbyOps
from bot.runtime.service import GameService
from bot.runtime.updates import GameError, GameUnreadable, game_title
from bot.store import GameRecord, SeatRecord, UnreadableRow

#: A state is kept every this many steps (the cost of a step, in engine steps, at most).
CHECKPOINT_EVERY = 32
#: The statuses of a game that may be replayed: played to its end, or ended early.
REPLAYABLE = ("finished", "ended")


class ReplayRefused(GameError):
    """A game that cannot be replayed, with the member's sentence (``message``)."""


@dataclass(frozen=True)
class Move:
    """One stored action of the log: the seat that made it, the action, the events stored
    with it and when its batch was written (Unix seconds)."""

    seat: str
    action: Action
    events: list[Event]
    written: float


@dataclass
class Replay:
    """A game's replay: ``record`` and ``seats`` as stored, ``spec`` its game, ``moves``
    its log in order (move ``n - 1`` makes version ``n``), ``options`` the engine's
    options. :meth:`state_at` plays the engine; the states it keeps are bounded by
    ``len(moves) / CHECKPOINT_EVERY + 1``."""

    record: GameRecord
    seats: list[SeatRecord]
    spec: GameSpec
    options: Any
    moves: list[Move]
    #: step -> the state after it, for steps that are multiples of CHECKPOINT_EVERY
    kept: dict[int, State] = field(default_factory=dict)
    #: True once the last step was checked against the stored end state
    checked: bool = False

    @property
    def last(self) -> int:
        """The last step (the game's final version)."""
        return len(self.moves)

    def state_at(self, step: int) -> State:
        """The state after ``step`` (0: the deal), clamped to ``0..last``. The last step is
        checked once against the stored state: raises :class:`ReplayRefused` when the log
        no longer plays to it (rules changed since the game was played)."""
        step = max(0, min(step, self.last))
        engine = self.spec.engine
        base = step - step % CHECKPOINT_EVERY
        while base not in self.kept and base > 0:
            base -= CHECKPOINT_EVERY
        if 0 not in self.kept:
            self.kept[0] = engine.new_game([s.seat for s in self.seats], seed=self.record.seed,
                                           options=self.options)
        state = engine.fork(self.kept[base])
        try:
            for n in range(base, step):
                state = self._play(state, n)
                if (n + 1) % CHECKPOINT_EVERY == 0 and n + 1 not in self.kept:
                    self.kept[n + 1] = engine.fork(state)
        except IllegalAction as exc:
            raise self._no_longer_plays() from exc
        if step == self.last and not self.checked:
            stored = self.record.state
            if stored is None or engine.load_state(stored).model_dump() != state.model_dump():
                raise self._no_longer_plays()
            self.checked = True
        return state

    def _play(self, state: State, n: int) -> State:
        """``state`` (step ``n``'s) after move ``n``: the engine's play, or for a
        take-back the state before the move it names, at the next version."""
        move = self.moves[n]
        if isinstance(move.action, TakeBack):
            if not 1 <= move.action.version <= n:
                raise self._no_longer_plays()
            return taken_back(self.state_at(move.action.version - 1), n + 1)
        self.spec.engine.play(state, move.seat, move.action)
        return state

    def _no_longer_plays(self) -> ReplayRefused:
        name, number = self.spec.name, self.record.id
        return ReplayRefused("replay_mismatch", lambda lang: translate(
            lang, "{title}: its moves no longer play as they were played (the rules "
            "changed since), so it cannot be replayed.",
            title=game_title(lang, name, number)))

    @property
    def title(self) -> str:
        """The game's name and number (``<name> #<id>``)."""
        return f"{self.spec.name} #{self.record.id}"

    def events(self, step: int) -> list[Event]:
        """Every event of ``step``'s action (none for step 0, the deal)."""
        return [] if step <= 0 else self.moves[step - 1].events

    def batch_events(self, step: int) -> list[Event] | None:
        """The public events of ``step``'s batch up to and including ``step`` (what the
        thread's table showed once the batch was written, when ``step`` ends it); ``None``
        for step 0, before any move."""
        if step <= 0:
            return None
        written = self.moves[step - 1].written
        first = step - 1
        while first > 0 and self.moves[first - 1].written == written:
            first -= 1
        return [e for m in self.moves[first:step] for e in m.events if e.to is None]

    def turn_starts(self, turn: Callable[[State], str]) -> list[int]:
        """The steps where a turn begins (``turn`` of the state differs from the step
        before's; step 0 begins the first), then the last step, in order: one engine
        play per move. Raises :class:`ReplayRefused` as :meth:`state_at`."""
        engine = self.spec.engine
        state = engine.fork(self.state_at(0))
        starts = [0]
        before = turn(state)
        try:
            for n in range(1, self.last + 1):
                state = self._play(state, n - 1)
                now = turn(state)
                if now != before or n == self.last:
                    starts.append(n)
                before = now
        except IllegalAction as exc:
            raise self._no_longer_plays() from exc
        return starts


async def open_replay(service: GameService, game_id: int, guild_id: int | None) -> Replay:
    """Read game ``game_id`` for a replay asked in server ``guild_id``: three store reads
    (the row, the seats, the action log). Raises :class:`ReplayRefused` (or the service's
    :class:`GameError`) with a sentence for the member: no such game in this server (a
    game of another server is answered the same, so nothing about it is told), a game not
    over yet, a quarantined game, a log that does not read back."""
    try:
        record = await service.record_or_stub(game_id)
    except GameError as exc:
        if exc.code != "no_game":
            raise
        record = None
    if record is None or guild_id is None or record.guild_id != guild_id:
        raise ReplayRefused("no_game", lambda lang: translate(
            lang, "There is no game #{number} in this server.", number=game_id))
    spec = service.registry.get(record.kind)

    def title(lang: str) -> str:
        if spec is None:
            return translate(lang, "game #{number}", number=game_id)
        return game_title(lang, spec.name, game_id)

    if record.status in ("lobby", "cancelled", "expired"):
        raise ReplayRefused("not_played", lambda lang: translate(
            lang, "{title} was never played, so there is nothing to replay.",
            title=title(lang)))
    if record.status not in REPLAYABLE:
        raise ReplayRefused("not_over", lambda lang: translate(
            lang, "{title} is still being played: its replay opens once it is over.",
            title=title(lang)))
    unreadable = ReplayRefused("game_unreadable", lambda lang: translate(
        lang, "{title}'s saved data cannot be read, so it cannot be replayed.",
        title=title(lang)))
    try:
        record, seats, spec, _ = await service.load(game_id)
        rows = await service.store.actions(game_id)
        moves = [Move(r.seat, parse_logged(spec.engine, r.action),
                      [Event.model_validate(e) for e in r.events], r.created_at) for r in rows]
        options = LobbyOps.engine_options(spec, record.options, len(seats))
    except (GameUnreadable, UnreadableRow, IllegalAction, ValueError, TypeError,
            KeyError) as exc:
        raise unreadable from exc
    if [r.version for r in rows] != list(range(1, record.version + 1)):
        raise unreadable
    return Replay(record, seats, spec, options, moves)


__all__ = ["CHECKPOINT_EVERY", "REPLAYABLE", "Move", "Replay", "ReplayRefused", "open_replay"]
