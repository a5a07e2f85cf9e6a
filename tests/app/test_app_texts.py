"""Texts, the .po reader and the Japanese catalog's coverage."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kiosk.app import texts
from kiosk.app.i18n import LANGUAGES, PoError, catalog, read_po, tr
from kiosk.app.prompts import parse_prompt
from kiosk.app.snapshot import parse_snapshot
from tests.app import samples

APP_DIR = Path(texts.__file__).parent


@given(st.integers(min_value=0, max_value=10 * 3600 * 1000))
def test_reserve_reads_back_as_the_seconds_rounded_up(ms: int) -> None:
    shown = texts.format_reserve(ms)
    seconds = 0
    for part in shown.split(":"):
        seconds = seconds * 60 + int(part)
    assert seconds == -(-ms // 1000)
    assert all(len(part) == 2 for part in shown.split(":")[1:])


def test_clock_formats() -> None:
    assert texts.format_reserve(-5) == "0:00"
    assert texts.format_reserve(59_001) == "1:00"
    assert texts.format_reserve(3_600_000) == "1:00:00"
    assert texts.format_allowance(12_000) == "12"
    assert texts.format_allowance(8_001) == "9"
    assert texts.format_allowance(-1) == "0"


def test_illegal_move_reason_says_what_is_wrong() -> None:
    prompt = parse_prompt(samples.ILLEGAL_MOVE, "prompt")
    assert texts.illegal_reason("en", prompt) == "a 6 was played with 5-2"
    assert texts.illegal_reason("ja", prompt) == "5-2 の目で 6 を動かしました"


def test_status_texts_in_both_languages() -> None:
    snap = parse_snapshot(
        samples.table(
            match={
                "length": 7,
                "score": [2, 3],
                "crawford": True,
                "post_crawford": False,
                "ruleset": "jbl",
            }
        )
    )
    assert texts.match_title("en", snap.match) == "7-point match · JBL"
    assert texts.crawford_text("en", snap.match) == "Crawford game"
    assert texts.crawford_text("ja", snap.match) == "クロフォードゲーム"
    assert texts.cube_text("en", snap.cube, snap.players) == "Cube 2 · Ben"
    assert texts.turn_text("ja", 0, snap.players) == "Aiko の手番"
    assert texts.dice_text("en", snap.dice) == "5 2"


def test_gin_verdict_is_written_only_for_rulings() -> None:
    ruling = parse_prompt(
        {
            "kind": "ruling",
            "topic": "time_expiry",
            "side": 0,
            "decision": "loses_game",
            "gin": {"win": "certain"},
        },
        "prompt",
    )
    assert texts.prompt_body("en", ruling, parse_snapshot(samples.table()).players) == (
        "Win: certain"
    )
    assert texts.ruling_text("en", ruling, parse_snapshot(samples.table()).players) == (
        "Time expired: Aiko loses the game"
    )


def test_po_reader_handles_continuations_escapes_and_fuzzy() -> None:
    text = """# comment
msgid ""
msgstr "Content-Type: text/plain; charset=UTF-8\\n"

msgid "Two "
"lines"
msgstr "二"
"行"

#, fuzzy
msgid "Unsure"
msgstr "不確か"

msgid "Quote \\"q\\""
msgstr "引用 \\"q\\""
"""
    assert read_po(text) == {"Two lines": "二行", 'Quote "q"': '引用 "q"'}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('msgstr "x"', "line 1: msgstr without msgid"),
        ('"x"', "line 1: string outside an entry"),
        ("msgid x", "line 1: expected a quoted string"),
        ('msgid "a"\nfoo', "line 2: cannot read"),
    ],
)
def test_po_reader_names_the_bad_line(text: str, message: str) -> None:
    with pytest.raises(PoError, match=message):
        read_po(text)


def _used_msgids() -> set[str]:
    """Every message id the screens use: literal tr()/_() calls plus the texts' tables."""
    found: set[str] = set()
    call = re.compile(r"""(?:\btr|\b_)\(\s*[\w.]+\s*,\s*"((?:[^"\\]|\\.)+)\"""")
    for path in [*APP_DIR.glob("*.py"), *APP_DIR.glob("*.kv")]:
        found.update(call.findall(path.read_text(encoding="utf-8")))
    for table in (
        texts.ILLEGAL_TEXTS,
        texts.AN_TEXTS,
        texts.NOTICE_TEXTS,
        texts.VERDICT_TEXTS,
        texts.RESULT_WORDS,
        texts.DIRECTOR_DECISIONS,
        texts.DICE_PROBLEM_TEXTS,
        texts.PAUSE_TEXTS,
        texts.DECISION_TEXTS,
        texts.GIN_TEXTS,
        texts.GIN_VERDICTS,
        texts.RULING_TEXTS,
        texts.INCIDENT_KINDS,
        texts.LEVEL_TEXTS,
        texts.CHOICE_TEXTS,
        texts.SIDE_QUESTIONS,
    ):
        found.update(table.values())
    return found


def test_every_text_has_a_japanese_translation_with_the_same_fields() -> None:
    used = _used_msgids()
    assert len(used) > 80
    japanese = catalog("ja")
    missing = sorted(used - set(japanese))
    assert not missing, f"untranslated: {missing}"
    stale = sorted(set(japanese) - used)
    assert not stale, f"translated but never shown: {stale}"
    field = re.compile(r"\{(\w+)\}")
    for msgid in used:
        assert set(field.findall(msgid)) == set(field.findall(japanese[msgid])), msgid


def test_english_is_the_msgid_and_unknown_ids_fall_back() -> None:
    assert LANGUAGES == ("en", "ja")
    assert tr("en", "Double") == "Double"
    assert tr("ja", "Double") == "ダブル"
    assert tr("ja", "no such text") == "no such text"


def test_incident_names_are_the_referees_kinds() -> None:
    from kiosk.referee.incidents import INCIDENT_KINDS

    assert set(texts.INCIDENT_KINDS) == INCIDENT_KINDS
