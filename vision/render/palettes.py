"""Colours of boards, checkers, dice, hands and tables for rendered scenes (BGR, 0..255).

Each board theme is a family of real boards; sampled colours are jittered around its base
colours. ``tournament-dark`` boards have dark points on a dark surface, where dark checkers on
dark points are the hard case for the reader.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

BGR = tuple[int, int, int]
Texture = Literal["wood", "felt", "leather", "plain"]
TEXTURES: tuple[Texture, ...] = ("wood", "felt", "leather", "plain")


@dataclass(frozen=True)
class Theme:
    """Base colours and textures of one family of boards."""

    name: str
    frame: tuple[BGR, ...]
    frame_texture: Texture
    surface: tuple[BGR, ...]
    surface_texture: Texture
    points: tuple[tuple[BGR, BGR], ...]


THEMES: tuple[Theme, ...] = (
    Theme(
        "wood-classic",
        ((40, 80, 130), (30, 60, 105), (60, 105, 160)),
        "wood",
        ((120, 170, 215), (95, 145, 195)),
        "wood",
        (((25, 35, 60), (170, 205, 235)), ((30, 30, 150), (25, 25, 30))),
    ),
    Theme(
        "green-felt",
        ((35, 65, 110), (25, 30, 40)),
        "wood",
        ((40, 105, 35), (55, 90, 30)),
        "felt",
        (((30, 30, 30), (225, 230, 235)), ((40, 40, 170), (190, 215, 230))),
    ),
    Theme(
        "tournament-dark",
        ((25, 25, 28), (35, 30, 30), (20, 35, 55)),
        "leather",
        ((40, 40, 42), (45, 60, 30), (60, 40, 35)),
        "felt",
        (((25, 22, 90), (22, 22, 24)), ((75, 75, 78), (30, 28, 30)), ((35, 30, 110), (60, 45, 35))),
    ),
    Theme(
        "blue-felt",
        ((40, 70, 110), (60, 50, 40)),
        "wood",
        ((120, 65, 25), (95, 45, 20)),
        "felt",
        (((220, 200, 170), (70, 30, 15)), ((230, 230, 235), (40, 30, 150))),
    ),
    Theme(
        "red-leather",
        ((30, 40, 60), (25, 25, 25)),
        "leather",
        ((35, 35, 120), (40, 30, 95)),
        "leather",
        (((20, 20, 20), (185, 215, 230)), ((30, 55, 20), (200, 220, 230))),
    ),
    Theme(
        "cream-leather",
        ((40, 60, 90), (180, 200, 215)),
        "leather",
        ((175, 205, 225), (160, 190, 210)),
        "leather",
        (((40, 70, 20), (30, 30, 120)), ((60, 60, 60), (20, 60, 140))),
    ),
    Theme(
        "dark-wood",
        ((20, 35, 60), (25, 45, 75)),
        "wood",
        ((30, 55, 90), (25, 45, 70)),
        "wood",
        (((120, 170, 210), (15, 20, 30)), ((90, 140, 190), (20, 25, 90))),
    ),
)

LIGHT_CHECKERS: tuple[BGR, ...] = (
    (235, 238, 240),
    (200, 225, 240),
    (165, 200, 225),
    (200, 200, 200),
    (150, 220, 235),
    (185, 190, 235),
)
DARK_CHECKERS: tuple[BGR, ...] = (
    (28, 28, 30),
    (30, 50, 85),
    (35, 30, 130),
    (90, 40, 25),
    (40, 75, 30),
    (65, 65, 65),
)
DICE_BODIES_LIGHT: tuple[BGR, ...] = ((240, 242, 245), (205, 228, 240), (60, 60, 210))
DICE_BODIES_DARK: tuple[BGR, ...] = ((25, 25, 25), (40, 30, 140), (110, 45, 20), (35, 90, 35))
# Dice of other makes (``vision.render.scene``: a share of the pairs): coloured or metallic pips
# on plain or marbled bodies, as in the real photos (red pips on black, blue or swirled bodies,
# gold on red, white on purple or green).
FANCY_DICE_BODIES: tuple[BGR, ...] = (
    (30, 30, 35),
    (150, 80, 20),
    (200, 140, 60),
    (40, 40, 190),
    (130, 40, 110),
    (60, 140, 30),
    (120, 120, 40),
    (70, 70, 80),
)
PIP_INKS: tuple[BGR, ...] = (
    (40, 40, 200),
    (40, 180, 220),
    (60, 130, 170),
    (235, 235, 235),
    (25, 25, 25),
    (200, 120, 40),
)
VEINS: tuple[BGR, ...] = ((225, 225, 225), (30, 30, 30), (210, 160, 80), (70, 70, 160))
CUBE_BODIES: tuple[BGR, ...] = ((235, 240, 242), (200, 225, 240), (30, 30, 30), (40, 60, 100))
SKIN: tuple[BGR, ...] = ((170, 190, 235), (140, 170, 220), (100, 135, 190), (60, 90, 140))
TABLES: tuple[BGR, ...] = ((70, 100, 140), (120, 120, 120), (50, 60, 70), (150, 160, 170))


def jitter(rng: np.random.Generator, color: BGR, amount: float) -> BGR:
    """``color`` with each channel moved by up to ``amount``, kept in 0..255."""
    moved = np.clip(np.array(color) + rng.uniform(-amount, amount, 3), 0, 255)
    return (int(moved[0]), int(moved[1]), int(moved[2]))


def pick(rng: np.random.Generator, colors: tuple[BGR, ...], amount: float) -> BGR:
    """One of ``colors``, jittered by up to ``amount`` per channel."""
    return jitter(rng, colors[int(rng.integers(len(colors)))], amount)


def luminance(color: BGR) -> float:
    """Rec. 601 luma of a BGR colour, 0..255."""
    return 0.114 * color[0] + 0.587 * color[1] + 0.299 * color[2]


def contrast(color: BGR) -> BGR:
    """Black or white, whichever shows better on ``color`` (pips on a die)."""
    return (20, 20, 20) if luminance(color) > 110 else (235, 235, 235)


def distance(a: BGR, b: BGR) -> float:
    """Euclidean distance of two BGR colours (0..442)."""
    return float(np.linalg.norm(np.subtract(a, b)))


def blend(a: BGR, b: BGR, share: float) -> BGR:
    """The colour ``share`` (0..1) of the way from ``a`` to ``b``."""
    mixed = np.round(np.array(a) * (1.0 - share) + np.array(b) * share)
    return (int(mixed[0]), int(mixed[1]), int(mixed[2]))
