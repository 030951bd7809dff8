"""Piece traits (VASSAL ``Decorator`` classes) as plain dataclasses.

Each trait gives its ``type_string()`` (trait id + ``;``-encoded fields) and ``state_string()``
exactly as the corresponding VASSAL 3.7 class writes them (``vassal-format.md`` §3.5). Key
strokes are plain strings in VASSAL's ``code,modifiers[,Name]`` form (§2.1, §3.4); build them with
:func:`keystroke` and :func:`named_key`. Anything not modelled here can be written with
:class:`RawTrait`.

Traits are combined into a piece by :class:`pipeline.vassal.pieces.PieceDefinition`.

>>> Marker(("Side", "Type"), ("Axis", "Infantry")).type_string()
'mark;Side,Type'
>>> keystroke(ord("F"), CTRL)
'70,130'
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar, Protocol, runtime_checkable

from .sequence import encode

__all__ = [
    "ALT",
    "CONTAINER_IDS",
    "CTRL",
    "KNOWN_TRAIT_IDS",
    "META",
    "SHIFT",
    "BasicPiece",
    "Clone",
    "Delete",
    "DynamicProperty",
    "Embellishment",
    "FreeRotator",
    "Label",
    "Layer",
    "Marker",
    "PropertyCommand",
    "Prototype",
    "RawTrait",
    "ReportState",
    "Restricted",
    "Trait",
    "UsePrototype",
    "java_bool",
    "java_double",
    "key_list",
    "keystroke",
    "named_key",
    "trait_id",
]

#: Java ``KeyStroke.getModifiers()`` values (§2.1).
CTRL = 130
SHIFT = 65
ALT = 520
META = 260

#: Trait prefixes accepted by VASSAL 3.7's ``BasicCommandEncoder`` (§3.5 "Other IDs"), each
#: including its trailing ``;``. ``piece;`` is the basic piece.
KNOWN_TRAIT_IDS: frozenset[str] = frozenset({
    "piece;", "emb2;", "mark;", "label;", "prototype;", "delete;", "clone;", "report;",
    "sendto;", "restrict;", "obs;", "rotate;", "PROP;", "globalkey;", "macro;", "footprint;",
    "immob;", "hide;", "table;", "propertysheet;", "pivot;", "nonRect2;", "nonRect;", "locmsg;",
    "placemark;", "replace;", "markmoved;", "return;", "submenu;", "menuSeparator;",
    "translate;", "AreaOfEffect;", "calcProp;", "setprop;", "hideCmd;", "playSound;", "button;",
    "globalhotkey;", "deselect;", "mat;", "matPiece;", "basicName;", "emb;", "attach;",
    "border;", "cmt;", "locCommand;", "setpieceprop;",
})

#: Innermost types that are containers rather than pieces (§3.2, §4.4): ``stack`` and ``deck;``.
CONTAINER_IDS: frozenset[str] = frozenset({"stack", "deck;"})


def java_bool(value: bool) -> str:
    """``String.valueOf(boolean)``: ``true`` / ``false`` (§3.1 step 5)."""
    return "true" if value else "false"


def java_double(value: float) -> str:
    """``String.valueOf(double)`` for ordinary values: ``1.0``, ``0.5``, ``64.0`` (§3.1 step 5).

    Raises:
        ValueError: for NaN or infinities, or magnitudes Java prints in scientific notation
            (outside 1e-3 <= |v| < 1e7), which gunbai never needs.
    """
    v = float(value)
    if not math.isfinite(v):
        raise ValueError(f"not a finite double: {value!r}")
    if v != 0 and not (1e-3 <= abs(v) < 1e7):
        raise ValueError(f"double {value!r} would be written in scientific notation by Java")
    text = repr(v)
    return text if "." in text else text + ".0"


def keystroke(code: int, modifiers: int = 0) -> str:
    """A key stroke field ``code,modifiers`` (§2.1), e.g. ``keystroke(ord("F"), CTRL)`` ->
    ``"70,130"``. ``code`` is a Java VK code (letters are their upper-case ASCII value)."""
    if code < 0 or modifiers < 0:
        raise ValueError("key code and modifiers must be non-negative")
    return f"{code},{modifiers}"


def named_key(name: str) -> str:
    """A named key command ``0,0,Name`` (§2.1); VASSAL re-assigns the numeric part at run time.

    Raises:
        ValueError: if ``name`` is empty.
    """
    if not name:
        raise ValueError("named key command needs a name")
    return f"0,0,{name}"


def key_list(keys: list[str] | tuple[str, ...]) -> str:
    """A key stroke list (ReportState/TriggerAction, §3.4): comma list with inner commas
    escaped, e.g. ``key_list(["68,130", "69,130"])`` -> ``68\\,130,69\\,130``."""
    return encode(keys, ",")


def trait_id(type_string: str) -> str:
    """The trait id of one level's type: the prefix up to and including the first ``;``, or the
    whole string when there is no ``;`` (how ``stack`` works), per §3.2 step 3."""
    i = type_string.find(";")
    return type_string if i < 0 else type_string[: i + 1]


@runtime_checkable
class Trait(Protocol):
    """Anything that can be one level of a piece (§3.2): gives its own type and state."""

    def type_string(self) -> str:
        """This level's type, starting with the trait id (for example ``mark;Side``)."""
        ...

    def state_string(self) -> str:
        """This level's state (may be empty)."""
        ...


def _fields(trait_prefix: str, *fields: str) -> str:
    return trait_prefix + encode(fields, ";")


@dataclass(frozen=True)
class BasicPiece:
    """The innermost ``piece;`` (§3.5 "BasicPiece").

    Type ``piece;cloneKey;deleteKey;image;name``; state ``map;x;y;gpid;nProps[;key;value]*``.

    Attributes:
        image: image name under ``images/`` (may be empty, as in prototypes).
        name: the piece name.
        map_name: ``mapName`` of the map, or ``"null"`` when not on a map (slots, prototypes).
        x, y: map coordinates in pixels (int, §2.4).
        gpid: the PieceSlot gpid, or ``""`` (§2.2); the module writer fills it in for slots.
        properties: persistent ``(key, value)`` pairs; normally empty (nProps = 0).

    Raises:
        ValueError: (on construction) if a field contains a TAB.

    >>> BasicPiece("ger_inf.png", "German Infantry", gpid="12").state_string()
    'null;0;0;12;0'
    """

    image: str = ""
    name: str = ""
    map_name: str = "null"
    x: int = 0
    y: int = 0
    gpid: str = ""
    properties: tuple[tuple[str, str], ...] = ()
    clone_key: str = ""
    delete_key: str = ""

    ID: ClassVar[str] = "piece;"

    def __post_init__(self) -> None:
        texts = [self.image, self.name, self.map_name, self.gpid, self.clone_key, self.delete_key]
        texts += [t for kv in self.properties for t in kv]
        if any("\t" in t for t in texts):
            raise ValueError("BasicPiece fields cannot contain a TAB: as the innermost level it "
                             "would read as another trait level (§3.2)")

    def type_string(self) -> str:
        return _fields(self.ID, self.clone_key, self.delete_key, self.image, self.name)

    def state_string(self) -> str:
        items = [self.map_name, str(int(self.x)), str(int(self.y)), self.gpid]
        items.append(str(len(self.properties)))
        for key, value in self.properties:
            items.extend((key, value))
        return encode(items, ";")


@dataclass(frozen=True)
class Layer:
    """Layer / Embellishment ``emb2;``, 33 type fields, version 1 (§3.5 table).

    Attributes:
        images: image names, one per level (level 1 first).
        level_names: one per level; ``+x`` = suffix, ``x+`` = prefix, plain replaces the name,
            empty = no change.
        name: layer name (exposes ``<name>_Level`` etc.).
        value: the state: ``n`` > 0 = active at level n (1-based); ``-n`` = inactive at level n.
        increase_key / decrease_key / activate_key / reset_key / random_key: key strokes.
        x_offset, y_offset: image offset in pixels.

    Raises:
        ValueError: (on construction) when there are fewer images than level names, no images,
            or ``value`` is 0 or beyond the number of images (§8 item 14).

    >>> Layer(("a.png", "b.png"), ("", "+ (reduced)"), name="Step",
    ...       increase_key="70,130").type_string()[:40]
    'emb2;;128;A;;128;;;128;;;;1;false;0;0;a.'
    """

    images: tuple[str, ...]
    level_names: tuple[str, ...] = ()
    name: str = ""
    value: int = 1
    activate_menu: str = ""
    activate_key: str = ""
    increase_menu: str = ""
    increase_key: str = ""
    decrease_menu: str = ""
    decrease_key: str = ""
    reset_menu: str = ""
    reset_key: str = ""
    reset_level: str = "1"
    draw_underneath_when_selected: bool = False
    x_offset: int = 0
    y_offset: int = 0
    loop: bool = True
    random_key: str = ""
    random_menu: str = ""
    follow_property: bool = False
    property_name: str = ""
    first_level_value: int = 1
    always_active: bool = True
    description: str = ""
    scale: float = 1.0
    only_if_property: str = ""
    only_if_value: str = "true"

    ID: ClassVar[str] = "emb2;"
    VERSION: ClassVar[int] = 1

    def __post_init__(self) -> None:
        if not self.images:
            raise ValueError("Layer needs at least one image")
        if len(self.images) < len(self.level_names):
            raise ValueError("Layer has more level names than images")
        if self.value == 0 or abs(self.value) > len(self.images):
            raise ValueError(f"Layer value {self.value} outside 1..{len(self.images)}")

    def type_string(self) -> str:
        names = list(self.level_names) + [""] * (len(self.images) - len(self.level_names))
        fields = [
            self.activate_menu, "128", "A",                      # 1-3
            self.increase_menu, "128", "",                       # 4-6
            self.decrease_menu, "128", "",                       # 7-9
            self.reset_menu, self.reset_key, self.reset_level,   # 10-12
            java_bool(self.draw_underneath_when_selected),       # 13
            str(self.x_offset), str(self.y_offset),              # 14-15
            encode(self.images, ","), encode(names, ","),        # 16-17
            java_bool(self.loop), self.name,                     # 18-19
            self.random_key, self.random_menu,                   # 20-21
            java_bool(self.follow_property), self.property_name,  # 22-23
            str(self.first_level_value), str(self.VERSION),      # 24-25
            java_bool(self.always_active),                       # 26
            self.activate_key, self.increase_key, self.decrease_key,  # 27-29
            self.description, java_double(self.scale),           # 30-31
            self.only_if_property, self.only_if_value,           # 32-33
        ]
        return _fields(self.ID, *fields)

    def state_string(self) -> str:
        return str(int(self.value))


#: VASSAL's own name for :class:`Layer`.
Embellishment = Layer


@dataclass(frozen=True)
class Marker:
    """Marker ``mark;`` (§3.5): constant properties. Type ``mark;k1,k2``; state ``v1,v2``.

    Raises:
        ValueError: (on construction) if keys and values differ in number, or no keys.
    """

    keys: tuple[str, ...]
    values: tuple[str, ...]

    ID: ClassVar[str] = "mark;"

    def __post_init__(self) -> None:
        if not self.keys or len(self.keys) != len(self.values):
            raise ValueError("Marker needs as many values as keys (and at least one key)")

    def type_string(self) -> str:
        return self.ID + encode(self.keys, ",")

    def state_string(self) -> str:
        return encode(self.values, ",")


@dataclass(frozen=True)
class Label:
    """Text Label ``label;`` (§3.5), 18 type fields; the state is the label text.

    Positions are ``t|c|b`` (vertical) and ``l|c|r`` (horizontal); offsets in pixels; colours
    ``r,g,b`` or empty for none; font style 0 plain, 1 bold, 2 italic, 3 both.
    """

    text: str = ""
    key: str = ""
    menu_text: str = ""
    font_size: int = 10
    background: str = ""
    foreground: str = "0,0,0"
    vertical_pos: str = "t"
    vertical_offset: int = 0
    horizontal_pos: str = "c"
    horizontal_offset: int = 0
    vertical_justify: str = "b"
    horizontal_justify: str = "c"
    name_format: str = "$pieceName$ ($label$)"
    font_family: str = "Dialog"
    font_style: int = 0
    rotation: int = 0
    property_name: str = "TextLabel"
    description: str = ""
    always_use_name_format: bool = False

    ID: ClassVar[str] = "label;"

    def __post_init__(self) -> None:
        for value, allowed in (
            (self.vertical_pos, "tcb"),
            (self.vertical_justify, "tcb"),
            (self.horizontal_pos, "lcr"),
            (self.horizontal_justify, "lcr"),
        ):
            if value not in tuple(allowed):
                raise ValueError(f"Label position {value!r} not one of {tuple(allowed)}")
        if self.text != self.text.strip():
            raise ValueError("Label text is trimmed by VASSAL; strip it first")

    def type_string(self) -> str:
        return _fields(
            self.ID, self.key, self.menu_text, str(self.font_size), self.background,
            self.foreground, self.vertical_pos, str(self.vertical_offset), self.horizontal_pos,
            str(self.horizontal_offset), self.vertical_justify, self.horizontal_justify,
            self.name_format, self.font_family, str(self.font_style), str(self.rotation),
            self.property_name, self.description, java_bool(self.always_use_name_format),
        )

    def state_string(self) -> str:
        return self.text


@dataclass(frozen=True)
class UsePrototype:
    """Use-prototype ``prototype;Name[;k1=v1,k2=v2]`` (§3.5, §2.7); empty state.

    Also exported as ``traits.Prototype``. Not to be confused with
    :class:`pipeline.vassal.buildfile.PrototypeDefinition` (the definition it refers to).
    """

    name: str
    parameters: tuple[tuple[str, str], ...] = ()

    ID: ClassVar[str] = "prototype;"

    def __post_init__(self) -> None:
        if not self.name:
            raise ValueError("prototype trait needs a prototype name")

    def type_string(self) -> str:
        if not self.parameters:
            return _fields(self.ID, self.name)
        params = encode([encode([k, v], "=") for k, v in self.parameters], ",")
        return _fields(self.ID, self.name, params)

    def state_string(self) -> str:
        return ""


#: Alias of :class:`UsePrototype` (the trait's id is ``prototype;``).
Prototype = UsePrototype


@dataclass(frozen=True)
class Delete:
    """Delete ``delete;menu;key;description`` (§3.5); empty state."""

    menu_text: str = "Delete"
    key: str = "68,130"
    description: str = ""

    ID: ClassVar[str] = "delete;"

    def type_string(self) -> str:
        return _fields(self.ID, self.menu_text, self.key, self.description)

    def state_string(self) -> str:
        return ""


@dataclass(frozen=True)
class Clone:
    """Clone ``clone;menu;key;description`` (§3.5); empty state."""

    menu_text: str = "Clone"
    key: str = "67,130"
    description: str = ""

    ID: ClassVar[str] = "clone;"

    def type_string(self) -> str:
        return _fields(self.ID, self.menu_text, self.key, self.description)

    def state_string(self) -> str:
        return ""


@dataclass(frozen=True)
class FreeRotator:
    """Can Rotate ``rotate;`` (§3.5).

    ``facings`` = number of allowed facings; 1 means free rotation. For fixed facings the state
    is the facing index (int); for free rotation it is the angle in degrees (Java double).

    Raises:
        ValueError: (on construction) if ``facings`` < 1.
    """

    facings: int = 6
    cw_key: str = ""
    ccw_key: str = ""
    cw_menu: str = "Rotate CW"
    ccw_menu: str = "Rotate CCW"
    set_angle_key: str = ""
    set_angle_menu: str = "Rotate"
    random_key: str = ""
    random_menu: str = ""
    name: str = ""
    description: str = ""
    direct_key: str = ""
    direct_menu: str = ""
    direct_expression: str = ""
    direct_is_facing: bool = True
    facing: int = 0
    angle: float = 0.0

    ID: ClassVar[str] = "rotate;"

    def __post_init__(self) -> None:
        if self.facings < 1:
            raise ValueError("FreeRotator facings must be >= 1")

    def type_string(self) -> str:
        if self.facings == 1:
            head = [str(self.facings), self.set_angle_key, self.set_angle_menu]
        else:
            head = [str(self.facings), self.cw_key, self.ccw_key, self.cw_menu, self.ccw_menu]
        tail = [
            self.random_key, self.random_menu, self.name, self.description, self.direct_key,
            self.direct_menu, self.direct_expression, java_bool(self.direct_is_facing),
        ]
        return _fields(self.ID, *head, *tail)

    def state_string(self) -> str:
        if self.facings == 1:
            return java_double(self.angle)
        return str(int(self.facing))


@dataclass(frozen=True)
class PropertyCommand:
    """One Dynamic Property menu command ``menuText:key:changer`` (§3.5 "Dynamic Property").

    ``kind`` is ``P`` (set to ``args[0]``), ``I`` (increment by ``args[0]``), ``R`` (prompt
    ``args[0]``) or ``E`` (prompt ``args[0]``, then the choices).
    """

    menu_text: str
    key: str
    kind: str
    args: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in ("P", "I", "R", "E"):
            raise ValueError(f"unknown Dynamic Property changer {self.kind!r}")

    def encoded(self) -> str:
        changer = encode([self.kind, *self.args], ",")
        return encode([self.menu_text, self.key, changer], ":")


@dataclass(frozen=True)
class DynamicProperty:
    """Dynamic Property ``PROP;name;constraints;commands;description`` (§3.5); the state is the
    current value.

    >>> DynamicProperty("Strength", "5", numeric=True, minimum=0, maximum=10, commands=(
    ...     PropertyCommand("Increase", "73,130", "I", ("1",)),)).type_string()
    'PROP;Strength;true,0,10,false;Increase:73\\\\,130:I\\\\,1;'
    """

    name: str
    value: str = ""
    numeric: bool = False
    minimum: int = 0
    maximum: int = 100
    wrap: bool = False
    commands: tuple[PropertyCommand, ...] = ()
    description: str = ""

    ID: ClassVar[str] = "PROP;"

    def type_string(self) -> str:
        constraints = encode(
            [java_bool(self.numeric), str(self.minimum), str(self.maximum), java_bool(self.wrap)],
            ",",
        )
        commands = encode([c.encoded() for c in self.commands], ",")
        return _fields(self.ID, self.name, constraints, commands, self.description)

    def state_string(self) -> str:
        return self.value


@dataclass(frozen=True)
class ReportState:
    """Report Action ``report;keys;format;cycleKeys;cycleMessages;description;noSuppress``
    (§3.5). ``keys`` and ``cycle_down_keys`` are key strokes, written as a key list (§3.4).
    State: the cycle index, empty when unused."""

    keys: tuple[str, ...] = ()
    report_format: str = "$location$: $newPieceName$ *"
    cycle_down_keys: tuple[str, ...] = ()
    cycle_messages: tuple[str, ...] = ()
    description: str = ""
    no_suppress: bool = False
    cycle_index: str = ""

    ID: ClassVar[str] = "report;"

    def type_string(self) -> str:
        return _fields(
            self.ID, key_list(self.keys), self.report_format, key_list(self.cycle_down_keys),
            encode(self.cycle_messages, ","), self.description, java_bool(self.no_suppress),
        )

    def state_string(self) -> str:
        return self.cycle_index


@dataclass(frozen=True)
class Restricted:
    """Restricted Access ``restrict;sides;byPlayer;restrictMovement;description`` (§3.5).

    ``sides`` must be PlayerRoster sides (§8 item 12). State: the owning player id (empty)."""

    sides: tuple[str, ...]
    restrict_by_player: bool = False
    restrict_movement: bool = True
    description: str = ""
    owner: str = ""

    ID: ClassVar[str] = "restrict;"

    def type_string(self) -> str:
        return _fields(
            self.ID, encode(self.sides, ","), java_bool(self.restrict_by_player),
            java_bool(self.restrict_movement), self.description,
        )

    def state_string(self) -> str:
        return self.owner


@dataclass(frozen=True)
class RawTrait:
    """Escape hatch: a trait given as its literal type and state strings (§3.5).

    Raises:
        ValueError: (on construction) if the type has no ``;``-terminated id.
    """

    type: str
    state: str = ""

    def __post_init__(self) -> None:
        if ";" not in self.type:
            raise ValueError(f"trait type must start with an id ending in ';': {self.type!r}")

    def type_string(self) -> str:
        return self.type

    def state_string(self) -> str:
        return self.state
