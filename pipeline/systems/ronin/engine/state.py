"""The state of a game in progress, :class:`RoninState`: the state protocol of
:mod:`pipeline.play`, the step machinery that runs a turn, and the queries every phase uses; the
rules of each phase are the mixins of :mod:`~pipeline.systems.ronin.engine.turn`,
:mod:`~pipeline.systems.ronin.engine.priority`, :mod:`~pipeline.systems.ronin.engine.movement`,
:mod:`~pipeline.systems.ronin.engine.shooting`, :mod:`~pipeline.systems.ronin.engine.combat` and
:mod:`~pipeline.systems.ronin.engine.end`."""

from __future__ import annotations

import math
from collections.abc import Hashable
from fractions import Fraction

from pipeline.systems.ronin.engine.combat import CombatPhase
from pipeline.systems.ronin.engine.end import EndPhase
from pipeline.systems.ronin.engine.game import TOUCH, RoninGame
from pipeline.systems.ronin.engine.movement import MovePhase
from pipeline.systems.ronin.engine.pieces import Combat, Model, SideState
from pipeline.systems.ronin.engine.priority import PriorityPhase
from pipeline.systems.ronin.engine.shooting import ShootingAndActions
from pipeline.systems.ronin.engine.turn import TurnSequence
from pipeline.systems.ronin.model import GameTerrain


class RoninState(TurnSequence, PriorityPhase, MovePhase, ShootingAndActions, CombatPhase, EndPhase):
    """A game in progress; :mod:`pipeline.systems.ronin.engine` describes the turn, the decisions
    and the chance nodes."""

    def __init__(self, game: RoninGame):
        self.g = game
        self.data = game.data
        self.sc = game.scenario
        self.sco = game.scenario.scoring
        self.table = game.game.table_side_in
        self.r = game.radius
        self.models: dict[str, Model] = {}
        self.sides = [SideState(p, kiai=p.kiai) for p in game.sides]
        for s, plan in enumerate(game.sides):
            top = max(m.rank for m in plan.models)
            leader_set = False
            for i, prof in enumerate(plan.models):
                x, y = game.spots[s][i]
                m = Model(prof.key, s, prof, x, y, arrives=plan.arrives[i])
                if prof.rank == top and not leader_set:
                    m.leader = leader_set = True
                self.models[m.id] = m
        self.civilians: list[str] = []
        if game.civilian is not None:
            ox, oy = game.game.objective or (self.table / 2, self.table / 2)
            n = game.game.civilians
            defender = next(i for i, s in enumerate(game.sides) if s.role == "Defender")
            for k in range(n):
                m = Model(f"civ{k + 1}", defender, game.civilian, ox - 1.5 * (n - 1) / 2 + 1.5 * k, oy + 2)
                self.models[m.id] = m
                self.civilians.append(m.id)
        self.terrain: list[GameTerrain] = list(game.game.terrain)
        self.objective = game.game.objective
        self.slain: list[str] = []
        self.turn = 0
        self.turns_begun = 0
        self.length: int | None = self.sc.length.turns
        self.priority = 0
        self.steps: list[tuple[str, int, Hashable]] = []
        self.pending: tuple[list[tuple[Hashable, float]], str, Hashable] | None = None
        self._opts: list[tuple] = []
        self.combat: Combat | None = None
        self.queue: list[list[str]] = [[], []]
        self.phase = "setup"
        self.done = False
        self._winner: int | None = None
        self.vp = [0.0, 0.0]
        self.first_intruder = False
        self.first_outside_attack = False
        self.match: tuple[str, str] | None = None
        self.match_turn = 0
        self.final = False
        self.history: list = []
        self._tab: tuple[list[Model], list[Model], list[Model]] | None = None
        self.steps = [("setup", -1, None)]
        self._run()

    # ------------------------------------------------------------------ protocol
    def current_player(self) -> int:
        if self.done or self.pending is not None:
            return -1
        return self.steps[0][1]

    def legal_actions(self) -> list[tuple]:
        if self.done or self.pending is not None:
            return []
        return list(self._opts)

    def is_chance_node(self) -> bool:
        return not self.done and self.pending is not None

    def chance_outcomes(self) -> list[tuple[Hashable, float]]:
        return [(o, float(p)) for o, p in self.pending[0]]

    def is_terminal(self) -> bool:
        return self.done

    def winner(self) -> int | None:
        return self._winner

    def returns(self) -> list[float]:
        if self._winner is None:
            return [0.0, 0.0]
        return [1.0 if i == self._winner else -1.0 for i in (0, 1)]

    def turn_count(self) -> int:
        return self.turns_begun

    def apply_action(self, action) -> None:
        if self.pending is not None:
            _outs, callback, payload = self.pending
            self.pending = None
            getattr(self, "_on_" + callback)(payload, action)
        else:
            kind, player, payload = self.steps.pop(0)
            getattr(self, "_do_" + kind)(payload, action)
        self._run()

    # ------------------------------------------------------------------ machinery
    def _run(self) -> None:
        """Run automatic steps until a decision with options or a chance node is due."""
        while not self.done and self.pending is None and self.steps:
            kind, player, payload = self.steps[0]
            if player >= 0:
                opts = getattr(self, "_options_" + kind)(payload)
                if opts:
                    self._opts = opts
                    return
                self.steps.pop(0)
                continue
            self.steps.pop(0)
            getattr(self, "_auto_" + kind)(payload)

    def _chance(self, outcomes, callback: str, payload=None) -> None:
        outs = [(o, p) for o, p in outcomes if p > 0]
        if len(outs) == 1:
            getattr(self, "_on_" + callback)(payload, outs[0][0])
            return
        self.pending = (outs, callback, payload)

    def _test(self, p_pass: Fraction, callback: str, payload=None) -> None:
        self._chance([("pass", p_pass), ("fail", 1 - p_pass)], callback, payload)

    def _push(self, *steps: tuple) -> None:
        self.steps[0:0] = list(steps)

    # ------------------------------------------------------------------ queries
    def on_table(self, side: int | None = None) -> list[Model]:
        """Living models on the table (of ``side``), kept until one dies, arrives or leaves."""
        if self._tab is None:
            every = [m for m in self.models.values() if m.alive and m.on_table]
            self._tab = (every, [m for m in every if m.side == 0], [m for m in every if m.side == 1])
        return self._tab[0 if side is None else side + 1]

    def buntai(self, side: int) -> list[Model]:
        """The side's Buntai (its civilians are not part of it)."""
        return [m for m in self.models.values() if m.side == side and not m.p.civilian]

    def dist(self, a: Model, b: Model) -> float:
        """Edge-to-edge distance (inches)."""
        return math.hypot(a.x - b.x, a.y - b.y) - 2 * self.r

    def contacts(self, m: Model) -> list[Model]:
        return [o for o in self.on_table(1 - m.side) if self.dist(m, o) <= TOUCH]

    def engaged(self, m: Model) -> bool:
        return bool(self.contacts(m))

    def _leader(self, side: int) -> Model | None:
        return next((m for m in self.models.values() if m.side == side and m.leader), None)

    def _in_combat_with(self, m: Model) -> list[Model]:
        """Every model in ``m``'s fight (it, the enemies touching it, their other opponents)."""
        group = {m.id}
        frontier = [m]
        while frontier:
            x = frontier.pop()
            for o in self.contacts(x):
                if o.id not in group:
                    group.add(o.id)
                    frontier.append(o)
        return [self.models[i] for i in sorted(group)]
