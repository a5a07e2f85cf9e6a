"""Exporting a match as a .mat file beside the journal."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.matfile.record import Action, Game, MatchRecord
from kiosk.matfile.writer import format_mat
from kiosk.store import Store, StoreError, export_mat

RECORD = MatchRecord(
    match_length=3,
    players=("Ann", "Bo"),
    games=(
        Game(
            number=1,
            score=(0, 0),
            actions=(
                Action(player=0, kind="roll", dice=(3, 1), play="8/5 6/5"),
                Action(player=1, kind="roll", dice=(6, 4), play="24/14"),
                Action(player=0, kind="double", value=2),
                Action(player=1, kind="drop"),
                Action(player=0, kind="win", value=1),
            ),
        ),
    ),
    tags=(("Event", "Club night"),),
)


def test_export_writes_the_record_in_the_state_directory(tmp_path: Path) -> None:
    with Store(tmp_path, synchronous="NORMAL") as store:
        journal = store.new_match({"ruleset": "mso", "length": 3}, created_ms=1_780_000_000_000)
        path = export_mat(journal, RECORD)
    assert path == tmp_path / "exports" / "match-1-20260528.mat"
    assert path.read_text(encoding="utf-8") == format_mat(RECORD)
    assert [p.name for p in path.parent.iterdir()] == [path.name]


def test_export_to_a_chosen_directory_replaces_an_older_export(tmp_path: Path) -> None:
    with Store(tmp_path / "state", synchronous="NORMAL") as store:
        journal = store.new_match({"length": 3}, created_ms=0)
        first = export_mat(journal, RECORD, tmp_path / "usb")
        shorter = MatchRecord(3, ("Ann", "Bo"), RECORD.games[:0])
        second = export_mat(journal, shorter, tmp_path / "usb")
    assert first == second == tmp_path / "usb" / "match-1-19700101.mat"
    assert second.read_text(encoding="utf-8") == format_mat(shorter)


def test_an_unwritable_export_directory_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "usb").write_text("a file, not a directory")
    with Store(tmp_path / "state", synchronous="NORMAL") as store:
        journal = store.new_match({"length": 3}, created_ms=0)
        with pytest.raises(StoreError, match=r"match-1-19700101\.mat: cannot write the \.mat"):
            export_mat(journal, RECORD, tmp_path / "usb")
