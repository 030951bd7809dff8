"""Board grids and their geometry, computed exactly as VASSAL 3.7 computes it.

``HexGrid.center`` ports ``HexGridNumbering.getCenterPoint`` and ``HexGrid.snap`` ports
``HexGrid.snapToHex`` (3.7.26 source), which is what ``vassal-format.md`` §2.5 describes:
``x = x0 + (int)(i·dx)``, ``y = y0 + (int)(j·dy [+ dy/2 if i odd])`` in a frame that is swapped
(x↔y) for sideways grids. Renderers draw boards from these same functions, so pieces placed by
a save land exactly on the drawn hexes. All coordinates are board pixels (ints).

>>> HexGrid(x0=30, y0=35, dx=51.96, dy=60.0).center(1, 0)
(81, 65)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["Grid", "GridNumbering", "HexGrid", "SquareGrid", "number_name"]


def _trunc(v: float) -> int:
    """Java ``(int)`` cast of a double: truncation toward zero."""
    return int(v)


def _round(v: float) -> int:
    """Java ``Math.round`` / ``(int) floor(v + 0.5)``: halves round up."""
    return math.floor(v + 0.5)


def number_name(n: int, kind: str, leading: int) -> str:
    """One part of a grid location name, as ``RegularGridNumbering.getName(int, char, int)``:
    alphabetic (``A``) 0→A … 25→Z, 26→AA, 27→BB; numeric (``N``) with a ``0`` added while the
    number is below 10^leading, 10^(leading-1), … (``leading=1``: 7→07; ``leading=2``: 7→007,
    15→015); a negative number gets a ``-`` before its absolute value.

    >>> number_name(7, "N", 1), number_name(15, "N", 2), number_name(27, "A", 0), number_name(-2, "N", 0)
    ('07', '015', 'BB', '-2')
    """
    out = "-" if n < 0 else ""
    n = abs(int(n))
    if kind == "A":
        while True:
            out += chr(ord("A") + n % 26)
            n -= 26
            if n < 0:
                return out
    while leading > 0 and n < 10 ** leading:
        out += "0"
        leading -= 1
    return out + str(n)


@dataclass(frozen=True)
class GridNumbering:
    """``HexGridNumbering`` / ``SquareGridNumbering`` attributes (§2.5 numbering table).

    Raises:
        ValueError: (on construction) if ``first`` is not ``H``/``V`` or ``h_type``/``v_type``
            not ``N``/``A``: an empty value makes the whole module fail to load (§7.1).
    """

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
    stagger: bool = False
    location_format: str = "$gridLocation$"
    visible: bool = False
    font_size: int = 9
    color: str = "0,0,0"
    rotate_text: int = 0
    h_draw_off: int = 0
    v_draw_off: int = 0

    def name(self, row: int, column: int) -> str:
        """The location name of numbered ``row`` and ``column`` (after descend and stagger,
        before the offsets), as ``RegularGridNumbering.getName(row, column)``: each part
        :func:`number_name` of ``value + offset``, joined with ``sep`` in ``first`` order."""
        row_name = number_name(row + self.v_off, self.v_type, self.v_leading)
        col_name = number_name(column + self.h_off, self.h_type, self.h_leading)
        return col_name + self.sep + row_name if self.first == "H" else row_name + self.sep + col_name

    def __post_init__(self) -> None:
        if self.first not in ("H", "V"):
            raise ValueError(f"numbering 'first' must be H or V, got {self.first!r}")
        for name in ("h_type", "v_type"):
            if getattr(self, name) not in ("N", "A"):
                raise ValueError(f"numbering {name} must be N or A, got {getattr(self, name)!r}")


@dataclass(frozen=True)
class HexGrid:
    """A ``HexGrid`` (§2.5). ``x0``, ``y0`` int pixels; ``dx`` (column spacing), ``dy`` (hex
    height) in pixels. With ``sideways=True`` every value applies to the swapped frame: ``x0`` is
    the vertical coordinate of hex (0,0), ``dx`` the vertical row spacing, and odd rows shift
    right by ``dy/2``.

    Raises:
        ValueError: (on construction) for non-positive ``dx``/``dy``.
    """

    x0: int = 0
    y0: int = 32
    dx: float = 64.0 * math.sqrt(3) / 2
    dy: float = 64.0
    sideways: bool = False
    snap_to: bool = True
    edges_legal: bool = False
    corners_legal: bool = False
    visible: bool = False
    dots_visible: bool = False
    color: str = "0,0,0"
    numbering: GridNumbering | None = None

    def __post_init__(self) -> None:
        if not (self.dx > 0 and self.dy > 0):
            raise ValueError("HexGrid dx and dy must be positive")
        if int(self.x0) != self.x0 or int(self.y0) != self.y0:
            raise ValueError("HexGrid x0/y0 are Java ints")

    def center(self, raw_col: int, raw_row: int) -> tuple[int, int]:
        """Board-pixel centre of raw hex (``raw_col``, ``raw_row``), both 0-based, no numbering
        offsets (``getCenterPoint`` without stagger/descend, §2.5).

        Non-sideways: ``(x0 + (int)(c·dx), y0 + (int)(r·dy [+ dy/2 if c odd]))``.
        Sideways: the same in the swapped frame, then swapped back, so ``raw_col`` counts rows
        of hexes downwards and ``raw_row`` counts hexes to the right.

        >>> HexGrid(x0=40, y0=20, dx=60.0, dy=70.0, sideways=True).center(1, 2)
        (195, 100)
        """
        col, row = int(raw_col), int(raw_row)
        px = _trunc(col * self.dx) + int(self.x0)
        if col % 2 == 0:
            py = _trunc(row * self.dy)
        else:
            py = _trunc(row * self.dy + self.dy / 2)
        py += int(self.y0)
        return (py, px) if self.sideways else (px, py)

    def raw_index(self, x: int, y: int) -> tuple[int, int]:
        """Raw ``(column, row)`` of the hex nearest board pixel (x, y), both 0-based, as
        ``HexGrid.getRawColumn``/``getRawRow``: in the (swapped, when sideways) frame,
        ``column = round((x - x0) / dx)`` and ``row = round((y - y0 [- dy/2 if column odd]) / dy)``.
        Inverse of :meth:`center` on hex centres.

        >>> g = HexGrid(x0=40, y0=20, dx=60.0, dy=70.0, sideways=True)
        >>> g.raw_index(*g.center(3, 5))
        (3, 5)
        """
        if self.sideways:
            x, y = y, x
        col = _round((x - int(self.x0)) / self.dx)
        shift = self.dy / 2 if col % 2 else 0.0
        return col, _round((y - int(self.y0) - shift) / self.dy)

    def location(self, x: int, y: int, board_size: tuple[int, int]) -> str | None:
        """The grid location name VASSAL gives board pixel (x, y) (``HexGridNumbering.
        locationName`` with ``$gridLocation$``), or None without a numbering. ``board_size`` is
        the board's ``(width, height)`` in pixels, needed when a numbering descends.

        Descend and stagger follow the 3.7.26 source: for a sideways grid ``vDescend`` counts
        the raw column down from ``floor(height / dx + 0.5)`` and ``hDescend`` the raw row from
        ``floor(width / dy + 0.5)``; for an upright grid ``hDescend`` counts the column from
        ``floor(width / dy + 0.5)`` and ``vDescend`` the row from ``floor(height / dx + 0.5)``
        (VASSAL's own quirk); ``stagger`` adds 1 to the row of odd raw columns (subtracts with
        the descend that applies to rows).

        >>> g = HexGrid(x0=30, y0=35, dx=51.96, dy=60.0, numbering=GridNumbering())
        >>> g.location(81, 65, (500, 400))
        '0201'
        """
        n = self.numbering
        if n is None:
            return None
        raw_col, raw_row = self.raw_index(x, y)
        width, height = board_size
        max_rows = math.floor(height / self.dx + 0.5)
        max_cols = math.floor(width / self.dy + 0.5)
        col, row = raw_col, raw_row
        if self.sideways:
            if n.v_descend:
                col = max_rows - col
            if n.h_descend:
                row = max_cols - row
            row_descends = n.h_descend
        else:
            if n.h_descend:
                col = max_cols - col
            if n.v_descend:
                row = max_rows - row
            row_descends = n.v_descend
        if n.stagger and raw_col % 2:
            row += -1 if row_descends else 1
        return n.name(row, col)

    def snap(self, x: int, y: int) -> tuple[int, int]:
        """The nearest hex centre to board pixel (x, y), as ``HexGrid.snapToHex`` (snapscale 0)."""
        if self.sideways:
            x, y = y, x
        ox, oy, dx, dy = int(self.x0), int(self.y0), self.dx, self.dy
        hx = _trunc(dx * math.floor((x - ox + dx / 2) / dx) + ox)
        nx = math.floor((x - ox + dx / 2) / dx)
        if nx % 2 == 0:
            hy = _trunc(dy * math.floor((y - oy + dy / 2) / dy) + oy)
        else:
            hy = _trunc(dy * math.floor((y - oy) / dy) + _trunc(dy / 2) + oy)
        return (hy, hx) if self.sideways else (hx, hy)


@dataclass(frozen=True)
class SquareGrid:
    """A ``SquareGrid`` (§2.5): ``x0``, ``y0`` int pixel centre of cell (0,0); ``dx``, ``dy`` cell
    size in pixels; ``range`` is ``Metric`` or ``Manhattan``.

    Raises:
        ValueError: (on construction) for non-positive sizes or an unknown range.
    """

    x0: int = 24
    y0: int = 24
    dx: float = 48.0
    dy: float = 48.0
    range: str = "Metric"
    snap_to: bool = True
    edges_legal: bool = False
    corners_legal: bool = False
    visible: bool = False
    dots_visible: bool = False
    color: str = "0,0,0"
    numbering: GridNumbering | None = None

    def __post_init__(self) -> None:
        if not (self.dx > 0 and self.dy > 0):
            raise ValueError("SquareGrid dx and dy must be positive")
        if self.range not in ("Metric", "Manhattan"):
            raise ValueError("SquareGrid range must be Metric or Manhattan")

    def center(self, raw_col: int, raw_row: int) -> tuple[int, int]:
        """Board-pixel centre of cell (col, row): ``((int)(c·dx + x0), (int)(r·dy + y0))``, as
        ``SquareGridNumbering.getCenterPoint`` (note: the cast comes after adding the origin).

        >>> SquareGrid(x0=10, y0=10, dx=20.5, dy=20.5).center(3, 1)
        (71, 30)
        """
        return (
            _trunc(int(raw_col) * self.dx + int(self.x0)),
            _trunc(int(raw_row) * self.dy + int(self.y0)),
        )

    def raw_index(self, x: int, y: int) -> tuple[int, int]:
        """Raw ``(column, row)`` of the cell holding board pixel (x, y), as
        ``SquareGridNumbering.getColumn``/``getRow`` before descend: ``floor((x-x0)/dx + 0.5)``
        and ``(int)((y-y0)/dy + 0.5)`` (§2.5)."""
        return math.floor((x - int(self.x0)) / self.dx + 0.5), _trunc((y - int(self.y0)) / self.dy + 0.5)

    def location(self, x: int, y: int, board_size: tuple[int, int]) -> str | None:
        """The grid location name of board pixel (x, y), or None without a numbering
        (``SquareGridNumbering``: descend counts from ``floor(width/dx + 0.5)`` columns and
        ``floor(height/dy + 0.5)`` rows)."""
        n = self.numbering
        if n is None:
            return None
        col, row = self.raw_index(x, y)
        if n.h_descend:
            col = math.floor(board_size[0] / self.dx + 0.5) - col
        if n.v_descend:
            row = math.floor(board_size[1] / self.dy + 0.5) - row
        return n.name(row, col)


Grid = HexGrid | SquareGrid
