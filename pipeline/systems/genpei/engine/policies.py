"""Policies for Genpei games: uniform random play, and a greedy one-ply policy.

The greedy policy scores each legal action by the victory banners it is expected to bring at
once, using the exact odds of :mod:`pipeline.systems.genpei.odds` (``kill_odds``: the
probability that the roll eliminates the target, plus a small weight on the expected figures it
removes, to break ties between attacks that cannot kill). Moves are scored one ply ahead: the
best attack open from the destination, computed with the same odds, plus the temporary banner a
hex holds, less the expected Marsh loss, with a pull toward the nearest enemy. Cards and orders
go to the units with the most to attack. Ties are broken by ``rng`` so games differ.
"""

from __future__ import annotations

import random

from pipeline.play.protocol import random_policy
from pipeline.systems.genpei import odds
from pipeline.systems.genpei.engine.combat import Fighter, close_setup, max_range, ranged_setup
from pipeline.systems.genpei.engine.state import GenpeiState, Unit, marsh_entry_outcomes

#: Weight of an expected figure removed next to an expected banner.
HIT_WEIGHT = 0.05
#: Pull toward the nearest enemy, per hex.
APPROACH = 0.01
#: Value of an expected figure of one's own lost.
OWN_LOSS = 0.05

__all__ = ["greedy_policy", "random_policy", "POLICIES"]


def _attack_value(state: GenpeiState, setup, target: Unit) -> float:
    p_kill, e_hits = odds.kill_odds(state.data, setup, target.figures)
    return p_kill + HIT_WEIGHT * e_hits


#: Attack values already computed, by everything they depend on (shared by all games).
_VALUES: dict[tuple, float] = {}


def _value(state: GenpeiState, kind: str, u: Unit, h, o: Unit, moved: bool, d: int) -> float:
    b = state.board
    tk = b.tile_key
    key = (id(state.data), kind, u.type.id, tk.get(h, ()), moved, u.leader.id if u.leader else None,
           o.type.id, tk.get(o.hex, ()), b.is_naval(h), b.is_naval(o.hex), o.lying_flat, o.figures,
           b.covered(o.hex, h), d)
    v = _VALUES.get(key)
    if v is None:
        fa = Fighter(u.type, b.terrain(h), naval=b.is_naval(h), moved=moved, leader=u.leader)
        fd = state.fighter(o)
        if kind == "close":
            setup = close_setup(fa, fd, covered=b.covered(o.hex, h))
        else:
            setup = ranged_setup(fa, fd, d, covered=b.covered(o.hex, h))
        v = _VALUES[key] = _attack_value(state, setup, o) if setup.dice > 0 else 0.0
    return v


def _best_from(state: GenpeiState, u: Unit, h, cache: dict) -> float:
    """Best attack value ``u`` would have standing on ``h`` (after moving there)."""
    b = state.board
    moved = h != u.start_hex
    best = 0.0
    adjacent = False
    for _, n in b.neighbours(h):
        uid = state.at.get(n)
        if uid is None or uid == u.uid:
            continue
        o = state.units[uid]
        if o.side == u.side:
            continue
        adjacent = True
        best = max(best, _value(state, "close", u, h, o, moved, 1))
    if not adjacent and u.stats.ranged > 0:
        r = cache.get(("range", u.uid, h))
        if r is None:
            r = cache[("range", u.uid, h)] = max_range(Fighter(u.type, b.terrain(h), naval=b.is_naval(h)))
        row = b.dist[h]
        lo = u.stats.min_range
        for o in state.units.values():
            if o.side == u.side:
                continue
            d = row[o.hex]
            if lo <= d <= r:
                best = max(best, _value(state, "ranged", u, h, o, moved, d))
    return best


def _nearest_enemy(state: GenpeiState, u: Unit, h, cache: dict) -> int:
    key = ("near", u.side, h)
    d = cache.get(key)
    if d is None:
        enemies = cache.get(("enemies", u.side))
        if enemies is None:
            enemies = cache[("enemies", u.side)] = [o.hex for o in state.units.values() if o.side != u.side]
        row = state.board.dist[h]
        d = cache[key] = min((row[e] for e in enemies), default=0)
    return d


def _unit_threat(state: GenpeiState, u: Unit, cache: dict) -> float:
    key = ("threat", u.uid)
    v = cache.get(key)
    if v is None:
        v = cache[key] = _best_from(state, u, u.hex, cache) - APPROACH * _nearest_enemy(state, u, u.hex, cache)
    return v


def _score(state: GenpeiState, a, cache: dict) -> float:
    kind = a[0]
    if kind == "card":
        me = state.player
        edge = state.sides[me].edge
        units = [u for u in state.units.values() if u.side == me and a[2] in state.board.sections(u.hex, edge)]
        n = len(state.sides[me].hand) if a[1] == "advance" else {"order1": 1, "order2": 2, "order3": 3}[a[1]]
        threats = sorted((_unit_threat(state, u, cache) for u in units), reverse=True)[:n]
        return sum(t + 1.0 for t in threats)
    if kind == "order":
        return _unit_threat(state, state.units[a[1]], cache)
    if kind == "end_orders":
        return -1.0
    if kind == "move":
        u = state.units[a[1]]
        h = a[2]
        v = _best_from(state, u, h, cache) - APPROACH * _nearest_enemy(state, u, h, cache)
        if h != u.hex and state.board.entry_roll(h):
            p = marsh_entry_outcomes(state.data, u.type.standard)[0][1]
            v -= OWN_LOSS * p
        tb = state.temporary
        if tb.stronghold == u.side and h in tb.stockades:
            v += 1.0
        return v
    if kind in ("battle", "bonus"):
        if kind == "battle":
            _, uid, tid, bkind, insp = a
        else:
            _, uid, tid, insp = a
            bkind = "close"
        u, t = state.units[uid], state.units[tid]
        setup = state.setup_for(u, t, bkind, insp)
        v = _attack_value(state, setup, t)
        if setup.grapple and t.uid in state.temporary.ships and state.temporary.ship_beneficiary.get(t.uid) == u.side:
            v += 0.3  # a chance to grapple a supply ship (a temporary banner)
        return v - (0.01 if insp else 0.0)
    if kind == "destroy":
        return 0.05
    if kind == "grapple":
        return 0.0
    return 0.0


def greedy_policy(state: GenpeiState, rng: random.Random):
    """The greedy one-ply policy (see the module docstring)."""
    acts = state.legal_actions()
    if len(acts) == 1:
        return acts[0]
    if acts[0][0] == "grapple":
        return _grapple_choice(state, acts)
    # Nothing moves between the card decision and the last order: share one cache for them.
    if acts[0][0] in ("card", "order"):
        pc = getattr(state, "_policy_cache", None)
        if pc is None or pc[0] != state.turn:
            pc = (state.turn, {})
            state._policy_cache = pc  # type: ignore[attr-defined]
        cache = pc[1]
    else:
        cache = {}
    best = None
    best_v = -1e9
    for a in acts:
        v = _score(state, a, cache) + rng.random() * 1e-6
        if v > best_v:
            best, best_v = a, v
    return best


def _grapple_choice(state: GenpeiState, acts):
    """Grapple (or sever) when it costs no hit, or to grapple a supply ship that is worth a
    temporary banner to the own side; otherwise keep every sword for hits."""
    ctx = state.pending_grapple
    if ctx is None:
        return ("grapple", False)
    roller, target, lost_hits, severing = ctx
    tb = state.temporary
    if not severing and target in tb.ships and tb.ship_beneficiary.get(target) == state.units[roller].side:
        return ("grapple", True)
    return ("grapple", lost_hits == 0 and not severing)


#: Policies by name, as ``gunbai verify --play`` reports them.
POLICIES = {"random": random_policy, "greedy": greedy_policy}
