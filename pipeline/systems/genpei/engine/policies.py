"""Policies for Genpei games: uniform random play, a greedy one-ply policy, and a Monte Carlo
rollout policy built on the greedy one.

**Greedy** scores each legal action by the victory banners it is expected to bring at once,
using the exact odds of :mod:`pipeline.systems.genpei.odds` (``kill_odds``: the probability
that the roll eliminates the target, plus a small weight on the expected figures it removes).
Moves are scored one ply ahead: the best attack open from the destination, computed with the
same odds, plus the temporary banner a hex holds, less the expected Marsh loss, with a pull
toward the nearest enemy. Cards and orders go to the units with the most to attack; a lone
leader heads for a friendly unit to join; reactions (a Stockade battling first among them) and
Dragon cards are played when held; a tile's optional flag ignores are always used; H&F is taken
at the end of the turn unless the reserve is large. Ties are broken by ``rng``.

**Rollout** (:func:`rollout_policy`) decides the Command card to play, the one decision that
steers a whole turn, by flat Monte Carlo: for each card (and mode) it plays the turn out
:data:`ROLLOUTS` times from a copy of the state (``GenpeiState.clone``), then the opponent's
next turn, both sides greedy, and keeps the card with the best mean :func:`evaluate` (banners,
figures and H&F, won games counted as ±:data:`WIN_VALUE`). Every other decision is greedy's.
The budget per decision is fixed: ``ROLLOUTS × cards × HORIZON`` player turns.
"""

from __future__ import annotations

import random
from operator import itemgetter

from pipeline.play.ismcts import ISMCTS
from pipeline.play.protocol import random_policy, sample_chance
from pipeline.systems.genpei import odds
from pipeline.systems.genpei.engine.combat import Fighter, close_setup, max_range, ranged_setup
from pipeline.systems.genpei.engine.state import (
    LEADER_BASE,
    GenpeiState,
    Unit,
    marsh_entry_outcomes,
)

#: Weight of an expected figure removed next to an expected banner.
HIT_WEIGHT = 0.05
#: Pull toward the nearest enemy, per hex.
APPROACH = 0.01
#: Value of an expected figure of one's own lost.
OWN_LOSS = 0.05
#: Rollouts per candidate card of the rollout policy.
ROLLOUTS = 2
#: Player turns a rollout plays (the own turn and the opponent's next one).
HORIZON = 2
#: Value of a won (lost) game in :func:`evaluate`.
WIN_VALUE = 10.0

__all__ = ["ISMCTS_POLICY", "LADDER", "POLICIES", "evaluate", "evaluation", "greedy_policy", "random_policy", "rollout_policy"]

#: The cache keys of the tables of side 0 and side 1 (made once, not per lookup).
_NEAR_KEY = (("near", 0), ("near", 1))
_ENEMY_HEXES_KEY = (("enemy_getter", 0), ("enemy_getter", 1))
_RANGED_KEY = (("enemy_units", 0), ("enemy_units", 1))


def _table(store: dict, key) -> dict:
    """The dict kept in ``store`` (a policy cache, or ``Board.shared`` for the scenario) under
    ``key``, made empty on first use."""
    table = store.get(key)
    if table is None:
        table = store[key] = {}
    return table


def _attack_value(state: GenpeiState, setup, figures: int) -> float:
    p_kill, e_hits = odds.kill_odds(state.data, setup, figures)
    return p_kill + HIT_WEIGHT * e_hits


def _values(b) -> dict:
    """The scenario's cache of attack values (:func:`_best_with`): the attacker's part of the
    key (kind, unit type id, tile ids and sea of its hex, dice, card dice) → the target's part
    (:func:`_value_uncached`) → value; shared by its games through ``Board.shared``."""
    return _table(b.shared, "greedy_attack_values")


def _long_shot(b, ut) -> bool:
    """Unit type ``ut`` fires one hex beyond its range with 1 die (rule ``long_shot``), per
    scenario."""
    shots = _table(b.shared, "greedy_long_shot")
    got = shots.get(ut.id)
    if got is None:
        got = shots[ut.id] = any(r.id == "long_shot" for r in ut.rules)
    return got


def _setups(b) -> dict:
    """The scenario's cache of attack rolls (:class:`~.combat.Setup`) of :func:`_value_uncached`,
    keyed by all the roll depends on but the target's figures (``odds.kill_odds`` takes those),
    shared by its games through ``Board.shared``."""
    return _table(b.shared, "greedy_setups")


def _target_ids(b) -> dict:
    """The scenario's numbering of attack targets: ``(unit type id, tile ids of its hex, at sea,
    lying flat, figures)`` → a number, a multiple of 4 (the two low bits are left for the
    covered hexside and the long shot of :func:`_best_with`'s value keys), shared by its games."""
    return _table(b.shared, "greedy_target_ids")


def _value_uncached(state: GenpeiState, row: dict, t: int, akey: tuple, u: Unit, h, o: Unit, moved: bool,
                    d: int) -> float:
    """The attack value (:func:`_attack_value`, never inspired) of ``u`` standing on ``h``
    (``moved`` there) at ``o`` ``d`` hexes away, stored in ``row`` (the value table of the
    attacker's part ``akey`` in :func:`_values`) under ``t`` (the target's number in
    :func:`_target_ids`, plus 2 across a covered hexside, plus 1 beyond a long shot's range):
    the keys hold all the roll depends on, so that any ``moved`` and ``d`` they stand for give
    this same value. The roll itself is looked up in :func:`_setups` first."""
    b = state.board
    kind, bonus = akey[0], akey[5]
    covered = bool(t & 2)
    oh = o.hex
    skey = akey + (o.type.id, b.tile_key.get(oh, ()), oh in b._naval, o.lying_flat, covered, bool(t & 1))
    setups = _setups(b)
    setup = setups.get(skey)
    if setup is None:
        fa = Fighter(u.type, b.terrain(h), naval=h in b._naval, moved=moved, leader=u.leader)
        fd = state.fighter(o)
        if kind == "close":
            setup = close_setup(fa, fd, covered=covered, bonus_dice=bonus)
        else:
            setup = ranged_setup(fa, fd, d, covered=covered, bonus_dice=bonus)
        setups[skey] = setup
    v = row[t] = _attack_value(state, setup, o.figures) if setup.dice > 0 else 0.0
    return v


def _enemy_table(state: GenpeiState, side: int, cache: dict) -> tuple[dict, frozenset, dict]:
    """The enemies of ``side`` as they stand: hex → unit, the set of those hexes, and a table
    hex → ``(unit, its number in`` :func:`_target_ids` ``, the covered hexsides of its hex or
    None)`` filled as targets are asked (:func:`_target_entry`); kept in ``cache`` until a unit
    is lost or defects (Turncoat)."""
    ek = ("enemies_at", side, len(state.units), state.log.get("turncoat_defected", 0))
    got = cache.get(ek)
    if got is None:
        enemy_at = {o.hex: o for o in state.units.values() if o.side != side}
        got = cache[ek] = (enemy_at, frozenset(enemy_at), {})
    return got


def _target_entry(b, info: dict, o: Unit) -> tuple:
    """``o``'s entry in the target table ``info`` of :func:`_enemy_table`, made and stored."""
    oh = o.hex
    ids = _target_ids(b)
    desc = (o.type.id, b.tile_key.get(oh, ()), oh in b._naval, o.lying_flat, o.figures)
    t = ids.get(desc)
    if t is None:
        t = ids[desc] = 4 * len(ids)
    got = info[oh] = (o, t, b.palisade_sides.get(oh))
    return got


def _ranged_table(cache: dict, side: int, now: tuple[dict, frozenset, dict]) -> tuple[dict, frozenset]:
    """The enemies ranged attacks of ``side`` look at: the table of :func:`_enemy_table` when
    first asked (``now``), then kept for the life of ``cache`` (no enemy moves or falls while it
    lives, card to move)."""
    got = cache.get(_RANGED_KEY[side])
    if got is None:
        got = cache[_RANGED_KEY[side]] = now
    return got


def _best_from(state: GenpeiState, u: Unit, h, cache: dict) -> float:
    """Best attack value ``u`` would have standing on ``h`` (after moving there), cached per
    turn by the unit's properties that change it and the hex."""
    per_hex = _best_table(u, cache)
    got = per_hex.get(h)
    if got is not None:
        return got
    return _best_from_uncached(state, u, h, cache, per_hex)


def _best_table(u: Unit, cache: dict) -> dict:
    """The hex → best attack value table of :func:`_best_from` for ``u`` as it is now."""
    key = ("best", u.uid, u.bonus_close, u.bonus_ranged, u.no_ranged, u.leader.id if u.leader else None)
    return _table(cache, key)


def _max_range_at(state: GenpeiState, u: Unit, h) -> int:
    """How far ``u`` fires from ``h``: per unit type and the tiles and sea of ``h``, cached for
    the scenario."""
    b = state.board
    rk = (u.type.id, b.tile_key.get(h, ()), h in b._naval)
    ranges = _table(b.shared, "max_range")
    r = ranges.get(rk)
    if r is None:
        r = ranges[rk] = max_range(Fighter(u.type, b.terrain(h), naval=h in b._naval))
    return r


def _fire_zones(state: GenpeiState, u: Unit) -> dict | None:
    """hex → the hexes a unit of ``u``'s type standing there reaches by ranged combat (those
    within its :func:`_max_range_at`), filled as asked and kept for the scenario per set of
    destroyed tiles (:attr:`Board.destroyed`); ``None`` when ``u`` may not fire at all."""
    if u.stats.ranged <= 0 or u.no_ranged:
        return None
    b = state.board
    all_zones = _table(b.shared, "greedy_fire_zones")
    key = (u.type.id, b.destroyed)
    zones = _table(all_zones, key)
    return zones


def _best_from_uncached(state: GenpeiState, u: Unit, h, cache: dict, per_hex: dict) -> float:
    """:func:`_best_from` worked out and stored in ``per_hex`` (:func:`_best_table`): the best
    attack value over the enemies next to ``h`` (close combat), or when there is none and the
    unit may fire, over the enemies in its range from ``h`` (ranged combat)."""
    return _best_with(state, u, h, cache, per_hex, _enemy_table(state, u.side, cache), _fire_zones(state, u))


def _best_with(state: GenpeiState, u: Unit, h, cache: dict, per_hex: dict, now: tuple[dict, frozenset, dict],
               zones: dict | None) -> float:
    """:func:`_best_from_uncached` with the enemy table ``now`` (:func:`_enemy_table`) and the
    unit's :func:`_fire_zones` looked up by the caller. Each attack value is looked up in
    :func:`_values` by a key built inline (the attacker's part once per hex)."""
    b = state.board
    near = b.adjacent_set[h]
    if not now[1].isdisjoint(near):  # enemies next to h (set operations, no loop over the enemies)
        kind, targets, enemies, info = "close", now[1] & near, now[0], now[2]
        bonus = u.bonus_close
    elif zones is not None:
        zone = zones.get(h)
        if zone is None:
            zone = zones[h] = b.within(h, _max_range_at(state, u, h))
        enemies, hexes, info = _ranged_table(cache, u.side, now)
        targets = zone & hexes  # a set operation, not a loop over every enemy
        if not targets:
            per_hex[h] = 0.0
            return 0.0
        kind, row, lo = "ranged", b.dist[h], u.stats.min_range
        bonus = u.bonus_ranged
    else:
        per_hex[h] = 0.0
        return 0.0
    # The keys hold all the roll depends on (combat.close_setup, ranged_setup, odds.kill_odds):
    # moving counts only through the dice it leaves (after-move dice on land), the distance
    # only beyond the range of a long shot; the rest as the tiles, sea, types, card dice,
    # the target's figures and lying flat, and a covered hexside (Board.covered) give it. The
    # attacker's part is one tuple per hex; the target's part a number (_enemy_table, _target_ids)
    # with a bit for a covered hexside and one for a long shot beyond the range.
    moved = h != u.start_hex
    naval_h = h in b._naval
    st = u.stats
    after_move = moved and not naval_h
    if kind == "close":
        dice = st.close_after_move if after_move else st.close
        dist, far = None, 99  # adjacent: distance 1, never a long shot
    else:
        dice = st.ranged_after_move if after_move else st.ranged
        dist, far = row, (st.max_range if _long_shot(b, u.type) else 99)
    akey = (kind, u.type.id, b.tile_key.get(h, ()), naval_h, dice, bonus)
    by_target = _table(_values(b), akey)
    best = 0.0
    d = 1
    for oh in targets:
        if dist is not None:
            d = dist[oh]
            if d < lo:
                continue
        x = info.get(oh)
        o, t, sides = x if x is not None else _target_entry(b, info, enemies[oh])
        if sides and b.bearing(oh, h) in sides:
            t += 2
        if d > far:
            t += 1
        v = by_target.get(t)
        if v is None:
            v = _value_uncached(state, by_target, t, akey, u, h, o, moved, d)
        if v > best:
            best = v
    per_hex[h] = best
    return best


def _nearest_enemy(state: GenpeiState, side: int, h, cache: dict) -> int:
    """Hexes from ``h`` to the nearest enemy unit of ``side`` (0 when none), cached for the
    life of ``cache`` (the enemies as they stood when first asked)."""
    near = _near_table(side, cache)
    d = near.get(h)
    if d is None:
        d = _nearest_uncached(state, side, h, cache, near)
    return d


def _near_table(side: int, cache: dict) -> dict:
    """The hex → nearest enemy distance table of :func:`_nearest_enemy` for ``side``."""
    return _table(cache, _NEAR_KEY[side])


def _hex_rows(b) -> tuple[dict, list]:
    """The board's hexes numbered (hex → number, in :attr:`Board.dist` order) and, per hex
    number, its distances in hexes to every hex as ``bytes`` indexed by number: looked up by an
    ``operator.itemgetter`` of the enemies' numbers in one C call, without hashing a hex per
    enemy. Made once per scenario (``Board.shared``); a board wider than 255 hexes raises
    ``ValueError``."""
    got = b.shared.get("greedy_hex_rows")
    if got is None:
        dist = b.dist
        hexes = list(dist)
        num = {h: i for i, h in enumerate(hexes)}
        rows = [bytes(dist[h][x] for x in hexes) for h in hexes]
        got = b.shared["greedy_hex_rows"] = (num, rows)
    return got


def _enemy_getter(state: GenpeiState, side: int, now: tuple[dict, frozenset, dict] | None):
    """An ``operator.itemgetter`` of the numbers (:func:`_hex_rows`) of the hexes of the enemies
    of ``side`` (those of the enemy table ``now`` when given), giving a tuple of distances from
    a hex's row (a lone enemy's number taken twice); ``None`` when there is no enemy."""
    num = _hex_rows(state.board)[0]
    hexes = [o.hex for o in state.units.values() if o.side != side] if now is None else list(now[0])
    if not hexes:
        return None
    ids = [num[x] for x in hexes]
    return itemgetter(*ids) if len(ids) > 1 else itemgetter(ids[0], ids[0])


def _nearest_parts(state: GenpeiState, side: int, cache: dict, now: tuple[dict, frozenset, dict] | None = None) -> tuple:
    """``(getter, hex numbers, distance rows)``: what :func:`_nearest_uncached` reads, for a
    caller scoring many hexes to read inline (``min(getter(rows[numbers[h]]))``, 0 when the
    getter is ``None``: no enemy). The getter (:func:`_enemy_getter`) is kept in ``cache``."""
    key = _ENEMY_HEXES_KEY[side]
    if key in cache:
        get = cache[key]
    else:
        get = cache[key] = _enemy_getter(state, side, now)
    num, rows = _hex_rows(state.board)
    return get, num, rows


def _nearest_uncached(state: GenpeiState, side: int, h, cache: dict, near: dict,
                      now: tuple[dict, frozenset, dict] | None = None) -> int:
    """:func:`_nearest_enemy` worked out and stored in ``near`` (:func:`_near_table`); the
    enemies' hexes are those of the enemy table ``now`` (:func:`_enemy_table`) when the caller
    has it, the same hexes. Their distances are read from ``h``'s row of :func:`_hex_rows` by
    one getter (:func:`_enemy_getter`) kept in ``cache`` (:func:`_nearest_parts`)."""
    get, num, rows = _nearest_parts(state, side, cache, now)
    d = near[h] = min(get(rows[num[h]])) if get is not None else 0
    return d


def _threats(cache: dict) -> dict:
    """The uid → :func:`_unit_threat` table of ``cache``."""
    return _table(cache, "threat")


def _unit_threat(state: GenpeiState, u: Unit, cache: dict) -> float:
    """What ``u`` threatens where it stands: its best attack value from its hex
    (:func:`_best_from`) less the pull toward the nearest enemy, cached per unit for the life of
    ``cache``."""
    threats = _threats(cache)
    v = threats.get(u.uid)
    if v is None:
        v = threats[u.uid] = _threat_uncached(state, u, cache)
    return v


def _threat_uncached(state: GenpeiState, u: Unit, cache: dict) -> float:
    """:func:`_unit_threat` worked out (the caller stores it)."""
    h = u.hex
    side = u.side
    per_hex = _best_table(u, cache)
    best = per_hex.get(h)
    if best is None:
        best = _best_with(state, u, h, cache, per_hex, _enemy_table(state, side, cache), _fire_zones(state, u))
    near = _near_table(side, cache)
    d = near.get(h)
    if d is None:
        d = _nearest_uncached(state, side, h, cache, near)
    return best - APPROACH * d


def _fill_threats(state: GenpeiState, side: int, units: list, cache: dict, known: dict) -> None:
    """:func:`_threat_uncached` of each of ``units`` (of ``side``), stored in ``known``
    (:func:`_threats`), with the enemy and nearest-enemy tables looked up once."""
    now = _enemy_table(state, side, cache)
    near = _near_table(side, cache)
    enemy_hexes, adjacent = now[1], state.board.adjacent_set
    nearest = None  # the parts of _nearest_parts, looked up at the first hex not in ``near``
    for u in units:
        h = u.hex
        per_hex = _best_table(u, cache)
        best = per_hex.get(h)
        if best is None:
            if u.stats.ranged <= 0 or u.no_ranged:
                if enemy_hexes.isdisjoint(adjacent[h]):  # no enemy next to h, no ranged combat: 0 at once
                    best = per_hex[h] = 0.0
                else:
                    best = _best_with(state, u, h, cache, per_hex, now, None)
            else:
                best = _best_with(state, u, h, cache, per_hex, now, _fire_zones(state, u))
        d = near.get(h)
        if d is None:
            if nearest is None:
                nearest = _nearest_parts(state, side, cache, now)
            get, num, rows = nearest
            d = near[h] = min(get(rows[num[h]])) if get is not None else 0
        known[u.uid] = best - APPROACH * d


def _card_value(state: GenpeiState, card: str, mode, cache: dict) -> float:
    me = state.player
    info = state.decks.info[card]
    eff = info.effect
    if eff == "first_strike":
        return -5.0  # kept for the opponent's turn
    # the own units: the same for every card of one decision (none is lost or gained meanwhile)
    mk = ("mine", me, len(state.units), state.log.get("turncoat_defected", 0))
    mine = cache.get(mk)
    if mine is None:
        mine = cache[mk] = [u for u in state.units.values() if u.side == me]
    naval = state.board.is_naval
    if eff == "section":
        section, secs = info.section, state.board.sections_at[state.sides[me].edge]
        pool = [u for u in mine if section in secs[u.hex]]
        n = len(state.sides[me].hand) if info.orders == "hand" else int(info.orders)  # type: ignore[arg-type]
        bonus = 0.0
    elif eff == "cavalry_charge":
        pool = [u for u in mine if naval(u.hex)] if mode == "naval" else [u for u in mine if u.type.mounted and not naval(u.hex)]
        n, bonus = (4, 0.15) if pool else (1, 0.0)
        pool = pool or mine
    elif eff == "infantry_onslaught" and mode == "naval":
        pool, n, bonus = [u for u in mine if naval(u.hex)], 4, 0.1
    elif eff == "shogun":
        pool, n, bonus = mine, max(1, round(0.6 * len(state.sides[me].hand))), 0.15
    else:
        pool, n, bonus = mine, 1, 0.0
    known = _threats(cache)
    missing = [u for u in pool if u.uid not in known]
    if missing:
        _fill_threats(state, me, missing, cache, known)
    threats = [known[u.uid] for u in pool]
    threats.sort(reverse=True)
    return sum(t + 1.0 + bonus for t in threats[:n])


def _leader_target_value(state: GenpeiState, u: Unit, lid: int, kind: str, insp: bool) -> float:
    setup = state.leader_setup_for(u, state.leaders[lid], kind, insp)
    p_kill, _ = odds.kill_odds(state.data, setup, 1)
    return p_kill


def _friend_pull(state: GenpeiState, side: int, h, mounted: bool) -> float:
    """How close ``h`` is to a friendly unit a leader could join (negative distance)."""
    row = state.board.dist[h]
    best = 99
    for u in state.units.values():
        if u.side == side and u.leader is None and not (u.type.mounted and not mounted):
            best = min(best, row[u.hex])
    return -float(best)


def _enemy_distance(state: GenpeiState, side: int, h) -> int:
    row = state.board.dist[h]
    return min((row[o.hex] for o in state.units.values() if o.side != side), default=9)


def _score_card(state: GenpeiState, a, cache: dict) -> float:
    return _card_value(state, a[1], a[2], cache)


def _score_order(state: GenpeiState, a, cache: dict) -> float:
    pid = a[1]
    if pid >= LEADER_BASE:
        return 0.2
    return _unit_threat(state, state.units[pid], cache)


def _score_move(state: GenpeiState, a, cache: dict) -> float:
    pid, h = a[1], a[2]
    if pid >= LEADER_BASE:
        le = state.leaders[pid]
        uid = state.at.get(h)
        if uid is not None and h != le.hex:
            return 5.0  # joins a unit
        return _friend_pull(state, le.side, h, le.type.mounted) + 0.1 * min(3, _enemy_distance(state, le.side, h))
    u = state.units[pid]
    v = _best_from(state, u, h, cache) - APPROACH * _nearest_enemy(state, u.side, h, cache)
    if h != u.hex and state.board.entry_roll(h):
        p = marsh_entry_outcomes(state.data, u.type.standard)[0][1]
        v -= OWN_LOSS * p
    if h in state.lat:
        v += 0.5  # joins a lone leader
    tb = state.temporary
    if tb.stronghold == u.side and h in tb.stockades:
        v += 1.0
    return v


def _score_battle(state: GenpeiState, a, cache: dict) -> float:
    if a[0] == "battle":
        _, uid, tid, bkind, insp = a
    else:
        _, uid, tid, insp = a
        bkind = "close"
    u = state.units[uid]
    if tid >= LEADER_BASE:
        return _leader_target_value(state, u, tid, bkind, insp) - (0.01 if insp else 0.0)
    t = state.units[tid]
    setup = state.setup_for(u, t, bkind, insp)
    v = _attack_value(state, setup, t.figures)
    if setup.grapple and t.uid in state.temporary.ships and state.temporary.ship_beneficiary.get(t.uid) == u.side:
        v += 0.3  # a chance to grapple a supply ship (a temporary banner)
    return v - (0.01 if insp else 0.0)


def _score_dragon(state: GenpeiState, a, cache: dict) -> float:
    t = state.units[a[2]]
    return 0.3 + 0.05 * t.figures + 0.1 * t.stats.close


def _score_yes(state: GenpeiState, a, cache: dict) -> float:
    return 1.0 if a[1] else 0.0


def _score_inspire(state: GenpeiState, a, cache: dict) -> float:
    return 1.0 if a[1] and state.sides[state.current_player()].hf >= 2 else 0.0


def _score_ignore_flags(state: GenpeiState, a, cache: dict) -> float:
    """Ignore every flag the tile lets the unit ignore (stand rather than retreat)."""
    return float(a[1])


def _score_retreat(state: GenpeiState, a, cache: dict) -> float:
    me = state.units[a[1]].side
    h = a[2]
    v = 0.1 * min(4, _enemy_distance(state, me, h))
    if state.board.entry_roll(h):
        v -= 0.5
    return v


def _score_escape(state: GenpeiState, a, cache: dict) -> float:
    le = state.leaders[a[1]]
    h = a[2]
    if h == "off":
        return 0.1
    if h in state.at:
        return 2.0
    return 0.5 + 0.1 * _friend_pull(state, le.side, h, le.type.mounted)


def _score_take_ground(state: GenpeiState, a, cache: dict) -> float:
    return 0.5 if a[2] else 0.0


def _score_discard(state: GenpeiState, a, cache: dict) -> float:
    c = a[1]
    if c is None:
        return 0.0
    return 1.0 if state.decks.info[c].effect == "unknown" else -1.0


def _score_eot(state: GenpeiState, a, cache: dict) -> float:
    hf = state.sides[state.player].hf
    return (1.0 if hf >= 6 else 0.0) if a[1] == "dragon" else 0.5


def _score_keep(state: GenpeiState, a, cache: dict) -> float:
    return _card_value(state, a[1], None, cache)


def _constant(v: float):
    def score(state: GenpeiState, a, cache: dict) -> float:
        return v
    return score


_ZERO = _constant(0.0)

#: The scoring function of each action kind (a kind not listed scores 0).
_SCORERS = {
    "card": _score_card, "order": _score_order, "detach": _constant(-1.0), "end_orders": _constant(-1.0),
    "move": _score_move, "battle": _score_battle, "bonus": _score_battle, "destroy": _constant(0.05),
    "pass": _ZERO, "no_dragon": _ZERO, "dragon": _score_dragon, "challenge": _score_yes, "react": _score_yes,
    "inspire": _score_inspire, "ignore_flags": _score_ignore_flags, "retreat": _score_retreat, "escape": _score_escape, "seppuku": _ZERO,
    "take_ground": _score_take_ground, "discard": _score_discard, "eot": _score_eot, "keep": _score_keep,
}


def _score(state: GenpeiState, a, cache: dict) -> float:
    """The greedy value of action ``a`` (module docstring): by its kind, :data:`_SCORERS`."""
    return _SCORERS.get(a[0], _ZERO)(state, a, cache)


def greedy_policy(state: GenpeiState, rng: random.Random):
    """The greedy one-ply policy (see the module docstring)."""
    acts = state.legal_actions()
    if len(acts) == 1:
        return acts[0]
    if acts[0][0] == "grapple":
        return _grapple_choice(state, acts)
    # No enemy moves or falls between the card decision and the last move of a turn: one cache
    # serves them all (its values depend on enemy positions and the own units' properties).
    if state.phase in ("card", "alongside", "order", "move") and state.node is None:
        pc = getattr(state, "_policy_cache", None)
        if pc is None or pc[0] != state.turn:
            pc = (state.turn, {})
            state._policy_cache = pc  # type: ignore[attr-defined]
        cache = pc[1]
    else:
        cache = {}
    if state.phase == "move" and state.node is None and acts[0][1] < LEADER_BASE:
        return _best_move(state, acts, cache, rng)
    best = None
    best_v = -1e9
    rand = rng.random
    if acts[0][0] == "order":
        # the order phase: the threats of the candidates (as _score gives them), looked up once
        threats = _threats(cache)
        units = state.units
        for a in acts:
            if a[0] == "order":
                pid = a[1]
                if pid >= LEADER_BASE:
                    v = 0.2
                else:
                    v = threats.get(pid)
                    if v is None:
                        v = threats[pid] = _threat_uncached(state, units[pid], cache)
            else:
                v = _SCORERS.get(a[0], _ZERO)(state, a, cache)
            v = v + rand() * 1e-6
            if v > best_v:
                best, best_v = a, v
        return best
    scorers = _SCORERS
    for a in acts:
        v = scorers.get(a[0], _ZERO)(state, a, cache) + rand() * 1e-6
        if v > best_v:
            best, best_v = a, v
    return best


def _best_move(state: GenpeiState, acts: list, cache: dict, rng: random.Random):
    """The greedy choice among the moves ``("move", uid, hex)`` of one unit: the same scores,
    in the same order, with the same tie-breaking draws as :func:`_score` gives them, with what
    depends on the unit alone looked up once instead of once per destination."""
    u = state.units[acts[0][1]]
    side = u.side
    b = state.board
    entry_roll = b._entry_roll
    lat = state.lat
    tb = state.temporary
    stockades = tb.stockades if tb.stronghold == side else ()
    here = u.hex
    marsh = None
    rand = rng.random
    best = None
    best_v = -1e9
    per_hex = _best_table(u, cache)
    near = _near_table(side, cache)
    now = zones = None  # the enemy table and fire zones: looked up at the first destination not scored
    nearest = None  # the parts of _nearest_parts, looked up at the first destination not in ``near``
    adjacent = b.adjacent_set
    for a in acts:
        h = a[2]
        attack = per_hex.get(h)
        if attack is None:
            if now is None:
                now = _enemy_table(state, side, cache)
                zones = _fire_zones(state, u)
            if zones is None and now[1].isdisjoint(adjacent[h]):  # no enemy next to h, no ranged combat
                attack = per_hex[h] = 0.0
            else:
                attack = _best_with(state, u, h, cache, per_hex, now, zones)
        d = near.get(h)
        if d is None:
            if nearest is None:
                nearest = _nearest_parts(state, side, cache, now)
            get, num, rows = nearest
            d = near[h] = min(get(rows[num[h]])) if get is not None else 0
        v = attack - APPROACH * d
        if h in entry_roll and h != here:
            if marsh is None:
                marsh = marsh_entry_outcomes(state.data, u.type.standard)[0][1]
            v -= OWN_LOSS * marsh
        if h in lat:
            v += 0.5  # joins a lone leader
        if h in stockades:
            v += 1.0
        v = v + rand() * 1e-6
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


def evaluate(state: GenpeiState, side: int) -> float:
    """How well ``side`` stands: ±:data:`WIN_VALUE` for a won or lost game, else banners
    (temporary ones included) plus 0.1 per figure and 0.02 per H&F token, each less the
    enemy's."""
    w = state.winner()
    if w is not None:
        return WIN_VALUE if w == side else -WIN_VALUE
    figs = [0, 0]
    for u in state.units.values():
        figs[u.side] += u.figures
    e = 1 - side
    return (state.banners(side) - state.banners(e)) + 0.1 * (figs[side] - figs[e]) + 0.02 * (state.sides[side].hf - state.sides[e].hf)


def _play_out(state: GenpeiState, rng: random.Random, turns: int) -> None:
    stop = state.turn_count() + turns
    while not state.is_terminal() and state.turn_count() < stop:
        if state.is_chance_node():
            state.apply_action(sample_chance(state.chance_outcomes(), rng))
        else:
            state.apply_action(greedy_policy(state, rng))


def rollout_policy(state: GenpeiState, rng: random.Random):
    """Flat Monte Carlo over the Command card to play; greedy elsewhere (module docstring)."""
    acts = state.legal_actions()
    if len(acts) == 1 or acts[0][0] != "card":
        return greedy_policy(state, rng)
    me = state.current_player()
    best, best_v = None, -1e9
    for a in acts:
        total = 0.0
        for _ in range(ROLLOUTS):
            sim = state.clone()
            sim.apply_action(a)
            _play_out(sim, rng, HORIZON)
            total += evaluate(sim, me)
        v = total / ROLLOUTS + rng.random() * 1e-6
        if v > best_v:
            best, best_v = a, v
    return best


#: Policies by name, as ``gunbai verify --play`` reports them (the last is the strongest, whose
#: games give a scenario's balance verdict).
POLICIES = {"random": random_policy, "greedy": greedy_policy, "rollout": rollout_policy}


def evaluation(state: GenpeiState, side: int) -> float:
    """:func:`evaluate` scaled to [-1, 1] for search (:class:`pipeline.play.ismcts.ISMCTS`):
    divided by :data:`WIN_VALUE` and clamped, so that a won game is +1, a lost one -1, and a lead
    of one banner 0.1 (a figure 0.01, an H&F token 0.002)."""
    v = evaluate(state, side) / WIN_VALUE
    return 1.0 if v > 1.0 else -1.0 if v < -1.0 else v


#: ISMCTS for Genpei (:class:`pipeline.play.ismcts.ISMCTS`): :func:`evaluation` at the cut-off,
#: greedy playouts and greedy's pick as the prior. The parameters are those the measurements of
#: ``benchmarks/bench_ismcts.py`` chose (benchmarks/README.md, "ISMCTS").
ISMCTS_POLICY = ISMCTS(evaluation, iterations=50, playout_depth=1, exploration=0.1, playout=greedy_policy, prior_bias=1.0)

#: The strength ladder of the Genpei policies, weakest first (:mod:`pipeline.play.ladder`).
LADDER = (("random", random_policy), ("greedy", greedy_policy), ("rollout", rollout_policy), ("ismcts", ISMCTS_POLICY))

