"""Train the tray net (``vision/models/trays.onnx``, read by ``vision.trays``).

    python -m vision.training.train_trays render --first 700000 --frames 18000
    python -m vision.training.train_trays train

``render`` draws rendered frames of tuning seeds (never the evaluation seeds of
``vision.render.dataset``) and caches their four tray crops (``vision.trays.tray_crops``) and
labels under ``--data`` (default ``/tmp/trays-data``), in chunks of ``CHUNK`` frames. Most
positions of the renderer have nothing borne off, so all but one frame in ``OWN_EVERY`` shows
a position with checkers borne off (``off_position``: each side 0..15 off, uniformly, but for a
share with none), on a board, camera and light drawn as the renderer draws them. Each frame is
cut ``CUTS`` times, with the labelled corners jittered by up to ``CORNER_JITTER_PX``. Frames
with a hand over the board (labelled occluded) or without a board are skipped.

``train`` fits the net (PyTorch, one thread, fixed seeds) on every chunk but the last
``VALIDATION_CHUNKS`` and exports it with ``vision.training.export.export_onnx``; it prints
per-crop accuracy on the validation chunks.

``train --resume`` fine-tunes the shipped net instead (``vision.training.export.load_exported``;
the band head, which the export leaves out, starts afresh).

The net before the shipped one: ``render --first 700000 --frames 18000`` (about 17 minutes in
two processes of 9,000 frames), ``train --epochs 14`` (124,448 crops, one thread, about 55
minutes). Validation crops (seeds 717,700..717,999, 2,056 crops): counts 94.4% right, 83.3% of
the crops holding checkers (98.3% within one); 81.5% of crops given P >= 0.9 (44.7% of those
holding checkers), 0.29% of crops wrong at that; colour 99.7%. The net before it, the same one
trained on 3,600 frames, read 61.3% of these crops holding checkers (86.7% of all; 7.5% of those
holding checkers given P >= 0.9). A net with a third more channels (16/32/48, a 96-wide head,
1.7 times the multiply-adds) read 82.9% after 8 epochs: no better per cost. Smaller nets, with
3,600 frames: two thirds of the channels read 53.6% of the crops holding checkers; one 32 pixels
wide with 12/24/32 channels, no band profile and no stretching, 67% (4.6 ms).

The shipped net is that net fine-tuned with ``train --resume`` by a session cut off before it
recorded which frames it rendered. On the crops above (which may have been among its training
frames) it counts 95.2% right, 85.7% of the crops holding checkers (99.0% within one), gives
P >= 0.9 to 83.0% of the crops (49.4% of those holding checkers), 0.24% wrong at that, colour
100%. On the evaluation frames (``evaluate-vision --label-corners``, never trained on):
boards exactly right 87.35% (87.18% before), borne-off counts given 96.51% (96.29%), right
99.71% (99.74%).

More frames, not shipped (2026-12-05): ``render --first 740000 --frames 18000`` and ``--first
760000 --frames 18000`` (252,560 crops; validation seeds 777,700..777,999, 2,160 crops, on
which the shipped net counts 93.3% right, 79.8% of the crops holding checkers, gives P >= 0.9
to 81.8%, 0.23% wrong at that). ``train --resume --epochs 4``: 93.7%, 81.0%, 81.9%, 0.23%, and
tuning frames 650,000..650,999 (labelled corners) read exactly as before (854 of 891 boards).
``train --epochs 14`` from scratch (about 3 minutes an epoch): 94.6%, 83.5%, 83.8%, 0.37%; on
the tuning frames 650,000..650,999 and 660,000..660,999, 1,726 of 1,788 boards exact against
1,723, points confidently wrong 4 against 3: too little for more counts wrong when sure.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision import nets
from vision.board import BoardView, board_from_corners
from vision.config import ReadConfig, TrayConfig
from vision.labels import CHECKERS_PER_SIDE, COLORS, POINTS, Color
from vision.render import render_scene
from vision.render.layout import TRAY
from vision.render.positions import Position
from vision.render.scene import Scene, sample_scene
from vision.training.export import export_onnx, load_exported
from vision.training.parts import chunked_main, conv_block, fit_epochs, jittered_corners
from vision.trays import (
    COUNT_CLASSES,
    CROPS,
    NET,
    OUTPUTS,
    crop_to_canonical,
    tray_crops,
)

CHUNK = 100
OWN_EVERY = 4  # every fourth seed shows the renderer's own position
NONE_OFF = 0.2  # share of a side's counts in ``off_position`` with nothing borne off
CUTS = 2
ROW_BAND = 4  # crop rows per band of the net's checker profile (its features' stride along)
CORNER_JITTER_PX = 3.0
DEFAULT_DATA = Path("/tmp/trays-data")

Image = npt.NDArray[np.uint8]
Labels = npt.NDArray[np.int16]


def off_position(rng: np.random.Generator) -> Position:
    """A position with checkers borne off: per side none (``NONE_OFF``) or 1..15, the rest on
    one to eight points or (a few) on the bar."""
    points: list[tuple[Color | None, int]] = [(None, 0)] * POINTS
    bar, off = [0, 0], [0, 0]
    for side in rng.permutation(2):
        off[side] = 0 if rng.random() < NONE_OFF else int(rng.integers(1, CHECKERS_PER_SIDE + 1))
        left = CHECKERS_PER_SIDE - off[side]
        bar[side] = min(int(rng.integers(1, 3)), left) if rng.random() < 0.1 else 0
        on_points = left - bar[side]
        if on_points == 0:
            continue
        free = [i for i in range(POINTS) if points[i][0] is None]
        spots = int(rng.integers(1, min(on_points, 8) + 1))
        chosen = rng.choice(free, size=spots, replace=False)
        counts = 1 + rng.multinomial(on_points - spots, rng.dirichlet(np.full(spots, 0.8)))
        for index, count in zip(chosen, counts, strict=True):
            points[int(index)] = (COLORS[int(side)], int(count))
    return Position(points=tuple(points), bar=(bar[0], bar[1]), off=(off[0], off[1]))


def training_scene(seed: int) -> Scene:
    """The scene of a training seed: the renderer's own every ``OWN_EVERY`` seeds, else one
    showing ``off_position`` (else drawn alike)."""
    position = None if seed % OWN_EVERY == 0 else off_position(np.random.default_rng([seed, 2]))
    return sample_scene(np.random.default_rng(seed), position=position)


def crop_labels(scene: Scene, view: BoardView, config: TrayConfig) -> tuple[Labels, Labels]:
    """Per crop (``vision.trays.CROPS`` order): standing checkers and light (1) or dark (0),
    and how many checkers' centres lie in each band of ``ROW_BAND`` crop rows (the net learns
    where checkers stand as well as how many). A checker's crop is where its centre lands
    on the canonical board (the camera's own projection, lens included)."""
    labels = np.zeros((len(CROPS), 2), np.int16)
    rows = np.zeros((len(CROPS), config.crop_height // ROW_BAND), np.int16)
    standing = [c for c in scene.checkers if c.where == TRAY]
    if not standing:
        return labels, rows
    pixels = scene.camera.project(np.array([[c.x, c.y, 0.0] for c in standing]))
    if scene.camera.k1 != 0.0:
        pixels = scene.camera.distort(pixels)
    seen = cv2.perspectiveTransform(pixels.reshape(-1, 1, 2), view.to_canonical).reshape(-1, 2)
    for checker, (x, y) in zip(standing, seen, strict=True):
        index = CROPS.index((int(x > view.width / 2), int(y > view.height / 2)))
        labels[index, 0] += 1
        labels[index, 1] = checker.color == "light"
        to_crop = np.linalg.inv(crop_to_canonical(view, *CROPS[index], config))
        row = (to_crop @ np.array([x, y, 1.0]))[1]
        rows[index, int(np.clip(row // ROW_BAND, 0, rows.shape[1] - 1))] += 1
    return labels, rows


def render_chunk(first: int, data: Path, config: ReadConfig) -> None:
    """Render frames ``first .. first + CHUNK - 1`` and write their crops, labels and checker
    bands (``crop_labels``) to ``data/chunk-<first>.npz``."""
    rng = np.random.default_rng(first)
    crops, labels, rows, seeds = [], [], [], []
    for seed in range(first, first + CHUNK):
        scene = training_scene(seed)
        image, label = render_scene(scene)
        if not label.board.found or label.board.corners is None or label.occluded:
            continue
        g = scene.geometry
        bar = (g.bar_rect[0] / g.surface_width, g.bar_rect[2] / g.surface_width)
        for _ in range(CUTS):
            view = board_from_corners(
                image,
                jittered_corners(label.board.corners, rng, CORNER_JITTER_PX),
                config.board,
                bar,
            )
            crops.append(tray_crops(image, view, config.trays))
            counts, bands = crop_labels(scene, view, config.trays)
            labels.append(counts)
            rows.append(bands)
            seeds.append(seed)
    np.savez_compressed(
        data / f"chunk-{first}.npz",
        crops=np.stack(crops),
        labels=np.stack(labels),
        rows=np.stack(rows),
        seeds=np.array(seeds, np.int64),
    )


VALIDATION_CHUNKS = 3  # the last chunks of ``--first .. --frames`` are held out
EPOCHS = 14
BATCH = 128
LEARNING_RATE = 3e-3
BAND_WEIGHT = 0.1  # weight of the bands' squared error (summed over a crop's bands)
STRETCH = (0.87, 1.15)  # range of the crops' stretch along in training (factor of length)


def build_net(config: TrayConfig) -> Any:
    """The tray CNN (PyTorch): per crop, count logits (16) and a light logit; in training also
    the checkers per band of ``ROW_BAND`` rows (``bands``, a profile the count is learnt
    alongside). Sized for the reader's budget (about 2.2 M multiply-adds per crop, four crops
    a frame)."""
    import torch
    from torch import nn

    along = config.crop_height // 4
    across = config.crop_width // 8

    class TrayNet(nn.Module):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self.features = nn.Sequential(
                *conv_block(3, 12, (1, 2)),
                nn.MaxPool2d(2),
                *conv_block(12, 24),
                nn.MaxPool2d(2),
                *conv_block(24, 32),
                nn.MaxPool2d((1, across)),
            )
            self.head = nn.Sequential(
                nn.Flatten(),
                nn.Linear(32 * along, 64),
                nn.ReLU(),
                nn.Linear(64, COUNT_CLASSES + 1),
            )
            self.band = nn.Conv2d(32, 1, 1)

        def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            y = self.head(self.features(x))
            return y[:, :COUNT_CLASSES], y[:, COUNT_CLASSES:]

        def bands(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
            """``forward``'s outputs and the checkers per band (softplus, n x bands)."""
            features = self.features(x)
            y = self.head(features)
            profile = nn.functional.softplus(self.band(features).flatten(1))
            return y[:, :COUNT_CLASSES], y[:, COUNT_CLASSES:], profile

    return TrayNet()


def load_chunks(paths: list[Path]) -> tuple[Image, Labels, Labels]:
    """Crops (one per row), labels (rows x 2) and checker bands of the cached chunks."""
    crops, labels, rows = [], [], []
    for path in paths:
        with np.load(path) as chunk:
            crops.append(chunk["crops"].reshape(-1, *chunk["crops"].shape[2:]))
            labels.append(chunk["labels"].reshape(-1, 2))
            rows.append(chunk["rows"].reshape(-1, chunk["rows"].shape[-1]))
    return np.concatenate(crops), np.concatenate(labels), np.concatenate(rows)


def _augment(x: Any, rows: Any, generator: Any) -> tuple[Any, Any]:
    """Random stretches along (one per batch, the tray's end kept at the top: checkers
    thicker or thinner than the renderer's), colour channel orders, brightness, contrast and
    noise: boards and palettes the renderer may not make (no flips: every crop shows the
    tray's end at its top)."""
    import torch
    from torch.nn import functional

    n, _, height, _ = x.shape
    stretch = 1.0 / (
        STRETCH[0] + (STRETCH[1] - STRETCH[0]) * float(torch.rand(1, generator=generator))
    )
    resized = functional.interpolate(
        x, size=(round(height * stretch), x.shape[3]), mode="bilinear", align_corners=False
    )
    if resized.shape[2] >= height:
        x = resized[:, :, :height]
    else:
        x = torch.cat(
            [resized, resized[:, :, -1:].expand(-1, -1, height - resized.shape[2], -1)], 2
        )
    centres = (torch.arange(rows.shape[1]) + 0.5) * ROW_BAND * stretch
    moved = (centres // ROW_BAND).long().clamp(max=rows.shape[1] - 1)
    rows = torch.zeros_like(rows).index_add_(1, moved, rows)
    order = torch.randperm(3, generator=generator)
    x = x[:, order]
    gain = 0.75 + 0.5 * torch.rand(n, 1, 1, 1, generator=generator)
    shift = 0.2 * (torch.rand(n, 1, 1, 1, generator=generator) - 0.5)
    noise = 0.02 * torch.randn(x.shape, generator=generator)
    return x * gain + shift + noise, rows


def _losses(outputs: Any, y: Any, rows: Any) -> Any:
    from torch.nn import functional

    count, light, profile = outputs
    loss = functional.cross_entropy(count, y[:, 0]) + BAND_WEIGHT * functional.mse_loss(
        profile, rows.float(), reduction="sum"
    ) / len(rows)
    occupied = (y[:, 0] > 0).float()
    colour = functional.binary_cross_entropy_with_logits(
        light[:, 0], y[:, 1].float(), reduction="none"
    )
    return loss + (colour * occupied).sum() / occupied.sum().clamp(min=1.0)


def _accuracy(net: Any, x: Image, y: Labels) -> str:
    import torch

    net.eval()
    with torch.no_grad():
        count, light = (
            torch.cat(parts)
            for parts in zip(
                *(
                    net(torch.from_numpy(nets.image_batch(x[i : i + 512])))
                    for i in range(0, len(x), 512)
                ),
                strict=True,
            )
        )
    truth = torch.from_numpy(y.astype(np.int64))
    best, counted = torch.softmax(count, -1).max(-1)
    right = counted == truth[:, 0]
    occupied = truth[:, 0] > 0
    colour_right = ((light[:, 0] > 0).long() == truth[:, 1])[occupied]
    sure = best >= 0.9
    return (
        f"count {right.float().mean():.4%} (occupied {right[occupied].float().mean():.4%}; "
        f"sure {sure.float().mean():.2%}, wrong when sure {(~right & sure).float().mean():.4%}),"
        f" colour {colour_right.float().mean():.4%}"
    )


def train(data: Path, config: TrayConfig, epochs: int, resume: bool) -> None:
    """Fit the net on the cached training chunks, report on the validation ones, export. With
    ``resume``, fine-tune the shipped net at a tenth of the learning rate, its batch norms kept
    at their folded statistics (``vision.training.export.load_exported``; the band head, which
    the export leaves out, starts afresh)."""
    import torch

    torch.set_num_threads(1)
    torch.manual_seed(0)
    generator = torch.Generator().manual_seed(0)
    paths = sorted(data.glob("chunk-*.npz"), key=lambda p: int(p.stem.split("-")[1]))
    x_fit, y_fit, rows_fit = load_chunks(paths[:-VALIDATION_CHUNKS])
    x_val, y_val, _ = load_chunks(paths[-VALIDATION_CHUNKS:])
    print(f"crops: fit {len(x_fit)}, validation {len(x_val)}", flush=True)
    net = build_net(config)
    if resume:
        load_exported(net, NET)
        print(f"shipped net: {_accuracy(net, x_val, y_val)}", flush=True)
    fit_y = torch.from_numpy(y_fit.astype(np.int64))
    fit_rows = torch.from_numpy(rows_fit.astype(np.int64))

    def batch_loss(index: Any) -> Any:
        x, rows = _augment(
            torch.from_numpy(nets.image_batch(x_fit[index.numpy()])), fit_rows[index], generator
        )
        return _losses(net.bands(x), fit_y[index], rows)

    fit_epochs(
        net,
        len(x_fit),
        BATCH,
        LEARNING_RATE,
        epochs,
        generator,
        batch_loss,
        lambda: _accuracy(net, x_val, y_val),
        resume,
    )
    example = torch.from_numpy(nets.image_batch(x_val[: len(CROPS)]))
    print(export_onnx(net, example, NET, OUTPUTS))


def main() -> None:
    """Render or train, as the command says."""
    chunked_main(
        __doc__ or "",
        (DEFAULT_DATA, 700_000, 18_000, EPOCHS),
        (CHUNK, "npz"),
        lambda first, data, config, _: render_chunk(first, data, config),
        lambda args, config: train(args.data, config.trays, args.epochs, args.resume),
        lambda parser: parser.add_argument(
            "--resume", action="store_true", help="fine-tune the shipped net"
        ),
    )


if __name__ == "__main__":
    main()
