"""Reading helpers shared by lint, inspect, import and tests: image headers, buildFile element
paths, and a module's maps, boards, grids, prototypes and palette read back (:func:`read_module`).

Only image headers are parsed (stdlib, no pixel decoding): PNG (signature, IHDR and its CRC),
GIF, JPEG (to the first SOF marker), BMP, TIFF, and SVG (root ``<svg>`` width/height/viewBox the
way VASSAL's ``SVGImageUtils.getImageSize`` reads them). That is enough to know a board's size in
pixels (VASSAL takes it from the image, §2.4), to tell an image from garbage bytes, and to
measure what decoding would cost, in a few microseconds per image.

The module is untrusted input: it is read through :func:`~.archive.open_archive` (bounded sizes,
safe names) and :func:`~.archive.parse_xml` (no DTD, no entities); a number that does not parse
falls back to VASSAL's default, as VASSAL's own attribute setters do.
"""

from __future__ import annotations

import math
import re
import struct
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from lxml import etree

from .grids import GridNumbering, HexGrid, SquareGrid
from .pieces import DecodedPiece, PieceDecodeError, decode_add_piece

__all__ = [
    "NAME_ATTRS",
    "BoardInfo",
    "ImageInfo",
    "MapInfo",
    "ModuleInfo",
    "SlotInfo",
    "ZoneInfo",
    "element_path",
    "grid_from_element",
    "image_info",
    "image_size",
    "board_grids",
    "board_size",
    "parse_svg",
    "pixel_size",
    "read_module",
    "read_module_root",
    "short_tag",
    "svg_root_size",
    "svg_size",
]

VM = "VASSAL.build.module."
_GRIDS = VM + "map.boardPicker.board."

#: Attributes that name a component, in the order tried for element paths (§5 names).
NAME_ATTRS = ("mapName", "name", "entryName", "chartName", "title", "threadName")


@dataclass(frozen=True)
class ImageInfo:
    """What an image header says: ``format`` (``png``, ``gif``, ``jpeg``, ``bmp``, ``tiff``,
    ``svg``) and the size in pixels (an SVG's as VASSAL computes it, rounded)."""

    format: str
    width: int
    height: int


def image_info(data: bytes, svg_size_of: Callable[[bytes], tuple[int, int] | None] | None = None
               ) -> ImageInfo | None:
    """The format and pixel size of image bytes, or None when they are no image Java's ImageIO
    or VASSAL's SVG renderer can read (garbage, truncated header, a PNG whose IHDR CRC is
    wrong, an SVG whose root is not ``<svg>``). Only headers are read. ``svg_size_of`` stands in
    for :func:`svg_size` (a caller that has parsed the SVG already gives its result)."""
    head = data[:8]
    if head == b"\x89PNG\r\n\x1a\n":
        if len(data) < 33 or data[8:16] != b"\x00\x00\x00\x0dIHDR":
            return None
        (crc,) = struct.unpack(">I", data[29:33])
        if zlib.crc32(data[12:29]) != crc:
            return None
        w, h = struct.unpack(">II", data[16:24])
        return ImageInfo("png", w, h) if w and h else None
    if head[:2] == b"BM" and len(data) >= 26:
        (dib,) = struct.unpack("<I", data[14:18])
        if dib == 12:
            w, h = struct.unpack("<HH", data[18:22])
        elif dib >= 40 and len(data) >= 26:
            w, h = struct.unpack("<ii", data[18:26])
        else:
            return None
        return ImageInfo("bmp", abs(w), abs(h)) if w and h else None
    if head[:4] in (b"II*\x00", b"MM\x00*"):
        return _tiff_info(data)
    size = image_size(data)
    if size is not None:
        fmt = "gif" if data[:3] == b"GIF" else "jpeg"
        return ImageInfo(fmt, *size) if size[0] and size[1] else None
    svg = (svg_size_of or svg_size)(data)
    if svg is not None:
        return ImageInfo("svg", *svg)
    return None


def _tiff_info(data: bytes) -> ImageInfo | None:
    end = "<" if data[:2] == b"II" else ">"
    try:
        (ifd,) = struct.unpack(end + "I", data[4:8])
        (count,) = struct.unpack(end + "H", data[ifd:ifd + 2])
        w = h = 0
        for i in range(count):
            tag, typ, _n, value = struct.unpack(end + "HHI4s", data[ifd + 2 + 12 * i:
                                                                   ifd + 14 + 12 * i])
            number = struct.unpack(end + ("H" if typ == 3 else "I"),
                                   value[:2] if typ == 3 else value)[0]
            if tag == 256:
                w = number
            elif tag == 257:
                h = number
    except struct.error:
        return None
    return ImageInfo("tiff", w, h) if w and h else None


#: User units per unit of an SVG length (Batik's UnitProcessor at 96 dpi).
_SVG_UNITS = {"": 1.0, "px": 1.0, "in": 96.0, "cm": 96 / 2.54, "mm": 96 / 25.4, "pt": 4 / 3,
              "pc": 16.0}
_SVG_LENGTH = re.compile(r"\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*(px|in|cm|mm|pt|pc|%)?\s*")


def parse_svg(data: bytes) -> etree._Element | None:
    """Parse an SVG document as Batik would read it, safely: a DOCTYPE (Inkscape and
    Illustrator write one) is allowed, but no DTD is loaded, no network is used, entities are
    left unexpanded and huge trees are refused. None when it is no well-formed XML."""
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                             huge_tree=False, dtd_validation=False)
    try:
        return etree.fromstring(data, parser=parser)
    except etree.XMLSyntaxError:
        return None


def svg_size(data: bytes) -> tuple[int, int] | None:
    """Pixel size of an SVG document as ``SVGImageUtils.getImageSize`` computes it (width and
    height in user units, else the viewBox's, a percentage of the viewBox, a square from the one
    given; rounded), or None when ``data`` is not XML with an ``<svg>`` root
    (:func:`parse_svg`)."""
    if not data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<"):
        return None
    root = parse_svg(data)
    if root is None:
        return None
    return svg_root_size(root)


def svg_root_size(root: etree._Element) -> tuple[int, int] | None:
    """:func:`svg_size` of an SVG document already parsed by :func:`parse_svg` (None when its
    root is not ``<svg>``)."""
    if not isinstance(root.tag, str) or etree.QName(root).localname != "svg":
        return None

    def length(attr: str) -> tuple[float, bool]:
        text = root.get(attr, "")
        m = _SVG_LENGTH.fullmatch(text)
        if not text or m is None:
            return -1.0, False
        unit = m.group(2) or ""
        if unit == "%":
            return float(m.group(1)) / 100, True
        return float(m.group(1)) * _SVG_UNITS[unit], False

    w, w_pct = length("width")
    h, h_pct = length("height")
    vb = None
    parts = re.split(r"[\s,]+", root.get("viewBox", "").strip())
    if len(parts) == 4:
        try:
            vb = [float(p) for p in parts]
        except ValueError:
            vb = None
    if w < 0 or h < 0:
        if vb is not None:
            w = vb[2] if w < 0 else (w * vb[2] if w_pct else w)
            h = vb[3] if h < 0 else (h * vb[3] if h_pct else h)
        elif h >= 0:
            w = h
        elif w >= 0:
            h = w
        else:
            w = h = 0
    elif vb is not None:
        w = w * vb[2] if w_pct else w
        h = h * vb[3] if h_pct else h
    return int(w + 0.5), int(h + 0.5)


def image_size(data: bytes) -> tuple[int, int] | None:
    """``(width, height)`` in pixels of a PNG, GIF or baseline/progressive JPEG, else None."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24 and data[12:16] == b"IHDR":
        w, h = struct.unpack(">II", data[16:24])
        return w, h
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        w, h = struct.unpack("<HH", data[6:10])
        return w, h
    if data[:2] == b"\xff\xd8":
        i = 2
        while i + 4 <= len(data):
            if data[i] != 0xFF:
                return None
            marker = data[i + 1]
            if marker == 0xFF:
                i += 1
                continue
            if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
                i += 2
                continue
            (length,) = struct.unpack(">H", data[i + 2 : i + 4])
            if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
                if i + 9 > len(data):
                    return None
                h, w = struct.unpack(">HH", data[i + 5 : i + 9])
                return w, h
            i += 2 + length
    return None


def pixel_size(data: bytes) -> tuple[int, int] | None:
    """``(width, height)`` in pixels of a raster image VASSAL reads (PNG, GIF, JPEG, BMP, TIFF:
    :func:`image_info`), else None (an SVG board's size is not judged from here).

    >>> pixel_size(b"BM" + bytes(12) + (40).to_bytes(4, "little") + (800).to_bytes(4, "little") + (600).to_bytes(4, "little"))
    (800, 600)
    """
    info = image_info(data, lambda _data: None)
    return (info.width, info.height) if info is not None else None


def short_tag(tag: str) -> str:
    """``VASSAL.build.module.map.Zoomer`` -> ``map.Zoomer``; widget and other tags shortened
    likewise."""
    for prefix in ("VASSAL.build.module.", "VASSAL.build.widget.", "VASSAL.build."):
        if tag.startswith(prefix):
            return tag[len(prefix) :]
    return tag


def element_label(el: etree._Element) -> str:
    """One step of :func:`element_path`: the short tag with the element's name attribute, e.g.
    ``PieceSlot[Inf]``."""
    label = short_tag(str(el.tag))
    for attr in NAME_ATTRS:
        value = el.get(attr)
        if value:
            return f"{label}[{value}]"
    return label


def element_path(el: etree._Element) -> str:
    """A readable path to ``el``: short tags with their name attribute, e.g.
    ``GameModule/PieceWindow[Pieces]/ListWidget[All]/PieceSlot[Inf]``."""
    parts = []
    node: etree._Element | None = el
    while node is not None:
        parts.append(element_label(node))
        node = node.getparent()
    return "/".join(reversed(parts))


# --------------------------------------------------------------------------- module read-back


def _num(value: str | None, default: float) -> float:
    """A double attribute as VASSAL reads it; a missing, non-numeric or non-finite value keeps
    VASSAL's default."""
    try:
        v = float(value) if value not in (None, "") else default
    except ValueError:
        return default
    return v if math.isfinite(v) else default


def _int(value: str | None, default: int) -> int:
    try:
        return int(value) if value not in (None, "") else default
    except ValueError:
        return default


def _bool(value: str | None, default: bool) -> bool:
    return default if value in (None, "") else value == "true"


def _numbering(el: etree._Element | None, hex_: bool) -> GridNumbering | None:
    if el is None:
        return None
    a = el.attrib
    first = a.get("first", "H") if a.get("first", "H") in ("H", "V") else "H"
    h_type = a.get("hType", "N") if a.get("hType", "N") in ("N", "A") else "N"
    v_type = a.get("vType", "N") if a.get("vType", "N") in ("N", "A") else "N"
    return GridNumbering(
        first=first, sep=a.get("sep", ""), h_type=h_type, v_type=v_type,
        h_leading=_int(a.get("hLeading"), 1), v_leading=_int(a.get("vLeading"), 1),
        h_off=_int(a.get("hOff"), 1), v_off=_int(a.get("vOff"), 1),
        h_descend=_bool(a.get("hDescend"), False), v_descend=_bool(a.get("vDescend"), False),
        stagger=_bool(a.get("stagger"), True) if hex_ else False,
        location_format=a.get("locationFormat", "$gridLocation$"))


def grid_from_element(el: etree._Element) -> HexGrid | SquareGrid | None:
    """A ``HexGrid`` or ``SquareGrid`` element (§2.5) as :mod:`.grids` objects with its
    numbering; VASSAL's defaults for missing or bad numbers (``HexGrid``: x0 0, y0 32, dy 64,
    dx = dy·√3/2 when only dy is given). None for any other element or a non-positive spacing
    (VASSAL cannot locate a hex then)."""
    tag = str(el.tag)
    if tag == _GRIDS + "HexGrid":
        dy = _num(el.get("dy"), 64.0)
        dx = _num(el.get("dx"), dy * math.sqrt(3) / 2)
        if dx <= 0 or dy <= 0:
            return None
        num = _numbering(el.find(_GRIDS + "mapgrid.HexGridNumbering"), True)
        return HexGrid(x0=int(_num(el.get("x0"), 0)), y0=int(_num(el.get("y0"), 32)), dx=dx, dy=dy,
                       sideways=_bool(el.get("sideways"), False), numbering=num)
    if tag == _GRIDS + "SquareGrid":
        dx, dy = _num(el.get("dx"), 48.0), _num(el.get("dy"), 48.0)
        if dx <= 0 or dy <= 0:
            return None
        num = _numbering(el.find(_GRIDS + "mapgrid.SquareGridNumbering"), False)
        rng = el.get("range", "Metric") if el.get("range") in ("Metric", "Manhattan") else "Metric"
        return SquareGrid(x0=int(_num(el.get("x0"), 24)), y0=int(_num(el.get("y0"), 24)), dx=dx, dy=dy,
                          range=rng, numbering=num)
    return None


@dataclass(frozen=True)
class ZoneInfo:
    """A ``Zone`` of a ``ZonedGrid`` (§2.5): its name, polygon (board pixels) and own grid
    (None when it uses the board's background grid or has none)."""

    name: str
    polygon: tuple[tuple[int, int], ...]
    grid: HexGrid | SquareGrid | None
    use_parent_grid: bool

    def contains(self, x: float, y: float) -> bool:
        """Even-odd test of board pixel (x, y) against the polygon (edges count as inside
        only as ``java.awt.Polygon`` happens to; pieces stand well inside zones)."""
        inside = False
        pts = self.polygon
        for i in range(len(pts)):
            (x1, y1), (x2, y2) = pts[i], pts[i - 1]
            if (y1 > y) != (y2 > y) and x < (x2 - x1) * (y - y1) / (y2 - y1) + x1:
                inside = not inside
        return inside


@dataclass(frozen=True)
class BoardInfo:
    """A board read back: name, image, size in pixels (from the image, else the width/height
    attributes; None when neither is known), the grid (a ``ZonedGrid``'s background grid) and
    the zones."""

    name: str
    image: str
    size: tuple[int, int] | None
    grid: HexGrid | SquareGrid | None
    zones: tuple[ZoneInfo, ...] = ()

    def grid_at(self, x: float, y: float) -> tuple[HexGrid | SquareGrid | None, str | None]:
        """The grid that numbers board pixel (x, y) and the name of the zone holding it (the
        first zone whose polygon contains the point, as ``ZonedGrid``), else the background
        grid and None."""
        for z in self.zones:
            if z.contains(x, y):
                return (self.grid if z.use_parent_grid else z.grid), z.name
        return self.grid, None


@dataclass(frozen=True)
class MapInfo:
    """A map read back: ``mapName``, edge margins in pixels, boards by name."""

    name: str
    edge: tuple[int, int]
    boards: dict[str, BoardInfo]


@dataclass(frozen=True)
class SlotInfo:
    """A palette PieceSlot (or a CardSlot): label, gpid, decoded piece, and the palette path
    (window and widget names)."""

    entry_name: str
    gpid: str
    piece: DecodedPiece
    palette: tuple[str, ...]


@dataclass
class ModuleInfo:
    """What a module (or extension) holds that a setup refers to: ``name``/``version``, maps,
    prototypes by name (None when undecodable), palette slots, slots by gpid, predefined setups
    ``(name, file)``."""

    name: str
    version: str
    maps: dict[str, MapInfo] = field(default_factory=dict)
    prototypes: dict[str, DecodedPiece | None] = field(default_factory=dict)
    slots: list[SlotInfo] = field(default_factory=list)
    setups: list[tuple[str, str]] = field(default_factory=list)

    @property
    def slots_by_gpid(self) -> dict[str, SlotInfo]:
        return {s.gpid: s for s in self.slots if s.gpid}


def board_grids(b: etree._Element) -> tuple[HexGrid | SquareGrid | None, tuple[ZoneInfo, ...]]:
    """A ``Board`` element's grid (a ``ZonedGrid``'s background grid) and its zones (§2.5)."""
    grid = None
    zones: tuple[ZoneInfo, ...] = ()
    for child in b:
        if not isinstance(child.tag, str):
            continue
        if str(child.tag) == _GRIDS + "ZonedGrid":
            zones = tuple(_zones(child))
            grid = next((g for g in (grid_from_element(c) for c in child) if g is not None), None)
        elif grid is None:
            grid = grid_from_element(child)
    return grid, zones


def board_size(b: etree._Element, read_image) -> tuple[int, int] | None:
    """A ``Board`` element's size in pixels: its image's (``read_image(name)``: the bytes or
    None), else its width and height attributes; None when neither is known (§2.4)."""
    image = b.get("image", "")
    if image and read_image is not None:
        data = read_image(image)
        size = pixel_size(data) if data is not None else None
        if size:
            return size
    w, h = _int(b.get("width"), 0), _int(b.get("height"), 0)
    return (w, h) if w > 0 and h > 0 else None


def _zones(zoned: etree._Element) -> Iterator[ZoneInfo]:
    for z in zoned.iter(_GRIDS + "mapgrid.Zone"):
        pts: list[tuple[int, int]] = []
        for pair in (z.get("path") or "").split(";"):
            xs = pair.split(",")
            if len(xs) == 2:
                try:
                    pts.append((int(xs[0]), int(xs[1])))
                except ValueError:
                    continue
        grid = next((g for g in (grid_from_element(c) for c in z) if g is not None), None)
        if len(pts) >= 3:
            yield ZoneInfo(z.get("name", ""), tuple(pts), grid, _bool(z.get("useParentGrid"), False))


def _palette_path(el: etree._Element) -> tuple[str, ...]:
    names = []
    node = el.getparent()
    while node is not None and str(node.tag) != VM.rstrip(".") + ".GameModule":
        name = node.get("entryName") or node.get("name") or node.get("mapName")
        if name:
            names.append(name)
        node = node.getparent()
    return tuple(reversed(names))


def read_module_root(root: etree._Element, read_image=None) -> ModuleInfo:
    """:class:`ModuleInfo` of a parsed buildFile root (a module's ``GameModule`` or an
    extension's ``ModuleExtension``). ``read_image(name)`` returns the bytes of
    ``images/<name>`` or None (board sizes come from their images, §2.4)."""
    ext = str(root.tag) == VM + "ModuleExtension"
    info = ModuleInfo(root.get("module" if ext else "name", ""), root.get("version", ""))
    for m in root.iter(VM + "Map", VM + "PrivateMap", VM + "PlayerHand"):
        boards: dict[str, BoardInfo] = {}
        for b in m.iter(VM + "map.boardPicker.Board"):
            grid, zones = board_grids(b)
            name = b.get("name", "")
            boards.setdefault(name, BoardInfo(name, b.get("image", ""), board_size(b, read_image), grid, zones))
        info.maps.setdefault(m.get("mapName", ""), MapInfo(m.get("mapName", ""), (_int(m.get("edgeWidth"), 0), _int(m.get("edgeHeight"), 0)), boards))
    for p in root.iter(VM + "PrototypeDefinition"):
        try:
            info.prototypes[p.get("name", "")] = decode_add_piece((p.text or "").strip())
        except PieceDecodeError:
            info.prototypes[p.get("name", "")] = None
    for s in root.iter("VASSAL.build.widget.PieceSlot", "VASSAL.build.widget.CardSlot"):
        try:
            piece = decode_add_piece((s.text or "").strip())
        except PieceDecodeError:
            continue
        info.slots.append(SlotInfo(s.get("entryName", ""), s.get("gpid", "") or piece.gpid or "", piece, _palette_path(s)))
    for s in root.iter(VM + "PredefinedSetup"):
        if s.get("isMenu") != "true" and s.get("useFile") == "true" and s.get("file"):
            info.setups.append((s.get("name", ""), s.get("file", "")))
    return info


def read_module(arc) -> ModuleInfo:
    """:class:`ModuleInfo` of an opened module or extension archive (:class:`~.archive.Archive`).

    Raises:
        VassalFormatError: no buildFile, or it is unsafe or malformed XML.
    """
    from .archive import VassalFormatError

    entry = "buildFile.xml" if "buildFile.xml" in arc else "buildFile"
    if entry not in arc:
        raise VassalFormatError("not a VASSAL module: no buildFile.xml (§1)")

    def read_image(name: str) -> bytes | None:
        path = "images/" + name
        if path not in arc:
            return None
        try:
            return arc.read(path)
        except VassalFormatError:
            return None

    return read_module_root(arc.read_xml(entry), read_image)
