"""Exporting a match as a Jellyfish/GNU Backgammon ``.mat`` record.

The record itself (games, rolls, plays, cube actions) is the referee's knowledge: the caller
builds the :class:`~kiosk.matfile.record.MatchRecord`, typically from the state a restore
returned, and this module writes it with :mod:`kiosk.matfile.writer` beside the journal.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from kiosk.matfile.record import MatchRecord
from kiosk.matfile.writer import format_mat
from kiosk.store.errors import StoreError
from kiosk.store.journal import MatchJournal

EXPORT_DIRNAME = "exports"
"""Default export directory, inside the state directory."""


def export_mat(journal: MatchJournal, record: MatchRecord, directory: Path | None = None) -> Path:
    """Write ``record`` as ``match-<id>-<UTC date of the match>.mat`` in ``directory`` (default
    ``<state dir>/exports``) and return the path. The file appears whole or not at all."""
    folder = journal.state_dir / EXPORT_DIRNAME if directory is None else directory
    date = time.strftime("%Y%m%d", time.gmtime(journal.info.created_ms / 1000))
    path = folder / f"match-{journal.match_id}-{date}.mat"
    temporary = path.with_name(path.name + ".partial")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with temporary.open("w", encoding="utf-8", newline="\n") as file:
            file.write(format_mat(record))
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except OSError as error:
        raise StoreError(f"{path}: cannot write the .mat export ({error.strerror})") from error
    return path
