"""Journaling off the press path: a thread appends events and incidents (with JPEG snapshots)
to the match journal, so that a press or a reading never waits for SQLite's fsync.

Entries are appended in the order they were queued. A store error is logged and counted, never
raised into the UI loop; :meth:`JournalWriter.close` drains the queue before returning.
"""

from __future__ import annotations

import logging
import queue
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kiosk.store import JsonDict, MatchJournal, StoreError, encode_snapshot

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Image = npt.NDArray[np.uint8]

LOG = logging.getLogger("kiosk.pipeline")


@dataclass(frozen=True)
class _Entry:
    kind: str  # "event", "incident" or "heartbeat"
    data: JsonDict | None = None
    image: Image | None = None
    t_ms: int = 0


class JournalWriter:
    """Appends to ``journal`` on its own thread."""

    def __init__(self, journal: MatchJournal) -> None:
        self.journal = journal
        self.errors = 0
        self._queue: queue.Queue[_Entry | None] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="journal", daemon=True)
        self._thread.start()

    def event(self, data: JsonDict) -> None:
        """Queue one event (``kiosk.referee.codec`` JSON)."""
        self._queue.put(_Entry("event", data))

    def incident(self, data: JsonDict, image: Image | None) -> None:
        """Queue one incident with the frame to keep as its snapshot (None: no frame yet)."""
        self._queue.put(_Entry("incident", data, image))

    def heartbeat(self, t_ms: int) -> None:
        """Queue a clock heartbeat (``MatchJournal.heartbeat``: a checkpoint each 0.5 s)."""
        self._queue.put(_Entry("heartbeat", t_ms=t_ms))

    def flush(self) -> None:
        """Wait until everything queued so far is written."""
        self._queue.join()

    def close(self) -> None:
        """Write what is queued, then stop the thread."""
        self._queue.put(None)
        self._thread.join()

    def _run(self) -> None:
        while True:
            entry = self._queue.get()
            try:
                if entry is None:
                    return
                self._write(entry)
            except (StoreError, ValueError) as error:
                self.errors += 1
                LOG.error("journal: %s entry not written: %s", entry and entry.kind, error)
            finally:
                self._queue.task_done()

    def _write(self, entry: _Entry) -> None:
        if entry.kind == "heartbeat":
            self.journal.heartbeat(entry.t_ms)
        elif entry.kind == "event":
            assert entry.data is not None
            self.journal.append_event(entry.data)
        else:
            assert entry.data is not None
            jpeg = None if entry.image is None else encode_snapshot(entry.image)
            self.journal.append_incident(entry.data, jpeg)
