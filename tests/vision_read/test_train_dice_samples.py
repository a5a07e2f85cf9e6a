"""The dice trainer's samples (``vision.training.train_dice``): the mined samples' cache, mined
again when its frames change."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from vision.training import train_dice
from vision.training.train_dice import RenderedFrames, reader_samples


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
