"""Procedural surface textures: brightness fields around 1.0 to multiply a flat colour by.

Fields are built from small random arrays scaled up, so a 1000 x 800 field costs a few
milliseconds. All randomness comes from the generator passed in.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from vision.render.palettes import Texture

Field = npt.NDArray[np.float32]


def smooth_noise(rng: np.random.Generator, height: int, width: int, cells: int) -> Field:
    """Smooth noise in about -1..1 with ``cells`` random values across the longer side."""
    cells_y = max(2, round(cells * height / max(height, width)))
    cells_x = max(2, round(cells * width / max(height, width)))
    coarse = rng.uniform(-1.0, 1.0, (cells_y, cells_x)).astype(np.float32)
    return np.asarray(cv2.resize(coarse, (width, height), interpolation=cv2.INTER_CUBIC))


def grain(rng: np.random.Generator, height: int, width: int, tile: int = 128) -> Field:
    """Pixel-fine noise in -1..1 (a random tile repeated)."""
    small = rng.uniform(-1.0, 1.0, (tile, tile)).astype(np.float32)
    reps = (height // tile + 1, width // tile + 1)
    return np.tile(small, reps)[:height, :width]


def texture_field(
    rng: np.random.Generator, kind: Texture, height: int, width: int, px_per_mm: float
) -> Field:
    """Brightness field (mean about 1) of a surface of ``kind`` at ``px_per_mm`` resolution."""
    if kind == "wood":
        half_h, half_w = max(1, height // 2), max(1, width // 2)
        if rng.random() < 0.5:  # grain lines along the board or across it, mm apart
            along = np.arange(half_h, dtype=np.float32)[:, None] / (px_per_mm / 2)
        else:
            along = np.arange(half_w, dtype=np.float32)[None, :] / (px_per_mm / 2)
        warp = smooth_noise(rng, half_h, half_w, 6) * 12.0 + smooth_noise(rng, half_h, half_w, 30)
        period = float(rng.uniform(3.0, 8.0))
        rings = np.sin((along + warp) * (2 * np.pi / period)).astype(np.float32)
        field = 1.0 + 0.07 * rings + 0.05 * smooth_noise(rng, half_h, half_w, 8)
        full = cv2.resize(field, (width, height), interpolation=cv2.INTER_LINEAR)
        return np.asarray(full + 0.02 * grain(rng, height, width))
    if kind == "felt":
        return np.asarray(
            1.0 + 0.06 * grain(rng, height, width) + 0.04 * smooth_noise(rng, height, width, 10)
        )
    if kind == "leather":
        blotch = smooth_noise(rng, height, width, 60)
        return np.asarray(
            1.0
            + 0.05 * blotch
            + 0.03 * grain(rng, height, width)
            + 0.04 * smooth_noise(rng, height, width, 5)
        )
    return np.asarray(
        1.0 + 0.015 * grain(rng, height, width) + 0.03 * smooth_noise(rng, height, width, 4)
    )
