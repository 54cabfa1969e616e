"""The result card's words and numbers (pure): what ``bot.render.result_card`` draws for a
finished game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.games.base import Result
from bot.i18n import ENGLISH, decimal, translate, translate_n
from bot.present.base import Presenter


@dataclass(frozen=True)
class CardRow:
    """One seat's line of the card (what ``bot.render.result_card`` draws)."""

    place: int
    name: str
    score: int
    change: str
    trend: int
    won: bool


def places(result: Result, seats: Sequence[str]) -> list[tuple[str, int]]:
    """``seats`` in finishing order with their place (1 first): winners first, then by
    score; seats equal on both share a place, the next place skips (1, 1, 3)."""
    def key(s: str) -> tuple[bool, int]:
        return s not in result.winners, -result.scores.get(s, 0)
    ordered = sorted(seats, key=key)  # stable: seat order among equals
    return [(s, 1 + sum(key(o) < key(s) for o in seats)) for s in ordered]


def change_text(after: float, before: float, lang: str = ENGLISH) -> tuple[str, int]:
    """A rating change as shown, one decimal (written the way ``lang`` writes it) with
    its sign, and its trend: 1 up, -1 down, 0 when it rounds to nothing (``"±0.0"``)."""
    delta = round(after - before, 1)
    if delta == 0:
        return f"\N{PLUS-MINUS SIGN}{decimal(lang, 0.0)}", 0
    return ((f"+{decimal(lang, delta)}", 1) if delta > 0
            else (f"\N{MINUS SIGN}{decimal(lang, -delta)}", -1))


def card_inputs(presenter: Presenter, *, game: str, game_id: int, view: Any, result: Result,
                names: Mapping[str, str], seats: Sequence[str],
                changes: Mapping[str, tuple[float, float | None]], minutes: int,
                first: float = 0.0, lang: str = ENGLISH) -> dict[str, Any]:
    """The keyword arguments of ``bot.render.result_card.result_card`` for the finished
    game ``game_id`` of ``game`` (its name): ``view`` its final spectator view, ``names``
    seat -> name as typed, ``seats`` in turn order, ``changes`` seat -> (rating after,
    before or ``None`` for a first rated game, when ``first`` is the rating before; from
    ``Store.game_rating_changes``; empty: unrated), ``minutes`` from the first move to
    the last. The card is rated when ``changes`` is not empty; its words are in ``lang``
    (the game's)."""
    def name(seat: str) -> str:
        return names.get(seat, seat)

    rows = []
    for seat, place in places(result, seats):
        text, trend = "", 0
        if seat in changes:
            after, before = changes[seat]
            text, trend = change_text(after, first if before is None else before, lang)
        rows.append(CardRow(place, name(seat), result.scores.get(seat, 0), text, trend,
                            seat in result.winners))
    winners = [name(s) for s in seats if s in result.winners]
    if not winners:
        headline = translate(lang, "Nobody wins")
    elif len(winners) == 1:
        headline = translate(lang, "{name} wins", name=winners[0])
    else:
        headline = translate(lang, "{names} and {last} win", names=", ".join(winners[:-1]),
                             last=winners[-1])
    turns = presenter.turns(view)
    length = [translate_n(lang, "{count} turn", "{count} turns", turns)] if turns is not None else []
    length.append(translate_n(lang, "{count} min", "{count} min", minutes))
    return {
        "title": translate(lang, "{game} · game #{number}", game=game, number=game_id),
        "headline": headline,
        "rows": rows,
        "length": " \N{MIDDLE DOT} ".join(length),
        "highlight": presenter.highlight(view, result, dict(names), lang=lang),
        "rated": bool(changes),
        "lang": lang,
    }
