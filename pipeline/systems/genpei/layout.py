"""Pixel layout of the hex board: where each hex is drawn, and the VASSAL HexGrid that matches it.

The board image, the VASSAL HexGrid and the predefined setups all take hex centres from
:meth:`HexLayout.centre`, so a piece placed by a setup lands on the hex drawn under it.

Hexes are pointy-topped in horizontal rows. Centres are whole pixels: hexes are ``hex_width``
pixels wide (flat side to flat side) and rows ``row_height`` pixels apart. ``row_height`` is
``round(hex_width * sqrt(3) / 2)``, so the hexes are regular to within half a pixel.

Example::

    >>> from pipeline.data.common import Source
    >>> from pipeline.systems.genpei.model import BoardGeometry
    >>> b = BoardGeometry(id="b", name="b", columns=12, rows=11, short_rows="even",
    ...     section_lines=(4.0, 8.0), sources=[Source(doc="x", section="y")])
    >>> lay = HexLayout(b, hex_width=84, margin=24)
    >>> lay.row_height
    73
    >>> lay.centre((1, 1)), lay.centre((1, 2))
    ((66, 73), (108, 146))
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from pipeline.systems.genpei.model import BoardGeometry

#: Unit vectors (dx, dy in hex steps) of the six directions, for pointy-topped hexes.
DIRECTIONS = ("NE", "E", "SE", "SW", "W", "NW")


@dataclass(frozen=True)
class HexLayout:
    """Pixel geometry of a :class:`BoardGeometry`.

    Attributes:
        board: the board.
        hex_width: hex width in pixels, flat side to flat side (horizontal).
        margin: blank border around the hexes, in pixels.
    """

    board: BoardGeometry
    hex_width: int
    margin: int

    def __post_init__(self) -> None:
        if self.board.short_rows != "even":
            # VASSAL's sideways HexGrid shifts odd raw rows (0-based), i.e. rows 2, 4, … here.
            raise ValueError("HexLayout needs short_rows: even (VASSAL shifts the 2nd, 4th… rows)")
        if self.hex_width % 2:
            raise ValueError("hex_width must be even so that half a hex is a whole pixel")

    @property
    def row_height(self) -> int:
        """Vertical distance between the centres of two rows, in pixels."""
        return round(self.hex_width * math.sqrt(3) / 2)

    @property
    def hex_height(self) -> float:
        """Hex height point to point, in pixels (4/3 of the row height)."""
        return self.row_height * 4 / 3

    @property
    def size(self) -> tuple[int, int]:
        """Board image size ``(width, height)`` in pixels."""
        w = self.board.columns * self.hex_width + 2 * self.margin
        h = (self.board.rows - 1) * self.row_height + math.ceil(self.hex_height) + 2 * self.margin
        return w, h

    @property
    def origin(self) -> tuple[int, int]:
        """Pixel centre of hex ``[1, 1]``."""
        return self.margin + self.hex_width // 2, self.margin + math.ceil(self.hex_height / 2)

    def centre(self, hex_: tuple[int, int]) -> tuple[int, int]:
        """Pixel centre ``(x, y)`` of ``[column, row]`` on the board image.

        Raises:
            ValueError: the hex is not on the board.
        """
        if not self.board.contains(hex_):
            raise ValueError(f"hex {list(hex_)} is not on the board")
        col, row = hex_
        ox, oy = self.origin
        shift = self.hex_width // 2 if self.board.is_short_row(row) else 0
        return ox + (col - 1) * self.hex_width + shift, oy + (row - 1) * self.row_height

    def corners(self, hex_: tuple[int, int]) -> list[tuple[float, float]]:
        """The six corners of a hex, clockwise from the top, in pixels."""
        cx, cy = self.centre(hex_)
        w2, h2, h4 = self.hex_width / 2, self.hex_height / 2, self.hex_height / 4
        return [(cx, cy - h2), (cx + w2, cy - h4), (cx + w2, cy + h4), (cx, cy + h2), (cx - w2, cy + h4), (cx - w2, cy - h4)]

    def hexside(self, hex_: tuple[int, int], direction: str) -> tuple[tuple[float, float], tuple[float, float]]:
        """End points of the hexside of ``hex_`` facing ``direction`` (NE, E, SE, SW, W, NW)."""
        c = self.corners(hex_)
        i = DIRECTIONS.index(direction)
        return c[i], c[(i + 1) % 6]

    def vassal_grid(self) -> dict[str, float | int | bool]:
        """Attributes of the VASSAL ``HexGrid`` that puts its centres on :meth:`centre`.

        VASSAL's sideways grid swaps x and y (vassal-format.md §2.5): ``x0`` is the vertical
        pixel of raw hex (0, 0), ``y0`` the horizontal one, ``dx`` the distance between rows and
        ``dy`` between hexes in a row; odd raw rows are shifted right by ``dy / 2``.
        """
        ox, oy = self.origin
        return {"sideways": True, "x0": oy, "y0": ox, "dx": float(self.row_height), "dy": float(self.hex_width)}

    @staticmethod
    def raw_index(hex_: tuple[int, int]) -> tuple[int, int]:
        """VASSAL's raw ``(column, row)`` of ``[column, row]`` in the sideways frame: the raw
        column counts rows and the raw row counts hexes within a row, both from 0."""
        col, row = hex_
        return row - 1, col - 1

    def neighbour(self, hex_: tuple[int, int], direction: str) -> tuple[int, int]:
        """The hex next to ``hex_`` across the hexside facing ``direction`` (may be off-board)."""
        col, row = hex_
        short = self.board.is_short_row(row)
        dcol_up = {"NE": 1 if short else 0, "NW": 0 if short else -1}
        if direction == "E":
            return col + 1, row
        if direction == "W":
            return col - 1, row
        if direction in ("NE", "NW"):
            return col + dcol_up[direction], row - 1
        if direction == "SE":
            return col + (1 if short else 0), row + 1
        return col + (0 if short else -1), row + 1  # SW
