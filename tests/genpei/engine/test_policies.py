"""The greedy policy's cached attack values equal the attack values worked out from scratch.

The policy keys its scenario-wide cache of attack values by what the roll depends on (after-move
dice instead of "moved", "beyond a long shot's range" instead of the distance), so that attacks
rolling alike share one entry; a key that merged two attacks rolling differently would hand one
the other's value. Here every destination of every unit moved in seeded greedy games is scored
by :func:`policies._best_from` (through the shared cache, filled by those games) and by a
reference that computes each attack directly with ``combat.close_setup``/``ranged_setup`` and
``odds.kill_odds``, as the module docstring describes the score.
"""

from __future__ import annotations

import random

from pipeline.play.protocol import sample_chance
from pipeline.systems.genpei import odds
from pipeline.systems.genpei.engine import policies
from pipeline.systems.genpei.engine.combat import Fighter, close_setup, max_range, ranged_setup
from pipeline.systems.genpei.engine.state import LEADER_BASE, GenpeiState

from .conftest import dealt, scenario


def _reference_best(state: GenpeiState, u, h) -> float:
    """Best attack value of ``u`` standing on ``h``: close combat at the adjacent enemy units,
    or when there is none and ``u`` may fire, ranged combat at the enemy units within its range
    from ``h``; never inspired; 0 when nothing is open."""
    b = state.board
    moved = h != u.start_hex
    enemies = [o for o in state.units.values() if o.side != u.side]

    def value(kind: str, o, d: int) -> float:
        fa = Fighter(u.type, b.terrain(h), naval=b.is_naval(h), moved=moved, leader=u.leader)
        fd = state.fighter(o)
        covered = b.covered(o.hex, h)
        if kind == "close":
            setup = close_setup(fa, fd, covered=covered, bonus_dice=u.bonus_close)
        else:
            setup = ranged_setup(fa, fd, d, covered=covered, bonus_dice=u.bonus_ranged)
        if setup.dice <= 0:
            return 0.0
        p_kill, e_hits = odds.kill_odds(state.data, setup, o.figures)
        return p_kill + policies.HIT_WEIGHT * e_hits

    close = [o for o in enemies if b.distance(h, o.hex) == 1]
    if close:
        return max([0.0] + [value("close", o, 1) for o in close])
    if u.stats.ranged <= 0 or u.no_ranged:
        return 0.0
    r = max_range(Fighter(u.type, b.terrain(h), naval=b.is_naval(h)))
    lo = u.stats.min_range
    return max([0.0] + [value("ranged", o, b.distance(h, o.hex)) for o in enemies if lo <= b.distance(h, o.hex) <= r])


def test_greedy_attack_values_equal_the_values_computed_from_scratch(data):
    checked = 0
    for sc in (s.scenario for s in data.scenarios if s.scenario.code in ("GP19", "GP20")):
        for game in range(3):
            rng = random.Random(f"3:{game}")
            st = GenpeiState(data, sc)
            while not st.is_terminal() and st.turn_count() <= 30:
                if st.is_chance_node():
                    st.apply_action(sample_chance(st.chance_outcomes(), rng))
                    continue
                acts = st.legal_actions()
                if st.phase == "move" and st.node is None and acts[0][1] < LEADER_BASE:
                    u = st.units[acts[0][1]]
                    for a in acts:
                        assert policies._best_from(st, u, a[2], {}) == _reference_best(st, u, a[2]), (sc.code, game, a)
                        checked += 1
                st.apply_action(policies.greedy_policy(st, rng))
    assert checked > 500


def test_a_long_shot_beyond_the_range_is_not_valued_as_one_within_it(data):
    """Arquebusiers fire 3 hexes with 2 dice and 4 with 1 die (rule long_shot): the value at 4
    hexes, asked after the one at 3 is in the scenario's cache, is the 1-die value."""
    src = (5, 5)
    st = dealt(data, scenario(data, units=[("a", "ashigaru_arquebusiers", src, None), ("b", "samurai_infantry", (5, 1), None)]))
    u = next(x for x in st.units.values() if x.side == 0)
    o = next(x for x in st.units.values() if x.side == 1)
    row = st.board.dist[u.hex]
    got = []
    for d in (3, 4):  # the enemy stands 3, then 4 hexes away, on open ground
        target = min(h for h, x in row.items() if x == d and not st.board.terrain(h) and h not in st.at)
        del st.at[o.hex]
        o.hex = o.start_hex = target
        st.at[target] = o.uid
        v = policies._best_from(st, u, u.hex, {})
        assert v == _reference_best(st, u, u.hex)
        got.append(v)
    assert 0.0 < got[1] < got[0]
