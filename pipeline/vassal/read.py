"""Reading helpers shared by lint and tests: image sizes and buildFile element paths.

Only stdlib parsing of image headers (PNG, GIF, JPEG) is done, to know a board's size in pixels
when the buildFile does not state it (VASSAL takes a board's size from its image, §2.4).
"""

from __future__ import annotations

import struct

from lxml import etree

__all__ = ["NAME_ATTRS", "element_path", "image_size", "short_tag"]

#: Attributes that name a component, in the order tried for element paths (§5 names).
NAME_ATTRS = ("mapName", "name", "entryName", "chartName", "title", "threadName")


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
