"""Exact odds of OHW Samurai dice with ``icepool``: hits of a shot and of a hand-to-hand attack.

Rules (``system.yaml`` / ``units.yaml``, seed "Shooting" and "Hand-to-Hand Combat"): one D6 plus
the unit's modifier, never below 0 (erratum ``shooting_skirmisher_minimum``); halved once at most
with fractions in favour of the attacker, i.e. rounded up (erratum ``halvings_do_not_compound``);
then doubled for a flank or rear attack (erratum ``halve_then_double``). A General may re-roll a
die and must keep the re-roll: :func:`with_general` re-rolls scores below a threshold.

>>> shot(0, halved=False).mean(), shot(0, halved=True).probability(2)
(Fraction(7, 2), Fraction(1, 3))
"""

from __future__ import annotations

import icepool


def _score(modifier: int, reroll_below: int | None = None) -> icepool.Die:
    die = icepool.d6
    if reroll_below is not None:
        die = die.reroll(lambda f: f < reroll_below, depth=1)
    return die.map(lambda f: max(0, f + modifier))


def _halve(h: int) -> int:
    return -(-h // 2)


def shot(modifier: int, *, halved: bool, reroll_below: int | None = None) -> icepool.Die:
    """Hits of one shot: D6 + ``modifier`` (Ashigaru 0, Skirmishers -2), halved for cover (a
    town or tate)."""
    return _score(modifier, reroll_below).map(lambda h: _halve(h) if halved else h)


def attack(modifier: int, *, halved: bool, flank_or_rear: bool, reroll_below: int | None = None) -> icepool.Die:
    """Hits of one hand-to-hand attack: D6 + ``modifier`` (Foot Samurai +2, Ashigaru and
    Skirmishers -2), halved once (Ashigaru attacked frontally; town, hill, river crossing;
    bamboo palisade), doubled for a flank or rear attack."""
    return _score(modifier, reroll_below).map(lambda h: (_halve(h) if halved else h) * (2 if flank_or_rear else 1))


def turns_to_eliminate(per_turn: icepool.Die, hits: int = 15, max_turns: int = 15) -> dict[int, float]:
    """Chance that a unit taking ``per_turn`` hits each turn is eliminated by turn n."""
    total = icepool.Die([0])
    out = {}
    for n in range(1, max_turns + 1):
        total = (total + per_turn).map(lambda t: min(t, hits))
        out[n] = float(total.probability(hits))
    return out
