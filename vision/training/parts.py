"""Pieces the trainers share (``train_checkers``, ``train_trays``, ``train_lean``)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.board import Corners, order_corners
from vision.config import ReadConfig


def jittered_corners(corners: Corners, rng: np.random.Generator, reach_px: float) -> Corners:
    """``corners`` each moved by up to ``reach_px`` pixels along x and y (uniform), reordered:
    the labelled outline as a located one might be off."""
    moved = np.asarray(corners) + rng.uniform(-reach_px, reach_px, (4, 2))
    return order_corners(moved)


def conv_block(inputs: int, outputs: int, stride: int | tuple[int, int] = 1) -> list[Any]:
    """A 3x3 convolution (no bias, ``stride``), batch norm and ReLU (PyTorch modules)."""
    from torch import nn

    return [
        nn.Conv2d(inputs, outputs, 3, stride=stride, padding=1, bias=False),
        nn.BatchNorm2d(outputs),
        nn.ReLU(),
    ]


def chunked_main(
    description: str,
    defaults: tuple[Path, int, int, int],
    chunk: tuple[int, str],
    render: Callable[[int, Path, ReadConfig], None],
    train: Callable[[argparse.Namespace, ReadConfig], None],
    extra: Callable[[argparse.ArgumentParser], object] | None = None,
) -> None:
    """The command line of a trainer that renders its data in chunks, then trains.

    ``render DATA`` renders the chunks of frames ``--first`` .. ``--first`` + ``--frames`` - 1
    (``chunk``: frames per chunk and file suffix) not yet in ``--data`` (``render(first, data,
    config)`` writes ``data/chunk-<first>.<suffix>``); ``train`` calls ``train(args, config)``.
    ``defaults``: data folder, first seed, frames, epochs; ``extra`` adds arguments.
    OpenCV is held to one thread."""
    data, first, frames, epochs = defaults
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("command", choices=("render", "train"))
    parser.add_argument("--data", type=Path, default=data)
    parser.add_argument("--first", type=int, default=first)
    parser.add_argument("--frames", type=int, default=frames)
    parser.add_argument("--epochs", type=int, default=epochs)
    if extra is not None:
        extra(parser)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    config = ReadConfig()
    args.data.mkdir(parents=True, exist_ok=True)
    if args.command == "train":
        train(args, config)
        return
    size, suffix = chunk
    for start in range(args.first, args.first + args.frames, size):
        if not (args.data / f"chunk-{start}.{suffix}").exists():
            render(start, args.data, config)
            print(f"chunk {start} done", flush=True)
