"""The Llamas & Alpacas rules engine (pure; rulebook ``llamas-and-alpacas.txt`` and
RULES.md: Llamas & Alpacas).

Phases and who decides (see :meth:`LlamasAlpacasEngine.pending`):

- ``"setup"``: every seat that has not placed its starting card yet, in any order;
  action :class:`Place` (space 0-8).
- ``"turn"``: the active seat; :class:`Take` (position 1-6) or :class:`Move` (from, to).
- ``"keep_treats"``: after a take that would leave the player above 10 treats with more
  than one way to keep 10; :class:`Keep` (clovers, carrots summing to 10).
- ``"choose_space"``: the taken card is held; :class:`Place` (space 0-8; an empty space,
  or any space when the board is full, which replaces that card).
- ``"finished"``: nobody.

Board spaces are 0-8 row by row; row positions are 1-6 (1 is free to take).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from functools import cache

from pydantic import TypeAdapter

from bot.games.base import (
    Action,
    Engine,
    Event,
    Pending,
    Result,
    ScoreLine,
    rng,
    say,
)
from bot.games.llamas_alpacas.cards import card, cards_by_id
from bot.games.llamas_alpacas.legal import (
    ANIMAL,
    KEEPS,
    PLACES,
    TAKES,
    acting_index,
    affordable_count,
    keep_range,
    moves_for,
    player_state,
    refuse,
)
from bot.games.llamas_alpacas.models import (
    BOARD_SIZE,
    END_SCORE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    ROW_SIZE,
    TREAT_LIMIT,
    Keep,
    KeepChoice,
    LlamasAlpacasAction,
    LlamasAlpacasOptions,
    LlamasAlpacasState,
    LlamasAlpacasView,
    Move,
    Place,
    PlayerState,
    PlayerView,
    RowCardView,
    RowSlot,
    Take,
    TakeCost,
)
from bot.games.llamas_alpacas.scoring import (
    card_key,
    lines_through,
    payment,
    score_keys,
    space_name,
)


@cache
def _fresh_slot(card_id: int) -> RowSlot:
    """The row slot of ``card_id`` with no treats on it, shared by every state: row slots
    are never changed in place, only replaced (see ``_clone``)."""
    return RowSlot(card=card_id)


def _clone(state: LlamasAlpacasState) -> LlamasAlpacasState:
    """A copy that shares only parts no engine step changes in place (row slots are
    replaced, never changed): ``play`` on the copy or on the original never reaches the
    other. Used by ``apply`` (on its input) and ``fork``."""
    replace = dataclasses.replace
    return replace(
        state,
        seats=list(state.seats),
        players=[replace(p, board=list(p.board), lines=list(p.lines)) for p in state.players],
        row=list(state.row),
        draw=list(state.draw),
        discard=list(state.discard),
    )


#: Card id -> its scoring key (:func:`~bot.games.llamas_alpacas.scoring.card_key`).
_KEY = {cid: card_key(c) for cid, c in cards_by_id().items()}
#: ``pending`` keys of the first turns, made once.
_TURN_KEYS = tuple(f"turn-{n}" for n in range(1024))
#: Space -> the row and the column through it.
_THROUGH = tuple(tuple(lines_through(sp)) for sp in range(BOARD_SIZE))


class LlamasAlpacasEngine(Engine[LlamasAlpacasState, LlamasAlpacasOptions]):
    """Llamas & Alpacas for 2-4 players. Stateless; every method is pure."""

    key = "llamas-alpacas"
    state_model = LlamasAlpacasState
    options_model = LlamasAlpacasOptions
    action_adapter = TypeAdapter(LlamasAlpacasAction)
    only_pending_act = True

    # ---- set-up ---------------------------------------------------------------------

    def new_game(
        self, players: Sequence[str], *, seed: int, options: LlamasAlpacasOptions | None = None
    ) -> LlamasAlpacasState:
        """Shuffle, deal the row of 6, give each seat 3 clovers, 3 carrots and a non-wild
        starting card (wild cards drawn for it go back and the pile is reshuffled), and
        pick the first player at random (rulebook "Game Preparation").

        Raises ``ValueError`` unless there are 2-4 distinct seats."""
        seats = list(players)
        if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
            raise ValueError("Llamas & Alpacas needs 2 to 4 players.")
        if len(set(seats)) != len(seats):
            raise ValueError("seat ids must be distinct")
        state = LlamasAlpacasState(seats=seats, seed=seed, players=[], row=[], draw=[])
        deck = sorted(cards_by_id())
        rng(state).shuffle(deck)
        state.draw = deck
        state.row = [_fresh_slot(state.draw.pop()) for _ in range(ROW_SIZE)]
        set_aside: list[int] = []
        for seat in seats:
            start = state.draw.pop()
            while card(start).wild:
                set_aside.append(start)
                start = state.draw.pop()
            state.players.append(PlayerState(seat=seat, start_card=start))
        if set_aside:
            state.draw.extend(set_aside)
            rng(state).shuffle(state.draw)
        state.first = rng(state).randrange(len(seats))
        state.active = state.first
        return state

    # ---- queries --------------------------------------------------------------------

    def pending(self, state: LlamasAlpacasState) -> Pending:
        """Setup: every seat still holding its starting card (kind ``"setup"``); then the
        active seat with kind ``"turn"``, ``"keep_treats"`` or ``"choose_space"``; no
        rules deadline. ``key`` stays the same through the steps of one turn."""
        phase = state.phase
        if phase == "finished":
            return Pending([], "finished", "finished")
        if phase == "setup":
            seats = [p.seat for p in state.players if p.start_card is not None]
            return Pending(seats, "setup", "setup")
        n = state.turn_no
        key = _TURN_KEYS[n] if n < len(_TURN_KEYS) else f"turn-{n}"
        return Pending([state.seats[state.active]], phase, key)

    def costs(self, state: LlamasAlpacasState, seat: str) -> list[TakeCost | None]:
        """Per row position, what ``seat`` would pay to take it (``None``: unaffordable)."""
        p = player_state(state, seat)
        if p is None:
            return [None] * len(state.row)
        animals = [card(r.card).animal for r in state.row]
        out: list[TakeCost | None] = []
        for pos in range(1, len(state.row) + 1):
            paid = payment(animals, p.clovers, p.carrots, pos)
            out.append(
                None
                if paid is None
                else TakeCost(clovers=sum(a for a, _ in paid), carrots=sum(b for _, b in paid))
            )
        return out

    def legal_actions(self, state: LlamasAlpacasState, player: str) -> list[Action]:
        """Every complete action ``player`` may take now, in a stable order.

        setup: Place on each space (if still holding the starting card); turn: each
        affordable Take, then each Move (occupied -> empty); keep_treats: each Keep split
        of exactly 10; choose_space: Place on each empty space (each space when full)."""
        phase = state.phase
        if phase == "setup":
            p = player_state(state, player)
            if p is None or p.start_card is None:
                return []
            return list(PLACES)
        active = state.active
        if phase == "finished" or state.seats[active] != player:
            return []
        p = state.players[active]
        if phase == "turn":
            acts: list[Action] = TAKES[: affordable_count(state.row, p.clovers, p.carrots)]
            b = p.board
            acts += moves_for(
                (
                    b[0] is None, b[1] is None, b[2] is None,
                    b[3] is None, b[4] is None, b[5] is None,
                    b[6] is None, b[7] is None, b[8] is None,
                )
            )
            return acts
        if phase == "keep_treats":
            k = state.keep
            assert k is not None
            return [KEEPS[c] for c in keep_range(k.clovers, k.carrots)]
        # choose_space
        empty = [s for s in range(BOARD_SIZE) if p.board[s] is None]
        return [PLACES[s] for s in (empty or range(BOARD_SIZE))]

    # ---- apply ----------------------------------------------------------------------

    def apply(
        self, state: LlamasAlpacasState, player: str, action: Action
    ) -> tuple[LlamasAlpacasState, list[Event]]:
        """Apply ``action`` for ``player`` on a copy; ``version`` + 1.

        Raises :class:`IllegalAction` with codes ``game_over``, ``not_in_game``,
        ``not_your_turn``, ``already_placed``, ``cannot_pay``, ``occupied``, ``empty_space``,
        ``wrong_step``, ``bad_keep`` or ``bad_action``; the input state is never changed."""
        index = acting_index(state, player, action)
        if index < 0:
            refuse(state, player, action)
        s = _clone(state)
        events: list[Event] = []
        self._step(s, s.players[index], action, events)
        return s, events

    def take_back_point(self, before: LlamasAlpacasState, seat: str, action: Action,
                        after: LlamasAlpacasState) -> bool:
        """Place, Move and Keep show nothing hidden (boards, row and treats are open; only
        the draw pile is hidden): they may be taken back unless they ended the game. Take
        refills the row from the draw pile, so it may not."""
        return (type(action) in (Place, Move, Keep) and after.phase != "finished"
                and after.rng_calls == before.rng_calls and len(after.draw) == len(before.draw))

    def play(self, state: LlamasAlpacasState, player: str, action: Action) -> None:
        """:meth:`apply` in place and without events, for playouts (bench, AI search).

        Any state may be played on, also one given to or returned by :meth:`apply` (they
        share only parts no step changes in place); every other state holding ``state``
        sees the change, so :meth:`fork` first to keep the original. Same rules and
        refusals as :meth:`apply`; afterwards ``state`` equals what :meth:`apply` would
        have returned. Raises :class:`IllegalAction` (state unchanged)."""
        index = acting_index(state, player, action)
        if index < 0:
            refuse(state, player, action)
        self._step(state, state.players[index], action, None)

    def fork(self, state: LlamasAlpacasState) -> LlamasAlpacasState:
        """An independent copy of ``state`` for :meth:`play` (see ``_clone``)."""
        return _clone(state)

    def _step(
        self, s: LlamasAlpacasState, p: PlayerState, action: Action, events: list[Event] | None
    ) -> None:
        """Carry out an allowed ``action`` of ``p`` on ``s`` (owned by the caller; ``p`` is
        one of its players); events are produced only when ``events`` is a list."""
        s.version += 1
        if type(action) is Move:  # the commonest action in playouts
            self._move(s, p, action, events)
        elif s.phase == "setup":
            assert type(action) is Place
            self._place_start(s, p, action.space, events)
        elif type(action) is Take:
            self._take(s, p, action.position, events)
        elif type(action) is Keep:
            self._keep(s, p, action, events)
        else:
            assert type(action) is Place
            self._place_taken(s, p, action.space, events)

    def _place_start(
        self, s: LlamasAlpacasState, p: PlayerState, space: int, events: list[Event] | None
    ) -> None:
        cid = p.start_card
        assert cid is not None
        p.board[space] = cid
        p.start_card = None
        if events is not None:
            say(events, "placed_start",
                f"{p.seat} places the starting card, {card(cid).describe()}, on {space_name(space)}.",
                seat=p.seat, card=cid, space=space)
        if all(q.start_card is None for q in s.players):
            s.phase = "turn"
            s.active = s.first
            if events is not None:
                say(events, "turn", f"{s.seats[s.first]} goes first.", seat=s.seats[s.first])

    def _draw(self, s: LlamasAlpacasState, events: list[Event] | None) -> int | None:
        """Draw the top card. The moment the draw pile becomes empty, the discard pile is
        shuffled to become the new draw pile (rulebook "Sequence of Play"; RULES.md: cards
        discarded later stay in the new discard pile). A pile still empty when a card is
        needed (the discard pile was empty at that moment, or a state stored before this
        ruling) is refilled first. ``None`` when both are empty."""
        self._refill(s, events)
        if not s.draw:
            return None
        drawn = s.draw.pop()
        self._refill(s, events)
        return drawn

    @staticmethod
    def _refill(s: LlamasAlpacasState, events: list[Event] | None) -> None:
        """An empty draw pile becomes the shuffled discard pile (when it has cards)."""
        if s.draw or not s.discard:
            return
        s.draw = s.discard
        s.discard = []
        rng(s).shuffle(s.draw)
        if events is not None:
            say(events, "reshuffle",
                f"The discard pile is shuffled into a new draw pile of {len(s.draw)} cards.",
                count=len(s.draw))

    def _take(
        self, s: LlamasAlpacasState, p: PlayerState, position: int, events: list[Event] | None
    ) -> None:
        animals = [ANIMAL[r.card] for r in s.row]
        paid = payment(animals, p.clovers, p.carrots, position)
        assert paid is not None
        for i, (cl, ca) in enumerate(paid):
            slot = s.row[i]
            s.row[i] = RowSlot(card=slot.card, clovers=slot.clovers + cl, carrots=slot.carrots + ca)
            p.clovers -= cl
            p.carrots -= ca
        taken = s.row.pop(position - 1)
        p.clovers += taken.clovers
        p.carrots += taken.carrots
        s.held = taken.card
        if events is not None:
            pay_cl = sum(a for a, _ in paid)
            pay_ca = sum(b for _, b in paid)
            text = f"{p.seat} takes card {position}, {card(taken.card).describe()}"
            if paid:
                text += f", paying {_treats(pay_cl, pay_ca)}"
            if taken.clovers or taken.carrots:
                text += f", picking up {_treats(taken.clovers, taken.carrots)}"
            say(events, "took",
                text + ".",
                seat=p.seat, card=taken.card, position=position, paid=[list(x) for x in paid],
                picked_up=[taken.clovers, taken.carrots])
        # Shift toward position 1 and refill position 6.
        drawn = self._draw(s, events)
        if drawn is not None:
            s.row.append(_fresh_slot(drawn))
        if p.clovers + p.carrots > TREAT_LIMIT:
            target = min(position - 1, len(s.row) - 1)
            options = keep_range(p.clovers, p.carrots)
            if len(options) == 1 or target < 0:
                keep_cl = options[0]
                self._apply_keep(s, p, keep_cl, TREAT_LIMIT - keep_cl, target, events)
            else:
                s.keep = KeepChoice(clovers=p.clovers, carrots=p.carrots, target=target)
                s.phase = "keep_treats"
                return
        s.phase = "choose_space"

    def _apply_keep(
        self,
        s: LlamasAlpacasState,
        p: PlayerState,
        clovers: int,
        carrots: int,
        target: int,
        events: list[Event] | None,
    ) -> None:
        ex_cl, ex_ca = p.clovers - clovers, p.carrots - carrots
        p.clovers, p.carrots = clovers, carrots
        if target >= 0:
            slot = s.row[target]
            s.row[target] = RowSlot(
                card=slot.card, clovers=slot.clovers + ex_cl, carrots=slot.carrots + ex_ca
            )
        if events is not None:
            say(events, "kept",
                f"{p.seat} keeps {_treats(clovers, carrots)} and puts {_treats(ex_cl, ex_ca)} on card {target + 1} of the row.",
                seat=p.seat, kept=[clovers, carrots], excess=[ex_cl, ex_ca], position=target + 1)

    def _keep(
        self, s: LlamasAlpacasState, p: PlayerState, action: Keep, events: list[Event] | None
    ) -> None:
        assert s.keep is not None
        self._apply_keep(s, p, action.clovers, action.carrots, s.keep.target, events)
        s.keep = None
        s.phase = "choose_space"

    def _place_taken(
        self, s: LlamasAlpacasState, p: PlayerState, space: int, events: list[Event] | None
    ) -> None:
        cid = s.held
        assert cid is not None
        s.held = None
        old = p.board[space]
        p.board[space] = cid
        if old is not None:
            s.discard.append(old)
            if events is not None:
                say(events, "replaced",
                    f"{p.seat}'s board is full: {card(cid).describe()} replaces {card(old).describe()} on {space_name(space)}.",
                    seat=p.seat, card=cid, replaced=old, space=space)
        else:
            if events is not None:
                say(events, "placed",
                    f"{p.seat} places {card(cid).describe()} on {space_name(space)}.",
                    seat=p.seat, card=cid, space=space)
        self._score(s, p, space, events)
        self._end_turn(s, p, events)

    def _move(
        self, s: LlamasAlpacasState, p: PlayerState, action: Move, events: list[Event] | None
    ) -> None:
        src, dst = action.src, action.dst
        board = p.board
        cid = board[src]
        assert cid is not None
        board[src] = None
        board[dst] = cid
        if events is not None:
            say(events, "moved",
                f"{p.seat} moves {card(cid).describe()} from {space_name(src)} to {space_name(dst)}.",
                seat=p.seat, card=cid, src=src, dst=dst)
        self._score(s, p, dst, events)
        self._end_turn(s, p, events)

    def _score(
        self, s: LlamasAlpacasState, p: PlayerState, space: int, events: list[Event] | None
    ) -> None:
        """Score the full lines through ``space`` and discard the scored cards."""
        b = p.board
        (_, (r1, r2, r3)), (_, (c1, c2, c3)) = _THROUGH[space]
        if (b[r1] is None or b[r2] is None or b[r3] is None) and (
            b[c1] is None or b[c2] is None or b[c3] is None
        ):
            return  # no full line through the space: nothing to check
        result = score_keys([None if c is None else _KEY[c] for c in p.board], space)
        if not result.lines:
            if result.full_lines:
                if events is not None:
                    say(events, "no_score",
                        f"{' and '.join(result.full_lines)} of {p.seat}'s board is full but scores nothing.",
                        seat=p.seat, lines=list(result.full_lines))
            return
        placed_id = p.board[space]
        for line in result.lines:
            p.lines[line.check.conditions - 1] += 1
        p.score += result.points
        for sp in result.removed:
            cid = p.board[sp]
            assert cid is not None
            s.discard.append(cid)
            p.board[sp] = None
        if events is not None:
            placed = card(placed_id)  # type: ignore[arg-type]
            texts = "; ".join(line.text() for line in result.lines)
            extra = ""
            if result.wild_choice is not None:
                d, _ = result.wild_choice  # a white card's colour: each line's words say it
                if placed.star and d is not None:
                    extra = f" (the star counts as {d} in both lines)"
            say(events, "scored",
                f"{p.seat} scores {result.points} points. {texts}{extra}. "
                f"The {len(result.removed)} cards of the scored line"
                f"{'s' if len(result.lines) > 1 else ''} go to the discard pile.",
                seat=p.seat, points=result.points,
                lines=[{"name": x.name, "spaces": list(x.spaces), "points": x.points,
                        "text": x.text()} for x in result.lines],
                removed=list(result.removed), total=p.score)

    def _end_turn(self, s: LlamasAlpacasState, p: PlayerState, events: list[Event] | None) -> None:
        """Pass the turn left; at 18+ points finish the round (the seat before the first
        player ends it) (rulebook "Game End")."""
        p.turns += 1
        s.turn_no += 1
        s.phase = "turn"
        # Only the acting player's score changed since the last check.
        if not s.end_triggered and p.score >= END_SCORE:
            s.end_triggered = True
            if events is not None:
                say(events, "end_triggered",
                    f"{p.seat} has {p.score} points: this round is the last.",
                    seat=p.seat)
        seats, active = s.seats, s.active
        if s.end_triggered and active == (s.first - 1) % len(seats):
            s.phase = "finished"
            if events is not None:
                res = self.result(s)
                assert res is not None
                say(events, "game_over", res.reason, winners=res.winners, scores=res.scores)
            return
        s.active = (active + 1) % len(seats)
        if events is not None:
            say(events, "turn", f"It is {s.seats[s.active]}'s turn.", seat=s.seats[s.active])

    # ---- view and result -------------------------------------------------------------

    def view(self, state: LlamasAlpacasState, viewer: str | None) -> LlamasAlpacasView:
        """The public table for ``viewer`` (every seat sees the same; the draw pile only as
        a count)."""
        by_id = cards_by_id()
        active = state.seats[state.active] if state.phase not in ("setup", "finished") else None
        costs: list[TakeCost | None] = (
            self.costs(state, active)
            if active is not None and state.phase == "turn"
            else [None] * len(state.row)
        )
        res = self.result(state)
        return LlamasAlpacasView(
            viewer=viewer,
            version=state.version,
            phase=state.phase,
            seats=list(state.seats),
            first=state.seats[state.first],
            active=active,
            pending=self.pending(state).seats,
            row=[
                RowCardView(
                    position=i + 1,
                    card=by_id[r.card],
                    clovers=r.clovers,
                    carrots=r.carrots,
                    cost=costs[i],
                )
                for i, r in enumerate(state.row)
            ],
            players=[
                PlayerView(
                    seat=p.seat,
                    board=[None if c is None else by_id[c] for c in p.board],
                    score=p.score,
                    clovers=p.clovers,
                    carrots=p.carrots,
                    turns=p.turns,
                    placed_start=p.start_card is None,
                    start_card=None if p.start_card is None else by_id[p.start_card],
                    lines=list(p.lines),
                )
                for p in state.players
            ],
            draw_count=len(state.draw),
            discard_count=len(state.discard),
            discard_top=by_id[state.discard[-1]] if state.discard else None,
            held=None if state.held is None else by_id[state.held],
            keep=state.keep,
            end_triggered=state.end_triggered,
            finished=state.phase == "finished",
            winners=res.winners if res else [],
        )

    def result(self, state: LlamasAlpacasState) -> Result | None:
        """Once finished: most points wins; tie -> most treats; still tied -> shared
        victory (rulebook "Game End"). Breakdown: lines by conditions met, treats held."""
        if state.phase != "finished":
            return None
        scores = {p.seat: p.score for p in state.players}
        best = max(scores.values())
        tied = [p for p in state.players if p.score == best]
        most = max(p.clovers + p.carrots for p in tied)
        winners = [p.seat for p in tied if p.clovers + p.carrots == most]
        breakdown = {}
        for p in state.players:
            lines = [
                ScoreLine(
                    label=f"{n} line{'s' if n != 1 else ''} with {i + 1} condition{'s' if i else ''}",
                    points=n * 2 * (i + 1),
                )
                for i, n in enumerate(p.lines)
                if n
            ]
            lines.append(
                ScoreLine(label=f"Treats held (tie-break): {p.clovers + p.carrots}", points=0)
            )
            breakdown[p.seat] = lines
        if len(winners) == 1:
            how = "" if len(tied) == 1 else f" (tie on points, most treats: {most})"
            reason = f"{winners[0]} wins with {best} points{how}."
        else:
            reason = f"Shared victory for {', '.join(winners)} with {best} points and {most} treats each."
        return Result(scores=scores, winners=winners, breakdown=breakdown, reason=reason)


def _treats(clovers: int, carrots: int) -> str:
    parts = []
    if clovers:
        parts.append(f"{clovers} clover{'s' if clovers != 1 else ''}")
    if carrots:
        parts.append(f"{carrots} carrot{'s' if carrots != 1 else ''}")
    return " and ".join(parts) if parts else "nothing"
