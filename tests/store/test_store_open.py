"""Opening the journal: where it lives, damaged or foreign files, schema versions, migrations."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from kiosk.store import (
    JOURNAL_FILENAME,
    CorruptJournalError,
    ForeignDatabaseError,
    NewerSchemaError,
    Store,
    StoreError,
    default_state_dir,
)
from kiosk.store import schema as schema_module
from kiosk.store.schema import APPLICATION_ID, MIGRATIONS

HEADER = {"ruleset": "ga", "length": 11}


def _filled(directory: Path) -> Path:
    with Store(directory, synchronous="NORMAL") as store:
        journal = store.new_match(HEADER, created_ms=5)
        for i in range(200):
            journal.append_event({"kind": "press", "t_ms": i, "side": i % 2, "pad": "x" * 200})
    return directory / JOURNAL_FILENAME


def test_state_dir_follows_systemd_then_xdg_then_home() -> None:
    systemd = {"STATE_DIRECTORY": "/var/lib/gammon-kiosk:/var/lib/other", "HOME": "/home/pi"}
    assert default_state_dir(systemd) == Path("/var/lib/gammon-kiosk")
    xdg = {"XDG_STATE_HOME": "/srv/state", "HOME": "/home/pi"}
    assert default_state_dir(xdg) == Path("/srv/state/gammon-kiosk")
    relative_xdg = {"XDG_STATE_HOME": "state", "HOME": "/home/pi"}
    assert default_state_dir(relative_xdg) == Path("/home/pi/.local/state/gammon-kiosk")
    assert default_state_dir({"HOME": "/home/pi"}) == Path("/home/pi/.local/state/gammon-kiosk")


def test_a_new_journal_is_created_with_its_directory_in_wal_mode(tmp_path: Path) -> None:
    with Store(tmp_path / "deep" / "state") as store:
        assert store.path == tmp_path / "deep" / "state" / JOURNAL_FILENAME
        assert store.set_aside is None
    raw = sqlite3.connect(tmp_path / "deep" / "state" / JOURNAL_FILENAME)
    pragmas = [
        raw.execute(f"PRAGMA {name}").fetchone()[0]
        for name in ("journal_mode", "application_id", "user_version")
    ]
    raw.close()
    assert pragmas == ["wal", APPLICATION_ID, len(MIGRATIONS)]


def test_a_file_that_is_not_sqlite_is_refused_and_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / JOURNAL_FILENAME
    path.write_bytes(b"PK\x03\x04 this is a zip file, not a journal" * 10)
    before = path.read_bytes()
    with pytest.raises(CorruptJournalError) as caught:
        Store(tmp_path)
    assert str(path) in str(caught.value)
    assert "not an SQLite database" in str(caught.value)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [JOURNAL_FILENAME]


def test_another_programs_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / JOURNAL_FILENAME
    raw = sqlite3.connect(path)
    raw.execute("CREATE TABLE songs (title TEXT)")
    raw.commit()
    raw.close()
    before = path.read_bytes()
    with pytest.raises(ForeignDatabaseError, match=r"another program \(tables: songs\)"):
        Store(tmp_path)
    assert path.read_bytes() == before


def test_a_database_with_another_application_id_is_refused(tmp_path: Path) -> None:
    raw = sqlite3.connect(tmp_path / JOURNAL_FILENAME)
    raw.execute("PRAGMA application_id = 1234")
    raw.commit()
    raw.close()
    with pytest.raises(ForeignDatabaseError, match="application_id 0x4d2"):
        Store(tmp_path)


def test_a_damaged_page_is_found_by_the_integrity_check(tmp_path: Path) -> None:
    path = _filled(tmp_path)
    data = bytearray(path.read_bytes())
    assert len(data) > 8 * 4096
    for page in range(4, 8):  # scribble over b-tree page headers
        data[page * 4096 : page * 4096 + 8] = b"\xa5" * 8
    path.write_bytes(bytes(data))
    with pytest.raises(CorruptJournalError, match=str(path)):
        Store(tmp_path)
    assert path.read_bytes() == bytes(data)


def test_set_aside_renames_the_damaged_file_and_starts_fresh(tmp_path: Path) -> None:
    path = tmp_path / JOURNAL_FILENAME
    path.write_bytes(b"garbage" * 100)
    with Store(tmp_path, set_aside_damaged=True) as store:
        assert store.set_aside is not None
        assert store.set_aside.name.startswith(JOURNAL_FILENAME + ".damaged-")
        assert store.set_aside.read_bytes() == b"garbage" * 100
        assert store.matches() == []
        store.new_match(HEADER)
    with Store(tmp_path, set_aside_damaged=True) as again:  # a good journal is kept
        assert again.set_aside is None
        assert len(again.matches()) == 1


def test_set_aside_twice_in_a_second_keeps_both_files(tmp_path: Path) -> None:
    path = tmp_path / JOURNAL_FILENAME
    for content in (b"first" * 10, b"second" * 10):
        path.write_bytes(content)
        Store(tmp_path, set_aside_damaged=True).close()
    kept = sorted(p.read_bytes() for p in tmp_path.glob(JOURNAL_FILENAME + ".damaged-*"))
    assert kept == [b"first" * 10, b"second" * 10]


def test_a_newer_schema_is_refused_even_when_told_to_set_aside(tmp_path: Path) -> None:
    path = _filled(tmp_path)
    raw = sqlite3.connect(path)
    raw.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    raw.commit()
    raw.close()
    with pytest.raises(NewerSchemaError, match=f"schema version {len(MIGRATIONS) + 1} is newer"):
        Store(tmp_path, set_aside_damaged=True)
    assert path.exists()


def test_a_migration_upgrades_an_old_journal_and_keeps_its_rows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _filled(tmp_path)
    monkeypatch.setattr(
        schema_module, "MIGRATIONS", (*MIGRATIONS, "ALTER TABLE matches ADD COLUMN venue TEXT;")
    )
    with Store(tmp_path) as store:
        assert len(store.journal(1).events()) == 200
    raw = sqlite3.connect(tmp_path / JOURNAL_FILENAME)
    assert raw.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS) + 1
    assert raw.execute("SELECT venue FROM matches").fetchall() == [(None,)]
    raw.close()


def test_a_failing_migration_leaves_the_old_version_intact(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _filled(tmp_path)
    broken = "CREATE TABLE half_done (a INTEGER); INSERT INTO no_such_table VALUES (1);"
    monkeypatch.setattr(schema_module, "MIGRATIONS", (*MIGRATIONS, broken))
    with pytest.raises(StoreError, match="no such table: no_such_table"):
        Store(tmp_path)
    raw = sqlite3.connect(tmp_path / JOURNAL_FILENAME)
    assert raw.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    tables = {name for (name,) in raw.execute("SELECT name FROM sqlite_master")}
    raw.close()
    assert "half_done" not in tables
    monkeypatch.undo()
    with Store(tmp_path) as store:
        assert len(store.journal(1).events()) == 200


def test_a_journal_missing_a_table_is_reported(tmp_path: Path) -> None:
    path = _filled(tmp_path)
    raw = sqlite3.connect(path)
    raw.execute("DROP TABLE checkpoints")
    raw.commit()
    raw.close()
    with pytest.raises(CorruptJournalError, match="tables missing: checkpoints"):
        Store(tmp_path)


def test_a_state_directory_that_cannot_be_created_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "taken").write_text("a file where the directory should be")
    with pytest.raises(StoreError, match="taken/state: cannot create the state directory"):
        Store(tmp_path / "taken" / "state")


def test_an_unknown_synchronous_setting_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="synchronous must be"):
        Store(tmp_path, synchronous="OFF")  # type: ignore[arg-type]
