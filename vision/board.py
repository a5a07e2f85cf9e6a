"""Locating the playing surface (the 24 points and the bar, trays excluded) and rectifying it.

Stages, each a pure function:

1. ``locate_corners``: small networks (trained by ``vision.training.train_board`` on rendered
   tuning frames, run by ``vision.nets``). The locator (``board_locate``) sees the whole frame
   shrunk to ``locator_size`` and gives a heatmap of each corner over cells of
   ``locator_stride`` pixels, a sub-cell offset per cell, and a logit that a board is there at
   all. The refiners (``board_corner_wide``, ``board_corner``) then read, in a patch around each
   corner (mirrored so that every corner looks like a top-left one), how far the corner lies
   from the patch's centre; a step on a coarser patch, then two at full resolution, bring it to
   about a pixel. Corners are where the playing surface itself ends, also where the raised
   frame's lip hides that edge.
2. ``find_board`` accepts the outline only where the locator says a board is there, the refiner
   sees each of the four corners in its patch, the outline is plausible (convex, large
   enough), a rectangle's through a camera whose focal length is known (its corner near a
   right angle), and the bar net finds its bar in the middle: never a confident guess on a
   frame without a board. Where one corner lies on another corner-like place (a tray's, the
   frame's) or the bar net peaks on another edge too, ``search_outline`` weighs the outline
   with that corner moved to the other places the refiners see one, by how surely the bar
   net fits a bar in the middle of each, and takes one only where it stands out. (The share
   of colour variance the 24 triangles explain, the earlier search's check, does not tell
   boards from tables: on tuning frames true outlines scored 0.04-0.7, outlines on frames
   without a board 0.01-0.8.)
3. ``board_from_corners``: given the surface's corners (found, tapped on the touchscreen, passed
   as ``--corners`` or read from ArUco markers), the homography to a canonical top-down board and
   the bar's place on it (``find_bar``: a third network, ``board_bar``, over the columns of the
   rectified surface).

``snap_to_edges`` and ``board_moved`` are the cheap check, run on every frame of a located
board, that it has not moved.

Corners run top-left, top-right, bottom-right, bottom-left (DESIGN.md section 4). The board is
assumed to lie with its bar vertical in the frame (trays left and/or right), the way the kiosk's
camera is mounted; the canonical board has the bar vertical too.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

import cv2
import numpy as np
import numpy.typing as npt

from vision import nets
from vision.camera_pose import board_camera
from vision.config import BoardConfig, CameraCalibration

Image = npt.NDArray[np.uint8]
Floats = npt.NDArray[np.float32]
Corners = tuple[tuple[float, float], tuple[float, float], tuple[float, float], tuple[float, float]]
Matrix = npt.NDArray[np.float64]
Points = npt.NDArray[np.float64]  # n x 2 frame pixels

LOCATE_NET = "board_locate"  # frame -> corner heatmaps, offsets, board presence
CORNER_NET = "board_corner"  # patch around a corner -> its shift from the centre
WIDE_NET = "board_corner_wide"  # the same on a coarser, wider patch
BAR_NET = "board_bar"  # rectified surface -> the bar's two edges over its columns
CORNERS = (0, 1, 2, 3)  # TL, TR, BR, BL


@dataclass(frozen=True)
class BoardView:
    """A located playing surface: corners in the frame, the homography from frame pixels to the
    canonical board (``width`` x ``height`` pixels), and the bar's left and right x there."""

    corners: Corners
    to_canonical: Matrix
    width: int
    height: int
    bar: tuple[float, float]

    def canonical_point(self, x: float, y: float) -> tuple[float, float]:
        """Frame pixel (x, y) on the canonical board."""
        point = self.to_canonical @ np.array([x, y, 1.0])
        return (float(point[0] / point[2]), float(point[1] / point[2]))

    def frame_point(self, x: float, y: float) -> tuple[float, float]:
        """Canonical board point (x, y) in frame pixels (``canonical_point``'s inverse)."""
        point = np.linalg.solve(self.to_canonical, np.array([x, y, 1.0]))
        return (float(point[0] / point[2]), float(point[1] / point[2]))


def order_corners(points: npt.ArrayLike) -> Corners:
    """Four points as top-left, top-right, bottom-right, bottom-left (image coordinates)."""
    quad = np.asarray(points, np.float64).reshape(4, 2)
    by_y = quad[np.argsort(quad[:, 1], kind="stable")]
    top = by_y[:2][np.argsort(by_y[:2, 0], kind="stable")]
    bottom = by_y[2:][np.argsort(by_y[2:, 0], kind="stable")]
    ordered = (top[0], top[1], bottom[1], bottom[0])
    return (
        (float(ordered[0][0]), float(ordered[0][1])),
        (float(ordered[1][0]), float(ordered[1][1])),
        (float(ordered[2][0]), float(ordered[2][1])),
        (float(ordered[3][0]), float(ordered[3][1])),
    )


def _rectifier(corners: Corners, width: int, height: int) -> Matrix:
    target = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
    return cv2.getPerspectiveTransform(np.array(corners, np.float32), target).astype(np.float64)


def board_from_corners(
    image_bgr: Image,
    corners: Corners,
    config: BoardConfig,
    bar: tuple[float, float] | None = None,
) -> BoardView:
    """The canonical view of the playing surface with the given corners (TL, TR, BR, BL); the bar
    (shares of the width) is found (``find_bar``, and ``centred_bar``: the corners are taken
    as right) unless given."""
    width, height = config.canonical_width, config.canonical_height
    shares = centred_bar(find_bar(image_bgr, corners, config), config) if bar is None else bar
    return BoardView(
        corners=corners,
        to_canonical=_rectifier(corners, width, height),
        width=width,
        height=height,
        bar=(shares[0] * width, shares[1] * width),
    )


def rectify(image_bgr: Image, to_canonical: Matrix, config: BoardConfig) -> Image:
    """The canonical top-down board."""
    size = (config.canonical_width, config.canonical_height)
    return np.asarray(
        cv2.warpPerspective(image_bgr, to_canonical, size, flags=cv2.INTER_LINEAR), np.uint8
    )


def find_aruco_corners(image_bgr: Image, config: BoardConfig) -> Corners | None:
    """Surface corners from four ArUco markers (ids ``aruco_ids`` at TL, TR, BR, BL; each marker's
    corner nearest the board's centre is the surface corner), or None if any is missing."""
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, config.aruco_dictionary))
    detector = cv2.aruco.ArucoDetector(dictionary, cv2.aruco.DetectorParameters())
    marker_corners, ids, _ = detector.detectMarkers(image_bgr)
    if ids is None:
        return None
    found = {int(i): c.reshape(4, 2) for i, c in zip(ids.ravel(), marker_corners, strict=True)}
    if not all(i in found for i in config.aruco_ids):
        return None
    centre = np.mean([found[i].mean(axis=0) for i in config.aruco_ids], axis=0)
    inner = [
        found[i][int(np.argmin(np.linalg.norm(found[i] - centre, axis=1)))]
        for i in config.aruco_ids
    ]
    return order_corners(np.array(inner))


def _lab_at(image_bgr: Image, points: npt.NDArray[np.float64]) -> npt.NDArray[np.float32]:
    """Lab colours (..., 3) at the nearest pixels of ``points`` (..., 2), clipped to the image;
    only those pixels are converted."""
    height, width = image_bgr.shape[:2]
    xs = np.clip(np.rint(points[..., 0]).astype(np.intp), 0, width - 1)
    ys = np.clip(np.rint(points[..., 1]).astype(np.intp), 0, height - 1)
    picked = np.ascontiguousarray(image_bgr[ys.ravel(), xs.ravel()][:, None, :])
    lab = cv2.cvtColor(picked, cv2.COLOR_BGR2LAB).astype(np.float32)
    return lab.reshape(*points.shape[:-1], 3)


@lru_cache(maxsize=8)
def _snap_lines(reach: int, samples: int) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.intp]]:
    """For snapping: the places along a side (shares of its length), and for every pair of end
    offsets (-reach..reach pixels, first end major), the half-pixel offset step of the shifted
    side at each place (pair x place)."""
    along = np.linspace(0.08, 0.92, samples)
    ends = np.arange(-reach, reach + 1, dtype=np.float64)
    first = np.repeat(ends, len(ends))[:, None]
    second = np.tile(ends, len(ends))[:, None]
    offset = first * (1.0 - along[None, :]) + second * along[None, :]
    return along, np.rint((offset + reach) * 2).astype(np.intp)


def snap_to_edges(image_bgr: Image, corners: Corners, config: BoardConfig) -> Corners:
    """Move each side of the outline (each end independently, up to ``snap_reach_px``) onto the
    line across which the colour changes most (frame to surface), then intersect the sides.
    The colour step across each side is sampled once at half-pixel offsets; the shifted sides
    are read from it."""
    quad = np.array(corners, np.float64)
    reach = config.snap_reach_px
    along, steps_of = _snap_lines(reach, config.snap_samples)
    halves = np.arange(-2 * reach, 2 * reach + 1, dtype=np.float64) / 2
    sides = []
    for index in range(4):
        start, end = quad[index], quad[(index + 1) % 4]
        direction = (end - start) / max(1e-6, float(np.linalg.norm(end - start)))
        normal = np.array([-direction[1], direction[0]])
        base = start + along[:, None] * (end - start)  # place x xy
        points = base[None, :, :] + halves[:, None, None] * normal  # offset x place x xy
        gap = config.snap_gap_px * normal
        colours = _lab_at(image_bgr, np.stack([points + gap, points - gap]))
        step = np.sqrt(((colours[0] - colours[1]) ** 2).sum(axis=2))  # offset x place
        strength = step[steps_of, np.arange(len(along))[None, :]].mean(axis=1)
        best = int(np.argmax(strength))
        shift_a, shift_b = divmod(best, 2 * reach + 1)
        sides.append((start + (shift_a - reach) * normal, end + (shift_b - reach) * normal))
    snapped = []
    for index in range(4):
        (p1, p2), (q1, q2) = sides[index - 1], sides[index]
        d1, d2 = p2 - p1, q2 - q1
        matrix = np.array([[d1[0], -d2[0]], [d1[1], -d2[1]]])
        if abs(np.linalg.det(matrix)) < 1e-6:
            return corners
        t = np.linalg.solve(matrix, q1 - p1)[0]
        point = p1 + t * d1
        snapped.append((float(point[0]), float(point[1])))
    return (snapped[0], snapped[1], snapped[2], snapped[3])


def board_moved(image_bgr: Image, located: Corners, config: BoardConfig) -> bool:
    """Whether the board (or the camera) moved since its outline snapped to ``located`` (the
    corners ``snap_to_edges`` gave when the board was located): the frame's colour steps now
    snap some corner more than ``max_shift_px`` away. A still board snaps to the same place
    (``snap_to_edges`` is a fixed point there); a hand over a side may move it too, which only
    costs a new search. Sides are looked for only a little further than ``max_shift_px`` (a
    farther move snaps to the end of that reach)."""
    near = replace(config, snap_reach_px=math.ceil(config.max_shift_px) + 1)
    snapped = np.array(snap_to_edges(image_bgr, located, near))
    shift = np.linalg.norm(snapped - np.array(located), axis=1)
    return bool(shift.max() > config.max_shift_px)


def to_input(images_bgr: Image) -> Floats:
    """BGR images (... x height x width x 3, uint8) as the networks take them: channels first,
    scaled to -1..1 (... x 3 x height x width, float32)."""
    moved = np.moveaxis(images_bgr, -1, -3).astype(np.float32)
    return np.ascontiguousarray((moved - 127.5) / 127.5, np.float32)


def locator_image(image_bgr: Image, config: BoardConfig) -> Image:
    """The frame as the corner locator sees it: shrunk to ``locator_size``, whatever its
    aspect."""
    return np.asarray(
        cv2.resize(image_bgr, config.locator_size, interpolation=cv2.INTER_AREA), np.uint8
    )


def locator_cells(
    points: npt.NDArray[np.float64], frame_size: tuple[int, int], config: BoardConfig
) -> npt.NDArray[np.float64]:
    """Frame pixels (N x 2) in the locator's heatmap cells (continuous: cell ``c`` spans
    ``c .. c + 1``); ``frame_points`` is the inverse."""
    scale = np.array(frame_size, np.float64) / np.array(config.locator_size, np.float64)
    return np.asarray((points + 0.5) / scale / config.locator_stride)


def frame_points(
    cells: npt.NDArray[np.float64], frame_size: tuple[int, int], config: BoardConfig
) -> npt.NDArray[np.float64]:
    """Continuous heatmap cells (N x 2) back in frame pixels."""
    scale = np.array(frame_size, np.float64) / np.array(config.locator_size, np.float64)
    return np.asarray(cells * config.locator_stride * scale - 0.5)


def patch_transform(
    corner: int, point: tuple[float, float], frame_width: int, zoom: float, config: BoardConfig
) -> Matrix:
    """The affine map (2 x 3) from frame pixels to the patch around ``point`` seen by a corner
    refiner: ``patch_px`` square, centred on the point, ``zoom * frame_width /
    patch_reference_width`` frame pixels per patch pixel, mirrored so that every corner (0..3:
    TL, TR, BR, BL) looks like a top-left one (the surface to the right of and below it)."""
    scale = zoom * frame_width / config.patch_reference_width
    flip_x = -1.0 if corner in (1, 2) else 1.0
    flip_y = -1.0 if corner in (2, 3) else 1.0
    half = config.patch_px / 2
    return np.array(
        [
            [flip_x / scale, 0.0, half - flip_x * point[0] / scale],
            [0.0, flip_y / scale, half - flip_y * point[1] / scale],
        ]
    )


def corner_patches(
    image_bgr: Image,
    points: Points,
    zoom: float,
    config: BoardConfig,
    corners: Sequence[int] = CORNERS,
) -> Image:
    """A refiner's view of the frame: the patch (``patch_transform``) around each point, as
    the corner (0..3: TL, TR, BR, BL) ``corners`` says it is (by default the four points are
    the four corners), n x patch_px x patch_px x 3."""
    size = (config.patch_px, config.patch_px)
    width = image_bgr.shape[1]
    return np.stack(
        [
            np.asarray(
                cv2.warpAffine(
                    image_bgr,
                    patch_transform(corner, (float(x), float(y)), width, zoom, config),
                    size,
                    flags=cv2.INTER_LINEAR,
                    borderMode=cv2.BORDER_REPLICATE,
                ),
                np.uint8,
            )
            for corner, (x, y) in zip(corners, points, strict=True)
        ]
    )


def patch_shift_to_frame(
    corner: int, shift: npt.NDArray[np.float64], frame_width: int, zoom: float, config: BoardConfig
) -> npt.NDArray[np.float64]:
    """A shift (dx, dy) in patch pixels of corner ``corner``'s patch as a shift in the frame."""
    scale = zoom * frame_width / config.patch_reference_width
    flips = np.array([-1.0 if corner in (1, 2) else 1.0, -1.0 if corner in (2, 3) else 1.0])
    return np.asarray(shift * flips * scale)


def bar_image(image_bgr: Image, corners: Corners, config: BoardConfig) -> Image:
    """The bar net's view: the surface with these corners rectified to ``bar_input_size`` (the
    width kept, the height shrunk twice more by area averaging)."""
    width, height = config.bar_input_size
    surface = cv2.warpPerspective(
        image_bgr, _rectifier(corners, width, 2 * height), (width, 2 * height)
    )
    return np.asarray(cv2.resize(surface, (width, height), interpolation=cv2.INTER_AREA), np.uint8)


def _soft_peak(logits: Floats, reach: int, top: int | None = None) -> float:
    """Sub-cell position of a 1-D logit profile's peak: the softmax-weighted mean position
    within ``reach`` cells of cell ``top`` (by default its highest cell)."""
    top = int(np.argmax(logits)) if top is None else top
    low, high = max(0, top - reach), min(len(logits), top + reach + 1)
    window = logits[low:high].astype(np.float64)
    weights = np.exp(window - window.max())
    return float((weights * np.arange(low, high)).sum() / weights.sum())


def bar_logits(image_bgr: Image, corners: Corners, config: BoardConfig) -> Floats:
    """The bar net's (``board_bar``, trained by ``vision.training.train_board``) logits of the
    bar's left and right edge over the columns of the surface with these corners rectified
    (2 x ``bar_input_size`` width)."""
    (logits,) = nets.run(BAR_NET, to_input(bar_image(image_bgr, corners, config))[None])
    return np.asarray(logits[0].reshape(2, -1), np.float32)


def find_bar(image_bgr: Image, corners: Corners, config: BoardConfig) -> tuple[float, float]:
    """The bar (left and right edge, shares of the surface's width) of the surface with these
    corners: the peaks of the two edge profiles (``bar_logits``)."""
    logits = bar_logits(image_bgr, corners, config)
    width = logits.shape[1]
    left, right = (_soft_peak(profile, config.peak_reach) for profile in logits)
    return (left / width, right / width)


@dataclass(frozen=True)
class BarFit:
    """The likeliest bar in the surface's middle (``centred_bar_fit``): its left and right
    edge (shares of the width), the two edges' logits summed (``score``) and how far that
    falls short of the two profiles' own peaks summed (``deficit``: 0 where the edges found
    alone are centred)."""

    bar: tuple[float, float]
    score: float
    deficit: float


def centred_bar_fit(logits: Floats, config: BoardConfig) -> BarFit:
    """The pair of bar edges (``bar_logits``) with the highest summed logits of those
    ``bar_centred`` takes (within ``max_bar_offset_px`` of the middle, a bar's width): where
    the net peaks on another edge too (a point's, a checker's), the surface's true bar may
    still be read, a little less surely."""
    left, right = logits[0], logits[1]
    width = len(left)
    lefts, rights = np.arange(width)[:, None], np.arange(width)[None, :]
    reach = 2.0 * config.max_bar_offset_px / config.canonical_width * width
    centred = np.abs(lefts + rights - width) <= reach
    allowed = centred & _bar_wide((rights - lefts) / width, config)
    sums = np.where(allowed, left[:, None].astype(np.float64) + right[None, :], -np.inf)
    best = int(np.argmax(sums))
    low, high = divmod(best, width)
    score = float(sums.flat[best])
    edges = (
        _soft_peak(left, config.peak_reach, low) / width,
        _soft_peak(right, config.peak_reach, high) / width,
    )
    return BarFit(edges, score, float(left.max()) + float(right.max()) - score)


def _bar_wide(share: npt.ArrayLike, config: BoardConfig) -> npt.NDArray[np.bool_]:
    """Whether a bar ``share`` of the surface's width wide (or each of an array of them) is as
    wide as a bar can be."""
    share = np.asarray(share)
    return np.asarray((config.min_bar_share <= share) & (share <= config.max_bar_share))


def bar_centred(shares: tuple[float, float], config: BoardConfig, max_offset_px: float) -> bool:
    """Whether a found bar (left and right edge, shares of the width) lies in the surface's
    middle, within ``max_offset_px`` canonical pixels, and is a bar's width."""
    left, right = shares
    offset_px = abs(left + right - 1.0) / 2 * config.canonical_width
    return offset_px <= max_offset_px and bool(_bar_wide(right - left, config))


def centred_bar(shares: tuple[float, float], config: BoardConfig) -> tuple[float, float]:
    """A found bar (left and right edge, shares of the width) as it must lie on a surface
    whose corners are about right: as found where ``bar_centred`` within
    ``max_given_bar_offset_px`` (corners tapped a little off move the bar off the middle too);
    otherwise centred, each side half as wide as the distance from the middle to the first of
    its found edges (left, then right) that gives a bar ``min_bar_share`` .. ``max_bar_share``
    wide, or half ``usual_bar_share`` where neither does."""
    if bar_centred(shares, config, config.max_given_bar_offset_px):
        return shares
    halves = (0.5 - shares[0], shares[1] - 0.5)
    plausible = [half for half in halves if bool(_bar_wide(2 * half, config))]
    half = plausible[0] if plausible else config.usual_bar_share / 2
    return (0.5 - half, 0.5 + half)


def _refine(
    image_bgr: Image, points: Points, config: BoardConfig, corners: Sequence[int] = CORNERS
) -> tuple[Points, Floats]:
    """The points (n x 2), each taken for the corner ``corners`` says (by default the four
    corners), moved by the wide refiner (``wide_steps`` times) and then the refiner
    (``refine_steps`` times), with the last one's logits that its patches show such corners."""
    width = image_bgr.shape[1]
    steps = [(WIDE_NET, config.wide_zoom)] * config.wide_steps
    logits = np.zeros(len(points), np.float32)
    for net, zoom in steps + [(CORNER_NET, 1.0)] * config.refine_steps:
        patches = corner_patches(image_bgr, points, zoom, config, corners)
        (read,) = nets.run(net, to_input(patches))
        moves = [
            patch_shift_to_frame(corner, read[i, :2].astype(np.float64), width, zoom, config)
            for i, corner in enumerate(corners)
        ]
        points = points + np.stack(moves)
        logits = read[:, 2]
    return points, logits


# The ways the locator reads the shrunk frame where ``BoardConfig.locator_mirrored``, as it
# learnt frames (``vision.training.train_board``): (mirrored left to right, upside down), and
# which corner of the frame so mirrored each corner of the frame as it is (TL, TR, BR, BL) is.
LOCATOR_MIRRORS = {
    (True, False): [1, 0, 3, 2],
    (False, True): [3, 2, 1, 0],
    (True, True): [2, 3, 0, 1],
}


def locator_outputs(small: Floats, config: BoardConfig) -> tuple[Floats, Floats, float]:
    """The locator on the shrunk frame (``to_input`` of ``locator_image``): each corner's
    heatmap logits (4 x cells down x cells across), its sub-cell offsets (8 x cells down x
    cells across: x and y per corner) and the board's presence logit. Where
    ``config.locator_mirrored``, the frame is read each way of ``LOCATOR_MIRRORS`` too and the
    outputs, turned back to the frame as it is, averaged with its own."""
    mirrors = list(LOCATOR_MIRRORS.items()) if config.locator_mirrored else []
    views = [
        small[:, :: -1 if down else 1, :: -1 if across else 1] for (across, down), _ in mirrors
    ]
    heats, offsets, presence = nets.run(LOCATE_NET, np.ascontiguousarray(np.stack([small, *views])))
    rows, columns = heats.shape[2:]
    offsets = offsets.reshape(len(heats), 4, 2, rows, columns)
    for index, ((across, down), corners) in enumerate(mirrors, start=1):
        heat, offset = heats[index], offsets[index]
        if across:
            heat, offset = (
                heat[:, :, ::-1],
                offset[..., ::-1] * np.array([-1.0, 1.0])[:, None, None],
            )
        if down:
            heat, offset = (
                heat[:, ::-1],
                offset[..., ::-1, :] * np.array([1.0, -1.0])[:, None, None],
            )
        heats[index], offsets[index] = heat[corners], offset[corners]
    return (
        heats.mean(axis=0),
        offsets.mean(axis=0).reshape(8, rows, columns),
        float(presence.mean()),
    )


def _as_corners(points: Points) -> Corners:
    """Four points (4 x 2: TL, TR, BR, BL) as corners."""
    quad = [(float(x), float(y)) for x, y in points]
    return (quad[0], quad[1], quad[2], quad[3])


def _located(image_bgr: Image, config: BoardConfig) -> tuple[Points, Floats] | None:
    """The four corners (TL, TR, BR, BL) the networks put the surface's at, with the
    refiner's logits that each patch shows such a corner; None where they see no board. The
    locator (``board_locate``) gives each corner's heatmap over cells of the shrunk frame with
    a sub-cell offset, and whether a board is there (``locator_outputs``); the wide refiner
    (``board_corner_wide``, ``wide_zoom`` times coarser) and the refiner (``board_corner``, at
    full resolution) then move each corner by the shift they read in the patch around it. A
    corner whose patch shows none (the locator put it beyond the refiners' reach) starts again
    where the other three put it (the fourth corner of their parallelogram), kept where all
    four are then seen."""
    height, width = image_bgr.shape[:2]
    if min(height, width) < config.min_frame_px:
        return None
    heat, offsets, presence = locator_outputs(to_input(locator_image(image_bgr, config)), config)
    if presence < config.min_presence_logit:
        return None
    cells_x = heat.shape[2]
    peaks = np.argmax(heat.reshape(4, -1), axis=1)
    rows, columns = np.divmod(peaks, cells_x)
    shift = offsets.reshape(4, 2, -1)[np.arange(4), :, peaks]
    cells = np.stack([columns, rows], axis=1) + 0.5 + shift
    points, logits = _refine(image_bgr, frame_points(cells, (width, height), config), config)
    failed = np.flatnonzero(logits < config.min_corner_logit)
    if len(failed) == 1:
        k = int(failed[0])
        again = points.copy()
        again[k] = points[(k + 1) % 4] + points[(k + 3) % 4] - points[(k + 2) % 4]
        again, again_logits = _refine(image_bgr, again, config)
        if float(again_logits.min()) >= config.min_corner_logit:
            return again, again_logits
    return points, logits


def locate_corners(image_bgr: Image, config: BoardConfig) -> Corners | None:
    """The surface's corners (TL, TR, BR, BL) found by the networks (``_located``), or None
    where they see no board or the refiner does not see all four corners."""
    located = _located(image_bgr, config)
    if located is None or float(located[1].min()) < config.min_corner_logit:
        return None
    return _as_corners(located[0])


def _plausible(corners: Corners, frame_area: float, config: BoardConfig) -> bool:
    """Whether an outline can be a playing surface: convex, in the order TL, TR, BR, BL, and at
    least ``min_board_share`` of the frame."""
    quad = np.array(corners, np.float32)
    area = float(cv2.contourArea(quad, oriented=True))
    return cv2.isContourConvex(quad) and area >= config.min_board_share * frame_area


def _corner_places(
    image_bgr: Image, points: Points, corner: int, config: BoardConfig
) -> list[Points]:
    """Other places for corner ``corner`` (0..3) of the outline ``points``: where the
    refiners, started from a grid of ``2 * search_steps + 1`` points a side,
    ``search_step_px`` apart (on a frame ``patch_reference_width`` wide) around it, end seeing
    such a corner; the surest first, at most ``search_places``, each ``search_apart_px`` or
    more from the others and from the corner itself."""
    scale = image_bgr.shape[1] / config.patch_reference_width
    steps = np.arange(-config.search_steps, config.search_steps + 1) * config.search_step_px * scale
    starts = points[corner] + np.stack(np.meshgrid(steps, steps), axis=-1).reshape(-1, 2)
    ends, logits = _refine(image_bgr, starts, config, [corner] * len(starts))
    places: list[Points] = []
    for index in np.argsort(-logits):
        if logits[index] < config.min_corner_logit or len(places) == config.search_places:
            break
        if all(
            math.dist(ends[index], p) >= config.search_apart_px for p in [points[corner], *places]
        ):
            places.append(ends[index])
    return places


def _square(
    outline: Points, shape: tuple[int, ...], degrees: float, camera: CameraCalibration | None
) -> bool:
    """Whether an outline (4 x 2) in a frame of this ``shape`` can be a rectangle's seen
    through a ``camera`` whose focal length is known: its corner within ``degrees`` of a
    right angle (``vision.camera_pose.BoardCamera.skew_degrees``). True where the focal
    length is not known (the outline's right angle then gives it)."""
    if camera is None or camera.focal_length is None:
        return True
    height, width = shape[:2]
    seen = board_camera(
        _as_corners(outline), width, height, camera.principal_point, camera.focal_length
    )
    return seen.skew_degrees() <= degrees


def _bar_fit_of(image_bgr: Image, outline: Points, config: BoardConfig) -> BarFit | None:
    """``centred_bar_fit`` of the surface with this outline (4 x 2), None where the outline
    is not plausible."""
    corners = _as_corners(outline)
    if not _plausible(corners, image_bgr.shape[0] * image_bgr.shape[1], config):
        return None
    return centred_bar_fit(bar_logits(image_bgr, corners, config), config)


@dataclass(frozen=True)
class _Weighed:
    """An outline the search weighs (4 x 2), its bar's ``fit`` and whether it can be a
    rectangle's through the camera (``_square``)."""

    outline: Points
    fit: BarFit
    square: bool


def _weighed(
    image_bgr: Image, outline: Points, config: BoardConfig, camera: CameraCalibration | None
) -> _Weighed | None:
    """An outline (4 x 2) with its bar's fit (``_bar_fit_of``; None where it is not
    plausible) and whether it can be a rectangle's through ``camera``."""
    fit = _bar_fit_of(image_bgr, outline, config)
    if fit is None:
        return None
    return _Weighed(
        outline, fit, _square(outline, image_bgr.shape, config.max_skew_degrees, camera)
    )


def search_outline(
    image_bgr: Image,
    points: Points,
    logits: Floats,
    config: BoardConfig,
    camera: CameraCalibration | None = None,
) -> tuple[Corners, tuple[float, float]] | None:
    """The outline and bar of a surface whose located corners (``points``, with the refiner's
    ``logits``) fail ``find_board``'s checks, where a corner lies on another corner-like
    place (a tray's, the frame's; then the bar is off the middle or the refiner does not see
    that corner) or the bar net peaks on another edge too. The outline as located, where the
    refiner sees its four corners and the bar net fits a bar in its middle
    (``centred_bar_fit``) ``located_bar_deficit`` or less short of its own peaks, is taken
    with that bar. Otherwise it and each outline with one corner moved to another place the
    refiners see one (``_corner_places``; only the corners they do not see, where there are
    any) are weighed, each plausible one by its fit: the one whose fit falls short of the
    net's own peaks by ``max_bar_deficit`` or less and scores highest is taken, unless an
    outline with a corner ``search_rival_px`` or more from it scores within ``search_margin``
    of it. Through a ``camera`` whose focal length is known only outlines that can be a
    rectangle's (``_square``, within ``max_skew_degrees``) are taken or rivals, and none is
    taken where an outline that cannot be scores ``search_margin`` or more above it (none of
    them is the surface's). None where the refiner does not see two corners that share no
    side, or more than two, or no outline is taken."""
    failed = np.flatnonzero(logits < config.min_corner_logit)
    if len(failed) > 2 or (len(failed) == 2 and (failed[1] - failed[0]) % 2 == 0):
        return None
    located = _weighed(image_bgr, points, config, camera)
    if (
        not len(failed)
        and located is not None
        and located.square
        and located.fit.deficit <= config.located_bar_deficit
    ):
        return _as_corners(points), located.fit.bar
    weighed = [] if located is None else [located]
    for corner in failed if len(failed) else CORNERS:
        for place in _corner_places(image_bgr, points, int(corner), config):
            moved = points.copy()
            moved[corner] = place
            other = _weighed(image_bgr, moved, config, camera)
            if other is not None:
                weighed.append(other)
    squares = [w for w in weighed if w.square]
    taken = [w for w in squares if w.fit.deficit <= config.max_bar_deficit]
    if not taken:
        return None
    best = max(taken, key=lambda w: w.fit.score)
    rivals = [
        w.fit.score
        for w in squares
        if float(np.linalg.norm(w.outline - best.outline, axis=1).max()) >= config.search_rival_px
    ]
    if rivals and best.fit.score - max(rivals) < config.search_margin:
        return None
    if any(w.fit.score - best.fit.score >= config.search_margin for w in weighed if not w.square):
        return None
    return _as_corners(best.outline), best.fit.bar


def find_board(
    image_bgr: Image, config: BoardConfig, camera: CameraCalibration | None = None
) -> BoardView | None:
    """The playing surface without markers (``_located``), where the refiner sees all four
    corners, the outline is plausible, a rectangle's through a ``camera`` whose focal length
    is known (``_square``, within ``max_located_skew_degrees``), and its bar centred (the bar
    lies halfway across the surface, so an outline whose side lies on a tray's or the frame's
    edge shows it off-centre); where not, the outline ``search_outline`` finds
    (``outline_search``); else from ArUco markers. None if none is seen."""
    located = _located(image_bgr, config)
    if located is not None:
        points, logits = located
        corners = _as_corners(points)
        if (
            float(logits.min()) >= config.min_corner_logit
            and _plausible(corners, image_bgr.shape[0] * image_bgr.shape[1], config)
            and _square(points, image_bgr.shape, config.max_located_skew_degrees, camera)
        ):
            bar = find_bar(image_bgr, corners, config)
            if bar_centred(bar, config, config.max_bar_offset_px):
                return board_from_corners(image_bgr, corners, config, bar)
        searched = (
            search_outline(image_bgr, points, logits, config, camera)
            if config.outline_search
            else None
        )
        if searched is not None:
            return board_from_corners(image_bgr, searched[0], config, searched[1])
    markers = find_aruco_corners(image_bgr, config)
    return None if markers is None else board_from_corners(image_bgr, markers, config)
