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
moduledata name [15-20]; every element a 3.7 class (whitelist in :mod:`.classes`, generated
from the VASSAL 3.7.26 source) under an allowed parent, typed attributes parse [5-7];
PlaceMarker/Replace gpids [8]; GKC target enums and key-stroke fields [14]; extensions:
extensiondata with universal, module name, extensionId, one child per ExtensionElement, targets
resolving against the base module, ``extId:n`` gpids [21-24]. :func:`lint` also takes a bare
buildFile.xml (archive checks skipped) and, for an extension, its base module.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from lxml import etree

from .archive import DEFAULT_EPOCH, Archive, Limits, VassalFormatError, archive_bytes, open_archive
from .buildfile import FORBIDDEN_MODULE_NAMES, Board, Map, map_size
from .pieces import DecodedPiece, PieceDecodeError, decode_add_piece
from .read import element_path, image_size, short_tag
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
    "lint_buildfile_bytes",
    "lint_bytes",
    "module_check",
    "resolve_target",
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
    #: the entry holding the buildFile (``buildFile.xml``, or ``buildFile`` before 3.5, §1)
    buildfile_entry: str = "buildFile.xml"
    #: True when linting a bare buildFile (no archive: image/file/setup checks are skipped)
    bare: bool = False
    #: ``extension`` when the root is ``ModuleExtension`` (§5), else ``module``
    kind: str = "module"
    #: the base module's context when linting an extension against it (§5, §8 item 23)
    base: ModuleContext | None = None

    @property
    def module_name(self) -> str | None:
        if self.root is None:
            return None
        # an extension's setups are loaded into its base module (§5)
        return self.root.get("module" if self.kind == "extension" else "name")

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
            # 3.7 appended fields 32-33 (§6); older strings with 25-31 fields still parse.
            if not 25 <= len(fields) <= 33:
                yield f"emb2; has {len(fields)} fields, expected 25 to 33 (§3.5, §6)"
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
    """The buildFile and metadata entries present and parseable; no BOM (§1, §8 items 2, 4, 21).

    VASSAL reads ``buildFile`` instead of ``buildFile.xml`` when the metadata's VassalVersion is
    below 3.5 (§1); a module with only ``buildFile`` is read that way. An extension (root
    ``ModuleExtension`` or an ``extensiondata`` entry) needs ``extensiondata`` (§5)."""
    arc = ctx.archive
    assert arc is not None
    if "buildFile.xml" not in arc and "buildFile" in arc:
        ctx.buildfile_entry = "buildFile"
    meta = "extensiondata" if "extensiondata" in arc else "moduledata"
    wanted = [ctx.buildfile_entry] + ([] if ctx.bare else [meta])
    for entry in wanted:
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
        if entry == ctx.buildfile_entry:
            ctx.root = root
        else:
            ctx.moduledata = root
    if ctx.root is not None and ctx.root.tag == VM + "ModuleExtension":
        ctx.kind = "extension"
        if not ctx.bare:
            for entry in ("extensiondata", "moduledata"):
                if entry not in arc:
                    ctx.add(ERROR, entry, "", f"an extension needs {entry} (§5, §8 item 21)")


def _version(text: str) -> tuple[int, int] | None:
    m = re.match(r"\s*(\d+)\.(\d+)", text or "")
    return (int(m.group(1)), int(m.group(2))) if m else None


@module_check
def check_metadata(ctx: ModuleContext) -> None:
    """Metadata ``<data version="1">``; VassalVersion 3.5 to 3.7 (3.7.x recommended); equal
    names; no reserved name (§1, §6, §8 items 2-3).

    Errors are what stops 3.7 opening the file: a metadata VassalVersion of 3.8 or more ("module
    too new"), or an empty/pre-3.5 one when there is no ``buildFile`` entry ("Could not find
    buildFile"). Other versions are warnings: a module made with 3.6 opens in 3.7."""
    md, root = ctx.moduledata, ctx.root
    bf = ctx.buildfile_entry
    if md is not None:
        md_entry = "extensiondata" if ctx.kind == "extension" else "moduledata"
        if md.tag != "data" or md.get("version") != "1":
            ctx.add(ERROR, md_entry, md.tag, 'root must be <data version="1"> (§1)')
        vv = (md.findtext("VassalVersion") or "").strip()
        ver = _version(vv)
        if ver is not None and ver >= (3, 8):
            ctx.add(ERROR, md_entry, "data/VassalVersion",
                    f"VassalVersion {vv!r}: VASSAL 3.7 refuses a module this new (§1, §7.1)")
        elif (ver is None or ver < (3, 5)) and bf == "buildFile.xml":
            ctx.add(ERROR, md_entry, "data/VassalVersion",
                    f"VassalVersion {vv!r} makes VASSAL look for 'buildFile', which is missing "
                    "(§1, §7.1)")
        elif not _VERSION_37.fullmatch(vv):
            ctx.add(WARNING, md_entry, "data/VassalVersion", f"VassalVersion {vv!r} is not 3.7.x")
        if ctx.kind == "extension" and md_entry == "extensiondata":
            if md.find("universal") is None:
                ctx.add(ERROR, "extensiondata", "data", "extensiondata has no <universal> (§5)")
    if root is not None:
        if ctx.kind == "extension":
            return
        if root.tag not in ("VASSAL.build.GameModule", "VASSAL.launch.BasicModule"):
            ctx.add(ERROR, bf, root.tag, "root is not VASSAL.build.GameModule")
        vv = root.get("VassalVersion", "")
        ver = _version(vv)
        if ver is not None and ver >= (3, 8):
            ctx.add(WARNING, bf, "GameModule",
                    f"VassalVersion {vv!r} is newer than 3.7: a 'Version Mismatch' dialog (§2.2)")
        elif not _VERSION_37.fullmatch(vv):
            ctx.add(WARNING, bf, "GameModule", f"VassalVersion {vv!r} is not 3.7.x")
        name = root.get("name", "")
        if not name.strip():
            ctx.add(ERROR, bf, "GameModule", "module name is empty")
        if name.strip() in FORBIDDEN_MODULE_NAMES:
            ctx.add(ERROR, bf, "GameModule", f"module name {name!r} is reserved (§1)")
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
        ctx.add(ERROR, ctx.buildfile_entry, "PlayerRoster", f"duplicate sides {ctx.sides}")
    for el in ctx.iter(*_MAP_TAGS):
        path = element_path(el)
        name = el.get("mapName", "")
        if not name:
            ctx.add(ERROR, ctx.buildfile_entry, path, "map has no mapName (§2.3)")
        elif name in ctx.maps:
            ctx.add(ERROR, ctx.buildfile_entry, path, f"duplicate mapName {name!r}")
        present = {c.tag for c in el if isinstance(c.tag, str)}
        for tag in REQUIRED_MAP_CHILDREN:
            if tag not in present:
                ctx.add(WARNING, ctx.buildfile_entry, path, f"map lacks {tag} (§2.3)")
        boards: dict[str, tuple[int, int] | None] = {}
        setup = None
        for picker in el.findall(VM + "map.BoardPicker"):
            for b in picker.findall(VM + "map.boardPicker.Board"):
                bname = b.get("name", "")
                if not bname:
                    ctx.add(WARNING, ctx.buildfile_entry, element_path(b),
                            "board has no name: 'One of the boards … has no name' (§7.3)")
                elif bname in boards:
                    ctx.add(ERROR, ctx.buildfile_entry, element_path(b), f"duplicate board {bname!r}")
                boards[bname] = _board_size(arc, b)
            for s in picker.findall("setup"):
                try:
                    setup = _parse_setup(s.text or "")
                except ValueError as exc:
                    ctx.add(ERROR, ctx.buildfile_entry, element_path(s), f"bad <setup>: {exc}")
        if not boards:
            ctx.add(ERROR, ctx.buildfile_entry, path, "map has no board (§2.4)")
        if name and name not in ctx.maps:
            ctx.maps[name] = MapInfo(name, el, _int(el.get("edgeWidth")),
                                     _int(el.get("edgeHeight")), boards, setup)
    for n in ctx.iter(VM + "map.boardPicker.board.mapgrid.HexGridNumbering",
                      VM + "map.boardPicker.board.mapgrid.SquareGridNumbering"):
        for attr, allowed in (("first", "HV"), ("hType", "NA"), ("vType", "NA")):
            if n.get(attr, "") not in tuple(allowed):
                ctx.add(ERROR, ctx.buildfile_entry, element_path(n),
                        f"{attr}={n.get(attr)!r} must be one of {tuple(allowed)}: an empty or "
                        "wrong value stops the module loading (§7.1)")
    for g in ctx.iter(VM + "map.boardPicker.board.HexGrid", VM + "map.boardPicker.board.SquareGrid"):
        for attr, conv in (("x0", int), ("y0", int), ("dx", float), ("dy", float)):
            if g.get(attr) is not None:
                try:
                    value = conv(g.get(attr))
                except ValueError:
                    continue  # reported by the attribute-type check
                if attr in ("dx", "dy") and not (math.isfinite(value) and value > 0):
                    ctx.add(ERROR, ctx.buildfile_entry, element_path(g),
                            f"{attr}={g.get(attr)!r}: the grid spacing must be a positive number of "
                            "pixels (VASSAL divides by it to find a hex)")


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
            ctx.add(ERROR, ctx.buildfile_entry, element_path(el), f"duplicate prototype {name!r}")
        ctx.prototypes[name] = None
    for el in ctx.iter(*_PIECE_TEXT_TAGS):
        path = element_path(el)
        text = (el.text or "").strip()
        try:
            p = decode_add_piece(text)
        except PieceDecodeError as exc:
            ctx.add(ERROR, ctx.buildfile_entry, path, f"piece text does not decode: {exc}")
            continue
        if p.id != "null":
            ctx.add(WARNING, ctx.buildfile_entry, path, f"piece id is {p.id!r}, expected null (§3.3)")
        if p.kind != "piece":
            ctx.add(ERROR, ctx.buildfile_entry, path, f"innermost type is a {p.kind}, not piece;")
            continue
        ctx.pieces.append((el, p))
        if el.tag == VM + "PrototypeDefinition":
            ctx.prototypes[el.get("name", "")] = p
        if ctx.kind == "extension":
            known = None if ctx.base is None else {**ctx.base.prototypes, **ctx.prototypes}
            sides = None if ctx.base is None else ctx.base.sides + ctx.sides
        else:
            known, sides = ctx.prototypes, ctx.sides
        for message in _piece_findings(p, known, sides):
            ctx.add(ERROR, ctx.buildfile_entry, path, message)
    # prototype cycles
    graph = {n: (p.prototype_names if p else []) for n, p in ctx.prototypes.items()}
    for start, refs in graph.items():
        stack, seen = list(refs), set()
        while stack:
            cur = stack.pop()
            if cur == start:
                ctx.add(ERROR, ctx.buildfile_entry, f"PrototypeDefinition[{start}]",
                        "prototype refers to itself through a cycle (§8 item 13)")
                break
            if cur in seen:
                continue
            seen.add(cur)
            stack.extend(graph.get(cur, []))


@module_check
def check_gpids(ctx: ModuleContext) -> None:
    """gpids of PieceSlots, CardSlots and PlaceMarker/Replace traits (also inside prototypes)
    unique and below ``nextPieceSlotId``; decimal in a module, ``extensionId:n`` in an extension;
    the BasicPiece state gpid equals the slot's (§2.2, §5, §8 items 8, 13, 24)."""
    if ctx.root is None:
        return
    bf = ctx.buildfile_entry
    raw_next = ctx.root.get("nextPieceSlotId")
    try:
        next_id = int(raw_next or "")
    except ValueError:
        sev = ERROR if ctx.kind == "module" else WARNING
        ctx.add(sev, bf, short_tag(str(ctx.root.tag)),
                f"nextPieceSlotId {raw_next!r} is not an integer (fatal on load, §2.1)")
        next_id = None
    ext_id = ctx.root.get("extensionId", "") if ctx.kind == "extension" else None

    def number(gpid: str) -> int | None:
        if ext_id is not None:
            prefix, sep, n = gpid.rpartition(":")
            if not sep or prefix != ext_id or not (n.isdigit() and n.isascii()):
                return None
            return int(n)
        return int(gpid) if gpid.isdigit() and gpid.isascii() else None

    form = f"'{ext_id}:n'" if ext_id is not None else "decimal"

    def seen(path: str, gpid: str, what: str) -> None:
        n = number(gpid)
        if n is None:
            ctx.add(ERROR, bf, path, f"{what} gpid {gpid!r} is not {form} (§2.2, §5)")
        else:
            if gpid in ctx.gpids:
                ctx.add(ERROR, bf, path, f"duplicate gpid {gpid} (§2.2)")
            if next_id is not None and n >= next_id:
                ctx.add(ERROR, bf, path,
                        f"gpid {gpid} is not below nextPieceSlotId {next_id} (§2.2)")
        ctx.gpids.add(gpid)

    decoded = {id(el): p for el, p in ctx.pieces}
    for el in ctx.iter(*_SLOT_TAGS):
        path = element_path(el)
        gpid = el.get("gpid", "")
        seen(path, gpid, "slot")
        p = decoded.get(id(el))
        if p is not None and p.gpid != gpid:
            ctx.add(ERROR, bf, path,
                    f"BasicPiece state gpid {p.gpid!r} differs from the slot gpid {gpid!r}")
    for el, p in ctx.pieces:
        for type_, _ in p.levels:
            if type_.startswith(("placemark;", "replace;")):
                fields = decode(type_.split(";", 1)[1], ";")
                gpid = fields[9] if len(fields) > 9 else ""
                if gpid:
                    seen(element_path(el), gpid, type_.split(";", 1)[0])


@module_check
def check_images(ctx: ModuleContext) -> None:
    """Every image the buildFile or a piece names exists under images/ with exact case (§8 10)."""
    if ctx.bare:
        return
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
        _check_image(ctx, arc, lower, ctx.buildfile_entry, path, image)


def _check_image(ctx: _Collector, arc: Archive, lower: dict[str, str], entry: str, path: str,
                 image: str) -> None:
    name = "images/" + image
    if name in arc:
        return
    severity = ERROR
    if isinstance(ctx, ModuleContext) and ctx.kind == "extension":
        # an extension's images are looked up after the module's own (§5)
        base = ctx.base
        if base is None:
            severity = WARNING
        elif base.archive is not None and name in base.archive:
            return
    hint = f" (found {lower[name.lower()]!r}: case differs)" if name.lower() in lower else ""
    ctx.add(severity, entry, path, f"image {image!r} not found under images/{hint} (§1, §7.3)")


@module_check
def check_files(ctx: ModuleContext) -> None:
    """HelpFile/HtmlChart/BrowserPDFFile/PredefinedSetup files exist in the archive (§8 11)."""
    if ctx.bare:
        return
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
                ctx.add(ERROR, ctx.buildfile_entry, element_path(el), "setup has no file")
                continue
        if path and path not in arc:
            ctx.add(ERROR, ctx.buildfile_entry, element_path(el),
                    f"file {path!r} does not exist in the archive (§2.9-2.10)")


@module_check
def check_setups(ctx: ModuleContext) -> None:
    """Every PredefinedSetup save decodes and fits the module (§8 items 11, 15-20)."""
    if ctx.bare:
        return
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


@module_check
def check_classes(ctx: ModuleContext) -> None:
    """Every element is a VASSAL 3.7 class under an allowed parent, and its typed attributes
    parse (§2.1, §7.1-7.2, §8 items 5-7).

    Unknown ``VASSAL.*`` classes and misplaced children are errors ("failed to load class", the
    ancestor dropped). A class outside ``VASSAL.*`` is a module's own Java class: an error when
    the archive lacks its ``.class`` file, else a warning. Attribute values are checked against
    how VASSAL 3.7.26 parses them (:mod:`.attribute_rules`, read from each class's
    ``setAttribute``): a value that makes the parse throw or shows "Bad Data" is an error, one
    silently read as a default (false, no key, an enum's fallback) a warning."""
    from .attribute_rules import check_attributes, has_rules
    from .components import (
        TEXT_CHILDREN,
        attribute_type,
        child_allowed,
        is_known_class,
        value_problem,
    )

    if ctx.root is None:
        return
    bf = ctx.buildfile_entry
    arc = ctx.archive
    root_tag = str(ctx.root.tag)
    for el in ctx.iter():
        tag = str(el.tag)
        parent = el.getparent()
        ptag = str(parent.tag) if parent is not None else None
        if ptag in TEXT_CHILDREN and (TEXT_CHILDREN[ptag] is None or tag in TEXT_CHILDREN[ptag]):
            continue
        if ptag is not None and ptag == VM + "ExtensionElement":
            ptag = None  # its one child goes to the target, checked by check_extension
        path = element_path(el)
        known = is_known_class(tag)
        if not known and el is not ctx.root:
            if tag.startswith("VASSAL."):
                ctx.add(ERROR, bf, path, f"class {tag} does not exist in VASSAL 3.7: "
                        "'failed to load class', the component is dropped (§7.2, §8 item 5)")
            else:
                cls_entry = tag.replace(".", "/") + ".class"
                if ctx.bare or (arc is not None and cls_entry in arc):
                    ctx.add(WARNING, bf, path, f"custom class {tag} (module code, §8 item 5)")
                else:
                    ctx.add(ERROR, bf, path, f"custom class {tag} but the archive has no "
                            f"{cls_entry}: 'failed to load class' (§7.2)")
            continue
        if ptag is not None and is_known_class(ptag) and ptag != root_tag or (
            ptag == root_tag and ctx.kind == "module"
        ):
            ok = child_allowed(ptag, tag) if ptag is not None else None
            if ok is False:
                where = "the module root: the module does not open" if ptag == root_tag else (
                    "its ancestor is dropped with a bug dialog")
                ctx.add(ERROR, bf, path, f"{short_tag(tag)} is not allowed under "
                        f"{short_tag(ptag)}: {where} (§2.1, §8 item 6)")
        if has_rules(tag):  # how VASSAL 3.7.26 really parses each attribute
            for severity, message in check_attributes(tag, el.attrib, is_root=el is ctx.root):
                ctx.add(severity, bf, path, message)
            continue
        for attr, value in el.attrib.items():
            kind = attribute_type(tag, attr)
            if kind is None:
                continue
            problem = value_problem(kind, value)
            if problem is None:
                continue
            severity = ERROR if kind in ("int", "double", "color") else WARNING
            ctx.add(severity, bf, path, f"{attr}={value!r}: {problem} (§2.1, §8 item 7)")


#: Key-stroke fields (0-based, after the trait id) of the traits of §3.5.
TRAIT_KEY_FIELDS: dict[str, tuple[int, ...]] = {
    "delete;": (1,), "clone;": (1,), "label;": (0,), "sendto;": (1, 7),
    "emb2;": (10, 19, 26, 27, 28), "globalkey;": (1, 2), "macro;": (2, 7, 8),
    "footprint;": (0, 12, 13, 14), "obs;": (0,), "placemark;": (1, 7), "replace;": (1, 7),
}
#: Enums of a Global Key Command target (``GlobalCommandTarget.decode``, §3.5).
GKC_TYPES = ("COUNTER", "MAP", "MODULE", "DECK")
GKC_TARGETS = ("CURSTACK", "CURMAP", "CURZONE", "CURLOC", "MAP", "ZONE", "LOCATION", "XY",
               "DECK", "CURMAT", "CURATTACH")
GKC_COMPARE = ("EQUALS", "NOT_EQUALS", "GREATER", "GREATER_EQUALS", "LESS", "LESS_EQUALS",
               "MATCH", "NOT_MATCH")


def gkc_target_problems(target: str) -> list[str]:
    """Problems of a ``|``-encoded Global Key Command target: an unknown GKC type, target type
    or compare mode throws when the piece is built (§3.5, §7.2, §8 item 14).

    >>> gkc_target_problems("COUNTER|false|MAP|||||0|0||false|||EQUALS||")
    []
    >>> gkc_target_problems("COUNTER|false|EVERYWHERE")
    ["target type 'EVERYWHERE' is not one of CURSTACK, CURMAP, CURZONE, CURLOC, MAP, ZONE, LOCATION, XY, DECK, CURMAT, CURATTACH"]
    """
    if not target:
        return []
    parts = decode(target, "|")
    out = []
    for index, allowed, what in ((0, GKC_TYPES, "GKC type"), (2, GKC_TARGETS, "target type"),
                                 (13, GKC_COMPARE, "compare mode")):
        if len(parts) > index and parts[index] and parts[index] not in allowed:
            out.append(f"{what} {parts[index]!r} is not one of {', '.join(allowed)}")
    return out


def _trait_detail_findings(p: DecodedPiece) -> Iterator[tuple[str, str]]:
    from .components import value_problem

    for type_, _ in p.levels:
        tid = type_.split(";", 1)[0] + ";" if ";" in type_ else type_
        if tid not in TRAIT_KEY_FIELDS and tid != "globalkey;":
            continue
        fields = decode(type_[len(tid):], ";")
        for i in TRAIT_KEY_FIELDS.get(tid, ()):
            if i < len(fields) and len(fields[i]) > 1 and value_problem("key", fields[i]):
                yield WARNING, f"{tid} field {i + 1} {fields[i]!r} is not a key stroke (§3.4)"
        if tid == "globalkey;" and len(fields) > 11:
            for problem in gkc_target_problems(fields[11]):
                yield ERROR, f"globalkey; {problem}: throws when the piece is built (§7.2)"


@module_check
def check_trait_details(ctx: ModuleContext) -> None:
    """Per-trait checks beyond :func:`check_pieces`: GKC target enums (trait and the
    ``target`` attribute of Global/Mass/Deck key commands), key-stroke fields (§8 item 14)."""
    bf = ctx.buildfile_entry
    for el, p in ctx.pieces:
        for severity, message in _trait_detail_findings(p):
            ctx.add(severity, bf, element_path(el), message)
    for el in ctx.iter(VM + "GlobalKeyCommand", VM + "map.MassKeyCommand",
                       VM + "map.DeckGlobalKeyCommand", VM + "StartupGlobalKeyCommand"):
        for problem in gkc_target_problems(el.get("target", "")):
            ctx.add(ERROR, bf, element_path(el), f"target: {problem} (§8 item 14)")


def _target_segments(target: str) -> list[tuple[str, str | None]]:
    """Split an ExtensionElement ``target`` into ``(class, name)`` segments (§5): ``/`` joins
    segments, ``:`` separates class and name, ``\\`` escapes both."""
    segments: list[tuple[str, str | None]] = []
    if not target:
        return segments
    cur, parts, esc = "", [], False
    for ch in target + "/":
        if esc:
            cur += ch
            esc = False
        elif ch == "\\":
            esc = True
        elif ch == ":" and not parts:
            parts.append(cur)
            cur = ""
        elif ch == "/":
            if parts:
                segments.append((parts[0], cur))
            else:
                segments.append((cur, None))
            cur, parts = "", []
        else:
            cur += ch
    return segments


def _component_name(el: etree._Element) -> str:
    from .read import NAME_ATTRS

    for attr in NAME_ATTRS:
        if el.get(attr) is not None:
            return el.get(attr, "")
    return ""


def resolve_target(root: etree._Element, target: str) -> etree._Element | None:
    """The element of the base module tree ``root`` that an ExtensionElement ``target`` names,
    as ``ComponentPathBuilder`` resolves it (§5): by class and name; when the name does not
    match, the first component of that class for the *last* segment, every candidate for earlier
    ones. None when nothing matches ("Could not find … in …")."""
    from .components import ALIASES

    segments = _target_segments(target)

    def walk(node: etree._Element, i: int) -> etree._Element | None:
        if i == len(segments):
            return node
        cls, name = segments[i]
        kids = [c for c in node if isinstance(c.tag, str) and ALIASES.get(c.tag, c.tag) == cls]
        named = [c for c in kids if name is not None and _component_name(c) == name]
        if i == len(segments) - 1:
            pick = named or kids[:1]
            return pick[0] if pick else None
        for c in named or kids:
            found = walk(c, i + 1)
            if found is not None:
                return found
        return None

    return walk(root, 0)


@module_check
def check_extension(ctx: ModuleContext) -> None:
    """An extension's root and wrappers (§5, §8 items 22-23): ``module`` equals the base name
    (unless ``anyModule``), a non-empty ``extensionId``, every top-level child an
    ``ExtensionElement`` with exactly one child element, and each ``target`` resolving against
    the base module when one is given."""
    if ctx.root is None or ctx.kind != "extension":
        return
    bf, root = ctx.buildfile_entry, ctx.root
    if not root.get("extensionId", "").strip():
        ctx.add(ERROR, bf, "ModuleExtension", "extensionId is empty (§5)")
    universal = root.get("anyModule") == "true"
    base = ctx.base
    if base is not None and base.root is not None and not universal:
        if root.get("module", "") != base.root.get("name", ""):
            ctx.add(ERROR, bf, "ModuleExtension",
                    f"module {root.get('module', '')!r} is not the base module's name "
                    f"{base.root.get('name', '')!r}: the extension is deactivated (§5, §7.3)")
    elif not universal and not root.get("module", "").strip():
        ctx.add(ERROR, bf, "ModuleExtension", "module is empty and anyModule is not true (§5)")
    md = ctx.moduledata
    if md is not None and md.find("universal") is not None:
        if (md.findtext("universal") or "").strip() != ("true" if universal else "false"):
            ctx.add(WARNING, "extensiondata", "data/universal",
                    "universal differs from the root's anyModule (§5)")
    for child in root:
        if not isinstance(child.tag, str):
            continue
        path = element_path(child)
        if child.tag != VM + "ExtensionElement":
            ctx.add(ERROR, bf, path, "a bare child of ModuleExtension is added to the extension "
                    "itself and usually fails; wrap it in an ExtensionElement (§5)")
            continue
        kids = [c for c in child if isinstance(c.tag, str)]
        if len(kids) != 1:
            ctx.add(ERROR, bf, path,
                    f"ExtensionElement has {len(kids)} child elements; exactly one (§5, §8 23)")
        target = child.get("target")
        if target is None:
            ctx.add(ERROR, bf, path, "ExtensionElement has no target attribute (§5)")
        elif base is not None and base.root is not None:
            parent = resolve_target(base.root, target)
            if parent is None:
                ctx.add(ERROR, bf, path, f"target {target!r} does not resolve in the base "
                        "module: 'Could not find …', the extension fails to load (§5)")
            elif kids:
                from .components import child_allowed

                if child_allowed(str(parent.tag), str(kids[0].tag)) is False:
                    ctx.add(ERROR, bf, element_path(kids[0]),
                            f"{short_tag(str(kids[0].tag))} is not allowed under target "
                            f"{short_tag(str(parent.tag))} (§5, §8 item 6)")


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


def _module_context(arc: Archive, findings: list[Finding], *, bare: bool = False,
                    base: ModuleContext | None = None) -> ModuleContext:
    ctx = ModuleContext(findings, archive=arc, bare=bare, base=base)
    for check in MODULE_CHECKS:
        ctx.check = check.__name__
        if check is not check_entries and ctx.root is None:
            if check is check_metadata:
                check(ctx)
            continue
        check(ctx)
    return ctx


def lint_archive(arc: Archive, name: str = "", *, base: Archive | None = None,
                 bare: bool = False) -> list[Finding]:
    """Lint an opened archive (§8): a save if it has ``savedGame`` and no buildFile, else a
    module or, when its root is ``ModuleExtension``, an extension. ``base`` is the module an
    extension extends: with it the extension's ``module`` name, targets, prototypes and images
    are checked against the module (§5). ``bare``: the archive only holds a buildFile (from
    :func:`lint_buildfile_bytes`), so image, file and setup checks are skipped."""
    findings: list[Finding] = []
    if "savedGame" in arc and not ({"buildFile.xml", "buildFile"} & set(arc.names)):
        _lint_save(arc, os.path.basename(name) or "save", findings)
        return findings
    base_ctx = None
    if base is not None:
        base_ctx = _module_context(base, [])
    _module_context(arc, findings, bare=bare, base=base_ctx)
    return findings


def lint_buildfile_bytes(xml: bytes, name: str = "buildFile.xml") -> list[Finding]:
    """Lint a bare ``buildFile.xml`` (no archive): every buildFile and piece check of §8
    (items 5-9, 12-14, 22-24); the checks needing archive entries (images, files, setups, custom
    class files, metadata) are skipped. ``name`` only labels the findings."""
    data = archive_bytes({"buildFile.xml": xml}, DEFAULT_EPOCH)
    with open_archive(data) as arc:
        return lint_archive(arc, name, bare=True)


def _is_xml(head: bytes) -> bool:
    return head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<")


def lint_bytes(data: bytes, name: str = "", *, base: bytes | None = None) -> list[Finding]:
    """Lint archive bytes, or bare buildFile XML bytes (see :func:`lint`)."""
    if _is_xml(data[:64]):
        return lint_buildfile_bytes(data, os.path.basename(name) or "buildFile.xml")
    try:
        arc = open_archive(data)
    except VassalFormatError as exc:
        return [Finding(ERROR, exc.entry or os.path.basename(name), "", exc.message, "archive")]
    with arc:
        if base is None:
            return lint_archive(arc, name)
        try:
            base_arc = open_archive(base)
        except VassalFormatError as exc:
            return [Finding(ERROR, "base module", "", exc.message, "archive")]
        with base_arc:
            return lint_archive(arc, name, base=base_arc)


def lint(path: str | os.PathLike[str], *, base: str | os.PathLike[str] | None = None
         ) -> list[Finding]:
    """Lint a ``.vmod``, ``.vmdx`` or ``.vsav`` file, or a bare ``buildFile.xml`` (§8), and
    return every :class:`Finding` (errors and warnings), in check order.

    Args:
        path: the file to check.
        base: for an extension, the ``.vmod`` it extends (then ``module``, targets, prototypes
            and images are checked against it, §5).

    Never raises for a bad file: unreadable or unsafe archives are findings. Memory is bounded
    by :class:`~pipeline.vassal.archive.Limits`.
    """
    fspath = os.fspath(path)
    if not os.path.isfile(fspath):
        return [Finding(ERROR, os.path.basename(fspath), "", "not a regular file (a folder, a device or missing)", "archive")]
    try:
        with open(fspath, "rb") as fh:
            head = fh.read(64)
    except OSError as exc:
        return [Finding(ERROR, os.path.basename(fspath), "", f"cannot open: {exc}", "archive")]
    if _is_xml(head):
        size = os.path.getsize(fspath)
        if size > Limits().max_entry_size:
            return [Finding(ERROR, os.path.basename(fspath), "", "buildFile larger than the "
                            "size limit", "archive")]
        with open(fspath, "rb") as fh:
            return lint_buildfile_bytes(fh.read(), os.path.basename(fspath))
    try:
        arc = open_archive(fspath)
    except VassalFormatError as exc:
        return [Finding(ERROR, exc.entry or os.path.basename(fspath), "", exc.message,
                        "archive")]
    with arc:
        if base is None:
            return lint_archive(arc, fspath)
        try:
            base_arc = open_archive(base)
        except VassalFormatError as exc:
            return [Finding(ERROR, "base module", "", exc.message, "archive")]
        with base_arc:
            return lint_archive(arc, fspath, base=base_arc)
