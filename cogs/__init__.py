"""Discord cogs."""
