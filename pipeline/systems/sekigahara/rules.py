"""The rules the Sekigahara engine plays beyond the static legality checks, each with its source,
so ``gunbai verify --explain ID`` (and ``--explain all``) can name them. The errata of
``sources.yaml`` named in a statement say which reading of an unclear rule is played."""

from __future__ import annotations

from pipeline.legality import LegalityRule, rules

#: Engine rules by id (merged into :data:`pipeline.systems.sekigahara.verify.RULES`).
ENGINE_RULES: dict[str, LegalityRule] = rules(
    LegalityRule("seki-treachery", "From turn 2, while Kobayakawa is undecided, a D6 decides whether he joins the East or the West for the rest of the game (erratum treachery_table_columns: the text's reading).", "reluctant_samurai", "Treachery Die Roll"),
    LegalityRule("seki-move", "Cavalry and infantry move up to 6\", commanders up to 12\" (erratum who_are_commanders); no move or pivot crosses another unit (erratum no_interpenetration).", "reluctant_samurai", "Movement"),
    LegalityRule("seki-charge-reach", "A unit charges an enemy in its front 90 degrees when the shortest straight move into contact with any point of it is at most 6\", on a path crossing no other unit; it then conforms flush and centred on the face of the target it is on (errata charge_reach, no_interpenetration).", "reluctant_samurai", "Charge into Melee"),
    LegalityRule("seki-east-charges-first", "If it makes a difference, the Eastern army charges first.", "reluctant_samurai", "Charge into Melee"),
    LegalityRule("seki-flank-attack", "A unit charged in the flank or rear fights back with two bases in the first round of that melee.", "reluctant_samurai", "Flank Attacks"),
    LegalityRule("seki-multi-unit-melee", "In a melee of several units each unit rolls all its bases against one enemy unit it is engaged with, its player's choice each round (erratum multi_unit_melee).", "reluctant_samurai", "Melee; Charge into Melee"),
    LegalityRule("seki-last-stand", "A unit reduced to one stand loses it at once.", "reluctant_samurai", "Remove the Last Stand"),
    LegalityRule("seki-leader-loss", "A leader counts as an extra base in melee; when his unit loses bases in melee he is eliminated on a 6; he survives his destroyed unit otherwise (erratum leader_of_destroyed_unit).", "reluctant_samurai", "Leaders"),
    LegalityRule("seki-victory", "Victory (gunbai's own; the text gives none): a side whose army commander is eliminated loses at once; otherwise the side that removed more enemy stands wins.", "gunbai", "Victory"),
)
