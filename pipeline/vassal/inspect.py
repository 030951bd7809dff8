"""What a module, extension or save holds, in words (``gunbai inspect``).

Maps, boards and their grids, prototypes, palette pieces with their traits described, and the
setups with the pieces each places, named by grid location when the board has a hex or square
grid with numbering (the label algorithm of ``vassal-format.md`` §2.5, ported from VASSAL's
``HexGridNumbering``/``RegularGridNumbering``).

Grid locations come from :meth:`pipeline.vassal.grids.HexGrid.location` (the grid read back
by :func:`pipeline.vassal.read.grid_from_element`), the same code ``gunbai import`` uses.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator

from lxml import etree

from .archive import VassalFormatError, open_archive
from .grids import HexGrid, SquareGrid
from .pieces import DecodedPiece, PieceDecodeError, decode_add_piece
from .read import grid_from_element, pixel_size
from .save import read_saved_game
from .sequence import decode

__all__ = ["describe_trait", "inspect_bytes", "inspect_path", "iter_inspect_bytes",
           "iter_inspect_path"]

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
            size = pixel_size(arc.read_head("images/" + name, 1 << 16))
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


def _px(value: float) -> str:
    """A grid measure in pixels as a person writes it: at most 3 decimals, no trailing zeros
    (``227.90000000000052`` is ``227.9``).

    >>> _px(227.90000000000052), _px(64.0), _px(55.4256)
    ('227.9', '64', '55.426')
    """
    return f"{value:.3f}".rstrip("0").rstrip(".")


def _lines(root: etree._Element, arc, title: str) -> Iterator[str]:
    if root.tag == VM + "ModuleExtension":
        # VASSAL names an extension after its file ("Extension 'X' was built for …",
        # ModuleExtension.getName: the archive's name without its suffix)
        name = os.path.splitext(os.path.basename(title))[0] or root.get("extensionId", "")
        base = "any module" if root.get("anyModule") == "true" else f"module {root.get('module')!r}"
        built = (f" {root.get('moduleVersion')}" if root.get("moduleVersion") and
                 root.get("anyModule") != "true" else "")
        yield (f"Extension {name!r} version {root.get('version', '')}, extensionId "
               f"{root.get('extensionId', '')!r}, for {base}{built} ({title})")
    else:
        yield f"Module {root.get('name')!r} version {root.get('version', '')} ({title})"
    grids: dict[str, tuple[HexGrid | SquareGrid | None, int, int, int, int]] = {}

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
        g = grid_from_element(hg) if hg is not None and problem is None else None
        if isinstance(g, HexGrid):
            desc = (f"hex grid x0={_px(g.x0)} y0={_px(g.y0)} dx={_px(g.dx)} dy={_px(g.dy)}"
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
        with open_archive(arc.read(f, keep=False)) as inner:
            if "savedGame" not in inner:
                raise VassalFormatError("not a VASSAL save: no savedGame entry (§4.1)", f)
            save = read_saved_game(inner.read("savedGame", keep=False))
        for p in save.pieces:
            where = f"({p.x}, {p.y})"
            info = grids.get(p.map_name or "")
            if info and info[0] is not None and p.x is not None and p.y is not None:
                g, w, h, ew, eh = info
                where = g.location(p.x - ew, p.y - eh, (w, h)) or where
            yield f"  {p.name} on {p.map_name} at {where}"

    def at_start() -> Iterator[str]:
        from .atstart import read_at_start_stacks

        for st in read_at_start_stacks(root):
            where = (f"location {st.location}" if st.location is not None else f"({st.x}, {st.y})")
            board = f" board {st.board!r}" if st.board is not None else ""
            names = ", ".join(p.basic.name if p is not None and p.basic is not None
                              else f"{label} (undecodable)" for label, p in st.pieces)
            yield (f"At-start stack {st.name!r} on {st.map_name!r}{board} at {where}: "
                   f"{len(st.pieces)} piece(s){': ' + names if names else ''}")

    yield from _part("Maps", maps)
    yield from _part("At-start stacks", at_start)
    yield from _part("Prototypes", prototypes)
    yield from _part("Pieces", pieces)
    for s in root.iter(VM + "PredefinedSetup"):
        yield from _part(f"Setup {s.get('name')!r}", lambda s=s: setup(s))


def inspect_bytes(data: bytes, title: str = "") -> list[str]:
    """Lines describing a module/extension archive, a save, or bare buildFile XML bytes: the
    lines of :func:`iter_inspect_bytes` as a list.

    Raises:
        VassalFormatError: the archive or XML is unsafe or unreadable.
    """
    return list(iter_inspect_bytes(data, title))


def iter_inspect_bytes(data: bytes, title: str = "") -> Iterator[str]:
    """The lines of :func:`inspect_bytes`, one at a time: a module's setups are read one after
    another as their lines are asked for, and only one setup's pieces are held at once (a
    module with millions of placed pieces is described without holding millions of lines).

    Raises:
        VassalFormatError: the archive or XML is unsafe or unreadable (before the first line:
            each later part of the description reports its own failure as a line).
    """
    from .archive import parse_xml

    if data.lstrip()[:1] == b"<":
        yield from _lines(parse_xml(data, title), None, title)
        return
    yield from _archive_lines(data, title)


def _archive_lines(source: bytes | str, title: str) -> Iterator[str]:
    """The lines of an archive given as its bytes or its path (read entry by entry from the
    file, never whole: a module of 150 MB is not held in memory to describe it).

    Raises:
        VassalFormatError: as :func:`iter_inspect_bytes`.
    """
    with open_archive(source) as arc:
        entry = "buildFile.xml" if "buildFile.xml" in arc else "buildFile"
        if entry not in arc and "savedGame" not in arc and (
            "savedata" in arc
            or os.path.splitext(title)[1].lower() in (".vsav", ".vlog", ".sav", ".log")
        ):
            raise VassalFormatError("not a VASSAL save: no savedGame entry (§4.1)")
        if entry not in arc and "savedGame" in arc:
            save = read_saved_game(arc.read("savedGame", keep=False))
            yield f"Save with {len(save.pieces)} pieces ({title})"
            for p in save.pieces:
                yield f"  {p.name} on {p.map_name} at ({p.x}, {p.y})"
            return
        yield from _lines(arc.read_xml(entry), arc, title)


def inspect_path(path: str | os.PathLike[str]) -> list[str]:
    """:func:`inspect_bytes` of a file (size-bounded like :func:`~.archive.open_archive`)."""
    return list(iter_inspect_path(path))


def iter_inspect_path(path: str | os.PathLike[str]) -> Iterator[str]:
    """:func:`iter_inspect_bytes` of a file (size-bounded like :func:`~.archive.open_archive`).

    Raises:
        VassalFormatError: not a regular file, too large, or as :func:`iter_inspect_bytes`.
    """
    from .archive import Limits, VassalFormatError

    if not os.path.isfile(path):
        raise VassalFormatError("not a regular file (a folder, a device or missing)", os.path.basename(os.fspath(path)))
    if os.path.getsize(path) > Limits().max_total_size:
        raise VassalFormatError("file larger than the size limit", os.path.basename(os.fspath(path)))
    title = os.path.basename(os.fspath(path))
    with open(path, "rb") as fh:
        raw = fh.read(4096)
        head = raw.lstrip()
        if head and head[:1] != b"<":  # an archive: its entries are read from the file
            archive = True
        else:  # bare XML (or only whitespace so far): read whole, as inspect_bytes reads it
            archive, data = False, raw + fh.read()
    if archive:
        yield from _archive_lines(os.fspath(path), title)
    else:
        yield from iter_inspect_bytes(data, title)
