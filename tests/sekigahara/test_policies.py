"""Sekigahara search hooks (clone, determinize, information_key), the evaluation and the greedy
policy (issue 25)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from pipeline.play import SearchState
from pipeline.systems.sekigahara.engine import EAST, WEST, Engagement, SekiState
from pipeline.systems.sekigahara.load import load
from pipeline.systems.sekigahara.policies import evaluate, greedy
from tests.playing import advance

DATA = Path(__file__).resolve().parents[2] / "source_data" / "sekigahara"


@pytest.fixture(scope="module")
def data():
    return load(DATA)


def test_clone_is_independent_and_plays_the_same(data):
    st = advance(SekiState(data, data.scenarios[0].model), 150, random.Random(1))
    assert isinstance(st, SearchState)
    key = st.information_key(0)
    c = st.clone()
    assert c.information_key(1) == key
    advance(c, 300, random.Random(7))
    assert st.information_key(0) == key
    a, b = st.clone(), st.clone()
    advance(a, 200, random.Random(3))
    advance(b, 200, random.Random(3))
    assert a.information_key(0) == b.information_key(0)


def test_determinize_is_a_clone_and_draws_nothing(data):
    """Nothing is hidden: Kobayakawa's choice is a die roll to come (a chance node), undecided
    for both players alike."""
    st = advance(SekiState(data, data.scenarios[0].model), 40, random.Random(2))
    rng = random.Random(5)
    before = rng.getstate()
    assert st.determinize(0, rng).information_key(0) == st.information_key(0) and rng.getstate() == before


def test_evaluate_is_bounded_antisymmetric_and_exact_at_the_end(data):
    rng = random.Random(4)
    st = SekiState(data, data.scenarios[0].model)
    while not st.is_terminal():
        v = evaluate(st, EAST)
        assert -0.99 <= v <= 0.99 and v == pytest.approx(-evaluate(st, WEST))
        advance(st, 1, rng)
    w = st.winner()
    assert evaluate(st, EAST) == (0.0 if w is None else (1.0 if w == EAST else -1.0))


def test_evaluate_counts_stands_removed_and_the_commander_in_melee(data):
    """gunbai's victory: more enemy stands removed wins, a commander lost loses. Two West stands
    removed put East ahead; Ieyasu's own unit in melee (a 6 kills him whenever it loses bases)
    costs East."""
    st = SekiState(data, data.scenarios[0].model)
    start = evaluate(st, EAST)
    st.units["otani"].stands = 0
    st.units["otani"].alive = False
    ahead = evaluate(st, EAST)
    assert ahead > start
    st.engagements = [Engagement("ieyasu", "ukita", False)]
    assert evaluate(st, EAST) < ahead


def test_greedy_takes_the_favourable_charge(data):
    """Ii's cavalry (2 stands, 4+ to hit; its leader one more base) 3" from the Konishi
    arquebusiers (2 stands; anyone hits missile troops on 4+, they hit on 6): charging expects
    1.5 hits for 1/3 back. Greedy charges."""
    st = SekiState(data, data.scenarios[0].model)
    for u in st.units.values():
        u.alive = u.id in ("ii", "konishi")
    for ld in st.leaders.values():
        ld.alive = ld.unit in ("ii",)
    st.units["ii"].base = st.units["ii"].base.placed(30, 20, 270)
    st.units["konishi"].base = st.units["konishi"].base.placed(26.5, 20, 90)
    st.steps, st.pending = [("charge", EAST, "ii"), ("end_turn", -1, None)], None
    assert st.legal_actions() == [("no_charge",), ("charge", "konishi")]
    assert greedy(st, random.Random(0)) == ("charge", "konishi")
