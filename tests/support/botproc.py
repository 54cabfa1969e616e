"""``herdbot run`` processes against a local Discord: :func:`bot_process` (from
:mod:`bot.sandbox.loopback`) and :func:`log_text`."""

from __future__ import annotations

from pathlib import Path

from bot.sandbox.processes import bot_process, clean_environ

__all__ = ["bot_process", "clean_environ", "log_text"]

def log_text(folder: Path, name: str = "bot") -> str:
    """What bot ``name`` wrote to its log so far."""
    path = folder / f"{name}.log"
    return path.read_text(errors="replace") if path.exists() else ""
