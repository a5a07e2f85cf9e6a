"""Rendered frames of scripted board states: one table (``vision.render``: the demo's seed and even
light unless a shot names another ``Table``; 480 x 270 to keep rendering cheap, or the kiosk
camera's 1280 x 720 for tests that read the pixels), restaged for each shot with ``restage``.

A :class:`Shot` is what the camera sees while the table is still: the board (the referee's
``Sides``, each player's own numbering), the dice lying on it (value, board zone, cocked or flat),
the cube (face, place) and optionally a hand reaching in from one row (an occluded frame, which
the pipeline never reads). ``render_shot`` returns the frame and the renderer's exact label
(``vision.labels.Reading``), cached for the whole test session: a shot renders once.

Orientation: every scripted table has player 0 (light) at the bottom with his home board bottom
right and his clock on the right, as the embedded demo (``kiosk.demo.DEMO_CONFIG``).
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import zlib
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from hardware.camera.frame import Image
from kiosk.referee.board import START_SIDES, Sides
from kiosk.referee.config import RefereeConfig
from kiosk.referee.events import CubePlace, Row, Zone
from scripts.make_demo import CLEAN_LIGHT, placed_cube, reaching_hand, vision_position
from vision.config import ReadConfig
from vision.labels import Reading
from vision.render.render import render_scene
from vision.render.scene import CENTRED_CUBE_GAP, LEAN_SHARE, Scene, restage, sample_scene

SIZE = (480, 270)
"""The frames' size (width, height pixels) where only the labels are read: cheap to render."""
CAMERA_SIZE = (1280, 720)
"""The kiosk camera's frame size (``hardware.camera.picamera_source``), for reading pixels."""
SEED = 104
"""The demo's table seed: it has a board and a centred cube at this size too."""


@dataclass(frozen=True)
class Table:
    """The table a shot is taken at: the renderer's scene of ``seed`` (board, theme, camera,
    cube), in even light (``clean_light``, the demo's) or its own (gradients, glare, shadow,
    focus blur, noise, JPEG), but for motion blur: the kiosk's camera is fixed and reads the
    table once it is still."""

    seed: int = SEED
    clean_light: bool = True


DEMO_TABLE = Table()
"""The demo's table in even light: every scripted match's unless it names another."""


TABLE = RefereeConfig()
"""The orientation every scripted table uses (the defaults: as ``DEMO_CONFIG``)."""


@dataclass(frozen=True)
class DieShown:
    """A die lying on the table: its value, the board zone it lies in and whether it is cocked."""

    value: int
    zone: Zone
    cocked: bool = False
    row: Row | None = None


@dataclass(frozen=True)
class Shot:
    """One still picture of the table (see the module docstring)."""

    sides: Sides = START_SIDES
    dice: tuple[DieShown, ...] = ()
    cube: tuple[int, CubePlace] = (64, "centre")
    hand: Row | None = None
    size: tuple[int, int] = SIZE
    table: Table = DEMO_TABLE


def same_orientation(config: RefereeConfig) -> bool:
    """Whether ``config`` seats the players as the rendered table does."""
    return (config.player0_home, config.player0_colour, config.player0_seat) == (
        TABLE.player0_home,
        TABLE.player0_colour,
        TABLE.player0_seat,
    )


@functools.cache
def table_scene(size: tuple[int, int], table: Table = DEMO_TABLE) -> Scene:
    """``table``'s scene at ``size`` (the starting position, no dice, no hands); ValueError
    where it shows no board or no cube."""
    start = vision_position(START_SIDES, TABLE)
    scene = sample_scene(np.random.default_rng(table.seed), *size, position=start, dice=())
    if not scene.board or not any(s.kind == "cube" for s in scene.solids):
        raise ValueError(f"seed {table.seed}: no board or no cube at {size[0]}x{size[1]}")
    still = dataclasses.replace(scene.lighting, motion_blur=None)  # a fixed camera, a still table
    lighting = CLEAN_LIGHT if table.clean_light else still
    return dataclasses.replace(scene, hands=(), lighting=lighting)


def own_light_tables(first_seed: int, size: tuple[int, int]) -> Iterator[Table]:
    """The tables in their own light from seed ``first_seed`` on whose scene at ``size`` has a
    board and a cube (``table_scene``), in seed order."""
    for seed in itertools.count(first_seed):
        table = Table(seed, clean_light=False)
        try:
            table_scene(size, table)
        except ValueError:
            continue
        yield table


def calibrated(size: tuple[int, int] = SIZE, table: Table = DEMO_TABLE) -> ReadConfig:
    """The reader's configuration with the table camera's calibration at ``size`` (its
    principal point and focal length)."""
    return table_scene(size, table).camera.calibration().applied_to(ReadConfig())


def staged_scene(shot: Shot) -> Scene:
    """The table with ``shot``'s board, cube and dice (retrying throws until each die lies in
    its zone; cocked dice are then tilted, the others laid flat). A centred cube keeps the
    middle of the bar clear of bar checkers, as the renderer lays out its own."""
    table = table_scene(shot.size, shot.table)
    cube = next(s for s in table.solids if s.kind == "cube")
    cube = placed_cube(cube, table, shot.cube[0], shot.cube[1])
    gap = cube.size * CENTRED_CUBE_GAP if shot.cube[1] == "centre" else table.arrangement.bar_gap
    arrangement = dataclasses.replace(table.arrangement, bar_gap=gap)
    table = dataclasses.replace(table, solids=(cube,), arrangement=arrangement)
    position = vision_position(shot.sides, TABLE)
    values = [die.value for die in shot.dice]
    # a die thrown to lean lies with its centre 0.35 of a side from a checker's edge; laid flat
    # there it would lie over the checker, so a throw of flat dice leans none
    lean_share = LEAN_SHARE if any(die.cocked for die in shot.dice) else 0.0
    key = zlib.crc32(repr(shot).encode())
    for attempt in range(3000):
        rng = np.random.default_rng([shot.table.seed, key, attempt])
        try:
            scene = restage(table, rng, position, values, lean_share)
        except ValueError:
            continue
        thrown = [s for s in scene.solids if s.kind == "die"]
        if [scene.zone(s) for s in thrown] != [die.zone for die in shot.dice]:
            continue
        height = scene.geometry.surface_height
        if any(
            die.row is not None
            and (abs(s.y / height - 0.5) < 0.1 or (s.y < height / 2) != (die.row == "top"))
            for s, die in zip(thrown, shot.dice, strict=True)
        ):
            continue
        laid = tuple(
            dataclasses.replace(s, tilt_deg=25.0 if die.cocked else 0.0)
            for s, die in zip(thrown, shot.dice, strict=True)
        )
        scene = dataclasses.replace(scene, solids=(cube, *laid))
        if shot.hand is None:
            return scene
        return dataclasses.replace(scene, hands=(reaching_hand(scene, shot.hand),))
    raise AssertionError(f"no throw puts the dice of {shot.dice} in their zones")


@functools.cache
def render_shot(shot: Shot) -> tuple[Image, Reading]:
    """The frame of ``shot`` and the renderer's exact label of it."""
    return render_scene(staged_scene(shot))
