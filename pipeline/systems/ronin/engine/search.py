"""The search hooks of :class:`~pipeline.play.protocol.SearchState` for Ronin: a cheap
``clone()``, ``determinize(player, rng)`` and ``information_key(player)``.

Ronin's hidden information is what a player has chosen in secret and not yet revealed:

* the Attack and Defence counters each player draws for a combat ("Players secretly draw
  counters ... Each player then reveals his Combat Pool", p.18): the engine asks the first
  side's models, then the second's, and reveals them all after (``Combat.revealed``); while the
  second player chooses, the first one's split is in the state but not his to see;
* the Tournament's order ("Each player secretly records the order in which his models will
  fight", p.64): the first player records his, then the second; each match reveals its pair.

Everything else is public (dice are chance nodes, not state). ``determinize`` redraws the
opponent's unrevealed choices from what the player sees: each counter split uniformly from the
splits the model's Combat Pool allows, the unrevealed part of an order as a uniform sample of
the opponent's unrevealed models, in an order fixed by sorted ids, so that two states of one
information set give equal determinizations for equally seeded generators.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from dataclasses import fields

from pipeline.systems.ronin.engine.pieces import Combat, Model, SideState

#: Model fields that change in play (the profile ``p`` and the id are fixed for a game).
_MODEL_FIELDS = tuple(f.name for f in fields(Model) if f.name not in ("id", "p"))
_SIDE_FIELDS = tuple(f.name for f in fields(SideState) if f.name != "plan")
#: What stands for a choice a player cannot see in :meth:`SearchHooks.information_key`.
HIDDEN = "?"


class SearchHooks:
    """``clone``, ``determinize`` and ``information_key``; mixed into :class:`RoninState`."""

    def clone(self):
        """An independent copy (the game, its data and the terrain are shared: play never
        changes them): about 170,000 machine instructions for the 100-point Skirmish in mid-game
        (callgrind), 16-50 µs of CPU on the development machine (README)."""
        new = object.__new__(type(self))
        d = self.__dict__.copy()
        models = {}
        for k, m in self.models.items():
            c = object.__new__(Model)
            c.__dict__.update(m.__dict__)
            models[k] = c
        d["models"] = models
        sides = []
        for s in self.sides:
            c = object.__new__(SideState)
            c.__dict__.update(s.__dict__)
            sides.append(c)
        d["sides"] = sides
        if self.combat is not None:
            c = self.combat
            d["combat"] = Combat((list(c.sides[0]), list(c.sides[1])), dict(c.attack), dict(c.defence), set(c.enhanced_init), dict(c.init), list(c.order),
                                 c.at, c.passes, c.revealed)
        d["steps"] = list(self.steps)
        d["queue"] = [list(q) for q in self.queue]
        d["slain"] = list(self.slain)
        d["order"] = [list(o) for o in self.order]
        d["vp"] = list(self.vp)
        d["_tab"] = None
        if "_enh" in d:
            d["_enh"] = dict(self._enh)
        new.__dict__ = d
        return new

    def _hidden_from(self, player: int) -> tuple[list[str], list[int]]:
        """What ``player`` cannot see: the opponent's models whose counters are chosen and not
        revealed; the positions of the opponent's order not yet revealed by a match."""
        o = 1 - player
        counters: list[str] = []
        c = self.combat
        if c is not None and not c.revealed:
            counters = sorted(i for i in c.sides[o] if i in c.attack)
        order = [k for k, i in enumerate(self.order[o]) if not self.models[i].matched]
        return counters, order

    def determinize(self, player: int, rng: random.Random):
        """A copy in which the opponent's unrevealed choices are drawn anew from what ``player``
        sees (see the module docstring); the rest is :meth:`clone`."""
        new = self.clone()
        counters, order = new._hidden_from(player)
        c = new.combat
        for mid in counters:
            m = new.models[mid]
            pool = new.pool(m)
            k = rng.randrange(pool + 1)
            c.attack[mid] = k
            c.defence[mid] = pool - k + (1 if "intuition" in m.p.attributes else 0)
        if order:
            o = 1 - player
            seen = {i for i in new.order[o] if new.models[i].matched}
            unseen = sorted(m.id for m in new.buntai(o) if m.id not in seen)
            drawn = rng.sample(unseen, len(order))
            for k, mid in zip(order, drawn, strict=True):
                new.order[o][k] = mid
        return new

    def information_key(self, player: int) -> Hashable:
        """A hashable summary of what ``player`` sees: the whole state with the opponent's
        unrevealed counters and order entries masked (:data:`HIDDEN`). Equal for two states of
        one game that ``player`` cannot tell apart."""
        return self._key(player)

    def state_key(self) -> Hashable:
        """The whole state, nothing masked (two states with equal keys play on alike)."""
        return self._key(None)

    def _key(self, player: int | None) -> Hashable:
        counters, order = self._hidden_from(player) if player is not None else ([], [])
        hide = set(counters)
        models = tuple((k, *(getattr(m, f) for f in _MODEL_FIELDS)) for k, m in self.models.items())
        sides = tuple(tuple(getattr(s, f) for f in _SIDE_FIELDS) for s in self.sides)
        c = self.combat
        combat = None
        if c is not None:
            combat = (tuple(map(tuple, c.sides)),
                      tuple(sorted((k, HIDDEN if k in hide else v) for k, v in c.attack.items())),
                      tuple(sorted((k, HIDDEN if k in hide else v) for k, v in c.defence.items())),
                      tuple(sorted(c.enhanced_init)), tuple(sorted(c.init.items())), tuple(c.order), c.at, c.passes, c.revealed)
        orders = []
        for s in (0, 1):
            masked = set(order) if player is not None and s == 1 - player else set()
            orders.append(tuple(HIDDEN if k in masked else i for k, i in enumerate(self.order[s])))
        pending = None if self.pending is None else (tuple(self.pending[0]), self.pending[1], self.pending[2])
        return (self.turn, self.turns_begun, self.length, self.priority, self.phase, self.done, self._winner, tuple(self.vp),
                self.first_intruder, self.first_outside_attack, self.match, self.match_turn, self.final, tuple(self.slain),
                tuple(map(tuple, self.queue)), tuple(self.steps), pending, models, sides, combat, tuple(orders),
                tuple(map(tuple, getattr(self, "_tie_groups", ()))), tuple(sorted(getattr(self, "_enh", {}).items())),
                getattr(self, "_match_score", None))
