"""Random legal games through the whole pipeline (``e2e_games``), and the tables they are
played at (``e2e_scenes.Table``): a centred cube keeps the middle of the bar clear, so a hit
checker lies beside it, not under it."""

from __future__ import annotations

import itertools
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from kiosk.referee import RefereeConfig
from kiosk.referee.board import START_SIDES
from kiosk.rules import BAR
from tests.e2e.e2e_games import logged_turns, random_game
from tests.e2e.e2e_match import run_script
from tests.e2e.e2e_scenes import (
    CAMERA_SIZE,
    SIZE,
    Shot,
    Table,
    calibrated,
    own_light_tables,
    render_shot,
    staged_scene,
)
from vision.read import read_frame
from vision.render.layout import BAR as ON_BAR

CONFIG = replace(RefereeConfig(), match_length=25, reserve_ms=60 * 60_000)
HIT_TABLE = Table(2_000_005, clean_light=False)
"""A table whose cube, owned when drawn, is moved to the middle of the bar: read right only
since the bar checkers lie clear of it (before, the light one was read as none)."""


def _on_the_bar() -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The starting setup with one checker of each player hit (from his 24-point) to the bar."""
    sides = [list(START_SIDES[0]), list(START_SIDES[1])]
    for side in sides:
        side[24] -= 1
        side[BAR] += 1
    return tuple(sides[0]), tuple(sides[1])


def _tables(count: int, size: tuple[int, int]) -> list[Table]:
    """The first ``count`` tables from seed 2,000,000 on that have a board and a cube."""
    return list(itertools.islice(own_light_tables(2_000_000, size), count))


@pytest.mark.parametrize("table", _tables(2, SIZE), ids=lambda t: str(t.seed))
def test_the_perfect_camera_follows_a_random_game(table: Table, tmp_path: Path) -> None:
    """Random rolls and random legal plays, read from the renderer's labels: the referee logs
    every play as played and raises nothing."""
    script, played = random_game(CONFIG, np.random.default_rng(table.seed), SIZE, table, 40)
    run = run_script(script, tmp_path)
    assert len(played) >= 40
    assert logged_turns(run.state) == played
    assert run.kinds() == []
    assert run.state.game.sides == script.sides


def test_a_random_game_stops_before_the_play_that_ends_it() -> None:
    """A game played out to the end stops with both players still on the board."""
    script, played = random_game(CONFIG, np.random.default_rng(7), SIZE, _tables(1, SIZE)[0])
    assert 0 < len(played) < 200
    assert all(sum(side[1:]) > 0 for side in script.sides)


def test_a_centred_cube_lies_clear_of_the_bar_checkers() -> None:
    """The cube in the middle of the bar and the checkers hit beside it do not overlap."""
    scene = staged_scene(Shot(_on_the_bar(), size=CAMERA_SIZE, table=HIT_TABLE))
    cube = next(s for s in scene.solids if s.kind == "cube")
    radius = scene.geometry.checker_diameter / 2
    barred = [c for c in scene.checkers if c.where == ON_BAR]
    assert len(barred) == 2
    assert all(abs(c.y - cube.y) >= cube.size / 2 + radius for c in barred)


def test_vision_reads_the_checkers_hit_beside_the_centred_cube() -> None:
    """One checker of each colour on the bar beside the centred cube, read at the kiosk
    camera's size with the board found."""
    image, label = render_shot(Shot(_on_the_bar(), size=CAMERA_SIZE, table=HIT_TABLE))
    reading = read_frame(image, calibrated(CAMERA_SIZE, HIT_TABLE))
    assert (label.bar.light, label.bar.dark) == (1, 1)
    assert reading.bar == label.bar


def test_still_frames_read_as_occluded_are_counted() -> None:
    """``scripts.evaluate_play``: the still frames are those with no hand showing the shot of
    the frame before (a hand's frames and the first after it are not), and of them those read
    as occluded are counted."""
    from scripts.evaluate_play import still_frames_read_occluded

    table = _tables(1, SIZE)[0]
    script, _ = random_game(CONFIG, np.random.default_rng(table.seed), SIZE, table, 3)
    frames = script.frames
    all_occluded = dict.fromkeys(range(len(frames)), True)
    still, blind = still_frames_read_occluded(script, all_occluded)
    hands = sum(frame.shot.hand is not None for frame in frames)
    assert 0 < still < len(frames) - hands
    assert blind == still
    assert still_frames_read_occluded(script, {}) == (still, 0)
    after_hand = next(
        k for k in range(1, len(frames)) if frames[k - 1].shot.hand and not frames[k].shot.hand
    )
    assert still_frames_read_occluded(script, {after_hand: True}) == (still, 0)
