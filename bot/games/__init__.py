"""Pure rules engines, one package per game. No discord, no asyncio, no I/O."""
