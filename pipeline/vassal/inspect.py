"""What a module, extension or save holds, in words (``gunbai inspect``).

Maps, boards and their grids, prototypes, palette pieces with their traits described, and the
setups with the pieces each places, named by grid location when the board has a hex or square
grid with numbering (the label algorithm of ``vassal-format.md`` §2.5, ported from VASSAL's
``HexGridNumbering``/``RegularGridNumbering``).

>>> hex_label(81, 65, HexGridInfo(30, 35, 51.96, 60.0, False, first="H", sep="",
...           h_leading=1, v_leading=1, h_off=1, v_off=1, stagger=False), 500, 400)
'0201'
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from lxml import etree

from .archive import VassalFormatError, open_archive
from .pieces import DecodedPiece, PieceDecodeError, decode_add_piece
from .read import image_size
from .save import decode_save_text, deobfuscate
from .sequence import decode

__all__ = ["HexGridInfo", "describe_trait", "hex_label", "inspect_bytes", "inspect_path"]

VM = "VASSAL.build.module."
_MODS = ((130, "Ctrl"), (65, "Shift"), (520, "Alt"), (260, "Meta"))
_KEYS = {10: "Enter", 127: "Delete", 37: "Left", 38: "Up", 39: "Right", 40: "Down", 45: "Minus",
         61: "Plus", 32: "Space", 91: "[", 93: "]"}


def key_words(ks: str) -> str:
    """``76,130`` -> ``Ctrl+L``; ``0,0,Name`` -> ``Name``; empty -> ``""`` (§2.1)."""
    parts = ks.split(",")
    if len(parts) >= 3 and parts[2]:
        return parts[2]
    try:
        code, mods = int(parts[0]), int(parts[1])
    except (ValueError, IndexError):
        return ""
    if code == 0:
        return ""
    names = [n for m, n in _MODS if mods & m == m and m]
    key = _KEYS.get(code, chr(code) if 32 < code < 127 else str(code))
    return "+".join([*names, key])


def describe_trait(type_: str, state: str) -> str:
    """One trait in words, e.g. ``Layer 'LyingFlat' (1 image, Ctrl+L)``."""
    tid, _, rest = type_.partition(";")
    f = decode(rest, ";") if rest else []

    def g(i: int) -> str:
        return f[i] if i < len(f) else ""

    if tid == "emb2":
        images = [i for i in decode(g(15), ",") if i]
        keys = ", ".join(k for k in (key_words(g(26)), key_words(g(27)), key_words(g(28))) if k)
        n = len(images)
        return f"Layer '{g(18)}' ({n} image{'s' if n != 1 else ''}{', ' + keys if keys else ''})"
    if tid == "PROP":
        cmds = []
        for c in decode(g(2), ","):
            menu, _, rest2 = c.partition(":")
            k = key_words(decode(rest2, ":")[0]) if rest2 else ""
            cmds.append(f"{menu} {k}".strip())
        return f"Dynamic property {g(0)}={state} ({', '.join(cmds)})" if cmds else (
            f"Dynamic property {g(0)}={state}")
    if tid == "mark":
        keys, vals = decode(g(0), ","), decode(state, ",")
        return "Marker " + ", ".join(f"{k}={v}" for k, v in zip(keys, vals, strict=False))
    if tid == "prototype":
        return f"Prototype '{g(0)}'"
    if tid in ("delete", "clone"):
        return f"{tid.capitalize()} ({key_words(g(1))})"
    if tid == "label":
        return f"Text label '{state}'"
    if tid == "immob":
        return "Does not stack"
    if tid == "rotate":
        return f"Can rotate ({g(0)} facings)"
    if tid == "piece":
        return f"Basic piece '{g(3)}' image {g(2) or '(none)'}"
    return f"{tid} trait"


@dataclass(frozen=True)
class HexGridInfo:
    """The HexGrid and HexGridNumbering attributes the label algorithm needs (§2.5)."""

    x0: int
    y0: int
    dx: float
    dy: float
    sideways: bool
    first: str = "H"
    sep: str = ""
    h_type: str = "N"
    v_type: str = "N"
    h_leading: int = 1
    v_leading: int = 1
    h_off: int = 1
    v_off: int = 1
    h_descend: bool = False
    v_descend: bool = False
    stagger: bool = True


def _name(n: int, kind: str, leading: int) -> str:
    if kind == "A":
        if n < 0:
            return str(n)
        return chr(ord("A") + n % 26) * (n // 26 + 1)
    text = str(n)
    if leading > 0 and 0 <= n < 10:
        text = "0" * leading + text
    return text


def hex_label(x: int, y: int, g: HexGridInfo, board_w: int, board_h: int) -> str:
    """Grid location of board pixel (x, y), as VASSAL names it (§2.5 label algorithm): raw
    column and row nearest the point (odd columns shifted by dy/2), descend from ``maxCols``/
    ``maxRows`` (VASSAL's quirk: columns count with dy, rows with dx), stagger, offsets, then
    column and row formatted and joined in ``first`` order with ``sep``. Sideways grids work in
    the swapped frame."""
    if g.sideways:
        x, y = y, x
        board_w, board_h = board_h, board_w
    if not (math.isfinite(g.dx) and math.isfinite(g.dy) and g.dx > 0 and g.dy > 0):
        return f"({x},{y}) [bad grid spacing dx={g.dx} dy={g.dy}]"
    raw_col = math.floor((x - g.x0) / g.dx + 0.5)
    shift = g.dy / 2 if raw_col % 2 else 0.0
    raw_row = math.floor((y - g.y0 - shift) / g.dy + 0.5)
    h_desc, v_desc = (g.v_descend, g.h_descend) if g.sideways else (g.h_descend, g.v_descend)
    max_cols = math.floor(board_w / g.dy + 0.5)
    max_rows = math.floor(board_h / g.dx + 0.5)
    col = max_cols - raw_col if h_desc else raw_col
    row = max_rows - raw_row if v_desc else raw_row
    if g.stagger and raw_col % 2:
        row += -1 if v_desc else 1
    c = _name(col + g.h_off, g.h_type, g.h_leading)
    r = _name(row + g.v_off, g.v_type, g.v_leading)
    return c + g.sep + r if g.first == "H" else r + g.sep + c


_NUMBERING = VM + "map.boardPicker.board.mapgrid."


def _numbering_problem(hg: etree._Element) -> str | None:
    """Why a HexGrid's numbering cannot be shown as VASSAL 3.7 would: a numbering class 3.7
    lacks (ObliqueHexGridNumbering is 3.8), which 3.7 refuses to build."""
    from .components import is_known_class

    for child in hg:
        if not isinstance(child.tag, str) or child.tag == _NUMBERING + "HexGridNumbering":
            continue
        if "Numbering" in str(child.tag) and not is_known_class(str(child.tag)):
            return (f"numbered by {str(child.tag).rsplit('.', 1)[-1]}, a class VASSAL 3.7 does "
                    "not have ('failed to load class'): locations shown as pixels")
    return None


def _grid(board: etree._Element) -> HexGridInfo | None:
    hg = board.find(".//" + VM + "map.boardPicker.board.HexGrid")
    if hg is None or _numbering_problem(hg) is not None:
        return None
    n = hg.find(_NUMBERING + "HexGridNumbering")
    a = n.attrib if n is not None else {}

    def num(v: str | None, d: float) -> float:
        try:
            return float(v) if v not in (None, "") else d
        except ValueError:
            return d

    return HexGridInfo(
        int(num(hg.get("x0"), 0)), int(num(hg.get("y0"), 32)), num(hg.get("dx"), 64 * 0.866),
        num(hg.get("dy"), 64.0), hg.get("sideways") == "true", a.get("first", "H"),
        a.get("sep", ""), a.get("hType", "N"), a.get("vType", "N"),
        int(num(a.get("hLeading"), 1)), int(num(a.get("vLeading"), 1)),
        int(num(a.get("hOff"), 1)), int(num(a.get("vOff"), 1)), a.get("hDescend") == "true",
        a.get("vDescend") == "true", a.get("stagger", "true") == "true")


def _piece(text: str) -> DecodedPiece | None:
    try:
        return decode_add_piece(text.strip())
    except PieceDecodeError:
        return None


def _board_size(arc, b: etree._Element) -> tuple[int, int]:
    """A board's size: its image's header, else its width/height attributes, else 0 x 0."""
    name = b.get("image") or ""
    if arc is not None and name and "images/" + name in arc:
        try:
            size = image_size(arc.read_head("images/" + name, 1 << 16))
        except VassalFormatError:
            size = None
        if size:
            return size
    try:
        return int(b.get("width") or 0), int(b.get("height") or 0)
    except ValueError:
        return 0, 0


def _part(what: str, lines: Callable[[], Iterator[str]]) -> Iterator[str]:
    """The lines of one part of the description; a part that fails says so in one line and the
    description goes on (one bad part never hides the rest)."""
    try:
        yield from lines()
    except (VassalFormatError, PieceDecodeError, ValueError, KeyError, etree.LxmlError) as exc:
        yield f"{what}: cannot be read: {exc}"


def _lines(root: etree._Element, arc, title: str) -> Iterator[str]:
    kind = "Extension" if root.tag == VM + "ModuleExtension" else "Module"
    name = root.get("module") if kind == "Extension" else root.get("name")
    yield f"{kind} {name!r} version {root.get('version', '')} ({title})"
    grids: dict[str, tuple[HexGridInfo | None, int, int, int, int]] = {}

    def maps() -> Iterator[str]:
        for m in root.iter(VM + "Map", VM + "PrivateMap", VM + "PlayerHand",
                           "VASSAL.build.widget.WidgetMap"):
            mname = m.get("mapName", "")
            yield f"Map {mname!r}"
            for b in m.iter(VM + "map.boardPicker.Board"):
                yield from _part(f"  Board {b.get('name', '')!r}", lambda b=b, m=m, mname=mname:
                                 board(b, m, mname))

    def board(b: etree._Element, m: etree._Element, mname: str) -> Iterator[str]:
        w, h = _board_size(arc, b)
        hg = b.find(".//" + VM + "map.boardPicker.board.HexGrid")
        problem = _numbering_problem(hg) if hg is not None else None
        g = _grid(b)
        if g is not None:
            desc = (f"hex grid x0={g.x0} y0={g.y0} dx={g.dx} dy={g.dy}"
                    f"{' sideways' if g.sideways else ''}")
        elif problem is not None:
            desc = f"hex grid {problem}"
        else:
            desc = "no hex grid"
        yield f"  Board {b.get('name', '')!r} {w}x{h} px, {desc}"
        try:
            edges = int(m.get("edgeWidth") or 0), int(m.get("edgeHeight") or 0)
        except ValueError:
            edges = (0, 0)
        grids.setdefault(mname, (g, w, h, *edges))

    def prototypes() -> Iterator[str]:
        for p in root.iter(VM + "PrototypeDefinition"):
            d = _piece(p.text or "")
            traits = ("; ".join(describe_trait(t, s) for t, s in d.levels[:-1]) if d
                      else "undecodable")
            yield f"Prototype {p.get('name')!r}: {traits}"

    def pieces() -> Iterator[str]:
        for s in root.iter("VASSAL.build.widget.PieceSlot", "VASSAL.build.widget.CardSlot"):
            d = _piece(s.text or "")
            traits = ("; ".join(describe_trait(t, st) for t, st in d.levels) if d
                      else "undecodable")
            yield f"Piece {s.get('entryName')!r} gpid {s.get('gpid')}: {traits}"

    def setup(s: etree._Element) -> Iterator[str]:
        f = s.get("file", "")
        yield f"Setup {s.get('name')!r}" + (f" ({f})" if s.get("useFile") == "true" else "")
        if arc is None or s.get("useFile") != "true" or not f:
            return
        if f not in arc:
            yield f"  setup file {f!r} is not in the archive"
            return
        yield from _part(f"  setup file {f!r}", lambda: placed(f))

    def placed(f: str) -> Iterator[str]:
        with open_archive(arc.read(f)) as inner:
            save = decode_save_text(deobfuscate(inner.read("savedGame")))
        for p in save.pieces:
            where = f"({p.x}, {p.y})"
            info = grids.get(p.map_name or "")
            if info and info[0] is not None and p.x is not None and p.y is not None:
                g, w, h, ew, eh = info
                where = hex_label(p.x - ew, p.y - eh, g, w, h)
            yield f"  {p.name} on {p.map_name} at {where}"

    yield from _part("Maps", maps)
    yield from _part("Prototypes", prototypes)
    yield from _part("Pieces", pieces)
    for s in root.iter(VM + "PredefinedSetup"):
        yield from _part(f"Setup {s.get('name')!r}", lambda s=s: setup(s))


def inspect_bytes(data: bytes, title: str = "") -> list[str]:
    """Lines describing a module/extension archive, a save, or bare buildFile XML bytes.

    Raises:
        VassalFormatError: the archive or XML is unsafe or unreadable.
    """
    from .archive import parse_xml

    if data.lstrip()[:1] == b"<":
        return list(_lines(parse_xml(data, title), None, title))
    with open_archive(data) as arc:
        entry = "buildFile.xml" if "buildFile.xml" in arc else "buildFile"
        if entry not in arc and "savedGame" in arc:
            save = decode_save_text(deobfuscate(arc.read("savedGame")))
            return [f"Save with {len(save.pieces)} pieces ({title})"] + [
                f"  {p.name} on {p.map_name} at ({p.x}, {p.y})" for p in save.pieces]
        return list(_lines(arc.read_xml(entry), arc, title))


def inspect_path(path: str | os.PathLike[str]) -> list[str]:
    """:func:`inspect_bytes` of a file (size-bounded like :func:`~.archive.open_archive`)."""
    from .archive import Limits, VassalFormatError

    if not os.path.isfile(path):
        raise VassalFormatError("not a regular file (a folder, a device or missing)", os.path.basename(os.fspath(path)))
    if os.path.getsize(path) > Limits().max_total_size:
        raise VassalFormatError("file larger than the size limit", os.path.basename(os.fspath(path)))
    with open(path, "rb") as fh:
        return inspect_bytes(fh.read(), os.path.basename(os.fspath(path)))
