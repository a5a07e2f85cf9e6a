"""Director login: a scrypt password hash from the configuration, sessions in memory.

The hash (``scrypt$<n>$<r>$<p>$<salt b64>$<key b64>``) comes from the environment, never from the
repository: make one with ``python -m kiosk.dashboard hash-password``. A session is a random
token in an HttpOnly, SameSite=Strict cookie; it expires after ``ttl_ms`` without use. The time
source is injected (ms).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

_N: Final = 2**14
_R: Final = 8
_P: Final = 1


class PasswordHashError(ValueError):
    """A configured password hash that is not in the expected format."""


def hash_password(password: str, salt: bytes | None = None) -> str:
    """The scrypt hash of ``password`` in the configuration format."""
    salt = salt if salt is not None else secrets.token_bytes(16)
    key = hashlib.scrypt(password.encode(), salt=salt, n=_N, r=_R, p=_P, dklen=32)
    encoded = [base64.b64encode(part).decode() for part in (salt, key)]
    return f"scrypt${_N}${_R}${_P}${encoded[0]}${encoded[1]}"


def check_hash_format(stored: str) -> None:
    """Raise :class:`PasswordHashError` naming what is wrong with a configured hash."""
    parts = stored.split("$")
    if len(parts) != 6 or parts[0] != "scrypt":
        raise PasswordHashError("director password hash: expected scrypt$n$r$p$salt$key")
    if not all(part.isdigit() for part in parts[1:4]):
        raise PasswordHashError("director password hash: n, r and p must be integers")


def verify_password(password: str, stored: str) -> bool:
    """True if ``password`` matches ``stored`` (constant-time comparison)."""
    check_hash_format(stored)
    _, n, r, p, salt, key = stored.split("$")
    expected = base64.b64decode(key)
    actual = hashlib.scrypt(
        password.encode(),
        salt=base64.b64decode(salt),
        n=int(n),
        r=int(r),
        p=int(p),
        dklen=len(expected),
    )
    return hmac.compare_digest(actual, expected)


@dataclass(slots=True)
class _Session:
    director: str
    expires_ms: int


class Sessions:
    """Logged-in directors by session token."""

    def __init__(self, now_ms: Callable[[], int], ttl_ms: int = 12 * 3600 * 1000) -> None:
        self._now_ms = now_ms
        self._ttl_ms = ttl_ms
        self._sessions: dict[str, _Session] = {}
        self._lock = threading.Lock()

    def open(self, director: str) -> str:
        """Start a session for ``director``; return its token."""
        token = secrets.token_urlsafe(32)
        with self._lock:
            self._sessions[token] = _Session(director, self._now_ms() + self._ttl_ms)
        return token

    def director(self, token: str | None) -> str | None:
        """The director of a live session (extending it), or None."""
        if token is None:
            return None
        now = self._now_ms()
        with self._lock:
            session = self._sessions.get(token)
            if session is None or session.expires_ms <= now:
                self._sessions.pop(token, None)
                return None
            session.expires_ms = now + self._ttl_ms
            return session.director

    def close(self, token: str | None) -> None:
        """End a session."""
        if token is not None:
            with self._lock:
                self._sessions.pop(token, None)
