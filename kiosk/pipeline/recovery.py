"""Starting a match in the journal, or restoring the unfinished one after a crash or power cut.

The journal's header keeps the table's configuration (``kiosk.referee.codec``) and the players'
names, so a restart restores the match as it was, whatever the command line says now. Replaying
the journaled events through the pure referee gives the exact state (``kiosk.store.restore``);
then the clocks are charged up to the last heartbeat and paused with the clock's centre button
(MSO-clock 4.1(e)): the players restart them. Match time then continues from ``alive_t_ms``.
Incidents the replay raised that the journal lacks (a journal written before events and their
incidents were committed together) are journaled again, marked recovered (``kiosk.store.restore``).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

from kiosk.referee import (
    BoardRead,
    BoardReading,
    ClockPress,
    DiceRead,
    DieSeen,
    GinJudge,
    RefereeConfig,
    RefereeState,
    Tick,
    new_referee,
)
from kiosk.referee import step as referee_step
from kiosk.referee.codec import (
    CodecError,
    config_from_json,
    config_to_json,
    event_from_json,
    event_to_json,
    incident_to_json,
)
from kiosk.store import JsonDict, MatchJournal, Reducer, Store, StoreError, restore

LOG = logging.getLogger("kiosk.pipeline")


@dataclass(frozen=True)
class OpenedMatch:
    """A match ready to go on: the referee's state, its journal, the players' names, the match
    time to continue from (ms) and whether it was restored from the journal."""

    state: RefereeState
    journal: MatchJournal
    names: tuple[str, str]
    t_ms: int
    restored: bool


def match_header(config: RefereeConfig, names: tuple[str, str], source: str) -> JsonDict:
    """The journal header of a new match: configuration, players and the camera source."""
    return {"config": config_to_json(config), "players": list(names), "source": source}


def reducer(gin: GinJudge | None) -> Reducer[RefereeState]:
    """The journal's events folded through the referee."""

    def apply(state: RefereeState, data: JsonDict) -> RefereeState:
        return referee_step(state, event_from_json(data), gin).state

    return apply


def raised_incidents(state: RefereeState, start: int) -> Sequence[JsonDict]:
    """The referee's incidents from number ``start`` on (0-based), as the journal keeps them."""
    return [incident_to_json(incident) for incident in state.incidents[start:]]


def pause_events(state: RefereeState, alive_t_ms: int) -> Sequence[JsonDict]:
    """Charge the running clock up to ``alive_t_ms`` and stop it (the kiosk was down)."""
    events: list[JsonDict] = [event_to_json(Tick(alive_t_ms))]
    if state.clock is not None and state.clock.running is not None:
        events.append(event_to_json(ClockPress("centre", alive_t_ms)))
    return events


def last_readings(journal: MatchJournal) -> tuple[BoardReading | None, tuple[DieSeen, ...]]:
    """The last board and dice readings the journal kept (None and no dice: none yet): where a
    restored kiosk's settler goes on from (``FramePipeline.resume``)."""
    board: BoardReading | None = None
    dice: tuple[DieSeen, ...] = ()
    for stored in journal.iter_events():
        if stored.event.get("kind") not in ("board_read", "dice_read"):
            continue
        event = event_from_json(stored.event)
        if isinstance(event, BoardRead):
            board = event.reading
        elif isinstance(event, DiceRead):
            dice = event.dice
    return board, dice


def _header_config(info_header: JsonDict, where: str) -> tuple[RefereeConfig, tuple[str, str]]:
    try:
        config = config_from_json(info_header["config"], f"{where}.config")
        names = info_header["players"]
        return config, (str(names[0]), str(names[1]))
    except (KeyError, IndexError, TypeError, CodecError) as error:
        raise StoreError(f"{where}: not a kiosk match header ({error})") from None


def open_match(
    store: Store,
    config: RefereeConfig,
    names: tuple[str, str],
    source: str,
    gin: GinJudge | None = None,
    *,
    resume: bool = True,
) -> OpenedMatch:
    """The unfinished match restored (``resume``), else a new match with ``config``."""
    info = store.unfinished() if resume else None
    if info is None:
        journal = store.new_match(match_header(config, names, source))
        return OpenedMatch(new_referee(config), journal, names, 0, restored=False)
    config, names = _header_config(info.header, f"{store.path}: match {info.id} header")
    journal = store.journal(info.id)
    restored = restore(journal, reducer(gin), new_referee(config), pause_events, raised_incidents)
    if restored.recovered:
        LOG.warning(
            "match %d: %d incidents missing from the journal were journaled again (recovered)",
            info.id,
            len(restored.recovered),
        )
    alive = restored.alive_t_ms or 0
    return OpenedMatch(restored.state, journal, names, alive, restored=True)
