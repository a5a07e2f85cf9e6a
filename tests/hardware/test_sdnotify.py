"""sd_notify over a real AF_UNIX datagram socket, path and abstract namespace."""

from __future__ import annotations

import os
import socket
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from hardware.sdnotify import SystemdNotifier


@pytest.fixture
def path_socket(tmp_path: Path) -> Iterator[tuple[socket.socket, str]]:
    address = str(tmp_path / "notify")
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind(address)
    server.settimeout(2)
    yield server, address
    server.close()


def test_ready_watchdog_status_reach_the_socket(path_socket) -> None:
    server, address = path_socket
    notifier = SystemdNotifier({"NOTIFY_SOCKET": address})
    assert notifier.enabled
    assert notifier.ready("table 7 ready")
    assert server.recv(4096) == b"READY=1\nSTATUS=table 7 ready"
    assert notifier.watchdog()
    assert server.recv(4096) == b"WATCHDOG=1"
    assert notifier.status("camera\nlost")  # a status is one line
    assert server.recv(4096) == b"STATUS=camera lost"
    assert notifier.stopping()
    assert server.recv(4096) == b"STOPPING=1"
    notifier.close()


def test_abstract_namespace_socket() -> None:
    name = f"gammon-kiosk-test-{uuid.uuid4().hex}"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind("\0" + name)
    server.settimeout(2)
    try:
        notifier = SystemdNotifier({"NOTIFY_SOCKET": "@" + name})
        assert notifier.ready()
        assert server.recv(4096) == b"READY=1"
        notifier.close()
    finally:
        server.close()


def test_without_notify_socket_everything_is_a_no_op() -> None:
    notifier = SystemdNotifier({})
    assert not notifier.enabled
    assert not notifier.ready()
    assert not notifier.watchdog()
    assert notifier.watchdog_interval_s is None


def test_a_vanished_socket_returns_false_and_recovers(tmp_path: Path) -> None:
    address = str(tmp_path / "gone")
    notifier = SystemdNotifier({"NOTIFY_SOCKET": address})
    assert not notifier.watchdog()
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind(address)
    server.settimeout(2)
    try:
        assert notifier.watchdog()
        assert server.recv(4096) == b"WATCHDOG=1"
    finally:
        server.close()
        notifier.close()


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"WATCHDOG_USEC": "20000000"}, 10.0),
        ({"WATCHDOG_USEC": "20000000", "WATCHDOG_PID": str(os.getpid())}, 10.0),
        ({"WATCHDOG_USEC": "20000000", "WATCHDOG_PID": "1"}, None),
        ({"WATCHDOG_USEC": "soon"}, None),
        ({}, None),
    ],
)
def test_watchdog_interval_is_half_of_watchdog_usec_for_this_process(env, expected) -> None:
    assert SystemdNotifier(env).watchdog_interval_s == expected
