"""The kiosk's UI-loop work without a window: presses, vision results, the demo's restart,
systemd's READY and WATCHDOG notifications."""

from __future__ import annotations

import socket
import time
from pathlib import Path

import numpy as np
import pytest

from hardware.button_events import ButtonEvent, ButtonId, EventKind
from kiosk.demo import load_demo
from kiosk.pipeline.frames import FrameResult
from kiosk.pipeline.live import RESTART, Kiosk, RunOptions
from kiosk.referee import BoardRead
from kiosk.referee.board import START_SIDES, reading_of
from kiosk.store import Store
from kiosk.store.location import JOURNAL_FILENAME


def _kiosk(state_dir: Path | None) -> Kiosk:
    demo = load_demo()
    options = RunOptions(
        config=demo.config, camera=None, state_dir=state_dir, reader="labels", buttons="keyboard"
    )
    return Kiosk(options, demo, time.monotonic_ns())


def test_presses_and_readings_reach_the_referee_and_the_journal(tmp_path: Path) -> None:
    kiosk = _kiosk(tmp_path)
    board = reading_of(START_SIDES, kiosk.options.config)
    image = np.zeros((54, 96, 3), np.uint8)
    kiosk.results.put(FrameResult(image, (BoardRead(board, 10),), t_ms=10, read_ms=0.0))
    kiosk.presses.put(ButtonEvent(EventKind.PRESS, ButtonId.LEFT, time.monotonic_ns()))
    kiosk.presses.put(ButtonEvent(EventKind.FAULT, ButtonId.RIGHT, time.monotonic_ns(), "stuck"))
    kiosk.poll()
    kiosk.close()
    with Store(tmp_path) as store:
        journal = store.journal(1)
        kinds = [item.event["kind"] for item in journal.events()]
        incidents = [item.incident["incident"] for item in journal.incidents()]
    assert kinds[:2] == ["clock_press", "board_read"]  # presses first: the clock
    assert incidents == ["opening_press_wrong"]  # a press before the opening roll


def test_the_demo_starting_over_finishes_the_match_and_opens_a_new_one(tmp_path: Path) -> None:
    kiosk = _kiosk(tmp_path)
    kiosk.results.put(RESTART)
    kiosk.poll()
    kiosk.close()
    with Store(tmp_path) as store:
        matches = store.matches()
    assert [m.finished_ms is not None for m in matches] == [True, False]


def test_the_demo_without_a_state_folder_leaves_none_behind(tmp_path: Path) -> None:
    kiosk = _kiosk(None)
    scratch = kiosk.scratch
    assert scratch is not None
    assert (scratch / JOURNAL_FILENAME).exists()
    kiosk.close()
    assert not scratch.exists()
    given = _kiosk(tmp_path)
    assert given.scratch is None
    given.close()
    assert (tmp_path / JOURNAL_FILENAME).exists()  # a folder given is the director's: kept


def test_systemd_hears_ready_once_then_the_watchdog(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    address = str(tmp_path / "notify")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(address)
    listener.settimeout(2)
    monkeypatch.setenv("NOTIFY_SOCKET", address)
    monkeypatch.setenv("WATCHDOG_USEC", "2000000")
    kiosk = _kiosk(tmp_path / "state")
    kiosk.poll()
    kiosk.poll()
    messages = [listener.recv(4096).decode(), listener.recv(4096).decode()]
    kiosk.close()
    listener.close()
    assert messages[0].startswith("READY=1")
    assert messages[1] == "WATCHDOG=1"
