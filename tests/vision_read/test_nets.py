"""vision.nets runs every shipped network as OpenCV's DNN module, the runtime it replaced, does."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import nets

SHIPPED = sorted(path.stem for path in nets.MODELS_DIR.glob("*.onnx"))


def _input_shape(name: str) -> list[int]:
    (given,) = nets.load_net(name).get_inputs()
    return [3 if d == "batch" else 96 if isinstance(d, str) else d for d in given.shape]


@pytest.mark.parametrize("name", SHIPPED)
def test_same_outputs_as_opencv_dnn(name: str) -> None:
    batch = np.random.default_rng(0).uniform(-0.5, 0.5, _input_shape(name)).astype(np.float32)
    reference = cv2.dnn.readNetFromONNX(str(nets.model_path(name)))
    reference.setInput(batch)
    expected = reference.forward(reference.getUnconnectedOutLayersNames())
    outputs = nets.run(name, batch)
    assert len(outputs) == len(expected)
    for got, want in zip(outputs, expected, strict=True):
        assert got.dtype == np.float32
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-3, atol=1e-4)


@pytest.mark.parametrize(("height", "width"), [(64, 64), (180, 320), (256, 452), (4, 4)])
def test_detector_takes_frames_of_any_size(height: int, width: int) -> None:
    (outputs,) = nets.run("dice_detector", np.zeros((1, 3, height, width), np.float32))
    assert outputs.shape == (1, 5, height // 4, width // 4)
