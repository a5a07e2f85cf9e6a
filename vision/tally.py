"""Fifteen checkers a side: a colour's readings completed, or caught out, by their sum.

Each side has 15 checkers ("each player begins the game with fifteen checkers": the rules of
play, ``shared/rules/backgammon-rules.txt``), on its points, on the bar or borne off. Where the
trays bound the checkers borne off (``vision.trays.off_places``: a count, or the counts the
tray net finds plausible), the counts of a colour's places (its points, its half of the bar
and its tray) must sum to 15, so the sum may prove the tray's count as well as a point's.
``settle`` narrows each place's span of counts by what the other places can hold:

- a place left with a single count is counted, if the checker net finds that count plausible
  (a visible count it gives at least ``min_probability``, or more than it sees on a stack that
  may hide checkers): the sum proves it, given the other places;
- where the places cannot hold the sum, or a place would be left with a count the net finds
  implausible, the colour's reading is inconsistent (``None``): some count is wrong, and the
  caller withholds the one the net misses most (a dark checker on a dark bar) and, where
  ``suspect`` blames a point (the place whose needed count the net finds likeliest), gives
  that point's count only as a range from what it saw to what the sum needs.

A setup error that leaves checkers in the tray (MSO 4.7, JBL 4.2.4: "fewer than fifteen
checkers" on the board) keeps the sum: the tray's checkers are read as borne off. Only a set
that lacks a checker altogether breaks it; its colour then seldom adds up, and gets no bar
count, but where one of its counts is unsure the sum can prove it one too high.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt


@dataclass(frozen=True)
class Place:
    """One place of a colour's checkers: the counts the reading allows (``low..high``;
    ``low == high``: counted), the net's P(visible = 0..15) and whether a stack may hide
    checkers there (then counts above the likeliest visible one are plausible too)."""

    low: int
    high: int
    probabilities: npt.NDArray[np.float32]
    hidden: bool

    def plausible(self, count: int, min_probability: float) -> bool:
        """Whether the net allows ``count`` checkers here."""
        if self.low == self.high:
            return count == self.low
        visible = count < len(self.probabilities) and (
            float(self.probabilities[count]) >= min_probability
        )
        return visible or (self.hidden and count > int(np.argmax(self.probabilities)))


def settle(
    places: Sequence[Place], total: int, min_probability: float
) -> list[tuple[int, int]] | None:
    """Each place's span (low, high) narrowed so the places can sum to ``total``; None where
    they cannot, or where a place is left only a count it finds implausible."""
    lows = sum(p.low for p in places)
    highs = sum(p.high for p in places)
    if not lows <= total <= highs:
        return None
    spans = []
    for place in places:
        low = max(place.low, total - (highs - place.high))
        high = min(place.high, total - (lows - place.low))
        if low == high and not place.plausible(low, min_probability):
            return None
        spans.append((low, high))
    return spans


def suspect(places: Sequence[Place], total: int) -> tuple[int, int, int] | None:
    """Where places cannot sum to ``total``, the place most likely wrong: the one that, the
    others as they are, would need a count the net gives the most probability (a count above
    its likeliest visible one over a stack that may hide checkers counts as likely as that
    one; however small, but not none: on tuning frames 650,000..650,999 blaming only counts
    given at least 0.01 left 1.23% of boards confidently wrong, blaming any 1.00%). Returns its
    index and the span of counts it would need (``low``, ``high``); None where no single place
    can make the sum with a count its net allows at all."""
    lows = sum(p.low for p in places)
    highs = sum(p.high for p in places)
    blamed: tuple[float, int, int, int] | None = None
    for index, place in enumerate(places):
        need_low = max(0, total - (highs - place.high))
        need_high = min(len(place.probabilities) - 1, total - (lows - place.low))
        if need_low > need_high:
            continue
        likeliest = int(np.argmax(place.probabilities))
        counts = range(need_low, need_high + 1)
        probability = max(
            float(place.probabilities[likeliest if place.hidden and n > likeliest else n])
            for n in counts
        )
        if probability > (0.0 if blamed is None else blamed[0]):
            blamed = (probability, index, need_low, need_high)
    return None if blamed is None else blamed[1:]
