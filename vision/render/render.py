"""Rendering a scene: the BGR frame and its exact label (a ``vision.labels.Reading``)."""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from vision.labels import (
    CHECKERS_PER_SIDE,
    COLORS,
    Board,
    Cube,
    Die,
    Label,
    PointCount,
    SideCounts,
)
from vision.render.board_draw import draw_board, draw_raised_frame
from vision.render.effects import apply_camera, apply_lighting
from vision.render.hands import draw_hands
from vision.render.layout import ROW
from vision.render.scene import Scene, Solid
from vision.render.solids import draw_solids, top_center
from vision.render.textures import texture_field

Image = npt.NDArray[np.uint8]


def _points(scene: Scene) -> tuple[PointCount, ...]:
    """True counts; ``min``/``max`` bound what the camera can see (``vision.labels``).

    Checkers stack only on a full row (``ROW`` visible), and one squarely on top of another
    cannot be told from none: where a colour hides checkers, each of its full rows may hold
    them, whether it does or not, so each is bounded by its visible checkers plus all those
    the colour hides."""
    hidden = [0] * 25
    for checker in scene.checkers:
        if checker.hidden:
            hidden[checker.where] += 1
    hidden_total = {
        color: sum(hidden[p] for p in range(1, 25) if scene.position.points[p - 1][0] == color)
        for color in COLORS
    }
    points = []
    for number, (color, count) in enumerate(scene.position.points, start=1):
        seen = count - hidden[number]
        hides = hidden_total[color] if color is not None else 0
        most = seen + hides if hides and seen >= ROW else count
        points.append(PointCount(number, color, count, seen, min(most, CHECKERS_PER_SIDE)))
    return tuple(points)


def _seen(scene: Scene, solid: Solid) -> tuple[float, float]:
    """Where the centre of a body's top face shows in the (distorted) frame."""
    x, y = scene.camera.distort(np.array([top_center(solid, scene.camera)]))[0]
    return float(x), float(y)


def label_scene(scene: Scene) -> Label:
    """The exact label of a scene: what a perfect reader would report (DESIGN.md section 4).

    Corners are the playing surface's own corners (at its level, also where the raised frame's
    lip hides them) and die and cube centres are the centres of their top faces, all where the
    lens puts them in the frame. Hand frames are ``occluded`` but keep their full truth.
    """
    camera = scene.camera
    dice = tuple(
        Die(s.value, _seen(scene, s), scene.zone(s), s.cocked)
        for s in scene.solids
        if s.kind == "die"
    )
    cubes = [Cube(s.value, _seen(scene, s)) for s in scene.solids if s.kind == "cube"]
    cube = cubes[0] if cubes else None
    if not scene.board:
        return Label(
            board=Board(found=False),
            points=(),
            bar=SideCounts(None, None),
            off=SideCounts(None, None),
            dice=dice,
            cube=cube,
            occluded=False,
        )
    c = camera.distort(camera.project(scene.geometry.corners()))
    corners = tuple((float(x), float(y)) for x, y in c)
    return Label(
        board=Board(found=True, corners=(corners[0], corners[1], corners[2], corners[3])),
        points=_points(scene),
        bar=SideCounts(*scene.position.bar),
        off=SideCounts(*scene.position.off),
        dice=dice,
        cube=cube,
        occluded=bool(scene.hands),
    )


def _table(scene: Scene) -> Image:
    rng = np.random.default_rng(scene.style.texture_seed + 1)
    small_h, small_w = scene.height // 2, scene.width // 2
    field = texture_field(rng, scene.style.table_texture, small_h, small_w, 1.0)
    table = np.clip(np.array(scene.style.table, np.float32) * field[:, :, None], 0, 255)
    return np.asarray(
        cv2.resize(table.astype(np.uint8), (scene.width, scene.height)), dtype=np.uint8
    )


def render_scene(scene: Scene) -> tuple[Image, Label]:
    """The frame (BGR uint8, ``scene.height`` x ``scene.width``) and its label."""
    image = _table(scene)
    outline = None
    if scene.board:
        board = draw_board(scene)
        homography = scene.camera.plane_homography() @ board.world_from_canvas
        cv2.warpPerspective(
            board.image,
            homography,
            (scene.width, scene.height),
            dst=image,
            flags=cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_TRANSPARENT,
        )
        draw_raised_frame(image, scene, board)
        x0, y0, x1, y1 = scene.geometry.outer_rect
        outer = np.array([[x0, y0, 0.0], [x1, y0, 0.0], [x1, y1, 0.0], [x0, y1, 0.0]])
        outline = scene.camera.project(outer)
    draw_solids(image, scene)
    draw_hands(image, scene.hands, scene.lighting.shadow_offset)
    if scene.camera.k1 != 0.0:
        map_x, map_y = scene.camera.undistortion_maps()
        image = np.asarray(
            cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT),
            dtype=np.uint8,
        )
        if outline is not None:
            outline = scene.camera.distort(outline)
    lit = apply_lighting(image, scene.lighting, outline)
    frame = apply_camera(lit, scene.lighting, np.random.default_rng(scene.noise_seed))
    return frame, label_scene(scene)
