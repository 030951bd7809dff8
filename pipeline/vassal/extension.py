"""VASSAL 3.7 module extensions (``.vmdx``), written deterministically (``vassal-format.md`` §5).

An extension adds components to a base module that it names. Every addition is wrapped in its
own ``ExtensionElement`` whose ``target`` is the ``/``-joined component path of the parent that
receives it (``""`` = the module root). Slot gpids are ``<extensionId>:<n>`` and
``nextPieceSlotId`` is above every ``n``. The archive holds ``buildFile.xml``,
``extensiondata`` (with ``<universal>``), a ``moduledata`` for the base module, images and setup
files.

>>> from pipeline.vassal.buildfile import PieceSlot, PieceWindow, ListWidget
>>> from pipeline.vassal.pieces import PieceDefinition
>>> from pipeline.vassal.traits import BasicPiece
>>> ext = ModuleExtension("Demo ext", "a1b", "Demo", elements=[
...     ExtensionElement(ROOT, PieceWindow("More", [ListWidget("All", [
...         PieceSlot("Inf", PieceDefinition([], BasicPiece("inf.png", "Inf")))])]))])
>>> out = write_extension(ext)
>>> out.gpids, out.next_piece_slot_id
({'Inf': 'a1b:1'}, 2)
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from .archive import DEFAULT_EPOCH, archive_bytes, check_entry_name, resolve_epoch
from .buildfile import (
    VM,
    BoxWidget,
    BuildFile,
    Chart,
    ChartWindow,
    Component,
    DiceButton,
    HtmlChart,
    ListWidget,
    Map,
    PanelWidget,
    PieceSlot,
    PieceWindow,
    PredefinedSetup,
    PrototypeDefinition,
    SpecialDiceButton,
    TabWidget,
    _el,
    _serialize,
    _Writer,
)
from .save import SaveGame

__all__ = [
    "PROTOTYPES",
    "ROOT",
    "ExtensionElement",
    "ModuleExtension",
    "component_path",
    "extension_entries",
    "write_extension",
    "write_extension_file",
    "write_extensiondata",
]

#: ``target`` of the module root (§5): new maps, windows, setups, dice.
ROOT = ""
#: ``target`` of the module's PrototypesContainer, which every module has (§2.2 ensures it).
PROTOTYPES = VM + "PrototypesContainer"

#: A widget added into a base module's piece or chart window (a palette tab, a chart tab…).
WidgetAddition = TabWidget | ListWidget | PanelWidget | BoxWidget | PieceSlot | Chart | HtmlChart
Addition = (Map | PieceWindow | ChartWindow | PredefinedSetup | PrototypeDefinition | DiceButton
            | SpecialDiceButton | Component | WidgetAddition)


def component_path(*segments: tuple[str, str | None]) -> str:
    """A ``target`` from ``(class, name)`` segments, root first; ``name`` None for an unnamed
    component. ``/`` and ``:`` inside names are escaped with ``\\`` (§5).

    >>> component_path(("VASSAL.build.module.PieceWindow", "Pieces"),
    ...                ("VASSAL.build.widget.ListWidget", "A/B"))
    'VASSAL.build.module.PieceWindow:Pieces/VASSAL.build.widget.ListWidget:A\\\\/B'
    """
    out = []
    for cls, name in segments:
        if name is None:
            out.append(cls)
        else:
            out.append(cls + ":" + re.sub(r"([/:\\])", r"\\\1", name))
    return "/".join(out)


@dataclass(frozen=True)
class ExtensionElement:
    """One addition: ``component`` added to the base-module component at ``target`` (§5)."""

    target: str
    component: Addition


@dataclass(frozen=True)
class ModuleExtension:
    """A ``.vmdx`` (§5).

    Attributes:
        name: the extension's name (shown by the Module Manager; written as ``description`` of
            ``extensiondata`` and the file name is up to the caller).
        extension_id: short unique id (VASSAL's default is 3 hex characters); gpids are
            ``<extension_id>:<n>``. No ``:``, ``/`` or whitespace.
        module_name: the base module's exact name (``module``); ignored when ``universal``.
        module_version: the base module version the extension was made for (``moduleVersion``).
        version: the extension's own version.
        elements: the additions, each in its own ExtensionElement, in this order.
        vassal_version: ``3.7.x`` (root ``vassalVersion``, lower-case v, and extensiondata).
        universal: ``anyModule`` / ``<universal>``: load into any module.
        date_saved_ms: extensiondata ``dateSaved``; None = ``SOURCE_DATE_EPOCH`` or the default.

    Raises:
        ValueError: (on construction) an empty or malformed id, empty module name (not
            universal), or a vassal_version other than 3.7.x.
    """

    name: str
    extension_id: str
    module_name: str
    module_version: str = ""
    version: str = "1.0"
    description: str = ""
    elements: Sequence[ExtensionElement] = ()
    vassal_version: str = "3.7.0"
    universal: bool = False
    date_saved_ms: int | None = None
    #: Number slots ``<extId>:<hash of the key>`` (see buildfile.stable_gpid_number) so gpids
    #: survive adding or removing pieces.
    stable_gpids: bool = False

    def __post_init__(self) -> None:
        if not re.fullmatch(r"[A-Za-z0-9_.-]+", self.extension_id or ""):
            raise ValueError(f"extension id {self.extension_id!r}: letters, digits, _ . - only")
        if not self.universal and (not self.module_name or self.module_name.strip()
                                   != self.module_name):
            raise ValueError("module_name must be the base module's exact, unpadded name (§5)")
        if not re.fullmatch(r"3\.7(\.\d+)?", self.vassal_version):
            raise ValueError(f"vassal_version must be 3.7.x, got {self.vassal_version!r}")

    def setup_files(self) -> list[str]:
        """Every PredefinedSetup file the extension adds, in document order."""
        return [f for e in self.elements if isinstance(e.component, PredefinedSetup)
                for f in e.component.files()]


def _add(w: _Writer, parent: etree._Element, c: Addition) -> None:
    if isinstance(c, Map):
        w.map(parent, c)
    elif isinstance(c, PredefinedSetup):
        w.setup(parent, c)
    elif isinstance(c, DiceButton | SpecialDiceButton):
        w.dice(parent, c)
    elif isinstance(c, Component):
        w.component(parent, c)
    elif isinstance(c, PrototypeDefinition):
        _el(parent, VM + "PrototypeDefinition", ("name", c.name),
            ("description", c.description), text=c.piece.slot_text())
    elif isinstance(c, PieceWindow):
        el = _el(parent, VM + "PieceWindow", ("name", c.name), ("text", c.text or c.name),
                 ("tooltip", c.tooltip), ("icon", c.icon), ("hotkey", c.hotkey),
                 ("hidden", c.hidden), ("scale", c.scale))
        for child in c.children:
            w.widget(el, child)
    elif isinstance(c, ChartWindow):
        el = _el(parent, VM + "ChartWindow", ("name", c.name), ("text", c.text or c.name),
                 ("tooltip", c.tooltip), ("icon", c.icon), ("hotkey", c.hotkey))
        for child in c.children:
            w.widget(el, child)
    elif isinstance(c, WidgetAddition):
        w.widget(parent, c)
    else:
        raise TypeError(f"cannot add {type(c).__name__} in an extension")


def write_extension(ext: ModuleExtension) -> BuildFile:
    """``buildFile.xml`` of an extension (§5): root ``VASSAL.build.module.ModuleExtension`` with
    ``anyModule``, ``version``, ``description``, ``module``, ``moduleVersion``,
    ``vassalVersion``, ``nextPieceSlotId`` and ``extensionId``; one ExtensionElement per
    addition. PieceSlot gpids are ``<extension_id>:1``, ``:2``… in document order.

    Returns:
        a :class:`~pipeline.vassal.buildfile.BuildFile` (bytes, slot key -> gpid, next id).

    Raises:
        ValueError: duplicate slot keys, text VASSAL would trim, fields ending in a backslash.
        TypeError: an addition of a kind extensions cannot hold.
    """
    w = _Writer(ext.extension_id, stable=ext.stable_gpids)
    root = _el(None, VM + "ModuleExtension", ("anyModule", ext.universal),
               ("version", ext.version), ("description", ext.description),
               ("module", ext.module_name), ("moduleVersion", ext.module_version),
               ("vassalVersion", ext.vassal_version), ("nextPieceSlotId", "0"),
               ("extensionId", ext.extension_id))
    for e in ext.elements:
        wrapper = _el(root, VM + "ExtensionElement", ("target", e.target))
        _add(w, wrapper, e.component)
    root.set("nextPieceSlotId", str(w.counter + 1))
    return BuildFile(_serialize(root), dict(w.gpids), w.counter + 1)


def write_extensiondata(ext: ModuleExtension, date_saved_ms: int) -> bytes:
    """The ``extensiondata`` entry (§5): ``<data version="1">`` with version, extra1, extra2,
    VassalVersion, dateSaved (ms since the epoch), description and universal."""
    root = etree.Element("data", version="1")
    for tag, value in (("version", ext.version), ("extra1", ""), ("extra2", ""),
                       ("VassalVersion", ext.vassal_version),
                       ("dateSaved", str(int(date_saved_ms))),
                       ("description", ext.description or ext.name),
                       ("universal", "true" if ext.universal else "false")):
        etree.SubElement(root, tag).text = value
    return _serialize(root)


def extension_entries(ext: ModuleExtension, *, base_moduledata: bytes,
                      images: Mapping[str, bytes] | None = None,
                      files: Mapping[str, bytes] | None = None,
                      setups: Mapping[str, SaveGame] | None = None,
                      default_epoch: int = DEFAULT_EPOCH,
                      save_key: int = 0xAA) -> tuple[dict[str, bytes], BuildFile]:
    """Every entry of a ``.vmdx``: ``buildFile.xml``, ``extensiondata``, ``moduledata`` (the
    base module's, ``base_moduledata``), ``images/<name>``, ``files`` by archive path and each
    setup ``.vsav`` (§5, §4).

    Setup saves must name the base module (they are loaded into it) and should place pieces
    with the gpids of the returned BuildFile.

    Raises:
        ValueError: a setup for another module, a PredefinedSetup without content, an entry
            given twice, or an unsafe entry name.
    """
    epoch = resolve_epoch(default_epoch)
    date_ms = ext.date_saved_ms if ext.date_saved_ms is not None else epoch * 1000
    if os.environ.get("SOURCE_DATE_EPOCH"):
        date_ms = epoch * 1000
    build = write_extension(ext)
    entries: dict[str, bytes] = {"buildFile.xml": build.xml,
                                 "extensiondata": write_extensiondata(ext, date_ms),
                                 "moduledata": bytes(base_moduledata)}

    def put(name: str, data: bytes) -> None:
        check_entry_name(name)
        if name in entries:
            raise ValueError(f"archive entry {name!r} given twice")
        entries[name] = bytes(data)

    for name, data in sorted((images or {}).items()):
        put("images/" + name, data)
    for name, data in sorted((files or {}).items()):
        put(name, data)
    for name, save in sorted((setups or {}).items()):
        if not ext.universal and save.module_name != ext.module_name:
            raise ValueError(f"setup {name!r} is for module {save.module_name!r}, not the base "
                             f"module {ext.module_name!r}")
        put(name, save.to_bytes(moduledata=base_moduledata, key=save_key, epoch=epoch,
                                date_saved_ms=date_ms))
    for name in ext.setup_files():
        if name not in entries:
            raise ValueError(f"PredefinedSetup file {name!r} has no content")
    return entries, build


def write_extension_file(path: str | os.PathLike[str], entries: Mapping[str, bytes], *,
                         epoch: int, validate: bool = True, base: bytes | None = None) -> Path:
    """Write extension ``entries`` (from :func:`extension_entries`) to ``path`` atomically.

    With ``validate`` the bytes are linted first against ``base`` (the module the extension
    extends: every target must resolve in it, its prototypes and maps are known), or, without
    it, against a minimal base module named as the extension's ``module`` (every module has a
    root and a PrototypesContainer, §2.2), so that :data:`ROOT` and :data:`PROTOTYPES`
    targets resolve.

    Raises:
        ValueError: lint finds an error (the message lists them); nothing is written then.
    """
    from .archive import _replace_atomic

    data = archive_bytes(entries, epoch)
    if validate:
        from .lint import lint_bytes

        root = etree.fromstring(entries["buildFile.xml"])
        against = base if base is not None else minimal_base_module(root.get("module", ""))
        errors = [f for f in lint_bytes(data, str(path), base=against) if f.severity == "error"]
        if errors:
            raise ValueError("extension fails lint:\n" + "\n".join(str(f) for f in errors))
    return _replace_atomic(Path(path), data)


def minimal_base_module(name: str, version: str = "1.0") -> bytes:
    """The smallest module named ``name`` that VASSAL would build (the components it ensures on
    load, §2.2): what any base module offers an extension. Used to resolve targets when the
    real base module is not at hand."""
    from .buildfile import Module, write_buildfile, write_moduledata

    m = Module(name, version=version)
    return archive_bytes({"buildFile.xml": write_buildfile(m).xml,
                          "moduledata": write_moduledata(m, DEFAULT_EPOCH * 1000)},
                         DEFAULT_EPOCH)
