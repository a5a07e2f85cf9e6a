"""The embedded demo shipped in the package: up to date with its plan, faithful labels, small."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from hardware.camera.replay import ReplaySource
from kiosk.demo import DemoError, build_plan, demo_dir, load_demo
from kiosk.referee.board import reading_of
from vision.labels import Reading


def test_the_shipped_script_is_the_plan_rendered() -> None:
    demo = load_demo()
    plan = build_plan()
    assert demo.config == plan.config
    assert demo.actions == plan.actions
    assert demo.expected == plan.expected
    assert demo.times == tuple(t for _, t in plan.frames)
    assert demo.files == tuple(f"shot{index:02d}.jpg" for index, _ in plan.frames)


def test_the_script_gives_the_demo_camera_s_calibration() -> None:
    from scripts.make_demo import DEFAULT_SEED, base_scene, vision_position

    plan = build_plan()
    base = base_scene(DEFAULT_SEED, vision_position(plan.shots[0].sides, plan.config))
    demo = load_demo()
    assert demo.principal_point == base.camera.principal_share()
    assert demo.focal_length == base.camera.focal_share()


def test_every_label_shows_the_board_and_dice_of_its_shot() -> None:
    demo = load_demo()
    plan = build_plan()
    for index, shot in enumerate(plan.shots):
        label = Reading.from_json(demo.labels[f"shot{index:02d}.jpg"])
        truth = reading_of(shot.sides, plan.config)
        assert [(p.color, p.count) for p in label.points] == [
            (p.colour, p.low) for p in truth.points
        ], index
        assert (label.bar.light, label.bar.dark) == truth.bar
        assert label.occluded == (shot.hand is not None)
        dice = shot.dice
        if shot.dice_from is not None:
            dice = plan.shots[shot.dice_from].dice
        assert sorted((d.value, d.zone, d.cocked) for d in label.dice) == sorted(
            (d.value, d.zone, False) for d in dice
        ), index


def test_the_frames_replay_with_their_times_and_stay_small() -> None:
    demo = load_demo()
    source = ReplaySource(demo.frames_dir)
    source.open()
    first = source.read()
    assert first is not None
    assert first.image.shape == (720, 1280, 3)
    count = 1
    while source.read() is not None:
        count += 1
    source.close()
    assert count == len(demo.files)
    size = sum(p.stat().st_size for p in demo_dir().rglob("*") if p.suffix in (".jpg", ".json"))
    assert size < 3_000_000


def test_a_damaged_script_is_reported_by_field(tmp_path: Path) -> None:
    copy = tmp_path / "demo"
    shutil.copytree(demo_dir(), copy, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    script = copy / "script.json"
    data = json.loads(script.read_text())
    data["actions"][0]["side"] = "middle"
    script.write_text(json.dumps(data))
    with pytest.raises(DemoError, match=r"actions\[0\]\.side"):
        load_demo(copy)
    data["actions"][0]["side"] = "left"
    data["principal_point"] = [0.5, 1.5]
    script.write_text(json.dumps(data))
    with pytest.raises(DemoError, match=r"principal_point: expected \[x, y\], shares"):
        load_demo(copy)
    data["principal_point"] = [0.5, 0.5]
    data["focal_length"] = "wide"
    script.write_text(json.dumps(data))
    with pytest.raises(DemoError, match=r"focal_length: expected a focal length in shares"):
        load_demo(copy)
    del data["focal_length"]
    script.write_text(json.dumps(data))
    assert load_demo(copy).focal_length is None
    del data["expected"]
    script.write_text(json.dumps(data))
    with pytest.raises(DemoError, match="expected: missing"):
        load_demo(copy)
    script.write_text("{")
    with pytest.raises(DemoError, match="not readable"):
        load_demo(copy)
