"""Every prompt the referee shows reaches the players readable in English and Japanese: the
screen writes its own sentence from the prompt's kind and params, never the referee's English."""

from __future__ import annotations

import re
from typing import get_args

import pytest

from kiosk.app.cards import Card, prompt_card
from kiosk.app.i18n import catalog
from kiosk.app.referee_adapter import named
from kiosk.app.snapshot import parse_snapshot
from kiosk.app.texts import (
    AN_TEXTS,
    DIRECTOR_DECISIONS,
    ILLEGAL_TEXTS,
    NOTICE_TEXTS,
    NOTICE_VARIANTS,
    sentence,
)
from kiosk.pipeline.venue_link import ruling_notice
from kiosk.referee.incidents import PromptKind
from kiosk.venue.schema import Decision, Ruling
from tests.app import samples
from tests.app.referee_prompts import NAMES, Shown, shown_prompts

VALUE_PARAMS = ("dice", "value", "points", "score", "rule", "away", "most")
"""Params whose value a sentence states as it is."""
NOT_IN_THE_SCENARIOS = {
    ("setup_error", "checkers"),
    ("roll_again", "board"),
    ("match_over", "forfeit"),
    ("director_ruling", None),
}
"""Sentences the screen keeps for prompts no scenario makes: a setup error whose positions are
missing (the referee always gives them), the opening roll's last-resort "a die is off the
board" (the zone check catches it first), a forfeited match (no referee path yet), and the
venue director's ruling (not the referee's: tested on its own below)."""
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
RULE_REFERENCE = re.compile(r"\b(?:MSO|JBL|BIBA|GA)(?:-clock)? [\d.()]+")


def _screen_kind(shown: Shown) -> object:
    """The kind of prompt the screen was given for the referee's prompt."""
    prompt = shown.snapshot["prompt"]
    assert isinstance(prompt, dict)
    return prompt["kind"]


def _card(shown: Shown, language: str) -> Card:
    snap = parse_snapshot(shown.snapshot)
    card = prompt_card(language, snap.prompt, snap.players)
    assert card is not None, shown.prompt
    return card


def _words(card: Card) -> str:
    """The card's title and body: the sentences the referee's prompt became."""
    return f"{card.title}\n{card.body}"


def _ids(shown: tuple[Shown, ...]) -> list[str]:
    return [f"{i}-{s.prompt.kind}" for i, s in enumerate(shown)]


SHOWN = shown_prompts()


def test_the_scenarios_show_every_kind_of_prompt_and_every_notice_the_referee_makes() -> None:
    kinds = {shown.prompt.kind for shown in SHOWN}
    assert kinds == set(get_args(PromptKind))
    notices = {
        (shown.prompt.kind, shown.prompt.param(NOTICE_VARIANTS.get(shown.prompt.kind, "")))
        for shown in SHOWN
        if _screen_kind(shown) == "notice"
    }
    assert notices <= set(NOTICE_TEXTS), sorted(notices - set(NOTICE_TEXTS), key=str)
    assert set(NOTICE_TEXTS) - notices == NOT_IN_THE_SCENARIOS


@pytest.mark.parametrize("shown", SHOWN, ids=_ids(SHOWN))
def test_english_is_what_the_referee_says_with_the_players_names(shown: Shown) -> None:
    card = _card(shown, "en")
    said = sentence(named(shown.prompt.text, NAMES))
    snap_kind = _screen_kind(shown)
    if snap_kind == "notice":
        assert card.title == said
    elif snap_kind == "illegal_move":
        assert card.body.splitlines()[0] == said


@pytest.mark.parametrize("shown", SHOWN, ids=_ids(SHOWN))
def test_japanese_is_written_from_the_catalog_with_names_and_values(shown: Shown) -> None:
    card = _card(shown, "ja")
    words = _words(card)
    english = _words(_card(shown, "en"))
    prompt = shown.prompt
    for key in ("player", "loser"):
        player = prompt.param(key)
        if player in (0, 1) and "{" + key + "}" in _msgid(shown):
            assert NAMES[int(player)] in words, (key, words)
    for key in VALUE_PARAMS:
        value = prompt.param(key)
        if value is not None and "{" + key + "}" in _msgid(shown):
            assert str(value) in words, (key, words)
    stripped = RULE_REFERENCE.sub("", words)
    for name in NAMES:
        stripped = stripped.replace(name, "")
    assert LATIN_WORD.search(stripped) is None, f"English left in {words!r}"
    assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", card.title), card.title
    assert card.title not in english
    for button in card.buttons:
        assert button.text in catalog("ja").values()


def _msgid(shown: Shown) -> str:
    """The English message id the screen wrote the prompt from (empty when structured)."""
    prompt = shown.prompt
    if prompt.kind == "illegal_move":
        reason = str(prompt.param("reason"))
        return AN_TEXTS.get(reason, ILLEGAL_TEXTS[reason])
    return NOTICE_TEXTS.get((prompt.kind, prompt.param(NOTICE_VARIANTS.get(prompt.kind, ""))), "")


def test_a_notice_without_params_for_its_sentence_falls_back_to_the_referees_text() -> None:
    shown = next(s for s in SHOWN if s.prompt.kind == "premature_roll_choice")
    snapshot = {**shown.snapshot, "prompt": {**shown.snapshot["prompt"], "params": {}}}  # type: ignore[dict-item]
    snap = parse_snapshot(snapshot)
    card = prompt_card("ja", snap.prompt, snap.players)
    assert card is not None
    assert card.title == "Ben rolled early: does the roll stand?"


def test_a_verdict_code_outside_a_ruling_is_dropped() -> None:
    """MSO 1.5, JBL 1.9: no gin verdict at the table except in a ruling."""
    shown = next(s for s in SHOWN if s.prompt.param("verdict") == "certain_loss")
    prompt = {**shown.snapshot["prompt"], "ruling": False}  # type: ignore[dict-item]
    snap = parse_snapshot({**shown.snapshot, "prompt": prompt})
    assert "verdict" not in snap.prompt.params
    card = prompt_card("ja", snap.prompt, snap.players)
    assert card is not None
    assert "確定" not in _words(card)
    ruled = _card(shown, "ja")
    assert "確定" in ruled.body


@pytest.mark.parametrize("note", ["", "wait for the roll"])
def test_the_venue_directors_ruling_reads_in_both_languages(note: str) -> None:
    ruling = Ruling(
        id="open-t1-m1-3-ruling",
        event="open",
        sent_ms=0,
        table="t1",
        incident_id="m1-3",
        decision="warning",
        note=note,
        director="Dana",
    )
    notice = ruling_notice("3", ruling)
    snap = parse_snapshot(samples.table(prompt=notice))
    english = prompt_card("en", snap.prompt, snap.players)
    japanese = prompt_card("ja", snap.prompt, snap.players)
    assert english is not None
    assert japanese is not None
    assert english.title == notice["text"]
    suffix = f" ({note})" if note else ""
    assert japanese.title == f"ディレクターの裁定 (記録 #3): 警告{suffix}"


def test_the_directors_decisions_are_the_venues() -> None:
    assert set(DIRECTOR_DECISIONS) == set(get_args(Decision))
