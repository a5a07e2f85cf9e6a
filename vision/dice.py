"""Dice in a BGR frame: where each die lies, its value (pips on its top face), whether it is cocked.

Stages (each a pure function of its inputs):

1. ``background_distance`` and ``foreground_mask``: pixels whose Lab colour differs from a smooth
   background model (a median over a window several dice wide), so light, dark, coloured and
   transparent dice stand out; small holes (pips, glare) filled. ``texture_mask``: pixels where
   the grey level varies (a white die on a white table shows its edges and pips).
2. ``candidates``: local maxima of the distance to either mask's edge (``mask_peaks``), one per
   die even where dice touch each other or a tray's wall.
3. The net (``vision.dice_net``, trained by ``vision.train_dice`` on the even-numbered real dice
   photos and rendered frames) reads each candidate from a crop turned so the die's edges are
   axis-aligned: not a die, or its face value with a probability; duplicates are dropped.
4. Where the net is unsure of the value, the pip reader has a say: ``die_regions`` outlines
   single dice in the colour foreground (touching dice split by watershed) and ``read_die``
   finds pips as round blobs of ``pip_strength`` (each pixel's Lab distance from the median
   colour around it) and checks with ``layout_fits`` that they sit where a face of that value
   has them. Its value counts only when the net finds it plausible; otherwise the die's value is
   None (abstain), never a guess.

A die is *cocked* (it leans on a checker or the board's edge) when its outline is not square.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import permutations
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.config import DiceConfig
from vision.dice_net import (
    DiceNet,
    EdgeField,
    crop,
    face_inputs,
    face_probabilities,
    load_net,
    logits,
    softmax,
)

Image = npt.NDArray[np.uint8]
Contour = npt.NDArray[Any]  # OpenCV point lists (n x 1 x 2 integers)


@dataclass(frozen=True)
class FoundDie:
    """One die found in a frame; pixel coordinates of the frame. ``side_px``: the die's size in
    pixels (``find_dice``: its axis-aligned box as ``side_estimate`` has it; ``read_die``: the
    side of the square of its outline's area)."""

    value: int | None
    center: tuple[float, float]
    side_px: float
    cocked: bool


def _lab(image_bgr: npt.NDArray[Any]) -> npt.NDArray[np.float32]:
    return cv2.cvtColor(image_bgr, cv2.COLOR_BGR2LAB).astype(np.float32)


def background_distance(image_bgr: Image, config: DiceConfig) -> npt.NDArray[np.float32]:
    """Per pixel, the Lab distance of the frame from its smooth background model."""
    height, width = image_bgr.shape[:2]
    shrink = config.background_shrink
    small = cv2.resize(
        image_bgr,
        (max(1, width // shrink), max(1, height // shrink)),
        interpolation=cv2.INTER_AREA,
    )
    wanted = int(config.background_window_px / shrink) | 1
    kernel = min(wanted, (min(small.shape[:2]) // 2) * 2 - 1)
    if kernel >= 3:
        small = cv2.medianBlur(small, kernel)
    # Lab in 8 bits (OpenCV's scaling), the background's upsampled from the shrunk model.
    background = cv2.resize(
        cv2.cvtColor(small, cv2.COLOR_BGR2LAB), (width, height), interpolation=cv2.INTER_LINEAR
    )
    difference = cv2.absdiff(cv2.cvtColor(image_bgr, cv2.COLOR_BGR2LAB), background)
    squares = np.square(difference, dtype=np.float32)
    return np.asarray(cv2.sqrt(cv2.transform(squares, np.ones((1, 3), np.float32))), np.float32)


def _fill_holes(mask: npt.NDArray[np.uint8], max_area: float) -> npt.NDArray[np.uint8]:
    """Fill holes (pips, glare) smaller than ``max_area``; larger ones (a tray's inside) stay."""
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    filled = mask.copy()
    if hierarchy is None:
        return filled
    holes = [
        contour
        for contour, (_, _, _, parent) in zip(contours, hierarchy[0], strict=True)
        if parent >= 0 and cv2.contourArea(contour) < max_area
    ]
    cv2.drawContours(filled, holes, -1, 255, thickness=cv2.FILLED)
    return filled


def _cleaned(mask: npt.NDArray[np.uint8], config: DiceConfig) -> npt.NDArray[np.uint8]:
    """Specks removed, one-pixel gaps closed, holes (pips) filled."""
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
    mask = np.asarray(cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel), np.uint8)
    mask = np.asarray(cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel), np.uint8)
    return _fill_holes(mask, config.max_side_px**2)


def foreground_mask(distance: npt.NDArray[np.float32], config: DiceConfig) -> npt.NDArray[np.uint8]:
    """255 where something (a die) stands out from the background (``background_distance``),
    holes (pips) filled."""
    return _cleaned((distance > config.foreground_distance).astype(np.uint8) * 255, config)


def texture_mask(image_bgr: Image, config: DiceConfig) -> npt.NDArray[np.uint8]:
    """255 where the grey level varies (a die's edges and pips, even a white die on a white
    table): the 3x3 morphological gradient, averaged over ``texture_window_share`` of the
    smallest die's side, above ``texture_level``; gaps within a die closed, holes filled."""
    grey = cv2.cvtColor(image_bgr, cv2.COLOR_BGR2GRAY)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
    gradient = cv2.morphologyEx(grey, cv2.MORPH_GRADIENT, kernel).astype(np.float32)
    window = max(3, round(config.texture_window_share * config.min_side_px) | 1)
    mask = (cv2.blur(gradient, (window, window)) > config.texture_level).astype(np.uint8) * 255
    closing = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (window - 2, window - 2))
    return _cleaned(np.asarray(cv2.morphologyEx(mask, cv2.MORPH_CLOSE, closing), np.uint8), config)


@dataclass(frozen=True)
class Candidate:
    """A place that may be a die's centre (frame pixels): a local maximum of the distance to a
    mask's edge, ``radius`` that distance."""

    center: tuple[float, float]
    radius: float


def mask_peaks(mask: npt.NDArray[np.uint8], config: DiceConfig) -> list[Candidate]:
    """Local maxima of the distance transform of ``mask`` (within ``peak_window_share`` of the
    smallest die's side) at least ``min_radius_share`` of that side from the mask's edge and at
    most ``max_radius_share`` of the largest die's side: one per die, even for touching dice
    (the necks between them are thinner) or a die against a tray's wall."""
    depth = cv2.distanceTransform(mask, cv2.DIST_L2, 5)
    reach = max(1, round(config.peak_window_share * config.min_side_px))
    window = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1, 2 * reach + 1))
    peaks = (depth >= cv2.dilate(depth, window)) & (
        depth >= config.min_radius_share * config.min_side_px
    )
    peaks &= depth <= config.max_radius_share * config.max_side_px
    count, _, _, centroids = cv2.connectedComponentsWithStats(peaks.astype(np.uint8))
    found = []
    for x, y in centroids[1:count]:
        radius = float(depth[min(mask.shape[0] - 1, round(y)), min(mask.shape[1] - 1, round(x))])
        found.append(Candidate((float(x), float(y)), radius))
    return found


@dataclass(frozen=True)
class _Found:
    """The finder's first stage on a frame: candidate centres, outlines of single dice in the
    colour foreground (``die_regions``; frame pixels) and the background distance of the frame
    shrunk by ``detect_shrink``."""

    places: list[Candidate]
    regions: list[Contour]
    distance: npt.NDArray[np.float32]


def _find(image_bgr: Image, config: DiceConfig) -> _Found:
    detect = _detect_config(config)
    small = _shrunk(image_bgr, config.detect_shrink)
    distance = background_distance(small, detect)
    foreground = foreground_mask(distance, detect)
    shrink = config.detect_shrink
    kept: list[Candidate] = []
    peaks = [
        peak
        for mask in (foreground, texture_mask(small, detect))
        for peak in mask_peaks(mask, detect)
    ]
    kept_at = np.empty((len(peaks), 2))
    for peak in sorted(peaks, key=lambda p: -p.radius):
        center = ((peak.center[0] + 0.5) * shrink - 0.5, (peak.center[1] + 0.5) * shrink - 0.5)
        gaps = np.hypot(*(kept_at[: len(kept)] - center).T)
        if not np.any(gaps <= config.merge_share * config.min_side_px):
            kept_at[len(kept)] = center
            kept.append(Candidate(center, peak.radius * shrink))
    regions = [region * shrink for region in die_regions(foreground, detect)]
    return _Found(kept, regions, distance)


def candidates(image_bgr: Image, config: DiceConfig) -> list[Candidate]:
    """Places that may be dice, frame pixels: ``mask_peaks`` of the colour foreground
    (``foreground_mask``) and of the texture (``texture_mask``), found in the frame shrunk by
    ``detect_shrink``; peaks of both masks within ``merge_share`` of the smallest side are one
    (the deeper kept)."""
    return _find(image_bgr, config).places


def _is_single_die(contour: Contour, config: DiceConfig) -> bool:
    area = cv2.contourArea(contour)
    side = float(np.sqrt(area))
    if not config.min_side_px <= side <= config.max_side_px:
        return False
    (_, _), (w, h), _ = cv2.minAreaRect(contour)
    if min(w, h) <= 0:
        return False
    return area / (w * h) >= config.min_fill and max(w, h) / min(w, h) <= config.max_aspect


def _split_cluster(region: npt.NDArray[np.uint8], side: float, config: DiceConfig) -> list[Contour]:
    """Touching dice: seeds where the distance to the region's edge exceeds a share of a die's
    side (the necks between dice are thinner), grown back by watershed inside ``region``."""
    dist = cv2.distanceTransform(region, cv2.DIST_L2, 5)
    seeds = (dist > config.split_seed_share * side).astype(np.uint8)
    count, markers = cv2.connectedComponents(seeds)
    if count <= 2:
        return []
    markers = np.where(seeds > 0, markers + 1, np.where(region == 0, 1, 0)).astype(np.int32)
    cv2.watershed(cv2.cvtColor(region, cv2.COLOR_GRAY2BGR), markers)
    pieces: list[Contour] = []
    for label in range(2, count + 1):
        piece = ((markers == label) & (region > 0)).astype(np.uint8) * 255
        contours, _ = cv2.findContours(piece, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        if contours:
            contour = max(contours, key=cv2.contourArea)
            if _is_single_die(contour, config):
                pieces.append(contour)
    return pieces


def die_regions(mask: npt.NDArray[np.uint8], config: DiceConfig) -> list[Contour]:
    """Outlines (frame pixels) of single dice in a foreground mask; clusters are split. Shapes
    inside holes (dice in a tray) count too; a hole's own outline is too large to be a die."""
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return []
    contours = [c for c, h in zip(contours, hierarchy[0], strict=True) if h[3] < 0]
    singles = [c for c in contours if _is_single_die(c, config)]
    sides = [float(np.sqrt(cv2.contourArea(c))) for c in singles]
    typical = float(np.median(sides)) if sides else (config.min_side_px + config.max_side_px) / 2
    regions = list(singles)
    max_cluster_area = (6 * config.max_side_px) ** 2
    for contour in contours:
        area = cv2.contourArea(contour)
        if _is_single_die(contour, config) or area < 1.5 * typical**2 or area > max_cluster_area:
            continue
        x, y, w, h = cv2.boundingRect(contour)
        local = np.zeros((h + 2, w + 2), np.uint8)
        cv2.drawContours(local, [contour], -1, 255, cv2.FILLED, offset=(1 - x, 1 - y))
        for piece in _split_cluster(local, typical, config):
            regions.append(piece + np.array([x - 1, y - 1], np.int32))
    return regions


@dataclass(frozen=True)
class _Pip:
    center: tuple[float, float]
    strength: float


def pip_strength(
    crop_bgr: Image,
    body: npt.NDArray[np.uint8],
    side: float,
    context_share: float,
    config: DiceConfig,
) -> npt.NDArray[np.float32]:
    """Per pixel of a die crop, how much it looks like a pip: Lab distance from the median colour
    in a window of ``context_share`` of the die's side around it (of the whole die's body if 0),
    zero near and outside the die's outline, lightly smoothed."""
    lab = _lab(crop_bgr)
    if context_share > 0:
        kernel = max(5, int(side * context_share) | 1)
        difference = lab - _lab(cv2.medianBlur(crop_bgr, kernel))
    else:
        difference = lab - np.median(lab[body > 0], axis=0).astype(np.float32)
    distance = np.sqrt(np.einsum("ijk,ijk->ij", difference, difference))
    depth = cv2.distanceTransform(body, cv2.DIST_L2, 3)
    distance[depth < side * config.pip_margin_share] = 0.0
    return np.asarray(cv2.GaussianBlur(distance, (0, 0), 0.8), np.float32)


def _find_pips(
    strength: npt.NDArray[np.float32], body: npt.NDArray[np.uint8], side: float, config: DiceConfig
) -> list[_Pip]:
    """Blobs of pip size and roundness in the pip strength that persist over several thresholds
    (OpenCV's SimpleBlobDetector), deep enough inside the die and nearly as strong as the
    strongest (side-face pips are foreshortened and fainter)."""
    params = cv2.SimpleBlobDetector.Params()
    params.minThreshold = 10
    params.maxThreshold = 250
    params.thresholdStep = 8
    params.minRepeatability = 2
    params.filterByColor = True
    params.blobColor = 255
    params.filterByArea = True
    radius = side * config.pip_radius_share
    params.minArea = float(np.pi * (radius * 0.5) ** 2)
    params.maxArea = float(np.pi * (radius * 2.0) ** 2)
    params.filterByCircularity = True
    params.minCircularity = 0.6
    params.filterByInertia = True
    params.minInertiaRatio = 0.4
    params.filterByConvexity = True
    params.minConvexity = 0.8
    params.minDistBetweenBlobs = radius
    scale = 255.0 / max(float(strength.max()), 1e-3)
    image = np.clip(strength * scale, 0, 255).astype(np.uint8)
    keypoints = cv2.SimpleBlobDetector.create(params).detect(image)
    depth = cv2.distanceTransform(body, cv2.DIST_L2, 3)
    height, width = strength.shape
    pips = []
    for keypoint in keypoints:
        x, y = keypoint.pt
        ix, iy = min(width - 1, round(x)), min(height - 1, round(y))
        if depth[iy, ix] >= side * config.pip_min_edge_share:
            pips.append(_Pip((float(x), float(y)), float(strength[iy, ix])))
    if not pips:
        return []
    floor = config.pip_min_relative_strength * max(p.strength for p in pips)
    return [p for p in pips if p.strength >= floor]


# Pip places of a face on a 3x3 grid, (column, row) in units of the pip spacing; one layout per
# value (any rotation or mirror image of it is the same face).
_LAYOUTS: dict[int, npt.NDArray[np.complex64]] = {
    value: np.array([complex(c, r) for c, r in places], np.complex64)
    for value, places in {
        1: [(0, 0)],
        2: [(-1, -1), (1, 1)],
        3: [(-1, -1), (0, 0), (1, 1)],
        4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
        5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
        6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
    }.items()
}
_ORDERINGS = {n: np.array(list(permutations(range(n))), np.intp) for n in _LAYOUTS}


def layout_fits(
    pips: list[_Pip],
    strength: npt.NDArray[np.float32],
    center: tuple[float, float],
    side: float,
    config: DiceConfig,
) -> bool:
    """Whether the pips sit where a die face of that many pips has them: centred near the die's
    ``center``, the best similarity (turn, scale, shift) of the face layout onto the pips leaves a
    small residual, the pip spacing is plausible for the die's size, and the face's empty places
    (of its 3x3 grid) are clearly fainter than the faintest pip."""
    count = len(pips)
    if count not in _LAYOUTS:
        return False
    found = np.array([complex(*p.center) for p in pips], np.complex64)
    middle = complex(found.mean())
    if abs(middle - complex(*center)) > config.layout_max_offset_share * side:
        return False
    found -= middle
    if count == 1:
        return True
    layout = _LAYOUTS[count][_ORDERINGS[count]]
    layout = layout - layout.mean(axis=1, keepdims=True)
    scales = (np.conj(layout) @ found) / np.sum(np.abs(layout) ** 2, axis=1)
    residuals = np.sqrt(np.mean(np.abs(found[None, :] - scales[:, None] * layout) ** 2, axis=1))
    best = int(np.argmin(residuals / np.maximum(np.abs(scales), 1e-6)))
    spacing = float(np.abs(scales[best]))
    if not (
        residuals[best] <= config.layout_max_residual * spacing
        and config.pip_min_spacing_share * side <= spacing <= config.pip_max_spacing_share * side
    ):
        return False
    return _empty_places_faint(pips, strength, middle, complex(scales[best]), count, config)


# The nine places of a face's 3x3 pip grid, in units of the pip spacing.
_GRID = np.array([complex(c, r) for r in (-1, 0, 1) for c in (-1, 0, 1)], np.complex64)


def _empty_places_faint(
    pips: list[_Pip],
    strength: npt.NDArray[np.float32],
    middle: complex,
    scale: complex,
    count: int,
    config: DiceConfig,
) -> bool:
    """The grid places without a pip in the fitted layout are fainter than the faintest pip."""
    used = _LAYOUTS[count]
    empty = [g for g in _GRID if np.min(np.abs(used - g)) > 0.5]
    places = middle + scale * np.array(empty, np.complex64)
    height, width = strength.shape
    xs = np.clip(np.rint(places.real).astype(np.intp), 0, width - 1)
    ys = np.clip(np.rint(places.imag).astype(np.intp), 0, height - 1)
    faintest = min(p.strength for p in pips)
    return bool(np.all(strength[ys, xs] < config.empty_max_share * faintest))


def _tight_body(
    distance: npt.NDArray[np.float32], inside: npt.NDArray[np.uint8]
) -> npt.NDArray[np.uint8]:
    """The die without its shadow: Otsu's split of the background distance inside ``inside``,
    holes filled, largest part; ``inside`` itself where the split leaves too little."""
    scaled = np.clip(distance, 0, 255).astype(np.uint8)
    otsu, _ = cv2.threshold(scaled[inside > 0], 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    tight = ((scaled > otsu) & (inside > 0)).astype(np.uint8) * 255
    tight = np.asarray(cv2.morphologyEx(tight, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)), np.uint8)
    contours, _ = cv2.findContours(tight, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return inside
    largest = max(contours, key=cv2.contourArea)
    if cv2.contourArea(largest) < 0.55 * np.count_nonzero(inside):
        return inside
    body = np.zeros_like(inside)
    cv2.drawContours(body, [cv2.convexHull(largest)], -1, 255, cv2.FILLED)
    return body


def read_die(
    image_bgr: Image,
    contour: Contour,
    distance: npt.NDArray[np.float32],
    config: DiceConfig,
    read_value: bool = True,
) -> FoundDie:
    """Value (None unless ``read_value``), centre and cocked flag of the die outlined by
    ``contour`` (frame pixels); ``distance`` is the ``background_distance`` of the frame shrunk
    by ``detect_shrink``."""
    x, y, w, h = cv2.boundingRect(contour)
    crop = image_bgr[y : y + h, x : x + w]
    inside = np.zeros((h, w), np.uint8)
    cv2.drawContours(inside, [contour], -1, 255, cv2.FILLED, offset=(-x, -y))
    shrink = config.detect_shrink
    small = distance[y // shrink : (y + h) // shrink + 1, x // shrink : (x + w) // shrink + 1]
    enlarged = cv2.resize(small, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_LINEAR)
    body = _tight_body(
        np.asarray(enlarged[y % shrink : y % shrink + h, x % shrink : x % shrink + w], np.float32),
        inside,
    )
    outline = max(
        cv2.findContours(body, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0], key=cv2.contourArea
    )
    (cx, cy), (rw, rh), _ = cv2.minAreaRect(outline)
    side = float(np.sqrt(cv2.contourArea(outline)))
    if side < 2:
        return FoundDie(None, (float(cx + x), float(cy + y)), side, False)
    zoom = config.read_side_px / side
    size = (max(1, round(w * zoom)), max(1, round(h * zoom)))
    big_crop = np.asarray(cv2.resize(crop, size, interpolation=cv2.INTER_CUBIC), np.uint8)
    big_body = np.asarray(cv2.resize(body, size, interpolation=cv2.INTER_NEAREST), np.uint8)
    big_side = side * zoom
    values = set()
    for context in config.pip_context_shares if read_value else ():
        strength = pip_strength(big_crop, big_body, big_side, context, config)
        pips = _find_pips(strength, big_body, big_side, config)
        if layout_fits(pips, strength, (cx * zoom, cy * zoom), big_side, config):
            values.add(len(pips))
    value = values.pop() if len(values) == 1 else None  # readings that disagree: abstain
    aspect = max(rw, rh) / max(1e-6, min(rw, rh))
    cocked = aspect > config.cocked_max_aspect
    return FoundDie(value, (float(cx + x), float(cy + y)), side, cocked)


def _shrunk(image_bgr: Image, shrink: int) -> Image:
    if shrink <= 1:
        return image_bgr
    height, width = image_bgr.shape[:2]
    size = (max(1, width // shrink), max(1, height // shrink))
    return np.asarray(cv2.resize(image_bgr, size, interpolation=cv2.INTER_AREA), np.uint8)


def _detect_config(config: DiceConfig) -> DiceConfig:
    """The sizes of ``config`` in the frame shrunk by ``detect_shrink``."""
    shrink = config.detect_shrink
    return replace(
        config,
        background_shrink=max(1, config.background_shrink // shrink),
        background_window_px=config.background_window_px / shrink,
        min_side_px=config.min_side_px / shrink,
        max_side_px=config.max_side_px / shrink,
    )


@lru_cache(maxsize=1)
def _shipped_net() -> DiceNet:
    return load_net()


def side_estimate(candidate: Candidate, config: DiceConfig) -> float:
    """A die's side (pixels, as its axis-aligned box) from its candidate's depth."""
    return 2.0 * candidate.radius / config.radius_side_share


def face_crops(
    image_bgr: Image, edges: EdgeField, places: Sequence[Candidate], config: DiceConfig
) -> Image:
    """The crops the net reads (n x CROP_PX x CROP_PX x 3), each die's edges axis-aligned."""
    crops = []
    for place in places:
        side = side_estimate(place, config)
        crops.append(crop(image_bgr, place.center, side, edges.angle(place.center, side)))
    return np.stack(crops)


def _region_near(
    regions: Sequence[Contour], center: tuple[float, float], side: float, config: DiceConfig
) -> Contour | None:
    """The outline whose minimum-area rectangle is centred nearest ``center``, if within
    ``region_match_share`` of ``side``."""
    best: tuple[float, Contour] | None = None
    for region in regions:
        (x, y), _, _ = cv2.minAreaRect(region)
        gap = float(np.hypot(x - center[0], y - center[1]))
        if gap <= config.region_match_share * side and (best is None or gap < best[0]):
            best = (gap, region)
    return None if best is None else best[1]


def find_dice(image_bgr: Image, config: DiceConfig, net: DiceNet | None = None) -> list[FoundDie]:
    """Every die in a BGR frame, in reading order (top to bottom, then left to right).

    ``candidates`` are read by the net (``vision.dice_net``; the shipped weights unless ``net``
    is given), once, then in four quarter turns where the first reading gives the candidate at
    least ``screen_die_probability`` of being a die; a candidate is a die when the net then
    gives it at least ``min_die_probability``, the likelier of two within ``duplicate_share``
    of a side kept. Its value is the net's likeliest face when that face has at least
    ``min_value_probability`` of the die's probability; otherwise the pip reader's
    (``read_die`` on the die's outline in the colour foreground) when the net gives that face
    at least ``pip_min_net_share``; otherwise None (abstain). A die is cocked when its outline
    says so (``read_die``).
    """
    found = _find(image_bgr, config)
    if not found.places:
        return []
    net = net or _shipped_net()
    inputs = face_inputs(
        face_crops(image_bgr, EdgeField(image_bgr, config.detect_shrink), found.places, config)
    )
    screened = softmax(logits(net, inputs))[:, 0] <= 1.0 - config.screen_die_probability
    places = [place for place, keep in zip(found.places, screened, strict=True) if keep]
    if not places:
        return []
    probabilities = face_probabilities(net, inputs[screened])
    die_probability = 1.0 - probabilities[:, 0]
    dice: list[FoundDie] = []
    for index in np.argsort(-die_probability, kind="stable"):
        place, side = places[index], side_estimate(places[index], config)
        if die_probability[index] < config.min_die_probability:
            break
        if any(
            np.hypot(place.center[0] - d.center[0], place.center[1] - d.center[1])
            < config.duplicate_share * max(side, d.side_px)
            for d in dice
        ):
            continue
        faces = probabilities[index, 1:] / die_probability[index]
        best = int(np.argmax(faces))
        value = best + 1 if faces[best] >= config.min_value_probability else None
        region = _region_near(found.regions, place.center, side, config)
        cocked = False
        if region is not None:
            pips = read_die(image_bgr, region, found.distance, config, read_value=value is None)
            cocked = pips.cocked
            if value is None and pips.value and faces[pips.value - 1] >= config.pip_min_net_share:
                value = pips.value
        dice.append(FoundDie(value, place.center, side, cocked))
    return sorted(dice, key=lambda die: (round(die.center[1]), die.center[0]))
