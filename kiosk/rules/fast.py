"""The optional C accelerator of legality verdicts, ``kiosk.rules._speedups``, when it is built.

It mirrors :func:`kiosk.rules.verdict.find_play` and :func:`kiosk.rules.verdict.closest_plays`
with :func:`kiosk.rules.notation.format_play` step for step, so its answers are identical
(tests/rules_speedups/). It answers None for anything it leaves to the pure-Python code (an invalid
ID or die, an XGID), which then gives the verdict or the error message.

The extension is optional (``setup.py`` builds it where a C compiler and the Python headers are
available); setting the environment variable ``GAMMON_KIOSK_PURE`` to anything but ``""`` or
``"0"`` makes :func:`load_speedups` ignore it.
"""

from __future__ import annotations

import os
from typing import Final, Protocol

PURE_VARIABLE: Final = "GAMMON_KIOSK_PURE"


class Speedups(Protocol):
    """The functions of ``kiosk.rules._speedups``."""

    def check(
        self, position: object, die1: object, die2: object, after: object, /
    ) -> str | list[str] | None:
        """The verdict for a Position ID before the play, a roll (two ints) and the Position ID
        after it with the opponent on roll: the text of the legal play that reaches it, or the
        texts of the closest legal plays (at most 5, sorted) when none does; None to fall back."""

    def check_line(self, line: str, /) -> str | None:
        """The ``check --jsonl`` answer line, newline included, to one input line in the plain
        form producers write (Position IDs, dice digits, an id that is null, an integer or a plain
        string); None for any other line, to be answered through :mod:`json` and :meth:`check`."""


def load_speedups() -> Speedups | None:
    """The extension, or None when it is not built or pure Python is forced."""
    if os.environ.get(PURE_VARIABLE, "") not in ("", "0"):
        return None
    try:
        from kiosk.rules import _speedups
    except ImportError:
        return None
    return _speedups
