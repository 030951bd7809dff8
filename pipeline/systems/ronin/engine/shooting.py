"""Shooting (book p.14-17) in the Move and Action Phases, and the Action Phase's other actions
(p.24-25): reload a teppo, take a head, pick up a banner, rest."""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

from pipeline.systems.ronin.engine.game import ARMOUR, TOUCH
from pipeline.systems.ronin.engine.geometry import _clip, _in_zone, _seg_point
from pipeline.systems.ronin.engine.pieces import Model
from pipeline.systems.ronin.odds import (
    RESULTS,
    ShootSide,
    shooting_distribution,
)


class ShootingAndActions:
    """Shooting and the Action Phase (book p.14-17, p.24-25); mixed into :class:`RoninState`."""

    def _shoot_targets(self, m: Model) -> list[Model]:
        w = m.p.missile
        if w is None or m.stunned or self.engaged(m) or m.p.civilian:
            return []
        wp = self.data.weapons[w]
        if wp.reload and not m.loaded:
            return []
        if wp.mounted_shoot == "forbidden" and m.p.mounted:
            return []
        if self.phase == "action" and m.fought:
            return []  # errata no_missile_after_combat
        if m.moved and self.phase == "move" and w != "shuriken":
            return []  # a model may not move once it used a missile weapon: shooting ends its activation
        if (w == "yumi" and m.shots >= 2) or (w != "yumi" and m.shots >= 1):
            return []
        rng = wp.max_range_in or 0
        out = []
        for e in self.on_table(1 - m.side):
            if self.dist(m, e) <= rng and self._line_of_sight(m, e):
                out.append(e)
        return out

    def _line_of_sight(self, a: Model, b: Model) -> bool:
        """No other model's base on the line between the centres; at most 2" of light cover;
        heavy cover only in front of a target that moved or shot this turn (p.15)."""
        for o in self.on_table():
            if o is a or o is b:
                continue
            if _seg_point(a.x, a.y, b.x, b.y, o.x, o.y) < self.r - 1e-9:
                return False
        light = sum(_clip(t.zone, a.x, a.y, b.x, b.y) for t in self.terrain if t.cover == "light")
        if light > 2.0:
            return False
        heavy = any(_clip(t.zone, a.x, a.y, b.x, b.y) > 0 for t in self.terrain if t.cover == "heavy" and not _in_zone(t.zone, a.x, a.y))
        return not (heavy and not b.moved and not b.shots)

    def _cover(self, a: Model, b: Model) -> int:
        best = 0
        for t in self.terrain:
            if t.cover == "none" or _in_zone(t.zone, a.x, a.y):
                continue
            if _in_zone(t.zone, b.x, b.y) or _clip(t.zone, a.x, a.y, b.x, b.y) > 0:
                best = max(best, 2 if t.cover == "heavy" else 1)
        return best

    def shot_odds(self, m: Model, e: Model) -> tuple[tuple[str, Fraction], ...]:
        """Exact chances of each wound result of ``m`` shooting at ``e`` now."""
        w = m.p.missile
        wp = self.data.weapons[w]
        d = max(0.0, self.dist(m, e))
        band = next((b for b in self.g.bands if b.from_in <= d <= b.to_in), self.g.bands[-1])
        teppo = wp.reload
        band_mod = band.teppo_modifier if (teppo and band.teppo_modifier is not None) else band.modifier
        mod = 0
        if self.engaged(e):
            mod -= 1
        if w != "shuriken":
            mod -= {"": 0, "move": 1, "run": 2}[m.moved]
        mod -= 1 if m.shots else 0
        mod -= 1 if self.phase == "move" else 0
        mod -= 1 if m.wound == "grievous" else 0  # erratum grievous_shoot_penalty: once
        if m.p.mounted and isinstance(wp.mounted_shoot, int) and "bajutsu" not in m.p.attributes:
            mod += wp.mounted_shoot
        if w == "yumi" and "yadome_jutsu" in e.p.attributes:
            mod -= 2
        armour = e.p.armour
        if wp.armour_as:
            armour = wp.armour_as.get(armour, armour)
        defence = self.data.rules.shooting_defence_base + ARMOUR[armour] + self._cover(m, e)
        reroll = 3 if self._bujutsu(m, w) else 0
        shoot = m.p.shoot + (wp.shoot if isinstance(wp.shoot, int) else 0)
        return _shot(shoot, reroll, mod, band_mod, defence)

    def _bujutsu(self, m: Model, weapon: str) -> bool:
        return any(weapon in self.data.attributes[a].weapons for a in m.p.attributes if a in self.data.attributes and self.data.attributes[a].category == "bujutsu")

    def _shoot(self, m: Model, e: Model) -> None:
        self._note_attack(m)
        odds = self.shot_odds(m, e)
        m.shots += 1
        if self.data.weapons[m.p.missile].reload:
            m.loaded = False
        self._chance(odds, "shot", (m.id, e.id))

    def _on_shot(self, payload, result) -> None:
        mid, eid = payload[0], payload[1]
        retry = len(payload) == 2
        e = self.models[eid]
        if result == "none" and retry and self.engaged(e):
            others = [o for o in self._in_combat_with(e) if o.id not in (eid, mid) and o.alive]
            if others:
                self._chance([(o.id, Fraction(1, len(others))) for o in others], "stray", mid)
            return
        self._wound(self.models[mid], e, result, "shot")

    def _on_stray(self, mid, oid) -> None:
        m, o = self.models[mid], self.models[oid]
        self._chance(self.shot_odds_again(m, o), "shot", (mid, oid, "second"))

    def shot_odds_again(self, m: Model, o: Model) -> tuple[tuple[str, Fraction], ...]:
        """A missed shot into a combat tried against another model of it: a new Shooting Attack
        with the same shot's modifiers (this one does not count as firing again)."""
        m.shots -= 1
        try:
            return self.shot_odds(m, o)
        finally:
            m.shots += 1

    def _note_attack(self, m: Model) -> None:
        if self.sco.first_non_duellist_attack and not m.duellist and not self.first_outside_attack:
            self.first_outside_attack = True
            self.sides[m.side].penalties += self.sco.first_non_duellist_attack

    def _options_act(self, mid) -> list[tuple]:
        m = self.models[mid]
        if not (m.alive and m.on_table) or self.engaged(m):
            return []
        opts: list[tuple] = [("rest",)]
        opts += [("shoot", t.id) for t in self._shoot_targets(m)]
        wp = self.data.weapons[m.p.missile] if m.p.missile else None
        if wp is not None and wp.reload and not m.loaded and not m.moved and not m.shots and not m.fought and not m.stunned:
            opts.append(("reload",))
        if not m.stunned:
            for sid in self.slain:
                s = self.models[sid]
                if s.side == m.side or math.hypot(s.x - m.x, s.y - m.y) - 2 * self.r > TOUCH:
                    continue
                if not s.head_taken:
                    opts.append(("take_head", sid))
                if s.p.banner and not s.banner_taken:
                    opts.append(("take_banner", sid))
        return opts

    def _do_act(self, mid, action) -> None:
        m = self.models[mid]
        kind = action[0]
        if kind == "rest":
            m.rested = True
        elif kind == "shoot":
            self._shoot(m, self.models[action[1]])
        elif kind == "reload":
            m.loaded = True
        elif kind == "take_head":
            self.models[action[1]].head_taken = True
            m.heads += 1
        elif kind == "take_banner":
            self.models[action[1]].banner_taken = True
            self.sides[m.side].banners_captured += 1


@lru_cache(maxsize=4096)
def _shot(shoot: int, reroll: int, mod: int, band_mod: int, defence: int) -> tuple[tuple[str, Fraction], ...]:
    d = shooting_distribution(ShootSide(shoot=shoot, reroll_at_most=reroll, modifiers=mod), band_mod, defence)
    return tuple((r, d[r]) for r in RESULTS)
