"""The pieces and players of a Genpei game, and the ids the state machine uses.

:class:`Unit` (a unit on the board, with its attached leader and this turn's flags),
:class:`Leader` (a lone leader), :class:`SideState` (a player: Command and Dragon hands, H&F,
banners); :data:`LEADER_BASE` (lone leaders are pieces with ids from here up), the player ids
:data:`CHANCE` and :data:`TERMINAL` of :meth:`~.state.GenpeiState.current_player`, and the
retreat directions and leader status the rules use. Part of :mod:`.state`, which re-exports them.
"""

from __future__ import annotations

from pipeline.systems.genpei.engine.board import Hex
from pipeline.systems.genpei.engine.stats import UnitStats
from pipeline.systems.genpei.model import LeaderType, UnitType

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
