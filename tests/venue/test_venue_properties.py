"""Property tests: the outbox against a plain model, and decode's total rejection of bad input."""

from __future__ import annotations

import contextlib
import json
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.venue.outbox import Outbox
from kiosk.venue.schema import MessageError, decode
from kiosk.venue.topics import table_topic
from tests.venue.venue_helpers import EVENT, incident_fields, status_fields

TOPICS = ("a/status", "a/incident", "b/status")
operations = st.lists(
    st.one_of(
        st.tuples(st.just("enqueue"), st.sampled_from(TOPICS), st.integers(0, 15), st.booleans()),
        st.tuples(st.just("deliver"), st.integers(0, 3)),
        st.tuples(st.just("reopen")),
    ),
    max_size=40,
)


@settings(max_examples=60, deadline=None)
@given(operations)
def test_outbox_behaves_like_an_ordered_list(ops: list[tuple[Any, ...]]) -> None:
    model: list[tuple[str, str, bool]] = []  # (msg_id, topic, coalescing), in delivery order
    known: set[str] = set()
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "o.db"
        outbox = Outbox(path)
        for op in ops:
            if op[0] == "enqueue":
                _, topic, number, coalesce = op
                msg_id = f"m-{number}"
                added = outbox.enqueue(topic, msg_id.encode(), msg_id, 0, coalesce=coalesce)
                assert added == (msg_id not in known)
                if added:
                    known.add(msg_id)
                    if coalesce:
                        model = [m for m in model if not (m[1] == topic and m[2])]
                    model.append((msg_id, topic, coalesce))
            elif op[0] == "deliver":
                pending = outbox.pending(10)
                if op[1] < len(pending):
                    outbox.mark_delivered(pending[op[1]].seq, 1)
                    model = [m for m in model if m[0] != pending[op[1]].msg_id]
            else:
                outbox.close()
                outbox = Outbox(path)
            assert [(i.msg_id, i.topic) for i in outbox.pending(100)] == [m[:2] for m in model]
        outbox.close()


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=10,
)
ENVELOPE = {"v": 1, "id": "msg-00000001", "event": EVENT, "table": "t001", "sent_ms": 1}
VALID = {
    "status": {**ENVELOPE, "kind": "status", **status_fields()},
    "incident": {**ENVELOPE, "kind": "incident", **incident_fields("x-1")},
}


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(VALID)), st.data())
def test_a_corrupted_field_is_rejected_cleanly_or_accepted(kind: str, data: st.DataObject) -> None:
    message = json.loads(json.dumps(VALID[kind]))
    field = data.draw(st.sampled_from(sorted(message)))
    message[field] = data.draw(json_values)
    topic = table_topic(EVENT, "t001", kind)  # type: ignore[arg-type]
    try:
        decoded = decode(topic, json.dumps(message).encode())
    except MessageError:
        return
    assert decoded.model_dump(mode="json")[field] == json.loads(json.dumps(message[field]))


@given(st.binary(max_size=300))
def test_arbitrary_bytes_never_escape_as_another_exception(payload: bytes) -> None:
    with contextlib.suppress(MessageError):
        decode(table_topic(EVENT, "t001", "incident"), payload)
