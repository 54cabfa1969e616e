"""Shared fixtures: a migrated store (on each backend: a SQLite file, and PostgreSQL when
``HERDBOT_TEST_DATABASE_URL`` is set), a GameService with the tiny game, and
the sandbox (``world`` with ``members``, ``sb``: the real HerdBot built by ``bot_factory``),
and Discord's OpenAPI spec (``spec``: skipped, naming where it was looked for, when absent).
A test folder overrides ``members`` or ``bot_factory`` in its own conftest.

Also the run's hooks: under pytest-xdist the slow tests start first, one per worker
(tests.support.schedule), and the closing line counts the requests the whole-game
conformance tests checked."""

from __future__ import annotations

import logging
import os
from typing import Any

import pytest
import pytest_asyncio

from bot.runtime import GameService, ManualClock
from bot.sandbox import World
from bot.sandbox.conformance import SPEC_ENV, Spec, find_spec, spec_candidates
from bot.store import Store
from bot.store.outage import OutageLines
from tests.support import close_world
from tests.support.databases import BACKENDS, databases
from tests.support.schedule import heads_first
from tests.support.tinygame import tiny_registry

#: The ``record_property`` name under which each whole-game conformance test stores the
#: number of requests it checked (tests/conformance/test_games.py).
CHECKED = "requests_checked"
#: The same tests' number of Components V2 messages among those requests.
CHECKED_V2 = "v2_requests_checked"
#: Set (as ``.ci/run`` does) to make a missing spec a failure instead of a skip.
REQUIRE_ENV = "HERDBOT_REQUIRE_SPEC"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On an xdist worker: the slow tests at the heads of the workers' first blocks."""
    workers = int(getattr(config, "workerinput", {}).get("workercount", 0))
    items[:] = heads_first(items, [item.nodeid for item in items], workers)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """After the run: how many requests the whole-game conformance tests checked."""
    per_test = [(r.nodeid, dict(r.user_properties)[CHECKED],
                 dict(r.user_properties).get(CHECKED_V2, 0))
                for r in terminalreporter.stats.get("passed", [])
                if r.when == "call" and CHECKED in dict(r.user_properties)]
    if per_test:
        total = sum(n for _, n, _ in per_test)
        v2 = sum(n for _, _, n in per_test)
        terminalreporter.write_line(
            f"Discord API conformance: {total} requests of {len(per_test)} whole games "
            f"checked against the OpenAPI spec ({v2} of them Components V2 messages), "
            f"no violation")


@pytest.fixture(autouse=True)
def _english_terminal(monkeypatch):
    """What ``herdbot`` prints is in the operator's language (``LC_ALL``, ``LC_MESSAGES``,
    ``LANG``, ``LANGUAGE``): every test, and every process it starts, runs in the C locale
    (English) whatever the developer's or the CI's locale, unless it sets another."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


@pytest.fixture(autouse=True)
def _clicks_answered_by_their_update(monkeypatch):
    """A move clicked on a table is answered by its update unless 1.5 s pass first
    (``bot.runtime.admission.ACK_BY_S``); a test machine stalled that long would turn the
    request sequences the tests expect into a deferral and an edit. In-process bots get a
    30 s deadline; the deadline's own tests set ``bot.router.ack_by_s``."""
    monkeypatch.setattr("bot.discord.router.ACK_BY_S", 30.0)


@pytest.fixture(autouse=True)
def _no_outage_filter_left_behind():
    """A test that starts the bot's logging in-process (``herdbot run``) leaves its outage
    filter, with the kinds it has seen, on the root logger's handlers: remove it, so the
    next test's log lines are not taken for repeats."""
    yield
    for handler in logging.getLogger().handlers:
        for f in list(handler.filters):
            if isinstance(f, OutageLines):
                handler.removeFilter(f)


@pytest.fixture(scope="session")
def spec() -> Spec:
    """Discord's OpenAPI document, loaded once per session (per xdist worker)."""
    path = find_spec()
    if path is None:
        looked = ", ".join(str(p) for p in spec_candidates())
        why = (f"Discord's OpenAPI spec (discord/discord-api-spec openapi.json) is not "
               f"here; looked at: {looked}. Set {SPEC_ENV} to its path.")
        if os.environ.get(REQUIRE_ENV):  # CI: the conformance test must never be skipped
            pytest.fail(why)
        pytest.skip(why)
    return Spec.load(path)


@pytest_asyncio.fixture(params=BACKENDS)
async def new_database(request, tmp_path):
    """``await new_database()``: a fresh empty database per call on this run's backend
    (every test using it runs twice: ``[sqlite]`` and ``[postgres]``, the latter skipped
    without ``HERDBOT_TEST_DATABASE_URL``)."""
    async with databases(request.param, tmp_path) as new:
        yield new


@pytest_asyncio.fixture
async def database(new_database):
    """One fresh empty database (a SQLite path or a PostgreSQL URL)."""
    return await new_database()


@pytest_asyncio.fixture
async def store(database):
    """A migrated store on a fresh database, on each backend."""
    s = await Store.open(database)
    yield s
    await s.close()


@pytest_asyncio.fixture
async def clock():
    """A manual clock (advance it; nothing sleeps)."""
    return ManualClock()


@pytest_asyncio.fixture
async def service(store, clock):
    """A GameService over the tiny game, its timer service running."""
    svc = GameService(store, tiny_registry(), clock=clock)
    await svc.timers.start()
    yield svc
    await svc.timers.stop()


@pytest.fixture
def members() -> tuple[str, ...]:
    """Names of the sandbox members (Mo, with Manage Server, is always added)."""
    return ("Ana", "Bo", "Cy", "Di", "Ed")


@pytest.fixture
def bot_factory():
    """``factory(db_path, clock) -> HerdBot``; default: the tiny game only."""
    from tests.discord.conftest import make_bot

    return make_bot


@pytest_asyncio.fixture
async def world(members):
    """A sandbox guild with ``members`` and Mo (Manage Server); a bot a failed test left
    connected is disconnected afterwards."""
    w = World()
    for name in members:
        w.add_member(name)
    w.add_member("Mo", manage_guild=True)
    yield w
    await close_world(w)


@pytest_asyncio.fixture
async def sb(world, clock, tmp_path, bot_factory):
    """The real bot connected to ``world`` on ``tmp_path/bot.sqlite3``."""
    sandbox = await world.connect(bot_factory(tmp_path / "bot.sqlite3", clock))
    yield sandbox
    await world.disconnect()
