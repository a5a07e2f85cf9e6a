"""Where the journal lives: the state directory.

Under systemd (``StateDirectory=gammon-kiosk``) ``$STATE_DIRECTORY`` names it, normally
``/var/lib/gammon-kiosk``; systemd may list several directories separated by ``:``, the first is
ours. On a PC it is ``$XDG_STATE_HOME/gammon-kiosk``, by default ``~/.local/state/gammon-kiosk``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

JOURNAL_FILENAME = "journal.sqlite3"
"""The journal database inside the state directory."""

_APP_DIR = "gammon-kiosk"


def default_state_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The state directory from ``environ`` (default: the process environment)."""
    env = os.environ if environ is None else environ
    systemd = env.get("STATE_DIRECTORY", "").split(":")[0]
    if systemd:
        return Path(systemd)
    xdg = env.get("XDG_STATE_HOME", "")
    if xdg and Path(xdg).is_absolute():  # the XDG spec says to ignore a relative path
        return Path(xdg) / _APP_DIR
    home = env.get("HOME") or str(Path.home())
    return Path(home) / ".local" / "state" / _APP_DIR
