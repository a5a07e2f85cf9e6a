"""The dataset writer and ``gammon-kiosk evaluate-vision`` on tiny sets, with a stand-in reader."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from kiosk.cli import main
from vision import evaluate
from vision.labels import Board, Reading
from vision.render import dataset
from vision.render.dataset import (
    LABELS_FILE,
    Frame,
    read_dataset,
    render_frames,
    write_dataset,
)

SEED = 2_000_000


def _key(image: npt.NDArray[np.uint8]) -> str:
    return hashlib.sha1(image.tobytes()).hexdigest()


@pytest.fixture
def oracle(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stand-in reader that knows the label of each frame rendered from SEED on."""
    labels = {_key(image): frame.label for image, frame in render_frames(SEED, 5)}

    def load() -> evaluate.FrameReader:
        return lambda image, corners, principal: labels[_key(image)]

    monkeypatch.setattr(evaluate, "load_frame_reader", load)


def test_dataset_round_trip(tmp_path: Path) -> None:
    labels_path = write_dataset(tmp_path, 3, SEED, width=320, height=180)
    assert labels_path == tmp_path / LABELS_FILE
    frames = list(read_dataset(tmp_path))
    assert [frame.seed for _, frame in frames] == [SEED, SEED + 1, SEED + 2]
    rendered = [frame.label for _, frame in render_frames(SEED, 3, 320, 180)]
    assert [frame.label for _, frame in frames] == rendered
    assert all(path.exists() for path, _ in frames)


def test_dataset_errors_name_the_line(tmp_path: Path) -> None:
    (tmp_path / LABELS_FILE).write_text('{"image": "a.png", "seed": 1, "label": {"board": 3}}\n')
    with pytest.raises(ValueError, match=r"labels.jsonl:1: board: expected an object"):
        list(read_dataset(tmp_path))


def test_cli_prints_figures_on_rendered_frames(
    oracle: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["evaluate-vision", "--frames", "5", "--seed-start", str(SEED)]) == 0
    out = capsys.readouterr().out
    assert "evaluate-vision: 5 synthetic frames" in out
    assert "tuning seeds" not in out
    lines = dict(line.split(None, 1) for line in out.splitlines()[1:] if line.startswith("  "))
    assert lines["point_error_pct"].strip() in ("0.000", "n/a")
    assert "per variation:" in out


def test_cli_json_on_a_dataset_folder(
    oracle: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "set"
    args = ["evaluate-vision", "--frames", "5", "--seed-start", str(SEED), "--data", str(folder)]
    assert main([*args, "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (folder / LABELS_FILE).exists()
    assert result["set"] == "synthetic"
    assert result["figures"]["frames"] == 5
    assert result["figures"]["dice_missed"] == 0
    assert result["figures"]["boards_exact_pct"] in (100.0, None)


def test_cli_reports_a_missing_reader(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def missing() -> evaluate.FrameReader:
        raise evaluate.ReaderUnavailableError("vision.read.read_frame is not available (test)")

    monkeypatch.setattr(evaluate, "load_frame_reader", missing)
    assert main(["evaluate-vision", "--frames", "1"]) == 2
    assert "vision.read.read_frame is not available" in capsys.readouterr().err


def test_cli_rejects_bad_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["evaluate-vision", "--frames", "0"]) == 2
    assert "--frames" in capsys.readouterr().err
    assert main(["evaluate-vision", "--set", "dice-photos", "--data", str(tmp_path)]) == 2
    assert "no labels.json" in capsys.readouterr().err
    for size in ("1280", "1280x", "12x720", "1280x720x3", "axb"):
        with pytest.raises(SystemExit) as exit_info:
            main(["evaluate-vision", "--size", size])
        assert exit_info.value.code == 2
        assert "--size" in capsys.readouterr().err


def _no_board(image: npt.NDArray[np.uint8], corners: object, principal: object) -> Reading:
    """A stand-in reader that sees no board in any frame."""
    return Reading.from_json({"board": {"found": False}})


def test_cli_renders_frames_at_the_size_asked(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    seen: list[tuple[int, ...]] = []

    def reader() -> evaluate.FrameReader:
        def read(image: npt.NDArray[np.uint8], corners: object, principal: object) -> Reading:
            seen.append(image.shape)
            return _no_board(image, corners, principal)

        return read

    monkeypatch.setattr(evaluate, "load_frame_reader", reader)
    args = ["evaluate-vision", "--frames", "2", "--seed-start", str(SEED), "--size", "640X360"]
    assert main([*args, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["size"] == [640, 360]
    assert seen == [(360, 640, 3)] * 2


def test_cli_renders_flat_dice_against_checkers_when_asked(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    asked: list[float] = []

    def frames(
        seed_start: int, count: int, width: int, height: int, against: float
    ) -> Iterator[tuple[npt.NDArray[np.uint8], Frame]]:
        asked.append(against)
        return render_frames(seed_start, count, width, height, against)

    monkeypatch.setattr(dataset, "render_frames", frames)
    args = ["evaluate-vision", "--frames", "1", "--seed-start", str(SEED)]
    monkeypatch.setattr(evaluate, "load_frame_reader", lambda: _no_board)
    assert main([*args, "--against-share", "0.5"]) == 0
    assert "0.5 of the flat dice against a checker" in capsys.readouterr().out
    assert main([*args, "--against-share", "1.5"]) == 2
    assert "--against-share" in capsys.readouterr().err
    assert asked == [0.5]


def test_cli_dice_photos_with_a_stand_in_finder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import cv2

    (tmp_path / "images").mkdir()
    cv2.imwrite(str(tmp_path / "images" / "a.png"), np.zeros((64, 64, 3), np.uint8))
    labels = [
        {
            "image": "a.png",
            "width": 64,
            "height": 64,
            "dice": [{"value": 4, "box": [10, 10, 30, 30]}],
        }
    ]
    (tmp_path / "labels.json").write_text(json.dumps(labels))

    class Found:
        value = 4
        center = (20.0, 20.0)

    monkeypatch.setattr(evaluate, "load_dice_finder", lambda: lambda image: [Found()])
    assert main(["evaluate-vision", "--set", "dice-photos", "--data", str(tmp_path), "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)["figures"]
    assert figures["dice_read_right_pct"] == 100.0


def test_no_board_reading_is_scored_as_abstained() -> None:
    _, frame = next(render_frames(SEED, 1))
    nothing = Reading(Board(False), (), frame.label.bar, frame.label.off, (), None, False)
    score = evaluate.score_frame(frame.label, nothing)
    assert score.abstained == score.readable


def test_cli_label_corners_and_failures(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The reader gets the labelled corners; a frame it reads wrong is saved for inspection."""
    frames = list(render_frames(SEED, 3))
    labels = {_key(image): frame.label for image, frame in frames}
    given: list[object] = []

    def read(image: npt.NDArray[np.uint8], corners: object, principal: object) -> Reading:
        given.append(corners)
        label = labels[_key(image)]
        if label is frames[1][1].label:  # the second frame: see nothing
            return Reading(Board(False), (), label.bar, label.off, (), None, False)
        return label

    monkeypatch.setattr(evaluate, "load_frame_reader", lambda: read)
    failures = tmp_path / "failures"
    args = ["evaluate-vision", "--frames", "3", "--seed-start", str(SEED), "--label-corners"]
    assert main([*args, "--failures", str(failures)]) == 0
    capsys.readouterr()
    assert given == [frame.label.board.corners for _, frame in frames]
    assert sorted(p.name for p in failures.iterdir()) == ["000001.json", "000001.png"]
    record = json.loads((failures / "000001.json").read_text())
    assert record["reading"]["board"] == {"found": False}
    assert record["score"]["abstained"] == int(frames[1][1].label.board.found)


def test_cli_calibrated_camera_gives_each_frames_calibration(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With ``--calibrated-camera`` the reader gets each frame's camera calibration, its
    principal point and focal length (rendered or from a dataset's labels), without it None; a
    dataset that records no principal point is a clear error, one that records no focal length
    (written before it was recorded) gives the principal point alone."""
    frames = list(render_frames(SEED, 2))
    labels = {_key(image): frame.label for image, frame in frames}
    given: list[object] = []

    def read(image: npt.NDArray[np.uint8], corners: object, camera: object) -> Reading:
        given.append(camera)
        return labels[_key(image)]

    monkeypatch.setattr(evaluate, "load_frame_reader", lambda: read)
    args = ["evaluate-vision", "--frames", "2", "--seed-start", str(SEED), "--json"]
    assert main([*args, "--calibrated-camera"]) == 0
    assert json.loads(capsys.readouterr().out)["calibrated_camera"] is True
    cameras = [frame.camera for _, frame in frames]
    assert given == cameras
    assert all(c is not None and c.principal_point != (0.5, 0.5) for c in cameras)
    assert all(c is not None and c.focal_length is not None for c in cameras)
    given.clear()
    assert main(args) == 0
    assert json.loads(capsys.readouterr().out)["calibrated_camera"] is False
    assert given == [None, None]

    folder = tmp_path / "data"
    write_dataset(folder, 2, SEED)
    given.clear()
    assert main([*args, "--data", str(folder), "--calibrated-camera"]) == 0
    capsys.readouterr()
    assert given == cameras
    lines = (folder / LABELS_FILE).read_text().splitlines()
    records = [json.loads(line) for line in lines]
    for record in records:
        del record["focal_length"]
    (folder / LABELS_FILE).write_text("".join(json.dumps(r) + "\n" for r in records))
    given.clear()
    assert main([*args, "--data", str(folder), "--calibrated-camera"]) == 0
    capsys.readouterr()
    assert given == [replace(c, focal_length=None) for c in cameras if c is not None]
    for record in records:
        del record["principal_point"]
    (folder / LABELS_FILE).write_text("".join(json.dumps(r) + "\n" for r in records))
    assert main([*args, "--data", str(folder), "--calibrated-camera"]) == 2
    assert "records no principal point" in capsys.readouterr().err
