"""One event's work in progress: the state so far and the incidents it raised.

A ``Context`` is created per event and thrown away; it never changes the state it was given (all
values are frozen; it only rebinds ``self.state``). It also holds what several handlers share:
recording incidents under the announce/silent policy, running clock operations, ending games
and ruling on a time expiry.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from kiosk import clock as clocks
from kiosk.cube import freeze
from kiosk.match import (
    ExpiryRuling,
    Match,
    ResultKind,
    apply_expiry,
    finish_game,
    rule_on_expiry,
)
from kiosk.match.players import Player, opponent
from kiosk.match.state import GameEnd, MatchEnd
from kiosk.referee.board import Sides, as_played, position_of
from kiosk.referee.citations import reference
from kiosk.referee.events import Args
from kiosk.referee.gin import GinJudge, GinQuestion, GinUnavailableError
from kiosk.referee.incidents import Incident, IncidentKind, Prompt
from kiosk.referee.state import (
    Game,
    GinPending,
    LogAction,
    LogEntry,
    RefereeState,
    first_game,
)
from kiosk.rules import position_id
from kiosk.rulesets import CentreReason, RuleSet

_POINTS: dict[ResultKind, int] = {"single": 1, "gammon": 2, "backgammon": 3}


def _score(match: Match, first: Player) -> str:
    """The score as ``"5-3"``, ``first``'s points first: the winner's, the subject of the
    sentence it is written in ("Aiko wins the match 5-3"), whichever player number he has."""
    return f"{match.score[first]}-{match.score[opponent(first)]}"


def _expiry_verdict(ruling: ExpiryRuling) -> str | None:
    """What a ruling on a time expiry rests on, as a code for the screen (MSO 1.5, JBL 1.9: a
    gin verdict may be shown in this ruling only): ``gin_win``, ``no_gin_win``, or
    ``out_of_reach`` (no result of this game wins the match); None for penalty points."""
    if ruling.outcome == "match_won_on_gin":
        return "gin_win"
    if ruling.outcome != "match_lost":
        return None
    return "no_gin_win" if ruling.gin is False else "out_of_reach"


_ENDINGS: dict[MatchEnd, str] = {
    "score": "{score}",
    "penalty_points": "{score} with penalty points",
    "time": "on time: player {loser}'s time expired with the score at {score}",
    "time_gin": "on a gin win at the expiry of his time, with the score at {score}",
    "forfeit": "by forfeit, with the score at {score}",
}
"""How the match-won incident tells the ending (``Match.ended_by``): only ``score`` and
``penalty_points`` reach the match length; a match ended by time or forfeit keeps the score it
had (BIBA, GA "Time Control", JBL 4.3.3, MSO 2.3)."""


class Context:
    """The state being built for one event (``t_ms``) and the incidents raised so far."""

    def __init__(self, state: RefereeState, t_ms: int, gin: GinJudge | None) -> None:
        self.state = state
        self.t_ms = t_ms
        self.gin = gin
        self.raised: list[Incident] = []

    @property
    def game(self) -> Game:
        """The game in progress (or the last one, once the match is over)."""
        return self.state.game

    @property
    def rules(self) -> RuleSet:
        """The rule set in force."""
        return self.state.rules

    @property
    def match(self) -> Match:
        """The match."""
        return self.state.match

    def set(self, **changes: Any) -> None:
        """Replace fields of the referee state."""
        self.state = dataclasses.replace(self.state, **changes)

    def set_game(self, **changes: Any) -> None:
        """Replace fields of the game."""
        self.state = dataclasses.replace(
            self.state, game=dataclasses.replace(self.state.game, **changes)
        )

    def record(
        self,
        kind: IncidentKind,
        rule: str,
        detail: str,
        *,
        player: Player | None = None,
        prompt: Prompt | None = None,
        **fields: Any,
    ) -> int:
        """Add an incident (announced or silent per the configuration) and, when announced,
        show ``prompt``. Returns the incident id."""
        number = len(self.state.incidents) + 1
        announced = self.state.config.mode(kind) == "announce"
        incident = Incident(
            id=number,
            kind=kind,
            rule=rule,
            t_ms=self.t_ms,
            game=self.game.number,
            detail=detail,
            player=player,
            announced=announced,
            **fields,
        )
        self.raised.append(incident)
        self.set(incidents=(*self.state.incidents, incident))
        if announced and prompt is not None:
            self.show(dataclasses.replace(prompt, incident=number))
        return number

    def announced(self, number: int) -> bool:
        """Whether incident ``number`` was announced at the table."""
        return self.state.incidents[number - 1].announced

    def show(self, prompt: Prompt | None) -> None:
        """Put ``prompt`` on the table (None clears it)."""
        self.set(prompt=prompt)

    def clear(self, *kinds: str) -> None:
        """Take down the prompt if it is one of ``kinds``."""
        if self.state.prompt is not None and self.state.prompt.kind in kinds:
            self.set(prompt=None)

    def log(self, player: Player, action: LogAction, **fields: Any) -> None:
        """Add a decision to the game's record."""
        entry = LogEntry(player, action, self.t_ms, **fields)
        self.set_game(log=(*self.game.log, entry))

    def where(self, sides: Sides, on_roll: Player) -> dict[str, Any]:
        """Incident fields naming a position: its Position ID in ``on_roll``'s view."""
        return {"on_roll": on_roll, "position_id": position_id(position_of(sides, on_roll))}

    # -- the clock --------------------------------------------------------------------------

    def clock(self, operation: Callable[[clocks.ClockState], clocks.ClockStep]) -> bool:
        """Run a clock operation (nothing with clocks off); pass its incidents on and rule on a
        fallen flag. True when the clock took it without an incident."""
        state = self.state.clock
        if state is None:
            return True
        step = operation(state)
        self.set(clock=step.state)
        for incident in step.incidents:
            if incident.kind == "flag_fell":
                self.flag_fell(incident)
            else:
                self.record(
                    incident.kind,
                    incident.rule or "kiosk.clock",
                    incident.detail,
                    player=incident.side,
                )
        return not step.incidents

    def centre(self, reason: CentreReason) -> None:
        """Stop both clocks for ``reason`` (MSO-clock 4.1, GA "Stopping the clock", JBL 4.3.2)."""
        self.clock(lambda c: clocks.centre(c, self.t_ms, reason))

    def flag_fell(self, incident: clocks.ClockIncident) -> None:
        """A reserve ran out: rule now, or wait for the claim (JBL 4.3.3)."""
        side = incident.side
        assert side is not None
        self.record("flag_fell", incident.rule or "kiosk.clock", incident.detail, player=side)
        self.set(flag=side)
        if self.rules.clock.expiry.needs_claim:
            rule = reference(self.rules.rule("clock.expiry.needs_claim"))
            text = f"player {side}'s time is up ({rule})"
            params: Args = (("player", side), ("rule", rule))
            self.show(Prompt("claim_time", text, opponent(side), ("claim_time",), params=params))
            return
        self.rule_expiry(side, None)

    # -- gin --------------------------------------------------------------------------------

    def ask_gin(self, winner: Player, kind: ResultKind, exactly: bool) -> bool | None:
        """Ask the injected gin judge (None without one, or when it cannot tell). The position
        asked about counts only checkers really borne off as off (missing ones still lose a
        gammon: MSO 4.7, JBL 4.2.4). A judge that fails answers None, so the director decides,
        with a ``gin_unavailable`` incident naming the reason."""
        if self.gin is None:
            return None
        game = self.game
        on_roll: Player = game.turn if game.turn is not None else 0
        position = position_of(as_played(game.sides, game.missing), on_roll)
        question = GinQuestion(position, on_roll, winner, kind, exactly)
        try:
            return self.gin(question)
        except Exception as error:  # an injected judge must never stop the referee
            reason = str(error) if isinstance(error, GinUnavailableError) else repr(error)
            self.record(
                "gin_unavailable",
                "kiosk: gin judge",
                f"no gin verdict ({reason}): the director decides",
                player=winner,
                **self.where(game.sides, on_roll),
            )
            return None

    # -- time expiry --------------------------------------------------------------------------

    def rule_expiry(self, side: Player, verdict: bool | None) -> None:
        """Rule on ``side``'s expired time (MSO-clock 5.1, BIBA, GA "Time Control", JBL 4.3.3)
        with ``kiosk.match.rule_on_expiry``; a gin question no judge answers goes to the
        director."""
        clock = self.state.clock
        offence = clock.expiries[side] if clock is not None else 1
        cube_value = self.game.cube.value

        def ruling_for(gin: bool | None) -> ExpiryRuling:
            return rule_on_expiry(
                self.rules,
                self.match,
                side,
                offence=max(1, offence),
                cube_value=cube_value,
                gin_wins_match=gin,
            )

        ruling = ruling_for(verdict)
        if ruling.outcome == "gin_verdict_needed":
            away = self.match.away(side)
            kind: ResultKind = "single"
            for name, points in _POINTS.items():
                if points * cube_value >= away:
                    kind = name
                    break
            ruling = ruling_for(self.ask_gin(side, kind, exactly=False))
        if ruling.outcome in ("gin_verdict_needed", "director"):
            number = self.record(
                "gin_verdict_needed" if ruling.outcome == "gin_verdict_needed" else "expiry_ruling",
                ruling.rule,
                ruling.detail,
                player=side,
                prompt=Prompt(
                    "expiry_ruling",
                    "time expired: the director rules",
                    params=(("player", side), ("outcome", "director")),
                ),
            )
            self.set(gin=GinPending("expiry", side, number), flag=side)
            return
        away = self.match.away(side)
        match = apply_expiry(self.match, self.rules, ruling)
        self.set(match=match, flag=None, gin=None)
        text = f"player {side}'s time expired: {ruling.outcome.replace('_', ' ')}"
        verdict_text = ruling.detail if ruling.outcome != "penalty_points" else None
        self.record(
            "expiry_ruling",
            ruling.rule,
            f"{text}; {ruling.detail}",
            player=side,
            prompt=Prompt(
                "expiry_ruling",
                text,
                verdict=verdict_text,
                params=(
                    ("player", side),
                    ("outcome", ruling.outcome),
                    ("points", ruling.penalty_points),
                    ("verdict", _expiry_verdict(ruling)),
                    ("away", away),
                    ("most", ruling.most_points),
                ),
            ),
        )
        if ruling.outcome == "penalty_points":
            self.clock(lambda c: clocks.reset_after_expiry(c, self.t_ms))
            if match.cube_frozen:
                self.set_game(cube=freeze(self.game.cube, self.rules))
        if match.over:
            self.match_over(ruling.rule)

    # -- end of a game ------------------------------------------------------------------------

    def end_game(
        self, winner: Player, kind: ResultKind, ended_by: GameEnd, cube_value: int
    ) -> None:
        """Score the game (``kiosk.match.finish_game``), stop the clocks and set up the next
        game, or end the match."""
        game = self.game
        match = finish_game(
            self.match, self.rules, winner, kind, cube_value, ended_by, game.cube.turned
        )
        result = match.games[-1]
        if ended_by in ("concession", "claim"):
            self.log(opponent(winner), "resign", value=result.points)
        self.log(winner, "win", value=result.points)
        self.set(match=match, logs=(*self.state.logs, self.game.log))
        self.set_game(offer=None, illegal=None, pending=None, premature=None)
        score = _score(match, winner)
        text = f"player {winner} wins a {kind} ({result.points} point(s)); score {score}"
        self.record(
            "game_won",
            self.rules.rule("cube.jacoby"),
            text,
            player=winner,
            prompt=Prompt(
                "game_over",
                text,
                params=(
                    ("player", winner),
                    ("kind", kind),
                    ("points", result.points),
                    ("score", score),
                ),
            ),
        )
        self.centre("end_of_game")
        if match.over:
            self.match_over()
            return
        match, next_game = first_game(self.rules, match)
        self.set(match=match, game=dataclasses.replace(next_game, reading=game.reading))

    def match_over(self, rule: str | None = None) -> None:
        """The match has a winner: stop the clocks for good. ``rule``: the rule that ended it
        (a time expiry's ruling), else how it ended."""
        match = self.match
        winner = match.winner
        assert winner is not None
        ending = match.ended_by or "score"
        loser, score = opponent(winner), _score(match, winner)
        text = f"player {winner} wins the match {_ENDINGS[ending]}".format(loser=loser, score=score)
        self.record(
            "match_won",
            rule or f"match ended by {match.ended_by}",
            text,
            player=winner,
            prompt=Prompt(
                "match_over",
                text,
                params=(("player", winner), ("ending", ending), ("loser", loser), ("score", score)),
            ),
        )
        if self.state.clock is not None and self.state.clock.running is not None:
            self.centre("end_of_game")
        self.set_game(phase="match_over", turn=None, pending=None)
