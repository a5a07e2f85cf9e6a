"""The app's sources and sinks over a referee: what ``gammon-kiosk run`` plugs into KioskApp.

:class:`RefereeLink` keeps the referee's state, sends it every event (touches from the screen,
the director's actions, ticks, and whatever the caller adds: board and dice readings, clock
presses), and hands the app a new snapshot only when the screen would change::

    link = RefereeLink(new_referee(config, now()), ("Aiko", "Ben"), clock_ms=now,
                       on_step=store.append, on_export=store.export_mat)
    app = KioskApp(table_source=link.table_snapshot, director_source=link.director_snapshot,
                   sink=link.touch, director_sink=link.director, pin=pin, poll=link.poll)

Times are the caller's monotonic clock in ms; the referee itself reads no clock.
"""

from __future__ import annotations

from collections.abc import Callable

from kiosk.app.actions import DirectorAction, PlayerAction
from kiosk.app.referee_adapter import (
    Json,
    Seating,
    director_event,
    director_snapshot,
    table_snapshot,
    touch_event,
)
from kiosk.referee import Event, GinJudge, RefereeState, RefereeStep, Tick, step
from kiosk.referee.view import director_view, players_view

TICK_MS = 200  # the referee hears the time five times a second (clock expiry, MSO-clock 4)


class RefereeLink:
    """Referee state + seating; snapshots out, events in. ``on_step`` sees every step (the
    store journals it); ``on_export`` is called for the director's ``.mat`` export."""

    def __init__(
        self,
        state: RefereeState,
        names: tuple[str, str],
        *,
        clock_ms: Callable[[], int],
        gin: GinJudge | None = None,
        on_step: Callable[[Event, RefereeStep], None] | None = None,
        on_export: Callable[[], None] | None = None,
    ) -> None:
        self.state = state
        self._names = names
        self._clock_ms = clock_ms
        self._gin = gin
        self._on_step = on_step
        self._on_export = on_export
        self._last_tick_ms = state.t_ms
        self._shown_table: Json | None = None
        self._shown_director: Json | None = None

    @property
    def seating(self) -> Seating:
        """Who sits where (the director may change the configuration between games)."""
        return Seating(self.state.config, self._names)

    @property
    def _delay_ms(self) -> int:
        return self.state.rules.clock.delay_s * 1000

    def send(self, event: Event) -> RefereeStep:
        """Apply ``event`` to the referee and keep the new state."""
        result = step(self.state, event, self._gin)
        self.state = result.state
        if self._on_step is not None:
            self._on_step(event, result)
        return result

    def poll(self) -> None:
        """Once per screen frame: a Tick every :data:`TICK_MS`."""
        now = self._clock_ms()
        if now - self._last_tick_ms >= TICK_MS:
            self._last_tick_ms = now
            self.send(Tick(now))

    def touch(self, action: PlayerAction) -> None:
        """A player's touch, as the referee's Touch now."""
        self.send(touch_event(action, self._clock_ms()))

    def director(self, action: DirectorAction) -> None:
        """A director's action: the referee's DirectorAction, or the ``.mat`` export."""
        now = self._clock_ms()
        event = director_event(action, director_view(self.state, now), self.seating, now)
        if event is not None:
            self.send(event)
        elif self._on_export is not None:
            self._on_export()

    def table_snapshot(self) -> Json | None:
        """The players' snapshot now, or None when it is what the screen already shows."""
        view = players_view(self.state, max(self.state.t_ms, self._clock_ms()))
        snapshot = table_snapshot(view, self.seating, allowance_ms=self._delay_ms)
        if snapshot == self._shown_table:
            return None
        self._shown_table = snapshot
        return snapshot

    def director_snapshot(self) -> Json | None:
        """The director's snapshot now, or None when unchanged."""
        view = director_view(self.state, max(self.state.t_ms, self._clock_ms()))
        snapshot = director_snapshot(view, self.seating, delay_s=self._delay_ms // 1000)
        if snapshot == self._shown_director:
            return None
        self._shown_director = snapshot
        return snapshot
