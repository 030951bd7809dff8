"""The rules the OHW Samurai engine plays beyond the static legality checks, each with its source,
so ``gunbai verify --explain ID`` (and ``--explain all``) can name them. The errata of
``sources.yaml`` named in a statement say which reading of an unclear rule is played."""

from __future__ import annotations

from pipeline.legality import LegalityRule, rules

#: Engine rules by id (merged into :data:`pipeline.systems.ohw.verify.RULES`).
ENGINE_RULES: dict[str, LegalityRule] = rules(
    LegalityRule("orders-roll", "Each unit rolls a D6 before it moves: 3+ moves its full allowance, else 3\" less; a unit with 8 or more hits needs 4+ (errata orders_roll_per_unit, half_hits_threshold).", "ohw_samurai", "Movement: Orders"),
    LegalityRule("impassable-ground", "No move, pivot, charge, retirement or conforming unit crosses or ends on woods, marshland or a lake, whatever ford or bridge lies on the table.", "ohw_samurai", "Movement: Terrain (1. Woods; 3. Marshland and lakes)"),
    LegalityRule("river-crossing", "A unit's base may be over a river, moving or standing, only where a ford or bridge covers it (erratum river_crossing_width).", "ohw_samurai", "Movement: Terrain (4. Rivers)"),
    LegalityRule("road-bonus", "A move whose centre stays on the road for its whole path gets +3\"; a move that leaves the road, and a charge, do not (erratum road_move).", "ohw_samurai", "Movement: Terrain (5. Roads)"),
    LegalityRule("pivot-on-centre", "Units turn by pivoting on their centre, at the start of a move or as a move of their own; a pivot whose corners would cross impassable ground or a unit it may not pass through is not allowed.", "ohw_samurai", "Movement: Turning"),
    LegalityRule("charge-reach", "A charge turns at most 45 degrees at the start, then moves straight on within the allowance until any point of the charger touches the target, on a path clear of impassable ground and units; the charger then conforms flush and centred on the face of the target it is on (by the target's diagonals) (erratum charge_reach).", "ohw_samurai", "Movement: Charge Moves (1. Turning)"),
    LegalityRule("one-attacker-per-face", "Only one attacking unit may contact each face of the target (front, left flank, right flank, rear).", "ohw_samurai", "Movement: Charge Moves (2. Limited Engagement)"),
    LegalityRule("turn-to-face", "A unit attacked on its flank or rear and not engaged frontally may pivot on its centre to face one attacker; it keeps its tate or palisade and the enemies in contact conform to it (erratum turn_to_face_pivot).", "ohw_samurai", "Hand-to-Hand Combat: Movement Within Combat; Movement: Turning"),
    LegalityRule("retire", "A unit in contact may retire a full move directly away, engaging no enemy.", "ohw_samurai", "Hand-to-Hand Combat: Movement Within Combat"),
    LegalityRule("general-reroll", "The General re-rolls any die roll of his side once, keeping the second value, while his unit stands (erratum general_reroll).", "ohw_samurai", "General (Daimyo)"),
    LegalityRule("shooting-in-contact", "Units in contact shoot and are shot at like any other (erratum shooting_in_contact).", "ohw_samurai", "Shooting"),
    LegalityRule("hill-defence", "A hill halves hand-to-hand hits only against an attacker not on the same hill (erratum hill_defence).", "ohw_samurai", "Hand-to-Hand Combat: Assess Casualties (2. Terrain Advantage)"),
)
