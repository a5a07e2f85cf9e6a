"""The dice trainer's recolouring (``vision.training.train_dice._recolour``): a patch comes back
with its channels reordered or inverted, in the shares the trainer sets, and nothing else."""

from __future__ import annotations

import itertools

import numpy as np

from vision.training.train_dice import INVERT_SHARE, SHUFFLE_SHARE, _recolour


def test_recolouring_only_reorders_or_inverts_channels_in_the_set_shares() -> None:
    rng = np.random.default_rng(3)
    patch = rng.integers(0, 256, (6, 7, 3), dtype=np.uint8)
    draws = 3000
    shuffled = inverted = 0
    for _ in range(draws):
        out = _recolour(rng, patch)
        assert out.shape == patch.shape
        assert out.dtype == np.uint8
        matches = [
            (order, invert)
            for order in itertools.permutations(range(3))
            for invert in (False, True)
            if np.array_equal(out, 255 - patch[:, :, order] if invert else patch[:, :, order])
        ]
        assert len(matches) == 1, "a recoloured patch is one reordering, maybe inverted"
        order, invert = matches[0]
        shuffled += order != (0, 1, 2)
        inverted += invert
    # Shuffling draws any of the six orders, the same one a sixth of the time.
    assert abs(shuffled / draws - SHUFFLE_SHARE * 5 / 6) < 0.04
    assert abs(inverted / draws - INVERT_SHARE) < 0.03
