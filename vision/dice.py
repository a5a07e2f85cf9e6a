"""Dice and the doubling cube in a BGR frame: where each lies, its value, whether a die is cocked.

Two small trained networks (``vision/models/dice_detector.onnx`` and ``dice_reader.onnx``,
trained by ``vision.training.train_dice`` on rendered tuning frames and the even-numbered real dice
photos), run by ``vision.nets``:

1. The *detector* (``detect``) reads the frame shrunk so that a die is about
   ``DiceConfig.detect_die_px`` pixels wide (``detect_scale``) and gives, on a grid of
   ``STRIDE`` of those pixels, the probability that a die's or the cube's top face is centred in
   each cell (CenterNet-style heatmaps), the centre's offset within the cell and the face's size.
   Local maxima above ``min_peak`` are the candidates.
2. The *reader* (``read_candidates``) reads each candidate from a ``CROP_PX`` square crop of the
   full-resolution frame, ``crop_share`` times the candidate's size wide: not a die or cube, a
   die showing 1..6, or the cube showing 2..64; whether a die is cocked (it leans: its top face
   is not square, side faces show); and the centre's offset within the crop.

A candidate is kept when the reader gives it a die or the cube at ``min_object_probability``;
the likelier of two within ``duplicate_share`` of a side is kept; a value is given only when its
class has ``min_value_probability`` of the object's probability, else None (abstain, never a
guess). Of several cubes only the likeliest is kept.

``detector_input`` and ``crop_inputs`` are the preprocessing the trainer shares, so the two
cannot drift apart.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision import nets
from vision.config import DiceConfig
from vision.labels import CUBE_VALUES

Image = npt.NDArray[np.uint8]
Floats = npt.NDArray[np.float32]

DETECTOR = "dice_detector"
READER = "dice_reader"
# The detector's output grid, in pixels of its (shrunk) input; its input sides are multiples.
STRIDE = 4
# Detector outputs per cell: die and cube heatmap logits, centre offset (x, y, cells), log size.
HEATMAPS = 2
# The reader's crops are this many pixels square; its classes: not a die or cube, die faces
# 1..6, the cube's values (``CUBE_VALUES``).
CROP_PX = 32
DIE_FACES = (1, 2, 3, 4, 5, 6)
CLASSES = 1 + len(DIE_FACES) + len(CUBE_VALUES)


@dataclass(frozen=True)
class FoundDie:
    """A die: value 1..6 (None: unreadable), centre of its top face (frame pixels), side (px)."""

    value: int | None
    center: tuple[float, float]
    side_px: float
    cocked: bool


@dataclass(frozen=True)
class FoundCube:
    """The doubling cube: value 2..64 (None: unreadable), centre of its top face (pixels)."""

    value: int | None
    center: tuple[float, float]
    side_px: float


@dataclass(frozen=True)
class Candidate:
    """A detector peak: centre and size (frame pixels), heatmap probability, die or cube."""

    center: tuple[float, float]
    side_px: float
    score: float
    cube: bool


@dataclass(frozen=True)
class Solids:
    """Everything found: the dice (reading order) and the cube, if any."""

    dice: tuple[FoundDie, ...]
    cube: FoundCube | None


def _check(image_bgr: Image) -> None:
    if image_bgr.ndim != 3 or image_bgr.shape[2] != 3 or image_bgr.dtype != np.uint8:
        raise ValueError(
            f"dice: expected a BGR uint8 frame, got {image_bgr.dtype} {image_bgr.shape}"
        )


def detect_scale(config: DiceConfig) -> float:
    """How much the frame is shrunk for the detector: ``detect_die_px`` over the expected die
    side rounded to a half octave (so the detector's input keeps its shape from frame to frame
    and OpenCV need not re-plan the network), or ``no_board_scale`` when no size is expected."""
    if config.die_side_px is None:
        return config.no_board_scale
    octaves = round(2.0 * math.log2(config.detect_die_px / max(1.0, config.die_side_px))) / 2.0
    return float(min(1.0, 2.0**octaves))


def detector_input(image_bgr: Image, scale: float) -> Floats:
    """The detector's input (1 x 3 x H x W, about -0.5..0.5): the frame shrunk by ``scale``
    (area averaging), its sides rounded to multiples of ``STRIDE`` (at least one cell)."""
    h, w = image_bgr.shape[:2]
    out_w = max(STRIDE, round(w * scale / STRIDE) * STRIDE)
    out_h = max(STRIDE, round(h * scale / STRIDE) * STRIDE)
    small = cv2.resize(image_bgr, (out_w, out_h), interpolation=cv2.INTER_AREA)
    return np.ascontiguousarray(small.transpose(2, 0, 1)[None], np.float32) / 255.0 - 0.5


def peaks(outputs: Floats, scale_xy: tuple[float, float], config: DiceConfig) -> list[Candidate]:
    """Candidates from the detector's outputs (1 x 5 x GH x GW): cells whose die or cube
    probability is a 3x3 local maximum of at least ``min_peak``, strongest first, at most
    ``max_candidates``; ``scale_xy`` maps detector pixels to frame pixels."""
    out = outputs[0]
    logits = out[:HEATMAPS]
    # Peaks of each heatmap, where it beats the other (a cube is not also a die).
    found: list[Candidate] = []
    for channel in range(HEATMAPS):
        heat = logits[channel]
        dilated = cv2.dilate(heat, np.ones((3, 3), np.uint8))
        threshold = float(np.log(config.min_peak / (1.0 - config.min_peak)))
        ys, xs = np.nonzero((heat >= dilated) & (heat >= threshold) & (heat >= logits[1 - channel]))
        for y, x in zip(ys.tolist(), xs.tolist(), strict=True):
            cx = (x + 0.5 + float(out[2, y, x])) * STRIDE * scale_xy[0]
            cy = (y + 0.5 + float(out[3, y, x])) * STRIDE * scale_xy[1]
            side = float(np.exp(out[4, y, x])) * (scale_xy[0] + scale_xy[1]) / 2
            score = float(1.0 / (1.0 + np.exp(-heat[y, x])))
            found.append(Candidate((cx, cy), side, score, channel == 1))
    found.sort(key=lambda c: -c.score)
    return found[: config.max_candidates]


def detect(image_bgr: Image, config: DiceConfig) -> list[Candidate]:
    """The detector's candidates in a BGR frame (frame pixels)."""
    _check(image_bgr)
    scale = detect_scale(config)
    batch = detector_input(image_bgr, scale)
    (outputs,) = nets.run(DETECTOR, batch)
    h, w = image_bgr.shape[:2]
    return peaks(outputs, (w / batch.shape[3], h / batch.shape[2]), config)


def crop_inputs(
    image_bgr: Image,
    centers: Sequence[tuple[float, float]],
    sides: Sequence[float],
    share: float,
    size: int = CROP_PX,
    angles_deg: Sequence[float] | None = None,
) -> Floats:
    """Square crops (N x 3 x size x size, about -0.5..0.5), each ``share`` times its side wide
    around its centre, turned by its angle (none by default); outside the frame is replicated."""
    crops = np.empty((len(centers), 3, size, size), np.float32)
    for index, ((x, y), side) in enumerate(zip(centers, sides, strict=True)):
        zoom = size / max(1.0, share * side)
        angle = 0.0 if angles_deg is None else angles_deg[index]
        matrix = cv2.getRotationMatrix2D((x, y), angle, zoom)
        matrix[:, 2] += np.array([size / 2 - x, size / 2 - y])
        patch = cv2.warpAffine(
            image_bgr, matrix, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        )
        crops[index] = patch.transpose(2, 0, 1)
    return crops / 255.0 - 0.5


def _softmax(z: Floats) -> Floats:
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return np.asarray(e / e.sum(axis=1, keepdims=True), np.float32)


def read_candidates(
    image_bgr: Image, found: Sequence[Candidate], config: DiceConfig
) -> list[tuple[Candidate, Floats, float, tuple[float, float]]]:
    """Per candidate: the reader's class probabilities (``CLASSES``), its probability of being
    cocked, and its refined centre (frame pixels)."""
    if not found:
        return []
    batch = crop_inputs(
        image_bgr, [c.center for c in found], [c.side_px for c in found], config.crop_share
    )
    classes, extra = nets.run(READER, batch)
    probabilities = _softmax(classes)
    results = []
    for index, candidate in enumerate(found):
        span = config.crop_share * candidate.side_px
        cx = candidate.center[0] + float(extra[index, 1]) * span
        cy = candidate.center[1] + float(extra[index, 2]) * span
        cocked = float(1.0 / (1.0 + np.exp(-extra[index, 0])))
        results.append((candidate, probabilities[index], cocked, (cx, cy)))
    return results


def find_solids(image_bgr: Image, config: DiceConfig) -> Solids:
    """The dice (top to bottom, then left to right) and the cube in a BGR frame."""
    read = read_candidates(image_bgr, detect(image_bgr, config), config)
    faces = slice(1, 1 + len(DIE_FACES))
    cubes = slice(1 + len(DIE_FACES), CLASSES)
    ranked = sorted(read, key=lambda r: -float(1.0 - r[1][0]))
    dice: list[FoundDie] = []
    cube: FoundCube | None = None
    kept: list[tuple[tuple[float, float], float]] = []
    for candidate, p, cocked, center in ranked:
        die_p, cube_p = float(p[faces].sum()), float(p[cubes].sum())
        if max(die_p, cube_p) < config.min_object_probability:
            continue
        side = candidate.side_px
        if any(
            np.hypot(center[0] - c[0], center[1] - c[1]) < config.duplicate_share * max(side, s)
            for c, s in kept
        ):
            continue
        kept.append((center, side))
        is_cube = cube_p > die_p
        group = p[cubes] if is_cube else p[faces]
        best = int(np.argmax(group))
        readable = float(group[best]) >= config.min_value_probability * float(group.sum())
        if is_cube:
            if cube is None:
                value = CUBE_VALUES[best] if readable else None
                cube = FoundCube(value, center, side)
            continue
        dice.append(
            FoundDie(
                DIE_FACES[best] if readable else None,
                center,
                side,
                cocked >= config.min_cocked_probability,
            )
        )
    dice.sort(key=lambda die: (round(die.center[1]), die.center[0]))
    return Solids(tuple(dice), cube)


def find_dice(image_bgr: Image, config: DiceConfig) -> list[FoundDie]:
    """Every die in a BGR frame (``find_solids`` without the cube)."""
    return list(find_solids(image_bgr, config).dice)
