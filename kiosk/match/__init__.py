"""Match state and the rulings that depend on the rule set.

``new_match`` -> ``start_game`` -> ``finish_game`` (or ``award_penalty``, ``end_match``) ... until
``Match.over``. Rulings: ``rule_on_expiry`` + ``apply_expiry`` (time expiry per rule set),
``late_arrival``, ``rule_on_concession``, ``rule_on_rejection``.
"""

from kiosk.match.players import Player, opponent
from kiosk.match.rulings import (
    ConcessionRuling,
    ExpiryRuling,
    LateArrivalRuling,
    RejectionRuling,
    apply_expiry,
    late_arrival,
    rule_on_concession,
    rule_on_expiry,
    rule_on_rejection,
    setup_correctable,
)
from kiosk.match.state import (
    GameInProgressError,
    GameResult,
    InvalidResultError,
    Match,
    MatchError,
    MatchOverError,
    NoGameInProgressError,
    Penalty,
    ResultKind,
    award_penalty,
    end_match,
    finish_game,
    game_points,
    new_match,
    result_kind,
    start_game,
)

__all__ = [
    "ConcessionRuling",
    "ExpiryRuling",
    "GameInProgressError",
    "GameResult",
    "InvalidResultError",
    "LateArrivalRuling",
    "Match",
    "MatchError",
    "MatchOverError",
    "NoGameInProgressError",
    "Penalty",
    "Player",
    "RejectionRuling",
    "ResultKind",
    "apply_expiry",
    "award_penalty",
    "end_match",
    "finish_game",
    "game_points",
    "late_arrival",
    "new_match",
    "opponent",
    "result_kind",
    "rule_on_concession",
    "rule_on_expiry",
    "rule_on_rejection",
    "setup_correctable",
    "start_game",
]
