"""A tiny sd_notify(3): tell systemd the kiosk is ready, alive (watchdog) and what it is doing.

Messages go as one datagram to the AF_UNIX socket named by ``$NOTIFY_SOCKET`` (a path, or an
abstract-namespace name starting with ``@``). Without ``$NOTIFY_SOCKET`` (not started by systemd)
every call is a no-op returning False. A send error is returned as False, never raised: the kiosk
must keep running even if systemd's socket has gone.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping


class SystemdNotifier:
    """Sends sd_notify messages; create once and reuse (the socket is kept open)."""

    def __init__(self, environ: Mapping[str, str] | None = None) -> None:
        """Read ``NOTIFY_SOCKET``, ``WATCHDOG_USEC`` and ``WATCHDOG_PID`` from ``environ``."""
        env = os.environ if environ is None else environ
        path = env.get("NOTIFY_SOCKET", "")
        self._address = "\0" + path[1:] if path.startswith("@") else path
        self._socket: socket.socket | None = None
        self._watchdog_usec = _watchdog_usec(env)

    @property
    def enabled(self) -> bool:
        """True when started by systemd with a notification socket."""
        return bool(self._address)

    @property
    def watchdog_interval_s(self) -> float | None:
        """How often to call :meth:`watchdog` (half of ``WatchdogSec``), or None if not watched."""
        return None if self._watchdog_usec is None else self._watchdog_usec / 2e6

    def notify(self, *assignments: str) -> bool:
        """Send ``KEY=VALUE`` lines in one datagram; True if sent."""
        if not self._address:
            return False
        message = "\n".join(assignments).encode("utf-8")
        try:
            if self._socket is None:
                kind = socket.SOCK_DGRAM | socket.SOCK_CLOEXEC
                self._socket = socket.socket(socket.AF_UNIX, kind)
            self._socket.sendto(message, self._address)
        except OSError:
            self.close()
            return False
        return True

    def ready(self, status: str | None = None) -> bool:
        """Startup finished (``Type=notify``): READY=1, with an optional status line."""
        return self.notify("READY=1", *(() if status is None else (_status(status),)))

    def watchdog(self) -> bool:
        """Still alive: WATCHDOG=1 (call from the UI loop every :attr:`watchdog_interval_s`)."""
        return self.notify("WATCHDOG=1")

    def status(self, text: str) -> bool:
        """A one-line status shown by ``systemctl status``."""
        return self.notify(_status(text))

    def stopping(self) -> bool:
        """Shutting down on purpose: STOPPING=1."""
        return self.notify("STOPPING=1")

    def close(self) -> None:
        """Close the socket (it is reopened by the next message)."""
        if self._socket is not None:
            self._socket.close()
            self._socket = None


def _status(text: str) -> str:
    return "STATUS=" + " ".join(text.split())


def _watchdog_usec(env: Mapping[str, str]) -> int | None:
    """``WATCHDOG_USEC`` if it is meant for this process (``WATCHDOG_PID`` unset or ours)."""
    try:
        usec = int(env.get("WATCHDOG_USEC", ""))
        pid = int(env.get("WATCHDOG_PID", str(os.getpid())))
    except ValueError:
        return None
    return usec if usec > 0 and pid == os.getpid() else None
