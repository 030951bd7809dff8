"""The state protocol of a game engine, in the style of OpenSpiel.

A state is mutable: ``apply_action`` moves it on. At a chance node ``chance_outcomes()`` lists
``(outcome, probability)`` and the runner samples one and applies it like an action; at a
decision node ``current_player()`` says whose it is and ``legal_actions()`` what he may do.
Actions and outcomes are any hashable values the engine documents.

An engine may also offer the fused step of :class:`SteppedState` (``view()`` and ``step(action)``):
one call that applies an action and returns the next node's player and options, which the runner
uses instead of the five protocol calls per action when the state has it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from typing import Protocol, runtime_checkable


@runtime_checkable
class GameState(Protocol):
    """What :func:`pipeline.play.play_game` needs of a game state."""

    def current_player(self) -> int:
        """The deciding player (0, 1, …); negative at a chance or terminal node."""
        ...

    def legal_actions(self) -> Sequence[Hashable]:
        """Actions the current player may take (never empty at a decision node)."""
        ...

    def apply_action(self, action: Hashable) -> None:
        """Take an action, or apply a chance outcome."""
        ...

    def is_chance_node(self) -> bool: ...

    def chance_outcomes(self) -> Sequence[tuple[Hashable, float]]:
        """``(outcome, probability)`` pairs summing to 1."""
        ...

    def is_terminal(self) -> bool: ...

    def returns(self) -> Sequence[float]:
        """Per player: +1 win, -1 loss, 0 otherwise (or game-specific utilities)."""
        ...

    def winner(self) -> int | None:
        """The winning player, or ``None`` (game on, or drawn)."""
        ...

    def turn_count(self) -> int:
        """Player turns begun so far (the runner's turn cap counts these)."""
        ...


@runtime_checkable
class SteppedState(GameState, Protocol):
    """A :class:`GameState` with the fused step :func:`pipeline.play.play_game` prefers.

    A node is ``(player, options, turns)``: ``player`` the deciding player (0, 1, …) with
    ``options`` its legal actions, or :data:`CHANCE_NODE` with ``options`` the ``(outcome,
    probability)`` pairs, or ``None`` when the game is over (``options`` then empty); ``turns``
    is :meth:`~GameState.turn_count`. The node must be what the other protocol calls say."""

    def view(self) -> tuple[int | None, Sequence, int]:
        """The current node (see the class docstring), without changing the state."""
        ...

    def step(self, action: Hashable) -> tuple[int | None, Sequence, int]:
        """``apply_action(action)``, then :meth:`view` of the node reached."""
        ...


@runtime_checkable
class SearchState(GameState, Protocol):
    """A :class:`GameState` a search policy (:mod:`pipeline.play.ismcts`) can plan on.

    ``clone()`` is an independent copy (applying actions to it leaves the original unchanged).

    ``determinize(player, rng)`` is a copy in which everything ``player`` cannot see is redrawn
    from what he can see: the opponent's hand, the order and contents of the decks that follow
    from it, an opponent's secret choice made but not yet revealed (Ronin's Attack and Defence
    counters). Future dice are not part of a state (they are chance nodes). Two states that
    ``player`` cannot tell apart (the same information set) must give **equal** determinizations
    for equally seeded ``rng``: sort what is unseen before drawing from it, never read its order.
    A game of perfect information returns ``clone()`` and draws nothing.

    ``information_key(player)`` is a hashable summary of what ``player`` sees (equal for two
    states of one information set); tests use it to show a policy reads nothing else.
    """

    def clone(self) -> SearchState: ...

    def determinize(self, player: int, rng: random.Random) -> SearchState: ...

    def information_key(self, player: int) -> Hashable: ...


#: A cheap evaluation of a non-terminal state for a player, in [-1, 1] (+1 as good as a won game),
#: for cut-off playouts and one-ply (greedy) policies: ``evaluate(state, player) -> float``.
Evaluation = Callable[[GameState, int], float]


#: The ``player`` of a chance node in a :class:`SteppedState` node.
CHANCE_NODE = -1

#: A policy picks an action for the current player: ``policy(state, rng) -> action``.
Policy = Callable[[GameState, random.Random], Hashable]


def random_policy(state: GameState, rng: random.Random) -> Hashable:
    """Uniform random legal play."""
    acts = state.legal_actions()
    return acts[rng.randrange(len(acts))]


def sample_chance(outcomes: Sequence[tuple[Hashable, float]], rng: random.Random) -> Hashable:
    """One outcome drawn with its probability (one ``rng.random()`` per draw)."""
    x = rng.random()
    acc = 0.0
    for o, p in outcomes:
        acc += p
        if x < acc:
            return o
    return outcomes[-1][0]
