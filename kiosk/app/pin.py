"""The director's PIN pad logic (pure): digits typed, checked in constant time, lockout.

After :data:`MAX_FAILURES` wrong PINs in a row the pad refuses further tries until
``unlock_at_ms``; the caller passes the time, so the logic stays clock-free.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass, replace
from typing import Literal

MAX_DIGITS = 8
MAX_FAILURES = 3
LOCKOUT_MS = 30_000
PinResult = Literal["accepted", "rejected", "locked"]


@dataclass(frozen=True)
class PinPad:
    """Digits typed so far, consecutive failures, and when a lockout ends (ms)."""

    digits: str = ""
    failures: int = 0
    unlock_at_ms: int = 0

    def type(self, digit: str) -> PinPad:
        """The pad with ``digit`` ('0'..'9') appended (ignored beyond :data:`MAX_DIGITS`)."""
        if len(digit) != 1 or not digit.isdigit():
            raise ValueError(f"PIN digit: expected 0-9, got {digit!r}")
        if len(self.digits) >= MAX_DIGITS:
            return self
        return replace(self, digits=self.digits + digit)

    def erase(self) -> PinPad:
        """The pad with the last digit removed."""
        return replace(self, digits=self.digits[:-1])

    def submit(self, pin: str, now_ms: int) -> tuple[PinPad, PinResult]:
        """Check the typed digits against ``pin``; the digits are cleared either way."""
        if now_ms < self.unlock_at_ms:
            return replace(self, digits=""), "locked"
        if hmac.compare_digest(self.digits.encode(), pin.encode()):
            return PinPad(), "accepted"
        failures = self.failures + 1
        unlock = now_ms + LOCKOUT_MS if failures >= MAX_FAILURES else 0
        return PinPad(failures=0 if unlock else failures, unlock_at_ms=unlock), "rejected"
