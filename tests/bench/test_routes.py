"""bench.routes: busy answers among the counted requests."""

from __future__ import annotations

from collections import Counter

from bench.routes import busy_answers


def test_busy_answers_counts_the_busy_refusals_only():
    routes = Counter({"POST /interactions/N/T/callback type 4 busy": 7,
                      "POST /interactions/N/T/callback type 4 refused": 3,
                      "POST /interactions/N/T/callback type 4": 5,
                      "POST /webhooks/N/T busy": 2})
    assert busy_answers(routes) == 9
    assert busy_answers(Counter()) == 0
