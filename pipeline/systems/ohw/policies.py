"""Policies for OHW Samurai (issue 25): the cheap evaluation of a position for cut-off playouts
and one-ply play, and the greedy policy.

:func:`evaluate` scores a state for a player in [-1, 1] from what decides the game: the hits each
side has taken and the units it has lost ("Units are eliminated upon the acquisition of 15 or
more hits"; a side with no unit left loses at once), the firepower each side brings to bear next
(expected hits of its shooting and of its units in contact), the cover, tate and palisades its
units keep, and the scenario's objectives as
its victory counts them (control of each ``hold`` area at the end: units of one side in it and
none of the other; a ``survive`` side's units left), the objectives weighing more as the turns
run out.

:data:`greedy` is :class:`pipeline.play.greedy.OnePly` over :func:`evaluate`: it plays the action
whose resulting position scores best, a die roll the action leads to averaged over its faces.

>>> from pipeline.systems.ohw.policies import greedy, evaluate
>>> greedy.evaluate is evaluate
True
"""

from __future__ import annotations

from pipeline.measured.geometry import Rect
from pipeline.play.greedy import OnePly
from pipeline.play.ismcts import ISMCTS
from pipeline.systems.ohw.engine import OhwState, Unit

#: Weight of the share of a unit lost that is its elimination (the rest grows with its hits).
ELIMINATION_SHARE = 0.3
#: Distance (inches) from an objective area over which a unit's approach to it counts.
APPROACH_INCHES = 24.0


def _damage(st: OhwState, u: Unit, pending: tuple[str, int] | None) -> float:
    """How much of ``u`` is lost, 0 (fresh) to 1 (eliminated)."""
    if not u.alive:
        return 1.0
    limit = st.rules.elimination.hits
    hits = u.hits + (pending[1] if pending is not None and pending[0] == u.id else 0)
    if hits >= limit:
        return 1.0
    return (1 - ELIMINATION_SHARE) * hits / limit


def _expected_hits(st: OhwState, kind: str, u: Unit, t: Unit) -> float:
    """Mean hits of one D6 (``kind`` ``"shoot"`` or ``"melee"``) of ``u`` at ``t``."""
    return sum(st.hits_of(kind, u, t, v) for v in range(1, 7)) / 6


def _firepower(st: OhwState, side: int) -> float:
    """Expected hits ``side``'s units give in their next shooting and hand-to-hand phases: each
    shooter at its best target in range and arc, each unit in contact at its best contact."""
    total = 0.0
    for u in st.units.values():
        if u.side != side or not u.alive or not u.on_table:
            continue
        best = 0.0
        if u.type.shooting is not None:
            for t in st._shoot_targets(u):
                best = max(best, _expected_hits(st, "shoot", u, t))
        for t in st._contacts(u):
            best = max(best, _expected_hits(st, "melee", u, t))
        total += best
    return total


def _protection(st: OhwState, side: int) -> float:
    """Mean protection of ``side``'s units, 0 to 1: 0.4 where shooting at it is halved (cover,
    tate), 0.4 where hand-to-hand is (a palisade, a town), 0.2 for keeping its tate or palisade
    at all (it is lost for good once the unit moves)."""
    total, n = 0.0, 0
    for u in st.units.values():
        if u.side != side or not u.alive:
            continue
        n += 1
        total += 0.4 * st._in_cover(u) + 0.2 * bool(u.defences)
        total += 0.4 * ("bamboo_palisade" in u.defences or any(t.melee_halved and not t.melee_halved_only_against_attackers_off_it and r.overlaps(u.base)
                                                               for t, r in st.terrain))
    return total / n if n else 0.0


def _distance_to_area(u: Unit, area: Rect) -> float:
    x, y = u.base.centre
    dx = max(area.x - x, 0.0, x - area.x - area.w)
    dy = max(area.y - y, 0.0, y - area.y - area.h)
    return (dx * dx + dy * dy) ** 0.5


def _objective(st: OhwState, ob, me: int, health: list[float], counts: list[int]) -> float:
    """How well ``me`` stands on one objective, -1 to 1."""
    if ob.kind == "survive":
        side = st.sides.index(ob.side)
        survivors = [u for u in st.units.values() if u.side == side and u.alive]
        closing, attackers = 0.0, 0
        for u in st.units.values():
            if u.side != side and u.alive:
                attackers += 1
                d = min((u.base.distance_to(v.base) for v in survivors), default=APPROACH_INCHES)
                closing += max(0.0, 1 - d / APPROACH_INCHES)
        v = 0.8 * (2 * health[side] / max(1, counts[side]) - 1) - 0.2 * closing / max(1, attackers)
        return v if side == me else -v
    area = ob.area.rect()
    inside = [0, 0]
    approach = [0.0, 0.0]
    alive = [0, 0]
    for u in st.units.values():
        if not u.alive:
            continue
        alive[u.side] += 1
        if u.on_table and area.overlaps(u.base):
            inside[u.side] += 1
            approach[u.side] += 1.0
        else:
            approach[u.side] += max(0.0, 1 - _distance_to_area(u, area) / APPROACH_INCHES)
    held = (inside[me] > 0 and inside[1 - me] == 0) - (inside[1 - me] > 0 and inside[me] == 0)
    presence = min(1.0, inside[me] / 2) - min(1.0, inside[1 - me] / 2)
    near = approach[me] / max(1, alive[me]) - approach[1 - me] / max(1, alive[1 - me])
    return 0.5 * held + 0.25 * presence + 0.25 * near


def evaluate(state: OhwState, player: int) -> float:
    """The position for ``player`` (0 or 1, the scenario's sides in order), in [-1, 1]: +1 and -1
    only for a won or lost game, a draw 0; otherwise within 0.99 of either.

    With ``loss`` a side's mean share of its units lost (:data:`ELIMINATION_SHARE` of a unit for
    its elimination, the rest in proportion to its hits, a roll being re-rolled counted as
    applied), ``fire`` its expected hits next per enemy unit in units of the elimination
    threshold, and ``obj`` the mean over the scenario's objectives (a hold area: 1/2 control as
    the victory counts it, 1/4 units in it, 1/4 units' approach within 24"; a survive side: 4/5
    its units' health, 1 to -1, less 1/5 the attackers' approach to them within 24") and
    ``cover`` a side's mean protection (:func:`_protection`: hits halved by cover or tate,
    palisade or town; field defences kept), the score is ``(1 - w) (0.75 (loss_them - loss_me) + 0.15 (fire_me - fire_them) + 0.1
    (cover_me - cover_them)) + w obj`` with ``w`` growing from 0.25 to 0.75 over the game's
    player turns."""
    if state.is_terminal():
        w = state.winner()
        return 0.0 if w is None else (1.0 if w == player else -1.0)
    me, them = player, 1 - player
    pending = state.pending_hits()
    loss, health, counts = [0.0, 0.0], [0.0, 0.0], [0, 0]
    for u in state.units.values():
        d = _damage(state, u, pending)
        loss[u.side] += d
        health[u.side] += 1 - d if u.alive else 0.0
        counts[u.side] += 1
    material = loss[them] / max(1, counts[them]) - loss[me] / max(1, counts[me])
    limit = state.rules.elimination.hits
    fire = _firepower(state, me) / (limit * max(1, counts[them])) - _firepower(state, them) / (limit * max(1, counts[me]))
    obs = state.sc.objectives
    obj = sum(_objective(state, ob, me, health, counts) for ob in obs) / len(obs) if obs else 0.0
    progress = min(1.0, state.turns_begun / (2 * state.sc.turns))
    w = 0.25 + 0.5 * progress
    cover = _protection(state, me) - _protection(state, them)
    v = (1 - w) * (0.75 * material + 0.15 * fire + 0.1 * cover) + w * obj
    return max(-0.99, min(0.99, v))


#: The greedy policy: one ply over :func:`evaluate`.
greedy = OnePly(evaluate)

#: ISMCTS (:class:`pipeline.play.ismcts.ISMCTS`) over :func:`evaluate`: 50 iterations a
#: decision, uniform random playouts cut off at the end of the current player turn, exploration
#: 0.1 on [0, 1] rewards (the defaults measured on Genpei, benchmarks/README.md "ISMCTS"; greedy
#: playouts cost some 20 times as much here, README "Policies").
ismcts = ISMCTS(evaluate, iterations=50, playout_depth=1, exploration=0.1)

__all__ = ["evaluate", "greedy", "ismcts"]
