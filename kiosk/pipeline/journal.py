"""Journaling off the press path: a thread appends events and incidents (with JPEG snapshots)
to the match journal, so that a press or a reading never waits for SQLite's fsync.

An event and the incidents queued after it (those it raised, see ``JournalSink``) are one entry,
committed in one transaction (``MatchJournal.append_entry``): a crash never journals an event
without its incidents. The entry is complete, and handed to the thread, at the next event,
heartbeat, :meth:`JournalWriter.flush` or :meth:`JournalWriter.close`. Entries are appended in
the order they were queued. A store error is logged and counted, never raised into the UI loop;
:meth:`JournalWriter.close` drains the queue before returning. Queue from one thread (the UI's).
"""

from __future__ import annotations

import logging
import queue
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from kiosk.store import JsonDict, MatchJournal, NewIncident, StoreError, encode_snapshot

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Image = npt.NDArray[np.uint8]

LOG = logging.getLogger("kiosk.pipeline")


@dataclass
class _Entry:
    """An event (None: incidents queued before any event) and its incidents with their frames."""

    event: JsonDict | None
    incidents: list[tuple[JsonDict, Image | None]] = field(default_factory=list)


@dataclass(frozen=True)
class _Heartbeat:
    t_ms: int


class JournalWriter:
    """Appends to ``journal`` on its own thread."""

    def __init__(self, journal: MatchJournal) -> None:
        self.journal = journal
        self.errors = 0
        self._open: _Entry | None = None
        self._queue: queue.Queue[_Entry | _Heartbeat | None] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="journal", daemon=True)
        self._thread.start()

    def event(self, data: JsonDict) -> None:
        """Start the entry of one event (``kiosk.referee.codec`` JSON)."""
        self._hand_over()
        self._open = _Entry(data)

    def incident(self, data: JsonDict, image: Image | None) -> None:
        """Add an incident the entry's event raised, with the frame to keep as its snapshot
        (None: no frame yet)."""
        if self._open is None:
            self._open = _Entry(None)
        self._open.incidents.append((data, image))

    def heartbeat(self, t_ms: int) -> None:
        """Queue a clock heartbeat (``MatchJournal.heartbeat``: a checkpoint each 0.5 s), after
        the entry in progress."""
        self._hand_over()
        self._queue.put(_Heartbeat(t_ms))

    def flush(self) -> None:
        """Wait until everything given so far is written."""
        self._hand_over()
        self._queue.join()

    def close(self) -> None:
        """Write what was given, then stop the thread."""
        self._hand_over()
        self._queue.put(None)
        self._thread.join()

    def _hand_over(self) -> None:
        """Queue the entry in progress: it is complete."""
        if self._open is not None:
            self._queue.put(self._open)
            self._open = None

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            try:
                if item is None:
                    return
                self._write(item)
            except (StoreError, ValueError) as error:
                self.errors += 1
                what = "heartbeat" if isinstance(item, _Heartbeat) else "entry"
                LOG.error("journal: %s not written: %s", what, error)
            finally:
                self._queue.task_done()

    def _write(self, item: _Entry | _Heartbeat) -> None:
        if isinstance(item, _Heartbeat):
            self.journal.heartbeat(item.t_ms)
            return
        incidents = [NewIncident(data, self._snapshot(image)) for data, image in item.incidents]
        if item.event is not None:
            self.journal.append_entry(item.event, incidents)
            return
        for incident in incidents:
            self.journal.append_incident(incident.incident, incident.snapshot_jpeg)

    def _snapshot(self, image: Image | None) -> bytes | None:
        """The frame's JPEG; a frame that cannot be encoded is logged and counted, and the
        incident kept without it rather than losing the entry."""
        if image is None:
            return None
        try:
            return encode_snapshot(image)
        except StoreError as error:
            self.errors += 1
            LOG.error("journal: incident snapshot not kept: %s", error)
            return None
