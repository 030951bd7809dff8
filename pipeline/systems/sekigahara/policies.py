"""Policies for The Reluctant Samurai (issue 25): the cheap evaluation of a position for cut-off
playouts and one-ply play, and the greedy policy.

The evaluation plays to gunbai's own victory condition (:data:`~pipeline.systems.sekigahara.engine.VICTORY_NOTE`:
the rules text gives none): a side whose army commander is eliminated loses at once, otherwise
the side that removed more enemy stands wins. :func:`evaluate` scores a state for a player in
[-1, 1] from the stands each side has removed, the stands the melees under way and the shooters
in range are expected to remove next, the charges each side has on offer that favour it, the
danger to each army commander (a leader is lost on a 6 when his unit loses bases in melee, or in
a personal combat), the margin counting for more as the turns run out.

:data:`greedy` is :class:`pipeline.play.greedy.OnePly` over :func:`evaluate`.

>>> from pipeline.systems.sekigahara.policies import greedy, evaluate
>>> greedy.evaluate is evaluate
True
"""

from __future__ import annotations

import math

from pipeline.play.greedy import OnePly
from pipeline.play.ismcts import ISMCTS
from pipeline.systems.sekigahara.engine import SekiState, Unit

#: Stands of margin that count as half a won game at the start of the game (the scale shrinks to
#: half of it by the last turn: the same margin is worth more when less time is left to undo it).
MARGIN_STANDS = 6.0
#: Value of an army commander whose unit is in melee (he is lost on a 6 whenever it loses bases).
COMMANDER_RISK = 0.25
#: Value of a leader who is not an army commander (one more base in melee for his unit).
LEADER_VALUE = 0.05


def _rate(st: SekiState, u: Unit, vs: Unit, limit: int | None = None) -> float:
    """Expected hits of one melee round of ``u`` against ``vs`` (bases and leader)."""
    stands, hit_on, leader = st._dice(u, vs, limit)
    p = (7 - hit_on) / 6
    return stands * p + ((7 - st.r.leaders.hit_on) / 6 if leader else 0.0)


def _melee_exchange(st: SekiState, side: int) -> float:
    """Stands ``side``'s engaged units are expected to remove in the next melee round, less the
    stands the enemy's are expected to remove from it."""
    out = 0.0
    for u in st.units.values():
        if not u.alive or u.side is None:
            continue
        foes = st._engaged_with(u.id)
        if not foes:
            continue
        target = st.targets.get(u.id) if st.targets.get(u.id) in foes else foes[0]
        limit = None
        for m in st.engagements:
            if m.b == u.id and m.flank and m.round == 1:
                limit = st.r.flank_attack.defender_bases
        hits = _rate(st, u, st.units[target], limit)
        out += hits if u.side == side else -hits
    return out


def _shooting(st: SekiState, side: int) -> float:
    """Stands ``side``'s shooters are expected to remove next (one hit per 6), less the enemy's."""
    out = 0.0
    p = (7 - st.r.shooting.hit_on) / 6
    for u in st.units.values():
        if u.alive and u.side is not None and u.type.shoots and st._targets(u):
            out += u.stands * p if u.side == side else -u.stands * p
    return out


def _charges_on_offer(st: SekiState, side: int) -> float:
    """For every unengaged unit of ``side``, the best melee edge (its expected hits less the
    enemy's) over the enemies it could charge from where it stands (within 6" and in its front
    90 degrees), counted when positive; less the same for the enemy."""
    reach = st.r.charge.max_inches
    out = 0.0
    for u in st.units.values():
        if not u.alive or u.side is None or st._in_melee(u.id):
            continue
        best = 0.0
        for e in st._enemies(u):
            if st.distances.within(u.base, e.base, reach) and u.base.sees(e.base, 45):
                best = max(best, _rate(st, u, e) - _rate(st, e, u))
        out += best if u.side == side else -best
    return out


def _commander_risk(st: SekiState, side: int) -> float:
    """How exposed ``side``'s army commander is: 1 with his unit in melee, 0.4 with an enemy unit
    within 12" of it (a move and a charge), 0.1 elsewhere with a unit, 0 alone ("Leaders may not
    be targeted individually")."""
    risk = 0.0
    for ld in st.leaders.values():
        if not (ld.alive and ld.commander and ld.side == side and ld.unit is not None):
            continue
        u = st.units[ld.unit]
        if st._in_melee(u.id):
            risk += 1.0
        elif any(st.distances.within(u.base, e.base, 2 * st.r.charge.max_inches) for e in st._enemies(u)):
            risk += 0.4
        else:
            risk += 0.1
    return risk


def _duel_offered(st: SekiState, me: int) -> float:
    """A personal combat one side has agreed to and the other is asked about: what ``me`` stands
    to gain if it is fought (even odds; an army commander's death ends the game, another leader
    is one base of melee, :data:`LEADER_VALUE`)."""
    if st.pending is not None or not st.steps or st.steps[0][0] != "duel" or st.steps[0][1] != st.leaders[st.steps[0][2][1]].side:
        return 0.0  # no duel waiting on the second leader's side
    a, b = (st.leaders[x] for x in st.steps[0][2])
    value = {ld.id: (1.0 if ld.commander else LEADER_VALUE) for ld in (a, b)}
    mine = a if a.side == me else b
    theirs = b if mine is a else a
    return 0.5 * (value[theirs.id] - value[mine.id])


def evaluate(state: SekiState, player: int) -> float:
    """The position for ``player`` (0 East, 1 West) in [-1, 1]: +1 and -1 only for a won or lost
    game, a draw 0; otherwise within 0.99 of either.

    ``margin`` = enemy stands removed - own stands removed + the expected exchange of the melees
    under way + that of the shooters with a target + half the favourable charges on offer;
    the score is ``tanh(margin / scale)`` (``scale`` from :data:`MARGIN_STANDS` at the start to
    half of it on the last turn) less :data:`COMMANDER_RISK` times the own army commander's
    exposure (:func:`_commander_risk`), plus it times the enemy's, plus the even-odds stake of a personal combat one side has agreed
    to (:func:`_duel_offered`)."""
    if state.is_terminal():
        w = state.winner()
        return 0.0 if w is None else (1.0 if w == player else -1.0)
    me, them = player, 1 - player
    margin = state.removed(them) - state.removed(me)
    margin += _melee_exchange(state, me) + _shooting(state, me) + 0.5 * _charges_on_offer(state, me)
    progress = min(1.0, state.turns_begun / state.sc.turns)
    scale = MARGIN_STANDS * (1 - 0.5 * progress)
    v = math.tanh(margin / scale) - COMMANDER_RISK * (_commander_risk(state, me) - _commander_risk(state, them)) + _duel_offered(state, me)
    return max(-0.99, min(0.99, v))


#: The greedy policy: one ply over :func:`evaluate`.
greedy = OnePly(evaluate)

#: ISMCTS (:class:`pipeline.play.ismcts.ISMCTS`) over :func:`evaluate`: 50 iterations a
#: decision, uniform random playouts cut off at the end of the current player turn, exploration
#: 0.1 on [0, 1] rewards (the defaults measured on Genpei, benchmarks/README.md "ISMCTS"; greedy
#: playouts cost some 20 times as much here, README "Policies").
ismcts = ISMCTS(evaluate, iterations=50, playout_depth=1, exploration=0.1)

__all__ = ["evaluate", "greedy", "ismcts"]

