"""A declarative VASSAL module and its ``buildFile.xml`` / ``moduledata`` writer.

Element and attribute names follow ``vassal-format.md`` §2 (VASSAL 3.7.x); the dataclass names
use VASSAL's own terms. The writer is deterministic: the same :class:`Module` always gives the
same bytes. It assigns PieceSlot gpids itself, in document order starting at 1 (§2.2), writes
each into the slot's ``gpid`` attribute *and* its BasicPiece state, and sets ``nextPieceSlotId``
above the largest. Pixel values are ints unless stated.

>>> from pipeline.vassal.pieces import PieceDefinition
>>> from pipeline.vassal.traits import BasicPiece
>>> m = Module("Demo", maps=[Map("Main Map", [Board("Board", "board.png", 400, 300)])],
...            piece_windows=[PieceWindow("Pieces", [ListWidget("All", [
...                PieceSlot("Inf", PieceDefinition([], BasicPiece("inf.png", "Inf")))])])])
>>> out = write_buildfile(m)
>>> out.gpids, out.next_piece_slot_id
({'Inf': '1'}, 2)
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from lxml import etree

from .commands import board_command
from .grids import GridNumbering, HexGrid, SquareGrid
from .pieces import PieceDefinition
from .traits import java_bool

__all__ = [
    "FORBIDDEN_MODULE_NAMES",
    "VM",
    "XML_DECLARATION",
    "AboutScreen",
    "Board",
    "BoxWidget",
    "BrowserPDFFile",
    "BuildFile",
    "Chart",
    "ChartWindow",
    "Component",
    "DiceButton",
    "GamePieceLayers",
    "GlobalOptions",
    "GlobalProperty",
    "GridNumbering",
    "HelpFile",
    "HexGrid",
    "HtmlChart",
    "LOSThread",
    "ListWidget",
    "Map",
    "Module",
    "PanelWidget",
    "PieceSlot",
    "PieceWindow",
    "PredefinedSetup",
    "PrototypeDefinition",
    "SpecialDiceButton",
    "SpecialDie",
    "SpecialDieFace",
    "SquareGrid",
    "StackMetrics",
    "TabWidget",
    "write_buildfile",
    "write_moduledata",
]

XML_DECLARATION = b'<?xml version="1.0" encoding="UTF-8" standalone="no"?>'
#: Prefix of most class names (§2.2).
VM = "VASSAL.build.module."
W = "VASSAL.build.widget."
_BOARD = VM + "map.boardPicker.Board"
_GRIDS = VM + "map.boardPicker.board."

#: Module names with hard-coded launcher constraints (§1).
FORBIDDEN_MODULE_NAMES = frozenset({"VASL", "VSQL", "Paths of Glory"})

AttrValue = str | int | float | bool | None


# --------------------------------------------------------------------------- components


@dataclass(frozen=True)
class Component:
    """Escape hatch: any element, given as its class name, attributes, children and text.

    ``tag`` is the fully qualified class name (§2.1), e.g. ``VASSAL.build.module.Inventory``.
    """

    tag: str
    attributes: Sequence[tuple[str, AttrValue]] = ()
    children: Sequence[Component] = ()
    text: str | None = None


@dataclass(frozen=True)
class Board:
    """``map.boardPicker.Board`` (§2.4). ``width``/``height``: the board size in pixels (the
    image size when there is an image; VASSAL only reads them for solid boards, gunbai also uses
    them for map geometry and lint). ``image`` is a name under ``images/`` or None."""

    name: str
    image: str | None
    width: int
    height: int
    grid: HexGrid | SquareGrid | None = None
    reversible: bool = False
    color: str | None = None

    def __post_init__(self) -> None:
        if not self.name:
            raise ValueError("Board needs a name")
        if self.width <= 0 or self.height <= 0:
            raise ValueError(f"Board {self.name!r}: width/height must be positive pixels")


@dataclass(frozen=True)
class StackMetrics:
    """``map.StackMetrics`` (§2.3); offsets in pixels (VASSAL's defaults)."""

    disabled: bool = False
    ex_sep_x: int = 6
    ex_sep_y: int = 18
    unex_sep_x: int = 2
    unex_sep_y: int = 4


@dataclass(frozen=True)
class GamePieceLayers:
    """``map.LayeredPieceCollection`` (Game Piece Layers, §2.3): pieces are drawn in layers by
    the value of one piece property, bottom to top in ``layer_order``; a piece whose value is in
    no layer is drawn on top. Pieces of different layers never stack together
    (``LayeredPieceCollection.Collection.canPiecesMerge``), so a tile stays under the unit on it
    however the pieces are moved.

    Raises:
        ValueError: (on construction) an empty property name, no layer, a repeated layer, or a
            layer name holding a comma (the order is written as a comma list).
    """

    property: str
    layer_order: Sequence[str]

    def __post_init__(self) -> None:
        if not self.property:
            raise ValueError("GamePieceLayers needs a property name")
        if not self.layer_order or len(set(self.layer_order)) != len(self.layer_order):
            raise ValueError(f"GamePieceLayers needs distinct layers, got {list(self.layer_order)}")
        if any(not n or "," in n for n in self.layer_order):
            raise ValueError(f"layer names must be non-empty and hold no comma: {list(self.layer_order)}")


_LOS_PERSISTENCE = ("Ctrl-Click & Drag", "Never", "Always")
_LOS_GLOBAL = ("When Persisting", "Never", "Always")
_LOS_ROUND = ("Up", "Down", "Nearest whole number")


@dataclass(frozen=True)
class LOSThread:
    """``map.LOS_Thread`` (§2.3): a line-of-sight thread, optionally drawing the range.

    ``scale`` is whole pixels per range unit (e.g. one hex's ``dy``, 24 px per inch): VASSAL 3.7.26
    reads it with ``Integer.valueOf`` (``LOS_Thread.setAttribute``, ``rangeScale`` is an ``int``),
    so ``"24.0"`` stops the module from loading. With ``draw_range`` the range
    is shown in the thread. ``persistence``: ``Ctrl-Click & Drag`` | ``Never`` | ``Always``;
    ``global_``: ``When Persisting`` | ``Never`` | ``Always``; ``round``: ``Up`` | ``Down`` |
    ``Nearest whole number``.

    Raises:
        ValueError: (on construction) for an unknown enum value or non-positive scale.
    """

    name: str = "LOS"
    label: str = "LOS"
    tooltip: str = "Line of sight"
    icon: str = "/images/thread.gif"
    hotkey: str = ""
    report: str = ""
    persistence: str = "Ctrl-Click & Drag"
    global_: str = "When Persisting"
    snap_start: bool = True
    snap_end: bool = True
    draw_range: bool = False
    scale: int = 1
    round: str = "Nearest whole number"
    hide_counters: bool = False
    hide_opacity: int = 0
    thickness: int = 3
    thread_color: str = "255,0,0"
    range_fg: str = "255,255,255"
    range_bg: str = "0,0,0"

    def __post_init__(self) -> None:
        if self.persistence not in _LOS_PERSISTENCE:
            raise ValueError(f"LOS persistence must be one of {_LOS_PERSISTENCE}")
        if self.global_ not in _LOS_GLOBAL:
            raise ValueError(f"LOS global must be one of {_LOS_GLOBAL}")
        if self.round not in _LOS_ROUND:
            raise ValueError(f"LOS round must be one of {_LOS_ROUND}")
        if isinstance(self.scale, bool) or not isinstance(self.scale, int) or self.scale <= 0:
            raise ValueError(f"LOS scale must be a positive whole number of pixels per range unit, "
                             f"not {self.scale!r} (VASSAL reads it as an integer)")


@dataclass(frozen=True)
class Map:
    """``VASSAL.build.module.Map`` (§2.3-2.4). Always written with every interaction child §2.3
    lists, so pieces can be dragged, menus work and zoom exists.

    Attributes:
        name: ``mapName``, the map's identifier in saves.
        boards: the boards the BoardPicker offers.
        board_setup: default arrangement ``[(board, col, row), ...]`` written as ``<setup>``;
            None = no ``<setup>`` (then a single non-reversible board is chosen automatically).
        edge_width, edge_height: margin in pixels around the boards.
        zoom_levels: ascending zoom factors; ``initial_zoom`` must be one of them.
        los_threads: optional ``LOS_Thread`` children.
        piece_layers: optional Game Piece Layers (:class:`GamePieceLayers`).
        extra: further children (:class:`Component`), written last.
    """

    name: str
    boards: Sequence[Board]
    board_setup: Sequence[tuple[str, int, int]] | None = None
    edge_width: int = 0
    edge_height: int = 0
    zoom_levels: Sequence[float] = (0.25, 0.5, 0.75, 1.0, 1.5)
    initial_zoom: float = 1.0
    mark_moved: str = "Never"
    background_color: str = "255,255,255"
    button_name: str = ""
    icon: str = "/images/map.gif"
    highlight_color: str = "0,0,0"
    highlight_thickness: int = 3
    stack_metrics: StackMetrics = field(default_factory=StackMetrics)
    los_threads: Sequence[LOSThread] = ()
    piece_layers: GamePieceLayers | None = None
    move_within_format: str | None = None
    move_to_format: str | None = None
    create_format: str | None = None
    extra: Sequence[Component] = ()

    def __post_init__(self) -> None:
        if not self.name or self.name != self.name.strip():
            raise ValueError(f"map name must be non-empty and unpadded: {self.name!r}")
        if not self.boards:
            raise ValueError(f"Map {self.name!r} needs at least one board (§8 item 9)")
        names = [b.name for b in self.boards]
        if len(set(names)) != len(names):
            raise ValueError(f"Map {self.name!r} has duplicate board names")
        levels = list(self.zoom_levels)
        if levels != sorted(levels) or len(set(levels)) != len(levels) or not levels:
            raise ValueError("zoom_levels must be strictly ascending")
        if self.initial_zoom not in levels:
            raise ValueError("initial_zoom must be one of zoom_levels")
        if self.mark_moved not in ("Always", "Never", "Use Preferences Setting"):
            raise ValueError(f"bad markMoved {self.mark_moved!r}")
        if self.board_setup is not None:
            for entry in self.board_setup:
                if entry[0] not in names:
                    raise ValueError(f"board_setup names unknown board {entry[0]!r}")

    @property
    def zoom_start(self) -> int:
        """``zoomStart``: 1-based and counted from the *end* of the list (§2.3)."""
        return len(self.zoom_levels) - list(self.zoom_levels).index(self.initial_zoom)

    def placements(self) -> list[tuple[str, int, int]]:
        """Board positions ``(board, col, row)``: ``board_setup``, or the single board at
        (0, 0).

        Raises:
            ValueError: several boards and no ``board_setup``.
        """
        if self.board_setup is not None:
            return [(b, int(c), int(r)) for b, c, r in self.board_setup]
        if len(self.boards) == 1:
            return [(self.boards[0].name, 0, 0)]
        raise ValueError(f"Map {self.name!r} has several boards; give board_setup")

    def board(self, name: str) -> Board:
        for b in self.boards:
            if b.name == name:
                return b
        raise KeyError(name)

    def board_origin(self, board_name: str) -> tuple[int, int]:
        """Map-pixel position of a board's top-left corner: edge + the widths of the boards left
        of it in its row + the heights of those above it in its column (``Map.
        setBoardBoundaries``, §2.4)."""
        return _board_origins(self, self.placements())[board_name]

    def to_map(self, board_name: str, x: int, y: int) -> tuple[int, int]:
        """Convert board pixel (x, y) to map pixels (§2.4): ``map = board + origin``."""
        ox, oy = self.board_origin(board_name)
        return ox + int(x), oy + int(y)

    def size(self) -> tuple[int, int]:
        """Map size in pixels: union of the boards plus the edge on every side (``mapSize``)."""
        return map_size(self, self.placements())


def _board_origins(m: Map, placements: Sequence[tuple[str, int, int]]) -> dict[str, tuple[int, int]]:
    widths: dict[tuple[int, int], int] = {}
    heights: dict[tuple[int, int], int] = {}
    for name, c, r in placements:
        b = m.board(name)
        widths[(c, r)] = b.width
        heights[(c, r)] = b.height
    out = {}
    for name, c, r in placements:
        dx = sum(widths.get((i, r), 0) for i in range(c))
        dy = sum(heights.get((c, j), 0) for j in range(r))
        out[name] = (m.edge_width + dx, m.edge_height + dy)
    return out


def map_size(m: Map, placements: Sequence[tuple[str, int, int]]) -> tuple[int, int]:
    """Size in pixels of map ``m`` with the boards at ``placements`` (§2.4, ``Map.mapSize``)."""
    origins = _board_origins(m, placements)
    w = h = 0
    for name, _c, _r in placements:
        b = m.board(name)
        ox, oy = origins[name]
        w = max(w, ox + b.width)
        h = max(h, oy + b.height)
    return w + m.edge_width, h + m.edge_height


@dataclass(frozen=True)
class PieceSlot:
    """``widget.PieceSlot`` (§2.6): a palette entry. ``width``/``height`` in pixels. ``key``
    names the slot in :attr:`BuildFile.gpids` (default: ``entry_name``); keys must be unique."""

    entry_name: str
    piece: PieceDefinition
    width: int = 64
    height: int = 64
    key: str | None = None

    @property
    def slot_key(self) -> str:
        return self.key if self.key is not None else self.entry_name


@dataclass(frozen=True)
class Chart:
    """``widget.Chart`` (§2.9): ``image`` is an image name under ``images/``."""

    name: str
    image: str
    description: str = ""


@dataclass(frozen=True)
class HtmlChart:
    """``widget.HtmlChart`` (§2.9): ``file`` is an archive path such as ``charts/crt.html``."""

    name: str
    file: str
    description: str = ""


@dataclass(frozen=True)
class ListWidget:
    """``widget.ListWidget`` (§2.6); ``divider`` in pixels."""

    entry_name: str
    children: Sequence[Widget]
    scale: float = 1.0
    divider: int = 150


@dataclass(frozen=True)
class TabWidget:
    """``widget.TabWidget`` (§2.6): one tab per child."""

    entry_name: str
    children: Sequence[Widget]


@dataclass(frozen=True)
class PanelWidget:
    """``widget.PanelWidget`` (§2.6): a grid of ``n_columns`` (``fixed``) slots."""

    entry_name: str
    children: Sequence[Widget]
    fixed: bool = False
    n_columns: int = 4
    vert: bool = False
    scale: float = 1.0


@dataclass(frozen=True)
class BoxWidget:
    """``widget.BoxWidget`` (§2.6)."""

    entry_name: str
    children: Sequence[Widget]


Widget = ListWidget | TabWidget | PanelWidget | BoxWidget | PieceSlot | Chart | HtmlChart


@dataclass(frozen=True)
class PieceWindow:
    """``PieceWindow`` (§2.6): a palette window holding widgets and slots."""

    name: str
    children: Sequence[Widget]
    text: str | None = None
    tooltip: str = ""
    icon: str = ""
    hotkey: str = ""
    hidden: bool = False
    scale: float = 1.0


@dataclass(frozen=True)
class PrototypeDefinition:
    """``PrototypeDefinition`` (§2.7). The piece's BasicPiece is normally blank
    (``piece;;;;`` / ``null;0;0;;0``)."""

    name: str
    piece: PieceDefinition
    description: str = ""


#: gunbai-side alias used in the brief.
Prototype = PrototypeDefinition

_REPORT = "** $name$ = $result$ *** <$PlayerName$>"


@dataclass(frozen=True)
class DiceButton:
    """``DiceButton`` (§2.8): rolls ``n_dice`` d``n_sides`` + ``plus``."""

    name: str
    n_dice: int = 1
    n_sides: int = 6
    plus: int = 0
    add_to_total: int = 0
    report_total: bool = False
    prompt: bool = False
    text: str | None = None
    tooltip: str = ""
    icon: str = "/images/die.gif"
    hotkey: str = ""
    report_format: str = _REPORT

    def __post_init__(self) -> None:
        if self.n_dice < 1 or self.n_sides < 1:
            raise ValueError("DiceButton needs n_dice >= 1 and n_sides >= 1")


@dataclass(frozen=True)
class SpecialDieFace:
    """``SpecialDieFace`` (§2.8): ``value`` must be an int; ``icon`` an image under ``images/``."""

    text: str
    value: int
    icon: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.value, int) or isinstance(self.value, bool):
            raise TypeError("SpecialDieFace value must be an int (§2.8)")


@dataclass(frozen=True)
class SpecialDie:
    """``SpecialDie`` (§2.8)."""

    name: str
    faces: Sequence[SpecialDieFace]
    format: str = "$result$"

    def __post_init__(self) -> None:
        if not self.faces:
            raise ValueError("SpecialDie needs faces")


@dataclass(frozen=True)
class SpecialDiceButton:
    """``SpecialDiceButton`` (§2.8); ``window_x``/``window_y`` in pixels."""

    name: str
    dice: Sequence[SpecialDie]
    text: str | None = None
    tooltip: str = ""
    icon: str = "/images/die.gif"
    hotkey: str = ""
    result_chatter: bool = True
    format: str = "** $name$ = [$result1$] *** <$PlayerName$>"
    result_window: bool = False
    result_button: bool = False
    window_x: int = 100
    window_y: int = 100
    background_color: str = "255,255,255"


@dataclass(frozen=True)
class ChartWindow:
    """``ChartWindow`` (§2.9) holding :class:`Chart`, :class:`HtmlChart` and widgets."""

    name: str
    children: Sequence[Widget]
    text: str | None = None
    tooltip: str = ""
    icon: str = ""
    hotkey: str = ""


@dataclass(frozen=True)
class PredefinedSetup:
    """``PredefinedSetup`` (§2.10). With ``children`` it is a submenu (``isMenu``); with a
    ``file`` (an archive path of a ``.vsav``) it loads that save; with neither it starts a new
    game."""

    name: str
    file: str | None = None
    description: str = ""
    children: Sequence[PredefinedSetup] = ()

    def __post_init__(self) -> None:
        if self.children and self.file:
            raise ValueError(f"setup menu {self.name!r} cannot also have a file")

    def files(self) -> Iterator[str]:
        """Every setup file in this (sub)menu, depth first."""
        if self.file:
            yield self.file
        for c in self.children:
            yield from c.files()


@dataclass(frozen=True)
class GlobalProperty:
    """``properties.GlobalProperty`` (§2.2)."""

    name: str
    initial_value: str = ""
    description: str = ""
    numeric: bool = False
    minimum: str = ""
    maximum: str = ""
    wrap: bool = False


@dataclass(frozen=True)
class GlobalOptions:
    """``GlobalOptions`` (§2.2)."""

    auto_report: str = "Always"
    non_owner_unmaskable: str = "Never"
    player_id_format: str = "$PlayerName$"


@dataclass(frozen=True)
class HelpFile:
    """``documentation.HelpFile`` (§2.2): ``file_name`` is an archive path."""

    title: str
    file_name: str


@dataclass(frozen=True)
class AboutScreen:
    """``documentation.AboutScreen`` (§2.2): ``image`` is a name under ``images/``."""

    title: str
    image: str


@dataclass(frozen=True)
class BrowserPDFFile:
    """``documentation.BrowserPDFFile`` (§2.2): ``pdf_file`` is an archive path."""

    title: str
    pdf_file: str


@dataclass(frozen=True)
class Module:
    """A whole module (§2.2). Child order follows VASSAL's own "new module" (§2.2).

    Attributes:
        name: must equal moduledata's ``<name>``; not VASL/VSQL/Paths of Glory.
        version, description: free text.
        vassal_version: ``3.7.x`` (both root attribute and moduledata, §6).
        sides: PlayerRoster sides, unique.
        date_saved_ms: moduledata ``dateSaved`` (ms since epoch); :func:`write_module` fills it
            from ``SOURCE_DATE_EPOCH`` or its fixed date when None.
        extra: further top-level :class:`Component` children, written before ``Chatter``.
        stable_gpids: number slots by a hash of their key (:func:`stable_gpid_number`) instead
            of 1, 2, … in document order, so that a published module's gpids survive adding or
            removing pieces (players' saves and Refresh Counters keep working).
    """

    name: str
    version: str = "1.0"
    description: str = ""
    vassal_version: str = "3.7.0"
    sides: Sequence[str] = ()
    maps: Sequence[Map] = ()
    prototypes: Sequence[PrototypeDefinition] = ()
    piece_windows: Sequence[PieceWindow] = ()
    dice_buttons: Sequence[DiceButton | SpecialDiceButton] = ()
    chart_windows: Sequence[ChartWindow] = ()
    setups: Sequence[PredefinedSetup] = ()
    global_properties: Sequence[GlobalProperty] = ()
    documentation: Sequence[HelpFile | AboutScreen | BrowserPDFFile] = ()
    global_options: GlobalOptions = field(default_factory=GlobalOptions)
    other1: str = ""
    other2: str = ""
    date_saved_ms: int | None = None
    stable_gpids: bool = False
    extra: Sequence[Component] = ()

    def __post_init__(self) -> None:
        if not self.name or self.name != self.name.strip():
            raise ValueError(f"module name must be non-empty and unpadded: {self.name!r}")
        if self.name in FORBIDDEN_MODULE_NAMES:
            raise ValueError(f"module name {self.name!r} is reserved by the launcher (§1)")
        if not re.fullmatch(r"3\.7(\.\d+)?", self.vassal_version):
            raise ValueError(f"vassal_version must be 3.7.x, got {self.vassal_version!r} (§6)")
        if len(set(self.sides)) != len(self.sides):
            raise ValueError("PlayerRoster sides must be unique (§8 item 12)")
        for label, names in (
            ("Map", [m.name for m in self.maps]),
            ("Prototype", [p.name for p in self.prototypes]),
        ):
            if len(set(names)) != len(names):
                raise ValueError(f"duplicate {label} names: {names}")

    def map(self, name: str) -> Map:
        for m in self.maps:
            if m.name == name:
                return m
        raise KeyError(name)

    def setup_files(self) -> list[str]:
        """Every PredefinedSetup file, in document order."""
        return [f for s in self.setups for f in s.files()]


# --------------------------------------------------------------------------- writer


def _attr(value: AttrValue) -> str:
    if isinstance(value, bool):
        return java_bool(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        text = repr(value)
        if "e" in text or "n" in text:
            raise ValueError(f"cannot write double {value!r}")
        return text
    return str(value)


def _el(parent: etree._Element | None, tag: str, *attrs: tuple[str, AttrValue],
        text: str | None = None) -> etree._Element:
    el = etree.Element(tag) if parent is None else etree.SubElement(parent, tag)
    for name, value in attrs:
        if value is not None:
            el.set(name, _attr(value))
    if text is not None:
        if text != text.strip():
            raise ValueError(f"<{tag}> text is trimmed by VASSAL (§2.1): {text[:40]!r}")
        el.text = text
    return el


@dataclass(frozen=True)
class BuildFile:
    """Writer output: ``xml`` (the bytes of ``buildFile.xml``), ``gpids`` (slot key -> gpid,
    in document order) and ``next_piece_slot_id``."""

    xml: bytes
    gpids: dict[str, str]
    next_piece_slot_id: int


#: Stable gpids are drawn from 1..STABLE_GPID_SPACE (below Java's int limit, §2.2).
STABLE_GPID_SPACE = 999_999_999


def stable_gpid_number(key: str) -> int:
    """The gpid number of a PieceSlot key under stable numbering: a hash of the key, so a
    slot keeps its gpid when other slots are added or removed (VASSAL's Refresh Counters and
    saved games find a piece's slot by gpid, §2.2).

    >>> stable_gpid_number("unit:sohei_warriors:red") == stable_gpid_number("unit:sohei_warriors:red")
    True
    """
    digest = hashlib.sha256(key.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") % STABLE_GPID_SPACE + 1


class _Writer:
    def __init__(self, gpid_prefix: str | None, stable: bool = False) -> None:
        self.gpid_prefix = gpid_prefix
        self.stable = stable
        self.counter = 0
        self.gpids: dict[str, str] = {}
        self._owner: dict[int, str] = {}

    def next_gpid(self, key: str) -> str:
        if key in self.gpids:
            raise ValueError(f"duplicate PieceSlot key {key!r}; give slots distinct keys")
        if self.stable:
            n = stable_gpid_number(key)
            if n in self._owner:
                raise ValueError(f"PieceSlot keys {self._owner[n]!r} and {key!r} hash to the same gpid {n}; rename one")
            self._owner[n] = key
            self.counter = max(self.counter, n)
        else:
            self.counter += 1
            n = self.counter
        gpid = str(n) if self.gpid_prefix is None else f"{self.gpid_prefix}:{n}"
        self.gpids[key] = gpid
        return gpid

    # -- pieces
    def piece_slot(self, parent: etree._Element, slot: PieceSlot) -> None:
        gpid = self.next_gpid(slot.slot_key)
        piece = slot.piece.with_basic(gpid=gpid)
        _el(parent, W + "PieceSlot", ("entryName", slot.entry_name), ("gpid", gpid),
            ("width", int(slot.width)), ("height", int(slot.height)), text=piece.slot_text())

    def widget(self, parent: etree._Element, w: Widget) -> None:
        if isinstance(w, PieceSlot):
            self.piece_slot(parent, w)
        elif isinstance(w, Chart):
            _el(parent, W + "Chart", ("chartName", w.name), ("description", w.description),
                ("fileName", w.image))
        elif isinstance(w, HtmlChart):
            _el(parent, W + "HtmlChart", ("chartName", w.name), ("description", w.description),
                ("fileName", w.file))
        elif isinstance(w, ListWidget):
            el = _el(parent, W + "ListWidget", ("entryName", w.entry_name), ("scale", w.scale),
                     ("divider", w.divider))
            for c in w.children:
                self.widget(el, c)
        elif isinstance(w, TabWidget):
            el = _el(parent, W + "TabWidget", ("entryName", w.entry_name))
            for c in w.children:
                self.widget(el, c)
        elif isinstance(w, PanelWidget):
            el = _el(parent, W + "PanelWidget", ("entryName", w.entry_name), ("fixed", w.fixed),
                     ("nColumns", w.n_columns), ("vert", w.vert), ("scale", w.scale))
            for c in w.children:
                self.widget(el, c)
        elif isinstance(w, BoxWidget):
            el = _el(parent, W + "BoxWidget", ("entryName", w.entry_name))
            for c in w.children:
                self.widget(el, c)
        else:
            raise TypeError(f"not a widget: {w!r}")

    # -- maps
    def grid_numbering(self, parent: etree._Element, n: GridNumbering, hex_: bool) -> None:
        tag = _GRIDS + "mapgrid." + ("HexGridNumbering" if hex_ else "SquareGridNumbering")
        attrs: list[tuple[str, AttrValue]] = [
            ("first", n.first), ("sep", n.sep), ("hType", n.h_type), ("vType", n.v_type),
            ("hLeading", n.h_leading), ("vLeading", n.v_leading), ("hOff", n.h_off),
            ("vOff", n.v_off), ("hDescend", n.h_descend), ("vDescend", n.v_descend),
        ]
        if hex_:
            attrs.append(("stagger", n.stagger))
        attrs += [
            ("locationFormat", n.location_format), ("visible", n.visible),
            ("fontSize", n.font_size), ("color", n.color), ("rotateText", n.rotate_text),
            ("hDrawOff", n.h_draw_off), ("vDrawOff", n.v_draw_off),
        ]
        _el(parent, tag, *attrs)

    def grid(self, parent: etree._Element, g: HexGrid | SquareGrid) -> None:
        if isinstance(g, HexGrid):
            el = _el(parent, _GRIDS + "HexGrid", ("sideways", g.sideways), ("x0", int(g.x0)),
                     ("y0", int(g.y0)), ("dx", float(g.dx)), ("dy", float(g.dy)),
                     ("snapTo", g.snap_to), ("edgesLegal", g.edges_legal),
                     ("cornersLegal", g.corners_legal), ("visible", g.visible),
                     ("dotsVisible", g.dots_visible), ("color", g.color))
        else:
            el = _el(parent, _GRIDS + "SquareGrid", ("x0", int(g.x0)), ("y0", int(g.y0)),
                     ("dx", float(g.dx)), ("dy", float(g.dy)), ("range", g.range),
                     ("snapTo", g.snap_to), ("edgesLegal", g.edges_legal),
                     ("cornersLegal", g.corners_legal), ("visible", g.visible),
                     ("dotsVisible", g.dots_visible), ("color", g.color))
        if g.numbering is not None:
            self.grid_numbering(el, g.numbering, isinstance(g, HexGrid))

    def map(self, parent: etree._Element, m: Map) -> None:
        el = _el(parent, VM + "Map", ("mapName", m.name), ("markMoved", m.mark_moved),
                 ("edgeWidth", m.edge_width), ("edgeHeight", m.edge_height),
                 ("backgroundcolor", m.background_color), ("allowMultiple", False),
                 ("launch", False), ("buttonName", m.button_name or m.name), ("icon", m.icon),
                 ("color", m.highlight_color), ("thickness", m.highlight_thickness),
                 ("moveWithinFormat", m.move_within_format), ("moveToFormat", m.move_to_format),
                 ("createFormat", m.create_format))
        picker = _el(el, VM + "map.BoardPicker", ("slotWidth", 350), ("slotHeight", 125),
                     ("slotScale", 0.2), ("title", "Choose Boards"))
        for b in m.boards:
            bel = _el(picker, _BOARD, ("name", b.name), ("image", b.image or ""),
                      ("reversible", b.reversible), ("width", b.width), ("height", b.height),
                      ("color", b.color))
            if b.grid is not None:
                self.grid(bel, b.grid)
        if m.board_setup is not None:
            _el(picker, "setup", text=board_command(m.name, list(m.board_setup)))
        sm = m.stack_metrics
        _el(el, VM + "map.StackMetrics", ("disabled", sm.disabled), ("exSepX", sm.ex_sep_x),
            ("exSepY", sm.ex_sep_y), ("unexSepX", sm.unex_sep_x), ("unexSepY", sm.unex_sep_y))
        for name in ("ForwardToKeyBuffer", "Scroller", "ForwardToChatter", "MenuDisplayer",
                     "MapCenterer", "StackExpander", "PieceMover", "KeyBufferer", "ImageSaver"):
            _el(el, VM + "map." + name)
        _el(el, VM + "map.CounterDetailViewer", ("version", 4), ("delay", 700),
            ("minDisplayPieces", 2), ("zoomlevel", 1.0))
        _el(el, VM + "map.Flare")
        _el(el, VM + "map.Zoomer", ("zoomLevels", ",".join(_attr(float(z)) for z in
                                                          m.zoom_levels)),
            ("zoomStart", m.zoom_start))
        _el(el, VM + "properties.GlobalProperties")
        _el(el, VM + "map.SelectionHighlighters")
        _el(el, VM + "map.HighlightLastMoved", ("enabled", True), ("color", "255,0,0"),
            ("thickness", 2))
        for t in m.los_threads:
            _el(el, VM + "map.LOS_Thread", ("threadName", t.name), ("label", t.label),
                ("tooltip", t.tooltip), ("iconName", t.icon), ("hotkey", t.hotkey),
                ("report", t.report), ("persistence", t.persistence), ("global", t.global_),
                ("snapStart", t.snap_start), ("snapEnd", t.snap_end),
                ("drawRange", t.draw_range), ("scale", t.scale), ("round", t.round),
                ("hideCounters", t.hide_counters), ("hideOpacity", t.hide_opacity),
                ("losThickness", t.thickness), ("threadColor", t.thread_color),
                ("rangeFg", t.range_fg), ("rangeBg", t.range_bg))
        if m.piece_layers is not None:
            _el(el, VM + "map.LayeredPieceCollection", ("property", m.piece_layers.property),
                ("layerOrder", ",".join(m.piece_layers.layer_order)))
        for c in m.extra:
            self.component(el, c)

    def component(self, parent: etree._Element, c: Component) -> None:
        el = _el(parent, c.tag, *c.attributes, text=c.text)
        for child in c.children:
            self.component(el, child)

    def setup(self, parent: etree._Element, s: PredefinedSetup) -> None:
        is_menu = bool(s.children)
        el = _el(parent, VM + "PredefinedSetup", ("name", s.name), ("description", s.description),
                 ("isMenu", is_menu), ("useFile", (s.file is not None) and not is_menu),
                 ("file", s.file or ""))
        for c in s.children:
            self.setup(el, c)

    def dice(self, parent: etree._Element, d: DiceButton | SpecialDiceButton) -> None:
        if isinstance(d, DiceButton):
            _el(parent, VM + "DiceButton", ("name", d.name), ("text", d.text or d.name),
                ("tooltip", d.tooltip), ("icon", d.icon), ("hotkey", d.hotkey),
                ("nDice", d.n_dice), ("nSides", d.n_sides), ("plus", d.plus),
                ("addToTotal", d.add_to_total), ("reportTotal", d.report_total),
                ("prompt", d.prompt), ("reportFormat", d.report_format))
            return
        el = _el(parent, VM + "SpecialDiceButton", ("name", d.name), ("text", d.text or d.name),
                 ("tooltip", d.tooltip), ("icon", d.icon), ("hotkey", d.hotkey),
                 ("resultChatter", d.result_chatter), ("format", d.format),
                 ("resultWindow", d.result_window), ("resultButton", d.result_button),
                 ("windowX", d.window_x), ("windowY", d.window_y),
                 ("backgroundColor", d.background_color))
        for die in d.dice:
            del_ = _el(el, VM + "SpecialDie", ("name", die.name), ("format", die.format))
            for face in die.faces:
                _el(del_, VM + "SpecialDieFace", ("text", face.text), ("value", face.value),
                    ("icon", face.icon))

    def module(self, m: Module, next_id_floor: int) -> etree._Element:
        root = _el(None, "VASSAL.build.GameModule", ("name", m.name), ("version", m.version),
                   ("description", m.description), ("ModuleOther1", m.other1),
                   ("ModuleOther2", m.other2), ("VassalVersion", m.vassal_version),
                   ("nextPieceSlotId", "0"))
        _el(root, VM + "BasicCommandEncoder")
        doc = _el(root, VM + "Documentation")
        for d in m.documentation:
            if isinstance(d, HelpFile):
                _el(doc, VM + "documentation.HelpFile", ("title", d.title),
                    ("fileName", d.file_name), ("fileType", "archive"))
            elif isinstance(d, AboutScreen):
                _el(doc, VM + "documentation.AboutScreen", ("title", d.title),
                    ("fileName", d.image))
            else:
                _el(doc, VM + "documentation.BrowserPDFFile", ("title", d.title),
                    ("pdfFile", d.pdf_file))
        roster = _el(root, VM + "PlayerRoster", ("buttonText", "Retire"),
                     ("buttonToolTip", "Switch sides"), ("buttonKeyStroke", ""))
        for side in m.sides:
            _el(roster, "entry", text=side)
        go = m.global_options
        _el(root, VM + "GlobalOptions", ("autoReport", go.auto_report),
            ("nonOwnerUnmaskable", go.non_owner_unmaskable),
            ("playerIdFormat", go.player_id_format))
        for mp in m.maps:
            self.map(root, mp)
        _el(root, VM + "gamepieceimage.GamePieceImageDefinitions")
        gp = _el(root, VM + "properties.GlobalProperties")
        for p in m.global_properties:
            _el(gp, VM + "properties.GlobalProperty", ("name", p.name),
                ("initialValue", p.initial_value), ("description", p.description),
                ("isNumeric", p.numeric), ("min", p.minimum), ("max", p.maximum),
                ("wrap", p.wrap))
        _el(root, VM + "properties.GlobalTranslatableMessages")
        protos = _el(root, VM + "PrototypesContainer")
        for proto in m.prototypes:
            _el(protos, VM + "PrototypeDefinition", ("name", proto.name),
                ("description", proto.description), text=proto.piece.slot_text())
        for pw in m.piece_windows:
            el = _el(root, VM + "PieceWindow", ("name", pw.name), ("text", pw.text or pw.name),
                     ("tooltip", pw.tooltip), ("icon", pw.icon), ("hotkey", pw.hotkey),
                     ("hidden", pw.hidden), ("scale", pw.scale))
            for w in pw.children:
                self.widget(el, w)
        for d in m.dice_buttons:
            self.dice(root, d)
        for cw in m.chart_windows:
            el = _el(root, VM + "ChartWindow", ("name", cw.name), ("text", cw.text or cw.name),
                     ("tooltip", cw.tooltip), ("icon", cw.icon), ("hotkey", cw.hotkey))
            for w in cw.children:
                self.widget(el, w)
        for s in m.setups:
            self.setup(root, s)
        for c in m.extra:
            self.component(root, c)
        _el(root, VM + "Chatter")
        _el(root, VM + "KeyNamer")
        _el(root, "VASSAL.i18n.Language")
        root.set("nextPieceSlotId", str(max(self.counter + 1, next_id_floor)))
        return root


def _serialize(root: etree._Element) -> bytes:
    # The root tag goes on the declaration's line, as VASSAL writes it (§1 metadata sniffing).
    body = etree.tostring(root, encoding="UTF-8", xml_declaration=False, pretty_print=True)
    return XML_DECLARATION + body


def write_buildfile(module: Module, *, gpid_prefix: str | None = None,
                    next_piece_slot_id: int = 0) -> BuildFile:
    """Write ``buildFile.xml`` for ``module`` (§2).

    Args:
        module: the module description.
        gpid_prefix: None for a module (gpids ``1``, ``2``...); an extension id to write
            ``<extId>:<n>`` gpids (§5).
        next_piece_slot_id: a floor for ``nextPieceSlotId`` (it is always above every gpid).

    Returns:
        a :class:`BuildFile` with the UTF-8 bytes and the gpid assigned to each slot key.

    Raises:
        ValueError: duplicate slot keys, text VASSAL would trim, a field ending in a backslash,
            characters XML cannot hold, or any invalid value the dataclasses reject.
    """
    w = _Writer(gpid_prefix, stable=module.stable_gpids)
    root = w.module(module, next_piece_slot_id)
    return BuildFile(_serialize(root), dict(w.gpids), int(root.get("nextPieceSlotId")))


def write_moduledata(module: Module, date_saved_ms: int) -> bytes:
    """Write the ``moduledata`` entry (§1): ``<data version="1">`` with version, extra1, extra2,
    VassalVersion, dateSaved (ms since the epoch), description, name — in that order."""
    return _metadata(module.version, module.other1, module.other2, module.vassal_version,
                     date_saved_ms, module.description, module.name)


def _metadata(version: str, extra1: str, extra2: str, vassal_version: str, date_saved_ms: int,
              description: str | None, name: str | None) -> bytes:
    root = etree.Element("data", version="1")
    for tag, value in (("version", version), ("extra1", extra1), ("extra2", extra2),
                       ("VassalVersion", vassal_version), ("dateSaved", str(int(date_saved_ms))),
                       ("description", description), ("name", name)):
        if value is not None:
            etree.SubElement(root, tag).text = value
    return _serialize(root)
