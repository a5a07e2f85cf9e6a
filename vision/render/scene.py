"""A scene: everything a rendered frame shows, sampled from a seeded random generator.

A :class:`Scene` is plain frozen data; ``vision.render.render.render_scene`` draws it and labels
it. Randomness needed while drawing (texture grain, sensor noise) comes from ``texture_seed`` and
``noise_seed`` stored in the scene, so rendering a scene twice gives the same image.

``tags`` name the variations a scene exercises (``hand``, ``cocked``, ``stack-stacked``, ...), so
the evaluation can report per-variation figures and the tests can check every variation occurs.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from vision.labels import CUBE_VALUES, Zone
from vision.render import palettes
from vision.render.camera import Camera, sample_camera
from vision.render.geometry import Geometry, sample_geometry
from vision.render.layout import (
    STACKINGS,
    Arrangement,
    PlacedChecker,
    layout_checkers,
)
from vision.render.palettes import BGR, Texture
from vision.render.positions import HOME_CORNERS, Position, random_position, starting_position

SolidKind = Literal["die", "cube"]
# Opposite faces of a die sum to 7; faces are stored as (top, bottom, +x, -x, +y, -y).
_FACE_PAIRS = ((1, 6), (2, 5), (3, 4))


@dataclass(frozen=True)
class Style:
    """Colours (BGR) and textures of the board, checkers and table."""

    theme: str
    frame: BGR
    frame_texture: Texture
    surface: BGR
    surface_texture: Texture
    points: tuple[BGR, BGR]
    point_outline: BGR | None
    bar: BGR
    tray: BGR
    light_checker: BGR
    dark_checker: BGR
    checker_ring: bool
    table: BGR
    table_texture: Texture
    texture_seed: int


@dataclass(frozen=True)
class Solid:
    """A die or the doubling cube resting on the board plane.

    ``faces`` are the values on the local faces (top, bottom, +x, -x, +y, -y); ``turns`` the
    quarter turns of each face's print. The body is turned ``yaw_deg`` about the vertical, then
    tipped ``tilt_deg`` (0 = flat; a cocked die leans on a checker or an edge). ``x, y`` is the
    centre of the body over the board plane, in mm; it rests ``base_height`` mm above the board
    plane (on the raised frame) or on it (0). A marbled body is swirled with ``veins`` (None: a
    plain body), drawn from ``vein_seed``.
    """

    kind: SolidKind
    faces: tuple[int, int, int, int, int, int]
    turns: tuple[int, int, int, int, int, int]
    x: float
    y: float
    size: float
    yaw_deg: float
    tilt_deg: float
    body: BGR
    ink: BGR
    translucent: bool
    base_height: float
    veins: BGR | None
    vein_seed: int

    @property
    def value(self) -> int:
        """The value on the top face."""
        return self.faces[0]

    @property
    def cocked(self) -> bool:
        """Whether the body does not lie flat."""
        return self.tilt_deg > 0.0


@dataclass(frozen=True)
class Hand:
    """A hand reaching over the board, in image pixels: palm centre, pointing direction, size."""

    palm: tuple[float, float]
    direction_deg: float
    size: float
    skin: BGR
    spread: float
    motion_px: float


@dataclass(frozen=True)
class Lighting:
    """Light and camera effects applied to the whole frame.

    ``gradient`` is the brightness change across the frame (fraction, x and y); ``shadow_offset``
    the shift of a shadow on the board plane per mm of height (x, y); ``glare`` is a bright spot
    (x px, y px, radius px, strength 0..1); ``shadow`` a soft dark polygon (image px).
    """

    level: float
    gradient: tuple[float, float]
    vignette: float
    gains: tuple[float, float, float]
    shadow_offset: tuple[float, float]
    glare: tuple[float, float, float, float] | None
    shadow: tuple[tuple[float, float], ...] | None
    shadow_strength: float
    blur_sigma: float
    motion_blur: tuple[float, float] | None
    noise_sigma: float
    jpeg_quality: int | None


@dataclass(frozen=True)
class Scene:
    """One frame to render. ``board`` is false for a frame of the table without a board."""

    width: int
    height: int
    board: bool
    geometry: Geometry
    style: Style
    camera: Camera
    position: Position
    arrangement: Arrangement
    checkers: tuple[PlacedChecker, ...]
    solids: tuple[Solid, ...]
    hands: tuple[Hand, ...]
    lighting: Lighting
    noise_seed: int
    tags: tuple[str, ...]

    def zone(self, solid: Solid) -> Zone:
        """The zone of a die or cube: where its centre rests."""
        return self.geometry.zone(solid.x, solid.y) if self.board else "off-board"


def _style(rng: np.random.Generator) -> Style:
    theme = palettes.THEMES[int(rng.integers(len(palettes.THEMES)))]
    points = theme.points[int(rng.integers(len(theme.points)))]
    if rng.random() < 0.5:
        points = (points[1], points[0])
    point_colors = (palettes.jitter(rng, points[0], 12), palettes.jitter(rng, points[1], 12))
    frame = palettes.pick(rng, theme.frame, 12)
    surface = palettes.pick(rng, theme.surface, 12)
    light = palettes.pick(rng, palettes.LIGHT_CHECKERS, 12)
    darker_point = min(point_colors, key=palettes.luminance)
    if theme.name == "tournament-dark" or rng.random() < 0.25:
        dark = palettes.jitter(rng, darker_point, 10)  # dark checkers on dark points
    else:
        dark = palettes.pick(rng, palettes.DARK_CHECKERS, 10)
    if palettes.luminance(light) < palettes.luminance(dark) + 70:
        light = palettes.jitter(rng, (235, 238, 240), 8)
    return Style(
        theme=theme.name,
        frame=frame,
        frame_texture=theme.frame_texture,
        surface=surface,
        surface_texture=theme.surface_texture,
        points=point_colors,
        point_outline=palettes.pick(rng, ((200, 200, 200), (30, 30, 30)), 20)
        if rng.random() < 0.3
        else None,
        bar=frame if rng.random() < 0.7 else palettes.jitter(rng, surface, 15),
        tray=palettes.jitter(rng, surface if rng.random() < 0.6 else frame, 15),
        light_checker=light,
        dark_checker=dark,
        checker_ring=bool(rng.random() < 0.6),
        table=palettes.pick(rng, palettes.TABLES, 20),
        table_texture=("wood", "plain", "felt")[int(rng.integers(3))],
        texture_seed=int(rng.integers(2**31)),
    )


def _solid_faces(rng: np.random.Generator, top: int) -> tuple[int, int, int, int, int, int]:
    others = [pair for pair in _FACE_PAIRS if top not in pair]
    first, second = (others[i] if rng.random() < 0.5 else others[i][::-1] for i in (0, 1))
    return (top, 7 - top, first[0], first[1], second[0], second[1])


def _cube_faces(rng: np.random.Generator, top: int) -> tuple[int, int, int, int, int, int]:
    rest = [int(v) for v in rng.permutation([v for v in CUBE_VALUES if v != top])]
    return (top, rest[0], rest[1], rest[2], rest[3], rest[4])


def _turns(rng: np.random.Generator) -> tuple[int, int, int, int, int, int]:
    t = [int(v) for v in rng.integers(0, 4, 6)]
    return (t[0], t[1], t[2], t[3], t[4], t[5])


class _Placer:
    """Rejection sampling of die and cube positions clear of checkers and each other."""

    def __init__(self, scene_board: bool, geometry: Geometry, camera: Camera) -> None:
        self.board = scene_board
        self.geometry = geometry
        self.camera = camera
        self.discs: list[tuple[float, float, float]] = []  # x, y, radius (mm)

    def add(self, x: float, y: float, radius: float) -> None:
        """Reserve a disc of the board plane (mm)."""
        self.discs.append((x, y, radius))

    def free(
        self, x: float, y: float, radius: float, leaning_on: tuple[float, float] | None = None
    ) -> bool:
        """Whether a disc fits without touching any other (but the one it leans on)."""
        return all(
            math.hypot(x - cx, y - cy) >= radius + cr
            for cx, cy, cr in self.discs
            if (cx, cy) != leaning_on
        )

    def base_height(self, x: float, y: float) -> float:
        """Height (mm) of the surface a body resting at (x, y) lies on: the frame or the board."""
        on_frame = self.board and self.geometry.on_frame(x, y)
        return self.geometry.frame_height if on_frame else 0.0

    def in_view(self, x: float, y: float, margin: float) -> bool:
        """Whether board-plane point (x, y) shows ``margin`` px or more inside the frame."""
        u, v = self.camera.project(np.array([[x, y, 0.0]]))[0]
        return bool(
            margin <= u <= self.camera.width - margin and margin <= v <= self.camera.height - margin
        )

    def clear_of_zone_edges(self, x: float, y: float, margin: float) -> bool:
        """Whether the point is ``margin`` mm or more from every zone boundary."""
        g = self.geometry
        edges_x = (0.0, g.bar_rect[0], g.bar_rect[2], g.surface_width)
        near_x = (
            any(abs(x - e) < margin for e in edges_x) and -margin < y < g.surface_height + margin
        )
        near_y = any(abs(y - e) < margin for e in (0.0, g.surface_height)) and (
            -margin < x < g.surface_width + margin
        )
        return not (near_x or near_y)

    def sample(self, rng: np.random.Generator, zone: Zone, size: float) -> tuple[float, float]:
        """A free spot for a body of ``size`` mm whose centre lies in ``zone``."""
        g = self.geometry
        radius = size * 0.75
        x0, y0, x1, y1 = g.outer_rect
        for _ in range(200):
            if zone == "left-half":
                x, y = rng.uniform(0, g.bar_rect[0]), rng.uniform(0, g.surface_height)
            elif zone == "right-half":
                x, y = rng.uniform(g.bar_rect[2], g.surface_width), rng.uniform(0, g.surface_height)
            elif zone == "on-bar":
                x, y = rng.uniform(g.bar_rect[0], g.bar_rect[2]), rng.uniform(0, g.surface_height)
            else:
                x, y = rng.uniform(x0 - 80, x1 + 80), rng.uniform(y0 - 80, y1 + 80)
            x, y = float(x), float(y)
            actual = g.zone(x, y) if self.board else "off-board"
            if (
                actual == zone
                and self.clear_of_zone_edges(x, y, size * 0.75)
                and self.free(x, y, radius)
                and self.in_view(x, y, 40.0)
            ):
                return x, y
        raise _NoRoomError


class _NoRoomError(Exception):
    """No free spot was found for a die: the scene is sampled again."""


def _checker_discs(placer: _Placer, checkers: tuple[PlacedChecker, ...], d: float) -> None:
    for checker in checkers:
        if checker.standing or checker.level == 0:
            placer.add(checker.x, checker.y, d / 2)


def _beside_checker(
    rng: np.random.Generator,
    placer: _Placer,
    checkers: tuple[PlacedChecker, ...],
    zone: Zone,
    size: float,
    distance: Callable[[float], float],
) -> tuple[float, float, float] | None:
    """A spot in ``zone`` beside a checker lying on the board, ``distance(angle)`` mm from its
    centre, ``angle`` (deg) the direction from the spot to the checker, clear of the zone's
    edges and of everything but that checker: (x, y, angle), or None (40 tries)."""
    candidates = [c for c in checkers if c.level == 0 and not c.standing]
    for _ in range(40):
        if not candidates:
            return None
        checker = candidates[int(rng.integers(len(candidates)))]
        angle = float(rng.uniform(0.0, 360.0))
        reach = distance(angle)
        x = checker.x - reach * math.cos(math.radians(angle))
        y = checker.y - reach * math.sin(math.radians(angle))
        if (
            placer.geometry.zone(x, y) == zone
            and placer.clear_of_zone_edges(x, y, size * 0.75)
            and placer.free(x, y, size * 0.6, leaning_on=(checker.x, checker.y))
            and placer.in_view(x, y, 40.0)
        ):
            return x, y, angle
    return None


def _lean_spot(
    rng: np.random.Generator,
    placer: _Placer,
    checkers: tuple[PlacedChecker, ...],
    zone: Zone,
    size: float,
) -> tuple[float, float, float] | None:
    """A spot where a die leans on a checker: (x, y, direction towards the checker in deg)."""
    radius = placer.geometry.checker_diameter / 2
    return _beside_checker(rng, placer, checkers, zone, size, lambda _: radius + size * 0.35)


def _edge_spot(
    rng: np.random.Generator, placer: _Placer, zone: Zone, size: float
) -> tuple[float, float, float] | None:
    """A spot where a die leans on the board's raised frame: against one of its inner walls
    within the playing surface, or, off the board, against its outer side: (x, y, direction
    towards the wall in deg)."""
    g = placer.geometry
    reach = size * 0.35  # the die's centre from the wall, as from a checker's edge
    margin = size * 0.75  # clear of the zone's other edges, as ``_Placer.sample``
    w, h = g.surface_width, g.surface_height
    bar_left, _, bar_right, _ = g.bar_rect
    x0, y0, x1, y1 = g.outer_rect
    # each wall: a point on it as a function of a share along it, and the direction to it
    walls: list[tuple[tuple[float, float], tuple[float, float], float]] = []
    if zone in ("left-half", "right-half", "on-bar"):
        span = {
            "left-half": (margin, bar_left - margin),
            "right-half": (bar_right + margin, w - margin),
            "on-bar": (bar_left + margin, bar_right - margin),
        }[zone]
        walls += [((span[0], reach), (span[1], reach), 270.0)]  # the top wall
        walls += [((span[0], h - reach), (span[1], h - reach), 90.0)]  # the bottom wall
        if zone == "left-half":
            walls += [((reach, margin), (reach, h - margin), 180.0)]
        if zone == "right-half":
            walls += [((w - reach, margin), (w - reach, h - margin), 0.0)]
    else:
        walls += [
            ((x0, y0 - reach), (x1, y0 - reach), 90.0),
            ((x0, y1 + reach), (x1, y1 + reach), 270.0),
        ]
        walls += [
            ((x0 - reach, y0), (x0 - reach, y1), 0.0),
            ((x1 + reach, y0), (x1 + reach, y1), 180.0),
        ]
    # a zone too narrow leaves a wall no room to lean against
    walls = [(a, b, towards) for a, b, towards in walls if a[0] <= b[0] and a[1] <= b[1]]
    for _ in range(40 if walls else 0):
        (ax, ay), (bx, by), towards = walls[int(rng.integers(len(walls)))]
        along = float(rng.uniform(0.0, 1.0))
        x, y = ax + along * (bx - ax), ay + along * (by - ay)
        actual = g.zone(x, y) if placer.board else "off-board"
        if actual == zone and placer.free(x, y, size * 0.6) and placer.in_view(x, y, 40.0):
            return x, y, towards
    return None


# Rolled dice often come to rest against each other: the second die of a throw lies against
# the first in this share of sampled scenes (both flat), 0..TOUCHING_GAP_MM apart.
TOUCHING_SHARE = 0.15
# A flat die laid against a checker (``against_share``) lies within this many mm of its edge.
FLUSH_GAP_MM = 0.5
# The middle of the bar kept clear of bar checkers for a centred cube: this many cube sides.
CENTRED_CUBE_GAP = 1.5
# Share of the dice drawn leaning (cocked) on a checker or, where none is near, the board's
# raised frame (``_edge_spot``); a die with neither to lean on lies flat.
LEAN_SHARE = 0.16
TOUCHING_GAP_MM = 1.0
# Share of the pairs of dice of another make (coloured pips, marbled bodies), and how far their
# pips' colour stays from the body's and the veins' (BGR distance).
FANCY_DICE_SHARE = 0.3
_MIN_PIP_CONTRAST = 120.0
# A motion-blurred frame is smeared this many pixels (least, most), and a blurred one blurred
# with a Gaussian of this many pixels (sigma), on a frame ``REFERENCE_WIDTH`` pixels wide: the
# optics and the motion blur the scene, so a wider frame of the same view is blurred as many
# more pixels (sensor noise and JPEG blocks stay per pixel).
MOTION_BLUR_PX = (3.0, 9.0)
BLUR_PX = (0.5, 1.8)
REFERENCE_WIDTH = 1280


def square_reach(size: float, yaw_deg: float, direction: float) -> float:
    """How far (mm) a flat die of side ``size`` (mm) turned ``yaw_deg`` about the vertical
    reaches from its centre along ``direction`` (radians): its half extent there."""
    turn = math.radians(yaw_deg) - direction
    return size / 2 * (abs(math.cos(turn)) + abs(math.sin(turn)))


def touching_distance(size: float, yaw_a_deg: float, yaw_b_deg: float, direction: float) -> float:
    """The centre distance (mm) at which two flat dice of side ``size`` (mm), turned
    ``yaw_a_deg`` and ``yaw_b_deg`` about the vertical, just touch, the second lying in
    ``direction`` (radians) from the first: the separating-axis test of two squares (they are
    apart when, along some side's normal, their centres are further apart than their half
    extents together)."""
    best = math.inf
    for axis in (math.radians(a + q) for a in (yaw_a_deg, yaw_b_deg) for q in (0.0, 90.0)):
        along = abs(math.cos(direction - axis))
        if along < 1e-9:
            continue
        extent = sum(square_reach(size, yaw, axis) for yaw in (yaw_a_deg, yaw_b_deg))
        best = min(best, extent / along)
    return best


def _flush_spot(
    rng: np.random.Generator,
    placer: _Placer,
    checkers: tuple[PlacedChecker, ...],
    zone: Zone,
    size: float,
    yaw_deg: float,
) -> tuple[float, float] | None:
    """A spot where a flat die turned ``yaw_deg`` lies against a checker, clear of it: its
    side (or corner) facing the checker within ``FLUSH_GAP_MM`` of the checker's edge, where
    a leaning die's centre lies only 0.35 of a side from it (``_lean_spot``)."""
    radius = placer.geometry.checker_diameter / 2

    def flush(angle: float) -> float:
        reach = square_reach(size, yaw_deg, math.radians(angle))  # toward the checker
        return radius + reach + float(rng.uniform(0.0, FLUSH_GAP_MM))

    spot = _beside_checker(rng, placer, checkers, zone, size, flush)
    return None if spot is None else spot[:2]


def _touching_spot(
    touch: np.random.Generator, placer: _Placer, first: Solid, yaw_deg: float
) -> tuple[float, float] | None:
    """A spot where a flat die turned ``yaw_deg`` lies against the flat die ``first``, clear of
    everything else, of the zone edges and of the frame's edges, or None (eight tries)."""
    for _ in range(8):
        direction = float(touch.uniform(0.0, 2 * math.pi))
        reach = touching_distance(first.size, first.yaw_deg, yaw_deg, direction)
        reach += float(touch.uniform(0.0, TOUCHING_GAP_MM))
        x, y = first.x + reach * math.cos(direction), first.y + reach * math.sin(direction)
        if (
            placer.free(x, y, first.size * 0.75, leaning_on=(first.x, first.y))
            and placer.clear_of_zone_edges(x, y, first.size * 0.75)
            and placer.in_view(x, y, 40.0)
            and placer.base_height(x, y) == first.base_height
        ):
            return x, y
    return None


@dataclass(frozen=True)
class _DiceLook:
    body: BGR
    ink: BGR
    veins: BGR | None
    vein_seed: int
    tags: tuple[str, ...]


def _dice_look(body: BGR, look: np.random.Generator | None, fancy_share: float) -> _DiceLook:
    """A pair's colours: ``body`` with contrasting black or white pips, or with ``look`` (a
    generator of its own) in ``fancy_share`` of pairs another make's: coloured pips on a body
    that is marbled in half of them."""
    if look is None or look.random() >= fancy_share:
        return _DiceLook(body, palettes.contrast(body), None, 0, ())
    body = palettes.pick(look, palettes.FANCY_DICE_BODIES, 15)
    # Colours are chosen far enough apart that their jitter (up to 10 or 15 a channel) keeps
    # them ``_MIN_PIP_CONTRAST`` apart.
    far = _MIN_PIP_CONTRAST + 10 * math.sqrt(3)
    inks = [i for i in palettes.PIP_INKS if palettes.distance(i, body) > far]
    ink = palettes.pick(look, tuple(inks), 10)
    veins = None
    if look.random() < 0.5:
        # Veins are part way from the body's colour to one of ``VEINS``.
        strength = look.uniform(0.35, 0.8)
        blends = [palettes.blend(body, v, strength) for v in palettes.VEINS]
        far = _MIN_PIP_CONTRAST + 15 * math.sqrt(3)
        choices = tuple(v for v in blends if palettes.distance(v, ink) > far)
        veins = palettes.pick(look, choices, 15) if choices else None
    tags = ("fancy-dice",) if veins is None else ("fancy-dice", "marbled-dice")
    return _DiceLook(body, ink, veins, int(look.integers(2**31)), tags)


def _dice(
    rng: np.random.Generator,
    placer: _Placer,
    checkers: tuple[PlacedChecker, ...],
    tags: set[str],
    values: Sequence[int] | None,
    touch: np.random.Generator | None = None,
    lean_share: float = LEAN_SHARE,
    look: np.random.Generator | None = None,
    fancy_share: float = FANCY_DICE_SHARE,
    against_share: float = 0.0,
) -> list[Solid]:
    """The dice of a scene, each leaning (tipped 12..35 degrees) with probability
    ``lean_share``, and of the others each lying flat against a checker with probability
    ``against_share``. With ``touch`` (a generator of its own, so a seed's scene is otherwise
    unchanged) the second die lies against the first in ``TOUCHING_SHARE`` of scenes; with
    ``look`` (another) a pair is of another make in ``fancy_share`` of pairs (``_dice_look``)."""
    count = int(rng.choice([0, 1, 2, 3, 4], p=[0.08, 0.1, 0.62, 0.1, 0.1]))
    if values is not None:
        count = len(values)
    zones: tuple[Zone, ...] = ("left-half", "right-half", "on-bar", "off-board")
    dark = bool(rng.random() < 0.5)
    bodies = palettes.DICE_BODIES_DARK if dark else palettes.DICE_BODIES_LIGHT
    pair = _dice_look(palettes.pick(rng, bodies, 10), look, fancy_share)
    translucent = bool(rng.random() < 0.15)
    size = float(rng.uniform(15.0, 19.0))
    dice: list[Solid] = []
    for k in range(count):
        if k == 2:  # a second pair: the other colour
            dark = not dark
            bodies = palettes.DICE_BODIES_DARK if dark else palettes.DICE_BODIES_LIGHT
            pair = _dice_look(palettes.pick(rng, bodies, 10), look, fancy_share)
        zone: Zone = (
            zones[int(rng.choice(4, p=[0.36, 0.36, 0.1, 0.18]))] if placer.board else "off-board"
        )
        value = int(rng.integers(1, 7)) if values is None else values[k]
        yaw, tilt = float(rng.uniform(0.0, 360.0)), 0.0
        spot = None
        if rng.random() < lean_share:
            lean = _lean_spot(rng, placer, checkers, zone, size)
            tilt = float(rng.uniform(12.0, 35.0))
            if lean is None and placer.board:
                lean = _edge_spot(rng, placer, zone, size)
            if lean is None:
                tilt = 0.0  # nothing to lean on: the die lies flat
            else:
                x, y, towards = lean
                yaw, spot = towards + 90.0, (x, y)
        elif against_share and rng.random() < against_share:
            spot = _flush_spot(rng, placer, checkers, zone, size, yaw)
        x, y = spot if spot is not None else placer.sample(rng, zone, size)
        if (
            touch is not None
            and k == 1
            and tilt == 0.0
            and not dice[0].cocked
            and touch.random() < TOUCHING_SHARE
        ):
            against = _touching_spot(touch, placer, dice[0], yaw)
            if against is not None:
                x, y = against
                zone = placer.geometry.zone(x, y) if placer.board else "off-board"
                tags.add("touching-dice")
        placer.add(x, y, size * 0.75)
        dice.append(
            Solid(
                "die",
                _solid_faces(rng, value),
                _turns(rng),
                x,
                y,
                size,
                yaw,
                tilt,
                pair.body,
                pair.ink,
                translucent,
                placer.base_height(x, y),
                pair.veins,
                pair.vein_seed,
            )
        )
        tags.add(f"die-{zone}")
        tags.add("dark-dice" if dark else "light-dice")
        tags.update(pair.tags)
        if translucent:
            tags.add("translucent-dice")
        if tilt > 0:
            tags.add("cocked")
    return dice


def _cube(
    rng: np.random.Generator, placer: _Placer, centred: bool, size: float, tags: set[str]
) -> Solid:
    g = placer.geometry
    if centred:
        value = 64
        x, y = (g.bar_rect[0] + g.bar_rect[2]) / 2, g.surface_height / 2
        tags.add("cube-centred")
    else:
        value = CUBE_VALUES[int(rng.integers(len(CUBE_VALUES)))]
        x, y = placer.sample(rng, "off-board", size)
        tags.add("cube-owned")
    placer.add(x, y, size * 0.75)
    body = palettes.pick(rng, palettes.CUBE_BODIES, 10)
    return Solid(
        "cube",
        _cube_faces(rng, value),
        _turns(rng),
        x,
        y,
        size,
        float(rng.uniform(-12.0, 12.0)) if centred else float(rng.uniform(0.0, 360.0)),
        0.0,
        body,
        palettes.contrast(body),
        False,
        placer.base_height(x, y),
        None,
        0,
    )


def sample_hand(rng: np.random.Generator, camera: Camera, geometry: Geometry) -> Hand:
    """A hand reaching in over the playing surface (palm on it), of a random skin and spread."""
    corners = camera.project(geometry.corners())
    weights = rng.dirichlet(np.ones(4))
    palm = weights @ corners
    toward_centre = np.array([camera.width / 2, camera.height / 2]) - palm
    inward = math.degrees(math.atan2(toward_centre[1], toward_centre[0]))
    scale = np.linalg.norm(corners[1] - corners[0]) / geometry.surface_width  # px per mm
    return Hand(
        palm=(float(palm[0]), float(palm[1])),
        direction_deg=inward + float(rng.uniform(-50.0, 50.0)),
        size=float(scale * rng.uniform(80.0, 100.0)),
        skin=palettes.pick(rng, palettes.SKIN, 12),
        spread=float(rng.uniform(0.0, 1.0)),
        motion_px=float(rng.uniform(0.0, 18.0)) * camera.width / REFERENCE_WIDTH
        if rng.random() < 0.6
        else 0.0,
    )


def sample_lighting(rng: np.random.Generator, width: int, height: int, tags: set[str]) -> Lighting:
    """The light and the camera's effects on a ``width`` x ``height`` frame (glare, shadow,
    blur, motion blur, noise, JPEG), adding their tags to ``tags``; blur and motion blur are
    drawn for a frame ``REFERENCE_WIDTH`` wide and scaled to this one."""
    glare = None
    if rng.random() < 0.3:
        glare = (
            float(rng.uniform(0, width)),
            float(rng.uniform(0, height)),
            float(rng.uniform(0.05, 0.25) * width),
            float(rng.uniform(0.25, 0.7)),
        )
        tags.add("glare")
    shadow = None
    if rng.random() < 0.25:
        centre = rng.uniform([0, 0], [width, height])
        radii = rng.uniform(0.15, 0.5, 6) * width
        angles = np.sort(rng.uniform(0, 2 * math.pi, 6))
        shadow = tuple(
            (float(centre[0] + r * math.cos(a)), float(centre[1] + r * math.sin(a)))
            for r, a in zip(radii, angles, strict=True)
        )
        tags.add("shadow")
    azimuth = rng.uniform(0.0, 2 * math.pi)
    reach = float(rng.uniform(0.15, 0.9))
    px = width / REFERENCE_WIDTH
    blur = float(rng.uniform(*BLUR_PX)) * px if rng.random() < 0.4 else 0.0
    motion = (
        (float(rng.uniform(*MOTION_BLUR_PX)) * px, float(rng.uniform(0.0, 180.0)))
        if rng.random() < 0.08
        else None
    )
    noise = float(rng.uniform(1.5, 7.0)) if rng.random() < 0.7 else 0.0
    jpeg = int(rng.integers(35, 92)) if rng.random() < 0.5 else None
    for tag, present in (
        ("blur", blur > 0),
        ("motion-blur", motion is not None),
        ("noise", noise > 0),
        ("jpeg", jpeg is not None),
    ):
        if present:
            tags.add(tag)
    return Lighting(
        level=float(rng.uniform(0.7, 1.15)),
        gradient=(float(rng.uniform(-0.35, 0.35)), float(rng.uniform(-0.35, 0.35))),
        vignette=float(rng.uniform(0.0, 0.35)),
        gains=(
            float(rng.uniform(0.85, 1.15)),
            float(rng.uniform(0.95, 1.05)),
            float(rng.uniform(0.85, 1.15)),
        ),
        shadow_offset=(reach * math.cos(azimuth), reach * math.sin(azimuth)),
        glare=glare,
        shadow=shadow,
        shadow_strength=float(rng.uniform(0.2, 0.5)),
        blur_sigma=blur,
        motion_blur=motion,
        noise_sigma=noise,
        jpeg_quality=jpeg,
    )


def sample_scene(
    rng: np.random.Generator,
    width: int = 1280,
    height: int = 720,
    position: Position | None = None,
    dice: Sequence[int] | None = None,
    lean_share: float = LEAN_SHARE,
    fancy_share: float = FANCY_DICE_SHARE,
    against_share: float = 0.0,
) -> Scene:
    """A random scene for a ``width`` x ``height`` frame; all randomness drawn from ``rng``.

    ``position`` and ``dice`` (values 1..6) fix what is shown instead of sampling it (for demos);
    the rest of the scene is drawn as without them. ``lean_share`` of the dice lean (more for
    training a judge of cocked dice; other shares draw other scenes from the same seed),
    ``against_share`` of the others lie flat against a checker (for the judge too: a die
    against a checker need not lean; other than 0, other scenes) and ``fancy_share`` of the
    pairs of dice are of another make (more for training the dice reader; the rest of the
    scene is drawn as with the default).
    """
    _check_dice(dice)
    # Streams of their own, so the rest of the scene is drawn as before they were added.
    touch, look = rng.spawn(2)
    while True:
        try:
            return _sample_once(
                rng,
                width,
                height,
                position,
                dice,
                touch,
                look,
                (lean_share, fancy_share, against_share),
            )
        except _NoRoomError:
            continue


def scene_for_seed(
    seed: int, width: int = 1280, height: int = 720, against_share: float = 0.0
) -> Scene:
    """The scene of frame ``seed``: :func:`sample_scene` with ``numpy.random.default_rng(seed)``
    (``against_share`` as there)."""
    return sample_scene(np.random.default_rng(seed), width, height, against_share=against_share)


def _sample_once(
    rng: np.random.Generator,
    width: int,
    height: int,
    fixed_position: Position | None,
    fixed_dice: Sequence[int] | None,
    touch: np.random.Generator,
    look: np.random.Generator,
    shares: tuple[float, float, float],
) -> Scene:
    lean_share, fancy_share, against_share = shares
    tags: set[str] = set()
    geometry = sample_geometry(rng)
    style = _style(rng)
    tags.add(f"theme-{style.theme}")
    if style.dark_checker == min(style.points, key=palettes.luminance) or (
        min(np.abs(np.subtract(style.dark_checker, p)).sum() for p in style.points) < 60
    ):
        tags.add("dark-on-dark")
    board = bool(rng.random() > 0.02)
    if rng.random() < 0.25:
        position = starting_position(HOME_CORNERS[int(rng.integers(4))])
        tags.add("starting-position")
    else:
        position = random_position(rng)
        tags.add("random-position")
    if fixed_position is not None:
        position = fixed_position
        tags -= {"starting-position", "random-position"}
    cube_present = bool(rng.random() < 0.9)
    centred = cube_present and bool(rng.random() < 0.55)
    cube_size = float(rng.uniform(20.0, 27.0))
    arrangement = Arrangement(
        stacking=STACKINGS[int(rng.integers(len(STACKINGS)))],
        tray=geometry.trays[int(rng.integers(len(geometry.trays)))],
        light_tray_top=bool(rng.random() < 0.5),
        light_bar_top=bool(rng.random() < 0.5),
        bar_gap=cube_size * CENTRED_CUBE_GAP if centred else geometry.checker_diameter * 0.2,
    )
    checkers = layout_checkers(geometry, position, arrangement, rng) if board else ()
    if board and any(count > 5 for _, count in position.points):
        tags.add(f"stack-{arrangement.stacking}")
    x0, y0, x1, y1 = geometry.outer_rect
    extent = np.array([[x0, y0, 0.0], [x1, y0, 0.0], [x1, y1, 0.0], [x0, y1, 0.0]])
    centre = ((x0 + x1) / 2, (y0 + y1) / 2)
    camera = sample_camera(rng, width, height, centre, extent)
    if camera.tilt_deg > 10.0:
        tags.add("perspective")
    if abs(camera.k1) > 0.02:
        tags.add("lens-distortion")
    placer = _Placer(board, geometry, camera)
    _checker_discs(placer, checkers, geometry.checker_diameter)
    solids: list[Solid] = []
    if cube_present:
        solids.append(_cube(rng, placer, centred and board, cube_size, tags))
    solids += _dice(
        rng, placer, checkers, tags, fixed_dice, touch, lean_share, look, fancy_share, against_share
    )
    hands: tuple[Hand, ...] = ()
    if board and rng.random() < 0.1:
        hands = (sample_hand(rng, camera, geometry),)
        tags.add("hand")
    if not board:
        tags = {t for t in tags if not t.startswith(("theme-", "stack-"))} | {"no-board"}
        tags -= {"dark-on-dark", "starting-position", "random-position"}
    lighting = sample_lighting(rng, width, height, tags)
    return Scene(
        width=width,
        height=height,
        board=board,
        geometry=geometry,
        style=style,
        camera=camera,
        position=position,
        arrangement=arrangement,
        checkers=checkers,
        solids=tuple(solids),
        hands=hands,
        lighting=lighting,
        noise_seed=int(rng.integers(2**31)),
        tags=tuple(sorted(tags)),
    )


# Tags of what restage() replaces (prefixes).
_STAGED_TAGS = (
    "die-",
    "stack-",
    "cocked",
    "light-dice",
    "dark-dice",
    "translucent-dice",
    "touching-dice",
    "fancy-dice",
    "marbled-dice",
    "hand",
    "starting-position",
    "random-position",
)


def _check_dice(dice: Sequence[int] | None) -> None:
    if dice is not None and not all(1 <= value <= 6 for value in dice):
        raise ValueError(f"dice: expected values 1..6, got {list(dice)}")


def scaled_scene(scene: Scene, factor: int) -> Scene:
    """The same view ``factor`` times as many pixels wide and high: the camera's focal length
    and principal point, and everything drawn in pixels (glare, shadow, blur, motion blur,
    hands) scaled; sensor noise and JPEG stay per pixel. For frames a finer camera would give
    (shrunk to the networks' size, as ``vision.read.working_copy`` does)."""

    def points(xys: Sequence[tuple[float, float]]) -> tuple[tuple[float, float], ...]:
        return tuple((x * factor, y * factor) for x, y in xys)

    camera = scene.camera
    light = scene.lighting
    glare = light.glare
    motion = light.motion_blur
    return dataclasses.replace(
        scene,
        width=scene.width * factor,
        height=scene.height * factor,
        camera=dataclasses.replace(
            camera,
            width=camera.width * factor,
            height=camera.height * factor,
            focal=camera.focal * factor,
            principal=points([camera.principal])[0],
        ),
        lighting=dataclasses.replace(
            light,
            glare=None
            if glare is None
            else (glare[0] * factor, glare[1] * factor, glare[2] * factor, glare[3]),
            shadow=None if light.shadow is None else points(light.shadow),
            blur_sigma=light.blur_sigma * factor,
            motion_blur=None if motion is None else (motion[0] * factor, motion[1]),
        ),
        hands=tuple(
            dataclasses.replace(
                hand,
                palm=points([hand.palm])[0],
                size=hand.size * factor,
                motion_px=hand.motion_px * factor,
            )
            for hand in scene.hands
        ),
    )


def restage(
    scene: Scene,
    rng: np.random.Generator,
    position: Position,
    dice: Sequence[int] = (),
    lean_share: float = LEAN_SHARE,
) -> Scene:
    """The same board, camera, light and cube with another position and roll, no hands; each
    die leaning on a checker or the frame with probability ``lean_share``.

    For demo sequences: successive positions of a match on one table. Raises ``ValueError`` if
    the dice find no room on the board.
    """
    _check_dice(dice)
    tags = {t for t in scene.tags if not t.startswith(_STAGED_TAGS)}
    for _ in range(20):
        checkers = (
            layout_checkers(scene.geometry, position, scene.arrangement, rng) if scene.board else ()
        )
        placer = _Placer(scene.board, scene.geometry, scene.camera)
        _checker_discs(placer, checkers, scene.geometry.checker_diameter)
        cubes = tuple(s for s in scene.solids if s.kind == "cube")
        for cube in cubes:
            placer.add(cube.x, cube.y, cube.size * 0.75)
        staged = set(tags)
        try:
            rolled = _dice(rng, placer, checkers, staged, dice, lean_share=lean_share)
        except _NoRoomError:
            continue
        if any(count > 5 for _, count in position.points):
            staged.add(f"stack-{scene.arrangement.stacking}")
        return dataclasses.replace(
            scene,
            position=position,
            checkers=checkers,
            solids=(*cubes, *rolled),
            hands=(),
            tags=tuple(sorted(staged)),
        )
    raise ValueError("dice: no room for them on this board")
