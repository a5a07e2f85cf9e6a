"""A pinhole camera above the table, and projections of world points into the image.

World frame (millimetres): origin at the top-left corner of the playing surface, X to the right
along the board, Y down the board (towards the bottom row in a straight-down view), Z into the
table, so a point ``h`` mm above the board has ``Z = -h``. Image frame: pixels, origin top-left.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.config import CameraCalibration

Array = npt.NDArray[np.float64]
Vec3 = tuple[float, float, float]

MAX_TILT_DEG = 20.0


@dataclass(frozen=True)
class Camera:
    """Intrinsics (focal length and principal point in pixels) and pose of a pinhole camera.

    ``rotation`` has the camera axes as rows (x right, y down, z forward), in world coordinates;
    ``position`` is the centre of projection in world millimetres. ``tilt_deg`` is the angle of
    the optical axis off vertical. ``k1`` is the lens's radial distortion (negative: barrel):
    :meth:`project` gives ideal pinhole pixels, :meth:`distort` moves them where the lens puts
    them.
    """

    width: int
    height: int
    focal: float
    principal: tuple[float, float]
    position: Vec3
    rotation: tuple[Vec3, Vec3, Vec3]
    tilt_deg: float
    k1: float = 0.0

    def intrinsics(self) -> Array:
        """The 3x3 camera matrix K."""
        cx, cy = self.principal
        return np.array([[self.focal, 0.0, cx], [0.0, self.focal, cy], [0.0, 0.0, 1.0]])

    def principal_share(self) -> tuple[float, float]:
        """The principal point in shares of the frame's width and height, as a calibration gives
        it to the reader (``vision.config.ReadConfig.principal_point``)."""
        return (self.principal[0] / self.width, self.principal[1] / self.height)

    def focal_share(self) -> float:
        """The focal length in shares of the frame's width, as a calibration gives it to the
        reader (``vision.config.ReadConfig.focal_length``)."""
        return self.focal / self.width

    def calibration(self) -> CameraCalibration:
        """The principal point and the focal length, as a calibration gives them to the reader
        (``vision.config.CameraCalibration``)."""
        return CameraCalibration(self.principal_share(), self.focal_share())

    def project(self, points: Array) -> Array:
        """Image pixels (N x 2) of world points (N x 3, millimetres)."""
        rotation = np.array(self.rotation)
        in_camera = (np.asarray(points, dtype=np.float64) - np.array(self.position)) @ rotation.T
        in_image = in_camera @ self.intrinsics().T
        return np.asarray(in_image[:, :2] / in_image[:, 2:3])

    def distort(self, pixels: Array) -> Array:
        """Pixels (N x 2) of the frame seen through the lens, from ideal pinhole pixels."""
        centre = np.array(self.principal)
        normal = (np.asarray(pixels, dtype=np.float64) - centre) / self.focal
        radius2 = (normal**2).sum(axis=1, keepdims=True)
        return np.asarray(centre + normal * (1.0 + self.k1 * radius2) * self.focal)

    def undistortion_maps(
        self, step: int = 8
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """For each pixel of the distorted frame, the ideal pixel it shows (``cv2.remap`` maps).

        The inverse of :meth:`distort` is solved by fixed-point iteration on a grid ``step``
        pixels apart and interpolated in between.
        """
        # Grid points where cv2.resize puts the samples of a (size // step) image.
        nx, ny = self.width // step, self.height // step
        xs = (np.arange(nx) + 0.5) * self.width / nx - 0.5
        ys = (np.arange(ny) + 0.5) * self.height / ny - 0.5
        grid = np.stack(np.meshgrid(xs, ys), axis=-1)
        centre = np.array(self.principal)
        seen = (grid - centre) / self.focal
        ideal = seen.copy()
        for _ in range(8):
            ideal = seen / (1.0 + self.k1 * (ideal**2).sum(axis=-1, keepdims=True))
        source = (ideal * self.focal + centre).astype(np.float32)
        size = (self.width, self.height)
        map_x = cv2.resize(source[:, :, 0], size, interpolation=cv2.INTER_LINEAR)
        map_y = cv2.resize(source[:, :, 1], size, interpolation=cv2.INTER_LINEAR)
        return np.asarray(map_x, np.float32), np.asarray(map_y, np.float32)

    def plane_homography(self, height: float = 0.0) -> Array:
        """3x3 homography from points ``(X, Y, 1)`` of the plane ``height`` mm above the board
        (``Z = -height``) to image pixels."""
        rotation = np.array(self.rotation)
        translation = -rotation @ np.array(self.position) - height * rotation[:, 2]
        return np.asarray(
            self.intrinsics() @ np.column_stack((rotation[:, 0], rotation[:, 1], translation))
        )

    def lift_to_plane(self, points: Array, height: float) -> Array:
        """Board-plane points (N x 2) seen at the same pixels as ``points`` raised ``height`` mm.

        A point raised above the board appears, through the pinhole, where the ray through it
        meets the board plane: used to draw raised checker faces on the flat board texture.
        """
        cx, cy, cz = self.position
        scale = -cz / (-cz - height)
        centre = np.array([cx, cy])
        return np.asarray(centre + (np.asarray(points, dtype=np.float64) - centre) * scale)


def _normalised(vector: Array) -> Array:
    return np.asarray(vector / np.linalg.norm(vector))


def look_at(position: Array, target: Array, roll_deg: float) -> tuple[Vec3, Vec3, Vec3]:
    """Camera axes (rows) looking from ``position`` at ``target``, image x along world +X.

    ``roll_deg`` turns the image about the optical axis.
    """
    forward = _normalised(target - position)
    right = _normalised(np.array([1.0, 0.0, 0.0]) - forward[0] * forward)
    down = np.cross(forward, right)
    roll = math.radians(roll_deg)
    right, down = (
        math.cos(roll) * right + math.sin(roll) * down,
        -math.sin(roll) * right + math.cos(roll) * down,
    )
    return (
        (float(right[0]), float(right[1]), float(right[2])),
        (float(down[0]), float(down[1]), float(down[2])),
        (float(forward[0]), float(forward[1]), float(forward[2])),
    )


def sample_camera(
    rng: np.random.Generator,
    width: int,
    height: int,
    target: tuple[float, float],
    extent: Array,
) -> Camera:
    """A camera up to 20 degrees off vertical whose view holds the world points ``extent``.

    ``target`` is the board-plane point the camera looks at. The focal length makes the extent
    fill 72% to 96% of the frame, placed with a random margin. Half the cameras have a lens
    with mild radial distortion (``k1`` in -0.08..0.02).
    """
    tilt = float(rng.uniform(0.0, MAX_TILT_DEG))
    azimuth = float(rng.uniform(0.0, 2.0 * math.pi))
    distance = float(rng.uniform(750.0, 1250.0))
    aim = np.array([target[0], target[1], 0.0]) + np.append(rng.normal(0.0, 15.0, 2), 0.0)
    offset = np.array(
        [
            math.sin(math.radians(tilt)) * math.cos(azimuth),
            math.sin(math.radians(tilt)) * math.sin(azimuth),
            -math.cos(math.radians(tilt)),
        ]
    )
    position = aim + distance * offset
    rotation = look_at(position, aim, float(rng.uniform(-4.0, 4.0)))
    unit = Camera(width, height, 1.0, (0.0, 0.0), _vec(position), rotation, tilt)
    seen = unit.project(extent)
    low, high = seen.min(axis=0), seen.max(axis=0)
    fill = float(rng.uniform(0.72, 0.96))
    focal = fill * min(width / (high[0] - low[0]), height / (high[1] - low[1]))
    spare = np.array([width, height]) - focal * (high - low)
    corner = spare * rng.uniform(0.2, 0.8, 2) - focal * low
    k1 = float(rng.uniform(-0.08, 0.02)) if rng.random() < 0.5 else 0.0
    return Camera(
        width,
        height,
        focal,
        (float(corner[0]), float(corner[1])),
        _vec(position),
        rotation,
        tilt,
        k1,
    )


def _vec(values: Array) -> Vec3:
    return (float(values[0]), float(values[1]), float(values[2]))
