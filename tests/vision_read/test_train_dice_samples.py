"""The dice trainer's samples (``vision.training.train_dice``): noise samples that teach the
reader noise is not a die, and the mined samples' cache, mined again when its frames change."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from vision.training import train_dice
from vision.training.train_dice import (
    NOISE_SIDES,
    PATCH_SIDES,
    RenderedFrames,
    noise_samples,
    reader_samples,
)


def test_noise_samples_are_nothing_and_hold_the_reader_s_crop() -> None:
    samples = noise_samples(200, 11)
    assert len(samples) == 200
    greys = blurred = 0
    for s in samples:
        assert s.label == 0
        assert s.truth is None
        assert s.cocked == -1
        assert NOISE_SIDES[0] <= s.side <= NOISE_SIDES[1]
        h, w, channels = s.patch.shape
        assert (h, w, channels) == (h, h, 3)
        assert s.patch.dtype == np.uint8
        assert h >= PATCH_SIDES * s.side
        assert s.center == (h / 2, h / 2)
        # Full contrast, blurred or not.
        assert s.patch.min() <= 5
        assert s.patch.max() >= 250
        greys += bool(np.array_equal(s.patch[:, :, 0], s.patch[:, :, 1]))
        neighbours = np.abs(np.diff(s.patch.astype(np.int16), axis=1)).mean()
        blurred += bool(neighbours < 50)
    # Uniform noise differs by 85 on average between neighbours; half are grey, half blurred.
    assert 70 <= greys <= 130
    assert 70 <= blurred <= 130
    again = noise_samples(200, 11)
    assert all(np.array_equal(a.patch, b.patch) for a, b in zip(samples, again, strict=True))


def _frames(cache: Path, seeds: list[int]) -> RenderedFrames:
    """Frames of ``seeds`` already in ``cache`` (plain grey, no dice), so nothing is rendered."""
    folder = cache / "frames"
    folder.mkdir(parents=True, exist_ok=True)
    for seed in seeds:
        cv2.imwrite(str(folder / f"{seed}.png"), np.full((64, 96, 3), 90 + seed, np.uint8))
        (folder / f"{seed}.json").write_text("[]")
    return RenderedFrames(cache, seeds)


def test_mined_samples_are_reused_only_for_the_frames_they_were_mined_from(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mined: list[int] = []

    def mine(images: Any, config: Any, sized: bool) -> list[Any]:
        mined.append(len(images))
        return []

    monkeypatch.setattr(train_dice, "mine_samples", mine)
    assert reader_samples(tmp_path, _frames(tmp_path, [0, 1]), []) == ([], [])
    assert mined == [2, 0]
    source = json.loads((tmp_path / "reader-samples.json").read_text())
    assert source == {"seeds": [0, 1], "photos": 0}
    reader_samples(tmp_path, _frames(tmp_path, [0, 1]), [])
    assert mined == [2, 0], "the same frames: the cache is read"
    reader_samples(tmp_path, _frames(tmp_path, [0, 1, 2]), [])
    assert mined == [2, 0, 3, 0], "other frames: mined again"
    (tmp_path / "reader-samples.json").unlink()
    reader_samples(tmp_path, _frames(tmp_path, [0, 1, 2]), [])
    assert mined == [2, 0, 3, 0, 3, 0], "a cache whose source is unknown is mined again"


def test_leaning_dice_frames_draw_six_dice_half_of_them_leaning() -> None:
    def leaning(first: int) -> tuple[int, int]:
        things = [t for seed in range(first, first + 12) for t in train_dice.render_frame(seed)[1]]
        dice = [t for t in things if t.label <= len(train_dice.dice.DIE_FACES)]
        return len(dice), sum(t.cocked for t in dice)

    drawn, leaning_dice = leaning(train_dice.LEANING_DICE_FROM)
    assert drawn == 72
    assert 0.35 <= leaning_dice / drawn <= 0.65  # LEANING_SHARE: half
    drawn, leaning_dice = leaning(train_dice.MANY_DICE_FROM)
    assert drawn == 72
    assert leaning_dice / drawn <= 0.3  # the renderer's own 16%
