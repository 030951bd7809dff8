"""The Combat Phase (book p.17-23): combats formed, Combat Pools split into Attack and Defence
counters, Initiative, attacks with Enhanced rolls; wounds and kills (also from shooting)."""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import lru_cache

from pipeline.systems.ronin.engine.game import ARMOUR
from pipeline.systems.ronin.engine.pieces import Combat, Model
from pipeline.systems.ronin.odds import (
    RESULTS,
    MeleeSide,
    melee_distribution,
)


class CombatPhase:
    """Wounds and the Combat Phase (book p.17-23, p.29); mixed into :class:`RoninState`."""

    def _wound(self, attacker: Model, m: Model, result: str, how: str) -> None:
        """Apply a wound-table result to ``m`` (errata wound_combination)."""
        if result == "none" or not m.alive:
            return
        if self.match is not None and result in ("light", "grievous", "critical"):
            self.sides[attacker.side].match_points += (self.sco.match_points or {}).get(result, 0)
        if result == "stunned":
            m.stunned += 1
            return
        if result == "light":
            new = {"none": "light", "light": "grievous", "grievous": "critical"}[m.wound]
        elif result == "grievous":
            new = "grievous" if m.wound == "none" else "critical"
        else:
            new = "critical"
        if new == "critical":
            self._kill(attacker.p.rank, m)
            return
        if new == "grievous" and m.wound != "grievous" and self.combat is not None and m.id in self.combat.attack:
            if self.combat.attack[m.id] > 0:
                self.combat.attack[m.id] -= 1
            elif self.combat.defence.get(m.id, 0) > 0:
                self.combat.defence[m.id] -= 1
        m.wound = new

    def _kill(self, killer_rank: int, m: Model, *, final: bool = False) -> None:
        """``m`` takes a Critical wound from a model of Rank ``killer_rank`` (a Tough model in
        the Combat Phase falls only at its end, ``final``)."""
        st = self.sides[m.side]
        if m.dying and not final:
            return
        if "tough" in m.p.attributes and self.phase == "combat" and self.combat is not None and not final:
            m.dying = True  # removed at the end of the Combat Phase (p.29)
            m.killer_rank = killer_rank
            return
        m.alive = False
        self._tab = None
        m.killer_rank = killer_rank
        if not m.p.civilian:
            st.criticals += 1
            if m.leader:
                st.leader_hit = True
        self.slain.append(m.id)
        if self.combat is not None:
            self.combat.attack.pop(m.id, None)
            self.combat.defence.pop(m.id, None)  # errata dead_model_counters
        if self.sco.kind == "kill_leader" and m.leader and self.sides[m.side].plan.role == "Defender":
            self._end(1 - m.side)

    # ------------------------------------------------------------------ combat
    def _auto_next_combat(self, side) -> None:
        for s in (side, 1 - side):
            for m in self.models.values():
                if m.side == s and m.alive and m.on_table and not m.fought and self.engaged(m):
                    self._push(("next_combat", -1, 1 - s))
                    self._start_combat(m)  # its steps go before the next combat's
                    return
        # the phase is over: Tough models that took a Critical wound fall now
        for m in self.models.values():
            if m.dying and m.alive:
                self._kill(m.killer_rank or 0, m, final=True)
                m.dying = False
            if m.alive and m.on_table:
                m.rounds = m.rounds + 1 if m.fought else 0
        self.combat = None

    def _start_combat(self, m: Model) -> None:
        foes = [o for o in self.contacts(m) if not o.fought]
        if len(foes) == 1:
            single = foes[0]
            many = [o for o in self.contacts(single) if not o.fought][:4]
            sides = {single.side: [single.id], 1 - single.side: [o.id for o in many]}
        else:
            sides = {m.side: [m.id], 1 - m.side: [o.id for o in foes[:4]]}
        c = Combat((sides[0], sides[1]))
        self.combat = c
        steps: list[tuple] = []
        for s in (0, 1):
            for mid in c.sides[s]:
                self.models[mid].fought = True
                if self.models[mid].p.civilian and self.models[mid].civilian_fights is None:
                    steps.append(("civilian_roll", -1, mid))
                steps.append(("counters", s, mid))
        # every Initiative Enhancement is declared before the dice are rolled (p.19)
        steps += [("enhance_init", s, mid) for s in (0, 1) for mid in c.sides[s]]
        steps += [("init_roll", -1, mid) for s in (0, 1) for mid in c.sides[s]]
        steps += [("init_order", -1, None), ("attack_next", -1, None)]
        self._push(*steps)

    def _auto_civilian_roll(self, mid) -> None:
        self._test(Fraction(1, 2), "civilian", mid)

    def _on_civilian(self, mid, result) -> None:
        self.models[mid].civilian_fights = result == "pass"

    def pool(self, m: Model) -> int:
        """Combat Pool now: -1 with a Grievous wound; a civilian who rolled 1-3 has none; Intuition
        gives one more (a Defence counter)."""
        if m.p.civilian and not m.civilian_fights:
            return 0
        return max(0, m.p.combat_pool - (1 if m.wound == "grievous" else 0))

    def _options_counters(self, mid) -> list[tuple]:
        m = self.models[mid]
        if not m.alive:
            return []
        return [("counters", k) for k in range(self.pool(m) + 1)]

    def _do_counters(self, mid, action) -> None:
        m = self.models[mid]
        k = action[1]
        self.combat.attack[mid] = k
        self.combat.defence[mid] = self.pool(m) - k + (1 if "intuition" in m.p.attributes else 0)

    def _options_enhance_init(self, mid) -> list[tuple]:
        return [("enhance",), ("plain",)] if self.combat.attack.get(mid, 0) > 0 and self.models[mid].alive else []

    def _do_enhance_init(self, mid, action) -> None:
        if action[0] == "enhance":
            self.combat.attack[mid] -= 1
            self.combat.enhanced_init.add(mid)

    def initiative_bonus(self, m: Model) -> int:
        """Initiative + modifiers: the weapon's (first round or later), wounds, Fast, banner."""
        wp = self.data.weapons[m.p.melee]
        w = wp.initiative if isinstance(wp.initiative, int) else 0
        if m.rounds > 0 and wp.initiative_later is not None:
            w = wp.initiative_later
        pen = {"none": 0, "light": 0 if "tough" in m.p.attributes else 1, "grievous": 2}[m.wound] + (1 if m.stunned else 0)
        bonus = 1 if "fast" in m.p.attributes else 0
        bonus -= 1 if m.p.banner else 0
        return max(0, m.p.initiative - pen) + w + bonus

    def _auto_init_roll(self, mid) -> None:
        if not self.models[mid].alive:
            return
        enh = mid in self.combat.enhanced_init
        faces = [(f, Fraction(2 * f - 1, 36) if enh else Fraction(1, 6)) for f in range(1, 7)]
        self._chance(faces, "init", mid)

    def _on_init(self, mid, face) -> None:
        self.combat.init[mid] = int(face) + self.initiative_bonus(self.models[mid])

    def _auto_init_order(self, _payload) -> None:
        c = self.combat
        ids = [i for s in c.sides for i in s if self.models[i].alive]
        by = sorted(ids, key=lambda i: -c.init.get(i, 0))
        groups = [list(g) for _k, g in itertools.groupby(by, key=lambda i: c.init.get(i, 0))]
        self._tie_groups = groups
        c.order = []
        self._push(("tie_break", -1, 0))

    def _auto_tie_break(self, k) -> None:
        groups = self._tie_groups
        if k >= len(groups):
            return
        g = groups[k]
        fast = [i for i in g if "fast" in self.models[i].p.attributes]
        rest = [i for i in g if i not in fast]
        self.combat.order += fast
        if len(rest) <= 1:
            self.combat.order += rest
            self._push(("tie_break", -1, k + 1))
            return
        perms = list(itertools.permutations(rest))
        self._chance([(p, Fraction(1, len(perms))) for p in perms], "tie", k)

    def _on_tie(self, k, perm) -> None:
        self.combat.order += list(perm)
        self._push(("tie_break", -1, k + 1))

    def _foes_in_combat(self, mid: str) -> list[str]:
        c = self.combat
        s = 0 if mid in c.sides[0] else 1
        return [i for i in c.sides[1 - s] if self.models[i].alive]

    def _auto_attack_next(self, _payload) -> None:
        c = self.combat
        n = len(c.order)
        active = [i for i in c.order if self.models[i].alive and c.attack.get(i, 0) > 0 and self._foes_in_combat(i)]
        if not active or c.passes >= len(active):
            return  # every model emptied its pool or passed in succession
        for k in range(n):
            mid = c.order[(c.at + k) % n]
            if mid in active:
                c.at = (c.order.index(mid) + 1) % n
                self._push(("attack", self.models[mid].side, mid))
                return

    def _options_attack(self, mid) -> list[tuple]:
        m = self.models[mid]
        if not m.alive or self.combat.attack.get(mid, 0) <= 0:
            return []
        return [("strike", t) for t in self._foes_in_combat(mid)] + [("pass",)]

    def _do_attack(self, mid, action) -> None:
        c = self.combat
        if action[0] == "pass":
            c.passes += 1
            self._push(("attack_next", -1, None))
            return
        c.passes = 0
        c.attack[mid] -= 1
        m, t = self.models[mid], self.models[action[1]]
        self._note_attack(m)
        self._push(("enhance_defence", t.side, (mid, t.id)), ("enhance_attack", m.side, (mid, t.id)), ("strike", -1, (mid, t.id)), ("attack_next", -1, None))
        self._enh = {"a": False, "d": False}

    def _defence_pool(self, t: Model) -> list[str]:
        c = self.combat
        s = 0 if t.id in c.sides[0] else 1
        own = [t.id] if c.defence.get(t.id, 0) > 0 else []
        return own + [i for i in c.sides[s] if i != t.id and self.models[i].alive and c.defence.get(i, 0) > 0]

    def _options_enhance_defence(self, payload) -> list[tuple]:
        t = self.models[payload[1]]
        return [("enhance",), ("plain",)] if t.alive and self._defence_pool(t) else []

    def _do_enhance_defence(self, payload, action) -> None:
        if action[0] == "enhance":
            t = self.models[payload[1]]
            self.combat.defence[self._defence_pool(t)[0]] -= 1
            self._enh["d"] = True

    def _options_enhance_attack(self, payload) -> list[tuple]:
        return [("enhance",), ("plain",)] if self.combat.attack.get(payload[0], 0) > 0 else []

    def _do_enhance_attack(self, payload, action) -> None:
        if action[0] == "enhance":
            self.combat.attack[payload[0]] -= 1
            self._enh["a"] = True

    def _auto_strike(self, payload) -> None:
        a, t = self.models[payload[0]], self.models[payload[1]]
        if not (a.alive and t.alive):
            return
        self._chance(self._melee_odds(a, t, enhance_attack=self._enh["a"], enhance_defence=self._enh["d"]), "wound", (a.id, t.id, "melee"))

    def _on_wound(self, payload, result) -> None:
        self._wound(self.models[payload[0]], self.models[payload[1]], result, payload[2])

    def _melee_odds(self, a: Model, t: Model, *, enhance_attack: bool, enhance_defence: bool, extra_attack: int = 0) -> tuple[tuple[str, Fraction], ...]:
        """Exact chances of each wound result of one attack of ``a`` on ``t`` (p.19-23)."""
        wp = self.data.weapons[a.p.melee]
        amod = extra_attack + (1 if "powerful" in a.p.attributes else 0) - (1 if a.p.banner else 0)
        if a.p.mounted and "bajutsu" not in a.p.attributes:
            amod -= 2
        if t.p.armour == "heavy":
            amod += wp.vs_heavy_attack
        dmod = -(1 if t.p.banner else 0)
        if len(self.contacts(t)) >= 3:
            dmod -= 1
        a_fight = 0 if (a.p.civilian and not a.civilian_fights) else a.p.fight
        t_fight = 0 if (t.p.civilian and not t.civilian_fights) else t.p.fight
        att = MeleeSide(fight=a_fight, weapon_attack=wp.attack if isinstance(wp.attack, int) else 0, enhanced_attack_bonus=wp.enhanced_attack_bonus,
                        enhance=enhance_attack, reroll_at_most=3 if self._bujutsu(a, a.p.melee) else 0, wound=a.wound, tough="tough" in a.p.attributes, modifiers=amod)
        dfn = MeleeSide(fight=t_fight, armour=ARMOUR[t.p.armour], enhance=enhance_defence, reroll_at_most=3 if self._bujutsu(t, t.p.melee) else 0,
                        wound=t.wound, tough="tough" in t.p.attributes, modifiers=dmod)
        return _melee(att, dfn)


@lru_cache(maxsize=4096)
def _melee(att: MeleeSide, dfn: MeleeSide) -> tuple[tuple[str, Fraction], ...]:
    d = melee_distribution(att, MeleeSide(**{**dfn.__dict__, "wound": "none"}))
    return tuple((r, d[r]) for r in RESULTS)
