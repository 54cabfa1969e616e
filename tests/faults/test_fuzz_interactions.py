"""Interaction fuzzing: hypothesis over raw custom ids and slash options, sent to the real
HerdBot (tiny game) through the sandbox.

Each custom id is either put on a button (or a string select) of a message the bot posts
in the world and clicked there, as Discord sends it, or clicked on an existing message that
does not hold it (a table whose buttons were retired meanwhile, the lobby).

The world: game 1 (Ana and Bo, running, thread 1), game 2 (Cy's open lobby), game 3 (Di
and Ed, running with the 2-minute turn timer, thread 3); Mo has Manage Server; nobody sits
in a game 4. Every example sends one interaction and asserts:

- no exception escapes: the sandbox raises :class:`SandboxError` at settle for any ERROR
  logged by discord.py or herdbot, any unretrieved task exception, any unknown route;
- the member always gets an answer: the interaction was acknowledged in time and some
  message was created or edited for it (no "This interaction failed", no endless
  "thinking...");
- a refusal (an ephemeral answer with the no-entry sign, or "This table has moved on")
  changes nothing: every row of the SQLite file is the same before and after.

The bot and world live across the examples of one test (a private event loop drives
them), so examples also meet each other's aftermath (moves made, lobbies opened, games
ended). ``HERDBOT_FUZZ_FULL=1`` runs 20 times more examples.
"""

from __future__ import annotations

import asyncio
import sqlite3
import string
from pathlib import Path
from typing import Any

import discord
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.runtime import ManualClock
from bot.sandbox import SimInteraction, World
from tests.faults.common import (
    FULL,
    MOVED_ON,
    answer_text,
    answered,
    answers,
    click_injected,
    click_raw,
    make_bot,
    start_tiny,
)
from tests.support import headline

EXAMPLES = 2000 if FULL else 100
TABLES = ("games", "seats", "actions", "timers", "guild_settings", "member_prefs", "stats")


class Harness:
    """A world and the real bot on ``db``, driven by a private event loop."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.loop = asyncio.new_event_loop()
        self.world = World()
        for name in ("Ana", "Bo", "Cy", "Di", "Ed"):
            self.world.add_member(name)
        self.world.add_member("Mo", manage_guild=True)
        self.clock = ManualClock()
        self.run(self._setup())

    def run(self, coro: Any) -> Any:
        return self.loop.run_until_complete(coro)

    async def _setup(self) -> None:
        w = self.world
        self.sb = await w.connect(make_bot(self.db, self.clock))
        ana, bo, cy, di, ed = (w.member(n) for n in ("Ana", "Bo", "Cy", "Di", "Ed"))
        thread1 = (await start_tiny(w, ana, [bo])).thread
        await cy.slash("play", game="tiny")
        self.lobby2 = cy.last_reply
        thread3 = (await start_tiny(w, di, [ed], timer="2m")).thread
        assert thread1 is not None and thread3 is not None
        self.thread1, self.thread3 = thread1, thread3
        assert thread1.last_message is not None
        await ana.click(thread1.last_message, "Add 1")
        self.old_table1 = self.thread1.all_messages[0]

    def close(self) -> None:
        try:
            self.run(self.world.disconnect())
        finally:
            self.loop.close()

    def dump(self) -> dict[str, list[tuple[Any, ...]]]:
        """Every row of every table of the bot's SQLite file."""
        con = sqlite3.connect(self.db)
        try:
            return {t: con.execute(f"SELECT * FROM {t} ORDER BY rowid").fetchall() for t in TABLES}
        finally:
            con.close()

    def version(self, game_id: int) -> int:
        con = sqlite3.connect(self.db)
        try:
            row = con.execute("SELECT version FROM games WHERE id=?", (game_id,)).fetchone()
        finally:
            con.close()
        return int(row[0]) if row else 0

    def message(self, key: str) -> Any:
        return {
            "table1": self.thread1.last_message, "table3": self.thread3.last_message,
            "old_table1": self.old_table1, "lobby2": self.lobby2,
        }[key]


def refused(it: SimInteraction) -> bool:
    """True when the bot answered with a refusal (ephemeral, in words)."""
    msgs = answers(it)
    return bool(msgs) and all(m.ephemeral for m in msgs) and any(
        "\N{NO ENTRY SIGN}" in headline(m) or headline(m).startswith(MOVED_ON) for m in msgs)


def check_one(h: Harness, run: Any) -> SimInteraction:
    """Run one interaction; assert it was answered and that a refusal changed nothing."""
    before = h.dump()
    it = h.run(run)
    after = h.dump()
    assert answered(it), f"no answer: {it!r} {answer_text(it)!r}"
    if refused(it):
        assert after == before, f"a refusal changed the store: {answer_text(it)!r}"
    return it


# -- custom ids ------------------------------------------------------------------------

CODES = ["add.1", "add.2", "add.3", "add.0", "add.-1", "add.x", "add.", "add.99999999999",
         "add.1.1", "wait", "hand", "back", "endyes", "join", "leave", "ai", "unai", "start",
         "cancel", "opt.x", "opt.turn_timer", "opt.", "", "x" * 80, "stop_waiting"]
SAFE = string.ascii_letters + string.digits + ".,=-_"
game_ids = st.sampled_from(["1", "2", "3", "4", "0", "999", "9" * 18, "9" * 19, "-1", "01",
                            " 1", "1e3", "0x1", "\u0661"])
versions = st.sampled_from(["x", "cur", "cur-1", "cur+1", "0", "-1", "9" * 9, "9" * 10,
                            "1.0", "", "X"])
codes = st.one_of(st.sampled_from(CODES), st.text(alphabet=SAFE, max_size=30))
structured = st.tuples(st.sampled_from(["hb", "hs", "hx", "HB", "h"]),
                       st.sampled_from(["g", "l", "x", "", "gg"]),
                       game_ids, versions, codes, st.sampled_from(["", ":", ":x", "::1"]))
plausible = st.tuples(st.just("hb"), st.just("g"), st.sampled_from(["1", "3"]),
                      st.sampled_from(["cur", "cur", "x", "cur-1"]),
                      st.sampled_from(["add.1", "add.2", "wait", "hand", "back"]), st.just(""))
raw_ids = st.one_of(
    plausible,
    structured,
    st.text(min_size=1, max_size=100),
    st.builds(lambda p, t: p + t, st.sampled_from(["hb:", "hs:", "hb:g:", "hs:g:1:", "hb:l:2:x:"]),
              st.text(max_size=90)),
)


def resolve(h: Harness, raw: Any) -> str:
    """The custom id string of a drawn ``raw_ids`` value (``cur`` = the stored version)."""
    if isinstance(raw, str):
        return raw[:100] or "x"
    kind, scope, game, ver, code, tail = raw
    if ver.startswith("cur"):
        gid = int(game) if game.isdigit() and len(game) < 10 else 1
        cur = h.version(gid)
        ver = str(cur + {"cur": 0, "cur-1": -1, "cur+1": 1}[ver])
    return f"{kind}:{scope}:{game}:{ver}:{code}{tail}"[:100]


def test_raw_custom_ids_are_always_answered_and_refusals_change_nothing(tmp_path):
    h = Harness(tmp_path / "fuzz.sqlite3")
    members = ["Ana", "Bo", "Cy", "Di", "Ed", "Mo"]
    seen: dict[str, int] = {"refused": 0, "accepted": 0}
    try:
        @settings(max_examples=EXAMPLES, deadline=None, derandomize=not FULL,
                  suppress_health_check=list(HealthCheck))
        @given(raw=raw_ids, who=st.sampled_from(members),
               where=st.sampled_from(["table1", "table3", "old_table1", "lobby2"]),
               injected=st.booleans(),
               select=st.none() | st.lists(st.text(min_size=1, max_size=20), min_size=1,
                                           max_size=3))
        def one(raw, who, where, injected, select):
            cid = resolve(h, raw)
            member, message = h.world.member(who), h.message(where)
            if injected:  # on a message of its own, as Discord sends it
                run = click_injected(h.sb, member, message.channel, cid, values=select)
            else:  # on a message that does not hold it (a retired or changed message)
                run = click_raw(h.sb, member, message, cid, values=select)
            it = check_one(h, run)
            seen["refused" if refused(it) else "accepted"] += 1

        one()
    finally:
        h.close()
    print("custom-id fuzz:", seen)
    assert seen["refused"] > 0 and seen["accepted"] > 0


def test_known_bad_custom_ids_get_the_exact_sentence(tmp_path):
    """A few hand-picked ids: each answer in words, nothing changed."""
    h = Harness(tmp_path / "bad.sqlite3")
    try:
        ana, bo, ed = (h.world.member(n) for n in ("Ana", "Bo", "Ed"))
        table = h.message("table1")
        cur = h.version(1)
        assert cur == 1
        cases = [
            (ana, "garbage", "\N{NO ENTRY SIGN} This button is not one herdbot understands."),
            (ana, "hb:g:1", "\N{NO ENTRY SIGN} This button is not one herdbot understands."),
            (ana, "hb:g:999:x:hand", "\N{NO ENTRY SIGN} That game no longer exists."),
            (ed, f"hb:g:1:{cur}:add.1", "\N{NO ENTRY SIGN} You are not in this game."),
            (bo, f"hb:g:1:{cur - 1}:add.1", MOVED_ON),
            (bo, f"hb:g:1:{cur + 1}:add.1", MOVED_ON),
            (ana, f"hb:g:1:{cur}:add.1", "\N{NO ENTRY SIGN} It is not your turn."),
            (bo, f"hb:g:1:{cur}:add.3", "\N{NO ENTRY SIGN} You cannot do that now."),
            (bo, f"hb:g:1:{cur}:fly", "\N{NO ENTRY SIGN} This button is not one herdbot understands."),
            (bo, "hb:g:3:0:add.1", "\N{NO ENTRY SIGN} You are not in this game."),
            (ana, "hb:l:2:x:start", "\N{NO ENTRY SIGN} Only the host can start the game."),
            (ana, "hb:l:1:x:join", "\N{NO ENTRY SIGN} This lobby is closed: the game has started or ended."),
            (bo, "hb:g:1:x:back", "\N{NO ENTRY SIGN} Your seat is already yours."),
        ]
        for member, cid, sentence in cases:
            it = check_one(h, click_injected(h.sb, member, table.channel, cid))
            assert refused(it), (cid, answer_text(it))
            assert headline(answers(it)[-1]) == sentence, (cid, answer_text(it))
    finally:
        h.close()


# -- slash options ---------------------------------------------------------------------


def command_paths(h: Harness) -> list[tuple[str, list[dict[str, Any]]]]:
    """Every slash command path (``"game hand"``) with its option definitions (the
    members' context menus are not slash commands)."""
    out = []
    for cmd in h.sb.bot.tree.get_commands(type=discord.AppCommandType.chat_input):
        d = cmd.to_dict(h.sb.bot.tree)
        subs = [o for o in d.get("options") or [] if o["type"] in (1, 2)]
        if not subs:
            out.append((d["name"], d.get("options") or []))
        for sub in subs:
            out.append((f"{d['name']} {sub['name']}", sub.get("options") or []))
    return sorted(out, key=lambda p: p[0])


def option_value(draw: Any, od: dict[str, Any], h: Harness) -> Any:
    t = od["type"]
    if t == 3:
        choices = [c["value"] for c in od.get("choices") or []] + [
            c["name"] for c in od.get("choices") or []]
        pool = choices + ["tiny", "TINY", " tiny", "chess", "", "llamas-alpacas", "2m", "99m"]
        return draw(st.one_of(st.sampled_from(pool), st.text(max_size=100)))
    if t == 4:
        return draw(st.integers(-(2**53), 2**53))
    if t == 5:
        return draw(st.booleans())
    if t == 10:
        return draw(st.floats(allow_nan=False, allow_infinity=False, width=32))
    if t in (6, 9):
        return h.world.member(draw(st.sampled_from(["Ana", "Bo", "Cy", "Mo"])))
    if t == 7:
        return draw(st.sampled_from([h.world.main, h.thread1, h.thread3]))
    return None


def test_slash_options_are_always_answered_and_refusals_change_nothing(tmp_path):
    h = Harness(tmp_path / "slash.sqlite3")
    paths = command_paths(h)
    seen: dict[str, int] = {"refused": 0, "accepted": 0}
    assert {"play", "rules", "game hand", "game status", "settings", "notify"} <= {
        p for p, _ in paths}
    try:
        @settings(max_examples=EXAMPLES, deadline=None, derandomize=not FULL,
                  suppress_health_check=list(HealthCheck))
        @given(data=st.data())
        def one(data):
            path, defs = data.draw(st.sampled_from(paths), label="command")
            who = data.draw(st.sampled_from(["Ana", "Bo", "Cy", "Ed", "Mo"]), label="member")
            where = data.draw(st.sampled_from([h.world.main, h.thread1, h.thread3]),
                              label="channel")
            options = {}
            for od in defs:
                if od["type"] in (8, 11):
                    continue
                if od.get("required") or data.draw(st.booleans()):
                    value = option_value(data.draw, od, h)
                    if value is not None:
                        options[od["name"]] = value
            it = check_one(h, h.world.member(who).slash(path, in_channel=where, **options))
            seen["refused" if refused(it) else "accepted"] += 1

        one()
    finally:
        h.close()
    print("slash fuzz:", seen)
    assert seen["refused"] > 0 and seen["accepted"] > 0
