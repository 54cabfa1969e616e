"""herdbot: a Discord bot hosting three llama-and-alpaca card games."""

__version__ = "0.1.0"
