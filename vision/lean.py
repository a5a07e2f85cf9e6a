"""Whether a die is cocked: it leans on a checker or the board's edge instead of lying flat.

A roll counts only when both dice come to rest flat (MSO 4.2, JBL 4.1.4), and no double may
follow cocked dice (MSO 5.4; BIBA 5.4 deems them "rolling"). A small trained network
(``vision/models/dice_lean.onnx``, trained by ``vision.training.train_lean`` on rendered frames
with many leaning dice) reads each found die from a ``LEAN_PX`` square crop
``DiceConfig.lean_share`` times its side wide, at about the frame's own resolution (a die is
15 to 31 pixels wide in a 1280 x 720 frame), and gives the probability that it leans; a die
it is unsure of is read again from crops ``DiceConfig.lean_extra_shares`` times its side wide.

The cue is the side faces: a flat die seen off the camera's axis shows them too, but only on
its side away from the camera's nadir (the point straight below the camera, where vertical
lines meet in the frame), while a leaning die shows them wherever it leans. So each crop is
turned so that the nadir lies straight up in it (``nadir_angle``), read so and, where
``lean_mirrored``, mirrored left to right (the logits averaged). The nadir is found from the
board's outline and the camera's principal point (``vision.camera_pose.nadir_of``;
``DiceConfig.nadir``), else taken at the frame's centre. The principal point is the camera's
calibration (``ReadConfig.principal_point``; the frame's centre where it is None, not
calibrated): taken at the centre for a camera whose lens's axis lies elsewhere, the nadir's
direction from a die errs by degrees (``tests/vision_read/test_lean.py``).
"""

from __future__ import annotations

import math
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


def nadir_angle(center: tuple[float, float], nadir: tuple[float, float]) -> float:
    """The angle (degrees, ``vision.crops.crop_inputs``'s sense) that turns a crop around
    ``center`` so that ``nadir`` lies straight up in it."""
    return 90.0 - math.degrees(math.atan2(center[1] - nadir[1], nadir[0] - center[0]))


def nadir_in(config: DiceConfig, width: int, height: int) -> tuple[float, float]:
    """The nadir ``config`` holds, else the centre of a ``width`` x ``height`` frame."""
    return config.nadir if config.nadir is not None else (width / 2.0, height / 2.0)


def _mean_logits(
    image_bgr: Image,
    centers: Sequence[tuple[float, float]],
    sides: Sequence[float],
    angles: Sequence[float],
    shares: Sequence[float],
    config: DiceConfig,
) -> npt.NDArray[np.float64]:
    """Per die, the judge's logit averaged over its crops ``shares`` times its side wide,
    turned by ``angles`` (degrees), and their mirror images where ``lean_mirrored``."""
    views = []
    for share in shares:
        batch = crop_inputs(image_bgr, centers, sides, share, LEAN_PX, angles)
        views.append(batch)
        if config.lean_mirrored:
            views.append(np.ascontiguousarray(batch[:, :, :, ::-1]))
    (read,) = nets.run(LEAN, np.concatenate(views))
    logits: npt.NDArray[np.float64] = np.asarray(read[:, 0], np.float64).reshape(len(views), -1)
    return np.asarray(logits.mean(axis=0), np.float64)


def lean_probabilities(
    image_bgr: Image,
    centers: Sequence[tuple[float, float]],
    sides: Sequence[float],
    config: DiceConfig,
) -> list[float]:
    """The probability that each die (centre and side in frame pixels) is cocked: its crop
    ``lean_share`` times its side wide, turned so the nadir (``config.nadir``, else the
    frame's centre) lies up, read so and, where ``lean_mirrored``, mirrored (the logits
    averaged); a die that reading leaves less than ``lean_sure_probability`` sure either way
    is read again at each of ``lean_extra_shares``, and its logits averaged over all."""
    if not centers:
        return []
    height, width = image_bgr.shape[:2]
    nadir = nadir_in(config, width, height)
    angles = [nadir_angle(c, nadir) for c in centers]
    logits = _mean_logits(image_bgr, centers, sides, angles, [config.lean_share], config)
    sure = nets.logit(config.lean_sure_probability)
    unsure = [i for i, logit in enumerate(logits) if abs(logit) < sure]
    if unsure and config.lean_extra_shares:
        extra = _mean_logits(
            image_bgr,
            [centers[i] for i in unsure],
            [sides[i] for i in unsure],
            [angles[i] for i in unsure],
            config.lean_extra_shares,
            config,
        )
        shares = 1 + len(config.lean_extra_shares)
        logits[unsure] = (logits[unsure] + extra * (shares - 1)) / shares
    return [float(p) for p in nets.sigmoid(logits)]
