"""Rules the referee enforces that are not values of a rule-set file (those come from
``RuleSet.rule``): the common procedures, cited per rule set."""

from __future__ import annotations

from kiosk.rulesets import RuleSet

_COMMON = "backgammon-rules.txt"

LEGAL_PLAY = "backgammon-rules.txt 'Movement of the checkers'"
"""The rules a play must follow, common to every rule set (MSO 1.2, JBL 4.2)."""

_TEXTS: dict[str, dict[str, str]] = {
    "checkers_out_of_turn": {
        "mso": "MSO 4.3: no player shall move any checkers during an opponent's turn",
        "jbl": "JBL 4.2.2: nobody touches checkers until the opponent's play is complete",
        "ga": "GA 'Rolling and moving'",
    },
    "dice_out_of_turn": {
        "mso": "MSO-clock 3.4: no player may touch the dice during his opponent's turn",
        "jbl": "JBL 4.1.5(2), 4.3.2(5): the opponent may not touch the dice before the play ends",
        "ga": "GA 'Rolling and moving': the non-mover may not touch the dice",
        "biba": "BIBA 4.6",
    },
    "opening_roll": {
        "mso": "MSO-clock 3.3: each rolls one die, the lower die hits the clock",
        "ga": "GA 'Starting a game': the player rolling the lower die hits his clock",
        "biba": "BIBA (as MSO-clock 3.3, RULESETS.md)",
        "jbl": "JBL: not stated; backgammon-rules.txt 'To start the game'",
    },
    "end_of_turn": {
        "mso": "MSO-clock 3.4: the turn ends by hitting the clock",
        "jbl": "JBL 4.1.6: the play ends when the clock is pressed",
        "ga": "GA 'Completing a turn'",
        "biba": "BIBA 4.5",
    },
    "disputes": {
        "mso": "MSO 6.1: dice, checkers, cube and score sheet stay unchanged",
        "jbl": "JBL 5.1: dice, checkers, cube and score sheet stay untouched",
    },
}


def reference(citation: str) -> str:
    """A citation without its wording, e.g. ``JBL 4.3.3`` (for the players' screen, whose own
    sentence is in the table's language)."""
    return citation.split(":", 1)[0]


def cite(rules: RuleSet, topic: str) -> str:
    """The rule of ``rules`` for ``topic`` (falls back to the common rules of play)."""
    return _TEXTS[topic].get(rules.name, f"{_COMMON} (no {rules.name.upper()} rule stated)")
