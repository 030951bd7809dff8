"""Unit stats as the engine uses them: every ``unknown`` of ``units.yaml`` resolved to a value.

The data keeps what no public source gives as ``unknown``. A game cannot be played with an
unknown die count, so the engine replaces each one by the *base value of the unit's standard*
(or of its kind, for stats the standard does not fix) and logs a note saying so. The
replacements are an abstraction of the engine, never written back to the data:

=========================  ==================================================================
stat                       replacement (and why)
=========================  ==================================================================
figures                    4 (erratum ``figures_per_unit``: every unit has 4 figures)
movement.hexes             1 on foot, 2 mounted (every foot unit with a known move moves 1,
                           every mounted one 2; rules-facts §1.3)
close_combat.dice          the standard's base dice: circle 2, triangle 3, square 4
                           (rules-facts §1.2, ccn_rules_battle)
close_combat.dice_after_   the dice less 1 (the one known case, Sohei Archers 3 → 2)
move
ranged.dice                2 (every known bow unit on foot rolls 2: Ashigaru and Sohei Archers)
ranged.max_range           3 (every known bow unit: range 2-3)
ranged.dice_after_move     1 (every known bow unit)
ignores_flags              1 for a square (red) unit, else 0 (red units ignore 1 flag,
                           ccn_forum_336)
retreat_hf_per_hex         2 for a square unit, else 1 (ccn_faq_retreats)
=========================  ==================================================================
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pipeline.systems.genpei.model import UnitType

#: Base battle dice by standard (rules-facts §1.2: circle 2, triangle 3, square 4).
BASE_DICE: dict[str, int] = {"circle": 2, "triangle": 3, "square": 4}

#: Rank of a standard for sword resistance (rules-facts §1.2: square > triangle > circle).
RANK: dict[str, int] = {"circle": 0, "triangle": 1, "square": 2}


@dataclass(frozen=True)
class UnitStats:
    """The playable stats of a unit type (no ``unknown`` left).

    Attributes:
        id: the unit type id.
        standard, mounted: as in the data.
        figures: figures at full strength.
        move: hexes it may move and still battle.
        move_no_battle: a longer move that forbids battle (0 = none).
        close, close_after_move: close combat dice.
        ranged, ranged_after_move, min_range, max_range: ranged combat (``ranged`` 0 = none).
        weapon: ``bow`` or ``arquebus`` (or ``""`` without ranged combat).
        ignores_flags: flags it ignores.
        retreat_hf: H&F per hex of retreat (leader not counted).
        notes: one line per ``unknown`` replaced.
    """

    id: str
    standard: str
    mounted: bool
    figures: int
    move: int
    move_no_battle: int
    close: int
    close_after_move: int
    ranged: int
    ranged_after_move: int
    min_range: int
    max_range: int
    weapon: str
    ignores_flags: int
    retreat_hf: int
    notes: tuple[str, ...] = field(default=())


def resolve(u: UnitType) -> UnitStats:
    """The stats of ``u`` with every ``unknown`` replaced (see the module table)."""
    notes: list[str] = []

    def pick(value: object, fallback: int, what: str, why: str) -> int:
        if value == "unknown":
            notes.append(f"{u.id}.{what} unknown: engine uses {fallback} ({why})")
            return fallback
        return int(value)  # type: ignore[call-overload]

    base = BASE_DICE[u.standard]
    square = u.standard == "square"
    figures = pick(u.figures, 4, "figures", "erratum figures_per_unit")
    move = pick(u.movement.hexes, 2 if u.mounted else 1, "movement.hexes", "every known foot unit moves 1, mounted 2")
    mnb = u.movement.hexes_no_battle
    move_nb = 0 if mnb is None else pick(mnb, move, "movement.hexes_no_battle", "no longer move")
    close = pick(u.close_combat.dice, base, "close_combat.dice", f"base dice of the {u.standard} standard")
    cam = u.close_combat.dice_after_move
    close_am = close if cam is None else pick(cam, max(close - 1, 1), "close_combat.dice_after_move", "dice less 1, as Sohei Archers 3 -> 2")
    ranged = ranged_am = min_r = max_r = 0
    weapon = ""
    if u.ranged is not None:
        r = u.ranged
        ranged = pick(r.dice, 2, "ranged.dice", "every known foot bow unit rolls 2")
        ranged_am = ranged if r.dice_after_move is None else pick(r.dice_after_move, 1, "ranged.dice_after_move", "every known bow unit rolls 1 after moving")
        min_r = pick(r.min_range, 2, "ranged.min_range", "no ranged combat at an adjacent unit")
        max_r = pick(r.max_range, 3, "ranged.max_range", "every known bow unit has range 3")
        weapon = "bow" if r.weapon == "unknown" else r.weapon
    flags = pick(u.ignores_flags, 1 if square else 0, "ignores_flags", "red units ignore 1 flag")
    retreat = pick(u.retreat_hf_per_hex, 2 if square else 1, "retreat_hf_per_hex", "square 2, others 1 H&F per hex")
    return UnitStats(
        id=u.id, standard=u.standard, mounted=u.mounted, figures=figures, move=move,
        move_no_battle=move_nb, close=close, close_after_move=close_am, ranged=ranged,
        ranged_after_move=ranged_am, min_range=min_r, max_range=max_r, weapon=weapon,
        ignores_flags=flags, retreat_hf=retreat, notes=tuple(notes),
    )
