"""Issue 27, Genpei: places where the engine did not play the texts (seeds 000 and 002, the
designer's rulings in rules-facts §1.6). One hand-made position per rule, the outcome worked out
from the text; each test names its source and, where the text reads two ways, the erratum of
``sources.yaml`` whose chosen reading it tests."""

from __future__ import annotations

import pytest

from pipeline.systems.genpei import odds
from pipeline.systems.genpei.engine.combat import destroy_setup
from pipeline.systems.genpei.engine.deck import decks
from pipeline.systems.genpei.engine.state import challenge_outcomes

from .conftest import SEA, apply_outcome, at_battle, at_card, at_move, dealt, roll, scenario


def _lone_leader_attacked(data, leader_hex, marsh, *, friend_hex=(1, 11)):
    """A south lone leader on ``leader_hex`` attacked in close combat from (6, 5), the roll
    missing him (a friendly unit on ``friend_hex``): the state at his escape decision."""
    sc = scenario(data, terrain=[{"terrain": "marsh", "hexes": [list(h) for h in marsh]}], units=[
        ("b", "samurai_infantry", (6, 5), None), ("a", "ashigaru_spearmen", friend_hex, None)])
    st = dealt(data, sc)
    lid = st._place_leader(0, data.leaders["infantry_leader"], leader_hex).lid
    st = at_battle(st, 0)
    st.apply_action(("battle", 0, lid, "close", False))
    apply_outcome(st, roll())
    assert st.current_player() == 0 and st.legal_actions()[-1] == ("seppuku", lid)
    return st, lid


# ------------------------------------------------------------------ G1, G2: lone leaders, Marsh
def test_g1_a_lone_leader_retreating_into_a_marsh_rolls_for_it(data):
    # Genpei pack, Marsh: "A lone leader entering a Marsh hex must roll 1 die and is eliminated
    # on a sword result" - entering by a retreat as by a move (erratum lone_leader_in_marsh).
    st, lid = _lone_leader_attacked(data, (6, 6), marsh=[(6, 7)])
    st.apply_action(("escape", lid, (6, 7)))
    assert dict(st.chance_outcomes()) == {("leader_marsh", True): pytest.approx(1 / 6),
                                          ("leader_marsh", False): pytest.approx(5 / 6)}
    banners = st.sides[1].banners
    st.apply_action(("leader_marsh", True))
    assert lid not in st.leaders and st.sides[1].banners == banners + 1


def test_g2_a_retreating_lone_leader_stops_in_a_marsh(data):
    # Genpei pack, Marsh: "A unit or leader entering a marsh hex must stop and may not move
    # again that turn": the escape ends on the Marsh hex, never past it.
    st, lid = _lone_leader_attacked(data, (6, 6), marsh=[(6, 7), (7, 7)])
    dests = {a[2] for a in st.legal_actions() if a[0] == "escape"}
    assert dests == {(6, 7), (7, 7)}


def test_g2_a_lone_leader_leaving_a_marsh_retreats_1_hex(data):
    # Genpei pack, Marsh: "A unit or lone leader leaving a Marsh hex may move only 1 hex and
    # stop regardless of its normal movement allowance".
    st, lid = _lone_leader_attacked(data, (6, 6), marsh=[(6, 6)])
    dests = {a[2] for a in st.legal_actions() if a[0] == "escape"}
    assert dests == {(6, 7), (7, 7)}


def test_g2_a_unit_retreating_out_of_a_marsh_moves_1_hex(data):
    # The same rule for a unit (erratum marsh_stops_retreat): 2 flags, 1 hex out of the Marsh,
    # the rest of the retreat ends there (no figure lost for it).
    sc = scenario(data, terrain=[{"terrain": "marsh", "hexes": [[6, 6]]}], units=[
        ("b", "samurai_infantry", (6, 5), None), ("a", "ashigaru_spearmen", (6, 6), None)])
    st = at_battle(dealt(data, sc), 0)
    st.apply_action(("battle", 0, 1, "close", False))
    apply_outcome(st, roll(flags=2))
    assert st.current_player() == 0 and {a[2] for a in st.legal_actions()} == {(6, 7), (7, 7)}
    st.apply_action(("retreat", 1, (6, 7)))
    assert st.units[1].hex == (6, 7) and st.units[1].figures == 4
    assert st.current_player() != 0 or st.legal_actions()[0][0] != "retreat"


def test_a_lone_leader_joining_a_unit_in_a_marsh_makes_no_roll(data):
    # erratum lone_leader_in_marsh (reading 0): he ends attached, not alone, so the lone
    # leader's roll does not apply - by a move as by a retreat.
    st, lid = _lone_leader_attacked(data, (6, 6), marsh=[(6, 7)], friend_hex=(6, 7))
    assert ("escape", lid, (6, 7)) in st.legal_actions()
    st.apply_action(("escape", lid, (6, 7)))
    assert st.units[1].leader is not None and lid not in st.leaders
    assert not (st.is_chance_node() and st.node[3] == "_h_leader_marsh")


# ------------------------------------------------------------------ G9: one casualty check
def test_g9_a_retreat_into_a_marsh_makes_one_leader_casualty_check(data):
    # erratum leader_casualty_check: one check per roll; erratum marsh_retreat_casualty_check:
    # the Marsh die of the retreat the roll causes is part of that roll's losses.
    sc = scenario(data, terrain=[{"terrain": "marsh", "hexes": [[6, 7]]}], units=[
        ("b", "samurai_infantry", (6, 5), None), ("a", "ashigaru_spearmen", (6, 6), "infantry_leader"),
        ("a", "ashigaru_spearmen", (7, 7), None)])
    st = at_battle(dealt(data, sc), 0)
    st.apply_action(("battle", 0, 1, "close", False))
    apply_outcome(st, roll(sym=1, flags=1))
    checks = 0
    while not st.is_terminal() and st.player == 1 and st.phase == "battle":
        if st.is_chance_node():
            outs = dict(st.chance_outcomes())
            if ("marsh", True) in outs:
                a = ("marsh", True)
            elif ("casualty", False) in outs:
                checks += 1
                a = ("casualty", False)
            else:
                a = st.chance_outcomes()[0][0]
        else:
            acts = st.legal_actions()
            a = next((x for x in acts if x[0] == "retreat"), acts[0])
        st.apply_action(a)
    assert st.units[1].figures == 2  # the hit and the Marsh die
    assert checks == 1


# ------------------------------------------------------------------ G3: severing a grapple
def _ship_and_shore(data):
    """A north ship at (6, 5) held by a grapple with a south land unit on the shore hex (6, 6)."""
    sc = scenario(data, terrain=SEA, naval=True, wind=["E"], units=[
        ("a", "samurai_infantry", (6, 6), None), ("b", "samurai_infantry", (6, 5), None)])
    st = dealt(data, sc)
    st.grapples = {frozenset((0, 1))}
    return st


def test_g3_a_ship_grappled_from_the_shore_may_sever_when_it_attacks(data):
    # Genpei pack, Grappling: "The grappler may be another naval unit or a land unit on an
    # adjacent shore hex"; "A grappled unit conducting close combat against its mutually
    # grappled enemy may allocate one sword result to severing the grapple".
    st = at_battle(_ship_and_shore(data), 1)
    st.apply_action(("battle", 1, 0, "close", False))
    apply_outcome(st, roll(swords=2))
    assert st.current_player() == 1 and st.legal_actions() == [("grapple", False), ("grapple", True)]
    st.apply_action(("grapple", True))
    assert not st.grapples


def test_g3_a_ship_grappled_from_the_shore_may_sever_when_it_battles_back(data):
    st = at_battle(_ship_and_shore(data), 0)
    st.apply_action(("battle", 0, 1, "close", False))
    apply_outcome(st, roll())  # the land unit's roll: nothing
    apply_outcome(st, roll(swords=1))  # the ship's battle back
    assert st.current_player() == 1 and st.legal_actions() == [("grapple", False), ("grapple", True)]
    st.apply_action(("grapple", True))
    assert not st.grapples


# ------------------------------------------------------------------ G4: naval cavalry
def test_g4_dismounted_cavalry_at_sea_takes_ground_without_a_bonus_combat(data):
    # Genpei pack, Naval Warfare (mounted units): dismounted at sea they "do not receive bonus
    # close combat after gaining ground without a leader attached" (erratum
    # naval_cavalry_take_ground: they still take ground).
    sc = scenario(data, terrain=SEA, naval=True, wind=["E"], units=[
        ("a", "samurai_cavalry", (6, 4), None), ("b", "ashigaru_archers", (6, 3), None),
        ("b", "ashigaru_archers", (7, 2), None)])
    st = at_battle(dealt(data, sc), 0)
    st.units[1].figures = 1
    st.apply_action(("battle", 0, 1, "close", False))
    apply_outcome(st, roll(sym=1))
    assert st.legal_actions() == [("take_ground", 0, False), ("take_ground", 0, True)]
    st.apply_action(("take_ground", 0, True))
    assert st.units[0].hex == (6, 3)
    assert not any(a[0] == "bonus" for a in st.legal_actions())


# ------------------------------------------------------------------ G5: the Command Ship
def test_g5_the_command_ship_follows_its_bodyguard_taking_ground(data):
    # Genpei pack, Command Ship: "follows all the usual rules for a Command Tent except that it
    # may move as per the naval unit movement rules"; it becomes a Command Tent when the
    # bodyguard disembarks.
    sc = scenario(data, terrain=SEA, naval=True, wind=["E"], units=[
        ("a", "bodyguard", (6, 5), "commander"), ("b", "ashigaru_archers", (6, 4), None),
        ("b", "ashigaru_archers", (1, 1), None)], markers=[{"marker": "command_ship", "hex": [6, 5], "side": "a"}])
    st = at_battle(dealt(data, sc), 0)
    st.units[1].figures = 1
    st.apply_action(("battle", 0, 1, "close", False))
    apply_outcome(st, roll(sym=1))
    st.apply_action(("take_ground", 0, True))
    assert st.markers == [["command_ship", (6, 4), "a"]]
    # next turn: back to (6, 5) by sea, then ashore at (6, 6): a Command Tent there
    u = st.units[0]
    for dest in ((6, 5), (6, 6)):
        u.start_hex = u.hex
        u.moved = False
        st = at_move(st, 0)
        st.steps.clear()
        st.apply_action(("move", 0, dest))
    assert st.markers == [["command_tent", (6, 6), "a"]]


def test_g5_an_enemy_bodyguard_does_not_carry_off_a_command_ship(data):
    # The tile is its commander's own: an enemy bodyguard sailing off the hex of a Command Ship
    # whose bodyguard was lost there leaves the tile where it is.
    sc = scenario(data, terrain=SEA, naval=True, wind=["E"], units=[
        ("a", "bodyguard", (6, 4), "commander"), ("b", "samurai_infantry", (1, 1), None)],
        markers=[{"marker": "command_ship", "hex": [6, 4], "side": "b"}])
    st = dealt(data, sc)
    st = at_move(st, 0)
    st.apply_action(("move", 0, (7, 4)))
    assert st.markers == [["command_ship", (6, 4), "b"]]


# ------------------------------------------------------------------ G6, G7, SB-7: Personal Challenge
def test_g6_a_cavalry_leader_at_sea_has_infantry_status_in_a_challenge(data):
    # Genpei pack, naval leaders: "At sea, naval leaders are all treated as infantry leaders";
    # ccn_personal_challenge: +1 die for the leader of higher status (erratum
    # naval_leader_status: mounted counts as foot at sea, a commander stays a commander).
    sc = scenario(data, terrain=SEA, naval=True, wind=["E"], units=[
        ("a", "samurai_infantry", (6, 4), "cavalry_leader"), ("b", "samurai_infantry", (6, 3), "infantry_leader")])
    st = at_battle(dealt(data, sc), 0)
    st.sides[0].dragons = ["personal_challenge"]
    st.sides[0].hf = st.sides[1].hf = 4
    st.apply_action(("battle", 0, 1, "close", False))
    st.apply_action(("challenge", True))
    # hands: side 0 holds 5 (+1, the card it played this turn), side 1 5; +2 for the challenger;
    # H&F 3 against 4 after the card's cost: +1 to side 1; leaders both foot: no status die
    n0, n1 = len(st.sides[0].hand) + 1 + 2, len(st.sides[1].hand) + 1
    assert st.chance_outcomes() == challenge_outcomes(odds.faces_of(data), n0, n1)


def _challenge_position(data, *, attacker_leader="infantry_leader"):
    sc = scenario(data, units=[("a", "samurai_infantry", (6, 6), attacker_leader),
                               ("b", "samurai_infantry", (6, 5), "infantry_leader")])
    st = at_battle(dealt(data, sc), 0)
    st.sides[1].dragons = ["personal_challenge"]
    st.sides[0].hf = st.sides[1].hf = 3
    return st


def test_g7_inspiration_is_paid_after_the_challenge_not_before(data):
    # rules-facts §1.6 (Personal Challenge; FAQ, Leaders, Inspiration): the challenge is resolved
    # before the close combat, "and so before inspiration is decided": the attacker's declared
    # inspiration must not change the challenge's "more H&F" die.
    st = _challenge_position(data)
    st.apply_action(("battle", 0, 1, "close", True))
    assert st.current_player() == 1 and st.legal_actions() == [("challenge", False), ("challenge", True)]
    assert st.sides[0].hf == 3  # nothing paid yet
    st.apply_action(("challenge", True))
    # side 0: 5 cards + 1 played; side 1: 5 + 2 for the challenger; H&F 3 against 2: side 0 +1
    n0, n1 = len(st.sides[0].hand) + 1 + 1, len(st.sides[1].hand) + 2
    assert st.chance_outcomes() == challenge_outcomes(odds.faces_of(data), n0, n1)


def test_g7_the_attacker_losing_his_leader_in_the_challenge_pays_nothing(data):
    st = _challenge_position(data)
    st.apply_action(("battle", 0, 1, "close", True))
    st.apply_action(("challenge", True))
    apply_outcome(st, ("challenge", -1, 0, 0))  # side 1 rolls more swords: the attacker's leader dies
    st.apply_action(st.chance_outcomes()[0][0])  # the random Command card side 0 loses
    assert st.units[0].leader is None and st.sides[0].hf == 3
    assert st.is_chance_node() and st.node[3] == "_h_roll" and st.node[4][-1].dice == 4 and not st.node[4][-1].inspired


def test_g7_the_surviving_leader_decides_inspiration_after_the_challenge(data):
    st = _challenge_position(data)
    st.apply_action(("battle", 0, 1, "close", False))
    st.apply_action(("challenge", True))
    apply_outcome(st, ("challenge", 0, 0, 0))  # a tie: both leaders live
    assert st.current_player() == 0 and st.legal_actions() == [("inspire", False), ("inspire", True)]
    st.apply_action(("inspire", True))
    assert st.sides[0].hf == 2 and st.node[4][-1].dice == 5 and st.node[4][-1].inspired


# ------------------------------------------------------------------ SB-6: the last H&F token
def test_sb6_the_last_hf_token_buys_its_die_attacking(data):
    # rules-facts §1.6 (FAQ, Leaders, Inspiration): each inspired unit costs 1 H&F and rolls +1
    # die; "a single H&F inspires one unit (so the last token still buys its die)".
    sc = scenario(data, units=[("a", "samurai_infantry", (6, 6), "infantry_leader"), ("b", "ashigaru_spearmen", (6, 5), None)])
    st = at_battle(dealt(data, sc), 0)
    st.sides[0].hf = 1
    st.apply_action(("battle", 0, 1, "close", True))
    assert st.sides[0].hf == 0 and st.node[4][-1].dice == 4 + 1 and st.node[4][-1].inspired


def test_sb6_the_last_hf_token_buys_its_die_battling_back(data):
    sc = scenario(data, units=[("a", "ashigaru_spearmen", (6, 6), None), ("b", "samurai_infantry", (6, 5), "infantry_leader")])
    st = at_battle(dealt(data, sc), 0)
    st.sides[1].hf = 1
    st.apply_action(("battle", 0, 1, "close", False))
    apply_outcome(st, roll())
    st.apply_action(("inspire", True))
    assert st.sides[1].hf == 0 and st.node[4][-1].dice == 4 + 1 and st.node[4][-1].inspired


def test_sb6_the_last_hf_token_buys_its_die_firing_at_a_lone_leader(data):
    sc = scenario(data, units=[("a", "ashigaru_archers", (6, 7), "infantry_leader"), ("b", "samurai_infantry", (1, 1), None)])
    st = dealt(data, sc)
    lid = st._place_leader(1, data.leaders["infantry_leader"], (6, 5)).lid
    st = at_battle(st, 0)
    st.sides[0].hf = 1
    st.apply_action(("battle", 0, lid, "ranged", True))
    assert st.sides[0].hf == 0 and st.node[3] == "_h_roll_leader"
    assert st.node[2] == odds.chance_list(data, st.leader_setup_for(st.units[0], st.leaders[lid], "ranged", True))
    assert st.leader_setup_for(st.units[0], st.leaders[lid], "ranged", True).dice == 2 + 1


def test_sb6_the_last_hf_token_buys_its_die_against_a_stockade_with_an_adjacent_cavalry_leader(data):
    # ccn_faq_close_combat: a cavalry leader inspires an adjacent friendly unit; the die counts
    # against a Stockade too (Genpei pack, Stockade: "may be modified by Leader Inspiration").
    sc = scenario(data, terrain=[{"terrain": "stockade", "hexes": [[6, 5]]}], units=[
        ("a", "samurai_infantry", (6, 6), None), ("a", "samurai_cavalry", (7, 6), "cavalry_leader"),
        ("b", "ashigaru_spearmen", (6, 5), None)])
    st = at_battle(dealt(data, sc), 0)
    st.sides[0].hf = 1
    assert ("destroy", 0, (6, 5), True) in st.legal_actions()
    st.apply_action(("destroy", 0, (6, 5), True))
    expected = destroy_setup(st.fighter(st.units[0], data.leaders["cavalry_leader"]), inspired=True)
    assert expected.dice == 4 + 1 and st.sides[0].hf == 0
    assert st.node[3] == "_h_destroy" and st.chance_outcomes() == odds.chance_list(data, expected)


# ------------------------------------------------------------------ G8: mixed armies
def test_g8_the_land_use_of_infantry_onslaught_orders_no_ship(data):
    # Genpei pack, Naval Warfare: cards - "used to order either land units (in which case it
    # functions as per its normal text) or naval units, not both".
    sc = scenario(data, terrain=SEA, naval=True, wind=["E"], units=[
        ("a", "samurai_infantry", (6, 8), None), ("a", "ashigaru_spearmen", (6, 4), None),
        ("b", "samurai_infantry", (2, 9), None)])
    st = at_card(dealt(data, sc), 0, ["infantry_onslaught", "order2_centre", "order2_centre"])
    st.apply_action(("card", "infantry_onslaught", "land"))
    assert st.ordered == [0]  # the land unit only, taken without asking; never the ship


def test_g8_the_land_use_of_cavalry_charge_without_land_cavalry_orders_no_ship(data):
    sc = scenario(data, terrain=SEA, naval=True, wind=["E"], units=[
        ("a", "samurai_infantry", (6, 8), None), ("a", "samurai_cavalry", (6, 4), None),
        ("b", "samurai_infantry", (2, 9), None)])
    st = at_card(dealt(data, sc), 0, ["cavalry_charge", "order2_centre", "order2_centre"])
    st.apply_action(("card", "cavalry_charge", "land"))
    assert st.ordered == [0]


# ------------------------------------------------------------------ G10: the defender's choices
def test_g10_the_palisade_flag_ignore_is_the_defenders_choice(data):
    # Genpei pack, Palisade: "ignores one sword and may ignore one flag result for any attack
    # coming across a Palisade hexside" (erratum optional_flag_ignores).
    sc = scenario(data, terrain=[{"terrain": "palisade", "hexes": [[6, 5]], "hexsides": ["SW", "SE"]}], units=[
        ("a", "samurai_infantry", (6, 6), None), ("b", "ashigaru_spearmen", (6, 5), None)])
    st = at_battle(dealt(data, sc), 0)
    st.apply_action(("battle", 0, 1, "close", False))
    apply_outcome(st, roll(flags=1))
    assert st.current_player() == 1 and st.legal_actions() == [("ignore_flags", 0), ("ignore_flags", 1)]
    st.apply_action(("ignore_flags", 0))  # he chooses to retreat
    assert st.legal_actions()[0][0] == "retreat" or st.units[1].hex != (6, 5)


def test_g10_declining_the_palisade_flag_ignore_retreats_and_taking_it_holds(data):
    sc = scenario(data, terrain=[{"terrain": "palisade", "hexes": [[6, 5]], "hexsides": ["SW", "SE"]}], units=[
        ("a", "samurai_infantry", (6, 6), None), ("b", "ashigaru_spearmen", (6, 5), None)])
    st = at_battle(dealt(data, sc), 0)
    st.apply_action(("battle", 0, 1, "close", False))
    apply_outcome(st, roll(flags=1))
    st.apply_action(("ignore_flags", 1))
    assert st.units[1].hex == (6, 5) and st.units[1].figures == 4


def test_g10_a_stockade_defender_chooses_to_battle_first(data):
    # Genpei pack, Stockade: "A unit on a Stockade hex being targeted in close combat by a unit
    # on a non-stockade hex may battle first (as if playing a First Strike card)".
    sc = scenario(data, terrain=[{"terrain": "stockade", "hexes": [[6, 5]]}], units=[
        ("a", "samurai_infantry", (6, 6), None), ("b", "ashigaru_spearmen", (6, 5), None)])
    st = at_battle(dealt(data, sc), 0)
    st.apply_action(("battle", 0, 1, "close", False))
    assert st.current_player() == 1 and st.legal_actions() == [("react", None), ("react", "stockade")]
    st.apply_action(("react", None))  # the defender lets the attacker roll first
    assert st.node[3] == "_h_roll" and st.node[4][:4] == (0, 1, "close", "attack")


def test_g10_a_stockade_defender_battling_first_rolls_before_the_attacker(data):
    sc = scenario(data, terrain=[{"terrain": "stockade", "hexes": [[6, 5]]}], units=[
        ("a", "samurai_infantry", (6, 6), None), ("b", "ashigaru_spearmen", (6, 5), None)])
    st = at_battle(dealt(data, sc), 0)
    st.apply_action(("battle", 0, 1, "close", False))
    st.apply_action(("react", "stockade"))
    assert st.node[3] == "_h_roll" and st.node[4][:4] == (1, 0, "close", "first")


def test_g10_a_bridge_flag_ignore_is_the_defenders_choice(data):
    # ccn_faq_terrain, Bridge: "A unit on a bridge may ignore 1 flag" (erratum optional_flag_ignores).
    sc = scenario(data, terrain=[{"terrain": "bridge", "hexes": [[6, 5]]}], units=[
        ("a", "samurai_infantry", (6, 6), None), ("b", "ashigaru_spearmen", (6, 5), None)])
    st = at_battle(dealt(data, sc), 0)
    st.apply_action(("battle", 0, 1, "close", False))
    apply_outcome(st, roll(flags=2))
    assert st.current_player() == 1 and st.legal_actions() == [("ignore_flags", 0), ("ignore_flags", 1)]


def test_g10_a_red_units_own_flag_ignore_is_not_asked(data):
    # erratum optional_flag_ignores (reading 0): the units' own ignore is not a choice.
    sc = scenario(data, units=[("a", "samurai_infantry", (6, 6), None), ("b", "samurai_infantry", (6, 5), None)])
    st = at_battle(dealt(data, sc), 0)
    st.apply_action(("battle", 0, 1, "close", False))
    apply_outcome(st, roll(flags=2))
    assert not st.legal_actions() or st.legal_actions()[0][0] != "ignore_flags"


# ------------------------------------------------------------------ SB-3: Turncoat's cost
def test_sb3_turncoat_costs_3_hf(data):
    # rules-facts §1.6 (FAQ, Dragon Cards and Command Cards, Turncoat): the printed cost is
    # wrong, it should be 3 H&F (cards.yaml, sourced).
    assert decks(data).info["turncoat"].cost == 3
    sc = scenario(data, units=[("a", "samurai_infantry", (6, 6), None), ("b", "ashigaru_spearmen", (6, 2), None)])
    st = at_card(dealt(data, sc), 0, ["order2_centre"] * 3, dragons=["turncoat"])
    st.sides[0].hf = 2
    st.apply_action(("card", "order2_centre", None))
    assert ("dragon", "turncoat", 1) not in st.legal_actions()
    st = at_card(dealt(data, sc), 0, ["order2_centre"] * 3, dragons=["turncoat"])
    st.sides[0].hf = 3
    st.apply_action(("card", "order2_centre", None))
    st.apply_action(("dragon", "turncoat", 1))
    assert st.sides[0].hf == 0


# ------------------------------------------------------------------ SB-8: Samurai Bow Cavalry
def test_sb8_samurai_bow_cavalry_under_cavalry_charge_rolls_its_base_close_dice(data):
    # ccn_cavalry_charge (the note under the card): Samurai Bow Cavalry moves at most 2, gets no
    # +1 die and rolls its base close-combat dice; ccn_unit_sbc: 3 close combat dice (erratum
    # mounted_samurai_archers_close_after_move).
    sc = scenario(data, units=[("a", "mounted_samurai_archers", (6, 8), None), ("b", "samurai_infantry", (6, 5), None)])
    st = at_card(dealt(data, sc), 0, ["cavalry_charge", "order2_centre", "order2_centre"])
    st.apply_action(("card", "cavalry_charge", "land"))
    u = st.units[0]
    assert st.ordered == [0] and max(st.board.distance((6, 8), h) for h in st.destinations(u)) == 2
    st.apply_action(("move", 0, (6, 6)))
    assert u.moved and ("battle", 0, 1, "close", False) in st.legal_actions()
    assert st.setup_for(u, st.units[1], "close", False).dice == 3
