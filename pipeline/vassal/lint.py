"""Lint ``.vmod`` modules and ``.vsav`` saves against ``vassal-format.md`` §8.

:func:`lint` returns a list of :class:`Finding`; an empty list (or only warnings) means the file
passes. Checks are plain functions registered with :func:`module_check` / :func:`save_check`,
each reading a shared context and calling ``ctx.add(...)``, so more of §8 (and extensions, §5)
can be added without touching the others.

Covered now (§8 item numbers in brackets): archive safety and Java-readable compression [1];
buildFile.xml/moduledata present, data version 1, VassalVersion 3.7, names equal, reserved names
[2, 3]; BOM-free XML [4]; every referenced image exists with exact case [10]; gpids unique,
decimal, below nextPieceSlotId, equal to the BasicPiece state [8, 13]; every PieceSlot/CardSlot/
PrototypeDefinition decodes with state levels == type levels, known trait ids, existing
prototypes without cycles, emb2/rotate/mark/restrict details [13, 14]; maps and boards named
and unique, interaction children, grid numbering values [7, 9]; help/chart/PDF/setup files
exist [11]; roster sides unique [12]; every setup save decodes: begin/end, unique ids, maps and
boards exist, positions inside the map, stacks list earlier ids at the pieces' position,
moduledata name [15-20].
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from lxml import etree

from .archive import Archive, VassalFormatError, open_archive
from .buildfile import FORBIDDEN_MODULE_NAMES, Board, Map, map_size
from .pieces import DecodedPiece, PieceDecodeError, decode_add_piece
from .read import element_path, image_size
from .save import DecodedSave, decode_save_text, deobfuscate
from .sequence import decode

__all__ = [
    "MODULE_CHECKS",
    "REQUIRED_MAP_CHILDREN",
    "SAVE_CHECKS",
    "Finding",
    "ModuleContext",
    "SaveContext",
    "lint",
    "lint_archive",
    "lint_bytes",
    "module_check",
    "save_check",
]

VM = "VASSAL.build.module."
ERROR = "error"
WARNING = "warning"

#: Map children without which pieces cannot be moved, menus or zoom do not work (§2.3, §8 9).
REQUIRED_MAP_CHILDREN = tuple(
    VM + "map." + n
    for n in ("BoardPicker", "StackMetrics", "PieceMover", "KeyBufferer", "ForwardToKeyBuffer",
              "MenuDisplayer", "StackExpander", "Scroller", "ForwardToChatter", "MapCenterer",
              "Zoomer", "CounterDetailViewer")
)
_MAP_TAGS = (VM + "Map", VM + "PrivateMap", VM + "PlayerHand")
_SLOT_TAGS = ("VASSAL.build.widget.PieceSlot", "VASSAL.build.widget.CardSlot")
_PIECE_TEXT_TAGS = (*_SLOT_TAGS, VM + "PrototypeDefinition")
_ICON_ATTRS = ("icon", "iconName", "buttonIcon", "markUnmovedIcon", "disabledIcon",
               "persistentIconName", "inIconName", "outIconName", "pickIconName")
_VERSION_37 = re.compile(r"3\.7(\.\d+)?")


@dataclass(frozen=True)
class Finding:
    """One problem: ``severity`` (``error``/``warning``), the archive ``entry`` (e.g.
    ``buildFile.xml`` or ``Scenario1.vsav:savedGame``), an ``element_path`` inside it (``""``
    when not applicable), the ``message`` and the ``check`` that produced it."""

    severity: str
    entry: str
    element_path: str
    message: str
    check: str = ""

    def __str__(self) -> str:
        where = f"{self.entry} {self.element_path}".strip()
        return f"{self.severity}: {where}: {self.message}"


@dataclass
class _Collector:
    findings: list[Finding]
    check: str = ""

    def add(self, severity: str, entry: str, path: str, message: str) -> None:
        self.findings.append(Finding(severity, entry, path, message, self.check))


@dataclass
class MapInfo:
    """What lint knows of a map: edges, board sizes (pixels, None if unknown), ``<setup>``."""

    name: str
    element: etree._Element
    edge_width: int
    edge_height: int
    boards: dict[str, tuple[int, int] | None]
    setup: list[tuple[str, int, int, bool]] | None


@dataclass
class ModuleContext(_Collector):
    """Shared state for module checks. ``root`` is the parsed buildFile (None if unusable)."""

    archive: Archive | None = None
    root: etree._Element | None = None
    moduledata: etree._Element | None = None
    pieces: list[tuple[etree._Element, DecodedPiece]] = field(default_factory=list)
    maps: dict[str, MapInfo] = field(default_factory=dict)
    prototypes: dict[str, DecodedPiece | None] = field(default_factory=dict)
    gpids: set[str] = field(default_factory=set)
    sides: list[str] = field(default_factory=list)

    @property
    def module_name(self) -> str | None:
        return self.root.get("name") if self.root is not None else None

    def iter(self, *tags: str) -> Iterator[etree._Element]:
        if self.root is None:
            return iter(())
        return (el for el in self.root.iter(*tags) if isinstance(el.tag, str))


@dataclass
class SaveContext(_Collector):
    """Shared state for save checks; ``module`` is None when linting a lone ``.vsav``."""

    entry: str = "savedGame"
    save: DecodedSave | None = None
    module: ModuleContext | None = None
    archive: Archive | None = None


MODULE_CHECKS: list[Callable[[ModuleContext], None]] = []
SAVE_CHECKS: list[Callable[[SaveContext], None]] = []


def module_check(fn: Callable[[ModuleContext], None]) -> Callable[[ModuleContext], None]:
    """Register a module check (run in registration order)."""
    MODULE_CHECKS.append(fn)
    return fn


def save_check(fn: Callable[[SaveContext], None]) -> Callable[[SaveContext], None]:
    """Register a save check (run for lone saves and for every module setup file)."""
    SAVE_CHECKS.append(fn)
    return fn


# --------------------------------------------------------------------------- piece checks


def _piece_findings(p: DecodedPiece, prototypes: dict[str, DecodedPiece | None] | None,
                    sides: list[str] | None) -> Iterator[str]:
    """Messages for one decoded piece (§8 items 13-14)."""
    for tid in p.unknown_trait_ids:
        yield f"unknown trait id {tid!r}: VASSAL 3.7 turns it into an empty Marker (§7.3)"
    if prototypes is not None:
        for name in p.prototype_names:
            if name not in prototypes:
                yield f"prototype {name!r} does not exist (VASSAL silently ignores it, §2.7)"
    for type_, state in p.levels:
        if type_.endswith("\\") or state.endswith("\\"):
            yield "a trait field ends with a backslash (§3.1)"
        if type_.startswith("emb2;"):
            fields = decode(type_[5:], ";")
            if len(fields) != 33:
                yield f"emb2; has {len(fields)} fields, expected 33 (§3.5)"
            elif fields[24] != "1":
                yield f"emb2; version is {fields[24]!r}, expected 1 (§3.5)"
            else:
                images = decode(fields[15], ",")
                names = decode(fields[16], ",")
                if len(images) < len(names):
                    yield "emb2; has more level names than images (§8 item 14)"
                try:
                    value = int(state)
                    if value == 0 or abs(value) > len(images):
                        yield f"emb2; state {value} outside ±1..{len(images)} (§3.5)"
                except ValueError:
                    yield f"emb2; state {state!r} is not an integer (§3.5)"
        elif type_.startswith("rotate;"):
            first = decode(type_[7:], ";")[0]
            if not first.isdigit() or int(first) < 1:
                yield f"rotate; facings {first!r} is not an int >= 1 (§3.5)"
        elif type_.startswith("mark;"):
            keys = decode(type_[5:], ",")
            values = decode(state, ",")
            if len(keys) != len(values):
                yield f"mark; has {len(keys)} keys but {len(values)} values (§8 item 14)"
        elif type_.startswith("restrict;") and sides is not None:
            for side in decode(decode(type_[9:], ";")[0], ","):
                if side and side not in sides:
                    yield f"restrict; side {side!r} is not a PlayerRoster side (§8 item 12)"


def _images_of(p: DecodedPiece) -> Iterator[str]:
    """Image names a piece references: BasicPiece image, emb2 images, obs mask image (§8 10)."""
    for type_, _ in p.levels:
        if type_.startswith("piece;"):
            image = decode(type_[6:], ";")
            if len(image) >= 3 and image[2]:
                yield image[2]
        elif type_.startswith("emb2;"):
            fields = decode(type_[5:], ";")
            if len(fields) > 15:
                yield from (i for i in decode(fields[15], ",") if i)
        elif type_.startswith("obs;"):
            fields = decode(type_[4:], ";")
            if len(fields) > 1 and fields[1]:
                yield fields[1]


# --------------------------------------------------------------------------- module checks


@module_check
def check_entries(ctx: ModuleContext) -> None:
    """buildFile.xml and moduledata present and parseable; no BOM (§8 items 2, 4)."""
    arc = ctx.archive
    assert arc is not None
    for entry in ("buildFile.xml", "moduledata"):
        if entry not in arc:
            ctx.add(ERROR, entry, "", f"{entry} is missing (§1)")
            continue
        try:
            data = arc.read(entry)
            if data.startswith(b"\xef\xbb\xbf"):
                ctx.add(ERROR, entry, "", "XML starts with a UTF-8 BOM (§2.1)")
            root = arc.read_xml(entry)
        except VassalFormatError as exc:
            ctx.add(ERROR, entry, "", exc.message)
            continue
        if entry == "buildFile.xml":
            ctx.root = root
        else:
            ctx.moduledata = root


@module_check
def check_metadata(ctx: ModuleContext) -> None:
    """moduledata ``<data version="1">``, VassalVersion 3.7.x in both files, equal names, no
    reserved name (§8 items 2-3)."""
    md, root = ctx.moduledata, ctx.root
    if md is not None:
        if md.tag != "data" or md.get("version") != "1":
            ctx.add(ERROR, "moduledata", md.tag, 'root must be <data version="1"> (§1)')
        vv = (md.findtext("VassalVersion") or "").strip()
        if not _VERSION_37.fullmatch(vv):
            ctx.add(ERROR, "moduledata", "data/VassalVersion",
                    f"VassalVersion {vv!r} is not 3.7.x (§1, §6)")
    if root is not None:
        if root.tag not in ("VASSAL.build.GameModule", "VASSAL.launch.BasicModule"):
            ctx.add(ERROR, "buildFile.xml", root.tag, "root is not VASSAL.build.GameModule")
        vv = root.get("VassalVersion", "")
        if not _VERSION_37.fullmatch(vv):
            ctx.add(ERROR, "buildFile.xml", "GameModule", f"VassalVersion {vv!r} is not 3.7.x")
        name = root.get("name", "")
        if not name.strip():
            ctx.add(ERROR, "buildFile.xml", "GameModule", "module name is empty")
        if name.strip() in FORBIDDEN_MODULE_NAMES:
            ctx.add(ERROR, "buildFile.xml", "GameModule", f"module name {name!r} is reserved (§1)")
        if md is not None and (md.findtext("name") or "").strip() != name.strip():
            ctx.add(ERROR, "moduledata", "data/name",
                    f"name {md.findtext('name')!r} differs from GameModule name {name!r} (§1)")


@module_check
def check_structure(ctx: ModuleContext) -> None:
    """Maps, boards, grids and roster; collects map geometry for the save checks (§8 7, 9, 12)."""
    arc = ctx.archive
    assert arc is not None
    for roster in ctx.iter(VM + "PlayerRoster"):
        for child in roster:
            if isinstance(child.tag, str) and (child.text or "").strip():
                ctx.sides.append(child.text.strip())
    if len(set(ctx.sides)) != len(ctx.sides):
        ctx.add(ERROR, "buildFile.xml", "PlayerRoster", f"duplicate sides {ctx.sides}")
    for el in ctx.iter(*_MAP_TAGS):
        path = element_path(el)
        name = el.get("mapName", "")
        if not name:
            ctx.add(ERROR, "buildFile.xml", path, "map has no mapName (§2.3)")
        elif name in ctx.maps:
            ctx.add(ERROR, "buildFile.xml", path, f"duplicate mapName {name!r}")
        present = {c.tag for c in el if isinstance(c.tag, str)}
        for tag in REQUIRED_MAP_CHILDREN:
            if tag not in present:
                ctx.add(WARNING, "buildFile.xml", path, f"map lacks {tag} (§2.3)")
        boards: dict[str, tuple[int, int] | None] = {}
        setup = None
        for picker in el.findall(VM + "map.BoardPicker"):
            for b in picker.findall(VM + "map.boardPicker.Board"):
                bname = b.get("name", "")
                if not bname:
                    ctx.add(ERROR, "buildFile.xml", element_path(b), "board has no name")
                elif bname in boards:
                    ctx.add(ERROR, "buildFile.xml", element_path(b), f"duplicate board {bname!r}")
                boards[bname] = _board_size(arc, b)
            for s in picker.findall("setup"):
                try:
                    setup = _parse_setup(s.text or "")
                except ValueError as exc:
                    ctx.add(ERROR, "buildFile.xml", element_path(s), f"bad <setup>: {exc}")
        if not boards:
            ctx.add(ERROR, "buildFile.xml", path, "map has no board (§2.4)")
        if name and name not in ctx.maps:
            ctx.maps[name] = MapInfo(name, el, _int(el.get("edgeWidth")),
                                     _int(el.get("edgeHeight")), boards, setup)
    for n in ctx.iter(VM + "map.boardPicker.board.mapgrid.HexGridNumbering",
                      VM + "map.boardPicker.board.mapgrid.SquareGridNumbering"):
        for attr, allowed in (("first", "HV"), ("hType", "NA"), ("vType", "NA")):
            if n.get(attr, "") not in tuple(allowed):
                ctx.add(ERROR, "buildFile.xml", element_path(n),
                        f"{attr}={n.get(attr)!r} must be one of {tuple(allowed)}: an empty or "
                        "wrong value stops the module loading (§7.1)")
    for g in ctx.iter(VM + "map.boardPicker.board.HexGrid", VM + "map.boardPicker.board.SquareGrid"):
        for attr, conv in (("x0", int), ("y0", int), ("dx", float), ("dy", float)):
            if g.get(attr) is not None:
                try:
                    conv(g.get(attr))
                except ValueError:
                    ctx.add(ERROR, "buildFile.xml", element_path(g), f"{attr} is not a number")


def _int(text: str | None) -> int:
    try:
        return int(text or "0")
    except ValueError:
        return 0


def _parse_setup(text: str) -> list[tuple[str, int, int, bool]]:
    from .commands import parse_board_command

    parsed = parse_board_command(text.strip())
    if parsed is None:
        raise ValueError("not a BoardPicker command")
    return parsed[1]


def _board_size(arc: Archive, b: etree._Element) -> tuple[int, int] | None:
    image = b.get("image", "")
    if image and "images/" + image in arc:
        try:
            size = image_size(arc.read("images/" + image))
        except VassalFormatError:
            size = None
        if size:
            return size
    w, h = b.get("width"), b.get("height")
    if w and h and w.isdigit() and h.isdigit():
        return int(w), int(h)
    return None


@module_check
def check_pieces(ctx: ModuleContext) -> None:
    """Every PieceSlot/CardSlot/PrototypeDefinition text decodes, known traits, prototypes
    exist without cycles (§8 items 13-14)."""
    for el in ctx.iter(VM + "PrototypeDefinition"):
        name = el.get("name", "")
        if name in ctx.prototypes:
            ctx.add(ERROR, "buildFile.xml", element_path(el), f"duplicate prototype {name!r}")
        ctx.prototypes[name] = None
    for el in ctx.iter(*_PIECE_TEXT_TAGS):
        path = element_path(el)
        text = (el.text or "").strip()
        try:
            p = decode_add_piece(text)
        except PieceDecodeError as exc:
            ctx.add(ERROR, "buildFile.xml", path, f"piece text does not decode: {exc}")
            continue
        if p.id != "null":
            ctx.add(WARNING, "buildFile.xml", path, f"piece id is {p.id!r}, expected null (§3.3)")
        if p.kind != "piece":
            ctx.add(ERROR, "buildFile.xml", path, f"innermost type is a {p.kind}, not piece;")
            continue
        ctx.pieces.append((el, p))
        if el.tag == VM + "PrototypeDefinition":
            ctx.prototypes[el.get("name", "")] = p
        for message in _piece_findings(p, ctx.prototypes, ctx.sides):
            ctx.add(ERROR, "buildFile.xml", path, message)
    # prototype cycles
    graph = {n: (p.prototype_names if p else []) for n, p in ctx.prototypes.items()}
    for start, refs in graph.items():
        stack, seen = list(refs), set()
        while stack:
            cur = stack.pop()
            if cur == start:
                ctx.add(ERROR, "buildFile.xml", f"PrototypeDefinition[{start}]",
                        "prototype refers to itself through a cycle (§8 item 13)")
                break
            if cur in seen:
                continue
            seen.add(cur)
            stack.extend(graph.get(cur, []))


@module_check
def check_gpids(ctx: ModuleContext) -> None:
    """gpids unique, decimal, below nextPieceSlotId, equal to the BasicPiece state (§8 8, 13)."""
    if ctx.root is None:
        return
    raw_next = ctx.root.get("nextPieceSlotId")
    try:
        next_id = int(raw_next or "")
    except ValueError:
        ctx.add(ERROR, "buildFile.xml", "GameModule",
                f"nextPieceSlotId {raw_next!r} is not an integer (fatal on load, §2.1)")
        next_id = None
    decoded = {id(el): p for el, p in ctx.pieces}
    for el in ctx.iter(*_SLOT_TAGS):
        path = element_path(el)
        gpid = el.get("gpid", "")
        if not gpid.isdigit() or not gpid.isascii():
            ctx.add(ERROR, "buildFile.xml", path, f"gpid {gpid!r} is not decimal (§2.2)")
        else:
            if gpid in ctx.gpids:
                ctx.add(ERROR, "buildFile.xml", path, f"duplicate gpid {gpid} (§2.2)")
            if next_id is not None and int(gpid) >= next_id:
                ctx.add(ERROR, "buildFile.xml", path,
                        f"gpid {gpid} is not below nextPieceSlotId {next_id} (§2.2)")
        ctx.gpids.add(gpid)
        p = decoded.get(id(el))
        if p is not None and p.gpid != gpid:
            ctx.add(ERROR, "buildFile.xml", path,
                    f"BasicPiece state gpid {p.gpid!r} differs from the slot gpid {gpid!r}")


@module_check
def check_images(ctx: ModuleContext) -> None:
    """Every image the buildFile or a piece names exists under images/ with exact case (§8 10)."""
    arc = ctx.archive
    assert arc is not None
    lower = {n.lower(): n for n in arc.names}
    refs: list[tuple[str, str]] = []
    for el in ctx.iter():
        tag = str(el.tag)
        if tag == VM + "map.boardPicker.Board" and el.get("image"):
            refs.append((element_path(el), el.get("image", "")))
        elif tag == VM + "SpecialDieFace" and el.get("icon"):
            refs.append((element_path(el), el.get("icon", "")))
        elif tag in ("VASSAL.build.widget.Chart", VM + "documentation.AboutScreen") and el.get(
            "fileName"
        ):
            refs.append((element_path(el), el.get("fileName", "")))
        for attr in _ICON_ATTRS:
            value = el.get(attr, "")
            if value and not value.startswith("/") and tag != VM + "SpecialDieFace":
                refs.append((element_path(el), value))
    for el, p in ctx.pieces:
        refs.extend((element_path(el), image) for image in _images_of(p))
    for path, image in refs:
        _check_image(ctx, arc, lower, "buildFile.xml", path, image)


def _check_image(ctx: _Collector, arc: Archive, lower: dict[str, str], entry: str, path: str,
                 image: str) -> None:
    name = "images/" + image
    if name in arc:
        return
    hint = f" (found {lower[name.lower()]!r}: case differs)" if name.lower() in lower else ""
    ctx.add(ERROR, entry, path, f"image {image!r} not found under images/{hint} (§1, §7.3)")


@module_check
def check_files(ctx: ModuleContext) -> None:
    """HelpFile/HtmlChart/BrowserPDFFile/PredefinedSetup files exist in the archive (§8 11)."""
    arc = ctx.archive
    assert arc is not None
    for el in ctx.iter():
        tag, path = str(el.tag), None
        archive_help = tag == VM + "documentation.HelpFile" and el.get("fileType",
                                                                         "archive") == "archive"
        if archive_help or tag == "VASSAL.build.widget.HtmlChart":
            path = el.get("fileName")
        elif tag == VM + "documentation.BrowserPDFFile":
            path = el.get("pdfFile")
        elif (tag == VM + "PredefinedSetup" and el.get("isMenu") != "true"
              and el.get("useFile") == "true"):
            path = el.get("file") or ""
            if not path:
                ctx.add(ERROR, "buildFile.xml", element_path(el), "setup has no file")
                continue
        if path and path not in arc:
            ctx.add(ERROR, "buildFile.xml", element_path(el),
                    f"file {path!r} does not exist in the archive (§2.9-2.10)")


@module_check
def check_setups(ctx: ModuleContext) -> None:
    """Every PredefinedSetup save decodes and fits the module (§8 items 11, 15-20)."""
    arc = ctx.archive
    assert arc is not None
    for el in ctx.iter(VM + "PredefinedSetup"):
        path = el.get("file") or ""
        if el.get("isMenu") == "true" or el.get("useFile") != "true" or path not in arc:
            continue
        try:
            data = arc.read(path)
            inner = open_archive(data)
        except VassalFormatError as exc:
            ctx.add(ERROR, path, "", f"setup file is not a valid .vsav: {exc.message}")
            continue
        with inner:
            _lint_save(inner, path, ctx.findings, module=ctx)


# --------------------------------------------------------------------------- save checks


@save_check
def check_save_entries(ctx: SaveContext) -> None:
    """savedGame decodes (!VCSK or plain UTF-8); savedata/moduledata present; moduledata name
    equals the module name (§8 items 15-17)."""
    arc = ctx.archive
    assert arc is not None
    for entry in ("savedGame", "savedata", "moduledata"):
        if entry not in arc:
            ctx.add(ERROR, ctx.entry, "", f"save has no {entry} entry (§4.1)")
    if "savedGame" not in arc:
        return
    try:
        ctx.save = decode_save_text(deobfuscate(arc.read("savedGame")))
    except VassalFormatError as exc:
        ctx.add(ERROR, f"{ctx.entry}:savedGame", "", exc.message)
        return
    for index, message in ctx.save.problems:
        ctx.add(ERROR, f"{ctx.entry}:savedGame", _cmd_path(index), message)
    if "moduledata" in arc and ctx.module is not None and ctx.module.module_name is not None:
        try:
            name = (arc.read_xml("moduledata").findtext("name") or "").strip()
        except VassalFormatError as exc:
            ctx.add(ERROR, f"{ctx.entry}:moduledata", "", exc.message)
        else:
            if name != ctx.module.module_name.strip():
                ctx.add(ERROR, f"{ctx.entry}:moduledata", "data/name",
                        f"save is for module {name!r}, not {ctx.module.module_name!r} (§4.1)")


def _cmd_path(index: int) -> str:
    return f"command[{index}]" if index >= 0 else ""


@save_check
def check_save_pieces(ctx: SaveContext) -> None:
    """Pieces pass the piece checks; maps/boards exist; positions inside the map; stacks at
    their pieces' position; gpids known to the module (§8 items 18-20)."""
    save, mod = ctx.save, ctx.module
    if save is None:
        return
    entry = f"{ctx.entry}:savedGame"
    index = {c: i for i, c in enumerate(save.commands)}
    protos = mod.prototypes if mod is not None else None
    sides = mod.sides if mod is not None else None
    by_id = {p.id: p for p in save.pieces}
    bounds: dict[str, tuple[int, int] | None] = {}
    if mod is not None:
        for name, info in mod.maps.items():
            bounds[name] = _map_bounds(ctx, entry, info, save.boards.get(name))
        for name in save.boards:
            if name not in mod.maps:
                ctx.add(ERROR, entry, "", f"board command for unknown map {name!r}")
    for p in [*save.pieces, *save.stacks]:
        path = f"piece[{p.id}]"
        for message in _piece_findings(p, protos, sides) if p.kind == "piece" else ():
            ctx.add(ERROR, entry, path, message)
        if mod is None or p.map_name in (None, "null"):
            continue
        if p.map_name not in mod.maps:
            ctx.add(ERROR, entry, path, f"map {p.map_name!r} does not exist (§4.4)")
            continue
        size = bounds.get(p.map_name)
        if size is not None and p.x is not None and p.y is not None:
            w, h = size
            if not (0 <= p.x < w and 0 <= p.y < h):
                ctx.add(ERROR, entry, path,
                        f"position ({p.x}, {p.y}) is outside map {p.map_name!r} "
                        f"(0..{w - 1}, 0..{h - 1})")
        if p.kind == "piece" and p.gpid and p.gpid not in mod.gpids:
            ctx.add(WARNING, entry, path, f"gpid {p.gpid!r} matches no PieceSlot (§4.4)")
    for s in save.stacks:
        assert s.stack is not None
        for pid in s.stack.piece_ids:
            member = by_id.get(pid)
            if member is not None and (member.map_name, member.x, member.y) != (
                s.stack.map_name, s.stack.x, s.stack.y
            ):
                ctx.add(ERROR, entry, f"piece[{s.id}]",
                        f"stack is at {s.stack.map_name};{s.stack.x};{s.stack.y} but piece "
                        f"{pid} is at {member.map_name};{member.x};{member.y} (§4.4)")
    del index


def _map_bounds(ctx: SaveContext, entry: str, info: MapInfo,
                placed: list[tuple[str, int, int, bool]] | None) -> tuple[int, int] | None:
    placements = placed if placed is not None else info.setup
    if placements is None:
        if len(info.boards) != 1:
            ctx.add(ERROR, entry, "", f"map {info.name!r} has several boards but neither the "
                    "save nor the module chooses them (§8 item 20)")
            return None
        placements = [(next(iter(info.boards)), 0, 0, False)]
    for b, _c, _r, _rev in placements:
        if b not in info.boards:
            ctx.add(ERROR, entry, "", f"map {info.name!r} has no board {b!r}")
            return None
        if info.boards[b] is None:
            ctx.add(WARNING, entry, "", f"size of board {b!r} unknown; bounds not checked")
            return None
    boards = [Board(b, None, *info.boards[b]) for b, *_ in placements]  # type: ignore[misc]
    m = Map(info.name, boards, edge_width=info.edge_width, edge_height=info.edge_height)
    return map_size(m, [(b, c, r) for b, c, r, _ in placements])


# --------------------------------------------------------------------------- entry points


def _lint_save(arc: Archive, entry: str, findings: list[Finding],
               module: ModuleContext | None = None) -> None:
    ctx = SaveContext(findings, entry=entry, module=module, archive=arc)
    for check in SAVE_CHECKS:
        ctx.check = check.__name__
        check(ctx)


def lint_archive(arc: Archive, name: str = "") -> list[Finding]:
    """Lint an opened archive: a module if it has ``buildFile.xml`` or ``moduledata`` without
    ``savedGame``, else a save."""
    findings: list[Finding] = []
    if "savedGame" in arc and "buildFile.xml" not in arc:
        _lint_save(arc, os.path.basename(name) or "save", findings)
        return findings
    ctx = ModuleContext(findings, archive=arc)
    for check in MODULE_CHECKS:
        ctx.check = check.__name__
        if check is not check_entries and ctx.root is None:
            if check is check_metadata:
                check(ctx)
            continue
        check(ctx)
    return findings


def lint_bytes(data: bytes, name: str = "") -> list[Finding]:
    """Lint archive bytes (see :func:`lint`)."""
    try:
        arc = open_archive(data)
    except VassalFormatError as exc:
        return [Finding(ERROR, exc.entry or os.path.basename(name), "", exc.message, "archive")]
    with arc:
        return lint_archive(arc, name)


def lint(path: str | os.PathLike[str]) -> list[Finding]:
    """Lint a ``.vmod`` or ``.vsav`` file and return every :class:`Finding` (errors and
    warnings). Never raises for a bad file: unreadable or unsafe archives are findings."""
    try:
        arc = open_archive(path)
    except VassalFormatError as exc:
        return [Finding(ERROR, exc.entry or os.path.basename(os.fspath(path)), "", exc.message,
                        "archive")]
    with arc:
        return lint_archive(arc, os.fspath(path))
