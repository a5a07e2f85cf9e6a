"""Opening the journal database: recognising it, checking it, migrating its schema.

The file is an SQLite database marked with ``PRAGMA application_id`` (``GKJ1``) and versioned with
``PRAGMA user_version``: migration ``n`` (``MIGRATIONS[n]``) takes version ``n`` to ``n + 1`` in one
transaction, so a crash during a migration leaves the old version intact.

A file that is not a gammon-kiosk journal (not SQLite, damaged, another program's database) raises
a :class:`DamagedJournalError` naming the file and the problem, and is never modified; with
``set_aside_damaged`` it is renamed aside (``journal.sqlite3.damaged-<UTC time>``, with its
``-wal``/``-shm`` files) and a fresh journal started in its place.

Durability: WAL mode with ``synchronous=FULL`` syncs the WAL at every commit, so an event that was
committed survives a power cut, which the match restore depends on. ``NORMAL`` (no sync per
commit) survives a crash of the process but a power cut may roll back recent commits: it suits
only throwaway journals (demos, tests). A commit is atomic either way: a torn write at the end of
the WAL is discarded on the next open and never damages earlier rows.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Final, Literal

from kiosk.store.errors import (
    CorruptJournalError,
    DamagedJournalError,
    ForeignDatabaseError,
    NewerSchemaError,
    StoreError,
)

Synchronous = Literal["FULL", "NORMAL"]

APPLICATION_ID: Final = 0x474B4A31
"""``PRAGMA application_id`` of a gammon-kiosk journal: "GKJ1"."""

_SQLITE_MAGIC: Final = b"SQLite format 3\x00"

_V1: Final = """
CREATE TABLE matches (
    id INTEGER PRIMARY KEY,
    created_ms INTEGER NOT NULL,      -- wall-clock Unix time (ms) when the match was opened
    header TEXT NOT NULL,             -- canonical JSON: rule set, length, players, settings
    genesis TEXT NOT NULL,            -- sha256: prev_hash of the match's first incident
    finished_ms INTEGER               -- wall-clock Unix time (ms), NULL while in progress
);
CREATE TABLE events (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    seq INTEGER NOT NULL,             -- 1, 2, ... within the match
    kind TEXT NOT NULL,
    t_ms INTEGER NOT NULL,            -- the kiosk's monotonic match time
    body TEXT NOT NULL,               -- compact JSON of the whole event, key order kept
    PRIMARY KEY (match_id, seq)
) WITHOUT ROWID;
CREATE TABLE snapshots (
    id INTEGER PRIMARY KEY,
    match_id INTEGER NOT NULL REFERENCES matches (id),
    jpeg BLOB NOT NULL
);
CREATE TABLE incidents (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    seq INTEGER NOT NULL,             -- 1, 2, ... within the match: position in the hash chain
    event_seq INTEGER NOT NULL,       -- events journaled before this incident
    kind TEXT NOT NULL,
    t_ms INTEGER NOT NULL,
    body TEXT NOT NULL,               -- canonical JSON of the whole incident
    snapshot_id INTEGER REFERENCES snapshots (id),
    snapshot_sha256 TEXT NOT NULL,    -- 64 zeros without a snapshot
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL,
    PRIMARY KEY (match_id, seq)
) WITHOUT ROWID;
-- The clock heartbeat: the latest moment the kiosk was known to be running (one row per match,
-- overwritten; it is a watermark, not part of the record).
CREATE TABLE checkpoints (
    match_id INTEGER PRIMARY KEY REFERENCES matches (id),
    t_ms INTEGER NOT NULL,
    event_seq INTEGER NOT NULL
);
CREATE TRIGGER events_append_only BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
CREATE TRIGGER events_keep BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
CREATE TRIGGER incidents_append_only BEFORE UPDATE ON incidents
BEGIN SELECT RAISE(ABORT, 'incidents are append-only'); END;
CREATE TRIGGER incidents_keep BEFORE DELETE ON incidents
BEGIN SELECT RAISE(ABORT, 'incidents are append-only'); END;
CREATE TRIGGER snapshots_append_only BEFORE UPDATE ON snapshots
BEGIN SELECT RAISE(ABORT, 'snapshots are append-only'); END;
CREATE TRIGGER snapshots_keep BEFORE DELETE ON snapshots
BEGIN SELECT RAISE(ABORT, 'snapshots are append-only'); END;
CREATE TRIGGER matches_header_fixed BEFORE UPDATE OF id, created_ms, header, genesis ON matches
BEGIN SELECT RAISE(ABORT, 'a match header is fixed when the match is opened'); END;
CREATE TRIGGER matches_finish_once BEFORE UPDATE OF finished_ms ON matches
WHEN OLD.finished_ms IS NOT NULL
BEGIN SELECT RAISE(ABORT, 'the match is already finished'); END;
CREATE TRIGGER matches_keep BEFORE DELETE ON matches
BEGIN SELECT RAISE(ABORT, 'matches are kept'); END;
"""

MIGRATIONS: tuple[str, ...] = (_V1,)
"""``MIGRATIONS[n]`` is the SQL taking the schema from version ``n`` to ``n + 1``."""

_TABLES: Final = frozenset({"matches", "events", "snapshots", "incidents", "checkpoints"})


def schema_version() -> int:
    """The schema version this code writes."""
    return len(MIGRATIONS)


def open_database(
    path: Path, *, set_aside_damaged: bool, synchronous: Synchronous
) -> tuple[sqlite3.Connection, Path | None]:
    """The journal at ``path`` (created if missing) and, when a damaged file was renamed aside,
    its new name."""
    if synchronous not in ("FULL", "NORMAL"):
        raise ValueError(f"synchronous must be 'FULL' or 'NORMAL', got {synchronous!r}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise StoreError(f"{path.parent}: cannot create the state directory ({error})") from error
    try:
        return _open_checked(path, synchronous), None
    except DamagedJournalError:
        if not set_aside_damaged:
            raise
    aside = set_aside(path)
    return _open_checked(path, synchronous), aside


def set_aside(path: Path) -> Path:
    """Rename ``path`` (and its ``-wal``/``-shm`` files) to an unused ``.damaged-<UTC>`` name."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    aside = path.with_name(f"{path.name}.damaged-{stamp}")
    number = 1
    while aside.exists():
        number += 1
        aside = path.with_name(f"{path.name}.damaged-{stamp}-{number}")
    for suffix in ("-wal", "-shm"):
        companion = path.with_name(path.name + suffix)
        if companion.exists():
            companion.rename(aside.with_name(aside.name + suffix))
    path.rename(aside)
    return aside


def _open_checked(path: Path, synchronous: Synchronous) -> sqlite3.Connection:
    _check_magic(path)
    db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False, timeout=5.0)
    try:
        _recognise(db, path)
        (mode,) = db.execute("PRAGMA journal_mode=WAL").fetchone()
        if mode != "wal":
            raise StoreError(f"{path}: the filesystem does not allow WAL mode (got {mode!r})")
        db.execute(f"PRAGMA synchronous={synchronous}")
        db.execute("PRAGMA foreign_keys=ON")
        _migrate(db)
        missing = _TABLES - _table_names(db)
        if missing:
            raise CorruptJournalError(path, f"tables missing: {', '.join(sorted(missing))}")
    except sqlite3.DatabaseError as error:
        db.close()
        raise _classify(path, error) from error
    except BaseException:
        db.close()
        raise
    return db


def _check_magic(path: Path) -> None:
    """Refuse a non-empty file that does not start with SQLite's header, before SQLite opens it."""
    try:
        with path.open("rb") as file:
            head = file.read(len(_SQLITE_MAGIC))
    except FileNotFoundError:
        return
    except OSError as error:
        raise StoreError(f"{path}: cannot read the journal ({error.strerror})") from error
    if head and head != _SQLITE_MAGIC:
        raise CorruptJournalError(path, f"not an SQLite database (it starts with {head[:8]!r})")


def _recognise(db: sqlite3.Connection, path: Path) -> None:
    (application_id,) = db.execute("PRAGMA application_id").fetchone()
    (version,) = db.execute("PRAGMA user_version").fetchone()
    tables = _table_names(db)
    if application_id not in (0, APPLICATION_ID):
        raise ForeignDatabaseError(
            path,
            f"an SQLite database of another program (application_id {application_id:#x}, "
            f"a gammon-kiosk journal has {APPLICATION_ID:#x})",
        )
    if application_id == 0 and tables:
        listed = ", ".join(sorted(tables)[:5])
        raise ForeignDatabaseError(
            path, f"an SQLite database of another program (tables: {listed}), not a journal"
        )
    if version > schema_version():
        raise NewerSchemaError(path, version, schema_version())
    if application_id == APPLICATION_ID:
        problems = [row[0] for row in db.execute("PRAGMA quick_check(3)").fetchall()]
        if problems != ["ok"]:
            raise CorruptJournalError(path, "SQLite integrity check failed: " + "; ".join(problems))


def _migrate(db: sqlite3.Connection) -> None:
    (version,) = db.execute("PRAGMA user_version").fetchone()
    for number in range(version, schema_version()):
        try:
            db.executescript(
                "BEGIN IMMEDIATE;\n"
                f"PRAGMA application_id={APPLICATION_ID};\n"
                f"{MIGRATIONS[number]}\n"
                f"PRAGMA user_version={number + 1};\n"
                "COMMIT;"
            )
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise


def _table_names(db: sqlite3.Connection) -> set[str]:
    rows = db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    return {str(name) for (name,) in rows}


def _classify(path: Path, error: sqlite3.DatabaseError) -> StoreError:
    """A damaged-file error for corruption; anything else (locked, disk full, read-only) is a
    plain :class:`StoreError`, since renaming the file aside would not help."""
    name = getattr(error, "sqlite_errorname", "")
    if name in ("SQLITE_CORRUPT", "SQLITE_NOTADB") or name.startswith("SQLITE_CORRUPT_"):
        return CorruptJournalError(path, f"SQLite cannot read it ({error})")
    return StoreError(f"{path}: cannot open the journal ({error})")
