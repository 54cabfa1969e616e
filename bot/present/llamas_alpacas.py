"""What the Llamas & Alpacas table shows and offers (UX.md: "Llamas & Alpacas").

Everything in this game is public except the order of the draw pile, so every choice is
on the public table message; only the player to act can use it (anyone else pressing is
told whose turn it is by the engine's refusal):

- set-up: a 3x3 grid ``"1 · free"`` ... ``"9 · free"``, one button per space (actions
  ``Place``); every player still holding a starting card uses the same buttons, in any
  order (their decision keys are equal: see :mod:`bot.present.base`).
- turn: ``"Take 1 (free)"``, ``"Take 3 (1🍀 1🥕)"`` ... (disabled when the engine offers no
  such take) and ``"Move a card"``, which opens the private panel ``mv`` (a from-space
  grid), whose buttons open ``mf<src>`` (the to-space grid with "Back").
- keep-treats: a select of the splits (``"Keep 6 clovers, 4 carrots"``).
- choose-space: the 3x3 grid of the active player's board; occupied spaces are disabled
  unless the board is full, when each button names the card it replaces.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.games.base import Action, Event, Pending, Result
from bot.games.llamas_alpacas.engine import LlamasAlpacasEngine
from bot.games.llamas_alpacas.models import (
    TREAT_LIMIT,
    Keep,
    LlamasAlpacasView,
    Move,
    Place,
    PlayerView,
    Take,
    TakeCost,
)
from bot.i18n import ENGLISH, translate, translate_n
from bot.present.base import Choice, Item, Panel, Presenter, Seen, Select, TableModel, alt_join
from bot.present.llamas_alpacas_words import card_short, event_line, rules_summary

#: Names used on the /rules example picture.
EXAMPLE_NAMES = {"s0": "Maya", "s1": "Tomasz", "s2": "Ana"}

CLOVER = "\N{FOUR LEAF CLOVER}"
CARROT = "\N{CARROT}"


def cost_text(cost: TakeCost | None, lang: str = ENGLISH) -> str:
    """A take cost for a button label: ``"free"``, ``"1🍀 1🥕"``, ``"2🥕"``; ``"can't pay"``
    for ``None`` (unaffordable)."""
    if cost is None:
        return translate(lang, "can't pay")
    parts = []
    if cost.clovers:
        parts.append(f"{cost.clovers}{CLOVER}")
    if cost.carrots:
        parts.append(f"{cost.carrots}{CARROT}")
    return " ".join(parts) if parts else translate(lang, "free")


def clovers(n: int, lang: str = ENGLISH) -> str:
    """``"1 clover"``, ``"6 clovers"`` (in ``lang``, its plural forms)."""
    return translate_n(lang, "{count} clover", "{count} clovers", n)


def carrots(n: int, lang: str = ENGLISH) -> str:
    """``"1 carrot"``, ``"4 carrots"`` (in ``lang``)."""
    return translate_n(lang, "{count} carrot", "{count} carrots", n)


def keep_label(clover_count: int, lang: str = ENGLISH) -> str:
    """The keep-treats option for keeping ``clover_count`` clovers and the rest (of 10)
    carrots, e.g. ``"Keep 6 clovers, 4 carrots"``."""
    return translate(lang, "Keep {clovers}, {carrots}", clovers=clovers(clover_count, lang),
                     carrots=carrots(TREAT_LIMIT - clover_count, lang))


def free_label(space: int, lang: str = ENGLISH) -> str:
    """A grid button for the free ``space`` (0-8): ``"4 · free"``."""
    return translate(lang, "{space} · free", space=space + 1)


def space_label(player: PlayerView, space: int, *, replace: bool = False,
                lang: str = ENGLISH) -> str:
    """A grid button label for ``space`` (0-8) of a board: ``"4 · free"``,
    ``"4 · Llama red 2"`` or, when the card would be replaced, ``"4 · replace Llama red 2"``."""
    card = player.board[space]
    if card is None:
        return free_label(space, lang)
    if replace:
        return translate(lang, "{space} · replace {card}", space=space + 1, card=card_short(card, lang))
    return f"{space + 1} · {card_short(card, lang)}"


def points(n: int, lang: str = ENGLISH) -> str:
    """``"1 point"``, ``"12 points"`` (in ``lang``)."""
    return translate_n(lang, "{count} point", "{count} points", n)


def highlight_of(events: list[Event]) -> dict[str, list[int]]:
    """Spaces to outline per seat from public events: where a card was placed, replaced or
    moved to, and every space of a scored line (whose cards have left the board)."""
    out: dict[str, list[int]] = {}
    for e in events:
        seat = e.data.get("seat")
        if e.to is not None or not isinstance(seat, str):
            continue
        spaces: list[int] = []
        if e.type in ("placed_start", "placed", "replaced"):
            spaces = [int(e.data["space"])]
        elif e.type == "moved":
            spaces = [int(e.data["dst"])]
        elif e.type == "scored":
            spaces = [int(sp) for line in e.data.get("lines", []) for sp in line["spaces"]]
        for sp in spaces:
            if sp not in out.setdefault(seat, []):
                out[seat].append(sp)
    return out


def _treats_held(result: Result, seat: str) -> int:
    """The treats ``seat`` held at the end (the tie-break line of the breakdown)."""
    for line in result.breakdown.get(seat, []):
        if not line.points and line.label.rpartition(": ")[2].isdigit():
            return int(line.label.rpartition(": ")[2])
    return 0


def player_of(view: LlamasAlpacasView, seat: str) -> PlayerView:
    """The public view of ``seat``'s player. Raises ``StopIteration`` for an unknown seat."""
    return next(p for p in view.players if p.seat == seat)


def _index(legal: list[Action], action: Action) -> int | None:
    """The index of ``action`` in ``legal`` (``None``: not offered)."""
    try:
        return legal.index(action)
    except ValueError:
        return None


class LlamasAlpacasPresenter(Presenter):
    """Turn text, grid, take, move and keep choices of Llamas & Alpacas (module docstring)."""

    accent = 0xC8A165

    def alt_text(self, view: LlamasAlpacasView, pending: Pending, names: dict[str, str],
                 lines: Sequence[str] = (), *, lang: str = ENGLISH) -> str:
        """The table in words: whose turn (or who still places a starting card), each
        player's score, treats and cards on the board, the row with its treats, the
        draw pile's size and the last move (everything here is public but the pile's
        order)."""
        who = ", ".join(names.get(s, s) for s in pending.seats)
        if view.finished:
            head = translate(lang, "The game is over.")
        elif view.phase == "setup":
            head = translate(lang, "Set-up: {names} still to place a starting card.", names=who)
        else:
            head = translate(lang, "{name} to play.", name=names.get(view.active or '', who))
        players = [translate(lang, "{name}: {points}, {clovers}, {carrots}, {filled} of 9 "
                             "spaces filled.", name=names.get(p.seat, p.seat),
                             points=points(p.score, lang), clovers=clovers(p.clovers, lang),
                             carrots=carrots(p.carrots, lang),
                             filled=sum(c is not None for c in p.board))
                   for p in view.players]
        row = "; ".join(
            translate_n(lang, "{position} {card} with {count} treat",
                        "{position} {card} with {count} treats", r.clovers + r.carrots,
                        position=r.position, card=card_short(r.card, lang))
            if r.clovers + r.carrots else f"{r.position} {card_short(r.card, lang)}"
            for r in view.row)
        turn = translate(lang, "It is {name}'s turn.", name=names.get(view.active or '', who))
        last = [x for x in lines[-1:] if x != turn]  # the head says it already
        return alt_join([head, *last, *players,
                         translate(lang, "Row: {row}.", row=row) if row else "",
                         translate_n(lang, "Draw pile: {count} card.",
                                     "Draw pile: {count} cards.", view.draw_count)],
                        lang=lang)

    game = "llamas-alpacas"
    #: My hand / I'm back below the 3x3 grids.
    utility_row = 3

    def ping_key(self, pending: Pending, view: Any = None) -> str:
        """Once per turn: the players who must place a starting card are pinged on the
        first table only, then the active player when a turn begins (not again for the
        keep-treats and place steps of the same turn, which share the pending key
        ``turn-N``)."""
        return pending.key

    def picture_inputs(self, events: Sequence[Event] | None) -> dict[str, Any]:
        """The spaces outlined in gold on the table picture: where the last update's cards
        landed and the lines it scored (``None`` before any update)."""
        return {"highlight": None if events is None else highlight_of(list(events))}

    def table(self, seen: Seen) -> TableModel:
        """The table for ``seen`` (the spectator view; choices for ``seen.seat``)."""
        view: LlamasAlpacasView = seen.view
        lang = seen.lang
        model = TableModel(seen.seat, seen.key, [self.turn_text(view, seen.names, lang)],
                           picture={"highlight": highlight_of(seen.events)})
        if seen.seat is None or view.finished:
            return model
        legal = seen.legal
        if view.phase == "setup":
            model.items = [
                Choice(free_label(s, lang), index=_index(legal, Place(space=s)), row=s // 3)
                for s in range(9)
            ]
            return model
        if view.active is None:
            return model
        me = player_of(view, view.active)
        if view.phase == "turn":
            items: list[Item] = []
            for slot in view.row:
                idx = _index(legal, Take(position=slot.position))
                label = translate(lang, "Take {position} ({cost})", position=slot.position,
                                  cost=cost_text(slot.cost, lang))
                items.append(Choice(label, index=idx,
                                    disabled=idx is None, row=(slot.position - 1) // 3,
                                    style="primary" if idx is not None else "secondary"))
            moves = [(i, a) for i, a in enumerate(legal) if isinstance(a, Move)]
            items.append(Choice(translate(lang, "Move a card"), opens="mv" if moves else None,
                                style="secondary", disabled=not moves, row=2))
            model.items = items
            if moves:
                model.panels = self._move_panels(me, moves, lang)
            return model
        if view.phase == "keep_treats":
            assert view.keep is not None
            k = view.keep
            options = tuple(
                Choice(keep_label(a.clovers, lang), index=i,
                       description=translate(lang, "{clovers} and {carrots} go onto card {card}",
                                             clovers=clovers(k.clovers - a.clovers, lang),
                                             carrots=carrots(k.carrots - a.carrots, lang),
                                             card=k.target + 1))
                for i, a in enumerate(legal) if isinstance(a, Keep)
            )
            model.items = [Select(translate(lang, "Which 10 treats do you keep?"), options,
                                  noun=translate(lang, "Splits"), row=0)]
            return model
        # choose_space
        full = None not in me.board
        grid: list[Item] = []
        for s in range(9):
            idx = _index(legal, Place(space=s))
            grid.append(Choice(space_label(me, s, replace=full, lang=lang), index=idx, row=s // 3,
                               disabled=idx is None,
                               style="primary" if idx is not None else "secondary"))
        model.items = grid
        return model

    @staticmethod
    def _move_panels(me: PlayerView, moves: list[tuple[int, Move]],
                     lang: str = ENGLISH) -> dict[str, Panel]:
        """The from-space panel ``mv`` and one to-space panel ``mf<src>`` per card that
        can move (``moves``: (index, Move) pairs of the legal actions)."""
        sources = {a.src for _, a in moves}
        grid: list[Item] = []
        for s in range(9):
            card = me.board[s]
            label = f"{s + 1} · {card_short(card, lang)}" if card else free_label(s, lang)
            grid.append(Choice(label, opens=f"mf{s}" if s in sources else None, row=s // 3,
                               disabled=s not in sources,
                               style="primary" if card else "secondary"))
        panels = {"mv": Panel(translate(lang, "Move a card: which card moves? (spaces 1-9, "
                                        "row by row)"), tuple(grid))}
        for src in sorted(sources):
            card = me.board[src]
            assert card is not None
            to: list[Item] = []
            for d in range(9):
                other = me.board[d]
                idx = next((i for i, a in moves if a.src == src and a.dst == d), None)
                if d == src:
                    label = translate(lang, "{space} · {card} (moving)", space=d + 1,
                                      card=card_short(card, lang))
                elif other is None:
                    label = free_label(d, lang)
                else:
                    label = f"{d + 1} · {card_short(other, lang)}"
                to.append(Choice(label, index=idx, row=d // 3, disabled=idx is None,
                                 style="success" if d == src
                                 else "primary" if other is None else "secondary",
                                 says=translate(lang, "Moving {card} from space {src} to space "
                                                "{dst}...", card=card_short(card, lang), src=src + 1,
                                                dst=d + 1)))
            to.append(Choice(translate(lang, "Back"), opens="mv", style="secondary", row=3))
            panels[f"mf{src}"] = Panel(
                translate(lang, "Move **{card}** from space {space} to which free space?",
                          card=card_short(card, lang), space=src + 1), tuple(to))
        return panels

    @staticmethod
    def turn_text(view: LlamasAlpacasView, names: dict[str, str], lang: str = ENGLISH) -> str:
        """What must happen now, in words, e.g. ``"**Maya**'s turn (3🍀 3🥕): take a card
        from the row (card 1 is free) or move a card on your board."``."""
        if view.finished:
            return ""
        if view.phase == "setup":
            waiting = ", ".join(f"**{names[s]}**" for s in view.pending)
            return translate(lang, "Set-up: place your starting card on your board with the "
                             "buttons 1-9 (row by row). Waiting for {names}.", names=waiting)
        assert view.active is not None
        me = player_of(view, view.active)
        name = names[view.active]
        last = " " + translate(lang, "This is the last round.") if view.end_triggered else ""
        if view.phase == "turn":
            return translate(lang, "**{name}**'s turn ({clovers}{clover} {carrots}{carrot}): "
                             "take a card from the row (card 1 is free, each card you skip "
                             "costs a treat) or move a card on your board.", name=name,
                             clovers=me.clovers, clover=CLOVER, carrots=me.carrots,
                             carrot=CARROT) + last
        if view.phase == "keep_treats":
            assert view.keep is not None
            total = view.keep.clovers + view.keep.carrots
            return translate(lang, "**{name}** holds {total} treats ({clovers}{clover} "
                             "{carrots}{carrot}) but may keep only 10: choose which; the rest "
                             "go onto card {card} of the row.", name=name, total=total,
                             clovers=view.keep.clovers, clover=CLOVER,
                             carrots=view.keep.carrots, carrot=CARROT,
                             card=view.keep.target + 1) + last
        if view.held is None:
            if None in me.board:
                return translate(lang, "**{name}** is placing **the card** on a free space "
                                 "of their board.", name=name) + last
            return translate(lang, "**{name}**'s board is full: **the card** replaces the card "
                             "on the space they pick (the old card is discarded).",
                             name=name) + last
        held = card_short(view.held, lang)
        if None in me.board:
            return translate(lang, "**{name}** is placing **{card}** on a free space of their "
                             "board.", name=name, card=held) + last
        return translate(lang, "**{name}**'s board is full: **{card}** replaces the card on "
                         "the space they pick (the old card is discarded).", name=name,
                         card=held) + last

    def final_lines(self, view: LlamasAlpacasView, result: Result,
                    names: dict[str, str], *, lang: str = ENGLISH) -> list[str]:
        """Per player (best first): points, the lines scored by conditions met, and the
        treats left (the tie-break; the breakdown's treat line is not repeated)."""
        out = []
        for seat in sorted(result.scores, key=lambda s: -result.scores[s]):
            p = player_of(view, seat)
            lines = [translate_n(lang, "{count} line with {conditions} ({points})",
                                 "{count} lines with {conditions} ({points})", n,
                                 conditions=translate_n(lang, "{count} condition",
                                                        "{count} conditions", i + 1),
                                 points=f"{n * 2 * (i + 1):+d}")
                     for i, n in enumerate(p.lines) if n]
            crown = "\N{TROPHY} " if seat in result.winners else ""
            detail = "; ".join(lines) if lines else translate(lang, "no lines scored")
            left = translate_n(lang, "{count} treat left", "{count} treats left",
                               p.clovers + p.carrots)
            out.append(crown + translate(
                lang, "**{name}**: {points} - {detail}; {left} ({clovers}{clover} "
                "{carrots}{carrot})", name=names[seat], points=points(result.scores[seat], lang),
                detail=detail, left=left, clovers=p.clovers, clover=CLOVER,
                carrots=p.carrots, carrot=CARROT))
        return out

    def final_head(self, result: Result, names: dict[str, str], *, lang: str = ENGLISH) -> str:
        """Who wins with how many points, in bold (the tie-break said when it decided;
        rulebook "Game End")."""
        best = max(result.scores.values(), default=0)
        if len(result.winners) == 1:
            seat = result.winners[0]
            tied = [s for s, v in result.scores.items() if v == best]
            if len(tied) > 1:
                return "**" + translate(lang, "{name} wins with {points} (tie on points, "
                                        "most treats: {treats}).", name=names[seat],
                                        points=points(best, lang),
                                        treats=_treats_held(result, seat)) + "**"
            return "**" + translate(lang, "{name} wins with {points}.", name=names[seat],
                                    points=points(best, lang)) + "**"
        who = [names[s] for s in result.winners]
        together = translate(lang, "{first} and {second}", first=", ".join(who[:-1]),
                             second=who[-1]) if len(who) > 1 else "".join(who)
        return "**" + translate(lang, "Shared victory for {names} with {points} and {treats} "
                                "treats each.", names=together, points=points(best, lang),
                                treats=_treats_held(result, result.winners[0])) + "**"

    def rules(self, summary: str, *, lang: str = ENGLISH) -> str:
        """The ``/rules`` summary in ``lang`` (:data:`~bot.present.llamas_alpacas_words.RULES`;
        ``summary``, the spec's English, is the same words)."""
        return rules_summary(lang)

    def event_line(self, event: Event, names: dict[str, str], *, lang: str = ENGLISH) -> str:
        """The thread's line for ``event`` in ``lang``
        (:func:`~bot.present.llamas_alpacas_words.event_line`)."""
        return event_line(event, names, lang)

    def turns(self, view: LlamasAlpacasView) -> int:
        """Every player's turns added up."""
        return sum(p.turns for p in view.players)

    def highlight(self, view: LlamasAlpacasView, result: Result, names: dict[str, str], *,
                  lang: str = ENGLISH) -> str:
        """The best line: the most conditions one line met, and who had the most such lines
        (each of them, when several had as many)."""
        best = max((k for p in view.players for k in range(3) if p.lines[k]), default=None)
        if best is None:
            return translate(lang, "No line met a condition.")
        top = max(p.lines[best] for p in view.players)
        who = [names.get(p.seat, p.seat) for p in view.players if p.lines[best] == top]
        together = translate(lang, "{first} and {second}", first=", ".join(who[:-1]),
                             second=who[-1]) if len(who) > 1 else who[0]
        conditions = translate_n(lang, "{count} condition", "{count} conditions", best + 1)
        if len(who) > 1:
            return translate_n(
                lang, "Best line: {names} each had {count} line meeting {conditions}.",
                "Best lines: {names} each had {count} lines meeting {conditions}.", top,
                names=together, conditions=conditions)
        return translate_n(lang, "Best line: {names} had {count} line meeting {conditions}.",
                           "Best lines: {names} had {count} lines meeting {conditions}.", top,
                           names=together, conditions=conditions)

    def private_lines(self, view: LlamasAlpacasView, seat: str,
                      names: dict[str, str], *, lang: str = ENGLISH) -> list[str]:
        """No hidden cards here: the player's own treats, score, lines and board in words."""
        me = player_of(view, seat)
        lines = ", ".join(translate_n(lang, "{lines} with {count} condition",
                                      "{lines} with {count} conditions", i + 1, lines=n)
                          for i, n in enumerate(me.lines) if n) or translate(lang, "none yet")
        board = []
        free = translate(lang, "free")
        for r in range(3):
            cells = [card_short(c, lang) if c else free for c in me.board[r * 3:r * 3 + 3]]
            board.append(translate(lang, "Row {row}: {cells}", row=r + 1,
                                   cells=" | ".join(cells)))
        text = [
            translate(lang, "This game has no hidden cards: everything is on the table picture."),
            translate(lang, "You have **{points}** and **{clovers}{clover} {carrots}{carrot}** "
                      "({treats} of at most {limit} treats).", points=points(me.score, lang),
                      clovers=me.clovers, clover=CLOVER, carrots=me.carrots, carrot=CARROT,
                      treats=me.clovers + me.carrots, limit=TREAT_LIMIT),
            translate(lang, "Lines scored: {lines}.", lines=lines),
        ]
        if me.start_card is not None:
            text.append(translate(lang, "Your starting card, to place: **{card}**.",
                                  card=card_short(me.start_card, lang)))
        text.append(translate(lang, "Your board:") + "\n" + "\n".join(board))
        return text

    @staticmethod
    def closeup_alt(view: LlamasAlpacasView, seat: str, lang: str = ENGLISH) -> str:
        """The alternative text of ``seat``'s own board close-up (My hand): its score and
        treats, then each row of the 3x3 board left to right (free spaces said), in
        ``lang``."""
        me = player_of(view, seat)
        free = translate(lang, "free")
        rows = [translate(lang, "row {row}: {cells}", row=r + 1,
                          cells=", ".join(card_short(c, lang) if c else free
                                          for c in me.board[r * 3:r * 3 + 3]))
                for r in range(3)]
        start = (translate(lang, "Your starting card, to place: {card}.",
                           card=card_short(me.start_card, lang)) if me.start_card is not None else "")
        return alt_join([translate(lang, "Your board, close up: {points}, {clovers}, {carrots}.",
                                   points=points(me.score, lang),
                                   clovers=clovers(me.clovers, lang),
                                   carrots=carrots(me.carrots, lang)),
                         start, "; ".join(rows) + "."], lang=lang)

    def example(self) -> tuple[LlamasAlpacasView, dict[str, str]]:
        """A seeded 3-player game where everyone places on the first free space and takes
        the first affordable card (the engine's first legal action): of its first 15
        turns, the start of the turn with the most cards on the boards (scored lines leave
        the boards, so a later turn can show empty ones)."""
        engine = LlamasAlpacasEngine()
        state = engine.new_game(list(EXAMPLE_NAMES), seed=11)
        best, most = state, -1
        for _ in range(200):
            if state.phase == "turn":
                cards = sum(c is not None for p in state.players for c in p.board)
                if cards >= most:
                    best, most = state, cards
                if state.turn_no >= 15:
                    break
            seat = engine.pending(state).seats[0]
            state, _ = engine.apply(state, seat, engine.legal_actions(state, seat)[0])
        return engine.view(best, None), EXAMPLE_NAMES
