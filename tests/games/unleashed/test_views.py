"""Llamas Unleashed views and events: what each seat and a
spectator see, public events that never name a hidden card, the state round-tripping through
JSON, the open-windows option hiding who holds an Instant, and the actions' labels."""

from __future__ import annotations

import json

import pydantic
import pytest

from bot.games.unleashed.models import Activate, Pass, UnleashedOptions
from tests.games.unleashed.unleashed_helpers import E, act, build, keys, pick_key, play

# -- views and events -------------------------------------------------------------------------


def test_views_show_own_hand_sizes_and_public_zones():
    st = build(hands={"s0": ["lasso", "stampede"], "s1": ["rummage"]},
               fields={"s1": ["trail_llama", "golden_bell", "leaky_roof"]},
               discard=["hay_harvest"])
    v0, v1, spec = E.view(st, "s0"), E.view(st, "s1"), E.view(st, None)
    assert [c.key for c in v0.hand] == ["lasso", "stampede"]
    assert [c.key for c in v1.hand] == ["rummage"] and spec.hand is None
    assert v0.hand_sizes == {"s0": 2, "s1": 1}
    f = v0.fields["s1"]
    assert ([c.key for c in f.animals], [c.key for c in f.upgrades],
            [c.key for c in f.downgrades]) == (["trail_llama"], ["golden_bell"], ["leaky_roof"])
    assert (f.animal_count, f.animals_to_win, f.hand_limit) == (1, 7, 7)
    assert [c.key for c in spec.discard] == ["hay_harvest"] and len(spec.nursery) == 12
    assert spec.deck_count == len(st.deck)
    assert "rummage" not in spec.model_dump_json() and "Rockslide" not in v0.model_dump_json()


def test_public_draw_events_never_name_the_card():
    st = build(hands={"s0": ["hay_harvest"]}, deck=["rummage", "lasso"])
    _, ev = play(st, "s0", "hay_harvest")
    public = " ".join(e.text for e in ev if e.to is None)
    assert "Rockslide" not in public and "Lasso" not in public
    assert [e.text for e in ev if e.to == ["s0"]] == ["You draw Rockslide, Lasso."]


def test_state_round_trips_through_json_mid_choice():
    st = build(hands={"s0": ["stampede"]}, fields={"s1": ["trail_llama", "sleepy_llama"]})
    st, _ = play(st, "s0", "stampede")
    again = E.load_state(st.model_dump_json())
    assert again == st
    a, _ = pick_key(again, "sleepy_llama")
    b, _ = pick_key(st, "sleepy_llama")
    assert a == b


def test_open_windows_option_hides_who_holds_an_instant():
    st = build(3, hands={"s0": ["trail_llama"], "s1": ["llama_spit"]}, fields={"s2": ["muzzle"]})
    st.options = UnleashedOptions(open_windows=True)
    st, _ = play(st, "s0", "trail_llama")
    assert st.reaction.eligible == ["s1"]  # s2 is muzzled
    st = build(3, hands={"s0": ["trail_llama"], "s1": ["meadow_goat"], "s2": ["llama_spit"]})
    st.options = UnleashedOptions(open_windows=True)
    st, _ = play(st, "s0", "trail_llama")
    assert st.reaction.eligible == ["s1", "s2"]
    assert E.legal_actions(st, "s1") == [Pass()]
    st, _ = act(st, "s1", Pass())
    st, _ = act(st, "s2", Pass())
    assert keys(st.fields["s0"]) == ["trail_llama"]


def test_action_labels():
    st = build(hands={"s0": ["trail_llama", "stampede"]}, fields={"s1": ["sleepy_llama"]})
    labels = [E.action_label(st, a) for a in E.legal_actions(st, "s0")]
    assert labels == ["Play Trail Llama into your Field", "Play Trail Llama into s1's Field",
                      "Play Stampede", "Draw a card"]
    assert E.action_label(st, Pass()) == "Pass"
    assert E.action_label(st, Activate(source="herd:goat")) == "Use the Goat Herd Bonus"


def test_open_windows_show_the_same_whether_or_not_anybody_holds_an_instant():
    """No tell from reaction windows, through apply: two games differing only in whether Bo
    (s1) holds an Instant give the same public events, spectator views and deadlines, window
    by window, and a window nobody answers lasts at most 5 s (an empty hand gets no window:
    public)."""
    runs = []
    for bo_card in ("llama_spit", "meadow_goat"):
        st = build(4, hands={"s0": ["trail_llama", "hay_harvest"], "s1": [bo_card],
                             "s2": ["cliff_goat"]}, plays=2)
        st.options = UnleashedOptions(open_windows=True, reaction_seconds=20.0)
        seen = []
        st, ev = play(st, "s0", "trail_llama")
        for _ in range(2):  # everyone passes, then the window closes on its own
            pend = E.pending(st)
            seen.append(([e.text for e in ev if e.to is None], E.view(st, None),
                         pend.seats, pend.seconds, [t.seat for t in pend.timeouts]))
            st, ev = act(st, pend.seats[0], Pass())
        seen.append(([e.text for e in ev if e.to is None], E.view(st, None)))
        runs.append(seen)
    assert runs[0] == runs[1]
    first = runs[0][0]
    assert first[0] == ["s0 plays Trail Llama into their own Field."]
    assert first[2:] == (["s1", "s2"], 5.0, ["s1", "s2"])  # s3 has no cards: no window
    assert runs[0][2][0] == ["Trail Llama enters s0's Field."]



def test_a_card_view_views_share_cannot_be_changed_and_serialises_as_before():
    st = build(fields={"s1": ["trail_llama"]})
    cv = E.view(st, "s0").fields["s1"].animals[0]
    assert E.view(st, "s1").fields["s1"].animals[0] is cv  # one object, shared
    with pytest.raises(pydantic.ValidationError):
        cv.kinds = ("goat",)
    assert json.loads(cv.model_dump_json()) == {
        "id": cv.id, "key": "trail_llama", "name": "Trail Llama", "type": "basic",
        "kinds": ["llama"], "text": cv.text}
    assert type(cv).model_validate_json(cv.model_dump_json()) == cv
