"""The greedy policy's cached attack values equal the attack values worked out from scratch.

The policy keys its scenario-wide cache of attack values by what the roll depends on (after-move
dice instead of "moved", "beyond a long shot's range" instead of the distance), so that attacks
rolling alike share one entry; a key that merged two attacks rolling differently would hand one
the other's value. Here every destination of every unit moved in seeded greedy games is scored
by :func:`policies._best_from` (through the shared cache, filled by those games) and by a
reference that computes each attack directly with ``combat.close_setup``/``ranged_setup`` and
``odds.kill_odds``, as the module docstring describes the score. The other scenario-wide
tables of the policy (the attack rolls kept apart from the target's figures, the hexes' distance
rows, the rolls' hits per outcome behind ``kill_odds``) are each checked against the same facts
worked out from scratch.
"""

from __future__ import annotations

import random

from pipeline.play.protocol import sample_chance
from pipeline.systems.genpei import odds
from pipeline.systems.genpei.engine import policies
from pipeline.systems.genpei.engine.combat import (
    Fighter,
    close_setup,
    max_range,
    ranged_setup,
    score,
)
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


def _moves_of_seeded_games(data, code: str, games: int, cap: int = 30):
    """``(state, unit, destination hexes)`` of every unit moved in ``games`` seeded greedy games
    of scenario ``code`` (each state a clone taken before the move)."""
    sc = next(s.scenario for s in data.scenarios if s.scenario.code == code)
    out = []
    for game in range(games):
        rng = random.Random(f"7:{game}")
        st = GenpeiState(data, sc)
        while not st.is_terminal() and st.turn_count() <= cap:
            if st.is_chance_node():
                st.apply_action(sample_chance(st.chance_outcomes(), rng))
                continue
            acts = st.legal_actions()
            if st.phase == "move" and st.node is None and acts[0][1] < LEADER_BASE:
                out.append((st.clone(), acts[0][1], [a[2] for a in acts]))
            st.apply_action(policies.greedy_policy(st, rng))
    return out


def test_attack_values_made_again_from_the_cached_rolls_equal_the_values_from_scratch(data):
    """The attack values are emptied after seeded games filled both scenario tables, so that
    each value is made again from the roll kept in ``greedy_setups`` (keyed without the
    target's figures, shared by attacks on the same unit type with other figures); each equals
    the reference. Some rolls must serve a target with other figures than the one they were
    made for, or the test would not exercise the sharing."""
    checked = 0
    for code in ("GP19", "GP20"):
        moves = _moves_of_seeded_games(data, code, 3)
        b = moves[0][0].board
        policies._values(b).clear()
        figures_seen: dict[tuple, set] = {}
        for st, uid, dests in moves:
            u = st.units[uid]
            for h in dests:
                assert policies._best_from(st, u, h, {}) == _reference_best(st, u, h), (code, uid, h)
                checked += 1
        for akey, row in policies._values(b).items():
            for t in row:
                desc = next(d for d, n in policies._target_ids(b).items() if n == t & ~3)
                figures_seen.setdefault(akey + desc[:4] + (bool(t & 2), bool(t & 1)), set()).add(desc[4])
        assert set(figures_seen) <= set(policies._setups(b))
        assert any(len(f) > 1 for f in figures_seen.values()), code
    assert checked > 300


def test_hex_rows_give_the_board_distances(data):
    sc = next(s.scenario for s in data.scenarios if s.scenario.code == "GP20")
    b = GenpeiState(data, sc).board
    num, rows = policies._hex_rows(b)
    assert sorted(num.values()) == list(range(len(b.dist)))
    for h, row in b.dist.items():
        for x, d in row.items():
            assert rows[num[h]][num[x]] == d == b.distance(h, x)


def test_nearest_enemy_equals_the_distance_to_the_closest_enemy_unit(data):
    checked = 0
    for st, uid, dests in _moves_of_seeded_games(data, "GP19", 2, cap=12):
        side = st.units[uid].side
        cache: dict = {}
        for h in dests:
            want = min(st.board.distance(h, o.hex) for o in st.units.values() if o.side != side)
            assert policies._nearest_enemy(st, side, h, cache) == want
            checked += 1
    assert checked > 100


def test_kill_odds_equal_the_roll_scored_outcome_by_outcome(data):
    """``odds.kill_odds`` reads each roll's hits per outcome from a table made once per roll
    (``odds._hits_list``); its figures must be the exact floats that scoring every raw outcome
    of the roll again gives, summed in the same order."""
    from pipeline.systems.genpei.odds import matchup, roll_outcomes

    checked = 0
    for att in ("samurai_infantry", "ashigaru_archers", "samurai_cavalry", "sohei_warriors", "samurai_archers"):
        for dfn in ("ashigaru_spearmen", "samurai_infantry", "samurai_cavalry"):
            for kw in ({}, {"ranged": True}, {"leader": True}, {"moved": True}, {"flat": True}):
                if kw.get("ranged") and not att.endswith("archers"):
                    continue
                setup = matchup(data, att, dfn, **kw)
                if setup.dice <= 0:
                    continue
                outcomes = roll_outcomes(data, setup)
                for figures in (1, 2, 3, 4):
                    p_kill = e_hits = 0.0
                    for (sym, swords, flags, _hf), p in outcomes:
                        hits, _ = score(setup, sym, swords, flags)
                        e_hits += float(p) * min(hits, figures)
                        if hits >= figures:
                            p_kill += float(p)
                    assert odds.kill_odds(data, setup, figures) == (p_kill, e_hits), (att, dfn, kw, figures)
                    checked += 1
    assert checked > 100


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
