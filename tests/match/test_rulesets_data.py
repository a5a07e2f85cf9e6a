"""Rule sets as data: every value cites its rule; overrides are typed and recorded."""

from __future__ import annotations

import tomllib
from importlib import resources

import pytest

from kiosk.rulesets import (
    RULESET_NAMES,
    RuleSet,
    RuleSetError,
    UnknownRuleSetError,
    load_ruleset,
    parse_ruleset,
    with_overrides,
)


def _leaves(table: dict[str, object], prefix: str = "") -> dict[str, dict[str, object]]:
    found: dict[str, dict[str, object]] = {}
    for key, value in table.items():
        assert isinstance(value, dict)
        if "rule" in value:
            found[f"{prefix}{key}"] = value
        else:
            found.update(_leaves(value, f"{prefix}{key}."))
    return found


@pytest.mark.parametrize("name", RULESET_NAMES)
def test_every_value_cites_a_rule(name: str) -> None:
    text = resources.files("kiosk.rulesets").joinpath(f"{name}.toml").read_text("utf-8")
    data = tomllib.loads(text)
    data.pop("meta")
    leaves = _leaves(data)
    rules = load_ruleset(name)
    assert set(leaves) == set(rules.citations)
    for key, entry in leaves.items():
        assert isinstance(entry["rule"], str)
        assert entry["rule"].strip(), key
    assert rules.name == name


def test_all_sets_share_one_schema() -> None:
    keys = {name: set(load_ruleset(name).citations) for name in RULESET_NAMES}
    assert all(k == keys["mso"] for k in keys.values())


def test_mso_values_with_their_rules() -> None:
    """MSO 4.7, 5.2, 5.3, 5.5, 2.2, MSO-clock 5.1-5.2."""
    mso = load_ruleset("mso")
    assert mso.play.setup_correction_before_roll == 5
    assert mso.rule("play.setup_correction_before_roll").startswith("MSO 4.7")
    assert mso.play.short_checkers_can_be_gammoned
    assert mso.cube.start_faces == (64,)
    assert mso.cube.limit == 64
    assert not (mso.cube.jacoby)
    assert not (mso.cube.beavers)
    assert not (mso.cube.automatic_doubles)
    assert mso.cube.crawford
    assert mso.clock.breaks.count == 3
    assert mso.clock.breaks.minutes == 5
    assert mso.clock.expiry.first_penalty_points == 2
    assert mso.clock.expiry.repeat_penalty_points == 1
    assert mso.clock.expiry.reset_reserve_s == 300
    assert mso.clock.new_match.formula == "director"
    assert mso.late_arrival.grace_s == 600
    assert mso.late_arrival.forfeit_over_pct == 50


def test_jbl_values_with_their_rules() -> None:
    """JBL 3.4.5, 4.2.4, 4.1.4, 4.4.1, 4.4.5, 4.4.6, 2.2.2, 4.3.3."""
    jbl = load_ruleset("jbl")
    assert jbl.clock.delay_s == 12
    assert jbl.rule("clock.delay_s").startswith("JBL 3.4.5")
    assert jbl.play.setup_correction_before_roll == 3
    assert jbl.play.valid_roll_zone == "own_home_board"
    assert jbl.play.other_half_with_permission
    assert jbl.cube.start_faces == (1, 64)
    assert jbl.cube.premature_double == "stands_after_move"
    assert jbl.cube.wrong_level_double == "stands_once_answered"
    assert jbl.clock.breaks.by_length == ((9, 1), (25, 2))
    assert jbl.clock.expiry.needs_claim
    assert jbl.clock.centring.dice_touched_early
    assert not jbl.clock.centring.verify_score_or_cube


def test_biba_and_ga_values_with_their_rules() -> None:
    """BIBA 4.6, 4.8, 4.9, 5.4; GA 'Illegal moves', 'Completing a game', 'Breaks'."""
    biba, ga = load_ruleset("biba"), load_ruleset("ga")
    assert biba.clock.premature_action_forfeits_delay
    assert biba.clock.illegal_move_decision_time == "decider"
    assert biba.concession.requires_certain
    assert not biba.cube.double_after_cocked_dice
    assert ga.clock.illegal_move_decision_time == "stopped"
    assert ga.play.illegal_move_condoned_by == ("pick_up_dice",)
    assert ga.concession.may_claim_win
    assert ga.concession.certain_cannot_be_rejected
    assert (ga.clock.breaks.count, ga.clock.breaks.per_points) == (1, 11)


def test_money_options_off_until_agreed() -> None:
    """backgammon-rules.txt 'Optional Rule': Jacoby, beavers, automatic doubles by agreement."""
    money = load_ruleset("money")
    assert money.money
    assert not money.cube.crawford
    assert (money.cube.jacoby, money.cube.beavers, money.cube.automatic_doubles) == (
        False,
        False,
        0,
    )
    agreed = with_overrides(
        money, {"cube.jacoby": True, "cube.beavers": True, "cube.automatic_doubles": 1}
    )
    assert (agreed.cube.jacoby, agreed.cube.beavers, agreed.cube.automatic_doubles) == (
        True,
        True,
        1,
    )


def test_unknown_ruleset_name_is_named() -> None:
    with pytest.raises(UnknownRuleSetError, match=r"'fibs'.*mso, biba, ga, jbl, money"):
        load_ruleset("fibs")


def test_names_are_case_insensitive() -> None:
    assert load_ruleset(" JBL ").name == "jbl"


def test_override_records_old_new_and_citation() -> None:
    jbl = load_ruleset("jbl")
    event = with_overrides(jbl, {"clock.delay_s": 10, "cube.start_faces": [64]})
    assert event.clock.delay_s == 10
    assert event.cube.start_faces == (64,)
    assert [(o.key, o.old, o.new) for o in event.overrides] == [
        ("clock.delay_s", 12, 10),
        ("cube.start_faces", (1, 64), (64,)),
    ]
    assert event.rule("clock.delay_s").startswith("director override")
    assert "JBL 3.4.5" in event.rule("clock.delay_s")
    assert jbl.clock.delay_s == 12  # the shipped set is untouched


def test_override_twice_keeps_the_first_old_value() -> None:
    once = with_overrides(load_ruleset("ga"), {"clock.delay_s": 10})
    twice = with_overrides(once, {"clock.delay_s": 8})
    assert [(o.old, o.new) for o in twice.overrides] == [(12, 8)]
    assert twice.rule("clock.delay_s").count("director override") == 1


def test_override_to_optional_value_none() -> None:
    event = with_overrides(load_ruleset("mso"), {"play.setup_correction_before_roll": None})
    assert event.play.setup_correction_before_roll is None


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        (
            {"clock.delayy_s": 10},
            r"unknown rule key 'clock.delayy_s' \(did you mean 'clock.delay_s'",
        ),
        ({"clock.breaks": 2}, "unknown rule key 'clock.breaks'"),
        ({"clock.delay_s": "12"}, "'clock.delay_s'.*whole number"),
        ({"clock.delay_s": True}, "'clock.delay_s'.*whole number"),
        ({"clock.delay_s": -1}, "'clock.delay_s'.*whole number"),
        ({"clock.delay_s": None}, "'clock.delay_s'.*value is required"),
        ({"cube.jacoby": 1}, "'cube.jacoby'.*true or false"),
        ({"cube.premature_double": "maybe"}, "'cube.premature_double'.*not one of"),
        ({"cube.start_faces": 64}, "'cube.start_faces'.*expected a list"),
        ({"clock.breaks.by_length": [[9]]}, "'clock.breaks.by_length'.*2 items"),
        ({"cube.limit": 48}, "'cube.limit'.*power of two"),
        ({"clock.new_match.round_up_to_s": 0}, "round_up_to_s must be at least 1"),
    ],
)
def test_bad_overrides_name_the_key(overrides: dict[str, object], message: str) -> None:
    with pytest.raises(RuleSetError, match=message):
        with_overrides(load_ruleset("jbl"), overrides)


def _shipped_text(name: str) -> str:
    return resources.files("kiosk.rulesets").joinpath(f"{name}.toml").read_text("utf-8")


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (("delay_s = { value = 12, rule", "delay_s = { value = 12, rulez"), "'clock.delay_s'"),
        (("delay_s = { value = 12,", "delay_s = { value = '12',"), "'clock.delay_s'.*whole number"),
        (
            ("[clock.breaks]", "[clock.breaks]\nextra = { value = 1, rule = 'x' }"),
            "clock.breaks.extra",
        ),
        (("[late_arrival]", "[late]\n[late_arrival]"), "unknown table 'late'"),
        (("money = false", ""), "meta.money"),
        (("[cube]", "[cube"), "not valid TOML"),
    ],
)
def test_bad_ruleset_files_are_reported(edit: tuple[str, str], message: str) -> None:
    text = _shipped_text("jbl").replace(*edit, 1)
    with pytest.raises(RuleSetError, match=message):
        parse_ruleset(text, source="jbl-edited.toml")


def test_missing_key_is_reported() -> None:
    lines = [line for line in _shipped_text("ga").splitlines() if not line.startswith("beavers")]
    with pytest.raises(RuleSetError, match=r"missing key 'cube\.beavers'"):
        parse_ruleset("\n".join(lines), source="ga-edited.toml")


def test_loaded_sets_are_frozen() -> None:
    rules: RuleSet = load_ruleset("biba")
    with pytest.raises(AttributeError):
        rules.clock.delay_s = 5  # type: ignore[misc]
