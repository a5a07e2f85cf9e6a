"""Locating the playing surface (the 24 points and the bar, trays excluded) and rectifying it.

Stages, each a pure function:

1. ``find_outer_board``: the board (frame and trays included) is bounded by the outermost long
   straight edges (Hough lines on Canny edges) near horizontal and vertical.
2. ``find_surface``: the outer board is rectified; straight edges running along its height (in the
   band between the two rows of points) or width are found from colour steps of column and row
   medians; candidate outlines on them are scored by ``pattern_score``, how well the rectified
   surface shows 24 alternating triangles with a bar between the halves. The best outline is kept
   if it scores at least ``min_pattern_score`` (otherwise no board: never a confident guess), then
   ``snap_to_edges`` moves each side onto the strongest colour step nearby.
3. ``board_from_corners``: given the surface's corners (found, tapped on the touchscreen, passed
   as ``--corners`` or read from ArUco markers), the homography to a canonical top-down board and
   the bar's place on it (``find_bar``).

Corners run top-left, top-right, bottom-right, bottom-left (DESIGN.md section 4). The board is
assumed to lie with its bar vertical in the frame (trays left and/or right), the way the kiosk's
camera is mounted; the canonical board has the bar vertical too.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache

import cv2
import numpy as np
import numpy.typing as npt

from vision.config import BoardConfig

Image = npt.NDArray[np.uint8]
Corners = tuple[tuple[float, float], tuple[float, float], tuple[float, float], tuple[float, float]]
Matrix = npt.NDArray[np.float64]


@dataclass(frozen=True)
class BoardView:
    """A located playing surface: corners in the frame, the homography from frame pixels to the
    canonical board (``width`` x ``height`` pixels), and the bar's left and right x there;
    ``slots``, the surface's height in slot spacings (checker centre to centre along a point),
    once measured (``vision.checkers.read_checkers``; None: measure on each frame)."""

    corners: Corners
    to_canonical: Matrix
    width: int
    height: int
    bar: tuple[float, float]
    slots: float | None = None

    def canonical_point(self, x: float, y: float) -> tuple[float, float]:
        """Frame pixel (x, y) on the canonical board."""
        point = self.to_canonical @ np.array([x, y, 1.0])
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


def _lab(image_bgr: Image) -> npt.NDArray[np.float32]:
    return cv2.cvtColor(image_bgr, cv2.COLOR_BGR2LAB).astype(np.float32)


def find_outer_board(image_bgr: Image, config: BoardConfig) -> Corners | None:
    """Corners of the whole board (frame and trays included), or None: the outermost long
    straight edges (Hough lines on Canny edges at half resolution) near horizontal above and below
    the middle of the edges, near vertical left and right of it. Hands, shadows and glare bend no
    long straight line; the table's texture makes none as long as a board's side."""
    height, width = image_bgr.shape[:2]
    if min(height, width) < 32:
        return None
    small = cv2.resize(image_bgr, (width // 2, height // 2), interpolation=cv2.INTER_AREA)
    grey = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), (5, 5), 0)
    edges = cv2.Canny(grey, config.canny_low, config.canny_high)
    votes = max(10, round(config.side_vote_share * min(small.shape[:2])))
    lines = cv2.HoughLines(edges, 1, np.pi / 360, votes)
    if lines is None:
        return None
    ys, xs = np.nonzero(edges)
    centre = np.array([xs.mean(), ys.mean()])
    tilt = np.deg2rad(config.max_side_tilt_deg)
    sides: dict[str, tuple[float, tuple[float, float]]] = {}
    for rho, theta in lines[:, 0]:
        normal = np.array([np.cos(theta), np.sin(theta)])
        offset = float(rho - normal @ centre)  # signed distance from the centre along the normal
        if abs(theta - np.pi / 2) < tilt:
            name = "bottom" if offset > 0 else "top"
        elif theta < tilt:
            name = "right" if offset > 0 else "left"
        elif theta > np.pi - tilt:
            name = "left" if offset > 0 else "right"
        else:
            continue
        if name not in sides or abs(offset) > sides[name][0]:
            sides[name] = (abs(offset), (float(rho), float(theta)))
    if len(sides) < 4:
        return None
    order = (("top", "left"), ("top", "right"), ("bottom", "right"), ("bottom", "left"))
    corners = [_intersection(sides[a][1], sides[b][1]) for a, b in order]
    if any(c is None for c in corners):
        return None
    quad = np.array(corners, np.float64) * 2.0
    if cv2.contourArea(quad.astype(np.float32)) < config.min_board_share * height * width:
        return None
    return order_corners(quad)


def _intersection(
    first: tuple[float, float], second: tuple[float, float]
) -> tuple[float, float] | None:
    """Where two lines (rho, theta) cross; None if they are nearly parallel."""
    matrix = np.array(
        [[np.cos(first[1]), np.sin(first[1])], [np.cos(second[1]), np.sin(second[1])]]
    )
    if abs(np.linalg.det(matrix)) < 1e-3:
        return None
    x, y = np.linalg.solve(matrix, np.array([first[0], second[0]]))
    return (float(x), float(y))


def _rectifier(corners: Corners, width: int, height: int) -> Matrix:
    target = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
    return cv2.getPerspectiveTransform(np.array(corners, np.float32), target).astype(np.float64)


def _line_positions(steps: npt.NDArray[np.float64], config: BoardConfig) -> list[float]:
    """Positions (pixels) of the local maxima of a colour-step profile above ``min_step``."""
    positions: list[float] = []
    for index in range(1, len(steps) - 1):
        value = steps[index]
        if value >= config.min_step and value >= steps[index - 1] and value > steps[index + 1]:
            positions.append(float(index))
    return positions


def _steps(profile: npt.NDArray[np.float32], reach: int) -> npt.NDArray[np.float64]:
    """Lab distance between the profile ``reach`` pixels before and after each position."""
    padded = np.pad(profile, ((reach, reach), (0, 0)), mode="edge")
    difference = padded[2 * reach :] - padded[: -2 * reach]
    return np.asarray(np.sqrt(np.einsum("ij,ij->i", difference, difference)), np.float64)


def _edge_steps(
    image_bgr: Image, config: BoardConfig
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Colour steps across the columns and across the rows of a rectified image: the median
    colour of each column (row) compared with its neighbours'. Columns are taken in the middle
    band between the two rows of points, where only the frame, the trays and the bar break the
    surface. An edge running the whole width is a sharp step across the rows."""
    lab = _lab(image_bgr)
    height = lab.shape[0]
    band = lab[round(height * config.middle_band[0]) : round(height * config.middle_band[1])]
    columns = np.median(band, axis=0)
    rows = np.median(lab, axis=1)
    return _steps(columns, config.step_reach_px), _steps(rows, config.step_reach_px)


def _strongest(steps: npt.NDArray[np.float64], low: float, high: float, count: int) -> list[float]:
    """Positions of up to ``count`` strongest local step maxima within [low, high)."""
    start, stop = max(1, round(low)), min(len(steps) - 1, round(high))
    peaks = [
        index
        for index in range(start, stop)
        if steps[index] >= steps[index - 1] and steps[index] > steps[index + 1]
    ]
    peaks.sort(key=lambda index: -steps[index])
    return [float(index) for index in peaks[:count]]


def _boxes(
    columns: npt.NDArray[np.float64], rows: npt.NDArray[np.float64], config: BoardConfig
) -> list[tuple[float, float, float, float]]:
    """Outlines (left, right, top, bottom) whose sides lie on straight edges: top and bottom
    among the strongest inner frame edges, left and right among the vertical edges, of a
    plausible width for their height."""
    height = len(rows)
    low, high = config.min_frame_share * height, config.max_frame_share * height
    tops = _strongest(rows, low, high, 2) or [0.0]
    bottoms = _strongest(rows, height - high, height - low, 2) or [float(height)]
    xs = _line_positions(columns, config)
    return [
        (left, right, top, bottom)
        for top in tops
        for bottom in bottoms
        for i, left in enumerate(xs)
        for right in xs[i + 1 :]
        if config.min_aspect <= (right - left) / (bottom - top) <= config.max_aspect
    ]


def _bars(
    columns: npt.NDArray[np.float64], left: float, right: float, config: BoardConfig
) -> list[tuple[float, float]]:
    """Bars (shares of the width between ``left`` and ``right``): the strongest pairs of straight
    edges splitting equal halves, and centred bars of a few typical widths."""
    xs = [x for x in _line_positions(columns, config) if left < x < right]
    span = right - left
    pairs = sorted(
        (
            (-(columns[round(a)] + columns[round(b)]), ((a - left) / span, (b - left) / span))
            for i, a in enumerate(xs)
            for b in xs[i + 1 :]
        ),
        key=lambda item: item[0],
    )
    bars = [bar for _, bar in pairs if _plausible_bar(bar, config)][: config.max_bars]
    return bars + [(0.5 - share / 2, 0.5 + share / 2) for share in config.bar_shares]


def _plausible_bar(bar: tuple[float, float], config: BoardConfig) -> bool:
    """A bar (shares of the surface's width) of a plausible width, splitting equal halves."""
    return (
        config.min_bar_share <= bar[1] - bar[0] <= config.max_bar_share
        and abs(bar[0] - (1.0 - bar[1])) <= config.max_half_mismatch
    )


@lru_cache(maxsize=256)
def _point_labels(
    width: int, height: int, bar: tuple[float, float], length: float
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.intp]]:
    """For a small rectified surface: which pixels lie in the two rows of points, and their class
    there (per row: ground, odd triangles, even triangles)."""
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float64)
    u, v = (xs + 0.5) / width, (ys + 0.5) / height
    left_half, right_half = bar[0], 1.0 - bar[1]
    column = np.where(
        u < bar[0], u / left_half * 6, np.where(u > bar[1], (u - bar[1]) / right_half * 6, -1.0)
    )
    within = column - np.floor(column)
    depth = np.where(v < 0.5, v, 1.0 - v) / length  # 0 at the base, 1 at the tip
    in_rows = (depth < 1.0) & (column >= 0)
    inside = np.abs(within - 0.5) < 0.5 * (1.0 - depth)
    parity = np.floor(np.maximum(column, 0)).astype(np.intp) % 2
    labels = np.where(inside, 1 + parity, 0) + np.where(v < 0.5, 0, 3)
    return in_rows, labels[in_rows].ravel()


def pattern_score(
    lab: npt.NDArray[np.float32], bar: tuple[float, float], config: BoardConfig
) -> float:
    """How well a small rectified surface (Lab) shows the points of a board with this bar (shares
    of the width): the share of the colour variance in the two rows of points explained by
    splitting each row into odd triangles, even triangles and the ground between them. Near 0
    for a wrong outline; a right one scores well above ``min_pattern_score``."""
    height, width = lab.shape[:2]
    key = (round(bar[0], 3), round(bar[1], 3))
    in_rows, labels = _point_labels(width, height, key, config.point_length_share)
    pixels = lab[in_rows].astype(np.float64)
    centred = pixels - pixels.mean(axis=0)
    total = float(np.einsum("ij,ij->", centred, centred))
    if total <= 0:
        return 0.0
    counts = np.bincount(labels, minlength=6).astype(np.float64)
    sums = np.stack([np.bincount(labels, centred[:, k], minlength=6) for k in range(3)], axis=1)
    explained = float((sums**2).sum(axis=1).dot(1.0 / np.maximum(counts, 1.0)))
    return explained / total


def small_surface(image_bgr: Image, corners: Corners, config: BoardConfig) -> Image:
    """The surface with these corners rectified to the small size used to score outlines."""
    size = (config.score_width, config.score_height)
    to_small = _rectifier(corners, *size)
    return np.asarray(
        cv2.warpPerspective(image_bgr, to_small, size, flags=cv2.INTER_AREA), np.uint8
    )


def find_surface(
    image_bgr: Image, outer: Corners, config: BoardConfig
) -> tuple[Corners, tuple[float, float]] | None:
    """Corners of the playing surface inside the outer board and its bar (shares of its width):
    the candidate whose rectified image shows the points best, if it shows them well enough."""
    (tl, tr, br, bl) = (np.array(c) for c in outer)
    across = float(np.linalg.norm(tr - tl) + np.linalg.norm(br - bl))
    down = float(np.linalg.norm(bl - tl) + np.linalg.norm(br - tr))
    aspect = across / max(1e-6, down)
    height = config.outer_height_px
    width = max(1, round(height * aspect))
    to_outer = _rectifier(outer, width, height)
    rectified = np.asarray(cv2.warpPerspective(image_bgr, to_outer, (width, height)), np.uint8)
    columns, rows = _edge_steps(rectified, config)
    from_outer = np.linalg.inv(to_outer)
    typical = (0.5 - config.bar_shares[1] / 2, 0.5 + config.bar_shares[1] / 2)
    ranked: list[tuple[float, Corners, float, float]] = []
    for left, right, top, bottom in _boxes(columns, rows, config):
        box = np.array([[left, top], [right, top], [right, bottom], [left, bottom]], np.float64)
        back = cv2.perspectiveTransform(box.reshape(1, 4, 2), from_outer).reshape(4, 2)
        corners = order_corners(back)
        lab = _lab(small_surface(image_bgr, corners, config))
        ranked.append((pattern_score(lab, typical, config), corners, left, right))
    ranked.sort(key=lambda item: -item[0])
    best: tuple[float, Corners, tuple[float, float]] | None = None
    for _, corners, left, right in ranked[: config.max_boxes]:
        lab = _lab(small_surface(image_bgr, corners, config))
        for bar in _bars(columns, left, right, config):
            score = pattern_score(lab, bar, config)
            if best is None or score > best[0]:
                best = (score, corners, bar)
    if best is None or best[0] < config.min_pattern_score:
        return None
    return best[1], best[2]


def find_bar(image_bgr: Image, corners: Corners, config: BoardConfig) -> tuple[float, float]:
    """The bar (left and right, shares of the surface's width) of the surface with these corners:
    among the pairs of straight edges around the middle and centred bars of typical widths, the
    one under which the points show best."""
    small_bgr = small_surface(image_bgr, corners, config)
    lab = _lab(small_bgr)
    columns, _ = _edge_steps(small_bgr, config)
    width = config.score_width
    xs = [x / width for x in _line_positions(columns, config)]
    bars = [(a, b) for i, a in enumerate(xs) for b in xs[i + 1 :]]
    bars += [(0.5 - share / 2, 0.5 + share / 2) for share in config.bar_shares]
    plausible = [bar for bar in bars if _plausible_bar(bar, config)]
    return max(plausible, key=lambda bar: pattern_score(lab, bar, config))


def board_from_corners(
    image_bgr: Image,
    corners: Corners,
    config: BoardConfig,
    bar: tuple[float, float] | None = None,
) -> BoardView:
    """The canonical view of the playing surface with the given corners (TL, TR, BR, BL); the bar
    (shares of the width) is found unless given."""
    width, height = config.canonical_width, config.canonical_height
    shares = find_bar(image_bgr, corners, config) if bar is None else bar
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


def _sample(
    lab: npt.NDArray[np.float32], points: npt.NDArray[np.float64]
) -> npt.NDArray[np.float32]:
    """Lab colours at the nearest pixels of ``points`` (..., 2), clipped to the image."""
    height, width = lab.shape[:2]
    xs = np.clip(np.rint(points[..., 0]).astype(np.intp), 0, width - 1)
    ys = np.clip(np.rint(points[..., 1]).astype(np.intp), 0, height - 1)
    return lab[ys, xs]


def snap_to_edges(image_bgr: Image, corners: Corners, config: BoardConfig) -> Corners:
    """Move each side of the outline (each end independently, up to ``snap_reach_px``) onto the
    line across which the colour changes most (frame to surface), then intersect the sides."""
    # only the outline's bounding box (and the reach around it) is looked at
    quad = np.array(corners, np.float64)
    margin = config.snap_reach_px + config.snap_gap_px + 2
    height, width = image_bgr.shape[:2]
    x0, y0 = np.clip(np.floor(quad.min(axis=0) - margin).astype(int), 0, [width, height])
    x1, y1 = np.clip(np.ceil(quad.max(axis=0) + margin).astype(int) + 1, 0, [width, height])
    if x1 <= x0 or y1 <= y0:
        return corners
    lab = _lab(image_bgr[y0:y1, x0:x1])
    quad -= (x0, y0)
    offsets = np.arange(-config.snap_reach_px, config.snap_reach_px + 1, dtype=np.float64)
    along = np.linspace(0.08, 0.92, config.snap_samples)
    sides = []
    for index in range(4):
        start, end = quad[index], quad[(index + 1) % 4]
        direction = (end - start) / max(1e-6, float(np.linalg.norm(end - start)))
        normal = np.array([-direction[1], direction[0]])
        # every pair of end offsets: points (pair, sample, xy) on the shifted side
        a = start[None, :] + offsets[:, None] * normal[None, :]
        b = end[None, :] + offsets[:, None] * normal[None, :]
        ends_a = np.repeat(a, len(offsets), axis=0)
        ends_b = np.tile(b, (len(offsets), 1))
        points = ends_a[:, None, :] + along[None, :, None] * (ends_b - ends_a)[:, None, :]
        gap = config.snap_gap_px * normal
        step = _sample(lab, points + gap) - _sample(lab, points - gap)
        strength = np.sqrt((step**2).sum(axis=2)).mean(axis=1)
        best = int(np.argmax(strength))
        sides.append((ends_a[best], ends_b[best]))
    snapped = []
    for index in range(4):
        (p1, p2), (q1, q2) = sides[index - 1], sides[index]
        d1, d2 = p2 - p1, q2 - q1
        matrix = np.array([[d1[0], -d2[0]], [d1[1], -d2[1]]])
        if abs(np.linalg.det(matrix)) < 1e-6:
            return corners
        t = np.linalg.solve(matrix, q1 - p1)[0]
        point = p1 + t * d1
        snapped.append((float(point[0] + x0), float(point[1] + y0)))
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


def find_board(image_bgr: Image, config: BoardConfig) -> BoardView | None:
    """The playing surface without markers, else from ArUco markers; None if neither is seen."""
    outer = find_outer_board(image_bgr, config)
    surface = None if outer is None else find_surface(image_bgr, outer, config)
    if surface is not None:
        snapped = snap_to_edges(image_bgr, surface[0], config)
        return board_from_corners(image_bgr, snapped, config, surface[1])
    corners = find_aruco_corners(image_bgr, config)
    return None if corners is None else board_from_corners(image_bgr, corners, config)
