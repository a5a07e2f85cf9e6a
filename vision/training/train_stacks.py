"""Train the judge of stacks (``vision/models/stacks.onnx``, read by ``vision.stacks``).

    python -m vision.training.train_stacks render --first 540000 --frames 20000
    python -m vision.training.train_stacks render --first 560000 --frames 1000
    python -m vision.training.train_stacks train --threads 2

``render`` draws rendered frames of tuning seeds (never the evaluation seeds of
``vision.render.dataset``) and caches, in chunks of ``CHUNK`` frames under ``--data`` (default
``/tmp/stacks-data``), the row crop (``vision.columns.row_crops``) of every point showing a
full row of ``CheckerConfig.stack_row`` checkers, and whether the row hides more stacked on it.
The judge only ever sees such rows (the checker net reads a full row first), so only they are
samples. Three frames in four show ``row_position`` (rows of five and stacks of six to twelve,
where the renderer's own positions have few), the fourth the renderer's own scene; of the
former, odd seeds stack squarely (the renderer stacks a third of its scenes so,
``layout.STACKINGS``).
The board is located as the reader meets it: the labelled corners jittered by up to
``CORNER_JITTER_PX`` and the bar ``vision.board.find_bar`` finds there. Frames with a hand over
the board (labelled occluded) or without a board are skipped.

``train`` fits the judge (PyTorch, fixed seeds) on every chunk outside ``VALIDATION`` and
exports it with ``vision.training.export.export_onnx``; after each epoch it prints, on the
validation chunks, the AUC and, per threshold, the share of the hiding rows called hiding and
of the plain rows called hiding.

The shipped judge: ``render --first 560000 --frames 1000`` (validation: 2,601 rows, 926
hiding), ``--first 540000 --frames 20000`` and ``--first 570000 --frames 20000`` (104,313 rows,
37,283 hiding; about 14 minutes in two processes), ``train --epochs 14 --threads 2`` (about 3
minutes an epoch). Validation: AUC 0.978; at 0.005 every hiding row still called hiding and
25.5% of the plain rows cleared, at 0.01 100% and 37.7%, at 0.02 99.7% and 52.0%. On the
tuning frames 650,000..650,999 and 660,000..660,999 (labelled corners), the checker net
suspects 2,196 full rows (591 hiding, 1,603 plain); the judge clears, of the hiding and of the
plain ones, 4 and 92 at 0.001, 14 and 371 at 0.005, 22 and 569 at 0.01 (the sum of fifteen
catches the hiding ones it clears: ``CheckerConfig.min_stack_probability``). A judge without
the last pool and convolution, trained 8 epochs on positions with stacks of six to nine only
(56,645 rows), reached AUC 0.963; of the hiding rows it gave the least on the tuning frames,
most were rows of ten (five stacks of two, none standing out from the others), which its
positions never held.

``train --resume`` fine-tunes the shipped judge instead (a tenth of the learning rate, its
batch norms kept). Tried and not shipped (2026-12-05): ``render --first 520000 --frames 20000``
too (156,342 rows, 55,751 hiding; about 6 minutes in two processes), ``train --resume --epochs
5 --threads 2`` (about 4 minutes an epoch): validation AUC 0.978 -> 0.981, at 0.005 31.8% of
the plain rows cleared; tuning frames (1,788 boards, labelled corners) at 0.005 1,728 boards
exact against 1,727, as many confidently wrong; but the evaluation frames (labelled corners)
96.77% -> 96.66% exact, 0.45% -> 0.56% confidently wrong. A better ranked judge did not
settle more boards then: the sum of fifteen weighed the checker net's probability that a row
hides checkers, and the judge only decided whether it might. Since 2026-12-06 the sum weighs
the judge's (``vision.checkers.judged``), so a better ranked judge may now settle more rows;
that judge was not kept.

Tried again with the judge's probability in the sum, and not shipped (2026-12-07, an Intel Xeon
with AVX-512): the chunks above and ``render --first 520000 --frames 20000`` and ``--first 500000
--frames 10000`` (182,435 rows, 65,048 hiding; about 30 minutes to render every chunk again in two
processes), ``train --resume --epochs 5 --threads 2`` (about 8 minutes an epoch). Validation: AUC
0.978 -> 0.981; at 0.005 every hiding row still called hiding and 31.5% of the plain rows cleared
(25.5%), at 0.01 100% and 43.0% (37.7%). Tuning frames 650,000.., 660,000.., 670,000.. and
671,000.. (1,000 each, labelled corners, calibrated camera, 3,531 boards; the checker net shipped
before 2026-12-07), the shipped judge against it at 0.005: boards exact 873 / 887 / 865 / 841
against 874 / 887 / 863 / 839 (3,466 against 3,463), boards confidently wrong 2 / 4 / 4 / 9 against
2 / 4 / 5 / 9; at 0.01 the same as at 0.005, at 0.002 3,463 and one board more confidently wrong.
The rows it decides differently are too few to move the boards: the judge is not what keeps them
from being exact.
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
from vision.render import scene_for_seed
from vision.render.positions import Position
from vision.render.scene import Scene, sample_scene
from vision.stacks import NET, OUTPUTS
from vision.training.parts import (
    conv_block,
    fit_judge,
    judge_main,
    judge_report,
    render_judge_chunk,
    sigmoid,
)

CHUNK = 100
OWN_EVERY = 4  # every fourth seed shows the renderer's own scene
CORNER_JITTER_PX = 3.0
VALIDATION = range(560_000, 570_000)  # chunks of these seeds are held out
DEFAULT_DATA = Path("/tmp/stacks-data")
EPOCHS = 14
BATCH = 128
LEARNING_RATE = 3e-3

Image = npt.NDArray[np.uint8]


def row_position(rng: np.random.Generator) -> Position:
    """A position rich in full rows: each side's 15 checkers on points of five (40%), six to
    twelve (40%: from ten on, every checker of a squarely stacked row has one on it, so that
    none stands out from the others) or one to four (20%), drawn until none is left."""
    points: list[tuple[Color | None, int]] = [(None, 0)] * POINTS
    for side in rng.permutation(2):
        left = CHECKERS_PER_SIDE
        while left > 0:
            kind = rng.random()
            if kind < 0.4:
                count = 5
            elif kind < 0.8:
                count = int(rng.integers(6, 13))
            else:
                count = int(rng.integers(1, 5))
            count = min(count, left)
            free = [i for i in range(POINTS) if points[i][0] is None]
            points[int(rng.choice(free))] = (COLORS[int(side)], count)
            left -= count
    return Position(points=tuple(points), bar=(0, 0), off=(0, 0))


def training_scene(seed: int) -> Scene:
    """The scene of a training seed: the renderer's own every ``OWN_EVERY`` seeds, else one
    showing ``row_position`` (else drawn alike); of those, odd seeds are drawn again (from
    streams of their own) until they stack squarely, so that more rows hide checkers."""
    if seed % OWN_EVERY == 0:
        return scene_for_seed(seed)
    position = row_position(np.random.default_rng([seed, 3]))
    scene = sample_scene(np.random.default_rng(seed), position=position)
    attempt = 0
    while seed % 2 == 1 and scene.arrangement.stacking != "stacked":
        attempt += 1
        scene = sample_scene(np.random.default_rng([seed, 4, attempt]), position=position)
    return scene


def row_labels(scene: Scene, row: int) -> dict[int, bool]:
    """The points showing a full row of ``row`` checkers, and whether each hides more."""
    hidden = [0] * (POINTS + 1)
    for checker in scene.checkers:
        if checker.hidden:
            hidden[checker.where] += 1
    return {
        point: hidden[point] > 0
        for point in range(1, POINTS + 1)
        if scene.position.points[point - 1][1] - hidden[point] == row
    }


def render_chunk(first: int, data: Path, config: ReadConfig) -> None:
    """Render frames ``first .. first + CHUNK - 1`` and write their full rows' crops, labels
    (1: hides checkers) and seeds to ``data/chunk-<first>.npz``
    (``vision.training.parts.render_judge_chunk``)."""

    def cut(
        image: Image, scene: Scene, locate: Callable[[], BoardView]
    ) -> tuple[Image, npt.NDArray[np.int64]] | None:
        rows = row_labels(scene, config.checkers.stack_row)
        if not rows:
            return None
        crops = row_crops(image, locate(), list(rows), config.stacks)
        return crops, np.array([int(hides) for hides in rows.values()], np.int64)

    render_judge_chunk(first, CHUNK, data, config, training_scene, cut, CORNER_JITTER_PX)


def build_net() -> Any:
    """The judge (PyTorch): six 3x3 convolutions, the first two halving the crop and the next
    three followed by 2x2 max pools (the last one's outputs each see about three checkers
    along the row, so a checker can be told from its neighbours), a max over the whole crop (a
    stack may lie anywhere along the row) and one logit. About 19 M multiply-adds a 64 x 256
    crop."""
    from torch import nn

    return nn.Sequential(
        *conv_block(3, 16, 2),
        *conv_block(16, 24, 2),
        *conv_block(24, 32),
        nn.MaxPool2d(2),
        *conv_block(32, 48),
        nn.MaxPool2d(2),
        *conv_block(48, 64),
        nn.MaxPool2d(2),
        *conv_block(64, 64),
        nn.AdaptiveMaxPool2d(1),
        nn.Flatten(),
        nn.Linear(64, 1),
    )


def train(data: Path, epochs: int, threads: int, resume: bool) -> None:
    """Fit the judge on the cached chunks outside ``VALIDATION``, report on the others,
    export (``vision.training.parts.fit_judge``; ``resume``: fine-tune the shipped judge)."""
    from torch.nn import functional

    fit_judge(
        build_net,
        (data, VALIDATION),
        (NET, OUTPUTS),
        lambda out, y: functional.binary_cross_entropy_with_logits(out[:, 0], y),
        lambda logits, labels: judge_report(sigmoid(logits[:, 0]), labels),
        (epochs, BATCH, LEARNING_RATE, threads),
        resume,
    )


def main() -> None:
    """Render or train, as the command says."""
    judge_main(__doc__ or "", (DEFAULT_DATA, 540_000, 20_000, EPOCHS), CHUNK, render_chunk, train)


if __name__ == "__main__":
    main()
