"""What a search policy needs of a Genpei game: the information-set hooks of
:class:`pipeline.play.protocol.SearchState` (bound to :class:`~.state.GenpeiState` as its
``determinize`` and ``information_key`` methods).

What a player cannot see (GMT rules, the Command and Dragon cards: each player's hand is held
face down; played and discarded cards go face up to the discard piles): the opponent's Command
cards and Dragon cards in hand (and, while he chooses the card to keep of 2 drawn, those 2), and
so the contents of the two decks, which are the cards not seen anywhere else. The order of a deck
is not part of the state (every draw is a chance node over the cards left), so nothing else is
hidden. Everything else is seen by both: the board, the units, leaders and their flags, the
card being played, H&F, banners, the discard piles, the number of cards in each hand.

:func:`determinize` pools, per deck, the opponent's hidden cards with that deck's contents,
sorts the pool by card id and draws the opponent's cards from it with ``rng`` (the rest stay in
the deck): two states one player cannot tell apart give equal determinizations for equally seeded
generators. The draw is uniform over the unseen cards; it infers nothing from the opponent's
past play (the usual choice of ISMCTS, Cowling, Powley and Whitehouse 2012, section IV).
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pipeline.systems.genpei.engine.state import GenpeiState


def hidden_command_cards(state: GenpeiState, player: int) -> list[str]:
    """The Command cards of the opponent of ``player`` that ``player`` cannot see: his hand and,
    while he keeps 1 of 2 drawn cards (``state.pick``, the player to move's), those cards."""
    opp = 1 - player
    hidden = list(state.sides[opp].hand)
    if state.player == opp:
        hidden += state.pick
    return hidden


def _pool(deck: dict[str, int], hidden: list[str]) -> list[str]:
    """The unseen cards: ``deck``'s contents and ``hidden``, one entry per copy, sorted."""
    pool = sorted(hidden)
    for c, n in deck.items():
        if n:
            pool += [c] * n
    pool.sort()
    return pool


def _redraw(deck: dict[str, int], hidden: list[str], rng: random.Random) -> tuple[dict[str, int], list[str]]:
    """``(deck, cards)``: ``len(hidden)`` cards drawn with ``rng.sample`` from the sorted pool of
    ``deck`` and ``hidden`` (:func:`_pool`), in the order drawn, and the deck of the cards left
    (the card ids of ``deck``, counts of 0 kept, and any other of ``hidden``). No draw when
    ``hidden`` is empty.

    >>> import random
    >>> deck, cards = _redraw({"a": 2, "b": 0, "c": 1}, ["b", "a"], random.Random(3))
    >>> sorted(cards + [c for c, n in deck.items() for _ in range(n)])  # the pool, whatever was drawn
    ['a', 'a', 'a', 'b', 'c']
    >>> sorted(deck), len(cards)
    (['a', 'b', 'c'], 2)
    """
    if not hidden:
        return dict(deck), []
    drawn = rng.sample(_pool(deck, hidden), len(hidden))
    left = dict(deck)
    for c in hidden:
        left[c] = left.get(c, 0) + 1
    for c in drawn:
        left[c] -= 1
    return left, drawn


def determinize(state: GenpeiState, player: int, rng: random.Random) -> GenpeiState:
    """A copy of ``state`` with what ``player`` (0 or 1) cannot see redrawn (module docstring):
    the opponent's Command cards (hand, and his 2 drawn cards while he keeps 1) and Dragon cards
    drawn from the sorted pools of the unseen cards, the decks holding the rest. Draws
    ``rng.sample`` at most twice (not for an empty hand); the state itself is unchanged.
    """
    c = state.clone()
    opp = 1 - player
    side = c.sides[opp]
    hidden = hidden_command_cards(c, player)
    c.cmd_deck, cards = _redraw(c.cmd_deck, hidden, rng)
    n = len(side.hand)
    side.hand = sorted(cards[:n])
    if len(cards) > n:
        c.pick = sorted(cards[n:])
    c.dragon_deck, dragons = _redraw(c.dragon_deck, list(side.dragons), rng)
    side.dragons = sorted(dragons)
    return c


def _counts(d: dict[str, int]) -> tuple[tuple[str, int], ...]:
    return tuple(sorted((k, n) for k, n in d.items() if n))


def information_key(state: GenpeiState, player: int) -> Hashable:
    """What ``player`` (0 or 1) sees of ``state`` (module docstring), as a hashable tuple: equal
    for two states of one information set. His own hand, Dragon cards and keep-one picks as
    sorted ids; of the opponent's only their numbers; the unseen cards of each deck as one
    sorted pool (deck and opponent's cards together); a chance node as what it is about (not its
    outcomes, which list the cards left of a deck or of a hand); a decision node of the opponent
    without his options (they may name the cards he holds)."""
    opp = 1 - player
    me, them = state.sides[player], state.sides[opp]
    hidden = hidden_command_cards(state, player)
    own_pick = tuple(state.pick) if state.player == player else ()
    node = state.node
    if node is None:
        node_key: tuple = ()
    elif node[0] == "decision" and node[1] == player:
        node_key = (node[0], node[1], node[3], node[4], tuple(node[2]))
    else:
        node_key = (node[0], node[1], node[3], node[4])
    units = tuple(
        (uid, u.side, u.type.id, u.figures, u.hex, u.leader.id if u.leader else None, u.start_hex, u.moved,
         u.no_battle, u.lying_flat, u.took_ground, u.bonus_close, u.bonus_ranged, u.no_ranged, u.move_override,
         u.move_cap, u.sea_any_wind)
        for uid, u in sorted(state.units.items()))
    leaders = tuple((lid, le.side, le.type.id, le.hex, le.start_hex, le.moved, le.detaching)
                    for lid, le in sorted(state.leaders.items()))
    return (
        state.scenario.code, state.turn, state.player, state.phase, state.winner_,
        tuple((s.id, s.hf, s.banners, s.target) for s in state.sides),
        (tuple(sorted(me.hand)), tuple(sorted(me.dragons)), own_pick),
        (len(them.hand), len(them.dragons), len(hidden) - len(them.hand)),
        (tuple(_pool(state.cmd_deck, hidden)), tuple(_pool(state.dragon_deck, list(them.dragons)))),
        (_counts(state.cmd_discard), _counts(state.dragon_discard)),
        units, leaders, node_key,
        (state.card, state.card_effect, state.card_mode, tuple(state.tokens), tuple(state.ordered), tuple(state.queue),
         tuple(state.steps)),
        tuple(sorted(tuple(sorted(g)) for g in state.grapples)), tuple(tuple(m) for m in state.markers),
        tuple(sorted(state.board.destroyed)), tuple(state.dragon_played), tuple(state.replacements),
        state.pending_grapple, tuple(sorted(state.flat)), state.next_lid, tuple(sorted(state.log.items())),
    )
