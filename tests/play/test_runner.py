"""The game-agnostic runner on a toy game: protocol, turn cap, Wilson interval, determinism."""

from __future__ import annotations

import random

import pytest

from pipeline.play import (
    GameState,
    play_game,
    random_policy,
    run_playability,
    sample_chance,
    wilson,
)
from pipeline.play.runner import RuleBug


class Race:
    """Two players alternate; on his turn a player rolls a die (chance) and may bank it or
    not; first to ``target`` points wins. ``target=None``: nobody ever wins."""

    def __init__(self, target: int | None = 10):
        self.target = target
        self.score = [0, 0]
        self.player = 0
        self.turns = 1
        self.pending: int | None = None
        self.win: int | None = None

    def current_player(self) -> int:
        return -1 if self.pending is None and self.win is None else self.player

    def is_chance_node(self) -> bool:
        return self.win is None and self.pending is None

    def chance_outcomes(self):
        return [(k, 1 / 6) for k in range(1, 7)]

    def legal_actions(self):
        return ["bank", "pass"]

    def apply_action(self, a) -> None:
        if self.pending is None:
            self.pending = a
            return
        if a == "bank":
            self.score[self.player] += self.pending
        self.pending = None
        if self.target is not None and self.score[self.player] >= self.target:
            self.win = self.player
            return
        self.player = 1 - self.player
        self.turns += 1

    def is_terminal(self) -> bool:
        return self.win is not None

    def returns(self):
        return [0.0, 0.0] if self.win is None else [1.0 if i == self.win else -1.0 for i in range(2)]

    def winner(self):
        return self.win

    def turn_count(self) -> int:
        return self.turns


def test_toy_game_follows_the_protocol():
    assert isinstance(Race(), GameState)


def test_wilson_interval():
    lo, hi = wilson(50, 100)
    assert abs(lo - 0.4038) < 1e-4 and abs(hi - 0.5962) < 1e-4
    assert wilson(0, 0) == (0.0, 1.0)


def test_sample_chance_follows_the_probabilities():
    rng = random.Random(3)
    draws = [sample_chance([("a", 0.25), ("b", 0.75)], rng) for _ in range(4000)]
    assert 0.22 < draws.count("a") / 4000 < 0.28


def test_play_game_ends_or_is_cut_off():
    r = play_game(Race, random_policy, random.Random(1), turn_cap=1000)
    assert r.winner in (0, 1) and not r.cut_off
    r = play_game(lambda: Race(None), random_policy, random.Random(1), turn_cap=20)
    assert r.winner is None and r.cut_off and r.turns == 20


def test_report_is_deterministic_and_independent_of_workers():
    a = run_playability(Race, random_policy, games=40, seed=7, turn_cap=200)
    b = run_playability(Race, random_policy, games=40, seed=7, turn_cap=200)
    c = run_playability(Race, random_policy, games=40, seed=7, turn_cap=200, workers=2)
    assert a == b == c
    assert a.results == c.results
    assert sum(s.wins for s in a.sides) + a.cut_off == 40
    never = run_playability(lambda: Race(None), [random_policy, random_policy], games=5, seed=1, turn_cap=10)
    assert never.cut_off_share == 1.0 and never.sides[0].wins == 0


def test_run_many_gives_the_same_reports_as_one_by_one():
    from pipeline.play import Job, run_many

    jobs = [Job(Race, random_policy, 30, 7, 200, label="a"), Job(lambda: Race(None), random_policy, 6, 2, 10, label="b")]
    one = [run_playability(j.state_factory, j.policies, games=j.games, seed=j.seed, turn_cap=j.turn_cap, label=j.label) for j in jobs]
    assert run_many(jobs) == one
    assert run_many(jobs[:1], workers=2, chunk=7) == one[:1]


class SteppedRace(Race):
    """:class:`Race` with the fused step (``view``/``step``) of ``SteppedState``."""

    def view(self):
        if self.win is not None:
            return None, (), self.turns
        if self.is_chance_node():
            return -1, self.chance_outcomes(), self.turns
        return self.player, self.legal_actions(), self.turns

    def step(self, a):
        self.apply_action(a)
        return self.view()


def _greedy_bank(state, rng):
    rng.random()
    return "bank" if state.pending >= 3 else "pass"


def test_the_fused_step_plays_the_same_games_as_the_protocol_calls():
    from pipeline.play import SteppedState

    assert isinstance(SteppedRace(), SteppedState) and not isinstance(Race(), SteppedState)
    for pols in (random_policy, _greedy_bank, [random_policy, _greedy_bank], [random_policy, random_policy]):
        for seed in range(20):
            for target, cap in ((10, 1000), (30, 7), (None, 12)):
                a = play_game(lambda t=target: Race(t), pols, random.Random(seed), turn_cap=cap)
                b = play_game(lambda t=target: SteppedRace(t), pols, random.Random(seed), turn_cap=cap)
                assert a == b
    class OwnRandom(random.Random):  # not a plain Random: the runner draws through randrange
        pass

    for seed in range(10):
        a = play_game(Race, random_policy, OwnRandom(seed), turn_cap=1000)
        assert a == play_game(SteppedRace, random_policy, OwnRandom(seed), turn_cap=1000)
        assert a == play_game(SteppedRace, random_policy, random.Random(seed), turn_cap=1000)
    # a game that outlasts max_steps without reaching its turn cap is an engine error (issue 25)
    for state in (lambda: SteppedRace(None), lambda: Race(None)):
        with pytest.raises(RuleBug, match="9 actions in all without an end"):
            play_game(state, random_policy, random.Random(1), turn_cap=5, max_steps=9)
