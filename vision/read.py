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

from vision.bar import judge_bar
from vision.board import BoardView, Corners, board_from_corners, find_board, rectify
from vision.camera_pose import FRAME_CENTRE, BoardCamera, board_camera, nadir_of
from vision.checkers import read_checkers, unseen
from vision.config import CameraCalibration, DiceConfig, ReadConfig
from vision.dice import FoundCube, FoundDie, Solids, find_solids
from vision.edges import judge_edges
from vision.labels import Board, Cube, Die, PointCount, Reading, SideCounts, Zone
from vision.long_rows import judge_long_rows
from vision.motion import occluded
from vision.shrink import halvings_kept, shrink_to
from vision.stacks import judge_rows
from vision.support import unpropped
from vision.trays import among_standing, decode, off_places, read_trays

Image = npt.NDArray[np.uint8]


def check_frame(image: object) -> Image:
    """The frame as a BGR uint8 array (a grey frame, height x width or height x width x 1, is
    converted); ValueError naming what is wrong otherwise."""
    if not isinstance(image, np.ndarray):
        raise ValueError(f"frame: expected a numpy array, got {type(image).__name__}")
    if image.dtype != np.uint8:
        raise ValueError(f"frame: expected dtype uint8, got {image.dtype}")
    if image.ndim not in (2, 3) or (image.ndim == 3 and image.shape[2] not in (1, 3)):
        raise ValueError(f"frame: expected height x width x 3 (BGR), got shape {image.shape}")
    if image.shape[0] == 0 or image.shape[1] == 0:
        raise ValueError("frame: the image is empty")
    if image.ndim == 2 or image.shape[2] == 1:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    return np.ascontiguousarray(image)


def zone_of(view: BoardView | None, point: tuple[float, float]) -> Zone:
    """Where a point of the board's plane (frame pixels) lies relative to the bar (off-board
    where no board was found)."""
    if view is None:
        return "off-board"
    x, y = view.canonical_point(*point)
    if not (0.0 <= x <= view.width and 0.0 <= y <= view.height):
        return "off-board"
    if x < view.bar[0]:
        return "left-half"
    if x > view.bar[1]:
        return "right-half"
    return "on-bar"


def calibration_of(config: ReadConfig) -> CameraCalibration | None:
    """The camera's calibration as ``config`` gives it (its principal point, the frame's centre
    where not given), for ``find_board``; None where its focal length is not known."""
    if config.focal_length is None:
        return None
    return CameraCalibration(config.principal_point or FRAME_CENTRE, config.focal_length)


def dice_config_for(
    view: BoardView | None, config: ReadConfig, frame_size: tuple[int, int] | None = None
) -> DiceConfig:
    """The dice finder's configuration with the die size expected on the board (its width times
    ``die_share``; unknown if no board was found), the middle of its bar (where a centred cube
    lies) and, given the frame's (width, height), the camera's nadir the board's outline gives
    (``vision.camera_pose.nadir_of``, at the camera's ``config.principal_point`` and
    ``config.focal_length``)."""
    if view is None:
        return config.dice
    corners = np.array(view.corners)
    width_px = (
        np.linalg.norm(corners[1] - corners[0]) + np.linalg.norm(corners[2] - corners[3])
    ) / 2
    nadir = (
        None
        if frame_size is None
        else nadir_of(
            view.corners,
            *frame_size,
            config.principal_point or FRAME_CENTRE,
            config.focal_length,
        )
    )
    return replace(
        config.dice,
        die_side_px=float(width_px * config.die_share),
        nadir=nadir,
        cube_home=view.frame_point(sum(view.bar) / 2, view.height / 2),
    )


def _solids(frame: Image, config: ReadConfig, view: BoardView | None, fine: Image | None) -> Solids:
    """The dice and the cube of ``frame`` (its pixels), found in ``fine`` where given."""
    dice_config = dice_config_for(view, config, (frame.shape[1], frame.shape[0]))
    if fine is None:
        return find_solids(frame, dice_config)
    up = fine.shape[1] / frame.shape[1]
    found = find_solids(fine, dice_config.scaled(up))

    def down(center: tuple[float, float]) -> tuple[float, float]:
        return (center[0] / up, center[1] / up)

    cube = found.cube
    return Solids(
        tuple(replace(d, center=down(d.center), side_px=d.side_px / up) for d in found.dice),
        None
        if cube is None
        else replace(cube, center=down(cube.center), side_px=cube.side_px / up),
    )


def _board_region(view: BoardView, shape: tuple[int, ...]) -> npt.NDArray[np.uint8]:
    region = np.zeros(shape[:2], np.uint8)
    cv2.fillConvexPoly(region, np.array(view.corners, np.int32), 255)
    return region


def _rests(found: FoundDie, camera: BoardCamera | None, share: float) -> tuple[float, float]:
    """The board point a die rests on: a die's side (``share`` of the board's width) below its
    top face (seen off the camera's axis, the top face shows up to about 0.6 of a side beyond
    it), or, where no ``camera`` is given (not calibrated), its top face's centre."""
    return found.center if camera is None else camera.beneath(found.center, share)


def _die(found: FoundDie, view: BoardView | None, rests: tuple[float, float]) -> Die:
    """The die as read: centred on its top face, in the zone of the board point it ``rests``
    on."""
    return Die(
        value=found.value,
        center=(round(found.center[0], 1), round(found.center[1], 1)),
        zone=zone_of(view, rests),
        cocked=found.cocked,
    )


def _propped(
    dice: Sequence[tuple[Die, tuple[float, float]]],
    cube: FoundCube | None,
    view: BoardView,
    points: Sequence[PointCount],
    config: ReadConfig,
) -> tuple[Die, ...]:
    """The dice (each with the board point it rests on), each called cocked with nothing
    within ``config.dice.cocked_reach_sides`` to lean on (``vision.support.unpropped``: the
    walls, the checkers of ``points``, the other dice and the cube) called flat."""
    sides = config.dice.cocked_reach_sides
    if sides is None:
        return tuple(die for die, _ in dice)
    reach = sides * view.width * config.die_share
    solids = [*(at for _, at in dice), *([] if cube is None else [cube.center])]
    return tuple(
        replace(die, cocked=False)
        if die.cocked and unpropped(view, points, at, solids[:i] + solids[i + 1 :], reach)
        else die
        for i, (die, at) in enumerate(dice)
    )


def _cube(found: FoundCube | None) -> Cube | None:
    if found is None:
        return None
    return Cube(value=found.value, center=(round(found.center[0], 1), round(found.center[1], 1)))


def working_copy(frame: Image, max_side_px: int) -> Image:
    """The frame, or where its longer side is longer than ``max_side_px`` a copy shrunk to that
    (``vision.shrink.shrink_to``: area averaging), its aspect kept."""
    height, width = frame.shape[:2]
    longer = max(height, width)
    if longer <= max_side_px:
        return frame
    size = (
        max(1, round(width * max_side_px / longer)),
        max(1, round(height * max_side_px / longer)),
    )
    return shrink_to(frame, size)


def scaled_reading(reading: Reading, factor: float) -> Reading:
    """``reading`` with its pixel positions (the board's corners, the dice's and the cube's
    centres) multiplied by ``factor``, to 0.1 px."""
    if factor == 1.0:
        return reading

    def scaled(point: tuple[float, float]) -> tuple[float, float]:
        return (round(point[0] * factor, 1), round(point[1] * factor, 1))

    corners = reading.board.corners
    board = (
        reading.board
        if corners is None
        else replace(reading.board, corners=tuple(scaled(c) for c in corners))  # type: ignore[arg-type]
    )
    cube = reading.cube
    return replace(
        reading,
        board=board,
        dice=tuple(replace(die, center=scaled(die.center)) for die in reading.dice),
        cube=None if cube is None else replace(cube, center=scaled(cube.center)),
    )


def view_from_corners(image_bgr: Image, corners: Corners, config: ReadConfig) -> BoardView:
    """The board with these ``corners`` (frame pixels) as ``read_frame`` locates it: on the
    frame's ``working_copy`` (a fixed camera's ``calibrated`` view)."""
    frame = check_frame(image_bgr)
    work = working_copy(frame, config.max_side_px)
    return _view_at(work, corners, work.shape[1] / frame.shape[1], config)


def _view_at(work: Image, corners: Corners, scale: float, config: ReadConfig) -> BoardView:
    shrunk: Corners = tuple((x * scale, y * scale) for x, y in corners)  # type: ignore[assignment]
    return board_from_corners(work, shrunk, config.board)


def read_frame(
    image_bgr: Image,
    config: ReadConfig,
    corners: Corners | None = None,
    previous: Sequence[Image] = (),
    calibrated: BoardView | None = None,
) -> Reading:
    """Read a frame. ``corners`` (TL, TR, BR, BL of the playing surface, frame pixels) skip the
    board search; a ``calibrated`` view (located once for a fixed camera:
    ``view_from_corners``) skips finding the bar too. ``previous`` frames
    (oldest first) let motion mark the reading ``occluded``. A frame longer than
    ``config.max_side_px`` is read from its working copy, its dice and cube from the frame
    itself (``read_located``'s ``fine``); the reading is in the frame's pixels."""
    frame = check_frame(image_bgr)
    work = working_copy(frame, config.max_side_px)
    scale = work.shape[1] / frame.shape[1]
    if calibrated is not None:
        view: BoardView | None = calibrated
    elif corners is None:
        view = find_board(work, config.board, calibration_of(config))
    else:
        view = _view_at(work, corners, scale, config)
    earlier = [working_copy(p, config.max_side_px) for p in previous]
    return read_on_copy(frame, work, config, view, earlier)


def read_on_copy(
    frame: Image,
    work: Image,
    config: ReadConfig,
    view: BoardView | None,
    previous: Sequence[Image] = (),
) -> Reading:
    """``read_located`` on ``work``, the frame's ``working_copy`` (``view`` and ``previous``
    of it), its dice and cube found in ``frame`` where that is finer; the reading is in
    ``frame``'s pixels."""
    fine = frame if work is not frame else None
    reading = read_located(work, config, view, previous, fine)
    return scaled_reading(reading, frame.shape[1] / work.shape[1])


def read_located(
    image_bgr: Image,
    config: ReadConfig,
    view: BoardView | None,
    previous: Sequence[Image] = (),
    fine: Image | None = None,
) -> Reading:
    """Read a frame on a board already located (``view``; None: no board in the frame, only
    dice are looked for). ``previous`` frames as in ``read_frame``. ``fine``: the same frame
    with more pixels (the camera's frame of which ``image_bgr`` is the ``working_copy``): the
    dice and the cube are found in it, and given in ``image_bgr``'s pixels. A die read as one
    of ``config.trays.stripe_values`` among a tray's standing checkers is their stripes, and
    dropped (``vision.trays.among_standing``)."""
    frame = check_frame(image_bgr)
    finer = None if fine is None else check_frame(fine)
    with halvings_kept(*([frame] if finer is None else [frame, finer])):
        return _read_checked(frame, config, view, previous, finer)


def _read_checked(
    frame: Image,
    config: ReadConfig,
    view: BoardView | None,
    previous: Sequence[Image],
    fine: Image | None,
) -> Reading:
    """``read_located`` on frames already checked (``check_frame``)."""
    solids = _solids(frame, config, view, fine)
    principal = config.principal_point
    camera = (
        None
        if view is None or principal is None
        else board_camera(
            view.corners, frame.shape[1], frame.shape[0], principal, config.focal_length
        )
    )
    rests = [_rests(die, camera, config.die_share) for die in solids.dice]
    dice = tuple(_die(die, view, at) for die, at in zip(solids.dice, rests, strict=True))
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
    kept = [
        (die, at)
        for die, at in zip(dice, rests, strict=True)
        if die.value not in config.trays.stripe_values
        or not among_standing(view, trays, die.center, config.trays)
    ]
    rectified = rectify(frame, view.to_canonical, config.board)
    checkers = read_checkers(
        rectified,
        view,
        config.checkers,
        off_places(trays, config.trays),
        lambda points: judge_rows(frame, view, points, config.stacks),
        lambda points: judge_edges(frame, view, points, config.edges),
        lambda: judge_bar(frame, view, config.bar),
        lambda points: judge_long_rows(frame, view, points, config.long_rows),
    )
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
        dice=_propped(kept, solids.cube, view, checkers.points, config),
        cube=cube,
        occluded=occluded([*previous, frame], config.motion, region),
    )
