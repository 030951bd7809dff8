"""A module's At-Start Stacks (``VASSAL.build.module.map.SetupStack``): pieces a map places when
a new game starts, without any setup file.

``SetupStack.setup`` (VASSAL 3.7.26, ``VASSAL/build/module/map/SetupStack.java``) places a stack
only on a new game and only when its owning board is in use (``isOwningBoardActive``: no
``owningBoard``, or one the map has). Its position is ``x``/``y`` in pixels of the owning board,
offset by that board's origin on the map, or, without an owning board, offset by the map's edge
(``Map.getEdgeBuffer``); with ``useGridLocation`` the position is the centre of grid location
``location`` on the owning board (``updatePosition``: ``MapGrid.getLocation``). Each child
``PieceSlot`` / ``CardSlot`` is one piece of the stack.

:func:`read_at_start_stacks` reads them; :func:`at_start_save` turns them into the pieces of a
:class:`~.save.DecodedSave` at their map positions, so that a module that sets up this way reads
like a setup (``gunbai import at-start --module M.vmod``, ``inspect``).
"""

from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from .pieces import DecodedPiece, PieceDecodeError, add_piece_command, decode_add_piece, nest
from .read import BoardInfo, ModuleInfo
from .sequence import decode, encode

__all__ = ["AT_START", "AtStartStack", "at_start_save", "grid_point", "read_at_start_stacks",
           "stack_position"]

VM = "VASSAL.build.module."
#: the name ``gunbai import`` takes for a module's At-Start Stacks in place of a setup
AT_START = "at-start"
_MAP_TAGS = (VM + "Map", VM + "PrivateMap", VM + "PlayerHand", "VASSAL.build.widget.WidgetMap")
_SLOT_TAGS = ("VASSAL.build.widget.PieceSlot", "VASSAL.build.widget.CardSlot")


@dataclass(frozen=True)
class AtStartStack:
    """One At-Start Stack: its ``name``, ``map_name``, owning ``board`` (None: any), ``x``/``y``
    (pixels on the owning board, or from the map's edge without one), the grid ``location``
    when ``useGridLocation`` is true (else None), its ``pieces`` (slot label and the decoded
    piece, None for a slot whose text does not decode) and its ``element``."""

    name: str
    map_name: str
    board: str | None
    x: int
    y: int
    location: str | None
    pieces: tuple[tuple[str, DecodedPiece | None], ...]
    element: etree._Element


def _int(text: str | None) -> int:
    try:
        return int(text or "0")
    except ValueError:
        return 0


def read_at_start_stacks(root: etree._Element) -> list[AtStartStack]:
    """Every ``SetupStack`` of a map of buildFile ``root`` (under the map, or in its folders:
    ``MapSubFolder``), in document order (``owningBoard`` empty or ``<any>`` is no owning
    board, as ``SetupStack.setAttribute``)."""
    out: list[AtStartStack] = []
    for m in root.iter(*_MAP_TAGS):
        for s in m.iter(VM + "map.SetupStack"):
            owner = s.getparent()
            while owner is not None and owner.tag not in _MAP_TAGS:
                owner = owner.getparent()
            if owner is not m:
                continue  # a stack of a map inside this one
            board = s.get("owningBoard") or None
            if board == "<any>":
                board = None
            pieces: list[tuple[str, DecodedPiece | None]] = []
            for slot in s:
                if slot.tag not in _SLOT_TAGS:
                    continue
                try:
                    p: DecodedPiece | None = decode_add_piece((slot.text or "").strip())
                except PieceDecodeError:
                    p = None
                pieces.append((slot.get("entryName", ""), p))
            grid = s.get("useGridLocation") == "true" and s.get("location")
            out.append(AtStartStack(s.get("name", ""), m.get("mapName", ""), board,
                                    _int(s.get("x")), _int(s.get("y")), grid or None,
                                    tuple(pieces), s))
    return out


def grid_point(board: BoardInfo, location: str) -> tuple[int, int] | None:
    """Board pixels of the centre of grid location ``location`` on ``board`` (hex or square
    grid), or None when no cell of the board has that name (VASSAL: "Error.setup_stack_
    position_error", a BadDataReport, and the stack stays at x/y)."""
    grid, size = board.grid, board.size
    if grid is None or size is None:
        return None
    w, h = size
    cols = int(w / max(getattr(grid, "dx", 1.0), 1.0)) + 3
    rows = int(h / max(getattr(grid, "dy", 1.0), 1.0)) + 3
    for c in range(-2, cols + 1):
        for r in range(-2, rows + 1):
            x, y = grid.center(c, r)
            if 0 <= x < w and 0 <= y < h and grid.location(x, y, size) == location:
                return x, y
    return None


def stack_position(stack: AtStartStack, module: ModuleInfo) -> tuple[int, int] | None:
    """The map pixels where ``SetupStack.setup`` places ``stack``, or None when it is never
    placed (its map or owning board missing) or its board's origin is unknown (several boards
    and no ``owningBoard``... placed by the edge as VASSAL does)."""
    m = module.maps.get(stack.map_name)
    if m is None:
        return None
    ex, ey = m.edge
    if stack.board is None:
        return stack.x + ex, stack.y + ey
    b = m.boards.get(stack.board)
    if b is None:
        return None  # SetupStack.isOwningBoardActive: false, the stack is not placed
    x, y = stack.x, stack.y
    if stack.location is not None:
        point = grid_point(b, stack.location)
        if point is not None:
            x, y = point
    if len(m.boards) != 1:
        return None  # the board's origin depends on the boards the player picks
    return x + ex, y + ey


def at_start_save(root: etree._Element, module: ModuleInfo):
    """The At-Start Stacks of buildFile ``root`` as a :class:`~.save.DecodedSave`: one piece
    per slot, ids ``atstart-<n>``, each BasicPiece state on its stack's map at the position of
    :func:`stack_position` (stacks never placed, or whose position is unknown, are left out;
    so are slots that do not decode). The save's boards are the module's own."""
    from .commands import join_commands
    from .save import read_saved_game

    commands = ["begin_save"]
    n = 0
    for stack in read_at_start_stacks(root):
        at = stack_position(stack, module)
        if at is None:
            continue
        for _label, p in stack.pieces:
            if p is None or p.basic is None:
                continue
            n += 1
            types = [t for t, _ in p.levels]
            states = [s for _, s in p.levels]
            fields = decode(states[-1], ";") if states[-1] else []
            fields += [""] * (4 - len(fields))
            fields[0], fields[1], fields[2] = stack.map_name, str(at[0]), str(at[1])
            states[-1] = encode(fields, ";")
            commands.append(add_piece_command(f"atstart-{n}", nest(types), nest(states)))
    commands.append("end_save")
    return read_saved_game(join_commands(commands).encode("utf-8"))
