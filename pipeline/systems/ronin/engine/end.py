"""The End Phase (Stunned counters, book p.25-26), Victory Points and the scenarios' ends
(p.58-66), and the Tournament's matches (p.64)."""

from __future__ import annotations

import math
from fractions import Fraction

from pipeline.systems.ronin.engine.game import TOUCH
from pipeline.systems.ronin.engine.geometry import _in_zone
from pipeline.systems.ronin.engine.pieces import Model


class EndPhase:
    """End of turn, scoring and the Tournament; mixed into :class:`RoninState`."""

    def _auto_end_phase(self, _payload) -> None:
        for m in self.models.values():
            if m.alive and m.on_table and m.stunned:
                self._push(("stun_roll", -1, m.id))

    def _auto_stun_roll(self, mid) -> None:
        m = self.models[mid]
        sr = self.data.rules.stunned_removal
        mods = {x.id: int(x.value) for x in sr.modifiers if x.value != "unknown"}
        mod = (mods.get("engaged", 0) if self.engaged(m) else 0) + (mods.get("rested", 0) if m.rested else 0)
        out: dict[int, Fraction] = {}
        for f in range(1, 7):
            k = sr.removed(f + mod)
            out[k] = out.get(k, Fraction(0)) + Fraction(1, 6)
        self._chance(sorted(out.items()), "stun", mid)

    def _on_stun(self, mid, k) -> None:
        m = self.models[mid]
        m.stunned = max(0, m.stunned - int(k))

    def _auto_turn_end(self, _payload) -> None:
        if self.match is not None:
            self._match_turn_end()
            return
        gone = [not any(m.on_table and m.alive for m in self.buntai(s)) and all(m.arrives <= self.turn or not m.alive for m in self.buntai(s)) for s in (0, 1)]
        if any(gone) or (self.length is not None and self.turn >= self.length):
            self._finish()
            return
        self._push(("turn_start", -1, None))

    # ------------------------------------------------------------------ victory
    def victory_points(self) -> list[float]:
        """Each side's Victory Points now (p.58-59, the factions' and the scenario's)."""
        vp = [0.0, 0.0]
        for m in self.models.values():
            s = 1 - m.side
            if m.p.civilian:
                if not m.alive and self.sco.civilian_slain:
                    vp[s] += self.sco.civilian_slain
                continue
            if not m.alive:
                vp[s] += 0.5 if m.p.rank == 0 else m.p.rank
                if self._faction_rule(m.side, "bushi_vp_killed_by_lower") is not None and m.killer_rank is not None and m.killer_rank < m.p.rank:
                    vp[m.side] += self._faction_rule(m.side, "bushi_vp_killed_by_lower")
                if m.p.type == "Samurai" and self._faction_rule(s, "koreans_vp_samurai") is not None:
                    vp[s] += self._faction_rule(s, "koreans_vp_samurai")
            elif m.fled:
                vp[s] += m.p.rank / 2
        for s in (0, 1):
            st = self.sides[s]
            vp[s] += st.banners_captured * 5 + st.penalties
            heads = self._faction_rule(s, "bushi_vp_heads")
            if heads is not None:
                vp[s] += heads * sum(m.heads for m in self.buntai(s) if m.alive and m.p.type == "Samurai")
            ninja = self._faction_rule(s, "bushi_vp_ninja")
            if ninja is not None and any(m.p.hired and m.p.type == "Ninja" for m in self.buntai(s)):
                vp[s] += ninja
            if self.sco.civilian_left and st.plan.role == "Defender":
                vp[s] += self.sco.civilian_left * sum(1 for c in self.civilians if self.models[c].alive)
        if self.sco.objective_control:
            holder = self.objective_holder()
            if holder is not None:
                vp[holder] += self.sco.objective_control
        if self.sco.minor_objective:
            for s in (0, 1):
                if self.minor_objective_met(s):
                    vp[s] += self.sco.minor_objective
        return vp

    def _faction_rule(self, side: int, rule_id: str) -> float | None:
        f = self.sides[side].plan.faction
        if f is None:
            return None
        for r in f.rules:
            if r.id == rule_id:
                return float(r.value) if isinstance(r.value, (int, float)) else None
        return None

    def objective_holder(self) -> int | None:
        """The side controlling the objective: a model (not engaged) in base contact with the
        objective marker, or in or touching the objective terrain piece, and no enemy model
        there."""
        there = [set(), set()]
        for m in self.on_table():
            if m.p.civilian or self.engaged(m):
                continue
            if self._at_objective(m):
                there[m.side].add(m.id)
        if there[0] and not there[1]:
            return 0
        if there[1] and not there[0]:
            return 1
        return None

    def _at_objective(self, m: Model) -> bool:
        for t in self.terrain:
            if t.objective:
                return _in_zone(t.zone, m.x, m.y, self.r + TOUCH)
        if self.objective:
            return math.hypot(m.x - self.objective[0], m.y - self.objective[1]) <= 2 * self.r + TOUCH
        return False

    def minor_objective_met(self, side: int) -> bool:
        """The Skirmish's Minor Objective (p.60) of ``side``: 1 capture a Rank 2+ model (never:
        the engine declares no Subdue), 2 most models in every table quarter, 3 the enemy
        Leader killed, 4 at most 25% of the force lost, 5 more than 75% of the enemy killed;
        6 the opponent's objective (both 6: none)."""
        mine, theirs = self.sides[side].minor, self.sides[1 - side].minor
        if mine == 6:
            if theirs == 6 or theirs is None:
                return False
            mine = theirs
        start_me, start_them = len(self.buntai(side)), len(self.buntai(1 - side))
        if mine == 2:
            h = self.table / 2
            for qx, qy in ((0, 0), (1, 0), (0, 1), (1, 1)):
                n = [sum(1 for m in self.on_table(s) if not m.p.civilian and (m.x >= h) == bool(qx) and (m.y >= h) == bool(qy)) for s in (0, 1)]
                if n[side] <= n[1 - side]:
                    return False
            return True
        if mine == 3:
            ld = self._leader(1 - side)
            return ld is not None and not ld.alive
        if mine == 4:
            lost = sum(1 for m in self.buntai(side) if not m.alive or m.fled)
            return lost * 4 <= start_me
        if mine == 5:
            dead = sum(1 for m in self.buntai(1 - side) if not m.alive)
            return dead * 4 > start_them * 3
        return False

    def _finish(self) -> None:
        if self.sco.kind == "kill_leader":
            attacker = next(i for i, s in enumerate(self.sides) if s.plan.role == "Attacker")
            ld = self._leader(1 - attacker)
            self._end(attacker if ld is not None and not ld.alive else 1 - attacker)
            return
        vp = self.victory_points()
        self.vp = vp
        win = None if vp[0] == vp[1] else (0 if vp[0] > vp[1] else 1)
        if win is not None:
            loser = 1 - win
            seppuku = self._faction_rule(loser, "bushi_vp_seppuku")
            ld = self._leader(loser)
            if seppuku is not None and ld is not None and ld.alive and vp[loser] + seppuku >= vp[win]:
                win = None  # seppuku may make a draw, never a win (p.34)
        self._end(win)

    def _end(self, winner: int | None) -> None:
        self.done = True
        self._winner = winner
        self.steps = []
        self.pending = None

    # ------------------------------------------------------------------ tournament
    def _auto_next_match(self, _payload) -> None:
        """The next match of the Tournament (p.64): the next model of each side in roster order,
        on opposite edges of the 12" duelling area, six turns or until one is killed."""
        order = [[m.id for m in self.buntai(s) if m.alive and not m.fled and not m.matched] for s in (0, 1)]
        if order[0] and order[1]:
            a, b = self.models[order[0][0]], self.models[order[1][0]]
        else:
            w = [self.sides[s].match_wins for s in (0, 1)]
            pts = [self.sides[s].match_points for s in (0, 1)]
            if w[0] != w[1]:
                self._end(0 if w[0] > w[1] else 1)
                return
            if pts[0] != pts[1]:
                self._end(0 if pts[0] > pts[1] else 1)
                return
            if self.final:
                self._end(None)
                return
            best = [max((m for m in self.buntai(s) if m.alive), key=lambda m: m.p.rank, default=None) for s in (0, 1)]
            if best[0] is None or best[1] is None:
                self._end(None if best[0] is best[1] else (0 if best[0] else 1))
                return
            self.final = True
            a, b = best
        for m in self.models.values():
            m.on_table = False
        self._tab = None
        a.matched = b.matched = True
        cx, cy = self.objective or (self.table / 2, self.table / 2)
        a.x, a.y, b.x, b.y = cx, cy - 6 + self.r, cx, cy + 6 - self.r
        a.stunned = b.stunned = 0
        self.match = (a.id, b.id)
        self.match_turn = 0
        self._match_score = (self.sides[0].match_points, self.sides[1].match_points)
        self._push(("turn_start", -1, None))

    def _match_turn_end(self) -> None:
        self.match_turn += 1
        a, b = (self.models[i] for i in self.match)
        over = not (a.alive and b.alive) or (not self.final and self.match_turn >= (self.sc.length.match_turns or 6))
        if not over:
            self._push(("turn_start", -1, None))
            return
        gained = [self.sides[s].match_points - self._match_score[s] for s in (0, 1)]
        if not b.alive and a.alive:
            win = a.side
        elif not a.alive and b.alive:
            win = b.side
        elif gained[0] != gained[1]:
            win = 0 if gained[0] > gained[1] else 1
        else:
            win = None
        if win is not None:
            self.sides[win].match_wins += 1
        if self.final:
            self._end(win)
            return
        self.match = None
        self._push(("next_match", -1, None))
