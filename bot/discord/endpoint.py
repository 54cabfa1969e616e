"""Where discord.py sends the bot: discord.com, or (development only) a local Discord.

``HERDBOT_DISCORD_API_URL`` (see :class:`bot.config.Settings`) names the REST base of a
local Discord on this machine (``herdbot local-discord``, :mod:`bot.sandbox.loopback`).
discord.py builds every REST URL from ``discord.http.Route.BASE`` (interaction callbacks
and followups too) and connects its gateway to ``DiscordWebSocket.DEFAULT_GATEWAY`` unless
it asked ``GET /gateway/bot`` first; both are pointed at the local Discord here.
"""

from __future__ import annotations

import json
import urllib.request

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route


def use_local_discord(api_url: str, *, timeout: float = 10.0) -> str:
    """Point discord.py at the local Discord whose REST base is ``api_url`` (e.g.
    ``http://127.0.0.1:8555/api/v10``) and at the gateway its ``GET /gateway`` names.
    Returns that gateway URL. Raises ``OSError`` when the local Discord cannot be reached
    and ``ValueError`` when it answers without a gateway URL."""
    base = api_url.rstrip("/")
    with urllib.request.urlopen(f"{base}/gateway", timeout=timeout) as resp:  # noqa: S310 - a loopback http URL (checked by Settings)
        url = json.loads(resp.read()).get("url")
    if not isinstance(url, str) or not url.startswith(("ws://", "wss://")):
        raise ValueError(f"{base}/gateway named no websocket URL")
    Route.BASE = base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
    return url
