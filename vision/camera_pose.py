"""The camera over the board, from the board's outline: its focal length, its nadir, and the
point of the board straight beneath a point seen above it.

The four corners of the playing surface give the homography H from the unit square (its
sides the surface's width and depth) to the frame. With the principal point c known
(``ReadConfig.principal_point``) and moved to the origin, H = K [r1 r2 t] up to scale, where
K = diag(f, f, 1): a calibrated camera's focal length is f (``ReadConfig.focal_length``), else
the outline's right angle gives it (f^2 = -(h1x h2x + h1y h2y) / (h1z h2z)), and then the pose
(Zhang's plane-based calibration, with K known): r1 = K^-1 h1 / |K^-1 h1|, so one unit along the
surface's width is one unit of the world, the surface's depth is |K^-1 h2| / |K^-1 h1| of its
width, and t = K^-1 h3 / |K^-1 h1|.

- The nadir (``BoardCamera.nadir``) is the vanishing point of vertical lines, K r3, where a
  leaning die shows side faces that a flat one does not (``vision.lean``).
- ``BoardCamera.beneath`` casts the ray through a frame pixel to the plane a given height above
  the board (in board widths) and gives the pixel of the board point straight below where it
  meets it: a die's top face lies a die's side above the board, and seen off the camera's axis
  it shows up to about 0.6 of a side farther from the nadir than the point it rests on
  (``vision.read._die``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np
import numpy.typing as npt

Matrix = npt.NDArray[np.float64]

# A focal length the board's outline gives outside these shares of the frame's width is not
# believed, and this one is taken instead: about a Camera Module 3's (4.74 mm over a 6.45 mm
# sensor, 0.73). (The renderer's cameras: 0.57..1.3 of the width, median 0.87, on tuning seeds
# 650,000..650,199; not calibrated, their principal points taken at the centre, the outline's
# right angle gives no believable focal length for 35% of the boards of 650,000..650,399. The
# judge of cocked dice, uncalibrated, board found, tuning seeds 650,000..650,999 and
# 660,000..660,999, 610 leaning dice: 1.2 found 95.6% at 90.4% precision, 1.0 95.7% at 91.1%,
# 0.87 95.6% at 93.1%, 0.8 95.9% at 93.5%, 0.75 96.4% at 93.5%; seeds 670,000..671,999, 551:
# 1.2 96.0% at 87.0%, 0.8 96.7% at 91.0%, 0.75 96.9% at 91.3%.)
FOCAL_SHARES = (0.5, 3.0)
DEFAULT_FOCAL_SHARE = 0.75
# The principal point of a camera not calibrated (``ReadConfig.principal_point`` None), in
# shares of the frame's width and height.
FRAME_CENTRE = (0.5, 0.5)


@dataclass(frozen=True)
class BoardCamera:
    """A camera over a board: ``homography`` from the unit square (TL, TR, BR, BL of the
    playing surface) to frame pixels, the ``principal`` point (pixels) and the ``focal``
    length (pixels)."""

    homography: Matrix
    principal: tuple[float, float]
    focal: float

    @cached_property
    def _moved(self) -> Matrix:
        """The homography with the principal point moved to the origin and K^-1 applied."""
        (cx, cy), f = self.principal, self.focal
        to_camera = np.array([[1.0 / f, 0.0, -cx / f], [0.0, 1.0 / f, -cy / f], [0.0, 0.0, 1.0]])
        return np.asarray(to_camera @ self.homography, np.float64)

    @cached_property
    def _pose(self) -> tuple[Matrix, Matrix, float]:
        """The camera's rotation (its columns the board's width, depth and normal, in camera
        axes), its centre (board widths) and the surface's depth (in its widths), worked out
        once for every point ``beneath`` is asked of."""
        moved = self._moved
        scale = 1.0 / float(np.linalg.norm(moved[:, 0]))
        r1, r2, t = moved[:, 0] * scale, moved[:, 1] * scale, moved[:, 2] * scale
        depth = float(np.linalg.norm(r2))
        rotation = np.stack([r1, r2 / depth, np.cross(r1, r2 / depth)], axis=1)
        return rotation, -rotation.T @ t, depth

    def skew_degrees(self) -> float:
        """How far from a right angle (degrees) the surface's corner is, its outline seen
        through this camera: near 0 for a playing surface's own outline, more where a corner
        lies off it (on a tray's corner, a frame's)."""
        moved = self._moved
        across, down = moved[:, 0], moved[:, 1]
        cosine = abs(float(across @ down)) / float(np.linalg.norm(across) * np.linalg.norm(down))
        return 90.0 - math.degrees(math.acos(min(1.0, cosine)))

    def nadir(self) -> tuple[float, float]:
        """The nadir in frame pixels: where vertical lines meet (the principal point for a
        camera whose axis lies in the board's plane, which no kiosk has)."""
        moved = self._moved
        down = np.cross(moved[:, 0], moved[:, 1])
        if abs(down[2]) < 1e-12:
            return self.principal
        return (
            float(self.focal * down[0] / down[2] + self.principal[0]),
            float(self.focal * down[1] / down[2] + self.principal[1]),
        )

    def beneath(self, point: tuple[float, float], height: float) -> tuple[float, float]:
        """The frame pixel of the board point straight below the point seen at ``point``
        (pixels) ``height`` board widths above the board."""
        rotation, eye, depth = self._pose
        cx, cy = self.principal
        ray = rotation.T @ np.array([(point[0] - cx) / self.focal, (point[1] - cy) / self.focal, 1])
        up = math.copysign(height, float(eye[2]))  # the camera's side of the board
        if abs(float(ray[2])) < 1e-12:
            return point
        hit = eye + (up - float(eye[2])) / float(ray[2]) * ray
        seen = self.homography @ np.array([hit[0], hit[1] / depth, 1.0])
        return (float(seen[0] / seen[2]), float(seen[1] / seen[2]))


def board_camera(
    corners: Sequence[tuple[float, float]],
    width: int,
    height: int,
    principal: tuple[float, float] = FRAME_CENTRE,
    focal: float | None = None,
) -> BoardCamera:
    """The camera over a board with this outline (four corners, TL, TR, BR, BL, pixels) in a
    ``width`` x ``height`` frame, its principal point at ``principal`` (shares of the frame's
    width and height) and its focal length ``focal`` (shares of the width, as a calibration
    gives it). Without ``focal``, the outline's right angle gives it, which it does only
    loosely for a camera nearly above the board (a pixel's error in a corner can move the
    nadir hundreds of pixels); where that lies outside ``FOCAL_SHARES`` of the width (a camera
    straight above the board leaves it undetermined), ``DEFAULT_FOCAL_SHARE``."""
    square = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    outline = np.array(corners, np.float32)
    homography = np.asarray(cv2.getPerspectiveTransform(square, outline), np.float64)
    centre = (principal[0] * width, principal[1] * height)
    if focal is not None:
        return BoardCamera(homography, centre, focal * width)
    moved = np.array([[1.0, 0.0, -centre[0]], [0.0, 1.0, -centre[1]], [0.0, 0.0, 1.0]]) @ homography
    h1, h2 = moved[:, 0], moved[:, 1]
    denominator = h1[2] * h2[2]
    focal2 = -(h1[0] * h2[0] + h1[1] * h2[1]) / denominator if abs(denominator) > 1e-12 else -1.0
    low, high = ((share * width) ** 2 for share in FOCAL_SHARES)
    if not low <= focal2 <= high:
        focal2 = (DEFAULT_FOCAL_SHARE * width) ** 2
    return BoardCamera(homography, centre, math.sqrt(focal2))


def nadir_of(
    corners: Sequence[tuple[float, float]],
    width: int,
    height: int,
    principal: tuple[float, float] = FRAME_CENTRE,
    focal: float | None = None,
) -> tuple[float, float]:
    """The camera's nadir in a ``width`` x ``height`` frame (pixels) from the outline of the
    board (``board_camera``; ``principal`` in shares of the frame's width and height,
    ``ReadConfig.principal_point``; ``focal`` in shares of its width,
    ``ReadConfig.focal_length``)."""
    return board_camera(corners, width, height, principal, focal).nadir()
