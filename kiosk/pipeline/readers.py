"""Frame readers: a camera frame in, a ``vision.labels.Reading`` out.

``VisionReader`` runs ``vision.read.read_on_copy`` (``read_located`` on the frame's working
copy) with the previous frame, so motion between them marks the reading occluded
(``vision.motion``), on a board located once and located again only when it moves (the search
costs ~15 ms a frame, the check that the board has not moved ~1-2 ms, reading a located board
~30 ms).
``LabelReader`` is the embedded demo's perfect camera: the renderer's exact label of each
replayed frame, looked up by the frame's position in the recording. It never reads pixels: use
it to show the kiosk's flow, not to judge vision.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Protocol

from hardware.camera.frame import Frame, Image
from vision.board import BoardView, Corners, board_moved, find_board, snap_to_edges
from vision.config import ReadConfig
from vision.labels import Reading
from vision.read import calibration_of, check_frame, read_on_copy, working_copy


class FrameReader(Protocol):
    """Reads one frame."""

    def __call__(self, frame: Frame) -> Reading: ...


class VisionReader:
    """``vision.read.read_on_copy`` with the ``history`` previous frames for motion, on a board
    located once (``vision.board.find_board``, the networks' search) and reused while it stays put:
    each frame only checks that the board's sides still snap where they did
    (``vision.board.board_moved``) and searches again when they do not (the camera or the board
    moved, or a hand lies over a side). Where no board is found, or it was found in a frame
    with a hand over the board (a corner on the hand's edge may pass the checks), the next
    frame searches again. A frame longer than ``config.max_side_px`` is read as
    ``vision.read.read_frame`` reads it (from its working copy, its dice from the frame
    itself); readings are in the frame's pixels."""

    def __init__(self, config: ReadConfig | None = None, history: int = 1) -> None:
        self._config = config or ReadConfig()
        self._previous: deque[Image] = deque(maxlen=history)
        self._view: BoardView | None = None
        self._snapped: Corners | None = None

    def _locate(self, image: Image) -> None:
        board = self._config.board
        self._view = find_board(image, board, calibration_of(self._config))
        self._snapped = (
            None if self._view is None else snap_to_edges(image, self._view.corners, board)
        )

    def __call__(self, frame: Frame) -> Reading:
        full = check_frame(frame.image)
        image = working_copy(full, self._config.max_side_px)
        located = self._snapped is None or board_moved(image, self._snapped, self._config.board)
        if located:
            self._locate(image)
        reading = read_on_copy(full, image, self._config, self._view, tuple(self._previous))
        if located and reading.occluded:
            self._snapped = None  # found under a hand: maybe on the hand's edge; search again
        self._previous.append(image)
        return reading


class LabelReader:
    """The exact labels of a recording's frames, by ``frame.seq`` modulo the recording's length
    (a looping ``ReplaySource`` numbers frames on across passes)."""

    def __init__(self, labels: Sequence[Reading]) -> None:
        if not labels:
            raise ValueError("labels: a recording has at least one frame")
        self._labels = tuple(labels)

    def __call__(self, frame: Frame) -> Reading:
        return self._labels[frame.seq % len(self._labels)]
