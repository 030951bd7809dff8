"""The rules the Genpei engine plays beyond the static legality checks, each with its source, so
``gunbai verify --explain ID`` (and ``--explain all``) can name them. The errata of
``sources.yaml`` named in a statement say which reading of an unclear rule is played."""

from __future__ import annotations

from pipeline.legality import LegalityRule, rules

#: Engine rules by id (merged into :data:`pipeline.systems.genpei.verify.RULES`).
ENGINE_RULES: dict[str, LegalityRule] = rules(
    # ---------------------------------------------------------------- decks and the turn
    LegalityRule("command-deck", "The Command deck holds 60 cards, 39 of them section cards; cards no public source gives are played as an order to 1 unit or leader of your choice (erratum command_card_list).", "ccn_command_cards_gmt", "Command cards (60)"),
    LegalityRule("dragon-deck", "The Dragon deck holds 40 cards; a card whose text is not public is held and discarded for H&F, never played (errata dragon_card_list, dragon_card_costs).", "ccn_dragon_cards_gmt", "Dragon Cards 40"),
    LegalityRule("end-of-turn-dragon-or-hf", "At the end of his turn a player draws a Dragon card or takes 2 H&F tokens.", "ccn_honor_fortune_gmt", "Managing and Replenishing Honor & Fortune Reserves"),
    LegalityRule("end-of-turn-discard-dragon", "At the end of a turn in which he played no Dragon card, a player may discard 1 Dragon card for 1 H&F.", "ccn_honor_fortune_gmt", "Managing and Replenishing Honor & Fortune Reserves"),
    LegalityRule("one-dragon-card-per-turn", "A player plays at most 1 Dragon card per turn, paying its H&F cost from his reserve.", "ccn_dragon_cards_gmt", "Playing a Dragon card"),
    LegalityRule("draw-two-keep-one", "After an Order One Unit card the player draws 2 Command cards, keeps 1 and discards the other.", "ccn_command_cards_gmt", "Section cards (39 cards)"),
    LegalityRule("surrender-one-card", "A player with 1 Command card at the start of his turn surrenders.", "ccn_end_game_gmt", "Victory"),
    LegalityRule("cavalry-charge", "Cavalry Charge orders up to 4 cavalry units (+1 close combat die all turn, square cavalry move 3 and battle, no ranged combat; Samurai Bow Cavalry move at most 2, get no extra die and roll their base close combat dice: erratum mounted_samurai_archers_close_after_move); in a mixed army either land or naval units, naval units getting the die only.", "ccn_cavalry_charge", "Card text and the note under it; genpei_pack Naval Warfare: cards"),
    LegalityRule("mixed-army-cards", "In a mixed army the land use of Cavalry Charge or Infantry Onslaught orders land units and lone leaders only, also where it falls back to 1 unit of your choice; the naval use naval units only.", "genpei_pack", "Naval Warfare: cards ('either land units ... or naval units, not both')"),
    LegalityRule("infantry-onslaught-naval", "Infantry Onslaught ordering naval units: 4 adjacent naval units move up to 2 hexes even against the wind/tide and close combat (land text not public: erratum infantry_onslaught_land_text).", "genpei_pack", "Naval Warfare: cards"),
    LegalityRule("serpent-command", "Units ordered by Serpent Command move at most 1 hex, at sea whatever the wind/tide (erratum serpent_command_orders).", "genpei_pack", "Naval Warfare: cards"),
    LegalityRule("shogun", "Shogun: 1 die per Command card held; each standard symbol orders a unit of that standard, each flag any unit or leader; H&F collected; +1 die all turn; both decks reshuffled.", "ccn_shogun", "Card text"),
    LegalityRule("first-strike", "First Strike, played when the opponent declares a close combat: the defender battles first, the attacker then as ordered, no battle back; the defender draws his replacement card first.", "ccn_faq_dragon_command_cards", "First Strike and Ambush"),
    LegalityRule("ambush", "Ambush (Dragon card): as First Strike, with 1 additional die.", "ccn_faq_dragon_command_cards", "First Strike and Ambush"),
    LegalityRule("personal-challenge", "Personal Challenge before a close combat of two led units: dice per Command card held, +2 for its player, +1 most H&F, +1 higher leader status; most swords kills the other leader (no banner, 1 random Command card lost).", "ccn_personal_challenge", "Card text"),
    LegalityRule("inspiration-after-challenge", "The attacker's Leader Inspiration in a close combat is decided and paid after any Personal Challenge (which it does not change), by the leader that survived it; after a challenge he chooses again.", "ccn_faq_leaders", "Inspiration (the Personal Challenge comes before inspiration is decided; rules_facts §1.6)"),
    LegalityRule("naval-leader-status", "At sea a mounted leader has a foot leader's status in a Personal Challenge; an army commander keeps his (erratum naval_leader_status).", "genpei_pack", "Naval Warfare: naval leaders ('treated as infantry leaders')"),
    LegalityRule("turncoat", "Turncoat: both roll 3 dice (+1 most banners, +2 most H&F); more H&F symbols for its player and the enemy unit without a leader defects.", "ccn_turncoat", "Card text"),
    LegalityRule("turncoat-cost", "Turncoat costs 3 H&F: its printed cost is wrong (the designer's ruling; cards.yaml).", "ccn_faq_dragon_command_cards", "Dragon Card: Turncoat (rules_facts §1.6)"),
    # ---------------------------------------------------------------- leaders
    LegalityRule("leader-casualty-check", "A unit with a leader that loses figures and survives checks him with 2 dice (killed on 2 swords); when it is eliminated, with 1 die (killed on a sword); one check per roll, the losses of the retreat it causes (a Marsh roll included) checked with it (errata leader_casualty_check, marsh_retreat_casualty_check).", "ccn_faq_leaders", "Leader Alone in a Hex"),
    LegalityRule("lone-leader-attacked", "A lone leader attacked is eliminated by 1 sword or more of the attacker's normal dice; flags have no effect.", "ccn_faq_leaders", "Leader Alone in a Hex"),
    LegalityRule("lone-leader-retreat", "A lone leader not eliminated retreats 1-3 hexes toward his baseline for 3 H&F (or off the board through it), or commits seppuku (erratum lone_leader_retreat).", "ccn_faq_retreats", "Leaders retreat 1-3 hexes"),
    LegalityRule("seppuku", "Seppuku: +5 H&F, 1 random Command card lost, the opponent draws a Dragon card, no banner.", "ccn_faq_retreats", "Seppuku"),
    LegalityRule("lone-leader-move", "An ordered lone leader moves 1-3 hexes through friendly units and may join a friendly unit without a leader; a section card may detach a leader for 1 order (erratum lone_leader_move).", "ccn_rules_movement", "Unit Movement; ccn_ancients_leaders Leader Movement"),
    LegalityRule("unit-joins-lone-leader", "An infantry unit may move onto a friendly lone leader, a cavalry unit onto a lone cavalry leader, and stops to join him.", "ccn_rules_movement", "Unit Movement"),
    LegalityRule("lone-leader-marsh", "A lone leader entering a Marsh, by an ordered move or a retreat, rolls 1 die (eliminated on a sword) and stops there; leaving one he moves or retreats 1 hex; joining a unit in a Marsh he makes no roll (erratum lone_leader_in_marsh).", "genpei_pack", "Marsh"),
    LegalityRule("no-lone-leader-at-sea", "Open Ocean hexes are impassable to lone leaders.", "genpei_pack", "Naval Warfare: naval leaders"),
    LegalityRule("naval-leader-deck-to-deck", "A detached naval leader moves 1 or 2 hexes whatever the wind/tide, every hex holding a friendly unit.", "genpei_pack", "Naval Warfare: naval leaders"),
    LegalityRule("naval-leader-retreat", "A naval leader retreats 1-2 hexes, each holding a friendly unit; with only open ocean or enemies behind him (also on a shoreline land hex) he commits seppuku.", "genpei_pack", "Naval Warfare: naval leaders"),
    LegalityRule("cavalry-leader-out-of-stockade", "A cavalry leader never enters a Stockade: not moving alone, not retreating, not with his unit moving, retreating or taking ground, not joining a unit inside.", "genpei_pack", "Stockade"),
    LegalityRule("command-ship-moves", "A Command Ship goes with its bodyguard (moving by sea or taking ground at sea) and becomes a fixed Command Tent when it disembarks; a Command Tent becomes a Command Ship when the bodyguard embarks; no bodyguard carries off an enemy's tile.", "genpei_pack", "Naval Warfare: command ship"),
    LegalityRule("command-tent-banner", "Where a scenario says so, the first enemy unit entering a Command Tent or Ship hex removes the tile and wins 1 banner (erratum command_tent_banner).", "ccn_end_game_gmt", "Command tent objective"),
    # ---------------------------------------------------------------- battles
    LegalityRule("battle-back-inspired", "A battle back, and a Stockade's first strike, may be inspired by the defender's leader for 1 H&F.", "genpei_pack", "Stockade (all battle rolls may be modified by Leader Inspiration); ccn_faq_close_combat"),
    LegalityRule("inspiration-last-token", "Each inspired roll costs the leader's H&F and rolls his extra die, the last token included (attacking, battling back, first strikes, at a lone leader or a Palisade or Stockade).", "ccn_faq_leaders", "Inspiration (rules_facts §1.6)"),
    LegalityRule("grapple-sever", "Units held by a grapple may each spend one sword of a close combat against the other to sever it, whichever of them is at sea (a ship held from the shore too), as a grapple is made.", "genpei_pack", "Naval Warfare: grappling"),
    LegalityRule("naval-cavalry-take-ground", "Cavalry at sea, dismounted, still take ground (on water) after a close combat; without a leader attached they make no bonus combat (erratum naval_cavalry_take_ground).", "genpei_pack", "Naval Warfare: mounted units"),
    LegalityRule("no-inspiration-in-buildings", "A unit in buildings (Village) cannot be inspired: the odds command and the engine apply it alike.", "ccn_faq_terrain", "Building"),
    LegalityRule("retreat-choice", "The owner of a retreating unit picks each hex of its retreat among the hexes toward his edge; a hex that cannot be retreated costs a figure.", "ccn_faq_retreats", "Retreats"),
    LegalityRule("take-ground-choice", "After a close combat that empties the target's hex, a cavalry unit or a unit with a leader may take the hex (its player's choice) and then choose a bonus close combat target or none.", "ccn_forum_336", "Bonus combat"),
    LegalityRule("marsh-retreat", "A unit retreating into a Marsh stops there and rolls for it; one retreating out of a Marsh retreats 1 hex; the hexes of retreat left have no effect (erratum marsh_stops_retreat).", "genpei_pack", "Marsh"),
    LegalityRule("marsh-take-ground", "A unit that entered or left a Marsh by its move may not take ground that turn; one that started in it and did not move may take ground out of it; taking ground into a Marsh keeps the bonus combat.", "genpei_pack", "Marsh"),
    LegalityRule("stockade-take-ground-adjacent", "Taking ground into a Stockade needs a start of the turn next to it, like ordered entry (erratum stockade_take_ground_adjacent).", "genpei_pack", "Stockade"),
    LegalityRule("sohei-reroll-exact", "The Sohei H&F reroll chain is geometric; its token counts are computed exactly, the list ending where the exact tail is below 1e-12.", "genpei_pack", "Sohei Warriors; Sohei Archers"),
)
