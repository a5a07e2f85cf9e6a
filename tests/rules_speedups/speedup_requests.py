"""Requests for the ``check`` command from random games, for the differential tests.

Legal plays, plays of other rolls, unchanged boards, boards with a checker moved by hand,
corrupted IDs, IDs with too many checkers or both colours on a point, odd dice and XGIDs.
"""

from __future__ import annotations

import base64
import random
import string
from collections.abc import Iterator

from kiosk.rules.dice import Dice
from kiosk.rules.ids import position_id
from kiosk.rules.movegen import legal_results
from kiosk.rules.position import BAR, START, Position
from kiosk.rules.xgid import Xgid, format_xgid

BASE64 = string.ascii_letters + string.digits + "+/"


def _raw_id(on_roll: list[int], opponent: list[int]) -> str:
    """A Position ID written bit by bit, without the validation of :func:`position_id`."""
    bits = shift = 0
    for side in (opponent, on_roll):
        for count in side[1:]:
            bits |= ((1 << count) - 1) << shift
            shift += count + 1
    key = (bits & ((1 << 80) - 1)).to_bytes(10, "little")
    return base64.b64encode(key).decode("ascii")[:14]


def _moved_by_hand(rng: random.Random, position: Position) -> Position:
    """One checker of the player on roll moved anywhere (often not a legal play)."""
    mover = list(position.on_roll)
    sources = [i for i in range(1, BAR + 1) if mover[i]]
    source = rng.choice(sources)
    mover[source] -= 1
    mover[rng.randrange(0, BAR + 1)] += 1
    return Position(tuple(mover), position.opponent)


def _corrupted(rng: random.Random, text: str) -> object:
    kind = rng.randrange(7)
    if kind == 0:
        index = rng.randrange(len(text))
        return text[:index] + rng.choice(BASE64) + text[index + 1 :]
    if kind == 1:
        return text[: rng.randrange(len(text))]
    if kind == 2:
        return text + rng.choice(BASE64)
    if kind == 3:
        index = rng.randrange(len(text))
        return text[:index] + rng.choice("=!-_ é:") + text[index + 1 :]
    if kind == 4:
        return rng.choice([None, 17, ["4HPwATDgc/ABMA"], True])
    if kind == 5:
        # Valid base64 with random bits: too many checkers, bits after the last, clashes.
        return "".join(rng.choice(BASE64) for _ in range(14))
    counts = [[0] * (BAR + 1) for _ in range(2)]
    for side in counts:
        for _ in range(rng.randint(13, 17)):
            side[rng.randrange(1, BAR + 1)] += 1
    return _raw_id(counts[0], counts[1])


def _odd_dice(rng: random.Random, dice: Dice) -> object:
    return rng.choice(
        [
            [str(dice.first), dice.second],
            [dice.first, 0],
            [7, dice.second],
            [True, dice.second],
            [float(dice.first), dice.second],
            [dice.first],
            [dice.first, dice.second, 1],
            "31",
            None,
        ]
    )


def requests(count: int, seed: int) -> Iterator[dict[str, object]]:
    """``check`` input records from random games."""
    rng = random.Random(seed)
    position = START
    for number in range(count):
        dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
        results = list(legal_results(position, dice))
        kind = rng.random()
        if kind < 0.45:
            mover, opponent = rng.choice(results)
            after = Position(opponent, mover)
        elif kind < 0.75:
            other = Dice(rng.randint(1, 6), rng.randint(1, 6))
            mover, opponent = rng.choice(list(legal_results(position, other)))
            after = Position(opponent, mover)
        elif kind < 0.82:
            after = rng.choice([position.swapped(), position])
        else:
            after = _moved_by_hand(rng, position).swapped()
        record: dict[str, object] = {
            "id": number,
            "position": position_id(position),
            "dice": [dice.first, dice.second],
        }
        after_id = _raw_id(list(after.on_roll), list(after.opponent))
        record["after"] = after_id
        damage = rng.random()
        if damage < 0.03:
            record["position"] = _corrupted(rng, str(record["position"]))
        elif damage < 0.06:
            record["after"] = _corrupted(rng, after_id)
        elif damage < 0.08:
            record["dice"] = _odd_dice(rng, dice)
        elif damage < 0.085:
            record["position"] = format_xgid(Xgid(position=position, bottom_on_roll=True))
        elif damage < 0.09:
            del record[rng.choice(["position", "dice", "after"])]
        yield record
        mover, opponent = rng.choice(results)
        position = Position(opponent, mover)
        if position.is_game_over():
            position = START
