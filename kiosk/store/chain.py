"""The incident hash chain: each incident is sealed to the one before it, so that an edited,
inserted, reordered or deleted incident (or snapshot) is detected on appeal.

For incident number ``seq`` (1, 2, ... within a match)::

    hash = sha256_hex(prev_hash + document + snapshot_sha256)

``prev_hash`` is the previous incident's ``hash``; for the first it is the match's *genesis*,
``sha256_hex("gammon-kiosk incident chain 1\\n" + canonical JSON of
{"created_ms": ..., "header": ..., "match": id})``. ``document`` is the canonical JSON (see
:mod:`kiosk.store.canonical`) of ``{"event_seq": e, "incident": incident, "seq": seq}``, where
``e`` is the number of events journaled before the incident. ``snapshot_sha256`` is the SHA-256
of the JPEG bytes of the incident's snapshot, or 64 zeros without one. All hashes are lower-case
hex; strings are UTF-8 encoded. An auditor can recompute the chain with these lines alone.

Deleting the *last* incidents leaves a shorter chain that still links: publish
:attr:`ChainReport.head` (count and hash) off the kiosk (the venue, the director's sheet) and pass
it back to :func:`verify_chain` to detect that too.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass

from kiosk.store.canonical import JsonDict, canonical_json

NO_SNAPSHOT = "0" * 64
"""The snapshot hash of an incident without a snapshot."""

_GENESIS_PREFIX = "gammon-kiosk incident chain 1\n"


def sha256_hex(data: bytes) -> str:
    """Lower-case hex SHA-256 of ``data``."""
    return hashlib.sha256(data).hexdigest()


def genesis_hash(match_id: int, created_ms: int, header: JsonDict) -> str:
    """The ``prev_hash`` of a match's first incident: binds the chain to the match header."""
    document = canonical_json({"created_ms": created_ms, "header": header, "match": match_id})
    return sha256_hex((_GENESIS_PREFIX + document).encode("utf-8"))


def link_document(seq: int, event_seq: int, incident_json: str) -> str:
    """Canonical JSON of ``{"event_seq": event_seq, "incident": ..., "seq": seq}`` built from the
    incident's canonical JSON text (keys already in sorted order)."""
    return f'{{"event_seq":{event_seq},"incident":{incident_json},"seq":{seq}}}'


def link_hash(prev_hash: str, document: str, snapshot_sha256: str) -> str:
    """The hash sealing one incident."""
    return sha256_hex((prev_hash + document + snapshot_sha256).encode("utf-8"))


@dataclass(frozen=True, slots=True)
class ChainRow:
    """One stored incident as the verifier sees it.

    ``snapshot_sha256`` is the hash recorded in the row (``NO_SNAPSHOT`` without a snapshot);
    ``snapshot_actual`` the hash of the JPEG bytes found in the journal, None if missing.
    """

    seq: int
    event_seq: int
    kind: str
    t_ms: int
    body: str
    snapshot_sha256: str
    snapshot_actual: str | None
    prev_hash: str
    hash: str


@dataclass(frozen=True, slots=True)
class BrokenLink:
    """The first incident that fails verification (``seq`` 0: the match header) and why."""

    seq: int
    reason: str


@dataclass(frozen=True, slots=True)
class ChainReport:
    """The result of a verification: ``head`` is ``(count, hash)`` of the last good incident
    (``(0, genesis)`` for an empty chain); ``broken`` is None when everything verified."""

    head: tuple[int, str]
    broken: BrokenLink | None

    @property
    def ok(self) -> bool:
        """True when the whole chain verified."""
        return self.broken is None


def verify_chain(
    genesis: str,
    recorded_genesis: str,
    rows: Iterable[ChainRow],
    expected_head: tuple[int, str] | None = None,
) -> ChainReport:
    """Check every link in order and report the first broken one.

    ``genesis`` is recomputed from the match header, ``recorded_genesis`` what the journal stored;
    ``rows`` come in ``seq`` order. ``expected_head`` is a ``(count, hash)`` published earlier:
    the chain must contain it (a shorter chain or a different hash at that count is broken).
    """
    if genesis != recorded_genesis:
        reason = "the match header was changed after the match was opened (genesis hash differs)"
        return ChainReport((0, recorded_genesis), BrokenLink(0, reason))
    head = (0, genesis)
    for row in rows:
        if row.seq != head[0] + 1:
            missing = f"incident {head[0] + 1} is missing or out of place (found {row.seq!r} next)"
            return ChainReport(head, BrokenLink(head[0] + 1, missing))
        problem = _check_row(row, head[1])
        if problem is not None:
            return ChainReport(head, BrokenLink(row.seq, problem))
        head = (row.seq, row.hash)
        if expected_head is not None and head[0] == expected_head[0] and head != expected_head:
            rewritten = (
                f"hash differs from the published head {expected_head[1]}: this incident or an "
                "earlier one was rewritten with the chain recomputed"
            )
            return ChainReport(head, BrokenLink(row.seq, rewritten))
    if expected_head is not None and head[0] < expected_head[0]:
        reason = f"incidents {head[0] + 1}..{expected_head[0]} are missing (published head)"
        return ChainReport(head, BrokenLink(head[0] + 1, reason))
    return ChainReport(head, None)


def _check_row(row: ChainRow, prev: str) -> str | None:
    """Why ``row`` does not follow the incident whose hash is ``prev``, or None when it does."""
    if row.prev_hash != prev:
        before = "the match header's genesis" if row.seq == 1 else f"incident {row.seq - 1}"
        return f"prev_hash does not match the hash of {before}"
    try:
        incident = json.loads(row.body)
    except json.JSONDecodeError as error:
        return f"incident text is not valid JSON ({error.msg})"
    if not isinstance(incident, dict) or (incident.get("kind"), incident.get("t_ms")) != (
        row.kind,
        row.t_ms,
    ):
        return "the kind/t_ms columns disagree with the incident text"
    if row.snapshot_sha256 != NO_SNAPSHOT:
        if row.snapshot_actual is None:
            return "its snapshot is missing"
        if row.snapshot_actual != row.snapshot_sha256:
            return "its snapshot's JPEG bytes were changed (sha256 differs)"
    document = link_document(row.seq, row.event_seq, row.body)
    if link_hash(row.prev_hash, document, row.snapshot_sha256) != row.hash:
        return "the incident was changed after it was recorded (hash differs)"
    return None
