"""Reading one frame: board, checkers, dice and their zones, occlusion (DESIGN.md section 4).

``read_frame`` chains the stages (``vision.board``, ``vision.trays``, ``vision.checkers``,
``vision.dice``, ``vision.motion``) and returns a ``vision.labels.Reading``. It reads no clock:
``ms`` is left None for the caller to fill (the CLI times the call). Dice are reported even
where no board is found, as ``off-board``; a value that cannot be read is None, never a guess.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import cv2
import numpy as np
import numpy.typing as npt

from vision.board import BoardView, Corners, board_from_corners, find_board, rectify
from vision.checkers import read_checkers, unseen
from vision.config import DiceConfig, ReadConfig
from vision.dice import FoundCube, FoundDie, find_solids
from vision.labels import Board, Cube, Die, Reading, SideCounts, Zone
from vision.motion import occluded
from vision.trays import decode, off_places, read_trays

Image = npt.NDArray[np.uint8]


def check_frame(image: object) -> Image:
    """The frame as a BGR uint8 array (a grey frame is converted); ValueError naming what is
    wrong otherwise."""
    if not isinstance(image, np.ndarray):
        raise ValueError(f"frame: expected a numpy array, got {type(image).__name__}")
    if image.dtype != np.uint8:
        raise ValueError(f"frame: expected dtype uint8, got {image.dtype}")
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.ndim != 3 or image.shape[2] != 3:
        raise ValueError(f"frame: expected height x width x 3 (BGR), got shape {image.shape}")
    if image.shape[0] == 0 or image.shape[1] == 0:
        raise ValueError("frame: the image is empty")
    return np.ascontiguousarray(image)


def zone_of(view: BoardView | None, center: tuple[float, float]) -> Zone:
    """Where a die's centre lies relative to the bar (off-board where no board was found)."""
    if view is None:
        return "off-board"
    x, y = view.canonical_point(*center)
    if not (0.0 <= x <= view.width and 0.0 <= y <= view.height):
        return "off-board"
    if x < view.bar[0]:
        return "left-half"
    if x > view.bar[1]:
        return "right-half"
    return "on-bar"


def dice_config_for(view: BoardView | None, config: ReadConfig) -> DiceConfig:
    """The dice finder's configuration with the die size expected on the board (its width times
    ``die_share``; unknown if no board was found)."""
    if view is None:
        return config.dice
    corners = np.array(view.corners)
    width_px = (
        np.linalg.norm(corners[1] - corners[0]) + np.linalg.norm(corners[2] - corners[3])
    ) / 2
    return replace(config.dice, die_side_px=float(width_px * config.die_share))


def _board_region(view: BoardView, shape: tuple[int, ...]) -> npt.NDArray[np.uint8]:
    region = np.zeros(shape[:2], np.uint8)
    cv2.fillConvexPoly(region, np.array(view.corners, np.int32), 255)
    return region


def _die(found: FoundDie, view: BoardView | None) -> Die:
    return Die(
        value=found.value,
        center=(round(found.center[0], 1), round(found.center[1], 1)),
        zone=zone_of(view, found.center),
        cocked=found.cocked,
    )


def _cube(found: FoundCube | None) -> Cube | None:
    if found is None:
        return None
    return Cube(value=found.value, center=(round(found.center[0], 1), round(found.center[1], 1)))


def read_frame(
    image_bgr: Image,
    config: ReadConfig,
    corners: Corners | None = None,
    previous: Sequence[Image] = (),
    calibrated: BoardView | None = None,
) -> Reading:
    """Read a frame. ``corners`` (TL, TR, BR, BL of the playing surface, frame pixels) skip the
    board search; a ``calibrated`` view (``vision.board.board_from_corners`` once for a fixed
    camera) skips finding the bar too. ``previous`` frames (oldest first) let motion mark the
    reading ``occluded``."""
    frame = check_frame(image_bgr)
    if calibrated is not None:
        view: BoardView | None = calibrated
    elif corners is None:
        view = find_board(frame, config.board)
    else:
        view = board_from_corners(frame, corners, config.board)
    return read_located(frame, config, view, previous)


def read_located(
    image_bgr: Image,
    config: ReadConfig,
    view: BoardView | None,
    previous: Sequence[Image] = (),
) -> Reading:
    """Read a frame on a board already located (``view``; None: no board in the frame, only
    dice are looked for). ``previous`` frames as in ``read_frame``."""
    frame = check_frame(image_bgr)
    solids = find_solids(frame, dice_config_for(view, config))
    dice = tuple(_die(die, view) for die in solids.dice)
    cube = _cube(solids.cube)
    if view is None:
        return Reading(
            board=Board(found=False),
            points=(),
            bar=SideCounts(None, None),
            off=SideCounts(None, None),
            dice=dice,
            cube=cube,
            occluded=occluded([*previous, frame], config.motion),
        )
    trays = read_trays(frame, view, config.trays)
    rectified = rectify(frame, view.to_canonical, config.board)
    checkers = read_checkers(rectified, view, config.checkers, off_places(trays, config.trays))
    off = decode(trays, config.trays, unseen(checkers)).or_else(checkers.off)
    region = _board_region(view, frame.shape)
    rounded: Corners = tuple(  # type: ignore[assignment]
        (round(x, 1), round(y, 1)) for x, y in view.corners
    )
    return Reading(
        board=Board(found=True, corners=rounded),
        points=checkers.points,
        bar=checkers.bar,
        off=off,
        dice=dice,
        cube=cube,
        occluded=occluded([*previous, frame], config.motion, region),
    )
