"""Fixtures for the conformance tests: Discord's OpenAPI spec (skipped, naming where it was
looked for, when absent). The closing line with the number of requests checked is written
by tests/conftest.py (under pytest-xdist only the top conftest runs in the controller)."""

from __future__ import annotations

import os

import pytest

from bot.sandbox.conformance import SPEC_ENV, Spec, find_spec, spec_candidates

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
