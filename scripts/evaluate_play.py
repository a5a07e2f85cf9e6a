"""Vision followed through play: random legal games at rendered tables, read by ``vision.read``
through the whole kiosk pipeline (settling, referee, journal), scored as a director sees them.

    .venv/bin/python -m scripts.evaluate_play [--tables 20] [--first-table 2000000]
        [--turns 60] [--ruleset mso] [--perfect] [--json]

Each table is the renderer's scene of one seed (board, theme, camera, cube, and its own light:
blur, noise, glare...; seeds without a board or a cube are passed over: ``tests.e2e.e2e_scenes.
own_light_tables``), from ``--first-table``
on (never the seeds of ``vision.render.dataset``'s evaluation frames or the tuning seeds). At
each, ``tests.e2e.e2e_games.random_game`` plays one game of random rolls and random legal plays
(up to ``--turns`` plays) as the kiosk perceives it: hands over the board, settled frames,
clock presses (``tests.e2e.e2e_match``), at the kiosk camera's 1280 x 720.

Figures: the plays the referee logged as played (each table's game followed until its first
miss), the tables followed to the end, the tables that raised no incident, and the incidents
raised, by kind, and the first at each table: in a game played cleanly every incident is a
false alarm the director would be called to (the first one counts most: the scripted players
do not answer it, so more may follow from it). Also the still frames (no hand, the same scene
as the frame before) that vision read as occluded, and the tables with any: the kiosk is blind
there, as long as the scene stays so. ``--perfect`` reads the renderer's exact labels instead
of the pixels (the harness itself: every play followed, no incident).
"""

from __future__ import annotations

import argparse
import itertools
import json
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from hardware.camera.frame import Frame
from kiosk.pipeline.readers import FrameReader
from kiosk.referee import RefereeConfig
from tests.e2e.e2e_games import logged_turns, random_game
from tests.e2e.e2e_match import Script, run_script, vision_reader
from tests.e2e.e2e_scenes import CAMERA_SIZE, TABLE, Table, own_light_tables, render_shot
from vision.labels import Reading

FIRST_TABLE = 2_000_000  # above the evaluation frames' seeds (1,000,000..) and the tuning ones


@dataclass
class Figures:
    """The counts over the tables played."""

    tables: int = 0
    turns: int = 0
    followed: int = 0
    tables_followed: int = 0
    frames: int = 0
    seconds: float = 0.0
    quiet_tables: int = 0
    still_frames: int = 0
    still_occluded: int = 0
    blind_tables: int = 0
    incidents: Counter[str] = field(default_factory=Counter)
    first_incidents: Counter[str] = field(default_factory=Counter)
    misses: list[dict[str, object]] = field(default_factory=list)

    def summary(self) -> dict[str, object]:
        """The figures as printed (percentages of plays and tables)."""
        per_100 = 100.0 / self.turns if self.turns else 0.0
        return {
            "tables": self.tables,
            "plays": self.turns,
            "plays_followed_pct": round(100.0 * self.followed / max(1, self.turns), 2),
            "tables_followed_to_the_end": self.tables_followed,
            "tables_without_incident": self.quiet_tables,
            "first_incident_at_a_table": dict(self.first_incidents.most_common()),
            "incidents_per_100_plays": round(sum(self.incidents.values()) * per_100, 2),
            "incidents": dict(self.incidents.most_common()),
            "still_frames_read_occluded_pct": round(
                100.0 * self.still_occluded / max(1, self.still_frames), 2
            ),
            "tables_with_still_frames_read_occluded": self.blind_tables,
            "frames": self.frames,
            "ms_per_frame": round(1000.0 * self.seconds / max(1, self.frames), 1),
            "misses": self.misses,
        }


class WatchedReader:
    """A frame reader that keeps, by ``Frame.seq``, whether it read each frame as occluded."""

    def __init__(self, reader: FrameReader) -> None:
        self._reader = reader
        self.occluded: dict[int, bool] = {}

    def __call__(self, frame: Frame) -> Reading:
        reading = self._reader(frame)
        self.occluded[frame.seq] = reading.occluded
        return reading


def still_frames_read_occluded(script: Script, occluded: dict[int, bool]) -> tuple[int, int]:
    """How many of ``script``'s still frames (no hand, the same shot as the frame before) there
    are, and how many of them were read as occluded (``occluded``: by frame index)."""
    frames = script.frames
    still = [
        k
        for k in range(1, len(frames))
        if frames[k].shot.hand is None and frames[k].shot == frames[k - 1].shot
    ]
    return len(still), sum(occluded.get(k, False) for k in still)


def play_table(
    table: Table, config: RefereeConfig, turns: int, perfect: bool, figures: Figures
) -> None:
    """Play one game at ``table`` (its seed seeds the game too) and add it to ``figures``."""
    seed = table.seed
    script, played = random_game(config, np.random.default_rng(seed), CAMERA_SIZE, table, turns)
    started = time.perf_counter()
    reader = None if perfect else WatchedReader(vision_reader(CAMERA_SIZE, table))
    with tempfile.TemporaryDirectory() as folder:
        run = run_script(script, Path(folder), reader=reader)
    figures.seconds += time.perf_counter() - started
    if reader is not None:
        still, blind = still_frames_read_occluded(script, reader.occluded)
        figures.still_frames += still
        figures.still_occluded += blind
        figures.blind_tables += int(blind > 0)
    render_shot.cache_clear()
    logged = logged_turns(run.state)
    followed = 0
    while followed < min(len(played), len(logged)) and played[followed] == logged[followed]:
        followed += 1
    figures.tables += 1
    figures.turns += len(played)
    figures.followed += followed
    figures.tables_followed += int(followed == len(played) == len(logged))
    figures.frames += len(script.frames)
    figures.incidents.update(run.kinds())
    figures.quiet_tables += int(not run.incidents)
    if run.incidents:
        figures.first_incidents[run.incidents[0].kind] += 1
    for incident in run.incidents:
        figures.misses.append({"table": seed, "incident": incident.kind, "detail": incident.detail})
    if followed < len(played):
        figures.misses.append(
            {
                "table": seed,
                "play": followed + 1,
                "scripted": str(played[followed]),
                "logged": str(logged[followed]) if followed < len(logged) else None,
            }
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--first-table", type=int, default=FIRST_TABLE)
    parser.add_argument("--turns", type=int, default=60, help="plays per game at most")
    parser.add_argument("--ruleset", default="mso")
    parser.add_argument("--perfect", action="store_true", help="read the exact labels")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    config = replace(TABLE, ruleset=args.ruleset, match_length=25, reserve_ms=60 * 60_000)
    figures = Figures()
    for table in itertools.islice(own_light_tables(args.first_table, CAMERA_SIZE), args.tables):
        play_table(table, config, args.turns, args.perfect, figures)
    summary = figures.summary()
    if args.json:
        print(json.dumps(summary, indent=2))
        return
    for key, value in summary.items():
        if key != "misses":
            print(f"  {key:28} {value}")
    for miss in figures.misses:
        print("  miss:", miss)


if __name__ == "__main__":
    main()
