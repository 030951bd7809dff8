"""Load-time rules for buildFile elements: known classes, allowed parents, attribute formats.

:mod:`.classes` holds the editor's lists as generated from the VASSAL 3.7.26 source. VASSAL's
*loader* is wider than its editor (``vassal-format.md`` §2.1): components a parent creates for
itself (a Map's ``BoardPicker``, ``StackMetrics``, ``PieceMover``…, §2.3), the components
``GameModule`` ensures (§2.2), text-only children (``PlayerRoster`` entries, ``GlobalOptions``
``option``, the ``BoardPicker`` ``setup``) and widgets, whose list is their window's. This module
adds those, and the attribute types of the classes whose type arrays are built in code (typed by
hand from §2).

>>> allowed_children("VASSAL.build.module.Map") is not None
True
>>> "VASSAL.build.module.map.PieceMover" in allowed_children("VASSAL.build.module.Map")
True
>>> value_problem("int", "12.0")
'not an integer'
>>> value_problem("color", "255,0,0") is None
True
"""

from __future__ import annotations

import re
from functools import lru_cache

from .classes import ALLOWED_CHILDREN, ATTRIBUTE_TYPES, NEW_AFTER_3_7_0, SUPERCLASSES

__all__ = [
    "ALIASES",
    "TEXT_CHILDREN",
    "allowed_children",
    "attribute_type",
    "is_known_class",
    "is_new_after_3_7_0",
    "value_problem",
]

VM = "VASSAL.build.module."
W = "VASSAL.build.widget."
_G = VM + "map.boardPicker.board."

#: Root aliases: the player builds a GameModule whatever the root tag (§2.1).
ALIASES = {"VASSAL.launch.BasicModule": "VASSAL.build.GameModule"}

#: Text-only child tags (not classes) a parent reads itself (§2.2, §2.4).
TEXT_CHILDREN: dict[str, frozenset[str] | None] = {
    VM + "PlayerRoster": None,  # any tag: the text of every child is a side
    VM + "GlobalOptions": frozenset({"option"}),
    VM + "map.BoardPicker": frozenset({"setup"}),
}

_MAP_OWN = tuple(VM + "map." + n for n in (
    "BoardPicker", "StackMetrics", "ForwardToKeyBuffer", "Scroller", "ForwardToChatter",
    "MenuDisplayer", "MapCenterer", "StackExpander", "PieceMover", "KeyBufferer",
    "SelectionHighlighters", "Flare", "HandMetrics", "LayerControl",
)) + (VM + "properties.GlobalProperties",)

_MODULE_OWN = tuple(VM + n for n in (
    "BasicCommandEncoder", "Documentation", "PlayerRoster", "GlobalOptions",
    "gamepieceimage.GamePieceImageDefinitions", "properties.GlobalProperties",
    "properties.GlobalTranslatableMessages", "PrototypesContainer", "Chatter", "KeyNamer",
    "BasicLogger", "EventLog", "ConnectionWindow", "DieManager", "ModulePlugin", "Plugin",
)) + ("VASSAL.i18n.Language", "VASSAL.chat.PrivateChatter", "VASSAL.chat.ui.ChatServerControls",
      "VASSAL.tools.DebugControls", "VASSAL.build.module.ExtensionElement")

#: Children the loader accepts beyond the editor's list (§2.2-2.6).
EXTRA_CHILDREN: dict[str, tuple[str, ...]] = {
    "VASSAL.build.GameModule": _MODULE_OWN,
    VM + "Map": _MAP_OWN,
    VM + "PrivateMap": _MAP_OWN,
    VM + "PlayerHand": _MAP_OWN,
    W + "WidgetMap": _MAP_OWN,
    VM + "GlobalOptions": tuple("VASSAL.preferences." + n + "Preference"
                                for n in ("String", "Text", "Enum", "Integer", "Double",
                                          "Boolean")),
    VM + "map.LayeredPieceCollection": (VM + "map.LayerControl",),
    VM + "ModuleExtension": (VM + "ExtensionElement",),
    VM + "gamepieceimage.GamePieceImageDefinitions": tuple(
        VM + "gamepieceimage." + n for n in ("ColorManager", "FontManager",
                                             "GamePieceLayoutsContainer")),
    "VASSAL.i18n.Language": ("VASSAL.i18n.Translation",),
    _G + "ZonedGrid": (_G + "mapgrid.ZonedGridHighlighter",),
    # MapWidget.add takes its WidgetMap (MapWidget.build makes one itself); the editor lists none
    W + "MapWidget": (W + "WidgetMap",),
    # PieceSlot.addTo accepts any Widget parent and PieceWindow.add any Widget child
    VM + "PieceWindow": (W + "PieceSlot", W + "CardSlot"),
    # folders nest (AbstractFolder: "include itself so that folders can be nested")
    **{VM + "folder." + f: (VM + "folder." + f,) for f in (
        "PrototypeFolder", "MapSubFolder", "GlobalPropertyFolder", "ModuleSubFolder",
        "DeckSubFolder")},
}

_WIDGETS = frozenset(W + n for n in ("TabWidget", "PanelWidget", "BoxWidget", "ListWidget"))
#: What a widget accepts: the union of its possible windows' lists (§2.6, §2.9).
_WIDGET_CHILDREN = tuple(sorted(
    set(ALLOWED_CHILDREN.get(VM + "PieceWindow") or ())
    | {W + "Chart", W + "HtmlChart", W + "MapWidget", W + "PieceSlot", *_WIDGETS}
))

#: Attribute types typed by hand from §2 where the source builds its arrays in code.
EXTRA_TYPES: dict[str, dict[str, str]] = {
    "VASSAL.build.GameModule": {"nextPieceSlotId": "int"},
    VM + "DiceButton": {"nDice": "int", "nSides": "int", "plus": "int", "addToTotal": "int",
                        "reportTotal": "bool", "prompt": "bool", "sortDice": "bool",
                        "keepDice": "bool", "keepCount": "int", "lockDice": "bool",
                        "lockSides": "bool", "lockPlus": "bool", "lockAdd": "bool",
                        "hotkey": "key", "canDisable": "bool", "hideWhenDisabled": "bool"},
    VM + "SpecialDiceButton": {"resultChatter": "bool", "resultWindow": "bool",
                               "resultButton": "bool", "windowX": "int", "windowY": "int",
                               "backgroundColor": "color", "hotkey": "key"},
    VM + "map.StackMetrics": {"disabled": "bool", "exSepX": "int", "exSepY": "int",
                              "unexSepX": "int", "unexSepY": "int", "color": "color",
                              "top": "key", "bottom": "key", "up": "key", "down": "key"},
    VM + "map.LOS_Thread": {"drawRange": "bool", "snapStart": "bool", "snapEnd": "bool",
                            "hideCounters": "bool", "hideOpacity": "int",
                            "losThickness": "int", "threadColor": "color", "rangeFg": "color",
                            "rangeBg": "color", "hotkey": "key", "scale": "int"},
    VM + "map.CounterDetailViewer": {"delay": "int", "minDisplayPieces": "int",
                                     "zoomlevel": "double", "fontSize": "int",
                                     "bgColor": "color", "fgColor": "color",
                                     "borderColor": "color", "hotkey": "key"},
    VM + "map.DrawPile": {"x": "int", "y": "int", "width": "int", "height": "int",
                          "allowMultiple": "bool", "allowSelect": "bool", "drawFaceUp": "bool",
                          "reversible": "bool", "draw": "bool", "color": "color"},
    VM + "map.HighlightLastMoved": {"enabled": "bool", "color": "color", "thickness": "int"},
    W + "PieceSlot": {"width": "int", "height": "int"},
    W + "CardSlot": {"width": "int", "height": "int"},
    W + "ListWidget": {"scale": "double", "divider": "int", "width": "int", "height": "int"},
    W + "BoxWidget": {"width": "int", "height": "int"},
    VM + "map.BoardPicker": {"slotScale": "double"},
    VM + "PieceWindow": {"hidden": "bool", "scale": "double", "hotkey": "key"},
    VM + "ChartWindow": {"hotkey": "key"},
    VM + "Inventory": {"hotkey": "key", "refreshHotkey": "key"},
}

_INT = re.compile(r"[+-]?\d+")
_DOUBLE = re.compile(r"\s*[+-]?(NaN|Infinity|((\d+\.?\d*|\.\d+)([eE][+-]?\d+)?)[fFdD]?)\s*")
_KEY = re.compile(r"-?\d+,-?\d+(,.*)?", re.S)
_INT_MAX = 2**31 - 1


def _canonical(tag: str) -> str:
    return ALIASES.get(tag, tag)


def is_known_class(tag: str) -> bool:
    """True if ``tag`` is a VASSAL 3.7 component class (or the BasicModule alias) (§8 item 5)."""
    return _canonical(tag) in ALLOWED_CHILDREN


def is_new_after_3_7_0(tag: str) -> bool:
    """True for classes that 3.7.0 does not have (added in a later 3.7.x)."""
    return tag in NEW_AFTER_3_7_0


def _lineage(tag: str) -> tuple[str, ...]:
    tag = _canonical(tag)
    return (tag, *SUPERCLASSES.get(tag, ()))


@lru_cache(maxsize=1024)
def allowed_children(parent: str) -> frozenset[str] | None:
    """Classes the loader accepts under ``parent`` (§2, §8 item 6): the editor's list (own or
    inherited), widened as the module docstring says. A child whose class is a subclass of an
    allowed class is allowed too (see :func:`child_allowed`). None when unknown. Cached: it
    depends only on the built-in tables, and lint asks it for every element."""
    tag = _canonical(parent)
    if tag in _WIDGETS:
        return frozenset(_WIDGET_CHILDREN)
    base = None
    for cls in _lineage(tag):
        if ALLOWED_CHILDREN.get(cls) is not None:
            base = ALLOWED_CHILDREN[cls]
            break
    if base is None and tag not in ALLOWED_CHILDREN:
        return None
    out = set(base or ())
    for cls in _lineage(tag):
        out.update(EXTRA_CHILDREN.get(cls, ()))
    if tag == VM + "ChartWindow":
        out.update(_WIDGET_CHILDREN)
    return frozenset(out)


def child_allowed(parent: str, child: str) -> bool | None:
    """Whether ``child`` may sit under ``parent``; None when the parent's rule is unknown.
    Folders accept what their functional parent accepts; subclasses count as their base."""
    allowed = allowed_children(parent)
    if allowed is None:
        return None
    return any(c in allowed for c in _lineage(child))


def attribute_type(tag: str, attribute: str) -> str | None:
    """``int`` | ``double`` | ``bool`` | ``color`` | ``key`` for a typed attribute, else None."""
    for cls in _lineage(tag):
        kind = EXTRA_TYPES.get(cls, {}).get(attribute) or ATTRIBUTE_TYPES.get(cls, {}).get(attribute)
        if kind:
            return kind
    return None


def value_problem(kind: str, value: str) -> str | None:
    """What is wrong with ``value`` as a ``kind`` attribute (§2.1), or None when it parses the
    way VASSAL parses it. Empty values are accepted (callers decide, VASSAL mostly defaults)."""
    if value == "":
        return None
    if kind == "int":
        if not _INT.fullmatch(value) or abs(int(value)) > _INT_MAX + (value.startswith("-")):
            return "not an integer"
    elif kind == "double":
        if not _DOUBLE.fullmatch(value):
            return "not a number"
    elif kind == "bool":
        if value not in ("true", "false"):
            return "not true/false (read as false)"
    elif kind == "color":
        if value != "null" and not (
            re.fullmatch(r"0[xX][0-9a-fA-F]{1,8}", value)
            or re.fullmatch(r"\d{1,3}(,\d{1,3}){2,3}", value)
            and all(int(v) <= 255 for v in value.split(","))
        ):
            return "not a colour r,g,b[,a] (0-255) or 0xRRGGBB"
    elif kind == "key" and not _KEY.fullmatch(value):
        return "not a key stroke keyCode,modifiers[,name] (read as no key)"
    return None
