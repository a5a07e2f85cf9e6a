"""The referee: a pure state machine that follows a monitored match.

Events in, new state and incidents out: ``step(state, event, gin) -> RefereeStep``.

- ``new_referee(config, t_ms)`` starts a match (``RefereeConfig``: rule set and overrides, match
  length and score, clocks, reserve, orientation, seats, colours, announce/silent policy);
  ``replay(config, events, gin)`` rebuilds the state from a journal.
- Events: ``BoardRead`` (a settled ``BoardReading``), ``DiceRead``, ``ClockPress``, ``Touch``,
  ``DirectorAction``, ``Tick``; every one carries ``t_ms`` (the kiosk's monotonic ms).
- A press only switches the clocks; the play it ends is judged on the next event (send ``Tick``
  a few times a second), so the press stays well under 1 ms.
- ``gin``: a pure ``GinJudge`` (``gin_judge(kiosk.gin.load_tables())``) or None, in which case gin
  questions go to the director (``DirectorAction("gin_verdict", ...)``).
- Screens: ``players_view`` (no aids: MSO 1.5, JBL 1.9) and ``director_view``.
- ``kiosk.referee.codec``: events, incidents and configurations as JSON dicts (``kind``, ``v``).
"""

from kiosk.referee.config import ConfigError, RefereeConfig
from kiosk.referee.events import (
    BoardRead,
    BoardReading,
    ClockPress,
    CubeSeen,
    DiceRead,
    DieSeen,
    DirectorAction,
    Event,
    PointSeen,
    Tick,
    Touch,
)
from kiosk.referee.gin import GinJudge, GinQuestion, GinUnavailableError, gin_judge
from kiosk.referee.incidents import Incident, Prompt
from kiosk.referee.machine import RefereeStep, replay, step
from kiosk.referee.state import LogEntry, RefereeState, new_referee
from kiosk.referee.view import DirectorView, PlayersView, director_view, players_view

__all__ = [
    "BoardRead",
    "BoardReading",
    "ClockPress",
    "ConfigError",
    "CubeSeen",
    "DiceRead",
    "DieSeen",
    "DirectorAction",
    "DirectorView",
    "Event",
    "GinJudge",
    "GinQuestion",
    "GinUnavailableError",
    "Incident",
    "LogEntry",
    "PlayersView",
    "PointSeen",
    "Prompt",
    "RefereeConfig",
    "RefereeState",
    "RefereeStep",
    "Tick",
    "Touch",
    "director_view",
    "gin_judge",
    "new_referee",
    "players_view",
    "replay",
    "step",
]
