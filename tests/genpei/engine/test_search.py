"""The information-set hooks of GenpeiState (engine/search.py) and ISMCTS on Genpei: the
search reads nothing its player cannot see (the opponent's Command and Dragon cards in hand, the
decks' contents), and a determinization keeps everything he can see."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from pipeline.play.ismcts import ISMCTS
from pipeline.play.protocol import sample_chance
from pipeline.systems.genpei.engine.policies import ISMCTS_POLICY, evaluation, greedy_policy
from pipeline.systems.genpei.engine.state import GenpeiState

from ...play.test_ismcts import OnlyWhatThePlayerSees


def _midgame(data, code: str, seed: int, turns: int, kind: str | None = None) -> GenpeiState:
    """A greedy game of ``code`` played until ``turns`` player turns have begun, stopped at the
    next decision with more than one legal action (of the first action ``kind`` if given)."""
    sc = next(s.scenario for s in data.scenarios if s.scenario.code == code)
    s = GenpeiState(data, sc)
    rng = random.Random(seed)
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(sample_chance(s.chance_outcomes(), rng))
            continue
        acts = s.legal_actions()
        if s.turn_count() >= turns and len(acts) > 1 and (kind is None or acts[0][0] == kind):
            return s
        s.apply_action(greedy_policy(s, rng))
    raise AssertionError(f"{code} seed {seed} ended before turn {turns}")


def _swap_hidden(s: GenpeiState, me: int) -> GenpeiState:
    """``s`` with what ``me`` cannot see changed: one Command card and one Dragon card of the
    opponent swapped with other cards of the decks, and his hands reversed."""
    v = s.clone()
    them = v.sides[1 - me]
    for hand, deck in ((them.hand, v.cmd_deck), (them.dragons, v.dragon_deck)):
        if not hand:
            continue
        out = hand[0]
        into = next(c for c in sorted(deck) if deck[c] and c != out)
        hand.remove(out)
        hand.append(into)
        hand.reverse()
        deck[into] -= 1
        deck[out] += 1
    assert Counter(them.hand) != Counter(s.sides[1 - me].hand)
    return v


def _hidden(s: GenpeiState, me: int) -> tuple:
    them = s.sides[1 - me]
    return (tuple(them.hand), tuple(them.dragons), tuple(sorted(s.cmd_deck.items())), tuple(sorted(s.dragon_deck.items())))


def _unseen(s: GenpeiState, me: int) -> tuple[Counter, Counter]:
    them = s.sides[1 - me]
    return Counter(s.cmd_deck) + Counter(them.hand), Counter(s.dragon_deck) + Counter(them.dragons)


CASES = [("GP19", 1, 3), ("GP20", 2, 4), ("GP20", 3, 7)]


@pytest.mark.parametrize(("code", "seed", "turns"), CASES)
def test_determinize_keeps_every_visible_part(data, code, seed, turns):
    s = _midgame(data, code, seed, turns)
    me = s.current_player()
    key, hidden = s.information_key(me), _hidden(s, me)
    hands = set()
    for k in range(6):
        d = s.determinize(me, random.Random(k))
        assert d.information_key(me) == key
        # the visible parts, one by one
        assert d.sides[me].hand == s.sides[me].hand and d.sides[me].dragons == s.sides[me].dragons
        assert [len(x.hand) for x in d.sides] == [len(x.hand) for x in s.sides]
        assert [len(x.dragons) for x in d.sides] == [len(x.dragons) for x in s.sides]
        assert d.cmd_discard == s.cmd_discard and d.dragon_discard == s.dragon_discard
        assert [(u.uid, u.hex, u.figures) for u in d.units.values()] == [(u.uid, u.hex, u.figures) for u in s.units.values()]
        assert [x.hf for x in d.sides] == [x.hf for x in s.sides] and d.legal_actions() == s.legal_actions()
        # the unseen cards are the same cards, dealt anew
        assert _unseen(d, me) == _unseen(s, me)
        hands.add(tuple(d.sides[1 - me].hand))
    assert len(hands) > 1  # the opponent's hand is redrawn
    assert s.information_key(me) == key and _hidden(s, me) == hidden  # the state is left as it was


@pytest.mark.parametrize(("code", "seed", "turns"), CASES)
def test_information_key_sees_own_cards_only(data, code, seed, turns):
    s = _midgame(data, code, seed, turns)
    me = s.current_player()
    v = _swap_hidden(s, me)
    assert v.information_key(me) == s.information_key(me)
    assert v.information_key(1 - me) != s.information_key(1 - me)  # the opponent sees his own hand
    mine = s.clone()
    c = mine.sides[me].hand[0]
    into = next(x for x in sorted(mine.cmd_deck) if mine.cmd_deck[x] and x != c)
    mine.sides[me].hand[0] = into
    mine.cmd_deck[into] -= 1
    mine.cmd_deck[c] += 1
    assert mine.information_key(me) != s.information_key(me)


@pytest.mark.parametrize(("code", "seed", "turns"), CASES)
def test_one_information_set_gives_one_determinization(data, code, seed, turns):
    s = _midgame(data, code, seed, turns)
    me = s.current_player()
    v = _swap_hidden(s, me)
    assert _hidden(v, me) != _hidden(s, me)
    for k in range(3):
        a, b = s.determinize(me, random.Random(k)), v.determinize(me, random.Random(k))
        assert _hidden(a, me) == _hidden(b, me)
        assert a.information_key(1 - me) == b.information_key(1 - me)


class _SeesAll:
    """A control: a state whose determinization is a plain copy (a search on it reads the
    opponent's hand and the decks as they are)."""

    def __init__(self, state):
        self._state = state

    def determinize(self, player, rng):
        return self._state.clone()

    def current_player(self):
        return self._state.current_player()

    def legal_actions(self):
        return self._state.legal_actions()


@pytest.mark.parametrize(("code", "seed", "turns", "kind"), [("GP19", 1, 3, "card"), ("GP20", 2, 4, "order"), ("GP19", 4, 5, "card")])
def test_ismcts_decision_unchanged_when_the_unseen_cards_are_permuted(data, code, seed, turns, kind):
    s = _midgame(data, code, seed, turns, kind)
    me = s.current_player()
    v = _swap_hidden(s, me)
    # depth 2: the opponent's turn is played out, with the cards he holds in the determinization;
    # no prior, which would make most decisions greedy's and hide what the search reads
    policy = ISMCTS(evaluation, iterations=16, playout_depth=2, exploration=0.2, playout=greedy_policy, prior_bias=0.0)
    assert [policy(v, random.Random(k)) for k in range(3)] == [policy(s, random.Random(k)) for k in range(3)]
    # the control: a search that reads the real hands decides differently on the two states
    assert [policy(_SeesAll(v), random.Random(k)) for k in range(3)] != [policy(_SeesAll(s), random.Random(k)) for k in range(3)]
    # the shipped policy (its prior, greedy's pick, asked on the determinizations too)
    assert [ISMCTS_POLICY(v, random.Random(k)) for k in range(2)] == [ISMCTS_POLICY(s, random.Random(k)) for k in range(2)]


def test_ismcts_needs_only_what_the_player_sees(data):
    s = _midgame(data, "GP20", 2, 4, "card")
    policy = ISMCTS(evaluation, iterations=12, playout_depth=1, playout=greedy_policy)
    assert policy(OnlyWhatThePlayerSees(s), random.Random(3)) == policy(s, random.Random(3))


def test_evaluation_is_scaled_to_one(data):
    s = _midgame(data, "GP20", 2, 4)
    assert s.banners(0) + s.banners(1) > 0  # a state with something to score
    for p in (0, 1):
        v = evaluation(s, p)
        assert -1.0 < v < 1.0 and v == pytest.approx(-evaluation(s, 1 - p))
    rng = random.Random(1)
    while not s.is_terminal():
        s.apply_action(sample_chance(s.chance_outcomes(), rng) if s.is_chance_node() else greedy_policy(s, rng))
    w = s.winner()
    assert (evaluation(s, w), evaluation(s, 1 - w)) == (1.0, -1.0)
