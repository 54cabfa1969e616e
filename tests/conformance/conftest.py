"""Fixtures for the conformance tests: Discord's OpenAPI spec (skipped, naming where it was
looked for, when absent) and a closing line with the number of requests checked."""

from __future__ import annotations

import os
from typing import Any

import pytest

from bot.sandbox.conformance import SPEC_ENV, Spec, find_spec, spec_candidates

#: The ``record_property`` name under which each whole-game test stores its count.
CHECKED = "requests_checked"
#: Set (as ``.ci/run`` does) to make a missing spec a failure instead of a skip.
REQUIRE_ENV = "HERDBOT_REQUIRE_SPEC"


@pytest.fixture(scope="session")
def spec() -> Spec:
    """Discord's OpenAPI document, loaded once per session."""
    path = find_spec()
    if path is None:
        looked = ", ".join(str(p) for p in spec_candidates())
        why = (f"Discord's OpenAPI spec (discord/discord-api-spec openapi.json) is not "
               f"here; looked at: {looked}. Set {SPEC_ENV} to its path.")
        if os.environ.get(REQUIRE_ENV):  # CI: the conformance test must never be skipped
            pytest.fail(why)
        pytest.skip(why)
    return Spec.load(path)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """After the run: how many requests the whole-game conformance tests checked."""
    per_test = [(r.nodeid, dict(r.user_properties)[CHECKED])
                for r in terminalreporter.stats.get("passed", [])
                if r.when == "call" and CHECKED in dict(r.user_properties)]
    if per_test:
        total = sum(n for _, n in per_test)
        terminalreporter.write_line(
            f"Discord API conformance: {total} requests of {len(per_test)} whole games "
            f"checked against the OpenAPI spec, no violation")
