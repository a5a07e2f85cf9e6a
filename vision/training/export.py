"""Writing a trained PyTorch module as the ONNX file ``vision.nets`` loads."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from vision.nets import model_path

OPSET = 13  # read by the OpenCV of Raspberry Pi OS Bookworm's wheels (4.11) as well as 5.x


def export_onnx(
    module: Any,
    example: Any,
    name: str,
    outputs: tuple[str, ...],
    path: Path | None = None,
    spatial: bool = False,
) -> Path:
    """Export ``module`` (evaluated on ``example``, N x C x H x W, batch size free) as network
    ``name`` with the named ``outputs``; returns the file written. ``spatial``: the height and
    width of the input and of every output (N x C x H x W too) are free as well (a fully
    convolutional network such as the dice detector, fed frames of any size); ONNX Runtime
    holds a network to the shapes its file declares."""
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
        dynamic_axes=free_axes(outputs, spatial),
    )
    return target


def free_axes(outputs: tuple[str, ...], spatial: bool) -> dict[str, dict[int, str]]:
    """The axes of the input and ``outputs`` left free in an export: the batch, and with
    ``spatial`` the last two (height and width)."""
    axes = {0: "batch", 2: "height", 3: "width"} if spatial else {0: "batch"}
    return {tensor: dict(axes) for tensor in ("input", *outputs)}


def load_exported(net: Any, name: str) -> None:
    """Set ``net`` to the weights of the shipped ONNX network ``name`` it was exported as:
    ``net.features`` holds convolutions each followed by a batch norm, ``net.head`` the linear
    layers (modules the export leaves out keep their weights); or, a plain ``nn.Sequential``
    (``parts.crop_net``), the net holds both. The export folds each batch norm into its
    convolution, so the convolutions take the folded weights and the norms become per-channel
    biases (unit scale, zero mean, unit variance): fine-tune with them frozen
    (``freeze_norms``)."""
    import onnx
    import torch
    from onnx import numpy_helper
    from torch import nn

    model = onnx.load(str(model_path(name)))
    weights = {
        w.name: torch.from_numpy(numpy_helper.to_array(w).copy()) for w in model.graph.initializer
    }
    convs = [node.input[1:] for node in model.graph.node if node.op_type == "Conv"]
    features = getattr(net, "features", net)
    head, prefix = (net.head, "head.") if hasattr(net, "head") else (net, "")
    layers = [m for m in features if isinstance(m, nn.Conv2d | nn.BatchNorm2d)]
    with torch.no_grad():
        for (weight, bias), conv, norm in zip(convs, layers[::2], layers[1::2], strict=True):
            conv.weight.copy_(weights[weight])
            norm.weight.fill_(1.0)
            norm.bias.copy_(weights[bias])
            norm.running_mean.zero_()
            norm.running_var.fill_(1.0 - norm.eps)
        for child, module in head.named_children():
            if isinstance(module, nn.Linear):
                module.weight.copy_(weights[f"{prefix}{child}.weight"])
                module.bias.copy_(weights[f"{prefix}{child}.bias"])


def freeze_norms(net: Any) -> None:
    """Keep ``net``'s batch norms at their statistics while it trains (after ``net.train()``)."""
    from torch import nn

    for module in net.modules():
        if isinstance(module, nn.BatchNorm2d):
            module.eval()
