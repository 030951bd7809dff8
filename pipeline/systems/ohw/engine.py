"""OHW Samurai rules engine on a measured table, to the state protocol of :mod:`pipeline.play`.

A game is 15 turns of two player turns; each player turn runs the seed's sequence: movement
(an orders roll per unit, erratum ``orders_roll_per_unit``), shooting, hand-to-hand (one-sided:
only the phasing player's units inflict hits), eliminating units (15 hits). A General may re-roll
any die roll of his side and must keep the re-roll (a decision node after the roll; erratum
``general_reroll`` in ``sources.yaml``: the reading of ``system.yaml`` ``general.reroll``, every
roll of his side, or only his own unit's).

Decision nodes (``current_player()`` 0 or 1 = the scenario's sides in order) and their actions:

* movement of a unit out of contact: ``("hold",)``, ``("advance", "enemy", enemy_id)`` toward
  an enemy unit (any of them) or ``("advance", objective_id)`` toward an objective's area (turn
  on the centre at the start, move straight, stop before contact), ``("charge", enemy_id)`` (turn at most 45 degrees at the start, straight on
  until any point of it touches the enemy, then conform to the face it is on; one attacker per
  face), ``("face", enemy_id)`` (pivot to face);
* movement of a unit in contact: ``("stay",)``, ``("turn_to_face", enemy_id)`` (only when not
  engaged frontally: pivot on the centre to face that enemy in its flank or rear, the enemies in
  contact conforming), ``("retire",)`` (a full move directly away, engaging no one);
* shooting: ``("shoot", enemy_id)``; hand-to-hand: ``("fight", enemy_id)``;
* after a roll the General may re-roll (while his unit stands): ``("accept",)`` or
  ``("reroll",)``.

Chance nodes are single D6 rolls, outcomes 1-6. Geometry comes from
:mod:`pipeline.measured`. Abstractions of the engine (not rules): a move is one straight line
(with the allowed pivots); a charging unit conforms flush and centred to the face it reaches;
woods block shooting on the line between centres.

Impassable ground (issue 27, "Woods. Impassible", "Marshland and lakes. These are impassable to
all units", "Rivers - These may only be crossed via bridges and fords"): no move, pivot, charge,
retirement or conforming unit crosses or ends on woods, marshland or a lake, or on a river except
where a ford or bridge covers the base (erratum ``river_crossing_width``). A unit turning to face
pivots on its centre and keeps its tate or palisade (erratum ``turn_to_face_pivot``); a move gets
the road bonus only when the centre's whole path is on the road (erratum ``road_move``); a charge
reaches its target when any point of the charger can touch it (erratum ``charge_reach``). The
rules the engine plays, with their sources: :data:`pipeline.systems.ohw.rules.ENGINE_RULES`.

Rules as written (issue 13): units in contact shoot and are shot at like any other (the seed's
shooting rules have no exclusion; erratum ``shooting_in_contact``); a hill halves hand-to-hand
hits only when the attacker is not on the same hill (erratum ``hill_defence``).

Distances between bases are kept in a :class:`~pipeline.measured.geometry.DistanceCache` for
the whole game (contacts are asked for at every decision).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from pipeline.measured.geometry import (
    Base,
    DistanceCache,
    Rect,
    angle_between,
    bearing,
    contact_position,
    covered_length,
    first_contact,
    polygons_overlap,
    swept_overlaps,
)
from pipeline.measured.movement import Ground, furthest, pivot_clear, reach_courses
from pipeline.systems.ohw.data import OhwData
from pipeline.systems.ohw.model import Scenario, UnitType

D6 = [(f, 1 / 6) for f in range(1, 7)]


@dataclass
class Unit:
    id: str
    side: int
    type: UnitType
    base: Base
    arrives: int
    general: bool = False
    defences: set[str] = field(default_factory=set)
    hits: int = 0
    alive: bool = True
    on_table: bool = False

    def copy(self) -> Unit:
        """An independent copy (its own set of defences; the base and type are values)."""
        return Unit(self.id, self.side, self.type, self.base, self.arrives, self.general, set(self.defences), self.hits, self.alive, self.on_table)


@dataclass
class _Roll:
    kind: str  # orders | shoot | melee
    unit: str
    target: str | None = None
    value: int | None = None
    rerolled: bool = False


class OhwState:
    """A game of one scenario. ``OhwState(data, scenario)`` is the start of turn 1."""

    def __init__(self, data: OhwData, scenario: Scenario):
        self.data = data
        self.sc = scenario
        self.rules = data.system
        self.sides = [s.id for s in scenario.sides]
        first = self.sides.index(scenario.first_side)
        self.order = [first, 1 - first]
        self.table = data.system.table.rect()
        self.terrain = [(data.terrain[t.terrain], t.area.rect()) for t in scenario.terrain]
        self.ground = Ground(impassable=tuple(r for t, r in self.terrain if not t.passable and not t.crossed_at_crossings),
                             fordable=tuple(r for t, r in self.terrain if not t.passable and t.crossed_at_crossings),
                             crossings=tuple(r for t, r in self.terrain if t.crossing))
        self.roads = [r for t, r in self.terrain if t.road]
        self.objectives = {o.id: o for o in scenario.objectives}
        deps = {d.id: d for d in scenario.deployments}
        self.units: dict[str, Unit] = {}
        for up in scenario.units:
            ut = data.units[up.unit]
            self.units[up.id] = Unit(up.id, self.sides.index(up.side), ut, Base(up.x, up.y, up.facing, ut.base.width, ut.base.depth),
                                     deps[up.deployment].arrives, up.general is not None, set(up.defences))
        self.turn = 1
        self.player_turn = 0  # index into self.order
        self.turns_begun = 0
        self.phase = "start"
        self.queue: list[str] = []
        self.roll: _Roll | None = None
        self.allowance = 0.0
        self._winner: int | None = None
        self.done = False
        self.history: list = []
        self._memo: dict = {}
        self.distances = DistanceCache()
        self._begin_player_turn()

    # ------------------------------------------------------------------ protocol
    @property
    def active(self) -> int:
        return self.order[self.player_turn]

    def current_player(self) -> int:
        if self.done or self.is_chance_node():
            return -1
        return self.active

    def is_chance_node(self) -> bool:
        return not self.done and self.roll is not None and self.roll.value is None

    def chance_outcomes(self):
        return D6

    def is_terminal(self) -> bool:
        return self.done

    def winner(self) -> int | None:
        return self._winner

    def returns(self) -> list[float]:
        if self._winner is None:
            return [0.0, 0.0]
        return [1.0 if i == self._winner else -1.0 for i in range(2)]

    def turn_count(self) -> int:
        return self.turns_begun

    def legal_actions(self) -> list[tuple]:
        if self.done or self.is_chance_node():
            return []
        if self.roll is not None:
            return [("accept",), ("reroll",)]
        u = self.units[self.queue[0]]
        if self.phase == "movement":
            return self._move_options(u)
        if self.phase == "shooting":
            return [("shoot", t.id) for t in self._shoot_targets(u)]
        return [("fight", t.id) for t in self._contacts(u)]

    # ------------------------------------------------------------------ search hooks
    def clone(self) -> OhwState:
        """An independent copy (:class:`pipeline.play.SearchState`): the units, the queue, the
        pending roll and the history are copied; the rules, the terrain and the distance cache
        are shared (the cache holds distances between base positions, which are values, so it is
        right for every copy); the per-decision memo starts empty."""
        c = object.__new__(OhwState)
        c.__dict__.update(self.__dict__)
        c.units = {k: u.copy() for k, u in self.units.items()}
        c.queue = list(self.queue)
        c.roll = None if self.roll is None else _Roll(self.roll.kind, self.roll.unit, self.roll.target, self.roll.value, self.roll.rerolled)
        c.history = list(self.history)
        c._memo = {}
        return c

    def determinize(self, player: int, rng) -> OhwState:
        """A clone: OHW hides nothing from either player. Every unit, its hits and defences are on
        the table for both to see; what neither knows is only the dice still to be rolled, and
        those are chance nodes of the state, not part of it. ``rng`` is not drawn from."""
        return self.clone()

    def information_key(self, player: int) -> tuple:
        """What ``player`` sees, which is the whole state (perfect information): the turn, phase,
        queue, pending roll and allowance, and every unit's side, base, hits, defences and
        whether it is alive and on the table."""
        r = self.roll
        return (self.turn, self.player_turn, self.turns_begun, self.phase, tuple(self.queue),
                None if r is None else (r.kind, r.unit, r.target, r.value, r.rerolled), self.allowance, self.done, self._winner,
                tuple((u.id, u.side, u.base.x, u.base.y, u.base.facing, u.hits, u.alive, u.on_table, tuple(sorted(u.defences)))
                      for u in self.units.values()))

    def pending_hits(self) -> tuple[str, int] | None:
        """The hits a rolled but not yet applied shot or hand-to-hand roll will give (while the
        General decides whether to re-roll it): ``(target id, hits)``, else None."""
        r = self.roll
        if r is None or r.value is None or r.kind == "orders":
            return None
        return r.target, self.hits_of(r.kind, self.units[r.unit], self.units[r.target], r.value)

    def apply_action(self, action) -> None:
        self.history.append(action)
        self._memo.clear()
        if self.is_chance_node():
            self.roll.value = int(action)
            if not self._may_reroll(self.roll):
                self._resolve_roll()
            return
        if self.roll is not None:
            if action[0] == "reroll":
                self.roll = replace(self.roll, value=None, rerolled=True)
            else:
                self._resolve_roll()
            return
        u = self.units[self.queue[0]]
        if self.phase == "movement":
            self._do_move(u, action)
        elif self.phase == "shooting":
            self.roll = _Roll("shoot", u.id, action[1])
            return
        else:
            self.roll = _Roll("melee", u.id, action[1])
            return
        self._next()

    # ------------------------------------------------------------------ flow
    def _begin_player_turn(self) -> None:
        self.turns_begun += 1
        for u in self.units.values():
            if u.alive and not u.on_table and u.side == self.active and u.arrives <= self.turn:
                if not any(o.on_table and o.alive and o.base.overlaps(u.base) for o in self.units.values()):
                    u.on_table = True
        self._enter("movement")

    def _enter(self, phase: str) -> None:
        self.phase = phase
        mine = [u for u in self.units.values() if u.alive and u.on_table and u.side == self.active]
        if phase == "movement":
            self.queue = [u.id for u in mine]
        elif phase == "shooting":
            self.queue = [u.id for u in mine if u.type.shooting and self._shoot_targets(u)]
        elif phase == "hand_to_hand":
            self.queue = [u.id for u in mine if self._contacts(u)]
        self._advance_queue()

    def _advance_queue(self) -> None:
        while True:
            if self.done:
                return
            if self.queue:
                u = self.units[self.queue[0]]
                if not u.alive or (self.phase == "shooting" and not self._shoot_targets(u)) or (self.phase == "hand_to_hand" and not self._contacts(u)):
                    self.queue.pop(0)
                    continue
                if self.phase == "movement" and self.roll is None:
                    self.roll = _Roll("orders", u.id)
                return
            if self.phase == "movement":
                self._enter_phase("shooting")
                return
            if self.phase == "shooting":
                self._enter_phase("hand_to_hand")
                return
            self._eliminate()
            if self.done:
                return
            if self.player_turn == 0:
                self.player_turn = 1
            else:
                self.player_turn = 0
                self.turn += 1
                if self.turn > self.sc.turns:
                    self._end_game()
                    return
            self._begin_player_turn()
            return

    def _enter_phase(self, phase: str) -> None:
        self._enter(phase)

    def _next(self) -> None:
        self.queue.pop(0)
        self._advance_queue()

    def _resolve_roll(self) -> None:
        r = self.roll
        self.roll = None
        u = self.units[r.unit]
        if r.kind == "orders":
            o = self.rules.orders
            need = o.damaged_full_move_on if u.hits >= o.damaged_at_hits else o.full_move_on
            self.allowance = u.type.move.inches - (0 if r.value >= need else o.reduced_by_inches)
            return  # the unit's movement decision follows
        target = self.units[r.target]
        target.hits += self.hits_of(r.kind, u, target, r.value)
        self._next()

    def hits_of(self, kind: str, u: Unit, target: Unit, value: int) -> int:
        """Hits ``u`` gives ``target`` with a die showing ``value``: ``kind`` ``"shoot"``
        (Shooting: Assess Casualties; cover and tate halve, rounding for the shooter) or
        ``"melee"`` (Hand-to-Hand Combat: Assess Casualties; a halving reason halves once,
        rounding for the attacker, then a flank or rear attack doubles: errata
        halvings_do_not_compound, halve_then_double)."""
        if kind == "shoot":
            hits = max(0, value + u.type.shooting.modifier)
            if self._in_cover(target):
                hits = -(-hits // self.rules.shooting.cover_divisor)
            return hits
        hits = max(0, value + u.type.melee.modifier)
        face = target.base.face_towards(u.base.centre)
        halved = (target.type.melee.halved_if_attacked_frontally and face == "front") or self._defends_terrain(target, u) or "bamboo_palisade" in target.defences
        if halved:
            hits = -(-hits // self.rules.hand_to_hand.halving_divisor)
        if face != "front":
            hits *= self.rules.hand_to_hand.flank_rear_multiplier
        return hits

    def _eliminate(self) -> None:
        for u in self.units.values():
            if u.alive and u.hits >= self.rules.elimination.hits:
                u.alive = False
                u.on_table = False
        for side in (0, 1):
            if not any(u.alive and u.side == side for u in self.units.values()):
                self.done = True
                self._winner = 1 - side
                return

    def _end_game(self) -> None:
        self.done = True
        holders = []
        for ob in self.sc.objectives:
            if ob.kind == "survive":
                side = self.sides.index(ob.side)
                alive = any(u.alive and u.side == side for u in self.units.values())
                holders.append(side if alive else 1 - side)
            else:
                area = ob.area.rect()
                present = {u.side for u in self.units.values() if u.alive and u.on_table and area.overlaps(u.base)}
                holders.append(next(iter(present)) if len(present) == 1 else None)
        self._winner = holders[0] if holders and all(h == holders[0] for h in holders) else None

    # ------------------------------------------------------------------ geometry
    def _others(self, u: Unit) -> list[Unit]:
        return [o for o in self.units.values() if o is not u and o.alive and o.on_table]

    def _enemies(self, u: Unit) -> list[Unit]:
        return [o for o in self._others(u) if o.side != u.side]

    def _contacts(self, u: Unit) -> list[Unit]:
        """Enemy units touching ``u`` (distances from the game's cache)."""
        touches = self.distances.touches
        return [o for o in self.units.values() if o.side != u.side and o.alive and o.on_table and touches(u.base, o.base)]

    def _may_reroll(self, roll: _Roll) -> bool:
        """Whether the General may re-roll this roll (once; he keeps the second value): any roll
        of his side (reading ``own_side``) or only of his own unit (``own_unit``), while his unit
        stands."""
        if roll.rerolled:
            return False
        u = self.units[roll.unit]
        if self.rules.general.reroll == "own_unit":
            return u.general
        return any(g.general and g.alive and g.on_table and g.side == u.side for g in self.units.values())

    def _in_cover(self, u: Unit) -> bool:
        return "tate" in u.defences or any(t.shooting_cover and r.overlaps(u.base) for t, r in self.terrain)

    def _defends_terrain(self, u: Unit, attacker: Unit) -> bool:
        """``u`` defends terrain that halves hand-to-hand hits against ``attacker``: a town or
        river crossing it stands in, or a hill it stands on that the attacker is not on
        (erratum ``hill_defence``)."""
        return any(t.melee_halved and r.overlaps(u.base) and not (t.melee_halved_only_against_attackers_off_it and r.overlaps(attacker.base))
                   for t, r in self.terrain)

    def _sight_blocked(self, a: Base, b: Base) -> bool:
        line = [a.centre, b.centre]
        return any(t.blocks_sight and polygons_overlap(line, r.corners(), eps=0.0) for t, r in self.terrain)

    def _shoot_targets(self, u: Unit) -> list[Unit]:
        key = ("targets", u.id, u.base)
        if key not in self._memo:
            self._memo[key] = self._find_targets(u)
        return self._memo[key]

    def _find_targets(self, u: Unit) -> list[Unit]:
        s = u.type.shooting
        if s is None:
            return []
        out = []
        for e in self._enemies(u):
            if self.distances.within(u.base, e.base, s.range_inches) and u.base.sees(e.base, self.rules.shooting.arc_half_angle_degrees) and not self._sight_blocked(u.base, e.base):
                out.append(e)
        return out

    def _nearest_enemy(self, u: Unit) -> Unit | None:
        es = self._enemies(u)
        return min(es, key=lambda e: math.dist(u.base.centre, e.base.centre)) if es else None

    def _passable(self, u: Unit):
        skirmish = {x.base for x in self.units.values() if x.alive and x.on_table and x.type.skirmisher}

        def ok(o: Base) -> bool:
            return u.type.skirmisher or o in skirmish

        return ok

    def _straight(self, u: Unit, facing: float, distance: float) -> Base:
        """``u`` pivoted on its centre to ``facing`` and moved straight ahead up to ``distance``
        inches: stopping before impassable ground, another unit it may not pass through, the
        table edge, and 0.25" short of any enemy."""
        start = u.base.turned(facing)
        others = [o.base for o in self._others(u)]
        enemies = [o.base for o in self._enemies(u)]
        return furthest(start, facing, distance, table=self.table, ground=self.ground, others=others, passable=self._passable(u), keep_off=enemies)

    def _may_pivot(self, u: Unit, facing: float, ignore: tuple[Unit, ...] = ()) -> bool:
        """``u`` may pivot on its centre to ``facing``: its corners cross no impassable ground
        and no unit it may not pass through, and it ends on no unit (:func:`pivot_clear`)."""
        others = [o.base for o in self._others(u) if o not in ignore]
        return pivot_clear(u.base, facing, table=self.table, ground=self.ground, others=others, passable=self._passable(u))

    def _move_options(self, u: Unit) -> list[tuple]:
        contacts = self._contacts(u)
        if contacts:
            opts: list[tuple] = [("stay",), ("retire",)]
            faces = {u.base.face_towards(e.base.centre) for e in contacts}
            if "front" not in faces and self.rules.hand_to_hand.turn_to_face_if_not_frontally_engaged:
                opts += [("turn_to_face", e.id) for e in contacts if self._turn_to_face(u, e) is not None]
            return opts
        opts = [("hold",)]
        near = self._nearest_enemy(u)
        for e in self._enemies(u):
            if self._may_pivot(u, bearing(u.base.centre, e.base.centre)):
                opts.append(("advance", "enemy", e.id))
        for ob in self.sc.objectives:
            if ob.area is not None and not ob.area.rect().overlaps(u.base) and self._may_pivot(u, bearing(u.base.centre, ob.area.rect().centre())):
                opts.append(("advance", ob.id))
        for e in self._enemies(u):
            if self._charge_to(u, e) is not None:
                opts.append(("charge", e.id))
        if near is not None:
            facing = bearing(u.base.centre, near.base.centre)
            if angle_between(u.base.facing, facing) > 45 and self._may_pivot(u, facing):
                opts.append(("face", near.id))
        return opts

    def _charge_to(self, u: Unit, e: Unit) -> Base | None:
        """Where ``u`` ends a charge on ``e``, or None when it cannot reach it.

        Reach is measured as the rules do ("moving the attacking unit into contact with its
        target", erratum ``charge_reach``): a pivot on the centre of at most 45 degrees, then
        straight ahead, within the orders allowance, until any point of ``u`` touches any point
        of ``e`` (:func:`~pipeline.measured.movement.reach_courses`), on a path clear of
        impassable ground and of units ``u`` may not pass through. The face charged is the face of
        ``e`` that ``u`` is on (by ``e``'s diagonals), one attacker a face; ``u`` then conforms:
        it stands flush against that face, centred on it and facing it, on the table and on no
        unit or impassable ground."""
        limit = self.rules.charge.max_turn_degrees
        slack = 2 * u.base.radius * math.sin(math.radians(limit) / 2)  # how far a corner moves in the pivot
        if not self.distances.within(u.base, e.base, self.allowance + slack):
            return None
        face = e.base.face_towards(u.base.centre)
        if self.rules.charge.one_attacker_per_face and any(o.side == u.side and e.base.face_towards(o.base.centre) == face for o in self._contacts(e)):
            return None
        others = [o for o in self._others(u) if o is not e]
        end = contact_position(u.base, e.base, face)
        if not self.table.contains(end) or not self.ground.base_clear(end) or any(end.overlaps(o.base) for o in others):
            return None
        passable = self._passable(u)

        def clear(dist: float, course: float) -> bool:
            start = u.base.turned(course)
            touch = start.moved(dist, course)
            if not self._may_pivot(u, course, ignore=(e,)) or not self.ground.path_clear(start, touch):
                return False
            return not any(swept_overlaps(start, touch, o.base) and not passable(o.base) for o in others)

        # the usual charges first: straight ahead, or turned toward where it will stand
        quick = [u.base.facing]
        toward = bearing(u.base.centre, end.centre)
        if angle_between(u.base.facing, toward) <= limit + 1e-9:
            quick.append(toward)
        for course in quick:
            dist = first_contact(u.base.turned(course), course, e.base)
            if 1e-6 <= dist <= self.allowance + 1e-9 and clear(dist, course):
                return end
        for dist, course in reach_courses(u.base, e.base, limit, self.allowance):
            if dist >= 1e-6 and clear(dist, course):
                return end
        return None

    def _turn_to_face(self, u: Unit, attacker: Unit) -> dict[str, Base] | None:
        """``u`` turning to face ``attacker`` in its flank or rear ("Units turn by pivoting on
        their central point", erratum ``turn_to_face_pivot``): the new bases of ``u`` (pivoted on
        its centre until the attacked face is its front; its centre does not move, so it keeps
        its tate and palisade) and of every enemy in contact with it, each conformed flush and
        centred on the face of ``u`` it now touches (the attacker on its front). None when the
        pivot or a conformed unit would cross or end on impassable ground or another unit, or
        leave the table."""
        out = {"front": 0.0, "right": 90.0, "rear": 180.0, "left": 270.0}
        face = u.base.face_towards(attacker.base.centre)
        if face == "front":
            return None
        turn = out[face]
        contacts = self._contacts(u)
        if not self._may_pivot(u, u.base.facing + turn, ignore=tuple(contacts)):
            return None
        new = u.base.turned(u.base.facing + turn)
        placed = {u.id: new}
        by_face = {v: k for k, v in out.items()}
        for e in contacts:
            old = out[u.base.face_towards(e.base.centre)]
            placed[e.id] = contact_position(e.base, new, by_face[(old - turn) % 360.0])
        moved = set(placed)
        for uid, b in placed.items():
            if uid != u.id and (not self.table.contains(b) or not self.ground.base_clear(b)):
                return None
            if any(b.overlaps(placed[v]) for v in placed if v != uid):
                return None
            if any(b.overlaps(o.base) for o in self.units.values() if o.alive and o.on_table and o.id not in moved):
                return None
        return placed

    def _do_move(self, u: Unit, action: tuple) -> None:
        before = u.base
        kind = action[0]
        if kind == "advance":
            if action[1] == "enemy":
                goal = self.units[action[2]].base.centre
            else:
                goal = self.objectives[action[1]].area.rect().centre()
            course = bearing(u.base.centre, goal)
            u.base = self._straight(u, course, self._move_length(u, course, math.dist(u.base.centre, goal)))
        elif kind == "charge":
            end = self._charge_to(u, self.units[action[1]])
            if end is not None:
                u.base = end
        elif kind == "face":
            u.base = u.base.turned(bearing(u.base.centre, self.units[action[1]].base.centre))
        elif kind == "retire":
            enemy = self._contacts(u)[0]
            away = bearing(enemy.base.centre, u.base.centre)
            u.base = furthest(u.base, away, u.type.move.inches, table=self.table, ground=self.ground,
                              others=[o.base for o in self._others(u) if o is not enemy], passable=self._passable(u),
                              keep_off=[o.base for o in self._enemies(u)], gap=0.1)
        elif kind == "turn_to_face":
            placed = self._turn_to_face(u, self.units[action[1]])
            for uid, b in (placed or {}).items():
                o = self.units[uid]
                moved = b.centre != o.base.centre
                o.base = b
                if moved and o is not u:
                    self._lose_defences(o)
        if u.base.centre != before.centre:
            self._lose_defences(u)

    def _lose_defences(self, u: Unit) -> None:
        """Tate and palisades are removed "if the unit moves" (its centre moved)."""
        u.defences -= {d for d in u.defences if self.data.defences[d].removed_if_unit_moves}

    def _move_length(self, u: Unit, course: float, to_goal: float) -> float:
        """How far ``u`` moves along ``course`` (inches): its allowance, or up to the road bonus
        more when its entire move is spent on the road ("if their entire move is spent on the
        road", erratum ``road_move``: the centre's whole path on road features), never past
        ``to_goal``."""
        plain = min(self.allowance, to_goal)
        if not self.roads:
            return plain
        longest = min(self.allowance + self.rules.road.bonus_inches, to_goal)
        on_road = covered_length(u.base.centre, course, longest, self.roads)
        return max(plain, min(longest, on_road))


def new_game(data: OhwData, scenario: Scenario) -> OhwState:
    return OhwState(data, scenario)


__all__ = ["OhwState", "Rect", "Unit", "new_game"]
