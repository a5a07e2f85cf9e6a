"""Train the judge of edges (``vision/models/edges.onnx``, read by ``vision.edges``).

    python -m vision.training.train_edges render --first 800000 --frames 16000
    python -m vision.training.train_edges render --first 880000 --frames 1000
    python -m vision.training.train_edges train --threads 2

``render`` draws rendered frames of tuning seeds (never the evaluation seeds of
``vision.render.dataset``) and caches, in chunks of ``CHUNK`` frames under ``--data`` (default
``/tmp/edges-data``), the edge crop (``vision.columns.row_crops`` with ``ReadConfig.edges``) of
every point, whether its first place is taken (the point holds checkers) and whether by the
lighter colour. Every other frame shows ``single_position`` (points of one or two checkers,
where the checker net is least sure), the others the renderer's own scene. The board is
located as the reader meets it: the labelled corners jittered by up to ``CORNER_JITTER_PX`` and
the bar ``vision.board.find_bar`` finds there. Frames with a hand over the board (labelled
occluded) or without a board are skipped.

``train`` fits the judge (PyTorch, fixed seeds) on every chunk outside ``VALIDATION`` and
exports it with ``vision.training.export.export_onnx``; after each epoch it prints, on the
validation chunks, the AUC of ``taken`` and, per threshold (``THRESHOLDS``), the share of the
taken places and of the empty ones called taken, and how often the light output is right on
taken places.

The shipped judge: ``render --first 800000 --frames 12000`` and ``--first 812000 --frames
12000`` (507,792 places, 212,427 taken; about 14 minutes in two processes), ``--first 880000
--frames 1000`` (validation: 21,024 places, 8,796 taken), ``train --threads 2 --epochs 8`` (about
2.5 minutes an epoch, an Intel Xeon with AVX-512, 2026-12-07). Validation: AUC 1.0000; at 0.1,
99.99% of the taken places called taken and 0.07% of the empty ones; at 0.5, 99.94% and 0.02%;
at 0.9, 99.91% and 0.01%; the light output right on 99.97% of the taken places. On the tuning
frames 670,000..670,999 and 673,000..673,999 (labelled corners, calibrated camera), the checker
net misreads whether 36 points hold any checker (P(none) at least 0.1 on a point that holds
some, under 0.9 on an empty one); the judge gives 33 of them the right verdict at 0.9 or more
(among them 3 of the 4 lone checkers the net gives P(none) 0.98 or more) and leaves the other
three unsure (P(taken) 0.60 to 0.86).
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
from vision.edges import NET, OUTPUTS
from vision.labels import CHECKERS_PER_SIDE, COLORS, POINTS, Color
from vision.render import scene_for_seed
from vision.render.positions import Position
from vision.render.scene import Scene, sample_scene
from vision.training.parts import (
    colour_loss,
    fit_judge,
    judge_main,
    judge_report,
    render_judge_chunk,
    sigmoid,
    stretched_net,
)

CHUNK = 100
OWN_EVERY = 2  # every other seed shows the renderer's own scene
CORNER_JITTER_PX = 3.0
VALIDATION = range(880_000, 890_000)  # chunks of these seeds are held out
DEFAULT_DATA = Path("/tmp/edges-data")
EPOCHS = 8
BATCH = 256
LEARNING_RATE = 3e-3
THRESHOLDS = (0.02, 0.1, 0.5, 0.9, 0.98)  # of P(taken), in the report
EDGE_CROP = ReadConfig().edges.crop_height  # the judge's crops are square

Image = npt.NDArray[np.uint8]
Labels = npt.NDArray[np.int64]


def single_position(rng: np.random.Generator) -> Position:
    """A position of lone checkers: each side's checkers on four to eight points (fewer where
    its checkers run out) of one (60%), two (25%) or three to six (15%), the rest borne off."""
    points: list[tuple[Color | None, int]] = [(None, 0)] * POINTS
    off = [0, 0]
    for side in rng.permutation(2):
        left = CHECKERS_PER_SIDE
        for _ in range(int(rng.integers(4, 9))):
            free = [i for i in range(POINTS) if points[i][0] is None]
            if left == 0 or not free:
                break
            kind = rng.random()
            count = 1 if kind < 0.6 else 2 if kind < 0.85 else int(rng.integers(3, 7))
            count = min(count, left)
            points[int(rng.choice(free))] = (COLORS[int(side)], count)
            left -= count
        off[side] = left
    return Position(points=tuple(points), bar=(0, 0), off=(off[0], off[1]))


def training_scene(seed: int) -> Scene:
    """The scene of a training seed: the renderer's own every ``OWN_EVERY`` seeds, else one
    showing ``single_position`` (else drawn alike)."""
    if seed % OWN_EVERY == 0:
        return scene_for_seed(seed)
    position = single_position(np.random.default_rng([seed, 5]))
    return sample_scene(np.random.default_rng(seed), position=position)


def edge_labels(scene: Scene) -> Labels:
    """Per point (24 x 2, point 1 first): its first place taken (1), by a light checker (1)."""
    return np.array(
        [(count > 0, colour == "light") for colour, count in scene.position.points], np.int64
    )


def render_chunk(first: int, data: Path, config: ReadConfig) -> None:
    """Render frames ``first .. first + CHUNK - 1`` and write every point's edge crop, labels
    (``edge_labels``) and seeds to ``data/chunk-<first>.npz``
    (``vision.training.parts.render_judge_chunk``)."""
    points = list(range(1, POINTS + 1))

    def cut(image: Image, scene: Scene, locate: Callable[[], BoardView]) -> tuple[Image, Labels]:
        return row_crops(image, locate(), points, config.edges), edge_labels(scene)

    render_judge_chunk(first, CHUNK, data, config, training_scene, cut, CORNER_JITTER_PX)


def build_net() -> Any:
    """The judge (PyTorch): ``vision.training.parts.stretched_net`` of the ``ReadConfig.edges``
    crop (40 x 40: about 3 M multiply-adds) to two logits, taken and light (the first place
    lies where it lies, so the map is read whole)."""
    return stretched_net(EDGE_CROP, EDGE_CROP, 1)


def summary(logits: npt.NDArray[np.float64], labels: Labels) -> str:
    """``judge_report`` of ``taken`` (its logits: column 0) and the light output's accuracy
    (column 1) on taken places."""
    probabilities = sigmoid(logits)
    taken = labels[:, 0] == 1
    light = np.mean((probabilities[taken, 1] >= 0.5) == (labels[taken, 1] == 1))
    called = judge_report(probabilities[:, 0], labels[:, 0], ("taken", "empty"), THRESHOLDS)
    return f"{called}; light right {light:.4%}"


def train(data: Path, epochs: int, threads: int, resume: bool) -> None:
    """Fit the judge on the cached chunks outside ``VALIDATION``, report on the others,
    export (``vision.training.parts.fit_judge``; ``resume``: fine-tune the shipped judge). The
    loss: of ``taken``, and of ``light`` on the taken places."""
    from torch.nn import functional

    def loss(out: Any, y: Any) -> Any:
        taken, light = out
        miss = functional.binary_cross_entropy_with_logits(taken[:, 0], y[:, 0])
        return miss + colour_loss(light, y[:, 1], y[:, 0])

    fit_judge(
        build_net,
        (data, VALIDATION),
        (NET, OUTPUTS),
        loss,
        summary,
        (epochs, BATCH, LEARNING_RATE, threads),
        resume,
    )


def main() -> None:
    """Render or train, as the command says."""
    judge_main(__doc__ or "", (DEFAULT_DATA, 800_000, 16_000, EPOCHS), CHUNK, render_chunk, train)


if __name__ == "__main__":
    main()
