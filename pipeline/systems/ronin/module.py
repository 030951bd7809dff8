"""The Ronin VASSAL module: a measured table (one board per table size, an inch range thread),
a counter per model type and side, the markers, terrain pieces to drag onto the table (every
kind of ``terrain.yaml`` in each of its footprints), d6 / 2d6 / 3d6 dice, the reference sheet
and roster cards as charts, and a predefined setup per game (scenario + two Buntai deployed in
their drawn deployment zones, on the game's terrain).

Coordinates: board pixels = inches × ``px_per_inch`` (map edge 0), so the range thread's
``scale`` (pixels per range unit) is ``px_per_inch`` and it reads inches.

What a player sees: pieces are drawn in Game Piece Layers (:data:`PIECE_LAYERS`, by the
pieces' ``MapLayer`` property): terrain at the bottom, then deployment zones, models, markers;
pieces of different layers never stack, so a wood never hides the models standing in it.
Terrain and zones are selected with Alt-click (as Genpei's terrain tiles), so dragging a model
never picks up the ground under it; terrain turns freely (Ctrl-R) for walls and streams.

Properties, for ``gunbai import`` and players' filters: a model carries ``Side``, ``Faction``,
``Model``, ``Rank``; a terrain piece ``Terrain`` (its kind), ``Footprint`` (the footprint id,
or ``game`` for a game's own piece), ``Movement``, ``Cover`` and, for a game's piece, ``Game``
and ``TerrainIndex`` (its place in the game's ``terrain`` list); a zone ``Zone``, ``Game``; a
marker ``Marker``.
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.systems.ronin import art
from pipeline.systems.ronin.data import RoninData
from pipeline.systems.ronin.deployment import (
    deployment,
    force,
    markers,
)
from pipeline.systems.ronin.model import Game
from pipeline.vassal.buildfile import (
    Board,
    Chart,
    ChartWindow,
    DiceButton,
    GamePieceLayers,
    ListWidget,
    LOSThread,
    Map,
    Module,
    PieceSlot,
    PieceWindow,
    PredefinedSetup,
    PrototypeDefinition,
    TabWidget,
)
from pipeline.vassal.pieces import PieceDefinition
from pipeline.vassal.traits import (
    BasicPiece,
    Delete,
    FreeRotator,
    Marker,
    RawTrait,
    UsePrototype,
    keystroke,
)

MAP_NAME = "Table"
MODEL_PROTOTYPE = "Ronin model"
MARKER_PROTOTYPE = "Ronin marker"
ZONE_PROTOTYPE = "Ronin zone"
TERRAIN_PROTOTYPE = "Ronin terrain"
CTRL = 130

#: The Game Piece Layers of the table, bottom to top, by the pieces' ``MapLayer`` property.
PIECE_LAYERS = GamePieceLayers("MapLayer", ("Terrain", "Zones", "Models", "Markers"))
#: A palette slot is at most this many pixels across (a large wood is 560 px at 56 px/inch).
MAX_SLOT_PX = 200


def board_name(side_in: int) -> str:
    return f'{side_in}" table'


@dataclass(frozen=True)
class PalettePiece:
    key: str
    entry_name: str
    piece: PieceDefinition
    size: tuple[int, int]


def model_key(faction: str, model_id: str, side: str) -> str:
    return f"model:{faction}:{model_id}:{side}"


def marker_key(marker_id: str) -> str:
    return f"marker:{marker_id}"


def zone_key(game_id: str, index: int) -> str:
    return f"zone:{game_id}:{index}"


def terrain_key(kind: str, footprint: str) -> str:
    return f"terrain:{kind}:{footprint}"


def game_terrain_key(game_id: str, index: int) -> str:
    return f"terrain:{game_id}:{index}"


def prototypes() -> list[PrototypeDefinition]:
    delete = Delete("Delete", keystroke(68, CTRL))
    blank = BasicPiece("", "")
    return [
        PrototypeDefinition(MODEL_PROTOTYPE, PieceDefinition([delete], blank)),
        PrototypeDefinition(MARKER_PROTOTYPE, PieceDefinition([delete], blank)),
        # immob;cA;I : select with Alt, does not stack (as the Genpei terrain tiles).
        PrototypeDefinition(ZONE_PROTOTYPE, PieceDefinition([RawTrait("immob;cA;I", ""), delete], blank)),
        PrototypeDefinition(TERRAIN_PROTOTYPE, PieceDefinition([RawTrait("immob;cA;I", ""), delete], blank)),
    ]


def _slot(w_px: float, h_px: float) -> tuple[int, int]:
    """A palette slot's size: the piece's, scaled down to :data:`MAX_SLOT_PX` at most."""
    k = min(1.0, MAX_SLOT_PX / max(w_px, h_px))
    return max(8, round(w_px * k)), max(8, round(h_px * k))


def terrain_piece(image: str, name: str, props: dict[str, str]) -> PieceDefinition:
    """A terrain piece: the Terrain prototype, free rotation (Ctrl-R; on the piece itself, as
    its angle is state a setup saves), its properties (:data:`PIECE_LAYERS` layer ``Terrain``)
    and its image."""
    keys = (*props, PIECE_LAYERS.property)
    return PieceDefinition([
        UsePrototype(TERRAIN_PROTOTYPE),
        FreeRotator(facings=1, set_angle_key=keystroke(82, CTRL), set_angle_menu="Rotate", name="Turn"),
        Marker(keys, (*props.values(), "Terrain")),
    ], BasicPiece(image, name))


def palette(data: RoninData) -> list[tuple[str, list[PalettePiece]]]:
    """``[(list name, pieces)]``: one list per side and faction, markers, terrain (every kind
    and footprint of terrain.yaml), deployment zones, each game's terrain."""
    px = art.base_px(data)
    lists: list[tuple[str, list[PalettePiece]]] = []
    for side in data.system.sides:
        groups: dict[str, list[PalettePiece]] = {}
        for fid, m, _hired in art.all_models(data):
            label = data.factions[fid].name if fid in data.factions else data.scenarios[fid].name
            traits = [UsePrototype(MODEL_PROTOTYPE), Marker(("Side", "Faction", "Model", "Rank", PIECE_LAYERS.property), (side, fid, m.id, str(m.rank), "Models"))]
            piece = PieceDefinition(traits, BasicPiece(art.model_image_name(fid, m.id, side), f"{m.name} ({side})"))
            groups.setdefault(label, []).append(PalettePiece(model_key(fid, m.id, side), m.name, piece, (px, px)))
        for label, pieces in groups.items():
            lists.append((f"{side.capitalize()}: {label}", pieces))
    mpx = round(px * 0.8)
    markers = []
    for mk in data.system.markers:
        piece = PieceDefinition([UsePrototype(MARKER_PROTOTYPE), Marker(("Marker", PIECE_LAYERS.property), (mk.id, "Markers"))], BasicPiece(art.marker_image_name(mk.id), mk.name))
        markers.append(PalettePiece(marker_key(mk.id), mk.name, piece, (mpx, mpx)))
    lists.append(("Markers", markers))
    ppi = data.system.vassal.px_per_inch
    terrain = []
    for t in data.terrain.values():
        for fp in t.footprints:
            w, h = fp.size()
            size = (f'{2 * fp.r:g}" across' if fp.kind == "circle" else f'{fp.w:g} × {fp.h:g}"')
            name = f"{t.name} ({fp.id}, {size})"
            props = {"Terrain": t.id, "Footprint": fp.id, "Movement": t.movement, "Cover": t.cover}
            piece = terrain_piece(art.terrain_image_name(t.id, fp.id), name, props)
            terrain.append(PalettePiece(terrain_key(t.id, fp.id), name, piece, _slot(w * ppi, h * ppi)))
    lists.append(("Terrain", terrain))
    zones = []
    for lg in data.games:
        g: Game = lg.value
        for i, side in enumerate(g.sides):
            z = side.zone
            w, h = (2 * z.r, 2 * z.r) if z.kind == "circle" else (z.w, z.h)
            piece = PieceDefinition([UsePrototype(ZONE_PROTOTYPE), Marker(("Zone", "Game", PIECE_LAYERS.property), (side.role, g.id, "Zones"))],
                                    BasicPiece(art.zone_image_name(g.id, i), f"{g.id}: {side.role} deployment"))
            zones.append(PalettePiece(zone_key(g.id, i), f"{g.name}: {side.role}", piece, (min(MAX_SLOT_PX, round(w * ppi)), min(MAX_SLOT_PX, round(h * ppi)))))
    if zones:
        lists.append(("Deployment zones", zones))
    game_terrain = []
    for lg in data.games:
        g = lg.value
        for i, (image, tp) in enumerate(art.game_terrain_pieces(data, g)):
            src = g.terrain[i]
            props = {"Terrain": src.kind, "Footprint": "game", "Movement": src.movement, "Cover": src.cover, "Game": g.id, "TerrainIndex": str(i)}
            piece = terrain_piece(image, f"{g.id}: {src.name}", props)
            game_terrain.append(PalettePiece(game_terrain_key(g.id, i), f"{g.name}: {src.name}", piece, _slot(tp.w * ppi, tp.h * ppi)))
    if game_terrain:
        lists.append(("Terrain of the games", game_terrain))
    return lists


def build_module(data: RoninData, card_images: list[str]) -> tuple[Module, list[tuple[str, list[PalettePiece]]]]:
    """The module description and its palette."""
    v = data.system.vassal
    ppi = v.px_per_inch
    boards = [Board(board_name(s), art.table_image_name(s), s * ppi, s * ppi) for s in v.boards_inches]
    pal = palette(data)
    windows = [PieceWindow("Pieces", [TabWidget("Pieces", [ListWidget(name, [PieceSlot(p.entry_name, p.piece, p.size[0], p.size[1], key=p.key) for p in pieces]) for name, pieces in pal])], text="Pieces")]
    charts = [ChartWindow("Reference", [TabWidget("Charts", [Chart(_title(c), c) for c in card_images])], text="Reference")]
    dice = [
        DiceButton("d6", 1, 6, text="d6", tooltip="Roll one d6 (Priority, Initiative, Stunned removal)"),
        DiceButton("2d6", 2, 6, report_total=True, text="2d6", tooltip="Roll 2d6 (Attack Roll, Shooting, Morale)"),
        DiceButton("3d6", 3, 6, text="3d6", tooltip="Roll 3d6 (Enhanced Attack Roll: keep two)"),
    ]
    los = LOSThread(name="Range", label="Range", tooltip="Range in inches", draw_range=True, scale=ppi, round="Up")
    setups = [PredefinedSetup(lg.value.name, setup_file_name(lg.value)) for lg in data.games]
    module = Module(
        v.module_name,
        version=v.module_version,
        description=v.description,
        sides=[s.capitalize() for s in data.system.sides],
        maps=[Map(MAP_NAME, boards, button_name="Table", los_threads=[los], piece_layers=PIECE_LAYERS)],
        prototypes=prototypes(),
        piece_windows=windows,
        dice_buttons=dice,
        chart_windows=charts,
        setups=setups,
        date_saved_ms=v.date_saved_ms,
        stable_gpids=True,
    )
    return module, pal


def _title(image: str) -> str:
    return image.removesuffix(".png").removeprefix("card_").replace("_", " ").capitalize()


def setup_file_name(g: Game) -> str:
    return f"{g.id}.vsav"


#: The layer of :data:`PIECE_LAYERS` each kind of palette key (its prefix) is drawn in.
LAYER_OF_KEY = {"terrain": "Terrain", "zone": "Zones", "model": "Models", "marker": "Markers"}


@dataclass(frozen=True)
class Placement:
    """A piece a setup places: its palette key, where (board pixels) and whether it stacks."""

    key: str
    x: int
    y: int
    stacked: bool = True

    @property
    def layer(self) -> int:
        """The index in :data:`PIECE_LAYERS` of the layer the piece is drawn in (its stack is
        saved bound to it, as VASSAL binds a loaded stack to the layer it names)."""
        return PIECE_LAYERS.layer_order.index(LAYER_OF_KEY[self.key.split(":", 1)[0]])


def placements(data: RoninData, g: Game) -> list[Placement]:
    """Every piece a game's setup places: its terrain pieces (each at the centre of its zone),
    the two zones, the objective and civilians, then each side's models where the game places
    them (an imported set-up), else in rows inside its zone (roster order, 1.5 inches apart,
    clear of terrain and markers: :func:`deployment`).
    The layers (:data:`PIECE_LAYERS`) draw them bottom to
    top in that order."""
    ppi = data.system.vassal.px_per_inch
    out: list[Placement] = []

    def at(key: str, x_in: float, y_in: float, stacked: bool = True) -> None:
        out.append(Placement(key, round(x_in * ppi), round(y_in * ppi), stacked))

    for i, tp in enumerate(g.terrain):
        z = tp.zone
        cx, cy = (z.x, z.y) if z.kind == "circle" else (z.x + z.w / 2, z.y + z.h / 2)
        at(game_terrain_key(g.id, i), cx, cy, stacked=False)

    for i, side in enumerate(g.sides):
        z = side.zone
        cx, cy = (z.x, z.y) if z.kind == "circle" else (z.x + z.w / 2, z.y + z.h / 2)
        at(zone_key(g.id, i), cx, cy, stacked=False)
    if g.objective is not None:
        at(marker_key("objective"), *g.objective)
    for side in g.sides:
        if side.placed:
            for pm in side.placed:
                at(model_key(*pm.model.split(":", 1), side.side), pm.x, pm.y)
            continue
        keys = [model_key(*m.split(":", 1), side.side) for m in force(data, g, side)]
        for key, p in zip(keys, deployment(data, g, side), strict=True):
            at(key, *p)
    for x, y in markers(g)[1 if g.objective is not None else 0:]:
        at(marker_key("civilian"), x, y)
    return out


