"""Policies for Ronin games: a cheap evaluation of a game in progress and the one-ply greedy
player built on it (issue 25), for cut-off playouts of a search policy and for balance verdicts
stronger than random play.

:func:`evaluate` scores a :class:`~pipeline.systems.ronin.engine.RoninState` for a player in
[-1, 1] from what both players see (it never reads a choice that is still secret, so a policy
built on it reads nothing hidden):

* Victory Points as the scenario scores them now (:meth:`RoninState.victory_points`: kills,
  captured banners, models routed off the table, the faction's and the scenario's own:
  objective held, civilians, Minor Objective, the Duel's penalties);
* wounds: a wounded enemy is part of the way to the Victory Points of its kill (Light 0.3 of its
  Rank, Grievous 0.6, Stunned 0.1); a Wavering or Routing Buntai is part of the way to losing
  the models that will run (0.1 and 0.4 of their Ranks);
* objectives: the side nearer the objective (Capture, Defence) is part of the way to holding it;
  in the Assassination the Attacker's nearest Ninja to the Defender's Leader, the Leader's
  wounds and the Ninja left; in the Tournament the matches won and the match points;

the margin is squashed by ``tanh(margin / 8)`` (a lead of 8 Victory Points is worth 0.76 of a
won game). A finished game scores +1, -1 or 0.

:data:`greedy` is :class:`pipeline.play.greedy.OnePly` over :func:`evaluate`: every action
scored by the evaluation of the state it leads to (a die roll right after it expanded exactly).

>>> from pipeline.systems.ronin.policies import greedy, evaluate
>>> greedy.evaluate is evaluate
True
"""

from __future__ import annotations

import math
import random
import weakref
from collections.abc import Hashable
from dataclasses import dataclass

from pipeline.play.greedy import OnePly, terminal_value
from pipeline.play.ismcts import ISMCTS
from pipeline.play.protocol import random_policy
from pipeline.systems.ronin.engine.game import TOUCH

#: How much of a model's Rank a wound on it is worth to the other side (the kill is worth it all).
HARM = {"none": 0.0, "light": 0.3, "grievous": 0.6}
STUNNED = 0.1
#: How much of a Buntai's Ranks its Morale puts at risk (Routing models run for the edge, p.12).
MORALE = {"steady": 0.0, "wavering": 0.1, "routing": 0.4}
#: Inches beyond a move's reach over which an enemy's pull fades to nothing (a 24-inch table).
APPROACH_IN = 24.0
#: Victory Points that make the evaluation 0.76 (tanh 1).
SCALE = 8.0


def _worth(state, m) -> float:
    """What killing ``m`` is worth to its enemy: its Rank (Rank 0 half a point, p.58); a
    civilian of Defend the Village the Attacker's 3 and the 3 the Defender no longer scores."""
    if m.p.civilian:
        return (state.sco.civilian_slain or 0.0) + (state.sco.civilian_left or 0.0)
    return 0.5 if m.p.rank == 0 else float(m.p.rank)


def _harm(state, side: int) -> float:
    """What the models of ``side`` still in play have suffered, in Victory Points to the other."""
    out = 0.0
    st = state.sides[side]
    risk = MORALE[st.morale]
    for m in state.models.values():
        if m.side != side or not m.alive or m.fled:
            continue
        r = _worth(state, m)
        out += r * (HARM[m.wound] + (STUNNED if m.stunned else 0.0) + (0.0 if m.p.civilian else risk))
    return out


def _gain(state, t, result: str) -> float:
    """What a wound-table ``result`` on ``t`` is worth to its enemy, in Victory Points (its Rank
    for a kill, a share of it for a wound; wounds combine as the errata says)."""
    now = HARM[t.wound]
    if result == "none":
        return 0.0
    if result == "stunned":
        return 0.0 if t.stunned else STUNNED * _worth(state, t)
    if result == "critical" or t.wound == "grievous" or (result == "light" and t.wound == "light") or (result == "grievous" and t.wound != "none"):
        return (1.0 - now) * _worth(state, t)
    return (HARM[result] - now) * _worth(state, t)


def _blow(state, a, t) -> float:
    """What one plain attack of ``a`` on ``t`` is worth to ``a``'s side, in Victory Points."""
    return sum(float(p) * _gain(state, t, r) for r, p in state._melee_odds(a, t, enhance_attack=False, enhance_defence=False))


#: Per game: blows worked out for models not yet in contact, by the models' ids and wounds.
_BLOWS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _far_blow(state, a, t) -> float:
    """:func:`_blow` for models not in contact (no position-dependent modifier), cached."""
    cache = _BLOWS.get(state.g)
    if cache is None:
        cache = _BLOWS[state.g] = {}
    key = (a.id, a.wound, a.civilian_fights, t.id, t.wound, t.stunned > 0)
    v = cache.get(key)
    if v is None:
        v = cache[key] = _blow(state, a, t)
    return v


def _melee_balance(state, player: int) -> float:
    """Hand-to-hand to come: a model in base contact expects to inflict, with the Combat Pool it
    has, its best target's worth (a plain attack a counter), at half weight (the fight is still
    to come); an enemy not in contact counts a quarter within a move's reach (6 inches, mounted
    12), less the farther beyond it (nothing :data:`APPROACH_IN` beyond), so models close on the
    fights they would win and keep away from the others. Ours less theirs."""
    out = 0.0
    for a in state.on_table():
        if a.p.civilian:
            continue
        pool = state.pool(a)
        if pool <= 0:
            continue
        near = [(state.dist(a, t), t) for t in state.on_table(1 - a.side)]
        foes = [t for d, t in near if d <= TOUCH]
        if foes:
            best = 0.5 * max(_blow(state, a, t) for t in foes)
        else:
            reach = state.allowance(a, "move")
            best = 0.0
            for d, t in near:
                w = 0.25 * (1.0 - max(0.0, d - reach) / APPROACH_IN)
                if w > 0:
                    best = max(best, w * _far_blow(state, a, t))
        out += (best if a.side == player else -best) * pool
    return out


def _fire(state, side: int) -> float:
    """What the missile weapons of ``side`` threaten: each shooter able to fire (not engaged,
    not Stunned, loaded) its best shot at an enemy in range and in sight, in Victory Points."""
    out = 0.0
    weapons = state.data.weapons
    for s in state.on_table(side):
        w = s.p.missile
        if w is None or s.stunned or s.p.civilian:
            continue
        wp = weapons[w]
        if (wp.reload and not s.loaded) or (wp.mounted_shoot == "forbidden" and s.p.mounted) or state.engaged(s):
            continue
        reach = wp.max_range_in or 0
        best = 0.0
        for t in state.on_table(1 - side):
            if state.dist(s, t) <= reach and state._line_of_sight(s, t):
                best = max(best, sum(float(p) * _gain(state, t, r) for r, p in state.shot_odds(s, t)))
        out += best
    return out


def _nearest(state, side: int, x: float, y: float) -> float | None:
    """Distance from the nearest model of ``side`` on the table to ``(x, y)``, inches."""
    best = None
    for m in state.on_table(side):
        if m.p.civilian:
            continue
        d = math.hypot(m.x - x, m.y - y)
        if best is None or d < best:
            best = d
    return best


def _objective_pull(state, player: int) -> float:
    """Capture and Defence: a share of the objective's Victory Points to the side nearer it."""
    vp = state.sco.objective_control
    if not vp:
        return 0.0
    pt = state._objective_point()
    if pt is None:
        return 0.0
    near = [_nearest(state, s, *pt) for s in (0, 1)]
    out = 0.0
    for s, d in enumerate(near):
        if d is not None:
            out += (1 if s == player else -1) * 0.3 * vp * max(0.0, 1.0 - d / state.table)
    return out


def _assassination(state, player: int) -> float:
    attacker = next(i for i, s in enumerate(state.sides) if s.plan.role == "Attacker")
    leader = state._leader(1 - attacker)
    if leader is None or not leader.alive:
        margin = 10.0
    else:
        margin = 10.0 * HARM[leader.wound] + (1.0 if leader.stunned else 0.0)
        d = _nearest(state, attacker, leader.x, leader.y)
        if d is not None:
            margin += 3.0 * max(0.0, 1.0 - d / state.table)
        ninja = sum(1 for m in state.buntai(attacker) if m.alive and not m.fled)
        margin += 0.5 * ninja - 0.5 * len(state.buntai(attacker))
        guards = sum(_worth(state, m) for m in state.buntai(1 - attacker) if not m.alive)
        margin += 0.2 * guards
    return margin if player == attacker else -margin


def _tournament(state, player: int) -> float:
    me, them = state.sides[player], state.sides[1 - player]
    margin = 4.0 * (me.match_wins - them.match_wins) + (me.match_points - them.match_points)
    if state.match is not None:
        for mid in state.match:
            m = state.models[mid]
            if m.alive:
                worth = 3.0 * (HARM[m.wound] + (STUNNED if m.stunned else 0.0))
                margin += worth if m.side != player else -worth
    return margin


def evaluate(state, player: int) -> float:
    """How good ``state`` is for ``player`` (0 or 1), in [-1, 1]; see the module docstring.

    Args:
        state: a :class:`~pipeline.systems.ronin.engine.RoninState`.
        player: the side (0 = the game's first side).
    """
    if state.is_terminal():
        return terminal_value(state, player)
    kind = state.sco.kind
    if kind == "tournament":
        margin = _tournament(state, player)
    elif kind == "kill_leader":
        margin = _assassination(state, player)
    else:
        vp = state.victory_points()
        margin = vp[player] - vp[1 - player]
        margin += _harm(state, 1 - player) - _harm(state, player)
        margin += _objective_pull(state, player)
    margin += _melee_balance(state, player)
    margin += 0.5 * (_fire(state, player) - _fire(state, 1 - player))
    return math.tanh(margin / SCALE)


@dataclass(frozen=True)
class RoninGreedy(OnePly):
    """:class:`~pipeline.play.greedy.OnePly` that never ends its side's Move Phase with
    ``("pass",)`` while it has another option: passing holds every model not yet activated,
    which no evaluation of the next state can see (it is the same state as a ``("hold",)``), so
    one-ply play passes at random on ties and leaves its Buntai standing."""

    def __call__(self, state, rng: random.Random) -> Hashable:
        acts = state.legal_actions()
        if len(acts) > 1 and ("pass",) in acts and state.steps and state.steps[0][0] == "move":
            return super().__call__(_Without(state, ("pass",)), rng)
        return super().__call__(state, rng)


class _Without:
    """A view of a state whose legal actions lack one (for :class:`RoninGreedy`)."""

    __slots__ = ("_s", "_drop")

    def __init__(self, state, drop):
        self._s, self._drop = state, drop

    def legal_actions(self):
        return [a for a in self._s.legal_actions() if a != self._drop]

    def __getattr__(self, name):
        return getattr(self._s, name)


#: The one-ply greedy player over :func:`evaluate` (game-agnostic :class:`OnePly`).
one_ply = OnePly(evaluate)
#: The greedy player: :class:`RoninGreedy` over :func:`evaluate`.
greedy = RoninGreedy(evaluate)

#: ISMCTS (:class:`pipeline.play.ismcts.ISMCTS`) over :func:`evaluate`: 50 iterations a
#: decision, uniform random playouts cut off at the end of the current player turn, exploration
#: 0.1 on [0, 1] rewards (the defaults measured on Genpei, benchmarks/README.md "ISMCTS"; greedy
#: playouts cost some 20 times as much here, README "Policies").
ismcts = ISMCTS(evaluate, iterations=50, playout_depth=1, exploration=0.1)

#: The Ronin policies by name, weakest first.
POLICIES = {"random": random_policy, "one_ply": one_ply, "greedy": greedy, "ismcts": ismcts}

__all__ = ["POLICIES", "RoninGreedy", "evaluate", "greedy", "ismcts", "one_ply"]
