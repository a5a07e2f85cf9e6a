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
board's outline and the camera's principal point (``nadir_of``; ``DiceConfig.nadir``), else
taken at the frame's centre. The principal point is the camera's calibration
(``ReadConfig.principal_point``, the frame's centre unless given): taken at the centre for a
camera whose lens's axis lies elsewhere, the nadir's direction from a die errs by degrees
(``tests/vision_read/test_lean.py``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np
import numpy.typing as npt

from vision import nets
from vision.config import DiceConfig
from vision.crops import crop_inputs

Image = npt.NDArray[np.uint8]

LEAN = "dice_lean"
# The judge's crops are this many pixels square.
LEAN_PX = 48
# A focal length the board's outline gives outside these shares of the frame's width is not
# believed (``nadir_of``), and this one is taken instead. (The renderer's cameras: 0.57..1.3
# of the width, median 0.87, on tuning seeds 650,000..650,199; the shipped judge learnt
# with 1.2.)
FOCAL_SHARES = (0.5, 3.0)
DEFAULT_FOCAL_SHARE = 1.2


def nadir_of(
    corners: Sequence[tuple[float, float]],
    width: int,
    height: int,
    principal: tuple[float, float] = (0.5, 0.5),
) -> tuple[float, float]:
    """The camera's nadir in a ``width`` x ``height`` frame (pixels) from the outline of the
    board (four corners, TL, TR, BR, BL): the vanishing point of vertical lines, the pole of the
    board's vanishing line l = h1 x h2 (h1, h2: the columns of the homography from the unit
    square, the camera's principal point moved to the origin) for the focal length f the
    outline's right angle gives (f^2 = -(h1x h2x + h1y h2y) / (h1z h2z)): (f^2 l_x / l_z,
    f^2 l_y / l_z). The principal point is ``principal``, in shares of the frame's width and
    height (``ReadConfig.principal_point``). Where f lies outside ``FOCAL_SHARES`` of the width (a
    camera straight above the board leaves it undetermined), ``DEFAULT_FOCAL_SHARE``."""
    square = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    outline = np.array(corners, np.float32)
    homography = np.asarray(cv2.getPerspectiveTransform(square, outline), np.float64)
    centre = np.array([principal[0] * width, principal[1] * height])
    moved = np.array([[1.0, 0.0, -centre[0]], [0.0, 1.0, -centre[1]], [0.0, 0.0, 1.0]]) @ homography
    h1, h2 = moved[:, 0], moved[:, 1]
    denominator = h1[2] * h2[2]
    focal2 = -(h1[0] * h2[0] + h1[1] * h2[1]) / denominator if abs(denominator) > 1e-12 else -1.0
    low, high = ((share * width) ** 2 for share in FOCAL_SHARES)
    if not low <= focal2 <= high:
        focal2 = (DEFAULT_FOCAL_SHARE * width) ** 2
    line = np.cross(h1, h2)
    if abs(line[2]) < 1e-12:
        return (float(centre[0]), float(centre[1]))
    return (
        float(focal2 * line[0] / line[2] + centre[0]),
        float(focal2 * line[1] / line[2] + centre[1]),
    )


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
