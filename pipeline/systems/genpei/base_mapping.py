"""The Genpei data mapped onto a base module: ``base_mapping.yaml``, drafted, read and resolved.

The pack's extension places the scenarios on the base module's own map and uses the base's own
pieces for what the base already has. ``base_mapping.yaml`` (in the system's data folder, or
``gunbai build --base-mapping``) says how::

    system: genpei
    base_module: {name: "Samurai Battles", version: "1.41"}   # the module it was drafted from
    map: Main Map              # the base map the scenarios go on
    board: Battlefield         # its board
    zone: Battlefield          # the zone whose hex grid numbers it (a board with zones)
    first_hex: "A1"            # the base grid's location name of gunbai hex [1, 1]
                               # (or [x, y]: board pixels of that hex, snapped to its centre)
    layers: {terrain: bottom, tile: bottom, unit: middle, leader: middle, marker: top}
                               # the base map's Game Piece Layer of each kind of new piece
    palette: [Pieces, Units]   # the piece window (and tab widget) that gets the pack's tab;
                               # leave out for a new piece window
    setup: "Empty board"       # a predefined setup of the base the pack's setups start from
                               # (its global properties, decks, counters and boards; for a
                               # module whose start-up code needs them); leave out for none
    charts: [Charts]           # the chart window (and tab widget) for the pack's cards and
                               # scenario sheets; leave out for a new chart window
    pieces:                    # gunbai pieces the base already has: a slot by entry name,
      - as: {unit: samurai_infantry, army: red}          # its whole palette path, or the
        slot: "Samurai Infantry"                          # prototype of exactly one slot
      - as: {terrain: forest}
        palette: [Terrain, Terrain, Forest]
      - as: {leader: infantry_leader, army: red}
        slot: null             # not in the base: gunbai's own piece goes into the extension

Every gunbai piece a rule does not map is new and goes into the extension with the pack's own
pieces. A rule naming a piece the base does not hold, or that several pieces match, is an
error naming the piece and the base; so is a map, board, zone, location, layer or palette path
the base lacks (each with the file and line).

Hexes: the base grid's raw hex ``(I0, J0)`` of ``[1, 1]`` (``first_hex``) anchors gunbai's
board. On a sideways grid (hexes in rows, as the Commands & Colours boards) gunbai's row ``r``
is raw column ``I0 + r - 1`` and its column ``c`` raw row ``J0 + c - 1``, one more when ``I0`` is
odd and ``r`` even (VASSAL shifts odd raw columns by half a hex, gunbai its even rows). On an
upright grid (hexes in columns) gunbai's board is turned a quarter turn clockwise: row ``r`` is
raw column ``I0 - (r - 1)`` (north becomes east), with the same shift. Piece positions are the
grid's own centres (:meth:`~pipeline.vassal.grids.HexGrid.center`), so every piece lands on the
hex VASSAL draws there.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import Field

from pipeline.data.common import Strict
from pipeline.data.yamlfile import YamlDocument
from pipeline.errors import DataError, DataProblem, GunbaiError
from pipeline.systems.genpei import module as gm
from pipeline.systems.genpei.data import GenpeiData
from pipeline.systems.genpei.layout import HexLayout
from pipeline.systems.genpei.load import BUILD_FILES
from pipeline.vassal.base import BaseBoard, BaseMap, BaseModule, BaseSlot, BaseWidget
from pipeline.vassal.grids import HexGrid

__all__ = [
    "KINDS",
    "BaseMapping",
    "BaseMappingFile",
    "MappingRule",
    "draft_mapping",
    "draft_text",
    "load_mapping",
    "resolve_mapping",
]

#: The kinds of pieces a layer is given for (:class:`~pipeline.systems.genpei.module.PieceLayers`).
KINDS = ("terrain", "tile", "unit", "leader", "marker")
#: Mapping file name in the system's data folder.
MAPPING_FILE = BUILD_FILES[0]


class MappingRule(Strict):
    """One gunbai piece and the base piece it is: ``as`` (``{unit: id, army: colour}``,
    ``{leader: id, army: colour}``, ``{terrain: id}`` with ``hexsides`` for a Palisade,
    ``{marker: id}``) and at most one of ``slot`` (a palette entry name), ``palette`` (the whole
    palette path: window, widgets, entry name) and ``prototype`` (the prototype exactly one
    palette piece uses); none of them (``slot: null``): the base lacks it."""

    as_: dict[str, Any] = Field(alias="as")
    slot: str | None = None
    palette: list[str] | None = None
    prototype: str | None = None
    note: str | None = None


class BaseRef(Strict):
    """The module a mapping was drafted from: its exact name (the base must have it) and
    version (a different one is noted)."""

    name: str = Field(min_length=1)
    version: str | None = None
    sha256: str | None = None


class BaseMappingFile(Strict):
    """``base_mapping.yaml`` (see the module doc)."""

    system: Literal["genpei"]
    base_module: BaseRef
    map: str
    board: str
    zone: str | None = None
    first_hex: str | tuple[int, int]
    layers: dict[Literal["terrain", "tile", "unit", "leader", "marker"], str] | None = None
    palette: list[str] | None = None
    charts: list[str] | None = None
    setup: str | None = None
    pieces: list[MappingRule] = []


@dataclass(frozen=True)
class SetupTemplate:
    """A predefined setup of the base module that the extension's setups start from: its
    commands between ``begin_save`` and ``end_save`` (global properties, the at-start pieces,
    decks, board choices; nested lists flattened, vassal-format.md §4.3) but its seat
    assignments (``PLAYER``), its board commands by map, and the ids of the pieces and stacks it
    adds."""

    label: str
    commands: tuple[str, ...]
    boards: dict[str, list[tuple[str, int, int, bool]]]
    ids: frozenset[str]


@dataclass
class BaseMapping:
    """A mapping resolved against its base module.

    Attributes:
        base: the base module.
        source: where the mapping came from (a file, or "drafted from <module>").
        map: the base map the scenarios go on; board: its board; zone: the zone holding the
            hex grid (None for the board's own grid); grid: that hex grid.
        origin: the grid's raw hex ``(column, row)`` of gunbai's ``[1, 1]``.
        layers: the Game Piece Layers of the new pieces (None: the map has none).
        palette_target: the piece window or tab widget the pack's tab goes into (None: a new
            piece window at the module root); charts_target: likewise for the chart window.
        slots: gunbai palette key (:func:`~pipeline.systems.genpei.module.unit_key`…) -> the
            base's palette piece it is.
        notes: things a module maker should know that do not stop the build.
        template: the base's predefined setup the extension's setups start from, or None.
        board_origin: map pixels of the board's top-left corner: the map's edge margins, plus
            the boards before it where the template lays out several (§2.4).
    """

    base: BaseModule
    source: str
    map: BaseMap
    board: BaseBoard
    zone: str | None
    grid: HexGrid
    origin: tuple[int, int]
    layers: gm.PieceLayers | None
    palette_target: BaseWidget | None
    charts_target: BaseWidget | None
    slots: dict[str, BaseSlot] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    template: SetupTemplate | None = None
    board_origin: tuple[int, int] = (0, 0)

    def raw_of(self, hex_: tuple[int, int]) -> tuple[int, int]:
        """The grid's raw ``(column, row)`` of gunbai's ``[column, row]`` (module doc)."""
        c, r = hex_
        i0, j0 = self.origin
        shift = 1 if (i0 % 2 and r % 2 == 0) else 0
        i = i0 + (r - 1) if self.grid.sideways else i0 - (r - 1)
        return i, j0 + (c - 1) + shift

    def board_centre(self, hex_: tuple[int, int]) -> tuple[int, int]:
        """Board pixels of the centre of gunbai's hex on the base's grid."""
        return self.grid.center(*self.raw_of(hex_))

    def map_point(self, hex_: tuple[int, int]) -> tuple[int, int]:
        """Map pixels of that centre: board pixels + :attr:`board_origin` (vassal-format.md
        §2.4)."""
        x, y = self.board_centre(hex_)
        return x + self.board_origin[0], y + self.board_origin[1]

    @property
    def hex_width(self) -> int:
        """The base hexes' width flat side to flat side, in whole even pixels (the size the
        extension's new pieces are drawn at): the grid's ``dy`` (the distance between
        neighbouring hexes in a row or column, in either orientation)."""
        w = int(round(self.grid.dy))
        return max(40, w - (w % 2))

    @property
    def quarter_turn(self) -> bool:
        """The base's hexes stand in columns: gunbai's hex-shaped pieces (terrain tiles, tile
        markers) are drawn turned a quarter turn clockwise."""
        return not self.grid.sideways


# --------------------------------------------------------------------------- keys


def rule_key(data: GenpeiData, target: dict[str, Any]) -> str:
    """The gunbai palette key a rule's ``as`` names (Palisade hexsides in canonical order)."""
    if "unit" in target:
        return gm.unit_key(target["unit"], target["army"])
    if "leader" in target:
        return gm.leader_key(target["leader"], target["army"])
    if "terrain" in target:
        sides = gm.canonical_sides(target.get("hexsides") or ())
        return gm.terrain_key(target["terrain"], sides)
    return gm.marker_key(target["marker"])


def _check_target(data: GenpeiData, target: dict[str, Any]) -> str | None:
    from pipeline.systems.genpei import importer

    unknown = sorted(set(target) - {"unit", "leader", "terrain", "marker", "army", "hexsides"})
    if unknown:
        return f"unknown key(s) {', '.join(unknown)} (allowed: unit, leader, terrain, marker, army, hexsides)"
    kinds = [k for k in ("unit", "leader", "terrain", "marker") if k in target]
    if len(kinds) != 1:
        return f"says {', '.join(kinds) or 'nothing'}; expected exactly one of unit, leader, terrain, marker"
    return importer.check_target(data, target)


# --------------------------------------------------------------------------- resolving


def load_mapping(path: Path) -> tuple[BaseMappingFile, YamlDocument]:
    """Read ``base_mapping.yaml``.

    Raises:
        DataError: invalid YAML or fields (file, line, value, what was expected).
    """
    doc = YamlDocument.load(path)
    return doc.validate(BaseMappingFile), doc


def resolve_mapping(data: GenpeiData, base: BaseModule, mapping: BaseMappingFile, *, path: Path | None = None,
                    doc: YamlDocument | None = None) -> BaseMapping:
    """Check a mapping against its base module and the data, and resolve it.

    Raises:
        DataError: one problem per line, each with the mapping file's line: a module name that
            is not the base's, a map, board, zone, location or layer the base lacks, a palette
            or chart target that is not a window or tab widget of the base, a rule whose piece
            the base does not hold (or holds several of), a rule naming an id the data lacks, a
            gunbai piece mapped twice.
    """
    where = path or Path(f"(mapping drafted from {base.label})")
    problems: list[DataProblem] = []

    def line(*loc: Any) -> int | None:
        return doc.line_of(loc) if doc is not None else None

    def bad(loc: tuple[Any, ...], value: str, expected: str) -> None:
        problems.append(DataProblem(where, line(*loc), ".".join(str(x) for x in loc), value, expected))

    notes: list[str] = []
    if mapping.base_module.name != base.name:
        bad(("base_module", "name"), repr(mapping.base_module.name),
            f"the base module's exact name {base.name!r} ({base.label}): this mapping was made for another module")
    elif mapping.base_module.version not in (None, base.version):
        notes.append(f"{where}: drafted from version {mapping.base_module.version} of {base.name!r}; the base is version "
                     f"{base.version} (the build checks every piece it names again)")
    bmap = base.maps.get(mapping.map)
    if bmap is None:
        bad(("map",), repr(mapping.map), f"a map of {base.label}: {', '.join(repr(m) for m in base.maps) or 'none'}")
        raise DataError(problems)
    board = bmap.boards.get(mapping.board)
    if board is None:
        bad(("board",), repr(mapping.board), f"a board of map {mapping.map!r}: {', '.join(repr(b) for b in bmap.boards)}")
        raise DataError(problems)
    grids = dict(board.hex_grids())
    if mapping.zone not in grids:
        zones = [("the board's own grid" if z is None else repr(z)) for z in grids]
        bad(("zone",), repr(mapping.zone), f"a zone of board {board.name!r} with a hex grid: {', '.join(zones) or 'none (no hex grid)'}")
        raise DataError(problems)
    grid = grids[mapping.zone]
    origin = _origin(grid, board, mapping.first_hex)
    if origin is None:
        bad(("first_hex",), repr(mapping.first_hex), f"a location name of the hex grid of board {board.name!r} "
            "(as VASSAL names a hex there), or [x, y] board pixels")
    layers = None
    if bmap.layer_property is not None:
        values: dict[str, str] = {}
        for kind, value in (mapping.layers or {}).items():
            if value not in bmap.layer_order:
                bad(("layers", kind), repr(value), f"a Game Piece Layer of map {bmap.name!r}: {', '.join(bmap.layer_order)}")
            values[kind] = value
        layers = gm.PieceLayers(bmap.layer_property, values)
    elif mapping.layers:
        notes.append(f"{where}: map {bmap.name!r} has no Game Piece Layers; layers: is not used")
    palette_target = _widget(base.palette_windows, mapping.palette, "palette", "piece window", bad)
    charts_target = _widget(base.chart_windows, mapping.charts, "charts", "chart window", bad)
    slots: dict[str, BaseSlot] = {}
    seen: dict[str, int] = {}
    for i, rule in enumerate(mapping.pieces):
        problem = _check_target(data, rule.as_)
        if problem:
            bad(("pieces", i, "as"), str(rule.as_), problem.replace(" is not in ", " in "))
            continue
        key = rule_key(data, rule.as_)
        if key in seen:
            bad(("pieces", i, "as"), str(rule.as_), f"a gunbai piece mapped once (also pieces[{seen[key]}])")
            continue
        seen[key] = i
        given = [k for k in ("slot", "palette", "prototype") if getattr(rule, k) is not None]
        if not given:
            continue  # not in the base: gunbai's own piece
        if len(given) > 1:
            bad(("pieces", i), ", ".join(given), "one of slot, palette, prototype")
            continue
        how = given[0]
        value = getattr(rule, how)
        found = base.find_slots(**{"name" if how == "slot" else how: tuple(value) if how == "palette" else value})
        if not found:
            bad(("pieces", i, how), repr(value), f"a palette piece of base module {base.name!r} ({base.label}); it has none "
                f"of that {'entry name' if how == 'slot' else how.replace('palette', 'palette path')}")
            continue
        if len(found) > 1:
            paths = "; ".join(s.label for s in found[:6]) + (" …" if len(found) > 6 else "")
            bad(("pieces", i, how), repr(value), f"one palette piece of {base.name!r}; {len(found)} match ({paths}): "
                "give its palette path")
            continue
        slots[key] = found[0]
    template = None
    board_origin = bmap.edge
    if mapping.setup is not None:
        template = _template(base, mapping.setup, bad)
        if template is not None:
            board_origin = _board_origin(bmap, board, template, bad) or board_origin
    if problems:
        raise DataError(problems)
    assert origin is not None
    return BaseMapping(base, str(where), bmap, board, mapping.zone, grid, origin, layers, palette_target, charts_target,
                       slots, notes, template, board_origin)


def _template(base: BaseModule, wanted: str, bad) -> SetupTemplate | None:
    """The base's predefined setup ``wanted`` (by name or archive path), read."""
    from pipeline.vassal.archive import VassalFormatError
    from pipeline.vassal.commands import BEGIN_SAVE, END_SAVE
    from pipeline.vassal.save import read_save

    entry = next((f for n, f in base.setups if wanted in (n, f)), None)
    if entry is None:
        known = ", ".join(repr(n) for n, _f in base.setups[:12]) or "none"
        bad(("setup",), repr(wanted), f"a predefined setup of {base.name!r} ({base.label}): {known}")
        return None
    try:
        save = read_save(base.read_entry(entry))
    except (VassalFormatError, ValueError) as exc:
        bad(("setup",), repr(wanted), f"a setup VASSAL can load ({entry}: {exc})")
        return None
    errors = [m for _i, sev, m in save.problems if sev == "error"]
    if errors:
        bad(("setup",), repr(wanted), f"a setup VASSAL can load ({entry}: {errors[0]})")
        return None
    # not its seats: the PLAYER commands of whoever saved it would seat phantom players in
    # every game started from the pack's setups (PlayerRoster.PlayerInfo, §4.3)
    commands = tuple(c for c in save.commands if c not in (BEGIN_SAVE, END_SAVE) and not c.startswith(("PLAYER\t", "PYREMOVE\t")))
    ids = frozenset(p.id for p in (*save.pieces, *save.stacks))
    return SetupTemplate(f"{base.label}:{entry}", commands, dict(save.boards), ids)


def _board_origin(bmap: BaseMap, board: BaseBoard, template: SetupTemplate, bad) -> tuple[int, int] | None:
    """Where the template's board command puts ``board`` on the map (map pixels of its
    top-left corner: edge + the widths of the boards left of it in its row + the heights of
    those above it in its column, ``Map.setBoardBoundaries``), or the edge alone when the
    template chooses no boards for the map."""
    placed = template.boards.get(bmap.name)
    if not placed:
        return None
    spot = next(((c, r) for name, c, r, _rev in placed if name == board.name), None)
    if spot is None:
        bad(("setup",), repr(template.label), f"a setup that puts board {board.name!r} on map {bmap.name!r} "
            f"(it puts {', '.join(n for n, *_ in placed)})")
        return None
    sizes = {(c, r): (bmap.boards[n].size or (0, 0)) if n in bmap.boards else (0, 0) for n, c, r, _rev in placed}
    c0, r0 = spot
    x = bmap.edge[0] + sum(sizes.get((c, r0), (0, 0))[0] for c in range(c0))
    y = bmap.edge[1] + sum(sizes.get((c0, r), (0, 0))[1] for r in range(r0))
    return x, y


def _widget(widgets: list[BaseWidget], names: list[str] | None, key: str, what: str, bad) -> BaseWidget | None:
    if names is None:
        return None
    for w in widgets:
        if w.names == tuple(names):
            return w
    known = "; ".join(" / ".join(w.names) for w in widgets[:12]) or "none"
    bad((key,), repr(names), f"the names of a {what} or of a tab widget in one (window first): {known}")
    return None


def _origin(grid: HexGrid, board: BaseBoard, first: str | tuple[int, int]) -> tuple[int, int] | None:
    from pipeline.systems.genpei.importer import raw_of_location

    if isinstance(first, str):
        return raw_of_location(grid, first, board.size)
    x, y = first
    return grid.raw_index(int(x), int(y))


# --------------------------------------------------------------------------- drafting


def _own_target(props: dict[str, str]) -> dict[str, Any] | None:
    """What a piece of gunbai's own module is, from its Marker properties (its palette key's
    parts), or None."""
    army = props.get("Army")
    if props.get("Unit") and army:
        return {"unit": props["Unit"], "army": army}
    if props.get("Leader") and army:
        return {"leader": props["Leader"], "army": army}
    if props.get("Terrain"):
        sides = [d for d in (props.get("Hexsides") or "").split("-") if d]
        return {"terrain": props["Terrain"], **({"hexsides": sides} if sides else {})}
    if props.get("Marker"):
        return {"marker": props["Marker"]}
    return None


def _hex_area(board: BaseBoard, zone: str | None, grid: HexGrid, raw: tuple[int, int]) -> bool:
    """Whether a raw hex's centre lies on the board, half a hex inside its edges, and in
    ``zone`` (when the grid is a zone's)."""
    x, y = grid.center(*raw)
    w, h = board.size or (0, 0)
    m = min(grid.dx, grid.dy) / 2
    if not (m <= x <= w - m and m <= y <= h - m):
        return False
    if zone is not None:
        z = board.zone_at(x, y)
        return z is not None and z.name == zone
    return True


def first_hex_of(board: BaseBoard, zone: str | None, grid: HexGrid) -> tuple[int, int] | None:
    """The raw hex a draft puts gunbai's ``[1, 1]`` on: the corner hex of the board's hex area
    (:func:`_hex_area`) where gunbai's north-west corner goes: the top-left-most hex of a
    sideways grid; the top-right-most of an upright one (gunbai's board turned a quarter turn
    clockwise, its north to the east)."""
    w, h = board.size or (0, 0)
    best = None
    span = int(max(w, h) / min(grid.dx, grid.dy)) + 4
    for i in range(-2, span):
        for j in range(-2, span):
            if _hex_area(board, zone, grid, (i, j)):
                x, y = grid.center(i, j)
                key = (y, x) if grid.sideways else (-x, y)
                if best is None or key < best[0]:
                    best = (key, (i, j))
    return None if best is None else best[1]


def draft_mapping(data: GenpeiData, base: BaseModule) -> tuple[BaseMappingFile, dict[str, Any]]:
    """A mapping drafted from the base module, and facts for the draft's comments.

    The map is the first with a board holding a hex grid; ``first_hex`` its top-left-most hex
    (:func:`first_hex_of`); the pack's tab goes into the first visible piece window's first tab
    widget and the cards into the first chart window's. Each base-game piece gunbai makes (its
    unit, leader, terrain and marker types with ``base: true``, in every army the scenarios use)
    gets a rule: filled in when the base holds a piece of gunbai's own making for it (a module
    gunbai built: its pieces name their unit, army, terrain or marker), else ``slot: null`` for a
    person to complete. Layers: those of gunbai's own pieces found, else the base map's first
    layer for terrain and tiles and none (the top) for the rest.

    Raises:
        GunbaiError: the base has no map with a hex grid.
    """
    chosen = None
    for m in base.maps.values():
        for b in m.boards.values():
            hexes = b.hex_grids()
            if hexes and b.size:
                chosen = (m, b, *hexes[0])
                break
        if chosen:
            break
    if chosen is None:
        raise GunbaiError(f"{base.label}: no map of module {base.name!r} has a board with a hex grid; the Genpei scenarios "
                          "need one")
    bmap, board, zone, grid = chosen
    raw = first_hex_of(board, zone, grid) or (0, 0)
    x, y = grid.center(*raw)
    name = grid.location(x, y, board.size or (0, 0))
    first: str | tuple[int, int] = name if name is not None and _origin(grid, board, name) == raw else (x, y)
    own: dict[str, BaseSlot] = {}
    for s in base.slots:
        target = _own_target(base.properties(s))
        if target is not None and _check_target(data, target) is None:
            own.setdefault(rule_key(data, target), s)
    layout = HexLayout(data.board, hex_width=data.system.vassal.hex_width_px, margin=data.system.vassal.board_margin_px)
    rules: list[MappingRule] = []
    layers: dict[str, str] = {}
    for _list, pieces in gm.core_palette(data, layout):
        for p in pieces:
            target = _target_of_key(p.key)
            slot = own.get(p.key)
            if slot is not None:
                rules.append(MappingRule.model_validate({"as": target, "palette": list(slot.palette)}))
                if bmap.layer_property is not None:
                    value = base.properties(slot).get(bmap.layer_property)
                    if value in bmap.layer_order:
                        layers.setdefault(p.kind, value)
            else:
                rules.append(MappingRule.model_validate({"as": target}))
    if bmap.layer_property is not None and bmap.layer_order:
        layers.setdefault("terrain", bmap.layer_order[0])
        layers.setdefault("tile", layers["terrain"])
        if "unit" in layers:
            layers.setdefault("leader", layers["unit"])
    visible = [w for w in base.palette_windows if not w.hidden]
    palette = next((w for w in visible if w.tag.endswith("TabWidget")), visible[0] if visible else None)
    charts = next((w for w in base.chart_windows if w.tag.endswith("TabWidget")), base.chart_windows[0] if base.chart_windows else None)
    mapping = BaseMappingFile(
        system="genpei",
        base_module=BaseRef(name=base.name, version=base.version, sha256=base.sha256),
        map=bmap.name, board=board.name, zone=zone, first_hex=first,
        layers=layers or None,
        palette=list(palette.names) if palette else None,
        charts=list(charts.names) if charts else None,
        pieces=rules,
    )
    return mapping, {"own": len(own), "raw": raw, "complete": all(k in own for k in (rule_key(data, r.as_) for r in rules))}


def _target_of_key(key: str) -> dict[str, Any]:
    parts = key.split(":")
    if parts[0] in ("unit", "leader"):
        return {parts[0]: parts[1], "army": parts[2]}
    if parts[0] == "terrain":
        return {"terrain": parts[1], **({"hexsides": parts[2].split("-")} if len(parts) > 2 else {})}
    return {"marker": parts[1]}


def draft_text(data: GenpeiData, base: BaseModule, *, listing: int = 400) -> str:
    """``base_mapping.yaml`` as drafted (:func:`draft_mapping`), with comments: where it came
    from, what to check, and the base's palette (up to ``listing`` pieces) to pick slots from."""
    from pipeline.setup_import import yaml_str

    mapping, facts = draft_mapping(data, base)

    def flow(d: dict[str, Any]) -> str:
        parts = []
        for k, v in d.items():
            parts.append(f"{k}: [{', '.join(yaml_str(x) for x in v)}]" if isinstance(v, list) else f"{k}: {yaml_str(v)}")
        return "{" + ", ".join(parts) + "}"

    def names(v: list[str] | None) -> str:
        return "null" if v is None else "[" + ", ".join(yaml_str(x) for x in v) + "]"

    bmap = base.maps[mapping.map]
    lines = [
        "# gunbai base mapping (drafted): how the Genpei pack's extension goes onto its base module.",
        f"# Written by `gunbai extension draft` from {base.label}",
        f"# (module {base.name!r} version {base.version}, SHA-256 {base.sha256}).",
        "# Check the map, board and first hex; give each base-game piece the base's own piece",
        "# (slot: entry name, palette: [window, widgets…, entry name], or prototype:), or leave",
        "# slot: null and the extension adds gunbai's own piece. Set vassal.base_module and",
        "# base_module_sha256 in system.yaml (the digest above) to build for this module.",
        "system: genpei",
        f"base_module: {flow({'name': base.name, 'version': base.version, 'sha256': base.sha256})}",
        f"map: {yaml_str(mapping.map)}",
        f"board: {yaml_str(mapping.board)}",
        f"zone: {yaml_str(mapping.zone)}",
    ]
    first = mapping.first_hex
    where = "" if facts["complete"] else "  # TODO: the location of gunbai hex [1, 1], the battlefield's north-west hex"
    lines.append(f"first_hex: {yaml_str(first) if isinstance(first, str) else '[' + ', '.join(str(v) for v in first) + ']'}{where}")
    if bmap.layer_property is not None:
        lines.append(f"# the map's Game Piece Layers ({bmap.layer_property}): {', '.join(bmap.layer_order)}; a kind left out is drawn on top")
        lines.append(f"layers: {flow(mapping.layers) if mapping.layers else 'null'}")
    lines.append(f"palette: {names(mapping.palette)}  # the piece window (and tab widget) the pack's tab goes into; null: a new window")
    lines.append(f"charts: {names(mapping.charts)}  # the chart window (and tab widget) for the pack's cards; null: a new window")
    lines.append("pieces:")
    for rule in mapping.pieces:
        lines.append(f"  - as: {flow(rule.as_)}")
        if rule.palette is not None:
            lines.append(f"    palette: {names(rule.palette)}")
        else:
            lines.append("    slot: null  # TODO: the base's piece, or leave null to add gunbai's own")
    if not facts["complete"] and base.slots:
        lines.append(f"# The base's palette ({len(base.slots)} pieces; entry name, then its palette path when it differs):")
        for s in base.slots[:listing]:
            lines.append(f"#   {s.entry_name}" + (f"   [{' / '.join(s.palette)}]" if len(s.palette) > 1 else ""))
        if len(base.slots) > listing:
            lines.append(f"#   … and {len(base.slots) - listing} more")
    return "\n".join(lines) + "\n"
