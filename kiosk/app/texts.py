"""Every sentence the screens show, built from snapshot values in the chosen language (pure).

Message ids are English with ``{named}`` fields; :func:`kiosk.app.i18n.tr` translates them
before the fields are filled, so word order may differ per language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from kiosk.app.actions import ActionKind
from kiosk.app.director import IncidentView, MatchSettings
from kiosk.app.i18n import tr
from kiosk.app.prompts import PLAYER_PARAMS, Param, Prompt
from kiosk.app.snapshot import CubeView, DieView, MatchView, PlayerView


def _(language: str, msgid: str, **fields: object) -> str:
    return tr(language, msgid).format(**fields)


def sentence(text: str) -> str:
    """``text`` with its first letter capitalised (the referee writes lower-case clauses)."""
    return text[:1].upper() + text[1:]


def format_reserve(ms: int) -> str:
    """A reserve as ``m:ss`` (``h:mm:ss`` from an hour), rounded up to the second; 0:00 at most."""
    seconds = max(0, -(-ms // 1000))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def format_allowance(ms: int) -> str:
    """The allowance left in whole seconds, rounded up (a 12 s delay shows 12 at its start)."""
    return str(max(0, -(-ms // 1000)))


def match_title(language: str, match: MatchView) -> str:
    """``7-point match``, ``Money session``, plus the rule set."""
    if match.length == 0:
        title = _(language, "Money session")
    else:
        title = _(language, "{length}-point match", length=match.length)
    return f"{title} · {match.ruleset.upper()}" if match.ruleset else title


def crawford_text(language: str, match: MatchView) -> str:
    """``Crawford game`` / ``Post-Crawford`` / empty (MSO 5.5, JBL 4.4.4: no doubling in the
    Crawford game)."""
    if match.crawford:
        return _(language, "Crawford game")
    if match.post_crawford:
        return _(language, "Post-Crawford")
    return ""


def cube_text(language: str, cube: CubeView, players: Sequence[PlayerView]) -> str:
    """``Cube 1 · centre`` or ``Cube 4 · Ben``."""
    if cube.owner is None:
        return _(language, "Cube {value} · centre", value=cube.value)
    return _(language, "Cube {value} · {name}", value=cube.value, name=players[cube.owner].name)


def turn_text(language: str, turn: int | None, players: Sequence[PlayerView]) -> str:
    """``Aiko to play`` or empty between games."""
    if turn is None:
        return ""
    return _(language, "{name} to play", name=players[turn].name)


def dice_text(language: str, dice: Sequence[DieView]) -> str:
    """The dice as read: ``5 2``, a cocked die marked, an unreadable one as ``?``, none ``–``."""
    if not dice:
        return "–"
    parts = []
    for die in dice:
        value = "?" if die.value is None else str(die.value)
        parts.append(_(language, "{value} (cocked)", value=value) if die.cocked else value)
    return " ".join(parts)


ILLEGAL_TEXTS: dict[str, str] = {  # the referee's reasons (kiosk.referee.explain)
    "opponent_moved": "the opponent's checkers were moved (only a hit blot goes to the bar)",
    "count_changed": "checkers were added to or taken from the board",
    "backwards": "a checker was moved backwards",
    "wrong_number": "a {die} was played with {d1}-{d2}",
    "too_much": "more than {d1}-{d2} was played",
    "not_all": "not all of {d1}-{d2} was played though it could be",
    "bar_first": "a checker was moved while another stayed on the bar",
    "bear_off_early": "a checker was borne off while others were not home",
    "movement": (
        "this play of {d1}-{d2} breaks the rules of movement (a held point, or the larger die)"
    ),
}
AN_TEXTS: dict[str, str] = {"wrong_number": "an {die} was played with {d1}-{d2}"}
AN_NUMBERS = frozenset({8, 11, 18})  # English says "an 8", "an 11", "an 18"

NoticeKey = tuple[str, Param]
NOTICE_VARIANTS: dict[str, str] = {  # the param that picks a subject's sentence
    "setup_error": "cause",
    "ambiguous_reading": "cause",
    "restore_position": "cause",
    "roll_again": "cause",
    "concession_offered": "claim",
    "concession_ruling": "outcome",
    "expiry_ruling": "outcome",
    "match_over": "ending",
}
NOTICE_TEXTS: dict[NoticeKey, str] = {  # (referee prompt kind, variant): the notice's sentence
    ("setup_error", "cube"): "Centre the cube showing {faces}",
    ("setup_error", "checkers"): "The setup is wrong: set it up as shown",
    ("setup_choice", None): "{player}'s missing checkers: play on, or put them on the bar",
    ("replay", None): "{player}: play {dice} again, legally",
    ("ambiguous_reading", "unreadable"): "The kiosk cannot read the board clearly",
    ("ambiguous_reading", "several_plays"): "The kiosk cannot tell the play: clear the view",
    ("restore_position", "out_of_turn"): "Checkers moved out of turn: put them back",
    ("premature_roll_choice", None): "{player} rolled early: does the roll stand?",
    ("concession_offered", False): "{player} concedes a {kind}",
    ("concession_offered", True): "{player} claims a {kind}",
    ("concession_ruling", "gin_verdict_needed"): "The director rules on the offered end of game",
    ("concession_ruling", "outcome_stands"): "{player} rejects: outcome stands",
    ("concession_ruling", "play_on"): "{player} rejects: play on",
    ("concession_ruling", "play_on_with_bonus"): "{player} rejects: play on with bonus",
    ("concession_ruling", "play_on_without_clocks"): "{player} rejects: play on without clocks",
    ("concession_ruling", "director"): "{player} rejects: director",
    ("expiry_ruling", "director"): "Time expired: the director rules",
    ("expiry_ruling", "penalty_points"): "{player}'s time expired: penalty points",
    ("expiry_ruling", "match_lost"): "{player}'s time expired: match lost",
    ("expiry_ruling", "match_won_on_gin"): "{player}'s time expired: match won on gin",
    ("claim_time", None): "{player}'s time is up ({rule})",
    ("roll_again", "equal"): "Equal opening dice ({value}): roll again",
    ("roll_again", "sides"): "Roll the opening dice on your own sides",
    ("roll_again", "cocked"): "A die is cocked: roll again",
    ("roll_again", "right_of_bar"): "The dice must land flat to the right of the bar: roll again",
    ("roll_again", "own_home"): (
        "The dice must land flat in the roller's own home board: roll again"
    ),
    ("roll_again", "board"): "A die is off the board: roll again",
    ("game_over", None): "{player} wins a {kind} ({points} point(s)); score {score}",
    ("match_over", "score"): "{player} wins the match {score}",
    ("match_over", "penalty_points"): "{player} wins the match {score} with penalty points",
    ("match_over", "time"): (
        "{player} wins the match on time: {loser}'s time expired with the score at {score}"
    ),
    ("match_over", "time_gin"): (
        "{player} wins the match on a gin win at the expiry of his time, with the score at {score}"
    ),
    ("match_over", "forfeit"): "{player} wins the match by forfeit, with the score at {score}",
    # the venue director's ruling (kiosk.pipeline.venue_link): {note} is "" or " (the note)"
    ("director_ruling", None): "Director's ruling on incident {incident}: {decision}{note}",
}

VERDICT_TEXTS: dict[str, str] = {  # what a ruling rests on (MSO 1.5, JBL 1.9: rulings only)
    "certain_loss": "Certain: {loser} loses a {kind}",
    "outcome_certain": "The outcome is certain",
    "gin_win": "Gin win of the match",
    "no_gin_win": "No gin win of the match",
    "out_of_reach": "Needs {away} points; this game gives at most {most}",
}

RESULT_WORDS: dict[str, str] = {"single": "single", "gammon": "gammon", "backgammon": "backgammon"}
DIRECTOR_DECISIONS: dict[str, str] = {  # kiosk.venue.schema.Decision, as the table shows them
    "condone": "condone",
    "replay-legal": "replay-legal",
    "roll-again": "roll-again",
    "restore-position": "restore-position",
    "penalty-point": "penalty-point",
    "warning": "warning",
    "no-action": "no-action",
    "other": "other",
}

DICE_PROBLEM_TEXTS: dict[str, str] = {
    "cocked": "A die is cocked: roll again",
    "wrong_side": "The dice landed on the wrong side of the bar: roll again",
    "off_board": "A die left the board: roll again",
    "unreadable": "The kiosk cannot read the dice: clear the view",
    "invalid": "The roll is not valid: roll again",
}

PAUSE_TEXTS: dict[str, str] = {
    "director": "Director called: clocks stopped",
    "break": "Break: clocks stopped",
    "dice_mix": "Dice mix: clocks stopped",
    "dispute": "Dispute: clocks stopped, board frozen",
}

DECISION_TEXTS: dict[str, str] = {
    "penalty_point": "Time expired: {name} loses {points} point(s)",
    "loses_game": "Time expired: {name} loses the game",
    "loses_match": "Time expired: {name} loses the match",
    "no_penalty": "Time expired: no penalty for {name}",
    "accepted": "Concession accepted",
    "refused": "Concession refused",
}

GIN_VERDICTS: dict[str, str] = {
    "certain": "certain",
    "possible": "possible",
    "impossible": "impossible",
}

RULING_TEXTS: dict[str, str] = {
    "upheld": "Upheld",
    "dismissed": "Dismissed",
    "penalty_point": "Penalty point",
    "replay": "Turn replayed",
}

INCIDENT_KINDS: dict[str, str] = {  # the referee's incident kinds (kiosk.referee.incidents)
    "setup_error": "Setup error",
    "setup_corrected": "Setup corrected",
    "cube_start_wrong": "Cube not centred at the start",
    "invalid_roll": "Invalid roll",
    "dice_unreadable": "Dice unreadable",
    "premature_roll": "Premature roll",
    "dice_touched_early": "Dice touched too early",
    "board_changed_out_of_turn": "Checkers moved out of turn",
    "illegal_move": "Illegal move",
    "illegal_move_condoned": "Illegal move accepted",
    "illegal_move_replay": "Legal move demanded",
    "ambiguous_reading": "Play not clear to the camera",
    "reading_unusable": "Board unreadable",
    "premature_double": "Premature double",
    "wrong_cube_level": "Wrong cube level",
    "double_in_crawford": "Double in the Crawford game",
    "concession_refused": "Concession refused",
    "concession_rejected": "Concession rejected",
    "game_won": "Game won",
    "match_won": "Match won",
    "flag_fell": "Time expired",
    "expiry_ruling": "Ruling on time expiry",
    "break_taken": "Break",
    "director_called": "Director called",
    "dice_mix": "Dice mix",
    "director_ruling": "Director's ruling",
    "director_adjustment": "Director's correction",
    "press_out_of_turn": "Clock pressed out of turn",
    "already_running": "Clock already running",
    "break_limit_exceeded": "Too many breaks",
    "break_mid_game": "Break during a game",
    "centring_not_allowed": "Clocks stopped without a listed cause",
    "cube_refused": "Cube action refused",
    "dice_mix_not_allowed": "Dice mix not allowed",
    "forfeit_not_in_rules": "Forfeit not in these rules",
    "gin_unavailable": "Gin verdict unavailable",
    "gin_verdict_needed": "Gin verdict needed",
    "invalid_action": "Invalid action",
    "invalid_adjustment": "Invalid correction",
    "no_flag": "No flag has fallen",
    "nothing_to_resume": "Nothing to resume",
    "opening_press_wrong": "Wrong press at the opening roll",
    "out_of_phase": "Action out of sequence",
    "press_after_flag": "Clock pressed after time expired",
    "press_before_roll": "Clock pressed before rolling",
    "setup_choice": "Choice after a setup error",
    "setup_official": "Setup became official",
    "time_went_backwards": "Clock time went backwards",
}

LEVEL_TEXTS: dict[str, str] = {
    "single": "single game",
    "gammon": "gammon",
    "backgammon": "backgammon",
}

GIN_TEXTS: dict[str, str] = {
    "win": "Win: {verdict}",
    "gammon": "Gammon: {verdict}",
    "backgammon": "Backgammon: {verdict}",
}


def illegal_reason(language: str, prompt: Prompt) -> str:
    """What makes the play illegal, e.g. ``a 6 was played with 5-2`` (or the prompt's text)."""
    if not prompt.reason:
        return prompt.text
    d1, d2 = prompt.dice
    msgid = ILLEGAL_TEXTS[prompt.reason]
    if prompt.details.get("die") in AN_NUMBERS:
        msgid = AN_TEXTS.get(prompt.reason, msgid)
    return _(language, msgid, d1=d1, d2=d2, **prompt.details)


def notice_text(language: str, prompt: Prompt, players: Sequence[PlayerView]) -> str:
    """A referee notice written from its subject and params, names and words in ``language``;
    the referee's own text when the screen has no sentence for it."""
    variant = prompt.params.get(NOTICE_VARIANTS.get(prompt.subject, ""))
    msgid = NOTICE_TEXTS.get((prompt.subject, variant))
    if msgid is not None:
        try:
            return _(language, msgid, **param_fields(language, prompt.params, players))
        except KeyError:  # a snapshot whose params lack a fact its sentence names
            pass
    return sentence(prompt.text)


def verdict_text(language: str, prompt: Prompt, players: Sequence[PlayerView]) -> str:
    """The verdict a ruling notice rests on (its ``params.verdict``), else its verdict sentence.
    The parser keeps the code in rulings only (MSO 1.5, JBL 1.9)."""
    code = prompt.params.get("verdict")
    if not isinstance(code, str) or code not in VERDICT_TEXTS:
        return prompt.verdict
    return _(language, VERDICT_TEXTS[code], **param_fields(language, prompt.params, players))


def param_fields(
    language: str, params: Mapping[str, Param], players: Sequence[PlayerView]
) -> dict[str, object]:
    """A notice's params as the fields of its sentence: players as their names, a result
    kind, a director's decision and the cube's faces in ``language``, a note in brackets."""
    fields: dict[str, object] = dict(params)
    for key in PLAYER_PARAMS:
        side = params.get(key)
        if isinstance(side, int):
            fields[key] = players[side].name
    kind = params.get("kind")
    if isinstance(kind, str) and kind in RESULT_WORDS:
        fields["kind"] = tr(language, RESULT_WORDS[kind])
    decision = params.get("decision")
    if isinstance(decision, str) and decision in DIRECTOR_DECISIONS:
        fields["decision"] = tr(language, DIRECTOR_DECISIONS[decision])
    if "note" in params:
        fields["note"] = f" ({params['note']})" if params["note"] else ""
    faces = params.get("faces")
    if isinstance(faces, str):
        *first, last = faces.split("/")
        fields["faces"] = (
            _(language, "{first} or {second}", first=", ".join(first), second=last)
            if first
            else last
        )
    return fields


def prompt_title(language: str, prompt: Prompt, players: Sequence[PlayerView]) -> str:
    """The prompt's headline."""
    name = "" if prompt.side is None else players[prompt.side].name
    if prompt.kind == "illegal_move":
        return _(language, "Illegal move by {name}", name=name)
    if prompt.kind == "setup_error":
        return _(language, "The starting setup is wrong")
    if prompt.kind == "invalid_dice":
        return _(language, DICE_PROBLEM_TEXTS[prompt.reason])
    if prompt.kind == "cube_offered":
        return _(language, "{name} doubles to {value}", name=name, value=prompt.value)
    if prompt.kind == "paused":
        return _(language, PAUSE_TEXTS[prompt.reason])
    if prompt.kind == "ruling":
        return sentence(ruling_text(language, prompt, players))
    return notice_text(language, prompt, players)


def prompt_body(language: str, prompt: Prompt, players: Sequence[PlayerView]) -> str:
    """The prompt's explanation under the headline (may be empty)."""
    if prompt.kind == "illegal_move":
        lines = [sentence(illegal_reason(language, prompt))]
        if prompt.play_seen:
            lines.append(_(language, "Play seen: {play}", play=prompt.play_seen))
        return "\n".join(line for line in lines if line)
    if prompt.kind == "setup_error":
        if prompt.rule:
            return _(language, "Set up the checkers as drawn ({rule})", rule=prompt.rule)
        return _(language, "Set up the checkers as drawn")
    if prompt.kind in ("ruling", "notice"):
        return gin_text(language, prompt, players)
    return ""


def decider_text(language: str, prompt: Prompt, players: Sequence[PlayerView]) -> str:
    """Who must answer: ``to``, or the opponent of ``side`` (illegal move, cube offered)."""
    if prompt.to is not None and prompt.choices:
        return _(language, "{name}, your decision:", name=players[prompt.to].name)
    if prompt.side is None or prompt.kind not in ("illegal_move", "cube_offered"):
        return ""
    return _(language, "{name}, your decision:", name=players[1 - prompt.side].name)


def ruling_text(language: str, prompt: Prompt, players: Sequence[PlayerView]) -> str:
    """The ruling on a time expiry or an offered end of game (or the prompt's text)."""
    if not prompt.decision:
        return prompt.text
    name = "" if prompt.side is None else players[prompt.side].name
    text = _(language, DECISION_TEXTS[prompt.decision], name=name, points=prompt.value)
    if prompt.topic == "concession" and prompt.level:
        level = tr(language, LEVEL_TEXTS[prompt.level])
        text = f"{text} ({level})"
    return text


def gin_text(language: str, prompt: Prompt, players: Sequence[PlayerView]) -> str:
    """The gin verdict of a ruling (parsed only for rulings: MSO 1.5, JBL 1.9)."""
    parts = [
        _(language, GIN_TEXTS[key], verdict=tr(language, GIN_VERDICTS[verdict]))
        for key, verdict in prompt.gin.items()
    ]
    verdict = verdict_text(language, prompt, players)
    if verdict:
        parts.append(verdict)
    return "   ".join(parts)


CHOICE_TEXTS: dict[ActionKind, str] = {
    ActionKind.DOUBLE: "Double",
    ActionKind.TAKE: "Take",
    ActionKind.PASS: "Pass",
    ActionKind.CONCEDE: "Concede",
    ActionKind.CLAIM: "Claim",
    ActionKind.ACCEPT: "Accept",
    ActionKind.REJECT: "Refuse",
    ActionKind.CONDONE: "Accept the move",
    ActionKind.DEMAND_LEGAL: "Demand a legal move",
    ActionKind.PREMATURE_ROLL_STANDS: "Let the roll stand",
    ActionKind.PREMATURE_ROLL_REROLL: "Have the dice rolled again",
    ActionKind.SETUP_PLAY_ON: "Play on as set up",
    ActionKind.SETUP_MISSING_TO_BAR: "Missing checkers to the bar",
    ActionKind.PERMIT_OTHER_HALF: "Allow rolling in my half",
    ActionKind.WITHDRAW_PERMISSION: "Withdraw that permission",
    ActionKind.CLAIM_TIME: "Claim the time",
    ActionKind.BREAK: "Break",
    ActionKind.RESUME: "Resume",
    ActionKind.CALL_DIRECTOR: "Call the director",
    ActionKind.DICE_MIX: "Dice mix",
}

SIDE_QUESTIONS: dict[str, str] = {
    "break": "Who takes the break?",
    "dice_mix": "Who asks for a dice mix?",
    "call_director": "Who calls the director?",
}


def incident_title(language: str, incident: IncidentView) -> str:
    """``#3  12:34  Illegal move`` for the director's list (ruled incidents marked)."""
    kind = tr(language, INCIDENT_KINDS.get(incident.kind, incident.kind.replace("_", " ")))
    mark = " ✓" if incident.ruling else ""
    return f"#{incident.id}  {format_reserve(incident.t_ms)}  {kind}{mark}"


def incident_detail(language: str, incident: IncidentView, players: Sequence[PlayerView]) -> str:
    """Everything the director reviews about an incident, legal plays included (director only)."""
    lines = [incident_title(language, incident), _(language, "Rule: {rule}", rule=incident.rule)]
    if incident.side is not None:
        lines.append(_(language, "Player: {name}", name=players[incident.side].name))
    if incident.dice:
        lines.append(_(language, "Dice: {dice}", dice="-".join(map(str, incident.dice))))
    if incident.play_seen:
        lines.append(_(language, "Play seen: {play}", play=incident.play_seen))
    if incident.legal_plays:
        shown = ", ".join(incident.legal_plays[:6])
        more = len(incident.legal_plays) - 6
        suffix = _(language, " and {count} more", count=more) if more > 0 else ""
        lines.append(_(language, "Legal plays: {plays}", plays=shown) + suffix)
    if incident.position_id:
        lines.append(f"Position ID: {incident.position_id}")
    if incident.ruling:
        ruling = tr(language, RULING_TEXTS.get(incident.ruling, incident.ruling))
        lines.append(_(language, "Ruling: {ruling}", ruling=ruling))
    return "\n".join(lines)


def settings_text(language: str, settings: MatchSettings) -> str:
    """The rule set and match settings in force, one line each."""
    length = (
        _(language, "Money session")
        if settings.match_length == 0
        else _(language, "{length}-point match", length=settings.match_length)
    )
    clock = (
        _(language, "Clock on, delay {seconds} s", seconds=settings.delay_s)
        if settings.clock
        else _(language, "Clock off")
    )
    announce = (
        tr(language, "Irregularities announced at the table")
        if settings.announce
        else tr(language, "Irregularities recorded for the director only")
    )
    return "\n".join(
        [_(language, "Rule set: {name}", name=settings.ruleset.upper()), length, clock, announce]
    )
