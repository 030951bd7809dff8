"""Game set-up and the turn: the game-length and Minor Objective rolls, the Duel's duellists, the
start of each turn (reserves arrive), and the alternate activation of models in the Move and
Action Phases."""

from __future__ import annotations

import math

from pipeline.systems.ronin.engine.game import D6
from pipeline.systems.ronin.engine.pieces import Model


class TurnSequence:
    """Set-up and the turn's sequence (book p.10, Scenarios); mixed into :class:`RoninState`."""

    def _auto_setup(self, _payload) -> None:
        ln = self.sc.length
        steps: list[tuple] = []
        if ln.d6_plus is not None:
            steps.append(("roll_length", -1, None))
        if self.sco.minor_objective:
            steps.append(("roll_minor", -1, 0))
            steps.append(("roll_minor", -1, 1))
        if self.sco.duellists_only_turns:
            steps += [("duellist", 0, 0), ("duellist", 1, 1)]
        if self.sco.kind == "tournament":
            steps.append(("next_match", -1, None))
        else:
            steps.append(("turn_start", -1, None))
        self._push(*steps)

    def _auto_roll_length(self, _payload) -> None:
        self._chance(D6, "length")

    def _on_length(self, _payload, face) -> None:
        self.length = int(face) + (self.sc.length.d6_plus or 0)

    def _auto_roll_minor(self, side) -> None:
        self._chance(D6, "minor", side)

    def _on_minor(self, side, face) -> None:
        self.sides[side].minor = int(face)

    def _options_duellist(self, side) -> list[tuple]:
        return [("duellist", m.id) for m in self.buntai(side)]

    def _do_duellist(self, side, action) -> None:
        self.models[action[1]].duellist = True

    def _auto_turn_start(self, _payload) -> None:
        self.phase = "priority"
        self.turn += 1
        self.turns_begun += 1
        for s in self.sides:
            s.criticals_last, s.criticals = s.criticals, 0
            s.leader_hit_last, s.leader_hit = s.leader_hit, False
            s.kiai_now = False
        self._tab = None
        for m in self.models.values():
            m.moved, m.shots, m.fought, m.rested, m.struck_on_withdraw, m.activated = "", 0, False, False, False, False
            if m.alive and not m.on_table and not m.fled and m.arrives <= self.turn and (self.match is None or m.id in self.match):
                m.on_table = True
                if self.turn == 1 and self.sco.duellists_only_turns and m.duellist:
                    self._place_duellist(m)
        steps: list[tuple] = [("priority", -1, None)]
        if self.sco.kind != "tournament":
            steps.append(("morale", -1, None))
        steps += [("phase", -1, "move"), ("phase", -1, "combat"), ("phase", -1, "action"), ("end_phase", -1, None), ("turn_end", -1, None)]
        self._push(*steps)

    def _place_duellist(self, m: Model) -> None:
        """A duellist stands on the edge of the duelling area (p.61), on the side of its Buntai."""
        cx, cy = self.objective or (self.table / 2, self.table / 2)
        d = math.hypot(m.x - cx, m.y - cy) or 1.0
        m.x, m.y = cx + (m.x - cx) / d * (6 - self.r), cy + (m.y - cy) / d * (6 - self.r)

    def _auto_phase(self, phase) -> None:
        self.phase = phase
        if phase == "combat":
            self._push(("next_combat", -1, self.priority))
            return
        for s in (0, 1):
            self.queue[s] = [m.id for m in self.models.values() if m.side == s]
            self.sides[s].done = False
        self._push(("next_activation", -1, self.priority))

    def _auto_next_activation(self, side) -> None:
        for s in (side, 1 - side):
            if self.sides[s].done:
                continue
            m = self._next_model(s)
            if m is None:
                self.sides[s].done = True
                continue
            m.activated = True
            if self.phase == "move":
                st = self.sides[s]
                if st.morale == "routing" and not self._ignores_morale(m) and not self.engaged(m):
                    self._push(("rout_check", -1, m.id))
                else:
                    self._push(("move", s, m.id))
            else:
                self._push(("act", s, m.id))
            self._push_next(s)
            return

    def _push_next(self, side: int) -> None:
        # after this activation, the other player activates next (if he has models left)
        self.steps.insert(1, ("next_activation", -1, 1 - side))

    def _next_model(self, side: int) -> Model | None:
        while self.queue[side]:
            m = self.models[self.queue[side].pop(0)]
            if not (m.alive and m.on_table):
                continue
            if self.phase == "move":
                if self._duel_locked(m):
                    continue
                if m.p.civilian and not any(self.dist(m, f) <= 6 for f in self.on_table(m.side) if not f.p.civilian):
                    continue
                return m
            if not self.engaged(m) and not m.p.civilian:
                return m
        return None

    def _ignores_morale(self, m: Model) -> bool:
        return "fearless" in m.p.attributes or self.sides[m.side].plan.no_morale or m.p.civilian

    def _duel_locked(self, m: Model) -> bool:
        n = self.sco.duellists_only_turns
        return bool(n) and self.turn <= n and not m.duellist
