"""Start-up: ``scripts/venue-up`` runs broker + dashboard in one command; the systemd unit."""

from __future__ import annotations

import configparser
import json
import os
import shutil
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from tests.venue.venue_helpers import free_port, wait_for

REPO = Path(__file__).resolve().parents[2]


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=1):
            return True
    except OSError:
        return False


def test_venue_up_starts_broker_and_dashboard(tmp_path: Path) -> None:
    if shutil.which("mosquitto") is None and not Path("/usr/sbin/mosquitto").exists():
        pytest.skip("mosquitto is not installed (apt-get install mosquitto)")
    http_port, mqtt_port = free_port(), free_port()
    env = {
        **os.environ,
        "GAMMON_VENUE_DIR": str(tmp_path / "venue"),
        "GAMMON_DIRECTOR_PASSWORD": "a director password",
        "GAMMON_MQTT_PORT": str(mqtt_port),
        "GAMMON_DASHBOARD_PORT": str(http_port),
        "PYTHON": sys.executable,
    }
    process = subprocess.Popen(
        [str(REPO / "scripts" / "venue-up"), "cup26", "12"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        wait_for(lambda: _answers(f"http://127.0.0.1:{http_port}/"), 30, "the dashboard")
        login = urllib.request.Request(
            f"http://127.0.0.1:{http_port}/api/login",
            data=json.dumps({"name": "Dana", "password": "a director password"}).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(login, timeout=5) as response:
            assert json.loads(response.read()) == {"director": "Dana"}
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        output = process.communicate(timeout=20)[0].decode()
    venue = tmp_path / "venue"
    assert "mosquitto (pid" in output
    assert (venue / "kiosks.csv").read_text().count("\n") == 13  # header + 12 tables
    assert oct((venue / "kiosks.csv").stat().st_mode & 0o777) == "0o600"
    assert "New client connected" in (venue / "mosquitto.log").read_text()  # the dashboard


def test_dashboard_unit_runs_the_dashboard_with_secrets_from_etc() -> None:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read(REPO / "systemd" / "gammon-dashboard.service")
    service = unit["Service"]
    assert service["ExecStart"].endswith("python -m kiosk.dashboard serve")
    assert service["User"] == "gammon"
    assert service["StateDirectory"] == "gammon-dashboard"
    assert "mosquitto.service" in unit["Unit"]["After"]
    text = (REPO / "systemd" / "gammon-dashboard.service").read_text()
    assert "EnvironmentFile=/etc/gammon-venue/director.env" in text
