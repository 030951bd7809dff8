"""The state protocol of a game engine, in the style of OpenSpiel.

A state is mutable: ``apply_action`` moves it on. At a chance node ``chance_outcomes()`` lists
``(outcome, probability)`` and the runner samples one and applies it like an action; at a
decision node ``current_player()`` says whose it is and ``legal_actions()`` what he may do.
Actions and outcomes are any hashable values the engine documents.
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
