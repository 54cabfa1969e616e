"""The table picture's alternative text (Presenter.alt_text) for every game at its largest
player count, through seeded games of random legal moves: it names every player and the
seat whose turn it is, stays within Discord's 1,024 characters, and never names a card
only its holder may see."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.app import builtin_games
from bot.games.base import SYSTEM_SEAT

NAMES = ["Maya", "Tomasz", "Ana", "Kofi", "Jun", "Lea", "Omar", "Ines"]


def hidden_names(game: str, engine, state, seats) -> set[str]:  # type: ignore[no-untyped-def]
    """Names of cards in a hand (or drawn) that no public zone shows now."""
    out: set[str] = set()
    public = engine.view(state, None)
    if game == "llamas-unleashed":
        shown = {c.name for f in public.fields.values()
                 for c in [*f.animals, *f.upgrades, *f.downgrades]}
        shown |= {c.name for c in [*public.discard, *public.nursery]}
        shown |= {s.card.name for s in public.stack}
        for seat in seats:
            out |= {c.name for c in engine.view(state, seat).hand or []} - shown
    return out


#: The phases in which a seat plays its turn, per game.
RUNNING = {"llamas-alpacas": {"turn", "keep_treats", "choose_space"},
           "pacapaca": {"turn", "drawn", "negotiation"},
           "llamas-unleashed": {"start", "action", "end"}}


def to_play(game: str, view, name: str) -> str:  # type: ignore[no-untyped-def]
    """The alternative text's first sentence while ``name`` plays a turn."""
    if game == "llamas-alpacas":
        return f"{name} to play."
    if game == "pacapaca":
        return f"Turn {view.turn_number}: {name} to play."
    return f"Turn {view.turn}: {name} to play, {view.phase} phase."


@pytest.mark.parametrize("game", ["llamas-alpacas", "pacapaca", "llamas-unleashed"])
def test_alt_text_names_every_player_and_the_active_seat_never_a_hidden_card(game: str) -> None:
    spec = builtin_games()[game]
    engine, presenter = spec.engine, spec.presenter
    seats = [f"s{i}" for i in range(spec.max_players)]
    names = dict(zip(seats, NAMES, strict=False))
    rng = random.Random(7)
    state = engine.new_game(seats, seed=7, options=spec.options_model())
    checked = active_seen = 0
    for _ in range(400):
        pending = engine.pending(state)
        if engine.result(state) is not None or not pending.seats:
            break
        view = engine.view(state, None)
        alt = presenter.alt_text(view, pending, names, ["Maya draws a card."])
        assert 0 < len(alt) <= 1024
        for seat in seats:
            assert names[seat] in alt, (seat, alt)
        if getattr(view, "phase") in RUNNING[game]:  # noqa: B009 - views differ per game
            # The first sentence names the active seat as the one to play, and nobody else.
            assert alt.startswith(to_play(game, view, names[getattr(view, "active")])), alt  # noqa: B009
            assert alt.count(" to play") == 1, alt
            active_seen += 1
        for card in hidden_names(game, engine, state, seats):
            assert card not in alt, (card, alt)
        checked += 1
        seat = pending.seats[0]
        legal = engine.legal_actions(state, seat)
        if not legal or seat == SYSTEM_SEAT:
            break
        state = engine.apply(state, seat, rng.choice(legal))[0]
    assert checked > 20 and active_seen > 10


def closeup_alts(game: str, presenter, engine, state, seat: str) -> list[str]:  # type: ignore[no-untyped-def]
    """The alternative texts of ``seat``'s own close-ups (My hand) in ``state``."""
    own = engine.view(state, seat)
    if game == "llamas-alpacas":
        return [presenter.closeup_alt(own, seat)]
    if game == "pacapaca":
        out = [presenter.alpaca_alt(own, seat)]
        if own.my_discards:
            out.append(presenter.cards_alt("Your cards face down in the discard pile",
                                           own.my_discards))
        if own.drawn:
            out.append(presenter.cards_alt("The two cards you drew", own.drawn))
        return out
    return [presenter.hand_alt(own)]


@pytest.mark.parametrize("game", ["llamas-alpacas", "pacapaca", "llamas-unleashed"])
def test_a_closeups_alt_text_says_the_own_cards_and_never_another_players_hidden_card(
        game: str) -> None:
    spec = builtin_games()[game]
    engine, presenter = spec.engine, spec.presenter
    seats = [f"s{i}" for i in range(spec.max_players)]
    rng = random.Random(11)
    state = engine.new_game(seats, seed=11, options=spec.options_model())
    checked = 0
    for _ in range(300):
        pending = engine.pending(state)
        if engine.result(state) is not None or not pending.seats:
            break
        hidden = hidden_names(game, engine, state, seats)
        for seat in seats:
            own: Any = engine.view(state, seat)
            for alt in closeup_alts(game, presenter, engine, state, seat):
                assert 0 < len(alt) <= 1024
                if game == "llamas-unleashed":
                    mine = {c.name for c in own.hand or []}
                    assert all(name in alt for name in mine), (mine, alt)
                    for card in hidden - mine:
                        assert card not in alt, (card, alt)
            checked += 1
        seat = pending.seats[0]
        legal = engine.legal_actions(state, seat)
        if not legal or seat == SYSTEM_SEAT:
            break
        state = engine.apply(state, seat, rng.choice(legal))[0]
    assert checked > 100


def test_the_closeup_alt_texts_in_words() -> None:
    la = builtin_games()["llamas-alpacas"]
    state = la.engine.new_game(["s0", "s1"], seed=3, options=la.options_model())
    view: Any = la.engine.view(state, "s0")
    start = view.players[0].start_card
    assert start is not None
    assert la.presenter.closeup_alt(view, "s0") == (
        "Your board, close up: 0 points, 3 clovers, 3 carrots. Your starting card, to "
        f"place: {start.short()}. row 1: free, free, free; row 2: free, free, free; row 3: "
        "free, free, free.")
    pc = builtin_games()["pacapaca"]
    presenter = pc.presenter
    assert presenter.cards_alt("The two cards you drew", []) == "The two cards you drew: nothing."


def test_the_parts_left_out_are_counted_in_the_language():
    from bot.present.base import alt_join

    parts = ["a" * 600, "b" * 600, "c"]
    assert alt_join(parts) == "a" * 600 + " (2 more: see the table)"
    assert alt_join(parts, lang="de") == "a" * 600 + " (noch 2: siehe Tisch)"
    assert alt_join(parts, lang="pl") == "a" * 600 + " (jeszcze 2: zobacz stół)"
