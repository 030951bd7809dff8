"""Ronin's evaluation and greedy player (issue 25): the evaluation's range and symmetry, its
reading only what a player sees, worked values, and greedy play beating random play."""

from __future__ import annotations

import math
import pickle
import random

from pipeline.play import play_game, random_policy
from pipeline.systems.ronin.engine import turn_cap
from pipeline.systems.ronin.policies import POLICIES, SCALE, evaluate, greedy, one_ply

from .test_engine import _game, _only, _state
from .test_search import _counter_pair


def test_evaluation_is_zero_sum_bounded_and_one_at_the_end(data):
    for lg in data.games:
        st = _game(data, lg.value.id).new_state()
        rng = random.Random(lg.value.id)
        for _ in range(300):
            if st.is_terminal():
                break
            v = evaluate(st, 0)
            assert -1 <= v <= 1 and math.isclose(v, -evaluate(st, 1), abs_tol=1e-12), lg.value.id
            st.apply_action(random.choice([o for o, _p in st.chance_outcomes()]) if st.is_chance_node() else random_policy(st, rng))
    st = _state(data, "assassination")
    d = next(i for i, s in enumerate(st.sides) if s.plan.role == "Defender")
    st._kill(3, st._leader(d))
    assert st.is_terminal() and evaluate(st, 1 - d) == 1.0 and evaluate(st, d) == -1.0


def test_evaluation_worked_by_hand(data):
    """The Skirmish with no Minor Objective, two models in opposite corners (32 inches apart base
    edge to base edge, beyond a move's reach and the pull's 24 inches; neither shoots): the
    margin is the Victory Points and the wounds. The Sohei (Rank 3) killed: 3 points to the
    Bushi; the Samurai (Rank 3) with a Light wound: 0.3 x 3 to the Sohei; tanh((3 - 0.9) / 8)."""
    st = _state(data)
    st.sides[0].minor = st.sides[1].minor = None
    _only(st, "red5", "blue5", "blue2")
    samurai, sohei = st.models["red5"], st.models["blue5"]
    samurai.x, samurai.y = 0.5, 0.5
    st.models["blue2"].x, st.models["blue2"].y = 23.5, 23.5
    sohei.x, sohei.y = 23.5, 22
    assert evaluate(st, 0) == 0.0  # nothing yet
    st._kill(3, sohei)
    samurai.wound = "light"
    assert math.isclose(evaluate(st, 0), math.tanh((3 - 0.3 * 3) / SCALE))


def test_the_evaluation_and_greedy_read_nothing_hidden(data):
    """Two states the second player cannot tell apart (the first player's secret counters differ)
    get the same evaluation for him and the same greedy decision from equally seeded play."""
    a, b, _mid = _counter_pair(data, "s1")
    assert a.information_key(1) == b.information_key(1) and a.state_key() != b.state_key()
    assert evaluate(a, 1) == evaluate(b, 1)
    for seed in range(5):
        assert greedy(a, random.Random(seed)) == greedy(b, random.Random(seed))
        assert one_ply(a, random.Random(seed)) == one_ply(b, random.Random(seed))


def test_greedy_is_legal_repeatable_and_picklable():
    assert pickle.loads(pickle.dumps(greedy)) == greedy  # worker processes receive it
    assert list(POLICIES) == ["random", "one_ply", "greedy", "ismcts"]


def test_greedy_never_passes_the_move_phase_while_it_can_act(data):
    """``("pass",)`` holds every model not yet activated; the greedy player holds one at a
    time, so the others still act."""
    st = _state(data)
    st.phase, st.turn = "move", 1
    st.queue, st.sides[0].done, st.sides[1].done = [["red1", "red2"], []], False, True
    st.steps = [("next_activation", -1, 0)]
    st._run()
    assert st.current_player() == 0 and ("pass",) in st.legal_actions()
    assert all(greedy(st, random.Random(s)) != ("pass",) for s in range(20))


def test_greedy_beats_random_play_in_the_duel(data):
    """Seeded games: the greedy player wins the Duel most of the time on either side, where
    random play against random play wins it 4 times in 10 or fewer (README)."""
    g = _game(data, "duel")
    for side in (0, 1):
        pols = [random_policy, random_policy]
        pols[side] = greedy
        res = [play_game(g.new_state, pols, random.Random(f"duel:{side}:{i}"), turn_cap(g)) for i in range(20)]
        assert sum(r.winner == side for r in res) >= 14, side
