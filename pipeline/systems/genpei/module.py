"""The Samurai Battles pieces, the core module, and where each scenario puts its pieces.

This module turns :class:`~pipeline.systems.genpei.load.GenpeiData` into the game-agnostic
description of :mod:`pipeline.vassal`: every piece gunbai can make (:func:`palette`, base game
and Genpei pack alike, each marked ``core`` or not), the core module of the base game alone
(:func:`build_core_module`: the board, the core pieces, the battle dice and the base game's
cards; no scenario), and the placements of each scenario by hex (:func:`placements`). The
Genpei pack's extension (:mod:`pipeline.systems.genpei.extension`) adds the rest onto a base
module: the core module, or a published one. It decides *what* pieces exist and where they
stand; the VASSAL layer decides how that is encoded.

Pieces (piece definitions are shared by the palette and the setups, so a setup piece is the
palette piece placed on a hex, with the palette slot's gpid):

- a unit per unit type and army: Side/Army/Unit/Standard properties, a ``Figures`` count with
  *Lose figure* (Ctrl+Minus) and *Regain figure* (Ctrl+Plus), a "lying flat" overlay toggled by
  Ctrl+L (embarking and disembarking units, Genpei pack "Naval Warfare"), Delete;
- a leader per leader type and army;
- a terrain tile per terrain type (and one per Palisade hexside set a scenario uses): does not
  stack, selected with Alt so that band-selecting units leaves the terrain alone;
- a marker per marker type; the wind/tide arrow has one level per direction; a tile marker
  (``kind: tile``: Command Tent, Command Ship) is hex-sized and lies under the unit on it.

A piece is the base game's (``core``) when its unit, leader, terrain or marker type has
``base: true`` in the data.

What a player sees: pieces are drawn in Game Piece Layers (:data:`PIECE_LAYERS`, by the
``MapLayer`` property): terrain, then tile markers, then units with their leaders, then other
markers; pieces of different layers never stack, so a tent or a tile never hides a unit. In the
one stack a hex holds (a unit and its leader) the leader disc sits over the unit's top-right
corner (:func:`leader_stack_metrics`), leaving the unit's standard, abbreviation and name in view.

Map coordinates equal board-image pixels plus the map edge (``EDGE`` pixels), and the board image
is drawn from :class:`~pipeline.systems.genpei.layout.HexLayout`, whose centres the HexGrid
reproduces exactly.
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.systems.genpei import art
from pipeline.systems.genpei.data import GenpeiData, LoadedScenario
from pipeline.systems.genpei.layout import DIRECTIONS, HexLayout
from pipeline.vassal.buildfile import (
    Board,
    Chart,
    ChartWindow,
    GamePieceLayers,
    GridNumbering,
    HexGrid,
    ListWidget,
    Map,
    Module,
    PieceSlot,
    PieceWindow,
    PrototypeDefinition,
    SpecialDiceButton,
    SpecialDie,
    SpecialDieFace,
    StackMetrics,
    TabWidget,
)
from pipeline.vassal.pieces import PieceDefinition
from pipeline.vassal.traits import (
    BasicPiece,
    Delete,
    DynamicProperty,
    Label,
    Layer,
    Marker,
    PropertyCommand,
    RawTrait,
    UsePrototype,
    keystroke,
)

#: The main map's name (saves and setups refer to it).
MAP_NAME = "Battlefield"
#: The board's name on that map.
BOARD_NAME = "Samurai Battles board"
#: Blank margin VASSAL adds around the board, in pixels (map = board + edge).
EDGE = 0
#: Most battle dice one roll takes (the dice buttons go from 1 to this). Square units roll 4,
#: plus Leader Inspiration and card bonuses (rules-facts §1.2, §1.4).
MAX_DICE = 6

UNIT_PROTOTYPE = "Genpei unit"
LEADER_PROTOTYPE = "Genpei leader"
TERRAIN_PROTOTYPE = "Genpei terrain"
MARKER_PROTOTYPE = "Genpei marker"

#: Ctrl modifier of Java key strokes (vassal-format.md §2.1).
CTRL = 130

#: The Game Piece Layers of the map, bottom to top, by the pieces' ``MapLayer`` property.
PIECE_LAYERS = GamePieceLayers("MapLayer", ("Terrain", "Tiles", "Units", "Markers"))


def layer_of(kind: str) -> str:
    """The :data:`PIECE_LAYERS` layer of a piece kind: ``terrain``, ``tile`` (a tile marker),
    ``unit``, ``leader`` or ``marker``.

    >>> layer_of("leader")
    'Units'
    """
    return {"terrain": "Terrain", "tile": "Tiles", "unit": "Units", "leader": "Units"}.get(kind, "Markers")


def leader_stack_metrics(layout: HexLayout) -> StackMetrics:
    """Stack offsets that put a leader's disc centred on the top-right corner of the unit it is
    stacked on (unexpanded stacks): VASSAL places the next piece of a stack with its left edge
    ``unexSepX`` pixels right of the previous piece's left edge and its bottom edge ``unexSepY``
    pixels above the previous piece's bottom edge (``StackMetrics.nextPosition``, 3.7.26), so
    both are ``unit size - leader size / 2`` pixels."""
    unit, leader = _piece_size(layout, "unit")[0], _piece_size(layout, "leader")[0]
    sep = unit - leader // 2
    return StackMetrics(unex_sep_x=sep, unex_sep_y=sep)


@dataclass(frozen=True)
class PalettePiece:
    """A piece of the palette.

    Attributes:
        key: stable key (also the PieceSlot key the gpids are looked up by).
        entry_name: the label in the palette.
        piece: the piece definition.
        size: slot size in pixels ``(width, height)``.
        kind: ``unit``, ``leader``, ``terrain``, ``tile`` (a tile marker) or ``marker``.
        core: the piece is the base game's (its type has ``base: true``), not the pack's.
    """

    key: str
    entry_name: str
    piece: PieceDefinition
    size: tuple[int, int]
    kind: str = "unit"
    core: bool = True


@dataclass(frozen=True)
class PieceLayers:
    """Which Game Piece Layer each kind of piece is drawn in: ``property`` is the map's
    ``LayeredPieceCollection`` property, ``values`` the layer name of each kind (``terrain``,
    ``tile``, ``unit``, ``leader``, ``marker``). gunbai's own map uses :data:`PIECE_LAYERS`
    (:data:`OWN_LAYERS`); on another base module its own layers (``layers:`` of
    ``base_mapping.yaml``)."""

    property: str
    values: dict[str, str]

    def of(self, kind: str) -> str:
        """The layer value of a piece kind (the marker's for a kind not given)."""
        return self.values.get(kind, self.values.get("marker", ""))


#: gunbai's own layers (:data:`PIECE_LAYERS`, :func:`layer_of`).
OWN_LAYERS = PieceLayers(PIECE_LAYERS.property, {k: layer_of(k) for k in ("terrain", "tile", "unit", "leader", "marker")})


def unit_key(unit_id: str, army: str) -> str:
    """Palette key of a unit type in an army's colours."""
    return f"unit:{unit_id}:{army}"


def leader_key(leader_id: str, army: str) -> str:
    """Palette key of a leader type in an army's colours."""
    return f"leader:{leader_id}:{army}"


def terrain_key(terrain_id: str, hexsides: tuple[str, ...] = ()) -> str:
    """Palette key of a terrain tile (a Palisade per hexside set)."""
    return f"terrain:{terrain_id}" + (":" + "-".join(hexsides) if hexsides else "")


def marker_key(marker_id: str) -> str:
    """Palette key of a marker."""
    return f"marker:{marker_id}"


def armies_used(data: GenpeiData) -> list[str]:
    """Army colour schemes the scenarios use, in ``system.yaml`` order (all of them when no
    scenario is loaded)."""
    used = {side.army for s in data.scenarios for side in s.scenario.sides}
    return [a for a in data.system.armies if a in used] or list(data.system.armies)


def palisade_sets(data: GenpeiData) -> list[tuple[str, ...]]:
    """The Palisade hexside sets the palette offers: the front three (NW, NE, E… facing north)
    and every set a scenario uses, each sorted in :data:`DIRECTIONS` order."""
    sets = {("NW", "NE")}
    for s in data.scenarios:
        for tp in s.scenario.terrain:
            if tp.hexsides:
                sets.add(canonical_sides(tp.hexsides))
    return sorted(sets, key=lambda t: [DIRECTIONS.index(d) for d in t])


def canonical_sides(sides: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """Hexsides without repeats, in :data:`DIRECTIONS` order."""
    return tuple(d for d in DIRECTIONS if d in set(sides))


def _piece_size(layout: HexLayout, kind: str) -> tuple[int, int]:
    w = layout.hex_width
    if kind == "unit":
        s = round(w * 0.66)
        return s, s
    if kind == "leader":
        s = round(w * 0.45)
        return s, s
    if kind in ("terrain", "tile"):
        return w, round(layout.hex_height + 0.5)
    s = round(w * 0.5)
    return s, s


def prototypes() -> list[PrototypeDefinition]:
    """The prototypes every Genpei piece uses (Delete, and the non-stacking of terrain)."""
    delete = Delete("Delete", keystroke(68, CTRL))
    blank = BasicPiece("", "")
    return [
        PrototypeDefinition(UNIT_PROTOTYPE, PieceDefinition([delete], blank)),
        PrototypeDefinition(LEADER_PROTOTYPE, PieceDefinition([delete], blank)),
        # immob;cA;I : select with Alt, band-select with Alt, move only when selected; does not
        # stack (VASSAL counters/Immobilized.java myGetType).
        PrototypeDefinition(TERRAIN_PROTOTYPE, PieceDefinition([RawTrait("immob;cA;I", ""), delete], blank)),
        PrototypeDefinition(MARKER_PROTOTYPE, PieceDefinition([delete], blank)),
    ]


def palette(data: GenpeiData, layout: HexLayout, layers: PieceLayers = OWN_LAYERS) -> list[tuple[str, list[PalettePiece]]]:
    """Every piece gunbai makes, as ``[(list name, pieces)]``: one list per army (its units
    and leaders), then terrain, then markers; base game and pack alike (``core`` tells them
    apart). Sizes follow ``layout``'s hex; ``layers`` names the Game Piece Layer of each kind."""
    lists: list[tuple[str, list[PalettePiece]]] = []
    armies = armies_used(data)
    for army in armies:
        pieces = []
        for u in data.units.values():
            figures = u.figures if isinstance(u.figures, int) else 4
            traits = [
                UsePrototype(UNIT_PROTOTYPE),
                Layer(
                    (art.marker_image_name("lying_flat"),),
                    ("+ (lying flat)",),
                    name="LyingFlat",
                    value=-1,
                    always_active=False,
                    activate_menu="Lie flat / stand up",
                    activate_key=keystroke(76, CTRL),
                ),
                Label(
                    "$Figures$",
                    font_size=11,
                    background="255,255,255",
                    foreground="0,0,0",
                    vertical_pos="b",
                    vertical_offset=-2,
                    horizontal_pos="r",
                    horizontal_offset=-2,
                    vertical_justify="b",
                    horizontal_justify="r",
                    name_format="$pieceName$",
                    font_style=1,
                    property_name="FiguresLabel",
                ),
                DynamicProperty(
                    "Figures",
                    str(figures),
                    numeric=True,
                    minimum=0,
                    maximum=figures,
                    commands=(
                        PropertyCommand("Lose figure", keystroke(45, CTRL), "I", ("-1",)),
                        PropertyCommand("Regain figure", keystroke(61, CTRL), "I", ("1",)),
                    ),
                ),
                Marker(("Side", "Army", "Unit", "Standard", "Mounted", layers.property),
                       (army, army, u.id, u.standard, str(u.mounted).lower(), layers.of("unit"))),
            ]
            name = f"{u.name} ({army})"
            piece = PieceDefinition(traits, BasicPiece(art.unit_image_name(u.id, army), name))
            pieces.append(PalettePiece(unit_key(u.id, army), u.name, piece, _piece_size(layout, "unit"), "unit", u.base))
        for ld in data.leaders.values():
            traits = [UsePrototype(LEADER_PROTOTYPE), Marker(("Side", "Army", "Leader", "Mounted", layers.property),
                                                             (army, army, ld.id, str(ld.mounted).lower(), layers.of("leader")))]
            piece = PieceDefinition(traits, BasicPiece(art.leader_image_name(ld.id, army), f"{ld.name} ({army})"))
            pieces.append(PalettePiece(leader_key(ld.id, army), ld.name, piece, _piece_size(layout, "leader"), "leader", ld.base))
        lists.append((f"{army.capitalize()} army", pieces))

    terrain = []
    for t in data.terrain.values():
        variants: list[tuple[str, ...]] = palisade_sets(data) if t.hexsides else [()]
        for sides in variants:
            label = t.name + (f" ({', '.join(sides)})" if sides else "")
            traits = [UsePrototype(TERRAIN_PROTOTYPE), Marker(("Terrain", "Hexsides", layers.property), (t.id, "-".join(sides), layers.of("terrain")))]
            piece = PieceDefinition(traits, BasicPiece(art.terrain_image_name(t.id, sides), label))
            terrain.append(PalettePiece(terrain_key(t.id, sides), label, piece, _piece_size(layout, "terrain"), "terrain", t.base))
    lists.append(("Terrain", terrain))

    markers = []
    for m in data.markers.values():
        kind = "tile" if m.kind == "tile" else "marker"
        traits: list = [UsePrototype(MARKER_PROTOTYPE), Marker(("Marker", layers.property), (m.id, layers.of(kind)))]
        if m.symbol == "arrow":
            traits.insert(
                0,
                Layer(
                    tuple(art.marker_image_name(m.id, d) for d in DIRECTIONS),
                    tuple(f"+ {d}" for d in DIRECTIONS),
                    name="Direction",
                    increase_menu="Turn clockwise",
                    increase_key=keystroke(93, CTRL),
                    decrease_menu="Turn anticlockwise",
                    decrease_key=keystroke(91, CTRL),
                ),
            )
        image = art.marker_image_name(m.id, DIRECTIONS[0]) if m.symbol == "arrow" else art.marker_image_name(m.id)
        piece = PieceDefinition(traits, BasicPiece(image, m.name))
        markers.append(PalettePiece(marker_key(m.id), m.name, piece, _piece_size(layout, kind), kind, m.base))
    lists.append(("Markers", markers))
    return lists


def battle_dice(data: GenpeiData) -> list[SpecialDiceButton]:
    """One button per number of battle dice (1 to :data:`MAX_DICE`), faces from ``system.yaml``."""
    faces = [
        SpecialDieFace(f.label, i + 1, art.die_face_image_name(f.symbol))
        for i, f in enumerate(data.system.battle_die.faces)
    ]
    buttons = []
    for n in range(1, MAX_DICE + 1):
        dice = [SpecialDie(f"Battle die {i + 1}", faces) for i in range(n)]
        results = ", ".join(f"$result{i + 1}$" for i in range(n))
        buttons.append(
            SpecialDiceButton(
                f"{n} battle {'die' if n == 1 else 'dice'}",
                dice,
                text=str(n),
                tooltip=f"Roll {n} battle {'die' if n == 1 else 'dice'}",
                format=f"** $name$ = [{results}] *** <$PlayerName$>",
            )
        )
    return buttons


def core_palette(data: GenpeiData, layout: HexLayout, layers: PieceLayers = OWN_LAYERS) -> list[tuple[str, list[PalettePiece]]]:
    """:func:`palette` without the pack's pieces: the base game's units, leaders, terrain and
    markers (lists left empty are dropped)."""
    lists = [(name, [p for p in pieces if p.core]) for name, pieces in palette(data, layout, layers)]
    return [(name, pieces) for name, pieces in lists if pieces]


def core_board(data: GenpeiData, layout: HexLayout) -> Board:
    """The battlefield board of the core module: the board image drawn from ``layout``, with
    the sideways HexGrid whose centres are :meth:`HexLayout.centre` and a numbering in which
    gunbai's hex ``[c, r]`` is named ``"r,c"`` (first V, separator ``,``)."""
    grid = layout.vassal_grid()
    w, h = layout.size
    return Board(
        BOARD_NAME,
        art.board_image_name(data.board.id),
        w,
        h,
        grid=HexGrid(
            x0=int(grid["x0"]),
            y0=int(grid["y0"]),
            dx=float(grid["dx"]),
            dy=float(grid["dy"]),
            sideways=True,
            numbering=GridNumbering(first="V", sep=",", h_leading=0, v_leading=0, stagger=False),
        ),
    )


def build_core_module(data: GenpeiData, layout: HexLayout, card_images: list[str]) -> tuple[Module, list[tuple[str, list[PalettePiece]]]]:
    """The core module (the base game alone) and its palette: the Battlefield map with the
    board, the base game's pieces (:func:`core_palette`), their prototypes, the battle dice and
    the reference cards ``card_images`` (image names, in display order). It holds no scenario:
    the pack's scenarios are setups of its extension.

    Args:
        data: the loaded data.
        layout: the board layout (pixels).
        card_images: image names of the base game's reference cards.
    """
    pal = core_palette(data, layout)
    windows = [
        PieceWindow(
            "Pieces",
            [TabWidget("Pieces", [ListWidget(name, [PieceSlot(p.entry_name, p.piece, p.size[0], p.size[1], key=p.key) for p in pieces]) for name, pieces in pal])],
            text="Pieces",
        )
    ]
    charts = [ChartWindow("Reference cards", [TabWidget("Cards", [Chart(card_title(c), c) for c in card_images])], text="Cards")]
    v = data.system.vassal
    module = Module(
        v.module_name,
        version=v.module_version,
        description=v.description,
        sides=[a.capitalize() for a in armies_used(data)],
        maps=[Map(MAP_NAME, [core_board(data, layout)], edge_width=EDGE, edge_height=EDGE, button_name="Battlefield",
                  stack_metrics=leader_stack_metrics(layout), piece_layers=PIECE_LAYERS)],
        prototypes=prototypes(),
        piece_windows=windows,
        dice_buttons=battle_dice(data),
        chart_windows=charts,
        date_saved_ms=v.date_saved_ms,
        stable_gpids=True,
    )
    return module, pal


def card_title(image: str) -> str:
    """A chart's title from its image name: ``card_unit_sohei_archers.png`` ->
    ``Unit sohei archers``."""
    return image.removesuffix(".png").removeprefix("card_").replace("_", " ").capitalize()


def setup_file_name(loaded: LoadedScenario) -> str:
    """Archive path of a scenario's predefined setup (``gp20_nishinomiya.vsav``)."""
    return f"{loaded.scenario.id}.vsav"


@dataclass(frozen=True)
class Placement:
    """One piece a setup places.

    Attributes:
        key: the palette key of the piece.
        hex: the hex, ``[column, row]``.
        x, y: map pixels of the hex centre.
        layer_value: for the wind/tide arrow, the Layer level (1-based direction index).
    """

    key: str
    hex: tuple[int, int]
    x: int
    y: int
    layer_value: int | None = None


def placements(data: GenpeiData, layout: HexLayout, loaded: LoadedScenario) -> list[Placement]:
    """Every piece a scenario puts on the map in :data:`PIECE_LAYERS` order: terrain, tile
    markers (Command Tent/Ship), units with their leaders on top, then the other markers. The
    wind/tide arrow shows the scenario's direction; it stands where a ``wind_tide`` marker entry
    puts it, else on hex ``[1, 1]``.

    Raises:
        KeyError: the scenario names an id the data does not define (run verify first).
    """
    sc = loaded.scenario
    army = {s.id: s.army for s in sc.sides}
    out: list[Placement] = []

    def at(key: str, hex_: tuple[int, int], layer: int | None = None) -> None:
        x, y = layout.centre(hex_)
        out.append(Placement(key, hex_, x + EDGE, y + EDGE, layer))

    bases = [tp for tp in sc.terrain if not data.terrain[tp.terrain].overlay]
    overlays = [tp for tp in sc.terrain if data.terrain[tp.terrain].overlay]
    for tp in bases + overlays:
        sides = canonical_sides(tp.hexsides) if tp.hexsides else ()
        for h in tp.all_hexes():
            at(terrain_key(tp.terrain, sides), h)
    for mp in sc.markers:
        if data.markers[mp.marker].kind == "tile":
            at(marker_key(mp.marker), tuple(mp.hex))
    for up in sc.units:
        at(unit_key(up.unit, army[up.side]), tuple(up.hex))
        if up.leader:
            at(leader_key(up.leader, army[up.side]), tuple(up.hex))
    for lp in sc.leaders:
        at(leader_key(lp.leader, army[lp.side]), tuple(lp.hex))
    arrows = [tuple(mp.hex) for mp in sc.markers if mp.marker == "wind_tide"]
    for mp in sc.markers:
        if mp.marker != "wind_tide" and data.markers[mp.marker].kind != "tile":
            at(marker_key(mp.marker), tuple(mp.hex))
    if sc.wind_tide is not None and "wind_tide" in data.markers:
        for i, d in enumerate(sc.wind_tide.directions):
            hex_ = arrows[i] if i < len(arrows) else (1, 1)
            at(marker_key("wind_tide"), hex_, DIRECTIONS.index(d) + 1)
    return out


def placement_kind(data: GenpeiData, key: str) -> str:
    """The kind of a placement's palette ``key``: ``unit``, ``leader``, ``terrain``, ``tile``
    (a tile marker: Command Tent/Ship) or ``marker``."""
    kind = key.split(":")[0]
    if kind == "marker" and data.markers[key.split(":")[1]].kind == "tile":
        return "tile"
    return kind


def with_layer_value(piece: PieceDefinition, value: int) -> PieceDefinition:
    """A copy of ``piece`` whose first :class:`Layer` shows level ``value`` (1-based), e.g. the
    wind/tide arrow turned to the scenario's direction.

    Raises:
        ValueError: the piece has no Layer, or ``value`` is outside its levels.
    """
    import dataclasses

    traits = list(piece.traits)
    for i, t in enumerate(traits):
        if isinstance(t, Layer):
            traits[i] = dataclasses.replace(t, value=value)
            return PieceDefinition(traits, piece.basic)
    raise ValueError("piece has no Layer trait")
