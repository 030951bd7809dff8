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

From modules nobody here wrote (issue 28): the launcher's load constraints on reserved names
(:func:`launcher_refusal`), the build file's name by VassalVersion, images of pieces defined in
saves, save pieces without gpids, Send To Location zones and regions (:func:`send_to_problem`),
unprefixed extension gpids, module classes using VASSAL classes 3.7.26 lacks
(:func:`check_code_references`), At-Start Stacks' boards and grid locations
(:func:`check_at_start_stacks`); PlayerHands have no edge. A missing image, missing prototype
or Send To Location target inside a prototype no piece uses (:func:`used_prototypes`) is a
warning, not an error (:func:`settle_unused_prototypes`).
"""

from __future__ import annotations

import math
import os
import re
from bisect import bisect_right
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache, partial
from itertools import starmap
from operator import is_not

from lxml import etree

from .archive import DEFAULT_EPOCH, Archive, Limits, VassalFormatError, archive_bytes, open_archive
from .buildfile import Board, Map, map_size
from .pieces import DecodedPiece, PieceDecodeError, clear_decode_caches, decode_add_piece
from .read import element_label, image_info, parse_svg, pixel_size, short_tag, svg_root_size
from .refs import (
    ArchiveNames,
    case_hint,
    classify_url,
    html_image_refs,
    join_relative,
    resolve_image,
    svg_root_refs,
)
from .save import DecodedSave, collector_paused, read_saved_game
from .sequence import decode, encode
from .traits import KNOWN_TRAIT_IDS, trait_id
from .versions import module_older_than

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
    "lint_many",
    "module_check",
    "resolve_target",
    "save_check",
]

VM = "VASSAL.build.module."
#: VASSAL fails, loses data, or shows the player something broken.
ERROR = "error"
#: VASSAL works, but the module is fragile: it breaks on another system, with another VASSAL
#: version, or as soon as someone edits it.
WARNING = "warning"
#: Style and legacy: nothing breaks (an old VassalVersion, a map without a zoom control).
NOTE = "note"
SEVERITIES = (ERROR, WARNING, NOTE)

#: Map children without which pieces cannot be moved, menus or zoom do not work (§2.3, §8 9).
REQUIRED_MAP_CHILDREN = tuple(
    VM + "map." + n
    for n in ("BoardPicker", "StackMetrics", "PieceMover", "KeyBufferer", "ForwardToKeyBuffer",
              "MenuDisplayer", "StackExpander", "Scroller", "ForwardToChatter", "MapCenterer",
              "Zoomer", "CounterDetailViewer")
)
_MAP_TAGS = (VM + "Map", VM + "PrivateMap", VM + "PlayerHand", "VASSAL.build.widget.WidgetMap")
_SLOT_TAGS = ("VASSAL.build.widget.PieceSlot", "VASSAL.build.widget.CardSlot")
_PIECE_TEXT_TAGS = (*_SLOT_TAGS, VM + "PrototypeDefinition")
_ICON_ATTRS = ("icon", "iconName", "buttonIcon", "markUnmovedIcon", "disabledIcon",
               "persistentIconName", "inIconName", "outIconName", "pickIconName")
_VERSION_37 = re.compile(r"3\.7(\.\d+)?")


@dataclass(frozen=True)
class Finding:
    """One problem: ``severity`` (``error``, ``warning`` or ``note``, see :data:`ERROR`), the archive ``entry`` (e.g.
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
    #: entry names as Java reads them (:class:`~.refs.ArchiveNames`), set by check_entries
    names: ArchiveNames | None = None
    #: element paths worked out so far (see :meth:`path`)
    _paths: dict[etree._Element, str] = field(default_factory=dict)
    #: findings of each distinct save piece (its levels above the BasicPiece and the
    #: BasicPiece type), shared by every setup checked against this module
    piece_findings: dict[tuple[tuple[str, str], ...], list[tuple[str, str]]] = field(
        default_factory=dict)
    _read_text: str | None = None
    #: SVG entries of at most 64 KiB (all that :func:`_check_image_bytes` reads of them) →
    #: their :func:`~.read.svg_size`, found when their references were checked (parsed once)
    svg_sizes: dict[str, tuple[int, int] | None] = field(default_factory=dict)

    _has_code: bool | None = None
    #: every image name the module's own pieces use (:func:`_save_image_findings`), found once
    piece_images: set[str] | None = None
    #: prototype names the pieces of the module's own setups name, directly or through the
    #: Place Marker / Replace definitions they carry (:func:`_piece_prototype_refs`), gathered
    #: by :func:`check_save_pieces`; a root of :func:`used_prototypes`
    setup_prototypes: set[str] = field(default_factory=set)
    #: ``(index in findings, prototype name)`` of each error that holds only if that prototype
    #: is used (:meth:`add_in_prototype`), settled by :func:`settle_unused_prototypes`
    prototype_errors: list[tuple[int, str]] = field(default_factory=list)

    @property
    def has_code(self) -> bool:
        """Whether the archive (or an extension's base) holds Java classes: module code that
        may decode traits and commands VASSAL itself does not know (computed once)."""
        if self._has_code is None:
            own = self.names is not None and any(n.endswith(".class") for n in self.names.names)
            self._has_code = own or (self.base is not None and self.base.has_code)
        return self._has_code

    def path(self, el: etree._Element) -> str:
        """:func:`~.read.element_path` of a buildFile element, each ancestor's path worked out
        once for the whole lint (the buildFile's elements are kept alive by its tree)."""
        todo: list[etree._Element] = []
        node: etree._Element | None = el
        while node is not None and node not in self._paths:
            todo.append(node)
            node = node.getparent()
        prefix = self._paths[node] + "/" if node is not None else ""
        for node in reversed(todo):
            prefix = self._paths[node] = prefix + element_label(node)
            prefix += "/"
        return self._paths[el]

    @property
    def read_text(self) -> str:
        """The buildFile as text, where property references are looked for."""
        if self._read_text is None:
            self._read_text = ""
            if self.archive is not None and self.buildfile_entry in self.archive:
                try:
                    self._read_text = self.archive.read(self.buildfile_entry).decode(
                        "utf-8", "replace")
                except VassalFormatError:
                    pass
        return self._read_text

    @property
    def module_name(self) -> str | None:
        if self.root is None:
            return None
        # an extension's setups are loaded into its base module (§5)
        return self.root.get("module" if self.kind == "extension" else "name")

    def add_in_prototype(self, el: etree._Element, severity: str, entry: str, path: str,
                         message: str) -> None:
        """:meth:`add` a finding on the piece of ``el``; when ``el`` is a PrototypeDefinition and
        the finding an error, it is an error only if some piece uses the prototype, which is
        known after the setups are read: :func:`settle_unused_prototypes` turns it into a
        warning otherwise."""
        if severity == ERROR and el.tag == VM + "PrototypeDefinition":
            self.prototype_errors.append((len(self.findings), el.get("name", "")))
        self.add(severity, entry, path, message)

    def iter(self, *tags: str) -> Iterator[etree._Element]:
        if self.root is None:
            return iter(())
        return (el for el in self.root.iter(*tags) if isinstance(el.tag, str))


@dataclass
class SaveContext(_Collector):
    """Shared state for save checks; ``module`` is None when linting a lone ``.vsav``;
    ``setup``: the save is a predefined setup of the module (or extension) ``module``, which
    VASSAL loads from its menu or wizard, not as a file the player opens."""

    entry: str = "savedGame"
    save: DecodedSave | None = None
    module: ModuleContext | None = None
    archive: Archive | None = None
    setup: bool = False


#: The side of a player who joins as an observer (``PlayerRoster.OBSERVER``, 3.7.26): a side
#: Restricted Access may name without the roster listing it.
OBSERVER_SIDE = "<observer>"

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
                    sides: list[str] | None, read: str = "", code: bool = False,
                    ) -> Iterator[tuple[str, str]]:
    """``(severity, message)`` for one decoded piece (§8 items 13-14). ``read`` is the module
    text in which property references are looked for (two Rotate traits of one name are an
    error only when something reads ``<name>_Facing`` or ``<name>_Degrees``)."""
    for message, severity in _piece_messages(p, prototypes, sides, read):
        if code and message.startswith("unknown trait id"):
            severity, message = WARNING, message + "; unless the module's own code decodes it"
        yield severity, message


#: The end of the finding of a ``prototype;Name`` trait naming no PrototypeDefinition.
_NO_SUCH_PROTOTYPE = "does not exist (VASSAL silently ignores it, §2.7)"


#: A Restricted Access side whose name says that nobody plays it: "Nobody" (Carcassonne 2007),
#: "No One" (Carcassonne: The Castle). Makers use such a side to lock a piece for every
#: player (no player's side ever matches it, ``Restricted.isRestricted``), so it is a note,
#: not the error of a side missing from the roster (a misspelt side locks it by mistake).
_LOCK_SIDE = re.compile(r"\s*(?:no[ -]?(?:body|one)|none|no (?:player|side)s?)\s*", re.IGNORECASE)


def _piece_messages(p: DecodedPiece, prototypes: dict[str, DecodedPiece | None] | None,
                    sides: list[str] | None, read: str) -> Iterator[tuple[str, str]]:
    """``(message, severity)`` for one piece: its unknown trait ids, then the prototypes it uses
    that do not exist, then each level's findings outermost first (:func:`_level_check`, whose
    result is shared by every piece with the same level)."""
    checks = list(starmap(_level_check, p.levels))
    # most levels have nothing to say (_QUIET): only the others are looked at, in order
    for check in filter(_loud, checks[:-1]):
        if check.unknown is not None:
            yield (f"unknown trait id {check.unknown!r}: VASSAL 3.7 turns it into an empty "
                   "Marker (§7.3)"), ERROR
    checks = list(filter(_loud, checks))
    if prototypes is not None:
        for check in checks:
            if check.prototype is not None and check.prototype not in prototypes:
                yield f"prototype {check.prototype!r} {_NO_SUCH_PROTOTYPE}", ERROR
    rotate_names: set[str] = set()
    for check in checks:
        yield from check.head
        name = check.rotate_name
        if name is not None:
            if name and name in rotate_names:
                yield (f"two Rotate traits named {name!r} on one piece: the outer one answers "
                       f"{name}_Facing and {name}_Degrees for both, the inner one cannot be "
                       "read or set by name (FreeRotator.getProperty)"), (
                           ERROR if _reads(read, name) else WARNING)
            rotate_names.add(name)
        yield from check.tail
        if check.restrict_sides is not None and sides is not None:
            for side in check.restrict_sides:
                # the observers' side is always there (PlayerRoster.OBSERVER, "<observer>")
                if side and side not in sides and side != OBSERVER_SIDE:
                    if _LOCK_SIDE.fullmatch(side):
                        yield (f"restrict; side {side!r} is no PlayerRoster side, so "
                               "Restricted.isRestricted restricts every player: the piece is "
                               "locked, as the side's name says (§8 item 12)"), NOTE
                    else:
                        yield (f"restrict; side {side!r} is not a PlayerRoster side "
                               "(§8 item 12)"), ERROR


@dataclass(frozen=True)
class _LevelCheck:
    """What one level ``(type, state)`` of a piece contributes to its findings, independent of
    the rest of the piece and of the module: ``unknown`` trait id (None when VASSAL knows it),
    ``prototype`` name it uses, ``head`` messages, a Rotate trait's ``rotate_name`` (None for
    another trait or a Rotate with bad facings: its duplicates are found across levels),
    ``tail`` messages after the duplicate check, and a Restricted Access trait's sides."""

    unknown: str | None
    prototype: str | None
    head: tuple[tuple[str, str], ...]
    rotate_name: str | None
    tail: tuple[tuple[str, str], ...]
    restrict_sides: tuple[str, ...] | None


#: The check of a level that says nothing (a known trait, no prototype, Rotate or Restricted
#: Access, no finding): most levels of most pieces; one object, told apart by identity.
_QUIET = _LevelCheck(None, None, (), None, (), None)
#: Whether a level check has something to say (is not :data:`_QUIET`).
_loud = partial(is_not, _QUIET)


@lru_cache(maxsize=16384)
def _level_check(type_: str, state: str) -> _LevelCheck:
    """The checks of one piece level (§3.5, §8 items 13-14), cached: the same levels recur in
    hundreds of pieces even when whole pieces differ. A level with nothing to say gives
    :data:`_QUIET`."""
    tid = trait_id(type_)
    unknown = None if tid in KNOWN_TRAIT_IDS else tid
    prototype = decode(type_[len("prototype;"):], ";")[0] if tid == "prototype;" else None
    head: list[tuple[str, str]] = []
    tail: list[tuple[str, str]] = []
    rotate_name: str | None = None
    restrict_sides: tuple[str, ...] | None = None
    if type_.endswith("\\") or state.endswith("\\"):
        head.append(("a trait field ends with a backslash (§3.1)", ERROR))
    if type_.startswith("emb2;"):
        fields = decode(type_[5:], ";")
        # VASSAL reads missing trailing fields as defaults and converts version 0 (§3.5)
        if len(fields) > 15:
            images = decode(fields[15], ",")
            names = decode(fields[16], ",") if len(fields) > 16 else []
            if len(images) < len(names):
                head.append(("emb2; has more level names than images (§8 item 14)", ERROR))
            first = decode(state, ";")[0]
            try:
                value = int(first)
            except ValueError:
                head.append((f"Layer state {state!r} does not start with a level number: VASSAL "
                             "reads -1, the layer shows inactive (Embellishment.mySetState)",
                             ERROR))
            else:
                if abs(value) > len(images):
                    head.append((f"Layer state {value} beyond its {len(images)} images: VASSAL "
                                 f"shows level {len(images)} instead (Embellishment.mySetState "
                                 "clamps it)", ERROR))
    elif type_.startswith("rotate;"):
        fields = decode(type_[7:], ";")
        first = fields[0]
        if not first.isdigit() or int(first) < 1:
            head.append((f"rotate; facings {first!r} is not an int >= 1 (§3.5)", ERROR))
        else:
            facings = int(first)
            rotate_name = _rotate_name(fields)
            if facings > 1 and state.strip():
                try:
                    index = int(state)
                except ValueError:
                    tail.append((f"Rotate {rotate_name!r} state {state!r} is not a facing index "
                                 "(§3.5)", ERROR))
                else:
                    if index < 0:
                        tail.append((f"Rotate {rotate_name!r} facing index {index} is negative: "
                                     "VASSAL throws ArrayIndexOutOfBounds drawing the piece "
                                     "(FreeRotator.getAngle)", ERROR))
                    elif index >= facings:
                        tail.append((f"Rotate {rotate_name!r} facing index {index} on a "
                                     f"{facings}-facing trait: VASSAL shows facing {facings - 1} "
                                     "instead (FreeRotator.mySetState clamps it)", ERROR))
    elif type_.startswith("mark;"):
        keys = decode(type_[5:], ",")
        values = decode(state, ",")
        if len(keys) != len(values):
            head.append((f"mark; has {len(keys)} keys but {len(values)} values (§8 item 14)",
                         ERROR))
    elif type_.startswith("restrict;"):
        restrict_sides = tuple(decode(decode(type_[9:], ";")[0], ","))
    if (unknown is None and prototype is None and not head and rotate_name is None
            and not tail and restrict_sides is None):
        return _QUIET
    return _LevelCheck(unknown, prototype, tuple(head), rotate_name, tuple(tail), restrict_sides)


@lru_cache(maxsize=256)
def _reads(text: str, name: str) -> bool:
    """Whether ``text`` mentions the properties ``<name>_Facing`` or ``<name>_Degrees`` that a
    Rotate trait named ``name`` provides (cached: the same few names recur in every save)."""
    return f"{name}_Facing" in text or f"{name}_Degrees" in text


def _rotate_name(fields: list[str]) -> str:
    """A Rotate trait's name: field 6 of a free rotation (1 facing), else field 8 (§3.5,
    ``FreeRotator.mySetType``)."""
    index = 5 if fields[0] == "1" else 7
    return fields[index] if len(fields) > index else ""


#: What Java's ``Character.isWhitespace`` is not, though Python's ``str.isspace`` is: the
#: no-break spaces.
_NOT_JAVA_WHITESPACE = frozenset("\u00a0\u2007\u202f")


def java_blank(text: str) -> bool:
    """Java's ``String.isBlank``: empty or only ``Character.isWhitespace`` characters."""
    return all(c.isspace() and c not in _NOT_JAVA_WHITESPACE for c in text)


def _images_of(p: DecodedPiece) -> Iterator[str]:
    """Image names a piece references: BasicPiece image, emb2 images, obs mask image (§8 10).

    A blank name (a Layer's " " for "no image at this level") names no image: all three draw
    through ``ScaledImagePainter.setImageName``, which loads nothing when ``isBlank()``
    (VASSAL 3.7.26; BasicPiece.mySetType, Embellishment.mySetType, Obscurable's BasicPiece)."""
    for type_, _ in p.levels:
        if type_.startswith("piece;"):
            image = decode(type_[6:], ";")
            if len(image) >= 3 and not java_blank(image[2]):
                yield image[2]
        elif type_.startswith("emb2;"):
            fields = decode(type_[5:], ";")
            if len(fields) > 15:
                yield from (i for i in decode(fields[15], ",") if not java_blank(i))
        elif type_.startswith("obs;"):
            fields = decode(type_[4:], ";")
            if len(fields) > 1 and not java_blank(fields[1]):
                yield fields[1]


#: What a finding in a prototype no piece uses ends with, once a warning.
UNUSED_PROTOTYPE = " (no piece uses this prototype)"


def _piece_prototype_refs(p: DecodedPiece, depth: int = 0) -> Iterator[str]:
    """The prototype names a piece brings into play: its own ``prototype;Name`` traits and those
    of the piece each of its Place Marker / Replace traits defines inline (a markerSpec starting
    ``+/``, decoded as ``PlaceMarker.createBaseMarker`` does, nested markers too, at most 16
    deep). A markerSpec that is a path names a PieceSlot, which is a root of its own."""
    yield from p.prototype_names
    if depth >= 16:
        return
    for type_, _ in p.levels:
        if type_.startswith(("placemark;", "replace;")):
            fields = decode(type_.split(";", 1)[1], ";")
            spec = fields[2] if len(fields) > 2 else ""
            if spec.startswith("+/"):
                try:
                    marker = decode_add_piece(spec)
                except PieceDecodeError:
                    continue  # VASSAL builds no marker of it
                yield from _piece_prototype_refs(marker, depth + 1)


def used_prototypes(ctx: ModuleContext) -> set[str] | None:
    """The names of the prototypes some piece of the module uses: the transitive closure, over
    the prototypes' own ``prototype;Name`` traits and Place Marker / Replace definitions
    (:func:`_piece_prototype_refs`), from every real piece: each PieceSlot and CardSlot of the
    buildFile (palettes, At-Start Stacks, decks), each piece of the module's setups that lint
    decodes (saves keep ``prototype;Name`` unexpanded; :attr:`ModuleContext.setup_prototypes`),
    and the pieces their Place Marker / Replace traits define. A prototype reached only from
    prototypes outside the set is not in it. None: every prototype must be taken as used.

    Why an unused prototype is never built (VASSAL 3.7.26): ``PrototypeDefinition.build`` only
    keeps the definition's text (``pieceDefinition = Builder.getText(e)``); it is decoded in
    ``PrototypeDefinition.getPiece``, which the Player calls only from
    ``UsePrototype.buildPrototype`` (``PrototypesContainer.getPrototype(prototypeName)``, an
    exact ``definitions.get(name)``) when a piece carrying ``prototype;Name`` is expanded to be
    drawn or asked for its traits. Pieces come only from PieceSlots (``PieceSlot.getPiece``),
    saves (AddPiece) and markers (``PlaceMarker.createBaseMarker``: its inline AddPiece or the
    PieceSlot its path names); the other callers of ``getPiece`` are the editor's
    (``GameModule.checkGpIds`` runs only when the archive is an ``ArchiveWriter``,
    ``ConfigureTree``, the UsePrototype editor). So no player ever sees the images or missing
    prototypes of a prototype outside this set.

    An extension: ``PrototypesContainer`` keeps one name → definition map for the module and
    every loaded extension (an extension's PrototypeDefinitions are added to the module's
    container, ``PrototypesContainer.add`` → ``addDefinition``, ``definitions.put``: the one
    loaded last wins a shared name), so an extension's prototype serves the base's pieces and
    any other extension's by name. Without the base, lint cannot see what names them: None.
    With the base, the base's PieceSlots are roots too, the prototypes resolve as VASSAL does
    (the extension's over the base's of the same name), and a prototype of the extension that
    shares a base prototype's name counts as used (it replaces a definition the base's setups
    or other extensions may name, which lint does not see). Another extension naming a
    prototype of this one that neither it nor the base uses is out of sight: that one is a
    warning, not an error, as a module's prototype only an extension uses.

    Module code (:func:`_code_names_prototypes`, the module's or the base's) may build pieces
    from any prototype: then None too."""
    if ctx.kind == "extension" and ctx.base is None:
        return None
    if _code_names_prototypes(ctx) or (ctx.base is not None and _code_names_prototypes(ctx.base)):
        return None
    graph: dict[str, DecodedPiece | None] = dict(ctx.prototypes)
    owners = [ctx]
    if ctx.kind == "extension" and ctx.base is not None:
        graph = {**ctx.base.prototypes, **ctx.prototypes}
        owners.append(ctx.base)
    todo: list[str] = list(ctx.setup_prototypes)
    for owner in owners:
        for el, p in owner.pieces:
            if el.tag != VM + "PrototypeDefinition":
                todo.extend(_piece_prototype_refs(p))
    if ctx.kind == "extension" and ctx.base is not None:
        todo.extend(name for name in ctx.prototypes if name in ctx.base.prototypes)
    used: set[str] = set()
    while todo:
        name = todo.pop()
        if name in used:
            continue
        used.add(name)
        definition = graph.get(name)
        if definition is not None:
            todo.extend(_piece_prototype_refs(definition))
    return used


#: VASSAL classes through which a module's own code reaches prototypes by name.
_PROTOTYPE_CLASSES = frozenset({"VASSAL/build/module/PrototypesContainer",
                                "VASSAL/build/module/PrototypeDefinition",
                                "VASSAL/counters/UsePrototype"})


def _code_names_prototypes(ctx: ModuleContext) -> bool:
    """Whether the archive's own Java code may build pieces from prototypes by name, so that
    no prototype can be proved unused: a class referring to ``PrototypesContainer``,
    ``PrototypeDefinition`` or ``UsePrototype`` (X-Wing's ``VassalXWSPilotPieces`` adds
    prototypes it names in a table), one holding the text ``prototype;`` (a type string it
    decodes), or a ``.class`` entry lint cannot read (it cannot tell)."""
    from .javaclass import ClassFileError, class_refs

    if ctx.names is None or ctx.archive is None or ctx.bare:
        return False
    for entry in ctx.names.names:
        if not entry.endswith(".class"):
            continue
        try:
            data = ctx.archive.read(entry)
            refs = class_refs(data).refs
        except (ClassFileError, VassalFormatError):
            return True
        if refs & _PROTOTYPE_CLASSES or b"prototype;" in data:
            return True
    return False


def settle_unused_prototypes(ctx: ModuleContext) -> None:
    """Turn each error recorded with :meth:`ModuleContext.add_in_prototype` (a missing image,
    a missing prototype, a Send To Location target that does not exist, any fault of a trait:
    an unknown side, layer or rotate states, a key command's target) whose prototype no
    piece uses (:func:`used_prototypes`) into a warning ending :data:`UNUSED_PROTOTYPE`: no
    player sees it, but a piece made or edited to use the prototype would show it (fragile,
    not broken). Run after every module check, setups included."""
    if not ctx.prototype_errors:
        return
    used = used_prototypes(ctx)
    if used is None:
        return
    for index, name in ctx.prototype_errors:
        if name not in used:
            f = ctx.findings[index]
            ctx.findings[index] = Finding(WARNING, f.entry, f.element_path,
                                          f.message + UNUSED_PROTOTYPE, f.check)


# --------------------------------------------------------------------------- module checks


@module_check
def check_entries(ctx: ModuleContext) -> None:
    """The buildFile and metadata entries present and parseable; no BOM (§1, §8 items 2, 4, 21).

    VASSAL reads ``buildFile`` instead of ``buildFile.xml`` when the metadata's VassalVersion is
    below 3.5 (§1); a module with only ``buildFile`` is read that way. An extension (root
    ``ModuleExtension`` or an ``extensiondata`` entry) needs ``extensiondata`` (§5)."""
    arc = ctx.archive
    assert arc is not None
    ctx.names = ArchiveNames.of(arc, "extension" if "extensiondata" in arc else "module")
    if not ctx.bare:
        _check_entry_names(ctx, arc, ctx.names)
    if "buildFile.xml" not in arc and "buildFile" in arc:
        ctx.buildfile_entry = "buildFile"
    meta = "extensiondata" if "extensiondata" in arc else "moduledata"
    wanted = [ctx.buildfile_entry] + ([] if ctx.bare else [meta])
    extension = False  # the root is ModuleExtension (the buildFile is read first)
    old_extension = False  # ... with neither metadata file but an old-style buildFile
    for entry in wanted:
        if entry not in arc:
            if entry == "moduledata" and extension and ctx.buildfile_entry == "buildFile":
                # MetaDataFactory.buildMetaData finds the ModuleExtension root in the first
                # lines of the buildFile, and ExtensionMetaData.read takes version, VASSAL
                # version and module from that root when there is no extensiondata: VASSAL
                # 3.7.26 loads the extension (vassal-check: the corpus' carcassonne_castle_rules_extension)
                # if that vassalVersion is below 3.5, else ModuleExtension.build looks for
                # buildFile.xml and loads nothing
                old_extension = True
                assert ctx.root is not None
                vv = ctx.root.get("vassalVersion", "")
                ver = _version(vv)
                if ver is not None and ver >= (3, 5):
                    ctx.add(ERROR, "extensiondata", "", f"extensiondata is missing, and the "
                            f"buildFile's vassalVersion {vv!r} makes VASSAL read 'buildFile.xml', "
                            "which is missing: it loads an empty extension (ExtensionMetaData."
                            "read, ModuleExtension.build; §5)")
                else:
                    ctx.add(WARNING, "extensiondata", "", "extensiondata is missing: VASSAL "
                            "loads this old-style extension, reading its metadata from the "
                            "buildFile's root (MetaDataFactory.buildMetaData, "
                            "ExtensionMetaData.read; §5)")
            elif entry == "moduledata" and ctx.buildfile_entry in arc and not extension:
                # VASSAL 3.7.26 opens such a module (vassal-check: the corpus' Vive l'Empereur
                # and The Longest Day load); the Module Manager then reads name and version from
                # the buildFile's first lines instead
                ctx.add(WARNING, entry, "", "moduledata is missing: VASSAL opens the module, but "
                        "the Module Manager guesses its name and version from the buildFile (§1)")
            else:
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
            extension = root.tag == VM + "ModuleExtension"
        else:
            ctx.moduledata = root
    if ctx.root is not None and ctx.root.tag == VM + "ModuleExtension":
        ctx.kind = "extension"
        if not ctx.bare and not old_extension:
            for entry in ("extensiondata", "moduledata"):
                if entry not in arc:
                    ctx.add(ERROR, entry, "", f"an extension needs {entry} (§5, §8 item 21)")


def _check_entry_names(ctx: ModuleContext, arc: Archive, names: ArchiveNames) -> None:
    """Entry names as Java reads them (§1, §8 item 1): a name without the UTF-8 flag that is no
    valid UTF-8 (CP437 from an old zip tool) stops VASSAL opening the archive ("invalid CEN
    header (bad entry name)", seen with VASSAL 3.7.26); one that is valid UTF-8 is read as UTF-8,
    which may differ from what the zip tool shows; names that differ only in case collide when
    the archive is unpacked on Windows or macOS."""
    for shown, raw in names.unreadable:
        ctx.add(ERROR, shown, "", f"entry name {raw!r} has no UTF-8 flag and is no UTF-8 (CP437 "
                "from an old zip tool): Java refuses the archive, 'invalid CEN header (bad entry "
                "name)', and VASSAL does not open it; re-zip with UTF-8 names")
    for java, info in arc.infos.items():  # java_name: UTF-8 read without the UTF-8 flag
        if java != info.filename:
            ctx.add(WARNING, java, "", f"entry name has no UTF-8 flag: VASSAL reads it as "
                    f"{java!r}, zip tools show {info.filename!r}; re-zip with UTF-8 names")
    for group in names.lower.values():
        if len(group) > 1:
            ctx.add(WARNING, group[0], "", "entries " + " and ".join(repr(g) for g in sorted(group))
                    + " differ only in case: they collide when the module is unpacked on "
                    "Windows or macOS, and one replaces the other")


def _version(text: str) -> tuple[int, int] | None:
    m = re.match(r"\s*(\d+)\.(\d+)", text or "")
    return (int(m.group(1)), int(m.group(2))) if m else None


#: ``Launcher.constraints`` (VASSAL 3.7.26, ``VASSAL/launch/Launcher.java``): module name, the
#: lowest VassalVersion and the lowest module version it may declare ("" for no bound).
LOAD_CONSTRAINTS = (("VASL", "3.4", ""), ("VSQL", "3.4", ""), ("Paths of Glory", "", "9.9"))


def launcher_refusal(name: str, vassal_version: str, version: str) -> str | None:
    """Why VASSAL 3.7.26's Module Manager refuses to open a module named ``name`` with metadata
    ``vassal_version`` and ``version``, or None. ``Launcher.checkModuleLoadable``, called by
    ``Player.LaunchAction.actionPerformed`` and the Editor's launch action: a name in
    :data:`LOAD_CONSTRAINTS` whose metadata VassalVersion or version compares below the
    constraint's (``VersionUtils.compareVersions``) is refused with
    ``Error.module_too_old_vassal_version`` or ``Error.module_too_old_module_version``; any
    other module with that name opens.

    >>> launcher_refusal("Paths of Glory", "3.7.0", "10.1") is None
    True
    >>> launcher_refusal("VASL", "3.2.17", "6.6")[:40]
    "module 'VASL' declares VassalVersion '3."
    """
    from .versions import compare_versions

    for reserved, min_vassal, min_module in LOAD_CONSTRAINTS:
        if name != reserved:
            continue
        if min_vassal and compare_versions(vassal_version, min_vassal) < 0:
            return (f"module {name!r} declares VassalVersion {vassal_version!r}, below "
                    f"{min_vassal}: the Module Manager refuses to play or edit it ('too old', "
                    "Player.LaunchAction / Editor: Launcher.checkModuleLoadable)")
        if min_module and compare_versions(version, min_module) < 0:
            return (f"module {name!r} has version {version!r}, below {min_module}: the "
                    "Module Manager refuses to play or edit it ('too old', Player.LaunchAction "
                    "/ Editor: Launcher.checkModuleLoadable)")
    return None


def _metadata_versions(md: etree._Element | None, root: etree._Element) -> tuple[str, str, str]:
    """``(name, VassalVersion, version)`` as ``ModuleMetaData`` reads them: from moduledata, or
    from the buildFile's root when there is no moduledata (``MetaDataFactory.buildMetaData``)."""
    if md is not None:
        return ((md.findtext("name") or "").strip(), (md.findtext("VassalVersion") or "").strip(),
                (md.findtext("version") or "").strip())
    return root.get("name", "").strip(), root.get("VassalVersion", ""), root.get("version", "")


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
        elif ver is not None and ver >= (3, 5) and bf == "buildFile":
            # GameModule.build / ModuleExtension.build (3.7.26): compareVersions(
            # truncateToMinorVersion(VassalVersion), "3.5") >= 0 reads BUILDFILE, buildFile.xml
            if ctx.kind == "extension":
                ctx.add(ERROR, md_entry, "data/VassalVersion",
                        f"VassalVersion {vv!r} makes VASSAL read 'buildFile.xml', but the "
                        "extension's build file is named 'buildFile': VASSAL logs 'File "
                        "buildFile.xml not found in archive' and loads it as an empty extension "
                        "(ModuleExtension.build); rename the entry buildFile.xml")
            else:
                ctx.add(ERROR, md_entry, "data/VassalVersion",
                        f"VassalVersion {vv!r} makes VASSAL read 'buildFile.xml', but the "
                        "module's build file is named 'buildFile': 'Could not find buildFile in "
                        "module file', the module does not open (GameModule.build, "
                        "BasicModule.no_buildfile); rename the entry buildFile.xml")
        elif not _VERSION_37.fullmatch(vv):
            ctx.add(NOTE, md_entry, "data/VassalVersion", f"VassalVersion {vv!r} is not 3.7.x")
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
            ctx.add(NOTE, bf, "GameModule", f"VassalVersion {vv!r} is not 3.7.x")
        name = root.get("name", "")
        if not name.strip():
            ctx.add(ERROR, bf, "GameModule", "module name is empty")
        refusal = launcher_refusal(*_metadata_versions(md, root))
        if refusal is not None:
            ctx.add(ERROR, "moduledata" if md is not None else bf,
                    "data" if md is not None else "GameModule", refusal)
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
    for side in sorted({s for s in ctx.sides if ctx.sides.count(s) > 1}):
        ctx.add(ERROR, ctx.buildfile_entry, "PlayerRoster",
                f"side {side!r} is listed {ctx.sides.count(side)} times: players cannot tell "
                "the seats apart")
    for el in ctx.iter(*_MAP_TAGS):
        path = ctx.path(el)
        name = el.get("mapName", "")
        if not name:
            ctx.add(ERROR, ctx.buildfile_entry, path, "map has no mapName (§2.3)")
        elif name in ctx.maps:
            ctx.add(ERROR, ctx.buildfile_entry, path,
                    f"duplicate mapName {name!r}: also {ctx.path(ctx.maps[name].element)}; "
                    "saves find only one of them (§7.3)")
        present = {c.tag for c in el if isinstance(c.tag, str)}
        missing = [short_tag(tag) for tag in REQUIRED_MAP_CHILDREN if tag not in present]
        if missing:
            ctx.add(NOTE, ctx.buildfile_entry, path,
                    f"map lacks {', '.join(missing)}: the player has no such control (§2.3)")
        boards: dict[str, tuple[int, int] | None] = {}
        setup = None
        for picker in el.findall(VM + "map.BoardPicker"):
            for b in picker.findall(VM + "map.boardPicker.Board"):
                bname = b.get("name", "")
                if not bname:
                    ctx.add(WARNING, ctx.buildfile_entry, ctx.path(b),
                            "board has no name: 'One of the boards … has no name' (§7.3)")
                elif bname in boards:
                    ctx.add(ERROR, ctx.buildfile_entry, ctx.path(b),
                            f"duplicate board {bname!r} in map {name!r}: 'More than one board "
                            "named …', saves pick only the first (§7.3)")
                boards[bname] = _board_size(arc, b)
            for s in picker.findall("setup"):
                try:
                    setup = _parse_setup(s.text or "")
                except ValueError as exc:
                    ctx.add(ERROR, ctx.buildfile_entry, ctx.path(s), f"bad <setup>: {exc}")
        if not boards:
            ctx.add(ERROR, ctx.buildfile_entry, path, "map has no board (§2.4)")
        if name and name not in ctx.maps:
            ctx.maps[name] = MapInfo(name, el, _int(el.get("edgeWidth")),
                                     _int(el.get("edgeHeight")), boards, setup)
    for n in ctx.iter(VM + "map.boardPicker.board.mapgrid.HexGridNumbering",
                      VM + "map.boardPicker.board.mapgrid.SquareGridNumbering"):
        for attr, allowed in (("first", "HV"), ("hType", "NA"), ("vType", "NA")):
            if n.get(attr, "") not in tuple(allowed):
                ctx.add(ERROR, ctx.buildfile_entry, ctx.path(n),
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
                    ctx.add(ERROR, ctx.buildfile_entry, ctx.path(g),
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
            size = pixel_size(arc.read("images/" + image))
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
    first_def: dict[str, str] = {}
    for el in ctx.iter(VM + "PrototypeDefinition"):
        name = el.get("name", "")
        if name in ctx.prototypes:
            ctx.add(ERROR, ctx.buildfile_entry, ctx.path(el),
                    f"duplicate prototype {name!r}: also {first_def[name]}; pieces get only one "
                    "of them (§7.3)")
        else:
            first_def[name] = ctx.path(el)
        ctx.prototypes[name] = None
    for el in ctx.iter(*_PIECE_TEXT_TAGS):  # element paths only for findings
        text = (el.text or "").strip()
        try:
            p = decode_add_piece(text)
        except PieceDecodeError as exc:
            ctx.add(ERROR, ctx.buildfile_entry, ctx.path(el), f"piece text does not decode: {exc}")
            continue
        if p.id != "null":
            ctx.add(WARNING, ctx.buildfile_entry, ctx.path(el), f"piece id is {p.id!r}, expected null (§3.3)")
        if p.kind != "piece":
            ctx.add(ERROR, ctx.buildfile_entry, ctx.path(el), f"innermost type is a {p.kind}, not piece;")
            continue
        ctx.pieces.append((el, p))
        if el.tag == VM + "PrototypeDefinition":
            ctx.prototypes[el.get("name", "")] = p
        if ctx.kind == "extension":
            known = None if ctx.base is None else {**ctx.base.prototypes, **ctx.prototypes}
            sides = None if ctx.base is None else ctx.base.sides + ctx.sides
        else:
            known, sides = ctx.prototypes, ctx.sides
        for severity, message in _piece_findings(p, known, sides, ctx.read_text, ctx.has_code):
            # a prototype's definition is decoded only when a piece using it is built
            # (PrototypeDefinition.getPiece via UsePrototype.buildPrototype): nothing of it
            # happens when no piece uses it, whatever the trait's fault
            ctx.add_in_prototype(el, severity, ctx.buildfile_entry, ctx.path(el), message)
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
    present, unique and below ``nextPieceSlotId``; decimal in a module, ``extensionId:n`` in an
    extension; the BasicPiece state gpid equals the slot's (§2.2, §5, §8 items 8, 13, 24).

    An empty gpid is an error: ``GpIdChecker`` counts it as broken, and "Refresh Counters"
    cannot match the pieces made from that slot or marker (``GameRefresher``). A duplicate names
    every owner of the gpid."""
    if ctx.root is None:
        return
    bf = ctx.buildfile_entry
    raw_next = ctx.root.get("nextPieceSlotId")
    try:
        next_id = int(raw_next or "") if raw_next is not None else None
    except ValueError:
        sev = ERROR if ctx.kind == "module" and raw_next is not None else WARNING
        ctx.add(sev, bf, short_tag(str(ctx.root.tag)),
                f"nextPieceSlotId {raw_next!r} is not an integer (fatal on load when present, "
                "§2.1)")
        next_id = None
    ext_id = ctx.root.get("extensionId", "") if ctx.kind == "extension" else None

    own = f"{ext_id}:" if ext_id is not None else ""
    owners: dict[str, str] = {}

    def seen(path: str, gpid: str, what: str) -> None:
        if not gpid:
            ctx.add(ERROR, bf, path, f"{what} has no gpid: 'Refresh Counters' cannot find the "
                    "pieces it makes (GpIdChecker, §2.2)")
            return
        # GpIdChecker.testGpId keeps what follows the first ':' and parses it as an int
        prefix, colon, rest = gpid.partition(":")
        number = rest.split(":")[0] if colon else gpid
        n = int(number) if number.isdigit() and number.isascii() else None
        if n is None:
            ctx.add(WARNING, bf, path, f"{what} gpid {gpid!r} is no number: the editor's "
                    "GpIdChecker replaces it, so saved pieces lose their link to it (§2.2)")
        elif own and not colon:
            # GameRefresher builds one GpIdChecker over the module and its extensions, which
            # keeps prefixes (extensionsLoaded): an unprefixed gpid of the base's is a duplicate,
            # an error slot, and "Refresh Counters" then refuses to run (gpid_error_message)
            clash = ctx.base is not None and gpid in ctx.base.gpids
            ctx.add(ERROR if clash else WARNING, bf, path,
                    f"{what} gpid {gpid!r} lacks the extension's prefix {own!r}"
                    + (": the base module has gpid " + gpid + " too, so 'Refresh Counters' finds"
                       " a duplicate and refuses to run" if clash else
                       ": it clashes with any base-module gpid " + gpid + ", after which "
                       "'Refresh Counters' refuses to run")
                    + " (GpIdChecker.testGpId with extensions loaded, GameRefresher; §5)")
        elif (prefix + colon if colon else "") != own:
            ctx.add(NOTE, bf, path, f"{what} gpid {gpid!r} has the prefix of another "
                    f"{'extension' if colon else 'module'} ({own or 'no prefix'} expected); "
                    "VASSAL reads only its number (§2.2, §5)")
        elif next_id is not None and n >= next_id:
            ctx.add(ERROR, bf, path,
                    f"gpid {gpid} is not below nextPieceSlotId {next_id}: the next new slot "
                    "gets the same gpid (§2.2)")
        if gpid in owners:
            ctx.add(ERROR, bf, path, f"duplicate gpid {gpid}: {what} here and {owners[gpid]} "
                    "(§2.2)")
        else:
            owners[gpid] = f"{what} in {path}"
        ctx.gpids.add(gpid)

    decoded = {id(el): p for el, p in ctx.pieces}
    for el in ctx.iter(*_SLOT_TAGS):
        path = ctx.path(el)
        gpid = el.get("gpid", "")
        seen(path, gpid, short_tag(str(el.tag)))
        p = decoded.get(id(el))
        if p is not None and gpid and p.gpid not in ("", gpid):
            ctx.add(NOTE, bf, path,
                    f"BasicPiece state gpid {p.gpid!r} differs from the slot gpid {gpid!r}; "
                    "VASSAL gives new pieces the slot's (PieceSlot.getPiece)")
    for el, p in ctx.pieces:
        for type_, _ in p.levels:
            if type_.startswith(("placemark;", "replace;")):
                kind = type_.split(";", 1)[0]
                fields = decode(type_.split(";", 1)[1], ";")
                gpid = fields[9] if len(fields) > 9 else ""
                what = "PlaceMarker" if kind == "placemark" else "Replace"
                name = fields[0] if fields and fields[0] else "(unnamed)"
                seen(ctx.path(el), gpid, f"{what} trait {name!r}")


#: Tiler heap (MiB) above which VASSAL cannot tile an image on an 8 GiB machine (error) or on a
#: 4 GiB one (warning): ``TilingHandler.sliceTiles`` asks for ``1.66 * 4 * w * h`` bytes + 150
#: MiB, capped at 3/4 of physical memory (``AbstractLaunchAction``, ``TILER_MAXIMUM_HEAP``).
TILER_HEAP_ERROR_MB = 6 * 1024
TILER_HEAP_WARNING_MB = 3 * 1024
#: Entry suffixes VASSAL reads as images (ImageIO: PNG, GIF, JPEG, BMP, TIFF; Batik: SVG).
IMAGE_SUFFIXES = (".png", ".gif", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".svg")


def tiler_heap_mb(width: int, height: int) -> float:
    """The heap, in MiB, VASSAL's tiler asks for to cut an image of ``width`` x ``height`` pixels
    into tiles (``TilingHandler.sliceTiles``: ``1.66 * (4 * w * h >> 20) + 150``)."""
    return 1.66 * ((4 * width * height) >> 20) + 150


def _buildfile_image_refs(ctx: ModuleContext) -> Iterator[tuple[str, str, str]]:
    """``(element path, image name, what)`` of every image the buildFile names (§8 item 10)."""
    for el in ctx.iter():
        tag = str(el.tag)
        if tag == VM + "map.boardPicker.Board" and el.get("image"):
            yield ctx.path(el), el.get("image", ""), "board image"
        elif tag == VM + "SpecialDieFace" and el.get("icon"):
            yield ctx.path(el), el.get("icon", ""), "die face icon"
        elif tag in ("VASSAL.build.widget.Chart", VM + "documentation.AboutScreen") and el.get(
            "fileName"
        ):
            yield ctx.path(el), el.get("fileName", ""), "chart image"
        if tag == VM + "SpecialDieFace":
            continue
        for attr in _ICON_ATTRS:
            value = el.get(attr, "")
            if not value:
                continue
            # VASSAL before 2.9 wrote buttonIcon="Retire" with no such image; PlayerRoster.build
            # (3.7.26) skips the attribute when the archive has no images/Retire
            if (tag == VM + "PlayerRoster" and attr == "buttonIcon" and value == "Retire"
                    and ctx.names is not None and "images/Retire" not in ctx.names):
                continue
            # icons VASSAL never loads: PieceMover.initButton makes (and loads the icon of) the
            # "Mark unmoved" button only when the map's markMoved is not "Never";
            # LOS_Thread.setPersisting shows persistentIconName only for a persisting thread,
            # which persistence "Never" never is (mouseReleased; the editor hides the field)
            if (attr == "markUnmovedIcon" and tag in _MAP_TAGS
                    and el.get("markMoved") == "Never"):
                continue
            if (tag == VM + "map.LOS_Thread" and attr == "persistentIconName"
                    and el.get("persistence") == "Never"):
                continue
            yield ctx.path(el), value, f"{attr} image"


def _piece_image_refs(p: DecodedPiece) -> Iterator[tuple[str, str]]:
    """``(image name, what)`` of a piece: BasicPiece image, Layer (emb2) images, Mask (obs)
    image, Mark When Moved (markmoved) icon (§3.5, §8 item 10)."""
    for image in _images_of(p):
        yield image, "piece image"
    for type_, _ in p.levels:
        if type_.startswith("markmoved;"):
            fields = decode(type_[10:], ";")
            if fields and fields[0]:
                yield fields[0], "moved-marker icon"


def _marker_windows(ctx: ModuleContext) -> set[str]:
    """The PieceWindows a Place Marker or Replace trait names in its marker path: their slots are
    what ``PlaceMarker.createBaseMarker`` copies onto a map (a markerSpec that is no AddPiece
    literal is a ``ComponentPathBuilder`` path whose first segment is
    ``VASSAL.build.module.PieceWindow:<name>``)."""
    windows: set[str] = set()
    for _el, p in ctx.pieces:
        for type_, _ in p.levels:
            if type_.startswith(("placemark;", "replace;")):
                fields = decode(type_.split(";", 1)[1], ";")
                spec = fields[2] if len(fields) > 2 else ""
                head = spec.split("/", 1)[0]
                if not spec.startswith("+") and head.startswith(VM + "PieceWindow:"):
                    windows.add(head.split(":", 1)[1].replace("\\/", "/"))
    return windows


@module_check
def check_images(ctx: ModuleContext) -> None:
    """Every image named anywhere resolves the way VASSAL resolves it, and reads as an image of
    a size VASSAL can hold (§1, §7.3, §8 item 10): board, die-face, chart and icon images and
    every piece's images (:func:`~.refs.resolve_image`: exact case, NFD, VASSAL's own jar,
    ``.gif`` fallback, the base module for an extension); the ``<img>`` of every HelpFile and
    HtmlChart page (``DataArchiveHTMLEditorKit``); the ``xlink:href`` of every SVG under
    ``images/`` (a URL relative to the SVG inside its archive, no backslashes). Then the bytes:
    an image that is no PNG/GIF/JPEG/BMP/TIFF/SVG, or one the tiler cannot hold
    (:data:`TILER_HEAP_ERROR_MB`), is an error when something names it, a warning otherwise."""
    if ctx.bare:
        return
    arc, names = ctx.archive, ctx.names
    assert arc is not None and names is not None
    archives = [names]
    base_names = ctx.base.names if ctx.base is not None else None
    if base_names is not None:
        archives.append(base_names)
    bf = ctx.buildfile_entry
    used: dict[str, str] = {}

    def check(entry: str, path: str, image: str, what: str, hidden: str | None = None,
              el: etree._Element | None = None) -> None:
        where = resolve_image(image, archives)
        if where is None:
            severity = ERROR
            tail = ""
            if ctx.kind == "extension" and base_names is None:
                severity, tail = WARNING, "; it may be in the base module (lint with --base)"
            elif hidden is not None:
                # PieceWindow.addTo builds no window and no toolbar button for a hidden
                # palette: its slots are drawn only in the editor (and 'Refresh Counters'
                # gives their definition to pieces of a game carrying their gpids)
                severity = WARNING
                tail = (f"; the slot is in the hidden PieceWindow {hidden!r}, which VASSAL does "
                        "not show (PieceWindow.addTo): only the editor draws it")
            full = image if image.startswith("/") else "images/" + image
            message = (f"{what} {image!r} not found: no {full}{case_hint(full, archives)} in "
                       f"the archive or VASSAL's jar; 'Image not found' when drawn (§1, §7.3)"
                       f"{tail}")
            if el is not None:
                # a prototype no piece uses is never drawn
                ctx.add_in_prototype(el, severity, entry, path, message)
            else:
                ctx.add(severity, entry, path, message)
        elif where == names.label and not image.startswith("/"):
            found = "images/" + image
            used.setdefault(found if found in names else found + ".gif", f"{what} in {path}")

    for path, image, what in _buildfile_image_refs(ctx):
        check(bf, path, image, what)
    marked = _marker_windows(ctx)
    for el, p in ctx.pieces:
        hidden = next((a.get("name", "") for a in el.iterancestors(VM + "PieceWindow")
                       if a.get("hidden") == "true"), None)
        if hidden in marked:
            hidden = None  # a Place Marker or Replace trait puts pieces of it on a map
        for image, what in _piece_image_refs(p):
            check(bf, ctx.path(el), image, what, hidden, el)
    for entry, chart in _html_pages(ctx):
        try:
            data = arc.read(entry)
        except VassalFormatError:
            continue
        for src in html_image_refs(data):
            kind = classify_url(src)
            if kind in ("fragment", "data"):
                continue
            if kind == "external":
                if src.lower().startswith("file:"):
                    ctx.add(WARNING, entry, "img", f"shows {src!r}, a file on the maker's disk: "
                            "other players do not have it")
                continue
            if "/" not in src and "\\" not in src:
                check(entry, "img", src, "HTML image")
            elif chart:
                ctx.add(ERROR, entry, "img", f"shows {src!r}: an HtmlChart has no base URL, so "
                        "an image path with '/' shows a broken image (write the bare name of an "
                        "image under images/)")
            else:
                target = join_relative(entry, src.replace("\\", "/")) if kind == "relative" else None
                if kind == "backslash" or target is None or target not in names:
                    hint = case_hint(target, [names]) if target else ""
                    ctx.add(ERROR, entry, "img", f"shows {src!r}, which is not in the archive "
                            f"relative to the page{hint}: a broken image")
                else:
                    used.setdefault(target, f"HTML image in {entry}")
    for entry in sorted(n for n in names.names if n.startswith("images/")
                        and n.lower().endswith(".svg")):
        _check_svg(ctx, entry, names, used)
    for entry in sorted(names.names):
        if entry.startswith("images/") and entry.lower().endswith(IMAGE_SUFFIXES) or entry in used:
            _check_image_bytes(ctx, entry, used.get(entry))


def _html_pages(ctx: ModuleContext) -> Iterator[tuple[str, bool]]:
    """``(entry, is_html_chart)`` of every archive HTML page a HelpFile or HtmlChart shows."""
    assert ctx.archive is not None
    for el in ctx.iter(VM + "documentation.HelpFile", "VASSAL.build.widget.HtmlChart"):
        name = el.get("fileName", "")
        chart = str(el.tag).endswith("HtmlChart")
        if not chart and el.get("fileType", "archive") != "archive":
            continue
        if name and name in ctx.archive and name.lower().endswith((".html", ".htm")):
            yield name, chart


def _check_svg(ctx: ModuleContext, entry: str, names: ArchiveNames, used: dict[str, str]) -> None:
    assert ctx.archive is not None
    try:
        data = ctx.archive.read(entry)
    except VassalFormatError:
        return
    severity = ERROR if entry in used else WARNING
    root = parse_svg(data)
    if len(data) <= _IMAGE_HEAD:  # svg_size of it, as _check_image_bytes would work it out
        ctx.svg_sizes[entry] = svg_root_size(root) if root is not None and data.lstrip(
            b"\xef\xbb\xbf \t\r\n").startswith(b"<") else None
    for href in (svg_root_refs(root) if root is not None else ()):
        kind = classify_url(href)
        if kind in ("fragment", "data"):
            continue
        if kind == "external":
            ctx.add(WARNING, entry, "href", f"SVG references {href!r} outside the module: "
                    "VASSAL draws it only where that URL can be read")
        elif kind == "backslash":
            ctx.add(severity, entry, "href", f"SVG references {href!r} with a backslash: in a URL "
                    "that is no folder separator, VASSAL finds nothing and draws the SVG without it "
                    "(use '/')")
        else:
            target = join_relative(entry, href)
            if target is None or target not in names:
                ctx.add(severity, entry, "href", f"SVG references {href!r}, which is not in the "
                        f"archive relative to {entry}{case_hint(target or '', [names])}")
            else:
                used.setdefault(target, f"SVG {entry}")


#: how much of an image :func:`_check_image_bytes` reads first (bytes)
_IMAGE_HEAD = 1 << 16


def _check_image_bytes(ctx: ModuleContext, entry: str, user: str | None) -> None:
    """Garbage bytes and images too large for VASSAL's tiler (see :func:`check_images`)."""
    assert ctx.archive is not None
    try:
        data = ctx.archive.read_head(entry, _IMAGE_HEAD)
        known = ctx.svg_sizes
        info = image_info(data, (lambda _: known[entry]) if entry in known else None)
        if info is None and not data.startswith(b"\x89PNG") and len(data) == _IMAGE_HEAD:
            info = image_info(ctx.archive.read(entry))
    except VassalFormatError as exc:
        ctx.add(ERROR, entry, "", exc.message)
        return
    severity = ERROR if user else WARNING
    named = f" ({user})" if user else " (nothing in the module names it)"
    if info is None:
        ctx.add(severity, entry, "", f"not an image VASSAL can read: {data[:8]!r}… is no PNG, "
                f"GIF, JPEG, BMP, TIFF or SVG; the player sees a broken image{named}")
        return
    if info.format == "svg":
        return
    heap = tiler_heap_mb(info.width, info.height)
    if info.width * info.height > 2**31 - 1 or heap > TILER_HEAP_ERROR_MB:
        ctx.add(severity, entry, "", f"{info.width} x {info.height} px: VASSAL's tiler needs "
                f"{heap / 1024:.1f} GiB of heap, more than an 8 GiB machine gives it; the image "
                f"is never drawn{named}")
    elif heap > TILER_HEAP_WARNING_MB:
        ctx.add(WARNING, entry, "", f"{info.width} x {info.height} px: VASSAL's tiler needs "
                f"{heap / 1024:.1f} GiB of heap, more than a 4 GiB machine gives it{named}")


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
            # no file attribute: fileName stays null (AbstractBuildable.build sets only the
            # attributes present) and PredefinedSetup.launch starts a new empty game, as with
            # useFile="false"; file="" makes it read the entry "": "Setup not found"
            if el.get("file") is None:
                continue
            path = el.get("file", "")
            if not path:
                ctx.add(ERROR, ctx.buildfile_entry, ctx.path(el), "setup has no file")
                continue
        if path and path not in arc:
            ctx.add(ERROR, ctx.buildfile_entry, ctx.path(el),
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
            data = arc.read(path, keep=False)
            inner = open_archive(data)
        except VassalFormatError as exc:
            ctx.add(ERROR, path, "", f"setup file is not a valid .vsav: {exc.message}")
            continue
        with inner:
            _lint_save(inner, path, ctx.findings, module=ctx, setup=True)


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
        known = is_known_class(tag)  # the element's path is worked out only for a finding
        if not known and el is not ctx.root:
            if tag.startswith("VASSAL."):
                ctx.add(ERROR, bf, ctx.path(el), f"class {tag} does not exist in VASSAL 3.7: "
                        "'failed to load class', the component is dropped (§7.2, §8 item 5)")
            else:
                cls_entry = tag.replace(".", "/") + ".class"
                in_base = ctx.base is not None and ctx.base.archive is not None and (
                    cls_entry in ctx.base.archive)
                if ctx.bare or (arc is not None and cls_entry in arc) or in_base:
                    ctx.add(WARNING, bf, ctx.path(el), f"custom class {tag} (module code, §8 item 5)")
                elif ctx.kind == "extension" and ctx.base is None:
                    ctx.add(WARNING, bf, ctx.path(el), f"custom class {tag}: not in the extension, so it "
                            "must come from the base module (lint with --base to check)")
                else:
                    ctx.add(ERROR, bf, ctx.path(el), f"custom class {tag} but the archive has no "
                            f"{cls_entry}: 'failed to load class' (§7.2)")
            continue
        if ptag is not None and is_known_class(ptag) and ptag != root_tag or (
            ptag == root_tag and ctx.kind == "module"
        ):
            ok = child_allowed(ptag, tag) if ptag is not None else None
            if ok is False:
                where = "the module root: the module does not open" if ptag == root_tag else (
                    "its ancestor is dropped with a bug dialog")
                ctx.add(ERROR, bf, ctx.path(el), f"{short_tag(tag)} is not allowed under "
                        f"{short_tag(ptag)}: {where} (§2.1, §8 item 6)")
        if has_rules(tag):  # how VASSAL 3.7.26 really parses each attribute
            for severity, message in check_attributes(tag, el.attrib, is_root=el is ctx.root):
                ctx.add(severity, bf, ctx.path(el), message)
            continue
        for attr, value in el.attrib.items():
            kind = attribute_type(tag, attr)
            if kind is None:
                continue
            problem = value_problem(kind, value)
            if problem is None:
                continue
            severity = ERROR if kind in ("int", "double", "color") else WARNING
            ctx.add(severity, bf, ctx.path(el), f"{attr}={value!r}: {problem} (§2.1, §8 item 7)")


@module_check
def check_code_references(ctx: ModuleContext) -> None:
    """A module's own classes (``*.class`` entries) that refer to VASSAL classes VASSAL 3.7.26
    does not have (removed before 3.7: ``VASSAL/counters/Transparent``, ``VASSAL/tools/
    FileChooser``, …), read from each class file's constant pool (:mod:`.javaclass`) and
    compared with the class list of ``vassal-3.7.26.jar`` (:mod:`.jar_classes`).

    The JVM links such a class with ``NoClassDefFoundError``: ``Builder.create`` cannot build
    the component (VASSAL: "failed to load class"), and the traits and pieces it makes are
    lost. An error for a class the buildFile names or that a named class refers to (it is
    loaded), a warning for one nothing here loads. Entries that are no class file are not
    judged."""
    from .javaclass import ClassFileError, class_refs, missing_vassal_classes

    arc, names = ctx.archive, ctx.names
    if ctx.bare or arc is None or names is None or ctx.root is None:
        return
    refs: dict[str, tuple[str, frozenset[str]]] = {}
    for entry in names.names:
        if not entry.endswith(".class"):
            continue
        try:
            found = class_refs(arc.read(entry))
        except (ClassFileError, VassalFormatError):
            continue
        refs[found.name] = (entry, found.refs)
    if not refs:
        return
    todo = [str(el.tag).replace(".", "/") for el in ctx.iter()]
    loaded: set[str] = set()
    while todo:
        name = todo.pop()
        if name in refs and name not in loaded:
            loaded.add(name)
            todo.extend(refs[name][1])
    for name in sorted(refs):
        entry, used = refs[name]
        gone = missing_vassal_classes(used)
        if not gone:
            continue
        shown = ", ".join(g.replace("/", ".") for g in gone[:3]) + (
            f" and {len(gone) - 3} more" if len(gone) > 3 else "")
        if name in loaded:
            ctx.add(ERROR, entry, "", f"module class {name.replace('/', '.')} uses {shown}, "
                    "which VASSAL 3.7.26 does not have: NoClassDefFoundError when it is loaded, "
                    "so what it builds is lost ('failed to load class')")
        else:
            ctx.add(WARNING, entry, "", f"module class {name.replace('/', '.')} uses {shown}, "
                    "which VASSAL 3.7.26 does not have; nothing in the buildFile loads it here "
                    "(NoClassDefFoundError if something does)")


@module_check
def check_at_start_stacks(ctx: ModuleContext) -> None:
    """At-Start Stacks (``SetupStack``, :mod:`.atstart`) stand on a board that exists
    (``SetupStack.isOwningBoardActive``: an owning board the map lacks, and the stack is never
    placed), at a grid location the board has (``SetupStack.updatePosition``: a name
    ``MapGrid.getLocation`` cannot find is "Error.setup_stack_position_error", Bad Data, and
    the stack stays at its x/y). Whether x/y lies on the board is not judged: without an
    owning board it counts from the map's edge, which may show it."""
    from .atstart import grid_point, read_at_start_stacks
    from .read import read_module_root

    if ctx.root is None or ctx.kind != "module":
        return
    stacks = read_at_start_stacks(ctx.root)
    if not stacks:
        return
    arc = ctx.archive

    def read_image(name: str) -> bytes | None:
        entry = "images/" + name
        if arc is None or entry not in arc:
            return None
        try:
            return arc.read(entry)
        except VassalFormatError:
            return None

    info = read_module_root(ctx.root, None if ctx.bare else read_image)
    bf = ctx.buildfile_entry
    for st in stacks:
        m = info.maps.get(st.map_name)
        if m is None:
            continue
        path = ctx.path(st.element)
        if st.board is not None and st.board not in m.boards:
            ctx.add(ERROR, bf, path, f"at-start stack {st.name!r} belongs to board {st.board!r}, "
                    f"which map {st.map_name!r} does not have: it is never placed "
                    "(SetupStack.isOwningBoardActive)")
            continue
        board = m.boards.get(st.board) if st.board is not None else (
            next(iter(m.boards.values())) if len(m.boards) == 1 else None)
        if board is None or st.location is None:
            continue
        # a zoned board also takes a zone's or region's name (ZonedGrid.getRegionLocation):
        # judged only on a plain hex or square grid
        if board.grid is not None and board.size is not None and not board.zones and (
            grid_point(board, st.location) is None
        ):
            ctx.add(ERROR, bf, path, f"at-start stack {st.name!r} stands at grid location "
                    f"{st.location!r}, which board {board.name!r} does not have: "
                    "'Error.setup_stack_position_error' (Bad Data) on a new game, and the "
                    "stack stays at its x/y (SetupStack.updatePosition)")


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
    ``target`` attribute of Global/Mass/Deck key commands), key-stroke fields, Send To Location
    zones and regions that exist (:func:`send_to_problem`; an extension only with its base)
    (§8 item 14)."""
    bf = ctx.buildfile_entry
    zones = regions = None
    for el, p in ctx.pieces:
        for severity, message in _trait_detail_findings(p):
            ctx.add(severity, bf, ctx.path(el), message)
        for type_, _ in p.levels:
            if type_.startswith("sendto;") and (ctx.kind == "module" or ctx.base is not None):
                if zones is None:
                    zones, regions = _names_of(ctx, _ZONE_TAG), _names_of(ctx, _REGION_TAG)
                problem = send_to_problem(type_, zones, regions or set())
                if problem is None:
                    continue
                # a prototype no piece uses never fires (leftovers copied from another
                # module): a warning then (settle_unused_prototypes)
                ctx.add_in_prototype(el, ERROR, bf, ctx.path(el), problem)
    for el in ctx.iter(VM + "GlobalKeyCommand", VM + "map.MassKeyCommand",
                       VM + "map.DeckGlobalKeyCommand", VM + "StartupGlobalKeyCommand"):
        for problem in gkc_target_problems(el.get("target", "")):
            ctx.add(ERROR, bf, ctx.path(el), f"target: {problem} (§8 item 14)")


_ZONE_TAG = VM + "map.boardPicker.board.mapgrid.Zone"
_REGION_TAG = VM + "map.boardPicker.board.Region"


def _names_of(ctx: ModuleContext, tag: str) -> set[str]:
    """The ``name`` of every ``tag`` element of the module (and of an extension's base)."""
    names = {el.get("name", "") for el in ctx.iter(tag)}
    if ctx.base is not None:
        names |= _names_of(ctx.base, tag)
    return names


def send_to_problem(type_: str, zones: set[str], regions: set[str]) -> str | None:
    """What is wrong with a Send To Location trait (``sendto;`` type) that sends to a zone or a
    region no map of the module has, or None. ``SendToLocation.getSendLocation`` (3.7.26):
    destination ``Z`` looks the zone up by name with ``Map.findZone(String)`` and ``R`` the
    region with ``Map.findRegion(String)`` (every ZonedGrid / RegionGrid of the map's boards);
    when nothing is found it reports "Bad Data in Module: Zone not found" (``reportDataError``)
    and the piece is not sent. Fields after ``sendto;``: 13 the destination, 14 the zone, 15 the
    region; a name holding ``$`` (a property expanded when it fires) or a ``{…}`` expression
    (evaluated when it fires) is not judged.

    >>> send_to_problem("sendto;Go;;;;0;0;;;0;0;1;1;;Z;Nowhere;;", {"Camp"}, set())
    "Send To Location 'Go' sends to zone 'Nowhere', which no map has: 'Zone not found' when it fires, the piece stays"
    """
    fields = decode(type_[len("sendto;"):], ";")
    dest = fields[13][:1] if len(fields) > 13 and fields[13] else "L"
    if dest not in ("Z", "R"):
        return None
    what, index, known = ("zone", 14, zones) if dest == "Z" else ("region", 15, regions)
    name = fields[index] if len(fields) > index else ""
    if "$" in name or name.startswith("{") or name in known:
        return None
    return (f"Send To Location {fields[0]!r} sends to {what} {name!r}, which no map has: "
            f"'{what.capitalize()} not found' when it fires, the piece stays")


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
    the base module when one is given; a ``moduleVersion`` newer than the base's ``version``
    (VASSAL's own comparison, :mod:`.versions`) is a warning, as VASSAL only warns."""
    if ctx.root is None or ctx.kind != "extension":
        return
    bf, root = ctx.buildfile_entry, ctx.root
    if not root.get("extensionId", "").strip():
        # harmless in play: ExtensionsLoader.addExtension compares ids only when non-empty and
        # ModuleExtension.build allocates one only when the editor opens the extension; what
        # an empty id does to the extension's gpids is reported per slot (check_gpids)
        ctx.add(NOTE, bf, "ModuleExtension", "extensionId is empty: VASSAL loads the extension "
                "without its id-conflict check (ExtensionsLoader.addExtension); the editor "
                "allocates an id on the next save (ModuleExtension.build, §5)")
    universal = root.get("anyModule") == "true"
    base = ctx.base
    if base is not None and base.root is not None and not universal:
        if root.get("module", "") != base.root.get("name", ""):
            ctx.add(ERROR, bf, "ModuleExtension",
                    f"module {root.get('module', '')!r} is not the base module's name "
                    f"{base.root.get('name', '')!r}: the extension is deactivated (§5, §7.3)")
        wanted = root.get("moduleVersion")
        have = base.root.get("version", "0.0")  # GameModule's version defaults to 0.0
        if wanted is not None and module_older_than(have, wanted):
            ctx.add(WARNING, bf, "ModuleExtension",
                    f"moduleVersion {wanted!r} is newer than the base module's version {have!r}: VASSAL "
                    "says in the chat that the extension was built for module version "
                    f"{wanted} (ModuleExtension.setAttribute, VersionUtils.compareVersions); it "
                    "still loads (§5)")
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
        path = ctx.path(child)
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
                    ctx.add(ERROR, bf, ctx.path(kids[0]),
                            f"{short_tag(str(kids[0].tag))} is not allowed under target "
                            f"{short_tag(str(parent.tag))} (§5, §8 item 6)")


# --------------------------------------------------------------------------- save checks


@save_check
def check_save_entries(ctx: SaveContext) -> None:
    """savedGame decodes (!VCSK or plain UTF-8) and every command with it; moduledata names the
    module (§4.1-4.3, §8 items 15-17).

    A save with only ``savedGame`` is the old (pre-3.0) form: VASSAL loads it and checks nothing
    against the module (``GameState``: no ``savedata`` means no metadata check), so that is a
    note, not an error."""
    arc = ctx.archive
    assert arc is not None
    if "savedGame" not in arc:
        ctx.add(ERROR, ctx.entry, "", "save has no savedGame entry: 'not a VASSAL saved game' "
                "(§4.1)")
        return
    missing = [e for e in ("savedata", "moduledata") if e not in arc]
    if missing:
        ctx.add(NOTE, ctx.entry, "", f"old-style save without {' and '.join(missing)}: VASSAL "
                "loads it without checking module name or version (§4.1)")
    try:
        ctx.save = read_saved_game(arc.read("savedGame", keep=False))
    except VassalFormatError as exc:
        ctx.add(ERROR, f"{ctx.entry}:savedGame", "", exc.message)
        return
    for index, severity, message in ctx.save.problems:
        ctx.add(severity, f"{ctx.entry}:savedGame", _cmd_path(index), message)
    # GameState.isSaveMetaDataValid (the "created with the module named …" question) runs only
    # for a file the player opens (GameState.loadGame, WizardSupport.SavedGameLoader with a
    # file); a predefined setup goes PredefinedSetup.launch -> GameState.loadGameInBackground
    # (or the wizard's setup branch) and its moduledata is never compared (3.7.26).
    if "moduledata" in arc and "savedata" in arc and ctx.module is not None and (
        ctx.module.module_name is not None
    ) and not ctx.setup:
        try:
            name = (arc.read_xml("moduledata").findtext("name") or "").strip()
        except VassalFormatError as exc:
            ctx.add(ERROR, f"{ctx.entry}:moduledata", "", exc.message)
        else:
            if name != ctx.module.module_name.strip():
                ctx.add(WARNING, f"{ctx.entry}:moduledata", "data/name",
                        f"save is for module {name!r}, not {ctx.module.module_name!r}: VASSAL "
                        "asks 'This save was created with the module named …' (§4.1)")


def _cmd_path(index: int) -> str:
    return f"command[{index}]" if index >= 0 else ""


@dataclass
class _Known:
    """What a save is checked against: the module's maps, gpids, prototypes and sides; for an
    extension the base module's too. ``maps_known`` is False for an extension linted without its
    base (its pieces may stand on the base module's maps)."""

    maps: dict[str, MapInfo]
    gpids: set[str]
    prototypes: dict[str, DecodedPiece | None] | None
    sides: list[str] | None
    maps_known: bool
    read: str = ""
    code: bool = False


def _known(mod: ModuleContext | None) -> _Known:
    if mod is None:
        return _Known({}, set(), None, None, False)
    if mod.kind == "extension":
        base = mod.base
        if base is None:
            return _Known(dict(mod.maps), set(mod.gpids), None, None, False)
        return _Known({**base.maps, **mod.maps}, base.gpids | mod.gpids,
                      {**base.prototypes, **mod.prototypes}, base.sides + mod.sides, True,
                      base.read_text + mod.read_text, base.has_code or mod.has_code)
    return _Known(mod.maps, mod.gpids, mod.prototypes, mod.sides, True, mod.read_text,
                  mod.has_code)


@save_check
def check_save_pieces(ctx: SaveContext) -> None:
    """Pieces pass the piece checks; maps and boards exist; positions inside the map; stacks at
    their pieces' position; gpids known to the module; ChangePiece states fit the piece's type
    and MovePiece targets exist (§4.3-4.4, §8 items 18-20).

    Positions follow what VASSAL does with them: a stack or piece on the ``null`` map is off any
    map; one at negative coordinates is parked off the board's top or left edge, a common idiom
    VASSAL loads and never draws (one note per save); one beyond the right or bottom edge is a
    warning (the player never sees it, usually a wrong board size or a stale position)."""
    save, mod = ctx.save, ctx.module
    if save is None:
        return
    entry = f"{ctx.entry}:savedGame"
    known = _known(mod)
    bounds: dict[str, tuple[int, int] | None] = {}
    # a log's LOG entries that choose boards again: (their command indexes, the map's size
    # from each on), for the pieces its later entries add
    steps: dict[str, tuple[list[int], list[tuple[int, int] | None]]] = {}
    if known.maps_known:
        for name, info in known.maps.items():
            bounds[name] = _map_bounds(ctx, entry, info, save.boards.get(name))
            if info.element.tag == VM + "PlayerHand":
                # PlayerHand.mapSize (3.7.26): the hand's size is its boards' united with the
                # bounding box of every piece in it, so no piece is ever beyond its edge
                bounds[name] = None
            elif name in save.board_steps:
                at = save.board_steps[name]
                steps[name] = ([i for i, _boards in at],
                               [_map_bounds(ctx, entry, info, boards) for _i, boards in at])
        for name in (*save.boards, *(n for n in save.board_steps if n not in save.boards)):
            if name not in known.maps:
                ctx.add(ERROR, entry, "", f"board command for map {name!r}, which the module "
                        "does not have: VASSAL ignores it")
    parked = 0
    no_gpid = 0
    no_gpid_first: str | None = None
    repeated: dict[tuple[str, str], list] = {}
    placed: list[tuple[tuple[int, int], str, str, str]] = []
    # pieces of one kind repeat hundreds of times in a save and across a module's setups:
    # their findings depend only on their levels above the BasicPiece (and its type) and on
    # the module, so each distinct piece is checked once per module; within a save, commands
    # that differ only in their ids are checked once as a group (DecodedSave.groups)
    memo: dict[tuple[tuple[str, str], ...], list[tuple[str, str]]] = (
        mod.piece_findings if mod is not None else {})
    maps, gpids, maps_known = known.maps, known.gpids, known.maps_known
    groups = save.groups()
    for group in groups:
        p, count = group.piece, group.count
        stack, basic = p.stack, p.basic
        kind = "stack" if stack is not None else "piece" if basic is not None else p.kind
        if kind == "piece":
            if not basic.gpid:  # type: ignore[union-attr]
                no_gpid += count
                if no_gpid_first is None:
                    no_gpid_first = f"command[{group.first()}]"
            basic_type, basic_state = p.levels[-1]
            key = (*p.levels[:-1], (basic_type, "\\" if basic_state.endswith("\\") else ""))
            found = memo.get(key)
            if found is None:
                found = memo[key] = list(_piece_findings(p, known.prototypes, known.sides,
                                                         known.read, known.code))
                if mod is not None:
                    found.extend(_save_image_findings(mod, p))
                    if ctx.setup:
                        # a setup's pieces make the prototypes they name used (its distinct
                        # pieces are all seen here: the memo is the module's)
                        mod.setup_prototypes.update(_piece_prototype_refs(p))
            for severity, message in found:
                repeated.setdefault((severity, message), []).append(group)
        if not maps_known:
            continue
        if stack is not None:
            map_name, x, y = stack.map_name, stack.x, stack.y
        elif basic is not None:
            map_name, x, y = basic.map_name, basic.x, basic.y
        else:
            continue  # a deck: no map of its own
        if map_name == "null":
            continue
        # what follows depends on the map and position alone, the same for every member;
        # each member is named in the order a loop over the pieces, then the stacks, meets it
        found_here: list[tuple[str, str]] = []
        stepped = None  # the map's boards change in the log: the edge depends on the member
        if map_name not in maps:
            found_here.append((ERROR, f"stands on map {map_name!r}, which the module does not "
                               "have: 'Map not found', the piece is not placed (§4.4)"))
        else:
            if x < 0 or y < 0:
                parked += count
            elif map_name in steps:
                stepped = steps[map_name]
            else:
                found_here.extend(_beyond_edge(x, y, bounds.get(map_name), map_name))
            if basic is not None and gpids and basic.gpid and basic.gpid not in gpids:
                found_here.append((WARNING, f"has gpid {basic.gpid!r}, which matches no "
                                   "PieceSlot: 'Refresh Counters' cannot update it (§4.4)"))
        if found_here or stepped is not None:
            for pid, index in group.members():
                here = found_here
                if stepped is not None:
                    # the boards of the last LOG entry up to this command, else the saved ones
                    k = bisect_right(stepped[0], index) - 1
                    size = stepped[1][k] if k >= 0 else bounds.get(map_name)
                    here = [*_beyond_edge(x, y, size, map_name), *found_here]
                for severity, message in here:
                    what = "piece" if message.startswith("has gpid") else kind
                    placed.append(((0 if kind != "stack" else 1, index), severity,
                                   f"command[{index}]", f"{what} {pid} {message}"))
    placed.sort(key=lambda f: f[0])
    for _rank, severity, path, message in placed:
        ctx.add(severity, entry, path, message)
    for (severity, message), alike in repeated.items():
        total = sum(g.count for g in alike)
        more = f" (and {total - 1} more pieces of this save)" if total > 1 else ""
        ctx.add(severity, entry, f"command[{alike[0].first()}]", message + more)
    if no_gpid:
        which = (f"{no_gpid} pieces of this save have no gpid (the first here)"
                 if no_gpid > 1 else "a piece of this save has no gpid")
        ctx.add(WARNING, entry, no_gpid_first or "",
                f"{which}: 'Refresh Counters' "
                "cannot match them to a PieceSlot and leaves them as they are "
                "(GpIdChecker.createUpdatedPiece: 'Slot not found')")
    if parked:
        ctx.add(NOTE, entry, "", f"{parked} pieces or stacks are parked at negative coordinates "
                "(off the board's top or left edge): VASSAL loads them and never draws them")
    moved = 0
    for group in groups:
        s = group.piece.stack
        if s is None or not s.piece_ids:
            continue
        for pid in s.piece_ids:
            member = save.find(pid)
            if member is not None and member.stack is None and (member.map_name, member.x, member.y) != (
                s.map_name, s.x, s.y
            ):
                moved += group.count
    if moved:
        ctx.add(NOTE, entry, "", f"{moved} stacked pieces record another position than their "
                "stack: VASSAL draws them at the stack's (BasicPiece.getPosition, §4.4)")
    _check_changes(ctx, entry, save, known)


def _save_image_findings(mod: ModuleContext, p: DecodedPiece) -> Iterator[tuple[str, str]]:
    """``(severity, message)`` for each image of a save piece that neither the module (nor an
    extension's base) holds nor any piece of the module (or of an extension's base) names
    (those are reported on the module): a piece defined only inside the save, whose image VASSAL looks up in the module's
    archive when it draws it (``ImageOp`` through ``DataArchive.getInputStream``, as for module
    pieces) and shows "Image not found" when loading the save. Not judged for an extension
    linted without its base, nor for a bare buildFile."""
    if mod.names is None or mod.bare or (mod.kind == "extension" and mod.base is None):
        return
    if mod.piece_images is None:
        owners = [mod] if mod.base is None else [mod, mod.base]
        mod.piece_images = {image for ctx in owners for _, q in ctx.pieces
                            for image, _ in _piece_image_refs(q)}
    archives = [mod.names]
    if mod.base is not None and mod.base.names is not None:
        archives.append(mod.base.names)
    for image, what in _piece_image_refs(p):
        if image in mod.piece_images or resolve_image(image, archives) is not None:
            continue
        full = image if image.startswith("/") else "images/" + image
        yield ERROR, (f"{what} {image!r} of a piece defined in the save, not found: no {full}"
                      f"{case_hint(full, archives)} in the module or VASSAL's jar; 'Image not "
                      "found' when the save is loaded (§1, §7.3)")


def _check_changes(ctx: SaveContext, entry: str, save: DecodedSave, known: _Known) -> None:
    """ChangePiece (``D/``) states decoded against the type of the piece they change, as
    ``ChangePiece.execute`` applies them with ``setState``; MovePiece (``M/``) maps exist."""
    for change in save.changes:
        path = f"command[{change.index}]"
        if change.kind == "move":
            if known.maps_known and change.map_name is not None and (
                change.map_name not in known.maps
            ):
                ctx.add(ERROR, entry, path, f"MovePiece puts {change.piece_id} on map "
                        f"{change.map_name!r}, which the module does not have")
            continue
        if change.kind != "change":
            continue
        target = save.find(change.piece_id)
        if target is None:
            continue  # a piece the module's at-start stacks or decks create; VASSAL skips others
        try:
            type_string = "stack" if target.kind == "stack" else _type_string(target)
            text = "+/" + encode([change.piece_id, type_string, change.state], "/")
        except ValueError:
            continue  # a level ending in a backslash, reported with the AddPiece
        try:
            changed = decode_add_piece(text)
        except PieceDecodeError as exc:
            ctx.add(ERROR, entry, path, f"ChangePiece state for {target.kind} {change.piece_id} "
                    f"(added by command[{save.command_index(target)}]) does not fit its type: "
                    f"{exc}")
            continue
        if changed.kind == "piece":
            for severity, message in _piece_findings(changed, known.prototypes, known.sides,
                                                     known.read, known.code):
                ctx.add(severity, entry, path, f"after ChangePiece: {message}")
        if known.maps_known and changed.map_name not in (None, "null") and (
            changed.map_name not in known.maps
        ):
            ctx.add(ERROR, entry, path, f"ChangePiece puts {change.piece_id} on map "
                    f"{changed.map_name!r}, which the module does not have")


def _type_string(p: DecodedPiece) -> str:
    """The nested type string of a decoded piece (its levels' types, outermost first)."""
    from .pieces import nest

    return nest([t for t, _ in p.levels])


def _beyond_edge(x: int, y: int, size: tuple[int, int] | None, map_name: str
                 ) -> list[tuple[str, str]]:
    """The warning for a position ``(x, y)`` (pixels, not negative) at or beyond the right or
    bottom edge of a map of ``size`` (width, height in pixels; None: unknown), or none."""
    if size is None or (x < size[0] and y < size[1]):
        return []
    w, h = size
    return [(WARNING, f"at ({x}, {y}) is beyond the right or bottom edge of map {map_name!r} "
             f"(0..{w - 1}, 0..{h - 1}): the player never sees it")]


def _map_bounds(ctx: SaveContext, entry: str, info: MapInfo,
                placed: list[tuple[str, int, int, bool]] | None) -> tuple[int, int] | None:
    if not info.boards:
        return None
    placements = placed if placed is not None else info.setup
    if placements is not None and not placements:
        return None
    if placements is None:
        if len(info.boards) != 1:
            ctx.add(WARNING, entry, "", f"map {info.name!r} has several boards but neither the "
                    "save nor the module chooses them: VASSAL asks the player (§8 item 20)")
            return None
        placements = [(next(iter(info.boards)), 0, 0, False)]
    for b, _c, _r, _rev in placements:
        if b not in info.boards:
            ctx.add(ERROR, entry, "", f"the save puts board {b!r} on map {info.name!r}, which "
                    "has no such board: VASSAL leaves the map without it")
            return None
        if info.boards[b] is None:
            return None
    boards = [Board(b, None, *info.boards[b]) for b, *_ in placements]  # type: ignore[misc]
    m = Map(info.name, boards, edge_width=info.edge_width, edge_height=info.edge_height)
    return map_size(m, [(b, c, r) for b, c, r, _ in placements])


# --------------------------------------------------------------------------- entry points


def _lint_save(arc: Archive, entry: str, findings: list[Finding],
               module: ModuleContext | None = None, *, setup: bool = False) -> None:
    ctx = SaveContext(findings, entry=entry, module=module, archive=arc, setup=setup)
    for check in SAVE_CHECKS:
        ctx.check = check.__name__
        check(ctx)


def _module_context(arc: Archive, findings: list[Finding], *, bare: bool = False,
                    base: ModuleContext | None = None, as_base: bool = False) -> ModuleContext:
    """Run the module checks on ``arc``. ``as_base``: the module is only the base another file
    is checked against, so its own setups and image bytes are not linted (their findings are
    thrown away anyway)."""
    ctx = ModuleContext(findings, archive=arc, bare=bare, base=base)
    for check in MODULE_CHECKS:
        ctx.check = check.__name__
        if as_base and check in (check_setups, check_images, check_files):
            continue
        if check is not check_entries and ctx.root is None:
            if check is check_metadata:
                check(ctx)
            continue
        check(ctx)
    if not as_base:
        settle_unused_prototypes(ctx)
    return ctx


#: File names of saves and logs: such an archive without ``savedGame`` is a broken save, not a
#: module without a buildFile.
SAVE_SUFFIXES = (".vsav", ".vlog", ".sav", ".log")


def lint_archive(arc: Archive, name: str = "", *, base: Archive | None = None,
                 bare: bool = False) -> list[Finding]:
    """Lint an opened archive (§8): a save if it has ``savedGame`` and no buildFile, else a
    module or, when its root is ``ModuleExtension``, an extension. ``base`` is the module an
    extension extends: with it the extension's ``module`` name, targets, prototypes and images
    are checked against the module (§5). ``bare``: the archive only holds a buildFile (from
    :func:`lint_buildfile_bytes`), so image, file and setup checks are skipped."""
    return _lint_opened(arc, name, base=base, bare=bare)[0]


def _lint_opened(arc: Archive, name: str, *, base: Archive | None = None, bare: bool = False,
                 base_ctx: ModuleContext | None = None) -> tuple[list[Finding], str | None]:
    """:func:`lint_archive`, also returning the ``extensionId`` of an extension (None for a
    module or save). A save linted with ``base`` is checked against that module (maps, boards,
    gpids).

    The cyclic collector is paused for the lint (:func:`~.save.collector_paused`: its decoded
    pieces and findings hold no cycles), and all it built but the findings is freed before the
    collector runs again: the contexts die with :func:`_run_checks`'s frame and the caches are
    emptied, so the caller's next collection does not scan them (40-60 ms after wmh)."""
    with collector_paused():
        try:
            return _run_checks(arc, name, base, bare, base_ctx)
        finally:
            _clear_caches()


def _run_checks(arc: Archive, name: str, base: Archive | None, bare: bool,
                base_ctx: ModuleContext | None) -> tuple[list[Finding], str | None]:
    """The checks of :func:`_lint_opened`."""
    findings: list[Finding] = []
    if base is not None and base_ctx is None:
        base_ctx = _module_context(base, [], as_base=True)
    # a save: it has savedGame and no buildFile, or (savedGame missing) its name or its save
    # metadata (savedata, SaveMetaData) says it is one
    named_save = os.path.splitext(name)[1].lower() in SAVE_SUFFIXES
    if ("savedGame" in arc or "savedata" in arc or named_save) and not (
        {"buildFile.xml", "buildFile"} & set(arc.names)
    ):
        _lint_save(arc, os.path.basename(name) or "save", findings, module=base_ctx)
        return findings, None
    ctx = _module_context(arc, findings, bare=bare, base=base_ctx)
    if ctx.kind == "extension" and ctx.root is not None:
        return findings, ctx.root.get("extensionId", "")
    return findings, None


def _clear_caches() -> None:
    """Empty lint's caches and the piece decoder's (:func:`~.pieces.clear_decode_caches`) at
    the end of a lint."""
    _level_check.cache_clear()
    _reads.cache_clear()
    clear_decode_caches()


def lint_many(paths: list[str | os.PathLike[str]], *,
              base: str | os.PathLike[str] | None = None) -> dict[str, list[Finding]]:
    """:func:`lint` of several files against one ``base`` module, plus what only shows when they
    are loaded together: extensions sharing an ``extensionId`` (VASSAL warns "Extension Id for …
    conflicts with previously loaded extension …" and both keep their ``id:n`` gpids, so pieces
    of the two collide; ``ExtensionsLoader.addExtension``). Returns findings per path, in order.
    """
    with collector_paused():  # as in _lint_opened: the base module's context dies inside
        out, ids = _lint_paths([os.fspath(p) for p in paths], base)
    for ext_id, owners in ids.items():
        for path in owners if len(owners) > 1 else ():
            others = ", ".join(os.path.basename(o) for o in owners if o != path)
            out[path].append(Finding(
                ERROR, "buildFile.xml", "ModuleExtension",
                f"extensionId {ext_id!r} is also the extensionId of {others}: VASSAL warns "
                "'Extension Id … conflicts with previously loaded extension' and the gpids "
                f"'{ext_id}:n' of both collide", "check_extension_ids"))
    return out


def _lint_paths(paths: list[str], base: str | os.PathLike[str] | None
                ) -> tuple[dict[str, list[Finding]], dict[str, list[str]]]:
    """The findings of each of ``paths`` (see :func:`lint_many`) and the paths of each
    non-empty ``extensionId``."""
    base_arc = base_ctx = None
    out: dict[str, list[Finding]] = {}
    ids: dict[str, list[str]] = {}
    if base is not None:
        try:
            base_arc = open_archive(base)
        except VassalFormatError as exc:
            return {p: [Finding(ERROR, "base module", "", exc.message, "archive")]
                    for p in paths}, ids
        base_ctx = _module_context(base_arc, [], as_base=True)
    try:
        for fspath in paths:
            early = _precheck(fspath)
            if early is not None:
                out[fspath] = early
                continue
            try:
                arc = open_archive(fspath)
            except VassalFormatError as exc:
                out[fspath] = [Finding(ERROR, exc.entry or os.path.basename(fspath), "",
                                       exc.message, "archive")]
                continue
            with arc:
                out[fspath], ext_id = _lint_opened(arc, fspath, base_ctx=base_ctx)
            if ext_id:
                ids.setdefault(ext_id, []).append(fspath)
    finally:
        if base_arc is not None:
            base_arc.close()
    return out, ids


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
    """Lint a ``.vmod``, ``.vmdx``, ``.vsav`` or ``.vlog`` file, or a bare ``buildFile.xml``
    (§8), and return every :class:`Finding` (errors, warnings and notes), in check order.

    Args:
        path: the file to check.
        base: the ``.vmod`` an extension extends (then ``module``, targets, prototypes, images
            and the maps of its setups are checked against it, §5), or the module a save or log
            was made with (then its maps, boards and gpids are checked).

    Never raises for a bad file: unreadable or unsafe archives are findings. Memory is bounded
    by :class:`~pipeline.vassal.archive.Limits`.
    """
    fspath = os.fspath(path)
    early = _precheck(fspath)
    if early is not None:
        return early
    with open(fspath, "rb") as fh:
        head = fh.read(64)
    if _is_xml(head):
        with open(fspath, "rb") as fh:
            return lint_buildfile_bytes(fh.read(), os.path.basename(fspath))
    return lint_many([fspath], base=base)[fspath]


def _precheck(fspath: str) -> list[Finding] | None:
    """Findings for a path that is no readable regular file or an oversized bare buildFile;
    None when the file can be linted."""
    name = os.path.basename(fspath)
    if not os.path.isfile(fspath):
        return [Finding(ERROR, name, "", "not a regular file (a folder, a device or missing)",
                        "archive")]
    try:
        with open(fspath, "rb") as fh:
            head = fh.read(64)
    except OSError as exc:
        return [Finding(ERROR, name, "", f"cannot open: {exc}", "archive")]
    if _is_xml(head) and os.path.getsize(fspath) > Limits().max_entry_size:
        return [Finding(ERROR, name, "", "buildFile larger than the size limit", "archive")]
    return None
