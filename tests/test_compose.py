"""compose.yaml (README: Running at scale): it parses as YAML, PostgreSQL has a healthcheck
the bots wait for, and each bot service's environment is a valid herdbot configuration;
together the services serve every shard exactly once, on the one PostgreSQL database.
(Docker itself is not run by the tests.)"""

from __future__ import annotations

import os
import re
from pathlib import Path

import yaml

from bot.config import Settings

COMPOSE = Path(__file__).resolve().parents[1] / "compose.yaml"


def interpolate(value: str, env: dict[str, str]) -> str:
    """Compose's ``${NAME:?message}`` and ``${NAME}`` filled from ``env``."""
    return re.sub(r"\$\{(\w+)(?::\?[^}]*)?\}", lambda m: env[m.group(1)], value)


def test_compose_file_parses_and_its_shard_services_are_valid_settings(monkeypatch):
    data = yaml.safe_load(COMPOSE.read_text())
    services = data["services"]
    assert sorted(services) == ["db", "shard0", "shard1"]
    db = services["db"]
    assert db["image"] == "postgres:15-bookworm"  # the version the README says is tested
    assert db["healthcheck"]["test"] == ["CMD-SHELL",
                                         "pg_isready --username=herdbot --dbname=herdbot"]
    assert db["environment"]["POSTGRES_DB"] == "herdbot"
    assert data["volumes"] == {"pgdata": None}
    secrets = {"DISCORD_TOKEN": "token.from.env", "POSTGRES_PASSWORD": "p@ss:w/rd#1"}
    served: list[int] = []
    for name in ("shard0", "shard1"):
        bot = services[name]
        # one build (shard0's), one image for both, never pulled
        assert (bot.get("build"), bot["image"], bot["pull_policy"], bot["restart"]) == (
            "." if name == "shard0" else None, "herdbot", "never", "unless-stopped")
        assert bot["depends_on"] == {"db": {"condition": "service_healthy"}}
        env = {k: interpolate(str(v), secrets) for k, v in bot["environment"].items()}
        for key in list(os.environ):
            if key.startswith("HERDBOT_") or key == "DISCORD_TOKEN":
                monkeypatch.delenv(key)
        for key, value in env.items():
            monkeypatch.setenv(key, value)
        settings = Settings(_env_file=None)
        # the password goes to PostgreSQL's client as PGPASSWORD, never into the URL
        assert settings.database_url == "postgresql://herdbot@db:5432/herdbot"
        assert env["PGPASSWORD"] == "p@ss:w/rd#1"
        assert settings.discord_token is not None
        assert settings.discord_token.get_secret_value() == "token.from.env"
        assert settings.shard_count == 2 and settings.shard_ids is not None
        served += settings.shard_ids
    assert sorted(served) == [0, 1]  # every shard, once
