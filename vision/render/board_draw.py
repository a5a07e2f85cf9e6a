"""Drawing the board and its checkers as a flat top-down texture of the board plane.

The texture is later warped into the frame with the camera's plane homography. Raised parts
(checker sides and faces, borne-off checkers standing in the trays) are drawn where the camera
sees them on the plane (``Camera.lift_to_plane``), so stacks and standing checkers show the
right parallax under perspective. The raised frame is drawn over it in the image
(:func:`draw_raised_frame`): the walls facing the camera, then the frame's top.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.render.layout import PlacedChecker
from vision.render.palettes import BGR
from vision.render.scene import Scene
from vision.render.textures import texture_field

Image = npt.NDArray[np.uint8]
Matrix = npt.NDArray[np.float64]
_SHIFT = 4  # sub-pixel bits for OpenCV drawing
_ONE = 1 << _SHIFT


def _scaled(color: BGR, factor: float) -> BGR:
    return (
        int(min(255, color[0] * factor)),
        int(min(255, color[1] * factor)),
        int(min(255, color[2] * factor)),
    )


class _Canvas:
    """A board-plane image at ``scale`` pixels per mm whose top-left is world ``origin``."""

    def __init__(self, scene: Scene) -> None:
        x0, y0, x1, y1 = scene.geometry.outer_rect
        seen = scene.camera.project(np.array([[x0, y0, 0.0], [x1, y0, 0.0], [x0, y1, 0.0]]))
        px_per_mm = max(
            np.linalg.norm(seen[1] - seen[0]) / (x1 - x0),
            np.linalg.norm(seen[2] - seen[0]) / (y1 - y0),
        )
        self.scale = float(np.clip(px_per_mm, 0.8, 3.0))
        self.origin = (x0, y0)
        self.width = round((x1 - x0) * self.scale)
        self.height = round((y1 - y0) * self.scale)
        self.image: Image = np.empty((self.height, self.width, 3), np.uint8)
        self.camera = scene.camera

    def px(self, x: float, y: float) -> tuple[int, int]:
        """Fixed-point canvas pixel of world point (x, y), for drawing with ``shift``."""
        return (
            round((x - self.origin[0]) * self.scale * _ONE),
            round((y - self.origin[1]) * self.scale * _ONE),
        )

    def rect(self, rect: tuple[float, float, float, float], color: BGR) -> None:
        x0, y0 = self.px(rect[0], rect[1])
        x1, y1 = self.px(rect[2], rect[3])
        cv2.rectangle(self.image, (x0, y0), (x1, y1), color, -1, cv2.LINE_AA, _SHIFT)

    def slice(self, rect: tuple[float, float, float, float]) -> tuple[slice, slice]:
        x0, y0 = self.px(rect[0], rect[1])
        x1, y1 = self.px(rect[2], rect[3])
        return slice(max(0, y0 >> _SHIFT), y1 >> _SHIFT), slice(max(0, x0 >> _SHIFT), x1 >> _SHIFT)

    def brighten(self, factor: npt.NDArray[np.uint8]) -> None:
        """Multiply the image by ``factor / 128`` (one 8-bit factor per pixel), saturating."""
        cv2.multiply(self.image, cv2.merge([factor, factor, factor]), self.image, 1.0 / 128.0)

    def world_from_canvas(self) -> Matrix:
        """3x3 affine map from canvas pixels to board-plane millimetres."""
        s = self.scale
        return np.array([[1 / s, 0.0, self.origin[0]], [0.0, 1 / s, self.origin[1]], [0, 0, 1.0]])


def _draw_surface(canvas: _Canvas, scene: Scene, rng: np.random.Generator) -> None:
    g, style = scene.geometry, scene.style
    canvas.image[:] = style.frame
    surface = (0.0, 0.0, g.surface_width, g.surface_height)
    canvas.rect(surface, style.surface)
    for side in g.trays:
        canvas.rect(g.tray_rect(side), style.tray)
    canvas.rect(g.bar_rect, style.bar)
    for point in range(1, 25):
        x = g.point_x(point)
        half = g.point_width * 0.47
        edge = 0.0 if g.is_top(point) else g.surface_height
        tip = g.point_length if g.is_top(point) else g.surface_height - g.point_length
        triangle = np.array(
            [canvas.px(x - half, edge), canvas.px(x + half, edge), canvas.px(x, tip)]
        )
        color = style.points[point % 2]
        cv2.fillConvexPoly(canvas.image, triangle, color, cv2.LINE_AA, _SHIFT)
        if style.point_outline is not None:
            cv2.polylines(
                canvas.image, [triangle], True, style.point_outline, 1, cv2.LINE_AA, _SHIFT
            )
    field = texture_field(rng, style.frame_texture, canvas.height, canvas.width, canvas.scale)
    rows, cols = canvas.slice(surface)
    field[rows, cols] = texture_field(
        rng, style.surface_texture, rows.stop - rows.start, cols.stop - cols.start, canvas.scale
    )
    rim = max(1, round(canvas.scale * 2.0))
    for rect in (surface, *(g.tray_rect(side) for side in g.trays)):
        rows, cols = canvas.slice(rect)
        field[rows.start : rows.start + rim, cols] *= 0.7
        field[rows, cols.start : cols.start + rim] *= 0.75
        field[rows.stop - rim : rows.stop, cols] *= 1.1
        field[rows, cols.stop - rim : cols.stop] *= 1.05
    canvas.brighten(np.asarray(cv2.convertScaleAbs(field, alpha=128.0), np.uint8))


def _checker_top(canvas: _Canvas, checker: PlacedChecker, height: float) -> tuple[float, float]:
    lifted = canvas.camera.lift_to_plane(np.array([[checker.x, checker.y]]), height)[0]
    return float(lifted[0]), float(lifted[1])


def _draw_shadows(canvas: _Canvas, scene: Scene) -> None:
    """Soft shadows of the checkers, cast along the light direction."""
    small = 4
    mask = np.zeros((canvas.height // small + 1, canvas.width // small + 1), np.uint8)
    ox, oy = scene.lighting.shadow_offset
    t = scene.geometry.checker_thickness
    radius = scene.geometry.checker_diameter / 2
    for checker in scene.checkers:
        height = scene.geometry.checker_diameter if checker.standing else (checker.level + 1) * t
        x, y = canvas.px(checker.x + ox * height * 0.6, checker.y + oy * height * 0.6)
        cv2.circle(
            mask,
            (x // small, y // small),
            round(radius * canvas.scale * _ONE / small),
            255,
            -1,
            cv2.LINE_AA,
            _SHIFT,
        )
    soft = cv2.GaussianBlur(mask, (0, 0), max(0.8, canvas.scale * 2.0 / small))
    factor = cv2.convertScaleAbs(soft, alpha=-0.45 * 128.0 / 255.0, beta=128.0)
    canvas.brighten(np.asarray(cv2.resize(factor, (canvas.width, canvas.height)), np.uint8))


def _draw_flat_checker(canvas: _Canvas, checker: PlacedChecker, scene: Scene, color: BGR) -> None:
    t = scene.geometry.checker_thickness
    radius = scene.geometry.checker_diameter / 2
    base = _checker_top(canvas, checker, checker.level * t)
    top = _checker_top(canvas, checker, (checker.level + 1) * t)
    cz = -scene.camera.position[2]
    r_base = round(radius * canvas.scale * cz / (cz - checker.level * t) * _ONE)
    r_top = round(radius * canvas.scale * cz / (cz - (checker.level + 1) * t) * _ONE)
    side = _scaled(color, 0.62)
    cv2.circle(canvas.image, canvas.px(*base), r_base, side, -1, cv2.LINE_AA, _SHIFT)
    middle = ((base[0] + top[0]) / 2, (base[1] + top[1]) / 2)
    cv2.circle(canvas.image, canvas.px(*middle), r_base, side, -1, cv2.LINE_AA, _SHIFT)
    centre = canvas.px(*top)
    cv2.circle(canvas.image, centre, r_top, color, -1, cv2.LINE_AA, _SHIFT)
    cv2.circle(canvas.image, centre, r_top, _scaled(color, 0.55), 1, cv2.LINE_AA, _SHIFT)
    cv2.circle(canvas.image, centre, r_top * 9 // 10, _scaled(color, 1.08), 1, cv2.LINE_AA, _SHIFT)
    if scene.style.checker_ring:
        cv2.circle(
            canvas.image, centre, r_top * 7 // 10, _scaled(color, 0.8), 1, cv2.LINE_AA, _SHIFT
        )


def _draw_standing_checker(
    canvas: _Canvas, checker: PlacedChecker, scene: Scene, color: BGR
) -> None:
    """A borne-off checker standing on its edge: seen from above as a thin strip."""
    d = scene.geometry.checker_diameter
    half_t = scene.geometry.checker_thickness / 2
    corners = np.array(
        [
            [checker.x - d / 2, checker.y - half_t],
            [checker.x + d / 2, checker.y - half_t],
            [checker.x + d / 2, checker.y + half_t],
            [checker.x - d / 2, checker.y + half_t],
        ]
    )
    top = canvas.camera.lift_to_plane(corners, d * 0.9)
    outline = np.array([canvas.px(x, y) for x, y in np.vstack((corners, top))], np.int32)
    hull = cv2.convexHull(outline)
    cv2.fillConvexPoly(canvas.image, hull, _scaled(color, 0.6), cv2.LINE_AA, _SHIFT)
    strip = np.array([canvas.px(x, y) for x, y in top], np.int32)
    cv2.fillConvexPoly(canvas.image, strip, _scaled(color, 0.95), cv2.LINE_AA, _SHIFT)
    cv2.polylines(canvas.image, [strip], True, _scaled(color, 0.5), 1, cv2.LINE_AA, _SHIFT)


@dataclass(frozen=True)
class BoardTexture:
    """The board plane drawn top-down: everything at board level, and the frame's top alone.

    ``frame_mask`` is 255 on the frame's top, 0 in the recesses (playing surface and trays);
    ``world_from_canvas`` maps texture pixels to board-plane millimetres.
    """

    image: Image
    frame: Image
    frame_mask: npt.NDArray[np.uint8]
    world_from_canvas: Matrix


def draw_board(scene: Scene) -> BoardTexture:
    """The board texture with its checkers, and the frame's top for :func:`draw_raised_frame`."""
    canvas = _Canvas(scene)
    rng = np.random.default_rng(scene.style.texture_seed)
    _draw_surface(canvas, scene, rng)
    frame = canvas.image.copy()
    mask = np.full((canvas.height, canvas.width), 255, np.uint8)
    for hole in scene.geometry.holes():
        x0, y0 = canvas.px(hole[0], hole[1])
        x1, y1 = canvas.px(hole[2], hole[3])
        cv2.rectangle(mask, (x0, y0), (x1, y1), 0, -1, cv2.LINE_8, _SHIFT)
    _draw_shadows(canvas, scene)
    colors = {"light": scene.style.light_checker, "dark": scene.style.dark_checker}
    for checker in scene.checkers:
        if checker.standing:
            _draw_standing_checker(canvas, checker, scene, colors[checker.color])
        else:
            _draw_flat_checker(canvas, checker, scene, colors[checker.color])
    return BoardTexture(canvas.image, frame, mask, canvas.world_from_canvas())


def _walls(scene: Scene) -> list[tuple[tuple[float, float], tuple[float, float], Matrix]]:
    """Walls of the frame: (start, end) on the board plane and the outward horizontal normal."""
    g = scene.geometry
    walls = []
    for x0, y0, x1, y1 in g.holes():  # inner walls face into their recess
        walls += [
            ((x0, y0), (x1, y0), np.array([0.0, 1.0, 0.0])),
            ((x1, y0), (x1, y1), np.array([-1.0, 0.0, 0.0])),
            ((x1, y1), (x0, y1), np.array([0.0, -1.0, 0.0])),
            ((x0, y1), (x0, y0), np.array([1.0, 0.0, 0.0])),
        ]
    x0, y0, x1, y1 = g.outer_rect
    walls += [
        ((x0, y0), (x1, y0), np.array([0.0, -1.0, 0.0])),
        ((x1, y0), (x1, y1), np.array([1.0, 0.0, 0.0])),
        ((x1, y1), (x0, y1), np.array([0.0, 1.0, 0.0])),
        ((x0, y1), (x0, y0), np.array([-1.0, 0.0, 0.0])),
    ]
    return walls


def draw_raised_frame(image: Image, scene: Scene, texture: BoardTexture) -> None:
    """Draw the frame's walls that face the camera, then its top, over the warped board."""
    g, camera = scene.geometry, scene.camera
    height = g.frame_height
    eye = np.array(camera.position)
    ox, oy = scene.lighting.shadow_offset
    towards_light = np.array([-ox, -oy, -1.0]) / np.linalg.norm([ox, oy, 1.0])
    for (ax, ay), (bx, by), normal in _walls(scene) if height > 0 else ():
        quad = np.array([[ax, ay, 0.0], [bx, by, 0.0], [bx, by, -height], [ax, ay, -height]])
        if float(normal @ (eye - quad.mean(axis=0))) <= 0.0:
            continue
        shade = 0.45 + 0.4 * max(0.0, float(normal @ towards_light))
        outline = np.round(camera.project(quad) * _ONE).astype(np.int32)
        cv2.fillConvexPoly(image, outline, _scaled(scene.style.frame, shade), cv2.LINE_AA, _SHIFT)
    homography = camera.plane_homography(height) @ texture.world_from_canvas
    size = (scene.width, scene.height)
    top = cv2.warpPerspective(texture.frame, homography, size, flags=cv2.INTER_LINEAR)
    mask = cv2.warpPerspective(texture.frame_mask, homography, size, flags=cv2.INTER_LINEAR)
    _, on_top = cv2.threshold(mask, 127, 255, cv2.THRESH_BINARY)
    cv2.copyTo(top, on_top, image)
