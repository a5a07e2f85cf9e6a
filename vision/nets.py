"""The reader's trained networks: ONNX files shipped in ``vision/models/``, run by OpenCV's DNN.

Networks are trained with PyTorch by the scripts in ``vision/training/`` (the ``train`` extra;
never needed to read a frame) and exported to ONNX; the kiosk runs them with ``cv2.dnn``, which
ships in the OpenCV wheel the reader already needs. A network is loaded once per process and
kept (``load_net``); a missing or damaged file raises :class:`ModelError` naming the file.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

MODELS_DIR = Path(__file__).with_name("models")

Floats = npt.NDArray[np.float32]


class ModelError(RuntimeError):
    """A shipped network could not be loaded: the message names the file and the reason."""


def model_path(name: str) -> Path:
    """The ONNX file of network ``name`` (``vision/models/<name>.onnx``)."""
    return MODELS_DIR / f"{name}.onnx"


@cache
def load_net(name: str) -> cv2.dnn.Net:
    """Network ``name`` on OpenCV's default (CPU) backend, loaded once per process."""
    path = model_path(name)
    if not path.is_file():
        raise ModelError(f"{path}: no such network file (train it with vision/training/)")
    try:
        net = cv2.dnn.readNetFromONNX(str(path))
    except cv2.error as error:
        raise ModelError(f"{path}: not a readable ONNX network ({error.msg.strip()})") from error
    return net


def run(name: str, batch: Floats) -> tuple[Floats, ...]:
    """Outputs of network ``name`` for ``batch`` (N x C x H x W float32), in the order the
    network declares them."""
    net = load_net(name)
    net.setInput(np.ascontiguousarray(batch, np.float32))
    outputs = net.forward(net.getUnconnectedOutLayersNames())
    return tuple(np.asarray(out, np.float32) for out in outputs)
