"""The judge of leaning dice (vision.lean): rechecking, and recall on frames never trained on."""

from __future__ import annotations

from dataclasses import replace

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
def test_crops_are_turned_so_the_nadir_lies_up(
    monkeypatch: pytest.MonkeyPatch, mirrored: bool
) -> None:
    """A fake net whose logit is how much brighter the crop's top half is than its bottom half:
    a bright mark on each die's side towards the nadir (wherever that lies) comes out on top,
    and so in the mirrored crops read too where asked."""
    calls: list[int] = []

    def run(name: str, batch: npt.NDArray[np.float32]) -> tuple[npt.NDArray[np.float32]]:
        assert name == lean.LEAN
        calls.append(len(batch))
        half = batch.shape[2] // 2
        top, bottom = (
            batch[:, :, :half].mean(axis=(1, 2, 3)),
            batch[:, :, half:].mean(axis=(1, 2, 3)),
        )
        return (np.asarray((top - bottom)[:, None] * 100, np.float32),)

    monkeypatch.setattr(nets, "run", run)
    centers = [(60.0, 60.0), (140.0, 60.0), (60.0, 140.0), (140.0, 140.0)]
    for nadir in [(100.0, 100.0), (400.0, -50.0), (-80.0, 30.0)]:
        image = np.zeros((200, 200, 3), np.uint8)
        for x, y in centers:
            towards = np.array(nadir) - (x, y)
            mark = np.array((x, y)) + 12.0 * towards / np.linalg.norm(towards)
            image[int(mark[1]) - 2 : int(mark[1]) + 3, int(mark[0]) - 2 : int(mark[0]) + 3] = 255
        calls.clear()
        config = DiceConfig(lean_mirrored=mirrored, nadir=nadir, lean_extra_shares=())
        probabilities = lean.lean_probabilities(image, centers, [20.0] * 4, config)
        assert calls == [8 if mirrored else 4]
        assert all(p > 0.9 for p in probabilities)


def test_a_die_the_judge_is_unsure_of_is_read_again_at_other_widths(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A fake net sure of the first die (logit 5) and not of the second (0.5) at
    ``lean_share``, and giving 2 at every other width: the second alone is read again, at
    each of ``lean_extra_shares`` and mirrored, and its logits averaged over all the widths."""
    calls: list[int] = []

    def run(name: str, batch: npt.NDArray[np.float32]) -> tuple[npt.NDArray[np.float32]]:
        assert name == lean.LEAN
        calls.append(len(batch))
        if len(calls) == 1:  # both dice, then both mirrored
            return (np.array([[5.0], [0.5], [5.0], [0.5]], np.float32),)
        return (np.full((len(batch), 1), 2.0, np.float32),)

    monkeypatch.setattr(nets, "run", run)
    image = np.zeros((200, 200, 3), np.uint8)
    centers, sides = [(60.0, 60.0), (140.0, 140.0)], [20.0, 20.0]
    config = DiceConfig(lean_extra_shares=(2.1, 2.5, 2.7), lean_sure_probability=0.98)
    sure, unsure = lean.lean_probabilities(image, centers, sides, config)
    assert calls == [4, 6]
    assert sure == pytest.approx(1.0 / (1.0 + np.exp(-5.0)))
    assert unsure == pytest.approx(1.0 / (1.0 + np.exp(-(0.5 + 3 * 2.0) / 4)))
    calls.clear()
    lean.lean_probabilities(image, centers, sides, replace(config, lean_extra_shares=()))
    assert calls == [4]


# Tuning seeds never trained on, drawn with half their dice leaning (as the trainer draws).
LEANING_SEEDS = range(500_200, 500_280)


def test_leaning_dice_are_found_and_flat_ones_left_alone() -> None:
    """Measured on the eighty frames (true corners and the camera's principal point, the nadir
    found from them as ``vision.read`` does, half the dice drawn leaning, on a checker or the
    frame): of 83 leaning dice found 82 are called cocked, none of 79 flat ones (with the
    principal point taken at the frame's centre: 79 and 2). (Judges before, nadir from the
    frame's centre: on 298,377 samples read at 0.75, 79 of 83; on 83,598 samples read at 0.9,
    78 of 83; reading crops at any turn, 63 of 80 and none of 78. On the evaluation set the
    reader's own lean output, which judged before them, found 21.5% of the leaning dice at
    74.1% precision.) The thresholds sit just under (over) those figures, so a regression
    fails."""
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
        frame_size = (image.shape[1], image.shape[0])
        calibrated = replace(config, principal_point=scene.camera.principal_share())
        dice = find_solids(image, dice_config_for(view, calibrated, frame_size)).dice
        for i, j in match_dice([d.center for d in label.dice], [d.center for d in dice], 12.0):
            if label.dice[i].cocked:
                leaning += 1
                found += dice[j].cocked
            else:
                flat += 1
                false += dice[j].cocked
    assert leaning >= 80
    assert flat >= 75
    assert found / leaning >= 0.97
    assert false <= 1
