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
- a place left a span of counts is counted where the sum makes one of them likely
  (``joint_counts``): the net's probabilities of the places' counts, weighed together over
  every way the places make the sum, give that count at least ``min_probability`` (the net's
  own two unsure readings, a 5 that may hide a checker and a faint single checker, can make
  the sum only one likely way);
- where the places cannot hold the sum, or a place would be left with a count the net finds
  implausible, the colour's reading is inconsistent (``None``): some count is wrong, and the
  caller withholds the one the net misses most (a dark checker on a dark bar) and, where it
  blames a point (of ``suspects``, the place whose needed count the net finds likeliest),
  gives that point's count only as a range from what it saw to what the sum needs (or,
  where the net allows that count and finds it much likelier than any other suspect's, the
  count: ``vision.checkers._proven``).

A setup error that leaves checkers in the tray (MSO 4.7, JBL 4.2.4: "fewer than fifteen
checkers" on the board) keeps the sum: the tray's checkers are read as borne off. Only a set
that lacks a checker altogether breaks it; its colour then seldom adds up, and gets no bar
count, but where one of its counts is unsure the sum can prove it one too high.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

# Of the counts above the likeliest visible one over a stack that may hide checkers, each is
# this many times as likely as the one below it (the net gives only P(some hidden)). (Tuning
# frames 650,000..650,999 and 660,000..660,999, labelled corners, 1,788 boards: without
# ``joint_counts`` 94.5% read exactly, 0.62% confidently wrong; with it, 0.5: 96.2% and 0.62%;
# 0.2: 96.1% and 0.62%; 0.8: 96.1% and 0.90%.)
HIDDEN_DECAY = 0.5


@dataclass(frozen=True)
class Place:
    """One place of a colour's checkers: the counts the reading allows (``low..high``;
    ``low == high``: counted), the net's P(visible = 0..15), whether a stack may hide
    checkers there (then counts above the likeliest visible one are plausible too) and the
    probability that it does (where no stack may, the sum still blames the place for
    checkers under it that likely: ``suspects``)."""

    low: int
    high: int
    probabilities: npt.NDArray[np.float32]
    hidden: bool
    hidden_probability: float = 0.0

    def likelihoods(self, low: int, high: int, total: int) -> npt.NDArray[np.float64]:
        """How likely the net finds each count 0..``total`` here, zero outside ``low..high``:
        its probability of that many visible, or over a stack that may hide checkers, of
        the likeliest visible count with some hidden (``hidden_probability``, shared out
        over the counts above it by ``HIDDEN_DECAY``)."""
        weights = np.zeros(total + 1)
        best = int(np.argmax(self.probabilities))
        for count in range(low, min(high, total) + 1):
            if self.hidden and count > best:
                extra = count - best - 1
                share = (1.0 - HIDDEN_DECAY) * HIDDEN_DECAY**extra
                weights[count] = float(self.probabilities[best]) * self.hidden_probability * share
            elif count < len(self.probabilities):
                weights[count] = float(self.probabilities[count])
                if self.hidden and count == best:
                    weights[count] *= 1.0 - self.hidden_probability
        return weights

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


def joint_counts(
    places: Sequence[Place], spans: Sequence[tuple[int, int]], total: int, min_probability: float
) -> list[int | None]:
    """Each place's count where its span (``settle``) has one, and more where the sum makes them
    likely: over every way the places' spans make ``total``, weighed by the net's probabilities
    (``Place.likelihoods``, taken as independent), the places are taken likeliest count first
    and each is counted while the counts given so far are together right with at least
    ``min_probability``; else None. The counts given are then one of the ways the places make
    ``total``."""
    counts: list[int | None] = [low if low == high else None for low, high in spans]
    unsure = [i for i, (low, high) in enumerate(spans) if low < high]
    need = total - sum(low for low, high in spans if low == high)
    if not unsure or need < 0:
        return counts
    weights = {i: places[i].likelihoods(*spans[i], need) for i in unsure}
    mass = _ways(list(weights.values()), need)
    if mass <= 0.0:
        return counts
    likeliest = []
    for i in unsure:
        others = _convolved([weights[j] for j in unsure if j != i], need)
        joint = weights[i] * others[::-1]  # this place's count n, the others' need - n
        likeliest.append((float(joint.max()) / mass, i, int(np.argmax(joint))))
    given: dict[int, int] = {}
    for _, i, count in sorted(likeliest, reverse=True):
        trial = {**given, i: count}
        fixed = [_only(weights[j], trial[j]) if j in trial else weights[j] for j in unsure]
        if _ways(fixed, need) >= min_probability * mass:
            given = trial
    for i, count in given.items():
        counts[i] = count
    return counts


def _convolved(weights: Sequence[npt.NDArray[np.float64]], total: int) -> npt.NDArray[np.float64]:
    """The weight of every way the places (their weights of each count) make each sum
    0..``total``."""
    ways = np.zeros(total + 1)
    ways[0] = 1.0
    for w in weights:
        ways = np.convolve(ways, w)[: total + 1]
    return ways


def _ways(weights: Sequence[npt.NDArray[np.float64]], total: int) -> float:
    """The weight of every way the places make ``total``."""
    return float(_convolved(weights, total)[total])


def _only(weights: npt.NDArray[np.float64], count: int) -> npt.NDArray[np.float64]:
    """``weights`` with every count but ``count`` ruled out."""
    kept = np.zeros_like(weights)
    kept[count] = weights[count]
    return kept


class Blame(NamedTuple):
    """A place the sum may blame: the net's ``probability`` of the count it would need (the
    others as they are), the ``place``'s index among the places and the span of counts it would
    need (``low``, ``high``)."""

    probability: float
    place: int
    low: int
    high: int


def suspects(places: Sequence[Place], total: int) -> list[Blame]:
    """Where places cannot sum to ``total``, each place that could make it, the others as they
    are, with a count its net gives any probability (``_blame_probability``: checkers under a
    stack count too), however small but not none (on tuning frames 650,000..650,999 blaming
    only counts given at least 0.01 left 1.23% of boards confidently wrong, blaming any
    1.00%); the likeliest first (the first place of equals first). Empty where no single
    place can make the sum with a count its net allows at all."""
    lows = sum(p.low for p in places)
    highs = sum(p.high for p in places)
    blames = []
    for index, place in enumerate(places):
        need_low = max(0, total - (highs - place.high))
        need_high = min(len(place.probabilities) - 1, total - (lows - place.low))
        if need_low > need_high:
            continue
        likeliest = int(np.argmax(place.probabilities))
        counts = range(need_low, need_high + 1)
        probability = max(_blame_probability(place, likeliest, n) for n in counts)
        if probability > 0.0:
            blames.append(Blame(probability, index, need_low, need_high))
    return sorted(blames, key=lambda blame: (-blame.probability, blame.place))


def _blame_probability(place: Place, likeliest: int, count: int) -> float:
    """How likely the net finds ``count`` at ``place`` (its likeliest visible count
    ``likeliest``) as a suspect: its probability of that many visible; above the likeliest
    count over a stack that may hide checkers, the likeliest count's; over one cleared of
    hiding them, at least the likeliest count's times the place's ``hidden_probability``.
    (A full row the judge of stacks clears may still hide checkers squarely stacked: where a
    colour is short, blaming it before a point the net gives the needed count less, tuning
    frames 650,000..674,999, 6,158 boards, 6,101 -> 6,102 exact, 15 -> 14 confidently wrong:
    673,828's ten dark checkers on a row of five were read as 5, an empty point blamed.)"""
    seen = float(place.probabilities[likeliest if place.hidden and count > likeliest else count])
    if count > likeliest:
        return max(seen, float(place.probabilities[likeliest]) * place.hidden_probability)
    return seen
