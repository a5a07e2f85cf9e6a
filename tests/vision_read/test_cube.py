"""The cube reader (vision.cube): turned readings averaged, abstaining, frames never trained on."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import numpy.typing as npt
import pytest

from tests.vision_read.rendered import rendered
from vision import cube, nets
from vision.config import DiceConfig, ReadConfig
from vision.labels import CUBE_VALUES
from vision.read import read_frame


def _fake_net(
    monkeypatch: pytest.MonkeyPatch, logits_by_turn: list[list[float]]
) -> list[tuple[int, ...]]:
    """A fake cube net giving each quarter turn's crop its row of ``logits_by_turn``, the
    crops read in turn order (unturned first)."""
    shapes: list[tuple[int, ...]] = []

    def run(name: str, batch: npt.NDArray[np.float32]) -> tuple[npt.NDArray[np.float32]]:
        assert name == cube.CUBE_NET
        read = sum(shape[0] for shape in shapes)
        shapes.append(batch.shape)
        return (np.asarray(logits_by_turn[read : read + len(batch)], np.float32),)

    monkeypatch.setattr(nets, "run", run)
    return shapes


def test_each_quarter_turn_is_read_and_averaged(monkeypatch: pytest.MonkeyPatch) -> None:
    """A reading unsure unturned (``cube_sure``) is read at the other three quarter turns
    too, and the four averaged."""
    sure16 = [0.0, 0.0, 0.0, 9.0, 0.0, 0.0]
    shapes = _fake_net(monkeypatch, [sure16, sure16, sure16, [0.0, 0.0, 0.0, 0.0, 0.0, 9.0]])
    image = np.zeros((100, 100, 3), np.uint8)
    config = DiceConfig(cube_sure=1.0)
    probabilities = cube.cube_probabilities(image, (50.0, 50.0), 20.0, config)
    assert shapes == [(1, 3, cube.CUBE_PX, cube.CUBE_PX), (3, 3, cube.CUBE_PX, cube.CUBE_PX)]
    assert probabilities.shape == (len(CUBE_VALUES),)
    assert probabilities.sum() == pytest.approx(1.0)
    assert probabilities[3] == pytest.approx(0.75, abs=0.01)
    shapes.clear()
    assert (
        cube.cube_value(image, (50.0, 50.0), 20.0, replace(config, min_cube_probability=0.7)) == 16
    )
    shapes.clear()
    assert (
        cube.cube_value(image, (50.0, 50.0), 20.0, replace(config, min_cube_probability=0.9))
        is None
    )


def test_a_cube_read_surely_unturned_is_read_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Unturned, a value the reader gives ``cube_sure`` is read so; one less sure is read at
    the other quarter turns too (where here it reads another value, and abstains)."""
    sure16 = [0.0, 0.0, 0.0, 9.0, 0.0, 0.0]  # 16 at 0.9994
    shapes = _fake_net(monkeypatch, [sure16] + [[0.0, 0.0, 0.0, 0.0, 0.0, 9.0]] * 3)
    image = np.zeros((100, 100, 3), np.uint8)
    assert cube.cube_value(image, (50.0, 50.0), 20.0, DiceConfig(cube_sure=0.99)) == 16
    assert shapes == [(1, 3, cube.CUBE_PX, cube.CUBE_PX)]
    shapes.clear()
    assert cube.cube_value(image, (50.0, 50.0), 20.0, DiceConfig(cube_sure=0.9999)) is None
    assert shapes == [(1, 3, cube.CUBE_PX, cube.CUBE_PX), (3, 3, cube.CUBE_PX, cube.CUBE_PX)]


def test_a_cube_at_the_frame_edge_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_net(monkeypatch, [[5.0, 0.0, 0.0, 0.0, 0.0, 0.0]] * cube.TURNS)
    image = np.zeros((60, 80, 3), np.uint8)
    assert cube.cube_value(image, (0.0, 59.0), 30.0, DiceConfig()) == 2


# Tuning seeds (never trained on) and what the reader made of their cubes (true corners).
SEEDS = range(650_000, 650_060)


def test_cubes_on_tuning_frames() -> None:
    """Measured on the sixty frames: 43 of 48 cubes read right, one wrong (seed 650,055, whose
    cube was located on its side face, 20 pixels off its top: the reader read that face right);
    the dice reader's own cube classes, which read the cube before: 23 of 48, none wrong. The
    thresholds sit just under (over) those figures, so a regression fails."""
    config = ReadConfig()
    cubes = right = wrong = 0
    for seed in SEEDS:
        image, label = rendered(seed)
        if label.cube is None or label.occluded:
            continue
        cubes += 1
        found = read_frame(image, config, label.board.corners).cube
        if found is None or math.dist(found.center, label.cube.center) > 24.0:
            continue
        right += found.value == label.cube.value
        wrong += found.value is not None and found.value != label.cube.value
    assert cubes >= 45
    assert right / cubes >= 0.875
    assert wrong <= 1
