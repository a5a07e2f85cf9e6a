"""Replaying the same events gives the same state: the referee is a pure function of its events
(DESIGN.md section 2), also after a JSON round trip of every event (the store's journal)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kiosk.referee import Event, replay
from kiosk.referee.board import position_of
from kiosk.referee.codec import event_from_json, event_to_json
from kiosk.referee.events import DirectorVerb, TouchAction
from kiosk.rules import format_play, legal_plays
from tests.referee.table import Table, config
from tests.referee.test_referee_codec import events as any_event
from tests.referee.test_referee_endings import always

STEPS = st.lists(
    st.tuples(
        st.sampled_from(
            ["play", "bad_play", "roll", "cocked", "lift", "press", "tick", "touch", "director"]
        ),
        st.integers(0, 10**6),
    ),
    min_size=1,
    max_size=40,
)


def drive(table: Table, steps: list[tuple[str, int]]) -> None:
    """Turn abstract steps into the events a table could produce from its current state."""
    touches = TouchAction.__args__  # type: ignore[attr-defined]
    verbs = DirectorVerb.__args__  # type: ignore[attr-defined]
    for name, n in steps:
        game = table.state.game
        if game.phase == "match_over":
            break
        if name == "play" and game.phase == "moving" and game.dice is not None:
            plays = legal_plays(position_of(game.sides, table.turn), game.dice)
            play = plays[n % len(plays)]
            table.play(format_play(play) or "", hidden=n % 3) if len(play) else table.play_board(
                game.sides
            )
        elif name == "bad_play" and game.phase == "moving" and game.sides[table.turn][13]:
            table.play_board(table.moved(table.turn, {13: -1, 13 - (n % 7 + 1): +1}))
        elif name == "roll":
            roller = game.turn if game.turn is not None else n % 2
            first, second = n % 6 + 1, n // 6 % 6 + 1
            table.dice(first, second, roller=roller)  # type: ignore[arg-type]
        elif name == "cocked":
            table.dice(n % 6 + 1, 3, roller=n % 2, cocked=True)  # type: ignore[arg-type]
        elif name == "lift":
            table.lift()
        elif name == "press":
            table.press(n % 2)  # type: ignore[arg-type]
        elif name == "tick":
            table.tick(n % 40_000)
        elif name == "touch":
            kind = ("single", "gammon", "backgammon", "bogus")[n % 4]
            table.touch(touches[n % len(touches)], n % 2, kind=kind, to=2 ** (n % 4))  # type: ignore[arg-type]
        else:
            table.director(
                verbs[n % len(verbs)], incident=n % 5, value=bool(n % 2), to=n % 2, points=1
            )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["mso", "jbl", "ga", "biba"]), STEPS)
def test_replay_reproduces_the_match(ruleset: str, steps: list[tuple[str, int]]) -> None:
    """Any event sequence (sensible or not) is taken without an exception, and replaying it,
    also from JSON, gives an identical state."""
    gin = always(None)
    table = Table(config(ruleset, match_length=3, reserve_ms=60_000), gin=gin)  # type: ignore[arg-type]
    table.opening(winner=0, high=4, low=2)
    drive(table, steps)
    again = replay(table.config, table.events, gin, t_ms=1_000)  # type: ignore[arg-type]
    assert again == table.state
    decoded: list[Event] = [event_from_json(event_to_json(event)) for event in table.events]
    assert replay(table.config, decoded, gin, t_ms=1_000) == table.state  # type: ignore[arg-type]


def play_out(table: Table, seed: int, hidden: int = 0, trays: bool = True) -> int:
    """Random legal games to the end of the match: random dice, a random legal play each turn,
    sometimes a double (taken or passed). Readings hide ``hidden`` checkers per stack (and the
    trays when ``trays`` is False); a play the reading leaves ambiguous gets an exact reading.
    Returns the number of plays."""
    import random

    rng = random.Random(seed)
    plays = 0
    while table.state.game.phase != "match_over":
        game = table.state.game
        if game.phase == "opening":
            high, low = rng.sample(range(1, 7), 2)
            table.opening(winner=rng.choice((0, 1)), high=max(high, low), low=min(high, low))
            continue
        if game.phase == "roll":
            may_double = game.cube.available and game.cube.owner in (None, table.turn)
            if may_double and rng.random() < 0.05:
                doubler = table.turn
                table.touch("double", doubler)
                if table.state.game.phase == "cube_offered":
                    table.touch("take" if rng.random() < 0.7 else "pass", 1 - doubler)  # type: ignore[arg-type]
                continue
            table.dice(rng.randint(1, 6), rng.randint(1, 6))
            continue
        assert game.phase == "moving"
        assert game.dice is not None
        play = rng.choice(legal_plays(position_of(game.sides, table.turn), game.dice))
        plays += 1
        if not len(play):
            table.play_board(game.sides)
            continue
        result = table.result_of(format_play(play))
        table.play(format_play(play), hidden, trays)
        if table.state.game.pending is not None:
            table.board(result)
    return plays


def test_random_legal_matches_raise_no_incident() -> None:
    """Legal play read exactly raises nothing but the results, and the score adds up."""
    for seed, ruleset in enumerate(("mso", "jbl", "ga", "biba")):
        table = Table(config(ruleset, match_length=3, reserve_ms=10**9))
        play_out(table, seed)
        assert set(table.kinds()) <= {"game_won", "match_won"}
        match = table.state.match
        assert sum(result.points for result in match.games) == sum(match.score)
        assert max(match.score) >= 3
        assert replay(table.config, table.events, t_ms=1_000) == table.state


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(["mso", "jbl", "ga", "biba"]), st.lists(any_event, max_size=30))
def test_arbitrary_events_never_raise(ruleset: str, events: list[Event]) -> None:
    """Nonsense in any order (times sorted) is refused with incidents, never an exception, and
    still replays identically."""
    ordered = sorted(events, key=lambda event: event.t_ms)
    table = Table(config(ruleset, match_length=3, reserve_ms=60_000), t_ms=0)
    for event in ordered:
        table.send(event)
    assert replay(table.config, ordered) == table.state


def test_stacked_checkers_and_unread_trays() -> None:
    """Readings as vision gives them (two checkers hidden on every stack of 3+, trays unread):
    never a false illegal move; the few ambiguous plays are settled by a clearer reading."""
    table = Table(config("jbl", match_length=3, reserve_ms=10**9))
    plays = play_out(table, 7, hidden=2, trays=False)
    found = table.kinds()
    assert "illegal_move" not in found
    assert set(found) <= {"game_won", "match_won", "ambiguous_reading"}
    assert found.count("ambiguous_reading") * 20 < plays
