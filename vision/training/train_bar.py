"""Train the judge of the bar (``vision/models/bar.onnx``, read by ``vision.bar``).

    python -m vision.training.train_bar render --first 900000 --frames 60000
    python -m vision.training.train_bar render --first 980000 --frames 1000
    python -m vision.training.train_bar train --threads 2

``render`` draws rendered frames of tuning seeds (never the evaluation seeds of
``vision.render.dataset``) and caches, in chunks of ``CHUNK`` frames under ``--data`` (default
``/tmp/bar-data``), the crops of the bar's two halves (``vision.columns.bar_crops`` with
``ReadConfig.bar``), how many checkers each holds (4 standing for four or more) and whether they
are the lighter colour. Three frames in four show ``bar_position`` (checkers on the bar, where
the renderer's own positions have few), the fourth the renderer's own scene. The board is
located as the reader meets it: the labelled corners jittered by up to ``CORNER_JITTER_PX`` and
the bar ``vision.board.find_bar`` finds there. Frames with a hand over the board (labelled
occluded) or without a board are skipped.

``train`` fits the judge (PyTorch, fixed seeds) on every chunk outside ``VALIDATION`` and
exports it with ``vision.training.export.export_onnx``; after each epoch it prints, on the
validation chunks, how often the likeliest count is right (and within one), how often it is
given at 0.9 or more and wrong so, and how often the light output is right on halves holding
checkers.

The shipped judge (2026-12-07, an Intel Xeon with AVX-512): ``render --first 900000 --frames
10000``, ``--first 910000 --frames 10000``, ``--first 920000 --frames 20000`` and ``--first 940000
--frames 20000`` (105,924 halves; about 18 minutes for the last two in two processes), ``--first
980000 --frames 1000`` (validation: 1,754 halves, 1,031 holding checkers), ``train --threads 2
--epochs 10`` (about 80 seconds an epoch). Validation: the likeliest count right on 99.60% of the
halves, given at 0.9 on 99.32% and never wrong so; the light output right on 99.81% of the halves
holding checkers. Against the judge before it (the same recipe on the first 20,000 frames only,
35,222 halves, about 25 seconds an epoch: 99.60%, given at 0.9 on 99.43% and wrong so on 0.11%,
2 halves; light 99.81%), tuning frames 650,000.. to 674,000.. (1,000 each, labelled corners,
calibrated camera, 6,158 boards) read 6,082 boards exact and 18 confidently wrong against 6,080
and 20 (a dark checker on a dark bar now seen, twice; no board lost), and frames 675,000..678,999,
looked at after, 4 boards more exact and one fewer confidently wrong (bar counts withheld before
now given), none lost. On the evaluation frames it read one board less exactly (two light
checkers on a light bar in glare: it gives them 0.67 where the net gives none 0.91; the judge
before gave them 0.9997).

The judge before it, ``render --first 900000 --frames 10000`` and ``--first 910000 --frames 10000``
only, ``train --threads 2 --epochs 10``: on the tuning frames above, the reader with the judge of
edges read without the judge of the bar 6,070 boards exact, 22 confidently wrong; with it (the
surer of the two standing, ``vision.checkers.bar_judged``) 6,080 and 20: of the ten boards it read
exactly that were not, three had light checkers on the bar withheld for an unsure colour, four a
dark checker missed or withheld, three an empty bar half withheld; it lost none. With its counts
replacing the net's wherever the two disagree on the likeliest count, and its colour wherever the
net's is within ``CheckerConfig.colour_trust`` of 0.5: 6,073 and 20 (it took plain dark bars for
one or two checkers at 0.70 to 0.77 where the net was sure of none, and took two dark checkers for
light ones).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from vision.bar import COUNTS, NET, OUTPUTS
from vision.board import BoardView
from vision.columns import bar_crops
from vision.config import ReadConfig
from vision.labels import COLORS
from vision.render import scene_for_seed
from vision.render.positions import Position, random_position
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
CORNER_JITTER_PX = 3.0
VALIDATION = range(980_000, 990_000)  # chunks of these seeds are held out
DEFAULT_DATA = Path("/tmp/bar-data")
EPOCHS = 10
BATCH = 128
LEARNING_RATE = 3e-3
SURE = 0.9  # in the report: a count given at this probability or more

Image = npt.NDArray[np.uint8]
Labels = npt.NDArray[np.int64]


def bar_position(rng: np.random.Generator) -> Position:
    """``vision.render.positions.random_position`` with, for each side at 70%, one (50%), two
    (30%) or three (20%) more of its checkers moved from its points to the bar."""
    base = random_position(rng)
    points, bar = list(base.points), list(base.bar)
    for side, colour in enumerate(COLORS):
        if rng.random() >= 0.7:
            continue
        for _ in range(int(rng.choice([1, 2, 3], p=[0.5, 0.3, 0.2]))):
            mine = [i for i, (c, _) in enumerate(points) if c == colour]
            if not mine:
                break
            index = int(rng.choice(mine))
            count = points[index][1]
            points[index] = (colour, count - 1) if count > 1 else (None, 0)
            bar[side] += 1
    return Position(points=tuple(points), bar=(bar[0], bar[1]), off=base.off)


def training_scene(seed: int) -> Scene:
    """The scene of a training seed: the renderer's own every ``OWN_EVERY`` seeds, else one
    showing ``bar_position`` (else drawn alike)."""
    if seed % OWN_EVERY == 0:
        return scene_for_seed(seed)
    position = bar_position(np.random.default_rng([seed, 6]))
    return sample_scene(np.random.default_rng(seed), position=position)


def bar_labels(scene: Scene) -> Labels:
    """Per bar half (upper, lower): its checkers (4: four or more) and whether they are light."""
    light_top = scene.arrangement.light_bar_top
    labels = []
    for upper in (True, False):
        colour = "light" if upper == light_top else "dark"
        count = scene.position.bar[COLORS.index(colour)]
        labels.append((min(count, COUNTS - 1), colour == "light"))
    return np.array(labels, np.int64)


def render_chunk(first: int, data: Path, config: ReadConfig) -> None:
    """Render frames ``first .. first + CHUNK - 1`` and write the bar halves' crops, labels
    (``bar_labels``) and seeds to ``data/chunk-<first>.npz``
    (``vision.training.parts.render_judge_chunk``)."""

    def cut(image: Image, scene: Scene, locate: Callable[[], BoardView]) -> tuple[Image, Labels]:
        return bar_crops(image, locate(), config.bar), bar_labels(scene)

    render_judge_chunk(first, CHUNK, data, config, training_scene, cut, CORNER_JITTER_PX)


def build_net() -> Any:
    """The judge (PyTorch): ``vision.training.parts.stretched_net`` of the ``ReadConfig.bar``
    crop (128 x 32) to ``COUNTS`` count logits and a light logit."""
    crop = ReadConfig().bar
    return stretched_net(crop.crop_height, crop.crop_width, COUNTS)


def train(data: Path, epochs: int, threads: int, resume: bool) -> None:
    """Fit the judge on the cached chunks outside ``VALIDATION``, report on the others
    (``vision.training.parts.count_summary``), export (``vision.training.parts.fit_judge``;
    ``resume``: fine-tune the shipped judge). The loss: of the count, and of ``light`` on halves
    holding checkers (``count_and_colour_loss``)."""
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
    judge_main(__doc__ or "", (DEFAULT_DATA, 900_000, 60_000, EPOCHS), CHUNK, render_chunk, train)


if __name__ == "__main__":
    main()
