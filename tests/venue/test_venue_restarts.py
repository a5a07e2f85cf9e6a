"""Restarts: a kiosk killed like a power cut is shown offline (its Last Will) and online again
when it restarts; one stopped cleanly says offline; a restarted dashboard has everything back."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

from kiosk.dashboard.service import DashboardConfig, DashboardService
from kiosk.venue.outbox import Outbox
from kiosk.venue.publisher import KioskPublisher, TableIdentity
from tests.venue.venue_helpers import (
    EVENT,
    VenueBroker,
    incident_fields,
    now_ms,
    status_fields,
    wait_for,
)

REPO = Path(__file__).resolve().parents[2]


def _online(service: DashboardService, table: str) -> bool | None:
    views = {view["table"]: view for view in service.room.tables()}
    return views[table]["online"] if table in views else None


def _kiosk_process(broker: VenueBroker, table: str, db: Path) -> subprocess.Popen[str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.venue.kiosk_process", str(broker.port), table,
         broker.logins[table].password, str(db)],
        cwd=REPO, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert process.stdout is not None
    assert process.stdout.readline() == "ready\n"
    return process


def test_killed_kiosk_goes_offline_and_comes_back(
    venue_broker: VenueBroker, tmp_path: Path
) -> None:
    service = DashboardService(
        DashboardConfig(EVENT, "unused", tmp_path / "d", venue_broker.dashboard("dash-will")),
        now_ms,
    )
    service.start()
    try:
        kiosk = _kiosk_process(venue_broker, "t050", tmp_path / "t050.db")
        wait_for(lambda: _online(service, "t050") is True, 10, "t050 online")
        kiosk.send_signal(signal.SIGKILL)  # power cut: no goodbye to the broker
        kiosk.wait(timeout=10)
        wait_for(lambda: _online(service, "t050") is False, 10, "t050's Last Will")
        kiosk = _kiosk_process(venue_broker, "t050", tmp_path / "t050.db")
        wait_for(lambda: _online(service, "t050") is True, 10, "t050 back online")
        kiosk.send_signal(signal.SIGKILL)
        kiosk.wait(timeout=10)
    finally:
        service.stop()
    # Two runs of the kiosk each sent an incident with the same id: applied once.
    assert [i["incident_id"] for i in service.room.incidents()] == ["t050-process"]


def test_clean_stop_marks_offline_and_dashboard_restart_restores(
    venue_broker: VenueBroker, tmp_path: Path
) -> None:
    config = DashboardConfig(EVENT, "unused", tmp_path / "d", venue_broker.dashboard("dash-rs"))
    first = DashboardService(config, now_ms)
    first.start()
    kiosk = KioskPublisher(
        TableIdentity(EVENT, "t060"), venue_broker.config("t060", "kiosk-rs"),
        Outbox(tmp_path / "k.db"), now_ms, on_ruling=lambda r: None, on_settings=lambda s: None,
    )  # fmt: skip
    kiosk.start()
    kiosk.publish_status(**status_fields((3, 0)))
    kiosk.publish_incident(**incident_fields("rs-1", now_ms()))
    wait_for(lambda: len(first.room.incidents()) == 1, 10, "the incident")
    kiosk.stop()
    wait_for(lambda: _online(first, "t060") is False, 10, "t060 offline after a clean stop")
    first.stop()

    second = DashboardService(config, now_ms)  # same state directory and MQTT session
    second.start()
    try:
        # The table can show (its presence) before its retained status arrives: wait for both.
        wait_for(
            lambda: any(v["table"] == "t060" and v["status"] for v in second.room.tables()),
            10,
            "t060 and its retained status",
        )
    finally:
        second.stop()
    [view] = [view for view in second.room.tables() if view["table"] == "t060"]
    assert view["status"]["score"] == [3, 0]
    assert [i["incident_id"] for i in second.room.incidents()] == ["rs-1"]
