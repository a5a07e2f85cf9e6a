"""Rulings that depend on the rule set: time expiry, late arrival, concessions.

Each ruling is a value naming what happens and the rule it rests on; ``apply_expiry`` turns an
expiry ruling into the new ``Match``. Whether a position is a gin win of the match (for BIBA, GA
and JBL expiry) or an offered outcome is certain is decided elsewhere (the gin module) and comes
in as ``bool | None`` (None: not decided yet).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from kiosk.match.players import Player, opponent
from kiosk.match.state import Match, MatchError, award_penalty, end_match
from kiosk.rulesets import RuleSet

ExpiryOutcome = Literal[
    "penalty_points", "match_lost", "match_won_on_gin", "gin_verdict_needed", "director"
]
ConcessionOutcome = Literal["allowed", "refused", "gin_verdict_needed"]
RejectionOutcome = Literal[
    "outcome_stands", "play_on", "play_on_with_bonus", "director", "play_on_without_clocks"
]


@dataclass(frozen=True)
class ExpiryRuling:
    """What the director rules when ``expired``'s reserve runs out.

    ``penalty_points`` go to the opponent and ``reset_reserve_ms`` to the expired clock (MSO-clock
    5.1); ``match_lost`` / ``match_won_on_gin`` end the match (BIBA "Time Expiration", GA "Time
    Control", JBL 4.3.3); ``gin_verdict_needed``: the gin question must be answered first.
    ``gin``: the gin verdict the ruling rests on (None: none asked); ``most_points``: what this
    game could give the expired player at most, when that cannot win the match.
    """

    outcome: ExpiryOutcome
    expired: Player
    penalty_points: int
    reset_reserve_ms: int
    rule: str
    detail: str
    gin: bool | None = None
    most_points: int = 0


@dataclass(frozen=True)
class LateArrivalRuling:
    """Penalty points for a late player (MSO 2.1, 2.3; JBL 2.2.4) and whether he forfeits."""

    points: int
    forfeit: bool
    rule: str


@dataclass(frozen=True)
class ConcessionRuling:
    """Whether an offer to end the game may be made, and whether the opponent must accept it."""

    outcome: ConcessionOutcome
    must_accept: bool
    rule: str
    detail: str


@dataclass(frozen=True)
class RejectionRuling:
    """What happens when an offered end of game is rejected; ``bonus_ms`` goes to the rejecter's
    clock (JBL 4.3.2(7))."""

    outcome: RejectionOutcome
    bonus_ms: int
    rule: str


def rule_on_expiry(
    rules: RuleSet,
    match: Match,
    expired: Player,
    *,
    offence: int,
    cube_value: int,
    gin_wins_match: bool | None,
) -> ExpiryRuling:
    """The ruling when ``expired``'s reserve runs out for the ``offence``-th time (1 = first).

    MSO-clock 5.1: 2 penalty points to the opponent, 1 for each repeat, 5 more minutes, play on.
    BIBA, GA, JBL 4.3.3: the match is lost unless the board is a gin win of the match for the
    expired player; gammons count x cube where they would win the match (BIBA "Time
    Expiration"*, ``clock.expiry.gin_gammons_count``). ``gin_wins_match`` is that verdict; it is
    not needed when no result of this game can win the match.
    """
    expiry = rules.clock.expiry
    rule = rules.rule("clock.expiry.ruling")
    if offence < 1:
        raise MatchError(f"offence: counts from 1, got {offence}")
    if expiry.ruling == "director" or match.money:
        return ExpiryRuling("director", expired, 0, 0, rule, "the director decides")
    if expiry.ruling == "penalty_points":
        first = offence == 1
        points = (expiry.first_penalty_points if first else expiry.repeat_penalty_points) or 0
        key = "clock.expiry.first_penalty_points" if first else "clock.expiry.repeat_penalty_points"
        detail = f"{points} penalty point(s) to player {opponent(expired)}, offence {offence}"
        reset_ms = (expiry.reset_reserve_s or 0) * 1000
        return ExpiryRuling("penalty_points", expired, points, reset_ms, rules.rule(key), detail)
    best = cube_value * (3 if expiry.gin_gammons_count else 1)
    if match.away(expired) > best:
        detail = f"needs {match.away(expired)} points; this game gives at most {best}"
        return ExpiryRuling("match_lost", expired, 0, 0, rule, detail, most_points=best)
    if gin_wins_match is None:
        detail = "a result of this game could win the match: is it a gin win of the match?"
        return ExpiryRuling("gin_verdict_needed", expired, 0, 0, rule, detail)
    if gin_wins_match:
        won = "gin win of the match"
        return ExpiryRuling("match_won_on_gin", expired, 0, 0, rule, won, gin=True)
    return ExpiryRuling("match_lost", expired, 0, 0, rule, "no gin win of the match", gin=False)


def apply_expiry(match: Match, rules: RuleSet, ruling: ExpiryRuling) -> Match:
    """The match after an expiry ruling (the clock side: ``kiosk.clock.reset_after_expiry``)."""
    winner = opponent(ruling.expired)
    if ruling.outcome == "penalty_points":
        return award_penalty(
            match, rules, winner, ruling.penalty_points, "time_expiry", ruling.rule
        )
    if ruling.outcome == "match_lost":
        return end_match(match, winner, "time")
    if ruling.outcome == "match_won_on_gin":
        return end_match(match, ruling.expired, "time_gin")
    raise MatchError(f"ruling: {ruling.outcome!r} cannot be applied to the match yet")


def late_arrival(rules: RuleSet, late_ms: int, length: int) -> LateArrivalRuling:
    """Penalty points after ``late_ms`` of lateness in a match of ``length`` points.

    MSO 2.1/2.3: after 10 minutes, 1 point per 5 minutes; more than 50% of the length forfeits.
    JBL 2.2.4 (no clock): 1 point at 15 minutes, 1 more every 5 minutes.
    """
    late = rules.late_arrival
    rule = rules.rule("late_arrival.grace_s")
    if late_ms < 0:
        raise MatchError(f"late_ms: must be >= 0, got {late_ms}")
    if late.grace_s is None or late_ms < late.grace_s * 1000:
        return LateArrivalRuling(0, False, rule)
    intervals = (late_ms - late.grace_s * 1000) // (late.interval_s * 1000)
    points = late.first_points + late.points_per_interval * intervals
    forfeit = late.forfeit_over_pct is not None and points * 100 > late.forfeit_over_pct * length
    return LateArrivalRuling(points, forfeit and length > 0, rule)


def setup_correctable(rules: RuleSet, rolls_made: int) -> bool | None:
    """Whether a wrong starting setup may still be corrected after ``rolls_made`` rolls of the
    game (the opening roll counts as the first). MSO 4.7: before the fifth roll; JBL 4.2.4: before
    the third (the first mover's second). None where the set states no deadline."""
    deadline = rules.play.setup_correction_before_roll
    if rolls_made < 0:
        raise MatchError(f"rolls_made: must be >= 0, got {rolls_made}")
    return None if deadline is None else rolls_made < deadline


def rule_on_concession(
    rules: RuleSet, *, contact: bool, claims_win: bool, certain: bool | None
) -> ConcessionRuling:
    """May a player offer to end the game (concede a loss, or claim a win)?

    MSO 4.9 and GA "Completing a game": no-contact positions only; BIBA 4.9: only where the outcome
    is mathematically certain; GA and JBL 4.6 also let a player claim a win, and a certain outcome
    must be accepted. ``certain``: whether the offered outcome is gin (None: not decided).
    """
    conc = rules.concession
    if conc.requires_no_contact and contact:
        rule = rules.rule("concession.requires_no_contact")
        return ConcessionRuling("refused", False, rule, "only in a no-contact position")
    if claims_win and not conc.may_claim_win:
        rule = rules.rule("concession.may_claim_win")
        return ConcessionRuling("refused", False, rule, "only a loss may be conceded")
    if conc.requires_certain and certain is not True:
        rule = rules.rule("concession.requires_certain")
        if certain is None:
            return ConcessionRuling("gin_verdict_needed", False, rule, "is the outcome certain?")
        return ConcessionRuling("refused", False, rule, "the outcome is not certain")
    must = certain is True and conc.certain_cannot_be_rejected
    rule = rules.rule("concession.certain_cannot_be_rejected")
    return ConcessionRuling("allowed", must, rule, "the opponent accepts or rejects")


def rule_on_rejection(rules: RuleSet, *, certain: bool | None) -> RejectionRuling:
    """The opponent rejects an offered end of game.

    GA "Completing a game", JBL 4.6: a certain outcome stands. JBL 4.3.2(7): not over, the
    rejecter gets 5 minutes. GA "Adjudicating gin outcomes": unclear, play on without clocks.
    BIBA 4.9: the director adjudicates. MSO-clock 3.6: the rejecter rolls, play on.
    """
    conc = rules.concession
    if certain is True and conc.certain_cannot_be_rejected:
        return RejectionRuling(
            "outcome_stands", 0, rules.rule("concession.certain_cannot_be_rejected")
        )
    if certain is False and conc.wrong_claim_bonus_s is not None:
        bonus = conc.wrong_claim_bonus_s * 1000
        return RejectionRuling(
            "play_on_with_bonus", bonus, rules.rule("concession.wrong_claim_bonus_s")
        )
    rule = rules.rule("concession.on_rejection")
    if certain is False and conc.on_rejection != "director":
        return RejectionRuling("play_on", 0, rule)
    return RejectionRuling(conc.on_rejection, 0, rule)
