"""Train the dice face net (``vision.dice_net``) on the even-numbered real dice photos.

``python -m vision.train_dice [--photos DIR] [--frames N] [--epochs N] [--seed S] [--out PATH]``
reads the labelled photos of ``DIR`` (default ``../shared/data/dice-photos``, BSD-3) numbered
0, 2, 4, ... (the odd-numbered ones are held out for
``tests/vision_read/test_read_dice_photos.py``) and ``N`` rendered board frames (tuning seeds
from ``FIRST_SEED``, so the net also knows rendered dice, checkers and points), and builds crops
the way ``vision.dice.find_dice`` sees dice:

- every candidate of the finder (``vision.dice.candidates``; on a frame, ``FRAME_NEGATIVES`` of
  them at random): within ``NEAR_SHARE`` of a labelled die's box side of its centre it is that
  die's value (two turned copies), beyond ``FAR_SHARE`` of every die it is class 0 (not a die);
  in between it is left out;
- each labelled die ``COPIES`` more times, its centre shifted, its size scaled, turned by a
  quarter turn (plus a few degrees) and mirrored at random, and twice seen off-centre
  (between ``FAR_SHARE`` and 0.8 of a side away: class 0, as the gap between touching dice).

It then fits the net with Adam (cosine learning rate, seeded shuffles and initial weights, so
the same photos give the same weights) and writes ``vision/dice_model.npz``. The shipped model:
the defaults (100 even photos, 120 frames, 14 epochs, seed 1), about 19,000 crops.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt
from numpy.lib.stride_tricks import sliding_window_view

from vision.board import board_from_corners
from vision.config import DiceConfig, ReadConfig
from vision.dice import candidates, face_crops, side_estimate
from vision.dice_net import (
    CHANNELS,
    CLASSES,
    CONVOLUTIONS,
    INPUT_PX,
    MODEL_PATH,
    DiceNet,
    EdgeField,
    crop,
    face_inputs,
    max_pool,
    save_net,
    softmax,
)
from vision.read import dice_config_for
from vision.render import render_scene, scene_for_seed

Floats = npt.NDArray[np.float32]
PHOTOS = Path(__file__).resolve().parents[2] / "shared" / "data" / "dice-photos"
NEAR_SHARE = 0.2
FAR_SHARE = 0.4
COPIES = 8
CONV_CHANNELS = (8, 16, 32)
HIDDEN = 64
# Rendered frames: tuning seeds from FIRST_SEED (``vision.render.dataset``; apart from the
# checker model's); a die's axis-aligned box is this share of its side; this many candidates
# per frame that are not dice.
FIRST_SEED = 700_000
FRAME_BOX_SHARE = 1.15
FRAME_NEGATIVES = 40

Labelled = tuple[float, float, float, int]  # centre x, centre y, box side, value


def labelled_dice(entry: dict[str, object]) -> list[Labelled]:
    """(centre x, centre y, box side, value) of each labelled die of a labels.json entry."""
    dice = []
    for die in entry["dice"]:  # type: ignore[attr-defined]
        x0, y0, x1, y1 = (float(v) for v in die["box"])
        dice.append(((x0 + x1) / 2, (y0 + y1) / 2, max(x1 - x0, y1 - y0), int(die["value"])))
    return dice


def _turn(rng: np.random.Generator) -> float:
    return 90.0 * int(rng.integers(4)) + float(rng.uniform(-6.0, 6.0))


def _aligned(
    image: npt.NDArray[np.uint8],
    edges: EdgeField,
    center: tuple[float, float],
    side: float,
    turn: float,
) -> npt.NDArray[np.uint8]:
    return crop(image, center, side, edges.angle(center, side) + turn)


def photo_crops(
    image: npt.NDArray[np.uint8],
    dice: Sequence[Labelled],
    rng: np.random.Generator,
    config: DiceConfig,
    max_negatives: int | None = None,
) -> tuple[list[npt.NDArray[np.uint8]], list[int]]:
    """Training crops and their classes from one photo or frame (see the module's docstring);
    at most ``max_negatives`` candidates (a random choice) that are not dice."""
    crops: list[npt.NDArray[np.uint8]] = []
    classes: list[int] = []
    places = candidates(image, config)
    if max_negatives is not None and len(places) > max_negatives:
        chosen = rng.permutation(len(places))[:max_negatives]
        at_dice = [
            p
            for p in places
            if any(math.dist(p.center, (x, y)) < FAR_SHARE * side for x, y, side, _ in dice)
        ]
        places = [places[i] for i in sorted(chosen) if places[i] not in at_dice] + at_dice
    edges = EdgeField(image)
    if places:
        seen = face_crops(image, edges, places, config)
        for place, first in zip(places, seen, strict=True):
            near = min(
                ((math.dist(place.center, (x, y)) / side, value) for x, y, side, value in dice),
                default=(math.inf, 0),
            )
            if NEAR_SHARE <= near[0] <= FAR_SHARE:
                continue
            label = near[1] if near[0] < NEAR_SHARE else 0
            crops.append(first)
            classes.append(label)
            if label:
                side = side_estimate(place, config)
                crops.append(_aligned(image, edges, place.center, side, _turn(rng)))
                classes.append(label)
    for x, y, side, value in dice:
        for _ in range(COPIES):
            dx, dy = rng.uniform(-0.12, 0.12, 2) * side
            scaled = side * math.exp(rng.uniform(-0.25, 0.25))
            seen_die = _aligned(image, edges, (x + dx, y + dy), scaled, _turn(rng))
            crops.append(seen_die[:, ::-1] if rng.random() < 0.5 else seen_die)
            classes.append(value)
        for _ in range(2):
            angle, away = rng.uniform(0, 2 * math.pi), rng.uniform(FAR_SHARE + 0.1, 0.8) * side
            center = (x + away * math.cos(angle), y + away * math.sin(angle))
            crops.append(
                _aligned(image, edges, center, side * math.exp(rng.uniform(-0.3, 0.3)), 0.0)
            )
            classes.append(0)
    return crops, classes


def training_set(
    photos: Path, start: int, step: int, seed: int, frames: int
) -> tuple[Floats, npt.NDArray[np.intp]]:
    """Net inputs and classes from the photos ``start``, ``start + step``, ... of ``photos``
    and ``frames`` rendered frames."""
    labels = json.loads((photos / "labels.json").read_text(encoding="utf-8"))
    rng = np.random.default_rng(seed)
    crops: list[npt.NDArray[np.uint8]] = []
    classes: list[int] = []
    for entry in labels[start::step]:
        image = cv2.imread(str(photos / "images" / str(entry["image"])), cv2.IMREAD_COLOR)
        if image is None:
            raise ValueError(f"{entry['image']}: not a readable image")
        more, more_classes = photo_crops(
            np.asarray(image, np.uint8), labelled_dice(entry), rng, ReadConfig().dice
        )
        crops += more
        classes += more_classes
    for seed in range(FIRST_SEED, FIRST_SEED + frames):
        more, more_classes = frame_crops(seed, rng)
        crops += more
        classes += more_classes
    return face_inputs(np.ascontiguousarray(np.stack(crops))), np.array(classes, np.intp)


def frame_crops(
    seed: int, rng: np.random.Generator
) -> tuple[list[npt.NDArray[np.uint8]], list[int]]:
    """Training crops of a rendered frame (``vision.render``, tuning seed ``seed``): its dice
    (their sides as the reader expects them on that board) and ``FRAME_NEGATIVES`` candidates
    that are not dice (checkers, points, the table)."""
    config = ReadConfig()
    image, label = render_scene(scene_for_seed(seed))
    view = None
    if label.board.found and label.board.corners is not None:
        view = board_from_corners(image, label.board.corners, config.board)
    dice_config = dice_config_for(view, config)
    side = dice_config.min_side_px / config.die_min_share * FRAME_BOX_SHARE
    dice = [
        (die.center[0], die.center[1], side, die.value)
        for die in label.dice
        if die.value is not None
    ]
    return photo_crops(image, dice, rng, dice_config, FRAME_NEGATIVES)


def im2col(x: Floats) -> Floats:
    """The 3x3 neighbourhoods (zero padded) of every pixel of ``x`` (n x h x w x c), one row per
    pixel: (n * h * w) x (c * 9), in the order channel, row, column (``convolve``'s weights)."""
    count, height, width, channels = x.shape
    padded = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    windows = sliding_window_view(padded, (3, 3), axis=(1, 2))
    return np.asarray(windows, np.float32).reshape(count * height * width, channels * 9)


def _col2im(columns: Floats, shape: tuple[int, ...]) -> Floats:
    """The gradient of ``im2col``: each column's entries added back to their pixels."""
    count, height, width, channels = shape
    windows = columns.reshape(count, height, width, channels, 3, 3)
    padded = np.zeros((count, height + 2, width + 2, channels), np.float32)
    for i in range(3):
        for j in range(3):
            padded[:, i : i + height, j : j + width, :] += windows[..., i, j]
    return padded[:, 1:-1, 1:-1, :]


def _pool_gradient(before: Floats, after: Floats, gradient: Floats) -> Floats:
    count, height, width, channels = before.shape
    blocks = before.reshape(count, height // 2, 2, width // 2, 2, channels)
    winners = blocks == after[:, :, None, :, None, :]
    share = winners / winners.sum(axis=(2, 4), keepdims=True)
    return np.asarray((share * gradient[:, :, None, :, None, :]).reshape(before.shape), np.float32)


def gradients(net: DiceNet, x: Floats, classes: npt.NDArray[np.intp]) -> list[tuple[Floats, ...]]:
    """The cross-entropy loss's gradients (weights, biases) for each layer of ``net``."""
    cache = []
    for weights, biases in net.layers[:CONVOLUTIONS]:
        columns = im2col(x)
        z = np.maximum(columns @ weights + biases, 0.0).reshape(*x.shape[:3], -1)
        pooled = max_pool(z)
        cache.append((x.shape, columns, z, pooled))
        x = pooled
    flat = x.reshape(len(x), -1)
    (w1, b1), (w2, b2) = net.layers[CONVOLUTIONS:]
    hidden = np.maximum(flat @ w1 + b1, 0.0)
    probabilities = softmax(np.asarray(hidden @ w2 + b2, np.float32))
    g = probabilities.copy()
    g[np.arange(len(classes)), classes] -= 1.0
    g /= len(classes)
    result: list[tuple[Floats, ...]] = [(hidden.T @ g, g.sum(axis=0))]
    g = (g @ w2.T) * (hidden > 0)
    result.append((flat.T @ g, g.sum(axis=0)))
    g = (g @ w1.T).reshape(cache[-1][3].shape)
    for index in range(CONVOLUTIONS - 1, -1, -1):
        shape, columns, z, pooled = cache[index]
        dz = (_pool_gradient(z, pooled, g) * (z > 0)).reshape(-1, z.shape[-1])
        result.append((columns.T @ dz, dz.sum(axis=0)))
        if index:
            g = _col2im(dz @ net.layers[index][0].T, shape)
    return result[::-1]


def initial_net(rng: np.random.Generator) -> DiceNet:
    """He-initialised weights, zero biases."""
    shapes = []
    channels = CHANNELS
    for out in CONV_CHANNELS:
        shapes.append((9 * channels, out))
        channels = out
    pooled = INPUT_PX // 2 ** len(CONV_CHANNELS)
    shapes += [(pooled * pooled * channels, HIDDEN), (HIDDEN, CLASSES)]
    return DiceNet(
        tuple(
            (
                rng.normal(0.0, math.sqrt(2.0 / rows), (rows, columns)).astype(np.float32),
                np.zeros(columns, np.float32),
            )
            for rows, columns in shapes
        )
    )


def fit(
    x: Floats,
    classes: npt.NDArray[np.intp],
    epochs: int,
    seed: int,
    rate: float = 2e-3,
    batch: int = 64,
    decay: float = 1e-4,
) -> DiceNet:
    """Adam over shuffled mini-batches, the learning rate falling on a cosine, weight decay on
    the weights (not the biases)."""
    rng = np.random.default_rng(seed)
    net = initial_net(rng)
    params = [[w.copy(), b.copy()] for w, b in net.layers]
    first = [[np.zeros_like(a) for a in layer] for layer in params]
    second = [[np.zeros_like(a) for a in layer] for layer in params]
    step = 0
    for epoch in range(epochs):
        now = rate * 0.5 * (1.0 + math.cos(math.pi * epoch / epochs))
        order = rng.permutation(len(x))
        for begin in range(0, len(x), batch):
            chosen = order[begin : begin + batch]
            current = DiceNet(tuple((w, b) for w, b in params))
            step += 1
            for layer, grads, m, v in zip(
                params, gradients(current, x[chosen], classes[chosen]), first, second, strict=True
            ):
                for k in range(2):
                    g = grads[k] + (decay * layer[k] if k == 0 else 0.0)
                    m[k] = 0.9 * m[k] + 0.1 * g
                    v[k] = 0.999 * v[k] + 0.001 * g * g
                    corrected = (m[k] / (1 - 0.9**step)) / (
                        np.sqrt(v[k] / (1 - 0.999**step)) + 1e-8
                    )
                    layer[k] = (layer[k] - now * corrected).astype(np.float32)
        print(f"epoch {epoch + 1}/{epochs}", flush=True)
    return DiceNet(tuple((w, b) for w, b in params))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--photos", type=Path, default=PHOTOS)
    parser.add_argument("--epochs", type=int, default=14)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=MODEL_PATH)
    parser.add_argument("--frames", type=int, default=120, help="rendered frames")
    parser.add_argument(
        "--step", type=int, default=2, help="photos 0, step, 2 step, ... (tuning splits)"
    )
    args = parser.parse_args(argv)
    x, classes = training_set(args.photos, 0, args.step, args.seed, args.frames)
    print(f"{len(x)} crops, per class {np.bincount(classes, minlength=CLASSES).tolist()}")
    save_net(fit(x, classes, args.epochs, args.seed), args.out)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
