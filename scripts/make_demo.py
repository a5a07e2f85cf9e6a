"""Render the embedded demo (``kiosk/demo``) from its plan (``kiosk.demo.plan``).

    .venv/bin/python scripts/make_demo.py [--out kiosk/demo] [--seed 104]

Writes ``frames/shotNN.jpg`` (one JPEG per distinct shot, 1280 x 720 as the kiosk's camera gives
them, quality 80),
``frames/frames.json`` (the ``hardware.camera.replay`` manifest: every frame of the timeline,
shots repeated while the table is still) and ``script.json`` (the table's configuration, the
scripted presses and touches, the renderer's exact labels per shot and the expected outcome).
Deterministic: one seed fixes the board, theme, camera and every dice throw.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path

import cv2
import numpy as np

from kiosk.demo.plan import DemoPlan, Shot, build_plan, describe
from kiosk.demo.script import MANIFEST, SCRIPT, write_script
from kiosk.referee.board import Sides, reading_of
from kiosk.referee.config import RefereeConfig
from vision.render.palettes import SKIN
from vision.render.positions import Position
from vision.render.render import label_scene, render_scene
from vision.render.scene import Hand, Lighting, Scene, Solid, restage, sample_scene

WIDTH, HEIGHT = 1280, 720
JPEG_QUALITY = 80
DEFAULT_SEED = 104
CLEAN_LIGHT = Lighting(
    level=1.0,
    gradient=(0.08, 0.04),
    vignette=0.1,
    gains=(1.0, 1.0, 1.0),
    shadow_offset=(0.3, 0.3),
    glare=None,
    shadow=None,
    shadow_strength=0.3,
    blur_sigma=0.0,
    motion_blur=None,
    noise_sigma=0.0,
    jpeg_quality=None,
)
"""Even venue lighting: no glare, no blur, no sensor noise (JPEG compression is applied once,
when the frames are written)."""


def vision_position(sides: Sides, config: RefereeConfig) -> Position:
    """The renderer's position (image-relative points, light/dark) of a referee board."""
    reading = reading_of(sides, config)
    points = tuple((p.colour, p.low) for p in sorted(reading.points, key=lambda p: p.point))
    bar = (reading.bar[0] or 0, reading.bar[1] or 0)
    off = (reading.off[0] or 0, reading.off[1] or 0)
    return Position(points=points, bar=bar, off=off)


def base_scene(seed: int, start: Position) -> Scene:
    """The table: board, theme, camera and a centred cube, from ``seed``, without dice or hands."""
    scene = sample_scene(np.random.default_rng(seed), WIDTH, HEIGHT, position=start, dice=())
    if not scene.board or not any(s.kind == "cube" and s.value == 64 for s in scene.solids):
        raise SystemExit(f"make_demo: seed {seed} has no board or no centred cube; pick another")
    return dataclasses.replace(scene, hands=(), lighting=CLEAN_LIGHT)


def placed_cube(cube: Solid, scene: Scene, face: int, place: str) -> Solid:
    """The cube turned to ``face`` and lying on the bar at ``place`` (centre, top, bottom)."""
    a, b, c, d, e, f = cube.faces
    faces = (face, *(a if v == face else v for v in (b, c, d, e, f)))
    g = scene.geometry
    share = {"centre": 0.5, "top": 0.1, "bottom": 0.9}[place]
    x = (g.bar_rect[0] + g.bar_rect[2]) / 2
    return dataclasses.replace(
        cube,
        faces=(faces[0], faces[1], faces[2], faces[3], faces[4], faces[5]),
        x=x,
        y=g.surface_height * share,
    )


def reaching_hand(scene: Scene, row: str) -> Hand:
    """A hand reaching in from the ``row`` (top or bottom) edge of the board towards its
    centre, a little blurred by its motion."""
    label = label_scene(scene)
    assert label.board.corners is not None
    tl, tr, br, bl = (np.array(c) for c in label.board.corners)
    near = bl + 0.62 * (br - bl) if row == "bottom" else tl + 0.38 * (tr - tl)
    centre = (tl + tr + br + bl) / 4
    palm = near + 0.3 * (centre - near)
    towards = centre - palm
    px_per_mm = float(np.linalg.norm(tr - tl)) / scene.geometry.surface_width
    return Hand(
        palm=(float(palm[0]), float(palm[1])),
        direction_deg=float(np.degrees(np.arctan2(towards[1], towards[0]))),
        size=px_per_mm * 90.0,
        skin=SKIN[1],
        spread=0.4,
        motion_px=6.0,
    )


def shot_scene(base: Scene, plan: DemoPlan, index: int, seed: int, staged: list[Scene]) -> Scene:
    """The scene of shot ``index``: its board, its dice where the plan wants them (retrying the
    throw until every die lies flat in its half) and the cube."""
    shot: Shot = plan.shots[index]
    position = vision_position(shot.sides, plan.config)
    cube = next(s for s in base.solids if s.kind == "cube")
    cube = placed_cube(cube, base, shot.cube[0], shot.cube[1])
    base = dataclasses.replace(base, solids=(cube,))
    for attempt in range(500):
        rng = np.random.default_rng([seed, index, attempt])
        values = [die.value for die in shot.dice] if shot.dice_from is None else []
        try:
            scene = restage(base, rng, position, values)
        except ValueError:
            continue
        if shot.dice_from is not None:
            dice = tuple(s for s in staged[shot.dice_from].solids if s.kind == "die")
            scene = dataclasses.replace(scene, solids=(cube, *dice))
            if shot.hand is None:
                return scene
            row = plan.config.player_row(shot.hand)
            return dataclasses.replace(scene, hands=(reaching_hand(scene, row),))
        label = label_scene(scene)
        thrown = [s for s in scene.solids if s.kind == "die"]
        if not any(s.cocked for s in thrown) and [(d.value, d.zone) for d in label.dice] == [
            (d.value, d.zone) for d in shot.dice
        ]:
            return scene
    raise SystemExit(f"make_demo: no flat throw found for shot {index}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).parent.parent / "kiosk/demo")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    args = parser.parse_args(argv)
    plan = build_plan()
    frames_dir = args.out / "frames"
    frames_dir.mkdir(parents=True, exist_ok=True)
    for old in frames_dir.glob("shot*.jpg"):
        old.unlink()
    base = base_scene(args.seed, vision_position(plan.shots[0].sides, plan.config))
    staged: list[Scene] = []
    labels: dict[str, object] = {}
    for index in range(len(plan.shots)):
        scene = shot_scene(base, plan, index, args.seed, staged)
        staged.append(scene)
        image, label = render_scene(scene)
        name = f"shot{index:02d}.jpg"
        cv2.imwrite(str(frames_dir / name), image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
        labels[name] = label.to_json()
    manifest = {"frames": [{"file": f"shot{i:02d}.jpg", "t_ns": t} for i, t in plan.frames]}
    (frames_dir / MANIFEST).write_text(json.dumps(manifest, indent=0) + "\n", encoding="utf-8")
    write_script(
        args.out / SCRIPT,
        plan,
        labels,
        seed=args.seed,
        size=(WIDTH, HEIGHT),
        principal_point=base.camera.principal_share(),
        focal_length=base.camera.focal_share(),
    )
    total = sum(p.stat().st_size for p in frames_dir.iterdir() if p.suffix in (".jpg", ".json"))
    total += (args.out / SCRIPT).stat().st_size
    print("\n".join(describe(plan)))
    print(f"{len(plan.shots)} shots, {len(plan.frames)} frames, {total / 1e6:.2f} MB in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
