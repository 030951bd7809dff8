"""The Genpei pack as a VASSAL extension (``.vmdx``) of a base module.

The base module holds the base game: its map and board, and whatever pieces it has. The
extension adds only what the pack brings, each addition in its own ``ExtensionElement``
(``vassal-format.md`` §5), onto the base's own components
(:class:`~pipeline.systems.genpei.base_mapping.BaseMapping` says which):

- a palette tab ``Genpei War`` (in the base's piece window or tab widget the mapping names, else
  a new piece window) with every gunbai piece the mapping does not map to a base piece: the
  pack's units, terrain and markers, and any base-game piece the base lacks, drawn at the base
  grid's hex size (turned a quarter turn for a base whose hexes stand in columns);
- the prototypes those pieces use, unless the base already has them as they are;
- a chart tab ``Genpei War`` (the pack's reference cards and the scenario sheets);
- the 30 scenarios as predefined setups (one ``Genpei War`` menu) on the base's map and board,
  every piece at the centre of its hex on the base's grid, and each piece the base has (mapped)
  as the base's own palette piece with its slot's gpid, so that VASSAL's Refresh Counters
  matches it. No map, board or piece of the base is copied.

The extension names the base's exact name and version (``anyModule="false"``) and keeps
``vassal.extension_id`` from release to release; its slots' gpids are
``<extension_id>:<hash of the piece's key>``, so a game saved with one release finds every piece
that still exists in the next (:func:`~pipeline.vassal.buildfile.stable_gpid_number`). The same
code builds it for gunbai's own core module (the default) and for a published module.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pipeline.errors import GunbaiError
from pipeline.systems.genpei import module as gm
from pipeline.systems.genpei.base_mapping import BaseMapping
from pipeline.systems.genpei.data import GenpeiData
from pipeline.systems.genpei.layout import HexLayout
from pipeline.vassal.base import BaseSlot
from pipeline.vassal.buildfile import (
    BuildFile,
    Chart,
    ChartWindow,
    ListWidget,
    PieceSlot,
    PieceWindow,
    PredefinedSetup,
    PrototypeDefinition,
    TabWidget,
)
from pipeline.vassal.extension import (
    PROTOTYPES,
    ROOT,
    ExtensionElement,
    ModuleExtension,
    extension_entries,
    write_extension,
)
from pipeline.vassal.pieces import PieceDefinition, decode_add_piece
from pipeline.vassal.save import PlacedPiece, SaveGame
from pipeline.vassal.traits import BasicPiece, Layer, Marker, RawTrait, UsePrototype

#: File name of the extension in the output folder (VASSAL calls the extension by it).
EXTENSION_FILE = "genpei.vmdx"
#: The name of the pack's palette tab, chart tab and setup menu.
PACK = "Genpei War"
#: The image of the notice a setup lays on the board when the scenario's map is not public.
NOTICE_IMAGE = "notice_map_not_public_{id}.png"


def notice_image_name(scenario_id: str) -> str:
    """Image of the empty-board notice of scenario ``scenario_id``:
    ``notice_map_not_public_<id>.png``."""
    return NOTICE_IMAGE.format(id=scenario_id)


def notice_png(loaded) -> bytes:
    """The notice (``genpei/setup_notice.yaml.j2``, 640 × 230 px at 100 %) that a setup of a
    scenario whose map is not public shows on its empty board: why it is empty and what to do."""
    from pipeline.render.png import png_bytes
    from pipeline.systems.genpei import art

    sc = loaded.scenario
    return png_bytes(art.renderer().image("genpei/setup_notice.yaml.j2", {"scenario": {"code": sc.code, "title": sc.title}}, size=(640, 230)))


@dataclass
class PackExtension:
    """The extension and what it was made from.

    Attributes:
        extension: the extension (:class:`~pipeline.vassal.extension.ModuleExtension`).
        mapping: the base and the mapping onto it.
        layout: the board layout the new pieces are drawn at (the base grid's hex width).
        pieces: the new pieces (the palette tab), by palette key.
        images: every image name the new pieces show.
        card_images: the pack's cards and scenario sheets (image names) of the chart tab.
        notes: what a module maker should know that does not stop the build.
    """

    extension: ModuleExtension
    mapping: BaseMapping
    layout: HexLayout
    pieces: dict[str, gm.PalettePiece]
    images: set[str]
    card_images: list[str]
    notes: list[str] = field(default_factory=list)


def extension_layout(data: GenpeiData, mapping: BaseMapping) -> HexLayout:
    """The layout the extension's pieces are drawn at: gunbai's board at the base grid's hex
    width (gunbai's own when the base is its core module)."""
    return HexLayout(data.board, hex_width=mapping.hex_width, margin=data.system.vassal.board_margin_px)


def _groups(data: GenpeiData, layout: HexLayout, mapping: BaseMapping) -> list[tuple[str, list[gm.PalettePiece]]]:
    layers = mapping.layers if mapping.layers is not None else gm.OWN_LAYERS
    lists = [(name, [p for p in pieces if p.key not in mapping.slots]) for name, pieces in gm.palette(data, layout, layers)]
    return [(name, pieces) for name, pieces in lists if pieces]


def piece_images(piece: PieceDefinition) -> set[str]:
    """Every image a piece definition shows: its BasicPiece's and each Layer's."""
    out = {piece.basic.image} if piece.basic.image else set()
    for t in piece.traits:
        if isinstance(t, Layer):
            out.update(i for i in t.images if i)
    return out


def _prototypes(mapping: BaseMapping, used: set[str]) -> list[PrototypeDefinition]:
    """gunbai's prototypes the new pieces use and the base lacks.

    Raises:
        GunbaiError: the base has a prototype of the same name that differs (the new pieces
            would take the base's: VASSAL finds prototypes by name).
    """
    out = []
    for proto in gm.prototypes():
        if proto.name not in used:
            continue
        theirs = mapping.base.prototypes.get(proto.name, False)
        if theirs is False:
            out.append(proto)
            continue
        ours = decode_add_piece(proto.piece.slot_text())
        if theirs is None or [t for t, _ in theirs.levels] != [t for t, _ in ours.levels]:
            raise GunbaiError(f"{mapping.base.label}: base module {mapping.base.name!r} has a prototype {proto.name!r} "
                              "unlike gunbai's; the extension's pieces would take it (VASSAL finds prototypes by name)")
    return out


def _base_definition(slot: BaseSlot) -> PieceDefinition:
    """A base palette piece as a definition to place: its traits as they are, its BasicPiece
    with the slot's gpid."""
    b = slot.piece.basic
    if b is None:
        raise GunbaiError(f"palette piece '{slot.label}' is not a piece (a {slot.piece.kind})")
    traits = [RawTrait(t, s) for t, s in slot.piece.levels[:-1]]
    return PieceDefinition(traits, BasicPiece(b.image, b.name, gpid=slot.gpid, properties=b.properties,
                                              clone_key=b.clone_key, delete_key=b.delete_key))


def pack_extension(data: GenpeiData, mapping: BaseMapping, card_images: list[str]) -> PackExtension:
    """The extension (without its setups) for a resolved mapping.

    Args:
        data: the loaded data.
        mapping: the base module and the mapping onto it.
        card_images: the pack's cards and the scenario sheets (image names), in display order.

    Raises:
        GunbaiError: a prototype of the base clashes with gunbai's, or a target does not lead to
            one component of the base.
    """
    layout = extension_layout(data, mapping)
    groups = _groups(data, layout, mapping)
    pieces = {p.key: p for _n, ps in groups for p in ps}
    base = mapping.base
    tab = TabWidget(PACK, [ListWidget(name, [PieceSlot(p.entry_name, p.piece, p.size[0], p.size[1], key=p.key) for p in ps])
                           for name, ps in groups])
    elements: list[ExtensionElement] = []
    used = {t.name for p in pieces.values() for t in p.piece.traits if isinstance(t, UsePrototype)}
    elements += [ExtensionElement(PROTOTYPES, p) for p in _prototypes(mapping, used)]
    if groups:
        if mapping.palette_target is None:
            elements.append(ExtensionElement(ROOT, PieceWindow(PACK, [tab], text=PACK)))
        else:
            base.check_target(mapping.palette_target.target, _element(base, mapping.palette_target.target))
            elements.append(ExtensionElement(mapping.palette_target.target, tab))
    sheets = [c for c in card_images if c.startswith("scenario_")]
    cards = [c for c in card_images if c not in sheets]
    chart_tabs = [w for w in (TabWidget("Cards", [Chart(gm.card_title(c), c) for c in cards]) if cards else None,
                              TabWidget("Scenarios", [Chart(gm.card_title(c), c) for c in sheets]) if sheets else None) if w]
    if chart_tabs:
        if mapping.charts_target is None:
            elements.append(ExtensionElement(ROOT, ChartWindow(PACK, [TabWidget(PACK, chart_tabs)], text=PACK)))
        else:
            base.check_target(mapping.charts_target.target, _element(base, mapping.charts_target.target))
            elements.append(ExtensionElement(mapping.charts_target.target, TabWidget(PACK, chart_tabs)))
    setups = [PredefinedSetup(s.scenario.title, gm.setup_file_name(s)) for s in data.scenarios]
    if setups:
        elements.append(ExtensionElement(ROOT, PredefinedSetup(PACK, children=setups)))
    v = data.system.vassal
    ext = ModuleExtension(
        name=EXTENSION_FILE.removesuffix(".vmdx"),
        extension_id=v.extension_id,
        module_name=base.name,
        module_version=base.version,
        version=v.extension_version,
        description=v.extension_description,
        elements=elements,
        date_saved_ms=v.date_saved_ms,
        stable_gpids=True,
    )
    images = set().union(*(piece_images(p.piece) for p in pieces.values())) if pieces else set()
    return PackExtension(ext, mapping, layout, pieces, images, list(card_images), list(mapping.notes))


def _element(base, target: str):
    from pipeline.vassal.lint import resolve_target

    el = resolve_target(base.root, target)
    if el is None:  # pragma: no cover - the target was made from the element
        raise GunbaiError(f"{base.label}: target {target!r} does not resolve")
    return el


def scenario_saves(data: GenpeiData, pack: PackExtension, gpids: dict[str, str]) -> dict[str, SaveGame]:
    """One predefined setup per scenario, by archive path, on the base's map and board: each
    :func:`~pipeline.systems.genpei.module.placements` piece at its hex's centre on the base
    grid (:meth:`BaseMapping.map_point`), as the base's own palette piece (its slot's gpid) when
    the mapping maps it, else as the extension's piece (``gpids``: palette key -> gpid, from
    the extension's BuildFile). Pieces that VASSAL stacks share a stack with the pieces at the
    same point in the same Game Piece Layer (a unit and its leader); terrain stands outside
    stacks. With a setup template (``setup:`` of the mapping) each save starts with the
    template's commands (its global properties, decks, at-start pieces and board choices) and
    adds the scenario's pieces. A scenario whose map is not public gets a notice at the board's
    centre saying why the board is empty (:func:`notice_png`, piece id ``999``). The saves name
    the base module (they are loaded into it, §5).

    Raises:
        GunbaiError: a piece's hex lies off the base's board (every such hex, with the
            scenario, the board and its size), or a scenario turns a marker the mapping maps to
            a base piece (the wind/tide arrow's direction is gunbai's piece's layer).
    """
    mapping = pack.mapping
    base = mapping.base
    bmap, board = mapping.map, mapping.board
    width, height = board.size or (0, 0)
    saves: dict[str, SaveGame] = {}
    errors: list[str] = []
    for loaded in data.scenarios:
        placed = []
        outside: dict[int, int] = {}
        for i, p in enumerate(gm.placements(data, pack.layout, loaded)):
            bx, by = mapping.board_centre(p.hex)
            if not (0 <= bx < width and 0 <= by < height):
                errors.append(f"{loaded.scenario.id} hex {list(p.hex)}: its centre ({bx}, {by}) px on the base grid lies off board "
                              f"{board.name!r} ({width} x {height} px) of map {bmap.name!r} of {base.name!r}; move first_hex "
                              f"in {mapping.source} or use a board that holds the {data.board.columns} x {data.board.rows} battlefield")
                continue
            if mapping.zone is not None:
                zone = board.zone_at(bx, by)
                if zone is None or zone.name != mapping.zone:
                    outside[p.hex[1]] = outside.get(p.hex[1], 0) + 1
            x, y = bx + mapping.board_origin[0], by + mapping.board_origin[1]
            kind = gm.placement_kind(data, p.key)
            slot = mapping.slots.get(p.key)
            if slot is not None:
                if p.layer_value is not None:
                    errors.append(f"{loaded.scenario.id}: {p.key.split(':')[1]} is turned to a direction, but {mapping.source} "
                                  f"maps it to base piece '{slot.label}'; leave it unmapped (slot: null)")
                    continue
                definition = _base_definition(slot)
                props = base.properties(slot)
                layer = bmap.layer_index(props.get(bmap.layer_property or "")) if bmap.layer_property else None
                stacked = base.stacks(slot.piece)
                gpid = slot.gpid
            else:
                definition = pack.pieces[p.key].piece
                if p.layer_value is not None:
                    definition = gm.with_layer_value(definition, p.layer_value)
                layer = bmap.layer_index(mapping.layers.of(kind)) if mapping.layers is not None else None
                stacked = kind != "terrain"
                gpid = gpids[p.key]
            placed.append(PlacedPiece(str(1000 + i), definition, bmap.name, x, y, gpid, stacked=stacked, layer=layer))
        if loaded.scenario.map == "not public":
            # the empty board says why it is empty: a notice at its centre, above every layer's pieces
            # its Marker property Notice tells gunbai import that it is no piece of the scenario
            notice = PieceDefinition([RawTrait("immob;cA;I", ""), Marker(("Notice",), ("map not public",))], BasicPiece(notice_image_name(loaded.scenario.id), f"{loaded.scenario.code}: map not public"))
            layer = bmap.layer_index(mapping.layers.of("marker")) if mapping.layers is not None else None
            placed.append(PlacedPiece("999", notice, bmap.name, width // 2 + mapping.board_origin[0], height // 2 + mapping.board_origin[1],
                                      None, stacked=False, layer=layer))
        if outside:
            rows = ", ".join(str(r) for r in sorted(outside))
            pack.notes.append(f"{loaded.scenario.id}: {sum(outside.values())} piece(s) on hexes of row(s) {rows} lie outside zone "
                              f"{mapping.zone!r} of board {board.name!r} (the base's hex area): on the board, on the grid's "
                              "extrapolated hexes")
        template = mapping.template
        boards = {} if template is not None and template.boards.get(bmap.name) else {bmap.name: [(board.name, 0, 0)]}
        save = SaveGame(base.name, base.version, placed, boards=boards, description=loaded.scenario.title,
                        base_commands=template.commands if template is not None else ())
        if template is not None:
            clash = template.ids & ({p.piece_id for p in placed} | {str(save.stack_id_start + n) for n in range(len(placed))})
            if clash:
                errors.append(f"{loaded.scenario.id}: piece ids {', '.join(sorted(clash)[:4])} are also ids of {template.label}")
        saves[gm.setup_file_name(loaded)] = save
    if errors:
        raise GunbaiError("\n".join(errors) + f"\n{len(errors)} piece(s) cannot be placed on base module {base.name!r}; nothing written")
    return saves


def extension_archive_entries(data: GenpeiData, pack: PackExtension, images: dict[str, bytes], *, date_saved_ms: int
                              ) -> tuple[dict[str, bytes], BuildFile, dict[str, SaveGame]]:
    """Every entry of ``genpei.vmdx``: buildFile.xml, extensiondata, the base module's own
    moduledata, the images (``images``: the new pieces', the cards and the scenario sheets, by
    name; and the empty-board notice of each scenario whose map is not public,
    :func:`notice_png`) and one setup per scenario.

    Raises:
        GunbaiError: as :func:`scenario_saves`.
        ValueError: as :func:`pipeline.vassal.extension.extension_entries`.
    """
    built = write_extension(pack.extension)
    saves = scenario_saves(data, pack, built.gpids)
    images = {**images, **{notice_image_name(s.scenario.id): notice_png(s) for s in data.scenarios if s.scenario.map == "not public"}}
    entries, built = extension_entries(pack.extension, base_moduledata=pack.mapping.base.moduledata, images=images,
                                       setups=saves, default_epoch=date_saved_ms // 1000)
    return entries, built, saves
