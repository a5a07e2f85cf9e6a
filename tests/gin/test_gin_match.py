"""Match-level gin: the certain outcome decides the match at this score and cube (BIBA, GA time
expiry; JBL 4.3.3), gammons counting where the rule set says so."""

from __future__ import annotations

from kiosk.gin import GinVerdict, certain_points, match_gin
from kiosk.rules import MatchInfo

GAMMON_CERTAIN = GinVerdict(
    False, "certain", "certain", "impossible", "impossible", "impossible", exact=True
)
LOSS_CERTAIN = GinVerdict(
    False, "impossible", "impossible", "impossible", "possible", "impossible", exact=True
)


def test_gammon_wins_the_match_when_gammons_count_biba() -> None:
    """BIBA 'Time Expiration': gammons (x cube) count where they would win the match."""
    info = MatchInfo(cube_value=2, player_on_roll=1, match_length=7, score=(2, 3))
    decided = match_gin(GAMMON_CERTAIN, info, gammons_count=True)
    assert decided.certain_points == (0, 4)
    assert decided.needed == (5, 4)
    assert decided.match_win == "certain"
    single_only = match_gin(GAMMON_CERTAIN, info, gammons_count=False)
    assert single_only.certain_points == (0, 2)
    assert single_only.match_win == "possible"


def test_certain_loss_of_the_match_jbl_4_3_3() -> None:
    info = MatchInfo(cube_value=1, player_on_roll=0, match_length=5, score=(0, 4))
    assert match_gin(LOSS_CERTAIN, info).match_win == "impossible"
    assert certain_points(LOSS_CERTAIN, 4, True) == (0, 4)


def test_money_play_has_no_match() -> None:
    assert match_gin(GAMMON_CERTAIN, MatchInfo(cube_value=1, match_length=0)).match_win is None
