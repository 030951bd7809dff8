"""OHW Samurai search hooks (clone, determinize, information_key), the evaluation and the greedy
policy (issue 25)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from pipeline.play import SearchState, play_game, random_policy
from pipeline.systems.ohw.engine import OhwState, _Roll
from pipeline.systems.ohw.load import load
from pipeline.systems.ohw.policies import evaluate, greedy
from tests.playing import advance

DATA = Path(__file__).resolve().parents[2] / "source_data" / "ohw"


@pytest.fixture(scope="module")
def data():
    return load(DATA)


@pytest.mark.parametrize("scenario", [0, 1, 2])
def test_clone_is_independent_and_plays_the_same(data, scenario):
    st = advance(OhwState(data, data.scenarios[scenario].model), 120, random.Random(scenario))
    assert isinstance(st, SearchState)
    key = st.information_key(0)
    c = st.clone()
    assert c.information_key(0) == key == c.information_key(1)
    advance(c, 200, random.Random(9))
    assert st.information_key(0) == key  # the original did not move
    a, b = st.clone(), st.clone()
    advance(a, 150, random.Random(4))
    advance(b, 150, random.Random(4))
    assert a.information_key(1) == b.information_key(1)


def test_determinize_is_a_clone_and_draws_nothing(data):
    """Perfect information: every unit is in plain view and the only unknowns are future dice,
    chance nodes of the state. A determinization is a clone and leaves the generator alone."""
    st = advance(OhwState(data, data.scenarios[0].model), 60, random.Random(2))
    rng = random.Random(5)
    before = rng.getstate()
    d = st.determinize(1, rng)
    assert d is not st and d.information_key(1) == st.information_key(1) and rng.getstate() == before


def test_evaluate_is_bounded_antisymmetric_and_exact_at_the_end(data):
    rng = random.Random(3)
    for sc in data.scenarios:
        st = OhwState(data, sc.model)
        while not st.is_terminal():
            v = evaluate(st, 0)
            assert -0.99 <= v <= 0.99 and v == pytest.approx(-evaluate(st, 1))
            advance(st, 1, rng)
        w = st.winner()
        assert evaluate(st, 0) == (0.0 if w is None else (1.0 if w == 0 else -1.0))


def test_evaluate_counts_hits_a_pending_reroll_decision_would_apply(data):
    """A shot rolled and waiting on the General's re-roll counts as applied: an Ashigaru rolling
    6 at a unit in the open gives 6 hits."""
    st = OhwState(data, data.scenarios[0].model)
    for u in st.units.values():
        u.on_table = True
    base = evaluate(st, 1)
    st.roll = _Roll("shoot", "blue_2", "red_3", 6)
    assert st.pending_hits() == ("red_3", 6)
    assert evaluate(st, 1) > base


def test_greedy_finishes_off_the_damaged_target(data):
    """An Ashigaru with two targets in range and arc, both in the open: one fresh, one on 14 hits.
    Any roll (D6, 1-6 hits) eliminates the damaged one (15 hits), worth more than 3.5 hits on
    average to the fresh one: greedy shoots the damaged one."""
    st = OhwState(data, data.scenarios[0].model)
    for u in st.units.values():
        u.on_table = u.id in ("blue_2", "red_3", "red_4")
    st.units["blue_2"].base = st.units["blue_2"].base.placed(18, 30, 0)
    st.units["red_3"].base = st.units["red_3"].base.placed(14, 22, 180)
    st.units["red_4"].base = st.units["red_4"].base.placed(22, 22, 180)
    st.units["red_4"].hits = 14
    st.player_turn = st.order.index(1)  # Blue's turn
    st.phase, st.queue, st.roll = "shooting", ["blue_2"], None
    assert sorted(st.legal_actions()) == [("shoot", "red_3"), ("shoot", "red_4")]
    assert greedy(st, random.Random(1)) == ("shoot", "red_4")


def test_greedy_beats_random_taking_the_high_ground(data):
    """OHW4 (Take the High Ground), seeded: greedy Red, outnumbered on the hill at first, wins
    more games against random Blue than random Red does (the figures with 95% intervals over 100
    games a side are in the README)."""
    sc = data.scenarios[0].model
    greedy_red = [play_game(lambda: OhwState(data, sc), [greedy, random_policy], random.Random(f"t:{i}"), 31).winner for i in range(8)]
    random_red = [play_game(lambda: OhwState(data, sc), random_policy, random.Random(f"t:{i}"), 31).winner for i in range(8)]
    assert greedy_red.count(0) >= random_red.count(0) + 4
