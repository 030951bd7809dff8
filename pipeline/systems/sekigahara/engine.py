"""The Reluctant Samurai rules engine on a measured table, to the state protocol of
:mod:`pipeline.play`.

Each turn follows the seed's sequence: the treachery roll (from turn 2 while Kobayakawa is
undecided; the reading of ``system.yaml``), East moves, East shoots, West moves, West shoots,
charges (East first), melee (simultaneous), with the last stand removed at once.

Decisions (player 0 = East, 1 = West): movement ``("hold",)``, ``("advance",)`` (toward the
nearest enemy, up to 6", stopping short of contact), ``("face",)``; shooting ``("shoot", id)``;
charges ``("no_charge",)`` or ``("charge", id)`` (up to 6", into contact with the face it is
on, only at an enemy in its front 90 degrees); personal combat ``("duel",)`` / ``("decline",)``.
Chance nodes: the treachery D6 (outcomes ``east``/``west``/``undecided`` with their
chances), hits of a shot or melee roll (a count, its binomial chance), a leader's loss roll and
a duel (``win``/``lose``). Abstractions (not rules): leaders stay with their units (a unit led by
a commander does not move 12"); the undecided contingent is inert (erratum
``undecided_contingent``); a unit fights one melee a turn (the one it charged, or was charged
in); victory as the scenario's ``victory`` text.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from fractions import Fraction

import icepool

from pipeline.measured.geometry import Base, bearing, contact_position
from pipeline.measured.movement import furthest
from pipeline.systems.sekigahara.load import UNDECIDED, SekiData
from pipeline.systems.sekigahara.model import Scenario, UnitType
from pipeline.systems.sekigahara.odds import treachery_roll

EAST, WEST = 0, 1


@dataclass
class Unit:
    id: str
    side: int | None  # None while undecided
    type: UnitType
    base: Base
    stands: int
    start: int
    leader: str | None
    commander: bool
    alive: bool = True


@dataclass
class Melee:
    a: str
    b: str
    flank: bool
    round: int = 1


def _hits(stands: int, hit_on: int, leader: bool, leader_on: int) -> list[tuple[int, float]]:
    die = stands @ (icepool.d6 >= hit_on)
    if leader:
        die = die + (icepool.d6 >= leader_on)
    return [(int(k), float(Fraction(die.probability(k)))) for k in die.outcomes() if die.probability(k) > 0]


class SekiState:
    def __init__(self, data: SekiData, scenario: Scenario, reading: str | None = None):
        self.data = data
        self.sc = scenario
        self.r = data.system
        self.rows = self.r.treachery.rows(reading)
        self.table = self.r.table.rect()
        ids = [s.id for s in scenario.sides]
        self.side_index = {"east": ids.index("east") if "east" in ids else 0, "west": ids.index("west") if "west" in ids else 1}
        self.units: dict[str, Unit] = {}
        for up in scenario.units:
            side = None if up.side == UNDECIDED else (EAST if up.side == "east" else WEST)
            ld = up.leader
            self.units[up.id] = Unit(up.id, side, data.units[up.unit], data.base_of(up), up.stands, up.stands,
                                     ld.name if ld else None, bool(ld and ld.commander))
        self.turn = 1
        self.turns_begun = 0
        self.decided: int | None = None
        self.melees: list[Melee] = []
        self.steps: list[tuple] = []  # pending steps of the turn
        self.pending = None  # chance node payload
        self._losses: dict[str, int] = {}
        self._winner: int | None = None
        self.done = False
        self._start_turn()

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
        kind, player, uid = self.steps[0]
        u = self.units.get(uid) if uid else None
        if kind == "move":
            opts = [("hold",), ("advance",)]
            near = self._nearest(u)
            if near is not None:
                opts.append(("face",))
            return opts
        if kind == "shoot":
            return [("shoot", t.id) for t in self._targets(u)]
        if kind == "charge":
            return [("no_charge",)] + [("charge", e.id) for e in self._enemies(u) if self._charge_to(u, e) is not None]
        return [("duel",), ("decline",)]

    def apply_action(self, action) -> None:
        if self.pending is not None:
            kind, _outs, payload = self.pending
            self.pending = None
            getattr(self, "_on_" + kind)(action, payload)
            self._run()
            return
        kind, player, uid = self.steps.pop(0)
        u = self.units.get(uid) if uid else None
        if kind == "move":
            self._move(u, action)
        elif kind == "shoot":
            t = self.units[action[1]]
            self.pending = ("shot", _hits(u.stands, self.r.shooting.hit_on, False, 6), t.id)
            return
        elif kind == "charge":
            if action[0] == "charge":
                e = self.units[action[1]]
                face = e.base.face_towards(u.base.centre)
                u.base = self._charge_to(u, e)
                self.melees.append(Melee(u.id, e.id, face != "front"))
        elif kind == "duel":
            m = uid
            if action[0] == "duel":
                if player == self.units[m[0]].side:
                    self.steps.insert(0, ("duel", self.units[m[1]].side, m))
                else:
                    self.pending = ("duel", [("win", 0.5), ("lose", 0.5)], m)
                    return
        self._run()

    # ---------------------------------------------------------------- flow
    def _start_turn(self) -> None:
        self.turns_begun += 1
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
            if kind in ("move", "shoot", "charge", "duel"):
                if kind == "shoot" and not self._targets(self.units[payload]):
                    self.steps.pop(0)
                    continue
                if kind in ("move", "charge") and (not self.units[payload].alive or self._in_melee(payload)):
                    self.steps.pop(0)
                    continue
                return
            self.steps.pop(0)
            if kind == "treachery":
                die = treachery_roll(self.rows, self.turn)
                self.pending = ("treachery", [(k, float(Fraction(die.probability(k)))) for k in ("east", "west", "undecided") if die.probability(k) > 0], None)
            elif kind == "phase_move":
                self.steps[0:0] = [("move", side, u.id) for u in self._mine(side)]
            elif kind == "phase_shoot":
                self.steps[0:0] = [("shoot", side, u.id) for u in self._mine(side) if u.type.shoots]
            elif kind == "phase_charge":
                self.steps[0:0] = [("charge", side, u.id) for u in self._mine(side)]
            elif kind == "phase_melee":
                self._melee_steps()
            elif kind == "melee_roll":
                self.pending = ("melee", payload[2], payload)
            elif kind == "apply_melee":
                self._apply_melee(payload)
            elif kind == "leader_roll":
                self.pending = ("leader", [("dies", 1 / 6), ("lives", 5 / 6)], payload)
            elif kind == "end_turn":
                self.turn += 1
                if self.turn > self.sc.turns:
                    self._finish()
                    return
                self._start_turn()
                return

    def _mine(self, side: int) -> list[Unit]:
        return [u for u in self.units.values() if u.alive and u.side == side]

    def _enemies(self, u: Unit) -> list[Unit]:
        return [o for o in self.units.values() if o.alive and o.side is not None and o.side != u.side]

    def _in_melee(self, uid: str) -> bool:
        return any(uid in (m.a, m.b) for m in self.melees)

    def _nearest(self, u: Unit) -> Unit | None:
        es = self._enemies(u)
        return min(es, key=lambda e: math.dist(u.base.centre, e.base.centre)) if es else None

    def _targets(self, u: Unit) -> list[Unit]:
        if not u.alive or self._in_melee(u.id):
            return []
        return [e for e in self._enemies(u) if not self._in_melee(e.id) and u.base.within(e.base, self.r.shooting.range_inches)]

    def _charge_to(self, u: Unit, e: Unit) -> Base | None:
        if self._in_melee(e.id) or not u.base.sees(e.base, 45):
            return None
        face = e.base.face_towards(u.base.centre)
        end = contact_position(u.base, e.base, face)
        if math.dist(u.base.centre, end.centre) > self.r.charge.max_inches or not self.table.contains(end):
            return None
        if any(o.alive and o is not u and o is not e and end.overlaps(o.base) for o in self.units.values()):
            return None
        return end

    def _move(self, u: Unit, action: tuple) -> None:
        near = self._nearest(u)
        if near is None or action[0] == "hold":
            return
        course = bearing(u.base.centre, near.base.centre)
        if action[0] == "face":
            u.base = u.base.turned(course)
            return
        others = [o.base for o in self.units.values() if o.alive and o is not u]
        dist = min(self.r.movement.inches, max(0.0, math.dist(u.base.centre, near.base.centre) - 2))
        u.base = furthest(u.base.turned(course), course, dist, table=self.table, others=others, keep_off=others, gap=0.5)

    # ---------------------------------------------------------------- combat
    def _dice(self, u: Unit, vs: Unit, limit: int | None) -> tuple[int, int, bool]:
        hit_on = self.r.melee.versus_missile_troops_hit_on if vs.type.missile_troops else u.type.melee_hit_on
        leader = u.leader is not None and self.r.leaders.extra_base_in_melee
        stands = u.stands
        if limit is not None:
            stands = min(stands, limit - (1 if leader else 0)) if leader else min(stands, limit)
            leader = leader and limit >= 1
        return stands, hit_on, leader

    def _melee_steps(self) -> None:
        steps: list[tuple] = []
        for m in list(self.melees):
            a, b = self.units[m.a], self.units[m.b]
            if not (a.alive and b.alive):
                continue
            if a.leader and b.leader:
                steps.append(("duel", a.side, (m.a, m.b)))
            limit = self.r.flank_attack.defender_bases if m.flank and m.round == 1 else None
            sa, ha, la = self._dice(a, b, None)
            sb, hb, lb = self._dice(b, a, limit)
            lo = self.r.leaders.hit_on
            steps.append(("melee_roll", -1, (m.a, m.b, _hits(sa, ha, la, lo), "a")))
            steps.append(("melee_roll", -1, (m.b, m.a, _hits(sb, hb, lb, lo), "b")))
            steps.append(("apply_melee", -1, m))
        self.steps[0:0] = steps
        self._losses = {}

    def _on_treachery(self, outcome, _payload) -> None:
        if outcome == "undecided":
            return
        self.decided = EAST if outcome == "east" else WEST
        for u in self.units.values():
            if u.side is None:
                u.side = self.decided

    def _on_shot(self, hits, target) -> None:
        self._remove(self.units[target], hits)

    def _on_melee(self, hits, payload) -> None:
        _me, target = payload[0], payload[1]
        self._losses[target] = self._losses.get(target, 0) + hits

    def _apply_melee(self, m: Melee) -> None:
        for uid in (m.a, m.b):
            lost = self._losses.pop(uid, 0)
            u = self.units[uid]
            if lost and u.alive:
                self._remove(u, lost)
                if u.alive and u.leader:
                    self.steps.insert(0, ("leader_roll", -1, uid))
        m.round += 1
        if not (self.units[m.a].alive and self.units[m.b].alive) and m in self.melees:
            self.melees.remove(m)

    def _on_leader(self, outcome, uid) -> None:
        if outcome == "dies":
            self._lose_leader(self.units[uid])

    def _on_duel(self, outcome, pair) -> None:
        loser = self.units[pair[1] if outcome == "win" else pair[0]]
        self._lose_leader(loser)

    def _lose_leader(self, u: Unit) -> None:
        if u.commander and u.side is not None:
            self._winner = 1 - u.side
            self.done = True
        u.leader = None
        u.commander = False

    def _remove(self, u: Unit, n: int) -> None:
        u.stands = max(0, u.stands - n)
        if u.stands <= self.r.last_stand.removed_at_bases:
            u.stands = 0
            u.alive = False
            self.melees = [m for m in self.melees if u.id not in (m.a, m.b)]
            if u.commander:
                self._lose_leader(u)
        else:
            u.base = replace(u.base, width=u.stands * self.r.stand.width)

    def removed(self, side: int) -> int:
        """Stands of ``side`` removed so far."""
        return sum(u.start - u.stands for u in self.units.values() if u.side == side)

    def _finish(self) -> None:
        self.done = True
        e, w = self.removed(EAST), self.removed(WEST)
        self._winner = None if e == w else (EAST if w > e else WEST)
