"""The lean judge's samples (``vision.training.train_lean.mine_frame``): found dice matched to
the labelled ones, and false dice, found where no die lies, taught as not leaning."""

from __future__ import annotations

import math

import pytest

from vision.config import DiceConfig, ReadConfig
from vision.dice import FoundDie, Solids
from vision.render.render import render_scene
from vision.training import train_lean
from vision.training.train_dice import MINE_PEAK
from vision.training.train_lean import FALSE_SIDES, MATCH_SIDES, MINE_OBJECT

SEED = 20_017
SIDE = 20.0


def test_found_dice_are_labelled_as_drawn_and_false_ones_as_flat(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Four dice found: on a leaning die, on a flat one, between a die's match and the false
    dice's distance (left out), and far from every die (a false die: not leaning)."""
    scene = train_lean.training_scene(SEED)
    _, label = render_scene(scene)
    drawn = [s for s in scene.solids if s.kind == "die"]
    leaning = next(d for d, s in zip(label.dice, drawn, strict=True) if s.cocked)
    flat = next(d for d, s in zip(label.dice, drawn, strict=True) if not s.cocked)
    far = max(
        ((x, y) for x in range(40, 1280, 40) for y in range(40, 720, 40)),
        key=lambda p: min(math.dist(p, d.center) for d in label.dice),
    )
    assert min(math.dist(far, d.center) for d in label.dice) > FALSE_SIDES * SIDE
    between = (flat.center[0] + (MATCH_SIDES + FALSE_SIDES) / 2 * SIDE, flat.center[1])
    assert min(math.dist(between, d.center) for d in label.dice) > MATCH_SIDES * SIDE
    centres = [leaning.center, flat.center, between, (float(far[0]), float(far[1]))]
    seen: list[DiceConfig] = []

    def locate(image: object, config: DiceConfig) -> Solids:
        seen.append(config)
        return Solids(tuple(FoundDie(None, c, SIDE, False) for c in centres), None)

    monkeypatch.setattr(train_lean, "locate_solids", locate)
    samples = train_lean.mine_frame(SEED, ReadConfig())
    assert [s.label for s in samples] == [1, 0, 0]
    assert [s.side for s in samples] == [SIDE] * 3
    assert (seen[0].min_peak, seen[0].min_object_probability) == (MINE_PEAK, MINE_OBJECT)
    # Each patch holds its die at the centre given, PATCH_SIDES sides either way.
    for sample in samples:
        height, width = sample.patch.shape[:2]
        x, y = sample.center
        assert x >= train_lean.PATCH_SIDES * SIDE
        assert y >= train_lean.PATCH_SIDES * SIDE
        assert width - x >= train_lean.PATCH_SIDES * SIDE - 1
        assert height - y >= train_lean.PATCH_SIDES * SIDE - 1
