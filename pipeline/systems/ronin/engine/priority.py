"""The Priority Phase: Priority (a d6 each, Fearsome Kiai) and Morale tests (book p.10-12)."""

from __future__ import annotations

import itertools
from fractions import Fraction


class PriorityPhase:
    """Priority and morale (book p.10-12); mixed into :class:`RoninState`."""

    def _auto_priority(self, _payload) -> None:
        if self.turn == 1 and self.sco.kind == "kill_leader":
            self.priority = next(i for i, s in enumerate(self.sides) if s.plan.role == "Attacker")
            return
        self._push(*[("kiai", i, i) for i in (0, 1) if self.sides[i].kiai > 0], ("priority_roll", -1, None))

    def _options_kiai(self, side) -> list[tuple]:
        return [("kiai",), ("no_kiai",)] if self.sides[side].kiai > 0 else []

    def _do_kiai(self, side, action) -> None:
        if action[0] == "kiai":
            self.sides[side].kiai -= 1
            self.sides[side].kiai_now = True

    def _auto_priority_roll(self, _payload) -> None:
        k = [s.kiai_now for s in self.sides]
        if k[0] != k[1]:
            self.priority = 0 if k[0] else 1
            return
        self._chance([(0, Fraction(1, 2)), (1, Fraction(1, 2))], "priority")

    def _on_priority(self, _payload, side) -> None:
        self.priority = int(side)

    # morale -------------------------------------------------------------
    def _auto_morale(self, _payload) -> None:
        for s in (self.priority, 1 - self.priority):
            st = self.sides[s]
            if st.plan.no_morale or st.morale == "routing" or st.plan.morale is None:
                continue
            start = len(st.plan.models)
            if st.morale == "wavering" or st.criticals_last * 4 >= start and st.criticals_last > 0 or st.leader_hit_last:
                self._push(("morale_test", -1, s))

    def morale_pass_chance(self, side: int) -> Fraction:
        """Chance the side passes its Morale Test now (p.11-12 and errata): 2d6 + modifiers at
        most the rating; a natural 2 passes, a natural 12 fails; a living banner re-rolls a
        failure."""
        st = self.sides[side]
        left = sum(1 for m in self.buntai(side) if m.alive and m.on_table or m.alive and not m.fled and not m.on_table)
        start = len(st.plan.models)
        mod = 0
        mod += 1 if left * 2 < start else 0
        mod += 1 if left * 4 < start else 0
        mod += 1 if st.morale == "wavering" else 0
        mod -= 1 if any(m.alive and "commander" in m.p.attributes for m in self.buntai(side)) else 0
        rating = st.plan.morale or 0
        p = Fraction(0)
        for a, b in itertools.product(range(1, 7), repeat=2):
            t = a + b
            ok = t == 2 or (t != 12 and t + mod <= rating)
            p += Fraction(1, 36) if ok else 0
        if any(m.alive and m.p.banner and not m.banner_taken for m in self.buntai(side)):
            p = p + (1 - p) * p
        return p

    def _auto_morale_test(self, side) -> None:
        self._test(self.morale_pass_chance(side), "morale", side)

    def _on_morale(self, side, result) -> None:
        st = self.sides[side]
        if result == "pass":
            if st.morale == "wavering":
                st.morale = "steady"
        else:
            st.morale = "wavering" if st.morale == "steady" else "routing"
