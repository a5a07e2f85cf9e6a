"""OpenCV and picamera2 sources without the hardware: missing camera, clock stamping, fake Pi."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import cv2
import numpy as np
import pytest

from hardware.camera.frame import CameraError
from hardware.camera.opencv_source import OpenCVSource
from hardware.camera.picamera_source import PiCameraSource


def test_opencv_missing_camera_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(CameraError, match="cannot open"):
        OpenCVSource(str(tmp_path / "no-such-device")).open()


def test_opencv_frames_are_stamped_by_the_clock_at_grab(tmp_path: Path, clock) -> None:
    path = tmp_path / "c.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, (32, 24))
    for i in range(2):
        writer.write(np.full((24, 32, 3), 60 * i, np.uint8))
    writer.release()
    source = OpenCVSource(str(path), clock_ns=clock)
    source.open()
    first = source.read()
    clock.advance_ms(33)
    second = source.read()
    assert first is not None
    assert second is not None
    assert second.t_ns - first.t_ns == 33_000_000
    source.close()


class FakeRequest:
    def __init__(self, cam: FakePicamera2) -> None:
        self.cam = cam

    def make_array(self, name: str) -> np.ndarray:
        w, h = self.cam.config[name]["size"]
        if name == "main":
            image = np.zeros((h, w, 3), np.uint8)
            image[..., 0] = 200  # picamera2 "RGB888" is B, G, R in memory
            return image
        yuv = np.full((h * 3 // 2, w), 77, np.uint8)
        yuv[:h] = 120  # the Y plane
        return yuv

    def get_metadata(self) -> dict[str, Any]:
        return {"SensorTimestamp": self.cam.sensor_ns}

    def release(self) -> None:
        self.cam.released += 1


class FakePicamera2:
    """Enough of picamera2.Picamera2 for PiCameraSource."""

    def __init__(self, camera_num: int = 0) -> None:
        self.config: dict[str, Any] = {}
        self.sensor_ns = 0
        self.released = 0
        self.fail_capture = False
        self.stopped = self.closed = False

    def create_video_configuration(self, **kw: Any) -> dict[str, Any]:
        return kw

    def configure(self, config: dict[str, Any]) -> None:
        assert config["main"]["format"] == "RGB888"
        self.config = config

    def start(self) -> None:
        pass

    def capture_request(self, wait: float) -> FakeRequest:
        if self.fail_capture:
            raise TimeoutError("frame timed out")
        return FakeRequest(self)

    def stop(self) -> None:
        raise RuntimeError("camera already gone")

    def close(self) -> None:
        self.closed = True


@pytest.fixture
def fake_pi(monkeypatch: pytest.MonkeyPatch) -> FakePicamera2:
    cam = FakePicamera2()
    monkeypatch.setitem(sys.modules, "picamera2", SimpleNamespace(Picamera2=lambda n: cam))
    return cam


def test_picamera_frames_are_bgr_as_delivered_with_lores_y_plane(fake_pi, clock) -> None:
    boot = {"now": 50_000_000_000}
    source = PiCameraSource(
        size=(64, 48), lores_size=(16, 12), clock_ns=clock, boottime_ns=lambda: boot["now"]
    )
    source.open()
    fake_pi.sensor_ns = boot["now"] - 12_000_000  # exposed 12 ms before the read returned
    frame = source.read()
    assert frame.image.shape == (48, 64, 3)
    assert tuple(frame.image[0, 0]) == (200, 0, 0)  # no channel swap
    assert frame.lores is not None
    assert frame.lores.shape == (12, 16)
    assert (frame.lores == 120).all()
    assert frame.t_ns == clock.t_ns - 12_000_000
    assert fake_pi.released == 1
    source.close()
    assert fake_pi.closed  # close() survives a failing stop()


def test_picamera_timeout_is_a_camera_error(fake_pi) -> None:
    source = PiCameraSource()
    source.open()
    fake_pi.fail_capture = True
    with pytest.raises(CameraError, match="no frame within 2 s"):
        source.read()


def test_picamera_without_picamera2_says_how_to_install(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)  # import picamera2 -> ImportError
    with pytest.raises(CameraError, match="apt install python3-picamera2"):
        PiCameraSource().open()


def test_picamera_with_no_camera_attached_is_a_clear_error(monkeypatch) -> None:
    def no_camera(n: int) -> None:
        raise IndexError("list index out of range")

    monkeypatch.setitem(sys.modules, "picamera2", SimpleNamespace(Picamera2=no_camera))
    with pytest.raises(CameraError, match="no camera"):
        PiCameraSource().open()
