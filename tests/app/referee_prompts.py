"""The prompts the referee really shows, caught while its own scripted scenarios (tests.referee)
run again, each with the players' view of the moment, as the table snapshot's prompt dict."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache

from kiosk.app.referee_adapter import Json, Seating, table_snapshot
from kiosk.referee.board import START_SIDES
from kiosk.referee.context import Context
from kiosk.referee.incidents import Prompt
from kiosk.referee.view import players_view
from tests.referee import test_referee_endings as endings
from tests.referee import test_referee_game as game
from tests.referee import test_referee_irregularities as irregularities
from tests.referee import test_referee_missing_checkers as missing
from tests.referee.table import Table, config

NAMES = ("Aiko", "Ben")


def _unreadable_play() -> None:
    """Sixteen checkers of player 0 seen after his play: the board cannot be judged."""
    table = Table(config("mso"))
    table.opening(winner=0, high=3, low=1)
    table.play_board(table.moved(0, {8: -1, 5: +2}))


def _biba_concession_without_a_gin_judge() -> None:
    """BIBA 4.9: only a certain outcome may be conceded: with no judge, the director rules."""
    table = Table(config("biba"))
    endings.in_race(table)
    table.touch("concede", 1, kind="single")


def _ga_claim_rejected_without_a_gin_judge() -> None:
    """GA "Adjudicating gin outcomes": a claim rejected, unclear: play on without clocks."""
    table = Table(config("ga"))
    endings.in_race(table)
    table.touch("claim", 1, kind="backgammon")
    table.touch("reject", 0)


def _match_ended_by_a_director_penalty() -> None:
    """The director's penalty points reach the match length (MSO 2.3)."""
    table = Table(config("mso", match_length=3))
    table.opening(winner=0, high=3, low=1)
    table.director("penalty", to=1, points=3)


def _opening_dice_that_cannot_tell_the_roller() -> None:
    """No clocks (nothing pressed tells): opening dice whose rows were not read."""
    table = Table(config("jbl", clocks=False, reserve_ms=None))
    table.board(START_SIDES)
    table.dice(5, 2, roller=0)


SCENARIOS: tuple[Callable[[], None], ...] = (
    lambda: irregularities.test_setup_error_is_announced_and_corrected_in_time("mso"),
    lambda: irregularities.test_cube_not_centred_at_the_start("jbl"),
    irregularities.test_jbl_opponent_chooses_missing_checkers_to_the_bar,
    lambda: irregularities.test_unreadable_opening_dice_are_never_guessed("mso"),
    lambda: irregularities.test_invalid_roll_is_rolled_again("mso", True, None),
    lambda: irregularities.test_invalid_roll_is_rolled_again("jbl", False, "off-board"),
    irregularities.test_mso_roll_to_the_left_of_the_bar_is_invalid,
    irregularities.test_jbl_other_half_needs_the_opponents_permission,
    lambda: irregularities.test_illegal_move_is_shown_with_what_makes_it_illegal("jbl"),
    lambda: irregularities.test_demand_a_legal_play("mso"),
    lambda: irregularities.test_reading_that_fits_two_plays_asks_for_a_better_one("mso"),
    lambda: irregularities.test_checkers_moved_between_turns("mso"),
    irregularities.test_jbl_premature_roll_rerolled_at_the_victims_choice,
    _unreadable_play,
    lambda: game.test_equal_opening_dice_are_rolled_again("mso"),
    lambda: game.test_double_take_and_gammon_win_the_match("mso"),
    lambda: missing.test_jbl_play_on_as_is_keeps_the_checker_missing(),
    lambda: endings.test_concession_accepted_scores("mso"),
    endings.test_mso_rejected_concession_plays_on,
    endings.test_jbl_certain_declaration_must_be_accepted,
    endings.test_jbl_wrong_declaration_gives_the_opponent_five_minutes,
    endings.test_jbl_director_decides_without_a_gin_judge,
    _biba_concession_without_a_gin_judge,
    _ga_claim_rejected_without_a_gin_judge,
    endings.test_mso_time_expiry_penalty_points,
    endings.test_jbl_time_out_needs_a_claim_and_loses_the_match,
    endings.test_jbl_time_out_with_a_gin_win_of_the_match,
    endings.test_jbl_gin_question_goes_to_the_director,
    endings.test_ga_match_lost_on_time_tells_the_ending_and_the_real_score,
    endings.test_match_won_by_the_score_states_the_final_score,
    endings.test_mso_break_in_a_game_and_resume,
    lambda: endings.test_director_called_stops_the_clocks("mso"),
    lambda: endings.test_dice_mix_before_the_second_game("mso", True),
    _match_ended_by_a_director_penalty,
    _opening_dice_that_cannot_tell_the_roller,
)


@dataclasses.dataclass(frozen=True)
class Shown:
    """A prompt the referee showed, and the table snapshot's prompt dict made of it."""

    prompt: Prompt
    snapshot: Json
    seating: Seating


@contextmanager
def _catching(into: list[Shown]) -> Iterator[None]:
    """Record every prompt put on the table while the block runs."""
    original = Context.show

    def show(self: Context, prompt: Prompt | None) -> None:
        original(self, prompt)
        if prompt is not None:
            seating = Seating(self.state.config, NAMES)
            view = players_view(self.state, self.t_ms)
            into.append(Shown(prompt, table_snapshot(view, seating, allowance_ms=12_000), seating))

    Context.show = show  # type: ignore[method-assign]
    try:
        yield
    finally:
        Context.show = original  # type: ignore[method-assign]


@cache
def shown_prompts() -> tuple[Shown, ...]:
    """Every prompt the scenarios show, in order."""
    caught: list[Shown] = []
    with _catching(caught):
        for scenario in SCENARIOS:
            scenario()
    return tuple(caught)
