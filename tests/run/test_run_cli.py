"""``gammon-kiosk run``: options checked before anything starts, and the kiosk started for real
in a subprocess under SDL's offscreen driver (no DISPLAY; SDL_VIDEODRIVER is never forced)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kiosk.cli import main
from kiosk.store import Store

ROOT = Path(__file__).resolve().parents[2]


def test_help_lists_the_options(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["run", "--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    for option in ("--demo", "--camera", "--state-dir", "--ruleset", "--length", "--fullscreen"):
        assert option in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--camera", "webcam"], "--camera: expected replay:DIR, opencv:N or picamera"),
        (["--camera", "replay:/no/such/dir"], "--camera: no such folder or video"),
        (["--demo", "--camera", "opencv:0"], "--camera: not with --demo"),
        (["--camera", "opencv:0", "--reader", "labels"], "--reader: labels exist only"),
        (["--camera", "opencv:0", "--reserve-minutes", "0"], "reserve_ms: must be positive"),
        (["--camera", "opencv:0", "--ruleset", "nope"], "--ruleset: "),
        (["--camera", "opencv:0", "--length", "-1"], "--length: must be >= 0"),
        (["--principal-point", "0.5"], "--principal-point: expected 2 comma-separated"),
        (["--principal-point", "0.5,1.2"], "--principal-point: each share must lie in 0..1"),
        (["--focal-length", "30"], "--focal-length: expected a focal length in shares"),
    ],
)
def test_bad_options_are_refused_naming_the_option(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run", *argv]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("pin", [None, "12", "12a4", "123456789"])
def test_a_real_table_needs_a_director_pin_of_4_to_8_digits(
    pin: str | None,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    if pin is None:
        monkeypatch.delenv("GAMMON_KIOSK_PIN", raising=False)
    else:
        monkeypatch.setenv("GAMMON_KIOSK_PIN", pin)
    assert main(["run", "--camera", f"replay:{tmp_path}"]) == 2
    error = capsys.readouterr().err
    assert "GAMMON_KIOSK_PIN: the director's PIN must be set to 4-8 digits" in error


def _peak_rss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def test_the_demo_starts_without_a_display_and_stays_small(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(KIVY_NO_ARGS="1", KIVY_HOME=str(tmp_path / "kivy"), PYTHONPATH=str(ROOT))
    state = tmp_path / "state"
    command = [sys.executable, "-m", "kiosk", "run", "--exit-after", "5", "--state-dir", str(state)]
    process = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    peak = 0
    deadline = time.monotonic() + 60
    while process.poll() is None and time.monotonic() < deadline:
        peak = max(peak, _peak_rss_kb(process.pid))
        time.sleep(0.1)
    if process.poll() is None:
        process.kill()
    _, err = process.communicate()
    assert process.returncode == 0, err[-2000:]
    assert "gammon-kiosk run: ready in" in err
    assert "gammon-kiosk run: settled frame -> verdict on screen: " in err
    assert 0 < peak < 400 * 1024
    with Store(state) as store:
        events = store.journal(1).events()
    kinds = {item.event["kind"] for item in events}
    assert {"board_read", "dice_read", "clock_press", "tick"} <= kinds
