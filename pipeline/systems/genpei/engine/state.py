"""The Genpei game as a state machine in the style of OpenSpiel.

``GenpeiState(data, scenario)`` is the start of a game. At each node either a player decides
(``legal_actions()``, ``current_player()``) or chance does (``is_chance_node()``,
``chance_outcomes()`` = ``[(outcome, probability)]``); ``apply_action(a)`` moves on, for both.
``is_terminal()``, ``winner()`` and ``returns()`` end it.

A player's turn (rules-facts §1.4, the C&C sequence): play a Command card (a section card:
see :mod:`.deck`), order units in that section, move each ordered unit, battle with each
(close or ranged, with or without Leader Inspiration, or attack a Palisade/Stockade tile), then
draw a card (chance) and take 2 H&F. A battle roll is one chance node whose outcomes are the
exact distribution of ``(symbols, swords, flags, H&F)`` from :mod:`pipeline.systems.genpei.odds`;
after it the roller may spend a sword on a grapple or on severing one; then hits, retreats,
battle back (or a Stockade's first strike), taking ground and a bonus close combat follow.

Actions are tuples:

=======================================  ==========================================
``("card", kind, section)``              play a card of the hand
``("order", uid)`` / ``("end_orders",)`` order a unit / stop ordering
``("move", uid, hex)``                   move (``hex`` = where it stands: stay)
``("battle", uid, target, kind, insp)``  close or ranged battle at unit ``target``
``("destroy", uid, hex, insp)``          attack the Palisade/Stockade on ``hex``
``("pass", uid)``                        no battle
``("grapple", bool)``                    spend a sword on a grapple (or severing)
``("bonus", uid, target, insp)``         bonus close combat after taking ground
=======================================  ==========================================

Abstractions (each documented where it is made): the deck (:mod:`.deck`), unknown stats
(:mod:`.stats`); a retreat is taken automatically along the owner's own edge (the first free
hex of the two behind, avoiding Marsh when it can), costs 1 figure per hex that cannot be
retreated or paid for in H&F (Lack of Honor), and stops in a Marsh; battle back is never
inspired; a unit eligible for a bonus close combat always takes ground; a leader whose unit is
eliminated joins the nearest friendly unit without a leader within 3 hexes (lone-leader retreat
range) or is lost (1 banner) — at sea only deck to deck, through friendly boats within 2 hexes,
else seppuku (+5 H&F, a random Command card lost, no banner; Genpei pack, naval leaders). No
lone leaders are left on the board, so the lone-leader Marsh roll is a rule function only
(:func:`marsh_entry_outcomes`).
"""

from __future__ import annotations

import copy
from collections import deque
from dataclasses import dataclass, field

from pipeline.systems.genpei import odds
from pipeline.systems.genpei.engine import victory
from pipeline.systems.genpei.engine.board import Board, Hex, with_wind
from pipeline.systems.genpei.engine.combat import (
    Fighter,
    Setup,
    close_setup,
    destroy_setup,
    max_range,
    ranged_setup,
    score,
)
from pipeline.systems.genpei.engine.deck import END_OF_TURN_HF, ORDERS, SECTION_CARDS
from pipeline.systems.genpei.engine.stats import UnitStats, resolve
from pipeline.systems.genpei.load import GenpeiData
from pipeline.systems.genpei.model import LeaderType, Scenario, UnitType

CHANCE = -1
TERMINAL = -4


@dataclass
class Unit:
    """A unit on the board (with its attached leader)."""

    uid: int
    side: int
    type: UnitType
    stats: UnitStats
    figures: int
    hex: Hex
    leader: LeaderType | None = None
    note: str = ""
    start_hex: Hex = (0, 0)
    moved: bool = False
    no_battle: bool = False
    lying_flat: bool = False
    took_ground: bool = False


@dataclass
class SideState:
    """A player: scenario side, hand, H&F and banners."""

    id: str
    name: str
    edge: str
    target: int
    hf: int
    hand: list[tuple[str, str]] = field(default_factory=list)
    banners: int = 0
    to_deal: int = 0


def marsh_entry_outcomes(data: GenpeiData, standard: str | None) -> list[tuple[bool, float]]:
    """The Marsh entry roll: ``[(loses a figure / is eliminated, probability), …]``.

    A unit loses 1 figure when the die shows its own standard symbol; a lone leader
    (``standard=None``) is eliminated on a sword (Genpei pack, Marsh; terrain.yaml
    ``entry_roll``). Probabilities from the die faces of ``system.yaml``.
    """
    er = data.terrain["marsh"].entry_roll if "marsh" in data.terrain else None
    faces = odds.faces_of(data)
    symbol = standard if standard is not None else (er.lone_leader_eliminated_on if er else "sword")
    p = sum(1 for f in faces if f == symbol) / len(faces)
    return [(True, p), (False, 1 - p)]


class GenpeiState:
    """A game of a Genpei scenario (see the module docstring)."""

    def __init__(self, data: GenpeiData, scenario: Scenario):
        self.data = data
        self.scenario = scenario
        self.board = Board(data, scenario)
        self.notes: list[str] = []
        self.sides = [SideState(s.id, s.name, s.edge, s.banners or scenario.victory.banners, s.honour_fortune, to_deal=s.command_cards) for s in scenario.sides]
        side_index = {s.id: i for i, s in enumerate(scenario.sides)}
        self.units: dict[int, Unit] = {}
        self.at: dict[Hex, int] = {}
        stats_cache: dict[str, UnitStats] = {}
        for i, up in enumerate(scenario.units):
            ut = data.units[up.unit]
            st = stats_cache.get(ut.id)
            if st is None:
                st = stats_cache[ut.id] = resolve(ut)
                self.notes.extend(st.notes)
            h = (int(up.hex[0]), int(up.hex[1]))
            u = Unit(i, side_index[up.side], ut, st, st.figures, h, data.leaders.get(up.leader) if up.leader else None, up.note or "", start_hex=h)
            self.units[i] = u
            self.at[h] = i
        self.markers: list[list] = [[m.marker, (int(m.hex[0]), int(m.hex[1])), m.side] for m in scenario.markers]
        self.grapples: set[frozenset[int]] = set()
        self.deck: dict[tuple[str, str], int] = dict(SECTION_CARDS)
        self.discard: dict[tuple[str, str], int] = {}
        self.temporary = victory.TemporaryBanners(self)
        self.notes.extend(self.temporary.notes)
        self.player = side_index[scenario.first_player]
        self.turn = 0
        self.phase = "deal"
        self.winner_: int | None = None
        self.orders_left = 0
        self.card: tuple[str, str] | None = None
        self.ordered: list[int] = []
        self.queue: deque[int] = deque()
        self.steps: deque[tuple] = deque()
        self.node: dict | None = None
        self._legal: list | None = None
        self.history_len = 0
        self.pending_grapple: tuple[int, int, int, bool] | None = None
        self._reach_cache: tuple | None = None
        self._advance()

    # ================================================================ protocol
    def current_player(self) -> int:
        if self.winner_ is not None:
            return TERMINAL
        if self.node is not None and self.node["kind"] == "chance":
            return CHANCE
        if self.node is not None:
            return self.node["player"]
        return self.player

    def is_chance_node(self) -> bool:
        return self.winner_ is None and self.node is not None and self.node["kind"] == "chance"

    def chance_outcomes(self) -> list[tuple[object, float]]:
        assert self.is_chance_node()
        return self.node["outcomes"]  # type: ignore[index]

    def is_terminal(self) -> bool:
        return self.winner_ is not None

    def winner(self) -> int | None:
        """Index of the winning side (0 or 1), or ``None`` while the game goes on."""
        return self.winner_

    def returns(self) -> list[float]:
        if self.winner_ is None:
            return [0.0, 0.0]
        return [1.0 if i == self.winner_ else -1.0 for i in range(2)]

    def turn_count(self) -> int:
        """Player turns begun so far."""
        return self.turn

    def clone(self) -> GenpeiState:
        return copy.deepcopy(self)

    def legal_actions(self) -> list:
        if self.winner_ is not None:
            return []
        if self.node is not None:
            return list(self.node["actions"]) if self.node["kind"] == "decision" else [o for o, _ in self.node["outcomes"]]
        if self._legal is None:
            self._legal = self._phase_actions()
        return self._legal

    def apply_action(self, a) -> None:
        self._legal = None
        self.history_len += 1
        node = self.node
        if node is not None:
            self.node = None
            node["then"](a)
        else:
            self._apply_phase(a)
        self._reach_cache = None
        self._advance()

    # ================================================================ helpers
    def banners(self, side: int) -> int:
        """Banners of ``side`` including temporary ones."""
        return self.sides[side].banners + self.temporary.count(side)

    def enemy(self, side: int) -> int:
        return 1 - side

    def naval(self, u: Unit) -> bool:
        return self.board.is_naval(u.hex)

    def fighter(self, u: Unit) -> Fighter:
        return Fighter(u.type, self.board.terrain(u.hex), naval=self.naval(u), moved=u.moved, lying_flat=u.lying_flat, leader=u.leader)

    def grappled(self, u: Unit) -> bool:
        return any(u.uid in g for g in self.grapples)

    def units_of(self, side: int) -> list[Unit]:
        return [u for u in self.units.values() if u.side == side]

    def _chance(self, outcomes, then) -> None:
        self.node = {"kind": "chance", "outcomes": outcomes, "then": then}

    def _decide(self, player: int, actions: list, then) -> None:
        self.node = {"kind": "decision", "player": player, "actions": actions, "then": then}

    def _check_victory(self) -> None:
        if self.winner_ is not None:
            return
        for i in (self.player, 1 - self.player):
            side = self.sides[i]
            if side.banners + self.temporary.most[i] < side.target:
                continue  # cannot have won yet: skip counting temporary banners
            if self.banners(i) >= side.target:
                self.winner_ = i
                self.node = None
                self.steps.clear()
                return

    # ================================================================ main loop
    def _advance(self) -> None:
        """Run automatic steps until a decision or chance node (or the end) is reached."""
        self._check_victory()
        while self.winner_ is None and self.node is None:
            if self.steps:
                step = self.steps.popleft()
                getattr(self, "_step_" + step[0])(*step[1:])
                self._reach_cache = None
                self._legal = None
                self._check_victory()
                continue
            if self.phase == "deal":
                pending = [i for i in (self.player, 1 - self.player) if self.sides[i].to_deal > 0]
                if not pending:
                    self._start_turn()
                    continue
                i = pending[0]
                self.sides[i].to_deal -= 1
                self._draw(i)
                continue
            if self.phase == "move":
                while self.queue and self.queue[0] not in self.units:
                    self.queue.popleft()
                if not self.queue:
                    self.phase = "battle"
                    self.queue = deque(u for u in self.ordered if u in self.units and not self.units[u].no_battle)
                    continue
                if len(self.legal_actions()) == 1:  # nowhere to go: stay without asking
                    self._apply_phase(self._legal[0])  # type: ignore[index]
                    self._legal = None
                    self._reach_cache = None
                    continue
                return
            if self.phase == "battle":
                while self.queue and (self.queue[0] not in self.units or self.units[self.queue[0]].no_battle):
                    self.queue.popleft()
                if not self.queue:
                    self._end_turn()
                    continue
                if len(self.legal_actions()) == 1:
                    self._apply_phase(self._legal[0])  # type: ignore[index]
                    self._legal = None
                    continue
                return
            if self.phase == "order":
                acts = self.legal_actions()
                if len(acts) == 1:
                    self._apply_phase(acts[0])
                    self._legal = None
                    continue
                return
            return  # card phase: a decision

    def _draw(self, side: int) -> None:
        if sum(self.deck.values()) == 0:
            self.deck, self.discard = self.discard, {}
            if sum(self.deck.values()) == 0:
                return
        total = sum(self.deck.values())
        outcomes = [(("draw", c), n / total) for c, n in sorted(self.deck.items()) if n]

        def then(o, side=side):
            c = o[1]
            self.deck[c] -= 1
            self.sides[side].hand.append(c)

        self._chance(outcomes, then)

    def _start_turn(self) -> None:
        self.turn += 1
        self.phase = "card"
        me = self.sides[self.player]
        for u in self.units.values():
            if u.side == self.player:
                u.lying_flat = False  # stood up at the start of its owner's next turn
            u.moved = False
            u.no_battle = False
            u.took_ground = False
            u.start_hex = u.hex
        self.ordered = []
        if len(me.hand) <= 1:  # surrender (GMT: hand down to 1 Command card at turn start)
            self.winner_ = 1 - self.player

    def _end_turn(self) -> None:
        if self.card is not None:
            self.discard[self.card] = self.discard.get(self.card, 0) + 1
            self.card = None
        me = self.sides[self.player]
        me.hf += END_OF_TURN_HF
        self.phase = "end"
        player = self.player

        def after_draw_then_switch():
            self.player = 1 - player
            self._start_turn()

        self._draw(player)
        if self.node is not None:
            then = self.node["then"]

            def chained(o, then=then):
                then(o)
                after_draw_then_switch()

            self.node["then"] = chained
        else:
            after_draw_then_switch()

    # ================================================================ phase decisions
    def _phase_actions(self) -> list:
        if self.phase == "card":
            return [("card", k, s) for k, s in sorted(set(self.sides[self.player].hand))]
        if self.phase == "order":
            # Ordering fewer units than the card allows is never better than ordering them and
            # leaving them still, so orders stop only when the card or the section runs out.
            acts: list = []
            if self.orders_left > 0:
                sec = self.card[1]  # type: ignore[index]
                edge = self.sides[self.player].edge
                for u in self.units.values():
                    if u.side == self.player and u.uid not in self.ordered and sec in self.board.sections(u.hex, edge):
                        acts.append(("order", u.uid))
            if not acts:
                acts.append(("end_orders",))
            return acts
        if self.phase == "move":
            u = self.units[self.queue[0]]
            return [("move", u.uid, h) for h in self.destinations(u)]
        if self.phase == "battle":
            u = self.units[self.queue[0]]
            return self.battle_actions(u) + [("pass", u.uid)]
        return []

    def _apply_phase(self, a) -> None:
        kind = a[0]
        if kind == "card":
            me = self.sides[self.player]
            c = (a[1], a[2])
            held = len(me.hand)
            me.hand.remove(c)
            self.card = c
            self.orders_left = held if c[0] == "advance" else ORDERS[c[0]]
            self.phase = "order"
        elif kind == "order":
            self.ordered.append(a[1])
            self.orders_left -= 1
        elif kind == "end_orders":
            self.phase = "move"
            self.queue = deque(self.ordered)
        elif kind == "move":
            self.queue.popleft()
            self._move(self.units[a[1]], a[2])
        elif kind == "pass":
            self.queue.popleft()
        elif kind == "battle":
            self.queue.popleft()
            _, uid, target, bkind, insp = a
            self._battle(self.units[uid], self.units[target], bkind, insp, bonus=False)
        elif kind == "destroy":
            self.queue.popleft()
            _, uid, h, insp = a
            self._destroy(self.units[uid], h, insp)
        else:
            raise ValueError(f"not a legal action now: {a!r}")

    # ================================================================ movement
    def destinations(self, u: Unit) -> list[Hex]:
        """Hexes the ordered unit ``u`` may end its move on (its own hex first)."""
        return list(self._reach(u))

    def _reach(self, u: Unit) -> dict[Hex, tuple[int, str]]:
        """Destination → (hexes moved, how: ``land``/``sea``/``embark``/``disembark``)."""
        rc = self._reach_cache
        if rc is not None and rc[0] == u.uid and rc[1] == u.hex:
            return rc[2]
        out = self._reach_uncached(u)
        self._reach_cache = (u.uid, u.hex, out)
        return out

    def _reach_uncached(self, u: Unit) -> dict[Hex, tuple[int, str]]:
        b = self.board
        out: dict[Hex, tuple[int, str]] = {u.hex: (0, "stay")}
        if self.grappled(u):
            return out
        if b.is_naval(u.hex):
            for d, n in b.neighbours(u.hex):
                if n in self.at or b.impassable(n):
                    continue
                if b.is_naval(n):
                    out[n] = (1, "sea")
                    if with_wind(d, b.wind):
                        for d2, n2 in b.neighbours(n):
                            if n2 not in out and n2 not in self.at and b.is_naval(n2) and with_wind(d2, b.wind):
                                out[n2] = (2, "sea")
                elif self._may_enter(u, n, u.hex):
                    out[n] = (1, "disembark")
            return out
        s = u.stats
        reach = max(s.move, s.move_no_battle)
        if any(t.movement.exit_max_hexes is not None for t in b.terrain(u.hex)):
            reach = min(reach, min(t.movement.exit_max_hexes for t in b.terrain(u.hex) if t.movement.exit_max_hexes is not None))
        frontier = [u.hex]
        for step in range(1, reach + 1):
            nxt = []
            for h in frontier:
                if h != u.hex and b.must_stop(h):
                    continue
                for _, n in b.neighbours(h):
                    if n in out or n in self.at or b.impassable(n):
                        continue
                    if b.is_naval(n):
                        if step == 1 and b.naval_rules:
                            out[n] = (1, "embark")
                        continue
                    if not self._may_enter(u, n, h):
                        continue
                    out[n] = (step, "land")
                    nxt.append(n)
            frontier = nxt
        return out

    def _may_enter(self, u: Unit, n: Hex, frm: Hex) -> bool:
        for t in self.board.terrain(n):
            if not t.movement.mounted_may_enter and (u.type.mounted or (u.leader is not None and u.leader.mounted)):
                return False
            if t.movement.must_start_adjacent and self.board.distance(u.start_hex, n) != 1:
                return False
        return True

    def _move(self, u: Unit, dest: Hex) -> None:
        if dest == u.hex:
            return
        steps, how = self._reach(u)[dest]
        del self.at[u.hex]
        old = u.hex
        u.hex = dest
        self.at[dest] = u.uid
        u.moved = True
        for m in self.markers:
            if m[0] in ("command_ship", "command_tent") and m[1] == old and u.type.id == "bodyguard":
                if m[0] == "command_ship":
                    m[1] = dest
                    if how == "disembark":
                        m[0] = "command_tent"  # Genpei pack: the tile becomes a fixed Command Tent
                elif how == "embark":
                    m[0], m[1] = "command_ship", dest
        if how in ("embark", "disembark"):
            u.no_battle = True
            u.lying_flat = True
        elif how == "land":
            if steps > u.stats.move:
                u.no_battle = True
            if any(t.movement.no_battle_after_entering for t in self.board.terrain(dest)):
                u.no_battle = True
        if how in ("land", "disembark") and self.board.entry_roll(dest):
            self.steps.appendleft(("marsh", u.uid))

    def _step_marsh(self, uid: int) -> None:
        if uid not in self.units:
            return
        u = self.units[uid]

        def then(o, uid=uid):
            if o[1] and uid in self.units:
                self._lose(self.units[uid], 1)

        self._chance([(("marsh", lost), p) for lost, p in marsh_entry_outcomes(self.data, u.type.standard)], then)

    # ================================================================ battle choices
    def inspiration(self, u: Unit) -> LeaderType | None:
        """The leader that may inspire ``u`` now (attached, or an adjacent cavalry leader on
        land), or ``None``. At sea every leader inspires only its own unit (Genpei pack)."""
        if any(t.combat.no_inspiration for t in self.board.terrain(u.hex)):
            return None
        cost_ok = lambda ldr: self.sides[u.side].hf >= ldr.inspiration.hf_cost  # noqa: E731
        if u.leader is not None and cost_ok(u.leader):
            return u.leader
        if self.naval(u):
            return None
        for _, n in self.board.neighbours(u.hex):
            o = self.units.get(self.at.get(n, -1))
            if o is not None and o.side == u.side and o.leader is not None and o.leader.inspiration.reach == "attached_or_adjacent" and not self.naval(o) and cost_ok(o.leader):
                return o.leader
        return None

    def close_targets(self, u: Unit) -> list[Unit]:
        out = []
        for _, n in self.board.neighbours(u.hex):
            o = self.units.get(self.at.get(n, -1))
            if o is not None and o.side != u.side:
                out.append(o)
        return out

    def ranged_targets(self, u: Unit) -> list[Unit]:
        if u.stats.ranged <= 0 or self.close_targets(u):
            return []
        f = self.fighter(u)
        if f.moved and not f.naval and u.stats.ranged_after_move <= 0:
            return []
        r = max_range(f)
        out = []
        for o in self.units.values():
            if o.side == u.side:
                continue
            d = self.board.distance(u.hex, o.hex)
            if u.stats.min_range <= d <= r and self.has_los(u.hex, o.hex):
                out.append(o)
        return out

    def has_los(self, a: Hex, b: Hex) -> bool:
        if any(h in self.at for h in self.board.between(a, b)):
            return False
        return not self.board.los_blocked_by_terrain(a, b)

    def destroyable(self, u: Unit) -> list[Hex]:
        """Palisade and Stockade hexes ``u`` may attack: a Stockade next to it, or a Palisade
        whose covered hexside it stands across (Genpei pack, Palisade; Stockade)."""
        out = []
        for _, n in self.board.neighbours(u.hex):
            o = self.at.get(n)
            if o is not None and self.units[o].side == u.side:
                continue
            for t in self.board.terrain(n):
                if t.destruction is None and not (t.hexsides and any(r.id == "destroy" for r in t.rules)):
                    continue
                if t.hexsides:
                    back = self.board.direction(n, u.hex)
                    if back not in self.board.palisade_sides.get(n, ()):
                        continue
                out.append(n)
                break
        return out

    def battle_actions(self, u: Unit) -> list:
        acts: list = []
        ldr = self.inspiration(u)
        insp = (False, True) if ldr is not None else (False,)
        card_forbids = self.card is not None and self.card[0] in u.type.close_combat.not_when_ordered_by
        if not card_forbids:
            for o in self.close_targets(u):
                for i in insp:
                    acts.append(("battle", u.uid, o.uid, "close", i))
        for o in self.ranged_targets(u):
            for i in insp:
                acts.append(("battle", u.uid, o.uid, "ranged", i))
        for h in self.destroyable(u):
            for i in insp:
                acts.append(("destroy", u.uid, h, i))
        return acts

    def setup_for(self, att: Unit, dfn: Unit, kind: str, inspired: bool) -> Setup:
        fa = self.fighter(att)
        ldr = self.inspiration(att) if inspired else None
        if ldr is not None and ldr is not att.leader:
            fa = Fighter(fa.unit, fa.terrain, fa.naval, fa.moved, fa.lying_flat, ldr)
        fd = self.fighter(dfn)
        covered = self.board.covered(dfn.hex, att.hex)
        if kind == "close":
            return close_setup(fa, fd, covered=covered, inspired=ldr is not None)
        return ranged_setup(fa, fd, self.board.distance(att.hex, dfn.hex), covered=covered, inspired=ldr is not None)

    # ================================================================ battle resolution
    def _pay_inspiration(self, u: Unit, inspired: bool) -> bool:
        ldr = self.inspiration(u) if inspired else None
        if ldr is None:
            return False
        self.sides[u.side].hf -= ldr.inspiration.hf_cost
        return True

    def _battle(self, att: Unit, dfn: Unit, kind: str, inspired: bool, *, bonus: bool) -> None:
        setup = self.setup_for(att, dfn, kind, inspired)
        self._pay_inspiration(att, inspired)
        first = kind == "close" and any(t.combat.battles_first and t.id not in {x.id for x in self.board.terrain(att.hex)} for t in self.board.terrain(dfn.hex))
        if first:
            # A unit in a Stockade attacked from outside battles first, as with First Strike.
            self.steps.appendleft(("roll", att.uid, dfn.uid, kind, setup, "after_first_strike", bonus, att.hex))
            self.steps.appendleft(("roll", dfn.uid, att.uid, "close", self.setup_for(dfn, att, "close", False), "first_strike", bonus))
        else:
            self.steps.appendleft(("roll", att.uid, dfn.uid, kind, setup, "attack", bonus))

    def _step_roll(self, roller: int, target: int, kind: str, setup: Setup, role: str, bonus: bool,
                   roller_hex: Hex | None = None) -> None:
        if roller not in self.units or target not in self.units:
            return
        r, t = self.units[roller], self.units[target]
        if roller_hex is not None and r.hex != roller_hex:
            return  # the attacker retreated from the first strike
        outs = odds.chance_list(self.data, setup)
        start_hex = t.hex

        def then(o):
            sym, swords, flags, hf = o[1:]
            if setup.grapple and swords > 0 and (self.naval(r) or self.board.distance(r.hex, t.hex) == 1):
                pair = frozenset((r.uid, t.uid))
                lost = score(setup, sym, swords, flags)[0] - score(setup, sym, swords, flags, grapple=True)[0]
                self.pending_grapple = (r.uid, t.uid, lost, pair in self.grapples)

                def chosen(a):
                    self.pending_grapple = None
                    self._resolve(r.uid, t.uid, kind, setup, role, bonus, (sym, swords, flags, hf), a[1], pair, start_hex)

                self._decide(r.side, [("grapple", False), ("grapple", True)], chosen)
                return
            self._resolve(r.uid, t.uid, kind, setup, role, bonus, (sym, swords, flags, hf), False, None, start_hex)

        self._chance(outs, then)

    def _resolve(self, roller: int, target: int, kind: str, setup: Setup, role: str, bonus: bool,
                 roll: tuple[int, int, int, int], spend_sword: bool, pair, start_hex: Hex) -> None:
        sym, swords, flags, hf = roll
        r = self.units.get(roller)
        t = self.units.get(target)
        if r is None or t is None:
            return
        self.sides[r.side].hf += hf
        if spend_sword and pair is not None:
            if pair in self.grapples:
                self.grapples.discard(pair)  # severed: both free at once
            else:
                self.grapples.add(pair)
        hits, retreat = score(setup, sym, swords, flags, grapple=spend_sword)
        if hits:
            self._lose(t, hits)
        if target in self.units and retreat:
            self._retreat(t, retreat)
        self._check_victory()
        if self.winner_ is not None:
            return
        t_alive = target in self.units
        t_stayed = t_alive and self.units[target].hex == start_hex
        if role == "attack" and kind == "close":
            if t_stayed and roller in self.units:
                # battle back (not after a retreat), never inspired (engine abstraction)
                back = self.setup_for(t, r, "close", False)
                if back.dice > 0:
                    self.steps.appendleft(("roll", target, roller, "close", back, "back", bonus))
            elif not t_stayed and roller in self.units:
                self._take_ground(r, start_hex, bonus)
        elif role == "after_first_strike" and kind == "close" and not t_stayed and roller in self.units:
            self._take_ground(r, start_hex, bonus)

    # ---------------------------------------------------------------- taking ground, bonus
    def _take_ground(self, u: Unit, h: Hex, bonus_done: bool) -> None:
        """Cavalry (mounted, not at sea) and units with a leader take ground and may make one
        bonus close combat (rules-facts §1.4); never between land and sea (Genpei pack); a unit
        that entered a Marsh this turn may not; out of a Marsh only once."""
        if bonus_done or u.took_ground or h in self.at:
            return
        at_sea = self.naval(u)
        eligible = (u.type.mounted and not at_sea) or u.leader is not None
        if not eligible or at_sea != self.board.is_naval(h) or self.board.impassable(h):
            return
        if any(t.entry_roll for t in self.board.terrain(u.hex)) and u.hex != u.start_hex:
            return
        if not self._may_enter(u, h, u.hex) and not any(t.movement.must_start_adjacent for t in self.board.terrain(h)):
            return
        if u.type.mounted and any(not t.movement.mounted_may_enter for t in self.board.terrain(h)):
            return
        if self.grappled(u):
            return
        del self.at[u.hex]
        u.hex = h
        self.at[h] = u.uid
        u.took_ground = True
        if any(t.entry_roll for t in self.board.terrain(h)):
            self.steps.appendleft(("marsh", u.uid))
            return
        self.steps.appendleft(("bonus_choice", u.uid))

    def _step_bonus_choice(self, uid: int) -> None:
        u = self.units.get(uid)
        if u is None:
            return
        acts: list = []
        ldr = self.inspiration(u)
        for o in self.close_targets(u):
            for i in ((False, True) if ldr is not None else (False,)):
                acts.append(("bonus", uid, o.uid, i))
        if not acts:
            return
        acts.append(("pass", uid))

        def then(a):
            if a[0] == "bonus":
                self._battle(self.units[a[1]], self.units[a[2]], "close", a[3], bonus=True)

        self._decide(u.side, acts, then)

    # ---------------------------------------------------------------- losses and retreats
    def _lose(self, u: Unit, figures: int) -> None:
        u.figures -= figures
        if u.figures <= 0:
            self._eliminate(u)

    def _eliminate(self, u: Unit) -> None:
        del self.units[u.uid]
        del self.at[u.hex]
        self.grapples = {g for g in self.grapples if u.uid not in g}
        if u.uid in self.queue:
            self.queue = deque(x for x in self.queue if x != u.uid)
        me = self.sides[u.side]
        self.sides[1 - u.side].banners += 1
        me.hf = max(0, me.hf - u.type.hf_lost_when_eliminated)
        if u.leader is not None:
            self._leader_escapes(u)

    def _leader_escapes(self, u: Unit) -> None:
        ldr = u.leader
        friends = [o for o in self.units.values() if o.side == u.side and o.leader is None]
        if self.board.is_naval(u.hex) or self.board.is_shore(u.hex) and all(self.board.is_naval(n) or n in self.at and self.units[self.at[n]].side != u.side for _, n in self.board.neighbours(u.hex)):
            # naval leader: deck to deck through friendly boats, else seppuku
            near = [o for o in friends if self.board.distance(o.hex, u.hex) == 1]
            if not near:
                for o in friends:
                    if self.board.distance(o.hex, u.hex) == 2 and any(
                        n in self.at and self.units[self.at[n]].side == u.side and self.board.distance(n, o.hex) == 1
                        for _, n in self.board.neighbours(u.hex)
                    ):
                        near.append(o)
            if near:
                near[0].leader = ldr
                return
            me = self.sides[u.side]
            me.hf += 5
            if me.hand:
                hand = sorted(me.hand)
                outs = [(("seppuku", c), hand.count(c) / len(hand)) for c in sorted(set(hand))]
                self.steps.appendleft(("seppuku", outs, u.side))
            return
        near = sorted((self.board.distance(o.hex, u.hex), o.uid) for o in friends if self.board.distance(o.hex, u.hex) <= 3)
        if near:
            self.units[near[0][1]].leader = ldr
        else:
            self.sides[1 - u.side].banners += 1

    def _step_seppuku(self, outs, side: int) -> None:
        def then(o):
            if o[1] in self.sides[side].hand:
                self.sides[side].hand.remove(o[1])

        self._chance(outs, then)

    def retreat_hexes(self, u: Unit, frm: Hex) -> list[Hex]:
        """Hexes ``u`` may retreat into from ``frm``: toward its own edge, free, passable, land
        for a land unit (Genpei pack: no retreat onto Ocean), no Stockade for cavalry."""
        dirs = ("SW", "SE") if self.sides[u.side].edge == "south" else ("NW", "NE")
        out = []
        for d in dirs:
            n = self.board.neighbour(frm, d)
            if n is None or n in self.at or self.board.impassable(n) or self.board.is_naval(n):
                continue
            if u.type.mounted and any(not t.movement.mounted_may_enter for t in self.board.terrain(n)):
                continue
            out.append(n)
        out.sort(key=lambda n: any(t.entry_roll for t in self.board.terrain(n)))
        return out

    def _retreat(self, u: Unit, hexes: int) -> None:
        me = self.sides[u.side]
        for i in range(hexes):
            options = [] if self.grappled(u) else self.retreat_hexes(u, u.hex)
            if not options:
                self._lose(u, hexes - i)  # 1 figure per hex it cannot retreat
                break
            cost = u.stats.retreat_hf + (1 if u.leader is not None else 0)
            if me.hf >= cost:
                me.hf -= cost
            else:
                self._lose(u, 1)  # Lack of Honor: a block instead of the tokens
                if u.uid not in self.units:
                    break
            n = options[0]
            del self.at[u.hex]
            u.hex = n
            self.at[n] = u.uid
            if any(t.entry_roll for t in self.board.terrain(n)):
                self.steps.appendleft(("marsh", u.uid))
                break

    # ---------------------------------------------------------------- palisade / stockade
    def _destroy(self, u: Unit, h: Hex, inspired: bool) -> None:
        insp = self._pay_inspiration(u, inspired)
        fa = self.fighter(u)
        setup = destroy_setup(fa, inspired=insp)
        tile = next(t for t in self.board.terrain(h) if t.destruction is not None or t.hexsides)
        need = tile.destruction.swords_needed if tile.destruction else 1
        outs = odds.chance_list(self.data, setup)

        def then(o, h=h, tile=tile, need=need, side=u.side):
            self.sides[side].hf += o[4]
            if o[2] >= need:
                self.board.remove_tile(h, tile.id)
                lost = tile.destruction.occupant_loses_figures if tile.destruction else 0
                occ = self.at.get(h)
                if occ is not None and lost:
                    self._lose(self.units[occ], lost)

        self._chance(outs, then)
