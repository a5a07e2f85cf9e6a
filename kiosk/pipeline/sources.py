"""Which camera and which buttons: parsing ``--camera`` and telling a Raspberry Pi from a PC.

``replay:DIR`` (a folder of frames or a video, played at its recorded speed and looped),
``opencv:N`` (USB camera N, or ``opencv:PATH`` for a device or a video file) and ``picamera``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

CameraKind = Literal["replay", "opencv", "picamera"]
PI_MODEL_FILE = Path("/proc/device-tree/model")


class SourceError(ValueError):
    """A ``--camera`` value that names no source; the message says what is accepted."""


@dataclass(frozen=True)
class CameraSpec:
    """A parsed ``--camera``: the kind and its target (folder, index or path; None for the Pi
    camera)."""

    kind: CameraKind
    target: str | int | None = None


def parse_camera(text: str) -> CameraSpec:
    """``replay:DIR``, ``opencv:N``/``opencv:PATH`` or ``picamera``."""
    kind, _, target = text.partition(":")
    if kind == "picamera" and not target:
        return CameraSpec("picamera")
    if kind == "replay" and target:
        return CameraSpec("replay", target)
    if kind == "opencv" and target:
        return CameraSpec("opencv", int(target) if target.isdigit() else target)
    raise SourceError(f"--camera: expected replay:DIR, opencv:N or picamera, got {text!r}")


def on_raspberry_pi(model_file: Path = PI_MODEL_FILE) -> bool:
    """Whether this machine is a Raspberry Pi (its device tree names the model)."""
    try:
        return "Raspberry Pi" in model_file.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
