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
"""

from __future__ import annotations

from collections import deque
from functools import lru_cache
from math import comb

from pipeline.systems.genpei import odds
from pipeline.systems.genpei.engine import search, victory
from pipeline.systems.genpei.engine.board import Board, Hex
from pipeline.systems.genpei.engine.combat import (
    Fighter,
    Setup,
    close_setup,
    destroy_setup,
    leader_target_setup,
    max_range,
    ranged_setup,
    score,
)
from pipeline.systems.genpei.engine.deck import (
    DISCARD_DRAGON_HF,
    END_OF_TURN_HF,
    LONE_LEADER_RETREAT_HF,
    SEPPUKU_HF,
    decks,
)
from pipeline.systems.genpei.engine.stats import UnitStats, resolve
from pipeline.systems.genpei.load import GenpeiData
from pipeline.systems.genpei.model import LeaderType, Scenario, UnitType

CHANCE = -1
TERMINAL = -4
END_ORDERS = ("end_orders",)
#: Lone leaders are pieces with ids from here up.
LEADER_BASE = 1000
#: Directions of retreat, by the edge a side sits at.
BACK = {"south": ("SW", "SE"), "north": ("NW", "NE")}
#: Leader status for Personal Challenge (ccn_personal_challenge: commander, mounted, foot).
STATUS = {"commander": 3, "cavalry": 2, "infantry": 1}


class Unit:
    """A unit on the board with its attached leader and this turn's flags."""

    __slots__ = ("uid", "side", "type", "stats", "figures", "hex", "leader", "note", "start_hex", "moved",
                 "no_battle", "lying_flat", "took_ground", "bonus_close", "bonus_ranged", "no_ranged",
                 "move_override", "move_cap", "sea_any_wind")

    def __init__(self, uid: int, side: int, type_: UnitType, stats: UnitStats, figures: int, hex_: Hex,
                 leader: LeaderType | None, note: str = ""):
        self.uid, self.side, self.type, self.stats, self.figures, self.hex = uid, side, type_, stats, figures, hex_
        self.leader, self.note, self.start_hex = leader, note, hex_
        self.lying_flat = False
        self.reset()

    def reset(self) -> None:
        """Clear the flags of a turn (the start hex becomes the current hex; inlined in
        ``GenpeiState._s_start_turn``: change both together)."""
        self.start_hex = self.hex
        self.moved = self.no_battle = self.took_ground = self.no_ranged = self.sea_any_wind = False
        self.bonus_close = self.bonus_ranged = 0
        self.move_override: int | None = None
        self.move_cap: int | None = None

    def copy(self) -> Unit:
        """An independent copy (every slot assigned at once)."""
        u = Unit.__new__(Unit)
        (u.uid, u.side, u.type, u.stats, u.figures, u.hex, u.leader, u.note, u.start_hex, u.moved, u.no_battle,
         u.lying_flat, u.took_ground, u.bonus_close, u.bonus_ranged, u.no_ranged, u.move_override, u.move_cap,
         u.sea_any_wind) = (
            self.uid, self.side, self.type, self.stats, self.figures, self.hex, self.leader, self.note, self.start_hex,
            self.moved, self.no_battle, self.lying_flat, self.took_ground, self.bonus_close, self.bonus_ranged,
            self.no_ranged, self.move_override, self.move_cap, self.sea_any_wind)
        return u


class Leader:
    """A lone leader on the board (or one being detached from his unit, ``detaching``)."""

    __slots__ = ("lid", "side", "type", "hex", "start_hex", "moved", "detaching")

    def __init__(self, lid: int, side: int, type_: LeaderType, hex_: Hex, detaching: bool = False):
        self.lid, self.side, self.type, self.hex, self.start_hex = lid, side, type_, hex_, hex_
        self.moved = False
        self.detaching = detaching

    def copy(self) -> Leader:
        le = Leader.__new__(Leader)
        for k in Leader.__slots__:
            setattr(le, k, getattr(self, k))
        return le


class SideState:
    """A player: scenario side, Command and Dragon hands, H&F and banners."""

    __slots__ = ("id", "name", "edge", "target", "hf", "hand", "dragons", "banners")

    def __init__(self, id_: str, name: str, edge: str, target: int, hf: int):
        self.id, self.name, self.edge, self.target, self.hf = id_, name, edge, target, hf
        self.hand: list[str] = []
        self.dragons: list[str] = []
        self.banners = 0

    def copy(self) -> SideState:
        s = SideState.__new__(SideState)
        s.id, s.name, s.edge, s.target, s.hf, s.banners = self.id, self.name, self.edge, self.target, self.hf, self.banners
        s.hand = list(self.hand)
        s.dragons = list(self.dragons)
        return s


def marsh_entry_outcomes(data: GenpeiData, standard: str | None) -> list[tuple[bool, float]]:
    """The Marsh entry roll: ``[(loses a figure / is eliminated, probability), …]``.

    A unit loses 1 figure when the die shows its own standard symbol; a lone leader
    (``standard=None``) is eliminated on a sword (Genpei pack, Marsh; terrain.yaml
    ``entry_roll``). Probabilities from the die faces of ``system.yaml``.
    """
    er = data.terrain["marsh"].entry_roll if "marsh" in data.terrain else None
    symbol = standard if standard is not None else (er.lone_leader_eliminated_on if er else "sword")
    p = face_probability(odds.faces_of(data), symbol)
    return [(True, p), (False, 1 - p)]


def face_probability(faces: tuple[str, ...], symbol: str) -> float:
    """Probability that one battle die shows ``symbol``."""
    return sum(1 for f in faces if f == symbol) / len(faces)


@lru_cache(maxsize=256)
def casualty_check_probability(faces: tuple[str, ...], dice: int) -> float:
    """Probability that a leader casualty check of ``dice`` dice kills the leader: every die a
    sword (2 dice when his unit survives losses, 1 when it is eliminated; erratum
    ``leader_casualty_check``)."""
    return face_probability(faces, "sword") ** dice


@lru_cache(maxsize=512)
def symbol_counts(faces: tuple[str, ...], dice: int, symbols: tuple[str, ...]) -> tuple[tuple[tuple[int, ...], float], ...]:
    """Exact distribution of how many of ``dice`` dice show each of ``symbols`` (multinomial over
    the die faces), as ``((count per symbol…), probability)``."""
    n_faces = len(faces)
    probs = [sum(1 for f in faces if f == s) / n_faces for s in symbols]
    other = 1.0 - sum(probs)
    out: dict[tuple[int, ...], float] = {}

    def rec(i: int, left: int, counts: tuple[int, ...], p: float, ways: int) -> None:
        if i == len(symbols):
            key = counts
            out[key] = out.get(key, 0.0) + ways * p * other**left
            return
        for c in range(left + 1):
            rec(i + 1, left - c, counts + (c,), p * probs[i] ** c, ways * comb(left, c))

    rec(0, dice, (), 1.0, 1)
    return tuple(sorted((k, v) for k, v in out.items() if v > 0))


class GenpeiState:
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

    # ---------------------------------------------------------------- decks
    def _draw_from(self, deck: dict[str, int], discard: dict[str, int], which: str) -> list | None:
        """The chance outcomes of drawing from ``deck`` (reshuffling ``discard`` into it when it
        is empty): ``(("draw", card), copies / cards left)`` in card id order (``which`` deck of
        :attr:`.deck.Decks.draw_order`)."""
        total = sum(deck.values())
        if not total:
            for k, n in discard.items():
                deck[k] = deck.get(k, 0) + n
            discard.clear()
            total = sum(deck.values())
            if not total:
                return None
        order = self.decks.draw_order[which]
        if len(order) != len(deck):  # a card id the deck did not start with
            order = [(c, ("draw", c)) for c in sorted(deck)]
        return [(o, n / total) for c, o in order if (n := deck[c])]

    def _s_draw_cmd(self, side: int, n: int) -> None:
        outs = self._draw_from(self.cmd_deck, self.cmd_discard, "command")
        if outs is None:
            return
        self._chance(outs, "_h_draw_cmd", side, n)

    def _h_draw_cmd(self, o, side: int, n: int) -> None:
        c = o[1]
        self.cmd_deck[c] -= 1
        if n == 1:
            self.sides[side].hand.append(c)
            return
        self.pick.append(c)
        if len(self.pick) < n:
            self._push(("draw_cmd", side, n))
        else:
            self._push(("keep_one", side))

    def _s_keep_one(self, side: int) -> None:
        self._decide(side, [("keep", c) for c in sorted(set(self.pick))], "_h_keep")

    def _h_keep(self, a, *_args) -> None:
        picks = self.pick
        self.pick = []
        picks.remove(a[1])
        self.sides[self.player].hand.append(a[1])
        for c in picks:
            self.cmd_discard[c] = self.cmd_discard.get(c, 0) + 1

    def _s_draw_dragon(self, side: int) -> None:
        outs = self._draw_from(self.dragon_deck, self.dragon_discard, "dragon")
        if outs is None:
            return
        self._chance(outs, "_h_draw_dragon", side)

    def _h_draw_dragon(self, o, side: int) -> None:
        self.dragon_deck[o[1]] -= 1
        self.sides[side].dragons.append(o[1])

    def _discard_dragon(self, side: int, card: str) -> None:
        self.sides[side].dragons.remove(card)
        self.dragon_discard[card] = self.dragon_discard.get(card, 0) + 1

    def can_play_dragon(self, side: int, effect: str) -> str | None:
        """The card of ``side`` with this Dragon ``effect`` it may play now (one per player per
        turn, H&F cost paid from its reserve; ccn_dragon_cards_gmt), or ``None``."""
        if self.dragon_played[side]:
            return None
        info = self.decks.info
        hf = self.sides[side].hf
        for c in self.sides[side].dragons:
            ci = info[c]
            if ci.effect == effect and hf >= ci.cost:
                return c
        return None

    def _play_dragon(self, side: int, card: str) -> None:
        self.sides[side].hf -= self.decks.info[card].cost
        self._discard_dragon(side, card)
        self.dragon_played[side] = True
        self._count("dragon:" + card)

    def _lose_random_card(self, side: int) -> None:
        hand = self.sides[side].hand
        if not hand:
            return
        outs = [(("lose_card", c), hand.count(c) / len(hand)) for c in sorted(set(hand))]
        self._chance(outs, "_h_lose_card", side)

    def _h_lose_card(self, o, side: int) -> None:
        self.sides[side].hand.remove(o[1])
        self.cmd_discard[o[1]] = self.cmd_discard.get(o[1], 0) + 1

    def _s_lose_card(self, side: int) -> None:
        self._lose_random_card(side)

    # ---------------------------------------------------------------- turn
    def _s_start_turn(self) -> None:
        self.turn += 1
        self.phase = "card"
        me = self.sides[self.player]
        p = self.player
        units = self.units
        if self.flat:
            flat = set()
            for uid in self.flat:
                u = units.get(uid)
                if u is None:
                    continue
                if u.side == p:
                    u.lying_flat = False  # stood up at the start of its owner's next turn
                else:
                    flat.add(uid)
            self.flat = flat
        # Unit.reset of the units whose turn flags or hex changed (the others are as reset)
        for uid in self.touched:
            u = units.get(uid)
            if u is not None:
                u.start_hex = u.hex
                u.moved = u.no_battle = u.took_ground = u.no_ranged = u.sea_any_wind = False
                u.bonus_close = u.bonus_ranged = 0
                u.move_override = u.move_cap = None
        self.touched = set()
        for le in self.leaders.values():
            le.start_hex = le.hex
            le.moved = False
        self.ordered = []
        self.tokens = []
        self.queue = deque()
        self.card = self.card_effect = self.card_mode = None
        self.dragon_played = [False, False]
        if len(me.hand) <= 1:  # surrender (GMT: hand down to 1 Command card at the start of the turn)
            self.winner_ = 1 - self.player
            self._count("surrender")

    def _end_turn(self) -> None:
        self.phase = "end"
        if self.card is not None:
            self.cmd_discard[self.card] = self.cmd_discard.get(self.card, 0) + 1
        draw_two = self.card is not None and self.decks.info[self.card].draw_two
        p = self.player
        steps: list[tuple] = [("end_discard",), ("end_choice",)]
        o = 1 - p
        steps += [("draw_cmd", o, 1)] * self.replacements[o]  # First Strike: the defender draws first
        self.replacements = [0, 0]
        steps.append(("draw_cmd", p, 2 if draw_two else 1))
        steps.append(("next_turn",))
        self._push(*steps)

    def _s_end_discard(self) -> None:
        p = self.player
        me = self.sides[p]
        if self.dragon_played[p] or not me.dragons:
            return
        acts = [("discard", None)] + [("discard", c) for c in sorted(set(me.dragons))]
        self._decide(p, acts, "_h_end_discard")

    def _h_end_discard(self, a) -> None:
        if a[1] is not None:
            self._discard_dragon(self.player, a[1])
            self.sides[self.player].hf += DISCARD_DRAGON_HF
            self._count("end:dragon_discarded")

    def _s_end_choice(self) -> None:
        can_draw = any(self.dragon_deck.values()) or any(self.dragon_discard.values())
        acts = [("eot", "dragon"), ("eot", "hf")] if can_draw else [("eot", "hf")]
        self._decide(self.player, acts, "_h_end_choice")

    def _h_end_choice(self, a) -> None:
        self._count("end:" + a[1])
        if a[1] == "hf":
            self.sides[self.player].hf += END_OF_TURN_HF
        else:
            self._push(("draw_dragon", self.player))

    def _s_next_turn(self) -> None:
        self.player = 1 - self.player
        self._s_start_turn()

    # ================================================================ phase decisions
    def _mixed(self, side: int) -> bool:
        naval = self.board._naval
        kinds = {u.hex in naval for u in self._side_units(side)}
        return len(kinds) == 2

    def _phase_actions(self) -> list:
        """The legal actions of the phase decision now (no node pending): one function per
        phase (:data:`_PHASE_LISTS`), ``[]`` in a phase without one."""
        f = _PHASE_LISTS.get(self.phase)
        return f(self) if f is not None else []

    def _pl_card(self) -> list:
        me = self.sides[self.player]
        info = self.decks.info
        held = sorted(set(me.hand))
        playable = [c for c in held if info[c].effect != "first_strike"] or held
        acts: list = []
        mixed = None
        for c in playable:
            eff = info[c].effect
            if eff in ("cavalry_charge", "infantry_onslaught"):
                if mixed is None:
                    mixed = self._mixed(self.player)
                if mixed:
                    acts += [("card", c, "land"), ("card", c, "naval")]
                    continue
                naval = all(self.board.is_naval(u.hex) for u in self._side_units(self.player))
                acts.append(("card", c, "naval" if naval else "land"))
                continue
            acts.append(("card", c, None))
        return acts

    def _pl_alongside(self) -> list:
        acts = [("no_dragon",)]
        if self.can_play_dragon(self.player, "turncoat"):
            acts += [("dragon", "turncoat", u.uid) for u in self.units.values() if u.side != self.player and u.leader is None]
        return acts

    def _pl_order(self) -> list:
        toks = self.tokens
        if not toks:
            return [END_ORDERS]
        kept = self._order_acts
        if kept is not None and kept[0] == (self.turn, len(toks), len(self.ordered)):
            return kept[1]  # the list before the last order, less the piece ordered (_a_order)
        acts = self._order_actions()
        # With every token alike (and not a naval group) an order changes no other piece's
        # options: the next list is this one less the piece ordered (see _a_order).
        uniform = toks.count(toks[0]) == len(toks) and toks[0][0] != "naval_group"
        self._order_acts = ((self.turn, len(toks), len(self.ordered)), acts) if uniform else None
        return acts

    def _pl_move(self) -> list:
        pid = self.queue[0]
        if pid >= LEADER_BASE:
            return [("move", pid, h) for h in self.leader_destinations(self.leaders[pid])]
        return [("move", pid, h) for h in self._reach(self.units[pid])]  # destinations()

    def _pl_battle(self) -> list:
        u = self.units[self.queue[0]]
        return self.battle_actions(u) + [("pass", u.uid)]

    def _order_actions(self) -> list:
        """The actions of the order phase (tokens left): order a candidate piece
        (:meth:`_order_candidates`), or with a section card detach an attached leader."""
        cands = self._order_candidates()
        acts: list = [("order", pid) for pid in cands] or [END_ORDERS]
        if self.card_effect == "section":  # a section card may detach a leader (1 order)
            p, ordered, naval = self.player, self.ordered, self.board._naval
            toks = self.tokens
            if toks.count(toks[0]) == len(toks) and toks[0][0] == "section":
                # every token the same section: the units a token can order are the candidates
                # (the units first, in id order, as the loop below finds them)
                units = self.units
                for pid in cands:
                    if pid >= LEADER_BASE:
                        break
                    u = units[pid]
                    if u.leader is not None and (u.hex not in naval or self._deck_to_deck(u.hex, u.side, 2, exclude=u.hex)):
                        acts.append(("detach", pid))
                return acts
            for u in self.units.values():
                if u.side != p or u.leader is None or u.uid in ordered or self._token_for(u) is None:
                    continue
                if u.hex not in naval or self._deck_to_deck(u.hex, u.side, 2, exclude=u.hex):
                    acts.append(("detach", u.uid))
        return acts

    def _apply_phase(self, a) -> None:
        """Take the phase action ``a``: one function per action kind (:data:`_PHASE_ACTS`)."""
        f = _PHASE_ACTS.get(a[0])
        if f is None:
            raise ValueError(f"not a legal action now: {a!r}")
        f(self, a)

    def _a_card(self, a) -> None:
        self._play_card(a[1], a[2])

    def _a_no_dragon(self, a) -> None:
        self.phase = "order"

    def _a_dragon(self, a) -> None:
        self._play_dragon(self.player, self.can_play_dragon(self.player, a[1]))  # type: ignore[arg-type]
        self.phase = "order"
        self._push(("turncoat", a[2]))

    def _a_order(self, a) -> None:
        kept = self._order_acts
        pid = a[1]
        fresh = (self.phase == "order" and kept is not None and kept[1][0] is not END_ORDERS
                 and kept[0] == (self.turn, len(self.tokens), len(self.ordered)))
        if fresh:
            acts = kept[1]  # type: ignore[index]
            try:
                i = acts.index(a)
            except ValueError:
                i = -1
            if i >= 0:
                # a listed order while every token is alike: the card spends its first token,
                # and the next list is this one less the order (and a detach) of the piece
                self._order(pid, 0)
                rest = acts.copy()
                del rest[i]
                if rest and rest[-1][0] == "detach":  # detaches come after the orders
                    d = ("detach", pid)
                    if d in rest:
                        rest.remove(d)
                self._order_acts = ((self.turn, len(self.tokens), len(self.ordered)), rest or [END_ORDERS])
                return
        self._order(pid)
        if fresh:
            # nothing but the ordered piece changed: its order (and detach) leave the list
            rest = [x for x in kept[1] if x[1] != pid] or [END_ORDERS]  # type: ignore[index]
            self._order_acts = ((self.turn, len(self.tokens), len(self.ordered)), rest)
        else:
            self._order_acts = None

    def _a_detach(self, a) -> None:
        self._order_acts = None  # a leader left his unit: deck-to-deck options may change
        self._detach(a[1])

    def _a_end_orders(self, a) -> None:
        self.phase = "move"
        self.queue = deque(self.ordered)

    def _a_move(self, a) -> None:
        self.queue.popleft()
        if a[1] >= LEADER_BASE:
            self._move_leader(self.leaders[a[1]], a[2])
        else:
            self._move(self.units[a[1]], a[2])

    def _a_pass(self, a) -> None:
        self.queue.popleft()

    def _a_battle(self, a) -> None:
        self.queue.popleft()
        _, uid, target, bkind, insp = a
        self._push(("declare", uid, target, bkind, insp, False))

    def _a_destroy(self, a) -> None:
        self.queue.popleft()
        _, uid, h, insp = a
        self._destroy(self.units[uid], h, insp)

    # ---------------------------------------------------------------- cards and orders
    def _play_card(self, card: str, mode: str | None) -> None:
        me = self.sides[self.player]
        held = len(me.hand)
        me.hand.remove(card)
        info = self.decks.info[card]
        self.card, self.card_effect, self.card_mode = card, info.effect, mode
        self._count("command:" + card)
        eff = info.effect
        if eff == "section":
            n = held if info.orders == "hand" else int(info.orders)  # type: ignore[arg-type]
            self.tokens = [("section", info.section)] * n
        elif eff == "cavalry_charge":
            if mode == "naval":
                self.tokens = [("naval",)] * 4
            elif any(u.type.mounted and not self.naval(u) for u in self._side_units(self.player)):
                self.tokens = [("cavalry",)] * 4
            else:
                self.tokens = [("any",)]
                self.card_effect = "fallback"
        elif eff == "infantry_onslaught":
            if mode == "naval":
                self.tokens = [("naval_group",)] * 4
            else:
                self.tokens = [("any",)]  # land text not public (erratum infantry_onslaught_land_text)
        elif eff == "shogun":
            self.tokens = []
            self._push(("shogun", held))
        elif eff == "first_strike":
            self.tokens = []  # orders nothing on its own turn (erratum first_strike_own_turn)
        else:  # fallback, serpent_command
            self.tokens = [("any",)]
        if eff != "shogun" and self.can_play_dragon(self.player, "turncoat") is None:
            # no Dragon card to play alongside: the only choice (no_dragon) taken here (after the
            # Shogun roll, which pays H&F, the alongside phase asks)
            self.phase = "order"
        else:
            self.phase = "alongside"

    def _s_shogun(self, dice: int) -> None:
        self._chance(shogun_outcomes(self.faces, dice), "_h_shogun")

    def _h_shogun(self, o) -> None:
        _, c, t, s, flags, hf = o
        self.tokens = [("standard", "circle")] * c + [("standard", "triangle")] * t + [("standard", "square")] * s + [("any",)] * flags
        self.sides[self.player].hf += hf
        for deck, discard in ((self.cmd_deck, self.cmd_discard), (self.dragon_deck, self.dragon_discard)):
            for k, n in discard.items():
                deck[k] = deck.get(k, 0) + n
            discard.clear()

    def _matches(self, tok: tuple, pid: int) -> bool:
        kind = tok[0]
        if kind == "any":
            return True
        if pid >= LEADER_BASE:
            if kind == "section":
                le = self.leaders[pid]
                return tok[1] in self.board.sections(le.hex, self.sides[le.side].edge)
            return False
        u = self.units[pid]
        if kind == "section":
            return tok[1] in self.board.sections(u.hex, self.sides[u.side].edge)
        if kind == "standard":
            return u.type.standard == tok[1]
        if kind == "cavalry":
            return u.type.mounted and not self.naval(u)
        if kind == "naval":
            return self.naval(u)
        if kind == "naval_group":
            if not self.naval(u):
                return False
            done = [self.units[x].hex for x in self.ordered if x in self.units]
            return not done or any(self.board.distance(u.hex, h) == 1 for h in done)
        return False

    def _token_for(self, u: Unit | int) -> int | None:
        """Index of the order token the card spends on piece ``u``: a specific token (section,
        standard, cavalry, naval) before an ``any`` token; ``None`` when the card cannot order it."""
        pid = u if isinstance(u, int) else u.uid
        toks = self.tokens
        if not toks:
            return None
        tok = toks[0]
        if toks.count(tok) == len(toks):  # all alike (most cards): one test
            return 0 if self._matches(tok, pid) else None
        best = None
        for i, tok in enumerate(toks):
            if self._matches(tok, pid):
                if tok[0] != "any":
                    return i
                if best is None:
                    best = i
        return best

    def _order_candidates(self) -> list[int]:
        """The player's units, then lone leaders, not yet ordered that a token of the card can
        order (:meth:`_token_for`), in id order."""
        toks = self.tokens
        if not toks:
            return []
        p = self.player
        ordered = self.ordered
        tok = toks[0]
        kind = tok[0]
        if toks.count(tok) == len(toks) and kind in ("section", "any"):
            # all tokens alike and a test of the hex alone: no call per piece
            if kind == "any":
                out = [u.uid for u in self._side_units(p) if u.uid not in ordered]
                out += [le.lid for le in self.leaders.values() if le.side == p and le.lid not in ordered]
                return out
            section = tok[1]
            secs = self.board.sections_at[self.sides[p].edge]
            out = [u.uid for u in self._side_units(p) if section in secs[u.hex] and u.uid not in ordered]
            if self.leaders:
                out += [le.lid for le in self.leaders.values()
                        if le.side == p and section in secs[le.hex] and le.lid not in ordered]
            return out
        token_for = self._token_for
        out = [u.uid for u in self._side_units(p) if u.uid not in ordered and token_for(u.uid) is not None]
        out += [le.lid for le in self.leaders.values() if le.side == p and le.lid not in ordered and token_for(le.lid) is not None]
        return out

    def _order(self, pid: int, token: int | None = None) -> None:
        """Order piece ``pid`` with the card's token ``token`` (by default :meth:`_token_for`'s)."""
        i = self._token_for(pid) if token is None else token
        del self.tokens[i]  # type: ignore[arg-type]
        self.ordered.append(pid)
        if pid >= LEADER_BASE:
            return
        u = self.units[pid]
        self.touched.add(pid)
        eff = self.card_effect
        if eff == "cavalry_charge":
            u.no_ranged = True
            if self.card_mode == "naval":
                u.bonus_close = 1
            elif u.type.ranged is None:  # Samurai Bow Cavalry: move 2, no extra die (ccn_cavalry_charge)
                u.bonus_close = 1
                if u.type.standard == "square":
                    u.move_override = 3
        elif eff == "infantry_onslaught" and self.card_mode == "naval":
            u.sea_any_wind = True
            u.no_ranged = True
        elif eff == "serpent_command":
            u.move_cap = 1
        elif eff == "shogun":
            u.bonus_close = u.bonus_ranged = 1

    def _detach(self, uid: int) -> None:
        u = self.units[uid]
        i = self._token_for(u)
        del self.tokens[i]  # type: ignore[arg-type]
        ldr = u.leader
        u.leader = None
        le = self._place_leader(u.side, ldr, u.hex, detaching=True)  # type: ignore[arg-type]
        self.ordered.append(le.lid)
        self._count("leader_detached")

    # ================================================================ movement
    def destinations(self, u: Unit) -> list[Hex]:
        """Hexes the ordered unit ``u`` may end its move on (its own hex first)."""
        return list(self._reach(u))

    def _reach(self, u: Unit) -> dict[Hex, tuple[int, str]]:
        """Destination → (hexes moved, how: ``land``/``sea``/``embark``/``disembark``/``join``)."""
        rc = self._reach_cache
        if rc is not None and rc[0] == u.uid and rc[1] == u.hex:
            return rc[2]
        out = self._reach_uncached(u)
        self._reach_cache = (u.uid, u.hex, out)
        return out

    def _joinable(self, u: Unit, h: Hex) -> bool:
        """``u`` may move onto the lone leader on ``h`` and join him (ccn_rules_movement: an
        infantry unit takes either leader, a cavalry unit only a cavalry leader)."""
        lid = self.lat.get(h)
        if lid is None or u.leader is not None:
            return False
        le = self.leaders[lid]
        return le.side == u.side and (not u.type.mounted or le.type.mounted)

    def _reach_uncached(self, u: Unit) -> dict[Hex, tuple[int, str]]:
        b = self.board
        at, lat = self.at, self.lat
        start = u.hex
        out: dict[Hex, tuple[int, str]] = {start: (0, "stay")}
        if self.grapples and self.grappled(u):
            return out
        cap = u.move_cap
        naval, impassable = b._naval, b._impassable
        if start in naval:
            two = cap != 1
            wind = b.wind_dirs
            any_wind = u.sea_any_wind
            sea = b.sea_adjacent  # (Ocean neighbours, those with the wind) of each hex
            k = 0 if any_wind else 1
            for d, n in b.neighbours(start):
                if n in at or n in lat or n in impassable:
                    continue
                if n in naval:
                    out[n] = (1, "sea")
                    if two and (any_wind or d in wind):
                        for n2 in sea[n][k]:
                            if n2 not in out and n2 not in at and n2 not in lat:
                                out[n2] = (2, "sea")
                elif self._may_enter(u, n, start):
                    out[n] = (1, "disembark")
            return out
        s = u.stats
        reach = u.move_override if u.move_override is not None else max(s.move, s.move_no_battle)
        em = b.exit_max.get(start)
        if em is not None and em < reach:
            reach = em
        if cap is not None and cap < reach:
            reach = cap
        adjacent, must_stop = b.adjacent, b._must_stop
        special = b.entry_rules
        embark = b.naval_rules
        frontier = [start]
        # Past the first step (or without embarking) Ocean and impassable hexes are never
        # entered: the per-hex table without them gives the same hexes in the same order, unless
        # a lone leader stands at sea (whom the unit could join).
        land = b.land_adjacent
        lean = not lat or naval.isdisjoint(lat)
        for step in range(1, reach + 1):
            nxt = []
            if lean and (step > 1 or not embark):
                # the land table leaves out Ocean and impassable neighbours: the loop below
                # without the impassable and Ocean tests (which never hold on it)
                tag = (step, "land")
                for h in frontier:
                    if h in must_stop and h != start:
                        continue
                    for n in land[h]:
                        if n in out or n in at:
                            continue
                        if n in lat:
                            if self._joinable(u, n):
                                out[n] = (step, "join")
                            continue
                        if n in special and not self._may_enter(u, n, h):
                            continue
                        out[n] = tag
                        nxt.append(n)
                frontier = nxt
                continue
            neighbours = adjacent
            for h in frontier:
                if h in must_stop and h != start:
                    continue
                for n in neighbours[h]:
                    if n in out or n in at or n in impassable:
                        continue
                    if n in lat:
                        if self._joinable(u, n):
                            out[n] = (step, "join")
                        continue
                    if n in naval:
                        if step == 1 and embark:
                            out[n] = (1, "embark")
                        continue
                    if n in special and not self._may_enter(u, n, h):
                        continue
                    out[n] = (step, "land")
                    nxt.append(n)
            frontier = nxt
        return out

    def _may_enter(self, u: Unit, n: Hex, frm: Hex) -> bool:
        """Terrain lets ``u`` enter ``n``: no cavalry unit or unit with a cavalry leader where
        mounted units may not go (Stockade), and a Stockade only from a hex next to it at the
        start of the turn (Genpei pack, Stockade; erratum stockade_take_ground_adjacent)."""
        b = self.board
        if n in b.no_mounted and (u.type.mounted or (u.leader is not None and u.leader.mounted)):
            return False
        return n not in b.start_adjacent or b.distance(u.start_hex, n) == 1

    def _enter_hex(self, u: Unit, dest: Hex) -> None:
        watched = self.temporary.hexes  # a move elsewhere changes no banner (_tent_capture aside)
        if u.hex in watched or dest in watched:
            self._vdirty = True
        del self.at[u.hex]
        u.hex = dest
        self.at[dest] = u.uid
        self.touched.add(u.uid)
        if self.tent_banner and self.markers:
            self._tent_capture(u)

    def _tent_capture(self, u: Unit) -> None:
        """Command tent/ship as a banner objective (erratum command_tent_banner)."""
        if not self.tent_banner:
            return
        for m in self.markers:
            if m[0] in ("command_tent", "command_ship") and m[1] == u.hex and m[2] is not None and m[2] != self.sides[u.side].id:
                self.markers.remove(m)
                self.sides[u.side].banners += 1
                self._vdirty = True
                self._count("command_tent_taken")
                return

    def _move(self, u: Unit, dest: Hex) -> None:
        if dest == u.hex:
            return
        steps, how = self._reach(u)[dest]
        old = u.hex
        if how == "join":
            lid = self.lat[dest]
            le = self.leaders[lid]
            self._remove_leader(lid)
            u.leader = le.type
            self._count("leader_joined")
        self._enter_hex(u, dest)  # marks u touched: moved, no_battle
        u.moved = True
        for m in self.markers if u.type.id == "bodyguard" else ():
            if m[0] in ("command_ship", "command_tent") and m[1] == old:
                if m[0] == "command_ship":
                    m[1] = dest
                    if how == "disembark":
                        m[0] = "command_tent"  # Genpei pack: the tile becomes a fixed Command Tent
                elif how == "embark":
                    m[0], m[1] = "command_ship", dest
        if how in ("embark", "disembark"):
            u.no_battle = True
            u.lying_flat = True
            self.flat.add(u.uid)
        elif how in ("land", "join"):
            limit = u.move_override if u.move_override is not None else u.stats.move
            if steps > limit:
                u.no_battle = True
            if dest in self.board.no_battle_entering:  # a tile with no_battle_after_entering
                u.no_battle = True
        if how in ("land", "disembark", "join") and self.board.entry_roll(dest):
            self._push(("marsh", u.uid, False))

    def _s_marsh(self, uid: int, bonus_after: bool) -> None:
        u = self.units.get(uid)
        if u is None:
            return
        outs = [(("marsh", lost), p) for lost, p in marsh_entry_outcomes(self.data, u.type.standard)]
        self._chance(outs, "_h_marsh", uid, bonus_after)

    def _h_marsh(self, o, uid: int, bonus_after: bool) -> None:
        steps: list[tuple] = []
        if o[1] and uid in self.units:
            before = self.units[uid].figures
            steps += [("hit", uid, 1), ("casualty", uid, before)]
        if bonus_after:
            steps.append(("bonus_q", uid))
        self._push(*steps)

    # ---------------------------------------------------------------- lone leaders
    def _deck_to_deck(self, frm: Hex, side: int, reach: int, *, exclude: Hex | None = None, dirs: tuple[str, ...] | None = None) -> list[Hex]:
        """Hexes a naval leader may reach from ``frm`` stepping only onto hexes that hold a
        friendly unit (1 or 2 hexes, or only in ``dirs``), ending on one without a leader
        (Genpei pack, naval leaders)."""
        b = self.board
        out: list[Hex] = []
        frontier = [frm]
        seen = {frm}
        for _ in range(reach):
            nxt = []
            for h in frontier:
                for d, n in b.neighbours(h):
                    if n in seen or (dirs is not None and d not in dirs):
                        continue
                    uid = self.at.get(n)
                    if uid is None or self.units[uid].side != side:
                        continue
                    seen.add(n)
                    nxt.append(n)
                    if self.units[uid].leader is None and n != exclude and n not in out:
                        out.append(n)
            frontier = nxt
        return out

    def leader_destinations(self, le: Leader) -> list[Hex]:
        """Where an ordered lone (or detaching) leader may end his move: 1-3 hexes through
        friendly units, not through enemies, stopped by must-stop terrain and Marsh, onto an
        empty land hex or a friendly unit without a leader he may join; at sea deck to deck
        only (errata lone_leader_move; Genpei pack, naval leaders). His own hex first."""
        b = self.board
        start = le.hex
        out = [start]
        naval = b._naval
        if start in naval:
            return out + self._deck_to_deck(start, le.side, 2, exclude=start)
        reach = min(3, b.exit_max.get(start, 3))
        passable, must_stop, special = b.passable_adjacent, b._must_stop, b.entry_rules
        at, lat, units, side, mounted = self.at, self.lat, self.units, le.side, le.type.mounted
        frontier = [start]
        seen = set(lat)  # other lone leaders' hexes are never entered: as if seen
        seen.add(start)
        for _ in range(reach):
            nxt = []
            for h in frontier:
                if h in must_stop and h != start:
                    continue
                for n in passable[h]:  # impassable hexes left out
                    if n in seen:
                        continue
                    seen.add(n)
                    if n in special and n not in naval and not self._leader_may_enter(le, n):
                        continue
                    uid = at.get(n)
                    if uid is not None:
                        o = units[uid]
                        if o.side != side:
                            continue
                        if o.leader is None and not (o.type.mounted and not mounted):
                            out.append(n)
                        if n not in naval:
                            nxt.append(n)
                        continue
                    if n in naval:
                        continue  # open ocean: impassable to lone leaders
                    out.append(n)
                    nxt.append(n)
            frontier = nxt
        return out

    def _leader_may_enter(self, le: Leader, n: Hex, *, retreat: bool = False) -> bool:
        """Terrain lets ``le`` enter ``n``: never a Stockade for a cavalry leader; an ordered
        move into a Stockade only from next to it at the start of the turn (Genpei pack)."""
        b = self.board
        if n in b.no_mounted and le.type.mounted:
            return False
        return retreat or n not in b.start_adjacent or b.distance(le.start_hex, n) == 1

    def _move_leader(self, le: Leader, dest: Hex) -> None:
        if dest == le.hex:
            if le.detaching:  # stays: attached again to the unit there, else alone on the hex
                uid = self.at.get(le.hex)
                if uid is not None and self.units[uid].leader is None:
                    self.units[uid].leader = le.type
                    del self.leaders[le.lid]
                else:
                    le.detaching = False
                    self.lat[le.hex] = le.lid
            return
        le.moved = True
        self._relocate_leader(le, dest)
        if le.lid in self.leaders and self.board.entry_roll(dest):
            self._push(("leader_marsh", le.lid))

    def _relocate_leader(self, le: Leader, dest: Hex) -> None:
        """Put ``le`` on ``dest``: joins the friendly unit there, else stands alone."""
        if self.lat.get(le.hex) == le.lid:
            del self.lat[le.hex]
        le.detaching = False
        uid = self.at.get(dest)
        if uid is not None:
            self.units[uid].leader = le.type
            del self.leaders[le.lid]
            if le.lid in self.queue:
                self.queue = deque(x for x in self.queue if x != le.lid)
            self._count("leader_joined")
            return
        le.hex = dest
        self.lat[dest] = le.lid

    def _s_leader_marsh(self, lid: int) -> None:
        if lid not in self.leaders:
            return
        p = marsh_entry_outcomes(self.data, None)
        self._chance([(("leader_marsh", lost), q) for lost, q in p], "_h_leader_marsh", lid)

    def _h_leader_marsh(self, o, lid: int) -> None:
        if o[1] and lid in self.leaders:
            side = self.leaders[lid].side
            self._remove_leader(lid)
            self._leader_lost(side, banner=True)

    def leader_escapes(self, le: Leader) -> list[Hex | str]:
        """Where a lone leader forced to retreat may go: 1-3 hexes toward his own baseline (each
        step to one of the two hexes behind) through friendly units, ending on an empty land hex
        or a friendly unit without a leader, or ``"off"`` the board through his baseline; at sea,
        or with only open sea behind, 1-2 hexes deck to deck (erratum lone_leader_retreat;
        Genpei pack, naval leaders). Empty: he must commit seppuku."""
        b = self.board
        dirs = BACK[self.sides[le.side].edge]
        if b.is_naval(le.hex):
            return list(self._deck_to_deck(le.hex, le.side, 2, dirs=dirs))
        out: list[Hex | str] = []
        frontier = [le.hex]
        seen = {le.hex}
        for _ in range(3):
            nxt = []
            for h in frontier:
                for d in dirs:
                    n = b.neighbour(h, d)
                    if n is None:
                        if "off" not in out and self._on_baseline(h, le.side):
                            out.append("off")
                        continue
                    if n in seen or b.impassable(n) or n in self.lat:
                        continue
                    seen.add(n)
                    if not b.is_naval(n) and not self._leader_may_enter(le, n, retreat=True):
                        continue  # a cavalry leader never enters a Stockade (Genpei pack)
                    uid = self.at.get(n)
                    if uid is not None:
                        o = self.units[uid]
                        if o.side != le.side:
                            continue
                        if o.leader is None and not (o.type.mounted and not le.type.mounted):
                            out.append(n)
                        if not b.is_naval(n):
                            nxt.append(n)
                        continue
                    if b.is_naval(n):
                        continue
                    out.append(n)
                    nxt.append(n)
            frontier = nxt
        return out

    def _on_baseline(self, h: Hex, side: int) -> bool:
        return h[1] == (self.board.geometry.rows if self.sides[side].edge == "south" else 1)

    def _s_leader_escape(self, lid: int) -> None:
        le = self.leaders.get(lid)
        if le is None:
            return
        opts = self.leader_escapes(le) if self.sides[le.side].hf >= LONE_LEADER_RETREAT_HF else []
        acts: list = [("escape", lid, h) for h in opts] + [("seppuku", lid)]
        self._decide(le.side, acts, "_h_leader_escape")

    def _h_leader_escape(self, a) -> None:
        lid = a[1]
        le = self.leaders[lid]
        side = le.side
        if a[0] == "seppuku":
            self._remove_leader(lid)
            self.sides[side].hf += SEPPUKU_HF
            self._count("seppuku")
            # +5 H&F, a random Command card lost, the opponent draws a Dragon card (ccn_faq_retreats)
            self._push(("lose_card", side), ("draw_dragon", 1 - side))
            return
        self.sides[side].hf -= LONE_LEADER_RETREAT_HF
        self._count("leader_escaped")
        if a[2] == "off":
            self._remove_leader(lid)  # off through his baseline: out of the game, no banner
            return
        self._relocate_leader(le, a[2])

    # ================================================================ battle choices
    def inspiration(self, u: Unit) -> LeaderType | None:
        """The leader that may inspire ``u`` now (attached, or an adjacent cavalry leader on
        land, attached or alone), or ``None``: not on a tile that forbids it
        (:func:`~.combat.inspiration_allowed`), not without the H&F to pay; at sea every leader
        inspires only its own unit (Genpei pack)."""
        b = self.board
        h = u.hex
        if h in b.no_inspiration:
            return None
        hf = self.sides[u.side].hf
        if u.leader is not None and hf >= u.leader.inspiration.hf_cost:
            return u.leader
        naval = b._naval
        if h in naval:
            return None
        at, lat, side = self.at, self.lat, u.side
        for n in b.adjacent[h]:
            uid = at.get(n)
            ldr = None
            if uid is not None:
                o = self.units[uid]
                if o.side == side and n not in naval:
                    ldr = o.leader
            else:
                lid = lat.get(n)
                if lid is not None and self.leaders[lid].side == side:
                    ldr = self.leaders[lid].type
            if ldr is not None and ldr.inspiration.reach == "attached_or_adjacent" and hf >= ldr.inspiration.hf_cost:
                return ldr
        return None

    def close_targets(self, u: Unit) -> list[int]:
        """Adjacent enemy units and lone leaders."""
        out = []
        at, lat, units, side = self.at, self.lat, self.units, u.side
        for n in self.board.adjacent[u.hex]:
            uid = at.get(n)
            if uid is not None:
                if units[uid].side != side:
                    out.append(uid)
                continue
            lid = lat.get(n)
            if lid is not None and self.leaders[lid].side != side:
                out.append(lid)
        return out

    def max_range(self, u: Unit) -> int:
        """How far ``u`` fires from its hex (:func:`~.combat.max_range`, cached per unit type
        and the tiles of the hex)."""
        b = self.board
        key = (u.type.id, b.tile_key.get(u.hex, ()))
        r = self._ranges.get(key)
        if r is None:
            r = self._ranges[key] = max_range(Fighter(u.type, b.terrain(u.hex), naval=u.hex in b._naval))
        return r

    def ranged_targets(self, u: Unit, close: list[int] | None = None) -> list[int]:
        """Enemy units and lone leaders ``u`` may fire at: in range (Arrow Tower, long shot),
        in line of sight, not when an enemy is adjacent, not after a move that forbids it, not
        under a card that forbids ranged combat. ``close``: :meth:`close_targets` of ``u`` when
        the caller has them."""
        st = u.stats
        if st.ranged <= 0 or u.no_ranged:
            return []
        if close is None:
            close = self.close_targets(u)
        if close:
            return []
        b = self.board
        if u.moved and u.hex not in b._naval and st.ranged_after_move <= 0:
            return []
        r = self.max_range(u)
        lo = st.min_range
        h = u.hex
        row = b.dist[h]
        side = u.side
        out = []
        for o in self._side_units(1 - side):
            if lo <= row[o.hex] <= r and self.has_los(h, o.hex):
                out.append(o.uid)
        for le in self.leaders.values():
            if le.side != side and not le.detaching and lo <= row[le.hex] <= r and self.has_los(h, le.hex):
                out.append(le.lid)
        return out

    def has_los(self, a: Hex, b: Hex) -> bool:
        """Line of sight from ``a`` to ``b``: no unit or lone leader between, no blocking terrain."""
        at, lat = self.at, self.lat
        for h in self.board.between(a, b):
            if h in at or h in lat:
                return False
        return not self.board.los_blocked_by_terrain(a, b)

    def destroyable(self, u: Unit) -> list[Hex]:
        """Palisade and Stockade hexes ``u`` may attack: a Stockade next to it, or a Palisade
        whose covered hexside it stands across (Genpei pack, Palisade; Stockade)."""
        b = self.board
        near = b.destructible_adjacent.get(u.hex)
        if near is None:
            return []
        out = []
        for n in near:
            o = self.at.get(n)
            if o is not None and self.units[o].side == u.side:
                continue
            for t in b.terrain(n):
                if t.destruction is None:
                    continue
                if t.hexsides:
                    back = b.direction(n, u.hex)
                    if back not in b.palisade_sides.get(n, ()):
                        continue
                out.append(n)
                break
        return out

    def battle_actions(self, u: Unit) -> list:
        """The battles the ordered unit ``u`` may fight now (without the ``pass``)."""
        acts: list = []
        card_forbids = self.card_effect is not None and self.card_effect in u.type.close_combat.not_when_ordered_by
        uid = u.uid
        close = self.close_targets(u)
        ranged = self.ranged_targets(u, close)
        walls = [] if card_forbids else self.destroyable(u)
        if not (ranged or walls or (close and not card_forbids)):
            return acts  # nothing to battle: no need to ask for inspiration
        insp = (False, True) if self.inspiration(u) is not None else (False,)
        if not card_forbids:
            for o in close:
                for i in insp:
                    acts.append(("battle", uid, o, "close", i))
        for o in ranged:
            for i in insp:
                acts.append(("battle", uid, o, "ranged", i))
        for h in walls:
            for i in insp:
                acts.append(("destroy", uid, h, i))
        return acts

    def setup_for(self, att: Unit, dfn: Unit, kind: str, inspired: bool, extra: int = 0) -> Setup:
        """The :class:`~.combat.Setup` of ``att``'s roll at ``dfn`` now (``extra``: Ambush).

        Cached for the scenario by everything the two :class:`~.combat.Fighter` and the
        arguments of :func:`~.combat.close_setup`/:func:`~.combat.ranged_setup` hold."""
        ldr = self.inspiration(att) if inspired else None
        b = self.board
        ah, dh = att.hex, dfn.hex
        covered = b.covered(dh, ah)
        tk, naval = b.tile_key, b._naval
        bonus = (att.bonus_close if kind == "close" else att.bonus_ranged) + extra
        distance = 1 if kind == "close" else b.distance(ah, dh)
        key = (kind, att.type.id, tk.get(ah, ()), ah in naval, att.moved, att.lying_flat, ldr.id if ldr is not None else None,
               dfn.type.id, tk.get(dh, ()), dh in naval, dfn.moved, dfn.lying_flat, dfn.leader.id if dfn.leader is not None else None,
               covered, distance, bonus)
        got = self._setups.get(key)
        if got is not None:
            return got
        fa = self.fighter(att, ldr or False)
        fd = self.fighter(dfn)
        if kind == "close":
            setup = close_setup(fa, fd, covered=covered, inspired=ldr is not None, bonus_dice=bonus)
        else:
            setup = ranged_setup(fa, fd, distance, covered=covered, inspired=ldr is not None, bonus_dice=bonus)
        self._setups[key] = setup
        return setup

    def leader_setup_for(self, att: Unit, le: Leader, kind: str, inspired: bool) -> Setup:
        """The :class:`~.combat.Setup` of ``att``'s roll at the lone leader ``le``.

        Cached for the scenario (as :meth:`setup_for`) by everything the attacker's
        :class:`~.combat.Fighter` and the arguments of :func:`~.combat.leader_target_setup` hold."""
        ldr = self.inspiration(att) if inspired else None
        b = self.board
        ah, lh = att.hex, le.hex
        tk = b.tile_key
        bonus = att.bonus_close if kind == "close" else att.bonus_ranged
        distance = b.distance(ah, lh)
        key = ("leader", kind, att.type.id, tk.get(ah, ()), ah in b._naval, att.moved, att.lying_flat,
               ldr.id if ldr is not None else None, tk.get(lh, ()), distance, bonus)
        got = self._setups.get(key)
        if got is not None:
            return got
        fa = self.fighter(att, ldr or False)
        setup = self._setups[key] = leader_target_setup(fa, b.terrain(lh), kind, distance, inspired=ldr is not None,
                                                        bonus_dice=bonus)
        return setup

    # ================================================================ battle resolution
    def _pay_inspiration(self, u: Unit, inspired: bool) -> bool:
        ldr = self.inspiration(u) if inspired else None
        if ldr is None:
            return False
        self.sides[u.side].hf -= ldr.inspiration.hf_cost
        return True

    def _stockade_first(self, att: Unit, dfn: Unit) -> bool:
        """A unit in a Stockade attacked in close combat from a non-Stockade hex battles first
        (Genpei pack, Stockade)."""
        own = {t.id for t in self.board.terrain(att.hex)}
        return any(t.combat.battles_first and t.id not in own for t in self.board.terrain(dfn.hex))

    def _s_declare(self, uid: int, target: int, kind: str, insp: bool, bonus: bool) -> None:
        att = self.units.get(uid)
        if att is None or not self.alive(target):
            return
        if target >= LEADER_BASE:
            paid = self._pay_inspiration(att, insp)
            self._push(("roll_leader", uid, target, kind, paid, bonus, att.hex))
            return
        paid = self._pay_inspiration(att, insp)
        if kind != "close":
            self._push(("roll", uid, target, kind, "attack", paid, bonus, 0, att.hex))
            return
        self._push(("challenge_q", uid, target, 0), ("react_q", uid, target, paid, bonus))

    # ---------------------------------------------------------------- Personal Challenge
    def _s_challenge_q(self, uid: int, target: int, asked: int) -> None:
        att, dfn = self.units.get(uid), self.units.get(target)
        if att is None or dfn is None or att.leader is None or dfn.leader is None or asked > 1:
            return
        side = att.side if asked == 0 else dfn.side
        if self.can_play_dragon(side, "personal_challenge") is None:
            self._push(("challenge_q", uid, target, asked + 1))
            return
        self._decide(side, [("challenge", False), ("challenge", True)], "_h_challenge", uid, target, asked, side)

    def _h_challenge(self, a, uid: int, target: int, asked: int, side: int) -> None:
        if not a[1]:
            self._push(("challenge_q", uid, target, asked + 1))
            return
        self._play_dragon(side, self.can_play_dragon(side, "personal_challenge"))  # type: ignore[arg-type]
        att, dfn = self.units[uid], self.units[target]
        ptr = self.player
        n = [len(self.sides[i].hand) + (1 if i == ptr else 0) for i in (0, 1)]
        n[side] += 2
        hf = [s.hf for s in self.sides]
        if hf[0] != hf[1]:
            n[0 if hf[0] > hf[1] else 1] += 1
        lead = {att.side: att.leader, dfn.side: dfn.leader}
        st = [STATUS.get(lead[i].kind, 1) for i in (0, 1)]  # type: ignore[union-attr]
        if st[0] != st[1]:
            n[0 if st[0] > st[1] else 1] += 1
        self._chance(challenge_outcomes(self.faces, n[0], n[1]), "_h_challenge_roll", uid, target)

    def _h_challenge_roll(self, o, uid: int, target: int) -> None:
        _, result, hf0, hf1 = o
        self.sides[0].hf += hf0
        self.sides[1].hf += hf1
        if result == 0:
            return
        loser = 1 if result > 0 else 0  # result > 0: side 0 rolled more swords
        for pid in (uid, target):
            u = self.units.get(pid)
            if u is not None and u.side == loser and u.leader is not None:
                u.leader = None
                self._leader_lost(loser, banner=False)  # no victory banner (ccn_personal_challenge)
        self._push(("lose_card", loser))

    # ---------------------------------------------------------------- reactions
    def _s_react_q(self, uid: int, target: int, paid: bool, bonus: bool) -> None:
        att, dfn = self.units.get(uid), self.units.get(target)
        if att is None or dfn is None:
            return
        d = dfn.side
        stockade = self._stockade_first(att, dfn)
        acts: list = [("react", None)]
        if not stockade and any(self.decks.info[c].effect == "first_strike" for c in self.sides[d].hand):
            acts.append(("react", "first_strike"))
        if self.can_play_dragon(d, "ambush") is not None:
            acts.append(("react", "ambush"))
        if len(acts) == 1:
            self._h_react(acts[0], uid, target, paid, bonus)
            return
        self._decide(d, acts, "_h_react", uid, target, paid, bonus)

    def _h_react(self, a, uid: int, target: int, paid: bool, bonus: bool) -> None:
        att, dfn = self.units[uid], self.units[target]
        first = self._stockade_first(att, dfn)
        extra = 0
        if a[1] == "first_strike":
            hand = self.sides[dfn.side].hand
            card = next(c for c in hand if self.decks.info[c].effect == "first_strike")
            hand.remove(card)
            self.cmd_discard[card] = self.cmd_discard.get(card, 0) + 1
            self.replacements[dfn.side] += 1
            self._count("command:" + card)
            first = True
        elif a[1] == "ambush":
            self._play_dragon(dfn.side, self.can_play_dragon(dfn.side, "ambush"))  # type: ignore[arg-type]
            first = True
            extra = 1
        if first:
            # the defender battles first; the attacker then battles as ordered (no battle back)
            self._push(("inspire_q", target, uid, "first", bonus, extra, (uid, paid, att.hex)))
        else:
            self._push(("roll", uid, target, "close", "attack", paid, bonus, 0, att.hex))

    def _s_inspire_q(self, roller: int, target: int, role: str, bonus: bool, extra: int, then) -> None:
        r = self.units.get(roller)
        t = self.units.get(target)
        if r is None or t is None:
            if then is not None:
                self._push(("after_first", then, target))
            return
        if self.inspiration(r) is None:
            self._h_inspire(("inspire", False), roller, target, role, bonus, extra, then)
            return
        self._decide(r.side, [("inspire", False), ("inspire", True)], "_h_inspire", roller, target, role, bonus, extra, then)

    def _h_inspire(self, a, roller: int, target: int, role: str, bonus: bool, extra: int, then) -> None:
        r = self.units[roller]
        paid = self._pay_inspiration(r, a[1])
        self._push(("roll", roller, target, "close", role, paid, bonus, extra, r.hex))
        if then is not None:
            self._push_after(("after_first", then, roller))

    def _push_after(self, step: tuple) -> None:
        """Queue ``step`` after the roll just pushed and everything it will push: a marker the
        roll's resolution runs up to."""
        # the roll step is first in the queue; its resolution pushes its own steps in front of
        # everything behind it, so inserting right after it keeps the order
        self.steps.insert(1, step)

    def _s_after_first(self, then, defender: int) -> None:
        uid, paid, hex_ = then
        att = self.units.get(uid)
        if att is None or att.hex != hex_ or defender not in self.units:
            return  # eliminated or retreated by the first strike
        self._push(("roll", uid, defender, "close", "after_first", paid, False, 0, att.hex))

    # ---------------------------------------------------------------- rolls
    def _s_roll(self, roller: int, target: int, kind: str, role: str, insp: bool, bonus: bool, extra: int, roller_hex: Hex) -> None:
        r = self.units.get(roller)
        t = self.units.get(target)
        if r is None or t is None or r.hex != roller_hex:
            return
        setup = self.setup_for(r, t, kind, insp, extra)
        if setup.dice <= 0:
            return
        self._chance(odds.chance_list(self.data, setup), "_h_roll", roller, target, kind, role, bonus, t.hex, setup)

    def _h_roll(self, o, roller: int, target: int, kind: str, role: str, bonus: bool, start_hex: Hex, setup: Setup) -> None:
        r, t = self.units[roller], self.units[target]
        sym, swords, flags, hf = o[1:]
        if setup.grapple and swords > 0 and (self.naval(r) or self.board.distance(r.hex, t.hex) == 1):
            pair = frozenset((roller, target))
            lost = score(setup, sym, swords, flags)[0] - score(setup, sym, swords, flags, grapple=True)[0]
            self.pending_grapple = (roller, target, lost, pair in self.grapples)
            self._decide(r.side, [("grapple", False), ("grapple", True)], "_h_grapple", roller, target, kind, role, bonus, start_hex, setup, (sym, swords, flags, hf))
            return
        self._resolve(roller, target, kind, role, bonus, (sym, swords, flags, hf), False, start_hex, setup)

    def _h_grapple(self, a, roller, target, kind, role, bonus, start_hex, setup, roll) -> None:
        self.pending_grapple = None
        self._resolve(roller, target, kind, role, bonus, roll, a[1], start_hex, setup)

    def _resolve(self, roller: int, target: int, kind: str, role: str, bonus: bool, roll: tuple[int, int, int, int],
                 spend_sword: bool, start_hex: Hex, setup: Setup) -> None:
        sym, swords, flags, hf = roll
        r, t = self.units[roller], self.units[target]
        self.sides[r.side].hf += hf
        if spend_sword:
            self._vdirty = True
            pair = frozenset((roller, target))
            if pair in self.grapples:
                self.grapples.discard(pair)  # severed: both free at once
            else:
                self.grapples.add(pair)
        hits, retreat = score(setup, sym, swords, flags, grapple=spend_sword)
        steps: list[tuple] = []
        if hits:
            steps.append(("hit", target, hits))
        if retreat:
            steps.append(("retreat", target, retreat))
        if hits or retreat:
            steps.append(("casualty", target, t.figures))
        steps.append(("after", roller, target, kind, role, bonus, start_hex))
        self._push(*steps)

    def _s_after(self, roller: int, target: int, kind: str, role: str, bonus: bool, start_hex: Hex) -> None:
        r = self.units.get(roller)
        if r is None or kind != "close":
            return
        t = self.units.get(target)
        vacated = not self.occupied(start_hex)
        if role == "attack":
            if t is not None and t.hex == start_hex and t.hex == t.start_hex:
                # battle back (not after a retreat, not by a unit that moved this turn)
                self._push(("inspire_q", target, roller, "back", bonus, 0, None))
            elif vacated:
                self._push(("ground_q", roller, start_hex, bonus))
        elif role == "after_first" and vacated:
            self._push(("ground_q", roller, start_hex, bonus))

    def _s_roll_leader(self, uid: int, lid: int, kind: str, paid: bool, bonus: bool, roller_hex: Hex) -> None:
        u, le = self.units.get(uid), self.leaders.get(lid)
        if u is None or le is None or u.hex != roller_hex:
            return
        setup = self.leader_setup_for(u, le, kind, paid)
        if setup.dice <= 0:
            return
        self._chance(odds.chance_list(self.data, setup), "_h_roll_leader", uid, lid, kind, bonus, le.hex)

    def _h_roll_leader(self, o, uid: int, lid: int, kind: str, bonus: bool, start_hex: Hex) -> None:
        u, le = self.units[uid], self.leaders[lid]
        self.sides[u.side].hf += o[4]
        steps: list[tuple] = []
        if o[2] > 0:  # one sword or more: the leader is eliminated
            self._remove_leader(lid)
            self._leader_lost(le.side, banner=True)
        else:
            steps.append(("leader_escape", lid))
        if kind == "close":
            steps.append(("ground_after_leader", uid, start_hex, bonus))
        self._push(*steps)

    def _s_ground_after_leader(self, uid: int, h: Hex, bonus: bool) -> None:
        if uid in self.units and not self.occupied(h):
            self._push(("ground_q", uid, h, bonus))

    # ---------------------------------------------------------------- taking ground, bonus
    def may_take_ground(self, u: Unit, h: Hex) -> bool:
        """``u`` may take the vacated hex ``h`` after a close combat: cavalry (mounted, not at
        sea) and units with a leader (rules-facts §1.4); never between land and sea (Genpei
        pack); not grappled; once per turn; not after entering or leaving a Marsh by its move
        this turn (one that started in a Marsh and did not move may take ground out of it);
        Stockade entry rules (erratum stockade_take_ground_adjacent)."""
        if u.took_ground or self.occupied(h) or self.grappled(u):
            return False
        b = self.board
        at_sea = b.is_naval(u.hex)
        if not ((u.type.mounted and not at_sea) or u.leader is not None):
            return False
        if at_sea != b.is_naval(h) or b.impassable(h):
            return False
        if u.moved and (b.entry_roll(u.hex) or b.entry_roll(u.start_hex)):
            return False
        return self._may_enter(u, h, u.hex)

    def _s_ground_q(self, uid: int, h: Hex, bonus: bool) -> None:
        u = self.units.get(uid)
        if u is None or not self.may_take_ground(u, h):
            return
        self._decide(u.side, [("take_ground", uid, False), ("take_ground", uid, True)], "_h_ground", h, bonus)

    def _h_ground(self, a, h: Hex, bonus: bool) -> None:
        if not a[2]:
            return
        u = self.units[a[1]]
        self._enter_hex(u, h)
        u.took_ground = True
        self._count("took_ground")
        if self.board.entry_roll(h):
            self._push(("marsh", u.uid, not bonus))  # the roll, then the bonus combat
        elif not bonus:
            self._push(("bonus_q", u.uid))

    def _s_bonus_q(self, uid: int) -> None:
        u = self.units.get(uid)
        if u is None:
            return
        if not ((u.type.mounted and not self.naval(u)) or u.leader is not None):
            return  # a dismounted naval unit without a leader takes ground but gets no bonus
        insp = (False, True) if self.inspiration(u) is not None else (False,)
        acts: list = [("pass", uid)] + [("bonus", uid, o, i) for o in self.close_targets(u) for i in insp]
        if len(acts) == 1:
            return
        self._decide(u.side, acts, "_h_bonus")

    def _h_bonus(self, a) -> None:
        if a[0] == "bonus":
            self._count("bonus_combat")
            self._push(("declare", a[1], a[2], "close", a[3], True))

    # ---------------------------------------------------------------- losses and retreats
    def _s_hit(self, uid: int, n: int) -> None:
        u = self.units.get(uid)
        if u is None:
            return
        u.figures -= n
        if u.figures <= 0:
            self._eliminate(u)

    def _lose(self, u: Unit, figures: int) -> None:
        self._push(("hit", u.uid, figures))

    def _eliminate(self, u: Unit) -> None:
        self._vdirty = True
        del self.units[u.uid]
        del self.at[u.hex]
        if self.grapples:
            self.grapples = {g for g in self.grapples if u.uid not in g}
        if u.uid in self.queue:
            self.queue = deque(x for x in self.queue if x != u.uid)
        me = self.sides[u.side]
        self.sides[1 - u.side].banners += 1
        me.hf = max(0, me.hf - u.type.hf_lost_when_eliminated)
        if u.leader is not None:
            # the leader stays alone on the hex: casualty check with 1 die, then retreat or seppuku
            le = self._place_leader(u.side, u.leader, u.hex)
            self._push(("elim_check", le.lid))

    def _s_elim_check(self, lid: int) -> None:
        if lid not in self.leaders:
            return
        p = casualty_check_probability(self.faces, 1)
        self._chance([(("casualty", True), p), (("casualty", False), 1 - p)], "_h_elim_check", lid)

    def _h_elim_check(self, o, lid: int) -> None:
        le = self.leaders[lid]
        if o[1]:
            self._remove_leader(lid)
            self._leader_lost(le.side, banner=True)
            return
        self._push(("leader_escape", lid))

    def _s_casualty(self, uid: int, before: int) -> None:
        u = self.units.get(uid)
        if u is None or u.leader is None or u.figures >= before:
            return
        p = casualty_check_probability(self.faces, 2)
        self._chance([(("casualty", True), p), (("casualty", False), 1 - p)], "_h_casualty", uid)

    def _h_casualty(self, o, uid: int) -> None:
        if o[1] and uid in self.units:
            u = self.units[uid]
            u.leader = None
            self._leader_lost(u.side, banner=True)

    def retreat_hexes(self, u: Unit, frm: Hex) -> list[Hex]:
        """Hexes ``u`` may retreat into from ``frm``: toward its own edge, free, passable, land
        for a land unit (Genpei pack: no retreat onto Ocean), no Stockade for cavalry or a unit
        with a cavalry leader."""
        out = []
        b = self.board
        mounted = u.type.mounted or (u.leader is not None and u.leader.mounted)
        for d in BACK[self.sides[u.side].edge]:
            n = b.neighbour(frm, d)
            if n is None or n in self.at or n in self.lat or b.impassable(n) or b.is_naval(n):
                continue
            if mounted and any(not t.movement.mounted_may_enter for t in b.terrain(n)):
                continue
            out.append(n)
        return out

    def _s_retreat(self, uid: int, left: int) -> None:
        u = self.units.get(uid)
        if u is None or left <= 0:
            return
        options = [] if self.grappled(u) or self.naval(u) else self.retreat_hexes(u, u.hex)
        if not options:
            self._push(("hit", uid, left))  # 1 figure per hex it cannot retreat (ccn_faq_retreats)
            return
        if len(options) == 1:
            self._h_retreat(("retreat", uid, options[0]), left)
            return
        self._decide(u.side, [("retreat", uid, n) for n in options], "_h_retreat", left)

    def _h_retreat(self, a, left: int) -> None:
        u = self.units[a[1]]
        me = self.sides[u.side]
        cost = u.stats.retreat_hf + (1 if u.leader is not None else 0)
        steps: list[tuple] = []
        if me.hf >= cost:
            me.hf -= cost
        else:
            steps.append(("hit", u.uid, 1))  # Lack of Honor: a block instead of the tokens
        self._enter_hex(u, a[2])
        if self.board.entry_roll(a[2]):
            steps.append(("marsh", u.uid, False))  # entering a Marsh stops the retreat
        else:
            steps.append(("retreat", u.uid, left - 1))
        self._push(*steps)

    # ---------------------------------------------------------------- Turncoat
    def _s_turncoat(self, uid: int) -> None:
        if uid not in self.units:
            return
        p = self.player
        n = [3, 3]
        b = [self.banners(0), self.banners(1)]
        if b[0] != b[1]:
            n[0 if b[0] > b[1] else 1] += 1
        hf = [s.hf for s in self.sides]
        if hf[0] != hf[1]:
            n[0 if hf[0] > hf[1] else 1] += 2
        mine, theirs = n[p], n[1 - p]
        q = more_hf_probability(self.faces, mine, theirs)
        self._chance([(("turncoat", True), q), (("turncoat", False), 1 - q)], "_h_turncoat", uid)

    def _h_turncoat(self, o, uid: int) -> None:
        if o[1] and uid in self.units:
            u = self.units[uid]
            self._vdirty = True
            u.side = self.player  # defects; not ordered by the change (ccn_faq_dragon_command_cards)
            self.grapples = {g for g in self.grapples if uid not in g}
            self._count("turncoat_defected")

    # ---------------------------------------------------------------- palisade / stockade
    def _destroy(self, u: Unit, h: Hex, inspired: bool) -> None:
        insp = self._pay_inspiration(u, inspired)
        b = self.board
        # cached for the scenario by what :func:`~.combat.destroy_setup` reads of the Fighter
        key = ("destroy", u.type.id, b.tile_key.get(u.hex, ()), u.hex in b._naval, u.moved,
               u.leader.id if u.leader is not None else None, insp, u.bonus_close)
        setup = self._setups.get(key)
        if setup is None:
            setup = self._setups[key] = destroy_setup(self.fighter(u), inspired=insp, bonus_dice=u.bonus_close)
        tile = next(t for t in b.terrain(h) if t.destruction is not None)
        self._chance(odds.chance_list(self.data, setup), "_h_destroy", h, tile.id, u.side)

    def _h_destroy(self, o, h: Hex, tile_id: str, side: int) -> None:
        self.sides[side].hf += o[4]
        tile = self.data.terrain[tile_id]
        if o[2] >= tile.destruction.swords_needed:  # type: ignore[union-attr]
            self.board.remove_tile(h, tile_id)
            self._vdirty = True
            self._count("tile_destroyed")
            lost = tile.destruction.occupant_loses_figures  # type: ignore[union-attr]
            occ = self.at.get(h)
            if occ is not None and lost:
                self._push(("hit", occ, lost), ("casualty", occ, self.units[occ].figures))


#: Step name → its ``_s_<name>`` function; handler name (a node's ``[3]``) → its function. The
#: main loop dispatches through these tables rather than ``getattr`` with a built name.
_STEPS = {k[3:]: v for k, v in vars(GenpeiState).items() if k.startswith("_s_")}
_HANDLERS = {k: v for k, v in vars(GenpeiState).items() if k.startswith("_h_")}
#: Phase → the ``_pl_<phase>`` function listing its actions; action kind → the ``_a_<kind>``
#: function taking a phase action (the main loop and :meth:`GenpeiState.step` dispatch on these).
_PHASE_LISTS = {k[4:]: v for k, v in vars(GenpeiState).items() if k.startswith("_pl_")}
_PHASE_ACTS = {k[3:]: v for k, v in vars(GenpeiState).items() if k.startswith("_a_")}


@lru_cache(maxsize=64)
def shogun_outcomes(faces: tuple[str, ...], dice: int) -> list[tuple[tuple, float]]:
    """The Shogun roll of ``dice`` dice: ``(("shogun", circles, triangles, squares, flags, H&F),
    probability)`` (:func:`symbol_counts`), one list per die and dice count, shared by every
    chance node that rolls it (never changed)."""
    syms = ("circle", "triangle", "square", "flag", "honour_fortune")
    return [(("shogun",) + k, p) for k, p in symbol_counts(faces, dice, syms)]


@lru_cache(maxsize=1024)
def _sword_hf(faces: tuple[str, ...], dice: int) -> tuple[tuple[tuple[int, int], float], ...]:
    return tuple(symbol_counts(faces, dice, ("sword", "honour_fortune")))


@lru_cache(maxsize=1024)
def challenge_outcomes(faces: tuple[str, ...], dice0: int, dice1: int) -> list[tuple[tuple, float]]:
    """Personal Challenge: ``(("challenge", result, hf0, hf1), p)`` where ``result`` is +1 when
    side 0 rolls more swords, -1 when side 1 does, 0 on a tie; ``hf*`` the H&F each collects."""
    out: dict[tuple, float] = {}
    for (s0, h0), p0 in _sword_hf(faces, dice0):
        for (s1, h1), p1 in _sword_hf(faces, dice1):
            k = ("challenge", (s0 > s1) - (s0 < s1), h0, h1)
            out[k] = out.get(k, 0.0) + p0 * p1
    return sorted(out.items())


@lru_cache(maxsize=1024)
def more_hf_probability(faces: tuple[str, ...], mine: int, theirs: int) -> float:
    """Probability that ``mine`` dice show more H&F symbols than ``theirs`` (Turncoat)."""
    a = symbol_counts(faces, mine, ("honour_fortune",))
    b = symbol_counts(faces, theirs, ("honour_fortune",))
    return sum(pa * pb for (ka,), pa in a for (kb,), pb in b if ka > kb)


__all__ = ["CHANCE", "LEADER_BASE", "TERMINAL", "GenpeiState", "Leader", "SideState", "Unit",
           "casualty_check_probability", "challenge_outcomes", "marsh_entry_outcomes", "more_hf_probability", "shogun_outcomes",
           "symbol_counts"]
