"""Information-set Monte Carlo tree search (ISMCTS) over :class:`~pipeline.play.protocol.SearchState`.

Single-observer ISMCTS (SO-ISMCTS) of Cowling, Powley and Whitehouse, "Information Set Monte Carlo
Tree Search", IEEE Transactions on Computational Intelligence and AI in Games 4(2), 2012,
pp. 120-143 (section IV.B, Algorithm 2), for any game behind the state protocol. One decision of
player ``me`` runs ``iterations`` times:

1. **Determinize**: ``d = state.determinize(me, rng)``, a state drawn from ``me``'s information
   set (the opponent's hand and the decks redrawn from what ``me`` cannot see). This and
   ``current_player()`` and ``legal_actions()`` are all the policy reads of the real state.
2. **Select**: from the root, while every action legal in ``d`` has a child, descend to the child
   of best UCB score with *availability counts* (the subset-armed bandit of the paper, its
   equation 3): ``q + c * sqrt(ln(a) / n)``, where ``n`` counts the child's visits, ``a`` the
   visits of its parent in which the child's action was legal (so that an action legal in few
   determinizations is not starved), and ``q`` its mean reward for the player who takes the
   action, scaled from [-1, 1] to [0, 1] as in the paper. Children are keyed by ``(player,
   action)``: the opponent's decisions are nodes of the same tree, taken in ``d`` (single
   observer), and scored for the opponent. With a ``prior_bias`` ``b > 0`` and a playout
   policy, the action that policy picks at a node (asked once per node and player, on the
   determinization that first reaches it) gets ``b / (n + 1)`` more, a bonus that fades as the
   action is tried (progressive bias: Chaslot, Winands, van den Herik, Uiterwijk and Bouzy,
   "Progressive Strategies for Monte-Carlo Tree Search", New Mathematics and Natural Computation
   4(3), 2008): where the search cannot tell actions apart within its budget, it plays as the
   playout policy would, and it departs from it where it finds better. ``b = 0`` is the
   paper's ISMCTS.
3. **Expand** one action legal in ``d`` without a child: the playout policy's pick first when
   ``b > 0``, else one drawn by ``rng``.
4. **Play out** from there with the playout policy (uniform random, or a given cheap policy such
   as a system's greedy one) until the game ends or the cut-off: the simulation stops when
   ``playout_depth`` player turns after the root's have begun (``turn_count()`` of the root plus
   ``playout_depth``), in the tree or in the playout.
5. **Score** the state reached: +1 / -1 for a won / lost game (0 drawn), else the system's
   :data:`~pipeline.play.protocol.Evaluation` in [-1, 1], for each player who acts on the path,
   and **back-propagate** it up the path (each node adds the value of the player who took its
   action).

**Chance nodes are open-loop**: a die roll or a card draw is sampled (with its probability, by
``rng``) wherever the simulation meets it, in the tree or in the playout; the tree does not branch
on chance outcomes, so a tree node is the sequence of actions that leads to it, and the node
reached after a chance event is the same whatever the outcome (its statistics average over them).

The move played is the root's most visited action (ties: the better mean, then the first in
``legal_actions()`` order). A decision with a single legal action is taken without search and
without drawing from ``rng``. For a given ``rng`` state the decision is always the same
(children are kept in insertion order, every draw comes from ``rng``): the policy is
deterministic, and picklable when ``evaluate`` and ``playout`` are module-level functions.

Cost: about ``iterations`` determinizations and playouts of up to ``playout_depth`` player turns
per decision with more than one legal action (``benchmarks/bench_ismcts.py`` gives the
decisions per CPU second).

A worked example on a game of perfect information (``determinize`` is ``clone``): Nim with one
pile, each player takes 1 or 2 stones, who takes the last stone wins. From 4 stones the only
winning move is to take 1 (leaving a multiple of 3):

>>> import random
>>> from pipeline.play.ismcts import ISMCTS
>>> class Nim:
...     def __init__(self, n, p=0): self.n, self.p, self.turns = n, p, 1
...     def clone(self): c = Nim(self.n, self.p); c.turns = self.turns; return c
...     def determinize(self, player, rng): return self.clone()
...     def current_player(self): return -4 if self.n == 0 else self.p
...     def legal_actions(self): return [k for k in (1, 2) if k <= self.n]
...     def apply_action(self, k): self.n -= k; self.p = 1 - self.p; self.turns += 1
...     def is_chance_node(self): return False
...     def is_terminal(self): return self.n == 0
...     def winner(self): return 1 - self.p if self.n == 0 else None
...     def turn_count(self): return self.turns
>>> ISMCTS(lambda s, p: 0.0, iterations=200, playout_depth=10, exploration=0.7)(Nim(4), random.Random(1))
1
>>> ISMCTS(lambda s, p: 0.0, iterations=200, playout_depth=10, exploration=0.7)(Nim(5), random.Random(1))
2
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable
from dataclasses import dataclass

from pipeline.play.protocol import Evaluation, Policy, SearchState, sample_chance

#: Default iterations per decision. The defaults are those measured best on Genpei by
#: ``benchmarks/bench_ismcts.py`` (figures in benchmarks/README.md, "ISMCTS"): strength against
#: greedy play flat from 25 to 200 iterations, a cut-off after 2 player turns no stronger than
#: after 1 at three times the cost, the prior bias the one parameter that clearly mattered.
ITERATIONS = 50
#: Default playout depth, in player turns after the root's (1: the end of the current turn).
PLAYOUT_DEPTH = 1
#: Default exploration constant ``c`` of the UCB score, on rewards scaled to [0, 1]. The paper
#: uses 0.7 for win/loss rewards; an evaluation whose values differ by a few hundredths between
#: moves (Genpei's: a banner 0.05 on that scale) needs a smaller one, or the search only
#: explores.
EXPLORATION = 0.1
#: Default progressive bias of the playout policy's pick (no effect without a playout policy).
PRIOR_BIAS = 1.0
#: Steps (actions and chance outcomes) one simulation may take: a guard against an engine that
#: loops within a turn (the simulation is then scored where it stands).
MAX_STEPS = 100_000


class _Node:
    """A node of the search tree: the action sequence leading to it from the root.

    ``player`` took the action that leads here; ``visits``, ``total`` (sum of that player's
    rewards in [-1, 1]) and ``avail`` (visits of the parent in which the action was legal) feed
    the UCB score; ``children`` maps ``(player, action)`` to nodes, in insertion order."""

    __slots__ = ("player", "visits", "total", "avail", "children", "prior")

    def __init__(self, player: int) -> None:
        self.player = player
        self.visits = 0
        self.total = 0.0
        self.avail = 0
        self.children: dict[tuple[int, Hashable], _Node] = {}
        self.prior: dict[int, Hashable] | None = None


def _terminal_value(state: SearchState, player: int) -> float:
    w = state.winner()
    if w is None:
        return 0.0
    return 1.0 if w == player else -1.0


@dataclass(frozen=True)
class ISMCTS:
    """Single-observer ISMCTS as a policy ``policy(state, rng) -> action`` (module docstring).

    Attributes:
        evaluate: the system's evaluation ``evaluate(state, player) -> float`` in [-1, 1] of a
            state at the cut-off (module-level for pickling).
        iterations: simulations per decision (each one determinization, one descent, one
            playout), at least 1.
        playout_depth: player turns after the root's at which a simulation is cut off and
            evaluated, at least 1 (1: the end of the current turn).
        exploration: the UCB constant ``c`` on rewards scaled to [0, 1], at least 0.
        playout: the playout policy ``playout(state, rng) -> action``, or ``None`` for uniform
            random play.
        prior_bias: the progressive bias ``b`` of the playout policy's pick, on rewards scaled
            to [0, 1], at least 0 (0: none; no effect without a playout policy).

    Raises:
        ValueError: a parameter out of its range.
    """

    evaluate: Evaluation
    iterations: int = ITERATIONS
    playout_depth: int = PLAYOUT_DEPTH
    exploration: float = EXPLORATION
    playout: Policy | None = None
    prior_bias: float = PRIOR_BIAS

    def __post_init__(self) -> None:
        if self.iterations < 1:
            raise ValueError(f"ISMCTS iterations must be at least 1, not {self.iterations}")
        if self.playout_depth < 1:
            raise ValueError(f"ISMCTS playout depth must be at least 1 player turn, not {self.playout_depth}")
        if not self.prior_bias >= 0:
            raise ValueError(f"ISMCTS prior bias must be at least 0, not {self.prior_bias}")
        if not self.exploration >= 0:
            raise ValueError(f"ISMCTS exploration constant must be at least 0, not {self.exploration}")

    def __call__(self, state: SearchState, rng: random.Random) -> Hashable:
        acts = list(state.legal_actions())
        if len(acts) == 1:
            return acts[0]
        me = state.current_player()
        root = self.tree(state, rng)
        best, best_key = acts[0], None
        for a in acts:
            c = root.children.get((me, a))
            if c is None:
                continue
            key = (c.visits, c.total / c.visits)
            if best_key is None or key > best_key:
                best, best_key = a, key
        return best

    def tree(self, state: SearchState, rng: random.Random) -> _Node:
        """The search tree of one decision of ``state``'s current player after
        :attr:`iterations` simulations (what :meth:`__call__` chooses from; for tests and
        diagnostics): the root node, whose ``children`` map ``(player, action)`` to nodes with
        ``visits``, ``total`` (rewards of the player who acts) and ``avail``."""
        me = state.current_player()
        root = _Node(me)
        for _ in range(self.iterations):
            self._iterate(root, state.determinize(me, rng), rng)
        return root

    def _iterate(self, root: _Node, s: SearchState, rng: random.Random) -> None:
        """One simulation on the determinization ``s``: select, expand, play out, score, back up."""
        horizon = s.turn_count() + self.playout_depth
        node = root
        path: list[_Node] = []
        steps = 0
        explore = self.exploration
        bias = self.prior_bias if self.playout is not None else 0.0
        # selection and expansion
        while steps < MAX_STEPS and not s.is_terminal() and s.turn_count() < horizon:
            steps += 1
            if s.is_chance_node():  # open loop: sampled, not branched on
                s.apply_action(sample_chance(s.chance_outcomes(), rng))
                continue
            p = s.current_player()
            legal = s.legal_actions()
            if not legal:
                break
            children = node.children
            prior = None
            if bias:
                known = node.prior
                if known is None:
                    known = node.prior = {}
                prior = known.get(p)
                if prior is None:
                    prior = known[p] = self.playout(s, rng)  # type: ignore[misc]
            untried = []
            for a in legal:
                c = children.get((p, a))
                if c is None:
                    untried.append(a)
                else:
                    c.avail += 1
            if untried:
                if prior is not None and prior in untried:
                    a = prior
                else:
                    a = untried[rng.randrange(len(untried))] if len(untried) > 1 else untried[0]
                child = children[(p, a)] = _Node(p)
                child.avail = 1
                s.apply_action(a)
                path.append(child)
                break
            best_a, best_c, best_u = None, None, -math.inf
            for a in legal:
                c = children[(p, a)]
                u = 0.5 + 0.5 * c.total / c.visits + explore * math.sqrt(math.log(c.avail) / c.visits)
                if a == prior:
                    u += bias / (c.visits + 1)
                if u > best_u:
                    best_a, best_c, best_u = a, c, u
            s.apply_action(best_a)
            path.append(best_c)  # type: ignore[arg-type]
            node = best_c  # type: ignore[assignment]
        self._play_out(s, rng, horizon, MAX_STEPS - steps)
        # scoring and back-propagation
        values: dict[int, float] = {}
        terminal = s.is_terminal()
        for n in path:
            v = values.get(n.player)
            if v is None:
                v = values[n.player] = _terminal_value(s, n.player) if terminal else float(self.evaluate(s, n.player))
            n.visits += 1
            n.total += v

    def _play_out(self, s: SearchState, rng: random.Random, horizon: int, max_steps: int) -> None:
        """Play ``s`` on with the playout policy until it ends or ``horizon`` player turns have
        begun (through the fused ``step`` of :class:`~pipeline.play.protocol.SteppedState` when
        the state has it: the same draws and the same actions as the protocol calls)."""
        pol = self.playout
        step = getattr(s, "step", None)
        view = getattr(s, "view", None)
        steps = 0
        if step is not None and view is not None:
            player, opts, turns = view()
            while player is not None and turns < horizon and steps < max_steps:
                if player < 0:
                    a = sample_chance(opts, rng)
                elif pol is None:
                    a = opts[rng.randrange(len(opts))]
                else:
                    a = pol(s, rng)
                player, opts, turns = step(a)
                steps += 1
            return
        while not s.is_terminal() and s.turn_count() < horizon and steps < max_steps:
            if s.is_chance_node():
                s.apply_action(sample_chance(s.chance_outcomes(), rng))
            elif pol is None:
                acts = s.legal_actions()
                s.apply_action(acts[rng.randrange(len(acts))])
            else:
                s.apply_action(pol(s, rng))
            steps += 1
