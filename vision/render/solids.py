"""Dice and the doubling cube as lit, textured cubes seen through the camera.

A body's local frame has its top face at ``z = -size/2`` (Z points into the table). Each visible
face is drawn by warping a face texture (pips or the cube's number) onto its projected outline.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import numpy.typing as npt

from vision.render.camera import Camera
from vision.render.scene import Scene, Solid

Image = npt.NDArray[np.uint8]
Array = npt.NDArray[np.float64]
_TEXTURE = 64  # face texture side, px

# Face vertex signs (x, y, z) in cyclic order, and outward normals, in ``Solid.faces`` order:
# top (-z), bottom (+z), +x, -x, +y, -y.
_FACES: tuple[tuple[tuple[int, int, int], ...], ...] = (
    ((-1, -1, -1), (1, -1, -1), (1, 1, -1), (-1, 1, -1)),
    ((-1, 1, 1), (1, 1, 1), (1, -1, 1), (-1, -1, 1)),
    ((1, -1, -1), (1, 1, -1), (1, 1, 1), (1, -1, 1)),
    ((-1, 1, -1), (-1, -1, -1), (-1, -1, 1), (-1, 1, 1)),
    ((1, 1, -1), (-1, 1, -1), (-1, 1, 1), (1, 1, 1)),
    ((-1, -1, -1), (1, -1, -1), (1, -1, 1), (-1, -1, 1)),
)
_NORMALS = np.array(
    [[0, 0, -1], [0, 0, 1], [1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0]], dtype=np.float64
)
# Pip centres on a unit face for each value.
_PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.25, 0.25), (0.75, 0.75)),
    3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    4: ((0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)),
    5: ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)),
    6: ((0.27, 0.22), (0.27, 0.5), (0.27, 0.78), (0.73, 0.22), (0.73, 0.5), (0.73, 0.78)),
}


def rotation(solid: Solid) -> Array:
    """World-from-local rotation: tip by ``tilt`` about local x, then turn by ``yaw``."""
    yaw, tilt = math.radians(solid.yaw_deg), math.radians(solid.tilt_deg)
    rz = np.array(
        [[math.cos(yaw), -math.sin(yaw), 0], [math.sin(yaw), math.cos(yaw), 0], [0, 0, 1]]
    )
    rx = np.array(
        [[1, 0, 0], [0, math.cos(tilt), -math.sin(tilt)], [0, math.sin(tilt), math.cos(tilt)]]
    )
    return np.asarray(rz @ rx)


def face_vertices(solid: Solid) -> Array:
    """World corners of each face (6 x 4 x 3, mm), the body resting on the board plane."""
    local = np.array(_FACES, dtype=np.float64) * (solid.size / 2)
    world = local @ rotation(solid).T
    lowest = world[:, :, 2].max()
    return np.asarray(world + np.array([solid.x, solid.y, -lowest - solid.base_height]))


def top_face(solid: Solid) -> int:
    """Index of the face pointing most upwards (the value read)."""
    normals = _NORMALS @ rotation(solid).T
    return int(np.argmin(normals[:, 2]))


def top_center(solid: Solid, camera: Camera) -> tuple[float, float]:
    """Image pixel of the centre of the top face."""
    centre = face_vertices(solid)[top_face(solid)].mean(axis=0)
    u, v = camera.project(centre[None, :])[0]
    return float(u), float(v)


def _marbled(solid: Solid, face: int, veins: tuple[int, int, int]) -> Image:
    """A face of a marbled body: the body colour swirled with a few soft bands of ``veins``
    (wavy stripes from ``solid.vein_seed``, a different pattern on each face)."""
    s = _TEXTURE
    rng = np.random.default_rng((solid.vein_seed, face))
    turbulence = cv2.resize(rng.normal(size=(3, 3)), (s, s), interpolation=cv2.INTER_CUBIC)
    angle = rng.uniform(0.0, math.pi)
    across = np.cos(angle) * np.arange(s)[None, :] + np.sin(angle) * np.arange(s)[:, None]
    phase = across / s * rng.uniform(0.4, 1.2) + turbulence * rng.uniform(0.2, 0.5)
    band = 0.5 + 0.5 * np.sin(2.0 * math.pi * phase)
    share = np.clip((band - rng.uniform(0.5, 0.8)) * 2.0, 0.0, 1.0)[:, :, None]
    mixed = np.array(solid.body) * (1.0 - share) + np.array(veins) * share
    return np.asarray(mixed, np.uint8)


def _face_texture(solid: Solid, face: int) -> tuple[Image, npt.NDArray[np.float32]]:
    """BGR texture and alpha (0..1) of one face: pips or the cube's number, rounded corners,
    on a plain or marbled body."""
    s = _TEXTURE
    if solid.veins is None:
        image = np.full((s, s, 3), solid.body, np.uint8)
    else:
        image = _marbled(solid, face, solid.veins)
    value = solid.faces[face]
    if solid.kind == "die":
        for u, v in _PIPS[value]:
            centre = (round(u * s * 16), round(v * s * 16))
            cv2.circle(image, centre, round(0.085 * s * 16), solid.ink, -1, cv2.LINE_AA, 4)
    else:
        text = str(value)
        scale = 1.3 if len(text) == 1 else 1.0
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, scale, 3)
        origin = ((s - tw) // 2, (s + th) // 2)
        cv2.putText(image, text, origin, cv2.FONT_HERSHEY_DUPLEX, scale, solid.ink, 3, cv2.LINE_AA)
    image = np.ascontiguousarray(np.rot90(image, solid.turns[face]))
    alpha = np.zeros((s, s), np.uint8)
    corner = s // 6
    cv2.rectangle(alpha, (corner, 0), (s - 1 - corner, s - 1), 255, -1)
    cv2.rectangle(alpha, (0, corner), (s - 1, s - 1 - corner), 255, -1)
    for cx in (corner, s - 1 - corner):
        for cy in (corner, s - 1 - corner):
            cv2.circle(alpha, (cx, cy), corner, 255, -1, cv2.LINE_AA)
    weight = alpha.astype(np.float32) / 255.0
    if solid.translucent:
        ink = np.abs(image.astype(np.int16) - np.array(solid.body)).sum(axis=2) > 60
        weight = np.where(ink, weight, weight * 0.6).astype(np.float32)
    edge = np.minimum(np.arange(s), np.arange(s)[::-1]).astype(np.float32)
    bevel = np.clip(0.78 + 0.22 * np.minimum(edge[:, None], edge[None, :]) / (s * 0.08), 0.78, 1)
    shaded = np.clip(image * bevel[:, :, None], 0, 255).astype(np.uint8)
    return shaded, weight


def _light_direction(scene: Scene) -> Array:
    ox, oy = scene.lighting.shadow_offset
    towards = np.array([-ox, -oy, -1.0])  # from the board towards the light (up is -Z)
    return np.asarray(towards / np.linalg.norm(towards))


def _blend_quad(
    image: Image, texture: Image, weight: npt.NDArray[np.float32], quad: Array, gain: float
) -> None:
    """Warp ``texture`` onto the image quadrilateral ``quad`` (4 x 2 px), scaled by ``gain``."""
    height, width = image.shape[:2]
    x0, y0 = np.floor(quad.min(axis=0)).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, width), min(y1, height)
    if x1 <= x0 or y1 <= y0:
        return
    s = float(_TEXTURE)
    source = np.array([[0, 0], [s, 0], [s, s], [0, s]], np.float32)
    target = (quad - np.array([x0, y0])).astype(np.float32)
    matrix = cv2.getPerspectiveTransform(source, target)
    size = (x1 - x0, y1 - y0)
    face = cv2.warpPerspective(texture, matrix, size, flags=cv2.INTER_LINEAR)
    alpha = cv2.warpPerspective(weight, matrix, size, flags=cv2.INTER_LINEAR)[:, :, None]
    roi = image[y0:y1, x0:x1].astype(np.float32)
    blended = roi * (1 - alpha) + face.astype(np.float32) * gain * alpha
    image[y0:y1, x0:x1] = np.clip(blended, 0, 255).astype(np.uint8)


def _draw_shadow(image: Image, solid: Solid, scene: Scene) -> None:
    vertices = face_vertices(solid).reshape(-1, 3)
    ox, oy = scene.lighting.shadow_offset
    height = -vertices[:, 2] + solid.size * 0.15
    on_plane = np.column_stack(
        (vertices[:, 0] + ox * height, vertices[:, 1] + oy * height, np.zeros(len(vertices)))
    )
    footprint = np.vstack((scene.camera.project(on_plane), scene.camera.project(vertices)))
    hull = cv2.convexHull(np.round(footprint * 16).astype(np.int32))
    x, y, w, h = cv2.boundingRect(hull // 16)
    pad = 6
    x0, y0 = max(0, x - pad), max(0, y - pad)
    x1, y1 = min(image.shape[1], x + w + pad), min(image.shape[0], y + h + pad)
    if x1 <= x0 or y1 <= y0:
        return
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(mask, hull - np.array([x0 * 16, y0 * 16]), 255, cv2.LINE_AA, 4)
    soft = cv2.GaussianBlur(mask, (0, 0), 2.0).astype(np.float32) / 255.0
    image[y0:y1, x0:x1] = (image[y0:y1, x0:x1] * (1 - 0.45 * soft[:, :, None])).astype(np.uint8)


def draw_solids(image: Image, scene: Scene) -> None:
    """Draw every die and the cube (farthest first), each with its shadow, into ``image``."""
    camera = scene.camera
    light = _light_direction(scene)
    eye = np.array(camera.position)

    def distance(solid: Solid) -> float:
        return float(np.linalg.norm(np.array([solid.x, solid.y, 0.0]) - eye))

    for solid in sorted(scene.solids, key=distance, reverse=True):
        _draw_shadow(image, solid, scene)
        vertices = face_vertices(solid)
        normals = _NORMALS @ rotation(solid).T
        for face in range(6):
            centre = vertices[face].mean(axis=0)
            if float(normals[face] @ (eye - centre)) <= 0.0:
                continue
            gain = 0.55 + 0.5 * max(0.0, float(normals[face] @ light))
            texture, weight = _face_texture(solid, face)
            _blend_quad(image, texture, weight, camera.project(vertices[face]), gain)
