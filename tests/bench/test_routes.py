"""bench.routes: requests by route, and busy answers among them."""

from __future__ import annotations

from collections import Counter
from types import SimpleNamespace

from bench.routes import busy_answers, kind_of


def callback(content: str) -> SimpleNamespace:
    return SimpleNamespace(method="POST", path="/interactions/123456789/tok/callback",
                           files=[], json={"type": 4, "data": {"content": content,
                                                               "flags": 64}})


def test_a_busy_refusal_of_a_click_or_of_a_command_is_a_busy_answer_another_refusal_not():
    no = "\N{NO ENTRY SIGN} "
    assert [kind_of(callback(c)) for c in (
        no + "herdbot is very busy; your move was not made, try again in a moment.",
        no + "herdbot is very busy; your command was not run, try again in a moment.",
        no + "This table has moved on.",
        "Your hand")] == [
        "POST /interactions/N/T/callback type 4 busy",
        "POST /interactions/N/T/callback type 4 busy",
        "POST /interactions/N/T/callback type 4 refused",
        "POST /interactions/N/T/callback type 4"]


def test_busy_answers_counts_the_busy_refusals_only():
    routes = Counter({"POST /interactions/N/T/callback type 4 busy": 7,
                      "POST /interactions/N/T/callback type 4 refused": 3,
                      "POST /interactions/N/T/callback type 4": 5,
                      "POST /webhooks/N/T busy": 2})
    assert busy_answers(routes) == 9
    assert busy_answers(Counter()) == 0
