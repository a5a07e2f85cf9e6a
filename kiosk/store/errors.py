"""Errors of the match journal. Each message names the file or entry and what is wrong."""

from __future__ import annotations

from pathlib import Path


class StoreError(Exception):
    """Base class: the journal cannot do what was asked."""


class EntryError(StoreError, ValueError):
    """An event or incident given to the journal is not a storable JSON dict."""


class UnknownMatchError(StoreError, LookupError):
    """No match with that id in the journal."""


class DamagedJournalError(StoreError):
    """The journal file cannot be used as it is. The file is left untouched.

    ``path`` is the file, ``reason`` says what is wrong with it. Opening the journal with
    ``set_aside_damaged=True`` renames it aside and starts a fresh one.
    """

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


class CorruptJournalError(DamagedJournalError):
    """The file is not a readable SQLite database or fails SQLite's integrity check."""


class ForeignDatabaseError(DamagedJournalError):
    """The file is an SQLite database of some other program (not a gammon-kiosk journal)."""


class NewerSchemaError(StoreError):
    """The journal was written by a newer gammon-kiosk: this version must not touch it."""

    def __init__(self, path: Path, found: int, known: int) -> None:
        super().__init__(
            f"{path}: journal schema version {found} is newer than this gammon-kiosk knows "
            f"(up to {known}); upgrade gammon-kiosk, the file was left untouched"
        )
        self.path = path
        self.found = found
        self.known = known
