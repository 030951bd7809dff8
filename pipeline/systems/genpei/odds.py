"""Exact odds of a Genpei battle roll, computed with the ``icepool`` dice library (no simulation).

A die is the battle die of ``system.yaml`` (its six faces); each face is a vector
``(symbol hits, swords, flags, H&F)`` for a given target standard, coded as one integer (a digit
per count, so that icepool adds integers, not vectors: :func:`raw_roll` gives the vectors). A
roll of ``n`` dice is the icepool sum ``n @ die``; a Sohei die that rolls H&F is rerolled until it
shows another face (the geometric chain below); an Inspired roll cancels its first H&F (and a
Sohei does not reroll it). The distribution of hits, retreat
hexes and H&F tokens is then the exact map of that sum through the rules of
:func:`pipeline.systems.genpei.engine.combat.score`.

Exactness: probabilities are fractions. The Sohei reroll chain is geometric: a rerolled die
ends on a face that is not H&F after ``G`` H&F in a row, ``P(G = g) = p**g (1 - p)``, so ``m``
rerolled dice earn a negative-binomial number of tokens, ``P(k) = C(k+m-1, m-1) p**k (1-p)**m``,
computed exactly for every ``k`` (:func:`reroll_tokens`). The chain has no end, so the list of
outcomes stops at the first ``k`` whose tail ``P(tokens >= k)`` is below :data:`TAIL` (1e-12):
that last outcome stands for "``k`` or more" and carries the exact tail; ``gunbai odds`` prints
it as such. Symbols, swords and flags are exact whatever the cut.

Example::

    >>> data = load(Path("source_data/genpei"))                          # doctest: +SKIP
    >>> d = battle_odds(data, close_setup(Fighter(si), Fighter(asp)))    # doctest: +SKIP
    >>> d[(1, 0, 0)]                                                      # doctest: +SKIP
    Fraction(...)
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import comb, lcm

from icepool import Die, Vector

from pipeline.systems.genpei.data import GenpeiData
from pipeline.systems.genpei.engine.combat import Fighter, Setup, close_setup, ranged_setup, score

#: The list of token counts of a reroll chain ends where the exact tail drops below this.
TAIL = Fraction(1, 10**12)



def faces_of(data: GenpeiData) -> tuple[str, ...]:
    """The symbols of the battle die's faces, from ``system.yaml``."""
    got = _FACES.get(id(data.system))
    if got is None or got[0] is not data.system:
        got = _FACES[id(data.system)] = (data.system, tuple(f.symbol for f in data.system.battle_die.faces))
    return got[1]


_FACES: dict[int, tuple] = {}


@lru_cache(maxsize=256)
def reroll_tokens(m: int, p: Fraction) -> tuple[tuple[int, Fraction], ...]:
    """Exact distribution of the H&F tokens ``m`` rerolling dice earn: ``(k, P(k))`` for
    ``k = 0, 1, …`` up to the first ``k`` whose tail ``P(tokens >= k)`` is below :data:`TAIL`,
    which then stands for "``k`` or more" with the tail's exact probability.

    >>> [str(q) for _, q in reroll_tokens(1, Fraction(1, 6))[:3]]
    ['5/6', '5/36', '5/216']
    >>> dict(reroll_tokens(3, Fraction(1, 6)))[8]
    Fraction(625, 40310784)
    """
    if m <= 0 or p == 0:
        return ((0, Fraction(1)),)
    out: list[tuple[int, Fraction]] = []
    left = Fraction(1)
    k = 0
    q = (1 - p) ** m
    while True:
        if left < TAIL:
            out.append((k, left))
            return tuple(out)
        pk = comb(k + m - 1, m - 1) * p**k * q
        out.append((k, pk))
        left -= pk
        k += 1


@lru_cache(maxsize=256)
def raw_roll(faces: tuple[str, ...], dice: int, target: str | None, reroll: bool, inspired: bool) -> Die:
    """The exact distribution of ``(symbol hits, swords, flags, H&F tokens)`` of one roll, as an
    icepool die of vectors.

    Args:
        faces: the die faces (:func:`faces_of`).
        dice: dice rolled.
        target: the standard that hits (``None``: none does).
        reroll: every H&F is rerolled for an extra result (Sohei; the chain as in the module
            docstring).
        inspired: the first H&F is cancelled (no token, no reroll).
    """
    radix = max(dice, 0) + 1
    return _coded_roll(faces, dice, target, reroll, inspired).map(lambda v: Vector(_decode(v, radix)))


def _decode(code: int, radix: int) -> tuple[int, int, int, int]:
    rest, sym = divmod(int(code), radix)
    rest, swords = divmod(rest, radix)
    hf, flags = divmod(rest, radix)
    return sym, swords, flags, hf


# A roll's outcome ``(symbols, swords, flags, H&F)`` is coded as the integer
# ``symbols + swords*R + flags*R**2 + H&F*R**3`` with ``R = dice + 1``, so that no count of the
# first three (each at most ``dice``) carries into the next: icepool sums integer dice far
# faster than vectors, and :func:`_decode` gives the counts back exactly.
@lru_cache(maxsize=256)
def _coded_die(faces: tuple[str, ...], target: str | None, radix: int) -> tuple[Die, Die, Fraction]:
    """The battle die coded in base ``radix``, the face a rerolling die finally shows (any face
    but H&F, equally likely), and the probability ``p`` of H&F on one die."""
    codes = {"sword": radix, "flag": radix**2, "honour_fortune": radix**3}
    values = [1 if sym == target else codes.get(sym, 0) for sym in faces]
    hf = radix**3
    n_hf = sum(1 for v in values if v == hf)
    return Die(values), Die([v for v in values if v != hf]), Fraction(n_hf, len(values))


@lru_cache(maxsize=256)
def _coded_tokens(m: int, p: Fraction, hf: int) -> Die:
    """:func:`reroll_tokens` as a die of coded outcomes (``hf`` = the code of 1 token)."""
    dist = reroll_tokens(m, p)
    den = lcm(*(q.denominator for _, q in dist))
    return Die({k * hf: int(q * den) for k, q in dist})


@lru_cache(maxsize=4096)
def _coded_roll(faces: tuple[str, ...], dice: int, target: str | None, reroll: bool, inspired: bool) -> Die:
    """:func:`raw_roll` with coded outcomes."""
    if dice <= 0:
        return Die([0])
    radix = dice + 1
    hf = radix**3
    base, face, p = _coded_die(faces, target, radix)
    if not reroll:
        if not inspired:
            return dice @ base
        return (dice @ base).map(lambda v: v - hf if v >= hf else v)  # the first H&F cancelled
    if not inspired:
        # every die ends on a face that is not H&F, after a geometric number of H&F (tokens)
        return (dice @ face) + _coded_tokens(dice, p, hf)

    def after(v: int) -> Die | int:
        h = v // hf
        if h <= 1:
            return v - h * hf  # the first H&F cancelled, not rerolled
        rest = h - 1  # kept as tokens and rerolled: each ends on a face after G more H&F
        return (v - hf) + (rest @ face) + _coded_tokens(rest, p, hf)

    return (dice @ base).map(after)


def roll_outcomes(data: GenpeiData, setup: Setup) -> list[tuple[tuple[int, int, int, int], Fraction]]:
    """The raw outcomes ``(symbols, swords, flags, H&F tokens)`` of ``setup`` with their exact
    probabilities (tokens already 0 when the roll earns none)."""
    return _outcomes(faces_of(data), setup.dice, setup.target_standard, setup.reroll_hf, setup.inspired, setup.hf_gain)


def chance_list(data: GenpeiData, setup: Setup) -> list[tuple[tuple, float]]:
    """:func:`roll_outcomes` as the engine's chance outcomes ``(("roll", s, w, f, h), float)``."""
    return _chance_list(faces_of(data), setup.dice, setup.target_standard, setup.reroll_hf, setup.inspired, setup.hf_gain)


@lru_cache(maxsize=4096)
def _chance_list(faces, dice, target, reroll, inspired, hf_gain):
    return [(("roll",) + k, float(p)) for k, p in _outcomes(faces, dice, target, reroll, inspired, hf_gain)]


@lru_cache(maxsize=4096)
def _outcomes(faces, dice, target, reroll, inspired, hf_gain):
    radix = max(dice, 0) + 1
    die = _coded_roll(faces, dice, target, reroll, inspired)
    out: dict[tuple[int, int, int, int], Fraction] = {}
    for v, p in zip(die.outcomes(), die.probabilities(), strict=True):
        sym, swords, flags, hf = _decode(v, radix)
        k = (sym, swords, flags, hf if hf_gain else 0)
        out[k] = out.get(k, Fraction(0)) + Fraction(p)
    return sorted(out.items())


def battle_odds(data: GenpeiData, setup: Setup, *, grapple: bool = False) -> dict[tuple[int, int, int], Fraction]:
    """Exact distribution of ``(hits, retreat hexes, H&F tokens)`` of one roll.

    ``grapple`` spends a sword on a grapple whenever one is rolled.
    """
    out: dict[tuple[int, int, int], Fraction] = {}
    for (sym, swords, flags, hf), p in roll_outcomes(data, setup):
        hits, retreat = score(setup, sym, swords, flags, grapple=grapple)
        k = (hits, retreat, hf)
        out[k] = out.get(k, Fraction(0)) + p
    return dict(sorted(out.items()))


def marginals(dist: dict[tuple[int, int, int], Fraction]) -> dict[str, dict[int, Fraction]]:
    """``{"hits": {k: P}, "flags": {k: P}, "hf": {k: P}}`` of a :func:`battle_odds` result."""
    m: dict[str, dict[int, Fraction]] = {"hits": {}, "flags": {}, "hf": {}}
    for (h, f, t), p in dist.items():
        for name, k in (("hits", h), ("flags", f), ("hf", t)):
            m[name][k] = m[name].get(k, Fraction(0)) + p
    return {n: dict(sorted(v.items())) for n, v in m.items()}


def expectation(dist: dict[int, Fraction]) -> Fraction:
    return sum((k * p for k, p in dist.items()), Fraction(0))


@lru_cache(maxsize=8192)
def _hits_list(faces, key) -> tuple[tuple[int, float], ...]:
    """``(hits, probability as a float)`` of each outcome of the roll whose :attr:`Setup.key` is
    ``key``, in the order of :func:`_outcomes`: scored once per roll, whatever the target's
    figures (:func:`_kill` asks it for each)."""
    setup = Setup(*key)
    out = []
    for (sym, swords, flags, _hf), p in _outcomes(faces, setup.dice, setup.target_standard, setup.reroll_hf, setup.inspired, setup.hf_gain):
        hits, _ = score(setup, sym, swords, flags)
        out.append((hits, float(p)))
    return tuple(out)


@lru_cache(maxsize=65536)
def _kill(faces, key, figures: int) -> tuple[float, float]:
    p_kill = 0.0
    e_hits = 0.0
    for hits, p in _hits_list(faces, key):  # the same float sums, in the same order, as outcome by outcome
        e_hits += p * min(hits, figures)
        if hits >= figures:
            p_kill += p
    return p_kill, e_hits


def kill_odds(data: GenpeiData, setup: Setup, figures: int) -> tuple[float, float]:
    """``(P(the target with figures left is eliminated), E[figures removed])`` of one roll,
    exact (as floats; retreats into blocked hexes not counted). The greedy policy's value."""
    return _kill(faces_of(data), setup.key, figures)


def matchup(data: GenpeiData, attacker: str, defender: str, *, terrain: str | None = None,
            attacker_terrain: str | None = None, leader: bool = False, ranged: bool = False,
            moved: bool = False, flat: bool = False, at_sea: bool = False) -> Setup:
    """The :class:`Setup` of unit type ``attacker`` against ``defender`` (ids of units.yaml),
    with the defender on ``terrain`` and the attacker on ``attacker_terrain``.

    ``leader`` attaches the attacker's natural leader (cavalry leader to a mounted unit,
    infantry leader otherwise) and spends H&F for Inspiration; ``at_sea`` makes both naval. The
    attack crosses a covered hexside when the defender's tile has any (Palisade), close or
    ranged, as the engine computes for an attack across one.
    """
    if attacker not in data.units:
        raise KeyError(f"unknown unit {attacker!r} (units: {', '.join(data.units)})")
    if defender not in data.units:
        raise KeyError(f"unknown unit {defender!r} (units: {', '.join(data.units)})")

    def tiles(tid: str | None) -> tuple:
        if tid is None:
            return ()
        if tid not in data.terrain:
            raise KeyError(f"unknown terrain {tid!r} (terrain: {', '.join(data.terrain)})")
        t = data.terrain[tid]
        if t.overlay and t.requires:
            return (data.terrain[t.requires[-1]], t)
        return (t,)

    au = data.units[attacker]
    ldr = None
    if leader:
        ldr = data.leaders.get("cavalry_leader" if au.mounted else "infantry_leader")
    naval_def = at_sea or (terrain is not None and data.terrain[terrain].naval)
    att = Fighter(au, tiles(attacker_terrain), naval=at_sea, moved=moved, leader=ldr)
    dfn = Fighter(data.units[defender], () if naval_def and terrain is None else tiles(terrain), naval=naval_def, lying_flat=flat)
    if ranged:
        if au.ranged is None:
            raise KeyError(f"{au.name} has no ranged combat")
        return ranged_setup(att, dfn, att.stats.min_range, covered=True, inspired=leader)
    return close_setup(att, dfn, covered=True, inspired=leader)


def odds_table(data: GenpeiData, attacker_id: str) -> list[dict[str, object]]:
    """One row per defender unit type for reference cards: the close combat (and ranged, when
    the attacker has it) odds of ``attacker_id`` on open ground, exact, as floats.

    Each row: ``defender`` (id), ``name``, ``kind`` (``close``/``ranged``), ``dice``,
    ``p_hit`` (P(at least 1 hit)), ``expected_hits``, ``p_flag`` (P(at least 1 retreat)),
    ``expected_hf``.
    """
    rows: list[dict[str, object]] = []
    kinds = ["close"] + (["ranged"] if data.units[attacker_id].ranged is not None else [])
    for kind in kinds:
        for did, du in data.units.items():
            setup = matchup(data, attacker_id, did, ranged=kind == "ranged")
            m = marginals(battle_odds(data, setup))
            rows.append({
                "defender": did, "name": du.name, "kind": kind, "dice": setup.dice,
                "p_hit": float(1 - m["hits"].get(0, Fraction(0))),
                "expected_hits": float(expectation(m["hits"])),
                "p_flag": float(1 - m["flags"].get(0, Fraction(0))),
                "expected_hf": float(expectation(m["hf"])),
            })
    return rows


def format_odds(data: GenpeiData, setup: Setup, title: str) -> str:
    """The text ``gunbai odds`` prints: the roll's set-up, then the exact distribution of hits,
    retreat hexes and H&F tokens (probability as a fraction and a percentage)."""
    dist = battle_odds(data, setup)
    m = marginals(dist)
    lines = [title, f"  {setup.kind} combat, {setup.dice} dice; target ignores {setup.sword_ignores} sword(s) and {setup.flag_ignores} flag(s)"
             + ("; flags count as hits" if setup.flags_are_hits else "")]
    lines += [f"  - {n}" for n in setup.notes]
    names = {"hits": "hits", "flags": "retreat hexes (flags not ignored)", "hf": "H&F tokens gained"}
    for key in ("hits", "flags", "hf"):
        lines.append(f"  {names[key]}: expected {float(expectation(m[key])):.4f}")
        for k, p in m[key].items():
            at_least = sum((q for j, q in m[key].items() if j >= k), Fraction(0))
            if at_least < Fraction(1, 10**6):
                lines.append(f"    {k:>2}+: {float(at_least) * 100:.2e}% in all (longer Sohei reroll chains)")
                break
            lines.append(f"    {k:>2}: {str(p):>24}  {float(p) * 100:8.4f}%   at least {k}: {float(at_least) * 100:8.4f}%")
    return "\n".join(lines)


__all__ = ["TAIL", "battle_odds", "reroll_tokens", "faces_of", "format_odds", "kill_odds", "marginals",
           "matchup", "odds_table", "raw_roll", "roll_outcomes"]
