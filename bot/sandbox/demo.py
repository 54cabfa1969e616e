"""``herdbot demo``: a full game played offline through the real cogs in the sandbox.

Simulated members join a lobby with ``/play``, the host starts, and every turn each member
whose decision it is picks an action with the game's AI policy from their own view and
performs it through the UI driver (buttons and selects). Everything a member sees is
written to ``out`` (:func:`run_demo`): every version of every public, ephemeral and DM
message with its buttons and selects, and every picture.
"""

from __future__ import annotations

import json
import random
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot.app import builtin_games, make_bot
from bot.config import Settings
from bot.i18n import ENGLISH, translate_n
from bot.runtime import ManualClock
from bot.sandbox.drivers import DriverContext, driver_for
from bot.sandbox.record import Recorder, folder_name, look, text_of
from bot.sandbox.world import World

NAMES = ["Maya", "Tomasz", "Ana", "Kofi", "Jun", "Lea", "Omar", "Ines"]
#: A demo that has not finished after this many driven actions stops with an error.
MAX_ACTIONS = 5000


async def play_game(
    world: World, bot: Any, *, game: str, players: int, seed: int,
    extra_clicks: Any = None, game_seed: int | None = None, names: Sequence[str] | None = None,
    channel: Any = None,
) -> int:
    """Drive a whole game of ``game`` with ``players`` members through the UI; return its
    game id. ``seed`` seeds the members' AI choices; ``game_seed`` (when given) the game's
    own shuffles. ``extra_clicks(ctx)`` may run after every action (tests use it). The
    players are the world's members named ``names[:players]`` (default :data:`NAMES`; the
    first one hosts). The lobby opens in ``channel`` (default: the world's main channel)."""
    if game_seed is not None:
        seeds = iter(range(game_seed, game_seed + 1_000_000))
        bot.service.seed_factory = lambda: next(seeds)
    members = [world.member(n) for n in (NAMES if names is None else names)[:players]]
    lobby = await start_lobby(members, game, channel)
    # This lobby's game (other games may run meanwhile in other channels or guilds).
    record = [g for g in await bot.store.games_with_status("active", "finished")
              if g.lobby_message_id == lobby.id][-1]
    await drive_game(world, bot, record.id, members, seed=seed, extra_clicks=extra_clicks)
    return record.id


async def start_lobby(members: Sequence[Any], game: str, channel: Any) -> Any:
    """``members[0]`` runs /play ``game`` in ``channel``, the others click Join, the host
    clicks Start; returns the lobby message."""
    host = members[0]
    await host.slash("play", game=game, in_channel=channel)
    lobby = host.last_reply
    for m in members[1:]:
        await m.click(lobby, lobby_button(lobby, "join"))
    await host.click(lobby, lobby_button(lobby, "start"))
    return lobby


def lobby_button(lobby: Any, code: str) -> str:
    """The custom id of the lobby's ``code`` button (``"join"``, ``"start"``): found by its
    code, since its label is in the lobby's language. Raises ``LookupError`` when the
    lobby has no such button."""
    for button in lobby.buttons():
        if str(button.get("custom_id", "")).endswith(f":{code}"):
            return str(button["custom_id"])
    raise LookupError(f"the lobby has no {code!r} button; buttons: {lobby.labels}")


async def drive_game(world: Any, bot: Any, game_id: int, members: Sequence[Any], *,
                     seed: int, extra_clicks: Any = None,
                     late: list[str] | None = None) -> None:
    """Play started game ``game_id`` to its end through the UI, from wherever it stands:
    each turn the member whose decision it is picks an action with the game's AI policy
    (``random.Random(seed)``) and performs it with the game's driver. An answer to a
    timed decision (a reaction window, the Baby pick) that the bot's clock ended before
    the answer arrived is a lost race a slow player meets too: the game goes on, and
    ``late`` (when given) gets ``"<pending key>: <action>"``. Raises ``RuntimeError``
    when the game is stuck or does not end, ``AssertionError`` when a move failed
    otherwise."""
    record = await bot.store.get_game(game_id)
    game = record.kind
    perform = driver_for(bot.service.registry[game])
    rand = random.Random(seed)
    seats = {s.seat: s for s in await bot.store.seats(game_id)}
    by_user = {m.id: m for m in members}
    stalled = 0
    last_version = -1
    for _ in range(MAX_ACTIONS):
        record, seat_rows, spec, state = await bot.service.load(game_id)
        if record.status != "active":
            break
        stalled = stalled + 1 if record.version == last_version else 0
        last_version = record.version
        if stalled >= 20:
            raise RuntimeError(f"game {game_id} is stuck at version {record.version}: "
                               f"{spec.engine.pending(state)!r}")
        pending = spec.engine.pending(state)
        acted = False
        for seat_id in pending.seats:
            seat = seats[seat_id]
            legal = spec.engine.legal_actions(state, seat_id)
            if not legal or seat.user_id is None:
                continue
            view = spec.engine.view(state, seat_id)
            action = spec.policy(view, legal, rand) if spec.policy else rand.choice(legal)
            ctx = DriverContext(world, bot, by_user[seat.user_id], game_id, seat_id)
            ctx._thread_id = record.thread_id or record.channel_id or 0
            try:
                await perform(ctx, action)
            except AssertionError:
                if pending.seconds is None or not await _timed_out(bot, game_id, pending,
                                                                   seat_id):
                    raise
                if late is not None:
                    late.append(f"{pending.key}: {action!r}")
            await world.settle()
            if extra_clicks is not None:
                await extra_clicks(ctx)
            acted = True
            break
        if not acted:
            # Only timed decisions are left (e.g. a reaction window): let the clock run.
            bot.clock.advance(120)
            await bot.service.timers.fire_due()
            await world.settle()
    else:
        raise RuntimeError(f"the demo game {game_id} did not finish")


async def _timed_out(bot: Any, game_id: int, pending: Any, seat_id: str) -> bool:
    """Whether timed decision ``pending`` no longer waits for ``seat_id`` (its clock ran
    out, or the game moved past it)."""
    record, _, spec, state = await bot.service.load(game_id)
    now = spec.engine.pending(state)
    return bool(record.status != "active" or now.key != pending.key
                or seat_id not in now.seats)


def transcript(world: Any, channel: Any) -> list[dict[str, Any]]:
    """Every public message of ``channel`` as JSON-able dicts, as it stands now (what a
    spectator sees at the end; :class:`~bot.sandbox.record.Recorder` keeps each version)."""
    return [{"id": msg.id, **look(msg)} for msg in world.channel(channel).all_messages
            if not msg.ephemeral]


def _stale_outputs(out_dir: Path, names: Sequence[str]) -> None:
    """Remove an earlier demo's pictures and its members' transcripts (they would not
    match), its own files only: a member folder ``names`` could have written is removed
    when nothing else is left in it."""
    for stale in out_dir.glob("turn-*.png"):
        stale.unlink()
    for name in names:
        folder = out_dir / folder_name(name)
        for stale in [*folder.glob("[0-9][0-9][0-9]-*.png"), folder / "transcript.txt"]:
            stale.unlink(missing_ok=True)
        if folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()


async def run_demo(*, game: str | None, players: int | None, seed: int, out: str,
                   lang: str = ENGLISH) -> int:
    """Play one demo game and write what every member sees: ``out/transcript.json`` (every
    version of every message, public, ephemeral and DM, with its buttons, selects and the
    pictures' alternative text), ``out/transcript.txt`` (the public ones), the public
    pictures as ``out/turn-NNN.png``, and for each member ``out/<name>/transcript.txt``
    with their private panels and DMs and their pictures ``out/<name>/NNN-<file>.png``
    (each member opens My hand once a turn); the closing line printed in ``lang`` (the
    operator's). Returns the process exit code."""
    registry = builtin_games()
    key = game or registry.keys()[0]
    spec = registry[key]
    n = players or min(max(spec.min_players, 3), spec.max_players)
    out_dir = Path(out)
    out_dir.mkdir(parents=True, exist_ok=True)
    _stale_outputs(out_dir, NAMES)
    world = World()
    for name in NAMES[:n]:
        world.add_member(name)
    recorder = Recorder(world, out_dir)
    members = [world.member(name) for name in NAMES[:n]]
    opened: set[tuple[int, int]] = set()

    async def look_at_hands(ctx: DriverContext) -> None:
        # Each member opens My hand once per table message (once a turn), so the
        # transcript holds everyone's private panel and close-up as well.
        tables = [m for m in ctx.thread.all_messages if not m.ephemeral and m.components]
        if not tables or "My hand" not in tables[-1].labels:
            return
        for member in members:
            if (member.id, tables[-1].id) not in opened:
                opened.add((member.id, tables[-1].id))
                await member.click(tables[-1], "My hand")

    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(database_path=Path(tmp) / "demo.sqlite3", _env_file=None,  # type: ignore[call-arg]  # pydantic-settings init arguments
                            default_dm_notifications=True)
        bot = make_bot(settings, registry=registry, clock=ManualClock())
        await world.connect(bot)
        try:
            game_id = await play_game(world, bot, game=key, players=n, seed=seed, game_seed=seed,
                                      extra_clicks=look_at_hands)
        finally:
            await world.disconnect()
    (out_dir / "transcript.json").write_text(json.dumps(recorder.entries, indent=1))
    public = list(recorder.public())
    (out_dir / "transcript.txt").write_text(
        "\n\n".join("\n".join(text_of(e)) for e in public) + "\n")
    private = 0
    for name in NAMES[:n]:
        mine = list(recorder.of_member(name))
        private += len(mine)
        folder = out_dir / folder_name(name)
        folder.mkdir(exist_ok=True)
        (folder / "transcript.txt").write_text(
            "\n\n".join("\n".join(text_of(e)) for e in mine) + "\n")
    shown = len({e["id"] for e in public})
    print(translate_n(
        lang, "{game}: game {id} finished with {count} player; {shown} messages ({versions} "
        "versions) and {pictures} pictures written to {folder}/, and {private} private "
        "messages to a folder per member",
        "{game}: game {id} finished with {count} players; {shown} messages ({versions} "
        "versions) and {pictures} pictures written to {folder}/, and {private} private "
        "messages to a folder per member", n, game=spec.name, id=game_id, shown=shown,
        versions=len(public), pictures=recorder.public_pictures, folder=out_dir,
        private=private))
    return 0
