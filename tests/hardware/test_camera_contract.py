"""One contract for every frame source available on this machine.

Sources: a replay folder (name order, and with a frames.json manifest), a replay video written
with cv2.VideoWriter, OpenCV VideoCapture on that video file, and picamera2 (only on a Pi with a
camera; skipped elsewhere).
"""

from __future__ import annotations

import importlib.util
import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import pytest

from hardware.camera.frame import CameraError, Frame, FrameSource
from hardware.camera.opencv_source import OpenCVSource
from hardware.camera.picamera_source import PiCameraSource
from hardware.camera.replay import ReplaySource, record_folder

N_FRAMES = 6
W, H = 64, 48


def synthetic(i: int) -> np.ndarray:
    """Frame i: a distinct, smooth BGR image (survives MJPEG compression recognisably)."""
    image = np.zeros((H, W, 3), np.uint8)
    image[..., 0] = 20 + 30 * i
    image[..., 1] = np.linspace(0, 200, W, dtype=np.uint8)[None, :]
    image[..., 2] = 200 - 30 * i
    return image


def write_images(folder: Path) -> None:
    folder.mkdir()
    for i in range(N_FRAMES):
        cv2.imwrite(str(folder / f"img{i:02d}.png"), synthetic(i))


def write_video(path: Path) -> None:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, (W, H))
    assert writer.isOpened()
    for i in range(N_FRAMES):
        writer.write(synthetic(i))
    writer.release()


@dataclass
class Case:
    source: FrameSource
    finite: bool  # ends after N_FRAMES frames


def _picamera_case(_tmp: Path) -> Case:
    if importlib.util.find_spec("picamera2") is None:
        pytest.skip("picamera2 is not installed (not a Raspberry Pi)")
    source = PiCameraSource(size=(640, 480))
    try:
        source.open()
    except CameraError as exc:
        pytest.skip(f"no Pi camera: {exc}")
    source.close()
    return Case(source, finite=False)


def _folder_case(tmp: Path) -> Case:
    write_images(tmp / "frames")
    return Case(ReplaySource(tmp / "frames"), finite=True)


def _manifest_case(tmp: Path) -> Case:
    record_folder(tmp / "rec", ((synthetic(i), 5_000 + i * 33_000_000) for i in range(N_FRAMES)))
    return Case(ReplaySource(tmp / "rec"), finite=True)


def _video_case(tmp: Path) -> Case:
    write_video(tmp / "clip.avi")
    return Case(ReplaySource(tmp / "clip.avi"), finite=True)


def _opencv_file_case(tmp: Path) -> Case:
    write_video(tmp / "clip.avi")
    return Case(OpenCVSource(str(tmp / "clip.avi")), finite=True)


CASES: dict[str, Callable[[Path], Case]] = {
    "replay-folder": _folder_case,
    "replay-manifest": _manifest_case,
    "replay-video": _video_case,
    "opencv-video-file": _opencv_file_case,
    "picamera2": _picamera_case,
}


@pytest.fixture(params=sorted(CASES))
def case(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Case]:
    made = CASES[request.param](tmp_path)
    yield made
    made.source.close()


def read_n(source: FrameSource, n: int) -> list[Frame]:
    frames = []
    for _ in range(n):
        frame = source.read()
        assert frame is not None
        frames.append(frame)
    return frames


def test_name_is_a_short_label(case: Case) -> None:
    assert isinstance(case.source.name, str)
    assert case.source.name


def test_read_before_open_is_a_camera_error(case: Case) -> None:
    with pytest.raises(CameraError, match="before open"):
        case.source.read()


def test_frames_are_bgr_uint8_with_increasing_seq_and_time(case: Case) -> None:
    case.source.open()
    frames = read_n(case.source, N_FRAMES if case.finite else 5)
    assert [f.seq for f in frames] == list(range(len(frames)))
    times = [f.t_ns for f in frames]
    assert all(b > a for a, b in itertools.pairwise(times))
    shape = frames[0].image.shape
    for f in frames:
        assert f.image.dtype == np.uint8
        assert f.image.ndim == 3
        assert f.image.shape == shape
        assert shape[2] == 3
        assert f.image.flags.c_contiguous
        assert f.lores is None or (f.lores.dtype == np.uint8 and f.lores.ndim == 2)


def test_replayed_content_is_the_recorded_content(case: Case) -> None:
    if not case.finite:
        pytest.skip("live camera: content is the scene")
    case.source.open()
    for i, frame in enumerate(read_n(case.source, N_FRAMES)):
        diff = np.abs(frame.image.astype(int) - synthetic(i).astype(int))
        assert diff.mean() < 4, f"frame {i} differs from what was recorded"


def test_finite_source_ends_with_none_and_stays_ended(case: Case) -> None:
    if not case.finite:
        pytest.skip("a live camera does not end")
    case.source.open()
    read_n(case.source, N_FRAMES)
    assert case.source.read() is None
    assert case.source.read() is None


def test_close_is_idempotent_and_reopen_continues_seq_and_time(case: Case) -> None:
    case.source.open()
    first = read_n(case.source, 2)
    case.source.close()
    case.source.close()
    with pytest.raises(CameraError):
        case.source.read()
    case.source.open()
    after = read_n(case.source, 2)
    assert [f.seq for f in after] == [2, 3]
    if isinstance(case.source, ReplaySource):
        assert after[0].t_ns > first[-1].t_ns
