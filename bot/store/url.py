"""What a ``HERDBOT_DATABASE`` value names: a PostgreSQL URL or a SQLite file, and the
server a PostgreSQL URL points at."""

from __future__ import annotations

from urllib.parse import urlsplit

from bot.config import POSTGRES_SCHEMES


def is_postgres_url(target: object) -> bool:
    """Whether ``target`` (a ``HERDBOT_DATABASE`` value) is a ``postgresql://`` (or
    ``postgres://``) URL rather than a SQLite file path."""
    return isinstance(target, str) and target.lower().startswith(POSTGRES_SCHEMES)


def postgres_address(url: str) -> tuple[str, int]:
    """``(host, port)`` of a PostgreSQL URL as libpq reads it: the host in the URL (or its
    ``host=`` query parameter), else ``localhost``; the port, else 5432."""
    parts = urlsplit(url)
    query = dict(p.split("=", 1) for p in parts.query.split("&") if "=" in p)
    host = parts.hostname or query.get("host") or "localhost"
    try:
        port = parts.port or int(query.get("port", 5432))
    except ValueError:
        port = 5432
    return host, port
