"""The match journal: one SQLite database in the state directory, one journal per match.

Every event the referee receives and every incident it raises is appended in order, as compact
JSON (see :mod:`kiosk.store.canonical`); incidents may carry a JPEG snapshot of the board and are
hash-chained (see :mod:`kiosk.store.chain`). Rows are never updated or deleted (SQL triggers
refuse it). A clock *checkpoint* (heartbeat), written about every 0.5 s while a match runs, tells
a restore how far the clocks had run when the kiosk stopped (see :mod:`kiosk.store.restore`).

Each append is one transaction, committed (and with ``synchronous=FULL`` synced) before the call
returns. An event and the incidents it raised go in together (:meth:`MatchJournal.append_entry`):
a crash never leaves an event journaled without its incidents. Thread-safe; one process writes a
given journal at a time.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from kiosk.store.canonical import JsonDict, canonical_json, check_entry
from kiosk.store.chain import (
    NO_SNAPSHOT,
    ChainReport,
    ChainRow,
    genesis_hash,
    link_document,
    link_hash,
    sha256_hex,
    verify_chain,
)
from kiosk.store.errors import EntryError, StoreError, UnknownMatchError
from kiosk.store.location import JOURNAL_FILENAME, default_state_dir
from kiosk.store.schema import Synchronous, open_database

_JPEG_START = b"\xff\xd8\xff"
_CHUNK = 1000  # events read per query while replaying

HEARTBEAT_MS = 500
"""Interval of the clock heartbeat (:meth:`MatchJournal.heartbeat`): at most this much clock time
goes unaccounted after a crash (the target is 1 s)."""


@dataclass(frozen=True, slots=True)
class MatchInfo:
    """A match in the journal: ``created_ms``/``finished_ms`` are wall-clock Unix ms."""

    id: int
    created_ms: int
    header: JsonDict
    finished_ms: int | None


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """An event as journaled: ``seq`` counts from 1 within the match."""

    seq: int
    event: JsonDict


@dataclass(frozen=True, slots=True)
class StoredIncident:
    """An incident as journaled: its place in the chain (``seq``), the number of events before
    it, its snapshot (None without one) and its chain hash."""

    seq: int
    event_seq: int
    incident: JsonDict
    snapshot_id: int | None
    hash: str


@dataclass(frozen=True, slots=True)
class NewIncident:
    """An incident to journal (a dict with ``kind`` and ``t_ms``) and its optional JPEG snapshot
    (see :func:`kiosk.store.snapshot.encode_snapshot`)."""

    incident: JsonDict
    snapshot_jpeg: bytes | None = None


@dataclass(frozen=True, slots=True)
class Entry:
    """An event (a dict with ``kind`` and ``t_ms``) and the incidents it raised, in order:
    journaled together or not at all."""

    event: JsonDict
    incidents: Sequence[NewIncident] = ()


@dataclass(frozen=True, slots=True)
class StoredEntry:
    """An entry as journaled: the event's ``seq`` and its incidents (``event_seq`` == ``seq``)."""

    seq: int
    incidents: tuple[StoredIncident, ...]


_CheckedEvent = tuple[str, int, str]
"""``(kind, t_ms, JSON text)`` of an event ready to insert."""

_CheckedIncident = tuple[str, int, str, bytes | None, str]
"""``(kind, t_ms, canonical JSON text, JPEG or None, snapshot sha256)`` of an incident."""


def _check_incident(new: NewIncident) -> _CheckedIncident:
    kind, t_ms, body = check_entry(new.incident, "incident", canonical=True)
    jpeg = new.snapshot_jpeg
    if jpeg is None:
        return kind, t_ms, body, None, NO_SNAPSHOT
    if not jpeg.startswith(_JPEG_START):
        raise EntryError(f"incident {kind!r}: the snapshot is not JPEG data")
    return kind, t_ms, body, jpeg, sha256_hex(jpeg)


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """The latest clock heartbeat: match time ``t_ms``, ``event_seq`` events journaled by then."""

    t_ms: int
    event_seq: int


class Store:
    """The journal database ``journal.sqlite3`` in ``state_dir`` (default: see
    :func:`kiosk.store.location.default_state_dir`), created if missing.

    Raises :class:`~kiosk.store.errors.DamagedJournalError` for a file that is not a usable
    journal (left untouched) unless ``set_aside_damaged``, which renames it aside (see
    :attr:`set_aside`) and starts a fresh journal.
    """

    def __init__(
        self,
        state_dir: Path | str | None = None,
        *,
        set_aside_damaged: bool = False,
        synchronous: Synchronous = "FULL",
    ) -> None:
        self.state_dir = default_state_dir() if state_dir is None else Path(state_dir)
        self.path = self.state_dir / JOURNAL_FILENAME
        self._db, aside = open_database(
            self.path, set_aside_damaged=set_aside_damaged, synchronous=synchronous
        )
        self.set_aside: Path | None = aside
        """Where a damaged journal was renamed to when this store started a fresh one."""
        self._lock = threading.Lock()
        self._journals: dict[int, MatchJournal] = {}

    def close(self) -> None:
        """Close the database (checkpointing the WAL into it)."""
        with self._lock:
            self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def new_match(self, header: JsonDict, created_ms: int | None = None) -> MatchJournal:
        """Open the journal of a new match. ``header`` (rule set, length, players, settings...)
        is fixed from now on; ``created_ms`` defaults to the wall clock."""
        created = int(time.time() * 1000) if created_ms is None else created_ms
        header_json = canonical_json(header, "match header")
        with self._lock:
            (match_id,) = self._db.execute(
                "SELECT COALESCE(MAX(id), 0) + 1 FROM matches"
            ).fetchone()
            genesis = genesis_hash(match_id, created, json.loads(header_json))
            self._transaction(
                [
                    (
                        "INSERT INTO matches (id, created_ms, header, genesis) VALUES (?, ?, ?, ?)",
                        (match_id, created, header_json, genesis),
                    )
                ]
            )
        return self.journal(match_id)

    def matches(self) -> list[MatchInfo]:
        """Every match, oldest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id, created_ms, header, finished_ms FROM matches ORDER BY id"
            ).fetchall()
        return [MatchInfo(i, c, json.loads(h), f) for i, c, h, f in rows]

    def unfinished(self) -> MatchInfo | None:
        """The most recent match not marked finished: the one to restore after a restart."""
        unfinished = [info for info in self.matches() if info.finished_ms is None]
        return unfinished[-1] if unfinished else None

    def journal(self, match_id: int) -> MatchJournal:
        """The journal of match ``match_id`` (the same object on every call, so that the sequence
        numbers it hands out stay in step)."""
        with self._lock:
            known = self._journals.get(match_id)
            if known is not None:
                return known
            row = self._db.execute(
                "SELECT id, created_ms, header, finished_ms, genesis FROM matches WHERE id = ?",
                (match_id,),
            ).fetchone()
            if row is None:
                raise UnknownMatchError(f"{self.path}: no match {match_id} in the journal")
            (last_event,) = self._db.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM events WHERE match_id = ?", (match_id,)
            ).fetchone()
            head = self._db.execute(
                "SELECT seq, hash FROM incidents WHERE match_id = ? ORDER BY seq DESC LIMIT 1",
                (match_id,),
            ).fetchone()
            info = MatchInfo(row[0], row[1], json.loads(row[2]), row[3])
            journal = MatchJournal(self, info, last_event, (0, row[4]) if head is None else head)
            self._journals[match_id] = journal
        return journal

    def _transaction(self, statements: Iterable[tuple[str, tuple[object, ...]]]) -> None:
        """Run ``statements`` as one committed transaction (under the lock)."""
        try:
            self._db.execute("BEGIN IMMEDIATE")
            for sql, parameters in statements:
                self._db.execute(sql, parameters)
            self._db.execute("COMMIT")
        except sqlite3.IntegrityError as error:
            self._db.execute("ROLLBACK")
            raise StoreError(f"{self.path}: the journal refused the write ({error})") from error
        except sqlite3.OperationalError as error:  # locked, disk full, I/O error, read-only
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise StoreError(f"{self.path}: cannot write the journal ({error})") from error
        except BaseException:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise


class MatchJournal:
    """The append-only journal of one match; get it from :class:`Store`."""

    def __init__(
        self, store: Store, info: MatchInfo, last_event: int, head: tuple[int, str]
    ) -> None:
        self._store = store
        self._db = store._db
        self.info = info
        self._last_event: int = last_event
        self._head: tuple[int, str] = head
        self._last_beat: int | None = None

    @property
    def state_dir(self) -> Path:
        """The state directory holding the journal."""
        return self._store.state_dir

    @property
    def match_id(self) -> int:
        """The match's id in the journal."""
        return self.info.id

    @property
    def event_count(self) -> int:
        """Events journaled so far (the ``seq`` of the last)."""
        return self._last_event

    @property
    def head(self) -> tuple[int, str]:
        """``(count, hash)`` of the last incident: publish it off the kiosk to detect a
        truncated chain later (see :meth:`verify`)."""
        return self._head

    def append_event(self, event: JsonDict) -> int:
        """Journal one event (a dict with ``kind`` and ``t_ms``); returns its ``seq``."""
        return self.append_events([event])[-1]

    def append_events(self, events: Iterable[JsonDict]) -> list[int]:
        """Journal several events in one transaction (all or none); returns their ``seq``s."""
        entries = [Entry(event) for event in events]
        if not entries:
            raise EntryError("append_events: no events given")
        return [stored.seq for stored in self.append_entries(entries)]

    def append_entry(self, event: JsonDict, incidents: Sequence[NewIncident] = ()) -> StoredEntry:
        """Journal an event and the incidents it raised in one transaction: after a crash the
        journal holds both or neither. Each incident's ``event_seq`` is the event's ``seq``."""
        return self.append_entries([Entry(event, incidents)])[0]

    def append_entries(self, entries: Iterable[Entry]) -> list[StoredEntry]:
        """Journal several events, each followed by its incidents, in one transaction (all or
        none)."""
        checked = [
            (
                check_entry(entry.event, "event", canonical=False),
                [_check_incident(incident) for incident in entry.incidents],
            )
            for entry in entries
        ]
        if not checked:
            raise EntryError("append_entries: no entries given")
        return self._append(checked)

    def append_incident(
        self, incident: JsonDict, snapshot_jpeg: bytes | None = None
    ) -> StoredIncident:
        """Journal an incident (a dict with ``kind`` and ``t_ms``) with an optional JPEG snapshot
        (see :func:`kiosk.store.snapshot.encode_snapshot`), sealed into the hash chain after the
        events journaled so far. An incident an event raised goes with it: :meth:`append_entry`.
        """
        checked = _check_incident(NewIncident(incident, snapshot_jpeg))
        return self._append([(None, [checked])])[0].incidents[0]

    def _append(
        self, entries: Sequence[tuple[_CheckedEvent | None, Sequence[_CheckedIncident]]]
    ) -> list[StoredEntry]:
        """Insert checked ``entries`` (an event, or None for incidents alone, then incidents)
        in one transaction, sealing each incident into the chain; the journal's counters move
        only once it committed."""
        statements: list[tuple[str, tuple[object, ...]]] = []
        stored: list[StoredEntry] = []
        with self._store._lock:
            event_seq, (seq, digest) = self._last_event, self._head
            snapshot_id: int | None = None  # the last snapshot id, read at the first snapshot
            for event, incidents in entries:
                if event is not None:
                    event_seq += 1
                    statements.append(
                        (
                            "INSERT INTO events (match_id, seq, kind, t_ms, body)"
                            " VALUES (?, ?, ?, ?, ?)",
                            (self.match_id, event_seq, *event),
                        )
                    )
                sealed: list[StoredIncident] = []
                for kind, t_ms, body, jpeg, snapshot_sha in incidents:
                    prev, seq = digest, seq + 1
                    digest = link_hash(prev, link_document(seq, event_seq, body), snapshot_sha)
                    stored_snapshot = None
                    if jpeg is not None:
                        if snapshot_id is None:
                            (snapshot_id,) = self._db.execute(
                                "SELECT COALESCE(MAX(id), 0) FROM snapshots"
                            ).fetchone()
                        snapshot_id = stored_snapshot = snapshot_id + 1
                        statements.append(
                            (
                                "INSERT INTO snapshots (id, match_id, jpeg) VALUES (?, ?, ?)",
                                (snapshot_id, self.match_id, jpeg),
                            )
                        )
                    statements.append(
                        (
                            "INSERT INTO incidents (match_id, seq, event_seq, kind, t_ms, body,"
                            " snapshot_id, snapshot_sha256, prev_hash, hash)"
                            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                            (
                                self.match_id,
                                seq,
                                event_seq,
                                kind,
                                t_ms,
                                body,
                                stored_snapshot,
                                snapshot_sha,
                                prev,
                                digest,
                            ),
                        )
                    )
                    sealed.append(
                        StoredIncident(seq, event_seq, json.loads(body), stored_snapshot, digest)
                    )
                stored.append(StoredEntry(event_seq, tuple(sealed)))
            self._store._transaction(statements)
            self._last_event, self._head = event_seq, (seq, digest)
        return stored

    def checkpoint(self, t_ms: int) -> None:
        """Record that the kiosk was running at match time ``t_ms`` (the clock heartbeat; call it
        about every 0.5 s). A checkpoint earlier than the last one is ignored."""
        if not isinstance(t_ms, int) or isinstance(t_ms, bool):
            raise EntryError(f"checkpoint: 't_ms' must be an integer (ms), got {t_ms!r}")
        with self._store._lock:
            self._store._transaction(
                [
                    (
                        "INSERT INTO checkpoints (match_id, t_ms, event_seq) VALUES (?, ?, ?)"
                        " ON CONFLICT (match_id) DO UPDATE SET t_ms = excluded.t_ms,"
                        " event_seq = excluded.event_seq WHERE excluded.t_ms >= t_ms",
                        (self.match_id, t_ms, self._last_event),
                    )
                ]
            )

    def heartbeat(self, t_ms: int) -> bool:
        """Checkpoint at ``t_ms`` if :data:`HEARTBEAT_MS` have passed since the last heartbeat;
        call it on every tick. True when a checkpoint was written."""
        if self._last_beat is not None and t_ms - self._last_beat < HEARTBEAT_MS:
            return False
        self.checkpoint(t_ms)
        self._last_beat = t_ms
        return True

    def last_checkpoint(self) -> Checkpoint | None:
        """The latest clock heartbeat, or None before the first."""
        with self._store._lock:
            row = self._db.execute(
                "SELECT t_ms, event_seq FROM checkpoints WHERE match_id = ?", (self.match_id,)
            ).fetchone()
        return None if row is None else Checkpoint(row[0], row[1])

    def events(self, after_seq: int = 0) -> list[StoredEvent]:
        """The events with ``seq > after_seq``, in order."""
        return list(self.iter_events(after_seq))

    def iter_events(self, after_seq: int = 0) -> Iterator[StoredEvent]:
        """The events with ``seq > after_seq``, in order, read in chunks: a long match is
        replayed without holding all of it in memory."""
        last = after_seq
        while True:
            with self._store._lock:
                rows = self._db.execute(
                    "SELECT seq, body FROM events WHERE match_id = ? AND seq > ?"
                    " ORDER BY seq LIMIT ?",
                    (self.match_id, last, _CHUNK),
                ).fetchall()
            for seq, body in rows:
                yield StoredEvent(seq, json.loads(body))
            if len(rows) < _CHUNK:
                return
            last = rows[-1][0]

    def incidents(self) -> list[StoredIncident]:
        """Every incident, in chain order."""
        with self._store._lock:
            rows = self._db.execute(
                "SELECT seq, event_seq, body, snapshot_id, hash FROM incidents"
                " WHERE match_id = ? ORDER BY seq",
                (self.match_id,),
            ).fetchall()
        return [StoredIncident(s, e, json.loads(b), i, h) for s, e, b, i, h in rows]

    def snapshot(self, snapshot_id: int) -> bytes:
        """The JPEG bytes of a snapshot of this match."""
        with self._store._lock:
            row = self._db.execute(
                "SELECT CAST(jpeg AS BLOB) FROM snapshots WHERE id = ? AND match_id = ?",
                (snapshot_id, self.match_id),
            ).fetchone()
        if row is None:
            raise UnknownMatchError(f"match {self.match_id} has no snapshot {snapshot_id}")
        return bytes(row[0])

    def verify(self, expected_head: tuple[int, str] | None = None) -> ChainReport:
        """Check the incident chain from the match header on; the report names the first broken
        link. ``expected_head`` is a ``head`` published earlier (detects deleted last incidents).
        """
        with self._store._lock:
            # A tampered row may hold anything: read text leniently (bad UTF-8 then fails its
            # hash instead of crashing the verifier) and snapshots as bytes whatever their type.
            self._db.text_factory = _lenient_text
            try:
                created_ms, header, genesis = self._db.execute(
                    "SELECT created_ms, header, genesis FROM matches WHERE id = ?",
                    (self.match_id,),
                ).fetchone()
                rows = self._db.execute(
                    "SELECT i.seq, i.event_seq, i.kind, i.t_ms, i.body, i.snapshot_sha256,"
                    " CAST(s.jpeg AS BLOB), i.prev_hash, i.hash FROM incidents i"
                    " LEFT JOIN snapshots s ON s.id = i.snapshot_id AND s.match_id = i.match_id"
                    " WHERE i.match_id = ? ORDER BY i.seq",
                    (self.match_id,),
                ).fetchall()
            finally:
                self._db.text_factory = str
        try:
            expected_genesis = genesis_hash(self.match_id, created_ms, json.loads(header))
        except (json.JSONDecodeError, EntryError):
            expected_genesis = "the match header is not valid JSON"
        chain = (
            ChainRow(s, e, k, t, b, sha, None if jpeg is None else sha256_hex(jpeg), p, h)
            for s, e, k, t, b, sha, jpeg, p, h in rows
        )
        return verify_chain(expected_genesis, genesis, chain, expected_head)

    def finish(self, finished_ms: int | None = None) -> None:
        """Mark the match finished (wall-clock Unix ms, default now): it is no longer restored."""
        finished = int(time.time() * 1000) if finished_ms is None else finished_ms
        with self._store._lock:
            self._store._transaction(
                [("UPDATE matches SET finished_ms = ? WHERE id = ?", (finished, self.match_id))]
            )
        self.info = MatchInfo(self.info.id, self.info.created_ms, self.info.header, finished)


def _lenient_text(data: bytes) -> str:
    return data.decode("utf-8", errors="replace")
