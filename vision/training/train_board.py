"""Train the board networks of ``vision.board`` on rendered tuning frames.

``python -m vision.training.train_board [--data DIR] [--frames N] [--small-frames N]
[--no-board-frames N] [--nets locate,wide,corner,bar] [--epochs NET=N,...] [--seed S]
[--resume]`` renders
(once, cached in ``DIR``) ``--frames`` frames at 1280 x 720 from tuning seed ``FIRST_SEED``,
``--small-frames`` at 960 x 540 (the demo's size) from ``FIRST_SMALL_SEED`` and
``--no-board-frames`` of the table alone (the seeds from ``FIRST_NO_BOARD_SEED`` on whose scene
has no board), each kept as a JPEG (quality 95) with its labels: the surface's corners and the
bar's two edges (points along them, projected through the scene's camera and lens). It then
builds, with the reader's own preprocessing (``vision.board``):

- ``board_locate``: the shrunk frame (``locator_image``), mirrored left-right and up-down at
  random (the corners swapped to match) with random channel orders and gains; targets: each
  corner's heatmap cell (cross-entropy over the cells), its sub-cell offset (L1, on the 3 x 3
  cells around it) and whether a board is there;
- ``board_corner``: ``PATCHES`` patches per corner (``corner_patches``) centred up to
  ``FAR_PX`` frame pixels (half of them within a few pixels) off the true corner and one away
  from it (``_away``); targets: the corner's shift from the patch centre (smooth L1) and
  whether the patch shows the corner (cross-entropy);
- ``board_corner_wide``: the same on patches ``wide_zoom`` times coarser, up to
  ``WIDE_FAR_PX`` off, plus one at each corner of the trays and of the whole board that looks
  like the surface's (``look_alikes``), so that it does not pull a corner onto a tray's. (The
  refiner trained with those too read true corners less surely: 106 of 116 tuning boards
  found against 111, none wrong either way.)
- ``board_bar``: the surface rectified (``bar_image``) with each corner ``BAR_JITTER_PX`` off
  (Gaussian), as found corners are; target: where the bar's edges fall on its columns
  (cross-entropy against a one-column-wide Gaussian, plus L1 on the softmax mean).

Training is Adam with a one-cycle learning rate, seeded; the nets are written to
``vision/models/board_*.onnx``. Seeds from ``FIRST_SEED`` are tuning seeds (< 1,000,000) clear of
the demo's (104). The shipped nets: the defaults (wall-clock on the shared two-core machine,
one thread: ~15 minutes for the locator's 16 epochs, ~9 for each refiner, ~4 for the bar); the
refiner's set then drew its random offsets from the same stream as the bar net's jitter, so this
script makes a statistically equal but not bit-equal ``board_corner``.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.board import (
    BAR_NET,
    CORNER_NET,
    LOCATE_NET,
    WIDE_NET,
    Corners,
    bar_image,
    corner_patches,
    locator_cells,
    locator_image,
    order_corners,
    patch_transform,
    to_input,
)
from vision.config import BoardConfig
from vision.render.dataset import TUNING_SEEDS
from vision.render.render import render_scene
from vision.render.scene import scene_for_seed
from vision.training.export import export_onnx

FIRST_SEED = 10_000
FIRST_SMALL_SEED = 20_000
FIRST_NO_BOARD_SEED = 100_000
PATCHES = 2
FAR_PX = 12.0
NEAR_PX = 2.5
AWAY_PX = 24.0
WIDE_FAR_PX = 30.0
SETS_VERSION = 3  # of the sets' contents, in the names of the cached sets
BAR_JITTER_PX = 1.0
BAR_COPIES = 2
EDGE_SAMPLES = 9  # points along each bar edge in the labels

Image = npt.NDArray[np.uint8]
Floats = npt.NDArray[np.float32]


def render_cache(folder: Path, seeds: Sequence[int], size: tuple[int, int]) -> None:
    """Render the frames of ``seeds`` not yet in ``folder``: ``SEED.jpg`` and ``SEED.npz``
    (``board``, ``corners`` 4 x 2, ``bar`` 2 * EDGE_SAMPLES x 2: the bar's left then right edge,
    top to bottom, frame pixels)."""
    folder.mkdir(parents=True, exist_ok=True)
    for seed in seeds:
        if seed not in TUNING_SEEDS:
            raise ValueError(f"seed {seed}: only tuning seeds train the board nets")
        labels = folder / f"{seed}.npz"
        if labels.exists():
            continue
        scene = scene_for_seed(seed, *size)
        image, label = render_scene(scene)
        cv2.imwrite(str(folder / f"{seed}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, 95])
        corners = np.array(label.board.corners if label.board.found else np.zeros((4, 2)))
        g = scene.geometry
        ys = np.linspace(0.0, g.surface_height, EDGE_SAMPLES)
        edges = [np.stack([np.full_like(ys, x), ys, np.zeros_like(ys)], 1) for x in g.bar_rect[::2]]
        camera = scene.camera
        bar = camera.distort(camera.project(np.concatenate(edges)))
        np.savez(labels, board=scene.board, corners=corners, bar=bar)


def no_board_seeds(first: int, count: int) -> list[int]:
    """The first ``count`` seeds from ``first`` on whose scene has no board (2% of scenes)."""
    seeds: list[int] = []
    seed = first
    while len(seeds) < count:
        if not scene_for_seed(seed).board:
            seeds.append(seed)
        seed += 1
    return seeds


def _no_board_seeds(data: Path, count: int) -> list[int]:
    """``no_board_seeds`` from ``FIRST_NO_BOARD_SEED``, listed once in ``data``."""
    listed = data / f"no-board-seeds-{count}.txt"
    if not listed.exists():
        data.mkdir(parents=True, exist_ok=True)
        seeds = no_board_seeds(FIRST_NO_BOARD_SEED, count)
        listed.write_text("".join(f"{seed}\n" for seed in seeds))
    return [int(line) for line in listed.read_text().split()]


def load_cache(folder: Path, seeds: Sequence[int]) -> Iterator[tuple[Image, dict[str, Any]]]:
    """The cached frames of ``seeds`` with their labels (and ``seed``)."""
    for seed in seeds:
        image = cv2.imread(str(folder / f"{seed}.jpg"))
        with np.load(folder / f"{seed}.npz") as data:
            label = {key: data[key] for key in data.files}
        yield np.asarray(image, np.uint8), {**label, "seed": seed}


def look_alikes(seed: int, size: tuple[int, int]) -> npt.NDArray[np.float64]:
    """Where frame ``seed`` shows corners like the surface's own (per corner TL, TR, BR, BL: a
    tray's and the whole board's; k x 4 x 2 frame pixels), from its scene's geometry seen
    through its camera and lens."""
    scene = scene_for_seed(seed, *size)
    g = scene.geometry
    rects = [g.outer_rect, *(g.tray_rect(side) for side in g.trays)]
    world = np.array(
        [[(x0, y0, 0), (x1, y0, 0), (x1, y1, 0), (x0, y1, 0)] for x0, y0, x1, y1 in rects]
    )
    pixels = scene.camera.distort(scene.camera.project(world.reshape(-1, 3).astype(np.float64)))
    return np.asarray(pixels.reshape(-1, 4, 2))


def bar_edges(
    bar_points: npt.NDArray[np.float64], corners: Corners, width: int
) -> tuple[float, float]:
    """The bar's left and right edge (mean x of its points) on the surface with these corners
    rectified ``width`` pixels wide."""
    target = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    to_unit = cv2.getPerspectiveTransform(np.array(corners, np.float32), target)
    unit = cv2.perspectiveTransform(bar_points.reshape(1, -1, 2), to_unit).reshape(-1, 2)
    return (
        float(unit[:EDGE_SAMPLES, 0].mean() * width),
        float(unit[EDGE_SAMPLES:, 0].mean() * width),
    )


def _away(
    corners: npt.NDArray[np.float64],
    board: bool,
    size: tuple[int, int],
    scale: float,
    rng: np.random.Generator,
) -> npt.NDArray[np.float64]:
    """A centre per corner where its patch shows no such corner: anywhere in the frame at
    least ``AWAY_PX`` from it, or (on a board, half the time) ``AWAY_PX`` to three times that
    from it, where the frame, the trays and the points make corners like it."""
    centres = []
    for corner in corners:
        while True:
            if board and rng.random() < 0.5:
                angle = rng.uniform(0.0, 2 * math.pi)
                radius = rng.uniform(AWAY_PX, 3 * AWAY_PX) * scale
                centre = corner + radius * np.array([math.cos(angle), math.sin(angle)])
            else:
                centre = rng.uniform((0.0, 0.0), size)
            if not board or np.linalg.norm(centre - corner) >= AWAY_PX * scale:
                centres.append(centre)
                break
    return np.array(centres)


def _corner_samples(
    image: Image,
    label: dict[str, Any],
    zoom: float,
    far_px: float,
    with_look_alikes: bool,
    config: BoardConfig,
    rng: np.random.Generator,
) -> tuple[list[Image], list[npt.NDArray[np.float64]], list[bool]]:
    """A refiner's patches of one frame (``zoom`` as in ``vision.board.patch_transform``):
    four away from the corners, (``with_look_alikes``) four near each of the corners that look
    like the surface's (``look_alikes``), and ``PATCHES`` times four up to ``far_px`` frame
    pixels (half the time within ``NEAR_PX`` times the zoom) off them; with their targets, the
    corner's shift from the patch centre (patch pixels) and whether the patch shows it."""
    height, width = image.shape[:2]
    corners = np.asarray(label["corners"], np.float64)
    scale = zoom * width / config.patch_reference_width
    away = _away(corners, bool(label["board"]), (width, height), scale, rng)
    patches = [corner_patches(image, away, zoom, config)]
    shifts = [np.zeros(2)] * 4
    is_corner = [False] * 4
    if not label["board"]:
        return patches, shifts, is_corner
    for alike in look_alikes(int(label["seed"]), (width, height)) if with_look_alikes else ():
        patches.append(
            corner_patches(image, alike + rng.normal(0.0, NEAR_PX, (4, 2)), zoom, config)
        )
        shifts += [np.zeros(2)] * 4
        is_corner += [False] * 4
    for _ in range(PATCHES):
        far = rng.random(4) < 0.5
        offsets = np.where(
            far[:, None],
            rng.uniform(-far_px, far_px, (4, 2)) * width / config.patch_reference_width,
            rng.normal(0.0, NEAR_PX, (4, 2)) * scale,
        )
        centres = corners + offsets
        patches.append(corner_patches(image, centres, zoom, config))
        for k in range(4):
            affine = patch_transform(k, (centres[k, 0], centres[k, 1]), width, zoom, config)
            seen = affine @ np.array([corners[k, 0], corners[k, 1], 1.0])
            shifts.append(seen - config.patch_px / 2)
            is_corner.append(True)
    return patches, shifts, is_corner


def build_wide(
    frames: Iterator[tuple[Image, dict[str, Any]]], config: BoardConfig, seed: int
) -> dict[str, npt.NDArray[Any]]:
    """The wide refiner's patches (``wide_zoom``, up to ``WIDE_FAR_PX`` off) and targets."""
    rng = np.random.default_rng(seed)
    patches, shifts, is_corner = [], [], []
    for image, label in frames:
        patch_set = _corner_samples(image, label, config.wide_zoom, WIDE_FAR_PX, True, config, rng)
        patches += patch_set[0]
        shifts += patch_set[1]
        is_corner += patch_set[2]
    return {
        "patches": np.concatenate(patches),
        "shifts": np.array(shifts, np.float32),
        "is_corner": np.array(is_corner),
    }


def build_sets(
    frames: Iterator[tuple[Image, dict[str, Any]]], config: BoardConfig, seed: int
) -> dict[str, npt.NDArray[Any]]:
    """The three nets' inputs (uint8 images) and targets from the frames."""
    rng = np.random.default_rng(seed)
    bar_rng = np.random.default_rng(seed + 2)
    small, cells, boards = [], [], []
    patches, shifts, is_corner = [], [], []
    bars, bar_targets = [], []
    for image, label in frames:
        height, width = image.shape[:2]
        small.append(locator_image(image, config))
        boards.append(bool(label["board"]))
        corners = np.asarray(label["corners"], np.float64)
        cells.append(locator_cells(corners, (width, height), config))
        patch_set = _corner_samples(image, label, 1.0, FAR_PX, False, config, rng)
        patches += patch_set[0]
        shifts += patch_set[1]
        is_corner += patch_set[2]
        if not label["board"]:
            continue
        for _ in range(BAR_COPIES):
            jittered = order_corners(corners + bar_rng.normal(0.0, BAR_JITTER_PX, (4, 2)))
            bars.append(bar_image(image, jittered, config))
            bar_targets.append(bar_edges(label["bar"], jittered, config.bar_input_size[0]))
    return {
        "small": np.stack(small),
        "cells": np.stack(cells).astype(np.float32),
        "boards": np.array(boards),
        "patches": np.concatenate(patches),
        "shifts": np.array(shifts, np.float32),
        "is_corner": np.array(is_corner),
        "bars": np.stack(bars),
        "bar_targets": np.array(bar_targets, np.float32),
    }


def _modules() -> dict[str, Callable[[], Any]]:
    """The three network classes (PyTorch imported only when training)."""
    import torch
    from torch import nn

    def block(
        cin: int, cout: int, stride: int | tuple[int, int] = 1, kernel: Any = 3, dilation: Any = 1
    ) -> nn.Sequential:
        # odd kernels keep the size (over the stride); even ones (kernel = stride) cut tiles
        kernels = (kernel, kernel) if isinstance(kernel, int) else kernel
        dilations = (dilation, dilation) if isinstance(dilation, int) else dilation
        padding = tuple(
            d * (k // 2) if k % 2 else 0 for k, d in zip(kernels, dilations, strict=True)
        )
        return nn.Sequential(
            nn.Conv2d(cin, cout, kernel, stride, padding, dilation=dilation, bias=False),
            nn.BatchNorm2d(cout),
            nn.ReLU(inplace=True),
        )

    class Locator(nn.Module):  # type: ignore[misc]
        """Shrunk frame -> 4 heatmaps and 8 offsets per cell (stride 8), a presence logit."""

        def __init__(self) -> None:
            super().__init__()
            self.s3 = nn.Sequential(block(3, 24, 4, 4), block(24, 32, 2), block(32, 32))
            self.s4 = nn.Sequential(block(32, 48, 2), block(48, 48))
            self.s5 = nn.Sequential(block(48, 64, 2), block(64, 64, dilation=2))
            self.lat4 = nn.Conv2d(48, 48, 1)
            self.top5 = nn.Conv2d(64, 48, 1)
            self.merge4 = block(48, 48)
            self.lat3 = nn.Conv2d(32, 32, 1)
            self.top4 = nn.Conv2d(48, 32, 1)
            self.merge3 = block(32, 32)
            self.head = nn.Conv2d(32, 12, 1)
            self.presence = nn.Conv2d(64, 1, 1)
            self.up = nn.Upsample(scale_factor=2, mode="nearest")

        def forward(self, x: Any) -> tuple[Any, Any, Any]:
            f3 = self.s3(x)
            f4 = self.s4(f3)
            f5 = self.s5(f4)
            m4 = self.merge4(self.lat4(f4) + self.up(self.top5(f5)))
            m3 = self.merge3(self.lat3(f3) + self.up(self.top4(m4)))
            out = self.head(m3)
            pooled = torch.amax(f5, dim=(2, 3), keepdim=True)
            return out[:, :4], out[:, 4:], self.presence(pooled)

    class Refiner(nn.Module):  # type: ignore[misc]
        """Patch -> the corner's shift from its centre (patch pixels), and a logit that the
        patch shows the corner at all."""

        def __init__(self) -> None:
            super().__init__()
            self.features = nn.Sequential(
                block(3, 16, 2), block(16, 32, 2), block(32, 32), block(32, 48, 2), block(48, 64, 2)
            )
            self.fit = nn.Sequential(
                nn.Flatten(), nn.Linear(64 * 9, 64), nn.ReLU(inplace=True), nn.Linear(64, 3)
            )
            self.register_buffer("scale", torch.tensor([8.0, 8.0, 1.0]))

        def forward(self, x: Any) -> Any:
            return self.fit(self.features(x)) * self.scale

    class BarNet(nn.Module):  # type: ignore[misc]
        """Rectified surface (32 rows) -> logits of the bar's left and right edge per column."""

        def __init__(self) -> None:
            super().__init__()
            self.rows = nn.Sequential(
                block(3, 16, (4, 1), (4, 3), (1, 1)), block(16, 24, (2, 1), (3, 3), (1, 1))
            )
            self.squash = nn.Conv2d(24, 32, (4, 1))
            self.context = nn.ModuleList(
                [block(32, 32, 1, (1, 3), (1, d)) for d in (1, 2, 4, 8, 16)]
            )
            self.head = nn.Conv2d(32, 2, 1)

        def forward(self, x: Any) -> Any:
            y = self.squash(self.rows(x))
            for layer in self.context:
                y = y + layer(y)
            return self.head(y)

    return {"locate": Locator, "corner": Refiner, "bar": BarNet}


def _batches(count: int, size: int, rng: np.random.Generator) -> Iterator[npt.NDArray[np.intp]]:
    order = rng.permutation(count)
    for start in range(0, count, size):
        yield order[start : start + size]


def _augment_locator(
    small: Image, cells: Floats, stride: int, rng: np.random.Generator
) -> tuple[Floats, Floats]:
    """Random mirrors (corners swapped to stay TL, TR, BR, BL), channel orders and gains."""
    images = small.copy()
    cells = cells.copy()
    grid_w, grid_h = images.shape[2] / stride, images.shape[1] / stride
    for i in range(len(images)):
        if rng.random() < 0.5:
            images[i] = images[i, :, ::-1]
            cells[i, :, 0] = grid_w - cells[i, :, 0]
            cells[i] = cells[i, [1, 0, 3, 2]]
        if rng.random() < 0.5:
            images[i] = images[i, ::-1]
            cells[i, :, 1] = grid_h - cells[i, :, 1]
            cells[i] = cells[i, [3, 2, 1, 0]]
        images[i] = images[i][:, :, rng.permutation(3)]
    gains = rng.uniform(0.75, 1.25, (len(images), 1, 1, 1))
    bias = rng.uniform(-20, 20, (len(images), 1, 1, 1))
    images = np.clip(images * gains + bias, 0, 255).astype(np.uint8)
    return to_input(images), cells


def _fit(
    name: str,
    model: Any,
    count: int,
    loss_of: Callable[[npt.NDArray[np.intp], np.random.Generator], Any],
    epochs: int,
    batch: int,
    rate: float,
    seed: int,
) -> None:
    import torch

    rng = np.random.default_rng(seed)
    optimiser = torch.optim.Adam(model.parameters(), lr=rate, weight_decay=1e-5)
    steps = epochs * math.ceil(count / batch)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, rate, total_steps=steps)
    start = time.time()
    for epoch in range(epochs):
        model.train()
        total, seen = 0.0, 0
        for index in _batches(count, batch, rng):
            loss = loss_of(index, rng)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += float(loss.detach()) * len(index)
            seen += len(index)
        print(f"{name} epoch {epoch + 1}: loss {total / seen:.4f} ({time.time() - start:.0f} s)")


def train_locator(
    sets: dict[str, npt.NDArray[Any]], epochs: int, seed: int, start: Path | None = None
) -> Any:
    """Fit the locator."""
    import torch
    import torch.nn.functional as functional

    torch.manual_seed(seed)
    model = _modules()["locate"]()
    if start is not None:
        model.load_state_dict(torch.load(start))

    def loss_of(index: npt.NDArray[np.intp], rng: np.random.Generator) -> Any:
        images, cells = _augment_locator(
            sets["small"][index], sets["cells"][index], BoardConfig().locator_stride, rng
        )
        boards = torch.from_numpy(sets["boards"][index].astype(np.float32))
        heat, offsets, presence = model(torch.from_numpy(images))
        loss = functional.binary_cross_entropy_with_logits(presence.flatten(), boards)
        with_board = boards > 0.5
        if not bool(with_board.any()):
            return loss
        heat, offsets = heat[with_board], offsets[with_board]
        target = torch.from_numpy(cells[sets["boards"][index]])  # n x 4 x 2 (x, y)
        n, _, grid_h, grid_w = heat.shape
        cx = target[..., 0].floor().clamp(0, grid_w - 1).long()
        cy = target[..., 1].floor().clamp(0, grid_h - 1).long()
        flat = heat.reshape(n * 4, grid_h * grid_w)
        loss = loss + functional.cross_entropy(flat, (cy * grid_w + cx).reshape(-1))
        offsets = offsets.reshape(n, 4, 2, grid_h, grid_w)
        rows = torch.arange(n)[:, None]
        corners = torch.arange(4)[None, :]
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                x = (cx + dx).clamp(0, grid_w - 1)
                y = (cy + dy).clamp(0, grid_h - 1)
                predicted = offsets[rows, corners, :, y, x]  # n x 4 x 2
                wanted = target - torch.stack([x, y], dim=-1).float() - 0.5
                loss = loss + functional.l1_loss(predicted, wanted) / 9.0
        return loss

    _fit("locate", model, len(sets["small"]), loss_of, epochs, 32, 3e-3, seed)
    return model


def train_refiner(
    sets: dict[str, npt.NDArray[Any]], epochs: int, seed: int, start: Path | None = None
) -> Any:
    """Fit the corner refiner."""
    import torch
    import torch.nn.functional as functional

    torch.manual_seed(seed)
    model = _modules()["corner"]()
    if start is not None:
        model.load_state_dict(torch.load(start))

    def loss_of(index: npt.NDArray[np.intp], rng: np.random.Generator) -> Any:
        images = sets["patches"][index][:, :, :, rng.permutation(3)]
        gains = rng.uniform(0.8, 1.2, (len(images), 1, 1, 1))
        images = np.clip(images * gains + rng.uniform(-15, 15, gains.shape), 0, 255)
        predicted = model(torch.from_numpy(to_input(images.astype(np.uint8))))
        corner = torch.from_numpy(sets["is_corner"][index])
        loss = functional.binary_cross_entropy_with_logits(predicted[:, 2], corner.float())
        if bool(corner.any()):
            wanted = torch.from_numpy(sets["shifts"][index])[corner]
            loss = loss + functional.smooth_l1_loss(predicted[corner, :2], wanted)
        return loss

    _fit("corner", model, len(sets["patches"]), loss_of, epochs, 64, 3e-3, seed)
    return model


def train_bar(
    sets: dict[str, npt.NDArray[Any]], epochs: int, seed: int, start: Path | None = None
) -> Any:
    """Fit the bar net."""
    import torch
    import torch.nn.functional as functional

    torch.manual_seed(seed)
    model = _modules()["bar"]()
    if start is not None:
        model.load_state_dict(torch.load(start))
    width = sets["bars"].shape[2]
    columns = torch.arange(width, dtype=torch.float32)

    def loss_of(index: npt.NDArray[np.intp], rng: np.random.Generator) -> Any:
        images = sets["bars"][index].copy()
        targets = sets["bar_targets"][index].copy()
        flip = rng.random(len(images)) < 0.5
        images[flip] = images[flip][:, :, ::-1]
        targets[flip] = (width - 1) - targets[flip][:, ::-1]  # column j shows x = j
        images = images[:, :, :, rng.permutation(3)]
        logits = model(torch.from_numpy(to_input(images)))[:, :, 0, :]  # n x 2 x width
        wanted = torch.from_numpy(targets)
        soft = torch.exp(-0.5 * (columns[None, None, :] - wanted[..., None]) ** 2)
        soft = soft / soft.sum(dim=-1, keepdim=True)
        log_p = functional.log_softmax(logits, dim=-1)
        mean = (log_p.exp() * columns).sum(dim=-1)
        return -(soft * log_p).sum(dim=-1).mean() + 0.1 * functional.l1_loss(mean, wanted)

    _fit("bar", model, len(sets["bars"]), loss_of, epochs, 32, 3e-3, seed)
    return model


TRAINERS = {
    "locate": train_locator,
    "corner": train_refiner,
    "wide": train_refiner,
    "bar": train_bar,
}
EXAMPLES = {"locate": "small", "corner": "patches", "wide": "patches", "bar": "bars"}
OUTPUTS = {
    "locate": ("heat", "offsets", "presence"),
    "corner": ("shift",),
    "wide": ("shift",),
    "bar": ("edges",),
}


def main(argv: Sequence[str] | None = None) -> None:
    """Render (cached), build, train, export."""
    import torch

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=Path("/tmp/board-data"))
    parser.add_argument("--frames", type=int, default=2500)
    parser.add_argument("--small-frames", type=int, default=800)
    parser.add_argument("--no-board-frames", type=int, default=200)
    parser.add_argument("--nets", default="locate,wide,corner,bar")
    parser.add_argument("--epochs", default="locate=16,wide=4,corner=4,bar=5")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--resume", action="store_true", help="go on from the weights last trained in --data"
    )
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    cv2.setNumThreads(1)
    config = BoardConfig()
    sources = [
        (args.data / "f1280", range(FIRST_SEED, FIRST_SEED + args.frames), (1280, 720)),
        (
            args.data / "f960",
            range(FIRST_SMALL_SEED, FIRST_SMALL_SEED + args.small_frames),
            (960, 540),
        ),
        (args.data / "none", _no_board_seeds(args.data, args.no_board_frames), (1280, 720)),
    ]
    for folder, seeds, size in sources:
        render_cache(folder, seeds, size)
    epochs = dict(item.split("=") for item in args.epochs.split(","))

    def frames() -> Iterator[tuple[Image, dict[str, Any]]]:
        for folder, seeds, _ in sources:
            yield from load_cache(folder, seeds)

    counts = f"{args.frames}-{args.small_frames}-{args.no_board_frames}-{args.seed}"
    builders = {"sets": build_sets, "wide": build_wide}
    names = {"locate": LOCATE_NET, "corner": CORNER_NET, "wide": WIDE_NET, "bar": BAR_NET}
    built: dict[str, dict[str, npt.NDArray[Any]]] = {}
    for net in args.nets.split(","):
        kind = "wide" if net == "wide" else "sets"
        if kind not in built:
            seed = args.seed + (kind == "wide")
            path = args.data / f"{kind}-{SETS_VERSION}-{counts}.npz"
            built[kind] = _built(path, builders[kind], frames, config, seed)
        sets = built[kind]
        weights = args.data / f"{names[net]}.pt"
        start = weights if args.resume and weights.exists() else None
        model = TRAINERS[net](sets, int(epochs[net]), args.seed, start)
        torch.save(model.state_dict(), weights)
        example = torch.from_numpy(to_input(sets[EXAMPLES[net]][:1]))
        print("wrote", export_onnx(model, example, names[net], OUTPUTS[net]))


def _built(
    path: Path,
    build: Callable[[Iterator[tuple[Image, dict[str, Any]]], BoardConfig, int], dict[str, Any]],
    frames: Callable[[], Iterator[tuple[Image, dict[str, Any]]]],
    config: BoardConfig,
    seed: int,
) -> dict[str, npt.NDArray[Any]]:
    """A training set, built from the frames once and then read from ``path``."""
    if not path.exists():
        np.savez(path, allow_pickle=False, **build(frames(), config, seed))
    with np.load(path) as data:
        sets = {key: data[key] for key in data.files}
    print(path.name, {key: value.shape for key, value in sets.items()})
    return sets


if __name__ == "__main__":
    main()
