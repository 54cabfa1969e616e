"""The ``herdbot`` command: ``run`` (the bot), ``demo`` (offline game), ``simulate``,
``backup`` (copy the live database), ``migrate-store`` (copy a database into another).

Exit status: 0 done; 1 the bot or the database failed (one line on stderr); 2 bad usage,
a bad setting (one line per bad variable) or no token.

What it prints (help, refusals, results) is in the operator's language
(:func:`bot.i18n.operator_language`: ``LC_ALL``, ``LC_MESSAGES``, ``LANG``); its log
lines stay English.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import logging
import os
import shlex
import signal
import sys
from collections.abc import Callable
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any, NoReturn

from pydantic import ValidationError

from bot.config import Settings, describe_errors
from bot.i18n import N_, LocalisedError, decimal, operator_language, translate, translate_n

log = logging.getLogger(__name__)

NO_TOKEN = N_("""\
herdbot: no Discord token.

Set DISCORD_TOKEN in the environment or in a .env file (copy .env.example):
  1. Open https://discord.com/developers/applications and create an application.
  2. Bot -> Reset Token, copy it into DISCORD_TOKEN.
  3. Invite it with the URL in README.md (scopes: bot applications.commands).

No token at hand? `herdbot demo` plays a whole game offline in the built-in sandbox.
""")

RUN_HELP = N_("""\
Run the bot on Discord.

Settings come from the environment or from a .env file in the current folder (copy
.env.example, which documents each): DISCORD_TOKEN is the bot token (required);
HERDBOT_DATABASE is the SQLite file (default herdbot.sqlite3), or a PostgreSQL
URL postgresql://user:password@host:port/db.

One bot per database file: while it runs, `herdbot run` holds an OS lock on
<database>.lock (beside the real file, symbolic links followed) and a second
`herdbot run` on the same file is refused. The first run creates the file; once
herdbot has run on it (the .lock file is there), a missing file is refused rather
than replaced by a new, empty one: restore it, or pass --new-database.
On PostgreSQL several processes share the database, each serving other shards.
`herdbot backup PATH` copies the database while the bot runs.
""")

BACKUP_HELP = N_("""\
Copy the database (HERDBOT_DATABASE) to PATH with SQLite's online backup API: a
consistent copy, safe to take while the bot runs. PATH is replaced if it exists; when it
is a folder (or ends with /), the copy is named herdbot-YYYYmmdd-HHMMSS.sqlite3 (UTC)
inside it. Missing folders are created.

To restore: stop the bot, copy the backup over the database file (removing the file's
-wal and -shm companions if any are left), start the bot.
""")


MIGRATE_HELP = N_("""\
Copy every game, seat, action, timer, stat and setting from the database FROM into the
empty database TO, keeping ids (buttons already on Discord keep working). Each is a SQLite
file or a PostgreSQL URL postgresql://user:password@host:port/db; both are migrated to
this herdbot's schema first. The copy is one transaction: it lands whole or not at all.

Stop the bot first, copy, then start it with HERDBOT_DATABASE=TO. For example, from SQLite
to PostgreSQL:
  herdbot migrate-store herdbot.sqlite3 postgresql://herdbot:secret@localhost/herdbot
""")


LOCAL_HELP = N_("""\
Development only. Serve a simulated Discord (the sandbox's servers, channels, threads and
members, with Discord's request limits) on 127.0.0.1: its REST API under /api/v10 and its
gateway websocket, and prints the command that starts a bot against it. Its members act
through Python (bot.sandbox.loopback.LocalDiscord); stop it with Ctrl-C.
""")


def _version() -> str:
    try:
        return version("herdbot")
    except PackageNotFoundError:  # pragma: no cover - run from a tree that is not installed
        return "unknown"


class _Formatter(argparse.RawDescriptionHelpFormatter):
    """argparse's help layout (descriptions keep their line breaks) with ``usage:`` in
    ``lang``."""

    def __init__(self, prog: str, *, lang: str) -> None:
        super().__init__(prog)
        self.lang = lang

    def add_usage(self, usage: str | None, actions: Any, groups: Any,
                  prefix: str | None = None) -> None:
        if prefix is None:
            prefix = translate(self.lang, "usage:") + " "
        super().add_usage(usage, actions, groups, prefix)


class _Parser(argparse.ArgumentParser):
    """An argument parser whose own words (usage, the sections' titles, ``--help``, a usage
    error's frame) are in ``lang``; descriptions keep their line breaks. (argparse's own
    refusals inside the frame, "invalid choice" and the like, stay English: the standard
    library ships no catalogue.)"""

    def __init__(self, *args: Any, lang: str, **kwargs: Any) -> None:
        kwargs.update(formatter_class=functools.partial(_Formatter, lang=lang), add_help=False)
        super().__init__(*args, **kwargs)
        self.lang = lang
        self._positionals.title = translate(lang, "positional arguments")
        self._optionals.title = translate(lang, "options")
        self.add_argument("-h", "--help", action="help", default=argparse.SUPPRESS,
                          help=translate(lang, "show this help message and exit"))

    def error(self, message: str) -> NoReturn:
        """Print the usage and ``message`` (argparse's words, or ours in ``lang``) on stderr
        and exit with status 2."""
        self.print_usage(sys.stderr)
        self.exit(2, translate(self.lang, "{prog}: error: {message}", prog=self.prog,
                               message=message) + "\n")


def _command(sub: Any, name: str, lang: str, summary: str,
             description: str | None = None) -> argparse.ArgumentParser:
    """Subcommand ``name`` of ``sub`` (``add_subparsers``), its one-line help ``summary``
    and its ``description`` (message ids) in ``lang``."""
    parser: argparse.ArgumentParser = sub.add_parser(
        name, lang=lang, help=translate(lang, summary),
        description=translate(lang, description) if description is not None else None)
    return parser


def _parser(lang: str) -> argparse.ArgumentParser:
    """The command line's parser, its descriptions and help texts in ``lang``."""
    from bot.app import builtin_games

    keys = builtin_games().keys()
    parser = _Parser(
        prog="herdbot", lang=lang,
        description=translate(lang, "A Discord bot hosting llama-and-alpaca card games."),
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}",
                        help=translate(lang, "show program's version number and exit"))
    sub = parser.add_subparsers(dest="command",
                                metavar="{run,demo,simulate,backup,migrate-store,local-discord}")
    run = _command(sub, "run", lang, N_("run the bot on Discord (needs DISCORD_TOKEN)"), RUN_HELP)
    run.add_argument("--new-database", action="store_true", help=translate(
        lang, "create a new, empty SQLite database even where herdbot ran before (its "
        "<database>.lock is there but the file is gone)"))
    demo = _command(sub, "demo", lang, N_("play a full game offline in the Discord sandbox"))
    first = next(iter(keys), None)
    demo.add_argument("--game", choices=keys or None, default=first,
                      help=translate(lang, "which game (default {game})", game=first))
    demo.add_argument("--players", type=int, default=None,
                      help=translate(lang, "seats (default 3, within the game's range)"))
    demo.add_argument("--seed", type=int, default=1,
                      help=translate(lang, "the game's seed (default 1)"))
    demo.add_argument("--out", default="demo-out", help=translate(
        lang, "folder for the transcript, the PNGs and a folder per member (default "
        "demo-out; its old pictures are replaced)"))
    sim = _command(sub, "simulate", lang, N_("AI-versus-AI games through an engine"))
    sim.add_argument("game", choices=keys or None, nargs="?" if not keys else None)
    sim.add_argument("--games", type=int, default=100,
                     help=translate(lang, "how many games (default 100)"))
    sim.add_argument("--seed", type=int, default=1,
                     help=translate(lang, "the first game's seed (default 1)"))
    sim.add_argument("--players", default=None,
                     help=translate(lang, "seats per game (default the game's minimum)"))
    sim.add_argument("--seats", default=None, help=translate(
        lang, "the AI level of each seat, a comma list such as hard,normal (easy, normal, "
        "hard where the game has it, or random for measurement); seats rotate between "
        "games; sets the player count"))
    sim.add_argument("--json", action="store_true", help=translate(lang, "print JSON"))
    sim.add_argument("--stats", action="store_true", help=translate(
        lang, "Llamas Unleashed balance figures (turns, rounds, cards leaving Fields, first "
        "seat, per-card lift, leader after 3 rounds, deck-outs); --players takes a comma "
        "list (default 2,4,6,8)"))
    sim.add_argument("--vs-random", action="store_true", help=translate(
        lang, "with --stats: the AI in seat 1 against random players; prints its win rate"))
    sim.add_argument("--jobs", type=int, choices=(1, 2), default=1,
                     help=translate(lang, "processes for --stats (1 or 2)"))
    backup = _command(sub, "backup", lang,
                      N_("copy the live database to PATH (safe while the bot runs)"), BACKUP_HELP)
    backup.add_argument("path", metavar="PATH",
                        help=translate(lang, "the copy's file, or a folder for it"))
    move = _command(sub, "migrate-store", lang,
                    N_("copy a database into a new one (e.g. SQLite to PostgreSQL)"), MIGRATE_HELP)
    move.add_argument("source", metavar="FROM",
                      help=translate(lang, "the database to copy: a file or a URL"))
    move.add_argument("target", metavar="TO",
                      help=translate(lang, "the empty database to fill: a file or a URL"))
    local = _command(sub, "local-discord", lang,
                     N_("development only: a simulated Discord on 127.0.0.1 that `herdbot run` "
                        "can connect to"), LOCAL_HELP)
    local.add_argument("--port", type=int, default=8555,
                       help=translate(lang, "TCP port (default 8555)"))
    local.add_argument("--guilds", type=int, default=1,
                       help=translate(lang, "servers (default 1)"))
    local.add_argument("--members", type=int, default=4,
                       help=translate(lang, "members per server (default 4)"))
    return parser


def _fail(text: str) -> None:
    """``herdbot: `` and one line (already in the operator's language) on stderr."""
    sys.stderr.write(f"herdbot: {text}\n")


def setup_logging(level: str) -> None:
    """Log to stderr with timestamps; discord.py at WARNING (ERROR at ERROR) unless DEBUG,
    its reconnect attempts one WARNING line each (``bot.discord.logs``), no traceback; a
    database outage one line per kind of failure, no traceback (``bot.store.outage``)."""
    from bot.discord.logs import quiet_reconnects
    from bot.store.outage import quiet_store_outages

    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if level != "DEBUG":
        logging.getLogger("discord").setLevel(max(logging.WARNING,
                                                  logging.getLevelNamesMapping()[level]))
    quiet_reconnects()
    quiet_store_outages()


def cmd_run(settings: Settings, *, new_database: bool = False, lang: str = "en") -> int:
    """Start the bot; exit 2 without a token, 1 (one line) when the database is in use by
    another herdbot, missing where herdbot ran before (unless ``new_database``), from a
    newer herdbot, or cannot be opened or written (for PostgreSQL: cannot be reached;
    the line names host and port). The bot opens the
    database once, before it logs in to Discord (``HerdBot.start``), so those refusals
    come first.

    A SQLite file's writer lock (``bot.store.lock``), or on PostgreSQL the claim of the
    process's shards (``bot.store.shards``), is held until the bot stops."""
    if settings.discord_token is None or not settings.discord_token.get_secret_value().strip():
        sys.stderr.write(translate(lang, NO_TOKEN))
        return 2
    from bot.store import StoreError
    from bot.store.lock import WriterLock
    from bot.store.shards import ShardClaim

    lock = WriterLock(settings.sqlite_path) if settings.sqlite_path is not None else None
    claim = (ShardClaim(settings.database_url, settings.shard_count, settings.shard_ids)
             if settings.database_url is not None else None)
    try:
        if lock is not None:
            lock.acquire()
            if not new_database:
                lock.check_not_lost()
        if claim is not None:
            claim.acquire()
        return _run_bot(settings, lang)
    except StoreError as exc:  # another herdbot holds the lock or the shards, or the
        sys.stderr.write(f"{exc.text(lang)}\n")  # database is refused
        return 1
    finally:
        if lock is not None:
            lock.release()
        if claim is not None:
            claim.release()


def _stop_as_ctrl_c(signum: int, frame: Any) -> None:
    """SIGTERM handler: stop as Ctrl-C does (asyncio's SIGINT handler cancels the bot's
    task, which closes it). A process started with SIGINT ignored (``herdbot run &`` from
    a script) has no such handler, so the stop is a KeyboardInterrupt raised by a callback
    of the bot's event loop: raised here directly, it would land in whichever task runs
    when the signal arrives (an aiohttp write), and that task's exception would be logged
    as "never retrieved", with a traceback, on the way out."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # not inside the loop (before or after the bot runs)
            raise KeyboardInterrupt from None
        loop.call_soon_threadsafe(_interrupt)
        return
    signal.raise_signal(signal.SIGINT)


def _interrupt() -> None:
    """Stop the event loop as Ctrl-C would (a loop callback: no task gets the exception)."""
    raise KeyboardInterrupt


def event_loop_factory(name: str) -> Callable[[], asyncio.AbstractEventLoop]:
    """What makes the event loop ``herdbot run`` runs in (``HERDBOT_EVENT_LOOP``): uvloop's
    for ``uvloop`` where it is installed (else asyncio's, said in one log line), asyncio's
    for ``asyncio``."""
    if name == "uvloop":
        try:
            import uvloop
        except ImportError:
            log.info("uvloop is not installed; herdbot runs in asyncio's event loop")
        else:
            return uvloop.new_event_loop
    return asyncio.new_event_loop


def _run_bot(settings: Settings, lang: str) -> int:
    import discord

    from bot.app import make_bot
    from bot.render.pool import shutdown_pools

    assert settings.discord_token is not None
    if settings.discord_api_url is not None:  # development only: a local Discord
        from bot.discord.endpoint import use_local_discord

        try:
            use_local_discord(settings.discord_api_url)
        except (OSError, ValueError) as exc:
            _fail(translate(lang, "cannot reach the local Discord at {url} ({error}).",
                            url=settings.discord_api_url, error=exc))
            return 1
    # SIGTERM (docker stop, systemd) stops the bot as Ctrl-C does: it closes cleanly.
    signal.signal(signal.SIGTERM, _stop_as_ctrl_c)
    bot = make_bot(settings)
    bot.freeze_gc_when_ready = True
    token = settings.discord_token.get_secret_value()

    async def serve() -> None:  # discord.py's Client.run, in the chosen event loop
        async with bot:
            await bot.start(token)

    try:
        with asyncio.Runner(loop_factory=event_loop_factory(settings.event_loop)) as runner:
            runner.run(serve())
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM: the runner has closed the bot
        pass
    except discord.LoginFailure:
        _fail(translate(lang, "Discord refused the token. Copy it again from the Bot page of "
                              "your application (Reset Token) into DISCORD_TOKEN."))
        return 2
    except OSError as exc:  # aiohttp's connection errors are OSErrors
        error = f"{exc.__class__.__name__}: {exc}"
        _fail(translate(lang, "cannot reach Discord ({error}). Check the network connection "
                              "and try again.", error=error))
        return 1
    finally:
        shutdown_pools()
    return 0


def cmd_stats(args: argparse.Namespace, lang: str = "en") -> int:
    """``simulate llamas-unleashed --stats``: the balance table per player count."""
    from bot.ai.simulate import unleashed_stats
    from bot.games.unleashed.stats import format_table, summarize

    counts = [int(p) for p in str(args.players or "2,4,6,8").split(",")]
    if any(not 2 <= n <= 8 for n in counts):
        _fail(translate(lang, "{game} takes {low}-{high} players", game="Llamas Unleashed",
                        low=2, high=8))
        return 2
    mode = "vs_random" if args.vs_random else "ai"
    tables = []
    for n in counts:
        logs = unleashed_stats(args.game, games=args.games, seed=args.seed, players=n,
                               jobs=args.jobs, mode=mode)
        if args.vs_random:
            done = [g for g in logs if g.finished]
            rate = sum("s0" in g.winners for g in done) / max(1, len(done))
            print(translate_n(
                lang, "{players} players: the AI (seat 1) wins {share} of {count} finished "
                "game against random players", "{players} players: the AI (seat 1) wins "
                "{share} of {count} finished games against random players", len(done),
                players=n, share=decimal(lang, 100 * rate) + "%"))
            continue
        tables.append(summarize(logs))
    if tables:
        print(json.dumps([t.as_dict() for t in tables]) if args.json else format_table(tables))
    return 0


def cmd_simulate(args: argparse.Namespace, lang: str = "en") -> int:
    """AI-vs-AI games; prints the figures (JSON with --json)."""
    from bot.ai.simulate import simulate
    from bot.app import builtin_games

    registry = builtin_games()
    if not len(registry):
        _fail(translate(lang, "no game is registered yet."))
        return 1
    if args.stats or args.vs_random:
        if args.game != "llamas-unleashed":
            _fail(translate(lang, "--stats is for llamas-unleashed"))
            return 2
        return cmd_stats(args, lang)
    args.players = int(args.players) if args.players is not None else None
    seats = [s.strip() for s in args.seats.split(",")] if args.seats else None
    try:
        report = simulate(registry[args.game], games=args.games, seed=args.seed,
                          players=args.players, seats=seats)
    except ValueError as exc:
        _fail(exc.text(lang) if isinstance(exc, LocalisedError) else str(exc))
        return 2
    if args.json:
        print(json.dumps(report.as_dict()))
    else:
        d = report.as_dict()
        print(translate_n(
            lang, "{game}: {count} game, {finished} finished, {errors} errors, {turns} turns "
            "on average, winning score {score} on average, {rate} games/s",
            "{game}: {count} games, {finished} finished, {errors} errors, {turns} turns on "
            "average, winning score {score} on average, {rate} games/s", d["games"],
            game=registry[args.game].name, finished=d["finished"], errors=d["errors"],
            turns=d["turns_mean"], score=d["winning_score_mean"], rate=d["games_per_s"]))
        if seats:
            wins = ", ".join(translate(lang, "{level} {wins}/{seats} seats", level=lv, wins=n,
                                       seats=d["seat_games_by_level"][lv])
                             for lv, n in d["wins_by_level"].items())
            print("  " + translate(lang, "wins by level: {wins}", wins=wins))
        for line in report.error_samples:
            print("  " + translate(lang, "error: {error}", error=line))
    return 1 if report.errors else 0


def cmd_demo(args: argparse.Namespace, lang: str = "en") -> int:
    """A full game offline through the real cogs in the sandbox; stopped by Ctrl-C, one
    line and exit 130."""
    from bot.app import builtin_games

    if not len(builtin_games()):
        _fail(translate(lang, "no game is registered yet."))
        return 1
    from bot.sandbox.demo import run_demo

    try:
        return asyncio.run(run_demo(game=args.game, players=args.players, seed=args.seed,
                                    out=args.out, lang=lang))
    except KeyboardInterrupt:
        _fail(translate(lang, "demo stopped; what it wrote to {folder}/ is incomplete.",
                        folder=str(args.out).rstrip("/")))
        return 130


def cmd_backup(settings: Settings, path: str, lang: str = "en") -> int:
    """``herdbot backup PATH``: one line saying what was written; 1 (one line) on failure."""
    from bot.store import StoreError
    from bot.store.backup import backup

    if settings.sqlite_path is None:
        _fail(translate(lang, "`herdbot backup` copies a SQLite file, and HERDBOT_DATABASE is a "
                              "PostgreSQL database: back it up with pg_dump."))
        return 1
    try:
        report = backup(settings.sqlite_path, Path(path), folder=path.endswith(("/", os.sep)))
    except StoreError as exc:
        sys.stderr.write(f"{exc.text(lang)}\n")
        return 1
    print("herdbot: " + translate_n(
        lang, "backed up {database} to {path} ({count} game, schema version {schema}, "
        "{size} bytes).", "backed up {database} to {path} ({count} games, schema version "
        "{schema}, {size} bytes).", report.games, database=settings.database_path,
        path=report.path, schema=report.schema, size=report.size))
    return 0


def cmd_migrate_store(source: str, target: str, lang: str = "en") -> int:
    """``herdbot migrate-store FROM TO``: one line with the rows copied; 1 (one line) when
    FROM is missing, TO is not empty, or either cannot be used."""
    from bot.store import StoreError, is_postgres_url
    from bot.store.transfer import transfer

    if not is_postgres_url(source) and not Path(source).is_file():
        _fail(translate(lang, "there is no database file {source} to copy.", source=source))
        return 1
    try:
        report = asyncio.run(transfer(source if is_postgres_url(source) else Path(source),
                                      target if is_postgres_url(target) else Path(target)))
    except StoreError as exc:
        sys.stderr.write(f"{exc.text(lang)}\n")
        return 1
    from bot.config import redacted

    rows = ", ".join(f"{n} {table}" for table, n in report.rows.items())  # (table names)
    print("herdbot: " + translate(lang, "copied {source} to {target} ({rows}).",
                                  source=redacted(source), target=redacted(target), rows=rows))
    return 0


def invoked_as() -> str:
    """This command as the operator started it, for a command line printed to repeat: the
    ``herdbot`` script by the path it was run from (``.venv/bin/herdbot``), else
    ``<python> -m bot``; quoted for a POSIX shell."""
    if os.path.basename(sys.argv[0]) == "herdbot":
        return shlex.quote(sys.argv[0])
    return f"{shlex.quote(sys.executable)} -m bot"


def cmd_local_discord(args: argparse.Namespace, lang: str = "en") -> int:
    """``local-discord``: serve a simulated Discord on 127.0.0.1 until Ctrl-C (exit 0);
    exit 1 with one line when the port cannot be bound, 2 for bad numbers."""
    from bot.sandbox.loopback import serve

    if not 0 <= args.port <= 65535 or args.guilds < 1 or args.members < 0:
        _fail(translate(lang, "--port is 0-65535, --guilds 1 or more, --members 0 or more."))
        return 2
    try:
        asyncio.run(serve(port=args.port, guilds=args.guilds, members=args.members, lang=lang,
                          command=invoked_as()))
    except KeyboardInterrupt:
        return 0
    except OSError as exc:
        _fail(translate(lang, "cannot listen on 127.0.0.1:{port} ({error}).", port=args.port,
                        error=exc.strerror))
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``herdbot`` console script and ``python -m bot``."""
    lang = operator_language()
    parser = _parser(lang)
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    players = getattr(args, "players", None)
    key = getattr(args, "game", None)
    if isinstance(players, str) and not (getattr(args, "stats", False)
                                         or getattr(args, "vs_random", False)):
        try:
            players = int(players)
        except ValueError:
            parser.error(translate(lang, "--players takes a number (a comma list only with "
                                         "--stats)"))
    if isinstance(players, int) and key:
        from bot.app import builtin_games

        spec = builtin_games().get(key)
        if spec is not None and not spec.min_players <= players <= spec.max_players:
            parser.error(translate(lang, "{game} takes {low}-{high} players", game=spec.name,
                                   low=spec.min_players, high=spec.max_players))
    try:
        settings = Settings()
    except ValidationError as exc:
        lines = describe_errors(exc, lambda msgid, **values: translate(lang, msgid, **values))
        sys.stderr.write("".join(f"{line}\n" for line in lines))
        return 2
    setup_logging(settings.log_level)
    if args.command == "run":
        return cmd_run(settings, new_database=args.new_database, lang=lang)
    if args.command == "simulate":
        return cmd_simulate(args, lang)
    if args.command == "backup":
        return cmd_backup(settings, args.path, lang)
    if args.command == "migrate-store":
        return cmd_migrate_store(args.source, args.target, lang)
    if args.command == "local-discord":
        return cmd_local_discord(args, lang)
    return cmd_demo(args, lang)


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
