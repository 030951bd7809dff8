"""A VASSAL module for a measured table (game-agnostic): the table image, a range line in inches,
unit pieces with bases to scale and free facing, hits, a turn marker, dice, cards and setups.

The table image is ``width × depth`` inches at ``ppi`` pixels per inch; map pixel = inch × ppi.
VASSAL's free rotation turns counter-clockwise for a positive angle, so a facing ``f`` (degrees
clockwise from north) is written as the angle ``-f`` (mod 360). Unit images are drawn facing
north (front edge at the top).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from pipeline.build import write_linted_archive
from pipeline.vassal.archive import resolve_epoch
from pipeline.vassal.buildfile import (
    Board,
    Chart,
    ChartWindow,
    DiceButton,
    ListWidget,
    LOSThread,
    Map,
    Module,
    PieceSlot,
    PieceWindow,
    PredefinedSetup,
    PrototypeDefinition,
    SpecialDiceButton,
    TabWidget,
    write_buildfile,
    write_moduledata,
)
from pipeline.vassal.pieces import PieceDefinition
from pipeline.vassal.save import PlacedPiece, SaveGame
from pipeline.vassal.traits import (
    BasicPiece,
    Delete,
    DynamicProperty,
    FreeRotator,
    Label,
    Marker,
    PropertyCommand,
    UsePrototype,
    keystroke,
)

MAP_NAME = "Table"
BOARD_NAME = "Table"
CTRL = 130
UNIT_PROTOTYPE = "Measured unit"


@dataclass(frozen=True)
class UnitPiece:
    """A palette piece: ``key``, palette ``name``, ``image``, size in pixels, properties, and the
    counter kind: ``hits`` (a Hits 0-``max_hits`` property) or ``stands`` (Stands 0-n)."""

    key: str
    name: str
    image: str
    size: tuple[int, int]
    properties: tuple[tuple[str, str], ...] = ()
    counter: str = "hits"
    counter_max: int = 15
    counter_start: int = 0
    rotates: bool = True


@dataclass(frozen=True)
class Placed:
    key: str
    x: float  # inches
    y: float
    facing: float = 0.0
    counter: int | None = None


def piece(p: UnitPiece) -> PieceDefinition:
    prop = "Hits" if p.counter == "hits" else "Stands"
    traits: list = [UsePrototype(UNIT_PROTOTYPE)]
    if p.rotates:
        traits.append(FreeRotator(facings=1, set_angle_key=keystroke(82, CTRL), set_angle_menu="Set facing", name="Facing"))
    traits += [
        Label(f"${prop}$", font_size=11, background="255,255,255", foreground="0,0,0", vertical_pos="b", horizontal_pos="r", vertical_justify="b", horizontal_justify="r", name_format="$pieceName$", font_style=1, property_name=f"{prop}Label"),
        DynamicProperty(prop, str(p.counter_start), numeric=True, minimum=0, maximum=p.counter_max, commands=(
            PropertyCommand(f"{prop} +1", keystroke(61, CTRL), "I", ("1",)),
            PropertyCommand(f"{prop} -1", keystroke(45, CTRL), "I", ("-1",)),
        )),
    ]
    if p.properties:
        traits.append(Marker(tuple(k for k, _ in p.properties), tuple(v for _, v in p.properties)))
    return PieceDefinition(traits, BasicPiece(p.image, p.name))


def with_state(defn: PieceDefinition, facing: float, counter: int | None) -> PieceDefinition:
    traits = list(defn.traits)
    for i, t in enumerate(traits):
        if isinstance(t, FreeRotator):
            traits[i] = dataclasses.replace(t, angle=float((-facing) % 360))
        if isinstance(t, DynamicProperty) and counter is not None:
            traits[i] = dataclasses.replace(t, value=str(counter))
    return PieceDefinition(traits, defn.basic)


def build_measured_module(*, name: str, version: str, description: str, sides: list[str], tables: list[tuple[str, str]],
                          table_px: tuple[int, int], ppi: int, palette: list[tuple[str, list[UnitPiece]]],
                          dice: list[DiceButton | SpecialDiceButton], cards: list[str],
                          setups: list[tuple[str, str, str, str, list[Placed]]], images: dict[str, bytes],
                          out_path: Path, date_ms: int) -> tuple[int, int]:
    """Write the module to ``out_path``; ``setups`` are ``(file, title, description,
    board name, placements)``; ``tables`` are ``(board name, image)``, one board per scenario
    table, the setup choosing its own. Returns (entries, setups)."""
    slots = {p.key: piece(p) for _n, ps in palette for p in ps}
    windows = [PieceWindow("Pieces", [TabWidget("Pieces", [ListWidget(n, [PieceSlot(p.name, slots[p.key], p.size[0], p.size[1], key=p.key) for p in ps]) for n, ps in palette])], text="Pieces")]
    charts = [ChartWindow("Reference cards", [TabWidget("Cards", [Chart(c.removesuffix(".png").replace("_", " "), c) for c in cards])], text="Cards")] if cards else []
    los = LOSThread(name="Range", label="Range", tooltip="Measure range in inches", draw_range=True, scale=ppi, snap_start=False, snap_end=False)
    module = Module(
        name, version=version, description=description, sides=sides,
        maps=[Map(MAP_NAME, [Board(b, img, table_px[0], table_px[1]) for b, img in tables], button_name="Table", los_threads=[los])],
        prototypes=[PrototypeDefinition(UNIT_PROTOTYPE, PieceDefinition([Delete("Delete", keystroke(68, CTRL))], BasicPiece("", "")))],
        piece_windows=windows, dice_buttons=dice, chart_windows=charts,
        setups=[PredefinedSetup(title, file) for file, title, _d, _b, _p in setups], date_saved_ms=date_ms,
        stable_gpids=True,
    )
    built = write_buildfile(module)
    moduledata = write_moduledata(module, date_ms)
    entries: dict[str, bytes] = {"buildFile.xml": built.xml, "moduledata": moduledata}
    for n, data in images.items():
        entries[f"images/{n}"] = data
    epoch = resolve_epoch(date_ms // 1000)
    for file, title, desc, board, placed in setups:
        pieces = []
        for i, pl in enumerate(placed):
            defn = with_state(slots[pl.key], pl.facing, pl.counter)
            pieces.append(PlacedPiece(str(1000 + i), defn, MAP_NAME, round(pl.x * ppi), round(pl.y * ppi), built.gpids[pl.key]))
        save = SaveGame(module.name, module.version, pieces, boards={MAP_NAME: [(board, 0, 0)]}, description=desc or title)
        entries[file] = save.to_bytes(moduledata=moduledata, epoch=epoch, date_saved_ms=date_ms)
    write_linted_archive(out_path, entries, epoch)
    return len(entries), len(setups)
