"""The board as the engine sees it: hex geometry, the tiles of each hex, sections, line of sight.

Hexes are ``(column, row)`` as in the data. Internally a hex is also addressed in *doubled*
coordinates ``(x, row)`` with ``x = 2 * (column - 1) + (1 on a short row)``, in which the six
neighbours are ``E (+2, 0)``, ``W (-2, 0)``, ``NE (+1, -1)``, ``NW (-1, -1)``, ``SE (+1, +1)``,
``SW (-1, +1)``: the same neighbours as :meth:`pipeline.systems.genpei.layout.HexLayout.neighbour`.
"""

from __future__ import annotations

import math
from collections import defaultdict
from functools import cache

from pipeline.systems.genpei.data import GenpeiData
from pipeline.systems.genpei.engine.combat import inspiration_allowed
from pipeline.systems.genpei.model import BoardGeometry, Scenario, TerrainType

Hex = tuple[int, int]

#: Doubled-coordinate steps of the six directions.
STEPS: dict[str, tuple[int, int]] = {"NE": (1, -1), "E": (2, 0), "SE": (1, 1), "SW": (-1, 1), "W": (-2, 0), "NW": (-1, -1)}
#: The direction across the same hexside seen from the other hex.
OPPOSITE = {"NE": "SW", "E": "W", "SE": "NW", "SW": "NE", "W": "E", "NW": "SE"}
#: Angle of each direction in degrees (east 0, counter-clockwise, north up).
ANGLE = {"E": 0, "NE": 60, "NW": 120, "W": 180, "SW": 240, "SE": 300}


def with_wind(direction: str, wind: list[str]) -> bool:
    """True when a step ``direction`` is one of the 3 hexsides *with* the wind/tide: within 60°
    of a wind/tide direction (Genpei pack, Naval Warfare: movement)."""
    for w in wind:
        d = abs(ANGLE[direction] - ANGLE[w]) % 360
        if min(d, 360 - d) <= 60:
            return True
    return False


class Board:
    """A scenario's board: geometry and tiles.

    Attributes:
        geometry: the board of ``board.yaml``.
        tiles: hex → its tiles (base first, then overlays); a hex without tiles is countryside.
        palisade_sides: hex → the directions of its covered hexsides.
        wind: the wind/tide directions (empty on land).
    """

    _shared: dict[tuple[int, int], dict] = {}

    @classmethod
    def caches_for(cls, data: GenpeiData, scenario: Scenario) -> dict[str, object]:
        """The dict of caches shared by every game of ``scenario`` (:attr:`shared`)."""
        sh = cls._shared.get((id(data), id(scenario)))
        if sh is None or sh["scenario"] is not scenario or sh["data"] is not data:
            return cls(data, scenario).shared
        return sh.setdefault("caches", {})

    def __init__(self, data: GenpeiData, scenario: Scenario):
        self.data = data
        self.geometry: BoardGeometry = data.board
        key = (id(data), id(scenario))
        sh = Board._shared.get(key)
        if sh is None or sh["scenario"] is not scenario or sh["data"] is not data:
            sh = Board._shared[key] = self._static(data, scenario)
        self.hexes: list[Hex] = sh["hexes"]
        self._on: set[Hex] = sh["on"]
        #: hex → the one tuple object the board's tables use for it (:meth:`hex`).
        self._canon: dict[Hex, Hex] = sh["canon"]
        self._dbl: dict[Hex, tuple[int, int]] = sh["dbl"]
        self._nb: dict[Hex, tuple[tuple[str, Hex], ...]] = sh["nb"]
        #: hex → its on-board neighbour hexes (no directions), for the engine's inner loops.
        self.adjacent: dict[Hex, tuple[Hex, ...]] = sh["adjacent"]
        #: hex → the same neighbours as a set (for set operations with occupied hexes).
        self.adjacent_set: dict[Hex, frozenset[Hex]] = sh["adjacent_set"]
        self._step_to: dict[tuple[Hex, str], Hex | None] = sh["step"]
        self._bearing: dict[tuple[Hex, Hex], str] = sh["bearing"]
        self._sections: dict[tuple[Hex, str], frozenset[str]] = sh["sections"]
        #: edge → hex → the sections of the hex for the player at that edge (:meth:`sections`).
        self.sections_at: dict[str, dict[Hex, frozenset[str]]] = sh["sections_at"]
        self._between: dict[tuple[Hex, Hex], tuple[Hex, ...]] = sh["between"]
        self.dist: dict[Hex, dict[Hex, int]] = sh["dist"]
        self._within: dict[tuple[Hex, int], frozenset[Hex]] = sh.setdefault("within", {})
        #: Caches of facts that depend only on the scenario and the data (shared by its games).
        self.shared: dict[str, dict] = sh.setdefault("caches", {})
        self.tiles: dict[Hex, tuple[TerrainType, ...]] = dict(sh["tiles"])
        self.palisade_sides: dict[Hex, frozenset[str]] = dict(sh["palisade_sides"])
        self.wind: list[str] = list(scenario.wind_tide.directions) if scenario.wind_tide else []
        #: The directions of a step with the wind/tide (:func:`with_wind`).
        self.wind_dirs: frozenset[str] = frozenset(d for d in STEPS if with_wind(d, self.wind))
        self.naval_rules = scenario.naval
        derived = sh.get("derived")
        if derived is None:  # the scenario's own tiles: derived once, shared by every game of it
            derived = sh["derived"] = self._derived(self.tiles)
        self._use(derived)
        #: ``(hex, tile id)`` of every tile destroyed so far in this game.
        self.destroyed: frozenset[tuple[Hex, str]] = frozenset()

    def _static(self, data: GenpeiData, scenario: Scenario) -> dict:
        hexes = self.geometry.all_hexes()
        on = set(hexes)
        self._on = on
        # One tuple object per hex, used in every table: a dict or set finds an identical key
        # by its address, without comparing the tuples item by item (still equal to any other
        # ``(column, row)``: nothing outside the engine needs to know).
        canon = {h: h for h in hexes}
        tiles: dict[Hex, list[TerrainType]] = defaultdict(list)
        pal: dict[Hex, frozenset[str]] = {}
        for tp in scenario.terrain:
            t = data.terrain.get(tp.terrain)
            if t is None:
                continue
            for h in tp.all_hexes():
                h = canon.get((int(h[0]), int(h[1])))
                if h is None:
                    continue
                tiles[h].append(t)
                if t.hexsides:
                    pal[h] = frozenset(tp.hexsides)
        for h in tiles:
            tiles[h].sort(key=lambda t: t.overlay)
        dbl = {h: (2 * (h[0] - 1) + (1 if self.geometry.is_short_row(h[1]) else 0), h[1]) for h in hexes}
        self._dbl = dbl
        step = {(h, d): canon.get(self._step(h, d)) for h in hexes for d in STEPS}
        nb = {h: tuple((d, n) for d in STEPS if (n := step[(h, d)]) is not None) for h in hexes}
        sections = {}
        for h in hexes:
            s = self.geometry.sections(h)
            sections[(h, "south")] = s
            swap = {"left": "right", "right": "left", "centre": "centre"}
            sections[(h, "north")] = frozenset(swap[x] for x in s)
        dist = {a: {b: _distance(dbl[a], dbl[b]) for b in hexes} for a in hexes}
        sections_at = {e: {h: sections[(h, e)] for h in hexes} for e in ("south", "north")}
        return {"scenario": scenario, "data": data, "hexes": hexes, "on": on, "canon": canon, "dbl": dbl, "nb": nb, "sections": sections, "dist": dist,
                "sections_at": sections_at,
                "adjacent": {h: tuple(n for _, n in v) for h, v in nb.items()},
                "adjacent_set": {h: frozenset(n for _, n in v) for h, v in nb.items()}, "step": step, "bearing": {},
                "between": {}, "tiles": {h: tuple(v) for h, v in tiles.items()}, "palisade_sides": pal}

    def _derived(self, tiles: dict[Hex, tuple[TerrainType, ...]], prev: dict | None = None) -> dict:
        """Per-hex facts the engine asks for all the time, from the tiles ``tiles`` (``prev``: the
        facts before a tile was removed, whose neighbour table is kept when it still holds)."""
        naval_rules = self.naval_rules
        exit_max: dict[Hex, int] = {}
        for h, ts in tiles.items():
            caps = [t.movement.exit_max_hexes for t in ts if t.movement.exit_max_hexes is not None]
            if caps:
                exit_max[h] = min(caps)
        naval = frozenset(h for h, ts in tiles.items() if any(t.naval for t in ts))
        impassable = frozenset(h for h, ts in tiles.items() if any(
            t.movement.passable == "no" or (t.movement.passable == "naval" and not naval_rules) for t in ts))
        same_impassable = prev is not None and prev["impassable"] == impassable
        return {
            "naval": naval,
            "impassable": impassable,
            "land_adjacent": (prev["land_adjacent"] if same_impassable and prev["naval"] == naval  # type: ignore[index]
                              else {h: tuple(n for n in ns if n not in naval and n not in impassable) for h, ns in self.adjacent.items()}),
            "passable_adjacent": (prev["passable_adjacent"] if same_impassable  # type: ignore[index]
                                  else {h: tuple(n for n in ns if n not in impassable) for h, ns in self.adjacent.items()}),
            "sea_adjacent": (prev["sea_adjacent"] if prev is not None and prev["naval"] == naval  # type: ignore[index]
                             else {h: (tuple(n for _, n in ns if n in naval), tuple(n for d, n in ns if n in naval and d in self.wind_dirs))
                                   for h, ns in self._nb.items()}),
            "must_stop": frozenset(h for h, ts in tiles.items() if any(t.movement.must_stop for t in ts)),
            "entry_roll": frozenset(h for h, ts in tiles.items() if any(t.entry_roll for t in ts)),
            "blocks": frozenset(h for h, ts in tiles.items() if any(t.blocks_los != "no" for t in ts)),
            "no_mounted": frozenset(h for h, ts in tiles.items() if any(not t.movement.mounted_may_enter for t in ts)),
            "start_adjacent": frozenset(h for h, ts in tiles.items() if any(t.movement.must_start_adjacent for t in ts)),
            "no_battle_entering": frozenset(h for h, ts in tiles.items() if any(t.movement.no_battle_after_entering for t in ts)),
            "no_inspiration": frozenset(h for h, ts in tiles.items() if not inspiration_allowed(ts)),
            "destructible": (destructible := frozenset(h for h, ts in tiles.items() if any(t.destruction is not None for t in ts))),
            "destructible_adjacent": {h: tuple(n for n in self.adjacent[h] if n in destructible)
                                      for h in {n for d in destructible for n in self.adjacent[d]}},
            "fortified": frozenset(h for h, ts in tiles.items()
                                   if any(t.movement.must_start_adjacent and t.destruction is not None for t in ts)),
            "exit_max": exit_max,
            "tile_key": {h: tuple(t.id for t in ts) for h, ts in tiles.items()},
            "los": {},
        }

    def _use(self, d: dict) -> None:
        self._facts = d
        self._naval: frozenset[Hex] = d["naval"]
        self._impassable: frozenset[Hex] = d["impassable"]
        #: hex → its neighbours a land move may enter by terrain (neither Ocean nor impassable),
        #: in the order of :attr:`adjacent`.
        self.land_adjacent: dict[Hex, tuple[Hex, ...]] = d["land_adjacent"]
        #: hex → its neighbours that are not impassable, in the order of :attr:`adjacent`.
        self.passable_adjacent: dict[Hex, tuple[Hex, ...]] = d["passable_adjacent"]
        #: hex → (its Ocean neighbours, those of them a step with the wind/tide reaches), in the
        #: order of :meth:`neighbours`.
        self.sea_adjacent: dict[Hex, tuple[tuple[Hex, ...], tuple[Hex, ...]]] = d["sea_adjacent"]
        self._must_stop: frozenset[Hex] = d["must_stop"]
        self._entry_roll: frozenset[Hex] = d["entry_roll"]
        self._blocks: frozenset[Hex] = d["blocks"]
        #: Hexes no cavalry unit or cavalry leader may enter (Stockade).
        self.no_mounted: frozenset[Hex] = d["no_mounted"]
        #: Hexes an ordered piece enters only from next to it at the start of the turn (Stockade).
        self.start_adjacent: frozenset[Hex] = d["start_adjacent"]
        #: Hexes with either of the two entry rules above.
        self.entry_rules: frozenset[Hex] = d["no_mounted"] | d["start_adjacent"]
        #: Hexes a unit may not battle after entering.
        self.no_battle_entering: frozenset[Hex] = d["no_battle_entering"]
        #: Hexes whose units cannot be inspired (Village).
        self.no_inspiration: frozenset[Hex] = d["no_inspiration"]
        #: Hexes with a tile that battles may destroy (Palisade, Stockade).
        self.destructible: frozenset[Hex] = d["destructible"]
        #: hex → its neighbours in :attr:`destructible`, in the order of :attr:`adjacent` (hexes
        #: without any left out).
        self.destructible_adjacent: dict[Hex, tuple[Hex, ...]] = d["destructible_adjacent"]
        #: Hexes with a tile that is entered only from next to it and can be destroyed (Stockade).
        self.fortified: frozenset[Hex] = d["fortified"]
        #: hex → the most hexes a unit leaving it may move (Marsh).
        self.exit_max: dict[Hex, int] = d["exit_max"]
        self.tile_key: dict[Hex, tuple[str, ...]] = d["tile_key"]
        self._los: dict[tuple[Hex, Hex], bool] = d["los"]

    def clone(self) -> Board:
        """A copy sharing the static geometry and, until one of them loses a tile, the tiles
        (:meth:`remove_tile` copies them before changing them)."""
        b = Board.__new__(Board)  # copy.copy without its reduce protocol
        b.__dict__.update(self.__dict__)
        return b

    # ---------------------------------------------------------------- geometry
    def contains(self, h: Hex) -> bool:
        return h in self._on

    def hex(self, h: Hex) -> Hex:
        """``h`` as the tuple object the board's tables hold (equal to ``h``; ``h`` itself when
        off the board): the engine keeps its hexes as these, so that lookups match by identity."""
        return self._canon.get(h, h)

    def doubled(self, h: Hex) -> tuple[int, int]:
        d = self._dbl.get(h)
        if d is None:
            c, r = h
            return 2 * (c - 1) + (1 if self.geometry.is_short_row(r) else 0), r
        return d

    def _step(self, h: Hex, d: str) -> Hex:
        x, r = self.doubled(h)
        dx, dr = STEPS[d]
        x, r = x + dx, r + dr
        if r < 1 or r > self.geometry.rows:
            return (-1, -1)
        shift = 1 if self.geometry.is_short_row(r) else 0
        if (x - shift) % 2:
            return (-1, -1)
        return (x - shift) // 2 + 1, r

    def neighbours(self, h: Hex) -> tuple[tuple[str, Hex], ...]:
        """``(direction, hex)`` of the on-board neighbours of ``h``."""
        return self._nb[h]

    def neighbour(self, h: Hex, d: str) -> Hex | None:
        """The on-board neighbour of ``h`` in direction ``d``, or ``None``."""
        try:
            return self._step_to[(h, d)]
        except KeyError:
            n = self._step(h, d)
            return n if n in self._on else None

    def direction(self, a: Hex, b: Hex) -> str | None:
        """The direction from ``a`` to the adjacent ``b``."""
        for d, n in self._nb[a]:
            if n == b:
                return d
        return None

    def distance(self, a: Hex, b: Hex) -> int:
        row = self.dist.get(a)
        d = row.get(b) if row is not None else None
        return _distance(self.doubled(a), self.doubled(b)) if d is None else d

    def within(self, h: Hex, r: int) -> frozenset[Hex]:
        """The on-board hexes at most ``r`` hexes from ``h`` (``h`` itself included), computed
        once per scenario."""
        got = self._within.get((h, r))
        if got is None:
            got = self._within[(h, r)] = frozenset(x for x, d in self.dist[h].items() if d <= r)
        return got

    # ---------------------------------------------------------------- terrain
    def terrain(self, h: Hex) -> tuple[TerrainType, ...]:
        return self.tiles.get(h, ())

    def has(self, h: Hex, tid: str) -> bool:
        return any(t.id == tid for t in self.tiles.get(h, ()))

    def is_naval(self, h: Hex) -> bool:
        return h in self._naval

    def impassable(self, h: Hex) -> bool:
        return h in self._impassable

    def must_stop(self, h: Hex) -> bool:
        return h in self._must_stop

    def entry_roll(self, h: Hex) -> bool:
        return h in self._entry_roll

    def is_shore(self, h: Hex) -> bool:
        """A land hex next to an Ocean hex."""
        return not self.is_naval(h) and any(self.is_naval(n) for _, n in self._nb[h])

    def remove_tile(self, h: Hex, tid: str) -> None:
        """Remove a destroyed tile and every overlay built on it. The tiles left and their
        per-hex facts depend only on the set of tiles destroyed (removals commute), so they are
        computed once per set and shared by every game of the scenario."""
        self.destroyed = self.destroyed | {(h, tid)}
        after = self.shared.setdefault("after_destruction", {})
        got = after.get(self.destroyed)
        if got is None:
            tiles = dict(self.tiles)  # never changed in place: the dicts are shared with clones
            left = tuple(t for t in tiles.get(h, ()) if t.id != tid and not (t.overlay and tid in t.requires))
            tiles[h] = left
            pal = self.palisade_sides
            if not any(t.hexsides for t in left):
                pal = dict(pal)
                pal.pop(h, None)
            got = after[self.destroyed] = (tiles, pal, self._derived(tiles, self._facts))
        self.tiles, self.palisade_sides = got[0], got[1]
        self._use(got[2])

    def covered(self, target: Hex, attacker: Hex) -> bool:
        """The attack on ``target`` from ``attacker`` crosses a covered hexside of ``target``
        (the hexside facing the attacker's direction, for an attack from further away)."""
        sides = self.palisade_sides.get(target)
        if not sides:
            return False
        return self.bearing(target, attacker) in sides

    def bearing(self, a: Hex, b: Hex) -> str:
        """The direction from ``a`` closest to the line towards ``b``."""
        key = (a, b)
        got = self._bearing.get(key)
        if got is None:
            got = self._bearing[key] = self._bearing_uncached(a, b)
        return got

    def _bearing_uncached(self, a: Hex, b: Hex) -> str:
        ax, ar = self.doubled(a)
        bx, br = self.doubled(b)
        ang = math.degrees(math.atan2(-(br - ar) * math.sqrt(3), bx - ax)) % 360
        return min(ANGLE, key=lambda d: min(abs(ANGLE[d] - ang), 360 - abs(ANGLE[d] - ang)))

    # ---------------------------------------------------------------- sections
    def sections(self, h: Hex, edge: str) -> frozenset[str]:
        """The sections of ``h`` for the player sitting at ``edge`` (his left is the board's
        left when he sits at the south edge, the board's right at the north edge)."""
        return self._sections[(h, edge)]

    # ---------------------------------------------------------------- line of sight
    def between(self, a: Hex, b: Hex) -> tuple[Hex, ...]:
        """The hexes the line from centre to centre crosses, ends excluded (a line along a
        hexside counts the hexes on both sides: a blocked one blocks)."""
        key = (a, b)
        got = self._between.get(key)
        if got is None:
            # the same hexes both ways (checked for every pair of the board by
            # tests/genpei/engine/test_rules.py): one computation fills both entries
            got = self._between[key] = self._between[(b, a)] = _line(self, a, b)
        return got

    def los_blocked_by_terrain(self, a: Hex, b: Hex) -> bool:
        """Terrain blocks line of sight from ``a`` to ``b``: a tile that blocks (Forest, Hill,
        Village) on a hex between, or a Stockade between two hexes neither of which is a
        Stockade (Genpei pack, Stockade). Cached per pair until a tile is destroyed."""
        key = (a, b)
        got = self._los.get(key)
        if got is None:  # symmetric: the hexes between and the tiles of both ends
            got = self._los[key] = self._los[(b, a)] = self._los_blocked(a, b)
        return got

    def _los_blocked(self, a: Hex, b: Hex) -> bool:
        between = self.between(a, b)
        if not any(h in self._blocks for h in between):
            return False
        end_kinds = {t.id for t in self.terrain(a)} | {t.id for t in self.terrain(b)}
        for h in between:
            for t in self.terrain(h):
                if t.blocks_los == "yes":
                    return True
                if t.blocks_los == "between_other_hexes" and t.id not in end_kinds:
                    return True
        return False


@cache
def _distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    dx = abs(a[0] - b[0])
    dr = abs(a[1] - b[1])
    return dr + max(0, (dx - dr) // 2)


def _line(board: Board, a: Hex, b: Hex) -> tuple[Hex, ...]:
    n = board.distance(a, b)
    if n <= 1:
        return ()
    ax, ar = board.doubled(a)
    bx, br = board.doubled(b)
    out: list[Hex] = []
    for eps in (1e-6, -1e-6):
        for i in range(1, n):
            f = i / n
            x = ax + (bx - ax) * f + eps
            r = ar + (br - ar) * f + eps
            h = _nearest(board, x, r)
            if h is not None and h not in (a, b) and h not in out:
                out.append(board.hex(h))
    return tuple(out)


#: sqrt(3), for the distances of :func:`_nearest`.
_SQRT3 = math.sqrt(3)


def _nearest(board: Board, x: float, r: float) -> Hex | None:
    """The on-board hex whose centre is nearest the point ``(x, r)`` in doubled coordinates
    (the first found on a tie: upper row first, then by column)."""
    best = None
    bd = 1e9
    on = board._on
    geometry = board.geometry
    for row in (math.floor(r), math.ceil(r)):
        if row < 1 or row > geometry.rows:
            continue
        shift = 1 if geometry.is_short_row(row) else 0
        col = round((x - shift) / 2) + 1
        dr = ((row - r) * _SQRT3 / 2) ** 2
        for c in (col - 1, col, col + 1):
            h = (c, row)
            if h not in on:
                continue
            d = ((2 * (c - 1) + shift - x) / 2) ** 2 + dr  # doubled x of (c, row): 2 (c - 1) + shift
            if d < bd:
                bd, best = d, h
    return best
