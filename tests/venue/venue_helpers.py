"""Helpers of the venue tests: the broker handle, polling, and sample message fields."""

from __future__ import annotations

import socket
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from kiosk.venue.broker import DASHBOARD_USER, Credential, start_mosquitto
from kiosk.venue.link import BrokerConfig

EVENT = "open26"
TABLES = 120


def now_ms() -> int:
    """The tests' time source (wall clock, ms)."""
    return time.time_ns() // 1_000_000


def free_port() -> int:
    """A TCP port nobody listens on right now (loopback)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for(condition: Callable[[], bool], timeout_s: float, what: str) -> None:
    """Poll ``condition`` every 50 ms; fail naming ``what`` after ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout_s} s waiting for {what}")
        time.sleep(0.05)


@dataclass
class VenueBroker:
    """A running broker and the credentials of its kiosks and dashboard."""

    directory: Path
    port: int
    logins: dict[str, Credential]
    process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = start_mosquitto(self.directory, self.port)

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()  # SIGTERM: mosquitto saves its persistence and exits
            self.process.wait(timeout=10)
            self.process = None

    def config(self, username: str, client_id: str, password: str | None = None) -> BrokerConfig:
        return BrokerConfig(
            host="127.0.0.1",
            port=self.port,
            username=username,
            password=self.logins[username].password if password is None else password,
            client_id=client_id,
            reconnect_min_s=1,
            reconnect_max_s=2,
        )

    def kiosk(self, table: str) -> BrokerConfig:
        return self.config(table, f"kiosk-{EVENT}-{table}")

    def dashboard(self, client_id: str = f"dashboard-{EVENT}") -> BrokerConfig:
        return self.config(DASHBOARD_USER, client_id)


START_POSITION = "4HPwATDgc/ABMA"


def status_fields(score: tuple[int, int] = (0, 0), state: str = "playing") -> dict[str, Any]:
    """A table status without the envelope."""
    return {
        "players": ("Ann", "Bob"),
        "score": score,
        "match_length": 7,
        "crawford": "pre",
        "cube": {"value": 1, "owner": None},
        "state": state,
        "turn": 0,
        "clocks": {
            "enabled": True,
            "reserve_ms": (840_000, 835_000),
            "allowance_ms": 12_000,
            "running": 0,
        },
        "rule_set": "MSO",
    }


def incident_fields(incident_id: str, at_ms: int = 1_700_000_000_000) -> dict[str, Any]:
    """An illegal-move incident without the envelope (a 6-5 played as 6-4)."""
    return {
        "incident_id": incident_id,
        "incident_kind": "illegal-move",
        "rule": "MSO 4.2",
        "at_ms": at_ms,
        "position_id": START_POSITION,
        "dice": (6, 5),
        "play_seen": "24/18 13/9",
        "legal_plays": ["24/13", "24/18 13/8", "13/8 13/7", "13/2"],
    }


class ServerThread:
    """A uvicorn server for an ASGI app on a loopback port, in a thread."""

    def __init__(self, app: Any, port: int) -> None:
        import uvicorn

        config = uvicorn.Config(
            app, host="127.0.0.1", port=port, log_level="warning", timeout_graceful_shutdown=1
        )
        self.server = uvicorn.Server(config)
        self.url = f"http://127.0.0.1:{port}"
        self._thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> ServerThread:
        self._thread.start()
        wait_for(lambda: self.server.started, 10, "the dashboard to listen")
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self._thread.join(timeout=10)
