"""The decks, the end of the turn, the leaders and the issue-12 discrepancies: one hand-made
situation per rule, each naming its source."""

from __future__ import annotations

from collections import deque
from fractions import Fraction

import pytest

from pipeline.systems.genpei import odds
from pipeline.systems.genpei.engine.deck import UNLISTED_COMMAND, UNLISTED_DRAGON, decks
from pipeline.systems.genpei.engine.state import (
    LEADER_BASE,
    casualty_check_probability,
    challenge_outcomes,
    more_hf_probability,
    symbol_counts,
)

from .conftest import SEA, apply_outcome, at_battle, at_card, at_move, dealt, roll, scenario


# ------------------------------------------------------------------------------------ decks
def test_command_deck_is_60_cards_with_39_section_cards(data):
    # ccn_command_cards_gmt: 60 cards, 39 section cards; erratum command_card_list: the 8
    # section and 16 tactic places no public source gives are unlisted cards.
    d = decks(data)
    assert sum(d.command.values()) == 60
    listed_sections = sum(n for c, n in d.command.items() if d.info[c].effect == "section")
    assert listed_sections == 31 and d.command["order2_centre"] == 4
    assert d.command[UNLISTED_COMMAND] == 60 - 31 - 5
    assert {c for c in d.command if d.info[c].effect not in ("section", "fallback")} == {
        "cavalry_charge", "infantry_onslaught", "serpent_command", "shogun", "first_strike"}


def test_dragon_deck_is_40_cards_and_unknown_texts_are_never_played(data):
    # ccn_dragon_cards_gmt: 40 cards; erratum dragon_card_list / dragon_card_costs.
    d = decks(data)
    assert sum(d.dragon.values()) == 40 and d.dragon[UNLISTED_DRAGON] == 40 - 18
    playable = {c for c in d.dragon if d.info[c].effect != "unknown"}
    assert playable == {"ambush", "personal_challenge", "turncoat"}
    assert d.info["ambush"].cost == d.info["personal_challenge"].cost == 1  # the stand-in cost, logged
    assert d.info["turncoat"].cost == 3  # the designer's ruling (cards.yaml)
    assert any("dragon_card_costs" in n for n in d.notes)


# ------------------------------------------------------------------------------ end of turn
def _to_end_of_turn(st):
    st.phase = "battle"
    st.queue = deque()
    st.card = "order2_centre"
    st._legal = None
    st._advance()
    return st


def test_end_of_turn_draw_a_dragon_card_or_take_2_hf(data):
    # ccn_honor_fortune_gmt: at the end of his turn the player draws a Dragon card or takes 2 H&F;
    # with no Dragon card played he may first discard one for 1 H&F.
    sc = scenario(data, units=[("a", "samurai_infantry", (6, 6), None), ("b", "samurai_infantry", (6, 2), None)])
    st = at_card(dealt(data, sc), 0, ["order2_centre"] * 4, dragons=["unlisted_dragon"])
    hf = st.sides[0].hf
    _to_end_of_turn(st)
    assert st.legal_actions() == [("discard", None), ("discard", "unlisted_dragon")]
    st.apply_action(("discard", "unlisted_dragon"))
    assert st.sides[0].hf == hf + 1 and st.sides[0].dragons == []
    assert st.legal_actions() == [("eot", "dragon"), ("eot", "hf")]
    st.apply_action(("eot", "hf"))
    assert st.sides[0].hf == hf + 3
    assert st.chance_outcomes()[0][0][0] == "draw"  # then the Command card draw


def test_no_discard_after_playing_a_dragon_card_and_one_dragon_card_per_turn(data):
    sc = scenario(data, units=[("a", "samurai_infantry", (6, 6), None), ("b", "ashigaru_spearmen", (6, 2), None)])
    st = at_card(dealt(data, sc), 0, ["order2_centre"] * 4, dragons=["turncoat", "unlisted_dragon"])
    st.dragon_played[0] = True
    assert st.can_play_dragon(0, "turncoat") is None
    _to_end_of_turn(st)
    assert st.legal_actions() == [("eot", "dragon"), ("eot", "hf")]  # no discard offered
    st.apply_action(("eot", "dragon"))
    assert st.chance_outcomes()[0][0][0] == "draw"
    n = len(st.sides[0].dragons)
    st.apply_action(st.chance_outcomes()[0][0])
    assert len(st.sides[0].dragons) == n + 1


def test_order_one_card_draws_two_and_keeps_one(data):
    # ccn_command_cards_gmt: Order One Unit: when drawing the new card, draw 2, keep 1.
    sc = scenario(data, units=[("a", "samurai_infantry", (6, 6), None), ("b", "samurai_infantry", (6, 2), None)])
    st = at_card(dealt(data, sc), 0, ["order2_centre"] * 4)
    _to_end_of_turn(st)
    st.card = None
    st.steps.clear()
    st.card = "order1_centre"
    st.node = None
    st.phase = "battle"
    st.queue = deque()
    st._advance()
    st.apply_action(("eot", "hf"))
    apply_outcome(st, ("draw", "shogun"))
    apply_outcome(st, ("draw", "order3_left"))
    assert st.legal_actions() == [("keep", "order3_left"), ("keep", "shogun")]
    st.apply_action(("keep", "shogun"))
    assert st.sides[0].hand.count("shogun") == 1 and st.cmd_discard.get("order3_left") == 1


def test_surrender_at_one_command_card(data):
    # ccn_end_game_gmt: a player down to 1 Command card at the start of his turn surrenders.
    sc = scenario(data, units=[("a", "samurai_infantry", (6, 6), None), ("b", "samurai_infantry", (6, 2), None)])
    st = dealt(data, sc)
    st.sides[1].hand = ["order2_centre"]
    st.player = 0
    st._s_next_turn()
    assert st.is_terminal() and st.winner() == 0


# ---------------------------------------------------------------------------- tactic cards
def test_infantry_onslaught_moves_four_adjacent_naval_units_two_hexes_against_the_wind(data):
    # Genpei pack, Naval Warfare: cards - "4 adjacent naval units may move 2 hexes, even when
    # moving against the wind/tide, and conduct close combat".
    sc = scenario(data, terrain=SEA, naval=True, wind=["E"], units=[
        ("a", "ashigaru_spearmen", (6, 3), None), ("a", "ashigaru_spearmen", (7, 3), None),
        ("a", "ashigaru_spearmen", (11, 1), None), ("a", "samurai_infantry", (6, 8), None),
        ("b", "samurai_infantry", (2, 9), None)])
    st = at_card(dealt(data, sc), 0, ["infantry_onslaught", "order2_centre", "order2_centre"])
    assert ("card", "infantry_onslaught", "naval") in st.legal_actions()
    assert ("card", "infantry_onslaught", "land") in st.legal_actions()  # a mixed army chooses
    st.apply_action(("card", "infantry_onslaught", "naval"))
    assert ("order", 3) not in st.legal_actions()  # land units are not ordered by the naval use
    st.apply_action(("order", 0))
    # the only unit left to order is the adjacent one (taken without asking); (11, 1) is not
    assert st.ordered == [0, 1] and st.phase == "move"
    dests = {a[2] for a in st.legal_actions() if a[1] == 0}
    assert (4, 3) in dests  # W then W: 2 hexes against the wind
    st.apply_action(("move", 0, (4, 3)))
    assert not st.units[0].no_battle and st.units[0].no_ranged


def test_cavalry_charge_orders_cavalry_with_an_extra_die_and_3_hex_square_cavalry(data):
    # ccn_cavalry_charge: up to 4 cavalry units, +1 close combat die all turn, square cavalry
    # move 3 and battle, no ranged combat; Samurai Bow Cavalry move 2 and get no extra die.
    sc = scenario(data, units=[("a", "samurai_cavalry", (6, 8), None), ("a", "mounted_samurai_archers", (4, 8), None),
                               ("a", "samurai_infantry", (8, 8), None), ("b", "samurai_infantry", (6, 2), None)])
    st = at_card(dealt(data, sc), 0, ["cavalry_charge", "order2_centre", "order2_centre"])
    st.apply_action(("card", "cavalry_charge", "land"))
    assert ("order", 2) not in st.legal_actions()
    st.apply_action(("order", 0))
    st.apply_action(("order", 1))
    cav, sbc = st.units[0], st.units[1]
    assert (cav.bonus_close, cav.move_override) == (1, 3) and cav.no_ranged
    assert (sbc.bonus_close, sbc.move_override) == (0, None)
    assert max(st.board.distance((6, 8), h) for h in st.destinations(cav)) == 3
    cav.hex, st.at[(6, 3)] = (6, 3), 0
    del st.at[(6, 8)]
    setup = st.setup_for(cav, st.units[3], "close", False)
    assert setup.dice == 5  # 4 + 1 for the card


def test_shogun_orders_by_symbols_rolled_and_reshuffles_both_decks(data):
    # ccn_shogun: 1 die per Command card held (this one included); symbols order units of that
    # standard, flags any unit or leader; H&F collected; +1 die all turn; both decks reshuffled.
    sc = scenario(data, units=[("a", "samurai_infantry", (6, 8), None), ("a", "ashigaru_spearmen", (4, 8), None),
                               ("b", "samurai_infantry", (6, 2), None)])
    st = at_card(dealt(data, sc), 0, ["shogun", "order2_centre", "order2_centre"])
    st.cmd_discard = {"order3_left": 2}
    hf = st.sides[0].hf
    st.apply_action(("card", "shogun", None))
    outs = dict(st.chance_outcomes())
    assert abs(sum(outs.values()) - 1) < 1e-12 and len(outs) == 56  # 3 dice over 5 counted symbols
    assert outs[("shogun", 0, 0, 1, 0, 1)] == pytest.approx(6 * (1 / 6) ** 2 * (1 / 6))
    st.apply_action(("shogun", 0, 0, 1, 0, 1))
    assert st.sides[0].hf == hf + 1 and st.cmd_discard == {} and st.cmd_deck["order3_left"] >= 2
    assert st.ordered == [0]  # one square symbol: the samurai only (ordered without asking)
    assert st.units[0].bonus_close == 1 and st.units[0].bonus_ranged == 1


def test_first_strike_the_defender_battles_first_and_draws_a_replacement(data):
    # ccn_faq_dragon_command_cards: First Strike, after the opponent declares a close combat: the
    # defending unit battles first, the attacker then battles as ordered, no battle back.
    sc = scenario(data, units=[("a", "samurai_infantry", (6, 6), None), ("b", "ashigaru_spearmen", (6, 5), None)])
    st = at_battle(dealt(data, sc), 0)
    st.sides[1].hand = ["first_strike", "order2_centre", "order2_centre"]
    st.apply_action(("battle", 0, 1, "close", False))
    assert st.current_player() == 1 and st.legal_actions() == [("react", None), ("react", "first_strike")]
    st.apply_action(("react", "first_strike"))
    assert st.node[4][:4] == (1, 0, "close", "first")  # the defender rolls first
    apply_outcome(st, roll())
    assert st.node[4][:4] == (0, 1, "close", "after_first")  # then the attacker as ordered
    apply_outcome(st, roll())
    # no battle back: the turn ends; the defender draws his replacement card first
    st.apply_action(("discard", None))
    assert st.legal_actions() == [("eot", "dragon"), ("eot", "hf")]
    st.apply_action(("eot", "hf"))
    assert st.node[3] == "_h_draw_cmd" and st.node[4] == (1, 1)


def test_ambush_battles_first_with_one_more_die(data):
    # ccn_faq_dragon_command_cards: Ambush - the defending unit battles first with 1 additional die.
    sc = scenario(data, units=[("a", "samurai_infantry", (6, 6), None), ("b", "ashigaru_spearmen", (6, 5), None)])
    st = at_battle(dealt(data, sc), 0)
    st.sides[1].dragons = ["ambush"]
    hf = st.sides[1].hf
    st.apply_action(("battle", 0, 1, "close", False))
    st.apply_action(("react", "ambush"))
    assert st.node[4][-1].dice == 3 + 1 and st.sides[1].hf == hf - 1 and st.dragon_played[1]


def test_personal_challenge_outcomes_are_exact_and_cost_a_leader_and_a_card(data):
    # ccn_personal_challenge: most swords eliminates the enemy leader (no banner), 1 Command card
    # lost at random; tie: nothing.
    faces = odds.faces_of(data)
    outs = challenge_outcomes(faces, 1, 1)
    p_win = sum(p for k, p in outs if k[1] == 1)
    assert p_win == pytest.approx((1 / 6) * (5 / 6))
    sc = scenario(data, units=[("a", "samurai_infantry", (6, 6), "infantry_leader"), ("b", "samurai_infantry", (6, 5), "infantry_leader")])
    st = at_battle(dealt(data, sc), 0)
    st.sides[0].dragons = ["personal_challenge"]
    st.apply_action(("battle", 0, 1, "close", False))
    assert st.legal_actions() == [("challenge", False), ("challenge", True)]
    st.apply_action(("challenge", True))
    hand = len(st.sides[1].hand)
    banners = st.sides[0].banners
    apply_outcome(st, ("challenge", 1, 0, 0))
    assert st.units[1].leader is None and st.sides[0].banners == banners
    st.apply_action(st.chance_outcomes()[0][0])  # the random card lost
    assert len(st.sides[1].hand) == hand - 1


def test_turncoat_defects_on_more_hf_symbols(data):
    # ccn_turncoat: both roll 3 dice (+1 most banners, +2 most H&F); the player rolling more H&F
    # symbols decides; a tie: no defection.
    faces = odds.faces_of(data)
    assert more_hf_probability(faces, 3, 3) == pytest.approx(sum(
        p * q for (a,), p in symbol_counts(faces, 3, ("honour_fortune",)) for (b,), q in symbol_counts(faces, 3, ("honour_fortune",)) if a > b))
    sc = scenario(data, units=[("a", "samurai_infantry", (6, 6), None), ("b", "ashigaru_spearmen", (6, 2), None)])
    st = at_card(dealt(data, sc), 0, ["order2_centre"] * 3, dragons=["turncoat"])
    st.apply_action(("card", "order2_centre", None))
    assert ("dragon", "turncoat", 1) in st.legal_actions()
    st.apply_action(("dragon", "turncoat", 1))
    apply_outcome(st, ("turncoat", True))
    assert st.units[1].side == 0 and st.log["dragon:turncoat"] == 1


# --------------------------------------------------------------------------------- leaders
def test_leader_casualty_check_two_dice_after_losses(data):
    # erratum leader_casualty_check: a unit that loses figures and survives checks its leader
    # with 2 dice, killed on 2 swords (1/36); 1 banner for the enemy.
    assert casualty_check_probability(odds.faces_of(data), 2) == pytest.approx(1 / 36)
    sc = scenario(data, units=[("a", "samurai_infantry", (6, 6), None), ("b", "ashigaru_spearmen", (6, 5), "infantry_leader")])
    st = at_battle(dealt(data, sc), 0)
    st.apply_action(("battle", 0, 1, "close", False))
    apply_outcome(st, roll(sym=1))
    assert dict(st.chance_outcomes()) == {("casualty", True): pytest.approx(1 / 36), ("casualty", False): pytest.approx(35 / 36)}
    st.apply_action(("casualty", True))
    assert st.units[1].leader is None and st.sides[0].banners == 1


def test_leader_of_an_eliminated_unit_escapes_1_to_3_hexes_for_3_hf(data):
    # ccn_faq_leaders: the leader not hit by the casualty check retreats 1, 2 or 3 hexes (3 H&F,
    # whatever the distance) or commits seppuku; flags have no effect on him.
    sc = scenario(data, units=[("a", "samurai_infantry", (6, 6), None), ("b", "ashigaru_spearmen", (6, 5), "infantry_leader"),
                               ("b", "ashigaru_archers", (6, 3), None)])
    st = at_battle(dealt(data, sc), 0)
    st.units[1].figures = 1
    hf = st.sides[1].hf
    st.apply_action(("battle", 0, 1, "close", False))
    apply_outcome(st, roll(sym=1, flags=2))
    apply_outcome(st, ("casualty", False))
    acts = st.legal_actions()
    assert ("seppuku", LEADER_BASE) in acts and st.current_player() == 1
    dests = {a[2] for a in acts if a[0] == "escape"}
    assert (6, 3) in dests  # joins the archers 2 hexes behind (north edge: NW/NE steps)
    assert all(st.board.distance((6, 5), h) <= 3 for h in dests) and (6, 7) not in dests
    st.apply_action(("escape", LEADER_BASE, (6, 3)))
    assert st.units[2].leader is not None and st.sides[1].hf == hf - 3
    assert st.legal_actions() == [("take_ground", 0, False), ("take_ground", 0, True)] or not st.legal_actions()[0][0] == "escape"


def test_lone_leader_attacked_dies_on_any_sword(data):
    # ccn_faq_leaders: against a lone leader the attacker rolls his normal dice; 1 sword or more
    # eliminates the leader (1 banner); otherwise he retreats or commits seppuku.
    sc = scenario(data, units=[("a", "samurai_infantry", (6, 6), None), ("b", "ashigaru_spearmen", (1, 1), None)])
    st = dealt(data, sc)
    lid = st._place_leader(1, data.leaders["infantry_leader"], (6, 5)).lid
    st = at_battle(st, 0)
    assert ("battle", 0, lid, "close", False) in st.legal_actions()
    st.apply_action(("battle", 0, lid, "close", False))
    assert len(st.chance_outcomes()) > 1
    apply_outcome(st, roll(swords=1))
    assert lid not in st.leaders and st.sides[0].banners == 1


def test_lone_leaders_of_the_scenario_are_on_the_board(data):
    # Scenario `leaders:` are lone leaders in play (banners-reachable counts them as banners).
    base = scenario(data, units=[("a", "samurai_infantry", (6, 6), None), ("b", "ashigaru_spearmen", (1, 1), None)])
    doc = base.model_dump(mode="json")
    doc["leaders"] = [{"side": "b", "leader": "cavalry_leader", "hex": [4, 4]}]
    sc = type(base).model_validate(doc)
    st = dealt(data, sc)
    assert [(le.side, le.hex, le.type.id) for le in st.leaders.values()] == [(1, (4, 4), "cavalry_leader")]


def test_lone_leader_moves_up_to_3_and_joins_but_not_on_open_ocean(data):
    # errata lone_leader_move; Genpei pack: open ocean is impassable to lone leaders.
    sea = [{"terrain": "ocean", "rows": [{"row": r, "first": 1, "last": 12 - (r % 2 == 0)} for r in range(1, 4)]}]
    sc = scenario(data, terrain=sea, naval=True, wind=["E"], units=[
        ("a", "samurai_infantry", (6, 8), None), ("b", "samurai_infantry", (1, 11), None)])
    st = dealt(data, sc)
    le = st._place_leader(0, data.leaders["infantry_leader"], (6, 5))
    dests = st.leader_destinations(le)
    assert (6, 8) in dests  # the friendly unit 3 hexes away: he joins it
    assert all(not st.board.is_naval(h) for h in dests) and max(st.board.distance((6, 5), h) for h in dests) == 3
    st = at_move(st, le.lid)
    st.apply_action(("move", le.lid, (6, 8)))
    assert st.units[0].leader is not None and not st.leaders


def test_lone_leader_entering_a_marsh_dies_on_a_sword(data):
    # Genpei pack, Marsh: "A lone leader entering a Marsh hex must roll 1 die and is eliminated
    # on a sword result".
    sc = scenario(data, terrain=[{"terrain": "marsh", "hexes": [[6, 6]]}], units=[
        ("a", "samurai_infantry", (1, 11), None), ("b", "samurai_infantry", (1, 1), None)])
    st = dealt(data, sc)
    le = st._place_leader(0, data.leaders["infantry_leader"], (6, 7))
    st = at_move(st, le.lid)
    st.apply_action(("move", le.lid, (6, 6)))
    assert dict(st.chance_outcomes()) == {("leader_marsh", True): 1 / 6, ("leader_marsh", False): 5 / 6}
    st.apply_action(("leader_marsh", True))
    assert not st.leaders and st.sides[1].banners == 1


def test_naval_leader_moves_deck_to_deck(data):
    # Genpei pack, naval leaders: a detached naval leader moves 1 or 2 hexes whatever the wind, as
    # long as both hexes hold friendly units.
    sc = scenario(data, terrain=SEA, naval=True, wind=["E"], units=[
        ("a", "samurai_infantry", (4, 3), "infantry_leader"), ("a", "ashigaru_spearmen", (3, 3), None),
        ("a", "ashigaru_archers", (2, 3), None), ("a", "ashigaru_archers", (8, 3), None),
        ("b", "samurai_infantry", (6, 9), None)])
    st = dealt(data, sc)
    st.player = 0
    st.phase = "order"
    st.tokens = [("section", "left"), ("section", "left")]
    st.card_effect = "section"
    st.ordered = []
    st.node = None
    st._legal = None
    assert ("detach", 0) in st.legal_actions()
    st.apply_action(("detach", 0))
    lid = st.ordered[-1]
    assert sorted(st.leader_destinations(st.leaders[lid])) == [(2, 3), (3, 3), (4, 3)]


def test_shoreline_leader_with_open_ocean_behind_commits_seppuku(data):
    # Genpei pack, naval leaders: "this also applies to a leader on a shoreline land hex with only
    # open ocean hexes behind it" - judged on the hexes behind (toward his edge), not all six.
    sea = [{"terrain": "ocean", "rows": [{"row": 1, "first": 1, "last": 12}, {"row": 2, "first": 1, "last": 11}]}]
    sc = scenario(data, terrain=sea, naval=True, wind=["E"], units=[
        ("a", "samurai_infantry", (6, 4), None), ("b", "ashigaru_spearmen", (6, 3), "infantry_leader"),
        ("b", "ashigaru_spearmen", (8, 3), None)])
    st = at_battle(dealt(data, sc), 0)
    st.units[1].figures = 1
    st.apply_action(("battle", 0, 1, "close", False))
    apply_outcome(st, roll(sym=1))
    apply_outcome(st, ("casualty", False))
    # a friend stands 2 hexes east, but behind (NW, NE) is only open ocean: no escape offered
    assert not st.leaders and st.log.get("seppuku") == 1


def test_cavalry_leader_kept_out_of_stockades(data):
    # Genpei pack, Stockade: "Cavalry units and cavalry leaders may not enter a stockade hex" -
    # neither by moving, nor by retreating, nor by taking ground with his unit, nor joining a
    # friend inside.
    sc = scenario(data, terrain=[{"terrain": "stockade", "hexes": [[6, 5]]}], units=[
        ("a", "samurai_infantry", (6, 6), "cavalry_leader"), ("a", "ashigaru_archers", (6, 5), None),
        ("b", "samurai_infantry", (1, 1), None)])
    st = dealt(data, sc)
    u = st.units[0]
    assert (6, 5) not in st.destinations(u)
    le = st._place_leader(0, data.leaders["cavalry_leader"], (7, 6))
    assert (6, 5) not in st.leader_destinations(le)
    st.units[1].hex = (9, 9)
    del st.at[(6, 5)]
    st.at[(9, 9)] = 1
    assert not st.may_take_ground(u, (6, 5))


# ------------------------------------------------------------------------- discrepancies
def test_battle_back_may_be_inspired(data):
    # Genpei pack, Stockade: "All battle rolls may be modified by Leader Inspiration"; CCN FAQ
    # close combat: units can be inspired when attacking or battling back.
    sc = scenario(data, units=[("a", "ashigaru_spearmen", (6, 6), None), ("b", "samurai_infantry", (6, 5), "infantry_leader")])
    st = at_battle(dealt(data, sc), 0)
    st.apply_action(("battle", 0, 1, "close", False))
    apply_outcome(st, roll())
    assert st.current_player() == 1 and st.legal_actions() == [("inspire", False), ("inspire", True)]
    hf = st.sides[1].hf
    st.apply_action(("inspire", True))
    assert st.sides[1].hf == hf - 1 and st.node[4][-1].dice == 4 + 1 and st.node[4][-1].inspired


def test_stockade_first_strike_may_be_inspired(data):
    sc = scenario(data, terrain=[{"terrain": "stockade", "hexes": [[6, 5]]}], units=[
        ("a", "samurai_infantry", (6, 6), None), ("b", "ashigaru_spearmen", (6, 5), "infantry_leader")])
    st = at_battle(dealt(data, sc), 0)
    st.apply_action(("battle", 0, 1, "close", False))
    st.apply_action(("react", "stockade"))
    assert st.legal_actions() == [("inspire", False), ("inspire", True)]
    st.apply_action(("inspire", True))
    assert st.node[4][:4] == (1, 0, "close", "first") and st.node[4][-1].dice == 2 + 1


def test_unit_leaving_a_marsh_does_not_take_ground(data):
    # Genpei pack, Marsh: a unit leaving a Marsh moves 1 hex and "may not move again that turn
    # (including taking ground)"; one that started there and did not move may take ground out.
    sc = scenario(data, terrain=[{"terrain": "marsh", "hexes": [[6, 7]]}], units=[
        ("a", "samurai_cavalry", (6, 7), None), ("b", "ashigaru_spearmen", (6, 5), None)])
    st = dealt(data, sc)
    u = st.units[0]
    u.start_hex = (6, 7)
    assert st.may_take_ground(u, (6, 6))  # started in the Marsh, did not move
    del st.at[u.hex]
    u.hex, st.at[(6, 6)], u.moved = (6, 6), 0, True
    assert not st.may_take_ground(u, (6, 5) if (6, 5) not in st.at else (7, 5))


def test_taking_ground_into_a_marsh_keeps_the_bonus_combat(data):
    # Genpei pack, Marsh: entering stops movement, not battle; cavalry keep their bonus combat.
    sc = scenario(data, terrain=[{"terrain": "marsh", "hexes": [[6, 5]]}], units=[
        ("a", "samurai_cavalry", (6, 6), None), ("b", "ashigaru_archers", (6, 5), None), ("b", "ashigaru_archers", (6, 4), None)])
    st = at_battle(dealt(data, sc), 0)
    st.units[1].figures = 1
    st.apply_action(("battle", 0, 1, "close", False))
    apply_outcome(st, roll(sym=1))
    st.apply_action(("take_ground", 0, True))
    apply_outcome(st, ("marsh", False))
    assert ("bonus", 0, 2, False) in st.legal_actions()


def test_taking_ground_into_a_stockade_needs_a_start_next_to_it(data):
    # erratum stockade_take_ground_adjacent (reading 0): must have started the turn adjacent.
    sc = scenario(data, terrain=[{"terrain": "stockade", "hexes": [[6, 5]]}], units=[
        ("a", "samurai_infantry", (6, 6), "infantry_leader"), ("b", "samurai_infantry", (1, 1), None)])
    st = dealt(data, sc)
    u = st.units[0]
    u.start_hex = (6, 6)
    assert st.may_take_ground(u, (6, 5))
    u.start_hex, u.moved = (6, 7), True
    assert not st.may_take_ground(u, (6, 5))


def test_odds_take_no_inspiration_in_buildings(data):
    # ccn_faq_terrain, Building: units inside cannot be inspired - 2 dice, not 3.
    setup = odds.matchup(data, "samurai_infantry", "ashigaru_spearmen", attacker_terrain="village", leader=True)
    assert setup.dice == 2 and not setup.inspired


def test_sohei_reroll_chain_is_exact(data):
    # erratum sohei_hf_reroll, computed as the geometric chain it is: 3 dice, P(8 tokens) =
    # C(10, 2) (1/6)^8 (5/6)^3 = 625/40310784.
    m = odds.marginals(odds.battle_odds(data, odds.matchup(data, "sohei_warriors", "ashigaru_spearmen")))
    assert m["hf"][8] == Fraction(625, 40310784) and sum(m["hf"].values()) == 1


def test_command_tent_banner(data):
    # erratum command_tent_banner: where the scenario says so, entering the enemy tent's hex
    # removes it and wins 1 banner.
    rule = {"id": "command_tent_banner", "summary": "t", "source": {"doc": "gunbai", "section": "t"}}
    sc = scenario(data, rules=[rule], units=[("a", "samurai_cavalry", (6, 6), None), ("b", "samurai_infantry", (1, 1), None)],
                  markers=[{"marker": "command_tent", "hex": [6, 4], "side": "b"}])
    st = dealt(data, sc)
    st.units[0].start_hex = (6, 6)
    st = at_move(st, 0)
    st.apply_action(("move", 0, (6, 4)))
    assert st.sides[0].banners == 1 and not st.markers


def test_clone_is_independent(data):
    sc = next(s.scenario for s in data.scenarios if s.scenario.code == "GP19")
    st = dealt(data, sc)
    c = st.clone()
    a = c.legal_actions()[0]
    c.apply_action(a)
    assert st.sides[0].hand != c.sides[0].hand or st.phase != c.phase
    assert st.legal_actions()[0] == a
