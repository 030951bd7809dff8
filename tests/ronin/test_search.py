"""Ronin's search hooks (issue 25): clone, determinize and information_key of RoninState, for
the hidden choices of the rules: the Attack and Defence counters drawn in secret (p.18) and the
Tournament's secret order (p.64)."""

from __future__ import annotations

import random

from pipeline.play import random_policy, sample_chance
from pipeline.play.protocol import SearchState
from pipeline.systems.ronin.engine.search import HIDDEN

from .test_engine import _game


def _play_until(st, rng, stop):
    """Play ``st`` at random until ``stop(st)`` holds at a decision; return False if the game
    ended first."""
    while not st.is_terminal():
        if st.is_chance_node():
            st.apply_action(sample_chance(st.chance_outcomes(), rng))
            continue
        if stop(st):
            return True
        st.apply_action(random_policy(st, rng))
    return False


def _first_counters(st) -> bool:
    kind, player, mid = st.steps[0]
    return kind == "counters" and player == 0 and st.pool(st.models[mid]) >= 1


def _second_player_counters(st) -> bool:
    return st.steps[0][0] == "counters" and st.steps[0][1] == 1


def _counter_pair(data, seed: str):
    """Two Skirmish states that differ only in the first player's secret split of one model's
    Combat Pool (all Attack counters, or all Defence), the second player now choosing his."""
    st = _game(data, "skirmish").new_state()
    rng = random.Random(seed)
    assert _play_until(st, rng, _first_counters)
    mid = st.steps[0][2]
    a, b = st.clone(), st.clone()
    a.apply_action(("counters", 0))
    b.apply_action(("counters", st.pool(st.models[mid])))
    follow = random.Random(seed + "follow")
    while not _second_player_counters(a):  # the same choices for the first player's other models
        assert not a.is_chance_node() and a.steps[0][1] == 0
        act = random_policy(a, follow)
        a.apply_action(act)
        b.apply_action(act)
    assert _second_player_counters(b)
    return a, b, mid


def test_ronin_state_is_a_search_state_and_clones_are_independent(data):
    st = _game(data, "skirmish").new_state()
    assert isinstance(st, SearchState)
    rng = random.Random("clone")
    for _ in range(200):
        if st.is_terminal():
            break
        c = st.clone()
        before = st.state_key()
        assert c.state_key() == before
        act = sample_chance(st.chance_outcomes(), rng) if st.is_chance_node() else random_policy(st, rng)
        c.apply_action(act)
        assert st.state_key() == before  # the original is untouched
        st.apply_action(act)
        assert c.state_key() == st.state_key()


def test_counters_are_hidden_until_revealed(data):
    """p.18: "Players secretly draw counters ... Each player then reveals his Combat Pool": the
    second player, choosing, does not see the first player's split; after the reveal he does."""
    a, b, mid = _counter_pair(data, "s1")
    assert a.state_key() != b.state_key()
    assert a.information_key(1) == b.information_key(1)  # one information set for the second player
    assert a.information_key(0) != b.information_key(0)  # the first player knows what he drew
    for seed in range(5):
        da, db = a.determinize(1, random.Random(seed)), b.determinize(1, random.Random(seed))
        assert da.state_key() == db.state_key()  # equal determinizations
        assert da.information_key(1) == a.information_key(1)  # everything he sees is kept
        k = da.combat.attack[mid]
        assert 0 <= k <= da.pool(da.models[mid])
        assert da.combat.attack[mid] + da.combat.defence[mid] == da.pool(da.models[mid]) + ("intuition" in da.models[mid].p.attributes)
    drawn = {a.determinize(1, random.Random(s)).combat.attack[mid] for s in range(40)}
    assert len(drawn) > 1  # drawn anew, not read from the state
    # the second player's own choice is his to see: determinizing for the first player keeps it
    assert a.determinize(0, random.Random(1)).state_key() == a.state_key()
    # once revealed, nothing is hidden any more
    rng = random.Random("reveal")
    while not a.combat.revealed:
        a.apply_action(sample_chance(a.chance_outcomes(), rng) if a.is_chance_node() else random_policy(a, rng))
    assert HIDDEN not in str(a.information_key(1))
    assert a.determinize(1, random.Random(3)).state_key() == a.state_key()


def test_the_tournament_order_is_secret_until_each_match(data):
    """p.64: "Each player secretly records the order in which his models will fight": the
    engine asks the first player, then the second, who does not see the first one's order; a
    match reveals its pair."""
    g = _game(data, "tournament")
    st = g.new_state()
    assert st.current_player() == 0 and st.steps[0][0] == "order"
    n = len(st.buntai(0))
    a, b = st.clone(), st.clone()
    ids = [m.id for m in st.buntai(0)]
    for i in ids:
        a.apply_action(("order", i))
    for i in reversed(ids):
        b.apply_action(("order", i))
    assert a.current_player() == 1 and a.order[0] != b.order[0]
    assert a.information_key(1) == b.information_key(1)
    assert a.information_key(0) != b.information_key(0)
    da, db = a.determinize(1, random.Random(7)), b.determinize(1, random.Random(7))
    assert da.state_key() == db.state_key() and sorted(da.order[0]) == sorted(ids) and len(da.order[0]) == n
    # the first match reveals the first model of each order
    rng = random.Random("t")
    assert _play_until(a, rng, lambda s: s.match is not None and s.current_player() >= 0)
    first = a.order[0][0]
    assert a.match[0] == first
    d = a.determinize(1, random.Random(1))
    assert d.order[0][0] == first and d.information_key(1) == a.information_key(1)


def test_ismcts_decides_the_same_whatever_the_opponent_drew_in_secret(data):
    """The shipped ISMCTS reads only the second player's information set: the two states of
    :func:`_counter_pair` (the first player's counters all Attack, or all Defence) give the
    second player the same decision for the same seed, and the same search statistics."""
    from pipeline.systems.ronin.policies import ismcts

    for seed in ("s1", "s3"):  # two games that reach a split of counters (s2 ends first)
        a, b, _mid = _counter_pair(data, seed)
        assert a.state_key() != b.state_key() and len(a.legal_actions()) > 1
        for k in range(3):
            assert ismcts(a, random.Random(k)) == ismcts(b, random.Random(k))
            ta, tb = ismcts.tree(a, random.Random(k)), ismcts.tree(b, random.Random(k))
            assert {key: (c.visits, round(c.total, 9)) for key, c in ta.children.items()} == \
                   {key: (c.visits, round(c.total, 9)) for key, c in tb.children.items()}
