"""Small games for the play tests, whose right moves are worked out by hand."""

from __future__ import annotations


class Nim:
    """One pile; each player takes 1 or 2 stones; who takes the last stone wins. The player to
    move wins exactly when the pile is not a multiple of 3, by taking ``pile % 3`` stones."""

    def __init__(self, n: int, p: int = 0, turns: int = 1):
        self.n, self.p, self.turns = n, p, turns

    def clone(self):
        return Nim(self.n, self.p, self.turns)

    def determinize(self, player, rng):
        return self.clone()

    def information_key(self, player):
        return (self.n, self.p, self.turns)

    def current_player(self):
        return -4 if self.n == 0 else self.p

    def legal_actions(self):
        return [k for k in (1, 2) if k <= self.n]

    def apply_action(self, k):
        self.n -= k
        self.p = 1 - self.p
        self.turns += 1

    def is_chance_node(self):
        return False

    def chance_outcomes(self):
        raise ValueError("no chance node")

    def is_terminal(self):
        return self.n == 0

    def winner(self):
        return 1 - self.p if self.n == 0 else None

    def returns(self):
        w = self.winner()
        return [0.0, 0.0] if w is None else [1.0 if i == w else -1.0 for i in range(2)]

    def turn_count(self):
        return self.turns


def perfect_nim(state: Nim, rng) -> int:
    """The winning move of :class:`Nim` (take ``pile % 3``), or 1 stone from a lost position."""
    return state.n % 3 or 1
