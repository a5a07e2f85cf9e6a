"""Borne-off checkers in the trays, read beyond the playing surface's left and right edges.

The trays lie outside the frame strip, left, right or both, as tall as the playing surface and
on (about) its plane, so the surface's homography (``vision.board.BoardView.to_canonical``)
extended beyond its left and right edges reaches them. Borne-off checkers stand on their edge
in one tray, one colour in its top half and the other in its bottom half, stacked from the
tray's end towards the middle.

``tray_crops`` cuts four regions out of the frame, rectified with the view's homography: each
side's strip (from just inside the surface's edge to ``reach_share`` of the surface's width
beyond it: the renderer's frame strips and trays end within 0.154 of it on tuning seeds, 0.165
at most by its ranges) and each strip's top and bottom part (from a little beyond the surface's
end to ``half_share`` of its height: 15 standing checkers fill at most 0.33 of it). The crops
are mirrored so that each shows the surface's edge on its left and the tray's end at its top.

A small CNN (``vision/models/trays.onnx``, trained by ``vision.training.train_trays``) reads
the four crops in one batch: the probabilities of 0..15 standing checkers and of their being
the light colour. ``decode`` gives a colour's count only where its crops are sure of their
counts (``min_count_probability``) and the crops that may hold checkers are surely of one
colour, or where the net's count agrees with the checkers the board does not show; otherwise
None. "Light" is the lighter of the two checker colours, as in ``vision.checkers``.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision import nets
from vision.board import BoardView
from vision.config import TrayConfig
from vision.labels import CHECKERS_PER_SIDE, COLORS, Color, SideCounts
from vision.tally import Place

Image = npt.NDArray[np.uint8]
Floats = npt.NDArray[np.float32]
Matrix = npt.NDArray[np.float64]

NET = "trays"  # vision/models/trays.onnx
# The crops, in batch order: (side, half) with side 0 = left, 1 = right; half 0 = top.
CROPS = ((0, 0), (0, 1), (1, 0), (1, 1))
COUNT_CLASSES = CHECKERS_PER_SIDE + 1  # 0..15 standing checkers per crop
OUTPUTS = ("count", "light")  # per crop: count logits (16), light logit (1)
ACROSS = 2  # samples averaged per crop pixel across


def crop_to_canonical(view: BoardView, side: int, half: int, config: TrayConfig) -> Matrix:
    """The affine map (3 x 3) from pixels of crop (``side``, ``half``), sampled ``ACROSS``
    times finer across, to canonical pixels."""
    w, h = view.width, view.height
    across = (config.reach_share + config.inset_share) * w / (config.crop_width * ACROSS)
    along = (config.half_share + config.beyond_share) * h / config.crop_height
    x0 = w * (1.0 - config.inset_share) if side == 1 else w * config.inset_share
    y0 = -config.beyond_share * h if half == 0 else h * (1.0 + config.beyond_share)
    sx = across if side == 1 else -across
    sy = along if half == 0 else -along
    return np.array([[sx, 0.0, x0], [0.0, sy, y0], [0.0, 0.0, 1.0]])


def tray_crops(image_bgr: Image, view: BoardView, config: TrayConfig) -> Image:
    """The four crops (``CROPS`` order) of the frame: 4 x ``crop_height`` x ``crop_width`` x 3
    BGR, sampled bilinearly (black outside the frame) ``ACROSS`` times finer across and
    averaged: the checkers' edges run across, so averaging along them smooths the noise and
    keeps them sharp."""
    size = (config.crop_width * ACROSS, config.crop_height)
    from_canonical = np.linalg.inv(view.to_canonical)
    fine = np.empty((len(CROPS), config.crop_height, config.crop_width * ACROSS, 3), np.uint8)
    for index, (side, half) in enumerate(CROPS):
        fine[index] = cv2.warpPerspective(
            image_bgr,
            from_canonical @ crop_to_canonical(view, side, half, config),
            size,
            flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
            borderMode=cv2.BORDER_CONSTANT,
        )
    return average_across(fine)


def average_across(fine: Image) -> Image:
    """Crops sampled ``ACROSS`` times finer across (n x height x width x 3, contiguous), each
    run of ``ACROSS`` samples averaged (pixel area: rounded), all in one resize."""
    n, height, width, _ = fine.shape
    stacked = fine.reshape(n * height, width, 3)
    shrunk = cv2.resize(stacked, (width // ACROSS, n * height), interpolation=cv2.INTER_AREA)
    return np.asarray(shrunk, np.uint8).reshape(n, height, width // ACROSS, 3)


@dataclass(frozen=True)
class CropReading:
    """What the net says of one crop: P(0..15 standing checkers), P(they are light)."""

    count: Floats
    light: float


def run_net(crops: Image) -> list[CropReading]:
    """The net's readings of the four crops of ``tray_crops``."""
    count, light = nets.run(NET, nets.image_batch(crops))
    probs = nets.softmax(count)
    lights = nets.sigmoid(light.reshape(-1))
    return [CropReading(probs[i], float(lights[i])) for i in range(len(probs))]


@dataclass(frozen=True)
class _Assigned:
    """The crops' likeliest counts, whether each is sure, and which colour's each holds
    (``light``; a surely ``empty`` crop holds neither)."""

    best: npt.NDArray[np.intp]
    sure: npt.NDArray[np.bool_]
    light: npt.NDArray[np.bool_]
    empty: npt.NDArray[np.bool_]

    def holding(self, colour: Color) -> npt.NDArray[np.bool_]:
        """The crops that may hold ``colour``'s checkers."""
        return (self.light if colour == "light" else ~self.light) & ~self.empty


def _assign(readings: list[CropReading], config: TrayConfig) -> _Assigned | None:
    """Each crop's count and colour; None where a crop that may hold checkers is not surely of
    one colour. Two crops of one side that both seem to hold checkers are told apart by the
    likelier assignment (each half holds one colour)."""
    best = np.array([int(np.argmax(r.count)) for r in readings], np.intp)
    sure = np.array(
        [
            float(r.count[n]) >= config.min_count_probability
            for r, n in zip(readings, best, strict=True)
        ]
    )
    lights = np.array([r.light for r in readings])
    light_of = lights >= 0.5
    sure_colour = np.abs(lights - 0.5) >= config.colour_margin
    for top in (0, 2):  # the top crops of the left and right side; the bottom one follows
        if best[top] > 0 and best[top + 1] > 0:
            a, b = lights[top], lights[top + 1]
            light_of[top] = a * (1 - b) >= b * (1 - a)
            light_of[top + 1] = not light_of[top]
            sure_colour[top] = sure_colour[top + 1] = abs(a - b) >= config.colour_margin
    empty = (best == 0) & sure
    if not sure_colour[~empty].all():
        return None
    return _Assigned(best, sure, light_of, empty)


def decode(
    readings: list[CropReading], config: TrayConfig, expected: SideCounts | None = None
) -> SideCounts:
    """Light and dark checkers borne off: each crop that may hold checkers adds its count to
    its colour's. A colour's count is None where a crop that may hold checkers is not surely
    of one colour (``_assign``), or one of that colour's crops is not sure of its count (a
    crop surely empty adds nothing).

    ``expected`` are the checkers the board does not show (``vision.checkers.unseen``), where
    known: a colour's count the net is unsure of is that, where its one crop gives it at least
    ``min_agree_probability``; a sure count that differs from it is None (one reader is wrong).
    """
    assigned = _assign(readings, config)
    if assigned is None:
        return SideCounts(None, None)
    counts: list[int | None] = []
    for colour in COLORS:
        holds = assigned.holding(colour)
        total = int(assigned.best[holds].sum())
        known = bool(assigned.sure[holds].all()) and total <= CHECKERS_PER_SIDE
        unseen = None if expected is None else getattr(expected, colour)
        if unseen is not None and known and total != unseen:
            known = False
        elif unseen is not None and not known and holds.sum() == 1:
            agreed = float(readings[int(np.argmax(holds))].count[unseen])
            total, known = unseen, agreed >= config.min_agree_probability
        counts.append(total if known else None)
    return SideCounts(counts[0], counts[1])


def _summed(counts: list[Floats]) -> Floats:
    """The net's P(0..15 checkers) of a colour's crops together (each crop's count taken as
    independent; none: surely 0)."""
    total = np.eye(COUNT_CLASSES, dtype=np.float64)[0]
    for count in counts:
        total = np.convolve(total, count)[:COUNT_CLASSES]
    return np.asarray(total, np.float32)


def off_places(readings: list[CropReading], config: TrayConfig) -> dict[Color, Place | None]:
    """Each colour's checkers borne off as a place of the sum of its 15 (``vision.tally``):
    the count where sure (``decode``), with the net's probabilities of every count (so where
    the sum fails it may blame the tray rather than a point: ``vision.tally.suspects``), else
    the counts its one crop gives at least ``min_range_probability``; None where the crops'
    colours are unsure or two crops of the colour are not both sure."""
    assigned = _assign(readings, config)
    places: dict[Color, Place | None] = dict.fromkeys(COLORS)
    if assigned is None:
        return places
    for colour in COLORS:
        holds = np.flatnonzero(assigned.holding(colour))
        if assigned.sure[holds].all():
            total = int(assigned.best[holds].sum())
            if total <= CHECKERS_PER_SIDE:
                summed = _summed([readings[int(i)].count for i in holds])
                places[colour] = Place(total, total, summed, False)
        elif len(holds) == 1:
            probabilities = readings[int(holds[0])].count
            plausible = np.flatnonzero(probabilities >= config.min_range_probability)
            best = int(assigned.best[holds[0]])
            low, high = min(best, int(plausible.min())), max(best, int(plausible.max()))
            places[colour] = Place(low, high, probabilities, False)
    return places


def among_standing(
    view: BoardView, readings: list[CropReading], point: tuple[float, float], config: TrayConfig
) -> bool:
    """Whether a frame point lies among a tray's standing checkers: beside the surface's left
    or right edge, within ``standing_reach_share`` of its width, and no farther from the tray's
    end (the surface's top or bottom edge) than the checkers the net counts likeliest in that
    half (``readings``, in ``CROPS`` order) fill, ``standing_share`` of the surface's height
    each, nor beyond the end farther than the crop the net reads (``beyond_share``): a die
    there, leaning on the frame's corner, lies beyond the checkers."""
    u, v = view.canonical_point(*point)
    width, height = view.width, view.height
    reach = config.standing_reach_share
    if -reach * width < u < 0.0:
        side = 0
    elif width < u < (1.0 + reach) * width:
        side = 1
    else:
        return False
    half = 0 if v < height / 2 else 1
    count = int(np.argmax(readings[CROPS.index((side, half))].count))
    from_end = v if half == 0 else height - v
    beyond = -config.beyond_share * height
    return count > 0 and beyond <= from_end <= count * config.standing_share * height


def read_trays(image_bgr: Image, view: BoardView, config: TrayConfig) -> list[CropReading]:
    """The net's readings of the four crops (``CROPS`` order) of a frame on a located board,
    for ``decode``. The trays lie outside the canonical board, so they are read from the frame
    itself; ValueError if it is not a BGR uint8 image or the view's canonical board is empty."""
    if image_bgr.dtype != np.uint8 or image_bgr.ndim != 3 or image_bgr.shape[2] != 3:
        raise ValueError(
            f"trays: expected a height x width x 3 uint8 BGR frame, got shape "
            f"{image_bgr.shape} of {image_bgr.dtype}"
        )
    if view.width <= 0 or view.height <= 0:
        raise ValueError(f"trays: the view's canonical board is {view.width} x {view.height}")
    return run_net(tray_crops(image_bgr, view, config))
