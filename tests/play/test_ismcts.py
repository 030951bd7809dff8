"""ISMCTS (pipeline.play.ismcts) on small games whose right moves are worked out by hand."""

from __future__ import annotations

import pickle
import random

import pytest

from pipeline.play.ismcts import ISMCTS

from .games import Nim, perfect_nim


def zero(state, player) -> float:
    return 0.0


class Gamble:
    """Player 0 plays ``safe`` (worth +0.5 to him at the cut-off) or ``gamble``: a coin that
    comes up heads with probability ``p`` (+1) or tails (-1), worth ``2p - 1`` on average."""

    def __init__(self, p: float):
        self.p, self.choice, self.coin, self.turns = p, None, None, 1

    def clone(self):
        c = Gamble(self.p)
        c.choice, c.coin, c.turns = self.choice, self.coin, self.turns
        return c

    def determinize(self, player, rng):
        return self.clone()

    def current_player(self):
        return -1 if self.is_chance_node() else 0

    def legal_actions(self):
        return ["safe", "gamble"] if self.choice is None else []

    def is_chance_node(self):
        return self.choice == "gamble" and self.coin is None

    def chance_outcomes(self):
        return [("heads", self.p), ("tails", 1 - self.p)]

    def apply_action(self, a):
        if a in ("heads", "tails"):
            self.coin = a
            self.turns = 2
        else:
            self.choice = a
            if a == "safe":
                self.turns = 2

    def is_terminal(self):
        return False

    def winner(self):
        return None

    def turn_count(self):
        return self.turns


def gamble_value(state, player) -> float:
    v = 0.5 if state.choice == "safe" else (1.0 if state.coin == "heads" else -1.0)
    return v if player == 0 else -v


class Hidden:
    """Player 0 plays ``l`` or ``r``; then player 1, holding card ``A`` or ``B`` that player 0
    cannot see, may play ``x`` (player 0 wins) and, holding ``B``, also ``y`` (player 1 wins)."""

    def __init__(self, card: str):
        self.card, self.moves = card, []

    def clone(self):
        c = Hidden(self.card)
        c.moves = list(self.moves)
        return c

    def determinize(self, player, rng):
        c = self.clone()
        if player == 0:
            c.card = rng.choice(["A", "B"])
        return c

    def current_player(self):
        return -4 if len(self.moves) == 2 else len(self.moves)

    def legal_actions(self):
        if not self.moves:
            return ["l", "r"]
        return ["x"] if self.card == "A" else ["x", "y"]

    def apply_action(self, a):
        self.moves.append(a)

    def is_chance_node(self):
        return False

    def is_terminal(self):
        return len(self.moves) == 2

    def winner(self):
        return (0 if self.moves[1] == "x" else 1) if len(self.moves) == 2 else None

    def turn_count(self):
        return 1 + len(self.moves)


class OnlyWhatThePlayerSees:
    """A state that answers only ``determinize``, ``current_player`` and ``legal_actions``."""

    def __init__(self, state):
        object.__setattr__(self, "_state", state)

    def determinize(self, player, rng):
        return self._state.determinize(player, rng)

    def current_player(self):
        return self._state.current_player()

    def legal_actions(self):
        return self._state.legal_actions()

    def __getattr__(self, name):
        raise AssertionError(f"ISMCTS read {name!r} of the real state")


@pytest.mark.parametrize(("pile", "take"), [(4, 1), (5, 2), (7, 1), (8, 2)])
def test_nim_winning_move(pile, take):
    policy = ISMCTS(zero, iterations=200, playout_depth=20, exploration=0.7)  # win/loss rewards: the paper's c
    assert policy(Nim(pile), random.Random(pile)) == take


def test_open_loop_chance_weighs_outcomes_by_probability():
    # safe is worth 0.5; the gamble 2p - 1: -0.4 at p = 0.3, 0.8 at p = 0.9.
    policy = ISMCTS(gamble_value, iterations=200, playout_depth=1)
    assert policy(Gamble(0.3), random.Random(1)) == "safe"
    assert policy(Gamble(0.9), random.Random(1)) == "gamble"


def test_availability_counts_follow_the_determinizations():
    # Player 1's y is legal only when the determinization gives him B (half the time), x always:
    # x is available at every visit of its parent but the first (which created the parent) and
    # the few before x was expanded; y at about half of them.
    policy = ISMCTS(zero, iterations=400, playout_depth=5)
    root = policy.tree(Hidden("A"), random.Random(2))
    for node in root.children.values():
        x, y = node.children[(1, "x")], node.children[(1, "y")]
        assert node.visits - 3 <= x.avail <= node.visits - 1
        assert abs(y.avail - node.visits / 2) < 3 * (node.visits / 4) ** 0.5 + 3  # binomial(visits, 1/2)
        assert y.total / y.visits == 1.0 and x.total / x.visits == -1.0  # scored for player 1


def test_reads_the_real_state_only_through_what_its_player_sees():
    policy = ISMCTS(zero, iterations=50, playout_depth=20)
    assert policy(OnlyWhatThePlayerSees(Nim(7)), random.Random(3)) == policy(Nim(7), random.Random(3))


def test_single_action_taken_without_search_or_draw():
    rng = random.Random(4)
    before = rng.getstate()
    assert ISMCTS(zero)(Nim(1), rng) == 1
    assert rng.getstate() == before


def test_deterministic_and_picklable():
    policy = ISMCTS(zero, iterations=30, playout_depth=20, exploration=0.3)
    again = pickle.loads(pickle.dumps(policy))
    assert again == policy
    picks = {again(Nim(11), random.Random(5)) for _ in range(3)} | {policy(Nim(11), random.Random(5))}
    assert len(picks) == 1


@pytest.mark.parametrize("kw", [{"iterations": 0}, {"playout_depth": 0}, {"exploration": -0.1}, {"exploration": float("nan")}])
def test_parameters_out_of_range_are_refused(kw):
    with pytest.raises(ValueError, match="ISMCTS"):
        ISMCTS(zero, **kw)


def take_one(state, rng) -> int:
    return 1


def test_prior_bias_plays_the_playout_policy_where_the_search_sees_no_difference():
    # a cut-off after 1 turn with a flat evaluation: every move scores 0, the prior decides
    for pile, take in ((8, 2), (7, 1), (5, 2)):
        policy = ISMCTS(zero, iterations=40, playout_depth=1, playout=perfect_nim, prior_bias=1.0)
        assert policy(Nim(pile), random.Random(pile)) == take


def test_prior_bias_gives_way_to_what_the_search_finds():
    # the prior always takes 1, wrong from 5 (take 2); the search sees the game to its end
    policy = ISMCTS(zero, iterations=300, playout_depth=20, playout=take_one, prior_bias=1.0)
    assert [policy(Nim(5), random.Random(k)) for k in range(3)] == [2, 2, 2]
