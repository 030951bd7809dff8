"""Game set-up and the turn: the game-length and Minor Objective rolls, the Duel's duellists, the
start of each turn (reserves arrive), and the alternate activation of models in the Move and
Action Phases."""

from __future__ import annotations

from pipeline.systems.ronin.deployment import duellist_spot
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
            # "Each player secretly records the order in which his models will fight" (p.64): the
            # first player's order is hidden from the second until each match reveals its pair
            steps += [("order", s, s) for s in (0, 1) for _m in self.buntai(s)]
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

    def _options_order(self, side) -> list[tuple]:
        """The Tournament: the side's next model in its secret order (p.64)."""
        return [("order", m.id) for m in self.buntai(side) if m.id not in self.order[side]]

    def _do_order(self, side, action) -> None:
        self.order[side].append(action[1])

    def _options_replace_duellist(self, side) -> list[tuple]:
        """A critically injured duellist's side may nominate another model (p.62): one of its
        living models on the table, or none."""
        return [("no_duellist",)] + [("duellist", m.id) for m in self.on_table(side) if not m.duellist and not m.p.civilian]

    def _do_replace_duellist(self, side, action) -> None:
        if action[0] == "duellist":
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
            m.moved, m.shots, m.fought, m.rested, m.struck_on_withdraw, m.activated, m.stood = "", 0, False, False, False, False, False
            if m.alive and not m.on_table and not m.fled and m.arrives == 1 and (self.match is None or m.id in self.match):
                m.on_table = True
                if self.turn == 1 and self.sco.duellists_only_turns and m.duellist:
                    self._place_duellist(m)
        steps: list[tuple] = [("priority", -1, None)]
        if self.sco.kind != "tournament":
            steps.append(("morale", -1, None))
        steps += [("phase", -1, "move"), ("phase", -1, "combat"), ("phase", -1, "action"), ("end_phase", -1, None), ("turn_end", -1, None)]
        self._push(*steps)

    def _place_duellist(self, m: Model) -> None:
        """A duellist stands on the edge of the duelling area (p.61), at the point nearest his
        side's zone (:func:`~pipeline.systems.ronin.deployment.duellist_spot`), where ``gunbai
        verify`` checks that the rest of his Buntai is within 6 inches of him."""
        rule = next((x for x in self.sc.deployment_rules if x.kind == "near_duellist"), None)
        centre = self.objective or (self.table / 2, self.table / 2)
        m.x, m.y = duellist_spot(self.g.game.sides[m.side].zone, centre, rule.area_in if rule and rule.area_in else 6.0, self.r)

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
            if m.deserting:
                self._push(("desert", -1, m.id))  # it uses its activation to leave (p.52)
            elif self.sides[s].morale == "routing" and not self._ignores_morale(m) and not self.engaged(m):
                self._push(("rout_check", -1, m.id))  # at every activation, in either phase (p.12)
            else:
                self._push(("move" if self.phase == "move" else "act", s, m.id))
            self._push_next(s)
            return

    def _push_next(self, side: int) -> None:
        # after this activation, the other player activates next (if he has models left)
        self.steps.insert(1, ("next_activation", -1, 1 - side))

    def _next_model(self, side: int) -> Model | None:
        while self.queue[side]:
            m = self.models[self.queue[side].pop(0)]
            if self.phase == "move" and self.in_reserve(m) and m.arrives <= self.turn:
                return m  # it may move onto the table now (Reserves, p.59)
            if not (m.alive and m.on_table) or self._duel_locked(m):
                continue
            if self.phase == "move":
                if m.p.civilian and not any(self.dist(m, f) <= 6 for f in self.on_table(m.side) if not f.p.civilian):
                    continue
                return m
            if not self.engaged(m) and not m.p.civilian:
                return m
        return None

    def in_reserve(self, m: Model) -> bool:
        """Is ``m`` a reserve still off the table (Reserves, p.59: it moves on in the Move Phase
        of its turn, or later)?"""
        return m.alive and not m.on_table and not m.fled and not m.deserting and m.arrives > 1 and self.match is None

    def _ignores_morale(self, m: Model) -> bool:
        """Fearless models ignore the results of Morale Tests (p.29), and so do a Buntai that
        never tests and civilians."""
        return self.has_attribute(m, "fearless") or self.sides[m.side].plan.no_morale or m.p.civilian

    def has_attribute(self, m: Model, attribute: str) -> bool:
        """Has ``m`` the Attribute now: its own, or one it has near other models (the Temple
        Attendant's Fearless within 3 inches of a friendly model of Rank 2 or higher, p.39)?"""
        if attribute in m.p.attributes:
            return True
        for near in m.p.attributes_near:
            if near.attribute == attribute:
                pool = self.on_table(m.side) if near.of == "friendly" else self.on_table()
                if any(o is not m and not o.p.civilian and o.p.rank >= near.min_rank and self.dist(m, o) <= near.within_in + 1e-6 for o in pool):
                    return True
        return False

    def _duel_locked(self, m: Model) -> bool:
        """Duel (p.62): in the first turns only the duellists may be activated, in every phase,
        and only they fight."""
        n = self.sco.duellists_only_turns
        return bool(n) and self.turn <= n and not m.duellist
