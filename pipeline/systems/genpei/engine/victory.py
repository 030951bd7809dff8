"""Victory banners beyond 1 per enemy unit or leader: the scenarios' temporary banners.

A scenario's ``victory.rules`` are summaries; the engine knows the ones below by their rule id
and counts their temporary banners from the board. A rule id the engine does not know earns no
banner and is logged as a note (and the static check ``banners-reachable`` ignores it).

* ``supply_ships_temporary_banner`` (GP20): the units noted ``supply ship`` standing at sea at
  the start are supply ships; the other side holds 1 temporary banner for each one grappled with
  one of its units (rules-facts §2, GP20 row).
* ``storming_the_stronghold`` (GP19, gunbai's reconstruction): the side with no unit in a
  Stockade at the start holds 1 temporary banner for each hex still carrying a Stockade tile that
  one of its units occupies.
* ``command_tent_banner`` (GMT rules, erratum ``command_tent_banner``): the first enemy unit to
  enter a side's Command Tent or Command Ship hex removes the tile and wins 1 banner for good
  (the engine's ``GenpeiState._tent_capture``); :func:`tent_banners` counts them for the static
  check.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pipeline.systems.genpei.data import GenpeiData
from pipeline.systems.genpei.model import Scenario

if TYPE_CHECKING:  # pragma: no cover
    from pipeline.systems.genpei.engine.state import GenpeiState

KNOWN_RULES = ("supply_ships_temporary_banner", "storming_the_stronghold", "command_tent_banner")


def _hexes(tp) -> list[tuple[int, int]]:
    return [(int(h[0]), int(h[1])) for h in tp.all_hexes()]


def _naval_hexes(data: GenpeiData, sc: Scenario) -> set[tuple[int, int]]:
    return {h for tp in sc.terrain if tp.terrain in data.terrain and data.terrain[tp.terrain].naval for h in _hexes(tp)}


def _stockade_hexes(data: GenpeiData, sc: Scenario) -> set[tuple[int, int]]:
    return {h for tp in sc.terrain if tp.terrain in data.terrain and data.terrain[tp.terrain].destruction is not None
            and data.terrain[tp.terrain].movement.must_start_adjacent for h in _hexes(tp)}


def supply_ships(data: GenpeiData, sc: Scenario) -> list[int]:
    """Indexes (in ``sc.units``) of the supply ships."""
    naval = _naval_hexes(data, sc)
    return [i for i, u in enumerate(sc.units) if u.note and "supply ship" in u.note.lower() and tuple(u.hex) in naval]


def stronghold_attacker(data: GenpeiData, sc: Scenario) -> str | None:
    """The side id with no unit in a Stockade at the start (``None`` when both or none have)."""
    st = _stockade_hexes(data, sc)
    inside = {u.side for u in sc.units if tuple(u.hex) in st}
    outside = [s.id for s in sc.sides if s.id not in inside]
    return outside[0] if len(outside) == 1 else None


def max_temporary(data: GenpeiData, sc: Scenario) -> dict[str, int]:
    """The most temporary banners each side can hold at once, by side id."""
    out = {s.id: 0 for s in sc.sides}
    for r in sc.victory.rules:
        if r.id == "supply_ships_temporary_banner":
            for i in supply_ships(data, sc):
                owner = sc.units[i].side
                for s in sc.sides:
                    if s.id != owner:
                        out[s.id] += 1
        elif r.id == "storming_the_stronghold":
            att = stronghold_attacker(data, sc)
            if att is not None:
                out[att] += len(_stockade_hexes(data, sc))
    return out


def tent_banners(sc: Scenario) -> dict[str, int]:
    """Banners each side (by id) can win by taking enemy Command Tent/Ship tiles, when the
    scenario's victory rules include ``command_tent_banner`` (else 0)."""
    out = {s.id: 0 for s in sc.sides}
    if not any(r.id == "command_tent_banner" for r in sc.victory.rules):
        return out
    for m in sc.markers:
        if m.marker in ("command_tent", "command_ship") and m.side is not None:
            for s in sc.sides:
                if s.id != m.side:
                    out[s.id] += 1
    return out


class TemporaryBanners:
    """Counts a game's temporary banners (see the module docstring)."""

    def __init__(self, state: GenpeiState):
        self.state = state
        sc = state.scenario
        data = state.data
        self.notes: list[str] = []
        self.ships: list[int] = []
        self.ship_beneficiary: dict[int, int] = {}
        self.stronghold: int | None = None
        self.stockades: list[tuple[int, int]] = []
        index = {s.id: i for i, s in enumerate(sc.sides)}
        most = max_temporary(data, sc)
        #: The most temporary banners each side (by index) can hold.
        self.most = [most.get(s.id, 0) for s in sc.sides]
        for r in sc.victory.rules:
            if r.id == "supply_ships_temporary_banner":
                for i in supply_ships(data, sc):
                    self.ships.append(i)
                    self.ship_beneficiary[i] = 1 - index[sc.units[i].side]
            elif r.id == "storming_the_stronghold":
                att = stronghold_attacker(data, sc)
                self.stronghold = None if att is None else index[att]
                self.stockades = [state.board.hex(h) for h in sorted(_stockade_hexes(data, sc))]  # the board's hex objects
            elif r.id == "command_tent_banner":
                pass  # permanent banners, counted by the engine when a tile is taken
            else:
                self.notes.append(f"{sc.code} victory rule {r.id!r} is not known to the engine: it earns no banner in play")
        #: The hexes whose occupant :meth:`count` looks at (a unit moving onto or off any other
        #: hex changes no temporary banner).
        self.hexes: frozenset[tuple[int, int]] = frozenset(self.stockades) if self.stronghold is not None else frozenset()

    def rebind(self, state: GenpeiState) -> TemporaryBanners:
        """The same counter for a copy of the game (``GenpeiState.clone``)."""
        c = TemporaryBanners.__new__(TemporaryBanners)  # copy.copy without its reduce protocol
        c.__dict__.update(self.__dict__)
        c.state = state
        return c

    def count(self, side: int) -> int:
        st = self.state
        n = 0
        if not self.ships and self.stronghold is None:
            return 0
        for uid in self.ships:
            if self.ship_beneficiary[uid] != side or uid not in st.units:
                continue
            for g in st.grapples:
                if uid in g:
                    other = next(x for x in g if x != uid)
                    if other in st.units and st.units[other].side == side:
                        n += 1
                        break
        if self.stronghold == side:
            fortified = st.board.fortified  # hexes still carrying a Stockade tile
            for h in self.stockades:
                uid = st.at.get(h)
                if uid is not None and st.units[uid].side == side and h in fortified:
                    n += 1
        return n
