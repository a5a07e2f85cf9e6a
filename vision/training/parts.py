"""Pieces the board-crop trainers share (``train_checkers``, ``train_trays``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from vision.board import Corners, order_corners


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
