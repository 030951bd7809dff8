"""Reading helpers shared by lint, inspect and tests: image headers and buildFile element paths.

Only image headers are parsed (stdlib, no pixel decoding): PNG (signature, IHDR and its CRC),
GIF, JPEG (to the first SOF marker), BMP, TIFF, and SVG (root ``<svg>`` width/height/viewBox the
way VASSAL's ``SVGImageUtils.getImageSize`` reads them). That is enough to know a board's size in
pixels (VASSAL takes it from the image, §2.4), to tell an image from garbage bytes, and to
measure what decoding would cost, in a few microseconds per image.
"""

from __future__ import annotations

import re
import struct
import zlib
from dataclasses import dataclass

from lxml import etree

__all__ = ["NAME_ATTRS", "ImageInfo", "element_path", "image_info", "image_size", "parse_svg",
           "short_tag", "svg_size"]

#: Attributes that name a component, in the order tried for element paths (§5 names).
NAME_ATTRS = ("mapName", "name", "entryName", "chartName", "title", "threadName")


@dataclass(frozen=True)
class ImageInfo:
    """What an image header says: ``format`` (``png``, ``gif``, ``jpeg``, ``bmp``, ``tiff``,
    ``svg``) and the size in pixels (an SVG's as VASSAL computes it, rounded)."""

    format: str
    width: int
    height: int


def image_info(data: bytes) -> ImageInfo | None:
    """The format and pixel size of image bytes, or None when they are no image Java's ImageIO
    or VASSAL's SVG renderer can read (garbage, truncated header, a PNG whose IHDR CRC is
    wrong, an SVG whose root is not ``<svg>``). Only headers are read."""
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
    svg = svg_size(data)
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


def short_tag(tag: str) -> str:
    """``VASSAL.build.module.map.Zoomer`` -> ``map.Zoomer``; widget and other tags shortened
    likewise."""
    for prefix in ("VASSAL.build.module.", "VASSAL.build.widget.", "VASSAL.build."):
        if tag.startswith(prefix):
            return tag[len(prefix) :]
    return tag


def element_path(el: etree._Element) -> str:
    """A readable path to ``el``: short tags with their name attribute, e.g.
    ``GameModule/PieceWindow[Pieces]/ListWidget[All]/PieceSlot[Inf]``."""
    parts = []
    node: etree._Element | None = el
    while node is not None:
        label = short_tag(str(node.tag))
        for attr in NAME_ATTRS:
            value = node.get(attr)
            if value:
                label += f"[{value}]"
                break
        parts.append(label)
        node = node.getparent()
    return "/".join(reversed(parts))
