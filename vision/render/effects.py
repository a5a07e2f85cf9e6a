"""Light and camera effects on a whole frame: gradients, shadows, glare, blur, noise, JPEG.

Smooth fields are computed at 1/8 of the frame size and scaled up. Sensor noise comes from the
generator passed in.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import numpy.typing as npt

from vision.render.scene import Lighting

Image = npt.NDArray[np.uint8]
_SMALL = 8


def _coarse_grid(height: int, width: int) -> tuple[npt.NDArray[np.float32], ...]:
    ys = np.linspace(-1.0, 1.0, height // _SMALL + 1, dtype=np.float32)[:, None]
    xs = np.linspace(-1.0, 1.0, width // _SMALL + 1, dtype=np.float32)[None, :]
    return xs, ys


def brightness_field(
    lighting: Lighting, height: int, width: int, board_outline: npt.NDArray[np.float64] | None
) -> npt.NDArray[np.float32]:
    """Brightness factor at 1/8 resolution: level, gradient, vignette, cast and board shadows.

    ``board_outline`` (4 x 2 px) is the board's outer outline; it casts a soft shadow on the
    table just outside itself.
    """
    xs, ys = _coarse_grid(height, width)
    gx, gy = lighting.gradient
    field = lighting.level * (1.0 + gx * xs / 2 + gy * ys / 2)
    field = field * (1.0 - lighting.vignette * (xs**2 + ys**2) / 2)
    small_size = (xs.shape[1], ys.shape[0])
    darken = np.zeros((small_size[1], small_size[0]), np.float32)
    if lighting.shadow is not None:
        polygon = np.round(np.array(lighting.shadow) * 16 / _SMALL).astype(np.int32)
        mask = np.zeros_like(darken)
        cv2.fillPoly(mask, [polygon], 1.0, cv2.LINE_AA, 4)
        darken += lighting.shadow_strength * cv2.GaussianBlur(mask, (0, 0), 3.0)
    if board_outline is not None:
        own = np.zeros_like(darken)
        cast = np.zeros_like(darken)
        outline = board_outline / _SMALL
        cv2.fillPoly(own, [np.round(outline * 16).astype(np.int32)], 1.0, cv2.LINE_AA, 4)
        ox, oy = lighting.shadow_offset
        moved = outline + np.array([ox, oy]) * 2.5
        cv2.fillPoly(cast, [np.round(moved * 16).astype(np.int32)], 1.0, cv2.LINE_AA, 4)
        darken += 0.45 * np.clip(cv2.GaussianBlur(cast, (0, 0), 1.5) - own, 0.0, 1.0)
    return np.asarray(field * (1.0 - np.clip(darken, 0.0, 0.9)), dtype=np.float32)


def apply_lighting(
    image: Image, lighting: Lighting, board_outline: npt.NDArray[np.float64] | None
) -> Image:
    """The frame under the scene's light: brightness field, colour cast and glare."""
    height, width = image.shape[:2]
    small = brightness_field(lighting, height, width, board_outline)
    factor = small[:, :, None] * np.array(lighting.gains, np.float32)
    # Factors in 1/128 steps as 8-bit, so the full-size multiply stays in 8 bits (saturating).
    factor_8 = np.clip(factor * 128.0, 0, 255).astype(np.uint8)
    lit = cv2.multiply(image, cv2.resize(factor_8, (width, height)), scale=1.0 / 128.0)
    if lighting.glare is not None:
        gx, gy, radius, strength = lighting.glare
        xs, ys = _coarse_grid(height, width)
        px = (xs + 1) / 2 * width - gx
        py = (ys + 1) / 2 * height - gy
        spot = strength * 255.0 * np.exp(-(px**2 + (py * 1.6) ** 2) / (2 * radius**2))
        glow = cv2.resize(np.clip(spot, 0, 255).astype(np.uint8), (width, height))
        lit = cv2.add(lit, cv2.merge([glow, glow, glow]))
    return np.asarray(lit, dtype=np.uint8)


def motion_blur(image: Image, length_px: float, angle_deg: float) -> Image:
    """``image`` smeared along a line ``length_px`` pixels long (at least 3, rounded up to odd)
    at ``angle_deg`` from the x axis: the camera, or what it sees, moving while it exposes."""
    size = max(3, round(length_px) | 1)
    kernel = np.zeros((size, size), np.float32)
    c = (size - 1) / 2
    dx, dy = c * math.cos(math.radians(angle_deg)), c * math.sin(math.radians(angle_deg))
    cv2.line(kernel, (round(c - dx), round(c - dy)), (round(c + dx), round(c + dy)), 1.0, 1)
    return np.asarray(cv2.filter2D(image, -1, kernel / kernel.sum()), dtype=np.uint8)


def apply_camera(image: Image, lighting: Lighting, rng: np.random.Generator) -> Image:
    """The frame through the lens and sensor: blur, motion blur, noise, JPEG compression."""
    out: Image = image
    if lighting.blur_sigma > 0:
        out = np.asarray(cv2.GaussianBlur(out, (0, 0), lighting.blur_sigma), dtype=np.uint8)
    if lighting.motion_blur is not None:
        out = motion_blur(out, *lighting.motion_blur)
    if lighting.noise_sigma > 0:
        tile = np.rint(rng.normal(0.0, lighting.noise_sigma, (180, 320, 3)))
        height, width = out.shape[:2]
        reps = (height // 180 + 1, width // 320 + 1, 1)
        # Added as brighter and darker parts in 8 bits, each saturating at 255 and 0.
        brighter = np.tile(np.clip(tile, 0, 255).astype(np.uint8), reps)[:height, :width]
        darker = np.tile(np.clip(-tile, 0, 255).astype(np.uint8), reps)[:height, :width]
        out = np.asarray(cv2.subtract(cv2.add(out, brighter), darker), np.uint8)
    if lighting.jpeg_quality is not None:
        ok, encoded = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, lighting.jpeg_quality])
        if ok:
            out = np.asarray(cv2.imdecode(encoded, cv2.IMREAD_COLOR), dtype=np.uint8)
    return out
