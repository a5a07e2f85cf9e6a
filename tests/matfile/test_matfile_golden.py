"""Replays of matches GNU Backgammon played against itself (``make_golden.py``): no false flags,
the final score gnubg reported, and (where the ``gnubg`` package is installed) every Position ID,
game score, winner and points equal to what gnubg reads from the same file."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from kiosk.matfile import Replay, format_mat, parse_mat, replay
from kiosk.rulesets import load_ruleset

DATA = Path(__file__).parent / "data"
ORACLE = Path(__file__).parent / "gnubg_oracle.py"
FINAL_SCORES = {
    "gnubg-3pt-seed7.mat": (4, 2),
    "gnubg-5pt-seed11.mat": (4, 5),
    "gnubg-7pt-seed23.mat": (6, 7),
    "gnubg-25pt-seed3.mat": (4, 29),
    "gnubg-money-seed5.mat": (15, 5),
}
"""Final scores as gnubg printed them when it played these matches."""
GNUBG_KINDS = {"cannot-move": "move"}


def replayed(name: str) -> Replay:
    path = DATA / name
    record = parse_mat(path.read_text("utf-8"), str(path))
    return replay(record, load_ruleset("mso" if record.match_length else "money"))


def gnubg_reads(path: Path) -> dict[str, object]:
    """What gnubg imports from ``path`` (skips the test where gnubg is not installed)."""
    pytest.importorskip("gnubg")
    done = subprocess.run(
        [sys.executable, str(ORACLE), str(path)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    lines = [line for line in done.stdout.splitlines() if line.startswith("ORACLE ")]
    assert lines, done.stdout[-2000:] + done.stderr[-2000:]
    found: dict[str, object] = json.loads(lines[-1][len("ORACLE ") :])
    return found


@pytest.mark.parametrize("name", sorted(FINAL_SCORES))
def test_gnubg_match_replays_without_flags(name: str) -> None:
    """MSO 5.1 (running score), 5.5 (Crawford): a clean record gets no flag and its score."""
    result = replayed(name)
    assert result.flags == ()
    assert result.final_score == FINAL_SCORES[name]
    assert all(not decision.flags for game in result.games for decision in game.decisions)


def test_crawford_game_is_marked_mso_5_5() -> None:
    """MSO 5.5: the game after a player reaches match point (4-0 in a 5-point match)."""
    result = replayed("gnubg-5pt-seed11.mat")
    assert [(game.score, game.crawford) for game in result.games] == [
        ((0, 0), False),
        ((4, 0), True),
        ((4, 1), False),
    ]


@pytest.mark.parametrize("name", sorted(FINAL_SCORES))
def test_replay_agrees_with_gnubg(name: str) -> None:
    """Each decision's kind, player, dice and Position ID, each game's score, winner and points,
    as gnubg reads them."""
    oracle = gnubg_reads(DATA / name)
    result = replayed(name)
    games = oracle["games"]
    assert isinstance(games, list)
    assert len(games) == len(result.games)
    for game, expected in zip(result.games, games, strict=True):
        assert list(game.score) == expected["score"]
        assert (game.winner, game.points) == (expected["winner"], expected["points"])
        ours = [d for d in game.decisions if d.kind not in ("win", "resign")]
        theirs = [step for step in expected["actions"] if step["action"] != "resign"]
        assert len(ours) == len(theirs)
        for decision, step in zip(ours, theirs, strict=True):
            assert (decision.player, GNUBG_KINDS.get(decision.kind, decision.kind)) == (
                step["player"],
                step["action"],
            )
            if step["board"] is not None:  # gnubg keeps no board with a take or a drop
                assert decision.position_id == step["board"]
            if decision.dice is not None:
                assert sorted(decision.dice) == sorted(step["dice"])


@pytest.mark.parametrize("name", ["gnubg-3pt-seed7.mat", "gnubg-25pt-seed3.mat"])
def test_written_mat_is_imported_by_gnubg(name: str, tmp_path: Path) -> None:
    """A record written by ``format_mat`` reads back in gnubg as the same match."""
    record = parse_mat((DATA / name).read_text("utf-8"), name)
    written = tmp_path / "written.mat"
    written.write_text(format_mat(record), "utf-8")
    assert gnubg_reads(written) == gnubg_reads(DATA / name)


@pytest.mark.parametrize("name", sorted(FINAL_SCORES))
def test_write_then_read_gives_the_same_record(name: str) -> None:
    record = parse_mat((DATA / name).read_text("utf-8"), name)
    again = parse_mat(format_mat(record), "written")

    def content(rec: object) -> object:
        from dataclasses import replace

        from kiosk.matfile import MatchRecord

        assert isinstance(rec, MatchRecord)
        games = tuple(
            replace(
                game,
                line=0,
                actions=tuple(replace(a, line=0, move_number=None) for a in game.actions),
            )
            for game in rec.games
        )
        return replace(rec, games=games)

    assert content(again) == content(record)
