"""Helpers for tests of game states: play a state on at random."""

from __future__ import annotations

import random

from pipeline.play import sample_chance


def advance(state, steps: int, rng: random.Random):
    """Apply up to ``steps`` uniformly random actions and chance outcomes (drawn with their
    probabilities) to ``state``, stopping at the end of the game; returns the state."""
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(sample_chance(state.chance_outcomes(), rng))
        else:
            acts = state.legal_actions()
            state.apply_action(acts[rng.randrange(len(acts))])
    return state
