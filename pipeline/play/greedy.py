"""A game-agnostic one-ply greedy policy over :class:`~pipeline.play.protocol.SearchState`.

:class:`OnePly` scores every legal action by the system's :data:`~pipeline.play.protocol.Evaluation`
of the state it leads to, and plays the best (ties broken by ``rng``). When the action leads to
a chance node (a die roll, a card draw), the score is the expectation over its outcomes, each
outcome's state evaluated as it stands (chance nodes deeper than ``chance_depth`` are sampled
once, with a generator seeded from the caller's ``rng``). A won game scores +1, a lost one -1.

The policy reads the state only through the protocol and the evaluation: a system whose
evaluation reads nothing hidden gives a greedy player that reads nothing hidden.

>>> from pipeline.play.greedy import OnePly
>>> OnePly(lambda s, p: 0.0).chance_depth
1
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from dataclasses import dataclass

from pipeline.play.protocol import Evaluation, SearchState, sample_chance


def terminal_value(state: SearchState, player: int) -> float:
    """+1 when ``player`` won, -1 when he lost, 0 for a draw (the state is terminal)."""
    w = state.winner()
    if w is None:
        return 0.0
    return 1.0 if w == player else -1.0


@dataclass(frozen=True)
class OnePly:
    """One-ply greedy play with an evaluation (picklable when ``evaluate`` is a module-level
    function, so that it can be sent to worker processes).

    Attributes:
        evaluate: ``evaluate(state, player) -> float`` in [-1, 1].
        chance_depth: chance nodes met right after the action that are expanded exactly (their
            outcomes weighted by probability); deeper ones are sampled once.
        max_outcomes: a chance node with more outcomes than this is sampled once, not expanded.
    """

    evaluate: Evaluation
    chance_depth: int = 1
    max_outcomes: int = 36

    def __call__(self, state: SearchState, rng: random.Random) -> Hashable:
        acts = list(state.legal_actions())
        if len(acts) == 1:
            return acts[0]
        me = state.current_player()
        best: list[Hashable] = []
        best_v = -float("inf")
        sub = random.Random(rng.random())
        for a in acts:
            c = state.clone()
            c.apply_action(a)
            v = self._value(c, me, self.chance_depth, sub)
            if v > best_v + 1e-12:
                best, best_v = [a], v
            elif abs(v - best_v) <= 1e-12:
                best.append(a)
        return best[0] if len(best) == 1 else best[rng.randrange(len(best))]

    def _value(self, state: SearchState, me: int, depth: int, rng: random.Random) -> float:
        if state.is_terminal():
            return terminal_value(state, me)
        if not state.is_chance_node():
            return self.evaluate(state, me)
        outs = state.chance_outcomes()
        if depth <= 0 or len(outs) > self.max_outcomes:
            c = state.clone()
            c.apply_action(sample_chance(outs, rng))
            return self._value(c, me, 0, rng)
        total = 0.0
        for o, p in outs:
            c = state.clone()
            c.apply_action(o)
            total += float(p) * self._value(c, me, depth - 1, rng)
        return total
