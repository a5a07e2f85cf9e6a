"""The Raspberry Pi camera through picamera2 (imported lazily: this module imports on any PC).

The main stream is configured as ``"RGB888"``, which picamera2 delivers in BGR byte order: the
vision input as is, no conversion. A low-resolution ``"YUV420"`` stream is captured from the same
request; its Y plane becomes :attr:`Frame.lores`, a small greyscale image for motion detection.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from hardware.camera.frame import CameraError, Frame, as_bgr

INSTALL_HINT = (
    "picamera2 is not installed: on Raspberry Pi OS run `sudo apt install python3-picamera2` "
    "and create the venv with `python3 -m venv --system-site-packages`"
)


def _boottime_ns() -> int:
    return time.clock_gettime_ns(time.CLOCK_BOOTTIME)


class PiCameraSource:
    """Frames from the Pi camera ``camera_num``.

    ``size`` and ``lores_size`` are (width, height). A frame's ``t_ns`` is the sensor timestamp
    (libcamera's ``SensorTimestamp``, on CLOCK_BOOTTIME) moved onto ``clock_ns`` (monotonic by
    default, the clock the buttons use); a request not completed within ``timeout_s`` seconds is
    a :class:`CameraError`.
    """

    def __init__(
        self,
        *,
        camera_num: int = 0,
        size: tuple[int, int] = (1280, 720),
        lores_size: tuple[int, int] = (320, 240),
        timeout_s: float = 2.0,
        clock_ns: Callable[[], int] = time.monotonic_ns,
        boottime_ns: Callable[[], int] = _boottime_ns,
    ) -> None:
        self._camera_num = camera_num
        self._size = size
        self._lores_size = lores_size
        self._timeout_s = timeout_s
        self._clock_ns = clock_ns
        self._boottime_ns = boottime_ns
        self._camera: Any = None
        self._seq = 0

    @property
    def name(self) -> str:
        return f"picamera2:{self._camera_num}"

    def open(self) -> None:
        self.close()
        try:
            from picamera2 import Picamera2
        except ImportError as exc:
            raise CameraError(f"{self.name}: {INSTALL_HINT}") from exc
        try:
            camera = Picamera2(self._camera_num)
        except Exception as exc:  # picamera2 raises IndexError/RuntimeError: no camera, busy
            raise CameraError(f"{self.name}: no camera ({exc})") from exc
        try:
            config = camera.create_video_configuration(
                main={"size": self._size, "format": "RGB888"},
                lores={"size": self._lores_size, "format": "YUV420"},
                buffer_count=4,
            )
            camera.configure(config)
            camera.start()
        except Exception as exc:
            camera.close()
            raise CameraError(f"{self.name}: cannot start the camera ({exc})") from exc
        self._camera = camera

    def read(self) -> Frame:
        if self._camera is None:
            raise CameraError(f"{self.name}: read before open")
        try:
            request = self._camera.capture_request(wait=self._timeout_s)
        except Exception as exc:
            message = f"{self.name}: no frame within {self._timeout_s:g} s ({exc})"
            raise CameraError(message) from exc
        try:
            main = request.make_array("main")
            yuv = request.make_array("lores")
            metadata = request.get_metadata()
        except Exception as exc:
            raise CameraError(f"{self.name}: bad frame ({exc})") from exc
        finally:
            request.release()
        now_ns = self._clock_ns()
        sensor_ns = metadata.get("SensorTimestamp")
        t_ns = now_ns - max(0, self._boottime_ns() - sensor_ns) if sensor_ns else now_ns
        width, height = self._lores_size
        lores = np.ascontiguousarray(yuv[:height, :width], dtype=np.uint8)
        frame = Frame(as_bgr(main, self.name), int(t_ns), self._seq, lores)
        self._seq += 1
        return frame

    def close(self) -> None:
        if self._camera is not None:
            camera, self._camera = self._camera, None
            # A camera that has gone may fail to stop; close() must still release it and must
            # not raise, so that the watchdog can always reopen.
            with contextlib.suppress(Exception):
                camera.stop()
            with contextlib.suppress(Exception):
                camera.close()
