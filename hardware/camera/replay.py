"""Replay recorded frames: a folder of images or a video file, with timestamps; deterministic.

A folder holds images (``.png``, ``.jpg``, ``.jpeg``, ``.bmp``) and, optionally, a manifest
``frames.json`` giving their order and capture times::

    {"frames": [{"file": "000000.png", "t_ns": 0}, {"file": "000001.png", "t_ns": 100000000}]}

Without a manifest the images are taken in name order, ``1/fps`` apart. A video's frames are
``1/fps`` apart at the container's frame rate (``fps`` if it has none). Frames are returned as fast
as they are read: pacing to ``t_ns`` is the consumer's job. With ``loop=True`` the recording
starts over and its times continue one frame interval after the last frame, so ``t_ns`` never
goes back. Closing and reopening resumes at the next frame.

The embedded demo is such a folder shipped as package data (``.png``/``.jpg`` + ``frames.json``).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from hardware.camera.frame import CameraError, Frame, Image, as_bgr

MANIFEST_NAME = "frames.json"
IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".bmp"})
_S = 1_000_000_000


class _Reel(Protocol):
    """One pass over a recording, addressed by frame index."""

    def read(self, index: int) -> tuple[Image, int] | None:
        """Frame ``index`` and its time in ns from the start, or None past the end."""
        ...

    def interval_ns(self) -> int:
        """The time between two frames, used to continue the times of a loop."""
        ...

    def close(self) -> None: ...


class ReplaySource:
    """Frames replayed from ``path`` (a folder of images or a video file)."""

    def __init__(self, path: str | os.PathLike[str], *, loop: bool = False, fps: float = 10.0):
        if not fps > 0:
            raise ValueError(f"ReplaySource: fps must be > 0, got {fps}")
        self._path = Path(path)
        self._loop = loop
        self._fps = fps
        self._reel: _Reel | None = None
        self._index = 0  # next frame of the current pass
        self._offset_ns = 0  # added to recorded times: grows by one pass per loop
        self._first_t_ns = 0  # recorded times of the first and of the last frame read
        self._last_t_ns = 0
        self._seq = 0

    @property
    def name(self) -> str:
        return f"replay:{self._path}"

    def open(self) -> None:
        self.close()
        if self._path.is_dir():
            self._reel = _FolderReel(self._path, self._fps, self.name)
        elif self._path.is_file():
            self._reel = _VideoReel(self._path, self._fps, self.name)
        else:
            raise CameraError(f"{self.name}: no such folder or video file")

    def read(self) -> Frame | None:
        if self._reel is None:
            raise CameraError(f"{self.name}: read before open")
        item = self._reel.read(self._index)
        if item is None and self._loop and self._index > 0:
            self._offset_ns += self._last_t_ns - self._first_t_ns + self._reel.interval_ns()
            self._index = 0
            item = self._reel.read(0)
        if item is None:
            return None
        image, t_ns = item
        if self._index == 0:
            self._first_t_ns = t_ns
        self._last_t_ns = t_ns
        frame = Frame(image, self._offset_ns + t_ns, self._seq)
        self._index += 1
        self._seq += 1
        return frame

    def close(self) -> None:
        if self._reel is not None:
            self._reel.close()
            self._reel = None


class _FolderReel:
    def __init__(self, folder: Path, fps: float, origin: str) -> None:
        self._origin = origin
        manifest = folder / MANIFEST_NAME
        if manifest.is_file():
            self._entries = _read_manifest(manifest, origin)
        else:
            files = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
            self._entries = [(p, round(i * _S / fps)) for i, p in enumerate(files)]
        if not self._entries:
            raise CameraError(f"{origin}: no images ({', '.join(sorted(IMAGE_SUFFIXES))})")
        span = self._entries[-1][1] - self._entries[0][1]
        n = len(self._entries)
        self._interval_ns = span // (n - 1) if n > 1 and span > 0 else round(_S / fps)

    def read(self, index: int) -> tuple[Image, int] | None:
        if index >= len(self._entries):
            return None
        path, t_ns = self._entries[index]
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise CameraError(f"{self._origin}: cannot read image {path.name}")
        return as_bgr(image, f"{self._origin}/{path.name}"), t_ns

    def interval_ns(self) -> int:
        return self._interval_ns

    def close(self) -> None:
        """Nothing is held open between reads."""


def _read_manifest(manifest: Path, origin: str) -> list[tuple[Path, int]]:
    """The (image path, t_ns) entries of a ``frames.json``; CameraError naming what is wrong."""
    where = f"{origin}/{MANIFEST_NAME}"
    try:
        data: Any = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CameraError(f"{where}: not readable JSON ({exc})") from exc
    frames = data.get("frames") if isinstance(data, dict) else None
    if not isinstance(frames, list):
        raise CameraError(f'{where}: expected {{"frames": [{{"file": ..., "t_ns": ...}}, ...]}}')
    entries: list[tuple[Path, int]] = []
    for i, entry in enumerate(frames):
        file = entry.get("file") if isinstance(entry, dict) else None
        t_ns = entry.get("t_ns") if isinstance(entry, dict) else None
        if not isinstance(file, str) or Path(file).name != file:
            raise CameraError(f"{where}: frames[{i}].file must be a file name in the folder")
        if not isinstance(t_ns, int) or isinstance(t_ns, bool) or t_ns < 0:
            raise CameraError(f"{where}: frames[{i}].t_ns must be an integer >= 0 (ns)")
        if entries and t_ns < entries[-1][1]:
            raise CameraError(f"{where}: frames[{i}].t_ns goes back in time")
        if not (manifest.parent / file).is_file():
            raise CameraError(f"{where}: frames[{i}].file {file} does not exist")
        entries.append((manifest.parent / file, t_ns))
    return entries


class _VideoReel:
    def __init__(self, path: Path, fps: float, origin: str) -> None:
        self._path = path
        self._origin = origin
        self._capture = self._open()
        container_fps = float(self._capture.get(cv2.CAP_PROP_FPS))
        self._interval = round(_S / (container_fps if container_fps > 0 else fps))
        self._next = 0  # index of the frame the capture returns next

    def _open(self) -> Any:
        capture = cv2.VideoCapture(str(self._path))
        if not capture.isOpened():
            capture.release()
            raise CameraError(f"{self._origin}: not a readable video file")
        return capture

    def read(self, index: int) -> tuple[Image, int] | None:
        if index < self._next:
            self._capture.release()
            self._capture = self._open()
            self._next = 0
        while self._next < index:  # skip exactly, frame by frame: deterministic for any codec
            if not self._capture.grab():
                return None
            self._next += 1
        ok, image = self._capture.read()
        if not ok:
            return None
        self._next += 1
        return as_bgr(image, f"{self._origin} frame {index}"), index * self._interval

    def interval_ns(self) -> int:
        return self._interval

    def close(self) -> None:
        self._capture.release()


def record_folder(
    folder: str | os.PathLike[str], frames: Iterable[tuple[Image, int]], *, suffix: str = ".png"
) -> int:
    """Write (BGR image, t_ns) pairs as a replay folder with a ``frames.json``; returns the count.

    ``folder`` is created if needed and must not already hold a manifest.
    """
    if suffix.lower() not in IMAGE_SUFFIXES:
        raise ValueError(f"record_folder: suffix must be one of {sorted(IMAGE_SUFFIXES)}")
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    if (out / MANIFEST_NAME).exists():
        raise ValueError(f"record_folder: {out / MANIFEST_NAME} already exists")
    entries = []
    for i, (image, t_ns) in enumerate(frames):
        name = f"{i:06d}{suffix}"
        if not cv2.imwrite(str(out / name), np.ascontiguousarray(image)):
            raise CameraError(f"record_folder: cannot write {out / name}")
        entries.append({"file": name, "t_ns": int(t_ns)})
    (out / MANIFEST_NAME).write_text(json.dumps({"frames": entries}, indent=1), encoding="utf-8")
    return len(entries)
