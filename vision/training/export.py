"""Writing a trained PyTorch module as the ONNX file ``vision.nets`` loads."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from vision.nets import model_path

OPSET = 13  # read by the OpenCV of Raspberry Pi OS Bookworm's wheels (4.11) as well as 5.x


def export_onnx(
    module: Any, example: Any, name: str, outputs: tuple[str, ...], path: Path | None = None
) -> Path:
    """Export ``module`` (evaluated on ``example``, N x C x H x W, batch size free) as network
    ``name`` with the named ``outputs``; returns the file written."""
    import torch

    target = path or model_path(name)
    target.parent.mkdir(parents=True, exist_ok=True)
    module.eval()
    torch.onnx.export(
        module,
        example,
        str(target),
        opset_version=OPSET,
        dynamo=False,
        input_names=["input"],
        output_names=list(outputs),
        dynamic_axes={"input": {0: "batch"}, **{out: {0: "batch"} for out in outputs}},
    )
    return target
