"""The monitored match: the referee stepped by every event, journaled after the step, and the
screens' snapshot dicts built from its views (``kiosk.app.referee_adapter``).

A press only switches the clocks; the play it ends is judged by the referee on the next event
(``kiosk.referee.turns.settle``). :meth:`MonitoredMatch.judge` sends that event (a ``Tick``) on the
UI frame after the press, so the verdict follows within one screen frame even when the camera
has nothing new to say.

Events reach the referee in arrival order: an event stamped before the last one (a reading that
took longer than a press, say) is stamped with the last event's time, so the referee never sees
time go backwards. Every incident is journaled with the latest camera frame as its snapshot, in
the same transaction as the event that raised it (``JournalWriter``, ``MatchJournal.append_entry``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from kiosk.app.referee_adapter import Json, Seating, director_snapshot, table_snapshot
from kiosk.referee import ClockPress, Event, GinJudge, Incident, RefereeState, Tick, step
from kiosk.referee.codec import event_to_json, incident_to_json
from kiosk.referee.view import director_view, players_view
from kiosk.store import JsonDict

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Image = npt.NDArray[np.uint8]


class JournalSink(Protocol):
    """Where the match's record goes (``JournalWriter``).

    ``event`` starts an event's entry; the ``incident`` calls that follow are the incidents it
    raised, with the frame for their snapshot; the entry is complete at the next ``event`` or
    ``heartbeat`` (the kiosk runs at ``t_ms``), so that a sink may commit it as one.
    """

    def event(self, data: JsonDict) -> None: ...

    def incident(self, data: JsonDict, image: Image | None) -> None: ...

    def heartbeat(self, t_ms: int) -> None: ...


class MonitoredMatch:
    """The referee's state for one match, with its journal and the players' names."""

    def __init__(
        self,
        state: RefereeState,
        journal: JournalSink,
        names: tuple[str, str] = ("Player 0", "Player 1"),
        gin: GinJudge | None = None,
    ) -> None:
        self.state = state
        self.journal = journal
        self.gin = gin
        self.seating = Seating(state.config, names)
        self.image: Image | None = None
        """The latest camera frame, kept as the snapshot of the next incidents."""
        self.version = 0
        """Counts the events applied: a screen redraws the director's view when it changes."""
        self._judge_due = False

    def apply(self, event: Event) -> tuple[Incident, ...]:
        """Step the referee with ``event``, then journal the event and its incidents as one entry,
        completed by a heartbeat at the event's time so that it is written at once."""
        if event.t_ms < self.state.t_ms:
            event = dataclasses.replace(event, t_ms=self.state.t_ms)
        result = step(self.state, event, self.gin)
        self.state = result.state
        self.version += 1
        self._judge_due = self._judge_due or isinstance(event, ClockPress)
        self.journal.event(event_to_json(event))
        for incident in result.incidents:
            self.journal.incident(incident_to_json(incident), self.image)
        self.journal.heartbeat(event.t_ms)
        return result.incidents

    def apply_all(self, events: Sequence[Event]) -> tuple[Incident, ...]:
        """Apply ``events`` in order; all the incidents they raised."""
        raised: list[Incident] = []
        for event in events:
            raised.extend(self.apply(event))
        return tuple(raised)

    def judge(self, t_ms: int) -> tuple[Incident, ...]:
        """Judge the play the last press ended, if no event has done it yet (once per press)."""
        if not self._judge_due:
            return ()
        self._judge_due = False
        if self.state.game.pending is None:
            return ()
        return self.apply(Tick(t_ms))

    def table(self, t_ms: int) -> Json:
        """The table snapshot at ``t_ms`` (the clocks as they run then)."""
        view = players_view(self.state, max(t_ms, self.state.t_ms))
        allowance_ms = self.state.rules.clock.delay_s * 1000
        dice = self.state.game.dice_seen
        return table_snapshot(view, self.seating, allowance_ms=allowance_ms, dice=dice)

    def director(self, t_ms: int) -> Json:
        """The director's snapshot at ``t_ms``."""
        view = director_view(self.state, max(t_ms, self.state.t_ms))
        return director_snapshot(view, self.seating, delay_s=self.state.rules.clock.delay_s)
