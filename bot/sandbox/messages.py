"""``python -m bot.sandbox.messages``: bring the message catalogues up to date with the
code and the slash commands.

The sentences of the code are found by Babel's extraction (:mod:`bot.i18n.extract`); the
slash commands' names, descriptions and choices exist only once the bot has built its
command tree, so the real bot is connected to a sandbox world here and its tree read
(:func:`bot.discord.translator.command_strings`). Both go into
the templates ``bot/i18n/locales/<part>.pot``, each merged into every language's ``<part>.po``:
new entries arrive untranslated, and the catalogue tests list them until they are.
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from bot.app import builtin_games, make_bot
from bot.config import Settings
from bot.discord.translator import command_strings
from bot.i18n import extract
from bot.runtime import ManualClock
from bot.sandbox.world import World


async def bot_command_strings() -> list[tuple[str, str]]:
    """``(context, English string)`` of every translatable string of the slash commands
    of the bot with every built-in game (connected to a fresh sandbox world, then
    disconnected)."""
    world = World()
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(database_path=Path(tmp) / "messages.sqlite3",  # type: ignore[call-arg]  # pydantic-settings init arguments
                            _env_file=None)
        bot = make_bot(settings, registry=builtin_games(), clock=ManualClock())
        await world.connect(bot)
        try:
            return command_strings(bot.tree)
        finally:
            await world.disconnect()


def main() -> int:
    """Write the template and merge it into the catalogues; print the files written."""
    for path in extract.update(extra=asyncio.run(bot_command_strings())):
        print(path)
    return 0


if __name__ == "__main__":  # pragma: no cover - a contributor's tool
    raise SystemExit(main())
