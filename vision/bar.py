"""The judge of the bar: how many checkers lie on each half of the bar, and of which colour?

Checkers on the bar lie from its middle outwards, one colour a half (``vision.render.layout``;
so do players lay them, clear of a centred cube). The checker net (``vision.checkers``) reads
the bar as a thirteenth crop at about a third of the frame's pixels, where a dark checker on a
dark bar, or a light one on a light bar in glare, differs from the bar by a few levels: it
misses such checkers, or leaves them unsure, and of a half's checkers it tells the colour worst
of all (the bar's colour is neither checkers'). The judge looks at each half closer:
``vision.columns.bar_crops`` cuts it from the frame itself (``ReadConfig.bar``), the bar's middle
at the crop's top, and a small CNN (``vision/models/bar.onnx``, trained by
``vision.training.train_bar``) gives each half P(0, 1, 2, 3, 4 or more checkers) and P(they are
the lighter colour) (``judge_bar``); like the judge of edges, its first layer sees each crop as
cut and with its contrast stretched.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from vision import nets
from vision.board import BoardView
from vision.columns import bar_crops
from vision.config import RowCropConfig

Image = npt.NDArray[np.uint8]
Floats = npt.NDArray[np.float32]

NET = "bar"  # vision/models/bar.onnx
OUTPUTS = ("count", "light")  # per crop: count logits (0..3, 4 or more) and the light logit
COUNTS = 5  # the judge's count classes: 0, 1, 2, 3, 4 or more


class BarVerdict(NamedTuple):
    """The judge's probabilities of a bar half: of 0, 1, 2, 3 and 4 or more checkers, and that
    they are the lighter colour."""

    counts: Floats
    light: float


def judge_crops(crops: Image) -> list[BarVerdict]:
    """The verdict of each ``bar_crops`` crop."""
    count, light = nets.run(NET, nets.image_batch(crops))
    probabilities = nets.softmax(count.reshape(len(crops), COUNTS))
    lights = nets.sigmoid(light.reshape(-1))
    return [BarVerdict(p, float(lt)) for p, lt in zip(probabilities, lights, strict=True)]


def judge_bar(image_bgr: Image, view: BoardView, config: RowCropConfig) -> tuple[BarVerdict, ...]:
    """The verdicts on the bar's upper and lower half."""
    return tuple(judge_crops(bar_crops(image_bgr, view, config)))
