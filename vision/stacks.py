"""The judge of stacks: does a full row of checkers hide more stacked squarely on it?

Five checkers fill a point from its edge; a sixth may go on top of one of them, squarely, and
then a camera above the board sees five (``vision.render.layout``: ``stacked``). The checker
net (``vision.checkers``) reads each column at about a third of the frame's pixels, where a
stack and a single checker look alike, so it gives most full rows some chance of hiding
checkers, and the count there becomes a range unless the sum of the colour's fifteen
(``vision.tally``) settles it. Seen closer, a stack shows: its top checker stands a checker's
thickness higher, so its rim is thicker and its shadow longer, and it seldom lies exactly on
the one below.

``row_crops`` cuts each such row from the frame itself, through the board's homography
(``vision.board.BoardView``): ``across_share`` of the point's pitch across and ``along_share``
of the surface's height from the point's edge, resampled to ``crop_width`` x ``crop_height``
pixels (``vision.config.StackConfig``), turned so that the point's edge is at the top (a bottom
point's crop is turned half a turn). A small CNN (``vision/models/stacks.onnx``, trained by
``vision.training.train_stacks``) gives each crop the probability that its row hides checkers
(``judge_rows``).
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
import numpy.typing as npt

from vision import nets
from vision.board import BoardView
from vision.columns import column_axis, point_column
from vision.config import StackConfig
from vision.labels import POINTS

Image = npt.NDArray[np.uint8]
Matrix = npt.NDArray[np.float64]

NET = "stacks"  # vision/models/stacks.onnx
OUTPUTS = ("hidden",)  # per crop: the logit of the row hiding checkers


def crop_to_canonical(view: BoardView, point: int, config: StackConfig) -> Matrix:
    """The affine map (3 x 3) from pixels of ``point``'s row crop to canonical pixels: the
    point's edge at the crop's top, a bottom point's crop turned half a turn."""
    column, top = point_column(point)
    centre, pitch = column_axis(view, column)
    across = pitch * config.across_share / config.crop_width
    along = view.height * config.along_share / config.crop_height
    left = centre - pitch * config.across_share / 2
    if top:
        return np.array([[across, 0.0, left + across / 2], [0.0, along, along / 2], [0, 0, 1.0]])
    right = centre + pitch * config.across_share / 2
    return np.array(
        [[-across, 0.0, right - across / 2], [0.0, -along, view.height - along / 2], [0, 0, 1.0]]
    )


def row_crops(
    image_bgr: Image, view: BoardView, points: Sequence[int], config: StackConfig
) -> Image:
    """The row crops of ``points`` (1..24) from the frame: len(points) x ``crop_height`` x
    ``crop_width`` x 3, BGR; ValueError for a point off the board."""
    bad = [p for p in points if not 1 <= p <= POINTS]
    if bad:
        raise ValueError(f"stacks: points run 1..{POINTS}, got {bad}")
    from_canonical = np.linalg.inv(view.to_canonical)
    crops = np.empty((len(points), config.crop_height, config.crop_width, 3), np.uint8)
    for index, point in enumerate(points):
        to_frame = from_canonical @ crop_to_canonical(view, point, config)
        crops[index] = cv2.warpPerspective(
            image_bgr,
            to_frame,
            (config.crop_width, config.crop_height),
            flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
            borderMode=cv2.BORDER_REPLICATE,
        )
    return crops


def judge_crops(crops: Image) -> npt.NDArray[np.float64]:
    """P(the row hides checkers) of each ``row_crops`` crop."""
    if len(crops) == 0:
        return np.zeros(0)
    (logits,) = nets.run(NET, nets.image_batch(crops))
    return np.asarray(nets.sigmoid(logits.reshape(-1)), np.float64)


def judge_rows(
    image_bgr: Image, view: BoardView, points: Sequence[int], config: StackConfig
) -> dict[int, float]:
    """Per point of ``points``, P(its full row hides checkers stacked on it)."""
    probabilities = judge_crops(row_crops(image_bgr, view, points, config))
    return {point: float(p) for point, p in zip(points, probabilities, strict=True)}
