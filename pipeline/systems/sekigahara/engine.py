"""The Reluctant Samurai rules engine on a measured table, to the state protocol of
:mod:`pipeline.play`.

Each turn follows the seed's sequence: the treachery roll (from turn 2 while Kobayakawa is
undecided; the reading of ``system.yaml``), East moves, East shoots, West moves, West shoots,
charges (East first), melee (simultaneous), with the last stand removed at once.

Rules as written (issue 13, seed "Charge into Melee", "Flank Attacks", "Movement", "Leaders"):

* a unit may charge an enemy that is already in melee, so flank and rear charges on engaged
  units and melees of several units happen. In a melee of several units each unit rolls all its
  bases against one enemy unit it is engaged with, its player's choice each round (erratum
  ``multi_unit_melee``); a unit charged in the flank or rear fights back with two bases in the
  first round of that engagement;
* leaders are pieces of their own: in its side's move phase a leader may stay with its unit,
  detach (stand alone beside it; a lone leader may not be targeted) or join a friendly unit
  without a leader within its move; commanders move 12" (erratum ``who_are_commanders``:
  every leader is a commander of his contingent). A leader whose unit is destroyed survives
  alone unless his loss roll kills him (erratum ``leader_of_destroyed_unit``);
* the victory condition is **gunbai's own** (the rules text gives none): a side whose army
  commander is eliminated loses at once; otherwise the side that removed more enemy stands wins
  (:data:`VICTORY_NOTE`, printed with every playability verdict).

Decisions (player 0 = East, 1 = West): a unit's move ``("hold",)``, ``("advance", enemy_id)``
(toward that enemy unit, any of them, up to 6", stopping short of contact), ``("face",)``
(toward the nearest enemy); a leader's move
``("stay",)``, ``("detach",)``, ``("join", unit_id)``; shooting ``("shoot", id)``; charges
``("no_charge",)`` or ``("charge", id)`` (only at an enemy in its front 90 degrees that the
shortest straight move of at most 6" brings any point of it into contact with, then conformed
flush and centred on the face it is on: erratum ``charge_reach``); the enemy unit a unit in several engagements fights
``("fight", id)``; personal combat ``("duel",)`` / ``("decline",)``. Chance nodes: the treachery
D6 (outcomes ``east``/``west``/``undecided`` with their chances), the hits of a shot or of a
unit's melee roll (a count, its binomial chance), a leader's loss roll and a duel
(``win``/``lose``). Abstractions (not rules): a move is one straight line; leaders move freely
(small figures are not blocked by units); the undecided contingent is inert (erratum
``undecided_contingent``). Units never move, pivot or charge through other units (erratum
``no_interpenetration``); the rules text has no terrain rules, so the features of the field are
scenery. The rules the engine plays, with their sources:
:data:`pipeline.systems.sekigahara.rules.ENGINE_RULES`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import icepool

from pipeline.measured.geometry import (
    Base,
    DistanceCache,
    bearing,
    closest_points,
    contact_position,
    swept_overlaps,
)
from pipeline.measured.movement import furthest, pivot_clear
from pipeline.systems.sekigahara.data import UNDECIDED, SekiData
from pipeline.systems.sekigahara.model import Scenario, UnitType
from pipeline.systems.sekigahara.odds import treachery_roll

EAST, WEST = 0, 1

#: Said with every verdict that uses the victory condition (the rules text gives none).
VICTORY_NOTE = "victory condition: gunbai's own, not the rules text's (commander lost = defeat; else more enemy stands removed)"


@dataclass
class Unit:
    """A unit on the table: ``side`` is None while undecided; ``stands`` left of ``start``."""

    id: str
    side: int | None
    type: UnitType
    base: Base
    stands: int
    start: int
    alive: bool = True


@dataclass
class Leader:
    """A leader: attached to ``unit`` (its id), or alone at ``(x, y)`` when ``unit`` is None.
    ``commander``: the army's commander (the scenario's side commander)."""

    id: str
    name: str
    side: int | None
    commander: bool
    unit: str | None
    x: float = 0.0
    y: float = 0.0
    alive: bool = True


@dataclass
class Engagement:
    """Two units in melee: ``a`` charged ``b``; ``flank``: into ``b``'s flank or rear (``b`` fights
    back with two bases in the first ``round``)."""

    a: str
    b: str
    flank: bool
    round: int = 1


@lru_cache(maxsize=256)
def _hits(stands: int, hit_on: int, leader: bool, leader_on: int) -> tuple[tuple[int, float], ...]:
    """Chances of each number of hits: ``stands`` D6 hitting on ``hit_on``, and a leader's die on
    ``leader_on`` (exact, with ``icepool``; remembered, the same few rolls recur)."""
    die = stands @ (icepool.d6 >= hit_on)
    if leader:
        die = die + (icepool.d6 >= leader_on)
    return tuple((int(k), float(Fraction(die.probability(k)))) for k in die.outcomes() if die.probability(k) > 0)


class SekiState:
    """A game of one scenario; ``SekiState(data, scenario)`` is the start of turn 1
    (``reading`` overrides the treachery reading of ``system.yaml``)."""

    def __init__(self, data: SekiData, scenario: Scenario, reading: str | None = None):
        self.data = data
        self.sc = scenario
        self.r = data.system
        self.rows = self.r.treachery.rows(reading)
        self.table = self.r.table.rect()
        self.units: dict[str, Unit] = {}
        self.leaders: dict[str, Leader] = {}
        commanders = {s.id: s.commander for s in scenario.sides}
        for up in scenario.units:
            side = None if up.side == UNDECIDED else (EAST if up.side == "east" else WEST)
            self.units[up.id] = Unit(up.id, side, data.units[up.unit], data.base_of(up), up.stands, up.stands)
            if up.leader is not None:
                army_commander = up.leader.commander and commanders.get(up.side) == up.leader.name
                self.leaders[up.id] = Leader(up.id, up.leader.name, side, army_commander, up.id, up.x, up.y)
        self.turn = 1
        self.turns_begun = 0
        self.decided: int | None = None
        self.engagements: list[Engagement] = []
        self.steps: list[tuple] = []  # pending steps of the turn: (kind, player, payload)
        self.pending = None  # chance node: (kind, outcomes, payload)
        self.targets: dict[str, str] = {}  # melee: unit id -> the enemy unit it fights this round
        self._losses: dict[str, int] = {}
        self._dueled: set[str] = set()
        self._winner: int | None = None
        self.done = False
        self.distances = DistanceCache()
        self._start_turn()

    # ---------------------------------------------------------------- search hooks
    def clone(self) -> SekiState:
        """An independent copy (:class:`pipeline.play.SearchState`): units, leaders,
        engagements, the pending steps and the melee's choices and losses are copied; the rules,
        the treachery rows and the distance cache are shared (distances between base positions,
        which are values, are right for every copy)."""
        c = object.__new__(SekiState)
        c.__dict__.update(self.__dict__)
        c.units = {k: Unit(u.id, u.side, u.type, u.base, u.stands, u.start, u.alive) for k, u in self.units.items()}
        c.leaders = {k: Leader(ld.id, ld.name, ld.side, ld.commander, ld.unit, ld.x, ld.y, ld.alive) for k, ld in self.leaders.items()}
        c.engagements = [Engagement(m.a, m.b, m.flank, m.round) for m in self.engagements]
        c.steps = list(self.steps)
        c.targets = dict(self.targets)
        c._losses = dict(self._losses)
        c._dueled = set(self._dueled)
        return c

    def determinize(self, player: int, rng) -> SekiState:
        """A clone: nothing is hidden in The Reluctant Samurai. Both players see every unit, its
        stands and its leader; Kobayakawa's choice is a die roll still to come (a chance node,
        not part of the state), undecided for both alike. ``rng`` is not drawn from."""
        return self.clone()

    def information_key(self, player: int) -> tuple:
        """What ``player`` sees, which is the whole state (perfect information)."""
        return (self.turn, self.turns_begun, self.decided, self.done, self._winner, tuple(self.steps),
                None if self.pending is None else (self.pending[0], self.pending[2]), tuple(sorted(self.targets.items())), tuple(sorted(self._losses.items())),
                tuple((u.id, u.side, u.base.x, u.base.y, u.base.facing, u.stands, u.alive) for u in self.units.values()),
                tuple((ld.id, ld.side, ld.unit, ld.x, ld.y, ld.alive) for ld in self.leaders.values()),
                tuple((m.a, m.b, m.flank, m.round) for m in self.engagements))

    # ---------------------------------------------------------------- protocol
    def current_player(self) -> int:
        if self.done or self.pending is not None:
            return -1
        return self.steps[0][1]

    def is_chance_node(self) -> bool:
        return not self.done and self.pending is not None

    def chance_outcomes(self):
        return self.pending[1]

    def is_terminal(self) -> bool:
        return self.done

    def winner(self) -> int | None:
        return self._winner

    def returns(self) -> list[float]:
        return [0.0, 0.0] if self._winner is None else [1.0 if i == self._winner else -1.0 for i in (0, 1)]

    def turn_count(self) -> int:
        return self.turns_begun

    def legal_actions(self) -> list[tuple]:
        if self.done or self.pending is not None:
            return []
        kind, _player, payload = self.steps[0]
        if kind == "move":
            u = self.units[payload]
            opts: list[tuple] = [("hold",)]
            near = self._nearest(u)
            x, y, r = u.base.x, u.base.y, u.base.radius
            # a pivot may cross no other unit (erratum no_interpenetration): those within reach of its corners
            around = [o.base for o in self.units.values() if o.alive and o is not u and math.hypot(o.base.x - x, o.base.y - y) < r + o.base.radius]
            for e in self._enemies(u):
                if pivot_clear(u.base, bearing(u.base.centre, e.base.centre), table=self.table, others=around):
                    opts.append(("advance", e.id))
                    if e is near:
                        opts.append(("face",))
            return opts
        if kind == "leader":
            return self._leader_options(self.leaders[payload])
        if kind == "shoot":
            return [("shoot", t.id) for t in self._targets(self.units[payload])]
        if kind == "charge":
            u = self.units[payload]
            return [("no_charge",)] + [("charge", e.id) for e in self._enemies(u) if self._charge_to(u, e) is not None]
        if kind == "target":
            return [("fight", e) for e in self._engaged_with(payload)]
        return [("duel",), ("decline",)]

    def apply_action(self, action) -> None:
        if self.pending is not None:
            kind, _outs, payload = self.pending
            self.pending = None
            getattr(self, "_on_" + kind)(action, payload)
            self._run()
            return
        kind, player, payload = self.steps.pop(0)
        if kind == "move":
            self._move(self.units[payload], action)
        elif kind == "leader":
            self._move_leader(self.leaders[payload], action)
        elif kind == "shoot":
            u, t = self.units[payload], self.units[action[1]]
            self.pending = ("shot", _hits(u.stands, self.r.shooting.hit_on, False, 6), t.id)
            return
        elif kind == "charge":
            if action[0] == "charge":
                u, e = self.units[payload], self.units[action[1]]
                u.base = self._charge_to(u, e)
                face = e.base.face_towards(u.base.centre)  # the face it conformed to
                self._carry_leader(u)
                self.engagements.append(Engagement(u.id, e.id, face != "front"))
        elif kind == "target":
            self.targets[payload] = action[1]
        elif kind == "duel":
            a, b = payload
            if action[0] == "duel":
                if player == self.leaders[a].side:
                    self.steps.insert(0, ("duel", self.leaders[b].side, payload))
                else:
                    self.pending = ("duel", [("win", 0.5), ("lose", 0.5)], payload)
                    return
        self._run()

    # ---------------------------------------------------------------- flow
    def _start_turn(self) -> None:
        self.turns_begun += 1
        self._dueled = set()
        steps: list[tuple] = []
        if self.decided is None and self.turn > 1:
            steps.append(("treachery", -1, None))
        for side in (EAST, WEST):
            steps.append(("phase_move", side, None))
            steps.append(("phase_shoot", side, None))
        first = EAST if self.r.charge.first == "east" else WEST
        steps += [("phase_charge", first, None), ("phase_charge", 1 - first, None), ("phase_melee", -1, None), ("end_turn", -1, None)]
        self.steps = steps
        self._run()

    def _run(self) -> None:
        """Expand automatic steps until a decision or a chance node is due."""
        while not self.done and self.pending is None and self.steps:
            kind, side, payload = self.steps[0]
            if kind in ("move", "leader", "shoot", "charge", "duel", "target"):
                if self._skip(kind, payload):
                    self.steps.pop(0)
                    continue
                return
            self.steps.pop(0)
            if kind == "treachery":
                die = treachery_roll(self.rows, self.turn)
                self.pending = ("treachery", [(k, float(Fraction(die.probability(k)))) for k in ("east", "west", "undecided") if die.probability(k) > 0], None)
            elif kind == "phase_move":
                self.steps[0:0] = [("move", side, u.id) for u in self._mine(side)] + [("leader", side, ld.id) for ld in self._leaders(side)]
            elif kind == "phase_shoot":
                self.steps[0:0] = [("shoot", side, u.id) for u in self._mine(side) if u.type.shoots]
            elif kind == "phase_charge":
                self.steps[0:0] = [("charge", side, u.id) for u in self._mine(side)]
            elif kind == "phase_melee":
                self._melee_steps()
            elif kind == "melee_roll":
                self._melee_roll(payload)
            elif kind == "apply_melee":
                self._apply_melee()
            elif kind == "leader_roll":
                self.pending = ("leader", [("dies", 1 / 6), ("lives", 5 / 6)], payload)
            elif kind == "end_turn":
                self.turn += 1
                if self.turn > self.sc.turns:
                    self._finish()
                    return
                self._start_turn()
                return

    def _skip(self, kind: str, payload) -> bool:
        if kind in ("move", "charge"):
            return not self.units[payload].alive or self._in_melee(payload)
        if kind == "shoot":
            return not self._targets(self.units[payload])
        if kind == "leader":
            return not self.leaders[payload].alive
        if kind == "target":
            return not self.units[payload].alive or len(self._engaged_with(payload)) < 2
        a, b = payload
        return not (self._leader_in_melee(a) and self._leader_in_melee(b))

    def _mine(self, side: int) -> list[Unit]:
        return [u for u in self.units.values() if u.alive and u.side == side]

    def _leaders(self, side: int) -> list[Leader]:
        return [ld for ld in self.leaders.values() if ld.alive and ld.side == side]

    def _enemies(self, u: Unit) -> list[Unit]:
        return [o for o in self.units.values() if o.alive and o.side is not None and o.side != u.side]

    def _in_melee(self, uid: str) -> bool:
        return any(uid in (m.a, m.b) for m in self.engagements)

    def _engaged_with(self, uid: str) -> list[str]:
        """Enemy units ``uid`` is engaged with, in engagement order."""
        return [m.b if m.a == uid else m.a for m in self.engagements if uid in (m.a, m.b)]

    def _leader_of(self, uid: str) -> Leader | None:
        for ld in self.leaders.values():
            if ld.alive and ld.unit == uid:
                return ld
        return None

    def _leader_in_melee(self, lid: str) -> bool:
        ld = self.leaders[lid]
        return ld.alive and ld.unit is not None and self._in_melee(ld.unit)

    def _nearest(self, u: Unit) -> Unit | None:
        es = self._enemies(u)
        return min(es, key=lambda e: math.dist(u.base.centre, e.base.centre)) if es else None

    def _targets(self, u: Unit) -> list[Unit]:
        if not u.alive or self._in_melee(u.id):
            return []
        rng = self.r.shooting.range_inches
        return [e for e in self._enemies(u) if not self._in_melee(e.id) and self.distances.within(u.base, e.base, rng)]

    def _charge_to(self, u: Unit, e: Unit) -> Base | None:
        """Where ``u`` ends a charge on ``e``, or None: ``e`` must be in ``u``'s front 90 degrees
        and within reach ("Units may charge up to 6\" but only if they can reach an enemy
        unit", erratum ``charge_reach``: the shortest straight move that brings any point of
        ``u`` into contact with any point of ``e`` is at most 6"), on a path that crosses no other
        unit (erratum ``no_interpenetration``); ``u`` then conforms flush and centred on the face
        of ``e`` it is on (by ``e``'s diagonals), on the table and on no other unit. ``e`` may already be in melee
        (rules as written: "Charge into Melee", "Flank Attacks")."""
        if not self.distances.within(u.base, e.base, self.r.charge.max_inches) or not u.base.sees(e.base, 45):
            return None
        others = [o.base for o in self.units.values() if o.alive and o is not u and o is not e]
        end = contact_position(u.base, e.base, e.base.face_towards(u.base.centre))
        if not self.table.contains(end) or any(end.overlaps(o) for o in others):
            return None
        p, q = closest_points(u.base, e.base)
        touch = u.base.placed(u.base.x + q[0] - p[0], u.base.y + q[1] - p[1])
        if any(swept_overlaps(u.base, touch, o) for o in others):
            return None
        return end

    def _move(self, u: Unit, action: tuple) -> None:
        """``("face",)``: pivot toward the nearest enemy; ``("advance", enemy_id)``: pivot toward
        that enemy and move straight at it up to 6" ("Cavalry and Infantry may move up to 6\""),
        stopping 0.5" short of any unit."""
        if action[0] == "hold":
            return
        goal = self._nearest(u) if action[0] == "face" else self.units[action[1]]
        course = bearing(u.base.centre, goal.base.centre)
        if action[0] == "face":
            u.base = u.base.turned(course)
        else:
            others = [o.base for o in self.units.values() if o.alive and o is not u]
            dist = min(self.r.movement.inches, max(0.0, math.dist(u.base.centre, goal.base.centre) - 2))
            u.base = furthest(u.base.turned(course), course, dist, table=self.table, others=others, keep_off=others, gap=0.5)
        self._carry_leader(u)

    def _carry_leader(self, u: Unit) -> None:
        ld = self._leader_of(u.id)
        if ld is not None:
            ld.x, ld.y = u.base.x, u.base.y

    # ---------------------------------------------------------------- leaders
    def leader_move(self, ld: Leader) -> float:
        """How far ``ld`` moves (inches): commanders 12"; under the reading
        ``army_commanders`` of erratum ``who_are_commanders`` other leaders move as infantry."""
        m = self.r.movement
        if m.commanders == "leaders" or ld.commander:
            return m.commander_inches
        return m.inches

    def _leader_options(self, ld: Leader) -> list[tuple]:
        opts: list[tuple] = [("stay",)]
        if ld.unit is not None:
            opts.append(("detach",))
        reach = self.leader_move(ld)
        for u in self._mine(ld.side):
            if u.id != ld.unit and self._leader_of(u.id) is None and u.base._point_distance(ld.x, ld.y) <= reach:
                opts.append(("join", u.id))
        return opts

    def _move_leader(self, ld: Leader, action: tuple) -> None:
        if action[0] == "detach":
            u = self.units[ld.unit]
            ld.unit = None
            ld.x, ld.y = u.base.to_world(0, -u.base.depth / 2 - 0.5)  # just behind the unit
        elif action[0] == "join":
            u = self.units[action[1]]
            ld.unit = u.id
            ld.x, ld.y = u.base.x, u.base.y

    def _lose_leader(self, ld: Leader) -> None:
        ld.alive = False
        ld.unit = None
        if ld.commander and ld.side is not None:
            self._winner = 1 - ld.side
            self.done = True

    # ---------------------------------------------------------------- melee
    def _dice(self, u: Unit, vs: Unit, limit: int | None) -> tuple[int, int, bool]:
        """``(stands rolling, to-hit, leader rolls)`` of ``u`` against ``vs``, with at most
        ``limit`` bases (a leader counts as one) when charged in the flank."""
        hit_on = self.r.melee.versus_missile_troops_hit_on if vs.type.missile_troops else u.type.melee_hit_on
        leader = self._leader_of(u.id) is not None and self.r.leaders.extra_base_in_melee
        stands = u.stands
        if limit is not None:
            stands = min(stands, limit - 1) if leader else min(stands, limit)
            leader = leader and limit >= 1
        return stands, hit_on, leader

    def _melee_steps(self) -> None:
        """Duel offers, target choices, one roll per engaged unit, then the simultaneous
        removal."""
        steps: list[tuple] = []
        seen: set[frozenset] = set()
        for m in self.engagements:
            la, lb = self._leader_of(m.a), self._leader_of(m.b)
            if la and lb and frozenset((la.id, lb.id)) not in seen:
                seen.add(frozenset((la.id, lb.id)))
                steps.append(("duel", la.side, (la.id, lb.id)))
        self.targets = {}
        engaged = [u.id for u in self.units.values() if u.alive and self._in_melee(u.id)]
        steps += [("target", self.units[uid].side, uid) for uid in engaged]
        steps += [("melee_roll", -1, uid) for uid in engaged]
        steps.append(("apply_melee", -1, None))
        self.steps[0:0] = steps
        self._losses = {}

    def _melee_roll(self, uid: str) -> None:
        u = self.units[uid]
        foes = self._engaged_with(uid)
        if not u.alive or not foes:
            return
        target = self.targets.get(uid) or foes[0]
        if target not in foes:
            target = foes[0]
        limit = None
        for m in self.engagements:
            if m.b == uid and m.flank and m.round == 1:
                limit = self.r.flank_attack.defender_bases
        stands, hit_on, leader = self._dice(u, self.units[target], limit)
        self.pending = ("melee", _hits(stands, hit_on, leader, self.r.leaders.hit_on), (uid, target))

    def _on_melee(self, hits, payload) -> None:
        _me, target = payload
        self._losses[target] = self._losses.get(target, 0) + hits

    def _apply_melee(self) -> None:
        for uid in sorted(self._losses):
            lost = self._losses[uid]
            u = self.units[uid]
            if lost and u.alive:
                ld = self._leader_of(uid)
                self._remove(u, lost)
                if ld is not None:
                    self.steps.insert(0, ("leader_roll", -1, ld.id))
        self._losses = {}
        for m in self.engagements:
            m.round += 1

    def _on_leader(self, outcome, lid) -> None:
        if outcome == "dies":
            self._lose_leader(self.leaders[lid])

    def _on_duel(self, outcome, pair) -> None:
        self._lose_leader(self.leaders[pair[1] if outcome == "win" else pair[0]])

    def _on_treachery(self, outcome, _payload) -> None:
        if outcome == "undecided":
            return
        self.decided = EAST if outcome == "east" else WEST
        for u in self.units.values():
            if u.side is None:
                u.side = self.decided
        for ld in self.leaders.values():
            if ld.side is None:
                ld.side = self.decided

    def _on_shot(self, hits, target) -> None:
        self._remove(self.units[target], hits)

    def _remove(self, u: Unit, n: int) -> None:
        """``n`` stands lost; a unit left with the last stand is removed at once, its leader
        left standing alone where it was (erratum ``leader_of_destroyed_unit``)."""
        u.stands = max(0, u.stands - n)
        if u.stands <= self.r.last_stand.removed_at_bases:
            u.stands = 0
            u.alive = False
            self.engagements = [m for m in self.engagements if u.id not in (m.a, m.b)]
            ld = self._leader_of(u.id)
            if ld is not None:
                ld.unit = None
                ld.x, ld.y = u.base.x, u.base.y
        else:
            u.base = Base(u.base.x, u.base.y, u.base.facing, u.stands * self.r.stand.width, u.base.depth)
            self._carry_leader(u)

    def removed(self, side: int) -> int:
        """Stands of ``side`` removed so far."""
        return sum(u.start - u.stands for u in self.units.values() if u.side == side)

    def _finish(self) -> None:
        """The last turn is over: gunbai's own victory condition (:data:`VICTORY_NOTE`)."""
        self.done = True
        e, w = self.removed(EAST), self.removed(WEST)
        self._winner = None if e == w else (EAST if w > e else WEST)
