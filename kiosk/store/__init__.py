"""The match journal: an append-only SQLite record of every event and incident, board snapshots,
a tamper-evident incident hash chain, crash/power-cut restore and ``.mat`` export.

Typical use by the kiosk::

    store = Store()                               # $STATE_DIRECTORY or ~/.local/state/...
    info = store.unfinished()
    if info is None:
        journal = store.new_match({"ruleset": "mso", "length": 7, "players": [...]})
    else:
        journal = store.journal(info.id)
        restored = restore(journal, apply_event, initial_state, pause_at, incidents_of)
    journal.append_entry(                         # every event with the incidents it raised
        encode(event), [NewIncident(encode(incident), encode_snapshot(frame.image))]
    )
    journal.heartbeat(t_ms)                       # on every tick: a checkpoint each 0.5 s
"""

from kiosk.store.canonical import JsonDict, canonical_json
from kiosk.store.chain import NO_SNAPSHOT, BrokenLink, ChainReport
from kiosk.store.errors import (
    CorruptJournalError,
    DamagedJournalError,
    EntryError,
    ForeignDatabaseError,
    NewerSchemaError,
    StoreError,
    UnknownMatchError,
)
from kiosk.store.export import export_mat
from kiosk.store.journal import (
    HEARTBEAT_MS,
    Checkpoint,
    Entry,
    MatchInfo,
    MatchJournal,
    NewIncident,
    Store,
    StoredEntry,
    StoredEvent,
    StoredIncident,
)
from kiosk.store.location import JOURNAL_FILENAME, default_state_dir
from kiosk.store.restore import (
    RECOVERED,
    Raised,
    Reducer,
    ReplayError,
    Restored,
    Resume,
    restore,
)
from kiosk.store.snapshot import decode_snapshot, encode_snapshot

__all__ = [
    "HEARTBEAT_MS",
    "JOURNAL_FILENAME",
    "NO_SNAPSHOT",
    "RECOVERED",
    "BrokenLink",
    "ChainReport",
    "Checkpoint",
    "CorruptJournalError",
    "DamagedJournalError",
    "Entry",
    "EntryError",
    "ForeignDatabaseError",
    "JsonDict",
    "MatchInfo",
    "MatchJournal",
    "NewIncident",
    "NewerSchemaError",
    "Raised",
    "Reducer",
    "ReplayError",
    "Restored",
    "Resume",
    "Store",
    "StoreError",
    "StoredEntry",
    "StoredEvent",
    "StoredIncident",
    "UnknownMatchError",
    "canonical_json",
    "decode_snapshot",
    "default_state_dir",
    "encode_snapshot",
    "export_mat",
    "restore",
]
