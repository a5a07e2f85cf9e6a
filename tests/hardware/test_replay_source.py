"""The replay source: timestamps, loop, resume, determinism, and clear errors for bad input."""

from __future__ import annotations

import itertools
from pathlib import Path

import cv2
import numpy as np
import pytest

from hardware.camera.frame import CameraError, as_bgr
from hardware.camera.replay import MANIFEST_NAME, ReplaySource, record_folder

MS = 1_000_000


def image(i: int) -> np.ndarray:
    return np.full((24, 32, 3), (10 * i, 255 - 10 * i, 7 * i), np.uint8)


def drain(source: ReplaySource, n: int) -> list[tuple[int, int, bytes]]:
    out = []
    for _ in range(n):
        frame = source.read()
        assert frame is not None
        out.append((frame.seq, frame.t_ns, frame.image.tobytes()))
    return out


@pytest.fixture
def recording(tmp_path: Path) -> Path:
    record_folder(tmp_path / "rec", [(image(i), 1_000 * MS + i * 40 * MS) for i in range(4)])
    return tmp_path / "rec"


def test_manifest_times_are_kept(recording: Path) -> None:
    source = ReplaySource(recording)
    source.open()
    assert [t for _, t, _ in drain(source, 4)] == [1_000 * MS + i * 40 * MS for i in range(4)]


def test_folder_without_manifest_is_name_order_at_fps(tmp_path: Path) -> None:
    for i in (2, 0, 1):
        cv2.imwrite(str(tmp_path / f"f{i}.png"), image(i))
    (tmp_path / "notes.txt").write_text("not an image")
    source = ReplaySource(tmp_path, fps=25)
    source.open()
    frames = drain(source, 3)
    assert [t for _, t, _ in frames] == [0, 40 * MS, 80 * MS]
    assert [b for _, _, b in frames] == [image(i).tobytes() for i in range(3)]


def test_loop_repeats_images_and_times_keep_increasing(recording: Path) -> None:
    source = ReplaySource(recording, loop=True)
    source.open()
    frames = drain(source, 10)
    assert [s for s, _, _ in frames] == list(range(10))
    times = [t for _, t, _ in frames]
    assert all(b - a == 40 * MS for a, b in itertools.pairwise(times))
    assert frames[4][2] == frames[0][2]
    assert frames[9][2] == frames[1][2]


def test_video_loop_continues_times(tmp_path: Path) -> None:
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 20.0, (32, 24))
    for i in range(3):
        writer.write(image(i))
    writer.release()
    source = ReplaySource(path, loop=True)
    source.open()
    assert [t for _, t, _ in drain(source, 7)] == [i * 50 * MS for i in range(7)]


def test_replay_is_deterministic(recording: Path) -> None:
    runs = []
    for _ in range(2):
        source = ReplaySource(recording, loop=True)
        source.open()
        runs.append(drain(source, 9))
        source.close()
    assert runs[0] == runs[1]


def test_reopen_resumes_at_the_next_frame(recording: Path) -> None:
    source = ReplaySource(recording)
    source.open()
    first = drain(source, 2)
    source.close()
    source.open()
    rest = drain(source, 2)
    assert [b for _, _, b in first + rest] == [image(i).tobytes() for i in range(4)]


def test_missing_path_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(CameraError, match="no such folder or video file"):
        ReplaySource(tmp_path / "nothing").open()


def test_empty_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(CameraError, match="no images"):
        ReplaySource(tmp_path).open()


def test_file_that_is_not_a_video_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "x.avi").write_bytes(b"not a video at all")
    with pytest.raises(CameraError, match="not a readable video"):
        ReplaySource(tmp_path / "x.avi").open()


def test_corrupt_image_is_a_clear_error_naming_the_file(recording: Path) -> None:
    (recording / "000001.png").write_bytes(b"garbage")
    source = ReplaySource(recording)
    source.open()
    assert source.read() is not None
    with pytest.raises(CameraError, match=r"000001\.png"):
        source.read()


@pytest.mark.parametrize(
    ("manifest", "message"),
    [
        ("{not json", "not readable JSON"),
        ('{"frames": 3}', "expected"),
        ('{"frames": [{"file": "../x.png", "t_ns": 0}]}', r"frames\[0\]\.file"),
        ('{"frames": [{"file": "000000.png", "t_ns": -1}]}', r"frames\[0\]\.t_ns"),
        ('{"frames": [{"file": "000000.png", "t_ns": true}]}', r"frames\[0\]\.t_ns"),
        ('{"frames": [{"file": "missing.png", "t_ns": 0}]}', "does not exist"),
        (
            '{"frames": [{"file": "000000.png", "t_ns": 5}, {"file": "000001.png", "t_ns": 4}]}',
            "back in time",
        ),
    ],
)
def test_bad_manifest_names_what_is_wrong(recording: Path, manifest: str, message: str) -> None:
    (recording / MANIFEST_NAME).write_text(manifest)
    with pytest.raises(CameraError, match=message):
        ReplaySource(recording).open()


def test_record_folder_refuses_to_overwrite_and_bad_suffix(recording: Path) -> None:
    with pytest.raises(ValueError, match="already exists"):
        record_folder(recording, [(image(0), 0)])
    with pytest.raises(ValueError, match="suffix"):
        record_folder(recording / "new", [(image(0), 0)], suffix=".gif")


def test_bad_fps_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="fps"):
        ReplaySource(tmp_path, fps=0)


def test_as_bgr_converts_grey_and_bgra_and_rejects_the_rest() -> None:
    grey = np.full((4, 5), 9, np.uint8)
    assert as_bgr(grey, "t").shape == (4, 5, 3)
    bgra = np.zeros((4, 5, 4), np.uint8)
    assert as_bgr(bgra, "t").shape == (4, 5, 3)
    with pytest.raises(CameraError, match="dtype"):
        as_bgr(np.zeros((4, 5, 3), np.float32), "cam")
    with pytest.raises(CameraError, match="shape"):
        as_bgr(np.zeros((4, 5, 2), np.uint8), "cam")
