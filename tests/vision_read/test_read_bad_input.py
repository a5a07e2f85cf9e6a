"""Bad input to the reader and to ``gammon-kiosk read``: clear errors or results, no crash."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from kiosk.cli import main
from vision.config import ReadConfig
from vision.labels import Reading
from vision.read import check_frame, read_frame


@pytest.mark.parametrize(
    ("frame", "message"),
    [
        (np.zeros((0, 0, 3), np.uint8), "empty"),
        (np.zeros((10, 0, 3), np.uint8), "empty"),
        (np.zeros((0, 0), np.uint8), "empty"),
        (np.zeros((5, 0, 1), np.uint8), "empty"),
        (np.zeros((20, 20, 2), np.uint8), "shape"),
        (np.zeros((20, 20, 3, 1), np.uint8), "shape"),
        (np.zeros((20, 20, 3), np.float32), "dtype"),
        (np.zeros((20, 20, 4), np.uint8), "shape"),
        ([[1, 2], [3, 4]], "numpy array"),
    ],
)
def test_bad_frames_name_the_problem(frame: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        check_frame(frame)


@pytest.mark.parametrize("shape", [(8, 8), (8, 8, 1)])
def test_grey_frame_is_accepted(shape: tuple[int, ...]) -> None:
    assert check_frame(np.full(shape, 7, np.uint8)).shape == (8, 8, 3)


@pytest.mark.parametrize("size", [(1, 1), (5, 7), (720, 1280)])
def test_blank_frame_has_no_board(size: tuple[int, int]) -> None:
    reading = read_frame(np.full((*size, 3), 128, np.uint8), ReadConfig())
    assert not reading.board.found
    assert reading.points == ()
    assert reading.dice == ()
    assert reading.to_json()["board"] == {"found": False}


@pytest.mark.parametrize("size", [(1, 5000), (5000, 1), (3, 2000), (17, 1281), (3000, 4000)])
def test_frames_of_any_size_read_without_a_crash(size: tuple[int, int]) -> None:
    noise = np.random.default_rng(size[0]).integers(0, 256, (*size, 3), dtype=np.uint8)
    assert not read_frame(noise, ReadConfig()).board.found


def test_noise_frame_does_not_crash() -> None:
    noise = np.random.default_rng(5).integers(0, 256, (240, 320, 3), dtype=np.uint8)
    reading = read_frame(noise, ReadConfig())
    assert all(d.zone == "off-board" for d in reading.dice) or reading.board.found


def test_cli_garbage_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    garbage = tmp_path / "garbage.png"
    garbage.write_bytes(b"not an image at all")
    assert main(["read", str(garbage)]) == 2
    assert "not a readable image" in capsys.readouterr().err


def test_cli_empty_and_missing_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty.png"
    empty.write_bytes(b"")
    assert main(["read", str(empty)]) == 2
    assert main(["read", str(tmp_path / "missing.png")]) == 2
    errors = capsys.readouterr().err
    assert "not a readable image" in errors
    assert "no such file" in errors


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--corners", "1,2,3", "8 comma-separated"),
        ("--corners", "a,b,c,d,e,f,g,h", "not a number"),
        ("--corners", "0,0,0,0,0,0,0,0", "no area"),
        ("--principal-point", "0.5", "expected 2 comma-separated"),
        ("--principal-point", "x,0.5", "not a number"),
        ("--principal-point", "1.5,0.5", "each share must lie in 0..1"),
        ("--focal-length", "0.8,0.8", "expected 1 comma-separated"),
        ("--focal-length", "wide", "not a number"),
        ("--focal-length", "0", "focal length in shares of the frame's width from 0.1 to 20"),
    ],
)
def test_cli_bad_calibration(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str, value: str, message: str
) -> None:
    image = tmp_path / "blank.png"
    cv2.imwrite(str(image), np.full((40, 60, 3), 90, np.uint8))
    assert main(["read", str(image), option, value]) == 2
    error = capsys.readouterr().err
    assert f"{option}: " in error
    assert message in error


def test_cli_blank_image_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    image = tmp_path / "blank.png"
    cv2.imwrite(str(image), np.full((40, 60, 3), 90, np.uint8))
    assert main(["read", str(image), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["board"] == {"found": False}
    assert result["points"] == []
    assert isinstance(result["ms"], float)


def test_cli_text_with_corners(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    image = tmp_path / "blank.png"
    cv2.imwrite(str(image), np.full((100, 160, 3), 90, np.uint8))
    assert main(["read", str(image), "--corners", "10,10,150,10,150,90,10,90"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("board: found")
    assert "occluded: no" in out


def test_cli_gives_the_reader_the_cameras_calibration(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from vision import read

    given = []
    real = read.read_frame

    def spy(image: npt.NDArray[np.uint8], config: ReadConfig, corners: object) -> Reading:
        given.append((config.principal_point, config.focal_length))
        return real(image, config, corners)  # type: ignore[arg-type]

    monkeypatch.setattr(read, "read_frame", spy)
    image = tmp_path / "blank.png"
    cv2.imwrite(str(image), np.full((100, 160, 3), 90, np.uint8))
    assert main(["read", str(image), "--principal-point", "0.3,0.6", "--json"]) == 0
    assert main(["read", str(image), "--focal-length", "0.9", "--json"]) == 0
    assert main(["read", str(image), "--json"]) == 0
    assert given == [((0.3, 0.6), None), (None, 0.9), (None, None)]
