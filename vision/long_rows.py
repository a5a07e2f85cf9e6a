"""The judge of long rows: how many checkers does a point's long row hold?

Six or more checkers on a point overflow towards the middle, and what does not fit lies on a
second layer, each checker across two below (``vision.render.layout``; so do players lay
them, unless they stack them squarely, which ``vision.stacks`` judges). The checker net
(``vision.checkers``) reads each column at about a third of the frame's pixels, where ten to
fifteen checkers in a row and on top of it blur into one another: it leaves such a count a
range of two to four (the largest class of boards it reads inexactly on tuning frames), and
where the colour's checkers borne off are unsure too, the sum of fifteen cannot settle it.
The judge looks at the whole column closer: ``vision.columns.row_crops`` cuts it from the
frame itself (``ReadConfig.long_rows``: from the point's edge to the opposite edge, about as
many crop pixels as frame pixels), and a small CNN (``vision/models/long_rows.onnx``, trained by
``vision.training.train_long_rows``) gives each crop P(0..15 checkers are seen on the point)
(``judge_long_rows``; its second output, whether they are the lighter colour, is learnt beside
the count and not used: the net's colour of the row stands). Like the judges of edges and of
the bar, its first layer sees each crop as cut and with its contrast stretched.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from vision import nets
from vision.board import BoardView
from vision.columns import row_crops
from vision.config import RowCropConfig
from vision.labels import CHECKERS_PER_SIDE

Image = npt.NDArray[np.uint8]
Floats = npt.NDArray[np.float32]

NET = "long_rows"  # vision/models/long_rows.onnx
OUTPUTS = ("count", "light")  # per crop: count logits (0..15 seen) and the light logit
COUNTS = CHECKERS_PER_SIDE + 1  # the judge's count classes: 0..15 checkers seen


def judge_crops(crops: Image) -> list[Floats]:
    """P(0..15 checkers seen) of each ``row_crops`` crop."""
    if len(crops) == 0:
        return []
    count, _ = nets.run(NET, nets.image_batch(crops))
    return list(nets.softmax(count.reshape(len(crops), COUNTS)))


def judge_long_rows(
    image_bgr: Image, view: BoardView, points: Sequence[int], config: RowCropConfig
) -> dict[int, Floats]:
    """Per point of ``points`` (1..24), the judge's P(0..15 checkers seen on it)."""
    counts = judge_crops(row_crops(image_bgr, view, points, config))
    return dict(zip(points, counts, strict=True))
