"""Train the hand segmenter of ``vision.motion`` (network ``hands``) on rendered tuning frames.

``python -m vision.training.train_hands [--frames N] [--epochs E] [--cache DIR]`` renders N
tuning frames (seeds from 600,000; about 60% with a hand added, the rest as the renderer drew
them, hands, no-board frames and all), at 640x360, 960x540 and 1280x720 in turn, shrinks each to
the network's input (``vision.motion.hand_input``) with the hand's mask from the renderer as the
target, trains a small fully convolutional net with a per-cell binary cross-entropy (fixed seeds,
one CPU thread) and writes ``vision/models/hands.onnx``. The rendered inputs are cached in
``--cache`` so a second run only trains. It prints the decision figures on a held-back tenth.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.motion import HAND_CELL, HAND_INPUT, hand_input
from vision.render.hands import hand_mask
from vision.render.render import render_scene
from vision.render.scene import sample_hand, scene_for_seed
from vision.training.export import export_onnx

FIRST_SEED = 600_000
SIZES = ((640, 360), (960, 540), (1280, 720))

Floats = npt.NDArray[np.float32]


def render_examples(frames: int) -> tuple[Floats, Floats, Floats]:
    """Inputs (N x 3 x H x W), hand-cover targets per cell (N x 1 x h x w) and board masks."""
    rng = np.random.default_rng(FIRST_SEED)
    inputs, targets, boards = [], [], []
    cells = (HAND_INPUT[0] // HAND_CELL, HAND_INPUT[1] // HAND_CELL)
    for k in range(frames):
        width, height = SIZES[k % len(SIZES)]
        scene = scene_for_seed(FIRST_SEED + k, width, height)
        if scene.board and not scene.hands and rng.random() < 0.6:
            hand = sample_hand(rng, scene.camera, scene.geometry)
            scene = dataclasses.replace(scene, hands=(hand,))
        image, label = render_scene(scene)
        cover = np.zeros((height, width), np.uint8)
        for hand in scene.hands:
            cover = np.maximum(cover, hand_mask(hand, height, width))
        board = np.zeros((height, width), np.uint8)
        if label.board.corners is not None:
            cv2.fillConvexPoly(board, np.array(label.board.corners, np.int32), 255)
        inputs.append(hand_input(image)[0])
        targets.append(cv2.resize(cover, cells, interpolation=cv2.INTER_AREA)[None] / 255.0)
        boards.append(cv2.resize(board, cells, interpolation=cv2.INTER_NEAREST)[None] / 255.0)
    return (
        np.stack(inputs).astype(np.float32),
        np.stack(targets).astype(np.float32),
        np.stack(boards).astype(np.float32),
    )


def build_net() -> Any:
    """The segmenter: 3 x 96 x 160 in, hand logits per 4 x 4 cell (24 x 40) out."""
    from torch import nn

    def block(cin: int, cout: int, stride: int = 1, dilation: int = 1) -> list[nn.Module]:
        return [
            nn.Conv2d(cin, cout, 3, stride, padding=dilation, dilation=dilation, bias=False),
            nn.BatchNorm2d(cout),
            nn.ReLU(inplace=True),
        ]

    return nn.Sequential(
        *block(3, 12),
        *block(12, 16, stride=2),
        *block(16, 24),
        *block(24, 32, stride=2),
        *block(32, 32, dilation=2),
        *block(32, 32, dilation=4),
        nn.Conv2d(32, 1, 1),
    )


def train(inputs: Floats, targets: Floats, epochs: int, seed: int = 0) -> Any:
    """Fit the segmenter (Adam, batches of 32, light colour and flip augmentation)."""
    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(1)
    net = build_net()
    x_all, y_all = torch.from_numpy(inputs), torch.from_numpy(targets)
    opt = torch.optim.Adam(net.parameters(), lr=3e-3)
    sched = torch.optim.lr_scheduler.OneCycleLR(
        opt, max_lr=3e-3, total_steps=epochs * ((len(inputs) + 31) // 32)
    )
    loss_fn = torch.nn.BCEWithLogitsLoss(pos_weight=torch.tensor(3.0))
    generator = torch.Generator().manual_seed(seed)
    for epoch in range(epochs):
        net.train()
        order = torch.randperm(len(inputs), generator=generator)
        total = 0.0
        for start in range(0, len(inputs), 32):
            idx = order[start : start + 32]
            x, y = x_all[idx], y_all[idx]
            gains = 1.0 + 0.25 * (torch.rand(len(idx), 3, 1, 1, generator=generator) - 0.5)
            x = (x * gains).clamp(0.0, 1.0)
            if torch.rand(1, generator=generator).item() < 0.5:
                x, y = x.flip(3), y.flip(3)
            opt.zero_grad()
            loss = loss_fn(net(x), y)
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
        print(f"epoch {epoch + 1}/{epochs}: loss {total / len(inputs):.4f}", flush=True)
    net.eval()
    return net


def decisions(cover_share: Floats, truth: npt.NDArray[np.bool_], shares: Sequence[float]) -> None:
    """Print hands found and false hands for each threshold on the covered share of the board."""
    for share in shares:
        said = cover_share >= share
        found = int((said & truth).sum())
        false = int((said & ~truth).sum())
        print(
            f"  min_hand_share {share:.3f}: hands found {found}/{int(truth.sum())}, "
            f"false {false}/{int((~truth).sum())}"
        )


def main(argv: Sequence[str] | None = None) -> int:
    """Render (or load), train, report, export."""
    import torch

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=3000)
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--cache", type=Path, default=Path("/tmp/hands-data"))
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    cached = args.cache / f"hands-{args.frames}.npz"
    if cached.is_file():
        data = np.load(cached)
        inputs, targets, boards = data["inputs"], data["targets"], data["boards"]
    else:
        inputs, targets, boards = render_examples(args.frames)
        args.cache.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(cached, inputs=inputs, targets=targets, boards=boards)
    held = len(inputs) // 10
    net = train(inputs[held:], targets[held:], args.epochs)
    with torch.no_grad():
        probability = torch.sigmoid(net(torch.from_numpy(inputs[:held]))).numpy()
    board = boards[:held] > 0.5
    covered = ((probability > 0.5) & board).sum(axis=(1, 2, 3)) / np.maximum(
        board.sum(axis=(1, 2, 3)), 1
    )
    truth = (targets[:held] * board).sum(axis=(1, 2, 3)) > 0.5
    print(f"held-back frames: {held}")
    decisions(covered.astype(np.float32), truth, (0.002, 0.005, 0.01, 0.02))
    path = export_onnx(net, torch.from_numpy(inputs[:1]), "hands", ("hand",))
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
