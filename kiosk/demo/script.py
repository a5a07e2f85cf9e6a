"""The demo's files: ``frames/`` (a ``hardware.camera.replay`` folder) and ``script.json``.

``script.json`` holds the table's configuration (``kiosk.referee.codec`` format), the principal
point of the camera that took the frames (shares of the frame's width and height, as a
calibration gives it: ``vision.config.ReadConfig.principal_point``), the frame interval, the
scripted presses and touches in time order (ns from the first frame), the renderer's exact
label of every shot (``vision.labels`` format, keyed by image file) and the outcome the referee
must reach. ``load_demo`` checks it and raises ``DemoError`` naming the
field that is wrong.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, get_args

from kiosk.demo.plan import DemoAction, DemoPlan, Expected
from kiosk.referee.codec import CodecError, config_from_json, config_to_json
from kiosk.referee.config import RefereeConfig
from kiosk.referee.events import ButtonSide, TouchAction
from vision.config import focal_length_from, principal_point_from

MANIFEST = "frames.json"
SCRIPT = "script.json"
FRAMES = "frames"
VERSION = 1


class DemoError(ValueError):
    """The demo's files are missing or malformed; the message names the file and field."""


@dataclass(frozen=True)
class Demo:
    """A demo on disk: its frame folder, manifest entries (files and their t_ns), table
    configuration, its camera's principal point (shares of the frame) and focal length (shares
    of its width; None where the script records none), frame interval (ns), scripted actions,
    exact labels per file and expected outcome."""

    frames_dir: Path
    files: tuple[str, ...]
    times: tuple[int, ...]
    config: RefereeConfig
    principal_point: tuple[float, float]
    focal_length: float | None
    frame_ns: int
    actions: tuple[DemoAction, ...]
    labels: Mapping[str, Mapping[str, Any]]
    expected: Expected

    @property
    def duration_ns(self) -> int:
        """From the start of the recording to one frame interval after its last frame."""
        return self.times[-1] + self.frame_ns


def demo_dir() -> Path:
    """The embedded demo shipped in the package."""
    return Path(str(resources.files("kiosk.demo")))


def write_script(
    path: Path,
    plan: DemoPlan,
    labels: Mapping[str, object],
    *,
    seed: int,
    size: tuple[int, int],
    principal_point: tuple[float, float],
    focal_length: float,
) -> None:
    """Write ``script.json`` for ``plan`` (used by ``scripts/make_demo.py``)."""
    from kiosk.demo.plan import FRAME_NS

    data = {
        "v": VERSION,
        "seed": seed,
        "size": list(size),
        "principal_point": list(principal_point),
        "focal_length": focal_length,
        "frame_ns": FRAME_NS,
        "config": config_to_json(plan.config),
        "actions": [
            {"t_ns": a.t_ns, "kind": a.kind, "side": a.side, "action": a.action}
            for a in plan.actions
        ],
        "expected": {
            "position_id": plan.expected.position_id,
            "on_roll": plan.expected.on_roll,
            "cube": list(plan.expected.cube),
            "score": list(plan.expected.score),
        },
        "labels": labels,
    }
    path.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")


def _get(data: Any, key: str, where: str) -> Any:
    if not isinstance(data, Mapping) or key not in data:
        raise DemoError(f"{where}.{key}: missing")
    return data[key]


def _int(value: Any, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise DemoError(f"{where}: expected an integer, got {value!r}")
    return value


def _action(item: Any, where: str) -> DemoAction:
    t_ns = _int(_get(item, "t_ns", where), f"{where}.t_ns")
    kind = _get(item, "kind", where)
    side = _get(item, "side", where)
    action = item.get("action")
    if side not in get_args(ButtonSide):
        raise DemoError(f"{where}.side: expected left, right or centre, got {side!r}")
    if kind == "press" and action is None:
        return DemoAction(t_ns, "press", side)
    if kind == "touch" and action in get_args(TouchAction) and side != "centre":
        return DemoAction(t_ns, "touch", side, action)
    raise DemoError(f"{where}: expected a press, or a touch with a known action and a seat side")


def _principal_point(value: Any, where: str) -> tuple[float, float]:
    try:
        return principal_point_from(value)
    except ValueError as error:
        raise DemoError(f"{where}: {error}") from None


def _focal_length(value: Any, where: str) -> float | None:
    try:
        return None if value is None else focal_length_from(value)
    except ValueError as error:
        raise DemoError(f"{where}: {error}") from None


def _player(value: Any, where: str) -> int:
    if value not in (0, 1):
        raise DemoError(f"{where}: expected player 0 or 1, got {value!r}")
    return int(value)


def load_demo(folder: Path | None = None) -> Demo:
    """The demo in ``folder`` (default: the embedded one)."""
    root = demo_dir() if folder is None else folder
    frames_dir = root / FRAMES
    where = str(root / SCRIPT)
    try:
        data = json.loads((root / SCRIPT).read_text(encoding="utf-8"))
        manifest = json.loads((frames_dir / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise DemoError(f"{root}: the demo's files are not readable ({error})") from None
    if _get(data, "v", where) != VERSION:
        raise DemoError(f"{where}.v: expected version {VERSION}")
    try:
        config = config_from_json(_get(data, "config", where), f"{where}.config")
    except CodecError as error:
        raise DemoError(str(error)) from None
    frames = _get(manifest, "frames", str(frames_dir / MANIFEST))
    if not isinstance(frames, list) or not frames:
        raise DemoError(f"{frames_dir / MANIFEST}.frames: expected a non-empty list")
    files = tuple(
        str(_get(item, "file", f"{MANIFEST}.frames[{i}]")) for i, item in enumerate(frames)
    )
    times = tuple(
        _int(_get(item, "t_ns", f"{MANIFEST}.frames[{i}]"), f"{MANIFEST}.frames[{i}].t_ns")
        for i, item in enumerate(frames)
    )
    if times[0] != 0 or list(times) != sorted(times):
        raise DemoError(f"{frames_dir / MANIFEST}: frame times must start at 0 and never go back")
    labels = _get(data, "labels", where)
    missing = sorted({name for name in files if name not in labels})
    if missing:
        raise DemoError(f"{where}.labels: no label for {', '.join(missing)}")
    actions = tuple(
        _action(item, f"{where}.actions[{i}]")
        for i, item in enumerate(_get(data, "actions", where))
    )
    if [a.t_ns for a in actions] != sorted(a.t_ns for a in actions):
        raise DemoError(f"{where}.actions: not in time order")
    expected = _get(data, "expected", where)
    cube = _get(expected, "cube", f"{where}.expected")
    score = _get(expected, "score", f"{where}.expected")
    return Demo(
        frames_dir=frames_dir,
        files=files,
        times=times,
        config=config,
        principal_point=_principal_point(
            _get(data, "principal_point", where), f"{where}.principal_point"
        ),
        focal_length=_focal_length(data.get("focal_length"), f"{where}.focal_length"),
        frame_ns=_int(_get(data, "frame_ns", where), f"{where}.frame_ns"),
        actions=actions,
        labels=labels,
        expected=Expected(
            position_id=str(_get(expected, "position_id", f"{where}.expected")),
            on_roll=0 if _player(_get(expected, "on_roll", where), where) == 0 else 1,
            cube=(_int(cube[0], f"{where}.expected.cube"), 0 if cube[1] == 0 else 1),
            score=(_int(score[0], f"{where}.score"), _int(score[1], f"{where}.score")),
        ),
    )
