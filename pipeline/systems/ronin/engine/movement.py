"""The Move Phase: movement, charges, Run, Withdraw with its free attack, Routing models
(book p.12-14)."""

from __future__ import annotations

import math
from fractions import Fraction

from pipeline.systems.ronin.engine.game import TOUCH
from pipeline.systems.ronin.engine.geometry import _seg_point, _seg_zone
from pipeline.systems.ronin.engine.pieces import Model


class MovePhase:
    """Movement (book p.12-14); mixed into :class:`RoninState`."""

    def allowance(self, m: Model, kind: str) -> float:
        """How far ``m`` may move (inches): 6 (mounted 12), Run 9 (Gallop 18), Withdraw 2;
        halved when Stunned or Grievously wounded (p.13)."""
        base = {"move": 6.0, "run": 9.0, "withdraw": 2.0}[kind]
        if m.p.mounted and kind != "withdraw":
            base = 12.0 if kind == "move" else 18.0
        if m.stunned or m.wound == "grievous":
            base /= 2
        return base

    def _blocked(self, m: Model, x: float, y: float, ignore: set[str] = frozenset()) -> bool:
        """The straight path of ``m`` to ``(x, y)`` crosses another model or impassable ground,
        or the spot is off the table."""
        r = self.r
        if not (r <= x <= self.table - r and r <= y <= self.table - r):
            return True
        if self.match is not None:  # a Tournament match stays in the 12" duelling area (p.64)
            cx, cy = self.objective or (self.table / 2, self.table / 2)
            if math.hypot(x - cx, y - cy) > 6 - r:
                return True
        acro = "acrobatic" in m.p.attributes
        gap = 2 * r - 1e-9
        lox, hix, loy, hiy = min(m.x, x) - gap, max(m.x, x) + gap, min(m.y, y) - gap, max(m.y, y) + gap
        for o in self.on_table():
            if o is m or o.id in ignore or not (lox <= o.x <= hix and loy <= o.y <= hiy):
                continue
            if acro and o.side == m.side:
                if math.hypot(o.x - x, o.y - y) < gap:
                    return True
                continue
            if _seg_point(m.x, m.y, x, y, o.x, o.y) < gap:
                return True
        for t in self.terrain:
            if t.movement == "impassable" and not acro and _seg_zone(t.zone, m.x, m.y, x, y, r):
                return True
        return False

    def _difficult(self, m: Model, x: float, y: float) -> bool:
        """The way to ``(x, y)`` starts, ends or passes in difficult ground (Acrobatic: only
        impassable ground counts, as difficult; p.13, p.29)."""
        slow = "impassable" if "acrobatic" in m.p.attributes else "difficult"
        return any(t.movement == slow and _seg_zone(t.zone, m.x, m.y, x, y, self.r) for t in self.terrain)

    def _path(self, m: Model, gx: float, gy: float, reach: float, stop: float, *, ignore: set[str] = frozenset(), run: bool = False) -> tuple[float, float] | None:
        """Where ``m`` ends moving straight towards ``(gx, gy)``: at most ``reach`` (halved if the
        way crosses difficult ground, never below 1"), ``stop`` inches short of the goal, not
        through other models or impassable ground (a Run never within 1" of an enemy)."""
        d = math.hypot(gx - m.x, gy - m.y)
        want = d - stop
        if want <= 0.05:
            return None
        ux, uy = (gx - m.x) / d, (gy - m.y) / d
        length = min(reach, want)
        if self._difficult(m, m.x + ux * length, m.y + uy * length):
            length = min(max(1.0, reach / 2), want)

        def ok(t: float) -> bool:
            x, y = m.x + ux * t, m.y + uy * t
            if self._blocked(m, x, y, ignore):
                return False
            if run and any(_seg_point(m.x, m.y, x, y, e.x, e.y) < 2 * self.r + 1.0 for e in self.on_table(1 - m.side)):
                return False
            return True

        if ok(length):
            t = length
        else:
            lo, hi, t = 0.0, length, 0.0
            while hi - lo > 0.25:
                mid = (lo + hi) / 2
                if ok(mid):
                    lo = t = mid
                else:
                    hi = mid
            if t < 0.25:
                return None
        return (m.x + ux * t, m.y + uy * t)

    def _charge_spot(self, m: Model, e: Model) -> tuple[float, float] | None:
        """Where ``m`` ends a charge on ``e``: in base contact on the line between them (or beside
        it when that spot is taken), within its move."""
        reach = self.allowance(m, "move")
        d = math.hypot(e.x - m.x, e.y - m.y)
        if d - 2 * self.r > reach + 1e-9:
            return None
        base = math.atan2(m.y - e.y, m.x - e.x)
        for off in (0, 0.5, -0.5, 1.0, -1.0, 1.5, -1.5):
            a = base + off
            x, y = e.x + math.cos(a) * 2 * self.r, e.y + math.sin(a) * 2 * self.r
            need = math.hypot(x - m.x, y - m.y)
            length = reach
            if self._difficult(m, x, y):
                length = max(1.0, reach / 2)
            if need > length + 1e-9:
                continue
            if not self._blocked(m, x, y, {e.id}):
                return (x, y)
        return None

    def _goal(self, m: Model, goal: str) -> tuple[float, float] | None:
        enemies = self.on_table(1 - m.side)
        if goal == "enemy":
            if not enemies:
                return None
            e = min(enemies, key=lambda e: self.dist(m, e))
            return (e.x, e.y)
        if goal == "back":
            if not enemies:
                return None
            e = min(enemies, key=lambda e: self.dist(m, e))
            d = math.hypot(m.x - e.x, m.y - e.y) or 1.0
            return (m.x + (m.x - e.x) / d * 20, m.y + (m.y - e.y) / d * 20)
        if goal == "objective":
            obj = self._objective_point()
            return obj
        if goal == "marker":
            marks = [s for s in (self.models[i] for i in self.slain) if s.side != m.side and (not s.head_taken or (s.p.banner and not s.banner_taken))]
            if not marks:
                return None
            s = min(marks, key=lambda s: math.hypot(s.x - m.x, s.y - m.y))
            return (s.x, s.y)
        return None

    def _objective_point(self) -> tuple[float, float] | None:
        for t in self.terrain:
            if t.objective:
                return (t.zone.x + t.zone.w / 2, t.zone.y + t.zone.h / 2) if t.zone.kind == "rect" else (t.zone.x, t.zone.y)
        if self.sco.objective_control and self.objective:
            return self.objective
        return None

    def _may_engage(self, m: Model) -> bool:
        if m.p.civilian:
            return False
        if m.p.banner:  # errata banner_engage: only as the Buntai's last unengaged model
            free = [o for o in self.on_table(m.side) if not o.p.civilian and not self.engaged(o)]
            return free == [m]
        return True

    def _options_move(self, mid) -> list[tuple]:
        """A model's Move Phase options; ``mid`` is ``(model id, "no_charge")`` after a Wavering
        model failed its roll to charge (it may still do something else, p.12)."""
        no_charge = isinstance(mid, tuple)
        m = self.models[mid[0] if no_charge else mid]
        if not (m.alive and m.on_table):
            return []
        if self.engaged(m):
            opts: list[tuple] = [("stay",)]
            if self._withdraw_spot(m) is not None:
                opts.append(("withdraw",))
            return opts
        if m.p.civilian:
            spot = self._path(m, *self._goal(m, "back"), 6.0, 0.0) if self._goal(m, "back") else None
            return [("stay",)] + ([("flee",)] if spot else [])
        opts = [("hold",), ("pass",)]
        duel_early = self._duel_locked_turn()
        if not no_charge and self._may_engage(m):
            for e in self.on_table(1 - m.side):
                if duel_early and not e.duellist:
                    continue
                if self._charge_spot(m, e) is not None:
                    opts.append(("charge", e.id))
        # the way is measured when the move is made: a move that cannot go anywhere leaves the
        # model where it stands
        for g in ("enemy", "back", "objective", "marker"):
            if self._goal(m, g) is not None:
                opts += [("advance", g), ("run", g)]
        if not (duel_early and m.duellist):
            opts += [("shoot", t.id) for t in self._shoot_targets(m)]
        return opts

    def _duel_locked_turn(self) -> bool:
        n = self.sco.duellists_only_turns
        return bool(n) and self.turn <= n

    def _do_move(self, mid, action) -> None:
        m = self.models[mid[0] if isinstance(mid, tuple) else mid]
        kind = action[0]
        if kind == "pass":
            self.queue[m.side] = []
            self.sides[m.side].done = True
            return
        if kind in ("hold", "stay"):
            return
        if kind == "charge":
            if self.sides[m.side].morale == "wavering" and not self._ignores_morale(m):
                self._test(Fraction(sum(1 for f in range(1, 7) if f + m.p.rank >= 7), 6), "wavering_charge", (m.id, action[1]))
                return
            self._charge(m, self.models[action[1]])
        elif kind in ("advance", "run"):
            pt = self._goal(m, action[1])
            stop = 2 * self.r + 1.0 if action[1] == "enemy" else (0.0 if action[1] == "back" else 2 * self.r)
            end = self._path(m, *pt, self.allowance(m, kind if kind == "run" else "move"), stop, run=kind == "run")
            if end is not None:
                self._move_to(m, *end, kind="run" if kind == "run" else "move")
        elif kind == "flee":
            end = self._path(m, *self._goal(m, "back"), 6.0, 0.0)
            if end is not None:
                self._move_to(m, *end, kind="move")
        elif kind == "withdraw":
            self._withdraw(m)
        elif kind == "shoot":
            self._shoot(m, self.models[action[1]])

    def _on_wavering_charge(self, payload, result) -> None:
        mid, eid = payload
        m = self.models[mid]
        if result == "pass":
            self._charge(m, self.models[eid])
        else:  # may not move into contact, may do something else (p.12)
            self._push(("move", m.side, (mid, "no_charge")))

    def _move_to(self, m: Model, x: float, y: float, *, kind: str) -> None:
        cx, cy = self.objective or (self.table / 2, self.table / 2)
        was_out = math.hypot(m.x - cx, m.y - cy) > 6
        m.x, m.y = x, y
        m.moved = "run" if kind == "run" or m.moved == "run" else "move"
        if self.sco.first_non_duellist_enters and not m.duellist and not self.first_intruder and was_out and math.hypot(x - cx, y - cy) < 6:
            self.first_intruder = True
            self.sides[m.side].penalties += self.sco.first_non_duellist_enters

    def _charge(self, m: Model, e: Model) -> None:
        spot = self._charge_spot(m, e)
        if spot is not None:
            self._move_to(m, *spot, kind="move")

    def _withdraw_spot(self, m: Model) -> tuple[float, float] | None:
        cs = self.contacts(m)
        cx, cy = sum(o.x for o in cs) / len(cs), sum(o.y for o in cs) / len(cs)
        d = math.hypot(m.x - cx, m.y - cy) or 1.0
        x, y = m.x + (m.x - cx) / d * self.allowance(m, "withdraw"), m.y + (m.y - cy) / d * self.allowance(m, "withdraw")
        if self._blocked(m, x, y, {o.id for o in cs}):
            return None
        if any(math.hypot(o.x - x, o.y - y) - 2 * self.r <= TOUCH for o in self.on_table() if o is not m):
            return None  # errata: not into contact with another model
        return (x, y)

    def _withdraw(self, m: Model) -> None:
        foes = self.contacts(m)
        spot = self._withdraw_spot(m)
        if spot is None:
            return
        m.x, m.y = spot
        m.moved = "move"
        m.rounds = 0
        if "acrobatic" not in m.p.attributes and not m.struck_on_withdraw:
            self._push(("free_attack", 1 - m.side, (m.id, tuple(f.id for f in foes))))

    def _options_free_attack(self, payload) -> list[tuple]:
        mid, foes = payload
        strikers = [f for f in foes if self.models[f].alive and not self.models[f].p.civilian]
        return [("let_go",)] + [("strike", f) for f in strikers] if strikers else []

    def _do_free_attack(self, payload, action) -> None:
        if action[0] == "strike":
            m = self.models[payload[0]]
            m.struck_on_withdraw = True
            a = self.models[action[1]]
            self._note_attack(a)
            self._chance(self._melee_odds(a, m, enhance_attack=False, enhance_defence=False, extra_attack=1), "wound", (a.id, m.id, "melee"))

    def _on_rout_check(self, mid, result) -> None:
        m = self.models[mid]
        if result == "pass":
            self._push(("move", m.side, mid))
            return
        self._flee_to_edge(m)

    def _auto_rout_check(self, mid) -> None:
        m = self.models[mid]
        self._test(Fraction(sum(1 for f in range(1, 7) if f + m.p.rank >= 7), 6), "rout_check", mid)

    def _flee_to_edge(self, m: Model) -> None:
        """A Routing model that fails its roll runs for the nearest table edge (p.12) and leaves
        the table when it reaches it."""
        edges = [(m.x, -10.0, m.y), (m.x, self.table + 10.0, self.table - m.y), (-10.0, m.y, m.x), (self.table + 10.0, m.y, self.table - m.x)]
        gx, gy, d = min(edges, key=lambda e: e[2])
        reach = self.allowance(m, "run")
        if d - self.r <= reach:
            m.on_table = False
            m.fled = True
            self._tab = None
            return
        end = self._path(m, gx, gy, reach, 0.0)
        if end is not None:
            m.x, m.y = end
            m.moved = "run"
