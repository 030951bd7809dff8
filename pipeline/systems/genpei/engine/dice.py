"""Chance distributions of the engine's rolls other than battle rolls (which
:func:`pipeline.systems.genpei.odds.chance_list` gives): the Marsh entry roll, the leader
casualty check, the Shogun roll, the Personal Challenge and Turncoat, worked out exactly from
the die faces of ``system.yaml``. Part of :mod:`.state`, which re-exports them.
"""

from __future__ import annotations

from functools import lru_cache
from math import comb

from pipeline.systems.genpei import odds
from pipeline.systems.genpei.data import GenpeiData


def marsh_entry_outcomes(data: GenpeiData, standard: str | None) -> list[tuple[bool, float]]:
    """The Marsh entry roll: ``[(loses a figure / is eliminated, probability), …]``.

    A unit loses 1 figure when the die shows its own standard symbol; a lone leader
    (``standard=None``) is eliminated on a sword (Genpei pack, Marsh; terrain.yaml
    ``entry_roll``). Probabilities from the die faces of ``system.yaml``.
    """
    er = data.terrain["marsh"].entry_roll if "marsh" in data.terrain else None
    symbol = standard if standard is not None else (er.lone_leader_eliminated_on if er else "sword")
    p = face_probability(odds.faces_of(data), symbol)
    return [(True, p), (False, 1 - p)]


def face_probability(faces: tuple[str, ...], symbol: str) -> float:
    """Probability that one battle die shows ``symbol``."""
    return sum(1 for f in faces if f == symbol) / len(faces)


@lru_cache(maxsize=256)
def casualty_check_probability(faces: tuple[str, ...], dice: int) -> float:
    """Probability that a leader casualty check of ``dice`` dice kills the leader: every die a
    sword (2 dice when his unit survives losses, 1 when it is eliminated; erratum
    ``leader_casualty_check``)."""
    return face_probability(faces, "sword") ** dice


@lru_cache(maxsize=512)
def symbol_counts(faces: tuple[str, ...], dice: int, symbols: tuple[str, ...]) -> tuple[tuple[tuple[int, ...], float], ...]:
    """Exact distribution of how many of ``dice`` dice show each of ``symbols`` (multinomial over
    the die faces), as ``((count per symbol…), probability)``."""
    n_faces = len(faces)
    probs = [sum(1 for f in faces if f == s) / n_faces for s in symbols]
    other = 1.0 - sum(probs)
    out: dict[tuple[int, ...], float] = {}

    def rec(i: int, left: int, counts: tuple[int, ...], p: float, ways: int) -> None:
        if i == len(symbols):
            key = counts
            out[key] = out.get(key, 0.0) + ways * p * other**left
            return
        for c in range(left + 1):
            rec(i + 1, left - c, counts + (c,), p * probs[i] ** c, ways * comb(left, c))

    rec(0, dice, (), 1.0, 1)
    return tuple(sorted((k, v) for k, v in out.items() if v > 0))


@lru_cache(maxsize=64)
def shogun_outcomes(faces: tuple[str, ...], dice: int) -> list[tuple[tuple, float]]:
    """The Shogun roll of ``dice`` dice: ``(("shogun", circles, triangles, squares, flags, H&F),
    probability)`` (:func:`symbol_counts`), one list per die and dice count, shared by every
    chance node that rolls it (never changed)."""
    syms = ("circle", "triangle", "square", "flag", "honour_fortune")
    return [(("shogun",) + k, p) for k, p in symbol_counts(faces, dice, syms)]


@lru_cache(maxsize=1024)
def _sword_hf(faces: tuple[str, ...], dice: int) -> tuple[tuple[tuple[int, int], float], ...]:
    return tuple(symbol_counts(faces, dice, ("sword", "honour_fortune")))


@lru_cache(maxsize=1024)
def challenge_outcomes(faces: tuple[str, ...], dice0: int, dice1: int) -> list[tuple[tuple, float]]:
    """Personal Challenge: ``(("challenge", result, hf0, hf1), p)`` where ``result`` is +1 when
    side 0 rolls more swords, -1 when side 1 does, 0 on a tie; ``hf*`` the H&F each collects."""
    out: dict[tuple, float] = {}
    for (s0, h0), p0 in _sword_hf(faces, dice0):
        for (s1, h1), p1 in _sword_hf(faces, dice1):
            k = ("challenge", (s0 > s1) - (s0 < s1), h0, h1)
            out[k] = out.get(k, 0.0) + p0 * p1
    return sorted(out.items())


@lru_cache(maxsize=1024)
def more_hf_probability(faces: tuple[str, ...], mine: int, theirs: int) -> float:
    """Probability that ``mine`` dice show more H&F symbols than ``theirs`` (Turncoat)."""
    a = symbol_counts(faces, mine, ("honour_fortune",))
    b = symbol_counts(faces, theirs, ("honour_fortune",))
    return sum(pa * pb for (ka,), pa in a for (kb,), pb in b if ka > kb)
