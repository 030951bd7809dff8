"""The rules the Ronin engine plays beyond the static set-up checks, each with its source, so
``gunbai verify --explain ID`` (and ``--explain all``) can name them. The errata of
``sources.yaml`` named in a statement say which reading of an unclear rule is played."""

from __future__ import annotations

from pipeline.legality import LegalityRule, rules

#: Engine rules by id (merged into :data:`pipeline.systems.ronin.verify.RULES`).
ENGINE_RULES: dict[str, LegalityRule] = rules(
    # ---------------------------------------------------------------- priority and morale
    LegalityRule("morale-test", "A Buntai tests Morale when Wavering, after 25% of its starting strength or its Leader took a Critical wound the turn before: 2d6 + modifiers at most its Morale Rating, a natural 2 passing and 12 failing; Steady -> Wavering -> Routing (errata morale_below_quarter).", "ronin_book", "Gameplay: Priority Phase, Test Morale (p.10-12)"),
    LegalityRule("fearless", "A Fearless model ignores the results of Morale Tests; the Sohei Temple Attendant is Fearless within 3 inches of a friendly model of Rank 2 or higher (erratum temple_attendant_fearless).", "ronin_book", "Special Rules: Attributes, Fearless (p.29); Factions: Sohei, Model List (p.39)"),
    LegalityRule("ronin-unreliable", "Hired Ronin: after each Morale Test that leaves the Buntai Wavering each rolls a d6 and leaves on 4+; all leave when it Routs; a leaving Ronin uses each activation to run for the nearest table edge, or Withdraws when engaged (erratum ronin_unreliable_when).", "ronin_book", "Swords-for-Hire: Ronin, Special Rules (p.52)"),
    LegalityRule("wavering-charge", "A model of a Wavering Buntai rolls d6 + Rank, 7 or more, to move into contact; failing, it may do something else.", "ronin_book", "Gameplay: Wavering (p.12)"),
    LegalityRule("routing-activation", "A model of a Routing Buntai rolls d6 + Rank, 7 or more, at every activation, in the Move and the Action Phase, to act as its player wishes; failing, it runs for the nearest table edge.", "ronin_book", "Gameplay: Routing (p.12)"),
    # ---------------------------------------------------------------- moving and shooting
    LegalityRule("withdraw-strike", "An enemy model in contact may make a single attack (+1, no Enhancing) on a model that Withdraws, at most one a turn (erratum withdraw_free_attack), and then does not move for the rest of the Move Phase (erratum withdraw_strike_stands).", "ronin_book", "Gameplay: Move Phase, Withdraw (p.13)"),
    LegalityRule("mounted-models", "A mounted model (a horse bought in its roster, or a mounted model of its list) moves 12 inches, Gallops 18, never enters Difficult terrain or buildings, and has -2 to its Attack Rolls without Bajutsu.", "ronin_book", "Special Rules: Mounted Models (p.27-28)"),
    LegalityRule("reserves-move-on", "Reserves move onto the table as an activation in the Move Phase of their turn (the second for the first half, the third for the rest) or later.", "ronin_book", "Scenarios: Deployment Rules, Reserves (p.59)"),
    LegalityRule("range-bands", "Shooting at a target under 6 inches away +1, to 12 0, to 24 -1, to 36 -2 (teppo -3), beyond -3 (teppo -4): each band holds its upper end (errata range_bands, range_band_boundaries).", "ronin_book", "Gameplay: Shooting Procedure (p.14); Missile Weapons, Teppo (p.16)"),
    # ---------------------------------------------------------------- combat
    LegalityRule("counters-secret", "Each player draws the Attack and Defence counters of his models in a combat in secret; they are revealed together before Initiative.", "ronin_book", "Gameplay: Combat Process (p.18)"),
    LegalityRule("wounded-defence", "A wounded model's -1 Fight (Light or Grievous; Tough ignores a Light wound) counts in its Defence Roll as in its Attack Roll.", "ronin_book", "Gameplay: Wound Table (p.22-23); Combat Example (p.24)"),
    LegalityRule("long-weapon-indoors", "A model fighting inside a building with a long-handled weapon (yari, nagae-yari, tetsubo, nodachi, naginata) has -1 Initiative and -1 to its Attack Rolls.", "ronin_book", "Gameplay: Terrain, Buildings (p.13)"),
    # ---------------------------------------------------------------- scenarios
    LegalityRule("duel-first-turns", "Duel: in turns 1 and 2 only the duellists are activated, in every phase, only they fight, and no model uses a missile weapon.", "ronin_book", "Scenarios: Duel, Special Rule: Duellists (p.62)"),
    LegalityRule("duel-replace-duellist", "Duel: when a duellist is critically injured his side may nominate another model, who is a duellist from then on.", "ronin_book", "Scenarios: Duel, Special Rule: Duellists (p.62)"),
    LegalityRule("defend-the-village-length", "Defend the Village has no turn limit: it lasts until one side withdraws (its models have left the table), concedes or is destroyed (erratum defend_the_village_length).", "ronin_book", "Scenarios: Defend the Village, Game Length (p.66)"),
    LegalityRule("tournament-secret-order", "Tournament: each player records in secret the order his models fight in, the first player then the second; each match reveals its pair.", "ronin_book", "Scenarios: Tournament, Special Rule: The Tournament (p.64)"),
)
