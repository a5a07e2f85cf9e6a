"""The judge of edges: is a point's first place, at its edge, taken by a checker?

A point's first checker lies at the point's edge (``vision.render.layout``; so do players lay
them), so a point holds checkers when that place is taken (by its own checker: a long row across
the column may reach it too, and ``vision.checkers.edge_judged`` does not ask then). The checker
net (``vision.checkers``) reads each column at about a third of the frame's pixels, where a dark
checker on a dark point, in shadow or blurred, differs from the point by a few levels: it leaves
such a checker unsure (a count spanning 0 and 1) or misses it outright (a lone checker read as
none: 8 of the 24 boards it read confidently wrong on tuning frames 670,000..674,999, labelled
corners, 2026-12-07). The judge looks at that place closer: ``vision.columns.row_crops`` cuts it
from the frame itself (``ReadConfig.edges``: about 1.4 checkers along from the edge, about twice
the net's pixels), and a small CNN (``vision/models/edges.onnx``, trained by
``vision.training.train_edges``) gives each crop P(the place is taken) and P(its checker is the
lighter colour) (``judge_edges``). The CNN's first layer sees each crop both as cut and with its
contrast stretched to the crop's own spread, so a faint disc shows as well as a plain one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from vision import nets
from vision.board import BoardView
from vision.columns import row_crops
from vision.config import RowCropConfig

Image = npt.NDArray[np.uint8]

NET = "edges"  # vision/models/edges.onnx
OUTPUTS = ("taken", "light")  # per crop: the logits of the place taken and of a light checker


class EdgeVerdict(NamedTuple):
    """The judge's probabilities of a point's first place: taken, and its checker light."""

    taken: float
    light: float


def judge_crops(crops: Image) -> list[EdgeVerdict]:
    """The verdict of each ``row_crops`` crop."""
    if len(crops) == 0:
        return []
    taken, light = (nets.sigmoid(out.reshape(-1)) for out in nets.run(NET, nets.image_batch(crops)))
    return [EdgeVerdict(float(t), float(lt)) for t, lt in zip(taken, light, strict=True)]


def judge_edges(
    image_bgr: Image, view: BoardView, points: Sequence[int], config: RowCropConfig
) -> dict[int, EdgeVerdict]:
    """Per point of ``points`` (1..24), the judge's verdict on its first place."""
    verdicts = judge_crops(row_crops(image_bgr, view, points, config))
    return dict(zip(points, verdicts, strict=True))
