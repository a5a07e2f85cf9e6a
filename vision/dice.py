"""Dice and the doubling cube in a BGR frame: where each lies, its value, whether a die is cocked.

Small trained networks (``vision/models/dice_detector.onnx``, ``dice_screen.onnx``,
``dice_reader.onnx`` and ``dice_reader_motion.onnx``, trained by ``vision.training.train_dice``
on rendered tuning frames and the even-numbered real dice photos), run by ``vision.nets``:

1. The *detector* (``detect``) reads the frame shrunk so that a die is about
   ``DiceConfig.detect_die_px`` pixels wide (``detect_scale``) and gives, on a grid of
   ``STRIDE`` of those pixels, the probability that a die's or the cube's top face is centred in
   each cell (CenterNet-style heatmaps), the centre's offset within the cell and the face's size.
   Cells above ``min_peak`` whose decoded centres lie apart are the candidates (``peaks``).
   Around each, the detector looks again finer (``finer_peaks``), where two dice lying against
   each other fall in cells apart.
2. The *screen* and the *reader* (``read_crops``) read a candidate from a ``CROP_PX`` square
   crop of the full-resolution frame, ``crop_share`` (the screen) or ``reader_share`` (the
   reader) times the candidate's size wide: not a die or cube, a die showing 1..6, or the
   cube showing 2..64; and where the object's centre lies in the crop (the networks' third
   output, whether a die leans, learnt beside the values, is not used: a judge of its own,
   ``vision.lean``, decides on the dice found; nor are the cube's values, beyond telling the
   cube from a die: ``vision.cube`` reads the cube found).
   The small screen reads every candidate; those it finds at least ``screen_probability``
   likely objects (a few a frame) are read by the reader, about five times its size,
   centred where the screen placed them, once, and where it is not ``reader_sure`` of what
   it reads, ``reader_turns`` times turned by quarter turns (the readings averaged). A die
   whose value the reader is unsure of is read again at other scales (``reread_scales``) and
   by a second reader of the same size trained on motion-blurred crops too
   (``dice_reader_motion.onnx``), whose say on its faces weighs ``motion_reader_weight``
   times the reader's.

A candidate is kept when the reader gives it a die or the cube at
``min_object_probability``; the likelier of two within ``duplicate_share`` of a side is kept; a
die's value is given only when its class has ``min_value_probability`` of the die's
probability, else None (abstain, never a guess); each die found is read once more at its
centre on a crop of the die's expected side, where a die read without a value may take one,
and a die read otherwise there is withheld (``values_checked``). Of several places read as
the cube, those within ``cube_face_share`` of a side of the likeliest are its faces, and the
one farthest from the camera's nadir is its top (``top_face_of``); any other place read as
the cube is a die where the reader gives it ``other_cube_die_probability`` of being one (there
is one cube a game), else dropped. A die that may lean is read again beyond it, away from
the nadir, where its top face lies when the reader has read the side face it tips towards the
nadir (``top_faces_read``).

Dice lying against each other: their centres fall in neighbouring detector cells, so a peak
outshone by a neighbour is a candidate too (kept only when read as a die with a value), and so
is a weak peak or a peak of the finer look (kept only when its value is read surely:
``_kept``; the finer look's only clear of every die found otherwise, but a large one read as
a die gives way to two of them a side apart within it: ``_split_finer``); where
the detector sees the two as one large unreadable die, ``split_pair`` tries it as two; and a
die within ``pair_share`` of a side of another needs ``pair_cocked_probability`` to be cocked
(a neighbour's side faces in the judge's crop look like a lean).

``detector_input`` and ``vision.crops.crop_inputs`` are the preprocessing the trainer shares, so
the two cannot drift apart.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np
import numpy.typing as npt

from vision import nets
from vision.config import DiceConfig
from vision.crops import crop_inputs
from vision.cube import cube_value
from vision.labels import CUBE_VALUES
from vision.lean import lean_probabilities, nadir_in
from vision.shrink import shrink_to

Image = npt.NDArray[np.uint8]
Floats = npt.NDArray[np.float32]

DETECTOR = "dice_detector"
SCREEN = "dice_screen"
READER = "dice_reader"
# The reader trained on motion-blurred crops too: a second opinion on the dice the reader is
# unsure of (``_reread_unsure``).
MOTION_READER = "dice_reader_motion"
# The detector's output grid, in pixels of its (shrunk) input; its input sides are multiples.
STRIDE = 4
# Detector outputs per cell: die and cube heatmap logits, centre offset (x, y, cells), log size.
HEATMAPS = 2
# The reader's crops are this many pixels square; its classes: not a die or cube, die faces
# 1..6, the cube's values (``CUBE_VALUES``).
CROP_PX = 32
DIE_FACES = (1, 2, 3, 4, 5, 6)
CLASSES = 1 + len(DIE_FACES) + len(CUBE_VALUES)
# The die's faces among a reader's classes (nothing first, the cube's values last).
FACES = slice(1, 1 + len(DIE_FACES))


@dataclass(frozen=True)
class FoundDie:
    """A die: value 1..6 (None: unreadable), centre of its top face (frame pixels), side (px),
    cocked; the reader's share of the die's probability for its likeliest face and its
    probability that the die is cocked (for choosing thresholds)."""

    value: int | None
    center: tuple[float, float]
    side_px: float
    cocked: bool
    face_share: float = 1.0
    cocked_probability: float = 0.0
    finer: bool = False  # found by the detector's finer look (``finer_peaks``)
    beside: bool = False  # kept only as lying against another die (``beside_dice``)


@dataclass(frozen=True)
class FoundCube:
    """The doubling cube: value 2..64 (None: unreadable), centre of its top face (pixels)."""

    value: int | None
    center: tuple[float, float]
    side_px: float


@dataclass(frozen=True)
class Candidate:
    """A detector peak: centre and size (frame pixels), heatmap probability, die or cube;
    ``beside`` when a stronger cell next to it outshines it (a second die lying against a
    first, or a side face of a leaning die: kept only if read as a die with a value); one
    below ``min_peak`` (at least ``weak_peak``) or found by the finer look (``finer``:
    ``finer_peaks``) is kept only if read as a die with a value at ``weak_value_probability``
    (``_kept``)."""

    center: tuple[float, float]
    side_px: float
    score: float
    cube: bool
    beside: bool = False
    finer: bool = False


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
    and the runtime reuses its plan of the network), or ``no_board_scale`` when no size is
    expected."""
    if config.die_side_px is None:
        return config.no_board_scale
    octaves = round(2.0 * math.log2(config.detect_die_px / max(1.0, config.die_side_px))) / 2.0
    return float(min(1.0, 2.0**octaves))


def detector_input(image_bgr: Image, scale: float) -> Floats:
    """The detector's input (1 x 3 x H x W, about -0.5..0.5): the frame shrunk by ``scale``
    (area averaging, ``vision.shrink``), its sides rounded to multiples of ``STRIDE`` (at least
    one cell; a frame smaller than that is stretched)."""
    h, w = image_bgr.shape[:2]
    out_w = max(STRIDE, round(w * scale / STRIDE) * STRIDE)
    out_h = max(STRIDE, round(h * scale / STRIDE) * STRIDE)
    small = shrink_to(image_bgr, (min(w, out_w), min(h, out_h)))
    if small.shape[:2] != (out_h, out_w):
        small = np.asarray(cv2.resize(small, (out_w, out_h), interpolation=cv2.INTER_LINEAR))
    return np.ascontiguousarray(small.transpose(2, 0, 1)[None], np.float32) / 255.0 - 0.5


def peaks(outputs: Floats, scale_xy: tuple[float, float], config: DiceConfig) -> list[Candidate]:
    """Candidates from the detector's outputs (1 x 5 x GH x GW), strongest first, at most
    ``max_candidates``; ``scale_xy`` maps detector pixels to frame pixels.

    Every cell whose die or cube probability is at least ``weak_peak`` (and beats the other
    heatmap: a cube is not also a die) gives a centre (its offset) and a size. A cell is kept
    unless a stronger kept one decodes to a centre within ``peak_spacing_share`` of their
    sides. Suppressing by decoded centres rather than by a window of cells keeps two dice
    lying against each other: at the detector's scale their centres fall in adjacent cells.
    A cell outshone by a neighbour (not a 3x3 maximum) is marked ``beside``."""
    out = outputs[0]
    logits = out[:HEATMAPS]
    lowest = min(config.min_peak, config.weak_peak)
    threshold = nets.logit(lowest)
    cells = []  # per heatmap: x, y, side (frame pixels), probability, outshone
    for channel in range(HEATMAPS):
        heat = logits[channel]
        outshone = heat < cv2.dilate(heat, np.ones((3, 3), np.uint8))
        ys, xs = np.nonzero((heat >= threshold) & (heat >= logits[1 - channel]))
        cells.append(
            (
                (xs + 0.5 + out[2, ys, xs].astype(np.float64)) * STRIDE * scale_xy[0],
                (ys + 0.5 + out[3, ys, xs].astype(np.float64)) * STRIDE * scale_xy[1],
                np.exp(out[4, ys, xs]).astype(np.float64) * (scale_xy[0] + scale_xy[1]) / 2,
                nets.sigmoid(heat[ys, xs]),
                outshone[ys, xs],
            )
        )
    x, y, side, score, beside = (
        np.concatenate(parts).tolist() for parts in zip(*cells, strict=True)
    )
    dice_cells = len(cells[0][0])
    kept: list[Candidate] = []
    for i in sorted(range(len(score)), key=lambda i: -score[i]):
        center = (x[i], y[i])
        if all(
            math.dist(center, k.center) >= config.peak_spacing_share * max(side[i], k.side_px)
            for k in kept
        ):
            kept.append(Candidate(center, side[i], score[i], i >= dice_cells, beside[i]))
            if len(kept) == config.max_candidates:
                break
    return kept


def detect(image_bgr: Image, config: DiceConfig) -> list[Candidate]:
    """The detector's candidates in a BGR frame (frame pixels)."""
    _check(image_bgr)
    scale = detect_scale(config)
    batch = detector_input(image_bgr, scale)
    (outputs,) = nets.run(DETECTOR, batch)
    h, w = image_bgr.shape[:2]
    return peaks(outputs, (w / batch.shape[3], h / batch.shape[2]), config)


def finer_peaks(
    image_bgr: Image, coarse: Sequence[Candidate], config: DiceConfig
) -> list[Candidate]:
    """Candidates the detector finds looking finer around the ``coarse`` ones (``detect``).

    At ``detect_die_px`` the centres of two dice lying against each other fall about a cell
    apart and often make one peak. Around each coarse peak at least ``min_peak`` likely, a
    window of the frame is shrunk so that a die is about ``fine_detect_die_px`` wide
    (``detect_scale``), ``fine_window`` pixels square, and read again (all windows in one
    batch: a few a frame, far fewer pixels than the whole frame). A finer peak at least
    ``min_peak`` likely, a die's, at least ``fine_apart_share`` of the expected side from
    every coarse candidate and every finer one kept before it, is a candidate (``finer``).
    None without an expected side or ``fine_detect_die_px``."""
    expected = config.die_side_px
    anchors = [k for k in coarse if k.score >= config.min_peak]
    if config.fine_detect_die_px is None or expected is None or not anchors:
        return []
    scale = detect_scale(replace(config, detect_die_px=config.fine_detect_die_px))
    span = max(config.fine_window, round(config.fine_window / scale))  # frame pixels
    origins = sorted(
        {(round(k.center[0] - span / 2), round(k.center[1] - span / 2)) for k in anchors}
    )
    windows = [  # the frame's pixels (x..x + span, y..y + span), its edge repeated beyond
        np.asarray(
            cv2.getRectSubPix(image_bgr, (span, span), (x + (span - 1) / 2, y + (span - 1) / 2)),
            np.uint8,
        )
        for x, y in origins
    ]
    batch = np.concatenate([detector_input(w, config.fine_window / span) for w in windows])
    (outputs,) = nets.run(DETECTOR, batch)
    per_pixel = span / batch.shape[3]
    found: list[Candidate] = []
    for index, (x, y) in enumerate(origins):
        for c in peaks(outputs[index : index + 1], (per_pixel, per_pixel), config):
            center = (c.center[0] + x, c.center[1] + y)
            if (
                c.score >= config.min_peak
                and not c.cube
                and all(
                    math.dist(center, k.center) >= config.fine_apart_share * expected
                    for k in [*coarse, *found]
                )
            ):
                found.append(replace(c, center=center, finer=True))
    return found


@dataclass(frozen=True)
class Read:
    """The reader's verdict on one crop: class probabilities (``CLASSES``) and the object's
    centre (frame pixels, refined from the crop's)."""

    probabilities: Floats
    center: tuple[float, float]

    @property
    def die(self) -> float:
        return float(self.probabilities[FACES].sum())

    @property
    def cube(self) -> float:
        return float(self.probabilities[FACES.stop :].sum())


def read_batch(batch: Floats, net: str, turns: int, first: int = 0) -> tuple[Floats, Floats]:
    """The network ``net`` on a batch of crops (``crop_inputs``), each read turned by
    ``first`` .. ``turns - 1`` quarter turns (``turns`` 1..4): the class probabilities averaged
    (n x ``CLASSES``), and the lean logit and centre offset (n x 3, offsets in crop spans)
    averaged with the offsets turned back."""
    quarters = range(first, turns)
    turned = np.concatenate([np.rot90(batch, k, axes=(2, 3)) for k in quarters])
    classes, extra = nets.run(net, np.ascontiguousarray(turned))
    count = len(batch)
    probabilities = nets.softmax(classes).reshape(len(quarters), count, -1).mean(axis=0)
    outputs = extra.reshape(len(quarters), count, 3)
    for row, k in enumerate(quarters):
        # np.rot90 turned the crops by k quarters counter-clockwise: an (x, y) in them is the
        # crop's (y, -x) turned k times; turn the offsets back.
        for _ in range(k):
            outputs[row, :, 1:] = np.stack([-outputs[row, :, 2], outputs[row, :, 1]], axis=1)
    return np.asarray(probabilities, np.float32), np.asarray(outputs.mean(axis=0), np.float32)


def share_of(net: str, config: DiceConfig) -> float:
    """How many times a candidate's side the crop ``net`` reads is wide: ``reader_share`` for
    the readers, ``crop_share`` for the screen."""
    return config.reader_share if net in (READER, MOTION_READER) else config.crop_share


def _reads(
    probabilities: Floats,
    extra: Floats,
    centers: Sequence[tuple[float, float]],
    sides: Sequence[float],
    share: float,
) -> list[Read]:
    """``read_batch``'s outputs as readings, each crop's centre moved by its offset."""
    reads = []
    for index, ((x, y), side) in enumerate(zip(centers, sides, strict=True)):
        span = share * side
        center = (x + float(extra[index, 1]) * span, y + float(extra[index, 2]) * span)
        reads.append(Read(probabilities[index], center))
    return reads


def read_crops(
    image_bgr: Image,
    centers: Sequence[tuple[float, float]],
    sides: Sequence[float],
    config: DiceConfig,
    net: str = READER,
    turns: int = 1,
) -> list[Read]:
    """The network ``net`` (``SCREEN`` or ``READER``) on crops ``share_of(net, config)`` times
    each side wide around each centre, each read ``turns`` times (1..4), turned by a quarter
    more each time, and the readings averaged (probabilities, the centre turned back)."""
    if not centers:
        return []
    share = share_of(net, config)
    batch = crop_inputs(image_bgr, centers, sides, share, CROP_PX)
    probabilities, extra = read_batch(batch, net, turns)
    return _reads(probabilities, extra, centers, sides, share)


def _read_turned_if_unsure(
    image_bgr: Image,
    centers: Sequence[tuple[float, float]],
    sides: Sequence[float],
    config: DiceConfig,
) -> list[Read]:
    """The reader on each crop as ``read_crops`` with ``reader_turns`` turns, but a crop whose
    likeliest class the reader gives at least ``reader_sure`` unturned is read only so."""
    if not centers:
        return []
    batch = crop_inputs(image_bgr, centers, sides, config.reader_share, CROP_PX)
    probabilities, extra = read_batch(batch, READER, 1)
    unsure = np.flatnonzero(probabilities.max(axis=1) < config.reader_sure)
    if len(unsure) and config.reader_turns > 1:
        turned, turned_extra = read_batch(batch[unsure], READER, config.reader_turns, first=1)
        kept = 1.0 / config.reader_turns  # the unturned reading's share of the average
        probabilities[unsure] = kept * probabilities[unsure] + (1.0 - kept) * turned
        extra[unsure] = kept * extra[unsure] + (1.0 - kept) * turned_extra
    return _reads(probabilities, extra, centers, sides, config.reader_share)


def read_closely(
    image_bgr: Image,
    centers: Sequence[tuple[float, float]],
    sides: Sequence[float],
    config: DiceConfig,
) -> list[Read]:
    """The reader on each crop, turned where it is unsure (``_read_turned_if_unsure``), and a
    die whose value it is unsure of read again (``_reread_unsure``)."""
    reads = _read_turned_if_unsure(image_bgr, centers, sides, config)
    return _reread_unsure(image_bgr, reads, sides, config)


def _faces(read: Read) -> Floats:
    """The reader's probabilities of the die's faces (``DIE_FACES``)."""
    return read.probabilities[FACES]


def _likeliest_face(read: Read) -> int:
    """The die's face the reader finds likeliest (``DIE_FACES``)."""
    return DIE_FACES[int(np.argmax(_faces(read)))]


def _face_share(read: Read) -> float:
    """The share of the die's probability its likeliest face has."""
    faces = _faces(read)
    return float(faces.max()) / max(1e-9, float(faces.sum()))


def _readable_die(read: Read, config: DiceConfig, value_probability: float | None = None) -> bool:
    """A die (not the cube, at least ``min_object_probability``) whose likeliest face has
    ``value_probability`` (default ``min_value_probability``) of its probability."""
    least = config.min_value_probability if value_probability is None else value_probability
    return read.die >= max(read.cube, config.min_object_probability) and _face_share(read) >= least


def _weak(candidate: Candidate, config: DiceConfig) -> bool:
    """A peak below ``min_peak``, or one the finer look found: screened at
    ``weak_screen_probability``, kept only as a die whose value is read surely."""
    return candidate.finer or candidate.score < config.min_peak


def _kept(candidate: Candidate, read: Read, config: DiceConfig) -> bool:
    """Whether a candidate's reading stands: a weak peak (below ``min_peak``) only as a die
    whose value is ``weak_value_probability`` sure, a peak outshone by its neighbour
    (``Candidate.beside``) only as a die with a value, a faint die without a value
    (``_faint_unread``) not at all, any other peak as read."""
    if _weak(candidate, config):
        return _readable_die(read, config, config.weak_value_probability)
    if candidate.beside:
        return _readable_die(read, config)
    return not _faint_unread(candidate, read, config)


def _faint_unread(candidate: Candidate, read: Read, config: DiceConfig) -> bool:
    """A die read without a value from a peak below ``unread_peak`` that the reader gives
    less than ``unread_die_probability`` of being a die: most such are the gap between four
    checkers, not a die."""
    return (
        candidate.score < config.unread_peak
        and read.cube < read.die < config.unread_die_probability
        and _face_share(read) < config.min_value_probability
    )


def _reread_unsure(
    image_bgr: Image, reads: list[Read], sides: Sequence[float], config: DiceConfig
) -> list[Read]:
    """``reads`` with each die whose value the reader is unsure of read again on crops of its
    side times each of ``reread_scales`` (the probabilities averaged), and its faces shared
    out with ``MOTION_READER``'s, weighing ``motion_reader_weight`` times as much."""
    unsure = [
        i
        for i, read in enumerate(reads)
        if read.die >= read.cube and _face_share(read) < config.min_value_probability
    ]
    if not unsure or not (config.reread_scales or config.motion_reader_weight):
        return reads
    centers = [reads[i].center for i in unsure]
    totals = [reads[i].probabilities for i in unsure]
    for scale in config.reread_scales:
        again = read_crops(
            image_bgr,
            centers,
            [sides[i] * scale for i in unsure],
            config,
            READER,
            config.reader_turns,
        )
        totals = [total + read.probabilities for total, read in zip(totals, again, strict=True)]
    readings = 1 + len(config.reread_scales)
    averaged = [np.asarray(total / readings, np.float32) for total in totals]
    if config.motion_reader_weight:
        motion = read_crops(
            image_bgr,
            centers,
            [sides[i] for i in unsure],
            config,
            MOTION_READER,
            config.reader_turns,
        )
        averaged = [
            _faces_weighed(mine, other.probabilities, config.motion_reader_weight)
            for mine, other in zip(averaged, motion, strict=True)
        ]
    reread = list(reads)
    for i, probabilities in zip(unsure, averaged, strict=True):
        reread[i] = Read(probabilities, reads[i].center)
    return reread


def _faces_weighed(mine: Floats, other: Floats, weight: float) -> Floats:
    """``mine`` with its die's faces shared as the faces of ``mine`` and, weighing ``weight``
    times as much, of ``other`` say (each as shares of its die); its die, cube and nothing
    kept: the second opinion is on the value only."""
    mine_faces, other_faces = mine[FACES], other[FACES]
    shares = mine_faces / max(1e-9, float(mine_faces.sum()))
    shares = shares + weight * other_faces / max(1e-9, float(other_faces.sum()))
    weighed = mine.copy()
    weighed[FACES] = shares / (1.0 + weight) * float(mine_faces.sum())
    return weighed


def split_pair(
    image_bgr: Image, side: float, read: Read, config: DiceConfig
) -> list[tuple[float, Read]] | None:
    """Two dice lying against each other, where the detector saw one large die it cannot read.

    At the detector's scale two touching dice make one blob; its candidate is ``split_share``
    or more times the expected side and reads as a die with no value. Pairs of centres
    ``split_offset_share`` of the expected side either way of its centre are tried along
    ``split_angles`` directions; the screen picks the direction whose two halves read likeliest
    as dice, and the reader reads those two. The pair replaces the candidate only when both are
    readable dice at least ``duplicate_share`` of a side apart; otherwise None (the candidate
    stays, unreadable: never a guessed value)."""
    expected = config.die_side_px
    if (
        expected is None
        or side < config.split_share * expected
        or read.die < max(read.cube, config.min_object_probability)
        or _face_share(read) >= config.min_value_probability
    ):
        return None
    reach = config.split_offset_share * expected
    angles = [math.radians(a) for a in config.split_angles]
    centers = [
        (read.center[0] + sign * reach * math.cos(a), read.center[1] + sign * reach * math.sin(a))
        for a in angles
        for sign in (-1.0, 1.0)
    ]
    screens = read_crops(image_bgr, centers, [expected] * len(centers), config, SCREEN)
    pairs = [screens[2 * i : 2 * i + 2] for i in range(len(angles))]
    best = max(pairs, key=lambda pair: min(r.die * _face_share(r) for r in pair))
    halves = read_crops(
        image_bgr, [r.center for r in best], [expected] * 2, config, READER, config.reader_turns
    )
    if (
        not all(_readable_die(r, config) for r in halves)
        or math.dist(halves[0].center, halves[1].center) < config.duplicate_share * expected
    ):
        return None
    return [(expected, r) for r in halves]


def partner(
    image_bgr: Image, candidate: Candidate, read: Read, config: DiceConfig
) -> tuple[float, Read] | None:
    """The die lying against a die the detector saw as one with it.

    Two dice side by side can make one peak between them, larger than a die: the reader,
    centred by the screen, reads one of them and moves its centre off the candidate's. Where a
    readable die's candidate is at least ``partner_size_share`` times the expected side and
    its centre lay at least ``partner_offset_share`` of a side off the die's, a die is looked
    for beyond the candidate's centre, ``partner_reach`` sides from the die's (the screen
    picks the likelier place, the reader reads it). It is found only where it reads as a die
    with a value, ``duplicate_share`` of a side or more from the first; otherwise None."""
    expected = config.die_side_px
    if expected is None or candidate.side_px < config.partner_size_share * expected:
        return None
    dx, dy = candidate.center[0] - read.center[0], candidate.center[1] - read.center[1]
    offset = math.hypot(dx, dy)
    if offset < config.partner_offset_share * expected or not _readable_die(read, config):
        return None
    centers = [
        (
            read.center[0] + reach * expected * dx / offset,
            read.center[1] + reach * expected * dy / offset,
        )
        for reach in config.partner_reach
    ]
    screens = read_crops(image_bgr, centers, [expected] * len(centers), config, SCREEN)
    likeliest = max(screens, key=lambda r: r.die * _face_share(r))
    (found,) = read_crops(
        image_bgr, [likeliest.center], [expected], config, READER, config.reader_turns
    )
    if (
        not _readable_die(found, config)
        or math.dist(found.center, read.center) < config.duplicate_share * expected
    ):
        return None
    return expected, found


def clear_of_cube(
    dice: list[FoundDie], cube: FoundCube | None, config: DiceConfig
) -> list[FoundDie]:
    """The dice not found on the cube: a die lying flat cannot come nearer the cube than
    their two half sides, so one found nearer (``cube_gap_share`` of that) is the cube's side
    face or edge."""
    if cube is None:
        return dice
    return [
        die
        for die in dice
        if math.dist(die.center, cube.center)
        >= config.cube_gap_share * (die.side_px + cube.side_px) / 2
    ]


def _same_cube(place: FoundCube, likeliest: FoundCube, config: DiceConfig) -> bool:
    """Whether a place read as the cube lies within ``cube_face_share`` of a side of the
    likeliest: a face of the same cube."""
    return math.dist(place.center, likeliest.center) < config.cube_face_share * max(
        place.side_px, likeliest.side_px
    )


def top_face_of(
    cubes: list[FoundCube], faces: list[FoundCube], config: DiceConfig, width: int, height: int
) -> FoundCube | None:
    """The cube among the places read as the cube (``cubes``, likeliest first; ``faces``: the
    weak or outshone peaks read as the cube too), none when ``cubes`` is empty.

    Seen off the camera's axis, the cube shows a side face too, with a value of its own, and
    the detector can peak there more surely than on the top: a place read as the cube within
    ``cube_face_share`` of a side of the likeliest is the same cube (``_same_cube``), and of
    those the top face is the one farthest from the camera's nadir (``vision.lean.nadir_in``):
    a cube lying flat shows only the sides that face the nadir, and its top lies beyond them."""
    if not cubes:
        return None
    likeliest = cubes[0]
    nadir = nadir_in(config, width, height)
    same = [c for c in [*cubes, *faces] if _same_cube(c, likeliest, config)]
    return max(same, key=lambda c: math.dist(c.center, nadir))


def cube_or_die(
    dice: list[FoundDie], cube_likeness: Sequence[float], config: DiceConfig
) -> tuple[list[FoundDie], FoundCube | None]:
    """Where no cube was found on a board (``die_side_px`` known: a match, with its cube, is on
    the table): of the dice the reader finds at least ``cube_home_probability`` likely to be
    the cube where they lie at the cube's home on the bar (``_at_cube_home``), or elsewhere
    ``cube_fallback_probability`` likely and found at least ``cube_fallback_side_share`` of
    the expected side (the cube is larger than a die), the likeliest is the cube (read as a
    die it would be a phantom die); the other dice as they are. Without a board (dice alone)
    nothing changes."""
    if not dice or config.die_side_px is None:
        return dice, None
    cubes = [
        i
        for i, (die, likeness) in enumerate(zip(dice, cube_likeness, strict=True))
        if _may_be_cube(die, likeness, config.die_side_px, config)
    ]
    if not cubes:
        return dice, None
    likeliest = max(cubes, key=lambda i: cube_likeness[i])
    taken = dice[likeliest]
    return [d for i, d in enumerate(dice) if i != likeliest], FoundCube(
        None, taken.center, taken.side_px
    )


def _may_be_cube(die: FoundDie, likeness: float, expected: float, config: DiceConfig) -> bool:
    """Whether a die the reader gives ``likeness`` of being the cube may be the cube where
    none was found (``cube_or_die``; ``expected``: the expected side, pixels)."""
    if _at_cube_home(die, config):
        return likeness >= config.cube_home_probability
    return (
        likeness >= config.cube_fallback_probability
        and die.side_px >= config.cube_fallback_side_share * expected
    )


def _at_cube_home(die: FoundDie, config: DiceConfig) -> bool:
    """Whether ``die`` lies within ``cube_home_sides`` expected sides of the middle of the
    bar, where a centred cube lies."""
    home, side = config.cube_home, config.die_side_px
    return (
        home is not None
        and side is not None
        and math.dist(die.center, home) <= config.cube_home_sides * side
    )


def _blob(side: float, config: DiceConfig) -> bool:
    """Whether a candidate is ``split_share`` of the expected side or larger: maybe two dice
    lying against each other seen as one."""
    return config.die_side_px is not None and side >= config.split_share * config.die_side_px


def _split_finer(read_sides: Sequence[tuple[float, Read, bool]], config: DiceConfig) -> set[int]:
    """The large candidates (``_blob``) read as a die, with or without a value, that hold two
    of the finer look's dice (within the candidate's side of where the reader placed it) lying
    ``side_face_share`` of the expected side or more apart: two flat dice lying against each
    other, which the reader read as one (a leaning die's top and side faces lie nearer)."""
    expected = config.die_side_px
    if expected is None:
        return set()
    finer = [read.center for _, read, fine in read_sides if fine]
    split = set()
    for i, (side, read, fine) in enumerate(read_sides):
        if fine or not _blob(side, config) or read.die <= read.cube:
            continue
        inside = [c for c in finer if math.dist(c, read.center) < side]
        if any(
            math.dist(a, b) >= config.side_face_share * expected
            for k, a in enumerate(inside)
            for b in inside[k + 1 :]
        ):
            split.add(i)
    return split


def _rank(side: float, read: Read, finer: bool, split: bool, config: DiceConfig) -> int:
    """Which readings are kept first where two lie within ``duplicate_share`` of a side (the
    likelier first within each rank): the cube and the dice (0), then the finer look's dice
    (1: each kept only clear of those), then a candidate ``split_share`` of the expected side
    or larger read as a die without a value, or holding two of the finer look's dice apart
    (``split``; 2: two dice lying against each other seen as one, which the finer look may
    have found apart)."""
    if finer:
        return 1
    unread = read.die > read.cube and _face_share(read) < config.min_value_probability
    return 2 if split or (_blob(side, config) and unread) else 0


def locate_solids(image_bgr: Image, config: DiceConfig) -> Solids:
    """The dice (top to bottom, then left to right, none yet judged cocked) and the cube (its
    value not yet read) in a BGR frame.

    The screen reads every candidate; the reader reads, centred where the screen placed the
    object, those the screen gave at least ``screen_probability`` of being a die or the cube
    (a weak peak: ``weak_screen_probability``), and decides. A peak at least
    ``unscreened_peak`` likely that the screen does not pass is read too, and kept (after
    the others, clear of them) only as a die the reader gives ``unscreened_die_probability``
    and whose value it gives ``unscreened_value_probability``: the screen misses a few dark
    or blurred dice."""
    found = detect(image_bgr, config)
    found += finer_peaks(image_bgr, found, config)
    centers, sides = [c.center for c in found], [c.side_px for c in found]
    first = read_crops(image_bgr, centers, sides, config, SCREEN)
    screened, unscreened = [], []
    for candidate, read in zip(found, first, strict=True):
        least = (
            config.weak_screen_probability
            if _weak(candidate, config)
            else config.screen_probability
        )
        if max(read.die, read.cube) >= least:
            screened.append((candidate, read))
        elif candidate.score >= config.unscreened_peak:
            unscreened.append((candidate, read))
    to_read = screened + unscreened
    second = read_closely(
        image_bgr, [r.center for _, r in to_read], [c.side_px for c, _ in to_read], config
    )
    sure = [  # a strong peak the screen missed, kept only as a die whose value is read surely
        (candidate.side_px, read)
        for (candidate, _), read in zip(unscreened, second[len(screened) :], strict=True)
        if read.die >= max(read.cube, config.unscreened_die_probability)
        and _face_share(read) >= config.unscreened_value_probability
    ]
    read_sides: list[tuple[float, Read, bool]] = []  # side, reading, found by the finer look
    faces: list[FoundCube] = []  # read as the cube, not kept: maybe its top face
    unread: list[tuple[float, Read]] = []  # read as a die, not kept: maybe beside another
    for (candidate, _), read in zip(screened, second[: len(screened)], strict=True):
        if not _kept(candidate, read, config):
            if read.cube > max(read.die, config.min_object_probability):
                faces.append(FoundCube(None, read.center, candidate.side_px))
            elif read.die >= max(read.cube, config.paired_die_probability):
                unread.append((candidate.side_px, read))
            continue
        side = candidate.side_px
        pieces = split_pair(image_bgr, side, read, config) or [(side, read)]
        beyond = partner(image_bgr, candidate, read, config)
        if beyond is not None:
            pieces.append(beyond)
        read_sides.extend((s, r, candidate.finer) for s, r in pieces)
    split = _split_finer(read_sides, config)
    ranked = [
        read_sides[i]
        for i in sorted(
            range(len(read_sides)),
            key=lambda i: (
                _rank(*read_sides[i], i in split, config),
                -max(read_sides[i][1].die, read_sides[i][1].cube),
            ),
        )
    ]
    dice: list[FoundDie] = []
    cube_likeness: list[float] = []  # each die's cube probability, for ``cube_or_die``
    cubes: list[tuple[FoundCube, Read]] = []  # likeliest first
    kept: list[tuple[tuple[float, float], float]] = []

    def clear(center: tuple[float, float], side: float, finer: bool) -> bool:
        apart = config.fine_duplicate_share if finer else config.duplicate_share
        return all(math.dist(center, c) >= apart * max(side, s) for c, s in kept)

    def keep_if_clear(die: FoundDie, read: Read) -> None:
        """``die`` (read ``read``) kept where it lies clear of everything kept before."""
        if clear(die.center, die.side_px, False):
            kept.append((die.center, die.side_px))
            dice.append(die)
            cube_likeness.append(read.cube)

    for side, read, finer in ranked:
        center = read.center
        if max(read.die, read.cube) < config.min_object_probability or not clear(
            center, side, finer
        ):
            continue
        kept.append((center, side))
        if read.cube > read.die:
            cubes.append((FoundCube(None, center, side), read))
            continue
        dice.append(_die_read(read, side, config, finer))
        cube_likeness.append(read.cube)
    for side, read in sure:
        keep_if_clear(
            FoundDie(_likeliest_face(read), read.center, side, False, _face_share(read)), read
        )
    for side, read in beside_dice(unread, [d.center for d in dice], config):
        keep_if_clear(replace(_die_read(read, side, config), beside=True), read)
    width, height = image_bgr.shape[1], image_bgr.shape[0]
    cube = top_face_of([c for c, _ in cubes], faces, config, width, height)
    dice += [  # one cube a game: another place read as the cube, likely a die too, is a die
        _die_read(read, place.side_px, config)
        for place, read in cubes[1:]
        if not _same_cube(place, cubes[0][0], config)
        and read.die >= config.other_cube_die_probability
    ]
    if cube is None:
        dice, cube = cube_or_die(dice, cube_likeness, config)
    dice = clear_of_cube(dice, cube, config)
    dice.sort(key=lambda die: (round(die.center[1]), die.center[0]))
    return Solids(tuple(dice), cube)


def beside_dice(
    unread: Sequence[tuple[float, Read]],
    kept: Sequence[tuple[float, float]],
    config: DiceConfig,
) -> list[tuple[float, Read]]:
    """Of candidates read as dice but not kept for want of a value (``unread``: side, reading),
    those lying against a die kept (centres ``kept``, frame pixels), surest first: each
    ``paired_die_shares`` of the expected side from the nearest die kept, and at least the
    nearer share from every one taken before it; none without an expected side."""
    expected = config.die_side_px
    if expected is None:
        return []
    low, high = (share * expected for share in config.paired_die_shares)
    taken: list[tuple[float, Read]] = []
    for side, read in sorted(unread, key=lambda item: -item[1].die):
        nearest = min((math.dist(read.center, c) for c in kept), default=math.inf)
        if low <= nearest <= high and all(
            math.dist(read.center, r.center) >= low for _, r in taken
        ):
            taken.append((side, read))
    return taken


def _die_read(read: Read, side: float, config: DiceConfig, finer: bool = False) -> FoundDie:
    """The die ``read`` reads (its side ``side``): its likeliest face where that has
    ``min_value_probability`` of the die's probability, else no value."""
    share = _face_share(read)
    value = _likeliest_face(read) if share >= config.min_value_probability else None
    return FoundDie(value, read.center, side, False, share, finer=finer)


def values_checked(
    image_bgr: Image, dice: Sequence[FoundDie], config: DiceConfig
) -> list[FoundDie]:
    """The dice, each read again (``read_closely``) at its found centre on a crop of the
    expected side, where ``check_values`` is set and the board gives the side: the detector's
    size of a blurred or marbled die strays, and the reader's crop with it. A die read without
    a value takes the value read there at ``min_value_probability``, but not one kept only as
    lying against another (``FoundDie.beside``: that crop holds the other's pips too); a die
    read with a value that reading finds another face likelier for is withheld (None): two
    readings of one die disagree."""
    expected = config.die_side_px
    if not config.check_values or expected is None or not dice:
        return list(dice)
    reads = read_closely(image_bgr, [d.center for d in dice], [expected] * len(dice), config)
    checked = []
    for die, read in zip(dice, reads, strict=True):
        if die.value is None and not die.beside and _readable_die(read, config):
            die = replace(die, value=_likeliest_face(read), face_share=_face_share(read))
        elif die.value not in (None, _likeliest_face(read)) and read.die >= read.cube:
            die = replace(die, value=None)
        checked.append(die)
    return checked


def find_solids(image_bgr: Image, config: DiceConfig) -> Solids:
    """The dice (top to bottom, then left to right) and the cube in a BGR frame, each die
    judged cocked or flat (``vision.lean``), the cube's value read (``vision.cube``)."""
    located = locate_solids(image_bgr, config)
    leaning = lean_probabilities(
        image_bgr, [d.center for d in located.dice], [d.side_px for d in located.dice], config
    )
    judged = [replace(d, cocked_probability=p) for d, p in zip(located.dice, leaning, strict=True)]
    cube = located.cube
    if cube is not None:
        cube = replace(cube, value=cube_value(image_bgr, cube.center, cube.side_px, config))
    dice = _pairs_checked(side_faces_dropped(judged, config), config)
    dice = values_checked(image_bgr, dice, config)
    return Solids(tuple(top_faces_read(image_bgr, dice, config)), cube)


def _sides_apart(die: FoundDie, other: FoundDie, config: DiceConfig) -> float:
    """How far apart two found dice lie, in expected sides (in the smaller found side where
    the expected one is unknown)."""
    side = config.die_side_px or min(die.side_px, other.side_px)
    return math.dist(die.center, other.center) / side


def _beside(die: FoundDie, other: FoundDie, config: DiceConfig) -> bool:
    """Whether ``die`` lies within the farther of ``paired_die_shares`` of ``other``."""
    return _sides_apart(die, other, config) <= config.paired_die_shares[1]


def _near(die: FoundDie, other: FoundDie, config: DiceConfig) -> bool:
    """Whether two found dice lie within ``side_face_share`` of each other: too close for two
    dice lying flat."""
    return _sides_apart(die, other, config) < config.side_face_share


def side_faces_dropped(dice: list[FoundDie], config: DiceConfig) -> list[FoundDie]:
    """The dice without those found on a side face of a leaning die.

    Two dice lying flat are a side apart or more, so of two found within
    ``side_face_share`` of the expected side (of the smaller found side where it is unknown:
    the real photos have a die resting on another, found as large as both) at most one lies
    flat. A die the finer look found (``FoundDie.finer``) that close to another, at least
    ``finer_side_face_probability`` likely to lean but less than ``side_face_probability``, is
    the other's side face seen off its centre, and is dropped first; but not where it is read
    with a value and the other without: then it is the readable one of two dice lying
    together, the other seen unreadably between them. Then, where the likelier
    of two to lean (``cocked_probability``) is at least ``side_face_probability``, the two are
    one leaning die seen by its top and a side face, and the other is dropped: reported, it
    would be a second die with a value read off the side face. A die kept only as lying
    against another (``FoundDie.beside``) is dropped where a die within the farther of
    ``paired_die_shares`` of it is that likely to lean: seen from aside, a leaning die's side
    face lies farther off its top than ``side_face_share``. (Not where the die kept so is:
    the judge takes the pips of the die beside it for a lean.) A cocked die voids the roll
    whatever lies beside it (MSO 4.2, JBL 4.1.4), so a flat die a leaning die rests on is not
    needed for the ruling either."""
    dice = [
        die
        for die in dice
        if not (
            die.finer
            and config.finer_side_face_probability
            <= die.cocked_probability
            < config.side_face_probability
            and any(
                other is not die
                and _near(die, other, config)
                and (other.value is not None or die.value is None)
                for other in dice
            )
        )
    ]
    dropped = {
        i
        for i, die in enumerate(dice)
        for j, other in enumerate(dice)
        if j != i
        and other.cocked_probability >= config.side_face_probability
        and (
            (
                _near(die, other, config)
                and (other.cocked_probability, -j) > (die.cocked_probability, -i)
            )
            or (die.beside and _beside(die, other, config))
        )
    }
    return [die for i, die in enumerate(dice) if i not in dropped]


def top_faces_read(image_bgr: Image, dice: list[FoundDie], config: DiceConfig) -> list[FoundDie]:
    """The dice, each leaning die's value read off its top face where the reader had read a
    side face.

    A leaning die shows its top face and the side face it tips towards the camera's nadir.
    The detector can peak between the two, or on the side face where that looks the larger,
    and the reader then reads the side face's value. Where ``top_face_reach_share`` is set
    and the board gives the expected side, each die the judge gives at least
    ``top_face_lean_probability`` of leaning (every die judged cocked, and some judged flat)
    is read again on a crop centred that share of the expected side beyond it, away from the
    nadir: the top face lies farthest from it, as the cube's does (``top_face_of``).

    Where that reading is a die of another value, clear (``duplicate_share``) of the other
    dice:

    - placed ``top_face_beyond_share`` of a side or more farther from the nadir than the die
      (a face beyond it, not the same face again), its value, read surely, is the die's, and
      its centre too (every die's centre is its top face's; a flat die seen with its
      neighbour as one leaning die is then placed where the neighbour it reads lies); read
      unsurely, it withholds the die's value (None): one of the die's faces says otherwise;
    - a die read without a value takes the value however near, read at
      ``top_face_unread_probability`` (its own face read off its centre, the side face less
      in the crop).

    A cocked die voids the roll all the same (MSO 4.2, JBL 4.1.4), but the players see its
    value."""
    expected = config.die_side_px
    leaning = [
        i
        for i, die in enumerate(dice)
        if die.cocked_probability >= config.top_face_lean_probability
    ]
    if config.top_face_reach_share is None or expected is None or not leaning:
        return dice
    nadir = nadir_in(config, image_bgr.shape[1], image_bgr.shape[0])
    reach = config.top_face_reach_share * expected
    centers = []
    for i in leaning:
        x, y = dice[i].center
        away = math.hypot(x - nadir[0], y - nadir[1]) or 1.0
        centers.append((x + reach * (x - nadir[0]) / away, y + reach * (y - nadir[1]) / away))
    reads = read_closely(image_bgr, centers, [expected] * len(leaning), config)
    read_off = list(dice)
    for i, read in zip(leaning, reads, strict=True):
        die = dice[i]
        value = _likeliest_face(read)
        beyond = math.dist(read.center, nadir) - math.dist(die.center, nadir)
        far = beyond >= config.top_face_beyond_share * expected
        if (
            value == die.value
            or read.die < max(read.cube, config.min_object_probability)
            or any(
                math.dist(read.center, other.center) < config.duplicate_share * expected
                for j, other in enumerate(dice)
                if j != i
            )
        ):
            continue
        unread = die.value is None and _readable_die(
            read, config, config.top_face_unread_probability
        )
        if _readable_die(read, config) and (far or unread):
            read_off[i] = replace(
                die, value=value, center=read.center, face_share=_face_share(read)
            )
        elif far:
            read_off[i] = replace(die, value=None)
    return read_off


def _pairs_checked(dice: list[FoundDie], config: DiceConfig) -> list[FoundDie]:
    """The dice, a die lying within ``pair_share`` of a side of another called cocked only at
    ``pair_cocked_probability``: the judge takes the side faces of a neighbour in its crop for
    a lean."""
    checked = []
    for die in dice:
        paired = any(
            other is not die
            and math.dist(other.center, die.center)
            < config.pair_share * max(other.side_px, die.side_px)
            for other in dice
        )
        cocked = die.cocked_probability >= (
            config.pair_cocked_probability if paired else config.min_cocked_probability
        )
        checked.append(replace(die, cocked=cocked))
    return checked


def find_dice(image_bgr: Image, config: DiceConfig) -> list[FoundDie]:
    """Every die in a BGR frame (``find_solids`` without the cube)."""
    return list(find_solids(image_bgr, config).dice)
