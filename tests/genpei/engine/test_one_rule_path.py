"""One rule path: ``gunbai odds`` (:func:`pipeline.systems.genpei.odds.matchup`) and the engine
roll the same dice. For random matchups, terrains, leaders and movement the chance outcomes the
engine offers for a declared battle equal ``odds.chance_list`` of the odds command's set-up."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.systems.genpei import odds

from .conftest import at_battle, dealt, scenario

LAND = ["forest", "hill", "ford", "bridge", "village", "fields", "ravine", "palisade", "stockade", "arrow_tower", "marsh", None]
SEA = [{"terrain": "ocean", "rows": [{"row": r, "first": 1, "last": 12 - (r % 2 == 0)} for r in range(1, 8)]}]
ALL_SIDES = ["NE", "E", "SE", "SW", "W", "NW"]


def _tiles(tid, hex_):
    if tid is None:
        return []
    if tid == "arrow_tower":
        return [{"terrain": "stockade", "hexes": [list(hex_)]}, {"terrain": "arrow_tower", "hexes": [list(hex_)]}]
    t = {"terrain": tid, "hexes": [list(hex_)]}
    if tid == "palisade":
        t["hexsides"] = ALL_SIDES
    return [t]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(att=st.sampled_from(["samurai_infantry", "samurai_cavalry", "samurai_archers", "mounted_samurai_archers", "ashigaru_spearmen",
                            "ashigaru_archers", "ashigaru_arquebusiers", "irregular_peasant_infantry", "sohei_warriors", "sohei_archers", "bodyguard"]),
       dfn=st.sampled_from(["samurai_infantry", "samurai_cavalry", "ashigaru_spearmen", "ashigaru_archers", "sohei_warriors", "irregular_peasant_infantry"]),
       att_tile=st.sampled_from(LAND), dfn_tile=st.sampled_from(LAND), leader=st.booleans(), moved=st.booleans(),
       ranged=st.booleans(), at_sea=st.booleans())
def test_engine_rolls_the_dice_odds_computes(data, att, dfn, att_tile, dfn_tile, leader, moved, ranged, at_sea):
    au = data.units[att]
    ranged = ranged and au.ranged is not None
    if at_sea:
        att_tile = dfn_tile = None
    a_hex, d_hex = (6, 7), ((6, 5) if ranged else (6, 6))
    ldr = ("cavalry_leader" if au.mounted else "infantry_leader") if leader else None
    terrain = (SEA if at_sea else []) + ([] if at_sea else _tiles(att_tile, a_hex) + _tiles(dfn_tile, d_hex))
    sc = scenario(data, terrain=terrain, naval=at_sea, wind=["E"] if at_sea else None,
                  units=[("a", att, a_hex, ldr), ("b", dfn, d_hex, None)])
    state = at_battle(dealt(data, sc), 0, moved=moved)
    kind = "ranged" if ranged else "close"
    setup = odds.matchup(data, att, dfn, terrain=dfn_tile, attacker_terrain=att_tile, leader=leader, ranged=ranged,
                         moved=moved, at_sea=at_sea)
    action = ("battle", 0, 1, kind, leader)
    if action not in state.legal_actions():
        # the engine forbids this battle (no dice, no line of sight, no inspiration here): odds
        # must then agree that the roll has no dice or no inspiration
        assert setup.dice == 0 or (leader and not setup.inspired) or ranged
        return
    state.apply_action(action)
    if not state.is_chance_node() and ("react", "stockade") in state.legal_actions():
        state.apply_action(("react", "stockade"))  # the defender in a Stockade chooses to battle first
    if state.node[4][3] == "first":  # a Stockade battles first: roll nothing, then the attack
        state.apply_action(("roll", 0, 0, 0, 0))
    if setup.dice == 0:
        assert not state.is_chance_node() or state.node[3] != "_h_roll"
        return
    assert state.node[3] == "_h_roll" and state.node[4][:2] == (0, 1)
    assert state.chance_outcomes() == odds.chance_list(data, setup)
