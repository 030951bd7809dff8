"""One small hand-made situation per rule, with the rule's outcome (rule text cited)."""

from __future__ import annotations

import pytest

from pipeline.systems.genpei.engine.board import Board, with_wind
from pipeline.systems.genpei.engine.deck import naval_move_allowance
from pipeline.systems.genpei.engine.state import marsh_entry_outcomes
from pipeline.systems.genpei.engine.stats import resolve
from pipeline.systems.genpei.layout import HexLayout

from .conftest import SEA, apply_outcome, at_battle, at_move, dealt, roll, scenario


def test_neighbours_match_the_layout(data):
    sc = scenario(data, units=[("a", "samurai_infantry", (1, 11), None), ("b", "samurai_infantry", (1, 1), None)])
    b = Board(data, sc)
    lay = HexLayout(data.board, 84, 24)
    for h in b.hexes:
        for d, n in b.neighbours(h):
            assert lay.neighbour(h, d) == n
            assert b.distance(h, n) == 1


def test_line_of_sight_hexes_are_the_same_both_ways(data):
    """Board.between caches one line for both directions: on the shipped board the hexes a line
    crosses from a to b are those from b to a, for every pair (8001 pairs)."""
    from pipeline.systems.genpei.engine.board import _line

    sc = scenario(data, units=[("a", "samurai_infantry", (1, 11), None), ("b", "samurai_infantry", (1, 1), None)])
    b = Board(data, sc)
    pairs = [(x, y) for x in b.hexes for y in b.hexes if x < y]
    assert len(pairs) == len(b.hexes) * (len(b.hexes) - 1) // 2
    assert [p for p in pairs if set(_line(b, *p)) != set(_line(b, p[1], p[0]))] == []
    # and the cache gives the same line either way round (the first asked fills both)
    assert b.between((2, 3), (7, 9)) is b.between((7, 9), (2, 3))
    assert set(b.between((7, 9), (2, 3))) == set(_line(b, (7, 9), (2, 3)))


def test_naval_unit_moves_one_hex_against_the_wind_two_with_it(data):
    # Genpei pack, Naval Warfare: movement - "An ordered naval unit may always move 1 hex in any
    # direction ... may move 2 hexes if its entire movement is with the wind/tide."
    sc = scenario(data, terrain=SEA, naval=True, wind=["E"], units=[
        ("a", "ashigaru_spearmen", (5, 3), None), ("b", "samurai_infantry", (6, 10), None)])
    st = at_move(dealt(data, sc), 0)
    dests = {a[2] for a in st.legal_actions()}
    assert (7, 3) in dests            # E then E: with the wind, 2 hexes
    assert (4, 3) in dests            # W: against the wind, 1 hex
    assert (3, 3) not in dests        # W then W: never 2 hexes against it
    assert with_wind("SE", ["E"]) and not with_wind("NW", ["E"])
    assert naval_move_allowance("infantry_onslaught", all_with_wind=False) == 2
    assert naval_move_allowance("serpent_command", all_with_wind=True) == 1


def test_flags_that_cannot_be_ignored_hit_a_naval_unit(data):
    # Genpei pack: "Naval units never retreat in response to flags ... Any flags which cannot be
    # ignored are treated as hits."
    sc = scenario(data, terrain=SEA, naval=True, wind=["E"], units=[
        ("a", "ashigaru_spearmen", (5, 3), None), ("b", "ashigaru_spearmen", (6, 3), None)])
    st = at_battle(dealt(data, sc), 0)
    st.apply_action(("battle", 0, 1, "close", False))
    apply_outcome(st, roll(flags=2))
    assert st.units[1].figures == 2 and st.units[1].hex == (6, 3)


def test_stockade_falls_on_two_swords_and_its_occupant_loses_a_figure(data):
    # Genpei pack, Stockade: "If the attacking unit rolls 2 or more Swords, the Stockade tile is
    # destroyed ... Any unit on the Stockade hex ... loses 1 figure."
    sc = scenario(data, terrain=[{"terrain": "stockade", "hexes": [[6, 5]]}], units=[
        ("a", "samurai_infantry", (6, 6), None), ("b", "ashigaru_spearmen", (6, 5), None)])
    st = at_battle(dealt(data, sc), 0)
    assert ("destroy", 0, (6, 5), False) in st.legal_actions()
    st.apply_action(("destroy", 0, (6, 5), False))
    assert len(st.chance_outcomes()) > 1  # full 4 dice, not capped at 2
    apply_outcome(st, roll(swords=1))
    assert st.board.has((6, 5), "stockade") and st.units[1].figures == 4
    st = at_battle(dealt(data, sc), 0)
    st.apply_action(("destroy", 0, (6, 5), False))
    apply_outcome(st, roll(swords=2))
    assert not st.board.has((6, 5), "stockade") and st.units[1].figures == 3


def test_stockade_entry_stop_no_cavalry_caps_and_first_strike(data):
    # Genpei pack, Stockade: start adjacent to enter, stop, no cavalry; close combat into it max
    # 2 dice; the unit inside may battle first against an attack from outside (its choice).
    sc = scenario(data, terrain=[{"terrain": "stockade", "hexes": [[6, 5], [7, 5]]}], units=[
        ("a", "samurai_infantry", (6, 7), None), ("a", "samurai_cavalry", (5, 6), None),
        ("a", "samurai_infantry", (7, 6), None), ("b", "ashigaru_spearmen", (6, 5), None)])
    st = at_move(dealt(data, sc), 1)
    assert not any(a[2] in ((6, 5), (7, 5)) for a in st.legal_actions())  # cavalry never
    st = at_move(dealt(data, sc), 2)
    assert ("move", 2, (7, 5)) in st.legal_actions()  # started adjacent
    st = at_battle(dealt(data, sc), 2)
    setup = st.setup_for(st.units[2], st.units[3], "close", False)
    assert setup.dice == 2 and setup.sword_ignores == 1  # the Stockade's sword (no rank: triangle < square)
    st.apply_action(("battle", 2, 3, "close", False))
    assert st.current_player() == 1 and st.legal_actions() == [("react", None), ("react", "stockade")]
    st.apply_action(("react", "stockade"))
    # the defender's first-strike roll comes first: 3 dice of Ashigaru Spearmen capped at 2
    assert st.is_chance_node() and st.node[3] == "_h_roll" and st.node[4][:4] == (3, 2, "close", "first")
    assert st.node[4][-1].dice == 2
    apply_outcome(st, roll(flags=2))  # 1 flag ignored (red unit), 1 retreat: no attack follows
    # the retreating player picks the hex: the two hexes toward his own (south) edge
    assert st.current_player() == 0 and {a[2] for a in st.legal_actions()} == {(7, 7), (8, 7)}
    st.apply_action(("retreat", 2, (7, 7)))
    assert st.units[2].hex == (7, 7) and st.units[3].figures == 4
    assert not st.is_chance_node()


def test_palisade_only_across_covered_hexsides(data):
    # Genpei pack, Palisade: a unit on it ignores 1 sword and may ignore 1 flag for an attack
    # across a Palisade hexside; an adjacent ordered unit may destroy it; any sword does.
    sc = scenario(data, terrain=[{"terrain": "palisade", "hexes": [[6, 5]], "hexsides": ["SE"]}], units=[
        ("a", "samurai_infantry", (6, 6), None), ("a", "samurai_infantry", (5, 6), None),
        ("b", "ashigaru_spearmen", (6, 5), None)])
    st = at_battle(dealt(data, sc), 0)
    across = st.setup_for(st.units[0], st.units[2], "close", False)
    beside = st.setup_for(st.units[1], st.units[2], "close", False)
    assert (across.sword_ignores, across.flag_ignores) == (1, 1)
    assert (beside.sword_ignores, beside.flag_ignores) == (0, 0)
    assert ("destroy", 0, (6, 5), False) in st.legal_actions()
    assert not any(a[0] == "destroy" for a in at_battle(st, 1).legal_actions())
    st = at_battle(dealt(data, sc), 0)
    st.apply_action(("destroy", 0, (6, 5), False))
    apply_outcome(st, roll(swords=1))
    assert not st.board.has((6, 5), "palisade")


def test_arrow_tower_range_four_and_all_round_protection(data):
    # Genpei pack, Arrow Tower: archers fire normal dice at 4 hexes; on a Palisade it protects
    # through all 6 hexsides.
    sc = scenario(data, terrain=[{"terrain": "palisade", "hexes": [[6, 5]], "hexsides": ["SE"]},
                                 {"terrain": "arrow_tower", "hexes": [[6, 5]]}], units=[
        ("a", "ashigaru_archers", (6, 5), None), ("b", "ashigaru_spearmen", (6, 1), None),
        ("b", "samurai_infantry", (5, 4), None)])
    st = at_battle(dealt(data, sc), 0)
    assert st.board.distance((6, 5), (6, 1)) == 4
    setup = st.setup_for(st.units[2], st.units[0], "close", False)  # from the NW, not covered
    assert setup.sword_ignores >= 1
    del st.units[2], st.at[(5, 4)]
    st._legal = None
    assert ("battle", 0, 1, "ranged", False) in st.legal_actions()


def test_unit_entering_a_marsh_loses_a_figure_on_its_own_standard(data):
    # Genpei pack, Marsh: "A unit entering a Marsh hex ... must roll 1 die and loses 1 figure for
    # a matching standard symbol"; a lone leader dies on a sword. One face in six.
    assert marsh_entry_outcomes(data, "square") == [(True, 1 / 6), (False, 5 / 6)]
    assert marsh_entry_outcomes(data, None)[0][1] == 1 / 6
    sc = scenario(data, terrain=[{"terrain": "marsh", "hexes": [[6, 6]]}], units=[
        ("a", "samurai_cavalry", (6, 8), None), ("b", "samurai_infantry", (6, 1), None)])
    st = at_move(dealt(data, sc), 0)
    assert ("move", 0, (6, 6)) in st.legal_actions()
    assert (5, 5) not in {a[2] for a in st.legal_actions()}  # must stop in the marsh
    st.apply_action(("move", 0, (6, 6)))
    assert dict(st.chance_outcomes()) == {("marsh", True): 1 / 6, ("marsh", False): 5 / 6}
    st.apply_action(("marsh", True))
    assert st.units[0].figures == 3
    st.units[0].start_hex = (6, 6)
    st = at_move(st, 0)
    assert max(st.board.distance((6, 6), a[2]) for a in st.legal_actions()) == 1  # 1-hex exit


def test_embarking_armoured_unit_lies_flat_without_sword_resistance(data):
    # Genpei pack, embarking and disembarking: 1 hex, no battle, "While a unit is lying flat, it
    # receives neither rank or cavalry resistance to swords rolled in close combat."
    sc = scenario(data, terrain=SEA, naval=True, wind=["E"], units=[
        ("a", "samurai_infantry", (5, 6), None), ("b", "ashigaru_archers", (6, 4), None)])
    st = at_move(dealt(data, sc), 0)
    st.apply_action(("move", 0, (5, 5)))
    u = st.units[0]
    assert u.lying_flat and u.no_battle and st.board.is_naval(u.hex)
    assert st.setup_for(st.units[1], u, "close", False).sword_ignores == 0
    u.lying_flat = False
    assert st.setup_for(st.units[1], u, "close", False).sword_ignores == 2


def test_grapple_holds_both_units_and_a_sword_severs_it(data):
    # Genpei pack, Grappling: a sword may grapple instead of hitting; grappled units may not
    # move; a grappled unit may spend a sword to sever; GP20 supply ships give a temporary banner.
    rule = {"id": "supply_ships_temporary_banner", "summary": "s", "source": {"doc": "gunbai", "section": "t"}}
    sc = scenario(data, terrain=SEA, naval=True, wind=["E"], rules=[rule], units=[
        ("a", "samurai_infantry", (5, 3), None), ("b", "irregular_peasant_infantry", (6, 3), None, "supply ship")])
    st = at_battle(dealt(data, sc), 0)
    st.apply_action(("battle", 0, 1, "close", False))
    apply_outcome(st, roll(swords=1))
    assert st.legal_actions() == [("grapple", False), ("grapple", True)]
    st.apply_action(("grapple", True))
    assert frozenset((0, 1)) in st.grapples and st.units[1].figures == 4
    assert st.banners(0) == 1  # the temporary banner
    assert st._reach(st.units[0]) == {(5, 3): (0, "stay")}
    # peasants never hit on swords but may sever the grapple with one
    st.node = None
    st.steps.clear()
    st = at_battle(st, 1)
    st.apply_action(("battle", 1, 0, "close", False))
    apply_outcome(st, roll(swords=1))
    st.apply_action(("grapple", True))
    assert not st.grapples and st.banners(0) == 0


def test_naval_dice_shore_dice_and_dismounted_cavalry(data):
    # Naval units roll 1 die less; a land unit on a shore hex rolls 1 less in close combat against
    # a naval unit; mounted naval units get no cavalry resistance (Genpei pack, Naval Warfare).
    sc = scenario(data, terrain=SEA, naval=True, wind=["E"], units=[
        ("a", "samurai_infantry", (5, 6), None), ("b", "samurai_cavalry", (5, 5), None),
        ("b", "samurai_cavalry", (8, 8), None)])
    st = dealt(data, sc)
    land, ship, horse = st.units[0], st.units[1], st.units[2]
    assert st.setup_for(land, ship, "close", False).dice == 3
    assert st.setup_for(ship, land, "close", False).dice == 3
    assert st.setup_for(land, ship, "close", False).sword_ignores == 0  # dismounted at sea
    horse.hex = (5, 7)
    assert st.setup_for(land, horse, "close", False).sword_ignores == 1  # stature ashore


def test_land_units_do_not_retreat_onto_the_ocean(data):
    # Genpei pack: "Land units may not retreat onto adjacent ocean hexes"; a hex that cannot be
    # retreated costs a figure (engine abstraction of the C&C rule).
    sea = [{"terrain": "ocean", "rows": [{"row": r, "first": 1, "last": 12 - (r % 2 == 0)} for r in range(7, 12)]}]
    sc = scenario(data, terrain=sea, naval=True, wind=["E"], units=[
        ("a", "ashigaru_spearmen", (6, 6), None), ("b", "samurai_infantry", (6, 5), None)])
    st = at_battle(dealt(data, sc), 1)
    st.apply_action(("battle", 1, 0, "close", False))
    apply_outcome(st, roll(flags=1))
    assert st.units[0].hex == (6, 6) and st.units[0].figures == 3


def test_sohei_elimination_costs_two_hf_and_gives_a_banner(data):
    sc = scenario(data, units=[("a", "samurai_infantry", (6, 6), None), ("b", "sohei_warriors", (6, 5), None)])
    st = at_battle(dealt(data, sc), 0)
    st.units[1].figures = 1
    hf = st.sides[1].hf
    st.apply_action(("battle", 0, 1, "close", False))
    apply_outcome(st, roll(sym=1))
    assert 1 not in st.units and st.sides[0].banners == 1 and st.sides[1].hf == hf - 2


def test_reaching_the_banner_target_ends_the_game(data):
    sc = scenario(data, banners=1, units=[("a", "samurai_infantry", (6, 6), None), ("b", "ashigaru_archers", (6, 5), None),
                                          ("b", "ashigaru_archers", (1, 1), None)])
    st = at_battle(dealt(data, sc), 0)
    st.units[1].figures = 1
    st.apply_action(("battle", 0, 1, "close", False))
    apply_outcome(st, roll(sym=1))
    assert st.is_terminal() and st.winner() == 0 and st.returns() == [1.0, -1.0]


def test_unknown_stats_use_the_standard_base_with_a_note(data):
    s = resolve(data.units["bodyguard"])
    assert (s.figures, s.close, s.move, s.ignores_flags, s.retreat_hf) == (4, 4, 1, 1, 2)
    assert any("close_combat.dice unknown" in n for n in s.notes)


@pytest.mark.parametrize("code", ["GP19", "GP20"])
def test_shipped_scenarios_start_at_a_card_decision(data, code):
    sc = next(s.scenario for s in data.scenarios if s.scenario.code == code)
    st = dealt(data, sc)
    assert st.phase == "card" and all(len(s.hand) == c.command_cards for s, c in zip(st.sides, sc.sides, strict=True))
    assert all(a[0] == "card" for a in st.legal_actions())


def test_naval_leader_cut_off_at_sea_commits_seppuku(data):
    # Genpei pack, naval leaders: a leader retreats deck to deck only through friendly boats;
    # "If there are only open ocean hexes or enemy units ... the leader must commit seppuku"
    # (+5 H&F, a random Command card lost, no banner: ccn_faq_leaders).
    sc = scenario(data, terrain=SEA, naval=True, wind=["E"], units=[
        ("a", "samurai_infantry", (5, 3), None), ("b", "ashigaru_spearmen", (6, 3), "infantry_leader")])
    st = at_battle(dealt(data, sc), 0)
    st.units[1].figures = 1
    hf, hand = st.sides[1].hf, len(st.sides[1].hand)
    st.apply_action(("battle", 0, 1, "close", False))
    apply_outcome(st, roll(sym=1))
    # the leader casualty check with 1 die (erratum leader_casualty_check): he survives it
    assert dict(st.chance_outcomes()) == {("casualty", True): 1 / 6, ("casualty", False): 5 / 6}
    st.apply_action(("casualty", False))
    # open ocean behind him: seppuku, forced (no decision offered)
    assert st.sides[0].banners == 1 and st.sides[1].hf == hf + 5 and not st.leaders
    card = st.chance_outcomes()[0][0]
    assert card[0] == "lose_card"
    st.apply_action(card)
    assert len(st.sides[1].hand) == hand - 1
    # the opponent draws a free Dragon card (ccn_faq_retreats)
    dragons = len(st.sides[0].dragons)
    st.apply_action(st.chance_outcomes()[0][0])
    assert len(st.sides[0].dragons) == dragons + 1


def test_command_ship_lands_as_a_command_tent(data):
    # Genpei pack, command ship: it moves with naval movement; when commander and bodyguard
    # disembark the tile goes to the shore hex as an ordinary, fixed Command Tent.
    sc = scenario(data, terrain=SEA, naval=True, wind=["E"], units=[
        ("a", "bodyguard", (5, 5), "commander"), ("b", "samurai_infantry", (6, 9), None)],
        markers=[{"marker": "command_ship", "hex": [5, 5], "side": "a"}])
    st = at_move(dealt(data, sc), 0)
    st.apply_action(("move", 0, (5, 6)))
    assert st.markers[0][:2] == ["command_tent", (5, 6)]
