"""Fault injection: the next matching requests answer as Discord does when it refuses
(403, 404, 401, 429)."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from .model import MemberRecord, Place


@dataclasses.dataclass
class _Rule:
    method: str | None
    pattern: re.Pattern[str] | None
    status: int
    body: dict[str, Any]
    times: int
    headers: dict[str, str]
    #: "refuse": nothing done; "answered": the interaction callback counts as the
    #: interaction's answer (``applied``: and is carried out) all the same.
    mode: str = "refuse"
    applied: bool = False

    def matches(self, method: str, path: str) -> bool:
        if self.method and self.method != method:
            return False
        return not self.pattern or bool(self.pattern.search(path))


class Faults:
    """Fault injection. Each method arms a fault for the next matching request(s).

    Faults answer through discord.py's own HTTP code (a fake response with the status and
    JSON body Discord sends), so the bot sees the real exception types:
    ``discord.Forbidden`` (403 code 50007), ``discord.NotFound`` (404 code 10062),
    ``discord.HTTPException`` (401 code 50027) and a 429 that discord.py retries itself.
    """

    def __init__(self, world: Place):
        self.world = world
        self.rules: list[_Rule] = []
        self.late_acks = 0
        self.expired_tokens = 0

    def close_dms(self, member: MemberRecord) -> None:
        """DMs to ``member`` fail with 403 ``Cannot send messages to this user`` (50007)."""
        member.dms_open = False

    def late_ack(self, times: int = 1) -> None:
        """The next ``times`` interaction callbacks fail with 404 Unknown interaction (10062),
        as when the bot acknowledges after the 3-second window."""
        self.late_acks += times

    def expire_token(self, times: int = 1) -> None:
        """The next ``times`` interactions get a token that expires right after the initial
        callback: followups and original-response GET/PATCH/DELETE fail with
        401 Invalid Webhook Token (50027)."""
        self.expired_tokens += times

    def rate_limit(self, method: str | None = None, path: str | None = None, *,
                   retry_after: float = 0.001, times: int = 1, is_global: bool = False) -> None:
        """The next ``times`` requests matching ``method`` and the ``path`` regex answer
        429 with ``retry_after`` seconds (keep it tiny); discord.py sleeps and retries."""
        body = {"message": "You are being rate limited.", "retry_after": retry_after,
                "global": is_global, "code": 0}
        headers = {"Via": "1.1 google", "Retry-After": str(retry_after),
                   "X-RateLimit-Scope": "user"}
        if is_global:
            headers["X-RateLimit-Global"] = "true"
        self.fail(method, path, 429, body=body, times=times, headers=headers)

    def fail(self, method: str | None, path: str | None, status: int, *, code: int = 0,
             message: str = "", body: dict[str, Any] | None = None, times: int = 1,
             headers: dict[str, str] | None = None) -> None:
        """Generic fault: the next ``times`` matching requests answer ``status`` with
        ``{"message": message, "code": code}`` (or ``body``)."""
        pattern = re.compile(path) if path else None
        self.rules.append(_Rule(method.upper() if method else None, pattern, status,
                                body or {"message": message, "code": code}, times,
                                headers or {}))

    def answered_anyway(self, status: int, *, code: int = 0, message: str = "",
                        applied: bool = False, times: int = 1) -> None:
        """The next ``times`` interaction callbacks answer ``status`` although Discord
        took them as the interaction's answer (a later callback gets 400 40060): with
        ``applied`` the response was carried out too (a server error after the work: an
        update edited the message), else nothing changed (counted as a deferral)."""
        self.fail("POST", r"^/interactions/\d+/[^/]+/callback$", status, code=code,
                  message=message, times=times)
        self.rules[-1].mode = "answered"
        self.rules[-1].applied = applied

    def _take(self, method: str, path: str) -> _Rule | None:
        for rule in self.rules:
            if rule.matches(method, path):
                rule.times -= 1
                if rule.times <= 0:
                    self.rules.remove(rule)
                return rule
        return None


