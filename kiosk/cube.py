"""The doubling cube of one game, per rule set: pure values and transitions.

A double by a player is a rules question answered with a ``CubeRuling`` (offered, refused and why,
void in the Crawford game, pending as a premature double, a wrong level corrected or standing):
those are things players do at the table. Answering an offer that does not exist, or beavering
where beavers are not played, is a programming error and raises a ``CubeError`` subclass.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Literal

from kiosk.match import Match
from kiosk.match.players import Player, opponent
from kiosk.rulesets import RuleSet

CubeRulingKind = Literal[
    "offered",
    "wrong_level_corrected",
    "wrong_level_stands",
    "premature_pending",
    "void_crawford",
    "frozen",
    "refused_offer_pending",
    "refused_not_owner",
    "refused_not_turn",
    "refused_after_cocked",
    "refused_after_roll",
    "refused_limit",
]


_TURN = "cube.double_before_rolling"
_OWNER = "cube.only_owner_redoubles"


class CubeError(Exception):
    """A cube transition that cannot happen in the current state."""


class NoOfferError(CubeError):
    """Take, pass or beaver with no double offered."""


class WrongSideError(CubeError):
    """The doubler answered his own double."""


class BeaverNotAllowedError(CubeError):
    """A beaver where the rule set does not play beavers (MSO 5.3) or on a beaver."""


class AutomaticDoubleError(CubeError):
    """An automatic double the rule set does not allow (MSO 5.3) or beyond the agreed number."""


class CubeLimitError(CubeError):
    """The cube would go past the rule set's limit."""


@dataclass(frozen=True)
class Offer:
    """A double on the table: ``value`` if taken, ``stake`` scored by a pass (the value before
    the double, MSO 5.4), and who owns the cube after a take (the beaverer keeps it)."""

    doubler: Player
    value: int
    stake: int
    owner_if_taken: Player
    beaver: bool = False


@dataclass(frozen=True)
class CubeState:
    """The cube in the game in progress. ``owner`` None: centred. ``turned``: a double was
    offered this game (the Jacoby rule looks at it)."""

    value: int = 1
    owner: Player | None = None
    available: bool = True
    unavailable_rule: str | None = None
    offer: Offer | None = None
    pending: Offer | None = None
    turned: bool = False
    automatic: int = 0


@dataclass(frozen=True)
class TurnState:
    """Where the game is when a player reaches for the cube.

    ``on_roll``: whose turn it is. ``rolled``: valid dice are down this turn (the player on roll
    is moving). ``cocked``: cocked dice were rolled this turn (a reroll is due).
    """

    on_roll: Player
    rolled: bool = False
    cocked: bool = False


@dataclass(frozen=True)
class CubeRuling:
    """The answer to a double: what it became and the rule. ``forfeits_delay``: BIBA 4.6."""

    kind: CubeRulingKind
    rule: str
    detail: str
    forfeits_delay: bool = False


@dataclass(frozen=True)
class CubeStep:
    """A double's result: the new cube and the ruling."""

    state: CubeState
    ruling: CubeRuling


@dataclass(frozen=True)
class Passed:
    """A passed double: ``winner`` scores ``cube_value`` as a single game (MSO 5.4)."""

    winner: Player
    cube_value: int


def new_game_cube(rules: RuleSet, match: Match) -> CubeState:
    """The cube at the start of a game: centred at 1 (64 showing, MSO 5.2; 1 or 64, JBL 4.4.1),
    out of play in the Crawford game (MSO 5.5, JBL 4.4.4)."""
    if match.crawford_game:
        return CubeState(available=False, unavailable_rule=rules.rule("cube.crawford"))
    return CubeState()


def start_face_ok(rules: RuleSet, face: int) -> bool:
    """Whether a centred cube may show ``face`` at the start of a game (MSO 5.2, JBL 4.4.1)."""
    return face in rules.cube.start_faces


def double(
    state: CubeState, rules: RuleSet, doubler: Player, turn: TurnState, to_value: int | None = None
) -> CubeStep:
    """``doubler`` offers the cube (at ``to_value`` if the cube was turned to a given face).

    MSO 5.4, BIBA 5.4, JBL 4.4.2: only on one's own turn, before rolling, not after cocked dice;
    only the owner redoubles. In the Crawford game the double is void (JBL 4.4.4); after penalty
    points the cube is frozen (MSO-clock 5.2). A double while the opponent is still moving is
    premature: it stands once his move is complete (MSO 4.6, JBL 4.4.5; BIBA 4.6 also forfeits
    the doubler's allowance) or is refused. A wrong level (JBL 4.4.6) stands once answered, or is
    corrected to the next level (MSO 5.4).
    """
    cube = rules.cube
    if state.offer is not None or state.pending is not None:
        return _refuse(state, "refused_offer_pending", _TURN, rules, "a double is pending")
    if not state.available:
        crawford = state.unavailable_rule == rules.rule("cube.crawford")
        kind: CubeRulingKind = "void_crawford" if crawford else "frozen"
        detail = "no cube in the Crawford game" if crawford else "the cube is frozen"
        return CubeStep(state, CubeRuling(kind, state.unavailable_rule or "", detail))
    if state.owner == opponent(doubler) and cube.only_owner_redoubles:
        return _refuse(state, "refused_not_owner", _OWNER, rules, "the opponent owns it")
    value, level = _level(state, rules, to_value)
    if value > cube.limit:
        return _refuse(state, "refused_limit", "cube.limit", rules, f"limit {cube.limit}")
    offer = Offer(doubler=doubler, value=value, stake=state.value, owner_if_taken=opponent(doubler))
    if turn.on_roll != doubler:
        if not turn.rolled or cube.premature_double == "refused":
            detail = "not the doubler's turn"
            return _refuse(state, "refused_not_turn", "cube.premature_double", rules, detail)
        ruling = CubeRuling(
            "premature_pending",
            rules.rule("cube.premature_double"),
            "takes effect when the opponent's move is complete",
            forfeits_delay=rules.clock.premature_action_forfeits_delay,
        )
        return CubeStep(dataclasses.replace(state, pending=offer), ruling)
    if turn.cocked and not cube.double_after_cocked_dice:
        detail = "cocked dice were rolled"
        return _refuse(
            state, "refused_after_cocked", "cube.double_after_cocked_dice", rules, detail
        )
    if turn.rolled and cube.double_before_rolling:
        detail = "the dice were rolled"
        return _refuse(state, "refused_after_roll", _TURN, rules, detail)
    offered = dataclasses.replace(state, offer=offer, turned=True)
    return CubeStep(offered, level)


def complete_move(state: CubeState, mover: Player) -> CubeState:
    """``mover`` completed his move: a premature double by the opponent now stands (JBL 4.4.5)."""
    pending = state.pending
    if pending is None or pending.doubler == mover:
        return state
    return dataclasses.replace(state, offer=pending, pending=None, turned=True)


def take(state: CubeState, taker: Player) -> CubeState:
    """``taker`` takes: the cube goes to its new value on his side (MSO 5.4, JBL 4.4.3)."""
    offer = _answerable(state, taker)
    return dataclasses.replace(state, value=offer.value, owner=offer.owner_if_taken, offer=None)


def pass_double(state: CubeState, passer: Player) -> Passed:
    """``passer`` passes: the doubler wins the value before the double (MSO 5.4)."""
    offer = _answerable(state, passer)
    return Passed(winner=offer.doubler, cube_value=offer.stake)


def beaver(state: CubeState, rules: RuleSet, beaverer: Player) -> CubeState:
    """Money play with beavers: the doubled player redoubles at once and keeps the cube
    (backgammon-rules.txt "Optional Rule"); the original doubler takes or passes."""
    offer = _answerable(state, beaverer)
    if not rules.cube.beavers or offer.beaver:
        raise BeaverNotAllowedError(f"no beaver here ({rules.rule('cube.beavers')})")
    value = offer.value * 2
    if value > rules.cube.limit:
        raise CubeLimitError(f"a beaver to {value} passes the limit {rules.cube.limit}")
    beavered = Offer(
        doubler=beaverer, value=value, stake=offer.value, owner_if_taken=beaverer, beaver=True
    )
    return dataclasses.replace(state, offer=beavered)


def automatic_double(state: CubeState, rules: RuleSet) -> CubeState:
    """Money play: equal opening dice double the centred cube, up to ``cube.automatic_doubles``
    per game (backgammon-rules.txt "Optional Rule"). It is not an offer (Jacoby still applies)."""
    if state.automatic >= rules.cube.automatic_doubles:
        rule = rules.rule("cube.automatic_doubles")
        raise AutomaticDoubleError(f"no (more) automatic doubles ({rule})")
    if state.value * 2 > rules.cube.limit:
        raise CubeLimitError(f"an automatic double passes the limit {rules.cube.limit}")
    return dataclasses.replace(state, value=state.value * 2, automatic=state.automatic + 1)


def freeze(state: CubeState, rules: RuleSet) -> CubeState:
    """MSO-clock 5.2: penalty points brought a player within one point: the cube stays where and
    at what value it is, unusable for the rest of the game; a pending premature double lapses."""
    rule = rules.rule("clock.expiry.freeze_cube_within_one")
    return dataclasses.replace(state, available=False, unavailable_rule=rule, pending=None)


def _level(state: CubeState, rules: RuleSet, to_value: int | None) -> tuple[int, CubeRuling]:
    proper = state.value * 2
    offered = CubeRuling("offered", rules.rule(_TURN), f"double to {proper}")
    if to_value is None or to_value == proper:
        return proper, offered
    rule = rules.rule("cube.wrong_level_double")
    valid_face = to_value > proper and not to_value & (to_value - 1)
    if rules.cube.wrong_level_double == "stands_once_answered" and valid_face:
        detail = f"turned to {to_value} instead of {proper}: stands once taken or passed"
        return to_value, CubeRuling("wrong_level_stands", rule, detail)
    detail = f"turned to {to_value}: corrected to {proper}"
    return proper, CubeRuling("wrong_level_corrected", rule, detail)


def _refuse(
    state: CubeState, kind: CubeRulingKind, key: str, rules: RuleSet, detail: str
) -> CubeStep:
    return CubeStep(state, CubeRuling(kind, rules.rule(key), detail))


def _answerable(state: CubeState, responder: Player) -> Offer:
    if state.offer is None:
        raise NoOfferError("no double has been offered")
    if state.offer.doubler == responder:
        raise WrongSideError(f"player {responder} cannot answer his own double")
    return state.offer
