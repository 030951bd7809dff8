"""Exact odds of The Reluctant Samurai's dice, with ``icepool`` (no simulation).

* the treachery roll turn by turn (:func:`treachery_roll`, :func:`treachery_by_turn`), under
  either reading of erratum ``treachery_table_columns``;
* shooting: 1 D6 per base, each 6 a hit (:func:`shooting_hits`);
* melee: 1 D6 per base (a leader one more), hits on the melee table's number (:func:`melee_hits`).

>>> from fractions import Fraction
>>> rows = [(1, [], []), (2, [6], []), (3, [5, 6], [1]), (4, [4, 5, 6], [1, 2])]
>>> t = treachery_by_turn(rows, 4)
>>> t[3]["east_by_end"], t[3]["west_by_end"], t[3]["undecided_after"]
(Fraction(47, 72), Fraction(5, 18), Fraction(5, 72))
"""

from __future__ import annotations

from fractions import Fraction

import icepool

EAST, WEST, UNDECIDED = "east", "west", "undecided"


def _row(rows: list, turn: int) -> tuple[list[int], list[int]]:
    """East and west faces on ``turn`` (the last row at or before it)."""
    best = None
    for r in rows:
        t, e, w = (r.turn, r.east, r.west) if hasattr(r, "turn") else r
        if t <= turn:
            best = (e, w)
    return best if best is not None else ([], [])


def treachery_roll(rows: list, turn: int) -> icepool.Die:
    """The outcome of the D6 rolled on ``turn`` for an undecided contingent: a die over
    ``east``, ``west``, ``undecided``."""
    east, west = _row(rows, turn)
    return icepool.d6.map(lambda f: EAST if f in east else WEST if f in west else UNDECIDED)


def treachery_by_turn(rows: list, turns: int) -> list[dict[str, Fraction]]:
    """For turns 1..``turns``: the chance the contingent joins East (West) *on* that turn, has
    joined East (West) *by the end of* it, and is still undecided after it."""
    out = []
    undecided = Fraction(1)
    east_total = west_total = Fraction(0)
    for turn in range(1, turns + 1):
        die = treachery_roll(rows, turn)
        p = {k: Fraction(die.probability(k)) for k in (EAST, WEST)}
        e, w = undecided * p[EAST], undecided * p[WEST]
        east_total += e
        west_total += w
        undecided -= e + w
        out.append({"turn": turn, "east_on_turn": e, "west_on_turn": w, "east_by_end": east_total, "west_by_end": west_total, "undecided_after": undecided})
    return out


def eventual(rows: list) -> dict[str, Fraction]:
    """The chance the contingent ever joins each side (the last row repeats for ever)."""
    history = treachery_by_turn(rows, max((r.turn if hasattr(r, "turn") else r[0]) for r in rows))
    last = history[-1]
    die = treachery_roll(rows, 10**6)
    pe, pw = Fraction(die.probability(EAST)), Fraction(die.probability(WEST))
    u = last["undecided_after"]
    if pe + pw == 0:
        return {EAST: last["east_by_end"], WEST: last["west_by_end"], UNDECIDED: u}
    return {EAST: last["east_by_end"] + u * pe / (pe + pw), WEST: last["west_by_end"] + u * pw / (pe + pw), UNDECIDED: Fraction(0)}


def shooting_hits(bases: int, hit_on: int = 6) -> icepool.Die:
    """Hits (stands removed) of a shooting unit of ``bases`` stands: 1 D6 each, ``hit_on``+."""
    return bases @ (icepool.d6 >= hit_on)


def melee_hits(bases: int, hit_on: int) -> icepool.Die:
    """Hits of one side in a melee round: 1 D6 per base (count an attached leader as a base)."""
    return bases @ (icepool.d6 >= hit_on)
