"""Exact odds of one Ronin attack, with the ``icepool`` dice probability library.

Hand-to-hand (book p.19-20): the Attacker rolls 2d6 (Enhanced: 3d6, discard the lowest) + Fight
+ weapon Attack Roll modifier + other modifiers; the Defender rolls 1d6 (Enhanced: 2d6, keep
both) + Fight + armour (light +1, medium +2, heavy +3) + other modifiers. Wound Score = Attack
Roll − Defence Roll: 1 Stunned, 2-3 Light, 4-5 Grievous, 6+ Critical (p.22). A wound the
Defender already has combines with the new one (errata ``wound_combination``).

Shooting (p.14): 2d6 + Shoot + range band and other modifiers against 6 + armour (a teppo
ignores light and medium armour; heavy counts as light) + cover.

A bujutsu of the weapon used lets the model re-roll one die of its roll (after the Enhanced
attack's discard). gunbai re-rolls the lowest die when it shows ``reroll_at_most`` or less
(default 3: a die of 3 or less is below the 3.5 a re-roll averages, so this maximises the
expected roll); the attacker's and the defender's re-rolls are both applied.

Example::

    >>> from fractions import Fraction
    >>> d = melee_distribution(MeleeSide(fight=3), MeleeSide(fight=2, armour=2))
    >>> d["stunned"]
    Fraction(25, 216)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import icepool
from icepool import d6

#: Result names in table order.
RESULTS = ("none", "stunned", "light", "grievous", "critical")

#: Errata wound_combination: (wound the model has, new wound) → what it has after.
COMBINE: dict[tuple[str, str], str] = {
    ("light", "stunned"): "light",
    ("light", "light"): "grievous",
    ("light", "grievous"): "critical",
    ("grievous", "stunned"): "grievous",
    ("grievous", "light"): "critical",
    ("grievous", "grievous"): "critical",
}


def wound_of(score: int) -> str:
    """The wound table (book p.22): Wound Score → result."""
    if score <= 0:
        return "none"
    if score == 1:
        return "stunned"
    if score <= 3:
        return "light"
    if score <= 5:
        return "grievous"
    return "critical"


def roll(dice: int, keep: int, reroll_at_most: int = 0) -> icepool.Die:
    """The sum of the best ``keep`` of ``dice`` d6, re-rolling the lowest kept die once when it
    shows ``reroll_at_most`` or less (0: no re-roll)."""
    if dice == keep and reroll_at_most == 0:
        return keep @ d6
    kept = d6.pool(dice).highest(keep).expand()

    def total(t: tuple[int, ...]):
        low, rest = t[0], sum(t[1:])
        return rest + (d6 if low <= reroll_at_most else low)

    return kept.map(total)


@dataclass(frozen=True)
class MeleeSide:
    """One model in a hand-to-hand attack.

    Attributes:
        fight: the Fight characteristic (before wound penalties).
        armour: Defence bonus of its armour (0 none, 1 light, 2 medium, 3 heavy).
        weapon_attack: the weapon's Attack Roll modifier (attacker).
        enhanced_attack_bonus: extra modifier on an Enhanced Attack Roll (tetsubo, errata).
        enhance: Enhanced roll (attacker: 3d6 keep 2; defender: 2d6).
        reroll_at_most: bujutsu re-roll threshold (0: no bujutsu).
        wound: ``none``, ``light`` or ``grievous`` (Light and Grievous give -1 Fight).
        tough: ignores the effects of a Light wound.
        modifiers: other modifiers to the roll (Powerful +1, engaged by 3+ -1…).
    """

    fight: int
    armour: int = 0
    weapon_attack: int = 0
    enhanced_attack_bonus: int = 0
    enhance: bool = False
    reroll_at_most: int = 0
    wound: str = "none"
    tough: bool = False
    modifiers: int = 0

    def effective_fight(self) -> int:
        penalty = 0
        if self.wound == "grievous" or (self.wound == "light" and not self.tough):
            penalty = 1
        return max(0, self.fight - penalty)


def attack_roll(a: MeleeSide) -> icepool.Die:
    dice = roll(3 if a.enhance else 2, 2, a.reroll_at_most)
    bonus = a.effective_fight() + a.weapon_attack + a.modifiers + (a.enhanced_attack_bonus if a.enhance else 0)
    return dice + bonus


def defence_roll(d: MeleeSide) -> icepool.Die:
    dice = roll(2, 2, d.reroll_at_most) if d.enhance else roll(1, 1, d.reroll_at_most)
    return dice + d.effective_fight() + d.armour + d.modifiers


def outcome_distribution(score: icepool.Die, defender_wound: str = "none") -> dict[str, Fraction]:
    """Probability of each result (:data:`RESULTS`) of a Wound Score, after combining with the
    defender's existing wound (errata): e.g. a Light wound on a model with a Light wound is
    reported as ``grievous``."""
    out = {r: Fraction(0) for r in RESULTS}
    denom = score.denominator()
    for s, q in score.items():
        r = wound_of(s)
        if defender_wound != "none" and r != "none" and r != "critical":
            r = COMBINE[(defender_wound, r)]
        out[r] += Fraction(q, denom)
    return out


def melee_distribution(attacker: MeleeSide, defender: MeleeSide) -> dict[str, Fraction]:
    """Exact distribution of the result of one hand-to-hand attack."""
    return outcome_distribution(attack_roll(attacker) - defence_roll(defender), defender.wound)


@dataclass(frozen=True)
class ShootSide:
    """A shooting attack.

    Attributes:
        shoot: the Shoot characteristic.
        weapon_shoot: the weapon's modifier (shuriken -2).
        reroll_at_most: Kyujutsu/Hojutsu re-roll threshold (0: none).
        modifiers: other Shooting Attack Roll modifiers (moved -1, Move Phase -1…).
    """

    shoot: int
    weapon_shoot: int = 0
    reroll_at_most: int = 0
    modifiers: int = 0


def shooting_distribution(shooter: ShootSide, band_modifier: int, defence: int, defender_wound: str = "none") -> dict[str, Fraction]:
    """Exact distribution of one shooting attack at a range band (``band_modifier``) against a
    Shooting Defence Score ``defence`` (6 + armour + cover)."""
    attack = roll(2, 2, shooter.reroll_at_most) + (shooter.shoot + shooter.weapon_shoot + shooter.modifiers + band_modifier)
    return outcome_distribution(attack - defence, defender_wound)


@dataclass
class OddsTable:
    """A printed table: column headings and one row per result."""

    title: list[str]
    columns: list[str]
    rows: dict[str, list[Fraction]] = field(default_factory=dict)

    def lines(self) -> list[str]:
        out = list(self.title)
        w = max(12, *(len(c) + 2 for c in self.columns))
        out.append("result".ljust(10) + "".join(c.rjust(w) for c in self.columns))
        for r in RESULTS:
            cells = self.rows.get(r, [])
            out.append(r.ljust(10) + "".join(f"{float(p) * 100:.2f}%".rjust(w) for p in cells))
        wound = [sum((self.rows[r][i] for r in RESULTS if r != "none"), Fraction(0)) for i in range(len(self.columns))]
        out.append("any wound".ljust(10) + "".join(f"{float(p) * 100:.2f}%".rjust(w) for p in wound))
        out.append("exact: " + "; ".join(f"{c}: " + ", ".join(f"{r} {self.rows[r][i]}" for r in RESULTS) for i, c in enumerate(self.columns)))
        return out
