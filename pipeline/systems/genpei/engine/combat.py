"""What a battle roll is: dice, sword resistance, flag ignores, H&F, from units and terrain.

Pure functions of the two fighters (their unit type, the tiles on their hex, at sea or not,
moved, lying flat, leader) so that the engine, the odds command and the reference cards compute
a battle the same way. Every number comes from the data (``units.yaml``, ``terrain.yaml``,
``leaders.yaml``); the rules applied, each with its source:

* Dice: the unit's close or ranged dice (after-move dice when it moved on land), capped by the
  tiles: ``close_from``/``ranged_from`` of its own hex, ``close_into``/``ranged_into`` of the
  target's; a Hill's ``close_into`` only against an attack from off the hill (rule
  ``uphill_only``), a Stockade's ``ranged_into`` only from outside a Stockade (rule
  ``ranged_into_from_outside``). Caps limit only the base dice; Leader Inspiration and card
  dice are added after (rules-facts §1.5). Naval units roll 1 die less, and so does a land unit
  in close combat against a naval unit (Genpei pack, Naval Warfare: combat); naval units never
  lose dice for moving (ibid.).
* Close combat hits: the target's standard symbol, and swords less the target's resistance:
  stature (a mounted target ignores 1 sword from a foot attacker), rank (square ignores 1 from
  triangle and 2 from circle, triangle 1 from circle), rules-facts §1.2; plus the terrain's
  ``ignore_swords`` (Stockade; Palisade across a covered hexside, all round under an Arrow
  Tower). A unit lying flat gets no stature or rank resistance, and a mounted unit at sea none
  for stature (Genpei pack, Naval Warfare). Irregular Peasant Infantry never hit on swords.
* Ranged combat hits on the target's standard symbol only (swords score in close combat,
  rules-facts §1.2 "close-combat hits"; the engine's reading).
* Flags: 1 hex of retreat each, less the unit's and the terrain's flag ignores; against a
  naval unit every flag not ignored is a hit (Genpei pack). A tile's ignores marked
  ``flags_optional`` (the texts say "may ignore": Palisade, Stockade, Bridge) are the target
  owner's choice: :attr:`Setup.optional_flag_ignores` counts them, :func:`score` can decline them
  (erratum ``optional_flag_ignores``).
* H&F: 1 token per symbol; an Inspired roll loses its first; arquebus fire gains none; a unit
  with ``no_hf_vs_lower_rank`` gains none in close combat against a lower rank; Sohei reroll
  every H&F of the battle types in ``hf_reroll`` (erratum ``sohei_hf_reroll``).
* Leader Inspiration is not open to a unit on a tile with ``no_inspiration`` (Village:
  buildings, ccn_faq_terrain); :func:`inspiration_allowed` is the one test the odds command and
  the engine share. Card dice (Cavalry Charge, Shogun, Ambush) are added after the caps.
* A lone leader attacked is hit by any sword (ccn_faq_leaders): :func:`leader_target_setup`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from pipeline.systems.genpei.engine.stats import RANK, UnitStats, resolve
from pipeline.systems.genpei.model import DiceCap, LeaderType, TerrainType, UnitType


@dataclass(frozen=True)
class Fighter:
    """One unit in a battle.

    Attributes:
        unit: its type.
        terrain: the tiles of its hex (base tile first, then overlays; empty = countryside).
        naval: it stands on an Ocean hex.
        moved: it moved this turn.
        lying_flat: it embarked or disembarked this turn or the last (no sword resistance).
        leader: the leader attached to it.
    """

    unit: UnitType
    terrain: tuple[TerrainType, ...] = ()
    naval: bool = False
    moved: bool = False
    lying_flat: bool = False
    leader: LeaderType | None = None

    @property
    def stats(self) -> UnitStats:
        return _stats(self.unit)

    @property
    def mounted(self) -> bool:
        """Fights mounted (a mounted unit at sea is dismounted)."""
        return self.unit.mounted and not self.naval


_STATS: dict[int, UnitStats] = {}


def _stats(u: UnitType) -> UnitStats:
    key = id(u)
    s = _STATS.get(key)
    if s is None or s.id != u.id:
        s = _STATS[key] = resolve(u)
    return s


@dataclass(frozen=True)
class Setup:
    """A battle roll, ready for :mod:`pipeline.systems.genpei.odds`.

    Attributes:
        kind: ``close``, ``ranged``, ``destroy`` (a roll against a Palisade or Stockade) or
            ``leader`` (a roll at a lone leader: any sword eliminates him).
        dice: dice rolled.
        target_standard: the symbol that hits (``None`` for ``destroy``).
        sword_ignores: swords the target ignores.
        hits_on_swords: swords hit (close combat by a unit that hits on swords).
        flag_ignores: flags the target ignores (at most: the optional ones included).
        optional_flag_ignores: how many of ``flag_ignores`` the target's owner may decline
            (tiles with ``flags_optional``).
        flags_are_hits: unignored flags are hits (naval target).
        reroll_hf: every H&F is rerolled for an extra result (Sohei).
        inspired: the roll is Inspired (its first H&F is cancelled).
        hf_gain: H&F symbols earn tokens.
        grapple: one sword may be spent as a grapple (close combat against a naval unit).
        notes: what set each number, for the odds command.
    """

    kind: Literal["close", "ranged", "destroy", "leader"]
    dice: int
    target_standard: str | None
    sword_ignores: int = 0
    hits_on_swords: bool = True
    flag_ignores: int = 0
    flags_are_hits: bool = False
    reroll_hf: bool = False
    inspired: bool = False
    hf_gain: bool = True
    grapple: bool = False
    optional_flag_ignores: int = 0
    notes: tuple[str, ...] = field(default=(), compare=False)

    @property
    def key(self) -> tuple:
        """Everything the outcome distribution depends on."""
        return (self.kind, self.dice, self.target_standard, self.sword_ignores, self.hits_on_swords,
                self.flag_ignores, self.flags_are_hits, self.reroll_hf, self.inspired, self.hf_gain)


def _cap(cap: DiceCap, mounted: bool) -> int | None:
    return cap.mounted if mounted else cap.foot


def _has_rule(t: TerrainType | UnitType, rule_id: str) -> bool:
    return any(r.id == rule_id for r in t.rules)


def protected_tiles(terrain: tuple[TerrainType, ...], covered: bool) -> list[TerrainType]:
    """Tiles whose sword and flag ignores protect against an attack. A tile protecting only
    across its covered hexsides (Palisade) protects when the attack crosses one, or from every
    side under an overlay that protects all round (Arrow Tower; Genpei pack, Arrow Tower)."""
    all_round = any(t.overlay and t.combat.protection_from == "all" for t in terrain)
    return [t for t in terrain if t.combat.protection_from == "all" or covered or all_round]


def inspiration_allowed(terrain: tuple[TerrainType, ...]) -> bool:
    """A unit on ``terrain`` may be inspired: no tile of its hex forbids it (Village: units in
    buildings cannot be inspired, ccn_faq_terrain)."""
    return not any(t.combat.no_inspiration for t in terrain)


def _inspired(att: Fighter, inspired: bool, notes: list[str]) -> bool:
    if not inspired or att.leader is None:
        return False
    if not inspiration_allowed(att.terrain):
        notes.append("no Leader Inspiration on " + ", ".join(t.name for t in att.terrain if t.combat.no_inspiration))
        return False
    return True


def close_setup(att: Fighter, dfn: Fighter, *, covered: bool = False, inspired: bool = False,
                bonus_dice: int = 0) -> Setup:
    """The close combat roll of ``att`` against ``dfn``.

    Args:
        covered: the attack crosses a covered hexside of ``dfn``'s hex (Palisade).
        inspired: a leader spends H&F for its extra dice (ignored where
            :func:`inspiration_allowed` says no).
        bonus_dice: card dice (Cavalry Charge, Shogun, Ambush +1), added after the caps.
    """
    s = att.stats
    notes: list[str] = []
    inspired = _inspired(att, inspired, notes)
    base = s.close_after_move if att.moved and not att.naval else s.close
    notes.append(f"{att.unit.name}: {base} close combat dice" + (" (moved)" if base != s.close else ""))
    dice = base
    att_ids = {t.id for t in att.terrain}
    for t in att.terrain:
        c = _cap(t.combat.close_from, att.mounted)
        if c is not None and c < dice:
            dice = c
            notes.append(f"capped at {c} fighting out of {t.name}")
    for t in dfn.terrain:
        if _has_rule(t, "uphill_only") and t.id in att_ids:
            continue
        c = _cap(t.combat.close_into, att.mounted)
        if c is not None and c < dice:
            dice = c
            notes.append(f"capped at {c} attacking into {t.name}")
    if att.naval:
        dice -= 1
        notes.append("naval unit: 1 die less")
    elif dfn.naval:
        dice -= 1
        notes.append("land unit against a naval unit: 1 die less")
    if inspired and att.leader is not None:
        dice += att.leader.inspiration.extra_dice
        notes.append(f"Leader Inspiration: +{att.leader.inspiration.extra_dice}")
    if bonus_dice:
        dice += bonus_dice
        notes.append(f"card: +{bonus_dice}")
    ignores = 0
    if not dfn.lying_flat:
        if dfn.mounted and not att.mounted:
            ignores += 1
            notes.append("stature: mounted target ignores 1 sword from foot")
        rank = RANK[dfn.unit.standard] - RANK[att.unit.standard]
        if rank > 0:
            ignores += rank
            notes.append(f"rank: {dfn.unit.standard} target ignores {rank} sword(s) from {att.unit.standard}")
    elif dfn.unit.mounted or RANK[dfn.unit.standard] > RANK[att.unit.standard]:
        notes.append("target lying flat: no rank or stature resistance")
    flags = dfn.stats.ignores_flags
    optional = 0
    for t in protected_tiles(dfn.terrain, covered):
        if t.combat.ignore_swords:
            ignores += t.combat.ignore_swords
            notes.append(f"{t.name}: ignores {t.combat.ignore_swords} sword")
        flags += t.combat.ignore_flags
        if t.combat.flags_optional:
            optional += t.combat.ignore_flags
    hf_gain = not (_has_rule(att.unit, "no_hf_vs_lower_rank") and RANK[att.unit.standard] > RANK[dfn.unit.standard])
    return Setup(
        kind="close", dice=max(dice, 0), target_standard=dfn.unit.standard, sword_ignores=ignores,
        hits_on_swords=att.unit.hits_on_swords, flag_ignores=flags, flags_are_hits=dfn.naval,
        reroll_hf="close" in att.unit.hf_reroll, inspired=inspired and att.leader is not None,
        hf_gain=hf_gain, grapple=dfn.naval, optional_flag_ignores=optional, notes=tuple(notes),
    )


def max_range(att: Fighter) -> int:
    """How far ``att`` fires: its range, or a tile's ``max_range`` for archer units (Arrow
    Tower), or one hex more for a unit with ``long_shot`` (Arquebusiers at 4 with 1 die)."""
    s = att.stats
    r = s.max_range
    if "archer" in att.unit.tags:
        for t in att.terrain:
            if t.combat.max_range is not None:
                r = max(r, t.combat.max_range)
    if _has_rule(att.unit, "long_shot"):
        r += 1
    return r


def ranged_setup(att: Fighter, dfn: Fighter, distance: int, *, covered: bool = False,
                 inspired: bool = False, bonus_dice: int = 0) -> Setup:
    """The ranged roll of ``att`` at ``dfn`` ``distance`` hexes away (range checked by the
    caller with :func:`max_range`); ``bonus_dice``: card dice (Shogun)."""
    s = att.stats
    notes: list[str] = []
    inspired = _inspired(att, inspired, notes)
    dice = s.ranged_after_move if att.moved and not att.naval else s.ranged
    notes.append(f"{att.unit.name}: {dice} ranged dice" + (" (moved)" if dice != s.ranged else ""))
    if _has_rule(att.unit, "long_shot") and distance > s.max_range:
        dice = min(dice, 1)
        notes.append("long shot: 1 die")
    att_ids = {t.id for t in att.terrain}
    for t in att.terrain:
        c = _cap(t.combat.ranged_from, att.mounted)
        if c is not None and c < dice:
            dice = c
            notes.append(f"capped at {c} firing from {t.name}")
    for t in dfn.terrain:
        if _has_rule(t, "ranged_into_from_outside") and t.id in att_ids:
            continue
        c = _cap(t.combat.ranged_into, att.mounted)
        if c is not None and c < dice:
            dice = c
            notes.append(f"capped at {c} firing into {t.name}")
    if att.naval:
        dice -= 1
        notes.append("naval unit: 1 die less")
    if inspired and att.leader is not None:
        dice += att.leader.inspiration.extra_dice
        notes.append(f"Leader Inspiration: +{att.leader.inspiration.extra_dice}")
    if bonus_dice:
        dice += bonus_dice
        notes.append(f"card: +{bonus_dice}")
    tiles = protected_tiles(dfn.terrain, covered)
    flags = dfn.stats.ignores_flags + sum(t.combat.ignore_flags for t in tiles)
    optional = sum(t.combat.ignore_flags for t in tiles if t.combat.flags_optional)
    hf_gain = s.weapon != "arquebus" and not _has_rule(att.unit, "no_hf_at_range")
    return Setup(
        kind="ranged", dice=max(dice, 0), target_standard=dfn.unit.standard, sword_ignores=0,
        hits_on_swords=False, flag_ignores=flags, flags_are_hits=dfn.naval,
        reroll_hf="ranged" in att.unit.hf_reroll, inspired=inspired and att.leader is not None,
        hf_gain=hf_gain, optional_flag_ignores=optional, notes=tuple(notes),
    )


def destroy_setup(att: Fighter, *, inspired: bool = False, bonus_dice: int = 0) -> Setup:
    """The roll of ``att`` against a Palisade or Stockade tile: its normal close combat dice,
    not capped by terrain, plus inspiration and cards (Genpei pack, Palisade; Stockade)."""
    s = att.stats
    inspired = _inspired(att, inspired, [])
    dice = s.close_after_move if att.moved and not att.naval else s.close
    if att.naval:
        dice -= 1
    if inspired and att.leader is not None:
        dice += att.leader.inspiration.extra_dice
    dice += bonus_dice
    return Setup(kind="destroy", dice=max(dice, 0), target_standard=None, hits_on_swords=True,
                 reroll_hf="close" in att.unit.hf_reroll, inspired=inspired and att.leader is not None,
                 hf_gain=True, notes=(f"{att.unit.name}: {dice} dice against the tile",))


def leader_target_setup(att: Fighter, target_terrain: tuple[TerrainType, ...], kind: str, distance: int, *,
                        target_naval: bool = False, inspired: bool = False, bonus_dice: int = 0) -> Setup:
    """The roll of ``att`` at a lone enemy leader on a hex with ``target_terrain``: the unit's
    normal close (``kind="close"``) or ranged dice with the usual caps, naval and card dice;
    one or more swords eliminates the leader, flags have no effect (ccn_faq_leaders, Leader Alone
    in a Hex). Symbols and flags score nothing; H&F are gained as usual."""
    no_one = Fighter(att.unit, target_terrain, naval=target_naval)
    if kind == "close":
        base = close_setup(att, no_one, inspired=inspired, bonus_dice=bonus_dice)
    else:
        base = ranged_setup(att, no_one, distance, inspired=inspired, bonus_dice=bonus_dice)
    return Setup(kind="leader", dice=base.dice, target_standard=None, hits_on_swords=True, reroll_hf=base.reroll_hf,
                 inspired=base.inspired, hf_gain=base.hf_gain, notes=base.notes + ("any sword eliminates the lone leader",))


def score(setup: Setup, sym: int, swords: int, flags: int, *, grapple: bool = False,
          declined: int = 0) -> tuple[int, int]:
    """Hits and hexes of retreat of one roll: ``sym`` target symbols, ``swords``, ``flags``.

    ``grapple`` spends one sword on a grapple (or on severing one) before resistance counts the
    others (Genpei pack, Grappling); ``declined``: optional flag ignores the target's owner does
    not use (at most :attr:`Setup.optional_flag_ignores`).
    """
    if setup.kind == "leader":
        return (1 if swords > 0 else 0), 0
    s = swords - 1 if grapple and swords > 0 else swords
    hits = sym
    if setup.kind == "close" and setup.hits_on_swords:
        hits += max(0, s - setup.sword_ignores)
    retreat = max(0, flags - setup.flag_ignores + declined)
    if setup.flags_are_hits:
        hits += retreat
        retreat = 0
    return hits, retreat
