"""A module an extension extends (its *base module*), read as untrusted input.

An extension is built for one module (``vassal-format.md`` §5): it must name the module's exact
``name``, should name its ``version``, adds components under targets that must resolve in the
module's tree, places its setups' pieces on the module's maps, and may place the module's own
pieces by their palette slots (their gpids, so that VASSAL's Refresh Counters finds them).
:func:`read_base_module` reads what that needs from a ``.vmod``:

- ``moduledata`` and the ``GameModule`` root: the exact name (the root's ``name``, which is what
  VASSAL compares an extension's ``module`` with, ``ModuleExtension.setAttribute``), version and
  VassalVersion;
- every map: its ``mapName``, edge margins, Game Piece Layers (``LayeredPieceCollection``:
  property and layer order), boards (image, size in pixels from the image's header, hex or
  square grids, the zones of a ``ZonedGrid`` with their own grids) and the ``target`` path of
  the map;
- the piece palette: every ``PieceSlot`` under a ``PieceWindow``, with its palette path
  (window, widgets, entry name), gpid and decoded piece; the palette's windows and tab widgets
  as ``target`` paths;
- the prototypes by name; the chart windows and their tab widgets.

The module is read through :func:`~.archive.open_archive` (bounded entry count and sizes, no
unsafe entry names) and :func:`~.archive.parse_xml` (no DTD, no entity expansion); the file's
SHA-256 is checked against the expected digest before anything else is read, and a board image
name that would escape ``images/`` is refused. Every problem is a :class:`BaseModuleError`
naming the file.

>>> from pipeline.vassal.extension import minimal_base_module
>>> base = read_base_module(minimal_base_module("Demo", "2.0"), label="demo.vmod")
>>> base.name, base.version, base.maps
('Demo', '2.0', {})
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from .archive import Archive, Limits, VassalFormatError, check_entry_name, open_archive
from .grids import HexGrid, SquareGrid
from .pieces import DecodedPiece, PieceDecodeError, decode_add_piece
from .read import ZoneInfo, board_grids, board_size

__all__ = [
    "BaseBoard",
    "BaseMap",
    "BaseModule",
    "BaseModuleError",
    "BaseSlot",
    "BaseWidget",
    "component_name",
    "read_base_module",
    "sha256_of",
]

VM = "VASSAL.build.module."
W = "VASSAL.build.widget."
_GRIDS = VM + "map.boardPicker.board."
_MAPS = (VM + "Map", VM + "PrivateMap", VM + "PlayerHand")
_NAME_ATTRS = ("mapName", "name", "entryName", "chartName", "title", "threadName")


class BaseModuleError(ValueError):
    """The base module cannot be used: unreadable, unsafe, not a module, or not the file the
    data names. The message names the file."""


def sha256_of(path: str | os.PathLike[str], limit: int = Limits().max_total_size) -> str:
    """SHA-256 (hex) of a file, read in 1 MiB blocks.

    Raises:
        BaseModuleError: the file is missing, not a regular file, or larger than ``limit``
            bytes (a module is never that big: :class:`~.archive.Limits`).
    """
    p = Path(path)
    if not p.is_file():
        raise BaseModuleError(f"{p}: no such base module (a .vmod file)")
    size = p.stat().st_size
    if size > limit:
        raise BaseModuleError(f"{p}: {size} bytes, above the {limit}-byte limit for a module")
    h = hashlib.sha256()
    with p.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def component_name(el: etree._Element) -> str:
    """The name VASSAL's component paths use for an element (its configure name: ``mapName``,
    ``name``, ``entryName``…), ``""`` for an unnamed one."""
    for attr in _NAME_ATTRS:
        if el.get(attr) is not None:
            return el.get(attr, "")
    return ""


def _escape(name: str) -> str:
    out = []
    for ch in name:
        if ch in "/:\\":
            out.append("\\")
        out.append(ch)
    return "".join(out)


@dataclass(frozen=True)
class BaseBoard:
    """A board of a base map: ``name``, ``image`` (a name under ``images/``, ``""`` for a solid
    board), ``size`` in pixels (the image's, else the width/height attributes; None when neither
    is known), the background ``grid`` and the ``zones`` of a ``ZonedGrid`` (each with its own
    grid)."""

    name: str
    image: str
    size: tuple[int, int] | None
    grid: HexGrid | SquareGrid | None
    zones: tuple[ZoneInfo, ...] = ()

    def hex_grids(self) -> list[tuple[str | None, HexGrid]]:
        """``(zone name or None for the background grid, grid)`` of every hex grid of the
        board, background first."""
        out: list[tuple[str | None, HexGrid]] = []
        if isinstance(self.grid, HexGrid):
            out.append((None, self.grid))
        out += [(z.name, z.grid) for z in self.zones if isinstance(z.grid, HexGrid) and not z.use_parent_grid]
        return out

    def zone_at(self, x: float, y: float) -> ZoneInfo | None:
        """The zone holding board pixel (x, y), as ``ZonedGrid`` finds it (the first zone whose
        polygon contains the point), or None."""
        return next((z for z in self.zones if z.contains(x, y)), None)


@dataclass(frozen=True)
class BaseMap:
    """A map of the base module: ``mapName``, its ``target`` path, edge margins (pixels),
    boards by name, and its Game Piece Layers (``layer_property`` and ``layer_order``; None and
    ``()`` without a ``LayeredPieceCollection``)."""

    name: str
    target: str
    edge: tuple[int, int]
    boards: dict[str, BaseBoard]
    layer_property: str | None = None
    layer_order: tuple[str, ...] = ()

    def layer_index(self, value: str | None) -> int | None:
        """The index of the layer a piece whose layer property is ``value`` is drawn in
        (``LayeredPieceCollection.getLayerForName``: a value in no layer goes to the extra top
        layer, index ``len(layer_order)``), or None on a map without layers."""
        if self.layer_property is None:
            return None
        return self.layer_order.index(value) if value in self.layer_order else len(self.layer_order)


@dataclass(frozen=True)
class BaseSlot:
    """A palette piece of the base module: its ``entryName``, gpid, palette path (the piece
    window's name, each widget's name, then the entry name), its slot text (the piece
    definition, ``+/null/<type>/<state>``) and that text decoded."""

    entry_name: str
    gpid: str
    palette: tuple[str, ...]
    text: str
    piece: DecodedPiece

    @property
    def label(self) -> str:
        """The palette path joined with `` / `` (for messages)."""
        return " / ".join(self.palette)


@dataclass(frozen=True)
class BaseWidget:
    """A piece window, chart window or tab widget an extension may add to: its ``target``
    path, its tag, its name path (window, then widgets) and whether its window is hidden
    (``PieceWindow`` ``hidden``: never shown to players)."""

    target: str
    tag: str
    names: tuple[str, ...]
    hidden: bool = False


@dataclass
class BaseModule:
    """What an extension needs of its base module (see the module doc).

    Attributes:
        label: the file's name for messages.
        sha256: the SHA-256 (hex) of the module file.
        name, version, vassal_version: the ``GameModule`` root's ``name``, ``version`` and
            ``VassalVersion``.
        moduledata: the ``moduledata`` entry's bytes (an extension and its setups carry a
            copy, §5, §4.1).
        root: the parsed buildFile (to resolve targets).
        maps: the maps by ``mapName``.
        slots: the palette pieces, in document order.
        prototypes: the prototypes by name (None when undecodable).
        palette_windows: the piece windows and the tab widgets inside them.
        chart_windows: the chart windows and the tab widgets inside them.
        entries: every archive entry name.
        has_code: the archive holds Java classes (custom module code).
        setups: the predefined setups that load a file, ``(name, archive path)``.
        source: the module file or its bytes (to read an entry again, :meth:`read_entry`).
    """

    label: str
    sha256: str
    name: str
    version: str
    vassal_version: str
    moduledata: bytes
    root: etree._Element
    maps: dict[str, BaseMap] = field(default_factory=dict)
    slots: list[BaseSlot] = field(default_factory=list)
    prototypes: dict[str, DecodedPiece | None] = field(default_factory=dict)
    palette_windows: list[BaseWidget] = field(default_factory=list)
    chart_windows: list[BaseWidget] = field(default_factory=list)
    entries: frozenset[str] = frozenset()
    has_code: bool = False
    setups: list[tuple[str, str]] = field(default_factory=list)
    source: str | bytes = b""

    def read_entry(self, name: str) -> bytes:
        """An entry of the module archive, read again with the same bounds.

        Raises:
            BaseModuleError: the entry is missing or unreadable (naming it and the module).
        """
        try:
            with open_archive(self.source) as arc:
                return arc.read(name)
        except VassalFormatError as exc:
            raise BaseModuleError(f"{self.label}: {exc}") from None

    def find_slots(self, *, name: str | None = None, palette: tuple[str, ...] | None = None,
                   prototype: str | None = None) -> list[BaseSlot]:
        """The palette slots matching an entry name, a whole palette path, or a prototype the
        piece uses (directly, outermost trait first). Empty when none does."""
        out = []
        for s in self.slots:
            if name is not None and s.entry_name != name:
                continue
            if palette is not None and s.palette != tuple(palette):
                continue
            if prototype is not None and prototype not in s.piece.prototype_names:
                continue
            out.append(s)
        return out

    def properties(self, slot: BaseSlot) -> dict[str, str]:
        """A palette piece's named values, its prototypes' included (Marker traits, §3.5)."""
        return slot.piece.properties(self.prototypes)

    def stacks(self, piece: DecodedPiece) -> bool:
        """Whether VASSAL stacks the piece: not when it (or a prototype it uses, expanded) has a
        Does Not Stack (``immob;``) trait, whose ``NO_STACK`` property is always true
        (``counters/Immobilized.java``)."""
        seen: set[str] = set()

        def walk(p: DecodedPiece, depth: int) -> bool:
            for t, _s in p.levels:
                if t.startswith("immob;"):
                    return False
                if t.startswith("prototype;") and depth < 16:
                    name = t[len("prototype;"):].split(";", 1)[0]
                    proto = self.prototypes.get(name)
                    if proto is not None and name not in seen:
                        seen.add(name)
                        if not walk(proto, depth + 1):
                            return False
            return True

        return walk(piece, 0)

    def check_target(self, target: str, element: etree._Element) -> None:
        """Raise when ``target`` does not lead VASSAL to ``element`` (another component of the
        same class and name comes first, so VASSAL would add to that one).

        Raises:
            BaseModuleError: naming the target and the module.
        """
        from .lint import resolve_target

        if resolve_target(self.root, target) is not element:
            raise BaseModuleError(f"{self.label}: target {target!r} does not lead to one component of "
                                  f"module {self.name!r} (two components share its class and name)")


def _target(el: etree._Element) -> str:
    parts = []
    node = el
    while node is not None and node.getparent() is not None:
        name = component_name(node)
        parts.append(str(node.tag) + (":" + _escape(name) if name else ""))
        node = node.getparent()
    return "/".join(reversed(parts))


def _widgets(window: etree._Element) -> Iterator[BaseWidget]:
    hidden = window.get("hidden") == "true"
    yield BaseWidget(_target(window), str(window.tag), (component_name(window),), hidden)
    for tab in window.iter(W + "TabWidget"):
        names = []
        node = tab
        while node is not None and node is not window.getparent():
            names.append(component_name(node))
            node = node.getparent()
        yield BaseWidget(_target(tab), str(tab.tag), tuple(reversed(names)), hidden)


def _palette(el: etree._Element, window: etree._Element) -> tuple[str, ...]:
    names = [el.get("entryName", "")]
    node = el.getparent()
    while node is not None and node is not window.getparent():
        names.append(component_name(node))
        node = node.getparent()
    return tuple(reversed(names))


def read_base_module(source: str | os.PathLike[str] | bytes, *, expected_sha256: str | None = None,
                     label: str | None = None, sha_source: str = "expected") -> BaseModule:
    """Read a base module from a ``.vmod`` path or its bytes.

    Args:
        source: the module file, or its bytes (gunbai's own core module, read back).
        expected_sha256: the digest the data names; a different file is refused.
        label: the name for messages (default: the path).
        sha_source: where ``expected_sha256`` comes from, for the message (``system.yaml
            base_module_sha256``).

    Raises:
        BaseModuleError: the file is missing or too large, its SHA-256 differs from
            ``expected_sha256`` (both digests named), it is not a ZIP or holds unsafe or
            oversize entries, has no ``buildFile.xml``/``moduledata``, is an extension, or a
            board image name escapes ``images/``.
    """
    if isinstance(source, bytes | bytearray):
        data = bytes(source)
        name = label or "module"
        digest = hashlib.sha256(data).hexdigest()
    else:
        name = label or os.fspath(source)
        digest = sha256_of(source)
        data = None
    if expected_sha256 is not None and digest != expected_sha256.strip().lower():
        raise BaseModuleError(f"{name}: SHA-256 is {digest}, but {sha_source} says {expected_sha256.strip().lower()}; "
                              "this is not the base module the data was mapped for (set the new digest after checking "
                              "base_mapping.yaml against it)")
    try:
        with open_archive(data if data is not None else os.fspath(source)) as arc:
            base = _read(arc, name, digest)
    except VassalFormatError as exc:
        raise BaseModuleError(f"{name}: {exc}") from None
    base.source = data if data is not None else os.fspath(source)
    return base


def _read(arc: Archive, label: str, digest: str) -> BaseModule:
    for entry in ("buildFile.xml", "moduledata"):
        if entry not in arc:
            raise BaseModuleError(f"{label}: no {entry}; not a VASSAL 3.5+ module (§1)")
    root = arc.read_xml("buildFile.xml")
    if str(root.tag) == VM + "ModuleExtension":
        raise BaseModuleError(f"{label}: is an extension (ModuleExtension), not a module")
    if str(root.tag) not in ("VASSAL.build.GameModule", "VASSAL.launch.BasicModule"):
        raise BaseModuleError(f"{label}: buildFile root is {root.tag}, not VASSAL.build.GameModule")
    md_bytes = arc.read("moduledata")
    md = arc.read_xml("moduledata")
    base = BaseModule(label=label, sha256=digest, name=root.get("name", "").strip(),
                      version=root.get("version", "0.0"), vassal_version=root.get("VassalVersion", ""),
                      moduledata=md_bytes, root=root, entries=frozenset(arc.names),
                      has_code=any(n.endswith(".class") for n in arc.names))
    if not base.name:
        raise BaseModuleError(f"{label}: the module has no name (GameModule/@name)")
    md_name = (md.findtext("name") or "").strip()
    if md_name and md_name != base.name:
        raise BaseModuleError(f"{label}: moduledata names {md_name!r} but the buildFile {base.name!r}; VASSAL matches "
                              "extensions on the buildFile's name")

    def read_image(image: str) -> bytes | None:
        try:
            check_entry_name("images/" + image)
        except VassalFormatError:
            raise BaseModuleError(f"{label}: board image {image!r} escapes images/ (refused)") from None
        path = "images/" + image
        if path not in arc:
            return None
        try:
            return arc.read(path)
        except VassalFormatError:
            return None

    for m in root.iter(*_MAPS):
        boards: dict[str, BaseBoard] = {}
        for b in m.iter(VM + "map.boardPicker.Board"):
            grid, zones = board_grids(b)
            image = b.get("image", "")
            size = board_size(b, read_image)
            boards.setdefault(b.get("name", ""), BaseBoard(b.get("name", ""), image, size, grid, zones))
        layers = m.find(VM + "map.LayeredPieceCollection")
        prop = layers.get("property", "") if layers is not None else None
        order = tuple(n for n in (layers.get("layerOrder", "") if layers is not None else "").split(",") if n)

        def edge(attr: str, m=m) -> int:
            try:
                return int(m.get(attr, "0"))
            except ValueError:
                return 0

        name = m.get("mapName", "")
        base.maps.setdefault(name, BaseMap(name, _target(m), (edge("edgeWidth"), edge("edgeHeight")), boards,
                                           prop if layers is not None else None, order))
    for p in root.iter(VM + "PrototypeDefinition"):
        try:
            base.prototypes[p.get("name", "")] = decode_add_piece((p.text or "").strip())
        except PieceDecodeError:
            base.prototypes[p.get("name", "")] = None
    for window in root.iter(VM + "PieceWindow"):
        base.palette_windows.extend(_widgets(window))
        for s in window.iter(W + "PieceSlot"):
            text = (s.text or "").strip()
            try:
                piece = decode_add_piece(text)
            except PieceDecodeError:
                continue
            base.slots.append(BaseSlot(s.get("entryName", ""), s.get("gpid", "") or piece.gpid or "",
                                       _palette(s, window), text, piece))
    for window in root.iter(VM + "ChartWindow"):
        base.chart_windows.extend(_widgets(window))
    for s in root.iter(VM + "PredefinedSetup"):
        if s.get("isMenu") != "true" and s.get("useFile") == "true" and s.get("file"):
            base.setups.append((s.get("name", ""), s.get("file", "")))
    return base
