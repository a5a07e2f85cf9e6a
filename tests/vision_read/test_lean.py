"""The judge of leaning dice (vision.lean): rechecking, and recall on frames never trained on."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from vision import lean, nets
from vision.board import board_from_corners
from vision.config import DiceConfig, ReadConfig
from vision.dice import find_solids
from vision.evaluate import match_dice
from vision.read import dice_config_for
from vision.render.render import render_scene
from vision.render.scene import sample_scene


def test_no_dice_need_no_judging() -> None:
    assert lean.lean_probabilities(np.zeros((10, 10, 3), np.uint8), [], [], DiceConfig()) == []


@pytest.mark.parametrize("mirrored", [False, True])
def test_only_dice_that_may_lean_are_read_again_turned(
    monkeypatch: pytest.MonkeyPatch, mirrored: bool
) -> None:
    """A fake net whose logit is the crop's mean brightness and its top-left pixel (which of
    the crop's corners a turn or mirror image puts there): the dark die is plainly flat at
    once; the bright one is read four times turned, and four more mirrored where asked, each
    corner as often, so the average is the same."""
    calls: list[int] = []

    def run(name: str, batch: npt.NDArray[np.float32]) -> tuple[npt.NDArray[np.float32]]:
        assert name == lean.LEAN
        calls.append(len(batch))
        marked = batch[:, 0, 0, 0]
        return (np.asarray((batch.mean(axis=(1, 2, 3)) * 10 + marked)[:, None], np.float32),)

    monkeypatch.setattr(nets, "run", run)
    image = np.zeros((100, 200, 3), np.uint8)
    image[30:70, 130:170] = 255
    image[30, 130] = 0  # top-left pixel differs: turning the crop moves it
    centers, sides = [(50.0, 50.0), (150.0, 50.0)], [20.0, 20.0]
    config = DiceConfig(lean_mirrored=mirrored)
    probabilities = lean.lean_probabilities(image, centers, sides, config)
    assert calls == [2, 7 if mirrored else 3]
    assert probabilities[0] < 0.01
    assert 0.5 < probabilities[1] < 1.0
    once = lean.lean_probabilities(image, centers, sides, DiceConfig(lean_mirrored=False))
    assert probabilities[1] == pytest.approx(once[1])


# Tuning seeds never trained on, drawn with half their dice leaning (as the trainer draws).
LEANING_SEEDS = range(500_200, 500_280)


def test_leaning_dice_are_found_and_flat_ones_left_alone() -> None:
    """Measured on the eighty frames (true corners, half the dice drawn leaning, on a checker or
    the frame): of 80 leaning dice found 63 are called cocked, none of 78 flat ones. (On the
    evaluation set the reader's own lean output, which judged before, found 21.5% of the
    leaning dice at 74.1% precision.) The thresholds sit just under (over) those figures, so a
    regression fails."""
    config = ReadConfig()
    leaning = found = false = flat = 0
    for seed in LEANING_SEEDS:
        scene = sample_scene(np.random.default_rng(seed), lean_share=0.5)
        image, label = render_scene(scene)
        view = (
            board_from_corners(image, label.board.corners, config.board)
            if label.board.corners is not None
            else None
        )
        dice = find_solids(image, dice_config_for(view, config)).dice
        for i, j in match_dice([d.center for d in label.dice], [d.center for d in dice], 12.0):
            if label.dice[i].cocked:
                leaning += 1
                found += dice[j].cocked
            else:
                flat += 1
                false += dice[j].cocked
    assert leaning >= 75
    assert flat >= 75
    assert found / leaning >= 0.75
    assert false <= 1
