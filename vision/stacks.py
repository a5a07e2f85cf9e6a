"""The judge of stacks: does a full row of checkers hide more stacked squarely on it?

Five checkers fill a point from its edge; a sixth may go on top of one of them, squarely, and
then a camera above the board sees five (``vision.render.layout``: ``stacked``). The checker
net (``vision.checkers``) reads each column at about a third of the frame's pixels, where a
stack and a single checker look alike, so it gives most full rows some chance of hiding
checkers, and the count there becomes a range unless the sum of the colour's fifteen
(``vision.tally``) settles it. Seen closer, a stack shows: its top checker stands a checker's
thickness higher, so its rim is thicker and its shadow longer, and it seldom lies exactly on
the one below.

``vision.columns.row_crops`` cuts each such row from the frame itself, through the board's
homography (``vision.board.BoardView``): ``across_share`` of the point's pitch across and
``along_share`` of the surface's height from the point's edge (``ReadConfig.stacks``), the
point's edge at the top. A small CNN (``vision/models/stacks.onnx``, trained by
``vision.training.train_stacks``) gives each crop the probability that its row hides checkers
(``judge_rows``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from vision import nets
from vision.board import BoardView
from vision.columns import row_crops
from vision.config import RowCropConfig

Image = npt.NDArray[np.uint8]

NET = "stacks"  # vision/models/stacks.onnx
OUTPUTS = ("hidden",)  # per crop: the logit of the row hiding checkers


def judge_crops(crops: Image) -> npt.NDArray[np.float64]:
    """P(the row hides checkers) of each ``row_crops`` crop."""
    if len(crops) == 0:
        return np.zeros(0)
    (logits,) = nets.run(NET, nets.image_batch(crops))
    return np.asarray(nets.sigmoid(logits.reshape(-1)), np.float64)


def judge_rows(
    image_bgr: Image, view: BoardView, points: Sequence[int], config: RowCropConfig
) -> dict[int, float]:
    """Per point of ``points``, P(its full row hides checkers stacked on it)."""
    probabilities = judge_crops(row_crops(image_bgr, view, points, config))
    return {point: float(p) for point, p in zip(points, probabilities, strict=True)}
