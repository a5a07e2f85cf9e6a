"""The incident hash chain: recomputable by an auditor, and every tampering is reported at the
first incident it affects."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.store import NO_SNAPSHOT, MatchJournal, Store, canonical_json
from kiosk.store.chain import link_document, link_hash

HEADER = {"ruleset": "jbl", "length": 5}
FAKE_JPEG = b"\xff\xd8\xff\xe0" + bytes(range(40))


def _journal(directory: Path, incidents: int, snapshots: bool = True) -> MatchJournal:
    """A match with ``incidents`` incidents (snapshots on odd seqs), each after one event."""
    store = Store(directory, synchronous="NORMAL")
    journal = store.new_match(HEADER, created_ms=123)
    for i in range(incidents):
        journal.append_event({"kind": "press", "t_ms": i, "side": i % 2})
        snapshot = FAKE_JPEG + bytes([i]) if snapshots and i % 2 == 0 else None
        journal.append_incident({"kind": "illegal_move", "t_ms": i, "n": i}, snapshot)
    return journal


def _raw(journal: MatchJournal) -> sqlite3.Connection:
    """A connection to the journal's database without the append-only triggers, as someone
    holding the SD card could make."""
    raw = sqlite3.connect(journal.state_dir / "journal.sqlite3", isolation_level=None)
    triggers = raw.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall()
    for (trigger,) in triggers:
        raw.execute(f"DROP TRIGGER {trigger}")
    return raw


def _tamper(journal: MatchJournal, *statements: str) -> None:
    """Edit the database behind the journal's back."""
    raw = _raw(journal)
    for sql in statements:
        raw.execute(sql)
    raw.close()


def test_an_auditor_recomputes_the_chain_from_the_documented_recipe(tmp_path: Path) -> None:
    journal = _journal(tmp_path, 4)
    info = journal.info
    header_doc = {"created_ms": info.created_ms, "header": info.header, "match": info.id}
    previous = hashlib.sha256(
        (
            "gammon-kiosk incident chain 1\n"
            + json.dumps(header_doc, sort_keys=True, separators=(",", ":"))
        ).encode()
    ).hexdigest()
    for stored in journal.incidents():
        document = {"event_seq": stored.event_seq, "incident": stored.incident, "seq": stored.seq}
        text = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        snapshot = (
            NO_SNAPSHOT
            if stored.snapshot_id is None
            else hashlib.sha256(journal.snapshot(stored.snapshot_id)).hexdigest()
        )
        previous = hashlib.sha256((previous + text + snapshot).encode()).hexdigest()
        assert stored.hash == previous
    assert journal.verify().head == (4, previous)


@given(
    st.integers(0, 10**6),
    st.integers(0, 50),
    st.dictionaries(
        st.text(max_size=5),
        st.recursive(
            st.none()
            | st.booleans()
            | st.integers()
            | st.text(max_size=5)
            | st.floats(allow_nan=False, allow_infinity=False),
            lambda inner: (
                st.lists(inner, max_size=3)
                | st.dictionaries(st.text(max_size=3), inner, max_size=3)
            ),
            max_leaves=8,
        ),
        max_size=4,
    ),
)
def test_link_document_is_the_canonical_json_of_the_linked_incident(
    seq: int, event_seq: int, payload: dict[str, object]
) -> None:
    incident = {**payload, "kind": "k", "t_ms": 1}
    expected = canonical_json({"event_seq": event_seq, "incident": incident, "seq": seq})
    assert link_document(seq, event_seq, canonical_json(incident)) == expected


def test_an_untouched_chain_verifies(tmp_path: Path) -> None:
    journal = _journal(tmp_path, 5)
    report = journal.verify()
    assert report.ok
    assert report.head == journal.head
    assert journal.verify(expected_head=journal.head).ok


def test_an_empty_chain_verifies_from_the_match_header(tmp_path: Path) -> None:
    journal = _journal(tmp_path, 0)
    assert journal.verify().ok
    assert journal.verify().head == journal.head


TAMPERINGS = [
    ("UPDATE incidents SET body = replace(body, '\"n\":2', '\"n\":9') WHERE seq = 3", 3, "changed"),
    ("UPDATE incidents SET kind = 'nothing' WHERE seq = 2", 2, "columns disagree"),
    ("UPDATE snapshots SET jpeg = jpeg || x'00' WHERE id = 2", 3, "snapshot's JPEG bytes"),
    ("DELETE FROM snapshots WHERE id = 1", 1, "snapshot is missing"),
    ("UPDATE incidents SET snapshot_sha256 = '" + NO_SNAPSHOT + "' WHERE seq = 1", 1, "changed"),
    ("DELETE FROM incidents WHERE seq = 2", 2, "incident 2 is missing"),
    ("UPDATE incidents SET event_seq = 0 WHERE seq = 4", 4, "changed"),
    ("UPDATE incidents SET body = 'garbage' WHERE seq = 5", 5, "not valid JSON"),
    ("UPDATE incidents SET body = CAST(x'ff7b7d' AS TEXT) WHERE seq = 5", 5, "not valid JSON"),
    ("UPDATE incidents SET t_ms = 'late' WHERE seq = 2", 2, "columns disagree"),
    ('UPDATE matches SET header = \'{"ruleset":"mso","length":5}\'', 0, "header was changed"),
]


@pytest.mark.parametrize(("sql", "seq", "reason"), TAMPERINGS)
def test_tampering_is_reported_at_the_first_affected_incident(
    tmp_path: Path, sql: str, seq: int, reason: str
) -> None:
    journal = _journal(tmp_path, 6)
    _tamper(journal, sql)
    report = journal.verify()
    assert report.broken is not None
    assert (report.broken.seq, reason in report.broken.reason) == (seq, True), report.broken


def test_swapped_incidents_break_the_chain_at_the_first(tmp_path: Path) -> None:
    journal = _journal(tmp_path, 4)
    _tamper(
        journal,
        "UPDATE incidents SET seq = -1 WHERE seq = 2",
        "UPDATE incidents SET seq = 2 WHERE seq = 3",
        "UPDATE incidents SET seq = 3 WHERE seq = -1",
    )
    broken = journal.verify().broken
    assert broken is not None
    assert (broken.seq, broken.reason) == (2, "prev_hash does not match the hash of incident 1")


def test_deleting_the_last_incidents_is_caught_by_the_published_head(tmp_path: Path) -> None:
    journal = _journal(tmp_path, 5)
    published = journal.head
    _tamper(journal, "DELETE FROM incidents WHERE seq >= 4")
    assert journal.verify().ok  # a shorter chain alone still links...
    broken = journal.verify(expected_head=published).broken
    assert broken is not None  # ...but not to what was published
    assert (broken.seq, "incidents 4..5 are missing" in broken.reason) == (4, True)


def test_a_recomputed_chain_is_caught_by_the_published_head(tmp_path: Path) -> None:
    journal = _journal(tmp_path, 3, snapshots=False)
    published = journal.head
    raw = _raw(journal)
    (previous,) = raw.execute("SELECT genesis FROM matches").fetchone()
    rows = raw.execute("SELECT seq, event_seq, body FROM incidents ORDER BY seq").fetchall()
    for seq, event_seq, body in rows:  # forge incident 3 and reseal the whole chain
        forged = body.replace('"n":2', '"n":7')
        digest = link_hash(previous, link_document(seq, event_seq, forged), NO_SNAPSHOT)
        raw.execute(
            "UPDATE incidents SET body = ?, prev_hash = ?, hash = ? WHERE seq = ?",
            (forged, previous, digest, seq),
        )
        previous = digest
    raw.close()
    assert journal.verify().ok  # every link checks out...
    broken = journal.verify(expected_head=published).broken
    assert broken is not None  # ...but the head is not the one published
    assert (broken.seq, "published head" in broken.reason) == (3, True)


@settings(max_examples=25, deadline=None)
@given(
    count=st.integers(1, 8),
    data=st.data(),
)
def test_any_single_change_is_reported_at_or_before_the_changed_incident(
    count: int, data: st.DataObject
) -> None:
    target = data.draw(st.integers(1, count), label="target")
    change = data.draw(
        st.sampled_from(["body", "hash", "prev", "snapshot", "delete"]), label="change"
    )
    with tempfile.TemporaryDirectory() as directory:
        journal = _journal(Path(directory), count)
        published = journal.head
        if change == "snapshot" and target % 2 == 0:
            target -= 1  # odd seqs (even i) carry snapshots
        sql = {
            "body": "UPDATE incidents SET body = replace(body, '\"n\":', '\"n\":1')"
            f" WHERE seq = {target}",
            "hash": f"UPDATE incidents SET hash = '{'f' * 64}' WHERE seq = {target}",
            "prev": f"UPDATE incidents SET prev_hash = '{'e' * 64}' WHERE seq = {target}",
            "snapshot": "UPDATE snapshots SET jpeg = jpeg || x'01' WHERE id ="
            f" (SELECT snapshot_id FROM incidents WHERE seq = {target})",
            "delete": f"DELETE FROM incidents WHERE seq = {target}",
        }[change]
        _tamper(journal, sql)
        report = journal.verify(expected_head=published)
    assert report.broken is not None
    assert report.broken.seq == target
