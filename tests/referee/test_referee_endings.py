"""Ending games and matches early, time, breaks and the director: concessions checked with gin
(MSO 4.9, MSO-clock 3.6, GA "Completing a game", JBL 4.6, 4.3.2(7)), time expiry (MSO-clock 5.1,
5.2, JBL 4.3.3), breaks (MSO 2.2, JBL 2.2.2), director calls (MSO-clock 4.1(e), JBL 4.3.2(4)),
dice mixes (MSO 3.3, JBL 4.1.3)."""

from __future__ import annotations

import pytest

from kiosk.referee import GinQuestion
from kiosk.rules import Position
from tests.referee.table import Table, config, kinds

RULESETS = ("mso", "jbl")
RACE = Position.from_points({6: 5, 5: 5, 4: 5}, {6: 3, 5: 2})
"""Player 1 (on roll) with 5 checkers left, player 0 with none off: no contact."""


def in_race(table: Table) -> None:
    """Opening, one play, then the director sets the race with player 1 to roll."""
    table.opening(winner=0, high=3, low=1)
    table.play("8/5 6/5")
    table.set_position(RACE, on_roll=1)


def always(answer: bool | None) -> object:
    """A gin judge that always answers ``answer`` and records the questions."""
    asked: list[GinQuestion] = []

    def judge(question: GinQuestion) -> bool | None:
        asked.append(question)
        return answer

    judge.asked = asked  # type: ignore[attr-defined]
    return judge


@pytest.mark.parametrize("ruleset", RULESETS)
def test_concession_refused_with_contact(ruleset: str) -> None:
    """MSO 4.9 / JBL 4.6: only in no-contact positions."""
    table = Table(config(ruleset))
    table.opening(winner=0, high=3, low=1)
    table.play("8/5 6/5")
    assert kinds(table.touch("concede", 1, kind="single")) == ["concession_refused"]
    assert table.state.game.offer is None


@pytest.mark.parametrize("ruleset", RULESETS)
def test_concession_accepted_scores(ruleset: str) -> None:
    """MSO-clock 3.6: centre, offer; the opponent accepts and scores."""
    table = Table(config(ruleset))
    in_race(table)
    assert kinds(table.touch("concede", 0, kind="gammon")) == []
    assert table.state.clock is not None
    assert table.state.clock.running is None
    prompt = table.state.prompt
    assert prompt is not None
    assert prompt.kind == "concession_offered"
    assert prompt.to == 1
    assert prompt.verdict is None
    table.touch("accept", 1)
    assert table.state.match.score == (0, 2)
    assert table.state.game.number == 2


def test_mso_rejected_concession_plays_on() -> None:
    """MSO-clock 3.6: the opponent rejects and play goes on."""
    table = Table(config("mso"))
    in_race(table)
    table.touch("concede", 0, kind="single")
    assert kinds(table.touch("reject", 1)) == ["concession_rejected"]
    assert table.state.game.offer is None
    assert table.state.match.score == (0, 0)


def test_mso_a_win_cannot_be_claimed() -> None:
    """MSO 4.9: a player concedes a loss; he does not claim a win."""
    table = Table(config("mso"))
    in_race(table)
    assert kinds(table.touch("claim", 1, kind="gammon")) == ["concession_refused"]


def test_jbl_certain_declaration_must_be_accepted() -> None:
    """JBL 4.6: a mathematically certain declaration must be accepted; the gin verdict is shown
    because the table is ruling on an offered end of game."""
    judge = always(True)
    table = Table(config("jbl"), gin=judge)  # type: ignore[arg-type]
    in_race(table)
    table.touch("claim", 1, kind="gammon")
    prompt = table.state.prompt
    assert prompt is not None
    assert prompt.choices == ("accept",)
    assert prompt.verdict is not None
    question = judge.asked[-1]  # type: ignore[attr-defined]
    assert (question.winner, question.kind, question.exactly) == (1, "gammon", True)
    assert kinds(table.touch("reject", 0))[0] == "concession_rejected"
    assert table.state.match.score == (0, 2)


def test_jbl_wrong_declaration_gives_the_opponent_five_minutes() -> None:
    """JBL 4.3.2(7): the game is not over as declared: the opponent gets 5 minutes."""
    table = Table(config("jbl"), gin=always(False))  # type: ignore[arg-type]
    in_race(table)
    assert table.state.clock is not None
    before = table.state.clock.reserve_ms[0]
    table.touch("claim", 1, kind="gammon")
    table.touch("reject", 0)
    assert table.state.clock.reserve_ms[0] == before + 300_000
    assert table.state.game.offer is None


def test_jbl_director_decides_without_a_gin_judge() -> None:
    """JBL 4.3.2(7): the director decides mathematically when the kiosk cannot."""
    table = Table(config("jbl"))
    in_race(table)
    table.touch("claim", 1, kind="gammon")
    raised = table.touch("reject", 0)
    assert kinds(raised) == ["concession_rejected"]
    assert table.state.gin is not None
    assert kinds(table.touch("accept", 0)) == ["out_of_phase"]
    table.director("gin_verdict", value=True)
    assert table.state.match.score == (0, 2)


def test_mso_time_expiry_penalty_points() -> None:
    """MSO-clock 5.1: 2 penalty points to the opponent, 5 more minutes, the game goes on."""
    table = Table(config("mso", reserve_ms=10_000))
    table.opening(winner=0, high=3, low=1)
    raised = table.tick(11_000)
    assert kinds(raised) == ["flag_fell", "expiry_ruling"]
    assert table.state.match.score == (0, 2)
    assert table.state.clock is not None
    assert table.state.clock.flag is None
    assert table.state.clock.reserve_ms[0] >= 300_000
    assert table.state.game.phase == "moving"
    prompt = table.state.prompt
    assert prompt is not None
    assert prompt.kind == "expiry_ruling"


def test_mso_penalty_to_match_point_freezes_the_cube() -> None:
    """MSO-clock 5.2: penalty points bringing a player within one point freeze the cube."""
    table = Table(config("mso", match_length=3, reserve_ms=10_000))
    table.opening(winner=0, high=3, low=1)
    table.tick(11_000)
    assert table.state.match.score == (0, 2)
    assert not table.state.game.cube.available
    table.board(table.result_of("8/5 6/5"))
    table.press(0)
    assert kinds(table.touch("double", 1)) == ["cube_refused"]


def test_jbl_time_out_needs_a_claim_and_loses_the_match() -> None:
    """JBL 4.3.3: the time-out stands once pointed out; the expired player loses the match."""
    table = Table(config("jbl", reserve_ms=10_000))
    table.opening(winner=0, high=3, low=1)
    assert kinds(table.tick(23_000)) == ["flag_fell"]
    prompt = table.state.prompt
    assert prompt is not None
    assert prompt.kind == "claim_time"
    assert prompt.to == 1
    assert kinds(table.touch("claim_time", 0)) == ["out_of_phase"]
    raised = table.touch("claim_time", 1)
    assert kinds(raised) == ["expiry_ruling", "match_won"]
    assert table.state.match.winner == 1
    assert table.state.match.ended_by == "time"


def test_jbl_time_out_with_a_gin_win_of_the_match() -> None:
    """JBL 4.3.3: the board makes the expired player's match win certain: he wins."""
    judge = always(True)
    table = Table(config("jbl", reserve_ms=10_000, score=(4, 0)), gin=judge)  # type: ignore[arg-type]
    table.opening(winner=0, high=3, low=1)
    table.tick(23_000)
    raised = table.touch("claim_time", 1)
    assert kinds(raised) == ["expiry_ruling", "match_won"]
    assert table.state.match.winner == 0
    assert table.state.match.ended_by == "time_gin"
    question = judge.asked[-1]  # type: ignore[attr-defined]
    assert (question.winner, question.kind, question.exactly) == (0, "single", False)


def test_jbl_gin_question_goes_to_the_director() -> None:
    """JBL 4.3.3 without a gin judge: the director gives the verdict."""
    table = Table(config("jbl", reserve_ms=10_000, score=(4, 0)))
    table.opening(winner=0, high=3, low=1)
    table.tick(23_000)
    assert kinds(table.touch("claim_time", 1)) == ["gin_verdict_needed"]
    table.director("gin_verdict", value=False)
    assert table.state.match.winner == 1


def test_mso_break_in_a_game_and_resume() -> None:
    """MSO 2.2: three 5-minute recesses; the clocks stop and restart."""
    table = Table(config("mso"))
    table.opening(winner=0, high=3, low=1)
    assert kinds(table.touch("break", 0)) == ["break_taken"]
    assert table.state.clock is not None
    assert table.state.clock.running is None
    table.touch("resume", 0)
    assert table.state.clock.running == 0


def test_jbl_break_only_between_games() -> None:
    """JBL 2.2.2: breaks are between games."""
    table = Table(config("jbl"))
    table.opening(winner=0, high=3, low=1)
    assert kinds(table.touch("break", 0)) == ["break_mid_game", "break_taken"]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_director_called_stops_the_clocks(ruleset: str) -> None:
    """MSO-clock 4.1(e) / JBL 4.3.2(4); MSO 6.1 / JBL 5.1: everything stays as it is."""
    table = Table(config(ruleset))
    table.opening(winner=0, high=3, low=1)
    raised = table.touch("call_director", 1)
    assert kinds(raised) == ["director_called"]
    assert raised[0].rule.startswith("MSO 6.1" if ruleset == "mso" else "JBL 5.1")
    assert table.state.clock is not None
    assert table.state.clock.running is None
    table.director("resume")
    assert table.state.clock.running == 0


@pytest.mark.parametrize(("ruleset", "allowed"), [("mso", True), ("jbl", False)])
def test_dice_mix_before_the_second_game(ruleset: str, allowed: bool) -> None:
    """MSO 3.3: before any game; JBL 4.1.3: before the match only."""
    table = Table(config(ruleset))
    assert kinds(table.touch("dice_mix", 0)) == ["dice_mix"]
    table.opening(winner=0, high=3, low=1)
    table.play("8/5 6/5")
    table.touch("double", 1)
    table.touch("pass", 0)
    expected = "dice_mix" if allowed else "dice_mix_not_allowed"
    assert kinds(table.touch("dice_mix", 1)) == [expected]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_director_corrections(ruleset: str) -> None:
    """The director sets the score, the clocks and the rule set's values; bad input is named."""
    table = Table(config(ruleset))
    table.opening(winner=0, high=3, low=1)
    table.director("set_score", score0=2, score1=1)
    assert table.state.match.score == (2, 1)
    table.director("set_clock", reserve0_ms=60_000, reserve1_ms=90_000)
    assert table.state.clock is not None
    assert table.state.clock.reserve_ms[1] == 90_000
    table.director("set_ruleset", name=ruleset, **{"override.clock.delay_s": 10})
    assert table.state.rules.clock.delay_s == 10
    raised = table.director("set_score", score0=7, score1=0)
    assert kinds(raised) == ["invalid_action"]
    assert "score" in raised[0].detail
    raised = table.director("set_position", position_id="nonsense", on_roll=0)
    assert kinds(raised) == ["invalid_action"]
    table.director("penalty", to=1, points=4)
    assert table.state.match.winner == 1


@pytest.mark.parametrize("ruleset", RULESETS)
def test_director_rules_on_an_illegal_move(ruleset: str) -> None:
    """The director's ruling on an incident: order the legal play."""
    table = Table(config(ruleset))
    table.opening(winner=0, high=5, low=2)
    table.play_board(table.moved(0, {13: -1, 7: +1}))
    number = table.state.incidents[-1].id
    table.director("rule", incident=number, decision="replay", note="called by monitor")
    assert table.state.game.turn == 0
    assert table.state.game.phase == "moving"
    assert table.kinds()[-2:] == ["illegal_move_replay", "director_ruling"]


def test_mso_fourth_break_is_beyond_the_limit() -> None:
    """MSO 2.2: three 5-minute recesses only per match."""
    table = Table(config("mso"))
    table.opening(winner=0, high=3, low=1)
    for _ in range(3):
        assert kinds(table.touch("break", 0)) == ["break_taken"]
        table.touch("resume", 0)
    assert kinds(table.touch("break", 1)) == ["break_limit_exceeded", "break_taken"]


def test_ga_match_lost_on_time_tells_the_ending_and_the_real_score() -> None:
    """GA 'Time Control': if a reserve expires the match is over, at the score it had (2-1 here,
    not the match length): the incident says so and cites the rule, rather than a bare "wins the
    match 1-2" that reads as a final score. The winner's points come first."""
    table = Table(config("ga", reserve_ms=10_000, score=(2, 1)))
    table.opening(winner=0, high=3, low=1)
    table.tick(23_000)  # player 0 is 3 away: a backgammon could win, so gin is asked
    table.director("gin_verdict", value=False)
    (won,) = [incident for incident in table.state.incidents if incident.kind == "match_won"]
    assert won.detail == (
        "player 1 wins the match on time: player 0's time expired with the score at 1-2"
    )
    assert won.rule.startswith("GA 'Time Control'")
    assert table.state.match.score == (2, 1)


def test_match_won_by_the_score_states_the_final_score() -> None:
    """MSO 5.3: a match reaching its length: the final score, the winner's points first."""
    table = Table(config("mso", match_length=1))
    in_race(table)
    table.touch("concede", 0, kind="single")
    table.touch("accept", 1)
    assert table.state.incidents[-1].detail == "player 1 wins the match 1-0"
