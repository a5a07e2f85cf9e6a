"""Reading what real ``.mat`` files contain, and reporting malformed ones by file and line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.matfile import MatFormatError, parse_mat, replay
from kiosk.rulesets import load_ruleset

DATA = Path(__file__).parent / "data"
GAME = """ 5 point match

 Game 1
 Alice : 0                      Bob : 0
  1) 31: 8/5 6/5                 42: 8/4 6/4
  2) 64: 24/14                   Doubles => 2
  3)  Takes                      53: 13/8 13/10
  4) 21: 6/4 5/4
                                  Wins 2 points
"""
"""A clean game: Alice resigns a single game at cube 2 (MSO 5.3: points x cube)."""


def flags_of(text: str, ruleset: str = "mso") -> list[str]:
    return [flag.kind for flag in replay(parse_mat(text, "t.mat"), load_ruleset(ruleset)).flags]


def test_clean_game_scores_cube_times_single_mso_5_3() -> None:
    result = replay(parse_mat(GAME, "t.mat"), load_ruleset("mso"))
    assert result.flags == ()
    assert result.final_score == (0, 2)
    kinds = [d.kind for d in result.games[0].decisions]
    assert kinds == ["move", "move", "move", "double", "take", "move", "move", "resign", "win"]


def test_bom_tags_and_app_comments() -> None:
    text = '\ufeff; [Site "Club"]\n; [Player 1 "Alice"]\n;App: SomeTool 1.0\n' + GAME
    record = parse_mat(text, "t.mat")
    assert record.tags == (("Site", "Club"), ("Player 1", "Alice"))
    assert "App: SomeTool 1.0" in record.comments
    assert record.players == ("Alice", "Bob")


def test_no_headers_crlf_and_tabs() -> None:
    record = parse_mat(GAME.replace("\n", "\r\n").replace("  1) ", "\t1) "), "t.mat")
    assert record.match_length == 5
    assert len(record.games[0].actions) == 8


def test_variant_notation_is_understood() -> None:
    """A gnubg record rewritten with 'bar' for 25, 'off' for 0, no '*' on hits and the dice
    low-high replays exactly as the original."""
    original = (DATA / "gnubg-7pt-seed23.mat").read_text("utf-8")
    variant = re.sub(r"\b([1-6])([1-6]):", lambda m: f"{m[2]}{m[1]}:", original)
    variant = re.sub(r"\b25/", "bar/", variant)
    variant = re.sub(r"/0\b", "/off", variant).replace("*", "")
    assert variant != original
    first = replay(parse_mat(original, "a.mat"), load_ruleset("mso"))
    second = replay(parse_mat(variant, "b.mat"), load_ruleset("mso"))
    assert second.flags == ()
    assert second.final_score == first.final_score
    assert [d.position_id for g in second.games for d in g.decisions] == [
        d.position_id for g in first.games for d in g.decisions
    ]


def test_cannot_move_and_empty_roll() -> None:
    """A roll that cannot be played is written 'Cannot Move' or left empty."""
    text = """ 3 point match

 Game 1
 A : 0                          B : 0
  1) 31: 8/5 6/5                 66: Cannot Move
"""
    record = parse_mat(text, "t.mat")
    assert record.games[0].actions[1].play == ""
    # 6-6 is playable for B here, so 'Cannot Move' is an illegal play, flagged.
    assert flags_of(text) == ["illegal-play", "unfinished-game"]


def test_money_session_zero_point_match() -> None:
    text = GAME.replace(" 5 point match", " 0 point match")
    result = replay(parse_mat(text, "t.mat"), load_ruleset("money"))
    assert result.match_length == 0
    assert result.final_score == (0, 2)
    assert result.flags == ()


def test_and_the_match() -> None:
    text = GAME.replace(" 5 point match", " 2 point match").replace(
        "Wins 2 points", "Wins 2 points and the match"
    )
    result = replay(parse_mat(text, "t.mat"), load_ruleset("mso"))
    assert result.flags == ()
    assert result.final_score == (0, 2)


def test_unreadable_move_is_a_flag() -> None:
    text = GAME.replace("53: 13/8 13/10", "53: ???")
    result = replay(parse_mat(text, "t.mat"), load_ruleset("mso"))
    assert [flag.kind for flag in result.flags] == ["unreadable-play"]
    assert result.flags[0].line == 7
    after = result.games[0].decisions[6:]
    assert all(decision.position_id is None for decision in after)
    assert result.final_score == (0, 2)


@pytest.mark.parametrize(
    ("text", "line", "expected"),
    [
        ("Game 1\n", 1, "'N point match'"),
        (" 99999 point match\n", 1, "N <= 32767"),
        (" 5 point match\n A : 0   B : 0\n", 2, "'Game 1'"),
        (" 5 point match\n Game 1\n nonsense\n", 3, "the score line"),
        (" 5 point match\n Game 1\n A : 0   B : 0\n  1) hello 31: 8/5 6/5\n", 4, "a move"),
        (" 5 point match\n Game 1\n A : 0   B : 0\n  1) Takes Takes Takes\n", 4, "two columns"),
        (" 5 point match\n Game 1\n A : 0   B : 0\n  1)  Doubles => 2 now\n", 4, "nothing after"),
        (" 5 point match\n", 2, "'Game 1'"),
        (" 5 point match\n Game 1\n Game 2\n", 3, "the score line"),
        (" 5 point match\n Game 1\n", 3, "the score line"),
    ],
)
def test_malformed_file_names_file_line_and_expectation(
    text: str, line: int, expected: str
) -> None:
    with pytest.raises(MatFormatError) as caught:
        parse_mat(text, "broken.mat")
    assert caught.value.line == line
    assert str(caught.value).startswith(f"broken.mat:{line}: expected ")
    assert expected in caught.value.expected


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_damaged_records_are_an_error_or_flags_never_a_crash(data: st.DataObject) -> None:
    """Delete, duplicate or garble random lines and characters of a real record: the result is
    a MatFormatError naming a line, or a replay (with flags), never another exception."""
    name = data.draw(st.sampled_from(["gnubg-3pt-seed7.mat", "gnubg-25pt-seed3.mat"]))
    lines = (DATA / name).read_text("utf-8").splitlines()
    for _ in range(data.draw(st.integers(1, 6))):
        index = data.draw(st.integers(0, len(lines) - 1))
        action = data.draw(st.sampled_from(["delete", "duplicate", "garble"]))
        if action == "delete":
            del lines[index]
        elif action == "duplicate":
            lines.insert(index, lines[index])
        elif lines[index]:
            at = data.draw(st.integers(0, len(lines[index]) - 1))
            char = data.draw(st.sampled_from(list("0123456789/*:?) abWD=>")))
            lines[index] = lines[index][:at] + char + lines[index][at + 1 :]
        if not lines:
            break
    text = "\n".join(lines)
    try:
        record = parse_mat(text, "damaged.mat")
    except MatFormatError as error:
        line = error.line
    else:
        replay(record, load_ruleset("mso"))
        line = 1
    assert line >= 1
