"""The strength ladder (pipeline.play.ladder) on Nim, whose win probabilities are worked by hand."""

from __future__ import annotations

import functools

import pytest

from pipeline.play.ladder import MARGIN, newcombe, run_ladder
from pipeline.play.protocol import random_policy

from .games import Nim, perfect_nim

# Nim from 10 stones (take 1 or 2, who takes the last wins). Random against random: the player to
# move from n wins with probability r(n) = mean over k of 1 - r(n - k), r(0) = 0, which gives
# r(10) = 253/512 = 0.494 for side 0 (0.506 for side 1). Perfect play wins from 10 always on side
# 0 (10 is not a multiple of 3); on side 1 it wins unless random play leaves multiples of 3 all
# the way, which works out to 15/16 = 0.9375.
FACTORY = functools.partial(Nim, 10)


def test_perfect_play_is_proven_stronger_than_random():
    lad = run_ladder(FACTORY, [("random", random_policy), ("perfect", perfect_nim)], 200, seed=1, turn_cap=50,
                     side_names=("first", "second"), label="nim 10", baseline_games=300)
    (pair,) = lad.pairs
    first, second = pair.sides
    assert (first.games, first.wins, first.win_rate) == (200, 200, 1.0)
    assert abs(first.baseline_rate - 253 / 512) < 0.1 and abs(second.baseline_rate - 259 / 512) < 0.1
    assert abs(second.win_rate - 15 / 16) < 0.06
    assert first.baseline_games == 300 and first.baseline_wins + second.baseline_wins == 300  # Nim has no draw
    for s in pair.sides:
        assert s.difference == pytest.approx(s.win_rate - s.baseline_rate)
        assert s.interval == newcombe(s.wins, s.games, s.baseline_wins, s.baseline_games)
        assert s.difference >= MARGIN and s.interval[0] > 0 and s.stronger
    assert pair.proven and lad.strongest == "perfect"
    text = "\n".join(lad.lines())
    assert "perfect over random: stronger" in text and "first (side 0): perfect won 200/200 = 100.0%" in text
    assert len(lad.markdown()) == 2 and lad.markdown()[0].startswith("| nim 10 | perfect > random | first | 200 / 300 | 100% |")


def test_a_policy_is_not_proven_stronger_than_itself():
    # the same policy under two names: the difference is noise, its interval holds 0
    lad = run_ladder(FACTORY, [("random", random_policy), ("random again", random_policy)], 100, seed=2, turn_cap=50)
    (pair,) = lad.pairs
    assert not pair.proven and lad.strongest == "random"
    assert all(s.interval[0] <= 0 <= s.interval[1] for s in pair.sides)


def test_same_seed_same_ladder_on_two_workers():
    ladder = [("random", random_policy), ("perfect", perfect_nim)]
    one = run_ladder(FACTORY, ladder, [30], seed=3, turn_cap=50)
    two = run_ladder(FACTORY, ladder, [30], seed=3, turn_cap=50, workers=2, chunk=7)
    assert one.pairs[0].sides == two.pairs[0].sides


@pytest.mark.parametrize(("ladder", "games"), [([("random", random_policy)], 10),
                                               ([("a", random_policy), ("a", perfect_nim)], 10),
                                               ([("a", random_policy), ("b", perfect_nim)], 0),
                                               ([("a", random_policy), ("b", perfect_nim)], [5, 5])])
def test_bad_ladders_are_refused(ladder, games):
    with pytest.raises(ValueError, match="ladder"):
        run_ladder(FACTORY, ladder, games, seed=1, turn_cap=50)


@pytest.mark.parametrize("baseline", [0, [5, 5]])
def test_bad_baseline_counts_are_refused(baseline):
    with pytest.raises(ValueError, match="baseline"):
        run_ladder(FACTORY, [("a", random_policy), ("b", perfect_nim)], 5, seed=1, turn_cap=50, baseline_games=baseline)


def test_newcombe_bad_counts():
    with pytest.raises(ValueError, match="newcombe"):
        newcombe(3, 0, 1, 5)
    with pytest.raises(ValueError, match="newcombe"):
        newcombe(6, 5, 1, 5)
