"""Train the judge of long rows (``vision/models/long_rows.onnx``, read by ``vision.long_rows``).

    python -m vision.training.train_long_rows render --first 600000 --frames 30000
    python -m vision.training.train_long_rows render --first 640000 --frames 1000
    python -m vision.training.train_long_rows train --threads 2

``render`` draws rendered frames of tuning seeds (never the evaluation seeds of
``vision.render.dataset``) and caches, in chunks of ``CHUNK`` frames under ``--data`` (default
``/tmp/long-rows-data``), the column crop (``vision.columns.row_crops`` with
``ReadConfig.long_rows``) of every point showing at least ``SHOWN_FROM`` checkers, how many it
shows (those stacked squarely on others are hidden) and whether they are the lighter colour.
Three frames in four show ``long_position`` (long rows, where the renderer's own positions have
few), overflowing or layered (drawn again from streams of their own until they are), the
fourth the renderer's own scene. The board is located as the reader meets it: the labelled
corners jittered by up to ``CORNER_JITTER_PX`` and the bar ``vision.board.find_bar`` finds
there. Frames with a hand over the board (labelled occluded) or without a board are skipped.

``train`` fits the judge (PyTorch, fixed seeds) on every chunk outside ``VALIDATION`` and
exports it with ``vision.training.export.export_onnx``; after each epoch it prints, on the
validation chunks, how often the likeliest count is right (and within one), how often it is
given at 0.9 or more and wrong so, and how often the light output is right
(``vision.training.parts.count_summary``).

The shipped judge (2026-12-07, an Intel Xeon with AVX-512): ``render --first 600000 --frames
15000`` and ``--first 615000 --frames 15000`` (61,360 crops; about 16 minutes in two
processes), ``--first 640000 --frames 1000`` (validation: 2,000 crops), ``train --threads 2
--epochs 4`` (about 8 minutes an epoch). Validation: the likeliest count right on 98.45% of the
crops (within one 99.30%), given at 0.9 on 95.65% and wrong so on 0.20%; the light output right
on 99.80%. (After one epoch of a ten-epoch schedule, stopped for time: 90.65%.)
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from vision.board import BoardView
from vision.columns import row_crops
from vision.config import ReadConfig
from vision.labels import CHECKERS_PER_SIDE, COLORS, POINTS, Color
from vision.long_rows import COUNTS, NET, OUTPUTS
from vision.render import scene_for_seed
from vision.render.positions import Position
from vision.render.scene import Scene, sample_scene
from vision.training.parts import (
    count_and_colour_loss,
    count_summary,
    fit_judge,
    judge_main,
    render_judge_chunk,
    stretched_net,
)

CHUNK = 100
OWN_EVERY = 4  # every fourth seed shows the renderer's own scene
SHOWN_FROM = 5  # a point showing this many checkers or more is a sample
CORNER_JITTER_PX = 3.0
VALIDATION = range(640_000, 650_000)  # chunks of these seeds are held out
DEFAULT_DATA = Path("/tmp/long-rows-data")
EPOCHS = 4
BATCH = 128
LEARNING_RATE = 3e-3
SURE = 0.9  # in the report: a count given at this probability or more

Image = npt.NDArray[np.uint8]
Labels = npt.NDArray[np.int64]


def long_position(rng: np.random.Generator) -> Position:
    """A position of long rows: each side's 15 checkers on one point of six to fifteen, a
    second of six or more at 40% where nine or more are left, the rest on points of one to
    five, none on the bar or borne off."""
    points: list[tuple[Color | None, int]] = [(None, 0)] * POINTS
    for side in rng.permutation(2):
        counts = [int(rng.integers(6, CHECKERS_PER_SIDE + 1))]
        left = CHECKERS_PER_SIDE - counts[0]
        if left >= 9 and rng.random() < 0.4:
            counts.append(int(rng.integers(6, left + 1)))
            left -= counts[-1]
        while left > 0:
            counts.append(min(left, int(rng.integers(1, 6))))
            left -= counts[-1]
        for count in counts:
            free = [i for i in range(POINTS) if points[i][0] is None]
            points[int(rng.choice(free))] = (COLORS[int(side)], count)
    return Position(points=tuple(points), bar=(0, 0), off=(0, 0))


def training_scene(seed: int) -> Scene:
    """The scene of a training seed: the renderer's own every ``OWN_EVERY`` seeds, else one
    showing ``long_position``, overflowing or layered (drawn again from streams of their own
    until it is; else drawn alike)."""
    if seed % OWN_EVERY == 0:
        return scene_for_seed(seed)
    position = long_position(np.random.default_rng([seed, 7]))
    scene = sample_scene(np.random.default_rng(seed), position=position)
    attempt = 0
    while scene.arrangement.stacking == "stacked":
        attempt += 1
        scene = sample_scene(np.random.default_rng([seed, 8, attempt]), position=position)
    return scene


def shown_labels(scene: Scene) -> dict[int, tuple[int, bool]]:
    """The points showing at least ``SHOWN_FROM`` checkers: how many each shows (hidden
    checkers, stacked squarely, not counted) and whether they are light."""
    hidden = [0] * (POINTS + 1)
    for checker in scene.checkers:
        if checker.hidden:
            hidden[checker.where] += 1
    shown = {}
    for point, (colour, count) in enumerate(scene.position.points, start=1):
        seen = count - hidden[point]
        if seen >= SHOWN_FROM:
            shown[point] = (seen, colour == "light")
    return shown


def render_chunk(first: int, data: Path, config: ReadConfig) -> None:
    """Render frames ``first .. first + CHUNK - 1`` and write the long rows' crops, labels
    (``shown_labels``) and seeds to ``data/chunk-<first>.npz``
    (``vision.training.parts.render_judge_chunk``)."""

    def cut(
        image: Image, scene: Scene, locate: Callable[[], BoardView]
    ) -> tuple[Image, Labels] | None:
        shown = shown_labels(scene)
        if not shown:
            return None
        crops = row_crops(image, locate(), list(shown), config.long_rows)
        return crops, np.array([(n, light) for n, light in shown.values()], np.int64)

    render_judge_chunk(first, CHUNK, data, config, training_scene, cut, CORNER_JITTER_PX)


def build_net() -> Any:
    """The judge (PyTorch): ``vision.training.parts.stretched_net`` of the
    ``ReadConfig.long_rows`` crop (384 x 48) to ``COUNTS`` count logits and a light logit."""
    crop = ReadConfig().long_rows
    return stretched_net(crop.crop_height, crop.crop_width, COUNTS)


def train(data: Path, epochs: int, threads: int, resume: bool) -> None:
    """Fit the judge on the cached chunks outside ``VALIDATION``, report on the others
    (``vision.training.parts.count_summary``), export (``vision.training.parts.fit_judge``;
    ``resume``: fine-tune the shipped judge). The loss: of the count, and of ``light``
    (``count_and_colour_loss``)."""
    fit_judge(
        build_net,
        (data, VALIDATION),
        (NET, OUTPUTS),
        count_and_colour_loss,
        lambda logits, labels: count_summary(logits, labels, COUNTS, SURE),
        (epochs, BATCH, LEARNING_RATE, threads),
        resume,
    )


def main() -> None:
    """Render or train, as the command says."""
    judge_main(__doc__ or "", (DEFAULT_DATA, 600_000, 30_000, EPOCHS), CHUNK, render_chunk, train)


if __name__ == "__main__":
    main()
