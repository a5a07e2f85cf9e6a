"""Whether a die is cocked: it leans on a checker or the board's edge instead of lying flat.

A roll counts only when both dice come to rest flat (MSO 4.2, JBL 4.1.4), and no double may
follow cocked dice (MSO 5.4; BIBA 5.4 deems them "rolling"). A small trained network
(``vision/models/dice_lean.onnx``, trained by ``vision.training.train_lean`` on rendered frames
with many leaning dice) reads each found die from a ``LEAN_PX`` square crop
``DiceConfig.lean_share`` times its side wide, at about the frame's own resolution (a die is
15 to 31 pixels wide in a 1280 x 720 frame), and gives the probability that it leans; a die it
finds at least ``DiceConfig.lean_recheck`` likely to lean is read again turned by quarter
turns, ``lean_turns`` times in all, and as many times mirrored where ``lean_mirrored`` (a die
leans as much in its mirror image; the logits averaged).

The cue is faint: a flat die seen up to 30 degrees off the camera's axis shows side faces as a
leaning one does; what tells them apart is the top face's shape and shading beside them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from vision import nets
from vision.config import DiceConfig
from vision.crops import crop_inputs

Image = npt.NDArray[np.uint8]

LEAN = "dice_lean"
# The judge's crops are this many pixels square.
LEAN_PX = 48


def lean_probabilities(
    image_bgr: Image,
    centers: Sequence[tuple[float, float]],
    sides: Sequence[float],
    config: DiceConfig,
) -> list[float]:
    """The probability that each die (centre and side in frame pixels) is cocked: read once,
    and where that gives ``lean_recheck`` or more, ``lean_turns`` times in all, turned, and as
    many again mirrored where ``lean_mirrored`` (the logits averaged). Most dice lie flat and
    are plainly so at once."""
    if not centers:
        return []
    batch = crop_inputs(image_bgr, centers, sides, config.lean_share, LEAN_PX)
    (first,) = nets.run(LEAN, batch)
    logits = first[:, 0].astype(np.float64)
    again = np.flatnonzero(nets.sigmoid(logits) >= config.lean_recheck)
    chosen = batch[again]
    views = [np.rot90(chosen, k, axes=(2, 3)) for k in range(1, config.lean_turns)]
    if config.lean_mirrored:
        mirrored = chosen[:, :, :, ::-1]
        views += [np.rot90(mirrored, k, axes=(2, 3)) for k in range(config.lean_turns)]
    if views and len(again):
        (more,) = nets.run(LEAN, np.ascontiguousarray(np.concatenate(views)))
        summed = more[:, 0].reshape(len(views), -1).sum(axis=0)
        logits[again] = (logits[again] + summed) / (1 + len(views))
    return [float(p) for p in nets.sigmoid(logits)]
