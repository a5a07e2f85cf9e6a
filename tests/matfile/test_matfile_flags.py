"""Every irregularity in a record is flagged, with its game, move, line and rule; the rest of
the record is still replayed (exit 0 in the CLI)."""

from __future__ import annotations

from kiosk.matfile import Replay, parse_mat, replay
from kiosk.rulesets import load_ruleset

HEADER = " {length} point match\n\n"
GAME1 = """ Game 1
 Alice : 0                      Bob : 0
  1) 31: 8/5 6/5                 42: 8/4 6/4
  2) 64: 24/14                   Doubles => 2
  3)  Takes                      53: 13/8 13/10
  4) 21: 6/4 5/4
                                  Wins 2 points
"""
GAME2 = """ Game 2
 Alice : 0                      Bob : 2
  1)                             42: 8/4 6/4
  2) 31: 8/5 6/5                 Doubles => 2
  3)  Drops                      Wins 1 point
"""


def run(text: str, ruleset: str = "mso") -> Replay:
    return replay(parse_mat(text, "t.mat"), load_ruleset(ruleset))


def kinds(result: Replay) -> list[str]:
    return [flag.kind for flag in result.flags]


def test_clean_two_games() -> None:
    result = run(HEADER.format(length=5) + GAME1 + GAME2)
    assert result.flags == ()
    assert result.final_score == (0, 3)


def test_illegal_play_is_flagged_and_applied() -> None:
    """backgammon-rules.txt: both dice must be played when possible."""
    result = run(HEADER.format(length=5) + GAME1.replace("31: 8/5 6/5", "31: 8/5"))
    assert kinds(result) == ["illegal-play"]
    flag = result.flags[0]
    assert (flag.game, flag.move, flag.line) == (1, 1, 5)
    assert result.games[0].decisions[0].flags == ("illegal-play",)
    assert result.final_score == (0, 2)


def test_impossible_play_makes_the_board_unknown() -> None:
    result = run(HEADER.format(length=5) + GAME1.replace("31: 8/5 6/5", "31: 7/4 6/5"))
    assert kinds(result) == ["impossible-play"]
    assert result.games[0].decisions[1].position_id is None


def test_double_in_crawford_game_mso_5_5() -> None:
    """MSO 5.5: no double in the Crawford game (Bob at 2 of 3 after game 1)."""
    result = run(HEADER.format(length=3) + GAME1 + GAME2)
    assert [game.crawford for game in result.games] == [False, True]
    assert kinds(result) == ["double-not-allowed"]
    assert "MSO 5.5" in result.flags[0].detail
    assert result.flags[0].game == 2


def test_no_crawford_flag_when_the_leader_is_not_at_match_point() -> None:
    result = run(HEADER.format(length=5) + GAME1 + GAME2)
    assert [game.crawford for game in result.games] == [False, False]


def test_double_in_real_crawford_game_jbl_4_4_4() -> None:
    """JBL 4.4.4: a double in the Crawford game is void; the drop scores the undoubled cube."""
    text = HEADER.format(length=3) + GAME1 + GAME2
    result = run(text, "jbl")
    assert result.games[1].crawford
    assert kinds(result) == ["double-not-allowed"]
    assert "JBL 4.4.4" in result.flags[0].detail
    assert result.final_score == (0, 3)


def test_points_that_contradict_the_cube_mso_5_3() -> None:
    """MSO 5.3: a game counts single, gammon or backgammon times the cube: 3 at cube 2 is not."""
    result = run(HEADER.format(length=5) + GAME1.replace("Wins 2 points", "Wins 3 points"))
    assert kinds(result) == ["result-mismatch"]
    assert result.final_score == (0, 2)


def test_drop_scores_the_cube_before_the_double_mso_5_4() -> None:
    result = run(HEADER.format(length=5) + GAME1 + GAME2.replace("Wins 1 point", "Wins 2 points"))
    assert kinds(result) == ["result-mismatch"]
    assert result.final_score == (0, 3)


def test_wrong_winner_after_a_drop() -> None:
    text = GAME2.replace(
        "  3)  Drops                      Wins 1 point", "  3)  Drops\n      Wins 1 point"
    )
    result = run(HEADER.format(length=5) + GAME1 + text)
    assert kinds(result) == ["result-mismatch"]
    assert result.final_score == (0, 3)


def test_written_score_contradicting_the_replay_mso_5_1() -> None:
    """MSO 5.1: the running score is compared at the start of each game."""
    result = run(HEADER.format(length=5) + GAME1 + GAME2.replace("Bob : 2", "Bob : 1"))
    assert kinds(result) == ["score-mismatch"]
    assert result.games[1].score == (0, 2)


def test_wrong_cube_level_jbl_4_4_6() -> None:
    result = run(HEADER.format(length=5) + GAME1.replace("Doubles => 2", "Doubles => 4"), "jbl")
    assert kinds(result) == ["wrong-cube-value"]
    assert "JBL 4.4.6" in result.flags[0].detail


def test_redouble_by_the_player_without_the_cube() -> None:
    """backgammon-rules.txt 'Doubling rule': only the owner of the cube may redouble."""
    text = GAME1.replace(
        "  4) 21: 6/4 5/4\n", "  4) 21: 6/4 5/4                 Doubles => 4\n  5)  Drops\n"
    )
    result = run(HEADER.format(length=5) + text)
    assert kinds(result) == ["double-not-allowed"]
    assert "only the owner" in result.flags[0].detail or "belongs" in result.flags[0].detail


def test_take_without_double_and_wrong_turn() -> None:
    text = GAME1.replace("  3)  Takes                      53: 13/8 13/10", "  3) 53: 13/8 13/10")
    text = text.replace("Doubles => 2", "Takes")
    result = run(HEADER.format(length=5) + text)
    assert "answer-without-double" in kinds(result)
    assert "wrong-turn" in kinds(result)


def test_opening_double_is_flagged() -> None:
    """backgammon-rules.txt 'To start': the opening roll uses one die of each player."""
    text = GAME1.replace("31: 8/5 6/5", "33: 8/5 8/5 6/3 6/3")
    result = run(HEADER.format(length=5) + text)
    assert kinds(result)[0] == "opening-double"


def test_game_after_the_match_is_won() -> None:
    text = HEADER.format(length=2) + GAME1 + GAME2
    result = run(text)
    assert kinds(result) == ["game-after-match-end"]
    assert result.final_score == (0, 2)
    assert result.games[1].winner is None


def test_unfinished_last_game_and_action_after_end() -> None:
    unfinished = GAME1.split("  4)")[0]
    assert kinds(run(HEADER.format(length=5) + unfinished)) == ["unfinished-game"]
    extra = GAME1 + "  5) 21: 6/4 5/4\n"
    assert "action-after-game-end" in kinds(run(HEADER.format(length=5) + extra))


def test_and_the_match_when_it_is_not_won() -> None:
    text = GAME1.replace("Wins 2 points", "Wins 2 points and the match")
    assert kinds(run(HEADER.format(length=5) + text)) == ["result-mismatch"]


def test_double_beyond_the_cube_limit_mso_5_2() -> None:
    """MSO 5.2: the cube's top face is 64; a double past it is flagged and ignored. (The
    players here redouble at once, out of turn, which is flagged too.)"""
    lines = ["  1) 31: 8/5 6/5                 42: 8/4 6/4"]
    for power in range(1, 8):
        if power % 2:  # Alice doubles, Bob takes, on one line
            lines.append(f"{power + 1:3d})  Doubles => {2**power}".ljust(33) + "Takes")
        else:  # Bob doubles in the right column, Alice takes on the next line
            lines.append(f"{power + 1:3d}) ".ljust(33) + f"Doubles => {2**power}")
            lines.append(f"{power + 1:3d})  Takes")
    text = HEADER.format(length=0) + GAME1.split("  1)")[0] + "\n".join(lines) + "\n"
    result = run(text, "money")
    over = [flag for flag in result.flags if flag.kind == "cube-over-limit"]
    assert len(over) == 1
    assert over[0].detail.startswith("the cube stops at 64")
    assert "answer-without-double" not in kinds(result)
