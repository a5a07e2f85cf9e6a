"""The systemd unit passes `systemd-analyze verify` and says what the kiosk relies on."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

SYSTEMD = Path(__file__).resolve().parents[2] / "systemd"
UNIT = SYSTEMD / "gammon-kiosk.service"
EXEC = "/opt/gammon-kiosk/venv/bin/gammon-kiosk"


def unit_settings() -> dict[str, list[str]]:
    """key -> values of the unit file (keys may repeat, e.g. Environment)."""
    settings: dict[str, list[str]] = {}
    for line in UNIT.read_text().splitlines():
        if "=" in line and not line.lstrip().startswith(("#", ";", "[")):
            key, value = line.split("=", 1)
            settings.setdefault(key.strip(), []).append(value.strip())
    return settings


def verify(unit_text: str, tmp_path: Path) -> str:
    """Output of `systemd-analyze verify` on ``unit_text`` with ExecStart pointed at a stub.

    verify insists that the ExecStart binary exists, and the venv only exists on an installed
    Pi: the copy differs from the real unit in that one path only.
    """
    stub = tmp_path / "gammon-kiosk"
    stub.write_text("#!/bin/sh\n")
    stub.chmod(0o755)
    assert EXEC in unit_text
    copy = tmp_path / "gammon-kiosk.service"
    copy.write_text(unit_text.replace(EXEC, str(stub)))
    result = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", str(copy)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    return (result.stdout + result.stderr).strip() + ("" if result.returncode == 0 else " (failed)")


needs_systemd_analyze = pytest.mark.skipif(
    shutil.which("systemd-analyze") is None,
    reason="systemd-analyze not installed (Debian/Ubuntu package: systemd)",
)


@needs_systemd_analyze
def test_unit_passes_systemd_analyze_verify_without_warnings(tmp_path: Path) -> None:
    assert verify(UNIT.read_text(), tmp_path) == ""


@needs_systemd_analyze
def test_verify_catches_a_broken_unit(tmp_path: Path) -> None:
    broken = UNIT.read_text().replace("Restart=always", "Restrat=always")
    assert "Unknown key" in verify(broken, tmp_path)


def test_unit_runs_the_kiosk_as_designed() -> None:
    s = unit_settings()
    assert s["ExecStart"] == [f"{EXEC} run"]
    assert s["Type"] == ["notify"]
    assert s["Restart"] == ["always"]
    assert int(s["WatchdogSec"][0]) > 0
    assert s["User"] == ["gammon"]
    assert s["StateDirectory"] == ["gammon-kiosk"]
    assert {"KIVY_WINDOW=sdl2", "SDL_VIDEODRIVER=kmsdrm"} <= set(s["Environment"])
    assert s["WantedBy"] == ["multi-user.target"]


def test_install_script_is_valid_posix_shell() -> None:
    subprocess.run(["sh", "-n", str(SYSTEMD / "install-pi.sh")], check=True, timeout=30)
