"""A small convolutional net reading a die's face from a crop (numpy forward pass only).

The net (trained offline by ``vision.train_dice`` on the even-numbered real dice photos; weights
in ``vision/dice_model.npz``) sees a die through ``face_inputs``: a square crop around the die,
turned so the die's edges are axis-aligned (``edge_angle``), as two channels of
``INPUT_PX`` x ``INPUT_PX``: each pixel's Lab distance from the face's median colour (pips stand
out whatever their colours) and the normalised lightness. Three 3x3 convolutions (ReLU, 2x2 max
pooling) and two dense layers give the probabilities of ``CLASSES``: class 0 is "not a die"
(background, the gap between touching dice, a checker), classes 1..6 the face values.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

Image = npt.NDArray[np.uint8]
Floats = npt.NDArray[np.float32]

MODEL_PATH = Path(__file__).with_name("dice_model.npz")
CLASSES = 7  # 0: not a die; 1..6: the face value
# A crop covers CROP_SHARE of the die's side estimate at CROP_PX pixels; the net sees its middle
# INPUT_PX pixels (one side estimate).
CROP_PX = 48
CROP_SHARE = 1.5
INPUT_PX = 32
CHANNELS = 2
# A die's edge direction is measured over a square of this share of its side.
EDGE_SHARE = 1.2


@dataclass(frozen=True)
class DiceNet:
    """Weights of the net: three convolutions (3x3, as ``9 * in`` x ``out`` matrices over the
    ``im2col`` columns) then two dense layers; ``(weights, biases)`` per layer."""

    layers: tuple[tuple[Floats, Floats], ...]


def crop(image_bgr: Image, center: tuple[float, float], side: float, angle_deg: float) -> Image:
    """``CROP_PX`` square crop centred on ``center`` covering ``CROP_SHARE`` x ``side`` pixels,
    turned by ``angle_deg`` (OpenCV's sense: counter-clockwise on screen); edges replicated."""
    scale = CROP_PX / (CROP_SHARE * side)
    matrix = cv2.getRotationMatrix2D(center, angle_deg, scale)
    matrix[0, 2] += CROP_PX / 2 - center[0]
    matrix[1, 2] += CROP_PX / 2 - center[1]
    return np.asarray(
        cv2.warpAffine(
            image_bgr,
            matrix,
            (CROP_PX, CROP_PX),
            flags=cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_REPLICATE,
        ),
        np.uint8,
    )


class EdgeField:
    """Where a frame's colour edges point, for ``angle``: the gradients' angles taken four times
    over (a square's four edges then agree), weighted by their strength, summed over boxes via
    integral images (one pass over the frame, then constant time per die)."""

    def __init__(self, image_bgr: Image, shrink: int = 1) -> None:
        """The field of ``image_bgr`` shrunk by ``shrink`` (``angle`` takes frame pixels)."""
        if shrink > 1:
            height, width = image_bgr.shape[:2]
            size = (max(1, width // shrink), max(1, height // shrink))
            image_bgr = np.asarray(cv2.resize(image_bgr, size, interpolation=cv2.INTER_AREA))
        frame = image_bgr.astype(np.float32)
        gx = cv2.Sobel(frame, cv2.CV_32F, 1, 0, ksize=3)
        gy = cv2.Sobel(frame, cv2.CV_32F, 0, 1, ksize=3)
        doubled = np.sum((gx + 1j * gy) ** 2, axis=2)  # summed over the colour channels
        quadrupled = doubled**2 / (np.abs(doubled) + 1e-6)
        self._real = cv2.integral(np.ascontiguousarray(quadrupled.real, np.float64))
        self._imag = cv2.integral(np.ascontiguousarray(quadrupled.imag, np.float64))
        self._shape = image_bgr.shape[:2]
        self._shrink = shrink

    def angle(self, center: tuple[float, float], side: float) -> float:
        """The direction of the edges (degrees, modulo 90) in the square of ``EDGE_SHARE`` x
        ``side`` around ``center``."""
        height, width = self._shape
        half = EDGE_SHARE * side / 2 / self._shrink
        x, y = ((c + 0.5) / self._shrink - 0.5 for c in center)
        x0, x1 = (int(np.clip(round(x + d), 0, width)) for d in (-half, half))
        y0, y1 = (int(np.clip(round(y + d), 0, height)) for d in (-half, half))
        real, imag = (
            float(t[y1, x1] - t[y0, x1] - t[y1, x0] + t[y0, x0]) for t in (self._real, self._imag)
        )
        total = complex(real, imag)
        return float(np.degrees(np.angle(total)) / 4)


def face_inputs(crops: npt.NDArray[np.uint8]) -> Floats:
    """Net inputs (n x INPUT_PX x INPUT_PX x CHANNELS) of ``n`` crops (n x CROP_PX x CROP_PX x 3,
    BGR): Lab distance from the face's median colour over its 95th percentile (capped at 1.5),
    and the lightness standardised per crop."""
    count = len(crops)
    margin = (CROP_PX - INPUT_PX) // 2
    lab = cv2.cvtColor(crops.reshape(count * CROP_PX, CROP_PX, 3), cv2.COLOR_BGR2LAB)
    lab = lab.reshape(count, CROP_PX, CROP_PX, 3)[:, margin:-margin, margin:-margin]
    face = lab.astype(np.float32)
    quarter = INPUT_PX // 4
    middle = face[:, quarter:-quarter, quarter:-quarter].reshape(count, -1, 3)
    body = np.median(middle, axis=1)
    distance = np.sqrt(np.sum((face - body[:, None, None, :]) ** 2, axis=3))
    high = np.percentile(distance.reshape(count, -1), 95, axis=1)
    distance = np.minimum(distance / (high[:, None, None] + 1.0), 1.5)
    light = face[..., 0]
    light = (light - light.mean(axis=(1, 2), keepdims=True)) / (
        light.std(axis=(1, 2), keepdims=True) + 4.0
    )
    return np.stack([distance, light], axis=3).astype(np.float32)


def convolve(x: Floats, weights: Floats, biases: Floats) -> Floats:
    """A 3x3 convolution (zero padded, stride 1) of ``x`` (n x h x w x c) by ``weights``
    ((c * 9) x k, rows in the order channel, row, column) plus ``biases``, then ReLU: nine
    shifted matrix products."""
    count, height, width, channels = x.shape
    padded = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    kernel = weights.reshape(channels, 3, 3, -1)
    out = np.broadcast_to(biases, (count, height, width, len(biases))).copy()
    for i in range(3):
        for j in range(3):
            out += padded[:, i : i + height, j : j + width, :] @ kernel[:, i, j, :]
    return np.maximum(out, 0.0)


def max_pool(x: Floats) -> Floats:
    """2x2 max pooling of ``x`` (n x h x w x c, h and w even)."""
    return np.maximum(
        np.maximum(x[:, 0::2, 0::2], x[:, 0::2, 1::2]),
        np.maximum(x[:, 1::2, 0::2], x[:, 1::2, 1::2]),
    )


def softmax(logits: Floats) -> Floats:
    """Row-wise softmax."""
    shifted = np.exp(logits - logits.max(axis=1, keepdims=True))
    return np.asarray(shifted / shifted.sum(axis=1, keepdims=True), np.float32)


CONVOLUTIONS = 3


def logits(net: DiceNet, x: Floats) -> Floats:
    """The net's class scores (n x CLASSES) for inputs ``x`` (n x INPUT_PX x INPUT_PX x
    CHANNELS)."""
    for weights, biases in net.layers[:CONVOLUTIONS]:
        x = max_pool(convolve(x, weights, biases))
    flat = x.reshape(len(x), -1)
    (w1, b1), (w2, b2) = net.layers[CONVOLUTIONS:]
    return np.asarray(np.maximum(flat @ w1 + b1, 0.0) @ w2 + b2, np.float32)


def face_probabilities(net: DiceNet, x: Floats) -> Floats:
    """Class probabilities (n x CLASSES), averaged over the four quarter turns of each input."""
    turns = np.concatenate([np.rot90(x, k, axes=(1, 2)) for k in range(4)])
    probabilities = softmax(logits(net, np.ascontiguousarray(turns)))
    return np.asarray(probabilities.reshape(4, len(x), CLASSES).mean(axis=0), np.float32)


def save_net(net: DiceNet, path: Path = MODEL_PATH) -> None:
    """Write the weights as ``w0, b0, w1, b1, ...`` arrays of an .npz file."""
    arrays: dict[str, Any] = {}
    for index, (weights, biases) in enumerate(net.layers):
        arrays[f"w{index}"] = weights
        arrays[f"b{index}"] = biases
    np.savez_compressed(path, **arrays)


def load_net(path: Path = MODEL_PATH) -> DiceNet:
    """The weights written by ``save_net``."""
    with np.load(path) as data:
        count = len([name for name in data.files if name.startswith("w")])
        return DiceNet(
            tuple(
                (np.asarray(data[f"w{i}"], np.float32), np.asarray(data[f"b{i}"], np.float32))
                for i in range(count)
            )
        )
