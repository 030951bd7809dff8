"""The Genpei game as a state machine in the style of OpenSpiel.

``GenpeiState(data, scenario)`` is the start of a game. At each node either a player decides
(``legal_actions()``, ``current_player()``) or chance does (``is_chance_node()``,
``chance_outcomes()`` = ``[(outcome, probability)]``); ``apply_action(a)`` moves on, for both.
``is_terminal()``, ``winner()`` and ``returns()`` end it. ``clone()`` copies a state cheaply (no
deep copy: nodes and steps are plain data), for policies that look ahead.

A player's turn (GMT sequence of play, ccn_rules_* and the FAQ; cards in :mod:`.deck`):

1. **Card**: play a Command card (section, tactic, or one no public source gives: see
   :mod:`.deck`), and alongside it at most one Dragon card (Turncoat).
2. **Order**: order units and lone leaders the card allows; a section card may instead detach an
   attached leader (one order).
3. **Move** each ordered piece; **battle** with each ordered unit (close or ranged, at a unit or
   a lone leader, or attack a Palisade/Stockade), with or without Leader Inspiration.
4. **End**: discard a Dragon card for 1 H&F if none was played; draw a Dragon card or take 2
   H&F; draw the Command card (2 keep 1 after an Order One card).

A battle: declaration → Personal Challenge (either player, both units led) → the defender's
reaction (First Strike card or Ambush Dragon card; a Stockade battles first anyway) → rolls,
each one chance node whose outcomes are :func:`pipeline.systems.genpei.odds.chance_list` of the
same :class:`~.combat.Setup` ``gunbai odds`` prints → grapple choice → hits, leader casualty
check, retreat (the owner picks each hex) → battle back (inspired if its owner pays) → taking
ground (the attacker's choice) → bonus close combat (the attacker's choice of target or none).

Actions are tuples; the first item names the decision:

=============================================  ===============================================
``("card", card, mode)``                       play a Command card (``mode``: ``land``/``naval``
                                               for Cavalry Charge and Infantry Onslaught in a
                                               mixed army, else ``None``)
``("dragon", "turncoat", unit)``/``("no_dragon",)``  a Dragon card alongside the Command card
``("order", piece)``/``("detach", unit)``      order a unit or lone leader / detach a leader
``("end_orders",)``                            stop ordering
``("move", piece, hex)``                       move (``hex`` = where it stands: stay)
``("battle", unit, target, kind, inspired)``   close or ranged battle at a unit or lone leader
``("destroy", unit, hex, inspired)``           attack the Palisade/Stockade on ``hex``
``("pass", unit)``                             no battle (also: no bonus combat)
``("challenge", bool)``                        play Personal Challenge
``("react", None|"first_strike"|"ambush")``    the defender's reaction to a close combat
``("inspire", bool)``                          inspire a battle back or a first strike
``("grapple", bool)``                          spend a sword on a grapple (or severing)
``("retreat", unit, hex)``                     the hex a retreating unit goes to
``("escape", leader, hex|"off")``/``("seppuku", leader)``  a lone leader's retreat or seppuku
``("take_ground", unit, bool)``                take the vacated hex
``("bonus", unit, target, inspired)``          bonus close combat after taking ground
``("discard", card|None)``                     discard a Dragon card for 1 H&F (or not)
``("eot", "dragon"|"hf")``                     draw a Dragon card or take 2 H&F
``("keep", card)``                             the card kept of 2 drawn
=============================================  ===============================================

Pieces are unit ids (``0, 1, …``) and lone-leader ids (``LEADER_BASE + n``).
Abstractions of the engine are named where made: unknown stats (:mod:`.stats`), unknown cards
(:mod:`.deck`), leader rules (errata ``leader_casualty_check``, ``lone_leader_move``,
``lone_leader_retreat``).

The class is made of one part per phase, each in its own module: :class:`.turn.TurnPhases` (the
decks, the turn, the phase decisions, the cards and orders), :class:`.movement.Movement` (unit
movement, Marsh), :class:`.leaders.LoneLeaders` (lone leaders), :class:`.battle.Battles` (every
battle from declaration to bonus combat); :mod:`.pieces` holds the pieces and players and
:mod:`.dice` the chance distributions. This module keeps the state itself (set-up, the
OpenSpiel-style protocol, copying, shared helpers), the main loop and its dispatch tables, and
re-exports the names of the other modules.
"""

from __future__ import annotations

from collections import deque

from pipeline.systems.genpei import odds
from pipeline.systems.genpei.data import GenpeiData
from pipeline.systems.genpei.engine import search, victory
from pipeline.systems.genpei.engine.battle import Battles
from pipeline.systems.genpei.engine.board import Board, Hex
from pipeline.systems.genpei.engine.combat import Fighter, Setup
from pipeline.systems.genpei.engine.deck import decks
from pipeline.systems.genpei.engine.dice import (
    casualty_check_probability,
    challenge_outcomes,
    face_probability,
    marsh_entry_outcomes,
    more_hf_probability,
    shogun_outcomes,
    symbol_counts,
)
from pipeline.systems.genpei.engine.leaders import LoneLeaders
from pipeline.systems.genpei.engine.movement import Movement
from pipeline.systems.genpei.engine.pieces import (
    BACK,
    CHANCE,
    END_ORDERS,
    LEADER_BASE,
    STATUS,
    TERMINAL,
    Leader,
    SideState,
    Unit,
)
from pipeline.systems.genpei.engine.stats import UnitStats, resolve
from pipeline.systems.genpei.engine.turn import TurnPhases
from pipeline.systems.genpei.model import LeaderType, Scenario


class GenpeiState(TurnPhases, Movement, LoneLeaders, Battles):
    """A game of a Genpei scenario (see the module docstring)."""

    def __init__(self, data: GenpeiData, scenario: Scenario):
        # Every game of a scenario starts alike: the first one is set up from the data, later
        # ones copy it (as :meth:`clone` does), which is far cheaper than reading the scenario.
        caches = Board.caches_for(data, scenario)
        start = caches.get("initial_state")
        if start is not None:
            start._copy_into(self)
            return
        self._new_game(data, scenario)
        caches["initial_state"] = self.clone()

    def _new_game(self, data: GenpeiData, scenario: Scenario) -> None:
        self.data = data
        self.scenario = scenario
        self.faces = odds.faces_of(data)
        self.board = Board(data, scenario)
        self.decks = decks(data)
        self.notes: list[str] = list(self.decks.notes)
        self.sides = [SideState(s.id, s.name, s.edge, s.banners or scenario.victory.banners, s.honour_fortune) for s in scenario.sides]
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
            h = self.board.hex((int(up.hex[0]), int(up.hex[1])))
            u = Unit(i, side_index[up.side], ut, st, st.figures, h, data.leaders.get(up.leader) if up.leader else None, up.note or "")
            self.units[i] = u
            self.at[h] = i
        self.leaders: dict[int, Leader] = {}
        self.lat: dict[Hex, int] = {}
        self.next_lid = LEADER_BASE
        for lp in scenario.leaders:  # lone leaders of the scenario (erratum lone_leader_move)
            h = self.board.hex((int(lp.hex[0]), int(lp.hex[1])))
            if lp.leader in data.leaders and h not in self.at:
                self._place_leader(side_index[lp.side], data.leaders[lp.leader], h)
        self._ranges: dict[tuple, int] = self.board.shared.setdefault("ranges", {})
        self._setups: dict[tuple, Setup] = self.board.shared.setdefault("setups", {})
        self.markers: list[list] = [[m.marker, self.board.hex((int(m.hex[0]), int(m.hex[1]))), m.side] for m in scenario.markers]
        self.grapples: set[frozenset[int]] = set()
        self.cmd_deck: dict[str, int] = dict(self.decks.command)
        self.cmd_discard: dict[str, int] = {}
        self.dragon_deck: dict[str, int] = dict(self.decks.dragon)
        self.dragon_discard: dict[str, int] = {}
        self.temporary = victory.TemporaryBanners(self)
        self.notes.extend(self.temporary.notes)
        self.tent_banner = any(r.id == "command_tent_banner" for r in scenario.victory.rules)
        self.player = side_index[scenario.first_player]
        self.turn = 0
        self.phase = "deal"
        self.winner_: int | None = None
        self.card: str | None = None
        self.card_effect: str | None = None
        self.card_mode: str | None = None
        self.tokens: list[tuple] = []
        self.ordered: list[int] = []
        self.queue: deque[int] = deque()
        self.steps: deque[tuple] = deque()
        self.node: tuple | None = None
        self._legal: list | None = None
        #: ((turn, tokens left, pieces ordered), the order-phase actions then), or ``None``.
        self._order_acts: tuple[tuple[int, int, int], list] | None = None
        #: Units whose turn flags (:meth:`Unit.reset`) or hex changed this turn: the ones the
        #: next turn resets. Code that changes a unit's flags or hex adds it here.
        self.touched: set[int] = set()
        #: Units lying flat (they stand up at the start of their owner's next turn).
        self.flat: set[int] = set()
        self._reach_cache: tuple | None = None
        #: ((units left, defections), (units of side 0, units of side 1)): :meth:`_side_units`.
        self._by_side: tuple | None = None
        self.dragon_played = [False, False]
        self.replacements = [0, 0]
        self.pick: list[str] = []
        self.pending_grapple: tuple[int, int, int, bool] | None = None
        self.log: dict[str, int] = {}
        self._vdirty = True
        for i, s in enumerate(scenario.sides):
            for _ in range(s.command_cards):
                self.steps.append(("draw_cmd", i, 1))
            for _ in range(s.dragon_cards):
                self.steps.append(("draw_dragon", i))
        self.steps.append(("start_turn",))
        self._advance()

    # ================================================================ protocol
    def current_player(self) -> int:
        if self.winner_ is not None:
            return TERMINAL
        node = self.node
        if node is not None:
            return CHANCE if node[0] == "chance" else node[1]
        return self.player

    def is_chance_node(self) -> bool:
        return self.winner_ is None and self.node is not None and self.node[0] == "chance"

    def chance_outcomes(self) -> list[tuple[object, float]]:
        """``[(outcome, probability)]`` of this chance node; ``ValueError`` at any other node."""
        node = self.node
        if node is None or node[0] != "chance" or self.winner_ is not None:
            raise ValueError("not a chance node")
        return node[2]

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

    def legal_actions(self) -> list:
        if self.winner_ is not None:
            return []
        node = self.node
        if node is not None:
            return node[2] if node[0] == "decision" else [o for o, _ in node[2]]
        if self._legal is None:
            self._legal = self._phase_actions()
        return self._legal

    def apply_action(self, a) -> None:
        self.step(a)

    def view(self) -> tuple[int | None, list, int]:
        """The node as :class:`pipeline.play.protocol.SteppedState` gives it: ``(player,
        legal actions, turns)`` at a decision, ``(CHANCE, [(outcome, probability)], turns)`` at a
        chance node, ``(None, (), turns)`` when the game is over (``turns``: :meth:`turn_count`)."""
        if self.winner_ is not None:
            return None, (), self.turn
        node = self.node
        if node is not None:
            return (CHANCE if node[0] == "chance" else node[1]), node[2], self.turn
        return self.player, self.legal_actions(), self.turn

    def step(self, a) -> tuple[int | None, list, int]:
        """Take action ``a`` (or apply chance outcome ``a``) and return the :meth:`view` of the
        node reached: the fused step of :class:`pipeline.play.protocol.SteppedState`."""
        self._legal = None
        node = self.node
        if node is not None:
            self.node = None
            _HANDLERS[node[3]](self, a, *node[4])
        else:
            f = _PHASE_ACTS.get(a[0])
            if f is None:
                raise ValueError(f"not a legal action now: {a!r}")
            f(self, a)
        self._reach_cache = None
        return self._advance()

    def clone(self) -> GenpeiState:
        """An independent copy of the state (every mutable part copied, shared static data)."""
        c = GenpeiState.__new__(GenpeiState)
        self._copy_into(c)
        return c

    def determinize(self, player: int, rng) -> GenpeiState:
        """A copy with what ``player`` cannot see redrawn with ``rng``: :func:`.search.determinize`."""
        return search.determinize(self, player, rng)

    def information_key(self, player: int):
        """What ``player`` sees, hashable: :func:`.search.information_key`."""
        return search.information_key(self, player)

    def _copy_into(self, c: GenpeiState) -> None:
        """Make ``c`` an independent copy of this state."""
        c.__dict__.update(self.__dict__)
        c.board = self.board.clone()
        c.sides = [s.copy() for s in self.sides]
        c.units = {k: u.copy() for k, u in self.units.items()}
        c.at = dict(self.at)
        c.leaders = {k: le.copy() for k, le in self.leaders.items()}
        c.lat = dict(self.lat)
        c.markers = [list(m) for m in self.markers]
        c.grapples = set(self.grapples)
        c.cmd_deck, c.cmd_discard = dict(self.cmd_deck), dict(self.cmd_discard)
        c.dragon_deck, c.dragon_discard = dict(self.dragon_deck), dict(self.dragon_discard)
        c.temporary = self.temporary.rebind(c)
        c.tokens = list(self.tokens)
        c.ordered = list(self.ordered)
        c.queue = deque(self.queue)
        c.steps = deque(self.steps)
        c.dragon_played = list(self.dragon_played)
        c.replacements = list(self.replacements)
        c.pick = list(self.pick)
        c.log = dict(self.log)
        c.touched = set(self.touched)
        c.flat = set(self.flat)
        c.notes = self.notes
        c._reach_cache = None
        c._by_side = None
        if hasattr(self, "_policy_cache"):
            del c._policy_cache  # type: ignore[attr-defined]

    def play_stats(self) -> tuple[tuple[str, int], ...]:
        """What was played in this game: ``(event, count)`` sorted (``command:<card>``,
        ``dragon:<card>``, ``end:dragon``/``end:hf``, ``dragon_discard``, ``seppuku``, …)."""
        return tuple(sorted(self.log.items()))

    # ================================================================ helpers
    def _count(self, key: str, n: int = 1) -> None:
        self.log[key] = self.log.get(key, 0) + n

    def banners(self, side: int) -> int:
        """Banners of ``side`` including temporary ones."""
        return self.sides[side].banners + self.temporary.count(side)

    def naval(self, u: Unit) -> bool:
        """``u`` stands on an Ocean hex (a naval unit)."""
        return self.board.is_naval(u.hex)

    def fighter(self, u: Unit, leader: LeaderType | None | bool = True) -> Fighter:
        """``u`` as a :class:`~.combat.Fighter` (``leader``: ``True`` its own, a leader type, or
        ``False``/``None`` for none)."""
        ldr = u.leader if leader is True else (leader or None)
        return Fighter(u.type, self.board.terrain(u.hex), naval=self.naval(u), moved=u.moved, lying_flat=u.lying_flat, leader=ldr)

    def grappled(self, u: Unit) -> bool:
        """``u`` is held by a grapple."""
        uid = u.uid
        return any(uid in g for g in self.grapples)

    def units_of(self, side: int) -> list[Unit]:
        """The units of side ``side`` (0 or 1)."""
        return [u for u in self.units.values() if u.side == side]

    def _side_units(self, side: int) -> list[Unit]:
        """The units of side ``side`` in id order, as a list kept until a unit is lost or
        defects (the engine's loops over one side's units; do not change it)."""
        key = (len(self.units), self.log.get("turncoat_defected", 0))
        by = self._by_side
        if by is None or by[0] != key:
            both: tuple[list[Unit], list[Unit]] = ([], [])
            for u in self.units.values():
                both[u.side].append(u)
            by = self._by_side = (key, both)
        return by[1][side]

    def occupied(self, h: Hex) -> bool:
        """A unit or a lone leader stands on ``h``."""
        return h in self.at or h in self.lat

    def piece_side(self, pid: int) -> int:
        """The side of piece ``pid`` (a unit or a lone leader)."""
        return self.leaders[pid].side if pid >= LEADER_BASE else self.units[pid].side

    def alive(self, pid: int) -> bool:
        """Piece ``pid`` is still on the board."""
        return pid in self.leaders if pid >= LEADER_BASE else pid in self.units

    def _chance(self, outcomes: list, handler: str, *args) -> None:
        self.node = ("chance", CHANCE, outcomes, handler, args)

    def _decide(self, player: int, actions: list, handler: str, *args) -> None:
        self.node = ("decision", player, actions, handler, args)

    def _push(self, *steps: tuple) -> None:
        """Run ``steps`` next, in the order given, before the steps already waiting."""
        self.steps.extendleft(reversed(steps))

    def _check_victory(self) -> None:
        """End the game when a side holds its banner target. Banners change only on events that
        set ``_vdirty`` (an elimination, a leader lost, a move onto or off a hex of
        :attr:`.victory.TemporaryBanners.hexes`, a Command Tent taken, a grapple, a tile removed, a
        defection), so other steps skip the count."""
        if self.winner_ is not None or not self._vdirty:
            return
        self._vdirty = False
        for i in (self.player, 1 - self.player):
            side = self.sides[i]
            if side.banners + self.temporary.most[i] < side.target:
                continue  # cannot have won yet: skip counting temporary banners
            if self.banners(i) >= side.target:
                self.winner_ = i
                self.node = None
                self.steps.clear()
                return

    def _place_leader(self, side: int, ldr: LeaderType, h: Hex, detaching: bool = False) -> Leader:
        lid = self.next_lid
        self.next_lid += 1
        le = Leader(lid, side, ldr, h, detaching)
        self.leaders[lid] = le
        if not detaching:
            self.lat[h] = lid
        return le

    def _remove_leader(self, lid: int) -> None:
        le = self.leaders.pop(lid)
        if self.lat.get(le.hex) == lid:
            del self.lat[le.hex]
        if lid in self.queue:
            self.queue = deque(x for x in self.queue if x != lid)

    def _leader_lost(self, ldr_side: int, *, banner: bool) -> None:
        self._vdirty = True
        if banner:
            self.sides[1 - ldr_side].banners += 1
        self._count("leader_eliminated")

    # ================================================================ main loop
    def _advance(self) -> tuple[int | None, list, int]:
        """Run automatic steps until a decision or chance node with a choice (or the end), and
        return that node's :meth:`view`."""
        if self._vdirty:
            self._check_victory()
        steps = self.steps
        while self.winner_ is None:
            node = self.node
            if node is not None:
                opts = node[2]
                if len(opts) != 1:
                    return (CHANCE if node[0] == "chance" else node[1]), opts, self.turn
                self.node = None  # one choice only: take it
                _HANDLERS[node[3]](self, opts[0][0] if node[0] == "chance" else opts[0], *node[4])
                self._reach_cache = None
                self._legal = None
                if self._vdirty:
                    self._check_victory()
                continue
            if steps:
                step = steps.popleft()
                _STEPS[step[0]](self, *step[1:])
                self._reach_cache = None
                self._legal = None
                if self._vdirty:
                    self._check_victory()
                continue
            phase = self.phase
            if phase == "move":
                q = self.queue
                units, leaders = self.units, self.leaders
                while q and not (q[0] in leaders if q[0] >= LEADER_BASE else q[0] in units):  # alive()
                    q.popleft()
                if not q:
                    self.phase = "battle"
                    self.queue = deque([u for u in self.ordered if u in units and not units[u].no_battle])
                    continue
            elif phase == "battle":
                q = self.queue
                while q and (q[0] not in self.units or self.units[q[0]].no_battle):
                    q.popleft()
                if not q:
                    self._end_turn()
                    continue
            elif phase not in ("card", "order", "alongside"):
                return self.view()
            acts = self._legal  # legal_actions() inlined: no winner and no node here
            if acts is None:
                acts = self._legal = _PHASE_LISTS[phase](self)
            if len(acts) == 1:
                a = acts[0]
                _PHASE_ACTS[a[0]](self, a)
                self._legal = None
                self._reach_cache = None
                continue
            return self.player, acts, self.turn
        return None, (), self.turn

    def _phase_actions(self) -> list:
        """The legal actions of the phase decision now (no node pending): one function per
        phase (:data:`_PHASE_LISTS`), ``[]`` in a phase without one."""
        f = _PHASE_LISTS.get(self.phase)
        return f(self) if f is not None else []

    def _apply_phase(self, a) -> None:
        """Take the phase action ``a``: one function per action kind (:data:`_PHASE_ACTS`)."""
        f = _PHASE_ACTS.get(a[0])
        if f is None:
            raise ValueError(f"not a legal action now: {a!r}")
        f(self, a)


def _methods(prefix: str) -> dict:
    """The methods of :class:`GenpeiState` and its parts whose names start with ``prefix``."""
    out: dict = {}
    for cls in reversed(GenpeiState.__mro__):
        out.update((k, v) for k, v in vars(cls).items() if k.startswith(prefix))
    return out


#: Step name → its ``_s_<name>`` function; handler name (a node's ``[3]``) → its function. The
#: main loop dispatches through these tables rather than ``getattr`` with a built name.
_STEPS = {k[3:]: v for k, v in _methods("_s_").items()}
_HANDLERS = _methods("_h_")
#: Phase → the ``_pl_<phase>`` function listing its actions; action kind → the ``_a_<kind>``
#: function taking a phase action (the main loop and :meth:`GenpeiState.step` dispatch on these).
_PHASE_LISTS = {k[4:]: v for k, v in _methods("_pl_").items()}
_PHASE_ACTS = {k[3:]: v for k, v in _methods("_a_").items()}

__all__ = ["BACK", "CHANCE", "END_ORDERS", "LEADER_BASE", "STATUS", "TERMINAL", "GenpeiState", "Leader", "SideState", "Unit",
           "casualty_check_probability", "challenge_outcomes", "face_probability", "marsh_entry_outcomes",
           "more_hf_probability", "shogun_outcomes", "symbol_counts"]
